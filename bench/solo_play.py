"""The seeded play loop the solo benches share: one agent, chance drawn from a
numpy generator seeded like the agent."""
import numpy as np

from boardlab.agents import make_agent


def apply_chance(state, rng) -> None:
    """Apply one chance outcome drawn with numpy generator `rng` (the draw every
    seeded solo game makes, so a seed gives the same game in every bench)."""
    acts, probs = zip(*state.chance_outcomes())
    state.apply(int(rng.choice(acts, p=np.array(probs) / sum(probs))))


def play_seeded(state, spec: str, seed: int, after_move=None, before_move=None):
    """Play `state` to its end with agent `spec`; returns the final state.
    `before_move(state, action)` and `after_move(state)`, if given, are called
    around each of the agent's moves."""
    agent = make_agent(spec, seed=seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        if state.is_chance():
            apply_chance(state, rng)
        else:
            action = int(agent.step(state))
            if before_move is not None:
                before_move(state, action)
            state.apply(action)
            if after_move is not None:
                after_move(state)
    return state


class Serial:
    """Stands in for a multiprocessing Pool when --jobs is 1."""
    imap = staticmethod(map)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
