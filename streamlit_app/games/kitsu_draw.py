"""Kitsu drawn as SVG: the cards, the power tokens and the whole table (wisdom track, seats,
the trick, the last trick, tokens), and a card of the hand on its own. Pictures only, from
observation dicts; what the player clicks and the page layout are in kitsu.py. Card names
follow docs/kitsu.md.
"""
from __future__ import annotations

from . import kitsu_text as kt
from ..board_component import viewer_word
from .base import esc, plural

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
TOKEN_TITLE = kt.TOKEN_NAME
card_long_name = kt.card_name

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
        fs = max(h * 0.12, 9.5)           # 9 px or more on a desktop's table
        if h >= 50:
                out.append(f"<text class='blb-phone-hide' x='{x + 8}' y='{y + 6 + fs:.1f}' "
                           f"font-size='{fs:.1f}' font-weight='700' fill='#ffffff' "
                           f"font-family='Georgia, serif'>{num}</text>")
        if h >= 70:
            clan = "BLUE" if card[0] == "B" else "ORANGE"
            # the corner index and the clan's word: left out on a phone (the big number
            # and the colour say it), where they would be too small to read
            out.append(f"<text class='blb-phone-hide' x='{x + w / 2:.1f}' y='{y + h - 9:.1f}' "
                       f"text-anchor='middle' "
                       f"font-size='{max(h * 0.085, 9.7):.1f}' letter-spacing='1.5' fill='#ffffff' "
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
            out.append(f"<text class='blb-phone-hide' x='{x + w / 2:.1f}' y='{y + h - 10:.1f}' "
                       f"text-anchor='middle' "
                       f"font-size='{max(h * 0.085, 9.7):.1f}' font-weight='700' "
                       f"letter-spacing='1.5' "
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
    """Whose a trick card is, from the seat the table is seen from (kt.relation_text)."""
    return kt.relation_text(seat, viewer, clans)


def recent_seats(recent) -> set[int]:
    """Seats that played a card among ``recent`` moves ([(actor, log text), ...]: "plays
    Blue 3", or the notation "play B3")."""
    return {a for a, name in (recent or ()) if a >= 0 and name.startswith(("play ", "plays "))}


def _same_trick(before: dict, obs: dict) -> bool:
    return all(before.get(k) == obs.get(k) for k in ("round", "deal", "tricks"))


def _tagged(pid: str, svg: str) -> str:
    """An element of the picture the board component animates as place ``pid``."""
    return f"<g data-place='{pid}'>{svg}</g>"


def board_svg(obs: dict, viewer=None, *, recent=None, trick_rects=None, last_rects=None,
              last_cards=None, places=None, before=None) -> str:
    """The whole Kitsu table as an SVG string, drawn from an observation dict.

    ``recent``: the moves since the viewer's last decision ([(actor, notation)]): the cards
    they put on the table are ringed. ``trick_rects`` / ``last_rects``: lists the rectangles
    (x, y, w, h) of the current / last trick's cards are appended to (where a click lands).
    ``last_cards``: cards of a last trick known from elsewhere (analysis from a seat), drawn
    when the observation has none. ``places``: a list that receives a dict (id, label, rect,
    tip and, for what changed since ``before`` - the viewer's observation at its last
    decision - anim) for every element with something to say: pawns, track, tokens, seats,
    cards; the elements an animation moves are tagged ``data-place`` in the picture (a slide
    starts from the centre of where the piece was: a card from its seat, a pawn from its
    old space)."""
    W = 820
    new_seats = recent_seats(recent)
    n = obs["players"]
    L = obs["track_length"]
    out = [] if places is None else places
    same_trick = before is not None and _same_trick(before, obs)

    def place(pid, label, rect, tip, anim=None):
        out.append({"id": pid, "label": label, "rect": tuple(round(v, 1) for v in rect),
                    "tip": tip, "anim": anim})

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
    place("track", f"Wisdom track, {L} spaces", (16, 16, 110, 76),
          kt.track_tip(L) + f" Now: Blue {obs['pawns'][0]}, Orange {obs['pawns'][1]}.")
    for clan, cy in ((0, 57), (1, 79)):
        pos = obs["pawns"][clan]
        colour = BLUE if clan == 0 else ORANGE
        cx = x0 + pos * step
        pid = f"pawn-{('blue', 'orange')[clan]}"
        parts.append(_tagged(pid, f"<circle cx='{cx:.1f}' cy='{cy}' r='9.5' fill='{colour}' "
                                  f"stroke='#fff' stroke-width='2.5' filter='url(#kShadow)'/>"))
        parts.append(f"<circle cx='{24 + 6}' cy='{cy}' r='6' fill='{colour}'/>")
        parts.append(_text(42, cy + 5, f"{'Blue' if clan == 0 else 'Orange'}  {pos}/{L}", 13, 600))
        old = before["pawns"][clan] if before is not None else None
        anim = None
        if old is not None and old != pos:
            anim = ({"from": [x0 + old * step, cy]}          # from the old space's centre
                    if before.get("round") == obs.get("round") else {"kind": "flash"})
        place(pid, f"{('Blue', 'Orange')[clan]} pawn, space {pos} of {L}",
              (cx - 10, cy - 10, 20, 20), kt.pawn_tip(clan, pos, L, old), anim)
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
    won_changed = before is not None and before.get("rounds_won") != obs["rounds_won"]
    place("rounds", f"Rounds won: Blue {obs['rounds_won'][0]}, Orange {obs['rounds_won'][1]}",
          (rx - 4, 16, 142, 76), kt.rounds_tip(obs["rounds_won"]),
          {"kind": "flash"} if won_changed else None)
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
        svg, w = _token_chip(tx, 113, name, st_)
        where = {"free": "available", "used": "used", "held": f"held by P{tok['holder']}",
                 "play": "in this trick"}[st_]
        pid = f"tok-{name}"
        parts.append(_tagged(pid, svg))
        parts.append(_text(tx + w + 4, 127, where, 10, 400, "#5b5240"))
        old = (before or {}).get("tokens", {}).get(name)
        changed = before is not None and old is not None and any(
            old.get(k) != tok.get(k) for k in ("holder", "used", "in_trick"))
        place(pid, f"{TOKEN_TITLE.get(name, name)}, {where}", (tx, 113, w + 4 + 6.2 * len(where), 20),
              kt.token_tip(name, tok), {"kind": "flash"} if changed else None)
        tx += w + 12 + 6.2 * len(where)

    # --- seats --------------------------------------------------------------------------------
    top = 150
    ph = 112
    gap = 10
    pw = (W - 16 - gap * (n - 1)) / n
    holders = {tok["holder"]: name for name, tok in obs["tokens"].items()
               if tok["holder"] is not None}
    seat_xy = {}
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
        who = f"P{s} · {CLAN_NAME[clan]}" + (f"  ({viewer_word()})" if viewer == s else "")
        parts.append(_text(x + 12, top + 18, who, 13, 700, "#fff"))
        place(f"seat{s}", f"P{s}, {CLAN_NAME[clan]} clan", (x, top, pw, 26),
              kt.seat_tip(obs, s, viewer))
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
            parts.append(_tagged("leader", f"<circle cx='{bx + 9}' cy='{top + 42}' r='9' "
                                           f"fill='{GOLD}' stroke='#9a6f0a'/>"
                                 + _text(bx + 9, top + 46, "L", 11, 800, "#fff", "middle"))
                         + _text(bx + 22, top + 46, "Leader", 11, 600, "#7a5a08"))
            moved = before is not None and before.get("leader") not in (None, s)
            place("leader", f"Leader token: P{s}", (bx, top + 32, 68, 20),
                  f"Leader token, with P{s}: P{s} plays the first card of this trick; it passes "
                  "clockwise after each trick.", {"kind": "flash"} if moved else None)
            bx += 76
        if s in holders:
            svg, w = _token_chip(bx, top + 32, holders[s], "held")
            parts.append(svg)
            place(f"held{s}", f"P{s} holds the {TOKEN_TITLE.get(holders[s], holders[s])}",
                  (bx, top + 32, w, 20), kt.token_tip(holders[s], obs["tokens"][holders[s]]))
            bx += w + 8
        hand = obs["hands"][s]
        size = obs["hand_sizes"][s]
        cy = top + 58
        seat_xy[s] = (x + pw / 2, cy + 20)      # the middle of the seat's cards
        if hand is not None:
            cw = min(26, (pw - 24) / max(len(hand), 1) - 3)
            ch = cw * 1.42
            for i, c in enumerate(hand):
                parts.append(card_svg(x + 12 + i * (cw + 3), cy, cw, ch, c))
                place(f"s{s}c{i}", f"{kt.card_name(c)} in P{s}'s hand",
                      (x + 12 + i * (cw + 3), cy, cw, ch), kt.card_tip(c, n))
            if not hand:
                parts.append(_text(x + 12, cy + 22, "no cards", 12, 400, "#8a8577"))
        else:
            k = min(size, 6)
            for i in range(k):
                parts.append(card_svg(x + 12 + i * 7, cy, 26, 37, None))
            parts.append(_text(x + 12 + (k - 1) * 7 + 36, cy + 24,
                               f"{size} card{'s' if size != 1 else ''}", 13, 600, "#3b3f4a"))
            if size:
                place(f"s{s}back", f"P{s}: {plural(size, 'card')} face down",
                      (x + 12, cy, (k - 1) * 7 + 26, 37),
                      f"P{s}'s hand: {plural(size, 'card')}, face down.")
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
    old_len = len(before.get("trick") or []) if same_trick else 0
    for i, c in enumerate(trick):
        x = 24 + i * (cw + 14)
        card = c.get("card")
        if c["seat"] in new_seats:
            parts.append(_new_ring(x, ty + 50, cw, ch))
        parts.append(_tagged(f"t{i}", card_svg(x, ty + 50, cw, ch, card,
                                               hidden=c.get("hidden", False),
                                               destroyed=c.get("destroyed", False))))
        if trick_rects is not None:
            trick_rects.append((x, ty + 50, cw, ch))
        anim = None
        if before is not None and i >= old_len and c["seat"] != viewer:
            anim = {"from": list(seat_xy.get(c["seat"], (x + cw / 2, ty + 50 + ch / 2)))}
        elif i < old_len and c.get("destroyed") and not before["trick"][i].get("destroyed"):
            anim = {"kind": "flash"}
        name = kt.card_name(card) if card else "a face-down card"
        place(f"t{i}", f"{name}, played by P{c['seat']}", (x, ty + 50, cw, ch),
              kt.trick_card_tip(c, i, obs, viewer), anim)
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
    last_new = before is not None and before.get("last_trick") != obs["last_trick"]
    parts.append(f"<line x1='{lx - 16}' y1='{ty + 14}' x2='{lx - 16}' y2='{ty + 182}' stroke='#4f7a5c'/>")
    parts.append(_text(lx, ty + 24, "LAST TRICK", 12, 700, "#e7f0e2", extra="letter-spacing='2'"))
    if last["cards"]:
        mw = min(44, 250 / max(len(last["cards"]), 1) - 6)
        for i, c in enumerate(last["cards"]):
            x = lx + i * (mw + 6)
            if c["seat"] is not None and c["seat"] in new_seats and not trick:
                parts.append(_new_ring(x, ty + 50, mw, mw * 1.42))
            parts.append(_tagged(f"l{i}", card_svg(x, ty + 50, mw, mw * 1.42, c.get("card"),
                                                   destroyed=c.get("destroyed"))))
            if last_rects is not None:
                last_rects.append((x, ty + 50, mw, mw * 1.42))
            if c.get("card") or c["seat"] is not None:
                card = c.get("card")
                place(f"l{i}", (kt.card_name(card) if card else "A card") + " of the last trick",
                      (x, ty + 50, mw, mw * 1.42), kt.last_trick_tip(c, last, obs),
                      {"kind": "flash"} if last_new else None)
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
    footer = " · ".join(bits)
    parts.append(_text(14, fy, footer, 13, 400, "#4a4f5c"))
    place("piles", footer, (10, fy - 14, 7 * len(footer) + 8, 19), kt.pile_tip(obs))
    if obs.get("winner"):
        parts.append(_text(W - 14, fy, f"Game over: {CLAN_NAME[obs['winner']]} wins", 14, 700,
                           CLAN_COLOUR[obs["winner"]], "end"))
    H = fy + 10
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {W} {H}' width='100%' "
            f"style='max-width:{W}px;background:{PAPER};border-radius:14px' role='img' "
            f"aria-label='Kitsu board'>{''.join(parts)}</svg>")


# ----------------------------------------------------------------------------------------------
# A card of the hand, on its own (a piece of the board component)
# ----------------------------------------------------------------------------------------------
HAND_CARD_W, HAND_CARD_H = 84, 119


def hand_card_svg(card: str) -> str:
    """One card of the hand, as its own small SVG (a piece of the board component)."""
    w, h = HAND_CARD_W, HAND_CARD_H
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='-3 -3 {w + 6} {h + 8}' "
            f"role='img' aria-label='{esc(card_long_name(card))}'>{_defs()}"
            f"{card_svg(0, 0, w, h, card)}</svg>")
