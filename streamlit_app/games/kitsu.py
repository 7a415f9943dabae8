"""Kitsu in the app: the page layout and the input (the hand as clickable cards, the trick's
cards as Katana targets, the last trick for the Recover-card token, follow-up choices, the
"analyse from a seat" form). The pictures are drawn by kitsu_draw.py.

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
from . import kitsu_text as kt
from .base import GameUI, choice_columns, third_person
from .kitsu_draw import (CLAN_NAME, HAND_CARD_W, TOKEN_TITLE, board_svg, card_long_name,
                         hand_card_svg)

CARD_TYPES = boardlab.games.get("kitsu").CARD_TYPES


# ----------------------------------------------------------------------------------------------
# The hand as clickable cards; the trick's cards as choices
# ----------------------------------------------------------------------------------------------
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


def hand_places(hand, by_card: dict, names: dict, hint=None, obs=None, seat=None):
    """The hand as places of the board component, and place id -> action. A card's label
    names what clicking it does, its tip what the card does (``obs``: the mover's view)."""
    hint_card = None
    if hint is not None and hint in names:
        m = re.fullmatch(r"(?:play|give) (\S+).*", names[hint])
        hint_card = m.group(1) if m else None
    players = (obs or {}).get("players", 4)
    places, actions = [], {}
    for i, card in enumerate(hand):
        a = by_card.get(card)
        pid = f"h{i}-{card}"
        hinted = card == hint_card
        if a is not None:
            actions[pid] = a
            label = kt.decision_label(names[a], obs, seat)
            tip = kt.decision_tip(names[a], obs, seat)
        else:
            label = f"{card_long_name(card)} cannot be played now"
            tip = kt.card_tip(card, players)
            forced = (obs or {}).get("forced")
            if forced and forced.get("seat") == seat:
                tip = (f"A Black Kitsune obliges you to play {forced['colour']} if you can. "
                       + tip)
        places.append(bc.Place(pid, label + (" (the AI's hint)" if hinted else ""),
                               legal=a is not None, svg=hand_card_svg(card), tip=tip,
                               caption="AI hint" if hinted else "",
                               mark="hint" if hinted else None))
    return places, actions


def hand_view(hand, key: str, names=None, by_card=None, hint=None, interactive=True, obs=None,
              seat=None):
    """Draw the hand (clickable where legal); returns the action clicked, or None."""
    places, actions = hand_places(hand, by_card or {}, names or {}, hint, obs, seat)
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
        i = int(m.group(1)) - 1
        pid = f"t{i}"
        actions[pid] = a
        label = kt.decision_label(nm, obs, seat)         # "Destroy Orange 4 of P1 (opponent)"
        places.append(bc.Place(pid, label, rect=rects[i], note=label,
                               tip=kt.decision_tip(nm, obs, seat)))
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
        label = kt.decision_label(nm, obs)               # "Take Blue 2 back into your hand"
        places.append(bc.Place(pid, label, rect=rects[i], note=label,
                               tip=kt.decision_tip(nm, obs)))
    return places, actions


def _choice_buttons(names: dict, key: str, hint=None, columns: int = 2, obs=None, seat=None):
    """A button per action, named by its effect, its tooltip the longer text; the AI's hint
    is the primary one. Two to a row, a row each when a label is long."""
    chosen = None
    acts = list(names)
    labels = {a: kt.decision_label(names[a], obs, seat) for a in acts}
    cols = st.columns(choice_columns(labels.values(), columns))
    for i, a in enumerate(acts):
        label = labels[a]
        tip = kt.decision_tip(names[a], obs, seat) or label
        if cols[i % len(cols)].button(label + ("  · AI hint" if a == hint else ""),
                                      key=f"{key}_act_{a}", width="stretch", help=tip,
                                      type="primary" if a == hint else "secondary"):
            chosen = a
    return chosen


def table_places(found: list[dict]) -> list:
    """The table's elements (kitsu_draw.board_svg's ``places``) as inert places with tips."""
    return [bc.Place(d["id"], d["label"], legal=False, rect=d["rect"], tip=d["tip"],
                     anim=d["anim"]) for d in found]


# what a decision without lit places on the table is about there: the power tokens to choose
# from, the clans' pawns for the +3; else the viewer's own seat and hand
_SUBJECT = {"token_pick": r"tok-.+", "plus3_side": r"pawn-.+"}


def table_focus(obs, viewer, ids) -> list:
    """The places of the table (``ids``) a phone's table, drawn larger in a box that
    scrolls, opens on when none is lit."""
    mine = rf"seat{viewer}|s{viewer}(?:c\d+|back)" if viewer is not None else None
    mover = obs.get("current_player") == viewer and viewer is not None
    for pattern in ([_SUBJECT[obs.get("phase")]] if mover and obs.get("phase") in _SUBJECT
                    else []) + ([mine] if mine else []):
        found = [i for i in ids if re.fullmatch(pattern, i)]
        if found:
            return found
    return []


def draw_table(obs, viewer, *, key: str, recent=None, last_cards=None, before=None, legal=(),
               hint=None, note: str = ""):
    """The table as a board: every element with its tip (and how it arrived, since
    ``before``), ``legal`` places (e.g. the Katana's targets) clickable. Returns the id of the
    place clicked, or None."""
    found = []
    svg = board_svg(obs, viewer, recent=recent, last_cards=last_cards, places=found, before=before)
    by_id = {p.id: p for p in legal}
    places = []
    for p in table_places(found):
        q = by_id.pop(p.id, None)
        if q is not None:
            p = bc.Place(p.id, q.label, rect=q.rect, note=q.note, tip=q.tip or p.tip,
                         anim=p.anim, mark=q.mark)
        places.append(p)
    places += list(by_id.values())
    return bc.board(places, svg, key=key, max_width=820, note=note,
                    focus=table_focus(obs, viewer, [p.id for p in places]))


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


# a decision made by a button, and the table's element it is about (the best move's ring)
_TABLE_MARKS = ((r"take (\S+)", "tok-{}"), (r"(?:leader|token to) P(\d+)", "seat{}"),
                (r"\+3 to (blue|orange)", "pawn-{}"))


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

    def seat_colour(self, seat: int, players: int) -> str:
        from .kitsu_draw import CLAN_COLOUR
        return CLAN_COLOUR["blue" if seat % 2 == 0 else "orange"]

    # -- drawing ----------------------------------------------------------------------------
    def board(self, obs: dict, key: str = "board", viewer=None, changes=None) -> None:
        """The table, every element with its tooltip; the cards played since the viewer's last
        decision (``changes``) are ringed and arrive animated (slid from their seat). The
        table is left in a slot the Katana's target is clicked in (see :meth:`move_input`);
        if that input came first and drew the table, nothing is drawn."""
        if bc.claimed("kitsu-table"):
            return
        recent = bc.recent_moves(changes)
        before = getattr(changes, "before", None) if changes else None
        last = _entered_last_trick(obs)
        slot = bc.reserve("kitsu-table", obs=obs, viewer=viewer, recent=recent, last_cards=last,
                          before=before)
        with slot:
            draw_table(obs, viewer, key=f"{key}-kitsu-table", recent=recent, last_cards=last,
                       before=before)

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
                    effect = kt.TOKEN_EFFECT.get(token, "")
                    # the effect in the toggle's tooltip: a note under it would push the hand
                    # out of a phone's first screen
                    use_token = st.toggle(
                        f"Play my **{TOKEN_TITLE.get(token, token)}** with this card",
                        key=f"{key}-usetoken", help=effect[:1].upper() + effect[1:] + ".",
                        value=hint is not None and " with " in names.get(hint, ""))
            by_card = hand_actions(names, use_token)
            choice = hand_view(hand, key, names, by_card, hint, obs=obs, seat=seat)
            # anything legal the hand cannot reach (should not happen) stays offered
            reached = set(hand_actions(names, True).values()) | set(hand_actions(names, False).values())
            rest = {a: nm for a, nm in names.items() if a not in reached}
            if rest:
                choice = _choice_buttons(rest, key, hint, obs=obs, seat=seat) or choice
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
        return _choice_buttons(names, key, hint, obs=obs, seat=seat)

    def _table_input(self, state, obs, names, key, hint):
        """A card clicked on the table, redrawn clickable in the board's slot: the Katana's
        target in the trick, the Recover-card token's card in the last trick. False if the
        choices are not all on the table (the caller offers buttons)."""
        seat = state.current_player
        kept = bc.reserved("kitsu-table")
        info = kept[1] if kept else {"obs": obs, "viewer": seat, "recent": None, "last_cards": None}
        trick_rects, last_rects = [], []
        board_svg(info["obs"], info["viewer"], trick_rects=trick_rects, last_rects=last_rects,
                  last_cards=info["last_cards"])
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
        places = [bc.Place(p.id, p.label, rect=p.rect, note=p.note, tip=p.tip,
                           mark="hint" if actions[p.id] == hint else None) for p in places]
        if not kept:
            bc.claim("kitsu-table")         # the board, drawn after, leaves the table out
        with (kept[0] if kept else st.container()):
            clicked = draw_table(info["obs"], info["viewer"], key=f"{key}-{obs['phase']}",
                                 recent=info["recent"], last_cards=info["last_cards"],
                                 before=info.get("before"), legal=places, note=note)
        return bc.pick(clicked, actions)

    def decision_label(self, state, action: int) -> str:
        seat = state.current_player
        return kt.decision_label(state.action_to_string(action), state.observation(seat), seat)

    def move_label(self, state, action: int, viewer=None) -> str:
        """The button's words, said from ``viewer``'s seat: "You lead", "(your partner)" are
        the viewer's, not the mover's (the label reads only the public clans besides)."""
        seat = state.current_player if viewer is None else viewer
        return kt.decision_label(state.action_to_string(action), state.observation(seat), seat)

    def decision_tip(self, state, action: int) -> str:
        seat = state.current_player
        return kt.decision_tip(state.action_to_string(action), state.observation(seat), seat)

    def best_move_mark(self, state, action: int) -> list:
        """The card it plays: in the hand (the hand's board, "h<i>-<card>") and in the seat's
        hand drawn on the table ("s<seat>c<i>"), with the power token it goes with; the trick
        card a Katana destroys or the last trick's card taken back; the token a clan takes,
        the seat that receives it or leads, the pawn of the clan the +3 goes to."""
        seat = state.current_player
        name = state.action_to_string(action)
        obs = state.observation(seat)
        m = re.fullmatch(r"(?:play|give) (\S+)(?: with (\S+))?", name)
        if m:
            hand = obs["hands"][seat] or []
            if m.group(1) not in hand:
                return []
            i = hand.index(m.group(1))
            return [f"h{i}-{m.group(1)}", f"s{seat}c{i}"] + ([f"held{seat}"] if m.group(2) else [])
        for pattern, pid in _TABLE_MARKS:
            m = re.fullmatch(pattern, name)
            if m:
                return [pid.format(m.group(1))]
        m = re.fullmatch(r"katana #(\d+) .*", name)
        if m:
            return [f"t{int(m.group(1)) - 1}"]
        m = re.fullmatch(r"recover (\S+)", name)
        if m:
            shown = [c.get("card") for c in obs["last_trick"]["cards"]]
            return [f"l{shown.index(m.group(1))}"] if m.group(1) in shown else []
        return []

    def how_to_play(self, params: dict | None = None) -> str:
        return kt.how_to_play(params)

    def idle_input(self, obs: dict | None, viewer) -> str:
        """The viewer's hand while the others move, as one inert element in the hand's place
        (same cards, same size: nothing jumps, nothing can be clicked)."""
        hands = (obs or {}).get("hands") or []
        hand = (hands[viewer] or []) if viewer is not None and 0 <= viewer < len(hands) else []
        cards = "".join(f"<div style='width:{HAND_CARD_W}px;opacity:.75'>"
                        f"{bc.scope_ids(hand_card_svg(c), bc.scope_prefix(f'idle-{i}'))}</div>"
                        for i, c in enumerate(hand))     # ids of its own: see scope_ids
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
        return f"P{actor} {kt.log_sentence(name, state.observation(actor), actor, third_person)}"

    def events(self, before: dict, after: dict) -> list[str]:
        out = []
        new_round = sum(after["rounds_won"]) > sum(before["rounds_won"])
        # a trick ended: its count went up, or it ended the round (the count starts again)
        last = after.get("last_trick") or {}
        if after.get("tricks", 0) > before.get("tricks", 0) or (
                new_round and last.get("cards") and last != (before.get("last_trick") or {})):
            cards = ", ".join(f"P{c['seat']} {kt.card_name(c['card']) if c.get('card') else '?'}"
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
