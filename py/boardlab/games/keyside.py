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

from ..errors import HIDDEN

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
                     f"flags at H{', H'.join(map(str, obs['flags']))}; beacons {beacons} (* lit)"
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
        keyples = " ".join(f"P{q}" for q, k in enumerate(m["keyples"]) if k)
        lines.append(f"  M{i + 1} {m['tile']} ({m['trade']}) {keyples}")
    for i, r in enumerate(obs["resource_locations"]):
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
