"""Kyūshū positions from a seat's knowledge (Game.position): built, searched,
refused with the bad fact named, read back from a real game, re-dealt."""
import pytest

import boardlab
from boardlab.games import kyushu
from boardlab.search import ismcts
from kyushu_facts import facts_of, form_text, play_to_selection


SAME = ("round", "phase", "current_player", "pool", "draw_pile_size", "discarded", "hand_sizes", "hands",
        "pick_boxes", "selected", "most_fewest", "travelers", "maps", "scores")


@pytest.mark.parametrize("params, round_, to_move, seat", [
    ({"players": 3}, 4, 0, 1),
    ({"players": 2}, 9, 1, 1),
    ({"players": 2, "most_fewest": True}, 3, 0, 1),
    ({"players": 4, "most_fewest": True, "travelers": True}, 10, 2, 3),
    ({"players": 5, "side": "B", "travelers": True}, 8, 4, 2),
])
def test_a_real_table_read_by_a_seat_round_trips(params, round_, to_move, seat):
    game = boardlab.make("kyushu", **params)
    real = play_to_selection(game, 7, round_, to_move)
    seen = real.observation(seat)
    pos = game.position(seat, seed=3, **facts_of(seen))
    again = pos.observation(seat)
    for key in SAME:
        assert again[key] == seen[key], key
    if seat == to_move:   # the mover's choices depend on its hand, which only it sees
        assert sorted(pos.legal_actions()) == sorted(real.legal_actions())


def test_position_is_searched_and_replays():
    game = boardlab.make("kyushu", players=3)
    real = play_to_selection(game, 11, 3, 1)
    pos = game.position(1, seed=5, **facts_of(real.observation(1)))
    result = ismcts(pos, iterations=200, seed=1)
    assert result.player == 1 and sum(st["visits"] for st in result.stats) >= 199
    move = result.best_action
    assert move in pos.legal_actions()
    pos.apply(move)
    again = game.replay(pos.to_record())
    assert again.observation(1) == pos.observation(1)


def test_the_hidden_rest_varies_under_determinize():
    game = boardlab.make("kyushu", players=4)
    real = play_to_selection(game, 2, 2, 0)
    pos = game.position(0, seed=1, **facts_of(real.observation(0)))
    hands = set()
    for k in range(8):
        d = pos.determinize(0, seed=k) if "seed" in pos.determinize.__code__.co_varnames else pos.determinize(0)
        full = d.full_observation()
        assert full["hands"][0] == pos.observation(0)["hands"][0]
        hands.add(tuple(map(tuple, full["hands"][1:])))
    assert len(hands) > 1
    other = game.position(0, seed=2, **facts_of(real.observation(0)))
    assert other.full_observation()["hands"][1:] != pos.full_observation()["hands"][1:]


def _base():
    game = boardlab.make("kyushu", players=3, travelers=True)
    real = play_to_selection(game, 7, 8, 1)
    return game, facts_of(real.observation(0))


def _first_resource(f):
    return f["resources"][0]


BAD = [
    ("round", lambda f: f.update(round=6)),
    ("round", lambda f: f.update(round="3")),
    ("hand", lambda f: f.update(hand=f["hand"][1:])),
    ("hand", lambda f: f.update(hand=[61] + f["hand"][1:])),
    ("cards", lambda f: f.update(hand=[f["pick_boxes"][0]] + f["hand"][1:])),
    ("maps", lambda f: f.update(maps=f["maps"][:2])),
    ("maps", lambda f: f["maps"][0][1].update(row=0, col=0)),
    ("maps", lambda f: f["maps"][1].__setitem__(0, {**f["maps"][1][0], "card": f["maps"][0][0]["card"]})),
    ("maps[0] card 1 orientation", lambda f: f["maps"][0][1].update(orientation="diagonal")),
    ("maps[0] card 1 layer", lambda f: f["maps"][0][1].update(layer="beside")),
    ("pick_boxes", lambda f: f.update(pick_boxes=f["pick_boxes"][:2])),
    ("pick_boxes", lambda f: f["pick_boxes"].__setitem__(0, None)),
    ("taken", lambda f: f.update(taken=[])),
    ("to_move", lambda f: f.update(to_move=7)),
    ("pool", lambda f: f["pool"].update(blue=f["pool"]["blue"] + 1)),
    ("pool colour", lambda f: f.update(pool={"gold": 1})),
    ("resources", lambda f: _first_resource(f).update(colour=[c for c in kyushu.COLOURS
                                                              if c != _first_resource(f)["colour"]][0])),
    ("resources", lambda f: f["resources"].append(dict(f["resources"][0]))),
    ("resources[0]", lambda f: f["resources"].__setitem__(0, {"seat": 0})),
    ("tiles", lambda f: f.update(tiles=[{"seat": 0, "row": f["resources"][0]["row"],
                                         "col": f["resources"][0]["col"], "terrain": "lake"}])),
    ("tiles[0] terrain", lambda f: f.update(tiles=[{"seat": 0, "row": 0, "col": 0, "terrain": "sea"}])),
    ("travelers", lambda f: f.update(travelers=[{"owner": 0, "host": 0, "row": 0, "col": 0}])),
    ("most_fewest", lambda f: f.update(most_fewest=[[1, "most"]] * 3)),
    ("discarded", lambda f: f.update(discarded=[1, 2])),
    ("unknown kyushu position fact", lambda f: f.update(weather="rain")),
    # An empty or false value of the wrong type is not "absent" (it once read as an empty list).
    ("turn", lambda f: f.update(turn="")),
    ("tiles", lambda f: f.update(tiles={})),
    ("travelers", lambda f: f.update(travelers=False)),
    ("discarded", lambda f: f.update(discarded="")),
    ("phase", lambda f: f.update(phase=False)),
    ("pool", lambda f: f.update(pool=[])),
    ("travelers[0] active", lambda f: f.update(travelers=[{"owner": 0, "host": 0, "row": 0, "col": 0,
                                                              "active": 1}])),
]


@pytest.mark.parametrize("name, spoil", BAD, ids=[f"{i}-{b[0]}" for i, b in enumerate(BAD)])
def test_every_bad_fact_is_refused_by_name(name, spoil):
    game, facts = _base()
    game.position(0, **facts)   # the unspoilt facts are fine
    spoil(facts)
    with pytest.raises(ValueError, match=name.replace("[", r"\[").replace("]", r"\]")):
        game.position(0, **facts)


def test_a_bad_position_record_is_a_record_error():
    game, facts = _base()
    record = game.position(0, **facts).to_record()
    record = dict(record)
    pos = dict(record["position"])
    pos["facts"] = {**pos["facts"], "round": 6}
    record["position"] = pos
    with pytest.raises(boardlab.RecordError, match="round"):
        game.replay(record)


# --- the Analyse page's form (AppTest) ------------------------------------------------------
def _fill_form(at, params, seat, facts):
    at.selectbox(key="seat_game").set_value("kyushu").run()
    at.selectbox(key="seat_ky_players").set_value(params["players"]).run()
    if params.get("travelers"):
        at.checkbox(key="seat_ky_trav").check().run()
    if params.get("most_fewest"):
        at.checkbox(key="seat_ky_mf").check().run()
    at.selectbox(key="seat_ky_seat").set_value(seat)
    at.selectbox(key="seat_ky_round").set_value(facts["round"])
    at.run()
    for name, text in form_text(facts, params["players"]).items():
        widgets = [w for w in list(at.text_input) + list(at.text_area)
                   if w.key == f"seat_ky_{name}" and not w.proto.disabled]
        if widgets:
            widgets[0].input(text)
        else:
            assert not text, name
    at.run()


@pytest.mark.parametrize("params, round_, seat", [({"players": 3, "travelers": True}, 8, 2),
                                                  ({"players": 2, "most_fewest": True}, 4, 1)])
def test_the_analyse_form_sets_up_a_seats_table_and_analyses_it(params, round_, seat):
    from streamlit.testing.v1 import AppTest
    from boardlab.streamlit_app import MAIN_SCRIPT

    game = boardlab.make("kyushu", **params)
    real = play_to_selection(game, 5, round_, seat)
    seen = real.observation(seat)
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=120).run()
    at.switch_page("views/analyse.py").run()
    _fill_form(at, params, seat, facts_of(seen))
    at.button(key="seat_build").click().run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert any(f"P{seat} to move" in s.value for s in at.success)
    pos = at.session_state["bl_analysis"]["seat_built"][0]
    again = pos.observation(seat)
    for key in SAME:
        assert again[key] == seen[key], key
    at.button(key="an_seat_run").click().run()
    assert not at.exception, at.exception
    best = [m.value for m in at.markdown if "Best move for" in m.value]
    assert best and f"P{seat}" in best[0]


def test_the_analyse_form_names_the_bad_fact():
    from streamlit.testing.v1 import AppTest
    from boardlab.streamlit_app import MAIN_SCRIPT

    params = {"players": 3}
    real = play_to_selection(boardlab.make("kyushu", **params), 5, 3, 0)
    facts = facts_of(real.observation(0))
    facts["hand"] = facts["hand"][1:]
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=120).run()
    at.switch_page("views/analyse.py").run()
    _fill_form(at, params, 0, facts)
    at.button(key="seat_build").click().run()
    assert any("cannot be set up: hand" in e.value for e in at.error), [e.value for e in at.error]
    assert "seat_built" not in at.session_state["bl_analysis"]
    at.text_area(key="seat_ky_map1").input("S2A sideways m14").run()
    at.button(key="seat_build").click().run()
    assert any("maps[1] card 0 orientation" in e.value for e in at.error), [e.value for e in at.error]
    at.text_area(key="seat_ky_map1").input("S2A h").run()
    at.button(key="seat_build").click().run()
    assert any("P1's map line 1" in e.value for e in at.error), [e.value for e in at.error]


def test_form_text_parsing():
    from boardlab.streamlit_app.games import kyushu as kui

    assert kui.parse_map("S3A h m14\n12 vertical turned p13 under", "P0's map") == [
        {"card": "S3A", "orientation": "horizontal", "row": 13, "col": 12, "layer": "over"},
        {"card": 12, "orientation": "vertical turned", "row": 12, "col": 15, "layer": "under"}]
    assert kui.parse_travelers("P2 on P0 r13, P1 on P2 o14 covered") == [
        {"owner": 2, "host": 0, "row": 12, "col": 17, "active": True},
        {"owner": 1, "host": 2, "row": 13, "col": 14, "active": False}]
    assert kui.parse_placed("m14 blue, o15 grey", 1, "x", "colour") == [
        {"seat": 1, "row": 13, "col": 12, "colour": "blue"}, {"seat": 1, "row": 14, "col": 14, "colour": "grey"}]
    with pytest.raises(kui.FactsError, match="travelers"):
        kui.parse_travelers("P2 to P0")
