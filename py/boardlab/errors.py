"""Exceptions and node markers of the public API."""

#: ``State.current_player`` at a chance node (a card is dealt, a die rolled...).
CHANCE = -1
#: ``State.current_player`` once the game is over.
TERMINAL = -2
#: An action its observer never saw, in the ``history`` of a determinized state.
HIDDEN = -3


class IllegalActionError(ValueError):
    """An action (or move text) that is not legal in the current state.

    Raised by ``State.apply`` / ``State.parse_action``; the state is unchanged.
    ``action`` is what was given, ``legal`` the legal action ids at the time.
    """

    def __init__(self, message, action=None, legal=()):
        super().__init__(message)
        self.action = action
        self.legal = list(legal)


class RecordError(ValueError):
    """A game record that is malformed, tampered with, or of another game."""


def brief_repr(value, limit: int = 200) -> str:
    """repr(value) for an error message: cut to ``limit`` characters, and safe for an
    int past Python's digit limit (whose repr itself raises ValueError)."""
    try:
        text = repr(value)
    except ValueError:
        return f"<{type(value).__name__} too large to print>"
    return text if len(text) <= limit else text[:limit] + "..."
