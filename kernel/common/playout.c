/* Random playouts through the game function table (see playout.h). */
#include <string.h>
#include "playout.h"

int64_t bl_random_playouts(const BLGame *g, const void *start, int n, uint64_t seed,
                           double *returns_out, void *scratch) {
    if (g->max_legal > BL_PLAYOUT_MAX_LEGAL) return -1;
    const BLGameVTable *vt = g->vt;
    const size_t size = g->state_size;
    unsigned char *st = (unsigned char *)scratch;
    unsigned char *origin = st + size;
    int32_t legal[BL_PLAYOUT_MAX_LEGAL];
    /* Two streams derived from one seed: `pick` chooses decision actions,
     * `seeds` hands each playout's state a fresh game stream. The odd
     * constant keeps them apart even though both start from `seed`. */
    BLRng pick;
    bl_rng_seed(&pick, seed);
    uint64_t seeds = seed ^ 0xA0761D6478BD642Full;
    int64_t applied = 0;

    memmove(origin, start, size);   /* start may alias scratch */
    for (int i = 0; i < n; i++) {
        memcpy(st, origin, size);
        bl_rng_seed(bl_state_rng(st), bl_splitmix64(&seeds));
        for (;;) {
            int p = vt->current_player(g, st);
            int32_t a;
            if (p == BL_TERMINAL) {
                vt->returns(g, st, returns_out + (size_t)i * (size_t)g->num_players);
                break;
            } else if (p == BL_CHANCE) {
                a = vt->sample_chance(g, st);
            } else {
                int k = vt->legal_actions(g, st, legal);
                if (k <= 0) return -2;  /* kernel bug: stuck decision node */
                a = legal[bl_rng_below(&pick, (uint32_t)k)];
            }
            vt->apply(g, st, a);
            applied++;
        }
    }
    return applied;
}
