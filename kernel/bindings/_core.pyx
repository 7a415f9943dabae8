# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""boardlab._core: thin, checked wrappers around the C game function table.

This module is internal: ``boardlab.Game`` / ``boardlab.State`` are the public
API. It guards the kernel against out-of-range inputs (ranges of players and
action ids) but leaves rule legality to the Python layer, which checks an
action against legal_actions() before calling apply().

>>> from boardlab import _core
>>> 'kitsu' in _core.game_names()
True
"""
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy

import numpy as np

cdef enum:
    ERR_CAP = 512   # bytes for configure()'s error message

CHANCE = BL_CHANCE
TERMINAL = BL_TERMINAL
PLAYOUT_MAX_LEGAL = BL_PLAYOUT_MAX_LEGAL


def game_names():
    """Names of the games compiled into the kernel, in registry order."""
    cdef int i = 0
    cdef const char *name
    out = []
    while True:
        name = bl_game_name(i)
        if name == NULL:
            return out
        out.append(name.decode("utf-8"))
        i += 1


cdef inline void *_alloc_state(CoreGame game) except NULL:
    cdef void *st = calloc(1, game.g.state_size)
    if st == NULL:
        raise MemoryError()
    return st


cdef CoreState _wrap_copy(CoreGame game, const void *src):
    """A new CoreState owning a copy of src."""
    cdef CoreState s = CoreState.__new__(CoreState)
    s.game = game
    s.st = _alloc_state(game)
    memcpy(s.st, src, game.g.state_size)
    return s


cdef inline int _check_game(CoreGame game) except -1:
    if game.g == NULL:
        raise RuntimeError("CoreGame is not configured")
    return 0


cdef inline int _check_state(CoreState s) except -1:
    if s.st == NULL or s.game is None or s.game.g == NULL:
        raise RuntimeError("CoreState is not initialised")
    return 0


cdef class CoreGame:
    """A configured game. ``CoreGame(name, params)`` with params a list of ints
    (the kernel parameter vector built by the game's Python module)."""

    def __cinit__(self):
        self.g = NULL

    def __init__(self, str name, params):
        if self.g != NULL:
            raise RuntimeError("CoreGame is already configured")
        cdef const BLGameVTable *vt = bl_find_game(name.encode("utf-8"))
        if vt == NULL:
            raise ValueError(f"unknown game {name!r}; known games: {', '.join(game_names())}")
        values = list(params)
        cdef int n = len(values)
        cdef int32_t *vec = <int32_t *>malloc((n if n > 0 else 1) * sizeof(int32_t))
        cdef BLGame *g = <BLGame *>calloc(1, sizeof(BLGame))
        cdef char err[ERR_CAP]
        cdef int rc
        try:
            if vec == NULL or g == NULL:
                raise MemoryError()
            for i, v in enumerate(values):
                if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                    raise ValueError(f"kernel parameter {i} must be an int, got {v!r}")
                if not (-2**31 <= v < 2**31):
                    raise ValueError(f"kernel parameter {i} out of int32 range: {v!r}")
                vec[i] = <int32_t>v
            g.vt = vt
            err[0] = 0
            rc = vt.configure(g, vec, n, err, ERR_CAP)
            err[ERR_CAP - 1] = 0
            if rc != 0:
                msg = err.decode("utf-8", "replace") or "invalid parameters"
                raise ValueError(f"{name}: {msg}")
            if not (1 <= g.num_players <= BL_MAX_PLAYERS):
                raise RuntimeError(f"{name}: kernel reported num_players={g.num_players}")
            if g.num_actions <= 0 or g.state_size == 0 or g.max_legal <= 0:
                raise RuntimeError(f"{name}: kernel configured an empty game")
            if g.max_legal > BL_PLAYOUT_MAX_LEGAL:
                raise RuntimeError(f"{name}: max_legal={g.max_legal} exceeds "
                                   f"BL_PLAYOUT_MAX_LEGAL={BL_PLAYOUT_MAX_LEGAL}")
            self.g = g
            g = NULL
        finally:
            free(vec)
            free(g)

    def __dealloc__(self):
        free(self.g)
        self.g = NULL

    @property
    def name(self):
        _check_game(self)
        return self.g.vt.name.decode("utf-8")

    @property
    def num_players(self):
        _check_game(self)
        return self.g.num_players

    @property
    def num_actions(self):
        _check_game(self)
        return self.g.num_actions

    @property
    def max_legal(self):
        _check_game(self)
        return self.g.max_legal

    @property
    def max_chance(self):
        _check_game(self)
        return self.g.max_chance

    @property
    def state_size(self):
        _check_game(self)
        return self.g.state_size

    @property
    def feature_size(self):
        """Floats of the network input (CoreState.features), 0 for a game without them."""
        _check_game(self)
        return self.g.vt.feature_size(self.g) if self.g.vt.feature_size != NULL else 0

    def new_state(self, uint64_t seed):
        """The initial state for this seed."""
        _check_game(self)
        cdef CoreState s = CoreState.__new__(CoreState)
        s.game = self
        s.st = _alloc_state(self)
        self.g.vt.init(self.g, s.st, seed)
        return s

    def setup_state(self, desc, uint64_t seed):
        """A position from a seat's knowledge (game-specific vector, see the
        game's header); ValueError naming what is inconsistent."""
        _check_game(self)
        if self.g.vt.setup == NULL:
            raise ValueError(f"{self.name}: setting up a position is not supported")
        values = list(desc)
        for i, v in enumerate(values):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise ValueError(f"position value {i} must be an int, got {type(v).__name__}")
            if not (-2**31 <= v < 2**31):
                raise ValueError(f"position value {i} out of int32 range")
        cdef int n = len(values)
        cdef int32_t *vec = <int32_t *>malloc((n if n > 0 else 1) * sizeof(int32_t))
        cdef char err[ERR_CAP]
        cdef int rc
        if vec == NULL:
            raise MemoryError()
        cdef CoreState s = CoreState.__new__(CoreState)
        s.game = self
        try:
            s.st = _alloc_state(self)
            for i in range(n):
                vec[i] = values[i]
            err[0] = 0
            rc = self.g.vt.setup(self.g, s.st, seed, vec, n, err, ERR_CAP)
        finally:
            free(vec)
        if rc != 0:
            raise ValueError(f"{self.name}: {err.decode('utf-8', 'replace')}")
        return s

    def state_from_bytes(self, bytes data):
        """Rebuild a state from CoreState.to_bytes() (same configuration)."""
        _check_game(self)
        if len(data) != self.g.state_size:
            raise ValueError(f"expected {self.g.state_size} bytes, got {len(data)}")
        cdef const unsigned char *p = data
        return _wrap_copy(self, p)

    def random_playouts(self, CoreState start not None, int n, uint64_t seed):
        """n random games from start, in C without the GIL.
        Returns (returns array of shape (n, num_players), actions applied)."""
        _check_game(self)
        _check_state(start)
        if start.game is not self:
            raise ValueError("state belongs to another game")
        if n < 0:
            raise ValueError(f"n must be >= 0, got {n}")
        out = np.zeros((n, self.g.num_players), dtype=np.float64)
        if n == 0:
            return out, 0
        cdef double[:, ::1] view = out
        cdef void *scratch = malloc(2 * self.g.state_size)
        cdef int64_t applied
        if scratch == NULL:
            raise MemoryError()
        try:
            with nogil:
                applied = bl_random_playouts(self.g, start.st, n, seed, &view[0, 0], scratch)
        finally:
            free(scratch)
        if applied == -1:
            raise RuntimeError("max_legal exceeds the playout buffer")
        if applied == -2:
            raise RuntimeError(f"{self.name}: kernel reported no legal action at a decision node")
        return out, applied


cdef class CoreState:
    """One state of a CoreGame. Made by CoreGame.new_state() or clone()."""

    def __cinit__(self):
        self.st = NULL

    def __dealloc__(self):
        free(self.st)
        self.st = NULL

    @property
    def core_game(self):
        return self.game

    def clone(self):
        _check_state(self)
        return _wrap_copy(self.game, self.st)

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        """A memcpy (the state has no pointers); used by OpenSpiel's clone."""
        return self.clone()

    def to_bytes(self):
        """The raw state (for equality, hashing and snapshots)."""
        _check_state(self)
        return (<const char *>self.st)[:self.game.g.state_size]

    def current_player(self):
        _check_state(self)
        return self.game.g.vt.current_player(self.game.g, self.st)

    def legal_actions(self):
        """Kernel legal actions (ascending int32 array)."""
        _check_state(self)
        cdef BLGame *g = self.game.g
        out = np.empty(g.max_legal, dtype=np.int32)
        cdef int32_t[::1] view = out
        cdef int k = g.vt.legal_actions(g, self.st, &view[0])
        if k < 0 or k > g.max_legal:
            raise RuntimeError(f"kernel legal_actions returned {k} (max_legal {g.max_legal})")
        return out[:k].copy()

    def legal_mask(self):
        mask = np.zeros(self.game.g.num_actions, dtype=np.bool_)
        mask[self.legal_actions()] = True
        return mask

    def apply(self, int32_t action):
        """Apply an action. Only its range is checked: callers check legality."""
        _check_state(self)
        cdef BLGame *g = self.game.g
        if action < 0 or action >= g.num_actions:
            raise ValueError(f"action {action} out of range [0, {g.num_actions})")
        g.vt.apply(g, self.st, action)

    def returns(self):
        _check_state(self)
        out = np.zeros(self.game.g.num_players, dtype=np.float64)
        cdef double[::1] view = out
        self.game.g.vt.returns(self.game.g, self.st, &view[0])
        return out

    def evaluate(self):
        _check_state(self)
        out = np.zeros(self.game.g.num_players, dtype=np.float64)
        cdef double[::1] view = out
        self.game.g.vt.evaluate(self.game.g, self.st, &view[0])
        return out

    def chance_outcomes(self):
        """(actions int32 array, probabilities float64 array) at a chance node."""
        _check_state(self)
        cdef BLGame *g = self.game.g
        cap = g.max_chance if g.max_chance > 0 else 1
        acts = np.empty(cap, dtype=np.int32)
        probs = np.empty(cap, dtype=np.float64)
        cdef int32_t[::1] av = acts
        cdef double[::1] pv = probs
        cdef int k = g.vt.chance_outcomes(g, self.st, &av[0], &pv[0])
        if k < 0 or k > cap:
            raise RuntimeError(f"kernel chance_outcomes returned {k} (max_chance {g.max_chance})")
        return acts[:k].copy(), probs[:k].copy()

    def sample_chance(self):
        """Draw a chance outcome with the state's own RNG (advances it; not applied)."""
        _check_state(self)
        return self.game.g.vt.sample_chance(self.game.g, self.st)

    def determinize(self, int observer, uint64_t seed):
        """A new state: this one with what `observer` cannot know resampled."""
        _check_state(self)
        if observer < 0 or observer >= self.game.g.num_players:
            raise ValueError(f"observer must be a seat in [0, {self.game.g.num_players}), got {observer}")
        cdef CoreState s = _wrap_copy(self.game, self.st)
        cdef BLRng rng
        bl_rng_seed(&rng, seed)
        if self.game.g.vt.determinize(self.game.g, s.st, observer, &rng) != 0:
            raise RuntimeError(f"determinize: no deal agrees with what seat {observer} knows "
                               "(the state's knowledge is inconsistent)")
        return s

    def action_to_string(self, int32_t action):
        """Move notation of `action`, which must be legal here: a kernel namer reads the state
        the action belongs to (a card in a hand, a building on a square) and is only ever
        called for a legal action, so any id from anywhere is safe to name."""
        _check_state(self)
        cdef BLGame *g = self.game.g
        if action < 0 or action >= g.num_actions:
            raise ValueError(f"action {action} out of range [0, {g.num_actions})")
        if action not in self.legal_actions():
            raise ValueError(f"action {action} is not legal in this state")
        return self._name(action)

    def legal_action_names(self):
        """[(action, notation)] for every legal action, ascending."""
        _check_state(self)
        return [(int(a), self._name(a)) for a in self.legal_actions()]

    cdef str _name(self, int32_t action):
        cdef BLGame *g = self.game.g
        cdef int cap = 128
        cdef bytearray buf
        cdef int n
        while True:
            buf = bytearray(cap)
            n = g.vt.action_to_string(g, self.st, action, <char *>buf, cap)
            if n < 0:
                raise RuntimeError(f"kernel action_to_string failed for action {action}")
            if n < cap - 1 or cap >= 1 << 16:
                return bytes(buf[:min(n, cap - 1)]).decode("utf-8", "replace")
            cap *= 4

    def observe_json(self, int player):
        """JSON text of what `player` knows (-1: the full state)."""
        _check_state(self)
        cdef BLGame *g = self.game.g
        if player < -1 or player >= g.num_players:
            raise ValueError(f"player must be -1 or a seat in [0, {g.num_players}), got {player}")
        cdef int cap = 8192
        cdef bytearray buf
        cdef int n
        while True:
            buf = bytearray(cap)
            n = g.vt.observe_json(g, self.st, player, <char *>buf, cap)
            if n >= 0:
                if n > cap:
                    raise RuntimeError(f"kernel observe_json reported {n} bytes into {cap}")
                return bytes(buf[:n]).decode("utf-8")
            if cap >= 1 << 26:
                raise RuntimeError("kernel observe_json needs more than 64 MiB")
            cap *= 4

    def features(self, int seat):
        """The network input for `seat` (float32, game.feature_size floats): a
        function of what `seat` knows alone (kernel/net, docs/learning.md)."""
        _check_state(self)
        cdef BLGame *g = self.game.g
        if g.vt.features == NULL:
            raise ValueError(f"{g.vt.name.decode()}: no network features yet")
        if seat < 0 or seat >= g.num_players:
            raise ValueError(f"seat must be in [0, {g.num_players}), got {seat}")
        out = np.empty(g.vt.feature_size(g), dtype=np.float32)
        cdef float[::1] view = out
        g.vt.features(g, self.st, seat, &view[0])
        return out
