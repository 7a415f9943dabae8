/* Keyside: returns, chance, determinization, the search heuristic (projected
 * final score) and the function table. */
#include <math.h>
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
 * (the bag's public contents; which seats have set all six dice: the seat
 * setting its dice now starts again, as o cannot tell how far it got, nor
 * whether it used a dice strip). */
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
            if (pl->n_set < KC_N) { memset(pl->die, 0, sizeof pl->die); pl->n_set = 0; continue; }
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
 * ISMCTS/Greedy matches (docs/experiments/, Keyside). */
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

/* The most one keyple can score on scoring tile num (0-based), black or red side. */
static int tile_max(int num, int red) {
    static const int BLACK[KS_NH] = {12, 12, 8, 12, 12, 12, 12, 6, 8, 12, 12, 8};
    static const int RED[KS_NH] = {12, 12, 12, 12, 12, 12, 12, 10, 12, 12, 12, 12};
    return red ? RED[num] : BLACK[num];
}

/* The C beacons' progress, 0..1. Points need both keyples in the harbour and
 * the tile's condition met, so the points alone stay at 0 until both are
 * there; part of the credit goes to each ingredient so the search sees
 * the first steps. C1: two harbours paying 12 a keyple with a keyple (an empty
 * one at 12 counts half; tiles that never pay 12 count nothing); C2-C6: 35 points
 * from the pair (the points, the keyples there and the better tile's value;
 * the keyples weigh most: docs/experiments/2026-12-03-keyside-c-pair-weights.md). */
static double harbour_progress(const KsState *s, const KsScore *sc, int k) {
    const KsPlayer *pl = &s->pl[0];
    if (k == 0) {
        double a = 0, b = 0;
        for (int h = 0; h < KS_NH; h++) {
            int num = s->hscore[h];
            if (num < 0) continue;
            if (tile_max(num, s->hred[h]) < 12) continue;   /* can never pay 12 a keyple */
            int n = pl->kp[KS_H(h)] + (s->red_i == 0 && s->htile[h] == 8);
            double v = sc->per_keyple[num] >= 12 ? 1.0 : sc->per_keyple[num] / 12.0;
            if (n == 0) v *= 0.5;
            if (v > a) { b = a; a = v; } else if (v > b) b = v;
        }
        return (a + b) / 2.0;
    }
    static const int PAIR[6][2] = {{0, 0}, {8, 9}, {1, 2}, {4, 10}, {3, 11}, {7, 12}};
    int pts = 0, keyples = 0;
    double best = 0;
    for (int h = 0; h < KS_NH; h++) {
        int num = s->hscore[h];
        if (num < 0 || (num + 1 != PAIR[k][0] && num + 1 != PAIR[k][1])) continue;
        pts += sc->harbour[num];
        keyples += pl->kp[KS_H(h)] + (s->red_i == 0 && s->htile[h] == 8);
        double v = (double)sc->per_keyple[num] / tile_max(num, s->hred[h]);
        if (v > best) best = v;
    }
    double kq = keyples >= 3 ? 1.0 : keyples / 3.0;
    return 0.5 * (pts >= 35 ? 1.0 : pts / 35.0) + 0.35 * kq + 0.15 * (best > 1 ? 1 : best);
}

static double clamp01(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }
static double sigmoid(double x) { return 0.5 + 0.5 * x / (1.0 + (x < 0 ? -x : x)); }   /* cheap, smooth */

/* Beacon B2 (4 skill tiles of one number) when all 3 beacons must be lit,
 * 0..1: the tiles held of the best number, plus part credit for each colour
 * whose next tile has that number — more where a keyple stands in that
 * colour's market, the tile's way in. Counting the tiles alone left the
 * search without a gradient until the first tile came (B2 lit in 5 of 102
 * games). In the normal game, where B2 is the beacon given up, it gained
 * nothing (45 won of 76 with it, 46 without), so there only the tiles count. */
static double skill_number_progress(const KsState *s, const int held[3]) {
    int market = ks_skill_markets(s, 0);
    double best = 0;
    for (int t = 0; t < 3; t++) {
        int with = 0, without = 0;
        for (int col = 0; col < KC_N; col++) {
            if (s->skill_left[col] <= 0 || 3 - s->skill_left[col] != t) continue;
            if (market >> col & 1) with++; else without++;
        }
        int room = held[t] < 4 ? 4 - held[t] : 0;
        int a = with < room ? with : room, b = without < room - a ? without : room - a;
        double x = held[t] + 0.5 * a + 0.2 * b;
        if (x > best) best = x;
    }
    return best / 4.0;
}

/* Solo: how far the drawn beacon of pile `pile` (kind k) is from lit, 0..1
 * (1 = lit), the same facts ks_beacons() checks, counted as fractions. */
static double beacon_progress(const KsState *s, const KsScore *sc, int pile, int k, int all3) {
    const KsPlayer *pl = &s->pl[0];
    if (pile == 0) {
        int run = 0, best = 0, built = 0, farms = 0, nine = 0, top[3] = {0, 0, 0};
        for (int i = 0; i < 2 * KS_NH; i++) {
            if (s->hl_owner[i % KS_NH] == 0) { run++; if (run > best) best = run; } else run = 0;
        }
        for (int t = 0; t < 3; t++) built += pl->hl_built >> t & 1;
        for (int h = 0; h < KS_NH; h++) {
            int n = pl->kp[KS_H(h)] + (s->red_i == 0 && s->htile[h] == 8);
            nine += n > 0;
            n = n > 3 ? 3 : n;
            if (n > top[2]) { top[2] = n; if (top[2] > top[1]) { int t = top[1]; top[1] = top[2]; top[2] = t; }
                              if (top[1] > top[0]) { int t = top[0]; top[0] = top[1]; top[1] = t; } }
        }
        for (int r = 0; r < KS_NR; r++) farms += s->rl_kind[r] >= 0 && s->rl_kind[r] < KS_NFARM && s->rl_owner[r] == 0;
        switch (k) {
        case 0: return best / 3.0;
        case 1: return built / 2.0;
        case 2: return sc->beach / 12.0;
        case 3: return (top[0] + top[1] + top[2]) / 9.0;
        case 4: return farms / 3.0;
        default: return nine / 9.0;
        }
    }
    if (pile == 1) {
        int same = 0, pv[3] = {0, 0, 0}, lv[3] = {0, 0, 0}, gem = 0, gems = 0;
        for (int col = 0; col < KC_N; col++) {
            int n = pl->skill[col][0] + pl->skill[col][1] + pl->skill[col][2], l = pl->level[col];
            if (n > same) same = n;
            for (int t = 0; t < 3; t++) pv[t] += pl->skill[col][t];
            for (int t = 0; t < 3; t++) if (l > lv[t]) { int x = lv[t]; lv[t] = l; l = x; }
        }
        for (int g = 0; g < 3; g++) { int n = pl->goods[KG_GEM0 + g]; gems += n; if (n > gem) gem = n; }
        int per = pv[0] > pv[1] ? pv[0] : pv[1];
        per = per > pv[2] ? per : pv[2];
        switch (k) {
        case 0: return same / 3.0;
        case 1: return all3 ? skill_number_progress(s, pv) : per / 4.0;
        case 2: return pl->goods[KG_FISH] / 10.0;
        case 3: return (lv[0] + lv[1] + lv[2]) / 12.0;
        case 4: return gem / 4.0;
        default: return gems / 9.0;
        }
    }
    return harbour_progress(s, sc, k);
}

/* Solo leaf value: a win probability, 2P - 1. P = P(120 points) x P(enough
 * beacons): the projected score against 120 on a scale that narrows as the
 * years pass, and each beacon lit with a chance that grows with its progress
 * (a lit beacon counts as nearly sure), combined as independent events.
 * A raw-points value saturated near -1 (most games project 60-100), which
 * left the search nearly blind (docs/experiments/2026-12-01-keyside-solo-leaf-value.md). */
static double solo_value(const KsConfig *c, const KsState *s, double est) {
    double future = s->year >= 3 ? 1.0 : 4.0 - s->year;   /* years still to play, this one included */
    double ps = sigmoid((est - 120.0) / (6.0 + 8.0 * future));
    KsScore sc;
    ks_score(c, s, 0, -1, &sc);
    int lit = ks_beacons(c, s, -1);
    double pb[3];
    for (int pile = 0; pile < 3; pile++) {
        if (s->beacon[pile] < 0) { pb[pile] = 0; continue; }
        if (lit >> pile & 1) { pb[pile] = 0.97; continue; }
        double r = clamp01(beacon_progress(s, &sc, pile, s->beacon[pile], c->solo_opts & 1));
        double base = 0.1 * future;   /* time left to start one from nothing */
        pb[pile] = base + (0.9 - base) * pow(r, 4.0 / future);
    }
    double p2 = pb[0] * pb[1] + pb[0] * pb[2] + pb[1] * pb[2] - 2 * pb[0] * pb[1] * pb[2];
    double pbeacons = (c->solo_opts & 1) ? pb[0] * pb[1] * pb[2] : p2;
    return 2.0 * sqrt(ps * pbeacons) - 1.0;   /* sqrt: spreads the usual small P over [-1, 1] */
}

/* A lost solo game's value to the search, in [-1, -0.5]: -1 plus a quarter of
 * how near it came (the leaf value's 1 + solo_value at the final position).
 * Returns are only won or lost, so once every line within reach lost, the
 * search saw all moves alike and spent what it had lit
 * (docs/experiments/2026-12-02-keyside-graded-losses.md); graded, it keeps the nearer miss. */
static double solo_loss_value(const KsConfig *c, const KsState *s) {
    return -1.0 + 0.25 * (solo_value(c, s, projected(c, s, 0)) + 1.0);
}

/* The heuristic; at the end the returns, except that a lost solo game is
 * graded (solo_loss_value): the search backs up evaluate() at terminal states. */
static void vt_evaluate(const BLGame *g, const void *vst, double *out) {
    const KsConfig *c = KS_CFG(g);
    const KsState *s = CST(vst);
    int P = c->players;
    if (s->phase == KP_OVER) {
        vt_returns(g, vst, out);
        if (c->solo && out[0] < 0) out[0] = solo_loss_value(c, s);
        return;
    }
    double est[KS_MAXP];
    for (int p = 0; p < P; p++) est[p] = projected(c, s, p);
    if (c->solo) { out[0] = solo_value(c, s, est[0]); return; }
    for (int p = 0; p < P; p++) {
        double others = 0;
        for (int q = 0; q < P; q++) if (q != p) others += est[q];
        double d = (est[p] - others / (P - 1)) / 20.0;
        double x = d < -3 ? -3 : d > 3 ? 3 : d;
        out[p] = x * (27 + x * x) / (27 + 9 * x * x);   /* tanh, rational approximation */
    }
}

/* Search rollouts: uniformly random, except at two decisions where a random pick mostly
 * wastes what the rules give, which the engine once took without asking: keyples to the
 * town (the most: never worse, docs/keyside.md "Effects") and the animal a market takes
 * (the barn's, keeping the farms' for black 10 and red 1-3). The tree still tries them all. */
int32_t ks_rollout_action(const BLGame *g, const void *vst, const int32_t *legal, int n, BLRng *rng) {
    const KsState *s = CST(vst);
    (void)g;
    if (s->phase == KP_PLAY && s->ntask) {
        int kind = s->task[s->ntask - 1].kind;
        if (kind == KT_RECRUIT) return legal[n - 1];   /* ascending: pass, 1, 2 keyples */
        if (kind == KT_PAY) return legal[0];           /* the barn (KA_PAYFROM) when it holds one */
    }
    return legal[bl_rng_below(rng, (uint32_t)n)];
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
    ks_position_setup,
    ks_rollout_action,
    ks_feature_size,
    ks_features,
};
