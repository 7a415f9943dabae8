/* Keyside: the turn flow (secret dice, landing, resolving, end of years and
 * game), legal actions and their effects. Every multi-step effect is a task on
 * the state's stack; the task on top is the pending decision. */
#include <string.h>
#include "keyside.h"

static const int TIER3[3][3] = {{2, 1, 3}, {2, 4, 3}, {1, 2, 1}};   /* gains / D,F costs / H cost */
/* Skill-tile colour of each market tile (grey: none). */
static const int MARKET_COLOUR[8] = {KC_BLUE, KC_GREEN, KC_ORANGE, KC_PURPLE, -1, -1, KC_RED, KC_YELLOW};
/* Levels with a left/right choice, bit l per colour. */
static const uint8_t SIDED[KC_N] = {0x0e, 0x0c, 0x0e, 0x0c, 0x00, 0x02};
/* Stand-in base cost of a headland built from orange levels 2-3 (docs/keyside.md). */
#define KS_TRACK_HEAD_COST 3

/* ---------- small helpers ---------- */

/* Colours (bit per colour) whose skill tiles seat p may take: a keyple of
 * p's stands in a market of that colour. */
int ks_skill_markets(const KsState *s, int p) {
    int mask = 0;
    for (int m = 0; m < KS_NM; m++) {
        int col = MARKET_COLOUR[(int)s->mk_tile[m]];
        if (col >= 0 && s->pl[p].kp[KS_M(m)] > 0) mask |= 1 << col;
    }
    return mask;
}

static inline int nxt(const KsConfig *c, int p) { return (p + 1) % c->seats; }

static void push(KsState *s, int kind, int p, int a, int b, int cc) {
    if (s->ntask >= KS_MAXTASK) return;   /* unreachable: the deepest nesting is about 15 tasks */
    KsTask *t = &s->task[(int)s->ntask++];
    t->kind = (int8_t)kind; t->p = (int8_t)p; t->a = (int8_t)a; t->b = (int8_t)b; t->c = (int8_t)cc;
}

static inline int hcount(const KsConfig *c, const KsState *s, int h) {
    int n = s->kt_kp[h] + s->pir[h];   /* Keytoma's keyples and pirates (solo) */
    for (int q = 0; q < c->players; q++) n += s->pl[q].kp[KS_H(h)];
    return n;
}
static inline int hfree(const KsConfig *c, const KsState *s, int h) {
    return c->hkeys[(int)s->htile[h]] - hcount(c, s, h);
}

int ks_harbour_loc_of_tile(const KsState *s, int letter) {
    for (int h = 0; h < KS_NH; h++) if (s->htile[h] == letter) return h;
    return -1;
}

static int field_loc(const KsState *s, int kind) {
    for (int r = 0; r < KS_NR; r++) if (s->rl_kind[r] == kind) return r;
    return -1;
}

int ks_owns_field(const KsState *s, int kind, int p) {
    int r = field_loc(s, kind);
    return r >= 0 && s->rl_owner[r] == p;
}

static int farm_loc(const KsState *s, int f) { return field_loc(s, f); }

/* Animals of type a that p has: barn plus farms p owns (or farms only). */
int ks_animals(const KsState *s, int p, int a, int farms_only) {
    int n = farms_only ? 0 : s->pl[p].goods[a];
    for (int f = 0; f < KS_NFARM; f++) {
        int r = farm_loc(s, f);
        if (r < 0 || s->rl_owner[r] != p) continue;
        for (int i = 0; i < 4; i++) n += s->farm_animal[f][i] == a;
    }
    return n;
}

/* Where p can give up an animal a (rulebook, markets: "if an animal, from a farm you
 * control"): KA_PAYFROM + 0 the barn, + 1 + f*4 + i an icon of a farm p owns. */
static int animal_sources(const KsState *s, int p, int a, int32_t *out) {
    int n = 0;
    if (s->pl[p].goods[a] > 0) out[n++] = KA_PAYFROM;
    for (int f = 0; f < KS_NFARM; f++) {
        int r = farm_loc(s, f);
        if (r < 0 || s->rl_owner[r] != p) continue;
        for (int i = 0; i < 4; i++)
            if (s->farm_animal[f][i] == a) out[n++] = KA_PAYFROM + 1 + f * 4 + i;
    }
    return n;
}

static void take_animal_from(KsState *s, int p, int a, int src) {
    if (src == 0) s->pl[p].goods[a]--;
    else s->farm_animal[(src - 1) / 4][(src - 1) % 4] = -1;   /* the icon can be used again */
}

/* A market takes one animal a: where from is p's decision (a farm's animal scores for
 * black 10 and red 1-3, the barn's does not; a freed icon yields again), unless only
 * one place holds one. */
static void pay_animal(KsState *s, int p, int a) {
    int32_t src[1 + KS_NFARM * 4];
    if (animal_sources(s, p, a, src) == 1) take_animal_from(s, p, a, src[0] - KA_PAYFROM);
    else push(s, KT_PAY, p, a, 0, 0);
}

/* Stone, wheat and wood come from the quarry, wheat fields and forest while
 * they last; the empty tile flips to its keyple side. */
static void gain(KsState *s, int p, int g, int n) {
    int k = g == KG_WOOD ? 0 : g == KG_STONE ? 1 : g == KG_WHEAT ? 2 : -1;
    if (k >= 0) {
        int take = n < s->field_tokens[k] ? n : s->field_tokens[k];
        s->field_tokens[k] = (int8_t)(s->field_tokens[k] - take);
    }
    s->pl[p].goods[g] = (int8_t)(s->pl[p].goods[g] + n > 120 ? 120 : s->pl[p].goods[g] + n);
}

static void draw_gems(KsState *s, int p, int n) {
    while (n-- > 0 && s->bag_n > 0) s->pl[p].goods[KG_GEM0 + s->bag[(int)--s->bag_n]]++;
}

static void recruit(KsState *s, int p, int n) {
    if (n > s->pl[p].mat) n = s->pl[p].mat;
    s->pl[p].mat = (int8_t)(s->pl[p].mat - n);
    s->pl[p].kp[KS_TOWN] = (int8_t)(s->pl[p].kp[KS_TOWN] + n);
}

/* p has a keyple in harbour h (the red space of harbour I included). */
static int in_harbour(const KsState *s, int p, int h) {
    return s->pl[p].kp[KS_H(h)] > 0 || (s->red_i == p && s->htile[h] == 8);
}

/* A harbour with dice (and so, except for Keytoma's landings, a sailor) not yet resolved. */
static int resolvable(const KsState *s, int h) { return s->ndice[h] > 0 && !s->resolved[h]; }

/* Can keyple of p enter location d (footprint: farms/fields only)? */
static int can_enter(const KsConfig *c, const KsState *s, int p, int d, int foot) {
    if (d >= KS_R(0) && d < KS_R(KS_NR)) {
        int r = d - KS_R(0), kind = s->rl_kind[r];
        if (s->rl_owner[r] >= 0) return 0;
        return kind < KS_NFARM || s->field_tokens[kind - KR_FOREST] == 0;
    }
    if (foot) return 0;
    if (d == KS_TOWN) return 1;
    if (d < KS_R(0)) return s->pl[p].kp[d] == 0;     /* market: one own keyple */
    return hfree(c, s, d - KS_H(0)) > 0;
}

static int build_possible(const KsState *s, int p, int mask);

static int anytime(const KsConfig *c, const KsState *s, int p, int32_t *out, int flips) {
    int n = 0;
    (void)c;
    for (int col = 0; col < KC_N; col++)
        for (int t = 0; t < 3; t++)
            if (s->pl[p].skill[col][t] > 0) out[n++] = KA_SPEND + col * 3 + t;
    if (flips && s->pl[p].goods[KG_FISH] > 0)
        for (int m = 0; m < KS_NM; m++)
            if (s->mk_tile[m] <= KM_PURPLE) out[n++] = KA_FLIP + m;
    return n;
}

static int boat_dest_ok(const KsState *s, int h) {
    if (s->sailor[h] >= 0 || s->ndice[h] > 0 || s->resolved[h]) return 0;
    for (int b = 0; b < s->nboats; b++) if (s->boat_at[b] == h) return 0;
    return 1;
}

static int moves(const KsConfig *c, const KsState *s, int p, int only_dst, int foot, int32_t *out) {
    int n = 0;
    for (int src = 0; src < KS_NLOC; src++) {
        if (s->pl[p].kp[src] <= 0) continue;
        for (int d = 0; d < KS_NLOC; d++) {
            if (d == src || c->dist[src][d] > 3) continue;
            if (only_dst >= 0 && d != only_dst) continue;
            if (can_enter(c, s, p, d, foot)) out[n++] = KA_MOVE + src * KS_NLOC + d;
        }
    }
    return n;
}

static int build_possible(const KsState *s, int p, int mask) {
    const KsPlayer *pl = &s->pl[p];
    for (int col = 0; col < KC_N; col++) {
        if (!(mask >> col & 1)) continue;
        if (pl->building[col] >= 0) { if (!(pl->house >> col & 1)) return 1; }
        else if ((s->cottages >> (col * 4)) & 15) return 1;
    }
    return 0;
}

static int head_cost(const KsState *s, int p, int base, int fixed) {
    if (fixed) return 1;
    int lv = s->pl[p].level[KC_ORANGE], d = lv >= 3 ? 2 : lv >= 2 ? 1 : 0;
    return base - d < 1 ? 1 : base - d;
}

static int market_options(const KsConfig *c, const KsState *s, int p, int m, int32_t *out) {
    const KsPlayer *pl = &s->pl[p];
    int n = 0, side = s->mk_side[m];
    switch (s->mk_tile[m]) {
    case KM_BLUE: if (side ? ks_animals(s, p, KG_PIG, 0) > 0 : pl->goods[KG_FISH] > 0) out[n++] = KA_TRADE; break;
    case KM_GREEN: if (side ? ks_animals(s, p, KG_SHEEP, 0) > 0 : pl->goods[KG_WHEAT] > 0) out[n++] = KA_TRADE; break;
    case KM_ORANGE: if (pl->goods[side ? KG_STONE : KG_WOOD] > 0) out[n++] = KA_TRADE; break;
    case KM_PURPLE:
        if (!side) { if (pl->goods[KG_STONE] > 0) out[n++] = KA_TRADE; }
        else for (int g = 0; g < 3; g++) if (pl->goods[KG_GEM0 + g] > 0) out[n++] = KA_TRADE + 1 + g;
        break;
    case KM_GREY1: if (pl->goods[KG_WHEAT] > 0) out[n++] = KA_TRADE; break;
    case KM_GREY2:
        if (pl->goods[KG_FISH] > 0) out[n++] = KA_TRADE + 4;
        if (pl->goods[KG_WOOD] > 0) out[n++] = KA_TRADE + 5;
        break;
    case KM_RED: if (pl->mat > 0) out[n++] = KA_TRADE; break;
    case KM_YELLOW: if (pl->goods[KG_WHEAT] > 0 && build_possible(s, p, 0x3f)) out[n++] = KA_TRADE; break;
    }
    (void)c;
    return n;
}

/* ---------- legal actions ---------- */

static int sort_actions(int32_t *out, int n) {
    for (int i = 1; i < n; i++) {   /* insertion sort: lists are short and nearly sorted */
        int32_t x = out[i]; int j = i - 1;
        while (j >= 0 && out[j] > x) { out[j + 1] = out[j]; j--; }
        out[j + 1] = x;
    }
    return n;
}

static int task_legal(const KsConfig *c, const KsState *s, const KsTask *t, int32_t *out) {
    int p = t->p, n = 0;
    const KsPlayer *pl = &s->pl[p];
    switch (t->kind) {
    case KT_LAND:
        for (int col = 0; col < KC_N; col++) {
            if (!(pl->dice_left >> col & 1)) continue;
            int v = pl->die[col];
            for (int b = 0; b < s->nboats; b++) {
                if (!(s->boat_sailors[b] >> col & 1)) continue;
                int at = s->boat_at[b];
                for (int h = 0; h < KS_NH; h++) {
                    int d = (h - at + KS_NH) % KS_NH;
                    if (d > KS_NH / 2) d = KS_NH - d;
                    if (d >= 1 && d <= v && boat_dest_ok(s, h)) out[n++] = KA_LEAD + (col * 3 + b) * KS_NH + h;
                }
            }
        }
        for (int col = 0; col < KC_N; col++) if (pl->dice_left >> col & 1) out[n++] = KA_MAT + col;
        n += anytime(c, s, p, out + n, 1);
        break;
    case KT_RESOLVE:
        for (int h = 0; h < KS_NH; h++) if (resolvable(s, h) && in_harbour(s, p, h)) out[n++] = KA_RESOLVE + h;
        n += anytime(c, s, p, out + n, 1);
        break;
    case KT_ALT:
        for (int k = 0; k < 6; k++) out[n++] = KA_TAKE2 + k;
        for (int col = 0; col < KC_N; col++) out[n++] = KA_TRACK + col;
        n += anytime(c, s, p, out + n, 1);
        break;
    case KT_FOLLOW: {
        int h = t->a, col = s->hcol[h];
        if ((pl->dice_left >> col & 1) && pl->die[col] <= s->dice_v[h][0] && s->ndice[h] < c->hdice[(int)s->htile[h]])
            out[n++] = KA_FOLLOW;
        out[n++] = KA_PASS;
        break;
    }
    case KT_MOVEIN: {
        int h = t->a, followed = 0;
        for (int i = 0; i < s->ndice[h]; i++) followed |= s->dice_p[h][i] == p;
        if (followed && hfree(c, s, h) > 0) n = moves(c, s, p, KS_H(h), 0, out);
        out[n++] = KA_PASS;
        break;
    }
    case KT_ADVANCE:
        for (int col = 0; col < KC_N; col++) out[n++] = KA_TRACK + col;
        break;
    case KT_LEVEL:
        out[n++] = KA_SIDE; out[n++] = KA_SIDE + 1; out[n++] = KA_PASS;
        break;
    case KT_BUILD:
        if (pl->goods[KG_WHEAT] >= t->b) {
            for (int col = 0; col < KC_N; col++) {
                if (!(t->a >> col & 1)) continue;
                if (pl->building[col] < 0) {
                    for (int k = 0; k < 4; k++) if (s->cottages >> (col * 4 + k) & 1) out[n++] = KA_BUILD + col * 4 + k;
                }
            }
            for (int col = 0; col < KC_N; col++)
                if ((t->a >> col & 1) && pl->building[col] >= 0 && !(pl->house >> col & 1)) out[n++] = KA_UPGRADE + col;
        }
        if (!t->c) out[n++] = KA_PASS;
        break;
    case KT_HEAD: {
        int cost = head_cost(s, p, t->b, t->c);
        for (int sp = 0; sp < KS_NH; sp++) {
            if (s->hl_tile[sp] >= 0 && s->hl_owner[sp] != p) continue;
            for (int tl = 0; tl < 6; tl++) {
                if (pl->hl_built >> tl & 1) continue;
                int no = (tl == 0 || tl == 1 || tl == 4) ? 2 : 1;
                for (int o = 0; o < no; o++)
                    for (int r = 0; r < 2; r++)
                        if ((t->a >> r & 1) && pl->goods[r ? KG_STONE : KG_WOOD] >= cost)
                            out[n++] = KA_HEAD + ((sp * 6 + tl) * 2 + o) * 2 + r;
            }
        }
        out[n++] = KA_PASS;
        break;
    }
    case KT_FARM:
        for (int a = 0; a < 3; a++) {
            if (pl->goods[a] <= 0) continue;
            for (int f = 0; f < KS_NFARM; f++)
                for (int i = 0; i < 4; i++)
                    if (s->farm_animal[f][i] < 0) out[n++] = KA_FARM + (a * 5 + f) * 4 + i;
        }
        out[n++] = KA_PASS;
        break;
    case KT_MOVE:
        n = moves(c, s, p, -1, t->b, out);
        out[n++] = KA_PASS;
        break;
    case KT_MARKET:
        for (int m = 0; m < KS_NM; m++) if (pl->kp[KS_M(m)] > 0 && !(s->mk_act[p] >> m & 1)) out[n++] = KA_MARKET + m;
        out[n++] = KA_PASS;
        break;
    case KT_TRADE:
        n = market_options(c, s, p, t->a, out);
        n += anytime(c, s, p, out + n, 1) ;
        /* only the flips are anytime actions here (skill tiles are spent on the main decision) */
        { int k = 0; for (int i = 0; i < n; i++) if (out[i] < KA_SPEND || out[i] >= KA_SPEND + 18) out[k++] = out[i]; n = k; }
        out[n++] = KA_PASS;
        break;
    case KT_SKILL:
        { int mk = ks_skill_markets(s, p);
          for (int col = 0; col < KC_N; col++) if (s->skill_left[col] > 0 && mk >> col & 1) out[n++] = KA_SKILL + col; }
        out[n++] = KA_PASS;
        break;
    case KT_ANIMAL:
        for (int a = 0; a < 3; a++) out[n++] = KA_ANIMAL + a;
        out[n++] = KA_PASS;
        break;
    case KT_EXCH:   /* "in a farm you control or in your barn ... placed in the same location" */
        for (int a = 0; a < 3; a++)
            if (pl->goods[a] > 0)
                for (int b = 0; b < 3; b++) if (a != b) out[n++] = KA_EXCH + a * 3 + b;
        for (int f = 0; f < KS_NFARM; f++) {
            int r = farm_loc(s, f);
            if (r < 0 || s->rl_owner[r] != p) continue;
            for (int i = 0; i < 4; i++)
                if (s->farm_animal[f][i] >= 0)
                    for (int b = 0; b < 3; b++)
                        if (b != s->farm_animal[f][i]) out[n++] = KA_EXCHF + (f * 4 + i) * 3 + b;
        }
        out[n++] = KA_PASS;
        break;
    case KT_RECRUIT:   /* "transfer up to 2 keyples": how many */
        for (int k = 1; k <= t->a && k <= pl->mat; k++) out[n++] = KA_RECRUIT + k - 1;
        out[n++] = KA_PASS;
        break;
    case KT_PAY: n = animal_sources(s, p, t->a, out); break;
    case KT_ORDER:
        if (t->a == 8) { out[n++] = KA_ORDER; out[n++] = KA_ORDER + 1; out[n++] = KA_ORDER + 2; }
        else if (t->a == 9) { out[n++] = KA_ORDER; out[n++] = KA_ORDER + 1; }
        else { out[n++] = KA_ORDER; out[n++] = KA_ORDER + 2; }
        out[n++] = KA_PASS;
        break;
    case KT_FINAL:
        n = anytime(c, s, p, out, 0);
        out[n++] = KA_PASS;
        break;
    case KT_ALLOC:
        for (int g = 0; g < KG_N; g++) out[n++] = KA_ALLOC + g;
        break;
    default: break;
    }
    return sort_actions(out, n);
}

int ks_current(const KsState *s) {
    if (s->phase < KP_DICE) return BL_CHANCE;
    if (s->phase == KP_OVER) return BL_TERMINAL;
    if (s->phase == KP_DICE) return -3;   /* resolved by the caller with the config */
    if (ks_chance_task(s)) return BL_CHANCE;
    return s->ntask ? s->task[s->ntask - 1].p : BL_TERMINAL;
}

int ks_legal(const KsConfig *c, const KsState *s, int32_t *out) {
    if (s->phase == KP_OVER) return 0;
    if (s->phase < KP_DICE) return ks_setup_outcomes(c, s, out, NULL);
    if (s->phase == KP_DICE) {
        int p = (s->start + s->setter) % c->players, n = 0;
        const KsPlayer *pl = &s->pl[p];
        int used = 0;
        for (int col = 0; col < pl->n_set; col++) used |= 1 << (pl->die[col] - 1);
        for (int v = 0; v < 6; v++) if (!(used >> v & 1)) out[n++] = KA_DSET + v;
        if (pl->n_set == 0 && (c->dice_strips || c->solo) && pl->strip >= 0) { out[n++] = KA_STRIP; out[n++] = KA_STRIP + 1; }
        return n;
    }
    if (!s->ntask) return 0;
    if (ks_chance_task(s)) return ks_task_outcomes(c, s, out);
    return task_legal(c, s, &s->task[s->ntask - 1], out);
}

/* ---------- effects ---------- */

static void level_effect(const KsConfig *c, KsState *s, int p, int col, int lv, int side);
static void kt_effect(const KsConfig *c, KsState *s, int h, int col);
static int farm_animals(const KsState *s, int f);
static void benefit(const KsConfig *c, KsState *s, int q, int h, int letter, int tier, int activator);

/* Automatic tasks run here; a decision with nothing to choose but pass is skipped. */
static int auto_task(const KsConfig *c, KsState *s) {
    KsTask t = s->task[s->ntask - 1];
    switch (t.kind) {
    case KT_HEADLANDS: {
        s->ntask--;
        int h = t.a;
        int sps[2] = {(h + KS_NH - 1) % KS_NH, h};
        /* Pushed in reverse so the anticlockwise headland acts first. */
        for (int k = 1; k >= 0; k--) {
            int sp = sps[k], tl = s->hl_tile[sp], o = s->hl_owner[sp];
            if (tl < 0) continue;
            int side = h == sp ? 0 : 1;   /* which end of the space the boat docked at */
            if (tl == 0) gain(s, o, KG_FISH, side == s->hl_orient[sp] ? 2 : 1);
            else if (tl == 1) push(s, side == s->hl_orient[sp] ? KT_MARKET : KT_SKILL, o, 0, 0, 0);
            else if (tl == 2) recruit(s, o, 1);
        }
        return 1;
    }
    case KT_ADVANCE:
        if (t.a < 0) return 0;
        s->ntask--;
        {
            KsPlayer *pl = &s->pl[(int)t.p];
            if (pl->level[(int)t.a] < 4) pl->level[(int)t.a]++;
            push(s, KT_LEVEL, t.p, t.a, pl->level[(int)t.a], 0);
        }
        return 1;
    case KT_BENEFIT:
        s->ntask--;
        benefit(c, s, t.p, t.a, s->htile[(int)t.a], t.b, t.c);
        return 1;
    case KT_KEFFECT: s->ntask--; kt_effect(c, s, t.a, t.b); return 1;
    case KT_KPIRFARM: {
        s->ntask--;
        for (int r = 0; r < KS_NR; r++) {
            int f = s->rl_kind[r];
            if (f >= 0 && f < KS_NFARM && s->rl_owner[r] < 0 && farm_animals(s, f) >= 2) { s->rl_owner[r] = KS_PIRATE; return 1; }
        }
        if (t.a >= 0 && hfree(c, s, t.a) > 0) s->pir[(int)t.a]++;
        push(s, KT_KFARM, 0, KG_PIG, 0, 0);
        return 1;
    }
    case KT_KCLAIM: {
        s->ntask--;
        int claimed = 0;
        for (int r = 0; r < KS_NR; r++) {
            int k = s->rl_kind[r];
            if (k >= KR_FOREST && s->rl_owner[r] < 0 && s->field_tokens[k - KR_FOREST] == 0) { s->rl_owner[r] = KS_PIRATE; claimed++; }
        }
        if (!claimed)
            for (int r = 0; r < KS_NR; r++) {
                int f = s->rl_kind[r];
                if (f >= 0 && f < KS_NFARM && s->rl_owner[r] < 0 && farm_animals(s, f) >= 2) s->rl_owner[r] = KS_PIRATE;
            }
        return 1;
    }
    case KT_LEVEL:
        if (SIDED[(int)t.a] >> t.b & 1) return 0;
        s->ntask--;
        level_effect(c, s, t.p, t.a, t.b, 0);
        return 1;
    default: break;
    }
    int32_t buf[512];
    if (t.kind >= KT_KLAND) {   /* a chance task: skipped only when nothing can be drawn */
        if (ks_task_outcomes(c, s, buf) == 0) { s->ntask--; return 1; }
        return 0;
    }
    int n = task_legal(c, s, &t, buf);
    if (n == 0 || (n == 1 && buf[0] == KA_PASS)) { s->ntask--; return 1; }
    return 0;
}

static void build_colour4(KsState *s, int p, int col) {
    KsPlayer *pl = &s->pl[p];
    if (pl->building[col] >= 0) { pl->house |= (uint8_t)(1u << col); return; }
    if ((s->cottages >> (col * 4)) & 15) push(s, KT_BUILD, p, 1 << col, 0, 1);
}

/* Level lv of track col reached (side: 0 left, 1 right for sided levels). */
static void level_effect(const KsConfig *c, KsState *s, int p, int col, int lv, int side) {
    (void)c;
    if (lv == 4) {
        /* Pushed second so the coloured building comes first. */
        switch (col) {
        case KC_YELLOW: push(s, KT_BUILD, p, 0x3f, 1, 0); break;
        case KC_GREEN: push(s, KT_EXCH, p, 2, 0, 0); break;
        case KC_RED: push(s, KT_MOVE, p, 2, 0, 0); break;
        case KC_BLUE: push(s, KT_SKILL, p, 0, 0, 0); break;
        case KC_PURPLE: push(s, KT_MARKET, p, 0, 0, 0); break;
        case KC_ORANGE: push(s, KT_HEAD, p, 3, 1, 1); break;
        }
        build_colour4(s, p, col);
        return;
    }
    switch (col) {
    case KC_YELLOW:
        if (side) push(s, KT_ADVANCE, p, -1, 0, 0);
        else if (lv == 1) gain(s, p, KG_WHEAT, 2);
        else push(s, KT_BUILD, p, 0x3f, 1, 0);
        break;
    case KC_GREEN:
        if (lv == 1) gain(s, p, KG_SHEEP, 2);
        else if (!side) push(s, KT_ANIMAL, p, 0, 0, 0);
        else { push(s, KT_MOVE, p, 1, 1, 0); push(s, KT_FARM, p, 2, 0, 0); }
        break;
    case KC_RED:
        if (!side) push(s, KT_RECRUIT, p, 2, 0, 0);
        else push(s, KT_MOVE, p, 2, 0, 0);
        break;
    case KC_BLUE:
        if (lv == 1) gain(s, p, KG_FISH, 1);
        else if (!side) gain(s, p, KG_FISH, lv == 2 ? 1 : 2);
        else push(s, lv == 2 ? KT_MARKET : KT_SKILL, p, 0, 0, 0);
        break;
    case KC_PURPLE: draw_gems(s, p, lv); break;
    case KC_ORANGE:
        if (lv == 1) gain(s, p, side ? KG_WOOD : KG_STONE, 1);
        else push(s, KT_HEAD, p, 3, KS_TRACK_HEAD_COST, 0);
        break;
    }
}

/* Harbour benefit of tile `letter` at `tier` for player q. */
static void benefit(const KsConfig *c, KsState *s, int q, int h, int letter, int tier, int activator) {
    static const int GOOD[3] = {KG_COW, KG_SHEEP, KG_PIG};
    switch (letter) {
    case 0: gain(s, q, GOOD[tier], 2); break;
    case 1: push(s, KT_MOVE, q, 1, 1, 0); push(s, KT_FARM, q, TIER3[0][tier], 0, 0); break;
    case 2: gain(s, q, KG_WOOD, TIER3[0][tier] * (ks_owns_field(s, KR_FOREST, q) ? 2 : 1)); break;
    case 3: push(s, KT_HEAD, q, 1, TIER3[1][tier], 0); break;
    case 4: gain(s, q, KG_STONE, TIER3[0][tier] * (ks_owns_field(s, KR_QUARRY, q) ? 2 : 1)); break;
    case 5: push(s, KT_HEAD, q, 2, TIER3[1][tier], 0); break;
    case 6: gain(s, q, KG_WHEAT, TIER3[0][tier] * (ks_owns_field(s, KR_WHEATF, q) ? 2 : 1)); break;
    case 7: push(s, KT_BUILD, q, 0x3f, TIER3[2][tier], 0); break;
    case 8:
        if (activator) {
            s->i_resolver = (int8_t)q;
            if (s->red_i != q && s->pl[q].kp[KS_H(h)] > 0) {
                s->pl[q].kp[KS_H(h)]--;
                if (s->red_i >= 0) s->pl[(int)s->red_i].kp[KS_H(h)]++;   /* swapped to the top of the tile */
                s->red_i = (int8_t)q;
            }
        } else push(s, KT_ORDER, q, 8, 0, 0);
        break;
    case 9: push(s, KT_ORDER, q, 9, 0, 0); break;
    case 10: push(s, KT_ORDER, q, 10, 0, 0); break;
    case 11: recruit(s, q, TIER3[0][tier] == 1 ? 1 : 2); break;
    }
    (void)c;
}

static void end_year(const KsConfig *c, KsState *s) {
    if (s->i_resolver >= 0) s->start = s->i_resolver;
    if (s->year < 3) { ks_start_year(c, s); return; }
    /* Game end: from the start player, spend skill tiles; then the start
     * player marker is counted as one item. */
    s->year = 4;
    push(s, KT_ALLOC, s->start, 0, 0, 0);
    if (c->solo) {   /* Keytoma neither spends nor allocates */
        s->ntask = 0;
        if (s->start == 0) push(s, KT_ALLOC, 0, 0, 0, 0);
        push(s, KT_FINAL, 0, 0, 0, 0);
        return;
    }
    for (int k = c->players - 1; k >= 0; k--) push(s, KT_FINAL, (s->start + k) % c->players, 0, 0, 0);
}

static int anyone_has_dice(const KsConfig *c, const KsState *s) {
    for (int p = 0; p < c->players; p++) if (s->pl[p].dice_left) return 1;
    return s->kt_left != 0;
}

/* A harbour is left to resolve when it has a sailor, is not resolved and
 * holds a keyple (otherwise nobody could ever resolve it: docs/keyside.md). */
static int any_to_resolve(const KsConfig *c, const KsState *s) {
    for (int h = 0; h < KS_NH; h++) {
        if (!resolvable(s, h)) continue;
        if (s->kt_kp[h] > 0) return 1;
        for (int p = 0; p < c->players; p++) if (in_harbour(s, p, h)) return 1;
    }
    return 0;
}

/* ---------- solo: Keytoma ---------- */

static int has_flag(const KsState *s, int h) {
    return s->flag_at[0] == h || s->flag_at[1] == h || s->flag_at[2] == h;
}

static int landed(const KsState *s, int h) { return s->ndice[h] > 0 || s->resolved[h]; }

/* After a landing at h: each flag there moves clockwise to the next harbour
 * not landed on and without a flag; if none, onto the next flag's harbour. */
static void move_flags_from(KsState *s, int h) {
    for (int f = 0; f < 3; f++) {
        if (s->flag_at[f] != h) continue;
        int to = -1;
        for (int i = 1; i < KS_NH && to < 0; i++) {
            int x = (h + i) % KS_NH;
            if (!landed(s, x) && !has_flag(s, x)) to = x;
        }
        if (to < 0)
            for (int i = 1; i < KS_NH && to < 0; i++) {
                int x = (h + i) % KS_NH;
                for (int g = 0; g < 3; g++) if (g != f && s->flag_at[g] == x) to = x;
            }
        if (to >= 0) s->flag_at[f] = (int8_t)to;
    }
}

/* A harbour without a flag was resolved: it can be landed on again, so where
 * two flags share a harbour the smaller-numbered one moves there. */
static void after_resolution(KsState *s, int h) {
    if (has_flag(s, h)) return;
    for (int f = 0; f < 3; f++)
        for (int g = f + 1; g < 3; g++)
            if (s->flag_at[f] == s->flag_at[g]) { s->flag_at[f] = (int8_t)h; return; }
}

/* One of Keytoma's keyples onto h, or the first harbour clockwise with room. */
static void kt_place_keyple(const KsConfig *c, KsState *s, int h) {
    if (s->kt_supply <= 0) return;
    for (int i = 0; i < KS_NH; i++) {
        int x = (h + i) % KS_NH;
        if (hfree(c, s, x) > 0) { s->kt_kp[x]++; s->kt_supply--; return; }
    }
}

static int kt_can_resolve(const KsState *s) {
    for (int h = 0; h < KS_NH; h++) if (resolvable(s, h) && s->kt_kp[h] > 0) return 1;
    return 0;
}

static void kt_begin_turn(const KsConfig *c, KsState *s, int last) {
    if (s->kt_left) { push(s, KT_KLAND, 0, 0, 0, 0); return; }
    if (kt_can_resolve(s)) { push(s, KT_KRESOLVE, 0, 0, 0, 0); return; }
    if (!s->trigger && !any_to_resolve(c, s) && !anyone_has_dice(c, s)) {
        s->trigger = 1;
        if (KS_KT == last) { end_year(c, s); return; }
    }
    /* Its action by die number only while harbours remain to resolve; otherwise it passes. */
    if (!s->trigger && any_to_resolve(c, s)) push(s, KT_KACTION, 0, 0, 0, 0);
}

static void landslide_from(KsState *s, int h) {
    for (int i = 0; i < KS_NH; i++) {
        int sp = (h + i) % KS_NH;   /* space sp lies clockwise of harbour sp */
        if (s->hl_tile[sp] < 0) { s->hl_tile[sp] = KS_LANDSLIDE; s->hl_owner[sp] = KS_PIRATE; return; }
    }
}

/* Farms with 2+ animals that nobody claimed. */
static int farm_animals(const KsState *s, int f) {
    int n = 0;
    for (int i = 0; i < 4; i++) n += s->farm_animal[f][i] >= 0;
    return n;
}

/* The random-farm procedure from the flag harbour h: inland (stand-in: the
 * resource location R(1 + 8h/12)), then clockwise, the first unclaimed farm
 * with a free icon; the icon chosen in the order gem, fish, wheat, stone, wood. */
static void kt_farm_animal(const KsConfig *c, KsState *s, int h, int animal) {
    int r0 = h * KS_NR / KS_NH;
    for (int i = 0; i < KS_NR; i++) {
        int r = (r0 + i) % KS_NR, f = s->rl_kind[r];
        if (f < 0 || f >= KS_NFARM || s->rl_owner[r] >= 0) continue;
        for (int want = KI_GEM; want <= KI_WOOD; want++)
            for (int k = 0; k < 4; k++)
                if (s->farm_animal[f][k] < 0 && c->farm_icon[f][(int)s->farm_side[f]][k] == want) {
                    s->farm_animal[f][k] = (int8_t)animal;
                    return;
                }
    }
}

/* The resolution card for colour col at harbour h (-1: none). */
static void kt_effect(const KsConfig *c, KsState *s, int h, int col) {
    switch (col) {
    case KC_YELLOW: push(s, KT_KPIRFARM, 0, h, 0, 0); push(s, KT_KYELLOW, 0, h, 0, 0); break;
    case KC_GREEN:
        push(s, KT_KFARM, 0, KG_SHEEP, 0, 0);
        push(s, KT_KCLAIM, 0, h, 0, 0);
        push(s, KT_KFARM, 0, KG_COW, 0, 0);
        break;
    case KC_RED:
        if (h >= 0) for (int k = 0; k < 2 && hfree(c, s, h) > 0; k++) s->pir[h]++;
        break;
    case KC_BLUE: push(s, KT_KBLUE, 0, 0, 0, 0); push(s, KT_KBLUE, 0, 0, 0, 0); break;
    case KC_PURPLE:
        if (s->bag_n >= 2) {
            int a = s->bag[s->bag_n - 1], b = s->bag[s->bag_n - 2];
            s->bag_n -= 2;
            if (a == b) {   /* one returns to the bag (at the bottom: its order is hidden anyway) */
                memmove(s->bag + 1, s->bag, (size_t)s->bag_n);
                s->bag[0] = (int8_t)b;
                s->bag_n++;
            }
        } else s->bag_n = 0;
        break;
    case KC_ORANGE: landslide_from(s, h >= 0 ? h : s->flag_at[0]); break;
    }
}

int ks_chance_task(const KsState *s) {
    return s->phase == KP_PLAY && s->ntask && s->task[s->ntask - 1].kind >= KT_KLAND;
}

int ks_task_outcomes(const KsConfig *c, const KsState *s, int32_t *out) {
    const KsTask *t = &s->task[s->ntask - 1];
    int n = 0;
    switch (t->kind) {
    case KT_KYELLOW:
        for (int col = 0; col < KC_N; col++) if (s->pl[0].building[col] < 0) out[n++] = KA_CH + col;
        break;
    case KT_KREMOVE:
        for (int k = 0; k < 4; k++) if (s->cottages >> (t->a * 4 + k) & 1) out[n++] = KA_CH + t->a * 4 + k;
        break;
    case KT_KBLUE: {
        int best = 0;   /* highest top tile: 3 left = 5 points, 2 = 3, 1 = 1 */
        for (int col = 0; col < KC_N; col++) if (s->skill_left[col] > best) best = s->skill_left[col];
        if (best)
            for (int col = 0; col < KC_N; col++) if (s->skill_left[col] == best) out[n++] = KA_CH + col;
        break;
    }
    case KT_KSTRIP:
        for (int k = 0; k < 4; k++) if (s->kt_strips >> k & 1) { out[n++] = KA_CH + 2 * k; out[n++] = KA_CH + 2 * k + 1; }
        break;
    default: for (int k = 0; k < 6; k++) out[n++] = KA_CH + k; break;   /* a die roll */
    }
    (void)c;
    return n;
}

static void kt_land(const KsConfig *c, KsState *s, int h) {
    int vals[KC_N], n = 0;
    for (int v = 1; v <= 6; v++)
        for (int col = 0; col < KC_N; col++)
            if ((s->kt_left >> col & 1) && s->kt_die[col] == v) vals[n++] = col;
    int col = vals[n / 2];   /* the (higher) median die */
    s->kt_left &= (uint8_t)~(1u << col);
    if (s->ndice[h] == 0) { s->hcol[h] = (int8_t)col; s->resolved[h] = 0; }
    if (s->hcol[h] == col && s->ndice[h] < c->hdice[(int)s->htile[h]]) {
        int i = s->ndice[h]++;
        s->dice_p[h][i] = KS_KT_MARK; s->dice_v[h][i] = s->kt_die[col];
    }
    kt_place_keyple(c, s, h);
    move_flags_from(s, h);
    /* You may follow; your adjacent headlands trigger; a follower may move a keyple in. */
    push(s, KT_MOVEIN, 0, h, 0, 0);
    push(s, KT_HEADLANDS, 0, h, 0, 0);
    push(s, KT_FOLLOW, 0, h, 0, 0);
}

static void kt_resolve(const KsConfig *c, KsState *s, int h) {
    int total = 0;
    s->resolved[h] = 1;
    for (int i = 0; i < s->ndice[h]; i++) total += s->dice_v[h][i];
    int tier = total <= 2 ? 0 : total <= 5 ? 1 : 2;
    if (s->htile[h] == 8) s->i_resolver = KS_KT;
    /* Keytoma's card first, then you (if you have a keyple there). */
    if (in_harbour(s, 0, h)) push(s, KT_BENEFIT, 0, h, tier, 0);
    push(s, KT_KEFFECT, 0, h, s->hcol[h], 0);
    after_resolution(s, h);
}

static void apply_chance_task(const KsConfig *c, KsState *s, int k) {
    KsTask t = s->task[--s->ntask];
    int flag_h = s->flag_at[(k % 6) / 2];
    switch (t.kind) {
    case KT_KLAND: kt_land(c, s, flag_h); break;
    case KT_KFOLLOW: {
        int h = t.a, col = s->hcol[h];
        if (k + 1 >= (t.b ? 2 : 5) && (s->kt_left >> col & 1) && s->ndice[h] < c->hdice[(int)s->htile[h]]) {
            int i = s->ndice[h]++;
            s->dice_p[h][i] = KS_KT_MARK; s->dice_v[h][i] = s->kt_die[col];
            s->kt_left &= (uint8_t)~(1u << col);
            kt_place_keyple(c, s, h);
        }
        break;
    }
    case KT_KRESOLVE:
        for (int i = 0; i < KS_NH; i++) {
            int x = (flag_h + i) % KS_NH;
            if (resolvable(s, x) && s->kt_kp[x] > 0) { kt_resolve(c, s, x); break; }
        }
        break;
    case KT_KACTION:
        if (k == 5) push(s, KT_KLANDSLIDE, 0, 0, 0, 0);
        else kt_effect(c, s, -1, k);
        break;
    case KT_KLANDSLIDE: landslide_from(s, flag_h); break;
    case KT_KFARM: kt_farm_animal(c, s, flag_h, t.a); break;
    case KT_KYELLOW:
        for (int col = KC_N - 1; col >= 0; col--)
            if (col != k && ((s->cottages >> (col * 4)) & 15)) push(s, KT_KREMOVE, 0, col, 0, 0);
        break;
    case KT_KREMOVE: s->cottages &= ~(1u << k); break;
    case KT_KBLUE: s->skill_left[k]--; break;
    case KT_KSTRIP:
        memcpy(s->kt_die, c->strip[k / 2][k % 2], KC_N);
        s->kt_strips &= (uint8_t)~(1u << (k / 2));
        s->kt_left = 0x3f;
        break;
    }
}

static void begin_turn(const KsConfig *c, KsState *s) {
    int t = s->turn, last = (s->start + c->seats - 1) % c->seats;
    if (c->solo && t == KS_KT) { kt_begin_turn(c, s, last); return; }
    if (s->pl[t].dice_left) { push(s, KT_LAND, t, 0, 0, 0); return; }
    for (int h = 0; h < KS_NH; h++)
        if (resolvable(s, h) && in_harbour(s, t, h)) { push(s, KT_RESOLVE, t, 0, 0, 0); return; }
    if (!s->trigger && !any_to_resolve(c, s) && !anyone_has_dice(c, s)) {
        s->trigger = 1;
        if (t == last) { end_year(c, s); return; }
    }
    push(s, KT_ALT, t, 0, 0, 0);
}

/* A position set up at the start of s->turn's turn (position.c). */
void ks_begin_turn(const KsConfig *c, KsState *s) { begin_turn(c, s); }

/* The stack ran empty: end the turn in progress and start the next one. */
static void flow(const KsConfig *c, KsState *s) {
    if (s->year == 4) { s->phase = KP_OVER; return; }
    if (c->solo && !s->kt_set) { s->kt_set = 1; push(s, KT_KSTRIP, 0, 0, 0, 0); return; }
    if (s->turn < 0) { s->turn = s->start; begin_turn(c, s); return; }
    /* End of turn: markets used this turn flip (the double-sided ones). */
    for (int m = 0; m < KS_NM; m++)
        if ((s->mk_used >> m & 1) && s->mk_tile[m] <= KM_PURPLE) s->mk_side[m] ^= 1;
    s->mk_used = 0;
    memset(s->mk_act, 0, sizeof s->mk_act);
    int last = (s->start + c->seats - 1) % c->seats;
    if (s->trigger && s->turn == last) { end_year(c, s); return; }
    s->turn = (int8_t)nxt(c, s->turn);
    begin_turn(c, s);
}

void ks_settle(const KsConfig *c, KsState *s) {
    for (int guard = 0; guard < 10000 && s->phase == KP_PLAY; guard++) {
        if (s->ntask == 0) { flow(c, s); continue; }
        if (!auto_task(c, s)) return;
    }
}

static void spend_skill(KsState *s, int p, int col, int tier) {
    s->pl[p].skill[col][tier]--;
    push(s, KT_ADVANCE, p, col, 0, 0);
}

static void do_trade(KsState *s, int p, int m, int k) {
    KsPlayer *pl = &s->pl[p];
    int side = s->mk_side[m];
    s->mk_used |= (uint8_t)(1u << m);
    switch (s->mk_tile[m]) {
    case KM_BLUE: if (side) { gain(s, p, KG_FISH, 2); pay_animal(s, p, KG_PIG); } else { pl->goods[KG_FISH]--; gain(s, p, KG_PIG, 2); } break;
    case KM_GREEN: if (side) { gain(s, p, KG_WHEAT, 2); pay_animal(s, p, KG_SHEEP); } else { pl->goods[KG_WHEAT]--; gain(s, p, KG_SHEEP, 2); } break;
    case KM_ORANGE: if (side) { pl->goods[KG_STONE]--; gain(s, p, KG_WOOD, 3); } else { pl->goods[KG_WOOD]--; gain(s, p, KG_STONE, 3); } break;
    case KM_PURPLE: if (side) { pl->goods[KG_GEM0 + k - 1]--; gain(s, p, KG_STONE, 3); } else { pl->goods[KG_STONE]--; draw_gems(s, p, 2); } break;
    case KM_GREY1: pl->goods[KG_WHEAT]--; push(s, KT_ADVANCE, p, -1, 0, 0); break;
    case KM_GREY2: pl->goods[k == 4 ? KG_FISH : KG_WOOD]--; push(s, KT_MOVE, p, 2, 0, 0); break;
    case KM_RED: recruit(s, p, 1); break;
    case KM_YELLOW: pl->goods[KG_WHEAT]--; push(s, KT_BUILD, p, 0x3f, 0, 1); break;
    }
}

void ks_apply(const KsConfig *c, KsState *s, int32_t a) {
    if (s->phase < KP_DICE) { ks_setup_chance(c, s, a - KA_CH); ks_settle(c, s); return; }
    if (s->phase == KP_DICE) {
        int p = (s->start + s->setter) % c->players;
        KsPlayer *pl = &s->pl[p];
        if (a >= KA_STRIP) { memcpy(pl->die, c->strip[(int)pl->strip][a - KA_STRIP], KC_N); pl->n_set = KC_N; }
        else pl->die[(int)pl->n_set++] = (int8_t)(a - KA_DSET + 1);
        if (pl->n_set == KC_N && ++s->setter == c->players) {
            s->revealed = 1;
            s->phase = KP_PLAY;
            s->turn = -1;
            ks_settle(c, s);
        }
        return;
    }
    if (ks_chance_task(s)) { apply_chance_task(c, s, a - KA_CH); ks_settle(c, s); return; }
    KsTask t = s->task[s->ntask - 1];
    int p = t.p;
    KsPlayer *pl = &s->pl[p];
    /* Anytime actions leave the task in place. */
    if (a >= KA_SPEND && a < KA_SPEND + 18) { spend_skill(s, p, (a - KA_SPEND) / 3, (a - KA_SPEND) % 3); ks_settle(c, s); return; }
    if (a >= KA_FLIP && a < KA_FLIP + KS_NM) { pl->goods[KG_FISH]--; s->mk_side[a - KA_FLIP] ^= 1; ks_settle(c, s); return; }
    s->ntask--;
    if (a == KA_PASS) {
        /* Passing one of several moves / animals ends them all (already popped). */
        ks_settle(c, s);
        return;
    }
    switch (t.kind) {
    case KT_LAND:
        if (a >= KA_MAT) {
            int col = a - KA_MAT;
            pl->dice_left &= (uint8_t)~(1u << col);
            push(s, KT_ADVANCE, p, col, 0, 0);
        } else {
            int x = a - KA_LEAD, h = x % KS_NH, b = (x / KS_NH) % 3, col = x / KS_NH / 3;
            s->boat_sailors[b] &= (uint8_t)~(1u << col);
            s->boat_at[b] = (int8_t)h;
            s->sailor[h] = s->hcol[h] = (int8_t)col;
            s->ndice[h] = 1; s->dice_p[h][0] = (int8_t)p; s->dice_v[h][0] = pl->die[col];
            pl->dice_left &= (uint8_t)~(1u << col);
            /* Steps 7-10, pushed in reverse: followers, headlands, track, keyples. */
            for (int k = c->players - 1; k >= 1; k--) push(s, KT_MOVEIN, (p + k) % c->players, h, 0, 0);
            push(s, KT_MOVEIN, p, h, 0, 0);
            push(s, KT_ADVANCE, p, col, 0, 0);
            push(s, KT_HEADLANDS, p, h, 0, 0);
            for (int k = c->players - 1; k >= 1; k--) push(s, KT_FOLLOW, (p + k) % c->players, h, 0, 0);
            if (c->solo) {
                int flagged = has_flag(s, h);
                move_flags_from(s, h);
                if ((s->kt_left >> col & 1) && s->kt_die[col] <= pl->die[col] && s->ndice[h] < c->hdice[(int)s->htile[h]])
                    push(s, KT_KFOLLOW, 0, h, flagged, 0);
            }
        }
        break;
    case KT_RESOLVE: {
        int h = a - KA_RESOLVE, total = 0;
        s->resolved[h] = 1;
        for (int i = 0; i < s->ndice[h]; i++) total += s->dice_v[h][i];
        int tier = total <= 2 ? 0 : total <= 5 ? 1 : 2;
        int who[KS_MAXP], nw = 0;
        for (int k = 0; k < c->players; k++) {
            int q = (p + k) % c->players;
            if (in_harbour(s, q, h)) who[nw++] = q;
        }
        /* Benefits in clockwise order from the activator: each runs (with its
         * sub-decisions) before the next player's. */
        /* Solo: Keytoma's card after your benefit, if it has a keyple here and 2 dice lie here. */
        if (c->solo && s->kt_kp[h] > 0 && s->ndice[h] >= 2) push(s, KT_KEFFECT, 0, h, s->hcol[h], 0);
        for (int i = nw - 1; i >= 0; i--) push(s, KT_BENEFIT, who[i], h, tier, i == 0);
        if (c->solo) after_resolution(s, h);
        break;
    }
    case KT_ALT:
        if (a >= KA_TRACK) { push(s, KT_ADVANCE, p, a - KA_TRACK, 0, 0); break; }
        {
            static const int8_t TAKE[6][2] = {{KG_STONE, KG_STONE}, {KG_STONE, KG_WOOD}, {KG_STONE, KG_WHEAT},
                                              {KG_WOOD, KG_WOOD}, {KG_WOOD, KG_WHEAT}, {KG_WHEAT, KG_WHEAT}};
            int k = a - KA_TAKE2;
            gain(s, p, TAKE[k][0], 1); gain(s, p, TAKE[k][1], 1);
        }
        break;
    case KT_FOLLOW: {
        int h = t.a, col = s->hcol[h], i = s->ndice[h]++;
        s->dice_p[h][i] = (int8_t)p; s->dice_v[h][i] = pl->die[col];
        pl->dice_left &= (uint8_t)~(1u << col);
        break;
    }
    case KT_MOVEIN: case KT_MOVE: {
        int x = a - KA_MOVE, src = x / KS_NLOC, d = x % KS_NLOC;
        pl->kp[src]--; pl->kp[d]++;
        if (src >= KS_R(0) && src < KS_R(KS_NR)) s->rl_owner[src - KS_R(0)] = -1;
        if (d >= KS_R(0) && d < KS_R(KS_NR)) s->rl_owner[d - KS_R(0)] = (int8_t)p;
        if (t.kind == KT_MOVE && t.a > 1) push(s, KT_MOVE, p, t.a - 1, t.b, 0);
        break;
    }
    case KT_ADVANCE: {
        int col = a - KA_TRACK;
        if (pl->level[col] < 4) pl->level[col]++;
        push(s, KT_LEVEL, p, col, pl->level[col], 0);
        break;
    }
    case KT_LEVEL: level_effect(c, s, p, t.a, t.b, a - KA_SIDE); break;
    case KT_BUILD:
        pl->goods[KG_WHEAT] = (int8_t)(pl->goods[KG_WHEAT] - t.b);
        if (a >= KA_UPGRADE) pl->house |= (uint8_t)(1u << (a - KA_UPGRADE));
        else { int l = a - KA_BUILD; pl->building[l / 4] = (int8_t)l; s->cottages &= ~(1u << l); }
        break;
    case KT_HEAD: {
        int x = a - KA_HEAD, r = x % 2, o = (x / 2) % 2, tl = (x / 4) % 6, sp = x / 24;
        pl->goods[r ? KG_STONE : KG_WOOD] = (int8_t)(pl->goods[r ? KG_STONE : KG_WOOD] - head_cost(s, p, t.b, t.c));
        s->hl_owner[sp] = (int8_t)p; s->hl_tile[sp] = (int8_t)tl; s->hl_orient[sp] = (int8_t)o;
        pl->hl_built |= (uint8_t)(1u << tl);
        break;
    }
    case KT_FARM: {
        int x = a - KA_FARM, i = x % 4, f = (x / 4) % 5, an = x / 20;
        pl->goods[an]--;
        s->farm_animal[f][i] = (int8_t)an;
        switch (c->farm_icon[f][(int)s->farm_side[f]][i]) {
        case KI_GEM: draw_gems(s, p, 1); break;
        case KI_FISH: gain(s, p, KG_FISH, 1); break;
        case KI_WHEAT: gain(s, p, KG_WHEAT, 1); break;
        case KI_STONE: gain(s, p, KG_STONE, 1); break;
        case KI_WOOD: gain(s, p, KG_WOOD, 1); break;
        }
        if (t.a > 1) push(s, KT_FARM, p, t.a - 1, 0, 0);
        break;
    }
    case KT_MARKET:
        s->mk_act[p] |= (uint8_t)(1u << (a - KA_MARKET));
        push(s, KT_TRADE, p, a - KA_MARKET, 0, 0);
        break;
    case KT_TRADE: do_trade(s, p, t.a, a - KA_TRADE); break;
    case KT_SKILL: {
        int col = a - KA_SKILL;
        pl->skill[col][3 - s->skill_left[col]]++;
        s->skill_left[col]--;
        break;
    }
    case KT_ANIMAL: gain(s, p, a - KA_ANIMAL, 1); break;
    case KT_EXCH: {
        if (a >= KA_EXCHF) { int x = a - KA_EXCHF; s->farm_animal[x / 12][(x / 3) % 4] = (int8_t)(x % 3); }
        else { int x = a - KA_EXCH; pl->goods[x / 3]--; pl->goods[x % 3]++; }
        if (t.a > 1) push(s, KT_EXCH, p, t.a - 1, 0, 0);
        break;
    }
    case KT_RECRUIT: recruit(s, p, a - KA_RECRUIT + 1); break;
    case KT_PAY: take_animal_from(s, p, t.a, a - KA_PAYFROM); break;
    case KT_ORDER: {
        int k = a - KA_ORDER;
        int second = t.a == 9 ? KT_MARKET : KT_SKILL;
        if (t.a == 8) push(s, k == 0 ? KT_MOVE : k == 1 ? KT_MARKET : KT_SKILL, p, 1, 0, 0);
        else if (k == 0) { push(s, second, p, 0, 0, 0); push(s, KT_MOVE, p, 1, 0, 0); }
        else { push(s, KT_MOVE, p, 1, 0, 0); push(s, second, p, 0, 0, 0); }
        break;
    }
    case KT_ALLOC: s->alloc_item = (int8_t)(a - KA_ALLOC); break;
    default: break;
    }
    ks_settle(c, s);
}


/* ---------- scenario tests only ---------- */

enum { KD_GOOD = 0, KD_KEYPLES, KD_MAT, KD_LEVEL, KD_BUILDING, KD_HOUSE, KD_SKILL, KD_HEADLAND,
       KD_FARM_ANIMAL, KD_OWNER, KD_RED_SPACE, KD_FIELD_TOKENS, KD_KT_KEYPLES, KD_N };

int ks_debug_set(const BLGame *g, void *vst, int p, int what, int i, int v) {
    const KsConfig *c = KS_CFG(g);
    KsState *s = (KsState *)vst;
    if (p < 0 || p >= c->players) return -1;
    KsPlayer *pl = &s->pl[p];
    switch (what) {
    case KD_GOOD: if (i < 0 || i >= KG_N || v < 0 || v > 120) return -1; pl->goods[i] = (int8_t)v; return 0;
    case KD_KEYPLES: if (i < 0 || i >= KS_NLOC || v < 0 || v > 18) return -1; pl->kp[i] = (int8_t)v; return 0;
    case KD_MAT: if (v < 0 || v > 18) return -1; pl->mat = (int8_t)v; return 0;
    case KD_LEVEL: if (i < 0 || i >= KC_N || v < 0 || v > 4) return -1; pl->level[i] = (int8_t)v; return 0;
    case KD_BUILDING:
        if (i < 0 || i >= KC_N || v < -1 || v >= 24 || (v >= 0 && v / 4 != i)) return -1;
        pl->building[i] = (int8_t)v;
        if (v >= 0) s->cottages &= ~(1u << v);
        return 0;
    case KD_HOUSE: if (i < 0 || i >= KC_N) return -1; pl->house = (uint8_t)(v ? pl->house | 1u << i : pl->house & ~(1u << i)); return 0;
    case KD_SKILL: if (i < 0 || i >= 18 || v < 0 || v > 3) return -1; pl->skill[i / 3][i % 3] = (int8_t)v; return 0;
    case KD_HEADLAND:   /* i: space, v: tile + 8 * orientation (-1 clears) */
        if (i < 0 || i >= KS_NH || v < -1 || v >= 16 || (v >= 0 && v % 8 >= 6)) return -1;
        if (v < 0) { s->hl_tile[i] = s->hl_owner[i] = -1; return 0; }
        s->hl_owner[i] = (int8_t)p; s->hl_tile[i] = (int8_t)(v % 8); s->hl_orient[i] = (int8_t)(v / 8);
        pl->hl_built |= (uint8_t)(1u << (v % 8));
        return 0;
    case KD_FARM_ANIMAL: if (i < 0 || i >= KS_NFARM * 4 || v < -1 || v > 2) return -1; s->farm_animal[i / 4][i % 4] = (int8_t)v; return 0;
    case KD_OWNER: if (i < 0 || i >= KS_NR) return -1; s->rl_owner[i] = (int8_t)(v ? p : -1); return 0;
    case KD_RED_SPACE: s->red_i = (int8_t)(v ? p : -1); return 0;
    case KD_FIELD_TOKENS: if (i < 0 || i >= 3 || v < 0 || v > 12) return -1; s->field_tokens[i] = (int8_t)v; return 0;
    case KD_KT_KEYPLES: if (!c->solo || i < 0 || i >= KS_NH || v < 0 || v > 18) return -1; s->kt_kp[i] = (int8_t)v; return 0;
    }
    return -1;
}
