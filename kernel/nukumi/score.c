/* Nukumi: final scoring (the rulebook's seven sources, plus the tracks) and
 * the returns: rank-based with ties shared, or the score itself in solo. */
#include "nukumi.h"
#include "../common/bitboard.h"

void nk_score(const NkConfig *c, const NkState *s, int p, NkScore *o) {
    int per_type[NK_NBLD] = {0};
    o->buildings = 0;
    for (uint64_t m = s->built; m;) {
        int sq = bb_pop_lsb64(&m);
        if (s->bld_owner[sq] != p) continue;
        int b = s->bld_type[sq];
        per_type[b]++;
        o->buildings += c->bld_fun[b] ? c->fun_pts[(int)s->fun[p]] : c->bld_pts[b];
    }
    o->helpers = 0;
    for (uint64_t m = s->played[p]; m;) o->helpers += c->h_pts[bb_pop_lsb64(&m)];
    o->coins = s->coins[p];
    o->start_card = (s->start_down && s->start_holder == p) ? c->start_vp : 0;
    o->partner_end = 0;
    o->construction = 0;
    if (s->partner[p] >= 0) {
        const NkPartner *pp = &c->partner[(int)s->partner[p]];
        int ok = 0, times = 1;
        switch (pp->end_kind) {
        case END_BUILT_ALL:
            ok = 1;
            for (int b = 0; b < NK_NBLD; b++)
                if ((pp->end_a >> b & 1) && !per_type[b]) ok = 0;
            break;
        case END_PER_BUILDING: ok = 1; times = per_type[(int)pp->end_a]; break;
        case END_TRACK: ok = (pp->end_a ? s->oishi[p] : s->fun[p]) >= pp->end_b; break;
        case END_HELPERS: ok = bb_popcount64(s->played[p]) >= pp->end_a; break;
        case END_COINS: ok = s->coins[p] >= pp->end_a; break;
        case END_BUILDINGS: ok = s->cubes[p] >= pp->end_a; break;
        default: ok = 0;
        }
        if (ok) o->partner_end = times * pp->end_pts;
        o->construction = pp->vp[(int)s->cubes[p]];
    }
    o->cards = 0;
    for (int j = 0; j < NK_CARD_SLOTS; j++)
        if (s->card[p][j] >= 0) o->cards += c->card_pts[(int)s->card[p][j]];
    o->tracks = c->fun_pts[(int)s->fun[p]] + c->oishi_pts[(int)s->oishi[p]];
    o->total = o->buildings + o->helpers + o->coins + o->start_card + o->partner_end + o->construction
             + o->cards + o->tracks;
}

/* Solo: 0 points -> -1, 150 (the evaluation table's middle) -> 0, 300 -> +1,
 * linear so that the search tells 30 points from 40 as well as 180 from 190
 * (a squash around 150 flattened every low score to -1). */
double nk_solo_value(double score) {
    double x = (score - 150.0) / 150.0;
    return x < -1 ? -1 : x > 1 ? 1 : x;
}

/* tanh without libm: a rational approximation, odd and in (-1, 1). */
double nk_squash(double d) {
    double x = d < -3 ? -3 : d > 3 ? 3 : d;
    return x * (27 + x * x) / (27 + 9 * x * x);
}

void nk_returns(const BLGame *g, const void *vst, double *out) {
    const NkConfig *c = NK_CFG(g);
    const NkState *s = (const NkState *)vst;
    int P = c->players;
    if (s->phase != NP_OVER) { for (int i = 0; i < P; i++) out[i] = 0.0; return; }
    NkScore sc[NK_MAXP];
    for (int p = 0; p < P; p++) nk_score(c, s, p, &sc[p]);
    if (c->solo == SOLO_CHASING) {   /* cleared in round 1 +1 ... round 5 0; not cleared below */
        out[0] = s->cleared ? 1.0 - 0.25 * (s->cleared - 1) : -1.0 + 0.1 * bb_popcount32(s->nuku_cubes);
        return;
    }
    if (P == 1) {   /* solo: the score, linear around the evaluation table's middle */
        out[0] = nk_solo_value(sc[0].total);
        return;
    }
    /* Best +1, worst -1, linear in between; tied seats share their ranks. */
    for (int i = 0; i < P; i++) {
        int better = 0, equal = 0;
        for (int j = 0; j < P; j++) {
            if (sc[j].total > sc[i].total) better++;
            else if (sc[j].total == sc[i].total && j != i) equal++;
        }
        out[i] = 1.0 - 2.0 * (better + equal / 2.0) / (P - 1);
    }
}
