/* Kitsu: the heuristic the search falls back on (Blue's chance of winning the
 * game from the round score, the race on the track and a held power token). */
#include <math.h>
#include "kitsu.h"

#define CFG(g) ((const KitsuConfig *)(g)->config)
#define CST(p) ((const KitsuState *)(p))

/* Probability that Blue wins the game from round score (a, b), with Blue
 * winning the current round with probability p and later rounds with 1/2
 * (first clan to 2 rounds). */
static double game_win_prob(int a, int b, double p) {
    static const double W[3][3] = {      /* W[a][b] at a fresh round, p = 1/2 */
        {0.5, 0.25, 0.0}, {0.75, 0.5, 0.0}, {1.0, 1.0, 1.0}};
    if (a >= 2) return 1.0;
    if (b >= 2) return 0.0;
    double win = a + 1 >= 2 ? 1.0 : W[a + 1][b];
    double lose = b + 1 >= 2 ? 0.0 : W[a][b + 1];
    return p * win + (1.0 - p) * lose;
}

/* Advance a clan can still expect from its own-colour numerals (each clan
 * plays mostly its own colour): the sum of their values in its members' hands. */
static int own_colour_power(const KitsuConfig *c, const KitsuState *s, int clan) {
    int v = 0;
    for (int p = clan; p < c->players; p += 2)
        for (uint32_t m = s->hand[p] & c->colour_mask[clan]; m;) {
            int id = bb_pop_lsb32(&m);
            v += value_of_type(c->type_of[id]);
        }
    return v;
}

/* Heuristic for a determinized (full) state: Blue's chance of winning the game,
 * from (1) the round score, (2) the race on the track this round, counting the
 * current trick as it stands (colour inversions included) and the numeral
 * power left in each clan's hands, and (3) a held power token. The round
 * chance is a logistic of the expected lead in track lengths; the game chance
 * follows from the first-to-two-rounds rule. Returned as 2P - 1 for Blue,
 * 1 - 2P for Orange (teammates share it: team rewards). */
void kitsu_evaluate(const BLGame *g, const void *vst, double *out) {
    const KitsuConfig *c = CFG(g);
    const KitsuState *s = CST(vst);
    if (s->phase == KP_OVER) { kitsu_returns(g, vst, out); return; }
    double L = c->track_length > 0 ? c->track_length : 1;
    /* Current trick as it stands. */
    int inv = (s->tokens_played >> KTOK_INVERT) & 1;
    for (int i = 0; i < s->n_played; i++)
        if (c->type_of[(int)s->trick_card[i]] == KT_WHITE && !(s->trick_flags[i] & KF_HIDDEN)) inv ^= 1;
    int sum[2] = {0, 0};
    for (int i = 0; i < s->n_played; i++) {
        int t = c->type_of[(int)s->trick_card[i]];
        if (is_numeral(t) && !(s->trick_flags[i] & KF_DESTROYED)) sum[colour_of_type(t) ^ inv] += value_of_type(t);
    }
    if ((s->tokens_played >> KTOK_PLUS3 & 1) && s->plus3_side >= 0) sum[s->plus3_side ^ inv] += 3;
    double trick = (s->tokens_played >> KTOK_NOADVANCE & 1) ? 0.0 : (double)(sum[0] - sum[1]);
    double lead = (double)(s->pawn[0] - s->pawn[1]) + 0.8 * trick
                + 0.25 * (double)(own_colour_power(c, s, 0) - own_colour_power(c, s, 1))
                + 1.5 * (clan_holds_token(c, s, 0) - clan_holds_token(c, s, 1));
    /* Who is nearer the end matters more late in the round. */
    double late = 1.0 + (double)(s->pawn[0] > s->pawn[1] ? s->pawn[0] : s->pawn[1]) / L;
    double p = 1.0 / (1.0 + exp(-3.0 * late * lead / L));
    double v = 2.0 * game_win_prob(s->rounds_won[0], s->rounds_won[1], p) - 1.0;
    for (int i = 0; i < c->players; i++) out[i] = clan_of(i) == 0 ? v : -v;
}
