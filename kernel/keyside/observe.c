/* Keyside: move notation and the JSON observation (what a seat knows: every
 * die set secretly by another seat stays hidden until the reveal; the gem
 * bag's order is never shown to a seat). */
#include <stdio.h>
#include <string.h>
#include "keyside.h"
#include "../common/jsonw.h"

const char *const KS_COLOUR[KC_N] = {"yellow", "green", "red", "blue", "purple", "orange"};
const char *const KS_GOOD[KG_N] = {"cow", "pig", "sheep", "fish", "stone", "wheat", "wood", "emerald", "ruby", "sapphire"};
const char *const KS_MARKET[8] = {"blue", "green", "orange", "purple", "grey 1", "grey 2", "red", "yellow"};
static const char *const ICON[5] = {"gem", "fish", "wheat", "stone", "wood"};
static const char *const FIELD[3] = {"forest", "quarry", "wheat fields"};
static const char *const HEADLAND[6] = {"wharf", "lighthouse", "rally point", "statue", "support", "beach"};
static const char *const TAKE2[6] = {"stone+stone", "stone+wood", "stone+wheat", "wood+wood", "wood+wheat", "wheat+wheat"};
static const char *const PHASE[] = {"setup", "setup", "setup", "setup", "setup", "setup", "setup", "setup", "setup",
                                    "setup", "setup", "setup", "dice", "play", "over"};
static const char *const TASK[KT_N] = {
    "land", "resolve", "take_or_advance", "follow", "headlands", "keyple_in", "advance", "level", "build",
    "headland", "farm", "move", "market", "trade", "skill_tile", "import_animal", "exchange", "order",
    "final_spend", "start_marker", "recruit", "pay_animal", "benefit", "keytoma_card",
    "keytoma_pirates_and_farms", "keytoma_claims",
    "keytoma_lands", "keytoma_follows", "keytoma_resolves", "keytoma_action", "keytoma_landslide",
    "keytoma_farm", "keytoma_yellow", "keytoma_removes_cottage", "keytoma_removes_skill_tile",
    "keytoma_dice_strip"};

static int loc_name(int l, char *buf) {
    if (l == KS_TOWN) return sprintf(buf, "town");
    if (l < KS_R(0)) return sprintf(buf, "M%d", l - KS_M(0) + 1);
    if (l < KS_H(0)) return sprintf(buf, "R%d", l - KS_R(0) + 1);
    return sprintf(buf, "H%d", l - KS_H(0) + 1);
}

static const char *market_trade(int tile, int side, int k) {
    static const char *const T[4][2] = {{"fish->2 pigs", "pig->2 fish"}, {"wheat->2 sheep", "sheep->2 wheat"},
                                        {"wood->3 stone", "stone->3 wood"}, {"stone->2 gems", "gem->3 stone"}};
    if (tile <= KM_PURPLE) return T[tile][side];
    switch (tile) {
    case KM_GREY1: return "wheat->advance";
    case KM_GREY2: return k == 4 ? "fish->move 2 keyples" : "wood->move 2 keyples";
    case KM_RED: return "recruit a keyple";
    default: return "wheat->build";
    }
}

int ks_action_text(const KsConfig *c, const KsState *s, int32_t a, char *buf, int cap) {
    char t[160], l1[8];
    const KsTask *tk = s->ntask ? &s->task[s->ntask - 1] : NULL;
    int p = tk ? tk->p : 0;
    if (a < KA_DSET && ks_chance_task(s)) {
        int k = a - KA_CH;
        switch (tk->kind) {
        case KT_KLAND: snprintf(t, sizeof t, "Keytoma rolls %d: lands at H%d", k + 1, s->flag_at[k / 2] + 1); break;
        case KT_KFOLLOW: snprintf(t, sizeof t, "Keytoma rolls %d to follow", k + 1); break;
        case KT_KRESOLVE: snprintf(t, sizeof t, "Keytoma rolls %d: resolves from H%d", k + 1, s->flag_at[k / 2] + 1); break;
        case KT_KACTION: snprintf(t, sizeof t, "Keytoma rolls %d: %s action", k + 1, KS_COLOUR[k]); break;
        case KT_KLANDSLIDE: snprintf(t, sizeof t, "Keytoma rolls %d: landslide from H%d", k + 1, s->flag_at[k / 2] + 1); break;
        case KT_KFARM: snprintf(t, sizeof t, "Keytoma rolls %d: %s onto a farm from H%d", k + 1, KS_GOOD[(int)tk->a], s->flag_at[k / 2] + 1); break;
        case KT_KYELLOW: snprintf(t, sizeof t, "Keytoma spares %s cottages", KS_COLOUR[k]); break;
        case KT_KREMOVE: snprintf(t, sizeof t, "Keytoma removes cottage %c", 'A' + k); break;
        case KT_KBLUE: snprintf(t, sizeof t, "Keytoma removes a %s skill tile", KS_COLOUR[k]); break;
        default: snprintf(t, sizeof t, "Keytoma's dice strip %d %s side", k / 2 + 1, k % 2 ? "deep" : "light"); break;
        }
    } else if (a < KA_DSET) {
        int k = a - KA_CH, i = s->setup_i;
        switch (s->phase) {
        case KP_KSTRIPS: snprintf(t, sizeof t, "Keytoma gets dice strip %d", k + 1); break;
        case KP_BEACON: snprintf(t, sizeof t, "beacon %c%d", 'A' + i, k + 1); break;
        case KP_FLAG: snprintf(t, sizeof t, "flag 1-2 at harbour %d", k + 1); break;
        case KP_HTILE: snprintf(t, sizeof t, "harbour tile %c at H%d", 'A' + k, i + 1); break;
        case KP_SCORE: snprintf(t, sizeof t, "scoring tile %d at H%d", k + 1, i + 1); break;
        case KP_SIDE: snprintf(t, sizeof t, "scoring tile at H%d %s side", i + 1, k ? "red" : "black"); break;
        case KP_FIELDS:
            snprintf(t, sizeof t, "forest R%d, quarry R%d, wheat fields R%d", c->triple[k][0] + 1, c->triple[k][1] + 1, c->triple[k][2] + 1);
            break;
        case KP_FARM: {
            int r = 0;
            while (r < KS_NR && s->rl_kind[r] >= 0) r++;
            snprintf(t, sizeof t, "farm %d side %c at R%d", k / 2 + 1, 'a' + k % 2, r + 1);
            break;
        }
        case KP_MARKET: snprintf(t, sizeof t, "market %s %s at M%d", KS_MARKET[k / 2], k % 2 ? "reverse" : "top", i + 1); break;
        case KP_STRIP: snprintf(t, sizeof t, "P%d gets dice strip %d", i, k + 1); break;
        case KP_FIRST: snprintf(t, sizeof t, "P%d gets cottage %c", i, "CFNX"[k]); break;
        default: snprintf(t, sizeof t, "start player P%d", k); break;
        }
    } else if (a < KA_STRIP) {
        int q = (s->start + s->setter) % c->players;
        snprintf(t, sizeof t, "%s = %d", KS_COLOUR[(int)s->pl[q].n_set % KC_N], a - KA_DSET + 1);
    } else if (a < KA_LEAD) {
        snprintf(t, sizeof t, "dice strip %s side", a == KA_STRIP ? "light" : "deep");
    } else if (a < KA_MAT) {
        int x = a - KA_LEAD, h = x % KS_NH, b = (x / KS_NH) % 3, col = x / KS_NH / 3;
        snprintf(t, sizeof t, "lead %s %d: boat H%d -> H%d", KS_COLOUR[col], s->pl[p].die[col], s->boat_at[b] + 1, h + 1);
    } else if (a < KA_FOLLOW) {
        int col = a - KA_MAT;
        snprintf(t, sizeof t, "%s %d to mat", KS_COLOUR[col], s->pl[p].die[col]);
    } else if (a == KA_FOLLOW) {
        int col = s->hcol[(int)tk->a];
        snprintf(t, sizeof t, "follow %s %d", KS_COLOUR[col], s->pl[p].die[col]);
    } else if (a < KA_RESOLVE) {
        int x = a - KA_MOVE, src = x / KS_NLOC, d = x % KS_NLOC, n = 0;
        n += snprintf(t + n, sizeof t - n, "move keyple ");
        int at = src;
        while (at != d) {
            loc_name(at, l1);
            n += snprintf(t + n, sizeof t - n, "%s>", l1);
            int step = -1;
            for (int y = 0; y < KS_NLOC && step < 0; y++)
                if (c->dist[at][y] == 1 && c->dist[y][d] == c->dist[at][d] - 1) step = y;
            at = step;
        }
        loc_name(d, l1);
        snprintf(t + n, sizeof t - n, "%s", l1);
    } else if (a < KA_TAKE2) {
        int h = a - KA_RESOLVE;
        snprintf(t, sizeof t, "resolve H%d (%c)", h + 1, 'A' + s->htile[h]);
    } else if (a < KA_TRACK) {
        snprintf(t, sizeof t, "take %s", TAKE2[a - KA_TAKE2]);
    } else if (a < KA_SIDE) {
        snprintf(t, sizeof t, "advance %s", KS_COLOUR[a - KA_TRACK]);
    } else if (a < KA_BUILD) {
        snprintf(t, sizeof t, "%s %d %s", KS_COLOUR[(int)tk->a], tk->b, a == KA_SIDE ? "left" : "right");
    } else if (a < KA_UPGRADE) {
        int l = a - KA_BUILD;
        snprintf(t, sizeof t, "build cottage %c (%s)", 'A' + l, KS_COLOUR[l / 4]);
    } else if (a < KA_HEAD) {
        snprintf(t, sizeof t, "upgrade %s to house", KS_COLOUR[a - KA_UPGRADE]);
    } else if (a < KA_FARM) {
        int x = a - KA_HEAD, r = x % 2, o = (x / 2) % 2, tl = (x / 4) % 6, sp = x / 24;
        int two = tl == 0 || tl == 1 || tl == 4;
        int n = snprintf(t, sizeof t, "headland %c (%s) H%d|H%d", 'A' + tl, HEADLAND[tl], sp + 1, (sp + 1) % KS_NH + 1);
        if (two) n += snprintf(t + n, sizeof t - n, " facing H%d", (o ? (sp + 1) % KS_NH : sp) + 1);
        snprintf(t + n, sizeof t - n, ", pay %s", r ? "stone" : "wood");
    } else if (a < KA_MARKET) {
        int x = a - KA_FARM, i = x % 4, f = (x / 4) % 5, an = x / 20;
        snprintf(t, sizeof t, "%s -> farm %d icon %d (%s)", KS_GOOD[an], f + 1, i + 1, ICON[(int)c->farm_icon[f][(int)s->farm_side[f]][i]]);
    } else if (a < KA_FLIP) {
        int m = a - KA_MARKET;
        snprintf(t, sizeof t, "activate market M%d (%s)", m + 1, KS_MARKET[(int)s->mk_tile[m]]);
    } else if (a < KA_TRADE) {
        int m = a - KA_FLIP;
        snprintf(t, sizeof t, "pay fish: flip market M%d (%s)", m + 1, KS_MARKET[(int)s->mk_tile[m]]);
    } else if (a < KA_SKILL) {
        int m = tk->a, k = a - KA_TRADE, tile = s->mk_tile[m];
        if (tile == KM_PURPLE && k >= 1 && k <= 3) snprintf(t, sizeof t, "market purple: %s->3 stone", KS_GOOD[KG_GEM0 + k - 1]);
        else snprintf(t, sizeof t, "market %s: %s", KS_MARKET[tile], market_trade(tile, s->mk_side[m], k));
    } else if (a < KA_SPEND) {
        int col = a - KA_SKILL;
        static const int VAL[3] = {5, 3, 1};
        snprintf(t, sizeof t, "skill tile %s %d", KS_COLOUR[col], VAL[3 - s->skill_left[col]]);
    } else if (a < KA_ANIMAL) {
        static const int VAL[3] = {5, 3, 1};
        int x = a - KA_SPEND;
        snprintf(t, sizeof t, "spend skill tile %s %d", KS_COLOUR[x / 3], VAL[x % 3]);
    } else if (a < KA_EXCH) {
        snprintf(t, sizeof t, "import %s", KS_GOOD[a - KA_ANIMAL]);
    } else if (a < KA_ORDER) {
        int x = a - KA_EXCH;
        snprintf(t, sizeof t, "exchange %s -> %s", KS_GOOD[x / 3], KS_GOOD[x % 3]);
    } else if (a < KA_ALLOC) {
        int k = a - KA_ORDER;
        static const char *const W[3] = {"move", "market", "skill tile"};
        if (tk && tk->a == 8) snprintf(t, sizeof t, "I: %s", W[k]);
        else snprintf(t, sizeof t, "%s first", W[k]);
    } else if (a < KA_PASS) {
        snprintf(t, sizeof t, "start player marker as %s", KS_GOOD[a - KA_ALLOC]);
    } else if (a == KA_PASS) {
        snprintf(t, sizeof t, "pass");
    } else if (a < KA_EXCHF) {
        int k = a - KA_RECRUIT + 1;
        snprintf(t, sizeof t, "transfer %d keyple%s to the town", k, k > 1 ? "s" : "");
    } else if (a < KA_PAYFROM) {
        int x = a - KA_EXCHF, b = x % 3, i = (x / 3) % 4, f = x / 12;
        int an = s->farm_animal[f][i];
        snprintf(t, sizeof t, "exchange %s on farm %d icon %d -> %s", an >= 0 ? KS_GOOD[an] : "animal", f + 1, i + 1, KS_GOOD[b]);
    } else {
        int src = a - KA_PAYFROM, an = tk && tk->kind == KT_PAY ? tk->a : 0;
        if (src == 0) snprintf(t, sizeof t, "pay %s from the barn", KS_GOOD[an]);
        else {
            int f = (src - 1) / 4, i = (src - 1) % 4;
            snprintf(t, sizeof t, "pay %s from farm %d icon %d (%s)", KS_GOOD[an], f + 1, i + 1,
                     ICON[(int)c->farm_icon[f][(int)s->farm_side[f]][i]]);
        }
    }
    return snprintf(buf, cap, "%s", t);
}

/* One task as JSON: its kind, whose it is and its parameters by name (keyside.h, "Task kinds"). */
static void task_json(BLJw *w, const KsTask *t) {
    int a = t->a, b = t->b, cc = t->c;
    bl_jw(w, "{\"kind\":\"%s\",\"player\":%d", TASK[(int)t->kind], t->p);
    switch (t->kind) {
    case KT_FOLLOW: case KT_HEADLANDS: case KT_MOVEIN: case KT_KPIRFARM: case KT_KCLAIM: case KT_KYELLOW:
        bl_jw(w, ",\"harbour\":%d", a + 1);
        break;
    case KT_ADVANCE:
        if (a < 0) bl_jw(w, ",\"colour\":\"any\""); else bl_jw(w, ",\"colour\":\"%s\"", KS_COLOUR[a]);
        break;
    case KT_LEVEL: bl_jw(w, ",\"colour\":\"%s\",\"level\":%d", KS_COLOUR[a], b); break;
    case KT_BUILD:
        bl_jw(w, ",\"colours\":[");
        for (int col = 0, first = 1; col < KC_N; col++)
            if (a >> col & 1) { bl_jw(w, "%s\"%s\"", first ? "" : ",", KS_COLOUR[col]); first = 0; }
        bl_jw(w, "],\"wheat_cost\":%d,\"mandatory\":%s", b, cc ? "true" : "false");
        break;
    case KT_HEAD:
        bl_jw(w, ",\"resources\":[%s%s%s],\"cost\":%d,\"fixed_cost\":%s", a & 1 ? "\"wood\"" : "",
              a == 3 ? "," : "", a & 2 ? "\"stone\"" : "", b, cc ? "true" : "false");
        break;
    case KT_FARM: bl_jw(w, ",\"animals_left\":%d", a); break;
    case KT_MOVE: bl_jw(w, ",\"keyples_left\":%d,\"farms_and_fields_only\":%s", a, b ? "true" : "false"); break;
    case KT_TRADE: bl_jw(w, ",\"market\":%d", a + 1); break;
    case KT_EXCH: bl_jw(w, ",\"exchanges_left\":%d", a); break;
    case KT_RECRUIT: bl_jw(w, ",\"keyples_most\":%d", a); break;
    case KT_PAY: bl_jw(w, ",\"animal\":\"%s\"", KS_GOOD[a]); break;
    case KT_ORDER: bl_jw(w, ",\"harbour_tile\":\"%c\"", 'A' + a); break;
    case KT_BENEFIT: bl_jw(w, ",\"harbour\":%d,\"tier\":%d,\"activator\":%s", a + 1, b, cc ? "true" : "false"); break;
    case KT_KEFFECT:
        bl_jw(w, ",\"harbour\":");
        if (a >= 0) bl_jw(w, "%d", a + 1); else bl_jw(w, "null");
        if (b >= 0) bl_jw(w, ",\"colour\":\"%s\"", KS_COLOUR[b]); else bl_jw(w, ",\"colour\":null");
        break;
    case KT_KFOLLOW: bl_jw(w, ",\"harbour\":%d,\"flag\":%s", a + 1, b ? "true" : "false"); break;
    case KT_KFARM: bl_jw(w, ",\"animal\":\"%s\"", KS_GOOD[a]); break;
    case KT_KREMOVE: bl_jw(w, ",\"colour\":\"%s\"", KS_COLOUR[a]); break;
    default: break;
    }
    bl_jw(w, "}");
}

int ks_observe(const KsConfig *c, const KsState *s, int v, char *buf, int cap) {
    BLJw w = {buf, cap, 0};
    int P = c->players, full = v < 0;
    char name[8];
    int cp = s->phase < KP_DICE ? BL_CHANCE : s->phase == KP_OVER ? BL_TERMINAL
           : s->phase == KP_DICE ? (s->start + s->setter) % P : ks_chance_task(s) ? BL_CHANCE : s->task[s->ntask - 1].p;
    bl_jw(&w, "{\"game\":\"keyside\",\"players\":%d,\"viewer\":", P);
    if (full) bl_jw(&w, "null"); else bl_jw(&w, "%d", v);
    bl_jw(&w, ",\"options\":{\"scoring\":\"%s\",\"first_game\":%s,\"dice_strips\":%s}",
          c->scoring == 0 ? "black" : c->scoring == 1 ? "red" : "mixed", c->first_game ? "true" : "false",
          c->dice_strips ? "true" : "false");
    bl_jw(&w, ",\"phase\":\"%s\",\"year\":%d,\"start_player\":%d,\"current_player\":%d,\"turn\":%d,\"end_triggered\":%s",
          PHASE[(int)s->phase], s->year > 3 ? 3 : s->year, s->start, cp, s->turn, s->trigger ? "true" : "false");
    /* Who resolved harbour I this year: the start player of the next year (public). */
    bl_jw(&w, ",\"next_start_player\":");
    if (s->i_resolver >= 0) bl_jw(&w, "%d", s->i_resolver); else bl_jw(&w, "null");
    /* The decision in progress and what the rules will ask next (all public: a player at the
     * table sees how many keyples are still to move, which colours a build may take, ...). */
    bl_jw(&w, ",\"task\":");
    if (s->phase == KP_PLAY && s->ntask) task_json(&w, &s->task[s->ntask - 1]); else bl_jw(&w, "null");
    bl_jw(&w, ",\"pending\":[");
    for (int i = s->phase == KP_PLAY ? s->ntask - 2 : -1; i >= 0; i--) {
        task_json(&w, &s->task[i]);
        if (i) bl_jw(&w, ",");
    }
    bl_jw(&w, "],\"markets_to_flip\":[");
    for (int m = 0, first = 1; m < KS_NM; m++)
        if (s->mk_used >> m & 1) { bl_jw(&w, "%s%d", first ? "" : ",", m + 1); first = 0; }
    bl_jw(&w, "],\"markets_activated\":[");
    for (int q = 0; q < P; q++) {
        bl_jw(&w, "%s[", q ? "," : "");
        for (int m = 0, first = 1; m < KS_NM; m++)
            if (s->mk_act[q] >> m & 1) { bl_jw(&w, "%s%d", first ? "" : ",", m + 1); first = 0; }
        bl_jw(&w, "]");
    }
    bl_jw(&w, "]");
    bl_jw(&w, ",\"harbours\":[");
    for (int h = 0; h < KS_NH; h++) {
        bl_jw(&w, "%s{\"indent\":%d,\"tile\":", h ? "," : "", h + 1);
        if (s->htile[h] >= 0) bl_jw(&w, "\"%c\"", 'A' + s->htile[h]); else bl_jw(&w, "null");
        bl_jw(&w, ",\"score\":");
        if (s->hscore[h] >= 0) bl_jw(&w, "%d", s->hscore[h] + 1); else bl_jw(&w, "null");
        bl_jw(&w, ",\"red\":%s,\"dice_spaces\":%d,\"keyple_spaces\":%d,\"sailor\":", s->hred[h] ? "true" : "false",
              s->htile[h] >= 0 ? c->hdice[(int)s->htile[h]] : 0, s->htile[h] >= 0 ? c->hkeys[(int)s->htile[h]] : 0);
        if (s->sailor[h] >= 0) bl_jw(&w, "\"%s\"", KS_COLOUR[(int)s->sailor[h]]); else bl_jw(&w, "null");
        bl_jw(&w, ",\"colour\":");
        if (s->hcol[h] >= 0 && s->ndice[h] > 0) bl_jw(&w, "\"%s\"", KS_COLOUR[(int)s->hcol[h]]); else bl_jw(&w, "null");
        bl_jw(&w, ",\"resolved\":%s,\"dice\":[", s->resolved[h] ? "true" : "false");
        for (int i = 0; i < s->ndice[h]; i++) bl_jw(&w, "%s[%d,%d]", i ? "," : "", s->dice_p[h][i], s->dice_v[h][i]);
        bl_jw(&w, "],\"keyples\":[");
        for (int q = 0; q < P; q++) bl_jw(&w, "%s%d", q ? "," : "", s->pl[q].kp[KS_H(h)]);
        bl_jw(&w, "]}");
    }
    bl_jw(&w, "],\"red_space\":");
    if (s->red_i >= 0) bl_jw(&w, "%d", s->red_i); else bl_jw(&w, "null");
    bl_jw(&w, ",\"boats\":[");
    for (int b = 0; b < s->nboats; b++) {
        bl_jw(&w, "%s{\"at\":%d,\"sailors\":[", b ? "," : "", s->boat_at[b] + 1);
        int first = 1;
        for (int col = 0; col < KC_N; col++)
            if (s->boat_sailors[b] >> col & 1) { bl_jw(&w, "%s\"%s\"", first ? "" : ",", KS_COLOUR[col]); first = 0; }
        bl_jw(&w, "]}");
    }
    bl_jw(&w, "],\"headlands\":[");
    for (int sp = 0; sp < KS_NH; sp++) {
        if (sp) bl_jw(&w, ",");
        if (s->hl_tile[sp] < 0) { bl_jw(&w, "null"); continue; }
        if (s->hl_tile[sp] == KS_LANDSLIDE) { bl_jw(&w, "{\"owner\":null,\"tile\":\"landslide\",\"faces\":null}"); continue; }
        bl_jw(&w, "{\"owner\":%d,\"tile\":\"%c\",\"faces\":%d}", s->hl_owner[sp], 'A' + s->hl_tile[sp],
              (s->hl_orient[sp] ? (sp + 1) % KS_NH : sp) + 1);
    }
    bl_jw(&w, "],\"markets\":[");
    for (int m = 0; m < KS_NM; m++) {
        if (m) bl_jw(&w, ",");
        if (s->mk_tile[m] < 0) { bl_jw(&w, "null"); continue; }
        bl_jw(&w, "{\"tile\":\"%s\",\"side\":\"%s\",\"trade\":\"%s\",\"keyples\":[", KS_MARKET[(int)s->mk_tile[m]],
              s->mk_side[m] ? "reverse" : "top", market_trade(s->mk_tile[m], s->mk_side[m], 4));
        for (int q = 0; q < P; q++) bl_jw(&w, "%s%d", q ? "," : "", s->pl[q].kp[KS_M(m)]);
        bl_jw(&w, "]}");
    }
    bl_jw(&w, "],\"resource_locations\":[");
    for (int r = 0; r < KS_NR; r++) {
        if (r) bl_jw(&w, ",");
        int k = s->rl_kind[r];
        if (k < 0) { bl_jw(&w, "null"); continue; }
        bl_jw(&w, "{\"owner\":");
        if (s->rl_owner[r] == KS_PIRATE) bl_jw(&w, "\"pirates\"");
        else if (s->rl_owner[r] >= 0) bl_jw(&w, "%d", s->rl_owner[r]); else bl_jw(&w, "null");
        if (k >= KR_FOREST) {
            bl_jw(&w, ",\"kind\":\"%s\",\"tokens\":%d}", FIELD[k - KR_FOREST], s->field_tokens[k - KR_FOREST]);
            continue;
        }
        bl_jw(&w, ",\"kind\":\"farm\",\"farm\":%d,\"side\":\"%c\",\"icons\":[", k + 1, 'a' + s->farm_side[k]);
        for (int i = 0; i < 4; i++) {
            int an = s->farm_animal[k][i];
            bl_jw(&w, "%s{\"resource\":\"%s\",\"animal\":", i ? "," : "", ICON[(int)c->farm_icon[k][(int)s->farm_side[k]][i]]);
            if (an >= 0) bl_jw(&w, "\"%s\"}", KS_GOOD[an]); else bl_jw(&w, "null}");
        }
        bl_jw(&w, "]}");
    }
    bl_jw(&w, "],\"skill_stacks\":{");
    for (int col = 0; col < KC_N; col++) {
        static const char *const LEFT[4] = {"[]", "[1]", "[3,1]", "[5,3,1]"};
        bl_jw(&w, "%s\"%s\":%s", col ? "," : "", KS_COLOUR[col], LEFT[(int)s->skill_left[col]]);
    }
    bl_jw(&w, "},\"cottages_available\":\"");
    for (int l = 0; l < 24; l++) if (s->cottages >> l & 1) bl_jw(&w, "%c", 'A' + l);
    bl_jw(&w, "\",\"gem_bag\":{\"count\":%d", s->bag_n);
    if (full) {
        bl_jw(&w, ",\"order\":[");
        for (int i = s->bag_n - 1; i >= 0; i--) bl_jw(&w, "%s\"%s\"", i == s->bag_n - 1 ? "" : ",", KS_GOOD[KG_GEM0 + s->bag[i]]);
        bl_jw(&w, "]");
    } else {
        int n[3] = {0, 0, 0};
        for (int i = 0; i < s->bag_n; i++) n[(int)s->bag[i]]++;
        bl_jw(&w, ",\"contents\":{\"emerald\":%d,\"ruby\":%d,\"sapphire\":%d}", n[0], n[1], n[2]);
    }
    bl_jw(&w, "},\"scores\":[");
    for (int q = 0; q < P; q++) {
        KsScore sc;
        ks_score(c, s, q, s->alloc_item, &sc);
        bl_jw(&w, "%s%d", q ? "," : "", sc.total);
    }
    bl_jw(&w, "],\"seats\":[");
    for (int q = 0; q < P; q++) {
        const KsPlayer *pl = &s->pl[q];
        bl_jw(&w, "%s{\"mat\":%d,\"town\":%d,\"goods\":{", q ? "," : "", pl->mat, pl->kp[KS_TOWN]);
        for (int g = 0; g < KG_N; g++) bl_jw(&w, "%s\"%s\":%d", g ? "," : "", KS_GOOD[g], pl->goods[g]);
        bl_jw(&w, "},\"keyples\":{");
        int first = 1;
        for (int l = 1; l < KS_NLOC; l++)
            if (pl->kp[l]) { loc_name(l, name); bl_jw(&w, "%s\"%s\":%d", first ? "" : ",", name, pl->kp[l]); first = 0; }
        bl_jw(&w, "},\"tracks\":{");
        for (int col = 0; col < KC_N; col++) bl_jw(&w, "%s\"%s\":%d", col ? "," : "", KS_COLOUR[col], pl->level[col]);
        bl_jw(&w, "},\"skill_tiles\":[");
        first = 1;
        static const int VAL[3] = {5, 3, 1};
        for (int col = 0; col < KC_N; col++)
            for (int t = 0; t < 3; t++)
                for (int k = 0; k < pl->skill[col][t]; k++) { bl_jw(&w, "%s[\"%s\",%d]", first ? "" : ",", KS_COLOUR[col], VAL[t]); first = 0; }
        bl_jw(&w, "],\"buildings\":{");
        first = 1;
        for (int col = 0; col < KC_N; col++)
            if (pl->building[col] >= 0) {
                bl_jw(&w, "%s\"%s\":{\"letter\":\"%c\",\"house\":%s}", first ? "" : ",", KS_COLOUR[col], 'A' + pl->building[col],
                      (pl->house >> col & 1) ? "true" : "false");
                first = 0;
            }
        bl_jw(&w, "},\"headlands_built\":\"");
        for (int t = 0; t < 6; t++) if (pl->hl_built >> t & 1) bl_jw(&w, "%c", 'A' + t);
        bl_jw(&w, "\",\"strip\":");
        if (pl->strip >= 0) bl_jw(&w, "%d", pl->strip + 1); else bl_jw(&w, "null");
        int show = full || q == v || s->revealed;
        /* Another seat's secret setting shows only once done: its steps would tell six values
         * from a dice strip's side (one step), and the strips are public. */
        bl_jw(&w, ",\"dice_set\":%d,\"dice\":{", show || pl->n_set == KC_N ? pl->n_set : 0);
        for (int col = 0; col < KC_N; col++) {
            bl_jw(&w, "%s\"%s\":", col ? "," : "", KS_COLOUR[col]);
            if (show && pl->die[col]) bl_jw(&w, "%d", pl->die[col]); else bl_jw(&w, "null");
        }
        bl_jw(&w, "},\"dice_left\":[");
        first = 1;
        for (int col = 0; col < KC_N; col++)
            if (pl->dice_left >> col & 1) { bl_jw(&w, "%s\"%s\"", first ? "" : ",", KS_COLOUR[col]); first = 0; }
        KsScore sc;
        ks_score(c, s, q, s->alloc_item, &sc);
        bl_jw(&w, "],\"score\":{\"harbours\":[");
        for (int h = 0; h < KS_NH; h++) bl_jw(&w, "%s%d", h ? "," : "", sc.harbour[h]);
        bl_jw(&w, "],\"buildings\":[");
        for (int col = 0; col < KC_N; col++) bl_jw(&w, "%s%d", col ? "," : "", sc.building[col]);
        bl_jw(&w, "],\"gems\":%d,\"statue\":%d,\"support\":%d,\"beach\":%d,\"skill_tiles\":%d,\"fields\":%d,\"total\":%d}}",
              sc.gems, sc.statue, sc.support, sc.beach, sc.skill, sc.fields, sc.total);
    }
    if (c->solo) {
        bl_jw(&w, "],\"keytoma\":{\"dice\":{");
        for (int col = 0; col < KC_N; col++) {
            bl_jw(&w, "%s\"%s\":", col ? "," : "", KS_COLOUR[col]);
            if (s->kt_die[col]) bl_jw(&w, "%d", s->kt_die[col]); else bl_jw(&w, "null");
        }
        bl_jw(&w, "},\"dice_left\":[");
        int first = 1;
        for (int col = 0; col < KC_N; col++)
            if (s->kt_left >> col & 1) { bl_jw(&w, "%s\"%s\"", first ? "" : ",", KS_COLOUR[col]); first = 0; }
        bl_jw(&w, "],\"supply\":%d,\"keyples\":[", s->kt_supply);
        for (int h = 0; h < KS_NH; h++) bl_jw(&w, "%s%d", h ? "," : "", s->kt_kp[h]);
        bl_jw(&w, "],\"strips_left\":[");
        first = 1;
        for (int k = 0; k < 4; k++) if (s->kt_strips >> k & 1) { bl_jw(&w, "%s%d", first ? "" : ",", k + 1); first = 0; }
        bl_jw(&w, "]},\"pirates\":[");
        for (int h = 0; h < KS_NH; h++) bl_jw(&w, "%s%d", h ? "," : "", s->pir[h]);
        bl_jw(&w, "],\"flags\":[");
        for (int f = 0; f < 3; f++) {   /* null until the set-up roll places them */
            if (s->flag_at[f] >= 0) bl_jw(&w, "%s%d", f ? "," : "", s->flag_at[f] + 1);
            else bl_jw(&w, "%snull", f ? "," : "");
        }
        int lit = s->beacon[0] >= 0 ? ks_beacons(c, s, s->alloc_item) : 0;
        bl_jw(&w, "],\"beacons\":[");
        for (int b = 0; b < 3; b++) {
            if (s->beacon[b] >= 0) bl_jw(&w, "%s{\"beacon\":\"%c%d\",\"lit\":%s}", b ? "," : "", 'A' + b, s->beacon[b] + 1, (lit >> b & 1) ? "true" : "false");
            else bl_jw(&w, "%snull", b ? "," : "");
        }
        bl_jw(&w, "],\"won\":%s", s->phase == KP_OVER ? (ks_solo_won(c, s) ? "true" : "false") : "null");
        bl_jw(&w, ",\"start_marker_item\":");
    } else bl_jw(&w, "],\"start_marker_item\":");
    if (s->alloc_item >= 0) bl_jw(&w, "\"%s\"", KS_GOOD[(int)s->alloc_item]); else bl_jw(&w, "null");
    bl_jw(&w, "}");
    return w.len < cap ? w.len : -1;
}
