"""Naming any action id on any Nukumi state is safe (kernel/nukumi/observe.c): the kernel's
notation must read only what the state holds, whatever the id (the binding names legal
actions only and refuses the rest by name; the kernel namer is reached here through the test
hook _nukumi_scenario.name_any). Run it under the sanitizer build too (scripts/sanitize.sh):
an out-of-range read is a UBSan report there, a wrong name here."""
import numpy as np
import pytest

import boardlab
from boardlab import _nukumi_scenario
from boardlab.games import nukumi
from boardlab.search import ismcts
from conftest import random_action
from nukumi_table import play, table

NA_ROUTE, NA_ACCEPT, NA_DECLINE, NA_CARD = 420, 301, 302, 18


def sampled_states(params, seed, every=7):
    """States along a seeded random game: setup chance, every phase, the end."""
    s = boardlab.make("nukumi", **params).new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    out = [s.clone()]
    while not s.is_terminal():
        s.apply(random_action(s, rng))
        if len(s.history) % every == 0:
            out.append(s.clone())
    return out + [s]


@pytest.mark.parametrize("params", nukumi.PARAMETER_SETS, ids=str)
def test_every_action_id_names_safely_on_every_state(params):
    for state in sampled_states(params, seed=3):
        core = state._core
        n = state.game.num_actions
        legal = set(state.legal_actions())
        for a in range(n):
            assert isinstance(_nukumi_scenario.name_any(state, a), str)
            if a in legal:
                assert core.action_to_string(a) == _nukumi_scenario.name_any(state, a)
            else:
                with pytest.raises(ValueError, match=f"action {a} is not legal"):
                    core.action_to_string(a)
        for a in (-1, n, n + 5, 2**31 - 1):
            with pytest.raises(ValueError, match="out of range"):
                core.action_to_string(a)


def test_a_route_off_the_route_choice_names_no_squares():
    """Before the fix the NPC route was computed from pos[npc] with npc past the last NPC
    (pos[4]: UBSan 'index 4 out of bounds for int8_t[4]') or from no Nukumaru at all."""
    s = table(players=1, solo="score_attack")
    play(s, "NPC 1 die 1", "NPC 2 die 1", "NPC 3 die 1")     # every NPC done: npc = 4
    for state in (s, boardlab.make("nukumi", players=1, solo="score_attack").new_initial_state(),
                  boardlab.make("nukumi", players=2).new_initial_state()):
        assert _nukumi_scenario.name_any(state, NA_ROUTE) == "NPC route 1"
        assert _nukumi_scenario.name_any(state, NA_ROUTE + 15) == "NPC route 16"


def test_the_event_and_a_card_slot_are_named_outside_their_phase():
    """At the end round is 5 (no 6th round card) and no seat is to move; before the game
    a card slot is empty: the names say so instead of reading past the arrays."""
    s = sampled_states({"players": 2}, seed=1, every=10**6)[-1]
    assert s.is_terminal()
    assert _nukumi_scenario.name_any(s, NA_ACCEPT) == "accept the event"
    assert _nukumi_scenario.name_any(s, NA_DECLINE) == "decline the event"
    assert _nukumi_scenario.name_any(s, NA_CARD) == "use action card 1"
    assert _nukumi_scenario.name_any(s, NA_CARD + 1) == "use action card 2"


def test_score_attack_tree_export_mid_round():
    """The tree below a Score Attack turn holds the next round's NPC route choices; the
    export names them on determinizations where they may not be legal."""
    s = boardlab.make("nukumi", players=1, solo="score_attack").new_initial_state(seed=4)
    rng = np.random.default_rng(4)
    while s.is_chance() or s.full_observation()["round"] < 1 or s.full_observation()["phase"] != "actions":
        s.apply(random_action(s, rng))
    tree = ismcts(s, iterations=300, seed=1, rollout_depth=20).tree(depth=4)

    def walk(node):
        yield node
        for child in node["children"]:
            yield from walk(child)
    assert all(isinstance(node["move"], str) for node in list(walk(tree))[1:])
