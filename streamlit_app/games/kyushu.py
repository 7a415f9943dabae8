"""Kyūshū in the app: the page layout (maps, table, hand, the live score table) and the input
(follow-up choices for the multi-step decisions, placement by clicking with a preview, the
"analyse from a seat" form). The pictures are drawn by kyushu_draw.py.

No rules here: what may be chosen comes from ``state.legal_actions()`` and the names from
``state.action_to_string`` (notation in docs/kyushu.md); pictures are drawn from observation
dicts only, so a seat never sees more than ``state.observation(seat)`` tells it (other hands,
and the other players' Map turns until everyone has placed). The placement preview applies the
candidate actions to a clone of the state and draws the mover's own view of the result.
"""
from __future__ import annotations

import re

import streamlit as st

import dataclasses

from .. import board_component as bc
from . import kyushu_text as kt
from .base import GameUI, choice_columns, third_person
from .kyushu_draw import (GOLD, SEAT_COLOURS, TERRAIN_NAME, backs_svg, card_size, card_svg,
                          cell_size, col_name, face_defs, map_svg, most_fewest_text,
                          oriented_card_svg, parse_square, seat_map, table_svg)

SCORE_ROWS = [("hot_springs", "Hot springs"), ("forests", "Forests"), ("towns", "Towns"),
              ("lakes", "Lakes"), ("factories", "Factories"), ("travelers", "Travelers"),
              ("most_fewest", "Most/Fewest"), ("total", "Total"), ("fallows", "Fallows (tie-break)")]
MAP_TURN = re.compile(r"^(orient |place |terraform$|discard |choose |\w+ tile at |end turn$)")


# ----------------------------------------------------------------------------------------------
# The score table and the Most/Fewest lines under it
# ----------------------------------------------------------------------------------------------
def score_rows(obs: dict, viewer=None) -> list[dict]:
    """One row per seat of the score table: {"seat", category: points, ...}."""
    rows = []
    for seat in range(obs["players"]):
        sc = obs["scores"][seat]
        row = {"seat": f"P{seat}" + (f" ({bc.viewer_word()})" if seat == viewer else "")}
        row.update({label: sc[k] for k, label in SCORE_ROWS
                    if (k != "most_fewest" or obs["options"]["most_fewest"])
                    and (k != "travelers" or obs["options"]["travelers"])})
        rows.append(row)
    return rows


def most_fewest_lines(obs: dict) -> list[str]:
    lines = []
    for mf in obs.get("most_fewest") or []:
        a, b = mf["seats"]
        idx = mf["card"] - 1
        key = "most_metrics" if mf["side"] == "most" else "fewest_metrics"
        va, vb = obs["scores"][a][key][idx], obs["scores"][b][key][idx]
        lines.append(f"**P{a} | P{b}** — {most_fewest_text(mf['card'], mf['side'])}: "
                     f"P{a} {va}, P{b} {vb}")
    return lines


# ----------------------------------------------------------------------------------------------
# Input helpers
# ----------------------------------------------------------------------------------------------
def card_choices(state, choices, key: str, prompt: str, label_of=None, hint=None):
    """Cards to click, side by side (choices: [(action, card)]), each captioned; the AI's
    hint is ringed. Returns the action of the card clicked, or None."""
    st.markdown(prompt)
    places, actions = [], {}
    for a, card in choices:
        name = state.action_to_string(a)
        pid = f"c{a}"
        actions[pid] = a
        places.append(bc.Place(pid, kt.decision_label(name) + (" (the AI's hint)" if a == hint
                                                                 else ""),
                               svg=card_svg(card, 26), tip=kt.decision_tip(name),
                               caption=(label_of(a, card) if label_of else name)
                               + (" · AI hint" if a == hint else ""),
                               mark="hint" if a == hint else None))
    return bc.pick(bc.board(places, key=f"{key}_act_cards", piece_width=92), actions)


def inert_places(found: list[dict]) -> list:
    """The drawing's elements (``places`` of kyushu_draw's map_svg / table_svg) as inert
    places with their tips."""
    return [bc.Place(d["id"], d["label"], legal=False, rect=d["rect"], tip=d["tip"],
                     anim=d["anim"]) for d in found]


def over_squares(found: list[dict], legal: list) -> list:
    """The map's inert squares with the ``legal`` places laid over them: a legal place on a
    square ("p<square>", "s<square>") takes that square's place (and its arrival)."""
    taken = {p.id[1:]: p for p in legal}
    out = []
    for p in inert_places(found):
        q = taken.get(p.id[1:])
        if q is None:
            out.append(p)
        elif q.anim is None and p.anim is not None:
            taken[p.id[1:]] = dataclasses.replace(q, anim=p.anim)
    return out + list(taken.values())


def with_hint(places: list, actions: dict, hint) -> list:
    """``places`` with the AI's hint ringed (the legal place whose action it is)."""
    return [dataclasses.replace(p, mark="hint") if p.legal and actions.get(p.id) == hint
            and hint is not None else p for p in places]


def svg_width(svg: str) -> int:
    """The width of an SVG's viewBox (the board's largest size on screen)."""
    m = re.search(r"viewBox='[-\d.]+ [-\d.]+ ([\d.]+) ", svg)
    return int(float(m.group(1))) if m else 820


# ----------------------------------------------------------------------------------------------
# Placement on the map by clicking: orientations, the legal positions and their previews
# ----------------------------------------------------------------------------------------------
ROTATIONS = ("horizontal", "vertical", "horizontal turned", "vertical turned")
LAYER_TEXT = {"over": "Over: on top of the map", "under": "Under: slid beneath placed cards"}
SQUARE_PHASES = ("pay", "terraform_resource_1", "terraform_resource_2", "terraform_fallow",
                 "traveler_resource")
ON_MY_MAP = re.compile(r"^(?:pay \w+ at |discard \w+ at |\w+ tile at |traveler to P\d+ with \w+ from )"
                       r"([a-z]{1,2}\d+)$")


def orient_table(names: dict) -> dict:
    """{(rotation, layer): action} of the "orient <card> <rotation> <layer>" actions."""
    out = {}
    for a, nm in names.items():
        m = re.fullmatch(r"orient \d+ (.+) (over|under)", nm)
        if m and m.group(1) in ROTATIONS:
            out[(m.group(1), m.group(2))] = a
    return out


def _anchor(m: dict):
    prov = next((c for c in m["cards"] if str(c["card"]).startswith("S")), None)
    return (prov["row"], prov["col"]) if prov else (0, 0)


def placement_options(base, seat: int, card, only=None) -> list[dict]:
    """The legal positions of ``card`` in ``base`` (orientation chosen), each with what a
    player sees before choosing: the card's squares left visible there, its extent and the
    change of score (``only``: that action's alone). Computed by applying each position to
    a copy of the state and reading the mover's own view (nothing the seat may not see)."""
    before = base.observation(seat)
    anchor = _anchor(before["maps"][seat])
    out = []
    for a in (int(x) for x in base.legal_actions()):
        if only is not None and a != only:
            continue
        name = base.action_to_string(a)
        m = re.fullmatch(r"place \d+ (.+) at ([a-z]{1,2}\d+) (over|under)", name)
        if not m:
            continue
        row, col = parse_square(m.group(2))
        after = base.clone()
        after.apply(a)
        obs = after.observation(seat)
        mp = obs["maps"][seat]
        ar, ac = _anchor(mp)
        dr, dc = ar - anchor[0], ac - anchor[1]       # the grid re-centred: back to before
        entry = next(c for c in mp["cards"] if str(c["card"]) == str(card))
        out.append({"action": a, "name": name, "square": m.group(2), "row": row, "col": col,
                    "layer": m.group(3), "height": entry["height"], "width": entry["width"],
                    "cells": [(c["row"] - dr, c["col"] - dc, c["square"]) for c in mp["cells"]
                              if str(c["card"]) == str(card)],
                    "delta": _score_delta_text(before["scores"][seat], obs["scores"][seat])})
    return out


def _score_delta_text(before: dict, after: dict) -> str:
    bits = [f"{label.lower()} {after[k] - before[k]:+d}" for k, label in SCORE_ROWS[:-2]
            if after[k] != before[k]]
    total = after["total"] - before["total"]
    return f"{total:+d} points" + (f" ({', '.join(bits)})" if bits else "")


HINT = "#7c3aed"        # the best move's colour (the board component's hint ring)


def option_preview(o: dict, xy, cell: float, prefix: str, colour: str = GOLD,
                   opacity: float = .92) -> str:
    """Card ``o`` (a placement option) drawn at its position: its visible squares (the faces
    in ``prefix``'s defs) and its outline, dashed when it goes under."""
    x, y = xy(o["row"], o["col"])
    uses = "".join(f"<use href='#{prefix}{sq}' x='{xy(r, c)[0]:.1f}' y='{xy(r, c)[1]:.1f}'/>"
                   for r, c, sq in o["cells"])
    dash = " stroke-dasharray='6 4'" if o["layer"] == "under" else ""
    return (f"<g opacity='{opacity}'>{uses}</g><rect x='{x:.1f}' y='{y:.1f}' "
            f"width='{o['width'] * cell:.1f}' height='{o['height'] * cell:.1f}' fill='none' "
            f"stroke='{colour}' stroke-width='3.5'{dash}/>")


def hinted_place(state, action: int, line=()):
    """The placement action a best move comes to: itself if it places the card, the place
    the search's ``line`` goes on to after an orientation, else None. Returns (state the
    place is legal in, its action)."""
    name = state.action_to_string(action)
    if name.startswith("place "):
        return state, action
    if not (name.startswith("orient ") and line):
        return None
    after = state.clone()
    after.apply(action)
    place = next((int(a) for a in after.legal_actions()
                  if after.action_to_string(int(a)) == line[0]), None)
    return (after, place) if place is not None else None


def ghost_option(seat: int):
    """The placement option of the best move marked on this run's boards (a ghost of the card
    where it goes) if it places ``seat``'s card, else None."""
    marked = bc.marked_move()
    if not marked or marked[0].current_player != seat:
        return None
    found = hinted_place(*marked)
    if found is None:
        return None
    base, place = found
    card = base.observation(seat)["selected"][seat]
    opts = placement_options(base, seat, card, only=place)
    return dict(opts[0], card=card) if opts else None


def turned_ghost(seat: int, s: float):
    """The hand's piece of the best move marked on this run's boards when it turns ``seat``'s
    card and nothing says where it goes (no square: e.g. a review's row without the search's
    line): a ghost of the card turned that way, ringed. Else None."""
    marked = bc.marked_move()
    if not marked or marked[0].current_player != seat or ghost_option(seat) is not None:
        return None
    state, action, _ = marked
    m = re.fullmatch(r"orient (\d+) (.+) (over|under)", state.action_to_string(action))
    if not m or m.group(2) not in ROTATIONS:
        return None
    label = kt.decision_label(m.group(0))
    return bc.Place(f"ghost{seat}", f"The AI's best move: {label}", legal=False, mark="hint",
                    svg=oriented_card_svg(m.group(1), m.group(2), s, ghost=True),
                    caption=f"AI: {m.group(2)}, {m.group(3)}",
                    tip=f"The AI's best move: {label}.")


def ghost_svg(o: dict, xy, cell: float, prefix: str) -> str:
    """The best move's card, a ghost where it goes, with a line saying so."""
    x, y = xy(o["row"], o["col"])
    label = f"AI: card {o['card']} here"
    return (f"<g class='bl-ghost' pointer-events='none'>"
            + option_preview(o, xy, cell, prefix, HINT, .55)
            + f"<rect x='{x:.1f}' y='{y - 17:.1f}' width='{6.6 * len(label) + 10:.1f}' "
            f"height='16' rx='8' fill='{HINT}'/><text x='{x + 5:.1f}' y='{y - 5:.1f}' "
            f"font-size='11' font-weight='700' fill='#fff' font-family='Helvetica, Arial, "
            f"sans-serif'>{label}</text></g>")


def with_ghost(svg: str, o: dict, geo: dict, prefix: str) -> str:
    """``svg`` (a map drawn with ``geometry=geo`` and ``face_defs`` of ``prefix``) with the
    ghost of option ``o`` drawn over it."""
    cell = geo["cell"]

    def xy(r, c):
        return geo["gx"] + (c - geo["left"]) * cell, geo["gy"] + (r - geo["top"]) * cell
    return svg[:svg.rindex("</svg>")] + ghost_svg(o, xy, cell, prefix) + "</svg>"


def ghost_place(o: dict, geo: dict) -> dict:
    """The ghost's label as an element with a tip (what the best move is, in words), in the
    form of map_svg's ``places``."""
    cell = geo["cell"]
    x = geo["gx"] + (o["col"] - geo["left"]) * cell
    y = geo["gy"] + (o["row"] - geo["top"]) * cell
    label = kt.decision_label(o["name"])
    return {"id": "ghost", "label": f"The AI's best move: {label}", "anim": None,
            "rect": (x, y - 17, 6.6 * (len(str(o["card"])) + 13) + 10, 16),
            "tip": f"The AI's best move: {label} ({o['delta']})."}


def placement_board(obs: dict, seat: int, card, options: list[dict], *, width: float = 520,
                    prefix: str = "kyp", recent_cards=(), before: dict | None = None,
                    ghost=None):
    """The mover's map with a place on the top-left square of every legal position, each
    previewing the card there. Returns (svg, places, place id -> action)."""
    m = seat_map(obs, seat)
    rows = [c["row"] for c in m["cells"]] + [o["row"] for o in options] + \
        [o["row"] + o["height"] - 1 for o in options]
    cols = [c["col"] for c in m["cells"]] + [o["col"] for o in options] + \
        [o["col"] + o["width"] - 1 for o in options]
    bounds = (min(rows), min(cols), max(rows), max(cols)) if rows else None
    span = (bounds[3] - bounds[1] + 3) if bounds else 6
    cell = max(22.0, min(44.0, width / span))
    geo: dict = {}
    found: list = []
    svg = map_svg(m, cell=cell, title=f"P{seat} ({bc.viewer_word()}) · place card {card}",
                  title_colour=SEAT_COLOURS[seat % len(SEAT_COLOURS)], bounds=bounds,
                  rings=recent_cards, extra=face_defs(card, cell, prefix), geometry=geo,
                  places=found, before=before["maps"][seat] if before else None)

    def xy(r, c):
        return geo["gx"] + (c - geo["left"]) * cell, geo["gy"] + (r - geo["top"]) * cell

    places, actions = [], {}
    for o in options:
        x, y = xy(o["row"], o["col"])
        preview = option_preview(o, xy, cell, prefix)
        if o["action"] == ghost:            # the best move: a ghost of the card there
            svg = with_ghost(svg, dict(o, card=card), geo, prefix)
        pid = f"p{o['square']}"
        actions[pid] = o["action"]
        label = kt.decision_label(o["name"])
        places.append(bc.Place(pid, label, rect=(x, y, cell, cell), preview=preview,
                               note=f"{label}: {o['delta']}",
                               tip=f"{label}: {o['delta']}. {kt.decision_tip(o['name'])}"))
    return svg, over_squares(found, places), actions


def square_places(obs: dict, seat: int, names: dict, *, width: float = 520, recent_cards=(),
                  before: dict | None = None):
    """Decisions naming a square of the mover's own map (pay / discard a resource, a tile's
    Fallow, a traveler's resource) as places on that map. Returns (svg, places, id -> action,
    the other actions) or None if two actions share a square."""
    m = seat_map(obs, seat)
    on_map, rest = {}, {}
    for a, nm in names.items():
        mm = ON_MY_MAP.match(nm)
        if mm and mm.group(1) not in on_map:
            on_map[mm.group(1)] = (a, nm)
        elif mm:
            return None
        else:
            rest[a] = nm
    span = 6
    if m.get("bbox"):
        span = m["bbox"]["right"] - m["bbox"]["left"] + 3
    cell = max(22.0, min(44.0, width / span))
    geo: dict = {}
    found: list = []
    svg = map_svg(m, cell=cell, title=f"P{seat} ({bc.viewer_word()})", rings=recent_cards,
                  title_colour=SEAT_COLOURS[seat % len(SEAT_COLOURS)], geometry=geo,
                  places=found, before=before["maps"][seat] if before else None)
    tips = {d["id"][1:]: d["tip"] for d in found}
    places, actions = [], {}
    for sq, (a, nm) in on_map.items():
        r, c = parse_square(sq)
        x, y = geo["gx"] + (c - geo["left"]) * cell, geo["gy"] + (r - geo["top"]) * cell
        pid = f"s{sq}"
        actions[pid] = a
        label = kt.decision_label(nm)
        places.append(bc.Place(pid, label, rect=(x, y, cell, cell), note=label,
                               tip=f"{label}. {kt.decision_tip(nm)} {tips.get(sq, '')}".strip()))
    return svg, over_squares(found, places), actions, rest


RESOURCE_MARK = {"blue": "blue", "brown": "orange", "grey": "gray", "purple": "violet"}


# A phone (one column) shows the board's first element, the status and the decision panel's
# first choices in its first screen: the viewer's map there keeps the hand beside it (not
# under it) and its note to one line.
PHONE_CSS = """<style>
@media (max-width: 640px) {
  div[class*="_kymine"] > [data-testid="stHorizontalBlock"] { flex-wrap: nowrap !important;
    gap: .5rem; }
  div[class*="_kymine"] [data-testid="stColumn"] { min-width: 0 !important; width: auto !important; }
  div[class*="_kymine"] [data-testid="stColumn"]:first-child { flex: 1 1 0 !important; }
  /* the hand beside the map: its cards in a row that scrolls sideways, each as wide as its
     smallest text (a factory's digit) needs to read at 10 px (the board component sees to it) */
  div[class*="_kymine"] [data-testid="stColumn"]:last-child { flex: 0 0 112px !important; }
  div[class*="_kymine"] .blb-note { white-space: nowrap; overflow: hidden;
    text-overflow: ellipsis; }
}
</style>"""


def decides_on_map(obs: dict, seat: int) -> bool:
    """Whether ``seat`` is to make a decision clicked on its own map (a placement, a resource
    to pay or discard, a Fallow)."""
    return (obs.get("current_player") == seat
            and obs["phase"] in ("map", "position") + SQUARE_PHASES)


def traveler_label(name: str) -> str:
    """A traveler decision's button: its words, a resource marked by a dot of its colour."""
    m = re.fullmatch(r"traveler to (P\d+) with (\w+) from ([a-z]{1,2}\d+)", name)
    if m:
        return f":{RESOURCE_MARK.get(m.group(2), 'gray')}[●] {kt.decision_label(name)}"
    return kt.decision_label(name)


def recent_cards(recent) -> dict:
    """seat -> the cards it placed among ``recent`` moves ([(actor, text)]: "place 37 ..."
    in the mover's own log, "placed 37 ..." once a hidden Map turn is shown)."""
    out: dict = {}
    for actor, name in recent or ():
        m = re.match(r"placed? (\d+) ", name)
        if m and actor >= 0:
            out.setdefault(actor, set()).add(m.group(1))
    return out


def _rotate(rot_key: str, rotations: list) -> None:
    """on_click of Rotate: the next rotation offered (a quarter turn clockwise)."""
    cur = st.session_state.get(rot_key)
    i = rotations.index(cur) if cur in rotations else -1
    st.session_state[rot_key] = rotations[(i + 1) % len(rotations)]


class KyushuUI(GameUI):
    name = "kyushu"
    title = "Kyūshū"

    # -- set-up -----------------------------------------------------------------------------
    def param_inputs(self, key: str) -> dict:
        c1, c2 = st.columns(2)
        players = c1.selectbox("Players", [2, 3, 4, 5], index=0, key=f"{key}_ky_players",
                               help="2: the two middle pick boxes are used; 3–5: a box each.")
        side = c2.radio("Starting Province side", ["A", "B"], horizontal=True, key=f"{key}_ky_side")
        c3, c4 = st.columns(2)
        mf = c3.checkbox("Most/Fewest scoring cards", key=f"{key}_ky_mf",
                         help="Optional rule: a Most/Fewest card between each pair of neighbours.")
        trav = c4.checkbox("Travelers", key=f"{key}_ky_trav",
                           help="Optional rule: after round 6, send travelers to your neighbours' "
                                "hot springs.")
        return {"players": int(players), "side": side, "most_fewest": bool(mf),
                "travelers": bool(trav)}

    def seat_name(self, seat: int, players: int) -> str:
        return f"P{seat}"

    def seat_colour(self, seat: int, players: int) -> str:
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)]

    supports_seat_facts = True

    def seat_facts(self, game_name: str, key: str):
        return kyushu_seat_facts(key)

    # -- drawing ----------------------------------------------------------------------------
    def board(self, obs: dict, key: str = "board", viewer=None, changes=None) -> None:
        """The table, then (seen from a seat) that seat's map with its hand beside it, the
        other maps, and the score table; every square, card, box and resource with its
        tooltip. The seat's map is a slot its decision input draws into (a placement is
        clicked on the map); if the page drew that input first, the input drew the map and
        it is left out here. ``changes``: what happened since the viewer's last decision; the
        cards placed meanwhile are ringed where the viewer's map view shows them, and drop in
        (new resources and tiles flash, a pick box's new card drops in)."""
        recent = bc.recent_moves(changes)
        before = getattr(changes, "before", None) if changes else None
        found: list = []
        svg = table_svg(obs, viewer, places=found, before=before)
        # the board's first element comes before the decision panel on a phone (the rest
        # after it): a decision made on the viewer's map has that map and hand in it
        on_map = viewer is not None and decides_on_map(obs, viewer)
        with st.container():
            # drawn larger on a phone (its text readable), the table opens on the pick boxes
            bc.board(inert_places(found), svg, key=f"{key}-kytable", interactive=False,
                     max_width=svg_width(svg),
                     focus=[d["id"] for d in found if re.fullmatch(r"box\d+", d["id"])])
            if on_map:
                st.html(PHONE_CSS)
                self._mine(obs, viewer, recent, before, key)
        if not on_map and viewer is not None:
            self._mine(obs, viewer, recent, before, key)
        self._others_and_scores(obs, viewer, recent, before=before, key=key)

    def _mine(self, obs: dict, viewer: int, recent, before, key: str) -> None:
        """The viewer's map (the slot a decision on it is clicked in) with the hand beside it."""
        if bc.claimed("kyushu-map"):
            self._hand(obs, viewer, viewer, key=key)     # the input drew the map
            return
        mine, hand = st.container(key=f"{key}_kymine").columns([3, 1.2], gap="medium")
        with mine:
            self._seat_panel(obs, viewer, viewer, 560, recent_cards(recent).get(viewer, ()),
                             hand=False, slot="kyushu-map", recent=recent, before=before,
                             key=key)
        with hand:
            self._hand(obs, viewer, viewer, small=True, key=key)

    def _others_and_scores(self, obs: dict, viewer, recent, *, before=None, key="board") -> None:
        """Every map but the viewer's (all of them without a viewer), the live scores."""
        n = obs["players"]
        rings = recent_cards(recent)
        spans = [(m["bbox"]["right"] - m["bbox"]["left"] + 1) if m.get("bbox") else 3
                 for m in obs["maps"]]
        per_row = 1 if n == 2 and max(spans) > 10 else 2     # big 2p maps: one per row
        width = 700 if per_row == 1 else 440
        order = list(range(n))
        if viewer is not None:                     # from the viewer's left, round the table
            order = order[viewer + 1:] + order[:viewer]
        final = obs["phase"] == "over"
        for start in range(0, len(order), per_row):
            cols = st.columns(per_row)
            for col, seat in zip(cols, order[start:start + per_row]):
                with col:
                    self._seat_panel(obs, seat, viewer, width, rings.get(seat, ()),
                                     before=before, key=key)
        rows = score_rows(obs, viewer)
        title = "Final scores" if final else "Score so far (live)"
        st.markdown(f"**{title}**" + ("" if final else " — as the maps stand now (factories fed "
                                       "as well as the resources allow)"))
        st.table(_score_frame(rows))
        lines = most_fewest_lines(obs)
        if lines:
            st.markdown(f"**Most/Fewest cards** ({'final' if final else 'current'} counts)  \n"
                        + "  \n".join(lines))

    def _seat_panel(self, obs: dict, seat: int, viewer, width: float = 440, rings=(), *,
                    hand: bool = True, slot: str | None = None, recent=None, before=None,
                    key="board") -> None:
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        me = viewer == seat
        to_move = obs.get("current_player") == seat
        title = f"P{seat}" + (f" ({bc.viewer_word()})" if me else "") + f" · {obs['scores'][seat]['total']} pts"
        if to_move and obs["phase"] != "over":
            title += " · to move"
        sub = []
        if obs.get("unrevealed") and not me and viewer is not None:
            sub.append("map as before this Map phase (hidden until everyone has placed)")
        held = (obs.get("travelers") or {}).get("held")
        if obs["options"].get("travelers") and held:
            sub.append(f"travelers left: {held[seat]}")
        found: list = []
        ghost = ghost_option(seat) if to_move else None     # the best move's card, where it goes
        bounds, extra, geo = None, "", {}
        if ghost is not None:
            rows = [c["row"] for c in obs["maps"][seat]["cells"]] + [ghost["row"], ghost["row"]
                                                                      + ghost["height"] - 1]
            cols = [c["col"] for c in obs["maps"][seat]["cells"]] + [ghost["col"], ghost["col"]
                                                                      + ghost["width"] - 1]
            bounds = (min(rows), min(cols), max(rows), max(cols))
            extra = face_defs(ghost["card"], cell_size(obs["maps"][seat], width), "kyg")
        svg = map_svg(seat_map(obs, seat), title=title, title_colour=colour, rings=rings,
                      cell=cell_size(obs["maps"][seat], width), places=found, bounds=bounds,
                      extra=extra, geometry=geo, before=before["maps"][seat] if before else None)
        if ghost is not None:
            svg = with_ghost(svg, ghost, geo, "kyg")
            found.append(ghost_place(ghost, geo))
        where = bc.reserve(slot, obs=obs, recent=recent, before=before) if slot else st.container()
        with where:
            bc.board(inert_places(found), svg, key=f"{key}-kyseat{seat}", interactive=False,
                     max_width=svg_width(svg))
        if sub:
            st.caption(" · ".join(sub))
        if hand:
            self._hand(obs, seat, viewer, key=key)

    def _hand(self, obs: dict, seat: int, viewer, small=False, key="board") -> None:
        """The cards a seat holds as pieces with their tips: the card taken this round (public)
        and the hand (face down unless it is the viewer's, or everything is shown)."""
        me = viewer == seat
        hand = obs["hands"][seat]
        taken = obs["selected"][seat]
        size = obs["hand_sizes"][seat]
        if not (hand or taken is not None or size):
            return
        s = 25 if small or not me else 26       # a factory's digit at 9 px or more
        places = []
        if taken is not None:
            places.append(bc.Place(f"taken{seat}", f"Card {taken}, taken this round", legal=False,
                                   svg=card_svg(taken, s, label=f"Taken: {taken}", ring=GOLD),
                                   tip="Taken this round: it goes on the map in the Map phase. "
                                       + kt.card_tip(taken)))
            turned = turned_ghost(seat, s)
            if turned is not None:
                places.append(turned)
        if hand is None:
            if size:
                places.append(bc.Place(f"hand{seat}", f"P{seat}'s hand: {size} cards", legal=False,
                                       svg=backs_svg(size, s),
                                       tip=f"P{seat}'s hand: {size} Map card"
                                           f"{'s' if size != 1 else ''}, face down."))
        else:
            for c in hand:
                places.append(bc.Place(f"h{c}", f"Card {c} in {'your' if me else 'the'} hand",
                                       legal=False, svg=card_svg(c, s), tip=kt.card_tip(c)))
        st.markdown("**Your hand**" if me else f"**P{seat}'s cards**")
        bc.board(places, key=f"{key}-kyhand{seat}", interactive=False,
                 piece_width=int(card_size(s)[0]) + 4)

    # -- input ------------------------------------------------------------------------------
    def move_input(self, state, obs: dict, key: str, hint=None):
        """The decision panel, drawn where the page puts it (beside the board on a desktop,
        under it on a phone): the cards to choose, the pick boxes' choices, rotation and layer.
        A choice made on the mover's map (a placement, a resource, a Fallow) redraws that map
        clickable in the board's slot for it; if the page draws the input before the board,
        the map is drawn here and the board leaves it out."""
        return self._decide(state, obs, key, hint, narrow=True)

    def decision_label(self, state, action: int) -> str:
        return kt.decision_label(state.action_to_string(action))

    def decision_tip(self, state, action: int) -> str:
        return kt.decision_tip(state.action_to_string(action))

    def best_move_mark(self, state, action: int) -> list:
        """The square of the mover's map it names (a placement's top-left square "p<sq>" and
        the map's square "c<sq>", a resource or Fallow "s<sq>"), the card placed (the hand's
        "taken<seat>"), the pick box it takes from ("box<i>" on the table), or the card it
        chooses ("c<action>" among the cards offered, "h<card>" in the hand)."""
        name = state.action_to_string(action)
        taken = f"taken{state.current_player}"      # the card taken this round, in the hand
        m = re.fullmatch(r"place \d+ .+ at ([a-z]{1,2}\d+) (?:over|under)", name)
        if m:                   # (where it goes: the ghost the map draws, see ghost_option)
            return [f"p{m.group(1)}", f"c{m.group(1)}", taken]
        if name.startswith("orient "):
            return [taken]
        m = ON_MY_MAP.match(name)
        if m:                   # the lit square of the input, the square of the map drawn
            return [f"s{m.group(1)}", f"c{m.group(1)}"]
        m = re.fullmatch(r"(?:pay to )?take (\d+) from .+", name)
        if m:
            boxes = state.observation(state.current_player)["pick_boxes"]
            return [f"box{b['box']}" for b in boxes if b["card"] == int(m.group(1))][:1]
        if re.fullmatch(r"province \d[AB]", name):
            return [f"c{action}"]
        m = re.fullmatch(r"(?:pick box|replace with) (\d+)", name)
        if m:                   # the card offered, and in the hand drawn on the board
            return [f"c{action}", f"h{m.group(1)}"]
        return []

    def how_to_play(self, params: dict | None = None) -> str:
        return kt.how_to_play(params)

    def _decide(self, state, obs, key, hint, narrow):
        legal = [int(a) for a in state.legal_actions()]
        names = {a: state.action_to_string(a) for a in legal}
        phase = obs["phase"]
        if phase == "province":
            choices = [(a, "S" + nm.split()[-1]) for a, nm in names.items()]
            return card_choices(state, choices, key, "**Choose your Starting Province** "
                                "(it gets a resource on each production square).",
                                lambda a, c: f"Province {c[1:]}", hint=hint)
        if phase == "first_box":
            choices = [(a, int(nm.split()[-1])) for a, nm in names.items()]
            return card_choices(state, choices, key, "**Put a card from your hand into your pick "
                                "box** (face up: the others may take it).",
                                lambda a, c: f"Put {c} in my box", hint=hint)
        if phase == "select":
            return self._select_input(state, obs, names, key, hint, narrow)
        if phase == "replace":
            mt = obs.get("my_turn") or {}
            why = {1: " (higher than the card you took)", 2: " (lower than the card you took)"}
            choices = [(a, int(nm.split()[-1])) for a, nm in names.items()]
            return card_choices(state, choices, key, "**Replace it:** the card from your hand that "
                                "goes into the emptied box" + why.get(mt.get("option"), "") + ".",
                                lambda a, c: f"Replace with {c}", hint=hint)
        if phase in ("map", "position"):
            return self._placement_input(state, obs, names, key, hint)
        prompts = {
            "pay": "**Pay:** click the resource on your map you discard to take the card.",
            "map_after": "**Your card is placed.** Terraform a Fallow now, or end your Map turn.",
            "terraform_resource_1": "**Terraforming:** click a first resource on your map to "
                                    "discard.",
            "terraform_resource_2": "**Terraforming:** click a second resource to discard.",
            "terraform_colour": "**Terraforming:** which colour decides the tile?",
            "terraform_fallow": "**Terraforming:** click the Fallow on your map that gets the tile.",
            "traveler_resource": "**Travelers:** click the resource on your map your traveler takes "
                                 "along, or send none.",
            "traveler_spring": "**Travelers:** the hot spring it goes to.",
        }
        st.markdown(prompts.get(phase, "**Choose:**"))
        if phase in SQUARE_PHASES:
            chosen = self._square_input(state, obs, names, key, hint)
            if chosen is not False:
                return chosen
        if phase.startswith("traveler"):
            return self._buttons(state, names, key, traveler_label, columns=2, hint=hint)
        return self._buttons(state, names, key, hint=hint, columns=2 if narrow else 4)

    def _buttons(self, state, names, key, label=None, columns: int = 4, hint=None):
        chosen = None
        acts = list(names)
        cols = st.columns(choice_columns((kt.decision_label(names[a]) for a in acts), columns))
        for i, a in enumerate(acts):
            text = label(names[a]) if label else kt.decision_label(names[a])
            tip = kt.decision_tip(names[a]) or kt.decision_label(names[a])
            if cols[i % len(cols)].button(text + ("  · AI hint" if a == hint else ""),
                                          key=f"{key}_act_{a}", width="stretch", help=tip,
                                          type="primary" if a == hint else "secondary"):
                chosen = a
        return chosen

    def _square_input(self, state, obs, names, key, hint):
        """A resource / Fallow clicked on the mover's map (in the map's slot); the actions that
        name no square of it stay buttons. False if the decision is not of that kind."""
        seat = state.current_player
        kept = bc.reserved("kyushu-map")
        info = kept[1] if kept else {"obs": obs, "recent": None}
        made = square_places(info["obs"], seat, names, recent_cards=recent_cards(
            info["recent"]).get(seat, ()), before=info.get("before"))
        if made is None or not made[2]:
            return False
        svg, places, actions, rest = made
        places = with_hint(places, actions, hint)
        if not kept:
            bc.claim("kyushu-map")          # the board, drawn after, leaves this map out
        with (kept[0] if kept else st.container()):
            clicked = bc.board(places, svg, key=f"{key}-kysq", max_width=svg_width(svg),
                               note="Lit squares can be chosen: hover (or tap once) to read, click "
                                    "(or tap again) to choose.")
        chosen = bc.pick(clicked, actions)
        if rest:
            label = traveler_label if obs["phase"].startswith("traveler") else None
            pressed = self._buttons(state, rest, key, label, columns=2, hint=hint)
            chosen = chosen if pressed is None else pressed      # action 0 is a real action
        return chosen

    def _select_input(self, state, obs, names, key, hint=None, narrow=False):
        """Selection: each pick box with its card, and under it the ways to take it."""
        st.markdown("**Selection:** take a pick box's card.")
        by_card = {}
        for a, nm in names.items():
            m = re.match(r"(pay to )?take (\d+) from (.+)", nm)
            if not m:
                continue
            by_card.setdefault(int(m.group(2)), []).append((a, bool(m.group(1)), m.group(3)))
        boxes = [b for b in obs["pick_boxes"] if b["card"] in by_card]
        chosen = None
        per_row = 1 if narrow else max(len(obs["pick_boxes"]), 4)
        seat = state.current_player
        for start in range(0, len(boxes), per_row):
            # one box to a row: a container (a phone lays a one-column block's cells two to a
            # row, which would squeeze the box's card and its buttons into half the panel)
            cols = [st.container()] if per_row == 1 else st.columns(per_row)
            for col, b in zip(cols, boxes[start:start + per_row]):
                with col:
                    owner = b["owner"]
                    where = ("Your box" if owner == seat else f"P{owner}'s box"
                             if owner is not None else f"Middle, {b['label']}")
                    pic, acts = st.columns([1, 2]) if narrow else (st.container(),) * 2
                    pic.caption(where)
                    pic.markdown(card_svg(b["card"], 29, title=kt.pick_box_tip(
                        b, seat, obs["players"])), unsafe_allow_html=True)
                    for a, pay, frm in sorted(by_card[b["card"]], key=lambda t: t[1]):
                        if acts.button(kt.box_choice_label(names[a])
                                       + (" · AI hint" if a == hint else ""),
                                       key=f"{key}_act_{a}",
                                       help=f"{kt.decision_label(names[a])}. "
                                            f"{kt.decision_tip(names[a])}",
                                       width="stretch",
                                       type="primary" if a == hint else "secondary"):
                            chosen = a
        rest = {a: nm for a, nm in names.items()
                if not any(a == x[0] for v in by_card.values() for x in v)}
        if rest:
            pressed = self._buttons(state, rest, key, columns=2, hint=hint)
            chosen = chosen if pressed is None else pressed
        return chosen

    def _placement_input(self, state, obs, names, key, hint=None):
        """Rotate / over-under beside the map, then a click on a lit square of the map places
        the card there (hover: the card drawn there and the change of score). Returns the
        action(s) to apply: orientation and position together."""
        seat = state.current_player
        phase = obs["phase"]
        table = orient_table(names)
        others = {a: nm for a, nm in names.items()
                  if a not in table.values() and not nm.startswith("place ")}
        card = obs["selected"][seat]
        # worded for a mouse and a touch screen alike (a first tap previews, a second places)
        st.markdown(f"**Map phase:** choose a lit square of your map for card **{card}**'s "
                    "top-left corner: hover it or tap it once to preview, click it or tap it "
                    "again to place.")
        chosen_orient, base = None, state
        if phase == "map" and table:
            rot_key, layer_key = f"{key}_ky_rot", f"{key}_ky_layer"
            hinted = next((rl for rl, a in table.items() if a == hint), None)
            layers = [lay for lay in ("over", "under") if any(rl[1] == lay for rl in table)]
            if hinted and st.session_state.get(f"{key}_ky_hinted") != hint:
                st.session_state[f"{key}_ky_hinted"] = hint     # a new hint: shown turned so
                st.session_state[layer_key], st.session_state[rot_key] = hinted[1], hinted[0]
            if st.session_state.get(layer_key) not in layers:
                st.session_state[layer_key] = hinted[1] if hinted else layers[0]
            turn_row = st.container()       # the card and Rotate first: in a phone's screen
            layer = st.radio("Layer", layers, key=layer_key, horizontal=True,
                             format_func=LAYER_TEXT.get)
            rotations = [r for r in ROTATIONS if (r, layer) in table]
            if st.session_state.get(rot_key) not in rotations:
                st.session_state[rot_key] = (hinted[0] if hinted and hinted[1] == layer
                                             else rotations[0])
            rotation = st.session_state[rot_key]
            c1, c2 = turn_row.columns([1, 1.4], vertical_alignment="center")
            as_hinted = hinted == (rotation, layer)
            # the hinted orientation: the card ringed; another one: Rotate is the way there
            ring = f"outline:3px solid {HINT};outline-offset:2px;border-radius:4px" if as_hinted else ""
            c1.markdown(f"<div class='bl-ky-turned' style='display:inline-block;line-height:0;{ring}'>"
                        f"{oriented_card_svg(card, rotation)}</div>", unsafe_allow_html=True)
            rotate_to = hinted is not None and not as_hinted and hinted[1] == layer
            c2.button("Rotate ↻" + (" · AI hint" if rotate_to else ""), key=f"{key}_ky_rotate",
                      on_click=_rotate, args=(rot_key, rotations), disabled=len(rotations) < 2,
                      width="stretch", type="primary" if rotate_to else "secondary",
                      help="A quarter turn clockwise (the next orientation offered)"
                      + (f"; the AI's hint lays it {hinted[0]}" if rotate_to else ""))
            c2.caption(f"{rotation} · {layer}" + (" · the AI's hint" if hinted == (rotation, layer)
                                                  else ""))
            st.caption("Over: at least one square on top of the map, no lake covered. Under: at "
                       "least one square under a placed card and one in the open; only the "
                       "squares in the open count, and no lake of the card goes under.")
            chosen_orient = table[(rotation, layer)]
            base = state.clone()
            base.apply(chosen_orient)
        elif phase == "position":
            mt = obs.get("my_turn") or {}
            st.caption(f"Orientation chosen: {mt.get('orientation')} · {mt.get('layer')} "
                       "(Undo to change it).")
        options = placement_options(base, seat, card)
        result = None
        if options:
            kept = bc.reserved("kyushu-map")
            info = kept[1] if kept else {"obs": obs, "recent": None}
            marked = bc.marked_move()
            found = None if hint is None else hinted_place(
                state, hint, marked[2] if marked and marked[1] == hint else ())
            place = found[1] if found and (found[0] is base or chosen_orient == hint) else None
            svg, places, actions = placement_board(
                info["obs"], seat, card, options, prefix=f"kyp{abs(hash(key)) % 10**8}",
                recent_cards=recent_cards(info["recent"]).get(seat, ()), before=info.get("before"),
                ghost=place)
            places = with_hint(places, actions, place)
            if not kept:
                bc.claim("kyushu-map")      # the board, drawn after, leaves this map out
            with (kept[0] if kept else st.container()):
                clicked = bc.board(places, svg, key=f"{key}-kymap-{chosen_orient}",
                                   max_width=svg_width(svg),
                                   note=f"{len(actions)} lit squares: hover or tap one to see card "
                                        f"{card} there and the points it makes; click it or "
                                        "tap it again to place it.")
            pick = bc.pick(clicked, actions)
            if pick is not None:
                result = [chosen_orient, pick] if chosen_orient is not None else pick
        elif phase == "map" and table:
            st.warning("No legal position this way: rotate or change the layer.")
        if others:
            st.markdown("Or, before placing:")
            for a, nm in others.items():
                if st.button(kt.decision_label(nm), key=f"{key}_first_{a}",
                             help=kt.decision_tip(nm) or kt.decision_label(nm)):
                    result = a
        return result

    # -- log --------------------------------------------------------------------------------
    def log_text(self, state, action: int, actor: int, viewer):
        name = state.action_to_string(action)
        if actor < 0:                             # chance: public, said as a sentence
            if name.startswith("deal "):
                return None                       # which card went to which hand is private
            return kt.chance_sentence(name)
        if viewer is not None and actor != viewer and MAP_TURN.match(name):
            if name.startswith("orient ") or (name == "terraform" and
                                              state.observation(actor)["phase"] == "map"
                                              and not state.observation(actor)["my_turn"]["placed"]):
                return f"P{actor} takes their Map turn (shown when everyone has placed)"
            return None
        order = kt.log_label(name)
        return f"P{actor} {third_person(order) or third_person('Choose ' + order)}"

    def events(self, before: dict, after: dict) -> list[str]:
        out = []
        viewer = after.get("viewer")
        for seat in range(after["players"]):
            if seat == viewer:
                continue
            old = {str(c["card"]) for c in before["maps"][seat]["cards"]}
            for c in after["maps"][seat]["cards"]:
                if str(c["card"]) not in old and not str(c["card"]).startswith("S"):
                    layer = "over" if c["z"] > 0 else "under"
                    out.append(f"P{seat} placed {c['card']} {c['orientation']} at "
                               f"{col_name(c['col'])}{c['row'] + 1} {layer}")
            tiles_before = {(x["row"], x["col"]) for x in before["maps"][seat]["cells"] if x["tile"]}
            for x in after["maps"][seat]["cells"]:
                if x["tile"] and (x["row"], x["col"]) not in tiles_before:
                    out.append(f"P{seat} terraformed {x['name']} into a "
                               f"{TERRAIN_NAME[x['terrain']].lower()}")
        return out

    def section(self, obs: dict) -> str | None:
        return f"Round {obs['round']}" if obs.get("round", 0) >= 1 else None

    def result_text(self, state) -> str:
        obs = state.full_observation()
        scores = [sc["total"] for sc in obs["scores"]]
        ret = [float(r) for r in state.returns()]
        best = max(ret)
        winners = [s for s, r in enumerate(ret) if r == best]
        table = ", ".join(f"P{s} {scores[s]}" for s in range(len(scores)))
        if len(winners) == len(ret):
            return f"Game over: a tie ({table} points)."
        if len(winners) > 1:
            return (f"Game over: {' and '.join(f'P{s}' for s in winners)} share the win "
                    f"({table} points).")
        return f"Game over: P{winners[0]} wins with {scores[winners[0]]} points ({table})."


def _score_frame(rows: list[dict]):
    import pandas as pd
    return pd.DataFrame(rows).set_index("seat")


# ----------------------------------------------------------------------------------------------
# Analyse from a seat: a Selection phase as it stands at a real table
# ----------------------------------------------------------------------------------------------
class FactsError(ValueError):
    """Entered text that cannot be read (the engine's own ValueErrors say what is wrong)."""


ORIENT_WORDS = {"h": "horizontal", "v": "vertical", "ht": "horizontal turned", "vt": "vertical turned"}


def _square(tok: str, what: str) -> tuple[int, int]:
    if not re.fullmatch(r"[a-z]{1,2}\d{1,2}", tok.lower()):
        raise FactsError(f"{what}: {tok!r} is not a square name such as 'p14'")
    return parse_square(tok.lower())


def _numbers(text: str, what: str) -> list:
    """Card numbers from free text ("12 31, 45"); '-' is an empty place."""
    out = []
    for tok in re.split(r"[\s,;]+", text.strip()):
        if not tok:
            continue
        if tok == "-":
            out.append(None)
        elif tok.isdigit():
            out.append(int(tok))
        else:
            raise FactsError(f"{what}: {tok!r} is not a card number")
    return out


def parse_map(text: str, what: str) -> list[dict]:
    """Cards in the order placed, one a line: "S3A h m14", "12 vertical turned p13 under"
    (orientation h, v, ht, vt or its full name; layer over, the default, or under)."""
    cards = []
    for n, line in enumerate(text.strip().splitlines(), 1):
        words = line.replace(",", " ").split()
        if not words:
            continue
        where = f"{what} line {n}"
        squares = [w for w in words[1:] if re.fullmatch(r"[a-z]{1,2}\d{1,2}", w.lower())
                   and w.lower() not in ORIENT_WORDS]
        if len(squares) != 1:
            raise FactsError(f"{where}: write the card, orientation and square, e.g. "
                             "'12 vertical p13' (add 'under' for a card slid under)")
        rest = [w.lower() for w in words[1:] if w is not squares[0]]
        layer = "under" if "under" in rest else "over"
        orient = " ".join(w for w in rest if w not in ("under", "over"))
        row, col = _square(squares[0], where)
        card = words[0]
        cards.append({"card": int(card) if card.isdigit() else card,
                      "orientation": ORIENT_WORDS.get(orient, orient), "row": row, "col": col,
                      "layer": layer})
    return cards


def parse_placed(text: str, seat: int, what: str, field: str) -> list[dict]:
    """Resources ("p14 blue") or tiles ("q15 lake") on seat's map, comma separated."""
    out = []
    for item in re.split(r"[,;]+", text.strip()):
        words = item.split()
        if not words:
            continue
        if len(words) != 2:
            raise FactsError(f"{what}: write each as a square and a {field}, e.g. 'p14 blue'")
        row, col = _square(words[0], what)
        out.append({"seat": seat, "row": row, "col": col, field: words[1].lower()})
    return out


def parse_travelers(text: str) -> list[dict]:
    """'P2 on P0 r13', 'P1 on P2 o14 covered' (comma separated)."""
    out = []
    for item in re.split(r"[,;]+", text.strip()):
        m = re.fullmatch(r"\s*P(\d)\s+on\s+P(\d)\s+([a-z]{1,2}\d{1,2})(\s+covered)?\s*", item, re.I)
        if not item.strip():
            continue
        if not m:
            raise FactsError(f"travelers: cannot read {item.strip()!r}; write e.g. 'P2 on P0 r13' "
                             "(add 'covered' if a card now lies on it)")
        row, col = _square(m.group(3), "travelers")
        out.append({"owner": int(m.group(1)), "host": int(m.group(2)), "row": row, "col": col,
                    "active": not m.group(4)})
    return out


def parse_most_fewest(text: str) -> list:
    """'3 most, 5 fewest, 1 most': the card between each seat and the next."""
    out = []
    for item in re.split(r"[,;]+", text.strip()):
        words = item.split()
        if not words:
            continue
        if len(words) != 2 or not words[0].isdigit():
            raise FactsError(f"Most/Fewest: cannot read {item.strip()!r}; write e.g. '3 most'")
        out.append([int(words[0]), words[1].lower()])
    return out


def position_from_facts(params: dict, seat: int, facts: dict, seed: int = 0):
    """The State of ``facts`` (docs/kyushu.md "Analysing a real table") with ``seat`` to
    choose. Raises ValueError (the engine's message) if the facts do not make a position."""
    import boardlab

    return boardlab.make("kyushu", **params).position(seat, seed=seed, **facts)


def turn_actions(state, moves: list[str]) -> list[int]:
    """The action ids of ``moves`` (the game's names) played in turn from ``state`` (not
    changed); FactsError naming the first move that is not legal where it comes."""
    s = state.clone()
    out = []
    for i, move in enumerate(moves):
        legal = {s.action_to_string(a): int(a) for a in s.legal_actions()} \
            if s.current_player == state.current_player else {}
        if move not in legal:
            options = "; ".join(sorted(legal)[:8]) + (" ..." if len(legal) > 8 else "")
            raise FactsError(f"your turn, move {i + 1}: {move!r} is not legal there"
                             + (f" (legal: {options})" if legal else " (your turn is over)"))
        out.append(legal[move])
        s.apply(legal[move])
    return out


def kyushu_seat_facts(key: str):
    """The form; returns the built (state, seat, notes) or None."""
    st.caption("Enter the table as your seat sees it at your pick in a Selection phase, or at "
               "your hidden turn in a Map phase: every map (cards in the order placed, by number, "
               "orientation and square; 'under' for a card slid under), resources, tiles, "
               "travelers, the pick boxes, your hand. Squares use the board's names (column "
               "letter, row number). The AI deals the other hands and the draw pile only in ways "
               "consistent with it, and the search re-deals them from your seat's view.")
    c1, c2, c3, c4 = st.columns(4)
    players = int(c1.selectbox("Players", [2, 3, 4, 5], key=f"{key}_ky_players"))
    side = c2.radio("Province side", ["A", "B"], horizontal=True, key=f"{key}_ky_side")
    mf = c3.checkbox("Most/Fewest", key=f"{key}_ky_mf")
    trav = c4.checkbox("Travelers", key=f"{key}_ky_trav")
    d0, d1, d2 = st.columns([2, 1, 1])
    map_phase = d0.radio("Phase", ["Selection (your pick)", "Map (your hidden Map turn)"],
                         horizontal=True, key=f"{key}_ky_phase").startswith("Map")
    seat = int(d1.selectbox("Your seat (choosing now)", list(range(players)),
                            format_func=lambda s: f"P{s}", key=f"{key}_ky_seat"))
    rounds = list(range(1, 13)) if map_phase else [1, 2, 3, 4, 5, 7, 8, 9, 10, 11]
    round_ = int(d2.selectbox("Round", rounds, key=f"{key}_ky_round"))
    if map_phase:
        st.caption("Map phase: the maps, resources and tiles as the phase began (the players "
                   "before you have placed their cards where you cannot see; the AI deals that "
                   "too). Your hand is what is left after the Selection; in rounds 6 and 12 the "
                   "seats' own pick boxes are empty ('-').")
    hand_text = st.text_input("Your hand (card numbers)", key=f"{key}_ky_hand", placeholder="12 31 45")
    boxes = 4 if players == 2 else players
    box_names = ("P0, P1, left of P0, right of P0" if players == 2
                 else ", ".join(f"P{b}" for b in range(boxes)))
    boxes_text = st.text_input(f"Pick boxes, in order ({box_names}); '-' for an empty box",
                               key=f"{key}_ky_boxes", placeholder=" ".join(["7"] * boxes))
    taken_text = ""
    if map_phase:
        taken_text = st.text_input(f"Cards taken this round by P0..P{players - 1} (every seat, "
                                   "yours too)", key=f"{key}_ky_taken")
    elif seat > 0:
        taken_text = st.text_input(f"Cards taken this round by P0..P{seat - 1} (before you)",
                                   key=f"{key}_ky_taken")
    maps, resources_, tiles = [], [], []
    for p in range(players):
        st.markdown(f"**P{p}'s map**")
        m1, m2 = st.columns([3, 2])
        maps.append(m1.text_area(f"P{p}: cards in the order placed", key=f"{key}_ky_map{p}",
                                 placeholder=f"S{p + 1}{side} h m14\n12 v o13\n40 h m16 under",
                                 height=110))
        resources_.append(m2.text_input(f"P{p}: resources", key=f"{key}_ky_res{p}",
                                        placeholder="m14 blue, o15 grey"))
        tiles.append(m2.text_input(f"P{p}: terraforming tiles", key=f"{key}_ky_tiles{p}",
                                   placeholder="n15 lake"))
    e1, e2, e3 = st.columns(3)
    trav_text = e1.text_input("Travelers", key=f"{key}_ky_travelers", placeholder="P1 on P0 r13",
                              disabled=not trav)
    mf_text = e2.text_input("Most/Fewest cards (between each seat and the next)",
                            key=f"{key}_ky_mftext", placeholder="3 most, 5 fewest", disabled=not mf)
    pool_text = e3.text_input("Pool (blank: what the maps leave)", key=f"{key}_ky_pool",
                              placeholder="blue 9 brown 10 grey 8 purple 12")
    discard_text = ""
    if players == 2 and round_ > 6:
        discard_text = st.text_input("The two middle cards discarded after round 6",
                                     key=f"{key}_ky_discarded")
    turn_text = st.text_area(
        "Your turn so far (moves as the game names them, one a line; blank: at its start)",
        key=f"{key}_ky_turn", height=68,
        placeholder="orient 30 horizontal over" if map_phase else "pay to take 24 from P1's box")
    if not st.button("Set up this position", key=f"{key}_build", type="primary"):
        return None
    params = {"players": players, "side": side, "most_fewest": bool(mf), "travelers": bool(trav)}
    try:
        facts = {"phase": "map" if map_phase else "selection",
                 "round": round_, "hand": _numbers(hand_text, "hand"),
                 "pick_boxes": _numbers(boxes_text, "pick boxes"), "to_move": seat,
                 "taken": _numbers(taken_text, "taken"),
                 "maps": [parse_map(t, f"P{p}'s map") for p, t in enumerate(maps)],
                 "resources": [r for p, t in enumerate(resources_)
                               for r in parse_placed(t, p, f"P{p}'s resources", "colour")],
                 "tiles": [r for p, t in enumerate(tiles)
                           for r in parse_placed(t, p, f"P{p}'s tiles", "terrain")],
                 "discarded": _numbers(discard_text, "discarded")}
        if trav:
            facts["travelers"] = parse_travelers(trav_text)
        if mf:
            facts["most_fewest"] = parse_most_fewest(mf_text)
        if pool_text.strip():
            words = pool_text.replace(",", " ").split()
            if len(words) % 2 or not all(w.isdigit() for w in words[1::2]):
                raise FactsError("pool: write colours and numbers, e.g. 'blue 9 grey 8'")
            facts["pool"] = {c.lower(): int(n) for c, n in zip(words[::2], words[1::2])}
        state = position_from_facts(params, seat, facts)
        moves = [line.strip() for line in turn_text.splitlines() if line.strip()]
        if moves:
            facts["turn"] = turn_actions(state, moves)
            state = position_from_facts(params, seat, facts)
    except ValueError as e:                # FactsError and the engine's own messages
        st.error(f"These facts cannot be set up: {str(e).removeprefix('kyushu: ')}")
        return None
    return state, seat, []
