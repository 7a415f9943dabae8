"""Kyushu's observation tensor: flat features, then 18 planes of the 32x32 grid per seat."""
from __future__ import annotations

import numpy as np

from .writer import one_hot

_MAX_SEATS = 6   # one-hot width for seats (Kyushu: up to 5)


_KY_PHASES = ("offer", "most_fewest", "deal", "province", "first_box", "select", "pay", "replace",
              "map", "position", "terraform_resource_1", "terraform_resource_2", "terraform_colour",
              "terraform_fallow", "map_after", "traveler_resource", "traveler_spring", "over")
_KY_TERRAINS = ("lake", "forest", "town", "hot_spring", "fallow", "production", "factory")
_KY_GRID = 32          # kernel/kyushu/kyushu.h KY_N
_KY_CARDS = 61         # Map cards are numbered 1..60
_KY_SCORES = ("hot_springs", "forests", "towns", "lakes", "factories", "travelers",
              "most_fewest", "fallows", "total")


def encode(obs: dict, params: dict) -> np.ndarray:
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
    out += one_hot(viewer, _MAX_SEATS) + one_hot(obs.get("current_player"), _MAX_SEATS)
    out += one_hot(obs.get("first_player"), _MAX_SEATS)
    out += one_hot(_KY_PHASES.index(obs["phase"]) if obs.get("phase") in _KY_PHASES else -1,
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
        out += one_hot(boxes[i].get("card") if i < len(boxes) else None, _KY_CARDS)
    selected = obs.get("selected") or []
    for i in range(_MAX_SEATS):
        out += one_hot(selected[i] if i < len(selected) else None, _KY_CARDS)
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
