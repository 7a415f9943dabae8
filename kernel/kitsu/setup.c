/* Kitsu: the configuration (the parameter vector read into KitsuConfig:
 * players, track length, the deck for this player count) and the initial state. */
#include <stdio.h>
#include <string.h>
#include "kitsu.h"

#define CFG(g) ((const KitsuConfig *)(g)->config)
#define ST(p) ((KitsuState *)(p))

/* ---------- configuration ---------- */

int kitsu_configure(BLGame *g, const int32_t *p, int n, char *err, int errlen) {
    KitsuConfig *c = (KitsuConfig *)g->config;
    memset(c, 0, sizeof *c);
    if (n != 2 + K_NTYPES) { snprintf(err, errlen, "kitsu: expected %d kernel parameters, got %d", 2 + K_NTYPES, n); return -1; }
    if (p[0] != 2 && p[0] != 4 && p[0] != 6) { snprintf(err, errlen, "players must be 2, 4 or 6 (got %d)", p[0]); return -1; }
    if (p[1] < 1 || p[1] > 100) { snprintf(err, errlen, "track_length must be between 1 and 100 (got %d)", p[1]); return -1; }
    c->players = p[0];
    c->track_length = p[1];
    c->hand_size = c->players == 6 ? 5 : 6;
    c->trick_size = c->players == 6 ? 6 : 4;
    int id = 0;
    for (int t = 0; t < K_NTYPES; t++) {
        int k = p[2 + t];
        if (k < 0 || id + k > K_MAX_CARDS) { snprintf(err, errlen, "card count of %s is invalid (%d)", K_TYPE_NAME[t], k); return -1; }
        for (int j = 0; j < k; j++, id++) {
            c->type_of[id] = (int8_t)t;
            c->type_mask[t] |= bb_bit32(id);
            if (is_numeral(t)) c->colour_mask[colour_of_type(t)] |= bb_bit32(id);
        }
    }
    c->n_cards = id;
    c->all_cards = id == 32 ? 0xFFFFFFFFu : (bb_bit32(id) - 1);
    if (id < c->players * c->hand_size) {
        snprintf(err, errlen, "the deck has %d cards, fewer than %d players x %d", id, c->players, c->hand_size);
        return -1;
    }
    c->fact[0] = 1.0;
    for (int i = 1; i <= K_MAX_CARDS; i++) c->fact[i] = c->fact[i - 1] * i;
    for (int i = 0; i <= K_MAX_CARDS; i++) c->inv_fact[i] = 1.0 / c->fact[i];
    g->num_players = c->players;
    g->num_actions = KA_NUM;
    g->max_legal = 32;
    g->max_chance = 16;
    g->state_size = sizeof(KitsuState);
    return 0;
}

/* ---------- the initial state ---------- */

void kitsu_init(const BLGame *g, void *vst, uint64_t seed) {
    const KitsuConfig *c = CFG(g);
    KitsuState *s = ST(vst);
    memset(s, 0, sizeof *s);
    bl_rng_seed(&s->rng, seed);
    for (int k = 0; k < K_NTOKENS; k++) s->token_holder[k] = -1;
    s->winner = -1;
    s->prev_winner = -1;
    s->plus3_side = -1;
    s->forced_colour = s->forced_seat = -1;
    s->recover_seat = -1;
    for (int i = 0; i < K_MAX_PLAYERS; i++) {
        s->exchange_card[i] = s->gave[i] = s->recv[i] = -1;
        s->colour_cap[i][0] = s->colour_cap[i][1] = NO_CAP;
    }
    s->stock = c->all_cards;
    s->phase = KP_FIRST_LEADER;
}
