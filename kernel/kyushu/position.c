/* Kyushu: a position as one seat knows it at a real table (Game.position): a
 * Selection phase, or the seat's own hidden turn in a Map phase. The facts are
 * checked against the components and the rules; what the seat cannot see (the
 * other hands, the draw pile, earlier hidden Map turns) is dealt at random
 * with the state's seed.
 *
 * Vector (built by py/boardlab/games/kyushu.py position_params):
 *   seat, round, to_move, phase (0 Selection, 1 Map: the seat's own hidden Map
 *   turn, to_move = seat, every seat's card taken, maps as the phase began),
 *   pool[4] (-1: not given), per seat its province (0..5),
 *   per seat the Most/Fewest card to its left (-1: option off), per seat its side,
 *   per box its card (-1 empty), per seat the card taken this round (-1), then
 *   counted lists:
 *   hand n + ids; discarded n + ids; per seat: n cards + n x (card, orient, row, col, layer);
 *   tiles n + n x (seat, row, col, colour); travelers n + n x (owner, host, row, col, active);
 *   resources n + n x (seat, row, col, colour);
 *   turn n + n actions: the seat's own decisions so far in this turn (a take or a
 *   placement in progress), applied by the rules.
 * Cards are ids 0..59, provinces 60..65. Maps are rebuilt with kyu_place_card and
 * the cell edits of the scenario entry points, so they obey the same rules. */
#include <stdio.h>
#include <string.h>
#include "kyushu.h"
#include "../common/bitboard.h"

#define CFG(g) ((const KyuConfig *)(g)->config)
#define ST(p) ((KyuState *)(p))

#define SETUP_FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int kyu_hand_size(int round, int p, int to_move) {
    return (round <= 5 ? 6 - round : 12 - round) - (p < to_move ? 1 : 0);
}

/* Cards in hand during round `round`'s Map phase (every seat has taken its card;
 * in rounds 6 and 12 the hands are empty and each took its own pick box). */
static int kyu_map_hand_size(int round) {
    return (round == 6 || round == 12) ? 0 : round <= 5 ? 5 - round : 11 - round;
}

int kyushu_setup(const BLGame *g, void *vst, uint64_t seed, const int32_t *d, int n, char *err, int errlen) {
    const KyuConfig *c = CFG(g);
    KyuState *s = ST(vst);
    int P = c->players, B = c->boxes, at = 0;
#define NEED(k, what) do { if (at + (k) > n) SETUP_FAIL("position: the vector ends early (%s)", what); } while (0)
    NEED(8 + 3 * P + B + P, "header");
    int v = d[at++], round = d[at++], to_move = d[at++], map = d[at++];
    int pool_given[KC_N];
    for (int k = 0; k < KC_N; k++) pool_given[k] = d[at++];
    if (v < 0 || v >= P) SETUP_FAIL("seat must be 0..%d, got %d", P - 1, v);
    if (map != 0 && map != 1) SETUP_FAIL("phase must be 0 (Selection) or 1 (Map), got %d", map);
    if (!map && (round < 1 || round > 11 || round == 6))
        SETUP_FAIL("round: a Selection phase is played in rounds 1-5 and 7-11, got %d", round);
    if (map && (round < 1 || round > 12)) SETUP_FAIL("round: a Map phase is played in rounds 1-12, got %d", round);
    if (to_move < 0 || to_move >= P) SETUP_FAIL("to_move must be a seat 0..%d, got %d", P - 1, to_move);
    if (map && to_move != v)
        SETUP_FAIL("to_move: a Map phase is set up at the seat's own turn (P%d), got P%d", v, to_move);
    kyushu_init(g, vst, seed);
    s->round = (int8_t)round;
    uint64_t seen = 0;
    uint8_t prov_used = 0;
    for (int p = 0; p < P; p++) {
        int k = d[at++];
        if (k < 0 || k >= KY_NPROV) SETUP_FAIL("maps: P%d's Starting Province must be 1..6, got %d", p, k + 1);
        if (prov_used >> k & 1) SETUP_FAIL("maps: Starting Province %d is on two maps", k + 1);
        prov_used |= (uint8_t)(1u << k);
        s->province[p] = (int8_t)k;
    }
    uint16_t mf_seen = 0;
    for (int p = 0; p < P; p++) {
        int k = d[at++], side = d[at + P - 1];
        if (!c->most_fewest) { if (k != -1) SETUP_FAIL("most_fewest: the Most/Fewest option is off"); continue; }
        if (k < 0 || k >= KY_NMF) SETUP_FAIL("most_fewest: the card between P%d and P%d must be 1..8, got %d", p, (p + 1) % P, k + 1);
        if (side != 0 && side != 1) SETUP_FAIL("most_fewest: the card between P%d and P%d needs a side (most or fewest)", p, (p + 1) % P);
        if (mf_seen >> k & 1) SETUP_FAIL("most_fewest: card %d is dealt twice", k + 1);
        mf_seen |= (uint16_t)(1u << k);
        s->mf_card[p] = (int8_t)k; s->mf_side[p] = (int8_t)side;
        s->mf_used |= (uint8_t)(1u << k);
    }
    at += P;
#define TAKE_CARD(id, ...) do { int id_ = (id); if (id_ < 0 || id_ >= KY_NCARDS) SETUP_FAIL(__VA_ARGS__); \
        if (seen >> id_ & 1) SETUP_FAIL("cards: card %d is in two places", id_ + 1); seen |= 1ull << id_; } while (0)
    for (int b = 0; b < B; b++) {
        int id = d[at++];
        s->box[b] = (int8_t)id;
        int own_taken = map && b < P && (round == 6 || round == 12);
        if (own_taken && id != -1)
            SETUP_FAIL("pick_boxes: box %d must be empty (in round %d each seat took its own box)", b, round);
        if (id == -1) {
            if (own_taken) continue;
            if (b < P) SETUP_FAIL("pick_boxes: box %d is empty (every seat's box holds a card %s)", b,
                                  map ? "after the Selection" : "at the Selection");
            if (round <= 6) SETUP_FAIL("pick_boxes: the middle box %s is empty", b == 2 ? "left of P0" : "right of P0");
            continue;
        }
        TAKE_CARD(id, "pick_boxes: box %d holds no Map card 1..60 (%d)", b, id + 1);
    }
    for (int p = 0; p < P; p++) {
        int id = d[at++];
        if (map && id < 0) SETUP_FAIL("taken: P%d must have taken a card (every seat has, in the Map phase)", p);
        if (!map && (p < to_move) != (id >= 0))
            SETUP_FAIL("taken: P%d %s (seats before to_move have taken a card, the others not yet)", p,
                       id >= 0 ? "cannot have taken a card yet" : "must have taken a card");
        if (id >= 0) TAKE_CARD(id, "taken: P%d's card must be 1..60, got %d", p, id + 1);
        s->selected[p] = (int8_t)id;
    }
    NEED(1, "hand");
    int nh = d[at++], want_h = map ? kyu_map_hand_size(round) : kyu_hand_size(round, v, to_move);
    if (nh != want_h)
        SETUP_FAIL("hand: P%d holds %d cards %s, got %d", v, want_h,
                   map ? "in this round's Map phase" : "in this round", nh);
    NEED(nh, "hand");
    for (int i = 0; i < nh; i++) {
        int id = d[at++];
        TAKE_CARD(id, "hand: a Map card is numbered 1..60, got %d", id + 1);
        s->hand[v] |= 1ull << id;
    }
    NEED(1, "discarded");
    int nd = d[at++];
    if (nd && (P != 2 || round < 7 || nd != 2)) SETUP_FAIL("discarded: only the two 2-player middle cards are discarded, after round 6");
    NEED(nd, "discarded");
    for (int i = 0; i < nd; i++) {
        int id = d[at++];
        TAKE_CARD(id, "discarded: a Map card is numbered 1..60, got %d", id + 1);
        s->discarded |= 1ull << id;
    }
    /* Maps: the Starting Province, then each card in the order it was placed. */
    for (int p = 0; p < P; p++) {
        NEED(1, "maps");
        int nc = d[at++];
        if (nc < 1 || nc > round)
            SETUP_FAIL("maps: P%d's map has the Starting Province and up to %d cards%s, got %d entries", p,
                       round - 1, map ? " (as the Map phase began)" : "", nc);
        NEED(5 * nc, "maps");
        for (int i = 0; i < nc; i++) {
            int card = d[at], o = d[at + 1], R = d[at + 2], C = d[at + 3], layer = d[at + 4];
            at += 5;
            if (i == 0 && card != KY_NCARDS + s->province[p]) SETUP_FAIL("maps: P%d's first card must be its Starting Province", p);
            if (i > 0) TAKE_CARD(card, "maps: P%d's card %d is not a Map card 1..60 (%d)", p, i, card + 1);
            if (o < 0 || o > 3) SETUP_FAIL("maps: P%d's card %d has no orientation %d", p, i, o);
            if (layer != 0 && layer != 1) SETUP_FAIL("maps: P%d's card %d layer must be over or under", p, i);
            if (R < 0 || C < 0 || R + OH[o] > KY_N || C + OW[o] > KY_N) SETUP_FAIL("maps: P%d's card %d lies off the grid at row %d, col %d", p, i, R, C);
            if (i > 0) {
                uint32_t pos[KY_N];
                kyu_positions(c, &s->map[p], card, o, layer, pos);
                if (!(pos[R] >> C & 1))
                    SETUP_FAIL("maps: P%d's card %d (%d) cannot be placed %s %s at row %d, col %d", p, i, card + 1,
                               KY_ORIENT_NAME[o], KY_LAYER_NAME[layer], R, C);
            }
            kyu_place_card(c, s, p, card, o, R, C, layer, 0);
        }
    }
    /* Resources are given square by square: start from an empty pool count. */
    for (int p = 0; p < P; p++) memset(s->map[p].res, 0, sizeof s->map[p].res);
    for (int k = 0; k < KC_N; k++) s->pool[k] = KY_PER_COLOUR;
    NEED(1, "tiles");
    int nt = d[at++];
    NEED(4 * nt, "tiles");
    for (int i = 0; i < nt; i++) {
        int p = d[at], R = d[at + 1], C = d[at + 2], k = d[at + 3];
        at += 4;
        if (p < 0 || p >= P || R < 0 || R >= KY_N || C < 0 || C >= KY_N) SETUP_FAIL("tiles: tile %d is not on a map square", i + 1);
        if (k < 0 || k >= KC_N) SETUP_FAIL("tiles: tile %d has no colour %d", i + 1, k);
        uint32_t code = kyu_get_code(&s->map[p], R, C);
        if ((code & 15) != KT_FALLOW) SETUP_FAIL("tiles: tile %d must lie on a visible Fallow of P%d's map", i + 1, p);
        kyu_debug_set_cell(g, vst, p, R, C, TILE_OF[k], 0, -1, 1, -1);
    }
    NEED(1, "travelers");
    int nv = d[at++];
    if (nv && (!c->travelers || round < 7)) SETUP_FAIL("travelers: travelers are sent after round 6, with the Travelers option");
    NEED(5 * nv, "travelers");
    for (int i = 0; i < nv; i++) {
        int o = d[at], h = d[at + 1], R = d[at + 2], C = d[at + 3], active = d[at + 4];
        at += 5;
        if (o < 0 || o >= P || h < 0 || h >= P || R < 0 || R >= KY_N || C < 0 || C >= KY_N)
            SETUP_FAIL("travelers: traveler %d is not on a map square", i + 1);
        if (h == o || (h != left_seat(c, o) && h != right_seat(c, o)))
            SETUP_FAIL("travelers: P%d's traveler %d must be on a neighbour's map", o, i + 1);
        if (s->trav_left[o] <= 0) SETUP_FAIL("travelers: P%d has no traveler left to send", o);
        uint32_t code = kyu_get_code(&s->map[h], R, C);
        if (active) {
            if ((code & 15) != KT_SPRING || (code >> 11 & 1))
                SETUP_FAIL("travelers: traveler %d must stand on a free hot spring of P%d", i + 1, h);
            kyu_debug_set_cell(g, vst, h, R, C, KT_SPRING, 0, -1, (int)(code >> 7 & 1), o);
        } else {
            /* Covered by a card placed later: it only counts as sent. */
            if (!(code >> 6 & 1)) SETUP_FAIL("travelers: covered traveler %d must be under a card of P%d", i + 1, h);
            KyuTraveler *tr = &s->trav[s->n_trav++];
            tr->owner = (int8_t)o; tr->host = (int8_t)h; tr->cell = (int16_t)(R * KY_N + C);
        }
        s->trav_left[o]--;
    }
    NEED(1, "resources");
    int nr = d[at++];
    NEED(4 * nr, "resources");
    for (int i = 0; i < nr; i++) {
        int p = d[at], R = d[at + 1], C = d[at + 2], k = d[at + 3];
        at += 4;
        if (p < 0 || p >= P || R < 0 || R >= KY_N || C < 0 || C >= KY_N) SETUP_FAIL("resources: resource %d is not on a map square", i + 1);
        if (k < 0 || k >= KC_N) SETUP_FAIL("resources: resource %d has no colour %d", i + 1, k);
        uint32_t code = kyu_get_code(&s->map[p], R, C);
        int t = code & 15;
        if (!(t == KT_PROD + k || (t == KT_SPRING && (code >> 11 & 1))))
            SETUP_FAIL("resources: a %s resource at row %d, col %d of P%d must be on a %s production square or with a traveler",
                       KY_COLOUR_NAME[k], R, C, p, KY_COLOUR_NAME[k]);
        if (code >> 8 & 7) SETUP_FAIL("resources: two resources at row %d, col %d of P%d", R, C, p);
        if (s->pool[k] <= 0) SETUP_FAIL("resources: more %s resources than the game has (%d)", KY_COLOUR_NAME[k], KY_PER_COLOUR);
        code |= (uint32_t)(k + 1) << 8;
        kyu_set_code(&s->map[p], R, C, code);
        s->pool[k]--;
    }
    for (int k = 0; k < KC_N; k++)
        if (pool_given[k] >= 0 && pool_given[k] != s->pool[k])
            SETUP_FAIL("pool: %d %s resources are off the maps, not %d", s->pool[k], KY_COLOUR_NAME[k], pool_given[k]);
    /* The hidden rest: other hands and the draw pile, dealt at random. */
    uint64_t unknown = ((1ull << KY_NCARDS) - 1) & ~seen;
    int8_t ids[KY_NCARDS];
    int m = 0;
    for (uint64_t x = unknown; x;) ids[m++] = (int8_t)bb_pop_lsb64(&x);
    BLRng r;
    bl_rng_seed(&r, seed ^ 0x9E3779B97F4A7C15ull);
    for (int i = m - 1; i > 0; i--) {
        int j = (int)bl_rng_below(&r, (uint32_t)(i + 1));
        int8_t t = ids[i]; ids[i] = ids[j]; ids[j] = t;
    }
    int j = 0;
    for (int p = 0; p < P; p++) {
        if (p == v) continue;
        for (int need = map ? kyu_map_hand_size(round) : kyu_hand_size(round, p, to_move); need > 0; need--) {
            if (j == m) SETUP_FAIL("cards: too few cards are left for P%d's hand", p);
            s->hand[p] |= 1ull << ids[j++];
        }
    }
    s->pile = 0;
    while (j < m) s->pile |= 1ull << ids[j++];
    if (map) {
        /* The seats before v have taken their hidden turns: a random legal
         * placement each (what determinization samples too); v's turn starts. */
        kyu_begin_map(c, s);
        while (s->in_map && s->to_move < v) {
            kyu_random_placement(c, s, s->to_move, &r);
            kyu_end_map_turn(c, s);
        }
        if (!s->in_map || s->to_move != v)
            SETUP_FAIL("maps: P%d's card %d fits nowhere on its map: its Map turn is skipped", v, s->selected[v] + 1);
    } else {
        s->steps = (int8_t)to_move;
        s->to_move = (int8_t)to_move;
        s->phase = KP_SELECT;
    }
    /* The seat's turn so far, by the rules. */
    NEED(1, "turn");
    int nturn = d[at++];
    if (nturn < 0) SETUP_FAIL("turn: a count of actions, got %d", nturn);
    NEED(nturn, "turn");
    for (int i = 0; i < nturn; i++) {
        int a = d[at++];
        int32_t legal[KA_NUM];
        int nl = kyushu_current_player(g, vst) == v ? kyushu_legal_actions(g, vst, legal) : 0;
        int ok = 0;
        for (int k = 0; k < nl && !ok; k++) ok = legal[k] == a;
        if (!nl) SETUP_FAIL("turn: action %d comes after P%d's turn is over", i + 1, v);
        if (!ok) SETUP_FAIL("turn: action %d (%d) is not legal for P%d there", i + 1, a, v);
        kyushu_apply(g, vst, a);
    }
    if (at != n) SETUP_FAIL("position: %d numbers left over", n - at);
    return 0;
#undef NEED
#undef TAKE_CARD
}
