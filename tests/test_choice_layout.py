"""How a decision's buttons are laid out (how many to a row, by the length of their labels)
and what a board drawn larger in a box that scrolls opens on (its ``focus``); the browser
measures the same in tests/e2e/test_choice_labels.py."""
import pytest

from boardlab.streamlit_app import board_component as bc
from boardlab.streamlit_app.games.base import LONG_LABEL, SHORT_LABEL, choice_columns
from boardlab.streamlit_app.games.kitsu import table_focus


def test_long_labels_take_a_row_each_short_ones_share_it():
    tokens = ["Take the +3 token", "Take the Colour-inversion token"]
    assert choice_columns(tokens, 4) == 1                     # Kitsu's power tokens
    assert choice_columns(["You lead the next round", "P3 leads the next round"], 4) == 2
    assert choice_columns(["1", "2", "3", "4", "5"], 4) == 4  # short: as many as asked
    assert choice_columns(["x" * SHORT_LABEL] * 3, 3) == 3
    assert choice_columns(["x" * (SHORT_LABEL + 1)] * 3, 3) == 2
    assert choice_columns(["x" * LONG_LABEL] * 2, 2) == 2
    assert choice_columns(["x" * (LONG_LABEL + 1), "y"], 2) == 1
    assert choice_columns(["End turn"], 2) == 1               # one button: one column
    assert choice_columns([], 2) == 1


def test_a_board_focus_names_its_places():
    places = [bc.Place("a", "A", rect=(0, 0, 10, 10), legal=False),
              bc.Place("b", "B", rect=(10, 0, 10, 10), legal=False)]
    assert bc.board_data(places, "<svg viewBox='0 0 20 10'/>", focus=["b"])["focus"] == ["b"]
    assert "focus" not in bc.board_data(places, "<svg viewBox='0 0 20 10'/>")
    with pytest.raises(ValueError, match="focus names no place: c"):
        bc.board_data(places, "<svg viewBox='0 0 20 10'/>", focus=["b", "c"])


def test_kitsu_table_opens_on_what_the_decision_is_about():
    ids = ["tok-plus3", "tok-hidden", "pawn-blue", "seat0", "seat1", "s1c0", "s1c1", "s0back",
           "s10c0"]
    play = {"phase": "play", "current_player": 1}
    assert table_focus(play, 1, ids) == ["seat1", "s1c0", "s1c1"]       # the seat and hand
    assert table_focus(play, 0, ids) == ["seat0", "s0back"]
    assert table_focus({"phase": "token_pick", "current_player": 1}, 1, ids) == [
        "tok-plus3", "tok-hidden"]                                       # the tokens to take
    assert table_focus({"phase": "token_pick", "current_player": 0}, 1, ids) == [
        "seat1", "s1c0", "s1c1"]                                         # another seat takes
    assert table_focus({"phase": "plus3_side", "current_player": 1}, 1, ids) == ["pawn-blue"]
    assert table_focus(play, None, ids) == []                            # no seat: the middle
