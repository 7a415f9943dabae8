/* Kitsu rules kernel. See kitsu.h for the action space and state layout,
 * docs/kitsu.md for the rules as implemented and the choices made. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "kitsu.h"
#include "../common/bitboard.h"
#include "../common/jsonw.h"

#define CFG(g) ((const KitsuConfig *)(g)->config)
#define ST(p) ((KitsuState *)(p))
#define CST(p) ((const KitsuState *)(p))
#define NO_CAP 255

static const char *const TYPE_NAME[K_NTYPES] = {
    "B1", "B2", "B3", "B4", "B5", "B6", "O1", "O2", "O3", "O4", "O5", "O6",
    "White", "Black", "Katana"};
static const char *const TOKEN_NAME[K_NTOKENS] = {"+3", "no-advance", "hidden", "recover", "invert"};
static const char *const CLAN_NAME[2] = {"blue", "orange"};

/* ---------- small helpers ---------- */

static inline int is_numeral(int t) { return t < 12; }
static inline int colour_of_type(int t) { return t < 6 ? KC_BLUE : KC_ORANGE; } /* numerals only */
static inline int value_of_type(int t) { return t % 6 + 1; }
static inline int clan_of(int seat) { return seat & 1; }
static inline int next_seat(const KitsuConfig *c, int s) { return (s + 1) % c->players; }
/* Exchange partner: 4p the partner opposite, 6p the clan member to the left
 * (next clockwise); both are two seats on. */
static inline int exchange_target(const KitsuConfig *c, int s) { return (s + 2) % c->players; }

static inline int type_count(const KitsuConfig *c, uint32_t set, int t) {
    return bb_popcount32(set & c->type_mask[t]);
}
/* The physical copy of type t that leaves `set` (copies are interchangeable). */
static inline int take_type(const KitsuConfig *c, uint32_t set, int t) {
    return bb_lsb32(set & c->type_mask[t]);
}
/* Ascending distinct types of the cards in `set` (ids of a type are consecutive). */
static inline int types_in(const KitsuConfig *c, uint32_t set, int32_t base, int32_t *out) {
    int n = 0;
    while (set) {
        int t = c->type_of[bb_lsb32(set)];
        out[n++] = base + t;
        set &= ~c->type_mask[t];
    }
    return n;
}
static inline int token_of_seat(const KitsuState *s, int seat) {
    for (int k = 0; k < K_NTOKENS; k++)
        if (s->token_holder[k] == seat) return k;
    return -1;
}
static inline int clan_holds_token(const KitsuConfig *c, const KitsuState *s, int clan) {
    for (int k = 0; k < K_NTOKENS; k++)
        if (s->token_holder[k] >= 0 && clan_of(s->token_holder[k]) == clan) return 1;
    (void)c;
    return 0;
}
static inline int token_available(const KitsuState *s, int k) {
    return s->token_holder[k] < 0 && !(s->tokens_used >> k & 1);
}
static inline int clan_size(const KitsuConfig *c) { return c->players / 2; }

/* Another seat learns that `seat` no longer holds one card of type t. */
static void forget_card(KitsuState *s, int players, int seat, int t) {
    for (int o = 0; o < players; o++)
        if (s->known[o][seat][t]) s->known[o][seat][t]--;
}
/* seat received a card the others cannot see: their colour bounds loosen. */
static void receive_unseen(const KitsuConfig *c, KitsuState *s, int seat) {
    int n = bb_popcount32(s->hand[seat]);
    for (int col = 0; col < 2; col++)
        if (s->colour_cap[seat][col] != NO_CAP)
            s->colour_cap[seat][col] = (s->colour_cap[seat][col] + 1 >= n) ? NO_CAP : s->colour_cap[seat][col] + 1;
    (void)c;
}

/* ---------- configuration ---------- */

static int kitsu_configure(BLGame *g, const int32_t *p, int n, char *err, int errlen) {
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
        if (k < 0 || id + k > K_MAX_CARDS) { snprintf(err, errlen, "card count of %s is invalid (%d)", TYPE_NAME[t], k); return -1; }
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
    g->num_players = c->players;
    g->num_actions = KA_NUM;
    g->max_legal = 32;
    g->max_chance = 16;
    g->state_size = sizeof(KitsuState);
    return 0;
}

/* ---------- flow ---------- */

static void start_deal(const KitsuConfig *c, KitsuState *s) {
    for (int i = 0; i < c->players; i++) {
        s->hand[i] = 0;
        s->exchange_card[i] = -1;
        s->gave[i] = s->recv[i] = -1;
        s->colour_cap[i][0] = s->colour_cap[i][1] = NO_CAP;
    }
    memset(s->known, 0, sizeof s->known);
    s->stock = c->all_cards;
    s->discard = s->last_trick = 0;
    s->recover_seat = -1;
    s->deal_no++;
    s->deal_to = s->leader;
    s->deal_left = (int8_t)(c->players * c->hand_size);
    s->deal_refill = 0;
    s->phase = KP_DEAL;
}

static void start_round(const KitsuConfig *c, KitsuState *s) {
    s->pawn[0] = s->pawn[1] = 0;
    s->tokens_used = 0;            /* used tokens return; held ones stay held */
    s->round++;
    s->deal_no = 0;
    s->prev_n = 0;
    s->prev_winner = -1;
    s->prev_moved = 0;
    start_deal(c, s);
}

static void begin_trick(KitsuState *s) {
    s->n_played = 0;
    s->tokens_played = 0;
    s->plus3_side = -1;
    s->forced_colour = s->forced_seat = -1;
    s->to_move = s->leader;
    s->phase = KP_PLAY;
}

/* Everything after the pawn moved and any token was handed out. */
static void after_trick(const KitsuConfig *c, KitsuState *s) {
    int winner = s->prev_winner;
    if (winner >= 0 && s->pawn[winner] >= c->track_length) {
        s->rounds_won[winner]++;
        for (int i = 0; i < c->players; i++) { s->discard |= s->hand[i]; s->hand[i] = 0; } /* hands discarded */
        if (s->rounds_won[winner] >= 2) {
            s->winner = (int8_t)winner;
            s->phase = KP_OVER;
            return;
        }
        if (clan_size(c) == 1) {
            s->leader = (int8_t)winner;   /* 2p: seat index == clan */
            start_round(c, s);
        } else {
            s->to_move = (int8_t)winner;  /* the clan's lowest seat speaks for it */
            s->phase = KP_ROUND_LEADER;
        }
        return;
    }
    if (c->players == 2 && s->stock) {
        s->deal_refill = 1;
        s->deal_left = (int8_t)(bb_popcount32(s->stock) < 4 ? bb_popcount32(s->stock) : 4);
        s->deal_to = s->leader;
        s->phase = KP_DEAL;
        return;
    }
    for (int i = 0; i < c->players; i++)
        if (i != s->recover_seat && s->hand[i] == 0) { start_deal(c, s); return; }
    begin_trick(s);
}

static void end_trick(const KitsuConfig *c, KitsuState *s) {
    int inv = (s->tokens_played >> KTOK_INVERT) & 1;
    uint32_t cards = 0;
    for (int i = 0; i < s->n_played; i++) {
        int id = s->trick_card[i], t = c->type_of[id], seat = s->trick_seat[i];
        cards |= bb_bit32(id);
        if (t == KT_WHITE) inv ^= 1;
        if (s->trick_flags[i] & KF_HIDDEN) {
            /* Revealed now: the others learn what left the hand. */
            for (int o = 0; o < c->players; o++)
                if (o != seat && s->known[o][seat][t]) s->known[o][seat][t]--;
            int fc = s->trick_forced[i];
            if (fc >= 0 && !(is_numeral(t) && colour_of_type(t) == fc)) s->colour_cap[seat][fc] = 0;
        }
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
            return;
        }
    }
    after_trick(c, s);
}

/* After a card (and its sub-decisions) is complete. */
static void continue_play(const KitsuConfig *c, KitsuState *s) {
    if (s->pending_sub & KSUB_SIDE) { s->phase = KP_SIDE; return; }
    if (s->pending_sub & KSUB_RECOVER) { s->phase = KP_RECOVER; return; }
    if (s->pending_sub & KSUB_KATANA) { s->phase = KP_KATANA; return; }
    if (s->n_played >= c->trick_size) { end_trick(c, s); return; }
    s->to_move = (int8_t)next_seat(c, s->to_move);
    s->phase = KP_PLAY;
}

static int katana_targets(const KitsuConfig *c, const KitsuState *s, int seat, int32_t *out) {
    int n = 0;
    for (int i = 0; i < s->n_played; i++) {
        int t = c->type_of[(int)s->trick_card[i]];
        if (s->trick_seat[i] != seat && is_numeral(t) && !(s->trick_flags[i] & (KF_HIDDEN | KF_DESTROYED)))
            out[n++] = KA_KATANA + i;
    }
    return n;
}

/* The card types `seat` may play now (Black Kitsune obligation applied). */
static uint32_t playable_cards(const KitsuConfig *c, const KitsuState *s, int seat) {
    uint32_t h = s->hand[seat];
    if (s->forced_seat == seat && s->forced_colour >= 0) {
        uint32_t f = h & c->colour_mask[(int)s->forced_colour];
        if (f) return f;
    }
    return h;
}

static void play_card(const KitsuConfig *c, KitsuState *s, int t, int with_token) {
    int p = s->to_move;
    int id = take_type(c, s->hand[p], t);
    int i = s->n_played;
    int forced = (s->forced_seat == p) ? s->forced_colour : -1;
    s->hand[p] &= ~bb_bit32(id);
    s->trick_card[i] = (int8_t)id;
    s->trick_seat[i] = (int8_t)p;
    s->trick_flags[i] = 0;
    s->trick_forced[i] = (int8_t)forced;
    s->n_played++;
    s->pending_sub = 0;
    if (with_token) {
        int k = token_of_seat(s, p);
        if (k < 0) return;  /* unreachable for a legal action */
        s->token_holder[k] = -1;
        s->tokens_used |= (uint8_t)(1u << k);
        s->tokens_played |= (uint8_t)(1u << k);
        if (k == KTOK_HIDDEN) s->trick_flags[i] |= KF_HIDDEN;
        if (k == KTOK_PLUS3) s->pending_sub |= KSUB_SIDE;
        if (k == KTOK_RECOVER) s->pending_sub |= KSUB_RECOVER;
    }
    if (!(s->trick_flags[i] & KF_HIDDEN)) {
        forget_card(s, c->players, p, t);
        /* A forced seat that did not follow has none of that colour. */
        if (forced >= 0 && !(is_numeral(t) && colour_of_type(t) == forced)) s->colour_cap[p][forced] = 0;
        else if (is_numeral(t)) {
            int col = colour_of_type(t);
            if (s->colour_cap[p][col] != NO_CAP && s->colour_cap[p][col] > 0) s->colour_cap[p][col]--;
        }
    }
    if (s->forced_seat == p) s->forced_colour = s->forced_seat = -1;
    if (t == KT_BLACK) {
        /* Lapses if the trick ends before the next seat plays. */
        s->forced_colour = (int8_t)clan_of(p);
        s->forced_seat = (int8_t)next_seat(c, p);
    }
    if (t == KT_KATANA) {
        int32_t tmp[K_MAX_TRICK];
        if (katana_targets(c, s, p, tmp) > 0) s->pending_sub |= KSUB_KATANA;
    }
    continue_play(c, s);
}

/* ---------- the function table ---------- */

static void kitsu_init(const BLGame *g, void *vst, uint64_t seed) {
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

static int kitsu_current_player(const BLGame *g, const void *vst) {
    const KitsuState *s = CST(vst);
    (void)g;
    switch (s->phase) {
    case KP_FIRST_LEADER: case KP_DEAL: return BL_CHANCE;
    case KP_OVER: return BL_TERMINAL;
    default: return s->to_move;
    }
}

static int kitsu_legal_actions(const BLGame *g, const void *vst, int32_t *out) {
    const KitsuConfig *c = CFG(g);
    const KitsuState *s = CST(vst);
    int n = 0, p = s->to_move;
    switch (s->phase) {
    case KP_FIRST_LEADER:
        for (int i = 0; i < c->players; i++) out[n++] = KA_SEAT + i;
        break;
    case KP_DEAL:
        n = types_in(c, s->stock, KA_DEAL, out);
        break;
    case KP_EXCHANGE:
        n = types_in(c, s->hand[p], KA_GIVE, out);
        break;
    case KP_PLAY: {
        uint32_t can = playable_cards(c, s, p);
        n = types_in(c, can, KA_PLAY, out);
        int k = token_of_seat(s, p);
        if (k >= 0 && !(k == KTOK_RECOVER && s->last_trick == 0)) {
            if (k == KTOK_HIDDEN) can &= ~(c->type_mask[KT_KATANA] | c->type_mask[KT_BLACK]);
            n += types_in(c, can, KA_PLAY_TOKEN, out + n);
        }
        break;
    }
    case KP_SIDE:
        out[n++] = KA_SIDE + KC_BLUE;
        out[n++] = KA_SIDE + KC_ORANGE;
        break;
    case KP_RECOVER:
        n = types_in(c, s->last_trick & s->discard, KA_RECOVER, out);
        break;
    case KP_KATANA:
        n = katana_targets(c, s, p, out);
        break;
    case KP_TOKEN_PICK:
        for (int k = 0; k < K_NTOKENS; k++)
            if (token_available(s, k)) out[n++] = KA_TOKEN + k;
        break;
    case KP_TOKEN_SEAT: case KP_ROUND_LEADER: {
        int clan = s->phase == KP_TOKEN_SEAT ? s->gain_clan : clan_of(s->to_move);
        for (int i = clan; i < c->players; i += 2) out[n++] = KA_SEAT + i;
        break;
    }
    default: break;
    }
    return n;
}

static void kitsu_apply(const BLGame *g, void *vst, int32_t a) {
    const KitsuConfig *c = CFG(g);
    KitsuState *s = ST(vst);
    switch (s->phase) {
    case KP_FIRST_LEADER:
        s->leader = (int8_t)(a - KA_SEAT);
        start_round(c, s);
        return;
    case KP_DEAL: {
        int t = a - KA_DEAL, id = take_type(c, s->stock, t), to = s->deal_to;
        s->stock &= ~bb_bit32(id);
        s->hand[to] |= bb_bit32(id);
        receive_unseen(c, s, to);
        s->deal_left--;
        /* The deal goes round the table; a 2p refill gives 2 to each in turn. */
        if (!s->deal_refill || s->deal_left == 2) s->deal_to = (int8_t)next_seat(c, to);
        if (s->deal_left > 0 && s->stock) return;
        if (!s->deal_refill && c->players > 2) {
            s->to_move = s->leader;
            s->phase = KP_EXCHANGE;
            return;
        }
        if (s->deal_refill) {
            s->deal_refill = 0;
            for (int i = 0; i < c->players; i++)
                if (i != s->recover_seat && s->hand[i] == 0) { start_deal(c, s); return; }
        }
        begin_trick(s);
        return;
    }
    case KP_EXCHANGE: {
        int p = s->to_move, t = a - KA_GIVE, id = take_type(c, s->hand[p], t);
        s->hand[p] &= ~bb_bit32(id);
        s->exchange_card[p] = (int8_t)id;
        int nx = next_seat(c, p);
        if (nx != s->leader) { s->to_move = (int8_t)nx; return; }
        /* Everyone has put a card down: take the card in front of you. */
        for (int i = 0; i < c->players; i++) {
            int to = exchange_target(c, i), cid = s->exchange_card[i], ct = c->type_of[cid];
            s->hand[to] |= bb_bit32(cid);
            s->known[i][to][ct]++;
            s->gave[i] = (int8_t)ct;
            s->recv[to] = (int8_t)ct;
            s->exchange_card[i] = -1;
        }
        begin_trick(s);
        return;
    }
    case KP_PLAY:
        if (a >= KA_PLAY_TOKEN) play_card(c, s, a - KA_PLAY_TOKEN, 1);
        else play_card(c, s, a - KA_PLAY, 0);
        return;
    case KP_SIDE:
        s->plus3_side = (int8_t)(a - KA_SIDE);
        s->pending_sub &= ~KSUB_SIDE;
        continue_play(c, s);
        return;
    case KP_RECOVER: {
        int p = s->to_move, t = a - KA_RECOVER, id = take_type(c, s->last_trick & s->discard, t);
        s->discard &= ~bb_bit32(id);
        s->last_trick &= ~bb_bit32(id);
        s->hand[p] |= bb_bit32(id);
        s->recover_seat = (int8_t)p;
        /* The choice is made in the open (docs/kitsu.md). */
        for (int o = 0; o < c->players; o++)
            if (o != p) s->known[o][p][t]++;
        if (is_numeral(t)) {
            int col = colour_of_type(t);
            if (s->colour_cap[p][col] != NO_CAP) s->colour_cap[p][col]++;
        }
        s->pending_sub &= ~KSUB_RECOVER;
        continue_play(c, s);
        return;
    }
    case KP_KATANA:
        s->trick_flags[a - KA_KATANA] |= KF_DESTROYED;
        s->pending_sub &= ~KSUB_KATANA;
        continue_play(c, s);
        return;
    case KP_TOKEN_PICK:
        s->gain_token = (int8_t)(a - KA_TOKEN);
        if (clan_size(c) == 1) {
            s->token_holder[(int)s->gain_token] = s->gain_clan;
            after_trick(c, s);
        } else {
            s->phase = KP_TOKEN_SEAT;
        }
        return;
    case KP_TOKEN_SEAT:
        s->token_holder[(int)s->gain_token] = (int8_t)(a - KA_SEAT);
        after_trick(c, s);
        return;
    case KP_ROUND_LEADER:
        s->leader = (int8_t)(a - KA_SEAT);
        start_round(c, s);
        return;
    default:
        return;
    }
}

static void kitsu_returns(const BLGame *g, const void *vst, double *out) {
    const KitsuConfig *c = CFG(g);
    const KitsuState *s = CST(vst);
    for (int i = 0; i < c->players; i++)
        out[i] = s->phase != KP_OVER ? 0.0 : (clan_of(i) == s->winner ? 1.0 : -1.0);
}

static int kitsu_chance_outcomes(const BLGame *g, const void *vst, int32_t *acts, double *probs) {
    const KitsuConfig *c = CFG(g);
    const KitsuState *s = CST(vst);
    int n = 0;
    if (s->phase == KP_FIRST_LEADER) {
        for (int i = 0; i < c->players; i++) { acts[n] = KA_SEAT + i; probs[n++] = 1.0 / c->players; }
    } else if (s->phase == KP_DEAL) {
        double total = bb_popcount32(s->stock);
        for (int t = 0; t < K_NTYPES; t++) {
            int k = type_count(c, s->stock, t);
            if (k) { acts[n] = KA_DEAL + t; probs[n++] = k / total; }
        }
    }
    return n;
}

static int32_t kitsu_sample_chance(const BLGame *g, void *vst) {
    const KitsuConfig *c = CFG(g);
    KitsuState *s = ST(vst);
    if (s->phase == KP_FIRST_LEADER) return KA_SEAT + (int32_t)bl_rng_below(&s->rng, (uint32_t)c->players);
    uint32_t st = s->stock;
    int k = (int)bl_rng_below(&s->rng, (uint32_t)bb_popcount32(st));
    while (k-- > 0) st &= st - 1;
    return KA_DEAL + c->type_of[bb_lsb32(st)];
}

/* ---------- determinization ---------- */

static void shuffle_ids(int8_t *ids, int n, BLRng *r) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)bl_rng_below(r, (uint32_t)(i + 1));
        int8_t t = ids[i]; ids[i] = ids[j]; ids[j] = t;
    }
}

/* One attempt at dealing the unknown cards; 1 on success. */
static int try_determinize(const KitsuConfig *c, const KitsuState *src, KitsuState *s, int o, BLRng *r) {
    int P = c->players;
    uint32_t hidden_by[K_MAX_PLAYERS] = {0};  /* trick positions hidden to o, per seat */
    uint32_t pool = src->stock;
    int slots[K_MAX_PLAYERS] = {0};
    for (int p = 0; p < P; p++) {
        if (p == o) continue;
        pool |= src->hand[p];
        slots[p] = bb_popcount32(src->hand[p]);
        if (src->exchange_card[p] >= 0) pool |= bb_bit32(src->exchange_card[p]);
    }
    for (int i = 0; i < src->n_played; i++)
        if ((src->trick_flags[i] & KF_HIDDEN) && src->trick_seat[i] != o) {
            int p = src->trick_seat[i];
            pool |= bb_bit32(src->trick_card[i]);
            hidden_by[p] |= 1u << i;
            slots[p]++;
        }
    /* Cards o knows to be in another hand go there first. */
    uint32_t group[K_MAX_PLAYERS] = {0};
    for (int p = 0; p < P; p++) {
        if (p == o) continue;
        for (int t = 0; t < K_NTYPES; t++)
            for (int k = 0; k < src->known[o][p][t]; k++) {
                uint32_t m = pool & c->type_mask[t];
                if (!m) return 0;
                int id = bb_lsb32(m);
                pool &= ~bb_bit32(id);
                group[p] |= bb_bit32(id);
            }
    }
    int8_t ids[K_MAX_CARDS];
    int n = 0;
    for (uint32_t m = pool; m;) ids[n++] = (int8_t)bb_pop_lsb32(&m);
    shuffle_ids(ids, n, r);
    /* Seats with colour bounds draw first, skipping cards that break them. */
    int order[K_MAX_PLAYERS], no = 0;
    for (int p = 0; p < P; p++)
        if (p != o && (src->colour_cap[p][0] != NO_CAP || src->colour_cap[p][1] != NO_CAP)) order[no++] = p;
    for (int p = 0; p < P; p++)
        if (p != o && src->colour_cap[p][0] == NO_CAP && src->colour_cap[p][1] == NO_CAP) order[no++] = p;
    uint8_t used[K_MAX_CARDS] = {0};
    for (int q = 0; q < no; q++) {
        int p = order[q];
        int col_n[2] = {bb_popcount32(group[p] & c->colour_mask[0]), bb_popcount32(group[p] & c->colour_mask[1])};
        int need = slots[p] - bb_popcount32(group[p]);
        for (int i = 0; i < n && need > 0; i++) {
            if (used[i]) continue;
            int id = ids[i], t = c->type_of[id];
            if (is_numeral(t)) {
                int col = colour_of_type(t);
                if (src->colour_cap[p][col] != NO_CAP && col_n[col] + 1 > src->colour_cap[p][col]) continue;
                col_n[col]++;
            }
            used[i] = 1;
            group[p] |= bb_bit32(id);
            need--;
        }
        if (need > 0) return 0;
        for (int col = 0; col < 2; col++)
            if (src->colour_cap[p][col] != NO_CAP && col_n[col] > src->colour_cap[p][col]) return 0;
    }
    /* Pick each hidden trick card from its owner's group. */
    for (int p = 0; p < P; p++) {
        if (p == o) continue;
        for (uint32_t hb = hidden_by[p]; hb;) {
            int i = bb_pop_lsb32(&hb);
            uint32_t cand = group[p] & ~(c->type_mask[KT_KATANA] | c->type_mask[KT_BLACK]);
            int fc = src->trick_forced[i];
            if (fc >= 0 && (group[p] & c->colour_mask[fc])) cand &= c->colour_mask[fc];
            if (!cand) return 0;
            int k = (int)bl_rng_below(r, (uint32_t)bb_popcount32(cand));
            while (k-- > 0) cand &= cand - 1;
            int id = bb_lsb32(cand);
            s->trick_card[i] = (int8_t)id;
            group[p] &= ~bb_bit32(id);
        }
        s->hand[p] = group[p];
    }
    /* Cards put down for the exchange, then the stock, take the rest. */
    int i = 0;
    for (int p = 0; p < P; p++) {
        if (p == o || src->exchange_card[p] < 0) continue;
        while (used[i]) i++;
        used[i] = 1;
        s->exchange_card[p] = ids[i];
    }
    s->stock = 0;
    for (int j = 0; j < n; j++)
        if (!used[j]) s->stock |= bb_bit32(ids[j]);
    return 1;
}

static void kitsu_determinize(const BLGame *g, void *vst, int o, BLRng *r) {
    const KitsuConfig *c = CFG(g);
    KitsuState *s = ST(vst);
    KitsuState src;
    memcpy(&src, s, sizeof src);
    for (int attempt = 0; attempt < 200; attempt++) {
        if (try_determinize(c, &src, s, o, r)) break;
        memcpy(s, &src, sizeof src);  /* a dead end: start over */
    }
    /* What the other seats "know" must hold in this world too. */
    for (int p = 0; p < c->players; p++) {
        if (p == o) continue;
        for (int q = 0; q < c->players; q++)
            for (int t = 0; t < K_NTYPES; t++) {
                int have = type_count(c, s->hand[q], t);
                if (s->known[p][q][t] > have) s->known[p][q][t] = (uint8_t)have;
            }
        if (s->gave[p] >= 0 && exchange_target(c, p) != o) {
            int q = exchange_target(c, p);
            s->gave[p] = s->recv[q] = -1;  /* unknown to o: not part of this world */
        }
    }
    bl_rng_seed(&s->rng, bl_rng_next(r));
}

/* ---------- evaluation ---------- */

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
static void kitsu_evaluate(const BLGame *g, const void *vst, double *out) {
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

/* ---------- text ---------- */

static int kitsu_action_to_string(const BLGame *g, const void *vst, int32_t a, char *buf, int cap) {
    const KitsuConfig *c = CFG(g);
    const KitsuState *s = CST(vst);
    if (a >= KA_PLAY && a < KA_PLAY_TOKEN) return snprintf(buf, cap, "play %s", TYPE_NAME[a - KA_PLAY]);
    if (a >= KA_PLAY_TOKEN && a < KA_GIVE) {
        int k = token_of_seat(s, s->to_move);
        return snprintf(buf, cap, "play %s with %s", TYPE_NAME[a - KA_PLAY_TOKEN], k >= 0 ? TOKEN_NAME[k] : "token");
    }
    if (a >= KA_GIVE && a < KA_SIDE) return snprintf(buf, cap, "give %s", TYPE_NAME[a - KA_GIVE]);
    if (a >= KA_SIDE && a < KA_KATANA) return snprintf(buf, cap, "+3 to %s", CLAN_NAME[a - KA_SIDE]);
    if (a >= KA_KATANA && a < KA_RECOVER) {
        int i = a - KA_KATANA;
        if (i < s->n_played)
            return snprintf(buf, cap, "katana #%d P%d %s", i + 1, s->trick_seat[i], TYPE_NAME[(int)c->type_of[(int)s->trick_card[i]]]);
        return snprintf(buf, cap, "katana #%d", i + 1);
    }
    if (a >= KA_RECOVER && a < KA_TOKEN) return snprintf(buf, cap, "recover %s", TYPE_NAME[a - KA_RECOVER]);
    if (a >= KA_TOKEN && a < KA_SEAT) return snprintf(buf, cap, "take %s", TOKEN_NAME[a - KA_TOKEN]);
    if (a >= KA_SEAT && a < KA_DEAL) {
        int seat = a - KA_SEAT;
        if (s->phase == KP_TOKEN_SEAT) return snprintf(buf, cap, "token to P%d", seat);
        if (s->phase == KP_FIRST_LEADER) return snprintf(buf, cap, "first leader P%d", seat);
        return snprintf(buf, cap, "leader P%d", seat);
    }
    if (a >= KA_DEAL && a < KA_NUM)
        return snprintf(buf, cap, "%s %s to P%d", s->deal_refill ? "draw" : "deal", TYPE_NAME[a - KA_DEAL], s->deal_to);
    return snprintf(buf, cap, "action %d", a);
}

static void jw_cards(BLJw *w, const KitsuConfig *c, uint32_t set) {
    bl_jw(w, "[");
    int first = 1;
    for (uint32_t m = set; m;) {
        int id = bb_pop_lsb32(&m);
        bl_jw(w, "%s\"%s\"", first ? "" : ",", TYPE_NAME[(int)c->type_of[id]]);
        first = 0;
    }
    bl_jw(w, "]");
}
static void jw_seat_or_null(BLJw *w, int seat) {
    if (seat >= 0) bl_jw(w, "%d", seat); else bl_jw(w, "null");
}

static const char *const PHASE_NAME[] = {"first_leader", "deal", "exchange", "play", "plus3_side",
                                         "recover", "katana", "token_pick", "token_seat", "round_leader", "over"};

static int kitsu_observe_json(const BLGame *g, const void *vst, int v, char *buf, int cap) {
    const KitsuConfig *c = CFG(g);
    const KitsuState *s = CST(vst);
    BLJw w = {buf, cap, 0};
    int P = c->players, full = v < 0;
    int cp = kitsu_current_player(g, vst);
    bl_jw(&w, "{\"game\":\"kitsu\",\"players\":%d,\"viewer\":", P);
    jw_seat_or_null(&w, v);
    bl_jw(&w, ",\"track_length\":%d,\"phase\":\"%s\",\"current_player\":%d,\"round\":%d,\"deal\":%d,\"tricks\":%d",
       c->track_length, PHASE_NAME[(int)s->phase], cp, s->round, s->deal_no, s->trick_no);
    bl_jw(&w, ",\"pawns\":[%d,%d],\"rounds_won\":[%d,%d],\"leader\":%d,\"clans\":[", s->pawn[0], s->pawn[1],
       s->rounds_won[0], s->rounds_won[1], s->leader);
    for (int i = 0; i < P; i++) bl_jw(&w, "%s\"%s\"", i ? "," : "", CLAN_NAME[clan_of(i)]);
    bl_jw(&w, "],\"winner\":");
    if (s->winner >= 0) bl_jw(&w, "\"%s\"", CLAN_NAME[(int)s->winner]); else bl_jw(&w, "null");
    bl_jw(&w, ",\"hand_sizes\":[");
    for (int i = 0; i < P; i++) bl_jw(&w, "%s%d", i ? "," : "", bb_popcount32(s->hand[i]));
    bl_jw(&w, "],\"hands\":[");
    for (int i = 0; i < P; i++) {
        if (i) bl_jw(&w, ",");
        if (full || i == v) jw_cards(&w, c, s->hand[i]); else bl_jw(&w, "null");
    }
    bl_jw(&w, "],\"stock_size\":%d,\"stock\":", bb_popcount32(s->stock));
    if (full) jw_cards(&w, c, s->stock); else bl_jw(&w, "null");
    bl_jw(&w, ",\"discard\":");
    jw_cards(&w, c, s->discard);
    bl_jw(&w, ",\"trick\":[");
    for (int i = 0; i < s->n_played; i++) {
        int hid = s->trick_flags[i] & KF_HIDDEN, seat = s->trick_seat[i];
        bl_jw(&w, "%s{\"seat\":%d,\"card\":", i ? "," : "", seat);
        if (!hid || full || seat == v) bl_jw(&w, "\"%s\"", TYPE_NAME[(int)c->type_of[(int)s->trick_card[i]]]);
        else bl_jw(&w, "null");
        bl_jw(&w, ",\"hidden\":%s,\"destroyed\":%s}", hid ? "true" : "false",
           (s->trick_flags[i] & KF_DESTROYED) ? "true" : "false");
    }
    bl_jw(&w, "],\"last_trick\":{\"cards\":[");
    for (int i = 0; i < s->prev_n; i++)
        bl_jw(&w, "%s{\"seat\":%d,\"card\":\"%s\",\"destroyed\":%s}", i ? "," : "", s->prev_seat[i],
           TYPE_NAME[(int)c->type_of[(int)s->prev_card[i]]], (s->prev_flags[i] & KF_DESTROYED) ? "true" : "false");
    bl_jw(&w, "],\"winner\":");
    if (s->prev_winner >= 0) bl_jw(&w, "\"%s\"", CLAN_NAME[(int)s->prev_winner]); else bl_jw(&w, "null");
    bl_jw(&w, ",\"moved\":%d},\"tokens\":{", s->prev_moved);
    for (int k = 0; k < K_NTOKENS; k++) {
        bl_jw(&w, "%s\"%s\":{\"holder\":", k ? "," : "", TOKEN_NAME[k]);
        jw_seat_or_null(&w, s->token_holder[k]);
        bl_jw(&w, ",\"used\":%s,\"in_trick\":%s}", (s->tokens_used >> k & 1) ? "true" : "false",
           (s->tokens_played >> k & 1) ? "true" : "false");
    }
    bl_jw(&w, "},\"plus3_side\":");
    if (s->plus3_side >= 0) bl_jw(&w, "\"%s\"", CLAN_NAME[(int)s->plus3_side]); else bl_jw(&w, "null");
    bl_jw(&w, ",\"forced\":");
    if (s->forced_seat >= 0) bl_jw(&w, "{\"seat\":%d,\"colour\":\"%s\"}", s->forced_seat, CLAN_NAME[(int)s->forced_colour]);
    else bl_jw(&w, "null");
    /* Exchange: what was put down is private to its owner until taken. */
    bl_jw(&w, ",\"exchange\":[");
    for (int i = 0; i < P; i++) {
        if (i) bl_jw(&w, ",");
        int show = full || i == v, ex = s->exchange_card[i];
        bl_jw(&w, "{\"put_down\":%s,\"card\":", ex >= 0 ? "true" : "false");
        if (show && ex >= 0) bl_jw(&w, "\"%s\"", TYPE_NAME[(int)c->type_of[ex]]); else bl_jw(&w, "null");
        int showgr = full || i == v;
        bl_jw(&w, ",\"gave\":");
        if (showgr && s->gave[i] >= 0) bl_jw(&w, "\"%s\"", TYPE_NAME[(int)s->gave[i]]); else bl_jw(&w, "null");
        bl_jw(&w, ",\"received\":");
        if (showgr && s->recv[i] >= 0) bl_jw(&w, "\"%s\"", TYPE_NAME[(int)s->recv[i]]); else bl_jw(&w, "null");
        bl_jw(&w, "}");
    }
    bl_jw(&w, "],\"known\":");
    /* Cards the viewer knows to be in other hands (from exchanges, recoveries). */
    if (full) bl_jw(&w, "null");
    else {
        bl_jw(&w, "[");
        for (int p = 0; p < P; p++) {
            if (p) bl_jw(&w, ",");
            bl_jw(&w, "[");
            int first = 1;
            for (int t = 0; t < K_NTYPES; t++)
                for (int k = 0; k < (p == v ? 0 : s->known[v][p][t]); k++) {
                    bl_jw(&w, "%s\"%s\"", first ? "" : ",", TYPE_NAME[t]);
                    first = 0;
                }
            bl_jw(&w, "]");
        }
        bl_jw(&w, "]");
    }
    bl_jw(&w, ",\"colour_caps\":[");
    for (int p = 0; p < P; p++) {
        bl_jw(&w, "%s[", p ? "," : "");
        for (int col = 0; col < 2; col++) {
            if (col) bl_jw(&w, ",");
            if (s->colour_cap[p][col] == NO_CAP) bl_jw(&w, "null"); else bl_jw(&w, "%d", s->colour_cap[p][col]);
        }
        bl_jw(&w, "]");
    }
    bl_jw(&w, "],\"recover_seat\":");
    jw_seat_or_null(&w, s->recover_seat);
    bl_jw(&w, "}");
    return w.len < cap ? w.len : -1;
}

/* ---------- position set-up (see kitsu.h for the vector) ---------- */

#define SETUP_FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* Take k copies of type t out of *pool into *dst; 0 if there are too few. */
static int take_copies(const KitsuConfig *c, uint32_t *pool, uint32_t *dst, int t, int k) {
    for (int j = 0; j < k; j++) {
        uint32_t m = *pool & c->type_mask[t];
        if (!m) return 0;
        int id = bb_lsb32(m);
        *pool &= ~bb_bit32(id);
        *dst |= bb_bit32(id);
    }
    return 1;
}

static int kitsu_setup(const BLGame *g, void *vst, uint64_t seed, const int32_t *d, int n, char *err, int errlen) {
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
            SETUP_FAIL("pawns: %s must be 0..%d (reaching %d ends the round), got %d", CLAN_NAME[clan],
                       c->track_length - 1, c->track_length, d[2 + clan]);
        if (d[4 + clan] < 0 || d[4 + clan] > 1)
            SETUP_FAIL("rounds_won: %s must be 0 or 1 while the game goes on, got %d", CLAN_NAME[clan], d[4 + clan]);
        s->pawn[clan] = (int8_t)d[2 + clan];
        s->rounds_won[clan] = (int8_t)d[4 + clan];
    }
    s->round = (int8_t)(s->rounds_won[0] + s->rounds_won[1] + 1);
    s->deal_no = 1;
    for (int k = 0; k < K_NTOKENS; k++) {
        int h = d[6 + k];
        if (h == -2) s->tokens_used |= (uint8_t)(1u << k);
        else if (h >= 0 && h < P) {
            if (clan_holds_token(c, s, clan_of(h))) SETUP_FAIL("tokens: the %s clan holds two tokens (at most one per team)", CLAN_NAME[clan_of(h)]);
            s->token_holder[k] = (int8_t)h;
        } else if (h != -1) SETUP_FAIL("tokens: %s must be available, used or held by a seat, got %d", TOKEN_NAME[k], h);
    }
    const int32_t *sizes = d + 11, *mine = sizes + P, *disc = mine + K_NTYPES, *last = disc + K_NTYPES;
    const int32_t *known = last + K_NTYPES, *tr = known + P * K_NTYPES + 1;
    uint32_t pool = c->all_cards;
    for (int t = 0; t < K_NTYPES; t++) {
        if (mine[t] < 0 || disc[t] < 0 || last[t] < 0) SETUP_FAIL("card counts must not be negative (%s)", TYPE_NAME[t]);
        if (last[t] > disc[t]) SETUP_FAIL("last_trick: %s is not in the discard pile that many times", TYPE_NAME[t]);
        if (!take_copies(c, &pool, &s->hand[v], t, mine[t])) SETUP_FAIL("hand: more %s than the deck has", TYPE_NAME[t]);
    }
    for (int t = 0; t < K_NTYPES; t++) {
        uint32_t got = 0;
        if (!take_copies(c, &pool, &got, t, disc[t])) SETUP_FAIL("discard: more %s than the deck has left", TYPE_NAME[t]);
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
        if (hid && (t == KT_KATANA || t == KT_BLACK)) SETUP_FAIL("trick card %d: %s cannot be played face down", i + 1, TYPE_NAME[t]);
        if (des && (t < 0 || !is_numeral(t) || hid)) SETUP_FAIL("trick card %d: only a face-up numeral card can be destroyed", i + 1);
        if (tok >= 0) {
            if (s->tokens_played >> tok & 1) SETUP_FAIL("trick card %d: the %s token is played twice", i + 1, TOKEN_NAME[tok]);
            if (s->token_holder[tok] >= 0) SETUP_FAIL("trick card %d: the %s token is still held by P%d", i + 1, TOKEN_NAME[tok], s->token_holder[tok]);
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
            if (!take_copies(c, &pool, &got, t, 1)) SETUP_FAIL("trick card %d: no %s left in the deck", i + 1, TYPE_NAME[t]);
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
            if (k < 0 || !take_copies(c, &pool, &s->hand[p], t, k)) SETUP_FAIL("known: P%d cannot hold that many %s", p, TYPE_NAME[t]);
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
    shuffle_ids(ids, m, &r);
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

const BLGameVTable bl_kitsu_vtable = {
    "kitsu",
    kitsu_configure,
    kitsu_init,
    kitsu_current_player,
    kitsu_legal_actions,
    kitsu_apply,
    kitsu_returns,
    kitsu_chance_outcomes,
    kitsu_sample_chance,
    kitsu_determinize,
    kitsu_evaluate,
    kitsu_action_to_string,
    kitsu_observe_json,
    kitsu_setup,
};
