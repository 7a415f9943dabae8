"""The iteration budget that matches a time budget: iterations per CPU second of a search
agent in a multiplayer game, measured in process CPU time, which a loaded machine does not
inflate (wall-clock budgets on a shared machine give the agent whatever share it gets).

    python bench/calibrate.py keyside --players 2 --agent ismcts:20000 --searches 100
    python bench/calibrate.py nukumi --players 4 --agent ismcts:23000 --searches 40 --seed 7

The agent takes seat 0 and Greedy the others; chance is drawn from --seed. Each of the
agent's first N searches (moves with a choice) is timed; it prints iterations per CPU second
and the budget that is one second. Time most of a game: the rate changes as the game goes on
(Keyside 2p: 96,000 per second over the first 12 searches, 69,000-73,000 over 100). The solo games have their own (bench/keyside_solo.py and
bench/nukumi_solo.py --calibrate).
"""
import argparse
import random
import time

import boardlab
from boardlab.agents import GreedyAgent, make_agent


def calibrate(game_name: str, players: int, spec: str, searches: int, seed: int) -> tuple[float, int]:
    """(iterations per CPU second, searches timed) of `spec` in seat 0."""
    agent = make_agent(spec, seed=seed)
    if getattr(agent, "iterations", None) is None:
        raise SystemExit(f"calibrate needs an iteration budget (ismcts:N), got {spec!r}")
    state = boardlab.make(game_name, players=players).new_initial_state(seed=seed)
    rng = random.Random(seed)
    others = GreedyAgent(seed=seed + 1)
    done, cpu = 0, 0.0
    while done < searches and not state.is_terminal():
        player = state.current_player
        if player == boardlab.CHANCE:
            acts, probs = zip(*state.chance_outcomes())
            state.apply(int(rng.choices(acts, weights=probs)[0]))
        elif player != 0:
            state.apply(int(others.step(state)))
        else:
            searched = len(state.legal_actions()) > 1   # a lone action is answered unsearched
            t = time.process_time()
            state.apply(int(agent.step(state)))
            if searched:
                cpu += time.process_time() - t
                done += 1
    if done == 0:
        raise SystemExit("the game ended before the agent had a choice to make")
    return agent.iterations * done / cpu, done


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--agent", required=True, help="an iteration budget, e.g. ismcts:20000")
    ap.add_argument("--searches", type=int, default=12)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    rate, done = calibrate(args.game, args.players, args.agent, args.searches, args.seed)
    print(f"{args.game} {args.players}p, {args.agent}, seed {args.seed}, first {done} searches: "
          f"{rate:,.0f} iterations per CPU second (1 s/move = ismcts:{round(rate, -3):.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
