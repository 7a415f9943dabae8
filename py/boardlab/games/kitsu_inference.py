"""Kitsu inference from play: worlds weighted by how likely the opponent's moves were in them.

The kernel's determinization deals the cards a seat cannot see uniformly among the deals that
agree with what it knows (hand sizes, cards seen, Black Kitsune voids). It ignores which cards
the opponent *chose* to play. Here each of ``n`` such worlds is weighted by the likelihood of
the opponent's card plays in the current deal (at most ``max_plays``, the latest), had it held
that world's cards, under a cheap model of play: a softmax over the opponent's legal moves of
the heuristic ``evaluate()`` one move ahead (inverse temperature ``beta``), mixed with a uniform
choice (``epsilon``) because the real opponent searches rather than plays greedily.

The opponent's hand at an earlier play is walked back from the world's hand: add back each
card it played since, take out each card it drew since (which card of the hand was the drawn
one is unknown: one is picked at random, so a weight is a one-sample estimate of the world's
likelihood). The position of each earlier play is a determinization, for the searching seat,
of the game as it stood then -- the seat's own knowledge at that time and nothing more -- with
the walked-back hand put in (``kitsu_set_hand``).

Only what the seat saw is read: the opponent's moves come from its observed history, the
earlier positions and the worlds are determinizations, whose result depends only on what the
seat knew (kernel/kitsu/observe.c). Two games the seat cannot tell apart give the same worlds and
weights (tests/test_open_hands_inference.py). Two players only (no exchange, one opponent).
"""
from __future__ import annotations

import math
import random

from .. import _kitsu_infer
from ..errors import CHANCE, HIDDEN

KA_PLAY, KA_PLAY_TOKEN, KA_RECOVER, KA_DEAL = 0, 15, 53, 79   # kernel/kitsu/kitsu.h
N_TYPES = 15
# A deal starts with a run of more dealt cards than a 2-player refill (2 cards each).
REFILL_CARDS = 4

DEFAULTS = {"beta": 8.0, "epsilon": 0.2, "max_plays": 6}


def _mix(*xs: int) -> int:
    h = 0x9E3779B97F4A7C15
    for x in xs:
        h = (h ^ (x & 0xFFFFFFFFFFFFFFFF)) * 0xBF58476D1CE4E5B9 & 0xFFFFFFFFFFFFFFFF
        h ^= h >> 31
    return h


def _played_type(action: int) -> int | None:
    """Card type of a card play (with or without a token), else None."""
    if KA_PLAY <= action < KA_PLAY_TOKEN + N_TYPES:
        return (action - KA_PLAY) % N_TYPES
    return None


def _history_since_deal(state, seat: int):
    """(events, snapshots) for the current deal: events are (actor, observed action) as
    `seat` saw them; snapshots[i] is the kernel state before event i when it is an opponent's
    move (the real state: only ever determinized before use)."""
    game = state.game
    core = game._start(state._seed, state._position)
    observed = state.observed_history(seat)
    events, snaps = [], {}
    deal_start, run, run_start = 0, 0, 0
    for i, (true_action, seen) in enumerate(zip(state.history, observed)):
        actor = int(core.current_player())
        is_deal = actor == CHANCE and (seen == HIDDEN or seen >= KA_DEAL)
        if is_deal:
            if run == 0:
                run_start = i
            run += 1
            if run == REFILL_CARDS + 1:     # longer than any refill: a new deal
                deal_start = run_start
        else:
            run = 0
        if actor >= 0 and actor != seat:
            snaps[i] = core.clone()
        events.append((actor, seen))
        core.apply(int(true_action))
    first = deal_start
    return events[first:], {i - first: s for i, s in snaps.items() if i >= first}, first


def weighted_worlds(state, seat: int, n: int, seed: int, beta: float = DEFAULTS["beta"],
                    epsilon: float = DEFAULTS["epsilon"],
                    max_plays: int = DEFAULTS["max_plays"]) -> list[tuple[object, float]]:
    """``n`` worlds for ``seat`` (kernel states, determinizations of ``state``) with weights
    proportional to the likelihood of the opponent's latest card plays in each."""
    core = state._core
    players = core.core_game.num_players
    if players != 2:
        raise ValueError(f"inference from play: Kitsu with 2 players only, not {players}")
    opp = 1 - seat
    events, snaps, _ = _history_since_deal(state, seat)
    cache = ({}, {})                  # determinized earlier positions, play probabilities
    out = []
    for k in range(n):
        world = core.determinize(seat, _mix(seed, 0xD7, k))
        hand, hidden_type = _kitsu_infer.world_hand(world, opp)
        out.append((world, log_likelihood(events, snaps, seat, hand, hidden_type,
                                          random.Random(_mix(seed, 0xA1, k)), seed, cache,
                                          beta, epsilon, max_plays)))
    top = max(w for _, w in out)
    return [(w, math.exp(ll - top)) for w, ll in out]


def log_likelihood(events, snaps, seat: int, hand: list, hidden_type: int, rng, seed: int,
                   cache: tuple, beta: float, epsilon: float, max_plays: int,
                   play_prob=None) -> float:
    """Log-likelihood of the opponent's latest card plays in this deal had it now held
    ``hand`` (counts per type; ``hidden_type``: its face-down card in this trick, -1 none).
    ``play_prob(position, opp, hand, action, beta, epsilon)`` is the model of the opponent
    (default :func:`_play_prob`, the heuristic's softmax; bench/vs_open_hands.py tries others)."""
    play_prob = play_prob or _play_prob
    opp = 1 - seat
    positions, memo = cache
    hand = list(hand)
    plays = []                           # (event index, hand before, action)
    for i in range(len(events) - 1, -1, -1):
        if len(plays) >= max_plays:
            break
        actor, seen = events[i]
        if actor == opp:
            if seen == HIDDEN:           # its face-down card in this trick (from the world)
                if hidden_type < 0:
                    continue
                t, action = hidden_type, KA_PLAY_TOKEN + hidden_type
            else:
                t, action = _played_type(seen), seen
                if t is None:
                    if KA_RECOVER <= seen < KA_RECOVER + N_TYPES:
                        hand[seen - KA_RECOVER] -= 1     # taken from the last trick
                    continue
            hand[t] += 1
            plays.append((i, tuple(hand), action))
        elif actor == CHANCE and seen == HIDDEN:         # a card drawn by the opponent
            total = sum(h for h in hand if h > 0)
            if total <= 0:
                break
            r = rng.randrange(total)
            for t in range(N_TYPES):
                if hand[t] > 0:
                    if r < hand[t]:
                        hand[t] -= 1
                        break
                    r -= hand[t]
    log_lik = 0.0
    for i, before, action in plays:
        key = (i, before, action)
        if key not in memo:
            if i not in positions:
                positions[i] = snaps[i].determinize(seat, _mix(seed, 0x5B, i))
            memo[key] = play_prob(positions[i], opp, before, action, beta, epsilon)
        log_lik += math.log(memo[key])
    return log_lik


def _play_prob(position, opp: int, hand: tuple, action: int, beta: float,
               epsilon: float) -> float:
    """Probability of ``action`` by ``opp`` holding ``hand`` at ``position`` under the model."""
    floor = 1e-3                   # a hand the walk-back got wrong: unlikely, not impossible
    world = position.clone()
    if any(h < 0 for h in hand) or not _kitsu_infer.set_hand(world, opp, list(hand)):
        return floor
    legal = [int(a) for a in world.legal_actions()]
    if action not in legal:
        return floor
    if len(legal) == 1:
        return 1.0
    values = []
    for a in legal:
        after = world.clone()
        after.apply(a)
        values.append(float(after.evaluate()[opp]))
    top = max(values)
    exps = [math.exp(beta * (v - top)) for v in values]
    p = exps[legal.index(action)] / sum(exps)
    return (1.0 - epsilon) * p + epsilon / len(legal)
