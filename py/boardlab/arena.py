"""Matches between agents: many games, seat rotation, win rates with confidence intervals.

A match is ``games`` independent games between agents given as specs ("random", "greedy",
"ismcts:1000", "ismcts:1.5s" -- see :func:`boardlab.agents.make_agent`). Every game is fully
determined by ``(seed, game index)``: the chance stream (deals, draws) and each agent's own
seed are derived from them, so a match gives the same results whether its games run in one
process, in several (``jobs``) or as Ray tasks on a cluster (``backend="ray"``), in any order.

Sides. In a team game an agent plays a whole side: for Kitsu, agent ``i`` plays one clan
(Blue = even seats, Orange = odd seats) and steps for every seat of it. In a game without
teams each seat is its own side. Agents rotate over the sides from one game to the next
(game ``g`` gives agent ``i`` side ``(i + g) % n_sides``), and the games of one rotation
share their chance seed, so with an even number of games every agent has played every side
equally often from the same first deals.

Open hands. The open-hands searcher ("cheat:BUDGET", :class:`boardlab.agents.OpenHandsAgent`)
sees every hidden card. A match refuses it unless ``allow_open_hands=True`` (CLI:
``--allow-open-hands``), and then the report marks it "sees hidden information".

>>> from boardlab.arena import play_match
>>> result = play_match("kitsu", {"players": 2}, ["random", "greedy"], games=4, seed=1)
>>> sum(result.wins) + result.draws
4
>>> print(result.table())                                    # doctest: +SKIP
"""
from __future__ import annotations

import math
import random
import statistics
from dataclasses import asdict, dataclass, field
from typing import Sequence

__all__ = ["GameOutcome", "MatchResult", "play_match", "prepare_match", "play_one",
           "wilson_interval", "mean_interval", "sides_of"]

_MASK64 = (1 << 64) - 1


def _mix(*values: int) -> int:
    """A 63-bit seed from integers (splitmix64 chain): stable across runs and platforms."""
    h = 0x9E3779B97F4A7C15
    for v in values:
        h = (h ^ (int(v) & _MASK64)) & _MASK64
        h = (h + 0x9E3779B97F4A7C15) & _MASK64
        z = h
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        h = z ^ (z >> 31)
    return h >> 1


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its 95% normal interval (1.96 standard
    errors; infinite below two values).

    >>> mean, half = mean_interval([1.0, 3.0])
    >>> mean, round(half, 2)
    (2.0, 1.96)
    """
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 \
        else float("inf")
    return mean, half


def wilson_interval(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95% Wilson score interval for a proportion ``successes / n`` (``(0, 1)`` if n = 0).

    >>> lo, hi = wilson_interval(5, 10)
    >>> round(lo, 3), round(hi, 3)
    (0.237, 0.763)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


# --- sides -----------------------------------------------------------------------------------
# Team games map each seat to a side; games without teams give every seat its own side.
def sides_of(game_name: str, num_players: int) -> tuple[list[str], list[int]]:
    """``(side names, side of each seat)`` for a game with ``num_players`` seats
    (:attr:`boardlab.Game.sides`)."""
    import boardlab.games
    from .game import sides
    return sides(boardlab.games.get(game_name), num_players)


# --- results ---------------------------------------------------------------------------------
@dataclass
class GameOutcome:
    """One game of a match."""
    index: int                  # game number in the match (0-based)
    seed: int                   # chance seed of this game
    side_of_agent: list[int]    # side played by each agent
    winner: int | None          # index of the winning agent, None for a draw
    returns: list[float]        # final returns per seat
    decisions: int              # player decisions applied (chance outcomes excluded)
    actions: int                # all actions applied, chance included
    scores: list | None = None  # final points per seat, for games that count points


@dataclass
class MatchResult:
    """Everything a match produced; ``table()`` formats it."""
    game: str
    params: dict
    agents: list[str]
    games: int
    seed: int
    side_names: list[str]
    outcomes: list[GameOutcome] = field(default_factory=list)
    sees_hidden: list[bool] = field(default_factory=list)   # per agent: the open-hands searcher

    @property
    def wins(self) -> list[int]:
        w = [0] * len(self.agents)
        for o in self.outcomes:
            if o.winner is not None:
                w[o.winner] += 1
        return w

    @property
    def draws(self) -> int:
        return sum(1 for o in self.outcomes if o.winner is None)

    def win_rate(self, agent: int) -> float:
        return self.wins[agent] / len(self.outcomes) if self.outcomes else 0.0

    def confidence_interval(self, agent: int) -> tuple[float, float]:
        """95% Wilson interval on the win rate of ``agent``."""
        return wilson_interval(self.wins[agent], len(self.outcomes))

    def side_counts(self, agent: int) -> list[int]:
        """How many games ``agent`` played on each side."""
        c = [0] * len(self.side_names)
        for o in self.outcomes:
            c[o.side_of_agent[agent]] += 1
        return c

    def side_wins(self) -> list[int]:
        """Games won by each side, whoever played it."""
        c = [0] * len(self.side_names)
        for o in self.outcomes:
            if o.winner is not None:
                c[o.side_of_agent[o.winner]] += 1
        return c

    def mean_scores(self):
        """Mean final points of each agent (mean over its seats), None if the game has none."""
        if not self.outcomes or any(o.scores is None for o in self.outcomes):
            return None
        totals = [0.0] * len(self.agents)
        for o in self.outcomes:
            _, side_of_seat = sides_of(self.game, len(o.scores))
            for i, side in enumerate(o.side_of_agent):
                mine = [v for s, v in enumerate(o.scores) if side_of_seat[s] == side]
                totals[i] += sum(mine) / len(mine)
        return [t / len(self.outcomes) for t in totals]

    @property
    def mean_decisions(self) -> float:
        return sum(o.decisions for o in self.outcomes) / max(1, len(self.outcomes))

    @property
    def mean_actions(self) -> float:
        return sum(o.actions for o in self.outcomes) / max(1, len(self.outcomes))

    def to_dict(self) -> dict:
        """JSON-able summary plus every game."""
        return {
            "game": self.game, "params": dict(self.params), "agents": list(self.agents),
            "games": self.games, "seed": self.seed, "side_names": list(self.side_names),
            "wins": self.wins, "draws": self.draws, "sees_hidden": list(self.sees_hidden),
            "outcomes": [asdict(o) for o in self.outcomes],
        }

    def table(self) -> str:
        """A short plain-text report."""
        n = len(self.outcomes)
        params = ", ".join(f"{k}={v}" for k, v in self.params.items())
        lines = [f"{self.game} ({params}): {n} games, seed {self.seed}"]
        labels = [f"{i}:{a}" + (" (sees hidden information)"
                                if i < len(self.sees_hidden) and self.sees_hidden[i] else "")
                  for i, a in enumerate(self.agents)]
        width = max([len("agent")] + [len(x) for x in labels])
        side_cols = [f"as {s}" for s in self.side_names]
        cw = [max(6, len(c)) for c in side_cols]
        other = "lost" if len(self.side_names) == 1 else "draws"   # solo: a game not won is lost
        header = (f"{'agent':<{width}}  {'wins':>5}  {other:>5}  {'win rate':>8}  "
                  f"{'95% CI (Wilson)':<16}  " + "  ".join(f"{c:>{w}}" for c, w in
                                                          zip(side_cols, cw)))
        lines += [header, "-" * len(header)]
        for i, a in enumerate(self.agents):
            lo, hi = self.confidence_interval(i)
            sides = "  ".join(f"{c:>{w}}" for c, w in zip(self.side_counts(i), cw))
            lines.append(f"{labels[i]:<{width}}  {self.wins[i]:>5}  {self.draws:>5}  "
                         f"{100 * self.win_rate(i):>7.1f}%  "
                         f"[{100 * lo:5.1f}%, {100 * hi:5.1f}%]  {sides}")
        sw = self.side_wins()
        lines.append("wins by side: " + ", ".join(
            f"{name} {w}" for name, w in zip(self.side_names, sw)))
        ms = self.mean_scores()
        if ms is not None:
            lines.append("mean points: " + ", ".join(
                f"{i}:{a} {m:.2f}" for i, (a, m) in enumerate(zip(self.agents, ms))))
        lines.append(f"average game length: {self.mean_decisions:.1f} decisions "
                     f"({self.mean_actions:.1f} actions with chance)")
        return "\n".join(lines)


# --- playing ---------------------------------------------------------------------------------
def _build_agent(spec: str, seed: int, allow_open_hands: bool = False):
    """An agent from its spec, seeded (the open-hands searcher only if allowed)."""
    from . import agents as _agents
    try:
        return _agents.make_agent(spec, seed=seed, allow_open_hands=allow_open_hands)
    except TypeError:
        agent = _agents.make_agent(spec)
        if hasattr(agent, "seed"):
            try:
                agent.seed = seed
            except AttributeError:
                pass
        return agent


def _sample_chance(state, rng: random.Random) -> int:
    """Draw one chance outcome from ``state.chance_outcomes()`` with ``rng``."""
    return draw(state.chance_outcomes(), rng.random())


def draw(outcomes, x: float) -> int:
    """The outcome of ``outcomes`` [(action, probability)] that the uniform ``x`` in [0, 1)
    falls on (the last one if rounding leaves the probabilities short of 1)."""
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if x < acc:
            return int(action)
    return int(outcomes[-1][0])


def _winner_side(returns: Sequence[float], side_of_seat: Sequence[int], n_sides: int):
    """The side with the strictly best return (a side's return = its best seat's), else None.
    A solo game (one side) is won only with a positive return."""
    if n_sides == 1:
        return 0 if max(float(r) for r in returns) > 0 else None
    best = [-math.inf] * n_sides
    for seat, r in enumerate(returns):
        s = side_of_seat[seat]
        best[s] = max(best[s], float(r))
    top = max(best)
    leaders = [s for s in range(n_sides) if best[s] == top]
    return leaders[0] if len(leaders) == 1 else None


def play_one(game_name: str, params: dict, agent_specs: Sequence[str], index: int,
             seed: int, allow_open_hands: bool = False) -> GameOutcome:
    """Play game ``index`` of the match ``(game_name, params, agent_specs, seed)``."""
    import boardlab
    n_agents = len(agent_specs)
    game = boardlab.make(game_name, **params)
    names, side_of_seat = sides_of(game_name, game.num_players)
    n_sides = len(names)
    if n_agents != n_sides:
        raise ValueError(f"{game_name} with {game.num_players} players needs {n_sides} agents "
                         f"(one per side: {', '.join(names)}), got {n_agents}")
    side_of_agent = [(i + index) % n_sides for i in range(n_agents)]
    agent_of_side = [0] * n_sides
    for i, s in enumerate(side_of_agent):
        agent_of_side[s] = i
    # One chance seed per rotation: the games of a rotation start from the same deal.
    chance_seed = _mix(seed, index // n_sides, 0xC4A7CE)
    agents = [_build_agent(spec, _mix(seed, index, i, 0xA6E7), allow_open_hands) for i, spec in
              enumerate(agent_specs)]
    state = game.new_initial_state(seed=chance_seed)
    rng = random.Random(chance_seed)
    decisions = actions = 0
    while not state.is_terminal():
        player = state.current_player
        if player == boardlab.CHANCE:
            action = _sample_chance(state, rng)
        else:
            action = int(agents[agent_of_side[side_of_seat[player]]].step(state))
            decisions += 1
        state.apply(action)
        actions += 1
    returns = [float(r) for r in state.returns()]
    ws = _winner_side(returns, side_of_seat, n_sides)
    return GameOutcome(index=index, seed=chance_seed, side_of_agent=side_of_agent,
                       winner=None if ws is None else agent_of_side[ws], returns=returns,
                       decisions=decisions, actions=actions, scores=final_scores(state))


def final_scores(state):
    """Points per seat from the final observation (``scores[i]["total"]`` or numbers), or
    None for games without points (Kitsu counts rounds, not points)."""
    try:
        scores = state.full_observation().get("scores")
    except Exception:                                 # noqa: BLE001 - no scores to report
        return None
    if not isinstance(scores, list) or not scores:
        return None
    out = []
    for s in scores:
        v = s.get("total") if isinstance(s, dict) else s
        if not isinstance(v, (int, float)):
            return None
        out.append(float(v))
    return out


def prepare_match(game_name: str, params: dict | None, agents_specs: Sequence[str], games: int,
                  seed: int = 0, allow_open_hands: bool = False) -> tuple[MatchResult, list[tuple]]:
    """An empty :class:`MatchResult` and the arguments of :func:`play_one` for each of its
    games, after checking everything (ValueError naming the bad argument). An agent that
    sees hidden information (the open-hands searcher) is refused unless
    ``allow_open_hands=True``."""
    import boardlab
    params = dict(params or {})
    agents_specs = [str(s) for s in agents_specs]
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    game = boardlab.make(game_name, **params)      # validates name and parameters early
    params = dict(game.params)                      # defaults filled in, for the report
    names, _ = sides_of(game_name, game.num_players)
    if len(agents_specs) != len(names):
        raise ValueError(f"{game_name} with {game.num_players} players needs {len(names)} "
                         f"agents (one per side: {', '.join(names)}), got {len(agents_specs)}")
    # bad spec or an unmarked open-hands agent -> ValueError before any game
    built = [_build_agent(spec, 0, allow_open_hands) for spec in agents_specs]
    from .agents import check_fits, sees_hidden_information
    for spec, agent in zip(agents_specs, built):
        try:
            check_fits(agent, game)
        except ValueError as e:
            raise ValueError(f"agent {spec!r}: {e}") from None
    result = MatchResult(game=game_name, params=params, agents=list(agents_specs), games=games,
                         seed=seed, side_names=names,
                         sees_hidden=[sees_hidden_information(a) for a in built])
    return result, [(game_name, params, agents_specs, g, seed, allow_open_hands)
                    for g in range(games)]


def play_match(game_name: str, params: dict | None, agents_specs: Sequence[str], games: int,
               seed: int = 0, jobs: int | None = None, progress=None, backend: str = "local",
               address: str | None = None, allow_open_hands: bool = False,
               nodes=None) -> MatchResult:
    """Play ``games`` games between ``agents_specs`` (one agent per side) and collect results.

    ``backend="local"`` plays in this process or, with ``jobs > 1``, in that many processes;
    ``backend="ray"`` plays every game as a Ray task on a local Ray (``jobs`` CPUs, default
    all) or on the cluster at ``address`` (:mod:`boardlab.parallel`). The result is the same
    on every back end because every game depends only on ``(seed, index)`` (time budgets
    aside). ``progress(done, total)`` is called after each finished game, if given. An agent
    that sees hidden information raises ValueError unless ``allow_open_hands=True``.
    ``nodes`` (a Counter) counts the games by the machine that played them.
    """
    from .parallel import check_backend, run_tasks
    check_backend(backend, jobs, address)
    result, tasks = prepare_match(game_name, params, agents_specs, games, seed, allow_open_hands)
    outcomes = [o for _, o in run_tasks(play_one, tasks, backend=backend, jobs=jobs,
                                        address=address, progress=progress, nodes=nodes)]
    result.outcomes = sorted(outcomes, key=lambda o: o.index)
    return result
