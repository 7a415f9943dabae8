/* Nukumi: a position as one seat knows it at a real table (Game.position), at the start of
 * that seat's turn in the Actions phase. The vector is built and its names checked by
 * position_params in py/boardlab/games/nukumi.py; this checks the facts against each other
 * and the components, and deals what the seat cannot see (the other Helper hands and the
 * deck) at random with the state's seed.
 *
 * Vector (int32):
 *   seat, round (0..4), start_holder, start_face_down, nukumaru square,
 *   5 round cards (0..6), 3 NPC squares (-1: none), Chasing cubes (bit face - 1),
 *   Helper discard (2 x 20 bits), the seat's hand (2 x 20 bits),
 *   per seat: partner, square, coins, fun, oishi, passed, hand size, used mask,
 *             2 action cards (-1 none), bag[5], drawn[5], spent[5], played (2 x 20 bits),
 *   n buildings, then n x (square, building, owner; owner -1: a Score Attack cube);
 *   advanced play only: the face-up Helpers (3, -1 empty), the face-up action cards (3),
 *   n, then the n Helpers known under the deck (next drawn first), n, then the n action
 *   cards known under theirs. The rest of the action cards are the deck (unknown order).
 */
#include <stdio.h>
#include <string.h>
#include "nukumi.h"
#include "../common/bitboard.h"

#define FAIL(...) do { snprintf(err, (size_t)errlen, __VA_ARGS__); return -1; } while (0)
#define SEAT_INTS (8 + NK_CARD_SLOTS + 3 * NK_NRES + 2)

static uint64_t mask40(const int32_t *d) {
    return ((uint64_t)(uint32_t)d[0] & 0xFFFFF) | (((uint64_t)(uint32_t)d[1] & 0xFFFFF) << 20);
}

static void sq_text(int sq, char *buf) { snprintf(buf, 4, "%c%d", 'a' + sq % NK_W, sq / NK_W + 1); }

int nk_setup(const BLGame *g, void *vst, uint64_t seed, const int32_t *d, int n, char *err, int errlen) {
    const NkConfig *c = NK_CFG(g);
    NkState *s = (NkState *)vst;
    int P = c->players;
    int head = 5 + NK_ROUNDS + NK_NPCS + 1 + 4;
    int fixed = head + P * SEAT_INTS + 1;
    char sq[4];
    if (n < fixed) FAIL("position: expected at least %d numbers, got %d", fixed, n);
    int nb = d[fixed - 1];
    if (nb < 0 || nb > NK_NSQ) FAIL("buildings: 0 to %d, got %d", NK_NSQ, nb);
    const int32_t *adv = d + fixed + 3 * nb;     /* advanced play: the rows and the bottoms */
    int want = fixed + 3 * nb;
    if (c->advanced) {
        if (n < want + 7) FAIL("position: expected at least %d numbers, got %d", want + 7, n);
        int nh = adv[6];
        if (nh < 0 || nh > NK_NHELP) FAIL("helper_bottom: 0 to %d Helpers, got %d", NK_NHELP, nh);
        if (n < want + 8 + nh) FAIL("position: expected at least %d numbers, got %d", want + 8 + nh, n);
        int nc = adv[7 + nh];
        if (nc < 0 || nc > NK_NCARD) FAIL("card_bottom: 0 to %d action cards, got %d", NK_NCARD, nc);
        want += 8 + nh + nc;
    }
    if (n != want) FAIL("position: expected %d numbers, got %d", want, n);
    nk_init(g, vst, seed);
    int v = d[0];
    if (v < 0 || v >= P) FAIL("seat must be 0..%d, got %d", P - 1, v);
    if (d[1] < 0 || d[1] >= NK_ROUNDS) FAIL("round must be 1..%d", NK_ROUNDS);
    if (d[2] < 0 || d[2] >= P) FAIL("start_player must be a seat 0..%d, got %d", P - 1, d[2]);
    s->round = (int8_t)d[1];
    s->start_holder = s->round_first = (int8_t)d[2];
    s->start_down = (int8_t)(d[3] != 0);
    if (d[4] < 0 || d[4] >= NK_NSQ || c->sq_kind[d[4]] != SQ_NUKUMARU)
        FAIL("nukumaru must be on a Nukumaru square");
    s->nuku = (int8_t)d[4];
    int seen_rc = 0;
    for (int i = 0; i < NK_ROUNDS; i++) {
        int k = d[5 + i];
        if (k < 0 || k >= NK_NROUND || (seen_rc >> k & 1)) FAIL("round_cards: 5 different round cards");
        seen_rc |= 1 << k;
        s->round_card[i] = (int8_t)k;
    }
    s->n_round_cards = NK_ROUNDS;
    const int32_t *x = d + 5 + NK_ROUNDS;
    for (int i = 0; i < NK_NPCS; i++) {
        int on = x[i];
        if (c->solo == SOLO_SCORE_ATTACK) {
            if (on < 0 || on >= NK_NSQ) FAIL("npcs: Score Attack needs the 3 NPCs' squares");
            s->pos[1 + i] = (int8_t)on;
        } else if (on != -1) FAIL("npcs: only Score Attack has NPCs");
    }
    x += NK_NPCS;
    if (x[0] < 0 || x[0] > 63 || (x[0] && c->solo != SOLO_CHASING))
        FAIL("nukumaru_cubes: only Chasing Nukumaru has them");
    if (x[0] == 63) FAIL("nukumaru_cubes: all six caught means the game is over");
    s->nuku_cubes = (uint8_t)x[0];
    uint64_t discard = mask40(x + 1), hand = mask40(x + 3);
    if (discard & hand) FAIL("discard: a Helper cannot be both in your hand and discarded");
    s->discard = discard;
    s->hand[v] = hand;
    uint64_t known = discard | hand;
    x += 5;
    int hand_sizes = 0;
    uint16_t held = 0;                          /* action cards in the seats' hands */
    for (int p = 0; p < P; p++, x += SEAT_INTS) {
        if (x[0] < 0 || x[0] >= NK_NPART) FAIL("P%d: unknown partner board", p);
        for (int q = 0; q < p; q++)
            if (s->partner[q] == x[0]) FAIL("P%d: partner board already taken by P%d", p, q);
        s->partner[p] = (int8_t)x[0];
        if (x[1] < 0 || x[1] >= NK_NSQ) FAIL("P%d: square out of range", p);
        s->pos[p] = (int8_t)x[1];
        if (x[2] < 0 || x[2] > 999) FAIL("P%d: coins must be 0..999, got %d", p, x[2]);
        s->coins[p] = (int16_t)x[2];
        if (x[3] < 0 || x[3] > 5) FAIL("P%d: fun level must be 0..5, got %d", p, x[3]);
        if (x[4] < 0 || x[4] > 5) FAIL("P%d: oishi level must be 0..5, got %d", p, x[4]);
        s->fun[p] = (int8_t)x[3];
        s->oishi[p] = (int8_t)x[4];
        if (x[5]) s->passed |= (int8_t)(1 << p);
        if (p != v) {
            if (x[6] < 0 || x[6] > NK_NHELP) FAIL("P%d: hand size out of range", p);
            hand_sizes += x[6];
        }
        s->used[p] = (uint16_t)x[7];
        for (int j = 0; j < NK_CARD_SLOTS; j++) {
            int k = x[8 + j];
            if (k < -1 || k >= NK_NCARD) FAIL("P%d: unknown action card", p);
            if (k >= 0 && (held >> k & 1)) FAIL("P%d: action card EX-%02d is held twice", p, k + 1);
            s->card[p][j] = (int8_t)k;
            if (k >= 0) {
                held |= (uint16_t)(1u << k);
                s->cards_open &= (uint16_t)~(1u << k);
            }
        }
        const int32_t *r = x + 8 + NK_CARD_SLOTS;
        for (int k = 0; k < NK_NRES; k++) {
            if (r[k] < 0 || r[NK_NRES + k] < 0 || r[2 * NK_NRES + k] < 0
                || r[k] + r[NK_NRES + k] + r[2 * NK_NRES + k] > c->tokens[k])
                FAIL("P%d: resource counts out of range", p);
            s->bag[p][k] = (int8_t)r[k];
            s->drawn[p][k] = (int8_t)r[NK_NRES + k];
            s->spent[p][k] = (int8_t)r[2 * NK_NRES + k];
        }
        uint64_t played = mask40(r + 3 * NK_NRES);
        if (played & known) FAIL("P%d: a played Helper is also in a hand, discarded or played by another seat", p);
        s->played[p] = played;
        known |= played;
    }
    if (s->passed >> v & 1) FAIL("seat P%d has passed: it is not its turn", v);
    if (nk_total(s->drawn[v]) == 0) FAIL("seat P%d has no drawn resources: it would pass", v);
    for (int k = 0; k < NK_NRES; k++) {
        int left = c->tokens[k];
        for (int p = 0; p < P; p++) left -= nk_owned(s, p, k);
        if (left < 0) FAIL("resources: more %s than the game has (%d)", NK_RES_NAME[k], c->tokens[k]);
        s->pool[k] = (int8_t)left;
    }
    /* Buildings and cubes. */
    for (int i = 0; i < nb; i++) {
        const int32_t *b = x + 1 + 3 * i;     /* x: the count */
        int at = b[0], type = b[1], owner = b[2];
        if (at < 0 || at >= NK_NSQ) FAIL("buildings: square out of range");
        sq_text(at, sq);
        if (c->sq_ribbon[at]) FAIL("buildings: %s is a ribbon square, nothing is built there", sq);
        if (s->built >> at & 1) FAIL("buildings: two on %s", sq);
        s->built |= 1ull << at;
        if (owner == -1) {
            if (c->solo != SOLO_SCORE_ATTACK) FAIL("buildings: NPC cubes (on %s) only in Score Attack", sq);
            continue;
        }
        if (owner < 0 || owner >= P) FAIL("buildings: the owner on %s must be a seat", sq);
        if (type < 0 || type >= NK_NBLD) FAIL("buildings: unknown building on %s", sq);
        if (--s->bld_left[type] < 0) FAIL("buildings: more %s than the game has (%d)", NK_BLD_NAME[type], c->bld_count[type]);
        s->bld_type[at] = (int8_t)type;
        s->bld_owner[at] = (int8_t)owner;
        if (++s->cubes[owner] > NK_CUBES) FAIL("buildings: P%d has built more than %d", owner, NK_CUBES);
    }
    if (c->advanced) {
        /* The face-up rows and what the clean-up slide put under the decks: all public. */
        int nh = adv[6], nc = adv[7 + nh];
        for (int i = 0; i < 3 + nh; i++) {
            int h = i < 3 ? adv[i] : adv[7 + i - 3];
            const char *what = i < 3 ? "helper_row" : "helper_bottom";
            if (h == -1 && i < 3) { s->hrow[i] = -1; continue; }
            if (h < 0 || h >= NK_NHELP) FAIL("%s: unknown Helper", what);
            if (known >> h & 1)
                FAIL("%s: S-%02d is also in a hand, discarded, played or face up", what, h + 1);
            known |= 1ull << h;
            if (i < 3) s->hrow[i] = (int8_t)h; else s->hbot[(int)s->n_hbot++] = (int8_t)h;
        }
        uint16_t seen = held;
        const int32_t *cb = adv + 8 + nh;
        for (int i = 0; i < 3 + nc; i++) {
            int k = i < 3 ? adv[3 + i] : cb[i - 3];
            const char *what = i < 3 ? "card_row" : "card_bottom";
            if (k == -1 && i < 3) { s->crow[i] = -1; continue; }
            if (k < 0 || k >= NK_NCARD) FAIL("%s: unknown action card", what);
            if (seen >> k & 1) FAIL("%s: EX-%02d is also held or face up", what, k + 1);
            seen |= (uint16_t)(1u << k);
            if (i < 3) s->crow[i] = (int8_t)k; else s->cbot[(int)s->n_cbot++] = (int8_t)k;
        }
        s->cdeck = (uint16_t)(((1u << NK_NCARD) - 1) & ~seen);
        s->cards_open = 0;
        for (int i = 0; i < 3; i++)
            if (s->crow[i] >= 0) s->cards_open |= (uint16_t)(1u << s->crow[i]);
    }
    /* The Helpers the seat cannot see: the others' hands (their sizes) and the deck. */
    uint64_t unseen = ((1ull << NK_NHELP) - 1) & ~known;
    if (hand_sizes > bb_popcount64(unseen))
        FAIL("hand sizes: the others hold %d Helpers, only %d are unaccounted for", hand_sizes, bb_popcount64(unseen));
    x = d + head;
    for (int p = 0; p < P; p++, x += SEAT_INTS) {
        if (p == v) continue;
        for (int k = 0; k < x[6]; k++) s->hand[p] |= 1ull << bb_pop_lsb64(&unseen);
    }
    s->deck = unseen;
    BLRng r;
    bl_rng_seed(&r, seed ^ 0x5e7u);
    nk_determinize(g, vst, v, &r);
    bl_rng_seed(&s->rng, seed);
    s->phase = NP_TURN;
    s->ctx = CTX_TURN;
    s->to_move = (int8_t)v;
    s->in_action = 0;
    s->rode = 0;
    s->bonus_used = 0;
    s->sp = 0;
    return 0;
}
