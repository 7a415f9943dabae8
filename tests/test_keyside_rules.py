"""Scenario tests: one or more per rule of shared/rules/keyside.txt (and per
choice documented in docs/keyside.md)."""
import hashlib
import json
from importlib import resources

import numpy as np
import pytest

import boardlab
from keyside_table import names, obs, play, score, setv, table

DATA = json.loads(resources.files("boardlab").joinpath("data/keyside.json").read_text())


def random_game(game, seed):
    s = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    while not s.is_terminal():
        if s.is_chance():
            acts, probs = zip(*s.chance_outcomes())
            s.apply(int(rng.choice(acts, p=np.array(probs) / sum(probs))))
        else:
            s.apply(int(rng.choice(s.legal_actions())))
    return s


# ---------------------------------------------------------------- components, setup

def test_data_file_components_and_stand_ins():
    island = DATA["island"]
    assert island["stand_in"] is True and len(island["locations"]) == 29
    assert len(island["headland_spaces"]) == 12
    assert DATA["harbour_tiles"]["stand_in"] and len(DATA["harbour_tiles"]["tiles"]) == 12
    assert DATA["farm_tiles"]["stand_in"] and len(DATA["farm_tiles"]["tiles"]) == 5
    assert DATA["dice_strips"]["stand_in"] and len(DATA["dice_strips"]["strips"]) == 4
    for strip in DATA["dice_strips"]["strips"]:
        assert sorted(strip["light"]) == sorted(strip["deep"]) == [1, 2, 3, 4, 5, 6]
    assert len(DATA["buildings"]) == 24 and len(DATA["markets"]) == 8
    assert len(DATA["scoring_tiles"]["black"]) == len(DATA["scoring_tiles"]["red"]) == 12


def test_island_distances_match_the_rulebook_examples():
    s = table(2)
    # "from the town, through a market, to a harbour" is 2 moves: every harbour is reachable.
    play(s, "lead yellow 1: boat H1 -> H2", "pass", "yellow 1 left")
    assert "move keyple town>M1>H2" in names(s)


@pytest.mark.parametrize("players, dice, keyples, boats", [(2, 2, 4, [1, 7]), (3, 3, 5, [1, 5, 9]),
                                                           (4, 4, 7, [1, 5, 9])])
def test_setup_per_player_count(players, dice, keyples, boats):
    s = table(players)
    o = obs(s)
    assert [b["at"] for b in o["boats"]] == boats
    assert all(len(b["sailors"]) == 6 for b in o["boats"])
    assert all(h["dice_spaces"] == dice and h["keyple_spaces"] == keyples for h in o["harbours"])
    fields = [r for r in o["resource_locations"] if r["kind"] != "farm"]
    assert sorted(r["kind"] for r in fields) == ["forest", "quarry", "wheat fields"]
    assert all(r["tokens"] == 3 * players for r in fields)
    assert sum(r["kind"] == "farm" for r in o["resource_locations"]) == 5
    for seat in o["seats"]:
        assert seat["mat"] == 12 and seat["town"] == 6 and all(v == 0 for v in seat["tracks"].values())
    assert o["gem_bag"]["order"] and len(o["gem_bag"]["order"]) == 36


def test_fields_are_never_adjacent_and_setup_is_explicit_chance():
    game = boardlab.make("keyside", players=3)
    s = game.new_initial_state(0)
    assert s.is_chance()
    for _ in range(24):   # harbour tiles, scoring tiles
        s.apply(s.chance_outcomes()[0][0])
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 96     # 16 non-adjacent triples on a ring of 8, in 6 orders
    for a, _ in outcomes:
        text = s.action_to_string(a)
        locs = sorted(int(w[1:].rstrip(",")) for w in text.split() if w.startswith("R"))
        for x in locs:
            for y in locs:
                assert x == y or abs(x - y) not in (1, 7)


def test_first_game_setup():
    s = table(4, first_game=True, dice=False)
    o = obs(s)
    letters = sorted(b["letter"] for seat in o["seats"] for b in seat["buildings"].values())
    assert letters == ["C", "F", "N", "X"]
    for seat in o["seats"]:
        (b,) = seat["buildings"].values()
        num = {"C": 11, "F": 1, "N": 5, "X": 9}[b["letter"]]
        assert seat["keyples"] == {f"H{num}": 1} and seat["town"] == 6 and seat["mat"] == 11


def test_mixed_scoring_sides_are_chance():
    game = boardlab.make("keyside", players=2, scoring="mixed")
    s = game.new_initial_state(0)
    for _ in range(24):
        s.apply(s.chance_outcomes()[0][0])
    assert [s.action_to_string(a) for a, _ in s.chance_outcomes()] == \
        ["scoring tile at H1 black side", "scoring tile at H1 red side"]


# ---------------------------------------------------------------- secret dice

def test_secret_dice_hidden_until_reveal_and_determinized_from_knowledge_only():
    s = table(3, dice=False)
    assert obs(s)["phase"] == "dice" and s.current_player == 0
    play(s, "yellow = 6", "green = 5", "red = 4", "blue = 3", "purple = 2", "orange = 1")
    play(s, "yellow = 2")
    assert obs(s, 1)["seats"][0]["dice"]["yellow"] is None
    assert obs(s, 1)["seats"][0]["dice_set"] == 6
    assert obs(s, 0)["seats"][0]["dice"]["yellow"] == 6
    # determinize(2) depends only on what seat 2 knows: another true assignment, same result.
    other = table(3, dice=False)
    play(other, "yellow = 1", "green = 2", "red = 3", "blue = 4", "purple = 5", "orange = 6", "yellow = 5")
    assert other.observation(2) == s.observation(2)
    for seed in range(5):
        assert s.determinize(2, seed).full_observation() == other.determinize(2, seed).full_observation()
    assert len({json.dumps(s.determinize(2, k).full_observation()["seats"][0]["dice"]) for k in range(10)}) > 1
    play(s, "green = 1", "red = 3", "blue = 4", "purple = 5", "orange = 6")
    play(s, "yellow = 1", "green = 2", "red = 3", "blue = 4", "purple = 5", "orange = 6")
    assert obs(s, 1)["seats"][0]["dice"]["yellow"] == 6   # revealed together
    assert obs(s)["phase"] == "play"


def test_gem_bag_order_hidden_and_determinized_from_its_contents_only():
    a, b = table(2, seed=1), table(2, seed=2)
    assert obs(a)["gem_bag"]["order"] != obs(b)["gem_bag"]["order"]
    assert a.observation(0) == b.observation(0) and "order" not in obs(a, 0)["gem_bag"]
    for k in range(5):
        assert a.determinize(0, k).full_observation() == b.determinize(0, k).full_observation()
    assert len({tuple(a.determinize(1, k).full_observation()["gem_bag"]["order"]) for k in range(5)}) > 1


def test_dice_strips_light_then_deep_then_free():
    s = table(2, dice_strips=True, dice=False)
    o = obs(s)
    strips = {p: DATA["dice_strips"]["strips"][o["seats"][p]["strip"] - 1] for p in range(2)}
    assert o["phase"] == "play"   # year 1: set from the light side, no secret choice
    for p in range(2):
        assert list(o["seats"][p]["dice"].values()) == strips[p]["light"]

    def to_year(s, year):
        while obs(s)["year"] < year:
            n = names(s)
            s.apply_string(([x for x in n if x.endswith("to mat")] or [x for x in n if x == "pass"] or n)[0])

    to_year(s, 2)
    assert obs(s)["phase"] == "play"
    for p in range(2):
        assert list(obs(s)["seats"][p]["dice"].values()) == strips[p]["deep"]
    to_year(s, 3)
    assert obs(s)["phase"] == "dice"
    assert names(s)[-2:] == ["dice strip light side", "dice strip deep side"]   # or set freely
    assert names(s)[:6] == [f"yellow = {v}" for v in range(1, 7)]


# ---------------------------------------------------------------- landing

def test_orange_two_boat_move_example():
    """LG leads orange 2: the boat moves 1-2 harbours either way; purple follows with orange 2."""
    s = table(2, dice={0: [1, 3, 4, 5, 6, 2], 1: [1, 3, 4, 5, 6, 2]})
    leads = [n for n in names(s) if n.startswith("lead orange")]
    assert leads == ["lead orange 2: boat H1 -> H2", "lead orange 2: boat H1 -> H3",
                     "lead orange 2: boat H1 -> H11", "lead orange 2: boat H1 -> H12",
                     "lead orange 2: boat H7 -> H5", "lead orange 2: boat H7 -> H6",
                     "lead orange 2: boat H7 -> H8", "lead orange 2: boat H7 -> H9"]
    play(s, "lead orange 2: boat H1 -> H12")
    assert s.current_player == 1 and names(s) == ["follow orange 2", "pass"]
    play(s, "follow orange 2")
    h12 = obs(s)["harbours"][11]
    assert h12["sailor"] == "orange" and h12["dice"] == [[0, 2], [1, 2]]
    assert obs(s)["boats"][0]["at"] == 12 and "orange" not in obs(s)["boats"][0]["sailors"]
    # step 9: the lead's orange marker advances; level 1 offers left/right
    assert names(s) == ["orange 1 left", "orange 1 right", "pass"]


def test_follower_needs_equal_or_lower_die():
    s = table(2, dice={0: [1, 3, 4, 5, 6, 2], 1: [1, 2, 4, 5, 6, 3]})
    play(s, "lead orange 2: boat H1 -> H12")
    assert s.current_player == 0 and names(s)[0] == "orange 1 left"   # P1's orange 3 cannot follow


def test_boat_passes_but_cannot_stop_at_an_occupied_harbour():
    s = table(4, dice={p: [1, 2, 3, 4, 5, 6] for p in range(4)})
    dests = {n.split("-> ")[1] for n in names(s) if n.startswith("lead orange 6: boat H5")}
    assert "H9" not in dests and {"H10", "H11", "H8", "H2"} <= dests and "H1" not in dests


def test_mat_option_always_allowed_and_advances():
    s = table(2)
    assert "yellow 1 to mat" in names(s)
    play(s, "yellow 1 to mat", "yellow 1 left")
    assert obs(s)["seats"][0]["tracks"]["yellow"] == 1
    assert obs(s)["seats"][0]["goods"]["wheat"] == 2
    # wheat came from the wheat fields
    wf = [r for r in obs(s)["resource_locations"] if r["kind"] == "wheat fields"][0]
    assert wf["tokens"] == 4
    assert s.current_player == 1   # lead passes on


def test_headlands_activate_when_a_boat_docks():
    s = table(2)
    setv(s, 1, "headland", 0, 2)          # P1's rally point between H1 and H2
    setv(s, 1, "headland", 1, 0 + 8)      # P1's wharf between H2 and H3, facing H3
    play(s, "lead yellow 1: boat H1 -> H2", "pass")
    seat = obs(s)["seats"][1]
    assert seat["mat"] == 11 and seat["town"] == 7     # rally point: a keyple recruited
    assert seat["goods"]["fish"] == 1                  # wharf faces H3: 1 fish at H2


def test_keyples_move_into_the_harbour_lead_then_followers():
    s = table(2, dice={0: [1, 2, 3, 4, 5, 6], 1: [1, 2, 3, 4, 5, 6]})
    play(s, "lead yellow 1: boat H1 -> H2", "follow yellow 1", "yellow 1 left")
    assert s.current_player == 0
    play(s, "move keyple town>M1>H2")
    assert s.current_player == 1 and "move keyple town>M1>H2" in names(s)
    play(s, "move keyple town>M1>H2")
    assert obs(s)["harbours"][1]["keyples"] == [1, 1]


# ---------------------------------------------------------------- resolving, benefits

def _to_resolving(s, players=2):
    """Everyone plays all dice to the mat, skipping level choices."""
    while obs(s)["task"]["kind"] in ("land", "level", "build", "headland", "move", "skill_tile", "market",
                                     "farm", "import_animal", "exchange"):
        n = names(s)
        mats = [x for x in n if x.endswith("to mat")]
        s.apply_string(mats[0] if mats else "pass")
    return s


def test_resolve_harbour_c_tiers_and_forest_doubling():
    s = table(2)
    play(s, "lead purple 5: boat H1 -> H3", "pass", "move keyple town>M2>H3")
    setv(s, 0, "keyples", "H3", 1)
    setv(s, 1, "keyples", "H3", 1)
    forest = [i for i, r in enumerate(obs(s)["resource_locations"]) if r["kind"] == "forest"][0]
    setv(s, 1, "field_tokens", 0, 0)
    setv(s, 1, "owner", forest, 1)
    _to_resolving(s)
    assert obs(s)["task"]["kind"] == "resolve" and "resolve H3 (C)" in names(s)
    before = [seat["goods"]["wood"] for seat in obs(s)["seats"]]
    play(s, "resolve H3 (C)")          # dice total 5: tier 3-5 = 1 wood; the forest owner doubles
    after = [seat["goods"]["wood"] for seat in obs(s)["seats"]]
    assert after[0] - before[0] == 1 and after[1] - before[1] == 2


def test_end_of_year_start_player_from_harbour_i():
    game = boardlab.make("keyside", players=2)
    for seed in range(40):
        s = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        resolver = None
        while not s.is_terminal() and obs(s)["year"] <= 1:
            if s.is_chance():
                s.apply(s.chance_outcomes()[int(rng.integers(len(s.chance_outcomes())))][0])
                continue
            a = int(rng.choice(s.legal_actions()))
            text = s.action_to_string(a)
            if text.startswith("resolve") and "(I)" in text:
                resolver = s.current_player
            s.apply(a)
        if resolver is not None:
            assert obs(s)["year"] == 2 and obs(s)["start_player"] == resolver
            assert all(len(b["sailors"]) == 6 for b in obs(s)["boats"])     # boats refilled
            return
    pytest.fail("no game resolved harbour I in year 1")


def test_markets_trade_and_flip_at_end_of_turn():
    s = table(2)
    setv(s, 0, "keyples", "M1", 1)            # M1 holds the blue market (top: fish -> 2 pigs)
    setv(s, 0, "good", "fish", 2)
    setv(s, 0, "level", "blue", 1)
    play(s, "blue 4 to mat", "blue 2 right")   # activate a market where you have a keyple
    play(s, "activate market M1 (blue)")
    assert "market blue: fish->2 pigs" in names(s)
    assert obs(s, 1)["task"] == {"kind": "trade", "player": 0, "market": 1}       # public: seat 1 sees it
    assert obs(s, 1)["markets_activated"] == [[1], []] and obs(s)["markets_to_flip"] == []
    play(s, "market blue: fish->2 pigs")
    seat = obs(s)["seats"][0]
    assert seat["goods"]["fish"] == 1 and seat["goods"]["pig"] == 2
    assert obs(s)["markets"][0]["side"] == "reverse"    # flipped at the end of the turn
    assert obs(s)["markets_to_flip"] == [] and obs(s)["markets_activated"] == [[], []]


def test_observation_shows_the_task_in_progress_and_what_follows():
    """What a player at the table knows about a multi-step turn: the decision's parameters
    (keyples still to move, which buildings a build may take) and the steps still to come."""
    s = table(2, dice={0: [1, 2, 3, 4, 5, 6], 1: [1, 2, 3, 4, 5, 6]})
    play(s, "lead yellow 1: boat H1 -> H2")
    o = obs(s, 1)
    assert o["task"] == {"kind": "follow", "player": 1, "harbour": 2}
    assert [t["kind"] for t in o["pending"]] == ["headlands", "advance", "keyple_in", "keyple_in"]
    assert o["pending"][1] == {"kind": "advance", "player": 0, "colour": "yellow"}
    assert [t["player"] for t in o["pending"][2:]] == [0, 1]
    play(s, "follow yellow 1")
    assert obs(s)["task"] == {"kind": "level", "player": 0, "colour": "yellow", "level": 1}
    s = table(2)
    setv(s, 0, "level", "red", 1)
    play(s, "red 3 to mat", "red 2 right")         # red, right side: move 2 keyples
    assert obs(s, 1)["task"] == {"kind": "move", "player": 0, "keyples_left": 2, "farms_and_fields_only": False}
    play(s, [n for n in names(s) if n.startswith("move keyple")][0])
    assert obs(s, 1)["task"]["keyples_left"] == 1


def test_skill_tile_needs_a_market_of_its_colour():
    s = table(2)
    setv(s, 0, "keyples", "M5", 1)            # grey 1 market: no skill tiles
    setv(s, 0, "keyples", "M1", 1)            # blue market
    setv(s, 0, "level", "blue", 2)
    play(s, "blue 4 to mat", "blue 3 right")
    assert names(s) == ["skill tile blue 5", "pass"]
    play(s, "skill tile blue 5")
    assert obs(s)["seats"][0]["skill_tiles"] == [["blue", 5]]
    assert obs(s)["skill_stacks"]["blue"] == [3, 1]


def test_spend_skill_tile_anytime_advances_its_track():
    s = table(2)
    setv(s, 0, "skill", 3 * 2 + 0, 1)       # a red 5 skill tile
    play(s, "spend skill tile red 5")
    assert obs(s)["seats"][0]["tracks"]["red"] == 1 and names(s)[:2] == ["red 1 left", "red 1 right"]
    play(s, "red 1 left", "transfer 2 keyples to the town")
    assert obs(s)["seats"][0]["mat"] == 10 and obs(s)["task"]["kind"] == "land"


def test_level_four_builds_the_colour_cottage_then_repeats():
    s = table(2)
    setv(s, 0, "level", "purple", 3)
    play(s, "purple 5 to mat")
    assert names(s) == ["build cottage Q (purple)", "build cottage R (purple)", "build cottage S (purple)",
                        "build cottage T (purple)"]
    play(s, "build cottage Q (purple)")
    assert obs(s)["seats"][0]["buildings"]["purple"] == {"letter": "Q", "house": False}
    setv(s, 0, "skill", 3 * 4 + 0, 1)
    play(s, "pass") if obs(s)["task"]["kind"] == "market" else None
    assert s.current_player == 1


def test_headland_cost_with_orange_discount_minimum_one():
    s = table(2)
    setv(s, 0, "level", "orange", 2)
    setv(s, 0, "good", "wood", 1)
    play(s, "orange 6 to mat")                # level 3: base 3, -2, min 1
    assert "headland D (statue) H1|H2, pay wood" in names(s)
    play(s, "headland D (statue) H1|H2, pay wood")
    assert obs(s)["headlands"][0] == {"owner": 0, "tile": "D", "faces": 1}
    assert obs(s)["seats"][0]["goods"]["wood"] == 0
    assert score(s, 0)["statue"] == 8


# ---------------------------------------------------------------- scoring

def test_example_two_keyples_two_pairs_of_pigs_is_12():
    s = table(2)
    setv(s, 0, "keyples", "H2", 2)            # H2 holds black scoring tile 2
    setv(s, 0, "good", "pig", 5)
    assert score(s, 0)["harbours"][1] == 12


@pytest.mark.parametrize("sheep, points", [(2, 0), (3, 4), (5, 4), (6, 8), (9, 12), (12, 12)])
def test_requirements_met_in_full_three_sheep_five_sheep(sheep, points):
    s = table(2)
    setv(s, 0, "keyples", "H1", 1)            # black 1: 3 sheep = 4 (max 12)
    setv(s, 0, "good", "sheep", sheep)
    assert score(s, 0)["harbours"][0] == points


@pytest.mark.parametrize("number, setup, per_keyple", [
    (3, {"cow": 5}, 8), (4, {"wheat": 13}, 12), (5, {"fish": 5}, 6), (6, {"ruby": 7}, 7),
    (7, {"stone": 3, "wood": 4}, 3), (8, {}, 0), (11, {}, 0), (12, {}, 0)])
def test_black_scoring_tiles(number, setup, per_keyple):
    s = table(2)
    setv(s, 0, "keyples", f"H{number}", 1)
    for good, n in setup.items():
        setv(s, 0, "good", good, n)
    assert score(s, 0)["harbours"][number - 1] == per_keyple


def test_black_tile_8_mat_keyples_and_9_headlands_and_12_skill_colours():
    s = table(2)
    setv(s, 0, "keyples", "H8", 1)
    for mat, pts in [(0, 6), (1, 4), (2, 4), (3, 2), (5, 0)]:
        setv(s, 0, "mat", 0, mat)
        assert score(s, 0)["harbours"][7] == pts
    setv(s, 0, "keyples", "H9", 2)
    for k, tile in enumerate([0, 1, 2, 3, 4, 5]):
        setv(s, 0, "headland", k, tile)
    assert score(s, 0)["harbours"][8] == 2 * 8
    setv(s, 0, "keyples", "H12", 1)
    for col in range(6):
        setv(s, 0, "skill", 3 * col + 2, 1)
    assert score(s, 0)["harbours"][11] == 8


def test_red_scoring_tiles():
    s = table(2, scoring="red")
    for h in (1, 4, 5, 7, 8, 9, 10, 12):
        setv(s, 0, "keyples", f"H{h}", 1)
    setv(s, 0, "good", "sheep", 4)
    setv(s, 0, "good", "fish", 3)
    setv(s, 0, "good", "stone", 2)
    setv(s, 0, "good", "wood", 5)
    setv(s, 0, "good", "wheat", 9)
    setv(s, 0, "good", "emerald", 1)
    h = score(s, 0)["harbours"]
    assert h[0] == 0                       # sheep in farms only
    assert h[3] == 2 * 4                   # sheep, stone, wood, wheat
    assert h[4] == 2 * 3                   # 3 sheep+fish pairs
    assert h[6] == 3 * 2                   # 2 stone+wheat+wood sets
    assert h[7] == 10                      # <= 10 keyples on harbours
    assert h[8] == 0 and h[9] == 0 and h[11] == 0


def test_harbour_i_red_space_and_support_headland_count_as_keyples():
    s = table(2)                            # H9 holds tile I and black scoring tile 9 (headlands)
    for k in range(6):
        setv(s, 0, "headland", k, k)        # 6 headlands built: 8 per keyple
    setv(s, 0, "red_space", 0, 1)
    assert score(s, 0)["harbours"][8] == 8
    setv(s, 0, "headland", 8, 4 + 8)        # support between H9 and H10 facing H10 ...
    setv(s, 0, "headland", 7, 4 + 8)        # ... and between H8 and H9 facing H9
    assert score(s, 0)["support"] == 8      # facing H9 (tile 9: 8 points); H10 has tile 10 (0)


def test_buildings_gems_beach_skill_and_fields():
    s = table(2)
    setv(s, 0, "building", "green", 7)      # H: cow+pig+sheep set = 3 (cottage)
    setv(s, 0, "building", "purple", 19)    # T: empty plots x 3 (house)
    setv(s, 0, "house", "purple", 1)
    for g, n in [("cow", 2), ("pig", 1), ("sheep", 3)]:
        setv(s, 0, "good", g, n)
    sc = score(s, 0)
    assert sc["buildings"][1] == 3 and sc["buildings"][4] == 4 * 3
    for g, n in [("emerald", 4), ("ruby", 2), ("sapphire", 1)]:
        setv(s, 0, "good", g, n)
    for lv, pts in [(0, 0), (1, 4), (2, 6), (3, 7), (4, 7)]:
        setv(s, 0, "level", "purple", lv)
        assert score(s, 0)["gems"] == pts
    setv(s, 0, "headland", 0, 5)            # beach between H1 and H2
    setv(s, 0, "keyples", "H1", 2)
    setv(s, 0, "keyples", "H2", 1)
    assert score(s, 0)["beach"] == 6
    setv(s, 0, "skill", 0, 1)
    setv(s, 0, "skill", 5, 2)
    assert score(s, 0)["skill_tiles"] == 5 + 2
    setv(s, 0, "owner", 0, 1)               # R1 is the forest in the default table
    assert score(s, 0)["fields"] == 3


def test_start_player_marker_counted_as_one_item():
    game = boardlab.make("keyside", players=2)
    s = game.new_initial_state(3)
    rng = np.random.default_rng(3)
    while not s.is_terminal():
        if s.is_chance():
            s.apply(s.chance_outcomes()[0][0])
        elif obs(s)["task"] and obs(s)["task"]["kind"] == "start_marker":
            assert len(s.legal_actions()) == 10
            start = obs(s)["start_player"]
            pigs = obs(s)["seats"][start]["goods"]["pig"]
            s.apply_string("start player marker as pig")
            assert obs(s)["start_marker_item"] == "pig"
            assert pigs >= 0
        else:
            s.apply(int(rng.choice(s.legal_actions())))
    assert obs(s)["phase"] == "over"


def test_ties_share_the_victory():
    s = random_game(boardlab.make("keyside", players=2), 0)
    totals = [seat["score"]["total"] for seat in obs(s)["seats"]]
    r = s.returns()
    if totals[0] == totals[1]:
        assert r[0] == r[1] == 0
    else:
        assert (r[0] > r[1]) == (totals[0] > totals[1])


# ---------------------------------------------------------------- golden, bad input

def test_golden_playthrough():
    """A seeded random 3-player game: its move list and final scores are fixed
    (a change means the rules changed: update only for an intended change)."""
    s = random_game(boardlab.make("keyside", players=3), 2024)
    digest = hashlib.sha256(json.dumps([int(a) for a in s.history]).encode()).hexdigest()[:16]
    totals = [seat["score"]["total"] for seat in obs(s)["seats"]]
    assert (len(s.history), digest, totals) == GOLDEN


GOLDEN = (325, '9caa362263228818', [27, 28, 17])


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 1}, {"players": 3, "scoring": "mixed",
                                                                      "dice_strips": True, "first_game": True}])
def test_str_draws_every_set_up_step(params):
    """str(state) draws the table at every chance step of the set-up (markets, fields and
    flags not dealt yet are left out) and into the first year."""
    s = boardlab.make("keyside", **params).new_initial_state(0)
    while s.is_chance() or obs(s)["phase"] == "setup":
        text = str(s)
        assert text.startswith("Keyside") and "H0" not in text
        s.apply(s.chance_outcomes()[0][0])
    assert "M1" in str(s)


def test_bad_parameters_are_rejected():
    for players in (0, 5, True):
        with pytest.raises(ValueError, match="players"):
            boardlab.make("keyside", players=players)
    with pytest.raises(ValueError, match="first_game"):
        boardlab.make("keyside", players=1, first_game=True)
    with pytest.raises(ValueError, match="solo"):
        boardlab.make("keyside", players=2, solo_pirates=True)
    with pytest.raises(ValueError, match="scoring"):
        boardlab.make("keyside", scoring="blue")
    with pytest.raises(ValueError, match="unknown parameter 'solo'"):
        boardlab.make("keyside", solo=True)


# ---------------------------------------------------------------- command line

def test_cli_play_whole_game_hides_the_others_secret_dice():
    import os
    import re
    import subprocess
    import sys
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    r = subprocess.run([sys.executable, "-m", "boardlab", "play", "keyside", "--players", "2", "--ai", "random",
                        "--seed", "3"], input="1\n" * 3000, capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert "Game over." in r.stdout
    others = [line for line in r.stdout.splitlines() if line.startswith("> P1 ")]
    assert sum("P1 sets their dice in secret" in line for line in others) == 3     # once a year
    assert not any(re.search(r"(yellow|green|red|blue|purple|orange) = \d|dice strip", line) for line in others)


def test_a_market_is_activated_once_per_turn_by_a_player():
    s = table(2)
    setv(s, 0, "keyples", "M1", 1)            # blue market
    setv(s, 0, "good", "fish", 3)
    setv(s, 0, "level", "blue", 1)
    setv(s, 0, "level", "purple", 3)
    setv(s, 0, "skill", 3 * 4 + 0, 1)         # purple 5 skill tile
    play(s, "spend skill tile purple 5", "build cottage Q (purple)", "activate market M1 (blue)",
         "market blue: fish->2 pigs")
    assert obs(s)["task"]["kind"] == "land" and s.current_player == 0
    play(s, "blue 4 to mat", "blue 2 right")  # activate a market: M1 was used this turn
    assert obs(s)["task"]["kind"] != "market" and s.current_player == 1
    assert obs(s)["seats"][0]["goods"]["pig"] == 2


# ---------------------------------------------------------------- every harbour benefit and tier

def resolve_at_h2(letter, value, prep=None):
    """P0 leads a yellow `value` to H2 holding harbour tile `letter`, moves a keyple in,
    everyone plays the other dice to the mat, then P0 resolves H2 (dice total = value)."""
    tiles = letter + "".join(t for t in "ABCDEFGHIJKL" if t != letter)
    tiles = tiles[1] + tiles[0] + tiles[2:]           # `letter` at H2
    others = [v for v in range(1, 7) if v != value]
    s = table(2, tiles=tiles, dice={0: [value] + others, 1: [6, 1, 2, 3, 4, 5]})
    play(s, "lead yellow %d: boat H1 -> H2" % value)
    while obs(s)["task"]["kind"] in ("follow", "level"):
        play(s, "pass")
    play(s, "move keyple town>M1>H2")
    _to_resolving(s)
    if prep:
        prep(s)
    before = obs(s)
    play(s, f"resolve H2 ({letter})")
    return s, before


def gained(s, before, good, seat=0):
    return obs(s)["seats"][seat]["goods"][good] - before["seats"][seat]["goods"][good]


@pytest.mark.parametrize("value, animal", [(1, "cow"), (4, "sheep"), (6, "pig")])
def test_harbour_a_animals_by_tier(value, animal):
    s, before = resolve_at_h2("A", value)
    assert gained(s, before, animal) == 2


@pytest.mark.parametrize("letter, good", [("C", "wood"), ("E", "stone"), ("G", "wheat")])
@pytest.mark.parametrize("value, amount", [(2, 2), (5, 1), (6, 3)])
def test_harbours_c_e_g_resources_by_tier(letter, good, value, amount):
    s, before = resolve_at_h2(letter, value)
    assert gained(s, before, good) == amount


@pytest.mark.parametrize("letter, good", [("D", "wood"), ("F", "stone")])
@pytest.mark.parametrize("value, cost", [(1, 2), (3, 4), (6, 3)])
def test_harbours_d_f_build_a_headland_by_tier(letter, good, value, cost):
    s, _ = resolve_at_h2(letter, value, prep=lambda s: setv(s, 0, "good", good, cost))
    heads = [n for n in names(s) if n.startswith("headland")]
    assert heads and all(n.endswith(f"pay {good}") for n in heads)
    play(s, heads[0])
    assert obs(s)["seats"][0]["goods"][good] == 0
    s, _ = resolve_at_h2(letter, value, prep=lambda s: setv(s, 0, "good", good, cost - 1))
    assert not any(n.startswith("headland") for n in names(s))     # cannot pay: skipped


@pytest.mark.parametrize("value, cost", [(2, 1), (3, 2), (6, 1)])
def test_harbour_h_builds_for_wheat_by_tier(value, cost):
    s, _ = resolve_at_h2("H", value, prep=lambda s: setv(s, 0, "good", "wheat", cost))
    assert "build cottage A (yellow)" in names(s) and "pass" in names(s)
    play(s, "build cottage A (yellow)")
    assert obs(s)["seats"][0]["goods"]["wheat"] == 0
    assert obs(s)["seats"][0]["buildings"]["yellow"] == {"letter": "A", "house": False}


@pytest.mark.parametrize("value, count", [(2, 2), (4, 1), (6, 2)])
def test_harbour_l_recruits_by_tier(value, count):
    s, before = resolve_at_h2("L", value)
    assert before["seats"][0]["mat"] - obs(s)["seats"][0]["mat"] == count


@pytest.mark.parametrize("value, count", [(2, 2), (4, 1), (6, 3)])
def test_harbour_b_places_animals_then_footprint_move(value, count):
    s, before = resolve_at_h2("B", value, prep=lambda s: setv(s, 0, "good", "cow", 5))
    placed = 0
    while any(n.startswith("cow -> farm") for n in names(s)):
        play(s, [n for n in names(s) if n.startswith("cow -> farm")][0])
        placed += 1
    assert placed == count
    # icons of farm 1 side a: wheat, stone, wood, fish -> resources gained
    assert gained(s, before, "wheat") + gained(s, before, "stone") + gained(s, before, "wood") \
        + gained(s, before, "fish") >= 1
    moves = [n for n in names(s) if n.startswith("move keyple")]
    assert moves and all(n.split(">")[-1].startswith("R") for n in moves)   # farms/fields only


def test_harbour_i_red_space_swap_and_start_player():
    s, _ = resolve_at_h2("I", 3, prep=lambda s: (setv(s, 1, "keyples", "H2", 1), setv(s, 1, "red_space", 0, 1)))
    o = obs(s)
    assert o["red_space"] == 0 and o["harbours"][1]["keyples"] == [0, 2]     # swapped
    assert s.current_player == 1 and names(s) == ["I: move", "I: market", "I: skill tile", "pass"]


@pytest.mark.parametrize("letter, second", [("J", "market first"), ("K", "skill tile first")])
def test_harbours_j_k_move_and_market_or_skill_in_either_order(letter, second):
    s, _ = resolve_at_h2(letter, 3)
    assert names(s) == ["move first", second, "pass"]
    play(s, second)
    assert obs(s)["task"]["kind"] == "move"      # nothing to activate: straight to the move


# ---------------------------------------------------------------- markets, each side

@pytest.mark.parametrize("market, side, give, trade, gets", [
    ("blue", "top", {"fish": 1}, "market blue: fish->2 pigs", {"pig": 2, "fish": -1}),
    ("blue", "reverse", {"pig": 1}, "market blue: pig->2 fish", {"fish": 2, "pig": -1}),
    ("green", "top", {"wheat": 1}, "market green: wheat->2 sheep", {"sheep": 2, "wheat": -1}),
    ("green", "reverse", {"sheep": 1}, "market green: sheep->2 wheat", {"wheat": 2, "sheep": -1}),
    ("orange", "top", {"wood": 1}, "market orange: wood->3 stone", {"stone": 3, "wood": -1}),
    ("orange", "reverse", {"stone": 1}, "market orange: stone->3 wood", {"wood": 3, "stone": -1}),
    ("purple", "reverse", {"ruby": 1}, "market purple: ruby->3 stone", {"stone": 3, "ruby": -1}),
    ("red", "top", {}, "market red: recruit a keyple", {}),
    ("yellow", "top", {"wheat": 1}, "market yellow: wheat->build", {"wheat": -1}),
])
def test_market_trades(market, side, give, trade, gets):
    m = ["blue", "green", "orange", "purple", "grey 1", "grey 2", "red", "yellow"].index(market) + 1
    s = table(2)
    setv(s, 0, "keyples", f"M{m}", 1)
    setv(s, 0, "level", "blue", 1)
    for good, n in give.items():
        setv(s, 0, "good", good, n)
    if side == "reverse":
        setv(s, 0, "good", "fish", 1)
        play(s, f"pay fish: flip market M{m} ({market})")
        assert obs(s)["markets"][m - 1]["side"] == "reverse"
    before = obs(s)
    play(s, "blue 4 to mat", "blue 2 right", f"activate market M{m} ({market})", trade)
    for good, n in gets.items():
        assert gained(s, before, good) == n
    if market == "yellow":
        assert names(s)[0] == "build cottage A (yellow)" and obs(s)["task"]["kind"] == "build"
    if market == "red":
        assert before["seats"][0]["mat"] - obs(s)["seats"][0]["mat"] == 1
        assert obs(s)["markets"][m - 1]["side"] == "top"      # single-sided: never flips


def test_purple_market_top_draws_two_gems_and_grey_markets():
    s = table(2)
    setv(s, 0, "keyples", "M4", 1)
    setv(s, 0, "good", "stone", 1)
    setv(s, 0, "level", "blue", 1)
    play(s, "blue 4 to mat", "blue 2 right", "activate market M4 (purple)", "market purple: stone->2 gems")
    assert sum(obs(s)["seats"][0]["goods"][g] for g in ("emerald", "ruby", "sapphire")) == 2
    assert obs(s, 1)["gem_bag"]["count"] == 34 and "order" not in obs(s, 1)["gem_bag"]
    s = table(2)
    setv(s, 0, "keyples", "M5", 1)
    setv(s, 0, "good", "wheat", 1)
    setv(s, 0, "level", "blue", 1)
    play(s, "blue 4 to mat", "blue 2 right", "activate market M5 (grey 1)", "market grey 1: wheat->advance")
    assert names(s) == [f"advance {c}" for c in ["yellow", "green", "red", "blue", "purple", "orange"]]
    s = table(2)
    setv(s, 0, "keyples", "M6", 1)
    setv(s, 0, "good", "wood", 1)
    setv(s, 0, "level", "blue", 1)
    play(s, "blue 4 to mat", "blue 2 right", "activate market M6 (grey 2)", "market grey 2: wood->move 2 keyples")
    assert obs(s)["task"]["kind"] == "move"


# ---------------------------------------------------------------- skill tracks

@pytest.mark.parametrize("colour, level, side, check", [
    ("green", 1, None, lambda o: o["goods"]["sheep"] == 2),
    ("blue", 1, None, lambda o: o["goods"]["fish"] == 1),
    ("blue", 3, "left", lambda o: o["goods"]["fish"] == 2),
    ("purple", 2, None, lambda o: o["goods"]["emerald"] + o["goods"]["ruby"] + o["goods"]["sapphire"] == 2),
    ("purple", 3, None, lambda o: o["goods"]["emerald"] + o["goods"]["ruby"] + o["goods"]["sapphire"] == 3),
    ("red", 1, "left", lambda o: o["mat"] == 10 and o["town"] == 8),
    ("orange", 1, "left", lambda o: o["goods"]["stone"] == 1),
    ("orange", 1, "right", lambda o: o["goods"]["wood"] == 1),
])
def test_track_levels(colour, level, side, check):
    s = table(2)
    setv(s, 0, "level", colour, level - 1)
    die = {"yellow": 1, "green": 2, "red": 3, "blue": 4, "purple": 5, "orange": 6}[colour]
    play(s, f"{colour} {die} to mat")
    if side:
        play(s, f"{colour} {level} {side}")
    if colour == "red":                     # "up to 2": the most
        play(s, "transfer 2 keyples to the town")
    assert check(obs(s)["seats"][0])


def test_level_four_again_upgrades_to_a_house():
    s = table(2)
    setv(s, 0, "level", "red", 4)
    setv(s, 0, "building", "red", 9)
    play(s, "red 3 to mat")
    assert obs(s)["seats"][0]["buildings"]["red"] == {"letter": "J", "house": True}
    assert obs(s)["seats"][0]["tracks"]["red"] == 4
    assert obs(s)["task"]["kind"] == "move"         # then: move 1 or 2 keyples


def test_green_level_four_exchanges_animals():
    s = table(2)
    setv(s, 0, "level", "green", 3)
    setv(s, 0, "building", "green", 4)
    setv(s, 0, "house", "green", 1)                  # house built already: that action is lost
    setv(s, 0, "good", "cow", 2)
    play(s, "green 2 to mat")
    assert names(s) == ["exchange cow -> pig", "exchange cow -> sheep", "pass"]
    play(s, "exchange cow -> pig", "exchange cow -> sheep")
    g = obs(s)["seats"][0]["goods"]
    assert (g["cow"], g["pig"], g["sheep"]) == (0, 1, 1)


def test_green_level_four_exchanges_an_animal_in_a_farm_you_control_in_place():
    """"You can exchange an animal in a farm you control or in your barn. The exchanged animal
    is placed in the same location": the cow on P0's farm becomes a pig on that icon (black 10
    and red 1-3 count animals in farms, not in the barn); another seat's farm is not offered."""
    s = table(2)
    setv(s, 0, "level", "green", 3)
    setv(s, 0, "building", "green", 4)
    setv(s, 0, "house", "green", 1)
    setv(s, 0, "owner", 1, 1)                        # P0 owns R2: farm 1 ...
    setv(s, 0, "farm_animal", 0, 0)                  # ... with a cow on its icon 1 (wheat)
    setv(s, 1, "owner", 2, 1)                        # P1 owns R3: farm 2, a sheep on its icon 1
    setv(s, 1, "farm_animal", 4, 2)
    play(s, "green 2 to mat")
    assert names(s) == ["pass", "exchange cow on farm 1 icon 1 -> pig", "exchange cow on farm 1 icon 1 -> sheep"]
    play(s, "exchange cow on farm 1 icon 1 -> pig")
    o = obs(s)
    assert o["resource_locations"][1]["icons"][0] == {"resource": "wheat", "animal": "pig"}
    assert (o["seats"][0]["goods"]["pig"], o["seats"][0]["goods"]["wheat"]) == (0, 0)   # nothing gained
    assert o["task"] == {"kind": "exchange", "player": 0, "exchanges_left": 1}        # up to 2: one more
    assert names(s) == ["pass", "exchange pig on farm 1 icon 1 -> cow", "exchange pig on farm 1 icon 1 -> sheep"]
    play(s, "pass")
    assert s.current_player == 1


def test_red_left_transfers_up_to_two_keyples_as_the_player_chooses():
    """Red levels 1-3 left: "Transfer up to 2 keyples from your store to the town": 2, 1 or none."""
    s = table(2)
    play(s, "red 3 to mat", "red 1 left")
    assert obs(s, 1)["task"] == {"kind": "recruit", "player": 0, "keyples_most": 2}
    assert names(s) == ["pass", "transfer 1 keyple to the town", "transfer 2 keyples to the town"]
    play(s, "transfer 1 keyple to the town")
    assert (obs(s)["seats"][0]["mat"], obs(s)["seats"][0]["town"]) == (11, 7) and s.current_player == 1
    s = table(2)
    setv(s, 0, "mat", 0, 1)                          # one keyple left on the mat: 1 or none
    play(s, "red 3 to mat", "red 1 left")
    assert names(s) == ["pass", "transfer 1 keyple to the town"]
    s = table(2)
    setv(s, 0, "mat", 0, 0)                          # none left: nothing to decide
    play(s, "red 3 to mat", "red 1 left")
    assert s.current_player == 1


@pytest.mark.parametrize("market, side, animal, trade", [
    ("blue", 0, "pig", "market blue: pig->2 fish"), ("green", 1, "sheep", "market green: sheep->2 wheat")])
def test_an_animal_paid_at_a_market_comes_from_the_barn_or_a_farm_you_control(market, side, animal, trade):
    """"Items given in exchange can be from your player mat, or, if an animal, from a farm you
    control": where from is the player's choice (a farm's animal scores for black 10, and its
    icon is free to yield again); with the animal in one place only there is nothing to ask."""
    m = ["blue", "green"].index(market) + 1
    a = ["cow", "pig", "sheep"].index(animal)

    def at_market(barn, farm_icons):
        s = table(2)
        setv(s, 0, "keyples", f"M{m}", 1)
        setv(s, 0, "level", "blue", 1)
        setv(s, 0, "good", "fish", 1)
        setv(s, 0, "good", animal, barn)
        setv(s, 0, "owner", 1, 1)                    # P0 owns farm 1 (R2)
        for i in farm_icons:
            setv(s, 0, "farm_animal", i, a)
        play(s, f"pay fish: flip market M{m} ({market})", "blue 4 to mat", "blue 2 right",
             f"activate market M{m} ({market})", trade)
        return s

    s = at_market(1, [1, 3])
    assert obs(s, 1)["task"] == {"kind": "pay_animal", "player": 0, "animal": animal}
    assert names(s) == [f"pay {animal} from the barn", f"pay {animal} from farm 1 icon 2 (stone)",
                        f"pay {animal} from farm 1 icon 4 (fish)"]
    play(s, f"pay {animal} from farm 1 icon 4 (fish)")
    o = obs(s)
    assert o["seats"][0]["goods"][animal] == 1 and o["resource_locations"][1]["icons"][3]["animal"] is None
    assert o["resource_locations"][1]["icons"][1]["animal"] == animal and s.current_player == 1
    s = at_market(1, [])                             # only the barn: taken from there
    assert s.current_player == 1 and obs(s)["seats"][0]["goods"][animal] == 0
    s = at_market(0, [2])                            # only farm 1's icon 3
    assert s.current_player == 1 and obs(s)["resource_locations"][1]["icons"][2]["animal"] is None


def test_animals_into_farms_how_many_which_and_where_are_the_player_s():
    """Green 2-3 right and harbour B ("up to 2 animals", "place any animal from your barn onto a
    resource icon"): each animal is a choice of animal and icon, and pass places no more."""
    s = table(2)
    setv(s, 0, "level", "green", 1)
    setv(s, 0, "good", "cow", 1)
    setv(s, 0, "good", "sheep", 2)
    play(s, "green 2 to mat", "green 2 right")
    n = names(s)
    assert obs(s)["task"] == {"kind": "farm", "player": 0, "animals_left": 2}
    assert len(n) == 2 * 20 + 1 and n[-1] == "pass"           # cow or sheep, onto any of 20 free icons
    assert "sheep -> farm 3 icon 4 (wheat)" in n and "cow -> farm 5 icon 4 (wheat)" in n
    play(s, "sheep -> farm 3 icon 4 (wheat)", "pass")         # one animal, not two
    o = obs(s)
    assert (o["seats"][0]["goods"]["sheep"], o["seats"][0]["goods"]["cow"]) == (1, 1)
    assert o["task"]["kind"] == "move"                         # then the footprint move


def test_fields_run_out_flip_and_can_be_claimed():
    s = table(2)
    setv(s, 0, "field_tokens", 2, 1)                 # wheat fields (R5): 1 token left
    play(s, "yellow 1 to mat", "yellow 1 left")      # 2 wheat: 1 from the field, 1 from the mat
    assert obs(s)["seats"][0]["goods"]["wheat"] == 2
    wf = obs(s)["resource_locations"][4]
    assert wf["kind"] == "wheat fields" and wf["tokens"] == 0 and wf["owner"] is None
    setv(s, 1, "level", "red", 0)
    play(s, "red 3 to mat", "red 1 right")
    assert "move keyple town>M5>R5" in names(s)
    play(s, "move keyple town>M5>R5")
    assert obs(s)["resource_locations"][4]["owner"] == 1
    assert score(s, 1)["fields"] == 3


# ---------------------------------------------------------------- the Keytoma solo game

def solo(**kw):
    """A solo table after setup and the human's dice (1..6), Keytoma's strip 1 light side
    (1..6) drawn for year 1: the human to lead."""
    s = table(1, **kw)
    play(s, "Keytoma's dice strip 1 light side")
    return s


def drive(s, until, roll=1):
    """Play on: chance -> Keytoma rolls `roll` (first outcome otherwise), the human plays dice
    to the mat and passes whatever is optional, until `until(s)`."""
    for _ in range(3000):
        if until(s):
            return s
        assert not s.is_terminal(), "condition never met"
        n = names(s)
        if s.is_chance():
            pick = [x for x in n if f"rolls {roll}" in x]
            s.apply_string(pick[0] if pick else n[0])
            continue
        pick = [x for x in n if x.endswith("to mat")] or [x for x in n if x == "pass"] or n
        s.apply_string(pick[0])
    raise AssertionError("condition never met")


def test_solo_setup():
    s = table(1, dice=False, flag=2)
    o = obs(s)
    assert [b["at"] for b in o["boats"]] == [1, 5, 9]
    assert all(h["dice_spaces"] == 3 and h["keyple_spaces"] == 5 for h in o["harbours"])
    assert all(r["tokens"] == 3 for r in o["resource_locations"] if r["kind"] != "farm")
    assert o["gem_bag"]["count"] == 18
    assert o["flags"] == [2, 6, 10] and [b["beacon"] for b in o["beacons"]] == ["A1", "B1", "C1"]
    assert o["seats"][0]["strip"] == 4 and o["keytoma"]["strips_left"] == [1, 2, 3]
    assert o["keytoma"]["supply"] == 18 and o["start_player"] == 0
    assert "dice strip light side" in names(s)     # the human may use the fourth strip


def test_solo_beacons_are_drawn_one_per_pile_by_chance():
    game = boardlab.make("keyside", players=1)
    s = game.new_initial_state(0)
    while not names(s)[0].startswith("beacon"):
        s.apply(s.chance_outcomes()[0][0])
    assert names(s) == [f"beacon A{k}" for k in range(1, 7)]


def test_keytoma_lands_its_higher_median_die_at_the_flag_of_its_roll():
    s = solo(flag=2)
    play(s, "yellow 1 to mat", "pass")
    assert s.is_chance() and names(s)[1] == "Keytoma rolls 2: lands at H2"
    play(s, "Keytoma rolls 2: lands at H2")          # all six dice: middle 3 and 4 -> the 4 (blue)
    o = obs(s)
    assert o["harbours"][1]["dice"] == [[9, 4]] and o["harbours"][1]["sailor"] is None
    assert o["keytoma"]["keyples"][1] == 1 and o["keytoma"]["dice_left"] == [
        "yellow", "green", "red", "purple", "orange"]
    assert o["flags"] == [3, 6, 10]                   # the flag moved on clockwise
    assert names(s) == ["follow blue 4", "pass"]      # you may follow as normal
    play(s, "pass")
    # a harbour with dice but no sailor: no boat may land there
    assert not any(n.endswith("-> H2") for n in names(s))


def test_keytoma_median_example_two_without_its_five():
    s = solo(flag=2)
    play(s, "lead purple 5: boat H5 -> H4", "Keytoma rolls 6 to follow")   # 5+ off a flag: follows
    assert obs(s)["harbours"][3]["dice"] == [[0, 5], [9, 5]]
    drive(s, lambda s: s.is_chance() and "lands" in names(s)[0])
    play(s, "Keytoma rolls 1: lands at H2")          # 1, 2, 3, 4, 6 remain: the middle 3 (red)
    assert obs(s)["harbours"][1]["dice"] == [[9, 3]]


@pytest.mark.parametrize("target, roll, follows", [("H4", 4, False), ("H4", 5, True),
                                                    ("H6", 1, False), ("H6", 2, True)])
def test_keytoma_follows_on_2_plus_at_a_flag_else_5_plus(target, roll, follows):
    s = solo(flag=2)                                  # flags at H2, H6, H10
    play(s, f"lead purple 5: boat H5 -> {target}", f"Keytoma rolls {roll} to follow")
    h = obs(s)["harbours"][int(target[1:]) - 1]
    assert (len(h["dice"]) == 2) == follows
    assert obs(s)["keytoma"]["keyples"][int(target[1:]) - 1] == (1 if follows else 0)


def _keytoma_target(o, roll):
    """The harbour Keytoma resolves for a roll: from the flag of the roll, clockwise, the first
    with dice, not resolved, holding a Keytoma keyple."""
    start = o["flags"][(roll - 1) // 2] - 1
    for i in range(12):
        h = (start + i) % 12
        if o["harbours"][h]["dice"] and not o["harbours"][h]["resolved"] and o["keytoma"]["keyples"][h]:
            return h
    return None


def test_keytoma_resolves_from_its_flag_and_its_card_acts_first():
    """Every Keytoma resolution of random solo games: the harbour found from the flag of the
    roll, and the resolution card of its dice colour, before your benefit."""
    checked = set()
    for seed in range(12):
        s = boardlab.make("keyside", players=1).new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            n = names(s)
            if s.is_chance() and "resolves from" in n[0]:
                roll = int(rng.integers(1, 7))
                before = obs(s)
                h = _keytoma_target(before, roll)
                assert h is not None
                col = before["harbours"][h]["colour"]
                s.apply_string([x for x in n if x.startswith(f"Keytoma rolls {roll}:")][0])
                after = obs(s)
                assert after["harbours"][h]["resolved"] or after["year"] != before["year"]
                nxt = names(s)[0] if s.is_chance() else ""
                if col == "red":
                    hb = before["harbours"][h]
                    free = hb["keyple_spaces"] - sum(hb["keyples"]) - before["keytoma"]["keyples"][h] \
                        - before["pirates"][h]
                    assert after["pirates"][h] - before["pirates"][h] == min(2, max(free, 0))
                elif col == "purple":
                    order = before["gem_bag"]["order"]
                    if len(order) >= 2:
                        assert len(order) - after["gem_bag"]["count"] == (1 if order[0] == order[1] else 2)
                elif col == "orange":
                    free = [(h + i) % 12 for i in range(12) if before["headlands"][(h + i) % 12] is None]
                    if free:
                        assert after["headlands"][free[0]] == {"owner": None, "tile": "landslide", "faces": None}
                elif col == "blue":
                    if any(before["skill_stacks"].values()):
                        assert nxt.startswith("Keytoma removes a")
                elif col == "green":
                    assert nxt.startswith("Keytoma rolls") and "cow onto a farm" in nxt
                elif col == "yellow":
                    assert nxt.startswith("Keytoma spares") or "pig onto a farm" in nxt or \
                        after["pirates"] != before["pirates"] or \
                        [r and r["owner"] for r in after["resource_locations"]] != \
                        [r and r["owner"] for r in before["resource_locations"]]
                checked.add(col)
                continue
            if s.is_chance():
                acts, probs = zip(*s.chance_outcomes())
                s.apply(int(rng.choice(acts)))
            else:
                s.apply(int(rng.choice(s.legal_actions())))
    assert checked == {"yellow", "green", "red", "blue", "purple", "orange"}


def test_solo_sailors_not_refilled_and_win_condition():
    s = solo(flag=2, beacons=("A2", "B3", "C1"))
    play(s, "lead purple 5: boat H5 -> H4", "Keytoma rolls 1 to follow")
    drive(s, lambda s: obs(s)["year"] == 2)
    assert sum(len(b["sailors"]) for b in obs(s)["boats"]) == 17     # the purple sailor is gone
    setv(s, 0, "keyples", "H1", 10)                   # black 1: 12 sheep -> 12 per keyple: 120
    setv(s, 0, "good", "sheep", 12)
    setv(s, 0, "good", "fish", 10)                    # B3 lit
    setv(s, 0, "headland", 0, 0)
    setv(s, 0, "headland", 1, 1)                      # A2 lit: headlands A and B
    s2 = s.clone()
    drive(s, lambda s: s.is_terminal())
    assert obs(s)["won"] is True and s.returns()[0] == 1
    setv(s2, 0, "good", "fish", 0)                    # only one beacon: lost
    drive(s2, lambda s: s.is_terminal())
    assert obs(s2)["won"] is False and s2.returns()[0] == -1


def _c1_lit(s):
    return obs(s)["beacons"][2] == {"beacon": "C1", "lit": True}


BELOW_12 = {   # scoring tiles at their own most per keyple, which is below 12
    "black 3 (4 cows: 8)": ("black", "H3", lambda s: setv(s, 0, "good", "cow", 4)),
    "black 8 (none on the mat: 6)": ("black", "H8", lambda s: setv(s, 0, "mat", 0, 0)),
    "black 9 (6 headlands: 8)": ("black", "H9", lambda s: [setv(s, 0, "headland", k, k) for k in range(6)]),
    "black 12 (6 skill tile colours: 8)": ("black", "H12",
                                           lambda s: [setv(s, 0, "skill", 3 * c + 2, 1) for c in range(6)]),
    "red 8 (10 or fewer keyples on harbours: 10)": ("red", "H8", lambda s: None),
}


@pytest.mark.parametrize("case", sorted(BELOW_12))
def test_beacon_c1_counts_a_harbour_only_where_a_keyple_scores_12(case):
    """C1, "Fulfil the 12-point multiplier condition in 2 harbours", read alike on every tile: a
    harbour with your keyple whose tile pays 12 a keyple. A tile at a most below 12 (black 3
    at 8 for 4 cows, as black 8, 9, 12 and red 8 at theirs) is not one of the two."""
    side, harbour, fill = BELOW_12[case]
    s = table(1, beacons=("A1", "B1", "C1"), scoring=side)
    play(s, "Keytoma's dice strip 1 light side")
    setv(s, 0, "keyples", "H4", 1)            # black 4: 12 wheat = 12; red 4: 6 kinds x 2 = 12
    for good in (("wheat",) if side == "black" else ("cow", "pig", "sheep", "stone", "wood", "wheat")):
        setv(s, 0, "good", good, 12 if side == "black" else 1)
    assert score(s, 0)["harbours"][3] == 12 and not _c1_lit(s)      # one harbour at 12
    setv(s, 0, "keyples", harbour, 1)
    fill(s)
    number = int(harbour[1:])
    assert 0 < score(s, 0)["harbours"][number - 1] < 12
    assert not _c1_lit(s)
    second = {"black": ("H7", {"stone": 24}), "red": ("H6", {"ruby": 6, "stone": 6})}[side]
    setv(s, 0, "keyples", second[0], 1)      # a second harbour at 12: black 7, red 6
    for good, n in second[1].items():
        setv(s, 0, "good", good, n)
    assert score(s, 0)["harbours"][int(second[0][1:]) - 1] == 12 and _c1_lit(s)


def test_solo_harder_options():
    s = table(1, dice=False, flag=2, solo_keytoma_keyple=True, solo_landslide=True, solo_pirates=True)
    o = obs(s)
    assert o["keytoma"]["keyples"][0] == 1            # anticlockwise of the 1-2 flag (H2): H1
    assert o["headlands"][4]["tile"] == "landslide"   # space H5|H6, anticlockwise of the 3-4 flag (H6)
    assert o["pirates"][8] == 2                       # anticlockwise of the 5-6 flag (H10): H9
    s = table(1, dice=False, solo_all_beacons=True)
    assert s.game.params["solo_all_beacons"] is True


def test_flags_stay_on_valid_harbours_and_keytoma_acts_by_die_number():
    """Random solo games: a flag is on a harbour not landed on this year unless none is left
    (then it shares the next flag's harbour); Keytoma's action by die number comes only when
    it has no dice and nothing to resolve while harbours remain to resolve."""
    for seed in range(60):
        s = boardlab.make("keyside", players=1).new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            o = obs(s)
            if o["phase"] == "play" and o["flags"][0] > 0:
                hs = o["harbours"]
                valid = [i for i in range(12) if not hs[i]["dice"] and not hs[i]["resolved"]]
                for f in o["flags"]:
                    h = hs[f - 1]
                    if h["dice"] or h["resolved"]:
                        assert not [i for i in valid if i + 1 not in o["flags"]], (seed, o["flags"])
            n = names(s)
            if s.is_chance() and "action" in n[0]:
                assert not o["keytoma"]["dice_left"]
                assert not any(h["dice"] and not h["resolved"] and o["keytoma"]["keyples"][i]
                               for i, h in enumerate(o["harbours"]))
                assert any(h["dice"] and not h["resolved"] and (sum(h["keyples"]) or o["red_space"] == 0)
                           for h in o["harbours"])
                assert n == [f"Keytoma rolls {k + 1}: {c} action" for k, c in enumerate(
                    ["yellow", "green", "red", "blue", "purple", "orange"])]
            if s.is_chance():
                acts, _ = zip(*s.chance_outcomes())
                s.apply(int(rng.choice(acts)))
            else:
                s.apply(int(rng.choice(s.legal_actions())))



def test_keytoma_without_harbours_acts_by_its_die_number():
    """You lead and Keytoma follows until its dice are gone while you keep some; with no harbour
    of its own left (its keyples taken off), Keytoma rolls for an action by die number."""
    def step(s):
        n = names(s)
        if s.is_chance():
            return ([x for x in n if "rolls 6 to follow" in x] or [x for x in n if "rolls 1" in x] or n)[0]
        o = obs(s)
        if o["task"]["kind"] == "keyple_in":
            return ([x for x in n if x.startswith("move keyple town")] or n)[0]
        leads = [x for x in n if x.startswith("lead")]
        if leads and o["keytoma"]["dice_left"]:
            return leads[0]
        return ([x for x in n if x.endswith("to mat")] or [x for x in n if x == "pass"] or n)[0]

    s = solo(flag=2)
    while not (not obs(s)["keytoma"]["dice_left"] and obs(s)["turn"] == 0 and not s.is_chance()):
        s.apply_string(step(s))
    assert obs(s)["seats"][0]["dice_left"]
    for h in range(12):
        setv(s, 0, "keytoma_keyples", h, 0)     # Keytoma has no harbour left to resolve
    while not (s.is_chance() and "action" in names(s)[0]):
        assert obs(s)["turn"] == 0, "Keytoma did not act by die number"
        s.apply_string(step(s))
    before = obs(s)
    assert any(h["dice"] and not h["resolved"] and sum(h["keyples"]) for h in before["harbours"])
    play(s, "Keytoma rolls 3: red action")      # red with no harbour: no pirates placed
    assert obs(s)["pirates"] == before["pirates"]


def test_cli_plays_the_solo_game_and_shows_keytomas_rolls():
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    r = subprocess.run([sys.executable, "-m", "boardlab", "play", "keyside", "--players", "1", "--seed", "3"],
                       input="1\n" * 3000, capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Game over." in out and "Keytoma rolls" in out
    assert out.startswith("keyside: solo game, seed 3. You are P0, against the game itself.")
    assert "===== Your turn (P0) =====" in out and "(P0, P0)" not in out
    assert ("You win!" in out) != ("You lose." in out) and "Winner" not in out


def test_arena_counts_a_solo_game_as_won_only_with_a_positive_return():
    from boardlab.arena import play_match
    result = play_match("keyside", {"players": 1}, ["random"], games=3, seed=1)
    assert all(o.returns == [-1.0] for o in result.outcomes)       # random never reaches 120 points
    assert result.wins == [0] and result.draws == 3
    assert "lost" in result.table() and result.mean_scores()[0] > 0


# ---------------------------------------------------------------- buildings A-X

BUILDINGS = {   # letter: (setup, cottage points, house points)
    "A": ({}, 2, 4), "B": ({"wheat": 5}, 2, 4), "C": ({"E": 1}, 2, 4), "D": ({"E": 2}, 1, 6),
    "E": ({}, 2, 4), "F": ({"pig": 2, "sheep": 3}, 2, 4), "G": ({"cow": 1, "pig": 2}, 2, 3),
    "H": ({"cow": 2, "pig": 2, "sheep": 1}, 3, 5), "I": ({}, 2, 4), "J": ({"M1": 1, "M2": 1}, 4, 8),
    "K": ({"town": 12}, 2, 4), "L": ({"hl": [2]}, 3, 6), "M": ({}, 2, 4), "N": ({"fish": 5}, 2, 4),
    "O": ({"hl": [0]}, 3, 6), "P": ({"hl": [1]}, 3, 6), "Q": ({}, 2, 4),
    "R": ({"emerald": 1, "ruby": 2}, 2, 4), "S": ({"emerald": 2, "ruby": 2, "sapphire": 1}, 2, 4),
    "T": ({}, 5, 15), "U": ({}, 2, 4), "V": ({"wood": 4}, 2, 4), "W": ({"stone": 5}, 2, 4),
    "X": ({"hl": [3, 5]}, 2, 4),
}


@pytest.mark.parametrize("letter", sorted(BUILDINGS))
def test_building_scoring(letter):
    setup, cottage, house = BUILDINGS[letter]
    col = "ABCDEFGHIJKLMNOPQRSTUVWX".index(letter) // 4
    for is_house, expected in ((0, cottage), (1, house)):
        s = table(2)
        setv(s, 0, "building", col, ord(letter) - ord("A"))
        setv(s, 0, "house", col, is_house)
        for key, value in setup.items():
            if key == "E":          # another building, green E (2: a house)
                setv(s, 0, "building", "green", 4)
                setv(s, 0, "house", "green", value == 2)
            elif key == "hl":
                for sp, tile in enumerate(value):
                    setv(s, 0, "headland", sp, tile)
            elif key in ("town", "M1", "M2"):
                setv(s, 0, "keyples", key, value)
            else:
                setv(s, 0, "good", key, value)
        assert score(s, 0)["buildings"][col] == expected


def test_animals_in_a_farm_belong_to_its_owner():
    s = table(2)
    setv(s, 0, "building", "green", 6)        # G: cow + pig pairs
    setv(s, 0, "good", "pig", 1)
    setv(s, 1, "farm_animal", 0, 0)           # a cow on farm 1 (R2)
    assert score(s, 0)["buildings"][1] == 0
    setv(s, 0, "owner", 1, 1)                 # P0's keyple claims R2 (farm 1)
    assert score(s, 0)["buildings"][1] == 2


@pytest.mark.parametrize("dest, kind", [("H2", "market"), ("H3", "skill_tile")])
def test_lighthouse_market_or_skill_tile_by_docking_side(dest, kind):
    s = table(2)
    setv(s, 1, "headland", 1, 1)              # P1's lighthouse between H2 and H3, facing H2
    setv(s, 1, "keyples", "M1", 1)            # blue market
    play(s, f"lead green 2: boat H1 -> {dest}", "pass")
    assert obs(s)["task"] == {"kind": kind, "player": 1}


def test_overbuilt_headland_is_inactive_but_counts_as_built():
    s = table(2)
    setv(s, 1, "headland", 0, 2)              # rally point H1|H2 ...
    setv(s, 1, "headland", 0, 3)              # ... overbuilt by the statue
    play(s, "lead yellow 1: boat H1 -> H2", "pass")
    assert obs(s)["seats"][1]["mat"] == 12     # no keyple recruited
    assert obs(s)["seats"][1]["headlands_built"] == "CD"
    assert score(s, 1)["statue"] == 8


def _all_mats(s):
    """Everyone plays remaining dice to the mat (passing level choices) until no dice are left."""
    def busy(o):
        return o["phase"] == "play" and (any(seat["dice_left"] for seat in o["seats"]) or o["task"]["kind"]
                                         not in ("take_or_advance", "resolve", "final_spend", "start_marker"))
    while busy(obs(s)):
        n = names(s)
        s.apply_string(([x for x in n if x.endswith("to mat")] or [x for x in n if x == "pass"])[0])
    return s


def test_end_of_year_trigger_then_play_until_the_right_of_the_start_player():
    s = _all_mats(table(2))                      # start P0: the last seat is P1
    o = obs(s)
    assert o["end_triggered"] and o["task"] == {"kind": "take_or_advance", "player": 0}
    play(s, "take stone+wood")
    assert obs(s)["seats"][0]["goods"]["stone"] >= 1
    assert obs(s)["task"] == {"kind": "take_or_advance", "player": 1} and obs(s)["year"] == 1
    play(s, "take wheat+wheat")
    assert obs(s)["year"] == 2 and obs(s)["phase"] == "dice"


def test_year_ends_at_once_when_the_right_of_the_start_player_triggers():
    s = table(2, start=1)                        # start P1: the last seat is P0
    play(s, "lead yellow 1: boat H1 -> H2", "follow yellow 1", "pass")
    _all_mats(s)
    assert obs(s)["year"] == 2                   # P0 triggered: no take-or-advance turns


def test_game_end_final_skill_tile_spending_and_start_marker():
    s = table(2)
    setv(s, 1, "skill", 0, 1)                    # P1 keeps a yellow 5 skill tile
    setv(s, 0, "skill", 9, 1)                    # P0 a blue 5
    for _ in range(3):
        _all_mats(s)
        while obs(s)["phase"] == "play" and obs(s)["task"]["kind"] == "take_or_advance":
            play(s, "take stone+stone")
        if obs(s)["phase"] == "dice":
            for p in (0, 1):
                play(s, *[f"{c} = {v}" for c, v in zip(["yellow", "green", "red", "blue", "purple", "orange"],
                                                           range(1, 7))])
    assert obs(s)["task"] == {"kind": "final_spend", "player": 0}   # from the start player
    assert names(s) == ["spend skill tile blue 5", "pass"]
    play(s, "pass")
    assert names(s) == ["spend skill tile yellow 5", "pass"]
    before = score(s, 1)["skill_tiles"]
    play(s, "spend skill tile yellow 5")
    assert score(s, 1)["skill_tiles"] == before - 5 and obs(s)["seats"][1]["tracks"]["yellow"] >= 1
    while obs(s)["task"]["kind"] != "start_marker":
        play(s, "pass" if "pass" in names(s) else names(s)[0])
    assert obs(s)["task"]["player"] == 0
    stone = obs(s)["seats"][0]["goods"]["stone"]
    play(s, "start player marker as stone")
    assert s.is_terminal() and obs(s)["start_marker_item"] == "stone"
    assert obs(s)["seats"][0]["goods"]["stone"] == stone     # counted for scoring only


def test_keyple_moves_up_to_three_roads_into_free_places_only():
    s = table(2)
    setv(s, 0, "keyples", "M1", 1)
    setv(s, 0, "level", "red", 0)
    setv(s, 1, "keyples", "H2", 4)            # H2 full in 2p (4 keyple spaces)
    setv(s, 0, "red_space", 0, 1)             # P0 holds harbour I's red space (H9)
    play(s, "red 3 to mat", "red 1 right")    # move 1 or 2 keyples up to 3 roads each
    moves = names(s)
    dests = {m.split(">")[-1] for m in moves if m.startswith("move keyple town")}
    assert "M1" not in dests                  # one own keyple per market
    assert "H2" not in dests                  # no free keyple space
    assert {"H1", "H3", "M2", "R2"} <= dests and "R1" not in dests   # R2 a farm; R1 the stocked forest
    assert not any(m.startswith("move keyple H9") for m in moves)   # the red-space keyple stays
    assert all(len(m.split(">")) <= 4 for m in moves if m.startswith("move"))
    play(s, "move keyple town>M1>H1", "move keyple H1>M1>M2")     # the same keyple twice
    assert obs(s)["seats"][0]["keyples"] == {"M1": 1, "M2": 1}
    assert obs(s)["seats"][0]["town"] == 5


def test_red_scoring_tiles_farms_markets_resources_houses_skill_values():
    s = table(2, scoring="red")
    for h in (1, 2, 3, 9, 10, 11, 12):
        setv(s, 0, "keyples", f"H{h}", 1)
    setv(s, 0, "owner", 1, 1)                 # P0's keyple owns farm 1 (R2) ...
    setv(s, 0, "keyples", "R2", 1)
    for icon, animal in enumerate([2, 1, 0]):  # ... with a sheep, a pig and a cow
        setv(s, 0, "farm_animal", icon, animal)
    setv(s, 0, "good", "sheep", 5)            # barn animals do not count for red 1-3
    for m in ("M1", "M2", "M3", "M4", "M5"):
        setv(s, 0, "keyples", m, 1)
    setv(s, 0, "building", "yellow", 0)
    setv(s, 0, "house", "yellow", 1)
    setv(s, 0, "skill", 0, 1)                 # 5 + 3 = 8 -> 4
    setv(s, 0, "skill", 4, 1)
    h = score(s, 0)["harbours"]
    assert h[0] == 1 and h[1] == 2 and h[2] == 3
    assert h[8] == 12                          # 5 keyples in markets, capped at 12
    assert h[9] == 3                           # 1 keyple on a resource tile
    assert h[10] == 3 and h[11] == 4


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 3}, {"players": 4, "first_game": True},
                                    {"players": 1}])
def test_random_games_keep_keyples_spaces_and_tokens_consistent(params):
    game = boardlab.make("keyside", **params)
    for seed in range(6):
        s = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            o = obs(s)
            if o["phase"] in ("play", "dice"):
                for q, seat in enumerate(o["seats"]):
                    placed = sum(seat["keyples"].values()) + seat["town"] + (o["red_space"] == q)
                    assert seat["mat"] + placed == 18
                    assert all(v >= 0 for v in seat["goods"].values())
                for i, h in enumerate(o["harbours"]):
                    extra = (o["keytoma"]["keyples"][i] + o["pirates"][i]) if "keytoma" in o else 0
                    assert sum(h["keyples"]) + extra <= h["keyple_spaces"]
                    assert len(h["dice"]) <= h["dice_spaces"]
                    assert len({v for _, v in h["dice"]}) >= 1 or not h["dice"]
                if "keytoma" in o:
                    assert o["keytoma"]["supply"] + sum(o["keytoma"]["keyples"]) == 18
                for r in o["resource_locations"]:
                    if r["kind"] != "farm":
                        assert 0 <= r["tokens"] <= 3 * max(2, params["players"]) and \
                            (r["owner"] is None or r["tokens"] == 0)
                for m in o["markets"]:
                    assert all(k in (0, 1) for k in m["keyples"])
            if s.is_chance():
                acts, _ = zip(*s.chance_outcomes())
                s.apply(int(rng.choice(acts)))
            else:
                s.apply(int(rng.choice(s.legal_actions())))
