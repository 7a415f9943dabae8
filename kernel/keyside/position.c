/* Keyside: a position as one seat knows it at a real table (Game.position): the
 * secret dice phase of a year, or the start of a participant's turn in play. The
 * vector is built, and names checked, by position_params in
 * py/boardlab/games/keyside.py; this checks the facts against the components and
 * each other, then deals what the seat cannot see (the others' dice before the
 * reveal, the gem bag's order) at random with the state's seed.
 *
 * Vector (int32; c = colour 0..5, -1 none; owners: seat, 9 Keytoma):
 *   header: seat, year 1..3, phase (0 dice, 1 play), start, turn, end triggered,
 *           next start (harbour I's resolver, -1), red space owner (-1)
 *   12 harbours x 8: tile, scoring number - 1, red side, sailor c, dice colour c,
 *           resolved, pirates, Keytoma keyples
 *   12 harbours x 5: number of dice, then 4 owners in order (lead first, -1 unused)
 *   3 boats x 2: harbour (-1: no third boat), sailors (bit c)
 *   12 headland spaces x 3: tile (-1, 0..5 A..F, 6 landslide), owner, orientation
 *   8 markets x 2: tile, side
 *   8 resource locations x 7: kind (0..4 farm, 5..7 forest, quarry, wheat fields),
 *           farm side, claimed by pirates, 4 animals on the farm's icons (-1)
 *   3 field tokens, 6 skill tiles left per colour, cottages available (bit letter),
 *   gem bag contents (3 types)
 *   solo: Keytoma's 6 dice (0 unset), dice left (bits), strips left (bits), 3 flags
 *           (harbour), 3 beacons (0..5) -- all 0 / -1 outside the solo game
 *   per seat (KS_SEAT_INTS): mat, 29 keyples per location, 10 goods, 6 levels,
 *           18 skill tiles (colour x tier), 6 buildings (letter, -1), houses (bits),
 *           headlands built (bits), 6 dice (0 unknown), dice left (bits), dice set,
 *           dice strip (-1)
 */
#include <stdio.h>
#include <string.h>
#include "keyside.h"

#define FAIL(...) do { snprintf(err, (size_t)errlen, __VA_ARGS__); return -1; } while (0)
#define KS_HEAD_INTS 8
#define KS_SEAT_INTS (1 + KS_NLOC + KG_N + KC_N + 18 + KC_N + 2 + KC_N + 3)
#define KS_POS_INTS (KS_HEAD_INTS + KS_NH * 8 + KS_NH * 5 + 3 * 2 + KS_NH * 3 + KS_NM * 2 + KS_NR * 7 \
                     + 3 + KC_N + 1 + 3 + (KC_N + 2 + 3 + 3))

static const char *const FIELD_NAME[3] = {"forest", "quarry", "wheat fields"};

static int perm6(const int8_t *v) {
    int seen = 0;
    for (int c = 0; c < KC_N; c++) {
        if (v[c] < 1 || v[c] > 6 || (seen >> v[c] & 1)) return 0;
        seen |= 1 << v[c];
    }
    return 1;
}

static const char *who(int o, char *buf) {
    if (o == KS_KT_MARK) return "Keytoma";
    snprintf(buf, 8, "P%d", o);
    return buf;
}

int ks_position_setup(const BLGame *g, void *vst, uint64_t seed, const int32_t *d, int n, char *err, int errlen) {
    const KsConfig *c = KS_CFG(g);
    KsState *s = (KsState *)vst;
    int P = c->players, S = c->seats, solo = c->solo;
    int want = KS_POS_INTS + P * KS_SEAT_INTS;
    char wb[8];
    if (n != want) FAIL("position: expected %d numbers for %d players, got %d", want, P, n);
    bl_keyside_vtable.init(g, vst, seed);
    /* --- header --- */
    int v = d[0], year = d[1], play = d[2];
    if (v < 0 || v >= P) FAIL("seat must be 0..%d, got %d", P - 1, v);
    if (year < 1 || year > 3) FAIL("year must be 1..3, got %d", year);
    if (play != 0 && play != 1) FAIL("phase must be 'dice' or 'play'");
    if (d[3] < 0 || d[3] >= S) FAIL("start_player must be %s, got %d", solo ? "0 (you) or 1 (Keytoma)" : "a seat", d[3]);
    if (d[4] < 0 || d[4] >= S) FAIL("turn must be %s, got %d", solo ? "0 (you) or 1 (Keytoma)" : "a seat", d[4]);
    if (d[5] != 0 && d[5] != 1) FAIL("end_triggered must be true or false");
    if (d[6] < -1 || d[6] >= S) FAIL("next_start_player must be a participant or none, got %d", d[6]);
    if (d[7] < -1 || d[7] >= P) FAIL("red_space must be a seat or none, got %d", d[7]);
    if (!play && c->dice_strips && !solo && year < 3)
        FAIL("phase: with dice strips there is no secret dice phase in year %d (the strip sets the dice)", year);
    if (!play && d[5]) FAIL("end_triggered: the year has not begun in the dice phase");
    s->year = (int8_t)year;
    s->start = (int8_t)d[3];
    s->turn = (int8_t)d[4];
    s->trigger = (int8_t)d[5];
    s->i_resolver = (int8_t)d[6];
    s->red_i = (int8_t)d[7];
    const int32_t *x = d + KS_HEAD_INTS;
    /* --- harbours --- */
    int tiles = 0, scores = 0;
    for (int h = 0; h < KS_NH; h++, x += 8) {
        int t = x[0], sc = x[1];
        if (t < 0 || t >= KS_NH) FAIL("harbours[%d] (H%d): tile must be A..L", h, h + 1);
        if (tiles >> t & 1) FAIL("harbours[%d] (H%d): harbour tile %c is on two indents", h, h + 1, 'A' + t);
        if (sc < 0 || sc >= KS_NH) FAIL("harbours[%d] (H%d): scoring tile must be 1..12", h, h + 1);
        if (scores >> sc & 1) FAIL("harbours[%d] (H%d): scoring tile %d is on two harbours", h, h + 1, sc + 1);
        tiles |= 1 << t; scores |= 1 << sc;
        if (x[2] != 0 && x[2] != 1) FAIL("harbours[%d] (H%d): red must be true or false", h, h + 1);
        if (c->scoring != 2 && x[2] != c->scoring)
            FAIL("harbours[%d] (H%d): the game uses the %s side of every scoring tile", h, h + 1, c->scoring ? "red" : "black");
        if (x[3] < -1 || x[3] >= KC_N || x[4] < -1 || x[4] >= KC_N) FAIL("harbours[%d] (H%d): unknown colour", h, h + 1);
        if (x[5] != 0 && x[5] != 1) FAIL("harbours[%d] (H%d): resolved must be true or false", h, h + 1);
        if (x[6] < 0 || x[7] < 0 || ((x[6] || x[7]) && !solo))
            FAIL("harbours[%d] (H%d): pirates and Keytoma keyples are only in the solo game", h, h + 1);
        if (x[6] > 12 || x[7] > 18) FAIL("harbours[%d] (H%d): %d pirates and %d Keytoma keyples", h, h + 1, x[6], x[7]);
        s->htile[h] = (int8_t)t; s->hscore[h] = (int8_t)sc; s->hred[h] = (int8_t)x[2];
        s->sailor[h] = (int8_t)x[3]; s->hcol[h] = (int8_t)x[4]; s->resolved[h] = (int8_t)x[5];
        s->pir[h] = (int8_t)x[6]; s->kt_kp[h] = (int8_t)x[7];
    }
    for (int h = 0; h < KS_NH; h++, x += 5) {
        int nd = x[0];
        if (nd < 0 || nd > c->hdice[(int)s->htile[h]])
            FAIL("harbours[%d] (H%d): tile %c has %d dice spaces, got %d dice", h, h + 1, 'A' + s->htile[h], c->hdice[(int)s->htile[h]], nd);
        if (nd && !play) FAIL("harbours[%d] (H%d): no dice are on the harbours before the reveal", h, h + 1);
        if (nd && s->hcol[h] < 0) FAIL("harbours[%d] (H%d): the colour of its dice is missing", h, h + 1);
        if (!nd && (s->sailor[h] >= 0 || s->resolved[h]))
            FAIL("harbours[%d] (H%d): a sailor or a resolved harbour needs the dice that landed there", h, h + 1);
        if (nd && s->sailor[h] >= 0 && s->sailor[h] != s->hcol[h])
            FAIL("harbours[%d] (H%d): the sailor is %s but the dice are %s", h, h + 1, KS_COLOUR[(int)s->sailor[h]], KS_COLOUR[(int)s->hcol[h]]);
        if (nd && !solo && s->sailor[h] < 0) FAIL("harbours[%d] (H%d): the lead die brings a sailor", h, h + 1);
        if (!nd) s->hcol[h] = -1;
        s->ndice[h] = (int8_t)nd;
        for (int i = 0; i < nd; i++) {
            int o = x[1 + i];
            if (!((o >= 0 && o < P) || (solo && o == KS_KT_MARK)))
                FAIL("harbours[%d] (H%d): dice owner must be a seat%s", h, h + 1, solo ? " or Keytoma" : "");
            if (i == 0 && o == KS_KT_MARK && s->sailor[h] >= 0)
                FAIL("harbours[%d] (H%d): Keytoma lands without a sailor", h, h + 1);
            s->dice_p[h][i] = (int8_t)o;
        }
    }
    /* --- boats --- */
    s->nboats = (int8_t)(P == 2 ? 2 : 3);
    int at_mask = 0;
    for (int b = 0; b < 3; b++, x += 2) {
        if (b >= s->nboats) {
            if (x[0] != -1) FAIL("boats: %d players sail %d boats", P, s->nboats);
            continue;
        }
        if (x[0] < 0 || x[0] >= KS_NH) FAIL("boats[%d]: harbour must be 1..12", b);
        if (at_mask >> x[0] & 1) FAIL("boats[%d]: two boats at harbour H%d", b, x[0] + 1);
        at_mask |= 1 << x[0];
        if (x[1] < 0 || x[1] > 0x3f) FAIL("boats[%d]: unknown sailors", b);
        s->boat_at[b] = (int8_t)x[0]; s->boat_sailors[b] = (uint8_t)x[1];
    }
    for (int col = 0; col < KC_N; col++) {
        int k = 0;
        for (int b = 0; b < s->nboats; b++) k += s->boat_sailors[b] >> col & 1;
        for (int h = 0; h < KS_NH; h++) k += s->sailor[h] == col;
        if (k > s->nboats || (!solo && k != s->nboats))
            FAIL("boats: %d %s sailors on the boats and harbours, the game has %d%s", k, KS_COLOUR[col], s->nboats,
                 solo ? "" : " (every boat is refilled each year)");
    }
    /* --- headlands --- */
    int hl_seen[KS_MAXP] = {0};
    for (int sp = 0; sp < KS_NH; sp++, x += 3) {
        int t = x[0], o = x[1];
        if (t < -1 || t > KS_LANDSLIDE || (t == KS_LANDSLIDE && !solo))
            FAIL("headlands[%d]: tile must be A..F%s", sp, solo ? " or a landslide" : "");
        if (t < 0) continue;
        if (t == KS_LANDSLIDE) { s->hl_tile[sp] = KS_LANDSLIDE; s->hl_owner[sp] = KS_PIRATE; continue; }
        if (o < 0 || o >= P) FAIL("headlands[%d]: the owner must be a seat", sp);
        if (x[2] != 0 && x[2] != 1) FAIL("headlands[%d]: it faces one of its two harbours", sp);
        if (hl_seen[o] >> t & 1) FAIL("headlands[%d]: P%d has one headland %c, it is on two spaces", sp, o, 'A' + t);
        hl_seen[o] |= 1 << t;
        s->hl_tile[sp] = (int8_t)t; s->hl_owner[sp] = (int8_t)o; s->hl_orient[sp] = (int8_t)x[2];
    }
    /* --- markets --- */
    int mk = 0;
    for (int m = 0; m < KS_NM; m++, x += 2) {
        if (x[0] < 0 || x[0] >= KS_NM) FAIL("markets[%d] (M%d): unknown market tile", m, m + 1);
        if (mk >> x[0] & 1) FAIL("markets[%d] (M%d): market %s is on two locations", m, m + 1, KS_MARKET[x[0]]);
        if (x[1] != 0 && x[1] != 1) FAIL("markets[%d] (M%d): side must be top or reverse", m, m + 1);
        mk |= 1 << x[0];
        s->mk_tile[m] = (int8_t)x[0]; s->mk_side[m] = (int8_t)x[1];
    }
    /* --- resource locations --- */
    int kinds = 0, pirate_claim = 0;
    for (int r = 0; r < KS_NR; r++, x += 7) {
        int k = x[0];
        if (k < 0 || k > KR_WHEATF) FAIL("resource_locations[%d] (R%d): a farm 1..5 or a field", r, r + 1);
        if (kinds >> k & 1) {
            if (k < KS_NFARM) FAIL("resource_locations[%d] (R%d): farm %d is on two locations", r, r + 1, k + 1);
            FAIL("resource_locations[%d] (R%d): the %s is on two locations", r, r + 1, FIELD_NAME[k - KR_FOREST]);
        }
        kinds |= 1 << k;
        s->rl_kind[r] = (int8_t)k;
        if (x[2] != 0 && x[2] != 1) FAIL("resource_locations[%d] (R%d): pirates must be true or false", r, r + 1);
        if (x[2] && !solo) FAIL("resource_locations[%d] (R%d): pirates claim locations only in the solo game", r, r + 1);
        if (x[2]) { s->rl_owner[r] = KS_PIRATE; pirate_claim |= 1 << r; }
        if (k >= KR_FOREST) {
            if (x[1] != 0 || x[3] != -1 || x[4] != -1 || x[5] != -1 || x[6] != -1)
                FAIL("resource_locations[%d] (R%d): a field has no side and no animals", r, r + 1);
            continue;
        }
        if (x[1] != 0 && x[1] != 1) FAIL("resource_locations[%d] (R%d): farm side must be a or b", r, r + 1);
        s->farm_side[k] = (int8_t)x[1];
        for (int i = 0; i < 4; i++) {
            if (x[3 + i] < -1 || x[3 + i] > KG_SHEEP) FAIL("resource_locations[%d] (R%d): animal %d must be a cow, pig, sheep or none", r, r + 1, i + 1);
            s->farm_animal[k][i] = (int8_t)x[3 + i];
        }
    }
    for (int a = 0; a < KS_NR; a++)
        for (int b = 0; b < KS_NR; b++)
            if (a != b && s->rl_kind[a] >= KR_FOREST && s->rl_kind[b] >= KR_FOREST && (c->rnb[a] >> b & 1))
                FAIL("resource_locations: the fields at R%d and R%d are neighbours (setup puts them apart)", a + 1, b + 1);
    for (int k = 0; k < 3; k++, x++) {
        if (*x < 0 || *x > 3 * P) FAIL("field_tokens: the %s has 0..%d tokens, got %d", FIELD_NAME[k], 3 * P, *x);
        s->field_tokens[k] = (int8_t)*x;
    }
    for (int col = 0; col < KC_N; col++, x++) {
        if (*x < 0 || *x > 3) FAIL("skill_stacks: %s has 0..3 tiles left, got %d", KS_COLOUR[col], *x);
        s->skill_left[col] = (int8_t)*x;
    }
    if (*x < 0 || *x >= (1 << 24)) FAIL("cottages_available: unknown cottage");
    s->cottages = (uint32_t)*x++;
    int bag[3];
    for (int k = 0; k < 3; k++, x++) {
        if (*x < 0 || *x > (solo ? 6 : 12)) FAIL("gem_bag: %s 0..%d, got %d", KS_GOOD[KG_GEM0 + k], solo ? 6 : 12, *x);
        bag[k] = *x;
    }
    /* --- solo: Keytoma --- */
    {
        int8_t kd[KC_N];
        int any = 0;
        for (int col = 0; col < KC_N; col++) { kd[col] = (int8_t)(x[col] < 0 || x[col] > 6 ? 7 : x[col]); any |= x[col] != 0; }
        int left = x[6], strips = x[7];
        if (!solo) {
            if (any || left || strips) FAIL("keytoma: only in the solo game");
            for (int k = 0; k < 6; k++) if (x[8 + k] != -1) FAIL("flags and beacons: only in the solo game");
        } else {
            if (play && !perm6(kd)) FAIL("keytoma dice: the six values 1..6 of its dice strip");
            if (!play && (any || left)) FAIL("keytoma dice: Keytoma takes its dice strip after the reveal");
            if (left < 0 || left > 0x3f) FAIL("keytoma dice_left: unknown colour");
            if (strips < 0 || strips > 15) FAIL("keytoma strips_left: strips 1..4");
            for (int f = 0; f < 3; f++)
                if (x[8 + f] < 0 || x[8 + f] >= KS_NH) FAIL("flags[%d]: harbour must be 1..12", f);
            for (int b = 0; b < 3; b++)
                if (x[11 + b] < 0 || x[11 + b] > 5) FAIL("beacons[%d]: beacon %c1..%c6", b, 'A' + b, 'A' + b);
            if (play) memcpy(s->kt_die, kd, KC_N);
            s->kt_left = (uint8_t)left; s->kt_strips = (uint8_t)strips; s->kt_set = (uint8_t)play;
            for (int f = 0; f < 3; f++) s->flag_at[f] = (int8_t)x[8 + f];
            for (int b = 0; b < 3; b++) s->beacon[b] = (int8_t)x[11 + b];
        }
        x += KC_N + 2 + 6;
    }
    /* --- seats --- */
    /* Secret dice are set one seat after another from the start player (solo: you alone). */
    int setter = solo ? 0 : (s->turn - s->start + P) % P;
    int skill_held[KC_N][3] = {{0}}, strips_used = 0, built = 0, gems[3] = {0, 0, 0};
    for (int p = 0; p < P; p++, x += KS_SEAT_INTS) {
        KsPlayer *pl = &s->pl[p];
        int placed = 0;
        if (x[0] < 0 || x[0] > 18) FAIL("seats[%d].mat: 0..18 keyples, got %d", p, x[0]);
        for (int l = 0; l < KS_NLOC; l++) {
            int k = x[1 + l];
            if (k < 0 || k > 18) FAIL("seats[%d].keyples: 0..18 at one location, got %d", p, k);
            pl->kp[l] = (int8_t)k;
            placed += k;
        }
        if (x[0] + placed + (s->red_i == p) != 18)
            FAIL("seats[%d]: every player has 18 keyples, got %d (mat %d, placed %d%s)", p, x[0] + placed + (s->red_i == p),
                 x[0], placed, s->red_i == p ? ", red space 1" : "");
        pl->mat = (int8_t)x[0];
        for (int m = 0; m < KS_NM; m++)
            if (pl->kp[KS_M(m)] > 1) FAIL("seats[%d].keyples: one keyple per player in market M%d", p, m + 1);
        const int32_t *gd = x + 1 + KS_NLOC;
        for (int k = 0; k < KG_N; k++) {
            if (gd[k] < 0 || gd[k] > 120) FAIL("seats[%d].goods: %s 0..120, got %d", p, KS_GOOD[k], gd[k]);
            pl->goods[k] = (int8_t)gd[k];
        }
        for (int k = 0; k < 3; k++) gems[k] += gd[KG_GEM0 + k];
        const int32_t *lv = gd + KG_N;
        for (int col = 0; col < KC_N; col++) {
            if (lv[col] < 0 || lv[col] > 4) FAIL("seats[%d].tracks: %s 0..4, got %d", p, KS_COLOUR[col], lv[col]);
            pl->level[col] = (int8_t)lv[col];
        }
        const int32_t *sk = lv + KC_N;
        for (int col = 0; col < KC_N; col++)
            for (int t = 0; t < 3; t++) {
                static const int VAL[3] = {5, 3, 1};
                int k = sk[col * 3 + t];
                if (k < 0 || k > 1) FAIL("seats[%d].skill_tiles: one %s %d tile exists", p, KS_COLOUR[col], VAL[t]);
                if (k && t >= 3 - s->skill_left[col])
                    FAIL("seats[%d].skill_tiles: %s %d is still on the stack (skill_stacks)", p, KS_COLOUR[col], VAL[t]);
                if (k && skill_held[col][t]++) FAIL("seats[%d].skill_tiles: another seat holds %s %d", p, KS_COLOUR[col], VAL[t]);
                pl->skill[col][t] = (int8_t)k;
            }
        const int32_t *bd = sk + 18;
        for (int col = 0; col < KC_N; col++) {
            int l = bd[col];
            if (l < -1 || l >= 24 || (l >= 0 && l / 4 != col))
                FAIL("seats[%d].buildings: the %s plot takes a cottage %c..%c", p, KS_COLOUR[col], 'A' + 4 * col, 'A' + 4 * col + 3);
            if (l >= 0 && (built >> l & 1)) FAIL("seats[%d].buildings: cottage %c is built twice", p, 'A' + l);
            if (l >= 0 && (s->cottages >> l & 1)) FAIL("seats[%d].buildings: cottage %c is built, it is not available", p, 'A' + l);
            if (l >= 0) built |= 1 << l;
            pl->building[col] = (int8_t)l;
        }
        int house = bd[KC_N], hl = bd[KC_N + 1];
        if (house < 0 || house > 0x3f) FAIL("seats[%d].buildings: unknown house", p);
        for (int col = 0; col < KC_N; col++)
            if ((house >> col & 1) && pl->building[col] < 0) FAIL("seats[%d].buildings: a %s house needs its cottage", p, KS_COLOUR[col]);
        if (hl < 0 || hl > 0x3f) FAIL("seats[%d].headlands_built: letters A..F", p);
        if (hl_seen[p] & ~hl) FAIL("seats[%d].headlands_built: a headland of P%d is on the island but not built", p, p);
        pl->house = (uint8_t)house; pl->hl_built = (uint8_t)hl;
        const int32_t *dc = bd + KC_N + 2;
        int dleft = dc[KC_N], nset = dc[KC_N + 1], strip = dc[KC_N + 2];
        if (dleft < 0 || dleft > 0x3f) FAIL("seats[%d].dice_left: unknown colour", p);
        if (strip < -1 || strip > 3) FAIL("seats[%d].strip: dice strip 1..4 or none", p);
        if (strip >= 0 && !c->dice_strips && !solo) FAIL("seats[%d].strip: the game is played without dice strips", p);
        if (strip < 0 && c->dice_strips && !solo) FAIL("seats[%d].strip: every player holds a dice strip", p);
        if (strip >= 0 && (strips_used >> strip & 1)) FAIL("seats[%d].strip: dice strip %d is held twice", p, strip + 1);
        if (strip >= 0 && solo && (s->kt_strips >> strip & 1)) FAIL("seats[%d].strip: dice strip %d is Keytoma's", p, strip + 1);
        if (strip >= 0) strips_used |= 1 << strip;
        pl->strip = (int8_t)strip;
        for (int col = 0; col < KC_N; col++) pl->die[col] = (int8_t)(dc[col] < 0 || dc[col] > 6 ? 7 : dc[col]);
        if (play) {
            if (!perm6(pl->die)) FAIL("seats[%d].dice: the six dice show 1..6, one value each", p);
            if (nset != KC_N) FAIL("seats[%d].dice_set: all six dice are set in play", p);
            pl->dice_left = (uint8_t)dleft;
        } else {
            int rel = solo ? 0 : (p - s->start + P) % P;
            int want_set = setter > rel ? KC_N : setter == rel ? -1 : 0;
            if (nset < 0 || nset > KC_N) FAIL("seats[%d].dice_set: 0..6 dice", p);
            if (want_set >= 0 && nset != want_set)
                FAIL("seats[%d].dice_set: dice are set in turn order from the start player, P%d %s", p, p,
                     want_set ? "has set all six" : "has set none yet");
            if (want_set < 0 && nset == KC_N) FAIL("seats[%d].dice_set: the seat setting its dice has not set all six", p);
            if (dleft != 0x3f) FAIL("seats[%d].dice_left: all six dice are left before the reveal", p);
            int used = 0;
            for (int col = 0; col < KC_N; col++) {
                int dv = pl->die[col], known = p == v && col < nset;
                if (!known && dv != 0)
                    FAIL("seats[%d].dice: %s", p, p == v ? "give exactly the dice set so far, in colour order" : "another seat's dice are hidden before the reveal");
                if (known && (dv < 1 || dv > 6 || (used >> dv & 1))) FAIL("seats[%d].dice: each die shows a different value 1..6", p);
                if (known) used |= 1 << dv;
            }
            pl->dice_left = 0x3f;
        }
        pl->n_set = (int8_t)nset;
    }
    /* Dice set from a strip are public: years 1-2 with the strips, and Keytoma's every year. */
    if (play && c->dice_strips && !solo && year < 3)
        for (int p = 0; p < P; p++)
            if (memcmp(s->pl[p].die, c->strip[(int)s->pl[p].strip][year - 1], KC_N))
                FAIL("seats[%d].dice: in year %d they are dice strip %d's %s side", p, year, s->pl[p].strip + 1,
                     year == 1 ? "light" : "deep");
    if (play && solo) {
        int found = 0;
        for (int k = 0; k < 4; k++)
            for (int sd = 0; sd < 2; sd++)
                found |= !(s->kt_strips >> k & 1) && k != s->pl[0].strip && !memcmp(s->kt_die, c->strip[k][sd], KC_N);
        if (!found) FAIL("keytoma dice: not a side of a dice strip Keytoma has taken (strips_left)");
    }
    if (!solo && (s->cottages | (uint32_t)built) != (1u << 24) - 1)
        FAIL("cottages_available: a cottage neither built nor available (only Keytoma removes cottages)");
    for (int k = 0; k < 3; k++)
        if (gems[k] + bag[k] > (solo ? 6 : 12))
            FAIL("gem_bag: %d %s held and %d in the bag, the game has %d", gems[k], KS_GOOD[KG_GEM0 + k], bag[k], solo ? 6 : 12);
    /* --- dice on harbours (values from their owners' dice) --- */
    uint8_t on_h[KS_MAXP] = {0}, kt_on = 0;
    for (int h = 0; h < KS_NH; h++) {
        int col = s->hcol[h];
        for (int i = 0; i < s->ndice[h]; i++) {
            int o = s->dice_p[h][i];
            uint8_t *seen = o == KS_KT_MARK ? &kt_on : &on_h[o];
            uint8_t left = o == KS_KT_MARK ? s->kt_left : s->pl[o].dice_left;
            if (*seen >> col & 1) FAIL("harbours[%d] (H%d): %s's %s die is on two harbours", h, h + 1, who(o, wb), KS_COLOUR[col]);
            if (left >> col & 1) FAIL("harbours[%d] (H%d): %s's %s die is there, so it is not in dice_left", h, h + 1, who(o, wb), KS_COLOUR[col]);
            *seen |= (uint8_t)(1u << col);
            s->dice_v[h][i] = o == KS_KT_MARK ? s->kt_die[col] : s->pl[o].die[col];
            if (!solo && i > 0 && s->dice_v[h][i] > s->dice_v[h][0])
                FAIL("harbours[%d] (H%d): %s followed with %d, higher than the lead die %d", h, h + 1, who(o, wb), s->dice_v[h][i], s->dice_v[h][0]);
        }
    }
    /* --- keyples against the island --- */
    for (int h = 0; h < KS_NH; h++) {
        int k = s->kt_kp[h] + s->pir[h], cap = c->hkeys[(int)s->htile[h]];
        for (int p = 0; p < P; p++) k += s->pl[p].kp[KS_H(h)];
        if (k > cap) FAIL("harbours[%d] (H%d): %d keyples%s, tile %c has %d spaces", h, h + 1, k, solo ? " and pirates" : "", 'A' + s->htile[h], cap);
    }
    int kt_total = 0;
    for (int h = 0; h < KS_NH; h++) kt_total += s->kt_kp[h];
    if (kt_total > 18) FAIL("keytoma keyples: Keytoma has 18 keyples, %d are on harbours", kt_total);
    s->kt_supply = (int8_t)(18 - kt_total);
    for (int r = 0; r < KS_NR; r++) {
        int k = 0, o = -1;
        for (int p = 0; p < P; p++) if (s->pl[p].kp[KS_R(r)]) { k += s->pl[p].kp[KS_R(r)]; o = p; }
        if (k > 1) FAIL("resource_locations[%d] (R%d): one keyple claims a location, got %d", r, r + 1, k);
        if (k && (pirate_claim >> r & 1)) FAIL("resource_locations[%d] (R%d): claimed by pirates and by P%d", r, r + 1, o);
        int kind = s->rl_kind[r];
        if (k && kind >= KR_FOREST && s->field_tokens[kind - KR_FOREST] > 0)
            FAIL("resource_locations[%d] (R%d): P%d's keyple is on the %s, which still has tokens", r, r + 1, o, FIELD_NAME[kind - KR_FOREST]);
        if (k) s->rl_owner[r] = (int8_t)o;
    }
    /* --- harbour I and the start player --- */
    int hi = ks_harbour_loc_of_tile(s, 8);
    if (s->i_resolver >= 0 && !s->resolved[hi]) FAIL("next_start_player: harbour I (H%d) is not resolved yet", hi + 1);
    if (s->i_resolver < 0 && s->resolved[hi]) FAIL("next_start_player: harbour I (H%d) is resolved: who resolved it takes the start player marker", hi + 1);
    /* --- the gem bag (its order is dealt below) --- */
    s->bag_n = 0;
    for (int k = 0; k < 3; k++) for (int i = 0; i < bag[k]; i++) s->bag[(int)s->bag_n++] = (int8_t)k;
    /* --- the flow --- */
    s->strips_left = (uint8_t)(15 & ~strips_used);
    s->alloc_item = -1;
    s->ntask = 0;
    if (!play) {
        s->phase = KP_DICE;
        s->turn = -1;
        s->setter = (int8_t)setter;
        s->revealed = 0;
        if (solo && d[4] != 0) FAIL("turn: you set your dice; Keytoma takes a dice strip after the reveal");
    } else {
        s->phase = KP_PLAY;
        s->setter = (int8_t)P;
        s->revealed = 1;
    }
    BLRng r;
    bl_rng_seed(&r, seed ^ 0x6b5u);
    if (bl_keyside_vtable.determinize(g, vst, v, &r) != 0) FAIL("position: no deal agrees with these facts");
    bl_rng_seed(&s->rng, seed);
    if (play) {
        ks_begin_turn(c, s);
        ks_settle(c, s);
        if (s->year != year || s->phase != KP_PLAY)
            FAIL("turn: nothing is left for %s to do and the year ends; enter the next year's position",
                 solo && d[4] == KS_KT ? "Keytoma" : (snprintf(wb, sizeof wb, "P%d", d[4]), wb));
    }
    return 0;
}
