/* Kitsu: a position as one seat knows it at a real table (Game.position), at
 * one of the players' card-play decisions. The vector is built, and names
 * checked, by position_params in py/boardlab/games/kitsu.py; this checks the
 * facts against the deck and each other, then deals what the seat cannot see
 * at random with the state's seed.
 *
 * Vector (int32; V the seat):
 *   [0] V   [1] leader   [2,3] pawns Blue, Orange   [4,5] rounds won
 *   [6..10] per token: -1 available, -2 used this round, else holder seat
 *   then players x hand size (V's entry is ignored: V's hand counts rule)
 *   then 15 x V's hand, 15 x discard pile, 15 x last trick (within the discard),
 *   then players x 15: cards V knows to be in each other hand,
 *   then n (cards in the current trick) and per card, in play order:
 *   type (-1 = another seat's hidden card), hidden, destroyed, token (-1), +3 side (-1)
 */
#include <stdio.h>
#include <string.h>
#include "kitsu.h"

#define CFG(g) ((const KitsuConfig *)(g)->config)
#define ST(p) ((KitsuState *)(p))

#define SETUP_FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

int kitsu_setup(const BLGame *g, void *vst, uint64_t seed, const int32_t *d, int n, char *err, int errlen) {
    const KitsuConfig *c = CFG(g);
    KitsuState *s = ST(vst);
    int P = c->players;
    int fixed = 11 + P + 3 * K_NTYPES + P * K_NTYPES;
    if (n < fixed + 1) SETUP_FAIL("position: expected at least %d numbers, got %d", fixed + 1, n);
    int ntr = d[fixed];
    if (ntr < 0 || ntr >= c->trick_size) SETUP_FAIL("trick: a trick in progress has 0 to %d cards, got %d", c->trick_size - 1, ntr);
    if (n != fixed + 1 + 5 * ntr) SETUP_FAIL("position: expected %d numbers, got %d", fixed + 1 + 5 * ntr, n);
    int v = d[0], leader = d[1];
    if (v < 0 || v >= P) SETUP_FAIL("seat must be 0..%d, got %d", P - 1, v);
    if (leader < 0 || leader >= P) SETUP_FAIL("leader must be 0..%d, got %d", P - 1, leader);
    kitsu_init(g, vst, seed);
    s->stock = 0;
    for (int clan = 0; clan < 2; clan++) {
        if (d[2 + clan] < 0 || d[2 + clan] >= c->track_length)
            SETUP_FAIL("pawns: %s must be 0..%d (reaching %d ends the round), got %d", K_CLAN_NAME[clan],
                       c->track_length - 1, c->track_length, d[2 + clan]);
        if (d[4 + clan] < 0 || d[4 + clan] > 1)
            SETUP_FAIL("rounds_won: %s must be 0 or 1 while the game goes on, got %d", K_CLAN_NAME[clan], d[4 + clan]);
        s->pawn[clan] = (int8_t)d[2 + clan];
        s->rounds_won[clan] = (int8_t)d[4 + clan];
    }
    s->round = (int8_t)(s->rounds_won[0] + s->rounds_won[1] + 1);
    s->deal_no = 1;
    for (int k = 0; k < K_NTOKENS; k++) {
        int h = d[6 + k];
        if (h == -2) s->tokens_used |= (uint8_t)(1u << k);
        else if (h >= 0 && h < P) {
            if (clan_holds_token(c, s, clan_of(h))) SETUP_FAIL("tokens: the %s clan holds two tokens (at most one per team)", K_CLAN_NAME[clan_of(h)]);
            s->token_holder[k] = (int8_t)h;
        } else if (h != -1) SETUP_FAIL("tokens: %s must be available, used or held by a seat, got %d", K_TOKEN_NAME[k], h);
    }
    const int32_t *sizes = d + 11, *mine = sizes + P, *disc = mine + K_NTYPES, *last = disc + K_NTYPES;
    const int32_t *known = last + K_NTYPES, *tr = known + P * K_NTYPES + 1;
    uint32_t pool = c->all_cards;
    for (int t = 0; t < K_NTYPES; t++) {
        if (mine[t] < 0 || disc[t] < 0 || last[t] < 0) SETUP_FAIL("card counts must not be negative (%s)", K_TYPE_NAME[t]);
        if (last[t] > disc[t]) SETUP_FAIL("last_trick: %s is not in the discard pile that many times", K_TYPE_NAME[t]);
        if (!kitsu_take_copies(c, &pool, &s->hand[v], t, mine[t])) SETUP_FAIL("hand: more %s than the deck has", K_TYPE_NAME[t]);
    }
    for (int t = 0; t < K_NTYPES; t++) {
        uint32_t got = 0;
        if (!kitsu_take_copies(c, &pool, &got, t, disc[t])) SETUP_FAIL("discard: more %s than the deck has left", K_TYPE_NAME[t]);
        s->discard |= got;
        uint32_t lt = got;
        for (int j = 0; j < last[t]; j++) { int id = bb_lsb32(lt); lt &= lt - 1; s->last_trick |= bb_bit32(id); }
    }
    /* The current trick: seats follow from the leader (2p: the two alternate). */
    int hidden_left[K_MAX_TRICK], nh = 0;
    for (int i = 0; i < ntr; i++) {
        const int32_t *e = tr + 5 * i;
        int seat = (leader + i) % P, t = e[0], hid = e[1] != 0, des = e[2] != 0, tok = e[3], side = e[4];
        s->trick_seat[i] = (int8_t)seat;
        s->trick_forced[i] = -1;
        if (t < -1 || t >= K_NTYPES) SETUP_FAIL("trick card %d: unknown card type %d", i + 1, t);
        if (tok < -1 || tok >= K_NTOKENS) SETUP_FAIL("trick card %d: unknown token %d", i + 1, tok);
        if (hid && tok != KTOK_HIDDEN) SETUP_FAIL("trick card %d: only the hidden-card token plays a card face down", i + 1);
        if (tok == KTOK_HIDDEN) hid = 1;
        if (t < 0 && (!hid || seat == v)) SETUP_FAIL("trick card %d: only another seat's hidden card may be unknown", i + 1);
        if (hid && (t == KT_KATANA || t == KT_BLACK)) SETUP_FAIL("trick card %d: %s cannot be played face down", i + 1, K_TYPE_NAME[t]);
        if (des && (t < 0 || !is_numeral(t) || hid)) SETUP_FAIL("trick card %d: only a face-up numeral card can be destroyed", i + 1);
        if (tok >= 0) {
            if (s->tokens_played >> tok & 1) SETUP_FAIL("trick card %d: the %s token is played twice", i + 1, K_TOKEN_NAME[tok]);
            if (s->token_holder[tok] >= 0) SETUP_FAIL("trick card %d: the %s token is still held by P%d", i + 1, K_TOKEN_NAME[tok], s->token_holder[tok]);
            s->tokens_played |= (uint8_t)(1u << tok);
            s->tokens_used |= (uint8_t)(1u << tok);
            if (tok == KTOK_PLUS3) {
                if (side != 0 && side != 1) SETUP_FAIL("trick card %d: the +3 token needs a side (blue or orange)", i + 1);
                s->plus3_side = (int8_t)side;
            }
        }
        s->trick_flags[i] = (uint8_t)((hid ? KF_HIDDEN : 0) | (des ? KF_DESTROYED : 0));
        if (t >= 0) {
            uint32_t got = 0;
            if (!kitsu_take_copies(c, &pool, &got, t, 1)) SETUP_FAIL("trick card %d: no %s left in the deck", i + 1, K_TYPE_NAME[t]);
            s->trick_card[i] = (int8_t)bb_lsb32(got);
        } else hidden_left[nh++] = i;
    }
    s->n_played = (int8_t)ntr;
    /* Cards the viewer knows in other hands, then the unknown rest at random. */
    for (int p = 0; p < P; p++) {
        if (p == v) continue;
        int kn = 0;
        for (int t = 0; t < K_NTYPES; t++) {
            int k = known[p * K_NTYPES + t];
            if (k < 0 || !kitsu_take_copies(c, &pool, &s->hand[p], t, k)) SETUP_FAIL("known: P%d cannot hold that many %s", p, K_TYPE_NAME[t]);
            s->known[v][p][t] = (uint8_t)k;
            kn += k;
        }
        if (sizes[p] < kn || sizes[p] > 12) SETUP_FAIL("hand_sizes: P%d holds %d cards, which must be %d..12", p, sizes[p], kn);
    }
    int8_t ids[K_MAX_CARDS];
    int m = 0;
    for (uint32_t q = pool; q;) ids[m++] = (int8_t)bb_pop_lsb32(&q);
    BLRng r;
    bl_rng_seed(&r, seed ^ 0x9E3779B97F4A7C15ull);
    kitsu_shuffle_ids(ids, m, &r);
    uint8_t used[K_MAX_CARDS] = {0};
    for (int h = 0; h < nh; h++) {
        int i = hidden_left[h], j = 0;
        while (j < m && (used[j] || c->type_of[(int)ids[j]] == KT_KATANA || c->type_of[(int)ids[j]] == KT_BLACK)) j++;
        if (j == m) SETUP_FAIL("trick card %d: no card is left to be the hidden card", i + 1);
        used[j] = 1;
        s->trick_card[i] = ids[j];
    }
    int j = 0;
    for (int p = 0; p < P; p++) {
        if (p == v) continue;
        for (int need = sizes[p] - bb_popcount32(s->hand[p]); need > 0; need--) {
            while (j < m && used[j]) j++;
            if (j == m) SETUP_FAIL("hand_sizes: the deck has too few cards left for P%d's hand", p);
            used[j] = 1;
            s->hand[p] |= bb_bit32(ids[j]);
        }
    }
    for (int k = 0; k < m; k++)
        if (!used[k]) s->stock |= bb_bit32(ids[k]);
    if (P > 2 && s->stock)
        SETUP_FAIL("cards: %d cards are unaccounted for (with %d players every card is in a hand, the trick or the discard pile)",
                   bb_popcount32(s->stock), P);
    /* A card played right after a face-up Black Kitsune was forced to that
     * player's clan colour; one that did not follow shows a void (as in play).
     * Then the unseen cards are dealt again to agree with it. */
    int forced_any = 0;
    for (int i = 1; i < ntr; i++) {
        if (c->type_of[(int)s->trick_card[i - 1]] != KT_BLACK || (s->trick_flags[i - 1] & KF_HIDDEN)) continue;
        int fc = clan_of(s->trick_seat[i - 1]), seat = s->trick_seat[i], t = c->type_of[(int)s->trick_card[i]];
        int followed = is_numeral(t) && colour_of_type(t) == fc;
        s->trick_forced[i] = (int8_t)fc;
        forced_any = 1;
        if (!(s->trick_flags[i] & KF_HIDDEN) && !followed) s->colour_cap[seat][fc] = 0;
        if (seat == v && !followed && (s->hand[v] & c->colour_mask[fc]))
            SETUP_FAIL("trick card %d: P%d did not play %s after the Black Kitsune but holds a %s card",
                       i + 1, v, K_CLAN_NAME[fc], K_CLAN_NAME[fc]);
    }
    if (forced_any) {
        BLRng redeal;
        bl_rng_seed(&redeal, seed ^ 0xB1AC4B1AC4ull);
        if (kitsu_sample_world(c, s, v, &redeal) != 0)
            SETUP_FAIL("trick: no deal of the cards P%d cannot see agrees with the Black Kitsune", v);
    }
    /* Whose turn: the trick goes round from the leader. */
    s->leader = (int8_t)leader;
    s->to_move = (int8_t)((leader + ntr) % P);
    if (!s->hand[(int)s->to_move]) SETUP_FAIL("P%d is to play but holds no card", s->to_move);
    if (ntr > 0) {
        int last_i = ntr - 1, lt = c->type_of[(int)s->trick_card[last_i]];
        if (lt == KT_BLACK && !(s->trick_flags[last_i] & KF_HIDDEN)) {
            s->forced_colour = (int8_t)clan_of(s->trick_seat[last_i]);
            s->forced_seat = s->to_move;
        }
    }
    s->phase = KP_PLAY;
    return 0;
}
