"""The PettingZoo adapter (boardlab.interop.pettingzoo): skipped when pettingzoo
is not installed, unless CI is set (then its absence is a failure)."""
import os

import numpy as np
import pytest

if os.environ.get("CI"):
    import pettingzoo  # noqa: F401  - in CI the test extra installs it
else:
    pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import boardlab  # noqa: E402
from boardlab.interop import pettingzoo as bpz  # noqa: E402
from boardlab.interop import tensors  # noqa: E402
from conftest import game_cases  # noqa: E402


def _play(env, seed, pick=None):
    """One episode with random legal actions (``pick(env, agent, obs)`` to choose
    otherwise); returns (actions, final accumulated reward per agent)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, total = [], {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] = total.get(agent, 0.0) + reward
        if term or trunc:
            env.step(None)
            continue
        a = pick(env, agent, obs) if pick else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(a)
        env.step(a)
    return actions, total


@pytest.mark.parametrize("case", game_cases())
def test_api_test(case):
    name, params = case
    api_test(bpz.env(name, **params), num_cycles=1000)


@pytest.mark.parametrize("case", game_cases())
def test_seed_test(case):
    name, params = case
    seed_test(lambda: bpz.env(name, **params), num_cycles=500)


@pytest.mark.parametrize("case", game_cases())
def test_seeds_decide_the_chance_and_rewards_are_the_final_returns(case):
    name, params = case
    env = bpz.raw_env(name, **params)
    a1, r1 = _play(env, 5)
    returns = env.game_state.returns()
    assert r1 == {bpz.agent_name(p): float(returns[p]) for p in range(env.game.num_players)}
    assert _play(env, 5) == (a1, r1)
    histories = set()
    for seed in range(4):
        env.reset(seed=seed)
        histories.add(tuple(env.game_state.history))
    assert len(histories) > 1, "different seeds dealt the same"


def test_kitsu_clans_share_their_reward():
    env = bpz.raw_env("kitsu", players=4)
    _, rewards = _play(env, 3)
    assert rewards["player_0"] == rewards["player_2"] == -rewards["player_1"] == -rewards["player_3"]
    assert rewards["player_0"] != 0


def test_observation_is_the_seats_tensor_and_mask_only_for_the_mover():
    env = bpz.raw_env("kyushu", players=3)
    env.reset(seed=2)
    for _ in range(30):
        mover = env.agent_selection
        seat = int(mover.split("_")[1])
        for agent in env.agents:
            obs = env.observe(agent)
            p = int(agent.split("_")[1])
            assert np.array_equal(obs["observation"],
                                  tensors.observation_tensor(env.game_state, p))
            if agent == mover:
                assert np.flatnonzero(obs["action_mask"]).tolist() == \
                    env.game_state.legal_actions().tolist()
            else:
                assert not obs["action_mask"].any()
        assert env.game_state.current_player == seat
        env.step(int(np.flatnonzero(env.observe(mover)["action_mask"])[0]))


def test_illegal_action_raises_and_changes_nothing():
    env = bpz.raw_env("kitsu", players=2)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = env.game_state.history
    with pytest.raises(boardlab.IllegalActionError, match="not legal here"):
        env.step(bad)
    assert env.game_state.history == before


def test_render_shows_the_movers_view():
    env = bpz.raw_env("kitsu", players=2, render_mode="ansi")
    env.reset(seed=0)
    seat = env.game_state.current_player
    assert env.render() == boardlab.games.get("kitsu").render(env.game_state.observation(seat))
    with pytest.raises(ValueError, match="render_mode"):
        bpz.raw_env("kitsu", render_mode="rgb")


def test_random_vs_ismcts_episode():
    """docs/python.md's example: seat 0 searches with ISMCTS, seat 1 plays at random."""
    from boardlab.search import ismcts

    def pick(env, agent, obs):
        if agent == "player_0":
            return ismcts(env.game_state, iterations=200, seed=1).best_action
        return int(np.random.default_rng(len(env.game_state.history)).choice(
            np.flatnonzero(obs["action_mask"])))

    env = bpz.env("kitsu", players=2)
    actions, rewards = _play(env, 4, pick)
    assert actions and set(rewards) == {"player_0", "player_1"}
