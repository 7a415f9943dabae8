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

import hashlib
import json
import math
import os
import shutil
import time
from dataclasses import asdict, fields, replace
from pathlib import Path

import numpy as np

from ..arena import _mix
from ..nets import config_key
from .config import ConfigError, RunConfig, open_config, run_key
from .log import LOG_COLUMNS, TIME_COLUMNS, write_log
from .replay import GenerationStore, atomic_write, split_games, window
from .selfplay import SelfPlayConfig, play_game

__all__ = ["RunConfig", "ConfigError", "TORCH_MISSING", "train_run", "LOG_COLUMNS", "TIME_COLUMNS"]
TORCH_MISSING = 'boardlab train needs PyTorch: pip install "boardlab[train]"'
STATE_VERSION = 1
CHUNK_GAMES = 10            # self-play games saved together (a kill loses fewer than these) ...
CHUNK_SECONDS = 60.0        # ... or whatever finished in this long


class _Run:
    def __init__(self, out: Path, cfg: RunConfig, hours, generations, backend, jobs, address,
                 report):
        import boardlab
        self.out, self.cfg = out, cfg
        self.game = boardlab.make(cfg.game, **cfg.params)
        games = cfg.games(self.game)
        self.key = run_key(cfg)
        self.shape = {"n_in": self.game._core.feature_size, "width": cfg.width,
                      "blocks": cfg.blocks, "n_value": max(g.num_players for g in games),
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
                # a run stopped in self-play logs its gate already
                write_log(self.out, self.state, f"{self.cfg.game} {self.key}: network of each "
                          f"generation vs plain ISMCTS, {self.cfg.gate_budget} a move",
                          self.cfg.gate_by)

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
                            cfg.cpuct, cfg.mix, cfg.late, cfg.explore_rate, tuple(cfg.variants),
                            self.shape["n_value"])
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
        tasks = [(sp, cfg.seed, g, i) for i in todo]
        try:
            for _, game in run_tasks(play_game, tasks, backend=self.backend, jobs=self.jobs,
                                     address=self.address, shared=net):
                done[int(game.games[0])] = game
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
                "decisions": int(sum(gm.decisions.sum() for gm in done.values())),
                "by": self.state["best"],
                "games_per_second": rate}

    def train(self, g: int, rec: dict):
        from .. import _net
        from ..nets import netfile
        from . import trainer
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
        # NaN: the outputs of seats a sample's table does not have
        spread = float(np.nanmean(np.nanvar(trainer.value_target(val_set, cfg.value_search_weight),
                                            axis=0)))
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
        matches = make(cfg.game, cfg.params, cand_spec, other_spec, games, cfg.seed, g,
                       tuple(cfg.variants))
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


def _with_start(cfg: RunConfig, start_net: bytes, given: set[str]) -> RunConfig:
    """``cfg`` for a run that begins with the network file ``start_net``: its sha256 as
    start_from, its width and blocks (options in ``given`` that set them otherwise are
    refused); ConfigError (start_from) when it is not a network of this game and
    configuration."""
    from .. import _net
    from ..nets import netfile
    import boardlab
    cfg = cfg.checked()
    try:
        spec = netfile.from_bytes(start_net)
    except (ValueError, KeyError) as e:
        raise ConfigError("start_from", f"not a network file that can be read: {e}") from None
    key = run_key(cfg)
    # A run over several configurations may begin from a network of one of them (its value
    # head is widened to the run's seats by _write_start).
    fits = [g for g in cfg.games() if config_key(g) == spec.config] if spec.config != key \
        else [boardlab.make(cfg.game, **cfg.params)]
    if spec.game != cfg.game or not fits:
        raise ConfigError("start_from", f"a network for {spec.game} {spec.config}, "
                                        f"not for {cfg.game} {key}")
    try:
        _net.Net.from_bytes(start_net).check_game(fits[0]._core)
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


def _fitted(start_net: bytes, key: str, n_value: int) -> bytes:
    """``start_net`` as network 0 of a run with configuration ``key`` and ``n_value`` value
    outputs: a network of one of the run's player counts gets an output for each further seat,
    a copy of its last one (another opponent's value, as good a start as any), and the run's
    key, so that it plays every configuration of the run; else unchanged."""
    from ..nets import netfile
    spec = netfile.from_bytes(start_net)
    if spec.config == key and spec.n_value == n_value:
        return start_net
    extra = n_value - spec.n_value
    for name in ("v_w", "v_b"):
        w = spec.weights[name]
        spec.weights[name] = np.concatenate([w] + [w[-1:]] * extra) if extra > 0 else w
    spec.config, spec.n_value = key, n_value
    return netfile.to_bytes(spec, "float16")


def _write_start(run: "_Run", start_net: bytes | None) -> None:
    """Network 0 of a run that begins with a network: its file, the learner built from it
    (a fresh optimizer) and the best so far; once, the files then stay as they are."""
    from ..nets import netfile
    from . import trainer
    cfg, path = run.cfg, run.net_path(0)
    if not path.exists():
        if start_net is None or hashlib.sha256(start_net).hexdigest() != cfg.start_from:
            raise ConfigError("start_from", f"{path} is missing: give --start-from with the "
                                            f"network the run began with")
        atomic_write(path, _fitted(start_net, run.key, run.shape["n_value"]))
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
