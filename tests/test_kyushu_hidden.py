"""Kyūshū hidden information: the simultaneous Map turns, determinization and
what observations show (docs/kyushu.md, "Hidden information")."""
import json

import numpy as np
import pytest

import boardlab
from boardlab import _kyushu_scenario, search
from conftest import random_action, random_positions
from kyushu_table import cell, names, obs, paint, play, table

HANDS3 = {0: [1, 2, 3, 4, 5, 6], 1: [8, 13, 11, 12, 14, 15], 2: [21, 22, 23, 24, 25, 26]}


def drained_table(replace0=2, replace1=11):
    """3p, P0 to place card 1 and P1 card 8 (both with a blue Production square),
    one blue resource left in the pool, and P1 holding a single resource (so
    whether it may terraform after placing depends on the blue it gets)."""
    s = table(3, hands=HANDS3)
    blue = obs(paint(s, 2, []))["pool"]["blue"]
    paint(s, 2, [" ".join(["Pb*"] * blue)], top=5, left=2)          # P2 soaks up the blues...
    paint(s, 2, ["Pb"], top=5, left=2, clear=False)                  # ...but one
    _kyushu_scenario.set_cell(s, 1, 16, 16, 6 + 3, 0, -1)            # P1's q17 purple goes back
    play(s, "take 1 from own box", f"replace with {replace0}", "take 8 from own box",
         f"replace with {replace1}", "take 21 from own box", "replace with 22")
    assert obs(s)["pool"]["blue"] == 1 and s.current_player == 0
    assert sum(1 for c in obs(s)["maps"][1]["cells"] if c["resource"]) == 1
    return s


def p0_turn(s, move):
    """P0's Map turn: `move` ("horizontal at q17 over"), then end it."""
    orient = " ".join(move.split()[:1] + move.split()[-1:])
    play(s, f"orient 1 {orient}", f"place 1 {move}")
    while s.current_player == 0:
        play(s, "end turn")
    return s


BLUE_SHOWN, BLUE_COVERED = "horizontal at q17 over", "horizontal at m16 under"


def test_a_hidden_map_turn_does_not_leak_through_the_pool():
    """The issue's reproduction: P0 takes the last blue or not; P1 cannot tell, so
    nothing of its own turn (resources, legal moves, observation) may differ."""
    a, b = drained_table(), drained_table()
    p0_turn(a, BLUE_SHOWN)
    p0_turn(b, BLUE_COVERED)
    assert cell(a, 0, "s17")["resource"] == "blue" and not blue_squares(b, 0, 1)
    assert a.observation(1) == b.observation(1)
    for move in ("orient 8 horizontal over", "place 8 horizontal at q15 over"):
        assert names(a) == names(b)
        play(a, move)
        play(b, move)
    assert a.observation(1) == b.observation(1)
    assert cell(a, 1, "r15", viewer=1)["resource"] == "blue"         # from the pool as P1 sees it
    assert names(a) == names(b) == ["terraform", "end turn"]         # two resources now
    for s in (a, b):
        play(s, "terraform", "discard blue at r15", "discard grey at p16", "choose grey (forest tile)")
        assert s.observation(1) == a.observation(1) and names(s) == names(a)


def finish_map_phase(s):
    while obs(s)["unrevealed"]:
        play(s, "end turn") if "end turn" in names(s) else s.apply(int(s.legal_actions()[-1]))
    return s


def test_contested_resources_are_settled_at_the_reveal_first_seat_first():
    """Two seats took the last blue: at the reveal the round's first seat in the
    settlement order (round 1: P0) keeps it, P1's square loses it; nobody's
    resources are invented or lost."""
    s = drained_table()
    p0_turn(s, BLUE_SHOWN)
    play(s, "orient 8 horizontal over", "place 8 horizontal at q15 over", "end turn")
    assert cell(s, 1, "r15")["resource"] == "blue"                   # pending until the reveal
    assert obs(s)["pool"]["blue"] == 0                               # the pool as it will settle
    assert obs(s)["overdrawn"] == {"blue": 1, "brown": 0, "grey": 0, "purple": 0}
    finish_map_phase(s)
    assert cell(s, 0, "s17")["resource"] == "blue" and cell(s, 1, "r15")["resource"] is None
    o = obs(s)
    assert o["pool"]["blue"] == 0
    assert sum(1 for m in o["maps"] for c in m["cells"] if c["resource"]) + sum(o["pool"].values()) == 56


def blue_squares(s, seat, card):
    return [c for c in obs(s)["maps"][seat]["cells"]
            if c["card"] == card and c["terrain"] == "production" and c["colour"] == "blue"]


def place_first_over(s, card):
    play(s, next(m for m in names(s) if m.startswith(f"orient {card}") and m.endswith(" over")))
    play(s, names(s)[0])
    while "end turn" in names(s):
        play(s, "end turn")


def test_settlement_order_rotates_with_the_round():
    """Round 2: P1 is first in the settlement order, so P1 keeps the last blue."""
    s = drained_table(replace0=4, replace1=13)
    p0_turn(s, BLUE_COVERED)
    play(s, "orient 8 horizontal over", "place 8 horizontal at q15 over", "end turn")
    finish_map_phase(s)
    assert obs(s)["round"] == 2 and obs(s)["pool"]["blue"] == 0
    _kyushu_scenario.set_cell(s, 2, 5, 3, 6, 0, -1)                  # one blue back to the pool
    play(s, "take 4 from own box", "replace with 2", "take 13 from own box", "replace with 11",
         "take 22 from own box", "replace with 23")
    place_first_over(s, 4)
    place_first_over(s, 13)
    assert blue_squares(s, 0, 4)[0]["resource"] == blue_squares(s, 1, 13)[0]["resource"] == "blue"
    finish_map_phase(s)
    assert blue_squares(s, 0, 4)[0]["resource"] is None
    assert blue_squares(s, 1, 13)[0]["resource"] == "blue"
    assert obs(s)["pool"]["blue"] == 0


def test_taking_a_card_is_public():
    """After P0 takes a card (and before it refills the box) the others see which
    card, from which box and how."""
    s = table(3, hands=HANDS3)
    before = s.observation(1)
    play(s, "take 1 from own box")
    seen = s.observation(1)
    assert seen["taking"] == {"seat": 0, "box": 0, "card": 1, "option": "own"}
    assert seen != before
    other = table(3, hands=HANDS3)
    play(other, "take 21 from right box")
    assert other.observation(1)["taking"] == {"seat": 0, "box": 2, "card": 21, "option": "right"}
    assert other.observation(2)["taking"] == other.observation(1)["taking"]
    play(other, "replace with 3")
    assert other.observation(1)["taking"] is None


def test_a_terraforming_under_way_is_in_its_seat_observation():
    s = with_fallow(drained_table())
    play(s, "terraform", "discard blue at o16")
    mine = s.observation(0)["my_turn"]
    assert mine["discarded"] == "o16" and mine["discarded_colours"] == ["blue"] and mine["tile"] is None
    play(s, "discard brown at p17", "choose brown (town tile)")
    mine = s.observation(0)["my_turn"]
    assert mine["discarded_colours"] == ["blue", "brown"] and mine["tile"] == "town"
    assert s.observation(1)["my_turn"] is None


def test_a_traveler_being_sent_is_public():
    s = table(3, travelers=True)
    rng = np.random.default_rng(5)
    while not obs(s)["phase"].startswith("traveler"):
        s.apply(random_action(s, rng))
    mover = s.current_player
    viewer = (mover + 1) % 3
    assert s.observation(viewer)["travelers"]["sending"] == {
        "seat": mover, "host": (mover + 1) % 3, "from": None, "colour": None}
    send = names(s)[0]                                               # "traveler to P0 with blue from p16"
    play(s, send)
    colour, square = send.split(" with ")[1].split(" from ")
    assert s.observation(viewer)["travelers"]["sending"] == {
        "seat": mover, "host": (mover + 1) % 3, "from": square, "colour": colour}


# ---------------------------------------------------------------- determinization

def full_view(state):
    return json.dumps(state.full_observation(), sort_keys=True)


def with_fallow(s):
    """A lone Fallow at o21 on P0's map, so P0 may terraform."""
    _kyushu_scenario.set_cell(s, 0, 20, 14, 5)
    return s


def test_determinize_resamples_the_map_turn_in_progress():
    """P0 has chosen an orientation (or placed, or begun terraforming): P1 does not
    know it, so determinize(1) starts P0's turn again, whatever P0 did."""
    branches = [with_fallow(drained_table()) for _ in range(4)]
    play(branches[0], "orient 1 horizontal over")
    play(branches[1], "orient 1 vertical under")
    play(branches[2], "orient 1 horizontal over", "place 1 horizontal at q17 over")
    branches[3].apply_string("terraform")
    views = {json.dumps(b.observation(1), sort_keys=True) for b in branches}
    assert len(views) == 1
    for seed in (1, 2):
        dets = {full_view(b.determinize(1, seed)) for b in branches}
        assert len(dets) == 1
        d = branches[2].determinize(1, seed)
        assert d.full_observation()["phase"] == "map"
        assert d.full_observation()["my_turn"]["orientation"] is None
        assert not blue_squares(d, 0, 1)                             # P0's card not placed yet
        assert d.full_observation()["maps"][0] == branches[2].observation(1)["maps"][0]
    # P0 itself keeps its own turn.
    assert branches[2].determinize(0, 1).full_observation()["maps"][0] == obs(branches[2])["maps"][0]


def test_determinize_resamples_finished_map_turns_from_the_view_only():
    """P0 finished its turn in two ways P1 cannot tell apart (one took the last
    blue and terraformed): P1's determinizations are the same."""
    a, b = with_fallow(drained_table()), with_fallow(drained_table())
    p0_turn(a, BLUE_SHOWN)
    play(b, "orient 1 horizontal under", "place 1 horizontal at m16 under",
         "terraform", "discard blue at o16", "discard brown at p17", "choose blue (lake tile)",
         "lake tile at o21")
    assert a.observation(1) == b.observation(1) and a.current_player == b.current_player == 1
    for seed in range(4):
        assert full_view(a.determinize(1, seed)) == full_view(b.determinize(1, seed))
        assert a.determinize(1, seed)._core.to_bytes() == b.determinize(1, seed)._core.to_bytes()
    assert len({full_view(a.determinize(1, seed)) for seed in range(6)}) > 1


def mid_map_positions(game, seed, count):
    """Random decision positions, half of them inside a Map phase (some mid-turn)."""
    rng = np.random.default_rng(seed)
    out = [s for s in random_positions(game, seed=seed, count=count)
           if not s.is_terminal() and not s.is_chance()]
    for s in random_positions(game, seed=seed + 1, count=count):
        while not s.is_terminal() and not (obs(s)["unrevealed"] and s.current_player > 0):
            s.apply(random_action(s, rng))
        if s.is_terminal():
            continue
        for _ in range(int(rng.integers(0, 3))):                    # somewhere in the turn
            if s.current_player >= 0 and obs(s)["unrevealed"]:
                s.apply(int(rng.choice(s.legal_actions())))
        if s.current_player >= 0:
            out.append(s)
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_determinize_is_a_function_of_the_view_and_the_seed(players):
    game = boardlab.make("kyushu", players=players, travelers=players % 2 == 1,
                         most_fewest=players >= 4)
    positions = mid_map_positions(game, seed=players, count=12)
    assert sum(obs(s)["unrevealed"] for s in positions) >= 6
    for i, s in enumerate(positions):
        for p in {s.current_player, i % players}:
            worlds = [s] + [s.determinize(p, k) for k in (11, 12)]
            for w in worlds[1:]:
                assert w.observation(p) == s.observation(p)
            for k in (1, 2):
                views = {w.determinize(p, k)._core.to_bytes() for w in worlds}
                assert len(views) == 1, f"determinize({p}) reads hidden values at {s.history}"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_search_is_the_same_on_a_state_and_its_determinizations(players):
    game = boardlab.make("kyushu", players=players)
    for s in mid_map_positions(game, seed=10 + players, count=5):
        p = s.current_player
        truth = search.ismcts(s, iterations=300, seed=1)
        for k in (1, 2):
            guess = search.ismcts(s.determinize(p, seed=k), iterations=300, seed=1)
            assert guess.stats == truth.stats and guess.best_action == truth.best_action


def test_a_take_from_the_left_box_keeps_a_higher_card_in_the_takers_hand():
    """The only hand constraint (a higher / lower card after a take from the left /
    right box) is always satisfiable: the taker's true card is among the unknown ones,
    so sampling never fails and never falls back to the true hands."""
    s = table(3, hands={0: [1, 2, 3, 4, 5, 6], 1: [11, 12, 13, 14, 15, 60], 2: [21, 22, 23, 24, 25, 26]})
    play(s, "take 1 from own box", "replace with 2", "take 21 from left box")
    assert s.observation(0)["taking"]["option"] == "left"
    hands = set()
    for seed in range(40):
        d = s.determinize(0, seed)
        assert [n for n in names(d) if n.startswith("replace with")], "no legal replacement"
        assert all(int(n.split()[-1]) > 21 for n in names(d))
        hands.add(tuple(d.full_observation()["hands"][1]))
    assert len(hands) > 30


# ---------------------------------------------------------------- a determinized history

def test_a_determinized_history_holds_only_what_its_seat_saw():
    s = with_fallow(drained_table())
    p0_turn(s, BLUE_SHOWN)
    other = with_fallow(drained_table())
    play(other, "orient 1 horizontal under", "place 1 horizontal at m16 under",
         "terraform", "discard blue at o16", "discard brown at p17", "choose blue (lake tile)",
         "lake tile at o21")
    assert len(other.history) > len(s.history) and other.observation(1) == s.observation(1)
    seen = s.determinize(1, 5).history
    # Another seat's Map turn is one hidden entry however long it was.
    assert seen == other.determinize(1, 5).history == s.observed_history(1)
    assert seen[-1] == boardlab.HIDDEN and seen[:-1] == s.observed_history(1)[:-1]
    # Cards dealt to the other hands are hidden, P1's own deals and public moves are not.
    texts, replay = [], s.game.new_initial_state(s._seed)
    for a in s.history[:len(seen) - 1]:
        texts.append(replay.action_to_string(a))
        replay.apply(a)
    for text, a, b in zip(texts, s.history, seen):
        private = text.startswith("deal ") and not text.endswith(" to P1")
        assert b == (boardlab.HIDDEN if private else a), text
    assert sum(t.startswith("deal ") and t.endswith(" to P1") for t in texts) == 6
    # P1 in the middle of its own turn sees all of it; P0's turn in progress is left out.
    play(s, "orient 8 horizontal over")
    assert s.determinize(1, 5).history == seen + [s.history[-1]]
    mid = with_fallow(drained_table())
    play(mid, "orient 1 horizontal over")
    assert mid.determinize(1, 5).history == mid.observed_history(1)
    assert len(mid.determinize(1, 5).history) == len(mid.history) - 1
    assert mid.determinize(0, 5).history[-1] == mid.history[-1]
