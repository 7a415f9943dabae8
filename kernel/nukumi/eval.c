/* Nukumi: the heuristic the search falls back on (projected points, bag
 * quality, position relative to Nukumaru). */
#include "nukumi.h"
#include "../common/bitboard.h"

static double binom(int n, int k) {
    if (k < 0 || k > n) return 0;
    if (k > n - k) k = n - k;
    double r = 1;
    for (int i = 1; i <= k; i++) r = r * (n - k + i) / i;
    return r;
}

/* P(at least k of the m fitting resources among d drawn from a bag of n). */
static double draws_at_least(int n, int m, int d, int k) {
    if (d > n) d = n;
    if (m < k || d < k) return 0;
    double miss = 0;
    for (int j = 0; j < k; j++) miss += binom(m, j) * binom(n - m, d - j);
    return 1 - miss / binom(n, d);
}

/* Solo: the points one Construction can expect from a later round's draw —
 * the best building still in supply whose resources the draw holds, each
 * building worth its points less its Coin cost. Only buildings paid with one
 * kind of slot (Palace, Ryokan, Public Bath, Souvenir Shop, Statue) are
 * counted: their chance is one hypergeometric tail. Unlike a value per
 * resource it sees the bag's mix: three gold in a thin bag make a Palace
 * likely, the same gold in a bag full of food do not. */
static double build_potential(const NkConfig *c, const NkState *s, const int *in_bag, int n, int d) {
    double val[NK_NBLD], prob[NK_NBLD];
    int m = 0;
    for (int b = 0; b < NK_NBLD; b++) {
        const NkCost *k = &c->bld_cost[b];
        if (s->bld_left[b] <= 0 || c->bld_fun[b] || k->n < 1) continue;
        int one_kind = 1, fit = 0;
        for (int i = 1; i < k->n; i++) one_kind &= k->mask[i] == k->mask[0];
        if (!one_kind) continue;
        for (int r = 0; r < NK_NRES; r++)
            if (k->mask[0] >> r & 1) fit += in_bag[r];
        double v = c->bld_pts[b] - k->coins;
        int i = m++;
        for (; i > 0 && val[i - 1] < v; i--) { val[i] = val[i - 1]; prob[i] = prob[i - 1]; }
        val[i] = v;
        prob[i] = draws_at_least(n, fit, d, k->n);
    }
    double v = 0, none_better = 1;
    for (int i = 0; i < m; i++) { v += none_better * prob[i] * val[i]; none_better *= 1 - prob[i]; }
    return v;
}

/* Points a seat can still expect on top of its current score. */
static double projected(const NkConfig *c, const NkState *s, int p) {
    NkScore sc;
    nk_score(c, s, p, &sc);
    int rounds_left = NK_ROUNDS - s->round;            /* the current one included */
    double v = sc.total;
    /* Every resource drawn in a later round turns into ~2.5 points; gold more. */
    int owned[NK_NRES], bag = 0;
    for (int r = 0; r < NK_NRES; r++) bag += owned[r] = nk_owned(s, p, r);
    int gold = owned[R_GOLD];
    int draw = nk_draw_size(c, s, p);
    double per_round = (draw < bag ? draw : bag) * (3.5 + 1.5 * gold / (double)(bag ? bag : 1));
    /* Solo: part of that value comes from what the bag can build
     * (measured: docs/experiments/2026-12-03-nukumi-bag-build-potential.md). */
    if (c->players == 1)
        per_round = 0.6 * per_round + 0.7 * build_potential(c, s, owned, bag, draw);
    v += per_round * (rounds_left - 1);
    /* Still to spend this round: a Coin each at worst (sold), a little more while the seat
     * is in the round (an action may still use it; selling can wait for the turn's end);
     * nothing once it has passed. */
    if (!(s->passed >> p & 1)) v += 1.1 * nk_total(s->drawn[p]);
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
