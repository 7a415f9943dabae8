"""Kyūshū positions in the Map phase (Game.position with phase="map"): a seat's own hidden
Map turn with the card it took, and a turn in progress (``turn``: its actions so far), read
off a real table and set up again; a take in progress in the Selection phase; the errors."""
import random
import re

import pytest

import boardlab
from boardlab.search import ismcts
from kyushu_facts import facts_of

SAME = ("round", "phase", "current_player", "pool", "draw_pile_size", "discarded", "hand_sizes", "hands",
        "pick_boxes", "selected", "most_fewest", "travelers", "maps", "scores")
MAP_PHASES = {"map", "position", "terraform_resource_1", "terraform_resource_2", "terraform_colour",
              "terraform_fallow", "map_after"}


def play_to_turn(game, seed, round_, seat, phase="map"):
    """A random game up to the start of `seat`'s turn in round `round_` (phase "map": its
    Map turn; "select": its Selection)."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    while True:
        o = s.full_observation()
        if o["round"] == round_ and o["phase"] == phase and o["current_player"] == seat:
            return s
        assert not s.is_terminal() and o["round"] <= round_, f"no {phase} turn of P{seat} in round {round_}"
        s.apply(rng.choice(list(s.legal_actions())))


def turn_facts(real, seat, phase):
    facts = facts_of(real.observation(seat))
    if phase == "map":
        facts.update(phase="map", taken=real.observation(seat)["selected"])
    return facts


def continue_turn(real, seat, steps, seed):
    """`steps` more decisions of `seat`'s turn (fewer if the turn ends): the actions."""
    rng = random.Random(seed)
    done = []
    while len(done) < steps and real.current_player == seat:
        a = int(rng.choice(list(real.legal_actions())))
        real.apply(a)
        done.append(a)
        if real.current_player != seat:
            done.pop()          # the turn ended: keep the position inside it
            break
    return done


@pytest.mark.parametrize("params, round_, seat, steps", [
    ({"players": 2}, 1, 0, 0),
    ({"players": 2}, 3, 1, 0),
    ({"players": 3}, 4, 2, 1),
    ({"players": 2}, 6, 1, 0),
    ({"players": 2, "travelers": True, "most_fewest": True}, 9, 1, 2),
    ({"players": 4, "most_fewest": True, "travelers": True}, 10, 3, 1),
    ({"players": 5, "side": "B"}, 12, 2, 0),
])
def test_a_real_map_turn_read_by_its_seat_round_trips(params, round_, seat, steps):
    game = boardlab.make("kyushu", **params)
    for seed in range(20):      # some random games skip this turn (the card fits nowhere)
        real = play_to_turn(game, seed, round_, seat)
        facts = turn_facts(real, seat, "map")
        clone = real.clone()
        turn = continue_turn(clone, seat, steps, seed)
        if len(turn) == steps:
            real = clone
            break
    else:
        pytest.fail("no game reached the turn")
    pos = game.position(seat, seed=3, **facts, turn=turn)
    seen, again = real.observation(seat), pos.observation(seat)
    assert again["phase"] in MAP_PHASES
    for key in SAME:
        assert again[key] == seen[key], key
    assert sorted(pos.legal_actions()) == sorted(real.legal_actions())


def test_a_take_in_progress_round_trips():
    game = boardlab.make("kyushu", players=3)
    for seed in range(40):
        real = play_to_turn(game, seed, 3, 1, phase="select")
        facts = turn_facts(real, 1, "select")
        paid = [int(a) for a in real.legal_actions() if 1091 <= a < 1098]      # KA_PAID + box
        if paid:
            real.apply(paid[0])
            break
    else:
        pytest.fail("no paid take")
    pos = game.position(1, seed=2, **facts, turn=[paid[0]])
    assert pos.observation(1)["phase"] == real.observation(1)["phase"] == "pay"
    for key in SAME:
        assert pos.observation(1)[key] == real.observation(1)[key], key
    assert sorted(pos.legal_actions()) == sorted(real.legal_actions())


def test_a_map_turn_is_searched_and_the_others_turns_vary_under_determinize():
    game = boardlab.make("kyushu", players=3)
    real = play_to_turn(game, 5, 4, 2)
    pos = game.position(2, seed=1, **turn_facts(real, 2, "map"))
    result = ismcts(pos, iterations=200, seed=1)
    assert result.player == 2 and result.best_action in pos.legal_actions()
    maps = set()
    for k in range(8):
        full = pos.determinize(2, seed=k).full_observation()
        maps.add(repr(full["maps"][0]) + repr(full["maps"][1]))
    assert len(maps) > 1            # where P0 and P1 put their cards is not known to P2
    again = game.replay(pos.to_record())
    assert again.observation(2) == pos.observation(2)


def test_map_phase_errors_name_the_fact():
    game = boardlab.make("kyushu", players=2)
    real = play_to_turn(game, 5, 3, 1)
    facts = turn_facts(real, 1, "map")
    cases = [
        (dict(phase="auction"), "phase must be one of 'selection', 'map'"),
        (dict(to_move=0), "to_move: a Map phase is set up at the seat's own turn"),
        (dict(taken=facts["taken"][:1]), "taken must list the 2 cards"),
        (dict(taken=[facts["taken"][0], None]), "taken"),
        (dict(hand=facts["hand"] + [facts["taken"][0]]), "hand"),
        (dict(round=13), "round: a Map phase is played in rounds 1-12"),
        (dict(turn="orient"), "turn must be a list of action ids"),
        (dict(turn=[0]), "turn: action 1 (0) is not legal for P1"),
        (dict(turn=[True]), "turn[0] must be an integer"),
    ]
    for change, message in cases:
        with pytest.raises(ValueError, match=re.escape(message)):
            game.position(1, seed=1, **{**facts, **change})
    game.position(1, seed=1, **facts)          # the facts themselves are fine


# --- the Analyse page's form (AppTest) ------------------------------------------------------
def map_turn_in_progress(params, round_, seat, steps):
    game = boardlab.make("kyushu", **params)
    for seed in range(20):
        real = play_to_turn(game, seed, round_, seat)
        facts = turn_facts(real, seat, "map")
        turn = continue_turn(real, seat, steps, seed)
        if len(turn) == steps:
            return real, facts, turn
    pytest.fail("no game reached the turn")


def fill_map_form(at, params, seat, facts, turn_moves):
    from test_kyushu_position import _fill_form
    at.selectbox(key="seat_game").set_value("kyushu").run()
    at.radio(key="seat_ky_phase").set_value("Map (your hidden Map turn)").run()
    _fill_form(at, params, seat, facts)
    at.text_area(key="seat_ky_turn").input("\n".join(turn_moves)).run()


def test_the_analyse_form_sets_up_a_map_turn_in_progress_and_analyses_it():
    from streamlit.testing.v1 import AppTest
    from boardlab.streamlit_app import MAIN_SCRIPT

    params = {"players": 3}
    real, facts, turn = map_turn_in_progress(params, 5, 1, 1)
    replay = boardlab.replay({**real.to_record(), "actions": real.history[:-1], "moves": None,
                              "result": None})
    moves = [replay.action_to_string(turn[0])]
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=120).run()
    at.switch_page("views/analyse.py").run()
    fill_map_form(at, params, 1, facts, moves)
    assert [w.value for w in at.text_input if w.key == "seat_ky_taken"] == [
        " ".join(map(str, facts["taken"]))]
    at.button(key="seat_build").click().run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    pos = at.session_state["bl_analysis"]["seat_built"][0]
    assert pos.to_record()["position"]["facts"]["turn"] == turn
    seen, again = real.observation(1), pos.observation(1)
    for key in SAME:
        assert again[key] == seen[key], key
    at.button(key="an_seat_run").click().run()
    assert not at.exception, at.exception
    assert any("Best move for P1" in m.value for m in at.markdown)


def test_the_analyse_form_names_an_illegal_move_of_the_turn():
    from streamlit.testing.v1 import AppTest
    from boardlab.streamlit_app import MAIN_SCRIPT

    params = {"players": 2}
    real, facts, _ = map_turn_in_progress(params, 3, 0, 0)
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=120).run()
    at.switch_page("views/analyse.py").run()
    fill_map_form(at, params, 0, facts, ["fly to the moon"])
    at.button(key="seat_build").click().run()
    assert any("your turn, move 1: 'fly to the moon' is not legal there" in e.value
               for e in at.error), [e.value for e in at.error]
    assert "seat_built" not in at.session_state["bl_analysis"]
    at.text_area(key="seat_ky_turn").input("").run()
    at.button(key="seat_build").click().run()
    assert not at.error, [e.value for e in at.error]
    assert at.session_state["bl_analysis"]["seat_built"][0].observation(0)["phase"] == "map"
