/* Kyushu: the configuration (the parameter vector read into KyuConfig: the
 * options, every card's squares, the lake cells of each card per orientation)
 * and the initial state. */
#include <stdio.h>
#include <string.h>
#include "kyushu.h"

#define CFG(g) ((const KyuConfig *)(g)->config)
#define ST(p) ((KyuState *)(p))

_Static_assert(sizeof(KyuConfig) <= BL_CONFIG_BYTES, "config too large");

int kyushu_configure(BLGame *g, const int32_t *pv, int n, char *err, int errlen) {
    KyuConfig *c = (KyuConfig *)g->config;
    memset(c, 0, sizeof *c);
    const int want = 4 + KY_NCARDS * 6 + KY_NPROV * 2 * 6;
    if (n != want) { snprintf(err, errlen, "kyushu: expected %d kernel parameters, got %d", want, n); return -1; }
    if (pv[0] < 2 || pv[0] > KY_MAXP) { snprintf(err, errlen, "players must be 2 to 5 (got %d)", pv[0]); return -1; }
    if (pv[1] != 0 && pv[1] != 1) { snprintf(err, errlen, "side must be 0 (A) or 1 (B) (got %d)", pv[1]); return -1; }
    if ((pv[2] | pv[3]) & ~1) { snprintf(err, errlen, "most_fewest and travelers must be 0 or 1"); return -1; }
    c->players = pv[0];
    c->side = pv[1];
    c->most_fewest = pv[2];
    c->travelers = pv[3];
    c->boxes = c->players == 2 ? 4 : c->players;
    for (int card = 0; card < KY_NCARDS + KY_NPROV; card++)
        for (int sq = 0; sq < 6; sq++) {
            int v = card < KY_NCARDS ? pv[4 + card * 6 + sq]
                                     : pv[4 + KY_NCARDS * 6 + ((card - KY_NCARDS) * 2 + c->side) * 6 + sq];
            int t = v & 15, fv = v >> 4;
            if (t < 1 || t >= KT_N || (is_fact(t) ? (fv < 2 || fv > 4) : fv != 0)) {
                snprintf(err, errlen, "card %d square %d has an invalid code %d", card + 1, sq, v);
                return -1;
            }
            c->ter[card][sq] = (uint8_t)t;
            c->fv[card][sq] = (uint8_t)fv;
        }
    for (int card = 0; card < KY_NCARDS + KY_NPROV; card++)
        for (int o = 0; o < 4; o++)
            for (int sq = 0; sq < 6; sq++)
                if (c->ter[card][sq] == KT_LAKE) {
                    int i, j, k = c->nlake[card][o]++;
                    orient_cell(o, sq, &i, &j);
                    c->lake_at[card][o][k][0] = (uint8_t)i;
                    c->lake_at[card][o][k][1] = (uint8_t)j;
                }
    g->num_players = c->players;
    g->num_actions = KA_NUM;
    g->max_legal = 512;   /* the largest step: <= 78 covered squares x 6 card positions each */
    g->max_chance = KY_NCARDS;
    g->state_size = sizeof(KyuState);
    return 0;
}

/* ---------- the initial state ---------- */

void kyushu_init(const BLGame *g, void *vst, uint64_t seed) {
    const KyuConfig *c = CFG(g);
    KyuState *s = ST(vst);
    memset(s, 0, sizeof *s);
    bl_rng_seed(&s->rng, seed);
    s->pile = (1ull << KY_NCARDS) - 1;
    for (int k = 0; k < KC_N; k++) s->pool[k] = KY_PER_COLOUR;
    for (int i = 0; i < KY_MAXP + 2; i++) s->box[i] = -1;
    for (int p = 0; p < KY_MAXP; p++) {
        s->selected[p] = s->province[p] = s->mf_card[p] = s->mf_side[p] = -1;
        s->trav_left[p] = (int8_t)(c->travelers ? (c->players == 2 ? 1 : 2) : 0);
        kyu_map_reset(&s->map[p]);
    }
    s->pend_box = s->pend_kind = s->pend_orient = s->pend_layer = -1;
    s->pend_res1 = s->trav_res = -1;
    s->pend_col[0] = s->pend_col[1] = s->pend_tile = -1;
    s->phase = KP_OFFER;
}
