"""The Analyse page's "open hands" column (position and game review), through AppTest: shown
for an uploaded (finished) game, refused for a live one unless "Show all hands" is on."""
import pytest

pytest.importorskip("streamlit")
pytest.importorskip("plotly")

import boardlab  # noqa: E402
from boardlab.streamlit_app.games import ui_for  # noqa: E402
from boardlab.streamlit_app.open_hands_column import REFUSED  # noqa: E402
from test_app import ANALYSE, app, finished_record, play_one_human_move, start_game  # noqa: E402
from test_app_review import frame, run_review, upload  # noqa: E402


def refused_shown(at) -> bool:
    return any(REFUSED in i.value for i in at.info)


def move_to_decision(at, d):
    slider = [s for s in at.slider if s.key.startswith("an_ply")][0]
    slider.set_value(d).run()
    assert not at.exception, at.exception


def test_position_column_for_an_uploaded_game():
    at = app()
    upload(at, finished_record(seed=4))
    move_to_decision(at, 0)
    assert not refused_shown(at)
    at.number_input(key="an_game_oh_iters").set_value(200).run()
    at.button(key="an_game_oh_run").click().run()
    assert not at.exception, at.exception
    c = at.session_state["bl_analysis"]["an_game_oh"][1]
    labels = {m.label: m.value for m in at.metric}
    # the moves in the decision buttons' words, not the notation ("Play Orange 2", not "play O2")
    record = finished_record(seed=4)
    pos = boardlab.replay({**record, "actions": [], "moves": None, "result": None})
    for a in record["actions"]:
        if pos.current_player >= 0:
            break
        pos.apply(a)
    ui = ui_for(pos.game.name)
    words = {m: ui.move_label(pos, m, pos.current_player)
             for m in (c.ismcts.best_action, c.open_hands.best_action)}
    assert labels["Open hands (every hand face up)"] == words[c.open_hands.best_action] \
        != c.open_hands_move
    assert any(label.startswith("P") and value == words[c.ismcts.best_action]
               for label, value in labels.items())
    assert any("What the hidden information cost" in m.value for m in at.markdown)


def test_review_column_for_an_uploaded_game():
    at = app()
    upload(at, finished_record(seed=4))
    job = run_review(at, iters=60)
    at.number_input(key="rv_oh_iters").set_value(60).run()
    at.button(key="rv_oh_run").click().run()
    assert not at.exception, at.exception
    table = frame(at, "open hands")
    assert len(table) == len(job.rows)
    assert list(table["decision"]) == sorted(job.rows)
    notation = {r["played_move"] for r in job.rows.values()}
    assert not notation & set(table["played"])      # the buttons' words, not the notation
    costs = [x for x in table["hidden-info cost (win-% pts)"] if x == x and x is not None]
    assert all(0.0 <= x <= 100.0 for x in costs)


def test_live_game_refused_unless_all_hands_shown():
    at = app()
    start_game(at, seed=6)
    play_one_human_move(at)
    at.switch_page(ANALYSE).run()
    move_to_decision(at, 0)
    assert refused_shown(at)
    assert not [b for b in at.button if b.key == "an_game_oh_run"]
    run_review(at, iters=60)
    assert not [b for b in at.button if b.key == "rv_oh_run"]
    at.toggle(key="an_show_all_live").set_value(True).run()
    assert not at.exception, at.exception
    assert not refused_shown(at)
    assert [b for b in at.button if b.key == "an_game_oh_run"]
    run_review(at, iters=60)            # the review restarts: every seat may be searched now
    assert [b for b in at.button if b.key == "rv_oh_run"]
