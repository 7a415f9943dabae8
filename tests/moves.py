"""Driving any game by move notation, for scenario tests."""


def play(s, *moves):
    """Apply moves in notation, in order; returns the state for chaining."""
    for move in moves:
        s.apply_string(move)
    return s


def names(s):
    """The notation of every legal action, in action order."""
    return [s.action_to_string(int(a)) for a in s.legal_actions()]
