# cython: language_level=3
"""Scenario building for the Nukumi rule tests: set parts of a position.

Used only by tests (tests/nukumi_table.py) to reach a situation a rule talks
about (an empty pool, Nukumaru next to a pioneer, a built neighbourhood...)
without playing a whole game to it. Normal play never calls it.
"""
from libc.stdint cimport int32_t
from boardlab._core cimport CoreState, BLGame, BLRng, bl_rng_seed

cdef extern from "nukumi/nukumi.h" nogil:
    int nk_debug_set(const BLGame *g, void *st, int what, int p, int k, int value) noexcept
    int32_t nk_rollout_action(const BLGame *g, const void *st, const int32_t *legal, int n,
                              BLRng *rng) noexcept

#: what -> kernel code (kernel/nukumi/nukumi.h NKD_*)
FIELDS = {"pool": 0, "coins": 1, "square": 2, "fun": 3, "oishi": 4, "drawn": 5, "bag": 6,
          "nukumaru": 7, "hand": 8, "played": 9, "build": 10, "buildings_left": 11, "cubes": 12}


cdef CoreState _nukumi_core(state):
    core = state._core if hasattr(state, "_core") else state
    if not isinstance(core, CoreState):
        raise TypeError("expected a boardlab State")
    cdef CoreState cs = <CoreState>core
    if cs.st == NULL or cs.game is None or cs.game.name != "nukumi":
        raise ValueError("expected a Nukumi state")
    return cs


def rollout_action(state, unsigned long long seed):
    """The action the search's rollout policy picks here (a decision node with
    at least one legal action) with a random stream seeded by `seed`."""
    cdef CoreState cs = _nukumi_core(state)
    legal = [int(a) for a in cs.legal_actions()]
    if not legal:
        raise ValueError("rollout_action: not a decision with legal actions")
    cdef int32_t buf[160]
    if len(legal) > 160:
        raise ValueError("rollout_action: more legal actions than the kernel's max_legal")
    for i, a in enumerate(legal):
        buf[i] = a
    cdef BLRng rng
    bl_rng_seed(&rng, seed)
    return int(nk_rollout_action(cs.game.g, cs.st, buf, len(legal), &rng))


def set_field(state, str what, int player=0, int index=0, int value=0):
    """Set `what` (a FIELDS key) of `player` at `index` to `value`."""
    cdef CoreState cs = _nukumi_core(state)
    if what not in FIELDS:
        raise ValueError(f"unknown field {what!r}; known: {', '.join(FIELDS)}")
    if nk_debug_set(cs.game.g, cs.st, FIELDS[what], player, index, value) != 0:
        raise ValueError(f"invalid {what}: player {player}, index {index}, value {value}")
    if hasattr(state, "_changed_out_of_band"):      # a State: its history no longer replays
        state._changed_out_of_band()


def name_any(state, int action):
    """The kernel's notation of `action`, legal here or not (CoreState.action_to_string
    names legal actions only): tests/test_nukumi_naming.py runs it on every id, also under
    the sanitizer, to prove Nukumi's namer reads only what the state holds."""
    cdef CoreState cs = _nukumi_core(state)
    if not 0 <= action < cs.game.g.num_actions:
        raise ValueError(f"action {action} out of range [0, {cs.game.g.num_actions})")
    return cs._name(action)
