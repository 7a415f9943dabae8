"""Self-play games for training (docs/learning.md, "Training"): the current best agent plays
every seat, and every decision with a choice becomes a sample.

A sample is what the seat to move knew (its features, from its own observation), its legal
action ids, the search's root visit distribution over them (the policy target), the seat,
and, once the game is over, the value target: ``evaluate()`` of the terminal state (the
graded returns the search backs up) re-indexed from that seat (index k is seat
``(seat + k) % n``, the network's value convention). Beside it, the search's own estimate at
the root (``search_value``, same indexing): the visit-weighted mean of the root's children for
the seat to move, and where the game has two sides whose returns sum to zero (two players,
or two clans), the same for its side's seats and mirrored for the other side's; NaN where
the search says nothing. The learner may mix it into the value target (a per-position target:
a game's outcome alone is one number for a hundred positions, which a network memorises).

A game depends only on ``(run seed, generation, game index)`` and the network's bytes, so it
gives the same samples in this process, in a worker process or as a Ray task. Nothing here
imports torch: self-play workers only need the compiled network.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

import numpy as np

from ..arena import _mix, _sample_chance
from .samples import Samples

__all__ = ["SelfPlayConfig", "play_game", "game_seed"]


@dataclass(frozen=True)
class SelfPlayConfig:
    """How self-play games are played (plain data: it travels to worker processes)."""
    game: str
    params: dict
    iterations: int                 # search iterations per decision
    temperature_moves: int = 10     # decisions played by sampling the visits, then most-visited
    cpuct: float | None = None      # guided search only (None: the search's default)
    mix: float | None = None
    late: str | None = None
    explore_rate: float = 0.0       # after those, the share of decisions played at random
    # One network for several configurations (player counts): game i is played with
    # params updated by variants[i % len(variants)], and its value rows have n_value
    # outputs, NaN for the seats its table does not have (None: n_value is its seats).
    variants: tuple = ()
    n_value: int | None = None

    def params_of(self, index: int) -> dict:
        """The game parameters of self-play game ``index``."""
        if not self.variants:
            return dict(self.params)
        return {**self.params, **self.variants[index % len(self.variants)]}


def game_seed(run_seed: int, generation: int, index: int) -> int:
    """The seed a self-play game is played from."""
    return _mix(run_seed, generation, index, 0x5E1F)


_NETS: dict[str, object] = {}      # sha256 -> loaded C network, per worker process


def _net_from_bytes(data: bytes | None):
    if data is None:
        return None
    key = hashlib.sha256(data).hexdigest()
    if key not in _NETS:
        from .. import _net
        _NETS.clear()                   # one generation's network at a time
        _NETS[key] = _net.Net.from_bytes(data)
    return _NETS[key]


def _search(state, cfg: SelfPlayConfig, net, seed: int):
    from ..search import ismcts
    if net is None:                     # plain ISMCTS (generation 0, or no network kept yet)
        return ismcts(state, iterations=cfg.iterations, seed=seed)
    return ismcts(state, iterations=cfg.iterations, seed=seed, net=net, cpuct=cfg.cpuct,
                  mix=cfg.mix, late=cfg.late)


def play_game(net_bytes: bytes | None, cfg: SelfPlayConfig, run_seed: int, generation: int,
              index: int) -> Samples:
    """Play self-play game ``index`` of ``generation`` (``net_bytes``: the best network's
    file image, None for plain ISMCTS) and return its samples."""
    import boardlab
    net = _net_from_bytes(net_bytes)
    game = boardlab.make(cfg.game, **cfg.params_of(index))
    seed = game_seed(run_seed, generation, index)
    state = game.new_initial_state(seed=seed)
    chance_rng = random.Random(seed)
    move_rng = random.Random(_mix(seed, 0x7E3B))    # temperature draws, apart from chance
    xs, seats, offs, legal_all, policy_all, root_q = [], [], [0], [], [], []
    decisions = 0
    while not state.is_terminal():
        seat = state.current_player
        if seat == boardlab.CHANCE:
            state.apply(_sample_chance(state, chance_rng))
            continue
        legal = np.asarray(state.legal_actions(), dtype=np.int32)
        decisions += 1
        if len(legal) == 1:             # no choice: nothing to learn
            state.apply(int(legal[0]))
            continue
        result = _search(state, cfg, net, _mix(seed, decisions, 0x5EA6))
        visits = dict.fromkeys(legal.tolist(), 0)
        for row in result.stats:
            if row["action"] in visits:
                visits[row["action"]] = row["visits"]
        counts = np.array([visits[a] for a in legal.tolist()], dtype=np.float64)
        total = counts.sum()
        target = counts / total if total > 0 else np.full(len(legal), 1.0 / len(legal))
        weighted = [(row["visits"], row["mean"]) for row in result.stats
                    if row["visits"] > 0 and row.get("mean") is not None]
        vsum = sum(v for v, _ in weighted)
        root_q.append(sum(v * m for v, m in weighted) / vsum if vsum else float("nan"))
        xs.append(np.asarray(state._core.features(seat), dtype=np.float32))
        seats.append(seat)
        legal_all.append(legal)
        policy_all.append(target.astype(np.float32))
        offs.append(offs[-1] + len(legal))
        if len(xs) <= cfg.temperature_moves and total > 0:   # vary the games' openings
            action = int(move_rng.choices(legal.tolist(), weights=counts.tolist())[0])
        elif cfg.explore_rate > 0 and move_rng.random() < cfg.explore_rate:
            # A uniformly random move: the rest of the game, played by the search, then
            # values a position the search would not have reached (its value target).
            action = int(legal[move_rng.randrange(len(legal))])
        else:
            action = int(result.best_action)
        state.apply(action)
    final = np.asarray(state.evaluate(), dtype=np.float32)
    n = len(final)
    seat_arr = np.array(seats, dtype=np.int8)
    value = np.array([[final[(s + k) % n] for k in range(n)] for s in seats],
                     dtype=np.float32).reshape(len(seats), n)
    search_value = np.full((len(seats), n), np.nan, dtype=np.float32)
    search_value[:, 0] = root_q
    sides, side_of = game.sides
    if len(sides) == 2 and game.zero_sum:      # what one side wins, the other loses
        for i, s in enumerate(seats):
            for k in range(1, n):
                same = side_of[(s + k) % n] == side_of[s]
                search_value[i, k] = root_q[i] if same else -root_q[i]
    width = cfg.n_value or n
    if width > n:                       # outputs of seats this table does not have: unknown
        pad = np.full((len(seats), width - n), np.nan, dtype=np.float32)
        value, search_value = np.hstack([value, pad]), np.hstack([search_value, pad])
    n_in = game._core.feature_size
    return Samples(
        x=np.array(xs, dtype=np.float32).reshape(len(xs), n_in), seat=seat_arr,
        game=np.full(len(xs), index, np.int32), legal_off=np.array(offs, dtype=np.int64),
        legal=np.concatenate(legal_all) if legal_all else np.zeros(0, np.int32),
        policy=np.concatenate(policy_all) if policy_all else np.zeros(0, np.float32),
        value=value, search_value=search_value, games=np.array([index], np.int32),
        decisions=np.array([decisions], np.int32))
