"""Speed of the pure-Python reference SO-ISMCTS (boardlab.reference_search)
next to the C search (boardlab.search.ismcts), same position and options.

Prints iterations per second of each engine for Kitsu 2p from the first lead
and Kyushu 2p from its first decision, with full random rollouts and with the
game's default rollout cut-off. Never fails on time.

    python bench/reference_speed.py                     # Python 300, C 20000 iterations
    python bench/reference_speed.py --py-iterations 1000 --c-iterations 50000
"""
import argparse
import os
import sys
import time

import numpy as np

import boardlab
from boardlab import reference_search
from boardlab.search import default_rollout_depth, ismcts

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from search_speed import first_lead  # noqa: E402


def first_decision(name: str, seed: int):
    """A seeded 2-player game of ``name`` advanced through chance to its first decision."""
    if name == "kitsu":
        return first_lead(2, seed)
    state = boardlab.make(name, players=2).new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    while state.is_chance():
        outcomes = state.chance_outcomes()
        probs = np.array([p for _, p in outcomes])
        state.apply(int(outcomes[rng.choice(len(outcomes), p=probs / probs.sum())][0]))
    return state


def rate(run, iterations: int) -> float:
    t0 = time.perf_counter()
    run(iterations)
    return iterations / (time.perf_counter() - t0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--py-iterations", type=int, default=300)
    ap.add_argument("--c-iterations", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=7, help="game seed of the positions")
    args = ap.parse_args(argv)
    print(f"{'position':<10} {'rollouts':<22} {'C it/s':>10} {'Python it/s':>12} {'ratio':>7}")
    for name in ("kitsu", "kyushu"):
        state = first_decision(name, args.seed)
        default = default_rollout_depth(name)
        for depth, label in ((-1, "full"), (default, f"default (depth={default})")):
            c = rate(lambda n: ismcts(state, iterations=n, seed=1, rollout_depth=depth),
                     args.c_iterations)
            py = rate(lambda n: reference_search.ismcts(state, n, seed=1, rollout_depth=depth),
                      args.py_iterations)
            print(f"{name + ' 2p':<10} {label:<22} {c:>10,.0f} {py:>12,.0f} {c / py:>6.0f}x", flush=True)


if __name__ == "__main__":
    main()
