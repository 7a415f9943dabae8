"""Kitsu in the app: the board as SVG, the hand as clickable cards, follow-up choices.

No rules here: what may be played comes from ``state.legal_actions()`` and the move names
from ``state.action_to_string``; the picture is drawn from the observation dict. The card
names and the notation ("play B3", "give White", "katana #2 P1 O4", ...) are documented in
docs/kitsu.md.
"""
from __future__ import annotations

import re

import streamlit as st

import boardlab

from .. import board_component as bc
from . import GameUI, esc, plural

BLUE, BLUE_DARK = "#2f6fd6", "#1c468f"
ORANGE, ORANGE_DARK = "#ee7a24", "#b4520d"
GOLD = "#e3a81b"
NEW = "#7ef0c2"          # ring round what changed since the viewer's last decision
INK = "#1f2430"
PAPER = "#fbf7ef"
CLAN_COLOUR = {"blue": BLUE, "orange": ORANGE}
CLAN_NAME = {"blue": "Blue", "orange": "Orange"}
TOKEN_LABEL = {"+3": "+3", "no-advance": "NO ADV", "hidden": "HIDDEN", "recover": "RECOVER",
               "invert": "INVERT"}
TOKEN_TITLE = {"+3": "+3 token", "no-advance": "No-advance token", "hidden": "Hidden-card token",
               "recover": "Recover-card token", "invert": "Colour-inversion token"}
SPECIAL_TITLE = {"White": "White Kitsune", "Black": "Black Kitsune", "Katana": "Katana"}
CARD_TYPES = boardlab.games.get("kitsu").CARD_TYPES

_FOX = ("M -20 -4 L -17 -26 L -6 -13 L 6 -13 L 17 -26 L 20 -4 L 11 8 L 0 20 L -11 8 Z")
_FOX_EYES = "M -9 -3 L -3 0 L -9 1 Z M 9 -3 L 3 0 L 9 1 Z"


# ----------------------------------------------------------------------------------------------
# SVG pieces
# ----------------------------------------------------------------------------------------------
def _defs() -> str:
    return (
        "<defs>"
        f"<linearGradient id='kgB' x1='0' y1='0' x2='0' y2='1'><stop offset='0' stop-color='{BLUE}'/>"
        f"<stop offset='1' stop-color='{BLUE_DARK}'/></linearGradient>"
        f"<linearGradient id='kgO' x1='0' y1='0' x2='0' y2='1'><stop offset='0' stop-color='{ORANGE}'/>"
        f"<stop offset='1' stop-color='{ORANGE_DARK}'/></linearGradient>"
        "<linearGradient id='kgBack' x1='0' y1='0' x2='1' y2='1'><stop offset='0' stop-color='#2b5d5a'/>"
        "<stop offset='1' stop-color='#173c3a'/></linearGradient>"
        "<pattern id='kpBack' width='10' height='10' patternUnits='userSpaceOnUse' "
        "patternTransform='rotate(45)'><rect width='10' height='10' fill='none'/>"
        "<line x1='0' y1='0' x2='0' y2='10' stroke='#ffffff' stroke-opacity='0.10' stroke-width='4'/>"
        "</pattern>"
        "<filter id='kShadow' x='-20%' y='-20%' width='140%' height='140%'>"
        "<feDropShadow dx='0' dy='2' stdDeviation='2' flood-color='#000' flood-opacity='0.25'/>"
        "</filter>"
        "</defs>")


def _fox(cx, cy, scale, fill, eyes) -> str:
    return (f"<g transform='translate({cx:.1f},{cy:.1f}) scale({scale:.3f})'>"
            f"<path d='{_FOX}' fill='{fill}'/><path d='{_FOX_EYES}' fill='{eyes}'/></g>")


def card_svg(x, y, w, h, card, *, hidden=False, destroyed=False, caption=None) -> str:
    """One card: face up if ``card`` is a card name, face down if None."""
    r = w * 0.09
    out = [f"<g filter='url(#kShadow)'>"]
    face_down = card is None
    if face_down:
        out.append(f"<rect x='{x}' y='{y}' width='{w}' height='{h}' rx='{r:.1f}' fill='url(#kgBack)' "
                   f"stroke='#0d2624' stroke-width='1'/>")
        out.append(f"<rect x='{x + 4}' y='{y + 4}' width='{w - 8}' height='{h - 8}' rx='{r * .6:.1f}' "
                   f"fill='url(#kpBack)' stroke='#d9c58f' stroke-opacity='0.6' stroke-width='1'/>")
        out.append(_fox(x + w / 2, y + h / 2, w / 110, "#d9c58f", "#173c3a"))
    elif card[0] in "BO" and card[1:].isdigit():
        grad = "kgB" if card[0] == "B" else "kgO"
        num = card[1:]
        out.append(f"<rect x='{x}' y='{y}' width='{w}' height='{h}' rx='{r:.1f}' fill='url(#{grad})'/>")
        out.append(f"<rect x='{x + 4}' y='{y + 4}' width='{w - 8}' height='{h - 8}' rx='{r * .6:.1f}' "
                   f"fill='none' stroke='#ffffff' stroke-opacity='0.55' stroke-width='1.2'/>")
        big = h * (0.44 if h >= 50 else 0.6)
        out.append(f"<text x='{x + w / 2:.1f}' y='{y + h * (0.62 if h >= 50 else 0.7):.1f}' "
                   f"text-anchor='middle' font-size='{big:.1f}' font-weight='800' fill='#ffffff' "
                   f"font-family='Georgia, serif'>{num}</text>")
        fs = max(h * 0.12, 8)
        if h >= 50:
                out.append(f"<text x='{x + 8}' y='{y + 6 + fs:.1f}' font-size='{fs:.1f}' "
                           f"font-weight='700' fill='#ffffff' font-family='Georgia, serif'>{num}</text>")
        if h >= 70:
            clan = "BLUE" if card[0] == "B" else "ORANGE"
            out.append(f"<text x='{x + w / 2:.1f}' y='{y + h - 9:.1f}' text-anchor='middle' "
                       f"font-size='{max(h * 0.075, 7):.1f}' letter-spacing='1.5' fill='#ffffff' "
                       f"fill-opacity='0.85' font-family='Helvetica, Arial, sans-serif'>{clan}</text>")
    else:
        if card == "White":
            bg, fg, eyes, stroke = "#fffdf6", "#8a8f99", "#fffdf6", "#b8b2a3"
        elif card == "Black":
            bg, fg, eyes, stroke = "#22252c", "#f3efe4", "#22252c", "#000000"
        else:  # Katana
            bg, fg, eyes, stroke = "#8e1f1f", "#f3efe4", "#8e1f1f", "#5a1010"
        out.append(f"<rect x='{x}' y='{y}' width='{w}' height='{h}' rx='{r:.1f}' fill='{bg}' "
                   f"stroke='{stroke}' stroke-width='1.2'/>")
        out.append(f"<rect x='{x + 4}' y='{y + 4}' width='{w - 8}' height='{h - 8}' rx='{r * .6:.1f}' "
                   f"fill='none' stroke='{fg}' stroke-opacity='0.45' stroke-width='1'/>")
        if card == "Katana":
            cx, cy = x + w / 2, y + h * 0.45
            s = h / 120
            out.append(f"<g transform='translate({cx:.1f},{cy:.1f}) rotate(-40) scale({s:.3f})'>"
                       f"<rect x='-3' y='-40' width='6' height='56' rx='3' fill='{fg}'/>"
                       f"<rect x='-12' y='16' width='24' height='5' rx='2' fill='{GOLD}'/>"
                       f"<rect x='-3.5' y='21' width='7' height='20' rx='2' fill='#3a2a1a'/></g>")
        else:
            out.append(_fox(x + w / 2, y + h * 0.44, h / 95, fg, eyes))
        if h >= 70:
            label = {"White": "WHITE", "Black": "BLACK", "Katana": "KATANA"}[card]
            out.append(f"<text x='{x + w / 2:.1f}' y='{y + h - 10:.1f}' text-anchor='middle' "
                       f"font-size='{max(h * 0.08, 7):.1f}' font-weight='700' letter-spacing='1.5' "
                       f"fill='{fg}' font-family='Helvetica, Arial, sans-serif'>{label}</text>")
    if destroyed:
        out.append(f"<rect x='{x}' y='{y}' width='{w}' height='{h}' rx='{r:.1f}' fill='#000' "
                   f"fill-opacity='0.45'/>")
        out.append(f"<path d='M {x + 10} {y + 10} L {x + w - 10} {y + h - 10} M {x + w - 10} {y + 10} "
                   f"L {x + 10} {y + h - 10}' stroke='#ff4d4d' stroke-width='5' stroke-linecap='round'/>")
    if hidden:
        cx, cy = x + w / 2, y + h - 14 if not face_down else y + h - 16
        out.append(f"<rect x='{cx - 28:.1f}' y='{cy - 9:.1f}' width='56' height='16' rx='8' "
                   f"fill='#6d3fc4' stroke='#fff' stroke-width='1'/>"
                   f"<text x='{cx:.1f}' y='{cy + 3:.1f}' text-anchor='middle' font-size='9' "
                   f"font-weight='700' fill='#fff' font-family='Helvetica, Arial, sans-serif'>HIDDEN</text>")
    out.append("</g>")
    if caption:
        out.append(f"<text x='{x + w / 2:.1f}' y='{y - 7}' text-anchor='middle' font-size='12' "
                   f"fill='#3b3f4a' font-family='Helvetica, Arial, sans-serif'>{esc(caption)}</text>")
    return "".join(out)


def _token_chip(x, y, name, state="free", owner=None) -> str:
    """A power token chip; state: free, held, used."""
    label = TOKEN_LABEL.get(name, name)
    w = 14 + 7 * len(label)
    fill = {"free": "#6d3fc4", "held": "#6d3fc4", "used": "#c9c3d6", "play": "#e3a81b"}[state]
    text = "#fff" if state != "used" else "#7a7488"
    out = [f"<g><title>{esc(TOKEN_TITLE.get(name, name))}{' (used this round)' if state == 'used' else ''}"
           f"</title><rect x='{x}' y='{y}' width='{w}' height='20' rx='10' fill='{fill}'/>"
           f"<text x='{x + w / 2:.1f}' y='{y + 14}' text-anchor='middle' font-size='11' font-weight='700' "
           f"fill='{text}' font-family='Helvetica, Arial, sans-serif'>{esc(label)}</text>"]
    if state == "used":
        out.append(f"<line x1='{x + 5}' y1='{y + 10}' x2='{x + w - 5}' y2='{y + 10}' stroke='#7a7488' "
                   f"stroke-width='1.5'/>")
    if owner is not None:
        out.append(f"<text x='{x + w / 2:.1f}' y='{y + 33}' text-anchor='middle' font-size='11' "
                   f"fill='#3b3f4a' font-family='Helvetica, Arial, sans-serif'>{esc(owner)}</text>")
    out.append("</g>")
    return "".join(out), w


def _new_ring(x, y, w, h) -> str:
    """A glow round a card played since the viewer's last decision."""
    return (f"<rect x='{x - 4:.1f}' y='{y - 4:.1f}' width='{w + 8:.1f}' height='{h + 8:.1f}' "
            f"rx='{w * 0.12 + 3:.1f}' fill='none' stroke='{NEW}' stroke-width='3.5'>"
            "<title>played since your last decision</title></rect>")


def _text(x, y, s, size=13, weight=400, fill=INK, anchor="start", extra="") -> str:
    return (f"<text x='{x:.1f}' y='{y:.1f}' font-size='{size}' font-weight='{weight}' fill='{fill}' "
            f"text-anchor='{anchor}' font-family='Helvetica, Arial, sans-serif' {extra}>{esc(s)}</text>")


def relation(seat: int, viewer, clans) -> str:
    """How ``viewer`` calls ``seat``: "you", "your partner" or "opponent" ("" without a viewer)."""
    if viewer is None or viewer < 0:
        return ""
    if seat == viewer:
        return "you"
    return "your partner" if clans[seat] == clans[viewer] else "opponent"


def recent_seats(recent) -> set[int]:
    """Seats that played a card among ``recent`` moves ([(actor, notation), ...])."""
    return {a for a, name in (recent or ()) if a >= 0 and name.startswith("play ")}


def board_svg(obs: dict, viewer=None, *, recent=None, trick_rects=None, last_rects=None,
              last_cards=None) -> str:
    """The whole Kitsu table as an SVG string, drawn from an observation dict.

    ``recent``: the moves since the viewer's last decision ([(actor, notation)]): the cards
    they put on the table are ringed. ``trick_rects`` / ``last_rects``: lists the rectangles
    (x, y, w, h) of the current / last trick's cards are appended to (where a click lands). ``last_cards``: cards
    of a last trick known from elsewhere (analysis from a seat), drawn when the observation
    has none."""
    W = 820
    new_seats = recent_seats(recent)
    n = obs["players"]
    L = obs["track_length"]
    parts = [_defs()]
    # --- wisdom track -------------------------------------------------------------------------
    parts.append(f"<rect x='8' y='8' width='{W - 16}' height='128' rx='14' fill='#f1e7d2' "
                 f"stroke='#d8c7a3'/>")
    parts.append(_text(24, 32, "WISDOM TRACK", 12, 700, "#7a6440", extra="letter-spacing='2'"))
    x0, x1 = 140, W - 170
    step = (x1 - x0) / max(L, 1)
    sw = min(step * 0.82, 40)
    for i in range(L + 1):
        cx = x0 + i * step
        last = i == L
        fill = GOLD if last else ("#fffaf0" if i else "#e9dcc0")
        parts.append(f"<rect x='{cx - sw / 2:.1f}' y='44' width='{sw:.1f}' height='48' rx='7' "
                     f"fill='{fill}' stroke='#bfa878' stroke-width='1'/>")
        label = "★" if last else ("start" if i == 0 else str(i))
        parts.append(_text(cx, 106, label, 10 if i == 0 else 11, 600 if last else 400,
                           "#7a6440", "middle"))
    for clan, cy in ((0, 57), (1, 79)):
        pos = obs["pawns"][clan]
        colour = BLUE if clan == 0 else ORANGE
        cx = x0 + pos * step
        parts.append(f"<circle cx='{cx:.1f}' cy='{cy}' r='9.5' fill='{colour}' stroke='#fff' "
                     f"stroke-width='2.5' filter='url(#kShadow)'/>")
        parts.append(f"<circle cx='{24 + 6}' cy='{cy}' r='6' fill='{colour}'/>")
        parts.append(_text(42, cy + 5, f"{'Blue' if clan == 0 else 'Orange'}  {pos}/{L}", 13, 600))
    # rounds won
    rx = W - 150
    parts.append(_text(rx, 32, "ROUNDS WON", 12, 700, "#7a6440", extra="letter-spacing='2'"))
    for clan, cy in ((0, 57), (1, 79)):
        colour = BLUE if clan == 0 else ORANGE
        won = obs["rounds_won"][clan]
        for k in range(2):
            filled = k < won
            parts.append(f"<rect x='{rx + k * 30}' y='{cy - 10}' width='22' height='20' rx='4' "
                         f"fill='{colour if filled else '#fffaf0'}' stroke='{colour}' stroke-width='2'/>")
            if filled:
                parts.append(_text(rx + k * 30 + 11, cy + 5, "✓", 13, 700, "#fff", "middle"))
        parts.append(_text(rx + 66, cy + 5, "Blue" if clan == 0 else "Orange", 12, 400, "#5b5240"))
    # power tokens row
    parts.append(_text(24, 127, "POWER TOKENS", 10, 700, "#7a6440", extra="letter-spacing='1.5'"))
    tx = 134
    for name, tok in obs["tokens"].items():
        if tok.get("in_trick"):
            st_ = "play"
        elif tok["used"]:
            st_ = "used"
        elif tok["holder"] is not None:
            st_ = "held"
        else:
            st_ = "free"
        label = f"{TOKEN_LABEL.get(name, name)}"
        svg, w = _token_chip(tx, 113, name, st_)
        parts.append(svg)
        where = {"free": "available", "used": "used", "held": f"held by P{tok['holder']}",
                 "play": "in this trick"}[st_]
        parts.append(_text(tx + w + 4, 127, where, 10, 400, "#5b5240"))
        tx += w + 12 + 6.2 * len(where)
        del label

    # --- seats --------------------------------------------------------------------------------
    top = 150
    ph = 112
    gap = 10
    pw = (W - 16 - gap * (n - 1)) / n
    holders = {tok["holder"]: name for name, tok in obs["tokens"].items()
               if tok["holder"] is not None}
    for s in range(n):
        x = 8 + s * (pw + gap)
        clan = obs["clans"][s]
        colour = CLAN_COLOUR[clan]
        to_move = s == obs["current_player"]
        parts.append(f"<rect x='{x:.1f}' y='{top}' width='{pw:.1f}' height='{ph}' rx='12' "
                     f"fill='#ffffff' stroke='{GOLD if to_move else '#d9d4c7'}' "
                     f"stroke-width='{3.5 if to_move else 1.2}'/>")
        parts.append(f"<rect x='{x:.1f}' y='{top}' width='{pw:.1f}' height='26' rx='12' fill='{colour}'/>"
                     f"<rect x='{x:.1f}' y='{top + 14}' width='{pw:.1f}' height='12' fill='{colour}'/>")
        who = f"P{s} · {CLAN_NAME[clan]}" + ("  (you)" if viewer == s else "")
        parts.append(_text(x + 12, top + 18, who, 13, 700, "#fff"))
        if to_move:                 # in the name bar, over neither the name nor the cards
            if 12 + 7.6 * len(who) + 70 <= pw:
                parts.append(f"<rect x='{x + pw - 70:.1f}' y='{top + 4}' width='62' height='18' "
                             f"rx='9' fill='{GOLD}' stroke='#fff' stroke-width='1'/>"
                             + _text(x + pw - 39, top + 17, "to move", 11, 700, "#fff", "middle"))
            else:                   # a narrow seat: a gold marker only
                parts.append(f"<circle cx='{x + pw - 14:.1f}' cy='{top + 13}' r='8' fill='{GOLD}' "
                             f"stroke='#fff' stroke-width='1'><title>to move</title></circle>"
                             + _text(x + pw - 14, top + 17, "▶", 9, 700, "#fff", "middle"))
        bx = x + 12
        if obs["leader"] == s:
            parts.append(f"<circle cx='{bx + 9}' cy='{top + 42}' r='9' fill='{GOLD}' stroke='#9a6f0a'/>"
                         + _text(bx + 9, top + 46, "L", 11, 800, "#fff", "middle")
                         + _text(bx + 22, top + 46, "Leader", 11, 600, "#7a5a08"))
            bx += 76
        if s in holders:
            svg, w = _token_chip(bx, top + 32, holders[s], "held")
            parts.append(svg)
            bx += w + 8
        hand = obs["hands"][s]
        size = obs["hand_sizes"][s]
        cy = top + 58
        if hand is not None:
            cw = min(26, (pw - 24) / max(len(hand), 1) - 3)
            ch = cw * 1.42
            for i, c in enumerate(hand):
                parts.append(card_svg(x + 12 + i * (cw + 3), cy, cw, ch, c))
            if not hand:
                parts.append(_text(x + 12, cy + 22, "no cards", 12, 400, "#8a8577"))
        else:
            k = min(size, 6)
            for i in range(k):
                parts.append(card_svg(x + 12 + i * 7, cy, 26, 37, None))
            parts.append(_text(x + 12 + (k - 1) * 7 + 36, cy + 24,
                               f"{size} card{'s' if size != 1 else ''}", 13, 600, "#3b3f4a"))
        known = (obs.get("known") or [[]] * n)[s] if hand is None else []
        if known:
            parts.append(_text(x + 12, top + ph - 6, "known: " + " ".join(known), 10, 400, "#5b5240"))

    # --- the trick ----------------------------------------------------------------------------
    ty = top + ph + 18
    parts.append(f"<rect x='8' y='{ty}' width='{W - 16}' height='196' rx='14' fill='#2f5e3f' "
                 f"stroke='#22472f'/>")
    parts.append(_text(24, ty + 24, "CURRENT TRICK", 12, 700, "#e7f0e2", extra="letter-spacing='2'"))
    lx = W - 268
    cap = 6 if n == 6 else 4
    cw = min(84, (lx - 40) / cap - 14)
    ch = cw * 1.42
    trick = obs["trick"]
    for i, c in enumerate(trick):
        x = 24 + i * (cw + 14)
        card = c.get("card")
        if c["seat"] in new_seats:
            parts.append(_new_ring(x, ty + 50, cw, ch))
        parts.append(card_svg(x, ty + 50, cw, ch, card, hidden=c.get("hidden", False),
                              destroyed=c.get("destroyed", False)))
        if trick_rects is not None:
            trick_rects.append((x, ty + 50, cw, ch))
        parts.append(_text(x + cw / 2, ty + 44, f"#{i + 1}  P{c['seat']}", 12, 700, "#e7f0e2", "middle"))
        if c.get("destroyed"):
            parts.append(_text(x + cw / 2, ty + 50 + ch + 15, "destroyed", 11, 700, "#ffb4b4", "middle"))
        elif relation(c["seat"], viewer, obs["clans"]):
            parts.append(_text(x + cw / 2, ty + 50 + ch + 15, relation(c["seat"], viewer, obs["clans"]),
                               11, 400, "#cfe0c8", "middle"))
    if not trick:
        who = obs["current_player"]
        msg = "No card played yet" + (f" — P{who} to lead" if who is not None and who >= 0
                                      and obs["phase"] == "play" else "")
        parts.append(_text(24, ty + 100, msg, 15, 400, "#cfe0c8"))
    notes = []
    if obs.get("forced"):
        f = obs["forced"]
        notes.append(f"P{f['seat']} must play {f['colour']} (Black Kitsune)")
    if obs.get("plus3_side"):
        notes.append(f"+3 to {obs['plus3_side']}")
    for name, tok in obs["tokens"].items():
        if tok.get("in_trick"):
            notes.append(f"{TOKEN_TITLE.get(name, name)} played")
    for k, note in enumerate(notes):
        parts.append(_text(lx, ty + 180 - 16 * (len(notes) - 1 - k), note, 11.5, 600, "#ffe69a"))
    # last trick
    last = obs["last_trick"]
    entered = not last["cards"] and bool(last_cards)
    if entered:                 # known from the facts entered, seats and result unknown
        last = {"cards": [{"seat": None, "card": c} for c in last_cards], "winner": None, "moved": 0}
    parts.append(f"<line x1='{lx - 16}' y1='{ty + 14}' x2='{lx - 16}' y2='{ty + 182}' stroke='#4f7a5c'/>")
    parts.append(_text(lx, ty + 24, "LAST TRICK", 12, 700, "#e7f0e2", extra="letter-spacing='2'"))
    if last["cards"]:
        mw = min(44, 250 / max(len(last["cards"]), 1) - 6)
        for i, c in enumerate(last["cards"]):
            x = lx + i * (mw + 6)
            if c["seat"] is not None and c["seat"] in new_seats and not trick:
                parts.append(_new_ring(x, ty + 50, mw, mw * 1.42))
            parts.append(card_svg(x, ty + 50, mw, mw * 1.42, c.get("card"), destroyed=c.get("destroyed")))
            if last_rects is not None:
                last_rects.append((x, ty + 50, mw, mw * 1.42))
            if c["seat"] is not None:
                parts.append(_text(x + mw / 2, ty + 44, f"P{c['seat']}", 11, 600, "#e7f0e2", "middle"))
        if entered:
            res = "Entered (seats not given)"
        elif last["winner"]:
            res = f"{CLAN_NAME.get(last['winner'], last['winner'])} wins, +{last['moved']}"
        else:
            res = "Tie: nobody moves"
        parts.append(_text(lx, ty + 134, res, 14, 700, "#ffffff"))
    else:
        parts.append(_text(lx, ty + 70, "—", 14, 400, "#cfe0c8"))

    # --- footer -------------------------------------------------------------------------------
    fy = ty + 196 + 22
    bits = [f"Round {obs['round']}", f"deal {obs['deal']}", f"{plural(obs['tricks'], 'trick')} played"]
    if n == 2 or obs["phase"] == "deal":
        bits.append(f"draw pile {obs['stock_size']}")
    bits.append(f"discard {len(obs['discard'])}")
    parts.append(_text(14, fy, " · ".join(bits), 13, 400, "#4a4f5c"))
    if obs.get("winner"):
        parts.append(_text(W - 14, fy, f"Game over: {CLAN_NAME[obs['winner']]} wins", 14, 700,
                           CLAN_COLOUR[obs["winner"]], "end"))
    H = fy + 10
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {W} {H}' width='100%' "
            f"style='max-width:{W}px;background:{PAPER};border-radius:14px' role='img' "
            f"aria-label='Kitsu board'>{''.join(parts)}</svg>")


# ----------------------------------------------------------------------------------------------
# The hand as clickable cards
# ----------------------------------------------------------------------------------------------
HAND_CARD_W, HAND_CARD_H = 84, 119


def hand_card_svg(card: str) -> str:
    """One card of the hand, as its own small SVG (a piece of the board component)."""
    w, h = HAND_CARD_W, HAND_CARD_H
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='-3 -3 {w + 6} {h + 8}' "
            f"role='img' aria-label='{esc(card_long_name(card))}'>{_defs()}"
            f"{card_svg(0, 0, w, h, card)}</svg>")


def card_long_name(card: str) -> str:
    if card[0] in "BO" and card[1:].isdigit():
        return f"{'Blue' if card[0] == 'B' else 'Orange'} {card[1:]}"
    return SPECIAL_TITLE.get(card, card)


def hand_actions(names: dict, use_token: bool) -> dict:
    """card -> action of playing (or giving) it, from {action: notation}: with the power token
    if ``use_token`` (cards it cannot go with are absent), else plainly."""
    out = {}
    for a, nm in names.items():
        m = re.fullmatch(r"play (\S+) with (\S+)", nm)
        if m:
            if use_token:
                out.setdefault(m.group(1), a)
            continue
        m = re.fullmatch(r"(?:play|give) (\S+)", nm)
        if m and not use_token:
            out.setdefault(m.group(1), a)
    return out


def hand_places(hand, by_card: dict, names: dict, hint=None):
    """The hand as places of the board component, and place id -> action."""
    hint_card = None
    if hint is not None and hint in names:
        m = re.fullmatch(r"(?:play|give) (\S+).*", names[hint])
        hint_card = m.group(1) if m else None
    places, actions = [], {}
    for i, card in enumerate(hand):
        a = by_card.get(card)
        pid = f"h{i}-{card}"
        hinted = card == hint_card
        if a is not None:
            actions[pid] = a
            label = f"{card_long_name(card)}: {names[a]}"
        else:
            label = f"{card_long_name(card)} cannot be played now"
        places.append(bc.Place(pid, label + (" (the AI's hint)" if hinted else ""),
                               legal=a is not None, svg=hand_card_svg(card),
                               caption="AI hint" if hinted else "",
                               mark="hint" if hinted else None))
    return places, actions


def hand_view(hand, key: str, names=None, by_card=None, hint=None, interactive=True):
    """Draw the hand (clickable where legal); returns the action clicked, or None."""
    places, actions = hand_places(hand, by_card or {}, names or {}, hint)
    if not places:
        st.caption("No cards in your hand.")
        return None
    return bc.pick(bc.board(places, key=f"{key}-kcard-hand", interactive=interactive,
                            piece_width=HAND_CARD_W), actions)


def katana_places(state, names: dict, obs: dict, seat: int, rects):
    """The Katana's targets as places on the table: id -> the trick card's rectangle."""
    places, actions = [], {}
    for a, nm in names.items():
        m = re.fullmatch(r"katana #(\d+) P(\d+) (\S+)", nm)
        if not m or not 0 < int(m.group(1)) <= len(rects):
            return None, None                  # not a trick card: the caller offers buttons
        i, target, card = int(m.group(1)) - 1, int(m.group(2)), m.group(3)
        who = relation(target, seat, obs["clans"])
        pid = f"t{i}"
        actions[pid] = a
        places.append(bc.Place(pid, f"Destroy {card_long_name(card)} of P{target} ({who})",
                               rect=rects[i], note=f"{nm}: P{target} ({who})"))
    return places, actions


def recover_places(names: dict, obs: dict, rects, last_cards=None):
    """The Recover-card token's choices as places on the last trick: one per card type (the
    first card of that type there). None if one is not on the table drawn."""
    shown = [c.get("card") for c in obs["last_trick"]["cards"]] or list(last_cards or ())
    places, actions = [], {}
    for a, nm in names.items():
        m = re.fullmatch(r"recover (\S+)", nm)
        if not m or m.group(1) not in shown[:len(rects)]:
            return None, None
        i = shown.index(m.group(1))
        pid = f"l{i}"
        actions[pid] = a
        places.append(bc.Place(pid, f"Take {card_long_name(m.group(1))} into your hand",
                               rect=rects[i], note=nm))
    return places, actions


def _choice_buttons(names: dict, key: str, hint=None, columns: int = 4):
    """A button per action (its notation as label); the AI's hint is the primary one."""
    chosen = None
    acts = list(names)
    cols = st.columns(min(columns, max(len(acts), 1)))
    for i, a in enumerate(acts):
        if cols[i % len(cols)].button(names[a] + ("  · AI hint" if a == hint else ""),
                                      key=f"{key}_act_{a}", width="stretch", help=names[a],
                                      type="primary" if a == hint else "secondary"):
            chosen = a
    return chosen


# ----------------------------------------------------------------------------------------------
# The last trick entered in "analyse from a seat": the engine knows its cards (for the
# Recover-card token) but not their seats, so its observation does not list them; the form
# keeps them here, matched to the position by what the seat sees.
# ----------------------------------------------------------------------------------------------
ENTERED_LAST = "kitsu_entered_last_trick"


def _facts_print(obs: dict):
    viewer = obs.get("viewer")
    hand = obs["hands"][viewer] if isinstance(viewer, int) and obs.get("hands") else None
    return (obs["players"], viewer, tuple(hand or ()), tuple(obs["discard"]), tuple(obs["pawns"]),
            obs["tricks"], tuple((c["seat"], c.get("card")) for c in obs["trick"]))


def _entered_last_trick(obs: dict):
    if obs["last_trick"]["cards"] or obs["tricks"]:
        return None
    kept = st.session_state.get(ENTERED_LAST)
    return kept[1] if kept and kept[0] == _facts_print(obs) else None


class KitsuUI(GameUI):
    name = "kitsu"
    title = "Kitsu"
    supports_seat_facts = True

    # -- set-up -----------------------------------------------------------------------------
    def param_inputs(self, key: str) -> dict:
        players = st.selectbox("Players", [2, 4, 6], index=0, key=f"{key}_players",
                               help="2: one against one; 4: two teams of 2; 6: two teams of 3. "
                                    "Even seats are Blue, odd seats Orange.")
        track = st.number_input("Wisdom track length", min_value=3, max_value=100, value=15, step=1,
                                key=f"{key}_track",
                                help="Spaces to absolute wisdom (15 is a documented stand-in: "
                                     "the rulebook does not give the number).")
        return {"players": int(players), "track_length": int(track)}

    def seat_name(self, seat: int, players: int) -> str:
        return f"P{seat} ({'Blue' if seat % 2 == 0 else 'Orange'})"

    # -- drawing ----------------------------------------------------------------------------
    def board(self, obs: dict, key: str = "board", viewer=None, changes=None) -> None:
        """The table; the cards played since the viewer's last decision (``changes``) are
        ringed. The table is left in a slot the Katana's target is clicked in (see
        :meth:`move_input`); if that input came first and drew the table, nothing is drawn."""
        if bc.claimed("kitsu-table"):
            return
        recent = bc.recent_moves(changes)
        last = _entered_last_trick(obs)
        slot = bc.reserve("kitsu-table", obs=obs, viewer=viewer, recent=recent, last_cards=last)
        slot.markdown(board_svg(obs, viewer, recent=recent, last_cards=last),
                      unsafe_allow_html=True)

    # -- input ------------------------------------------------------------------------------
    def move_input(self, state, obs: dict, key: str, hint=None):
        """The decision of the seat to move: a card clicked in the hand, a Katana target clicked
        on the table, or a button. ``hint`` (an action) is highlighted."""
        seat = state.current_player
        names = {int(a): state.action_to_string(int(a)) for a in state.legal_actions()}
        phase = obs.get("phase")
        hand = obs["hands"][seat] or []
        if phase in ("play", "exchange"):
            with_token = {m.group(2) for nm in names.values()
                          if (m := re.fullmatch(r"play (\S+) with (\S+)", nm))}
            use_token = False
            if phase == "exchange":
                st.markdown("**Exchange:** click the card you put face down for your partner.")
            else:
                forced = obs.get("forced")
                msg = "**Your turn:** click a card to play it."
                if forced and forced.get("seat") == seat:
                    msg += f" A Black Kitsune obliges you to play **{forced['colour']}** if you can."
                st.markdown(msg)
                if with_token:
                    token = next(iter(with_token))
                    use_token = st.toggle(f"Play my **{TOKEN_TITLE.get(token, token)}** with this card",
                                          key=f"{key}-usetoken",
                                          value=hint is not None and " with " in names.get(hint, ""))
            by_card = hand_actions(names, use_token)
            choice = hand_view(hand, key, names, by_card, hint)
            # anything legal the hand cannot reach (should not happen) stays offered
            reached = set(hand_actions(names, True).values()) | set(hand_actions(names, False).values())
            rest = {a: nm for a, nm in names.items() if a not in reached}
            if rest:
                choice = _choice_buttons(rest, key, hint) or choice
            return choice
        if phase in ("katana", "recover"):
            chosen = self._table_input(state, obs, names, key, hint)
            if chosen is not False:
                return chosen
        prompts = {
            "plus3_side": "**+3 token:** which clan gets the +3?",
            "recover": "**Recover-card token:** take one card of the last trick into your hand.",
            "token_pick": "**Your clan gains a power token:** choose it.",
            "token_seat": "**Who in your clan receives the token?**",
            "round_leader": "**Your clan won the round:** who leads the next round?",
        }
        st.markdown(prompts.get(phase, "**Choose:**"))
        return _choice_buttons(names, key, hint)

    def _table_input(self, state, obs, names, key, hint):
        """A card clicked on the table, redrawn clickable in the board's slot: the Katana's
        target in the trick, the Recover-card token's card in the last trick. False if the
        choices are not all on the table (the caller offers buttons)."""
        seat = state.current_player
        kept = bc.reserved("kitsu-table")
        info = kept[1] if kept else {"obs": obs, "viewer": seat, "recent": None, "last_cards": None}
        trick_rects, last_rects = [], []
        svg = board_svg(info["obs"], info["viewer"], recent=info["recent"], trick_rects=trick_rects,
                        last_rects=last_rects, last_cards=info["last_cards"])
        if obs["phase"] == "katana":
            places, actions = katana_places(state, names, info["obs"], seat, trick_rects)
            prompt = ("**Katana:** click the card it destroys on the table (a face-up numeral "
                      "card in front of another player).")
            note = "Hover a card to see whose it is; click to destroy it."
        else:
            places, actions = recover_places(names, info["obs"], last_rects, info["last_cards"])
            prompt = ("**Recover-card token:** click the card of the last trick you take into "
                      "your hand.")
            note = "Click a lit card of the last trick."
        if places is None:
            return False
        st.markdown(prompt)
        places = [bc.Place(p.id, p.label, rect=p.rect, note=p.note,
                           mark="hint" if actions[p.id] == hint else None) for p in places]
        if not kept:
            bc.claim("kitsu-table")         # the board, drawn after, leaves the table out
        with (kept[0] if kept else st.container()):
            clicked = bc.board(places, svg, key=f"{key}-{obs['phase']}", max_width=820, note=note)
        return bc.pick(clicked, actions)

    def idle_input(self, obs: dict | None, viewer) -> str:
        """The viewer's hand while the others move, as one inert element in the hand's place
        (same cards, same size: nothing jumps, nothing can be clicked)."""
        hands = (obs or {}).get("hands") or []
        hand = (hands[viewer] or []) if viewer is not None and 0 <= viewer < len(hands) else []
        cards = "".join(f"<div style='width:{HAND_CARD_W}px;opacity:.75'>{hand_card_svg(c)}</div>"
                        for c in hand)
        return ("<div><b>Your hand</b> (waiting for the other players)"
                f"<div style='display:flex;flex-wrap:wrap;gap:6px;margin-top:.4rem'>{cards}</div></div>")

    # -- log --------------------------------------------------------------------------------
    def log_text(self, state, action: int, actor: int, viewer):
        name = state.action_to_string(action)
        if actor < 0:
            if name.startswith("first leader"):
                return f"{name.split()[-1]} is drawn to lead first"
            return None
        if actor != viewer:
            if name.startswith("give"):
                return f"P{actor} puts a card face down for their partner"
            if name.endswith("with hidden"):
                return f"P{actor} plays a card face down under the Hidden-card token"
        return f"P{actor} {name}"

    def events(self, before: dict, after: dict) -> list[str]:
        out = []
        new_round = sum(after["rounds_won"]) > sum(before["rounds_won"])
        # a trick ended: its count went up, or it ended the round (the count starts again)
        last = after.get("last_trick") or {}
        if after.get("tricks", 0) > before.get("tricks", 0) or (
                new_round and last.get("cards") and last != (before.get("last_trick") or {})):
            cards = ", ".join(f"P{c['seat']} {c.get('card') or '?'}"
                              + (" (destroyed)" if c.get("destroyed") else "")
                              for c in last.get("cards", []))
            won = last.get("winner")
            res = (f"{CLAN_NAME.get(won, won)} +{last.get('moved', 0)}" if won else "tie, nobody moves")
            out.append(f"Trick: {cards} → {res}  (Blue {after['pawns'][0]}, "
                       f"Orange {after['pawns'][1]} of {after['track_length']})")
        for clan, name in enumerate(("Blue", "Orange")):
            if after["rounds_won"][clan] > before["rounds_won"][clan]:
                out.append(f"{name} wins the round ({after['rounds_won'][0]}–{after['rounds_won'][1]})")
        for tname, tok in after["tokens"].items():
            old = before["tokens"].get(tname, {})
            if tok["holder"] is not None and tok["holder"] != old.get("holder"):
                out.append(f"P{tok['holder']} receives the {TOKEN_TITLE.get(tname, tname)}")
        if after.get("deal") != before.get("deal") and after.get("deal", 0) > 1:
            out.append(f"New deal (round {after['round']}, deal {after['deal']})")
        return out

    def section(self, obs: dict) -> str | None:
        return f"Round {obs['round']}" if obs.get("round") else None

    def result_text(self, state) -> str:
        obs = state.full_observation()
        w = obs.get("winner")
        if not w:
            return super().result_text(state)
        seats = [s for s in range(obs["players"]) if obs["clans"][s] == w]
        rw = obs["rounds_won"]
        return (f"Game over: the {CLAN_NAME[w]} clan ({', '.join(f'P{s}' for s in seats)}) wins, "
                f"{max(rw)}–{min(rw)} in rounds.")

    # -- analyse from a seat ----------------------------------------------------------------
    def seat_facts(self, game_name: str, key: str):
        return kitsu_seat_facts(key)


# ----------------------------------------------------------------------------------------------
# Analyse from a seat: Game.position builds the State from what one seat knows at a real table
# ----------------------------------------------------------------------------------------------
TOKENS = boardlab.games.get("kitsu").TOKENS


class FactsError(ValueError):
    """Entered facts that cannot be read (the engine's own ValueErrors say what is wrong)."""


def parse_cards(text: str, what: str) -> list[str]:
    """Card names from free text ("B3 o5 white katana" / commas), validated."""
    lookup = {t.lower(): t for t in CARD_TYPES}
    lookup.update({"w": "White", "white kitsune": "White", "k": "Katana", "black kitsune": "Black",
                   "x": "Katana"})
    out = []
    for tok in re.split(r"[\s,;]+", text.strip()):
        if not tok:
            continue
        t = lookup.get(tok.lower())
        if t is None:
            raise FactsError(f"{what}: {tok!r} is not a card (cards: {', '.join(CARD_TYPES)})")
        out.append(t)
    return out


def parse_trick(text: str) -> list[str]:
    """Trick entries in play order, comma separated, for ``Game.position``: "O3",
    "O3 destroyed", "B5 with +3 blue", "B5 with hidden", "hidden" (another seat's face-down
    card). Card names are normalised ("b5" -> "B5", "katana" -> "Katana"); an optional seat
    prefix ("P1 O5") is accepted and dropped (the leader and the order fix the seats)."""
    out = []
    for item in re.split(r"[,;]+", text.strip()):
        words = item.split()
        if not words:
            continue
        if re.fullmatch(r"[Pp]\d+", words[0]):
            words = words[1:]
        if not words:
            raise FactsError(f"trick: {item.strip()!r} has no card")
        if words[0].lower() != "hidden":
            words[0] = parse_cards(words[0], "trick")[0]
        else:
            words[0] = "hidden"
        out.append(" ".join(w if i == 0 else w.lower() for i, w in enumerate(words)))
    return out


def parse_known(text: str, players: int) -> dict:
    """"P1: O6; P3: White B2" -> {1: ["O6"], 3: ["White", "B2"]}."""
    known = {}
    for item in re.split(r";", text.strip()):
        if not item.strip():
            continue
        m = re.fullmatch(r"\s*[Pp](\d+)\s*:?\s*(.*)", item)
        if not m:
            raise FactsError(f"known cards: {item.strip()!r} should read like 'P1: O6 White'")
        seat = int(m.group(1))
        if not 0 <= seat < players:
            raise FactsError(f"known cards: P{seat} is not a seat of a {players}-player game")
        known.setdefault(seat, []).extend(parse_cards(m.group(2), f"known cards of P{seat}"))
    return known


def position_from_facts(players: int, track_length: int, seat: int, facts: dict, seed: int = 0):
    """The State of ``facts`` (see docs/kitsu.md "Analysing a real table") with ``seat`` to
    move. Raises ValueError (the engine's message) if the facts do not make a position."""
    game = boardlab.make("kitsu", players=players, track_length=track_length)
    state = game.position(seat, seed=seed, **facts)
    if state.current_player != seat:
        who = state.current_player
        raise FactsError(f"with this leader and these trick cards P{who} is to play, not you "
                         f"(P{seat}): check the leader and the cards already played")
    return state


def _token_options(players: int) -> list:
    return [None] + list(range(players)) + ["used"]


def _token_label(v) -> str:
    return "available" if v is None else "used this round" if v == "used" else f"held by P{v}"


def kitsu_seat_facts(key: str):
    """The form; returns the built (state, seat, notes) or None."""
    st.caption("Enter what your seat knows at a real table: your hand, the trick in progress, the "
               "track, the power tokens, the cards seen. The AI deals the hidden rest only in ways "
               "consistent with it (and the search re-deals it from your seat's view).")
    c1, c2, c3, c4 = st.columns(4)
    players = int(c1.selectbox("Players", [2, 4, 6], key=f"{key}_players"))
    seat = int(c2.selectbox("Your seat", list(range(players)), format_func=lambda s: f"P{s} "
                            f"({'Blue' if s % 2 == 0 else 'Orange'})", key=f"{key}_seat"))
    leader = int(c3.selectbox("Leader of this trick", list(range(players)),
                              format_func=lambda s: f"P{s}", key=f"{key}_leader"))
    track = int(c4.number_input("Wisdom track length", 3, 100, 15, key=f"{key}_track"))
    hand_text = st.text_input("Your hand (card names: B1–B6, O1–O6, White, Black, Katana)",
                              key=f"{key}_hand", placeholder="B1 B4 O4 O6 Black Katana")
    trick_text = st.text_input(
        "The trick in progress, in play order from the leader (comma separated)",
        key=f"{key}_trick", placeholder="O5, hidden, B3 with +3 blue",
        help="Each card as 'O3', 'O3 destroyed' (by a Katana), 'B5 with +3 blue', 'B5 with "
             "hidden' (your own face-down card) or 'hidden' (another seat's face-down card).")
    st.markdown("**The table**")
    t1, t2, t3, t4 = st.columns(4)
    pawn_b = int(t1.number_input("Blue pawn", 0, track, 0, key=f"{key}_pawn_b"))
    pawn_o = int(t2.number_input("Orange pawn", 0, track, 0, key=f"{key}_pawn_o"))
    won_b = int(t3.number_input("Rounds won by Blue", 0, 1, 0, key=f"{key}_won_b"))
    won_o = int(t4.number_input("Rounds won by Orange", 0, 1, 0, key=f"{key}_won_o"))
    st.markdown("**Power tokens**")
    tcols = st.columns(len(TOKENS))
    tokens = {}
    for col, name in zip(tcols, TOKENS):
        v = col.selectbox(TOKEN_TITLE.get(name, name), _token_options(players),
                          format_func=_token_label, key=f"{key}_tok_{name}")
        if v is not None:
            tokens[name] = v
    st.markdown("**Cards seen**")
    d1, d2 = st.columns(2)
    discard_text = d1.text_input("Discard pile of this deal (every card seen there)",
                                 key=f"{key}_discard", placeholder="B2 O1 B3 O6",
                                 help="With 4 or 6 players every card is in a hand, the trick "
                                      "or the discard pile, so list the whole discard pile.")
    last_text = d2.text_input("Last completed trick (its cards, also in the discard)",
                              key=f"{key}_last", placeholder="B3 O6")
    k1, k2 = st.columns(2)
    known_text = k1.text_input("Cards you know another hand holds",
                               key=f"{key}_known", placeholder="P2: O6; P1: White",
                               help="e.g. the card you gave your partner in the exchange")
    sizes_text = k2.text_input("Hand sizes, one per seat (blank: equal hands less the "
                               "cards played in this trick)", key=f"{key}_sizes",
                               placeholder=" ".join(["5"] * players))
    if not st.button("Set up this position", key=f"{key}_build", type="primary"):
        return None
    try:
        hand = parse_cards(hand_text, "hand")
        if not hand:
            raise FactsError("enter your hand")
        facts = {"hand": hand, "leader": leader, "trick": parse_trick(trick_text),
                 "pawns": [pawn_b, pawn_o], "rounds_won": [won_b, won_o], "tokens": tokens,
                 "discard": parse_cards(discard_text, "discard"),
                 "last_trick": parse_cards(last_text, "last trick"),
                 "known": parse_known(known_text, players)}
        if sizes_text.strip():
            try:
                facts["hand_sizes"] = [int(x) for x in re.split(r"[\s,;]+", sizes_text.strip())]
            except ValueError:
                raise FactsError("hand sizes: write one whole number per seat, e.g. "
                                 + " ".join(["5"] * players)) from None
        state = position_from_facts(players, track, seat, facts)
    except ValueError as e:                # FactsError and the engine's own messages
        msg = str(e)
        if msg.startswith("kitsu: "):
            msg = msg[len("kitsu: "):]
        st.error(f"These facts cannot be set up: {msg}")
        return None
    if facts["last_trick"]:
        st.session_state[ENTERED_LAST] = (_facts_print(state.observation(seat)), facts["last_trick"])
    else:
        st.session_state.pop(ENTERED_LAST, None)
    notes = []
    if players > 2 and not facts["known"]:
        notes.append("No known cards entered: if you gave your partner a card in the exchange, "
                     "enter it under 'Cards you know another hand holds'.")
    return state, seat, notes
