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
import re
from importlib import resources

from ..errors import HIDDEN, brief_repr

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

_SECRET_DIE = re.compile(r"(yellow|green|red|blue|purple|orange) = [1-6]")


def _phase(core) -> str:
    return json.loads(core.observe_json(-1))["phase"]


def observed_history(start, actions: list[int], seat: int) -> list[int]:
    """The history as `seat` saw it (State.observed_history): the dice another
    seat sets in secret are HIDDEN until the dice are revealed together; every
    other move and chance outcome is public. `start` is a kernel state at the
    start of `actions`."""
    out, secret = [], []            # secret: indices of others' dice not yet revealed
    for a in actions:
        actor = start.current_player()
        sets_a_die = actor >= 0 and _SECRET_DIE.fullmatch(start.action_to_string(a))
        start.apply(a)
        if sets_a_die and actor != seat:
            secret.append(len(out))
            out.append(HIDDEN)
        else:
            out.append(a)
        if secret and _phase(start) != "dice":
            for i in secret:
                out[i] = actions[i]
            secret = []
    return out


def render(obs: dict) -> str:
    """Draw an observation (the full state, or what one seat knows) as text."""
    n, viewer = obs["players"], obs["viewer"]
    opts = obs["options"]
    lines = [f"Keyside, {n} players, {opts['scoring']} scoring tiles - year {obs['year']}, {obs['phase']}"
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


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value, what: str, lo: int, hi: int) -> int:
    if not _is_int(value) or not lo <= value <= hi:
        raise ValueError(f"{what} must be an integer {lo}..{hi}, got {brief_repr(value)}")
    return value


def _bool(value, what: str) -> int:
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false, got {brief_repr(value)}")
    return int(value)


def _one_of(value, what: str, known: list[str]) -> int:
    if not isinstance(value, str) or value not in known:
        raise ValueError(f"{what} must be one of {', '.join(known)}, got {brief_repr(value)}")
    return known.index(value)


def _colour(value, what: str, allow_none: bool = True) -> int:
    if value is None and allow_none:
        return -1
    return _one_of(value, what, COLOURS)


def _colours_mask(value, what: str) -> int:
    mask = 0
    for c in _list(value, what):
        bit = 1 << _colour(c, what, False)
        if mask & bit:
            raise ValueError(f"{what}: {c} is listed twice")
        mask |= bit
    return mask


def _list(value, what: str, length: int | None = None) -> list:
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{what} must be a list, got {brief_repr(value)}")
    if length is not None and len(value) != length:
        raise ValueError(f"{what} must list {length} entries, got {len(value)}")
    return list(value)


def _dict(value, what: str, known=None) -> dict:
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be a dict, got {brief_repr(value)}")
    if known is not None:
        bad = sorted((k for k in value if k not in known), key=str)
        if bad:
            raise ValueError(f"{what}: unknown {', '.join(map(repr, bad))}; known: {', '.join(known)}")
    return value


def _participant(value, what: str, players: int, allow_none: bool = False) -> int:
    """A seat, or (solo) "keytoma" / 1; None -> -1 where allowed."""
    if value is None and allow_none:
        return -1
    if players == 1 and value in ("keytoma", 1):
        return 1
    if _is_int(value) and 0 <= value < players:
        return value
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
    if isinstance(value, str) and value.startswith("H") and value[1:].isdigit():
        value = int(value[1:])
    return _int(value, what, 1, 12) - 1


def _harbours(facts: dict, players: int, scoring: int) -> tuple[list[int], list[int]]:
    hs = _list(facts["harbours"], "harbours", 12)
    main, dice = [], []
    pirates = _list(facts.get("pirates") or [0] * 12, "pirates", 12) if players == 1 else [0] * 12
    if players > 1 and facts.get("pirates"):
        raise ValueError("pirates: only in the solo game")
    kt_kp = (_dict(facts.get("keytoma") or {}, "keytoma").get("keyples") or [0] * 12) if players == 1 else [0] * 12
    kt_kp = _list(kt_kp, "keytoma keyples", 12)
    for h, hf in enumerate(hs):
        what = f"harbours[{h}] (H{h + 1})"
        hf = _dict(hf, what, HARBOUR_FACTS + ("indent",))
        if "indent" in hf and hf["indent"] != h + 1:
            raise ValueError(f"{what}: listed in indent order 1..12, got indent {brief_repr(hf['indent'])}")
        for need in ("tile", "score"):
            if need not in hf:
                raise ValueError(f"{what} needs {need!r}")
        tile = _one_of(hf["tile"], f"{what} tile", list("ABCDEFGHIJKL"))
        score = _int(hf["score"], f"{what} score", 1, 12) - 1
        red = _bool(hf.get("red", scoring == 1), f"{what} red")
        sailor = _colour(hf.get("sailor"), f"{what} sailor")
        owners = []
        for o in _list(hf.get("dice") or [], f"{what} dice"):
            if isinstance(o, (list, tuple)) and len(o) == 2:     # [owner, value] as observed
                o = o[0]
            if players == 1 and o in ("keytoma", KEYTOMA):
                owners.append(KEYTOMA)
            else:
                owners.append(_participant(o, f"{what} dice owner", players))
        if len(owners) > 4:
            raise ValueError(f"{what}: at most 4 dice on a harbour, got {len(owners)}")
        colour = _colour(hf.get("colour", hf.get("sailor")), f"{what} colour")
        main += [tile, score, red, sailor, colour, _bool(hf.get("resolved", False), f"{what} resolved"),
                 _int(pirates[h], f"pirates[{h}]", 0, 12), _int(kt_kp[h], f"keytoma keyples[{h}]", 0, 18)]
        dice += [len(owners)] + (owners + [-1] * 4)[:4]
    return main, dice


def _boats(facts: dict, players: int) -> list[int]:
    n = 2 if players == 2 else 3
    boats = _list(facts["boats"], "boats", n)
    vec = []
    for b, bf in enumerate(boats):
        bf = _dict(bf, f"boats[{b}]", ("at", "sailors"))
        vec += [_indent(bf.get("at"), f"boats[{b}] at"), _colours_mask(bf.get("sailors", COLOURS), f"boats[{b}] sailors")]
    return vec + [-1, 0] * (3 - n)


def _headlands(facts: dict, players: int) -> list[int]:
    vec = []
    for sp, hf in enumerate(_list(facts.get("headlands") or [None] * 12, "headlands", 12)):
        what = f"headlands[{sp}] (H{sp + 1}|H{(sp + 1) % 12 + 1})"
        if hf is None:
            vec += [-1, -1, 0]
            continue
        hf = _dict(hf, what, ("tile", "owner", "faces"))
        if hf.get("tile") == "landslide":
            if players > 1:
                raise ValueError(f"{what}: landslides are only in the solo game")
            vec += [6, -1, 0]
            continue
        tile = _one_of(hf.get("tile"), f"{what} tile", list("ABCDEF"))
        owner = _participant(hf.get("owner"), f"{what} owner", players)
        faces = hf.get("faces", sp + 1)
        if faces not in (sp + 1, (sp + 1) % 12 + 1):
            raise ValueError(f"{what} faces must be H{sp + 1} or H{(sp + 1) % 12 + 1}, got {brief_repr(faces)}")
        vec += [tile, owner, int(faces != sp + 1)]
    return vec


def _markets(facts: dict) -> list[int]:
    vec = []
    for m, mf in enumerate(_list(facts["markets"], "markets", 8)):
        mf = _dict(mf, f"markets[{m}] (M{m + 1})", ("tile", "side"))
        vec += [_one_of(mf.get("tile"), f"markets[{m}] (M{m + 1}) tile", MARKETS),
                _one_of(mf.get("side", "top"), f"markets[{m}] (M{m + 1}) side", ["top", "reverse"])]
    return vec


def _resource_locations(facts: dict, players: int) -> tuple[list[int], list[int]]:
    vec, tokens = [], [3 * players] * 3
    for r, rf in enumerate(_list(facts["resource_locations"], "resource_locations", 8)):
        what = f"resource_locations[{r}] (R{r + 1})"
        rf = _dict(rf, what, ("kind", "farm", "side", "animals", "icons", "tokens", "owner"))
        owner = rf.get("owner")
        if owner == "pirates" and players > 1:
            raise ValueError(f"{what}: pirates claim locations only in the solo game")
        if owner not in (None, "pirates"):
            _participant(owner, f"{what} owner", players)
            seat_facts = facts["seats"][owner]
            seat_kp = seat_facts.get("keyples") if isinstance(seat_facts, dict) else None
            if not isinstance(seat_kp, dict) or not seat_kp.get(f"R{r + 1}"):
                raise ValueError(f"{what}: owner P{owner} needs its keyple there (seats[{owner}].keyples R{r + 1})")
        pirates = int(owner == "pirates")
        kind = rf.get("kind")
        if kind in FIELDS:
            k = FIELDS.index(kind)
            if "tokens" in rf:
                tokens[k] = _int(rf["tokens"], f"{what} tokens", 0, 3 * players)
            vec += [5 + k, 0, pirates, -1, -1, -1, -1]
            continue
        if kind != "farm":
            raise ValueError(f"{what} kind must be farm, {', '.join(FIELDS)}; got {brief_repr(kind)}")
        farm = _int(rf.get("farm"), f"{what} farm", 1, 5) - 1
        side = _one_of(rf.get("side", "a"), f"{what} side", ["a", "b"])
        if "icons" in rf:           # as observed: [{"resource", "animal"}]
            animals = [(i or {}).get("animal") if isinstance(i, dict) else i for i in _list(rf["icons"], f"{what} icons", 4)]
        else:
            animals = _list(rf.get("animals") or [None] * 4, f"{what} animals", 4)
        vec += [farm, side, pirates] + [-1 if a is None else _one_of(a, f"{what} animals", GOODS[:3]) for a in animals]
    return vec, tokens


def _skill_held(sf: dict, what: str) -> list[int]:
    held = [0] * 18
    for t in _list(sf.get("skill_tiles") or [], f"{what} skill_tiles"):
        if not isinstance(t, (list, tuple)) or len(t) != 2 or t[1] not in _SKILL_VALUES:
            raise ValueError(f"{what} skill_tiles: each is [colour, 5|3|1], got {brief_repr(t)}")
        i = _colour(t[0], f"{what} skill_tiles", False) * 3 + _SKILL_VALUES.index(t[1])
        if held[i]:
            raise ValueError(f"{what} skill_tiles: {t[0]} {t[1]} is listed twice")
        held[i] = 1
    return held


def _seat(sf, p: int, players: int, seat: int, play: bool, dice_set: int, red: bool) -> tuple[list[int], list[int]]:
    what = f"seats[{p}]"
    sf = _dict(sf, what, SEAT_FACTS)
    kp = [0] * len(LOCATIONS)
    kp[0] = _int(sf.get("town", 0), f"{what} town", 0, 18)
    for loc, k in _dict(sf.get("keyples") or {}, f"{what} keyples").items():
        if loc not in LOCATIONS or loc == "town":
            raise ValueError(f"{what} keyples: unknown location {brief_repr(loc)}; locations are M1..M8, R1..R8, "
                             "H1..H12 (the town is its own fact 'town')")
        kp[LOCATIONS.index(loc)] = _int(k, f"{what} keyples {loc}", 0, 18)
    placed = sum(kp) + int(red)
    if placed > 18:
        raise ValueError(f"{what}: more than 18 keyples ({placed} on the island)")
    mat = _int(sf["mat"], f"{what} mat", 0, 18) if "mat" in sf else 18 - placed
    goods = _dict(sf.get("goods") or {}, f"{what} goods", GOODS)
    tracks = _dict(sf.get("tracks") or {}, f"{what} tracks", COLOURS)
    vec = [mat] + kp + [_int(goods.get(g, 0), f"{what} goods {g}", 0, 120) for g in GOODS] \
        + [_int(tracks.get(c, 0), f"{what} tracks {c}", 0, 4) for c in COLOURS] + _skill_held(sf, what)
    letters, houses = [-1] * 6, 0
    for col, b in _dict(sf.get("buildings") or {}, f"{what} buildings", COLOURS).items():
        c = COLOURS.index(col)
        if isinstance(b, dict):
            b = _dict(b, f"{what} buildings {col}", ("letter", "house"))
            letter, house = b.get("letter"), _bool(b.get("house", False), f"{what} buildings {col} house")
        else:
            letter, house = b, 0
        letters[c] = _one_of(letter, f"{what} buildings {col}", [chr(65 + i) for i in range(24)])
        houses |= house << c
    vec += letters + [houses, _letters(sf.get("headlands_built", ""), f"{what} headlands_built", "ABCDEF")]
    dice = _dict(sf.get("dice") or {}, f"{what} dice", COLOURS)
    values = [0 if dice.get(c) is None else _int(dice[c], f"{what} dice {c}", 1, 6) for c in COLOURS]
    if play:
        left = _colours_mask(sf.get("dice_left", []), f"{what} dice_left")
        n_set = 6
    else:
        if "dice_left" in sf and _colours_mask(sf["dice_left"], f"{what} dice_left") != 63:
            raise ValueError(f"{what} dice_left: all six dice are left before the reveal")
        left = 63
        if p == seat:
            given = [c for c in COLOURS if dice.get(c) is not None]
            n_set = len(given)
            if given != COLOURS[:n_set]:
                raise ValueError(f"{what} dice: secret dice are set in colour order {', '.join(COLOURS)}; "
                                 f"give the first {n_set}")
            if "dice_set" in sf and _int(sf["dice_set"], f"{what} dice_set", 0, 6) != n_set:
                raise ValueError(f"{what} dice_set: {sf['dice_set']}, but {n_set} dice are given")
        else:
            n_set = _int(sf["dice_set"], f"{what} dice_set", 0, 6) if "dice_set" in sf else dice_set
    strip = sf.get("strip")
    vec += values + [left, n_set, -1 if strip is None else _int(strip, f"{what} strip", 1, 4) - 1]
    return vec, vec[1 + len(LOCATIONS) + 7: 1 + len(LOCATIONS) + 10]


def position_params(params: dict, seat: int, facts: dict) -> list[int]:
    """The kernel's set-up vector for a position `seat` knows (layout:
    kernel/keyside/position.c; the facts: docs/keyside.md "Analysing a real table").
    The others' secret dice before the reveal and the gem bag's order are dealt at random."""
    unknown = sorted(set(facts) - set(POSITION_FACTS), key=str)
    if unknown:
        raise ValueError(f"unknown keyside position fact(s) {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(POSITION_FACTS)}")
    for need in ("year", "phase", "harbours", "boats", "markets", "resource_locations", "seats"):
        if need not in facts:
            raise ValueError(f"keyside position needs {need!r}")
    players, solo = params["players"], params["players"] == 1
    if not solo:
        for k in ("keytoma", "pirates", "flags", "beacons"):
            if facts.get(k):
                raise ValueError(f"{k}: only in the solo game")
    year = _int(facts["year"], "year", 1, 3)
    play = _one_of(facts["phase"], "phase", ["dice", "play"]) == 1
    seats = _list(facts["seats"], "seats", players)
    start = _participant(facts.get("start_player", 0), "start_player", players)
    turn = _participant(facts.get("turn", seat), "turn", players)
    red = _participant(facts.get("red_space"), "red_space", players, allow_none=True)
    head = [seat, year, int(play), start, turn, _bool(facts.get("end_triggered", False), "end_triggered"),
            _participant(facts.get("next_start_player"), "next_start_player", players, allow_none=True), red]
    main, dice = _harbours(facts, players, _SCORING[params["scoring"]])
    rls, tokens = _resource_locations(facts, players)
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
    stacks = _dict(facts.get("skill_stacks") or {}, "skill_stacks", COLOURS)
    left = []
    for c, col in enumerate(COLOURS):
        v = stacks.get(col)
        if v is None:
            v = 3 - sum(held[3 * c:3 * c + 3])
        elif isinstance(v, (list, tuple)):
            if list(v) != _SKILL_VALUES[3 - len(v):]:
                raise ValueError(f"skill_stacks {col}: the tiles left, top first, e.g. [3, 1], got {brief_repr(v)}")
            v = len(v)
        left.append(_int(v, f"skill_stacks {col}", 0, 3))
    cottages = facts.get("cottages_available")
    cmask = ((1 << 24) - 1) & ~built if cottages is None else \
        _letters(cottages, "cottages_available", "ABCDEFGHIJKLMNOPQRSTUVWX")
    bag = facts.get("gem_bag")
    full = 6 if solo else 12
    if bag is None:
        bag_vec = [max(0, full - n) for n in gems]
    else:
        bag = _dict(bag, "gem_bag", GOODS[7:] + ["count", "contents"])
        bag = _dict(bag.get("contents", bag), "gem_bag contents", GOODS[7:] + ["count"])
        bag_vec = [_int(bag.get(g, 0), f"gem_bag {g}", 0, full) for g in GOODS[7:]]
    kt = [0] * 8 + [-1] * 6
    if solo:
        ktf = _dict(facts.get("keytoma") or {}, "keytoma", ("dice", "dice_left", "keyples", "strips_left", "supply"))
        kd = _dict(ktf.get("dice") or {}, "keytoma dice", COLOURS)
        strips = 0
        for k in _list(ktf.get("strips_left", []), "keytoma strips_left"):
            strips |= 1 << (_int(k, "keytoma strips_left", 1, 4) - 1)
        flags = _list(facts.get("flags"), "flags", 3)
        beacons = _list(facts.get("beacons"), "beacons", 3)
        bvec = []
        for b, name in enumerate(beacons):
            if isinstance(name, dict):
                name = name.get("beacon")
            if not isinstance(name, str) or len(name) != 2 or name[0] != "ABC"[b] or name[1] not in "123456":
                raise ValueError(f"beacons[{b}] must be {'ABC'[b]}1..{'ABC'[b]}6, got {brief_repr(name)}")
            bvec.append(int(name[1]) - 1)
        kt = [0 if kd.get(c) is None else _int(kd[c], f"keytoma dice {c}", 1, 6) for c in COLOURS] \
            + [_colours_mask(ktf.get("dice_left", []), "keytoma dice_left"), strips] \
            + [_indent(f, f"flags[{i}]") for i, f in enumerate(flags)] + bvec
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
