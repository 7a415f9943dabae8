"""Keyside's observation tensor: every field of ``observation(seat)``, for 1
(Keytoma solo) to 4 players, in one layout of the same size for every
parameter set (absent seats and the solo-only fields are zeros).
Names and value lists follow kernel/keyside/observe.c; the field-by-field
slices are ``tensors.layout(game)`` and docs/tensors.md."""
from __future__ import annotations

from .writer import Writer, index_of

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
SKILL_TILES = index_of([(c, v) for c in COLOURS for v in SKILL_VALUES])


def _task(w: Writer, name: str, t: dict) -> None:
    """A task of observation["task"] / ["pending"]: kind, seat and every parameter a kind may have
    (kernel/keyside/observe.c task_json); absent ones are zeros."""
    w.one_hot(f"{name}.kind", t.get("kind"), TASKS)
    w.one_hot(f"{name}.player", t.get("player"), SEAT)
    w.one_hot(f"{name}.harbour", t.get("harbour"), HARBOUR_NUMBER)
    w.one_hot(f"{name}.colour", t.get("colour"), TASK_COLOURS)
    w.counts(f"{name}.colours", t.get("colours"), COLOURS)
    w.counts(f"{name}.resources", t.get("resources"), index_of(["wood", "stone"]))
    w.one_hot(f"{name}.market", t.get("market"), MARKET_NUMBER)
    w.one_hot(f"{name}.harbour_tile", t.get("harbour_tile"), ORDER_TILES)
    w.one_hot(f"{name}.animal", t.get("animal"), ANIMALS)
    # present-but-0 and false must differ from absent: numbers + 1, flags one-hot
    for key, scale in (("level", 5), ("wheat_cost", 4), ("cost", 4), ("animals_left", 5), ("keyples_left", 4),
                       ("exchanges_left", 3), ("keyples_most", 2), ("tier", 3)):
        w.number(f"{name}.{key} + 1", None if t.get(key) is None else t[key] + 1, scale)
    for key in ("mandatory", "fixed_cost", "farms_and_fields_only", "activator", "flag"):
        w.one_hot(f"{name}.{key}", t.get(key), BOOL)


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
    _task(w, "task", obs["task"] or {})
    pending = obs["pending"]
    if len(pending) > PENDING:
        raise ValueError(f"observation tensor: {len(pending)} pending tasks, at most {PENDING}")
    for i in range(PENDING):
        _task(w, f"pending[{i}]", pending[i] if i < len(pending) else {})
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
        w.one_hot(f"headlands[{sp}].tile", hl.get("tile"), HEADLAND_TILES)
        w.one_hot(f"headlands[{sp}].owner", hl.get("owner"), SEAT)
        faces = hl.get("faces")       # one of the two harbours beside space sp: H(sp+1), H(sp+2)
        side = {sp + 1: "H(i+1)", (sp + 1) % 12 + 1: "H(i+2)"}.get(faces, faces)
        w.one_hot(f"headlands[{sp}].faces", side, FACES)
    for m, mk in enumerate(obs["markets"]):
        mk = mk or {}
        w.one_hot(f"markets[{m}].tile", mk.get("tile"), MARKETS)
        w.flag(f"markets[{m}].reverse", mk.get("side") == "reverse")
        w.one_hot(f"markets[{m}].trade", mk.get("trade"), TRADES)
        w.numbers(f"markets[{m}].keyples", mk.get("keyples"), 1, SEATS)
    for r, rl in enumerate(obs["resource_locations"]):
        _resource_location(w, f"resource_locations[{r}]", rl or {})
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
    for q in range(SEATS):
        _seat(w, f"seats[{q}]", seats[q] if q < len(seats) else None)
    kt = obs.get("keytoma") or {}
    w.numbers("keytoma.dice", [(kt.get("dice") or {}).get(c) or 0 for c in COLOURS], 6, 6)
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
    w.one_hot(f"{at}.tile", hb["tile"], TILES)
    w.one_hot(f"{at}.score", hb["score"], HARBOUR_NUMBER)
    w.flag(f"{at}.red", hb["red"])
    w.number(f"{at}.dice_spaces", hb["dice_spaces"], 4)
    w.number(f"{at}.keyple_spaces", hb["keyple_spaces"], 7)
    w.one_hot(f"{at}.sailor", hb["sailor"], COLOURS)
    w.one_hot(f"{at}.colour", hb["colour"], COLOURS)
    w.flag(f"{at}.resolved", hb["resolved"])
    dice = hb["dice"]
    if len(dice) > SEATS:
        raise ValueError(f"observation tensor: {at}.dice has {len(dice)} dice, at most {SEATS}")
    for i in range(SEATS):                # in the order they were placed
        owner, value = dice[i] if i < len(dice) else (None, 0)
        w.one_hot(f"{at}.dice[{i}].owner", owner, DIE_OWNER)
        w.number(f"{at}.dice[{i}].value", value, 6)
    w.numbers(f"{at}.keyples", hb["keyples"], 7, SEATS)


def _resource_location(w: Writer, at: str, rl: dict) -> None:
    w.one_hot(f"{at}.kind", rl.get("kind"), RL_KINDS)
    w.one_hot(f"{at}.owner", rl.get("owner"), RL_OWNER)
    w.flag(f"{at}.has_tokens", "tokens" in rl)
    w.number(f"{at}.tokens", rl.get("tokens"), 12)
    w.one_hot(f"{at}.farm", rl.get("farm"), FARMS)
    w.one_hot(f"{at}.side", rl.get("side"), FARM_SIDES)
    icons = rl.get("icons") or [{}] * 4
    for i in range(4):
        w.one_hot(f"{at}.icons[{i}].resource", icons[i].get("resource"), ICONS)
        w.one_hot(f"{at}.icons[{i}].animal", icons[i].get("animal"), ANIMALS)


def _seat(w: Writer, at: str, seat: dict | None) -> None:
    seat = seat or {}
    w.number(f"{at}.mat", seat.get("mat"), 12)
    w.number(f"{at}.town", seat.get("town"), 12)
    goods = seat.get("goods") or {}
    w.numbers(f"{at}.goods", [goods.get(g, 0) for g in GOODS], 10, len(GOODS))
    keyples = seat.get("keyples") or {}
    v = [0] * len(LOCATIONS)
    for loc, n in keyples.items():
        if loc not in LOCATIONS:
            raise ValueError(f"observation tensor: {at}.keyples has unknown location {loc!r}")
        v[LOCATIONS[loc]] = n
    w.numbers(f"{at}.keyples", v, 4, len(LOCATIONS))
    tracks = seat.get("tracks") or {}
    w.numbers(f"{at}.tracks", [tracks.get(c, 0) for c in COLOURS], 4, len(COLOURS))
    w.counts(f"{at}.skill_tiles", [tuple(t) for t in seat.get("skill_tiles") or ()], SKILL_TILES)
    buildings = seat.get("buildings") or {}
    unknown = set(buildings) - set(COLOURS)
    if unknown:
        raise ValueError(f"observation tensor: {at}.buildings has unknown colour {unknown.pop()!r}")
    for col in COLOURS:
        b = buildings.get(col) or {}
        w.one_hot(f"{at}.buildings.{col}.letter", b.get("letter"), LETTERS)
        w.flag(f"{at}.buildings.{col}.house", b.get("house"))
    w.counts(f"{at}.headlands_built", seat.get("headlands_built"), HEADLAND_LETTERS)
    w.one_hot(f"{at}.strip", seat.get("strip"), STRIPS)
    w.number(f"{at}.dice_set", seat.get("dice_set"), 6)
    dice = seat.get("dice") or {}
    w.numbers(f"{at}.dice", [dice.get(c) or 0 for c in COLOURS], 6, len(COLOURS))   # 0: unknown or unset
    w.counts(f"{at}.dice_left", seat.get("dice_left"), COLOURS)
    score = seat.get("score") or {}
    w.numbers(f"{at}.score.harbours", score.get("harbours"), 20, 12)
    w.numbers(f"{at}.score.buildings", score.get("buildings"), 20, len(COLOURS))
    for part in ("gems", "statue", "support", "beach", "skill_tiles", "fields", "total"):
        w.number(f"{at}.score.{part}", score.get(part), 100 if part == "total" else 20)
