"""Observation tensors: one fixed-size float32 vector per seat, shared by the
OpenSpiel and PettingZoo adapters.

A tensor is always built from ``state.observation(seat)`` - the dict of what
that seat knows - so it cannot carry hidden information.

>>> import boardlab
>>> from boardlab.interop import tensors
>>> game = boardlab.make("kitsu", players=2)
>>> state = game.new_initial_state()
>>> tensors.observation_tensor(state, 0).shape == (tensors.tensor_size(game),)
True

Games with their own encoder (:data:`ENCODERS`): Kitsu and Kyushu. Any other
registered game gets the **generic fallback** (:func:`generic_tensor`): every
leaf of the observation dict, named by its path (``"hands/1/3"``), is hashed
into one of :data:`GENERIC_SIZE` slots (numbers add their value, strings,
booleans and null add 1 at the slot of ``path=value``). It is lossy
(collisions) but fixed-size, deterministic and seat-safe; a game gets exact
tensors by adding an encoder here.
"""
from __future__ import annotations

import hashlib
import json
from typing import Callable

import numpy as np

__all__ = ["ENCODERS", "GENERIC_SIZE", "has_encoder", "encode", "observation_tensor",
           "tensor_size", "generic_tensor"]

#: Slots of the generic (hashed) tensor.
GENERIC_SIZE = 2048
_MAX_SEATS = 6   # one-hot width for seats (Kitsu: up to 6; Kyushu: up to 5)


def _one_hot(i, n) -> list[float]:
    v = [0.0] * n
    if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < n:
        v[i] = 1.0
    return v


# --- Kitsu -------------------------------------------------------------------------------------
def kitsu_tensor(obs: dict, params: dict) -> list[float]:
    """Kitsu: seat, own hand, discard, trick, pawns, rounds, leader, hand sizes,
    tokens, known cards and colour caps (counts over the card types)."""
    from boardlab.games import kitsu
    types = {t: i for i, t in enumerate(kitsu.CARD_TYPES)}
    nt = len(types)
    track = int(params.get("track_length", 15))
    out: list[float] = []

    def counts(cards):
        v = [0.0] * nt
        for c in cards or ():
            v[types[c]] += 1.0
        return v

    viewer = obs.get("viewer")
    hands = obs.get("hands") or []
    out += _one_hot(viewer, 6)
    out += counts(hands[viewer] if isinstance(viewer, int) else None)
    out += counts(obs.get("discard"))
    trick = obs.get("trick") or []
    for i in range(6):
        if i < len(trick):
            t = trick[i]
            out += _one_hot(types.get(t.get("card"), -1), nt)
            out += [1.0 if t.get("hidden") else 0.0, 1.0 if t.get("destroyed") else 0.0]
            out += _one_hot(t.get("seat"), 6)
        else:
            out += [0.0] * (nt + 2 + 6)
    out += [p / max(track, 1) for p in obs.get("pawns", [0, 0])]
    out += [float(r) for r in obs.get("rounds_won", [0, 0])]
    out += _one_hot(obs.get("leader"), 6)
    out += _one_hot(obs.get("current_player"), 6)
    sizes = obs.get("hand_sizes") or []
    out += [sizes[i] / 8.0 if i < len(sizes) else 0.0 for i in range(6)]
    for name in ("+3", "no-advance", "hidden", "recover", "invert"):
        tok = (obs.get("tokens") or {}).get(name, {})
        out += _one_hot(tok.get("holder"), 6) + [1.0 if tok.get("used") else 0.0]
    known = obs.get("known") or []
    for i in range(6):
        out += counts(known[i] if i < len(known) else None)
    caps = obs.get("colour_caps") or []
    for i in range(6):
        pair = caps[i] if i < len(caps) else [None, None]
        out += [1.0 if c is None else c / 8.0 for c in pair]
    return out


# --- Kyushu ------------------------------------------------------------------------------------
_KY_PHASES = ("offer", "most_fewest", "deal", "province", "first_box", "select", "pay", "replace",
              "map", "position", "terraform_resource_1", "terraform_resource_2", "terraform_colour",
              "terraform_fallow", "map_after", "traveler_resource", "traveler_spring", "over")
_KY_TERRAINS = ("lake", "forest", "town", "hot_spring", "fallow", "production", "factory")
_KY_GRID = 32          # kernel/kyushu/kyushu.h KY_N
_KY_CARDS = 61         # Map cards are numbered 1..60
_KY_SCORES = ("hot_springs", "forests", "towns", "lakes", "factories", "travelers",
              "most_fewest", "fallows", "total")


def kyushu_tensor(obs: dict, params: dict) -> np.ndarray:
    """Kyushu: phase, seats, round, pool, own hand and pick boxes (card
    one-hots), the selections the seat can see, offered provinces, scores, and
    every seat's map as 18 planes of the 32x32 grid (7 terrains, 4 colours,
    4 resources, tile, traveler, factory value / 4)."""
    from boardlab.games import kyushu
    colours = list(kyushu.COLOURS)
    provinces = [f"S{c['number']}{side}" for c in kyushu._DATA["starting_provinces"]["cards"]
                 for side in "AB"]
    n = int(params.get("players", 4))
    out: list[float] = []
    viewer = obs.get("viewer")
    out += _one_hot(viewer, _MAX_SEATS) + _one_hot(obs.get("current_player"), _MAX_SEATS)
    out += _one_hot(obs.get("first_player"), _MAX_SEATS)
    out += _one_hot(_KY_PHASES.index(obs["phase"]) if obs.get("phase") in _KY_PHASES else -1,
                    len(_KY_PHASES))
    out += [float(obs.get("round") or 0) / 12.0, float(obs.get("draw_pile_size") or 0) / 60.0]
    for key in ("pool", "overdrawn"):
        d = obs.get(key) or {}
        out += [float(d.get(c, 0)) / 14.0 for c in colours]
    sizes = obs.get("hand_sizes") or []
    out += [sizes[i] / 10.0 if i < len(sizes) else 0.0 for i in range(_MAX_SEATS)]
    hand = [0.0] * _KY_CARDS
    hands = obs.get("hands") or []
    for c in (hands[viewer] if isinstance(viewer, int) and viewer < len(hands) else None) or ():
        hand[c] = 1.0
    out += hand
    boxes = obs.get("pick_boxes") or []
    for i in range(_MAX_SEATS):
        out += _one_hot(boxes[i].get("card") if i < len(boxes) else None, _KY_CARDS)
    selected = obs.get("selected") or []
    for i in range(_MAX_SEATS):
        out += _one_hot(selected[i] if i < len(selected) else None, _KY_CARDS)
    offered = {p.get("province") for p in obs.get("provinces_offered") or ()}
    out += [1.0 if p in offered else 0.0 for p in provinces]
    scores = obs.get("scores") or []
    for i in range(_MAX_SEATS):
        s = scores[i] if i < len(scores) else {}
        out += [float(s.get(k, 0)) / 50.0 for k in _KY_SCORES]
    trav = obs.get("travelers") or {}
    held = trav.get("held") or []
    out += [float(held[i]) if i < len(held) else 0.0 for i in range(_MAX_SEATS)]
    planes = 7 + 4 + 4 + 3
    grids = np.zeros((n, planes, _KY_GRID, _KY_GRID), np.float32)
    for seat in range(n):
        grid = grids[seat]
        maps = obs.get("maps") or []
        cells = maps[seat].get("cells") or [] if seat < len(maps) else []
        for cell in cells:
            r, c = cell["row"], cell["col"]
            if not (0 <= r < _KY_GRID and 0 <= c < _KY_GRID):
                continue
            if cell.get("terrain") in _KY_TERRAINS:
                grid[_KY_TERRAINS.index(cell["terrain"]), r, c] = 1.0
            if cell.get("colour") in colours:
                grid[7 + colours.index(cell["colour"]), r, c] = 1.0
            if cell.get("resource") in colours:
                grid[11 + colours.index(cell["resource"]), r, c] = 1.0
            grid[15, r, c] = 1.0 if cell.get("tile") else 0.0
            grid[16, r, c] = 1.0 if cell.get("traveler") else 0.0
            grid[17, r, c] = float(cell.get("factory_value") or 0) / 4.0
    return np.concatenate([np.asarray(out, np.float32), grids.ravel()])


# --- generic fallback --------------------------------------------------------------------------
def _slot(key: str) -> int:
    # A stable hash (Python's hash() of a str changes with every interpreter).
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "little") % GENERIC_SIZE


def generic_tensor(obs: dict, params: dict | None = None) -> np.ndarray:
    """The hashed bag of the observation's leaves (see the module docstring)."""
    out = np.zeros(GENERIC_SIZE, np.float32)

    def walk(value, path):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{path}/{k}")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{path}/{i}")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            out[_slot(path)] += float(value)
        else:
            out[_slot(f"{path}={json.dumps(value)}")] += 1.0

    walk(obs, "")
    return out


#: game name -> encoder(observation dict, game params) -> floats (list or array).
ENCODERS: dict[str, Callable[[dict, dict], list]] = {"kitsu": kitsu_tensor, "kyushu": kyushu_tensor}


def has_encoder(name: str) -> bool:
    """True if game ``name`` has its own encoder (else the generic fallback is used)."""
    return name in ENCODERS


def encode(game, obs: dict) -> np.ndarray:
    """The tensor of a seat's observation dict ``obs`` in ``game`` (a boardlab Game)."""
    enc = ENCODERS.get(game.name)
    if enc is None:
        return generic_tensor(obs)
    return np.asarray(enc(obs, game.params), dtype=np.float32)


def observation_tensor(state, seat: int) -> np.ndarray:
    """``seat``'s tensor in ``state`` (a boardlab State), from ``state.observation(seat)``."""
    return encode(state.game, state.observation(seat))


_sizes: dict = {}


def tensor_size(game) -> int:
    """Length of every tensor of ``game`` (fixed per game and parameters)."""
    key = (game.name, tuple(sorted(game.params.items())))
    if key not in _sizes:
        state = game.new_initial_state(seed=0)
        _sizes[key] = len(observation_tensor(state, 0))
    return _sizes[key]
