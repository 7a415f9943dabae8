/* Nukumi: move notation and the JSON observation (what a seat knows: every
 * public thing, its own Helper hand; the others' hands and the deck only as
 * sizes). */
#include <stdio.h>
#include <string.h>
#include "nukumi.h"
#include "../common/bitboard.h"
#include "../common/jsonw.h"

const char *const NK_RES_NAME[NK_NRES] = {"stone", "wood", "networking", "food", "gold"};
const char *const NK_SPOT_NAME[NK_NSPOT] = {"mining", "logging", "planning", "cooking", "gold mining",
                                            "recruitment", "move (1)", "move (2)", "add an action",
                                            "construction"};
const char *const NK_BLD_NAME[NK_NBLD] = {"stall", "public bath", "tavern", "ryokan", "playground",
                                          "nukumi palace", "nukumaru statue", "souvenir shop"};
static const char *const PHASE_NAME[] = {"setup", "setup", "die", "helper draw", "resource draw",
                                         "event", "actions", "payment", "move", "play helpers",
                                         "take a card", "helper choice", "card draw", "npc route", "build",
                                         "end of turn", "over"};
static const char *const OP_NAME[EF_N] = {"", "gain", "coins", "draw helpers", "play helpers", "move",
                                          "fun", "oishi", "die rolls", "take a card", "souvenir coins", "build",
                                          "move Nukumaru", "refill face-up helpers", "refill face-up cards", "npc die", "npc move"};

/* "c4": column letter, row number (rows 1-9: the board has 7). */
static void sq_name(int sq, char *buf) {
    buf[0] = (char)('a' + sq % NK_W);
    buf[1] = (char)('1' + sq / NK_W);
    buf[2] = 0;
}

int nk_action_to_string(const BLGame *g, const void *vst, int32_t a, char *buf, int cap) {
    const NkState *s = (const NkState *)vst;
    int p = s->to_move;
    char sq[4];
    int top = s->sp > 0 ? s->stack[s->sp - 1].op : EF_NONE;
    int refill = s->sp > 0 && (s->stack[s->sp - 1].op == EF_REFILL_H || s->stack[s->sp - 1].op == EF_REFILL_C);
    if (a == NA_END) return snprintf(buf, (size_t)cap, "end turn");
    if (a >= NA_ROUTE) {
        int8_t route[4];
        int len = nk_route_squares(g, vst, a - NA_ROUTE, route), n;
        if (!len) return snprintf(buf, (size_t)cap, "NPC route %d", a - NA_ROUTE + 1);   /* none on offer */
        n = snprintf(buf, (size_t)cap, "NPC %d route", s->npc);
        for (int i = 0; i < len && n < cap; i++) {
            sq_name(route[i], sq);
            n += snprintf(buf + n, (size_t)(cap - n), "%s%s", i ? "-" : " ", sq);
        }
        return n;
    }
    if (a >= NA_DRAWCARD) {
        if (refill) return snprintf(buf, (size_t)cap, "face up EX-%02d", a - NA_DRAWCARD + 1);
        return snprintf(buf, (size_t)cap, "P%d draws EX-%02d", p, a - NA_DRAWCARD + 1);
    }
    if (a >= NA_PICKH) return snprintf(buf, (size_t)cap, "take S-%02d", a - NA_PICKH + 1);
    if (a == NA_BLIND) return snprintf(buf, (size_t)cap, s->phase == NP_HPICK ? "draw blind" : "take blind");
    if (a >= NA_DRAWHELPER) {
        if (refill) return snprintf(buf, (size_t)cap, "face up S-%02d", a - NA_DRAWHELPER + 1);
        return snprintf(buf, (size_t)cap, "P%d draws S-%02d", p, a - NA_DRAWHELPER + 1);
    }
    if (a >= NA_DRAWRES) return snprintf(buf, (size_t)cap, "P%d draws %s", p, NK_RES_NAME[a - NA_DRAWRES]);
    if (a >= NA_DIE) {
        if (top == EF_NPCROLL) return snprintf(buf, (size_t)cap, "NPC %d die %d", s->npc, a - NA_DIE + 1);
        return snprintf(buf, (size_t)cap, "%s die %d", top == EF_NUKU ? "Nukumaru" : "bonus", a - NA_DIE + 1);
    }
    if (a >= NA_PARTNERDEAL)
        return snprintf(buf, (size_t)cap, "partner board %d to P%d", a - NA_PARTNERDEAL + 1, s->n_partners);
    if (a >= NA_ROUNDCARD) return snprintf(buf, (size_t)cap, "round card E-%02d", a - NA_ROUNDCARD + 1);
    if (a == NA_DECLINE || a == NA_ACCEPT) {
        const char *verb = a == NA_ACCEPT ? "accept" : "decline";
        if (s->round < 0 || s->round >= s->n_round_cards)     /* before the deal, after round 5 */
            return snprintf(buf, (size_t)cap, "%s the event", verb);
        return snprintf(buf, (size_t)cap, "%s E-%02d", verb, s->round_card[(int)s->round] + 1);
    }
    if (a >= NA_PAY) {
        const NkConfig *c = NK_CFG(g);
        int n = snprintf(buf, (size_t)cap, "pay");
        const char *sep = " ";
        for (int k = 0; k < NK_NRES; k++)
            for (int i = 0; i < c->ms[a - NA_PAY][k] && n < cap; i++) {
                n += snprintf(buf + n, (size_t)(cap - n), "%s%s", sep, NK_RES_NAME[k]);
                sep = "+";
            }
        return n;
    }
    if (a >= NA_TAKE) return snprintf(buf, (size_t)cap, "take EX-%02d", a - NA_TAKE + 1);
    if (a >= NA_PLAY) return snprintf(buf, (size_t)cap, "play S-%02d", a - NA_PLAY + 1);
    if (a == NA_STOP)
        return snprintf(buf, (size_t)cap, s->phase == NP_PLAY ? "stop playing" : s->phase == NP_BUILD ? "build nothing"
                                                                                            : "stop moving");
    if (a >= NA_CARRIAGE) { sq_name(a - NA_CARRIAGE, sq); return snprintf(buf, (size_t)cap, "carriage to %s", sq); }
    if (a >= NA_STEP) { sq_name(a - NA_STEP, sq); return snprintf(buf, (size_t)cap, "step %s", sq); }
    if (a >= NA_SELL) return snprintf(buf, (size_t)cap, "sell %s", NK_RES_NAME[a - NA_SELL]);
    if (a == NA_COINMOVE) return snprintf(buf, (size_t)cap, "pay 3 coins to move");
    if (a >= NA_DISCARD) return snprintf(buf, (size_t)cap, "discard S-%02d to move", a - NA_DISCARD + 1);
    if (a == NA_PASS) return snprintf(buf, (size_t)cap, "pass");
    if (a >= NA_CARD) {
        int j = a - NA_CARD;
        if (p < 0 || p >= NK_CFG(g)->players || s->card[p][j] < 0)   /* no seat to move, or an empty slot */
            return snprintf(buf, (size_t)cap, "use action card %d", j + 1);
        return snprintf(buf, (size_t)cap, "use EX-%02d", s->card[p][j] + 1);
    }
    if (a == NA_PARTNER) return snprintf(buf, (size_t)cap, "partner action");
    if (a >= NA_BUILD) return snprintf(buf, (size_t)cap, "build %s", NK_BLD_NAME[a - NA_BUILD]);
    return snprintf(buf, (size_t)cap, "%s", NK_SPOT_NAME[a - NA_SPOT]);
}

static void jw_res(BLJw *w, const char *key, const int8_t *r) {
    bl_jw(w, ",\"%s\":{", key);
    for (int k = 0; k < NK_NRES; k++) bl_jw(w, "%s\"%s\":%d", k ? "," : "", NK_RES_NAME[k], r[k]);
    bl_jw(w, "}");
}

static void jw_cards(BLJw *w, const char *key, uint64_t set, const char *fmt) {
    bl_jw(w, ",\"%s\":[", key);
    for (int first = 1; set; first = 0) {
        int h = bb_pop_lsb64(&set);
        bl_jw(w, "%s\"", first ? "" : ",");
        bl_jw(w, fmt, h + 1);
        bl_jw(w, "\"");
    }
    bl_jw(w, "]");
}

/* A row (slot order; -1: an empty slot, null) or an ordered list of cards. */
static void jw_row(BLJw *w, const char *key, const int8_t *ids, int n, const char *fmt) {
    bl_jw(w, ",\"%s\":[", key);
    for (int i = 0; i < n; i++) {
        bl_jw(w, "%s", i ? "," : "");
        if (ids[i] < 0) { bl_jw(w, "null"); continue; }
        bl_jw(w, "\"");
        bl_jw(w, fmt, ids[i] + 1);
        bl_jw(w, "\"");
    }
    bl_jw(w, "]");
}

static const char *const SOLO_NAME[] = {"none", "score attack", "chasing"};

/* Solo: the NPCs, their cubes, the Chasing cubes, and the result with its title. */
static void jw_solo(BLJw *w, const BLGame *g, const NkState *s) {
    const NkConfig *c = NK_CFG(g);
    char sq[4];
    bl_jw(w, ",\"solo\":\"%s\",\"npcs\":[", SOLO_NAME[c->solo]);
    for (int i = c->players; i < c->pieces; i++) {
        sq_name(s->pos[i], sq);
        bl_jw(w, "%s\"%s\"", i > c->players ? "," : "", sq);
    }
    bl_jw(w, "],\"npc_cubes\":[");
    int first = 1;
    for (uint64_t m = s->built; m;) {
        int x = bb_pop_lsb64(&m);
        if (s->bld_type[x] >= 0) continue;
        sq_name(x, sq);
        bl_jw(w, "%s\"%s\"", first ? "" : ",", sq);
        first = 0;
    }
    bl_jw(w, "],\"nukumaru_cubes\":[");
    for (int f = 0, f1 = 1; f < 6; f++)
        if (s->nuku_cubes >> f & 1) {
            sq_name(c->nuku_sq[f], sq);
            bl_jw(w, "%s\"%s\"", f1 ? "" : ",", sq);
            f1 = 0;
        }
    bl_jw(w, "],\"result\":");
    if (!c->solo || s->phase != NP_OVER) { bl_jw(w, "null"); return; }
    if (c->solo == SOLO_CHASING) {
        static const char *const T[] = {"Try Harder Next Time!", "World Best!", "World Best!", "World Best!",
                                        "Very Good Job!", "Good Job!"};
        bl_jw(w, "{\"cleared_round\":");
        if (s->cleared) bl_jw(w, "%d", s->cleared); else bl_jw(w, "null");
        bl_jw(w, ",\"title\":\"%s\"}", T[(int)s->cleared]);
        return;
    }
    NkScore sc;
    nk_score(c, s, 0, &sc);
    const char *title = sc.total >= 200 ? "World Famous Pioneer" : sc.total >= 175 ? "National Pioneer"
        : sc.total >= 150 ? "Nukumi Town Pioneer" : sc.total >= 125 ? "Famous Pioneer"
        : sc.total >= 100 ? "Common Pioneer" : "Apprentice Pioneer";
    bl_jw(w, "{\"score\":%d,\"title\":\"%s\"}", sc.total, title);
}

int nk_observe_json(const BLGame *g, const void *vst, int v, char *buf, int cap) {
    const NkConfig *c = NK_CFG(g);
    const NkState *s = (const NkState *)vst;
    BLJw w = {buf, cap, 0};
    int P = c->players, full = v < 0;
    char sq[4];
    bl_jw(&w, "{\"game\":\"nukumi\",\"players\":%d,\"viewer\":", P);
    if (full) bl_jw(&w, "null"); else bl_jw(&w, "%d", v);
    bl_jw(&w, ",\"partner_side\":\"%c\",\"board_side\":\"%c\",\"round\":%d,\"phase\":\"%s\",\"current_player\":%d",
          c->partner_side ? 'B' : 'A', c->board_side ? 'B' : 'A', s->round, PHASE_NAME[(int)s->phase], nk_current_player(g, vst));
    /* The seat a decision or a chance outcome is for (whose Helper or resource is drawn, whose
     * bonus die rolls): public, and not told by current_player at a chance node. */
    if (s->phase == NP_OVER || s->phase == NP_SETUP_ROUND || s->phase == NP_SETUP_PARTNER)
        bl_jw(&w, ",\"acting_seat\":null");
    else
        bl_jw(&w, ",\"acting_seat\":%d", s->to_move);
    bl_jw(&w, ",\"start_player\":%d,\"start_face_down\":%s,\"nukumaru\":", s->start_holder,
          s->start_down ? "true" : "false");
    if (s->nuku >= 0) { sq_name(s->nuku, sq); bl_jw(&w, "\"%s\"", sq); } else bl_jw(&w, "null");
    bl_jw(&w, ",\"round_cards\":[");
    for (int i = 0; i < s->n_round_cards; i++) bl_jw(&w, "%s\"E-%02d\"", i ? "," : "", s->round_card[i] + 1);
    bl_jw(&w, "]");
    jw_res(&w, "pool", s->pool);
    bl_jw(&w, ",\"advanced\":%s,\"deck_size\":%d", c->advanced ? "true" : "false",
          bb_popcount64(s->deck) + s->n_hbot);
    if (full) jw_cards(&w, "deck", s->deck, "S-%02d");
    jw_row(&w, "helper_row", s->hrow, 3, "S-%02d");
    jw_row(&w, "helper_bottom", s->hbot, s->n_hbot, "S-%02d");
    jw_row(&w, "card_row", s->crow, 3, "EX-%02d");
    jw_row(&w, "card_bottom", s->cbot, s->n_cbot, "EX-%02d");
    bl_jw(&w, ",\"card_deck_size\":%d", bb_popcount32(s->cdeck) + s->n_cbot);
    jw_cards(&w, "discard", s->discard, "S-%02d");
    jw_cards(&w, "cards_open", s->cards_open, "EX-%02d");
    bl_jw(&w, ",\"buildings\":[");
    int first = 1;
    for (uint64_t m = s->built; m;) {
        int x = bb_pop_lsb64(&m);
        if (s->bld_type[x] < 0) continue;          /* a Score Attack cube */
        sq_name(x, sq);
        bl_jw(&w, "%s{\"square\":\"%s\",\"building\":\"%s\",\"owner\":%d}", first ? "" : ",", sq,
              NK_BLD_NAME[(int)s->bld_type[x]], s->bld_owner[x]);
        first = 0;
    }
    bl_jw(&w, "],\"buildings_left\":{");
    for (int b = 0; b < NK_NBLD; b++) bl_jw(&w, "%s\"%s\":%d", b ? "," : "", NK_BLD_NAME[b], s->bld_left[b]);
    bl_jw(&w, "},\"bonus_used\":[");
    first = 1;
    for (uint64_t m = s->bonus_used; m; first = 0) {
        sq_name(bb_pop_lsb64(&m), sq);
        bl_jw(&w, "%s\"%s\"", first ? "" : ",", sq);
    }
    bl_jw(&w, "]");
    jw_solo(&w, g, s);
    /* The action being paid for is public (the player announced it). */
    bl_jw(&w, ",\"paying_for\":");
    if (s->phase != NP_PAY) bl_jw(&w, "null");
    else if (s->pend_kind == PK_SPOT) bl_jw(&w, "\"%s\"", NK_SPOT_NAME[(int)s->pend_idx]);
    else if (s->pend_kind == PK_BUILD || s->pend_kind == PK_EFFECT_BUILD)
        bl_jw(&w, "\"build %s\"", NK_BLD_NAME[(int)s->pend_idx]);
    else if (s->pend_kind == PK_PARTNER) bl_jw(&w, "\"partner action\"");
    else bl_jw(&w, "\"EX-%02d\"", s->card[(int)s->to_move][(int)s->pend_idx] + 1);
    bl_jw(&w, ",\"carriage_ridden\":%s,\"pending\":[", s->rode ? "true" : "false");
    for (int i = s->sp - 1; i >= 0; i--) {
        const NkFrame *f = &s->stack[i];
        bl_jw(&w, "%s\"%s", i == s->sp - 1 ? "" : ",", OP_NAME[(int)f->op]);
        if (f->op == EF_GAIN) bl_jw(&w, " %d %s", f->b, NK_RES_NAME[(int)f->a]);
        else if (f->op != EF_NUKU && f->op != EF_TAKE) bl_jw(&w, " %d", f->a);
        bl_jw(&w, "\"");
    }
    bl_jw(&w, "],\"seats\":[");
    for (int p = 0; p < P; p++) {
        NkScore sc;
        nk_score(c, s, p, &sc);
        sq_name(s->pos[p], sq);
        bl_jw(&w, "%s{\"partner\":%d,\"square\":\"%s\",\"coins\":%d,\"fun\":%d,\"oishi\":%d,\"buildings\":%d",
              p ? "," : "", s->partner[p], sq, s->coins[p], s->fun[p], s->oishi[p], s->cubes[p]);
        bl_jw(&w, ",\"draw_size\":%d,\"passed\":%s", nk_draw_size(c, s, p), (s->passed >> p & 1) ? "true" : "false");
        jw_res(&w, "bag", s->bag[p]);
        jw_res(&w, "drawn", s->drawn[p]);
        jw_res(&w, "spent", s->spent[p]);
        bl_jw(&w, ",\"hand_size\":%d", bb_popcount64(s->hand[p]));
        if (full || p == v) jw_cards(&w, "hand", s->hand[p], "S-%02d");
        else bl_jw(&w, ",\"hand\":null");
        jw_cards(&w, "played", s->played[p], "S-%02d");
        bl_jw(&w, ",\"cards\":[");
        for (int j = 0, f1 = 1; j < NK_CARD_SLOTS; j++)
            if (s->card[p][j] >= 0) { bl_jw(&w, "%s\"EX-%02d\"", f1 ? "" : ",", s->card[p][j] + 1); f1 = 0; }
        bl_jw(&w, "],\"used\":[");
        for (int k = 0, f1 = 1; k < NK_NSPOT + 1 + NK_CARD_SLOTS; k++) {
            if (!(s->used[p] >> k & 1)) continue;
            const char *name = k < NK_NSPOT ? NK_SPOT_NAME[k] : k == NK_NSPOT ? "partner action" : NULL;
            if (name) bl_jw(&w, "%s\"%s\"", f1 ? "" : ",", name);
            else bl_jw(&w, "%s\"EX-%02d\"", f1 ? "" : ",", s->card[p][k - NK_NSPOT - 1] + 1);
            f1 = 0;
        }
        bl_jw(&w, "],\"score\":{\"buildings\":%d,\"helpers\":%d,\"coins\":%d,\"start_card\":%d,"
                  "\"partner_end\":%d,\"construction\":%d,\"cards\":%d,\"tracks\":%d,\"total\":%d}}",
              sc.buildings, sc.helpers, sc.coins, sc.start_card, sc.partner_end, sc.construction, sc.cards,
              sc.tracks, sc.total);
    }
    bl_jw(&w, "],\"scores\":[");
    for (int p = 0; p < P; p++) {
        NkScore sc;
        nk_score(c, s, p, &sc);
        bl_jw(&w, "%s%d", p ? "," : "", sc.total);
    }
    bl_jw(&w, "]}");
    return w.len < cap ? w.len : -1;
}
