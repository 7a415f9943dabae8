# cython: language_level=3
"""Cython header of the boardlab kernel (in the style of sklearn/tree/_tree.pxd).

This file is the contract between the C kernel and every Cython module:
  * the C game function table (kernel/common/game_api.h) and the RNG
    (kernel/common/rng.h), with every struct field documented;
  * the random-playout loop (kernel/common/playout.h);
  * the two Python-visible classes, CoreGame and CoreState, that other
    binding modules (kernel/bindings/_search.pyx) cimport:

        from boardlab._core cimport CoreGame, CoreState, BLGame, BLGameVTable

Every kernel call is declared ``noexcept nogil``: the kernel never raises and
never touches Python objects, so hot loops may run with the GIL released.

Building a CoreState by hand from another Cython module (e.g. a search that
owns raw state buffers)::

    cdef CoreState s = CoreState.__new__(CoreState)
    s.game = game                        # keeps the BLGame alive
    s.st = malloc(game.g.state_size)     # freed by CoreState.__dealloc__
    memcpy(s.st, src, game.g.state_size)
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t


cdef extern from "common/rng.h" nogil:
    ctypedef struct BLRng:
        uint64_t s[4]      # xoshiro256** state words (never all zero)

    # Seed through splitmix64 (any seed gives a valid state).
    void bl_rng_seed(BLRng *r, uint64_t seed) noexcept
    # Next raw 64-bit output.
    uint64_t bl_rng_next(BLRng *r) noexcept
    # Uniform integer in [0, n), n > 0.
    uint32_t bl_rng_below(BLRng *r, uint32_t n) noexcept
    # Uniform double in [0, 1).
    double bl_rng_double(BLRng *r) noexcept
    # splitmix64 step: advance *x and return a well-mixed 64-bit value.
    uint64_t bl_splitmix64(uint64_t *x) noexcept


cdef extern from "common/game_api.h" nogil:
    int BL_CHANCE            # current_player() at a chance node (-1)
    int BL_TERMINAL          # current_player() once the game is over (-2)
    int BL_MAX_PLAYERS       # upper bound on num_players of any game
    int BL_CONFIG_BYTES      # size of BLGame.config

    ctypedef struct BLGame

    ctypedef struct BLGameVTable:
        # Registered game name ("kitsu", ...).
        const char *name
        # Validate params[0:n_params], fill the BLGame (sizes + config
        # tables); 0 on success, -1 with a message naming the bad parameter
        # written to err (errlen bytes).
        int (*configure)(BLGame *g, const int32_t *params, int n_params,
                         char *err, int errlen) noexcept nogil
        # Write a fresh initial state (zeroed first) seeded with `seed`.
        void (*init)(const BLGame *g, void *st, uint64_t seed) noexcept nogil
        # Seat to move, BL_CHANCE or BL_TERMINAL.
        int (*current_player)(const BLGame *g, const void *st) noexcept nogil
        # Ascending legal actions into out (capacity g.max_legal); count.
        int (*legal_actions)(const BLGame *g, const void *st, int32_t *out) noexcept nogil
        # Apply a legal action (unchecked: callers check legality).
        void (*apply)(const BLGame *g, void *st, int32_t action) noexcept nogil
        # Reward per seat (num_players doubles); all zero if not terminal.
        void (*returns)(const BLGame *g, const void *st, double *out) noexcept nogil
        # Chance outcomes and probabilities (capacity g.max_chance); count.
        int (*chance_outcomes)(const BLGame *g, const void *st,
                               int32_t *actions, double *probs) noexcept nogil
        # Draw one chance outcome with the state's own RNG (not applied).
        int32_t (*sample_chance)(const BLGame *g, void *st) noexcept nogil
        # Resample in place what `observer` cannot know, consistently with
        # what they know, using rng; also reseeds the state's own stream.
        int (*determinize)(const BLGame *g, void *st, int observer, BLRng *rng) noexcept nogil
        # Heuristic value per seat in [-1, 1] (terminal: the returns).
        void (*evaluate)(const BLGame *g, const void *st, double *out) noexcept nogil
        # Notation of a legal action into buf (cap bytes); length written.
        int (*action_to_string)(const BLGame *g, const void *st, int32_t action,
                                char *buf, int cap) noexcept nogil
        # JSON of what `player` knows (-1: everything) into buf; length
        # written, or -1 if cap was too small.
        int (*observe_json)(const BLGame *g, const void *st, int player,
                            char *buf, int cap) noexcept nogil
        # Optional (NULL if absent): a position from what one seat knows,
        # described by a game-specific vector; 0, or -1 with a message in err.
        int (*setup)(const BLGame *g, void *st, uint64_t seed, const int32_t *desc,
                     int n, char *err, int errlen) noexcept nogil
        # Optional (NULL if absent): floats features() writes; the network
        # input of what `seat` knows, written to out (kernel/net, docs/learning.md).
        int (*feature_size)(const BLGame *g) noexcept nogil
        void (*features)(const BLGame *g, const void *st, int seat, float *out) noexcept nogil

    ctypedef struct BLGame:
        const BLGameVTable *vt   # the game's function table
        int num_players          # seats in this configuration
        int num_actions          # size of the fixed action space
        int max_legal            # upper bound on legal_actions() count
        int max_chance           # upper bound on chance_outcomes() count
        size_t state_size        # bytes of one state (clone = memcpy)
        uint8_t config[65536]    # game-specific immutable tables (BL_CONFIG_BYTES)

    # Registry (kernel/common/registry.c): vtable by name (NULL if unknown),
    # name of the i-th game (NULL past the end).
    const BLGameVTable *bl_find_game(const char *name) noexcept
    const char *bl_game_name(int i) noexcept
    # The game stream of a state (its first member).
    BLRng *bl_state_rng(void *st) noexcept


cdef extern from "common/playout.h" nogil:
    int BL_PLAYOUT_MAX_LEGAL   # decision-node buffer size of the playout loop
    # n random playouts from start (see playout.h): returns_out gets
    # n * num_players doubles, scratch holds 2 states. Total actions applied,
    # -1 if max_legal is too large, -2 on a stuck decision node.
    int64_t bl_random_playouts(const BLGame *g, const void *start, int n,
                               uint64_t seed, double *returns_out,
                               void *scratch) noexcept


cdef class CoreGame:
    """A configured game: owns one heap BLGame (freed on dealloc)."""
    cdef BLGame *g            # configured descriptor (heap, owned)


cdef class CoreState:
    """One game state: owns game.g.state_size heap bytes (freed on dealloc)."""
    cdef CoreGame game        # the configuration this state belongs to (kept alive)
    cdef void *st             # game.g.state_size bytes (heap, owned)
    cdef str _name(self, int32_t action)   # the kernel's notation of a legal action
