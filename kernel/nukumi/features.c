/* Nukumi: the network's input, what one seat knows (docs/learning.md, "Nukumi").
 *
 * Seats are numbered from the seat (0 itself) in 4 slots, so the size is the
 * same for every configuration. Only what observe_json(seat) shows is read:
 * its own Helper hand, never another's nor the decks' contents, and of the
 * pending effects only the arguments the observation names.
 */
#include <assert.h>
#include <string.h>
#include "nukumi.h"
#include "../common/featw.h"
#include "../common/bitboard.h"

#define CST(p) ((const NkState *)(p))

enum {
    NF_GLOBAL = 4 + 3 + 1 + 1 + 16 + 6 + 4 + 4 + 1 + NK_NRES + 2 + 1 + 6,
    NF_ROUNDS = NK_ROUNDS * NK_NROUND,
    NF_HELPER = 8,                                   /* per Helper card */
    NF_CARD = 7,                                     /* per action card */
    NF_SQUARE = NK_NBLD + NK_MAXP + 1 + NK_MAXP + 1 + 1 + 1 + 1,
    NF_PAY = 4 + NK_NSPOT + NK_NBLD + NK_NCARD,      /* what is being paid for */
    NF_FRAME = EF_N + 2,
    NF_SEAT = NK_NPART + 6 + 3 * NK_NRES + 1 + (NK_NSPOT + 1 + NK_CARD_SLOTS) + 1,
    NF_SIZE = NF_GLOBAL + NF_ROUNDS + NK_NHELP * NF_HELPER + NK_NCARD * NF_CARD
            + NK_NSQ * NF_SQUARE + NK_NBLD + NF_PAY + 4 * NF_FRAME + NK_MAXP * NF_SEAT
};

int nk_feature_size(const BLGame *g) { (void)g; return NF_SIZE; }

void nk_features(const BLGame *g, const void *vst, int me, float *out) {
    const NkConfig *c = NK_CFG(g);
    const NkState *s = CST(vst);
    int P = c->players;
    BLFeatW w = {out};
    memset(out, 0, NF_SIZE * sizeof(float));
    /* Global: configuration, round, phase (the two set-up phases look alike), seats. */
    bl_fw_one_hot(&w, P - 1, 4);
    bl_fw_one_hot(&w, c->solo, 3);
    bl_fw_put(&w, (float)c->advanced);
    bl_fw_put(&w, s->round / 5.0f);
    bl_fw_one_hot(&w, s->phase <= NP_SETUP_PARTNER ? 0 : s->phase - 1, 16);
    int cp = nk_current_player(g, vst);
    bl_fw_one_hot(&w, cp >= 0 ? bl_rel_seat(cp, me, P) : (cp == BL_CHANCE ? 4 : 5), 6);
    int setup = s->phase == NP_OVER || s->phase <= NP_SETUP_PARTNER;
    bl_fw_one_hot(&w, setup ? -1 : bl_rel_seat(s->to_move, me, P), 4);
    bl_fw_one_hot(&w, bl_rel_seat(s->start_holder, me, P), 4);
    bl_fw_put(&w, (float)s->start_down);
    for (int r = 0; r < NK_NRES; r++) bl_fw_put(&w, s->pool[r] / 10.0f);
    bl_fw_put(&w, (bb_popcount64(s->deck) + s->n_hbot) / 40.0f);
    bl_fw_put(&w, (bb_popcount32(s->cdeck) + s->n_cbot) / 12.0f);
    bl_fw_put(&w, (float)s->rode);
    for (int f = 0; f < 6; f++) bl_fw_put(&w, (float)(s->nuku_cubes >> f & 1));
    /* Round cards dealt, by round. */
    for (int i = 0; i < NK_ROUNDS; i++) bl_fw_one_hot(&w, i < s->n_round_cards ? s->round_card[i] : -1, NK_NROUND);
    /* Each Helper: in my hand, discarded, played by (relative seat), in the face-up
     * row (its slot), under the deck (its place). */
    for (int h = 0; h < NK_NHELP; h++, w.p += NF_HELPER) {
        uint64_t bit = bb_bit64(h);
        w.p[0] = (s->hand[me] & bit) ? 1.0f : 0.0f;
        w.p[1] = (s->discard & bit) ? 1.0f : 0.0f;
        for (int p = 0; p < P; p++) if (s->played[p] & bit) w.p[2 + bl_rel_seat(p, me, P)] = 1.0f;
        for (int i = 0; i < 3; i++) if (s->hrow[i] == h) w.p[6] = (i + 1) / 3.0f;
        for (int i = 0; i < s->n_hbot; i++) if (s->hbot[i] == h) w.p[7] = (i + 1) / 10.0f;
    }
    /* Each action card: face up, held by (relative seat), in the row, under the deck. */
    for (int k = 0; k < NK_NCARD; k++, w.p += NF_CARD) {
        w.p[0] = (s->cards_open >> k & 1) ? 1.0f : 0.0f;
        for (int p = 0; p < P; p++)
            for (int j = 0; j < NK_CARD_SLOTS; j++) if (s->card[p][j] == k) w.p[1 + bl_rel_seat(p, me, P)] = 1.0f;
        for (int i = 0; i < 3; i++) if (s->crow[i] == k) w.p[5] = (i + 1) / 3.0f;
        for (int i = 0; i < s->n_cbot; i++) if (s->cbot[i] == k) w.p[6] = (i + 1) / 10.0f;
    }
    /* Each square: building and owner (or an NPC's cube), pioneers, NPCs, bonus used,
     * Nukumaru, a Chasing cube. */
    for (int x = 0; x < NK_NSQ; x++, w.p += NF_SQUARE) {
        float *q = w.p;
        if (s->built >> x & 1) {
            if (s->bld_type[x] >= 0) {
                q[s->bld_type[x]] = 1.0f;
                int o = bl_rel_seat(s->bld_owner[x], me, P);
                if (o >= 0) q[NK_NBLD + o] = 1.0f;
            } else q[NK_NBLD + NK_MAXP] = 1.0f;
        }
        for (int p = 0; p < P; p++) if (s->pos[p] == x) q[NK_NBLD + NK_MAXP + 1 + bl_rel_seat(p, me, P)] = 1.0f;
        for (int i = P; i < c->pieces; i++) if (s->pos[i] == x) q[NK_NBLD + 2 * NK_MAXP + 1] += 1.0f;
        q[NK_NBLD + 2 * NK_MAXP + 2] = (s->bonus_used >> x & 1) ? 1.0f : 0.0f;
        q[NK_NBLD + 2 * NK_MAXP + 3] = s->nuku == x ? 1.0f : 0.0f;
        for (int f = 0; f < 6; f++) if ((s->nuku_cubes >> f & 1) && c->nuku_sq[f] == x) q[NK_NBLD + 2 * NK_MAXP + 4] = 1.0f;
    }
    for (int b = 0; b < NK_NBLD; b++) bl_fw_put(&w, s->bld_left[b] / 4.0f);
    /* What is being paid for, as the observation names it: a spot, a building (by
     * the action or an effect: named alike), the partner action, a card. */
    if (s->phase == NP_PAY) {
        int k = s->pend_kind, i = s->pend_idx;
        float *q = w.p;
        if (k == PK_SPOT) { q[0] = 1.0f; q[4 + i] = 1.0f; }
        else if (k == PK_BUILD || k == PK_EFFECT_BUILD) { q[1] = 1.0f; q[4 + NK_NSPOT + i] = 1.0f; }
        else if (k == PK_PARTNER) q[2] = 1.0f;
        else {
            q[3] = 1.0f;
            int card = s->card[(int)s->to_move][i];
            if (card >= 0) q[4 + NK_NSPOT + NK_NBLD + card] = 1.0f;
        }
    }
    w.p += NF_PAY;
    /* The pending effects, top first: the op and the arguments the observation names. */
    for (int i = 0; i < 4; i++, w.p += NF_FRAME) {
        int at = s->sp - 1 - i;
        if (at < 0) continue;
        const NkFrame *f = &s->stack[at];
        w.p[f->op] = 1.0f;
        if (f->op == EF_GAIN) { w.p[EF_N] = f->a / 5.0f; w.p[EF_N + 1] = f->b / 5.0f; }
        else if (f->op != EF_NUKU && f->op != EF_TAKE) w.p[EF_N] = f->a / 5.0f;
    }
    /* Per seat, mine first: partner, coins and tracks, bag, drawn, spent, hand size,
     * spots used, passed. */
    for (int r = 0; r < NK_MAXP; r++, w.p += NF_SEAT) {
        if (r >= P) continue;
        int p = (me + r) % P;
        float *q = w.p;
        if (s->partner[p] >= 0 && s->partner[p] < NK_NPART) q[s->partner[p]] = 1.0f;
        q += NK_NPART;
        q[0] = s->coins[p] / 30.0f;
        q[1] = s->fun[p] / 5.0f;
        q[2] = s->oishi[p] / 5.0f;
        q[3] = s->cubes[p] / 10.0f;
        q[4] = nk_draw_size(c, s, p) / 10.0f;
        q[5] = (float)(s->passed >> p & 1);
        q += 6;
        for (int k = 0; k < NK_NRES; k++) {
            q[k] = s->bag[p][k] / 10.0f;
            q[NK_NRES + k] = s->drawn[p][k] / 5.0f;
            q[2 * NK_NRES + k] = s->spent[p][k] / 5.0f;
        }
        q += 3 * NK_NRES;
        *q++ = bb_popcount64(s->hand[p]) / 5.0f;
        for (int k = 0; k < NK_NSPOT + 1 + NK_CARD_SLOTS; k++) *q++ = (float)(s->used[p] >> k & 1);
        NkScore sc;
        nk_score(c, s, p, &sc);
        *q++ = sc.total / 100.0f;
        assert(q - w.p == NF_SEAT);
    }
    assert(w.p - out == NF_SIZE);
}
