"""Nukumi solo modes, measured: seeded games of one agent, then Score Attack's
median score and title shares, or Chasing Nukumaru's cleared rounds.

    python bench/nukumi_solo.py --mode score_attack --agent ismcts:1s --games 100
    python bench/nukumi_solo.py --mode chasing --agent ismcts:1s --games 100
"""
import argparse
import statistics
import sys
from collections import Counter

import boardlab
from boardlab.arena import wilson_interval
from solo_play import play_seeded


def play(mode: str, spec: str, seed: int) -> dict:
    """One seeded solo game; its result (score and title, or cleared round and title)."""
    state = boardlab.make("nukumi", players=1, solo=mode).new_initial_state(seed=seed)
    state = play_seeded(state, spec, seed)
    return state.full_observation()["result"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=["score_attack", "chasing"], required=True)
    ap.add_argument("--agent", default="ismcts:1s", help="agent spec (default ismcts:1s)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0, help="first game seed (games use seed, seed+1, ...)")
    args = ap.parse_args(argv)
    results = []
    for i in range(args.games):
        results.append(play(args.mode, args.agent, args.seed + i))
        print(f"game {i + 1}/{args.games}: {results[-1]}", file=sys.stderr, flush=True)
    n = len(results)
    titles = Counter(r["title"] for r in results)
    print(f"nukumi {args.mode}, {args.agent}, {n} games from seed {args.seed}")
    if args.mode == "score_attack":
        scores = [r["score"] for r in results]
        top = titles["World Famous Pioneer"]
        lo, hi = wilson_interval(top, n)
        print(f"median score {statistics.median(scores)}, mean {statistics.mean(scores):.1f}, "
              f"min {min(scores)}, max {max(scores)}")
        print(f"World Famous Pioneer (200+): {top}/{n} [{lo:.1%}, {hi:.1%}]")
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
