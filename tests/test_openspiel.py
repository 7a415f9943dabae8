"""The OpenSpiel adapter (boardlab.interop.openspiel): skipped when open_spiel is
not installed, unless CI is set (then its absence is a failure)."""
import os

import numpy as np
import pytest

if os.environ.get("CI"):
    import pyspiel  # noqa: F401  - in CI the extra must be installed
else:
    pyspiel = pytest.importorskip("pyspiel")

import boardlab  # noqa: E402
from boardlab.interop import openspiel as bos  # noqa: E402


def _cases():
    import boardlab.games
    out = []
    for name in boardlab.games_available():
        module = boardlab.games.get(name)
        for params in getattr(module, "PARAMETER_SETS", None) or [{}]:
            out.append(pytest.param(name, params, id=f"{name}-" + ",".join(
                f"{k}={v}" for k, v in params.items())))
    return out


@pytest.mark.parametrize("name, params", _cases())
def test_random_sim_test(name, params):
    """Every game and parameter set passes OpenSpiel's generic simulation test (one whole
    random game each, every state checked for every seat; the rules themselves are
    test_conformance.py's, over many games)."""
    game = bos.load_game(name, **params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_registered_names_and_parameters():
    names = bos.register()
    assert "boardlab_kitsu" in names
    game = pyspiel.load_game("boardlab_kitsu", {"players": 2})
    assert game.num_players() == 2
    assert game.num_distinct_actions() == boardlab.make("kitsu", players=2).num_actions
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def _first_decision(game, seed=3):
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        acts, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(acts, p=np.array(probs) / sum(probs))))
    return state


def test_matches_boardlab_state():
    game = bos.load_game("kitsu", players=2)
    state = _first_decision(game)
    bl = boardlab.make("kitsu", players=2).new_initial_state()
    for a in state.history():
        bl.apply(a)
    assert state.current_player() == bl.current_player
    assert state.legal_actions() == [int(a) for a in bl.legal_actions()]
    seat = state.current_player()
    import json
    assert json.loads(state.information_state_string(seat)) == bl.observation(seat)
    assert len(state.observation_tensor(seat)) == len(state.information_state_tensor(seat)) > 0
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.history() != clone.history() and state.legal_actions() == bl.legal_actions().tolist()


def test_resample_from_infostate_keeps_the_infostate_and_varies_the_rest():
    game = bos.load_game("kitsu", players=2)
    state = _first_decision(game)
    seat = state.current_player()
    other = 1 - seat
    key = state.information_state_string(seat)
    seen = set()
    rng = np.random.default_rng(0)
    for _ in range(8):
        r = state.resample_from_infostate(seat, lambda: float(rng.random()))
        assert r.information_state_string(seat) == key
        seen.add(r.information_state_string(other))
    assert len(seen) > 1


def test_openspiel_python_ismcts_runs_on_the_adapter():
    from open_spiel.python.algorithms import ismcts, mcts
    game = bos.load_game("kitsu", players=2)
    state = _first_decision(game)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), 1.0,
                           max_simulations=30, random_state=np.random.RandomState(2))
    assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize("name", ["kitsu", "kyushu"])
def test_tensors_are_the_shared_ones(name):
    """Observation and information-state tensors are boardlab.interop.tensors of the seat's view."""
    from boardlab.interop import tensors
    game = bos.load_game(name, players=2)
    assert game.get_type().provides_observation_tensor
    state = _first_decision(game)
    bl = boardlab.make(name, players=2).new_initial_state()
    for a in state.history():
        bl.apply(a)
    for seat in range(2):
        want = tensors.observation_tensor(bl, seat)
        assert np.allclose(state.observation_tensor(seat), want)
        assert np.allclose(state.information_state_tensor(seat), want)
