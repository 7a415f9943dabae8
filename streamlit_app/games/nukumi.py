"""Nukumi Onsen Kaitakuki in the app: the town (nukumi_draw) with its squares, action spots and
building tiles clicked to play, the cards on offer and one partner board per seat, every element
with its tooltip (nukumi_text); the remaining decisions as buttons naming their effect.

Everything drawn comes from one seat's observation (or the full one): the other seats' Helper
hands are ``null`` there and are drawn as card backs.
"""
from __future__ import annotations

import json
import re

import streamlit as st

import boardlab

from .. import board_component as bc
from ..current_game import play_session
from . import nukumi_draw as nd
from . import nukumi_text as nt
from .base import GameUI, action_buttons, esc, third_person

MOD = boardlab.games.get("nukumi")
DATA = MOD.DATA
SEAT_COLOURS = nd.SEAT_COLOURS
SQUARES = nd.SQUARES
SQUARE_MOVE = re.compile(r"(?:step|carriage to) ([a-i][1-7])")
ROUTE = re.compile(r"NPC (\d) route (.+)")


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




def map_legend(recent: dict) -> str:
    """The line under the town naming what the dashed rings mark: the squares changed since
    the viewer's last decision (empty if nothing changed)."""
    if not recent:
        return ""
    what = "; ".join(t for texts in recent.values() for t in texts)
    return (f"<div class='nk-legend' style='font-size:.8rem;color:#333;margin:0 0 6px'>"
            f"{_swatch('none', RECENT_COLOUR, 'dashed')}<b>changed since your last decision:</b> "
            f"{esc(what)}</div>")


def recent_rings(recent) -> str:
    """Dashed rings over the squares in ``recent``, drawn on top of the town."""
    out = []
    for name in recent:
        x, y = nd.xy(name)
        out.append(f"<rect class='nk-recent' x='{x + 3}' y='{y + 3}' width='{nd.CELL - 6}' "
                   f"height='{nd.CELL - 6}' rx='6' fill='none' stroke='{RECENT_COLOUR}' "
                   f"stroke-width='3.5' stroke-dasharray='8 4'/>")
    return "".join(out)


def town(obs: dict, seat=None, before=None, recent=(), routes=None) -> tuple[str, list]:
    """(svg, places found) of the town as ``seat``'s board shows it."""
    found: list = []
    svg = nd.town_svg(obs, found, seat=seat, before=before, routes=routes)
    svg = svg.replace("</svg>", recent_rings(recent) + "</svg>")
    return svg, found


def places_of(found, legal: dict | None = None, hint=None, labels: dict | None = None,
              tips: dict | None = None, previews: dict | None = None) -> list:
    """bc.Place for every element found; ``legal``: place id -> action (lit); ``labels``,
    ``tips``, ``previews``: by place id, for the lit ones."""
    legal, labels, tips, previews = legal or {}, labels or {}, tips or {}, previews or {}
    return [bc.Place(d["id"], labels.get(d["id"], d["label"]), legal=d["id"] in legal,
                     rect=d["rect"], tip=tips.get(d["id"], d["tip"]), anim=d["anim"],
                     preview=previews.get(d["id"], ""),
                     mark="hint" if hint is not None and legal.get(d["id"]) == hint else None)
            for d in found]


def route_squares(routes: dict) -> dict:
    """square -> the NPC route action it alone belongs to (a route with such a square is
    chosen by clicking it on the map, its walk previewed on hover)."""
    count: dict = {}
    for start, squares in routes.values():
        for sq in set(squares):
            count[sq] = count.get(sq, 0) + 1
    out = {}
    for a, (start, squares) in sorted(routes.items()):
        mine = [sq for sq in squares if count[sq] == 1]
        if mine:
            out[mine[-1]] = a
    return out


def town_choices(obs: dict, names: dict) -> dict:
    """Place id -> action of every choice made on the town: squares, spots, building tiles,
    and the squares that choose an NPC route."""
    return town_actions(names) | route_squares(npc_routes(obs, names))


def route_preview(start, squares) -> str:
    """An NPC's walk drawn bold over the map (the hover preview of its route's square)."""
    pts = [nd.centre(start)] if start in SQUARES else []
    pts += [nd.centre(sq) for sq in squares]
    d = " ".join(f"{'M' if i == 0 else 'L'}{x:.0f},{y:.0f}" for i, (x, y) in enumerate(pts))
    return (f"<path d='{d}' fill='none' stroke='#111' stroke-width='7' stroke-linecap='round' "
            f"stroke-linejoin='round' opacity='.55'/>"
            + "".join(f"<rect x='{nd.xy(sq)[0] + 4}' y='{nd.xy(sq)[1] + 4}' width='{nd.CELL - 8}' "
                      f"height='{nd.CELL - 8}' rx='6' fill='none' stroke='#111' stroke-width='3'/>"
                      for sq in squares))


def square_actions(state) -> dict:
    """Map square -> the legal step or carriage ride onto it."""
    out = {}
    for a in state.legal_actions():
        m = SQUARE_MOVE.fullmatch(state.action_to_string(int(a)))
        if m:
            out[m.group(1)] = int(a)
    return out


def town_actions(names: dict) -> dict:
    """Place id of the town -> the legal action it plays: a square (step, ride), an action
    spot ("spot:mining"), a building tile ("build:stall")."""
    spots = {s["name"] for s in DATA["player_board"]["spots"]}
    out = {}
    for a, nm in names.items():
        if m := SQUARE_MOVE.fullmatch(nm):
            out[m.group(1)] = a
        elif nm in spots:
            out[f"spot:{nm}"] = a
        elif (m := re.fullmatch(r"build (.+)", nm)) and m.group(1) in MOD.BUILDINGS:
            out[f"build:{m.group(1)}"] = a
    return out


def npc_routes(obs: dict, names: dict) -> dict:
    """action -> (start square, squares walked) of the NPC routes on offer."""
    out = {}
    for a, nm in names.items():
        if m := ROUTE.fullmatch(nm):
            i = int(m.group(1)) - 1
            npcs = obs.get("npcs") or []
            out[a] = (npcs[i] if i < len(npcs) else None, m.group(2).split("-"))
    return out


PROMPTS = {"event": "this round's event",
           "actions": "your action: a lit spot or tile",
           "payment": "how to pay",
           "move": "where to step: a lit square",
           "play helpers": "a Helper to play",
           "take a card": "an action card to take",
           "helper choice": "a face-up Helper, or draw blind",
           "build": "what to build on your square",
           "end of turn": "free actions, or end your turn",
           "npc route": "the NPC's route (numbered on the map)"}


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

    def how_to_play(self, params: dict | None = None) -> str:
        return nt.how_to_play(params)

    # -- drawing ----------------------------------------------------------------------------
    def board(self, obs: dict, key: str = "board", viewer=None, changes=None) -> None:
        """The town (left in a slot the decision input draws into, see :meth:`move_input`),
        the cards on offer, the partner boards (the viewer's first). ``changes``: what happened
        since the viewer's last decision: pioneers walk in, buildings drop, squares ringed."""
        before = getattr(changes, "before", None) if changes else None
        recent = recent_squares(before, obs) if changes else {}
        seat = obs.get("acting_seat", obs.get("current_player"))
        seat = seat if isinstance(seat, int) and 0 <= seat < obs["players"] else viewer
        if not bc.claimed("nukumi-map"):
            slot = bc.reserve("nukumi-map", obs=obs, recent=recent, before=before, seat=seat)
            with slot:
                svg, found = town(obs, seat, before, recent)
                # drawn larger on a phone (its text readable), the town opens on the square
                # of the seat to move
                at = obs["seats"][seat].get("square") if seat is not None else None
                bc.board(places_of(found), svg, key=f"{key}-nktown", interactive=False,
                         max_width=nd.TOWN_W,
                         focus=[d["id"] for d in found if d["id"] == at])
            if recent:
                st.markdown(map_legend(recent), unsafe_allow_html=True)
        order = list(range(obs["players"]))
        if viewer is not None and 0 <= viewer < len(order):
            order = [viewer] + [p for p in order if p != viewer]
        offer: list = []
        offer_svg = nd.offer_svg(obs, offer)
        names = [(("Your board" if bc.viewer_word() == "you" else f"P{p}'s board (view)")
                  if p == viewer else f"P{p}'s board") for p in order]
        names.append("Helpers and cards on offer" if obs.get("advanced") else "Cards on offer")
        # folded, one at a time: on a phone the decision panel stays in the first screen; drawn
        # only while open (each board is a component: fewer of them, a faster table)
        more = st.expander("Partner boards, bags, Helpers and cards on offer", expanded=False,
                           key=f"{key}-nkmore", on_change="rerun")
        if more.open is False:
            return
        tabs = more.tabs(names)
        for tab, p in zip(tabs, order):
            with tab:
                found: list = []
                svg = nd.seat_svg(obs, p, found)
                bc.board(places_of(found), svg, key=f"{key}-nkseat{p}", interactive=False,
                         max_width=nd.TOWN_W)
        with tabs[-1]:
            if offer:
                bc.board(places_of(offer), offer_svg, key=f"{key}-nkoffer", interactive=False,
                         max_width=nd.TOWN_W)
            else:
                st.caption("No cards left on offer.")

    def header_note(self, obs: dict) -> str:
        """The solo mode and how far it has got, in the header (the first screen)."""
        if obs.get("solo") == "score attack":
            cubes = len(obs.get("npc_cubes") or [])
            return (f"Solo: **Score Attack** — NPCs on {', '.join(obs.get('npcs') or [])}; "
                    f"{cubes} cube{'' if cubes == 1 else 's'} placed")
        if obs.get("solo") == "chasing":
            caught = obs.get("nukumaru_cubes") or []
            return (f"Solo: **Chasing Nukumaru** — caught on {', '.join(caught) or 'none yet'} "
                    f"({len(caught)} of 6)")
        if obs.get("players") == 1:
            return "Solo: no solo mode (the plain 1-player game)"
        return ""

    # -- input ------------------------------------------------------------------------------
    def move_input(self, state, obs: dict, key: str, hint=None):
        """Squares, action spots and building tiles are clicked on the town; everything else
        is a button naming its effect (free actions apart)."""
        seat = state.current_player
        names = {int(a): state.action_to_string(int(a)) for a in state.legal_actions()}
        on_town = town_actions(names)
        routes = npc_routes(obs, names)
        phase = obs.get("phase")
        pending = ", ".join(obs.get("pending") or [])
        prompt = PROMPTS.get(phase, "a move")
        if phase == "event" and obs["round"] < len(obs.get("round_cards") or []):
            prompt = f"this round's event, {nt.round_card_name(obs['round_cards'][obs['round']])}"
        if phase == "payment":
            prompt += nt._payment_for(obs, seat)
        st.markdown(f"<span class='nk-prompt'><b>P{seat}</b>, choose {esc(nt.sentence(prompt))}</span>"
                    + (f" <span style='color:#6b7080'>(then: {esc(pending)})</span>" if pending
                       else "") + GRID_CSS, unsafe_allow_html=True)
        chosen = None
        if on_town or routes:
            kept = bc.reserved("nukumi-map")
            info = kept[1] if kept else {"obs": obs, "recent": {}, "before": None}
            order = sorted(routes)
            svg, found = town(info["obs"], seat, info.get("before"), info.get("recent", ()),
                              routes=[routes[a] for a in order])
            by_route = route_squares(routes)
            on_town |= by_route
            labels = {pid: self.decision_label(state, a) for pid, a in on_town.items()}
            tips = {sq: f"{labels[sq]}. " + nt.decision_tip(names[a], obs, seat)
                    for sq, a in by_route.items()}
            previews = {sq: route_preview(*routes[a]) for sq, a in by_route.items()}
            places = places_of(found, on_town, hint, labels, tips, previews)
            if not kept:
                bc.claim("nukumi-map")
            with (kept[0] if kept else st.container()):
                clicked = bc.board(places, svg, key=f"{key}-town", max_width=nd.TOWN_W,
                                   note="Hover to read; click a lit place.")
            chosen = bc.pick(clicked, on_town)
        rest = [a for a in names if a not in on_town.values()]
        if rest:
            clicked = _grouped_buttons(state, rest, key, self, hint, routes)
            if clicked is not None:
                chosen = clicked
        return chosen

    def decision_label(self, state, action: int) -> str:
        seat = state.current_player
        obs = state.observation(seat)
        name = state.action_to_string(action)
        if ROUTE.fullmatch(name):
            order = sorted(npc_routes(obs, {int(a): state.action_to_string(int(a))
                                            for a in state.legal_actions()}))
            if action in order:
                return f"Route {order.index(action) + 1}: " + nt.decision_label(name, obs, seat)
        return nt.decision_label(name, obs, seat)

    def decision_tip(self, state, action: int) -> str:
        seat = state.current_player
        return nt.decision_tip(state.action_to_string(action), state.observation(seat), seat)

    def best_move_mark(self, state, action: int) -> list:
        """The town's place the move is clicked on (a square, a spot, a building tile), or the
        card it takes or plays."""
        name = state.action_to_string(action)
        found = town_actions({action: name})
        if found:
            return list(found)
        if m := re.fullmatch(r"(?:take|use) ((?:EX|S)-\d\d)", name):
            return [f"offer:{m.group(1)}", f"card:{state.current_player}:{m.group(1)}"]
        if m := re.fullmatch(r"(?:play|discard) (S-\d\d).*", name):
            return [f"hand:{state.current_player}:{m.group(1)}"]
        if name == "partner action":
            return [f"partner:{state.current_player}"]
        if m := re.fullmatch(r"(?:accept|decline) (E-\d\d)", name):     # the round's event card
            cards = state.observation(state.current_player).get("round_cards") or []
            return [f"round:{i}" for i, c in enumerate(cards) if c == m.group(1)][:1]
        return self._seat_mark(state, action, name)

    @staticmethod
    def _seat_mark(state, action: int, name: str) -> list:
        """The resources, cards, square or board of the mover a button's decision is about."""
        p = state.current_player
        obs = state.observation(p)
        if re.fullmatch(r"pay \d+ coins to move", name):
            return [f"hold:{p}", f"coins:{p}"]          # its Coins, in the town and on its board
        if re.fullmatch(r"(?:sell|pay) [a-z+]+", name):
            return [f"hold:{p}", f"drawn:{p}"]          # the drawn resources spent
        if name == "stop moving":
            return [obs["seats"][p]["square"]]          # where the pioneer stops
        if name == "pass":
            return [f"board:{p}", f"partner:{p}"]       # no more actions from its boards
        if name == "stop playing":
            return [f"hand:{p}:{h}" for h in obs["seats"][p].get("hand") or []]
        if name == "draw blind":
            return ["startcard"]                        # the Helper deck is drawn there
        if ROUTE.fullmatch(name):                       # the NPC's walk: where it ends
            return [npc_routes(obs, {action: name})[action][1][-1]]
        # "end turn", "build nothing", "take blind" (the action card deck is not drawn):
        # nothing on the board to ring, their buttons are
        return []

    def best_move_arrow(self, state, action: int):
        """An NPC's route: from its square to where it ends."""
        name = state.action_to_string(action)
        if not ROUTE.fullmatch(name):
            return None
        start, squares = npc_routes(state.observation(state.current_player), {action: name})[action]
        return (start, squares[-1]) if start in SQUARES and start != squares[-1] else None

    def idle_input(self, obs: dict | None, viewer, key: str = "idle") -> str:
        """HTML, inert: the viewer's drawn resources and Helper hand while the others move."""
        text = "Waiting for the other players…"
        if obs is not None and viewer is not None and 0 <= viewer < len(obs["seats"]):
            seat = obs["seats"][viewer]
            drawn = ", ".join(f"{n} {r}" for r, n in seat["drawn"].items() if n) or "none"
            hand = ", ".join(f"{h} {nt.helper_name(h)}" for h in seat.get("hand") or []) or "none"
            text += (f"<br>Your drawn resources: {esc(drawn)}<br>Your Helpers: {esc(hand)}")
        return (f"<div style='min-height:3rem;color:#6b7080;padding-top:.5rem'>{text}</div>"
                + GRID_CSS)

    def section(self, obs: dict) -> str | None:
        return f"Round {min(obs['round'] + 1, 5)}" if obs.get("phase") not in ("setup",) else "Setup"

    # -- log --------------------------------------------------------------------------------
    def log_text(self, state, action: int, actor: int, viewer):
        name = state.action_to_string(action)
        if actor < 0:
            m = re.fullmatch(r"P(\d) draws (S-\d\d)", name)
            if m and viewer is not None and int(m.group(1)) != viewer:
                return f"P{m.group(1)} draws a Helper"      # others' hands stay hidden
            return nt.chance_sentence(name)
        label = nt.log_label(name, state.observation(actor), actor)
        return f"P{actor} {third_person(label) or third_person('Choose ' + label)}"

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
           ("Free actions",
            re.compile(r"discard S-\d\d to move|pay 3 coins to move|sell \w+")),
           ("", re.compile(r".*"))]


# Button labels wrap between words only, never inside one. A phone: the town in a box of its
# size at 300 px wide (the board component zooms it in the box, its text readable), the
# prompt and the decision panel's buttons compact (smaller, closer, the group titles left to
# the tooltips), so that every choice follows the town in the first screen. Sent with the
# prompt, and with the idle input.
GRID_CSS = ("<style>[class*='-nkgrid'] button p { white-space: normal; overflow-wrap: normal;"
            " word-break: normal; hyphens: none; }"
            "[class*='-nkgrid'] [class*='-flow'] { flex-wrap: wrap !important; }"
            "@media (max-width: 640px) {"
            ".nk-prompt { font-size: .9rem; }"
            "[class*='-town'] .blb-stage, [class*='-nktown'] .blb-stage {"
            " max-width: 300px !important; margin: 0 auto; }"
            "[class*='-nkgrid'], [class*='-nkgrid'] [data-testid='stVerticalBlock'] { gap: .4rem; }"
            "[class*='-nkgrid'] button { min-height: 2.1rem; padding: .1rem .35rem; }"
            "[class*='-nkgrid'] button p { font-size: .82rem; line-height: 1.15; }"
            "[class*='-nkgrid'] [data-testid='stCaptionContainer'] { display: none; }"
            "}</style>")


def _flow_buttons(state, actions, key: str, ui, hint=None):
    """Buttons side by side, each as wide as its words, on as many rows as they need: four
    fixed columns in the desktop's decision panel split "Prospec|tor" inside the word."""
    chosen = None
    with st.container(horizontal=True, gap="small", key=f"{key}-flow"):
        for a in actions:
            if st.button(ui.decision_label(state, a), key=f"{key}_act_{a}", width="content",
                         help=ui.decision_tip(state, a) or None,
                         type="primary" if a == hint else "secondary"):
                chosen = a
    return chosen


def _grouped_buttons(state, actions, key: str, ui=None, hint=None, routes=None):
    """Buttons for ``actions``: the turn's actions, then "end turn" and "pass" (after the
    action ending the turn is the usual choice) with the free actions, four to a row (short
    labels, the full effect in their tooltips)."""
    chosen = None
    left = list(actions)
    ends = [a for a in left if state.action_to_string(a) in ("end turn", "pass")]
    ends.sort(key=lambda a: state.action_to_string(a) != "end turn")
    left = [a for a in left if a not in ends]
    groups = []
    for title, rx in _GROUPS:
        group = [a for a in left if rx.fullmatch(state.action_to_string(a))]
        left = [a for a in left if a not in group]
        groups.append((title, group))
    free = groups[1][1]
    groups[1] = ("", ends + free)
    with st.container(key=f"{key}-nkgrid"):
        for i, (title, group) in enumerate(groups):
            if not group:
                continue
            if title:
                st.caption(title)
            if i == 1:                  # end turn and the free actions: many, short
                clicked = _flow_buttons(state, group, f"{key}-g{i}", ui, hint)
            else:
                wide = any(len(ui.decision_label(state, a)) > 22 for a in group) if ui else False
                clicked = action_buttons(state, group, f"{key}-g{i}", columns=1 if wide else 2,
                                         ui=ui, hint=hint)
            if clicked is not None:             # action 0 (mining) is a choice too
                chosen = clicked
    return chosen
