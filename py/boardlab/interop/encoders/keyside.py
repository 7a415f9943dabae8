"""Keyside's observation tensor: every field of ``observation(seat)``, for 1
(Keytoma solo) to 4 players, in one layout of the same size for every
parameter set (absent seats and the solo-only fields are zeros).
Names and value lists follow kernel/keyside/observe.c; the field-by-field
slices are ``tensors.layout(game)`` and docs/tensors.md."""
from __future__ import annotations

from .writer import Fields, Writer, index_of

SEATS = 4                                    # kernel/keyside/keyside.h KS_MAXP
COLOURS = index_of(["yellow", "green", "red", "blue", "purple", "orange"])
GOODS = index_of(["cow", "pig", "sheep", "fish", "stone", "wheat", "wood", "emerald", "ruby", "sapphire"])
ANIMALS = index_of(["cow", "pig", "sheep"])
MARKETS = index_of(["blue", "green", "orange", "purple", "grey 1", "grey 2", "red", "yellow"])
TRADES = index_of(["fish->2 pigs", "pig->2 fish", "wheat->2 sheep", "sheep->2 wheat", "wood->3 stone",
                   "stone->3 wood", "stone->2 gems", "gem->3 stone", "wheat->advance",
                   "fish->move 2 keyples", "wood->move 2 keyples", "recruit a keyple", "wheat->build"])
TASKS = index_of(["land", "resolve", "take_or_advance", "follow", "headlands", "keyple_in", "advance",
                  "level", "build", "headland", "farm", "move", "market", "trade", "skill_tile",
                  "import_animal", "exchange", "order", "final_spend", "start_marker", "recruit",
                  "pay_animal", "benefit",
                  "keytoma_card", "keytoma_pirates_and_farms", "keytoma_claims", "keytoma_lands", "keytoma_follows", "keytoma_resolves", "keytoma_action",
                  "keytoma_landslide", "keytoma_farm", "keytoma_yellow", "keytoma_removes_cottage",
                  "keytoma_removes_skill_tile", "keytoma_dice_strip"])
PHASES = index_of(["setup", "dice", "play", "over"])
SEAT = index_of(range(SEATS))
PLAYER = index_of([0, 1, 2, 3, -1, -2])       # a seat, CHANCE, TERMINAL
TURN = index_of([-1, 0, 1, 2, 3])
YEAR = index_of(range(4))
PLAYERS = index_of(range(1, SEATS + 1))
SCORING = index_of(["black", "red", "mixed"])
DIE_OWNER = index_of([0, 1, 2, 3, 9])          # 9: Keytoma (KS_KT_MARK)
RL_OWNER = index_of([0, 1, 2, 3, "pirates"])
TILES = index_of("ABCDEFGHIJKL")
HARBOUR_NUMBER = index_of(range(1, 13))
FACES = index_of(["H(i+1)", "H(i+2)"])    # headland space i lies between them
HEADLAND_TILES = index_of(list("ABCDEF") + ["landslide"])
RL_KINDS = index_of(["farm", "forest", "quarry", "wheat fields"])
FARMS = index_of(range(1, 6))
FARM_SIDES = index_of("ab")
ICONS = index_of(["gem", "fish", "wheat", "stone", "wood"])
STRIPS = index_of(range(1, 5))
SKILL_VALUES = index_of([5, 3, 1])
LETTERS = index_of("ABCDEFGHIJKLMNOPQRSTUVWX")
HEADLAND_LETTERS = index_of("ABCDEF")
LOCATIONS = index_of([f"M{k}" for k in range(1, 9)] + [f"R{k}" for k in range(1, 9)]
                     + [f"H{k}" for k in range(1, 13)])
BEACON_NUMBER = index_of(range(1, 7))
BOOL = index_of([True, False])
PENDING = 24          # tasks under the current one; the rules nest about 15 deep (kernel/keyside/rules.c)
MARKET_NUMBER = index_of(range(1, 9))
TASK_COLOURS = index_of(list(COLOURS) + ["any"])
ORDER_TILES = index_of("IJK")
TASK_RESOURCES = index_of(["wood", "stone"])
SKILL_TILES = index_of([(c, v) for c in COLOURS for v in SKILL_VALUES])


#: Dicts of the observation written field by field (Writer.fields).
#: A task: its kind, seat and every parameter a kind may have (kernel/keyside/observe.c task_json);
#: present-but-0 and false must differ from absent: these numbers + 1, the flags one-hot.
_PLUS_ONE = {key: f"{key} + 1" for key in ("level", "wheat_cost", "cost", "animals_left", "keyples_left",
                                            "exchanges_left", "keyples_most", "tier")}
_TASK = Fields(("kind", "one_hot", TASKS), ("player", "one_hot", SEAT), ("harbour", "one_hot", HARBOUR_NUMBER),
               ("colour", "one_hot", TASK_COLOURS), ("colours", "counts", COLOURS),
               ("resources", "counts", TASK_RESOURCES), ("market", "one_hot", MARKET_NUMBER),
               ("harbour_tile", "one_hot", ORDER_TILES), ("animal", "one_hot", ANIMALS),
               *((_PLUS_ONE[key], "number", scale) for key, scale in zip(_PLUS_ONE, (5, 4, 4, 5, 4, 3, 2, 3))),
               *((key, "one_hot", BOOL)
                 for key in ("mandatory", "fixed_cost", "farms_and_fields_only", "activator", "flag")))
_HARBOUR = Fields(("tile", "one_hot", TILES), ("score", "one_hot", HARBOUR_NUMBER), ("red", "flag", None),
                  ("dice_spaces", "number", 4), ("keyple_spaces", "number", 7), ("sailor", "one_hot", COLOURS),
                  ("colour", "one_hot", COLOURS), ("resolved", "flag", None), required=True)
_DIE = Fields(("owner", "one_hot", DIE_OWNER), ("value", "number", 6))
_HEADLAND = Fields(("tile", "one_hot", HEADLAND_TILES), ("owner", "one_hot", SEAT), ("faces", "one_hot", FACES))
_MARKET = Fields(("tile", "one_hot", MARKETS), ("reverse", "flag", None), ("trade", "one_hot", TRADES))
_ICON = Fields(("resource", "one_hot", ICONS), ("animal", "one_hot", ANIMALS))
_RESOURCE_LOCATION = Fields(("kind", "one_hot", RL_KINDS), ("owner", "one_hot", RL_OWNER),
                            ("has_tokens", "flag", None), ("tokens", "number", 12), ("farm", "one_hot", FARMS),
                            ("side", "one_hot", FARM_SIDES), ("icons", "dicts", (_ICON, 4)))
_MAT_AND_TOWN = Fields(("mat", "number", 12), ("town", "number", 12))
_BUILDINGS = Fields(*(spec for col in COLOURS                 # {"yellow.letter": ..., "yellow.house": ...}
                      for spec in ((f"{col}.letter", "one_hot", LETTERS), (f"{col}.house", "flag", None))))
_SCORE_PARTS = Fields(*((part, "number", 20) for part in ("gems", "statue", "support", "beach", "skill_tiles",
                                                          "fields")), ("total", "number", 100))


def _task(t: dict) -> dict:
    """A task of observation["task"] / ["pending"] with its "+ 1" numbers, for _TASK."""
    return {**t, **{_PLUS_ONE[key]: v + 1 for key, v in t.items() if key in _PLUS_ONE and v is not None}}


def encode(obs: dict, params: dict, w: Writer) -> None:
    """Append ``obs`` (a Keyside observation dict) to ``w``."""
    w.one_hot("viewer", obs["viewer"], SEAT)
    w.one_hot("players", obs["players"], PLAYERS)
    opts = obs["options"]
    w.one_hot("options.scoring", opts["scoring"], SCORING)
    w.flag("options.first_game", opts["first_game"])
    w.flag("options.dice_strips", opts["dice_strips"])
    for name in ("solo_all_beacons", "solo_keytoma_keyple", "solo_landslide", "solo_pirates"):
        w.flag(f"params.{name}", params.get(name))          # public, not in the observation dict
    w.one_hot("phase", obs["phase"], PHASES)
    w.one_hot("year", obs["year"], YEAR)
    w.one_hot("start_player", obs["start_player"], SEAT)
    w.one_hot("next_start_player", obs["next_start_player"], SEAT)   # who took harbour I
    w.one_hot("current_player", obs["current_player"], PLAYER)
    w.one_hot("turn", obs["turn"], TURN)
    w.flag("end_triggered", obs["end_triggered"])
    w.fields("task", _task(obs["task"] or {}), _TASK)
    w.dicts("pending", [_task(t) for t in obs["pending"]], _TASK, PENDING)
    w.counts("markets_to_flip", obs["markets_to_flip"], MARKET_NUMBER)
    activated = obs["markets_activated"]
    for q in range(SEATS):
        w.counts(f"markets_activated[{q}]", activated[q] if q < len(activated) else None, MARKET_NUMBER)
    for h, hb in enumerate(obs["harbours"]):
        _harbour(w, f"harbours[{h}]", hb)
    w.one_hot("red_space", obs["red_space"], SEAT)
    boats = obs["boats"]
    if len(boats) > 3:
        raise ValueError(f"observation tensor: {len(boats)} boats, at most 3")
    for b in range(3):
        boat = boats[b] if b < len(boats) else {}
        w.one_hot(f"boats[{b}].at", boat.get("at"), HARBOUR_NUMBER)
        w.counts(f"boats[{b}].sailors", boat.get("sailors"), COLOURS)
    for sp, hl in enumerate(obs["headlands"]):
        hl = hl or {}
        faces = hl.get("faces")       # one of the two harbours beside space sp: H(sp+1), H(sp+2)
        side = "H(i+1)" if faces == sp + 1 else "H(i+2)" if faces == (sp + 1) % 12 + 1 else faces
        w.fields(f"headlands[{sp}]", {**hl, "faces": side}, _HEADLAND)
    for m, mk in enumerate(obs["markets"]):
        mk = mk or {}
        w.fields(f"markets[{m}]", {**mk, "reverse": mk.get("side") == "reverse"}, _MARKET)
        w.numbers(f"markets[{m}].keyples", mk.get("keyples"), 1, SEATS)
    for r, rl in enumerate(obs["resource_locations"]):
        rl = rl or {}
        w.fields(f"resource_locations[{r}]", {**rl, "has_tokens": "tokens" in rl}, _RESOURCE_LOCATION)
    stacks = obs["skill_stacks"]
    for col in COLOURS:
        w.counts(f"skill_stacks.{col}", stacks[col], SKILL_VALUES)
    w.counts("cottages_available", obs["cottages_available"], LETTERS)
    bag = obs["gem_bag"]
    w.number("gem_bag.count", bag["count"], 36)
    contents = bag["contents"]
    w.numbers("gem_bag.contents", [contents["emerald"], contents["ruby"], contents["sapphire"]], 12, 3)
    w.numbers("scores", obs["scores"], 100, SEATS)
    seats = obs["seats"]
    for q in range(min(len(seats), SEATS)):
        _seat(w, f"seats[{q}]", seats[q])
    w.empty_slots(lambda q: _seat(w, f"seats[{q}]", None), range(len(seats), SEATS))
    kt = obs.get("keytoma") or {}
    w.numbers_by("keytoma.dice", {colour: n for colour, n in (kt.get("dice") or {}).items() if n}, COLOURS, 6)
    w.counts("keytoma.dice_left", kt.get("dice_left"), COLOURS)
    w.number("keytoma.supply", kt.get("supply"), 20)
    w.numbers("keytoma.keyples", kt.get("keyples"), 3, 12)
    w.counts("keytoma.strips_left", kt.get("strips_left"), STRIPS)
    w.numbers("pirates", obs.get("pirates"), 3, 12)
    flags = obs.get("flags") or [None] * 3
    for f in range(3):
        w.one_hot(f"flags[{f}]", flags[f] or None, HARBOUR_NUMBER)     # 0: not rolled yet
    beacons = obs.get("beacons") or [None] * 3
    for b in range(3):
        beacon = beacons[b] or {}
        name = beacon.get("beacon")
        if name is not None and (len(name) != 2 or name[0] != "ABC"[b] or not name[1].isdigit()):
            raise ValueError(f"observation tensor: beacons[{b}] is {name!r}, not {'ABC'[b]}1-{'ABC'[b]}6")
        w.one_hot(f"beacons[{b}].number", None if name is None else int(name[1]), BEACON_NUMBER)
        w.flag(f"beacons[{b}].lit", beacon.get("lit"))
    w.one_hot("won", obs.get("won"), BOOL)
    w.one_hot("start_marker_item", obs["start_marker_item"], GOODS)


def _harbour(w: Writer, at: str, hb: dict) -> None:
    w.fields(at, hb, _HARBOUR)
    dice = [{"owner": owner, "value": value} for owner, value in hb["dice"]]     # in the order placed
    w.dicts(f"{at}.dice", dice, _DIE, SEATS)
    w.numbers(f"{at}.keyples", hb["keyples"], 7, SEATS)


def _seat(w: Writer, at: str, seat: dict | None) -> None:
    seat = seat or {}
    w.fields(at, seat, _MAT_AND_TOWN)
    w.numbers_by(f"{at}.goods", seat.get("goods"), GOODS, 10)
    w.numbers_by(f"{at}.keyples", seat.get("keyples"), LOCATIONS, 4)
    w.numbers_by(f"{at}.tracks", seat.get("tracks"), COLOURS, 4)
    w.counts(f"{at}.skill_tiles", [tuple(t) for t in seat.get("skill_tiles") or ()], SKILL_TILES)
    buildings = seat.get("buildings") or {}
    unknown = set(buildings) - set(COLOURS)
    if unknown:
        raise ValueError(f"observation tensor: {at}.buildings has unknown colour {unknown.pop()!r}")
    w.fields(f"{at}.buildings", {f"{col}.{key}": value for col, b in buildings.items()
                                 for key, value in (b or {}).items()}, _BUILDINGS)
    w.counts(f"{at}.headlands_built", seat.get("headlands_built"), HEADLAND_LETTERS)
    w.one_hot(f"{at}.strip", seat.get("strip"), STRIPS)
    w.number(f"{at}.dice_set", seat.get("dice_set"), 6)
    dice = {colour: n for colour, n in (seat.get("dice") or {}).items() if n}     # 0: unknown or unset
    w.numbers_by(f"{at}.dice", dice, COLOURS, 6)
    w.counts(f"{at}.dice_left", seat.get("dice_left"), COLOURS)
    score = seat.get("score") or {}
    w.numbers(f"{at}.score.harbours", score.get("harbours"), 20, 12)
    w.numbers(f"{at}.score.buildings", score.get("buildings"), 20, len(COLOURS))
    w.fields(f"{at}.score", score, _SCORE_PARTS)
