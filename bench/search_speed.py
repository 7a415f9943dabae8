"""ISMCTS speed on Kitsu 2p from the first lead.

Prints iterations per second (averaged over a few runs on one core), tree
memory per node and a fixed-seed signature (best move and root visits). Never
fails on time.

    python bench/search_speed.py                   # 20000 iterations x 3 runs
    python bench/search_speed.py --iterations 100000 --runs 5
    python bench/search_speed.py --seconds 2
    python bench/search_speed.py --seconds 3 --threads 1 2   # root-parallel scaling
"""
import argparse
import time

import numpy as np

import boardlab
from boardlab import search


def first_lead(players: int, seed: int):
    """A seeded game advanced through its chance nodes (the deal) to the first decision."""
    state = boardlab.make("kitsu", players=players).new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    while state.current_player == boardlab.CHANCE:
        outcomes = state.chance_outcomes()
        probs = np.array([p for _, p in outcomes])
        state.apply(int(outcomes[rng.choice(len(outcomes), p=probs / probs.sum())][0]))
    return state


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iterations", type=int, default=None, help="iterations per run (default 20000)")
    ap.add_argument("--seconds", type=float, default=None, help="seconds per run instead of iterations")
    ap.add_argument("--runs", type=int, default=3, help="runs to average (default 3)")
    ap.add_argument("--players", type=int, default=2, choices=(2, 4, 6))
    ap.add_argument("--seed", type=int, default=7, help="game seed of the position")
    ap.add_argument("--rollout-depth", type=int, default=-1)
    ap.add_argument("--threads", type=int, nargs="+", default=[1],
                    help="thread counts to measure (root-parallel trees), e.g. --threads 1 2")
    args = ap.parse_args(argv)
    if args.iterations is not None and args.seconds is not None:
        ap.error("give at most one of --iterations and --seconds")
    if args.iterations is None and args.seconds is None:
        args.iterations = 20000

    state = first_lead(args.players, args.seed)
    print(f"Kitsu {args.players}p, first lead, seat {state.current_player} to move, "
          f"{len(state.legal_actions())} legal actions")
    budget = ({"iterations": args.iterations} if args.iterations is not None
              else {"seconds": args.seconds})
    ismcts = search.ismcts
    ismcts(state, iterations=200, seed=0)                      # warm-up
    by_threads = {}
    for threads in args.threads:
        rates = []
        for run in range(args.runs):
            t0 = time.perf_counter()
            r = ismcts(state, seed=run + 1, rollout_depth=args.rollout_depth, threads=threads,
                       **budget)
            dt = time.perf_counter() - t0
            rates.append(r.iterations / dt)
            print(f"  threads {threads} run {run + 1}: {r.iterations} iterations in {dt:.3f}s = "
                  f"{rates[-1]:,.0f} it/s, {r.nodes} nodes, {r.memory_bytes / 1e6:.1f} MB")
        by_threads[threads] = float(np.mean(rates))
        print(f"ISMCTS iterations/second, {threads} thread(s) (mean of {args.runs}): "
              f"{by_threads[threads]:,.0f}")
    if 1 in by_threads:
        for threads, rate in by_threads.items():
            if threads != 1:
                print(f"speed-up of {threads} threads over 1: {rate / by_threads[1]:.2f}x")
    print(f"bytes per node: {search.bytes_per_node()}")
    sig = ismcts(state, iterations=5000, seed=12345)
    print("signature (seed 12345, 5000 iterations): best", sig.best_move,
          "| visits", " ".join(f"{s['move']}={s['visits']}" for s in sig.stats))


if __name__ == "__main__":
    main()
