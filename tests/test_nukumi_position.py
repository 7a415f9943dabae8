"""Nukumi's Game.position from a real game's seat facts: advanced play (the face-up Helpers
and action cards, what the clean-up slide put under the decks) and the other modes set up
the same position again, as that seat sees it, with the same legal moves."""
import json
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


# ------------------------------------------------------------------ strict fact types

def _plain_facts():
    """A 2-player round-2 position of P0's turn (every fact kind given once)."""
    return {"round": 2, "round_cards": ["E-01", "E-02", "E-03", "E-04", "E-05"], "nukumaru": "g2",
            "start_player": 1, "start_face_down": False, "hand": ["S-03", "S-07"], "discard": ["S-10"],
            "seats": [{"partner": "Yumomi", "square": "c3", "coins": 5, "fun": 1, "oishi": 0,
                       "passed": False, "bag": {"stone": 2, "wood": 1},
                       "drawn": {"food": 2, "networking": 1, "stone": 1}, "spent": {"wood": 1},
                       "played": ["S-01"], "used": ["mining"], "cards": [],
                       "buildings": [{"square": "c3", "building": "stall"}]},
                      {"partner": "Miko", "square": "e5", "coins": 3, "hand_size": 2, "passed": True,
                       "bag": {"wood": 3}, "drawn": {"gold": 1}, "cards": ["EX-05"], "used": ["EX-05"]}]}


def _seat(p, **change):
    def edit(f):
        f["seats"][p] |= change
    return edit


# An empty or false value of the wrong type is not "absent" (it once read as an empty list
# or dict), and a bool is not an int nor any truthy value a bool.
BAD_TYPES = [
    ("hand", lambda f: f.update(hand="")),
    ("hand", lambda f: f.update(hand=False)),
    ("discard", lambda f: f.update(discard={})),
    ("start_face_down", lambda f: f.update(start_face_down=0)),
    ("start_player", lambda f: f.update(start_player=True)),
    ("round", lambda f: f.update(round=2.0)),
    ("round_cards", lambda f: f.update(round_cards="E-01 E-02 E-03 E-04 E-05")),
    ("seats", lambda f: f.update(seats={})),
    ("npcs", lambda f: f.update(npcs=False)),             # not Score Attack: no NPCs at all
    ("npcs", lambda f: f.update(npcs="")),
    ("npc_cubes", lambda f: f.update(npc_cubes=[])),
    ("nukumaru_cubes", lambda f: f.update(nukumaru_cubes={})),
    ("helper_row", lambda f: f.update(helper_row=False)),  # not advanced: no rows
    ("seats[1] passed", _seat(1, passed="no")),
    ("seats[1] passed", _seat(1, passed=1)),
    ("seats[0] coins", _seat(0, coins=True)),
    ("seats[0] fun", _seat(0, fun=False)),
    ("seats[1] hand_size", _seat(1, hand_size=True)),
    ("seats[0] used", _seat(0, used="")),
    ("seats[0] used", _seat(0, used={})),
    ("seats[0] cards", _seat(0, cards=False)),
    ("seats[0] played", _seat(0, played={})),
    ("seats[0] buildings", _seat(0, buildings="")),
    ("seats[0] buildings", _seat(0, buildings=[{"square": "c3", "building": "stall", "owner": 0}])),
    ("seats[0] bag", _seat(0, bag=[])),
    ("seats[0] spent", _seat(0, spent="")),
    ("seats[0] drawn", _seat(0, drawn=False)),
    ("seats[0] drawn stone", _seat(0, drawn={"stone": True})),
    ("seats[0] square", _seat(0, square=False)),
    ("seats[0] partner", _seat(0, partner=0)),
]


@pytest.mark.parametrize("fact,change", BAD_TYPES, ids=[f"{f}-{i}" for i, (f, _) in enumerate(BAD_TYPES)])
def test_a_fact_of_the_wrong_type_is_refused_by_name(fact, change):
    game = boardlab.make("nukumi", players=2)
    game.position(0, **_plain_facts())                   # the unchanged facts are accepted
    facts = _plain_facts()
    change(facts)
    with pytest.raises(ValueError, match=re.escape(fact)):
        game.position(0, **facts)


@pytest.mark.parametrize("params,extra", [
    ({"players": 1, "solo": "score_attack"}, {"npcs": ["d4", "e4", "d6"], "npc_cubes": ["e4"]}),
    ({"players": 1, "solo": "chasing"}, {"nukumaru_cubes": []}),
])
def test_solo_facts_of_the_wrong_type_are_refused(params, extra):
    game = boardlab.make("nukumi", **params)
    facts = _plain_facts() | extra | {"start_player": 0}
    facts["seats"] = facts["seats"][:1]
    game.position(0, **facts)
    for name in extra:
        for bad in ("", False, {}):
            with pytest.raises(ValueError, match=re.escape(name)):
                game.position(0, **(facts | {name: bad}))


@pytest.mark.parametrize("params", [{"players": 2}, ADVANCED,
                                    {"players": 1, "solo": "score_attack"},
                                    {"players": 1, "solo": "chasing", "advanced": True}])
def test_an_accepted_position_round_trips_through_its_json_record(params):
    game, states = turn_starts(params, seed=21, count=3)
    for state in states:
        seat = state.current_player
        again = game.position(seat, seed=4, **nukumi.position_facts(state.observation(seat)))
        again.apply(int(again.legal_actions()[0]))
        assert boardlab.replay(json.loads(json.dumps(again.to_record()))) == again
    plain = boardlab.make("nukumi", players=2).position(0, **_plain_facts())
    assert boardlab.replay(json.loads(json.dumps(plain.to_record()))) == plain
