/* Nukumi Onsen Kaitakuki — bag building on a shared town map for 1 to 4
 * players (rules: shared/rules/nukumi_onsen.txt; rules as implemented, every
 * stand-in component and every choice where the rulebook is silent:
 * docs/nukumi.md).
 *
 * Files: setup.c (parameter vector -> NkConfig, initial state), rules.c
 * (phases, actions, the effect stack, chance, determinize, the solo NPCs),
 * score.c (final scoring, returns), eval.c (heuristic), observe.c (JSON,
 * move notation), scenario.c (test-only position setter), features.c (the
 * network's input).
 *
 * Component data comes from py/boardlab/data/nukumi.json through the int32
 * parameter vector built by py/boardlab/games/nukumi.py (layout: nk_configure
 * in setup.c, which reads it in this order):
 *   players, partner_side (0 A, 1 B), board_side (player board, 0 A, 1 B),
 *   advanced (1: the advanced rules),
 *   solo (0 none, 1 Score Attack, 2 Chasing Nukumaru; 1 player only),
 *   board: NK_NSQ x (kind, ribbon, nukumaru number 1-6 or 0, neighbour mask
 *          as 3 x 21 bits, low first),
 *   resources: NK_NRES token counts in all, NK_NRES in each starting bag,
 *   tracks: fun die rolls per level 1-5, oishi Coins per level 1-5,
 *           fun points per level 0-5, oishi points per level 0-5,
 *   player board: 2 sides x NK_NSPOT - 1 spots x (cost, effects) (Construction
 *          has none; board_side picks the side in play),
 *   add-an-action Coins (first card, second card), start player card points,
 *   Coins for catching Nukumaru, Coins of a 2-Coins square,
 *   buildings: NK_NBLD x (count, points, scored from the fun track, cost, effects),
 *   helpers: NK_NHELP x (points, rank, trigger, trigger spot mask, effects),
 *   action cards: NK_NCARD x (points, cost, effects),
 *   round cards: NK_NROUND x effects,
 *   partners: NK_NPART x 2 sides x (start effects, ongoing trigger, trigger
 *          spot mask, ongoing effects, end kind, end a, end b, end points,
 *          specific cost, specific effects, 6 x die effects, 11 draw sizes,
 *          11 victory points).
 * A cost is 3 slot masks (bit r: resource r accepted; 0: unused slot) and a
 * Coin amount; effects are NK_NEFF x (op, a, b) with op one of EF_*.
 *
 * Bags and the Helper deck are kept as contents only (counts, a card set):
 * every draw from them is an explicit chance outcome weighted by what is
 * inside, so there is no hidden order to leak.
 *
 * Action space (num_actions = NA_NUM):
 *   NA_SPOT + k        player-board action k (0..8; Construction is NA_BUILD)
 *   NA_BUILD + b       Construction of building b on your square (also the
 *                      choice of a "build" effect, NP_BUILD)
 *   NA_PARTNER         your partner board's specific action
 *   NA_CARD + j        the additional action card in your slot j
 *   NA_PASS            pass for the rest of the round
 *   NA_DISCARD + h     free action: discard Helper h to move 1 square
 *   NA_COINMOVE        free action: pay 3 Coins to move 1 square
 *   NA_SELL + r        free action: 1 drawn resource r to the board for 1 Coin
 *   NA_STEP + sq       a move step to adjacent square sq
 *   NA_CARRIAGE + sq   ride from your Carriage Stop to Carriage Stop sq
 *   NA_STOP            stop moving / stop playing Helpers / build nothing
 *   NA_PLAY + h        play Helper h from your hand
 *   NA_TAKE + k        take additional action card k (Add an Action)
 *   NA_PAY + m         pay resource multiset m (index into NkConfig.ms)
 *   NA_ACCEPT, NA_DECLINE   the round card's "may" event
 *   NA_BLIND           advanced: draw blind (a Helper, or an action card)
 *   NA_PICKH + h       advanced: take face-up Helper h
 *   NA_ROUTE + i       Score Attack: the i-th of the NPC's tied shortest routes
 *   NA_END             end the turn (after the action: free actions or this)
 *   chance: NA_ROUNDCARD + k (round card dealt), NA_PARTNERDEAL + k (partner
 *   board dealt to the next seat), NA_DIE + f (die face f + 1),
 *   NA_DRAWRES + r (resource drawn from the bag), NA_DRAWHELPER + h,
 *   NA_DRAWCARD + k (advanced: an action card from its deck).
 *
 * Advanced rules: 3 face-up Helpers (hrow, slot 0 = the first, left-most)
 * and 3 face-up action cards (crow). Taking one slides the cards left of it
 * one slot right and refills slot 0 from the deck; at clean-up the right-most
 * goes under the deck (a public, ordered list: hbot / cbot, drawn only once
 * the unknown part of the deck is gone). In the base game every action card
 * is face up (cards_open) and there is no row.
 *
 * Score Attack: the 3 unused pioneers are NPCs in pos[1..3]; at the start of
 * each round each rolls the die and walks 2/3/4 squares on a shortest route
 * to Nukumaru, leaving a cube (counted as built: bld_type -1) on every
 * buildable square it enters. Chasing Nukumaru: a cube on each Nukumaru
 * square where it is caught (nuku_cubes, by die face); all six: cleared.
 */
#ifndef BL_NUKUMI_H
#define BL_NUKUMI_H
#include <stdint.h>
#include "../common/game_api.h"

#define NK_MAXP 4
#define NK_W 9               /* board columns a..i; squares row-major, named like c4 */
#define NK_NSQ 63
#define NK_NRES 5
#define NK_NSPOT 10
#define NK_NBLD 8
#define NK_NHELP 40
#define NK_NCARD 12
#define NK_NROUND 7
#define NK_NPART 6
#define NK_ROUNDS 5
#define NK_NEFF 4
#define NK_STACK 32
#define NK_NPAY 55          /* resource multisets of size 1..3 */
#define NK_CUBES 10         /* cubes on a partner board */
#define NK_CARD_SLOTS 2
#define NK_MAXLEGAL 160     /* bound on legal actions (BLGame.max_legal) */
#define NK_NAME 16

enum { R_STONE, R_WOOD, R_NET, R_FOOD, R_GOLD };
enum { SQ_VACANT, SQ_HELPER, SQ_COINS, SQ_CENTRAL, SQ_NUKUMARU, SQ_CARRIAGE };
enum { SPOT_MINING, SPOT_LOGGING, SPOT_PLANNING, SPOT_COOKING, SPOT_GOLD, SPOT_RECRUIT,
       SPOT_MOVE1, SPOT_MOVE2, SPOT_ADD, SPOT_BUILD };
/* Effect ops (a, b arguments). */
enum {
    EF_NONE = 0,
    EF_GAIN,        /* a resource type, b count: from the pool into the bag */
    EF_COINS,       /* a Coins */
    EF_HELPER,      /* a Helpers drawn (chance) */
    EF_PLAY,        /* play up to a Helpers (decision) */
    EF_MOVE,        /* move up to a squares (decision) */
    EF_FUN,         /* advance a levels on the fun track */
    EF_OISHI,       /* advance a levels on the oishi track */
    EF_DIE,         /* a die-roll bonuses on your partner's die table (chance) */
    EF_TAKE,        /* take an additional action card (decision) */
    EF_ADJ_COINS,   /* a Coins per building next to your square */
    EF_BUILD,       /* construct a building on your square, paying its cost (decision) */
    EF_NUKU,        /* internal: roll the die and move Nukumaru (chance) */
    EF_REFILL_H,    /* internal, advanced: refill a face-up Helpers slots (chance) */
    EF_REFILL_C,    /* internal, advanced: refill a face-up action card slots (chance) */
    EF_NPCROLL,     /* internal, Score Attack: the NPC's die (chance) */
    EF_NPCMOVE,     /* internal, Score Attack: the NPC walks towards Nukumaru */
    EF_N
};
/* Ongoing triggers of Helpers and partner boards. */
enum { TR_PLAYED = 0, TR_ACTION, TR_CATCH, TR_NONE, TR_N };
/* Partner end-game abilities. */
enum { END_NONE = 0, END_BUILT_ALL, END_PER_BUILDING, END_TRACK, END_HELPERS, END_COINS,
       END_BUILDINGS, END_N };

enum {
    NA_SPOT = 0, NA_BUILD = NA_SPOT + 9, NA_PARTNER = NA_BUILD + NK_NBLD, NA_CARD = NA_PARTNER + 1,
    NA_PASS = NA_CARD + NK_CARD_SLOTS, NA_DISCARD = NA_PASS + 1, NA_COINMOVE = NA_DISCARD + NK_NHELP,
    NA_SELL = NA_COINMOVE + 1, NA_STEP = NA_SELL + NK_NRES, NA_CARRIAGE = NA_STEP + NK_NSQ,
    NA_STOP = NA_CARRIAGE + NK_NSQ, NA_PLAY = NA_STOP + 1, NA_TAKE = NA_PLAY + NK_NHELP,
    NA_PAY = NA_TAKE + NK_NCARD, NA_ACCEPT = NA_PAY + NK_NPAY, NA_DECLINE = NA_ACCEPT + 1,
    NA_ROUNDCARD = NA_DECLINE + 1, NA_PARTNERDEAL = NA_ROUNDCARD + NK_NROUND,
    NA_DIE = NA_PARTNERDEAL + NK_NPART, NA_DRAWRES = NA_DIE + 6, NA_DRAWHELPER = NA_DRAWRES + NK_NRES,
    NA_BLIND = NA_DRAWHELPER + NK_NHELP, NA_PICKH = NA_BLIND + 1, NA_DRAWCARD = NA_PICKH + NK_NHELP,
    NA_ROUTE = NA_DRAWCARD + NK_NCARD, NA_END = NA_ROUTE + 16, NA_NUM = NA_END + 1
};

enum {
    NP_SETUP_ROUND = 0, /* chance: the next of the 5 round cards */
    NP_SETUP_PARTNER,   /* chance: the partner board of the next seat */
    NP_DIE,             /* chance: a die roll (Nukumaru or a bonus) */
    NP_HELPER,          /* chance: a Helper drawn */
    NP_DRAW,            /* chance: a resource drawn from a bag */
    NP_EVENT,           /* decision: take the round card's event or not */
    NP_TURN,            /* decision: an action, a free action or pass */
    NP_PAY,             /* decision: which resources pay for the chosen action */
    NP_MOVE,            /* decision: the next step of a move */
    NP_PLAY,            /* decision: the next Helper to play */
    NP_TAKE,            /* decision: which additional action card */
    NP_HPICK,           /* decision (advanced): a face-up Helper or blind */
    NP_CDRAW,           /* chance (advanced): an action card from its deck */
    NP_ROUTE,           /* decision (Score Attack): the NPC's route among tied ones */
    NP_BUILD,           /* decision: which building a "build" effect constructs, or none */
    NP_AFTER,           /* decision: the action has resolved; free actions, a ride, or end the turn */
    NP_OVER
};
/* What the flow returns to when the effect stack runs empty. */
enum { CTX_SETUP_NUKU = 0, CTX_START, CTX_EVENT, CTX_HELPERS, CTX_DRAW, CTX_TURN, CTX_CLEANUP, CTX_NPC };
enum { SOLO_NONE = 0, SOLO_SCORE_ATTACK, SOLO_CHASING };
#define NK_NPCS 3
#define NK_MAXROUTES 16
/* Pending payment kinds. */
enum { PK_SPOT = 0, PK_BUILD, PK_PARTNER, PK_CARD, PK_EFFECT_BUILD };

typedef struct { int8_t op, a, b; } NkEff;
typedef struct { uint8_t mask[3]; int8_t n; int16_t coins; } NkCost;

typedef struct {
    NkEff start[NK_NEFF];
    int8_t trig; uint16_t trig_mask; NkEff ongoing[NK_NEFF];
    int8_t end_kind, end_a, end_b, end_pts;
    NkCost spec; NkEff spec_eff[NK_NEFF];
    NkEff die[6][NK_NEFF];
    int8_t draw[NK_CUBES + 1], vp[NK_CUBES + 1];
} NkPartner;

/* Immutable configuration (in BLGame.config). */
typedef struct {
    int players, partner_side, board_side, advanced, solo;
    int pieces;                     /* pioneers on the board: players (+ 3 NPCs in Score Attack) */
    int8_t sq_kind[NK_NSQ], sq_ribbon[NK_NSQ], sq_nuku[NK_NSQ];
    uint64_t nbr[NK_NSQ];
    uint64_t carriage;              /* Carriage Stop squares */
    int8_t nuku_sq[6];              /* Nukumaru square of die face 1..6 */
    int8_t central;
    int8_t dist[NK_NSQ][NK_NSQ];    /* shortest step counts (carriage rides free) */
    int8_t walk[NK_NSQ][NK_NSQ];    /* shortest step counts on foot (NPCs) */
    int8_t tokens[NK_NRES], start_bag[NK_NRES];
    int8_t fun_die[6], oishi_coins[6], fun_pts[6], oishi_pts[6];
    NkCost spot_cost[NK_NSPOT]; NkEff spot_eff[NK_NSPOT][NK_NEFF];
    int8_t add_coins[2], start_vp, catch_coins, sq_coins;
    int8_t bld_count[NK_NBLD], bld_pts[NK_NBLD], bld_fun[NK_NBLD];
    NkCost bld_cost[NK_NBLD]; NkEff bld_eff[NK_NBLD][NK_NEFF];
    int8_t h_pts[NK_NHELP], h_rank[NK_NHELP], h_trig[NK_NHELP];   /* rank: shown, no rule uses it */
    uint16_t h_mask[NK_NHELP]; NkEff h_eff[NK_NHELP][NK_NEFF];
    uint64_t h_on_action[NK_NSPOT]; /* ongoing Helpers triggered by each spot */
    uint64_t h_on_catch;
    int8_t card_pts[NK_NCARD]; NkCost card_cost[NK_NCARD]; NkEff card_eff[NK_NCARD][NK_NEFF];
    NkEff round_eff[NK_NROUND][NK_NEFF];
    NkPartner partner[NK_NPART];    /* the side in play */
    int8_t ms[NK_NPAY][NK_NRES];    /* payment multisets: count per resource */
    int16_t ms_index[1024];         /* base-4 count key -> multiset index (-1 none) */
} NkConfig;

typedef struct { int8_t op, a, b, _pad; } NkFrame;

/* Whole game state; plain data, clone = memcpy. */
typedef struct {
    BLRng rng;                      /* game stream: must stay first */
    int8_t phase, ctx, to_move, round;   /* round 0..4 (5 when over) */
    int8_t order_i;                 /* seats done in the current clockwise sweep */
    int8_t round_first;             /* start player of the current round */
    int8_t start_holder, start_down;     /* start player card: holder, face down */
    int8_t nuku;                    /* Nukumaru's square */
    int8_t in_action;               /* the turn's action has begun (then NP_AFTER once it resolved) */
    int8_t rode;                    /* carriage ridden since the last step */
    int8_t draw_left;               /* NP_DRAW: resources still to draw */
    int8_t n_round_cards, n_partners;
    int8_t round_card[NK_ROUNDS];
    int8_t partner[NK_MAXP];
    int8_t pend_kind, pend_idx;     /* NP_PAY: what is being paid for */
    int8_t passed;                  /* bit p: passed for the round */
    int8_t pos[NK_MAXP];            /* pioneers; Score Attack: NPCs in 1..3 */
    int8_t npc, npc_steps;          /* Score Attack: the NPC moving, steps left */
    uint8_t nuku_cubes;             /* Chasing: caught Nukumaru squares (bit face - 1) */
    int8_t cleared;                 /* Chasing: the round (1-5) it was cleared, 0 not yet */
    int8_t bag[NK_MAXP][NK_NRES], drawn[NK_MAXP][NK_NRES], spent[NK_MAXP][NK_NRES];
    int8_t pool[NK_NRES];
    int16_t coins[NK_MAXP];
    int8_t fun[NK_MAXP], oishi[NK_MAXP];
    int8_t cubes[NK_MAXP];          /* buildings built = cubes taken off the partner board */
    uint16_t used[NK_MAXP];         /* spots used this round: 0..9 board, 10 partner, 11+j cards */
    int8_t card[NK_MAXP][NK_CARD_SLOTS];   /* additional action cards held (-1 none) */
    uint16_t cards_open;            /* face-up additional action cards */
    uint16_t cdeck;                 /* advanced: action cards in the deck, unknown order */
    uint64_t deck, discard;         /* Helper cards (deck: the unknown-order part) */
    int8_t hrow[3], crow[3];        /* advanced: face-up rows (-1 empty) */
    int8_t n_hbot, n_cbot;          /* advanced: cards known to lie under the decks */
    int8_t hbot[NK_NHELP], cbot[NK_NCARD];
    uint64_t hand[NK_MAXP], played[NK_MAXP];
    uint64_t built;                 /* squares with a building */
    uint64_t bonus_used;            /* Helper / 2-Coins squares used this turn */
    int8_t bld_type[NK_NSQ], bld_owner[NK_NSQ];
    int8_t bld_left[NK_NBLD];
    int8_t sp;
    NkFrame stack[NK_STACK];
} NkState;

typedef struct {
    int buildings, helpers, coins, start_card, partner_end, construction, cards, tracks, total;
} NkScore;

#define NK_CFG(g) ((const NkConfig *)(g)->config)

extern const BLGameVTable bl_nukumi_vtable;

/* --- shared between the kernel's files --- */
int nk_configure(BLGame *g, const int32_t *pv, int n, char *err, int errlen);
void nk_init(const BLGame *g, void *st, uint64_t seed);
int nk_current_player(const BLGame *g, const void *st);
int nk_legal_actions(const BLGame *g, const void *st, int32_t *out);
void nk_apply(const BLGame *g, void *st, int32_t a);
int nk_chance_outcomes(const BLGame *g, const void *st, int32_t *acts, double *probs);
int32_t nk_sample_chance(const BLGame *g, void *st);
int nk_determinize(const BLGame *g, void *st, int observer, BLRng *rng);
void nk_returns(const BLGame *g, const void *st, double *out);
void nk_evaluate(const BLGame *g, const void *st, double *out);
int32_t nk_rollout_action(const BLGame *g, const void *st, const int32_t *legal, int n, BLRng *rng);
int nk_action_to_string(const BLGame *g, const void *st, int32_t a, char *buf, int cap);
int nk_observe_json(const BLGame *g, const void *st, int player, char *buf, int cap);
/* features.c: the network's input for a seat (docs/learning.md) */
int nk_feature_size(const BLGame *g);
void nk_features(const BLGame *g, const void *st, int seat, float *out);
/* Game.position: a seat's turn from what it knows (position.c; vector described there). */
int nk_setup(const BLGame *g, void *st, uint64_t seed, const int32_t *d, int n, char *err, int errlen);

void nk_score(const NkConfig *c, const NkState *s, int p, NkScore *out);
int nk_draw_size(const NkConfig *c, const NkState *s, int p);
int nk_total(const int8_t *res);
/* Resources of kind k a seat owns: in its bag, drawn, or spent this round (all back in the bag at clean-up). */
static inline int nk_owned(const NkState *s, int p, int k) { return s->bag[p][k] + s->drawn[p][k] + s->spent[p][k]; }
/* Score Attack: the squares of the i-th tied NPC route (NA_ROUTE + i); returns its length. */
int nk_route_squares(const BLGame *g, const void *st, int i, int8_t *sq);
double nk_squash(double x);
double nk_solo_value(double score);
/* Start the flow after setup chance (used by nk_apply). */
void nk_run(const NkConfig *c, NkState *s);

extern const char *const NK_RES_NAME[NK_NRES];
extern const char *const NK_SPOT_NAME[NK_NSPOT];
extern const char *const NK_BLD_NAME[NK_NBLD];

/* --- entry point for scenario tests only (boardlab._nukumi_scenario) --- */
enum { NKD_POOL = 0, NKD_COINS, NKD_POS, NKD_FUN, NKD_OISHI, NKD_DRAWN, NKD_BAG, NKD_NUKU,
       NKD_HAND, NKD_PLAYED, NKD_BUILD, NKD_LEFT, NKD_CUBES, NKD_N };
/* Set one part of a position (what: NKD_*; p a seat, k an index, value the
 * new value; see boardlab._nukumi_scenario). Returns 0, or -1 if invalid. */
int nk_debug_set(const BLGame *g, void *st, int what, int p, int k, int value);

#endif
