/* Keyside: the network's input, what one seat knows (docs/learning.md, "Keyside").
 *
 * Almost everything in Keyside is public: what a seat may not know is the dice
 * another seat set secretly before the reveal (and how far it got setting
 * them) and the gem bag's order (its contents are public). Seats are numbered
 * from the seat (0 itself) in 4 slots; owners that are not seats get slots of
 * their own (Keytoma, the pirates). Only what observe(seat) shows is read.
 */
#include <assert.h>
#include <string.h>
#include "keyside.h"
#include "../common/featw.h"

#define CST(p) ((const KsState *)(p))

/* What task_json shows of a task's arguments, by kind: a, b (a value), b (yes/no), c (yes/no). */
enum { SA = 1, SB = 2, SBOOL = 4, SC = 8 };
static const uint8_t SHOWN[KT_N] = {
    [KT_FOLLOW] = SA, [KT_HEADLANDS] = SA, [KT_MOVEIN] = SA, [KT_KPIRFARM] = SA, [KT_KCLAIM] = SA,
    [KT_KYELLOW] = SA, [KT_ADVANCE] = SA, [KT_LEVEL] = SA | SB, [KT_BUILD] = SA | SB | SC,
    [KT_HEAD] = SA | SB | SC, [KT_FARM] = SA, [KT_MOVE] = SA | SBOOL, [KT_TRADE] = SA, [KT_EXCH] = SA,
    [KT_RECRUIT] = SA, [KT_PAY] = SA, [KT_ORDER] = SA, [KT_BENEFIT] = SA | SB | SC, [KT_KEFFECT] = SA | SB,
    [KT_KFOLLOW] = SA | SBOOL, [KT_KFARM] = SA, [KT_KREMOVE] = SA,
};

enum {
    OWN = KS_MAXP + 2,                 /* owner slots: 4 seats, Keytoma, the pirates */
    KF_GLOBAL = 4 + 3 + 2 + 1 + 4 + 2 + 1 + OWN * 3 + (OWN + 2) + 10,
    KF_TASK = KT_N + OWN + 3 + KT_N,   /* top task, whose, its arguments; pending kinds */
    KF_DIE = OWN + 1,
    KF_HARBOUR = KS_NH + 1 + 1 + KC_N + KC_N + 1 + KS_MAXP * KF_DIE + KS_MAXP + 2,
    KF_BOAT = KS_NH + KC_N,
    KF_HEAD = 7 + OWN + 1,
    KF_MARKET = 8 + 1 + 1 + KS_MAXP + 1,
    KF_RLOC = 8 + OWN + 1 + 1 + 4 * 3,
    KF_SEAT = 2 + KG_N + KS_NR + KC_N + KC_N * 3 + KC_N * 3 + 6 + 5 + 1 + KC_N + KC_N + 1,
    KF_SOLO = KC_N + KC_N + 1 + 4 + 3 * KS_NH + 3 * 2,
    KF_SIZE = KF_GLOBAL + KF_TASK + KS_NH * KF_HARBOUR + 3 * KF_BOAT + KS_NH * KF_HEAD
            + KS_NM * KF_MARKET + KS_NR * KF_RLOC + KC_N + 24 + 4 + KS_MAXP * KF_SEAT + KF_SOLO
};

int ks_feature_size(const BLGame *g) { (void)g; return KF_SIZE; }

/* Slot of an owner or a participant: a seat (relative), Keytoma, the pirates; -1 none. */
static int owner(const KsConfig *c, int x, int me) {
    if (x >= 0 && x < c->players) return bl_rel_seat(x, me, c->players);
    if (x == KS_KT_MARK || (c->solo && x == KS_KT)) return KS_MAXP;
    if (x == KS_PIRATE) return KS_MAXP + 1;
    return -1;
}

void ks_features(const BLGame *g, const void *vst, int me, float *out) {
    const KsConfig *c = KS_CFG(g);
    const KsState *s = CST(vst);
    int P = c->players;
    BLFeatW w = {out};
    memset(out, 0, KF_SIZE * sizeof(float));
    /* Global: configuration, phase (the set-up steps look alike), year, seats. */
    bl_fw_one_hot(&w, P - 1, 4);
    bl_fw_one_hot(&w, c->scoring, 3);
    bl_fw_put(&w, (float)c->first_game);
    bl_fw_put(&w, (float)c->dice_strips);
    bl_fw_put(&w, (float)c->solo);
    bl_fw_one_hot(&w, s->phase < KP_DICE ? 0 : s->phase - KP_DICE + 1, 4);
    bl_fw_put(&w, (s->year > 3 ? 3 : s->year) / 3.0f);
    bl_fw_put(&w, (float)s->trigger);
    bl_fw_put(&w, (float)(s->phase == KP_PLAY ? s->ntask : 0) / 10.0f);
    bl_fw_one_hot(&w, owner(c, s->start, me), OWN);
    bl_fw_one_hot(&w, owner(c, s->turn, me), OWN);
    bl_fw_one_hot(&w, owner(c, s->i_resolver, me), OWN);
    int cp = g->vt->current_player(g, vst);
    bl_fw_one_hot(&w, cp >= 0 ? owner(c, cp, me) : (cp == BL_CHANCE ? OWN : OWN + 1), OWN + 2);
    bl_fw_one_hot(&w, s->alloc_item, KG_N);
    /* The task on top (kind, whose, the arguments shown), the kinds of those pending. */
    if (s->phase == KP_PLAY && s->ntask) {
        const KsTask *t = &s->task[s->ntask - 1];
        int sh = SHOWN[(int)t->kind];
        w.p[t->kind] = 1.0f;
        int o = owner(c, t->p, me);
        if (o >= 0) w.p[KT_N + o] = 1.0f;
        float *a = w.p + KT_N + OWN;
        if (sh & SA) a[0] = (t->a + 1) / 24.0f;
        if (sh & SB) a[1] = t->b / 6.0f;
        if (sh & SBOOL) a[1] = t->b ? 1.0f : 0.0f;
        if (sh & SC) a[2] = t->c ? 1.0f : 0.0f;
        for (int i = 0; i < s->ntask - 1; i++) w.p[KT_N + OWN + 3 + s->task[i].kind] += 0.5f;
    }
    w.p += KF_TASK;
    /* Harbours: tile, scoring number, red side, sailor, dice colour, resolved, the
     * dice (owner, value), keyples per seat, Keytoma's keyples and pirates. */
    for (int h = 0; h < KS_NH; h++, w.p += KF_HARBOUR) {
        float *q = w.p;
        if (s->htile[h] >= 0) q[s->htile[h]] = 1.0f;
        q += KS_NH;
        *q++ = (s->hscore[h] + 1) / 12.0f;
        *q++ = (float)s->hred[h];
        if (s->sailor[h] >= 0) q[s->sailor[h]] = 1.0f;
        q += KC_N;
        if (s->hcol[h] >= 0 && s->ndice[h] > 0) q[s->hcol[h]] = 1.0f;
        q += KC_N;
        *q++ = (float)s->resolved[h];
        for (int i = 0; i < KS_MAXP; i++, q += KF_DIE) {
            if (i >= s->ndice[h]) continue;
            int o = owner(c, s->dice_p[h][i], me);
            if (o >= 0) q[o] = 1.0f;
            q[OWN] = s->dice_v[h][i] / 6.0f;
        }
        for (int r = 0; r < P; r++) q[r] = s->pl[(me + r) % P].kp[KS_H(h)] / 3.0f;
        q += KS_MAXP;
        if (c->solo) { q[0] = s->kt_kp[h] / 3.0f; q[1] = s->pir[h] / 3.0f; }
    }
    /* Boats: where, which sailors. */
    for (int b = 0; b < 3; b++, w.p += KF_BOAT) {
        if (b >= s->nboats) continue;
        w.p[(int)s->boat_at[b]] = 1.0f;
        for (int col = 0; col < KC_N; col++) w.p[KS_NH + col] = (float)(s->boat_sailors[b] >> col & 1);
    }
    /* Headland spaces: tile (or a landslide), owner, the way it faces. */
    for (int sp = 0; sp < KS_NH; sp++, w.p += KF_HEAD) {
        int t = s->hl_tile[sp];
        if (t < 0) continue;
        w.p[t == KS_LANDSLIDE ? 6 : t] = 1.0f;
        if (t == KS_LANDSLIDE) continue;
        int o = owner(c, s->hl_owner[sp], me);
        if (o >= 0) w.p[7 + o] = 1.0f;
        w.p[7 + OWN] = (float)s->hl_orient[sp];
    }
    /* Markets: tile, side, to flip, keyples per seat, activated by me this turn. */
    for (int m = 0; m < KS_NM; m++, w.p += KF_MARKET) {
        if (s->mk_tile[m] < 0) continue;
        w.p[(int)s->mk_tile[m]] = 1.0f;
        w.p[8] = (float)s->mk_side[m];
        w.p[9] = (float)(s->mk_used >> m & 1);
        for (int r = 0; r < P; r++) w.p[10 + r] = s->pl[(me + r) % P].kp[KS_M(m)] / 3.0f;
        w.p[10 + KS_MAXP] = (float)(s->mk_act[me] >> m & 1);
    }
    /* Resource locations: farm or field, owner, field tokens, farm side, animals per icon. */
    for (int r = 0; r < KS_NR; r++, w.p += KF_RLOC) {
        int k = s->rl_kind[r];
        if (k < 0) continue;
        w.p[k] = 1.0f;
        int o = owner(c, s->rl_owner[r], me);
        if (o >= 0) w.p[8 + o] = 1.0f;
        if (k >= KR_FOREST) { w.p[8 + OWN] = s->field_tokens[k - KR_FOREST] / 4.0f; continue; }
        w.p[8 + OWN + 1] = (float)s->farm_side[k];
        for (int i = 0; i < 4; i++) {
            int an = s->farm_animal[k][i];
            if (an >= 0 && an < 3) w.p[8 + OWN + 2 + 3 * i + an] = 1.0f;
        }
    }
    for (int col = 0; col < KC_N; col++) bl_fw_put(&w, s->skill_left[col] / 3.0f);
    for (int l = 0; l < 24; l++) bl_fw_put(&w, (float)(s->cottages >> l & 1));
    int gems[3] = {0, 0, 0};
    for (int i = 0; i < s->bag_n; i++) gems[(int)s->bag[i]]++;
    bl_fw_put(&w, s->bag_n / 36.0f);
    for (int i = 0; i < 3; i++) bl_fw_put(&w, gems[i] / 12.0f);
    /* Per seat, mine first. Another seat's dice only once revealed (and how many it
     * has set only once done), as the observation shows them. */
    for (int r = 0; r < KS_MAXP; r++, w.p += KF_SEAT) {
        if (r >= P) continue;
        int q = (me + r) % P;
        const KsPlayer *pl = &s->pl[q];
        float *f = w.p;
        *f++ = pl->mat / 5.0f;
        *f++ = pl->kp[KS_TOWN] / 5.0f;
        for (int k = 0; k < KG_N; k++) *f++ = pl->goods[k] / 5.0f;
        for (int k = 0; k < KS_NR; k++) *f++ = pl->kp[KS_R(k)] / 3.0f;
        for (int col = 0; col < KC_N; col++) *f++ = pl->level[col] / 4.0f;
        for (int col = 0; col < KC_N; col++)
            for (int t = 0; t < 3; t++) *f++ = (float)pl->skill[col][t];
        for (int col = 0; col < KC_N; col++) {
            *f++ = pl->building[col] >= 0 ? 1.0f : 0.0f;
            *f++ = pl->building[col] >= 0 ? (pl->building[col] + 1) / 24.0f : 0.0f;
            *f++ = (float)(pl->house >> col & 1);
        }
        for (int t = 0; t < 6; t++) *f++ = (float)(pl->hl_built >> t & 1);
        if (pl->strip >= 0 && pl->strip < 4) f[pl->strip] = 1.0f;
        else f[4] = 1.0f;
        f += 5;
        int show = q == me || s->revealed;
        *f++ = (show || pl->n_set == KC_N ? pl->n_set : 0) / 6.0f;
        for (int col = 0; col < KC_N; col++) *f++ = show ? pl->die[col] / 6.0f : 0.0f;
        for (int col = 0; col < KC_N; col++) *f++ = (float)(pl->dice_left >> col & 1);
        KsScore sc;
        ks_score(c, s, q, s->alloc_item, &sc);
        *f++ = sc.total / 100.0f;
        assert(f - w.p == KF_SEAT);
    }
    /* Solo: Keytoma's dice (public), dice left, supply, strips left, the flags, the beacons. */
    if (c->solo) {
        float *f = w.p;
        for (int col = 0; col < KC_N; col++) *f++ = s->kt_die[col] / 6.0f;
        for (int col = 0; col < KC_N; col++) *f++ = (float)(s->kt_left >> col & 1);
        *f++ = s->kt_supply / 10.0f;
        for (int k = 0; k < 4; k++) *f++ = (float)(s->kt_strips >> k & 1);
        for (int i = 0; i < 3; i++, f += KS_NH) if (s->flag_at[i] >= 0) f[(int)s->flag_at[i]] = 1.0f;
        int lit = s->beacon[0] >= 0 ? ks_beacons(c, s, s->alloc_item) : 0;
        for (int b = 0; b < 3; b++) {
            *f++ = s->beacon[b] >= 0 ? (s->beacon[b] + 1) / 6.0f : 0.0f;
            *f++ = s->beacon[b] >= 0 ? (float)(lit >> b & 1) : 0.0f;
        }
        assert(f - w.p == KF_SOLO);
    }
    w.p += KF_SOLO;
    assert(w.p - out == KF_SIZE);
}
