/* Kitsu — team trick-taking for 2, 4 or 6 players (rules: shared/rules/kitsu.txt,
 * rules as implemented and every choice made: docs/kitsu.md).
 *
 * Files: setup.c (configure, initial state), rules.c (flow, legal actions,
 * apply, chance, the function table), score.c (scoring a trick, returns),
 * observe.c (notation, JSON, determinization), eval.c (heuristic),
 * position.c (Game.position), features.c (the network's input).
 *
 * Parameter vector (built by py/boardlab/games/kitsu.py from data/kitsu.json):
 *   [0] players        2, 4 or 6
 *   [1] track_length   spaces from start to absolute wisdom (stand-in default 15)
 *   [2..16] count of each card type in the deck for this player count
 *
 * Card types: 0..5 Blue 1..6, 6..11 Orange 1..6, 12 White Kitsune,
 *             13 Black Kitsune, 14 Katana. Physical cards get ids 0..n-1
 *             (ids of one type are consecutive) so hands are 32-bit masks.
 * Clans: seat s belongs to clan s % 2 (0 = Blue, 1 = Orange); seats alternate
 * around the table, play passes clockwise = increasing seat index.
 *
 * Action space (num_actions = KA_NUM):
 *   KA_PLAY + t        play a card of type t
 *   KA_PLAY_TOKEN + t  play a card of type t together with the token you hold
 *   KA_GIVE + t        exchange: give a card of type t to your partner (hidden)
 *   KA_SIDE + c        +3 token: the side it adds to (0 Blue, 1 Orange)
 *   KA_KATANA + i      Katana: destroy the i-th card played in this trick
 *   KA_RECOVER + t     Recover-card token: take a card of type t from the last trick
 *   KA_TOKEN + k       the clan takes power token k (see KT_*)
 *   KA_SEAT + s        seat choice: receiver of the token / leader of the next
 *                      round (decisions), or the first leader (chance)
 *   KA_DEAL + t        chance: the next card dealt or drawn is of type t
 *
 * Position set-up vector (Game.position): described in position.c.
 */
#ifndef BL_KITSU_H
#define BL_KITSU_H
#include <stdint.h>
#include "../common/game_api.h"
#include "../common/bitboard.h"

enum { KC_BLUE = 0, KC_ORANGE = 1 };
enum { KT_WHITE = 12, KT_BLACK = 13, KT_KATANA = 14, K_NTYPES = 15 };
enum { KTOK_PLUS3 = 0, KTOK_NOADVANCE, KTOK_HIDDEN, KTOK_RECOVER, KTOK_INVERT, K_NTOKENS };
enum {
    KA_PLAY = 0, KA_PLAY_TOKEN = 15, KA_GIVE = 30, KA_SIDE = 45, KA_KATANA = 47,
    KA_RECOVER = 53, KA_TOKEN = 68, KA_SEAT = 73, KA_DEAL = 79, KA_NUM = 94
};
#define K_MAX_PLAYERS 6
#define K_MAX_CARDS 32
#define K_MAX_TRICK 6

/* Phases: what the pending decision is. */
enum {
    KP_FIRST_LEADER = 0, /* chance: who leads the first round */
    KP_DEAL,             /* chance: next card to deal_to (or 2p refill draw) */
    KP_EXCHANGE,         /* to_move picks the card for their partner */
    KP_PLAY,             /* to_move plays a card (maybe with a token) */
    KP_SIDE,             /* to_move picks the +3 side */
    KP_RECOVER,          /* to_move picks a card from the last trick */
    KP_KATANA,           /* to_move picks the card the Katana destroys */
    KP_TOKEN_PICK,       /* to_move (for their clan) picks an available token */
    KP_TOKEN_SEAT,       /* to_move picks which clan member receives it */
    KP_ROUND_LEADER,     /* to_move (for the round winners) picks the next leader */
    KP_OVER
};

/* Immutable game configuration (lives in BLGame.config). */
typedef struct {
    int players, track_length, n_cards;
    int8_t type_of[K_MAX_CARDS];    /* card id -> type */
    uint32_t type_mask[K_NTYPES];   /* type -> ids of that type */
    uint32_t all_cards;             /* ids 0..n_cards-1 */
    uint32_t colour_mask[2];        /* numeral ids printed Blue / Orange */
    int hand_size;                  /* cards dealt to each seat */
    int trick_size;                 /* cards per trick */
    double fact[K_MAX_CARDS + 1];   /* n! and 1/n!, for counting deals (determinize) */
    double inv_fact[K_MAX_CARDS + 1];
} KitsuConfig;

/* Flags of a card in the current trick. */
enum { KF_HIDDEN = 1, KF_DESTROYED = 2 };
/* Sub-decisions that follow a card play, taken in this order. */
enum { KSUB_SIDE = 1, KSUB_RECOVER = 2, KSUB_KATANA = 4 };

/* Whole game state; plain data, clone = memcpy. */
typedef struct {
    BLRng rng;                      /* game stream: must stay first */
    /* --- position --- */
    int8_t phase;                   /* KP_* */
    int8_t to_move;                 /* seat deciding in a decision phase */
    int8_t leader;                  /* holder of the Leader token (leads this trick) */
    int8_t pawn[2];                 /* wisdom track position per clan (0 = start) */
    int8_t rounds_won[2];           /* round victories per clan */
    int8_t winner;                  /* winning clan once the game is over, else -1 */
    int8_t round;                   /* rounds started so far (1-based while playing) */
    int16_t deal_no;                /* deals in this round so far */
    int16_t trick_no;               /* tricks completed in this game */
    uint32_t hand[K_MAX_PLAYERS];   /* cards in each hand */
    uint32_t stock;                 /* undealt cards: the deck while dealing, the 2p draw pile */
    uint32_t discard;               /* discard pile (this deal) */
    uint32_t last_trick;            /* cards of the last completed trick of this deal */
    /* --- dealing / exchange --- */
    int8_t deal_to;                 /* next seat to receive a dealt card */
    int8_t deal_left;               /* cards still to deal in this dealing step */
    int8_t deal_refill;             /* 1: 2p refill (2 cards each), 0: the deal */
    int8_t exchange_card[K_MAX_PLAYERS]; /* card id each seat put face down (-1 none) */
    /* --- current trick --- */
    int8_t n_played;                /* cards played in the current trick */
    int8_t trick_card[K_MAX_TRICK]; /* card id by play position */
    int8_t trick_seat[K_MAX_TRICK]; /* who played it */
    uint8_t trick_flags[K_MAX_TRICK]; /* KF_* */
    int8_t plus3_side;              /* side chosen for a +3 token this trick, -1 none */
    uint8_t tokens_played;          /* bitmask of tokens played this trick */
    int8_t forced_colour;           /* colour the next card must be (Black Kitsune), -1 none */
    int8_t forced_seat;             /* seat that is forced */
    uint8_t pending_sub;            /* KSUB_* sub-decisions still to take */
    int8_t trick_forced[K_MAX_TRICK]; /* colour the card was forced to, -1 none */
    /* --- power tokens --- */
    int8_t token_holder[K_NTOKENS]; /* seat holding token k, -1 if not held */
    uint8_t tokens_used;            /* bitmask: used this round (return next round) */
    int8_t gain_clan;               /* clan receiving a token (KP_TOKEN_*) */
    int8_t gain_token;              /* token chosen, before the receiver is chosen */
    int8_t recover_seat;            /* seat holding a recovered extra card this deal, -1 */
    /* --- knowledge, for observation and determinization --- */
    /* known[o][p][t]: cards of type t that o knows are in p's hand (or are p's
     * hidden card in the trick) now. Cleared when the hands go (redeal, round end). */
    uint8_t known[K_MAX_PLAYERS][K_MAX_PLAYERS][K_NTYPES];
    /* colour_cap[p][c]: upper bound, known to all, on p's numerals of colour c
     * in hand and hidden in the trick (from Black Kitsune voids); 255 = none. */
    uint8_t colour_cap[K_MAX_PLAYERS][2];
    /* gave[p]: type p gave in this deal's exchange (-1 none); recv[p] likewise. */
    int8_t gave[K_MAX_PLAYERS], recv[K_MAX_PLAYERS];
    /* last completed trick, kept for display: card ids, seats, flags. */
    int8_t prev_n;
    int8_t prev_card[K_MAX_TRICK], prev_seat[K_MAX_TRICK];
    uint8_t prev_flags[K_MAX_TRICK];
    int8_t prev_winner;             /* clan that won it (-1 tie/no move) */
    int8_t prev_moved;              /* spaces moved */
} KitsuState;

extern const BLGameVTable bl_kitsu_vtable;

/* Give `seat` exactly counts[t] cards of each type t (K_NTYPES entries) from its
 * hand and the stock (inference from play; see observe.c). 0, or -1 unchanged. */
int kitsu_set_hand(const BLGame *g, void *st, int seat, const int *counts);
/* counts[t] = cards of type t in `seat`'s hand; returns the type of its face-down
 * card in the current trick, -1 if none. For worlds (determinizations) only. */
int kitsu_world_hand(const BLGame *g, const void *st, int seat, int *counts);

/* --- shared between the kernel's files --- */
#define NO_CAP 255   /* colour_cap: no bound known */

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

/* setup.c */
int kitsu_configure(BLGame *g, const int32_t *pv, int n, char *err, int errlen);
void kitsu_init(const BLGame *g, void *st, uint64_t seed);
/* rules.c */
int kitsu_current_player(const BLGame *g, const void *st);
int kitsu_legal_actions(const BLGame *g, const void *st, int32_t *out);
void kitsu_apply(const BLGame *g, void *st, int32_t a);
int kitsu_chance_outcomes(const BLGame *g, const void *st, int32_t *acts, double *probs);
int32_t kitsu_sample_chance(const BLGame *g, void *st);
/* Take k copies of type t out of *pool into *dst; 0 if there are too few. */
int kitsu_take_copies(const KitsuConfig *c, uint32_t *pool, uint32_t *dst, int t, int k);
/* score.c (depends on nothing in rules.c) */
/* Score a complete trick, move the pawn, keep the trick for display and clear it;
 * 1 if a 4+ advance hands the other clan a token pick (phase KP_TOKEN_PICK). */
int kitsu_score_trick(const KitsuConfig *c, KitsuState *s);
void kitsu_returns(const BLGame *g, const void *st, double *out);
/* observe.c */
int kitsu_action_to_string(const BLGame *g, const void *st, int32_t a, char *buf, int cap);
int kitsu_observe_json(const BLGame *g, const void *st, int viewer, char *buf, int cap);
int kitsu_determinize(const BLGame *g, void *st, int observer, BLRng *rng);
/* Deal in place every card seat o cannot see, agreeing with what o knows; -1 if none fits. */
int kitsu_sample_world(const KitsuConfig *c, KitsuState *s, int o, BLRng *r);
void kitsu_shuffle_ids(int8_t *ids, int n, BLRng *r);
/* eval.c */
void kitsu_evaluate(const BLGame *g, const void *st, double *out);
/* features.c: the network's input for a seat (docs/learning.md) */
int kitsu_feature_size(const BLGame *g);
void kitsu_features(const BLGame *g, const void *st, int seat, float *out);
/* position.c */
int kitsu_setup(const BLGame *g, void *st, uint64_t seed, const int32_t *desc, int n, char *err, int errlen);

extern const char *const K_TYPE_NAME[K_NTYPES];
extern const char *const K_TOKEN_NAME[K_NTOKENS];
extern const char *const K_CLAN_NAME[2];

#endif
