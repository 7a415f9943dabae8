"""Kernel speed: random playouts per second and nanoseconds per applied action.

    python bench/kernel_speed.py [--games N] [--repeats R]

Each configuration runs ``game.random_playouts(n, seed)`` -- whole games played in C, chance
included -- several times and reports the best and the median. It also prints a fixed-seed
signature (sum of seat 0's returns and total actions of 1000 playouts with seed 1),
which must be identical from run to run and machine to machine: a changed signature means the rules (or the
RNG) changed. Figures are printed, never asserted.

A new game adds one line to CONFIGS. Kyushu also reports the time to enumerate legal
placements on a 12-card map (the orientation/layer step, which tests all 8 bitboard position
sets, and the position step), measured through the Python binding (call overhead included).
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
    ("kyushu 2p", "kyushu", {"players": 2}),
    ("kyushu 4p", "kyushu", {"players": 4}),
    ("kyushu 5p", "kyushu", {"players": 5}),
    ("kyushu 4p+", "kyushu", {"players": 4, "most_fewest": True, "travelers": True}),
    ("keyside 2p", "keyside", {"players": 2}),
    ("keyside 4p", "keyside", {"players": 4}),
    ("keyside solo", "keyside", {"players": 1}),
    ("nukumi 1p", "nukumi", {"players": 1}),
    ("nukumi 2p", "nukumi", {"players": 2}),
    ("nukumi 4p", "nukumi", {"players": 4}),
    ("nukumi 4p+", "nukumi", {"players": 4, "advanced": True}),
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
    kyushu_placement_timing()
    return 0


def _twelve_card_map_state(seed: int = 5):
    """A random 4p Kyushu game at the last Map phase (12 cards in the mover's map)."""
    import numpy as np
    game = boardlab.make("kyushu", players=4)
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    while True:
        obs = state.full_observation()
        if obs["phase"] == "map" and obs["round"] == 12:
            seat = state.current_player
            if len(obs["maps"][seat]["cards"]) == 12:
                return state
        if state.is_chance():
            acts, probs = zip(*state.chance_outcomes())
            state.apply(int(rng.choice(acts, p=probs)))
        else:
            state.apply(int(rng.choice(state.legal_actions())))


def kyushu_placement_timing(calls: int = 20000) -> None:
    """Microseconds per legal_actions() call on a 12-card map."""
    state = _twelve_card_map_state()
    orient = state.clone()
    pos = state.clone()
    first = [a for a in pos.legal_actions() if pos.action_to_string(int(a)).startswith("orient")]
    pos.apply(int(first[0]))
    for label, st in (("orientation/layer step", orient), ("position step", pos)):
        core = st._core
        n = len(core.legal_actions())
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            for _ in range(calls):
                core.legal_actions()
            best = min(best, (time.perf_counter() - t0) / calls)
        print(f"kyushu 12-card map, {label:<22}: {best * 1e6:7.2f} us per legal_actions() "
              f"({n} legal actions)")


if __name__ == "__main__":
    raise SystemExit(main())
