/* Kyūshū: the network's input, what one seat knows (docs/learning.md, "Kyūshū").
 *
 * The exact observation tensor is 115,107 floats, mostly 32 x 32 planes per
 * map; here every map is summarised (terrain, resources, score rows) and only
 * the seat's own map keeps a coarse layout: counts per 4 x 4 block of the grid.
 * Seats are numbered from the seat (0 itself) in 5 slots. What a seat may not
 * know: other hands, the draw pile, another seat's Map turn before the reveal
 * (its map is read as it was before that turn, the pool as the seat's own turn
 * left it), and another seat's pending choices; only what observe_json(seat)
 * shows is read.
 */
#include <assert.h>
#include <string.h>
#include "kyushu.h"
#include "../common/bitboard.h"
#include "../common/featw.h"

#define CFG(g) ((const KyuConfig *)(g)->config)
#define CST(p) ((const KyuState *)(p))

enum {
    BOXES = KY_MAXP + 2,               /* box slots: seats' boxes (relative), 2p middle left, right */
    YF_GLOBAL = 4 + 3 + (KP_OVER + 1) + (KY_MAXP + 2) + 1 + KC_N + 1 + 1
              + (KY_MAXP + BOXES + 4) + (2 * KY_MAXP + KC_N)
              + (2 + BOXES + 4 + 4 + 2 + 3 + KC_N + KT_N),
    YF_SEAT = KY_NPLANES + KC_N + 1 + 1 + 1 + 2 + 9 + 2 * KY_NMF + 1 + 1 + KY_NPROV + 2,
    YF_CARD = 1 + BOXES + KY_MAXP + 1 + KY_MAXP,
    YF_BLOCKS = (KY_N / 4) * (KY_N / 4),
    YF_BLOCK = 11,
    YF_SIZE = YF_GLOBAL + KY_MAXP * YF_SEAT + KY_NCARDS * YF_CARD + KY_MAXP * (KY_NMF + 1)
            + KY_NPROV + YF_BLOCKS * YF_BLOCK
};

int kyushu_feature_size(const BLGame *g) { (void)g; return YF_SIZE; }

static int box_slot(const KyuConfig *c, int b, int me) {
    if (b < 0) return -1;
    if (b < c->players) return bl_rel_seat(b, me, c->players);
    return KY_MAXP + (b - c->players);
}

/* Squares of plane pl on map m (only the rows its cards cover can have any). */
static int plane_count(const KyuMap *m, const uint32_t *pl) {
    int n = 0;
    for (int r = m->top; m->n_cards && r <= m->bottom; r++) n += bb_popcount32(pl[r]);
    return n;
}

/* Squares of plane pl in the 4 x 4 block (bi, bj). */
static inline int block_count(const uint32_t *pl, int bi, int bj) {
    int n = 0;
    for (int r = 4 * bi; r < 4 * bi + 4; r++) n += bb_popcount32(pl[r] >> (4 * bj) & 15u);
    return n;
}

void kyushu_features(const BLGame *g, const void *vst, int me, float *out) {
    const KyuConfig *c = CFG(g);
    const KyuState *s = CST(vst);
    int P = c->players;
    BLFeatW w = {out};
    memset(out, 0, YF_SIZE * sizeof(float));
    /* The maps as this seat sees them: another's Map turn in progress undone. */
    KyuMap view[KY_MAXP];
    const KyuMap *maps[KY_MAXP];
    real_maps(s, maps);
    for (int p = 0; p < P; p++)
        if (p != me && s->in_map && s->undo_n[p] > 0) {
            memcpy(&view[p], &s->map[p], sizeof view[p]);
            kyu_revert_map(s, p, &view[p]);
            maps[p] = &view[p];
        }
    /* Global. Another seat's steps in its Map turn are private: "map" for all of them. */
    int cp = kyushu_current_player(g, vst);
    int in_turn = s->phase >= KP_MAP && s->phase <= KP_MAP_AFTER;
    bl_fw_one_hot(&w, P - 2, 4);
    bl_fw_put(&w, (float)c->side);
    bl_fw_put(&w, (float)c->most_fewest);
    bl_fw_put(&w, (float)c->travelers);
    bl_fw_one_hot(&w, in_turn && me != s->to_move ? KP_MAP : s->phase, KP_OVER + 1);
    bl_fw_one_hot(&w, cp >= 0 ? bl_rel_seat(cp, me, P) : (cp == BL_CHANCE ? KY_MAXP : KY_MAXP + 1), KY_MAXP + 2);
    bl_fw_put(&w, s->round / 12.0f);
    for (int k = 0; k < KC_N; k++) bl_fw_put(&w, (s->in_map ? pool_avail(s, me, k) : s->pool[k]) / 14.0f);
    bl_fw_put(&w, bb_popcount64(s->pile) / 60.0f);
    bl_fw_put(&w, (float)s->in_map);
    /* A take in progress (public): who, from which box, which option. */
    if ((s->phase == KP_PAY || s->phase == KP_REPLACE) && s->pend_box >= 0) {
        w.p[bl_rel_seat(s->to_move, me, P)] = 1.0f;
        w.p[KY_MAXP + box_slot(c, s->pend_box, me)] = 1.0f;
        w.p[KY_MAXP + BOXES + s->pend_kind] = 1.0f;
    }
    w.p += KY_MAXP + BOXES + 4;
    /* A traveler being sent (public): by whom, to whom, and the colour once chosen. */
    if (s->phase == KP_TRAV_RES || s->phase == KP_TRAV_SPRING) {
        w.p[bl_rel_seat(s->to_move, me, P)] = 1.0f;
        w.p[KY_MAXP + bl_rel_seat(trav_host(c, s->to_move, s->trav_side), me, P)] = 1.0f;
        if (s->phase == KP_TRAV_SPRING) {
            int k = cell_res(&s->map[(int)s->to_move], s->trav_res / KY_N, s->trav_res % KY_N);
            if (k >= 0) w.p[2 * KY_MAXP + k] = 1.0f;
        }
    }
    w.p += 2 * KY_MAXP + KC_N;
    /* My own turn, when I am to move: placed, terraformed, the box and option taken,
     * orientation, layer, the first discarded square, discarded colours, the tile. */
    if (cp == me) {
        float *q = w.p;
        q[0] = (float)(s->placed_now >> me & 1);
        q[1] = (float)(s->tf_used >> me & 1);
        q += 2;
        int b = box_slot(c, s->pend_box, me);
        if (b >= 0) q[b] = 1.0f;
        q += BOXES;
        if (s->pend_kind >= 0 && s->pend_kind < 4) q[s->pend_kind] = 1.0f;
        q += 4;
        if (s->pend_orient >= 0) q[s->pend_orient] = 1.0f;
        q += 4;
        if (s->pend_layer >= 0) q[s->pend_layer] = 1.0f;
        q += 2;
        if (s->pend_res1 >= 0) {
            q[0] = 1.0f;
            q[1] = (s->pend_res1 / KY_N) / 32.0f;
            q[2] = (s->pend_res1 % KY_N) / 32.0f;
        }
        q += 3;
        for (int i = 0; i < 2; i++) if (s->pend_col[i] >= 0) q[(int)s->pend_col[i]] += 1.0f;
        q += KC_N;
        if (s->pend_tile >= 0) q[(int)s->pend_tile] = 1.0f;
    }
    w.p += 2 + BOXES + 4 + 4 + 2 + 3 + KC_N + KT_N;
    /* Per seat, mine first: its map as I see it (terrain, resources, tiles, travelers,
     * cards, extent), its score rows and Most/Fewest metrics, hand size, travelers held
     * and placed on it, its Starting Province. */
    KyuScore sc[KY_MAXP];
    kyu_score_all(c, s, maps, sc);
    int hosted[KY_MAXP] = {0}, owned[KY_MAXP] = {0};
    for (int i = 0; i < s->n_trav; i++) { hosted[(int)s->trav[i].host]++; owned[(int)s->trav[i].owner]++; }
    for (int r = 0; r < KY_MAXP; r++, w.p += YF_SEAT) {
        if (r >= P) continue;
        int p = (me + r) % P;
        const KyuMap *m = maps[p];
        float *q = w.p;
        for (int t = 0; t < KY_NPLANES; t++) *q++ = plane_count(m, m->ter[t]) / 10.0f;
        for (int k = 0; k < KC_N; k++) *q++ = plane_count(m, m->res[k]) / 5.0f;
        *q++ = plane_count(m, m->tile) / 5.0f;
        *q++ = plane_count(m, m->trav) / 3.0f;
        *q++ = m->n_cards / 13.0f;
        *q++ = m->n_cards ? (m->bottom - m->top + 1) / 16.0f : 0.0f;
        *q++ = m->n_cards ? (m->right - m->left + 1) / 16.0f : 0.0f;
        const KyuScore *x = &sc[p];
        int rows[9] = {x->springs, x->forests, x->towns, x->lakes, x->factories, x->travelers,
                       x->most_fewest, x->total, x->fallows};
        for (int i = 0; i < 9; i++) *q++ = rows[i] / (i == 7 ? 100.0f : 20.0f);
        for (int i = 0; i < 2; i++)
            for (int k = 0; k < KY_NMF; k++) *q++ = x->metric[i][k] / 20.0f;
        *q++ = bb_popcount64(s->hand[p]) / 5.0f;
        *q++ = s->trav_left[p] / 3.0f;
        if (s->province[p] >= 0) q[(int)s->province[p]] = 1.0f;
        q += KY_NPROV;
        *q++ = hosted[p] / 3.0f;
        *q++ = owned[p] / 3.0f;
        assert(q - w.p == YF_SEAT);
    }
    /* Each Map card: in my hand, in a pick box, selected by, discarded, on a map. */
    for (int b = 0; b < c->boxes; b++)
        if (s->box[b] >= 0) w.p[s->box[b] * YF_CARD + 1 + box_slot(c, b, me)] = 1.0f;
    for (int r = 0; r < P; r++) {
        int p = (me + r) % P;
        if (s->selected[p] >= 0 && s->selected[p] < KY_NCARDS)
            w.p[s->selected[p] * YF_CARD + 1 + BOXES + r] = 1.0f;
        for (int i = 0; i < maps[p]->n_cards; i++) {
            int card = maps[p]->placed[i].card;
            if (card < KY_NCARDS) w.p[card * YF_CARD + 2 + BOXES + KY_MAXP + r] = 1.0f;
        }
    }
    for (int k = 0; k < KY_NCARDS; k++) {
        if (s->hand[me] >> k & 1) w.p[k * YF_CARD] = 1.0f;
        if (s->discarded >> k & 1) w.p[k * YF_CARD + 1 + BOXES + KY_MAXP] = 1.0f;
    }
    w.p += KY_NCARDS * YF_CARD;
    /* Most/Fewest cards, by the pair they sit between (from mine on), and the
     * Starting Provinces on offer. */
    for (int r = 0; r < KY_MAXP; r++, w.p += KY_NMF + 1) {
        if (r >= P) continue;
        int i = (me + r) % P;
        if (s->mf_card[i] < 0) continue;
        w.p[(int)s->mf_card[i]] = 1.0f;
        w.p[KY_NMF] = (float)s->mf_side[i];
    }
    for (int k = 0; k < KY_NPROV; k++) bl_fw_put(&w, (float)(s->offered >> k & 1));
    /* My map's layout: per 4 x 4 block of the grid, squares covered, each terrain
     * kind (productions and factories of any colour together), resources, tiles,
     * travelers. */
    const KyuMap *m = maps[me];
    static const int PLANE[6] = {KT_LAKE, KT_FOREST, KT_TOWN, KT_SPRING, KT_FALLOW, -1};
    for (int bi = 0; bi < KY_N / 4; bi++)
        for (int bj = 0; bj < KY_N / 4; bj++, w.p += YF_BLOCK) {
            /* Blocks outside the cards' extent are empty (zeroed above). */
            if (!m->n_cards || 4 * bi > m->bottom || 4 * bi + 3 < m->top
                || 4 * bj > m->right || 4 * bj + 3 < m->left) continue;
            float *q = w.p;
            *q++ = block_count(m->occ, bi, bj) / 16.0f;
            for (int i = 0; PLANE[i] >= 0; i++) *q++ = block_count(m->ter[PLANE[i] - 1], bi, bj) / 16.0f;
            int prod = 0, fact = 0, res = 0;
            for (int k = 0; k < KC_N; k++) {
                prod += block_count(m->ter[KT_PROD + k - 1], bi, bj);
                fact += block_count(m->ter[KT_FACT + k - 1], bi, bj);
                res += block_count(m->res[k], bi, bj);
            }
            *q++ = prod / 16.0f;
            *q++ = fact / 16.0f;
            *q++ = res / 16.0f;
            *q++ = block_count(m->tile, bi, bj) / 16.0f;
            *q++ = block_count(m->trav, bi, bj) / 16.0f;
            assert(q - w.p == YF_BLOCK);
        }
    assert(w.p - out == YF_SIZE);
}
