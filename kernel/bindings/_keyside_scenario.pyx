# cython: language_level=3
"""Scenario building for the Keyside rule tests: set a seat's goods, keyples,
tracks, buildings, headlands, farms as a scenario needs them.

Used only by tests (tests/keyside_table.py) to reach the positions the
rulebook talks about (its example scores, ...) without playing a whole game to
reach them. Normal play never calls it.
"""
from boardlab._core cimport CoreState, BLGame

cdef extern from "keyside/keyside.h" nogil:
    int ks_debug_set(const BLGame *g, void *st, int p, int what, int index, int value) noexcept

#: The fields `set` can change (kernel/keyside/rules.c KD_*).
FIELDS = {"good": 0, "keyples": 1, "mat": 2, "level": 3, "building": 4, "house": 5, "skill": 6,
          "headland": 7, "farm_animal": 8, "owner": 9, "red_space": 10, "field_tokens": 11,
          "keytoma_keyples": 12}


def set(state, int player, str field, int index, int value):
    """Set `field` (see FIELDS) at `index` to `value` for seat `player`."""
    core = state._core if hasattr(state, "_core") else state
    if not isinstance(core, CoreState):
        raise TypeError("expected a boardlab State")
    cdef CoreState cs = <CoreState>core
    if cs.st == NULL or cs.game is None or cs.game.name != "keyside":
        raise ValueError("expected a Keyside state")
    if field not in FIELDS:
        raise ValueError(f"unknown field {field!r}; known: {', '.join(FIELDS)}")
    if ks_debug_set(cs.game.g, cs.st, player, FIELDS[field], index, value) != 0:
        raise ValueError(f"invalid {field} index {index} value {value} for seat {player}")
