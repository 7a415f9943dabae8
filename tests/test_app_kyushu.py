"""Kyūshū in the browser app, through streamlit.testing.v1.AppTest (no browser): new game,
a placement with preview and confirm, the AI's reply, undo, save/load, hidden Map turns,
the game-over screen, and the SVG drawings on their own."""
import json
import re

import numpy as np
import pytest

pytest.importorskip("streamlit")
pytest.importorskip("plotly")

from streamlit.testing.v1 import AppTest  # noqa: E402

import boardlab  # noqa: E402
from boardlab.streamlit_app import MAIN_SCRIPT  # noqa: E402
from boardlab.streamlit_app.games import kyushu as kui  # noqa: E402
from boardlab.streamlit_app.games import ui_for  # noqa: E402
from boardlab.streamlit_app.session import AI, HUMAN, PlaySession, actors  # noqa: E402

TIMEOUT = 60


def app():
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, at.exception
    return at


def start(at, seed=7, players=2, human=0, most_fewest=False, travelers=False, side="A"):
    at.selectbox(key="ng_game").set_value("kyushu").run()
    at.selectbox(key="ng_ky_players").set_value(players)
    at.radio(key="ng_ky_side").set_value(side)
    at.checkbox(key="ng_ky_mf").check() if most_fewest else None
    at.checkbox(key="ng_ky_trav").check() if travelers else None
    at.radio(key="ng_preset").set_value("Beginner")
    at.number_input(key="ng_seed").set_value(seed)
    at.run()
    for s in range(players):
        at.selectbox(key=f"ng_seat_{s}").set_value("Human" if s == human else "AI")
    at.run()
    at.button(key="ng_start").click().run()
    assert not at.exception, at.exception
    return at.session_state["bl_play"]


def decisions(at):
    return [b for b in at.button if b.key and "_act_" in b.key and not b.disabled]


def svgs(at):
    return [m.value for m in at.markdown if m.value.startswith("<svg")]


def phase(at):
    sess = at.session_state["bl_play"]
    p = sess.state.current_player
    return sess.state.observation(p)["phase"] if p >= 0 else None


def advance_to_map_phase(at, limit=40):
    """Click the first offered decision until the human seat has to place a card."""
    for _ in range(limit):
        if phase(at) == "map":
            return at.session_state["bl_play"]
        buttons = decisions(at)
        assert buttons, f"no decision offered in phase {phase(at)}"
        legal = {at.session_state["bl_play"].state.action_to_string(a)
                 for a in at.session_state["bl_play"].state.legal_actions()}
        assert {b.proto.help for b in buttons} <= legal          # only legal choices
        buttons[0].click().run()
        assert not at.exception, at.exception
    raise AssertionError("never reached the Map phase")


def test_new_game_form_has_the_options():
    at = app()
    at.selectbox(key="ng_game").set_value("kyushu").run()
    assert at.selectbox(key="ng_ky_players").options == ["2", "3", "4", "5"]
    sess = start(at, players=3, most_fewest=True, travelers=True, side="B")
    assert sess.game.params == {"players": 3, "side": "B", "most_fewest": True, "travelers": True}
    assert sess.seats == [HUMAN, AI, AI]
    text = "\n".join(svgs(at))
    assert "PICK BOXES" in text and "Round" in text or "Setup" in text
    assert any("Most/Fewest cards" in m.value for m in at.markdown)
    assert len(at.table) == 1 and list(at.table[0].value.index)[:1] == ["P0 (you)"]


def test_placement_preview_confirm_ai_reply_and_undo():
    at = app()
    sess = start(at, seed=7)
    sess = advance_to_map_phase(at)
    state = sess.state
    card = state.observation(0)["selected"][0]
    radio = at.radio(key=f"mv{len(state.history)}_orient")
    orients = [int(a) for a in state.legal_actions()
               if state.action_to_string(int(a)).startswith("orient ")]
    assert sorted(radio.options) == sorted(str(a) for a in orients) or len(radio.options) == len(orients)
    # choose another orientation: the list of positions follows it
    radio.set_value(orients[-1]).run()
    assert not at.exception, at.exception
    clone = state.clone()
    clone.apply(orients[-1])
    legal_places = [int(a) for a in clone.legal_actions()]
    pos = at.selectbox(key=f"mv{len(state.history)}_pos_{orients[-1]}")
    assert len(pos.options) == len(legal_places)
    pos.set_value(legal_places[-1]).run()
    preview = [v for v in svgs(at) if "Preview:" in v]
    assert len(preview) == 1 and f"Preview: {card} at" in preview[0]
    # the preview is that seat's own view of the clone with the card on the map
    expected = clone.clone()
    expected.apply(legal_places[-1])
    assert f">{card}<" in preview[0]
    assert not at.session_state["bl_play"].state.history[len(state.history):]   # nothing applied
    n_before = len(state.history)
    confirm = at.button(key=f"mv{n_before}_act_confirm")
    assert confirm.label.startswith(f"Confirm: place {card} at ")
    confirm.click().run()
    assert not at.exception, at.exception
    sess = at.session_state["bl_play"]
    hist = sess.state.history
    assert hist[n_before:n_before + 2] == [orients[-1], legal_places[-1]]
    ended = phase(at) == "map_after"
    if ended:                                           # terraforming is possible: decline
        [b for b in decisions(at) if b.proto.help == "end turn"][0].click().run()
        sess = at.session_state["bl_play"]
    who = actors(sess.state)
    assert 1 in who[n_before + 2:]                      # the AI replied (its own Map turn)
    assert sess.state.current_player in (0, boardlab.TERMINAL) or sess.is_human_turn()
    log = at.text[0].value
    assert f"P0 place {card}" in log
    # undo takes back the whole placement (orientation and position together)
    if ended:
        at.button(key="play_undo").click().run()
        assert at.session_state["bl_play"].state.history == hist[:n_before + 2]
    at.button(key="play_undo").click().run()
    assert not at.exception
    sess = at.session_state["bl_play"]
    assert sess.state.history == state.history
    assert phase(at) == "map"


def test_hidden_map_turn_of_the_other_seat():
    """Seat 1 is human: seat 0 (AI) places first, and its card stays off seat 0's map on
    seat 1's screen, and out of the log, until seat 1 has placed too."""
    at = app()
    start(at, seed=3, human=1)
    sess = advance_to_map_phase(at)
    state = sess.state
    assert state.current_player == 1
    full = state.full_observation()
    mine = state.observation(1)
    assert len(full["maps"][0]["cards"]) == len(mine["maps"][0]["cards"]) + 1   # P0 placed
    hidden_card = next(c["card"] for c in full["maps"][0]["cards"]
                       if c["card"] not in {x["card"] for x in mine["maps"][0]["cards"]})
    p0_map = next(v for v in svgs(at) if "aria-label='P0" in v)
    assert f">{hidden_card}<" not in p0_map
    assert p0_map == kui.map_svg(kui.seat_map(mine, 0), title=re.search(
        r"aria-label='([^']*)'", p0_map).group(1), title_colour=kui.SEAT_COLOURS[0],
        cell=kui.cell_size(mine["maps"][0]))
    log = at.text[0].value
    assert "P0 takes their Map turn" in log and "P0 place" not in log
    assert any("hidden until everyone has placed" in c.value for c in at.caption)
    # the other hand is face down
    assert "hand: " in "".join(svgs(at))


def test_save_and_load_a_kyushu_game():
    at = app()
    start(at, seed=11)
    advance_to_map_phase(at)
    sess = at.session_state["bl_play"]
    data = sess.record_json().encode()
    assert json.loads(data)["game"] == "kyushu"
    other = app()
    other.file_uploader(key="ng_upload").upload("k.json", data, "application/json").run()
    assert not other.exception, other.exception
    loaded = other.session_state["bl_play"]
    assert loaded.state == sess.state and loaded.seats == sess.seats
    assert other.radio(key=f"mv{len(loaded.state.history)}_orient")      # back at the placement


def finished_record(seed=5, players=2):
    game = boardlab.make("kyushu", players=players, most_fewest=True, travelers=True)
    s = game.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    while not s.is_terminal():
        if s.is_chance():
            o = s.chance_outcomes()
            s.apply(o[rng.integers(len(o))][0])
        else:
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
    return s


def test_game_over_screen_with_final_breakdown():
    s = finished_record()
    at = app()
    at.file_uploader(key="ng_upload").upload("done.json", json.dumps(s.to_record()).encode(),
                                              "application/json").run()
    assert not at.exception, at.exception
    assert any(re.search(r"Game over: (P\d wins with \d+ points|.*tie|.*share)", x.value)
               for x in at.success)
    assert any("Final scores" in m.value for m in at.markdown)
    table = at.table[0].value
    final = s.full_observation()["scores"]
    assert list(table["Total"]) == [sc["total"] for sc in final]
    assert list(table["Forests"]) == [sc["forests"] for sc in final]
    assert {"Hot springs", "Towns", "Lakes", "Factories", "Travelers", "Most/Fewest"} <= set(table.columns)


def test_let_the_ai_finish():
    at = app()
    start(at, seed=2)
    at.button(key="play_ai_finish").click().run(timeout=120)
    assert not at.exception, at.exception
    sess = at.session_state["bl_play"]
    assert sess.state.is_terminal() and sess.seats == [HUMAN, AI]     # the seats are kept
    assert any("Game over" in x.value for x in at.success)
    assert not at.button(key="play_undo").disabled


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_phase_offers_only_legal_choices(players):
    """Random games through PlaySession: the UI's input for each human decision names only
    legal actions (checked on the notation the buttons carry)."""
    game = boardlab.make("kyushu", players=players, travelers=True, most_fewest=True)
    sess = PlaySession(game=game, seats=[AI] * players, preset="Beginner", seed=players)
    rng = np.random.default_rng(players)
    seen = set()
    while not sess.state.is_terminal():
        p = sess.state.current_player
        seen.add(sess.state.observation(p)["phase"])
        legal = sess.state.legal_actions()
        sess.state.apply(int(legal[rng.integers(len(legal))]))
        sess.advance_chance()
    assert {"province", "first_box", "select", "replace", "map", "position"} <= seen
    obs = sess.state.full_observation()
    for seat in range(players):
        svg = kui.map_svg(kui.seat_map(obs, seat), title=f"P{seat}")
        assert svg.startswith("<svg") and svg.count("<rect") >= 6
    assert "PICK BOXES" in kui.table_svg(obs)


def test_card_drawings_and_square_names():
    assert kui.parse_square("c4") == (3, 2) and kui.parse_square("ab17") == (16, 27)
    assert kui.col_name(kui.parse_square("ae9")[1]) == "ae"
    squares, duals = kui.card_face(5)
    assert len(squares) == 6 and duals == [(2, 5)]
    svg = kui.card_svg(5)
    assert "No. 5" in svg and svg.startswith("<svg")
    assert "Province 3" in kui.card_svg("S3A")
    assert ui_for("kyushu").title == "Kyūshū"
