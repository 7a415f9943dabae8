"""A run's log: DIR/log.csv, a row per generation, and DIR/strength.svg, its curve."""
from __future__ import annotations

import csv
import io
from pathlib import Path

from .replay import atomic_write

__all__ = ["LOG_COLUMNS", "TIME_COLUMNS", "rows", "write_log"]

LOG_COLUMNS = [
    "generation", "best", "selfplay_games", "samples", "decisions", "train_samples",
    "val_samples", "train_value", "train_policy", "train_loss", "val_value", "val_value_r2",
    "val_policy", "val_loss", "gate_opponent", "gate_games", "gate_wins", "gate_other_wins",
    "gate_draws", "gate_score", "gate_return", "gate_other_return", "kept", "strength_games",
    "strength_score", "strength_lo", "strength_hi", "strength_par", "strength_return",
    "strength_return_lo", "strength_return_hi", "strength_other_return", "selfplay_seconds",
    "games_per_second", "train_seconds", "gate_seconds", "strength_seconds"]
#: Columns that depend on the machine's speed, not on the seed.
TIME_COLUMNS = [c for c in LOG_COLUMNS if c.endswith("seconds") or c == "games_per_second"]


def rows(state: dict) -> list[dict]:
    """The log's rows (LOG_COLUMNS) of a run's state.json: a row per generation begun."""
    out = []
    for r in state["generations"]:
        sp, t, gt, st = r.get("selfplay"), r.get("train"), r.get("gate"), r.get("strength")
        if not (sp or t):
            continue
        row = dict.fromkeys(LOG_COLUMNS, "")
        row.update(generation=r["generation"])
        if sp:
            row.update(best=sp["by"], selfplay_games=sp["games"], samples=sp["samples"],
                       decisions=sp["decisions"], selfplay_seconds=f"{sp['seconds']:.1f}",
                       games_per_second=f"{sp['games_per_second']:.3f}")
        if t:
            row.update(train_samples=t["train_samples"], val_samples=t["val_samples"],
                       train_value=f"{t['train_value']:.5f}",
                       train_policy=f"{t['train_policy']:.5f}",
                       train_loss=f"{t['train_value'] + t['train_policy']:.5f}",
                       val_value=f"{t['val_value']:.5f}", val_policy=f"{t['val_policy']:.5f}",
                       val_value_r2=(f"{t['val_value_r2']:.4f}" if "val_value_r2" in t else ""),
                       val_loss=f"{t['val_value'] + t['val_policy']:.5f}",
                       train_seconds=f"{t['seconds']:.1f}")
        if gt:
            row.update(gate_opponent=gt["opponent"], gate_games=gt["games"],
                       kept=int(gt["kept"]), gate_seconds=f"{gt['seconds']:.1f}")
        if gt and gt["games"]:
            row.update(gate_wins=gt["wins"], gate_other_wins=gt["other_wins"],
                       gate_draws=gt["draws"], gate_score=f"{gt['score']:.4f}")
        if gt and "return" in gt:
            row.update(gate_return=f"{gt['return']:.5f}",
                       gate_other_return=f"{gt['other_return']:.5f}")
        if st and st.get("games"):
            row.update(strength_games=st["games"], strength_score=f"{st['score']:.4f}",
                       strength_lo=f"{st['lo']:.4f}", strength_hi=f"{st['hi']:.4f}",
                       strength_par=f"{st['par']:.4f}",
                       strength_seconds=f"{0.0 if st.get('reused_gate') else st['seconds']:.1f}")
        if st and "return" in st:      # solo: the paired interval, about the mean
            row.update(strength_return=f"{st['return']:.5f}",
                       strength_return_lo=f"{st['other_return'] + st['diff_lo']:.5f}",
                       strength_return_hi=f"{st['other_return'] + st['diff_hi']:.5f}",
                       strength_other_return=f"{st['other_return']:.5f}")
        out.append(row)
    return out


def write_log(out: Path, state: dict, title: str, by: str) -> None:
    """DIR/log.csv and DIR/strength.svg (the score, or the mean return where the gate goes
    by it, of each generation's network against plain ISMCTS)."""
    from .plot import strength_svg
    table = rows(state)
    buf = io.StringIO()
    w = csv.DictWriter(buf, LOG_COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(table)
    atomic_write(out / "log.csv", buf.getvalue().encode())
    metric = "return" if by == "return" else "score"
    atomic_write(out / "strength.svg", strength_svg(table, title, metric).encode())
