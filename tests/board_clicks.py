"""AppTest helpers for the board component (streamlit_app/board_component.py).

AppTest has no typed element for a custom component v2: it lists one as an UnknownElement of
type "bidi_component" (its ``proto.json`` is the data the browser draws). A click is sent the
way the browser sends it: the component's trigger widget (``<element id>__events``) carries
``[{"event": "click", "value": place id}]`` for one script run."""
import json

from streamlit.proto.WidgetStates_pb2 import WidgetState

from boardlab.streamlit_app.board_component import TRIGGER


def new_app(timeout: float = 60):
    """The app's main page run once in AppTest, checked to have raised nothing."""
    from streamlit.testing.v1 import AppTest
    from boardlab.streamlit_app import MAIN_SCRIPT
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=timeout)
    at.run()
    assert not at.exception, at.exception
    return at


def boards(at, key_part: str = ""):
    """The board components on the page whose key contains ``key_part``."""
    return [e for e in at.get("bidi_component") if key_part in (e.key or "")]


def board(at, key_part: str):
    found = boards(at, key_part)
    assert len(found) == 1, f"{len(found)} boards with {key_part!r} in their key: " \
                            f"{[e.key for e in boards(at)]}"
    return found[0]


def board_data(at, key_part: str) -> dict:
    return json.loads(board(at, key_part).proto.json)


def legal_places(at, key_part: str) -> list[dict]:
    data = board_data(at, key_part)
    return [p for p in data["places"] if p["legal"]] if data["interactive"] else []


def click_place(at, key_part: str, place_id: str, timeout=None):
    """Click place ``place_id`` of the board keyed ``*key_part*`` and run the script."""
    el = board(at, key_part)
    states = at._tree.get_widget_states()
    states.widgets.append(WidgetState(
        id=f"$$STREAMLIT_INTERNAL_KEY_{el.proto.id}__events",
        json_trigger_value=json.dumps([{"event": TRIGGER, "value": place_id}])))
    at._run(states, timeout=timeout)
    return at


def _ui_script(game, record, steps, hint):
    import streamlit as st

    import boardlab
    from boardlab.streamlit_app.games import ui_for
    s = boardlab.replay(record)
    p = s.current_player
    ui = ui_for(game)
    board_box, input_box = st.container(), st.container()     # as on the Play page
    for step in steps:
        if step == "board":
            with board_box:
                ui.board(s.observation(p), viewer=p)
        elif step == "input":
            with input_box:     # what this run chose (None: nothing clicked)
                st.session_state["chosen"] = ui.move_input(s, s.observation(p), key="t", hint=hint)
        elif step == "idle":
            with input_box:
                st.markdown(ui.idle_input(s.observation(p), p), unsafe_allow_html=True)


def run_ui(state, steps=("board", "input"), hint=None, timeout=60):
    """A script of the game's UI alone at ``state`` (seen by the seat to move): its board,
    its decision input (key "t", with ``hint``) and/or its inert input, called in the order
    given, drawn as on the Play page: the board's place above the input's."""
    from streamlit.testing.v1 import AppTest
    at = AppTest.from_function(_ui_script, args=(state.game.name, json.dumps(state.to_record()),
                                                 list(steps), hint), default_timeout=timeout)
    at.run()
    assert not at.exception, at.exception
    return at
