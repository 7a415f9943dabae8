/* Nukumi: the default policy of the search's rollouts in the building game
 * (Score Attack, the 1-player game and, since the free actions after the
 * action, 2-4 players): build when you can, get to a free square to build on,
 * use build cards, play Helpers; seldom pass, sell or wander. Weighted random,
 * so rollouts still vary. Uniform random play passes, sells and wanders, so a
 * rollout's score said little about building; with 2-4 players it also made
 * the search sell the round's resources right after its action (a sure Coin
 * beat a resource random play would waste: 27 points a seat lost in 2-player
 * self-play, docs/nukumi.md). Chasing Nukumaru keeps uniform rollouts (it
 * wants catches, not buildings). After the action (2-4 players; alone, the
 * turn ends with its action) a rollout ends the turn 9 times in 10. */
#include "nukumi.h"

static int free_square(const NkConfig *c, const NkState *s, int sq) {
    return !c->sq_ribbon[sq] && !(s->built >> sq & 1);
}

static int builds(const NkEff *e) {
    for (int i = 0; i < NK_NEFF; i++) if (e[i].op == EF_BUILD) return 1;
    return 0;
}

/* Relative weight of legal action a for the seat to move. */
static double weight(const NkConfig *c, const NkState *s, int p, int32_t a) {
    int here_free = free_square(c, s, s->pos[p]) && s->cubes[p] < NK_CUBES;
    if (a >= NA_BUILD && a < NA_BUILD + NK_NBLD) {
        int b = a - NA_BUILD;
        return 20.0 * (c->bld_fun[b] ? 1 + c->fun_pts[(int)s->fun[p]] : c->bld_pts[b]);
    }
    if (s->phase == NP_TURN) {
        if (a == NA_PASS) return 0.05;
        if (a >= NA_SELL && a < NA_SELL + NK_NRES) return 0.1;
        if ((a >= NA_DISCARD && a < NA_DISCARD + NK_NHELP) || a == NA_COINMOVE) return here_free ? 0.05 : 1.0;
        if (a >= NA_CARD && a < NA_CARD + NK_CARD_SLOTS) {
            int k = s->card[p][a - NA_CARD];
            return builds(c->card_eff[k]) ? 40.0 : 10.0;
        }
        if (a == NA_PARTNER) return builds(c->partner[(int)s->partner[p]].spec_eff) ? 40.0 : 5.0;
        if (a == NA_SPOT + SPOT_MOVE1 || a == NA_SPOT + SPOT_MOVE2) return here_free ? 0.5 : 4.0;
        return 5.0;                                  /* the other spots, Add an Action */
    }
    if (s->phase == NP_MOVE) {
        if (a >= NA_STEP && a < NA_STEP + NK_NSQ) return free_square(c, s, a - NA_STEP) ? 10.0 : 2.0;
        if (a == NA_STOP) return here_free ? 20.0 : 0.5;
        return 1.0;                                  /* carriage, free moves */
    }
    if (s->phase == NP_BUILD) return a == NA_STOP ? 0.01 : 1.0;
    if (s->phase == NP_PLAY) {
        if (a >= NA_PLAY && a < NA_PLAY + NK_NHELP) return 1.0 + c->h_pts[a - NA_PLAY];
        return a == NA_STOP ? 0.2 : 0.1;             /* free actions, rides: seldom mid-play */
    }
    if (s->phase == NP_TAKE)                         /* a face-up card, or blind (advanced) */
        return a >= NA_TAKE && a < NA_TAKE + NK_NCARD && builds(c->card_eff[a - NA_TAKE]) ? 10.0 : 2.0;
    if (s->phase == NP_EVENT) return a == NA_ACCEPT ? 3.0 : 1.0;
    return 1.0;
}

int32_t nk_rollout_action(const BLGame *g, const void *vst, const int32_t *legal, int n, BLRng *rng) {
    const NkConfig *c = NK_CFG(g);
    const NkState *s = (const NkState *)vst;
    if (c->solo == SOLO_CHASING || n > NK_MAXLEGAL)
        return legal[bl_rng_below(rng, (uint32_t)n)];      /* as the search's own uniform choice */
    /* After the action (2-4 players): end the turn 9 times in 10 (NA_END is the last legal action). */
    if (s->phase == NP_AFTER && bl_rng_below(rng, 10) < 9) return legal[n - 1];
    int p = s->to_move;
    double w[NK_MAXLEGAL], sum = 0;
    for (int i = 0; i < n; i++) sum += (w[i] = weight(c, s, p, legal[i]));
    double x = bl_rng_double(rng) * sum;
    for (int i = 0; i < n; i++)
        if ((x -= w[i]) < 0) return legal[i];
    return legal[n - 1];
}
