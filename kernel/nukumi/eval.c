/* Nukumi: the heuristic the search falls back on (projected points, bag
 * quality, position relative to Nukumaru). */
#include "nukumi.h"
#include "../common/bitboard.h"

/* Points a seat can still expect on top of its current score. */
static double projected(const NkConfig *c, const NkState *s, int p) {
    NkScore sc;
    nk_score(c, s, p, &sc);
    int rounds_left = NK_ROUNDS - s->round;            /* the current one included */
    double v = sc.total;
    /* Every resource drawn in a later round turns into ~2.5 points; gold more. */
    int bag = nk_total(s->bag[p]) + nk_total(s->drawn[p]) + nk_total(s->spent[p]);
    int gold = s->bag[p][R_GOLD] + s->drawn[p][R_GOLD] + s->spent[p][R_GOLD];
    int draw = nk_draw_size(c, s, p);
    double per_round = (draw < bag ? draw : bag) * (3.5 + 1.5 * gold / (double)(bag ? bag : 1));
    v += per_round * (rounds_left - 1);
    v += 1.0 * nk_total(s->drawn[p]);                  /* still to spend this round: a Coin each at worst */
    v += 2.5 * bb_popcount64(s->hand[p]);
    /* Standing where a building can go (the step before most points). */
    int sq = s->pos[p];
    if (!c->sq_ribbon[sq] && !(s->built >> sq & 1) && s->cubes[p] < NK_CUBES) v += 3.0;
    /* Nukumaru: the card (7 + a resource a round) is worth chasing. */
    if (!(s->start_down && s->start_holder == p) && s->nuku >= 0)
        v += 6.0 / (1 + c->dist[(int)s->pos[p]][(int)s->nuku]);
    return v;
}

void nk_evaluate(const BLGame *g, const void *vst, double *out) {
    const NkConfig *c = NK_CFG(g);
    const NkState *s = (const NkState *)vst;
    int P = c->players;
    if (s->phase == NP_OVER) { nk_returns(g, vst, out); return; }
    if (c->solo == SOLO_CHASING) {   /* cubes placed, the next catch's distance, time used */
        double cubes = bb_popcount32(s->nuku_cubes) + 1.0 / (1 + c->dist[(int)s->pos[0]][(int)s->nuku]);
        out[0] = nk_squash(-1.0 + cubes / 2.0 - 0.4 * s->round);
        return;
    }
    double est[NK_MAXP];
    for (int p = 0; p < P; p++) est[p] = projected(c, s, p);
    if (P == 1) { out[0] = nk_solo_value(est[0]); return; }
    for (int p = 0; p < P; p++) {
        double others = 0;
        for (int q = 0; q < P; q++)
            if (q != p) others += est[q];
        out[p] = nk_squash((est[p] - others / (P - 1)) / 25.0);
    }
}
