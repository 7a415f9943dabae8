/* Kyushu: editing a map square by square, for the scenario tests only
 * (boardlab._kyushu_scenario), and for position.c's tiles and travelers. */
#include <string.h>
#include "kyushu.h"
#include "../common/bitboard.h"

#define CFG(g) ((const KyuConfig *)(g)->config)
#define ST(p) ((KyuState *)(p))

void kyu_debug_clear_map(const BLGame *g, void *vst, int p) {
    KyuState *s = ST(vst);
    (void)g;
    KyuMap *m = &s->map[p];
    for (int k = 0; k < KC_N; k++)
        for (int r = 0; r < KY_N; r++) s->pool[k] += (int8_t)bb_popcount32(m->res[k][r]);
    kyu_map_reset(m);
    if (s->in_map) {   /* as if cleared before the phase */
        memcpy(s->pool_start, s->pool, sizeof s->pool);
        if (s->undo_n[p] == 0) kyu_save_meta(s, p);
    }
}

int kyu_debug_set_cell(const BLGame *g, void *vst, int p, int row, int col, int t, int fv, int res, int tile,
                       int owner) {
    const KyuConfig *c = CFG(g);
    KyuState *s = ST(vst);
    if (p < 0 || p >= c->players || row < 0 || row >= KY_N || col < 0 || col >= KY_N) return -1;
    if (t < 0 || t >= KT_N || res < -1 || res >= KC_N || owner < -1 || owner >= c->players) return -1;
    if (is_fact(t) ? (fv < 2 || fv > 4) : fv != 0) return -1;
    KyuMap *m = &s->map[p];
    int old = cell_res(m, row, col);
    if (old >= 0) s->pool[old]++;
    if (res >= 0) {
        if (s->pool[res] <= 0) return -1;
        s->pool[res]--;
    }
    uint32_t code = t == KT_NONE ? 0
        : (uint32_t)t | (uint32_t)(fv == 3 ? 1 : fv == 4 ? 2 : 0) << 4 | 1u << 6 | (uint32_t)(tile ? 1 : 0) << 7
          | (uint32_t)(res + 1) << 8 | (uint32_t)(owner >= 0 ? 1 : 0) << 11;
    kyu_set_code(m, row, col, code);
    kyu_bbox_recompute(m);
    if (s->in_map) {   /* as if painted before the phase */
        memcpy(s->pool_start, s->pool, sizeof s->pool);
        if (s->undo_n[p] == 0) kyu_save_meta(s, p);
    }
    if (owner >= 0 && s->n_trav < 2 * KY_MAXP) {
        KyuTraveler *tr = &s->trav[s->n_trav++];
        tr->owner = (int8_t)owner; tr->host = (int8_t)p; tr->cell = (int16_t)(row * KY_N + col);
    }
    return 0;
}
