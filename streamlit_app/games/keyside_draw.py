"""Keyside's pictures: the island as one SVG (town, markets M1-M8, resource locations R1-R8,
harbours H1-H12 with their boats, headland spaces, solo flags, beacons and Keytoma's dice) with
every element listed as a place (id, label, rectangle, tooltip, how it arrived since the
viewer's last decision), and the players' mats as HTML.

Geometry: harbours on a ring (H1 at the top, clockwise), the markets on an inner ring at equal
spacing, the resource locations between them; every box is placed so that no two overlap at
any player count (tests/test_app_keyside_text.py checks the boxes over many seeds). A boat sits
on the sea side of its harbour, outside the harbour's box, so the dice spaces stay visible.
"""
from __future__ import annotations

import math
import re

import boardlab

from . import keyside_text as kt
from ..board_component import viewer_word
from .base import esc

SIZE = 960
CX = CY = SIZE / 2
INK = "#1f2a33"
SEA = "#cfe8f3"
LAND = "#e7dcb8"
DIE = {"yellow": "#f2c230", "green": "#3a9d4f", "red": "#d63b3b", "blue": "#2f6fd0",
       "purple": "#8a4fc2", "orange": "#f08a24"}
SEAT = ["#ffffff", "#343a40", "#a0522d", "#e64980"]       # keyples of P0..P3 (not die colours)
SEAT_NAME = ["White", "Black", "Brown", "Pink"]
KEYTOMA = "#9c36b5"
ICON_FILL = {"gem": "#c5f6fa", "fish": "#d0ebff", "wheat": "#fff3bf", "stone": "#dee2e6", "wood": "#e9c9a0"}
ANIMAL = {"cow": ("C", "#8d6e63"), "pig": ("P", "#f783ac"), "sheep": ("S", "#f8f9fa")}
FIELD_GOOD = kt.FIELD_GOOD
MARKET_FILL = {"blue": "#a5c8f0", "green": "#b2e2b9", "orange": "#ffd0a0", "purple": "#d9c2ee",
               "grey 1": "#d0d3d6", "grey 2": "#d0d3d6", "red": "#f3b0b0", "yellow": "#f7e49a"}

HARBOUR_R, MARKET_R, RESOURCE_R, HEADLAND_R = 360, 160, 246, 380
HW, HH = 116, 92            # harbour box
MW, MH = 100, 62            # market box
RW, RH = 92, 68             # resource box
BOAT_W, BOAT_UP, BOAT_DOWN = 52, 13, 8      # the boat's box around its centre


# ---------------------------------------------------------------------------- geometry
def _polar(deg: float, r: float) -> tuple[float, float]:
    a = math.radians(deg)
    return CX + r * math.cos(a), CY + r * math.sin(a)


def _harbour_angle(h: int) -> float:            # h 0..11, H1 at the top, clockwise
    return -90 + 30 * h


def _market_angle(m: int) -> float:             # m 0..7, evenly spaced by their harbours
    return -67.5 + 45 * m


def _resource_angle(r: int) -> float:           # Rk lies between Mk and Mk+1
    return -45 + 45 * r


def location_centre(name: str) -> tuple[float, float]:
    if name == "town":
        return CX, CY
    k = int(name[1:]) - 1
    if name[0] == "H":
        return _polar(_harbour_angle(k), HARBOUR_R)
    if name[0] == "M":
        return _polar(_market_angle(k), MARKET_R)
    return _polar(_resource_angle(k), RESOURCE_R)


def location_rect(name: str) -> tuple[float, float, float, float]:
    x, y = location_centre(name)
    w, h = {"t": (96, 96), "H": (HW, HH), "M": (MW, MH), "R": (RW, RH)}[name[0]]
    return x - w / 2, y - h / 2, w, h


def headland_centre(sp: int) -> tuple[float, float]:    # space i between Hi and Hi+1
    return _polar(_harbour_angle(sp) + 15, HEADLAND_R)


def headland_rect(sp: int):
    x, y = headland_centre(sp)
    return x - 18, y - 18, 36, 36


def farm_icon_rect(r: int, i: int):
    x, y, w, h = location_rect(f"R{r + 1}")
    return x + 4 + (i % 2) * 43, y + 18 + (i // 2) * 25, 41, 23


def boat_centre(h: int) -> tuple[float, float]:
    """The boat of harbour ``h`` (0..11): on the sea side, just clear of the harbour's box."""
    a = math.radians(_harbour_angle(h))
    ux, uy = math.cos(a), math.sin(a)
    gap = 5
    need = []
    if abs(ux) > 1e-6:
        need.append((HW / 2 + BOAT_W / 2 + gap) / abs(ux))
    if abs(uy) > 1e-6:
        need.append(((HH / 2 + (BOAT_DOWN if uy < 0 else BOAT_UP) + gap) / abs(uy)))
    d = min(need)
    return CX + (HARBOUR_R + d) * ux, CY + (HARBOUR_R + d) * uy


def boat_rect(h: int):
    bx, by = boat_centre(h)
    return bx - BOAT_W / 2, by - BOAT_UP, BOAT_W, BOAT_UP + BOAT_DOWN


def town_rect():
    return CX - 48, CY - 48, 96, 96


def place_rect(pid: str):
    """The rectangle of a place id: H#, M#, R#, the town, S# (headland space), F#-# (farm icon)."""
    if pid == "town":
        return town_rect()
    if pid[0] == "S":
        return headland_rect(int(pid[1:]) - 1)
    if pid[0] == "F":
        r, i = pid[1:].split("-")
        return farm_icon_rect(int(r) - 1, int(i) - 1)
    if pid[0] == "R":
        x, y, w, h = location_rect(pid)
        return x, y, w, h
    return location_rect(pid)


# ---------------------------------------------------------------------------- pieces
def _t(x, y, s, size=12, weight=400, fill=INK, anchor="middle") -> str:
    return (f"<text x='{x:.1f}' y='{y:.1f}' font-size='{size}' font-weight='{weight}' fill='{fill}' "
            f"text-anchor='{anchor}' font-family='sans-serif'>{esc(s)}</text>")


def _die(x, y, colour, value, owner=None, size=18) -> str:
    """A die; ``owner`` (a seat, 9 for Keytoma) is written under it."""
    txt = "?" if value is None else str(value)
    fg = INK if colour in ("yellow", "orange") else "#fff"
    out = (f"<rect x='{x:.1f}' y='{y:.1f}' width='{size}' height='{size}' rx='3' fill='{DIE[colour]}' "
           f"stroke='{INK}' stroke-width='1'/>" + _t(x + size / 2, y + size * 0.72, txt, 12, 700, fg))
    if owner is not None:
        out += _t(x + size / 2, y + size + 9, "K" if owner == 9 else f"P{owner}", 9, 700)
    return out


def _keyple(x, y, fill, count=1, label=None) -> str:
    out = (f"<path d='M{x:.1f},{y - 9:.1f} a4,4 0 1,1 0.1,0 M{x - 6:.1f},{y + 7:.1f} l2,-10 h8 l2,10 z' "
           f"fill='{fill}' stroke='{INK}' stroke-width='1'/>")
    if count > 1 or label:
        out += _t(x + 9, y + 6, label or f"×{count}", 10, 700, anchor="start")
    return out


def _wrap(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + [line] if line else lines


def seat_label(q: int, n: int) -> str:
    return "You (solo)" if n == 1 else f"P{q} ({SEAT_NAME[q]})"


def _who(q, n: int) -> str:
    if q == "pirates":
        return "the pirates"
    return "you" if n == 1 else seat_label(q, n)


def _keyples_words(counts, n: int, keytoma: int = 0, pirates: int = 0) -> str:
    out = [f"{_who(q, n)} {c}" for q, c in enumerate(counts) if c]
    if keytoma:
        out.append(f"Keytoma {keytoma}")
    if pirates:
        out.append(f"pirates {pirates}")
    return ", ".join(out)


def _add(places, pid, label, rect, tip, anim=None):
    if places is not None:
        places.append({"id": pid, "label": label, "rect": tuple(round(v, 1) for v in rect),
                       "tip": tip, "anim": anim})


def _changed(before, after, keys) -> bool:
    return before is not None and any(before.get(k) != after.get(k) for k in keys)


# ---------------------------------------------------------------------------- the island
def island_svg(obs: dict, viewer=None, recent=(), places=None, before=None) -> str:
    """The island as it stands, seen by ``viewer`` (None: everything the observation shows);
    the places in ``recent`` (e.g. "H7", "M2") are ringed: the others just moved there.
    ``places``: a list that receives a dict per element (id, label, rect, tip, anim);
    ``before``: the viewer's observation at its last decision (what changed since is
    animated)."""
    solo = "keytoma" in obs
    n = obs["players"]
    data = boardlab.games.get("keyside")._DATA
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {SIZE} {SIZE}' "
             f"style='width:100%;max-width:{SIZE}px;display:block;margin:auto' role='img' "
             f"aria-label='Keyside island'>",
             f"<rect width='{SIZE}' height='{SIZE}' fill='{SEA}' rx='18'/>",
             f"<circle cx='{CX}' cy='{CY}' r='{HARBOUR_R - 24}' fill='{LAND}' stroke='#b9a877' stroke-width='3'/>"]
    for a, b in data["island"]["roads"]:
        (x1, y1), (x2, y2) = location_centre(a), location_centre(b)
        parts.append(f"<line x1='{x1:.1f}' y1='{y1:.1f}' x2='{x2:.1f}' y2='{y2:.1f}' stroke='#a8946a' "
                     "stroke-width='3' stroke-dasharray='6 4'/>")
    _town(parts, obs, places, before)
    _markets(parts, obs, places, before)
    _resources(parts, obs, places, before)
    _harbours(parts, obs, places, before)
    _headlands(parts, obs, places, before)
    for name in recent:
        x, y, w, h = place_rect(name)
        parts.append(f"<rect x='{x - 5:.1f}' y='{y - 5:.1f}' width='{w + 10}' height='{h + 10}' rx='12' "
                     "fill='none' stroke='#f59f00' stroke-width='4' class='ks-recent'/>")
    phase = {"dice": "setting dice", "play": "playing", "over": "game over"}.get(obs["phase"], obs["phase"])
    parts.append(_t(18, 28, f"Year {obs['year']} of 3 · {phase}", 16, 700, anchor="start"))
    if solo:
        _solo(parts, obs, places)
    parts.append("</svg>")
    return "".join(parts)


def _town(parts, obs, places, before):
    n = obs["players"]
    parts.append(f"<circle cx='{CX}' cy='{CY}' r='46' fill='#fff8e6' stroke='{INK}' stroke-width='2'/>")
    parts.append(_t(CX, CY - 20, "Town", 13, 700))
    counts = [s["town"] for s in obs["seats"]]
    for q, c in enumerate(counts):
        if c:
            parts.append(_keyple(CX - 30 + 36 * (q % 2), CY + 2 + 22 * (q // 2), SEAT[q], c, f"×{c}"))
    who = _keyples_words(counts, n)
    _add(places, "town", "The town", town_rect(),
         f"The town: keyples wait here to move onto the island (up to 3 roads a move). "
         f"In town: {who or 'nobody'}.",
         {"kind": "flash"} if before and [s["town"] for s in before["seats"]] != counts else None)


def _markets(parts, obs, places, before):
    n = obs["players"]
    for m, mk in enumerate(obs["markets"]):
        pid = f"M{m + 1}"
        x, y, w, h = location_rect(pid)
        if mk is None:
            parts.append(f"<rect x='{x:.1f}' y='{y:.1f}' width='{w}' height='{h}' rx='8' fill='#eee' "
                         "stroke='#999' stroke-dasharray='4 3'/>" + _t(x + w / 2, y + 30, pid, 11))
            continue
        parts.append(f"<rect x='{x:.1f}' y='{y:.1f}' width='{w}' height='{h}' rx='8' "
                     f"fill='{MARKET_FILL.get(mk['tile'], '#eee')}' stroke='{INK}' stroke-width='1.5'/>")
        double = any(d["tile"] == mk["tile"] and "reverse" in d for d in kt.game_data()["markets"])
        parts.append(_t(x + w / 2, y + 13, f"{pid} {mk['tile']}" + (" ↻" if double else ""), 11, 700))
        for i, line in enumerate(_wrap(kt.market_effect(mk["tile"], mk["side"]), 21)[:2]):
            parts.append(_t(x + w / 2, y + 25 + 10 * i, line, 9))
        kx = x + 12
        for q, c in enumerate(mk["keyples"]):
            if c:
                parts.append(_keyple(kx, y + h - 9, SEAT[q], c))
                kx += 26 if c > 1 else 18
        who = _keyples_words(mk["keyples"], n)
        old = before["markets"][m] if before else None
        _add(places, pid, f"Market {pid}: {mk['tile']}", (x, y, w, h),
             f"{pid}: " + kt.market_tip(mk["tile"], mk["side"])
             + (f" Keyples here: {who}." if who else ""),
             {"kind": "flash"} if before and old != mk else None)


def _resources(parts, obs, places, before):
    n = obs["players"]
    for r, loc in enumerate(obs["resource_locations"]):
        pid = f"R{r + 1}"
        x, y, w, h = location_rect(pid)
        if loc is None:
            continue
        owner = loc["owner"]
        stroke = INK if owner is None else ("#000" if owner == "pirates" else SEAT[owner])
        parts.append(f"<rect x='{x:.1f}' y='{y:.1f}' width='{w}' height='{h}' rx='6' fill='#f4eed8' "
                     f"stroke='{stroke}' stroke-width='{1.5 if owner is None else 4}'/>")
        keyple = next((q for q, s in enumerate(obs["seats"]) if s["keyples"].get(pid)), None)
        if keyple is not None:
            parts.append(_keyple(x + w - 10, y + 14, SEAT[keyple]))
        elif owner == "pirates":
            parts.append(_t(x + w - 4, y + 13, "☠", 12, 700, anchor="end"))
        old = before["resource_locations"][r] if before else None
        anim = {"kind": "flash"} if before and old != loc else None
        owner_words = None if owner is None else _who(owner, n)
        if loc["kind"] == "farm":
            parts.append(_t(x + 5, y + 13, f"{pid} farm {loc['farm']}{loc['side']}", 10, 700, anchor="start"))
            _add(places, pid, f"{pid}: farm {loc['farm']}", (x, y, w - 20, 16),
                 f"{pid}: " + kt.farm_tip(loc["farm"], loc["side"], loc["icons"], owner_words), anim)
            for i, icon in enumerate(loc["icons"]):
                ix, iy, iw, ih = farm_icon_rect(r, i)
                fill = ICON_FILL.get(icon["resource"], "#fff")
                parts.append(f"<rect x='{ix:.1f}' y='{iy:.1f}' width='{iw}' height='{ih}' rx='4' "
                             f"fill='{fill}' stroke='#b0a070'/>")
                parts.append(_t(ix + 4, iy + 15, icon["resource"], 9, anchor="start"))
                if icon["animal"]:
                    letter, colour = ANIMAL.get(icon["animal"], ("?", "#fff"))
                    parts.append(f"<circle cx='{ix + iw - 8:.1f}' cy='{iy + ih / 2:.1f}' r='7' fill='{colour}' "
                                 f"stroke='{INK}'/>" + _t(ix + iw - 8, iy + ih / 2 + 4, letter, 9, 700))
                _add(places, f"F{r + 1}-{i + 1}", f"Farm {loc['farm']} icon {i + 1}: {icon['resource']}",
                     (ix, iy, iw, ih), kt.farm_icon_tip(loc["farm"], i, icon["resource"], icon["animal"]))
        else:
            parts.append(_t(x + 5, y + 13, f"{pid} {loc['kind']}", 10, 700, anchor="start"))
            good = FIELD_GOOD.get(loc["kind"], "wood")
            for i in range(loc["tokens"]):
                parts.append(f"<circle cx='{x + 14 + 12 * i:.1f}' cy='{y + 34:.1f}' r='5.5' "
                             f"fill='{ICON_FILL[good]}' stroke='{INK}'/>")
            parts.append(_t(x + w / 2, y + 58, f"{loc['tokens']} {good} left", 9))
            _add(places, pid, f"{pid}: {loc['kind']}", (x, y, w, h),
                 f"{pid}: " + kt.field_tip(loc["kind"], loc["tokens"], owner_words), anim)


def _harbours(parts, obs, places, before):
    solo = "keytoma" in obs
    n = obs["players"]
    boats = {b["at"]: (i, b["sailors"]) for i, b in enumerate(obs["boats"])}
    old_boats = {i: b["at"] for i, b in enumerate(before["boats"])} if before else {}
    flags = obs.get("flags") or []
    for hb in obs["harbours"]:
        h = hb["indent"] - 1
        pid = f"H{h + 1}"
        x, y, w, hh = location_rect(pid)
        old = before["harbours"][h] if before else None
        anim = {"kind": "flash"} if _changed(old, hb, ("dice", "keyples", "resolved", "sailor")) else None
        if hb["tile"] is None:
            parts.append(f"<rect x='{x:.1f}' y='{y:.1f}' width='{w}' height='{hh}' rx='10' fill='#eef6fa' "
                         "stroke='#8ab' stroke-dasharray='4 3'/>" + _t(x + w / 2, y + 48, pid, 12))
            _add(places, pid, f"Harbour {pid}", (x, y, w, hh), f"{pid}: no harbour tile yet.")
            continue
        fill = "#fdfcf7" if not hb["resolved"] else "#e6e6e6"
        parts.append(f"<rect x='{x:.1f}' y='{y:.1f}' width='{w}' height='{hh}' rx='10' fill='{fill}' "
                     f"stroke='{INK}' stroke-width='1.5'/>")
        parts.append(_t(x + 7, y + 15, pid, 11, 700, anchor="start"))
        name = kt.HARBOUR_NAME.get(hb["tile"], "")
        parts.append(_t(x + w / 2, y + 29, f"{hb['tile']} · {name}", 10, 700, "#5c4a1f"))
        tip = [f"{pid}: " + kt.harbour_tip(hb["tile"], sum(v for _, v in hb["dice"] if v) or None)]
        if hb["score"] is not None:
            sc = "#c92a2a" if hb["red"] else "#212529"
            parts.append(f"<rect x='{x + w - 28:.1f}' y='{y + 3:.1f}' width='24' height='17' rx='3' fill='{sc}'/>"
                         + _t(x + w - 16, y + 16, hb["score"], 11, 700, "#fff"))
            tip.append(kt.scoring_tip(int(hb["score"]), bool(hb["red"])))
        if hb["resolved"]:
            parts.append(_t(x + w / 2, y + 50, "resolved this year", 10, 700, "#666"))
            tip.append("Resolved this year.")
        else:
            if hb["sailor"]:
                parts.append(f"<circle cx='{x + w - 14:.1f}' cy='{y + 44:.1f}' r='8' fill='{DIE[hb['sailor']]}' "
                             f"stroke='{INK}'/>")
                tip.append(f"A {hb['sailor']} sailor landed: it can be resolved by a player with a keyple here.")
            for i in range(hb["dice_spaces"]):
                dx, dy = x + 7 + 21 * i, y + 35
                if i < len(hb["dice"]):
                    owner, value = hb["dice"][i]
                    parts.append(_die(dx, dy, hb["colour"] or "yellow", value, owner))
                else:
                    parts.append(f"<rect x='{dx:.1f}' y='{dy:.1f}' width='18' height='18' rx='3' fill='#fff' "
                                 "stroke='#999' stroke-dasharray='3 2'/>")
            if hb["dice"]:
                tip.append("Dice: " + ", ".join(
                    f"{'Keytoma' if o == 9 else _who(o, n)} {hb['colour'] or ''} {v if v is not None else '?'}"
                    for o, v in hb["dice"]) + f" ({hb['dice_spaces']} spaces).")
            else:
                tip.append(f"{hb['dice_spaces']} dice spaces, free.")
        for fi, at in enumerate(flags):
            if at == h + 1:
                fx = x + 7 + 21 * hb["dice_spaces"] + 2
                parts.append(f"<path d='M{fx:.1f},{y + 54:.1f} v-20 l13,5 l-13,5' fill='{KEYTOMA}' stroke='{INK}'/>"
                             + _t(fx + 1, y + 62, f"{2 * fi + 1}-{2 * fi + 2}", 9, 700, anchor="start"))
                tip.append(f"Keytoma's {2 * fi + 1}-{2 * fi + 2} flag: a roll of {2 * fi + 1} or "
                           f"{2 * fi + 2} lands or resolves from here.")
        kx = x + 12
        for q, c in enumerate(hb["keyples"]):
            if c:
                parts.append(_keyple(kx, y + hh - 12, SEAT[q], c))
                kx += 27 if c > 1 else 17
        kt_n = obs["keytoma"]["keyples"][h] if solo else 0
        pir = obs["pirates"][h] if solo else 0
        if kt_n:
            parts.append(_keyple(kx, y + hh - 12, KEYTOMA, kt_n))
            kx += 27 if kt_n > 1 else 17
        if pir:
            parts.append(_t(kx - 4, y + hh - 6, f"☠×{pir}", 11, 700, anchor="start"))
        total = sum(hb["keyples"]) + kt_n + pir
        parts.append(_t(x + w - 6, y + hh - 6, f"{total}/{hb['keyple_spaces']}", 9, anchor="end"))
        who = _keyples_words(hb["keyples"], n, kt_n, pir)
        tip.append(f"Keyples: {who or 'none'} ({total} of {hb['keyple_spaces']} spaces).")
        _add(places, pid, f"Harbour {pid}: {hb['tile']} {name}", (x, y, w, hh), " ".join(tip), anim)
        if h + 1 in boats:
            i, sailors = boats[h + 1]
            bx, by = boat_centre(h)
            parts.append(f"<g data-place='boat{i + 1}'>"
                         f"<path d='M{bx - 26:.1f},{by - 4:.1f} h52 l-8,12 h-36 z' fill='#8b5a2b' stroke='{INK}'/>")
            for j, col in enumerate(sailors):
                parts.append(f"<circle cx='{bx - 20 + 8 * j:.1f}' cy='{by - 9:.1f}' r='4' fill='{DIE[col]}' "
                             f"stroke='{INK}' stroke-width='0.8'/>")
            parts.append("</g>")
            moved = old_boats.get(i)
            anim = ({"from": list(boat_centre(moved - 1))} if moved and moved != h + 1 else None)
            _add(places, f"boat{i + 1}", f"Boat {i + 1} at {pid}", boat_rect(h),
                 f"A boat at {pid} with sailors {', '.join(sailors) or 'none'}: a die of a sailor's "
                 "colour sails it up to its value in harbours, either way, to a free harbour.", anim)


def _headlands(parts, obs, places, before):
    n = obs["players"]
    for sp, hl in enumerate(obs["headlands"]):
        x, y = headland_centre(sp)
        pid = f"S{sp + 1}"
        between = f"between H{sp + 1} and H{(sp + 1) % 12 + 1}"
        old = before["headlands"][sp] if before else None
        anim = {"kind": "drop"} if before and old != hl and hl is not None else None
        if hl is None:
            parts.append(f"<circle cx='{x:.1f}' cy='{y:.1f}' r='10' fill='none' stroke='#7a8' stroke-dasharray='3 2'/>")
            _add(places, pid, f"Headland space {between}", headland_rect(sp),
                 f"An empty headland space {between}: a headland built here works for both harbours.")
            continue
        if hl["tile"] == "landslide":
            parts.append(f"<circle cx='{x:.1f}' cy='{y:.1f}' r='17' fill='#7b5e3b' stroke='{INK}'/>"
                         + _t(x, y + 4, "slide", 9, 700, "#fff"))
            _add(places, pid, f"Landslide {between}", headland_rect(sp), kt.headland_tip("landslide"), anim)
            continue
        owner = hl["owner"]
        if hl.get("faces"):
            fx, fy = location_centre(f"H{hl['faces']}")
            parts.append(f"<line x1='{x:.1f}' y1='{y:.1f}' x2='{x + (fx - x) * 0.3:.1f}' y2='{y + (fy - y) * 0.3:.1f}' "
                         f"stroke='{INK}' stroke-width='3'/>")
        parts.append(f"<circle cx='{x:.1f}' cy='{y:.1f}' r='17' fill='{SEAT[owner] if owner is not None else '#ccc'}' "
                     f"stroke='{INK}' stroke-width='1.5'/>"
                     + _t(x, y + 5, hl["tile"], 14, 700, INK if owner in (0, None) else "#fff"))
        _add(places, pid, f"Headland {hl['tile']} ({kt.headland_name(hl['tile'])}) {between}",
             headland_rect(sp),
             kt.headland_tip(hl["tile"], None if owner is None else _who(owner, n), hl.get("faces")), anim)


def _solo(parts, obs, places):
    beacons = [b for b in obs.get("beacons", []) if b]
    parts.append(_t(18, 52, "Beacons", 12, 700, anchor="start"))
    for i, b in enumerate(beacons):
        bx, by = 76 + 40 * i, 38
        parts.append(f"<rect x='{bx}' y='{by}' width='36' height='20' rx='4' "
                     f"fill='{'#ffd43b' if b['lit'] else '#fff'}' stroke='{INK}'/>"
                     + _t(bx + 18, by + 14, b["beacon"], 11, 700))
        _add(places, f"beacon{i + 1}", f"Beacon {b['beacon']}", (bx, by, 36, 20),
             kt.beacon_tip(b["beacon"], b["lit"]))
    kt_obs = obs["keytoma"]
    kx = SIZE - 18 - 22 * 6
    parts.append(_t(kx, 28, "Keytoma's dice", 12, 700, anchor="start"))
    for i, (col, v) in enumerate(kt_obs["dice"].items()):
        parts.append(_die(kx + 22 * i, 36, col, v))
        used = col not in (kt_obs.get("dice_left") or kt_obs["dice"])
        _add(places, f"kdie-{col}", f"Keytoma's {col} die", (kx + 22 * i, 36, 18, 18),
             f"Keytoma's {col} die: {'?' if v is None else v}" + (" (used)" if used else "")
             + ". " + kt.keytoma_card_tip(col))


# ---------------------------------------------------------------------------- the mats
def mat_id(q: int, part: str = "") -> str:
    """The id of seat ``q``'s mat or of a part of it ("die-red", "track-red", "stores",
    "buildings", "bld-red", "skill-red-5", "strip"): a best move on the mat rings it."""
    return f"mat{q}" + (f"-{part}" if part else "")


HINT_CSS = (".ks-hint{outline:3px solid #7c3aed;outline-offset:1px;border-radius:4px;"
            "box-shadow:0 0 0 6px rgba(124,58,237,.35)}")


def mats_html(obs: dict, viewer=None, marks=()) -> str:
    """Each player's mat: tracks, dice, stores, buildings, headlands, skill tiles, keyples, and
    the score pad's lines (tooltips in words on the tracks and dice). The parts whose
    :func:`mat_id` is in ``marks`` are ringed as the hint (``data-mark`` names them)."""
    n = obs["players"]
    marks = set(marks)

    def ring(pid: str, cls: str = "") -> str:     # a part's class, ringed if marked, and id
        cls = f"{cls} ks-hint".strip() if pid in marks else cls
        return (f" class='{cls}'" if cls else "") + f" data-mark='{pid}'"

    cards = []
    for q, seat in enumerate(obs["seats"]):
        turn = " ▶" if q == obs["current_player"] else ""
        rows = []
        tracks = "".join(
            f"<span{ring(mat_id(q, 'track-' + c), 'ks-trk')} style='background:{DIE[c]}' "
            f"title='{esc(kt.track_tip(c, lvl))}'>{lvl}</span>"
            for c, lvl in seat["tracks"].items())
        rows.append(f"<div><b>Tracks</b> {tracks}</div>")
        dice = "".join(
            f"<span{ring(mat_id(q, 'die-' + c), 'ks-die')} style='background:{DIE[c]};"
            f"opacity:{1 if c in seat['dice_left'] or obs['phase'] == 'dice' else .45}'"
            f" title='{c} die{'' if v is None else f' {v}'}'>"
            f"{'?' if v is None else v}</span>" for c, v in seat["dice"].items())
        rows.append(f"<div><b>Dice</b> {dice} <small>(faded: used)</small></div>")
        goods = ", ".join(f"{k} {g}" for g, k in seat["goods"].items() if k)
        rows.append(f"<div{ring(mat_id(q, 'stores'))}><b>Stores</b> {goods or '—'}</div>")
        builds = " ".join(
            f"<span{ring(mat_id(q, 'bld-' + c), 'ks-bld')} style='border-color:{DIE[c]}'>"
            f"{b['letter']} {'house' if b['house'] else 'cottage'}</span>"
            for c, b in seat["buildings"].items())
        rows.append(f"<div{ring(mat_id(q, 'buildings'))}><b>Buildings</b> {builds or '—'}</div>")
        skills = " ".join(
            f"<span{ring(mat_id(q, f'skill-{c}-{v}'), 'ks-trk')} style='background:{DIE[c]}' "
            f"title='{c} skill tile, {v} points'>{v}</span>"
            for c, v in seat["skill_tiles"])
        rows.append(f"<div{ring(mat_id(q, 'skills'))}><b>Skill tiles</b> {skills or '—'} · "
                    f"<b>Headlands</b> {esc(seat['headlands_built']) or '—'}</div>")
        strip = (f" · <span{ring(mat_id(q, 'strip'))}>dice strip {seat['strip']}</span>"
                 if seat["strip"] else "")
        rows.append(f"<div><b>Keyples</b> on the mat {seat['mat']}, in town {seat['town']}, on the island "
                    f"{sum(seat['keyples'].values())}{strip}</div>")
        sc = seat["score"]
        pad = [("Harbours", sum(sc["harbours"])), ("Buildings", sum(sc["buildings"])), ("Gems", sc["gems"]),
               ("Statue", sc["statue"]), ("Support", sc["support"]), ("Beach", sc["beach"]),
               ("Skill tiles", sc["skill_tiles"]), ("Fields", sc["fields"])]
        harb = ", ".join(f"H{h + 1}: {v}" for h, v in enumerate(sc["harbours"]) if v)
        pad_html = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in pad)
        rows.append(f"<table class='ks-pad'>{pad_html}<tr><th>Total</th><th>{sc['total']}</th></tr></table>"
                    + (f"<small>harbours: {harb}</small>" if harb else ""))
        who = seat_label(q, n) + (f" — {viewer_word()}" if viewer == q and n > 1 else "")
        mine = mat_id(q) in marks or any(m.startswith(mat_id(q) + "-") for m in marks)
        cards.append((f"<div{ring(mat_id(q), 'ks-mat')} style='border-top:6px solid {SEAT[q]}'>"
                      f"<div class='ks-name'>{esc(who)}{turn}</div>{''.join(rows)}</div>",
                      f"<span class='{'ks-hint' if mine else ''}'>{esc(who)}{turn} · {sc['total']} "
                      f"point{'' if sc['total'] == 1 else 's'}</span>"))
    style = ("<style>.ks-mats{display:flex;flex-wrap:wrap;gap:10px}.ks-mat{flex:1 1 300px;border:1px solid #ccc;"
             "border-radius:8px;padding:6px 10px;font-size:13px;line-height:1.7}.ks-name{font-weight:700;font-size:15px}"
             ".ks-trk,.ks-die{display:inline-block;min-width:20px;text-align:center;border-radius:4px;color:#fff;"
             "font-weight:700;margin-right:2px;text-shadow:0 0 2px #000}.ks-bld{border:2px solid;border-radius:4px;"
             "padding:0 4px;margin-right:3px}.ks-pad td,.ks-pad th{padding:0 8px;border:none}.ks-pad{border-collapse:"
             "collapse;margin-top:2px}.ks-phone{display:none}.ks-phone summary{font-weight:700;padding:4px 0}"
             "@media (max-width:640px){.ks-full{display:none}.ks-phone{display:block}}" + HINT_CSS + "</style>")
    # a phone shows the mats closed (one line each) so the decision follows the island
    phone = "".join(f"<details class='ks-phone'><summary>{line}</summary>{card}</details>"
                    for card, line in cards)
    return (style + f"<div class='ks-mats ks-full'>{''.join(c for c, _ in cards)}</div>"
            + f"<div class='ks-phone-mats'>{phone}</div>")
