/* Kyushu: the flow of a game (setup chance, Selection and Map phases, the
 * reveal that settles the pool, travelers after round 6), the legal actions
 * and their effects, chance, and the function table. Placing a card on a map:
 * map.c; scoring: score.c. */
#include <string.h>
#include "kyushu.h"
#include "../common/bitboard.h"

#define CFG(g) ((const KyuConfig *)(g)->config)
#define ST(p) ((KyuState *)(p))
#define CST(p) ((const KyuState *)(p))

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

int kyushu_current_player(const BLGame *g, const void *vst) {
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
    return !(s->tf_used >> p & 1) && kyu_count_res(m) >= 2 && kyu_count_plane(m, m->ter[KT_FALLOW - 1]) >= 1;
}

/* Orientation/layer choices with at least one legal position (bit 2*o+layer). */
int kyu_orient_options(const KyuConfig *c, const KyuState *s, int p) {
    int card = s->selected[p], mask = 0;
    uint32_t pos[KY_N];
    if (card < 0) return 0;
    for (int k = 0; k < 8; k++)
        if (kyu_positions(c, &s->map[p], card, k >> 1, k & 1, pos)) mask |= 1 << k;
    return mask;
}

/* The settled pool of colour k: the phase's start plus what every seat
 * returned, minus what the claims took (see settle_pool). */
int kyu_settled_pool(const KyuConfig *c, const KyuState *s, int k) {
    int n = s->pool_start[k];
    for (int p = 0; p < c->players; p++) n -= s->delta[p][k];
    return n > 0 ? n : 0;
}

/* Resources of colour k on the maps that the reveal will take back (the
 * seats together took more than the pool held). */
int kyu_overdrawn(const KyuConfig *c, const KyuState *s, int k) {
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

void kyu_end_map_turn(const KyuConfig *c, KyuState *s) {
    s->steps++;
    if (s->steps >= c->players) { end_round(c, s); return; }
    s->to_move = (int8_t)((s->to_move + 1) % c->players);
    start_map_turn(c, s);
}

static void start_map_turn(const KyuConfig *c, KyuState *s) {
    int p = s->to_move;
    kyu_save_meta(s, p);
    s->undo_n[p] = 0;
    s->phase = KP_MAP;
    if (!kyu_orient_options(c, s, p) && !can_terraform(s, p)) kyu_end_map_turn(c, s);  /* safety valve */
}

void kyu_begin_map(const KyuConfig *c, KyuState *s) {
    for (int p = 0; p < c->players; p++) kyu_recentre(s, p);
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
        kyu_begin_map(c, s);
        return;
    }
    s->steps = 0;
    s->to_move = 0;
    s->phase = KP_SELECT;
}

static void after_selection(const KyuConfig *c, KyuState *s) {
    s->steps++;
    s->pend_box = s->pend_kind = -1;
    if (s->steps >= c->players) { kyu_begin_map(c, s); return; }
    s->to_move = (int8_t)((s->to_move + 1) % c->players);
    s->phase = KP_SELECT;
}

/* After placing or terraforming: what remains of the Map turn. */
static void continue_map_turn(const KyuConfig *c, KyuState *s) {
    int p = s->to_move;
    if (s->placed_now >> p & 1) {
        if (can_terraform(s, p)) s->phase = KP_MAP_AFTER;
        else kyu_end_map_turn(c, s);
    } else {
        s->phase = KP_MAP;
        if (!kyu_orient_options(c, s, p)) kyu_end_map_turn(c, s);   /* safety valve */
    }
}

static void kyu_next_trav(const KyuConfig *c, KyuState *s) {
    int sides = c->players == 2 ? 1 : 2;
    for (;;) {
        /* advance (steps, side) */
        s->trav_side++;
        if (s->trav_side >= sides) { s->trav_side = 0; s->steps++; }
        if (s->steps >= c->players) { after_round_six(c, s); return; }
        int p = c->players - 1 - s->steps, h = trav_host(c, p, s->trav_side);
        if (s->trav_left[p] <= 0 || kyu_count_res(&s->map[p]) == 0) continue;
        uint32_t fr[KY_N];
        kyu_free_springs(&s->map[h], fr);
        int any = 0;
        for (int r = 0; r < KY_N; r++) any |= fr[r] != 0;
        if (!any) continue;
        s->to_move = (int8_t)p;
        s->phase = KP_TRAV_RES;
        return;
    }
}

/* ---------- legal actions ---------- */

int kyushu_legal_actions(const BLGame *g, const void *vst, int32_t *out) {
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
        if (kyu_count_res(&s->map[p]) > 0)
            for (int b = 0; b < c->boxes; b++)
                if (s->box[b] >= 0) out[n++] = KA_PAID + b;
        break;
    }
    case KP_PAY: case KP_TF_RES1: case KP_TF_RES2: {
        n = kyu_res_cells(&s->map[p], out);
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
        int mask = kyu_orient_options(c, s, p);
        for (int k = 0; k < 8; k++)
            if (mask >> k & 1) out[n++] = KA_ORIENT + k;
        if (can_terraform(s, p)) out[n++] = KA_TERRAFORM;
        break;
    }
    case KP_POS: {
        uint32_t pos[KY_N];
        kyu_positions(c, &s->map[p], s->selected[p], s->pend_orient, s->pend_layer, pos);
        for (int r = 0; r < KY_N; r++)
            for (uint32_t x = pos[r]; x;) out[n++] = KA_CELL + r * KY_N + bb_pop_lsb32(&x);
        break;
    }
    case KP_TF_COLOUR:
        if (s->pend_col[0] < s->pend_col[1]) { out[n++] = KA_COLOUR + s->pend_col[0]; out[n++] = KA_COLOUR + s->pend_col[1]; }
        else { out[n++] = KA_COLOUR + s->pend_col[1]; out[n++] = KA_COLOUR + s->pend_col[0]; }
        break;
    case KP_TF_FALLOW:
        n = kyu_cells_of(&s->map[p], s->map[p].ter[KT_FALLOW - 1], out);
        break;
    case KP_MAP_AFTER:
        out[n++] = KA_TERRAFORM;
        out[n++] = KA_END;
        break;
    case KP_TRAV_RES:
        n = kyu_res_cells(&s->map[p], out);
        out[n++] = KA_END;
        break;
    case KP_TRAV_SPRING: {
        const KyuMap *h = &s->map[trav_host(c, p, s->trav_side)];
        uint32_t fr[KY_N];
        kyu_free_springs(h, fr);
        n = kyu_cells_of(h, fr, out);
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

void kyushu_apply(const BLGame *g, void *vst, int32_t a) {
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
        kyu_place_card(c, s, p, card, 0, KY_N / 2 - 1, KY_N / 2 - 2, 0, 0);
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
        kyu_place_card(c, s, p, s->selected[p], s->pend_orient, cell / KY_N, cell % KY_N, s->pend_layer, 1);
        s->placed_now |= (uint8_t)(1u << p);
        s->pend_orient = s->pend_layer = -1;
        continue_map_turn(c, s);
        return;
    }
    case KP_TF_RES1: case KP_TF_RES2: {
        int cell = a - KA_CELL, r = cell / KY_N, col = cell % KY_N;
        KyuMap *m = &s->map[p];
        int k = cell_res(m, r, col);
        kyu_push_undo(s, p, r, col);
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
        kyu_push_undo(s, p, r, col);
        uint32_t code = kyu_get_code(m, r, col);
        kyu_set_code(m, r, col, (code & ~15u) | (uint32_t)s->pend_tile | 1u << 7);
        s->pend_res1 = -1;
        s->pend_col[0] = s->pend_col[1] = s->pend_tile = -1;
        continue_map_turn(c, s);
        return;
    }
    case KP_MAP_AFTER:
        if (a == KA_TERRAFORM) { s->phase = KP_TF_RES1; return; }
        kyu_end_map_turn(c, s);
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

/* ---------- chance ---------- */

int kyushu_chance_outcomes(const BLGame *g, const void *vst, int32_t *acts, double *probs) {
    int n = kyushu_legal_actions(g, vst, acts);
    for (int i = 0; i < n; i++) probs[i] = 1.0 / n;
    return n;
}

int32_t kyushu_sample_chance(const BLGame *g, void *vst) {
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

/* ---------- the function table ---------- */

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
    NULL,                 /* rollout_action: uniform */
    kyushu_feature_size,
    kyushu_features,
};
