/* Kitsu: the network's input, what one seat knows (docs/learning.md, "Kitsu").
 *
 * Everything is seen from the seat: seats are numbered from it (0 = itself,
 * 1 = the next clockwise, ...), clans are "mine" / "theirs" and the two numeral
 * colours are swapped for an Orange seat so that the first colour is always its
 * own clan's (the rules are symmetric in the clans; a "my clan" flag is kept).
 * The seat's slots are always 6 wide, so the size is the same for 2, 4 or 6
 * players. Only fields observe_json(seat) shows are read: the seat's own hand,
 * exchange and hidden trick card, other seats' known cards and public facts.
 */
#include <assert.h>
#include <string.h>
#include "kitsu.h"
#include "../common/featw.h"

#define CFG(g) ((const KitsuConfig *)(g)->config)
#define CST(p) ((const KitsuState *)(p))

enum {
    KF_SCALARS = 1 + 3 + 1 + 3 + 4 + 11 + 8 + 1,   /* 32 */
    KF_SEAT = 1 + K_NTYPES + 4 + 1 + 1 + 1 + 1,     /* 24 per relative seat */
    KF_CARD = K_MAX_PLAYERS + K_NTYPES + 2,          /* 23 per trick place */
    KF_TOKEN = K_MAX_PLAYERS + 2,                    /* 8 per power token */
    KF_SIZE = KF_SCALARS + 2 * K_NTYPES              /* my hand, discard */
            + K_MAX_PLAYERS * KF_SEAT
            + K_MAX_TRICK * (KF_CARD + 2)            /* trick, with forced colour */
            + K_MAX_TRICK * KF_CARD + 2 + 1          /* last trick, winner, moved */
            + K_NTOKENS * KF_TOKEN
            + 2 + 2 + K_MAX_PLAYERS + 2 + K_NTOKENS + K_MAX_PLAYERS + 2
            + 3 * K_NTYPES                           /* my exchange card, gave, received */
};

int kitsu_feature_size(const BLGame *g) { (void)g; return KF_SIZE; }

/* The seat's view of a card type: numeral colours swapped for clan 1. */
static inline int rel_type(int t, int mine) {
    return (is_numeral(t) && mine) ? (t + 6) % 12 : t;
}

/* Counts by (relative) type of the cards in `set`. */
static void type_counts(BLFeatW *w, const KitsuConfig *c, uint32_t set, int mine, float scale) {
    for (int t = 0; t < K_NTYPES; t++) w->p[rel_type(t, mine)] = (float)type_count(c, set, t) * scale;
    w->p += K_NTYPES;
}

/* A played card: relative seat, type (if the seat may see it), hidden, destroyed. */
static void card(BLFeatW *w, const KitsuConfig *c, int P, int me, int mine, int seat, int id, int flags, int shown) {
    bl_fw_one_hot(w, bl_rel_seat(seat, me, P), K_MAX_PLAYERS);
    bl_fw_one_hot(w, shown ? rel_type(c->type_of[id], mine) : -1, K_NTYPES);
    bl_fw_put(w, flags & KF_HIDDEN ? 1.0f : 0.0f);
    bl_fw_put(w, flags & KF_DESTROYED ? 1.0f : 0.0f);
}

static inline int rel_clan(int clan, int mine) { return clan < 0 ? -1 : clan ^ mine; }

void kitsu_features(const BLGame *g, const void *vst, int me, float *out) {
    const KitsuConfig *c = CFG(g);
    const KitsuState *s = CST(vst);
    int P = c->players, mine = clan_of(me);
    float L = (float)(c->track_length > 0 ? c->track_length : 1);
    BLFeatW w = {out};
    /* Scalars. */
    bl_fw_put(&w, (float)mine);
    bl_fw_one_hot(&w, P / 2 - 1, 3);
    bl_fw_put(&w, L / 20.0f);
    bl_fw_put(&w, s->round / 3.0f);
    bl_fw_put(&w, s->deal_no / 3.0f);
    bl_fw_put(&w, s->trick_no / 10.0f);
    bl_fw_put(&w, s->pawn[mine] / L);
    bl_fw_put(&w, s->pawn[mine ^ 1] / L);
    bl_fw_put(&w, s->rounds_won[mine] / 2.0f);
    bl_fw_put(&w, s->rounds_won[mine ^ 1] / 2.0f);
    bl_fw_one_hot(&w, s->phase, 11);
    int cp = kitsu_current_player(g, vst);
    bl_fw_one_hot(&w, cp >= 0 ? bl_rel_seat(cp, me, P) : (cp == BL_CHANCE ? 6 : 7), 8);
    bl_fw_put(&w, bb_popcount32(s->stock) / 30.0f);
    /* My hand, the discard pile. */
    type_counts(&w, c, s->hand[me], mine, 0.25f);
    type_counts(&w, c, s->discard, mine, 0.25f);
    /* Per seat, from mine on: hand size, cards I know it holds, colour caps,
     * card put down for the exchange, leader, forced, holds a recovered card. */
    for (int r = 0; r < K_MAX_PLAYERS; r++) {
        if (r >= P) { memset(w.p, 0, KF_SEAT * sizeof(float)); w.p += KF_SEAT; continue; }
        int p = (me + r) % P;
        bl_fw_put(&w, bb_popcount32(s->hand[p]) / 8.0f);
        for (int t = 0; t < K_NTYPES; t++)
            w.p[rel_type(t, mine)] = p == me ? 0.0f : s->known[me][p][t] * 0.5f;
        w.p += K_NTYPES;
        for (int col = 0; col < 2; col++) {
            int cap = s->colour_cap[p][col ^ mine];
            bl_fw_put(&w, cap != NO_CAP ? 1.0f : 0.0f);
            bl_fw_put(&w, cap != NO_CAP ? cap / 8.0f : 0.0f);
        }
        bl_fw_put(&w, s->exchange_card[p] >= 0 ? 1.0f : 0.0f);
        bl_fw_put(&w, s->leader == p ? 1.0f : 0.0f);
        bl_fw_put(&w, s->forced_seat == p ? 1.0f : 0.0f);
        bl_fw_put(&w, s->recover_seat == p ? 1.0f : 0.0f);
    }
    /* The current trick: each place, then the colour it was forced to. */
    for (int i = 0; i < K_MAX_TRICK; i++) {
        if (i >= s->n_played) { memset(w.p, 0, (KF_CARD + 2) * sizeof(float)); w.p += KF_CARD + 2; continue; }
        int seat = s->trick_seat[i], flags = s->trick_flags[i];
        card(&w, c, P, me, mine, seat, s->trick_card[i], flags, !(flags & KF_HIDDEN) || seat == me);
        bl_fw_one_hot(&w, rel_clan(s->trick_forced[i], mine), 2);
    }
    /* The last trick (all of it shown), who won it, how far it moved. */
    for (int i = 0; i < K_MAX_TRICK; i++) {
        if (i >= s->prev_n) { memset(w.p, 0, KF_CARD * sizeof(float)); w.p += KF_CARD; continue; }
        card(&w, c, P, me, mine, s->prev_seat[i], s->prev_card[i], s->prev_flags[i], 1);
    }
    bl_fw_one_hot(&w, rel_clan(s->prev_winner, mine), 2);
    bl_fw_put(&w, s->prev_moved / L);
    /* Power tokens: holder, used this round, played in this trick. */
    for (int k = 0; k < K_NTOKENS; k++) {
        bl_fw_one_hot(&w, bl_rel_seat(s->token_holder[k], me, P), K_MAX_PLAYERS);
        bl_fw_put(&w, (float)(s->tokens_used >> k & 1));
        bl_fw_put(&w, (float)(s->tokens_played >> k & 1));
    }
    bl_fw_one_hot(&w, rel_clan(s->plus3_side, mine), 2);
    bl_fw_one_hot(&w, s->forced_seat >= 0 ? rel_clan(s->forced_colour, mine) : -1, 2);
    bl_fw_one_hot(&w, bl_rel_seat(s->forced_seat, me, P), K_MAX_PLAYERS);
    int gaining = s->phase == KP_TOKEN_PICK || s->phase == KP_TOKEN_SEAT;
    bl_fw_one_hot(&w, gaining ? rel_clan(s->gain_clan, mine) : -1, 2);
    bl_fw_one_hot(&w, s->phase == KP_TOKEN_SEAT ? s->gain_token : -1, K_NTOKENS);
    int dealing = s->phase == KP_DEAL;
    bl_fw_one_hot(&w, dealing ? bl_rel_seat(s->deal_to, me, P) : -1, K_MAX_PLAYERS);
    bl_fw_put(&w, dealing ? s->deal_left / 30.0f : 0.0f);
    bl_fw_put(&w, dealing && s->deal_refill ? 1.0f : 0.0f);
    /* My own exchange: the card I put down, what I gave and received. */
    int ex = s->exchange_card[me];
    bl_fw_one_hot(&w, ex >= 0 ? rel_type(c->type_of[ex], mine) : -1, K_NTYPES);
    bl_fw_one_hot(&w, s->gave[me] >= 0 ? rel_type(s->gave[me], mine) : -1, K_NTYPES);
    bl_fw_one_hot(&w, s->recv[me] >= 0 ? rel_type(s->recv[me], mine) : -1, K_NTYPES);
    assert(w.p - out == KF_SIZE);
}
