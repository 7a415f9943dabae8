/* Keyside — dice and worker placement on an island, 2 to 4 players, and the
 * Keytoma solo game (rules:
 * shared/rules/keyside.txt; rules as implemented, every choice made and every
 * stand-in component: docs/keyside.md).
 *
 * Files: setup.c (configure, init, setup chance), rules.c (flow, legal
 * actions, apply, effects), score.c (the score sheet), observe.c (notation,
 * JSON), eval.c (determinize, heuristic, vtable), position.c (Game.position),
 * features.c (the network's input).
 *
 * Parameter vector (built by py/boardlab/games/keyside.py from data/keyside.json):
 *   [0] players 2..4, or 1 for the Keytoma solo game
 *   [1] scoring tiles: 0 black, 1 red, 2 mixed
 *   [2] first_game 0/1 [3] dice_strips 0/1
 *   [4] solo options (bits, solo only): 1 all 3 beacons to win, 2 a Keytoma keyple
 *       before the 1-2 flag, 4 a landslide before the 3-4 flag, 8 two pirates before the 5-6 flag
 *   [5]                number of roads E, then E pairs of location indices
 *   then 8             resource-location neighbour masks (bit j: R(j) is adjacent)
 *   then 12 x 2        harbour tile A..L: dice spaces, keyple spaces (for this player count)
 *   then 5 x 2 x 4     farm tile x side x resource icon (KG_GEM, KG_FISH, KG_WHEAT, KG_STONE, KG_WOOD)
 *   then 4 x 2 x 6     dice strip x side (0 light, 1 deep) x colour: value 1..6
 * Locations: 0 town, 1..8 markets M1..M8, 9..16 resource locations R1..R8,
 * 17..28 harbour indents H1..H12 in clockwise order. Headland space i lies
 * between H(i+1) and H(i+2) (clockwise neighbours, H12 next to H1).
 *
 * Action space (num_actions = KA_NUM); every multi-step turn is a sequence of
 * sub-decisions kept on a task stack (KsTask), optional steps end with KA_PASS:
 *   KA_CH + k          chance outcome k: a setup step's draw, or (solo) a Keytoma die
 *                      roll k+1 or random pick, by the chance task on top
 *   KA_DSET + v        secret dice: the next colour's die shows v+1
 *   KA_STRIP + side    secret dice: set all six from the dice strip side
 *   KA_LEAD + (c*3+b)*12 + h   lead die colour c: boat b sails to harbour h
 *   KA_MAT + c         steps 11-12: die c onto the mat, advance track c
 *   KA_FOLLOW          follow the lead die
 *   KA_MOVE + src*29 + dst     move one keyple src -> dst (<= 3 roads)
 *   KA_RESOLVE + h     resolve harbour h
 *   KA_TAKE2 + k       action 5: two of stone/wood/wheat (k: SS SW SH WW WH HH)
 *   KA_TRACK + c       advance track c (where any track may advance)
 *   KA_SIDE + s        level with a left (0) / right (1) choice
 *   KA_BUILD + letter  build cottage A..X
 *   KA_UPGRADE + c     upgrade own cottage of colour c to a house
 *   KA_HEAD + ((sp*6+t)*2+o)*2+r  headland t on space sp, orientation o, paid with r (0 wood, 1 stone)
 *   KA_FARM + (a*5+f)*4+i      animal a from the barn onto icon i of farm f
 *   KA_MARKET + m      activate the market at location M(m+1)
 *   KA_FLIP + m        anytime: pay a fish, flip the market at M(m+1)
 *   KA_TRADE + k       use the market: 0 plain, 1+g give gem type g, 4 pay fish, 5 pay wood
 *   KA_SKILL + c       take the top skill tile of colour c
 *   KA_SPEND + c*3+t   anytime: spend skill tile of colour c, tier t (5/3/1 pts)
 *   KA_ANIMAL + a      import one animal of type a
 *   KA_EXCH + a*3+b    exchange an animal a in the barn for b
 *   KA_ORDER + k       harbours I/J/K: 0 move, 1 market, 2 skill tile (what first / which)
 *   KA_ALLOC + item    start player marker counted as goods item (KG_*)
 *   KA_PASS            pass / skip / done
 * (added after KA_PASS so that the ids above stay those of older records:)
 *   KA_RECRUIT + k-1   transfer k (1..2) keyples from the mat to the town
 *   KA_EXCHF + (f*4+i)*3+b  exchange the animal on farm f icon i (a farm you own) for b, in place
 *   KA_PAYFROM + src   the animal a market takes: 0 from the barn, 1+f*4+i from farm f icon i
 */
#ifndef BL_KEYSIDE_H
#define BL_KEYSIDE_H
#include <stdint.h>
#include "../common/game_api.h"

#define KS_MAXP 4
#define KS_NH 12
#define KS_NM 8
#define KS_NR 8
#define KS_NLOC 29
#define KS_TOWN 0
#define KS_M(k) (1 + (k))
#define KS_R(k) (9 + (k))
#define KS_H(h) (17 + (h))
#define KS_NFARM 5
#define KS_NGEM 36
#define KS_MAXTASK 48
#define KS_MAXEDGE 96
/* Solo: Keytoma is participant 1 in turn order (turn, start, i_resolver); as
 * an owner of dice or keyples it is KS_KT_MARK, pirates are KS_PIRATE. */
#define KS_KT 1
#define KS_KT_MARK 9
#define KS_PIRATE 10
#define KS_LANDSLIDE 6          /* headland tile code of a landslide */

enum { KC_YELLOW = 0, KC_GREEN, KC_RED, KC_BLUE, KC_PURPLE, KC_ORANGE, KC_N };
/* Goods on a player mat (also the start player marker's items). */
enum { KG_COW = 0, KG_PIG, KG_SHEEP, KG_FISH, KG_STONE, KG_WHEAT, KG_WOOD, KG_GEM0, KG_GEM1, KG_GEM2, KG_N };
/* Farm icon resources (data order). */
enum { KI_GEM = 0, KI_FISH, KI_WHEAT, KI_STONE, KI_WOOD };
/* Resource locations hold a farm (0..4) or a field. */
enum { KR_FOREST = 5, KR_QUARRY, KR_WHEATF };
/* Market tiles. */
enum { KM_BLUE = 0, KM_GREEN, KM_ORANGE, KM_PURPLE, KM_GREY1, KM_GREY2, KM_RED, KM_YELLOW };

enum {
    KA_CH = 0, KA_DSET = 96, KA_STRIP = 102, KA_LEAD = 104, KA_MAT = 320, KA_FOLLOW = 326,
    KA_MOVE = 327, KA_RESOLVE = 1168, KA_TAKE2 = 1180, KA_TRACK = 1186, KA_SIDE = 1192,
    KA_BUILD = 1194, KA_UPGRADE = 1218, KA_HEAD = 1224, KA_FARM = 1512, KA_MARKET = 1572,
    KA_FLIP = 1580, KA_TRADE = 1588, KA_SKILL = 1594, KA_SPEND = 1600, KA_ANIMAL = 1618,
    KA_EXCH = 1621, KA_ORDER = 1630, KA_ALLOC = 1633, KA_PASS = 1643,
    KA_RECRUIT = 1644, KA_EXCHF = 1646, KA_PAYFROM = 1706, KA_NUM = 1727
};

/* Setup chance steps, then the game phases. */
enum {
    KP_HTILE = 0, KP_SCORE, KP_SIDE, KP_FIELDS, KP_FARM, KP_MARKET, KP_STRIP, KP_FIRST, KP_START,
    KP_KSTRIPS, KP_BEACON, KP_FLAG,   /* solo: Keytoma's strips, the 3 beacons, the flags' roll */
    KP_DICE,    /* secret dice setup */
    KP_PLAY,    /* player turns (tasks on the stack) */
    KP_OVER
};

/* Task kinds (the decision on top of the stack). */
enum {
    KT_LAND = 0,   /* landing turn: lead / mat / anytime */
    KT_RESOLVE,    /* resolving turn: pick a harbour / anytime */
    KT_ALT,        /* action 5 (take 2) or 6 (advance any) / anytime */
    KT_FOLLOW,     /* a = harbour: follow or pass */
    KT_HEADLANDS,  /* automatic: headlands next to harbour a activate */
    KT_MOVEIN,     /* a = harbour: move a keyple into it or pass */
    KT_ADVANCE,    /* a = colour or -1 (any): advance a track */
    KT_LEVEL,      /* a = colour, b = level: left/right/skip */
    KT_BUILD,      /* a = colour mask, b = wheat cost, c = 1 mandatory (level 4) */
    KT_HEAD,       /* a = resource mask (1 wood, 2 stone), b = base cost, c = 1 fixed cost */
    KT_FARM,       /* a = animals left to place */
    KT_MOVE,       /* a = moves left, b = 1 footprint (farms/fields only) */
    KT_MARKET,     /* choose a market to activate */
    KT_TRADE,      /* a = market location index */
    KT_SKILL,      /* take a skill tile */
    KT_ANIMAL,     /* import one animal */
    KT_EXCH,       /* a = exchanges left (barn animals, or in place on your farms) */
    KT_ORDER,      /* a = harbour letter (8 I, 9 J, 10 K) */
    KT_FINAL,      /* end of game: spend skill tiles or done */
    KT_ALLOC,      /* start player marker item */
    KT_RECRUIT,    /* a = most keyples to transfer from the mat to the town ("up to") */
    KT_PAY,        /* a = animal a market takes: from the barn or which farm icon */
    KT_BENEFIT,    /* automatic: harbour a's benefit at tier b (c: activator) */
    /* Solo: Keytoma. Chance tasks (a die roll or a random pick) from KT_KLAND on. */
    KT_KEFFECT,    /* automatic: resolution card, colour b, at harbour a (-1 none) */
    KT_KPIRFARM,   /* automatic: yellow card, pirates and farms part (a harbour) */
    KT_KCLAIM,     /* automatic: green card, pirates claim fields or farms */
    KT_KLAND,      /* roll: Keytoma lands at the flag of the roll */
    KT_KFOLLOW,    /* roll: Keytoma follows at harbour a (b: it had a flag) */
    KT_KRESOLVE,   /* roll: Keytoma resolves from the flag of the roll */
    KT_KACTION,    /* roll: Keytoma's action by die number */
    KT_KLANDSLIDE, /* roll: a landslide from the flag of the roll */
    KT_KFARM,      /* roll: animal a onto a random unclaimed farm */
    KT_KYELLOW,    /* pick: the colour whose cottages stay */
    KT_KREMOVE,    /* pick: cottage of colour a removed */
    KT_KBLUE,      /* pick: a highest skill tile removed */
    KT_KSTRIP,     /* pick: Keytoma's dice strip and side for this year */
    KT_N
};

typedef struct { int8_t kind, p, a, b, c, _pad; } KsTask;

/* Immutable configuration (in BLGame.config). */
typedef struct {
    int players, scoring, first_game, dice_strips;
    int solo, solo_opts, seats;              /* seats: participants in turn order (2 in solo) */
    int8_t dist[KS_NLOC][KS_NLOC];          /* road distance (99: unreachable) */
    uint8_t rnb[KS_NR];                     /* resource-location neighbours */
    int8_t hdice[KS_NH], hkeys[KS_NH];      /* per harbour tile A..L */
    int8_t farm_icon[KS_NFARM][2][4];
    int8_t strip[4][2][KC_N];
    int n_triples;                          /* non-adjacent field triples (ordered) */
    int8_t triple[336][3];                  /* forest, quarry, wheat fields locations */
} KsConfig;

typedef struct {
    int8_t goods[KG_N];          /* barn animals, fish, stone, wheat, wood, gems by type */
    int8_t mat;                  /* keyples on the mat */
    int8_t kp[KS_NLOC];          /* keyples per location */
    int8_t level[KC_N];          /* skill tracks 0..4 */
    int8_t skill[KC_N][3];       /* skill tiles held per colour and tier (5, 3, 1 pts) */
    int8_t building[KC_N];       /* cottage letter per colour plot, -1 none */
    uint8_t house;               /* bit c: the colour-c building is a house */
    uint8_t hl_built;            /* bit t: headland t built (even if overbuilt) */
    int8_t die[KC_N];            /* die value 1..6, 0 not set */
    uint8_t dice_left;           /* bit c: die c still to play this year */
    int8_t n_set;                /* secret setup: colours set so far */
    int8_t strip;                /* dice strip held (-1 none) */
} KsPlayer;

typedef struct {
    BLRng rng;                   /* game stream: must stay first */
    int8_t phase, setup_i, year, start, turn, trigger, i_resolver, alloc_item;
    int8_t setter;               /* KP_DICE: seats done */
    int8_t revealed;             /* dice of this year shown */
    /* island */
    int8_t htile[KS_NH], hscore[KS_NH], hred[KS_NH];   /* tile letter, scoring number-1, red side */
    int8_t sailor[KS_NH];        /* colour of the sailor on the tile, -1 none */
    int8_t resolved[KS_NH];
    int8_t ndice[KS_NH], dice_p[KS_NH][KS_MAXP], dice_v[KS_NH][KS_MAXP];
    int8_t red_i;                /* owner of harbour I's red keyple space, -1 */
    int8_t nboats, boat_at[3];
    uint8_t boat_sailors[3];
    int8_t hl_owner[KS_NH], hl_tile[KS_NH], hl_orient[KS_NH];
    int8_t mk_tile[KS_NM], mk_side[KS_NM];
    uint8_t mk_used;             /* markets traded at this turn (flip at its end) */
    uint8_t mk_act[KS_MAXP];     /* markets each player activated this turn (once per turn) */
    int8_t rl_kind[KS_NR], rl_owner[KS_NR];
    int8_t farm_side[KS_NFARM], farm_animal[KS_NFARM][4];
    int8_t field_tokens[3];      /* forest, quarry, wheat fields */
    int8_t skill_left[KC_N];
    uint32_t cottages;           /* bit letter: still on the buildings mat */
    uint8_t strips_left;
    int8_t bag_n, bag[KS_NGEM];  /* gem bag, bag[bag_n-1] is drawn next (hidden order) */
    int8_t hcol[KS_NH];          /* colour of the dice in the harbour */
    /* solo */
    int8_t kt_die[KC_N];
    uint8_t kt_left, kt_set, kt_strips;
    int8_t kt_supply, kt_kp[KS_NH], pir[KS_NH];
    int8_t flag_at[3], beacon[3];
    int8_t ntask;
    KsTask task[KS_MAXTASK];
    KsPlayer pl[KS_MAXP];
} KsState;

#define KS_CFG(g) ((const KsConfig *)(g)->config)

/* rules.c */
int ks_legal(const KsConfig *c, const KsState *s, int32_t *out);
void ks_apply(const KsConfig *c, KsState *s, int32_t a);
void ks_settle(const KsConfig *c, KsState *s);
int ks_current(const KsState *s);
int ks_owns_field(const KsState *s, int kind, int p);
int ks_animals(const KsState *s, int p, int a, int farms_only);
int ks_harbour_loc_of_tile(const KsState *s, int letter);
int ks_skill_markets(const KsState *s, int p);   /* colour mask: p may take those skill tiles */
void ks_begin_turn(const KsConfig *c, KsState *s);
/* setup.c */
void ks_setup_chance(const KsConfig *c, KsState *s, int outcome);
int ks_setup_outcomes(const KsConfig *c, const KsState *s, int32_t *acts, double *probs);
void ks_start_year(const KsConfig *c, KsState *s);
/* position.c: the vtable's setup (a position from one seat's knowledge) */
int ks_position_setup(const BLGame *g, void *st, uint64_t seed, const int32_t *desc, int n, char *err, int errlen);
/* score.c */
/* harbour[num]: points of scoring tile num (0-based); per_keyple[num]: what one keyple there would score. */
typedef struct { int harbour[KS_NH], per_keyple[KS_NH]; int building[KC_N]; int gems, statue, support, beach, skill, fields, total; } KsScore;
void ks_score(const KsConfig *c, const KsState *s, int p, int alloc_item, KsScore *out);
/* Solo: which of the 3 beacons are lit (bit i), and whether the game is won. */
int ks_beacons(const KsConfig *c, const KsState *s, int alloc_item);
int ks_solo_won(const KsConfig *c, const KsState *s);
int ks_chance_task(const KsState *s);
int ks_task_outcomes(const KsConfig *c, const KsState *s, int32_t *out);
/* eval.c: the search's rollout policy (the vtable's rollout_action) */
int32_t ks_rollout_action(const BLGame *g, const void *st, const int32_t *legal, int n, BLRng *rng);
/* features.c: the network's input for a seat (docs/learning.md) */
int ks_feature_size(const BLGame *g);
void ks_features(const BLGame *g, const void *st, int seat, float *out);
/* observe.c */
int ks_action_text(const KsConfig *c, const KsState *s, int32_t a, char *buf, int cap);
int ks_observe(const KsConfig *c, const KsState *s, int v, char *buf, int cap);

extern const char *const KS_COLOUR[KC_N];
extern const char *const KS_GOOD[KG_N];
extern const char *const KS_MARKET[8];

extern const BLGameVTable bl_keyside_vtable;

/* --- entry point for scenario tests only (boardlab._keyside_scenario) --- */
/* Set one field of the table (what: KD_* in rules.c) for seat p; returns 0,
 * or -1 if the field, index or value is out of range. */
int ks_debug_set(const BLGame *g, void *st, int p, int what, int index, int value);

#endif
