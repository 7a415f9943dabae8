"""The browser app, page by page, through streamlit.testing.v1.AppTest (no browser)."""
import json

import numpy as np
import pytest

pytest.importorskip("streamlit")
pytest.importorskip("plotly")

from streamlit.testing.v1 import AppTest  # noqa: E402

import boardlab  # noqa: E402
from boardlab.streamlit_app import MAIN_SCRIPT, streamlit_command  # noqa: E402
from boardlab.streamlit_app.games import kitsu as kui  # noqa: E402
from boardlab.streamlit_app.games import kitsu_text  # noqa: E402
from boardlab.streamlit_app.session import (AI, HUMAN, PlaySession, actors,  # noqa: E402
                                            session_from_record)
from board_clicks import board_data, boards, click_place  # noqa: E402

TIMEOUT = 60
PLAY = "views/play.py"
ANALYSE = "views/analyse.py"
TREE = "views/tree.py"
RULES = "views/rules.py"


def app():
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, at.exception
    return at


def start_game(at, seed=5, preset="Beginner", players=2):
    at.selectbox(key="ng_players").set_value(players)
    at.radio(key="ng_preset").set_value(preset)
    at.number_input(key="ng_seed").set_value(seed)
    at.run()
    at.button(key="ng_start").click().run()
    assert not at.exception, at.exception
    return at.session_state["bl_play"]


def hand_places(at, enabled=True):
    """The cards of the clickable hand (the board component keyed *-kcard-hand)."""
    places = board_data(at, "-kcard-hand")["places"]
    return [p for p in places if p["legal"] or not enabled]


def decision_buttons(at):
    return [b for b in at.button if b.key and b.key.startswith("mv") and not b.disabled]


def play_one_human_move(at):
    """Click the first legal card of the hand, else the first decision button."""
    cards = hand_places(at) if boards(at, "-kcard-hand") else []
    if cards:
        click_place(at, "-kcard-hand", cards[0]["id"])
    else:
        buttons = decision_buttons(at)
        assert buttons, "no legal decision offered"
        buttons[0].click().run()
    assert not at.exception, at.exception


def finished_record(seed=3):
    game = boardlab.make("kitsu", players=2, track_length=4)
    s = game.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    while not s.is_terminal():
        if s.is_chance():
            o = s.chance_outcomes()
            p = np.array([q for _, q in o])
            s.apply(o[rng.choice(len(o), p=p / p.sum())][0])
        else:
            s.apply(int(rng.choice(s.legal_actions())))
    return s.to_record()


# --- play ------------------------------------------------------------------------------------
def test_new_game_human_move_and_ai_reply():
    at = app()
    sess = start_game(at)
    assert sess.seats == [HUMAN, AI]
    # the AI seats have already moved if they led: it is the human's turn now
    assert sess.state.current_player == 0
    hand = sess.state.observation(0)["hands"][0]
    assert len(hand_places(at, enabled=False)) == len(hand)
    obs = sess.state.observation(0)
    legal_words = {kitsu_text.decision_label(sess.state.action_to_string(a), obs, 0)
                   for a in sess.state.legal_actions()}
    offered = {p["label"] for p in hand_places(at)}     # "Play Blue 3", ...
    assert offered and offered <= legal_words          # only legal moves are clickable
    n_before = len(sess.state.history)
    play_one_human_move(at)
    sess = at.session_state["bl_play"]
    who = actors(sess.state)
    assert len(sess.state.history) > n_before
    assert who[n_before] == 0                       # the human's move...
    assert 1 in who[n_before + 1:]                  # ...and the AI replied
    log = at.text[0].value
    assert "P0 play" in log and "P1 play" in log


def test_undo_back_to_previous_decision():
    at = app()
    sess = start_game(at, seed=11)
    before = list(sess.state.history)
    play_one_human_move(at)
    assert len(at.session_state["bl_play"].state.history) > len(before)
    at.button(key="play_undo").click().run()
    assert not at.exception
    assert at.session_state["bl_play"].state.history == before
    assert at.session_state["bl_play"].state.current_player == 0


def test_hint_shows_top_three():
    at = app()
    start_game(at, seed=2)
    hint = [b for b in at.button if b.key and b.key.startswith("hint_")][0]
    hint.click().run()
    assert not at.exception
    assert any(m.value.startswith("**Hint: ") for m in at.markdown)
    table = next(m.value for m in at.markdown if "bl-hint-top" in m.value)
    assert 1 <= table.count("<tr>") - 1 <= 3 and "<th class='n'>visits</th>" in table
    sess = at.session_state["bl_play"]
    # its own budget: at Beginner (200 iterations a move) the hint still searches 2,000
    assert sess.preset == "Beginner" and sess.hint.iterations == 2000
    at.radio(key="play_analysis").set_value(5000).run()
    [b for b in at.button if b.key and b.key.startswith("hint_")][0].click().run()
    assert at.session_state["bl_play"].hint.iterations == 5000
    # the hinted card is marked in the hand
    card = sess.state.action_to_string(sess.hint.best_action).split()[1]
    marked = [p for p in hand_places(at) if p.get("mark") == "hint"]
    assert marked and all(p["id"].endswith(card) for p in marked)


def kitsu_table(at) -> str:
    """The SVG of the Kitsu table on the page (a board with its places)."""
    for e in boards(at):
        data = json.loads(e.proto.json)
        if isinstance(data, dict) and "CURRENT TRICK" in (data.get("svg") or ""):
            return data["svg"]
    raise AssertionError("no Kitsu table on the page")


def test_hidden_hands_and_show_all_toggle():
    at = app()
    sess = start_game(at, seed=4)
    svg = kitsu_table(at)
    opp = sess.state.observation(1)["hand_sizes"][1]
    assert f"{opp} cards" in svg                    # P1's hand is face down
    at.toggle(key="play_show_all").set_value(True).run()
    svg = kitsu_table(at)
    assert f"{opp} cards" not in svg                # the analysis toggle shows it


def test_save_load_round_trip():
    at = app()
    start_game(at, seed=8)
    play_one_human_move(at)
    sess = at.session_state["bl_play"]
    data = sess.record_json().encode()
    rec = json.loads(data)
    assert rec["format"] == "boardlab-record" and rec["app"]["seats"] == [HUMAN, AI]

    other = app()
    other.file_uploader(key="ng_upload").upload("game.json", data, "application/json").run()
    assert not other.exception, other.exception
    loaded = other.session_state["bl_play"]
    assert loaded.state == sess.state and loaded.state.history == sess.state.history
    assert loaded.seats == sess.seats and loaded.preset == sess.preset


@pytest.mark.parametrize("content, needle", [
    (b"{not json", "not valid JSON"),
    (b'{"format": "boardlab-record"}', "lacks"),
    (json.dumps({"format": "boardlab-record", "version": 1, "game": "kitsu",
                 "params": {"players": 2}, "seed": 1, "actions": [0, 9999]}).encode(),
     "cannot be applied"),
])
def test_malformed_upload_is_rejected_clearly(content, needle):
    at = app()
    at.file_uploader(key="ng_upload").upload("bad.json", content, "application/json").run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert errors and "Could not load bad.json" in errors[0] and needle in errors[0]
    assert "bl_play" not in at.session_state or at.session_state["bl_play"] is None


def test_game_over_screen():
    at = app()
    rec = json.dumps(finished_record()).encode()
    at.file_uploader(key="ng_upload").upload("done.json", rec, "application/json").run()
    assert not at.exception
    assert any("Game over" in s.value and "clan" in s.value for s in at.success)


def test_two_sessions_are_independent():
    a, b = app(), app()
    sa = start_game(a, seed=21)
    sb = start_game(b, seed=22)
    hb = list(sb.state.history)
    play_one_human_move(a)
    assert b.session_state["bl_play"].state.history == hb
    assert a.session_state["bl_play"] is not b.session_state["bl_play"]
    assert sa.state is not sb.state


def test_a_game_without_its_own_ui_gets_the_generic_one(monkeypatch):
    other = [g for g in boardlab.games_available() if g not in ("kitsu",)]
    if not other:
        pytest.skip("only Kitsu is compiled")
    from boardlab.streamlit_app.games import UIS, GameUI, ui_for
    name = other[0]
    monkeypatch.delitem(UIS, name, raising=False)      # as if it had no UI module
    assert type(ui_for(name)) is GameUI
    at = app()
    at.selectbox(key="ng_game").set_value(name).run()
    at.radio(key="ng_preset").set_value("Beginner")
    at.button(key="ng_start").click().run()
    assert not at.exception, at.exception
    sess = at.session_state["bl_play"]
    assert sess.game.name == name
    if sess.is_human_turn():
        n = len(sess.state.history)
        buttons = decision_buttons(at)
        legal = {sess.state.action_to_string(a) for a in sess.state.legal_actions()}
        assert buttons and {b.label for b in buttons} <= legal
        buttons[0].click().run()
        assert not at.exception, at.exception
        assert len(at.session_state["bl_play"].state.history) > n


# --- analyse ---------------------------------------------------------------------------------
def test_analysis_table_visits_sum_to_budget():
    at = app()
    start_game(at, seed=6)
    play_one_human_move(at)
    at.switch_page(ANALYSE).run()
    assert not at.exception, at.exception
    sliders = [s for s in at.slider if s.key and s.key.startswith("an_ply")]
    assert sliders
    sliders[0].set_value(sliders[0].max).run()     # now: the human to move (a live game)
    at.number_input(key="an_game_iters").set_value(300).run()
    at.button(key="an_game_run").click().run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    assert int(table["visits"].sum()) == 300
    assert {"move", "visits", "win %", "share %"} <= set(table.columns)
    assert any("Principal variation" in m.value for m in at.markdown)
    at.toggle(key="an_show_all_live").set_value(True).run()  # a later rerun keeps the result
    assert int(at.dataframe[0].value["visits"].sum()) == 300


def test_analysis_of_uploaded_record():
    at = app()
    at.switch_page(ANALYSE).run()
    rec = json.dumps(finished_record(seed=9)).encode()
    at.file_uploader(key="an_upload").upload("g.json", rec, "application/json").run()
    assert not at.exception
    at.slider[0].set_value(0).run()
    at.button(key="an_game_run").click().run()
    assert int(at.dataframe[0].value["visits"].sum()) == 2000


def test_analysis_from_a_seat():
    at = app()
    at.switch_page(ANALYSE).run()
    at.selectbox(key="seat_players").set_value(2)
    at.selectbox(key="seat_seat").set_value(0)
    at.selectbox(key="seat_leader").set_value(1)
    at.text_input(key="seat_hand").input("B1 B4 O4 O6 Black Katana")
    at.text_input(key="seat_trick").input("P1 O5")
    at.run()
    assert not any("Not representable" in i.value for i in at.info)     # no limitation notice
    at.button(key="seat_build").click().run()
    assert not at.exception, at.exception
    assert any("Position set up" in s.value for s in at.success)
    at.number_input(key="an_seat_iters").set_value(200).run()
    at.button(key="an_seat_run").click().run()
    table = at.dataframe[0].value
    assert int(table["visits"].sum()) == 200
    # only moves from the entered hand are searched
    assert all(m.split()[1] in {"B1", "B4", "O4", "O6", "Black", "Katana"}
               for m in table["notation"])


def test_analysis_from_a_seat_with_track_tokens_and_cards_seen():
    """A later position: pawns on the track, a round won, tokens held and used, a discard
    pile and the last trick, a known card: the position and the recommendation follow it."""
    at = app()
    at.switch_page(ANALYSE).run()
    at.selectbox(key="seat_players").set_value(4)
    at.run()
    at.selectbox(key="seat_seat").set_value(2)
    at.selectbox(key="seat_leader").set_value(0)
    at.text_input(key="seat_hand").input("B1 B4 O4 Black")
    at.text_input(key="seat_trick").input("O5, b2 with no-advance")
    at.number_input(key="seat_pawn_b").set_value(6)
    at.number_input(key="seat_pawn_o").set_value(9)
    at.number_input(key="seat_won_o").set_value(1)
    at.selectbox(key="seat_tok_+3").set_value(2)
    at.selectbox(key="seat_tok_hidden").set_value("used")
    at.text_input(key="seat_discard").input("B1 O1 O1 O2 B6 O6 White Katana")
    at.text_input(key="seat_last").input("B6 O6 White Katana")
    at.text_input(key="seat_known").input("P0: B3")
    at.run()
    at.button(key="seat_build").click().run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    pos, seat, _ = at.session_state["bl_analysis"]["seat_built"]
    obs = pos.observation(2)
    assert seat == 2 and pos.current_player == 2
    assert obs["pawns"] == [6, 9] and obs["rounds_won"] == [0, 1]
    assert obs["tokens"]["+3"]["holder"] == 2 and obs["tokens"]["hidden"]["used"]
    assert sorted(obs["discard"]) == sorted(["B1", "O1", "O1", "O2", "B6", "O6", "White", "Katana"])
    assert [c["card"] for c in obs["trick"]] == ["O5", "B2"]
    assert sorted(obs["hands"][2]) == sorted(["B1", "B4", "O4", "Black"])
    at.number_input(key="an_seat_iters").set_value(300).run()
    at.button(key="an_seat_run").click().run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    assert int(table["visits"].sum()) == 300
    assert any("with +3" in m for m in table["notation"])          # the held token may be played
    assert any("Principal variation" in m.value for m in at.markdown)
    assert any("Best move for P2" in m.value for m in at.markdown)


def test_analysis_from_a_seat_rejects_impossible_facts():
    at = app()
    at.switch_page(ANALYSE).run()
    at.text_input(key="seat_hand").input("B6 B6 O4 O6 Black Katana")
    at.run()
    at.button(key="seat_build").click().run()
    assert not at.exception
    assert any("cannot be set up" in e.value and "B6" in e.value for e in at.error)
    # an engine error is shown as such, and so is a seat that is not to move
    at.text_input(key="seat_hand").input("B1 O4 Black")
    at.text_input(key="seat_trick").input("O5 with +3 orange")
    at.selectbox(key="seat_leader").set_value(1)
    at.selectbox(key="seat_tok_+3").set_value(1)
    at.run()
    at.button(key="seat_build").click().run()
    assert any("+3 token is still held by P1" in e.value for e in at.error)
    at.selectbox(key="seat_tok_+3").set_value(None)
    at.text_input(key="seat_trick").input("")
    at.run()
    at.button(key="seat_build").click().run()
    assert any("P1 is to play, not you" in e.value for e in at.error)
    assert "seat_built" not in at.session_state["bl_analysis"]


def test_seat_facts_parsing():
    assert kui.parse_trick("P1 o5, hidden, b5 with +3 Blue; katana destroyed") == [
        "O5", "hidden", "B5 with +3 blue", "Katana destroyed"]
    assert kui.parse_known("P2: O6 white; p1: B1", 4) == {2: ["O6", "White"], 1: ["B1"]}
    with pytest.raises(kui.FactsError, match="not a seat"):
        kui.parse_known("P5: O6", 4)
    state = kui.position_from_facts(4, 15, 2, {"hand": ["B1", "B4", "O4", "O6", "Black", "White"],
                                               "leader": 0, "trick": ["O5", "B2"],
                                               "discard": [], "known": {3: ["O1"]}})
    obs = state.observation(2)
    assert state.current_player == 2
    assert [c["card"] for c in obs["trick"]] == ["O5", "B2"]
    with pytest.raises(ValueError):
        kui.position_from_facts(2, 15, 0, {"hand": ["B1"] * 4, "leader": 0})


# --- search tree -----------------------------------------------------------------------------
def test_tree_drill_down_and_export():
    at = app()
    at.switch_page(TREE).run()
    assert any("No search yet" in i.value for i in at.info)
    at.switch_page(PLAY).run()
    start_game(at, seed=13)
    hint = [b for b in at.button if b.key and b.key.startswith("hint_")][0]
    hint.click().run()
    at.switch_page(TREE).run()
    assert not at.exception, at.exception
    children = [b for b in at.button if b.key and b.key.startswith("tr_child_0_")]
    assert 1 <= len(children) <= 4                     # top-k, k = 4 by default
    children[0].click().run()
    assert not at.exception, at.exception
    assert at.session_state["tr_path"] == [0]
    assert any(m.value.startswith("**Focus:** P") for m in at.markdown)
    details = at.table[0].value
    assert "path" in details.index or "path" in details.columns
    deeper = [b for b in at.button if b.key and b.key.startswith("tr_child_1_")]
    if deeper:
        deeper[0].click().run()
        assert at.session_state["tr_path"] == [0, 0]
    at.button(key="tr_root").click().run()
    assert at.session_state["tr_path"] == []
    assert at.get("download_button")


# --- rules -----------------------------------------------------------------------------------
def test_rules_page():
    at = app()
    at.switch_page(RULES).run()
    assert not at.exception
    text = "\n".join(m.value for m in at.markdown)
    assert "Kitsu — rules as implemented" in text and "Stand-in components" in text


# --- launching -------------------------------------------------------------------------------
def test_app_command_line():
    from boardlab.cli import build_parser
    args = build_parser().parse_args(["app", "--port", "8600", "--host", "127.0.0.1"])
    assert args.port == 8600 and args.host == "127.0.0.1"
    cmd = streamlit_command(8600, "127.0.0.1")
    assert cmd[1:4] == ["-m", "streamlit", "run"] and cmd[4] == str(MAIN_SCRIPT)
    assert "--server.port" in cmd and "8600" in cmd and "127.0.0.1" in cmd


def test_play_session_records_and_undo_without_ui():
    game = boardlab.make("kitsu", players=4)
    sess = PlaySession(game=game, seats=[HUMAN, AI, HUMAN, AI], preset="Beginner", seed=3)
    while not sess.is_human_turn():
        sess.play_ai()
    p = sess.state.current_player
    hist = sess.state.history
    sess.apply_human(int(sess.state.legal_actions()[0]))
    assert sess.undo() and sess.state.history == hist and sess.state.current_player == p
    again = session_from_record(sess.record_json())
    assert again.state == sess.state and again.seats == sess.seats


# --- games kept on the server: links, reloads, restarts -------------------------------------
def test_a_game_is_resumed_from_its_link_and_after_a_server_restart():
    at = app()
    start_game(at, seed=31)
    play_one_human_move(at)
    gid = at.session_state["bl_game_id"]
    hist = list(at.session_state["bl_play"].state.history)
    assert at.query_params["game"] in (gid, [gid])            # the link names the game

    tab = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=TIMEOUT)  # a reload / new tab
    tab.query_params["game"] = gid
    tab.run()
    assert not tab.exception, tab.exception
    assert tab.session_state["bl_play"].state.history == hist
    assert tab.session_state["bl_play"] is at.session_state["bl_play"]   # the same game
    assert hand_places(tab) or decision_buttons(tab)                                        # ready to play on

    from boardlab.streamlit_app.common import game_store
    game_store.clear()                                       # a server restart: memory gone
    again = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=TIMEOUT)
    again.query_params["game"] = gid
    again.switch_page(ANALYSE).run()                         # straight to another page
    assert not again.exception, again.exception
    sess = again.session_state["bl_play"]
    assert sess.state.history == hist and sess.seats == [HUMAN, AI] and sess.preset == "Beginner"
    assert again.radio(key="an_source").value == "Current game"


@pytest.mark.parametrize("gid, needle", [("nope", "not a game id"),
                                         ("../../etc/passwd", "not a game id"),
                                         ("A" * 16, "no saved game")])
def test_a_bad_or_unknown_game_link_says_so(gid, needle):
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=TIMEOUT)
    at.query_params["game"] = gid
    at.run()
    assert not at.exception, at.exception
    assert any(needle in w.value for w in at.warning), [w.value for w in at.warning]
    assert at.session_state["bl_play"] is None if "bl_play" in at.session_state else True
    assert at.button(key="ng_start")                         # a new game can be started


def test_new_game_while_one_is_in_progress_asks_first():
    at = app()
    first = start_game(at, seed=41)
    at.button(key="ng_start").click().run()                  # no decision yet: no question
    assert not at.get("warning") or not any("in progress" in w.value for w in at.warning)
    first = at.session_state["bl_play"]
    first_id = at.session_state["bl_game_id"]
    play_one_human_move(at)
    at.button(key="ng_start").click().run()
    assert not at.exception, at.exception
    assert any("A game is in progress" in w.value for w in at.warning)
    assert at.session_state["bl_play"] is first              # nothing changed yet
    at.button(key="ng_confirm_no").click().run()
    assert at.session_state["bl_play"] is first and not at.session_state.get("ng_pending")
    at.button(key="ng_start").click().run()
    at.button(key="ng_confirm_yes").click().run()
    assert not at.exception, at.exception
    assert at.session_state["bl_play"] is not first
    assert at.session_state["bl_game_id"] != first_id
    from boardlab.streamlit_app.common import game_store
    assert game_store().get(first_id) is first               # the old game keeps its link


def test_loading_a_record_while_a_game_is_in_progress_asks_first():
    at = app()
    start_game(at, seed=43)
    play_one_human_move(at)
    first = at.session_state["bl_play"]
    rec = json.dumps(finished_record()).encode()
    at.file_uploader(key="ng_upload").upload("done.json", rec, "application/json").run()
    assert not at.exception, at.exception
    assert at.session_state["bl_play"] is first
    at.button(key="ng_confirm_yes").click().run()
    assert at.session_state["bl_play"].state.is_terminal()


# --- the table: AI replies, changes, undo after the AI finished, save -----------------------
def test_since_your_last_move_lists_what_the_others_did():
    at = app()
    start_game(at, seed=5, players=4)
    play_one_human_move(at)
    sess = at.session_state["bl_play"]
    strip = [m.value for m in at.markdown if "class='bl-changes'" in m.value]
    assert len(strip) == 1 and "Since your last move:" in strip[0]
    since = sess.since_last_decision(0)
    assert sess._actors[since - 1] == 0 and 0 not in sess._actors[since:]
    for seat in (1, 2, 3):
        if seat in sess._actors[since:]:
            assert f"P{seat} " in strip[0]


def test_let_the_ai_finish_keeps_the_seats_for_undo_and_play_again():
    at = app()
    start_game(at, seed=12)
    play_one_human_move(at)
    mine = at.session_state["bl_play"].state.history
    at.button(key="play_ai_finish").click().run(timeout=120)
    assert not at.exception, at.exception
    sess = at.session_state["bl_play"]
    assert sess.state.is_terminal() and sess.seats == [HUMAN, AI]
    assert any("Game over" in x.value for x in at.success)
    at.button(key="play_undo").click().run()                 # back to the last human decision
    sess = at.session_state["bl_play"]
    assert not sess.finishing and sess.is_human_turn() and sess.state.current_player == 0
    assert len(sess.state.history) >= len(mine) and (hand_places(at) or decision_buttons(at))
    at.button(key="play_ai_finish").click().run(timeout=120)
    at.button(key="play_again").click().run()
    assert not at.exception, at.exception
    again = at.session_state["bl_play"]
    assert again is not sess and again.seats == [HUMAN, AI] and not again.finishing
    assert again.is_human_turn() and (hand_places(at) or decision_buttons(at))


def test_save_builds_the_record_only_when_asked():
    at = app()
    start_game(at, seed=8)
    assert not at.get("download_button")                    # no record sent on every run
    at.button(key="play_save").click().run()
    assert not at.exception, at.exception
    downloads = at.get("download_button")
    assert len(downloads) == 1
    play_one_human_move(at)
    assert not at.get("download_button")                    # stale after a move: Save again
    assert at.button(key="play_save")


def test_the_log_has_round_headings_and_the_round_ending_trick():
    from boardlab.streamlit_app.common import log_lines, move_log
    game = boardlab.make("kitsu", players=2)
    sess = PlaySession(game=game, seats=[AI, AI], preset="Beginner", seed=3)
    while not sess.state.is_terminal():
        sess.play_ai()
    lines = move_log(sess.state, 0)
    rounds = [i for i, line in enumerate(lines) if line.startswith("── Round")]
    assert len(rounds) >= 2
    ends = [i for i, line in enumerate(lines) if "wins the round" in line]
    assert ends
    for i in ends:                       # the trick that ended the round is listed with its cards
        before = [line for line in lines[:i] if "Trick:" in line or line.startswith("──")]
        assert before and before[-1].lstrip().startswith("• Trick: P")
    # built move by move with a cache, the log is the same as built in one go
    cache = {}
    replay = game.new_initial_state(seed=3)
    for a in sess.state.history:
        replay.apply(a)
        log_lines(replay, 0, cache)
    assert move_log(sess.state, 0, cache) == lines


def test_kyushu_placements_are_listed_under_their_round():
    from boardlab.streamlit_app.common import move_log
    game = boardlab.make("kyushu", players=3)
    sess = PlaySession(game=game, seats=[AI, AI, AI], preset="Beginner", seed=3)
    while sess.state.observation(0)["round"] < 4:
        sess.play_ai()
    lines = move_log(sess.state, 0)
    heads = [i for i, line in enumerate(lines) if line.startswith("── Round")]
    assert [lines[i] for i in heads] == [f"── Round {r} ──" for r in (1, 2, 3, 4)]
    for r in (1, 2):                      # P1's round-r placement is before round r+1 begins
        block = lines[heads[r - 1]:heads[r]]
        assert any(line.strip().startswith("• P1 placed") for line in block), block


def test_app_command_hides_deploy_and_skips_the_post_run_gc():
    cmd = streamlit_command(8600)
    assert cmd[cmd.index("--client.toolbarMode") + 1] == "minimal"
    assert cmd[cmd.index("--runner.postScriptGC") + 1] == "false"
    from boardlab.streamlit_app import APP_DIR
    assert 'toolbarMode = "minimal"' in (APP_DIR / ".streamlit" / "config.toml").read_text()


def test_the_store_keeps_games_in_its_database(tmp_path):
    from boardlab.streamlit_app.store import GameStore
    store = GameStore(tmp_path)
    sess = PlaySession(game=boardlab.make("kitsu", players=4), seats=[HUMAN, AI, HUMAN, AI],
                       preset="Beginner", seed=3)
    while not sess.is_human_turn():
        sess.play_ai()
    sess.apply_human(int(sess.state.legal_actions()[0]))
    sess.finish_by_ai()
    gid = store.add(sess)
    assert sorted(p.name for p in tmp_path.iterdir())[0] == "boardlab.db"
    back = GameStore(tmp_path).get(gid)                      # another process, from the database
    assert back.state == sess.state and back.seats == sess.seats and back.finishing
    assert back.last_human == sess.last_human and back.can_undo()
    assert GameStore(tmp_path).get("B" * 12) is None
    with pytest.raises(ValueError, match="not a game id"):
        store.get("../x")


def test_a_foreign_groups_block_in_a_record_is_ignored():
    game = boardlab.make("kitsu", players=2)
    sess = PlaySession(game=game, seats=[HUMAN, AI], preset="Beginner", seed=3)
    while not sess.is_human_turn():
        sess.play_ai()
    rec = sess.record()
    for bad in ([[0, 999]], "x", [[1, 0]], [[0, True]]):
        rec["app"]["groups"] = bad
        assert session_from_record(json.dumps(rec)).groups == []


def test_analyse_of_a_live_game_shows_only_the_human_seat():
    at = app()
    sess = start_game(at, seed=5, players=4)
    play_one_human_move(at)
    at.switch_page(ANALYSE).run()
    assert not at.exception, at.exception
    sess = at.session_state["bl_play"]
    from boardlab.streamlit_app.session import decision_plies
    plies = decision_plies(sess.state)
    who = actors(sess.state)
    ai_decisions = [i for i, ply in enumerate(plies[:-1]) if who[ply] != 0]
    assert ai_decisions
    slider = [s for s in at.slider if s.key and s.key.startswith("an_ply")][0]
    slider.set_value(ai_decisions[-1]).run()
    assert not at.exception, at.exception
    svg = kitsu_table(at)
    assert svg.count("(you)") == 1 and "P0 · Blue  (you)" in svg
    mover = who[plies[ai_decisions[-1]]]
    pos_hand = sess.state.observation(0)["hand_sizes"]
    assert "cards" in svg                                   # the others' hands face down
    assert not at.get("button") or not [b for b in at.button if b.key == "an_game_run"]
    assert any(f"P{mover}'s decision" in i.value for i in at.info)
    at.toggle(key="an_show_all_live").set_value(True).run()   # stated, explicit
    assert at.button(key="an_game_run")
    del pos_hand
