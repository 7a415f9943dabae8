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

/* Another seat learns that `seat` no longer holds one card of type t. */
static void forget_card(KitsuState *s, int players, int seat, int t) {
    for (int o = 0; o < players; o++)
        if (s->known[o][seat][t]) s->known[o][seat][t]--;
}
/* A card `seat` played is seen (face up, or a hidden card revealed at the end
 * of the trick): it left the hand, and a seat forced to a colour by a Black
 * Kitsune that did not follow has none of that colour. */
static void reveal_played(const KitsuConfig *c, KitsuState *s, int seat, int t, int forced) {
    forget_card(s, c->players, seat, t);
    if (is_numeral(t)) {
        int col = colour_of_type(t);
        if (s->colour_cap[seat][col] != NO_CAP && s->colour_cap[seat][col] > 0) s->colour_cap[seat][col]--;
    }
    if (forced >= 0 && !(is_numeral(t) && colour_of_type(t) == forced)) s->colour_cap[seat][forced] = 0;
}
/* The hands are gone (redeal, round end): what seats learned about them goes too. */
static void forget_deal(KitsuState *s) {
    memset(s->known, 0, sizeof s->known);
    for (int i = 0; i < K_MAX_PLAYERS; i++) {
        s->gave[i] = s->recv[i] = -1;
        s->colour_cap[i][0] = s->colour_cap[i][1] = NO_CAP;
    }
    s->recover_seat = -1;
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

/* ---------- flow ---------- */

static void start_deal(const KitsuConfig *c, KitsuState *s) {
    for (int i = 0; i < c->players; i++) {
        s->hand[i] = 0;
        s->exchange_card[i] = -1;
    }
    forget_deal(s);
    s->stock = c->all_cards;
    s->discard = s->last_trick = 0;   /* the last trick is shuffled in: Recover waits for a trick */
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
        forget_deal(s);
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
        if (s->trick_flags[i] & KF_HIDDEN) reveal_played(c, s, seat, t, s->trick_forced[i]);
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
    if (!(s->trick_flags[i] & KF_HIDDEN)) reveal_played(c, s, p, t, forced);
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
        if (!s->deal_refill && s->stock == c->all_cards) {
            /* The cards are dealt again: the last trick is no longer on the table. */
            s->prev_n = 0;
            s->prev_winner = -1;
            s->prev_moved = 0;
        }
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

/* ---------- determinization ----------
 *
 * determinize(o) deals every card o cannot see — the other hands, the cards
 * others put down in an exchange still in progress, another seat's hidden
 * card in the trick, the stock — uniformly among the deals that agree with
 * everything o knows:
 *   - hand sizes (public);
 *   - known[o][p]: cards o knows p holds (hand or hidden trick card); these
 *     are physical cards o saw go there, so they are placed first;
 *   - colour_cap[p][c]: at most that many colour-c numerals in p's hand and
 *     hidden trick card (Black Kitsune voids);
 *   - the hidden trick card (at most one: there is one Hidden-card token) is
 *     neither Katana nor Black Kitsune, and if its owner was forced to a
 *     colour by a Black Kitsune it has that colour unless the owner had none
 *     (then the rest of its hand has none).
 * Only the class of a free card matters to these constraints (blue numeral,
 * orange numeral, special), so the deal is counted exactly: a small dynamic
 * programme over the class counts of the capped seats (uncapped seats, the
 * exchange cards and the stock form one unconstrained rest), then the cards of
 * each class are shuffled. The sampler never dead-ends: every information set
 * reached by play contains the true deal, so the count is never zero (the
 * tests check that the true deal keeps every constraint above).
 *
 * The result depends only on what o knows and on rng: the unknown cards are
 * taken in ascending id order (= ascending type order), every choice is made
 * from counts o knows, and the state's own RNG is reseeded from rng. */

enum { KCL_BLUE = KC_BLUE, KCL_ORANGE = KC_ORANGE, KCL_SPECIAL = 2, K_NCLASS = 3 };
#define K_UNCAPPED 99
/* (blue + 1) x (orange + 1) free-card counts, blue + orange <= 32: at most 17 x 17. */
#define K_PLANE ((K_MAX_CARDS / 2 + 1) * (K_MAX_CARDS / 2 + 1))

static inline int class_of_type(int t) { return is_numeral(t) ? colour_of_type(t) : KCL_SPECIAL; }

/* The free (not pre-placed) part of a deal, as the counting sees it. */
typedef struct {
    int need[K_MAX_PLAYERS];      /* free cards each seat takes (0 for the observer) */
    int cap[K_MAX_PLAYERS][2];    /* most free numerals of each colour (K_UNCAPPED: any) */
    int n[K_NCLASS];              /* free cards of each class */
    int nbin;                     /* exchange cards put down + stock: unconstrained */
} DealShape;

static int capped_seats(const DealShape *d, int P, int *lv) {
    int n = 0;
    for (int p = 0; p < P; p++)
        if (d->cap[p][0] < K_UNCAPPED || d->cap[p][1] < K_UNCAPPED) lv[n++] = p;
    return n;
}

/* Ways to split the free cards of the rest group (uncapped seats and the bin):
 * M! / (prod need! * nbin!), i.e. M! * rest_inv. */
static double rest_inv(const DealShape *d, int P, const double *inv) {
    double w = inv[d->nbin];
    for (int p = 0; p < P; p++)
        if (!(d->cap[p][0] < K_UNCAPPED || d->cap[p][1] < K_UNCAPPED)) w *= inv[d->need[p]];
    return w;
}

/* Capped seat p, holding (b, o) blue/orange left of which `spec` specials
 * remain: weight of taking (bb, oo, need - bb - oo). 0 if not allowed. */
static inline double seat_term(const DealShape *d, int p, int bb, int oo, int spec_left, const double *inv) {
    int ss = d->need[p] - bb - oo;
    if (ss < 0 || ss > spec_left || bb > d->cap[p][0] || oo > d->cap[p][1]) return 0.0;
    return inv[bb] * inv[oo] * inv[ss];
}

/* F[j][b][o]: weight of dealing b blue, o orange and the matching specials
 * to capped seats lv[j..] and the rest group. Returns the number of physical
 * deals of the free cards (0: no deal satisfies the constraints). */
static double count_deals(const DealShape *d, int P, const int *lv, int nlv, double *F,
                          const double *fact, const double *inv) {
    int NB = d->n[0], NO = d->n[1], W = NO + 1, plane = (NB + 1) * W;
    int M = d->nbin, T[K_MAX_PLAYERS + 1];
    for (int p = 0; p < P; p++)
        if (!(d->cap[p][0] < K_UNCAPPED || d->cap[p][1] < K_UNCAPPED)) M += d->need[p];
    T[nlv] = M;
    for (int j = nlv - 1; j >= 0; j--) T[j] = T[j + 1] + d->need[lv[j]];
    if (M < 0 || T[0] != NB + NO + d->n[2]) return 0.0;
    double *Fl = F + (size_t)nlv * plane;
    for (int b = 0; b <= NB; b++)
        for (int o = 0; o <= NO; o++) {
            int s = M - b - o;
            Fl[b * W + o] = s >= 0 ? inv[b] * inv[o] * inv[s] : 0.0;
        }
    for (int j = nlv - 1; j >= 0; j--) {
        int p = lv[j];
        double *Fj = F + (size_t)j * plane, *Fn = Fj + plane;
        for (int b = 0; b <= NB; b++)
            for (int o = 0; o <= NO; o++) {
                int spec = T[j] - b - o;
                double sum = 0.0;
                if (spec >= 0)
                    for (int bb = 0; bb <= b && bb <= d->need[p]; bb++)
                        for (int oo = 0; oo <= o && bb + oo <= d->need[p]; oo++) {
                            double t = seat_term(d, p, bb, oo, spec, inv);
                            if (t > 0.0) sum += t * Fn[(b - bb) * W + (o - oo)];
                        }
                Fj[b * W + o] = sum;
            }
    }
    return fact[NB] * fact[NO] * fact[d->n[2]] * F[NB * W + NO] * fact[M] * rest_inv(d, P, inv);
}

static double deal_count(const DealShape *d, int P, const double *fact, const double *inv) {
    int lv[K_MAX_PLAYERS], nlv = capped_seats(d, P, lv);
    if (nlv == 0) {
        int N = d->n[0] + d->n[1] + d->n[2], M = d->nbin;
        for (int p = 0; p < P; p++) M += d->need[p];
        return M == N ? fact[N] * rest_inv(d, P, inv) : 0.0;
    }
    double F[(K_MAX_PLAYERS + 1) * K_PLANE];
    return count_deals(d, P, lv, nlv, F, fact, inv);
}

static void shuffle_ids(int8_t *ids, int n, BLRng *r) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)bl_rng_below(r, (uint32_t)(i + 1));
        int8_t t = ids[i]; ids[i] = ids[j]; ids[j] = t;
    }
}
static int ids_of(uint32_t set, int8_t *out) {
    int n = 0;
    while (set) out[n++] = (int8_t)bb_pop_lsb32(&set);
    return n;
}
/* Index picked with probability w[i] / total. */
static int pick_weighted(const double *w, int n, double total, BLRng *r) {
    double u = bl_rng_double(r) * total;
    int last = -1;
    for (int i = 0; i < n; i++) {
        if (w[i] <= 0.0) continue;
        last = i;
        if (u < w[i]) return i;
        u -= w[i];
    }
    return last;  /* rounding at the top end */
}

/* Deal the free cards `pool` per shape d: capped seats get class counts drawn
 * from the exact count, the rest group is a uniform shuffle. Free cards of
 * seat p are OR-ed into hand[p]; the bin's cards are returned in *bin_ids.
 * -1 if no deal fits (the caller has checked there is one). */
static int deal_free(const KitsuConfig *c, const DealShape *d, int P, int o, uint32_t pool,
                      uint32_t *hand, int8_t *bin_ids, BLRng *r, const double *fact, const double *inv) {
    int lv[K_MAX_PLAYERS], nlv = capped_seats(d, P, lv);
    int8_t rest[K_MAX_CARDS];
    int nrest = 0;
    if (nlv > 0) {
        double F[(K_MAX_PLAYERS + 1) * K_PLANE];
        count_deals(d, P, lv, nlv, F, fact, inv);
        int8_t cls[K_NCLASS][K_MAX_CARDS];
        int ncl[K_NCLASS], at[K_NCLASS] = {0, 0, 0};
        ncl[0] = ids_of(pool & c->colour_mask[0], cls[0]);
        ncl[1] = ids_of(pool & c->colour_mask[1], cls[1]);
        ncl[2] = ids_of(pool & ~(c->colour_mask[0] | c->colour_mask[1]), cls[2]);
        for (int k = 0; k < K_NCLASS; k++) shuffle_ids(cls[k], ncl[k], r);
        int W = d->n[1] + 1, plane = (d->n[0] + 1) * W, b = d->n[0], o2 = d->n[1];
        int spec = d->n[2];
        for (int j = 0; j < nlv; j++) {
            int p = lv[j];
            double w[K_PLANE];
            int nw = 0, choice_b[K_PLANE], choice_o[K_PLANE];
            double total = 0.0;
            const double *Fn = F + (size_t)(j + 1) * plane;
            for (int bb = 0; bb <= b && bb <= d->need[p]; bb++)
                for (int oo = 0; oo <= o2 && bb + oo <= d->need[p]; oo++) {
                    double t = seat_term(d, p, bb, oo, spec, inv);
                    w[nw] = t > 0.0 ? t * Fn[(b - bb) * W + (o2 - oo)] : 0.0;
                    choice_b[nw] = bb; choice_o[nw] = oo;
                    total += w[nw++];
                }
            int k = pick_weighted(w, nw, total, r);
            if (k < 0) return -1;
            int take[K_NCLASS] = {choice_b[k], choice_o[k], d->need[p] - choice_b[k] - choice_o[k]};
            for (int cl = 0; cl < K_NCLASS; cl++)
                for (int i = 0; i < take[cl]; i++) hand[p] |= bb_bit32(cls[cl][at[cl]++]);
            b -= take[0]; o2 -= take[1]; spec -= take[2];
        }
        for (int cl = 0; cl < K_NCLASS; cl++)
            while (at[cl] < ncl[cl]) rest[nrest++] = cls[cl][at[cl]++];
    } else {
        nrest = ids_of(pool, rest);
    }
    shuffle_ids(rest, nrest, r);
    int i = 0;
    for (int p = 0; p < P; p++) {
        if (p == o || d->cap[p][0] < K_UNCAPPED || d->cap[p][1] < K_UNCAPPED) continue;
        for (int k = 0; k < d->need[p]; k++) hand[p] |= bb_bit32(rest[i++]);
    }
    for (int k = 0; k < d->nbin; k++) bin_ids[k] = rest[i++];
    return 0;
}

/* One candidate for another seat's hidden trick card. */
typedef struct {
    int from_known;   /* 1: one of the cards o knows the owner holds, of type t */
    int t;            /* that type, or the class (KCL_*) of a free card: special = White */
    double w;         /* physical choices x deals of the rest */
    DealShape d;
} HiddenChoice;

/* Resample in place; -1 if no deal fits (never for a state reached by play). */
static int sample_world(const KitsuConfig *c, KitsuState *s, int o, BLRng *r) {
    int P = c->players;
    /* Everything o cannot see, in id order. */
    uint32_t pool = s->stock;
    int x = -1, ix = -1;
    for (int p = 0; p < P; p++) {
        if (p == o) continue;
        pool |= s->hand[p];
        if (s->exchange_card[p] >= 0) pool |= bb_bit32(s->exchange_card[p]);
    }
    for (int i = 0; i < s->n_played; i++)
        if ((s->trick_flags[i] & KF_HIDDEN) && s->trick_seat[i] != o) {
            if (x >= 0) return -1;                /* one Hidden-card token */
            x = s->trick_seat[i]; ix = i;
            pool |= bb_bit32(s->trick_card[i]);
        }
    /* Cards o knows another seat holds go there first (lowest ids: canonical). */
    uint32_t group[K_MAX_PLAYERS] = {0};
    DealShape d;
    memset(&d, 0, sizeof d);
    for (int p = 0; p < P; p++) {
        d.cap[p][0] = d.cap[p][1] = K_UNCAPPED;
        if (p == o) continue;
        for (int t = 0; t < K_NTYPES; t++)
            if (!take_copies(c, &pool, &group[p], t, s->known[o][p][t])) return -1;
        d.need[p] = bb_popcount32(s->hand[p]) + (p == x) - bb_popcount32(group[p]);
        if (d.need[p] < 0) return -1;
        for (int col = 0; col < 2; col++)
            if (s->colour_cap[p][col] != NO_CAP) {
                d.cap[p][col] = s->colour_cap[p][col] - bb_popcount32(group[p] & c->colour_mask[col]);
                if (d.cap[p][col] < 0) return -1;
            }
    }
    for (int p = 0; p < P; p++) if (p != o && s->exchange_card[p] >= 0) d.nbin++;
    d.nbin += bb_popcount32(s->stock);
    d.n[0] = bb_popcount32(pool & c->colour_mask[0]);
    d.n[1] = bb_popcount32(pool & c->colour_mask[1]);
    d.n[2] = bb_popcount32(pool) - d.n[0] - d.n[1];

    const double *fact = c->fact, *inv = c->inv_fact;
    int lv[K_MAX_PLAYERS];
    int8_t hidden_id = -1;
    if (x >= 0) {
        /* The hidden card: enumerate what it can be, weighted by its deals. (Its
         * owner plays no later card of this trick before the trick ends and
         * reveals it, except a Katana: the hand is all there is to check.) */
        int fc = s->trick_forced[ix];
        int known_fc = fc >= 0 ? bb_popcount32(group[x] & c->colour_mask[fc]) : 0;
        HiddenChoice ch[K_NCLASS + K_NTYPES];
        int nch = 0;
        double total = 0.0;
        for (int k = 0; k < K_NCLASS + K_NTYPES; k++) {
            HiddenChoice h;
            h.from_known = k >= K_NCLASS;
            h.t = h.from_known ? k - K_NCLASS : k;
            h.d = d;
            int copies, cls, t = h.from_known ? h.t : (k == KCL_SPECIAL ? KT_WHITE : -1);
            if (h.from_known) {
                if (t == KT_KATANA || t == KT_BLACK) continue;
                copies = type_count(c, group[x], t);
                cls = class_of_type(t);
            } else {
                cls = k;
                copies = k == KCL_SPECIAL ? type_count(c, pool, KT_WHITE) : h.d.n[k];
                h.d.need[x]--;
                h.d.n[k]--;
                if (k != KCL_SPECIAL && h.d.cap[x][k] < K_UNCAPPED && --h.d.cap[x][k] < 0) continue;
            }
            if (copies <= 0 || h.d.need[x] < 0) continue;
            if (fc >= 0 && cls != fc) {
                /* Not the forced colour: the owner had none of it. */
                if (known_fc > 0) continue;
                h.d.cap[x][fc] = 0;
            }
            h.w = copies * deal_count(&h.d, P, fact, inv);
            if (h.w <= 0.0) continue;
            total += h.w;
            ch[nch++] = h;
        }
        if (nch == 0 || !(total > 0.0)) return -1;
        double w[K_NCLASS + K_NTYPES];
        for (int i = 0; i < nch; i++) w[i] = ch[i].w;
        const HiddenChoice *h = &ch[pick_weighted(w, nch, total, r)];
        uint32_t from;
        if (h->from_known) from = group[x] & c->type_mask[h->t];
        else if (h->t == KCL_SPECIAL) from = pool & c->type_mask[KT_WHITE];
        else from = pool & c->colour_mask[h->t];
        int k = (int)bl_rng_below(r, (uint32_t)bb_popcount32(from));
        while (k-- > 0) from &= from - 1;
        hidden_id = (int8_t)bb_lsb32(from);
        if (h->from_known) group[x] &= ~bb_bit32(hidden_id);
        else pool &= ~bb_bit32(hidden_id);
        d = h->d;
    } else if (capped_seats(&d, P, lv) > 0 && !(deal_count(&d, P, fact, inv) > 0.0)) {
        return -1;
    }

    int8_t bin[K_MAX_CARDS];
    if (deal_free(c, &d, P, o, pool, group, bin, r, fact, inv) != 0) return -1;
    for (int p = 0; p < P; p++)
        if (p != o) s->hand[p] = group[p];
    if (x >= 0) s->trick_card[ix] = hidden_id;
    int i = 0;
    for (int p = 0; p < P; p++)
        if (p != o && s->exchange_card[p] >= 0) s->exchange_card[p] = bin[i++];
    s->stock = 0;
    while (i < d.nbin) s->stock |= bb_bit32(bin[i++]);
    return 0;
}

/* No state reached by play or set up from facts fails here (the true deal
 * satisfies every constraint); a corrupt one is reported, not papered over. */
static int kitsu_determinize(const BLGame *g, void *vst, int o, BLRng *r) {
    const KitsuConfig *c = CFG(g);
    KitsuState *s = ST(vst);
    int P = c->players;
    KitsuState src;
    memcpy(&src, s, sizeof src);
    if (sample_world(c, s, o, r) != 0) {
        memcpy(s, &src, sizeof src);
        return -1;
    }
    /* The other seats' knowledge in this world: what is public (what o knows,
     * less the card o gave, which only o knows), plus what they know of o's
     * hand, which o knows. Exchanges o did not see are not part of it. */
    uint8_t pub[K_MAX_PLAYERS][K_NTYPES];
    for (int q = 0; q < P && q < K_MAX_PLAYERS; q++)
        for (int t = 0; t < K_NTYPES; t++) {
            int k = src.known[o][q][t];
            if (P > 2 && q == exchange_target(c, o) && src.gave[o] == t && k > 0) k--;
            pub[q][t] = (uint8_t)k;
        }
    for (int p = 0; p < P; p++) {
        if (p == o) continue;
        for (int q = 0; q < P && q < K_MAX_PLAYERS; q++)
            if (q != o && q != p) memcpy(s->known[p][q], pub[q], sizeof pub[q]);
        if (s->gave[p] >= 0 && exchange_target(c, p) != o) {
            s->gave[p] = s->recv[exchange_target(c, p)] = -1;
        }
    }
    bl_rng_seed(&s->rng, bl_rng_next(r));
    return 0;
}
/* Inference from play (py/boardlab/games/kitsu_inference.py) asks what another
 * seat would have done with a given hand: in a world (a determinization), give
 * `seat` exactly counts[t] cards of each type t, taken from the cards the world
 * put in that hand or in the stock (the cards its observer could not see);
 * the cards it held go back to the stock. -1 (nothing changed) if the counts
 * do not add up to the hand's size or the cards are not there. */
int kitsu_set_hand(const BLGame *g, void *vst, int seat, const int *counts) {
    const KitsuConfig *c = CFG(g);
    KitsuState *s = ST(vst);
    if (seat < 0 || seat >= c->players) return -1;
    uint32_t pool = s->hand[seat] | s->stock, hand = 0;
    int n = 0;
    for (int t = 0; t < K_NTYPES; t++) {
        if (counts[t] < 0) return -1;
        if (!take_copies(c, &pool, &hand, t, counts[t])) return -1;
        n += counts[t];
    }
    if (n != bb_popcount32(s->hand[seat])) return -1;
    s->hand[seat] = hand;
    s->stock = pool;
    return 0;
}

/* The types in `seat`'s hand of a world (counts[K_NTYPES]) and the type of its
 * face-down card in the current trick (-1 none): what inference walks back from. */
int kitsu_world_hand(const BLGame *g, const void *vst, int seat, int *counts) {
    const KitsuConfig *c = CFG(g);
    const KitsuState *s = (const KitsuState *)vst;
    for (int t = 0; t < K_NTYPES; t++) counts[t] = type_count(c, s->hand[seat], t);
    for (int i = 0; i < s->n_played; i++)
        if ((s->trick_flags[i] & KF_HIDDEN) && s->trick_seat[i] == seat)
            return c->type_of[s->trick_card[i]];
    return -1;
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
        bl_jw(&w, "%s{\"seat\":%d,\"card\":\"%s\",\"hidden\":%s,\"destroyed\":%s}", i ? "," : "", s->prev_seat[i],
           TYPE_NAME[(int)c->type_of[(int)s->prev_card[i]]], (s->prev_flags[i] & KF_HIDDEN) ? "true" : "false",
           (s->prev_flags[i] & KF_DESTROYED) ? "true" : "false");
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
    /* A token being gained: the clan, and the token once picked (in the open). */
    bl_jw(&w, ",\"gain\":");
    if (s->phase == KP_TOKEN_PICK || s->phase == KP_TOKEN_SEAT) {
        bl_jw(&w, "{\"clan\":\"%s\",\"token\":", CLAN_NAME[(int)s->gain_clan]);
        if (s->phase == KP_TOKEN_SEAT) bl_jw(&w, "\"%s\"}", TOKEN_NAME[(int)s->gain_token]); else bl_jw(&w, "null}");
    } else bl_jw(&w, "null");
    /* Dealing: who gets the next card, how many are left to deal in this step. */
    bl_jw(&w, ",\"dealing\":");
    if (s->phase == KP_DEAL)
        bl_jw(&w, "{\"to\":%d,\"left\":%d,\"refill\":%s}", s->deal_to, s->deal_left, s->deal_refill ? "true" : "false");
    else bl_jw(&w, "null");
    bl_jw(&w, "}");
    return w.len < cap ? w.len : -1;
}

/* ---------- position set-up (see kitsu.h for the vector) ---------- */

#define SETUP_FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

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
                       i + 1, v, CLAN_NAME[fc], CLAN_NAME[fc]);
    }
    if (forced_any) {
        BLRng redeal;
        bl_rng_seed(&redeal, seed ^ 0xB1AC4B1AC4ull);
        if (sample_world(c, s, v, &redeal) != 0)
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
