"""Moves named as a player reads them outside the decision panel (the review's table and
graph, the better move, the evaluation bar, a search's line and tree): in the words of the
decision buttons (``GameUI.move_label``), not the kernel's notation ("Play Orange 2", not
"play O2"). The notation stays in the review's data and the CLI's files, for tools.

Without Streamlit: the pages and the tests call these with a game's UI."""
from __future__ import annotations

from boardlab import IllegalActionError

from .review import move_words
from .session import start_of


def review_names(ui, base, rows, viewer=None) -> dict[int, tuple[str, str]]:
    """{decision: (the move played, the AI's move)} in words for the review ``rows`` of the
    game ``base``, read from ``viewer``'s seat (one replay of the game)."""
    want = {int(r["ply"]): r for r in rows}
    out = {}
    s = start_of(base)
    for ply, a in enumerate(base.history):
        if not want:
            break
        r = want.pop(ply, None)
        if r is not None:
            out[r["decision"]] = (ui.move_label(s, int(r["played_action"]), viewer),
                                  ui.move_label(s, int(r["ai_action"]), viewer))
        s.apply(a)
    return out


class LineNamer:
    """Names the moves of lines a search made from ``state`` (its principal variation, the
    paths of its tree), each as its button at the position it is played in: the line is
    replayed in one world of ``searcher``'s information set (the seat searched for, whose
    seat the words are said from). A move the replay cannot make (another seat's move the
    search imagined in another world, or one it cannot name, "#12") and every move after it
    keep the search's name, said in words by :func:`review.move_words`.

    A world, not ``state`` itself: which moves replay must not depend on what the searcher
    cannot see (replayed on the true state, another seat's imagined card would be named in
    words exactly when that seat holds it)."""

    def __init__(self, ui, state, searcher: int, seed: int = 0):
        self.ui, self.searcher = ui, searcher
        world = state.determinize(searcher, seed) if state.current_player >= 0 else state.clone()
        self._states = {(): world}              # a replayed path -> the state after it

    def names(self, line, short: bool = False) -> list[str]:
        """The words of each (player, notation) of ``line``, a path from the root."""
        out, path = [], ()
        for player, move in line:
            s = self._states.get(path)
            action = None
            if s is not None and move is not None and player == s.current_player:
                try:
                    action = s.parse_action(str(move))
                except IllegalActionError:      # not a legal move in this world
                    action = None
            if action is None:
                out.append(move_words(move, player, self.searcher, short=short))
            else:
                out.append(self.ui.move_label(s, action, self.searcher))
            path = path + ((player, move),)
            if path not in self._states:
                after = None
                if action is not None:
                    after = s.clone()
                    after.apply(action)
                self._states[path] = after
        return out

    def name(self, line, short: bool = False) -> str:
        """The words of the last move of ``line``."""
        return self.names(line, short)[-1]
