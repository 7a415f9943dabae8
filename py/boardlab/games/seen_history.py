"""A history as one seat saw it (State.observed_history), read action by action.

A game module says what a seat saw of each action with a subclass of :class:`SeenHistory`
(its ``SeenHistory``); without one a seat sees only its own actions. A reader can be
copied, so a State extends the reader it kept for a shorter history by the newer actions
instead of replaying the whole game at every move (docs/CONTRACTS.md).
"""
from __future__ import annotations

import copy

from ..errors import HIDDEN


class SeenHistory:
    """What `seat` saw of a history, read on `start` (a kernel state at its start, which
    each :meth:`read` moves on by one action). Subclasses override :meth:`read`, and
    :meth:`entries` where an action's entry depends on what comes after it."""

    def __init__(self, start, seat: int):
        self.start, self.seat, self.out = start, seat, []

    def read(self, action: int) -> None:
        """Apply `action` to `start` and note what the seat saw of it: itself if the seat
        made it, else HIDDEN."""
        self.out.append(action if self.start.current_player() == self.seat else HIDDEN)
        self.start.apply(action)

    def entries(self) -> list[int]:
        """The history so far as the seat saw it (a new list)."""
        return list(self.out)

    def copy(self) -> "SeenHistory":
        """An independent reader at the same point: its own kernel state and its own
        copy of each list attribute (shallow: a list held inside one is never changed
        once it is there; every other attribute holds an immutable value)."""
        twin = copy.copy(self)
        for name, value in vars(self).items():
            if name == "start":
                twin.start = value.clone()
            elif isinstance(value, list):
                setattr(twin, name, list(value))
        return twin

    @classmethod
    def of(cls, start, actions, seat: int) -> list[int]:
        """The whole of `actions`, as `seat` saw them."""
        reader = cls(start, seat)
        for a in actions:
            reader.read(a)
        return reader.entries()
