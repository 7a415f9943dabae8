"""The app's "Load a saved game" on malformed records: the reason, never a traceback (AppTest)."""
import json

import pytest

pytest.importorskip("streamlit")

from streamlit.testing.v1 import AppTest  # noqa: E402

import boardlab  # noqa: E402
from boardlab.streamlit_app import MAIN_SCRIPT  # noqa: E402
from boardlab.streamlit_app.session import AI, DEFAULT_PRESET, HUMAN  # noqa: E402


def position_record(**facts):
    """A Kitsu record started with Game.position, with some facts replaced."""
    game = boardlab.make("kitsu", players=2)
    record = game.position(0, seed=1, hand=["B1", "O3"], leader=1, trick=["O6"]).to_record()
    record["position"]["facts"].update(facts)
    return record


def with_seat(seat):
    record = position_record()
    record["position"]["seat"] = seat
    return record


def with_result(result):
    game = boardlab.make("kitsu", players=2)
    return dict(game.new_initial_state(seed=2).to_record(), result=result)


#: (file content, what the error must say)
MALFORMED = [
    pytest.param(b"[" * 100_000, "nested too deeply", id="deep-nesting"),
    pytest.param(with_seat(7), "seat must be a seat in [0, 2)", id="seat-7"),
    pytest.param(position_record(tokens=[1]), "tokens must map", id="tokens-list"),
    pytest.param(position_record(known=[1]), "known must map", id="known-list"),
    pytest.param(position_record(trick=3), "trick must be a list", id="trick-int"),
    pytest.param(position_record(leader=None), "leader must be a seat", id="leader-null"),
    pytest.param(position_record(leader="1"), "leader must be a seat", id="leader-text"),
    pytest.param(position_record(leader=True), "leader must be a seat", id="leader-true"),
    pytest.param(position_record(pawns=[2**40, 0]), "pawns: 1099511627776 is out of range",
                 id="pawns-huge"),
    pytest.param(position_record(hand_sizes=[2**40, 0]), "hand_sizes: 1099511627776 is out of range",
                 id="hand-sizes-huge"),
    pytest.param(with_result([2**2000, 0]), "'result' must be null or a list of finite numbers",
                 id="result-huge"),
]


@pytest.mark.parametrize("content, reason", MALFORMED)
def test_malformed_record_shows_the_reason(content, reason):
    data = content if isinstance(content, bytes) else json.dumps(content).encode()
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=60)
    at.run()
    at.file_uploader(key="ng_upload").upload("bad.json", data, "application/json").run()
    assert not at.exception, at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and errors[0].startswith("Could not load bad.json: ")
    assert reason in errors[0]
    assert "bl_play" not in at.session_state or at.session_state["bl_play"] is None


def test_unknown_app_block_values_are_ignored():
    """The optional "app" block (seats, AI preset) of a record: values that are not ours
    fall back to the defaults."""
    record = boardlab.make("kitsu", players=2).new_initial_state(seed=2).to_record()
    record["app"] = {"ai": ["Expert"], "seats": {"0": "human"}}
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=60)
    at.run()
    at.file_uploader(key="ng_upload").upload("g.json", json.dumps(record).encode(),
                                             "application/json").run()
    assert not at.exception, at.exception
    assert not at.error
    sess = at.session_state["bl_play"]
    assert sess.preset == DEFAULT_PRESET and sess.seats == [HUMAN, AI]
