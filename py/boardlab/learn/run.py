"""`boardlab train`: expert iteration for one game and configuration, resumable from its folder.

Generation 0 is self-play by plain ISMCTS, or by the guided search with a given network
(``start_net``, `--start-from`: a shipped network or a run's best.blnet, which becomes
network 0, the best so far and the learner that generation 1 continues). Each later
generation g:

1. train: the learner (continued from generation g - 1's, or fresh at g = 1) trains on the
   replay window (the self-play of generations g - window .. g - 1, minus the held-out games)
   and becomes network g (nets/gen-g.blnet, float16; nets/gen-g.pt, the learner);
2. gate: network g plays the best so far at equal budget per move; kept as best if it does
   not lose (best.blnet, best.pt);
3. strength: network g against plain ISMCTS at the same budget (the gate itself while the best
   is plain ISMCTS), the curve of the run;
4. self-play: the best agent (the guided search with the best network, or plain ISMCTS while
   none has passed a gate) plays the generation's games.

Every step's result goes into DIR/state.json (written atomically) when it ends, so a stopped
run resumes at the step it was in; self-play and match games are saved as they finish, so a
kill loses only the games in progress. Every random choice is seeded from the run's seed and
the generation, so a run is deterministic given its seed (with an iteration gate budget; a
time budget makes the gate's games depend on the machine's speed).
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import shutil
import time
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from ..arena import _mix, sides_of
from ..search import check_options
from .nets import config_key
from .replay import GenerationStore, atomic_write, split_games, window
from .selfplay import SelfPlayConfig, play_game

__all__ = ["RunConfig", "ConfigError", "TORCH_MISSING", "train_run", "LOG_COLUMNS", "TIME_COLUMNS"]

TORCH_MISSING = 'boardlab train needs PyTorch: pip install "boardlab[train]"'
STATE_VERSION = 1
CHUNK_GAMES = 10            # self-play games saved together (a kill loses fewer than these) ...
CHUNK_SECONDS = 60.0        # ... or whatever finished in this long


class ConfigError(ValueError):
    """A bad training option; ``option`` names it (the field of RunConfig)."""

    def __init__(self, option: str, message: str):
        super().__init__(f"{option}: {message}")
        self.option = option
        self.detail = message


@dataclass(frozen=True)
class RunConfig:
    """Everything that decides a run's results (kept in DIR/config.json)."""
    game: str
    params: dict
    seed: int = 0
    games_per_gen: int = 200
    iterations: int = 800           # self-play search iterations per decision
    width: int = 128
    blocks: int = 2
    window: int = 4                 # generations of self-play the learner trains on
    epochs: int = 2
    batch: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-4
    value_search_weight: float = 1.0    # share of the search's root estimate in the value target
    val_fraction: float = 0.1       # of each generation's games, held out for validation
    temperature_moves: int = 10
    explore_rate: float = 0.0       # share of the later decisions played uniformly at random
    gate_games: int = 40            # 0: no gate, every new network is the best (AlphaZero)
    gate_budget: str = "0.1s"       # per move, both sides: seconds (equal time) or iterations
    gate_by: str = "wins"           # solo: games won, or "return" (mean return, same deals)
    strength_games: int = 40
    cpuct: float | None = None      # guided search options (None: the search's defaults)
    mix: float | None = None
    late: str | None = None
    start_from: str | None = None   # sha256 of network 0's file (None: plain ISMCTS begins)

    def checked(self) -> "RunConfig":
        """This config with the game's parameters completed; ConfigError naming the first
        bad option."""
        import boardlab
        try:
            game = boardlab.make(self.game, **self.params)
        except (ValueError, TypeError, KeyError) as e:
            raise ConfigError("game", f"bad game or parameters: {e}") from None
        if game._core.feature_size <= 0:
            raise ConfigError("game", f"{self.game} has no network features in the kernel")

        def integer(name, low, high=2**31 - 1):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
                raise ConfigError(name, f"must be an integer in [{low}, {high}], got {v!r}")

        def real(name, low, high, open_low=False, none_ok=False):
            v = getattr(self, name)
            if v is None and none_ok:
                return
            ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) \
                and (v > low if open_low else v >= low) and v <= high
            if not ok:
                raise ConfigError(name, f"must be a number in {'(' if open_low else '['}{low}, "
                                        f"{high}], got {v!r}")
        integer("seed", 0, 2**63 - 1)
        integer("games_per_gen", 2, 10**7)
        integer("iterations", 1, 2**32 - 1)
        integer("width", 1, 4096)
        integer("blocks", 0, 64)
        integer("window", 1, 10**6)
        integer("epochs", 1, 10**6)
        integer("batch", 1, 10**7)
        integer("temperature_moves", 0, 10**6)
        real("lr", 0, 10, open_low=True)
        real("weight_decay", 0, 10)
        real("value_search_weight", 0, 1)
        real("explore_rate", 0, 1)
        real("val_fraction", 0, 0.5, open_low=True)
        real("cpuct", 0, 1e6, none_ok=True)
        real("mix", 0, 1, none_ok=True)
        try:
            check_options(late=self.late)       # the search's own rule for the option
        except ValueError as e:
            raise ConfigError("late", str(e).removeprefix("late ")) from None
        n_sides = len(sides_of(self.game, game.num_players)[0])
        for name in ("gate_games", "strength_games"):
            v = getattr(self, name)
            integer(name, 0, 10**7)
            if v % n_sides:
                raise ConfigError(name, f"must be a multiple of {n_sides} (every side played "
                                        f"equally often on shared deals), got {v}")
        if self.gate_by not in ("wins", "return"):
            raise ConfigError("gate_by", f"must be wins or return, got {self.gate_by!r}")
        if self.gate_by == "return" and n_sides != 1:
            raise ConfigError("gate_by", f"return compares one agent's games with another's on "
                                         f"the same deals: solo games only ({self.game} with "
                                         f"{game.num_players} players has {n_sides} sides)")
        from ..agents import make_agent
        try:
            make_agent(f"ismcts:{self.gate_budget}")
        except ValueError as e:
            raise ConfigError("gate_budget", f"must be seconds (0.1s) or iterations (400): "
                                             f"{e}") from None
        return RunConfig(**{**asdict(self), "params": dict(game.params)})

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, sort_keys=True) + "\n"


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


class _Run:
    def __init__(self, out: Path, cfg: RunConfig, hours, generations, backend, jobs, address,
                 report):
        import boardlab
        self.out, self.cfg = out, cfg
        self.game = boardlab.make(cfg.game, **cfg.params)
        self.key = config_key(self.game)
        self.shape = {"n_in": self.game._core.feature_size, "width": cfg.width,
                      "blocks": cfg.blocks, "n_value": self.game.num_players,
                      "n_actions": self.game.num_actions}
        self.store = GenerationStore(out / "samples", self.shape["n_in"], self.shape["n_value"])
        (out / "nets").mkdir(exist_ok=True)
        (out / "matches").mkdir(exist_ok=True)
        self.hours, self.generations = hours, generations
        self.backend, self.jobs, self.address = backend, jobs, address
        self.report = report
        self.started = time.monotonic()
        path = out / "state.json"
        self.state = (json.loads(path.read_text()) if path.exists()
                      else {"version": STATE_VERSION, "elapsed": 0.0, "best": 0,
                            "generations": []})
        self.base_elapsed = float(self.state["elapsed"])

    # --- bookkeeping ---
    def elapsed(self) -> float:
        return self.base_elapsed + time.monotonic() - self.started

    def out_of_time(self) -> bool:
        return self.hours is not None and self.elapsed() >= self.hours * 3600

    def save(self) -> None:
        self.state["elapsed"] = self.elapsed()
        atomic_write(self.out / "state.json", (json.dumps(self.state, indent=1) + "\n").encode())

    def record(self, g: int) -> dict:
        gens = self.state["generations"]
        while len(gens) <= g:
            gens.append({"generation": len(gens)})
        return gens[g]

    def net_path(self, g: int, ext: str = "blnet") -> Path:
        return self.out / "nets" / f"gen-{g:04d}.{ext}"

    def train_settings(self):
        from . import trainer
        cfg = self.cfg
        return trainer.TrainSettings(cfg.epochs, cfg.batch, cfg.lr, cfg.weight_decay,
                                     cfg.value_search_weight)

    def save_learner(self, g: int, model, opt) -> None:
        """The learner of network g (nets/gen-g.pt)."""
        from . import trainer
        atomic_write(self.net_path(g, "pt"), trainer.save_checkpoint(
            model, opt, {**self.shape, "game": self.cfg.game, "config": self.key,
                         "generation": g}))

    def best_bytes(self) -> bytes | None:
        b = self.state["best"]
        return self.net_path(b).read_bytes() if b or self.cfg.start_from else None

    def best_name(self) -> str:
        b = self.state["best"]
        return f"gen {b}" if b or self.cfg.start_from else "plain ISMCTS"

    # --- the loop ---
    def run(self) -> str:
        while True:
            g = sum(1 for r in self.state["generations"] if "selfplay" in r)
            if self.generations is not None and g >= self.generations:
                return f"stopped after {g} generations (--generations {self.generations})"
            rec = self.record(g)
            steps = [("selfplay", self.selfplay)]
            if g >= 1:
                steps = [("train", self.train), ("gate", self.gate),
                         ("strength", self.strength)] + steps
            for name, step in steps:
                if name in rec:
                    continue
                if self.out_of_time():
                    return f"stopped: the {self.hours:g} h budget is used up (resume with a " \
                           f"larger --hours)"
                t0 = time.monotonic()
                result = step(g, rec)
                if result is None:
                    self.save()
                    return f"stopped in generation {g} ({name}): the {self.hours:g} h budget " \
                           f"is used up (resume with a larger --hours)"
                result["seconds"] = time.monotonic() - t0
                rec[name] = result
                self.save()
                self.write_log()        # a run stopped in self-play logs its gate already

    def selfplay(self, g: int, rec: dict):
        from ..parallel import run_tasks
        cfg = self.cfg
        if self.store.complete(g):      # killed after the merge, before state.json said so
            shutil.rmtree(self.store.part_dir(g), ignore_errors=True)
            self.report(f"gen {g} self-play: complete on disk")
            return {"games": cfg.games_per_gen, "samples": len(self.store.load(g)),
                    "decisions": self.store.decisions(g), "by": self.state["best"],
                    "games_per_second": 0.0}
        sp = SelfPlayConfig(cfg.game, cfg.params, cfg.iterations, cfg.temperature_moves,
                            cfg.cpuct, cfg.mix, cfg.late, cfg.explore_rate)
        done = self.store.recover(g)
        todo = [i for i in range(cfg.games_per_gen) if i not in done]
        net = self.best_bytes()
        who = f"{self.best_name()} network" if net else "plain ISMCTS"
        t0 = time.monotonic()
        buffer, last_flush, played = [], t0, 0

        def flush():
            nonlocal buffer, last_flush
            if buffer:
                self.store.write_chunk(g, buffer)
            buffer, last_flush = [], time.monotonic()
        tasks = [(sp, net, cfg.seed, g, i) for i in todo]
        try:
            for _, game in run_tasks(play_game, tasks, backend=self.backend, jobs=self.jobs,
                                     address=self.address):
                done[game.index] = game
                buffer.append(game)
                played += 1
                now = time.monotonic()
                if len(buffer) >= CHUNK_GAMES or now - last_flush >= CHUNK_SECONDS:
                    flush()
                rate = played / max(now - t0, 1e-9)
                self.report(f"gen {g} self-play ({who}, {cfg.iterations} iterations): "
                            f"{len(done)}/{cfg.games_per_gen} games, {rate:.2f} games/s",
                            transient=True)
                if self.out_of_time() and len(done) < cfg.games_per_gen:
                    return None
        finally:
            flush()
        samples = self.store.finish(g, done)
        seconds = time.monotonic() - t0
        rate = played / seconds if played and seconds > 0 else 0.0
        self.report(f"gen {g} self-play ({who}): {cfg.games_per_gen} games, {len(samples)} "
                    f"samples, {rate:.2f} games/s")
        return {"games": cfg.games_per_gen, "samples": len(samples),
                "decisions": sum(gm.decisions for gm in done.values()), "by": self.state["best"],
                "games_per_second": rate}

    def train(self, g: int, rec: dict):
        from .. import _net
        from . import netfile, trainer
        cfg = self.cfg
        settings = self.train_settings()
        gens = list(range(max(0, g - cfg.window), g))
        n_val = split_games(cfg.games_per_gen, cfg.val_fraction)
        train_set, val_set = window(self.store, gens, n_val, cfg.games_per_gen)
        if len(train_set) == 0 or len(val_set) == 0:
            raise RuntimeError(f"generation {g}: the window has {len(train_set)} training and "
                               f"{len(val_set)} validation samples; nothing to learn from")
        seed = _mix(cfg.seed, g, 0x7EA1)
        if g == 1 and not self.cfg.start_from:
            model, opt = trainer.new_learner(self.shape, settings, seed)
        else:
            model, opt, _ = trainer.load_checkpoint(self.net_path(g - 1, "pt").read_bytes(),
                                                    settings)
        t = trainer.train_epochs(model, opt, train_set, settings, seed)
        v = trainer.evaluate(model, val_set, search_weight=cfg.value_search_weight)
        # What the value explains of held-out games: 1 - MSE / the target's variance; at or
        # below 0 the value has learnt the training games, not the positions.
        spread = float(trainer.value_target(val_set, cfg.value_search_weight).var(axis=0).mean())
        r2 = 1 - v.value / spread if spread > 0 else float("nan")
        blob = netfile.to_bytes(model.to_spec(cfg.game, self.key), "float16")
        _net.Net.from_bytes(blob).check_game(self.game._core)     # the kernel takes it
        self.save_learner(g, model, opt)
        atomic_write(self.net_path(g), blob)
        self.report(f"gen {g} train: generations {gens[0]}-{gens[-1]}, {len(train_set)} samples "
                    f"(+{len(val_set)} held out); loss train {t.total:.4f} (value {t.value:.4f},"
                    f" policy {t.policy:.4f}), validation {v.total:.4f} (value {v.value:.4f}, "
                    f"R² {r2:+.3f}; policy {v.policy:.4f})")
        return {"window": gens, "train_samples": len(train_set), "val_samples": len(val_set),
                "train_value": t.value, "train_policy": t.policy, "val_value": v.value,
                "val_value_r2": r2, "val_policy": v.policy}

    def _matches(self, g, kind, make, other_net, other_name):
        from . import gate
        cfg = self.cfg
        cand = self.net_path(g).read_bytes()
        nets = {hashlib.sha256(b).hexdigest(): b for b in (cand, other_net) if b}
        cand_spec = gate.agent_spec(cfg.gate_budget, cand, cfg.cpuct, cfg.mix, cfg.late)
        other_spec = gate.agent_spec(cfg.gate_budget, other_net, cfg.cpuct, cfg.mix, cfg.late)
        games = cfg.gate_games if kind == "gate" else cfg.strength_games
        matches = make(cfg.game, cfg.params, cand_spec, other_spec, games, cfg.seed, g)
        total = sum(m.games for m in matches)

        def progress(done, _total):
            self.report(f"gen {g} {kind} vs {other_name}: {done}/{total} games", transient=True)
        results = gate.run_matches(matches, cfg.game, cfg.params, nets,
                                   self.out / "matches" / f"gen-{g:04d}.jsonl", self.backend,
                                   self.jobs, self.address, progress, self.out_of_time)
        if results is None:
            return None
        s = gate.summarise(kind, results, cfg.gate_by)
        s["opponent"] = other_name
        return s

    def _describe(self, g, kind, s) -> str:
        text = (f"gen {g} {kind} vs {s['opponent']} ({self.cfg.gate_budget} a move): "
                f"{s['wins']}-{s['other_wins']}" + (f" ({s['draws']} draws)" if s["draws"] else "")
                + f", score {100 * s['score']:.1f}% [{100 * s['lo']:.1f}, {100 * s['hi']:.1f}]"
                f" (par {100 * s['par']:.1f}%)")
        if "return" in s:
            text += (f"; mean return {s['return']:.4f} vs {s['other_return']:.4f}, difference "
                     f"{s['return_diff']:+.4f} [{s['diff_lo']:+.4f}, {s['diff_hi']:+.4f}]")
        return text

    def gate(self, g: int, rec: dict):
        from . import gate
        name = self.best_name()
        if self.cfg.gate_games == 0:          # no gate: the newest network is the best
            s = {"opponent": "none", "games": 0, "kept": True}
        else:
            s = self._matches(g, "gate", gate.gate_matches, self.best_bytes(), name)
            if s is None:
                return None
        if s["kept"]:
            # The copies first: a kill before state.json records the gate replays it (the
            # games are on file) and copies again.
            for ext in ("blnet", "pt"):
                shutil.copyfile(self.net_path(g, ext), self.out / f"best.{ext}.tmp")
                os.replace(self.out / f"best.{ext}.tmp", self.out / f"best.{ext}")
            self.state["best"] = g
        s["best_after"] = self.state["best"]
        if s["games"]:
            self.report(self._describe(g, "gate", s) + (": kept as best" if s["kept"] else
                                                        f": rejected, {name} stays best"))
        else:
            self.report(f"gen {g} gate: none (--gate-games 0), kept as best")
        return s

    def strength(self, g: int, rec: dict):
        from . import gate
        if rec["gate"]["opponent"] == "plain ISMCTS":      # the gate was that match
            s = dict(rec["gate"], reused_gate=True)
        elif self.cfg.strength_games == 0:
            return {"games": 0}
        else:
            s = self._matches(g, "strength", gate.strength_matches, None, "plain ISMCTS")
            if s is None:
                return None
            self.report(self._describe(g, "strength", s))
        return s

    # --- log and plot ---
    def rows(self) -> list[dict]:
        out = []
        for r in self.state["generations"]:
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

    def write_log(self) -> None:
        from .plot import strength_svg
        rows = self.rows()
        buf = io.StringIO()
        w = csv.DictWriter(buf, LOG_COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        atomic_write(self.out / "log.csv", buf.getvalue().encode())
        title = (f"{self.cfg.game} {self.key}: network of each generation vs plain ISMCTS, "
                 f"{self.cfg.gate_budget} a move")
        metric = "return" if self.cfg.gate_by == "return" else "score"
        atomic_write(self.out / "strength.svg", strength_svg(rows, title, metric).encode())


def _lock(out: Path):
    """An exclusive lock on DIR for this process (two runs in one folder would mix files)."""
    try:
        import fcntl
    except ImportError:                     # pragma: no cover - not POSIX
        return None
    f = open(out / ".lock", "w")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise ConfigError("out", f"another boardlab train is running in {out}") from None
    return f


def open_config(out: Path, cfg: RunConfig, given: set[str]) -> RunConfig:
    """The run's config: ``cfg`` for a new run; for a run already in ``out``, the stored one,
    which options in ``given`` (the ones the caller set) must not contradict."""
    path = out / "config.json"
    if not path.exists():
        if out.exists() and any(p.name != ".lock" for p in out.iterdir()):
            raise ConfigError("out", f"{out} is not empty and holds no training run "
                                     f"(no config.json); choose a new folder")
        return cfg.checked()
    try:
        # A run from before --value-search-weight trained on outcomes alone: it keeps doing so.
        stored = RunConfig(**{"value_search_weight": 0.0, **json.loads(path.read_text())})
    except (ValueError, TypeError) as e:
        raise ConfigError("out", f"{path} cannot be read as a run's settings: {e}") from None
    mine = asdict(cfg.checked())               # the game's defaults filled in, as stored
    for f in fields(RunConfig):
        if f.name in given and mine[f.name] != getattr(stored, f.name):
            raise ConfigError(f.name, f"the run in {out} has {getattr(stored, f.name)!r}, "
                                      f"not {mine[f.name]!r} (a run keeps its settings)")
    return stored


def _with_start(cfg: RunConfig, start_net: bytes, given: set[str]) -> RunConfig:
    """``cfg`` for a run that begins with the network file ``start_net``: its sha256 as
    start_from, its width and blocks (options in ``given`` that set them otherwise are
    refused); ConfigError (start_from) when it is not a network of this game and
    configuration."""
    from .. import _net
    from . import netfile
    import boardlab
    cfg = cfg.checked()
    try:
        spec = netfile.from_bytes(start_net)
    except (ValueError, KeyError) as e:
        raise ConfigError("start_from", f"not a network file that can be read: {e}") from None
    game = boardlab.make(cfg.game, **cfg.params)
    key = config_key(game)
    if (spec.game, spec.config) != (cfg.game, key):
        raise ConfigError("start_from", f"a network for {spec.game} {spec.config}, "
                                        f"not for {cfg.game} {key}")
    try:
        _net.Net.from_bytes(start_net).check_game(game._core)
    except ValueError as e:
        raise ConfigError("start_from", f"the kernel refuses it: {e}") from None
    if spec.value_activation != "tanh":
        raise ConfigError("start_from", f"its value head is {spec.value_activation}; "
                                        f"the learner's is tanh")
    for name, theirs in (("width", spec.width), ("blocks", spec.blocks)):
        if name in given and getattr(cfg, name) != theirs:
            raise ConfigError("start_from", f"the network has {name} {theirs}, the run's "
                                            f"--{name} is {getattr(cfg, name)}")
    return RunConfig(**{**asdict(cfg), "width": spec.width, "blocks": spec.blocks,
                        "start_from": hashlib.sha256(start_net).hexdigest()})


def _write_start(run: "_Run", start_net: bytes | None) -> None:
    """Network 0 of a run that begins with a network: its file, the learner built from it
    (a fresh optimizer) and the best so far; once, the files then stay as they are."""
    from . import netfile, trainer
    cfg, path = run.cfg, run.net_path(0)
    if not path.exists():
        if start_net is None or hashlib.sha256(start_net).hexdigest() != cfg.start_from:
            raise ConfigError("start_from", f"{path} is missing: give --start-from with the "
                                            f"network the run began with")
        atomic_write(path, start_net)
    if not run.net_path(0, "pt").exists():
        spec = netfile.from_bytes(path.read_bytes())
        run.save_learner(0, *trainer.learner_from_spec(spec, run.train_settings()))
    if run.state["best"] == 0:
        for ext in ("blnet", "pt"):
            if not (run.out / f"best.{ext}").exists():
                atomic_write(run.out / f"best.{ext}", run.net_path(0, ext).read_bytes())


def train_run(out, cfg: RunConfig, hours: float | None = None, generations: int | None = None,
              backend: str = "local", jobs: int | None = None, address: str | None = None,
              report=None, given: set[str] | None = None, start_net: bytes | None = None) -> str:
    """Run (or resume) the training in folder ``out`` until ``hours`` of run time (counted
    across resumes) or ``generations`` complete generations; returns why it stopped.

    ``given``: the options the caller set explicitly; on a resumed run they must agree with
    the stored settings (None: every field of ``cfg``). ``start_net``: the bytes of a network
    file the run begins with (network 0; a resume needs it only if the run's copy is gone).
    ``report(text, transient=False)`` receives the progress lines. ConfigError names a bad
    option; ImportError says how to install PyTorch."""
    try:
        import torch  # noqa: F401
    except ImportError:
        raise ImportError(TORCH_MISSING) from None
    from ..parallel import check_backend
    if hours is None and generations is None:
        raise ConfigError("hours", "give hours (a time budget) or generations (a count)")
    if hours is not None and (isinstance(hours, bool) or not isinstance(hours, (int, float))
                              or not math.isfinite(hours) or hours <= 0):
        raise ConfigError("hours", f"must be a number of hours > 0, got {hours!r}")
    if generations is not None and (isinstance(generations, bool) or
                                    not isinstance(generations, int) or generations < 1):
        raise ConfigError("generations", f"must be an integer >= 1, got {generations!r}")
    try:
        check_backend(backend, jobs, address)
    except ValueError as e:
        raise ConfigError("jobs" if "jobs" in str(e) else "ray", str(e)) from None
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ConfigError("out", f"{out} is a file, not a folder")
    if start_net is not None and (out / "config.json").exists():    # checked when it began
        cfg = replace(cfg, start_from=hashlib.sha256(start_net).hexdigest())
    elif start_net is not None:     # the network's width and blocks, unless set otherwise
        cfg = _with_start(cfg, start_net, set(given or ()))
    given = {f.name for f in fields(RunConfig)} if given is None else set(given) | (
        {"start_from"} if start_net is not None else set())
    cfg = open_config(out, cfg, given)
    out.mkdir(parents=True, exist_ok=True)
    lock = _lock(out)
    try:
        if not (out / "config.json").exists():
            atomic_write(out / "config.json", cfg.to_json().encode())
        run = _Run(out, cfg, hours, generations, backend, jobs, address,
                   report or (lambda text, transient=False: None))
        if cfg.start_from:
            _write_start(run, start_net)
        return run.run()
    finally:
        if lock is not None:
            lock.close()
