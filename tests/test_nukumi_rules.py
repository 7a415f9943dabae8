"""Scenario tests: one or more per rule of shared/rules/nukumi_onsen.txt, per FAQ
answer, and per choice documented in docs/nukumi.md."""
import hashlib
import json

import numpy as np
import pytest

import boardlab
from boardlab import IllegalActionError
from boardlab.games import nukumi
from nukumi_table import (SQUARES, give, hand_of, helper, names, obs, play, seat, setf,
                          start_round, table)

DATA = nukumi.DATA


def legal(s):
    return names(s)


def to_actions(**kw):
    """Table (2p, Yumomi A and Kajiya A) through phases 1-3 of round 1."""
    return start_round(table(**kw))


# ---------------------------------------------------------------- components

def test_data_file_has_every_component_with_stand_ins_flagged():
    assert DATA["board"]["stand_in"] is True and len(DATA["board"]["squares"]) == 63
    kinds = [sq["kind"] for sq in DATA["board"]["squares"]]
    for kind in ("vacant", "helper", "2_coins", "central", "nukumaru", "carriage_stop"):
        assert kind in kinds
    assert sorted(sq["nukumaru"] for sq in DATA["board"]["squares"] if "nukumaru" in sq) == [1, 2, 3, 4, 5, 6]
    assert sum(DATA["resource_tokens"]["counts"].values()) == 80
    assert sum(b["count"] for b in DATA["buildings"]) == 53
    helpers = DATA["helpers"]["cards"]
    assert len(helpers) == 40 and {h["rank"] for h in helpers} == {1, 2, 3}
    assert [h.get("stand_in", False) for h in helpers[:4]] == [False] * 4
    assert all(h["stand_in"] for h in helpers[4:])
    assert len(DATA["action_cards"]["cards"]) == 12 and len(DATA["round_cards"]["cards"]) == 7
    assert DATA["round_cards"]["cards"][6]["stand_in"] is True
    boards = DATA["partners"]["boards"]
    assert len(boards) == 6 and all(b["A"] and b["B"] for b in boards)
    assert boards[0]["A"]["points"][10] == 10      # "10 cubes used = 10 points" (Yumomi)
    assert DATA["tracks"]["fun"]["bonus_die_rolls"] == [1, 1, 1, 1, 3]
    assert DATA["tracks"]["oishi"]["bonus_coins"] == [2, 2, 2, 2, 10]


def test_bad_parameters_and_data_are_named():
    with pytest.raises(ValueError, match="players"):
        boardlab.make("nukumi", players=5)
    with pytest.raises(ValueError, match="partner_side"):
        boardlab.make("nukumi", partner_side="C")
    with pytest.raises(ValueError, match="unknown parameter"):
        boardlab.make("nukumi", variant=True)
    with pytest.raises(ValueError, match="advanced"):
        boardlab.make("nukumi", advanced="yes")
    with pytest.raises(ValueError, match="unknown effect"):
        nukumi._effects([["teleport", 1]], "test card")


# ---------------------------------------------------------------- setup

def test_setup_is_explicit_chance_round_cards_partners_and_nukumaru():
    s = boardlab.make("nukumi", players=2).new_initial_state()
    assert s.is_chance() and len(s.chance_outcomes()) == 7
    for k in (3, 1, 7, 5, 2):
        play(s, f"round card E-{k:02d}")
    assert obs(s)["round_cards"] == ["E-03", "E-01", "E-07", "E-05", "E-02"]   # 5 of 7, in order
    assert len(s.chance_outcomes()) == 6
    play(s, "partner board 1 to P0", "partner board 2 to P1")
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 6 and all(p == pytest.approx(1 / 6) for _, p in outcomes)
    play(s, "Nukumaru die 4")
    o = obs(s)
    assert o["nukumaru"] == "d7"
    for p in range(2):
        pl = o["seats"][p]
        assert pl["square"] == "d4" and pl["fun"] == 0 and pl["oishi"] == 0 and pl["draw_size"] == 4
    # bags: 1 stone, wood, networking, food; plus the start abilities (Yumomi A stone, Kajiya A gold)
    assert o["seats"][0]["bag"] == {"stone": 2, "wood": 1, "networking": 1, "food": 1, "gold": 0}
    assert o["seats"][1]["bag"] == {"stone": 1, "wood": 1, "networking": 1, "food": 1, "gold": 1}
    assert o["phase"] == "event" and o["current_player"] == 0


@pytest.mark.parametrize("face, square", [(1, "d1"), (2, "g2"), (3, "g6"), (4, "d7"), (5, "a6"), (6, "a2")])
def test_nukumaru_starts_on_the_die_face_square(face, square):
    assert obs(table(nukumaru=face))["nukumaru"] == square


def test_start_abilities_clockwise_from_the_start_player_with_chance():
    s = table(partners=("Miko", "Akindo"))
    # Miko A: draw a Helper (P0 first), Akindo A: 3 Coins (after)
    assert s.is_chance() and names(s)[0].startswith("P0 draws S-")
    assert seat(s, 1)["coins"] == 0
    play(s, "P0 draws S-12")
    assert seat(s, 0)["hand"] == ["S-12"] and seat(s, 1)["coins"] == 3


@pytest.mark.parametrize("players", [1, 3, 4])
def test_setup_for_1_to_4_players(players):
    s = table(players=players)
    assert len(obs(s)["seats"]) == players
    pool = obs(s)["pool"]
    counts = DATA["resource_tokens"]["counts"]
    assert pool["networking"] == counts["networking"] - players


# ---------------------------------------------------------------- the five phases

def test_event_phase_each_may_take_it_clockwise():
    s = table()
    play(s, "accept E-01")
    assert seat(s, 0)["bag"]["stone"] == 3
    assert s.current_player == 1
    play(s, "decline E-01")
    assert seat(s, 1)["bag"]["stone"] == 1
    assert obs(s)["phase"] == "helper draw"


def test_event_die_roll_uses_the_partner_die_table():
    s = table(rounds=(5, 1, 2, 3, 4))
    play(s, "accept E-05", "bonus die 6")           # Yumomi A face 6: 1 gold into the bag
    assert seat(s, 0)["bag"]["gold"] == 1


def test_helper_phase_each_draws_one_hidden_from_the_others():
    s = table()
    play(s, "decline E-01", "decline E-01", "P0 draws S-05", "P1 draws S-06")
    assert seat(s, 0)["hand"] == ["S-05"]
    assert seat(s, 0, viewer=1)["hand"] is None and seat(s, 0, viewer=1)["hand_size"] == 1
    assert seat(s, 1, viewer=1)["hand"] == ["S-06"]


def test_the_observation_names_the_seat_a_chance_outcome_is_for():
    """At a chance node current_player is CHANCE; whose Helper is drawn is public all the
    same (a seat's last event answer and the Helper phase's first draw looked alike)."""
    s = table(players=3)
    play(s, "decline E-01", "decline E-01", "decline E-01")
    assert s.is_chance() and [obs(s, p)["acting_seat"] for p in range(3)] == [0, 0, 0]
    play(s, "P0 draws S-05")
    assert obs(s, 2)["acting_seat"] == 1 and obs(s)["current_player"] == boardlab.CHANCE


def test_resource_draws_are_chance_weighted_by_the_bag_and_the_bag_is_known():
    s = table()
    play(s, "decline E-01", "decline E-01", "P0 draws S-05", "P1 draws S-06")
    probs = sorted(p for _, p in s.chance_outcomes())
    assert probs == pytest.approx([1 / 5, 1 / 5, 1 / 5, 2 / 5])
    assert seat(s, 0, viewer=0)["bag"] == {"stone": 2, "wood": 1, "networking": 1, "food": 1, "gold": 0}
    play(s, "P0 draws wood", "P0 draws stone", "P0 draws food", "P0 draws stone")
    assert seat(s, 0)["drawn"] == {"stone": 2, "wood": 1, "networking": 0, "food": 1, "gold": 0}
    assert seat(s, 0)["bag"] == {"stone": 0, "wood": 0, "networking": 1, "food": 0, "gold": 0}


def test_draw_size_from_the_partner_board_plus_one_for_the_face_down_start_card():
    s = to_actions()
    assert seat(s, 0)["draw_size"] == 4
    setf(s, "cubes", 0, 0, 8)
    assert seat(s, 0)["draw_size"] == DATA["partners"]["boards"][0]["A"]["draw"][8]
    setf(s, "cubes", 0, 0, 0)
    setf(s, "square", 0, "d2")                      # Nukumaru is on d1
    hand_of(s, 0, {"networking": 1})
    play(s, "move (1)", "step d1")                  # caught: start card face down
    assert obs(s)["start_face_down"] and obs(s)["start_player"] == 0
    assert seat(s, 0)["draw_size"] == 5


def test_actions_clockwise_one_each_then_next_player():
    s = to_actions()
    assert s.current_player == 0
    play(s, "gold mining", "pay stone+stone+wood", "end turn")
    assert s.current_player == 1
    play(s, "pass")
    assert s.current_player == 0 and seat(s, 1)["passed"]
    play(s, "pass")
    assert obs(s)["round"] == 1                     # everyone passed: next round


def test_a_player_without_resources_passes_for_the_rest_of_the_round():
    s = to_actions()
    hand_of(s, 0, {"stone": 1, "wood": 1})
    play(s, "mining", "P0 draws S-07")             # pays the last two
    play(s, "gold mining", "pay stone+wood+networking", "end turn")
    assert s.current_player == 1                    # P0 has nothing left: passed
    assert seat(s, 0)["passed"]


def test_cleanup_returns_everything_to_the_bag_nothing_carried_over():
    s = to_actions()
    before = {r: seat(s, 0)["bag"][r] + seat(s, 0)["drawn"][r] for r in nukumi.RESOURCES}
    play(s, "gold mining", "pay stone+stone+wood")  # +1 gold +4 coins into the bag
    play(s, "end turn", "pass", "pass")
    after = seat(s, 0)
    assert after["drawn"] == {r: 0 for r in nukumi.RESOURCES} and after["spent"] == {r: 0 for r in nukumi.RESOURCES}
    before["gold"] += 1
    assert after["bag"] == before and after["used"] == []


def test_game_ends_after_five_rounds():
    s = to_actions()
    for rnd in range(5):
        assert obs(s)["round"] == rnd
        while not s.is_terminal() and obs(s)["round"] == rnd:
            if s.is_chance():
                play(s, names(s)[0])
            elif "pass" in names(s):
                play(s, "pass")
            else:
                play(s, names(s)[-1])
    assert s.is_terminal()


# ---------------------------------------------------------------- the nine actions

def test_mining_pays_stone_and_any_gains_two_stone_into_the_bag_and_a_helper():
    s = to_actions()
    hand_of(s, 0, {"stone": 1, "food": 1, "gold": 1})
    play(s, "mining")
    assert set(names(s)) == {"pay stone+food", "pay stone+gold", "pay food+gold"}   # gold as stone
    play(s, "pay food+gold")
    assert seat(s, 0)["drawn"]["stone"] == 1        # gained stone is in the bag, not usable now
    assert seat(s, 0)["bag"]["stone"] == 2
    play(s, "P0 draws S-09")
    assert "S-09" in seat(s, 0)["hand"] and obs(s)["phase"] == "end of turn"
    play(s, "end turn")
    assert s.current_player == 1


def test_logging_gains_two_wood_and_plays_one_helper():
    s = to_actions()
    give(s, 0, "S-10")
    hand_of(s, 0, {"wood": 2})
    play(s, "logging")
    assert seat(s, 0)["bag"]["wood"] == 2
    assert names(s)[-2:] == ["play S-10", "play S-30"]
    play(s, "play S-10")                            # Money Lender: 3 coins
    assert seat(s, 0)["coins"] == 3 and s.current_player == 1   # only one Helper


def test_planning_advances_fun_with_a_die_roll_bonus():
    s = to_actions()
    hand_of(s, 0, {"networking": 2})
    play(s, "planning")
    assert seat(s, 0)["fun"] == 1 and seat(s, 0)["bag"]["networking"] == 2
    play(s, "bonus die 5")                          # Yumomi A face 5: 2 coins
    assert seat(s, 0)["coins"] == 2


def test_cooking_advances_oishi_with_two_coins():
    s = to_actions()
    hand_of(s, 0, {"food": 2})
    play(s, "cooking")
    assert seat(s, 0)["oishi"] == 1 and seat(s, 0)["coins"] == 2 and seat(s, 0)["bag"]["food"] == 3


def test_gold_mining_any_three_for_gold_and_four_coins():
    s = to_actions()
    hand_of(s, 0, {"wood": 3})
    play(s, "gold mining")
    assert seat(s, 0)["coins"] == 4 and seat(s, 0)["bag"]["gold"] == 1


def test_recruitment_draws_a_helper_then_plays_up_to_two_with_a_free_move_between():
    s = to_actions()
    give(s, 0, "S-10", "S-11")
    hand_of(s, 0, {"wood": 3})
    play(s, "recruitment", "P0 draws S-20")
    play(s, "play S-10")
    # a free action in the middle of the action (FAQ), then the second Helper
    play(s, "discard S-30 to move", "step d5", "play S-11", "end turn")
    assert seat(s, 0)["coins"] == 8 and seat(s, 0)["square"] == "d5"
    assert set(seat(s, 0)["played"]) == {"S-10", "S-11"} and s.current_player == 1


def test_moving_pays_networking_or_food_never_gold_two_spots():
    s = to_actions()
    hand_of(s, 0, {"gold": 2})
    assert "move (1)" not in names(s)
    hand_of(s, 0, {"networking": 1, "food": 1, "gold": 1})
    play(s, "move (1)")
    assert set(names(s)) == {"pay networking", "pay food"}
    play(s, "pay food", "step c4", "end turn")
    play(s, "pass")
    assert "move (1)" not in names(s) and "move (2)" in names(s)     # each spot once a round
    play(s, "move (2)", "step b4")
    assert seat(s, 0)["square"] == "b4"


def test_each_action_once_per_round():
    s = to_actions()
    hand_of(s, 0, {"stone": 5})
    play(s, "mining", "P0 draws S-09", "end turn", "pass")
    assert "mining" not in names(s) and "gold mining" in names(s)


def test_add_an_action_costs_a_resource_and_4_coins_usable_the_same_round():
    s = to_actions()
    setf(s, "coins", 0, 0, 20)
    hand_of(s, 0, {"stone": 2, "wood": 2, "gold": 1})
    play(s, "add an action", "pay wood", "take EX-06")
    assert seat(s, 0)["coins"] == 16 and seat(s, 0)["cards"] == ["EX-06"]
    assert "EX-06" not in obs(s)["cards_open"]
    play(s, "end turn", "pass")                     # then P1 passes
    assert "use EX-06" in names(s)                  # available immediately (FAQ)
    play(s, "use EX-06")                            # Stone Kiln: 1 stone -> oishi, 2 coins
    assert seat(s, 0)["oishi"] == 1 and seat(s, 0)["coins"] == 18


def test_second_and_third_action_card():
    s = to_actions()
    setf(s, "coins", 0, 0, 30)
    hand_of(s, 0, {"wood": 3})
    play(s, "add an action", "take EX-05", "end turn", "pass")
    assert "add an action" not in names(s)          # once per round
    play(s, "pass")                                 # round 2
    start_round(s)
    hand_of(s, 0, {"wood": 3})
    play(s, "add an action", "take EX-07")
    assert seat(s, 0)["coins"] == 30 - 4 - 6 and seat(s, 0)["cards"] == ["EX-05", "EX-07"]
    play(s, "end turn", "pass", "pass")
    start_round(s)
    hand_of(s, 0, {"wood": 3})
    assert "add an action" not in names(s)


def test_action_cards_specific_resources_never_gold():
    s = to_actions()
    setf(s, "coins", 0, 0, 20)
    hand_of(s, 0, {"wood": 1, "gold": 2})
    play(s, "add an action", "pay wood", "take EX-06")   # Stone Kiln needs a stone
    play(s, "end turn", "pass")
    assert "use EX-06" not in names(s)
    hand_of(s, 0, {"stone": 1})
    assert "use EX-06" in names(s)


@pytest.mark.parametrize("building, pay, coins_before, coins_after", [
    ("stall", {"wood": 1, "food": 1}, 0, 0),
    ("public bath", {"stone": 2}, 0, 0),
    ("ryokan", {"stone": 3}, 3, 0),
    ("nukumaru statue", {"gold": 1}, 3, 0),
    ("nukumi palace", {"gold": 3}, 0, 0),
    ("souvenir shop", {"wood": 2}, 0, 0),
    ("playground", {"wood": 1, "stone": 1, "networking": 1}, 0, 0),
    ("tavern", {"networking": 1, "food": 1}, 0, 0),
])
def test_construction_cost_and_cube(building, pay, coins_before, coins_after):
    s = to_actions()
    play(s, "discard S-30 to move", "step c4")      # off the Central Square
    setf(s, "coins", 0, 0, coins_before)
    hand_of(s, 0, pay)
    assert f"build {building}" in names(s)
    play(s, f"build {building}")
    o = obs(s)
    assert {"square": "c4", "building": building, "owner": 0} in o["buildings"]
    assert seat(s, 0)["coins"] == coins_after and seat(s, 0)["buildings"] == 1
    assert o["buildings_left"][building] == [b for b in DATA["buildings"] if b["name"] == building][0]["count"] - 1


def test_construction_not_affordable_without_coins_or_resources():
    s = to_actions()
    play(s, "discard S-30 to move", "step c4")
    hand_of(s, 0, {"stone": 3})
    assert "build ryokan" not in names(s)            # 3 Coins missing
    hand_of(s, 0, {"stone": 1})
    assert "build public bath" not in names(s)


def test_tavern_draws_a_helper():
    s = to_actions()
    play(s, "discard S-30 to move", "step c4")
    hand_of(s, 0, {"networking": 1, "food": 1})      # the Tavern's cost is a stand-in
    play(s, "build tavern", "P0 draws S-15")
    assert "S-15" in seat(s, 0)["hand"]


def test_souvenir_shop_a_coin_per_neighbouring_building_not_permanent_squares():
    s = to_actions()
    setf(s, "build", 1, "c3", 0)
    setf(s, "build", 1, "b4", 1)
    play(s, "discard S-30 to move", "step c4")      # c4 next to c3, b4, c5 and d4 (Central)
    hand_of(s, 0, {"wood": 2})
    play(s, "build souvenir shop")
    assert seat(s, 0)["coins"] == 2


def test_playground_scores_from_the_fun_track():
    s = to_actions()
    play(s, "discard S-30 to move", "step c4")
    hand_of(s, 0, {"wood": 1, "stone": 1, "networking": 1})
    play(s, "build playground")
    fun_pts = DATA["tracks"]["fun"]["points"]["by_level"]
    for level in (0, 3, 5):
        setf(s, "fun", 0, 0, level)
        sc = seat(s, 0)["score"]
        assert sc["buildings"] == fun_pts[level]


def test_building_only_on_your_square_not_ribbon_not_built():
    s = to_actions()
    hand_of(s, 0, {"wood": 1, "food": 1})
    assert not any(n.startswith("build") for n in names(s))      # Central Square
    for sq in ("d1", "a1"):                                      # Nukumaru square, Carriage Stop
        setf(s, "square", 0, sq)
        assert not any(n.startswith("build") for n in names(s))
    setf(s, "square", 0, "c4")
    setf(s, "build", 1, "c4", 0)
    assert not any(n.startswith("build") for n in names(s))      # built already
    setf(s, "square", 0, "c5")
    assert "build stall" in names(s)


def test_building_tiles_are_limited():
    s = to_actions()
    setf(s, "square", 0, "c5")
    hand_of(s, 0, {"wood": 1, "food": 1})
    setf(s, "buildings_left", 0, 0, 0)
    assert "build stall" not in names(s)


def test_construction_bonus_from_the_eighth_building():
    s = to_actions()
    pts = DATA["partners"]["boards"][0]["A"]["points"]
    for n in (7, 8, 10):
        setf(s, "cubes", 0, 0, n)
        assert seat(s, 0)["score"]["construction"] == pts[n]
    assert pts[7] == 0 and pts[8] > 0


def test_partner_specific_action_yumomi_pays_a_stone_to_move():
    s = to_actions()
    hand_of(s, 0, {"stone": 1})
    play(s, "partner action", "step e4")
    assert seat(s, 0)["square"] == "e4" and "partner action" in seat(s, 0)["used"]


def test_build_effect_constructs_on_your_square_besides_the_construction_spot():
    """Master Carpenter (S-34, stand-in): "build 1" when played - a construction
    that is not the Construction spot, so that spot stays free this round."""
    s = to_actions()
    give(s, 0, "S-34")
    setf(s, "square", 0, "e4")
    hand_of(s, 0, {"wood": 2, "stone": 2})
    play(s, "logging", "pay wood+wood", "play S-34")
    assert obs(s)["phase"] == "build" and s.current_player == 0
    assert set(names(s)) >= {"build public bath", "build nothing", "sell stone"}
    assert "build stall" not in names(s)            # no food: only what can be paid
    play(s, "build public bath")
    assert obs(s)["buildings"] == [{"square": "e4", "building": "public bath", "owner": 0}]
    assert seat(s, 0)["buildings"] == 1 and seat(s, 0)["drawn"]["stone"] == 0
    assert "construction" not in seat(s, 0)["used"] and s.current_player == 1


def test_build_effect_waits_for_a_free_move_and_can_build_nothing():
    s = to_actions()
    give(s, 0, "S-34", "S-10")
    hand_of(s, 0, {"wood": 1, "food": 1, "stone": 2})   # on d4, the Central Square: no building here
    play(s, "logging", "pay wood+food", "play S-34")
    assert obs(s)["phase"] == "build"
    assert not [n for n in names(s) if n.startswith("build ") and n != "build nothing"]
    play(s, "discard S-10 to move", "step e4")      # a free action in the middle of the effect
    assert obs(s)["phase"] == "build" and "build public bath" in names(s)
    assert "build stall" not in names(s)            # its wood and food are spent
    play(s, "build nothing", "end turn")
    assert obs(s)["buildings"] == [] and s.current_player == 1


def test_build_effect_skipped_when_nothing_can_be_paid():
    s = to_actions()
    give(s, 0, "S-34")
    setf(s, "square", 0, "e4")
    hand_of(s, 0, {"wood": 1, "networking": 1})
    play(s, "logging", "play S-34")                 # nothing left to pay a building with
    assert obs(s)["buildings"] == [] and s.current_player == 1


def test_construction_card_and_daiku_build_and_pay_with_a_choice():
    s = to_actions(partners=("Daiku", "Kajiya"))
    setf(s, "square", 0, "e4")
    hand_of(s, 0, {"wood": 1, "stone": 2, "gold": 1})
    play(s, "partner action")                       # Daiku A (stand-in): a wood to build
    assert obs(s)["phase"] == "build"
    play(s, "build public bath")
    assert set(names(s)) == {"pay stone+stone", "pay stone+gold"}
    assert obs(s)["paying_for"] == "build public bath"
    play(s, "pay stone+gold", "end turn")
    assert obs(s)["buildings"][0]["building"] == "public bath" and s.current_player == 1
    assert seat(s, 0)["drawn"]["stone"] == 1 and "partner action" in seat(s, 0)["used"]


def test_action_card_town_planning_builds():
    s = to_actions()
    setf(s, "coins", 0, 0, 4)
    setf(s, "square", 0, "e4")
    hand_of(s, 0, {"stone": 1, "networking": 1, "wood": 1, "food": 1})
    play(s, "add an action", "pay stone", "take EX-08")
    play(s, "end turn", "pass")
    play(s, "use EX-08")                            # networking, no gold (a card's own resource)
    assert obs(s)["phase"] == "build"
    play(s, "build stall")
    assert obs(s)["buildings"] == [{"square": "e4", "building": "stall", "owner": 0}]


# ---------------------------------------------------------------- player board side B (stand-in)

def test_board_side_b_is_a_parameter_and_read_from_the_data():
    s = to_actions(board="B")
    assert obs(s)["board_side"] == "B" and "board side B" in nukumi.render(obs(s))
    side_b = {sp["name"]: sp for sp in DATA["player_board"]["side_b"]["spots"]}
    assert DATA["player_board"]["side_b"]["stand_in"] is True
    assert [sp["name"] for sp in DATA["player_board"]["side_b"]["spots"]] == nukumi.SPOTS
    hand_of(s, 0, {"stone": 1})
    assert side_b["mining"]["cost"] == ["stone|gold"]
    before = seat(s, 0)["bag"]["stone"]
    play(s, "mining")                               # one stone pays it on side B
    assert seat(s, 0)["bag"]["stone"] == before + side_b["mining"]["effects"][0][2] == before + 1
    play(s, "P0 draws S-09")
    assert "S-09" in seat(s, 0)["hand"] and s.current_player == 1
    with pytest.raises(ValueError, match="board_side"):
        boardlab.make("nukumi", board_side="C")


def test_board_side_b_second_moving_spot_takes_stone_or_wood_never_gold():
    s = to_actions(board="B")
    hand_of(s, 0, {"gold": 1, "networking": 1})
    assert "move (1)" in names(s) and "move (2)" not in names(s)
    hand_of(s, 0, {"gold": 1, "wood": 1})
    assert "move (2)" in names(s) and "move (1)" not in names(s)
    play(s, "move (2)", "step e4")
    assert seat(s, 0)["square"] == "e4" and seat(s, 0)["drawn"]["gold"] == 1
    a = to_actions()                                # side A: both spots take networking or food
    hand_of(a, 0, {"wood": 1})
    assert "move (2)" not in names(a)


def test_board_side_b_gold_mining_and_recruitment_are_leaner():
    s = to_actions(board="B")
    hand_of(s, 0, {"wood": 2})
    play(s, "gold mining")
    assert seat(s, 0)["coins"] == 2 and seat(s, 0)["bag"]["gold"] == 1


# ---------------------------------------------------------------- free actions

def test_free_actions_discard_coins_sell_unlimited_within_a_turn():
    s = to_actions()
    give(s, 0, "S-10", "S-11")
    setf(s, "coins", 0, 0, 6)
    play(s, "discard S-10 to move", "step c4", "discard S-11 to move", "step c3")
    play(s, "pay 3 coins to move", "step b3", "pay 3 coins to move", "step a3")
    assert seat(s, 0)["coins"] == 2                  # a3 is a 2-Coins square
    play(s, "sell stone", "sell stone")
    assert seat(s, 0)["coins"] == 4 and seat(s, 0)["spent"]["stone"] == 2
    assert s.current_player == 0                     # still P0's turn
    assert set(obs(s)["discard"]) == {"S-10", "S-11"}


def test_free_actions_after_the_action_until_end_turn():
    """"Free actions may be taken any time during a player's turn": after the action too, so
    the 4 Coins Gold Mining just earned pay for a move in the same turn; `end turn` ends it."""
    s = to_actions()
    give(s, 0, "S-10")
    hand_of(s, 0, {"wood": 3, "food": 1})
    play(s, "gold mining", "pay wood+wood+wood")     # 4 Coins (the player had none)
    assert s.current_player == 0 and obs(s)["phase"] == "end of turn"
    assert names(s) == ["discard S-10 to move", "discard S-30 to move", "pay 3 coins to move",
                        "sell food", "end turn"]     # every free action, no second action
    play(s, "pay 3 coins to move", "step d5")
    assert seat(s, 0)["square"] == "d5" and seat(s, 0)["coins"] == 1
    assert obs(s)["phase"] == "end of turn"          # the move done, still P0's turn
    play(s, "discard S-10 to move", "step d6")
    play(s, "end turn")
    assert s.current_player == 1 and not seat(s, 0)["passed"]
    assert seat(s, 0)["drawn"]["food"] == 1 and "S-10" in obs(s)["discard"]


@pytest.mark.parametrize("solo", ["none", "score_attack", "chasing"])
def test_alone_the_turn_ends_with_its_action_and_the_next_begins_with_the_free_actions(solo):
    """1 player: after `end turn` the same seat's next turn would begin at once with the same
    free actions (and the square bonuses anew), so the turn ends with the action."""
    s = table(players=1, solo=solo, partners=("Yumomi",))
    if solo == "score_attack":
        play(s, "NPC 1 die 1", "NPC 2 die 1", "NPC 3 die 1")
    start_round(s)
    give(s, 0, "S-10")
    hand_of(s, 0, {"wood": 3, "food": 1})
    play(s, "gold mining", "pay wood+wood+wood")
    assert obs(s)["phase"] == "actions" and "end turn" not in names(s)
    assert {"discard S-10 to move", "pay 3 coins to move", "sell food"} <= set(names(s))


def test_after_the_action_selling_the_last_resource_ends_the_turn():
    s = to_actions()
    hand_of(s, 0, {"wood": 3, "food": 1})
    play(s, "gold mining", "pay wood+wood+wood", "sell food")
    assert seat(s, 0)["coins"] == 5 and s.current_player == 1   # nothing left: no more free actions
    play(s, "pass")
    assert obs(s)["round"] == 1                      # P0, with nothing left, passed when its turn came


def test_after_the_action_a_carriage_ride():
    s = to_actions()
    setf(s, "square", 0, "b1")
    hand_of(s, 0, {"networking": 1, "stone": 1})
    play(s, "move (1)", "step a1")                   # a Carriage Stop
    assert obs(s)["phase"] == "end of turn" and "carriage to g7" in names(s)
    play(s, "carriage to g7")
    assert seat(s, 0)["square"] == "g7" and not any(n.startswith("carriage") for n in names(s))
    play(s, "end turn")
    assert s.current_player == 1


def test_the_turn_after_the_action_always_ends():
    """Every free action costs a Helper, 3 Coins or a drawn resource and a ride needs a new
    arrival, so a player who never chooses `end turn` (nor `stop moving`) still runs out."""
    s = to_actions()
    give(s, 0, "S-10", "S-11", "S-12")
    setf(s, "coins", 0, 0, 12)
    setf(s, "square", 0, "b1")
    hand_of(s, 0, {"networking": 1, "stone": 3})
    play(s, "move (1)", "step a1")
    for decisions in range(200):
        if s.current_player != 0:
            break
        if s.is_chance():
            play(s, names(s)[0])
            continue
        keep_on = [n for n in names(s) if n not in ("end turn", "stop moving")]
        play(s, keep_on[-1])                         # rides first, then steps, moves, sales
    assert s.current_player == 1 and decisions < 200
    assert sum(seat(s, 0)["drawn"].values()) == 0


def test_no_free_actions_without_resources():
    s = to_actions()
    setf(s, "coins", 0, 0, 9)
    hand_of(s, 0, {"networking": 1})
    play(s, "move (1)")
    assert "pay 3 coins to move" not in names(s) and "discard S-30 to move" not in names(s)
    play(s, "step c4")
    assert s.current_player == 1


def test_selling_the_last_resource_before_acting_passes():
    s = to_actions()
    hand_of(s, 0, {"food": 1})
    play(s, "sell food")
    assert seat(s, 0)["passed"] and s.current_player == 1


def test_helpers_only_when_an_action_allows():
    s = to_actions()
    assert not any(n.startswith("play S-") for n in names(s))


# ---------------------------------------------------------------- the board

def test_helper_square_once_per_square_per_turn():
    s = to_actions()
    give(s, 0, "S-10", "S-11", "S-12")
    play(s, "discard S-10 to move", "step c4", "discard S-11 to move", "step b4")   # b4: Helper square
    assert obs(s)["phase"] == "helper draw"
    play(s, "P0 draws S-20")
    play(s, "discard S-12 to move", "step c4", "discard S-20 to move", "step b4")
    assert obs(s)["phase"] == "actions"               # same turn: no second Helper


def test_two_coins_square_once_per_turn_and_lost_when_built():
    s = to_actions()
    setf(s, "square", 0, "b3")
    setf(s, "coins", 0, 0, 9)
    play(s, "pay 3 coins to move", "step a3")
    assert seat(s, 0)["coins"] == 8
    play(s, "pay 3 coins to move", "step b3", "pay 3 coins to move", "step a3")
    assert seat(s, 0)["coins"] == 2                   # no second bonus this turn
    s = to_actions()
    setf(s, "build", 1, "a3", 0)
    setf(s, "square", 0, "b3")
    setf(s, "coins", 0, 0, 3)
    play(s, "pay 3 coins to move", "step a3")
    assert seat(s, 0)["coins"] == 0                   # built over: the bonus is gone


def test_helper_square_bonus_again_next_turn():
    s = to_actions()
    give(s, 0, "S-10", "S-11")
    play(s, "discard S-10 to move", "step c4", "discard S-11 to move", "step b4", "P0 draws S-20")
    play(s, "pass")                                   # P0 passes, P1 plays on
    assert s.current_player == 1
    give(s, 1, "S-12", "S-13")
    setf(s, "square", 1, "c4")
    play(s, "discard S-12 to move", "step b4")        # another seat, another turn: a Helper
    assert obs(s)["phase"] == "helper draw"


def test_carriage_stops_ride_without_a_move_also_mid_move():
    s = to_actions()
    setf(s, "square", 0, "b1")
    setf(s, "coins", 0, 0, 20)
    give(s, 0, "S-14")
    # a 2-square move (Rickshaw Puller via Logging) rides mid-move (FAQ)
    hand_of(s, 0, {"wood": 2})
    play(s, "logging", "play S-14", "step a1")
    assert "carriage to g7" in names(s) and "carriage to g1" in names(s)
    play(s, "carriage to g7")
    assert seat(s, 0)["square"] == "g7" and obs(s)["phase"] == "move"
    assert "carriage to a1" not in names(s)           # one ride per arrival
    play(s, "step f7")                                # the second step of the move
    assert seat(s, 0)["square"] == "f7"
    assert seat(s, 0)["coins"] == 22                  # f7 is a 2-Coins square


def test_catching_nukumaru_coins_start_card_and_reroll():
    s = to_actions(nukumaru=1)                        # Nukumaru on d1
    setf(s, "square", 0, "d2")
    hand_of(s, 0, {"networking": 1, "wood": 1})
    play(s, "move (1)", "step d1")
    assert seat(s, 0)["coins"] == 3
    assert obs(s)["start_player"] == 0 and obs(s)["start_face_down"]
    play(s, "Nukumaru die 1")                         # face 1 is d1, occupied by P0: +1 -> g2
    assert obs(s)["nukumaru"] == "g2"
    play(s, "bonus die 6")                            # Yumomi A: a die roll after moving Nukumaru
    assert seat(s, 0)["bag"]["gold"] == 1


def test_nukumaru_reroll_keeps_adding_one_and_wraps_six_to_one():
    s = to_actions(nukumaru=1)
    setf(s, "square", 1, "a2")                        # face 6 occupied by P1
    setf(s, "square", 0, "d2")
    hand_of(s, 0, {"networking": 1, "wood": 1})
    play(s, "move (1)", "step d1", "Nukumaru die 6")  # 6 occupied -> 1 (d1) occupied by P0 -> 2
    assert obs(s)["nukumaru"] == "g2"


def test_catching_mid_move_resolves_before_the_rest_of_the_move():
    s = to_actions(nukumaru=1)
    setf(s, "square", 0, "d3")
    give(s, 0, "S-14")                                # Rickshaw Puller: move 2
    hand_of(s, 0, {"wood": 2})
    play(s, "logging", "play S-14", "step d2")
    play(s, "step d1")
    assert obs(s)["phase"] == "die" and obs(s)["pending"][0] == "move Nukumaru"
    play(s, "Nukumaru die 3", "bonus die 1")
    assert obs(s)["nukumaru"] == "g6"
    # the move had 2 steps: both used; with a 3-step move one would remain
    s = to_actions(nukumaru=1)
    setf(s, "square", 0, "d2")
    give(s, 0, "S-15")                                # Mountain Guide: move 3
    hand_of(s, 0, {"wood": 2})
    play(s, "logging", "play S-15", "step d1", "Nukumaru die 3", "bonus die 1")
    assert obs(s)["phase"] == "move" and obs(s)["pending"][0] == "move 2"
    play(s, "step e1")


def test_catching_again_with_the_card_already_held_only_coins():
    s = to_actions(nukumaru=1)
    setf(s, "square", 0, "d2")
    hand_of(s, 0, {"networking": 2, "wood": 1})
    play(s, "move (1)", "step d1", "Nukumaru die 2", "bonus die 5")    # Nukumaru now g2
    play(s, "end turn", "pass")
    setf(s, "square", 0, "f2")
    play(s, "move (2)", "step g2")
    assert seat(s, 0)["coins"] == 3 + 2 + 3 and obs(s)["start_player"] == 0


def test_start_player_changes_only_by_catching():
    s = to_actions(nukumaru=1)
    play(s, "pass", "pass")
    assert obs(s)["start_player"] == 0 and s.current_player == 0   # does not rotate (FAQ)
    start_round(s)
    setf(s, "square", 1, "d2")
    hand_of(s, 1, {"networking": 1, "wood": 1})
    play(s, "pass", "move (1)", "step d1", "Nukumaru die 4")
    play(s, "end turn", "pass")
    assert obs(s)["round"] == 2 and s.current_player == 1            # P1 starts round 3


# ---------------------------------------------------------------- tracks

def test_fun_level_five_gives_three_die_rolls_and_nothing_past_five():
    s = to_actions()
    setf(s, "fun", 0, 0, 4)
    hand_of(s, 0, {"networking": 2})
    play(s, "planning", "bonus die 5", "bonus die 5", "bonus die 5")
    assert seat(s, 0)["fun"] == 5 and seat(s, 0)["coins"] == 6
    assert s.current_player == 1
    s2 = to_actions()
    setf(s2, "fun", 0, 0, 5)
    hand_of(s2, 0, {"networking": 2})
    play(s2, "planning")
    assert seat(s2, 0)["fun"] == 5 and s2.current_player == 1        # no further benefit (FAQ)


def test_oishi_level_five_gives_ten_coins_and_nothing_past_five():
    s = to_actions()
    setf(s, "oishi", 0, 0, 4)
    hand_of(s, 0, {"food": 2})
    play(s, "cooking")
    assert seat(s, 0)["oishi"] == 5 and seat(s, 0)["coins"] == 10
    s = to_actions()
    setf(s, "oishi", 0, 0, 5)
    hand_of(s, 0, {"food": 2})
    play(s, "cooking")
    assert seat(s, 0)["oishi"] == 5 and seat(s, 0)["coins"] == 0


# ---------------------------------------------------------------- scarcity

def test_scarcity_mining_gains_fewer_but_still_draws_a_helper():
    s = to_actions()
    setf(s, "pool", 0, "stone", 1)
    hand_of(s, 0, {"stone": 2})
    bag = seat(s, 0)["bag"]["stone"]
    play(s, "mining", "P0 draws S-09")
    assert seat(s, 0)["bag"]["stone"] == bag + 1 and obs(s)["pool"]["stone"] == 0
    assert "S-09" in seat(s, 0)["hand"]


def test_scarcity_event_in_turn_order():
    s = table(players=3)
    setf(s, "pool", 0, "stone", 2)
    play(s, "accept E-01", "accept E-01")
    assert names(s) == ["decline E-01"]       # P2 gets none: nothing to take, so no choice
    play(s, "decline E-01")
    assert [seat(s, p)["bag"]["stone"] for p in range(3)] == [3, 2, 1]


@pytest.mark.parametrize("card,setup", [
    (6, lambda s: [setf(s, "played", 1, helper(h)) for h in obs(s)["deck"]]),   # Unexpected Visitor, no Helper left
    (7, lambda s: setf(s, "oishi", 0, 0, 5)),                     # Top Form! (stand-in: oishi 1) at 5
])
def test_an_event_that_can_change_nothing_is_not_a_choice(card, setup):
    """Accepting it would leave the table as declining does: only `decline` is offered (so
    two seats' histories never differ by a move that changed nothing)."""
    s = table(rounds=(card, 1, 2, 3, 4))
    assert names(s) == [f"accept E-{card:02d}", f"decline E-{card:02d}"]
    setup(s)
    assert names(s) == [f"decline E-{card:02d}"]


def test_coins_are_unlimited():
    s = to_actions()
    setf(s, "coins", 0, 0, 900)
    hand_of(s, 0, {"food": 2})
    play(s, "cooking")
    assert seat(s, 0)["coins"] == 902


# ---------------------------------------------------------------- scoring

def test_scoring_every_source():
    s = to_actions()
    setf(s, "build", 0, "c5", 1)        # public bath 10
    setf(s, "build", 0, "e5", 3)        # ryokan 23
    setf(s, "played", 0, 19)            # S-20 Village Elder 6
    setf(s, "coins", 0, 0, 12)
    setf(s, "oishi", 0, 0, 2)
    sc = seat(s, 0)["score"]
    oishi = DATA["tracks"]["oishi"]["points"]["by_level"][2]
    assert sc == {"buildings": 33, "helpers": 6, "coins": 12, "start_card": 0, "partner_end": 10,
                  "construction": 0, "cards": 0, "tracks": oishi, "total": 33 + 6 + 12 + 10 + oishi}
    setf(s, "square", 0, "d2")
    hand_of(s, 0, {"networking": 1})
    play(s, "move (1)", "step d1")
    assert seat(s, 0)["score"]["start_card"] == 7


def test_action_cards_score_their_points():
    s = to_actions()
    setf(s, "coins", 0, 0, 4)
    hand_of(s, 0, {"wood": 1})
    play(s, "add an action", "take EX-05")
    assert seat(s, 0)["score"]["cards"] == 10


def test_returns_rank_the_scores_and_ties_share():
    s = table(players=3)
    assert s.returns().tolist() == [0.0, 0.0, 0.0]           # not over yet
    while not s.is_terminal():
        options = names(s)
        play(s, options[0] if s.is_chance() else next(o for o in options if o.startswith(("decline", "pass"))))
    totals = [seat(s, p)["score"]["total"] for p in range(3)]
    r = s.returns()
    for i in range(3):
        for j in range(3):
            assert (totals[i] > totals[j]) == (r[i] > r[j]) and (totals[i] == totals[j]) == (r[i] == r[j])
    assert sum(r) == pytest.approx(0.0)


# ---------------------------------------------------------------- hidden information

def test_determinize_keeps_what_the_seat_knows_and_reshuffles_the_rest():
    s = to_actions()
    give(s, 1, "S-01", "S-02")
    mine = s.observation(0)
    seen = set()
    for seed in range(30):
        d = s.determinize(0, seed)
        assert d.observation(0) == mine
        seen.add(tuple(seat(d, 1)["hand"]))
    assert len(seen) > 1 and not all("S-01" in h for h in seen)


def test_determinize_is_a_function_of_the_seat_knowledge_only():
    a = to_actions()
    b = to_actions()
    give(a, 1, "S-01")
    give(b, 1, "S-02")                                 # same view for P0, different truth
    assert a.observation(0) == b.observation(0) and a != b
    for seed in range(5):
        assert a.determinize(0, seed) == b.determinize(0, seed)


def test_bad_moves_raise_and_leave_the_state():
    s = to_actions()
    before = s.clone()
    with pytest.raises(IllegalActionError):
        play(s, "build stall")
    with pytest.raises(IllegalActionError):
        s.apply(nukumi_action("step", "a1"))
    assert s == before


def nukumi_action(kind, square):
    return {"step": 67, "carriage": 130}[kind] + SQUARES.index(square)


# ---------------------------------------------------------------- golden playthrough

def test_golden_playthrough():
    """A seeded random 3-player game: its history and final scores are pinned,
    so any change of the rules' behaviour shows up here."""
    s = boardlab.make("nukumi", players=3).new_initial_state(seed=2026)
    rng = np.random.default_rng(2026)
    while not s.is_terminal():
        if s.is_chance():
            acts, probs = zip(*s.chance_outcomes())
            s.apply(int(rng.choice(acts, p=np.array(probs) / sum(probs))))
        else:
            s.apply(int(rng.choice(s.legal_actions())))
    digest = hashlib.sha256(json.dumps(s.history).encode()).hexdigest()[:16]
    totals = [p["score"]["total"] for p in s.full_observation()["seats"]]
    assert (len(s.history), digest, totals) == GOLDEN


GOLDEN = (246, "5d425caaaf3b9b29", [6, 9, 11])


# ---------------------------------------------------------------- advanced rules

def test_advanced_setup_deals_three_face_up_helpers_and_action_cards():
    s = boardlab.make("nukumi", players=2, advanced=True).new_initial_state()
    for k in range(1, 6):
        play(s, f"round card E-{k:02d}")
    play(s, "partner board 1 to P0", "partner board 2 to P1")
    assert len(s.chance_outcomes()) == 40 and names(s)[0] == "face up S-01"
    play(s, "face up S-07", "face up S-08", "face up S-09")
    assert len(s.chance_outcomes()) == 12
    play(s, "face up EX-03", "face up EX-05", "face up EX-07", "Nukumaru die 1")
    o = obs(s)
    assert o["helper_row"] == ["S-07", "S-08", "S-09"] and o["card_row"] == ["EX-03", "EX-05", "EX-07"]
    assert o["cards_open"] == ["EX-03", "EX-05", "EX-07"] and o["card_deck_size"] == 9
    assert o["deck_size"] == 37


def test_advanced_helper_draw_face_up_or_blind_slides_and_refills_the_first_slot():
    s = table(advanced=True)
    play(s, "decline E-01", "decline E-01")
    assert names(s) == ["draw blind", "take S-01", "take S-02", "take S-03"]
    play(s, "take S-03")                          # the right-most: S-01, S-02 slide right
    assert obs(s)["helper_row"] == [None, "S-01", "S-02"]
    play(s, "face up S-20")
    assert obs(s)["helper_row"] == ["S-20", "S-01", "S-02"] and seat(s, 0)["hand"] == ["S-03"]
    play(s, "draw blind", "P1 draws S-33")
    assert obs(s)["helper_row"] == ["S-20", "S-01", "S-02"] and seat(s, 1)["hand"] == ["S-33"]


def test_advanced_every_helper_draw_is_a_choice_mining_too():
    s = start_round(table(advanced=True))
    hand_of(s, 0, {"stone": 2})
    play(s, "mining")
    assert "draw blind" in names(s) and "take S-20" not in names(s)
    play(s, "take S-02", "face up S-25")
    assert "S-02" in seat(s, 0)["hand"]


def test_advanced_add_an_action_face_up_or_blind():
    s = start_round(table(advanced=True))
    setf(s, "coins", 0, 0, 20)
    hand_of(s, 0, {"wood": 2})
    play(s, "add an action")
    assert names(s) == ["take EX-01", "take EX-02", "take EX-03", "take blind"]
    play(s, "take EX-02", "face up EX-09")
    assert obs(s)["card_row"] == ["EX-09", "EX-01", "EX-03"] and seat(s, 0)["cards"] == ["EX-02"]
    play(s, "end turn", "pass")
    s2 = start_round(table(advanced=True))
    setf(s2, "coins", 0, 0, 20)
    hand_of(s2, 0, {"wood": 2})
    play(s2, "add an action", "take blind")
    assert s2.is_chance() and len(s2.chance_outcomes()) == 9
    play(s2, "P0 draws EX-11")
    assert seat(s2, 0)["cards"] == ["EX-11"] and obs(s2)["card_row"] == ["EX-01", "EX-02", "EX-03"]


def test_advanced_cleanup_sends_the_right_most_under_the_deck_and_slides():
    s = start_round(table(advanced=True))
    play(s, "pass", "pass")
    o = obs(s)
    assert o["helper_bottom"] == ["S-03"] and o["helper_row"] == [None, "S-01", "S-02"]
    play(s, "face up S-11")
    assert obs(s)["card_bottom"] == ["EX-03"] and obs(s)["card_row"] == [None, "EX-01", "EX-02"]
    play(s, "face up EX-12")
    o = obs(s)
    assert o["helper_row"] == ["S-11", "S-01", "S-02"] and o["card_row"] == ["EX-12", "EX-01", "EX-02"]
    assert o["phase"] == "event" and o["round"] == 1


def test_advanced_cards_under_the_deck_come_back_once_the_rest_is_drawn():
    s = start_round(table(advanced=True))
    play(s, "pass", "pass", "face up S-11", "face up EX-12")   # S-03 under the deck
    for card in obs(s)["deck"]:                                # everybody else's deck: P1's hand
        setf(s, "hand", 1, int(card[2:]) - 1)
    assert obs(s)["deck_size"] == 1
    play(s, "decline E-02", "decline E-02", "draw blind")      # no chance: the known S-03
    assert "S-03" in seat(s, 0)["hand"] and obs(s)["helper_bottom"] == []


def test_advanced_determinize_keeps_rows_and_bottom():
    s = start_round(table(advanced=True))
    play(s, "pass", "pass", "face up S-11", "face up EX-12", "decline E-02", "decline E-02")
    mine = s.observation(0)
    for seed in range(10):
        d = s.determinize(0, seed)
        assert d.observation(0) == mine
        full = d.full_observation()
        hidden = set(full["deck"]) | set(full["seats"][1]["hand"])
        assert not hidden & {"S-11", "S-01", "S-02", "S-03"}


# ---------------------------------------------------------------- Solo 1: Score Attack

def score_attack():
    """Score Attack with Nukumaru on d1 (3 steps north of the Central Square)."""
    return table(players=1, solo="score_attack")


def test_solo_modes_need_one_player():
    with pytest.raises(ValueError, match="players=1"):
        boardlab.make("nukumi", players=2, solo="chasing")
    with pytest.raises(ValueError, match="solo"):
        boardlab.make("nukumi", players=1, solo="tag")


def test_score_attack_npcs_roll_and_walk_the_shortest_route_leaving_cubes():
    s = score_attack()
    assert obs(s)["npcs"] == ["d4", "d4", "d4"] and names(s)[0] == "NPC 1 die 1"
    play(s, "NPC 1 die 3")                            # 1-3: two squares
    assert obs(s)["npcs"][0] == "d2" and obs(s)["npc_cubes"] == ["d2", "d3"]
    play(s, "NPC 2 die 5")                            # 4-5: three squares: d3, d2, d1 = Nukumaru
    assert obs(s)["npcs"][1] == "d1" and obs(s)["npc_cubes"] == ["d2", "d3"]   # no cube on d1


def test_score_attack_npc_catching_mid_move_rerolls_then_walks_on():
    s = score_attack()
    play(s, "NPC 1 die 6")                            # four squares: catches Nukumaru on the third
    assert obs(s)["phase"] == "die" and obs(s)["pending"][0] == "move Nukumaru"
    play(s, "Nukumaru die 1")                         # d1 occupied by the NPC: +1 -> g2
    assert obs(s)["nukumaru"] == "g2"
    assert obs(s)["npcs"][0] == "e1"                  # the 4th step, towards g2 (d2 holds a cube)
    assert "e1" in obs(s)["npc_cubes"]


def test_score_attack_npc_catch_turns_the_start_card_face_up_again():
    s = score_attack()
    play(s, "NPC 1 die 1", "NPC 2 die 1", "NPC 3 die 1")   # all three on d2
    start_round(s)
    setf(s, "square", 0, "e1")
    hand_of(s, 0, {"networking": 1, "wood": 1})
    play(s, "move (1)", "step d1", "Nukumaru die 1", "bonus die 1")   # d1 occupied: g2
    assert obs(s)["start_face_down"] and obs(s)["nukumaru"] == "g2"
    play(s, "pass")
    play(s, "NPC 1 die 4")                            # d2 -> e2, f2, g2: caught
    assert not obs(s)["start_face_down"]
    play(s, "Nukumaru die 3")
    assert obs(s)["nukumaru"] == "g6" and seat(s, 0)["draw_size"] == 4


def test_score_attack_tied_routes_are_the_players_choice():
    s = score_attack()
    play(s, "NPC 1 die 1", "NPC 2 die 6", "Nukumaru die 1")   # NPC 2 catches at d1, Nukumaru to g2
    assert obs(s)["nukumaru"] == "g2"
    play(s, "NPC 3 die 1")                            # d4 -> 2 squares towards g2
    assert obs(s)["phase"] == "npc route" and s.current_player == 0
    assert names(s) == ["NPC 3 route e4-e3", "NPC 3 route e4-f4"]   # 2 cubes each; via d3 only 1
    play(s, "NPC 3 route e4-f4")
    assert obs(s)["npcs"][2] == "f4" and {"e4", "f4"} <= set(obs(s)["npc_cubes"])
    assert obs(s)["phase"] == "event"


def test_score_attack_cubes_block_building_and_square_bonuses():
    s = score_attack()
    play(s, "NPC 1 die 1", "NPC 2 die 1", "NPC 3 die 1")   # cubes on d3, d2
    start_round(s)
    setf(s, "square", 0, "d3")
    hand_of(s, 0, {"wood": 1, "food": 1})
    assert "build stall" not in names(s)


def finish(s):
    while not s.is_terminal():
        options = names(s)
        if s.is_chance():
            play(s, options[0])
        else:
            play(s, next((o for o in options if o.startswith(("decline", "pass"))), options[0]))
    return s


@pytest.mark.parametrize("coins, title", [(0, "Apprentice Pioneer"), (100, "Common Pioneer"),
                                          (130, "Famous Pioneer"), (150, "Nukumi Town Pioneer"),
                                          (199, "National Pioneer"), (200, "World Famous Pioneer")])
def test_score_attack_result_and_title(coins, title):
    s = score_attack()
    play(s, "NPC 1 die 1", "NPC 2 die 1", "NPC 3 die 1")
    start_round(s)
    finish(s)
    base = seat(s, 0)["score"]["total"] - seat(s, 0)["coins"]
    setf(s, "coins", 0, 0, max(0, coins - base))
    result = obs(s)["result"]
    assert result["score"] == seat(s, 0)["score"]["total"] and result["title"] == title
    assert len(obs(s)["round_cards"]) == 5 and obs(s)["round"] == 5


# ---------------------------------------------------------------- Solo 2: Chasing Nukumaru

NEXT_TO = {"d1": "d2", "g2": "f2", "g6": "f6", "d7": "d6", "a6": "b6", "a2": "b2"}


def test_chasing_cubes_on_caught_squares_skip_and_clear():
    s = start_round(table(players=1, solo="chasing"))
    setf(s, "coins", 0, 0, 99)
    caught = []
    while not s.is_terminal():
        at = obs(s)["nukumaru"]
        setf(s, "square", 0, NEXT_TO[at])
        play(s, "pay 3 coins to move", f"step {at}")
        caught.append(at)
        if s.is_terminal():
            break
        play(s, "Nukumaru die 1", "bonus die 5")      # always rolls 1: every cubed square skipped
        assert set(obs(s)["nukumaru_cubes"]) == set(caught)
        assert obs(s)["nukumaru"] not in caught
    assert caught == ["d1", "g2", "g6", "d7", "a6", "a2"]
    assert obs(s)["result"] == {"cleared_round": 1, "title": "World Best!"}
    assert s.returns()[0] == 1.0


def test_score_attack_returns_are_linear_in_the_score():
    """0 points -1, 150 (the table's middle) 0, 300 +1: every 10 points count the same
    (a squash around 150 left the search unable to tell low scores apart)."""
    s = score_attack()
    play(s, "NPC 1 die 1", "NPC 2 die 1", "NPC 3 die 1")
    start_round(s)
    finish(s)
    base = seat(s, 0)["score"]["total"] - seat(s, 0)["coins"]
    for total, value in ((base + 30, (base + 30 - 150) / 150), (200, 50 / 150), (450, 1.0)):
        setf(s, "coins", 0, 0, total - base)
        assert s.returns()[0] == pytest.approx(value)


def test_chasing_not_cleared_after_five_rounds():
    s = finish(table(players=1, solo="chasing"))
    assert obs(s)["result"] == {"cleared_round": None, "title": "Try Harder Next Time!"}
    assert s.returns()[0] == -1.0
