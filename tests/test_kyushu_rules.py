"""Scenario tests: one or more per rule of shared/rules/kyushu.txt (and per
choice documented in docs/kyushu.md)."""
import hashlib
import json

import numpy as np
import pytest

import boardlab
from boardlab.agents import ISMCTSAgent, RandomAgent
from kyushu_table import cell, names, obs, paint, play, positions, scores, table

KYUSHU_DATA = json.loads((__import__("importlib.resources").resources.files("boardlab")
                          .joinpath("data/kyushu.json")).read_text())


def random_step(s, rng):
    if s.is_chance():
        acts, probs = zip(*s.chance_outcomes())
        s.apply(int(rng.choice(acts, p=np.array(probs) / sum(probs))))
    else:
        s.apply(int(rng.choice(s.legal_actions())))


def play_until(s, rng, cond, limit=5000):
    for _ in range(limit):
        if cond(s):
            return s
        assert not s.is_terminal(), "condition never met"
        random_step(s, rng)
    raise AssertionError("condition never met")


def to_map_phase(s, p0_take="take 1 from own box", p0_replace="replace with 2",
                 p1_take="take 11 from own box", p1_replace="replace with 12"):
    """2p: both players take their own box; P0 is then first in the Map phase."""
    play(s, p0_take, p0_replace, p1_take, p1_replace)
    assert s.current_player == 0 and obs(s)["phase"] == "map"
    return s


# ---------------------------------------------------------------- components, setup

def test_data_file_components_and_stand_ins():
    cards = KYUSHU_DATA["map_cards"]
    assert cards["stand_in"] is True and len(cards["cards"]) == 60
    assert KYUSHU_DATA["starting_provinces"]["stand_in"] is True
    assert len(KYUSHU_DATA["starting_provinces"]["cards"]) == 6
    assert len(KYUSHU_DATA["most_fewest_cards"]["cards"]) == 8
    squares = [sq for c in cards["cards"] for row in c["squares"] for sq in row]
    for kind in ("forest", "fallow", "lake", "hot_spring", "town"):
        assert kind in squares
    for colour in ("blue", "brown", "grey", "purple"):
        assert f"production:{colour}" in squares and f"factory:{colour}" in squares
    duals = [(c, d) for c in cards["cards"] for d in c["duals"]]
    flat = lambda c: c["squares"][0] + c["squares"][1]  # noqa: E731
    assert any(flat(c)[i] == flat(c)[j] for c, (i, j) in duals)      # dual of one colour
    assert any(flat(c)[i] != flat(c)[j] for c, (i, j) in duals)      # dual of two colours


def test_pool_of_56_resources_and_setup_resources():
    s = boardlab.make("kyushu", players=3).new_initial_state()
    assert obs(s)["pool"] == {"blue": 14, "brown": 14, "grey": 14, "purple": 14}
    s = table(3)
    # Provinces 1A, 2A, 3A: 1A has blue+brown, 2A grey+purple, 3A purple+blue production.
    assert obs(s)["pool"] == {"blue": 12, "brown": 13, "grey": 13, "purple": 12}
    for seat in range(3):
        prods = [c for c in obs(s)["maps"][seat]["cells"] if c["terrain"] == "production"]
        assert prods and all(c["resource"] == c["colour"] for c in prods)


def test_starting_provinces_are_dealt_by_chance_one_per_player():
    s = boardlab.make("kyushu", players=4, side="B").new_initial_state()
    assert s.is_chance() and len(s.chance_outcomes()) == 6
    assert s.action_to_string(s.chance_outcomes()[0][0]) == "offer province 1B"
    for k in (2, 5, 6, 1):
        s.apply_string(f"offer province {k}B")
    assert [p["province"] for p in obs(s)["provinces_offered"]] == ["S1B", "S2B", "S5B", "S6B"]
    assert obs(s)["phase"] == "deal"
    assert len(s.chance_outcomes()) == 60


def test_side_b_uses_the_b_faces():
    s = table(2, side="B", offer=[4, 1], provinces={0: 4, 1: 1})
    squares = KYUSHU_DATA["starting_provinces"]["cards"][3]["B"]["squares"]
    assert cell(s, 0, "o16")["terrain"] == "production" and squares[0][0] == "production:grey"
    assert cell(s, 0, "q17")["factory_value"] == 3       # B side: a dual factory of two colours


def test_province_selection_order_and_first_pick_box():
    s = boardlab.make("kyushu", players=4).new_initial_state()
    for k in (1, 2, 3, 4):
        s.apply_string(f"offer province {k}A")
    for i in range(6):
        for p in range(4):
            s.apply_string(f"deal {10 * p + i + 1} to P{p}")
    # From the first player's right (P3), counter-clockwise: P3, P2, P1, P0.
    for p in (3, 2, 1, 0):
        assert s.current_player == p and obs(s)["phase"] == "province"
        assert len(s.legal_actions()) == 4 - (3 - p)
        s.apply(int(s.legal_actions()[0]))
        assert obs(s)["phase"] == "first_box"
        s.apply_string(f"pick box {10 * p + 3}")
    o = obs(s)
    assert [b["card"] for b in o["pick_boxes"]] == [3, 13, 23, 33]
    assert o["hand_sizes"] == [5, 5, 5, 5] and o["round"] == 1 and o["phase"] == "select"
    assert s.current_player == 0
    assert o["maps"][3]["province"] == "S1A" and o["maps"][0]["province"] == "S4A"


def test_two_player_middle_boxes_from_the_draw_pile():
    s = table(2, middles=(40, 50))
    boxes = obs(s)["pick_boxes"]
    assert [(b["label"], b["card"]) for b in boxes] == [("P0", 1), ("P1", 11), ("left of P0", 50),
                                                         ("right of P0", 40)]
    assert obs(s)["draw_pile_size"] == 60 - 12 - 2


# ---------------------------------------------------------------- selection

H4 = {0: [10, 5, 25, 45, 50, 55], 1: [20, 21, 22, 23, 24, 26], 2: [30, 31, 32, 33, 34, 35],
      3: [40, 41, 42, 43, 44, 46]}


def test_selection_four_options_three_to_five_players():
    s = table(4, hands=H4)
    assert names(s) == ["take 10 from own box", "take 20 from left box", "take 40 from right box",
                        "pay to take 10 from own box", "pay to take 20 from P1's box",
                        "pay to take 30 from P2's box", "pay to take 40 from P3's box"]
    # Left box: the replacement must be higher than the card taken.
    t = play(s.clone(), "take 20 from left box")
    assert names(t) == ["replace with 25", "replace with 45", "replace with 50", "replace with 55"]
    # Right box: lower.
    t = play(s.clone(), "take 40 from right box")
    assert names(t) == ["replace with 5", "replace with 25"]
    # Own box: any card.
    t = play(s.clone(), "take 10 from own box")
    assert len(names(t)) == 5
    play(t, "replace with 50")
    o = obs(t)
    assert o["selected"][0] == 10 and o["pick_boxes"][0]["card"] == 50 and 50 not in o["hands"][0]
    assert t.current_player == 1                      # clockwise
    # P1 holds nothing above P2's 30 nor below P0's 50? (below 50: yes) -> right box free.
    assert "take 50 from right box" in names(t) and "take 30 from left box" not in names(t)


def test_selection_by_discarding_a_resource_from_any_box():
    s = table(4, hands=H4)
    before = obs(s)["pool"]["blue"]
    play(s, "pay to take 30 from P2's box")
    assert obs(s)["phase"] == "pay"
    assert names(s) == ["pay blue at o16", "pay brown at p17"]
    play(s, "pay blue at o16")
    assert obs(s)["pool"]["blue"] == before + 1 and cell(s, 0, "o16")["resource"] is None
    assert len(names(s)) == 5                          # any card from hand
    play(s, "replace with 5")
    assert obs(s)["selected"][0] == 30 and obs(s)["pick_boxes"][2]["card"] == 5


def test_paid_option_needs_a_resource():
    s = table(4, hands=H4)
    from kyushu_table import paint as _paint
    _paint(s, 0, ["F F"], top=15, left=14)
    assert not any(m.startswith("pay") for m in names(s))


def test_two_player_selection_rules():
    s = table(2, hands={0: [10, 5, 25, 45, 50, 55], 1: [20, 21, 22, 23, 24, 26]}, middles=(40, 30))
    # P0: left middle box = the card to P0's left (30), right middle = 40. P1's box only by paying.
    assert names(s) == ["take 10 from own box", "take 30 from left box", "take 40 from right box",
                        "pay to take 10 from own box", "pay to take 20 from P1's box",
                        "pay to take 30 from middle box left of P0", "pay to take 40 from middle box right of P0"]
    play(s, "take 40 from right box", "replace with 25")
    # For P1 the box right of P0 (now 25) is on P1's left, the other (30) on its right.
    assert names(s) == ["take 20 from own box", "take 30 from right box", "take 25 from left box",
                        "pay to take 10 from P0's box", "pay to take 20 from own box",
                        "pay to take 30 from middle box left of P0", "pay to take 25 from middle box right of P0"]


def test_final_round_own_box_and_new_hands_after_round_six():
    for players in (2, 4):
        s = table(players)
        rng = np.random.default_rng(players)
        play_until(s, rng, lambda t: obs(t)["round"] == 5 and obs(t)["phase"] == "map")
        boxes = [b["card"] for b in obs(s)["pick_boxes"]][:players]
        play_until(s, rng, lambda t: obs(t)["round"] == 6)
        o = obs(s)
        assert o["phase"] == "map" and o["selected"] == boxes            # taken automatically
        assert o["hand_sizes"] == [0] * players
        middle = [b["card"] for b in o["pick_boxes"]][players:]
        play_until(s, rng, lambda t: obs(t)["phase"] == "first_box")
        o = obs(s)
        assert o["hand_sizes"] == [6] * players and s.current_player == players - 1
        if players == 2:                                                  # middle boxes replaced
            assert sorted(o["discarded"]) == sorted(middle)
            assert all(b["card"] is not None and b["card"] not in middle for b in o["pick_boxes"][2:])
        for p in reversed(range(players)):
            s.apply(int(s.legal_actions()[0]))
        assert obs(s)["round"] == 7 and obs(s)["phase"] == "select" and obs(s)["hand_sizes"] == [5] * players


def test_twelve_rounds_then_the_end():
    s = table(5)
    rng = np.random.default_rng(3)
    while not s.is_terminal():
        random_step(s, rng)
    o = obs(s)
    assert o["round"] == 12 and o["phase"] == "over" and o["draw_pile_size"] == 0   # 5p use all 60
    assert all(len(m["cards"]) == 13 for m in o["maps"])


# ---------------------------------------------------------------- placement

def card3_table():
    """2p: P0 (province 1A: lake at o17) is to place card 3 (lakes on its top middle and right)."""
    return to_map_phase(table(2, boxes={0: 3, 1: 11}), "take 3 from own box", "replace with 1")


def test_orientations_layers_and_notation():
    s = card3_table()
    assert [m for m in names(s) if m.startswith("orient")] == [
        f"orient 3 {o} {layer}" for o in ("horizontal", "vertical", "horizontal turned", "vertical turned")
        for layer in ("over", "under")]
    play(s, "orient 3 vertical under")
    assert "place 3 vertical at q14 under" in names(s)


def test_illegal_placements():
    s = card3_table()
    over, under = positions(s, "horizontal", "over"), positions(s, "horizontal", "under")
    assert "o15" in over and "p17" in over
    assert "a1" not in over | under and "o20" not in over | under      # no overlap
    assert "o16" not in over and "m17" not in over                   # would cover the lake at o17
    assert "o16" not in under                                        # fully hidden
    assert "m16" not in under                                        # its own lake would be hidden
    assert "n15" in under
    for orient in ("horizontal", "vertical", "horizontal turned", "vertical turned"):
        for layer in ("over", "under"):
            for name in positions(s, orient, layer):   # every legal spot touches the map
                col = ord(name[0]) - ord("a")
                row = int(name[1:]) - 1
                assert 15 - 3 < row <= 16 and 14 - 3 < col <= 16


def test_placing_over_returns_covered_resources_and_fills_new_production():
    s = card3_table()
    pool = obs(s)["pool"]
    play(s, "orient 3 horizontal over", "place 3 horizontal at o15 over")
    o = obs(s)
    assert cell(s, 0, "o16")["terrain"] == "factory"                 # covered production square...
    assert o["pool"]["blue"] == pool["blue"] + 1                      # ...its resource back to the pool
    assert cell(s, 0, "q16")["resource"] == "purple" and o["pool"]["purple"] == pool["purple"] - 1
    assert cell(s, 0, "p15")["terrain"] == "lake" and cell(s, 0, "p15")["card"] == 3


def test_placing_under_only_visible_squares_count():
    s = card3_table()
    pool = obs(s)["pool"]
    play(s, "orient 3 horizontal under", "place 3 horizontal at n15 under")
    assert cell(s, 0, "p16")["terrain"] == "forest"                  # the province stays on top
    assert cell(s, 0, "n16")["terrain"] == "factory"                 # the visible part shows
    assert cell(s, 0, "o15")["terrain"] == "lake"
    assert obs(s)["pool"] == pool                                    # its production square is hidden
    cards = obs(s)["maps"][0]["cards"]
    assert cards[1]["z"] < cards[0]["z"]


def test_resource_pool_exhaustion():
    s = card3_table()
    # P1's map soaks up every purple resource left.
    left = obs(s)["pool"]["purple"] + 1    # P1's province 2A holds one, returned on clearing
    paint(s, 1, [" ".join(["Pp*"] * left)], top=10, left=2)
    assert obs(s)["pool"]["purple"] == 0
    play(s, "orient 3 horizontal over", "place 3 horizontal at o15 over")
    assert cell(s, 0, "q16")["terrain"] == "production" and cell(s, 0, "q16")["resource"] is None
    assert obs(s)["pool"]["purple"] == 0


def test_resources_are_conserved():
    for players in (2, 5):
        s = table(players, travelers=True, most_fewest=[(k + 1, "most") for k in range(players)])
        rng = np.random.default_rng(7)
        while not s.is_terminal():
            o = obs(s)
            on_maps = sum(1 for m in o["maps"] for c in m["cells"] if c["resource"])
            assert on_maps + sum(o["pool"].values()) - sum(o["overdrawn"].values()) == 56
            seen = obs(s, s.current_player if s.current_player >= 0 else 0)
            assert sum(1 for m in seen["maps"] for c in m["cells"] if c["resource"]) \
                + sum(seen["pool"].values()) == 56 and not any(seen["overdrawn"].values())
            random_step(s, rng)


def test_placements_are_hidden_until_everyone_has_placed():
    s = card3_table()
    before = obs(s, 1)["maps"][0]
    play(s, "orient 3 horizontal over", "place 3 horizontal at o15 over")
    if s.current_player == 0:
        play(s, "end turn")
    assert s.current_player == 1
    assert obs(s, 1)["maps"][0] == before                            # P1 still sees the old map
    assert obs(s, 1)["scores"][0] == scores(s.clone().determinize(0, 1), 1)[0]
    assert len(obs(s, 0)["maps"][0]["cards"]) == 2                   # P0 sees its own card
    assert obs(s, 1)["phase"] == "map" and obs(s, 1)["unrevealed"]
    # P1's guesses about P0's placement vary; its own view stays the same.
    seen = {json.dumps(s.determinize(1, k).full_observation()["maps"][0]) for k in range(10)}
    assert len(seen) > 1
    while s.current_player == 1:
        s.apply(int(s.legal_actions()[0]))
    assert len(obs(s, 1)["maps"][0]["cards"]) == 2                   # revealed


# ---------------------------------------------------------------- terraforming

def fallow_table():
    """2p: P0 on province 4A (brown and grey production, a Fallow at p17, a lake at q17)."""
    return to_map_phase(table(2, offer=[4, 1], provinces={0: 4, 1: 1}))


def test_terraform_before_placing():
    s = fallow_table()
    assert "terraform" in names(s)
    pool = obs(s)["pool"]
    play(s, "terraform")
    assert names(s) == ["discard brown at p16", "discard grey at o17"]
    play(s, "discard brown at p16", "discard grey at o17")
    assert names(s) == ["choose brown (town tile)", "choose grey (forest tile)"]
    play(s, "choose grey (forest tile)")
    assert names(s) == ["forest tile at p17"]
    play(s, "forest tile at p17")
    c = cell(s, 0, "p17")
    assert c["terrain"] == "forest" and c["tile"]
    assert obs(s)["pool"]["brown"] == pool["brown"] + 1 and obs(s)["pool"]["grey"] == pool["grey"] + 1
    assert scores(s)[0]["forests"] == 4 and scores(s)[0]["fallows"] == 0
    assert "terraform" not in names(s)                               # once per Map phase
    assert all(m.startswith("orient") for m in names(s))


def test_terraform_after_placing_then_the_turn_ends():
    s = fallow_table()
    play(s, "orient 1 horizontal over", "place 1 horizontal at o15 over")
    assert names(s) == ["terraform", "end turn"]
    play(s, "terraform", "discard blue at q15", "discard grey at o17",
         "choose blue (lake tile)", "lake tile at p16")
    assert s.current_player == 1 and cell(s, 0, "p16")["terrain"] == "lake"


def test_terraform_needs_two_resources_and_a_fallow():
    s = table(2)
    paint(s, 0, ["W Pb* F", "F F F"], top=15, left=14)               # one resource only
    assert "terraform" not in names(to_map_phase(s))
    s = table(2)
    paint(s, 0, ["T Pb* Pb*", "F F F"], top=15, left=14)             # no Fallow
    assert "terraform" not in names(to_map_phase(s))
    s = table(2)
    paint(s, 0, ["W Pb* Pb*", "F F F"], top=15, left=14)
    to_map_phase(s)
    play(s, "terraform", "discard blue at p16", "discard blue at q16")
    assert names(s) == ["lake tile at o16"]                          # same colour: no choice


def test_lake_tiles_are_never_covered_other_tiles_return_to_the_pool():
    s = table(2)
    paint(s, 0, ["W Pb* Pb* T+", "F F F F"], top=15, left=14)
    to_map_phase(s)
    play(s, "terraform", "discard blue at p16", "discard blue at q16", "lake tile at o16")
    assert cell(s, 0, "o16")["terrain"] == "lake" and obs(s)["scores"][0]["most_metrics"][6] == 2
    over = positions(s, "horizontal", "over")
    assert over and not any(name in over for name in ("m15", "n15", "o15", "m16", "n16", "o16"))
    # Cover the town tile at r16: it goes back, the new card shows.
    play(s, "orient 1 horizontal over", "place 1 horizontal at r15 over")
    assert not cell(s, 0, "r16")["tile"] and obs(s)["scores"][0]["most_metrics"][6] == 1


# ---------------------------------------------------------------- scoring

EXAMPLE = ["F F F H T T T",
           "F F F F W L .",
           "F F Xb4 Xb4 Xg2 Xr2 .",
           "Pb* Pb* Pg* Pr* . . ."]


def test_rulebook_example_score():
    s = paint(table(2), 0, EXAMPLE)
    sc = scores(s)[0]
    assert (sc["hot_springs"], sc["forests"], sc["towns"], sc["lakes"], sc["factories"]) == (3, 18, 3, 0, 12)
    assert sc["total"] == 36


def test_hot_springs_count_orthogonal_and_diagonal_forests_shared():
    s = paint(table(2), 0, ["F . F",
                            "H F H",
                            "F . ."])
    assert scores(s)[0]["hot_springs"] == 3 + 2    # left: F above, F diag, F below-ish; right: 2


def test_lakes_first_square_zero_then_three_each():
    s = paint(table(2), 0, ["L L L . L",
                            ". . L . .",
                            "L . . . L"])
    # areas of 4, 1, 1, 1 -> 3 * 3
    assert scores(s)[0]["lakes"] == 9


def test_only_the_largest_town_area_scores():
    s = paint(table(2), 0, ["T T . T",
                            ". T . T",
                            "T . . T"])
    assert scores(s)[0]["towns"] == 3


def test_factories_values_matching_resources_best_assignment():
    s = paint(table(2), 0, ["Xb2 Xb3 Xb4 Xg2",
                            "Pb* . . Pr*",
                            "H*b . . ."])
    # two blue resources (one on a hot spring): the 4 and the 3; grey has none; brown has no factory.
    assert scores(s)[0]["factories"] == 7
    assert scores(s)[0]["most_metrics"][7] == 2 and scores(s)[0]["fewest_metrics"][7] == 1


def test_dual_factory_half_covered_keeps_its_printed_value():
    # Card 7: a grey dual factory of one colour (4 points a square) on its top-left pair.
    s = table(2, hands={0: [7, 1, 2, 3, 4, 5], 1: [11, 12, 13, 14, 15, 16]})
    to_map_phase(s, "take 7 from own box", "replace with 1")
    play(s, "orient 7 horizontal over", "place 7 horizontal at o15 over")
    assert cell(s, 0, "o15")["factory_value"] == 4 and cell(s, 0, "p15")["factory_value"] == 4
    if s.current_player == 0:
        play(s, "end turn")
    while s.current_player == 1:
        s.apply(int(s.legal_actions()[-1]))
    # Round 2: P0 puts card 1 over the right half of the dual factory.
    play(s, "take 1 from own box", "replace with 2")
    while s.current_player == 1:
        s.apply(int(s.legal_actions()[0]))
    assert "p13" in positions(s, "vertical", "over")
    play(s, "orient 1 vertical over", "place 1 vertical at p13 over")
    assert cell(s, 0, "p15")["card"] == 1 and cell(s, 0, "p15")["factory_value"] == 2
    left = cell(s, 0, "o15")
    assert left["card"] == 7 and left["terrain"] == "factory" and left["factory_value"] == 4


def test_returns_rank_with_the_fallow_tie_break():
    s = table(3)
    rng = np.random.default_rng(1)
    while not s.is_terminal():
        random_step(s, rng)
    paint(s, 0, ["F F W"])
    paint(s, 1, ["F F W W"])
    paint(s, 2, ["F F F"])
    assert [x["total"] for x in scores(s)] == [4, 4, 6]
    assert list(s.returns()) == [-1.0, 0.0, 1.0]
    paint(s, 0, ["F F W W"])
    assert list(s.returns()) == [-0.5, -0.5, 1.0]                     # still tied: shared


# ---------------------------------------------------------------- Most/Fewest

MAP_A = ["F . F F L L",
         ". . . . L .",
         "W W T T . T",
         "Pb* Pg . Xb2 Xg2 W",
         ". . Pr* . . T+"]
MAP_B = ["F F L .",
         "Pb* Xb2 L T"]


def test_most_fewest_metrics_of_each_criterion():
    s = paint(paint(table(2), 0, MAP_A), 1, MAP_B)
    a, b = scores(s)
    assert a["most_metrics"] == [1, 1, 2, 1, 2, 2, 1, 1]
    assert a["fewest_metrics"] == [1, 3, 1, 2, 1, 0, 1, 1]
    assert b["most_metrics"] == [0, 1, 0, 0, 1, 1, 0, 1]
    assert b["fewest_metrics"] == [0, 2, 0, 1, 1, 1, 2, 0]


# Points (P0, P1) of each card between MAP_A (P0) and MAP_B (P1).
OUTCOME = {"most": [(3, 0), (1, 1), (3, 0), (3, 0), (3, 0), (3, 0), (3, 0), (1, 1)],
           "fewest": [(0, 3), (0, 3), (0, 3), (0, 3), (1, 1), (3, 0), (3, 0), (0, 3)]}


@pytest.mark.parametrize("face", ["most", "fewest"])
@pytest.mark.parametrize("k", range(8))
def test_most_fewest_card_scoring(k, face):
    other = (k + 1) % 8
    s = table(2, most_fewest=[(k + 1, face), (other + 1, face)])
    paint(paint(s, 0, MAP_A), 1, MAP_B)
    got = [x["most_fewest"] for x in scores(s)]
    want = [OUTCOME[face][k][i] + OUTCOME[face][other][i] for i in (0, 1)]
    assert got == want


def test_most_cards_need_at_least_one_ties_score_one():
    s = table(2, most_fewest=[(3, "most"), (4, "most")])
    paint(paint(s, 0, ["F F"]), 1, ["F F"])
    assert [x["most_fewest"] for x in scores(s)] == [0, 0]           # tied at zero on Most: nobody
    s = table(2, most_fewest=[(3, "fewest"), (4, "fewest")])
    paint(paint(s, 0, ["F F"]), 1, ["F F"])
    assert [x["most_fewest"] for x in scores(s)] == [2, 2]           # tied on Fewest: 1 each, twice


def test_most_fewest_setup_and_arrangement_three_to_five_players():
    s = boardlab.make("kyushu", players=4, most_fewest=True).new_initial_state()
    for k in (1, 2, 3, 4):
        s.apply_string(f"offer province {k}A")
    assert len(s.chance_outcomes()) == 16                              # 8 cards x 2 sides
    s.apply_string("scoring card 3 most between P0 and P1")
    assert len(s.chance_outcomes()) == 14
    s = table(4, most_fewest=[(3, "most"), (4, "most"), (5, "most"), (1, "most")])
    assert [m["seats"] for m in obs(s)["most_fewest"]] == [[0, 1], [1, 2], [2, 3], [3, 0]]
    for p in range(4):
        paint(s, p, ["T"] if p else ["F"])
    # Only card 1 (single forests, between P3 and P0) has a winner: P0.
    assert [x["most_fewest"] for x in scores(s)] == [3, 0, 0, 0]


# ---------------------------------------------------------------- travelers

def test_travelers_after_round_six_in_order():
    s = table(3, travelers=True)
    rng = np.random.default_rng(5)
    play_until(s, rng, lambda t: obs(t)["phase"].startswith("traveler") or obs(t)["round"] >= 7)
    o = obs(s)
    assert o["round"] == 6 and o["travelers"]["held"] == [2, 2, 2]
    assert s.current_player == 2                     # from the first player's right
    moves = names(s)
    assert moves[-1] == "no traveler to P0"           # P2's left neighbour first
    send = moves[0]
    colour, src = send.split(" with ")[1].split(" from ")
    play(s, send)
    spring = names(s)[0]
    play(s, spring)
    dest = spring.rsplit(" ", 1)[1]
    o = obs(s)
    assert o["travelers"]["held"][2] == 1
    assert o["travelers"]["placed"] == [{"owner": 2, "host": 0, "row": o["travelers"]["placed"][0]["row"],
                                         "col": o["travelers"]["placed"][0]["col"], "name": dest,
                                         "active": True}]
    assert cell(s, 0, dest)["resource"] == colour and cell(s, 0, dest)["traveler"]
    assert cell(s, 2, src)["resource"] is None


def test_two_player_one_traveler_each():
    s = table(2, travelers=True)
    assert obs(s)["travelers"]["held"] == [1, 1]


def test_traveler_scoring_and_resource_use():
    s = table(2, travelers=True)
    paint(s, 1, ["F F F",
                 ". H*r!0 .",
                 "Xr2 . F"])
    sc = scores(s)
    assert sc[0]["travelers"] == 4                    # forests around that hot spring
    assert sc[1]["factories"] == 2                    # the host uses the resource
    assert sc[1]["hot_springs"] == 4
    paint(s, 1, ["F"], top=13, left=13, clear=False)  # the hot spring gets covered
    assert scores(s)[0]["travelers"] == 0 and not obs(s)["travelers"]["placed"][0]["active"]


# ---------------------------------------------------------------- observation, search

def test_observation_hides_hands_and_pile():
    s = table(3)
    o = obs(s, 1)
    assert o["hands"][0] is None and o["hands"][1] == [12, 13, 14, 15, 16] and o["draw_pile"] is None
    assert o["hand_sizes"] == [5, 5, 5]
    text = boardlab.games.get("kyushu").render(o)
    assert "P1" in text and "L lake" in text


def test_heuristic_evaluation_in_range():
    s = table(4)
    rng = np.random.default_rng(2)
    while not s.is_terminal():
        if not s.is_chance():
            v = s.evaluate()
            assert v.shape == (4,) and np.all(np.abs(v) <= 1)
        random_step(s, rng)
    assert np.array_equal(s.evaluate(), s.returns())


def test_ismcts_beats_random_two_players():
    wins = games = 0
    for g in range(3):
        for side in (0, 1):
            agents = [None, None]
            agents[side] = ISMCTSAgent(iterations=150, seed=g)
            agents[1 - side] = RandomAgent(seed=100 + g)
            s = boardlab.make("kyushu", players=2).new_initial_state(seed=1000 + g)
            rng = np.random.default_rng(g)
            while not s.is_terminal():
                if s.is_chance():
                    random_step(s, rng)
                else:
                    s.apply(int(agents[s.current_player].step(s)))
            r = s.returns()
            wins += r[side] > r[1 - side]
            games += 1
    assert wins >= games - 1, f"ISMCTS won {wins}/{games}"


def test_golden_playthrough():
    """A fixed-seed game: catches any change of behaviour in the kernel."""
    s = boardlab.make("kyushu", players=3, most_fewest=True, travelers=True).new_initial_state()
    rng = np.random.default_rng(2026)
    while not s.is_terminal():
        random_step(s, rng)
    moves = s.to_record()["moves"]
    digest = hashlib.sha256("\n".join(moves).encode()).hexdigest()[:16]
    got = (len(moves), [float(r) for r in s.returns()], [x["total"] for x in scores(s)], digest)
    assert got == GOLDEN


GOLDEN = (251, [-1.0, 0.0, 1.0], [32, 35, 37], 'fa131c6ac7b11d14')


def test_cli_does_not_echo_hidden_map_turns():
    from boardlab.cli import move_text
    s = card3_table()
    a = s.parse_action("orient 3 horizontal over")
    assert move_text("kyushu", s, a, 0, 1) == "P0 works on their map (revealed when everyone has placed)"
    assert move_text("kyushu", s, a, 0, 0) == "P0 orient 3 horizontal over"
