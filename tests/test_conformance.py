"""The generic suite every game passes (OpenSpiel/pgx style): random play with
invariants, determinism, clones, records, illegal actions, playouts and
determinization (consistency and variety)."""
import json

import numpy as np
import pytest

import boardlab
from boardlab import IllegalActionError

from conftest import (check_invariants, game_cases, play_random, random_action,
                      random_positions)

CASES = game_cases()
N_GAMES = 10          # random games per case for the heavier checks


def _hidden_pool_kitsu(state, p):
    """Cards p cannot place: other hands (minus what p knows) and the stock."""
    full, mine = state.full_observation(), state.observation(p)
    pool, places = [], 0
    known = mine.get("known") or [[] for _ in full["hands"]]
    for q, hand in enumerate(full["hands"]):
        if q == p or hand is None:
            continue
        rest = list(hand)
        for card in known[q]:
            if card in rest:
                rest.remove(card)
        if rest:
            places += 1
            pool += rest
    if full.get("stock"):
        places += 1
        pool += full["stock"]
    return pool, places


def _hidden_pool_kyushu(state, p):
    """Map cards p has not seen (other hands and the draw pile) and how many
    places hold them. (Others' unrevealed placements vary too, but not always:
    a card may have a single legal position.)"""
    full = state.full_observation()
    places = [hand for q, hand in enumerate(full["hands"]) if q != p and hand] + \
        [full["draw_pile"]] * bool(full["draw_pile"])
    return [card for place in places for card in place], len(places)


def _hidden_pool_nukumi(state, p):
    """Helpers p has not seen (other hands and the deck, which is kept as a set:
    bags and the deck have no order to resample) and how many places hold them."""
    full = state.full_observation()
    places = [seat["hand"] for q, seat in enumerate(full["seats"]) if q != p and seat["hand"]]
    places += [full["deck"]] * bool(full["deck"])
    return [card for place in places for card in place], len(places)


def has_hidden_information(game):
    """Solo Nukumi hides nothing: its only hidden part, the deck, has no order."""
    return not (game.name == "nukumi" and game.num_players == 1)


def hidden_can_vary(state, p):
    """True when p's view leaves more than one arrangement of the hidden part
    (per game; a game without a rule here is assumed to always vary)."""
    if state.game.name == "kitsu":
        pool, places = _hidden_pool_kitsu(state, p)
        return places >= 2 and len(set(pool)) >= 2
    if state.game.name == "kyushu":
        pool, places = _hidden_pool_kyushu(state, p)
        return places >= 2 and len(pool) >= 2
    if state.game.name == "nukumi":
        pool, places = _hidden_pool_nukumi(state, p)
        return places >= 2 and len(pool) >= 2
    return True


@pytest.fixture(params=CASES)
def game(request):
    name, params = request.param
    return boardlab.make(name, seed=1, **params)


def test_random_games_keep_invariants(game):
    for seed in range(40):
        state = game.new_initial_state(seed)
        play_random(state, np.random.default_rng(seed), check=check_invariants)
        assert state.is_terminal()


def test_same_seed_same_game(game):
    def run(seed):
        state = game.new_initial_state(seed)
        return play_random(state, np.random.default_rng(seed))

    for seed in range(5):
        a, b = run(seed), run(seed)
        assert a.history == b.history
        assert np.array_equal(a.returns(), b.returns())
        assert a == b
    assert run(0).history != run(1).history


def test_clone_independence(game):
    rng = np.random.default_rng(2)
    for state in random_positions(game, seed=3, count=3 * N_GAMES):
        if state.is_terminal():
            continue
        before, history = state.clone(), state.history
        clone = state.clone()
        a = random_action(clone, rng)
        clone.apply(a)
        play_random(clone, rng)
        assert state == before and state.history == history
        # The original still accepts the same move and reaches the same state.
        other = state.clone()
        other.apply(a)
        assert other.history == history + [a]


def test_record_round_trip_at_random_points(game):
    for state in random_positions(game, seed=4, count=3 * N_GAMES):
        record = json.loads(json.dumps(state.to_record()))
        again = game.replay(record)
        assert again == state and again.history == state.history
        assert boardlab.replay(json.dumps(record)) == state


def test_illegal_actions_raise_and_leave_state(game):
    for state in random_positions(game, seed=5, count=3 * N_GAMES):
        before = state.clone()
        mask = state.legal_mask()
        illegal = [a for a in range(game.num_actions) if not mask[a]] + [-1, game.num_actions]
        for a in illegal:
            with pytest.raises(IllegalActionError):
                state.apply(a)
        assert state == before and state.history == before.history


def test_random_playouts_reproducible(game):
    a = game.random_playouts(30, seed=7)
    b = game.random_playouts(30, seed=7)
    assert np.array_equal(a.returns, b.returns) and a.actions == b.actions
    assert a.returns.shape == (30, game.num_players)
    assert np.all(np.isfinite(a.returns))
    for state in random_positions(game, seed=6, count=4):
        if state.is_terminal():
            continue
        x = game.random_playouts(10, seed=8, state=state)
        y = game.random_playouts(10, seed=8, state=state)
        assert np.array_equal(x.returns, y.returns) and x.actions == y.actions


def test_determinize_consistency(game):
    rng = np.random.default_rng(9)
    for state in random_positions(game, seed=10, count=4 * N_GAMES):
        if state.is_terminal():
            continue
        p = int(rng.integers(game.num_players))
        mine = state.observation(p)
        for seed in range(5):
            det = state.determinize(p, seed)
            assert det.observation(p) == mine
            assert det.current_player == state.current_player
            assert det.history == state.observed_history(p)      # what p saw, nothing more
            if state.current_player == p:
                assert np.array_equal(det.legal_actions(), state.legal_actions())
            check_invariants(det)


def test_determinize_variety(game):
    rng = np.random.default_rng(11)
    checked = 0
    for state in random_positions(game, seed=12, count=4 * N_GAMES):
        if state.is_terminal():
            continue
        p = int(rng.integers(game.num_players))
        if not hidden_can_vary(state, p):
            continue
        views = {json.dumps(state.determinize(p, seed).full_observation(), sort_keys=True)
                 for seed in range(20)}
        assert len(views) > 1, f"determinize({p}) never varies at {state.history}"
        checked += 1
    assert checked > 0 or not has_hidden_information(game)


def test_determinize_at_first_decision_varies(game):
    """Right after the first deal the other hands are unknown: must vary (in a
    game that deals hands later, at the first decision where something is hidden)."""
    if not has_hidden_information(game):
        return
    for seed in range(3):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state(seed)
        while state.is_chance() or not hidden_can_vary(state, state.current_player):
            state.apply(random_action(state, rng))
        p = state.current_player
        views = {json.dumps(state.determinize(p, s).full_observation(), sort_keys=True)
                 for s in range(20)}
        assert len(views) > 1


def test_determinized_state_plays_to_the_end(game):
    rng = np.random.default_rng(13)
    for state in random_positions(game, seed=14, count=2 * N_GAMES):
        if state.is_terminal():
            continue
        p = int(rng.integers(game.num_players))
        det = state.determinize(p, int(rng.integers(1000)))
        play_random(det, rng, check=check_invariants)
        assert det.is_terminal()
