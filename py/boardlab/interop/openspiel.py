"""Every boardlab game as an OpenSpiel game (pyspiel's Python game API).

Needs the optional extra ``boardlab[openspiel]`` (package ``open_spiel``).

>>> from boardlab.interop import openspiel as bos          # doctest: +SKIP
>>> game = bos.load_game("kitsu", players=2)                # doctest: +SKIP
>>> import pyspiel; pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)  # doctest: +SKIP

Each boardlab game ``<name>`` is registered once as ``boardlab_<name>`` with
its parameters (``pyspiel.load_game("boardlab_kitsu", {"players": 2})`` works
after :func:`register`). The mapping:

* current player: the seat, ``pyspiel.PlayerId.CHANCE`` or ``TERMINAL``;
* chance: ``chance_outcomes()`` from the kernel (dealing, draws are explicit);
* returns: the kernel's final returns (terminal rewards only);
* hidden information: ``information_state_string(p)`` and
  ``observation_string(p)`` are the JSON of ``state.observation(p)`` (what p
  knows, with perfect recall inside a deal); observation / information-state
  tensors are :mod:`boardlab.interop.tensors` of that dict (shared with the
  PettingZoo adapter; one encoder per game, layout in docs/tensors.md);
* ``resample_from_infostate(p, sampler)``: our ``determinize(p, seed)`` with a
  seed drawn from ``sampler`` - what OpenSpiel's Python ISMCTS
  (``open_spiel.python.algorithms.ismcts``) needs to determinize.

A note on OpenSpiel's C++ ``pyspiel.ISMCTSBot``: in open_spiel 2.0.2 the C++
side of a Python state does not forward ``ResampleFromInfostate`` to Python
(the trampoline class has no override for it), so ``pyspiel.ISMCTSBot`` raises
``ResampleFromInfostate() not implemented`` on any Python game (and its
``step`` crashes the interpreter). ``bench/openspiel_bridge`` builds a small C++
module against the wheel's headers and ``pyspiel.so`` that runs the same C++
``ISMCTSBot`` with ``SetResampler`` (not exposed to Python) calling back into
this adapter's determinization; ``bench/vs_openspiel.py`` uses it.
"""
from __future__ import annotations

import json

import numpy as np

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("boardlab.interop.openspiel needs OpenSpiel: "
                      'pip install "boardlab[openspiel]"  (or: pip install open_spiel)') from e

import boardlab
from boardlab import games as _games
from boardlab.interop import tensors as _tensors

__all__ = ["register", "load_game", "short_name", "BoardlabGame", "BoardlabState"]

#: Upper bound on a game's length in actions (chance included), per game.
MAX_GAME_LENGTH = {"kitsu": 20000}
_DEFAULT_MAX_LENGTH = 100000

_registered: dict[str, pyspiel.GameType] = {}


def short_name(name: str) -> str:
    """OpenSpiel name of the boardlab game ``name``."""
    return f"boardlab_{name}"


# --- observer ---------------------------------------------------------------------------------
class _Observer:
    """pyspiel Python observer: string = JSON of the seat's observation dict,
    tensor = :mod:`boardlab.interop.tensors` of it (the game's encoder)."""

    def __init__(self, bl_game):
        self._game = bl_game
        self.tensor = np.zeros(_tensors.tensor_size(bl_game), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        obs = json.loads(state._c.observe_json(player))
        self.tensor[:] = _tensors.encode(self._game, obs)

    def string_from(self, state, player):
        return state._c.observe_json(player)


# --- game and state ---------------------------------------------------------------------------
class BoardlabGame(pyspiel.Game):
    """A boardlab game seen through OpenSpiel's Game API."""

    def __init__(self, name: str, params=None):
        gtype = _registered[name]
        spec = dict(gtype.parameter_specification)
        given = {k: v for k, v in dict(params or {}).items()}
        unknown = set(given) - set(spec)
        if unknown:
            raise ValueError(f"unknown parameter(s) {sorted(unknown)} for {short_name(name)}")
        full = {**spec, **given}
        self.bl_game = boardlab.make(name, **full)
        core = self.bl_game._core
        info = pyspiel.GameInfo(
            num_distinct_actions=int(core.num_actions),
            max_chance_outcomes=int(core.num_actions),
            num_players=int(core.num_players),
            min_utility=-1.0, max_utility=1.0, utility_sum=None,
            max_game_length=MAX_GAME_LENGTH.get(name, _DEFAULT_MAX_LENGTH))
        super().__init__(gtype, info, full)
        self._name = name

    def new_initial_state(self):
        return BoardlabState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer(self.bl_game)


class BoardlabState(pyspiel.State):
    """A boardlab state seen through OpenSpiel's State API. Its only Python
    attribute is ``_c`` (the kernel state, copied with one memcpy on clone)."""

    #: Called with every new state when set (bench/openspiel_bridge uses it to
    #: find the Python side of states created by OpenSpiel's C++ code).
    _on_new = None

    def __init__(self, game: BoardlabGame):
        super().__init__(game)
        self._c = game.bl_game._core.new_state(0)
        if BoardlabState._on_new is not None:
            BoardlabState._on_new(self)

    # OpenSpiel's clone deep-copies __dict__: CoreState.__deepcopy__ is a memcpy.
    def current_player(self):
        p = self._c.current_player()
        if p == boardlab.CHANCE:
            return pyspiel.PlayerId.CHANCE
        if p == boardlab.TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return p

    def _legal_actions(self, player):
        return [int(a) for a in self._c.legal_actions()]

    def chance_outcomes(self):
        acts, probs = self._c.chance_outcomes()
        return [(int(a), float(p)) for a, p in zip(acts, probs) if p > 0]

    def _apply_action(self, action):
        self._c.apply(int(action))

    def _action_to_string(self, player, action):
        return self._c.action_to_string(int(action))

    def is_terminal(self):
        return self._c.current_player() == boardlab.TERMINAL

    def returns(self):
        return [float(r) for r in self._c.returns()]

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state from ``player_id``'s information set: the kernel's
        determinization, seeded from ``probability_sampler()`` (a uniform in [0, 1))."""
        seed = int(float(probability_sampler()) * (1 << 53))
        out = self.clone()
        out._c = self._c.determinize(int(player_id), seed)
        return out

    def __str__(self):
        return self._c.observe_json(-1)


# --- registration -----------------------------------------------------------------------------
def _game_type(name: str) -> pyspiel.GameType:
    module = _games.get(name)
    spec = {k: v for k, v in module.DEFAULTS.items()}
    players = [spec.get("players", 2)]
    sets = getattr(module, "PARAMETER_SETS", None) or []
    counts = [p.get("players") for p in sets if "players" in p] or players
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"boardlab {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec)


def _factory_init(name):
    def __init__(self, params=None):
        BoardlabGame.__init__(self, name, params)
    return __init__


def register(names=None) -> list[str]:
    """Register boardlab games with OpenSpiel (all by default; idempotent).
    Returns the OpenSpiel short names."""
    out = []
    for name in (names or list(_games.GAMES)):
        if name not in _registered:
            gtype = _game_type(name)
            _registered[name] = gtype
            # A class (not a lambda) as the factory: OpenSpiel's registry keeps it
            # until the C++ statics die, after the interpreter; a class sits in a
            # reference cycle, so it is never freed there without the GIL.
            factory = type(f"BoardlabGame_{name}", (BoardlabGame,),
                           {"__init__": _factory_init(name), "__module__": __name__})
            pyspiel.register_game(gtype, factory)
        out.append(short_name(name))
    return out


def load_game(name: str, **params) -> BoardlabGame:
    """The OpenSpiel game for boardlab game ``name`` with ``params``
    (registering it first if needed)."""
    register([name])
    return pyspiel.load_game(short_name(name), params)
