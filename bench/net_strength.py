"""Learned evaluator strength (issue 40, docs/learning.md): the guided search against the plain
ISMCTS at equal wall time per move, for every network that ships (or the files given).

    python bench/net_strength.py [--seconds 0.1] [--games 200] [--jobs 2] [--seed 1]
                                 [--net GAME:players=2:PATH|default ...] [--manifest]

Each match seats the two agents on every side in turn on shared deals (game k and k+1 share
their chance seed; boardlab.arena), each searching one tree on one core for the same time a
move, and prints the guided side's wins with a 95% Wilson interval and, where the game counts
points, the guided side's mean points per game minus the plain side's (elsewhere, as in Kitsu,
its returns; each side's seats averaged: a Kitsu clan's two seats) with a 95% interval over
the games. With --jobs 2 the games
run two at a time, one per core: on a shared machine the two searches of a game still see the
same load, so the comparison stays fair. Figures are printed, never asserted.

With --manifest each figure of a shipped network (``default``) is also written into the
strength list of its entry in the manifest beside the networks (boardlab.nets.manifest): the
comparison, budget, games, wins, losses and draws, the share won with its interval, the match
seed and this command line, in place of an earlier figure of the same comparison, budget and
seed; `boardlab nets --markdown` then prints it. Solo configurations are skipped (one side:
bench/nukumi_solo.py measures them).
"""
from __future__ import annotations

import argparse
import datetime
import shlex
import sys
import time

import boardlab
from boardlab import nets
from boardlab.arena import mean_interval, play_match, sides_of
from boardlab.nets import loader, manifest


def margin(r) -> str:
    """Agent 0's side's mean points (returns where the game counts none) minus the other
    agents' sides' mean, per game: mean and 95% interval (normal)."""
    if not r.outcomes:
        return ""
    points = r.outcomes[0].scores is not None
    _, side_of = sides_of(r.game, len(r.outcomes[0].returns))

    def side_mean(o, agent):
        per_seat = o.scores if points else o.returns
        seats = [s for s, sd in enumerate(side_of) if sd == o.side_of_agent[agent]]
        return sum(per_seat[s] for s in seats) / len(seats)
    others = range(1, len(r.agents))
    mean, half = mean_interval([side_mean(o, 0) - sum(side_mean(o, a) for a in others)
                                / len(others) for o in r.outcomes])
    f = ".1f" if points else ".3f"
    return (f"{'points' if points else 'return'} {mean:+{f}} "
            f"[{mean - half:+{f}}, {mean + half:+{f}}]")


def _shipped() -> list[tuple[str, dict, str]]:
    """(game, parameters, net spec) of every configuration a shipped network serves that
    has two sides or more."""
    return [(e["game"], dict(config), "default")
            for e in manifest.read(loader.NETS_DIR)["networks"] for config in e["configs"]
            if len(sides_of(e["game"], config["players"])[0]) > 1]


def _configuration(text: str) -> tuple[str, dict, str]:
    """GAME:KEY=VALUE,...:NET -> (game, parameters, net)."""
    try:
        name, params, net = text.split(":", 2)
        pairs = [p.split("=", 1) for p in params.split(",")]
        return name, {k: int(v) if v.isdigit() else v for k, v in pairs}, net
    except ValueError:
        raise SystemExit(f"--net expects GAME:KEY=VALUE,...:PATH (or default), got {text!r}")


def measurement(r, name: str, params: dict, seconds: float, seed: int, command: str) -> dict:
    """The match's figure as a manifest measurement (boardlab.nets.manifest)."""
    names, side_of = sides_of(name, params["players"])
    seats = side_of.count(0)
    compared = ("guided vs plain ISMCTS, equal time" if len(names) == 2 else
                f"a guided seat vs plain ISMCTS in the {len(names) - 1} others, equal time") \
        if seats == 1 else f"a guided side of {seats} seats vs a plain one, equal time"
    lo, hi = r.confidence_interval(0)
    return {"compared": compared, "budget": f"{seconds:g} s a move", "games": len(r.outcomes),
            "seeds": f"match seed {seed}", "wins": r.wins[0], "losses": sum(r.wins[1:]),
            "draws": r.draws, "figure": "won", "value": round(100 * r.win_rate(0), 1),
            "unit": "%", "interval": [round(100 * lo, 1), round(100 * hi, 1)],
            "also": [f"guided - plain per game: {margin(r)}"] if r.outcomes else [],
            "command": [command], "date": datetime.date.today().isoformat()}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=0.1)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--net", action="append", default=[],
                    help="GAME:players=P[,KEY=VALUE...]:NET, NET a network file or default, "
                         "instead of every shipped one")
    ap.add_argument("--manifest", action="store_true",
                    help="write each figure into its shipped network's manifest entry")
    args = ap.parse_args(argv)
    command = shlex.join(["python", "bench/net_strength.py",
                          *(sys.argv[1:] if argv is None else argv)])
    configs = [_configuration(text) for text in args.net] or _shipped()
    if args.manifest and any(not nets.is_default(net) for _, _, net in configs):
        raise SystemExit("--manifest records figures of the shipped networks: give --net "
                         "GAME:...:default (a file of one's own has no manifest entry)")
    print(f"# guided vs plain ISMCTS, {args.seconds:g} s a move each, {args.games} games, "
          f"seats swapped on shared deals, seed {args.seed}, {args.jobs} jobs")
    print("# more than two sides: one guided seat, plain ISMCTS in every other; 'fair' is the "
          "share an equal agent wins (1 / sides)")
    print(f"{'configuration':24} {'guided wins':>11} {'plain wins':>10} {'draws':>5} "
          f"{'guided %':>8} {'95% interval':>16} {'fair':>5} {'minutes':>7}  "
          f"guided - plain per game [95%]")
    for name, params, net in configs:
        budget = f"ismcts:{args.seconds:g}s"
        n_sides = len(sides_of(name, boardlab.make(name, **params).num_players)[0])
        t0 = time.perf_counter()
        r = play_match(name, params, [f"{budget}:net={net}"] + [budget] * (n_sides - 1),
                       args.games, seed=args.seed, jobs=args.jobs)
        lo, hi = r.confidence_interval(0)
        label = f"{name} {nets.config_key(boardlab.make(name, **params))}"
        print(f"{label:24} {r.wins[0]:11d} {sum(r.wins[1:]):10d} {r.draws:5d} "
              f"{100 * r.win_rate(0):7.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}]% "
              f"{100 / n_sides:4.1f}% {(time.perf_counter() - t0) / 60:7.1f}  {margin(r)}",
              flush=True)
        if args.manifest:
            game = boardlab.make(name, **params)
            entry = nets.default_entry(game)
            path = manifest.add_strength(loader.NETS_DIR, entry["file"], measurement(
                r, name, params, args.seconds, args.seed, command))
            print(f"# written into {path}, {entry['file']}", flush=True)


if __name__ == "__main__":
    main()
