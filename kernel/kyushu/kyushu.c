/* Kyūshū rules kernel. See kyushu.h for the action space and state layout,
 * docs/kyushu.md for the rules as implemented and the choices made. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "kyushu.h"
#include "../common/bitboard.h"
#include "../common/jsonw.h"

#define CFG(g) ((const KyuConfig *)(g)->config)
#define ST(p) ((KyuState *)(p))
#define CST(p) ((const KyuState *)(p))

/* The map's uint32 planes are contiguous: occ, ter[13], fv3, fv4, res[4], tile, trav. */
#define KY_ALLPLANES (1 + KY_NPLANES + 2 + KC_N + 2)
_Static_assert(offsetof(KyuMap, top) == KY_ALLPLANES * KY_N * sizeof(uint32_t), "map planes must be contiguous");
_Static_assert(sizeof(KyuConfig) <= BL_CONFIG_BYTES, "config too large");

static const char *const COLOUR_NAME[KC_N] = {"blue", "brown", "grey", "purple"};
static const char *const TER_NAME[KT_N] = {"none", "lake", "forest", "town", "hot_spring", "fallow",
                                           "production", "production", "production", "production",
                                           "factory", "factory", "factory", "factory"};
static const char *const ORIENT_NAME[4] = {"horizontal", "vertical", "horizontal turned", "vertical turned"};
static const char *const LAYER_NAME[2] = {"over", "under"};
static const int OW[4] = {3, 2, 3, 2}, OH[4] = {2, 3, 2, 3};
/* Tile terrain chosen by a discarded colour: blue lake, brown town, grey forest, purple hot spring. */
static const int TILE_OF[KC_N] = {KT_LAKE, KT_TOWN, KT_FOREST, KT_SPRING};

/* ---------- small helpers ---------- */

static inline uint32_t sh(uint32_t x, int d) { return d > 0 ? x >> d : d < 0 ? x << -d : x; }
static inline int getbit(const uint32_t *pl, int r, int c) { return (int)((pl[r] >> c) & 1u); }
static inline void setbit(uint32_t *pl, int r, int c) { pl[r] |= 1u << c; }
static inline void clrbit(uint32_t *pl, int r, int c) { pl[r] &= ~(1u << c); }
static inline int is_prod(int t) { return t >= KT_PROD && t < KT_PROD + KC_N; }
static inline int is_fact(int t) { return t >= KT_FACT && t < KT_FACT + KC_N; }
static inline int left_seat(const KyuConfig *c, int p) { return (p + 1) % c->players; }
static inline int right_seat(const KyuConfig *c, int p) { return (p + c->players - 1) % c->players; }
/* Pick box to a seat's left / right (2p: the middle boxes). */
static inline int left_box(const KyuConfig *c, int p) { return c->players == 2 ? (p == 0 ? 2 : 3) : left_seat(c, p); }
static inline int right_box(const KyuConfig *c, int p) { return c->players == 2 ? (p == 0 ? 3 : 2) : right_seat(c, p); }

/* Cell (i, j) of the oriented card holding printed square sq (2 rows x 3 columns). */
static inline void orient_cell(int o, int sq, int *i, int *j) {
    int pr = sq / 3, pc = sq % 3;
    switch (o) {
    case 0: *i = pr; *j = pc; break;
    case 1: *i = pc; *j = 1 - pr; break;        /* a quarter turn clockwise */
    case 2: *i = 1 - pr; *j = 2 - pc; break;    /* half turn */
    default: *i = 2 - pc; *j = pr; break;       /* three quarter turns */
    }
}

static int cell_name(int cell, char *buf) {
    int r = cell / KY_N, col = cell % KY_N, n = 0;
    if (col >= 26) buf[n++] = 'a';
    buf[n++] = (char)('a' + col % 26);
    return n + sprintf(buf + n, "%d", r + 1);
}

/* ---------- map cells ---------- */

/* Contents of one cell, packed: terrain (4 bits) | fv class (2: 0 = 2, 1 = 3,
 * 2 = 4) << 4 | occ << 6 | tile << 7 | (resource colour + 1) << 8 | traveler << 11. */
static uint32_t get_code(const KyuMap *m, int r, int c) {
    if (!getbit(m->occ, r, c)) return 0;
    uint32_t code = 1u << 6;
    for (int t = 1; t < KT_N; t++)
        if (getbit(m->ter[t - 1], r, c)) { code |= (uint32_t)t; break; }
    if (getbit(m->fv3, r, c)) code |= 1u << 4;
    if (getbit(m->fv4, r, c)) code |= 2u << 4;
    if (getbit(m->tile, r, c)) code |= 1u << 7;
    for (int k = 0; k < KC_N; k++)
        if (getbit(m->res[k], r, c)) { code |= (uint32_t)(k + 1) << 8; break; }
    if (getbit(m->trav, r, c)) code |= 1u << 11;
    return code;
}

static void set_code(KyuMap *m, int r, int c, uint32_t code) {
    uint32_t *pl = m->occ;
    for (int k = 0; k < KY_ALLPLANES; k++) clrbit(pl + k * KY_N, r, c);
    if (!(code >> 6 & 1)) return;
    setbit(m->occ, r, c);
    int t = code & 15, fvc = code >> 4 & 3, res = (int)(code >> 8 & 7) - 1;
    if (t) setbit(m->ter[t - 1], r, c);
    if (fvc == 1) setbit(m->fv3, r, c);
    if (fvc == 2) setbit(m->fv4, r, c);
    if (code >> 7 & 1) setbit(m->tile, r, c);
    if (res >= 0) setbit(m->res[res], r, c);
    if (code >> 11 & 1) setbit(m->trav, r, c);
}

static inline int cell_res(const KyuMap *m, int r, int c) {
    for (int k = 0; k < KC_N; k++)
        if (getbit(m->res[k], r, c)) return k;
    return -1;
}

static void map_reset(KyuMap *m) {
    memset(m, 0, sizeof *m);
    m->top = m->left = KY_N;
    m->bottom = m->right = -1;
}

static void bbox_add(KyuMap *m, int r, int c) {
    if (r < m->top) m->top = (int8_t)r;
    if (r > m->bottom) m->bottom = (int8_t)r;
    if (c < m->left) m->left = (int8_t)c;
    if (c > m->right) m->right = (int8_t)c;
}

static void bbox_recompute(KyuMap *m) {
    m->top = m->left = KY_N;
    m->bottom = m->right = -1;
    for (int r = 0; r < KY_N; r++) {
        uint32_t x = m->occ[r];
        if (!x) continue;
        if (r < m->top) m->top = (int8_t)r;
        m->bottom = (int8_t)r;
        int lo = bb_lsb32(x), hi = 31 - __builtin_clz(x);
        if (lo < m->left) m->left = (int8_t)lo;
        if (hi > m->right) m->right = (int8_t)hi;
    }
}

static inline uint32_t any_res_row(const KyuMap *m, int r) {
    return m->res[0][r] | m->res[1][r] | m->res[2][r] | m->res[3][r];
}

static int count_res(const KyuMap *m) {
    int n = 0;
    for (int r = m->top; r <= m->bottom; r++) n += bb_popcount32(any_res_row(m, r));
    return n;
}

static int count_plane(const KyuMap *m, const uint32_t *pl) {
    int n = 0;
    for (int r = m->top; r <= m->bottom; r++) n += bb_popcount32(pl[r]);
    return n;
}

/* Cells of a plane within the map, ascending, as actions. */
static int cells_of(const KyuMap *m, const uint32_t *pl, int32_t *out) {
    int n = 0;
    for (int r = m->top; r <= m->bottom; r++)
        for (uint32_t x = pl[r]; x;) out[n++] = KA_CELL + r * KY_N + bb_pop_lsb32(&x);
    return n;
}

static int res_cells(const KyuMap *m, int32_t *out) {
    uint32_t rows[KY_N] = {0};
    for (int r = m->top; r <= m->bottom; r++) rows[r] = any_res_row(m, r);
    return cells_of(m, rows, out);
}

/* Visible hot springs a traveler may stand on: no resource, no traveler. */
static void free_springs(const KyuMap *m, uint32_t *rows) {
    memset(rows, 0, KY_N * sizeof(uint32_t));
    for (int r = m->top; r <= m->bottom; r++)
        rows[r] = m->ter[KT_SPRING - 1][r] & ~any_res_row(m, r) & ~m->trav[r];
}

/* ---------- hidden Map turns: the undo log ---------- */

static void push_undo(KyuState *s, int p, int r, int c) {
    if (s->undo_n[p] >= KY_UNDO) return;   /* cannot happen: a turn edits at most 9 cells */
    s->undo[p][s->undo_n[p]++] = (uint32_t)(r * KY_N + c) | get_code(&s->map[p], r, c) << 10;
}

static void save_meta(KyuState *s, int p) {
    const KyuMap *m = &s->map[p];
    KyuMeta *x = &s->meta[p];
    x->top = m->top; x->bottom = m->bottom; x->left = m->left; x->right = m->right;
    x->n_cards = m->n_cards; x->zmin = m->zmin; x->zmax = m->zmax;
}

/* Undo seat p's hidden turn on map m (a copy or the real one). */
static void revert_map(const KyuState *s, int p, KyuMap *m) {
    for (int k = s->undo_n[p] - 1; k >= 0; k--) {
        uint32_t e = s->undo[p][k];
        int cell = (int)(e & 1023);
        set_code(m, cell / KY_N, cell % KY_N, e >> 10);
    }
    const KyuMeta *x = &s->meta[p];
    m->top = x->top; m->bottom = x->bottom; m->left = x->left; m->right = x->right;
    m->n_cards = x->n_cards; m->zmin = x->zmin; m->zmax = x->zmax;
    memset(&m->placed[m->n_cards], 0, (KY_MAPCARDS - m->n_cards) * sizeof m->placed[0]);
}

/* True when seat p's map has changes that `viewer` must not see yet. */
static inline int hidden_from(const KyuState *s, int p, int viewer) {
    return viewer >= 0 && viewer != p && s->in_map && s->undo_n[p] > 0;
}

/* The pool during a Map phase. Turns are simultaneous in the rulebook and
 * modelled as hidden turns in seat order, so a turn must not see what earlier
 * turns took: each seat takes from (and returns to) the pool as it was when the
 * phase began, changed by its own turn only (delta). The real pool is settled
 * at the reveal (settle_pool). Outside a Map phase the pool is used directly. */
static inline int pool_avail(const KyuState *s, int p, int k) {
    return s->in_map ? s->pool_start[k] - s->delta[p][k] : s->pool[k];
}
static inline void pool_take(KyuState *s, int p, int k) {
    if (s->in_map) s->delta[p][k]++; else s->pool[k]--;
}
static inline void pool_return(KyuState *s, int p, int k) {
    if (s->in_map) s->delta[p][k]--; else s->pool[k]++;
}

/* ---------- placement ---------- */

/* Legal top-left positions of `card` in orientation o and layer (0 over,
 * 1 under) on map m, as a bit per column in pos[row]. Bitboard tests only:
 *   over:  the card covers some card and no lake square;
 *   under: it slides under some card, keeps a square in the open, and none
 *          of its own lake squares goes under a card. */
static int positions(const KyuConfig *c, const KyuMap *m, int card, int o, int layer, uint32_t *pos) {
    const int w = OW[o], h = OH[o];
    const uint32_t vc = (w == 3) ? 0x3FFFFFFFu : 0x7FFFFFFFu;   /* columns 0 .. 32-w */
    const uint32_t *lake = m->ter[KT_LAKE - 1];
    memset(pos, 0, KY_N * sizeof(uint32_t));
    if (m->bottom < 0) return 0;
    int r0 = m->top - h + 1, r1 = m->bottom, n = 0;
    if (r0 < 0) r0 = 0;
    if (r1 > KY_N - h) r1 = KY_N - h;
    for (int R = r0; R <= r1; R++) {
        uint32_t any = 0, bad = 0, open = 0, ok = vc;
        for (int i = 0; i < h; i++) {
            uint32_t occ = m->occ[R + i];
            uint32_t win = occ | occ >> 1 | (w == 3 ? occ >> 2 : 0);
            any |= win;
            if (layer == 0) {
                uint32_t l = lake[R + i];
                bad |= l | l >> 1 | (w == 3 ? l >> 2 : 0);
            } else {
                uint32_t e = ~occ;
                open |= e | e >> 1 | (w == 3 ? e >> 2 : 0);
            }
        }
        if (layer == 0) {
            ok &= any & ~bad;
        } else {
            ok &= any & open;
            for (int k = 0; k < c->nlake[card][o]; k++)
                ok &= ~(m->occ[R + c->lake_at[card][o][k][0]] >> c->lake_at[card][o][k][1]);
        }
        pos[R] = ok;
        n += bb_popcount32(ok);
    }
    return n;
}

/* Put `card` on seat p's map. `log`: record the cells for the hidden turn. */
static void place_card(const KyuConfig *c, KyuState *s, int p, int card, int o, int R, int C, int layer, int log) {
    KyuMap *m = &s->map[p];
    int z;
    if (m->n_cards == 0) z = m->zmin = m->zmax = 0;
    else if (layer == 0) z = ++m->zmax;
    else z = --m->zmin;
    int newprod[6], np = 0;
    for (int sq = 0; sq < 6; sq++) {
        int i, j;
        orient_cell(o, sq, &i, &j);
        int r = R + i, col = C + j;
        if (layer == 1 && getbit(m->occ, r, col)) continue;   /* stays hidden under the map */
        if (log) push_undo(s, p, r, col);
        int old = cell_res(m, r, col);
        if (old >= 0) pool_return(s, p, old);   /* covered: back to the pool */
        int t = c->ter[card][sq], fv = c->fv[card][sq];
        set_code(m, r, col, (uint32_t)t | (uint32_t)(fv == 3 ? 1 : fv == 4 ? 2 : 0) << 4 | 1u << 6);
        bbox_add(m, r, col);
        if (is_prod(t)) newprod[np++] = r * KY_N + col;
    }
    /* New production squares take resources while the pool (as p sees it) lasts. */
    for (int k = 0; k < np; k++) {
        int r = newprod[k] / KY_N, col = newprod[k] % KY_N;
        int colour = (int)(get_code(m, r, col) & 15) - KT_PROD;
        if (pool_avail(s, p, colour) > 0) {
            pool_take(s, p, colour);
            setbit(m->res[colour], r, col);
        }
    }
    if (m->n_cards < KY_MAPCARDS) {
        KyuPlaced *pl = &m->placed[m->n_cards++];
        pl->card = (int8_t)card; pl->orient = (int8_t)o; pl->row = (int8_t)R; pl->col = (int8_t)C; pl->z = (int8_t)z;
    }
}

/* Move the map to the middle of the grid if the next card might not fit. */
static void recentre(KyuState *s, int p) {
    KyuMap *m = &s->map[p];
    if (m->bottom < 0) return;
    if (m->top >= 2 && m->left >= 2 && m->bottom <= KY_N - 3 && m->right <= KY_N - 3) return;
    int h = m->bottom - m->top + 1, w = m->right - m->left + 1;
    int dr = (KY_N - h) / 2 - m->top, dc = (KY_N - w) / 2 - m->left;
    uint32_t *pl = m->occ;
    for (int k = 0; k < KY_ALLPLANES; k++) {
        uint32_t tmp[KY_N] = {0}, *x = pl + k * KY_N;
        for (int r = 0; r < KY_N; r++)
            if (r + dr >= 0 && r + dr < KY_N) tmp[r + dr] = sh(x[r], -dc);
        memcpy(x, tmp, sizeof tmp);
    }
    m->top += dr; m->bottom += dr; m->left += dc; m->right += dc;
    for (int i = 0; i < m->n_cards; i++) { m->placed[i].row += dr; m->placed[i].col += dc; }
    for (int i = 0; i < s->n_trav; i++)
        if (s->trav[i].host == p) s->trav[i].cell = (int16_t)(s->trav[i].cell + dr * KY_N + dc);
}

/* ---------- scoring ---------- */

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

typedef struct {
    int springs, forests, towns, lakes, factories, travelers, most_fewest, total, fallows;
    int metric[2][KY_NMF];   /* [0] Most criterion, [1] Fewest criterion, per card */
} KyuScore;

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
    int nforest = count_plane(m, F);
    sc->forests = 2 * nforest;
    AreaInfo ai;
    areas(T, t0, t1, &ai);
    sc->towns = ai.largest;
    sc->metric[0][3] = ai.multi;
    sc->metric[1][3] = ai.singles;
    int nlake = count_plane(m, L);
    areas(L, t0, t1, &ai);
    sc->lakes = 3 * (nlake - ai.areas);
    sc->metric[0][1] = ai.multi;
    sc->metric[1][1] = nlake;
    areas(F, t0, t1, &ai);
    sc->metric[0][0] = sc->metric[1][0] = ai.singles;
    areas(W, t0, t1, &ai);
    sc->fallows = count_plane(m, W);
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
    sc->metric[0][6] = count_plane(m, m->tile);
    int hgt = t1 - t0 + 1, wid = m->right - m->left + 1;
    sc->metric[1][6] = hgt > wid ? hgt - wid : wid - hgt;
    sc->metric[0][7] = fed_total;
    sc->metric[1][7] = prod_left;
}

/* Every seat's score on the given maps (a viewer's view or the real ones). */
static void score_all(const KyuConfig *c, const KyuState *s, const KyuMap *const *maps, KyuScore *out) {
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

static void real_maps(const KyuState *s, const KyuMap **maps) {
    for (int p = 0; p < KY_MAXP; p++) maps[p] = &s->map[p];
}

/* ---------- configuration ---------- */

static int kyushu_configure(BLGame *g, const int32_t *pv, int n, char *err, int errlen) {
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

/* ---------- flow ---------- */

static void begin_round(const KyuConfig *c, KyuState *s);
static void start_map_turn(const KyuConfig *c, KyuState *s);
static void kyu_next_trav(const KyuConfig *c, KyuState *s);

static void start_deal(const KyuConfig *c, KyuState *s, int kind) {
    s->deal_kind = (int8_t)kind;
    s->deal_to = 0;
    s->deal_left = (int8_t)((kind == 1 || kind == 3) ? 2 : 6 * c->players);
    s->phase = KP_DEAL;
}

static void kyushu_init(const BLGame *g, void *vst, uint64_t seed) {
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
        map_reset(&s->map[p]);
    }
    s->pend_box = s->pend_kind = s->pend_orient = s->pend_layer = -1;
    s->pend_res1 = s->trav_res = -1;
    s->pend_col[0] = s->pend_col[1] = s->pend_tile = -1;
    s->phase = KP_OFFER;
}

static int kyushu_current_player(const BLGame *g, const void *vst) {
    const KyuState *s = CST(vst);
    (void)g;
    switch (s->phase) {
    case KP_OFFER: case KP_MF: case KP_DEAL: return BL_CHANCE;
    case KP_OVER: return BL_TERMINAL;
    default: return s->to_move;
    }
}

static int hands_empty(const KyuConfig *c, const KyuState *s) {
    for (int p = 0; p < c->players; p++)
        if (s->hand[p]) return 0;
    return 1;
}

static int can_terraform(const KyuState *s, int p) {
    const KyuMap *m = &s->map[p];
    return !(s->tf_used >> p & 1) && count_res(m) >= 2 && count_plane(m, m->ter[KT_FALLOW - 1]) >= 1;
}

/* Orientation/layer choices with at least one legal position (bit 2*o+layer). */
static int orient_options(const KyuConfig *c, const KyuState *s, int p) {
    int card = s->selected[p], mask = 0;
    uint32_t pos[KY_N];
    if (card < 0) return 0;
    for (int k = 0; k < 8; k++)
        if (positions(c, &s->map[p], card, k >> 1, k & 1, pos)) mask |= 1 << k;
    return mask;
}

/* The settled pool of colour k: the phase's start plus what every seat
 * returned, minus what the claims took (see settle_pool). */
static int settled_pool(const KyuConfig *c, const KyuState *s, int k) {
    int n = s->pool_start[k];
    for (int p = 0; p < c->players; p++) n -= s->delta[p][k];
    return n > 0 ? n : 0;
}

/* Resources of colour k on the maps that the reveal will take back (the
 * seats together took more than the pool held). */
static int overdrawn(const KyuConfig *c, const KyuState *s, int k) {
    int n = -s->pool_start[k];
    for (int p = 0; p < c->players; p++) n += s->delta[p][k];
    return n > 0 ? n : 0;
}

/* The reveal: seats that together took more resources of a colour than the
 * pool held (each saw the pool as the phase began) are served in seat order
 * from the round's first seat for settlement, seat (round - 1) mod players;
 * a seat not served loses the resources it got this turn, from its last
 * squares in reading order (row, then column) first. */
static void settle_pool(const KyuConfig *c, KyuState *s) {
    int P = c->players, first = (s->round - 1 + P) % P;
    for (int k = 0; k < KC_N; k++) {
        int avail = s->pool_start[k];
        for (int p = 0; p < P; p++)
            if (s->delta[p][k] < 0) avail -= s->delta[p][k];
        for (int i = 0; i < P; i++) {
            int p = (first + i) % P, want = s->delta[p][k];
            if (want <= 0) continue;
            int keep = want < avail ? want : avail;
            avail -= keep;
            /* The resources p got this turn lie on squares of its undo log. */
            KyuMap *m = &s->map[p];
            for (int lose = want - keep; lose > 0; lose--) {
                int best = -1;
                for (int e = 0; e < s->undo_n[p]; e++) {
                    int cell = (int)(s->undo[p][e] & 1023);
                    if (cell > best && getbit(m->res[k], cell / KY_N, cell % KY_N)) best = cell;
                }
                if (best < 0) break;   /* cannot happen: p holds what it took */
                clrbit(m->res[k], best / KY_N, best % KY_N);
            }
        }
        s->pool[k] = (int8_t)avail;
    }
}

static void reveal(const KyuConfig *c, KyuState *s) {
    settle_pool(c, s);
    for (int p = 0; p < c->players; p++) { s->selected[p] = -1; s->undo_n[p] = 0; }
    memset(s->delta, 0, sizeof s->delta);
    s->placed_now = s->tf_used = 0;
    s->in_map = 0;
}

static void start_first_boxes(const KyuConfig *c, KyuState *s) {
    s->steps = 0;
    s->to_move = (int8_t)(c->players - 1);
    s->phase = KP_FIRST_BOX;
}

static void after_round_six(const KyuConfig *c, KyuState *s) {
    start_deal(c, s, 2);
}

static void end_round(const KyuConfig *c, KyuState *s) {
    reveal(c, s);
    if (s->round == 12) { s->phase = KP_OVER; return; }
    if (s->round == 6) {
        if (c->travelers) {
            s->steps = 0;
            s->trav_side = -1;
            kyu_next_trav(c, s);
        } else {
            after_round_six(c, s);
        }
        return;
    }
    s->round++;
    begin_round(c, s);
}

static void end_map_turn(const KyuConfig *c, KyuState *s) {
    s->steps++;
    if (s->steps >= c->players) { end_round(c, s); return; }
    s->to_move = (int8_t)((s->to_move + 1) % c->players);
    start_map_turn(c, s);
}

static void start_map_turn(const KyuConfig *c, KyuState *s) {
    int p = s->to_move;
    save_meta(s, p);
    s->undo_n[p] = 0;
    s->phase = KP_MAP;
    if (!orient_options(c, s, p) && !can_terraform(s, p)) end_map_turn(c, s);  /* safety valve */
}

static void begin_map(const KyuConfig *c, KyuState *s) {
    for (int p = 0; p < c->players; p++) recentre(s, p);
    memcpy(s->pool_start, s->pool, sizeof s->pool);
    memset(s->delta, 0, sizeof s->delta);
    s->tf_used = s->placed_now = 0;
    s->in_map = 1;
    s->steps = 0;
    s->to_move = 0;
    start_map_turn(c, s);
}

static void begin_round(const KyuConfig *c, KyuState *s) {
    if (hands_empty(c, s)) {
        /* The last round of each hand: everybody takes their own pick box. */
        for (int p = 0; p < c->players; p++) { s->selected[p] = s->box[p]; s->box[p] = -1; }
        begin_map(c, s);
        return;
    }
    s->steps = 0;
    s->to_move = 0;
    s->phase = KP_SELECT;
}

static void after_selection(const KyuConfig *c, KyuState *s) {
    s->steps++;
    s->pend_box = s->pend_kind = -1;
    if (s->steps >= c->players) { begin_map(c, s); return; }
    s->to_move = (int8_t)((s->to_move + 1) % c->players);
    s->phase = KP_SELECT;
}

/* After placing or terraforming: what remains of the Map turn. */
static void continue_map_turn(const KyuConfig *c, KyuState *s) {
    int p = s->to_move;
    if (s->placed_now >> p & 1) {
        if (can_terraform(s, p)) s->phase = KP_MAP_AFTER;
        else end_map_turn(c, s);
    } else {
        s->phase = KP_MAP;
        if (!orient_options(c, s, p)) end_map_turn(c, s);   /* safety valve */
    }
}

/* Host of the traveler of the seat at traveler step `steps`, side `side`. */
static int trav_host(const KyuConfig *c, int p, int side) {
    return side == 0 ? left_seat(c, p) : right_seat(c, p);
}

/* Find the next seat/side that can send a traveler; else the new hands. */
static void kyu_next_trav(const KyuConfig *c, KyuState *s) {
    int sides = c->players == 2 ? 1 : 2;
    for (;;) {
        /* advance (steps, side) */
        s->trav_side++;
        if (s->trav_side >= sides) { s->trav_side = 0; s->steps++; }
        if (s->steps >= c->players) { after_round_six(c, s); return; }
        int p = c->players - 1 - s->steps, h = trav_host(c, p, s->trav_side);
        if (s->trav_left[p] <= 0 || count_res(&s->map[p]) == 0) continue;
        uint32_t fr[KY_N];
        free_springs(&s->map[h], fr);
        int any = 0;
        for (int r = 0; r < KY_N; r++) any |= fr[r] != 0;
        if (!any) continue;
        s->to_move = (int8_t)p;
        s->phase = KP_TRAV_RES;
        return;
    }
}

/* ---------- legal actions ---------- */

static int kyushu_legal_actions(const BLGame *g, const void *vst, int32_t *out) {
    const KyuConfig *c = CFG(g);
    const KyuState *s = CST(vst);
    int n = 0, p = s->to_move;
    switch (s->phase) {
    case KP_OFFER:
        for (int k = 0; k < KY_NPROV; k++)
            if (!(s->offered >> k & 1)) out[n++] = KA_OFFER + k;
        break;
    case KP_MF:
        for (int k = 0; k < KY_NMF; k++)
            if (!(s->mf_used >> k & 1)) { out[n++] = KA_MF + 2 * k; out[n++] = KA_MF + 2 * k + 1; }
        break;
    case KP_DEAL:
        for (uint64_t x = s->pile; x;) out[n++] = KA_DEAL + bb_pop_lsb64(&x);
        break;
    case KP_PROVINCE:
        for (int k = 0; k < KY_NPROV; k++)
            if (s->offered >> k & 1) out[n++] = KA_PROVINCE + k;
        break;
    case KP_FIRST_BOX:
        for (uint64_t x = s->hand[p]; x;) out[n++] = KA_CARD + bb_pop_lsb64(&x);
        break;
    case KP_SELECT: {
        uint64_t h = s->hand[p];
        int lb = left_box(c, p), rb = right_box(c, p);
        for (int b = 0; b < c->boxes; b++) {
            int card = s->box[b];
            if (card < 0) continue;
            int ok = b == p
                  || (b == lb && (h >> card >> 1) != 0)
                  || (b == rb && (h & ((1ull << card) - 1)) != 0);
            if (ok) out[n++] = KA_BOX + b;
        }
        if (count_res(&s->map[p]) > 0)
            for (int b = 0; b < c->boxes; b++)
                if (s->box[b] >= 0) out[n++] = KA_PAID + b;
        break;
    }
    case KP_PAY: case KP_TF_RES1: case KP_TF_RES2: {
        n = res_cells(&s->map[p], out);
        if (s->phase == KP_TF_RES2) {   /* not the square just discarded */
            int k = 0;
            for (int i = 0; i < n; i++)
                if (out[i] != KA_CELL + s->pend_res1) out[k++] = out[i];
            n = k;
        }
        break;
    }
    case KP_REPLACE: {
        int taken = s->box[(int)s->pend_box];
        for (uint64_t x = s->hand[p]; x;) {
            int id = bb_pop_lsb64(&x);
            if ((s->pend_kind == 1 && id <= taken) || (s->pend_kind == 2 && id >= taken)) continue;
            out[n++] = KA_CARD + id;
        }
        break;
    }
    case KP_MAP: {
        int mask = orient_options(c, s, p);
        for (int k = 0; k < 8; k++)
            if (mask >> k & 1) out[n++] = KA_ORIENT + k;
        if (can_terraform(s, p)) out[n++] = KA_TERRAFORM;
        break;
    }
    case KP_POS: {
        uint32_t pos[KY_N];
        positions(c, &s->map[p], s->selected[p], s->pend_orient, s->pend_layer, pos);
        for (int r = 0; r < KY_N; r++)
            for (uint32_t x = pos[r]; x;) out[n++] = KA_CELL + r * KY_N + bb_pop_lsb32(&x);
        break;
    }
    case KP_TF_COLOUR:
        if (s->pend_col[0] < s->pend_col[1]) { out[n++] = KA_COLOUR + s->pend_col[0]; out[n++] = KA_COLOUR + s->pend_col[1]; }
        else { out[n++] = KA_COLOUR + s->pend_col[1]; out[n++] = KA_COLOUR + s->pend_col[0]; }
        break;
    case KP_TF_FALLOW:
        n = cells_of(&s->map[p], s->map[p].ter[KT_FALLOW - 1], out);
        break;
    case KP_MAP_AFTER:
        out[n++] = KA_TERRAFORM;
        out[n++] = KA_END;
        break;
    case KP_TRAV_RES:
        n = res_cells(&s->map[p], out);
        out[n++] = KA_END;
        break;
    case KP_TRAV_SPRING: {
        const KyuMap *h = &s->map[trav_host(c, p, s->trav_side)];
        uint32_t fr[KY_N];
        free_springs(h, fr);
        n = cells_of(h, fr, out);
        break;
    }
    default: break;
    }
    return n;
}

/* ---------- apply ---------- */

static void deal_one(const KyuConfig *c, KyuState *s, int id) {
    s->pile &= ~(1ull << id);
    if (s->deal_kind == 1 || s->deal_kind == 3) {
        /* First drawn: to the right of the first player; second: to the left. */
        s->box[s->deal_left == 2 ? 3 : 2] = (int8_t)id;
    } else {
        s->hand[(int)s->deal_to] |= 1ull << id;
        s->deal_to = (int8_t)((s->deal_to + 1) % c->players);
    }
    if (--s->deal_left > 0 && s->pile) return;
    switch (s->deal_kind) {
    case 0:   /* Starting Province selection, from the first player's right */
        s->steps = 0;
        s->to_move = (int8_t)(c->players - 1);
        s->phase = KP_PROVINCE;
        return;
    case 1:
        s->round = 1;
        begin_round(c, s);
        return;
    case 2:
        if (c->players == 2) {
            s->discarded |= 1ull << s->box[2] | 1ull << s->box[3];
            s->box[2] = s->box[3] = -1;
            start_deal(c, s, 3);
            return;
        }
        start_first_boxes(c, s);
        return;
    default:
        start_first_boxes(c, s);
        return;
    }
}

static void kyushu_apply(const BLGame *g, void *vst, int32_t a) {
    const KyuConfig *c = CFG(g);
    KyuState *s = ST(vst);
    int p = s->to_move;
    switch (s->phase) {
    case KP_OFFER:
        s->offered |= (uint8_t)(1u << (a - KA_OFFER));
        if (++s->offered_n < c->players) return;
        if (c->most_fewest) { s->steps = 0; s->phase = KP_MF; return; }
        start_deal(c, s, 0);
        return;
    case KP_MF: {
        int k = (a - KA_MF) >> 1;
        s->mf_used |= (uint8_t)(1u << k);
        s->mf_card[(int)s->steps] = (int8_t)k;
        s->mf_side[(int)s->steps] = (int8_t)((a - KA_MF) & 1);
        if (++s->steps < c->players) return;
        start_deal(c, s, 0);
        return;
    }
    case KP_DEAL:
        deal_one(c, s, a - KA_DEAL);
        return;
    case KP_PROVINCE: {
        int k = a - KA_PROVINCE, card = KY_NCARDS + k;
        s->offered &= (uint8_t)~(1u << k);
        s->province[p] = (int8_t)k;
        place_card(c, s, p, card, 0, KY_N / 2 - 1, KY_N / 2 - 2, 0, 0);
        s->phase = KP_FIRST_BOX;
        return;
    }
    case KP_FIRST_BOX: {
        int id = a - KA_CARD;
        s->hand[p] &= ~(1ull << id);
        s->box[p] = (int8_t)id;
        s->steps++;
        if (s->steps < c->players) {
            s->to_move = (int8_t)(p - 1);
            s->phase = s->round == 0 ? KP_PROVINCE : KP_FIRST_BOX;
            return;
        }
        if (s->round == 0) {
            if (c->players == 2) { start_deal(c, s, 1); return; }
            s->round = 1;
        } else {
            s->round++;   /* 6 -> 7 */
        }
        begin_round(c, s);
        return;
    }
    case KP_SELECT:
        if (a >= KA_PAID) {
            s->pend_box = (int8_t)(a - KA_PAID);
            s->pend_kind = 3;
            s->phase = KP_PAY;
        } else {
            int b = a - KA_BOX;
            s->pend_box = (int8_t)b;
            s->pend_kind = (int8_t)(b == p ? 0 : b == left_box(c, p) ? 1 : 2);
            s->phase = KP_REPLACE;
        }
        return;
    case KP_PAY: {
        int cell = a - KA_CELL, r = cell / KY_N, col = cell % KY_N;
        int k = cell_res(&s->map[p], r, col);
        clrbit(s->map[p].res[k], r, col);
        s->pool[k]++;
        s->phase = KP_REPLACE;
        return;
    }
    case KP_REPLACE: {
        int id = a - KA_CARD, b = s->pend_box;
        s->selected[p] = s->box[b];
        s->box[b] = (int8_t)id;
        s->hand[p] &= ~(1ull << id);
        after_selection(c, s);
        return;
    }
    case KP_MAP:
        if (a == KA_TERRAFORM) { s->phase = KP_TF_RES1; return; }
        s->pend_orient = (int8_t)((a - KA_ORIENT) >> 1);
        s->pend_layer = (int8_t)((a - KA_ORIENT) & 1);
        s->phase = KP_POS;
        return;
    case KP_POS: {
        int cell = a - KA_CELL;
        place_card(c, s, p, s->selected[p], s->pend_orient, cell / KY_N, cell % KY_N, s->pend_layer, 1);
        s->placed_now |= (uint8_t)(1u << p);
        s->pend_orient = s->pend_layer = -1;
        continue_map_turn(c, s);
        return;
    }
    case KP_TF_RES1: case KP_TF_RES2: {
        int cell = a - KA_CELL, r = cell / KY_N, col = cell % KY_N;
        KyuMap *m = &s->map[p];
        int k = cell_res(m, r, col);
        push_undo(s, p, r, col);
        clrbit(m->res[k], r, col);
        pool_return(s, p, k);
        if (s->phase == KP_TF_RES1) {
            s->pend_res1 = (int16_t)cell;
            s->pend_col[0] = (int8_t)k;
            s->phase = KP_TF_RES2;
            return;
        }
        s->pend_col[1] = (int8_t)k;
        s->tf_used |= (uint8_t)(1u << p);
        if (s->pend_col[0] == s->pend_col[1]) {
            s->pend_tile = (int8_t)TILE_OF[k];
            s->phase = KP_TF_FALLOW;
        } else {
            s->phase = KP_TF_COLOUR;
        }
        return;
    }
    case KP_TF_COLOUR:
        s->pend_tile = (int8_t)TILE_OF[a - KA_COLOUR];
        s->phase = KP_TF_FALLOW;
        return;
    case KP_TF_FALLOW: {
        int cell = a - KA_CELL, r = cell / KY_N, col = cell % KY_N;
        KyuMap *m = &s->map[p];
        push_undo(s, p, r, col);
        uint32_t code = get_code(m, r, col);
        set_code(m, r, col, (code & ~15u) | (uint32_t)s->pend_tile | 1u << 7);
        s->pend_res1 = -1;
        s->pend_col[0] = s->pend_col[1] = s->pend_tile = -1;
        continue_map_turn(c, s);
        return;
    }
    case KP_MAP_AFTER:
        if (a == KA_TERRAFORM) { s->phase = KP_TF_RES1; return; }
        end_map_turn(c, s);
        return;
    case KP_TRAV_RES:
        if (a == KA_END) { kyu_next_trav(c, s); return; }
        s->trav_res = (int16_t)(a - KA_CELL);
        s->phase = KP_TRAV_SPRING;
        return;
    case KP_TRAV_SPRING: {
        int h = trav_host(c, p, s->trav_side);
        int from = s->trav_res, to = a - KA_CELL;
        KyuMap *own = &s->map[p], *hm = &s->map[h];
        int k = cell_res(own, from / KY_N, from % KY_N);
        clrbit(own->res[k], from / KY_N, from % KY_N);
        setbit(hm->res[k], to / KY_N, to % KY_N);
        setbit(hm->trav, to / KY_N, to % KY_N);
        KyuTraveler *t = &s->trav[s->n_trav++];
        t->owner = (int8_t)p; t->host = (int8_t)h; t->cell = (int16_t)to;
        s->trav_left[p]--;
        s->trav_res = -1;
        kyu_next_trav(c, s);
        return;
    }
    default:
        return;
    }
}

/* ---------- returns and chance ---------- */

static void kyushu_returns(const BLGame *g, const void *vst, double *out) {
    const KyuConfig *c = CFG(g);
    const KyuState *s = CST(vst);
    int P = c->players;
    if (s->phase != KP_OVER) { for (int i = 0; i < P; i++) out[i] = 0.0; return; }
    const KyuMap *maps[KY_MAXP];
    KyuScore sc[KY_MAXP];
    real_maps(s, maps);
    score_all(c, s, maps, sc);
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

static int kyushu_chance_outcomes(const BLGame *g, const void *vst, int32_t *acts, double *probs) {
    int n = kyushu_legal_actions(g, vst, acts);
    for (int i = 0; i < n; i++) probs[i] = 1.0 / n;
    return n;
}

static int32_t kyushu_sample_chance(const BLGame *g, void *vst) {
    const KyuConfig *c = CFG(g);
    KyuState *s = ST(vst);
    if (s->phase == KP_DEAL) {
        uint64_t x = s->pile;
        int k = (int)bl_rng_below(&s->rng, (uint32_t)bb_popcount64(x));
        while (k-- > 0) x &= x - 1;
        return KA_DEAL + bb_lsb64(x);
    }
    int32_t acts[2 * KY_NMF];
    int n = kyushu_legal_actions(g, vst, acts);
    (void)c;
    return acts[bl_rng_below(&s->rng, (uint32_t)n)];
}

/* ---------- determinization ---------- */

/* Undo seat p's Map turn so far, leaving no trace of it in the state. */
static void forget_map_turn(KyuState *s, int p) {
    revert_map(s, p, &s->map[p]);
    memset(s->undo[p], 0, sizeof s->undo[p]);
    s->undo_n[p] = 0;
    memset(s->delta[p], 0, sizeof s->delta[p]);
    s->placed_now &= (uint8_t)~(1u << p);
    s->tf_used &= (uint8_t)~(1u << p);
}

/* A random legal placement of seat p's selected card (used to resample the
 * hidden Map turns of others). A seat that finished its turn had a legal
 * placement on its map as it was before the turn (terraforming never adds
 * one), so there is one unless it was skipped, which is public. */
static void random_placement(const KyuConfig *c, KyuState *s, int p, BLRng *r) {
    int mask = orient_options(c, s, p);
    if (!mask) return;
    int k = (int)bl_rng_below(r, (uint32_t)bb_popcount32((uint32_t)mask));
    uint32_t mm = (uint32_t)mask;
    while (k-- > 0) mm &= mm - 1;
    int ol = bb_lsb32(mm);
    uint32_t pos[KY_N];
    int n = positions(c, &s->map[p], s->selected[p], ol >> 1, ol & 1, pos);
    int j = (int)bl_rng_below(r, (uint32_t)n);
    for (int row = 0; row < KY_N; row++) {
        int cnt = bb_popcount32(pos[row]);
        if (j >= cnt) { j -= cnt; continue; }
        uint32_t x = pos[row];
        while (j-- > 0) x &= x - 1;
        place_card(c, s, p, s->selected[p], ol >> 1, row, bb_lsb32(x), ol & 1, 1);
        s->placed_now |= (uint8_t)(1u << p);
        return;
    }
}

/* Never fails: every hand constraint is met by the unseen cards (docs/kyushu.md). */
static int kyushu_determinize(const BLGame *g, void *vst, int o, BLRng *r) {
    const KyuConfig *c = CFG(g);
    KyuState *s = ST(vst);
    int P = c->players;
    /* 1. Cards o has not seen: other hands and the draw pile, reshuffled. */
    uint64_t unknown = s->pile;
    for (int p = 0; p < P; p++)
        if (p != o) unknown |= s->hand[p];
    int8_t ids[KY_NCARDS];
    int n = 0;
    for (uint64_t x = unknown; x;) ids[n++] = (int8_t)bb_pop_lsb64(&x);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)bl_rng_below(r, (uint32_t)(i + 1));
        int8_t t = ids[i]; ids[i] = ids[j]; ids[j] = t;
    }
    /* A seat choosing the replacement after taking from its left (right)
     * box has shown that it holds a higher (lower) card: give it one first. */
    int needy = -1, need_card = -1;
    if (s->phase == KP_REPLACE && s->to_move != o && (s->pend_kind == 1 || s->pend_kind == 2)) {
        int taken = s->box[(int)s->pend_box];
        for (int i = 0; i < n; i++) {   /* the first fitting card of the shuffle */
            int id = ids[i];
            if ((s->pend_kind == 1 && id > taken) || (s->pend_kind == 2 && id < taken)) {
                needy = s->to_move; need_card = id;
                ids[i] = ids[0]; ids[0] = (int8_t)id;
                break;
            }
        }
    }
    int at = 0;
    if (needy >= 0) at = 1;
    for (int p = 0; p < P; p++) {
        if (p == o) continue;
        int k = bb_popcount64(s->hand[p]);
        s->hand[p] = 0;
        if (p == needy) { s->hand[p] = 1ull << need_card; k--; }
        while (k-- > 0) s->hand[p] |= 1ull << ids[at++];
    }
    s->pile = 0;
    while (at < n) s->pile |= 1ull << ids[at++];
    /* 2. Map turns o has not seen (every seat before the mover has finished
     * its turn, the mover is in the middle of its own): the card is known,
     * where and how it went is not. Finished turns are replaced by a random
     * legal placement of the same card without terraforming; the mover's
     * turn starts again. Which seats these are is public (seat order), so the
     * sample depends on o's view and r only. */
    if (s->in_map && s->phase >= KP_MAP && s->phase <= KP_MAP_AFTER) {
        int mover = s->to_move;
        for (int p = 0; p <= mover; p++) {
            if (p == o) continue;
            forget_map_turn(s, p);
            if (p < mover) random_placement(c, s, p, r);
        }
        if (mover != o) {
            s->phase = KP_MAP;
            s->pend_orient = s->pend_layer = -1;
            s->pend_res1 = -1;
            s->pend_col[0] = s->pend_col[1] = s->pend_tile = -1;
        }
    }
    bl_rng_seed(&s->rng, bl_rng_next(r));
    return 0;
}

/* ---------- evaluation ---------- */

static void kyushu_evaluate(const BLGame *g, const void *vst, double *out) {
    const KyuConfig *c = CFG(g);
    const KyuState *s = CST(vst);
    int P = c->players;
    if (s->phase == KP_OVER) { kyushu_returns(g, vst, out); return; }
    const KyuMap *maps[KY_MAXP];
    KyuScore sc[KY_MAXP];
    real_maps(s, maps);
    score_all(c, s, maps, sc);
    /* What a map can still become: resources waiting for a factory and
     * factories waiting for a resource are half-way to points; a Fallow is
     * a terraforming option. */
    double est[KY_MAXP];
    for (int p = 0; p < P; p++) {
        const KyuMap *m = maps[p];
        int res = count_res(m), fact = 0;
        for (int k = 0; k < KC_N; k++) fact += count_plane(m, m->ter[KT_FACT + k - 1]);
        int fed = sc[p].metric[0][7];
        est[p] = sc[p].total + 1.0 * (res - fed) + 0.5 * (fact - fed) + 0.5 * sc[p].fallows;
    }
    for (int p = 0; p < P; p++) {
        double others = 0;
        for (int q = 0; q < P; q++)
            if (q != p) others += est[q];
        double d = (est[p] - others / (P - 1)) / 15.0;
        /* tanh without libm: a rational approximation, odd and in (-1, 1). */
        double x = d < -3 ? -3 : d > 3 ? 3 : d;
        out[p] = x * (27 + x * x) / (27 + 9 * x * x);
    }
}

/* ---------- text ---------- */

static const char *box_name(const KyuConfig *c, int b, int p, char *buf) {
    if (b == p) return "own box";
    if (b >= c->players) return b == 2 ? "middle box left of P0" : "middle box right of P0";
    sprintf(buf, "P%d's box", b);
    return buf;
}

static int kyushu_action_to_string(const BLGame *g, const void *vst, int32_t a, char *buf, int cap) {
    const KyuConfig *c = CFG(g);
    const KyuState *s = CST(vst);
    int p = s->to_move;
    char cn[8], bn[24];
    switch (s->phase) {
    case KP_OFFER:
        return snprintf(buf, cap, "offer province %d%c", a - KA_OFFER + 1, c->side ? 'B' : 'A');
    case KP_MF: {
        int k = (a - KA_MF) >> 1, side = (a - KA_MF) & 1, i = s->steps;
        return snprintf(buf, cap, "scoring card %d %s between P%d and P%d", k + 1, side ? "fewest" : "most",
                        i, (i + 1) % c->players);
    }
    case KP_DEAL:
        if (s->deal_kind == 1 || s->deal_kind == 3)
            return snprintf(buf, cap, "middle %d %s", a - KA_DEAL + 1, s->deal_left == 2 ? "right" : "left");
        return snprintf(buf, cap, "deal %d to P%d", a - KA_DEAL + 1, s->deal_to);
    case KP_PROVINCE:
        return snprintf(buf, cap, "province %d%c", a - KA_PROVINCE + 1, c->side ? 'B' : 'A');
    case KP_FIRST_BOX:
        return snprintf(buf, cap, "pick box %d", a - KA_CARD + 1);
    case KP_SELECT:
        if (a >= KA_PAID) {
            int b = a - KA_PAID;
            return snprintf(buf, cap, "pay to take %d from %s", s->box[b] + 1, box_name(c, b, p, bn));
        } else {
            int b = a - KA_BOX;
            return snprintf(buf, cap, "take %d from %s", s->box[b] + 1,
                            b == p ? "own box" : b == left_box(c, p) ? "left box" : "right box");
        }
    case KP_PAY: case KP_TF_RES1: case KP_TF_RES2: {
        int cell = a - KA_CELL;
        cell_name(cell, cn);
        int k = cell_res(&s->map[p], cell / KY_N, cell % KY_N);
        return snprintf(buf, cap, "%s %s at %s", s->phase == KP_PAY ? "pay" : "discard",
                        k >= 0 ? COLOUR_NAME[k] : "?", cn);
    }
    case KP_REPLACE:
        return snprintf(buf, cap, "replace with %d", a - KA_CARD + 1);
    case KP_MAP: case KP_MAP_AFTER:
        if (a == KA_TERRAFORM) return snprintf(buf, cap, "terraform");
        if (a == KA_END) return snprintf(buf, cap, "end turn");
        return snprintf(buf, cap, "orient %d %s %s", s->selected[p] + 1, ORIENT_NAME[(a - KA_ORIENT) >> 1],
                        LAYER_NAME[(a - KA_ORIENT) & 1]);
    case KP_POS:
        cell_name(a - KA_CELL, cn);
        return snprintf(buf, cap, "place %d %s at %s %s", s->selected[p] + 1, ORIENT_NAME[(int)s->pend_orient], cn,
                        LAYER_NAME[(int)s->pend_layer]);
    case KP_TF_COLOUR: {
        int k = a - KA_COLOUR;
        return snprintf(buf, cap, "choose %s (%s tile)", COLOUR_NAME[k], TER_NAME[TILE_OF[k]]);
    }
    case KP_TF_FALLOW:
        cell_name(a - KA_CELL, cn);
        return snprintf(buf, cap, "%s tile at %s", TER_NAME[(int)s->pend_tile], cn);
    case KP_TRAV_RES: {
        int h = trav_host(c, p, s->trav_side);
        if (a == KA_END) return snprintf(buf, cap, "no traveler to P%d", h);
        int cell = a - KA_CELL;
        cell_name(cell, cn);
        int k = cell_res(&s->map[p], cell / KY_N, cell % KY_N);
        return snprintf(buf, cap, "traveler to P%d with %s from %s", h, k >= 0 ? COLOUR_NAME[k] : "?", cn);
    }
    case KP_TRAV_SPRING:
        cell_name(a - KA_CELL, cn);
        return snprintf(buf, cap, "traveler on P%d's hot spring at %s", trav_host(c, p, s->trav_side), cn);
    default:
        return snprintf(buf, cap, "action %d", a);
    }
}

/* ---------- observation ---------- */


static void jw_card(BLJw *w, const KyuConfig *c, int card) {
    if (card < 0) bl_jw(w, "null");
    else if (card < KY_NCARDS) bl_jw(w, "%d", card + 1);
    else bl_jw(w, "\"S%d%c\"", card - KY_NCARDS + 1, c->side ? 'B' : 'A');
}

static void jw_cards(BLJw *w, uint64_t set) {
    bl_jw(w, "[");
    int first = 1;
    for (uint64_t x = set; x; first = 0) bl_jw(w, "%s%d", first ? "" : ",", bb_pop_lsb64(&x) + 1);
    bl_jw(w, "]");
}

static const char *const PHASE_NAME[] = {"offer", "most_fewest", "deal", "province", "first_box", "select",
                                         "pay", "replace", "map", "position", "terraform_resource_1",
                                         "terraform_resource_2", "terraform_colour", "terraform_fallow",
                                         "map_after", "traveler_resource", "traveler_spring", "over"};

static void jw_map(BLJw *w, const KyuConfig *c, const KyuMap *m) {
    bl_jw(w, "\"bbox\":");
    if (m->bottom < 0) bl_jw(w, "null");
    else bl_jw(w, "{\"top\":%d,\"left\":%d,\"bottom\":%d,\"right\":%d}", m->top, m->left, m->bottom, m->right);
    bl_jw(w, ",\"cards\":[");
    for (int i = 0; i < m->n_cards; i++) {
        const KyuPlaced *pl = &m->placed[i];
        bl_jw(w, "%s{\"card\":", i ? "," : "");
        jw_card(w, c, pl->card);
        bl_jw(w, ",\"orientation\":\"%s\",\"row\":%d,\"col\":%d,\"height\":%d,\"z\":%d,\"width\":%d}",
           ORIENT_NAME[(int)pl->orient], pl->row, pl->col, OH[(int)pl->orient], pl->z, OW[(int)pl->orient]);
    }
    bl_jw(w, "],\"cells\":[");
    int first = 1;
    for (int r = m->top; r <= m->bottom; r++)
        for (uint32_t x = m->occ[r]; x;) {
            int col = bb_pop_lsb32(&x);
            uint32_t code = get_code(m, r, col);
            int t = code & 15, fvc = code >> 4 & 3, res = (int)(code >> 8 & 7) - 1;
            char cn[8];
            cell_name(r * KY_N + col, cn);
            bl_jw(w, "%s{\"row\":%d,\"col\":%d,\"name\":\"%s\",\"terrain\":\"%s\",\"colour\":", first ? "" : ",",
               r, col, cn, TER_NAME[t]);
            first = 0;
            if (is_prod(t) || is_fact(t)) bl_jw(w, "\"%s\"", COLOUR_NAME[(t - KT_PROD) % KC_N]); else bl_jw(w, "null");
            bl_jw(w, ",\"factory_value\":");
            if (is_fact(t)) bl_jw(w, "%d", fvc + 2); else bl_jw(w, "null");
            bl_jw(w, ",\"resource\":");
            if (res >= 0) bl_jw(w, "\"%s\"", COLOUR_NAME[res]); else bl_jw(w, "null");
            bl_jw(w, ",\"tile\":%s,\"traveler\":%s", (code >> 7 & 1) ? "true" : "false", (code >> 11 & 1) ? "true" : "false");
            /* The card on top here, and which of its printed squares shows. */
            int best = -1, bz = -1000, bsq = -1;
            for (int i = 0; i < m->n_cards; i++) {
                const KyuPlaced *pl = &m->placed[i];
                int di = r - pl->row, dj = col - pl->col;
                if (di < 0 || dj < 0 || di >= OH[(int)pl->orient] || dj >= OW[(int)pl->orient] || pl->z <= bz) continue;
                for (int sq = 0; sq < 6; sq++) {
                    int ii, jj;
                    orient_cell(pl->orient, sq, &ii, &jj);
                    if (ii == di && jj == dj) { best = i; bz = pl->z; bsq = sq; }
                }
            }
            bl_jw(w, ",\"card\":");
            jw_card(w, c, best >= 0 ? m->placed[best].card : -1);
            bl_jw(w, ",\"square\":");
            if (bsq >= 0) bl_jw(w, "%d}", bsq); else bl_jw(w, "null}");
        }
    bl_jw(w, "]");
}

static void jw_score(BLJw *w, const KyuScore *x) {
    bl_jw(w, "{\"hot_springs\":%d,\"forests\":%d,\"towns\":%d,\"lakes\":%d,\"factories\":%d,\"travelers\":%d,"
          "\"most_fewest\":%d,\"total\":%d,\"fallows\":%d,\"most_metrics\":[",
       x->springs, x->forests, x->towns, x->lakes, x->factories, x->travelers, x->most_fewest, x->total, x->fallows);
    for (int k = 0; k < KY_NMF; k++) bl_jw(w, "%s%d", k ? "," : "", x->metric[0][k]);
    bl_jw(w, "],\"fewest_metrics\":[");
    for (int k = 0; k < KY_NMF; k++) bl_jw(w, "%s%d", k ? "," : "", x->metric[1][k]);
    bl_jw(w, "]}");
}

static int kyushu_observe_json(const BLGame *g, const void *vst, int v, char *buf, int cap) {
    const KyuConfig *c = CFG(g);
    const KyuState *s = CST(vst);
    BLJw w = {buf, cap, 0};
    int P = c->players, full = v < 0;
    int cp = kyushu_current_player(g, vst);
    /* The maps this viewer sees: others' unrevealed Map turns undone. */
    KyuMap view[KY_MAXP];
    const KyuMap *maps[KY_MAXP];
    real_maps(s, maps);
    int any_hidden = 0;
    for (int p = 0; p < P; p++)
        if (hidden_from(s, p, v)) {
            memcpy(&view[p], &s->map[p], sizeof view[p]);
            revert_map(s, p, &view[p]);
            maps[p] = &view[p];
            any_hidden = 1;
        }
    int in_turn_phase = s->phase >= KP_MAP && s->phase <= KP_MAP_AFTER;
    const char *phase = PHASE_NAME[(int)s->phase];
    if (!full && in_turn_phase && v != s->to_move) phase = "map";   /* others' steps are private */
    bl_jw(&w, "{\"game\":\"kyushu\",\"players\":%d,\"viewer\":", P);
    if (full) bl_jw(&w, "null"); else bl_jw(&w, "%d", v);
    bl_jw(&w, ",\"options\":{\"side\":\"%c\",\"most_fewest\":%s,\"travelers\":%s}", c->side ? 'B' : 'A',
       c->most_fewest ? "true" : "false", c->travelers ? "true" : "false");
    bl_jw(&w, ",\"phase\":\"%s\",\"current_player\":%d,\"round\":%d,\"first_player\":0", phase, cp, s->round);
    int pool[KC_N];
    for (int k = 0; k < KC_N; k++)
        pool[k] = !s->in_map ? s->pool[k] : full ? settled_pool(c, s, k) : pool_avail(s, v, k);
    bl_jw(&w, ",\"pool\":{\"blue\":%d,\"brown\":%d,\"grey\":%d,\"purple\":%d}", pool[0], pool[1], pool[2], pool[3]);
    /* In a hidden Map phase the onlooker sees resources claimed twice (a seat's
     * own view never overdraws): maps + pool - overdrawn = 56. */
    int over[KC_N];
    for (int k = 0; k < KC_N; k++) over[k] = full && s->in_map ? overdrawn(c, s, k) : 0;
    bl_jw(&w, ",\"overdrawn\":{\"blue\":%d,\"brown\":%d,\"grey\":%d,\"purple\":%d}", over[0], over[1], over[2],
          over[3]);
    bl_jw(&w, ",\"draw_pile_size\":%d,\"draw_pile\":", bb_popcount64(s->pile));
    if (full) jw_cards(&w, s->pile); else bl_jw(&w, "null");
    bl_jw(&w, ",\"discarded\":");
    jw_cards(&w, s->discarded);
    bl_jw(&w, ",\"hand_sizes\":[");
    for (int p = 0; p < P; p++) bl_jw(&w, "%s%d", p ? "," : "", bb_popcount64(s->hand[p]));
    bl_jw(&w, "],\"hands\":[");
    for (int p = 0; p < P; p++) {
        if (p) bl_jw(&w, ",");
        if (full || p == v) jw_cards(&w, s->hand[p]); else bl_jw(&w, "null");
    }
    bl_jw(&w, "],\"pick_boxes\":[");
    for (int b = 0; b < c->boxes; b++) {
        bl_jw(&w, "%s{\"box\":%d,\"owner\":", b ? "," : "", b);
        if (b < P) bl_jw(&w, "%d,\"label\":\"P%d\"", b, b);
        else bl_jw(&w, "null,\"label\":\"%s\"", b == 2 ? "left of P0" : "right of P0");
        bl_jw(&w, ",\"card\":");
        jw_card(&w, c, s->box[b]);
        bl_jw(&w, "}");
    }
    bl_jw(&w, "],\"selected\":[");
    for (int p = 0; p < P; p++) { if (p) bl_jw(&w, ","); jw_card(&w, c, s->selected[p]); }
    /* A take in progress is public: the card has left its box. */
    bl_jw(&w, "],\"taking\":");
    if ((s->phase == KP_PAY || s->phase == KP_REPLACE) && s->pend_box >= 0) {
        static const char *const OPTION[4] = {"own", "left", "right", "paid"};
        bl_jw(&w, "{\"seat\":%d,\"box\":%d,\"card\":", s->to_move, s->pend_box);
        jw_card(&w, c, s->box[(int)s->pend_box]);
        bl_jw(&w, ",\"option\":\"%s\"}", OPTION[(int)s->pend_kind]);
    } else {
        bl_jw(&w, "null");
    }
    bl_jw(&w, ",\"provinces_offered\":[");
    int first = 1;
    for (int k = 0; k < KY_NPROV; k++)
        if (s->offered >> k & 1) {
            bl_jw(&w, "%s{\"province\":", first ? "" : ",");
            jw_card(&w, c, KY_NCARDS + k);
            bl_jw(&w, ",\"squares\":[");
            for (int sq = 0; sq < 6; sq++) {
                int t = c->ter[KY_NCARDS + k][sq];
                bl_jw(&w, "%s\"%s%s%s\"", sq ? "," : "", TER_NAME[t], (is_prod(t) || is_fact(t)) ? ":" : "",
                   (is_prod(t) || is_fact(t)) ? COLOUR_NAME[(t - KT_PROD) % KC_N] : "");
            }
            bl_jw(&w, "]}");
            first = 0;
        }
    bl_jw(&w, "],\"most_fewest\":[");
    first = 1;
    for (int i = 0; i < P; i++)
        if (s->mf_card[i] >= 0) {
            bl_jw(&w, "%s{\"card\":%d,\"side\":\"%s\",\"seats\":[%d,%d]}", first ? "" : ",", s->mf_card[i] + 1,
               s->mf_side[i] ? "fewest" : "most", i, (i + 1) % P);
            first = 0;
        }
    bl_jw(&w, "],\"travelers\":{\"held\":[");
    for (int p = 0; p < P; p++) bl_jw(&w, "%s%d", p ? "," : "", s->trav_left[p]);
    bl_jw(&w, "],\"placed\":[");
    for (int i = 0; i < s->n_trav; i++) {
        const KyuTraveler *t = &s->trav[i];
        int r = t->cell / KY_N, col = t->cell % KY_N;
        const KyuMap *h = maps[(int)t->host];
        char cn[8];
        cell_name(t->cell, cn);
        bl_jw(&w, "%s{\"owner\":%d,\"host\":%d,\"row\":%d,\"col\":%d,\"name\":\"%s\",\"active\":%s}", i ? "," : "",
           t->owner, t->host, r, col, cn, getbit(h->trav, r, col) ? "true" : "false");
    }
    /* The traveler being sent (a public step): to whom, and with which resource. */
    bl_jw(&w, "],\"sending\":");
    if (s->phase == KP_TRAV_RES || s->phase == KP_TRAV_SPRING) {
        bl_jw(&w, "{\"seat\":%d,\"host\":%d,\"from\":", s->to_move, trav_host(c, s->to_move, s->trav_side));
        if (s->phase == KP_TRAV_SPRING) {
            char cn[8];
            cell_name(s->trav_res, cn);
            int k = cell_res(&s->map[(int)s->to_move], s->trav_res / KY_N, s->trav_res % KY_N);
            bl_jw(&w, "\"%s\",\"colour\":\"%s\"}", cn, COLOUR_NAME[k]);
        } else {
            bl_jw(&w, "null,\"colour\":null}");
        }
    } else {
        bl_jw(&w, "null");
    }
    bl_jw(&w, "},\"maps\":[");
    for (int p = 0; p < P; p++) {
        bl_jw(&w, "%s{\"seat\":%d,\"province\":", p ? "," : "", p);
        jw_card(&w, c, s->province[p] >= 0 ? KY_NCARDS + s->province[p] : -1);
        bl_jw(&w, ",");
        jw_map(&w, c, maps[p]);
        bl_jw(&w, "}");
    }
    KyuScore sc[KY_MAXP];
    score_all(c, s, maps, sc);
    bl_jw(&w, "],\"scores\":[");
    for (int p = 0; p < P; p++) { if (p) bl_jw(&w, ","); jw_score(&w, &sc[p]); }
    bl_jw(&w, "],\"unrevealed\":%s", s->in_map ? "true" : "false");
    (void)any_hidden;
    /* This seat's own Map turn and pending decision. */
    bl_jw(&w, ",\"my_turn\":");
    if (cp >= 0 && (full || v == cp)) {
        char cn[8] = "";
        if (s->pend_res1 >= 0) cell_name(s->pend_res1, cn);
        bl_jw(&w, "{\"seat\":%d,\"placed\":%s,\"terraformed\":%s,\"box\":%d,\"option\":%d,\"orientation\":%s%s%s,"
              "\"layer\":%s%s%s,\"discarded\":\"%s\"",
           cp, (s->placed_now >> cp & 1) ? "true" : "false", (s->tf_used >> cp & 1) ? "true" : "false",
           s->pend_box, s->pend_kind, s->pend_orient >= 0 ? "\"" : "",
           s->pend_orient >= 0 ? ORIENT_NAME[(int)s->pend_orient] : "null", s->pend_orient >= 0 ? "\"" : "",
           s->pend_layer >= 0 ? "\"" : "", s->pend_layer >= 0 ? LAYER_NAME[(int)s->pend_layer] : "null",
           s->pend_layer >= 0 ? "\"" : "", cn);
        /* Terraforming under way: the colours discarded so far and the tile chosen. */
        bl_jw(&w, ",\"discarded_colours\":[");
        for (int i = 0, n = 0; i < 2; i++)
            if (s->pend_col[i] >= 0) bl_jw(&w, "%s\"%s\"", n++ ? "," : "", COLOUR_NAME[(int)s->pend_col[i]]);
        bl_jw(&w, "],\"tile\":");
        if (s->pend_tile >= 0) bl_jw(&w, "\"%s\"}", TER_NAME[(int)s->pend_tile]); else bl_jw(&w, "null}");
    } else {
        bl_jw(&w, "null");
    }
    bl_jw(&w, "}");
    return w.len < cap ? w.len : -1;
}

/* ---------- scenario entry points (tests only) ---------- */

void kyu_debug_clear_map(const BLGame *g, void *vst, int p) {
    KyuState *s = ST(vst);
    (void)g;
    KyuMap *m = &s->map[p];
    for (int k = 0; k < KC_N; k++)
        for (int r = 0; r < KY_N; r++) s->pool[k] += (int8_t)bb_popcount32(m->res[k][r]);
    map_reset(m);
    if (s->in_map) {   /* as if cleared before the phase */
        memcpy(s->pool_start, s->pool, sizeof s->pool);
        if (s->undo_n[p] == 0) save_meta(s, p);
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
    set_code(m, row, col, code);
    bbox_recompute(m);
    if (s->in_map) {   /* as if painted before the phase */
        memcpy(s->pool_start, s->pool, sizeof s->pool);
        if (s->undo_n[p] == 0) save_meta(s, p);
    }
    if (owner >= 0 && s->n_trav < 2 * KY_MAXP) {
        KyuTraveler *tr = &s->trav[s->n_trav++];
        tr->owner = (int8_t)owner; tr->host = (int8_t)p; tr->cell = (int16_t)(row * KY_N + col);
    }
    return 0;
}

/* ---------- position set-up (a Selection or Map phase as one seat knows it) ----------
 * Vector (built by py/boardlab/games/kyushu.py position_params):
 *   seat, round, to_move, phase (0 Selection, 1 Map: the seat's own hidden Map
 *   turn, to_move = seat, every seat's card taken, maps as the phase began),
 *   pool[4] (-1: not given), per seat its province (0..5),
 *   per seat the Most/Fewest card to its left (-1: option off), per seat its side,
 *   per box its card (-1 empty), per seat the card taken this round (-1), then
 *   counted lists:
 *   hand n + ids; discarded n + ids; per seat: n cards + n x (card, orient, row, col, layer);
 *   tiles n + n x (seat, row, col, colour); travelers n + n x (owner, host, row, col, active);
 *   resources n + n x (seat, row, col, colour);
 *   turn n + n actions: the seat's own decisions so far in this turn (a take or a
 *   placement in progress), applied by the rules.
 * Cards are ids 0..59, provinces 60..65. Maps are rebuilt with place_card and
 * the cell edits of the scenario entry points, so they obey the same rules. */

#define SETUP_FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int kyu_hand_size(int round, int p, int to_move) {
    return (round <= 5 ? 6 - round : 12 - round) - (p < to_move ? 1 : 0);
}

/* Cards in hand during round `round`'s Map phase (every seat has taken its card;
 * in rounds 6 and 12 the hands are empty and each took its own pick box). */
static int kyu_map_hand_size(int round) {
    return (round == 6 || round == 12) ? 0 : round <= 5 ? 5 - round : 11 - round;
}

static int kyushu_setup(const BLGame *g, void *vst, uint64_t seed, const int32_t *d, int n, char *err, int errlen) {
    const KyuConfig *c = CFG(g);
    KyuState *s = ST(vst);
    int P = c->players, B = c->boxes, at = 0;
#define NEED(k, what) do { if (at + (k) > n) SETUP_FAIL("position: the vector ends early (%s)", what); } while (0)
    NEED(8 + 3 * P + B + P, "header");
    int v = d[at++], round = d[at++], to_move = d[at++], map = d[at++];
    int pool_given[KC_N];
    for (int k = 0; k < KC_N; k++) pool_given[k] = d[at++];
    if (v < 0 || v >= P) SETUP_FAIL("seat must be 0..%d, got %d", P - 1, v);
    if (map != 0 && map != 1) SETUP_FAIL("phase must be 0 (Selection) or 1 (Map), got %d", map);
    if (!map && (round < 1 || round > 11 || round == 6))
        SETUP_FAIL("round: a Selection phase is played in rounds 1-5 and 7-11, got %d", round);
    if (map && (round < 1 || round > 12)) SETUP_FAIL("round: a Map phase is played in rounds 1-12, got %d", round);
    if (to_move < 0 || to_move >= P) SETUP_FAIL("to_move must be a seat 0..%d, got %d", P - 1, to_move);
    if (map && to_move != v)
        SETUP_FAIL("to_move: a Map phase is set up at the seat's own turn (P%d), got P%d", v, to_move);
    kyushu_init(g, vst, seed);
    s->round = (int8_t)round;
    uint64_t seen = 0;
    uint8_t prov_used = 0;
    for (int p = 0; p < P; p++) {
        int k = d[at++];
        if (k < 0 || k >= KY_NPROV) SETUP_FAIL("maps: P%d's Starting Province must be 1..6, got %d", p, k + 1);
        if (prov_used >> k & 1) SETUP_FAIL("maps: Starting Province %d is on two maps", k + 1);
        prov_used |= (uint8_t)(1u << k);
        s->province[p] = (int8_t)k;
    }
    uint16_t mf_seen = 0;
    for (int p = 0; p < P; p++) {
        int k = d[at++], side = d[at + P - 1];
        if (!c->most_fewest) { if (k != -1) SETUP_FAIL("most_fewest: the Most/Fewest option is off"); continue; }
        if (k < 0 || k >= KY_NMF) SETUP_FAIL("most_fewest: the card between P%d and P%d must be 1..8, got %d", p, (p + 1) % P, k + 1);
        if (side != 0 && side != 1) SETUP_FAIL("most_fewest: the card between P%d and P%d needs a side (most or fewest)", p, (p + 1) % P);
        if (mf_seen >> k & 1) SETUP_FAIL("most_fewest: card %d is dealt twice", k + 1);
        mf_seen |= (uint16_t)(1u << k);
        s->mf_card[p] = (int8_t)k; s->mf_side[p] = (int8_t)side;
        s->mf_used |= (uint8_t)(1u << k);
    }
    at += P;
#define TAKE_CARD(id, ...) do { int id_ = (id); if (id_ < 0 || id_ >= KY_NCARDS) SETUP_FAIL(__VA_ARGS__); \
        if (seen >> id_ & 1) SETUP_FAIL("cards: card %d is in two places", id_ + 1); seen |= 1ull << id_; } while (0)
    for (int b = 0; b < B; b++) {
        int id = d[at++];
        s->box[b] = (int8_t)id;
        int own_taken = map && b < P && (round == 6 || round == 12);
        if (own_taken && id != -1)
            SETUP_FAIL("pick_boxes: box %d must be empty (in round %d each seat took its own box)", b, round);
        if (id == -1) {
            if (own_taken) continue;
            if (b < P) SETUP_FAIL("pick_boxes: box %d is empty (every seat's box holds a card %s)", b,
                                  map ? "after the Selection" : "at the Selection");
            if (round <= 6) SETUP_FAIL("pick_boxes: the middle box %s is empty", b == 2 ? "left of P0" : "right of P0");
            continue;
        }
        TAKE_CARD(id, "pick_boxes: box %d holds no Map card 1..60 (%d)", b, id + 1);
    }
    for (int p = 0; p < P; p++) {
        int id = d[at++];
        if (map && id < 0) SETUP_FAIL("taken: P%d must have taken a card (every seat has, in the Map phase)", p);
        if (!map && (p < to_move) != (id >= 0))
            SETUP_FAIL("taken: P%d %s (seats before to_move have taken a card, the others not yet)", p,
                       id >= 0 ? "cannot have taken a card yet" : "must have taken a card");
        if (id >= 0) TAKE_CARD(id, "taken: P%d's card must be 1..60, got %d", p, id + 1);
        s->selected[p] = (int8_t)id;
    }
    NEED(1, "hand");
    int nh = d[at++], want_h = map ? kyu_map_hand_size(round) : kyu_hand_size(round, v, to_move);
    if (nh != want_h)
        SETUP_FAIL("hand: P%d holds %d cards %s, got %d", v, want_h,
                   map ? "in this round's Map phase" : "in this round", nh);
    NEED(nh, "hand");
    for (int i = 0; i < nh; i++) {
        int id = d[at++];
        TAKE_CARD(id, "hand: a Map card is numbered 1..60, got %d", id + 1);
        s->hand[v] |= 1ull << id;
    }
    NEED(1, "discarded");
    int nd = d[at++];
    if (nd && (P != 2 || round < 7 || nd != 2)) SETUP_FAIL("discarded: only the two 2-player middle cards are discarded, after round 6");
    NEED(nd, "discarded");
    for (int i = 0; i < nd; i++) {
        int id = d[at++];
        TAKE_CARD(id, "discarded: a Map card is numbered 1..60, got %d", id + 1);
        s->discarded |= 1ull << id;
    }
    /* Maps: the Starting Province, then each card in the order it was placed. */
    for (int p = 0; p < P; p++) {
        NEED(1, "maps");
        int nc = d[at++];
        if (nc < 1 || nc > round)
            SETUP_FAIL("maps: P%d's map has the Starting Province and up to %d cards%s, got %d entries", p,
                       round - 1, map ? " (as the Map phase began)" : "", nc);
        NEED(5 * nc, "maps");
        for (int i = 0; i < nc; i++) {
            int card = d[at], o = d[at + 1], R = d[at + 2], C = d[at + 3], layer = d[at + 4];
            at += 5;
            if (i == 0 && card != KY_NCARDS + s->province[p]) SETUP_FAIL("maps: P%d's first card must be its Starting Province", p);
            if (i > 0) TAKE_CARD(card, "maps: P%d's card %d is not a Map card 1..60 (%d)", p, i, card + 1);
            if (o < 0 || o > 3) SETUP_FAIL("maps: P%d's card %d has no orientation %d", p, i, o);
            if (layer != 0 && layer != 1) SETUP_FAIL("maps: P%d's card %d layer must be over or under", p, i);
            if (R < 0 || C < 0 || R + OH[o] > KY_N || C + OW[o] > KY_N) SETUP_FAIL("maps: P%d's card %d lies off the grid at row %d, col %d", p, i, R, C);
            if (i > 0) {
                uint32_t pos[KY_N];
                positions(c, &s->map[p], card, o, layer, pos);
                if (!(pos[R] >> C & 1))
                    SETUP_FAIL("maps: P%d's card %d (%d) cannot be placed %s %s at row %d, col %d", p, i, card + 1,
                               ORIENT_NAME[o], LAYER_NAME[layer], R, C);
            }
            place_card(c, s, p, card, o, R, C, layer, 0);
        }
    }
    /* Resources are given square by square: start from an empty pool count. */
    for (int p = 0; p < P; p++) memset(s->map[p].res, 0, sizeof s->map[p].res);
    for (int k = 0; k < KC_N; k++) s->pool[k] = KY_PER_COLOUR;
    NEED(1, "tiles");
    int nt = d[at++];
    NEED(4 * nt, "tiles");
    for (int i = 0; i < nt; i++) {
        int p = d[at], R = d[at + 1], C = d[at + 2], k = d[at + 3];
        at += 4;
        if (p < 0 || p >= P || R < 0 || R >= KY_N || C < 0 || C >= KY_N) SETUP_FAIL("tiles: tile %d is not on a map square", i + 1);
        if (k < 0 || k >= KC_N) SETUP_FAIL("tiles: tile %d has no colour %d", i + 1, k);
        uint32_t code = get_code(&s->map[p], R, C);
        if ((code & 15) != KT_FALLOW) SETUP_FAIL("tiles: tile %d must lie on a visible Fallow of P%d's map", i + 1, p);
        kyu_debug_set_cell(g, vst, p, R, C, TILE_OF[k], 0, -1, 1, -1);
    }
    NEED(1, "travelers");
    int nv = d[at++];
    if (nv && (!c->travelers || round < 7)) SETUP_FAIL("travelers: travelers are sent after round 6, with the Travelers option");
    NEED(5 * nv, "travelers");
    for (int i = 0; i < nv; i++) {
        int o = d[at], h = d[at + 1], R = d[at + 2], C = d[at + 3], active = d[at + 4];
        at += 5;
        if (o < 0 || o >= P || h < 0 || h >= P || R < 0 || R >= KY_N || C < 0 || C >= KY_N)
            SETUP_FAIL("travelers: traveler %d is not on a map square", i + 1);
        if (h == o || (h != left_seat(c, o) && h != right_seat(c, o)))
            SETUP_FAIL("travelers: P%d's traveler %d must be on a neighbour's map", o, i + 1);
        if (s->trav_left[o] <= 0) SETUP_FAIL("travelers: P%d has no traveler left to send", o);
        uint32_t code = get_code(&s->map[h], R, C);
        if (active) {
            if ((code & 15) != KT_SPRING || (code >> 11 & 1))
                SETUP_FAIL("travelers: traveler %d must stand on a free hot spring of P%d", i + 1, h);
            kyu_debug_set_cell(g, vst, h, R, C, KT_SPRING, 0, -1, (int)(code >> 7 & 1), o);
        } else {
            /* Covered by a card placed later: it only counts as sent. */
            if (!(code >> 6 & 1)) SETUP_FAIL("travelers: covered traveler %d must be under a card of P%d", i + 1, h);
            KyuTraveler *tr = &s->trav[s->n_trav++];
            tr->owner = (int8_t)o; tr->host = (int8_t)h; tr->cell = (int16_t)(R * KY_N + C);
        }
        s->trav_left[o]--;
    }
    NEED(1, "resources");
    int nr = d[at++];
    NEED(4 * nr, "resources");
    for (int i = 0; i < nr; i++) {
        int p = d[at], R = d[at + 1], C = d[at + 2], k = d[at + 3];
        at += 4;
        if (p < 0 || p >= P || R < 0 || R >= KY_N || C < 0 || C >= KY_N) SETUP_FAIL("resources: resource %d is not on a map square", i + 1);
        if (k < 0 || k >= KC_N) SETUP_FAIL("resources: resource %d has no colour %d", i + 1, k);
        uint32_t code = get_code(&s->map[p], R, C);
        int t = code & 15;
        if (!(t == KT_PROD + k || (t == KT_SPRING && (code >> 11 & 1))))
            SETUP_FAIL("resources: a %s resource at row %d, col %d of P%d must be on a %s production square or with a traveler",
                       COLOUR_NAME[k], R, C, p, COLOUR_NAME[k]);
        if (code >> 8 & 7) SETUP_FAIL("resources: two resources at row %d, col %d of P%d", R, C, p);
        if (s->pool[k] <= 0) SETUP_FAIL("resources: more %s resources than the game has (%d)", COLOUR_NAME[k], KY_PER_COLOUR);
        code |= (uint32_t)(k + 1) << 8;
        set_code(&s->map[p], R, C, code);
        s->pool[k]--;
    }
    for (int k = 0; k < KC_N; k++)
        if (pool_given[k] >= 0 && pool_given[k] != s->pool[k])
            SETUP_FAIL("pool: %d %s resources are off the maps, not %d", s->pool[k], COLOUR_NAME[k], pool_given[k]);
    /* The hidden rest: other hands and the draw pile, dealt at random. */
    uint64_t unknown = ((1ull << KY_NCARDS) - 1) & ~seen;
    int8_t ids[KY_NCARDS];
    int m = 0;
    for (uint64_t x = unknown; x;) ids[m++] = (int8_t)bb_pop_lsb64(&x);
    BLRng r;
    bl_rng_seed(&r, seed ^ 0x9E3779B97F4A7C15ull);
    for (int i = m - 1; i > 0; i--) {
        int j = (int)bl_rng_below(&r, (uint32_t)(i + 1));
        int8_t t = ids[i]; ids[i] = ids[j]; ids[j] = t;
    }
    int j = 0;
    for (int p = 0; p < P; p++) {
        if (p == v) continue;
        for (int need = map ? kyu_map_hand_size(round) : kyu_hand_size(round, p, to_move); need > 0; need--) {
            if (j == m) SETUP_FAIL("cards: too few cards are left for P%d's hand", p);
            s->hand[p] |= 1ull << ids[j++];
        }
    }
    s->pile = 0;
    while (j < m) s->pile |= 1ull << ids[j++];
    if (map) {
        /* The seats before v have taken their hidden turns: a random legal
         * placement each (what determinization samples too); v's turn starts. */
        begin_map(c, s);
        while (s->in_map && s->to_move < v) {
            random_placement(c, s, s->to_move, &r);
            end_map_turn(c, s);
        }
        if (!s->in_map || s->to_move != v)
            SETUP_FAIL("maps: P%d's card %d fits nowhere on its map: its Map turn is skipped", v, s->selected[v] + 1);
    } else {
        s->steps = (int8_t)to_move;
        s->to_move = (int8_t)to_move;
        s->phase = KP_SELECT;
    }
    /* The seat's turn so far, by the rules. */
    NEED(1, "turn");
    int nturn = d[at++];
    if (nturn < 0) SETUP_FAIL("turn: a count of actions, got %d", nturn);
    NEED(nturn, "turn");
    for (int i = 0; i < nturn; i++) {
        int a = d[at++];
        int32_t legal[KA_NUM];
        int nl = kyushu_current_player(g, vst) == v ? kyushu_legal_actions(g, vst, legal) : 0;
        int ok = 0;
        for (int k = 0; k < nl && !ok; k++) ok = legal[k] == a;
        if (!nl) SETUP_FAIL("turn: action %d comes after P%d's turn is over", i + 1, v);
        if (!ok) SETUP_FAIL("turn: action %d (%d) is not legal for P%d there", i + 1, a, v);
        kyushu_apply(g, vst, a);
    }
    if (at != n) SETUP_FAIL("position: %d numbers left over", n - at);
    return 0;
#undef NEED
#undef TAKE_CARD
}

const BLGameVTable bl_kyushu_vtable = {
    "kyushu",
    kyushu_configure,
    kyushu_init,
    kyushu_current_player,
    kyushu_legal_actions,
    kyushu_apply,
    kyushu_returns,
    kyushu_chance_outcomes,
    kyushu_sample_chance,
    kyushu_determinize,
    kyushu_evaluate,
    kyushu_action_to_string,
    kyushu_observe_json,
    kyushu_setup,
};
