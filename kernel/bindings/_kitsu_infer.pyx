# cython: language_level=3
"""Kitsu inference from play: put a given hand in a world (kernel/kitsu/kitsu.h).

Used by boardlab.games.kitsu_inference to ask how likely another seat's past
move was had it held a given hand. Only ever applied to a determinization (a
world sampled from the searching seat's view), never to a real game state.
"""
from boardlab._core cimport CoreState, BLGame

cdef extern from "kitsu/kitsu.h" nogil:
    int kitsu_set_hand(const BLGame *g, void *st, int seat, const int *counts) noexcept
    int kitsu_world_hand(const BLGame *g, const void *st, int seat, int *counts) noexcept


cdef CoreState _kitsu(world, int seat):
    if not isinstance(world, CoreState):
        raise TypeError("expected a Kitsu CoreState")
    cdef CoreState cs = <CoreState>world
    if cs.st == NULL or cs.game is None or cs.game.name != "kitsu":
        raise ValueError("expected a Kitsu state")
    if not 0 <= seat < cs.game.num_players:
        raise ValueError(f"seat must be in [0, {cs.game.num_players}), got {seat}")
    return cs


def world_hand(world, int seat):
    """(counts of each card type in `seat`'s hand, type of its face-down card in the
    current trick or -1) in `world` -- a determinization, never a real state."""
    cdef CoreState cs = _kitsu(world, seat)
    cdef int c[15]
    cdef int hidden = kitsu_world_hand(cs.game.g, cs.st, seat, c)
    return [c[i] for i in range(15)], hidden


def set_hand(world, int seat, counts):
    """Give `seat` exactly counts[t] cards of type t (15 entries) from its hand and
    the stock of `world`; returns False (world unchanged) if they are not there."""
    cdef CoreState cs = _kitsu(world, seat)
    cdef int c[15]
    cdef int i
    if len(counts) != 15:
        raise ValueError("counts: one entry per card type (15)")
    for i in range(15):
        c[i] = counts[i]
    return kitsu_set_hand(cs.game.g, cs.st, seat, c) == 0
