"""boardlab.explain: measured comparisons of two moves, in each game's scoring categories."""
import math
import re

import numpy as np
import pytest

import boardlab
from boardlab import explain

GAMES = [("kitsu", {"players": 4}), ("kyushu", {"players": 2}), ("keyside", {"players": 2}),
         ("nukumi", {"players": 2})]
IDS = [name for name, _ in GAMES]
#: Finished games read for their categories: also the solo modes and their goals.
ENDINGS = GAMES + [("keyside", {"players": 1, "solo_all_beacons": True}),
                   ("nukumi", {"players": 1, "solo": "score_attack"}),
                   ("kyushu", {"players": 3, "most_fewest": True, "travelers": True})]


def play_random(state, rng, decisions=None):
    """Random play (chance by its probabilities) to the end, or until `decisions` moves."""
    done = 0
    while not state.is_terminal() and (decisions is None or done < decisions
                                       or state.is_chance()):
        if state.is_chance():
            outcomes = state.chance_outcomes()
            probs = np.array([p for _, p in outcomes])
            state.apply(outcomes[rng.choice(len(outcomes), p=probs / probs.sum())][0])
        else:
            legal = state.legal_actions()
            state.apply(int(legal[rng.integers(len(legal))]))
            done += 1
    return state


def position(name, params, decisions, seed=0):
    """A decision with at least two legal moves after `decisions` random moves."""
    state = boardlab.make(name, seed=1, **params).new_initial_state()
    rng = np.random.default_rng(seed)
    play_random(state, rng, decisions)
    while state.is_chance() or len(state.legal_actions()) < 2:
        play_random(state, rng, 1)
        assert not state.is_terminal(), "the game ended before a choice came up"
    return state


@pytest.mark.parametrize("name,params", ENDINGS,
                         ids=[f"{n}-{len(p)}" for n, p in ENDINGS])
def test_categories_at_the_end_are_numbers_and_win_matches_the_returns(name, params):
    state = play_random(boardlab.make(name, seed=3, **params).new_initial_state(),
                        np.random.default_rng(3))
    r = state.returns()
    for seat in range(state.game.num_players):
        cats = explain.categories(state, seat)
        assert len(cats) >= 4, cats
        assert all(isinstance(v, float) and math.isfinite(v) for v in cats.values()), cats
        assert cats["win"] == float(r[seat] == r.max() and r[seat] > 0)
        if name != "kitsu":
            score = state.full_observation()["scores"][seat]     # Kyushu: a row per seat
            assert cats["total"] == float(score["total"] if isinstance(score, dict) else score)
    if state.game.num_players > 1:
        winners = [s for s in range(state.game.num_players)
                   if explain.categories(state, s)["win"]]
        assert winners, f"nobody won a finished game: returns {r}"
    if params.get("solo_all_beacons"):
        lit = sum(b["lit"] for b in state.full_observation()["beacons"])
        assert explain.categories(state, 0)["beacons lit"] == lit


def test_kitsu_categories_follow_the_seats_clan():
    state = play_random(boardlab.make("kitsu", seed=3, players=4).new_initial_state(),
                        np.random.default_rng(3))
    obs = state.full_observation()
    for seat in range(4):
        cats = explain.categories(state, seat)
        clan = ["blue", "orange"].index(obs["clans"][seat].lower())
        assert cats["wisdom spaces"] == obs["pawns"][clan]
        assert cats["rounds won"] == obs["rounds_won"][clan]
        assert cats["opponents' wisdom spaces"] == obs["pawns"][1 - clan]


def test_kitsu_the_last_card_of_a_trick_takes_it_or_not_in_every_world():
    """A card that completes a trick decides it from what every seat has seen (the trick is
    face up): each world reports the "current trick taken" that the true game shows."""
    rng = np.random.default_rng(4)
    state = boardlab.make("kitsu", seed=4, players=4).new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 4:
        if not state.is_chance() and state.full_observation()["phase"] == "play":
            seat, obs = state.current_player, state.full_observation()
            move = int(state.legal_actions()[0])
            after = state.clone()
            after.apply(move)
            done = after.full_observation()
            # A trick the move completes, with more of the round to play after it.
            if done["tricks"] != obs["tricks"] and done["rounds_won"] == obs["rounds_won"] \
                    and not any(c["hidden"] for c in obs["trick"]):
                taken = float(done["last_trick"]["winner"] == obs["clans"][seat])
                c = explain.compare_moves(state, seat, move, move, worlds=4, seed=checked)
                row = c.categories["current trick taken"]
                assert (row.mean_a, row.half) == (taken, 0.0), state.history
                checked += 1
        play_random(state, rng, 1)
    assert checked == 4, "the random game completed too few tricks to check"


@pytest.mark.parametrize("name,params", GAMES, ids=IDS)
def test_a_move_against_itself_differs_by_exactly_zero(name, params):
    """Same worlds, same policy seed, same chance draws for both moves."""
    state = position(name, params, decisions=6)
    seat, a = state.current_player, int(state.legal_actions()[0])
    c = explain.compare_moves(state, seat, a, a, worlds=3, seed=5)
    assert c.worlds == 3 and c.seed == 5
    for key, row in c.categories.items():
        assert (row.diff, row.low, row.high) == (0.0, 0.0, 0.0), key
        assert row.mean_a == row.mean_b and row.n == 3
    assert c.significant() == []
    assert explain.explain_text(c, {a: "Play it"}) == (
        "The two moves are about equal: no category differs beyond the noise of 3 worlds.")


def test_compare_moves_is_reproducible_and_the_seed_matters():
    state = position("kyushu", {"players": 2}, decisions=10)
    seat = state.current_player
    a, b = (int(x) for x in state.legal_actions()[:2])
    first = explain.compare_moves(state, seat, a, b, worlds=4, seed=11)
    again = explain.compare_moves(state.clone(), seat, a, b, worlds=4, seed=11)
    assert first == again
    other = explain.compare_moves(state, seat, a, b, worlds=4, seed=12)
    assert other.categories != first.categories, "the seed did not change the worlds"
    assert state.history == state.clone().history     # the state itself was not touched


@pytest.mark.parametrize("name,params", GAMES, ids=IDS)
def test_equal_observations_give_equal_comparisons(name, params):
    """The worlds come from the seat's information set, never from the true state."""
    state = position(name, params, decisions=8)
    seat = state.current_player
    legal = [int(x) for x in state.legal_actions()]
    a, b = legal[0], legal[-1]
    twin = state.determinize(seat, seed=99)
    assert twin.observation(seat) == state.observation(seat)
    truth = explain.compare_moves(state, seat, a, b, worlds=2, seed=1)
    assert explain.compare_moves(twin, seat, a, b, worlds=2, seed=1) == truth


def test_an_agent_spec_is_a_policy_too():
    state = position("kitsu", {"players": 2}, decisions=4)
    seat = state.current_player
    a, b = (int(x) for x in state.legal_actions()[:2])
    c = explain.compare_moves(state, seat, a, b, worlds=3, policy="random", seed=2)
    assert c.policy == "random" and c.horizon == "round"
    assert c == explain.compare_moves(state, seat, a, b, worlds=3, policy="random", seed=2)


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _printed_numbers(text, names):
    for words in names.values():
        text = text.replace(words, "")
    return [float(x) for x in _NUMBER.findall(text)]


def _allowed(c):
    """Every number explain_text may print: the Comparison's, rounded as printed."""
    allowed = {float(c.worlds)}
    for row in c.categories.values():
        for x in (row.diff, row.half, row.mean_a, row.mean_b):
            allowed.add(round(abs(x), 1))
            allowed.add(float(round(abs(x) * 100)))
    return allowed


def test_explain_text_prints_only_the_comparisons_numbers():
    """Measured sentences on real positions: every printed number parses back to one of
    the Comparison's, and a sentence that names a difference names the largest one."""
    named = 0
    for decisions in (10, 50, 60):
        state = position("kyushu", {"players": 2}, decisions=decisions)
        seat = state.current_player
        legal = [int(x) for x in state.legal_actions()]
        names = {legal[0]: "the first card", legal[-1]: "the last card"}
        c = explain.compare_moves(state, seat, legal[0], legal[-1], worlds=8, seed=0)
        text = explain.explain_text(c, names)
        printed = _printed_numbers(text, names)
        assert printed and all(x in _allowed(c) for x in printed), (text, printed)
        if c.significant():
            named += 1
            assert "about equal" not in text and text.startswith("the first card")
            key, top = c.significant()[0]
            lead = c.categories["total"] if c.categories["total"].differs else top
            shown = round(abs(lead.diff) * 100) if key == "win" and lead is top else \
                round(abs(lead.diff), 1)
            assert shown in printed, (text, key)
        else:
            assert "about equal" in text
    assert named, "no position showed a difference beyond its noise: the test proves nothing"


def test_explain_text_on_a_made_up_comparison_names_the_largest_differences():
    row = explain.CategoryDiff
    cats = {"total": row(30.0, 25.9, 4.1, 1.2, 2.9, 5.3, 32),
            "skill_tiles": row(8.0, 5.0, 3.0, 0.9, 2.1, 3.9, 32),
            "gems": row(4.0, 3.0, 1.0, 2.0, -1.0, 3.0, 32),     # inside its noise: not named
            "win": row(0.5, 0.32, 0.18, 0.1, 0.08, 0.28, 32)}
    c = explain.Comparison("keyside", 0, 7, 9, 32, 0, "rollout", "end", cats)
    names = {7: "Take a skill tile", 9: "Pass"}
    text = explain.explain_text(c, names)
    assert text.startswith("Take a skill tile ends the game with 4.1 more points than Pass (±1.2)")
    assert "mostly skill-tile points (+3.0 ±0.9)" in text
    assert "wins 18% more" in text and "gem" not in text
    assert all(x in _allowed(c) for x in _printed_numbers(text, names)), text
    only_win = {k: (r if k == "win" else row(r.mean_a, r.mean_a, 0.0, 0.0, 0.0, 0.0, 32))
                for k, r in cats.items()}
    c2 = explain.Comparison("keyside", 0, 7, 9, 32, 0, "rollout", "end", only_win)
    assert explain.explain_text(c2, names) == (
        "Take a skill tile wins 18% more of the 32 worlds you can't tell apart than Pass (±10%).")
    with pytest.raises(ValueError, match="names has no words for move 9"):
        explain.explain_text(c, {7: "Take a skill tile"})


def test_bad_input_raises_a_value_error_naming_it():
    state = position("kitsu", {"players": 2}, decisions=4)
    seat = state.current_player
    legal = [int(x) for x in state.legal_actions()]
    illegal = next(x for x in range(state.game.num_actions) if x not in legal)
    with pytest.raises(ValueError, match=rf"move b={illegal} is not a legal action of seat {seat}"):
        explain.compare_moves(state, seat, legal[0], illegal, worlds=1)
    with pytest.raises(ValueError, match=r"move a='x' is not a legal action"):
        explain.compare_moves(state, seat, "x", legal[0], worlds=1)
    other = 1 - seat
    with pytest.raises(ValueError,
                       match=rf"seat {other} is not to move \(seat {seat} is to move\)"):
        explain.compare_moves(state, other, legal[0], legal[0], worlds=1)
    with pytest.raises(ValueError, match="seat must be a seat in"):
        explain.compare_moves(state, 7, legal[0], legal[0], worlds=1)
    with pytest.raises(ValueError, match="worlds must be an integer >= 1, got 0"):
        explain.compare_moves(state, seat, legal[0], legal[0], worlds=0)
    with pytest.raises(ValueError, match="horizon must be"):
        explain.compare_moves(state, seat, legal[0], legal[0], worlds=1, horizon="turn")
    with pytest.raises(ValueError, match="unknown agent spec"):
        explain.compare_moves(state, seat, legal[0], legal[0], worlds=1, policy="minimax")
