"""Nukumi Onsen Kaitakuki: the town map as SVG (squares clicked to move), the tracks, the partner
boards, the seats' resources and Helpers, the round cards and the live score.

Everything drawn comes from one seat's observation (or the full one): the other seats' Helper
hands are ``null`` there and are drawn as their sizes only.
"""
from __future__ import annotations

import json
import re

import streamlit as st

import boardlab

from .. import board_component as bc
from ..current_game import play_session
from .base import GameUI, action_buttons, esc

MOD = boardlab.games.get("nukumi")
DATA = MOD.DATA
CELL = 68                        # map square size in the SVG
MAP_W, MAP_H = MOD.WIDTH * CELL, (MOD.N_SQ // MOD.WIDTH) * CELL
SEAT_COLOURS = ["#d9432f", "#2f6fd9", "#2e9e4f", "#c98a12"]
NPC_COLOUR = "#6b6b6b"
KIND_FILL = {"vacant": "#f3ead7", "helper": "#d9e8f7", "2_coins": "#f7e7a6", "central": "#e8c7e8",
             "nukumaru": "#f6d2b4", "carriage_stop": "#d6d6d6"}
KIND_LABEL = {"vacant": "", "helper": "Helper", "2_coins": "2 Coins", "central": "Central",
              "nukumaru": "", "carriage_stop": "Carriage"}
BUILDING_ABBR = {"stall": "Stall", "public bath": "Bath", "tavern": "Tavern", "ryokan": "Ryokan",
                 "playground": "Play", "nukumi palace": "Palace", "nukumaru statue": "Statue",
                 "souvenir shop": "Shop"}
RES_COLOUR = {"stone": "#8a8f98", "wood": "#9b6a3c", "networking": "#4a8fd6", "food": "#d6704a",
              "gold": "#e0b020"}
SQUARES = {sq["name"]: sq for sq in DATA["board"]["squares"]}
HELPERS = {h["id"]: h for h in DATA["helpers"]["cards"]}
CARDS = {k["id"]: k for k in DATA["action_cards"]["cards"]}
ROUND_CARDS = {r["id"]: r for r in DATA["round_cards"]["cards"]}
PARTNERS = DATA["partners"]["boards"]
SQUARE_MOVE = re.compile(r"(?:step|carriage to) ([a-i][1-7])")
_TAKE = re.compile(r"take ((?:EX|S)-\d\d)")


def _xy(name: str) -> tuple[int, int]:
    """Top-left corner of square ``name`` (e.g. 'c4') in the map SVG."""
    return (ord(name[0]) - ord("a")) * CELL, (int(name[1:]) - 1) * CELL


_EFFECT_TEXT = {"coins": "{n} coin{s}", "helper": "draw {n} Helper{s}", "play": "play {n} Helper{s}",
                "move": "move {n}", "fun": "fun +{n}", "oishi": "oishi +{n}",
                "die": "{n} die roll{s} on your partner board",
                "coins_per_adjacent_building": "{n} coin{s} per neighbouring building"}


def _effects_text(effects) -> str:
    """A card's effects in words, e.g. 'gain 1 stone, draw 1 Helper' ('no effect' if none)."""
    parts = []
    for e in effects:
        if e[0] == "gain":
            parts.append(f"gain {e[2]} {e[1]}")
        elif e[0] == "take_card":
            parts.append("take an action card")
        else:
            fmt = _EFFECT_TEXT.get(e[0], e[0].replace("_", " ") + " {n}")
            parts.append(fmt.format(n=e[1], s="" if e[1] == 1 else "s"))
    return ", ".join(parts) or "no effect"


def helper_text(hid: str) -> str:
    h = HELPERS.get(hid)
    if not h:
        return hid
    when = "when played" if h["trigger"] == "played" else (
        f"after {'/'.join(h.get('on', []))}" if h["trigger"] == "after_action" else
        "after catching Nukumaru" if h["trigger"] == "after_catch" else "")
    return f"{hid} {h['name']} ({h['points']} pts; {when + ': ' if when else ''}{_effects_text(h['effects'])})"


def card_text(cid: str) -> str:
    k = CARDS.get(cid)
    if not k:
        return cid
    return f"{cid} {k['name']} ({k['points']} pts; pay {' + '.join(k['cost'])}: {_effects_text(k['effects'])})"


def end_text(end: dict) -> str:
    """A partner board's end-game ability, e.g. '12 if 7+ buildings'."""
    kind, pts = end["kind"], end.get("points", 0)
    return {"built_all": lambda: f"{pts} if built {' and '.join(end.get('buildings', []))}",
            "per_building": lambda: f"{pts} per {end.get('building')}",
            "track": lambda: f"{pts} if {end.get('track')} level {end.get('level')}+",
            "helpers": lambda: f"{pts} if {end.get('count')}+ Helpers played",
            "coins": lambda: f"{pts} if {end.get('coins')}+ coins",
            "buildings": lambda: f"{pts} if {end.get('count')}+ buildings"}.get(kind, lambda: "-")()


def partner_name(index: int) -> str:
    return PARTNERS[index]["name"] if 0 <= index < len(PARTNERS) else "-"


RECENT_COLOUR = "#0b7285"      # teal, dashed: apart from the lit squares' gold and the hint's purple


def recent_squares(before: dict | None, obs: dict) -> dict[str, list[str]]:
    """The squares changed since the observation ``before`` (the viewer's, at its last
    decision): square -> what happened there (a pioneer or an NPC arrived, a building was
    built, Nukumaru moved, a cube was placed). Both are one seat's views, so only what that
    seat may know is compared."""
    out: dict[str, list[str]] = {}
    if not before or before.get("players") != obs.get("players"):
        return out

    def note(square, text):
        if square in SQUARES:
            out.setdefault(square, []).append(text)

    for p, (was, now) in enumerate(zip(before["seats"], obs["seats"])):
        if was["square"] != now["square"]:
            note(now["square"], f"P{p} moved to {now['square']}")
    old = {b["square"] for b in before.get("buildings", [])}
    for b in obs.get("buildings", []):
        if b["square"] not in old:
            note(b["square"], f"P{b['owner']} built a {b['building']} on {b['square']}")
    if before.get("nukumaru") and obs.get("nukumaru") != before.get("nukumaru"):   # not its set-up roll
        note(obs["nukumaru"], f"Nukumaru moved to {obs['nukumaru']}")
    was_npcs = before.get("npcs") or []
    for i, sq in enumerate(obs.get("npcs") or []):
        if i >= len(was_npcs) or was_npcs[i] != sq:
            note(sq, f"NPC n{i + 1} moved to {sq}")
    for key, text in (("npc_cubes", "an NPC cube placed on"), ("nukumaru_cubes", "Nukumaru caught on")):
        for sq in sorted(set(obs.get(key) or []) - set(before.get(key) or [])):
            note(sq, f"{text} {sq}")
    return out


def _swatch(fill: str, border: str = "#b9ad92", style: str = "solid") -> str:
    return (f"<span style='display:inline-block;width:12px;height:12px;background:{fill};"
            f"border:2px {style} {border};border-radius:3px;vertical-align:-2px;margin-right:3px'></span>")


def map_legend(recent: dict, solo: str = "none") -> str:
    """The lines under the map: what the square colours and the pieces mean (``solo``: the
    observation's solo mode), and (``recent``) what the dashed rings mark: the squares
    changed since the viewer's last decision."""
    kinds = [("helper", "Helper square (draw a Helper)"), ("2_coins", "2 Coins square"),
             ("nukumaru", "Nukumaru square N1–N6"), ("carriage_stop", "Carriage Stop (ride to any other)"),
             ("central", "Central Square"), ("vacant", "building site")]
    parts = [_swatch(KIND_FILL[k]) + esc(text) for k, text in kinds]
    if any(sq["ribbon"] and sq["kind"] in ("vacant", "helper", "2_coins") for sq in SQUARES.values()):
        parts.append(_swatch("#f3ead7", "#c0392b") + "red bar: ribbon, no building")
    pieces = [_swatch("#fff", SEAT_COLOURS[0]) + "building (its owner's colour and cube)",
              _swatch("#f28c28", "#7a3d00") + "N: Nukumaru"]
    if solo == "score attack":
        pieces += [_swatch(NPC_COLOUR, "#fff") + "n1–n3: NPC pioneers",
                   _swatch(NPC_COLOUR, "#222") + "NPC cube (nothing built there)"]
    elif solo == "chasing":
        pieces.append(_swatch("#222", "#222") + "Nukumaru caught here")
    out = ("<div class='nk-kinds' style='font-size:.78rem;color:#555;margin:2px 0;line-height:1.7'>"
           + " &nbsp; ".join(parts) + "<br>" + " &nbsp; ".join(pieces) + "</div>")
    if recent:
        what = "; ".join(t for texts in recent.values() for t in texts)
        out += (f"<div class='nk-legend' style='font-size:.8rem;color:#333;margin:0 0 6px'>"
                f"{_swatch('none', RECENT_COLOUR, 'dashed')}<b>changed since your last decision:</b> "
                f"{esc(what)}</div>")
    return out


def map_svg(obs: dict, rects: dict | None = None, recent=()) -> str:
    """The town map: squares by kind, buildings with their owner's colour, pioneers, Nukumaru,
    carriage stops, NPCs and cubes (solo). ``rects`` collects each square's rectangle; the
    squares in ``recent`` (see :func:`recent_squares`) are ringed."""
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {MAP_W} {MAP_H}' "
           f"width='100%' style='max-width:{MAP_W}px;font-family:sans-serif'>"]
    built = {b["square"]: b for b in obs.get("buildings", [])}
    npc_cubes = set(obs.get("npc_cubes") or [])
    nuku_cubes = set(obs.get("nukumaru_cubes") or [])
    for name, sq in SQUARES.items():
        x, y = _xy(name)
        if rects is not None:
            rects[name] = (x, y, CELL, CELL)
        out.append(f"<rect x='{x + 1}' y='{y + 1}' width='{CELL - 2}' height='{CELL - 2}' rx='5' "
                   f"fill='{KIND_FILL[sq['kind']]}' stroke='#b9ad92'/>")
        if sq["ribbon"] and sq["kind"] in ("vacant", "helper", "2_coins"):
            out.append(f"<rect x='{x + 1}' y='{y + CELL - 8}' width='{CELL - 2}' height='6' "
                       f"fill='#c0392b' opacity='.55'/>")       # a ribbon: no building here
        label = KIND_LABEL[sq["kind"]] if sq["kind"] != "nukumaru" else f"N{sq['nukumaru']}"
        out.append(f"<text x='{x + 4}' y='{y + 12}' font-size='10' fill='#6b5d45'>{name} {esc(label)}</text>")
        if name in built:
            b = built[name]
            colour = SEAT_COLOURS[b["owner"] % 4]
            out.append(f"<rect x='{x + 8}' y='{y + 18}' width='{CELL - 16}' height='26' rx='3' "
                       f"fill='#fff' stroke='{colour}' stroke-width='3'/>"
                       f"<rect x='{x + CELL - 16}' y='{y + 14}' width='9' height='9' fill='{colour}' "
                       f"stroke='#333' stroke-width='.6'/>"
                       f"<text x='{x + CELL / 2}' y='{y + 35}' font-size='11' text-anchor='middle' "
                       f"fill='#333'>{BUILDING_ABBR[b['building']]}</text>")
        if name in npc_cubes:
            out.append(f"<rect x='{x + CELL - 18}' y='{y + 16}' width='12' height='12' "
                       f"fill='{NPC_COLOUR}' stroke='#222'><title>NPC cube</title></rect>")
        if name in nuku_cubes:
            out.append(f"<rect x='{x + 6}' y='{y + CELL - 20}' width='12' height='12' fill='#222'>"
                       f"<title>Nukumaru caught here</title></rect>")
    nuku = obs.get("nukumaru")
    if nuku:
        x, y = _xy(nuku)
        out.append(f"<g><title>Nukumaru</title><circle cx='{x + CELL / 2}' cy='{y + CELL / 2 + 4}' r='15' "
                   f"fill='#f28c28' stroke='#7a3d00' stroke-width='2'/><text x='{x + CELL / 2}' "
                   f"y='{y + CELL / 2 + 9}' font-size='14' font-weight='700' text-anchor='middle' "
                   f"fill='#fff'>N</text></g>")
    pieces: dict[str, list] = {}
    for p, seat in enumerate(obs["seats"]):
        pieces.setdefault(seat["square"], []).append((SEAT_COLOURS[p % 4], f"P{p}"))
    for i, sqname in enumerate(obs.get("npcs") or []):
        pieces.setdefault(sqname, []).append((NPC_COLOUR, f"n{i + 1}"))
    for sqname, group in pieces.items():
        x, y = _xy(sqname)
        for i, (colour, text) in enumerate(group):
            cx, cy = x + 13 + (i % 3) * 18, y + CELL - 13 - (i // 3) * 18
            out.append(f"<g><title>{text}</title><circle cx='{cx}' cy='{cy}' r='9' fill='{colour}' "
                       f"stroke='#fff' stroke-width='1.5'/><text x='{cx}' y='{cy + 3.5}' font-size='9' "
                       f"text-anchor='middle' fill='#fff' font-weight='700'>{text}</text></g>")
    for sqname in recent:
        x, y = _xy(sqname)
        out.append(f"<rect class='nk-recent' x='{x + 2.5}' y='{y + 2.5}' width='{CELL - 5}' "
                   f"height='{CELL - 5}' rx='6' fill='none' stroke='{RECENT_COLOUR}' stroke-width='4' "
                   f"stroke-dasharray='8 4'/>")
    out.append("</svg>")
    return "".join(out)


def _res_chips(counts: dict) -> str:
    chips = []
    for r in MOD.RESOURCES:
        n = counts.get(r, 0)
        if n:
            chips.append(f"<span title='{r}' style='display:inline-block;margin:1px 3px 1px 0;"
                         f"padding:0 5px;border-radius:8px;background:{RES_COLOUR[r]};color:#fff;"
                         f"font-size:.8rem'>{r} {n}</span>")
    return "".join(chips) or "<span style='color:#888'>-</span>"


def _track(level: int, name: str) -> str:
    cells = "".join(f"<span style='display:inline-block;width:14px;height:10px;margin-right:1px;"
                    f"background:{'#e07b39' if i < level else '#eee'};border:1px solid #ccc'></span>"
                    for i in range(5))
    return f"{name} {cells} {level}"


def _cubes(used: int) -> str:
    """The partner board's 10 cubes: the used ones (taken off to build) hollow."""
    return "".join(f"<span style='display:inline-block;width:9px;height:9px;margin-right:1px;"
                   f"background:{'#fff' if i < used else '#555'};border:1px solid #555'></span>"
                   for i in range(MOD.N_CUBES))


def seat_panel(obs: dict, p: int) -> str:
    """One seat: partner board (cubes, draw size), tracks, coins, drawn resources, bag, Helpers
    (the hand only if the viewer may see it), action cards, spots used, score."""
    seat = obs["seats"][p]
    colour = SEAT_COLOURS[p % 4]
    mark = " — to move" if obs.get("current_player") == p else (" — passed" if seat["passed"] else "")
    side = obs.get("partner_side", "A")
    partner = PARTNERS[seat["partner"]] if seat["partner"] >= 0 else None
    partner_line = (f"{partner['name']} ({side}): end {end_text(partner[side]['end'])}; "
                    f"action {' + '.join(partner[side]['specific_action']['cost'])} → "
                    f"{_effects_text(partner[side]['specific_action']['effects'])}") if partner else "-"
    hand = seat.get("hand")
    hand_html = ("<br>".join(esc(helper_text(h)) for h in hand) or "-") if hand is not None else \
        f"{seat['hand_size']} hidden"
    sc = seat["score"]
    return (f"<div style='border:2px solid {colour};border-radius:8px;padding:6px 8px;margin-bottom:6px;"
            f"font-size:.85rem'><b style='color:{colour}'>P{p}</b>{mark} · <b>score {sc['total']}</b> "
            f"<span style='color:#666'>(buildings {sc['buildings']}, Helpers {sc['helpers']}, coins "
            f"{sc['coins']}, tracks {sc['tracks']}, start card {sc['start_card']}, partner "
            f"{sc['partner_end'] + sc['construction']}, cards {sc['cards']})</span><br>"
            f"Partner board: {esc(partner_line)}<br>cubes {_cubes(seat['buildings'])} "
            f"{MOD.N_CUBES - seat['buildings']} left (one off per building) · draw size "
            f"<b>{seat['draw_size']}</b> · coins <b>{seat['coins']}</b><br>"
            f"{_track(seat['fun'], 'fun')} &nbsp; {_track(seat['oishi'], 'oishi')}<br>"
            f"drawn {_res_chips(seat['drawn'])}<br>bag {_res_chips(seat['bag'])}"
            f" · on boards {_res_chips(seat['spent'])}<br>"
            f"Helper hand: {hand_html}<br>played: {esc(' '.join(seat['played']) or '-')} · "
            f"cards: {esc(', '.join(card_text(c) for c in seat['cards']) or '-')}<br>"
            f"used this round: {esc(', '.join(seat['used']) or '-')}</div>")


def _face_up_row(texts: list) -> str:
    """An advanced row's 3 slots, left to right, as small boxes ("empty" for an empty slot)."""
    boxes = []
    for i, t in enumerate(texts):
        ident, _, rest = (t or "").partition(" ")
        body = (f"<b>{esc(ident)}</b> {esc(rest)}" if t else "<span style='color:#999'>empty</span>")
        boxes.append(f"<div class='nk-faceup' style='flex:1 1 0;min-width:150px;border:1px solid "
                     f"#c9b98f;border-radius:6px;background:#fffaf0;padding:3px 6px;line-height:1.35;"
                     f"font-size:.8rem'><span style='color:#888'>slot {i + 1}</span> {body}</div>")
    return f"<div style='display:flex;gap:6px;margin:2px 0 4px'>{''.join(boxes)}</div>"


def table_html(obs: dict) -> str:
    """Round cards, face-up rows (advanced), pool, decks, solo status."""
    rnd = obs["round"]
    cards = []
    for i, cid in enumerate(obs.get("round_cards") or []):
        rc = ROUND_CARDS.get(cid, {"name": cid, "effects": []})
        style = "font-weight:700;background:#fff3c4" if i == rnd else ("color:#999" if i < rnd else "")
        effect = esc(_effects_text(rc["effects"]))
        cards.append(f"<span style='{style};padding:1px 4px;border-radius:4px' title='{effect}'>"
                     f"{i + 1}. {esc(rc['name'])}{f' ({effect})' if i == rnd else ''}</span>")
    lines = [f"<b>Round {min(rnd + 1, 5)} of 5</b> ({esc(obs['phase'])}) · " + " ".join(cards),
             f"Start player card: P{obs['start_player']} "
             f"({'face down, +1 draw and 7 points' if obs['start_face_down'] else 'face up'}) · "
             f"Nukumaru on {obs.get('nukumaru') or '-'} · Helper deck {obs['deck_size']} · "
             f"pool {_res_chips(obs['pool'])}"]
    if obs.get("advanced"):
        lines.append("<b>Face-up Helpers</b> (take one, or draw blind; at clean-up the right-most "
                     "goes under the deck, the others slide right)"
                     + _face_up_row([helper_text(h) if h else None for h in obs.get("helper_row", [])]))
        lines.append(f"<b>Face-up action cards</b> · card deck {obs.get('card_deck_size', 0)}"
                     + _face_up_row([card_text(c) if c else None for c in obs.get("card_row", [])]))
    else:
        lines.append("<b>Action cards on offer</b> (hover for cost and effect): "
                     + (", ".join(f"<span title='{esc(card_text(c))}' style='border-bottom:1px dotted "
                                  f"#999'>{esc(c)} {esc(CARDS[c]['name'])}</span>"
                                  for c in obs.get("cards_open") or [] if c in CARDS) or "-"))
    solo = obs.get("solo")
    if solo == "score attack":
        lines.append(f"Score Attack: NPCs on {', '.join(obs.get('npcs') or [])}; "
                     f"{len(obs.get('npc_cubes') or [])} cubes placed")
    elif solo == "chasing":
        lines.append(f"Chasing Nukumaru: caught on {', '.join(obs.get('nukumaru_cubes') or []) or 'none yet'}")
    if obs.get("result"):
        res = obs["result"]
        lines.append(f"<b>Result:</b> {esc(res if isinstance(res, str) else ', '.join(f'{k} {v}' for k, v in res.items()))}")
    return "<div style='font-size:.88rem;line-height:1.6'>" + "<br>".join(lines) + "</div>"


def square_note(obs: dict, name: str) -> str:
    """What entering square ``name`` does, for the hover line under the map."""
    sq = SQUARES[name]
    built = {b["square"] for b in obs.get("buildings", [])} | set(obs.get("npc_cubes") or [])
    used = set(obs.get("bonus_used") or [])
    if name == obs.get("nukumaru"):
        return f"{name}: Nukumaru is here — catch it (coins, the start player card)"
    if sq["kind"] == "helper" and name not in built and name not in used:
        return f"{name}: Helper square — entering draws a Helper"
    if sq["kind"] == "2_coins" and name not in built and name not in used:
        return f"{name}: 2 Coins square — entering gives 2 Coins"
    if sq["kind"] == "carriage_stop":
        return f"{name}: Carriage Stop — ride on to any other stop"
    if name in built:
        return f"{name}: built on"
    if sq["ribbon"]:
        return f"{name}: {KIND_LABEL[sq['kind']] or 'ribbon'} square, nothing can be built here"
    return f"{name}: a square you can build on"


def square_actions(state) -> dict:
    """Map square -> the legal step or carriage ride onto it."""
    out = {}
    for a in state.legal_actions():
        m = SQUARE_MOVE.fullmatch(state.action_to_string(int(a)))
        if m:
            out[m.group(1)] = int(a)
    return out


class NukumiUI(GameUI):
    name = "nukumi"
    title = "Nukumi Onsen"
    supports_seat_facts = True

    def param_inputs(self, key: str) -> dict:
        c1, c2 = st.columns(2)
        players = int(c1.selectbox("Players", [1, 2, 3, 4], index=1, key=f"{key}_nk_players"))
        side = c2.selectbox("Partner board side", ["A", "B"], key=f"{key}_nk_side")
        board_side = c2.selectbox("Player board side", ["A", "B"], key=f"{key}_nk_board",
                                  help="Side B of the personal action boards is a stand-in (docs/nukumi.md)")
        advanced = st.checkbox("Advanced rules (face-up Helpers and action cards)", key=f"{key}_nk_adv")
        solo = "none"
        if players == 1:
            solo = st.selectbox("Solo mode", ["score_attack", "chasing", "none"],
                                format_func={"score_attack": "Score Attack (Solo 1)",
                                             "chasing": "Chasing Nukumaru (Solo 2)",
                                             "none": "Plain 1-player game"}.get,
                                key=f"{key}_nk_solo")
        return {"players": players, "partner_side": side, "board_side": board_side,
                "advanced": bool(advanced), "solo": solo}

    def seat_name(self, seat: int, players: int) -> str:
        return f"P{seat}"

    def seat_colour(self, seat: int, players: int) -> str:
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)]

    # -- drawing ----------------------------------------------------------------------------
    def board(self, obs: dict, key: str = "board", viewer=None, changes=None) -> None:
        """The map (left in a slot a move is clicked in, see :meth:`move_input`), the table and
        one panel per seat, the viewer's first."""
        st.markdown(table_html(obs), unsafe_allow_html=True)
        if not bc.claimed("nukumi-map"):
            recent = recent_squares(getattr(changes, "before", None), obs) if changes else {}
            slot = bc.reserve("nukumi-map", obs=obs, recent=recent)
            slot.markdown(map_svg(obs, recent=recent), unsafe_allow_html=True)
            st.markdown(map_legend(recent, obs.get("solo", "none")), unsafe_allow_html=True)
        order = list(range(obs["players"]))
        if viewer is not None and 0 <= viewer < len(order):
            order = [viewer] + [p for p in order if p != viewer]
        st.markdown("".join(seat_panel(obs, p) for p in order), unsafe_allow_html=True)

    # -- input ------------------------------------------------------------------------------
    def move_input(self, state, obs: dict, key: str, hint=None):
        """Moves onto a square are clicked on the map; everything else is a button."""
        seat = state.current_player
        names = {int(a): state.action_to_string(int(a)) for a in state.legal_actions()}
        squares = square_actions(state)
        chosen = None
        if squares:
            kept = bc.reserved("nukumi-map")
            rects: dict = {}
            view = kept[1]["obs"] if kept else obs
            svg = map_svg(view, rects, kept[1].get("recent", ()) if kept else ())
            places = [bc.Place(sq, f"{state.action_to_string(squares[sq])}" if sq in squares else sq,
                               legal=sq in squares, rect=rects[sq], note=square_note(view, sq),
                               mark="hint" if hint is not None and squares.get(sq) == hint else None)
                      for sq in rects]
            pending = ", ".join(obs.get("pending") or [])
            says = (f"P{seat}: click a lit square on the map (a step, or a carriage ride)"
                    + (f" — still to resolve: {pending}" if pending else ""))
            st.markdown(f"**P{seat}: move.** Click a lit square on the map (a step, or a carriage "
                        "ride)." + (f" Still to resolve: {esc(pending)}." if pending else ""))
            if not kept:
                bc.claim("nukumi-map")
            with (kept[0] if kept else st.container()):     # the prompt under the map too
                clicked = bc.board(places, svg, key=f"{key}-map", max_width=MAP_W, note=says)
            chosen = bc.pick(clicked, squares)
        rest = [a for a in names if a not in squares.values()]
        prompt = {"event": "the round card's event", "actions": "your action (or a free action)",
                  "payment": "how to pay", "move": "other moves", "play helpers": "a Helper to play",
                  "take a card": "an action card", "helper choice": "a face-up Helper or blind",
                  "end of turn": "a free action, or end your turn",
                  "npc route": "the NPC's route toward Nukumaru (squares in order; these routes "
                               "place as many cubes)"}.get(obs.get("phase"), "a move")
        if obs.get("phase") == "event" and obs["round"] < len(obs.get("round_cards") or []):
            rc = ROUND_CARDS.get(obs["round_cards"][obs["round"]])
            if rc:
                prompt += f" ({rc['id']} {rc['name']}: {_effects_text(rc['effects'])})"
        if rest:
            st.markdown(f"**P{seat}**, choose {prompt}:")
            offered = [m.group(1) for a in rest if (m := _TAKE.fullmatch(names[a]))]
            if offered:                      # what the cards and Helpers on offer do
                st.markdown("<div style='font-size:.85rem'>" + "<br>".join(
                    esc(card_text(x) if x.startswith("EX-") else helper_text(x)) for x in offered)
                    + "</div>", unsafe_allow_html=True)
            clicked = _grouped_buttons(state, rest, key)
            if clicked is not None:
                chosen = clicked
        return chosen

    def idle_input(self, obs: dict | None, viewer, key: str = "idle") -> str:
        """HTML, inert: the viewer's drawn resources and Helper hand while the others move."""
        text = "Waiting for the other players…"
        if obs is not None and viewer is not None and 0 <= viewer < len(obs["seats"]):
            seat = obs["seats"][viewer]
            hand = ", ".join(helper_text(h) for h in seat.get("hand") or []) or "-"
            text += (f"<br>Your drawn resources: {_res_chips(seat['drawn'])}"
                     f"<br>Your Helpers: {esc(hand)}")
        return f"<div style='min-height:3rem;color:#6b7080;padding-top:.5rem'>{text}</div>"

    def section(self, obs: dict) -> str | None:
        return f"Round {min(obs['round'] + 1, 5)}" if obs.get("phase") not in ("setup",) else "Setup"

    # -- log --------------------------------------------------------------------------------
    def log_text(self, state, action: int, actor: int, viewer):
        name = state.action_to_string(action)
        if actor < 0:
            m = re.fullmatch(r"P(\d) draws (S-\d\d)", name)
            if m and viewer is not None and int(m.group(1)) != viewer:
                return f"P{m.group(1)} draws a Helper"      # others' hands stay hidden
            return name
        return f"P{actor} {name}"

    def result_text(self, state) -> str:
        obs = state.full_observation()
        res = obs.get("result")
        if obs["players"] == 1 and isinstance(res, dict):
            if "score" in res:
                return f"Game over: {res['score']} points — {res['title']}."
            return f"Game over: {', '.join(f'{k} {v}' for k, v in res.items())}."
        scores = obs["scores"]
        best = max(scores)
        winners = [f"P{p}" for p, s in enumerate(scores) if s == best]
        return (f"Game over: {', '.join(winners)} win{'s' if len(winners) == 1 else ''} with {best} "
                f"points ({', '.join(f'P{p} {s}' for p, s in enumerate(scores))}).")

    # -- analyse from a seat ----------------------------------------------------------------
    def seat_facts(self, game_name: str, key: str):
        return nukumi_seat_facts(key)


def example_facts(players: int, solo: str, advanced: bool = False) -> dict:
    """A starting point for the form: round 1, everyone on the Central Square (advanced
    play: 3 face-up Helpers and action cards, nothing under the decks yet)."""
    seats = [{"partner": MOD.PARTNERS[p], "square": "d4", "coins": 0, "fun": 0, "oishi": 0,
              "bag": {"stone": 0, "wood": 0, "networking": 0, "food": 0},
              "drawn": {"stone": 1, "wood": 1, "networking": 1, "food": 1},
              "played": [], "used": [], "cards": [], "buildings": []}
             | ({} if p == 0 else {"hand_size": 1}) for p in range(players)]
    facts = {"round": 1, "round_cards": MOD.ROUND_IDS[:5], "nukumaru": "g2", "start_player": 0,
             "start_face_down": False, "hand": ["S-01"], "discard": [], "seats": seats}
    if solo == "score_attack":
        facts |= {"npcs": ["e4", "d5", "c4"], "npc_cubes": ["e4", "c4"]}
    elif solo == "chasing":
        facts["nukumaru_cubes"] = []
    if advanced:
        facts |= {"helper_row": ["S-05", "S-06", "S-07"], "card_row": ["EX-01", "EX-02", "EX-03"],
                  "helper_bottom": [], "card_bottom": []}
    return facts


def nukumi_seat_facts(key: str):
    """The form (the facts as JSON, see docs/nukumi.md "Analysing a real table"); returns the
    built (state, seat, notes) or None."""
    st.caption("Enter what your seat knows at the start of its turn in the Actions phase: the "
               "round, the board, every seat's partner board, tracks, coins, bag and drawn "
               "resources, your Helpers and the others' hand sizes; in advanced play the 3 "
               "face-up Helpers and action cards (left to right, null for an empty slot) and "
               "the cards the clean-up slide put under the decks (next drawn first). The other "
               "hands and the decks are dealt at random (and the search re-deals them from your "
               "seat's view).")
    live = _live_turn_start()
    if live is not None and st.button(f"Fill in from my game in progress (P{live[1]}'s turn)",
                                      key=f"{key}_nk_from_play"):
        _fill_form(key, *live)
    c1, c2, c3 = st.columns(3)
    players = int(c1.selectbox("Players", [1, 2, 3, 4], index=1, key=f"{key}_nk_players"))
    solo = "none"
    if players == 1:
        solo = c3.selectbox("Solo mode", ["score_attack", "chasing", "none"], key=f"{key}_nk_solo")
    side = c2.selectbox("Partner board side", ["A", "B"], key=f"{key}_nk_side")
    board_side = c2.selectbox("Player board side", ["A", "B"], key=f"{key}_nk_board")
    advanced = st.checkbox("Advanced rules (face-up Helpers and action cards)", key=f"{key}_nk_adv")
    seat = int(st.selectbox("Your seat (to move)", list(range(players)),
                            format_func=lambda s: f"P{s}", key=f"{key}_nk_seat"))
    text = st.text_area("Facts (JSON)", value=json.dumps(example_facts(players, solo, advanced), indent=1),
                        height=320, key=f"{key}_nk_facts_{players}_{solo}_{int(advanced)}")
    if not st.button("Set up this position", key=f"{key}_build", type="primary"):
        return None
    try:
        facts = json.loads(text)
    except json.JSONDecodeError as e:
        st.error(f"These facts cannot be set up: not valid JSON ({e})")
        return None
    if not isinstance(facts, dict):
        st.error("These facts cannot be set up: write one JSON object of facts")
        return None
    try:
        game = boardlab.make("nukumi", players=players, partner_side=side, board_side=board_side,
                             solo=solo, advanced=bool(advanced))
        state = game.position(seat, **facts)
    except ValueError as e:
        msg = str(e)
        st.error(f"These facts cannot be set up: {msg.removeprefix('nukumi: ')}")
        return None
    return state, seat, []


def _live_turn_start():
    """(game, seat, facts) of the Play page's Nukumi game when a human seat's turn in the
    Actions phase has just begun (what Game.position sets up), else None. The facts are
    that seat's observation only."""
    sess = play_session()
    if sess is None or sess.game.name != "nukumi" or sess.state.is_terminal():
        return None
    seat = sess.state.current_player
    if seat < 0 or seat not in sess.humans:
        return None
    obs = sess.state.observation(seat)
    if obs["phase"] != "actions" or obs["pending"] or obs["bonus_used"] or obs["carriage_ridden"]:
        return None
    return sess.game, seat, MOD.position_facts(obs)


def _fill_form(key: str, game, seat: int, facts: dict) -> None:
    """Set the form's widgets (drawn after this) to ``game``'s parameters and ``facts``."""
    params = game.params
    players, solo, advanced = params["players"], params["solo"], params["advanced"]
    st.session_state[f"{key}_nk_players"] = players
    st.session_state[f"{key}_nk_side"] = params["partner_side"]
    st.session_state[f"{key}_nk_board"] = params["board_side"]
    st.session_state[f"{key}_nk_adv"] = advanced
    st.session_state[f"{key}_nk_seat"] = seat
    if players == 1:
        st.session_state[f"{key}_nk_solo"] = solo
    st.session_state[f"{key}_nk_facts_{players}_{solo}_{int(advanced)}"] = json.dumps(facts, indent=1)


_GROUPS = [("Actions", re.compile(r"mining|logging|planning|cooking|gold mining|recruitment|move \(\d\)"
                                  r"|add an action|build .*|partner action|use EX-\d\d")),
           ("Free actions", re.compile(r"discard S-\d\d to move|pay 3 coins to move|sell \w+")),
           ("", re.compile(r".*"))]


def _grouped_buttons(state, actions, key: str):
    """Buttons for ``actions``, the turn's actions apart from the free actions."""
    chosen = None
    left = list(actions)
    for i, (title, rx) in enumerate(_GROUPS):
        group = [a for a in left if rx.fullmatch(state.action_to_string(a))]
        left = [a for a in left if a not in group]
        if not group:
            continue
        if title:
            st.caption(title)
        clicked = action_buttons(state, group, f"{key}-g{i}")
        if clicked is not None:             # action 0 (mining) is a choice too
            chosen = clicked
    return chosen
