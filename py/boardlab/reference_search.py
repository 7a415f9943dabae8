"""SO-ISMCTS in plain Python on the public game API: the algorithm of the C
search (``kernel/search/ismcts.c``, used by :func:`boardlab.search.ismcts`)
written to be read and changed, and the C search's test oracle.

>>> import boardlab
>>> from boardlab import reference_search
>>> state = boardlab.make("kitsu", players=2).new_initial_state(seed=1)
>>> while state.is_chance():
...     state.apply(state.chance_outcomes()[0][0])
>>> result = reference_search.ismcts(state, iterations=50, seed=3)
>>> result.best_action in state.legal_actions()
True

One iteration, exactly as in C:

1. **Determinize**: sample a full state from the searching seat's
   information set (:meth:`State.determinize`) - the search never sees more
   than that seat knows.
2. **Select** down the tree. A node's children are keyed by (seat, action);
   at each decision only the children legal in this determinization are
   *available*, and each of them counts one more availability. Chance is
   sampled and does not move in the tree (open loop).
3. **Expand** one untried legal action at random (the root always; elsewhere
   while the tree is below ``max_nodes``), then stop descending.
4. **Roll out** at random to the end, or for ``rollout_depth`` decisions, and
   take the game's :meth:`State.evaluate` there (0: evaluate the leaf; at the
   end it is the returns, or a graded form of them: Keyside solo grades a loss).
5. **Back up** the vector of returns: each node adds the value *of the seat
   that made its move* (so teammates, as Kitsu's clans, share what their moves
   earn, and n-player games need no negation).

The rule at step 2 is pluggable: ``select(child, c)`` scores an available
child (:func:`ucb` by default: mean + c * sqrt(ln(availability) / visits), plus
``bias * prior / (visits + 1)``); ``prior(state, seat)`` gives a new child its
prior from the position right after its move (default: the game's heuristic for
that seat, used only when ``bias > 0``) - put your own model there.

It is 20 to 170 times slower than the C search (docs/search.md has the
figures); results agree with it in distribution, not move for move (the
random streams differ). Beyond C it re-determinizes a determinized copy of the
root rather than the root itself: the same information set, without replaying
the game's history on every iteration.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from .search import default_c, default_rollout_depth

__all__ = ["ismcts", "ucb", "heuristic_prior", "Node", "ReferenceResult"]


@dataclass(eq=False)
class Node:
    """A tree node: the move (seat, action) that leads to it and its statistics."""
    seat: int = -1
    action: int = -1
    visits: int = 0
    avail: int = 0           # iterations in which this move was legal here
    value: float = 0.0       # sum of the returns of ``seat``
    prior: float = 0.0
    children: dict = field(default_factory=dict)    # (seat, action) -> Node

    @property
    def mean(self) -> float:
        return self.value / self.visits if self.visits else 0.0


def ucb(child: Node, c: float, bias: float = 0.0) -> float:
    """Availability-aware UCB1 (the C search's rule), plus progressive bias."""
    u = child.mean + c * math.sqrt(math.log(child.avail) / child.visits)
    if bias > 0.0:
        u += bias * child.prior / (child.visits + 1.0)
    return u


def heuristic_prior(state, seat: int) -> float:
    """The game's heuristic value for ``seat`` (the C search's prior)."""
    return float(state.evaluate()[seat])


@dataclass
class ReferenceResult:
    """Root statistics: ``stats`` has one dict per root move (action, visits,
    availability, mean for the mover, share of the iterations), ascending by action."""
    best_action: int
    stats: list
    iterations: int
    seconds: float
    root: Node = field(repr=False)


def _sample_chance(state, rng: random.Random) -> int:
    actions, probs = zip(*state.chance_outcomes())
    return rng.choices(actions, weights=probs)[0]


def _rollout(state, rng, depth: int) -> "np.ndarray":
    """Random play from ``state`` to the end (or ``depth`` decisions, then the heuristic)."""
    done = 0
    while not state.is_terminal():
        if state.is_chance():
            state.apply(_sample_chance(state, rng))
            continue
        if 0 <= depth <= done:
            return state.evaluate()
        legal = state.legal_actions()
        state.apply(int(legal[rng.randrange(len(legal))]))
        done += 1
    return state.evaluate()   # at the end: the returns, or the game's graded form of them


def ismcts(state, iterations: int, c: Optional[float] = None, rollout_depth: Optional[int] = None,
           seed: int = 0, player: Optional[int] = None, max_nodes: int = 1 << 22,
           bias: float = 0.0, select: Callable[..., float] = ucb,
           prior: Callable[..., float] = heuristic_prior) -> ReferenceResult:
    """SO-ISMCTS for ``player`` (default: the seat to move) from ``state``, a
    decision node; the options mean what they mean in :func:`boardlab.search.ismcts`."""
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ValueError(f"iterations must be an integer >= 1, got {iterations!r}")
    if state.is_chance() or state.is_terminal():
        raise ValueError("state must be a decision node (a seat to move)")
    if rollout_depth is None:
        rollout_depth = default_rollout_depth(state.game.name, state.game.params)
    if c is None:
        c = default_c(state.game.name, state.game.params)
    player = state.current_player if player is None else player
    rng = random.Random(seed)
    # Determinize once from the real history; later iterations resample this copy.
    base = state.determinize(player, int(rng.getrandbits(63)))
    root = Node()
    n_nodes = 1
    start = time.perf_counter()
    for _ in range(iterations):
        s = base.determinize(player, int(rng.getrandbits(63)))              # 1. determinize
        node, path = root, []
        while not s.is_terminal():
            if s.is_chance():                                                  # open loop
                s.apply(_sample_chance(s, rng))
                continue
            seat = s.current_player
            legal = [int(a) for a in s.legal_actions()]
            available = [node.children[(seat, a)] for a in legal if (seat, a) in node.children]
            for child in available:
                child.avail += 1
            untried = [a for a in legal if (seat, a) not in node.children]
            if untried and (node is root or n_nodes < max_nodes):          # 3. expand
                a = untried[rng.randrange(len(untried))]
                child = node.children[(seat, a)] = Node(seat, a, avail=1)
                n_nodes += 1
                s.apply(a)
                if bias > 0.0:
                    child.prior = float(prior(s, seat))
                path.append(child)
                break
            if not available:
                break
            best = max(available, key=lambda ch: select(ch, c, bias))       # 2. select (first max)
            s.apply(best.action)
            node = best
            path.append(best)
        ret = _rollout(s, rng, rollout_depth)                                 # 4. roll out
        for n in path:                                                         # 5. back up
            n.visits += 1
            n.value += float(ret[n.seat])
        root.visits += 1
    seconds = time.perf_counter() - start

    mine = {a: ch for (seat, a), ch in root.children.items() if seat == state.current_player}
    stats = [{"action": a, "visits": ch.visits, "availability": ch.avail, "mean": ch.mean,
              "share": ch.visits / iterations} for a, ch in sorted(mine.items())]
    visited = [s for s in stats if s["visits"] > 0]
    best_action = min(visited, key=lambda s: (-s["visits"], s["action"]))["action"] if visited else -1
    return ReferenceResult(best_action, stats, iterations, seconds, root)
