"""Nukumi Onsen in words: the tooltips of the squares, buildings, Helpers, action cards, round
cards, partner boards, action spots and tracks, the text of the decision buttons and the "How to
play" panel.

Every cost, effect, point value and count comes from the game's data file (``data/nukumi.json``,
the file the kernel's parameter vector is built from; ``boardlab.games.nukumi.DATA``): a
stand-in edited there changes the words here. Each function takes the data as an optional
argument (the tests pass an edited copy).
"""
from __future__ import annotations

import re

import boardlab

MOD = boardlab.games.get("nukumi")

RES_NAME = {"stone": "stone", "wood": "wood", "networking": "networking", "food": "food",
            "gold": "gold"}
KIND_NAME = {"vacant": "building site", "helper": "Helper square", "2_coins": "2 Coins square",
             "central": "Central Square", "nukumaru": "Nukumaru square",
             "carriage_stop": "Carriage Stop"}
SPOT_TITLE = {"mining": "Mining", "logging": "Logging", "planning": "Planning",
              "cooking": "Cooking", "gold mining": "Gold Mining", "recruitment": "Recruitment",
              "move (1)": "Moving 1", "move (2)": "Moving 2", "add an action": "Add an Action",
              "construction": "Construction"}


def game_data() -> dict:
    """The component data the kernel reads (boardlab/data/nukumi.json)."""
    return MOD.DATA


def title(name: str) -> str:
    """'public bath' -> 'Public Bath'."""
    return " ".join(w[:1].upper() + w[1:] for w in name.split())


def sentence(text: str) -> str:
    """``text`` ended with a full stop, unless it ends with its own ("Top Form!")."""
    return text if text.endswith((".", "!", "?")) else text + "."


def _n(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


# -- costs and effects --------------------------------------------------------------------------
def slot_text(slot: str, short: bool = False) -> str:
    """One cost slot: 'stone|gold' -> 'stone (or gold)' ('stone/gold' short), 'any' -> 'any
    resource' ('any' short)."""
    if slot == "any":
        return "any" if short else "any resource"
    first, *rest = slot.split("|")
    if short:
        return "/".join([first] + rest)
    return first + (f" (or {' or '.join(rest)})" if rest else "")


def cost_text(cost, short: bool = False, coins: int = 0) -> str:
    """A list of slots in words: 'stone (or gold) + any resource'; 'nothing' if empty;
    ``coins`` Coins added at the end."""
    if not cost and not coins:
        return "nothing"
    counted: list[list] = []
    for slot in cost:                       # 'stone (or gold) ×3' for three equal slots
        if counted and counted[-1][0] == slot:
            counted[-1][1] += 1
        else:
            counted.append([slot, 1])
    parts = [slot_text(s, short) + (f" ×{k}" if k > 1 else "") for s, k in counted]
    return " + ".join(parts + ([f"{coins} Coins"] if coins else []))


def effect_text(e, short: bool = False) -> str:
    """One effect operation (see docs/nukumi.md, "a small vocabulary") in words (``short``:
    for a button)."""
    op, args = e[0], e[1:]
    n = args[-1] if args and isinstance(args[-1], int) else 1
    if op == "gain":
        return f"+{args[1]} {args[0]}" + ("" if short else " into your bag")
    if op == "coins":
        return f"+{_n(n, 'Coin')}"
    if op == "helper":
        return f"draw {_n(n, 'Helper')}"
    if op == "play":
        return "play a Helper" if n == 1 else f"play up to {n} Helpers"
    if op == "move":
        return f"move {_n(n, 'square')}"
    if op in ("fun", "oishi"):
        return f"{op} +{n}"
    if op == "die":
        return ("roll your partner's die" if n == 1 else f"roll your partner's die {n} times")
    if op == "take_card":
        return "take an additional action card"
    if op == "coins_per_adjacent_building":
        return f"{_n(n, 'Coin')} per built square next to it"
    if op == "build":
        what = "build" if short else "build on your square (paying its cost)"
        return what if n == 1 else f"build {n} times"
    return op.replace("_", " ") + (f" {n}" if args else "")


def effects_text(effects, short: bool = False) -> str:
    """'+2 stone into your bag, draw 1 Helper' ('no effect' if none)."""
    return ", ".join(effect_text(e, short) for e in effects) or "no effect"


def _on_text(on) -> str:
    return " or ".join(SPOT_TITLE.get(a, title(a)) for a in on)


def trigger_text(trigger: str, on=()) -> str:
    return {"played": "when played",
            "after_action": f"every time after your {_on_text(on)}",
            "after_catch": "every time after you catch Nukumaru",
            "none": ""}.get(trigger, trigger)


# -- the components ----------------------------------------------------------------------------
def _by_id(items, ident):
    return next((x for x in items if x.get("id") == ident), None)


def helper_name(hid: str, data: dict | None = None) -> str:
    h = _by_id((data or game_data())["helpers"]["cards"], hid)
    return h["name"] if h else hid


def helper_effect(hid: str, data: dict | None = None) -> str:
    """'when played: +1 wood into your bag' — the short line on the card."""
    h = _by_id((data or game_data())["helpers"]["cards"], hid)
    if not h:
        return ""
    when = trigger_text(h["trigger"], h.get("on", ()))
    if h["trigger"] == "none" or not h["effects"]:
        return "no effect, points only"
    return f"{when}: {effects_text(h['effects'])}"


def helper_tip(hid: str, data: dict | None = None) -> str:
    """A Helper card: its name, what it does and when, its points."""
    data = data or game_data()
    h = _by_id(data["helpers"]["cards"], hid)
    if not h:
        return f"{hid}: not a Helper of this game"
    kind = ("Play it (Logging, Recruitment...) and it stays in front of you: "
            if h["trigger"] in ("after_action", "after_catch") else "")
    text = (f"Helper {hid} {h['name']} (rank {h['rank']}): {kind}{helper_effect(hid, data)}. "
            f"Worth {_n(h['points'], 'point')} at the end once played. "
            "Or discard it during your turn to move 1 square.")
    if h.get("stand_in"):
        text += " (Stand-in card.)"
    return text


def card_name(cid: str, data: dict | None = None) -> str:
    c = _by_id((data or game_data())["action_cards"]["cards"], cid)
    return c["name"] if c else cid


def card_effect(cid: str, data: dict | None = None, short: bool = False) -> str:
    """'pay stone → move 2 squares'."""
    c = _by_id((data or game_data())["action_cards"]["cards"], cid)
    return (f"pay {cost_text(c['cost'], short)} → {effects_text(c['effects'], short)}"
            if c else "")


def card_tip(cid: str, data: dict | None = None) -> str:
    """An additional action card: what it costs and gives as an action, its points."""
    data = data or game_data()
    c = _by_id(data["action_cards"]["cards"], cid)
    if not c:
        return f"{cid}: not an action card of this game"
    text = (f"Action card {cid} {c['name']}: an extra action for its holder, once a round — "
            f"{card_effect(cid, data)}. Worth {_n(c['points'], 'point')} at the end to its "
            "holder. Take it with Add an Action (any resource + 4 Coins, 6 with a card held; "
            "at most 2 cards).")
    if c.get("stand_in") or c.get("cost_stand_in"):
        text += " (Stand-in " + ("cost.)" if c.get("cost_stand_in") and not c.get("stand_in")
                                 else "card.)")
    return text


def round_card_name(rid: str, data: dict | None = None) -> str:
    r = _by_id((data or game_data())["round_cards"]["cards"], rid)
    return r["name"] if r else rid


def round_card_tip(rid: str, data: dict | None = None, when: str = "") -> str:
    """A round card: its event, which each pioneer may accept or decline at the round's start."""
    data = data or game_data()
    r = _by_id(data["round_cards"]["cards"], rid)
    if not r:
        return f"{rid}: not a round card of this game"
    text = (f"Round card {rid} {r['name']}: at the start of its round each pioneer may accept "
            f"{effects_text(r['effects'])} (or decline).")
    if when:
        text += f" {when}"
    if r.get("stand_in"):
        text += " (Stand-in effect.)"
    return text


def _end_text(end: dict) -> str:
    kind, pts = end.get("kind"), end.get("points", 0)
    if kind == "built_all":
        return f"{pts} points if you built a {' and a '.join(title(b) for b in end['buildings'])}"
    if kind == "per_building":
        return f"{pts} points per {title(end['building'])} you built"
    if kind == "buildings":
        return f"{pts} points with {end['count']} or more buildings"
    if kind == "track":
        return f"{pts} points with {end['track']} at level {end['level']} or more"
    if kind == "coins":
        return f"{pts} points with {end['coins']} or more Coins"
    if kind == "helpers":
        return f"{pts} points with {end['count']} or more Helpers played"
    return f"{pts} points ({kind})"


def partner(index: int, data: dict | None = None) -> dict | None:
    boards = (data or game_data())["partners"]["boards"]
    return boards[index] if 0 <= index < len(boards) else None


def partner_action(index: int, side: str, data: dict | None = None, short: bool = False) -> str:
    """'pay stone → move 1 square': the partner board's own action."""
    b = partner(index, data)
    if not b:
        return ""
    sa = b[side]["specific_action"]
    return f"pay {cost_text(sa['cost'], short)} → {effects_text(sa['effects'], short)}"


def partner_tip(index: int, side: str = "A", data: dict | None = None, used: int | None = None
                ) -> str:
    """A partner board: start ability, ongoing ability, its action, end-game points, the draw
    size and points by buildings built (``used``: cubes taken off, i.e. buildings built)."""
    data = data or game_data()
    b = partner(index, data)
    if not b:
        return "No partner board yet."
    s = b[side]
    ong = s["ongoing"]
    die = "; ".join(f"{i + 1}: {effects_text(face)}" for i, face in enumerate(s["die"]))
    pts = [(i, p) for i, p in enumerate(s["points"]) if p]
    text = (f"Partner board {b['name']} (side {side}). Start: {effects_text(s['start'])}. "
            f"Ongoing: {trigger_text(ong['trigger'], ong.get('on', ()))}, "
            f"{effects_text(ong['effects'])}. Its action (once a round): "
            f"{partner_action(index, side, data)}. End of game: {_end_text(s['end'])}. "
            f"Each building takes a cube off the board: you draw "
            f"{', '.join(map(str, s['draw']))} resources a round with 0, 1, 2… buildings")
    if pts:
        text += "; points at the end: " + ", ".join(f"{p} with {i}" for i, p in pts)
    text += f". Die: {die}."
    if used is not None:
        text += (f" Now: {_n(used, 'building')}, draw size {s['draw'][min(used, len(s['draw']) - 1)]}.")
    if s.get("stand_in") or s.get("stand_in_parts"):
        text += " (Stand-in parts.)"
    return text


def building(name: str, data: dict | None = None) -> dict | None:
    return next((b for b in (data or game_data())["buildings"] if b["name"] == name), None)


def building_effect(name: str, data: dict | None = None, short: bool = False) -> str:
    """'pay stone (or gold) ×2 → 10 points'."""
    b = building(name, data)
    if not b:
        return ""
    pts = ("points = your fun level" if b["points"] == "fun" else _n(b["points"], "point"))
    if short:
        pts = "fun-level points" if b["points"] == "fun" else f"{b['points']} pts"
    gives = f", {effects_text(b['effects'], short)}" if b["effects"] else ""
    return f"pay {cost_text(b['cost'], short, b.get('coins', 0))} → {pts}{gives}"


def building_tip(name: str, data: dict | None = None, left: int | None = None) -> str:
    """A building tile: cost, points, what it gives when built, how many are left."""
    data = data or game_data()
    b = building(name, data)
    if not b:
        return f"{name}: not a building of this game"
    count = b["count"] if left is None else left
    text = (f"{title(name)}: {building_effect(name, data)}. Built with Construction on your "
            "own square (not a ribbon square, not one built on); it takes a cube off your "
            f"partner board, so you draw more resources. {count} of {b['count']} tiles left.")
    if b.get("cost_stand_in") or b.get("count_stand_in"):
        text += " (Stand-in " + ("cost and count" if b.get("cost_stand_in") else "count") + ".)"
    return text


def spots(side: str = "A", data: dict | None = None) -> list[dict]:
    pb = (data or game_data())["player_board"]
    return (pb if side == "A" else pb["side_b"])["spots"]


def spot(name: str, side: str = "A", data: dict | None = None) -> dict | None:
    return next((s for s in spots(side, data) if s["name"] == name), None)


def spot_effect(name: str, side: str = "A", data: dict | None = None, short: bool = False) -> str:
    """'pay wood (or gold) + any resource → +2 wood into your bag, play a Helper'."""
    data = data or game_data()
    s = spot(name, side, data)
    if not s:
        return ""
    if name == "construction":
        return "pay a building's cost → build it on your square"
    if name == "add an action":
        coins = data["player_board"]["add_action_coins"]
        if short:
            return f"pay {cost_text(s['cost'], True)} + {coins[0]}/{coins[1]} Coins → a card"
        return (f"pay {cost_text(s['cost'])} + {coins[0]} Coins ({coins[1]} with a card held) → "
                f"{effects_text(s['effects'])}")
    return f"pay {cost_text(s['cost'], short)} → {effects_text(s['effects'], short)}"


def spot_tip(name: str, side: str = "A", data: dict | None = None, used: bool = False) -> str:
    s = spot(name, side, data)
    if not s:
        return f"{name}: not an action of this board"
    text = (f"{SPOT_TITLE.get(name, title(name))} (player board side {side}): "
            f"{spot_effect(name, side, data)}. Each action once a round.")
    if used:
        text += " Used this round."
    return text


def track_tip(track: str, level: int | None = None, data: dict | None = None) -> str:
    data = data or game_data()
    t = data["tracks"][track]
    bonus = (f"{', '.join(map(str, t['bonus_die_rolls']))} rolls of your partner's die"
             if track == "fun" else f"{', '.join(map(str, t['bonus_coins']))} Coins")
    pts = t["points"]["by_level"]
    text = (f"{title(track)} track, levels 0–{len(pts) - 1}: reaching level 1, 2, 3… gives "
            f"{bonus}; at the end it scores {', '.join(map(str, pts))} points by level.")
    if level is not None:
        text += f" Now at level {level}."
    return text


def square_tip(sq: dict, obs: dict | None = None) -> str:
    """A map square: its kind and what entering it does, what stands on it now."""
    data = game_data()
    name, kind = sq["name"], sq["kind"]
    obs = obs or {}
    parts = [f"{name}: {KIND_NAME.get(kind, kind)}"]
    built = {b["square"]: b for b in obs.get("buildings", [])}
    cubes = set(obs.get("npc_cubes") or [])
    used = set(obs.get("bonus_used") or [])
    if kind == "nukumaru":
        parts[0] += f" N{sq['nukumaru']} (Nukumaru goes here on a die roll of {sq['nukumaru']})"
    if kind == "helper":
        parts.append("entering it draws a Helper (once a turn, until built on)")
    elif kind == "2_coins":
        parts.append(f"entering it gives {data['two_coins_square_coins']} Coins (once a turn, "
                     "until built on)")
    elif kind == "carriage_stop":
        parts.append("from here you may ride the carriage to any other stop (no step used)")
    elif kind == "central":
        parts.append("every pioneer starts here")
    if name in used:
        parts.append("its bonus was taken this turn")
    if sq.get("ribbon"):
        parts.append("ribbon: nothing can be built here")
    elif name in built:
        b = built[name]
        parts.append(f"P{b['owner']}'s {title(b['building'])} stands here")
    elif name in cubes:
        parts.append("an NPC's cube: counts as built")
    else:
        parts.append("you may build here")
    if obs.get("nukumaru") == name:
        parts.append(f"Nukumaru is here: entering catches it ({data['catch_coins']} Coins and "
                     "the start player card face down, +1 resource and "
                     f"{data['start_player_card_points']} points)")
    who = [f"P{p}" for p, s in enumerate(obs.get("seats") or []) if s.get("square") == name]
    who += [f"NPC {i + 1}" for i, s in enumerate(obs.get("npcs") or []) if s == name]
    if who:
        parts.append(f"{', '.join(who)} here")
    if name in set(obs.get("nukumaru_cubes") or []):
        parts.append("Nukumaru was caught here")
    return "; ".join(parts) + "."


# -- decisions ---------------------------------------------------------------------------------
_RES = "stone|wood|networking|food|gold"


def log_label(name: str, obs: dict | None = None, seat: int | None = None) -> str:
    """The decision ``name`` as its button says it, in full where the button is short, for
    the log ("Sell 1 networking for 1 Coin", "Accept the event: ...")."""
    if m := re.fullmatch(rf"sell ({_RES})", name):
        return f"Sell 1 {m.group(1)} for 1 Coin"
    if m := re.fullmatch(r"(accept|decline) (E-\d\d)", name):
        r = _by_id(game_data()["round_cards"]["cards"], m.group(2))
        what = f"the event {r['name']}" if r else "the event"
        return (f"Accept {what} ({effects_text(r['effects']) if r else m.group(2)})"
                if m.group(1) == "accept" else f"Decline {what}")
    if name == "stop moving":
        return "Stop moving"
    label = decision_label(name, obs, seat)
    if name in SPOT_TITLE or name == "partner action":      # "Cooking: pay ... → ..."
        head, _, rest = label.partition(":")
        head += "" if head.lower().endswith("action") else " action"
        return f"Take {'the ' if name in SPOT_TITLE else ''}{head}:{rest}"
    return label


def chance_sentence(name: str) -> str:
    """A chance event of the log as a sentence with the names the buttons use ("P0 draws
    S-01" -> "P0 draws the Helper Tanuki", "bonus die 3" -> "The bonus die rolls 3")."""
    if m := re.fullmatch(r"(P\d) draws (S-\d\d)", name):
        return f"{m.group(1)} draws the Helper {helper_name(m.group(2))}"
    if m := re.fullmatch(r"(P\d) draws (EX-\d\d)", name):
        return f"{m.group(1)} draws the action card {card_name(m.group(2))}"
    if m := re.fullmatch(r"face up (S-\d\d|EX-\d\d)", name):
        what = (f"the Helper {helper_name(m.group(1))}" if m.group(1).startswith("S")
                else f"the action card {card_name(m.group(1))}")
        return f"{what[0].upper()}{what[1:]} is turned face up"
    if m := re.fullmatch(r"round card (E-\d\d)", name):
        return f"The round card is {round_card_name(m.group(1))}"
    if m := re.fullmatch(r"partner board (\d+) to (P\d)", name):
        b = partner(int(m.group(1)))
        return f"{m.group(2)} gets {b['name'] if b else 'partner board ' + m.group(1)} as partner"
    if m := re.fullmatch(r"(Nukumaru|bonus) die (\d+)", name):
        return f"The {m.group(1)} die rolls {m.group(2)}"
    return name


def _payment_for(obs: dict, seat: int) -> str:
    what = obs.get("paying_for")
    if not what:
        return ""
    if what in MOD.BUILDINGS:
        return f" for a {title(what)}"
    if re.fullmatch(r"EX-\d\d", what):
        return f" for {what} {card_name(what)}"
    return f" for {SPOT_TITLE.get(what, title(what))}"


# the free actions' buttons are short (a phone shows them three to a row): the full words
# are in their tooltips
SHORT_RES = {"networking": "netw."}


def decision_label(name: str, obs: dict | None = None, seat: int | None = None) -> str:
    """A decision's button text in words (``name``: its notation), naming what it gives."""
    obs = obs or {}
    side = obs.get("board_side", "A")
    pside = obs.get("partner_side", "A")
    if name in SPOT_TITLE and spot(name, side):
        if name == "construction":
            return "Construction: build on your square"
        return f"{SPOT_TITLE[name]}: {spot_effect(name, side, short=True)}"
    if m := re.fullmatch(r"build (.+)", name):
        if m.group(1) == "nothing":
            return "Build nothing"
        return f"Build a {title(m.group(1))}: {building_effect(m.group(1), short=True)}"
    if name == "build nothing":
        return "Build nothing"
    if name == "partner action":
        p = (obs.get("seats") or [{}] * 8)[seat]["partner"] if seat is not None and obs.get("seats") else -1
        b = partner(p)
        return (f"{b['name']}'s action: {partner_action(p, pside, short=True)}" if b
                else "Partner action")
    if m := re.fullmatch(r"use (EX-\d\d)", name):
        return f"Use {card_name(m.group(1))}: {card_effect(m.group(1), short=True)}"
    if m := re.fullmatch(r"take (EX-\d\d)", name):
        return f"Take {card_name(m.group(1))} ({card_effect(m.group(1), short=True)})"
    if m := re.fullmatch(r"take (S-\d\d)", name):
        return f"Take {helper_name(m.group(1))} ({helper_effect(m.group(1))})"
    if name == "draw blind":
        return "Draw a Helper from the deck (unseen)"
    if name == "take blind":
        return "Take the top action card of the deck (unseen)"
    if m := re.fullmatch(r"play (S-\d\d)", name):
        return (f"Play {helper_name(m.group(1))}: "
                f"{helper_effect(m.group(1)).removeprefix('when played: ')}")
    if name == "stop playing":
        return "Play no more Helpers"
    if m := re.fullmatch(r"discard (S-\d\d) to move", name):
        return f"Discard {helper_name(m.group(1))}: move 1"
    if m := re.fullmatch(r"pay (\d+) coins to move", name):
        return f"Pay {m.group(1)} Coins: move 1"
    if m := re.fullmatch(rf"sell ({_RES})", name):
        return f"Sell {SHORT_RES.get(m.group(1), m.group(1))} +1"
    if m := re.fullmatch(rf"pay ((?:{_RES})(?:\+(?:{_RES}))*)", name):
        return f"Pay {' + '.join(m.group(1).split('+'))}"
    if m := re.fullmatch(r"(accept|decline) (E-\d\d)", name):
        rid = m.group(2)
        r = _by_id(game_data()["round_cards"]["cards"], rid)
        eff = effects_text(r["effects"]) if r else rid
        return f"Accept: {eff}" if m.group(1) == "accept" else "Decline (take nothing)"
    if m := re.fullmatch(r"step ([a-i][1-7])", name):
        return f"Step to {m.group(1)}"
    if m := re.fullmatch(r"carriage to ([a-i][1-7])", name):
        return f"Ride the carriage to {m.group(1)}"
    if name == "stop moving":
        return "Stop moving (give up the remaining steps)"
    if name == "end turn":
        return "End turn"
    if name == "pass":
        return "Pass the round"
    if m := re.fullmatch(r"NPC (\d) route (.+)", name):
        return f"NPC {m.group(1)} walks {' → '.join(m.group(2).split('-'))}"
    return name


def decision_tip(name: str, obs: dict | None = None, seat: int | None = None) -> str:
    """A decision button's tooltip: what it costs and what it gives, in full."""
    obs = obs or {}
    side = obs.get("board_side", "A")
    pside = obs.get("partner_side", "A")
    if name in SPOT_TITLE and spot(name, side):
        return spot_tip(name, side)
    if m := re.fullmatch(r"build (.+)", name):
        if m.group(1) == "nothing":
            return "Build nothing now (the build this effect offers is given up)."
        left = (obs.get("buildings_left") or {}).get(m.group(1))
        return building_tip(m.group(1), left=left)
    if name == "partner action" and seat is not None and obs.get("seats"):
        p = obs["seats"][seat]["partner"]
        return partner_tip(p, pside, used=obs["seats"][seat]["buildings"])
    if m := re.fullmatch(r"(?:use|take) (EX-\d\d)", name):
        return card_tip(m.group(1))
    if m := re.fullmatch(r"(?:take|play) (S-\d\d)", name):
        return helper_tip(m.group(1))
    if m := re.fullmatch(r"discard (S-\d\d) to move", name):
        return (f"Free action: discard {m.group(1)} {helper_name(m.group(1))} (it scores no "
                "points then) to move your pioneer 1 square.")
    if m := re.fullmatch(r"pay (\d+) coins to move", name):
        return f"Free action: pay {m.group(1)} Coins to move your pioneer 1 square."
    if m := re.fullmatch(rf"sell ({_RES})", name):
        return (f"Free action: put 1 drawn {m.group(1)} on your partner board for 1 Coin (it "
                "goes back into your bag at the round's end). Selling your last resource ends "
                "your turn.")
    if name.startswith("pay "):
        return (f"The resources you spend{_payment_for(obs, seat)}: they go onto your boards "
                "and back into your bag at the round's end.")
    if m := re.fullmatch(r"(accept|decline) (E-\d\d)", name):
        return round_card_tip(m.group(2))
    if m := re.fullmatch(r"(?:step|carriage to) ([a-i][1-7])", name):
        return square_tip(next(s for s in game_data()["board"]["squares"]
                               if s["name"] == m.group(1)), obs)
    if name == "stop moving":
        return "End this move here; the steps left are lost."
    if name == "stop playing":
        return "Keep the rest of your Helpers in your hand."
    if name == "end turn":
        return ("Your action is done: end your turn now (free actions — sell, discard a "
                "Helper or pay 3 Coins to move, a carriage ride — are no longer possible).")
    if name == "pass":
        return ("Take no more actions this round; your drawn resources stay unused and go "
                "back into the bag at the round's end.")
    if name == "draw blind":
        return "Draw the top Helper of the deck instead of a face-up one."
    if name == "take blind":
        return "Take the top action card of the deck instead of a face-up one."
    if name.startswith("NPC "):
        return ("The NPC walks this shortest route toward Nukumaru; each buildable square it "
                "enters gets its cube and counts as built. Its walk is drawn on the map with its "
                "number; a square on this route only shows the walk on hover and chooses it.")
    return ""


HOW_TO_PLAY = """\
**Goal.** Build the best hot-spring town: the most points after **5 rounds** (a tie shares the
win). Points come from your buildings, the Helpers you played, your Coins (1 each), the fun and
oishi tracks, your partner board (its end-game ability, and points for using its last cubes),
the additional action cards you hold and the start player card (7 if you hold it face down).

**Set-up.** Your bag holds 1 Stone, 1 Wood, 1 Networking and 1 Food; your pioneer starts on the
Central Square; a die roll puts Nukumaru (the cat) on one of its six squares.

**A round.** The round card's event (accept or decline it), everyone draws a Helper, then draws
resources from their bag (as many as their partner board's draw size; +1 for the start player
card held face down). Then, in turn, each player takes **one action** a turn until everyone has
passed or run out of resources:

- an action spot of your player board (Mining, Logging, Planning, Cooking, Gold Mining,
  Recruitment, Moving, Add an Action, Construction), each once a round, paid with drawn resources
  (Gold stands for any resource, but not for Moving); hover a button to read its cost and what
  it gives;
- your partner board's own action, or an additional action card you hold (Add an Action buys
  one: 1 resource and 4 Coins, 6 Coins for a second; at most 2).

Resources you gain go into your bag (you draw them in later rounds); at the end of the round
every resource you paid or did not use goes back into the bag. Helpers are played only when an
action lets you. **Free actions** at any time in your turn: sell a resource for 1 Coin, discard a
Helper or pay 3 Coins to move 1 square, ride the carriage between stops. After your action you may
still take free actions, then click **End turn**.

**The town.** Moves are clicked on the map. Entering a Helper square draws a Helper, a 2 Coins
square gives 2 Coins; entering Nukumaru's square **catches** it: 3 Coins and the start player
card (you start the next round), then Nukumaru moves on by a die roll. Construction builds on
your own square (not a ribbon square, not one built on); each building takes a cube from your
partner board, which lets you draw more resources. The **fun** track gives die-roll bonuses, the
**oishi** track Coins, and both score at the end.

**The end.** After the 5th round everything is scored; the most points wins.

{mode}
"""

MODES = {
    "score_attack": "**Solo: Score Attack.** Three NPC pioneers start on the Central Square. At "
                    "the start of each round each NPC rolls the die and walks 2, 3 or 4 squares "
                    "(1–3, 4–5, 6) by a shortest way towards Nukumaru, putting a **cube** on each "
                    "square it could be built on: that square counts as built. An NPC that "
                    "catches Nukumaru turns the start player card face up again. Your score "
                    "earns a title: under 100 Apprentice, 100 Common, 125 Famous, 150 Nukumi "
                    "Town, 175 National, **200** World Famous Pioneer.",
    "chasing": "**Solo: Chasing Nukumaru.** Each time you catch Nukumaru a cube goes on its "
               "square, and Nukumaru never returns there. Catch it on **all six** Nukumaru "
               "squares to clear the game: within 3 rounds World Best!, 4 Very Good Job!, 5 Good "
               "Job!; not cleared after 5 rounds: Try Harder Next Time!",
    "none": "**Alone without a solo mode:** the plain game for one player; aim for your best "
            "score.",
}
ADVANCED = ("**Advanced rules:** 3 Helpers and 3 additional action cards lie face up; you may "
            "take one of them instead of drawing blind. At the end of each round the oldest "
            "face-up one goes and a new one is turned up.")


def how_to_play(params: dict | None = None) -> str:
    """The panel for a game's configuration (``params``: players, solo, advanced); the solo
    modes and the advanced rules when none is given."""
    if params is None:
        parts = ["Alone you may play a solo mode:", MODES["score_attack"], MODES["chasing"],
                 ADVANCED]
    else:
        parts = [MODES.get(params.get("solo"), MODES["none"])] if params.get("players") == 1 else []
        parts += [ADVANCED] if params.get("advanced") else []
    return HOW_TO_PLAY.format(mode="\n\n".join(parts)).rstrip() + "\n"
