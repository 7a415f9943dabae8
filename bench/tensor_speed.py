"""Observation tensor speed: microseconds per call of ``state.observation(seat)`` (the
kernel's JSON, parsed) and of ``tensors.encode(game, obs)`` (the encoder), per game.

    python bench/tensor_speed.py [--games N] [--repeats R]

Every seat's observation at every state of N random games (seeded, chance included) is
encoded R times; the best and the median pass are printed, per observation, in CPU time of
this process (so other load on a shared machine does not count). Figures are printed, never
asserted.
"""
from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np

import boardlab
from boardlab.interop import tensors

# (label, game name, parameters)
CONFIGS = [
    ("kitsu 4p", "kitsu", {"players": 4}),
    ("kyushu 3p", "kyushu", {"players": 3}),
    ("keyside 4p", "keyside", {"players": 4}),
    ("keyside solo", "keyside", {"players": 1}),
    ("nukumi 4p advanced", "nukumi", {"players": 4, "advanced": True}),
    ("nukumi solo chasing", "nukumi", {"players": 1, "solo": "chasing"}),
]


def _states(game, games):
    out = []
    for seed in range(games):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            out.append(state.clone())
            if state.is_chance():
                outcomes = state.chance_outcomes()
                p = np.array([q for _, q in outcomes])
                state.apply(outcomes[rng.choice(len(outcomes), p=p / p.sum())][0])
            else:
                state.apply(int(rng.choice(state.legal_actions())))
    return out


def _passes(fn, items, repeats):
    times = []
    for _ in range(repeats):
        t = time.process_time()
        for item in items:
            fn(item)
        times.append((time.process_time() - t) / len(items) * 1e6)
    return min(times), statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    print(f"# boardlab {boardlab.__version__}, Python {platform.python_version()}, {platform.machine()}; "
          f"{args.games} games, {args.repeats} passes; CPU microseconds per call (best / median)")
    print(f"{'configuration':<22}{'floats':>7}{'calls':>8}{'observation':>16}{'encode':>16}")
    for label, name, params in CONFIGS:
        game = boardlab.make(name, **params)
        pairs = [(s, seat) for s in _states(game, args.games) for seat in range(game.num_players)]
        observations = [s.observation(seat) for s, seat in pairs]
        obs_best, obs_med = _passes(lambda p: p[0].observation(p[1]), pairs, args.repeats)
        enc_best, enc_med = _passes(lambda o: tensors.encode(game, o), observations, args.repeats)
        print(f"{label:<22}{tensors.tensor_size(game):>7}{len(pairs):>8}"
              f"{obs_best:>9.0f} / {obs_med:<5.0f}{enc_best:>9.0f} / {enc_med:.0f}")


if __name__ == "__main__":
    main()
