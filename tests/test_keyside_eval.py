"""Keyside's search heuristic in the solo game: a win probability that sees
progress toward the drawn beacons, not only points."""
import numpy as np

from boardlab.search import ismcts
from conftest import play_random
from keyside_table import play, setv, table


def solo_start(beacons, **params):
    s = table(1, beacons=beacons, **params)
    play(s, "Keytoma's dice strip 1 light side")
    return s


def value(s, **goods):
    s = s.clone()
    for good, n in goods.items():
        setv(s, 0, "good", good, n)
    return s.evaluate()[0]


def test_solo_value_counts_progress_toward_the_drawn_beacon():
    # B3 (10 fish) drawn: 5 fish is half of it; 5 stone is the same goods count for no beacon.
    s = solo_start(("A2", "B3", "C1"))
    assert value(s, fish=5) > value(s, stone=5)
    # B6 (9 gems) drawn instead (and C2, whose tiles 8 and 9 count neither): now fish are just goods again.
    s = solo_start(("A2", "B6", "C2"))
    assert abs(value(s, fish=5) - value(s, stone=5)) < 1e-9
    assert value(s, emerald=3, ruby=2) > value(s, fish=5)


def test_solo_value_is_a_probability_not_pinned_at_a_loss():
    s = solo_start(("A2", "B3", "C1"))
    base, lit = value(s), value(s, fish=10)   # B3 lit
    assert -1 < base < lit < 1
    assert value(s, fish=10, sheep=12) > lit  # and points on top


def keyples_at(s, where, n):
    s = s.clone()
    setv(s, 0, "keyples", where, n)
    return s.evaluate()[0]


def test_solo_value_sees_keyples_placed_for_a_harbour_pair_beacon_before_it_scores():
    # C3: 35 points from scoring tiles 1 and 2 (here on H1 and H2). Two keyples on H1 score
    # nothing yet (no sheep), nor do two on H5 (no fish): only the first is a step toward C3.
    s = solo_start(("A2", "B3", "C3"))
    assert keyples_at(s, "H1", 2) > keyples_at(s, "H5", 2)
    # C5 (tiles 3 and 11) drawn instead: H1 is nothing special.
    s = solo_start(("A2", "B3", "C5"))
    assert abs(keyples_at(s, "H1", 2) - keyples_at(s, "H5", 2)) < 1e-9


def test_solo_value_sees_keyples_in_coloured_markets_for_the_skill_number_beacon():
    # B2: 4 skill tiles of one number, all 3 beacons to light. Tiles come from the market of
    # their colour, so a keyple in the blue market (M1) is a step toward it before any tile
    # is taken; the grey market (M5) gives no tiles.
    s = solo_start(("A2", "B2", "C1"), solo_all_beacons=True)
    assert keyples_at(s, "M1", 1) > keyples_at(s, "M5", 1)
    # B6 (9 gems) drawn instead: the two markets are alike.
    s = solo_start(("A2", "B6", "C1"), solo_all_beacons=True)
    assert abs(keyples_at(s, "M1", 1) - keyples_at(s, "M5", 1)) < 1e-9
    # With 2 of 3 beacons enough, B2 is the one to give up: only tiles held count.
    s = solo_start(("A2", "B2", "C1"))
    assert abs(keyples_at(s, "M1", 1) - keyples_at(s, "M5", 1)) < 1e-9


def test_solo_value_sees_a_full_value_harbour_for_the_multiplier_beacon():
    # C1: two harbours paying 12 a keyple with a keyple. 12 fish (tile 5 at its 12 per keyple)
    # is a step toward it even before a keyple stands there; 12 stone only half fills tile 7
    # ((stone + wood) / 2 per keyple).
    s = solo_start(("A2", "B6", "C1"))
    assert value(s, fish=12) > value(s, stone=12)
    # Black 3 pays at most 8 a keyple (4 cows): never one of C1's harbours, so its 4 cows are a
    # smaller step than 4 sheep, a third of black 1's 12.
    assert value(s, sheep=4) > value(s, cow=4)


def to_the_end(s, seed=0):
    """Random play (conftest's) from s to the end: the decisions on the way, and the end."""
    decisions = []

    def keep(x):
        if not x.is_chance() and not x.is_terminal():
            decisions.append(x.clone())

    end = play_random(s.clone(), np.random.default_rng(seed), check=keep)
    return decisions, end


def won_lit(s):
    o = s.full_observation()
    return o["won"], [b["lit"] for b in o["beacons"]], o["seats"][0]["score"]["total"]


def test_a_lost_solo_game_is_graded_by_how_near_it_came_a_won_one_is_not():
    _, end = to_the_end(solo_start(("A6", "B6", "C2")))
    assert won_lit(end)[0] is False and end.returns()[0] == -1
    lost = end.evaluate()[0]
    assert -1 < lost <= -0.5
    nearer = end.clone()
    for gem in ("emerald", "ruby", "sapphire"):   # B6 (9 gems) lit: one beacon, still lost
        setv(nearer, 0, "good", gem, 3)
    assert won_lit(nearer)[:2] == (False, [False, True, False]) and nearer.returns()[0] == -1
    assert lost < nearer.evaluate()[0] <= -0.5
    won = nearer.clone()
    for h in range(1, 13):                        # A6 (keyples in 9 harbours) lit too
        setv(won, 0, "keyples", f"H{h}", 2)
    for good in ("cow", "pig", "sheep", "fish", "stone", "wheat", "wood"):
        setv(won, 0, "good", good, 12)
    assert won_lit(won)[0] is True and won_lit(won)[2] >= 120
    assert won.returns()[0] == 1 and won.evaluate()[0] == 1


def test_the_search_backs_up_the_graded_loss_when_every_line_loses():
    # A few decisions before the end of a game random play lost on 20-odd points: every line
    # loses, and with win/loss alone each move was worth -1 (the search chose blind).
    decisions, end = to_the_end(solo_start(("A6", "B6", "C2")))
    assert won_lit(end)[0] is False and won_lit(end)[2] < 60
    last_choice = [d for d in decisions if len(d.legal_actions()) >= 4][-1]
    result = ismcts(last_choice, iterations=400, seed=1, rollout_depth=-1)
    means = [st["mean"] for st in result.stats]
    assert all(-1 < m <= -0.5 for m in means) and max(means) > min(means)


# ---------------------------------------------------------------- the new decisions, for the AI

def test_rollouts_and_greedy_take_the_most_keyples_and_pay_from_the_barn():
    """Rollouts (kernel/keyside/eval.c ks_rollout_action) pick the most keyples to transfer and
    the barn's animal at a market, where a random pick would mostly waste what the rules give;
    the one-ply heuristic (Greedy) prefers the same. Elsewhere they stay random."""
    from boardlab import _keyside_scenario
    from boardlab.agents import GreedyAgent
    from keyside_table import names

    def rollout_picks(s, n=40):
        legal = list(s.legal_actions())
        return {s.action_to_string(_keyside_scenario.rollout_action(s, seed)) for seed in range(n)} \
            if legal else set()

    s = table(2)
    play(s, "red 3 to mat", "red 1 left")
    assert names(s) == ["pass", "transfer 1 keyple to the town", "transfer 2 keyples to the town"]
    assert rollout_picks(s) == {"transfer 2 keyples to the town"}
    assert s.action_to_string(GreedyAgent(seed=1).step(s)) == "transfer 2 keyples to the town"
    s = table(2)
    setv(s, 0, "keyples", "M1", 1)            # blue market, flipped to pig -> 2 fish
    setv(s, 0, "level", "blue", 1)
    setv(s, 0, "good", "fish", 1)
    setv(s, 0, "good", "pig", 1)
    setv(s, 0, "owner", 1, 1)                 # P0 owns farm 1 (R2), a pig on icon 1
    setv(s, 0, "keyples", "R2", 1)
    setv(s, 0, "farm_animal", 0, 1)
    play(s, "pay fish: flip market M1 (blue)", "blue 4 to mat", "blue 2 right", "activate market M1 (blue)",
         "market blue: pig->2 fish")
    assert names(s) == ["pay pig from the barn", "pay pig from farm 1 icon 1 (wheat)"]
    assert rollout_picks(s) == {"pay pig from the barn"}
    s = table(2)
    assert len(rollout_picks(s)) > 3            # a landing turn: random
