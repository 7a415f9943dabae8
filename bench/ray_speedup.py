"""Speed of the local Ray back end against local processes (`--jobs 2`) on the same match.

    python bench/ray_speedup.py [--games 24] [--agents ismcts:5000 ismcts:5000] [--cpus 2]

Plays the same match twice -- ``backend="local", jobs=CPUS`` and ``backend="ray"`` on a
local Ray with CPUS CPUs -- checks that the results are identical and prints both wall
times and their ratio (local / Ray: above 1 means Ray is faster). Ray's start-up is timed
separately: it is paid once per session, not per match.
"""
import argparse
import time

import ray

from boardlab.arena import play_match


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="kitsu")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--agents", nargs=2, default=["ismcts:5000", "ismcts:5000"])
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cpus", type=int, default=2)
    args = ap.parse_args(argv)
    match = (args.game, {"players": args.players}, args.agents)
    print(f"{args.game} {args.players}p, {' vs '.join(args.agents)}, {args.games} games, "
          f"{args.cpus} CPUs")

    t0 = time.perf_counter()
    local = play_match(*match, games=args.games, seed=args.seed, jobs=args.cpus)
    t_local = time.perf_counter() - t0
    print(f"  local processes (jobs={args.cpus}): {t_local:7.2f} s")

    t0 = time.perf_counter()
    ray.init(address="local", num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    t_start = time.perf_counter() - t0
    try:
        t0 = time.perf_counter()
        on_ray = play_match(*match, games=args.games, seed=args.seed, backend="ray")
        t_ray = time.perf_counter() - t0
    finally:
        ray.shutdown()
    print(f"  local Ray ({args.cpus} CPUs):        {t_ray:7.2f} s  (+ {t_start:.1f} s to start Ray)")
    assert on_ray.to_dict() == local.to_dict(), "Ray and local results differ"
    print(f"  identical results; speed-up of Ray against jobs={args.cpus}: "
          f"{t_local / t_ray:.2f}x ({t_local / (t_ray + t_start):.2f}x with its start-up)")


if __name__ == "__main__":
    main()
