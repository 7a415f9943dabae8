"""Nukumi's Game.position from a real game's seat facts: advanced play (the face-up Helpers
and action cards, what the clean-up slide put under the decks) and the other modes set up
the same position again, as that seat sees it, with the same legal moves."""
import random
import re

import pytest

import boardlab
from boardlab.games import nukumi

ADVANCED = {"players": 3, "advanced": True}


def turn_starts(params: dict, seed: int, count: int):
    """States of random games where a seat's turn in the Actions phase has just begun (the
    previous decision was another seat's, or the resources were just drawn; nothing pending):
    what Game.position sets up."""
    game = boardlab.make("nukumi", **params)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state(seed=rng.randrange(1 << 30))
        last, drawing = None, False
        while not state.is_terminal():
            p = state.current_player
            if p >= 0:
                obs = state.observation(p)
                begun = drawing or last not in (None, p)
                if (obs["phase"] == "actions" and begun and not obs["pending"]
                        and not obs["bonus_used"] and not obs["carriage_ridden"]
                        and obs["round"] >= 1 and rng.random() < 0.3):
                    found.append(state.clone())
                    break
                last = p
            drawing = state.full_observation()["phase"] == "resource draw"
            legal = state.legal_actions()
            state.apply(int(legal[rng.randrange(len(legal))]))
    return game, found


@pytest.mark.parametrize("params", [ADVANCED, {"players": 4, "advanced": True},
                                    {"players": 2},
                                    {"players": 1, "solo": "chasing", "advanced": True}])
def test_position_from_a_real_seat_view_is_the_same_position(params):
    game, states = turn_starts(params, seed=5, count=6)
    for state in states:
        seat = state.current_player
        seen = state.observation(seat)
        facts = nukumi.position_facts(seen)
        again = game.position(seat, seed=9, **facts)
        assert again.observation(seat) == seen
        names = sorted(state.action_to_string(a) for a in state.legal_actions())
        assert sorted(again.action_to_string(a) for a in again.legal_actions()) == names
        rng = random.Random(seat)
        a, b = state.clone(), again.clone()              # the same turn played on in both
        while a.current_player == seat:
            names = {a.action_to_string(x): x for x in a.legal_actions()}
            assert sorted(b.action_to_string(x) for x in b.legal_actions()) == sorted(names)
            assert b.observation(seat) == a.observation(seat)
            pick = rng.choice(sorted(names))
            a.apply(names[pick])
            b.apply_string(pick)
        if params.get("advanced"):
            full = again.full_observation()
            hidden = set(full["deck"]) | {h for p in full["seats"] for h in (p["hand"] or [])}
            shown = set(seen["helper_row"]) | set(seen["helper_bottom"])
            assert not hidden & shown            # face-up and known cards are never dealt again
        assert len(game.random_playouts(2, state=again).returns) == 2


def test_an_empty_face_up_slot_and_the_card_deck():
    game, (state,) = turn_starts(ADVANCED, seed=11, count=1)
    seat = state.current_player
    facts = nukumi.position_facts(state.observation(seat))
    facts["helper_row"] = [None] + facts["helper_row"][1:]          # an empty slot stays empty
    again = game.position(seat, **facts)
    assert again.observation(seat)["helper_row"][0] is None
    obs = again.observation(seat)
    held = {k for p in obs["seats"] for k in p["cards"]}
    assert obs["card_deck_size"] == 12 - len(held) - sum(k is not None for k in obs["card_row"])


def _advanced_facts():
    game, (state,) = turn_starts(ADVANCED, seed=13, count=1)
    seat = state.current_player
    return game, seat, nukumi.position_facts(state.observation(seat))


@pytest.mark.parametrize("change,message", [
    (lambda f: f.pop("helper_row"), "advanced play needs 'helper_row' and 'card_row'"),
    (lambda f: f.update(helper_row=["S-01"]), "helper_row must list the 3 face-up slots"),
    (lambda f: f.update(card_row=["EX-99", None, None]), "card_row: unknown 'EX-99'"),
    (lambda f: f.update(helper_row=[f["hand"][0], None, None]), "is also in a hand, discarded, played or face up"),
    (lambda f: f.update(helper_bottom=[f["discard"][0]] if f["discard"] else [f["hand"][0]]),
     "helper_bottom: S-"),
    (lambda f: f.update(card_bottom=[f["card_row"][0], f["card_row"][0]]), "is listed twice"),
    (lambda f: f.update(card_bottom=[k for k in f["card_row"] if k][:1]), "is also held or face up"),
])
def test_bad_advanced_facts_name_what_is_wrong(change, message):
    game, seat, facts = _advanced_facts()
    change(facts)
    with pytest.raises(ValueError, match=re.escape(message)):
        game.position(seat, **facts)


def test_face_up_rows_need_advanced_play():
    game, seat, facts = _advanced_facts()
    plain = boardlab.make("nukumi", players=3)
    with pytest.raises(ValueError, match="helper_row: only advanced play has face-up rows"):
        plain.position(seat, **facts)


def test_position_facts_need_one_seats_view():
    game, (state,) = turn_starts({"players": 2}, seed=3, count=1)
    with pytest.raises(ValueError, match="one seat's observation"):
        nukumi.position_facts(state.full_observation())
