"""Self-play samples: one type for a game's samples and for many games' (a chunk, a
generation, a replay window), flattened with the legal sets ragged through ``legal_off``.

Per sample: x (features of the seat to move), seat, game (its game's index in the
generation), legal (action ids, ascending within a sample) and policy (the search's visit
shares aligned with them), value and search_value (index k is seat (seat + k) % n; NaN past
the table's seats, and in search_value where the search said nothing). Per game: games (the
indices of the games held) and decisions (all of each game's decisions, one-legal-action ones
included).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["Samples", "FIELDS", "GAME_FIELDS"]

FIELDS = ("x", "seat", "game", "legal_off", "legal", "policy", "value", "search_value")
GAME_FIELDS = ("games", "decisions")


@dataclass
class Samples:
    """Samples of several games, flattened (legal sets ragged through ``legal_off``)."""
    x: np.ndarray
    seat: np.ndarray
    game: np.ndarray        # game index (within its generation) of each sample
    legal_off: np.ndarray
    legal: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    search_value: np.ndarray    # the search's root estimate, like value; NaN where unknown
    games: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    decisions: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))

    def __len__(self) -> int:
        return len(self.x)

    def of_game(self, index: int) -> "Samples":
        """The samples of game ``index`` alone."""
        return self.select(np.flatnonzero(self.game == index))

    @classmethod
    def concat(cls, parts: list["Samples"]) -> "Samples":
        offs, base = [np.zeros(1, np.int64)], 0
        for p in parts:
            offs.append(p.legal_off[1:] + base)
            base += int(p.legal_off[-1])
        return cls(**{f: np.concatenate([getattr(p, f) for p in parts])
                      for f in FIELDS + GAME_FIELDS if f != "legal_off"},
                   legal_off=np.concatenate(offs))

    def select(self, rows: np.ndarray) -> "Samples":
        """The samples at ``rows`` (in that order)."""
        rows = np.asarray(rows, dtype=np.int64)
        starts, ends = self.legal_off[rows], self.legal_off[rows + 1]
        lengths = ends - starts
        take = (np.concatenate([np.arange(s, e) for s, e in zip(starts, ends)])
                if len(rows) else np.zeros(0, np.int64))
        held = np.isin(self.games, self.game[rows])
        return Samples(x=self.x[rows], seat=self.seat[rows], game=self.game[rows],
                       legal_off=np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64),
                       legal=self.legal[take], policy=self.policy[take], value=self.value[rows],
                       search_value=self.search_value[rows], games=self.games[held],
                       decisions=self.decisions[held])

    def dense(self, n_actions: int):
        """(x, legal mask, policy target) with the action axis dense, for a batch."""
        n = len(self)
        mask = np.zeros((n, n_actions), dtype=bool)
        target = np.zeros((n, n_actions), dtype=np.float32)
        rows = np.repeat(np.arange(n), np.diff(self.legal_off))
        mask[rows, self.legal] = True
        target[rows, self.legal] = self.policy
        return self.x, mask, target

    def arrays(self) -> dict:
        return {f: getattr(self, f) for f in FIELDS + GAME_FIELDS}
