/* Kitsu: the flow of a game (deal, exchange, tricks, rounds, power tokens),
 * the legal actions and their effects, chance (first leader, dealing) and the
 * function table. What each seat learns as cards move is kept here too, for
 * observe.c. Scoring a trick: score.c. */
#include <string.h>
#include "kitsu.h"

#define CFG(g) ((const KitsuConfig *)(g)->config)
#define ST(p) ((KitsuState *)(p))
#define CST(p) ((const KitsuState *)(p))

/* ---------- what the seats learn as cards move ---------- */

/* Take k copies of type t out of *pool into *dst; 0 if there are too few. */
int kitsu_take_copies(const KitsuConfig *c, uint32_t *pool, uint32_t *dst, int t, int k) {
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
/* The trick is complete: its hidden cards are seen, it is scored, then play goes on
 * (after the token pick, if the scoring handed one out). */
static void end_trick(const KitsuConfig *c, KitsuState *s) {
    for (int i = 0; i < s->n_played; i++)
        if (s->trick_flags[i] & KF_HIDDEN)
            reveal_played(c, s, s->trick_seat[i], c->type_of[(int)s->trick_card[i]], s->trick_forced[i]);
    if (!kitsu_score_trick(c, s)) after_trick(c, s);
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

/* ---------- current player, legal actions, apply, chance ---------- */

int kitsu_current_player(const BLGame *g, const void *vst) {
    const KitsuState *s = CST(vst);
    (void)g;
    switch (s->phase) {
    case KP_FIRST_LEADER: case KP_DEAL: return BL_CHANCE;
    case KP_OVER: return BL_TERMINAL;
    default: return s->to_move;
    }
}

int kitsu_legal_actions(const BLGame *g, const void *vst, int32_t *out) {
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

void kitsu_apply(const BLGame *g, void *vst, int32_t a) {
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

int kitsu_chance_outcomes(const BLGame *g, const void *vst, int32_t *acts, double *probs) {
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

int32_t kitsu_sample_chance(const BLGame *g, void *vst) {
    const KitsuConfig *c = CFG(g);
    KitsuState *s = ST(vst);
    if (s->phase == KP_FIRST_LEADER) return KA_SEAT + (int32_t)bl_rng_below(&s->rng, (uint32_t)c->players);
    uint32_t st = s->stock;
    int k = (int)bl_rng_below(&s->rng, (uint32_t)bb_popcount32(st));
    while (k-- > 0) st &= st - 1;
    return KA_DEAL + c->type_of[bb_lsb32(st)];
}

/* ---------- the function table ---------- */

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
    NULL,                 /* rollout_action: uniform */
    kitsu_feature_size,
    kitsu_features,
};
