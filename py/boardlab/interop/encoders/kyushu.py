"""Kyushu's observation tensor: every field of ``observation(seat)``, for 2-5
players and every option, in one layout of the same size for every parameter
set (seats are 5 wide, absent ones zeros): the flat fields, then each seat's
map as 21 planes of the 32x32 grid. Names and value lists follow
kernel/kyushu/observe.c (kyushu_observe_json) and py/boardlab/data/kyushu.json;
the slices are ``tensors.layout(game)`` and docs/tensors.md."""
from __future__ import annotations

import numpy as np

from boardlab.games import kyushu as _kyushu

from .writer import Writer, index_of

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

    def box(at, b):
        w.one_hot(f"{at}.box", b.get("box"), SEAT)
        w.one_hot(f"{at}.owner", b.get("owner"), SEAT)
        w.one_hot(f"{at}.label", b.get("label"), BOX_LABELS)
        w.one_hot(f"{at}.card", b.get("card"), MAP_CARDS)
    _per_seat(w, "pick_boxes", obs["pick_boxes"], box, {})
    _per_seat(w, "selected", obs["selected"], lambda at, card: w.one_hot(at, card, MAP_CARDS))
    taking = obs["taking"] or {}
    w.flag("taking.known", obs["taking"] is not None)
    w.one_hot("taking.seat", taking.get("seat"), SEAT)
    w.one_hot("taking.box", taking.get("box"), SEAT)
    w.one_hot("taking.card", taking.get("card"), MAP_CARDS)
    w.one_hot("taking.option", taking.get("option"), TAKE_OPTIONS)

    def offered(at, p):
        w.one_hot(f"{at}.province", p.get("province"), PROVINCES)
        _per_slot(w, f"{at}.squares", p.get("squares") or [], 6, lambda a, sq: w.one_hot(a, sq, SQUARES))
    _per_slot(w, "provinces_offered", obs["provinces_offered"], len(PROVINCES) // 2, offered, {})

    def most_fewest(at, mf):
        w.one_hot(f"{at}.card", mf.get("card"), MOST_FEWEST)
        w.one_hot(f"{at}.side", mf.get("side"), MF_SIDES)
        _per_slot(w, f"{at}.seats", mf.get("seats") or [], 2, lambda a, seat: w.one_hot(a, seat, SEAT))
    _per_seat(w, "most_fewest", obs["most_fewest"], most_fewest, {})
    trav = obs["travelers"]
    w.numbers("travelers.held", trav["held"], 2, SEATS)

    def placed(at, t):
        w.one_hot(f"{at}.owner", t.get("owner"), SEAT)
        w.one_hot(f"{at}.host", t.get("host"), SEAT)
        w.number(f"{at}.row", t.get("row"), GRID)
        w.number(f"{at}.col", t.get("col"), GRID)
        w.number(f"{at}.name", _cell(t.get("name"), f"{at}.name"), GRID * GRID)
        w.flag(f"{at}.active", t.get("active"))
    _per_slot(w, "travelers.placed", trav["placed"], TRAVELERS, placed, {})
    sending = trav["sending"] or {}
    w.flag("travelers.sending.known", trav["sending"] is not None)
    w.one_hot("travelers.sending.seat", sending.get("seat"), SEAT)
    w.one_hot("travelers.sending.host", sending.get("host"), SEAT)
    w.number("travelers.sending.from", _cell(sending.get("from"), "travelers.sending.from"), GRID * GRID)
    w.one_hot("travelers.sending.colour", sending.get("colour"), COLOUR)
    _per_seat(w, "maps", obs["maps"], lambda at, m: _map(w, at, m), {})

    def score(at, s):
        for key in SCORES:
            w.number(f"{at}.{key}", s.get(key), 100 if key == "total" else 20)
        w.numbers(f"{at}.most_metrics", s.get("most_metrics"), 20, METRICS)
        w.numbers(f"{at}.fewest_metrics", s.get("fewest_metrics"), 20, METRICS)
    _per_seat(w, "scores", obs["scores"], score, {})
    w.flag("unrevealed", obs["unrevealed"])
    turn = obs["my_turn"] or {}
    w.flag("my_turn.known", obs["my_turn"] is not None)
    w.one_hot("my_turn.seat", turn.get("seat"), SEAT)
    w.flag("my_turn.placed", turn.get("placed"))
    w.flag("my_turn.terraformed", turn.get("terraformed"))
    w.one_hot("my_turn.box", turn.get("box"), BOXES)
    w.one_hot("my_turn.option", turn.get("option"), OPTIONS)
    w.one_hot("my_turn.orientation", turn.get("orientation"), ORIENTATIONS)
    w.one_hot("my_turn.layer", turn.get("layer"), LAYERS)
    w.number("my_turn.discarded", _cell(turn.get("discarded") or None, "my_turn.discarded"), GRID * GRID)
    _per_slot(w, "my_turn.discarded_colours", turn.get("discarded_colours") or [], 2,
              lambda at, c: w.one_hot(at, c, COLOUR))
    w.one_hot("my_turn.tile", turn.get("tile"), TERRAIN)
    grids = np.zeros((SEATS, len(PLANES), GRID, GRID), np.float32)
    for p, m in enumerate(obs["maps"]):
        _cells(grids[p], m.get("cells") or (), f"maps[{p}].cells")
    what = f"{len(PLANES)} planes of {GRID}x{GRID} (row, col): " + ", ".join(PLANES)
    for p in range(SEATS):
        w.array(f"maps[{p}].cells", grids[p], what)


def _map(w: Writer, at: str, m: dict) -> None:
    """One seat's map but its cells (those are the grid planes, written last)."""
    w.one_hot(f"{at}.seat", m.get("seat"), SEAT)
    w.one_hot(f"{at}.province", m.get("province"), PROVINCES)
    bbox = m.get("bbox") or {}
    w.flag(f"{at}.bbox.known", m.get("bbox") is not None)
    for key in ("top", "left", "bottom", "right"):
        w.number(f"{at}.bbox.{key}", bbox.get(key), GRID)

    def card(a, c):
        w.one_hot(f"{a}.card", c.get("card"), CARDS)
        w.one_hot(f"{a}.orientation", c.get("orientation"), ORIENTATIONS)
        w.number(f"{a}.row", c.get("row"), GRID)
        w.number(f"{a}.col", c.get("col"), GRID)
        w.number(f"{a}.height", c.get("height"), 3)
        w.number(f"{a}.width", c.get("width"), 3)
        w.number(f"{a}.z", c.get("z"), MAP_CARDS_PER_MAP)
    _per_slot(w, f"{at}.cards", m.get("cards") or [], MAP_CARDS_PER_MAP, card, {})


def _cells(grid: np.ndarray, cells, at: str) -> None:
    """Fill one map's planes from its cells (each cell at its row and col)."""
    for cell in cells:
        r, c = cell["row"], cell["col"]
        if not (isinstance(r, int) and isinstance(c, int) and 0 <= r < GRID and 0 <= c < GRID):
            raise ValueError(f"observation tensor: {at} has a cell outside the grid: row {r!r}, col {c!r}")
        _set(grid, _T, cell["terrain"], TERRAIN, f"{at}.terrain", r, c)
        _set(grid, _C, cell["colour"], COLOUR, f"{at}.colour", r, c)
        _set(grid, _R, cell["resource"], COLOUR, f"{at}.resource", r, c)
        grid[_TILE, r, c] = 1.0 if cell["tile"] else 0.0
        grid[_TRAV, r, c] = 1.0 if cell["traveler"] else 0.0
        grid[_FV, r, c] = float(cell["factory_value"] or 0) / 4.0
        card = cell["card"]
        if card is not None:
            if card not in CARDS:
                raise ValueError(f"observation tensor: {at}.card has unknown value {card!r}")
            grid[_CARD, r, c] = (CARDS[card] + 1) / (len(CARDS) + 1)
        square = cell["square"]
        if square is not None:
            if square not in range(6):
                raise ValueError(f"observation tensor: {at}.square has unknown value {square!r}")
            grid[_SQUARE, r, c] = (square + 1) / 6
        grid[_NAME, r, c] = _cell(cell["name"], f"{at}.name") / (GRID * GRID)


def _set(grid, first: int, value, index: dict, name: str, r: int, c: int) -> None:
    if value is None:
        return
    try:
        grid[first + index[value], r, c] = 1.0
    except (KeyError, TypeError):
        raise ValueError(f"observation tensor: {name} has unknown value {value!r}") from None


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


def _per_slot(w: Writer, name: str, values: list, slots: int, write, empty=None) -> None:
    """``write(field name, value)`` for slots 0..``slots``-1 (``empty`` past the list's end)."""
    if len(values) > slots:
        raise ValueError(f"observation tensor: {name} has {len(values)} entries, at most {slots}")
    for i in range(slots):
        write(f"{name}[{i}]", values[i] if i < len(values) else empty)


def _per_seat(w: Writer, name: str, values: list, write, empty=None) -> None:
    _per_slot(w, name, values, SEATS, write, empty)
