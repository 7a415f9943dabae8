"""Keyside: the island as one clickable SVG, each player's mat and the live score pad.

The island (see docs/keyside.md for the stand-in road network): the town in the centre, the 8
markets M1-M8 around it, the 8 resource locations R1-R8 between them, the 12 harbours H1-H12
(clockwise from the top) on the coast with the 12 headland spaces between them. Where a
decision is a place on the island (a boat's harbour, a keyple's destination, a harbour to
resolve, a market, a headland space, a farm icon) the place is clicked; the rest are buttons.
"""
from __future__ import annotations

import json
import math
import re

import streamlit as st

import boardlab

from .. import board_component as bc
from ..current_game import play_session
from .base import GameUI, esc

SIZE = 880
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
FIELD_GOOD = {"forest": "wood", "quarry": "stone", "wheat fields": "wheat"}
MARKET_FILL = {"blue": "#a5c8f0", "green": "#b2e2b9", "orange": "#ffd0a0", "purple": "#d9c2ee",
               "grey 1": "#d0d3d6", "grey 2": "#d0d3d6", "red": "#f3b0b0", "yellow": "#f7e49a"}
HEADLAND_NAME = {"A": "wharf", "B": "lighthouse", "C": "rally point", "D": "statue", "E": "support",
                 "F": "beach", "landslide": "landslide"}


# ---------------------------------------------------------------------------- geometry
def _polar(deg: float, r: float) -> tuple[float, float]:
    a = math.radians(deg)
    return CX + r * math.cos(a), CY + r * math.sin(a)


def _harbour_angle(h: int) -> float:            # h 0..11, H1 at the top, clockwise
    return -90 + 30 * h


def _market_angle(m: int) -> float:             # Mk sits by harbours floor(1.5(k-1))+1 and +2
    h0 = (3 * m) // 2
    return _harbour_angle(h0) + 15


def _resource_angle(r: int) -> float:           # Rk lies between Mk and Mk+1
    a, b = _market_angle(r), _market_angle((r + 1) % 8)
    if b < a:
        b += 360
    return (a + b) / 2


HARBOUR_R, MARKET_R, RESOURCE_R = 350, 150, 238
HW, HH = 112, 84            # harbour box
MW, MH = 100, 48            # market box
RW, RH = 96, 70             # resource box


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
    return _polar(_harbour_angle(sp) + 15, HARBOUR_R + 18)


def headland_rect(sp: int):
    x, y = headland_centre(sp)
    return x - 22, y - 22, 44, 44


def farm_icon_rect(r: int, i: int):
    x, y, w, h = location_rect(f"R{r + 1}")
    return x + 6 + (i % 2) * 43, y + 18 + (i // 2) * 25, 41, 23


# ---------------------------------------------------------------------------- drawing
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
        out += _t(x + size / 2, y + size + 9, "K" if owner == 9 else f"P{owner}", 8, 700)
    return out


def _keyple(x, y, fill, count=1, label=None) -> str:
    out = (f"<path d='M{x:.1f},{y - 9:.1f} a4,4 0 1,1 0.1,0 M{x - 6:.1f},{y + 7:.1f} l2,-10 h8 l2,10 z' "
           f"fill='{fill}' stroke='{INK}' stroke-width='1'/>")
    if count > 1 or label:
        out += _t(x + 10, y + 6, label or f"×{count}", 10, 700, anchor="start")
    return out


def _dice_colour(obs, seat):
    return obs["seats"][seat]["dice"] if 0 <= seat < len(obs["seats"]) else {}


_PLACE_NAME = re.compile(r"\b([HMR](?:[1-9]|1[0-2]))\b")


def recent_places(changes) -> set[str]:
    """The island places the moves since the viewer's last decision ended at (a boat's or a
    keyple's destination, a harbour resolved, a market used), read from their log lines."""
    out = set()
    for _, text in bc.recent_moves(changes):
        names = _PLACE_NAME.findall(text)
        if names:
            out.add(names[-1])
    return out


def island_svg(obs: dict, viewer=None, recent=()) -> str:
    """The island as it stands, seen by ``viewer`` (None: everything the observation shows);
    the places in ``recent`` (e.g. "H7", "M2") are ringed: the others just moved there."""
    solo = "keytoma" in obs
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {SIZE} {SIZE}' "
             f"style='width:100%;max-width:{SIZE}px;display:block;margin:auto' role='img' "
             f"aria-label='Keyside island'>",
             f"<rect width='{SIZE}' height='{SIZE}' fill='{SEA}' rx='18'/>",
             f"<circle cx='{CX}' cy='{CY}' r='{HARBOUR_R - 20}' fill='{LAND}' stroke='#b9a877' stroke-width='3'/>"]
    data = boardlab.games.get("keyside")._DATA["island"]
    for a, b in data["roads"]:
        (x1, y1), (x2, y2) = location_centre(a), location_centre(b)
        parts.append(f"<line x1='{x1:.1f}' y1='{y1:.1f}' x2='{x2:.1f}' y2='{y2:.1f}' stroke='#a8946a' "
                     "stroke-width='3' stroke-dasharray='6 4'/>")
    # town
    parts.append(f"<circle cx='{CX}' cy='{CY}' r='46' fill='#fff8e6' stroke='{INK}' stroke-width='2'/>")
    parts.append(_t(CX, CY - 20, "Town", 13, 700))
    for q, seat in enumerate(obs["seats"]):
        if seat["town"]:
            parts.append(_keyple(CX - 30 + 36 * (q % 2), CY + 2 + 22 * (q // 2), SEAT[q], seat["town"],
                                 f"×{seat['town']}"))
    # markets
    for m, mk in enumerate(obs["markets"]):
        x, y, w, h = location_rect(f"M{m + 1}")
        if mk is None:
            parts.append(f"<rect x='{x:.1f}' y='{y:.1f}' width='{w}' height='{h}' rx='8' fill='#eee' "
                         "stroke='#999' stroke-dasharray='4 3'/>" + _t(x + w / 2, y + 28, f"M{m + 1}", 11))
            continue
        parts.append(f"<rect x='{x:.1f}' y='{y:.1f}' width='{w}' height='{h}' rx='8' "
                     f"fill='{MARKET_FILL.get(mk['tile'], '#eee')}' stroke='{INK}' stroke-width='1.5'/>")
        side = "" if mk["side"] == "top" else " ↺"
        parts.append(_t(x + w / 2, y + 14, f"M{m + 1} {mk['tile']}{side}", 11, 700))
        parts.append(_t(x + w / 2, y + 28, mk["trade"], 9))
        kx = x + 10
        for q, n in enumerate(mk["keyples"]):
            if n:
                parts.append(_keyple(kx, y + h - 8, SEAT[q], n))
                kx += 24
    # resource locations
    for r, loc in enumerate(obs["resource_locations"]):
        x, y, w, h = location_rect(f"R{r + 1}")
        if loc is None:
            continue
        owner = loc["owner"]
        stroke = INK if owner is None else ("#000" if owner == "pirates" else SEAT[owner])
        parts.append(f"<rect x='{x:.1f}' y='{y:.1f}' width='{w}' height='{h}' rx='6' fill='#f4eed8' "
                     f"stroke='{stroke}' stroke-width='{1.5 if owner is None else 4}'/>")
        if loc["kind"] == "farm":
            parts.append(_t(x + w / 2, y + 13, f"R{r + 1} farm {loc['farm']}{loc['side']}", 10, 700))
            for i, icon in enumerate(loc["icons"]):
                ix, iy, iw, ih = farm_icon_rect(r, i)
                parts.append(f"<rect x='{ix:.1f}' y='{iy:.1f}' width='{iw}' height='{ih}' rx='4' "
                             f"fill='{'#fff' if icon['animal'] is None else '#e9f7df'}' stroke='#b0a070'/>")
                parts[-1] = parts[-1].replace("fill='#fff'", f"fill='{ICON_FILL.get(icon['resource'], '#fff')}'")
                parts.append(_t(ix + 4, iy + 15, icon["resource"], 9, anchor="start"))
                if icon["animal"]:
                    letter, colour = ANIMAL.get(icon["animal"], ("?", "#fff"))
                    parts.append(f"<circle cx='{ix + iw - 8:.1f}' cy='{iy + ih / 2:.1f}' r='7' fill='{colour}' "
                                 f"stroke='{INK}'/>" + _t(ix + iw - 8, iy + ih / 2 + 4, letter, 9, 700))
        else:
            parts.append(_t(x + w / 2, y + 14, f"R{r + 1} {loc['kind']}", 10, 700))
            good = FIELD_GOOD.get(loc["kind"], "wood")
            for i in range(loc["tokens"]):
                parts.append(f"<circle cx='{x + 16 + 13 * i:.1f}' cy='{y + 36:.1f}' r='6' "
                             f"fill='{ICON_FILL[good]}' stroke='{INK}'/>")
            parts.append(_t(x + w / 2, y + 58, f"{loc['tokens']} {good} tokens", 9))
        if owner == "pirates":
            parts.append(_t(x + w - 10, y + h - 6, "pirates", 9, 700))
        for q, seat in enumerate(obs["seats"]):
            n = seat["keyples"].get(f"R{r + 1}", 0)
            if n:
                parts.append(_keyple(x + w - 12 - 22 * q, y + h + 12, SEAT[q], n))
    # harbours
    boats = {b["at"]: b["sailors"] for b in obs["boats"]}
    flags = obs.get("flags") or []
    for hb in obs["harbours"]:
        h = hb["indent"] - 1
        x, y, w, hh = location_rect(f"H{h + 1}")
        if hb["tile"] is None:
            parts.append(f"<rect x='{x:.1f}' y='{y:.1f}' width='{w}' height='{hh}' rx='10' fill='#eef6fa' "
                         "stroke='#8ab' stroke-dasharray='4 3'/>" + _t(x + w / 2, y + 45, f"H{h + 1}", 12))
            continue
        fill = "#fdfcf7" if not hb["resolved"] else "#e6e6e6"
        parts.append(f"<rect x='{x:.1f}' y='{y:.1f}' width='{w}' height='{hh}' rx='10' fill='{fill}' "
                     f"stroke='{INK}' stroke-width='1.5'/>")
        parts.append(_t(x + 8, y + 15, f"H{h + 1}", 11, 700, anchor="start"))
        parts.append(_t(x + w / 2, y + 15, f"tile {hb['tile']}", 11, 700))
        if hb["score"] is not None:
            sc = "#c92a2a" if hb["red"] else "#212529"
            parts.append(f"<rect x='{x + w - 28:.1f}' y='{y + 3:.1f}' width='24' height='17' rx='3' fill='{sc}'/>"
                         + _t(x + w - 16, y + 16, hb["score"], 11, 700, "#fff"))
        if hb["resolved"]:
            parts.append(_t(x + w / 2, y + 31, "resolved", 11, 700, "#666"))
        elif hb["sailor"]:
            parts.append(f"<circle cx='{x + w - 16:.1f}' cy='{y + 33:.1f}' r='8' fill='{DIE[hb['sailor']]}' "
                         f"stroke='{INK}'/>" + _t(x + w - 16, y + 52, "sailor", 8))
        # dice spaces and dice
        for i in range(hb["dice_spaces"]):
            dx, dy = x + 8 + 22 * i, y + 24
            if hb["resolved"]:
                break
            if i < len(hb["dice"]):
                owner, value = hb["dice"][i]
                parts.append(_die(dx, dy, hb["colour"] or "yellow", value, owner))
            else:
                parts.append(f"<rect x='{dx:.1f}' y='{dy:.1f}' width='18' height='18' rx='3' fill='none' "
                             "stroke='#aaa' stroke-dasharray='3 2'/>")
        # keyples
        kx = x + 12
        for q, n in enumerate(hb["keyples"]):
            if n:
                parts.append(_keyple(kx, y + 66, SEAT[q], n))
                kx += 28 if n > 1 else 18
        if solo:
            i = h
            kt = obs["keytoma"]["keyples"][i]
            if kt:
                parts.append(_keyple(kx, y + 66, KEYTOMA, kt))
                kx += 28 if kt > 1 else 18
            if obs["pirates"][i]:
                parts.append(_t(kx + 6, y + 72, f"pirates×{obs['pirates'][i]}", 11, 700, anchor="start"))
        parts.append(_t(x + w - 6, y + hh - 6, f"{sum(hb['keyples'])}/{hb['keyple_spaces']}", 9, anchor="end"))
        if h + 1 in boats:
            bx, by = _polar(_harbour_angle(h), HARBOUR_R + HH / 2 + 14)
            parts.append(f"<path d='M{bx - 26:.1f},{by - 4:.1f} h52 l-8,12 h-36 z' fill='#8b5a2b' stroke='{INK}'/>")
            for i, col in enumerate(boats[h + 1]):
                parts.append(f"<circle cx='{bx - 20 + 8 * i:.1f}' cy='{by - 9:.1f}' r='4' fill='{DIE[col]}' "
                             f"stroke='{INK}' stroke-width='0.8'/>")
        for fi, at in enumerate(flags):
            if at == h + 1:
                fx, fy = _polar(_harbour_angle(h) - 9, HARBOUR_R - HH / 2 - 10)
                parts.append(f"<path d='M{fx:.1f},{fy + 10:.1f} v-20 l14,5 l-14,5' fill='{KEYTOMA}' stroke='{INK}'/>"
                             + _t(fx + 8, fy + 22, f"{2 * fi + 1}-{2 * fi + 2}", 9, 700))
    # headlands
    for sp, hl in enumerate(obs["headlands"]):
        x, y = headland_centre(sp)
        if hl is None:
            parts.append(f"<circle cx='{x:.1f}' cy='{y:.1f}' r='10' fill='none' stroke='#7a8' stroke-dasharray='3 2'/>")
            continue
        if hl["tile"] == "landslide":
            parts.append(f"<circle cx='{x:.1f}' cy='{y:.1f}' r='17' fill='#7b5e3b' stroke='{INK}'/>"
                         + _t(x, y + 4, "slide", 9, 700, "#fff"))
            continue
        owner = hl["owner"]
        parts.append(f"<circle cx='{x:.1f}' cy='{y:.1f}' r='17' fill='{SEAT[owner] if owner is not None else '#ccc'}' "
                     f"stroke='{INK}' stroke-width='1.5'/>"
                     + _t(x, y + 5, hl["tile"], 14, 700, INK if owner in (0, None) else "#fff"))
        if hl.get("faces"):
            fx, fy = location_centre(f"H{hl['faces']}")
            parts.append(f"<line x1='{x:.1f}' y1='{y:.1f}' x2='{(x + fx) / 2:.1f}' y2='{(y + fy) / 2:.1f}' "
                         f"stroke='{INK}' stroke-width='2' marker-end=''/>")
    for name in recent:
        x, y, w, h = location_rect(name)
        parts.append(f"<rect x='{x - 5:.1f}' y='{y - 5:.1f}' width='{w + 10}' height='{h + 10}' rx='12' "
                     "fill='none' stroke='#f59f00' stroke-width='4' class='ks-recent'/>")
    # year and phase
    parts.append(_t(18, 28, f"Year {obs['year']} · {obs['phase']}", 16, 700, anchor="start"))
    if solo:
        beacons = ", ".join(f"{b['beacon']} {'LIT' if b['lit'] else 'unlit'}" for b in obs.get("beacons", []) if b)
        parts.append(_t(18, 48, f"Beacons: {beacons}", 13, 400, anchor="start"))
        kt = obs["keytoma"]
        kx = SIZE - 18 - 22 * 6
        parts.append(_t(kx, 28, "Keytoma", 13, 700, anchor="start"))
        for i, (col, v) in enumerate(kt["dice"].items()):
            parts.append(_die(kx + 22 * i, 36, col, v, 9))
    parts.append("</svg>")
    return "".join(parts)


def _seat_label(q: int, n: int) -> str:
    return "You (solo)" if n == 1 else f"P{q} ({SEAT_NAME[q]})"


def mats_html(obs: dict, viewer=None) -> str:
    """Each player's mat: tracks, dice, stores, buildings, headlands, skill tiles, keyples, and
    the score pad's lines."""
    n = obs["players"]
    cards = []
    for q, seat in enumerate(obs["seats"]):
        turn = " ▶" if q == obs["current_player"] else ""
        rows = []
        tracks = "".join(
            f"<span class='ks-trk' style='background:{DIE[c]}'>{lvl}</span>" for c, lvl in seat["tracks"].items())
        rows.append(f"<div><b>Tracks</b> {tracks}</div>")
        dice = "".join(
            f"<span class='ks-die' style='background:{DIE[c]};opacity:{1 if c in seat['dice_left'] or obs['phase'] == 'dice' else .45}'>"
            f"{'?' if v is None else v}</span>" for c, v in seat["dice"].items())
        rows.append(f"<div><b>Dice</b> {dice} <small>(faded: used)</small></div>")
        goods = ", ".join(f"{k} {g}" for g, k in seat["goods"].items() if k)
        rows.append(f"<div><b>Stores</b> {goods or '—'}</div>")
        builds = " ".join(
            f"<span class='ks-bld' style='border-color:{DIE[c]}'>{b['letter']} {'house' if b['house'] else 'cottage'}</span>"
            for c, b in seat["buildings"].items())
        rows.append(f"<div><b>Buildings</b> {builds or '—'}</div>")
        skills = " ".join(f"<span class='ks-trk' style='background:{DIE[c]}'>{v}</span>" for c, v in seat["skill_tiles"])
        rows.append(f"<div><b>Skill tiles</b> {skills or '—'} · <b>Headlands</b> "
                    f"{esc(seat['headlands_built']) or '—'}</div>")
        rows.append(f"<div><b>Keyples</b> on the mat {seat['mat']}, in town {seat['town']}, on the island "
                    f"{sum(seat['keyples'].values())}" + (f" · dice strip {seat['strip']}" if seat["strip"] else "")
                    + "</div>")
        sc = seat["score"]
        pad = [("Harbours", sum(sc["harbours"])), ("Buildings", sum(sc["buildings"])), ("Gems", sc["gems"]),
               ("Statue", sc["statue"]), ("Support", sc["support"]), ("Beach", sc["beach"]),
               ("Skill tiles", sc["skill_tiles"]), ("Fields", sc["fields"])]
        harb = ", ".join(f"H{h + 1}: {v}" for h, v in enumerate(sc["harbours"]) if v)
        pad_html = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in pad)
        rows.append(f"<table class='ks-pad'>{pad_html}<tr><th>Total</th><th>{sc['total']}</th></tr></table>"
                    + (f"<small>harbours: {harb}</small>" if harb else ""))
        who = _seat_label(q, n) + (" — you" if viewer == q and n > 1 else "")
        cards.append(f"<div class='ks-mat' style='border-top:6px solid {SEAT[q]}'>"
                     f"<div class='ks-name'>{esc(who)}{turn}</div>{''.join(rows)}</div>")
    style = ("<style>.ks-mats{display:flex;flex-wrap:wrap;gap:10px}.ks-mat{flex:1 1 300px;border:1px solid #ccc;"
             "border-radius:8px;padding:6px 10px;font-size:13px;line-height:1.7}.ks-name{font-weight:700;font-size:15px}"
             ".ks-trk,.ks-die{display:inline-block;min-width:20px;text-align:center;border-radius:4px;color:#fff;"
             "font-weight:700;margin-right:2px;text-shadow:0 0 2px #000}.ks-bld{border:2px solid;border-radius:4px;"
             "padding:0 4px;margin-right:3px}.ks-pad td,.ks-pad th{padding:0 8px;border:none}.ks-pad{border-collapse:"
             "collapse;margin-top:2px}</style>")
    return style + f"<div class='ks-mats'>{''.join(cards)}</div>"


# ---------------------------------------------------------------------------- choices on the island
_LEAD = re.compile(r"lead (\w+ \d): boat (H\d+) -> (H\d+)")
_MOVE = re.compile(r"move keyple (\w+)>(?:.*>)?(\w+)")
_RESOLVE = re.compile(r"resolve (H\d+) ")
_MARKET = re.compile(r"activate market (M\d+) ")
_FLIP = re.compile(r"pay fish: flip market (M\d+) ")
_HEAD = re.compile(r"headland (\w) \(([\w ]+)\) H(\d+)\|H(\d+)(?: facing H(\d+))?, pay (\w+)")
_FARM = re.compile(r"(\w+) -> farm (\d) icon (\d) ")


def island_choice(name: str, obs: dict):
    """(option, place id) when the decision ``name`` is a place on the island, else None. The
    option is what else the player picks (which die, which keyple, which tile)."""
    if m := _LEAD.match(name):
        return f"{m.group(1)} · boat at {m.group(2)}", m.group(3)
    if m := _MOVE.fullmatch(name):
        return f"keyple from {m.group(1)}", m.group(2)
    if m := _RESOLVE.match(name):
        return "resolve a harbour", m.group(1)
    if m := _MARKET.match(name):
        return "activate a market", m.group(1)
    if m := _FLIP.match(name):
        return "pay a fish to flip a market", m.group(1)
    if m := _HEAD.fullmatch(name):
        tile, what, h1, face, pay = m.group(1), m.group(2), int(m.group(3)), m.group(5), m.group(6)
        facing = "" if face is None else (" facing its anticlockwise harbour" if int(face) == h1
                                          else " facing its clockwise harbour")
        return f"headland {tile} ({what}){facing}, paying {pay}", f"S{h1}"
    if m := _FARM.match(name):
        farm = int(m.group(2))
        for r, loc in enumerate(obs["resource_locations"]):
            if loc and loc["kind"] == "farm" and loc["farm"] == farm:
                return f"put a {m.group(1)} on a farm", f"F{r + 1}-{m.group(3)}"
    return None


def place_rect(pid: str):
    if pid[0] == "S":
        return headland_rect(int(pid[1:]) - 1)
    if pid[0] == "F":
        r, i = pid[1:].split("-")
        return farm_icon_rect(int(r) - 1, int(i) - 1)
    return location_rect(pid)


PROMPTS = {
    "dice": "**Set your dice in secret:** choose the value of your next die (the others see only when you have set all six).",
    "land": "**Your turn:** choose a die, then click the harbour its boat sails to (or put a die on your mat).",
    "follow": "**Follow?** Put your die of the same colour on this harbour, or pass.",
    "keyple_in": "**A keyple may enter the harbour:** click where it comes from… or pass.",
    "move": "**Move a keyple:** choose which keyple, then click its destination.",
    "resolve": "**Resolve a harbour:** click the harbour.",
    "market": "**Market:** click the market you activate.",
    "headland": "**Build a headland:** choose the tile and the payment, then click the space on the coast.",
    "farm": "**Animals onto a farm:** click the farm icon.",
}


def task_detail(task: dict | None) -> str:
    """What the decision in progress still allows, as the observation's task says it."""
    task = task or {}
    parts = []
    if "keyples_left" in task:
        n = task["keyples_left"]
        parts.append(f"{n} keyple{'s' if n != 1 else ''} still to move"
                     + (" (to farms and fields only)" if task.get("farms_and_fields_only") else ""))
    for key, what in (("animals_left", "animals"), ("exchanges_left", "exchanges")):
        if key in task:
            parts.append(f"{task[key]} {what} left")
    if task.get("kind") == "build":
        colours = task["colours"]
        parts.append(("any colour" if len(colours) == 6 else ", ".join(colours))
                     + (f", costs {task['wheat_cost']} wheat" if task["wheat_cost"] else ", free"))
    return f" _({'; '.join(parts)})_" if parts else ""


class KeysideUI(GameUI):
    name = "keyside"
    title = "Keyside"
    supports_seat_facts = True

    def param_inputs(self, key: str) -> dict:
        c1, c2 = st.columns(2)
        players = int(c1.selectbox("Players", [2, 3, 4, 1], index=0, key=f"{key}_ks_players",
                                   format_func=lambda n: "1 (solo against Keytoma)" if n == 1 else str(n)))
        scoring = c2.selectbox("Harbour scoring tiles", ["black", "red", "mixed"], key=f"{key}_ks_scoring")
        params = {"players": players, "scoring": scoring}
        if players > 1:
            params["first_game"] = st.checkbox("First-game setup", key=f"{key}_ks_first")
            params["dice_strips"] = st.checkbox("Dice strips", key=f"{key}_ks_strips")
        else:
            params["dice_strips"] = st.checkbox("Dice strips", key=f"{key}_ks_strips")
            for opt, label in (("solo_all_beacons", "All 3 beacons must be lit"),
                               ("solo_keytoma_keyple", "A Keytoma keyple on the island"),
                               ("solo_landslide", "A landslide"), ("solo_pirates", "2 pirates")):
                params[opt] = st.checkbox(label, key=f"{key}_ks_{opt}")
        return params

    def seat_name(self, seat: int, players: int) -> str:
        return _seat_label(seat, players)

    def seat_facts(self, game_name: str, key: str):
        return keyside_seat_facts(self, key)

    # -- drawing ----------------------------------------------------------------------------
    def board(self, obs: dict, key: str = "board", viewer=None, changes=None) -> None:
        """The island (left in a slot the decision redraws clickable) and the mats."""
        if not bc.claimed("keyside-island"):
            recent = recent_places(changes)
            slot = bc.reserve("keyside-island", obs=obs, viewer=viewer, recent=recent)
            slot.markdown(island_svg(obs, viewer, recent), unsafe_allow_html=True)
        st.markdown(mats_html(obs, viewer), unsafe_allow_html=True)

    # -- input ------------------------------------------------------------------------------
    def move_input(self, state, obs: dict, key: str, hint=None):
        names = {int(a): state.action_to_string(int(a)) for a in state.legal_actions()}
        task = (obs.get("task") or {}).get("kind") or obs["phase"]
        st.markdown(PROMPTS.get(task, f"**Choose** ({task.replace('_', ' ')}):") + task_detail(obs.get("task")))
        options: dict[str, dict[str, int]] = {}
        rest = {}
        for a, nm in names.items():
            found = island_choice(nm, obs)
            if found:
                options.setdefault(found[0], {})[found[1]] = a
            else:
                rest[a] = nm
        chosen = None
        if options:
            labels = list(options)
            default = next((i for i, lb in enumerate(labels) if hint in options[lb].values()), 0)
            option = labels[0] if len(labels) == 1 else st.radio(
                "Which", labels, index=default, key=f"{key}_opt", horizontal=True,
                label_visibility="collapsed")
            places = [bc.Place(pid, f"{option.rstrip('…')} {pid}", rect=place_rect(pid),
                               mark="hint" if a == hint else None)
                      for pid, a in options[option].items()]
            kept = bc.reserved("keyside-island")
            info = kept[1] if kept else {"obs": obs, "viewer": state.current_player, "recent": ()}
            if not kept:
                bc.claim("keyside-island")
            with (kept[0] if kept else st.container()):
                clicked = bc.board(places, island_svg(info["obs"], info["viewer"], info["recent"]),
                                   key=f"{key}-island", max_width=SIZE,
                                   note="Click a lit place on the island.")
            chosen = bc.pick(clicked, options[option])
        if rest:
            cols = st.columns(min(4, len(rest)))
            for i, (a, nm) in enumerate(rest.items()):
                label = nm + (" ★" if a == hint else "")
                if cols[i % len(cols)].button(label, key=f"{key}_act_{a}", width="stretch"):
                    chosen = a
        return chosen

    def idle_input(self, obs: dict, viewer: int, key: str | None = None) -> str:
        """While the others move: the viewer's own dice, inert (no widget)."""
        seat = obs["seats"][viewer] if viewer is not None and 0 <= viewer < len(obs["seats"]) else None
        dice = "" if seat is None else " ".join(
            f"<span style='display:inline-block;min-width:20px;text-align:center;border-radius:4px;"
            f"background:{DIE[c]};color:#fff;font-weight:700'>{'?' if v is None else v}</span>"
            for c, v in seat["dice"].items() if c in seat["dice_left"] or obs["phase"] == "dice")
        return (f"<div style='min-height:60px;opacity:.7'><b>Waiting for the other players…</b>"
                + (f"<div>Your dice left: {dice}</div>" if dice else "") + "</div>")

    # -- log --------------------------------------------------------------------------------
    def log_text(self, state, action: int, actor: int, viewer):
        if actor < 0:           # chance is public in Keyside; the set-up is on the board
            if state.full_observation()["phase"] == "setup":
                return None
            return state.action_to_string(action)
        return super().log_text(state, action, actor, viewer)

    def events(self, before: dict, after: dict) -> list[str]:
        out = []
        if after["year"] != before["year"] and after["phase"] != "over":
            out.append(f"Year {after['year']} begins")
        if before["phase"] == "dice" and after["phase"] == "play":
            out.append("The dice are revealed")
        for b, a in zip(before["harbours"], after["harbours"]):
            if a["resolved"] and not b["resolved"]:
                out.append(f"H{a['indent']} (tile {a['tile']}) is resolved")
        return out

    def result_text(self, state) -> str:
        obs = state.full_observation()
        scores = [s["score"]["total"] for s in obs["seats"]]
        if obs["players"] == 1:
            won = "you win" if float(state.returns()[0]) > 0 else "Keytoma wins"
            lit = sum(1 for b in obs.get("beacons", []) if b and b["lit"])
            return f"Game over: {won} — {scores[0]} points, {lit} beacon{'s' if lit != 1 else ''} lit."
        table = ", ".join(f"P{q} {s}" for q, s in enumerate(scores))
        return super().result_text(state) + f" ({table} points)"


# ---------------------------------------------------------------------------- analyse from a seat
def example_facts(params: dict, seat: int, seed: int = 0) -> dict:
    """A fresh island (the set-up dealt with `seed`) in year 1's secret dice phase, `seat`
    starting and about to set its dice: a starting point for the form."""
    from boardlab.games.keyside import position_facts

    state = boardlab.make("keyside", **params).new_initial_state(seed)
    while state.is_chance():
        state.apply(int(state.legal_actions()[0]))
    facts = position_facts(state.observation(seat))
    facts["start_player"] = facts["turn"] = seat
    for sf in facts["seats"]:
        sf.pop("dice_set", None)
    return facts


def _live_facts(params: dict):
    """(facts, seat) of the Keyside game being played with these parameters, from the seat
    whose view is on screen (only what that seat knows); None if there is none."""
    from boardlab.games.keyside import position_facts

    sess = play_session()
    if sess is None or sess.game.name != "keyside" or sess.state.is_terminal():
        return None
    if dict(sess.game.params) != {**boardlab.games.get("keyside").DEFAULTS, **params}:
        return None
    seat = sess.viewer()
    if seat is None or sess.state.full_observation()["phase"] not in ("dice", "play"):
        return None
    return position_facts(sess.state.observation(seat)), seat


def keyside_seat_facts(ui: KeysideUI, key: str):
    """The form (the facts as JSON, see docs/keyside.md "Analysing a real table"); returns
    the built (state, seat, notes) or None."""
    st.caption("Enter the table as your seat sees it: the island (harbour and scoring tiles, boats "
               "and sailors, dice on the harbours, keyples, headlands, markets, farms and fields), "
               "every mat, the year, the phase and whose turn it is. Before the reveal give only "
               "your own dice; the others' and the gem bag's order are dealt at random (and the "
               "search re-deals them from your seat's view).")
    params = ui.param_inputs(key)
    live = _live_facts(params)
    seats = list(range(params["players"]))
    seat = int(st.selectbox("Your seat (to move)", seats, index=live[1] if live else 0,
                            format_func=lambda s: f"P{s}", key=f"{key}_ks_seat"))
    if live:
        st.caption(f"Prefilled from the game being played, as P{live[1]} (you) sees it now.")
        facts = live[0]
    else:
        facts = example_facts(params, seat)
    tag = "_".join(f"{v}" for v in params.values()) + (f"_live{live[1]}" if live else f"_{seat}")
    text = st.text_area("Facts (JSON)", value=json.dumps(facts, indent=1), height=360,
                        key=f"{key}_ks_facts_{tag}")
    if not st.button("Set up this position", key=f"{key}_build", type="primary"):
        return None
    try:
        facts = json.loads(text)
        if not isinstance(facts, dict):
            raise ValueError("write one JSON object of facts")
        state = boardlab.make("keyside", **params).position(seat, **facts)
    except json.JSONDecodeError as e:      # a ValueError too: caught first
        st.error(f"These facts cannot be set up: not valid JSON ({e})")
        return None
    except ValueError as e:
        st.error(f"These facts cannot be set up: {str(e).removeprefix('keyside: ')}")
        return None
    mover = state.current_player
    if mover != seat:
        who = "chance (Keytoma)" if mover == boardlab.CHANCE else f"P{mover}"
        st.error(f"These facts cannot be set up for P{seat}: {who} is to move in this position; "
                 "the analysis is for the seat to move (set 'turn', or choose that seat)")
        return None
    return state, seat, []
