"""The shared clickable board (streamlit_app/board_component.py): what it sends to the browser,
what a click returns (a trigger: once), inert boards, bad places refused, and the slots a
board leaves for its decision input."""
import json

import pytest

pytest.importorskip("streamlit")

from streamlit.testing.v1 import AppTest  # noqa: E402

from boardlab.streamlit_app import board_component as bc  # noqa: E402
from board_clicks import board_data, click_place  # noqa: E402

SVG = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 200 100'><rect width='200' height='100'/></svg>"


def test_board_data_lists_places_and_refuses_what_cannot_be_drawn():
    places = [bc.Place("a", "square a", rect=(10, 10, 20, 20), preview="<circle r='3'/>",
                       note="+2 points", mark="hint"),
              bc.Place("b", "square b", legal=False, rect=(40, 10, 20, 20))]
    data = bc.board_data(places, SVG, note="click a square", max_width=640)
    assert data["svg"] == SVG and data["interactive"] is True and data["max_width"] == 640
    assert data["places"][0] == {"id": "a", "label": "square a", "legal": True,
                                 "rect": [10.0, 10.0, 20.0, 20.0], "preview": "<circle r='3'/>",
                                 "note": "+2 points", "mark": "hint"}
    assert data["places"][1]["legal"] is False
    json.dumps(data)                                     # all of it goes to the browser
    with pytest.raises(ValueError, match="unique.*a"):
        bc.board_data([places[0], places[0]], SVG)
    with pytest.raises(ValueError, match="'c' needs a rect"):
        bc.board_data([bc.Place("c", "c")], SVG)
    with pytest.raises(ValueError, match="piece 'c' needs its own svg"):
        bc.board_data([bc.Place("c", "c")])
    with pytest.raises(ValueError, match="unknown mark 'glow'"):
        bc.board_data([bc.Place("c", "c", svg=SVG, mark="glow")])
    with pytest.raises(ValueError, match="non-empty string"):
        bc.board_data([bc.Place("", "c", svg=SVG)])


def test_only_a_legal_place_of_a_live_board_is_a_click():
    places = [bc.Place("a", "a", rect=(0, 0, 1, 1)), bc.Place("b", "b", legal=False, rect=(0, 0, 1, 1))]
    assert bc.clicked_place("a", places) == "a"
    assert bc.clicked_place("b", places) is None            # inert place
    assert bc.clicked_place("zz", places) is None           # stale or forged
    assert bc.clicked_place(None, places) is None
    assert bc.clicked_place(["a"], places) is None
    assert bc.clicked_place("a", places, interactive=False) is None
    assert bc.pick("a", {"a": 7}) == 7 and bc.pick(None, {"a": 7}) is None


def _script(interactive):
    import streamlit as st

    from boardlab.streamlit_app import board_component as bc
    svg = ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 200 100'>"
           "<rect width='200' height='100'/></svg>")
    got = bc.board([bc.Place("a", "square a", rect=(10, 10, 20, 20)),
                    bc.Place("b", "square b", legal=False, rect=(40, 10, 20, 20))],
                   svg, key="demo", interactive=interactive)
    st.session_state.setdefault("clicks", []).append(got)
    pieces = bc.board([bc.Place("p1", "card 1", svg=svg), bc.Place("p2", "card 2", svg=svg)],
                      key="pieces", piece_width=60)
    st.session_state.setdefault("piece_clicks", []).append(pieces)


def test_a_click_reaches_python_once():
    at = AppTest.from_function(_script, args=(True,))
    at.run()
    assert not at.exception, at.exception
    assert board_data(at, "demo")["interactive"] is True
    assert board_data(at, "pieces")["piece_width"] == 60
    click_place(at, "demo", "a")
    assert at.session_state["clicks"] == [None, "a"]
    at.run()                                                # a rerun: the trigger is spent
    assert at.session_state["clicks"] == [None, "a", None]
    click_place(at, "demo", "b")                            # an inert place: nothing
    assert at.session_state["clicks"][-1] is None
    click_place(at, "pieces", "p2")
    assert at.session_state["piece_clicks"][-1] == "p2" and at.session_state["clicks"][-1] is None


def test_an_inert_board_returns_no_click():
    at = AppTest.from_function(_script, args=(False,))
    at.run()
    assert board_data(at, "demo")["interactive"] is False
    click_place(at, "demo", "a")
    assert at.session_state["clicks"] == [None, None]


def _slots_script():
    import streamlit as st

    from boardlab.streamlit_app import board_component as bc
    before = bc.reserved("table")
    slot = bc.reserve("table", obs={"n": 1})
    slot.markdown("static table")
    kept = bc.reserved("table")
    with kept[0]:
        st.markdown("clickable table")          # replaces the static drawing in place
    st.session_state["seen"] = (before, kept[1], bc.reserved("other"))


def test_a_slot_is_found_in_its_own_run_only():
    at = AppTest.from_function(_slots_script)
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["seen"] == (None, {"obs": {"n": 1}}, None)
    at.run()                                    # a new run: last run's slot is not offered
    assert at.session_state["seen"][0] is None
    assert [m.value for m in at.markdown] == ["clickable table"]


def test_recent_moves_are_read_from_the_log_lines_the_viewer_may_read():
    from types import SimpleNamespace
    changes = SimpleNamespace(lines=["P1 play O3", "P2 puts a card face down for their partner",
                                     "Trick: P1 O3, P2 B1 → Blue +1", "P1 placed 37 vertical at c4 over",
                                     "Round 2 begins"])
    assert bc.recent_moves(changes) == [(1, "play O3"),
                                        (2, "puts a card face down for their partner"),
                                        (1, "placed 37 vertical at c4 over")]
    assert bc.recent_moves(None) == [] and bc.recent_moves(SimpleNamespace(lines=[])) == []


def test_tips_and_animations_go_to_the_browser_and_bad_ones_are_refused():
    places = [bc.Place("a", "square a", rect=(10, 10, 20, 20), tip="Costs 1 wood, gives 2 stone",
                       anim={"from": [100, 50]}),
              bc.Place("b", "square b", legal=False, rect=(40, 10, 20, 20), tip="A market",
                       anim={"kind": "drop"}),
              bc.Place("c", "square c", rect=(70, 10, 20, 20), anim={"kind": "flash"})]
    data = bc.board_data(places, SVG, anim_key="g1:12")
    assert data["places"][0]["tip"] == "Costs 1 wood, gives 2 stone"
    assert data["places"][0]["anim"] == {"kind": "slide", "from": [100.0, 50.0]}
    assert data["places"][1]["anim"] == {"kind": "drop"} and data["places"][1]["tip"] == "A market"
    assert "tip" not in data["places"][2] and data["anim_key"] == "g1:12"
    assert "anim_key" not in bc.board_data([bc.Place("a", "a", rect=(0, 0, 1, 1))], SVG,
                                           anim_key="g1:12")     # nothing to animate
    for anim, why in (({"kind": "spin"}, "unknown anim"), ({"from": [1]}, r"'from' must be \[x, y\]"),
                      ({"kind": "drop", "from": [1, 2]}, "takes no 'from'"),
                      ({"from": [1, 2], "speed": 3}, "unknown anim"), ("drop", "must be a dict")):
        with pytest.raises(ValueError, match=f"'z'.*{why}|{why}.*'z'|'z' {why}"):
            bc.board_data([bc.Place("z", "z", rect=(0, 0, 1, 1), anim=anim)], SVG)
    with pytest.raises(ValueError, match="'z' tip must be text"):
        bc.board_data([bc.Place("z", "z", rect=(0, 0, 1, 1), tip=None)], SVG)
