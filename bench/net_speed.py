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

A second table compares the searches in one run: iterations per second of the plain
ISMCTS (the game's tuned defaults) and of the guided search with a width-64, one-block
network, with mix=1 (the network's value, no rollout) and mix=0.5 (the network's value and a
rollout, as the Kyūshū and Keyside networks play), and mix=0.5 with late=uniform (no
network evaluation for a move new at a node that has children: docs/learning.md), each for
--search-iterations at every 10th of those positions, the cost of a guided iteration in
plain ones, and the network evaluations per iteration (evals/it) of both mix=0.5 searches.

    python bench/net_speed.py --games 2 --repeat 5 --configs "keyside solo,nukumi solo chasing"
"""
from __future__ import annotations

import argparse
import platform

import numpy as np

import boardlab
from boardlab import _net
from boardlab.search import ismcts
from boardlab.nets import netfile
from boardlab.nets.features import feature_size, features

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
    ap.add_argument("--search-iterations", type=int, default=3000)
    ap.add_argument("--configs", help="comma-separated configuration labels (default: all)")
    args = ap.parse_args(argv)
    labels = [label for label, _, _ in CONFIGS]
    chosen = labels if not args.configs else [c.strip() for c in args.configs.split(",")]
    unknown = sorted(set(chosen) - set(labels))
    if unknown:
        ap.error(f"unknown configuration {', '.join(unknown)}; choose from {', '.join(labels)}")
    print(f"# {platform.processor() or platform.machine()}, {platform.python_version()}, "
          f"{args.games} games per configuration, ns per call (mean over the positions, "
          f"best of {BEST_OF} passes)")
    print(f"{'configuration':22} {'features':>8} {'actions':>7} {'legal':>6} {'encode':>8} "
          + " ".join(f"{f'w{w}x{b}':>9}" for w, b in SHAPES))
    searched = []
    for label, name, params in CONFIGS:
        if label not in chosen:
            continue
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
        searched.append((label, game, states[::10]))
    print(f"\n# iterations per second, {args.search_iterations} iterations a search, every 10th "
          f"position; guided: w64x1")
    print(f"{'configuration':22} {'positions':>9} {'plain it/s':>11} {'mix=1 it/s':>11} "
          f"{'cost':>6} {'mix=.5 it/s':>11} {'cost':>6} {'evals/it':>8} {'uniform it/s':>12} "
          f"{'cost':>6} {'evals/it':>8}")
    for label, game, states in searched:
        spec = netfile.random_spec(game.name, "", feature_size(game), 64, 1, game.num_players,
                                   game.num_actions, seed=1)
        net = _net.Net.from_bytes(netfile.to_bytes(spec))
        rates, evals = [], []
        for guide in ({}, {"net": net}, {"net": net, "mix": 0.5},
                      {"net": net, "mix": 0.5, "late": "uniform"}):
            done = took = nets = 0.0
            for k, state in enumerate(states):
                r = ismcts(state, iterations=args.search_iterations, seed=k, **guide)
                done += r.iterations
                took += r.seconds
                nets += r.net_evals
            rates.append(done / took)
            evals.append(nets / done)
        print(f"{label:22} {len(states):9d} {rates[0]:11,.0f} {rates[1]:11,.0f} "
              f"{rates[0] / rates[1]:5.1f}x {rates[2]:11,.0f} {rates[0] / rates[2]:5.1f}x "
              f"{evals[2]:8.2f} {rates[3]:12,.0f} {rates[0] / rates[3]:5.1f}x {evals[3]:8.2f}")


if __name__ == "__main__":
    main()
