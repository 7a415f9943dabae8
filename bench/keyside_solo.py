"""Keyside's Keytoma solo game, measured: seeded games of one agent, then the win
rate (at least 120 points and 2 of 3 beacons lit, or all 3 with --all-beacons)
with a 95% Wilson interval, the median score, the beacon counts and where the
points came from.

    python bench/keyside_solo.py --agent ismcts:2000 --games 100
    python bench/keyside_solo.py --agent ismcts:1s --games 100 --all-beacons --jobs 2
    python bench/keyside_solo.py --agent ismcts:20000 --calibrate 25   # iterations per CPU second
    python bench/keyside_solo.py --agent ismcts:5000 --trace 3015       # one game, move by move
    python bench/keyside_solo.py --agent ismcts:5000 --games 200 --seed 5000 --drawn B1,B2

Every search is timed in the CPU time of the process that plays it, which a loaded machine
does not inflate: the summary gives the CPU seconds a move (with --jobs N each worker times
its own games). --calibrate N times only the agent's first N searches (moves with a choice)
of the game of --seed and prints iterations per CPU second: the iteration budget that
matches a time budget on one unloaded core.

--trace SEED plays the game of SEED alone and prints each of the agent's moves: the year, the
heuristic value before it (State.evaluate), how many moves were legal, the move, then the score
and the drawn beacons (* lit): where a lost game went wrong.

--drawn B1,B2 plays only the seeds of the range whose drawn beacons include one of those
(a change to one beacon's play measured on the games it can affect).

Interrupt it (Ctrl-C, or SIGTERM) to stop early: it reports the games finished. With
--record FILE each game is also kept in FILE as it ends, and a run with the same settings
plays only the seeds FILE does not hold yet, then reports them all: a measurement of hours
survives a stop (the machine's, or a session's).
"""
import argparse
import functools
import statistics
import sys
from collections import Counter
from pathlib import Path

import numpy as np

import boardlab
from boardlab.agents import make_agent
from boardlab.arena import wilson_interval
from solo_play import apply_chance, cpu_line, play_seeded, play_seeds


def winning_now(obs: dict, need: int) -> bool:
    """Whether the position would be a win if the game ended now (score and beacons as they stand)."""
    return obs["seats"][0]["score"]["total"] >= 120 and sum(bool(b["lit"]) for b in obs["beacons"]) >= need


def play(spec: str, all_beacons: bool, seed: int) -> dict:
    """One seeded solo game: won, total, score breakdown, the beacons, whether the
    position stood as a win at some point (a lost game that did threw it away), and the
    moves searched with their CPU seconds (solo_play.Played)."""
    state = boardlab.make("keyside", players=1, solo_all_beacons=all_beacons).new_initial_state(seed=seed)
    need = 3 if all_beacons else 2
    stood, peak = [], [0]

    def watch(s):
        obs = s.full_observation()
        peak[0] = max(peak[0], obs["seats"][0]["score"]["total"])
        if not stood and winning_now(obs, need):
            stood.append(True)

    played = play_seeded(state, spec, seed, after_move=watch)
    obs = played.state.full_observation()
    score = obs["seats"][0]["score"]
    return {"won": bool(obs["won"]), "total": score["total"], "score": score, "stood": bool(stood), "peak": peak[0],
            "beacons": [(b["beacon"], bool(b["lit"])) for b in obs["beacons"]],
            "searched": played.searched, "cpu": played.cpu}


def trace(spec: str, all_beacons: bool, seed: int) -> None:
    """Print the seeded game of `seed` move by move (see --trace)."""
    state = boardlab.make("keyside", players=1, solo_all_beacons=all_beacons).new_initial_state(seed=seed)
    line = []

    def before(s, action):
        line[:] = [f"year {s.full_observation()['year']} value {s.evaluate()[0]:+.3f} "
                   f"of {len(s.legal_actions()):3d}: {s.action_to_string(action):45s}"]

    def after(s):
        obs = s.full_observation()
        lit = " ".join(b["beacon"] + ("*" if b["lit"] else "") for b in obs["beacons"])
        print(f"{line[0]} -> {obs['seats'][0]['score']['total']:3d} points, {lit}")

    obs = play_seeded(state, spec, seed, after_move=after, before_move=before).state.full_observation()
    print(f"{'won' if obs['won'] else 'lost'}: " + ", ".join(f"{k} {v}" for k, v in obs["seats"][0]["score"].items()))


def drawn_beacons(seed: int) -> list[str]:
    """The three beacons the solo game of `seed` draws (chance drawn as in play_seeded)."""
    state = boardlab.make("keyside", players=1).new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    while state.is_chance():
        apply_chance(state, rng)
    return [b["beacon"] for b in state.full_observation()["beacons"]]


def calibrate(spec: str, all_beacons: bool, seed: int, searches: int) -> float:
    """Iterations per CPU second of `spec` (an iteration budget) over its first `searches`
    searches in the solo game of `seed`."""
    iterations = make_agent(spec).iterations
    if iterations is None:
        raise SystemExit(f"--calibrate needs an iteration budget (ismcts:N), got {spec!r}")
    state = boardlab.make("keyside", players=1, solo_all_beacons=all_beacons).new_initial_state(seed=seed)
    played = play_seeded(state, spec, seed, searches=searches)
    return iterations * played.searched / played.cpu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--agent", default="ismcts:1s", help="agent spec (default ismcts:1s)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0, help="first game seed (games use seed, seed+1, ...)")
    ap.add_argument("--all-beacons", action="store_true", help="the solo_all_beacons option: all 3 must be lit")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--calibrate", type=int, metavar="N", help="only time the first N searches (see above)")
    ap.add_argument("--drawn", metavar="B1,B2", help="only the seeds that draw one of these beacons (see above)")
    ap.add_argument("--record", type=Path, metavar="FILE", help="keep each game in FILE and go on "
                    "from the games it holds (see above)")
    ap.add_argument("--trace", type=int, metavar="SEED", help="print the game of SEED move by move (see above)")
    args = ap.parse_args(argv)
    if args.trace is not None:
        trace(args.agent, args.all_beacons, args.trace)
        return 0
    if args.calibrate:
        rate = calibrate(args.agent, args.all_beacons, args.seed, args.calibrate)
        print(f"keyside solo, {args.agent}, seed {args.seed}, first {args.calibrate} searches: "
              f"{rate:,.0f} iterations per CPU second")
        return 0
    seeds = range(args.seed, args.seed + args.games)
    if args.drawn:
        wanted = {b.strip().upper() for b in args.drawn.split(",")}
        known = {f"{p}{k}" for p in "ABC" for k in range(1, 7)}
        if not wanted <= known:
            ap.error(f"--drawn: unknown beacon(s) {', '.join(sorted(wanted - known))}; beacons are A1-A6, B1-B6, C1-C6")
        seeds = [s for s in seeds if wanted & set(drawn_beacons(s))]
        if not seeds:
            ap.error(f"--drawn: no seed from {args.seed} to {args.seed + args.games - 1} draws {args.drawn}")
    def say(seed, r):
        lit = "".join(b for b, ok in r["beacons"] if ok) or "-"
        print(f"game seed {seed}: {r['total']} points (peak {r['peak']}), lit {lit}, "
              f"{'won' if r['won'] else 'lost after standing as a win' if r['stood'] else 'lost'}",
              file=sys.stderr, flush=True)

    settings = {"bench": "keyside_solo", "agent": args.agent, "all_beacons": args.all_beacons}
    results = play_seeds(functools.partial(play, args.agent, args.all_beacons), seeds, args.jobs, say,
                         args.record, settings)
    if not results:
        return 1
    n = len(results)
    wins = sum(r["won"] for r in results)
    lo, hi = wilson_interval(wins, n)
    totals = [r["total"] for r in results]
    lit = Counter(sum(ok for _, ok in r["beacons"]) for r in results)
    need = 3 if args.all_beacons else 2
    print(f"keyside solo{' (all 3 beacons)' if args.all_beacons else ''}, {args.agent}, {n} games from seed {args.seed}"
          + (f" drawing {args.drawn}" if args.drawn else "")
          + (f" (stopped early: {len(seeds)} asked)" if n < len(seeds) else "")
          + ": " + cpu_line(args.agent, results))
    print(f"won {wins}/{n} = {wins / n:.1%} [95% Wilson {lo:.1%}, {hi:.1%}]; "
          f"lost after standing as a win: {sum(r['stood'] and not r['won'] for r in results)}")
    print(f"score: median {statistics.median(totals)}, mean {statistics.mean(totals):.1f}, "
          f"min {min(totals)}, max {max(totals)}; >= 120 in {sum(t >= 120 for t in totals)}/{n}; "
          f"peak during the game: median {statistics.median(r['peak'] for r in results)}, "
          f">= 120 in {sum(r['peak'] >= 120 for r in results)}/{n}")
    print("beacons lit: " + ", ".join(f"{k}: {lit[k]}" for k in range(4))
          + f"; >= {need} in {sum(v for k, v in lit.items() if k >= need)}/{n}")
    by_beacon = Counter()
    drawn = Counter()
    for r in results:
        for b, ok in r["beacons"]:
            drawn[b] += 1
            by_beacon[b] += ok
    print("lit per beacon: " + ", ".join(f"{b} {by_beacon[b]}/{drawn[b]}" for b in sorted(drawn)))
    parts = {k: statistics.mean(sum(v) if isinstance(v, list) else v for v in [r["score"][k] for r in results])
             for k in results[0]["score"] if k != "total"}
    print("mean points by source: " + ", ".join(f"{k} {v:.1f}" for k, v in parts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
