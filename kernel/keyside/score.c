/* Keyside: end-game scoring, row by row as the score pad (harbour scoring
 * tiles 1-12 black or red, buildings, gems, headlands D/E/F, skill tiles,
 * forest/quarry/wheat fields). */
#include <string.h>
#include "keyside.h"

static inline int mn(int a, int b) { return a < b ? a : b; }
static inline int mx(int a, int b) { return a > b ? a : b; }

typedef struct {
    int g[KG_N];            /* stores + animals in owned farms (+ start player marker item) */
    int farm[3];            /* animals in owned farms by type */
    int gems, gem_types, mat, in_markets, on_resources, on_harbours, on_island;
    int cottages, houses, headlands, skill_colours, skill_value;
} Facts;

static void facts(const KsState *s, int p, int players, int alloc, Facts *f) {
    const KsPlayer *pl = &s->pl[p];
    memset(f, 0, sizeof *f);
    for (int k = 0; k < KG_N; k++) f->g[k] = pl->goods[k];
    for (int a = 0; a < 3; a++) { f->farm[a] = ks_animals(s, p, a, 1); f->g[a] += f->farm[a]; }
    if (alloc >= 0 && p == s->start) f->g[alloc]++;
    for (int k = 0; k < 3; k++) { f->gems += f->g[KG_GEM0 + k]; f->gem_types += f->g[KG_GEM0 + k] > 0; }
    f->mat = pl->mat;
    for (int m = 0; m < KS_NM; m++) f->in_markets += pl->kp[KS_M(m)];
    for (int r = 0; r < KS_NR; r++) f->on_resources += pl->kp[KS_R(r)];
    for (int h = 0; h < KS_NH; h++) f->on_harbours += pl->kp[KS_H(h)];
    f->on_harbours += s->red_i == p;
    f->on_island = f->on_harbours + f->in_markets + f->on_resources + pl->kp[KS_TOWN];
    for (int c = 0; c < KC_N; c++)
        if (pl->building[c] >= 0) { if (pl->house >> c & 1) f->houses++; else f->cottages++; }
    for (int t = 0; t < 6; t++) f->headlands += pl->hl_built >> t & 1;
    static const int VAL[3] = {5, 3, 1};
    for (int c = 0; c < KC_N; c++) {
        int any = 0;
        for (int t = 0; t < 3; t++) { any += pl->skill[c][t]; f->skill_value += VAL[t] * pl->skill[c][t]; }
        f->skill_colours += any > 0;
    }
    (void)players;
}

/* Points per keyple of scoring tile `num` (0-based), red side or black. */
static int tile_value(const Facts *f, int num, int red) {
    const int *g = f->g;
    if (!red) switch (num) {
        case 0: return mn(12, g[KG_SHEEP] / 3 * 4);
        case 1: return mn(12, g[KG_PIG] / 2 * 3);
        case 2: return mn(8, g[KG_COW] * 2);
        case 3: return mn(12, g[KG_WHEAT]);
        case 4: return mn(12, g[KG_FISH] / 2 * 3);
        case 5: return mn(12, f->gems);
        case 6: return mn(12, (g[KG_STONE] + g[KG_WOOD]) / 2);
        case 7: return mx(0, 6 - 2 * ((f->mat + 1) / 2));
        case 8: return mx(0, 2 * f->headlands - 4);
        case 9: return mn(12, f->farm[0] + f->farm[1] + f->farm[2]);
        case 10: return f->cottages + 2 * f->houses;
        case 11: return mx(0, 2 * f->skill_colours - 4);
    }
    switch (num) {
    case 0: return mn(12, f->farm[KG_SHEEP]);
    case 1: return mn(12, 2 * f->farm[KG_PIG]);
    case 2: return mn(12, 3 * f->farm[KG_COW]);
    case 3: {
        static const int KINDS[6] = {KG_COW, KG_SHEEP, KG_PIG, KG_STONE, KG_WOOD, KG_WHEAT};
        int n = 0;
        for (int k = 0; k < 6; k++) n += g[KINDS[k]] > 0;
        return 2 * n;
    }
    case 4: return mn(12, 2 * mn(g[KG_SHEEP], g[KG_FISH]));
    case 5: return mn(12, 2 * mn(f->gems, g[KG_STONE]));
    case 6: return mn(12, 3 * mn(g[KG_STONE], mn(g[KG_WHEAT], g[KG_WOOD])));
    case 7: return f->on_harbours <= 10 ? 10 : f->on_harbours <= 12 ? 6 : f->on_harbours <= 14 ? 2 : 0;
    case 8: return mn(12, 3 * f->in_markets);
    case 9: return mn(12, 3 * f->on_resources);
    case 10: return mn(12, 3 * f->houses);
    case 11: return mn(12, f->skill_value / 2);
    }
    return 0;
}

static int building_points(const Facts *f, const KsPlayer *pl, int letter, int house) {
    const int *g = f->g;
    int k;
    switch (letter) {
    case 0: case 4: case 8: case 12: case 16: case 20: return house ? 4 : 2;
    case 1: k = g[KG_WHEAT] / 2; return k * (house ? 2 : 1);
    case 2: k = f->cottages + f->houses; return k * (house ? 2 : 1);
    case 3: return f->houses * (house ? 3 : 1);
    case 5: return mn(g[KG_PIG], g[KG_SHEEP]) * (house ? 2 : 1);
    case 6: return mn(g[KG_COW], g[KG_PIG]) * (house ? 3 : 2);
    case 7: return mn(g[KG_COW], mn(g[KG_PIG], g[KG_SHEEP])) * (house ? 5 : 3);
    case 9: return f->in_markets * (house ? 4 : 2);
    case 10: return f->on_island / 6 * (house ? 2 : 1);
    case 11: return (pl->hl_built >> 2 & 1) ? (house ? 6 : 3) : 0;
    case 13: return g[KG_FISH] / 2 * (house ? 2 : 1);
    case 14: return (pl->hl_built >> 0 & 1) ? (house ? 6 : 3) : 0;
    case 15: return (pl->hl_built >> 1 & 1) ? (house ? 6 : 3) : 0;
    case 17: return f->gem_types * (house ? 2 : 1);
    case 18: return mn(g[KG_GEM0], mn(g[KG_GEM1], g[KG_GEM2])) * (house ? 4 : 2);
    case 19: return (KC_N - f->cottages - f->houses) * (house ? 3 : 1);
    case 21: return g[KG_WOOD] / 2 * (house ? 2 : 1);
    case 22: return g[KG_STONE] / 2 * (house ? 2 : 1);
    case 23: return f->headlands * (house ? 2 : 1);
    }
    return 0;
}

void ks_score(const KsConfig *c, const KsState *s, int p, int alloc, KsScore *out) {
    const KsPlayer *pl = &s->pl[p];
    Facts f;
    facts(s, p, c->players, alloc, &f);
    memset(out, 0, sizeof *out);
    int keyples[KS_NH];
    for (int h = 0; h < KS_NH; h++) {
        keyples[h] = pl->kp[KS_H(h)] + (s->red_i == p && s->htile[h] == 8);
        if (s->hscore[h] < 0) continue;
        out->per_keyple[(int)s->hscore[h]] = tile_value(&f, s->hscore[h], s->hred[h]);
        out->harbour[(int)s->hscore[h]] = keyples[h] * out->per_keyple[(int)s->hscore[h]];
    }
    for (int col = 0; col < KC_N; col++)
        if (pl->building[col] >= 0) out->building[col] = building_points(&f, pl, pl->building[col], pl->house >> col & 1);
    int lv = pl->level[KC_PURPLE];
    int gk[3] = {f.g[KG_GEM0], f.g[KG_GEM1], f.g[KG_GEM2]};
    for (int i = 0; i < 2; i++)   /* sort descending */
        for (int j = 0; j < 2 - i; j++)
            if (gk[j] < gk[j + 1]) { int t = gk[j]; gk[j] = gk[j + 1]; gk[j + 1] = t; }
    out->gems = lv >= 3 ? gk[0] + gk[1] + gk[2] : lv == 2 ? gk[0] + gk[1] : lv == 1 ? gk[0] : 0;
    for (int sp = 0; sp < KS_NH; sp++) {
        if (s->hl_owner[sp] != p) continue;
        int a = sp, b = (sp + 1) % KS_NH;
        switch (s->hl_tile[sp]) {
        case 3: out->statue += 8; break;
        case 4: {   /* Support: one more keyple on the harbour it faces */
            int h = s->hl_orient[sp] ? b : a;
            if (s->hscore[h] >= 0) out->support += tile_value(&f, s->hscore[h], s->hred[h]);
            break;
        }
        case 5: out->beach += 2 * (keyples[a] + keyples[b]); break;
        }
    }
    out->skill = f.skill_value;
    for (int k = KR_FOREST; k <= KR_WHEATF; k++) out->fields += 3 * ks_owns_field(s, k, p);
    int t = out->gems + out->statue + out->support + out->beach + out->skill + out->fields;
    for (int h = 0; h < KS_NH; h++) t += out->harbour[h];
    for (int col = 0; col < KC_N; col++) t += out->building[col];
    out->total = t;
}

/* Solo: the beacons drawn (A, B, C piles) lit at the end, bit i for pile i. */
int ks_beacons(const KsConfig *c, const KsState *s, int alloc) {
    const KsPlayer *pl = &s->pl[0];
    Facts f;
    facts(s, 0, c->players, alloc, &f);
    KsScore sc;
    ks_score(c, s, 0, alloc, &sc);
    int lit = 0;
    for (int pile = 0; pile < 3; pile++) {
        int k = s->beacon[pile], ok = 0;
        if (k < 0) continue;
        if (pile == 0) {
            int run = 0, best = 0, full = 1;
            for (int i = 0; i < 2 * KS_NH; i++) {   /* twice round: rows wrap */
                if (s->hl_owner[i % KS_NH] == 0) { run++; if (run > best) best = run; } else { run = 0; full = 0; }
            }
            int nine = 0, three = 0, farms = 0;
            for (int h = 0; h < KS_NH; h++) {
                int n = pl->kp[KS_H(h)] + (s->red_i == 0 && s->htile[h] == 8);
                nine += n > 0; three += n >= 3;
            }
            for (int r = 0; r < KS_NR; r++) farms += s->rl_kind[r] >= 0 && s->rl_kind[r] < KS_NFARM && s->rl_owner[r] == 0;
            switch (k) {
            case 0: ok = best >= 3 || full; break;
            case 1: ok = ((pl->hl_built & 1) + (pl->hl_built >> 1 & 1) + (pl->hl_built >> 2 & 1)) >= 2; break;
            case 2: ok = sc.beach >= 12; break;
            case 3: ok = three >= 3; break;
            case 4: ok = farms >= 3; break;
            case 5: ok = nine >= 9; break;
            }
        } else if (pile == 1) {
            int same_colour = 0, per_value[3] = {0, 0, 0}, lv4 = 0, one_gem = 0;
            for (int col = 0; col < KC_N; col++) {
                int n = pl->skill[col][0] + pl->skill[col][1] + pl->skill[col][2];
                if (n >= 3) same_colour = 1;
                for (int t = 0; t < 3; t++) per_value[t] += pl->skill[col][t];
                lv4 += pl->level[col] >= 4;
            }
            for (int g = 0; g < 3; g++) if (f.g[KG_GEM0 + g] >= 4) one_gem = 1;
            switch (k) {
            case 0: ok = same_colour; break;
            case 1: ok = per_value[0] >= 4 || per_value[1] >= 4 || per_value[2] >= 4; break;
            case 2: ok = f.g[KG_FISH] >= 10; break;
            case 3: ok = lv4 >= 3; break;
            case 4: ok = one_gem; break;
            case 5: ok = f.gems >= 9; break;
            }
        } else {
            /* Harbour rows only (headlands E and F excluded), by scoring tile number. */
            static const int PAIR[6][2] = {{0, 0}, {8, 9}, {1, 2}, {4, 10}, {3, 11}, {7, 12}};
            if (k == 0) {
                /* C1 "the 12-point multiplier condition": a keyple there scores 12, on every
                 * tile alike; a tile whose most is below 12 can never count (docs/keyside.md). */
                int full = 0;
                for (int h = 0; h < KS_NH; h++) {
                    int n = pl->kp[KS_H(h)] + (s->red_i == 0 && s->htile[h] == 8);
                    full += n > 0 && tile_value(&f, s->hscore[h], s->hred[h]) >= 12;
                }
                ok = full >= 2;
            } else {
                int pts = 0;
                for (int h = 0; h < KS_NH; h++)
                    if (s->hscore[h] + 1 == PAIR[k][0] || s->hscore[h] + 1 == PAIR[k][1]) pts += sc.harbour[(int)s->hscore[h]];
                ok = pts >= 35;
            }
        }
        lit |= ok << pile;
    }
    return lit;
}

int ks_solo_won(const KsConfig *c, const KsState *s) {
    KsScore sc;
    ks_score(c, s, 0, s->alloc_item, &sc);
    int lit = ks_beacons(c, s, s->alloc_item);
    int n = (lit & 1) + (lit >> 1 & 1) + (lit >> 2 & 1);
    return sc.total >= 120 && n >= ((c->solo_opts & 1) ? 3 : 2);
}
