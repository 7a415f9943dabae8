"""The Play page's shared table (views/play.py), through AppTest: "Show all hands" in a live
game marks it as peeked at (record, result screen), the "since your last move" strip holds
every line, a hint's places are ringed on the board, the How-to-play panel."""
import json
import time
import re

import pytest

pytest.importorskip("streamlit")

from streamlit.testing.v1 import AppTest  # noqa: E402

import boardlab  # noqa: E402
from boardlab.streamlit_app.games import GameUI  # noqa: E402
from boardlab.streamlit_app.games.base import changes_html  # noqa: E402
from boardlab.streamlit_app.session import (AI, HUMAN, PlaySession, peeked_at,  # noqa: E402
                                            session_from_record)
from board_clicks import board_data  # noqa: E402
from test_app import app, finished_record, play_one_human_move, start_game  # noqa: E402


def test_show_all_hands_in_a_live_game_marks_it_peeked_in_record_and_result():
    at = app()
    start_game(at, seed=8)
    play_one_human_move(at)
    sess = at.session_state["bl_play"]
    assert sess.peeked_at_ply is None and "peeked_at_ply" not in sess.record()["app"]
    ply = sess.ply
    at.toggle(key="play_show_all").set_value(True).run()
    assert not at.exception, at.exception
    assert sess.peeked_at_ply == ply
    at.toggle(key="play_show_all").set_value(False).run()     # switched off: still peeked
    rec = sess.record()
    assert rec["app"]["peeked_at_ply"] == ply
    assert boardlab.replay(rec) == sess.state                  # the record stays valid
    assert session_from_record(json.dumps(rec)).peeked_at_ply == ply
    from boardlab.streamlit_app.common import game_store
    game_store.clear()                                         # a server restart: from the store
    assert game_store().get(at.session_state["bl_game_id"]).peeked_at_ply == ply   # saved at once
    at.button(key="play_ai_finish").click().run(timeout=120)
    assert any("All hands were shown" in w.value for w in at.warning)


def test_show_all_hands_on_a_finished_game_is_no_peek():
    at = app()
    rec = json.dumps(finished_record()).encode()
    at.file_uploader(key="ng_upload").upload("done.json", rec, "application/json").run()
    at.toggle(key="play_show_all").set_value(True).run()
    assert not at.exception, at.exception
    assert at.session_state["bl_play"].peeked_at_ply is None
    assert not any("All hands were shown" in w.value for w in at.warning)


@pytest.mark.parametrize("value", [-1, 10_000, "3", 2.0, True, None])
def test_a_peek_that_does_not_fit_the_record_is_ignored(value):
    assert peeked_at({"app": {"peeked_at_ply": value}}, 50) is None
    assert peeked_at({"app": {"peeked_at_ply": 7}}, 50) == 7
    assert peeked_at({"app": "x"}, 50) is None and peeked_at({}, 50) is None


def test_an_all_ai_game_is_never_marked():
    sess = PlaySession(game=boardlab.make("kitsu", players=2), seats=[AI, AI], seed=1)
    assert not sess.peek() and sess.peeked_at_ply is None
    live = PlaySession(game=boardlab.make("kitsu", players=2), seats=[HUMAN, AI], seed=1)
    assert live.peek() and live.peeked_at_ply == live.ply


def test_since_your_last_move_holds_every_line_uncut():
    at = app()
    start_game(at, seed=5, players=4)
    play_one_human_move(at)
    sess = at.session_state["bl_play"]
    from boardlab.streamlit_app.common import changes_since
    lines = changes_since(sess, 0).lines
    strip = [m.value for m in at.markdown if "class='bl-changes'" in m.value]
    assert len(strip) == 1 and len(lines) >= 3
    items = re.findall(r"<li>(.*?)</li>", strip[0])
    assert len(items) == len(lines) and not any("…" in x for x in items)
    assert f"all {len(lines)}" in strip[0]
    html = changes_html(["P1 play O3", "Trick: P1 O3, P2 B1 → Blue +1 <x>"])
    assert "<li>Trick: P1 O3, P2 B1 → Blue +1 &lt;x&gt;</li>" in html   # escaped, whole


def _marks_script():
    from boardlab.streamlit_app import board_component as bc
    svg = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 50'></svg>"
    bc.set_marks(["a", "c"], arrow=("a", "c"))
    bc.board([bc.Place("a", "a", rect=(0, 0, 10, 10), legal=False),
              bc.Place("b", "b", rect=(20, 0, 10, 10), mark="chosen"),
              bc.Place("c", "c", rect=(40, 0, 10, 10))], svg, key="marked")
    bc.board([bc.Place("a", "a", rect=(0, 0, 10, 10))], svg, key="no-c")


def test_marks_ring_the_best_move_and_an_arrow_joins_its_two_places():
    at = AppTest.from_function(_marks_script)
    at.run()
    assert not at.exception, at.exception
    data = board_data(at, "marked")
    assert [p.get("mark") for p in data["places"]] == ["hint", "chosen", "hint"]
    assert data["arrow"] == ["a", "c"]
    assert "arrow" not in board_data(at, "no-c")        # its other end is not on that board


def test_how_to_play_panel_and_generic_text():
    at = app()
    sess = start_game(at, seed=3)
    texts = [m.value.strip() for m in at.markdown]     # st.markdown strips its body
    from boardlab.streamlit_app.games import ui_for
    # the panel of this game's configuration (2 players: the draw after each trick)
    assert ui_for("kitsu").how_to_play(sess.game.params).strip() in texts
    assert "draws 2 cards" in ui_for("kitsu").how_to_play(sess.game.params)
    assert "Rules" in GameUI("somegame").how_to_play()


# --- a table of friends' page (AppTest) ---------------------------------------------------------
@pytest.fixture
def friends_table(tmp_path, monkeypatch):
    """A two-human Kitsu table in a fresh store the app opens too: (store, NewTable)."""
    from boardlab.streamlit_app.common import game_store
    from boardlab.streamlit_app.store import GameStore
    monkeypatch.setenv("BOARDLAB_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("BOARDLAB_LIVE", "poll")
    game_store.clear()
    store = GameStore(tmp_path)
    sess = PlaySession(game=boardlab.make("kitsu", players=2, track_length=3),
                       seats=[HUMAN, HUMAN], preset="Beginner", seed=4)
    yield store, store.create_table(sess)
    store.close()
    game_store.clear()


def table_app(gid, state=None, **tokens):
    """The app at a table link (``state``: this browser session's state beforehand)."""
    from boardlab.streamlit_app import MAIN_SCRIPT
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=120)
    for key, value in (state or {}).items():
        at.session_state[key] = value
    at.query_params.update(game=gid, **tokens)
    at.run()
    assert not at.exception, at.exception
    return at


def host_panel_shown(at) -> bool:
    return any("Host:" in e.label for e in at.expander)


def test_a_bad_host_token_is_refused_up_front_as_a_bad_seat_token_is(friends_table):
    store, t = friends_table
    seat0 = t.seat_tokens[0]
    other = t.host_token[:-1] + ("A" if t.host_token[-1] != "A" else "B")
    for tokens, says in (({"seat": seat0, "host": "x"}, "malformed"),
                         ({"seat": seat0, "host": other}, "not one of this table's"),
                         ({"host": t.seat_tokens[1]}, "not this table's host link"),
                         ({"seat": seat0, "host": seat0}, "not this table's host link")):
        at = table_app(t.game_id, **tokens)
        errors = [e.value for e in at.error]
        assert len(errors) == 1 and "does not open the host's page" in errors[0], tokens
        assert says in errors[0], (tokens, errors)
        assert not host_panel_shown(at) and not at.get("text"), tokens    # no log, no panel
        assert seat0 not in errors[0] and t.host_token not in errors[0]
    assert not any(s.joined for s in store.view(t.game_id).seats)   # no seat was taken
    at = table_app(t.game_id, seat=seat0, host=t.host_token)         # the real one still works
    assert not at.error and host_panel_shown(at)


def test_a_round_card_whose_name_ends_with_its_own_mark_gets_no_second_one():
    """Nukumi's event prompt: "choose this round's event, Top Form!" (never "Top Form!.")."""
    import random
    from board_clicks import run_ui
    from boardlab.streamlit_app.games import nukumi_text as nt
    state = boardlab.make("nukumi", players=2).new_initial_state(0)
    rng = random.Random(0)
    while state.is_chance() or state.observation(state.current_player)["phase"] != "event":
        state.apply(rng.choice(list(state.legal_actions())))
    obs = state.observation(state.current_player)
    card = nt.round_card_name(obs["round_cards"][obs["round"]])
    assert card.endswith("!")                 # the seed's first round card: "Top Form!"
    prompt = [m.value for m in run_ui(state, ("input",)).markdown if "nk-prompt" in m.value]
    assert len(prompt) == 1 and f"{card}</span>" in prompt[0] and "!." not in prompt[0]
    assert nt.sentence("a move") == "a move." and nt.sentence("Good Weather for Crops!")[-2:] == "s!"


@pytest.mark.parametrize("game, players, colour", [("kyushu", 3, "Blue"), ("nukumi", 2, "Blue"),
                                                   ("kitsu", 2, "Orange")])
def test_you_play_names_the_seats_colour_with_its_swatch(tmp_path, monkeypatch, game, players,
                                                         colour):
    from boardlab.streamlit_app.common import game_store
    from boardlab.streamlit_app.games import ui_for
    from boardlab.streamlit_app.store import GameStore
    monkeypatch.setenv("BOARDLAB_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("BOARDLAB_LIVE", "poll")
    game_store.clear()
    store = GameStore(tmp_path)
    try:
        sess = PlaySession(game=boardlab.make(game, players=players),
                           seats=[HUMAN] * players, preset="Beginner", seed=4)
        t = store.create_table(sess)
        at = table_app(t.game_id, seat=t.seat_tokens[1])
    finally:
        store.close()
        game_store.clear()
    swatch = ui_for(game).seat_colour(1, players)
    head = [h.proto.body for h in at.get("html") if "bl-thead" in h.proto.body]
    assert len(head) == 1
    assert re.search(rf"you play <span class='bl-swatch' style='[^']*background:{swatch}'>"
                     rf"</span>P1 \({colour}\)", head[0]), head[0]


def test_your_turn_on_this_screen_names_the_seats_colour_with_its_swatch():
    from test_app_kyushu import start
    at = app()
    start(at, seed=3)
    status = [m.value for m in at.markdown if "bl-status" in m.value]
    assert any(re.search(r"you play <span class='bl-swatch' style='[^']*background:#d1495b'>"
                         r"</span>P0 \(Red\)", x) for x in status), status


def test_a_player_who_leaves_is_told_so_with_the_way_back_and_the_others_see_it(friends_table):
    from boardlab.streamlit_app.friends.tables import presence
    store, t = friends_table
    seat0 = t.seat_tokens[0]
    at = table_app(t.game_id, seat=seat0)
    before = store.view(t.game_id)
    assert presence(before.seats[0], time.time()) == "here"
    at.button(key="tbl_leave").click().run()
    assert not at.exception, at.exception
    info = [i.value for i in at.info]
    assert len(info) == 1 and info[0].startswith("You left the table")
    assert any(f"seat={seat0}" in c.value for c in at.code)           # the way back
    assert "ng_start" not in [b.key for b in at.button]              # not a blank New game form
    after = store.view(t.game_id)
    assert presence(after.seats[0], time.time()) == "left the table"
    assert after.revision > before.revision                          # the others' pages redraw
    at.button(key="tbl_back").click().run()                          # back at the seat
    assert not at.exception, at.exception
    assert not at.info and any("you play <span" in h.proto.body for h in at.get("html"))
    assert presence(store.view(t.game_id).seats[0], time.time()) == "here"
    at.button(key="tbl_leave").click().run()
    at.button(key="tbl_left_new").click().run()                      # or a game of one's own
    assert not at.exception, at.exception
    assert "ng_start" in [b.key for b in at.button]
    assert not any(i.value.startswith("You left") for i in at.info)


def test_a_seats_page_plays_its_forced_move_and_only_its_log_says_forced(tmp_path, monkeypatch):
    from boardlab.streamlit_app.common import game_store
    from boardlab.streamlit_app.store import GameStore
    monkeypatch.setenv("BOARDLAB_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("BOARDLAB_LIVE", "poll")
    game_store.clear()
    store = GameStore(tmp_path)
    try:
        sess = PlaySession(game=boardlab.make("keyside", players=2), seats=[HUMAN, HUMAN],
                           preset="Beginner", seed=3, auto_forced=False)
        t = store.create_table(sess)
        gid, mine = t.game_id, t.seat_tokens[0]
        for _ in range(5):                                  # five of P0's six secret dice
            v = store.view(gid, mine)
            store.apply(gid, mine, v.version, v.legal[0][0])
        waiting = store.view(gid, mine)
        assert len(waiting.legal) == 1
        off = table_app(gid, {"tbl_forced": False}, seat=mine)   # the switch off: it waits
        assert store.view(gid, mine).version == waiting.version
        assert off.toggle(key="tbl_forced").value is False
        at = table_app(gid, seat=mine)                      # on (the default): played at once
        after = store.view(gid, mine)
        assert after.version == waiting.version + 1 and after.to_move == 1
        assert at.toggle(key="tbl_forced").value is True
        log = at.text[0].value.splitlines()
        assert log[-1].endswith(" (forced)") and "P0 sets the " in log[-1]
        other = table_app(gid, seat=t.seat_tokens[1]).text[0].value
        assert "(forced)" not in other and other.splitlines()[-1].endswith(
            "P0 sets their dice in secret")
    finally:
        store.close()
        game_store.clear()


def kitsu_forced_in_secret(store):
    """A Kitsu table of two humans played with seeded random choices (each seat clicking
    from its own view) until the seat to move has one legal choice that the other seat
    cannot know is forced (it follows a colour with its only card of it): (table, seat)."""
    from boardlab.streamlit_app.games import ui_for
    for seed in range(20):
        sess = PlaySession(game=boardlab.make("kitsu", players=2), seats=[HUMAN, HUMAN],
                           preset="Beginner", seed=seed, auto_forced=False)
        t = store.create_table(sess)
        rng = __import__("random").Random(seed)
        while (seat := store.view(t.game_id).to_move) >= 0:
            mine = store.view(t.game_id, t.seat_tokens[seat])
            if len(mine.legal) == 1 and not ui_for("kitsu").forced_is_public(mine.state, seat):
                return t, seat
            store.apply(t.game_id, t.seat_tokens[seat], mine.version, rng.choice(mine.legal)[0])
    raise AssertionError("no decision forced in secret in 20 games")


def test_a_move_forced_in_secret_waits_for_its_click_at_a_table(tmp_path, monkeypatch):
    """Played at once, it would tell the other seat that it was forced (a seat's only card
    of the colour it must follow): the page waits for the click, as for any choice."""
    from boardlab.streamlit_app.common import game_store
    from boardlab.streamlit_app.store import GameStore
    monkeypatch.setenv("BOARDLAB_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("BOARDLAB_LIVE", "poll")
    game_store.clear()
    store = GameStore(tmp_path)
    try:
        t, seat = kitsu_forced_in_secret(store)
        waiting = store.view(t.game_id, t.seat_tokens[seat])
        at = table_app(t.game_id, seat=t.seat_tokens[seat])
        assert at.toggle(key="tbl_forced").value is True
        assert store.view(t.game_id).version == waiting.version      # not played
    finally:
        store.close()
        game_store.clear()


def test_a_forced_move_is_public_when_every_world_of_the_others_forces_it_too():
    from boardlab.streamlit_app.games import ui_for
    kinds = {}
    for name, players in (("kitsu", 2), ("kitsu", 4), ("kyushu", 2), ("keyside", 2)):
        ui = ui_for(name)
        for g in range(4):
            state = boardlab.make(name, players=players, seed=g).new_initial_state()
            rng = __import__("random").Random(g)
            while not state.is_terminal():
                p = state.current_player
                if p < 0:
                    state.apply(rng.choice([a for a, _ in state.chance_outcomes()]))
                    continue
                legal = list(state.legal_actions())
                if len(legal) == 1:
                    public = ui.forced_is_public(state.determinize(p, 99), p)
                    worlds = [state.determinize(o, 1000 + k) for o in range(players) if o != p
                              for k in range(8)]
                    forced_there = all(w.current_player == p and len(w.legal_actions()) == 1
                                       for w in worlds)
                    dice = name == "keyside" and state.observation(p)["phase"] == "dice"
                    # never public where the true worlds of the others show a choice
                    assert public or not forced_there or dice
                    if not dice:
                        assert not (public and not forced_there), (name, state.history)
                    kinds[name, public] = kinds.get((name, public), 0) + 1
                state.apply(rng.choice(legal))
    # both kinds are met: the test reads the forced moves that are secret and those that are not
    assert all(kinds.get((n, b)) for n in ("kitsu", "kyushu", "keyside") for b in (True, False)
               if (n, b) != ("keyside", False)), kinds


def test_the_new_game_form_has_the_forced_moves_switch_on_by_default():
    at = app()
    assert at.toggle(key="ng_forced").value is True
    at.button(key="ng_start").click().run()
    assert at.session_state["bl_play"].auto_forced is True
    at = app()
    at.toggle(key="ng_forced").set_value(False).run()
    at.button(key="ng_start").click().run()
    assert not at.exception, at.exception
    assert at.session_state["bl_play"].auto_forced is False
    at.button(key="play_ai_finish").click().run(timeout=120)
    at.button(key="play_again").click().run()                # the same switch again
    assert not at.exception, at.exception
    assert at.session_state["bl_play"].auto_forced is False


def test_a_seats_evaluation_bar_at_a_table_is_its_own_search_on_its_turn(friends_table):
    store, _ = friends_table
    sess = PlaySession(game=boardlab.make("kitsu", players=2), seats=[HUMAN, HUMAN], seed=4)
    t = store.create_table(sess, hints=True)
    view = store.view(t.game_id)
    assert view.settings.hints
    mover = view.to_move
    at = table_app(t.game_id, seat=t.seat_tokens[mover])
    at.toggle(key="tbl_eval").set_value(True).run()
    assert not at.exception, at.exception
    bars = [h.proto.body for h in at.get("html") if "bl-evalbar" in h.proto.body]
    assert len(bars) == 1 and 'data-source="search"' in bars[0] and "±" in bars[0]
    assert list(at.session_state["bl_table_eval"]) == [(t.game_id, view.version, mover)]
    other = table_app(t.game_id, seat=t.seat_tokens[1 - mover])     # not its turn: no bar
    other.toggle(key="tbl_eval").set_value(True).run()
    assert not [h for h in other.get("html") if "bl-evalbar" in h.proto.body]
