"""The seeded play loop the solo benches share: one agent, chance drawn from a
numpy generator seeded like the agent."""
import numpy as np

from boardlab.agents import make_agent


def play_seeded(state, spec: str, seed: int, after_move=None):
    """Play `state` to its end with agent `spec`; returns the final state.
    `after_move(state)`, if given, is called after each of the agent's moves."""
    agent = make_agent(spec, seed=seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        if state.is_chance():
            acts, probs = zip(*state.chance_outcomes())
            state.apply(int(rng.choice(acts, p=np.array(probs) / sum(probs))))
        else:
            state.apply(int(agent.step(state)))
            if after_move is not None:
                after_move(state)
    return state
