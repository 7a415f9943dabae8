"""Which network a search uses: the shipped one for a game's configuration
(``net=default``) or a file of one's own (``net=PATH``), loaded once per file.

Shipped networks live in ``boardlab/data/nets/<game>-<key>.blnet``; the key names
what the encoding cannot share (the number of seats; Nukumi's solo mode). Other
options of a configuration (Kitsu's track length, Kyūshū's side, ...) read the same
network; ``settings.json`` beside them names the search settings each was trained
with. docs/learning.md lists what ships.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

from .. import _net

_NETS_DIR = Path(__file__).resolve().parent.parent / "data" / "nets"
_cache: dict[tuple, "_net.Net"] = {}
_lock = threading.Lock()
_settings: dict[Path, dict] = {}   # settings.json of a networks folder, read once


def config_key(game) -> str:
    """The configuration a network is made for: "players=2", "players=1,solo=chasing"."""
    params = game.params
    key = f"players={game.num_players}"
    if game.name == "nukumi" and params.get("solo", "none") != "none":
        key += f",solo={params['solo']}"
    return key


def default_path(game) -> Path:
    """Where the shipped network of the game's configuration is (it may not exist)."""
    stem = config_key(game).replace("=", "").replace(",", "-")
    return _NETS_DIR / f"{game.name}-{stem}.blnet"


def default_settings(game) -> dict:
    """The guided-search settings the shipped network of the game's configuration was trained
    and measured with ({"mix": 0.5}; {} where the search's defaults apply or none ships),
    from ``settings.json`` beside the networks. ``net=default`` uses them unless the caller
    gives its own."""
    if _NETS_DIR not in _settings:
        import json
        path = _NETS_DIR / "settings.json"
        _settings[_NETS_DIR] = json.loads(path.read_text()) if path.is_file() else {}
    return dict(_settings[_NETS_DIR].get(default_path(game).name, {}))


def shipped() -> list[str]:
    """File names of the networks shipped with this package."""
    return sorted(p.name for p in _NETS_DIR.glob("*.blnet")) if _NETS_DIR.is_dir() else []


def is_default(which) -> bool:
    """Whether ``which`` names the shipped network ("default", any case or spacing)."""
    return isinstance(which, str) and which.strip().lower() == "default"


def load_net(which, game) -> "_net.Net":
    """The network ``which`` ("default", a path, or a loaded Net) checked against
    ``game``; ValueError naming the fault (no network ships for this configuration,
    no such file, a damaged file, a network of another game or configuration)."""
    core_game = getattr(game, "_core", game)       # a Game, or a kernel game
    if isinstance(which, _net.Net):
        which.check_game(core_game)
        return which
    if not isinstance(which, (str, os.PathLike)) or not str(which).strip():
        raise ValueError(f"net must be 'default' or the path of a network file, got {which!r}")
    if is_default(which):
        if core_game is game:
            raise ValueError("net=default needs the game's configuration: search a "
                             "boardlab.State, not a kernel state")
        path = default_path(game)
        if not path.is_file():
            raise ValueError(f"net=default: no network ships for {game.name} with "
                             f"{config_key(game)} (shipped: {', '.join(shipped()) or 'none'})")
    else:
        path = Path(which).expanduser()
        if not path.is_file():
            raise ValueError(f"net: no network file at {str(which)!r}")
    path = path.resolve()
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    with _lock:
        net = _cache.get(key)
        if net is None:
            try:
                net = _net.Net.from_file(str(path))
            except ValueError as e:
                raise ValueError(f"net: {path.name}: {e}") from None
            _cache[key] = net
    try:
        net.check_game(core_game)
    except ValueError as e:
        raise ValueError(f"net: {path.name}: {e}") from None
    return net


def reading(state, seat: int, net="default"):
    """The network's reading of ``state`` from ``seat``'s knowledge, without search:
    (value per seat on [-1, 1], in absolute seats; {action: prior} over the legal
    actions when ``seat`` is to move, else {}). None when no network fits (``net=default``
    where none ships). Reads only ``seat``'s features, so it tells nothing hidden."""
    import numpy as np
    from .features import features
    game = state.game
    try:
        loaded = load_net(net, game)
    except ValueError:
        if is_default(net):
            return None
        raise
    n = game.num_players
    mask = np.zeros((1, game.num_actions), dtype=bool)
    to_move = state.current_player == seat
    if to_move:
        mask[0, state.legal_actions()] = True
    value, prior = loaded.forward(features(state, seat)[None, :], mask)
    values = [0.0] * n
    for k in range(n):                 # output k is seat (seat + k) % n
        values[(seat + k) % n] = float(value[0, k])
    priors = {int(a): float(prior[0, a]) for a in np.flatnonzero(mask[0])} if to_move else {}
    return values, priors
