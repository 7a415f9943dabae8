# cython: language_level=3
"""Scenario building for the Kyūshū rule tests: edit a map square by square.

Used only by tests (tests/kyushu_table.py) to set up maps the rulebook talks
about (its example score, Most/Fewest comparisons...) without playing a
whole game to reach them. Normal play never calls it.
"""
from boardlab._core cimport CoreState, BLGame

cdef extern from "kyushu/kyushu.h" nogil:
    void kyu_debug_clear_map(const BLGame *g, void *st, int p) noexcept
    int kyu_debug_set_cell(const BLGame *g, void *st, int p, int row, int col, int t, int fv,
                           int res, int tile, int owner) noexcept


cdef inline CoreState _checked(state):
    core = state._core if hasattr(state, "_core") else state
    if not isinstance(core, CoreState):
        raise TypeError("expected a boardlab State")
    cdef CoreState cs = <CoreState>core
    if cs.st == NULL or cs.game is None or cs.game.name != "kyushu":
        raise ValueError("expected a Kyushu state")
    return cs


def clear_map(state, int player):
    """Empty `player`'s map (its resources return to the pool)."""
    cdef CoreState cs = _checked(state)
    if not 0 <= player < cs.game.num_players:
        raise ValueError(f"bad seat {player}")
    kyu_debug_clear_map(cs.game.g, cs.st, player)
    if hasattr(state, "_changed_out_of_band"):      # a State: its history no longer replays
        state._changed_out_of_band()


def set_cell(state, int player, int row, int col, int terrain, int value=0, int resource=-1,
             bint tile=False, int traveler=-1):
    """Put kernel terrain code `terrain` (KT_*) on (row, col) of `player`'s map,
    with factory `value`, a `resource` colour index (-1 none) taken from the
    pool, a terraforming `tile` flag and a `traveler` owner seat (-1 none)."""
    cdef CoreState cs = _checked(state)
    if kyu_debug_set_cell(cs.game.g, cs.st, player, row, col, terrain, value, resource,
                          1 if tile else 0, traveler) != 0:
        raise ValueError(f"invalid square for seat {player} at ({row}, {col}): terrain {terrain}, "
                         f"value {value}, resource {resource} (or the pool is empty)")
    if hasattr(state, "_changed_out_of_band"):      # a State: its history no longer replays
        state._changed_out_of_band()
