/* Kyūshū — card-placement map building for 2 to 5 players (rules:
 * shared/rules/kyushu.txt; rules as implemented and every choice made:
 * docs/kyushu.md).
 *
 * Files: setup.c (configure, initial state), map.c (the bitboard map, card
 * positions and placement, the undo log), rules.c (flow, legal actions, apply,
 * chance, the function table), score.c (scoring, returns), observe.c
 * (notation, JSON, determinization), eval.c (heuristic), position.c
 * (Game.position), scenario.c (map edits for tests), features.c (the network's
 * input).
 *
 * Parameter vector (built by py/boardlab/games/kyushu.py from data/kyushu.json):
 *   [0] players        2..5
 *   [1] side           Starting Province side: 0 = A, 1 = B
 *   [2] most_fewest    1: optional Most/Fewest scoring cards
 *   [3] travelers      1: optional Travelers
 *   [4 .. 4+360)       60 Map cards x 6 squares, printed (horizontal) row-major
 *   [364 .. 364+72)    6 Starting Provinces x 2 sides (A then B) x 6 squares
 * A square is encoded terrain + 16 * factory_value (factory_value 2, 3 or 4 on
 * factory squares, 0 elsewhere); terrain is one of KT_* below.
 *
 * Maps: every player's map lives on a 32 x 32 grid of bitboards, one uint32
 * per row (bit c = column c), one plane per terrain, per resource colour, for
 * terraforming tiles, travelers and card cover. 13 cards can run 27 squares in
 * one direction, so the map is re-centred (at the start of a Map phase, in
 * public) whenever the next card could leave the grid.
 *
 * Action space (num_actions = KA_NUM):
 *   KA_CELL + 32*row + col   a square: card position (top-left of the card),
 *                            resource to pay/discard, fallow to terraform,
 *                            traveler resource or hot spring (by phase)
 *   KA_CARD + id             a card from hand (id 0..59 = printed number - 1):
 *                            pick-box card or replacement
 *   KA_BOX + b               take from pick box b with a free option
 *   KA_PAID + b              take from pick box b by discarding a resource
 *   KA_PROVINCE + k          choose Starting Province k
 *   KA_ORIENT + 2*o + layer  orientation o (0 horizontal, 1 vertical,
 *                            2 horizontal turned, 3 vertical turned) and
 *                            layer (0 over, 1 under) of the card to place
 *   KA_TERRAFORM, KA_END     start terraforming; end the Map turn / no traveler
 *   KA_COLOUR + c            the discarded colour that picks the tile
 *   KA_DEAL + id             chance: the Map card drawn is id
 *   KA_OFFER + k             chance: Starting Province k is dealt face up
 *   KA_MF + 2*k + s          chance: Most/Fewest card k, side s (0 Most, 1 Fewest)
 * Pick boxes: b < players is that seat's box; in 2p, b = 2 is the middle box
 * to the left of the first player, b = 3 the one to its right.
 */
#ifndef BL_KYUSHU_H
#define BL_KYUSHU_H
#include <stdint.h>
#include "../common/game_api.h"

#define KY_MAXP 5
#define KY_N 32                 /* grid side */
#define KY_NCARDS 60
#define KY_NPROV 6
#define KY_MAPCARDS 13          /* cards in a finished map */
#define KY_UNDO 24              /* cell edits one Map turn can make */
#define KY_NMF 8
#define KY_PER_COLOUR 14

enum { KC_BLUE = 0, KC_BROWN, KC_GREY, KC_PURPLE, KC_N };
enum {
    KT_NONE = 0, KT_LAKE, KT_FOREST, KT_TOWN, KT_SPRING, KT_FALLOW,
    KT_PROD = 6,   /* + colour */
    KT_FACT = 10,  /* + colour */
    KT_N = 14
};
#define KY_NPLANES (KT_N - 1)   /* terrain planes: index t - 1 */

enum {
    KA_CELL = 0, KA_CARD = 1024, KA_BOX = 1084, KA_PAID = 1091, KA_PROVINCE = 1098,
    KA_ORIENT = 1104, KA_TERRAFORM = 1112, KA_END = 1113, KA_COLOUR = 1114,
    KA_DEAL = 1118, KA_OFFER = 1178, KA_MF = 1184, KA_NUM = 1200
};

enum {
    KP_OFFER = 0,    /* chance: a Starting Province is dealt face up */
    KP_MF,           /* chance: a Most/Fewest card for the next pair of seats */
    KP_DEAL,         /* chance: a Map card from the draw pile (hands, 2p middle boxes) */
    KP_PROVINCE,     /* to_move chooses a Starting Province */
    KP_FIRST_BOX,    /* to_move puts a card from hand into their pick box */
    KP_SELECT,       /* to_move takes a card from a pick box */
    KP_PAY,          /* ... discarding the resource on this square */
    KP_REPLACE,      /* ... and refills the box from hand */
    KP_MAP,          /* to_move: terraform first, or the card's orientation/layer */
    KP_POS,          /* to_move: where the card goes */
    KP_TF_RES1,      /* terraforming: first resource discarded */
    KP_TF_RES2,      /* terraforming: second resource discarded */
    KP_TF_COLOUR,    /* terraforming: which discarded colour picks the tile */
    KP_TF_FALLOW,    /* terraforming: the Fallow that gets the tile */
    KP_MAP_AFTER,    /* to_move: terraform after placing, or end the turn */
    KP_TRAV_RES,     /* traveler: the resource sent with it (or none) */
    KP_TRAV_SPRING,  /* traveler: the neighbour's hot spring */
    KP_OVER
};

/* Immutable configuration (in BLGame.config). */
typedef struct {
    int players, side, most_fewest, travelers;
    int boxes;                             /* pick boxes: players, or 4 in 2p */
    uint8_t ter[KY_NCARDS + KY_NPROV][6];  /* terrain per printed square (provinces: chosen side) */
    uint8_t fv[KY_NCARDS + KY_NPROV][6];   /* factory value 2/3/4 (0 off factories) */
    /* Per card and orientation: the cells (row, col offsets) of its lake squares. */
    uint8_t nlake[KY_NCARDS + KY_NPROV][4];
    uint8_t lake_at[KY_NCARDS + KY_NPROV][4][6][2];
} KyuConfig;

/* One card in a map: card id (0..59, provinces 60..65), orientation, top-left
 * cell and height in the pile (larger z lies on top). */
typedef struct { int8_t card, orient, row, col, z; } KyuPlaced;

/* A player's map: bitboards (row r = bit row, bit c = column c). */
typedef struct {
    uint32_t occ[KY_N];                 /* squares covered by some card */
    uint32_t ter[KY_NPLANES][KY_N];     /* visible terrain (tiles included), plane t - 1 */
    uint32_t fv3[KY_N], fv4[KY_N];      /* factory squares worth 3 / 4 (others 2) */
    uint32_t res[KC_N][KY_N];           /* a resource of colour c lies here */
    uint32_t tile[KY_N];                /* a terraforming tile lies here */
    uint32_t trav[KY_N];                /* a traveler stands on this hot spring */
    int8_t top, bottom, left, right;    /* bounding box of occ (inclusive) */
    int8_t n_cards, zmin, zmax, _pad;
    KyuPlaced placed[KY_MAPCARDS];
} KyuMap;

/* The map fields an undo restores besides the logged cells. */
typedef struct { int8_t top, bottom, left, right, n_cards, zmin, zmax; } KyuMeta;

typedef struct { int8_t owner, host; int16_t cell; } KyuTraveler;

/* Whole game state; plain data, clone = memcpy. */
typedef struct {
    BLRng rng;                      /* game stream: must stay first */
    int8_t phase, to_move, round;   /* round 0 = setup, 1..12 */
    int8_t steps;                   /* seats done in the current ordered step */
    int8_t deal_to, deal_left;      /* KP_DEAL: next receiver (-1: middle box) and cards left */
    int8_t deal_kind;               /* 0 hands at setup, 1 2p middle boxes, 2 new hands, 3 2p new middle */
    int8_t offered_n;               /* Starting Provinces dealt so far */
    uint8_t offered;                /* provinces dealt face up and not chosen yet (bit k) */
    uint8_t mf_used;                /* Most/Fewest cards dealt (bit k) */
    int8_t mf_card[KY_MAXP], mf_side[KY_MAXP]; /* card between seat i and i+1 */
    int8_t province[KY_MAXP];       /* Starting Province of each seat (-1 none yet) */
    uint64_t hand[KY_MAXP];         /* Map cards in hand (bit id) */
    uint64_t pile;                  /* draw pile */
    uint64_t discarded;             /* 2p middle-box cards discarded after round 6 */
    int8_t box[KY_MAXP + 2];        /* card in each pick box, -1 empty */
    int8_t selected[KY_MAXP];       /* card taken this round, -1 none / placed and revealed */
    int8_t pool[KC_N];              /* resources in the common pool (in a Map phase: as it began) */
    /* pending decision */
    int8_t pend_box, pend_kind;     /* box taken; 0 own, 1 left (higher), 2 right (lower), 3 paid */
    int8_t pend_orient, pend_layer; /* KP_POS */
    int16_t pend_res1;              /* terraforming: first discarded square */
    int8_t pend_col[2];             /* terraforming: discarded colours */
    int8_t pend_tile;               /* terraforming: tile terrain */
    uint8_t tf_used;                /* bit p: p terraformed this Map phase */
    uint8_t placed_now;             /* bit p: p placed this Map phase (hidden until revealed) */
    uint8_t in_map;                 /* 1 while a Map phase runs (turns hidden) */
    int8_t trav_side;               /* traveler step: 0 left neighbour, 1 right */
    int8_t trav_left[KY_MAXP];      /* travelers each seat still holds */
    int8_t n_trav;
    KyuTraveler trav[2 * KY_MAXP];
    int16_t trav_res;               /* traveler: own square whose resource goes along */
    /* Hidden Map turns: what each seat changed this phase, so the others can
     * be shown (and determinization can resample) the map before the turn. */
    int8_t pool_start[KC_N];        /* pool when the phase began */
    int8_t delta[KY_MAXP][KC_N];    /* resources seat p took from the pool this phase, minus those
                                       it returned (settled at the reveal) */
    uint8_t undo_n[KY_MAXP];
    uint32_t undo[KY_MAXP][KY_UNDO];   /* cell | old contents << 10 (see map.c) */
    KyuMeta meta[KY_MAXP];          /* map meta before the turn */
    KyuMap map[KY_MAXP];
} KyuState;

extern const BLGameVTable bl_kyushu_vtable;

/* --- shared between the kernel's files --- */
/* Width and height of a card in each orientation. */
static const int OW[4] = {3, 2, 3, 2}, OH[4] = {2, 3, 2, 3};
/* Tile terrain chosen by a discarded colour: blue lake, brown town, grey forest, purple hot spring. */
static const int TILE_OF[KC_N] = {KT_LAKE, KT_TOWN, KT_FOREST, KT_SPRING};

static inline uint32_t sh(uint32_t x, int d) { return d > 0 ? x >> d : d < 0 ? x << -d : x; }
static inline int getbit(const uint32_t *pl, int r, int c) { return (int)((pl[r] >> c) & 1u); }
static inline void setbit(uint32_t *pl, int r, int c) { pl[r] |= 1u << c; }
static inline void clrbit(uint32_t *pl, int r, int c) { pl[r] &= ~(1u << c); }
static inline int is_prod(int t) { return t >= KT_PROD && t < KT_PROD + KC_N; }
static inline int is_fact(int t) { return t >= KT_FACT && t < KT_FACT + KC_N; }
static inline int left_seat(const KyuConfig *c, int p) { return (p + 1) % c->players; }
static inline int right_seat(const KyuConfig *c, int p) { return (p + c->players - 1) % c->players; }
/* Pick box to a seat's left / right (2p: the middle boxes). */
static inline int left_box(const KyuConfig *c, int p) { return c->players == 2 ? (p == 0 ? 2 : 3) : left_seat(c, p); }
static inline int right_box(const KyuConfig *c, int p) { return c->players == 2 ? (p == 0 ? 3 : 2) : right_seat(c, p); }

/* Cell (i, j) of the oriented card holding printed square sq (2 rows x 3 columns). */
static inline void orient_cell(int o, int sq, int *i, int *j) {
    int pr = sq / 3, pc = sq % 3;
    switch (o) {
    case 0: *i = pr; *j = pc; break;
    case 1: *i = pc; *j = 1 - pr; break;        /* a quarter turn clockwise */
    case 2: *i = 1 - pr; *j = 2 - pc; break;    /* half turn */
    default: *i = 2 - pc; *j = pr; break;       /* three quarter turns */
    }
}

/* One seat's score (score.c), row by row, and the Most/Fewest criteria. */
typedef struct {
    int springs, forests, towns, lakes, factories, travelers, most_fewest, total, fallows;
    int metric[2][KY_NMF];   /* [0] Most criterion, [1] Fewest criterion, per card */
} KyuScore;

static inline int cell_res(const KyuMap *m, int r, int c) {
    for (int k = 0; k < KC_N; k++)
        if (getbit(m->res[k], r, c)) return k;
    return -1;
}

/* The pool during a Map phase. Turns are simultaneous in the rulebook and
 * modelled as hidden turns in seat order, so a turn must not see what earlier
 * turns took: each seat takes from (and returns to) the pool as it was when the
 * phase began, changed by its own turn only (delta). The real pool is settled
 * at the reveal (settle_pool, rules.c). Outside a Map phase the pool is used
 * directly. */
static inline int pool_avail(const KyuState *s, int p, int k) {
    return s->in_map ? s->pool_start[k] - s->delta[p][k] : s->pool[k];
}
static inline void pool_take(KyuState *s, int p, int k) {
    if (s->in_map) s->delta[p][k]++; else s->pool[k]--;
}
static inline void pool_return(KyuState *s, int p, int k) {
    if (s->in_map) s->delta[p][k]--; else s->pool[k]++;
}

/* Host of the traveler of the seat at traveler step `steps`, side `side`. */
static inline int trav_host(const KyuConfig *c, int p, int side) {
    return side == 0 ? left_seat(c, p) : right_seat(c, p);
}

/* The real maps (a viewer's view may replace some with maps before their hidden turns). */
static inline void real_maps(const KyuState *s, const KyuMap **maps) {
    for (int p = 0; p < KY_MAXP; p++) maps[p] = &s->map[p];
}

/* setup.c */
int kyushu_configure(BLGame *g, const int32_t *pv, int n, char *err, int errlen);
void kyushu_init(const BLGame *g, void *st, uint64_t seed);
/* map.c */
uint32_t kyu_get_code(const KyuMap *m, int r, int c);
void kyu_set_code(KyuMap *m, int r, int c, uint32_t code);
void kyu_map_reset(KyuMap *m);
void kyu_bbox_recompute(KyuMap *m);
int kyu_count_res(const KyuMap *m);
int kyu_count_plane(const KyuMap *m, const uint32_t *pl);
int kyu_cells_of(const KyuMap *m, const uint32_t *pl, int32_t *out);
int kyu_res_cells(const KyuMap *m, int32_t *out);
void kyu_free_springs(const KyuMap *m, uint32_t *rows);
void kyu_push_undo(KyuState *s, int p, int r, int c);
void kyu_save_meta(KyuState *s, int p);
void kyu_revert_map(const KyuState *s, int p, KyuMap *m);
int kyu_positions(const KyuConfig *c, const KyuMap *m, int card, int o, int layer, uint32_t *pos);
void kyu_place_card(const KyuConfig *c, KyuState *s, int p, int card, int o, int R, int C, int layer, int log);
void kyu_recentre(KyuState *s, int p);
/* rules.c */
int kyushu_current_player(const BLGame *g, const void *st);
int kyushu_legal_actions(const BLGame *g, const void *st, int32_t *out);
void kyushu_apply(const BLGame *g, void *st, int32_t a);
int kyushu_chance_outcomes(const BLGame *g, const void *st, int32_t *acts, double *probs);
int32_t kyushu_sample_chance(const BLGame *g, void *st);
int kyu_orient_options(const KyuConfig *c, const KyuState *s, int p);
int kyu_settled_pool(const KyuConfig *c, const KyuState *s, int k);
int kyu_overdrawn(const KyuConfig *c, const KyuState *s, int k);
void kyu_begin_map(const KyuConfig *c, KyuState *s);
void kyu_end_map_turn(const KyuConfig *c, KyuState *s);
/* score.c */
void kyu_score_all(const KyuConfig *c, const KyuState *s, const KyuMap *const *maps, KyuScore *out);
void kyushu_returns(const BLGame *g, const void *st, double *out);
/* observe.c */
int kyushu_action_to_string(const BLGame *g, const void *st, int32_t a, char *buf, int cap);
int kyushu_observe_json(const BLGame *g, const void *st, int viewer, char *buf, int cap);
int kyushu_determinize(const BLGame *g, void *st, int observer, BLRng *rng);
void kyu_random_placement(const KyuConfig *c, KyuState *s, int p, BLRng *r);
/* eval.c */
void kyushu_evaluate(const BLGame *g, const void *st, double *out);
/* features.c: the network's input for a seat (docs/learning.md) */
int kyushu_feature_size(const BLGame *g);
void kyushu_features(const BLGame *g, const void *st, int seat, float *out);
/* position.c */
int kyushu_setup(const BLGame *g, void *st, uint64_t seed, const int32_t *desc, int n, char *err, int errlen);

extern const char *const KY_COLOUR_NAME[KC_N];
extern const char *const KY_TER_NAME[KT_N];
extern const char *const KY_ORIENT_NAME[4];
extern const char *const KY_LAYER_NAME[2];

/* --- entry points for scenario tests only (boardlab._kyushu_scenario) --- */
/* Both edit the map as if before the current Map phase, if one runs.
 * Empty seat p's map (resources return to the pool). */
void kyu_debug_clear_map(const BLGame *g, void *st, int p);
/* Put terrain t (KT_*) with factory value fv on (row, col) of p's map, with a
 * resource of colour res (-1 none), a tile flag, and a traveler of `owner`
 * (-1 none) on it. Resources come from the pool. Returns 0, -1 if invalid. */
int kyu_debug_set_cell(const BLGame *g, void *st, int p, int row, int col, int t, int fv,
                       int res, int tile, int owner);

#endif
