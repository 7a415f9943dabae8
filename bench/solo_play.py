"""The seeded play loop the solo benches share: one agent, chance drawn from a
numpy generator seeded like the agent, each search timed in process CPU time (which
a loaded machine does not inflate, so an iteration budget can be matched to seconds
a move on an unloaded core)."""
import json
import multiprocessing
import signal
import sys
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np

from boardlab.agents import make_agent


class Played(NamedTuple):
    state: object      # the final state
    searched: int      # the agent's moves with a choice (a lone action is answered unsearched)
    cpu: float         # the CPU seconds this process spent choosing them


def apply_chance(state, rng) -> None:
    """Apply one chance outcome drawn with numpy generator `rng` (the draw every
    seeded solo game makes, so a seed gives the same game in every bench)."""
    acts, probs = zip(*state.chance_outcomes())
    state.apply(int(rng.choice(acts, p=np.array(probs) / sum(probs))))


def play_seeded(state, spec: str, seed: int, after_move=None, before_move=None,
                searches: int | None = None) -> Played:
    """Play `state` to its end (or, with `searches`, until the agent has searched that many
    moves) with agent `spec`. `before_move(state, action)` and `after_move(state)`, if
    given, are called around each of the agent's moves."""
    agent = make_agent(spec, seed=seed)
    rng = np.random.default_rng(seed)
    searched, cpu = 0, 0.0
    while not state.is_terminal() and (searches is None or searched < searches):
        if state.is_chance():
            apply_chance(state, rng)
            continue
        searching = len(state.legal_actions()) > 1
        t = time.process_time()
        action = int(agent.step(state))
        if searching:
            searched, cpu = searched + 1, cpu + time.process_time() - t
        if before_move is not None:
            before_move(state, action)
        state.apply(action)
        if after_move is not None:
            after_move(state)
    return Played(state, searched, cpu)


def cpu_line(spec: str, results: list[dict]) -> str:
    """The moves searched in `results` (each with "searched" and "cpu"), the CPU seconds a
    move and, for an iteration budget, the iterations per CPU second."""
    searched, cpu = sum(r["searched"] for r in results), sum(r["cpu"] for r in results)
    iterations = getattr(make_agent(spec), "iterations", None)
    return (f"{searched} searched moves, {cpu / max(searched, 1):.3f} CPU s a move"
            + (f" ({iterations * searched / cpu:,.0f} iterations per CPU second)"
               if iterations and cpu > 0 else ""))


def _interrupt(signum, frame):
    raise KeyboardInterrupt   # SIGTERM stops like Ctrl-C (a background job ignores SIGINT)


def read_record(path: Path, settings: dict) -> dict:
    """The results of the seeds a record holds (seed -> result), after checking that the
    record was made with `settings`; a missing file holds none."""
    if not path.exists():
        return {}
    lines = path.read_text().splitlines()
    try:
        json.loads(lines[-1])
    except (IndexError, ValueError):   # a line cut short by a kill: that game is played again
        lines = lines[:-1]
        path.write_text("".join(line + "\n" for line in lines))
    try:
        head, games = json.loads(lines[0]), [json.loads(line) for line in lines[1:] if line.strip()]
        made_with = head["settings"]
        done = {int(g["seed"]): g["result"] for g in games}
    except (IndexError, ValueError, KeyError, TypeError):
        raise SystemExit(f"--record {path}: not a record of this bench (a settings line, then a "
                         f"line per game)") from None
    if made_with != settings:
        changed = sorted(k for k in made_with.keys() | settings.keys() if made_with.get(k) != settings.get(k))
        raise SystemExit(f"--record {path} was made with other settings ({', '.join(changed)}): "
                         f"give another file to measure these")
    return done


def play_seeds(one, seeds, jobs: int, say, record: Path | None = None,
               settings: dict | None = None) -> list[dict]:
    """one(seed) for each seed in `jobs` processes, in seed order, each result told by
    say(seed, result). With `record` (a JSON-lines file made with `settings`), the seeds
    it holds are read back instead of played and each new game is appended as it ends:
    a measurement stopped at any moment goes on from there. Ctrl-C or SIGTERM stops early;
    the results of the games finished are returned."""
    done = read_record(record, settings) if record else {}
    if record and not record.exists():
        record.write_text(json.dumps({"settings": settings}) + "\n")
    todo = [s for s in seeds if s not in done]
    if done:
        print(f"{len(seeds) - len(todo)} of {len(seeds)} games read back from {record}", file=sys.stderr)
    try:
        with multiprocessing.Pool(jobs) if jobs > 1 and todo else Serial() as pool:
            signal.signal(signal.SIGTERM, _interrupt)   # after the fork: workers just die
            for seed, r in zip(todo, pool.imap(one, todo)):   # in seed order, whatever the jobs
                r = done[seed] = json.loads(json.dumps(r))   # read back or not, the same values
                if record:
                    with record.open("a") as f:
                        f.write(json.dumps({"seed": seed, "result": r}) + "\n")
                say(seed, r)
    except KeyboardInterrupt:
        print(f"interrupted: {sum(s in done for s in seeds)} of {len(seeds)} games finished", file=sys.stderr)
    return [done[s] for s in seeds if s in done]


class Serial:
    """Stands in for a multiprocessing Pool when --jobs is 1."""
    imap = staticmethod(map)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
