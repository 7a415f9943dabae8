/* Nukumi: the parameter vector read into NkConfig, the initial state and the
 * explicit chance of setting up (round cards, partner boards, Nukumaru's die). */
#include <string.h>
#include <stdio.h>
#include "nukumi.h"

typedef struct { const int32_t *v; int n, at, bad; char *err; int errlen; } Reader;

static int rd(Reader *r, int lo, int hi, const char *what) {
    if (r->bad) return lo;
    if (r->at >= r->n) {
        snprintf(r->err, (size_t)r->errlen, "parameter vector too short (reading %s)", what);
        r->bad = 1;
        return lo;
    }
    int x = r->v[r->at++];
    if (x < lo || x > hi) {
        snprintf(r->err, (size_t)r->errlen, "%s must be in [%d, %d], got %d (vector index %d)",
                 what, lo, hi, x, r->at - 1);
        r->bad = 1;
        return lo;
    }
    return x;
}

static void rd_effects(Reader *r, NkEff *e, const char *what) {
    for (int i = 0; i < NK_NEFF; i++) {
        e[i].op = (int8_t)rd(r, 0, EF_NUKU - 1, what);
        e[i].a = (int8_t)rd(r, 0, 31, what);
        e[i].b = (int8_t)rd(r, 0, 9, what);
        if (e[i].op == EF_GAIN && e[i].a >= NK_NRES && !r->bad) {
            snprintf(r->err, (size_t)r->errlen, "%s: gain of unknown resource %d", what, e[i].a);
            r->bad = 1;
        }
    }
}

static void rd_cost(Reader *r, NkCost *c, const char *what) {
    c->n = 0;
    for (int i = 0; i < 3; i++) {
        c->mask[i] = (uint8_t)rd(r, 0, (1 << NK_NRES) - 1, what);
        if (c->mask[i]) c->n++;
    }
    c->coins = (int16_t)rd(r, 0, 30, what);
    /* Slots are used first to last: no gap. */
    for (int i = 0; i < c->n; i++)
        if (!c->mask[i] && !r->bad) {
            snprintf(r->err, (size_t)r->errlen, "%s: cost slots must be filled first to last", what);
            r->bad = 1;
        }
}

static void distances(NkConfig *c, int8_t (*table)[NK_NSQ], uint64_t carriage) {
    /* 0-1 BFS: a step costs 1, a carriage ride between stops costs 0. */
    for (int a = 0; a < NK_NSQ; a++) {
        int8_t *d = table[a];
        for (int i = 0; i < NK_NSQ; i++) d[i] = 99;
        int dq[4 * NK_NSQ], head = 2 * NK_NSQ, tail = 2 * NK_NSQ;
        d[a] = 0;
        dq[tail++] = a;
        while (head < tail) {
            int x = dq[head++];
            if (carriage >> x & 1)
                for (int y = 0; y < NK_NSQ; y++)
                    if ((carriage >> y & 1) && d[y] > d[x]) { d[y] = d[x]; dq[--head] = y; }
            for (int y = 0; y < NK_NSQ; y++)
                if ((c->nbr[x] >> y & 1) && d[y] > d[x] + 1) { d[y] = (int8_t)(d[x] + 1); dq[tail++] = y; }
        }
    }
}

static void multisets(NkConfig *c) {
    int k = 0;
    for (int i = 0; i < 1024; i++) c->ms_index[i] = -1;
    for (int size = 1; size <= 3; size++)
        for (int code = 0; code < 1024; code++) {
            int cnt[NK_NRES], tot = 0, x = code;
            for (int r = 0; r < NK_NRES; r++) { cnt[r] = x & 3; x >>= 2; tot += cnt[r]; }
            if (tot != size) continue;
            for (int r = 0; r < NK_NRES; r++) c->ms[k][r] = (int8_t)cnt[r];
            c->ms_index[code] = (int16_t)k++;
        }
}

int nk_configure(BLGame *g, const int32_t *pv, int n, char *err, int errlen) {
    if (sizeof(NkConfig) > BL_CONFIG_BYTES) {
        snprintf(err, (size_t)errlen, "internal: NkConfig too large");
        return -1;
    }
    NkConfig *c = (NkConfig *)g->config;
    memset(c, 0, sizeof *c);
    Reader r = {pv, n, 0, 0, err, errlen};
    c->players = rd(&r, 1, NK_MAXP, "players");
    c->partner_side = rd(&r, 0, 1, "partner_side");
    c->board_side = rd(&r, 0, 1, "board_side");
    c->advanced = rd(&r, 0, 1, "advanced");
    c->solo = rd(&r, 0, 2, "solo");
    if (!r.bad && c->solo && c->players != 1) {
        snprintf(err, (size_t)errlen, "solo modes are for 1 player, got %d players", c->players);
        return -1;
    }
    c->pieces = c->players + (c->solo == SOLO_SCORE_ATTACK ? NK_NPCS : 0);
    int central = -1, nuku_seen = 0;
    for (int i = 0; i < NK_NSQ; i++) {
        c->sq_kind[i] = (int8_t)rd(&r, 0, SQ_CARRIAGE, "square kind");
        c->sq_ribbon[i] = (int8_t)rd(&r, 0, 1, "square ribbon");
        c->sq_nuku[i] = (int8_t)rd(&r, 0, 6, "Nukumaru number");
        c->nbr[i] = 0;
        for (int part = 0; part < 3; part++)
            c->nbr[i] |= (uint64_t)rd(&r, 0, (1 << 21) - 1, "neighbour mask") << (21 * part);
        if (c->sq_kind[i] == SQ_CENTRAL) central = i;
        if (c->sq_kind[i] == SQ_CARRIAGE) c->carriage |= 1ull << i;
        if (c->sq_kind[i] == SQ_NUKUMARU && c->sq_nuku[i]) {
            c->nuku_sq[c->sq_nuku[i] - 1] = (int8_t)i;
            nuku_seen |= 1 << (c->sq_nuku[i] - 1);
        }
    }
    if (!r.bad && (central < 0 || nuku_seen != 63)) {
        snprintf(err, (size_t)errlen, "board needs a Central Square and Nukumaru squares 1-6");
        return -1;
    }
    c->central = (int8_t)central;
    for (int k = 0; k < NK_NRES; k++) c->tokens[k] = (int8_t)rd(&r, 0, 80, "resource tokens");
    for (int k = 0; k < NK_NRES; k++) c->start_bag[k] = (int8_t)rd(&r, 0, 5, "starting bag");
    for (int l = 0; l < 6; l++) c->fun_die[l] = (int8_t)rd(&r, 0, 6, "fun die rolls");
    for (int l = 0; l < 6; l++) c->oishi_coins[l] = (int8_t)rd(&r, 0, 30, "oishi Coins");
    for (int l = 0; l < 6; l++) c->fun_pts[l] = (int8_t)rd(&r, 0, 60, "fun points");
    for (int l = 0; l < 6; l++) c->oishi_pts[l] = (int8_t)rd(&r, 0, 60, "oishi points");
    for (int side = 0; side < 2; side++)
        for (int k = 0; k < NK_NSPOT - 1; k++) {
            NkCost cost;
            NkEff eff[NK_NEFF];
            rd_cost(&r, &cost, "player board cost");
            rd_effects(&r, eff, "player board effects");
            if (side != c->board_side) continue;
            c->spot_cost[k] = cost;
            memcpy(c->spot_eff[k], eff, sizeof eff);
        }
    c->add_coins[0] = (int8_t)rd(&r, 0, 30, "add-an-action Coins");
    c->add_coins[1] = (int8_t)rd(&r, 0, 30, "add-an-action Coins");
    c->start_vp = (int8_t)rd(&r, 0, 50, "start player card points");
    c->catch_coins = (int8_t)rd(&r, 0, 30, "catch Coins");
    c->sq_coins = (int8_t)rd(&r, 0, 30, "2-Coins square Coins");
    for (int b = 0; b < NK_NBLD; b++) {
        c->bld_count[b] = (int8_t)rd(&r, 0, 53, "building count");
        c->bld_pts[b] = (int8_t)rd(&r, 0, 100, "building points");
        c->bld_fun[b] = (int8_t)rd(&r, 0, 1, "building scored from the fun track");
        rd_cost(&r, &c->bld_cost[b], "building cost");
        rd_effects(&r, c->bld_eff[b], "building effects");
    }
    for (int h = 0; h < NK_NHELP; h++) {
        c->h_pts[h] = (int8_t)rd(&r, 0, 20, "Helper points");
        c->h_rank[h] = (int8_t)rd(&r, 1, 3, "Helper rank");
        c->h_trig[h] = (int8_t)rd(&r, 0, TR_N - 1, "Helper trigger");
        c->h_mask[h] = (uint16_t)rd(&r, 0, (1 << NK_NSPOT) - 1, "Helper trigger actions");
        rd_effects(&r, c->h_eff[h], "Helper effects");
        if (c->h_trig[h] == TR_ACTION)
            for (int k = 0; k < NK_NSPOT; k++)
                if (c->h_mask[h] >> k & 1) c->h_on_action[k] |= 1ull << h;
        if (c->h_trig[h] == TR_CATCH) c->h_on_catch |= 1ull << h;
    }
    for (int k = 0; k < NK_NCARD; k++) {
        c->card_pts[k] = (int8_t)rd(&r, 0, 50, "action card points");
        rd_cost(&r, &c->card_cost[k], "action card cost");
        rd_effects(&r, c->card_eff[k], "action card effects");
    }
    for (int k = 0; k < NK_NROUND; k++) rd_effects(&r, c->round_eff[k], "round card effects");
    for (int k = 0; k < NK_NPART; k++)
        for (int side = 0; side < 2; side++) {
            NkPartner tmp, *pp = side == c->partner_side ? &c->partner[k] : &tmp;
            rd_effects(&r, pp->start, "partner start");
            pp->trig = (int8_t)rd(&r, 0, TR_N - 1, "partner trigger");
            pp->trig_mask = (uint16_t)rd(&r, 0, (1 << NK_NSPOT) - 1, "partner trigger actions");
            rd_effects(&r, pp->ongoing, "partner ongoing");
            pp->end_kind = (int8_t)rd(&r, 0, END_N - 1, "partner end kind");
            pp->end_a = (int8_t)rd(&r, 0, 127, "partner end a");
            pp->end_b = (int8_t)rd(&r, 0, 60, "partner end b");
            pp->end_pts = (int8_t)rd(&r, 0, 60, "partner end points");
            rd_cost(&r, &pp->spec, "partner specific cost");
            rd_effects(&r, pp->spec_eff, "partner specific effects");
            for (int f = 0; f < 6; f++) rd_effects(&r, pp->die[f], "partner die");
            for (int i = 0; i <= NK_CUBES; i++) pp->draw[i] = (int8_t)rd(&r, 1, 20, "partner draw size");
            for (int i = 0; i <= NK_CUBES; i++) pp->vp[i] = (int8_t)rd(&r, 0, 60, "partner points");
        }
    if (r.bad) return -1;
    if (r.at != n) {
        snprintf(err, (size_t)errlen, "parameter vector has %d entries, expected %d", n, r.at);
        return -1;
    }
    for (int k = 0; k < NK_NRES; k++)
        if (c->tokens[k] < c->players * c->start_bag[k]) {
            snprintf(err, (size_t)errlen, "not enough tokens of resource %d for the starting bags", k);
            return -1;
        }
    distances(c, c->dist, c->carriage);
    distances(c, c->walk, 0);
    multisets(c);
    g->num_players = c->players;
    g->num_actions = NA_NUM;
    g->max_legal = NK_MAXLEGAL;
    g->max_chance = NK_NHELP;
    g->state_size = sizeof(NkState);
    return 0;
}

void nk_init(const BLGame *g, void *vst, uint64_t seed) {
    const NkConfig *c = NK_CFG(g);
    NkState *s = (NkState *)vst;
    memset(s, 0, sizeof *s);
    bl_rng_seed(&s->rng, seed);
    s->phase = NP_SETUP_ROUND;
    s->start_holder = 0;
    s->nuku = -1;
    for (int k = 0; k < NK_NRES; k++) s->pool[k] = (int8_t)(c->tokens[k] - c->players * c->start_bag[k]);
    for (int p = 0; p < c->players; p++) {
        s->pos[p] = c->central;
        s->partner[p] = -1;
        s->card[p][0] = s->card[p][1] = -1;
        for (int k = 0; k < NK_NRES; k++) s->bag[p][k] = c->start_bag[k];
    }
    if (c->advanced) s->cdeck = (uint16_t)((1u << NK_NCARD) - 1);
    else s->cards_open = (uint16_t)((1u << NK_NCARD) - 1);
    s->deck = (1ull << NK_NHELP) - 1;
    for (int i = 0; i < 3; i++) s->hrow[i] = s->crow[i] = -1;
    for (int i = 0; i < c->pieces; i++) s->pos[i] = c->central;
    for (int i = 0; i < NK_NSQ; i++) s->bld_type[i] = s->bld_owner[i] = -1;
    for (int b = 0; b < NK_NBLD; b++) s->bld_left[b] = c->bld_count[b];
}
