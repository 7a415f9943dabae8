"""Nukumi solo modes, measured: seeded games of one agent, then Score Attack's
median score, title shares and buildings (how often the 8th building's construction bonus
scored), or Chasing Nukumaru's cleared rounds.

    python bench/nukumi_solo.py --mode score_attack --agent ismcts:1s --games 100
    python bench/nukumi_solo.py --mode chasing --agent ismcts:1s --games 100
    python bench/nukumi_solo.py --mode score_attack --agent ismcts:85000:net=default --games 100 --jobs 2
    python bench/nukumi_solo.py --mode score_attack --agent ismcts:200000:depth=0 --calibrate 1

Every search is timed by the CPU time of the process that plays it
(time.process_time), so that an iteration budget can be matched to seconds per
move on an unloaded core even on a loaded machine: the summary gives the CPU
seconds a move, and with --jobs N each worker times its own games. --calibrate N
prints the iterations per CPU second and each of N games' results, in one process.
With --record FILE each game is kept in FILE as it ends, and a run with the same settings
plays only the seeds FILE does not hold yet, then reports them all (Ctrl-C or SIGTERM
stops early and reports the games finished).
"""
import argparse
import functools
import math
import statistics
import sys
from collections import Counter
from pathlib import Path

import numpy as np

import boardlab
from boardlab.arena import wilson_interval
from boardlab.agents import make_agent
from solo_play import cpu_line, play_seeded, play_seeds


def play(mode: str, spec: str, seed: int) -> dict:
    """One seeded solo game; its result (score and title, or cleared round and title), the
    seat's buildings and construction bonus, and the moves searched with their CPU seconds."""
    state = boardlab.make("nukumi", players=1, solo=mode).new_initial_state(seed=seed)
    played = play_seeded(state, spec, seed)
    obs = played.state.full_observation()
    seat = obs["seats"][0]
    return obs["result"] | {"buildings": seat["buildings"], "construction": seat["score"]["construction"],
                            "searched": played.searched, "cpu": played.cpu}


def median_interval(values: list) -> tuple:
    """The median's distribution-free 95% interval: the order statistics whose ranks a
    binomial(n, 1/2) count puts 2.5% and 97.5% of its mass below."""
    s, n = sorted(values), len(values)
    cdf = np.cumsum([math.comb(n, k) / 2 ** n for k in range(n + 1)])
    return s[int(np.searchsorted(cdf, 0.025))], s[min(int(np.searchsorted(cdf, 0.975)), n - 1)]


def buildings_line(seats: list[dict]) -> str:
    """How many buildings the seats built (count: seats) and how often the construction
    bonus (from the 8th building) scored."""
    counts = Counter(s["buildings"] for s in seats)
    bonus = sum(s["construction"] > 0 for s in seats)
    return (f"buildings per seat: {', '.join(f'{k}: {v}' for k, v in sorted(counts.items()))}; "
            f"construction bonus (8th building) in {bonus}/{len(seats)}")


def calibrate(mode: str, spec: str, games: int, first_seed: int = 0) -> str:
    """Iterations per CPU second of `spec` (an iteration budget) over the searched moves of
    seeded games (seeds first_seed, first_seed + 1, ...), and the games' results."""
    iterations = make_agent(spec).iterations
    searched, cpu, results = 0, 0.0, []
    for seed in range(first_seed, first_seed + games):
        r = play(mode, spec, seed)
        searched, cpu = searched + r["searched"], cpu + r["cpu"]
        results.append({k: v for k, v in r.items() if k in ("score", "cleared_round", "title")})
        print(f"game {len(results)}/{games} (seed {seed}): {results[-1]}; so far {searched} "
              f"searched moves, {cpu:.1f} CPU seconds", file=sys.stderr, flush=True)
    return (f"{spec}: {searched} searched moves, {cpu:.1f} CPU seconds, "
            f"{iterations * searched / cpu:,.0f} iterations per CPU second; results: "
            + ", ".join(str(r.get("score", r.get("cleared_round"))) for r in results))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=["score_attack", "chasing"], required=True)
    ap.add_argument("--agent", default="ismcts:1s", help="agent spec (default ismcts:1s)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0, help="first game seed (games use seed, seed+1, ...)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes, a game each at a time "
                    "(default 1; each times its own CPU)")
    ap.add_argument("--record", type=Path, metavar="FILE", help="keep each game in FILE and go on "
                    "from the games it holds (see above)")
    ap.add_argument("--calibrate", type=int, metavar="N", help="time the searches of N games instead")
    args = ap.parse_args(argv)
    if args.calibrate:
        print(calibrate(args.mode, args.agent, args.calibrate, args.seed))
        return 0
    seeds = range(args.seed, args.seed + args.games)
    settings = {"bench": "nukumi_solo", "mode": args.mode, "agent": args.agent}
    results = play_seeds(functools.partial(play, args.mode, args.agent), seeds, args.jobs,
                         lambda seed, r: print(f"game seed {seed}: {r}", file=sys.stderr, flush=True),
                         args.record, settings)
    if not results:
        return 1
    n = len(results)
    titles = Counter(r["title"] for r in results)
    print(f"nukumi {args.mode}, {args.agent}, {n} games from seed {args.seed}"
          + (f" (stopped early: {args.games} asked)" if n < args.games else "")
          + ": " + cpu_line(args.agent, results))
    if args.mode == "score_attack":
        scores = [r["score"] for r in results]
        top = titles["World Famous Pioneer"]
        lo, hi = wilson_interval(top, n)
        m_lo, m_hi = median_interval(scores)
        print(f"median score {statistics.median(scores)} [95% interval {m_lo}, {m_hi}], "
              f"mean {statistics.mean(scores):.1f}, min {min(scores)}, max {max(scores)}")
        print(f"World Famous Pioneer (200+): {top}/{n} [{lo:.1%}, {hi:.1%}]")
        print(buildings_line(results))
    else:
        best = titles["World Best!"]
        lo, hi = wilson_interval(best, n)
        rounds = Counter(r["cleared_round"] for r in results)
        print("cleared in round: " + ", ".join(f"{k}: {v}" for k, v in sorted(rounds.items(), key=str)))
        print(f"World Best! (cleared within 3 rounds): {best}/{n} [{lo:.1%}, {hi:.1%}]")
    print("titles: " + ", ".join(f"{t} {c}" for t, c in titles.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
