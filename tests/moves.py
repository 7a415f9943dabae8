"""Driving any game by move notation, for scenario tests."""


def play(s, *moves):
    """Apply moves in notation, in order; returns the state for chaining."""
    for move in moves:
        s.apply_string(move)
    return s


def names(s):
    """The notation of every legal action, in action order."""
    return [s.action_to_string(int(a)) for a in s.legal_actions()]


def settle_chance(s, rng):
    """Apply chance outcomes drawn by ``rng`` (a numpy Generator) until a seat decides or the
    game ends; returns the state, for chaining."""
    while s.is_chance():
        outcomes = s.chance_outcomes()
        s.apply(outcomes[rng.integers(len(outcomes))][0])
    return s
