"""`boardlab train`'s settings: RunConfig (everything that decides a run's results, kept in
DIR/config.json), its checks, and the configuration key its networks carry. No torch here:
the command line reads its defaults from RunConfig."""
from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from ..arena import sides_of
from ..nets import config_key
from ..search import check_options

__all__ = ["ConfigError", "RunConfig", "run_key", "open_config"]


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
    # The defaults are the recipe of the shipped networks (docs/learning.md, What ships).
    games_per_gen: int = 1500
    iterations: int = 800           # self-play search iterations per decision
    width: int = 64
    blocks: int = 1
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
    gate_budget: str = "0.05s"      # per move, both sides: seconds (equal time) or iterations
    gate_by: str = "wins"           # solo: games won, or "return" (mean return, same deals)
    strength_games: int = 40
    cpuct: float | None = None      # guided search options (None: the search's defaults)
    mix: float | None = 0.5
    late: str | None = None
    start_from: str | None = None   # sha256 of network 0's file (None: plain ISMCTS begins)
    # One network for several configurations: each a dict of game parameters over params
    # (e.g. [{"players": 2}, ..., {"players": 5}]); self-play, gate and strength games are
    # spread over them. Empty: params alone.
    variants: tuple = ()

    def __post_init__(self):
        if isinstance(self.variants, list):         # as config.json stores it
            object.__setattr__(self, "variants", tuple(self.variants))

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
        variants = self.checked_variants(game)

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
            if v % n_sides and not variants:    # variants: each share is rounded up
                raise ConfigError(name, f"must be a multiple of {n_sides} (every side played "
                                        f"equally often on shared deals), got {v}")
        if self.gate_by not in ("wins", "return"):
            raise ConfigError("gate_by", f"must be wins or return, got {self.gate_by!r}")
        solo = all(len(sides_of(self.game, g.num_players)[0]) == 1
                   for g in self.games(game, variants))
        if self.gate_by == "return" and not solo:
            raise ConfigError("gate_by", f"return compares one agent's games with another's on "
                                         f"the same deals: solo games only ({self.game} with "
                                         f"{game.num_players} players has {n_sides} sides)")
        from ..agents import make_agent
        try:
            make_agent(f"ismcts:{self.gate_budget}")
        except ValueError as e:
            raise ConfigError("gate_budget", f"must be seconds (0.1s) or iterations (400): "
                                             f"{e}") from None
        out = RunConfig(**{**asdict(self), "params": dict(game.params), "variants": variants})
        if len(run_key(out).encode()) > 32:         # the network file's header field
            raise ConfigError("variants", f"the configurations' key {run_key(out)!r} is longer "
                                          f"than a network file holds (32 bytes)")
        return out

    def checked_variants(self, game) -> tuple:
        """The variants as a tuple of dicts, each a configuration of the same network shape
        (features and actions); ConfigError naming the first that is not."""
        import boardlab
        if isinstance(self.variants, dict) or not isinstance(self.variants, (list, tuple)):
            raise ConfigError("variants", f"must be a list of game parameter sets, got "
                                          f"{self.variants!r}")
        out = []
        for v in self.variants:
            if not isinstance(v, dict):
                raise ConfigError("variants", f"each must be a dict of game parameters, got {v!r}")
            try:
                g = boardlab.make(self.game, **{**self.params, **v})
            except (ValueError, TypeError, KeyError) as e:
                raise ConfigError("variants", f"{v}: bad game parameters: {e}") from None
            if (g._core.feature_size, g.num_actions) != (game._core.feature_size,
                                                         game.num_actions):
                raise ConfigError("variants", f"{v}: features or actions differ from "
                                              f"{game.params}; one network cannot serve both")
            out.append(dict(v))
        if len({json.dumps(v, sort_keys=True) for v in out}) != len(out):
            raise ConfigError("variants", "a configuration is listed twice")
        return tuple(out)

    def games(self, game=None, variants=None) -> list:
        """The game of each configuration the run trains for (one without variants)."""
        import boardlab
        variants = self.variants if variants is None else variants
        if not variants:
            return [game or boardlab.make(self.game, **self.params)]
        return [boardlab.make(self.game, **{**self.params, **v}) for v in variants]

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, sort_keys=True) + "\n"


def run_key(cfg: RunConfig) -> str:
    """The configuration key a run's networks carry: the game's (config_key), or over
    several configurations their player counts (and solo modes) joined: "players=2,3,4,5"."""
    games = cfg.games()
    if len(games) == 1:
        return config_key(games[0])
    keys = sorted({config_key(g) for g in games})
    counts = sorted({g.num_players for g in games})
    plain = all(k == f"players={g.num_players}" for k, g in zip(map(config_key, games), games))
    return f"players={','.join(map(str, counts))}" if plain else ";".join(keys)


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
