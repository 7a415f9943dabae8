"""ISMCTS against the open-hands searcher at equal time per move.

The open-hands searcher (``cheat:Xs``, :class:`boardlab.agents.OpenHandsAgent`) is the same
C search with every hand face up: it sees the hidden cards, so its score against ISMCTS
measures what hidden information costs the information-set search (the strength ceiling).
Every match runs through :func:`boardlab.arena.play_match` with ``allow_open_hands=True``:
sides rotate from one game to the next and the games of a rotation share their deal, so an
even number of games is seat-swapped. ISMCTS's score counts a win 1 and a draw 1/2; the
interval is the 95% Wilson interval of that score.

    python bench/vs_open_hands.py                                    # everything, 40 games each
    python bench/vs_open_hands.py --configs kitsu2 --seconds 0.1 --games 40 --jobs 2
    python bench/vs_open_hands.py --configs kitsu2 kitsu4 kyushu2 --seconds 1 --games 10

Configurations: kitsu2 (Kitsu 2 players), kitsu4 (Kitsu 4 players, a clan per agent),
kyushu2 (Kyushu 2 players).

``--analyse N`` instead looks at where ISMCTS loses: it plays ISMCTS self-play games
(``--self-play`` iterations per move) and at N of their decisions (more than one legal
move) runs :func:`boardlab.open_hands.compare` with ``--iterations`` for both searches;
it prints, by the searching seat's hand size (the stage of the deal: many cards hidden
early, few late), how often ISMCTS picks the open-hands move and the mean cost of its
move judged with every hand face up (win probability).

    python bench/vs_open_hands.py --configs kitsu2 --analyse 200 --iterations 20000
    python bench/vs_open_hands.py --configs kitsu2 --analyse 120 --decompose

Iteration budgets calibrated to a time on an unloaded core (Kitsu 2p: 45,000 ~ 0.1 s, 450,000
~ 1 s), ISMCTS options, a different open-hands budget, and games split over processes with
one JSON line per finished game (so a run cut short keeps what it played):

    python bench/vs_open_hands.py --configs kitsu2 --budgets 40500 --open-budget 45000 \
        --options :infer=64 --games 100 --seed 7 --part 0/2 --log parts.jsonl   # and 1/2
    python bench/vs_open_hands.py --summarise parts.jsonl

``--inference-check GAMES`` measures how informative Kitsu 2p inference from play is: the
percentile of the true opponent hand's likelihood among determinized worlds' (0.5 = none);
``--model search:N`` models the opponent by an open-hands search of N iterations instead of the
heuristic's softmax, ``--check-players cheat:N`` plays the check's games with the open-hands
searcher (the opponent of the matches).

``--judge N`` compares search options cheaply, without matches: N decisions sampled from
ISMCTS self-play are judged once by an open-hands search of ``--iterations`` (its win
probability of every legal move, cached with ``--cache``), then each ``--specs`` agent picks a
move at every position; printed per agent, overall and by group (place in the trick, stock
left or empty): how often it picks the judge's move, its mean cost (the judge's best win
probability minus that of its move) and the paired difference from the first spec.
``cheat:`` specs are allowed there as the control (the search with the true hands at the
same budget: its cost is the judge's own noise floor), and ``pimc:WORLDS:ITERATIONS``
(perfect-information Monte Carlo: the open-hands search on that many determinizations), and
``stock:SPEC_A|SPEC_B`` (SPEC_A while Kitsu's stock lasts, SPEC_B once it is empty).

    python bench/vs_open_hands.py --configs kitsu2 --judge 600 --iterations 500000 \
        --self-play 5000 --seed 11 --cache judge.json --specs ismcts:90000 cheat:90000 \
        ismcts:90000:c=0.35

``--calibrate GAMES`` measures the default search's iterations per second over the searched
decisions of GAMES self-play games (to turn a time per move into an iteration budget; run it
on a quiet core: ``taskset -c 1 python bench/vs_open_hands.py --calibrate 2 --iterations 20000``).

``--decompose`` sorts each disagreement into a near tie (the open-hands search itself is not
sure), information (the open-hands move changes between worlds the seat cannot tell apart)
or a search defect (one open-hands move in every world, and ISMCTS misses it).
"""
import argparse
import sys
import time

import boardlab
from boardlab.agents import make_agent
from boardlab.arena import _mix, _sample_chance, play_match, wilson_interval
from boardlab.open_hands import compare

CONFIGS = {
    "kitsu2": ("kitsu", {"players": 2}, "Kitsu 2p"),
    "kitsu4": ("kitsu", {"players": 4}, "Kitsu 4p"),
    "kyushu2": ("kyushu", {"players": 2}, "Kyushu 2p"),
}


def ismcts_score(result) -> tuple[float, int]:
    """(ISMCTS's points, games): a win 1, a draw 1/2 (agent 0 is ISMCTS)."""
    n = len(result.outcomes)
    return result.wins[0] + 0.5 * result.draws, n


def run(config: str, budget: str, games: int, seed: int, jobs: int, options: str = "",
        open_budget: str | None = None) -> str:
    """One match: ``ismcts:BUDGET[OPTIONS]`` against ``cheat:OPEN_BUDGET`` (default the same;
    a budget is "0.1s" or an iteration count)."""
    game, params, label = CONFIGS[config]
    specs = [f"ismcts:{budget}{options}", f"cheat:{open_budget or budget}"]
    t0 = time.perf_counter()
    def progress(done, total):
        print(f"  {label} {budget}: {done}/{total} games", file=sys.stderr, flush=True)

    result = play_match(game, params, specs, games, seed=seed, jobs=jobs, progress=progress,
                        allow_open_hands=True)
    points, n = ismcts_score(result)
    lo, hi = wilson_interval(points, n)
    return (f"{label:<10} {budget:>8}  {n:>5}  {result.wins[0]:>4}-{result.draws}-"
            f"{result.wins[1]:<4}  {100 * points / n:6.1f}%  [{100 * lo:5.1f}%, {100 * hi:5.1f}%]"
            f"  {time.perf_counter() - t0:7.0f} s")


def run_logged(config: str, budget: str, games: int, seed: int, options: str,
               open_budget: str | None, part: tuple[int, int], log: str) -> None:
    """Games ``part[0]`` (0-based) of every ``part[1]`` of the match, one JSON line per game
    appended to ``log`` as it ends (so a run cut short keeps its games, and a run resumed
    with the same log skips them; --summarise adds up the lines of several parts)."""
    import json
    from boardlab.arena import play_one, prepare_match
    game, params, label = CONFIGS[config]
    specs = [f"ismcts:{budget}{options}", f"cheat:{open_budget or budget}"]
    _, tasks = prepare_match(game, params, specs, games, seed, allow_open_hands=True)
    done = set()                 # games of this match already in the log (a resumed run)
    try:
        with open(log) as f:
            for line in f:
                r = json.loads(line)
                if r["config"] == config and r["specs"] == specs and r["seed"] == seed:
                    done.add(r["index"])
    except FileNotFoundError:
        pass
    for task in tasks[part[0]::part[1]]:
        if task[3] in done:
            continue
        o = play_one(*task)
        with open(log, "a") as f:
            f.write(json.dumps({"config": config, "specs": specs, "seed": seed,
                                "index": o.index, "winner": o.winner}) + "\n")


def summarise(logs: list[str]) -> None:
    """Score of agent 0 (ISMCTS) per (config, specs, seed) over the lines of ``logs``."""
    import json
    groups: dict = {}
    for log in logs:
        with open(log) as f:
            for line in f:
                r = json.loads(line)
                key = (r["config"], tuple(r["specs"]), r["seed"])
                groups.setdefault(key, {})[r["index"]] = r["winner"]
    for (config, specs, seed), games in sorted(groups.items()):
        n = len(games)
        wins = sum(1 for w in games.values() if w == 0)
        draws = sum(1 for w in games.values() if w is None)
        points = wins + 0.5 * draws
        lo, hi = wilson_interval(points, n)
        print(f"{CONFIGS[config][2]:<10} {' vs '.join(specs)}  seed {seed}  {n} games "
              f"(indices {min(games)}..{max(games)})  {wins}-{draws}-{n - wins - draws}  "
              f"{100 * points / n:.1f}%  [{100 * lo:.1f}%, {100 * hi:.1f}%]")


def search_play_prob(iterations: int):
    """A model of the opponent for inference from play: the visit share of its move in an
    open-hands search of ``iterations`` from the earlier position with the walked-back hand put
    in (a determinization: the opponent seen as the open-hands searcher, who knows the seat's
    hand), smoothed by half a visit a move and mixed with a uniform choice (``epsilon``)."""
    from boardlab.games import kitsu_inference as ki
    from boardlab.search import ismcts

    def play_prob(position, opp, hand, action, beta, epsilon):
        world = position.clone()
        if any(h < 0 for h in hand) or not ki._kitsu_infer.set_hand(world, opp, list(hand)):
            return 1e-3
        legal = [int(a) for a in world.legal_actions()]
        if action not in legal:
            return 1e-3
        if len(legal) == 1:
            return 1.0
        r = ismcts(world, iterations=iterations, open_hands=True, player=opp,
                   seed=_mix(*hand, action))
        visits = {s["action"]: s["visits"] for s in r.stats}
        p = (visits.get(action, 0) + 0.5) / (iterations + 0.5 * len(legal))
        return (1.0 - epsilon) * p + epsilon / len(legal)
    return play_prob


def inference_check(games: int, seed: int, worlds: int = 32, beta: float = 8.0,
                    epsilon: float = 0.2, model: str = "greedy",
                    players_spec: str = "ismcts:1000") -> None:
    """How informative inference from play is (Kitsu 2p): at every third decision of
    self-play games (``players_spec``: ISMCTS, or ``cheat:`` for the open-hands opponent of the
    matches) with an opponent play in the deal, the percentile of
    the TRUE opponent hand's likelihood among ``worlds`` determinizations' (0.5: no better
    than a random world). Reads the true hand: a measurement, never a search."""
    import random
    import statistics
    from boardlab.games import kitsu_inference as ki
    game = boardlab.make("kitsu", players=2)
    play_prob = search_play_prob(int(model.split(":")[1])) if model.startswith("search:") \
        else None
    ranks = []
    for g in range(games):
        state = game.new_initial_state(seed=_mix(seed, g, 0x0A))
        rng = random.Random(_mix(seed, g, 0x0B))
        players = [make_agent(players_spec, seed=_mix(seed, g, s), allow_open_hands=True)
                   for s in range(2)]
        n = 0
        while not state.is_terminal() and n < 80:
            p = state.current_player
            if p == boardlab.CHANCE:
                state.apply(_sample_chance(state, rng))
                continue
            events, snaps, _ = ki._history_since_deal(state, p)
            if n % 3 == 2 and any(a == 1 - p for a, _ in events):
                cache, core = ({}, {}), state._core
                lls = []
                for k in range(worlds):
                    hand, hidden = ki._kitsu_infer.world_hand(core.determinize(p, k), 1 - p)
                    lls.append(ki.log_likelihood(events, snaps, p, hand, hidden,
                                                 random.Random(k), n, cache, beta, epsilon, 6,
                                                 play_prob))
                hand, hidden = ki._kitsu_infer.world_hand(core, 1 - p)     # the true hand
                true = ki.log_likelihood(events, snaps, p, hand, hidden, random.Random(worlds),
                                         n, cache, beta, epsilon, 6, play_prob)
                if len(set(lls)) > 1:
                    ranks.append((sum(x < true for x in lls) + 0.5 * sum(x == true for x in lls))
                                 / worlds)
            state.apply(int(players[p].step(state)))
            n += 1
    print(f"model {model}, beta {beta:g}, epsilon {epsilon:g}: {len(ranks)} positions from {games} "
          f"{players_spec} games; "
          f"mean percentile of the true hand {statistics.mean(ranks):.3f} "
          f"(standard error {statistics.pstdev(ranks) / len(ranks) ** 0.5:.3f}; 0.5 = none)")


def analyse(config: str, positions: int, iterations: int, self_play: int, seed: int) -> None:
    """Agreement and cost of ISMCTS's move against the open-hands move, by hand size."""
    import random
    game_name, params, label = CONFIGS[config]
    game = boardlab.make(game_name, **params)
    by_size: dict[int, list] = {}
    by_stage: dict[str, list] = {}
    done, g = 0, 0
    t0 = time.perf_counter()
    while done < positions:
        state = game.new_initial_state(seed=_mix(seed, g, 0x0A))
        rng = random.Random(_mix(seed, g, 0x0B))
        players = [make_agent(f"ismcts:{self_play}", seed=_mix(seed, g, s)) for s in
                   range(game.num_players)]
        while not state.is_terminal() and done < positions:
            p = state.current_player
            if p == boardlab.CHANCE:
                state.apply(_sample_chance(state, rng))
                continue
            if len(state.legal_actions()) > 1 and rng.random() < 0.25:
                c = compare(state, iterations=iterations, seed=_mix(seed, g, done))
                obs = state.observation(p)
                size = obs["hand_sizes"][p]
                row = (c.same_move, c.cost, c.cost_visits)
                by_size.setdefault(size, []).append(row)
                if "tricks" in obs:       # Kitsu: before / after the round's first trick
                    by_stage.setdefault("first trick" if obs["tricks"] == 0 else "later tricks",
                                        []).append(row)
                done += 1
            state.apply(int(players[p].step(state)))
        g += 1
    print(f"{label}: {done} positions from {g} ISMCTS self-play games (ismcts:{self_play}), "
          f"compare() at {iterations} iterations each, {time.perf_counter() - t0:.0f} s")
    print(f"{'hand size':>12}  {'positions':>9}  {'same move':>9}  {'mean cost':>9}  "
          f"{'cost>0.05':>9}")
    rows = sorted(by_size.items(), reverse=True) + [("all", [r for v in by_size.values()
                                                             for r in v])]
    rows += sorted(by_stage.items())
    for size, rs in rows:
        costs = [r[1] for r in rs if r[1] is not None]
        same = sum(r[0] for r in rs)
        big = sum(1 for x in costs if x > 0.05)
        print(f"{size!s:>12}  {len(rs):>9}  {100 * same / len(rs):8.1f}%  "
              f"{100 * sum(costs) / max(1, len(costs)):8.2f}%  {100 * big / max(1, len(costs)):8.1f}%")


def decompose(config: str, positions: int, iterations: int, self_play: int, seed: int,
              worlds: int = 3, reseeds: int = 2) -> None:
    """Where a disagreement with the open-hands move comes from, position by position:

    - "near tie": the open-hands search on the TRUE state, re-run with other seeds, does not
      pick the same move every time (the cost is search noise, not information);
    - "information": the open-hands best move differs between worlds the seat cannot tell
      apart (open-hands searches on ``worlds`` determinizations of the seat's view): no
      search without the hidden cards can be sure of it (better worlds -- inference from
      play -- could help here, strategy cannot);
    - "search defect": the open-hands move is the same in every world and every seed, yet
      ISMCTS picks another (strategy fusion / averaging over worlds, or ISMCTS's budget).
    """
    import random
    from boardlab.search import ismcts
    game_name, params, label = CONFIGS[config]
    game = boardlab.make(game_name, **params)
    kinds = {"agree": [], "near tie": [], "information": [], "search defect": []}
    done, g = 0, 0
    t0 = time.perf_counter()
    while done < positions:
        state = game.new_initial_state(seed=_mix(seed, g, 0x0A))
        rng = random.Random(_mix(seed, g, 0x0B))
        players = [make_agent(f"ismcts:{self_play}", seed=_mix(seed, g, s)) for s in
                   range(game.num_players)]
        while not state.is_terminal() and done < positions:
            p = state.current_player
            if p == boardlab.CHANCE:
                state.apply(_sample_chance(state, rng))
                continue
            if len(state.legal_actions()) > 1 and rng.random() < 0.25:
                s0 = _mix(seed, g, done)
                c = compare(state, iterations=iterations, seed=s0)
                if c.same_move:
                    kind = "agree"
                else:
                    true_moves = {c.open_hands.best_action} | {
                        ismcts(state, iterations=iterations, seed=_mix(s0, k), open_hands=True)
                        .best_action for k in range(1, reseeds + 1)}
                    world_moves = {ismcts(state.determinize(p, _mix(s0, 0x3D, k)),
                                          iterations=iterations, seed=s0, open_hands=True)
                                   .best_action for k in range(worlds)}
                    kind = ("near tie" if len(true_moves) > 1 else
                            "information" if world_moves != true_moves else "search defect")
                kinds[kind].append(c.cost)
                done += 1
            state.apply(int(players[p].step(state)))
        g += 1
    print(f"{label}: {done} positions from {g} ISMCTS self-play games (ismcts:{self_play}), "
          f"{iterations} iterations per search, {worlds} worlds, {reseeds} re-seeds, "
          f"{time.perf_counter() - t0:.0f} s")
    total_cost = sum(x for v in kinds.values() for x in v if x is not None)
    print(f"{'kind':>14}  {'positions':>9}  {'share':>6}  {'mean cost':>9}  {'of all cost':>11}")
    for kind, costs in kinds.items():
        known = [x for x in costs if x is not None]
        print(f"{kind:>14}  {len(costs):>9}  {100 * len(costs) / max(1, done):5.1f}%  "
              f"{100 * sum(known) / max(1, len(known)):8.2f}%  "
              f"{100 * sum(known) / total_cost if total_cost else 0.0:10.1f}%")



def _stage(obs) -> list[str]:
    """Groups of a Kitsu decision: its place in the trick and whether the stock still lasts."""
    if obs.get("phase") == "exchange":
        return ["exchange"]
    place = ["lead", "2nd card", "3rd card", "4th card", "5th card", "6th card"][len(obs["trick"])]
    stock = "stock left" if obs.get("stock_size") else "stock empty"
    return [place, stock]


def judge_positions(config: str, positions: int, judge_iterations: int, self_play: int,
                    seed: int, cache: str | None) -> list:
    """``positions`` decisions (more than one legal move) sampled from ISMCTS self-play games,
    each with the open-hands judge's win probability of every legal move (``judge_iterations``
    iterations on the true state). Cached in ``cache`` (JSON: the actions from the deal, so a
    position is replayed exactly; a cache of more positions serves its first N)."""
    import json
    import os
    import random
    from boardlab.search import ismcts
    if cache and os.path.exists(cache):
        with open(cache) as f:
            data = json.load(f)
        # The sampling is prefix-stable: a longer cached run's first N are these N.
        if data["key"][:1] + data["key"][2:] == [config, judge_iterations, self_play, seed] \
                and len(data["positions"]) >= positions:
            return data["positions"][:positions]
    game_name, params, _ = CONFIGS[config]
    game = boardlab.make(game_name, **params)
    out, g = [], 0
    while len(out) < positions:
        state = game.new_initial_state(seed=_mix(seed, g, 0x0A))
        rng = random.Random(_mix(seed, g, 0x0B))
        players = [make_agent(f"ismcts:{self_play}", seed=_mix(seed, g, s))
                   for s in range(game.num_players)]
        actions = []
        while not state.is_terminal() and len(out) < positions:
            p = state.current_player
            if p == boardlab.CHANCE:
                a = _sample_chance(state, rng)
            else:
                if len(state.legal_actions()) > 1 and rng.random() < 0.25:
                    r = ismcts(state, iterations=judge_iterations, open_hands=True,
                               seed=_mix(seed, g, len(out), 0x1D))
                    out.append({"game_seed": _mix(seed, g, 0x0A), "actions": list(actions),
                                "groups": _stage(state.observation(p)),
                                "value": {str(s["action"]): s["win_prob"] for s in r.stats},
                                "visits": {str(s["action"]): s["visits"] for s in r.stats}})
                a = int(players[p].step(state))
            state.apply(a)
            actions.append(int(a))
        g += 1
    if cache:
        with open(cache, "w") as f:
            json.dump({"key": [config, positions, judge_iterations, self_play, seed],
                       "positions": out}, f)
    return out


def pimc_move(state, iterations: int, worlds: int, seed: int) -> int:
    """Perfect-information Monte Carlo, for comparison (``pimc:WORLDS:ITERATIONS`` in --judge):
    the open-hands search on ``worlds`` determinizations of the seat's view (worlds it cannot
    tell apart: no hidden information), ``iterations // worlds`` each, root visits summed."""
    from boardlab.search import ismcts
    seat = state.current_player
    visits: dict = {}
    for k in range(worlds):
        world = state.determinize(seat, _mix(seed, k, 0x91))
        r = ismcts(world, iterations=iterations // worlds, seed=_mix(seed, k, 0x92),
                   open_hands=True)
        for s in r.stats:
            visits[s["action"]] = visits.get(s["action"], 0) + s["visits"]
    return max(sorted(visits), key=lambda a: visits[a])


def judge(config: str, positions: int, judge_iterations: int, specs: list[str], self_play: int,
          seed: int, cache: str | None) -> None:
    """Each candidate spec's move at the same positions, judged with every hand face up: how
    often it is the judge's best move and its mean cost (judge's best win probability minus
    that of the candidate's move), by group; the paired difference from the first spec."""
    import statistics
    game_name, params, label = CONFIGS[config]
    game = boardlab.make(game_name, **params)
    t0 = time.perf_counter()
    pos = judge_positions(config, positions, judge_iterations, self_play, seed, cache)
    print(f"{label}: {len(pos)} positions from ISMCTS self-play (ismcts:{self_play}), open-hands "
          f"judge {judge_iterations} iterations ({time.perf_counter() - t0:.0f} s)")
    costs: dict[str, list] = {}
    for spec in specs:
        t1 = time.perf_counter()
        rows = []
        for i, p in enumerate(pos):
            state = game.new_initial_state(seed=p["game_seed"])
            for a in p["actions"]:
                state.apply(a)
            one = spec
            if spec.startswith("stock:"):   # stock:SPEC_WHILE_STOCK_LASTS|SPEC_WHEN_EMPTY
                left, empty = spec[len("stock:"):].split("|")
                one = left if state.observation(state.current_player).get("stock_size") else empty
            if one.startswith("pimc:"):
                _, worlds, budget = one.split(":")
                move = pimc_move(state, int(budget), int(worlds), _mix(seed, i, 0x5E))
            else:
                move = make_agent(one, seed=_mix(seed, i, 0x5E),
                                  allow_open_hands=True).step(state)
            value = p["value"]
            best = max(value.values())
            rows.append((best - value[str(move)], value[str(move)] == best, p["groups"]))
        costs[spec] = rows
        groups = sorted({g for _, _, gs in rows for g in gs})
        parts = []
        for grp in ["all"] + groups:
            sel = [r for r in rows if grp == "all" or grp in r[2]]
            parts.append(f"{grp} {len(sel)}: {100 * statistics.mean(r[1] for r in sel):.0f}% "
                         f"{100 * statistics.mean(r[0] for r in sel):.2f}")
        base = costs[specs[0]]
        diff = [a[0] - b[0] for a, b in zip(rows, base)]
        se = statistics.pstdev(diff) / len(diff) ** 0.5
        print(f"{spec:<34} same/cost%  " + " | ".join(parts)
              + f" | vs first {100 * statistics.mean(diff):+.2f} (se {100 * se:.2f})"
              + f"  [{time.perf_counter() - t1:.0f} s]", flush=True)



def calibrate(config: str, iterations: int, games: int, seed: int) -> float:
    """Iterations per second of the default search over the decisions of ``games`` games
    (ISMCTS self-play at ``iterations`` a move; single-move decisions skipped, as agents
    do): total iterations / total search time. Run it on a quiet core."""
    import random
    from boardlab.search import ismcts
    game_name, params, label = CONFIGS[config]
    game = boardlab.make(game_name, **params)
    total_it, total_s, moves = 0, 0.0, 0
    for g in range(games):
        state = game.new_initial_state(seed=_mix(seed, g, 0x0A))
        rng = random.Random(_mix(seed, g, 0x0B))
        while not state.is_terminal():
            if state.current_player == boardlab.CHANCE:
                state.apply(_sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(int(legal[0]))
                continue
            t0 = time.perf_counter()
            r = ismcts(state, iterations=iterations, seed=_mix(seed, g, moves))
            total_s += time.perf_counter() - t0
            total_it += r.iterations
            moves += 1
            state.apply(r.best_action)
    rate = total_it / total_s
    print(f"{label}: {moves} searched decisions in {games} self-play games at {iterations} "
          f"iterations: {rate:,.0f} iterations/s (0.1 s = {rate / 10:,.0f}, 1 s = {rate:,.0f})",
          flush=True)
    return rate


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--configs", nargs="+", default=list(CONFIGS), choices=list(CONFIGS))
    ap.add_argument("--seconds", nargs="+", type=float, default=[0.1, 1.0],
                    help="time per move of both agents (default 0.1 1)")
    ap.add_argument("--budgets", nargs="+", default=None, metavar="B",
                    help="budgets per move instead of --seconds: iteration counts (e.g. 45000, "
                         "calibrated to a time on an unloaded core) or times (0.1s)")
    ap.add_argument("--options", default="",
                    help='ISMCTS spec options appended to its budget, e.g. ":infer=32"')
    ap.add_argument("--open-budget", default=None,
                    help="budget of the open-hands searcher if not the same (e.g. ISMCTS with "
                         "inference gets fewer iterations for the time its inference takes)")
    ap.add_argument("--games", type=int, default=40,
                    help="games per configuration and time (even: seat-swapped; default 40)")
    ap.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--analyse", type=int, default=0, metavar="N",
                    help="instead of matches: compare ISMCTS and open-hands moves at N positions")
    ap.add_argument("--iterations", type=int, default=20000,
                    help="--analyse: iterations of each search per position (default 20000)")
    ap.add_argument("--decompose", action="store_true",
                    help="--analyse: split the disagreements into near ties, information and "
                         "search defects (more searches per position)")
    ap.add_argument("--self-play", type=int, default=2000,
                    help="--analyse: iterations per move of the self-play games (default 2000)")
    ap.add_argument("--part", default=None, metavar="K/M",
                    help="play only games K, K+M, K+2M... of the match (with --log)")
    ap.add_argument("--log", default=None, help="with --part: append one JSON line per game")
    ap.add_argument("--summarise", nargs="+", default=None, metavar="LOG",
                    help="instead of playing: add up the games of these --log files")
    ap.add_argument("--inference-check", type=int, default=0, metavar="GAMES",
                    help="instead of playing: how informative Kitsu 2p inference from play is "
                         "(percentile of the true hand's likelihood), over GAMES self-play games")
    ap.add_argument("--beta", type=float, default=8.0, help="--inference-check: softmax beta")
    ap.add_argument("--epsilon", type=float, default=0.2, help="--inference-check: uniform mix")
    ap.add_argument("--model", default="greedy",
                    help="--inference-check: the opponent model, greedy (the heuristic's "
                         "softmax, as infer= uses) or search:N (an open-hands search of N)")
    ap.add_argument("--check-players", default="ismcts:1000",
                    help="--inference-check: the self-play players (cheat:N: the open-hands "
                         "opponent of the matches)")
    ap.add_argument("--judge", type=int, default=0, metavar="N",
                    help="instead of matches: the move of each --specs agent at N positions, "
                         "judged by an open-hands search of --iterations (agreement, cost)")
    ap.add_argument("--specs", nargs="+", default=["ismcts:45000"],
                    help="--judge: agent specs to judge (cheat:... allowed: a control; "
                         "pimc:WORLDS:ITERATIONS: open-hands searches of determinizations)")
    ap.add_argument("--cache", default=None, help="--judge: JSON file of the judged positions")
    ap.add_argument("--calibrate", type=int, default=0, metavar="GAMES",
                    help="instead of matches: iterations/s of the default search over GAMES "
                         "self-play games at --iterations a move (run on a quiet core)")
    args = ap.parse_args(argv)
    if args.calibrate:
        for config in args.configs:
            calibrate(config, args.iterations, args.calibrate, args.seed)
        return 0
    if args.judge:
        for config in args.configs:
            judge(config, args.judge, args.iterations, args.specs, args.self_play, args.seed,
                  args.cache)
        return 0
    if args.inference_check:
        inference_check(args.inference_check, args.seed, beta=args.beta, epsilon=args.epsilon,
                        model=args.model, players_spec=args.check_players)
        return 0
    if args.summarise:
        summarise(args.summarise)
        return 0
    if args.part:
        k, m = (int(x) for x in args.part.split("/"))
        for config in args.configs:
            for budget in args.budgets or [f"{x:g}s" for x in args.seconds]:
                run_logged(config, budget, args.games, args.seed, args.options,
                           args.open_budget, (k, m), args.log)
        return 0
    if args.analyse:
        run_one = decompose if args.decompose else analyse
        for config in args.configs:
            run_one(config, args.analyse, args.iterations, args.self_play, args.seed)
        return 0
    if args.games < 2 or args.games % 2:
        ap.error("--games must be even and >= 2 (each deal is played from both sides)")
    print("ISMCTS (default options) vs the open-hands searcher, equal time per move; "
          f"seed {args.seed}, score = ISMCTS wins + draws/2, 95% Wilson interval")
    if args.options or args.open_budget:
        print(f"ISMCTS options: {args.options or '-'}; open-hands budget: "
              f"{args.open_budget or 'the same'}")
    print(f"{'game':<10} {'budget':>8}  {'games':>5}  {'W-D-L':<10}  {'score':>6}  "
          f"{'95% CI':<16}  {'wall':>7}")
    for config in args.configs:
        budgets = args.budgets or [f"{x:g}s" for x in args.seconds]
        for budget in budgets:
            print(run(config, budget, args.games, args.seed, args.jobs, args.options,
                      args.open_budget), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
