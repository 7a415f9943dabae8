"""Parameter sweep for the ISMCTS agent: each candidate spec plays a match
against a reference spec (seats swapped on shared deals) and the score of the
candidate is printed with a 95% Wilson interval.

    python bench/tune_search.py --reference ismcts:0.05s \\
        --candidates ismcts:0.05s:c=0.35 ismcts:0.05s:c=0.5 ismcts:0.05s:c=1.0 --games 40

With ``--backend ray [--address HOST:PORT]`` the games are Ray tasks (docs/scale.md); the
matches of all candidates share one Ray session.
"""
import argparse
import contextlib
import sys
import time

from boardlab.arena import play_match, wilson_interval
from boardlab.parallel import ray_session


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="kitsu")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--reference", default="ismcts:5000")
    ap.add_argument("--candidates", nargs="+", required=True)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None,
                    help="local processes (default 1) or CPUs of a local Ray (default all)")
    ap.add_argument("--backend", choices=("local", "ray"), default="local")
    ap.add_argument("--address", default=None, help="an existing Ray cluster, HOST:PORT")
    args = ap.parse_args(argv)
    try:
        with (ray_session(args.address, args.jobs) if args.backend == "ray"
              else contextlib.nullcontext()):
            sweep(args)
    except (ImportError, ConnectionError, ValueError) as e:
        sys.exit(f"tune_search: {e}")


def sweep(args):
    print(f"{args.game} {args.players}p, reference {args.reference}, {args.games} games each, "
          f"seed {args.seed}")
    for spec in args.candidates:
        t0 = time.perf_counter()
        r = play_match(args.game, {"players": args.players}, [spec, args.reference],
                       games=args.games, seed=args.seed, jobs=args.jobs, backend=args.backend,
                       address=args.address)
        score = r.wins[0] + 0.5 * r.draws
        lo, hi = wilson_interval(score, args.games)
        print(f"  {spec:<36} score {score:5.1f}/{args.games} = {100 * score / args.games:5.1f}%  "
              f"95% CI [{100 * lo:5.1f}%, {100 * hi:5.1f}%]  ({time.perf_counter() - t0:.0f} s)",
              flush=True)


if __name__ == "__main__":
    main()
