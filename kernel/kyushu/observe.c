/* Kyushu: move notation, the JSON observation (what a seat knows: its own
 * hand, every map as it was before the others' unrevealed Map turns, the pool
 * as its own turn left it) and determinization (the unseen cards dealt again,
 * the others' hidden Map turns replaced by random legal placements). */
#include <stdio.h>
#include <string.h>
#include "kyushu.h"
#include "../common/bitboard.h"
#include "../common/jsonw.h"

#define CFG(g) ((const KyuConfig *)(g)->config)
#define ST(p) ((KyuState *)(p))
#define CST(p) ((const KyuState *)(p))

const char *const KY_COLOUR_NAME[KC_N] = {"blue", "brown", "grey", "purple"};
const char *const KY_TER_NAME[KT_N] = {"none", "lake", "forest", "town", "hot_spring", "fallow",
                                           "production", "production", "production", "production",
                                           "factory", "factory", "factory", "factory"};
const char *const KY_ORIENT_NAME[4] = {"horizontal", "vertical", "horizontal turned", "vertical turned"};
const char *const KY_LAYER_NAME[2] = {"over", "under"};

static int cell_name(int cell, char *buf) {
    int r = cell / KY_N, col = cell % KY_N, n = 0;
    if (col >= 26) buf[n++] = 'a';
    buf[n++] = (char)('a' + col % 26);
    return n + sprintf(buf + n, "%d", r + 1);
}

/* True when seat p's map has changes that `viewer` must not see yet. */
static inline int hidden_from(const KyuState *s, int p, int viewer) {
    return viewer >= 0 && viewer != p && s->in_map && s->undo_n[p] > 0;
}

/* ---------- text ---------- */

static const char *box_name(const KyuConfig *c, int b, int p, char *buf) {
    if (b == p) return "own box";
    if (b >= c->players) return b == 2 ? "middle box left of P0" : "middle box right of P0";
    sprintf(buf, "P%d's box", b);
    return buf;
}

int kyushu_action_to_string(const BLGame *g, const void *vst, int32_t a, char *buf, int cap) {
    const KyuConfig *c = CFG(g);
    const KyuState *s = CST(vst);
    int p = s->to_move;
    char cn[8], bn[24];
    switch (s->phase) {
    case KP_OFFER:
        return snprintf(buf, cap, "offer province %d%c", a - KA_OFFER + 1, c->side ? 'B' : 'A');
    case KP_MF: {
        int k = (a - KA_MF) >> 1, side = (a - KA_MF) & 1, i = s->steps;
        return snprintf(buf, cap, "scoring card %d %s between P%d and P%d", k + 1, side ? "fewest" : "most",
                        i, (i + 1) % c->players);
    }
    case KP_DEAL:
        if (s->deal_kind == 1 || s->deal_kind == 3)
            return snprintf(buf, cap, "middle %d %s", a - KA_DEAL + 1, s->deal_left == 2 ? "right" : "left");
        return snprintf(buf, cap, "deal %d to P%d", a - KA_DEAL + 1, s->deal_to);
    case KP_PROVINCE:
        return snprintf(buf, cap, "province %d%c", a - KA_PROVINCE + 1, c->side ? 'B' : 'A');
    case KP_FIRST_BOX:
        return snprintf(buf, cap, "pick box %d", a - KA_CARD + 1);
    case KP_SELECT:
        if (a >= KA_PAID) {
            int b = a - KA_PAID;
            return snprintf(buf, cap, "pay to take %d from %s", s->box[b] + 1, box_name(c, b, p, bn));
        } else {
            int b = a - KA_BOX;
            return snprintf(buf, cap, "take %d from %s", s->box[b] + 1,
                            b == p ? "own box" : b == left_box(c, p) ? "left box" : "right box");
        }
    case KP_PAY: case KP_TF_RES1: case KP_TF_RES2: {
        int cell = a - KA_CELL;
        cell_name(cell, cn);
        int k = cell_res(&s->map[p], cell / KY_N, cell % KY_N);
        return snprintf(buf, cap, "%s %s at %s", s->phase == KP_PAY ? "pay" : "discard",
                        k >= 0 ? KY_COLOUR_NAME[k] : "?", cn);
    }
    case KP_REPLACE:
        return snprintf(buf, cap, "replace with %d", a - KA_CARD + 1);
    case KP_MAP: case KP_MAP_AFTER:
        if (a == KA_TERRAFORM) return snprintf(buf, cap, "terraform");
        if (a == KA_END) return snprintf(buf, cap, "end turn");
        return snprintf(buf, cap, "orient %d %s %s", s->selected[p] + 1, KY_ORIENT_NAME[(a - KA_ORIENT) >> 1],
                        KY_LAYER_NAME[(a - KA_ORIENT) & 1]);
    case KP_POS:
        cell_name(a - KA_CELL, cn);
        return snprintf(buf, cap, "place %d %s at %s %s", s->selected[p] + 1, KY_ORIENT_NAME[(int)s->pend_orient], cn,
                        KY_LAYER_NAME[(int)s->pend_layer]);
    case KP_TF_COLOUR: {
        int k = a - KA_COLOUR;
        return snprintf(buf, cap, "choose %s (%s tile)", KY_COLOUR_NAME[k], KY_TER_NAME[TILE_OF[k]]);
    }
    case KP_TF_FALLOW:
        cell_name(a - KA_CELL, cn);
        return snprintf(buf, cap, "%s tile at %s", KY_TER_NAME[(int)s->pend_tile], cn);
    case KP_TRAV_RES: {
        int h = trav_host(c, p, s->trav_side);
        if (a == KA_END) return snprintf(buf, cap, "no traveler to P%d", h);
        int cell = a - KA_CELL;
        cell_name(cell, cn);
        int k = cell_res(&s->map[p], cell / KY_N, cell % KY_N);
        return snprintf(buf, cap, "traveler to P%d with %s from %s", h, k >= 0 ? KY_COLOUR_NAME[k] : "?", cn);
    }
    case KP_TRAV_SPRING:
        cell_name(a - KA_CELL, cn);
        return snprintf(buf, cap, "traveler on P%d's hot spring at %s", trav_host(c, p, s->trav_side), cn);
    default:
        return snprintf(buf, cap, "action %d", a);
    }
}

/* ---------- observation ---------- */

static void jw_card(BLJw *w, const KyuConfig *c, int card) {
    if (card < 0) bl_jw(w, "null");
    else if (card < KY_NCARDS) bl_jw(w, "%d", card + 1);
    else bl_jw(w, "\"S%d%c\"", card - KY_NCARDS + 1, c->side ? 'B' : 'A');
}

static void jw_cards(BLJw *w, uint64_t set) {
    bl_jw(w, "[");
    int first = 1;
    for (uint64_t x = set; x; first = 0) bl_jw(w, "%s%d", first ? "" : ",", bb_pop_lsb64(&x) + 1);
    bl_jw(w, "]");
}

static const char *const PHASE_NAME[] = {"offer", "most_fewest", "deal", "province", "first_box", "select",
                                         "pay", "replace", "map", "position", "terraform_resource_1",
                                         "terraform_resource_2", "terraform_colour", "terraform_fallow",
                                         "map_after", "traveler_resource", "traveler_spring", "over"};

static void jw_map(BLJw *w, const KyuConfig *c, const KyuMap *m) {
    bl_jw(w, "\"bbox\":");
    if (m->bottom < 0) bl_jw(w, "null");
    else bl_jw(w, "{\"top\":%d,\"left\":%d,\"bottom\":%d,\"right\":%d}", m->top, m->left, m->bottom, m->right);
    bl_jw(w, ",\"cards\":[");
    for (int i = 0; i < m->n_cards; i++) {
        const KyuPlaced *pl = &m->placed[i];
        bl_jw(w, "%s{\"card\":", i ? "," : "");
        jw_card(w, c, pl->card);
        bl_jw(w, ",\"orientation\":\"%s\",\"row\":%d,\"col\":%d,\"height\":%d,\"z\":%d,\"width\":%d}",
           KY_ORIENT_NAME[(int)pl->orient], pl->row, pl->col, OH[(int)pl->orient], pl->z, OW[(int)pl->orient]);
    }
    bl_jw(w, "],\"cells\":[");
    int first = 1;
    for (int r = m->top; r <= m->bottom; r++)
        for (uint32_t x = m->occ[r]; x;) {
            int col = bb_pop_lsb32(&x);
            uint32_t code = kyu_get_code(m, r, col);
            int t = code & 15, fvc = code >> 4 & 3, res = (int)(code >> 8 & 7) - 1;
            char cn[8];
            cell_name(r * KY_N + col, cn);
            bl_jw(w, "%s{\"row\":%d,\"col\":%d,\"name\":\"%s\",\"terrain\":\"%s\",\"colour\":", first ? "" : ",",
               r, col, cn, KY_TER_NAME[t]);
            first = 0;
            if (is_prod(t) || is_fact(t)) bl_jw(w, "\"%s\"", KY_COLOUR_NAME[(t - KT_PROD) % KC_N]); else bl_jw(w, "null");
            bl_jw(w, ",\"factory_value\":");
            if (is_fact(t)) bl_jw(w, "%d", fvc + 2); else bl_jw(w, "null");
            bl_jw(w, ",\"resource\":");
            if (res >= 0) bl_jw(w, "\"%s\"", KY_COLOUR_NAME[res]); else bl_jw(w, "null");
            bl_jw(w, ",\"tile\":%s,\"traveler\":%s", (code >> 7 & 1) ? "true" : "false", (code >> 11 & 1) ? "true" : "false");
            /* The card on top here, and which of its printed squares shows. */
            int best = -1, bz = -1000, bsq = -1;
            for (int i = 0; i < m->n_cards; i++) {
                const KyuPlaced *pl = &m->placed[i];
                int di = r - pl->row, dj = col - pl->col;
                if (di < 0 || dj < 0 || di >= OH[(int)pl->orient] || dj >= OW[(int)pl->orient] || pl->z <= bz) continue;
                for (int sq = 0; sq < 6; sq++) {
                    int ii, jj;
                    orient_cell(pl->orient, sq, &ii, &jj);
                    if (ii == di && jj == dj) { best = i; bz = pl->z; bsq = sq; }
                }
            }
            bl_jw(w, ",\"card\":");
            jw_card(w, c, best >= 0 ? m->placed[best].card : -1);
            bl_jw(w, ",\"square\":");
            if (bsq >= 0) bl_jw(w, "%d}", bsq); else bl_jw(w, "null}");
        }
    bl_jw(w, "]");
}

static void jw_score(BLJw *w, const KyuScore *x) {
    bl_jw(w, "{\"hot_springs\":%d,\"forests\":%d,\"towns\":%d,\"lakes\":%d,\"factories\":%d,\"travelers\":%d,"
          "\"most_fewest\":%d,\"total\":%d,\"fallows\":%d,\"most_metrics\":[",
       x->springs, x->forests, x->towns, x->lakes, x->factories, x->travelers, x->most_fewest, x->total, x->fallows);
    for (int k = 0; k < KY_NMF; k++) bl_jw(w, "%s%d", k ? "," : "", x->metric[0][k]);
    bl_jw(w, "],\"fewest_metrics\":[");
    for (int k = 0; k < KY_NMF; k++) bl_jw(w, "%s%d", k ? "," : "", x->metric[1][k]);
    bl_jw(w, "]}");
}

int kyushu_observe_json(const BLGame *g, const void *vst, int v, char *buf, int cap) {
    const KyuConfig *c = CFG(g);
    const KyuState *s = CST(vst);
    BLJw w = {buf, cap, 0};
    int P = c->players, full = v < 0;
    int cp = kyushu_current_player(g, vst);
    /* The maps this viewer sees: others' unrevealed Map turns undone. */
    KyuMap view[KY_MAXP];
    const KyuMap *maps[KY_MAXP];
    real_maps(s, maps);
    int any_hidden = 0;
    for (int p = 0; p < P; p++)
        if (hidden_from(s, p, v)) {
            memcpy(&view[p], &s->map[p], sizeof view[p]);
            kyu_revert_map(s, p, &view[p]);
            maps[p] = &view[p];
            any_hidden = 1;
        }
    int in_turn_phase = s->phase >= KP_MAP && s->phase <= KP_MAP_AFTER;
    const char *phase = PHASE_NAME[(int)s->phase];
    if (!full && in_turn_phase && v != s->to_move) phase = "map";   /* others' steps are private */
    bl_jw(&w, "{\"game\":\"kyushu\",\"players\":%d,\"viewer\":", P);
    if (full) bl_jw(&w, "null"); else bl_jw(&w, "%d", v);
    bl_jw(&w, ",\"options\":{\"side\":\"%c\",\"most_fewest\":%s,\"travelers\":%s}", c->side ? 'B' : 'A',
       c->most_fewest ? "true" : "false", c->travelers ? "true" : "false");
    bl_jw(&w, ",\"phase\":\"%s\",\"current_player\":%d,\"round\":%d,\"first_player\":0", phase, cp, s->round);
    int pool[KC_N];
    for (int k = 0; k < KC_N; k++)
        pool[k] = !s->in_map ? s->pool[k] : full ? kyu_settled_pool(c, s, k) : pool_avail(s, v, k);
    bl_jw(&w, ",\"pool\":{\"blue\":%d,\"brown\":%d,\"grey\":%d,\"purple\":%d}", pool[0], pool[1], pool[2], pool[3]);
    /* In a hidden Map phase the onlooker sees resources claimed twice (a seat's
     * own view never overdraws): maps + pool - overdrawn = 56. */
    int over[KC_N];
    for (int k = 0; k < KC_N; k++) over[k] = full && s->in_map ? kyu_overdrawn(c, s, k) : 0;
    bl_jw(&w, ",\"overdrawn\":{\"blue\":%d,\"brown\":%d,\"grey\":%d,\"purple\":%d}", over[0], over[1], over[2],
          over[3]);
    bl_jw(&w, ",\"draw_pile_size\":%d,\"draw_pile\":", bb_popcount64(s->pile));
    if (full) jw_cards(&w, s->pile); else bl_jw(&w, "null");
    bl_jw(&w, ",\"discarded\":");
    jw_cards(&w, s->discarded);
    bl_jw(&w, ",\"hand_sizes\":[");
    for (int p = 0; p < P; p++) bl_jw(&w, "%s%d", p ? "," : "", bb_popcount64(s->hand[p]));
    bl_jw(&w, "],\"hands\":[");
    for (int p = 0; p < P; p++) {
        if (p) bl_jw(&w, ",");
        if (full || p == v) jw_cards(&w, s->hand[p]); else bl_jw(&w, "null");
    }
    bl_jw(&w, "],\"pick_boxes\":[");
    for (int b = 0; b < c->boxes; b++) {
        bl_jw(&w, "%s{\"box\":%d,\"owner\":", b ? "," : "", b);
        if (b < P) bl_jw(&w, "%d,\"label\":\"P%d\"", b, b);
        else bl_jw(&w, "null,\"label\":\"%s\"", b == 2 ? "left of P0" : "right of P0");
        bl_jw(&w, ",\"card\":");
        jw_card(&w, c, s->box[b]);
        bl_jw(&w, "}");
    }
    bl_jw(&w, "],\"selected\":[");
    for (int p = 0; p < P; p++) { if (p) bl_jw(&w, ","); jw_card(&w, c, s->selected[p]); }
    /* A take in progress is public: the card has left its box. */
    bl_jw(&w, "],\"taking\":");
    if ((s->phase == KP_PAY || s->phase == KP_REPLACE) && s->pend_box >= 0) {
        static const char *const OPTION[4] = {"own", "left", "right", "paid"};
        bl_jw(&w, "{\"seat\":%d,\"box\":%d,\"card\":", s->to_move, s->pend_box);
        jw_card(&w, c, s->box[(int)s->pend_box]);
        bl_jw(&w, ",\"option\":\"%s\"}", OPTION[(int)s->pend_kind]);
    } else {
        bl_jw(&w, "null");
    }
    bl_jw(&w, ",\"provinces_offered\":[");
    int first = 1;
    for (int k = 0; k < KY_NPROV; k++)
        if (s->offered >> k & 1) {
            bl_jw(&w, "%s{\"province\":", first ? "" : ",");
            jw_card(&w, c, KY_NCARDS + k);
            bl_jw(&w, ",\"squares\":[");
            for (int sq = 0; sq < 6; sq++) {
                int t = c->ter[KY_NCARDS + k][sq];
                bl_jw(&w, "%s\"%s%s%s\"", sq ? "," : "", KY_TER_NAME[t], (is_prod(t) || is_fact(t)) ? ":" : "",
                   (is_prod(t) || is_fact(t)) ? KY_COLOUR_NAME[(t - KT_PROD) % KC_N] : "");
            }
            bl_jw(&w, "]}");
            first = 0;
        }
    bl_jw(&w, "],\"most_fewest\":[");
    first = 1;
    for (int i = 0; i < P; i++)
        if (s->mf_card[i] >= 0) {
            bl_jw(&w, "%s{\"card\":%d,\"side\":\"%s\",\"seats\":[%d,%d]}", first ? "" : ",", s->mf_card[i] + 1,
               s->mf_side[i] ? "fewest" : "most", i, (i + 1) % P);
            first = 0;
        }
    bl_jw(&w, "],\"travelers\":{\"held\":[");
    for (int p = 0; p < P; p++) bl_jw(&w, "%s%d", p ? "," : "", s->trav_left[p]);
    bl_jw(&w, "],\"placed\":[");
    for (int i = 0; i < s->n_trav; i++) {
        const KyuTraveler *t = &s->trav[i];
        int r = t->cell / KY_N, col = t->cell % KY_N;
        const KyuMap *h = maps[(int)t->host];
        char cn[8];
        cell_name(t->cell, cn);
        bl_jw(&w, "%s{\"owner\":%d,\"host\":%d,\"row\":%d,\"col\":%d,\"name\":\"%s\",\"active\":%s}", i ? "," : "",
           t->owner, t->host, r, col, cn, getbit(h->trav, r, col) ? "true" : "false");
    }
    /* The traveler being sent (a public step): to whom, and with which resource. */
    bl_jw(&w, "],\"sending\":");
    if (s->phase == KP_TRAV_RES || s->phase == KP_TRAV_SPRING) {
        bl_jw(&w, "{\"seat\":%d,\"host\":%d,\"from\":", s->to_move, trav_host(c, s->to_move, s->trav_side));
        if (s->phase == KP_TRAV_SPRING) {
            char cn[8];
            cell_name(s->trav_res, cn);
            int k = cell_res(&s->map[(int)s->to_move], s->trav_res / KY_N, s->trav_res % KY_N);
            bl_jw(&w, "\"%s\",\"colour\":\"%s\"}", cn, KY_COLOUR_NAME[k]);
        } else {
            bl_jw(&w, "null,\"colour\":null}");
        }
    } else {
        bl_jw(&w, "null");
    }
    bl_jw(&w, "},\"maps\":[");
    for (int p = 0; p < P; p++) {
        bl_jw(&w, "%s{\"seat\":%d,\"province\":", p ? "," : "", p);
        jw_card(&w, c, s->province[p] >= 0 ? KY_NCARDS + s->province[p] : -1);
        bl_jw(&w, ",");
        jw_map(&w, c, maps[p]);
        bl_jw(&w, "}");
    }
    KyuScore sc[KY_MAXP];
    kyu_score_all(c, s, maps, sc);
    bl_jw(&w, "],\"scores\":[");
    for (int p = 0; p < P; p++) { if (p) bl_jw(&w, ","); jw_score(&w, &sc[p]); }
    bl_jw(&w, "],\"unrevealed\":%s", s->in_map ? "true" : "false");
    (void)any_hidden;
    /* This seat's own Map turn and pending decision. */
    bl_jw(&w, ",\"my_turn\":");
    if (cp >= 0 && (full || v == cp)) {
        char cn[8] = "";
        if (s->pend_res1 >= 0) cell_name(s->pend_res1, cn);
        bl_jw(&w, "{\"seat\":%d,\"placed\":%s,\"terraformed\":%s,\"box\":%d,\"option\":%d,\"orientation\":%s%s%s,"
              "\"layer\":%s%s%s,\"discarded\":\"%s\"",
           cp, (s->placed_now >> cp & 1) ? "true" : "false", (s->tf_used >> cp & 1) ? "true" : "false",
           s->pend_box, s->pend_kind, s->pend_orient >= 0 ? "\"" : "",
           s->pend_orient >= 0 ? KY_ORIENT_NAME[(int)s->pend_orient] : "null", s->pend_orient >= 0 ? "\"" : "",
           s->pend_layer >= 0 ? "\"" : "", s->pend_layer >= 0 ? KY_LAYER_NAME[(int)s->pend_layer] : "null",
           s->pend_layer >= 0 ? "\"" : "", cn);
        /* Terraforming under way: the colours discarded so far and the tile chosen. */
        bl_jw(&w, ",\"discarded_colours\":[");
        for (int i = 0, n = 0; i < 2; i++)
            if (s->pend_col[i] >= 0) bl_jw(&w, "%s\"%s\"", n++ ? "," : "", KY_COLOUR_NAME[(int)s->pend_col[i]]);
        bl_jw(&w, "],\"tile\":");
        if (s->pend_tile >= 0) bl_jw(&w, "\"%s\"}", KY_TER_NAME[(int)s->pend_tile]); else bl_jw(&w, "null}");
    } else {
        bl_jw(&w, "null");
    }
    bl_jw(&w, "}");
    return w.len < cap ? w.len : -1;
}

/* ---------- determinization ---------- */

/* Undo seat p's Map turn so far, leaving no trace of it in the state. */
static void forget_map_turn(KyuState *s, int p) {
    kyu_revert_map(s, p, &s->map[p]);
    memset(s->undo[p], 0, sizeof s->undo[p]);
    s->undo_n[p] = 0;
    memset(s->delta[p], 0, sizeof s->delta[p]);
    s->placed_now &= (uint8_t)~(1u << p);
    s->tf_used &= (uint8_t)~(1u << p);
}

/* A random legal placement of seat p's selected card (used to resample the
 * hidden Map turns of others). A seat that finished its turn had a legal
 * placement on its map as it was before the turn (terraforming never adds
 * one), so there is one unless it was skipped, which is public. */
void kyu_random_placement(const KyuConfig *c, KyuState *s, int p, BLRng *r) {
    int mask = kyu_orient_options(c, s, p);
    if (!mask) return;
    int k = (int)bl_rng_below(r, (uint32_t)bb_popcount32((uint32_t)mask));
    uint32_t mm = (uint32_t)mask;
    while (k-- > 0) mm &= mm - 1;
    int ol = bb_lsb32(mm);
    uint32_t pos[KY_N];
    int n = kyu_positions(c, &s->map[p], s->selected[p], ol >> 1, ol & 1, pos);
    int j = (int)bl_rng_below(r, (uint32_t)n);
    for (int row = 0; row < KY_N; row++) {
        int cnt = bb_popcount32(pos[row]);
        if (j >= cnt) { j -= cnt; continue; }
        uint32_t x = pos[row];
        while (j-- > 0) x &= x - 1;
        kyu_place_card(c, s, p, s->selected[p], ol >> 1, row, bb_lsb32(x), ol & 1, 1);
        s->placed_now |= (uint8_t)(1u << p);
        return;
    }
}

/* Never fails: every hand constraint is met by the unseen cards (docs/kyushu.md). */
int kyushu_determinize(const BLGame *g, void *vst, int o, BLRng *r) {
    const KyuConfig *c = CFG(g);
    KyuState *s = ST(vst);
    int P = c->players;
    /* 1. Cards o has not seen: other hands and the draw pile, reshuffled. */
    uint64_t unknown = s->pile;
    for (int p = 0; p < P; p++)
        if (p != o) unknown |= s->hand[p];
    int8_t ids[KY_NCARDS];
    int n = 0;
    for (uint64_t x = unknown; x;) ids[n++] = (int8_t)bb_pop_lsb64(&x);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)bl_rng_below(r, (uint32_t)(i + 1));
        int8_t t = ids[i]; ids[i] = ids[j]; ids[j] = t;
    }
    /* A seat choosing the replacement after taking from its left (right)
     * box has shown that it holds a higher (lower) card: give it one first. */
    int needy = -1, need_card = -1;
    if (s->phase == KP_REPLACE && s->to_move != o && (s->pend_kind == 1 || s->pend_kind == 2)) {
        int taken = s->box[(int)s->pend_box];
        for (int i = 0; i < n; i++) {   /* the first fitting card of the shuffle */
            int id = ids[i];
            if ((s->pend_kind == 1 && id > taken) || (s->pend_kind == 2 && id < taken)) {
                needy = s->to_move; need_card = id;
                ids[i] = ids[0]; ids[0] = (int8_t)id;
                break;
            }
        }
    }
    int at = 0;
    if (needy >= 0) at = 1;
    for (int p = 0; p < P; p++) {
        if (p == o) continue;
        int k = bb_popcount64(s->hand[p]);
        s->hand[p] = 0;
        if (p == needy) { s->hand[p] = 1ull << need_card; k--; }
        while (k-- > 0) s->hand[p] |= 1ull << ids[at++];
    }
    s->pile = 0;
    while (at < n) s->pile |= 1ull << ids[at++];
    /* 2. Map turns o has not seen (every seat before the mover has finished
     * its turn, the mover is in the middle of its own): the card is known,
     * where and how it went is not. Finished turns are replaced by a random
     * legal placement of the same card without terraforming; the mover's
     * turn starts again. Which seats these are is public (seat order), so the
     * sample depends on o's view and r only. */
    if (s->in_map && s->phase >= KP_MAP && s->phase <= KP_MAP_AFTER) {
        int mover = s->to_move;
        for (int p = 0; p <= mover; p++) {
            if (p == o) continue;
            forget_map_turn(s, p);
            if (p < mover) kyu_random_placement(c, s, p, r);
        }
        if (mover != o) {
            s->phase = KP_MAP;
            s->pend_orient = s->pend_layer = -1;
            s->pend_res1 = -1;
            s->pend_col[0] = s->pend_col[1] = s->pend_tile = -1;
        }
    }
    bl_rng_seed(&s->rng, bl_rng_next(r));
    return 0;
}
