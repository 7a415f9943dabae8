/* Kyushu: scoring a map (hot springs by the forests around them, forests, the largest
 * town area, lakes, fed factories, travelers, Most/Fewest cards and their
 * criteria) and the returns (ranks by total, Fallows breaking ties). */
#include <string.h>
#include "kyushu.h"
#include "../common/bitboard.h"

#define CFG(g) ((const KyuConfig *)(g)->config)
#define CST(p) ((const KyuState *)(p))

typedef struct { int singles, multi, largest, areas; } AreaInfo;

static void flood(const uint32_t *mask, uint32_t *reg, int t0, int t1) {
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int k = 0; k <= t1 - t0; k++) {
                int r = pass == 0 ? t0 + k : t1 - k;
                uint32_t x = reg[r];
                x |= x << 1 | x >> 1;
                if (r > t0) x |= reg[r - 1];
                if (r < t1) x |= reg[r + 1];
                x &= mask[r];
                if (x != reg[r]) { reg[r] = x; changed = 1; }
            }
    }
}

/* Orthogonally connected areas of `mask` within rows t0..t1. */
static void areas(const uint32_t *mask, int t0, int t1, AreaInfo *a) {
    memset(a, 0, sizeof *a);
    if (t1 < t0) return;
    uint32_t rest[KY_N];
    for (int r = t0; r <= t1; r++) {
        rest[r] = mask[r];
        uint32_t nb = mask[r] << 1 | mask[r] >> 1;
        if (r > t0) nb |= mask[r - 1];
        if (r < t1) nb |= mask[r + 1];
        a->singles += bb_popcount32(mask[r] & ~nb);
    }
    for (int r = t0; r <= t1; r++)
        while (rest[r]) {
            uint32_t reg[KY_N] = {0};
            reg[r] = rest[r] & (0u - rest[r]);
            flood(mask, reg, t0, t1);
            int size = 0;
            for (int q = t0; q <= t1; q++) { size += bb_popcount32(reg[q]); rest[q] &= ~reg[q]; }
            a->areas++;
            if (size >= 2) a->multi++;
            if (size > a->largest) a->largest = size;
        }
}

/* Forest squares around (r, c), orthogonal and diagonal. */
static int forests_around(const KyuMap *m, int r, int c) {
    const uint32_t *F = m->ter[KT_FOREST - 1];
    int n = 0;
    for (int dr = -1; dr <= 1; dr++) {
        int q = r + dr;
        if (q < 0 || q >= KY_N) continue;
        uint32_t nb = (F[q] >> c) & 1u;
        if (c > 0) nb += (F[q] >> (c - 1)) & 1u;
        if (c < KY_N - 1) nb += (F[q] >> (c + 1)) & 1u;
        if (dr == 0) nb -= (F[q] >> c) & 1u;
        n += (int)nb;
    }
    return n;
}

static void score_map(const KyuMap *m, KyuScore *sc) {
    memset(sc, 0, sizeof *sc);
    int t0 = m->top, t1 = m->bottom;
    if (t1 < t0) return;
    const uint32_t *F = m->ter[KT_FOREST - 1], *H = m->ter[KT_SPRING - 1], *L = m->ter[KT_LAKE - 1],
                   *T = m->ter[KT_TOWN - 1], *W = m->ter[KT_FALLOW - 1];
    for (int r = t0; r <= t1; r++) {
        if (!H[r]) continue;
        for (int dr = -1; dr <= 1; dr++) {
            int q = r + dr;
            if (q < 0 || q >= KY_N) continue;
            for (int dc = -1; dc <= 1; dc++)
                if (dr || dc) sc->springs += bb_popcount32(H[r] & sh(F[q], dc));
        }
    }
    int nforest = kyu_count_plane(m, F);
    sc->forests = 2 * nforest;
    AreaInfo ai;
    areas(T, t0, t1, &ai);
    sc->towns = ai.largest;
    sc->metric[0][3] = ai.multi;
    sc->metric[1][3] = ai.singles;
    int nlake = kyu_count_plane(m, L);
    areas(L, t0, t1, &ai);
    sc->lakes = 3 * (nlake - ai.areas);
    sc->metric[0][1] = ai.multi;
    sc->metric[1][1] = nlake;
    areas(F, t0, t1, &ai);
    sc->metric[0][0] = sc->metric[1][0] = ai.singles;
    areas(W, t0, t1, &ai);
    sc->fallows = kyu_count_plane(m, W);
    sc->metric[0][2] = ai.largest;
    sc->metric[1][2] = ai.singles;
    /* Factories: colours are independent, so feeding the most valuable
     * squares of each colour first is optimal. */
    uint32_t prod[KY_N] = {0}, fact[KY_N] = {0};
    int fed_total = 0, prod_left = 0;
    for (int k = 0; k < KC_N; k++) {
        const uint32_t *X = m->ter[KT_FACT + k - 1], *P = m->ter[KT_PROD + k - 1];
        int n4 = 0, n3 = 0, nall = 0, have = 0, on_prod = 0;
        for (int r = t0; r <= t1; r++) {
            n4 += bb_popcount32(X[r] & m->fv4[r]);
            n3 += bb_popcount32(X[r] & m->fv3[r]);
            nall += bb_popcount32(X[r]);
            have += bb_popcount32(m->res[k][r]);
            on_prod += bb_popcount32(m->res[k][r] & P[r]);
            prod[r] |= P[r];
            fact[r] |= X[r];
        }
        int n2 = nall - n4 - n3, left = have, use;
        use = left < n4 ? left : n4; sc->factories += 4 * use; left -= use;
        use = left < n3 ? left : n3; sc->factories += 3 * use; left -= use;
        use = left < n2 ? left : n2; sc->factories += 2 * use; left -= use;
        int fed = have - left;
        fed_total += fed;
        /* Feeding from production squares first leaves the fewest there. */
        prod_left += on_prod > fed ? on_prod - fed : 0;
    }
    areas(prod, t0, t1, &ai);
    sc->metric[0][4] = ai.largest;
    sc->metric[1][4] = ai.singles;
    areas(fact, t0, t1, &ai);
    sc->metric[0][5] = ai.largest;
    sc->metric[1][5] = ai.singles;
    sc->metric[0][6] = kyu_count_plane(m, m->tile);
    int hgt = t1 - t0 + 1, wid = m->right - m->left + 1;
    sc->metric[1][6] = hgt > wid ? hgt - wid : wid - hgt;
    sc->metric[0][7] = fed_total;
    sc->metric[1][7] = prod_left;
}

/* Every seat's score on the given maps (a viewer's view or the real ones). */
void kyu_score_all(const KyuConfig *c, const KyuState *s, const KyuMap *const *maps, KyuScore *out) {
    int P = c->players;
    for (int p = 0; p < P; p++) score_map(maps[p], &out[p]);
    for (int i = 0; i < s->n_trav; i++) {
        const KyuTraveler *t = &s->trav[i];
        int r = t->cell / KY_N, col = t->cell % KY_N;
        const KyuMap *h = maps[(int)t->host];
        if (getbit(h->trav, r, col) && getbit(h->ter[KT_SPRING - 1], r, col))
            out[(int)t->owner].travelers += forests_around(h, r, col);
    }
    if (c->most_fewest)
        for (int i = 0; i < P; i++) {
            int k = s->mf_card[i], side = s->mf_side[i];
            if (k < 0) continue;
            int a = i, b = (i + 1) % P;
            int va = out[a].metric[side][k], vb = out[b].metric[side][k];
            if (va == vb) {
                if (side == 1 || va >= 1) { out[a].most_fewest += 1; out[b].most_fewest += 1; }
            } else {
                int win = (side == 0) == (va > vb) ? a : b;
                out[win].most_fewest += 3;
            }
        }
    for (int p = 0; p < P; p++) {
        KyuScore *x = &out[p];
        x->total = x->springs + x->forests + x->towns + x->lakes + x->factories + x->travelers + x->most_fewest;
    }
}

/* ---------- returns ---------- */

void kyushu_returns(const BLGame *g, const void *vst, double *out) {
    const KyuConfig *c = CFG(g);
    const KyuState *s = CST(vst);
    int P = c->players;
    if (s->phase != KP_OVER) { for (int i = 0; i < P; i++) out[i] = 0.0; return; }
    const KyuMap *maps[KY_MAXP];
    KyuScore sc[KY_MAXP];
    real_maps(s, maps);
    kyu_score_all(c, s, maps, sc);
    /* Rank by total, then by visible Fallows (the tie-break); seats still
     * tied share the ranks. Best +1, worst -1, linear in between. */
    for (int i = 0; i < P; i++) {
        long ki = (long)sc[i].total * 64 + sc[i].fallows;
        int better = 0, equal = 0;
        for (int j = 0; j < P; j++) {
            long kj = (long)sc[j].total * 64 + sc[j].fallows;
            if (kj > ki) better++;
            else if (kj == ki && j != i) equal++;
        }
        double rank = better + equal / 2.0;
        out[i] = 1.0 - 2.0 * rank / (P - 1);
    }
}
