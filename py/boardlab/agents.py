"""Agents: one protocol for every player, human-free.

An agent has a ``name``, ``step(state) -> action`` (the action for the seat to
move; agents are never asked at chance nodes) and ``analyse(state) ->
SearchResult | None``. An agent decides only from what its seat may know:
apart from its own legal actions, everything it looks at comes from
``state.determinize(seat, ...)``, never from the hidden part of ``state``.

>>> agent = make_agent("ismcts:200", seed=1)
>>> agent.name
'ismcts:200'
>>> make_agent("greedy").name
'greedy'
"""
from __future__ import annotations

import numbers
import re
import time
from typing import Optional

import numpy as np

from .errors import brief_repr
from .search import SearchResult, check_budget, check_infer, check_options, core_of, ismcts

__all__ = ["Agent", "RandomAgent", "GreedyAgent", "ISMCTSAgent", "OpenHandsAgent", "make_agent",
           "sees_hidden_information"]

_MASK64 = (1 << 64) - 1


def _seat_to_move(state) -> int:
    seat = int(core_of(state).current_player())
    if seat < 0:
        raise ValueError("agents decide only at decision nodes, not at "
                         + ("chance nodes" if seat == -1 else "terminal states"))
    return seat


def _ply(state) -> int:
    """Number of moves the seat to move has seen so far, used to vary seeds per move.
    Counted on the seat's own view of the history: the raw length would tell it how
    many hidden steps other seats took (e.g. terraforming inside a hidden Map turn)."""
    seen = getattr(state, "observed_history", None)
    if seen is None:
        return 0
    return len(seen(_seat_to_move(state)))


def _check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an integer in [0, 2**64), got {brief_repr(seed)}")
    return int(seed)


class Agent:
    """Base class: ``name``, ``step(state)``, ``analyse(state)``."""
    name = "agent"
    #: True only for agents that look at the hidden part of the state (the
    #: open-hands searcher): never allowed to play a seat, only to be measured.
    sees_hidden_information = False

    def step(self, state) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    def analyse(self, state) -> Optional[SearchResult]:
        return None

    def __repr__(self) -> str:
        return f"make_agent({self.name!r})"


class _SeededAgent(Agent):
    """An agent with its own random stream; setting ``seed`` restarts it."""

    @property
    def seed(self) -> int:
        return self._seed

    @seed.setter
    def seed(self, value: int) -> None:
        self._seed = _check_seed(value)
        self._rng = np.random.default_rng(self._seed)


class RandomAgent(_SeededAgent):
    """Uniformly random legal action (its own legal actions are known to it)."""

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.name = "random"

    def step(self, state) -> int:
        _seat_to_move(state)
        legal = core_of(state).legal_actions()
        return int(legal[int(self._rng.integers(len(legal)))])


class GreedyAgent(_SeededAgent):
    """One-ply heuristic: the action whose resulting position ``evaluate()``
    likes best for the mover, averaged over a few determinizations from the
    mover's seat (ties broken at random)."""

    def __init__(self, seed: int = 0, determinizations: int = 8):
        if isinstance(determinizations, bool) or not isinstance(determinizations, numbers.Integral) \
                or determinizations < 1:
            raise ValueError(f"determinizations must be an integer >= 1, got {determinizations!r}")
        self.determinizations = int(determinizations)
        self.seed = seed
        self.name = "greedy"

    def action_values(self, state) -> dict[int, float]:
        """Mean heuristic value for the mover of each legal action."""
        seat = _seat_to_move(state)
        core = core_of(state)
        legal = [int(a) for a in core.legal_actions()]
        totals = dict.fromkeys(legal, 0.0)
        for _ in range(self.determinizations):
            world = core.determinize(seat, int(self._rng.integers(1 << 63)))
            for a in legal:
                nxt = world.clone()
                nxt.apply(a)
                totals[a] += float(nxt.evaluate()[seat])
        return {a: v / self.determinizations for a, v in totals.items()}

    def _choose(self, values: dict) -> int:
        best = max(values.values())
        ties = [a for a, v in values.items() if v >= best - 1e-12]
        return ties[int(self._rng.integers(len(ties)))] if len(ties) > 1 else ties[0]

    def step(self, state) -> int:
        return self._choose(self.action_values(state))

    def analyse(self, state) -> SearchResult:
        """The one-ply values as a SearchResult (``visits`` = determinizations
        per action, ``mean`` = mean heuristic value for the mover)."""
        t0 = time.perf_counter()
        seat = _seat_to_move(state)
        core = core_of(state)
        values = self.action_values(state)
        best = self._choose(values)
        n, k = self.determinizations, len(values)
        stats = [{"action": a, "move": core.action_to_string(a), "visits": n,
                  "mean": float(v), "win_prob": (float(v) + 1.0) / 2.0, "share": 1.0 / k,
                  "availability": n} for a, v in sorted(values.items())]
        return SearchResult(best_action=int(best), stats=stats, iterations=n * k,
                            seconds=time.perf_counter() - t0,
                            principal_variation=[(seat, core.action_to_string(best))],
                            player=seat, seed=self.seed)


class ISMCTSAgent(Agent):
    """SO-ISMCTS with a budget of ``iterations`` or ``seconds`` per move.

    The search seed of a move is derived from the agent's seed and the number
    of moves already played, so a game replays identically.
    """

    def __init__(self, iterations: Optional[int] = None, seconds: Optional[float] = None,
                 seed: int = 0, c: Optional[float] = None, rollout_depth: Optional[int] = None,
                 threads: int = 1,
                 final: str = "visits", bias: float = 0.0, infer: int = 0,
                 net: Optional[str] = None, cpuct: Optional[float] = None,
                 mix: Optional[float] = None, late: Optional[str] = None):
        if iterations is None and seconds is None:
            iterations = 1000
        # The search's own checks, now rather than at the first move.
        self.iterations, self.seconds = check_budget(iterations, seconds)
        self.seed = _check_seed(seed)
        opts = check_options(c=c, rollout_depth=rollout_depth, threads=threads, final=final,
                             bias=bias, cpuct=cpuct, mix=mix, late=late)
        (self.c, self.rollout_depth, self.threads, self.final, self.bias, self.cpuct, self.mix,
         self.late) = (opts[k] for k in ("c", "rollout_depth", "threads", "final", "bias",
                                         "cpuct", "mix", "late"))
        if net is not None and (not isinstance(net, str) or not net.strip()):
            raise ValueError(f"net must be 'default' or the path of a network file, got {brief_repr(net)}")
        if net is None and (self.cpuct is not None or self.mix is not None
                            or self.late is not None):
            raise ValueError("cpuct, mix and late are options of the guided search: give net= too")
        if net is not None and self.bias:
            raise ValueError("bias: not with net= (the network's prior takes its place)")
        # The network is loaded (and checked against the game) at the first move: a
        # spec names no game.
        self.net = None if net is None else net.strip()
        self.infer = check_infer(infer, self.sees_hidden_information)
        budget = f"{self.iterations}" if self.iterations is not None else f"{self.seconds:g}s"
        opts = []
        if self.c is not None:
            opts.append(f"c={self.c:g}")
        if self.rollout_depth is not None:
            opts.append(f"depth={self.rollout_depth}")
        if self.threads != 1:
            opts.append(f"threads={self.threads}")
        if self.final != "visits":
            opts.append(f"final={self.final}")
        if self.bias != 0.0:
            opts.append(f"bias={self.bias:g}")
        if self.infer:
            opts.append(f"infer={self.infer}")
        if self.net is not None:
            opts.append(f"net={self.net}")
        if self.cpuct is not None:
            opts.append(f"cpuct={self.cpuct:g}")
        if self.mix is not None:
            opts.append(f"mix={self.mix:g}")
        if self.late is not None:
            opts.append(f"late={self.late}")
        self.name = ":".join([f"ismcts:{budget}"] + opts)

    def analyse(self, state) -> SearchResult:
        _seat_to_move(state)
        move_seed = (self.seed * 0x9E3779B97F4A7C15 + _ply(state) * 0xBF58476D1CE4E5B9) & (_MASK64 >> 1)
        return ismcts(state, iterations=self.iterations, seconds=self.seconds, c=self.c,
                      rollout_depth=self.rollout_depth, seed=move_seed, threads=self.threads,
                      final=self.final, bias=self.bias, open_hands=self.sees_hidden_information,
                      infer=self.infer, net=self.net, cpuct=self.cpuct, mix=self.mix,
                      late=self.late)

    def step(self, state) -> int:
        legal = core_of(state).legal_actions()
        if len(legal) == 1:                 # nothing to think about (saves the time budget)
            _seat_to_move(state)
            return int(legal[0])
        return self.analyse(state).best_action


class OpenHandsAgent(ISMCTSAgent):
    """The open-hands searcher ("cheat:BUDGET[:options]"): the same search and options as
    ISMCTSAgent, on the TRUE state with every hand face up (``ismcts(open_hands=True)``).
    It SEES HIDDEN INFORMATION: it exists to measure what hidden information costs the
    real AI, and :func:`make_agent` builds it only when asked with ``allow_open_hands``."""
    sees_hidden_information = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.name = "cheat" + self.name[len("ismcts"):]


def sees_hidden_information(agent) -> bool:
    """Whether an agent (or an agent spec) looks at hidden information."""
    if isinstance(agent, str):
        s = agent.strip().lower()
        return s == "cheat" or s.startswith("cheat:")
    return bool(getattr(agent, "sees_hidden_information", False))


def check_fits(agent, game) -> None:
    """ValueError naming the fault when ``agent`` cannot play ``game`` (a boardlab.Game): a
    guided search whose network does not fit the game's configuration (``net=default``
    where none ships, a network of another game). Checked before a match or a game starts,
    so the error comes up front instead of at the agent's first move."""
    net = getattr(agent, "net", None)
    if net is not None:
        from .nets import load_net
        load_net(net, game)


_SPEC_HELP = ('agent spec must be "random", "greedy", "ismcts" (1000 iterations), '
              '"ismcts:N" (N iterations) or "ismcts:Xs" (X seconds)')
_OPTION_KEYS = {"c": "c", "depth": "rollout_depth", "rollout_depth": "rollout_depth",
                "threads": "threads", "final": "final", "bias": "bias", "infer": "infer",
                "net": "net", "cpuct": "cpuct", "mix": "mix", "late": "late"}
_REAL_OPTIONS = ("c", "bias", "cpuct", "mix")
# Numbers in a spec: ASCII digits only, and short enough for int() (whose digit
# limit would otherwise surface as its own ValueError); ranges are checked later.
_INT_VALUE = re.compile(r"[+-]?[0-9]{1,30}")
_REAL_VALUE = re.compile(r"[+-]?(?:[0-9]{1,30}\.?[0-9]{0,30}|\.[0-9]{1,30})(?:e[+-]?[0-9]{1,4})?")


def make_agent(spec: str, seed: int = 0, allow_open_hands: bool = False) -> Agent:
    """An agent from a short spec: "random", "greedy", "ismcts", "ismcts:1000"
    (iterations per move) or "ismcts:1.5s" (seconds per move), optionally
    followed by search options: "ismcts:1s:threads=2:c=0.5:depth=20:bias=1:final=robust".
    "net=default" (the network shipped for the game's configuration) or "net=PATH"
    (a network file; a path without ":") turns on the guided search, with its options
    "cpuct=", "mix=" and "late=" (docs/learning.md).

    >>> make_agent("ismcts:1.5s").seconds
    1.5
    "cheat:BUDGET[:options]" is the open-hands searcher (:class:`OpenHandsAgent`), which
    sees every hidden card: it is refused (ValueError) unless ``allow_open_hands=True``,
    so that it can never take a seat in play by accident.

    >>> make_agent("minimax")
    Traceback (most recent call last):
    ...
    ValueError: unknown agent spec 'minimax': agent spec must be "random", "greedy", "ismcts" (1000 iterations), "ismcts:N" (N iterations) or "ismcts:Xs" (X seconds)
    """
    if not isinstance(spec, str):
        raise ValueError(f"agent spec must be a string, got {brief_repr(spec)}")
    seed = _check_seed(seed)
    s = spec.strip().lower()
    if s == "random":
        return RandomAgent(seed=seed)
    if s == "greedy":
        return GreedyAgent(seed=seed)
    if sees_hidden_information(s):
        if not allow_open_hands:
            raise ValueError(f"agent spec {spec!r} is the open-hands searcher: it sees hidden "
                             f"information (every hand), so it may not play a seat; it is only "
                             f"for analysis and measurement (arena: --allow-open-hands)")
        base = make_agent("ismcts" + s[len("cheat"):], seed=seed)
        check_infer(base.infer, open_hands=True)
        return OpenHandsAgent(iterations=base.iterations, seconds=base.seconds, seed=seed,
                              c=base.c, rollout_depth=base.rollout_depth, threads=base.threads,
                              final=base.final, bias=base.bias, net=base.net, cpuct=base.cpuct,
                              mix=base.mix, late=base.late)
    if s in ("ismcts", "mcts"):
        return ISMCTSAgent(iterations=1000, seed=seed)
    m = re.fullmatch(r"(?:is)?mcts:(.+)", s)
    if m:
        budget, *options = [x.strip() for x in m.group(1).split(":")]
        # A network's path keeps its case: its value is read from the spec as given.
        given = [x.strip() for x in spec.strip().split(":")][2:]
        kwargs = {}
        for opt, opt_given in zip(options, given):   # ismcts:1s:c=0.5:threads=2:net=default
            key, eq, value = opt.partition("=")
            if not eq or key not in _OPTION_KEYS:
                raise ValueError(f"bad ismcts option {brief_repr(opt)} in agent spec "
                                 f"{brief_repr(spec)}: use c=, depth=, threads=, bias=, final=, "
                                 f"infer=, net=, cpuct=, mix= or late=")
            name = _OPTION_KEYS[key]
            if name in ("final", "late"):
                kwargs[name] = value
            elif name == "net":
                kwargs[name] = opt_given.partition("=")[2].strip()
            elif (_REAL_VALUE if name in _REAL_OPTIONS else _INT_VALUE).fullmatch(value):
                kwargs[name] = float(value) if name in _REAL_OPTIONS else int(value)
            else:
                raise ValueError(f"bad value {brief_repr(value)} for {key} in agent spec "
                                 f"{brief_repr(spec)}")
        if kwargs.get("final", "visits") not in ("visits", "robust", "mean"):
            raise ValueError(f"final must be visits, robust or mean in agent spec {brief_repr(spec)}")
        if re.fullmatch(r"[0-9]{1,30}", budget) and int(budget) >= 1:
            return ISMCTSAgent(iterations=int(budget), seed=seed, **kwargs)
        sm = re.fullmatch(r"([0-9]*\.?[0-9]+)\s*s", budget)
        if sm and float(sm.group(1)) > 0:
            return ISMCTSAgent(seconds=float(sm.group(1)), seed=seed, **kwargs)
        raise ValueError(f"bad ismcts budget {brief_repr(budget)} in agent spec {brief_repr(spec)}: "
                         f"use a positive iteration count (ismcts:1000) or seconds (ismcts:1.5s)")
    raise ValueError(f"unknown agent spec {brief_repr(spec)}: {_SPEC_HELP}")
