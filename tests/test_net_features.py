"""The network's input (kernel/<game>/features.c, docs/learning.md): written by the kernel
from a state for one seat, and a function of that seat's observation alone, so a network
reading it never sees a card the seat may not know."""

import numpy as np
import pytest

import boardlab
from boardlab.nets.features import feature_size, features
from conftest import decision_states, game_cases

#: Every game's kernel writes features.
FEATURED = ("keyside", "kitsu", "kyushu", "nukumi")


def _featured_cases():
    return [c for c in game_cases() if c.values[0][0] in FEATURED]


def _obs(state, seat):
    # the kernel's text of state.observation(seat): one writer, its keys always in one
    # order, so equal observations are equal texts (not decoded and encoded again)
    return state._core.observe_json(seat)


def test_every_game_writes_features():
    assert set(boardlab.games_available()) == set(FEATURED)
    for name in FEATURED:
        assert feature_size(boardlab.make(name)) > 0, name


@pytest.mark.parametrize("case", _featured_cases())
def test_features_are_a_function_of_the_seats_observation(case):
    """Over seeded random games: every seat's features of a state equal those of several
    determinizations from that seat's view (same observation), and any two states with
    equal observations have equal features. The features do read the seat's private
    cards: resampling them (a determinization from another seat) changes them somewhere."""
    name, params = case
    game = boardlab.make(name, **params)
    size = feature_size(game)
    assert 0 < size <= 4096
    seen: dict[str, np.ndarray] = {}
    private_moves = 0
    checked = 0
    for g in range(12):
        for k, state in enumerate(decision_states(game, 1000 + g, 300, watched=True)):
            for seat in range(game.num_players):
                f = features(state, seat)
                assert f.dtype == np.float32 and f.shape == (size,) and np.isfinite(f).all()
                obs = _obs(state, seat)
                if obs in seen:
                    assert np.array_equal(seen[obs], f), "equal observations, different features"
                seen[obs] = f
                if state.is_terminal() or k % 3:
                    continue
                for s in range(2):
                    d = state.determinize(seat, 7919 * k + 31 * seat + s)
                    assert _obs(d, seat) == obs
                    assert np.array_equal(features(d, seat), f), (
                        f"seat {seat}'s features changed when only what it cannot see was resampled")
                    checked += 1
                other = (seat + 1) % game.num_players
                private_moves += not np.array_equal(features(state.determinize(other, k), seat), f)
    assert checked > 200
    # (Solo: no other seat, so nothing of the seat's is hidden from anyone.)
    assert private_moves > 0 or game.num_players == 1, "features never read the seat's own hidden cards"
    # Different observations are told apart almost always (compact, but not blind).
    distinct = {f.tobytes() for f in seen.values()}
    assert len(distinct) > 0.9 * len(seen)
