"""Kyushu's observation tensor: every field of ``observation(seat)``, for 2-5
players and every option, in one layout of the same size for every parameter
set (seats are 5 wide, absent ones zeros): the flat fields, then each seat's
map as 21 planes of the 32x32 grid. Names and value lists follow
kernel/kyushu/observe.c (kyushu_observe_json) and py/boardlab/data/kyushu.json;
the slices are ``tensors.layout(game)`` and docs/tensors.md."""
from __future__ import annotations

import operator
from itertools import chain

import numpy as np

from boardlab.games import kyushu as _kyushu

from .writer import Fields, Writer, index_of

SEATS = 5                       # kernel/kyushu/kyushu.h KY_MAXP
GRID = 32                       # KY_N
MAP_CARDS_PER_MAP = 13          # KY_MAPCARDS: the province and 12 Map cards
TRAVELERS = 2 * SEATS           # KyuState.trav
SEAT = index_of(range(SEATS))
PLAYERS = index_of(range(2, SEATS + 1))
PLAYER = index_of([*range(SEATS), -1, -2])              # a seat, CHANCE, TERMINAL
SIDES = index_of("AB")
PHASES = index_of(["offer", "most_fewest", "deal", "province", "first_box", "select", "pay", "replace",
                   "map", "position", "terraform_resource_1", "terraform_resource_2", "terraform_colour",
                   "terraform_fallow", "map_after", "traveler_resource", "traveler_spring", "over"])
COLOURS = _kyushu.COLOURS
COLOUR = index_of(COLOURS)
TERRAINS = _kyushu._DATA["terrains"]
TERRAIN = index_of(TERRAINS)
MAP_CARDS = index_of(c["number"] for c in _kyushu._DATA["map_cards"]["cards"])        # 1..60
PROVINCES = index_of(f"S{c['number']}{side}" for side in "AB"
                     for c in _kyushu._DATA["starting_provinces"]["cards"])
CARDS = index_of([*MAP_CARDS, *PROVINCES])               # a card on a map: Map card or province
BOX_LABELS = index_of([*(f"P{p}" for p in range(SEATS)), "left of P0", "right of P0"])
TAKE_OPTIONS = index_of(["own", "left", "right", "paid"])
SQUARES = index_of([t for t in TERRAINS if t not in ("production", "factory")]
                   + [f"{t}:{c}" for t in ("production", "factory") for c in COLOURS])
MOST_FEWEST = index_of(range(1, len(_kyushu._DATA["most_fewest_cards"]["cards"]) + 1))
MF_SIDES = index_of(["most", "fewest"])
ORIENTATIONS = index_of(["horizontal", "vertical", "horizontal turned", "vertical turned"])
LAYERS = index_of(["over", "under"])
BOXES = index_of(range(-1, SEATS))                       # my_turn.box: -1 none
OPTIONS = index_of(range(-1, 4))                         # my_turn.option: -1 none
SCORES = ("hot_springs", "forests", "towns", "lakes", "factories", "travelers", "most_fewest",
          "fallows", "total")
METRICS = 8                                              # KY_NMF
#: The grid planes of one map, in order.
PLANES = ([f"terrain {t}" for t in TERRAINS] + [f"colour {c}" for c in COLOURS]
          + [f"resource {c}" for c in COLOURS]
          + ["tile", "traveler", "factory_value / 4", "card on top (place in Map cards then provinces + 1) / "
             f"{len(CARDS) + 1}", "square shown (0-5, + 1) / 6", f"name's cell (row x 32 + col + 1) / {GRID * GRID}"])
_T, _C, _R = 0, len(TERRAINS), len(TERRAINS) + len(COLOURS)
_TILE, _TRAV, _FV, _CARD, _SQUARE, _NAME = range(_R + len(COLOURS), len(PLANES))


#: Dicts of the observation written field by field (Writer.fields).
_BOX = Fields(("box", "one_hot", SEAT), ("owner", "one_hot", SEAT), ("label", "one_hot", BOX_LABELS),
              ("card", "one_hot", MAP_CARDS))
_TAKING = Fields(("seat", "one_hot", SEAT), ("box", "one_hot", SEAT), ("card", "one_hot", MAP_CARDS),
                 ("option", "one_hot", TAKE_OPTIONS))
_MOST_FEWEST = Fields(("card", "one_hot", MOST_FEWEST), ("side", "one_hot", MF_SIDES))
_PLACED = Fields(("owner", "one_hot", SEAT), ("host", "one_hot", SEAT), ("row", "number", GRID),
                 ("col", "number", GRID), ("name", "number", GRID * GRID), ("active", "flag", None))
_SENDING = Fields(("seat", "one_hot", SEAT), ("host", "one_hot", SEAT), ("from", "number", GRID * GRID),
                  ("colour", "one_hot", COLOUR))
_CARD = Fields(("card", "one_hot", CARDS), ("orientation", "one_hot", ORIENTATIONS), ("row", "number", GRID),
               ("col", "number", GRID), ("height", "number", 3), ("width", "number", 3),
               ("z", "number", MAP_CARDS_PER_MAP))
_MAP = Fields(("seat", "one_hot", SEAT), ("province", "one_hot", PROVINCES), ("bbox.known", "flag", None),
              *((f"bbox.{key}", "number", GRID) for key in ("top", "left", "bottom", "right")),
              ("cards", "dicts", (_CARD, MAP_CARDS_PER_MAP)))
_SCORES = Fields(*((key, "number", 100 if key == "total" else 20) for key in SCORES))
_MY_TURN = Fields(("seat", "one_hot", SEAT), ("placed", "flag", None), ("terraformed", "flag", None),
                  ("box", "one_hot", BOXES), ("option", "one_hot", OPTIONS),
                  ("orientation", "one_hot", ORIENTATIONS), ("layer", "one_hot", LAYERS),
                  ("discarded", "number", GRID * GRID))


def encode(obs: dict, params: dict, w: Writer) -> None:
    """Append ``obs`` (a Kyushu observation dict) to ``w``."""
    w.one_hot("viewer", obs["viewer"], SEAT)
    w.one_hot("players", obs["players"], PLAYERS)
    opts = obs["options"]
    w.one_hot("options.side", opts["side"], SIDES)
    w.flag("options.most_fewest", opts["most_fewest"])
    w.flag("options.travelers", opts["travelers"])
    w.one_hot("phase", obs["phase"], PHASES)
    w.one_hot("current_player", obs["current_player"], PLAYER)
    w.number("round", obs["round"], 12)
    w.one_hot("first_player", obs["first_player"], SEAT)
    for key in ("pool", "overdrawn"):
        for colour in COLOURS:
            w.number(f"{key}.{colour}", obs[key][colour], 14)
    w.number("draw_pile_size", obs["draw_pile_size"], 60)
    w.flag("draw_pile.known", obs["draw_pile"] is not None)    # only a full observation shows it
    w.counts("draw_pile.cards", obs["draw_pile"], MAP_CARDS)
    w.counts("discarded", obs["discarded"], MAP_CARDS)
    w.numbers("hand_sizes", obs["hand_sizes"], 10, SEATS)

    def hand(at, cards):
        w.flag(f"{at}.known", cards is not None)
        w.counts(f"{at}.cards", cards, MAP_CARDS)
    _per_seat(w, "hands", obs["hands"], hand)

    w.dicts("pick_boxes", obs["pick_boxes"], _BOX, SEATS)
    _per_seat(w, "selected", obs["selected"], lambda at, card: w.one_hot(at, card, MAP_CARDS))
    w.flag("taking.known", obs["taking"] is not None)
    w.fields("taking", obs["taking"] or {}, _TAKING)

    def offered(at, p):
        w.one_hot(f"{at}.province", p.get("province"), PROVINCES)
        _per_slot(w, f"{at}.squares", p.get("squares") or [], 6, lambda a, sq: w.one_hot(a, sq, SQUARES))
    _per_slot(w, "provinces_offered", obs["provinces_offered"], len(PROVINCES) // 2, offered, {})

    def most_fewest(at, mf):
        w.fields(at, mf, _MOST_FEWEST)
        _per_slot(w, f"{at}.seats", mf.get("seats") or [], 2, lambda a, seat: w.one_hot(a, seat, SEAT))
    _per_seat(w, "most_fewest", obs["most_fewest"], most_fewest, {})
    trav = obs["travelers"]
    w.numbers("travelers.held", trav["held"], 2, SEATS)
    w.dicts("travelers.placed", [{**t, "name": _cell(t.get("name"), f"travelers.placed[{i}].name")}
                                 for i, t in enumerate(trav["placed"])], _PLACED, TRAVELERS)
    sending = trav["sending"] or {}
    w.flag("travelers.sending.known", trav["sending"] is not None)
    w.fields("travelers.sending", {**sending, "from": _cell(sending.get("from"), "travelers.sending.from")},
             _SENDING)
    w.dicts("maps", [_map(m) for m in obs["maps"]], _MAP, SEATS)     # but their cells: the grid planes, last

    def score(at, s):
        w.fields(at, s, _SCORES)
        w.numbers(f"{at}.most_metrics", s.get("most_metrics"), 20, METRICS)
        w.numbers(f"{at}.fewest_metrics", s.get("fewest_metrics"), 20, METRICS)
    _per_seat(w, "scores", obs["scores"], score, {})
    w.flag("unrevealed", obs["unrevealed"])
    turn = obs["my_turn"] or {}
    w.flag("my_turn.known", obs["my_turn"] is not None)
    w.fields("my_turn", {**turn, "discarded": _cell(turn.get("discarded") or None, "my_turn.discarded")},
             _MY_TURN)
    _per_slot(w, "my_turn.discarded_colours", turn.get("discarded_colours") or [], 2,
              lambda at, c: w.one_hot(at, c, COLOUR))
    w.one_hot("my_turn.tile", turn.get("tile"), TERRAIN)
    what = f"{len(PLANES)} planes of {GRID}x{GRID} (row, col): " + ", ".join(PLANES)
    starts = [w.block(f"maps[{p}].cells", len(PLANES) * GRID * GRID, what) for p in range(SEATS)]
    _cells(w, starts, [m.get("cells") or () for m in obs["maps"]])


def _map(m: dict) -> dict:
    """One seat's map with its bbox's fields at the top, for _MAP."""
    bbox = m.get("bbox")
    return {**m, "bbox.known": bbox is not None, **{f"bbox.{key}": v for key, v in (bbox or {}).items()}}


#: A cell's fields, read at once; a field's values as {value: plane} (-1 for None: no plane)
#: or {value: float} (0 for None); a row and col as the cell's place in a plane.
_CELL_FIELDS = operator.itemgetter("row", "col", "terrain", "colour", "resource", "tile", "traveler",
                                   "factory_value", "card", "square", "name")
_TERRAIN_PLANE = {None: -1, **{t: _T + i for t, i in TERRAIN.items()}}
_COLOUR_PLANE = {None: -1, **{c: _C + i for c, i in COLOUR.items()}}
_RESOURCE_PLANE = {None: -1, **{c: _R + i for c, i in COLOUR.items()}}
_CARD_VALUE = {None: 0.0, **{c: (i + 1) / (len(CARDS) + 1) for c, i in CARDS.items()}}
_SQUARE_VALUE = {None: 0.0, **{s: (s + 1) / 6 for s in range(6)}}
_PLACE = {(r, c): r * GRID + c for r in range(GRID) for c in range(GRID)}
_NUMBER_PLANES = np.arange(_TILE, _NAME + 1)[:, None] * (GRID * GRID)


def _cells(w: Writer, starts: list, cells_per_map: list) -> None:
    """Every map's planes (map p's from ``starts[p]``) from its cells, each cell at its row
    and col: one column of values per field for all cells, scattered at once."""
    cells = [cell for cells in cells_per_map for cell in cells]
    n = len(cells)
    if not n:
        return
    try:
        (rows, cols, terrains, colours, resources, tiles, travelers, factory_values, cards, squares,
         names) = zip(*map(_CELL_FIELDS, cells))
        if set(map(type, rows + cols)) != {int}:        # (True or 1.0 is no row)
            raise TypeError
        place = np.fromiter(map(_PLACE.__getitem__, zip(rows, cols)), np.intp, n)
        planes = np.fromiter(chain(map(_TERRAIN_PLANE.__getitem__, terrains),
                                   map(_COLOUR_PLANE.__getitem__, colours),
                                   map(_RESOURCE_PLANE.__getitem__, resources)), np.intp, 3 * n).reshape(3, n)
        values = np.fromiter(chain(map(bool, tiles), map(bool, travelers),
                                   (float(v or 0) / 4.0 for v in factory_values),
                                   map(_CARD_VALUE.__getitem__, cards), map(_SQUARE_VALUE.__getitem__, squares),
                                   map(_NAME_VALUE.__getitem__, names)), np.float64, 6 * n)
    except (KeyError, TypeError, ValueError, OverflowError):
        for p, map_cells in enumerate(cells_per_map):
            _check_cells(map_cells, f"maps[{p}].cells")      # raises the error naming the field
        raise
    place += np.repeat(starts[:len(cells_per_map)], [len(c) for c in cells_per_map])
    one = planes >= 0
    w.scatter(np.concatenate([(planes * (GRID * GRID) + place)[one], (_NUMBER_PLANES + place).ravel()]),
              np.concatenate([np.ones(np.count_nonzero(one)), values]))


def _check_cells(cells, at: str) -> None:
    """The first field of ``cells`` that is not a value a cell can have, as a ValueError."""
    for cell in cells:
        r, c = cell["row"], cell["col"]
        if not (type(r) is int and type(c) is int and 0 <= r < GRID and 0 <= c < GRID):
            raise ValueError(f"observation tensor: {at} has a cell outside the grid: row {r!r}, col {c!r}")
        for key, index in (("terrain", TERRAIN), ("colour", COLOUR), ("resource", COLOUR), ("card", CARDS),
                           ("square", _SQUARE_VALUE)):
            value = cell[key]
            try:
                known = value is None or value in index
            except TypeError:             # unhashable
                known = False
            if not known:
                raise ValueError(f"observation tensor: {at}.{key} has unknown value {value!r}")
        name = cell["name"]
        if not (isinstance(name, str) and name in _CELL_NUMBERS):
            raise ValueError(f"observation tensor: {at}.name has unknown value {name!r}")


def _cell(name, field: str) -> int | None:
    """A cell's name (kernel/kyushu/observe.c cell_name: "o16", "ab3" for columns past z) as
    row x 32 + col + 1; None stays None."""
    if name is None:
        return None
    number = _CELL_NUMBERS.get(name) if isinstance(name, str) else None
    if number is None:
        raise ValueError(f"observation tensor: {field} has unknown value {name!r}")
    return number


def _cell_name(row: int, col: int) -> str:
    return ("a" if col >= 26 else "") + chr(ord("a") + col % 26) + str(row + 1)


_CELL_NUMBERS = {_cell_name(r, c): r * GRID + c + 1 for r in range(GRID) for c in range(GRID)}
_NAME_VALUE = {name: number / (GRID * GRID) for name, number in _CELL_NUMBERS.items()}


def _per_slot(w: Writer, name: str, values: list, slots: int, write, empty=None) -> None:
    """``write(field name, value)`` for slots 0..``slots``-1 (``empty`` past the list's end)."""
    if len(values) > slots:
        raise ValueError(f"observation tensor: {name} has {len(values)} entries, at most {slots}")
    for i in range(len(values)):
        write(f"{name}[{i}]", values[i])
    w.empty_slots(lambda i: write(f"{name}[{i}]", empty), range(len(values), slots))


def _per_seat(w: Writer, name: str, values: list, write, empty=None) -> None:
    _per_slot(w, name, values, SEATS, write, empty)
