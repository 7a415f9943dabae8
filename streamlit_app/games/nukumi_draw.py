"""Nukumi Onsen drawn as a town: the map's squares by kind with their icons, buildings as tiles
in their owner's colour, pioneers, NPCs and Nukumaru as pieces, the acting seat's player board
with its action spots, the building supply and the round cards (the current one raised); and
one partner board per seat (cube track, draw size, tracks, bag and drawn tokens, Helpers and
action cards as cards with their text).

Each function returns an SVG and appends to ``places`` one dict per element with an effect:
``id``, ``label``, ``rect`` (viewBox), ``tip`` (words from nukumi_text) and ``anim`` (how it
arrives when it changed since the viewer's last decision). Input and layout are nukumi.py's.
"""
from __future__ import annotations

import boardlab

from . import nukumi_text as nt
from .base import esc

MOD = boardlab.games.get("nukumi")
CELL = 64                                   # a map square
COLS, ROWS = MOD.WIDTH, MOD.N_SQ // MOD.WIDTH
MAP_W, MAP_H = COLS * CELL, ROWS * CELL
SPOTS_X, SPOTS_W = MAP_W + 10, 250          # the acting seat's player board, right of the map
SPOT_H = 40
SUPPLY_Y = MAP_H + 10                       # the building supply under the map
TILE_H = 62
ROUND_Y = SUPPLY_Y + TILE_H + 12            # the round cards under the supply
ROUND_H = 58
TOWN_W = SPOTS_X + SPOTS_W
TOWN_H = ROUND_Y + ROUND_H + 10
ROUTE_COLOURS = ["#7b2cbf", "#0b7285", "#c2255c", "#2b8a3e", "#e67700"]
SEAT_COLOURS = ["#d9432f", "#2f6fd9", "#2e9e4f", "#c98a12"]
NPC_COLOUR = "#6b6b6b"
INK = "#3b3326"
KIND_FILL = {"vacant": "#efe4c8", "helper": "#d6e6f5", "2_coins": "#f6e3a0",
             "central": "#ecc9e6", "nukumaru": "#f7d3b2", "carriage_stop": "#d8d8d2"}
RES_COLOUR = {"stone": "#8a8f98", "wood": "#9b6a3c", "networking": "#4a8fd6", "food": "#d6704a",
              "gold": "#e0b020"}
BUILDING_SHORT = {"stall": "Stall", "public bath": "Bath", "tavern": "Tavern",
                  "ryokan": "Ryokan", "playground": "Play­ground", "nukumi palace": "Palace",
                  "nukumaru statue": "Statue", "souvenir shop": "Shop"}
SQUARES = {sq["name"]: sq for sq in nt.game_data()["board"]["squares"]}


def xy(name: str) -> tuple[int, int]:
    """Top-left corner of square ``name`` (e.g. 'c4') on the map."""
    return (ord(name[0]) - ord("a")) * CELL, (int(name[1:]) - 1) * CELL


def centre(name: str) -> tuple[float, float]:
    x, y = xy(name)
    return x + CELL / 2, y + CELL / 2


def _t(x, y, s, size=11, weight=400, fill=INK, anchor="start", extra="") -> str:
    return (f"<text x='{x:.1f}' y='{y:.1f}' font-size='{size}' font-weight='{weight}' "
            f"fill='{fill}' text-anchor='{anchor}'{extra}>{esc(s)}</text>")


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[:n - 1].rstrip() + "…"


def _place(places, pid, label, rect, tip, anim=None):
    if places is not None:
        places.append({"id": pid, "label": label, "rect": tuple(rect), "tip": tip, "anim": anim})


# -- icons ------------------------------------------------------------------------------------
def icon(kind: str, x: float, y: float, sq: dict) -> str:
    """The square kind's icon in the top-right corner of the square at (x, y)."""
    cx, cy = x + CELL - 15, y + 14
    if kind == "helper":              # a little card with a person on it
        return (f"<rect x='{cx - 8}' y='{cy - 10}' width='16' height='20' rx='2' fill='#fff' "
                f"stroke='#4a78a8'/><circle cx='{cx}' cy='{cy - 3}' r='3.2' fill='#4a78a8'/>"
                f"<path d='M{cx - 5},{cy + 8} q5,-9 10,0 z' fill='#4a78a8'/>")
    if kind == "2_coins":             # two coins
        return (f"<circle cx='{cx - 3}' cy='{cy + 1}' r='7' fill='#e0b020' stroke='#8a6a00'/>"
                f"<circle cx='{cx + 3}' cy='{cy - 2}' r='7' fill='#f2c94c' stroke='#8a6a00'/>"
                + _t(cx + 3, cy + 2, "2", 9, 700, "#6b5000", "middle"))
    if kind == "carriage_stop":       # a carriage on two wheels
        return (f"<rect x='{cx - 10}' y='{cy - 9}' width='20' height='12' rx='3' fill='#7a4e2d'/>"
                f"<rect x='{cx - 7}' y='{cy - 7}' width='6' height='5' fill='#f3e6c8'/>"
                f"<rect x='{cx + 1}' y='{cy - 7}' width='6' height='5' fill='#f3e6c8'/>"
                f"<circle cx='{cx - 6}' cy='{cy + 5}' r='3.5' fill='#333'/>"
                f"<circle cx='{cx + 6}' cy='{cy + 5}' r='3.5' fill='#333'/>")
    if kind == "nukumaru":            # the die face Nukumaru lands here on
        return (f"<rect x='{cx - 9}' y='{cy - 9}' width='18' height='18' rx='4' fill='#fff' "
                f"stroke='#c0651a'/>" + _t(cx, cy + 4, f"N{sq['nukumaru']}", 9, 700, "#c0651a",
                                           "middle"))
    if kind == "central":             # a torii
        return (f"<path d='M{cx - 11},{cy - 8} h22 M{cx - 9},{cy - 4} h18' stroke='#c0392b' "
                f"stroke-width='3'/><path d='M{cx - 6},{cy - 8} v17 M{cx + 6},{cy - 8} v17' "
                f"stroke='#c0392b' stroke-width='2.5'/>")
    return ""


def pawn(cx: float, cy: float, colour: str, text: str, tag: str = "") -> str:
    """A pioneer (or an NPC): a pawn in its colour."""
    return (f"<g{tag}><path d='M{cx - 9},{cy + 11} q0,-13 9,-13 q9,0 9,13 z' fill='{colour}' "
            f"stroke='#fff' stroke-width='1.2'/><circle cx='{cx}' cy='{cy - 6}' r='5.5' "
            f"fill='{colour}' stroke='#fff' stroke-width='1.2'/>"
            + _t(cx, cy + 8.5, text, 9.5, 700, "#fff", "middle") + "</g>")


def nukumaru_piece(cx: float, cy: float, tag: str = "") -> str:
    """Nukumaru: an orange round creature with ears."""
    return (f"<g{tag}><path d='M{cx - 11},{cy - 5} l3,-10 l6,6 z M{cx + 11},{cy - 5} l-3,-10 "
            f"l-6,6 z' fill='#e07b1f'/><circle cx='{cx}' cy='{cy}' r='11' fill='#f28c28' "
            f"stroke='#7a3d00' stroke-width='1.5'/><circle cx='{cx - 4}' cy='{cy - 2}' r='1.6' "
            f"fill='#222'/><circle cx='{cx + 4}' cy='{cy - 2}' r='1.6' fill='#222'/>"
            f"<ellipse cx='{cx}' cy='{cy + 4}' rx='3' ry='2' fill='#7a3d00'/></g>")


def token(cx: float, cy: float, res: str, r: float = 7, text: str = "") -> str:
    return (f"<circle cx='{cx:.1f}' cy='{cy:.1f}' r='{r}' fill='{RES_COLOUR[res]}' stroke='#fff' "
            f"stroke-width='1'/>" + (_t(cx, cy + 3.5, text, 9, 700, "#fff", "middle") if text else ""))


# -- what changed -----------------------------------------------------------------------------
def arrivals(before: dict | None, obs: dict) -> dict:
    """What arrived since ``before`` (the viewer's view at its last decision): square ->
    (what, from square or None): a pioneer or NPC walked in, a building, Nukumaru, a cube."""
    out: dict = {}
    if not before or before.get("players") != obs.get("players"):
        return out
    for p, (was, now) in enumerate(zip(before["seats"], obs["seats"])):
        if was["square"] != now["square"]:
            out.setdefault(now["square"], (f"P{p}", was["square"]))
    old = {b["square"] for b in before.get("buildings", [])}
    for b in obs.get("buildings", []):
        if b["square"] not in old:
            out.setdefault(b["square"], ("building", None))
    if before.get("nukumaru") and obs.get("nukumaru") != before.get("nukumaru"):
        out.setdefault(obs["nukumaru"], ("nukumaru", before["nukumaru"]))
    was_npcs = before.get("npcs") or []
    for i, sq in enumerate(obs.get("npcs") or []):
        if i < len(was_npcs) and was_npcs[i] != sq:
            out.setdefault(sq, (f"n{i + 1}", was_npcs[i]))
    for key in ("npc_cubes", "nukumaru_cubes"):
        for sq in set(obs.get(key) or []) - set(before.get(key) or []):
            out.setdefault(sq, ("cube", None))
    return out


def _anim(arrived):
    if not arrived:
        return None
    what, frm = arrived
    if frm in SQUARES:
        return {"from": list(centre(frm))}
    return {"kind": "drop"} if what == "building" else {"kind": "flash"}


# -- the town ---------------------------------------------------------------------------------
def town_svg(obs: dict, places: list | None = None, *, seat: int | None = None,
             before: dict | None = None, routes: list | None = None) -> str:
    """The map, the player board of ``seat`` (the acting seat), the building supply and the
    round cards. ``routes``: NPC routes on offer (lists of squares), drawn numbered."""
    arrived = arrivals(before, obs)
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {TOWN_W} {TOWN_H}' "
           f"width='100%' style='font-family:sans-serif'>",
           f"<rect x='0' y='0' width='{MAP_W}' height='{MAP_H}' rx='8' fill='#cfe3c0'/>"]
    built = {b["square"]: b for b in obs.get("buildings", [])}
    npc_cubes = set(obs.get("npc_cubes") or [])
    nuku_cubes = set(obs.get("nukumaru_cubes") or [])
    pieces: dict[str, list] = {}
    for p, s in enumerate(obs["seats"]):
        pieces.setdefault(s["square"], []).append((SEAT_COLOURS[p % 4], f"P{p}"))
    for i, sq in enumerate(obs.get("npcs") or []):
        pieces.setdefault(sq, []).append((NPC_COLOUR, f"n{i + 1}"))
    for name, sq in SQUARES.items():
        x, y = xy(name)
        kind = sq["kind"]
        out.append(f"<rect x='{x + 2}' y='{y + 2}' width='{CELL - 4}' height='{CELL - 4}' "
                   f"rx='6' fill='{KIND_FILL[kind]}' stroke='#a89a78'/>")
        if sq["ribbon"] and kind in ("vacant", "helper", "2_coins"):
            out.append(f"<rect x='{x + 2}' y='{y + CELL - 9}' width='{CELL - 4}' height='6' "
                       f"fill='#c0392b' opacity='.6'/>")          # a ribbon: no building here
        out.append(_t(x + 5, y + 13, name, 9, 400, "#7b6d52"))
        out.append(icon(kind, x, y, sq))
        a = arrived.get(name)
        if name in built:
            b = built[name]
            colour = SEAT_COLOURS[b["owner"] % 4]
            tag = " data-place='" + name + "'" if a and a[0] == "building" else ""
            out.append(f"<g{tag}><rect x='{x + 6}' y='{y + 20}' width='{CELL - 12}' height='24' "
                       f"rx='3' fill='{colour}' stroke='#222' stroke-width='.8'/>"
                       f"<path d='M{x + 4},{y + 22} L{x + CELL / 2},{y + 13} L{x + CELL - 4},"
                       f"{y + 22} z' fill='#5b4636'/>"
                       + _t(x + CELL / 2, y + 36, BUILDING_SHORT.get(b["building"], b["building"]),
                            10, 700, "#fff", "middle") + "</g>")
        if name in npc_cubes:
            out.append(f"<rect x='{x + CELL - 19}' y='{y + 24}' width='12' height='12' "
                       f"fill='{NPC_COLOUR}' stroke='#222'/>")
        if name in nuku_cubes:
            out.append(f"<rect x='{x + 6}' y='{y + 24}' width='12' height='12' fill='#222'/>")
        if obs.get("nukumaru") == name:
            tag = " data-place='" + name + "'" if a and a[0] == "nukumaru" else ""
            out.append(nukumaru_piece(x + CELL / 2, y + CELL / 2 + 2, tag))
        for i, (colour, text) in enumerate(pieces.get(name, ())):
            # three to a row, apart: each pawn's name (9 px or more) reads on its base
            cx, cy = x + 12 + (i % 3) * 19, y + CELL - 14 - (i // 3) * 15
            tag = " data-place='" + name + "'" if a and a[0] == text else ""
            out.append(pawn(cx, cy, colour, text, tag))
        _place(places, name, f"{name}: {nt.KIND_NAME.get(kind, kind)}", (x, y, CELL, CELL),
               nt.square_tip(sq, obs), _anim(a))
    for k, (start_sq, squares) in enumerate(routes or ()):
        colour = ROUTE_COLOURS[k % len(ROUTE_COLOURS)]
        pts = [centre(s) for s in squares]
        start = centre(start_sq) if start_sq in SQUARES else pts[0]
        d = " ".join(f"{'M' if i == 0 else 'L'}{px + 3 * k:.0f},{py + 3 * k:.0f}"
                     for i, (px, py) in enumerate([start] + pts))
        out.append(f"<path d='{d}' fill='none' stroke='{colour}' stroke-width='4' "
                   f"stroke-linecap='round' stroke-linejoin='round' opacity='.8'/>")
        ex, ey = pts[-1]
        out.append(f"<circle cx='{ex + 3 * k}' cy='{ey + 3 * k}' r='9' fill='{colour}'/>"
                   + _t(ex + 3 * k, ey + 3 * k + 4, str(k + 1), 11, 700, "#fff", "middle"))
    out.append(player_board_svg(obs, seat, places))
    out.append(supply_svg(obs, places))
    out.append(round_cards_svg(obs, places, before, seat))
    out.append("</svg>")
    return "".join(out)


def player_board_svg(obs: dict, seat: int | None, places) -> str:
    """The action spots of ``seat``'s player board (or of side A's printed board with no
    seat): cost and effect on each, the ones used this round greyed."""
    side = obs.get("board_side", "A")
    used = set(obs["seats"][seat]["used"]) if seat is not None else set()
    x0 = SPOTS_X
    who = f"P{seat}'s player board" if seat is not None else "Player board"
    out = [f"<rect x='{x0}' y='0' width='{SPOTS_W}' height='{MAP_H}' rx='8' fill='#f6efe0' "
           f"stroke='#a89a78'/>",
           _t(x0 + 8, 15, f"{who} (side {side})", 11, 700)]
    if seat is not None:
        _place(places, f"board:{seat}", who, (x0, 0, SPOTS_W, 20),
               f"{who}: its action spots below; one action a turn, each spot once a round.")
    y = 22
    for s in nt.spots(side):
        name = s["name"]
        done = name in used
        fill = "#e3ddd0" if done else "#fffaf0"
        out.append(f"<rect x='{x0 + 5}' y='{y}' width='{SPOTS_W - 10}' height='{SPOT_H - 4}' "
                   f"rx='5' fill='{fill}' stroke='#c9b98f'/>")
        out.append(_t(x0 + 11, y + 14, nt.SPOT_TITLE.get(name, name), 11, 700,
                      "#9a917f" if done else INK))
        eff = nt.spot_effect(name, side, short=True).removeprefix("pay ")
        out.append(_t(x0 + 11, y + 29, _cut(eff, 48), 9.5, 400,
                      "#9a917f" if done else "#5b4f3a"))
        if done:
            out.append(_t(x0 + SPOTS_W - 12, y + 14, "used", 9, 700, "#9a917f", "end"))
        _place(places, f"spot:{name}", f"{nt.SPOT_TITLE.get(name, name)}",
               (x0 + 5, y, SPOTS_W - 10, SPOT_H - 4), nt.spot_tip(name, side, used=done))
        y += SPOT_H + 2
    return "".join(out)


def supply_svg(obs: dict, places) -> str:
    """The building supply: a tile per type with its cost, points and how many are left."""
    out = []
    names = MOD.BUILDINGS
    w = TOWN_W / len(names)
    left = obs.get("buildings_left") or {}
    for i, name in enumerate(names):
        b = nt.building(name)
        x = i * w
        n = left.get(name, b["count"])
        out.append(f"<rect x='{x + 3:.1f}' y='{SUPPLY_Y}' width='{w - 6:.1f}' height='{TILE_H}' "
                   f"rx='5' fill='{'#fff' if n else '#e6e1d6'}' stroke='#8d7b5a'/>"
                   f"<path d='M{x + 3:.1f},{SUPPLY_Y + 14} L{x + w / 2:.1f},{SUPPLY_Y + 3} "
                   f"L{x + w - 3:.1f},{SUPPLY_Y + 14}' fill='none' stroke='#5b4636' stroke-width='2'/>")
        out.append(_t(x + w / 2, SUPPLY_Y + 27, nt.title(name), 10 if len(name) < 14 else 9.5,
                      700, INK, "middle"))
        pts = "fun" if b["points"] == "fun" else f"{b['points']} pts"
        out.append(_t(x + w / 2, SUPPLY_Y + 40, f"{pts} · {n} left", 9, 400, "#5b4f3a", "middle"))
        k = len(b["cost"]) + (1 if b.get("coins") else 0)
        for j, slot in enumerate(b["cost"]):
            cx = x + w / 2 + (j - (k - 1) / 2) * 15
            res = slot.split("|")[0] if slot != "any" else None
            out.append(token(cx, SUPPLY_Y + 52, res, 6) if res else
                       f"<circle cx='{cx:.1f}' cy='{SUPPLY_Y + 52}' r='6' fill='#fff' stroke='#888'/>")
        if b.get("coins"):
            cx = x + w / 2 + (k - 1 - (k - 1) / 2) * 15
            out.append(f"<circle cx='{cx:.1f}' cy='{SUPPLY_Y + 52}' r='6' fill='#f2c94c' "
                       f"stroke='#8a6a00'/>" + _t(cx, SUPPLY_Y + 55.5, str(b["coins"]), 9.5, 700,
                                                  "#6b5000", "middle"))
        _place(places, f"build:{name}", f"{nt.title(name)}", (x + 3, SUPPLY_Y, w - 6, TILE_H),
               nt.building_tip(name, left=n))
    return "".join(out)


def round_cards_svg(obs: dict, places, before: dict | None = None, seat: int | None = None
                    ) -> str:
    """The 5 round cards in a row, the current one raised; then what ``seat`` has drawn and
    its Coins, the start player card and the Helper deck."""
    rnd = obs["round"]
    cards = obs.get("round_cards") or []
    w = 118
    out = []
    for i, rid in enumerate(cards):
        x = 4 + i * (w + 6)
        y = ROUND_Y + (0 if i == rnd else 6)
        past, now = i < rnd, i == rnd
        out.append(f"<rect x='{x}' y='{y}' width='{w}' height='{ROUND_H - 6}' rx='6' "
                   f"fill='{'#fff3c4' if now else '#ece6d8' if past else '#fffaf0'}' "
                   f"stroke='{'#c98a12' if now else '#b9ad92'}' stroke-width='{2.5 if now else 1}'/>")
        out.append(_t(x + 6, y + 14, f"Round {i + 1}" + (" (now)" if now else ""), 9, 700,
                      "#9a917f" if past else INK))
        name = nt.round_card_name(rid)
        out.append(_t(x + 6, y + 28, _cut(name, 20), 9.5, 700, "#9a917f" if past else INK))
        r = next((c for c in nt.game_data()["round_cards"]["cards"] if c["id"] == rid), None)
        eff = nt.effects_text(r["effects"], short=True) if r else rid
        out.append(_t(x + 6, y + 42, _cut(eff.replace("roll your partner's die", "partner die roll"),
                                          23), 9, 400, "#9a917f" if past else "#5b4f3a"))
        when = "This round's event." if now else ("Past." if past else "A later round.")
        changed = before is not None and before.get("round") != rnd and now
        _place(places, f"round:{i}", f"Round {i + 1}: {name}", (x, y, w, ROUND_H - 6),
               nt.round_card_tip(rid, when=when), {"kind": "flash"} if changed else None)
    x = 4 + len(cards) * (w + 6)
    cw = TOWN_W - x - 4
    sp = obs["start_player"]
    face = "face down: +1 resource a round and 7 points" if obs["start_face_down"] else "face up"
    out.append(f"<rect x='{x}' y='{ROUND_Y}' width='{cw}' height='{ROUND_H - 2}' rx='6' "
               f"fill='#fff' stroke='#b9ad92'/>")
    if seat is not None:                # what the acting seat holds: its drawn tokens, Coins
        s = obs["seats"][seat]
        drawn = [r for r in MOD.RESOURCES for _ in range(s["drawn"].get(r, 0))]
        out.append(_t(x + 6, ROUND_Y + 13, f"P{seat} drawn · {s['coins']} Coins", 9.5, 700))
        for i, r in enumerate(drawn[:14]):
            out.append(token(x + 12 + (i % 14) * 12, ROUND_Y + 24, r, 5.5))
        _place(places, f"hold:{seat}", f"P{seat}'s drawn resources and Coins",
               (x, ROUND_Y, cw, 30),
               f"P{seat} has drawn " + (", ".join(f"{n} {r}" for r, n in s["drawn"].items() if n)
                                       or "nothing left")
               + f" to pay for actions this round, and holds {s['coins']} Coins.")
    out.append(_t(x + 6, ROUND_Y + 47, f"Start P{sp} ("
                  + ("face down" if obs["start_face_down"] else "face up")
                  + f") · deck {obs['deck_size']}", 9))
    _place(places, "startcard", "Start player card", (x, ROUND_Y + 32, cw, ROUND_H - 34),
           f"Start player card: P{sp} holds it, {face}. Catching Nukumaru takes it face down. "
           f"The Helper deck holds {obs['deck_size']} cards.")
    return "".join(out)


# -- a seat's partner board ------------------------------------------------------------------
CARD_W, CARD_H = 112, 74


def _card(x, y, head, name, text, fill="#fffaf0", stroke="#b9ad92") -> str:
    lines = _wrap(text, 21)[:3]
    return (f"<rect x='{x}' y='{y}' width='{CARD_W}' height='{CARD_H}' rx='6' fill='{fill}' "
            f"stroke='{stroke}'/>" + _t(x + 6, y + 13, head, 9, 700, "#8a7a5a")
            + _t(x + 6, y + 26, name[:19], 10, 700)
            + "".join(_t(x + 6, y + 39 + 11 * k, ln, 9, 400, "#5b4f3a")
                      for k, ln in enumerate(lines)))


def _wrap(text: str, width: int) -> list[str]:
    lines, cur = [], ""
    for word in text.split():
        if cur and len(cur) + 1 + len(word) > width:
            lines.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}".strip()
    if cur:
        lines.append(cur)
    return lines


SEAT_W = TOWN_W


def seat_svg(obs: dict, p: int, places: list | None = None, before: dict | None = None) -> str:
    """Seat ``p``'s partner board (cube track, draw size), tracks, Coins, bag and drawn
    tokens, Helpers (its hand face up if the view holds it, else backs) and action cards."""
    seat = obs["seats"][p]
    colour = SEAT_COLOURS[p % 4]
    side = obs.get("partner_side", "A")
    pb = nt.partner(seat["partner"])
    out = []
    # partner board with its cube track
    out.append(f"<rect x='2' y='2' width='300' height='104' rx='8' fill='#fbf3e2' "
               f"stroke='{colour}' stroke-width='2.5'/>")
    turn = " · to move" if obs.get("current_player") == p else (" · passed" if seat["passed"] else "")
    out.append(_t(10, 18, f"P{p} · {pb['name'] if pb else '-'} ({side}){turn}", 12, 700, colour))
    if pb:
        act = nt.partner_action(seat["partner"], side, short=True).removeprefix("pay ")
        out.append(_t(10, 32, f"action: {act}"[:50], 9, 400, "#5b4f3a"))
        draw = pb[side]["draw"]
        used = seat["buildings"]
        for i in range(MOD.N_CUBES):
            cx = 18 + i * 27
            off = i < used
            out.append(f"<rect x='{cx - 9}' y='44' width='18' height='18' rx='3' "
                       f"fill='{'#fff' if off else colour}' stroke='#555'/>")
            nxt = draw[min(i + 1, len(draw) - 1)]
            out.append(_t(cx, 76, str(nxt), 9, 700 if i + 1 == used else 400,
                          "#222" if i + 1 == used else "#8a7a5a", "middle"))
        out.append(_t(10, 96, f"draw size {seat['draw_size']} · {used} built · "
                              f"{MOD.N_CUBES - used} cubes left", 10, 700))
        _place(places, f"partner:{p}", f"P{p}'s partner board {pb['name']}", (2, 2, 300, 104),
               nt.partner_tip(seat["partner"], side, used=used))
    # tracks and Coins
    for k, track in enumerate(("fun", "oishi")):
        y = 8 + k * 34
        level = seat[track]
        out.append(_t(312, y + 12, track, 10, 700))
        for i in range(6):
            on = i == level
            out.append(f"<rect x='{350 + i * 20}' y='{y}' width='18' height='18' rx='3' "
                       f"fill='{'#e07b39' if on else '#fff'}' stroke='#b9ad92'/>"
                       + _t(359 + i * 20, y + 13, str(i), 9, 700 if on else 400,
                            "#fff" if on else "#8a7a5a", "middle"))
        _place(places, f"{track}:{p}", f"P{p}'s {track} track", (310, y - 2, 162, 22),
               nt.track_tip(track, level))
    out.append(f"<circle cx='324' cy='88' r='11' fill='#f2c94c' stroke='#8a6a00'/>"
               + _t(324, 92, str(seat["coins"]), 10, 700, "#6b5000", "middle")
               + _t(340, 92, f"Coins · score {seat['score']['total']}", 10, 700))
    sc = seat["score"]
    _place(places, f"coins:{p}", f"P{p}'s Coins and score", (310, 74, 162, 28),
           f"P{p}: {seat['coins']} Coins (1 point each at the end). Score now {sc['total']}: "
           f"buildings {sc['buildings']}, Helpers {sc['helpers']}, Coins {sc['coins']}, tracks "
           f"{sc['tracks']}, start player card {sc['start_card']}, partner board "
           f"{sc['partner_end'] + sc['construction']}, action cards {sc['cards']}.")
    # bag and drawn resources
    out.append(f"<path d='M486,30 q-10,70 30,72 h60 q40,-2 30,-72 q-14,-12 -60,-12 q-46,0 -60,12 z' "
               f"fill='#d9c7a3' stroke='#8d7b5a'/>" + _t(546, 16, "bag", 10, 700, INK, "middle"))
    bag = [(r, n) for r, n in seat["bag"].items() if n]
    for i, (r, n) in enumerate(bag):
        out.append(token(508 + (i % 3) * 38, 50 + (i // 3) * 26, r, 11, str(n)))
    _place(places, f"bag:{p}", f"P{p}'s bag", (482, 18, 130, 86),
           f"P{p}'s bag: " + (", ".join(f"{n} {r}" for r, n in bag) or "empty")
           + ". Each round you draw your draw size from it; what you gain goes into it. "
             "On your boards (back at the round's end): "
           + (", ".join(f"{n} {r}" for r, n in seat["spent"].items() if n) or "nothing") + ".")
    out.append(_t(624, 16, "drawn", 10, 700))
    drawn = [r for r in MOD.RESOURCES for _ in range(seat["drawn"].get(r, 0))]
    for i, r in enumerate(drawn[:16]):
        out.append(token(634 + (i % 8) * 22, 34 + (i // 8) * 24, r, 9))
    _place(places, f"drawn:{p}", f"P{p}'s drawn resources", (620, 4, TOWN_W - 622, 70),
           f"P{p}'s drawn resources, to pay for actions this round: "
           + (", ".join(f"{n} {r}" for r, n in seat["drawn"].items() if n) or "none left") + ".")
    if seat.get("used"):
        out.append(_t(624, 96, "used: " + ", ".join(nt.SPOT_TITLE.get(u, u) for u in seat["used"])
                      [:34], 9, 400, "#5b4f3a"))
    # cards: hand, played Helpers, action cards
    cards = []
    hand = seat.get("hand")
    if hand is not None:
        cards += [("hand", h) for h in hand]
    else:
        cards += [("back", i) for i in range(seat.get("hand_size", 0))]
    cards += [("played", h) for h in seat["played"]] + [("action", c) for c in seat["cards"]]
    per_row = int((SEAT_W + 6) // (CARD_W + 6))
    for i, (kind, c) in enumerate(cards):
        x, y = 2 + (i % per_row) * (CARD_W + 6), 114 + (i // per_row) * (CARD_H + 6)
        if kind == "back":
            out.append(f"<rect x='{x}' y='{y}' width='{CARD_W}' height='{CARD_H}' rx='6' "
                       f"fill='#6d8fb3' stroke='#3d5a78'/>" + _t(x + CARD_W / 2, y + 42,
                                                                 "Helper", 12, 700, "#fff", "middle"))
            _place(places, f"back:{p}:{c}", f"P{p}'s hidden Helper", (x, y, CARD_W, CARD_H),
                   f"One of P{p}'s {seat.get('hand_size', 0)} Helpers in hand: hidden from you.")
            continue
        if kind == "action":
            out.append(_card(x, y, f"action card {c}", nt.card_name(c),
                             nt.card_effect(c, short=True), "#eef6ea", "#6b9a5b"))
            _place(places, f"card:{p}:{c}", f"{c} {nt.card_name(c)}", (x, y, CARD_W, CARD_H),
                   nt.card_tip(c))
            continue
        head = f"{c} · {'in hand' if kind == 'hand' else 'played'}"
        out.append(_card(x, y, head, nt.helper_name(c), nt.helper_effect(c),
                         "#fffaf0" if kind == "hand" else "#f1ead9"))
        _place(places, f"{kind}:{p}:{c}", f"{c} {nt.helper_name(c)}", (x, y, CARD_W, CARD_H),
               nt.helper_tip(c) + (" Played." if kind == "played" else " In hand."))
    rows = max(1, -(-len(cards) // per_row))
    height = 114 + rows * (CARD_H + 6) if cards else 112
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {SEAT_W} {height}' "
            f"width='100%' style='font-family:sans-serif'>" + "".join(out) + "</svg>")


def offer_svg(obs: dict, places: list | None = None) -> str:
    """The cards on offer: the action cards still face up (base game), or the advanced
    rows of 3 face-up Helpers and 3 action cards."""
    out, items = [], []
    if obs.get("advanced"):
        items += [("helper", h, i) for i, h in enumerate(obs.get("helper_row") or [])]
        items += [("card", c, i) for i, c in enumerate(obs.get("card_row") or [])]
    else:
        items += [("card", c, i) for i, c in enumerate(obs.get("cards_open") or [])]
    per_row = int((TOWN_W + 6) // (CARD_W + 6))
    for k, (kind, c, slot) in enumerate(items):
        x, y = 2 + (k % per_row) * (CARD_W + 6), 2 + (k // per_row) * (CARD_H + 6)
        if not c:
            out.append(f"<rect x='{x}' y='{y}' width='{CARD_W}' height='{CARD_H}' rx='6' "
                       f"fill='none' stroke='#ccc' stroke-dasharray='4 3'/>"
                       + _t(x + CARD_W / 2, y + 40, "empty", 10, 400, "#999", "middle"))
            continue
        if kind == "helper":
            out.append(_card(x, y, f"{c} · face-up Helper {slot + 1}", nt.helper_name(c),
                             nt.helper_effect(c)))
            _place(places, f"offer:{c}", f"{c} {nt.helper_name(c)}", (x, y, CARD_W, CARD_H),
                   nt.helper_tip(c))
        else:
            out.append(_card(x, y, f"{c} · action card", nt.card_name(c),
                             nt.card_effect(c, short=True), "#eef6ea", "#6b9a5b"))
            _place(places, f"offer:{c}", f"{c} {nt.card_name(c)}", (x, y, CARD_W, CARD_H),
                   nt.card_tip(c))
    rows = max(1, -(-len(items) // per_row))
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {TOWN_W} "
            f"{rows * (CARD_H + 6) + 2}' width='100%' style='font-family:sans-serif'>"
            + "".join(out) + "</svg>")
