"""Hidden information never reaches a seat's AI, for every game.

The search may use only what the seat to move knows. So on any state ``s`` and on any
``s.determinize(p)`` (p the seat to move: the same information set, other hidden values)
the search must come to the same decision with the same root statistics, and
determinization itself must depend only on p's view and the seed, never on the true
hidden values. Positions are taken at random points of random games, so they include
the middle of simultaneous turns (Kitsu's exchange, Kyushu's Map turns).
"""
import json
from importlib import resources

import numpy as np
import pytest

import boardlab
from boardlab import agents, search

from conftest import game_cases, random_action, random_positions

CASES = game_cases()


@pytest.fixture(params=CASES)
def game(request):
    name, params = request.param
    return boardlab.make(name, seed=1, **params)


def decision_positions(game, seed, count):
    return [s for s in random_positions(game, seed=seed, count=count)
            if not s.is_terminal() and not s.is_chance()]


def full_view(state) -> str:
    return json.dumps(state.full_observation(), sort_keys=True)


def test_determinize_depends_only_on_the_view(game):
    """Two states in the same information set determinize to the same state, for every
    seat (also one waiting while another seat makes a hidden move)."""
    for i, state in enumerate(decision_positions(game, seed=21, count=30)):
        p = i % game.num_players
        others = [state.determinize(p, seed) for seed in (101, 202)]
        for seed in (7, 8):
            expected = full_view(state.determinize(p, seed))
            for other in others:
                assert other.observation(p) == state.observation(p)
                assert full_view(other.determinize(p, seed)) == expected, \
                    f"determinize({p}) reads the true hidden state at {state.history}"


def test_search_decides_from_the_seat_view_only(game):
    for state in decision_positions(game, seed=22, count=16):
        p = state.current_player
        if len(state.legal_actions()) < 2:
            continue
        truth = search.ismcts(state, iterations=150, seed=3)
        for seed in (1, 2):
            guess = search.ismcts(state.determinize(p, seed), iterations=150, seed=3)
            assert guess.best_action == truth.best_action
            assert guess.stats == truth.stats, \
                f"search statistics depend on hidden values at {state.history}"



def finish_turn(state, rng, seat):
    """Random moves of ``seat`` until someone else is to move (or chance, or the end)."""
    while not state.is_terminal() and state.current_player == seat:
        state.apply(int(rng.choice(state.legal_actions())))
    return state


def indistinguishable_branches(game, seed, count):
    """Pairs of states reached by different moves of one seat that another seat cannot
    tell apart (a hidden move: Kitsu's exchange, a Kyushu Map turn), taken right after
    the move (mid-turn) on odd positions and after the mover's whole turn on even ones."""
    rng = np.random.default_rng(seed)
    for i, state in enumerate(decision_positions(game, seed=seed, count=count)):
        q = state.current_player
        legal = state.legal_actions()
        if len(legal) < 2:
            continue
        a, b = rng.choice(legal, size=2, replace=False)
        x, y = state.clone(), state.clone()
        x.apply(int(a))
        y.apply(int(b))
        if i % 2 == 0:
            finish_turn(x, np.random.default_rng(seed), q)
            finish_turn(y, np.random.default_rng(seed + 1), q)
        for p in range(game.num_players):
            if p != q and x.observation(p) == y.observation(p):
                yield p, x, y, i % 2 == 1


def test_a_hidden_move_changes_nothing_the_others_can_use(game):
    """What a seat cannot see must not change its determinizations, its legal moves or
    its search (e.g. a shared pool changed by another seat's hidden turn)."""
    seen = 0
    for p, x, y, one_move in indistinguishable_branches(game, seed=24, count=80):
        seen += 1
        for seed in (3, 4):
            assert full_view(x.determinize(p, seed)) == full_view(y.determinize(p, seed)), \
                f"determinize({p}) sees another seat's hidden move at {x.history} / {y.history}"
        if one_move:     # (a whole turn may take public steps the observation forgets)
            assert x.observed_history(p) == y.observed_history(p), \
                f"the history seat {p} sees shows another seat's hidden move"
        if x.current_player == p == y.current_player:
            assert np.array_equal(x.legal_actions(), y.legal_actions())
            if len(x.legal_actions()) > 1:
                sx = search.ismcts(x, iterations=100, seed=5)
                sy = search.ismcts(y, iterations=100, seed=5)
                assert sx.stats == sy.stats
                # Same view, same past as p saw it: an agent's per-move seed must not
                # count the hidden steps (e.g. terraforming inside a hidden Map turn).
                if x.observed_history(p) == y.observed_history(p):
                    agent = agents.ISMCTSAgent(iterations=50, seed=1)
                    assert agent.step(x) == agent.step(y)
                    assert agent.analyse(x).stats == agent.analyse(y).stats
    if game.name in ("kitsu", "kyushu") and game.num_players > 2:
        assert seen > 0, "no hidden move found to test"



def test_observed_history_kept_along_a_game_equals_a_fresh_reading(game):
    """A state keeps each seat's reader and reads only the newest actions on a copy of it
    (State.observed_history); along a seeded random game, and on clones that branch off,
    that equals the whole history read afresh from the start, for every seat."""
    rule = getattr(game._module, "SeenHistory", boardlab.games.seen_history.SeenHistory)

    def fresh(history, seat):
        return rule.of(game.new_initial_state(seed=2)._core, history, seat)
    rng = np.random.default_rng(3)
    state, checked = game.new_initial_state(seed=2), 0
    while not state.is_terminal():
        for seat in range(game.num_players):
            kept = state.observed_history(seat)
            if len(state.history) % 17 == 0:
                assert kept == fresh(state.history, seat), \
                    f"seat {seat}'s kept history differs after {state.history}"
                checked += 1
        if len(state.history) % 23 == 0:        # a clone's own move does not reach the original
            branch = state.clone()
            branch.apply(random_action(branch, rng))
            assert branch.observed_history(0) == fresh(branch.history, 0)
        state.apply(random_action(state, rng))
    assert checked > 0


def test_kitsu_observed_history_hides_only_what_is_hidden():
    """Deals to other hands and exchanges between others are hidden for good; another
    seat's face-down card until its trick ends; every play, token and choice is public."""
    game = boardlab.make("kitsu", players=4, seed=1)
    rng = np.random.default_rng(5)
    face_down_checked = 0
    for seed in range(8):
        state = game.new_initial_state(seed)
        moves = []                               # (actor, action, text)
        while not state.is_terminal():
            if state.is_chance():
                outcomes = state.chance_outcomes()
                action = outcomes[int(rng.integers(len(outcomes)))][0]
            else:
                action = int(rng.choice(state.legal_actions()))
            moves.append((state.current_player, action, state.action_to_string(action)))
            state.apply(action)
            actor, _, text = moves[-1]
            on_table = any(card.get("hidden") for card in state.full_observation()["trick"])
            if text.endswith(" with hidden") and on_table:   # face down until the trick ends
                face_down_checked += 1
                for p in range(4):
                    expected = moves[-1][1] if p == actor else boardlab.HIDDEN
                    assert state.observed_history(p)[-1] == expected
        for p in range(4):
            expected = []
            for actor, action, text in moves:
                if text.startswith(("deal ", "draw ")):
                    visible = text.endswith(f" to P{p}")
                elif text.startswith("give "):       # the exchange is over at the end
                    visible = p in (actor, (actor + 2) % 4)
                else:                            # at the end every trick is over
                    visible = True
                expected.append(action if visible else boardlab.HIDDEN)
            assert state.observed_history(p) == expected
    assert face_down_checked > 0


def test_keyside_observed_history_hides_secret_dice_until_the_reveal():
    """Another seat's secret dice are one HIDDEN entry once it has set all six (its steps are
    left out while it sets them); at the reveal every step is shown."""
    game = boardlab.make("keyside", players=3, seed=1)
    rng = np.random.default_rng(2)
    state = game.new_initial_state(4)
    checked = 0
    while not state.is_terminal():
        actor = state.current_player
        text = ""
        if state.is_chance():
            outcomes = state.chance_outcomes()
            action = outcomes[int(rng.integers(len(outcomes)))][0]
        else:
            action = int(rng.choice(state.legal_actions()))
            text = state.action_to_string(action)
        before = [state.observed_history(p) for p in range(3)]
        state.apply(action)
        if " = " in text:                       # a die set in secret
            revealed = state.full_observation()["phase"] != "dice"
            done = state.current_player != actor
            for p in range(3):
                seen = state.observed_history(p)
                if revealed:                        # all dice of the year shown together
                    assert seen == state.history[:len(seen)] and len(seen) == len(state.history)
                elif p == actor:
                    assert seen == before[p] + [action]
                else:                               # nothing while it sets, one entry when done
                    assert seen == before[p] + ([boardlab.HIDDEN] if done else [])
            checked += 1
            if checked > 40:
                break
    assert checked > 18


COLOURS = ("yellow", "green", "red", "blue", "purple", "orange")


def _year_three_dice():
    """A 3-player game with dice strips played (last legal moves) to year 3's secret dice, the
    seats before P0 done (first values): P0 to set its dice."""
    game = boardlab.make("keyside", players=3, dice_strips=True, seed=1)
    s = game.new_initial_state(5)
    while s.is_chance() or s.full_observation()["year"] < 3:
        s.apply(s.chance_outcomes()[0][0] if s.is_chance() else int(s.legal_actions()[-1]))
    while s.current_player != 0:
        s.apply(int(s.legal_actions()[0]))
    assert s.full_observation()["phase"] == "dice" and "dice strip light side" in \
        [s.action_to_string(int(a)) for a in s.legal_actions()]
    return s


def _set(s, moves):
    s = s.clone()
    for m in moves:
        s.apply_string(m)
    return s


def test_keyside_a_dice_strip_side_chosen_in_year_three_is_as_hidden_as_the_dice():
    """Year 3 with dice strips: "players individually choose either side of the dice strip or
    select the dice without using the dice strip". The strips are public, so the side would
    give away all six dice: until the reveal the other seats' observation, history, log and
    determinization cannot tell a strip side from six values set one by one, and
    determinization varies the dice the side stands for."""
    from boardlab import cli
    data = json.loads(resources.files("boardlab").joinpath("data/keyside.json").read_text())
    start = _year_three_dice()
    strip = data["dice_strips"]["strips"][start.full_observation()["seats"][0]["strip"] - 1]
    light = _set(start, ["dice strip light side"])
    by_hand = _set(start, [f"{c} = {v}" for c, v in zip(COLOURS, strip["deep"])])   # the other side's values
    plain = _set(start, [f"{c} = {v}" for c, v in zip(COLOURS, [6, 5, 4, 3, 2, 1])])
    halfway = _set(start, ["yellow = 6", "green = 5", "red = 4"])
    assert light.full_observation()["seats"][0]["dice"] == dict(zip(COLOURS, strip["light"]))
    assert light.full_observation()["phase"] == "dice" and light.current_player == 1
    for p in (1, 2):
        seen = light.observation(p)
        assert seen == by_hand.observation(p) == plain.observation(p)
        assert set(seen["seats"][0]["dice"].values()) == {None} and seen["seats"][0]["dice_set"] == 6
        assert light.observed_history(p) == by_hand.observed_history(p) == plain.observed_history(p)
        assert light.observed_history(p) == start.observed_history(p) + [boardlab.HIDDEN]
        # while P0 sets its dice the others see no progress (a strip takes one step, values six)
        assert halfway.observation(p) == start.observation(p)
        assert halfway.observed_history(p) == start.observed_history(p)
        for seed in range(4):
            assert light.determinize(p, seed).full_observation() == by_hand.determinize(p, seed).full_observation()
            assert halfway.determinize(p, seed).full_observation() == start.determinize(p, seed).full_observation()
        dealt = {tuple(light.determinize(p, seed).full_observation()["seats"][0]["dice"].values())
                 for seed in range(12)}
        assert len(dealt) > 1 and any(d != tuple(strip["light"]) for d in dealt)
        assert all(sorted(d) == [1, 2, 3, 4, 5, 6] for d in dealt)
    # The log and the command line: one line for the whole setting, whichever way it was done.
    for s, steps in ((light, 1), (by_hand, 6)):
        replay = s.game.new_initial_state(5)
        for a in s.history[:-steps]:
            replay.apply(a)
        lines = []
        for a in s.history[-steps:]:
            lines.append(cli.move_text("keyside", replay, a, 0, 1))
            replay.apply(a)
        assert [x for x in lines if x] == ["P0 sets their dice in secret"]
    assert light.observed_history(0)[-1] == light.history[-1]      # P0 knows its own choice


def test_nukumi_observed_history_hides_only_others_helper_draws():
    game = boardlab.make("nukumi", players=3, seed=1)
    rng = np.random.default_rng(3)
    state = game.new_initial_state(5)
    moves = []
    while not state.is_terminal():
        if state.is_chance():
            outcomes = state.chance_outcomes()
            action = outcomes[int(rng.integers(len(outcomes)))][0]
        else:
            action = int(rng.choice(state.legal_actions()))
        moves.append((state.is_chance(), action, state.action_to_string(action)))
        state.apply(action)
    draws = 0
    for p in range(3):
        expected = []
        for chance, action, text in moves:
            helper_to_other = chance and " draws S-" in text and not text.startswith(f"P{p} ")
            draws += helper_to_other
            expected.append(boardlab.HIDDEN if helper_to_other else action)
        assert state.observed_history(p) == expected
    assert draws > 0
