# cython: language_level=3
"""Scenario building for the Keyside rule tests: set a seat's goods, keyples,
tracks, buildings, headlands, farms as a scenario needs them.

Used only by tests (tests/keyside_table.py) to reach the positions the
rulebook talks about (its example scores, ...) without playing a whole game to
reach them. Normal play never calls it.
"""
from libc.stdint cimport int32_t
from boardlab._core cimport CoreState, BLGame, BLRng, bl_rng_seed

cdef extern from "keyside/keyside.h" nogil:
    int ks_debug_set(const BLGame *g, void *st, int p, int what, int index, int value) noexcept
    int32_t ks_rollout_action(const BLGame *g, const void *st, const int32_t *legal, int n,
                              BLRng *rng) noexcept

#: The fields `set` can change (kernel/keyside/rules.c KD_*).
FIELDS = {"good": 0, "keyples": 1, "mat": 2, "level": 3, "building": 4, "house": 5, "skill": 6,
          "headland": 7, "farm_animal": 8, "owner": 9, "red_space": 10, "field_tokens": 11,
          "keytoma_keyples": 12}


cdef CoreState _keyside_core(state):
    core = state._core if hasattr(state, "_core") else state
    if not isinstance(core, CoreState):
        raise TypeError("expected a boardlab State")
    cdef CoreState cs = <CoreState>core
    if cs.st == NULL or cs.game is None or cs.game.name != "keyside":
        raise ValueError("expected a Keyside state")
    return cs


def rollout_action(state, unsigned long long seed):
    """The action the search's rollout policy picks here (a decision node with at least
    one legal action) with a random stream seeded by `seed`."""
    cdef CoreState cs = _keyside_core(state)
    legal = [int(a) for a in cs.legal_actions()]
    if not legal or len(legal) > 512:
        raise ValueError("rollout_action: not a decision with 1..512 legal actions")
    cdef int32_t buf[512]
    for i, a in enumerate(legal):
        buf[i] = a
    cdef BLRng rng
    bl_rng_seed(&rng, seed)
    return int(ks_rollout_action(cs.game.g, cs.st, buf, len(legal), &rng))


def set(state, int player, str field, int index, int value):
    """Set `field` (see FIELDS) at `index` to `value` for seat `player`."""
    cdef CoreState cs = _keyside_core(state)
    if field not in FIELDS:
        raise ValueError(f"unknown field {field!r}; known: {', '.join(FIELDS)}")
    if ks_debug_set(cs.game.g, cs.st, player, FIELDS[field], index, value) != 0:
        raise ValueError(f"invalid {field} index {index} value {value} for seat {player}")
    if hasattr(state, "_changed_out_of_band"):      # a State: its history no longer replays
        state._changed_out_of_band()
