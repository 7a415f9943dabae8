"""Keyside: the island as one clickable SVG, each player's mat and the live score pad.

The island (see docs/keyside.md for the stand-in road network): the town in the centre, the 8
markets M1-M8 around it, the 8 resource locations R1-R8 between them, the 12 harbours H1-H12
(clockwise from the top) on the coast with the 12 headland spaces between them. Where a
decision is a place on the island (a boat's harbour, a keyple's destination, a harbour to
resolve, a market, a headland space, a farm icon) the place is clicked; the rest are buttons.
"""
from __future__ import annotations

import json
import re

import streamlit as st

import boardlab

from .. import board_component as bc
from ..current_game import play_session
from .base import GameUI, action_buttons, third_person

from . import keyside_text as kt
from .keyside_draw import (DIE, island_svg, mat_id, mats_html, place_rect, seat_label)

ISLAND_WIDTH = 660      # px at most: the island, the prompt and its choices in a 1440x900 screen
_PLACE_NAME = re.compile(r"\b([HMR](?:[1-9]|1[0-2]))\b")


def recent_places(changes) -> set[str]:
    """The island places the moves since the viewer's last decision ended at (a boat's or a
    keyple's destination, a harbour resolved, a market used), read from their log lines."""
    out = set()
    for _, text in bc.recent_moves(changes):
        # in words the place comes first after the arrow ("Keyple town → H5 (via M1)"); in
        # notation, last ("move keyple town>M1>H5")
        after = _PLACE_NAME.findall(text.split("→")[-1]) if "→" in text else []
        names = after[:1] or _PLACE_NAME.findall(text)[-1:]
        if names:
            out.add(names[0])
    return out


def island_places(found: list[dict], legal=()) -> list:
    """The island's elements (keyside_draw.island_svg's ``places``) as inert places with their
    tips; a ``legal`` place (a decision) takes the place of the element with its id."""
    by_id = {p.id: p for p in legal}
    out = []
    for d in found:
        q = by_id.pop(d["id"], None)
        if q is not None:
            out.append(bc.Place(d["id"], q.label, rect=d["rect"], note=q.note, mark=q.mark,
                                tip=f"{q.tip} ({d['tip']})" if q.tip else d["tip"], anim=d["anim"]))
        else:
            out.append(bc.Place(d["id"], d["label"], legal=False, rect=d["rect"], tip=d["tip"],
                                anim=d["anim"]))
    return out + list(by_id.values())


def draw_island(obs, viewer, *, key: str, recent=(), before=None, legal=(), note: str = ""):
    """The island as a board: every element with its tip (and how it arrived since
    ``before``), the ``legal`` places clickable. Returns the id of the place clicked, or None."""
    found: list[dict] = []
    svg = island_svg(obs, viewer, recent, places=found, before=before)
    return bc.board(island_places(found, legal), svg, key=key, max_width=ISLAND_WIDTH, note=note)


# ---------------------------------------------------------------------------- choices on the island
_LEAD = re.compile(r"lead (\w+) (\d): boat (H\d+) -> (H\d+)")
_MOVE = re.compile(r"move keyple (\w+)>(?:.*>)?(\w+)")
_RESOLVE = re.compile(r"resolve (H\d+) ")
_MARKET = re.compile(r"activate market (M\d+) ")
_FLIP = re.compile(r"pay fish: flip market (M\d+) ")
_HEAD = re.compile(r"headland (\w) \(([\w ]+)\) H(\d+)\|H(\d+)(?: facing H(\d+))?, pay (\w+)")
_FARM = re.compile(r"(\w+) -> farm (\d) icon (\d) ")
_DIE_VALUE = re.compile(r"(\w+) = (\d)")


def _where(loc: str) -> str:
    return "the town" if loc == "town" else loc


def island_choice(name: str, obs: dict):
    """(option, place id) when the decision ``name`` is a place on the island, else None. The
    option is what else the player picks first (which die, which keyple, which tile); the
    place is what is clicked, and it is what the prompt says to click: a keyple moving into
    the harbour just landed on is clicked where it comes from (the harbour is fixed)."""
    kind = (obs.get("task") or {}).get("kind")
    if m := _LEAD.match(name):
        return f"{m.group(1).capitalize()} {m.group(2)}, boat at {m.group(3)}", m.group(4)
    if m := _MOVE.fullmatch(name):
        if kind == "keyple_in":
            return f"A keyple into {m.group(2)}", m.group(1)
        return f"Keyple from {_where(m.group(1))}", m.group(2)
    if m := _RESOLVE.match(name):
        return "Resolve a harbour", m.group(1)
    if m := _MARKET.match(name):
        return "Activate a market", m.group(1)
    if m := _FLIP.match(name):
        return "Pay a fish to flip a market", m.group(1)
    if m := _HEAD.fullmatch(name):
        tile, what, h1, face, pay = m.group(1), m.group(2), int(m.group(3)), m.group(5), m.group(6)
        facing = "" if face is None else f" facing H{face}"
        return f"{what.capitalize()} ({tile}){facing}, paying {pay}", f"S{h1}"
    if m := _FARM.match(name):
        farm = int(m.group(2))
        for r, loc in enumerate(obs["resource_locations"]):
            if loc and loc["kind"] == "farm" and loc["farm"] == farm:
                return f"A {m.group(1)} onto a farm", f"F{r + 1}-{m.group(3)}"
    return None


def island_options(names: dict, obs: dict):
    """The decisions made on the island, {option: {place id: action}}, and the other actions.
    A die's boats share one option when no harbour is reachable by two of them (the lit
    harbours then name their boat), else each boat is an option of its own."""
    options: dict[str, dict[str, int]] = {}
    rest = []
    by_die: dict[str, list] = {}
    for a, nm in names.items():
        found = island_choice(nm, obs)
        if not found:
            rest.append(a)
        elif m := _LEAD.match(nm):
            by_die.setdefault(f"{m.group(1).capitalize()} {m.group(2)}", []).append((found, a))
        else:
            options.setdefault(found[0], {})[found[1]] = a
    lead = {}
    for die, found in by_die.items():
        pids = [pid for (_, pid), _ in found]
        if len(set(pids)) == len(pids):
            lead[die] = {pid: a for (_, pid), a in found}
        else:
            for (option, pid), a in found:
                lead.setdefault(option, {})[pid] = a
    return {**lead, **options}, rest


_LEAD_OPTION = re.compile(r"(\w+ \d)(?:, (boat at H\d+))?")
_TO_MAT = re.compile(r"(\w+) (\d) to mat")


def choose_option(options: dict, names: dict, key: str, hint=None) -> str:
    """The option of ``island_options`` whose places are lit, chosen in one row: a die to
    sail a boat with is one choice in it and, when two of its boats reach one harbour, a
    second row offers its boats (six and two short choices instead of one per die and boat:
    the panel stays in the first screen of a phone). The hinted action's option is chosen
    first."""
    labels = list(options)
    default = next((lb for lb in labels if hint in options[lb].values()), labels[0])
    if hint is not None and hint in names and (m := _TO_MAT.fullmatch(names[hint])):
        default = next((lb for lb in labels if lb.lower().startswith(f"{m.group(1)} {m.group(2)}")),
                       default)
    if len(labels) == 1:
        return labels[0]
    row = list(dict.fromkeys(_die_of(lb) or lb for lb in labels))
    first = _die_of(default) or default
    if hint is not None and st.session_state.get(f"{key}_opt_hint") != hint:
        # a new hint: its die (and boat) chosen, even if another one was chosen before it
        st.session_state[f"{key}_opt_hint"] = hint
        st.session_state[f"{key}_opt"] = first
        if ", " in default:
            st.session_state[f"{key}_boat_{first}"] = default.split(", ", 1)[1]
    chosen = st.radio("Which", row, index=row.index(first), key=f"{key}_opt", horizontal=True,
                      label_visibility="collapsed")
    boats = [lb.split(", ", 1)[1] for lb in labels if lb.startswith(chosen + ", ")]
    if not boats:
        return chosen
    boat = st.radio(f"Which boat sails with the {chosen.lower()}", boats,
                    index=boats.index(default.split(", ", 1)[1]) if first == chosen else 0,
                    key=f"{key}_boat_{chosen}", horizontal=True, format_func=lambda b: "B" + b[1:],
                    label_visibility="collapsed")
    return f"{chosen}, {boat}"


def _die_of(option: str) -> str | None:
    """"Yellow 6" of the options "Yellow 6" and "Yellow 6, boat at H1", else None."""
    m = _LEAD_OPTION.fullmatch(option)
    return m.group(1) if m else None


def prompt(obs: dict, names=()) -> str:
    """The decision's prompt, saying what is lit on the island and what is a button;
    ``names``: the legal actions' names (the die being set is named from them)."""
    task = obs.get("task") or {}
    kind = task.get("kind") or obs["phase"]
    solo = obs["players"] == 1
    if kind == "dice":
        die = next((m.group(1) for m in map(_DIE_VALUE.fullmatch, names) if m), "next")
        # one line on a phone: the value's secrecy is in each value's tooltip
        return f"**Set your {die} die{'' if solo else ' in secret'}:**"
    h = task.get("harbour")
    texts = {
        "land": "**Your turn:** choose a die (and its boat), then click the lit harbour it "
                "sails to, or put the die on your mat.",
        "follow": f"**Follow?** Put your die of the same colour on H{h}, or don't.",
        "keyple_in": f"**A keyple may move into H{h}:** click the lit place it comes from, "
                     "or choose no keyple.",
        "move": "**Move a keyple:** choose which keyple, then click its lit destination.",
        "resolve": "**Resolve a harbour:** click a lit harbour (or take resources / advance).",
        "market": "**Market:** click the lit market you activate.",
        "headland": "**Build a headland:** choose the tile and the payment, then click the lit "
                    "space on the coast.",
        "farm": "**Animals onto a farm:** choose the animal, then click a lit farm icon.",
        "level": f"**{str(task.get('colour', '')).capitalize()} level {task.get('level', '')}:** "
                 "choose one of its actions.",
        "trade": f"**Market M{task.get('market', '')}:** make its trade, or don't.",
        "build": "**Build:** choose the cottage or house.",
        "exchange": "**Exchange animals:** choose an animal to swap, or stop.",
        "recruit": "**Keyples to the town:** how many leave your mat?",
        "pay_animal": f"**Give a {task.get('animal', 'animal')}:** from your barn or from one of your farms?",
        "order": "**Choose the order** of the harbour's two actions.",
        "take_or_advance": "**No harbour to resolve:** take 2 resources or advance a track.",
        "advance": "**Advance a track** of your choice.",
        "skill_tile": "**Take a skill tile** from a market where you have a keyple.",
        "import_animal": "**Take an animal** into your barn.",
        "final_spend": "**Game end:** spend skill tiles to advance tracks, or stop.",
        "start_marker": "**Game end:** what does the start player marker count as?",
    }
    return texts.get(kind, f"**Choose** ({kind.replace('_', ' ')}):")


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


def dice_buttons(state, actions, names: dict, key: str, hint=None):
    """The values of the die being set as one row of small buttons "1".."6" (the prompt
    names the die; each keeps its tooltip): the row fits under the island on a phone."""
    obs = state.observation(state.current_player)
    chosen = None
    with st.container(horizontal=True, gap="small", key=f"{key}_ks_dice"):
        for a in actions:
            value = _DIE_VALUE.fullmatch(names[a]).group(2)
            if st.button(value, key=f"{key}_act_{a}", width="content",
                         help=kt.decision_tip(names[a], obs),
                         type="primary" if a == hint else "secondary"):
                chosen = a
    return chosen


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
        return "P0 (solo)" if players == 1 else seat_label(seat, players)

    def seat_facts(self, game_name: str, key: str):
        return keyside_seat_facts(self, key)

    # -- drawing ----------------------------------------------------------------------------
    def board(self, obs: dict, key: str = "board", viewer=None, changes=None) -> None:
        """The island, every element with its tooltip, what changed since the viewer's last
        decision ringed and animated (left in a slot the decision redraws with its places
        clickable), and the mats."""
        if not bc.claimed("keyside-island"):
            recent = recent_places(changes)
            before = getattr(changes, "before", None) if changes else None
            slot = bc.reserve("keyside-island", obs=obs, viewer=viewer, recent=recent, before=before)
            with slot:
                draw_island(obs, viewer, key=f"{key}-ks-island", recent=recent, before=before)
        st.markdown(mats_html(obs, viewer, bc.marked_places()), unsafe_allow_html=True)

    # -- input ------------------------------------------------------------------------------
    def move_input(self, state, obs: dict, key: str, hint=None):
        names = {int(a): state.action_to_string(int(a)) for a in state.legal_actions()}
        st.markdown(prompt(obs, names.values()) + task_detail(obs.get("task")))
        options, rest = island_options(names, obs)
        chosen = None
        if options:
            option = choose_option(options, names, key, hint)
            places = [bc.Place(pid, kt.decision_label(names[a], obs), rect=place_rect(pid),
                               tip=kt.decision_tip(names[a], obs),
                               mark="hint" if a == hint else None)
                      for pid, a in options[option].items()]
            kept = bc.reserved("keyside-island")
            info = kept[1] if kept else {"obs": obs, "viewer": state.current_player, "recent": ()}
            if not kept:
                bc.claim("keyside-island")
            with (kept[0] if kept else st.container()):
                clicked = draw_island(info["obs"], info["viewer"], key=f"{key}-island",
                                      recent=info["recent"], before=info.get("before"),
                                      legal=places, note="Click a lit place on the island.")
            chosen = bc.pick(clicked, options[option])
        if rest and obs["phase"] == "dice" and all(_DIE_VALUE.fullmatch(names[a]) for a in rest):
            return dice_buttons(state, rest, names, key, hint) or chosen
        if options:                 # a die's mat button with its die (the others wait)
            die = (_die_of(option) or "").lower()
            dice = {d.lower() for d in map(_die_of, options) if d}
            rest = [a for a in rest if not (m := _TO_MAT.fullmatch(names[a]))
                    or f"{m.group(1)} {m.group(2)}" not in dice - {die}]
        if rest:
            # two to a row where the label fits half the panel, else a row each (not cut)
            short = [a for a in rest if len(self.decision_label(state, a)) <= 24]
            for group, columns in ((short, 2), ([a for a in rest if a not in short], 1)):
                if group:
                    chosen = action_buttons(state, group, key, columns=columns, ui=self,
                                            hint=hint) or chosen
        return chosen

    def decision_label(self, state, action: int) -> str:
        return kt.decision_label(state.action_to_string(action), state.observation(state.current_player))

    def decision_tip(self, state, action: int) -> str:
        return kt.decision_tip(state.action_to_string(action), state.observation(state.current_player))

    def best_move_mark(self, state, action: int) -> list[str]:
        """The place clicked for it on the island (a harbour, a market, a farm icon, ...), or
        the part of the mover's mat it is about (a die, a track, the stores, ...)."""
        name = state.action_to_string(action)
        obs = state.observation(state.current_player)
        found = island_choice(name, obs)
        if found:
            return [found[1]]
        task = obs.get("task") or {}
        if name.startswith("follow ") and task.get("harbour"):     # the die goes on that harbour
            return [f"H{task['harbour']}"]
        if name.startswith("transfer "):
            return ["town"]
        if m := re.fullmatch(r"exchange \w+ on farm (\d) icon (\d) .*", name):
            return [f"F{r + 1}-{m.group(2)}" for r, loc in enumerate(obs["resource_locations"])
                    if loc and loc["kind"] == "farm" and loc["farm"] == int(m.group(1))][:1]
        if m := re.fullmatch(r"market (.+?): .*", name):         # a market chosen by its tile
            return [f"M{i + 1}" for i, mk in enumerate(obs.get("markets") or [])
                    if mk.get("tile") == m.group(1)][:1]
        if m := re.fullmatch(r"skill tile (\w+) \d", name):       # from the market of its colour
            return [f"M{i + 1}" for i, mk in enumerate(obs.get("markets") or [])
                    if mk and mk.get("tile") == m.group(1)][:1]
        if re.fullmatch(r"I: .+|\w+(?: tile)? first", name):      # the harbour being resolved
            return [f"H{hb['indent']}" for hb in obs["harbours"]
                    if hb["tile"] == task.get("harbour_tile")][:1]
        return self._mat_mark(state.current_player, name)

    @staticmethod
    def _mat_mark(seat: int, name: str) -> list[str]:
        """The parts of ``seat``'s mat (keyside_draw.mat_id) a decision there is about."""
        if m := re.fullmatch(r"(\w+) = \d", name):                  # a die set in secret
            return [mat_id(seat, f"die-{m.group(1)}")]
        if m := re.fullmatch(r"(\w+) \d to mat", name):             # the die, and its track
            return [mat_id(seat, f"die-{m.group(1)}"), mat_id(seat, f"track-{m.group(1)}")]
        if m := re.fullmatch(r"advance (\w+)|(\w+) \d (?:left|right)", name):
            return [mat_id(seat, f"track-{m.group(1) or m.group(2)}")]
        if m := re.fullmatch(r"spend skill tile (\w+) (\d)", name):
            return [mat_id(seat, f"skill-{m.group(1)}-{m.group(2)}"),
                    mat_id(seat, f"track-{m.group(1)}")]
        if m := re.fullmatch(r"upgrade (\w+) to house", name):
            return [mat_id(seat, f"bld-{m.group(1)}")]
        if name.startswith("build cottage "):
            return [mat_id(seat, "buildings")]
        if re.fullmatch(r"(?:take|import|exchange|start player marker as) .+", name):
            return [mat_id(seat, "stores")]     # the goods and animals on the mat
        if name.startswith("dice strip "):
            return [mat_id(seat, "strip"), mat_id(seat)]
        # "pass": nothing is placed or moved, nothing on the board to ring (its button is)
        return []

    def best_move_arrow(self, state, action: int):
        """A keyple's move, a boat's sail: from where it is to where it goes."""
        name = state.action_to_string(action)
        if m := _LEAD.match(name):
            return m.group(3), m.group(4)
        m = re.fullmatch(r"move keyple (\w+)>(?:.*>)?(\w+)", name)
        return (m.group(1), m.group(2)) if m else None

    def seat_colour(self, seat: int, players: int) -> str:
        return ["#868e96", "#343a40", "#a0522d", "#e64980"][seat % 4]

    def how_to_play(self, params: dict | None = None) -> str:
        return kt.how_to_play(params)

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
    def forced_is_public(self, state, seat: int) -> bool:
        # A seat's last secret die is forced, and everyone counts the dice it has set (one
        # hidden step each); the worlds of the others restart its setting, so ask them only
        # about the other decisions.
        obs = state.observation(seat)
        if obs["phase"] == "dice" and (obs.get("task") or {}).get("kind", "dice") == "dice":
            return True
        return super().forced_is_public(state, seat)

    def log_text(self, state, action: int, actor: int, viewer):
        if actor < 0:           # chance is public in Keyside; the set-up is on the board
            if state.full_observation()["phase"] == "setup":
                return None
            return re.sub(r"\ba ([aeiou])", r"an \1", state.action_to_string(action))
        text = super().log_text(state, action, actor, viewer)
        name = state.action_to_string(action)
        if text == f"P{actor} {name}":          # a move the viewer may read: in words
            order = kt.log_label(name, state.observation(actor))
            return f"P{actor} {third_person(order) or third_person('Choose ' + order)}"
        return text

    def events(self, before: dict, after: dict) -> list[str]:
        out = []
        if after["year"] != before["year"] and after["phase"] != "over":
            out.append(f"Year {after['year']} begins")
        if before["phase"] == "dice" and after["phase"] == "play":
            out.append("The dice are revealed")
        for b, a in zip(before["harbours"], after["harbours"]):
            if a["resolved"] and not b["resolved"]:
                out.append(f"H{a['indent']} (harbour {a['tile']}, "
                           f"{kt.HARBOUR_NAME.get(a['tile'], '')}) is resolved")
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
