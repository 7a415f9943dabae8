"""Kyūshū: parameters, component data and the text drawing of a position.

The rules live in the C kernel (kernel/kyushu/); this module turns validated
parameters and the data file (the Map cards and Starting Provinces, stand-ins
until the printed ones are entered: see docs/kyushu.md) into the kernel's
parameter vector, and draws observations as text.

Parameters (defaults in brackets):
  players      2 to 5 [4]
  side         Starting Province side, "A" or "B" ["A"]
  most_fewest  optional Most/Fewest scoring cards [False]
  travelers    optional Travelers [False]
"""
from __future__ import annotations

import json
from importlib import resources

from .. import facts as check
from ..errors import CHANCE, HIDDEN, brief_repr
from . import seen_history

NAME = "kyushu"

_DATA = json.loads(resources.files("boardlab").joinpath("data/kyushu.json").read_text())
COLOURS: list[str] = _DATA["colours"]
DEFAULTS = {"players": 4, "side": "A", "most_fewest": False, "travelers": False}
#: Parameter sets for the generic suites: 2, 3 and 5 players, options on and off.
PARAMETER_SETS = [
    {"players": 2},
    {"players": 2, "most_fewest": True, "travelers": True},
    {"players": 3, "side": "B", "travelers": True},
    {"players": 5, "most_fewest": True},
]
#: Search options tuned for this game (docs/search.md): 10 random decisions, then the heuristic.
SEARCH_DEFAULTS = {"rollout_depth": 10}

# Kernel terrain codes (kernel/kyushu/kyushu.h KT_*).
_TERRAIN = {"lake": 1, "forest": 2, "town": 3, "hot_spring": 4, "fallow": 5}
_PROD, _FACT = 6, 10


def square_code(square: str, value: int = 0) -> int:
    """Kernel code of a square name ("forest", "production:blue", "factory:grey")
    with its factory value (2, 3 or 4 on factories)."""
    if square in _TERRAIN:
        return _TERRAIN[square]
    kind, _, colour = square.partition(":")
    if kind not in ("production", "factory") or colour not in COLOURS:
        raise ValueError(f"kyushu data: unknown square {square!r}")
    if kind == "production":
        return _PROD + COLOURS.index(colour)
    return _FACT + COLOURS.index(colour) + 16 * value


def card_codes(card: dict, what: str) -> list[int]:
    """The six kernel codes of a card ({"squares": [[3], [3]], "duals": [[i, j]]})."""
    rows = card["squares"]
    if len(rows) != 2 or any(len(r) != 3 for r in rows):
        raise ValueError(f"kyushu data: {what} must have 2 rows of 3 squares")
    squares = rows[0] + rows[1]
    value = [2 if s.startswith("factory:") else 0 for s in squares]
    for pair in card.get("duals", []):
        i, j = pair
        if not (0 <= i < 6 and 0 <= j < 6) or not all(squares[k].startswith("factory:") for k in (i, j)):
            raise ValueError(f"kyushu data: {what} dual factory {pair} is not two factory squares")
        if not (abs(i - j) == 3 or (abs(i - j) == 1 and i // 3 == j // 3)):
            raise ValueError(f"kyushu data: {what} dual factory {pair} squares are not adjacent")
        v = 4 if squares[i] == squares[j] else 3
        value[i] = value[j] = v
    return [square_code(s, v) for s, v in zip(squares, value)]


def _component_vector() -> list[int]:
    cards = _DATA["map_cards"]["cards"]
    if [c["number"] for c in cards] != list(range(1, 61)):
        raise ValueError("kyushu data: the Map cards must be numbered 1 to 60 in order")
    vec = []
    for card in cards:
        vec += card_codes(card, f"Map card {card['number']}")
    provinces = _DATA["starting_provinces"]["cards"]
    if len(provinces) != 6:
        raise ValueError("kyushu data: there must be 6 Starting Provinces")
    for prov in provinces:
        for side in ("A", "B"):
            vec += card_codes(prov[side], f"Starting Province {prov['number']}{side}")
    return vec


_COMPONENTS = _component_vector()


def kernel_params(params: dict) -> list[int]:
    """Validate `params` (defaults filled) and build the kernel's parameter vector."""
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown kyushu parameter(s) {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(DEFAULTS)}")
    players = params["players"]
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise ValueError(f"kyushu parameter 'players' must be an integer from 2 to 5, got {players!r}")
    side = params["side"]
    if side not in ("A", "B"):
        raise ValueError(f"kyushu parameter 'side' must be 'A' or 'B', got {side!r}")
    flags = []
    for name in ("most_fewest", "travelers"):
        value = params[name]
        if not isinstance(value, bool):
            raise ValueError(f"kyushu parameter {name!r} must be True or False, got {value!r}")
        flags.append(int(value))
    return [players, 0 if side == "A" else 1] + flags + _COMPONENTS


def most_fewest_text(card: int, side: str) -> str:
    """The printed criterion of Most/Fewest card `card` (1-8), side "most"/"fewest"."""
    return _DATA["most_fewest_cards"]["cards"][card - 1][side]


# ---------------------------------------------------------------- what a seat saw

#: Move notation of the steps of a Map turn (kernel action_to_string).
_MAP_TURN = ("orient ", "place ", "terraform", "discard ", "choose ", "end turn")


def _map_turn_step(text: str) -> bool:
    return text.startswith(_MAP_TURN) or " tile at " in text


class SeenHistory(seen_history.SeenHistory):
    """The history as a seat saw it (State.observed_history): a card dealt to
    another hand is HIDDEN; another seat's Map turn is one HIDDEN entry however
    many steps it took (its outcome, once revealed, is on the map; the number of
    steps would tell whether it terraformed); the Map turn another seat is in
    the middle of is left out (a determinization starts it again). Everything
    else is public."""

    turn_of = None                   # seat whose hidden Map turn is being read

    def read(self, a: int) -> None:
        start, seat = self.start, self.seat
        actor = start.current_player()
        text = start.action_to_string(a)
        start.apply(a)
        if actor == CHANCE:
            private = text.startswith("deal ") and not text.endswith(f" to P{seat}")
            self.out.append(HIDDEN if private else a)
        elif actor != seat and _map_turn_step(text):
            if self.turn_of != actor:
                self.out.append(HIDDEN)
            self.turn_of = actor
            return
        else:
            self.out.append(a)
        self.turn_of = None

    def entries(self) -> list[int]:
        out = list(self.out)
        if self.turn_of is not None and self.start.current_player() == self.turn_of:
            legal = self.start.legal_actions()
            if len(legal) and _map_turn_step(self.start.action_to_string(int(legal[0]))):
                out.pop()            # that turn is still going on
        return out


# ---------------------------------------------------------------- drawing

_LETTER = {"lake": "L", "forest": "F", "town": "T", "hot_spring": "H", "fallow": "W",
           "production": "P", "factory": "X"}
_COLOUR_LETTER = {"blue": "b", "brown": "r", "grey": "g", "purple": "p", None: " "}


def col_name(col: int) -> str:
    """Column letters of the move notation: a..z, then aa..af."""
    return ("a" if col >= 26 else "") + chr(ord("a") + col % 26)


def _cell_text(cell: dict) -> str:
    """Three characters: terrain, colour (or tile '+'), then resource / factory value / traveler."""
    t = _LETTER[cell["terrain"]]
    second = _COLOUR_LETTER[cell["colour"]] if cell["colour"] else ("+" if cell["tile"] else " ")
    if cell["resource"]:
        third = _COLOUR_LETTER[cell["resource"]].upper() if cell["terrain"] != "production" else "*"
    elif cell["factory_value"]:
        third = str(cell["factory_value"])
    else:
        third = " "
    if cell["traveler"]:
        third = "!" if third == " " else third
    return t + second + third


def render_map(m: dict) -> list[str]:
    """Text lines drawing one map of an observation (bounding box only)."""
    box = m["bbox"]
    if box is None:
        return ["    (empty)"]
    cells = {(c["row"], c["col"]): c for c in m["cells"]}
    cols = range(box["left"], box["right"] + 1)
    lines = ["     " + "".join(f"{col_name(c):<4}" for c in cols)]
    for r in range(box["top"], box["bottom"] + 1):
        row = "".join((_cell_text(cells[(r, c)]) if (r, c) in cells else " . ") + " " for c in cols)
        lines.append(f"  {r + 1:>2} {row.rstrip()}")
    return lines


LEGEND = ("L lake  F forest  T town  H hot spring  W fallow  P production  X factory; "
          "colours b blue r brown g grey p purple; * resource on a production square, "
          "B/R/G/P a resource elsewhere, 2/3/4 factory value, + terraforming tile, ! traveler")


def render(obs: dict) -> str:
    """Draw an observation (the full state, or what one seat knows) as text."""
    n, viewer = obs["players"], obs["viewer"]
    opts = obs["options"]
    extras = [name for name in ("most_fewest", "travelers") if opts[name]]
    lines = [f"Kyushu, {n} players, side {opts['side']}"
             + (f" ({', '.join(extras)})" if extras else "")
             + f" - round {obs['round']}, {obs['phase']}"
             + ("" if viewer is None else f" - seen by P{viewer}")]
    pool = obs["pool"]
    lines.append("  pool " + " ".join(f"{k} {v}" for k, v in pool.items())
                 + f"; draw pile {obs['draw_pile_size']}")
    boxes = ", ".join(f"{b['label']}: {b['card'] if b['card'] is not None else '-'}" for b in obs["pick_boxes"])
    lines.append(f"  pick boxes {boxes}")
    for mf in obs["most_fewest"]:
        a, b = mf["seats"]
        lines.append(f"  P{a}|P{b}: {most_fewest_text(mf['card'], mf['side'])}")
    for seat in range(n):
        hand = obs["hands"][seat]
        shown = " ".join(map(str, hand)) if hand is not None else f"{obs['hand_sizes'][seat]} cards"
        score = obs["scores"][seat]
        marks = " [to move]" if seat == obs["current_player"] else ""
        sel = obs["selected"][seat]
        lines.append(f"P{seat}{marks}: hand {shown or '-'}; taken {sel if sel is not None else '-'}; "
                     f"score {score['total']} (springs {score['hot_springs']}, forests {score['forests']}, "
                     f"towns {score['towns']}, lakes {score['lakes']}, factories {score['factories']}, "
                     f"travelers {score['travelers']}, most/fewest {score['most_fewest']}; "
                     f"fallows {score['fallows']})")
        lines += render_map(obs["maps"][seat])
    lines.append("  " + LEGEND)
    return "\n".join(lines)


# ---------------------------------------------------------------- positions
POSITION_FACTS = ("round", "hand", "maps", "pick_boxes", "to_move", "taken", "resources", "tiles",
                  "travelers", "pool", "most_fewest", "discarded", "phase", "turn")
POSITION_PHASES = ("selection", "map")
_ORIENTATIONS = ("horizontal", "vertical", "horizontal turned", "vertical turned")
_TILE_COLOUR = {"lake": 0, "town": 1, "forest": 2, "hot_spring": 3}   # kyushu.h TILE_OF


def _int(value, what: str) -> int:
    """An int32 (its range is checked by the kernel, with the rules)."""
    return check.integer(value, what)


def _items(value, what: str, of: str) -> list:
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{what} must be a list of {of}, got {brief_repr(value)}")
    return list(value)


def _map_card(value, what: str) -> int:
    """A Map card number 1..60 -> kernel id (range checked by the kernel)."""
    return _int(value, what) - 1


def _province(value, what: str, side: str) -> int:
    """3, "S3" or "S3A" -> province index 0..5."""
    if isinstance(value, str):
        text = value.upper().removeprefix("S").removesuffix(side)
        if not text.isdigit():
            raise ValueError(f"{what}: {brief_repr(value)} is not a Starting Province such as 'S3{side}'")
        return int(text) - 1
    return _int(value, what) - 1


def _fields(entry, what: str, keys: tuple, optional: dict | None = None) -> dict:
    if not isinstance(entry, dict):
        raise ValueError(f"{what} must be an object with {', '.join(keys)}, got {brief_repr(entry)}")
    allowed = set(keys) | set(optional or {})
    extra = sorted(set(entry) - allowed, key=str)
    if extra:
        raise ValueError(f"{what}: unknown field(s) {', '.join(map(repr, extra))}; fields: {', '.join(sorted(allowed))}")
    missing = [k for k in keys if k not in entry]
    if missing:
        raise ValueError(f"{what}: missing {', '.join(map(repr, missing))}")
    return {**(optional or {}), **entry}


def position_params(params: dict, seat: int, facts: dict) -> list[int]:
    """The kernel's set-up vector for what `seat` knows at a real table, at a
    Selection phase or at its own Map turn (see kernel/kyushu/position.c).

    Facts: round (1-5 or 7-11, required); hand (the seat's card numbers, required);
    maps (required: per seat the cards in the order placed, the Starting Province
    first: {"card": 12 or "S3A", "orientation": "vertical", "row": r, "col": c,
    "layer": "over"/"under"}, rows and columns of the 32 x 32 grid as in the
    observation); pick_boxes (card number or None per box, required); to_move
    (seats 0..to_move-1 have taken this round's card, default 0) and taken (those
    cards); resources ([{"seat", "row", "col", "colour"}]); tiles ([{"seat", "row",
    "col", "terrain"}]); travelers ([{"owner", "host", "row", "col", "active"}], active False: covered
    by a later card); pool
    ({colour: n}, checked against the maps); most_fewest ([[card, "most"/"fewest"]]
    per seat, the card between it and the next seat); discarded (2 players, after
    round 6). The other hands and the draw pile are dealt at random.

    phase: "selection" (default) or "map": the seat's own hidden Map turn (round 1-12,
    to_move = seat, taken lists every seat's card, hand after the Selection; maps,
    resources and tiles as the Map phase began: the seats before it have placed their
    cards where it cannot see, which is dealt at random like the hands). turn: the
    seat's own actions so far in this turn (action ids, as a record's "actions": a take
    being paid for, or an orientation chosen, a card placed, a terraforming begun).
    """
    unknown = sorted(set(facts) - set(POSITION_FACTS), key=str)
    if unknown:
        raise ValueError(f"unknown kyushu position fact(s) {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(POSITION_FACTS)}")
    for required in ("round", "hand", "maps", "pick_boxes"):
        if facts.get(required) is None:
            raise ValueError(f"kyushu position needs {required!r}")
    players, side = params["players"], params["side"]
    boxes_n = 4 if players == 2 else players
    round_ = _int(facts["round"], "round")
    map_phase = check.choice(check.optional(facts, "phase", "selection"), "phase", POSITION_PHASES)
    to_move = _int(facts.get("to_move") if facts.get("to_move") is not None
                   else (seat if map_phase else 0), "to_move")
    turn = [_int(a, f"turn[{i}]") for i, a in enumerate(_items(check.optional(facts, "turn", []), "turn", "action ids"))]
    pool = [-1] * len(COLOURS)
    given = check.optional(facts, "pool", {})
    if not isinstance(given, dict):
        raise ValueError(f"pool must map a colour to a number, got {brief_repr(given)}")
    for colour, k in given.items():
        pool[check.choice(colour, "pool colour", COLOURS)] = _int(k, f"pool[{colour}]")
    maps = _items(facts["maps"], "maps", "one list of cards per seat")
    if len(maps) != players:
        raise ValueError(f"maps must list {players} maps (one per seat), got {len(maps)}")
    provinces, placed = [], []
    for p, cards in enumerate(maps):
        cards = _items(cards, f"maps[{p}]", "cards in the order placed")
        if not cards:
            raise ValueError(f"maps[{p}] must start with the Starting Province")
        entries = []
        for i, card in enumerate(cards):
            what = f"maps[{p}] card {i}"
            e = _fields(card, what, ("card", "orientation", "row", "col"), {"layer": "over"})
            number = _province(e["card"], what, side) + 60 if i == 0 else _map_card(e["card"], what)
            entries += [number, check.choice(e["orientation"], f"{what} orientation", _ORIENTATIONS),
                        _int(e["row"], f"{what} row"), _int(e["col"], f"{what} col"),
                        check.choice(e["layer"], f"{what} layer", ("over", "under"))]
        provinces.append(entries[0] - 60)
        placed += [len(cards)] + entries
    mf_cards, mf_sides = [-1] * players, [-1] * players
    mf = facts.get("most_fewest")
    if mf is not None:
        mf = _items(mf, "most_fewest", "[card, 'most' or 'fewest'] per seat")
        if len(mf) != players:
            raise ValueError(f"most_fewest must list {players} cards (seat i: between P{{i}} and the next)")
        for i, pair in enumerate(mf):
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise ValueError(f"most_fewest[{i}] must be [card, 'most' or 'fewest'], got {brief_repr(pair)}")
            mf_cards[i] = _int(pair[0], f"most_fewest[{i}] card") - 1
            mf_sides[i] = check.choice(pair[1], f"most_fewest[{i}] side", ("most", "fewest"))
    elif params["most_fewest"]:
        raise ValueError("kyushu position needs 'most_fewest' (the Most/Fewest option is on)")
    boxes = _items(facts["pick_boxes"], "pick_boxes", "card numbers or None")
    if len(boxes) != boxes_n:
        raise ValueError(f"pick_boxes must list {boxes_n} boxes, got {len(boxes)}")
    box_ids = [-1 if b is None else _map_card(b, f"pick_boxes[{i}]") for i, b in enumerate(boxes)]
    taken = _items(check.optional(facts, "taken", []), "taken", "card numbers")
    if map_phase and len(taken) != players:
        raise ValueError(f"taken must list the {players} cards P0..P{players - 1} took this round "
                         f"(in the Map phase every seat has taken one), got {len(taken)}")
    if not map_phase and len(taken) != to_move:
        raise ValueError(f"taken must list the {to_move} card(s) P0..P{to_move - 1} took this round "
                         f"(to_move = {to_move}), got {len(taken)}")
    taken_ids = [_map_card(t, f"taken[{i}]") for i, t in enumerate(taken)] + [-1] * max(0, players - len(taken))
    hand = [_map_card(h, "hand") for h in _items(facts["hand"], "hand", "card numbers")]
    discarded = [_map_card(h, "discarded") for h in _items(check.optional(facts, "discarded", []), "discarded", "card numbers")]
    tiles = []
    for i, t in enumerate(_items(check.optional(facts, "tiles", []), "tiles", "tiles")):
        e = _fields(t, f"tiles[{i}]", ("seat", "row", "col", "terrain"))
        check.choice(e["terrain"], f"tiles[{i}] terrain", tuple(_TILE_COLOUR))
        tiles += [_int(e["seat"], f"tiles[{i}] seat"), _int(e["row"], f"tiles[{i}] row"),
                  _int(e["col"], f"tiles[{i}] col"), _TILE_COLOUR[e["terrain"]]]
    travelers = []
    for i, t in enumerate(_items(check.optional(facts, "travelers", []), "travelers", "travelers")):
        e = _fields(t, f"travelers[{i}]", ("owner", "host", "row", "col"), {"active": True})
        active = check.boolean(e["active"], f"travelers[{i}] active")
        travelers += [_int(e[k], f"travelers[{i}] {k}") for k in ("owner", "host", "row", "col")] + [int(active)]
    resources = []
    for i, t in enumerate(_items(check.optional(facts, "resources", []), "resources", "resources")):
        e = _fields(t, f"resources[{i}]", ("seat", "row", "col", "colour"))
        resources += [_int(e["seat"], f"resources[{i}] seat"), _int(e["row"], f"resources[{i}] row"),
                      _int(e["col"], f"resources[{i}] col"), check.choice(e["colour"], f"resources[{i}] colour", COLOURS)]
    vector = [seat, round_, to_move, map_phase] + pool + provinces + mf_cards + mf_sides + box_ids + taken_ids[:players] \
        + [len(hand)] + hand + [len(discarded)] + discarded + placed \
        + [len(tiles) // 4] + tiles + [len(travelers) // 5] + travelers + [len(resources) // 4] + resources \
        + [len(turn)] + turn
    return [int(x) for x in vector]
