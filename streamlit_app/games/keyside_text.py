"""Keyside in words: the tooltips of the harbour tiles, scoring tiles, markets, headlands, farms,
fields, skill tracks, dice strips and beacons, the text of every decision button and the "How to
play" panel.

What a component does comes from the game's data file (``data/keyside.json``, the file the
kernel's parameters are built from: harbour benefits with their tiers, markets, skill tracks,
scoring tiles, headlands, farm tiles, dice strips, solo beacons); a stand-in edited there changes
its tooltip here. Every function takes ``data`` (default: that file) so a test can edit it.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

HARBOUR_NAME = {            # the short name printed on the board (the tip is the data's text)
    "A": "animals", "B": "farming", "C": "wood", "D": "wood headland", "E": "stone",
    "F": "stone headland", "G": "wheat", "H": "building", "I": "start player",
    "J": "move + market", "K": "move + skill tile", "L": "keyples to town"}
MARKET_WORDS = {"grey 1": "grey market 1", "grey 2": "grey market 2"}
GOOD_PLURAL = {"cow": "cows", "pig": "pigs", "sheep": "sheep", "fish": "fish", "stone": "stone",
               "wheat": "wheat", "wood": "wood", "gem": "gems", "emerald": "emeralds",
               "ruby": "rubies", "sapphire": "sapphires", "keyple": "keyples"}


@lru_cache(maxsize=1)
def game_data() -> dict:
    """The component data the kernel's parameters are built from (boardlab/data/keyside.json)."""
    return json.loads(resources.files("boardlab").joinpath("data/keyside.json").read_text())


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def n_of(n: int, good: str) -> str:
    return f"{n} {good if n == 1 else GOOD_PLURAL.get(good, good + 's')}"


def arrows(text: str) -> str:
    """The data's ``a -> b`` and ``a->b`` as words: "a → b"."""
    return re.sub(r"\s*->\s*", " → ", text)


# ---------------------------------------------------------------------------- harbours
def tier_of(total: int, data=None) -> int:
    """The benefit tier (0, 1, 2) of a harbour whose dice total ``total``."""
    tiers = (data or game_data())["harbour_benefits"]["tiers"]
    for i, t in enumerate(tiers):
        if t.endswith("+"):
            if total >= int(t[:-1]):
                return i
        else:
            lo, _, hi = t.partition("-")
            if int(lo) <= total <= int(hi or lo):
                return i
    return len(tiers) - 1


def harbour_benefit(letter: str, data=None) -> str:
    """The benefit in words, its x / y / z amounts named by the dice totals they go with."""
    data = data or game_data()
    ben = data["harbour_benefits"]
    text = ben["tiles"].get(letter)
    if text is None:
        return f"harbour tile {letter} is not in the game's data"
    tiers = ben["tiers"]

    def spell(m):
        vals = [v.strip() for v in m.group(0).split("/")]
        if len(vals) != len(tiers):
            return m.group(0)
        return "(" + ", ".join(f"{v} for dice totalling {t}" for v, t in zip(vals, tiers)) + ")"
    return arrows(re.sub(r"\b\d+(?:\s*/\s*\d+)+\b", spell, text))


def harbour_tip(letter: str, dice_total: int | None = None, data=None) -> str:
    """Harbour tile ``letter``: what resolving it gives everyone with a keyple there."""
    data = data or game_data()
    name = HARBOUR_NAME.get(letter, "")
    tip = (f"Harbour tile {letter}{f' ({name})' if name else ''}: when it is resolved, everyone "
           f"with a keyple there gains: {harbour_benefit(letter, data)}.")
    if dice_total:
        tier = data["harbour_benefits"]["tiers"][tier_of(dice_total, data)]
        tip += f" Its dice total {dice_total} now: the {tier} amount."
    return tip


def scoring_tip(number: int, red: bool, data=None) -> str:
    """Harbour scoring tile ``number`` (1-12) of its black or red side."""
    data = data or game_data()
    side = "red" if red else "black"
    rows = data["scoring_tiles"][side]
    what = rows[number - 1] if 1 <= number <= len(rows) else "not in the game's data"
    return (f"Scoring tile {number} ({side}): {arrows(what)}. At the end of the game each of "
            "your keyples in this harbour scores it once more.")


def market_tip(tile: str, side: str = "top", data=None) -> str:
    """A market tile: its trade on the side up, and the other side's."""
    data = data or game_data()
    mk = next((m for m in data["markets"] if m["tile"] == tile), None)
    if mk is None:
        return f"Market {tile}: not in the game's data."
    up = mk.get(side) or mk["top"]
    other = mk.get("reverse" if side == "top" else "top")
    tip = (f"{cap(MARKET_WORDS.get(tile, tile + ' market'))}: trade {arrows(up)}. With a keyple "
           "here you may activate it (and take its colour's skill tiles)")
    if "reverse" in mk:
        tip += (f"; a used market flips at the end of the turn (other side: {arrows(other)}), "
                "or pay 1 fish to flip it")
    return tip + "."


def market_effect(tile: str, side: str = "top", data=None) -> str:
    """The trade on the side up, short ("1 fish → 2 pigs")."""
    mk = next((m for m in (data or game_data())["markets"] if m["tile"] == tile), None)
    return arrows((mk.get(side) or mk["top"])) if mk else tile


HEADLAND_LETTERS = "ABCDEF"


def headland_tip(tile: str, owner: str | None = None, faces: int | None = None, data=None) -> str:
    data = data or game_data()
    if tile == "landslide":
        return "Landslide: this headland space is blocked for the rest of the game."
    text = data["headlands"].get(tile, "not in the game's data")
    name, _, effect = text.partition(": ")
    tip = f"Headland {tile}, the {name}: {effect}"
    if faces:
        tip += f"; it faces H{faces}"
    return tip + (f". Built by {owner}." if owner else ".")


def headland_name(tile: str, data=None) -> str:
    return (data or game_data())["headlands"].get(tile, tile).partition(":")[0]


def farm_tip(farm: int, side: str, icons, owner: str | None = None, data=None) -> str:
    """Farm ``farm`` (1-5) on side ``side`` with its icons as the observation gives them."""
    parts = []
    for i, icon in enumerate(icons):
        res = icon["resource"] if isinstance(icon, dict) else icon
        animal = icon.get("animal") if isinstance(icon, dict) else None
        parts.append(f"icon {i + 1} {res}" + (f" (a {animal} on it)" if animal else ""))
    tip = (f"Farm {farm} (side {side}): an animal put on an empty icon gains that icon's "
           f"resource; {', '.join(parts)}. A keyple here owns it and its animals")
    return tip + (f"; owned by {owner}." if owner else ".")


def farm_icon_tip(farm: int, i: int, resource: str, animal: str | None) -> str:
    if animal:
        return f"Farm {farm}, icon {i + 1}: a {animal} stands on its {resource}."
    return f"Farm {farm}, icon {i + 1}: put an animal here to gain 1 {resource}."


FIELD_GOOD = {"forest": "wood", "quarry": "stone", "wheat fields": "wheat"}


def field_tip(kind: str, tokens: int, owner: str | None = None) -> str:
    good = FIELD_GOOD.get(kind, kind)
    tip = (f"The {kind}: {n_of(tokens, good + ' token')} left (farm icons of {good} take them). "
           f"Once they are gone a keyple may claim it: its owner gains double {good} from the "
           f"{good} harbour, and it scores at the end")
    return tip + (f"; owned by {owner}." if owner else ".")


def level_text(colour: str, level: int, side: str | None = None, data=None) -> str:
    """What reaching ``level`` (1-4) of the ``colour`` track does (``side``: 'left'/'right')."""
    data = data or game_data()
    rows = data["skill_tracks"].get(colour) or []
    if not 1 <= level <= len(rows):
        return f"{colour} level {level} is not in the game's data"
    text = rows[level - 1]
    m = re.fullmatch(r"L (.*) \| R (.*)", text)
    if m:
        left, right = (_words(x) for x in m.groups())
        return {"left": left, "right": right}.get(side, f"{left}, or {right}")
    return _words(text)


def _words(text: str) -> str:
    for a, b in (("build/upgrade", "build a cottage or upgrade to a house"),
                 ("advance any", "advance any track"), ("footprint move", "a keyple into a farm or field"),
                 ("keyples to town", "keyples from your mat to the town"),
                 ("1-2", "1 or 2"), ("; ", ": ")):
        text = text.replace(a, b)
    return arrows(text)


def track_tip(colour: str, level: int, data=None) -> str:
    data = data or game_data()
    rows = data["skill_tracks"].get(colour) or []
    steps = "; ".join(f"level {i + 1}: {level_text(colour, i + 1, data=data)}"
                      for i in range(len(rows)))
    return f"{cap(colour)} track, now at level {level}. {steps}."


def strip_values(strip: int, side: str, data=None) -> list[int]:
    data = data or game_data()
    row = next((s for s in data["dice_strips"]["strips"] if s["strip"] == strip), None)
    return list(row[side]) if row else []


def strip_text(strip: int, side: str, data=None) -> str:
    data = data or game_data()
    vals = strip_values(strip, side, data)
    return ", ".join(f"{c} {v}" for c, v in zip(data["colours"], vals))


def beacon_tip(beacon: str, lit: bool, data=None) -> str:
    data = data or game_data()
    cond = data["solo"]["beacons"].get(beacon, "not in the game's data")
    return (f"Beacon {beacon}: {cond.replace('>=', 'at least')}. "
            f"{'Lit.' if lit else 'Not lit yet.'} Beat Keytoma: 120 points and 2 of the 3 "
            "beacons lit (all 3 with the harder option).")


def keytoma_card_tip(colour: str, data=None) -> str:
    data = data or game_data()
    return (f"Keytoma's {colour} resolution: "
            f"{data['solo']['resolution_card'].get(colour, 'not in the game data')}.")


# ---------------------------------------------------------------------------- decisions
def _seat(obs) -> dict:
    v = obs.get("current_player")
    seats = obs.get("seats") or []
    return seats[v] if isinstance(v, int) and 0 <= v < len(seats) else {}


def _market(obs, m: int) -> dict:
    mk = (obs.get("markets") or [])[m - 1] if obs.get("markets") else None
    return mk or {}


def _harbour(obs, h: int) -> dict:
    for hb in obs.get("harbours") or []:
        if hb["indent"] == h:
            return hb
    return {}


def _next_level(obs, colour: str) -> int:
    return min(int(_seat(obs).get("tracks", {}).get(colour, 0)) + 1, 4)


def _place_words(name: str, obs) -> str:
    """A location in words, with what is there ("H5 (harbour C, wood)")."""
    if name == "town":
        return "the town"
    k = int(name[1:])
    if name[0] == "H":
        tile = _harbour(obs, k).get("tile")
        return f"{name} (harbour {tile}, {HARBOUR_NAME.get(tile, '')})" if tile else name
    if name[0] == "M":
        mk = _market(obs, k)
        return f"{name} ({mk['tile']} market)" if mk.get("tile") else name
    loc = (obs.get("resource_locations") or [None] * 8)[k - 1]
    if loc and loc["kind"] == "farm":
        return f"{name} (farm {loc['farm']})"
    return f"{name} ({loc['kind']})" if loc else name


PASS_LABEL = {
    "follow": "Don't follow", "keyple_in": "No keyple in", "move": "Move no more keyples",
    "level": "Skip this level", "market": "Activate no market", "trade": "Don't trade",
    "build": "Build nothing", "headland": "Build no headland", "farm": "Place no more animals",
    "exchange": "Exchange no more", "skill_tile": "Take no skill tile", "recruit": "Keep them on the mat",
    "import_animal": "No animal", "order": "Do neither", "final_spend": "Spend no more skill tiles",
}


def decision_label(name: str, obs: dict) -> str:
    """The button text of the decision ``name`` (the kernel's notation), naming its effect;
    ``obs``: the mover's observation."""
    kind = (obs.get("task") or {}).get("kind") or obs.get("phase")
    if name == "pass":
        return PASS_LABEL.get(kind, "Pass")
    if m := re.fullmatch(r"(\w+) = (\d)", name):
        return f"{cap(m.group(1))} die: {m.group(2)}"
    if m := re.fullmatch(r"dice strip (light|deep) side", name):
        return f"Strip: {m.group(1)} side"
    if m := re.fullmatch(r"lead (\w+) (\d): boat (H\d+) -> (H\d+)", name):
        return f"{cap(m.group(1))} {m.group(2)}: sail the boat {m.group(3)} → {m.group(4)}"
    if m := re.fullmatch(r"(\w+) (\d) to mat", name):
        col = m.group(1)
        return f"{cap(col)} {m.group(2)}: advance {col}"
    if m := re.fullmatch(r"follow (\w+) (\d)", name):
        h = (obs.get("task") or {}).get("harbour")
        return f"Follow with your {m.group(1)} {m.group(2)}" + (f" on H{h}" if h else "")
    if m := re.fullmatch(r"move keyple (.+)", name):
        path = m.group(1).split(">")
        return f"Keyple {path[0]} → {path[-1]}" + (f" (via {', '.join(path[1:-1])})" if len(path) > 2 else "")
    if m := re.fullmatch(r"resolve (H\d+) \((\w)\)", name):
        return f"Resolve {m.group(1)}: {HARBOUR_NAME.get(m.group(2), m.group(2))}"
    if m := re.fullmatch(r"take (\w+)\+(\w+)", name):
        a, b = m.groups()
        return f"Take 2 {a}" if a == b else f"Take 1 {a} and 1 {b}"
    if m := re.fullmatch(r"advance (\w+)", name):
        col = m.group(1)
        return f"Advance {col} to level {_next_level(obs, col)}: {level_text(col, _next_level(obs, col))}"
    if m := re.fullmatch(r"(\w+) (\d) (left|right)", name):
        col, lvl, side = m.group(1), int(m.group(2)), m.group(3)
        return f"{cap(col)} {lvl} {side}: {level_text(col, lvl, side)}"
    if m := re.fullmatch(r"build cottage (\w) \((\w+)\)", name):
        return f"Build {m.group(2)} cottage {m.group(1)}"
    if m := re.fullmatch(r"upgrade (\w+) to house", name):
        return f"Upgrade your {m.group(1)} cottage to a house"
    if m := re.fullmatch(r"headland (\w) \(([\w ]+)\) (H\d+)\|(H\d+)(?: facing (H\d+))?, pay (\w+)", name):
        tile, what, h1, h2, face, pay = m.groups()
        cost = (obs.get("task") or {}).get("cost")
        return (f"{cap(what)} between {h1} and {h2}" + (f" facing {face}" if face else "")
                + f", pay {f'{cost} ' if cost else ''}{pay}")
    if m := re.fullmatch(r"(\w+) -> farm (\d) icon (\d) \((\w+)\)", name):
        return f"{cap(m.group(1))} onto farm {m.group(2)}'s {m.group(4)} icon: +1 {m.group(4)}"
    if m := re.fullmatch(r"activate market (M\d+) \(([\w ]+)\)", name):
        mk = _market(obs, int(m.group(1)[1:]))
        return f"Market {m.group(1)}: {market_effect(m.group(2), mk.get('side', 'top'))}"
    if m := re.fullmatch(r"pay fish: flip market (M\d+) \(([\w ]+)\)", name):
        mk = _market(obs, int(m.group(1)[1:]))
        other = "reverse" if mk.get("side", "top") == "top" else "top"
        return f"Pay 1 fish: flip {m.group(1)} to {market_effect(m.group(2), other)}"
    if m := re.fullmatch(r"market ([\w ]+): (.+)", name):
        return f"Trade {arrows(m.group(2)).replace('move 2 keyples', 'move 1 or 2 keyples')}"
    if m := re.fullmatch(r"skill tile (\w+) (\d)", name):
        return f"Take a {m.group(1)} skill tile ({m.group(2)} points)"
    if m := re.fullmatch(r"spend skill tile (\w+) (\d)", name):
        return f"Spend your {m.group(1)} {m.group(2)} skill tile: advance {m.group(1)}"
    if m := re.fullmatch(r"import (\w+)", name):
        return f"A {m.group(1)} into your barn"
    if m := re.fullmatch(r"exchange (\w+) -> (\w+)", name):
        return f"Exchange a {m.group(1)} in your barn for a {m.group(2)}"
    if m := re.fullmatch(r"exchange (\w+) on farm (\d) icon (\d) -> (\w+)", name):
        return f"Exchange the {m.group(1)} on farm {m.group(2)} (icon {m.group(3)}) for a {m.group(4)}"
    if m := re.fullmatch(r"I: (.+)", name):
        return {"move": "Move 1 keyple", "market": "Activate a market",
                "skill tile": "Take a skill tile"}.get(m.group(1), m.group(1))
    if m := re.fullmatch(r"(move|market|skill tile) first", name):
        other = "market" if (obs.get("task") or {}).get("harbour_tile") == "J" else "skill tile"
        first = m.group(1)
        second = other if first == "move" else "move"
        words = {"move": "move a keyple", "market": "activate a market", "skill tile": "take a skill tile"}
        return f"First {words[first]}, then {words[second]}"
    if m := re.fullmatch(r"start player marker as (\w+)", name):
        return f"Count the start player marker as a {m.group(1)}"
    if m := re.fullmatch(r"transfer (\d) keyples? to the town", name):
        n = int(m.group(1))
        return f"{n_of(n, 'keyple')} from your mat to the town"
    if m := re.fullmatch(r"pay (\w+) from the barn", name):
        return f"Give the {m.group(1)} from your barn"
    if m := re.fullmatch(r"pay (\w+) from farm (\d) icon (\d) \((\w+)\)", name):
        return f"Give the {m.group(1)} on farm {m.group(2)}'s {m.group(4)} icon"
    return name


def log_label(name: str, obs: dict) -> str:
    """The decision ``name`` as an order to the mover that starts with its verb ("Move a
    keyple town → H3"), which the log turns into what they did ("P1 moves a keyple ...")."""
    label = decision_label(name, obs)
    if m := re.fullmatch(r"(\w+) = (\d)", name):
        return f"Set the {m.group(1)} die to {m.group(2)}"
    if m := re.fullmatch(r"dice strip (light|deep) side", name):
        return f"Set the dice from the dice strip's {m.group(1)} side"
    if m := re.fullmatch(r"lead (\w+) (\d): .*", name):
        return f"Lead with the {m.group(1)} {m.group(2)}: {label.split(': ', 1)[1]}"
    if m := re.fullmatch(r"(\w+) (\d) to mat", name):
        return f"Put your {m.group(1)} {m.group(2)} on your mat: advance {m.group(1)}"
    if m := re.fullmatch(r"(\w+) (\d) (left|right)", name):
        return f"Take {m.group(1)} {m.group(2)} {m.group(3)}: {label.split(': ', 1)[1]}"
    for pattern, order in ((r"Keyple (.*)", "Move a keyple {}"), (r"No keyple in", "Put no keyple in"),
                           (r"No animal", "Take no animal"), (r"Market (.*)", "Activate market {}"),
                           (r"(\d+ keyples? from .*)", "Send {}"), (r"A (.* into your barn)", "Take a {}")):
        if m := re.fullmatch(pattern, label):
            return order.format(*m.groups())
    if name.startswith("headland ") or re.fullmatch(r"\w+ -> farm .*", name):
        return (f"{'Build' if name.startswith('headland ') else 'Put'} a {label[:1].lower()}"
                f"{label[1:]}").replace(", pay ", ", paying ")
    if label.startswith("First "):
        return "Choose to f" + label[1:]
    return label


def decision_tip(name: str, obs: dict) -> str:
    """The longer tooltip of a decision: what it costs and what it gives, in words."""
    task = obs.get("task") or {}
    kind = task.get("kind") or obs.get("phase")
    solo = obs.get("players") == 1
    if name == "pass":
        return {"follow": "Keep your die for a later turn.",
                "keyple_in": "No keyple moves into this harbour.",
                "level": "Take neither of this level's actions.",
                "move": "Stop moving keyples (the moves left are lost)."}.get(
                    kind, "Decline this step; the game goes on with the next one.")
    if m := re.fullmatch(r"(\w+) = (\d)", name):
        hidden = ("" if solo else " The others see that you set it, not its value, until "
                  "everyone has set all six.")
        return f"Set your {m.group(1)} die to {m.group(2)} (each value once).{hidden}"
    if m := re.fullmatch(r"dice strip (light|deep) side", name):
        strip = _seat(obs).get("strip")
        vals = strip_text(strip, m.group(1)) if strip else "as the strip shows"
        hidden = "" if solo else " The others learn the values (and the side) at the reveal."
        return f"Set all six dice from your dice strip {strip or ''}, {m.group(1)} side: {vals}.{hidden}"
    if m := re.fullmatch(r"lead (\w+) (\d): boat (H\d+) -> (H\d+)", name):
        col, v, h = m.group(1), m.group(2), int(m.group(4)[1:])
        tile = _harbour(obs, h).get("tile")
        lvl = _next_level(obs, col)
        return (f"Sail the boat from {m.group(3)} to {m.group(4)}"
                + (f" (harbour {tile}, {HARBOUR_NAME.get(tile, '')})" if tile else "")
                + f": its {col} sailor and your {col} {v} land there; others may follow with a "
                f"{col} die up to {v}. You advance {col} to level {lvl} ({level_text(col, lvl)}) "
                "and may move a keyple into the harbour.")
    if m := re.fullmatch(r"(\w+) (\d) to mat", name):
        col = m.group(1)
        lvl = _next_level(obs, col)
        return (f"Put your {col} {m.group(2)} on your mat, no boat: you advance "
                f"{col} to level {lvl}: {level_text(col, lvl)}.")
    if m := re.fullmatch(r"follow (\w+) (\d)", name):
        return (f"Put your {m.group(1)} {m.group(2)} on this harbour beside the lead die (it adds "
                "to the dice total that sets the harbour's benefit); you may then move a keyple in.")
    if m := re.fullmatch(r"move keyple (.+)", name):
        path = m.group(1).split(">")
        dest = path[-1]
        return (f"Move a keyple from {_place_words(path[0], obs)} to {_place_words(dest, obs)} "
                f"along the roads {' → '.join(path)}.")
    if m := re.fullmatch(r"resolve (H\d+) \((\w)\)", name):
        hb = _harbour(obs, int(m.group(1)[1:]))
        total = sum(v for _, v in hb.get("dice", []) if v)
        tier = game_data()["harbour_benefits"]["tiers"][tier_of(total)] if total else None
        return (f"Resolve {m.group(1)} (harbour {m.group(2)}, {HARBOUR_NAME.get(m.group(2), '')}): "
                "everyone with a keyple there gains its benefit, you first"
                + (f", at the {tier} amount (dice total {total})" if tier else "") + ".")
    if name.startswith("take "):
        return "Instead of resolving a harbour: take any 2 of stone, wood and wheat."
    if m := re.fullmatch(r"advance (\w+)", name):
        return track_tip(m.group(1), _next_level(obs, m.group(1)) - 1)
    if m := re.fullmatch(r"(\w+) (\d) (left|right)", name):
        col, lvl = m.group(1), int(m.group(2))
        other = "right" if m.group(3) == "left" else "left"
        return (f"{cap(col)} level {lvl}, {m.group(3)} action: {level_text(col, lvl, m.group(3))} "
                f"(the {other} one: {level_text(col, lvl, other)}).")
    if m := re.fullmatch(r"build cottage (\w) \((\w+)\)", name):
        cost = task.get("wheat_cost")
        return (f"Build cottage {m.group(1)} on your mat's {m.group(2)} plot"
                + (f" for {cost} wheat." if cost else " for free.")
                + " Cottages and houses score on the score pad.")
    if m := re.fullmatch(r"upgrade (\w+) to house", name):
        cost = task.get("wheat_cost")
        return (f"Turn your {m.group(1)} cottage into a house"
                + (f" for {cost} wheat." if cost else " for free.") + " A house scores more.")
    if m := re.fullmatch(r"headland (\w) .*?(H\d+)\|(H\d+)(?: facing (H\d+))?, pay (\w+)", name):
        cost = task.get("cost")
        return (f"Build it on the coast between {m.group(2)} and {m.group(3)}"
                + (f", paying {cost} {m.group(5)}" if cost else f", paying {m.group(5)}") + ". "
                + headland_tip(m.group(1), faces=int(m.group(4)[1:]) if m.group(4) else None))
    if m := re.fullmatch(r"(\w+) -> farm (\d) icon (\d) \((\w+)\)", name):
        left = task.get("animals_left")
        return (f"Put a {m.group(1)} from your barn on farm {m.group(2)}, icon {m.group(3)}: you gain "
                f"1 {m.group(4)}." + (f" {n_of(left, 'animal')} may still be placed." if left else ""))
    if m := re.fullmatch(r"activate market (M\d+) \(([\w ]+)\)", name):
        return f"Use {m.group(1)}. " + market_tip(m.group(2), _market(obs, int(m.group(1)[1:])).get("side", "top"))
    if m := re.fullmatch(r"pay fish: flip market (M\d+) \(([\w ]+)\)", name):
        return f"Pay 1 fish to turn {m.group(1)} over. " + market_tip(m.group(2), "reverse"
                                                                     if _market(obs, int(m.group(1)[1:])).get("side") == "top" else "top")
    if name.startswith("market "):
        return "Make this market's trade once (a double-sided market then flips at the end of the turn)."
    if m := re.fullmatch(r"skill tile (\w+) (\d)", name):
        return (f"Take the top {m.group(1)} skill tile, worth {m.group(2)} points at the end; it may "
                f"instead be spent any time to advance {m.group(1)}.")
    if m := re.fullmatch(r"spend skill tile (\w+) (\d)", name):
        col = m.group(1)
        lvl = _next_level(obs, col)
        return (f"Give up your {col} {m.group(2)} skill tile (its points) to advance {col} to "
                f"level {lvl}: {level_text(col, lvl)}.")
    if name.startswith("import "):
        return "The track lets you take one animal into your barn."
    if name.startswith("exchange "):
        left = task.get("exchanges_left")
        return ("Swap one animal for another kind (on a farm it stays on its icon; the icon's "
                "resource is not gained again)." + (f" {left} exchanges left." if left else ""))
    if re.fullmatch(r"I: .+|\w+(?: tile)? first", name):
        return "Harbour I, J or K lets you do these; choose what comes first (or which)."
    if name.startswith("start player marker"):
        return "At the end the start player marker counts as one item of the kind you choose."
    if name.startswith("transfer"):
        return "Keyples in the town can be moved onto the island; those left on the mat may score."
    if name.startswith("pay "):
        return ("The market's trade takes this animal from there (an animal taken off a farm "
                "frees its icon to yield again).")
    return ""


HOW_TO_PLAY = """\
**Goal.** Over three years, send your keyples (little workers) into the island's harbours, build,
farm and trade. At the end each keyple in a harbour scores that harbour's **scoring tile**
(e.g. "2 fish = 3 points"), plus your buildings, gems, headlands, skill tiles and the forest,
quarry and wheat fields you hold. Most points wins; a tie shares the win.

**Set-up.** Each player has 6 keyples in the town (the middle of the island) and 12 in the store
on their mat; the boats start at set harbours, each with 6 sailors, one of each colour.

**A year.** Everyone first sets their six coloured dice in secret (each value 1–6 once), then the
dice are revealed. Taking turns:
- **While you have dice**, play one: pick a die and click the harbour its **boat** sails to (at
  least 1 and up to the die's value, either way, to a harbour without a boat or sailor, not yet
  resolved). The boat's sailor of that colour and your die land there; the others may **follow**
  with a lower or equal die of that colour; you **advance that colour's track** on your mat
  (each level gives something: wheat, animals, keyples, fish, gems, headlands) and you may
  **move a keyple** (up to 3 places along the roads) into the harbour, and so may each follower.
  Or put the die on your mat to just advance the track.
- **With no dice left**, **resolve** a harbour that holds your keyple: everyone with a keyple there
  gains its benefit (wood, stone, wheat, animals, buildings, headlands, keyple moves...), more or
  less by the dice total there. With none to resolve: take 2 stone, wood or wheat, or advance a
  track. Whoever resolves harbour **I** starts the next year.

**Any time in your turn** you may spend a skill tile to advance a track of its colour, or a fish
to flip a market to its other side.

**Markets** trade goods (a keyple there lets you use them; the market flips after use) and give
skill tiles of their colour. **Farms** turn animals into resources. The **forest, quarry and
wheat fields** hand out their goods first; once empty, a keyple can claim one: its owner gets
double from the matching harbour and 3 points at the end. **Headlands** are built between
harbours with wood or stone: A, B and C pay out when a boat docks next to them (fish, a market or
skill tile, a keyple), D, E and F score points at the end.

**How it ends.** A year ends when no harbour is left to resolve (the turn order finishes the
round first); after the third, skill tiles may be spent, the start player marker counts as one
item of your choice, and the score pad is totalled.

{players}

**At the table:** hover (or tap) anything on the island for what it does; your choices are lit or
listed beside it with their effect; the boats, keyples and dice that moved since your last
decision are ringed.
"""

PLAYERS_TEXT = {
    2: "**With 2 players:** two boats (six harbours apart); each harbour has room for 4 keyples.",
    3: "**With 3 players:** three boats (four harbours apart); each harbour has room for 5 "
       "keyples.",
    4: "**With 4 players:** three boats (four harbours apart); each harbour has room for 7 "
       "keyples.",
    1: "**Solo** against **Keytoma**: you win with at least **120 points** and **2 of your 3 "
       "beacons** lit (each beacon is a goal drawn at the start, e.g. 10 fish). You and Keytoma "
       "take turns. Keytoma rolls a die to land its middle die on the harbour under the matching "
       "**flag** (no boat, no sailor) with a keyple, and follows your landings on a roll of 2+ "
       "at a flagged harbour, 5+ elsewhere. When it resolves a harbour, the colour of the dice "
       "there decides what it does: **pirates** take harbour spaces and farms, **landslides** "
       "block headland spaces, skill tiles, gems and cottages are removed. Your used sailors are "
       "not replaced: the boats empty over the three years.",
}
SOLO_OPTIONS = (("solo_all_beacons", "all 3 beacons must be lit"),
                ("solo_keytoma_keyple", "Keytoma starts with a keyple on the island"),
                ("solo_landslide", "a landslide is placed at the start"),
                ("solo_pirates", "2 pirates are placed at the start"))
SETUP_OPTIONS = (("first_game", "**First-game set-up:** each player starts with a cottage and "
                                "a keyple in a harbour linked to it."),
                 ("dice_strips", "**Dice strips:** your dice values are set from a strip "
                                 "(light side the first year, deep side the second, either the "
                                 "third)."))


def how_to_play(params: dict | None = None) -> str:
    """The panel for a game's configuration (``params``: players, scoring, the set-up and solo
    options); every player count and option when none is given."""
    players = (params or {}).get("players")
    parts = [PLAYERS_TEXT[players]] if players in PLAYERS_TEXT else list(PLAYERS_TEXT.values())
    if params is None or players == 1:
        hard = [text for opt, text in SOLO_OPTIONS if params is None or params.get(opt)]
        if hard:
            parts.append(("Harder solo games: " if params is None else "This game is harder: ")
                         + "; ".join(hard) + ".")
    parts += [text for opt, text in SETUP_OPTIONS if params is None or params.get(opt)]
    if params and params.get("scoring"):
        side = {"mixed": "a mix of black and red sides"}.get(params["scoring"],
                                                             f"the {params['scoring']} side")
        parts.append(f"Harbour scoring tiles: **{side}**.")
    return HOW_TO_PLAY.format(players="\n\n".join(parts))
