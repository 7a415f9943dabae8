"""Versioned JSON game records.

A record is a JSON object::

    {"format": "boardlab-record", "version": 1,
     "game": "kitsu", "params": {"players": 4, ...}, "seed": 7,
     "actions": [3, 81, ...],            # every action, chance included
     "moves": ["Seat 3 leads", ...],     # their notation (optional on input)
     "result": [1.0, -1.0, ...] | null,  # returns if the game is over
     "position": {"seat": 0, "facts": {...}}}   # only for Game.position() starts

``seed`` seeds the state's own random stream, so a replay reproduces the very
same state (the actions alone already fix the position: chance is explicit).
``moves`` and ``result`` are checked when present; extra keys are ignored. The
browser app writes one, ``"app"``: its seats, AI level, what its screen needs to resume
and, for a reviewed position, the review (``{"review": {"version": 1, ...}}``, described
and checked in the app's ``review.py``; a record without it, or with one the app cannot
read, still loads).

This module writes a record (``State.to_record``) and checks its shape; replaying
one is ``Game.replay`` and ``boardlab.replay`` (game.py, which imports this module).

>>> import boardlab
>>> state = boardlab.make("kitsu", players=4).new_initial_state(seed=3)
>>> state.apply(int(state.legal_actions()[0]))
>>> record = state.to_record()
>>> boardlab.replay(record) == state
True
"""
from __future__ import annotations

import json
import math

from .errors import RecordError, brief_repr

FORMAT = "boardlab-record"
VERSION = 1
_REQUIRED = ("format", "version", "game", "params", "seed", "actions")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_return(v) -> bool:
    """A finite number that fits a float (what ``State.returns()`` holds)."""
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        return False
    try:
        return math.isfinite(float(v))
    except OverflowError:                          # an int beyond float range
        return False


def make_record(state) -> dict:
    """The record of ``state`` (use ``State.to_record()``)."""
    game = state._game
    replay = game._start(state._seed, state._position)
    moves = []
    for a in state._history:
        moves.append(replay.action_to_string(a))
        replay.apply(a)
    result = state.returns().tolist() if state.is_terminal() else None
    record = {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "params": game.params,
        "seed": state._seed,
        "actions": list(state._history),
        "moves": moves,
        "result": result,
    }
    if state._position is not None:
        record["position"] = state._position
    return record


def parse_record(record) -> dict:
    """Check the shape of a record (dict or JSON text); RecordError if bad."""
    if isinstance(record, (bytes, bytearray)):
        try:
            record = record.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(f"record is not UTF-8 text: {e}") from None
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except ValueError as e:         # also an integer with too many digits
            raise RecordError(f"record is not valid JSON: {e}") from None
        except RecursionError:
            raise RecordError("record is not a boardlab record: JSON nested too deeply") from None
    if not isinstance(record, dict):
        raise RecordError(f"record must be a JSON object, got {type(record).__name__}")
    missing = [k for k in _REQUIRED if k not in record]
    if missing:
        raise RecordError(f"record lacks {', '.join(repr(k) for k in missing)}")
    if record["format"] != FORMAT:
        raise RecordError(f"record 'format' must be {FORMAT!r}, got {brief_repr(record['format'])}")
    if not _is_int(record["version"]) or record["version"] != VERSION:
        raise RecordError(
            f"unsupported record 'version' {brief_repr(record['version'])} (this boardlab reads {VERSION})")
    if not isinstance(record["game"], str):
        raise RecordError(f"record 'game' must be a string, got {brief_repr(record['game'])}")
    params = record["params"]
    if not isinstance(params, dict) or not all(isinstance(k, str) for k in params):
        raise RecordError(f"record 'params' must be an object, got {brief_repr(params)}")
    seed = record["seed"]
    if not _is_int(seed) or not 0 <= seed < 2**64:
        raise RecordError(f"record 'seed' must be an int in [0, 2**64), got {brief_repr(seed)}")
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RecordError(f"record 'actions' must be a list, got {type(actions).__name__}")
    for i, a in enumerate(actions):
        if not _is_int(a):
            raise RecordError(f"actions[{i}] is not an int: {brief_repr(a)}")
    moves = record.get("moves")
    if moves is not None:
        if not isinstance(moves, list):
            raise RecordError(f"record 'moves' must be a list, got {type(moves).__name__}")
        if len(moves) != len(actions):
            raise RecordError(
                f"record has {len(moves)} 'moves' but {len(actions)} 'actions'")
        for i, m in enumerate(moves):
            if not isinstance(m, str):
                raise RecordError(f"moves[{i}] is not a string: {brief_repr(m)}")
    result = record.get("result")
    if result is not None:
        if not isinstance(result, list) or not all(_is_return(r) for r in result):
            raise RecordError(
                f"record 'result' must be null or a list of finite numbers, got {brief_repr(result)}")
    position = record.get("position")
    if position is not None and not (
            isinstance(position, dict) and set(position) == {"seat", "facts"}
            and _is_int(position["seat"]) and isinstance(position["facts"], dict)
            and all(isinstance(k, str) for k in position["facts"])):
        raise RecordError("record 'position' must be {'seat': int, 'facts': {name: value}}, "
                          f"got {brief_repr(position)}")
    return record


__all__ = ["FORMAT", "VERSION", "make_record", "parse_record"]
