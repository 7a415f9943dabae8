"""Nukumi with 2 to 4 players, measured: seeded games with one agent spec in every seat
(chance drawn as in every seeded solo bench), then each seat's score, its buildings and how
often the construction bonus of the 8th building scored.

    python bench/nukumi_selfplay.py --players 2 --agent ismcts:2000 --games 100
    python bench/nukumi_selfplay.py --players 2 --agent ismcts:2000 --games 50 --seed 50
"""
import argparse
import statistics
import sys

import boardlab
from nukumi_solo import buildings_line
from solo_play import play_seeded


def play(players: int, spec: str, seed: int) -> list[dict]:
    """One seeded game; per seat: its total, buildings and construction bonus."""
    state = boardlab.make("nukumi", players=players).new_initial_state(seed=seed)
    seats = play_seeded(state, spec, seed).state.full_observation()["seats"]
    return [{"total": s["score"]["total"], "buildings": s["buildings"],
             "construction": s["score"]["construction"]} for s in seats]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    ap.add_argument("--agent", default="ismcts:2000", help="agent spec of every seat (default ismcts:2000)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0, help="first game seed (games use seed, seed+1, ...)")
    args = ap.parse_args(argv)
    seats = []
    for i in range(args.games):
        game = play(args.players, args.agent, args.seed + i)
        seats += game
        print(f"game {i + 1}/{args.games} (seed {args.seed + i}): {game}", file=sys.stderr, flush=True)
    totals = [s["total"] for s in seats]
    print(f"nukumi {args.players}p, {args.agent} in every seat, {args.games} games from seed {args.seed}")
    print(f"seat scores: median {statistics.median(totals)}, mean {statistics.mean(totals):.1f}, "
          f"max {max(totals)}")
    print(buildings_line(seats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
