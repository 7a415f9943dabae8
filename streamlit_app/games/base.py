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
  viewer's last decision, for the board to highlight (cards played, maps placed);
* ``show_changes(changes, key)`` - the "since your last move" strip above the board
  (default: the log lines of those moves as text; a game that highlights them on the board
  may draw less here);
* ``move_input(state, obs, key)`` - widgets for the decision of the seat to move; returns the
  chosen action, a list of actions the seat takes in a row (e.g. orientation then position,
  confirmed together; undone together), or None. Only legal actions may be offered;
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
from dataclasses import dataclass, field

import streamlit as st

import boardlab


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

    def __bool__(self) -> bool:
        return bool(self.moves)


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

    # -- drawing ----------------------------------------------------------------------------
    def board(self, obs: dict, key: str = "board", viewer=None, changes: Changes | None = None
              ) -> None:
        module = boardlab.games.get(self.name)
        st.code(module.render(obs), language=None)

    def show_changes(self, changes: Changes, key: str) -> None:
        """A highlighted line with what the others did since the viewer's last decision."""
        text = " · ".join(changes.lines)
        st.markdown(f"<div class='bl-changes' title='{esc(text)}'><b>Since your last move:</b> "
                    f"{esc(text)}</div>", unsafe_allow_html=True)

    # -- input ------------------------------------------------------------------------------
    def move_input(self, state, obs: dict, key: str, hint=None):
        """One button per legal decision, labelled with its notation (``hint``: the action the
        AI suggests, which a game's input may mark)."""
        legal = [int(a) for a in state.legal_actions()]
        st.markdown(f"**{self.seat_name(state.current_player, state.game.num_players)}**, "
                    "choose a move:")
        return action_buttons(state, legal, key)

    def decision_label(self, state, action: int) -> str:
        """The text of a decision button, naming its effect (default: the notation)."""
        return state.action_to_string(action)

    def decision_tip(self, state, action: int) -> str:
        """The longer tooltip of a decision button (default: none)."""
        return ""

    def best_move_mark(self, state, action: int) -> list:
        """The board places to ring for the hint / analysis best move (default: none)."""
        return []

    def how_to_play(self) -> str:
        """Markdown for someone who never saw the rulebook: the goal, a turn, how it ends."""
        return ""

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


def action_buttons(state, actions, key: str, columns: int = 4):
    """A button per action (notation as label); returns the clicked action or None."""
    chosen = None
    cols = st.columns(min(columns, max(len(actions), 1)))
    for i, a in enumerate(actions):
        name = state.action_to_string(a)
        if cols[i % len(cols)].button(name, key=f"{key}_act_{a}", width="stretch"):
            chosen = a
    return chosen


def esc(text) -> str:
    return html.escape(str(text), quote=True)
