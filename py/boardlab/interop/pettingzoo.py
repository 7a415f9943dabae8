"""Every boardlab game as a PettingZoo AEC environment.

Needs the optional extra ``boardlab[pettingzoo]`` (package ``pettingzoo``).

>>> from boardlab.interop.pettingzoo import env        # doctest: +SKIP
>>> e = env("kitsu", players=4)                         # doctest: +SKIP
>>> e.reset(seed=1)                                     # doctest: +SKIP
>>> for agent in e.agent_iter():                        # doctest: +SKIP
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

The mapping (like PettingZoo's classic environments):

* agents ``player_0 .. player_{n-1}`` are the seats; ``agent_selection`` is
  the seat to move. Chance (deals, draws, the first leader) is resolved inside
  the environment from a NumPy generator seeded by ``reset(seed=...)``: same
  seed, same game for the same actions.
* ``observe(agent)`` is ``{"observation": tensor, "action_mask": int8 mask}``:
  the seat's tensor from :mod:`boardlab.interop.tensors` (built from
  ``state.observation(seat)``, so only what that seat knows; layout in
  docs/tensors.md) and the
  legal actions of the seat to move (all zeros for the others).
* actions are the kernel's action ids in ``[0, game.num_actions)``; an illegal
  one raises :class:`boardlab.IllegalActionError` and changes nothing.
* rewards come once, at the end: the kernel's final returns (in Kitsu both
  seats of a clan get the clan's reward). Games always end; there is no
  truncation.
* ``game_state`` is the boardlab :class:`~boardlab.State` (for search agents
  such as :func:`boardlab.search.ismcts`, which read only the searching seat's
  information set from it).
"""
from __future__ import annotations

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("boardlab.interop.pettingzoo needs PettingZoo: "
                      'pip install "boardlab[pettingzoo]"  (or: pip install pettingzoo)') from e

import boardlab
from boardlab.interop import tensors as _tensors

__all__ = ["env", "raw_env", "BoardlabEnv", "agent_name"]


def agent_name(seat: int) -> str:
    """The PettingZoo agent name of a seat."""
    return f"player_{seat}"


class BoardlabEnv(AECEnv):
    """A boardlab game as an AEC environment; build one with :func:`env`."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game: str, render_mode: str | None = None, **params):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, "
                             f"got {render_mode!r}")
        self.game = boardlab.make(game, **params)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"boardlab_{game}_v0"}
        n = self.game.num_players
        self.possible_agents = [agent_name(p) for p in range(n)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        size = _tensors.tensor_size(self.game)
        # Tensors are finite floats; their range differs per game and per field.
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._state = None

    # -- spaces ---------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def game_state(self) -> "boardlab.State":
        """The boardlab state of the running game (None before reset)."""
        return self._state

    # -- the episode ----------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game; ``seed`` re-seeds the chance generator (None: keep
        drawing from the current one)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._state = self.game.new_initial_state(seed=int(self._rng.integers(0, 2**63)))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._play_chance()
        self.agent_selection = agent_name(self._state.current_player)

    def _play_chance(self) -> None:
        """Resolve chance nodes with the environment's generator."""
        s = self._state
        while s.is_chance():
            actions, probs = zip(*s.chance_outcomes())
            p = np.asarray(probs, dtype=np.float64)
            s.apply(int(actions[int(self._rng.choice(len(actions), p=p / p.sum()))]))

    def observe(self, agent):
        seat = self._seat[agent]
        mask = np.zeros(self.game.num_actions, np.int8)
        if self._state.current_player == seat:
            mask[self._state.legal_actions()] = 1
        return {"observation": _tensors.observation_tensor(self._state, seat), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._state.apply(action)            # IllegalActionError names the legal actions
        self._play_chance()
        if self._state.is_terminal():
            returns = self._state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                self.terminations[a] = True
        else:
            self.agent_selection = agent_name(self._state.current_player)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- display --------------------------------------------------------------
    def render(self):
        """The board as the seat to move sees it (text); ``human`` prints it."""
        if self.render_mode is None:
            return None
        seat = self._seat[self.agent_selection]
        text = self.game._module.render(self._state.observation(seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def raw_env(game: str, render_mode: str | None = None, **params) -> BoardlabEnv:
    """The environment without PettingZoo's checking wrappers."""
    return BoardlabEnv(game, render_mode=render_mode, **params)


def env(game: str, render_mode: str | None = None, **params):
    """Game ``game`` with ``params`` (the game's defaults otherwise) as an AEC
    environment, wrapped in PettingZoo's order-enforcing wrapper."""
    from pettingzoo.utils import wrappers
    return wrappers.OrderEnforcingWrapper(raw_env(game, render_mode=render_mode, **params))
