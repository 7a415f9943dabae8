/* Keyside: configuration from the data file, the initial state, the explicit
 * setup chance (harbour tiles, scoring tiles, fields, farms, markets, dice
 * strips, first-game cottages, start player) and the start of each year. */
#include <stdio.h>
#include <string.h>
#include "keyside.h"

#define ST(p) ((KsState *)(p))

static int ks_configure(BLGame *g, const int32_t *pv, int n, char *err, int errlen) {
    KsConfig *c = (KsConfig *)g->config;
    memset(c, 0, sizeof *c);
    if (n < 5) { snprintf(err, errlen, "keyside: too few kernel parameters (%d)", n); return -1; }
    if (pv[0] < 1 || pv[0] > KS_MAXP) { snprintf(err, errlen, "players must be 1 (solo) to 4 (got %d)", pv[0]); return -1; }
    if (pv[1] < 0 || pv[1] > 2) { snprintf(err, errlen, "scoring must be 0 black, 1 red or 2 mixed (got %d)", pv[1]); return -1; }
    if ((pv[2] | pv[3]) & ~1) { snprintf(err, errlen, "first_game and dice_strips must be 0 or 1"); return -1; }
    if (pv[4] < 0 || pv[4] > 15 || (pv[0] > 1 && pv[4])) { snprintf(err, errlen, "solo options must be 0-15, in the solo game only"); return -1; }
    if (pv[0] == 1 && pv[2]) { snprintf(err, errlen, "the first-game setup is for 2-4 players"); return -1; }
    c->players = pv[0]; c->scoring = pv[1]; c->first_game = pv[2]; c->dice_strips = pv[3];
    c->solo = c->players == 1; c->solo_opts = pv[4]; c->seats = c->solo ? 2 : c->players;
    int E = pv[5];
    int want = 6 + 2 * E + KS_NR + 2 * KS_NH + KS_NFARM * 2 * 4 + 4 * 2 * KC_N;
    if (E < 1 || E > KS_MAXEDGE || n != want) {
        snprintf(err, errlen, "keyside: expected %d kernel parameters for %d roads, got %d", want, E, n);
        return -1;
    }
    const int32_t *q = pv + 6;
    for (int i = 0; i < KS_NLOC; i++)
        for (int j = 0; j < KS_NLOC; j++) c->dist[i][j] = (int8_t)(i == j ? 0 : 99);
    for (int e = 0; e < E; e++, q += 2) {
        if (q[0] < 0 || q[0] >= KS_NLOC || q[1] < 0 || q[1] >= KS_NLOC || q[0] == q[1]) {
            snprintf(err, errlen, "keyside: road %d joins invalid locations %d, %d", e, q[0], q[1]);
            return -1;
        }
        c->dist[q[0]][q[1]] = c->dist[q[1]][q[0]] = 1;
    }
    for (int k = 0; k < KS_NLOC; k++)   /* Floyd-Warshall: 29 locations */
        for (int i = 0; i < KS_NLOC; i++)
            for (int j = 0; j < KS_NLOC; j++)
                if (c->dist[i][k] + c->dist[k][j] < c->dist[i][j]) c->dist[i][j] = (int8_t)(c->dist[i][k] + c->dist[k][j]);
    for (int i = 0; i < KS_NLOC; i++)
        if (c->dist[KS_TOWN][i] > 20) { snprintf(err, errlen, "keyside: location %d is not joined to the town", i); return -1; }
    for (int r = 0; r < KS_NR; r++) c->rnb[r] = (uint8_t)*q++;
    for (int h = 0; h < KS_NH; h++) {
        c->hdice[h] = (int8_t)*q++; c->hkeys[h] = (int8_t)*q++;
        if (c->hdice[h] < 1 || c->hdice[h] > KS_MAXP || c->hkeys[h] < 1 || c->hkeys[h] > 12) {
            snprintf(err, errlen, "keyside: harbour tile %c has invalid spaces", 'A' + h);
            return -1;
        }
    }
    for (int f = 0; f < KS_NFARM; f++)
        for (int sd = 0; sd < 2; sd++)
            for (int i = 0; i < 4; i++) {
                int v = *q++;
                if (v < 0 || v > KI_WOOD) { snprintf(err, errlen, "keyside: farm %d icon %d invalid", f + 1, i); return -1; }
                c->farm_icon[f][sd][i] = (int8_t)v;
            }
    for (int k = 0; k < 4; k++)
        for (int sd = 0; sd < 2; sd++) {
            int seen = 0;
            for (int col = 0; col < KC_N; col++) {
                int v = *q++;
                if (v < 1 || v > 6 || (seen >> v & 1)) { snprintf(err, errlen, "keyside: dice strip %d is not a permutation of 1-6", k + 1); return -1; }
                seen |= 1 << v;
                c->strip[k][sd][col] = (int8_t)v;
            }
        }
    /* Ordered triples (forest, quarry, wheat fields) of pairwise non-adjacent resource locations. */
    c->n_triples = 0;
    for (int a = 0; a < KS_NR; a++)
        for (int b = 0; b < KS_NR; b++)
            for (int d = 0; d < KS_NR; d++) {
                if (a == b || a == d || b == d) continue;
                if ((c->rnb[a] >> b & 1) || (c->rnb[a] >> d & 1) || (c->rnb[b] >> d & 1)) continue;
                if (c->n_triples >= 96) { snprintf(err, errlen, "keyside: too many field placements (neighbours too sparse)"); return -1; }
                c->triple[c->n_triples][0] = (int8_t)a; c->triple[c->n_triples][1] = (int8_t)b; c->triple[c->n_triples][2] = (int8_t)d;
                c->n_triples++;
            }
    if (c->n_triples == 0) { snprintf(err, errlen, "keyside: no 3 non-adjacent resource locations"); return -1; }
    g->num_players = c->players;
    g->num_actions = KA_NUM;
    g->max_legal = 512;
    g->max_chance = 96;
    g->state_size = sizeof(KsState);
    return 0;
}

static void ks_init(const BLGame *g, void *vst, uint64_t seed) {
    const KsConfig *c = KS_CFG(g);
    KsState *s = ST(vst);
    memset(s, 0, sizeof *s);
    bl_rng_seed(&s->rng, seed);
    for (int h = 0; h < KS_NH; h++) {
        s->htile[h] = s->hscore[h] = -1;
        s->sailor[h] = s->hl_owner[h] = s->hl_tile[h] = -1;
    }
    for (int m = 0; m < KS_NM; m++) s->mk_tile[m] = -1;
    for (int r = 0; r < KS_NR; r++) s->rl_kind[r] = s->rl_owner[r] = -1;
    for (int f = 0; f < KS_NFARM; f++) memset(s->farm_animal[f], -1, 4);
    for (int k = 0; k < 3; k++) s->field_tokens[k] = (int8_t)(3 * c->players);   /* solo: 3 */
    for (int col = 0; col < KC_N; col++) s->skill_left[col] = 3;
    s->cottages = (1u << 24) - 1;
    s->strips_left = 15;
    s->red_i = s->i_resolver = s->alloc_item = -1;
    /* The gem bag: 12 of each type, in a hidden order drawn from the game
     * seed (like a face-down deck; determinize reshuffles it). */
    s->bag_n = (int8_t)(c->solo ? 18 : KS_NGEM);   /* solo: 6 of each type */
    for (int i = 0; i < s->bag_n; i++) s->bag[i] = (int8_t)(i / (s->bag_n / 3));
    for (int i = s->bag_n - 1; i > 0; i--) {
        int j = (int)bl_rng_below(&s->rng, (uint32_t)(i + 1));
        int8_t t = s->bag[i]; s->bag[i] = s->bag[j]; s->bag[j] = t;
    }
    for (int p = 0; p < c->players; p++) {
        KsPlayer *pl = &s->pl[p];
        pl->mat = 12;
        pl->kp[KS_TOWN] = 6;
        memset(pl->building, -1, sizeof pl->building);
        pl->strip = -1;
    }
    for (int h = 0; h < KS_NH; h++) s->hcol[h] = -1;
    s->kt_supply = 18;
    s->beacon[0] = s->beacon[1] = s->beacon[2] = -1;
    s->flag_at[0] = s->flag_at[1] = s->flag_at[2] = -1;
    s->phase = KP_HTILE;
}

/* Chance outcomes of the current setup step (uniform). */
int ks_setup_outcomes(const KsConfig *c, const KsState *s, int32_t *acts, double *probs) {
    int n = 0;
    switch (s->phase) {
    case KP_HTILE: {
        int used = 0;
        for (int h = 0; h < s->setup_i; h++) used |= 1 << s->htile[h];
        for (int t = 0; t < KS_NH; t++) if (!(used >> t & 1)) acts[n++] = KA_CH + t;
        break;
    }
    case KP_SCORE: {
        int used = 0;
        for (int h = 0; h < s->setup_i; h++) used |= 1 << s->hscore[h];
        for (int t = 0; t < KS_NH; t++) if (!(used >> t & 1)) acts[n++] = KA_CH + t;
        break;
    }
    case KP_SIDE: acts[n++] = KA_CH; acts[n++] = KA_CH + 1; break;
    case KP_FIELDS: for (int k = 0; k < c->n_triples; k++) acts[n++] = KA_CH + k; break;
    case KP_FARM: case KP_MARKET: {
        int nt = s->phase == KP_FARM ? KS_NFARM : KS_NM, used = 0;
        if (s->phase == KP_FARM) { for (int r = 0; r < KS_NR; r++) if (s->rl_kind[r] >= 0 && s->rl_kind[r] < KS_NFARM) used |= 1 << s->rl_kind[r]; }
        else for (int m = 0; m < KS_NM; m++) if (s->mk_tile[m] >= 0) used |= 1 << s->mk_tile[m];
        for (int t = 0; t < nt; t++) if (!(used >> t & 1)) { acts[n++] = KA_CH + 2 * t; acts[n++] = KA_CH + 2 * t + 1; }
        break;
    }
    case KP_STRIP: for (int k = 0; k < 4; k++) if (s->strips_left >> k & 1) acts[n++] = KA_CH + k; break;
    case KP_FIRST: {
        static const int FG[4] = {2, 5, 13, 23};   /* cottages C, F, N, X */
        for (int k = 0; k < 4; k++) if (s->cottages >> FG[k] & 1) acts[n++] = KA_CH + k;
        break;
    }
    case KP_START: for (int p = 0; p < c->players; p++) acts[n++] = KA_CH + p; break;
    case KP_KSTRIPS: for (int k = 0; k < 4; k++) if (!(s->kt_strips >> k & 1)) acts[n++] = KA_CH + k; break;
    case KP_BEACON: case KP_FLAG: for (int k = 0; k < 6; k++) acts[n++] = KA_CH + k; break;
    default: break;
    }
    if (probs) for (int i = 0; i < n; i++) probs[i] = 1.0 / n;
    return n;
}

static int harbour_with_score(const KsState *s, int number0) {
    for (int h = 0; h < KS_NH; h++) if (s->hscore[h] == number0) return h;
    return 0;
}

/* Boats, first-game keyples, then the first year. */
static void finish_setup(const KsConfig *c, KsState *s) {
    int h1 = harbour_with_score(s, 0);
    s->nboats = c->players == 2 ? 2 : 3;
    if (c->solo) {
        /* The human is start player in year 1 and holds the fourth dice strip. */
        s->start = 0;
        for (int k = 0; k < 4; k++) if (!(s->kt_strips >> k & 1)) s->pl[0].strip = (int8_t)k;
        int f = s->flag_at[0];
        if (c->solo_opts & 2) { s->kt_kp[(f + KS_NH - 1) % KS_NH]++; s->kt_supply--; }
        if (c->solo_opts & 4) {
            int sp = (s->flag_at[1] + KS_NH - 1) % KS_NH;   /* the space anticlockwise of the flag */
            s->hl_tile[sp] = KS_LANDSLIDE; s->hl_owner[sp] = KS_PIRATE;
        }
        if (c->solo_opts & 8) s->pir[(s->flag_at[2] + KS_NH - 1) % KS_NH] += 2;
    }
    for (int b = 0; b < s->nboats; b++) {
        s->boat_at[b] = (int8_t)((h1 + (c->players == 2 ? 6 : 4) * b) % KS_NH);
        s->boat_sailors[b] = 0x3f;
    }
    if (c->first_game) {
        /* The keyple goes to the harbour whose scoring tile matches the cottage:
         * C -> 11, F -> 1, N -> 5, X -> 9 (taken from the mat). */
        for (int p = 0; p < c->players; p++) {
            int letter = -1;
            for (int col = 0; col < KC_N; col++) if (s->pl[p].building[col] >= 0) letter = s->pl[p].building[col];
            int num = letter == 2 ? 11 : letter == 5 ? 1 : letter == 13 ? 5 : 9;
            int h = harbour_with_score(s, num - 1);
            s->pl[p].mat--;
            s->pl[p].kp[KS_H(h)]++;
        }
    }
    s->year = 0;
    ks_start_year(c, s);
}

static void next_setup_phase(const KsConfig *c, KsState *s) {
    s->setup_i = 0;
    switch (s->phase) {
    case KP_HTILE: s->phase = KP_SCORE; return;
    case KP_SCORE:
        if (c->scoring == 2) { s->phase = KP_SIDE; return; }
        for (int h = 0; h < KS_NH; h++) s->hred[h] = (int8_t)(c->scoring == 1);
        /* fall through */
    case KP_SIDE: s->phase = KP_FIELDS; return;
    case KP_FIELDS: s->phase = KP_FARM; return;
    case KP_FARM: s->phase = KP_MARKET; return;
    case KP_MARKET:
        if (c->dice_strips && !c->solo) { s->phase = KP_STRIP; return; }
        /* fall through */
    case KP_STRIP:
        if (c->first_game) { s->phase = KP_FIRST; return; }
        /* fall through */
    case KP_FIRST: s->phase = c->solo ? KP_KSTRIPS : KP_START; return;
    case KP_KSTRIPS: s->phase = KP_BEACON; return;
    case KP_BEACON: s->phase = KP_FLAG; return;
    default: return;
    }
}

void ks_setup_chance(const KsConfig *c, KsState *s, int k) {
    int i = s->setup_i, done = 0;
    switch (s->phase) {
    case KP_HTILE: s->htile[i] = (int8_t)k; done = i + 1 == KS_NH; break;
    case KP_SCORE: s->hscore[i] = (int8_t)k; done = i + 1 == KS_NH; break;
    case KP_SIDE: s->hred[i] = (int8_t)k; done = i + 1 == KS_NH; break;
    case KP_FIELDS:
        for (int j = 0; j < 3; j++) s->rl_kind[(int)c->triple[k][j]] = (int8_t)(KR_FOREST + j);
        done = 1;
        break;
    case KP_FARM: {
        int r = 0, seen = 0;   /* the i-th resource location without a field */
        for (r = 0; r < KS_NR; r++) if (s->rl_kind[r] < 0 && seen++ == 0) break;
        s->rl_kind[r] = (int8_t)(k / 2);
        s->farm_side[k / 2] = (int8_t)(k % 2);
        done = i + 1 == KS_NFARM;
        break;
    }
    case KP_MARKET: s->mk_tile[i] = (int8_t)(k / 2); s->mk_side[i] = (int8_t)(k % 2); done = i + 1 == KS_NM; break;
    case KP_STRIP: s->pl[i].strip = (int8_t)k; s->strips_left &= (uint8_t)~(1u << k); done = i + 1 == c->players; break;
    case KP_FIRST: {
        static const int FG[4] = {2, 5, 13, 23};
        int letter = FG[k];
        s->pl[i].building[letter / 4] = (int8_t)letter;
        s->cottages &= ~(1u << letter);
        done = i + 1 == c->players;
        break;
    }
    case KP_START: s->start = (int8_t)k; finish_setup(c, s); return;
    case KP_KSTRIPS: s->kt_strips |= (uint8_t)(1u << k); done = i + 1 == 3; break;
    case KP_BEACON: s->beacon[i] = (int8_t)k; done = i + 1 == 3; break;
    case KP_FLAG: {
        int h = harbour_with_score(s, k);   /* the harbour numbered as the roll */
        for (int f = 0; f < 3; f++) s->flag_at[f] = (int8_t)((h + 4 * f) % KS_NH);
        finish_setup(c, s);
        return;
    }
    default: return;
    }
    s->setup_i++;
    if (done) next_setup_phase(c, s);
}

/* A new year: dice back, harbours emptied, boats refilled (they stay where
 * they docked), dice set from the strips or secretly. */
void ks_start_year(const KsConfig *c, KsState *s) {
    s->year++;
    s->turn = -1;                /* nobody's turn until the dice are revealed */
    s->trigger = 0;
    s->i_resolver = -1;
    s->revealed = 0;
    s->setter = 0;
    for (int h = 0; h < KS_NH; h++) { s->sailor[h] = s->hcol[h] = -1; s->resolved[h] = 0; s->ndice[h] = 0; }
    /* Solo: sailors are not refilled (those used are out of the game). */
    if (!c->solo || s->year == 1)
        for (int b = 0; b < s->nboats; b++) s->boat_sailors[b] = 0x3f;
    s->kt_left = 0; s->kt_set = 0;
    memset(s->kt_die, 0, sizeof s->kt_die);
    for (int p = 0; p < c->players; p++) {
        KsPlayer *pl = &s->pl[p];
        memset(pl->die, 0, sizeof pl->die);
        pl->n_set = 0;
        pl->dice_left = 0x3f;
    }
    if (c->dice_strips && !c->solo && s->year < 3) {
        /* Light (shallow) side in year 1, deep side in year 2: public values. */
        for (int p = 0; p < c->players; p++) {
            memcpy(s->pl[p].die, c->strip[(int)s->pl[p].strip][s->year - 1], KC_N);
            s->pl[p].n_set = KC_N;
        }
        s->revealed = 1;
        s->phase = KP_PLAY;
        s->turn = -1;
        return;
    }
    s->phase = KP_DICE;
}

/* ---------- vtable pieces that live here ---------- */

int ks_configure_vt(BLGame *g, const int32_t *pv, int n, char *err, int errlen) { return ks_configure(g, pv, n, err, errlen); }
void ks_init_vt(const BLGame *g, void *vst, uint64_t seed) { ks_init(g, vst, seed); }
