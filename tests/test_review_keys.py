"""A result on the Analyse page belongs to the facts it was computed from (the record or the
set-up position, the budget, the seats): never shown for another position that merely shares
the seed and the (empty) history."""
import json

import pytest

pytest.importorskip("streamlit")

import boardlab  # noqa: E402
from boardlab.streamlit_app.review import content_key  # noqa: E402
from test_app import ANALYSE, app, finished_record  # noqa: E402


def set_up(at, hand):
    at.selectbox(key="seat_players").set_value(2)
    at.selectbox(key="seat_seat").set_value(0)
    at.selectbox(key="seat_leader").set_value(1)
    at.text_input(key="seat_hand").input(hand)
    at.text_input(key="seat_trick").input("P1 O5")
    at.run()
    at.button(key="seat_build").click().run()
    assert not at.exception, at.exception


def best_move_lines(at):
    return [m.value for m in at.markdown if m.value.startswith("**Best move for P")]


def analysed_position(hand):
    """The Analyse page with a position set up from ``hand`` and searched (200 iterations)."""
    at = app()
    at.switch_page(ANALYSE).run()
    set_up(at, hand)
    at.number_input(key="an_seat_iters").set_value(200).run()
    at.button(key="an_seat_run").click().run()
    assert best_move_lines(at)
    return at


def test_an_edited_position_with_the_same_seed_does_not_show_the_old_result():
    at = analysed_position("B1 B4 O4 O6 Black Katana")
    set_up(at, "B2 B3 O1 O2 White Katana")      # another hand: another position, same seed
    assert not best_move_lines(at), "the first position's result is shown for the second"
    at.button(key="an_seat_run").click().run()
    moves = set(at.dataframe[0].value["notation"])
    assert all(m.split()[1] in {"B2", "B3", "O1", "O2", "White", "Katana"} for m in moves)


def test_a_changed_budget_hides_the_result_of_the_old_budget():
    at = analysed_position("B1 B4 O4 O6 Black Katana")
    at.number_input(key="an_seat_iters").set_value(700).run()
    assert not best_move_lines(at)


def test_a_review_belongs_to_its_record_not_to_a_record_with_the_same_actions():
    rec = finished_record(seed=4)
    other = dict(rec, seed=rec["seed"] + 1)     # the same actions from another deal
    try:
        boardlab.replay(other)
    except boardlab.RecordError:
        pytest.skip("the actions do not replay from the other seed")
    at = app()
    at.switch_page(ANALYSE).run()
    at.file_uploader(key="an_upload").upload("a.json", json.dumps(rec).encode(),
                                             "application/json").run()
    at.number_input(key="rv_iters").set_value(100).run()
    at.button(key="rv_start").click().run()
    assert at.session_state["bl_analysis"]["review"] is not None
    at.file_uploader(key="an_upload").upload("b.json", json.dumps(other).encode(),
                                             "application/json").run()
    assert not at.exception, at.exception
    assert at.session_state["bl_analysis"].get("review") is None


def test_content_key_follows_the_facts():
    game = boardlab.make("kitsu", players=2)
    a = game.position(0, seed=1, hand=["B1", "B4"], leader=0)
    b = game.position(0, seed=1, hand=["B1", "B5"], leader=0)
    assert content_key(a) != content_key(b)
    assert content_key(a) == content_key(game.position(0, seed=1, hand=["B1", "B4"], leader=0))
    assert content_key(a, {"iterations": 5}) != content_key(a, {"iterations": 6})
    s = game.new_initial_state(seed=3)
    assert content_key(s) != content_key(game.new_initial_state(seed=4))


def test_a_record_of_a_set_up_position_steps_through_and_reviews_from_that_position():
    game = boardlab.make("kitsu", players=2)
    s = game.position(0, seed=1, hand=["B1", "B4", "O4"], leader=1, trick=["O5"])
    while not s.is_terminal() and len(s.history) < 4:
        s.apply(s.chance_outcomes()[0][0] if s.is_chance() else s.legal_actions()[0])
    at = app()
    at.switch_page(ANALYSE).run()
    at.file_uploader(key="an_upload").upload("pos.json", json.dumps(s.to_record()).encode(),
                                             "application/json").run()
    assert not at.exception, at.exception
    slider = [w for w in at.slider if w.key.startswith("an_ply")][0]
    slider.set_value(0).run()
    assert not at.exception, at.exception
    at.number_input(key="rv_iters").set_value(50).run()
    at.button(key="rv_start").click().run()
    job = at.session_state["bl_analysis"]["review"]
    while not job.done:
        at.run()
    assert not at.exception, at.exception
    assert job.rows and all(r["played_action"] == s.history[r["ply"]] for r in job.rows.values())


def test_the_position_keys_first_previous_next_last():
    """←/→ step one decision, Home/End go to the first and the last position (the buttons
    carry those keyboard shortcuts; tests/e2e/test_review.py presses the keys)."""
    at = app()
    at.switch_page(ANALYSE).run()
    at.file_uploader(key="an_upload").upload("g.json", json.dumps(finished_record(seed=4)).encode(),
                                             "application/json").run()
    slider = [w for w in at.slider if w.key.startswith("an_ply")][0]
    last = slider.max
    keys = {b.key: b.proto.shortcut for b in at.button
            if b.key in ("an_first", "an_prev", "an_next", "an_last")}
    assert keys == {"an_first": "home", "an_prev": "left", "an_next": "right", "an_last": "end"}

    def at_decision():
        return [w for w in at.slider if w.key.startswith("an_ply")][0].value

    assert at_decision() == last
    at.button(key="an_first").click().run()
    assert at_decision() == 0
    at.button(key="an_next").click().run()
    at.button(key="an_next").click().run()
    assert at_decision() == 2
    at.button(key="an_prev").click().run()
    assert at_decision() == 1
    at.button(key="an_last").click().run()
    assert at_decision() == last
    assert not at.exception, at.exception
