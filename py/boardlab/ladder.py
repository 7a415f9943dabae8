"""A rating ladder: a round robin of agents, Elo ratings with bootstrap
confidence intervals, a results table and a plot.

Every pair of agents plays a match (:func:`boardlab.arena.play_match`, sides
rotating on shared deals; all games on one back end, local processes or Ray). Ratings are the maximum-likelihood Bradley-Terry /
Elo fit of all games (a draw counts half a win to each), anchored so that the
first agent (by default ``random``) is 0; the 95% intervals come from
re-fitting on bootstrap resamples of the games of each pair. A game without
teams or with more than two sides cannot be laddered pairwise: ladders need a
two-side configuration (Kitsu at any size, two-player games).

>>> from boardlab.ladder import run_ladder
>>> r = run_ladder("kitsu", {"players": 2}, ["random", "greedy"], games=4, seed=1, bootstrap=20)
>>> [row["agent"] for row in r.rows()]
['random', 'greedy']
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from .arena import play_one, prepare_match, sides_of, wilson_interval

__all__ = ["DEFAULT_LADDER", "LadderResult", "run_ladder", "fit_elo"]

#: The default ladder: Random, Greedy, ISMCTS at 100 / 1,000 / 10,000
#: iterations and at fixed times per move.
DEFAULT_LADDER = ["random", "greedy", "ismcts:100", "ismcts:1000", "ismcts:10000",
                  "ismcts:0.1s", "ismcts:1s"]

_ELO = 400.0 / math.log(10.0)


def fit_elo(n: int, results, iterations: int = 2000) -> list[float]:
    """Elo ratings of ``n`` agents from ``results`` = [(i, j, score_i, games)]
    (score of i against j over that many games), by maximum likelihood
    (minorise-maximise updates of Bradley-Terry strengths), anchored at agent 0
    = 0. A tiny prior (half a draw against a virtual 0-rated agent each) keeps
    all-win / all-loss records finite."""
    wins = [0.5 * 0.5] * n                     # prior: one half-game draw vs a virtual player
    pair_games: dict[tuple[int, int], float] = {}
    for i, j, s, g in results:
        wins[i] += s
        wins[j] += g - s
        key = (min(i, j), max(i, j))
        pair_games[key] = pair_games.get(key, 0.0) + g
    gamma = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            denom = 0.5 / (gamma[i] + 1.0)     # the prior game against strength 1
            for (a, b), g in pair_games.items():
                if a == i or b == i:
                    other = b if a == i else a
                    denom += g / (gamma[i] + gamma[other])
            new.append(wins[i] / denom if denom > 0 else gamma[i])
        delta = max(abs(math.log(x / y)) for x, y in zip(new, gamma))
        gamma = new
        if delta < 1e-10:
            break
    base = math.log(gamma[0])
    return [_ELO * (math.log(x) - base) for x in gamma]


@dataclass
class LadderResult:
    game: str
    params: dict
    agents: list[str]
    games_per_pair: int
    seed: int
    matches: dict = field(default_factory=dict)      # (i, j) -> MatchResult (agent i first)
    elo: list[float] = field(default_factory=list)
    elo_ci: list[tuple[float, float]] = field(default_factory=list)

    def _agent_games(self, k: int):
        """(games, score, mean return, mean points or None) of agent k over all its matches."""
        games = score = ret = pts = 0.0
        n_ret = 0
        has_points = True
        for (i, j), m in self.matches.items():
            if k not in (i, j):
                continue
            me = 0 if k == i else 1
            for o in m.outcomes:
                games += 1
                score += 1.0 if o.winner == me else 0.5 if o.winner is None else 0.0
                side = o.side_of_agent[me]
                _names, side_of_seat = sides_of(self.game, len(o.returns))
                mine = [r for s, r in enumerate(o.returns) if side_of_seat[s] == side]
                ret += sum(mine) / len(mine)
                n_ret += 1
                if o.scores is None:
                    has_points = False
                else:
                    mp = [v for s, v in enumerate(o.scores) if side_of_seat[s] == side]
                    pts += sum(mp) / len(mp)
        return (games, score, (ret / n_ret if n_ret else 0.0),
                (pts / n_ret if n_ret and has_points else None))

    def rows(self) -> list[dict]:
        out = []
        for k, a in enumerate(self.agents):
            g, s, mean_ret, mean_pts = self._agent_games(k)
            lo, hi = self.elo_ci[k] if self.elo_ci else (float("nan"), float("nan"))
            out.append({"agent": a, "elo": self.elo[k], "elo_lo": lo, "elo_hi": hi,
                        "games": int(g), "score": s, "score_rate": s / g if g else 0.0,
                        "mean_return": mean_ret, "mean_points": mean_pts})
        return out

    def pair_table(self) -> list[dict]:
        out = []
        for (i, j), m in sorted(self.matches.items()):
            s = m.wins[0] + 0.5 * m.draws
            n = len(m.outcomes)
            lo, hi = wilson_interval(s, n)
            out.append({"agent": self.agents[i], "opponent": self.agents[j], "games": n,
                        "score": s, "rate": s / n, "lo": lo, "hi": hi})
        return out

    def table(self) -> str:
        params = ", ".join(f"{k}={v}" for k, v in self.params.items())
        lines = [f"ladder: {self.game} ({params}), round robin, {self.games_per_pair} games per "
                 f"pair, seed {self.seed}",
                 f"{'agent':<22} {'Elo':>7}  {'95% CI':<17} {'games':>5} {'score':>7} "
                 f"{'mean return':>11} {'mean points':>11}", "-" * 88]
        for r in sorted(self.rows(), key=lambda r: -r["elo"]):
            pts = "-" if r["mean_points"] is None else f"{r['mean_points']:.2f}"
            lines.append(f"{r['agent']:<22} {r['elo']:>7.0f}  [{r['elo_lo']:>6.0f}, "
                         f"{r['elo_hi']:>6.0f}] {r['games']:>5} {100 * r['score_rate']:>6.1f}% "
                         f"{r['mean_return']:>11.3f} {pts:>11}")
        lines.append("")
        lines.append(f"{'pair':<46} {'games':>5} {'score':>7}  95% CI (Wilson)")
        for p in self.pair_table():
            lines.append(f"{p['agent'] + ' vs ' + p['opponent']:<46} {p['games']:>5} "
                         f"{100 * p['rate']:>6.1f}%  [{100 * p['lo']:5.1f}%, {100 * p['hi']:5.1f}%]")
        lines.append(f"Elo anchored at {self.agents[0]} = 0; intervals from bootstrap "
                     f"resampling of the games of each pair.")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"game": self.game, "params": dict(self.params), "agents": list(self.agents),
                "games_per_pair": self.games_per_pair, "seed": self.seed,
                "ratings": self.rows(), "pairs": self.pair_table()}

    def plot(self, path: str) -> str:
        """Save the ratings with their intervals as an image: PNG/PDF/... with
        matplotlib if installed, else (or for a .svg path) a hand-written SVG.
        Returns the path written."""
        rows = self.rows()
        if not path.lower().endswith(".svg"):
            try:
                import matplotlib
                matplotlib.use("Agg")
                import matplotlib.pyplot as plt
            except ImportError:
                path = path.rsplit(".", 1)[0] + ".svg"
            else:
                fig, ax = plt.subplots(figsize=(7, 0.5 * len(rows) + 1.5))
                ys = range(len(rows))
                ax.errorbar([r["elo"] for r in rows], ys,
                            xerr=[[r["elo"] - r["elo_lo"] for r in rows],
                                  [r["elo_hi"] - r["elo"] for r in rows]],
                            fmt="o", capsize=4)
                ax.set_yticks(list(ys), [r["agent"] for r in rows])
                ax.invert_yaxis()
                ax.set_xlabel(f"Elo (95% bootstrap CI), {self.agents[0]} = 0")
                ax.set_title(f"{self.game} {self.params.get('players', '')}p ladder, "
                             f"{self.games_per_pair} games per pair")
                ax.grid(axis="x", alpha=0.3)
                fig.tight_layout()
                fig.savefig(path, dpi=120)
                plt.close(fig)
                return path
        with open(path, "w", encoding="utf-8") as f:
            f.write(_svg(rows, f"{self.game} ladder, {self.games_per_pair} games per pair"))
        return path


def _svg(rows, title: str) -> str:
    lo = min(r["elo_lo"] for r in rows)
    hi = max(r["elo_hi"] for r in rows)
    span = (hi - lo) or 1.0
    w, left, right, top, step = 640, 150, 20, 40, 28
    h = top + step * len(rows) + 30

    def x(v):
        return left + (v - lo) / span * (w - left - right)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'font-family="sans-serif" font-size="12">',
             f'<text x="{w / 2}" y="20" text-anchor="middle">{title}</text>']
    for k, r in enumerate(rows):
        y = top + step * k
        parts.append(f'<text x="{left - 8}" y="{y + 4}" text-anchor="end">{r["agent"]}</text>')
        parts.append(f'<line x1="{x(r["elo_lo"]):.1f}" y1="{y}" x2="{x(r["elo_hi"]):.1f}" '
                     f'y2="{y}" stroke="black"/>')
        parts.append(f'<circle cx="{x(r["elo"]):.1f}" cy="{y}" r="4" fill="steelblue"/>')
        parts.append(f'<text x="{x(r["elo"]):.1f}" y="{y - 7}" text-anchor="middle" '
                     f'font-size="10">{r["elo"]:.0f}</text>')
    parts.append(f'<text x="{w / 2}" y="{h - 8}" text-anchor="middle">Elo (95% bootstrap CI)</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def run_ladder(game_name: str, params: dict | None, specs=None, games: int = 10, seed: int = 0,
               jobs: int | None = None, bootstrap: int = 200, progress=None,
               backend: str = "local", address: str | None = None) -> LadderResult:
    """Round robin of ``specs`` (default :data:`DEFAULT_LADDER`), ``games`` per
    pair; Elo fit with ``bootstrap`` resamples for the intervals.

    The games of all pairs go to the back end together (``backend``, ``jobs`` and
    ``address`` as in :func:`boardlab.arena.play_match`), so a cluster plays pairs in
    parallel; ``progress(k, pairs, agent, opponent, match)`` is called as each pair's
    match completes."""
    import boardlab
    from .parallel import check_backend, run_tasks
    check_backend(backend, jobs, address)
    specs = list(specs or DEFAULT_LADDER)
    if len(specs) < 2:
        raise ValueError(f"a ladder needs at least 2 agents, got {len(specs)}")
    game = boardlab.make(game_name, **dict(params or {}))
    names, _ = sides_of(game_name, game.num_players)
    if len(names) != 2:
        raise ValueError(f"a ladder needs a two-side game; {game_name} with {game.num_players} "
                         f"players has {len(names)} sides")
    result = LadderResult(game=game_name, params=dict(game.params), agents=specs,
                          games_per_pair=games, seed=seed)
    pairs = [(i, j) for i in range(len(specs)) for j in range(i + 1, len(specs))]
    tasks, pair_of_task = [], []
    for k, (i, j) in enumerate(pairs):
        m, match_tasks = prepare_match(game_name, params, [specs[i], specs[j]], games=games,
                                       seed=seed * 1000 + k)
        result.matches[(i, j)] = m
        tasks += match_tasks
        pair_of_task += [(i, j)] * len(match_tasks)
    completed = 0
    for t, outcome in run_tasks(play_one, tasks, backend=backend, jobs=jobs, address=address):
        m = result.matches[pair_of_task[t]]
        m.outcomes.append(outcome)
        if len(m.outcomes) == games:
            m.outcomes.sort(key=lambda o: o.index)
            completed += 1
            if progress:
                progress(completed, len(pairs), m.agents[0], m.agents[1], m)

    def scores(sample):
        out = []
        for (i, j), outcomes in sample.items():
            s = sum(1.0 if o.winner == 0 else 0.5 if o.winner is None else 0.0 for o in outcomes)
            out.append((i, j, s, len(outcomes)))
        return out

    full = {k: m.outcomes for k, m in result.matches.items()}
    result.elo = fit_elo(len(specs), scores(full))
    rng = random.Random(seed)
    boots = []
    for _ in range(bootstrap):
        sample = {k: [rng.choice(v) for _ in v] for k, v in full.items()}
        boots.append(fit_elo(len(specs), scores(sample), iterations=500))
    if boots:
        ci = []
        for k in range(len(specs)):
            vals = sorted(b[k] for b in boots)
            lo, hi = vals[int(0.025 * (len(vals) - 1))], vals[int(0.975 * (len(vals) - 1))]
            ci.append((min(lo, result.elo[k]), max(hi, result.elo[k])))
        result.elo_ci = ci
    else:
        result.elo_ci = [(e, e) for e in result.elo]
    return result
