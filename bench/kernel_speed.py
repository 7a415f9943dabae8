"""Kernel speed: random playouts per second and nanoseconds per applied action.

    python bench/kernel_speed.py [--games N] [--repeats R]

Each configuration runs ``game.random_playouts(n, seed)`` -- whole games played in C, chance
included -- several times and reports the best and the median. It also prints a fixed-seed
signature (sum of seat 0's returns and total actions of 1000 playouts with seed 1),
which must be identical from run to run and machine to machine: a changed signature means the rules (or the
RNG) changed. Figures are printed, never asserted.

A new game adds one line to CONFIGS.
"""
from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time

import boardlab

SIGNATURE_GAMES = 1000   # fixed, so signatures compare across runs whatever --games is

# (label, game name, parameters)
CONFIGS = [
    ("kitsu 2p", "kitsu", {"players": 2}),
    ("kitsu 4p", "kitsu", {"players": 4}),
    ("kitsu 6p", "kitsu", {"players": 6}),
]


def cpu_name() -> str:
    """The CPU model, for the header line."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown cpu"


def signature(game, n: int) -> tuple[float, int]:
    """(sum of seat 0's returns, total actions) of ``n`` playouts with seed 1.

    Seat 0's sum, not all seats': in a zero-sum game the total is always zero."""
    stats = game.random_playouts(n, seed=1)
    return float(stats.returns[:, 0].sum()), int(stats.actions)


def measure(game, n: int, repeats: int) -> dict:
    """Time ``repeats`` batches of ``n`` playouts (different seeds)."""
    game.random_playouts(max(1, n // 10), seed=12345)   # warm up caches and lazy setup
    rates, ns_per_action, actions_per_game = [], [], []
    for r in range(repeats):
        t0 = time.perf_counter()
        stats = game.random_playouts(n, seed=1000 + r)
        dt = time.perf_counter() - t0
        actions = max(1, int(stats.actions))
        rates.append(n / dt)
        ns_per_action.append(dt * 1e9 / actions)
        actions_per_game.append(actions / n)
    return {
        "best_rate": max(rates), "median_rate": statistics.median(rates),
        "best_ns": min(ns_per_action), "median_ns": statistics.median(ns_per_action),
        "actions_per_game": statistics.mean(actions_per_game),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20000,
                    help="playouts per batch (default 20000)")
    ap.add_argument("--repeats", type=int, default=5, help="timed batches (default 5)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        ap.error("--games and --repeats must be at least 1")

    print(f"boardlab kernel speed -- {args.games} random playouts x {args.repeats} batches, "
          f"Python {platform.python_version()}, {platform.machine()}, "
          f"{cpu_name()}")
    header = (f"{'config':<10} {'playouts/s best':>15} {'median':>10} {'ns/action best':>14} "
              f"{'median':>8} {'actions/game':>12}  signature (1000 games, seed 1: P0 returns, actions)")
    print(header)
    print("-" * len(header))
    for label, name, params in CONFIGS:
        game = boardlab.make(name, **params)
        m = measure(game, args.games, args.repeats)
        sig_returns, sig_actions = signature(game, SIGNATURE_GAMES)
        print(f"{label:<10} {m['best_rate']:>15,.0f} {m['median_rate']:>10,.0f} "
              f"{m['best_ns']:>14,.1f} {m['median_ns']:>8,.1f} {m['actions_per_game']:>12,.1f}"
              f"  {sig_returns:+.6g}, {sig_actions}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
