/* The C function table every game implements, and the game descriptor.
 *
 * Conventions (see DESIGN.md):
 *  - A state is a fixed-size plain struct with no pointers; clone = memcpy of
 *    BLGame.state_size bytes. Its FIRST member is a BLRng (the game stream),
 *    so generic code (playouts, search) can reach it as (BLRng *)state.
 *  - Actions are small ints in [0, num_actions). legal_actions writes them in
 *    ascending order into a caller-owned buffer of at least max_legal entries.
 *  - Chance is explicit: at a chance node current_player() == BL_CHANCE and
 *    chance_outcomes() lists the outcomes with probabilities; sample_chance()
 *    draws one with the state's own RNG (fast path for playouts).
 *  - apply() assumes a legal action: the Python layer checks legality first.
 *  - Game-specific tables (card data read from the data file) live in
 *    BLGame.config, filled by configure() from a flat int32 parameter vector.
 */
#ifndef BL_GAME_API_H
#define BL_GAME_API_H
#include <stddef.h>
#include <stdint.h>
#include "rng.h"

#define BL_CHANCE   (-1)
#define BL_TERMINAL (-2)
#define BL_MAX_PLAYERS 8
#define BL_CONFIG_BYTES 65536

typedef struct BLGame BLGame;

typedef struct BLGameVTable {
    const char *name;
    /* Validate the parameter vector and fill g (num_players, num_actions,
     * max_legal, max_chance, state_size, config). Returns 0, or -1 with a
     * message naming the bad parameter written to err. */
    int (*configure)(BLGame *g, const int32_t *params, int n_params, char *err, int errlen);
    /* Fresh initial state (zeroed first, so padding bytes are deterministic). */
    void (*init)(const BLGame *g, void *st, uint64_t seed);
    /* Seat index to move, BL_CHANCE or BL_TERMINAL. */
    int (*current_player)(const BLGame *g, const void *st);
    /* Ascending legal actions into out (capacity g->max_legal); returns count. */
    int (*legal_actions)(const BLGame *g, const void *st, int32_t *out);
    void (*apply)(const BLGame *g, void *st, int32_t action);
    /* Final (or current, if not terminal: all zero) reward per seat. */
    void (*returns)(const BLGame *g, const void *st, double *out);
    /* Chance outcomes (capacity g->max_chance); returns count. */
    int (*chance_outcomes)(const BLGame *g, const void *st, int32_t *actions, double *probs);
    /* Draw one chance outcome with the state's RNG (does not apply it). */
    int32_t (*sample_chance)(const BLGame *g, void *st);
    /* Resample, in place, everything `observer` cannot know, consistently
     * with what they do know, using rng (not the state's own stream). The
     * state's own RNG is reseeded from rng too, so future chance differs.
     * Returns 0, or -1 when no world agrees with what observer knows (a
     * corrupt state): the state is then left as it was and must not be used
     * as a sample — never hand the true hidden state to a search instead. */
    int (*determinize)(const BLGame *g, void *st, int observer, BLRng *rng);
    /* Heuristic value per seat in [-1, 1]. The search backs it up at terminal
     * states too: there it is the returns, or a graded form of them where
     * win/loss alone would leave the search blind (Keyside solo: a loss
     * graded by how near it came). */
    void (*evaluate)(const BLGame *g, const void *st, double *out);
    /* Move notation of a legal action in this state; returns length. */
    int (*action_to_string)(const BLGame *g, const void *st, int32_t action, char *buf, int cap);
    /* JSON object of what `player` knows (player = -1: the full state).
     * Returns the length written, or -1 if cap was too small. */
    int (*observe_json)(const BLGame *g, const void *st, int player, char *buf, int cap);
    /* Optional (NULL if the game has none): build a position from what one
     * seat knows at a real table, described by a game-specific int vector;
     * the hidden rest is dealt at random with the state's seed. Returns 0, or
     * -1 with a message naming what is inconsistent written to err. */
    int (*setup)(const BLGame *g, void *st, uint64_t seed, const int32_t *desc, int n, char *err, int errlen);
    /* Optional (NULL: uniform): the game's default policy for search rollouts,
     * one of the n legal actions (ascending, as legal_actions wrote them),
     * drawn with rng (the search stream, never the state's own). */
    int32_t (*rollout_action)(const BLGame *g, const void *st, const int32_t *legal, int n, BLRng *rng);
    /* Optional (NULL: a game without network features, for which no network
     * loads): the number of floats features() writes in this configuration
     * (kernel/net, docs/learning.md). */
    int (*feature_size)(const BLGame *g);
    /* Optional: the network's input for `seat`, written to out (feature_size
     * floats). A function of what `seat` knows alone (observe_json(seat)), so
     * a network reading it never sees a hidden card; tests/test_net_features.py. */
    void (*features)(const BLGame *g, const void *st, int seat, float *out);
} BLGameVTable;

struct BLGame {
    const BLGameVTable *vt;
    int num_players;
    int num_actions;      /* size of the fixed action space */
    int max_legal;        /* upper bound on legal_actions() count */
    int max_chance;       /* upper bound on chance_outcomes() count */
    size_t state_size;    /* bytes of one state */
    uint8_t config[BL_CONFIG_BYTES] __attribute__((aligned(16)));
};

/* Registry of compiled games (kernel/common/registry.c). NULL if unknown. */
const BLGameVTable *bl_find_game(const char *name);
/* Name of the i-th registered game, NULL past the end. */
const char *bl_game_name(int i);

/* The game stream of any state. */
static inline BLRng *bl_state_rng(void *st) { return (BLRng *)st; }

#endif
