"""Observation tensors (boardlab.interop.tensors), shared by the OpenSpiel and
PettingZoo adapters: fixed size, built from the seat's own observation only."""
import numpy as np
import pytest

import boardlab
from boardlab.interop import tensors
from conftest import game_cases, random_action


def _decisions(game, seed, limit=400):
    """Decision states of one random game (at most ``limit``)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed=seed)
    out = []
    while not state.is_terminal() and len(out) < limit:
        if not state.is_chance():
            out.append(state.clone())
        state.apply(random_action(state, rng))
    out.append(state)
    return out


@pytest.mark.parametrize("case", game_cases())
def test_fixed_size_and_finite(case):
    name, params = case
    game = boardlab.make(name, **params)
    size = tensors.tensor_size(game)
    for state in _decisions(game, 1)[::7]:
        for seat in range(game.num_players):
            t = tensors.observation_tensor(state, seat)
            assert t.dtype == np.float32 and t.shape == (size,)
            assert np.isfinite(t).all()


@pytest.mark.parametrize("case", game_cases())
def test_tensor_depends_only_on_what_the_seat_knows(case):
    """Resampling everything a seat cannot know leaves its tensor unchanged,
    while the other seats' tensors do change somewhere in a game."""
    name, params = case
    game = boardlab.make(name, **params)
    changed = False
    for k, state in enumerate(_decisions(game, 2)[:-1:5]):
        seat = state.current_player
        mine = tensors.observation_tensor(state, seat)
        other = (seat + 1) % game.num_players
        for seed in range(3):
            d = state.determinize(seat, 100 * k + seed)
            assert np.array_equal(tensors.observation_tensor(d, seat), mine)
            changed |= not np.array_equal(tensors.observation_tensor(d, other),
                                          tensors.observation_tensor(state, other))
    if game.num_players > 1:      # a solo game has no other seat to see a difference
        assert changed, "no determinization ever changed another seat's tensor"


def test_games_with_their_own_encoder():
    assert tensors.has_encoder("kitsu") and tensors.has_encoder("kyushu")


def test_generic_fallback_is_stable_and_seat_specific():
    """The hashed fallback (games without an encoder) gives equal tensors for
    equal observations and different ones for different seats' views."""
    game = boardlab.make("kitsu", players=4)
    state = _decisions(game, 3)[5]
    a = tensors.generic_tensor(state.observation(0))
    assert a.shape == (tensors.GENERIC_SIZE,) and a.any()
    assert np.array_equal(a, tensors.generic_tensor(state.observation(0)))
    assert not np.array_equal(a, tensors.generic_tensor(state.observation(1)))
