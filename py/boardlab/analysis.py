"""Batch analysis of saved games: the app's game review, headless, for many records.

Every decision of every record (JSON files as written by ``State.to_record()`` or the app's
Save) is searched by ISMCTS from the seat to move -- the search determinizes from that
seat's own view, so it knows what the player knew -- and one row is written per decision:

    record, record_id, game, decision, ply, seat, legal_moves,
    ai_move, ai_action, ai_win_pct, played_move, played_action, played_win_pct,
    played_visits, win_pct_lost, budget, iterations

``win_pct_lost = ai_win_pct - played_win_pct`` (percentage points, both from the same
search: 0 when the AI would have played the move played, negative only by sampling noise;
NaN if the played move got no visits). The output is Parquet (``.parquet``/``.pq``) or CSV
(``.csv``), rewritten after each finished game, so an interrupted run keeps what it did and
a rerun skips the records already in the file (by ``record_id``, a hash of the game itself,
not of its file name). Records are read and checked before any search starts (RecordError
naming the file), then sent to the workers as data, so Ray workers need no shared disk.

>>> from boardlab.analysis import analyse_record        # doctest: +SKIP
>>> rows = analyse_record(record, budget="1000")         # doctest: +SKIP
"""
from __future__ import annotations

import hashlib
import json
import math
import os
from typing import Sequence

from .errors import RecordError

__all__ = ["COLUMNS", "analyse_record", "decision_row", "analyse_files", "load_record", "record_id"]

COLUMNS = ["record", "record_id", "game", "decision", "ply", "seat", "legal_moves",
           "ai_move", "ai_action", "ai_win_pct", "played_move", "played_action",
           "played_win_pct", "played_visits", "win_pct_lost", "budget", "iterations"]
_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv"}


def record_id(record: dict) -> str:
    """A short stable hash of what makes the game (game, params, seed, start, actions)."""
    key = {k: record.get(k) for k in ("game", "params", "seed", "position", "actions")}
    text = json.dumps(key, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def load_record(path: str) -> dict:
    """The record in ``path``, checked by replaying it; RecordError naming the file."""
    import boardlab
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise RecordError(f"{path}: cannot read the record: {e.strerror or e}") from None
    try:
        from .records import parse_record
        record = parse_record(data)
        boardlab.replay(record)
    except RecordError as e:
        raise RecordError(f"{path}: {e}") from None
    return record


def _budget_agent(budget: str, seed: int):
    from .agents import ISMCTSAgent, make_agent
    agent = make_agent(f"ismcts:{budget}", seed=seed)
    if not isinstance(agent, ISMCTSAgent):        # pragma: no cover - the spec forces ismcts
        raise ValueError(f"budget {budget!r} does not give a search")
    return agent


def decision_row(state, action: int, result) -> dict:
    """How the move ``action`` played at ``state`` compares with the search ``result`` run
    there for the seat to move: the per-decision columns of :data:`COLUMNS` (seat,
    legal_moves, ai_*, played_*, win_pct_lost, iterations)."""
    legal = [int(a) for a in state.legal_actions()]
    by_action = {int(s["action"]): s for s in result.stats}
    best = by_action[int(result.best_action)]
    played = by_action.get(int(action))
    visited = played is not None and played["visits"] > 0
    ai_pct = 100.0 * float(best["win_prob"])
    played_pct = 100.0 * float(played["win_prob"]) if visited else math.nan
    return {"seat": int(state.current_player), "legal_moves": len(legal),
            "ai_move": state.action_to_string(int(result.best_action)),
            "ai_action": int(result.best_action), "ai_win_pct": ai_pct,
            "played_move": state.action_to_string(int(action)),
            "played_action": int(action), "played_win_pct": played_pct,
            "played_visits": int(played["visits"]) if played is not None else 0,
            "win_pct_lost": (0.0 if int(action) == int(result.best_action)
                             else ai_pct - played_pct),
            "iterations": int(result.iterations)}


def analyse_record(record: dict, budget: str = "1000", seed: int = 0, label: str = "") -> list:
    """One row (a dict of :data:`COLUMNS`) per decision of ``record``."""
    import boardlab
    agent = _budget_agent(budget, seed)
    rid = record_id(record)
    state = boardlab.replay({**record, "actions": [], "moves": None, "result": None})
    rows = []
    for ply, action in enumerate(record["actions"]):
        if state.current_player >= 0:
            row = decision_row(state, int(action), agent.analyse(state))
            rows.append({"record": label, "record_id": rid, "game": record["game"],
                         "decision": len(rows), "ply": ply, **row, "budget": str(budget)})
        state.apply(int(action))
    return rows


def _output_format(out: str) -> str:
    ext = os.path.splitext(out)[1].lower()
    if ext not in _FORMATS:
        raise ValueError(f"output {out!r}: the extension must be .parquet, .pq or .csv")
    return _FORMATS[ext]


def _read_done(out: str, fmt: str):
    """The rows already in ``out`` (a DataFrame, empty if there is no file)."""
    import pandas as pd
    if not os.path.exists(out):
        return pd.DataFrame(columns=COLUMNS)
    try:
        df = pd.read_parquet(out) if fmt == "parquet" else pd.read_csv(out, dtype={"record_id": str})
    except Exception as e:                       # noqa: BLE001 - any unreadable file
        raise ValueError(f"output {out!r} exists but cannot be read to resume ({e}); "
                         f"move it away or choose another --out") from None
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"output {out!r} exists but is not an analysis (no column "
                         f"{missing[0]!r}); move it away or choose another --out")
    return df


def _write(df, out: str, fmt: str) -> None:
    tmp = f"{out}.tmp{os.getpid()}"
    if fmt == "parquet":
        df.to_parquet(tmp, index=False)
    else:
        df.to_csv(tmp, index=False)
    os.replace(tmp, out)                          # never a half-written output


def analyse_files(paths: Sequence[str], out: str, budget: str = "1000", seed: int = 0,
                  backend: str = "local", jobs: int | None = None, address: str | None = None,
                  progress: bool = True) -> dict:
    """Analyse the records in ``paths`` into ``out`` (one Ray task / process job per
    record), skipping records already there. Returns counts: ``records`` given,
    ``skipped`` (already done or repeated), ``analysed``, ``rows`` in the output."""
    import pandas as pd
    from .parallel import check_backend, run_tasks
    check_backend(backend, jobs, address)
    fmt = _output_format(out)
    _budget_agent(budget, seed)                  # a bad budget fails before any work
    if not paths:
        raise ValueError("give at least one record file")
    done_df = _read_done(out, fmt)
    done = set(done_df["record_id"].astype(str))
    tasks, skipped = [], 0
    for path in paths:
        record = load_record(path)
        rid = record_id(record)
        if rid in done:
            skipped += 1
            continue
        done.add(rid)
        tasks.append((record, budget, seed, str(path)))
    frames = [done_df] if len(done_df) else []
    bar = None
    if progress and tasks:
        from tqdm import tqdm
        bar = tqdm(total=len(tasks), unit="game", desc="analysing")
    try:
        for _, rows in run_tasks(analyse_record, tasks, backend=backend, jobs=jobs,
                                 address=address):
            if rows:
                frames.append(pd.DataFrame(rows, columns=COLUMNS))
                _write(pd.concat(frames, ignore_index=True), out, fmt)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    total_rows = sum(len(f) for f in frames)
    if not os.path.exists(out):                   # nothing to analyse: still leave the file
        _write(pd.DataFrame(columns=COLUMNS), out, fmt)
    return {"records": len(paths), "skipped": skipped, "analysed": len(tasks),
            "rows": total_rows}
