"""The per-game UI contract: :class:`GameUI` (the board drawing and the move input) and the
small helpers every game's UI uses.

A game plugs into the app with one module in this package defining a :class:`GameUI`
subclass and one line in ``UIS`` (``__init__.py``). Everything else (new game, AI seats,
hints, undo, records, analysis, search tree, rules page) is generic and works from the public
``boardlab`` API. A game without a module gets :class:`GameUI` itself: a text board (the
game's ``render``) and one button per legal move, named by its notation.

What a subclass may override:

* ``param_inputs(key)`` - widgets for the game's parameters, returns the params dict;
* ``seat_name(seat, players)`` - e.g. "P1 (Orange)";
* ``board(obs, key, viewer, changes)`` - draw the board from an observation dict (one seat's,
  or the full one); ``changes`` (a :class:`Changes`, or None) is what happened since the
  viewer's last decision, for the board to highlight (cards played, maps placed). Draw the
  table itself as the first element: on a phone the Play page shows that element, then the
  decision panel, then the board's other elements (the players' panels);
* ``show_changes(changes, key)`` - the "since your last move" strip above the board
  (default: the log lines of those moves as text; a game that highlights them on the board
  may draw less here);
* ``move_input(state, obs, key)`` - widgets for the decision of the seat to move (the
  decision panel: the Play page puts it beside the board on a desktop, about 360 px wide,
  and under it on a phone, so keep it compact); returns the chosen action, a list of actions
  the seat takes in a row (e.g. orientation then position, confirmed together; undone
  together), or None. Only legal actions may be offered;
* ``decision_label(state, action)`` - a decision button's text naming its effect ("Logging:
  pay 1 wood → +2 wood"; default: the notation) and ``decision_tip(state, action)`` - its
  longer tooltip (default: none); :func:`action_buttons` uses both;
* ``move_label(state, action, viewer)`` - the button's words for ``action`` as ``viewer``
  reads them where the move is named outside the decision panel (review, evaluation bar,
  search line and tree; default: ``decision_label``); a game whose label speaks to a seat
  ("you lead", "your partner") names it from ``viewer``'s seat;
* ``best_move_mark(state, action)`` - the place ids of the board to ring for the hint's or
  the analysis' best move (default: none), and ``best_move_arrow(state, action)`` - (from
  id, to id) when that move goes from one place to another (an arrow is drawn; default None);
  the pages mark it with ``show_best_move(state, action, line)``, which a board may also read
  (``board_component.marked_move()``) to draw the move itself (a ghost of a card);
* ``seat_colour(seat, players)`` - the seat's colour as its board draws it (the review
  graph uses it);
* ``how_to_play()`` - the "How to play" panel (markdown: the goal, a turn, how it ends);
* ``idle_input(obs, viewer)`` - HTML of the viewer's input area while other seats move,
  drawn inert (no widget, nothing to click), in about the space ``move_input`` takes, so
  that nothing jumps when the turn comes back (default: a short waiting line). It is one
  element on purpose: it replaces the decision's widgets at once;
* ``log_text(state, action, actor, viewer)`` - how ``viewer`` may read a move in the log
  (None: not shown), ``events(before, after)`` - public happenings between two views, and
  ``section(obs)`` - the part of the game an observation is in (e.g. "Round 2"): the log
  starts a heading line where it changes, after that step's events;
* ``result_text(state)`` - the game-over line;
* ``seat_facts(game, key)`` - (optional) a form for "analyse from a seat".
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

import streamlit as st

import boardlab

from .. import board_component as bc
from ..session import search_line  # noqa: F401  (the pages' and the tests' import)


def plural(n: int, word: str, words: str | None = None) -> str:
    """'1 trick', '2 tricks'."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


@dataclass
class Changes:
    """What happened since a seat's last decision, as that seat may know it (given to
    ``GameUI.board`` and ``GameUI.show_changes``)."""
    viewer: int | None              # the seat on screen (None: no seat, e.g. all AI)
    since: int                      # history length right after its last decision
    moves: list = field(default_factory=list)   # (actor, action) of history[since:], chance too
    lines: list = field(default_factory=list)   # their log lines as the viewer reads them, plain
    before: dict | None = None      # the viewer's observation at ``since``
    # what the viewer's own last decision led to, as log lines ("Trick: ... → Blue +2" for
    # the card that ended a trick): news too, though no other seat moved since
    outcome: list = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.moves)

    def strip(self) -> list[str]:
        """The lines of the "since your last move" strip, oldest first: what the viewer's
        decision led to, then what happened after it (empty: nothing to show, no strip)."""
        return [*self.outcome, *self.lines]

    @staticmethod
    def outcome_of(lines, start: int, since: int) -> list[str]:
        """The events a seat's own decision (``history[start:since]``) led to, from its log
        ``lines`` (with ``ply``, ``kind``, ``raw``): a trick its card ended, a round it
        scored (its move itself is not news)."""
        return [ln.raw for ln in lines if start <= ln.ply < since and ln.kind == "event"]


FORCED_WORLDS = 8     # worlds per other seat in which a forced move must be forced too


class GameUI:
    """Generic UI for any game of the registry."""
    name = ""
    title = ""
    supports_seat_facts = False

    def __init__(self, name: str = ""):
        if name:
            self.name = name
            self.title = self.title or name.capitalize()

    # -- set-up -----------------------------------------------------------------------------
    def param_inputs(self, key: str) -> dict:
        module = boardlab.games.get(self.name)
        params = {}
        for pname, default in module.DEFAULTS.items():
            label = pname.replace("_", " ").capitalize()
            if isinstance(default, bool):
                params[pname] = st.checkbox(label, value=default, key=f"{key}_{self.name}_{pname}")
            elif isinstance(default, int):
                params[pname] = int(st.number_input(label, value=default, step=1,
                                                    key=f"{key}_{self.name}_{pname}"))
            elif isinstance(default, str):
                params[pname] = st.text_input(label, value=default,
                                              key=f"{key}_{self.name}_{pname}").strip()
            else:
                params[pname] = default
        return params

    def seat_name(self, seat: int, players: int) -> str:
        return f"P{seat}"

    def header_note(self, obs: dict) -> str:
        """A line for the page's header from ``obs`` (the viewer's observation): what the
        game line does not say, such as a solo mode and how far it has got. Markdown."""
        return ""

    def how_to_play(self, params: dict | None = None) -> str:
        """Markdown for someone who never saw the rulebook: the goal, a turn, how it ends, for
        the game's configuration (``params``, the game's parameters; None: every one)."""
        return (f"**{self.title or self.name}** has no short guide in the app yet: the "
                "**Rules** page has the rules as implemented.\n\n"
                "**At the table:** when it is your turn, your choices are lit on the board and "
                "listed beside it; hover (or tap) one to read what it does, click it to play. "
                "**Hint** shows what the AI would play, **Undo** takes your last decision "
                "back. The log on the right lists every move you may know about.")

    # -- drawing ----------------------------------------------------------------------------
    def board(self, obs: dict, key: str = "board", viewer=None, changes: Changes | None = None
              ) -> None:
        module = boardlab.games.get(self.name)
        st.code(module.render(obs), language=None)

    def show_changes(self, changes: Changes, key: str) -> None:
        """What happened since the viewer's last decision (what it led to, what the others
        did): one line (the latest first) that opens, over the board, into the complete
        list."""
        st.markdown(changes_html(changes.strip()), unsafe_allow_html=True)

    # -- input ------------------------------------------------------------------------------
    def move_input(self, state, obs: dict, key: str, hint=None):
        """One button per legal decision, labelled with its notation (``hint``: the action the
        AI suggests, which a game's input may mark)."""
        legal = [int(a) for a in state.legal_actions()]
        st.markdown(f"**{self.seat_name(state.current_player, state.game.num_players)}**, "
                    "choose a move:")
        return action_buttons(state, legal, key, ui=self, hint=hint)

    def forced_is_public(self, state, seat: int) -> bool:
        """Whether every other seat knows that ``seat``'s decision in ``state`` (the world
        as ``seat`` knows it) has one legal choice. A table plays a forced move at once only
        then: played at once, it tells the others it was forced, which for a card that
        follows the lead with a seat's only card of that colour is the seat's secret. Read
        from worlds each other seat thinks possible (a function of ``seat``'s knowledge)."""
        return all(w.current_player == seat and len(w.legal_actions()) == 1
                   for other in range(state.game.num_players) if other != seat
                   for w in (state.determinize(other, k) for k in range(FORCED_WORLDS)))

    def decision_label(self, state, action: int) -> str:
        """The text of the button for ``action``, naming its effect (default: notation)."""
        return state.action_to_string(action)

    def decision_tip(self, state, action: int) -> str:
        """The tooltip of the button for ``action``: what it costs and gives, in words."""
        return ""

    def move_label(self, state, action: int, viewer=None) -> str:
        """``action`` of the seat to move in ``state``, in its button's words, as ``viewer``
        (a seat, or None: the mover) reads it in the review, the bar, a search's line or
        tree. The words come from the notation and what every seat sees, so they tell the
        viewer nothing the notation does not (default: :meth:`decision_label`)."""
        return self.decision_label(state, action)

    def best_move_mark(self, state, action: int) -> list[str]:
        """The ids of the board's places that show ``action`` (ringed for a best move)."""
        return []

    def best_move_arrow(self, state, action: int) -> tuple[str, str] | None:
        """(from place id, to place id) if ``action`` moves something between two places."""
        return None

    def show_best_move(self, state, action: int, line=()) -> None:
        """Mark ``action`` (a hint's or an analysis' best move) on the boards drawn in the
        rest of this script run: its places ringed, its arrow, and the move itself for a
        drawing that shows more (``line``: the same seat's next moves the search expects,
        e.g. where an oriented card goes)."""
        bc.set_marks(self.best_move_mark(state, action), arrow=self.best_move_arrow(state, action),
                     move=(state, int(action), tuple(line)))

    def seat_colour(self, seat: int, players: int) -> str:
        """The colour of ``seat`` as the board draws it."""
        return SEAT_PALETTE[seat % len(SEAT_PALETTE)]

    def idle_input(self, obs: dict | None, viewer) -> str:
        """HTML of the viewer's input area while the others move, drawn inert (nothing to
        click); ``obs`` is the viewer's observation (None if no seat is on screen)."""
        return ("<div style='min-height:3rem;color:#6b7080;padding-top:.5rem'>"
                "Waiting for the other players…</div>")

    # -- log --------------------------------------------------------------------------------
    def log_text(self, state, action: int, actor: int, viewer):
        if actor < 0:
            return None             # chance may be private: not listed
        if viewer is not None:      # a seat's log: moves hidden from it (secret dice...) stay hidden
            from ...cli import move_text
            return move_text(self.name, state, action, actor, viewer)
        return f"P{actor} {state.action_to_string(action)}"

    def events(self, before: dict, after: dict) -> list[str]:
        return []

    def section(self, obs: dict) -> str | None:
        """The heading of the part of the game ``obs`` is in, or None (no headings)."""
        return None

    def result_text(self, state) -> str:
        returns = [float(r) for r in state.returns()]
        if len(returns) == 1:       # a solo game
            return "Game over: you win." if returns[0] > 0 else "Game over: you lose."
        best = max(returns)
        winners = [f"P{s}" for s, r in enumerate(returns) if r == best]
        if len(winners) == len(returns):
            return "Game over: a draw."
        return f"Game over: {', '.join(winners)} win{'s' if len(winners) == 1 else ''}."

    def seat_facts(self, game_name: str, key: str):
        return None


SHORT_LABEL, LONG_LABEL = 10, 24   # characters of a button's label (the panel: about 360 px)


def choice_columns(labels, most: int = 2) -> int:
    """How many columns a decision's buttons take, at most ``most``: as many while every
    label is short (SHORT_LABEL), two up to LONG_LABEL, else one: a long label reads across
    the panel, not down a narrow column (a label wraps over as many lines as it needs, it
    is never cut)."""
    labels = [str(x) for x in labels]
    longest = max(map(len, labels), default=0)
    fit = most if longest <= SHORT_LABEL else 2 if longest <= LONG_LABEL else 1
    return max(1, min(most, fit, len(labels)))


def action_buttons(state, actions, key: str, columns: int = 2, ui: GameUI | None = None,
                   hint=None):
    """A button per action, labelled with ``ui.decision_label`` and helped by
    ``ui.decision_tip`` (``ui``: the game's, by default); the ``hint`` action's button is the
    primary one. Returns the clicked action or None."""
    if ui is None:
        from . import ui_for        # the registry imports this module: look it up on use
        ui = ui_for(state.game.name)
    chosen = None
    cols = st.columns(min(columns, max(len(actions), 1)))
    for i, a in enumerate(actions):
        name = ui.decision_label(state, a)
        tip = ui.decision_tip(state, a) or None
        if cols[i % len(cols)].button(name, key=f"{key}_act_{a}", width="stretch", help=tip,
                                      type="primary" if a == hint else "secondary"):
            chosen = a
    return chosen


SEAT_PALETTE = ["#d1495b", "#2e86ab", "#e0a21b", "#3f9c6d", "#7b5ea7", "#6c757d"]


# The verbs a decision's button starts with ("Play Blue 3"), for the log's "P0 plays Blue 3".
VERBS = {"accept", "activate", "add", "advance", "build", "choose", "count", "decline",
         "destroy", "discard", "do", "don't", "draw", "end", "exchange", "flip", "follow", "give",
         "keep", "lay", "lead", "move", "pass", "pay", "place", "play", "put", "recover", "refill",
         "resolve", "ride", "sail", "sell", "send", "set", "skip", "spend", "start", "step",
         "stop", "take", "terraform", "trade", "upgrade", "use"}
AIMS = {"advance", "flip", "move", "sail"}     # "Pay 1 fish: flip M6" -> "pays 1 fish to flip M6"
_YOU = [(re.compile(r"\byourself\b"), "themselves"), (re.compile(r"\byour\b"), "their"),
        (re.compile(r"\bYour\b"), "Their"), (re.compile(r"\byou\b"), "they")]


def _verb_s(verb: str) -> str:
    special = {"do": "does", "don't": "does not"}
    if verb in special:
        return special[verb]
    return verb + ("es" if verb.endswith(("s", "sh", "ch", "x", "o")) else "s")


def third_person(label: str) -> str | None:
    """A decision's button ("Follow with your blue 3 on H2", "Pay 1 fish: flip M6") as what
    the player did, for a log line after their seat ("follows with their blue 3 on H2",
    "pays 1 fish to flip M6"); None when the button does not start with one of VERBS."""
    first, _, rest = label.partition(" ")
    if first.lower() not in VERBS:
        return None
    text = _verb_s(first.lower()) + (" " + rest if rest else "")
    text = re.sub(r": (\w+)(?! \+)", lambda m: f" to {m.group(1).lower()}"     # its aim
                  if m.group(1).lower() in AIMS else m.group(0), text, count=1)
    for pattern, word in _YOU:
        text = pattern.sub(word, text)
    return text


def changes_html(lines) -> str:
    """The "since your last move" strip: a ``<details>`` whose summary is one line (the
    newest happenings first, cut to the width) and whose list, opened, holds every line."""
    lines = [str(x) for x in lines]
    text = " · ".join(reversed(lines))
    items = "".join(f"<li>{esc(x)}</li>" for x in lines)
    more = f"all {len(lines)} ▾" if len(lines) > 1 else "▾"
    return (f"<details class='bl-changes'><summary title='Click to see all of it'>"
            f"<b>Since your last move:</b><span class='bl-ch-text'>{esc(text)}</span>"
            f"<span class='bl-ch-more'>{more}</span></summary>"
            f"<ol class='bl-ch-list'>{items}</ol></details>")


def esc(text) -> str:
    return html.escape(str(text), quote=True)
