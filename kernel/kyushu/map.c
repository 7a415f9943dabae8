/* Kyushu: a player's map as bitboards: the contents of a cell, counting and
 * listing cells, the undo log of a hidden Map turn, the legal positions of a
 * card (over: covers a card and no lake; under: slides under, keeps a square
 * in the open, hides none of its own lakes), placing a card (its production
 * squares take resources) and re-centring the map on the grid. */
#include <stddef.h>
#include <string.h>
#include "kyushu.h"
#include "../common/bitboard.h"

/* The map's uint32 planes are contiguous: occ, ter[13], fv3, fv4, res[4], tile, trav. */
#define KY_ALLPLANES (1 + KY_NPLANES + 2 + KC_N + 2)
_Static_assert(offsetof(KyuMap, top) == KY_ALLPLANES * KY_N * sizeof(uint32_t), "map planes must be contiguous");

/* ---------- map cells ---------- */

/* Contents of one cell, packed: terrain (4 bits) | fv class (2: 0 = 2, 1 = 3,
 * 2 = 4) << 4 | occ << 6 | tile << 7 | (resource colour + 1) << 8 | traveler << 11. */
uint32_t kyu_get_code(const KyuMap *m, int r, int c) {
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

void kyu_set_code(KyuMap *m, int r, int c, uint32_t code) {
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

void kyu_map_reset(KyuMap *m) {
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

void kyu_bbox_recompute(KyuMap *m) {
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

int kyu_count_res(const KyuMap *m) {
    int n = 0;
    for (int r = m->top; r <= m->bottom; r++) n += bb_popcount32(any_res_row(m, r));
    return n;
}

int kyu_count_plane(const KyuMap *m, const uint32_t *pl) {
    int n = 0;
    for (int r = m->top; r <= m->bottom; r++) n += bb_popcount32(pl[r]);
    return n;
}

/* Cells of a plane within the map, ascending, as actions. */
int kyu_cells_of(const KyuMap *m, const uint32_t *pl, int32_t *out) {
    int n = 0;
    for (int r = m->top; r <= m->bottom; r++)
        for (uint32_t x = pl[r]; x;) out[n++] = KA_CELL + r * KY_N + bb_pop_lsb32(&x);
    return n;
}

int kyu_res_cells(const KyuMap *m, int32_t *out) {
    uint32_t rows[KY_N] = {0};
    for (int r = m->top; r <= m->bottom; r++) rows[r] = any_res_row(m, r);
    return kyu_cells_of(m, rows, out);
}

/* Visible hot springs a traveler may stand on: no resource, no traveler. */
void kyu_free_springs(const KyuMap *m, uint32_t *rows) {
    memset(rows, 0, KY_N * sizeof(uint32_t));
    for (int r = m->top; r <= m->bottom; r++)
        rows[r] = m->ter[KT_SPRING - 1][r] & ~any_res_row(m, r) & ~m->trav[r];
}

/* ---------- hidden Map turns: the undo log ---------- */

void kyu_push_undo(KyuState *s, int p, int r, int c) {
    if (s->undo_n[p] >= KY_UNDO) return;   /* cannot happen: a turn edits at most 9 cells */
    s->undo[p][s->undo_n[p]++] = (uint32_t)(r * KY_N + c) | kyu_get_code(&s->map[p], r, c) << 10;
}

void kyu_save_meta(KyuState *s, int p) {
    const KyuMap *m = &s->map[p];
    KyuMeta *x = &s->meta[p];
    x->top = m->top; x->bottom = m->bottom; x->left = m->left; x->right = m->right;
    x->n_cards = m->n_cards; x->zmin = m->zmin; x->zmax = m->zmax;
}

/* Undo seat p's hidden turn on map m (a copy or the real one). */
void kyu_revert_map(const KyuState *s, int p, KyuMap *m) {
    for (int k = s->undo_n[p] - 1; k >= 0; k--) {
        uint32_t e = s->undo[p][k];
        int cell = (int)(e & 1023);
        kyu_set_code(m, cell / KY_N, cell % KY_N, e >> 10);
    }
    const KyuMeta *x = &s->meta[p];
    m->top = x->top; m->bottom = x->bottom; m->left = x->left; m->right = x->right;
    m->n_cards = x->n_cards; m->zmin = x->zmin; m->zmax = x->zmax;
    memset(&m->placed[m->n_cards], 0, (KY_MAPCARDS - m->n_cards) * sizeof m->placed[0]);
}

/* ---------- placement ---------- */

/* Legal top-left positions of `card` in orientation o and layer (0 over,
 * 1 under) on map m, as a bit per column in pos[row]. Bitboard tests only:
 *   over:  the card covers some card and no lake square;
 *   under: it slides under some card, keeps a square in the open, and none
 *          of its own lake squares goes under a card. */
int kyu_positions(const KyuConfig *c, const KyuMap *m, int card, int o, int layer, uint32_t *pos) {
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
void kyu_place_card(const KyuConfig *c, KyuState *s, int p, int card, int o, int R, int C, int layer, int log) {
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
        if (log) kyu_push_undo(s, p, r, col);
        int old = cell_res(m, r, col);
        if (old >= 0) pool_return(s, p, old);   /* covered: back to the pool */
        int t = c->ter[card][sq], fv = c->fv[card][sq];
        kyu_set_code(m, r, col, (uint32_t)t | (uint32_t)(fv == 3 ? 1 : fv == 4 ? 2 : 0) << 4 | 1u << 6);
        bbox_add(m, r, col);
        if (is_prod(t)) newprod[np++] = r * KY_N + col;
    }
    /* New production squares take resources while the pool (as p sees it) lasts. */
    for (int k = 0; k < np; k++) {
        int r = newprod[k] / KY_N, col = newprod[k] % KY_N;
        int colour = (int)(kyu_get_code(m, r, col) & 15) - KT_PROD;
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
void kyu_recentre(KyuState *s, int p) {
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
