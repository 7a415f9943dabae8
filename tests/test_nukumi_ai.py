"""The Nukumi search's rollout policy (kernel/nukumi/policy.c): in the building
game (1 to 4 players) it builds when it can and seldom passes, sells or wanders;
in Chasing Nukumaru it is the search's uniform choice. And the solo leaf value
(kernel/nukumi/eval.c): what the bag can build in a later round."""
from collections import Counter

from boardlab import _nukumi_scenario
from boardlab.agents import GreedyAgent
from boardlab.games.nukumi import DATA
from nukumi_table import hand_of, names, play, setf, start_round, table


def picks(s, n=400):
    """How often the rollout policy picks each move (by name) over n streams."""
    legal = dict(zip(s.legal_actions(), names(s)))
    return Counter(legal[_nukumi_scenario.rollout_action(s, seed)] for seed in range(n))


def building_turn(**kw):
    """Score Attack (or another table), round 1, P0's turn on the free square e5
    with 2 stone, 1 wood and 1 food drawn: a Public Bath or a Stall could go up."""
    s = table(**kw)
    if kw.get("solo") == "score_attack":
        play(s, "NPC 1 die 1", "NPC 2 die 1", "NPC 3 die 1")
    start_round(s)
    setf(s, "square", 0, "e5")
    hand_of(s, 0, {"stone": 2, "wood": 1, "food": 1})
    return s


def test_score_attack_rollouts_build_when_they_can():
    s = building_turn(players=1, solo="score_attack")
    assert {"build public bath", "build stall", "pass", "sell stone"} <= set(names(s))
    got = picks(s)
    builds = got["build public bath"] + got["build stall"]
    assert builds >= 0.6 * 400                       # uniform: 2 of ~15 moves
    assert got["build public bath"] > got["build stall"]   # the bigger building first
    assert got["pass"] + sum(v for k, v in got.items() if k.startswith("sell")) <= 0.05 * 400


def test_score_attack_rollouts_seldom_pass_or_sell_and_step_to_free_squares():
    s = building_turn(players=1, solo="score_attack")
    setf(s, "square", 0, "d4")                       # the Central Square: no building here
    got = picks(s)
    assert got["pass"] + sum(v for k, v in got.items() if k.startswith("sell")) <= 0.02 * 400
    play(s, "move (1)")                              # paid with the food: d3 holds an NPC cube
    assert {"step d3", "step c4", "step e4", "step d5"} <= set(names(s))
    got = picks(s)
    assert got["step d3"] * 3 < min(got["step c4"], got["step e4"], got["step d5"])


def test_multiplayer_rollouts_build_when_they_can_and_seldom_sell():
    """Uniform rollouts with 2-4 players wasted the round's resources, so the search sold
    them right after its action; the building policy plays there too."""
    s = building_turn(players=2)
    got = picks(s)
    assert got["build public bath"] + got["build stall"] >= 0.6 * 400
    assert got["pass"] + sum(v for k, v in got.items() if k.startswith("sell")) <= 0.05 * 400


def test_chasing_rollouts_stay_uniform():
    s = building_turn(players=1, solo="chasing")
    got = picks(s, 2000)
    share = 2000 / len(names(s))
    assert set(got) == set(names(s))
    assert all(0.6 * share <= v <= 1.4 * share for v in got.values())


def after_the_action():
    """2 players: P0 has just built a Public Bath on e5 (round 1) and holds a wood, a food,
    a Helper and 6 Coins: free actions or `end turn`."""
    s = building_turn(players=2)
    setf(s, "coins", 0, 0, 6)
    play(s, "build public bath")
    assert s.observation(0)["phase"] == "end of turn"
    return s


def test_rollouts_after_the_action_usually_end_the_turn():
    """A free action can wait for the next turn's start; uniform choices after the action
    would sell the round's resources one by one (multiplayer rollouts stay uniform elsewhere)."""
    s = after_the_action()
    assert {"end turn", "sell wood", "sell food", "pay 3 coins to move"} <= set(names(s))
    got = picks(s)
    assert got["end turn"] >= 0.8 * 400, got
    assert len(got) > 1                              # still random: a free action now and then


def test_greedy_ends_the_turn_rather_than_selling_and_sells_rather_than_passing():
    """The heuristic values a drawn resource a little above a Coin while the seat is in the
    round (an action may still use it) and at nothing once it has passed: one ply then
    keeps the resources after the action and sells them instead of passing."""
    s = after_the_action()
    values = GreedyAgent(determinizations=1).action_values(s)
    by_name = {s.action_to_string(a): v for a, v in values.items()}
    assert by_name["end turn"] > by_name["sell wood"]
    s = building_turn(players=2)
    hand_of(s, 0, {"food": 1})                       # nothing but a sale or a pass left
    setf(s, "square", 0, "d4")
    values = GreedyAgent(determinizations=1).action_values(s)
    by_name = {s.action_to_string(a): v for a, v in values.items()}
    assert by_name["sell food"] > by_name["pass"]


def test_score_attack_heuristic_values_what_the_bag_can_build():
    """Three gold in a thin bag are a likely Palace in a later round while one
    is left in supply; with none left, or with the gold lost among food, the
    position is worth less. (A value per resource sees none of this.)"""
    s = building_turn(players=1, solo="score_attack")
    for r, n in {"stone": 0, "wood": 0, "networking": 0, "food": 1, "gold": 3}.items():
        setf(s, "bag", 0, r, n)
    thin = s.evaluate()[0]
    setf(s, "bag", 0, "food", 12)
    diluted = s.evaluate()[0]
    setf(s, "bag", 0, "food", 1)
    assert s.evaluate()[0] == thin
    palace = [b["name"] for b in DATA["buildings"]].index("nukumi palace")
    setf(s, "buildings_left", 0, palace, 0)
    no_palace = s.evaluate()[0]
    points = 150                                     # the solo value: 0 -> -1, 300 -> +1
    assert (thin - no_palace) * points > 3, (thin, no_palace)
    assert (thin - diluted) * points > 3, (thin, diluted)
