"""The Play page's shared table (views/play.py), through AppTest: "Show all hands" in a live
game marks it as peeked at (record, result screen), the "since your last move" strip holds
every line, a hint's places are ringed on the board, the How-to-play panel."""
import json
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
