/* A cursor that writes a game's network features (kernel/<game>/features.c). */
#ifndef BL_FEATW_H
#define BL_FEATW_H

typedef struct { float *p; } BLFeatW;

static inline void bl_fw_put(BLFeatW *w, float v) { *w->p++ = v; }
/* n slots, a 1 at i (i < 0 or >= n: all zero, "none"). */
static inline void bl_fw_one_hot(BLFeatW *w, int i, int n) {
    for (int k = 0; k < n; k++) w->p[k] = k == i ? 1.0f : 0.0f;
    w->p += n;
}
/* Seat numbered from `me` (0 itself, 1 the next clockwise, ...); -1 for no seat. */
static inline int bl_rel_seat(int seat, int me, int players) {
    return seat < 0 || seat >= players ? -1 : (seat - me + players) % players;
}

#endif
