/* Whole random games in C: the fast path behind Game.random_playouts() and a
 * building block for search (rollouts, benchmarks).
 *
 * Works on any game through the BLGame function table; no allocation. */
#ifndef BL_PLAYOUT_H
#define BL_PLAYOUT_H
#include <stdint.h>
#include "game_api.h"

/* Decision nodes are played from a stack buffer of this many actions; a game
 * whose max_legal is larger is rejected when it is configured from Python. */
#define BL_PLAYOUT_MAX_LEGAL 512

/* Play n random games to the end from `start`.
 *
 * Each playout copies `start`, reseeds the copy's own game stream
 * (bl_state_rng) from `seed` (a different, deterministic seed per playout, so
 * future chance differs between playouts), then repeats: terminal -> write
 * the returns; chance -> sample_chance() and apply; decision -> apply a
 * uniformly random legal action, drawn from a second RNG seeded from `seed`
 * (kept apart from the states' streams).
 *
 * returns_out: n * g->num_players doubles, row i = returns of playout i.
 * scratch:     room for 2 states (2 * g->state_size bytes). The second slot
 *              holds a private copy of start, so start may point into scratch.
 * Returns the total number of actions applied (chance included), -1 if
 * g->max_legal exceeds BL_PLAYOUT_MAX_LEGAL, or -2 if a non-terminal decision
 * node had no legal action (a kernel bug). Same arguments, same result. */
int64_t bl_random_playouts(const BLGame *g, const void *start, int n, uint64_t seed,
                           double *returns_out, void *scratch);

#endif
