"""boardlab ISMCTS side by side with OpenSpiel's ISMCTS on Kitsu 2p.

1. Speed: on the same position (the first lead of a seeded 2-player deal) each
   search runs for a while on one core; prints iterations per second of each
   and the ratio.
2. Match: a head-to-head series at equal time per move, the deal of each pair
   of games shared with seats swapped; prints the score of boardlab's ISMCTS
   (win 1, draw 1/2) with a 95% Wilson interval.

OpenSpiel drives the game through boardlab.interop.openspiel (every boardlab
game as a pyspiel Python game). Which OpenSpiel ISMCTS: ``pyspiel.ISMCTSBot``
cannot determinize a Python game in open_spiel 2.0.2 (its C++
State::ResampleFromInfostate is not forwarded to Python: it raises
"ResampleFromInfostate() not implemented", and ``step`` crashes), so the
benchmark builds bench/openspiel_bridge (a few lines of C++ against the wheel's
headers and pyspiel.so) which runs that same C++ ISMCTSBot with a resampler
calling the adapter's determinization, with OpenSpiel's own wall clock
(max_wall_clock_time) for equal time per move. ``--engine python`` uses
OpenSpiel's Python ISMCTS instead (``open_spiel.python.algorithms.ismcts``; no
clock: its simulations per move follow its measured rate). The speed section
measures both OpenSpiel engines when available.

    python bench/vs_openspiel.py                                # speed only
    python bench/vs_openspiel.py --games 20 --seconds 1 --jobs 2
"""
import argparse
import math
import multiprocessing
import os
import sys
import time

import numpy as np

import boardlab
from boardlab import search
from boardlab.arena import wilson_interval

try:
    import pyspiel
    from open_spiel.python.algorithms import ismcts as os_ismcts, mcts as os_mcts
    from boardlab.interop import openspiel as bos
except ImportError:                                        # pragma: no cover
    sys.exit('needs OpenSpiel: pip install "boardlab[openspiel]"')


def first_lead(seed: int):
    """(boardlab state, OpenSpiel state) at the first decision of a seeded 2p deal."""
    state = boardlab.make("kitsu", players=2).new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    while state.current_player == boardlab.CHANCE:
        outcomes = state.chance_outcomes()
        probs = np.array([p for _, p in outcomes])
        state.apply(int(outcomes[rng.choice(len(outcomes), p=probs / probs.sum())][0]))
    os_game = bos.load_game("kitsu", players=2)
    os_state = os_game.new_initial_state()
    for a in state.history:
        os_state.apply_action(int(a))
    return state, os_game, os_state


def os_bot(game, seed, uct_c, sims):
    evaluator = os_mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return os_ismcts.ISMCTSBot(game, evaluator, uct_c, max_simulations=sims,
                               random_state=np.random.RandomState(seed + 1),
                               final_policy_type=os_ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)


def try_cpp_bot(os_state):
    """What OpenSpiel's C++ ISMCTSBot does on the adapter (get_policy, never step)."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
    bot = pyspiel.ISMCTSBot(1, evaluator, 1.0, 100, -1)
    try:
        bot.get_policy(os_state)
        return "ran"
    except Exception as e:  # noqa: BLE001
        return f"unusable on a Python game: {type(e).__name__}: {e}"


def cpp_engine(uct_c):
    """OpenSpiel's C++ ISMCTSBot through the bridge, or (None, reason)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from openspiel_bridge.build import CppISMCTS, load_bridge
    bridge, why = load_bridge()
    return (CppISMCTS(bridge, uct_c), None) if bridge is not None else (None, why)


def speed(args):
    bl_state, os_game, os_state = first_lead(args.seed)
    print(f"position: Kitsu 2p, game seed {args.seed}, first lead, seat {bl_state.current_player} "
          f"to move, {len(bl_state.legal_actions())} legal moves")
    print(f"open_spiel {getattr(pyspiel, '__version__', '?')}: C++ ISMCTSBot "
          f"{try_cpp_bot(os_state)}")
    # OpenSpiel Python ISMCTS: a fixed number of simulations, timed.
    bot = os_bot(os_game, 1, args.uct_c, 50)
    bot.step(os_state)                                        # warm-up
    rates = []
    for run in range(args.runs):
        bot = os_bot(os_game, run + 2, args.uct_c, args.os_sims)
        t0 = time.perf_counter()
        bot.step(os_state)
        rates.append(args.os_sims / (time.perf_counter() - t0))
    py_rate = float(np.mean(rates))
    print(f"OpenSpiel Python ISMCTS (through the adapter):     {py_rate:,.0f} iterations/s "
          f"(mean of {args.runs} x {args.os_sims} simulations)")
    os_rate = py_rate
    if args.engine == "cpp":
        engine, why = cpp_engine(args.uct_c)
        if engine is None:
            sys.exit(f"C++ ISMCTSBot bridge unavailable ({why}); use --engine python")
        engine.step(os_state, 1, simulations=50)                # warm-up
        rates = []
        for run in range(args.runs):
            t0 = time.perf_counter()
            _, sims = engine.step(os_state, run + 2, simulations=args.os_sims)
            rates.append(sims / (time.perf_counter() - t0))
        os_rate = float(np.mean(rates))
        print(f"OpenSpiel C++ ISMCTSBot (bridge, through the adapter): {os_rate:,.0f} iterations/s "
              f"(mean of {args.runs} x {args.os_sims} simulations)")
    search.ismcts(bl_state, iterations=500, seed=0)            # warm-up
    bl_rates = {}
    for label, depth in (("full random rollouts, as OpenSpiel's", -1),
                         ("Kitsu default: heuristic at the leaf", None)):
        rates = []
        for run in range(args.runs):
            r = search.ismcts(bl_state, seconds=args.bl_seconds, seed=run + 1, rollout_depth=depth)
            rates.append(r.iterations / r.seconds)
        bl_rates[label] = float(np.mean(rates))
        print(f"boardlab ISMCTS (C, one core, {label}): {bl_rates[label]:,.0f} iterations/s "
              f"(mean of {args.runs} x {args.bl_seconds:g} s)")
    bl_rate = bl_rates["full random rollouts, as OpenSpiel's"]
    print(f"ratio boardlab (full rollouts) / OpenSpiel {args.engine} ISMCTS: {bl_rate / os_rate:,.0f}x"
          + (f"  (/ Python ISMCTS: {bl_rate / py_rate:,.0f}x)" if args.engine == "cpp" else ""))
    return os_rate


def play_game(task):
    """One game: returns (boardlab score, boardlab seconds/move, OpenSpiel seconds/move, sims)."""
    index, seed, seconds, uct_c, os_rate, bl_spec, engine_name = task
    from boardlab.agents import make_agent
    engine = cpp_engine(uct_c)[0] if engine_name == "cpp" else None
    game_seed = seed * 1000 + index // 2
    bl_seat = index % 2                        # seats swap within each pair of games
    state = boardlab.make("kitsu", players=2).new_initial_state(seed=game_seed)
    os_game = bos.load_game("kitsu", players=2)
    os_state = os_game.new_initial_state()
    rng = np.random.default_rng(game_seed)
    agent = make_agent(bl_spec, seed=seed * 7919 + index)
    rate = os_rate
    t_bl, n_bl, t_os, n_os, sims_total = 0.0, 0, 0.0, 0, 0
    while not state.is_terminal():
        p = state.current_player
        if p == boardlab.CHANCE:
            outcomes = state.chance_outcomes()
            probs = np.array([q for _, q in outcomes])
            a = int(outcomes[rng.choice(len(outcomes), p=probs / probs.sum())][0])
        elif len(state.legal_actions()) == 1:
            a = int(state.legal_actions()[0])
        elif p == bl_seat:
            t0 = time.perf_counter()
            a = int(agent.step(state))
            t_bl += time.perf_counter() - t0
            n_bl += 1
        elif engine is not None:
            t0 = time.perf_counter()
            a, sims = engine.step(os_state, int(rng.integers(1 << 30)), seconds=seconds)
            a = int(a)
            t_os += time.perf_counter() - t0
            n_os += 1
            sims_total += sims
        else:
            sims = max(1, int(rate * seconds))
            bot = os_bot(os_game, int(rng.integers(1 << 30)), uct_c, sims)
            t0 = time.perf_counter()
            a = int(bot.step(os_state))
            dt = time.perf_counter() - t0
            rate = 0.7 * rate + 0.3 * (sims / dt)              # keep the time per move equal
            t_os += dt
            n_os += 1
            sims_total += sims
        state.apply(a)
        os_state.apply_action(a)
    ret = state.returns()
    score = 1.0 if ret[bl_seat] > ret[1 - bl_seat] else 0.0 if ret[bl_seat] < ret[1 - bl_seat] else 0.5
    return score, t_bl / max(n_bl, 1), t_os / max(n_os, 1), sims_total / max(n_os, 1)


def match(args, os_rate):
    spec = f"ismcts:{args.seconds:g}s" + (f":{args.bl_options}" if args.bl_options else "")
    tasks = [(i, args.seed, args.seconds, args.uct_c, os_rate, spec, args.engine)
             for i in range(args.games)]
    print(f"\nmatch: {spec} vs OpenSpiel {args.engine} ISMCTS ({args.seconds:g} s/move, "
          f"uct_c {args.uct_c}), "
          f"{args.games} games (pairs share a deal, seats swapped), {args.jobs} job(s)")
    results = []
    if args.jobs > 1:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(args.jobs) as pool:
            for r in pool.imap_unordered(play_game, tasks):
                results.append(r)
                print(f"  {len(results)}/{args.games}: score so far "
                      f"{sum(x[0] for x in results):g}", flush=True)
    else:
        for t in tasks:
            results.append(play_game(t))
            print(f"  {len(results)}/{args.games}: score so far "
                  f"{sum(x[0] for x in results):g}", flush=True)
    score = sum(r[0] for r in results)
    n = len(results)
    lo, hi = wilson_interval(score, n)
    print(f"boardlab score: {score:g}/{n} = {100 * score / n:.1f}%  "
          f"95% CI (Wilson) [{100 * lo:.1f}%, {100 * hi:.1f}%]")
    print(f"mean seconds per move: boardlab {np.mean([r[1] for r in results]):.3f}, "
          f"OpenSpiel {np.mean([r[2] for r in results]):.3f} "
          f"({np.mean([r[3] for r in results]):,.0f} simulations per move)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=7, help="game seed of the speed position / match")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--os-sims", type=int, default=400, help="OpenSpiel simulations per timed run")
    ap.add_argument("--bl-seconds", type=float, default=2.0, help="boardlab seconds per timed run")
    ap.add_argument("--uct-c", type=float, default=1.0, help="OpenSpiel UCT constant")
    ap.add_argument("--games", type=int, default=0, help="match games (0: speed only)")
    ap.add_argument("--seconds", type=float, default=1.0, help="seconds per move in the match")
    ap.add_argument("--bl-options", default="", help='extra boardlab spec options, e.g. "c=0.5"')
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--engine", choices=("cpp", "python"), default="cpp",
                    help="OpenSpiel ISMCTS: C++ ISMCTSBot via the bridge (default) or Python")
    args = ap.parse_args(argv)
    os_rate = speed(args)
    if args.games > 0:
        match(args, os_rate)


if __name__ == "__main__":
    main()
