"""Learned evaluator strength (issue 40, docs/learning.md): the guided search against the plain
ISMCTS at equal wall time per move, for every network that ships (or the files given).

    python bench/net_strength.py [--seconds 0.1] [--games 200] [--jobs 2] [--seed 1]
                                 [--net kitsu:players=2:PATH ...]

Each match seats the two agents on every side in turn on shared deals (game k and k+1 share
their chance seed; boardlab.arena), each searching one tree on one core for the same time a
move, and prints the guided side's wins with a 95% Wilson interval and, where the game counts
points, the guided side's mean points per game minus the plain side's (elsewhere, as in Kitsu,
its returns; each side's seats averaged: a Kitsu clan's two seats) with a 95% interval over
the games. With --jobs 2 the games
run two at a time, one per core: on a shared machine the two searches of a game still see the
same load, so the comparison stays fair. Figures are printed, never asserted.
"""
from __future__ import annotations

import argparse
import time

import boardlab
from boardlab.arena import mean_interval, play_match, sides_of
from boardlab.learn import nets


def margin(r) -> str:
    """Agent 0's side's mean points (returns where the game counts none) minus agent 1's, per
    game: mean and 95% interval (normal)."""
    if not r.outcomes:
        return ""
    points = r.outcomes[0].scores is not None
    _, side_of = sides_of(r.game, len(r.outcomes[0].returns))

    def side_mean(o, agent):
        per_seat = o.scores if points else o.returns
        seats = [s for s, sd in enumerate(side_of) if sd == o.side_of_agent[agent]]
        return sum(per_seat[s] for s in seats) / len(seats)
    mean, half = mean_interval([side_mean(o, 0) - side_mean(o, 1) for o in r.outcomes])
    f = ".1f" if points else ".3f"
    return (f"{'points' if points else 'return'} {mean:+{f}} "
            f"[{mean - half:+{f}}, {mean + half:+{f}}]")


def _shipped() -> list[tuple[str, dict, str]]:
    """(game, parameters, net spec) of every shipped network."""
    out = []
    for name in boardlab.games_available():
        for players in range(1, 7):
            try:
                game = boardlab.make(name, players=players)
            except ValueError:
                continue
            if nets.default_path(game).is_file():
                out.append((name, {"players": players}, "default"))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=0.1)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--net", action="append", default=[],
                    help="GAME:players=P:PATH, a network file instead of the shipped ones")
    args = ap.parse_args(argv)
    configs = []
    for text in args.net:
        name, players, path = text.split(":", 2)
        configs.append((name, {"players": int(players.split("=")[1])}, path))
    configs = configs or _shipped()
    print(f"# guided vs plain ISMCTS, {args.seconds:g} s a move each, {args.games} games, "
          f"seats swapped on shared deals, seed {args.seed}, {args.jobs} jobs")
    print(f"{'configuration':24} {'guided wins':>11} {'plain wins':>10} {'draws':>5} "
          f"{'guided %':>8} {'95% interval':>16} {'minutes':>7}  guided - plain per game [95%]")
    for name, params, net in configs:
        budget = f"ismcts:{args.seconds:g}s"
        t0 = time.perf_counter()
        r = play_match(name, params, [f"{budget}:net={net}", budget], args.games, seed=args.seed,
                       jobs=args.jobs)
        lo, hi = r.confidence_interval(0)
        label = f"{name} {nets.config_key(boardlab.make(name, **params))}"
        print(f"{label:24} {r.wins[0]:11d} {r.wins[1]:10d} {r.draws:5d} "
              f"{100 * r.win_rate(0):7.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}]% "
              f"{(time.perf_counter() - t0) / 60:7.1f}  {margin(r)}", flush=True)


if __name__ == "__main__":
    main()
