"""Learned-evaluator speed (issue 40, docs/learning.md): nanoseconds per forward pass of
the kernel's policy-value network (kernel/net) at each game's feature size and a few
widths, and nanoseconds for the kernel to write one state's features.

    python bench/net_speed.py [--games N] [--repeat R]

Positions are the decisions of N seeded random games of each configuration, seen by the
seat to move (its features and its legal actions). Each forward pass runs in C over those
positions R times (no Python per pass): the cost the guided search would pay per node,
value and prior over the legal actions. The networks are random (untrained): their cost
does not depend on the weights. Each figure is the best of 5 passes (other load on the
machine only slows a pass). Figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import platform

import numpy as np

import boardlab
from boardlab import _net
from boardlab.learn import netfile
from boardlab.learn.features import feature_size, features

# (label, game name, parameters)
CONFIGS = [
    ("kitsu 2p", "kitsu", {"players": 2}),
    ("kitsu 4p", "kitsu", {"players": 4}),
    ("kyushu 2p", "kyushu", {"players": 2}),
    ("keyside 2p", "keyside", {"players": 2}),
    ("keyside solo", "keyside", {"players": 1}),
    ("nukumi 2p", "nukumi", {"players": 2}),
    ("nukumi solo chasing", "nukumi", {"players": 1, "solo": "chasing"}),
]
SHAPES = [(64, 1), (128, 2), (256, 2)]      # (width, residual blocks)
BEST_OF = 5     # the best of 5 passes: other load on a shared machine only slows a pass


def _positions(game, games):
    """(states, features, legal masks) at the decisions of `games` seeded random games."""
    states, xs, masks = [], [], []
    for seed in range(games):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            if state.is_chance():
                outcomes = state.chance_outcomes()
                p = np.array([q for _, q in outcomes])
                state.apply(outcomes[rng.choice(len(outcomes), p=p / p.sum())][0])
                continue
            states.append(state.clone())
            xs.append(features(state, state.current_player))
            m = np.zeros(game.num_actions, dtype=bool)
            m[state.legal_actions()] = True
            masks.append(m)
            state.apply(int(rng.choice(state.legal_actions())))
    return states, np.array(xs), np.array(masks)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args(argv)
    print(f"# {platform.processor() or platform.machine()}, {platform.python_version()}, "
          f"{args.games} games per configuration, ns per call (mean over the positions, "
          f"best of {BEST_OF} passes)")
    print(f"{'configuration':22} {'features':>8} {'actions':>7} {'legal':>6} {'encode':>8} "
          + " ".join(f"{f'w{w}x{b}':>9}" for w, b in SHAPES))
    for label, name, params in CONFIGS:
        game = boardlab.make(name, **params)
        size = feature_size(game)
        if not size:
            print(f"{label:22} {'-':>8}  (no features yet)")
            continue
        states, x, mask = _positions(game, args.games)
        enc = min(np.mean([_net.features_ns(s._core, s.current_player, args.repeat) for s in states])
                  for _ in range(BEST_OF))
        cols = []
        for width, blocks in SHAPES:
            spec = netfile.random_spec(name, "", size, width, blocks, game.num_players,
                                       game.num_actions, seed=1)
            net = _net.Net.from_bytes(netfile.to_bytes(spec))
            cols.append(f"{min(net.forward_ns(x, mask, args.repeat) for _ in range(BEST_OF)):9.0f}")
        print(f"{label:22} {size:8d} {game.num_actions:7d} {mask.sum(1).mean():6.1f} {enc:8.0f} "
              + " ".join(cols))


if __name__ == "__main__":
    main()
