"""Which network a search uses: the shipped one for a game's configuration
(``net=default``) or a file of one's own (``net=PATH``), loaded once per file.

What ships is what ``manifest.json`` in the networks folder lists (:mod:`.manifest`): the
entry whose configurations match the game's parameters gives the file, checked against its
sha256 and size, and the search settings it plays with. A file the manifest does not list
is never used. docs/learning.md, "What ships", is printed from the same manifest.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

from .. import _net
from . import manifest

#: The folder ``net=default`` reads (the package's; tests point it at a folder of their own).
NETS_DIR = Path(__file__).resolve().parent.parent / "data" / "nets"
_cache: dict[tuple, "_net.Net"] = {}
_lock = threading.Lock()


def config_key(game) -> str:
    """The configuration a network is made for: "players=2", "players=1,solo=chasing"."""
    params = game.params
    key = f"players={game.num_players}"
    if game.name == "nukumi" and params.get("solo", "none") != "none":
        key += f",solo={params['solo']}"
    return key


def default_entry(game) -> dict | None:
    """The manifest's entry for the game's configuration, None where no network ships."""
    return manifest.entry_for(NETS_DIR, game)


def default_path(game) -> Path | None:
    """The shipped network file of the game's configuration, None where none ships."""
    entry = default_entry(game)
    return NETS_DIR / entry["file"] if entry else None


def default_settings(game) -> dict:
    """The guided-search settings the shipped network of the game's configuration plays with
    ({"mix": 0.5}; {} where the search's defaults apply or none ships), from the manifest.
    ``net=default`` uses them unless the caller gives its own."""
    entry = default_entry(game)
    return dict(entry["settings"]) if entry else {}


def shipped() -> list[str]:
    """File names of the networks shipped with this package (the manifest's)."""
    return sorted(e["file"] for e in manifest.read(NETS_DIR)["networks"])


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
        try:
            entry = default_entry(game)
            path = manifest.verified_path(NETS_DIR, entry) if entry else None
        except manifest.ManifestError as e:
            raise ValueError(f"net=default: {e}") from None
        if path is None:
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
