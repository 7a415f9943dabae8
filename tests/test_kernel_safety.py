"""The kernels are safe to ask anything: every action id named or applied on any reachable state,
the search tree exported from mid-game states, positions set up from a seat's knowledge. Each
answer is a name, an IllegalActionError/ValueError or a state, never a crash or an
out-of-bounds read. scripts/sanitize.sh runs this file under AddressSanitizer + UBSan, which
turns a read past an array (as Nukumi's NPC-route names once did) into a failure.
"""
import functools
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardlab
from boardlab import IllegalActionError, search
from boardlab.games import keyside, nukumi

from conftest import game_cases, play_random, random_positions
from kyushu_facts import facts_of as kyushu_facts, play_to_selection

CASES = game_cases()
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


@functools.lru_cache(maxsize=None)
def states_of(case):
    """Random points of random games of ``case``, a terminal state, and a determinization of
    each decision state from its mover's view (a sample the search really names actions on)."""
    name, params = case
    game = boardlab.make(name, **dict(params))
    states = random_positions(game, seed=17, count=8)
    states.append(play_random(game.new_initial_state(seed=4), np.random.default_rng(4)))
    states += [s.determinize(s.current_player, 3) for s in states[:8] if s.current_player >= 0]
    return game, tuple(states)


def key(case):
    name, params = case
    return name, tuple(sorted(params.items()))


@pytest.mark.parametrize("case", CASES)
def test_every_action_id_has_a_name_or_an_error(case):
    """action_to_string over the whole action space and just outside it, on every state: the
    API names legal actions and refuses the rest; the kernel's namer below it gives some text
    or an error for any id (under the sanitizer: without reading out of bounds)."""
    game, states = states_of(key(case))
    ids = list(range(-1, game.num_actions + 2)) + [2**31 - 1]
    for state in states:
        before = state._core.to_bytes()
        legal = set(state.legal_actions().tolist())
        for a in ids:
            try:
                text = state.action_to_string(a)
            except IllegalActionError:
                assert a not in legal
            else:
                assert a in legal and isinstance(text, str) and text
            try:   # the kernel's own namer, which the search's tree export calls on any id
                assert isinstance(state._core.action_to_string(a), str)
            except (ValueError, OverflowError):
                pass
        assert state._core.to_bytes() == before


@pytest.mark.parametrize("case", CASES)
@SETTINGS
@given(action=st.one_of(st.integers(-1, 2**31 - 1), st.integers(-1, 700)), index=st.integers(0, 99),
       call=st.sampled_from(["apply", "action_to_string"]))
def test_any_action_id_named_or_applied(case, action, index, call):
    game, states = states_of(key(case))
    state = states[index % len(states)].clone()
    before = state._core.to_bytes()
    legal = state.legal_actions().tolist()
    try:
        out = getattr(state, call)(action)
    except ValueError as e:                    # IllegalActionError is a ValueError
        assert isinstance(e, IllegalActionError) and action not in legal
        assert state._core.to_bytes() == before
        return
    assert action in legal
    if call == "action_to_string":
        assert isinstance(out, str) and state._core.to_bytes() == before


@pytest.mark.parametrize("case", CASES)
def test_search_tree_export_mid_game(case):
    """The tree export names every node's action on determinized states of the searching seat."""
    game, states = states_of(key(case))
    decisions = [s for s in states if s.current_player >= 0][:3]
    for state in decisions:
        result = search.ismcts(state, iterations=300, seed=1)
        tree = result.tree(depth=4, top_k=5)
        json.dumps(tree)
        assert tree


# ---------------------------------------------------------------- positions, every game
def _kitsu_facts(obs: dict) -> dict:
    seat = obs["viewer"]
    facts = {"hand": obs["hands"][seat], "leader": obs["leader"], "discard": obs["discard"],
             "pawns": obs["pawns"], "rounds_won": obs["rounds_won"], "hand_sizes": obs["hand_sizes"],
             "trick": [], "known": {str(p): cards for p, cards in enumerate(obs["known"]) if p != seat and cards},
             "tokens": {name: "used" if t["used"] else t["holder"] for name, t in obs["tokens"].items()}}
    return facts


def _kitsu_positions():
    game = boardlab.make("kitsu", players=4)
    rng = np.random.default_rng(8)
    out = []
    while len(out) < 4:
        state = game.new_initial_state(seed=int(rng.integers(2**32)))
        play_random(state, rng, stop=int(rng.integers(20, 60)))
        o = state.full_observation()
        if o["phase"] == "play" and not o["trick"] and state.current_player >= 0:
            out.append((game, state.current_player, _kitsu_facts(state.observation(state.current_player))))
    return out


def _kyushu_positions():
    out = []
    for params, round_ in (({"players": 3, "travelers": True}, 3), ({"players": 2, "most_fewest": True}, 8)):
        game = boardlab.make("kyushu", **params)
        real = play_to_selection(game, 5, round_, 0)
        out.append((game, 0, kyushu_facts(real.observation(0))))
    return out


def _observed_positions(module, params_list):
    out = []
    for params in params_list:
        game = boardlab.make(module.NAME, **params)
        for state in random_positions(game, seed=21, count=6):
            seat = state.current_player
            if seat < 0:
                continue
            try:
                facts = module.position_facts(state.observation(seat))
            except ValueError:           # a phase Game.position does not set up (e.g. set-up)
                continue
            out.append((game, seat, facts))
    return out


@pytest.mark.parametrize("game_name", ["kitsu", "kyushu", "keyside", "nukumi"])
def test_positions_round_trip_through_their_records(game_name):
    if game_name == "kitsu":
        cases = _kitsu_positions()
    elif game_name == "kyushu":
        cases = _kyushu_positions()
    else:
        module = {"keyside": keyside, "nukumi": nukumi}[game_name]
        cases = _observed_positions(module, module.PARAMETER_SETS)
    assert cases
    for game, seat, facts in cases:
        state = game.position(seat, seed=2, **facts)
        again = boardlab.replay(json.loads(json.dumps(state.to_record())))
        assert again == state
        for a in state.legal_actions()[:20]:      # and play on from it
            state.clone().apply(int(a))
