/* Tiny bitboard vocabulary shared by every game (Stockfish-style helpers).
 * Masks are plain unsigned integers; a set bit is one component (a card id,
 * a square, ...). Everything is static inline so hot loops stay branch-light. */
#ifndef BL_BITBOARD_H
#define BL_BITBOARD_H
#include <stdint.h>

static inline int bb_popcount32(uint32_t b) { return __builtin_popcount(b); }
static inline int bb_popcount64(uint64_t b) { return __builtin_popcountll(b); }
/* Index of the lowest set bit; b must be non-zero. */
static inline int bb_lsb32(uint32_t b) { return __builtin_ctz(b); }
static inline int bb_lsb64(uint64_t b) { return __builtin_ctzll(b); }
/* Remove and return the lowest set bit; b must be non-zero. */
static inline int bb_pop_lsb32(uint32_t *b) { int i = __builtin_ctz(*b); *b &= *b - 1; return i; }
static inline int bb_pop_lsb64(uint64_t *b) { int i = __builtin_ctzll(*b); *b &= *b - 1; return i; }
static inline uint32_t bb_bit32(int i) { return (uint32_t)1u << i; }
static inline uint64_t bb_bit64(int i) { return (uint64_t)1u << i; }

#endif
