"""`boardlab nets ship RUN`: a finished training run's best network into a networks folder
(the package's by default), with its manifest entry (boardlab.nets.manifest).

The entry is built from the run's own files: the configurations from config.json (its game
parameters, or each of its ``variants`` over them), the search settings it trained with, the
`boardlab train` command rebuilt from its settings, its seed, folder name and best
generation (state.json), and that generation's strength match against plain ISMCTS at the
run's gate budget (until a measurement at play budgets, bench/net_strength.py --manifest,
is added). Reads the run's files only: no PyTorch needed.
"""
from __future__ import annotations

import json
import os
import shlex
import tempfile
from dataclasses import fields
from pathlib import Path

from ..arena import sides_of
from ..nets import config_key, loader, manifest
from .config import RunConfig

__all__ = ["ShipError", "ship", "train_command", "configs_of"]


class ShipError(ValueError):
    """The folder cannot be shipped; the message says why."""


def _read_json(path: Path, what: str) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ShipError(f"{path} cannot be read as {what}: {e}") from None
    if not isinstance(data, dict):
        raise ShipError(f"{path} cannot be read as {what}: not a JSON object")
    return data


def _run_config(run: Path) -> RunConfig:
    """The run's settings, checked (its variants as dicts of game parameters)."""
    raw = _read_json(run / "config.json", "a training run's settings")
    try:
        # A run from before --value-search-weight trained on outcomes alone (as open_config).
        return RunConfig(**{"value_search_weight": 0.0, **raw}).checked()
    except (TypeError, ValueError) as e:
        raise ShipError(f"{run / 'config.json'} is not a run's settings: {e}") from None


def configs_of(cfg: RunConfig) -> list[tuple[object, dict]]:
    """(game, configuration) of every configuration the run's network serves (its variants,
    or its parameters alone): the game parameters its network key names ({"players": 2};
    {"players": 1, "solo": "chasing"})."""
    out = []
    for game in cfg.games():
        config = manifest.config_of_key(game, config_key(game))
        if config not in [c for _, c in out]:
            out.append((game, config))
    return out


def _word(value) -> str:
    """A parameter's value as `boardlab train` reads it back (JSON where it is not a string)."""
    return value if isinstance(value, str) else json.dumps(value)


def _vary(variants) -> list[str] | None:
    """--vary KEY=V1,V2 words that make exactly ``variants`` (every combination, the first key
    slowest, as `boardlab train` builds them), or None where no such options do."""
    import itertools
    keys = list(variants[0])
    axes = [list(dict.fromkeys(json.dumps(v[k]) for v in variants)) for k in keys]
    product = [dict(zip(keys, map(json.loads, combo))) for combo in itertools.product(*axes)]
    if product != [dict(v) for v in variants]:
        return None
    return [w for k, axis in zip(keys, axes)
            for w in ("--vary", f"{k}={','.join(_word(json.loads(v)) for v in axis)}")]


def train_command(cfg: RunConfig, out: str, start_from: str | None = None) -> str | None:
    """The `boardlab train` command of a run with the settings ``cfg`` in folder ``out``:
    every setting spelt out (a later change of a default does not change what it means),
    the game parameters that differ from the game's defaults. --hours, --generations and
    --jobs are not settings (they do not change the results) and are left out. None for
    variants that --vary cannot make (a run set up from Python)."""
    import boardlab
    words = ["boardlab", "train", cfg.game, "--players", str(cfg.params["players"])]
    defaults = boardlab.make(cfg.game, players=cfg.params["players"]).params
    words += [w for k, v in cfg.params.items() if k != "players" and defaults.get(k) != v
              for w in ("--param", f"{k}={_word(v)}")]
    if cfg.variants:
        vary = _vary(cfg.variants)
        if vary is None:
            return None
        words += vary
    if start_from:
        words += ["--start-from", start_from]
    words += ["--out", out]
    for f in fields(RunConfig):
        value = getattr(cfg, f.name)
        if f.name not in ("game", "params", "start_from", "variants") and value is not None:
            words += ["--" + f.name.replace("_", "-"), str(value)]
    return " ".join(shlex.quote(w) for w in words)


def _budget_words(budget: str) -> str:
    return f"{budget[:-1]} s a move" if budget.endswith("s") else f"{budget} iterations a move"


def _run_strength(record: dict, cfg: RunConfig, generation: int, command: str | None,
                  games: list) -> list[dict]:
    """The best generation's strength match as a manifest measurement ([] without one); over
    several configurations, their pooled figure and each one's beside it."""
    s = record.get("strength") or {}
    if not s.get("games"):
        return []
    solo = all(len(sides_of(cfg.game, g.num_players)[0]) == 1 for g in games)
    each = [f"{v['params']}: {v['wins']}-{v['other_wins']}, {round(100 * v['score'], 1)}% "
            f"[{round(100 * v['lo'], 1)}, {round(100 * v['hi'], 1)}]"
            for v in s.get("variants", [])]
    pct = [round(100 * s["lo"], 1), round(100 * s["hi"], 1)]
    base = {"budget": _budget_words(cfg.gate_budget), "games": s["games"],
            "seeds": f"the run's seed {cfg.seed}, generation {generation}",
            "value": round(100 * s["score"], 1), "unit": "%", "interval": pct,
            "command": [command] if command else None, "date": None}
    if not solo:
        return [{**base, "compared": "the training run's strength match at its gate budget: "
                                     "guided vs plain ISMCTS", "wins": s["wins"],
                 "losses": s["other_wins"], "draws": s["draws"],
                 "figure": "score (a draw counts half)", "also": each}]
    also = [f"plain ISMCTS {round(100 * s['par'], 1)}%", *each]
    if "return" in s:
        also.append(f"mean return {s['return']:.4f} against {s['other_return']:.4f}, "
                    f"difference {s['return_diff']:+.4f} [{s['diff_lo']:+.4f}, "
                    f"{s['diff_hi']:+.4f}]")
    return [{**base, "compared": "the training run's strength match at its gate budget: the "
                                 "guided search and plain ISMCTS on the same deals",
             "wins": None, "losses": None, "draws": None, "figure": "games won", "also": also}]


def _started_from(sha: str | None, entries: list[dict]) -> dict | None:
    """What the run began with: the sha256 of network 0, and the shipped entry it was."""
    if not sha:
        return None
    known = next((e for e in entries if e["sha256"] == sha), None)
    by = known["made_by"] if known else {}
    return {"sha256": sha, "file": known["file"] if known else None, "run": by.get("run"),
            "seed": by.get("seed"), "generation": by.get("generation")}


def _copy(data: bytes, path: Path) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-", suffix=".tmp")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def ship(run_dir, nets_dir=None) -> dict:
    """Copy the run's best network into ``nets_dir`` (default: the package's networks, read
    by net=default) as <game>-<key>.blnet (<game>.blnet for a run of several variants) and
    write its manifest entry, replacing one for the same file; returns the entry.
    ShipError: not a run, no generation that passed its gate, a best.blnet that is not the
    best generation's, a network the kernel refuses for a configuration it would serve."""
    from .. import _net
    run = Path(run_dir)
    if not (run / "config.json").is_file():
        raise ShipError(f"{run} is not a training run (no config.json)")
    cfg = _run_config(run)
    if not (run / "state.json").is_file():
        raise ShipError(f"{run}: no finished generation (no state.json)")
    state = _read_json(run / "state.json", "a training run's progress")
    best = state.get("best")
    if not isinstance(best, int) or best < 0 or not (run / "best.blnet").is_file():
        raise ShipError(f"{run}: no network has passed its gate yet (no best.blnet)")
    if best == 0:
        raise ShipError(f"{run}: no generation of this run has passed its gate; best.blnet is "
                        f"the network it began with (--start-from)")
    data = (run / "best.blnet").read_bytes()
    gen_file = run / "nets" / f"gen-{best:04d}.blnet"
    if not gen_file.is_file() or gen_file.read_bytes() != data:
        raise ShipError(f"{run}: best.blnet is not generation {best}'s network ({gen_file}), "
                        f"which state.json names the best")
    served = configs_of(cfg)
    try:
        net = _net.Net.from_bytes(data)
        for game, config in served:
            net.check_game(game._core)
    except ValueError as e:
        raise ShipError(f"{run}: the kernel refuses best.blnet: {e}") from None
    game, config = served[0]
    name = f"{cfg.game}.blnet" if len(served) > 1 else \
        f"{cfg.game}-{config_key(game).replace('=', '').replace(',', '-')}.blnet"
    folder = Path(nets_dir) if nets_dir is not None else loader.NETS_DIR
    current = manifest.read(folder)
    started = _started_from(cfg.start_from, current["networks"])
    # --start-from default when the run began with the network shipped here for its
    # configuration; otherwise the command names it NET (started_from has its sha256)
    shipped_here = manifest.entry_for(folder, game)
    begun_here = bool(started and shipped_here and shipped_here["sha256"] == started["sha256"])
    command = train_command(cfg, str(run), ("default" if begun_here else "NET")
                            if started else None)
    record = next((r for r in state.get("generations", []) if r.get("generation") == best), {})
    made_by = {"command": [command] if command else None, "seed": cfg.seed,
               "run": run.resolve().name, "generation": best, "started_from": started,
               "record": None, "plot": None}
    settings = {k: getattr(cfg, k) for k in manifest.SETTINGS if getattr(cfg, k) is not None}
    strength = _run_strength(record, cfg, best, command, [g for g, _ in served])
    entry = manifest.make_entry(name, cfg.game, [c for _, c in served], data, settings,
                                made_by, strength)
    updated = manifest.with_entry(current, entry)      # refused before any file is written
    folder.mkdir(parents=True, exist_ok=True)
    _copy(data, folder / name)
    manifest.write(folder, updated)
    return entry
