"""Open-hands review: the best move with every hand face up, beside the real AI's move.

Bridge players review a deal "double dummy". :func:`compare` runs two searches on one
position: the information-set search for the seat (what it could know) and the open-hands
search (:func:`boardlab.search.ismcts` with ``open_hands=True``: every hidden card seen),
and reports both best moves and what the hidden information cost: how much worse the
seat's move is than the open-hands move, judged with every hand face up.

This looks at hidden information. It is for finished or uploaded games (or a live game
whose hands are all shown anyway), never for a seat still in play.

>>> import boardlab
>>> state = boardlab.make("kitsu", players=2, seed=1).new_initial_state()
>>> while state.current_player == boardlab.CHANCE:
...     state.apply(int(state.chance_outcomes()[0][0]))
>>> c = compare(state, iterations=400, seed=1)
>>> c.ismcts_move in [s["move"] for s in c.open_hands.stats]
True
>>> 0.0 <= c.cost <= 1.0
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .search import SearchResult, ismcts

__all__ = ["OpenHandsComparison", "compare"]


@dataclass
class OpenHandsComparison:
    """The two searches of one position and what the hidden information cost.

    ``cost`` is in win probability for the seat, from the open-hands search's root
    statistics: (value of the open-hands best move) - (value of the ISMCTS move), both
    with every hand face up, clamped at 0 (0 when both searches pick the same move; None
    when the open-hands search never tried the ISMCTS move, so it has no value for it).
    ``cost_visits`` is how many open-hands visits the ISMCTS move got (its value's
    sample size: a rarely visited move has a rough value)."""
    player: int
    ismcts: SearchResult
    open_hands: SearchResult

    def _open_stat(self, action: int) -> Optional[dict]:
        return next((s for s in self.open_hands.stats if s["action"] == action), None)

    @property
    def ismcts_move(self) -> str:
        return self.ismcts.best_move

    @property
    def open_hands_move(self) -> str:
        return self.open_hands.best_move

    @property
    def same_move(self) -> bool:
        return self.ismcts.best_action == self.open_hands.best_action

    @property
    def cost(self) -> Optional[float]:
        if self.same_move:
            return 0.0
        best = self._open_stat(self.open_hands.best_action)
        mine = self._open_stat(self.ismcts.best_action)
        if best is None or mine is None or mine["visits"] == 0:
            return None
        return max(0.0, best["win_prob"] - mine["win_prob"])

    @property
    def cost_visits(self) -> int:
        mine = self._open_stat(self.ismcts.best_action)
        return int(mine["visits"]) if mine else 0

    def to_dict(self) -> dict:
        return {"player": self.player, "ismcts_move": self.ismcts_move,
                "open_hands_move": self.open_hands_move, "same_move": self.same_move,
                "cost": self.cost, "cost_visits": self.cost_visits,
                "ismcts": self.ismcts.to_dict(), "open_hands": self.open_hands.to_dict()}


def compare(state, iterations: Optional[int] = None, seconds: Optional[float] = None,
            seed: int = 0, **options) -> OpenHandsComparison:
    """Both searches for the seat to move at ``state`` with the same budget and options
    (any keyword of :func:`boardlab.search.ismcts` except ``player`` and ``open_hands``).
    Looks at hidden information: for reviews of finished games only."""
    for key in ("open_hands", "player"):
        if key in options:
            raise ValueError(f"{key}: compare() sets it itself (the seat to move; both searches)")
    core = getattr(state, "_core", state)
    player = int(core.current_player())
    seen = ismcts(state, iterations=iterations, seconds=seconds, seed=seed, **options)
    face_up = ismcts(state, iterations=iterations, seconds=seconds, seed=seed, open_hands=True,
                     **options)
    return OpenHandsComparison(player=player, ismcts=seen, open_hands=face_up)
