# cython: language_level=3
"""Compiled search: a thin owner of one SO-ISMCTS tree (kernel/search/ismcts.h).

The Python layer (py/boardlab/search.py) validates parameters, runs the tree in
batches (the GIL is released for the whole batch: no Python code runs per
iteration) and turns the statistics into a SearchResult.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free

from boardlab._core cimport CoreGame, CoreState, BLGame
from boardlab._net cimport Net, BLNet


cdef extern from "search/ismcts.h" nogil:
    ctypedef struct BLSearchParams:
        double c              # exploration constant
        int rollout_depth     # decisions before evaluate() cuts a rollout; -1 = play out
        uint64_t seed         # derives the search and determinization streams
        int64_t max_nodes     # expansion cap (not at the root); <= 0: none
        double bias           # progressive-bias weight (0: off)
        int open_hands        # 1: search the true state (sees hidden information)
        const BLNet *net      # NULL: plain search; else the guided search
        double cpuct          # guided: PUCT exploration weight
        double mix            # guided: network's share of the leaf value
        int late_uniform      # guided: 1/n prior for moves new at a grown node

    ctypedef struct BLISRootStat:
        int32_t action        # root action
        uint32_t visits       # iterations through it
        uint32_t avail        # root visits in which it was legal
        double mean           # mean return of the mover in [-1, 1]
        float prior           # the network's prior (guided search)

    ctypedef struct BLISExport:
        int32_t id            # node index
        int32_t parent        # parent node index (-1 for the root)
        int32_t depth         # 0 for the root
        int32_t action        # action into the node (-1 for the root)
        int32_t player        # seat that made it (-1 for the root)
        uint32_t visits       # iterations through the node
        double mean           # mean return of the mover

    ctypedef struct BLISTree

    BLSearchParams bl_ismcts_default_params() noexcept
    BLISTree *bl_ismcts_create(const BLGame *g, const void *root, int root_player,
                               const BLSearchParams *params, char *err, int errlen) noexcept
    int64_t bl_ismcts_run(BLISTree *t, int64_t n) noexcept
    int bl_ismcts_set_worlds(BLISTree *t, const void *const *states, const double *weights,
                             int n, char *err, int errlen) noexcept
    void bl_ismcts_free(BLISTree *t) noexcept
    int64_t bl_ismcts_iterations(const BLISTree *t) noexcept
    int64_t bl_ismcts_net_evals(const BLISTree *t) noexcept
    int64_t bl_ismcts_num_nodes(const BLISTree *t) noexcept
    size_t bl_ismcts_memory_bytes(const BLISTree *t) noexcept
    size_t bl_ismcts_bytes_per_node() noexcept
    int bl_ismcts_root_stats(const BLISTree *t, BLISRootStat *out, int cap) noexcept
    int32_t bl_ismcts_best_action(const BLISTree *t) noexcept
    int bl_ismcts_pv(const BLISTree *t, int32_t *players, int32_t *actions, int cap) noexcept
    int64_t bl_ismcts_export(const BLISTree *t, int max_depth, int top_k,
                             BLISExport *out, int64_t cap) noexcept


def _int_in(name, value, low, high):
    """int(value) if it is an int in [low, high]; else ValueError naming it."""
    if isinstance(value, bool) or not hasattr(value, "__index__") \
            or not low <= value.__index__() <= high:
        raise ValueError(f"{name}: must be an integer in [{low}, {high}], got {type(value).__name__}")
    return value.__index__()


def bytes_per_node():
    """Size in bytes of one tree node."""
    return bl_ismcts_bytes_per_node()


cdef class ISMCTSTree:
    """One SO-ISMCTS tree over a private copy of a root state.

    ISMCTSTree(state_core, player, c, rollout_depth, seed, max_nodes, bias,
    open_hands, net, cpuct, mix, late_uniform) where net (a boardlab._net.Net, or None) turns
    on the guided search (kernel/search/ismcts.h) and state_core is a boardlab._core.CoreState at a decision
    node. open_hands=True searches the true state without determinization (it
    sees every hidden card: analysis and measurement only). Raises ValueError
    (naming the parameter) on bad arguments.
    """
    cdef BLISTree *t
    cdef CoreGame game        # keeps the BLGame alive as long as the tree
    cdef Net net              # keeps the network alive as long as the tree (None: plain)

    def __cinit__(self, CoreState state not None, player, c=0.7, rollout_depth=-1, seed=0,
                  max_nodes=0, bias=0.0, bint open_hands=False, Net net=None, cpuct=1.5,
                  mix=1.0, bint late_uniform=False):
        cdef BLSearchParams p = bl_ismcts_default_params()
        cdef char err[256]
        # Out-of-range ints would raise OverflowError in the C conversion: name them instead.
        p.c = c
        p.rollout_depth = _int_in("rollout_depth", rollout_depth, -1, 2**31 - 1)
        p.seed = _int_in("seed", seed, 0, 2**64 - 1)
        p.max_nodes = _int_in("max_nodes", max_nodes, -2**63, 2**63 - 1)
        p.bias = bias
        player = _int_in("player", player, -2**31, 2**31 - 1)
        p.open_hands = 1 if open_hands else 0
        self.net = net
        if net is not None:
            p.net = net.net
            p.cpuct = cpuct
            p.mix = mix
            p.late_uniform = 1 if late_uniform else 0
        err[0] = 0
        self.game = state.game
        self.t = bl_ismcts_create(state.game.g, state.st, player, &p, err, 256)
        if self.t == NULL:
            raise ValueError(err.decode("utf-8", "replace"))

    def __dealloc__(self):
        if self.t != NULL:
            bl_ismcts_free(self.t)
            self.t = NULL

    def set_worlds(self, states, weights):
        """Search these weighted worlds instead of fresh determinizations: each
        iteration starts from states[i] (CoreStates of this game, each a
        determinization of the root for the tree's player) with probability
        weights[i] / sum(weights). Before the first iteration. ValueError on a
        bad argument."""
        cdef int n = len(states), i
        cdef CoreState cs
        cdef char err[256]
        if len(weights) != n:
            raise ValueError("worlds: one weight per state")
        cdef const void **ptrs = <const void **>malloc(sizeof(void *) * (n if n > 0 else 1))
        cdef double *w = <double *>malloc(sizeof(double) * (n if n > 0 else 1))
        if ptrs == NULL or w == NULL:
            free(ptrs); free(w)
            raise MemoryError()
        try:
            for i in range(n):
                cs = states[i]
                if cs.game is not self.game:
                    raise ValueError("worlds: a state of another game")
                ptrs[i] = cs.st
                w[i] = float(weights[i])
            err[0] = 0
            if bl_ismcts_set_worlds(self.t, ptrs, w, n, err, 256) != 0:
                raise ValueError(err.decode("utf-8", "replace"))
        finally:
            free(ptrs); free(w)

    def run(self, n):
        """Run n more iterations with the GIL released; returns n."""
        cdef int64_t done
        cdef int64_t count = _int_in("n", n, 0, 2**63 - 1)
        with nogil:
            done = bl_ismcts_run(self.t, count)
        if done < 0:
            raise RuntimeError("search: the root state could not be determinized "
                               "(no world agrees with what the player knows)")
        return done

    @property
    def iterations(self):
        return bl_ismcts_iterations(self.t)

    @property
    def net_evals(self):
        return bl_ismcts_net_evals(self.t)

    @property
    def num_nodes(self):
        return bl_ismcts_num_nodes(self.t)

    @property
    def memory_bytes(self):
        return bl_ismcts_memory_bytes(self.t)

    def best_action(self):
        """Most-visited root action (ties: lowest action), -1 before any iteration."""
        return bl_ismcts_best_action(self.t)

    def _root_rows(self):
        """[(action, visits, availability, mean, prior)] sorted by action."""
        cdef int cap = self.game.g.num_actions + 1
        cdef BLISRootStat *buf = <BLISRootStat *>malloc(sizeof(BLISRootStat) * cap)
        cdef int n, i
        if buf == NULL:
            raise MemoryError()
        try:
            n = bl_ismcts_root_stats(self.t, buf, cap)
            return [(buf[i].action, buf[i].visits, buf[i].avail, buf[i].mean, buf[i].prior)
                    for i in range(min(n, cap))]
        finally:
            free(buf)

    def root_stats(self):
        """[(action, visits, availability, mean)] sorted by action."""
        return [row[:4] for row in self._root_rows()]

    def root_priors(self):
        """{action: the network's prior} of the root actions (guided search; in the
        plain search the slot holds progressive bias's heuristic, or 0)."""
        return {row[0]: row[4] for row in self._root_rows()}

    def principal_variation(self, int max_len=256):
        """Most-visited path from the root: [(player, action)]."""
        cdef int32_t *pl = <int32_t *>malloc(sizeof(int32_t) * max(max_len, 1))
        cdef int32_t *ac = <int32_t *>malloc(sizeof(int32_t) * max(max_len, 1))
        cdef int n, i
        if pl == NULL or ac == NULL:
            free(pl); free(ac)
            raise MemoryError()
        try:
            n = bl_ismcts_pv(self.t, pl, ac, max_len)
            return [(pl[i], ac[i]) for i in range(n)]
        finally:
            free(pl); free(ac)

    def export(self, int depth=3, int top_k=5):
        """Pre-order nodes [(id, parent, depth, action, player, visits, mean)]
        down to `depth`, keeping the top_k most-visited children of each node."""
        cdef int64_t n = bl_ismcts_export(self.t, depth, top_k, NULL, 0)
        cdef BLISExport *buf = <BLISExport *>malloc(sizeof(BLISExport) * max(n, 1))
        cdef int64_t i
        if buf == NULL:
            raise MemoryError()
        try:
            n = bl_ismcts_export(self.t, depth, top_k, buf, n)
            return [(buf[i].id, buf[i].parent, buf[i].depth, buf[i].action,
                     buf[i].player, buf[i].visits, buf[i].mean) for i in range(n)]
        finally:
            free(buf)
