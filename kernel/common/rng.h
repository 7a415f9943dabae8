/* xoshiro256** — the one RNG of the kernel. Every state carries its own
 * generator (as the first member of the state struct), so clones replay the
 * same future and separate streams (game, determinization, search) never mix. */
#ifndef BL_RNG_H
#define BL_RNG_H
#include <stdint.h>

typedef struct { uint64_t s[4]; } BLRng;

static inline uint64_t bl_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* Seeding through splitmix64 guarantees a non-zero state for any seed. */
static inline void bl_rng_seed(BLRng *r, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) r->s[i] = bl_splitmix64(&x);
}
static inline uint64_t bl_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t bl_rng_next(BLRng *r) {
    uint64_t *s = r->s;
    uint64_t result = bl_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = bl_rotl(s[3], 45);
    return result;
}
/* Uniform integer in [0, n), n > 0 (Lemire's multiply-shift; the bias is
 * below 2^-32 for the small n used here). */
static inline uint32_t bl_rng_below(BLRng *r, uint32_t n) {
    return (uint32_t)(((bl_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}
/* Uniform double in [0, 1). */
static inline double bl_rng_double(BLRng *r) {
    return (double)(bl_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
