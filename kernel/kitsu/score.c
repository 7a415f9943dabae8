/* Kitsu: scoring a trick (each colour's sum, White Kitsune and the invert
 * token swapping the sides, +3, destroyed cards, no-advance; the winning clan's
 * pawn advances by the difference, and a 4+ advance earns the other clan a
 * power token) and the returns (the clan that wins two rounds wins).
 * Scoring only: the flow after a trick is rules.c's, which calls in here. */
#include <string.h>
#include "kitsu.h"

#define CFG(g) ((const KitsuConfig *)(g)->config)
#define CST(p) ((const KitsuState *)(p))

int kitsu_score_trick(const KitsuConfig *c, KitsuState *s) {
    int inv = (s->tokens_played >> KTOK_INVERT) & 1;
    uint32_t cards = 0;
    for (int i = 0; i < s->n_played; i++) {
        int id = s->trick_card[i];
        cards |= bb_bit32(id);
        if (c->type_of[id] == KT_WHITE) inv ^= 1;
    }
    int sum[2] = {0, 0};
    for (int i = 0; i < s->n_played; i++) {
        int t = c->type_of[(int)s->trick_card[i]];
        if (is_numeral(t) && !(s->trick_flags[i] & KF_DESTROYED)) sum[colour_of_type(t) ^ inv] += value_of_type(t);
    }
    if (s->tokens_played >> KTOK_PLUS3 & 1) sum[s->plus3_side ^ inv] += 3;
    int winner = sum[0] > sum[1] ? 0 : (sum[1] > sum[0] ? 1 : -1);
    int diff = winner < 0 ? 0 : (sum[winner] - sum[1 - winner]);
    if (s->tokens_played >> KTOK_NOADVANCE & 1) { diff = 0; }
    if (diff == 0) winner = -1;
    if (winner >= 0) {
        int np = s->pawn[winner] + diff;
        s->pawn[winner] = (int8_t)(np > c->track_length ? c->track_length : np);
    }
    /* Keep the trick for display, then discard it. */
    s->prev_n = s->n_played;
    memcpy(s->prev_card, s->trick_card, sizeof s->prev_card);
    memcpy(s->prev_seat, s->trick_seat, sizeof s->prev_seat);
    memcpy(s->prev_flags, s->trick_flags, sizeof s->prev_flags);
    s->prev_winner = (int8_t)winner;
    s->prev_moved = (int8_t)diff;
    s->discard |= cards;
    s->last_trick = cards;
    s->n_played = 0;
    s->tokens_played = 0;
    s->plus3_side = -1;
    s->forced_colour = s->forced_seat = -1;
    s->trick_no++;
    s->leader = (int8_t)next_seat(c, s->leader);

    /* The opposing clan of a 4+ advance gains a token (one per team). */
    if (winner >= 0 && diff >= 4) {
        int opp = 1 - winner;
        int any = 0;
        for (int k = 0; k < K_NTOKENS; k++) any |= token_available(s, k);
        int game_ends = s->pawn[winner] >= c->track_length && s->rounds_won[winner] + 1 >= 2;
        if (any && !clan_holds_token(c, s, opp) && !game_ends) {
            s->gain_clan = (int8_t)opp;
            s->to_move = (int8_t)opp;    /* lowest seat of the clan decides */
            s->phase = KP_TOKEN_PICK;
            return 1;
        }
    }
    return 0;
}

void kitsu_returns(const BLGame *g, const void *vst, double *out) {
    const KitsuConfig *c = CFG(g);
    const KitsuState *s = CST(vst);
    for (int i = 0; i < c->players; i++)
        out[i] = s->phase != KP_OVER ? 0.0 : (clan_of(i) == s->winner ? 1.0 : -1.0);
}
