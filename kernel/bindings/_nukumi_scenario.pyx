# cython: language_level=3
"""Scenario building for the Nukumi rule tests: set parts of a position.

Used only by tests (tests/nukumi_table.py) to reach a situation a rule talks
about (an empty pool, Nukumaru next to a pioneer, a built neighbourhood...)
without playing a whole game to it. Normal play never calls it.
"""
from boardlab._core cimport CoreState, BLGame

cdef extern from "nukumi/nukumi.h" nogil:
    int nk_debug_set(const BLGame *g, void *st, int what, int p, int k, int value) noexcept

#: what -> kernel code (kernel/nukumi/nukumi.h NKD_*)
FIELDS = {"pool": 0, "coins": 1, "square": 2, "fun": 3, "oishi": 4, "drawn": 5, "bag": 6,
          "nukumaru": 7, "hand": 8, "played": 9, "build": 10, "buildings_left": 11, "cubes": 12}


def set_field(state, str what, int player=0, int index=0, int value=0):
    """Set `what` (a FIELDS key) of `player` at `index` to `value`."""
    core = state._core if hasattr(state, "_core") else state
    if not isinstance(core, CoreState):
        raise TypeError("expected a boardlab State")
    cdef CoreState cs = <CoreState>core
    if cs.st == NULL or cs.game is None or cs.game.name != "nukumi":
        raise ValueError("expected a Nukumi state")
    if what not in FIELDS:
        raise ValueError(f"unknown field {what!r}; known: {', '.join(FIELDS)}")
    if nk_debug_set(cs.game.g, cs.st, FIELDS[what], player, index, value) != 0:
        raise ValueError(f"invalid {what}: player {player}, index {index}, value {value}")
