"""What a visitor of a shared table reads of the game: the log with its events and round
headings, and "since your last move" (no Streamlit calls here).

The store computes it from the real position (:class:`~.store.GameStore`'s ``story`` hook)
and hands each visitor only its own: a seat reads the moves as the rules let it see them
(``GameUI.log_text`` for that seat) and the events and headings of its own observations;
a spectator (or the host) what every seat reads the same (a line, an event or a heading
that some seat reads differently is left out); once the table has ended, everything.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import NamedTuple

import boardlab

from ..games import Changes, ui_for
from ..session import log_text, start_of, state_at

MAX_READERS = 512        # readers kept (one per game and viewer), the oldest dropped


class StoryLine(NamedTuple):
    ply: int        # index in the history of the action the line comes from
    text: str       # as shown: "12. P0 play B3", "   • Trick: ...", "── Round 2 ──"
    kind: str       # "move", "event" or "section"
    raw: str        # the same without number, bullet or rule


class Story(NamedTuple):
    """One visitor's story at one version of a table."""
    viewer: int | None              # the seat, or None (spectator, host)
    lines: tuple[StoryLine, ...]    # the log, oldest first
    since: int                      # history length after the viewer's last decision
    plies: int                      # history length now
    before: dict | None             # the viewer's observation at ``since`` (None: no seat)
    decided: int = 0                # history length before the viewer's last decision

    def changes(self) -> Changes | None:
        """What happened since the seat's last decision, for the board and the strip (None
        for a spectator). Only the lines and the observation are given: ``moves`` holds
        one placeholder per line, never an action the seat did not see."""
        if self.viewer is None:
            return None
        lines = [ln.raw for ln in self.lines if ln.ply >= self.since and ln.kind != "section"]
        return Changes(viewer=self.viewer, since=self.since,
                       moves=[(None, boardlab.HIDDEN)] * len(lines), lines=lines,
                       before=self.before,
                       outcome=Changes.outcome_of(self.lines, self.decided, self.since))

    def texts(self) -> list[str]:
        return [ln.text for ln in self.lines]


def _common(values: list):
    """The value every seat agrees on, else None."""
    return values[0] if values and all(v == values[0] for v in values[1:]) else None


class _Reader:
    """A viewer's log of one game, extended action by action (only the new actions are
    read on the next version)."""

    def __init__(self, state, viewer: int | None, everything: bool):
        self.ui = ui_for(state.game.name)
        self.viewer, self.everything = viewer, everything
        self.n = state.game.num_players
        self.s = start_of(state)
        self.history: list[int] = []
        self.lines: list[StoryLine] = []
        self.moves = 0
        self.before = self._observe()
        self.section = self._section(self.before)

    # -- how this viewer reads one step ----------------------------------------------------
    def _observe(self):
        s = self.s
        if self.everything:
            return s.full_observation()
        if self.viewer is not None:
            return s.observation(self.viewer)
        return [s.observation(p) for p in range(self.n)]

    def _text(self, action: int, actor: int):
        ui, s = self.ui, self.s
        if self.everything:
            return log_text(ui, s, action, actor, actor if actor >= 0 else None)
        if self.viewer is not None:
            return log_text(ui, s, action, actor, self.viewer)
        readers = [p for p in range(self.n) if p != actor] or [actor]
        return _common([log_text(ui, s, action, actor, p) for p in readers])

    def _events(self, before, after) -> list[str]:
        if self.everything or self.viewer is not None:
            return self.ui.events(before, after)
        per_seat = [self.ui.events(b, a) for b, a in zip(before, after)]
        return [ev for ev in per_seat[0] if all(ev in other for other in per_seat[1:])]

    def _section(self, obs):
        if self.everything or self.viewer is not None:
            return self.ui.section(obs)
        return _common([self.ui.section(o) for o in obs])

    # -- reading ------------------------------------------------------------------------------
    def extend(self, history) -> None:
        s = self.s
        for ply in range(len(self.history), len(history)):
            a = history[ply]
            actor = s.current_player
            text = self._text(a, actor)
            s.apply(a)
            self.history.append(a)
            if text:
                self.moves += 1
                self.lines.append(StoryLine(ply, f"{self.moves}. {text}", "move", text))
            after = self._observe()
            for ev in self._events(self.before, after):
                self.lines.append(StoryLine(ply, f"   • {ev}", "event", ev))
            section = self._section(after)
            if section and section != self.section:
                self.lines.append(StoryLine(ply, f"── {section} ──", "section", section))
            self.section = section
            self.before = after


class StoryTeller:
    """The store's ``story`` hook: keeps one reader per (game, viewer) and extends it with
    the new actions of each version (a new reader after an undo)."""

    def __init__(self):
        self._readers: OrderedDict[tuple, _Reader] = OrderedDict()
        self._before: OrderedDict[tuple, dict] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, game_id: str, sess, viewer: int | None, everything: bool) -> Story:
        state = sess.state
        history = list(state.history)
        with self._lock:
            key = (game_id, viewer, everything)
            reader = self._readers.pop(key, None)
            if reader is None or reader.history != history[:len(reader.history)]:
                reader = _Reader(state, viewer, everything)
            reader.extend(history)
            self._keep(self._readers, key, reader)
            lines = tuple(reader.lines)
        if viewer is None:
            return Story(None, lines, len(history), len(history), None)
        decided, since = sess.last_decision(viewer)
        return Story(viewer, lines, since, len(history),
                     self._observation_at(game_id, state, viewer, since, everything), decided)

    def _observation_at(self, game_id, state, viewer, ply, everything):
        """The viewer's observation after the first ``ply`` actions (cached: it changes only
        when the seat decides)."""
        key = (game_id, viewer, ply, everything, tuple(state.history[:ply][-8:]))
        with self._lock:
            obs = self._before.get(key)
        if obs is None:
            past = state_at(state, ply)
            obs = past.full_observation() if everything else past.observation(viewer)
            with self._lock:
                self._keep(self._before, key, obs)
        return obs

    @staticmethod
    def _keep(cache: OrderedDict, key, value) -> None:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > MAX_READERS:
            cache.popitem(last=False)
