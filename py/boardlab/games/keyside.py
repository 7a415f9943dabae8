"""Keyside: parameters, component data and the text drawing of a position.

The rules live in the C kernel (kernel/keyside/); this module turns validated
parameters and the data file (island roads, harbour tile sides, farm tiles and
dice strips: stand-ins until the printed ones are entered, see docs/keyside.md)
into the kernel's parameter vector, and draws observations as text.

Parameters (defaults in brackets):
  players      2 to 4, or 1 for the Keytoma solo game [4]
  scoring      harbour scoring tiles "black", "red" or "mixed" (random side each) ["black"]
  first_game   the first-game setup: cottages C, F, N, X and a keyple on harbours 11, 1, 5, 9 [False]
  dice_strips  dice strips: light side in year 1, deep side in year 2, free choice in year 3 [False]
Solo game only (players=1), the four harder options [all False]:
  solo_all_beacons     all 3 beacons must be lit to win
  solo_keytoma_keyple  a Keytoma keyple on the harbour anticlockwise of the 1-2 flag
  solo_landslide       a landslide on the headland space anticlockwise of the 3-4 flag
  solo_pirates         2 pirates on the harbour anticlockwise of the 5-6 flag
"""
from __future__ import annotations

import json
from importlib import resources

from .. import facts as check
from ..errors import HIDDEN, brief_repr
from . import seen_history

NAME = "keyside"

_DATA = json.loads(resources.files("boardlab").joinpath("data/keyside.json").read_text())
COLOURS: list[str] = _DATA["colours"]
DEFAULTS = {"players": 4, "scoring": "black", "first_game": False, "dice_strips": False,
            "solo_all_beacons": False, "solo_keytoma_keyple": False, "solo_landslide": False,
            "solo_pirates": False}
_SOLO_OPTIONS = ("solo_all_beacons", "solo_keytoma_keyple", "solo_landslide", "solo_pirates")
#: Parameter sets for the generic suites: every player count, options on and off.
PARAMETER_SETS = [
    {"players": 2},
    {"players": 3, "scoring": "mixed", "dice_strips": True},
    {"players": 4, "scoring": "red", "first_game": True},
    {"players": 1},
    {"players": 1, "scoring": "mixed", "solo_all_beacons": True, "solo_keytoma_keyple": True,
     "solo_landslide": True, "solo_pirates": True},
]
#: Search options tuned for this game (docs/search.md): 10 random decisions, then the heuristic.
SEARCH_DEFAULTS = {"rollout_depth": 10}
_SCORING = {"black": 0, "red": 1, "mixed": 2}
_ICONS = ["gem", "fish", "wheat", "stone", "wood"]


def _component_vector(players: int) -> list[int]:
    island = _DATA["island"]
    locs = island["locations"]
    expected = ["town"] + [f"M{k}" for k in range(1, 9)] + [f"R{k}" for k in range(1, 9)] + \
        [f"H{k}" for k in range(1, 13)]
    if locs != expected:
        raise ValueError("keyside data: island locations must be town, M1-M8, R1-R8, H1-H12 in order")
    index = {name: i for i, name in enumerate(locs)}
    roads = island["roads"]
    vec = [len(roads)]
    for a, b in roads:
        if a not in index or b not in index:
            raise ValueError(f"keyside data: road {a}-{b} names an unknown location")
        vec += [index[a], index[b]]
    masks = [0] * 8
    for a, b in island["resource_neighbours"]:
        i, j = index[a] - index["R1"], index[b] - index["R1"]
        if not (0 <= i < 8 and 0 <= j < 8):
            raise ValueError(f"keyside data: resource neighbours {a}-{b} are not resource locations")
        masks[i] |= 1 << j
        masks[j] |= 1 << i
    vec += masks
    tiles = _DATA["harbour_tiles"]["tiles"]
    if [t["letter"] for t in tiles] != list("ABCDEFGHIJKL"):
        raise ValueError("keyside data: harbour tiles must be A to L in order")
    for t in tiles:
        if players == 4:     # solo: the 3-dice side, as in 3p
            side = t["four_dice_side"]
            vec += [side["dice"], side["keyples"]]
        else:
            side = t["three_dice_side"]
            unused = side["marked_3"] if players == 2 else {"dice": 0, "keyples": 0}
            vec += [side["dice"] - unused["dice"], side["keyples"] - unused["keyples"]]
    farms = _DATA["farm_tiles"]["tiles"]
    if len(farms) != 5:
        raise ValueError("keyside data: there must be 5 farm tiles")
    for farm in farms:
        for side in ("a", "b"):
            icons = farm[side]
            if len(icons) != 4 or any(i not in _ICONS for i in icons):
                raise ValueError(f"keyside data: farm {farm['farm']} side {side} needs 4 icons from {_ICONS}")
            vec += [_ICONS.index(i) for i in icons]
    strips = _DATA["dice_strips"]["strips"]
    if len(strips) != 4:
        raise ValueError("keyside data: there must be 4 dice strips")
    for strip in strips:
        for side in ("light", "deep"):
            vec += list(strip[side])
    return vec


def kernel_params(params: dict) -> list[int]:
    """Validate `params` (defaults filled) and build the kernel's parameter vector."""
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown keyside parameter(s) {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(DEFAULTS)}")
    players = params["players"]
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
        raise ValueError(f"keyside parameter 'players' must be an integer from 1 (solo) to 4, got {players!r}")
    scoring = params["scoring"]
    if scoring not in _SCORING:
        raise ValueError(f"keyside parameter 'scoring' must be 'black', 'red' or 'mixed', got {scoring!r}")
    flags = []
    for name in ("first_game", "dice_strips") + _SOLO_OPTIONS:
        value = params[name]
        if not isinstance(value, bool):
            raise ValueError(f"keyside parameter {name!r} must be True or False, got {value!r}")
        flags.append(int(value))
    if players == 1 and flags[0]:
        raise ValueError("keyside parameter 'first_game' is for 2 to 4 players, not the solo game")
    if players > 1 and any(flags[2:]):
        raise ValueError("keyside parameters solo_* are for the solo game (players=1) only")
    solo = sum(bit << i for i, bit in enumerate(flags[2:]))
    return [players, _SCORING[scoring]] + flags[:2] + [solo] + _component_vector(players)


# ---------------------------------------------------------------- drawing

#: Secret dice steps (kernel/keyside/keyside.h KA_DSET .. KA_LEAD): a die's value ("red = 4")
#: or, in year 3 with the option, a dice strip side ("dice strip light side", STRIP_SIDES: all
#: six at once). The strips are public, so the side chosen would tell all six dice.
SECRET_DICE = range(96, 104)
STRIP_SIDES = range(102, 104)


def _phase(core) -> str:
    return json.loads(core.observe_json(-1))["phase"]


def _setting_dice(core) -> bool:
    """Whether ``core`` is still in the secret dice phase: at once while a seat has only
    dice steps to choose from (they are taken in that phase alone), else as it says."""
    legal = core.legal_actions() if core.current_player() >= 0 else ()
    if len(legal) and SECRET_DICE.start <= legal.min() and legal.max() < SECRET_DICE.stop:
        return True
    return _phase(core) == "dice"


class SeenHistory(seen_history.SeenHistory):
    """The history as a seat saw it (State.observed_history): another seat's secret dice
    are one HIDDEN entry when it has set all six, however it set them (six values, or
    one dice strip side in year 3: the number of steps would tell which), and the
    setting another seat is in the middle of is left out; at the reveal every step
    is shown. Every other move and chance outcome is public."""

    def __init__(self, start, seat: int):
        super().__init__(start, seat)   # out holds actions, and a list for each hidden setting
        self.setting: list[int] = []    # another seat's dice steps so far
        self.hidden = False             # out holds a list

    def read(self, a: int) -> None:
        start = self.start
        actor = start.current_player()
        dice = actor >= 0 and a in SECRET_DICE
        start.apply(a)
        if dice and actor != self.seat:
            self.setting.append(a)
            if start.current_player() != actor:      # its six dice are set
                self.out.append(self.setting)
                self.setting, self.hidden = [], True
        else:
            self.out.append(a)
        if dice and self.hidden and not _setting_dice(start):
            self.out = [y for x in self.out for y in (x if isinstance(x, list) else [x])]   # revealed
            self.hidden = False

    def entries(self) -> list[int]:
        return [HIDDEN if isinstance(x, list) else x for x in self.out]


def render(obs: dict) -> str:
    """Draw an observation (the full state, or what one seat knows) as text."""
    n, viewer = obs["players"], obs["viewer"]
    opts = obs["options"]
    lines = [f"Keyside, {'solo against Keytoma' if n == 1 else f'{n} players'}, {opts['scoring']} scoring tiles - year {obs['year']}, {obs['phase']}"
             + f", start player P{obs['start_player']}"
             + ("" if viewer is None else f" - seen by P{viewer}")]
    boats = {b["at"]: b["sailors"] for b in obs["boats"]}
    if "keytoma" in obs:
        kt = obs["keytoma"]
        dice = " ".join(f"{c[:2]}{v if v is not None else '?'}" for c, v in kt["dice"].items())
        beacons = " ".join(f"{b['beacon']}{'*' if b['lit'] else ''}" for b in obs["beacons"] if b)
        lines.append(f"  Keytoma: dice {dice} (left {','.join(kt['dice_left']) or '-'}); supply {kt['supply']}; "
                     f"flags at {', '.join('-' if f is None else f'H{f}' for f in obs['flags'])}; beacons {beacons} (* lit)"
                     + ("" if obs["won"] is None else f"; {'WON' if obs['won'] else 'lost'}"))
    for h in obs["harbours"]:
        if h["tile"] is None:
            continue
        keyples = " ".join(f"P{q}x{k}" for q, k in enumerate(h["keyples"]) if k)
        if "keytoma" in obs:
            i = h["indent"] - 1
            keyples += "".join(f" {name}x{n[i]}" for name, n in (("K", obs["keytoma"]["keyples"]),
                                                                  ("pirate", obs["pirates"])) if n[i])
        dice = " ".join(f"{'K' if p == 9 else f'P{p}'}:{v}" for p, v in h["dice"])
        boat = f" boat[{','.join(s[:2] for s in boats[h['indent']])}]" if h["indent"] in boats else ""
        state = "resolved" if h["resolved"] else (h["sailor"] or "")
        lines.append(f"  H{h['indent']:<2} {h['tile']} score {h['score']}{'r' if h['red'] else 'b'}"
                     f"{boat} {state} {dice} | {keyples}")
    for i, m in enumerate(obs["markets"]):
        if m is None:           # not dealt yet (set-up)
            continue
        keyples = " ".join(f"P{q}" for q, k in enumerate(m["keyples"]) if k)
        lines.append(f"  M{i + 1} {m['tile']} ({m['trade']}) {keyples}")
    for i, r in enumerate(obs["resource_locations"]):
        if r is None:
            continue
        who = r["owner"]
        owner = "" if who is None else f" owner {who}" if who == "pirates" else f" owner P{who}"
        if r["kind"] == "farm":
            icons = ", ".join(f"{c['resource']}{'=' + c['animal'] if c['animal'] else ''}" for c in r["icons"])
            lines.append(f"  R{i + 1} farm {r['farm']}{r['side']} [{icons}]{owner}")
        else:
            lines.append(f"  R{i + 1} {r['kind']} tokens {r['tokens']}{owner}")
    heads = [f"{i + 1}:{h['tile']}" + ("" if h["owner"] is None else f"/P{h['owner']}")
             for i, h in enumerate(obs["headlands"]) if h]
    if heads:
        lines.append("  headlands " + " ".join(heads))
    for q, seat in enumerate(obs["seats"]):
        mark = " [to move]" if q == obs["current_player"] else ""
        goods = " ".join(f"{k} {v}" for k, v in seat["goods"].items() if v)
        dice = " ".join(f"{c[:2]}{v if v is not None else '?'}" for c, v in seat["dice"].items())
        tracks = " ".join(f"{c[:2]}{v}" for c, v in seat["tracks"].items())
        builds = " ".join(f"{b['letter']}{'H' if b['house'] else 'c'}" for b in seat["buildings"].values())
        lines.append(f"P{q}{mark}: score {seat['score']['total']}; mat {seat['mat']} town {seat['town']}; "
                     f"dice {dice} (left {','.join(seat['dice_left']) or '-'}); tracks {tracks}")
        lines.append(f"    goods {goods or '-'}; buildings {builds or '-'}; headlands {seat['headlands_built'] or '-'}; "
                     f"skill tiles {seat['skill_tiles'] or '-'}")
    return "\n".join(lines)


# ---------------------------------------------------------------- positions

GOODS = ["cow", "pig", "sheep", "fish", "stone", "wheat", "wood", "emerald", "ruby", "sapphire"]
MARKETS = ["blue", "green", "orange", "purple", "grey 1", "grey 2", "red", "yellow"]
FIELDS = ["forest", "quarry", "wheat fields"]
LOCATIONS = _DATA["island"]["locations"]          # town, M1..M8, R1..R8, H1..H12
KEYTOMA = 9                                       # Keytoma as a dice owner (kernel/keyside/keyside.h)
POSITION_FACTS = ("year", "phase", "start_player", "turn", "end_triggered", "next_start_player", "red_space",
                  "harbours", "boats", "headlands", "markets", "resource_locations", "skill_stacks",
                  "cottages_available", "gem_bag", "seats", "keytoma", "pirates", "flags", "beacons")
SEAT_FACTS = ("mat", "town", "keyples", "goods", "tracks", "skill_tiles", "buildings", "headlands_built",
              "strip", "dice", "dice_left", "dice_set")
HARBOUR_FACTS = ("tile", "score", "red", "sailor", "colour", "dice", "resolved")
_SKILL_VALUES = [5, 3, 1]


def _colour(value, what: str, allow_none: bool = True) -> int:
    if value is None and allow_none:
        return -1
    return check.choice(value, what, COLOURS)


def _colours_mask(value, what: str) -> int:
    return sum(1 << c for c in check.names(value, what, COLOURS))


def _participant(value, what: str, players: int, allow_none: bool = False) -> int:
    """A seat, or (solo) "keytoma" / 1; None -> -1 where allowed."""
    if value is None and allow_none:
        return -1
    if players == 1 and (value == "keytoma" or (check.is_int(value) and value == 1)):
        return 1
    if check.is_int(value) and 0 <= value < players:
        return int(value)
    raise ValueError(f"{what} must be a seat 0..{players - 1}{' or keytoma' if players == 1 else ''}"
                     f"{' or none' if allow_none else ''}, got {brief_repr(value)}")


def _letters(value, what: str, top: str) -> int:
    if not isinstance(value, str) or any(ch not in top for ch in value):
        raise ValueError(f"{what} must be letters from {top[0]}..{top[-1]}, got {brief_repr(value)}")
    mask = 0
    for ch in value:
        if mask >> top.index(ch) & 1:
            raise ValueError(f"{what}: {ch} is listed twice")
        mask |= 1 << top.index(ch)
    return mask


def _indent(value, what: str) -> int:
    """A harbour by its indent number 1..12 (or "H3")."""
    if isinstance(value, str) and value[:1] == "H" and value[1:3].isascii() and value[1:3].isdigit():
        value = int(value[1:])
    return check.integer(value, what, 1, 12) - 1


def _solo_list(facts: dict, name: str, players: int, default) -> list:
    """A solo-only list fact: refused (unless absent) outside the solo game."""
    value = check.optional(facts, name, None)
    if players > 1:
        if value is not None:
            raise ValueError(f"{name}: only in the solo game")
        return default
    return check.sequence(check.optional(facts, name, default), name, len(default))


def _harbours(facts: dict, players: int, scoring: int, keytoma: dict) -> tuple[list[int], list[int]]:
    hs = check.sequence(facts["harbours"], "harbours", 12)
    main, dice = [], []
    pirates = _solo_list(facts, "pirates", players, [0] * 12)
    kt_kp = check.sequence(check.optional(keytoma, "keyples", [0] * 12), "keytoma keyples", 12)
    for h, hf in enumerate(hs):
        what = f"harbours[{h}] (H{h + 1})"
        hf = check.mapping(hf, what, HARBOUR_FACTS + ("indent",))
        if "indent" in hf and check.integer(hf["indent"], f"{what} indent") != h + 1:
            raise ValueError(f"{what}: listed in indent order 1..12, got indent {brief_repr(hf['indent'])}")
        for need in ("tile", "score"):
            if need not in hf:
                raise ValueError(f"{what} needs {need!r}")
        tile = check.choice(hf["tile"], f"{what} tile", "ABCDEFGHIJKL")
        score = check.integer(hf["score"], f"{what} score", 1, 12) - 1
        red = check.boolean(check.optional(hf, "red", scoring == 1), f"{what} red")
        sailor = _colour(hf.get("sailor"), f"{what} sailor")
        owners = []
        for i, o in enumerate(check.sequence(check.optional(hf, "dice", []), f"{what} dice")):
            if isinstance(o, (list, tuple)):          # [owner, value] as observed (values come from the owners)
                o, value = check.sequence(o, f"{what} dice[{i}]", 2)
                check.integer(value, f"{what} dice[{i}] value", 1, 6)
            if players == 1 and (o == "keytoma" or (check.is_int(o) and o == KEYTOMA)):
                owners.append(KEYTOMA)
            else:
                owners.append(_participant(o, f"{what} dice owner", players))
        if len(owners) > 4:
            raise ValueError(f"{what}: at most 4 dice on a harbour, got {len(owners)}")
        colour = _colour(check.optional(hf, "colour", hf.get("sailor")), f"{what} colour")
        main += [tile, score, int(red), sailor, colour,
                 int(check.boolean(check.optional(hf, "resolved", False), f"{what} resolved")),
                 check.integer(pirates[h], f"pirates[{h}]", 0, 12),
                 check.integer(kt_kp[h], f"keytoma keyples[{h}]", 0, 18)]
        dice += [len(owners)] + (owners + [-1] * 4)[:4]
    return main, dice


def _boats(facts: dict, players: int) -> list[int]:
    n = 2 if players == 2 else 3
    vec = []
    for b, bf in enumerate(check.sequence(facts["boats"], "boats", n)):
        bf = check.mapping(bf, f"boats[{b}]", ("at", "sailors"))
        vec += [_indent(bf.get("at"), f"boats[{b}] at"),
                _colours_mask(check.optional(bf, "sailors", COLOURS), f"boats[{b}] sailors")]
    return vec + [-1, 0] * (3 - n)


def _headlands(facts: dict, players: int) -> list[int]:
    vec = []
    for sp, hf in enumerate(check.sequence(check.optional(facts, "headlands", [None] * 12), "headlands", 12)):
        what = f"headlands[{sp}] (H{sp + 1}|H{(sp + 1) % 12 + 1})"
        if hf is None:
            vec += [-1, -1, 0]
            continue
        hf = check.mapping(hf, what, ("tile", "owner", "faces"))
        if hf.get("tile") == "landslide":
            if players > 1:
                raise ValueError(f"{what}: landslides are only in the solo game")
            for k in ("owner", "faces"):      # as observed: null
                if hf.get(k) is not None:
                    raise ValueError(f"{what} {k}: a landslide has none, got {brief_repr(hf[k])}")
            vec += [6, -1, 0]
            continue
        tile = check.choice(hf.get("tile"), f"{what} tile", "ABCDEF")
        owner = _participant(hf.get("owner"), f"{what} owner", players)
        faces = check.optional(hf, "faces", sp + 1)
        if not check.is_int(faces) or faces not in (sp + 1, (sp + 1) % 12 + 1):
            raise ValueError(f"{what} faces must be H{sp + 1} or H{(sp + 1) % 12 + 1}, got {brief_repr(faces)}")
        vec += [tile, owner, int(faces != sp + 1)]
    return vec


def _markets(facts: dict) -> list[int]:
    vec = []
    for m, mf in enumerate(check.sequence(facts["markets"], "markets", 8)):
        what = f"markets[{m}] (M{m + 1})"
        mf = check.mapping(mf, what, ("tile", "side"))
        vec += [check.choice(mf.get("tile"), f"{what} tile", MARKETS),
                check.choice(check.optional(mf, "side", "top"), f"{what} side", ["top", "reverse"])]
    return vec


def _farm_animals(rf: dict, what: str, farm: int, side: int) -> list:
    """The 4 icons' animals: `animals` (names or null) or the observation's `icons`."""
    if rf.get("icons") is None:
        return check.sequence(check.optional(rf, "animals", [None] * 4), f"{what} animals", 4)
    printed = _DATA["farm_tiles"]["tiles"][farm]["ab"[side]]
    animals = []
    for i, icon in enumerate(check.sequence(rf["icons"], f"{what} icons", 4)):
        if isinstance(icon, dict):                    # as observed: {"resource", "animal"}
            icon = check.mapping(icon, f"{what} icons[{i}]", ("resource", "animal"))
            if "resource" in icon and icon["resource"] != printed[i]:
                raise ValueError(f"{what} icons[{i}] resource: farm {farm + 1} side {'ab'[side]} has "
                                 f"{printed[i]} there, got {brief_repr(icon['resource'])}")
            icon = icon.get("animal")
        animals.append(icon)
    return animals


def _resource_locations(facts: dict, players: int, seats: list) -> tuple[list[int], list[int]]:
    vec, tokens = [], [3 * players] * 3
    for r, rf in enumerate(check.sequence(facts["resource_locations"], "resource_locations", 8)):
        what = f"resource_locations[{r}] (R{r + 1})"
        rf = check.mapping(rf, what, ("kind", "farm", "side", "animals", "icons", "tokens", "owner"))
        owner = rf.get("owner")
        if owner == "pirates" and players > 1:
            raise ValueError(f"{what}: pirates claim locations only in the solo game")
        if owner not in (None, "pirates"):
            owner = _participant(owner, f"{what} owner", players)
            seat_kp = seats[owner].get("keyples") if isinstance(seats[owner], dict) else None
            if not isinstance(seat_kp, dict) or not seat_kp.get(f"R{r + 1}"):
                raise ValueError(f"{what}: owner P{owner} needs its keyple there (seats[{owner}].keyples R{r + 1})")
        pirates = int(owner == "pirates")
        kind = check.choice(rf.get("kind"), f"{what} kind", ["farm"] + FIELDS)
        if kind:
            if rf.get("tokens") is not None:
                tokens[kind - 1] = check.integer(rf["tokens"], f"{what} tokens", 0, 3 * players)
            for k in ("farm", "side", "animals", "icons"):
                if rf.get(k) is not None:
                    raise ValueError(f"{what}: the {FIELDS[kind - 1]} has no {k}")
            vec += [4 + kind, 0, pirates, -1, -1, -1, -1]
            continue
        if rf.get("tokens") is not None:
            raise ValueError(f"{what}: a farm has no tokens")
        farm = check.integer(rf.get("farm"), f"{what} farm", 1, 5) - 1
        side = check.choice(check.optional(rf, "side", "a"), f"{what} side", ["a", "b"])
        animals = _farm_animals(rf, what, farm, side)
        vec += [farm, side, pirates] + [-1 if a is None else check.choice(a, f"{what} animals", GOODS[:3])
                                        for a in animals]
    return vec, tokens


def _skill_held(sf: dict, what: str) -> list[int]:
    held = [0] * 18
    for t in check.sequence(check.optional(sf, "skill_tiles", []), f"{what} skill_tiles"):
        if not isinstance(t, (list, tuple)) or len(t) != 2 or not check.is_int(t[1]) or t[1] not in _SKILL_VALUES:
            raise ValueError(f"{what} skill_tiles: each is [colour, 5|3|1], got {brief_repr(t)}")
        i = _colour(t[0], f"{what} skill_tiles", False) * 3 + _SKILL_VALUES.index(t[1])
        if held[i]:
            raise ValueError(f"{what} skill_tiles: {t[0]} {t[1]} is listed twice")
        held[i] = 1
    return held


def _seat(sf, p: int, players: int, seat: int, play: bool, dice_set: int, red: bool) -> tuple[list[int], list[int]]:
    what = f"seats[{p}]"
    sf = check.mapping(sf, what, SEAT_FACTS)
    kp = [0] * len(LOCATIONS)
    kp[0] = check.integer(check.optional(sf, "town", 0), f"{what} town", 0, 18)
    for loc, k in check.mapping(check.optional(sf, "keyples", {}), f"{what} keyples").items():
        if loc not in LOCATIONS or loc == "town":
            raise ValueError(f"{what} keyples: unknown location {brief_repr(loc)}; locations are M1..M8, R1..R8, "
                             "H1..H12 (the town is its own fact 'town')")
        kp[LOCATIONS.index(loc)] = check.integer(k, f"{what} keyples {loc}", 0, 18)
    placed = sum(kp) + int(red)
    if placed > 18:
        raise ValueError(f"{what}: more than 18 keyples ({placed} on the island)")
    mat = check.integer(check.optional(sf, "mat", 18 - placed), f"{what} mat", 0, 18)
    goods = check.mapping(check.optional(sf, "goods", {}), f"{what} goods", GOODS)
    tracks = check.mapping(check.optional(sf, "tracks", {}), f"{what} tracks", COLOURS)
    vec = [mat] + kp + [check.integer(check.optional(goods, g, 0), f"{what} goods {g}", 0, 120) for g in GOODS] \
        + [check.integer(check.optional(tracks, c, 0), f"{what} tracks {c}", 0, 4) for c in COLOURS] \
        + _skill_held(sf, what)
    letters, houses = [-1] * 6, 0
    for col, b in check.mapping(check.optional(sf, "buildings", {}), f"{what} buildings", COLOURS).items():
        c = COLOURS.index(col)
        if isinstance(b, dict):
            b = check.mapping(b, f"{what} buildings {col}", ("letter", "house"))
            letter = b.get("letter")
            house = check.boolean(check.optional(b, "house", False), f"{what} buildings {col} house")
        else:
            letter, house = b, False
        letters[c] = check.choice(letter, f"{what} buildings {col}", [chr(65 + i) for i in range(24)])
        houses |= int(house) << c
    vec += letters + [houses, _letters(check.optional(sf, "headlands_built", ""), f"{what} headlands_built", "ABCDEF")]
    dice = check.mapping(check.optional(sf, "dice", {}), f"{what} dice", COLOURS)
    values = [0 if dice.get(c) is None else check.integer(dice[c], f"{what} dice {c}", 1, 6) for c in COLOURS]
    if play:
        left = _colours_mask(check.optional(sf, "dice_left", []), f"{what} dice_left")
        n_set = 6
    else:
        if sf.get("dice_left") is not None and _colours_mask(sf["dice_left"], f"{what} dice_left") != 63:
            raise ValueError(f"{what} dice_left: all six dice are left before the reveal")
        left = 63
        if p == seat:
            given = [c for c in COLOURS if dice.get(c) is not None]
            n_set = len(given)
            if given != COLOURS[:n_set]:
                raise ValueError(f"{what} dice: secret dice are set in colour order {', '.join(COLOURS)}; "
                                 f"give the first {n_set}")
            if sf.get("dice_set") is not None and check.integer(sf["dice_set"], f"{what} dice_set", 0, 6) != n_set:
                raise ValueError(f"{what} dice_set: {sf['dice_set']}, but {n_set} dice are given")
        else:
            n_set = check.integer(check.optional(sf, "dice_set", dice_set), f"{what} dice_set", 0, 6)
    strip = sf.get("strip")
    vec += values + [left, n_set, -1 if strip is None else check.integer(strip, f"{what} strip", 1, 4) - 1]
    return vec, vec[1 + len(LOCATIONS) + 7: 1 + len(LOCATIONS) + 10]


def _keytoma(facts: dict, players: int) -> dict:
    """The solo fact `keytoma` (a dict; empty outside the solo game)."""
    if players > 1:
        if facts.get("keytoma") is not None:
            raise ValueError("keytoma: only in the solo game")
        return {}
    ktf = check.mapping(check.optional(facts, "keytoma", {}), "keytoma",
                        ("dice", "dice_left", "keyples", "strips_left", "supply"))
    if ktf.get("supply") is not None:                 # as observed: 18 minus its keyples on harbours
        keyples = check.sequence(check.optional(ktf, "keyples", [0] * 12), "keytoma keyples", 12)
        placed = sum(k for k in keyples if check.is_int(k))
        if check.integer(ktf["supply"], "keytoma supply", 0, 18) != 18 - placed:
            raise ValueError(f"keytoma supply: 18 minus its {placed} keyples on harbours, got {ktf['supply']}")
    return ktf


def _beacon(name, b: int) -> int:
    if isinstance(name, dict):                        # as observed: {"beacon": "A3", "lit": false}
        name = check.mapping(name, f"beacons[{b}]", ("beacon", "lit"))
        if name.get("lit") is not None:
            check.boolean(name["lit"], f"beacons[{b}] lit")
        name = name.get("beacon")
    if not isinstance(name, str) or len(name) != 2 or name[0] != "ABC"[b] or name[1] not in "123456":
        raise ValueError(f"beacons[{b}] must be {'ABC'[b]}1..{'ABC'[b]}6, got {brief_repr(name)}")
    return int(name[1]) - 1


def _gem_bag(facts: dict, full: int, held: list[int]) -> list[int]:
    bag = check.optional(facts, "gem_bag", None)
    if bag is None:
        return [max(0, full - n) for n in held]
    bag = check.mapping(bag, "gem_bag", GOODS[7:] + ["count", "contents"])
    if "contents" in bag:                             # as observed: {"count", "contents"}
        bag = check.mapping(bag["contents"], "gem_bag contents", GOODS[7:])
    counts = [check.integer(check.optional(bag, g, 0), f"gem_bag {g}", 0, full) for g in GOODS[7:]]
    if bag.get("count") is not None and check.integer(bag["count"], "gem_bag count") != sum(counts):
        raise ValueError(f"gem_bag count: {sum(counts)} gems listed, got {bag['count']}")
    return counts


def position_params(params: dict, seat: int, facts: dict) -> list[int]:
    """The kernel's set-up vector for a position `seat` knows (layout:
    kernel/keyside/position.c; the facts: docs/keyside.md "Analysing a real table").
    The others' secret dice before the reveal and the gem bag's order are dealt at random.
    Every fact's type is checked strictly (boardlab.facts): a bool is not a number, a string
    or an empty dict is not a list, and only a missing fact or null means its default."""
    unknown = sorted(set(facts) - set(POSITION_FACTS), key=str)
    if unknown:
        raise ValueError(f"unknown keyside position fact(s) {', '.join(map(brief_repr, unknown))}; "
                         f"known: {', '.join(POSITION_FACTS)}")
    for need in ("year", "phase", "harbours", "boats", "markets", "resource_locations", "seats"):
        if need not in facts:
            raise ValueError(f"keyside position needs {need!r}")
    players, solo = params["players"], params["players"] == 1
    year = check.integer(facts["year"], "year", 1, 3)
    play = check.choice(facts["phase"], "phase", ["dice", "play"]) == 1
    seats = check.sequence(facts["seats"], "seats", players)
    start = _participant(check.optional(facts, "start_player", 0), "start_player", players)
    turn = _participant(check.optional(facts, "turn", seat), "turn", players)
    red = _participant(facts.get("red_space"), "red_space", players, allow_none=True)
    head = [seat, year, int(play), start, turn,
            int(check.boolean(check.optional(facts, "end_triggered", False), "end_triggered")),
            _participant(facts.get("next_start_player"), "next_start_player", players, allow_none=True), red]
    ktf = _keytoma(facts, players)
    flags = _solo_list(facts, "flags", players, None) if not solo else check.sequence(facts.get("flags"), "flags", 3)
    beacons = _solo_list(facts, "beacons", players, None) if not solo else \
        check.sequence(facts.get("beacons"), "beacons", 3)
    main, dice = _harbours(facts, players, _SCORING[params["scoring"]], ktf)
    rls, tokens = _resource_locations(facts, players, seats)
    seat_vecs, gems = [], [0, 0, 0]
    held = [0] * 18
    built = 0
    for p, sf in enumerate(seats):
        if not play and not solo:
            rel, setter = (p - start) % players, (turn - start) % players
            dice_set = 6 if rel < setter else 0
        else:
            dice_set = 0
        sv, g = _seat(sf, p, players, seat, play, dice_set, red == p)
        seat_vecs += sv
        gems = [a + b for a, b in zip(gems, g)]
        off = 1 + len(LOCATIONS) + 10 + 6
        held = [a + b for a, b in zip(held, sv[off:off + 18])]
        built |= sum(1 << x for x in sv[off + 18:off + 24] if x >= 0)
    stacks = check.mapping(check.optional(facts, "skill_stacks", {}), "skill_stacks", COLOURS)
    left = []
    for c, col in enumerate(COLOURS):
        v = stacks.get(col)
        if v is None:
            v = 3 - sum(held[3 * c:3 * c + 3])
        elif isinstance(v, (list, tuple)):
            if not all(check.is_int(x) for x in v) or list(v) != _SKILL_VALUES[3 - len(v):]:
                raise ValueError(f"skill_stacks {col}: the tiles left, top first, e.g. [3, 1], got {brief_repr(v)}")
            v = len(v)
        left.append(check.integer(v, f"skill_stacks {col}", 0, 3))
    cottages = check.optional(facts, "cottages_available", None)
    cmask = ((1 << 24) - 1) & ~built if cottages is None else \
        _letters(cottages, "cottages_available", "ABCDEFGHIJKLMNOPQRSTUVWX")
    bag_vec = _gem_bag(facts, 6 if solo else 12, gems)
    kt = [0] * 8 + [-1] * 6
    if solo:
        kd = check.mapping(check.optional(ktf, "dice", {}), "keytoma dice", COLOURS)
        strips = 0
        for k in check.sequence(check.optional(ktf, "strips_left", []), "keytoma strips_left"):
            strips |= 1 << (check.integer(k, "keytoma strips_left", 1, 4) - 1)
        kt = [0 if kd.get(c) is None else check.integer(kd[c], f"keytoma dice {c}", 1, 6) for c in COLOURS] \
            + [_colours_mask(check.optional(ktf, "dice_left", []), "keytoma dice_left"), strips] \
            + [_indent(f, f"flags[{i}]") for i, f in enumerate(flags)] \
            + [_beacon(name, b) for b, name in enumerate(beacons)]
    vec = head + main + dice + _boats(facts, players) + _headlands(facts, players) + _markets(facts) + rls \
        + tokens + left + [cmask] + bag_vec + kt + seat_vecs
    return [int(x) for x in vec]


def position_facts(obs: dict) -> dict:
    """The facts of Game.position for the seat that made observation `obs` (at the
    start of a turn in play, or in the secret dice phase): everything public plus
    that seat's own dice. position(seat, **position_facts(state.observation(seat)))
    gives the same observation."""
    seat, solo = obs["viewer"], obs["players"] == 1
    if seat is None:
        raise ValueError("position_facts needs one seat's observation, not the full state")
    harbours = [{k: h[k] for k in ("tile", "score", "red", "sailor", "colour", "resolved")}
                | {"dice": [p for p, _ in h["dice"]]} for h in obs["harbours"]]
    seats = []
    for p, s in enumerate(obs["seats"]):
        sf = {k: s[k] for k in ("mat", "town", "keyples", "goods", "tracks", "skill_tiles", "headlands_built",
                                "strip", "dice_left")}
        sf["buildings"] = {c: dict(b) for c, b in s["buildings"].items()}
        sf["dice"] = {c: v for c, v in s["dice"].items() if v is not None}
        if obs["phase"] == "dice":
            sf["dice_set"] = s["dice_set"]
        seats.append(sf)
    facts = {"year": obs["year"], "phase": obs["phase"], "start_player": obs["start_player"],
             "turn": obs["current_player"] if obs["phase"] == "dice" else obs["turn"],
             "end_triggered": obs["end_triggered"], "next_start_player": obs["next_start_player"],
             "red_space": obs["red_space"], "harbours": harbours, "boats": obs["boats"],
             "headlands": obs["headlands"],
             "markets": [{"tile": m["tile"], "side": m["side"]} for m in obs["markets"]],
             "resource_locations": [{k: v for k, v in r.items() if not (k == "owner" and v != "pirates")}
                                    for r in obs["resource_locations"]],
             "skill_stacks": obs["skill_stacks"], "cottages_available": obs["cottages_available"],
             "gem_bag": obs["gem_bag"]["contents"], "seats": seats}
    if solo:
        kt = obs["keytoma"]
        facts |= {"keytoma": {"dice": {c: v for c, v in kt["dice"].items() if v is not None},
                              "dice_left": kt["dice_left"], "keyples": kt["keyples"],
                              "strips_left": kt["strips_left"]},
                  "pirates": obs["pirates"], "flags": obs["flags"], "beacons": [b["beacon"] for b in obs["beacons"]]}
    return facts
