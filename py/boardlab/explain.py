"""Why one move beats another, measured in the game's own scoring categories (issue 56).

An explanation is measured, not written. From the seat's information set (its own
determinizations, never the true hidden state) each of the two moves is continued in
the same worlds, by the same fast policy, with the same chance draws, and the outcomes
are compared per scoring category of the game: Kitsu's current trick (taken by the
seat's clan or not), wisdom track, rounds and power tokens; Kyushu's score rows and
Most/Fewest; Keyside's scoring categories (harbours, buildings, ...) and solo beacons;
Nukumi's fun, oishi, coins, buildings and points.

>>> import boardlab
>>> from boardlab import explain
>>> state = boardlab.make("kyushu", players=2, seed=1).new_initial_state()
>>> while state.is_chance():
...     state.apply(state.chance_outcomes()[0][0])
>>> seat = state.current_player
>>> a, b = (int(x) for x in state.legal_actions()[:2])
>>> c = explain.compare_moves(state, seat, a, b, worlds=4, seed=0)
>>> sorted(c.categories)[:3]
['factories', 'forests', 'hot_springs']
>>> text = explain.explain_text(c, {a: "the first card", b: "the second card"})

Cost: the default policy ("rollout") is a small fixed-iteration ISMCTS per decision
(:data:`ROLLOUT_ITERATIONS`), reproducible because its seed is fixed; with the default
worlds an explanation of a mid-game position costs about a second on one core
(:data:`DEFAULT_WORLDS`: fewer worlds for Keyside and Nukumi, whose continuations are
longer; Keyside's policy also searches less per decision).
Kitsu is continued to the end of the current round (its natural horizon: the tricks of
this deal decide it), the other games to the end.

Every number of a :class:`Comparison` is reproducible from ``seed``; equal
observations of the seat give equal Comparisons.
"""
from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

import numpy as np

from . import _search
from .agents import make_agent
from .arena import _mix, draw
from .errors import CHANCE, TERMINAL, brief_repr
from .search import core_of, default_c, default_rollout_depth


__all__ = ["categories", "compare_moves", "explain_text", "Comparison", "CategoryDiff",
           "ROLLOUT_ITERATIONS", "DEFAULT_WORLDS"]

#: Iterations per decision of the default "rollout" policy, per game: a small budget that
#: keeps DEFAULT_WORLDS x 2 continuations near one second at a mid-game position on one
#: core (Keyside's games have ~3x more decisions left, hence its small budget).
ROLLOUT_ITERATIONS = {"kitsu": 100, "kyushu": 5, "keyside": 4, "nukumi": 7}
#: Worlds per comparison when ``worlds=None``, per game: about one second on one core at a
#: mid-game position with the default policy (Keyside's ~200 decisions left, Nukumi's
#: larger observation, make a world dearer there).
DEFAULT_WORLDS = {"kitsu": 32, "kyushu": 32, "keyside": 16, "nukumi": 24}

#: Node cap of each rollout tree: a few dozen iterations never need more.
_ROLLOUT_NODES = 4096


def _win(state, seat: int) -> float:
    """1 when the game is over and the seat's side came first with a positive return
    (a solo game won, a clan's victory, a first place); else 0 (also a shared draw)."""
    if not state.is_terminal():
        return 0.0
    r = np.asarray(state.returns(), dtype=float)
    return float(r[seat] >= r.max() and r[seat] > 0)


# -- per-game extraction: the seat's outcome in its game's own categories -----------------

def _kitsu(obs: dict, seat: int) -> dict:
    # Clans are listed per seat by colour; pawns and rounds_won are per clan (TEAMS order).
    clan_name = obs["clans"][seat]
    clan = 0 if clan_name.lower() == "blue" else 1
    mates = {p for p, c in enumerate(obs["clans"]) if c == clan_name}
    tokens = sum(1 for t in obs["tokens"].values()
                 if t.get("holder") in mates and not t.get("used"))
    return {"wisdom spaces": float(obs["pawns"][clan]),
            "opponents' wisdom spaces": float(obs["pawns"][1 - clan]),
            "rounds won": float(obs["rounds_won"][clan]),
            "power tokens": float(tokens)}


_KYUSHU_ROWS = ("hot_springs", "forests", "towns", "lakes", "factories", "travelers",
                "most_fewest", "total")


def _kyushu(obs: dict, seat: int) -> dict:
    row = obs["scores"][seat]
    return {k: float(row[k]) for k in _KYUSHU_ROWS if k in row}


def _keyside(obs: dict, seat: int) -> dict:
    score = obs["seats"][seat]["score"]
    out = {k: float(sum(v) if isinstance(v, list) else v) for k, v in score.items()}
    out["total"] = float(obs["scores"][seat])
    beacons = obs.get("beacons")
    if beacons:                       # solo: the beacons lit are a goal of their own
        out["beacons lit"] = float(sum(1 for b in beacons if b and b.get("lit")))
    return out


def _nukumi(obs: dict, seat: int) -> dict:
    me = obs["seats"][seat]
    out = {"fun": float(me["fun"]), "oishi": float(me["oishi"]), "coins": float(me["coins"]),
           "buildings built": float(me["buildings"])}
    # The end-of-game breakdown (buildings, helpers, cards, tracks, ...) in points.
    for k, v in (me.get("score") or {}).items():
        if k != "total":
            out[f"{k} points"] = float(v)
    out["total"] = float(obs["scores"][seat])
    return out


_EXTRACT: dict[str, Callable[[dict, int], dict]] = {
    "kitsu": _kitsu, "kyushu": _kyushu, "keyside": _keyside, "nukumi": _nukumi}

#: How a category reads in a sentence: (what it counts, whether it is in points).
_WORDS = {
    "total": "points", "hot_springs": "hot-spring points", "forests": "forest points",
    "towns": "town points", "lakes": "lake points", "factories": "factory points",
    "travelers": "traveler points", "most_fewest": "Most/Fewest points",
    "harbours": "harbour points", "buildings": "building points", "gems": "gem points",
    "statue": "statue points", "support": "support points", "beach": "beach points",
    "skill_tiles": "skill-tile points", "fields": "field points", "beacons lit": "beacons lit",
    "fun": "fun", "oishi": "oishi", "coins": "coins", "buildings built": "buildings built",
    "wisdom spaces": "wisdom-track spaces", "opponents' wisdom spaces":
        "wisdom-track spaces for the other clan", "rounds won": "rounds won",
    "power tokens": "power tokens", "current trick taken": "current tricks taken",
    "buildings points": "building points", "helpers points": "helper points",
    "coins points": "points from coins", "start_card points": "start-card points",
    "partner_end points": "partner end-game points", "construction points": "construction points",
    "cards points": "card points", "tracks points": "track points",
}


def _words(category: str) -> str:
    return _WORDS.get(category, category.replace("_", " "))


def categories(state, seat: int) -> dict[str, float]:
    """The seat's outcome per scoring category of its game, read from
    ``state.full_observation()`` (normally at the end of a continuation), plus ``win``
    (1 if the game is over and the seat's side won, else 0).

    >>> import boardlab
    >>> s = boardlab.make("kitsu", players=2, seed=1).new_initial_state()
    >>> sorted(categories(s, 0))
    ["opponents' wisdom spaces", 'power tokens', 'rounds won', 'win', 'wisdom spaces']
    """
    name = state.game.name
    if name not in _EXTRACT:
        raise ValueError(f"no scoring categories known for game {name!r}; "
                         f"known: {', '.join(sorted(_EXTRACT))}")
    seat = state._seat(seat, "seat")
    out = _EXTRACT[name](state.full_observation(), seat)
    out["win"] = _win(state, seat)
    return out


# -- the comparison -------------------------------------------------------------------

@dataclass(frozen=True)
class CategoryDiff:
    """One category over the worlds: means under each move, and the paired difference
    (a - b) with its 95% interval ``diff ± half`` = ``[low, high]``."""
    mean_a: float
    mean_b: float
    diff: float
    half: float
    low: float
    high: float
    n: int

    @property
    def differs(self) -> bool:
        """The interval excludes 0: a difference beyond the noise of the worlds."""
        return self.low > 0 or self.high < 0


@dataclass(frozen=True)
class Comparison:
    """Move ``a`` against move ``b`` for ``seat``, over ``worlds`` determinizations."""
    game: str
    seat: int
    a: int
    b: int
    worlds: int
    seed: int
    policy: str
    horizon: str
    categories: dict
    #: Wall time of the measurement (not part of equality: it is not a result).
    seconds: float = field(default=0.0, compare=False)

    def significant(self) -> list:
        """Categories whose interval excludes 0, largest |difference| first."""
        rows = [(k, c) for k, c in self.categories.items() if c.differs]
        return sorted(rows, key=lambda kc: (-abs(kc[1].diff), kc[0]))


def _policy_spec(policy, game_name: str) -> str:
    if policy == "rollout":
        return f"rollout:ismcts:{ROLLOUT_ITERATIONS.get(game_name, 10)}"
    if isinstance(policy, str):
        make_agent(policy)                    # its own ValueError names a bad spec now
        return policy
    raise ValueError(f"policy must be 'rollout' or an agent spec string, got {brief_repr(policy)}")


def _horizon(horizon, game_name: str) -> str:
    if horizon is None:
        return "round" if game_name == "kitsu" else "end"
    if horizon == "end" or (horizon == "round" and game_name == "kitsu"):
        return horizon
    raise ValueError("horizon must be None, 'end'" + (" or 'round'" if game_name == "kitsu" else "")
                     + f" for {game_name}, got {brief_repr(horizon)}")


class _Rollout:
    """The default policy: a small fixed-iteration SO-ISMCTS per decision, run straight on
    the search's compiled tree (the public :func:`boardlab.search.ismcts` also names every
    root move and builds statistics, ~30x the cost of so small a search). Every seat plays
    it, from its own information set; the move is the most visited (ties: lowest action),
    as ``final="visits"``; its seed comes from ``seed`` and the decision's index."""

    def __init__(self, game_name: str, params, iterations: int, seed: int):
        self.c = default_c(game_name, params)
        self.depth = default_rollout_depth(game_name, params)
        self.iterations = iterations
        self.seed = seed
        self.steps = 0

    def step(self, core, state=None) -> int:
        legal = core.legal_actions()
        self.steps += 1
        if len(legal) == 1:
            return int(legal[0])
        tree = _search.ISMCTSTree(core, int(core.current_player()), self.c, self.depth,
                                  _mix(self.seed, self.steps), _ROLLOUT_NODES, 0.0, False)
        tree.run(self.iterations)
        rows = [r for r in tree.root_stats() if r[1] > 0]
        return int(min(rows, key=lambda r: (-r[1], r[0]))[0]) if rows else int(legal[0])


class _AgentPolicy:
    """An agent spec as the policy: the agent steps on a State around the kernel copy."""

    def __init__(self, spec: str, seed: int):
        self.agent = make_agent(spec, seed=seed)

    def step(self, core, state) -> int:
        return int(self.agent.step(state))


def _kitsu_view(core) -> tuple:
    obs = json.loads(core.observe_json(-1))
    return obs["tricks"], sum(obs["rounds_won"]), obs["last_trick"]


def _continue(world, move: int, seat: int, policy, chance_seed: int, horizon: str) -> dict:
    state = world.clone()
    core = core_of(state)             # play on the kernel copy: no per-move Python checks
    kitsu = state.game.name == "kitsu"
    if kitsu:
        # Counted before the move, which may itself finish the trick or the round.
        tricks0, rounds0, _ = _kitsu_view(core)
        clan = json.loads(core.observe_json(-1))["clans"][seat]
        trick_taken = None
    state.apply(move)
    rng = np.random.default_rng(chance_seed)
    while True:
        if kitsu:
            tricks, rounds, last = _kitsu_view(core)
            if trick_taken is None and (tricks != tricks0 or rounds != rounds0):
                # The first trick finished since the move: the trick the move played into.
                trick_taken = float(bool(last) and last.get("winner") == clan)
            if horizon == "round" and rounds != rounds0:   # a round ends: a clan's count goes up
                break
        if core.current_player() == TERMINAL:
            break
        if core.current_player() == CHANCE:
            acts, probs = core.chance_outcomes()
            order = np.argsort(acts, kind="stable")
            outcome = draw([(int(acts[i]), float(probs[i])) for i in order], rng.random())
        else:
            outcome = policy.step(core, state)
        if isinstance(policy, _Rollout):
            core.apply(outcome)
        else:
            state.apply(outcome)       # an agent reads the State (its history, for its seeds)
    out = categories(state, seat)
    if kitsu:
        out["current trick taken"] = trick_taken or 0.0
    return out


def compare_moves(state, seat: int, a: int, b: int, worlds: Optional[int] = None,
                  policy: str = "rollout", seed: int = 0,
                  horizon: Optional[str] = None) -> Comparison:
    """Continue moves ``a`` and ``b`` of ``seat`` (to move in ``state``) in ``worlds``
    (None: the game's :data:`DEFAULT_WORLDS`) determinizations from the seat's information
    set, with ``policy`` for every seat (``"rollout"``: a small fixed-budget ISMCTS, see
    :data:`ROLLOUT_ITERATIONS`; or an agent spec such as ``"random"``, ``"ismcts:50"``),
    and compare the outcomes per category (:func:`categories`; Kitsu adds
    ``"current trick taken"``: 1 when the seat's clan takes the first trick completed
    after the move).

    Both moves see the same world, the same policy seed and the same chance stream, so
    the differences are paired. ``horizon``: ``None`` (Kitsu: the end of the current
    round; other games: the end), ``"end"`` or, for Kitsu, ``"round"``.
    """
    t0 = time.perf_counter()
    game_name = state.game.name
    if worlds is None:
        worlds = DEFAULT_WORLDS.get(game_name, 32)
    if isinstance(worlds, bool) or not isinstance(worlds, (int, np.integer)) or worlds < 1:
        raise ValueError(f"worlds must be an integer >= 1, got {brief_repr(worlds)}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise ValueError(f"seed must be an integer in [0, 2**63), got {brief_repr(seed)}")
    seat = state._seat(seat, "seat")
    if state.current_player != seat:
        who = {-1: "a chance node", -2: "the game is over"}.get(
            state.current_player, f"seat {state.current_player} is to move")
        raise ValueError(f"seat {seat} is not to move ({who}): an explanation compares moves "
                         f"of the seat to move")
    legal = [int(x) for x in state.legal_actions()]
    for name, move in (("a", a), ("b", b)):
        if isinstance(move, bool) or not isinstance(move, (int, np.integer)) \
                or int(move) not in legal:
            more = " ..." if len(legal) > 20 else ""
            raise ValueError(f"move {name}={brief_repr(move)} is not a legal action of seat "
                             f"{seat} here; legal actions: {legal[:20]}{more}")
    a, b = int(a), int(b)
    spec = _policy_spec(policy, game_name)
    hz = _horizon(horizon, game_name)
    if policy == "rollout":
        iterations = ROLLOUT_ITERATIONS.get(game_name, 10)
        params = getattr(state.game, "params", None)
        make_policy = lambda s: _Rollout(game_name, params, iterations, s)  # noqa: E731
    else:
        make_policy = lambda s: _AgentPolicy(spec, s)  # noqa: E731

    rows_a, rows_b = [], []
    for k in range(int(worlds)):
        world = state.determinize(seat, _mix(seed, k, 0))
        agent_seed, chance_seed = _mix(seed, k, 1), _mix(seed, k, 2)
        # A fresh policy per continuation: the same seed and stream for both moves.
        rows_a.append(_continue(world, a, seat, make_policy(agent_seed), chance_seed, hz))
        rows_b.append(_continue(world, b, seat, make_policy(agent_seed), chance_seed, hz))

    n = len(rows_a)
    cats = {}
    for key in rows_a[0]:
        xa = np.array([r[key] for r in rows_a], dtype=float)
        xb = np.array([r[key] for r in rows_b], dtype=float)
        d = xa - xb
        mean = float(d.mean())
        # Paired 95% interval over the worlds; one world has no spread to measure.
        half = float(1.96 * d.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf
        cats[key] = CategoryDiff(float(xa.mean()), float(xb.mean()), mean, half,
                                 mean - half, mean + half, n)
    return Comparison(game_name, seat, a, b, int(worlds), int(seed), spec, hz, cats,
                      seconds=time.perf_counter() - t0)


# -- the sentence ---------------------------------------------------------------------

def _num(x: float) -> str:
    return f"{abs(x):.1f}"


def explain_text(comparison: Comparison, names: dict) -> str:
    """One or two sentences naming the one or two categories whose difference exceeds
    its noise (largest first), with sizes and intervals, in the words of ``names``
    (action -> words). Every number is one of the Comparison's, rounded (to 0.1; the
    win share in whole percent)."""
    c = comparison
    for move in (c.a, c.b):
        if move not in names:
            raise ValueError(f"names has no words for move {move}: give names for both "
                             f"{c.a} and {c.b}")
    when = "the round" if c.horizon == "round" else "the game"
    sig = c.significant()
    if not sig:
        return (f"The two moves are about equal: no category differs beyond the noise of "
                f"{c.worlds} worlds.")
    A, B = names[c.a], names[c.b]
    win = c.categories.get("win")
    # A difference that rounds to 0.0 says nothing in a sentence, even if it is sure.
    rest = [(k, d) for k, d in sig if k != "win" and round(abs(d.diff), 1) > 0]
    parts = []
    if rest:
        k1, d1 = rest[0]
        if k1 != "total" and "total" in dict(rest):   # the total leads when it differs
            k1, d1 = "total", dict(rest)["total"]
        more = "more" if d1.diff > 0 else "fewer"
        first = (f"{A} ends {when} with {_num(d1.diff)} {more} {_words(k1)} than {B} "
                 f"(±{_num(d1.half)})")
        second = [(k, d) for k, d in rest if k != k1]
        if second:
            k2, d2 = second[0]
            sign = "+" if d2.diff > 0 else "-"
            link = "mostly" if k1 == "total" and (d2.diff > 0) == (d1.diff > 0) else "and"
            first += f", {link} {_words(k2)} ({sign}{_num(d2.diff)} ±{_num(d2.half)})"
        parts.append(first + ".")
    if win is not None and win.differs:
        more = "more" if win.diff > 0 else "fewer"
        subject = "It" if parts else A
        parts.append(f"{subject} wins {abs(win.diff) * 100:.0f}% {more} of the {c.worlds} "
                     f"worlds you can't tell apart" + ("" if parts else f" than {B}")
                     + f" (±{win.half * 100:.0f}%).")
    return " ".join(parts)
