# cython: language_level=3
"""The kernel's policy-value network (kernel/net/net.h): load a network file and
run forward passes on a batch of feature vectors, for tests and benchmarks.
The guided search (kernel/search/ismcts.c) calls the same C forward pass per node,
without Python."""
from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.stdlib cimport malloc, free
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

import numpy as np

from boardlab._core cimport CoreGame, CoreState, BLGame


cdef extern from "net/net.h" nogil:
    int BL_NET_HEADER_BYTES
    int64_t bl_net_param_count(int n_in, int width, int blocks, int n_value, int n_actions) noexcept
    BLNet *bl_net_load_bytes(const uint8_t *buf, size_t len, char *err, int errlen) noexcept
    BLNet *bl_net_load_file(const char *path, char *err, int errlen) noexcept
    void bl_net_free(BLNet *net) noexcept
    int bl_net_check_game(const BLNet *net, const BLGame *g, char *err, int errlen) noexcept
    size_t bl_net_scratch_floats(const BLNet *net) noexcept
    void bl_net_forward(const BLNet *net, const float *x, const int32_t *legal, int n_legal,
                        float *value_out, float *prior_out, float *scratch) noexcept
    void bl_net_forward_portable(const BLNet *net, const float *x, const int32_t *legal,
                                 int n_legal, float *value_out, float *prior_out,
                                 float *scratch) noexcept

HEADER_BYTES = BL_NET_HEADER_BYTES


def param_count(n_in, width, blocks, n_value, n_actions):
    """Weights of a network of this shape; ValueError if a size is out of bounds."""
    n = bl_net_param_count(n_in, width, blocks, n_value, n_actions)
    if n < 0:
        raise ValueError("network sizes out of range")
    return n


cdef double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef class Net:
    """A loaded network: Net.from_file(path) or Net.from_bytes(data). Loading
    errors are ValueErrors naming what is wrong (bad magic, truncated file, ...)."""

    def __cinit__(self):
        self.net = NULL

    def __dealloc__(self):
        bl_net_free(self.net)
        self.net = NULL

    @staticmethod
    def from_bytes(bytes data):
        cdef char err[256]
        cdef const unsigned char *p = data
        err[0] = 0
        cdef Net n = Net.__new__(Net)
        n.net = bl_net_load_bytes(p, len(data), err, 256)
        if n.net == NULL:
            raise ValueError(err.decode("utf-8", "replace"))
        return n

    @staticmethod
    def from_file(path):
        cdef char err[256]
        cdef bytes b = str(path).encode("utf-8")
        err[0] = 0
        cdef Net n = Net.__new__(Net)
        n.net = bl_net_load_file(b, err, 256)
        if n.net == NULL:
            raise ValueError(err.decode("utf-8", "replace"))
        return n

    @property
    def game(self): return self.net.game.decode("ascii")
    @property
    def config(self): return self.net.config.decode("ascii")
    @property
    def n_in(self): return self.net.n_in
    @property
    def width(self): return self.net.width
    @property
    def blocks(self): return self.net.blocks
    @property
    def n_value(self): return self.net.n_value
    @property
    def n_actions(self): return self.net.n_actions
    @property
    def value_activation(self): return "tanh" if self.net.value_act == 0 else "linear"

    def check_game(self, CoreGame game not None):
        """ValueError naming the mismatch if this network does not fit the game."""
        cdef char err[256]
        err[0] = 0
        if bl_net_check_game(self.net, game.g, err, 256) != 0:
            raise ValueError(err.decode("utf-8", "replace"))

    def _inputs(self, x, mask):
        x = np.ascontiguousarray(x, dtype=np.float32)
        mask = np.ascontiguousarray(mask, dtype=np.bool_)
        if x.ndim != 2 or x.shape[1] != self.net.n_in:
            raise ValueError(f"features: expected shape (batch, {self.net.n_in}), got {x.shape}")
        if mask.shape != (x.shape[0], self.net.n_actions):
            raise ValueError(f"mask: expected shape ({x.shape[0]}, {self.net.n_actions}), got {mask.shape}")
        return x, mask

    def forward(self, x, mask, bint portable=False):
        """values (batch, n_value) and priors (batch, n_actions), the priors a
        softmax over the actions mask allows (zero elsewhere; a row with no
        legal action is all zero), from features x (batch, n_in). portable: the
        build for any machine, not the one the loader picked (for a test)."""
        x, mask = self._inputs(x, mask)
        cdef int B = x.shape[0], A = self.net.n_actions, i, a, k
        values = np.zeros((B, self.net.n_value), dtype=np.float32)
        priors = np.zeros((B, A), dtype=np.float32)
        if B == 0:
            return values, priors
        cdef float[:, ::1] xv = x, vv = values, pv = priors
        cdef const uint8_t[:, ::1] mv = mask.view(np.uint8)
        cdef int32_t *legal = <int32_t *>malloc(A * sizeof(int32_t))
        cdef float *prior = <float *>malloc(A * sizeof(float))
        cdef float *scratch = <float *>malloc(bl_net_scratch_floats(self.net) * sizeof(float))
        try:
            if legal == NULL or prior == NULL or scratch == NULL:
                raise MemoryError()
            with nogil:
                for i in range(B):
                    k = 0
                    for a in range(A):
                        if mv[i, a]:
                            legal[k] = a
                            k += 1
                    if portable:
                        bl_net_forward_portable(self.net, &xv[i, 0], legal, k, &vv[i, 0], prior, scratch)
                    else:
                        bl_net_forward(self.net, &xv[i, 0], legal, k, &vv[i, 0], prior, scratch)
                    for a in range(k):
                        pv[i, legal[a]] = prior[a]
        finally:
            free(legal); free(prior); free(scratch)
        return values, priors

    def forward_ns(self, x, mask, int repeat):
        """Mean wall time in ns of one forward pass (value and prior) over the
        rows of x, each run `repeat` times in C: the cost the search would pay."""
        x, mask = self._inputs(x, mask)
        cdef int B = x.shape[0], A = self.net.n_actions, i, a, k, r
        if B == 0 or repeat < 1:
            raise ValueError("forward_ns: needs rows and repeat >= 1")
        cdef float[:, ::1] xv = x
        cdef const uint8_t[:, ::1] mv = mask.view(np.uint8)
        cdef int32_t *legal = <int32_t *>malloc(<size_t>B * A * sizeof(int32_t))
        cdef int *nl = <int *>malloc(B * sizeof(int))
        cdef float *out = <float *>malloc((A + self.net.n_value) * sizeof(float))
        cdef float *scratch = <float *>malloc(bl_net_scratch_floats(self.net) * sizeof(float))
        cdef double t0, t1
        try:
            if legal == NULL or nl == NULL or out == NULL or scratch == NULL:
                raise MemoryError()
            for i in range(B):
                k = 0
                for a in range(A):
                    if mv[i, a]:
                        legal[<size_t>i * A + k] = a
                        k += 1
                nl[i] = k
            with nogil:
                t0 = _now()
                for r in range(repeat):
                    for i in range(B):
                        bl_net_forward(self.net, &xv[i, 0], &legal[<size_t>i * A], nl[i],
                                       out + A, out, scratch)
                t1 = _now()
        finally:
            free(legal); free(nl); free(out); free(scratch)
        return (t1 - t0) * 1e9 / (<double>B * repeat)


def features_ns(CoreState state not None, int seat, int repeat):
    """Mean wall time in ns of the kernel writing `seat`'s features of `state`."""
    cdef CoreGame game = state.core_game
    cdef BLGame *g = game.g
    if g.vt.features == NULL:
        raise ValueError(f"{g.vt.name.decode()}: no network features yet")
    if seat < 0 or seat >= g.num_players or repeat < 1:
        raise ValueError("features_ns: a seat of the game and repeat >= 1")
    cdef float *out = <float *>malloc(g.vt.feature_size(g) * sizeof(float))
    cdef const void *st = state.st
    cdef double t0, t1
    cdef int r
    if out == NULL:
        raise MemoryError()
    with nogil:
        t0 = _now()
        for r in range(repeat):
            g.vt.features(g, st, seat, out)
        t1 = _now()
    free(out)
    return (t1 - t0) * 1e9 / repeat
