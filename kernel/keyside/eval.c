/* Keyside: returns, chance, determinization, the search heuristic (projected
 * final score) and the function table. */
#include <string.h>
#include "keyside.h"

#define ST(p) ((KsState *)(p))
#define CST(p) ((const KsState *)(p))

int ks_configure_vt(BLGame *g, const int32_t *pv, int n, char *err, int errlen);
void ks_init_vt(const BLGame *g, void *vst, uint64_t seed);

static int vt_current(const BLGame *g, const void *vst) {
    const KsState *s = CST(vst);
    if (s->phase == KP_DICE) return (s->start + s->setter) % KS_CFG(g)->players;
    return ks_current(s);
}

static int vt_legal(const BLGame *g, const void *vst, int32_t *out) { return ks_legal(KS_CFG(g), CST(vst), out); }
static void vt_apply(const BLGame *g, void *vst, int32_t a) { ks_apply(KS_CFG(g), ST(vst), a); }

/* Rank by final score; tied seats share the victory (and the ranks).
 * Best +1, worst -1, linear in between. */
static void rank_values(int P, const double *score, double *out) {
    for (int i = 0; i < P; i++) {
        int better = 0, equal = 0;
        for (int j = 0; j < P; j++) {
            if (score[j] > score[i]) better++;
            else if (score[j] == score[i] && j != i) equal++;
        }
        out[i] = 1.0 - 2.0 * (better + equal / 2.0) / (P - 1);
    }
}

static void vt_returns(const BLGame *g, const void *vst, double *out) {
    const KsConfig *c = KS_CFG(g);
    const KsState *s = CST(vst);
    int P = c->players;
    if (s->phase != KP_OVER) { for (int i = 0; i < P; i++) out[i] = 0.0; return; }
    if (c->solo) { out[0] = ks_solo_won(c, s) ? 1.0 : -1.0; return; }
    double sc[KS_MAXP];
    for (int p = 0; p < P; p++) { KsScore x; ks_score(c, s, p, s->alloc_item, &x); sc[p] = x.total; }
    rank_values(P, sc, out);
}

static int vt_chance(const BLGame *g, const void *vst, int32_t *acts, double *probs) {
    const KsState *s = CST(vst);
    if (ks_chance_task(s)) {
        int n = ks_task_outcomes(KS_CFG(g), s, acts);
        for (int i = 0; i < n; i++) probs[i] = 1.0 / n;
        return n;
    }
    if (s->phase >= KP_DICE) return 0;
    return ks_setup_outcomes(KS_CFG(g), s, acts, probs);
}

static int32_t vt_sample(const BLGame *g, void *vst) {
    KsState *s = ST(vst);
    int32_t acts[96];
    int n = ks_chance_task(s) ? ks_task_outcomes(KS_CFG(g), s, acts) : ks_setup_outcomes(KS_CFG(g), s, acts, NULL);
    return acts[bl_rng_below(&s->rng, (uint32_t)n)];
}

/* What observer o cannot know: the order of the gem bag and, before the
 * reveal, the dice the others have set. Both are resampled from rng alone
 * (the bag's public contents, the public count of dice each seat has set). */
static int vt_determinize(const BLGame *g, void *vst, int o, BLRng *r) {
    const KsConfig *c = KS_CFG(g);
    KsState *s = ST(vst);
    /* Canonical order first (sorted by type), so the result depends only on
     * the bag's contents and rng, never on the true order. */
    int cnt[3] = {0, 0, 0}, k = 0;
    for (int i = 0; i < s->bag_n; i++) cnt[(int)s->bag[i]]++;
    for (int g = 0; g < 3; g++) while (cnt[g]-- > 0) s->bag[k++] = (int8_t)g;
    for (int i = s->bag_n - 1; i > 0; i--) {
        int j = (int)bl_rng_below(r, (uint32_t)(i + 1));
        int8_t t = s->bag[i]; s->bag[i] = s->bag[j]; s->bag[j] = t;
    }
    if (s->phase == KP_DICE && !s->revealed) {
        for (int q = 0; q < c->players; q++) {
            KsPlayer *pl = &s->pl[q];
            if (q == o || pl->n_set == 0) continue;
            int8_t v[6] = {1, 2, 3, 4, 5, 6};
            for (int i = 5; i > 0; i--) {
                int j = (int)bl_rng_below(r, (uint32_t)(i + 1));
                int8_t t = v[i]; v[i] = v[j]; v[j] = t;
            }
            for (int col = 0; col < pl->n_set; col++) pl->die[col] = v[col];
        }
    }
    bl_rng_seed(&s->rng, bl_rng_next(r));
    return 0;                         /* always possible: no constraint to meet */
}

/* Projected final score: the score sheet as it stands (every scoring rule,
 * resources and keyples placed) plus what the position can still turn into:
 * dice still to play, harbours still to resolve for this player, keyples
 * ready to work (town) versus idle (mat), track levels (abilities and future
 * actions) and goods not yet scoring. Weights were set by hand and checked in
 * ISMCTS/Greedy matches (docs/search.md). */
static double projected(const KsConfig *c, const KsState *s, int p) {
    KsScore x;
    ks_score(c, s, p, -1, &x);
    const KsPlayer *pl = &s->pl[p];
    int dice = __builtin_popcount(pl->dice_left), pending = 0, in_harbours = 0;
    for (int h = 0; h < KS_NH; h++) {
        in_harbours += pl->kp[KS_H(h)];
        if (s->sailor[h] >= 0 && !s->resolved[h] && pl->kp[KS_H(h)] > 0) pending++;
    }
    int levels = 0, goods = 0;
    for (int col = 0; col < KC_N; col++) levels += pl->level[col];
    for (int g = 0; g < KG_N; g++) goods += pl->goods[g];
    double years_left = s->year >= 3 ? 0.0 : 3 - s->year;
    double future = years_left + (s->year <= 3 ? 1.0 : 0.0);   /* the rest of this year counts too */
    return x.total + 2.0 * dice + 3.0 * pending
         + future * (0.6 * pl->kp[KS_TOWN] + 0.4 * in_harbours + 0.5 * levels)
         + 0.15 * goods - 0.2 * future * pl->mat;
}

static void vt_evaluate(const BLGame *g, const void *vst, double *out) {
    const KsConfig *c = KS_CFG(g);
    const KsState *s = CST(vst);
    int P = c->players;
    if (s->phase == KP_OVER) { vt_returns(g, vst, out); return; }
    double est[KS_MAXP];
    for (int p = 0; p < P; p++) est[p] = projected(c, s, p);
    if (c->solo) {   /* against the target: 120 points and the beacons */
        int lit = ks_beacons(c, s, -1), n = (lit & 1) + (lit >> 1 & 1) + (lit >> 2 & 1);
        double x = (est[0] - 120.0) / 30.0 + 0.25 * (n - ((c->solo_opts & 1) ? 3 : 2));
        x = x < -3 ? -3 : x > 3 ? 3 : x;
        out[0] = x * (27 + x * x) / (27 + 9 * x * x);
        return;
    }
    for (int p = 0; p < P; p++) {
        double others = 0;
        for (int q = 0; q < P; q++) if (q != p) others += est[q];
        double d = (est[p] - others / (P - 1)) / 20.0;
        double x = d < -3 ? -3 : d > 3 ? 3 : d;
        out[p] = x * (27 + x * x) / (27 + 9 * x * x);   /* tanh, rational approximation */
    }
}

static int vt_text(const BLGame *g, const void *vst, int32_t a, char *buf, int cap) {
    return ks_action_text(KS_CFG(g), CST(vst), a, buf, cap);
}

static int vt_observe(const BLGame *g, const void *vst, int v, char *buf, int cap) {
    return ks_observe(KS_CFG(g), CST(vst), v, buf, cap);
}

const BLGameVTable bl_keyside_vtable = {
    "keyside",
    ks_configure_vt,
    ks_init_vt,
    vt_current,
    vt_legal,
    vt_apply,
    vt_returns,
    vt_chance,
    vt_sample,
    vt_determinize,
    vt_evaluate,
    vt_text,
    vt_observe,
    NULL,   /* no position setup from a seat's knowledge yet */
};
