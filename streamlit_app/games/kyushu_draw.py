"""Kyūshū drawn as SVG: squares, cards, a face-down hand, a player's map and the table (round,
pool, pick boxes, Most/Fewest cards). Pictures only, from observation dicts and the public card
data; what the player clicks and the page layout are in kyushu.py; their words in
kyushu_text.py.

The card faces (which squares a numbered card shows) are public component data, read from
the data file shipped in the wheel.
"""
from __future__ import annotations

import re
from functools import lru_cache

from boardlab.games.kyushu import col_name

from . import kyushu_text as kt
from .base import esc

# ----------------------------------------------------------------------------------------------
# Colours and component data
# ----------------------------------------------------------------------------------------------
INK = "#23262f"
PAPER = "#faf6ee"
RES = {"blue": "#2f6fd6", "brown": "#8a5a2b", "grey": "#7d8590", "purple": "#8e44ad"}
RES_LIGHT = {"blue": "#d6e4fb", "brown": "#eddcc8", "grey": "#e3e6ea", "purple": "#ead8f2"}
TERRAIN_FILL = {"lake": "#5aa9e0", "forest": "#4f9a4f", "town": "#e4b873", "hot_spring": "#ef9f93",
                "fallow": "#e9dfbd", "factory": "#4a4e5c"}
TERRAIN_NAME = kt.TERRAIN_NAME
SEAT_COLOURS = ["#d1495b", "#2e86ab", "#e0a21b", "#3f9c6d", "#7b5ea7"]
GOLD = "#f0b429"
NEW = "#10b981"          # ring round what changed since the viewer's last decision
FONT = "Helvetica, Arial, sans-serif"


@lru_cache(maxsize=None)
def card_face(card) -> tuple[list[str], list[tuple[int, int]]]:
    """(six squares row-major as printed, dual pairs) of a Map card number or a province
    id such as "S3A", from the game's data file."""
    return kt.face(card)


@lru_cache(maxsize=None)
def face_squares(card) -> list[tuple]:
    """(terrain, colour or None, factory value or None) of the six printed squares."""
    return kt.face_squares(card)


def most_fewest_text(card: int, side: str) -> str:
    return kt.game_data()["most_fewest_cards"]["cards"][card - 1][side]


def parse_square(name: str) -> tuple[int, int]:
    """(row, col) of a square name such as "c4" or "ab17" (0-based)."""
    m = re.fullmatch(r"([a-z]{1,2})(\d+)", name)
    letters, row = m.group(1), int(m.group(2)) - 1
    col = ord(letters[-1]) - ord("a") + (26 if len(letters) == 2 else 0)
    return row, col


def _text(x, y, s, size=12, weight=400, fill=INK, anchor="start", extra="") -> str:
    return (f"<text x='{x:.1f}' y='{y:.1f}' font-size='{size}' font-weight='{weight}' "
            f"fill='{fill}' text-anchor='{anchor}' font-family='{FONT}' {extra}>{esc(s)}</text>")


# ----------------------------------------------------------------------------------------------
# One square
# ----------------------------------------------------------------------------------------------
def _icon(terrain: str, colour, cx: float, cy: float, s: float, value=None) -> str:
    """The icon of a square, centred at (cx, cy), for a square of size s."""
    k = s / 34.0
    if terrain == "forest":
        out = []
        for dx, dy, sc in ((-6, 2, 0.85), (6, 1, 1.0)):
            x, y, q = cx + dx * k, cy + dy * k, sc * k
            out.append(f"<path d='M {x:.1f} {y - 11 * q:.1f} L {x + 7 * q:.1f} {y + 4 * q:.1f} "
                       f"L {x - 7 * q:.1f} {y + 4 * q:.1f} Z' fill='#1f5e2a'/>"
                       f"<rect x='{x - 1.3 * q:.1f}' y='{y + 4 * q:.1f}' width='{2.6 * q:.1f}' "
                       f"height='{4 * q:.1f}' fill='#5b3b1c'/>")
        return "".join(out)
    if terrain == "town":
        w, h = 15 * k, 9 * k
        x0, y0 = cx - w / 2, cy - h / 2 + 3 * k
        return (f"<rect x='{x0:.1f}' y='{y0:.1f}' width='{w:.1f}' height='{h:.1f}' fill='#fff7e6' "
                f"stroke='#7a4a1a' stroke-width='{k:.2f}'/>"
                f"<path d='M {x0 - 2 * k:.1f} {y0:.1f} L {cx:.1f} {y0 - 8 * k:.1f} "
                f"L {x0 + w + 2 * k:.1f} {y0:.1f} Z' fill='#b5452b'/>"
                f"<rect x='{cx - 2 * k:.1f}' y='{y0 + 3.5 * k:.1f}' width='{4 * k:.1f}' "
                f"height='{5.5 * k:.1f}' fill='#7a4a1a'/>")
    if terrain == "lake":
        out = []
        for dy in (-4, 3):
            y = cy + dy * k
            out.append(f"<path d='M {cx - 10 * k:.1f} {y:.1f} q {2.5 * k:.1f} {-3 * k:.1f} "
                       f"{5 * k:.1f} 0 t {5 * k:.1f} 0 t {5 * k:.1f} 0 t {5 * k:.1f} 0' fill='none' "
                       f"stroke='#eaf6ff' stroke-width='{1.8 * k:.2f}' stroke-linecap='round'/>")
        return "".join(out)
    if terrain == "hot_spring":
        out = [f"<path d='M {cx - 10 * k:.1f} {cy + 3 * k:.1f} Q {cx:.1f} {cy + 13 * k:.1f} "
               f"{cx + 10 * k:.1f} {cy + 3 * k:.1f} Z' fill='#fff3ef' stroke='#a8473b' "
               f"stroke-width='{k:.2f}'/>"]
        for dx in (-5, 0, 5):
            x = cx + dx * k
            out.append(f"<path d='M {x:.1f} {cy + 1 * k:.1f} q {-3 * k:.1f} {-3 * k:.1f} 0 "
                       f"{-6 * k:.1f} t 0 {-6 * k:.1f}' fill='none' stroke='#ffffff' "
                       f"stroke-width='{1.6 * k:.2f}' stroke-linecap='round'/>")
        return "".join(out)
    if terrain == "fallow":
        out = []
        for dy in (-6, 0, 6):
            y = cy + dy * k
            out.append(f"<line x1='{cx - 10 * k:.1f}' y1='{y:.1f}' x2='{cx + 10 * k:.1f}' "
                       f"y2='{y:.1f}' stroke='#b59d62' stroke-width='{1.4 * k:.2f}' "
                       f"stroke-dasharray='{3 * k:.1f} {2 * k:.1f}'/>")
        return "".join(out)
    if terrain == "production":
        c = RES.get(colour, INK)
        r = 9 * k
        return (f"<path d='M {cx:.1f} {cy - r:.1f} L {cx + r:.1f} {cy:.1f} L {cx:.1f} {cy + r:.1f} "
                f"L {cx - r:.1f} {cy:.1f} Z' fill='none' stroke='{c}' stroke-width='{2 * k:.2f}'/>"
                f"<path d='M {cx:.1f} {cy - r * .45:.1f} L {cx + r * .45:.1f} {cy:.1f} L {cx:.1f} "
                f"{cy + r * .45:.1f} L {cx - r * .45:.1f} {cy:.1f} Z' fill='{c}' fill-opacity='.45'/>")
    if terrain == "factory":
        c = RES.get(colour, "#ffffff")
        x0, y0 = cx - 10 * k, cy + 7 * k
        path = (f"M {x0:.1f} {y0:.1f} L {x0:.1f} {cy - 2 * k:.1f} L {x0 + 5 * k:.1f} "
                f"{cy - 6 * k:.1f} L {x0 + 5 * k:.1f} {cy - 2 * k:.1f} L {x0 + 10 * k:.1f} "
                f"{cy - 6 * k:.1f} L {x0 + 10 * k:.1f} {cy - 2 * k:.1f} L {x0 + 15 * k:.1f} "
                f"{cy - 6 * k:.1f} L {x0 + 15 * k:.1f} {cy - 12 * k:.1f} L {x0 + 20 * k:.1f} "
                f"{cy - 12 * k:.1f} L {x0 + 20 * k:.1f} {y0:.1f} Z")
        out = f"<path d='{path}' fill='{c}' stroke='#ffffff' stroke-width='{0.9 * k:.2f}'/>"
        if value:
            # the badge's digit as large as the badge allows: the smallest text of a map
            # sets how far a phone zooms the board in to read it (a card of a 26 px square
            # reads at 9 px as drawn)
            out += (f"<circle cx='{cx + 10 * k:.1f}' cy='{cy - 10 * k:.1f}' r='{7.2 * k:.1f}' "
                    f"fill='#ffffff'/>" + _text(cx + 10 * k, cy - 5.9 * k, str(value),
                                                round(12 * k, 1), 800, INK, "middle"))
        return out
    return ""


def _fill(terrain: str, colour) -> str:
    if terrain == "production":
        return RES_LIGHT.get(colour, "#eeeeee")
    return TERRAIN_FILL.get(terrain, "#dddddd")


def square_svg(x, y, s, terrain, colour=None, value=None) -> str:
    return (f"<rect x='{x:.1f}' y='{y:.1f}' width='{s:.1f}' height='{s:.1f}' "
            f"fill='{_fill(terrain, colour)}'/>" + _icon(terrain, colour, x + s / 2, y + s / 2, s, value))


def _token(cx, cy, r, colour) -> str:
    return (f"<circle cx='{cx:.1f}' cy='{cy:.1f}' r='{r:.1f}' fill='{RES[colour]}' stroke='#ffffff' "
            f"stroke-width='{max(r * .28, 1):.1f}'/><circle cx='{cx - r * .3:.1f}' cy='{cy - r * .3:.1f}' "
            f"r='{r * .3:.1f}' fill='#ffffff' fill-opacity='.45'/>")


def _meeple(cx, cy, s, colour) -> str:
    k = s / 34.0
    return (f"<g transform='translate({cx:.1f},{cy:.1f}) scale({k * .55:.3f})'><path d='M 0 -14 "
            f"a 5 5 0 1 1 0.1 0 M -4 -9 L -12 -4 L -11 1 L -5 -1 L -8 12 L -2 12 L 0 5 L 2 12 L 8 12 "
            f"L 5 -1 L 11 1 L 12 -4 L 4 -9 Z' fill='{colour}' stroke='#ffffff' stroke-width='2'/></g>")


# ----------------------------------------------------------------------------------------------
# A card drawn on its own (hand, pick boxes, provinces)
# ----------------------------------------------------------------------------------------------
def card_svg(card, s: float = 22, *, label=None, dim=False, standalone=True, x=0.0, y=0.0,
             ring=None, title: str = "") -> str:
    """A Map card (number) or Starting Province ("S3A") as printed: 2 rows of 3 squares;
    ``title``: the tooltip of a standalone picture."""
    _, duals = card_face(card)
    head = max(s * 0.62, 12)
    w, h = 3 * s + 6, 2 * s + head + 5
    out = [f"<g transform='translate({x:.1f},{y:.1f})'>",
           f"<rect x='0' y='0' width='{w:.1f}' height='{h:.1f}' rx='5' fill='#fffdf8' "
           f"stroke='{ring or '#9c8f74'}' stroke-width='{2.5 if ring else 1}'/>"]
    title = label if label is not None else (f"Province {card[1:]}" if isinstance(card, str)
                                             else f"No. {card}")
    out.append(_text(5, head - 2.5, title, round(head * .72, 1), 700, "#4b3d22"))
    for i, (terrain, colour, value) in enumerate(face_squares(card)):
        out.append(square_svg(3 + (i % 3) * s, head + (i // 3) * s, s, terrain, colour, value))
    for a, b in duals:
        ax, ay = 3 + (a % 3) * s + s / 2, head + (a // 3) * s + s / 2
        bx, by = 3 + (b % 3) * s + s / 2, head + (b // 3) * s + s / 2
        out.append(f"<line x1='{ax:.1f}' y1='{ay:.1f}' x2='{bx:.1f}' y2='{by:.1f}' stroke='{GOLD}' "
                   f"stroke-width='{s * .12:.1f}' stroke-opacity='.8' stroke-dasharray='{s * .15:.1f}'/>")
    out.append(f"<rect x='3' y='{head:.1f}' width='{3 * s:.1f}' height='{2 * s:.1f}' fill='none' "
               f"stroke='#2b2b2b' stroke-width='1'/>")
    if dim:
        out.append(f"<rect x='0' y='0' width='{w:.1f}' height='{h:.1f}' rx='5' fill='#ffffff' "
                   f"fill-opacity='.55'/>")
    out.append("</g>")
    if not standalone:
        return "".join(out)
    tip = f"<title>{esc(title)}</title>" if title else ""
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {w:.1f} {h:.1f}' width='{w:.1f}' "
            f"height='{h:.1f}' role='img' aria-label='card {esc(card)}'>{tip}{''.join(out)}</svg>")


def card_size(s: float = 22) -> tuple[float, float]:
    head = max(s * 0.62, 12)
    return 3 * s + 6, 2 * s + head + 5


def card_back(x, y, s=22, text="") -> str:
    w, h = card_size(s)
    return (f"<rect x='{x:.1f}' y='{y:.1f}' width='{w:.1f}' height='{h:.1f}' rx='5' fill='#2f5d62' "
            f"stroke='#1d3c40'/><rect x='{x + 4:.1f}' y='{y + 4:.1f}' width='{w - 8:.1f}' "
            f"height='{h - 8:.1f}' rx='3' fill='none' stroke='#d9c58f' stroke-opacity='.7'/>"
            + (_text(x + w / 2, y + h / 2 + 5, text, 14, 700, "#f3ead2", "middle") if text else ""))


def backs_svg(count: int, s: float = 22) -> str:
    """A face-down hand as one card-sized picture: a back with the number of cards."""
    w, h = card_size(s)
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {w + 8:.1f} {h + 4:.1f}' "
            f"role='img' aria-label='{count} cards face down'>"
            + card_back(8, 4, s) + card_back(4, 2, s) + card_back(0, 0, s, f"{count} card"
                                                                     f"{'s' if count != 1 else ''}")
            + "</svg>")


# ----------------------------------------------------------------------------------------------
# One player's map
# ----------------------------------------------------------------------------------------------
def map_svg(m: dict, *, cell: float = 40, title: str = "", title_colour: str = INK,
            highlight=None, marks=None, bounds=None, subtitle: str = "", pad: int = 1,
            rings=(), extra: str = "", geometry: dict | None = None, places=None,
            before: dict | None = None) -> str:
    """A map of an observation ({"cells", "cards", "bbox"}) as SVG: terrain squares with icons,
    resources, tiles, travelers, card outlines with their numbers, column letters and row
    numbers. ``highlight`` (a card id) is outlined in gold; ``marks`` are (row, col, label,
    active) dots, e.g. the candidate positions of a placement; ``rings``: cards placed since
    the viewer's last decision, ringed. ``extra`` is SVG added last (e.g. <defs>);
    ``geometry``, if a dict, receives where square (row, col) is drawn: its top-left corner is
    (gx + (col - left) * cell, gy + (row - top) * cell). ``places``, if a list, receives a dict
    (id "c<square>", label, rect, tip, anim) per visible square; ``before`` (the same map as
    the viewer saw it at its last decision) gives what arrived since: the squares of a new
    card drop in, a new resource or tile flashes."""
    cells = m["cells"]
    marks = marks or []
    rows = [c["row"] for c in cells] + [r for r, _, _, _ in marks]
    cols = [c["col"] for c in cells] + [c for _, c, _, _ in marks]
    if bounds is not None:
        rows += [bounds[0], bounds[2]]
        cols += [bounds[1], bounds[3]]
    if not rows:
        body = _text(12, 52, "No map yet (the Starting Province comes first).", 13, 400, "#6b6457")
        return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 360 70' width='100%' "
                f"style='max-width:360px;background:{PAPER};border-radius:10px'>"
                + _text(12, 24, title, 15, 700, title_colour) + body + "</svg>")
    top, bottom = max(min(rows) - pad, 0), min(max(rows) + pad, 31)
    left, right = max(min(cols) - pad, 0), min(max(cols) + pad, 31)
    gx, gy = 24, 46 + (17 if subtitle else 0)        # gutters: row numbers, title + letters
    W = gx + (right - left + 1) * cell + 10
    H = gy + (bottom - top + 1) * cell + 10
    W = max(W, 9 + 8.2 * len(title), 8 + 6.1 * len(subtitle), 200)

    def xy(r, c):
        return gx + (c - left) * cell, gy + (r - top) * cell

    if geometry is not None:
        geometry.update(gx=gx, gy=gy, top=top, left=left, bottom=bottom, right=right, cell=cell)
    out = [_text(8, 21, title, 16, 700, title_colour)]
    if subtitle:
        out.append(_text(8, 40, subtitle, 11.5, 400, "#5b5240"))
    for c in range(left, right + 1):
        out.append(_text(xy(top, c)[0] + cell / 2, gy - 5, col_name(c), 10, 400, "#8a8170", "middle"))
    for r in range(top, bottom + 1):
        out.append(_text(gx - 4, xy(r, left)[1] + cell / 2 + 3.5, str(r + 1), 10, 400, "#8a8170", "end"))
    # faint grid over the whole area (where cards could go)
    gw, gh = (right - left + 1) * cell, (bottom - top + 1) * cell
    out.append(f"<rect x='{gx}' y='{gy}' width='{gw}' height='{gh}' fill='#f1e9d6'/>")
    for c in range(left, right + 2):
        x = gx + (c - left) * cell
        out.append(f"<line x1='{x}' y1='{gy}' x2='{x}' y2='{gy + gh}' stroke='#e3d7bd'/>")
    for r in range(top, bottom + 2):
        y = gy + (r - top) * cell
        out.append(f"<line x1='{gx}' y1='{y}' x2='{gx + gw}' y2='{y}' stroke='#e3d7bd'/>")
    at = {(c["row"], c["col"]): c for c in cells}
    duals = {}
    arrived = _arrived(m, before)
    for c in cells:
        x, y = xy(c["row"], c["col"])
        pid = f"c{c['name']}"
        out.append(f"<g data-place='{pid}'>"
                   + square_svg(x, y, cell, c["terrain"], c["colour"], c["factory_value"]) + "</g>")
        if places is not None:
            places.append({"id": pid, "rect": (x, y, cell, cell),
                           "label": f"{c['name']}: {kt.square_name(c['terrain'], c['colour'], c['factory_value'])}",
                           "tip": kt.cell_tip(c, m.get("seat"), m.get("travelers", ())),
                           "anim": arrived.get((c["card"], c["square"]))})
        if c["tile"]:
            out.append(f"<rect x='{x + 2.5:.1f}' y='{y + 2.5:.1f}' width='{cell - 5:.1f}' "
                       f"height='{cell - 5:.1f}' rx='3' fill='none' stroke='#ffffff' stroke-width='1.6' "
                       f"stroke-dasharray='3 2'/><path d='M {x + cell - 12:.1f} {y + 2:.1f} L "
                       f"{x + cell - 2:.1f} {y + 2:.1f} L {x + cell - 2:.1f} {y + 12:.1f} Z' fill='#fff'/>"
                       f"<title>{esc(c['name'])}: terraforming tile ({TERRAIN_NAME[c['terrain']]})</title>")
        if c["terrain"] == "factory" and (c["factory_value"] or 0) >= 3 and c["card"] is not None:
            duals[(c["row"], c["col"])] = c
    # dual factories: a gold link across the shared edge of a visible pair
    for (r, col), c in duals.items():
        _, pairs = card_face(c["card"])
        mate = next((b if a == c["square"] else a for a, b in pairs if c["square"] in (a, b)), None)
        for nr, nc in ((r, col + 1), (r + 1, col)):
            o = duals.get((nr, nc))
            if o is not None and o["card"] == c["card"] and o["square"] == mate:
                x1, y1 = xy(r, col)
                x2, y2 = xy(nr, nc)
                out.append(f"<line x1='{x1 + cell / 2:.1f}' y1='{y1 + cell / 2:.1f}' "
                           f"x2='{x2 + cell / 2:.1f}' y2='{y2 + cell / 2:.1f}' stroke='{GOLD}' "
                           f"stroke-width='{cell * .14:.1f}' stroke-linecap='round'/>")
    # card outlines: thin lines inside a card, thick where the card ends
    for c in cells:
        x, y = xy(c["row"], c["col"])
        edges = (((0, -1), (x, y, x, y + cell)), ((0, 1), (x + cell, y, x + cell, y + cell)),
                 ((-1, 0), (x, y, x + cell, y)), ((1, 0), (x, y + cell, x + cell, y + cell)))
        for (dr, dc), (x1, y1, x2, y2) in edges:
            o = at.get((c["row"] + dr, c["col"] + dc))
            same = o is not None and o["card"] == c["card"]
            if same and (dr, dc) in ((0, -1), (-1, 0)):
                continue
            colour = GOLD if highlight is not None and str(c["card"]) == str(highlight) and not same \
                else ("#00000022" if same else "#2a2a2a")
            width = 3.2 if colour == GOLD else (0.8 if same else 2.0)
            out.append(f"<line x1='{x1:.1f}' y1='{y1:.1f}' x2='{x2:.1f}' y2='{y2:.1f}' "
                       f"stroke='{colour}' stroke-width='{width}' stroke-linecap='square'/>")
    # resources and travelers
    for c in cells:
        x, y = xy(c["row"], c["col"])
        if c["resource"]:
            if c["terrain"] == "production":
                out.append(_token(x + cell / 2, y + cell / 2, cell * .21, c["resource"]))
            else:
                out.append(_token(x + cell * .73, y + cell * .73, cell * .17, c["resource"]))
    # card numbers: a tag on each card's first visible square
    first = {}
    for c in sorted(cells, key=lambda c: (c["row"], c["col"])):
        first.setdefault(str(c["card"]), c)
    for card, c in first.items():
        x, y = xy(c["row"], c["col"])
        label = card if card.startswith("S") else card
        w = 6 + 6.2 * len(label)
        hl = highlight is not None and card == str(highlight)
        out.append(f"<rect x='{x + 1.5:.1f}' y='{y + 1.5:.1f}' width='{w:.1f}' height='12' rx='3' "
                   f"fill='{GOLD if hl else '#23262f'}' fill-opacity='.9'/>"
                   + _text(x + 1.5 + w / 2, y + 11, label, 10, 700, INK if hl else "#ffffff", "middle"))
    for t in m.get("travelers", []):            # after the tags: never hidden by one
        x, y = xy(t["row"], t["col"])
        out.append(f"<g><title>traveler of P{t['owner']}</title>"
                   + _meeple(x + cell * .25, y + cell * .64, cell * 1.35, t["colour"]) + "</g>")
    ring_cards = {str(x) for x in rings}
    for card in m.get("cards", []):             # placed since the viewer's last decision
        if str(card["card"]) in ring_cards:
            x, y = xy(card["row"], card["col"])
            out.append(f"<rect x='{x - 2:.1f}' y='{y - 2:.1f}' width='{card['width'] * cell + 4:.1f}' "
                       f"height='{card['height'] * cell + 4:.1f}' rx='4' fill='none' stroke='{NEW}' "
                       f"stroke-width='4'><title>placed since your last decision</title></rect>")
    for r, c, label, active in marks:           # the chosen one is the gold outline
        if active:
            continue
        x, y = xy(r, c)
        out.append(f"<g opacity='.62'><circle cx='{x + cell / 2:.1f}' cy='{y + cell / 2:.1f}' "
                   f"r='{cell * .19:.1f}' fill='#ffffff' stroke='{INK}' stroke-width='1'/>"
                   + _text(x + cell / 2, y + cell / 2 + 3.2, label, 8.5, 700, INK, "middle") + "</g>")
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {W:.0f} {H:.0f}' width='100%' "
            f"style='max-width:{W:.0f}px;background:{PAPER};border-radius:10px' role='img' "
            f"aria-label='{esc(title)}'>{''.join(out)}{extra}</svg>")


def _arrived(m: dict, before: dict | None) -> dict:
    """(card, square) -> anim of the squares of ``m`` that changed since ``before``: a new
    card's squares drop in, a new resource or terraforming tile flashes. Squares are matched
    by card and printed square, not by name (a map may be re-centred between rounds)."""
    if before is None:
        return {}
    old_cards = {str(c["card"]) for c in before.get("cards", [])}
    old = {(c["card"], c["square"]): c for c in before.get("cells", [])}
    out = {}
    for c in m["cells"]:
        key = (c["card"], c["square"])
        if str(c["card"]) not in old_cards:
            out[key] = {"kind": "drop"}
        elif key in old and ((c["resource"] and c["resource"] != old[key]["resource"])
                             or (c["tile"] and not old[key]["tile"])):
            out[key] = {"kind": "flash"}
    return out


def cell_size(m: dict, width: float = 440) -> float:
    """Squares as large as fit in about ``width`` pixels (between 26 and 48)."""
    box = m.get("bbox")
    if not box:
        return 40
    span = max(box["right"] - box["left"], box["bottom"] - box["top"] - 2) + 3
    return max(26.0, min(48.0, width / span))


def seat_map(obs: dict, seat: int) -> dict:
    """obs["maps"][seat] with the travelers standing on it (and their owners' colours)."""
    m = dict(obs["maps"][seat])
    m["travelers"] = [dict(t, colour=SEAT_COLOURS[t["owner"] % len(SEAT_COLOURS)])
                      for t in (obs.get("travelers") or {}).get("placed", [])
                      if t["host"] == seat and t.get("active", True)]
    return m


# ----------------------------------------------------------------------------------------------
# The table: round, pool, pick boxes, Most/Fewest cards
# ----------------------------------------------------------------------------------------------
PHASE_TEXT = {
    "setup": "setting up", "province": "choosing Starting Provinces",
    "first_box": "filling the pick boxes", "select": "Selection phase", "pay": "Selection phase",
    "replace": "Selection phase", "map": "Map phase", "position": "Map phase",
    "map_after": "Map phase", "terraform_resource_1": "Map phase (terraforming)",
    "terraform_resource_2": "Map phase (terraforming)", "terraform_colour": "Map phase (terraforming)",
    "terraform_fallow": "Map phase (terraforming)", "traveler_resource": "Travelers",
    "traveler_spring": "Travelers", "over": "game over",
}


def table_svg(obs: dict, viewer=None, *, places=None, before: dict | None = None) -> str:
    """Round, phase, the pool and the draw pile; the pick boxes with their cards; the
    Most/Fewest cards between neighbours. ``places``, if a list, receives a dict (id, label,
    rect, tip, anim) per element with something to say; ``before`` (the viewer's observation
    at its last decision): a pick box's new card drops in."""
    s = 26
    cw, ch = card_size(s)
    boxes = obs["pick_boxes"]
    gap = 70
    W = max(820, 24 + len(boxes) * (cw + gap))
    out = []
    found = [] if places is None else places

    def place(pid, label, rect, tip, anim=None):
        found.append({"id": pid, "label": label, "rect": tuple(round(v, 1) for v in rect),
                      "tip": tip, "anim": anim})

    phase = PHASE_TEXT.get(obs["phase"], obs["phase"].replace("_", " "))
    rnd = obs["round"]
    head = (f"Round {rnd} of 12 · {phase}" if rnd else f"Setup · {phase}")
    out.append(_text(14, 24, head, 16, 700))
    x = 14
    out.append(_text(x, 48, "POOL", 10, 700, "#7a6440", extra="letter-spacing='1.5'"))
    x += 40
    for colour, k in obs["pool"].items():
        out.append(_token(x + 8, 44, 7.5, colour) + _text(x + 20, 48, f"{k}", 12, 600))
        place(f"pool-{colour}", f"{k} {colour} resources in the pool", (x, 35, 40, 18),
              kt.pool_tip(colour, k))
        x += 46
    pile = f"Draw pile {obs['draw_pile_size']} cards"
    out.append(_text(x + 8, 48, pile, 12, 400, "#4a4f5c"))
    place("draw-pile", pile, (x + 4, 35, 6.4 * len(pile) + 8, 18),
          kt.draw_pile_tip(obs["draw_pile_size"]))
    opts = obs["options"]
    extras = [f"side {opts['side']}"] + [t for t, on in (("Most/Fewest", opts["most_fewest"]),
                                                          ("Travelers", opts["travelers"])) if on]
    out.append(_text(W - 14, 24, ", ".join(extras), 12, 400, "#5b5240", "end"))
    width = 6.4 * len(", ".join(extras)) + 8
    place("options", "Options: " + ", ".join(extras), (W - 10 - width, 10, width, 19),
          options_tip(obs))
    out.append(_text(14, 76, "PICK BOXES", 10, 700, "#7a6440", extra="letter-spacing='1.5'"))
    y0 = 84
    old_boxes = {b["box"]: b["card"] for b in (before or {}).get("pick_boxes", [])}
    for i, b in enumerate(boxes):
        x = 14 + i * (cw + gap)
        owner = b["owner"]
        label = ("your box" if owner is not None and owner == viewer else
                 f"P{owner}'s box" if owner is not None else f"middle ({b['label']})")
        colour = SEAT_COLOURS[owner % len(SEAT_COLOURS)] if owner is not None else "#7a6440"
        out.append(_text(x, y0 + 10, label, 11.5, 700, colour))
        pid = f"box{b['box']}"
        if b["card"] is not None:
            out.append(f"<g data-place='{pid}'>"
                       + card_svg(b["card"], s, standalone=False, x=x, y=y0 + 16) + "</g>")
        else:
            out.append(f"<rect x='{x}' y='{y0 + 16}' width='{cw:.1f}' height='{ch:.1f}' rx='5' "
                       f"fill='none' stroke='#b9ab8c' stroke-dasharray='4 3'/>"
                       + _text(x + cw / 2, y0 + 16 + ch / 2 + 4, "empty", 11, 400, "#9b8f75", "middle"))
        new = before is not None and b["card"] is not None and old_boxes.get(b["box"]) != b["card"]
        place(pid, label[0].upper() + label[1:] + (f": card {b['card']}" if b["card"] else ": empty"),
              (x, y0 + 16, cw, ch), kt.pick_box_tip(b, viewer, obs["players"]),
              {"kind": "drop"} if new else None)
    H = y0 + 16 + ch + 12
    mfs = obs.get("most_fewest") or []
    if mfs:
        out.append(_text(14, H + 12, "MOST/FEWEST CARDS", 10, 700, "#7a6440",
                         extra="letter-spacing='1.5'"))
        mw, mh, mx = 180, 40, 14
        for k, mf in enumerate(mfs):
            x, y = mx + (k % 4) * (mw + 10), H + 20 + (k // 4) * (mh + 8)
            a, b = mf["seats"]
            side = kt.SIDE_NAME[mf["side"]]
            crit = most_fewest_text(mf["card"], mf["side"])
            out.append(f"<rect x='{x}' y='{y}' width='{mw}' height='{mh}' rx='6' fill='#fffdf8' "
                       f"stroke='#9c8f74'/>" + _text(x + 7, y + 15, f"P{a} | P{b} · {side}", 11, 700,
                                                      "#4b3d22")
                       + _text(x + 7, y + 31, crit if len(crit) <= 30 else crit[:29] + "…", 10,
                               400, "#4b3d22"))
            place(f"mf{k}", f"{side} card between P{a} and P{b}: {crit}", (x, y, mw, mh),
                  kt.most_fewest_tip(mf, obs))
        H += 20 + ((len(mfs) + 3) // 4) * (mh + 8) + 4
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {W:.0f} {H:.0f}' width='100%' "
            f"style='max-width:{W:.0f}px;background:#f1e7d2;border-radius:12px' role='img' "
            f"aria-label='Kyushu table'>{''.join(out)}</svg>")


def options_tip(obs: dict) -> str:
    opts = obs["options"]
    text = f"Starting Provinces on side {opts['side']}."
    if opts["most_fewest"]:
        text += " Most/Fewest cards: 3 points between each pair of neighbours."
    if opts["travelers"]:
        held = (obs.get("travelers") or {}).get("held")
        text += (" Travelers: after round 6 each player may send travelers with a resource to "
                 "the neighbours' hot springs, for 1 point per forest around them."
                 + (" Left: " + ", ".join(f"P{s} {n}" for s, n in enumerate(held)) + "."
                    if held else ""))
    return text


# ----------------------------------------------------------------------------------------------
# A card on the placement board: its faces for previews, and the card turned
# ----------------------------------------------------------------------------------------------
ROTATION_DEGREES = {"horizontal": 0, "vertical": 90, "horizontal turned": 180, "vertical turned": 270}


def face_defs(card, cell: float, prefix: str) -> str:
    """<defs> with the card's six printed squares drawn at (0, 0), ids ``prefix`` + index."""
    out = ["<defs>"]
    for i, (terrain, colour, value) in enumerate(face_squares(card)):
        out.append(f"<g id='{prefix}{i}'>{square_svg(0, 0, cell, terrain, colour, value)}</g>")
    out.append("</defs>")
    return "".join(out)

def oriented_card_svg(card, rotation: str, s: float = 34, ghost: bool = False) -> str:
    """The card as it will lie: turned clockwise by the rotation (drawn at its own size:
    ``s`` 34 keeps its smallest text, a factory's badge, at 10 px); ``ghost``: faded, as
    the AI's best move drawn where it is not played yet."""
    w, h = card_size(s)
    deg = ROTATION_DEGREES.get(rotation, 0)
    W, H = (h, w) if deg in (90, 270) else (w, h)
    faded = " class='bl-ghost' opacity='.6'" if ghost else ""
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {W:.1f} {H:.1f}' width='{W:.0f}' "
            f"height='{H:.0f}' role='img' aria-label='card {esc(card)} {esc(rotation)}'>"
            f"<g{faded} transform='translate({W / 2:.1f},{H / 2:.1f}) rotate({deg}) "
            f"translate({-w / 2:.1f},{-h / 2:.1f})'>{card_svg(card, s, standalone=False)}</g></svg>")
