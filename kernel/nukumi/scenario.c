/* Nukumi: setting parts of a position directly, for the scenario tests only
 * (a rule's situation without playing a whole game to reach it). */
#include "nukumi.h"

int nk_debug_set(const BLGame *g, void *vst, int what, int p, int k, int value) {
    const NkConfig *c = NK_CFG(g);
    NkState *s = (NkState *)vst;
    int seat_ok = p >= 0 && p < c->players;
    switch (what) {
    case NKD_POOL:
        if (k < 0 || k >= NK_NRES || value < 0 || value > 80) return -1;
        s->pool[k] = (int8_t)value;
        return 0;
    case NKD_COINS:
        if (!seat_ok || value < 0 || value > 999) return -1;
        s->coins[p] = (int16_t)value;
        return 0;
    case NKD_POS:
        if (!seat_ok || k < 0 || k >= NK_NSQ) return -1;
        s->pos[p] = (int8_t)k;
        return 0;
    case NKD_FUN:
    case NKD_OISHI:
        if (!seat_ok || value < 0 || value > 5) return -1;
        (what == NKD_FUN ? s->fun : s->oishi)[p] = (int8_t)value;
        return 0;
    case NKD_DRAWN:
    case NKD_BAG:
        if (!seat_ok || k < 0 || k >= NK_NRES || value < 0 || value > 60) return -1;
        (what == NKD_DRAWN ? s->drawn : s->bag)[p][k] = (int8_t)value;
        return 0;
    case NKD_NUKU:
        if (k < 0 || k >= NK_NSQ || c->sq_kind[k] != SQ_NUKUMARU) return -1;
        s->nuku = (int8_t)k;
        return 0;
    case NKD_HAND:
    case NKD_PLAYED: {
        if (!seat_ok || k < 0 || k >= NK_NHELP) return -1;
        uint64_t bit = 1ull << k;
        s->deck &= ~bit; s->discard &= ~bit;
        for (int i = 0; i < 3; i++)
            if (s->hrow[i] == k) s->hrow[i] = -1;
        for (int i = 0; i < s->n_hbot; i++)
            if (s->hbot[i] == k) { for (int j = i + 1; j < s->n_hbot; j++) s->hbot[j - 1] = s->hbot[j]; s->n_hbot--; break; }
        for (int q = 0; q < c->players; q++) { s->hand[q] &= ~bit; s->played[q] &= ~bit; }
        if (what == NKD_HAND) s->hand[p] |= bit; else s->played[p] |= bit;
        return 0;
    }
    case NKD_BUILD:
        if (!seat_ok || k < 0 || k >= NK_NSQ || value < 0 || value >= NK_NBLD || c->sq_ribbon[k]
            || (s->built >> k & 1)) return -1;
        s->built |= 1ull << k;
        s->bld_type[k] = (int8_t)value;
        s->bld_owner[k] = (int8_t)p;
        s->bld_left[value]--;
        s->cubes[p]++;
        return 0;
    case NKD_LEFT:
        if (k < 0 || k >= NK_NBLD || value < 0 || value > 53) return -1;
        s->bld_left[k] = (int8_t)value;
        return 0;
    case NKD_CUBES:
        if (!seat_ok || value < 0 || value > NK_CUBES) return -1;
        s->cubes[p] = (int8_t)value;
        return 0;
    default:
        return -1;
    }
}
