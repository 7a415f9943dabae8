"""Gate and strength matches between networks, played with the arena's machinery.

The gate: a new generation's network (the candidate) plays the current best (plain ISMCTS
until a network has been kept) at the same budget per move, sides rotating over shared
deals (:func:`boardlab.arena.play_one`); it is kept only if it does not lose: at least as
many wins as the best's copies have on average. A solo game has one side: each agent plays
the same deals alone and the candidate must win at least as many.

The strength figure: the candidate against plain ISMCTS at the same budget, the curve of the
run (its score: wins plus half the draws, over the games; 1 / sides is par).

Networks travel to the games as bytes (a Ray cluster's nodes do not share DIR): a spec names
one as ``net=@SHA256`` and the task writes it to a cache file on the node that plays it.
Finished games are appended to a JSON-lines file, so a stopped match resumes where it was.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from ..arena import (GameOutcome, MatchResult, _mix, mean_interval, play_one, sides_of,
                     wilson_interval)
from .replay import atomic_write

__all__ = ["Match", "agent_spec", "gate_matches", "strength_matches", "run_matches",
           "summarise", "play_match_game"]


def agent_spec(budget: str, net: bytes | None, cpuct: float | None = None,
               mix: float | None = None, late: str | None = None) -> str:
    """The arena spec of plain ISMCTS (``net`` None) or the guided search with ``net``."""
    if net is None:
        return f"ismcts:{budget}"
    spec = f"ismcts:{budget}:net=@{hashlib.sha256(net).hexdigest()}"
    if cpuct is not None:
        spec += f":cpuct={cpuct!r}"
    if mix is not None:
        spec += f":mix={mix!r}"
    if late is not None:
        spec += f":late={late}"
    return spec


def _cache_dir() -> Path:
    uid = getattr(os, "getuid", lambda: "user")()
    d = Path(tempfile.gettempdir()) / f"boardlab-train-nets-{uid}"
    d.mkdir(parents=True, exist_ok=True)
    return d


def _materialise(spec: str, nets: dict[str, bytes]) -> str:
    """``spec`` with ``net=@SHA`` replaced by the path of a file holding those bytes."""
    parts = spec.split(":")
    for k, part in enumerate(parts):
        if part.startswith("net=@"):
            sha = part[len("net=@"):]
            path = _cache_dir() / f"{sha}.blnet"
            if not path.exists():
                atomic_write(path, nets[sha])
            parts[k] = f"net={path}"
    return ":".join(parts)


def play_match_game(nets: dict[str, bytes], game: str, params: dict, specs: list[str],
                    index: int, seed: int) -> GameOutcome:
    """Game ``index`` of a match (a task for :func:`boardlab.parallel.run_tasks`)."""
    return play_one(game, params, [_materialise(s, nets) for s in specs], index, seed)


@dataclass(frozen=True)
class Match:
    """One match: a name (for the log), agent specs (the candidate first), games, seed, and
    the game parameters it is played with."""
    name: str
    specs: tuple
    games: int
    seed: int
    params: dict | None = None      # None: the run's


def _pair(kind: str, game: str, params: dict, candidate: str, other: str, games: int,
          seed: int, variant: dict | None = None) -> list[Match]:
    import boardlab
    n_sides = len(sides_of(game, boardlab.make(game, **params).num_players)[0])
    if n_sides == 1:            # solo: each plays the same deals alone
        return [Match(f"{kind}:candidate", (candidate,), games, seed, variant),
                Match(f"{kind}:other", (other,), games, seed, variant)]
    return [Match(kind, (candidate,) + (other,) * (n_sides - 1), games, seed, variant)]


def _matches(kind: str, game: str, params: dict, variants, candidate: str, other: str,
             games: int, seed: int) -> list[Match]:
    """The matches of a gate or strength step. A run over several configurations (variants)
    plays ``games`` spread evenly over them, each variant's share rounded up to a multiple of
    its sides (every side played equally often on shared deals); match names are
    ``kind/k`` for variant k."""
    if not variants:
        return _pair(kind, game, params, candidate, other, games, seed)
    import boardlab
    out = []
    for k, v in enumerate(variants):
        p = {**params, **v}
        n_sides = len(sides_of(game, boardlab.make(game, **p).num_players)[0])
        share = -(-games // len(variants))
        share = -(-share // n_sides) * n_sides
        out += _pair(f"{kind}/{k}", game, p, candidate, other, share, _mix(seed, k), p)
    return out


def gate_matches(game, params, candidate, best, games, run_seed, generation,
                 variants=()) -> list[Match]:
    return _matches("gate", game, params, variants, candidate, best, games,
                    _mix(run_seed, generation, 0x6A7E))


def strength_matches(game, params, candidate, plain, games, run_seed, generation,
                     variants=()) -> list[Match]:
    return _matches("strength", game, params, variants, candidate, plain, games,
                    _mix(run_seed, generation, 0x57E6))


def _read_log(path: Path) -> list[dict]:
    """The finished games recorded in ``path``; a line cut short by a kill is dropped (and
    the file rewritten without it)."""
    if not path.exists():
        return []
    rows, clean = [], True
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            clean = False
    if not clean:
        atomic_write(path, "".join(json.dumps(r) + "\n" for r in rows).encode())
    return rows


def run_matches(matches: list[Match], game: str, params: dict, nets: dict[str, bytes],
                log_path: Path, backend: str = "local", jobs: int | None = None,
                address: str | None = None, progress=None, stop=None) -> dict | None:
    """Play ``matches`` (resuming from ``log_path``) and return {name: MatchResult}, or None
    if ``stop()`` said to stop before every game was played."""
    from ..parallel import run_tasks
    done = {(r["match"], r["outcome"]["index"]): GameOutcome(**r["outcome"])
            for r in _read_log(log_path)}
    todo = [(m.name, (game, m.params or params, list(m.specs), i, m.seed))
            for m in matches for i in range(m.games) if (m.name, i) not in done]
    total = sum(m.games for m in matches)
    if todo:
        with open(log_path, "a", encoding="utf-8") as log:
            for k, outcome in run_tasks(play_match_game, [t for _, t in todo], backend=backend,
                                        jobs=jobs, address=address, shared=nets):
                name = todo[k][0]
                done[(name, outcome.index)] = outcome
                log.write(json.dumps({"match": name, "outcome": asdict(outcome)}) + "\n")
                log.flush()
                os.fsync(log.fileno())
                if progress:
                    progress(len(done), total)
                if stop is not None and stop() and len(done) < total:
                    return None
    import boardlab
    results = {}
    for m in matches:
        p = m.params or params
        names, _ = sides_of(game, boardlab.make(game, **p).num_players)
        r = MatchResult(game=game, params=p, agents=list(m.specs), games=m.games,
                        seed=m.seed, side_names=names)
        r.outcomes = sorted((o for (n, _), o in done.items() if n == m.name),
                            key=lambda o: o.index)
        results[m.name] = r
    return results


def summarise(kind: str, results: dict, by: str = "wins") -> dict:
    """:func:`summarise_one` of a step's matches; over several configurations (matches named
    ``kind/k``), their sum: games, wins, other_wins and draws added, score and par weighted
    by games, the interval of the pooled score, ``kept`` when the candidate's wins above an
    equal agent's (wins - other_wins / (sides - 1); solo: wins - the other agent's) add up
    to at least 0; each configuration's own summary under ``variants``."""
    keys = sorted({name.split(":")[0].split("/", 1)[1] for name in results if "/" in name},
                  key=int)
    if not keys:
        return summarise_one(kind, results, by)
    parts = [summarise_one(f"{kind}/{k}", results, by) for k in keys]
    n = sum(p["games"] for p in parts)
    points = sum(p["score"] * p["games"] for p in parts)
    lo, hi = wilson_interval(points, n)
    excess = sum(p["wins"] - p["other_wins"] / max(1, p["sides"] - 1) for p in parts)

    def params(k):
        return (results.get(f"{kind}/{k}") or results[f"{kind}/{k}:candidate"]).params
    return {"games": n, "wins": sum(p["wins"] for p in parts),
            "other_wins": sum(p["other_wins"] for p in parts),
            "draws": sum(p["draws"] for p in parts), "score": points / n, "lo": lo, "hi": hi,
            "par": sum(p["par"] * p["games"] for p in parts) / n, "kept": excess >= 0,
            "variants": [dict(p, params=params(k)) for k, p in zip(keys, parts)]}


def summarise_one(kind: str, results: dict, by: str = "wins") -> dict:
    """The candidate's record in a gate or strength match: games, wins, other_wins (the
    opponents' wins together; solo: the other agent's on the same deals), draws, score
    (wins plus draws shared equally, over games; solo: the win rate) with its 95% interval,
    ``par`` (an equal agent's score: 1 / sides, or the other agent's solo win rate) and
    ``kept`` (not lost: at least the opponents' mean wins). Solo also gives both agents' mean
    return and their paired difference with its 95% interval; ``by="return"`` keeps the
    candidate when that difference is not negative (a game whose result is a score, where
    nearly every game is won, says little in its wins)."""
    if f"{kind}:candidate" in results:
        mine, theirs = results[f"{kind}:candidate"], results[f"{kind}:other"]
        n, w, o = mine.games, mine.wins[0], theirs.wins[0]
        lo, hi = wilson_interval(w, n)
        s = {"games": n, "wins": w, "other_wins": o, "draws": 0, "score": w / n, "lo": lo,
             "hi": hi, "par": o / n, "kept": w >= o, "sides": 1}
        other = {g.index: g.returns[0] for g in theirs.outcomes}
        pairs = [(g.returns[0], other[g.index]) for g in mine.outcomes if g.index in other]
        if pairs:
            d, half = mean_interval([a - b for a, b in pairs])
            s.update({"return": sum(a for a, _ in pairs) / len(pairs),
                      "other_return": sum(b for _, b in pairs) / len(pairs),
                      "return_diff": d, "diff_lo": d - half, "diff_hi": d + half})
            if by == "return":
                s["kept"] = d >= 0
        return s
    r = results[kind]
    n, wins, draws = len(r.outcomes), r.wins, r.draws
    n_sides = len(r.side_names)
    others = sum(wins[1:])
    score = (wins[0] + draws / n_sides) / n
    lo, hi = wilson_interval(wins[0] + draws / n_sides, n)
    return {"games": n, "wins": wins[0], "other_wins": others, "draws": draws, "score": score,
            "lo": lo, "hi": hi, "par": 1.0 / n_sides, "sides": n_sides,
            "kept": wins[0] * (n_sides - 1) >= others}
