"""Keyside positions from a seat's knowledge (Game.position): read back from real games
(every player count and the solo game), searched, re-dealt, and every inconsistent fact
refused with its name."""
import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.games import keyside
from boardlab.games.keyside import PARAMETER_SETS, position_facts
from boardlab.search import ismcts

TURN_STARTS = ("land", "resolve", "take_or_advance", "keytoma_lands", "keytoma_resolves", "keytoma_action")


def _at_a_table_point(state) -> bool:
    """The secret dice phase, or the start of a turn in play (what Game.position sets up)."""
    full = state.full_observation()
    if full["phase"] == "dice":
        return True
    return full["phase"] == "play" and full["task"] is not None and full["task"]["kind"] in TURN_STARTS


def play_to_point(game, seed: int, skip: int):
    """Random play from `seed` to the `skip`-th table point (or the last one before the end)."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    last = None
    while not s.is_terminal():
        if _at_a_table_point(s):
            last = s.clone()
            if skip == 0:
                return s
            skip -= 1
        s.apply(int(rng.choice(list(s.legal_actions()))))
    return last


def _check_round_trip(game, real, seat, seed=0):
    seen = real.observation(seat)
    pos = game.position(seat, seed=seed, **position_facts(seen))
    assert pos.observation(seat) == seen
    if real.current_player == seat or real.full_observation()["phase"] == "play":
        # everything the mover chooses from is public (or the seat's own dice)
        assert list(pos.legal_actions()) == list(real.legal_actions())
        assert pos.current_player == real.current_player
    return pos


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pset=st.integers(0, len(PARAMETER_SETS) - 1), seed=st.integers(0, 10**6), skip=st.integers(0, 120),
       seat_pick=st.integers(0, 3))
def test_a_real_table_read_by_a_seat_round_trips(pset, seed, skip, seat_pick):
    game = boardlab.make("keyside", **PARAMETER_SETS[pset])
    real = play_to_point(game, seed, skip)
    seat = seat_pick % game.num_players
    _check_round_trip(game, real, seat, seed=seed % 7)


@pytest.mark.parametrize("params", PARAMETER_SETS + [{"players": 2, "dice_strips": True, "scoring": "mixed"}],
                         ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()))
def test_every_player_count_round_trips_in_both_phases(params):
    game = boardlab.make("keyside", **params)
    phases = set()
    for seed in range(6):
        for skip in (0, 3, 25, 60, 140):
            real = play_to_point(game, seed, skip)
            for seat in range(game.num_players):
                _check_round_trip(game, real, seat)
            phases.add(real.full_observation()["phase"])
    assert phases == ({"dice", "play"} if not params.get("dice_strips") else phases)


def test_before_the_reveal_only_the_seat_s_own_dice_are_given_and_the_rest_is_dealt():
    game = boardlab.make("keyside", players=3)
    real = play_to_point(game, 4, 0)                      # year 1, secret dice
    while real.full_observation()["phase"] == "dice" and real.current_player != 2:
        real.apply(int(real.legal_actions()[0]))
    real.apply(int(real.legal_actions()[3]))              # P2 sets yellow = 4
    seen = real.observation(2)
    assert seen["seats"][2]["dice"]["yellow"] == 4 and seen["seats"][0]["dice"]["yellow"] is None
    pos = game.position(2, seed=1, **position_facts(seen))
    assert pos.observation(2) == seen
    dealt = {tuple(game.position(2, seed=k, **position_facts(seen)).full_observation()["seats"][0]["dice"].values())
             for k in range(8)}
    assert len(dealt) > 1                                 # P0's hidden dice differ with the seed
    for k in range(8):
        d = pos.determinize(2, seed=k).full_observation()
        assert d["seats"][2]["dice"]["yellow"] == 4
        assert sorted(d["seats"][0]["dice"].values()) == [1, 2, 3, 4, 5, 6]
    bags = {tuple(pos.determinize(2, seed=k).full_observation()["gem_bag"]["order"]) for k in range(6)}
    assert len(bags) > 1 and all(len(b) == 36 for b in bags)


def test_position_is_searched_and_replays():
    game = boardlab.make("keyside", players=2)
    real = play_to_point(game, 9, 40)
    seat = real.current_player if real.current_player >= 0 else 0
    pos = game.position(seat, seed=5, **position_facts(real.observation(seat)))
    result = ismcts(pos, iterations=150, seed=1)
    assert result.player == seat
    move = result.best_action
    assert move in pos.legal_actions()
    pos.apply(move)
    again = game.replay(json.loads(json.dumps(pos.to_record())))
    assert again.observation(seat) == pos.observation(seat)


def test_keytoma_s_turn_is_a_chance_node_like_the_real_one():
    game = boardlab.make("keyside", players=1)
    found = 0
    for seed in range(3):
        for skip in range(0, 200, 7):
            real = play_to_point(game, seed, skip)
            if real.full_observation()["turn"] == 1 and real.is_chance():
                pos = _check_round_trip(game, real, 0)
                assert pos.is_chance() and pos.chance_outcomes() == real.chance_outcomes()
                found += 1
    assert found >= 3


# --- bad facts --------------------------------------------------------------------------
def _play_facts():
    game = boardlab.make("keyside", players=3)
    for skip in range(20, 200):
        real = play_to_point(game, 2, skip)
        o = real.full_observation()
        if o["phase"] == "play" and any(h["dice"] for h in o["harbours"]) and \
                any(s["keyples"] for s in o["seats"]):
            return game, position_facts(real.observation(0))
    raise AssertionError("no play position with dice on a harbour")


def _dice_facts():
    game = boardlab.make("keyside", players=3)
    real = play_to_point(game, 2, 0)
    while real.current_player != 0:                     # P0 is the seat setting its dice
        real.apply(int(real.legal_actions()[0]))
    assert real.full_observation()["phase"] == "dice"
    return game, position_facts(real.observation(0))


def _harbour_with_dice(f):
    return next(h for h in f["harbours"] if h["dice"])


def _set_keyple(f, seat, loc, n):
    f["seats"][seat]["keyples"][loc] = n
    f["seats"][seat].pop("mat")


def _first_field(f):
    return next(r for r in f["resource_locations"] if r["kind"] != "farm")


BAD_PLAY = [
    ("unknown keyside position fact", lambda f: f.update(weather="rain")),
    ("year", lambda f: f.update(year=4)),
    ("phase", lambda f: f.update(phase="landing")),
    ("boats\\[1\\] at", lambda f: f["boats"][1].update(at=13)),
    ("boats\\[1\\]: two boats at harbour", lambda f: f["boats"][1].update(at=f["boats"][0]["at"])),
    ("boats: .* sailors", lambda f: f["boats"][0].update(sailors=[])),
    ("seats\\[1\\] keyples: unknown location", lambda f: f["seats"][1]["keyples"].update(H13=1)),
    ("seats\\[1\\]: more than 18 keyples", lambda f: (f["seats"][1].update(town=18), _set_keyple(f, 1, "M1", 1))),
    ("seats\\[1\\]: every player has 18 keyples", lambda f: f["seats"][1].update(mat=f["seats"][1]["mat"] + 1)),
    ("seats\\[0\\] goods fish", lambda f: f["seats"][0]["goods"].update(fish=-1)),
    ("seats\\[0\\] goods: unknown", lambda f: f["seats"][0]["goods"].update(gold=1)),
    ("seats\\[2\\] tracks red", lambda f: f["seats"][2]["tracks"].update(red=5)),
    ("seats\\[0\\].dice", lambda f: f["seats"][0]["dice"].update(red=f["seats"][0]["dice"]["blue"])),
    ("harbours\\[3\\] \\(H4\\): harbour tile", lambda f: f["harbours"][3].update(tile=f["harbours"][2]["tile"])),
    ("harbours\\[0\\] \\(H1\\) score", lambda f: f["harbours"][0].update(score=13)),
    ("harbours\\[5\\] \\(H6\\): scoring tile", lambda f: f["harbours"][5].update(score=f["harbours"][4]["score"])),
    ("harbours\\[0\\] \\(H1\\): the game uses the black side", lambda f: f["harbours"][0].update(red=True)),
    ("harbours\\[\\d+\\] \\(H\\d+\\): .*is there, so it is not in dice_left",
     lambda f: f["seats"][_harbour_with_dice(f)["dice"][0]].update(dice_left=keyside.COLOURS)),
    ("harbours\\[\\d+\\] \\(H\\d+\\): the sailor is", lambda f: _harbour_with_dice(f).update(
        sailor=[c for c in keyside.COLOURS if c != _harbour_with_dice(f)["sailor"]][0])),
    ("harbours\\[\\d+\\] \\(H\\d+\\): tile . has \\d dice spaces",
     lambda f: _harbour_with_dice(f).update(dice=[0, 1, 2, 0])),
    ("harbours\\[0\\] \\(H1\\): .* keyples, tile . has \\d+ spaces", lambda f: _set_keyple(f, 0, "H1", 12)),
    ("markets\\[1\\] \\(M2\\): market .* is on two locations", lambda f: f["markets"][1].update(tile=f["markets"][0]["tile"])),
    ("markets\\[0\\] \\(M1\\) side", lambda f: f["markets"][0].update(side="left")),
    ("resource_locations\\[\\d\\] \\(R\\d\\): farm \\d is on two locations",
     lambda f: [r for r in f["resource_locations"] if r["kind"] == "farm"][1].update(   # (its icons would
         farm=[r for r in f["resource_locations"] if r["kind"] == "farm"][0]["farm"], icons=None)),  # not match)
    ("resource_locations\\[\\d\\] \\(R\\d\\): P0's keyple is on the .*, which still has tokens",
     lambda f: (_first_field(f).update(tokens=2),
                _set_keyple(f, 0, f"R{f['resource_locations'].index(_first_field(f)) + 1}", 1))),
    ("resource_locations\\[\\d\\] \\(R\\d\\): pirates claim", lambda f: _first_field(f).update(owner="pirates")),
    ("headlands\\[2\\] \\(H3\\|H4\\) tile", lambda f: f["headlands"].__setitem__(2, {"tile": "G", "owner": 0})),
    ("headlands\\[5\\]: P0 has one headland A", lambda f: (
        f["headlands"].__setitem__(2, {"tile": "A", "owner": 0, "faces": 3}),
        f["headlands"].__setitem__(5, {"tile": "A", "owner": 0, "faces": 6}),
        f["seats"][0].update(headlands_built="A"))),
    ("seats\\[1\\].headlands_built", lambda f: (f["headlands"].__setitem__(2, {"tile": "D", "owner": 1}),
                                                f["seats"][1].update(headlands_built=""))),
    ("seats\\[0\\].buildings: the red plot", lambda f: f["seats"][0]["buildings"].update(red="A")),
    ("seats\\[0\\].buildings: cottage C is built, it is not available",
     lambda f: (f["seats"][0]["buildings"].update(yellow="C"), f.update(cottages_available="ABCDEFGHIJKLMNOPQRSTUVWX"))),
    ("cottages_available: a cottage neither built", lambda f: f.update(cottages_available="BCDEFGHIJKLMNOPQRSTUVWX")),
    ("seats\\[0\\].skill_tiles: blue 1 is still on the stack",
     lambda f: (f["seats"][0].update(skill_tiles=[["blue", 1]]), f.update(skill_stacks={"blue": [5, 3, 1]}))),
    ("gem_bag: .* held and .* in the bag", lambda f: f.update(gem_bag={"emerald": 12, "ruby": 12, "sapphire": 12})
     or f["seats"][0]["goods"].update(ruby=1)),
    ("resource_locations\\[\\d\\] \\(R\\d\\) tokens must be an integer 0..9", lambda f: next(r for r in f["resource_locations"] if r["kind"] == "forest").update(tokens=10)),
    ("start_player", lambda f: f.update(start_player=3)),
    ("red_space", lambda f: f.update(red_space="P1")),
    ("next_start_player: harbour I", lambda f: f.update(next_start_player=1)
     if not next(h for h in f["harbours"] if h["tile"] == "I")["resolved"]
     else next(h for h in f["harbours"] if h["tile"] == "I").update(resolved=False)),
    ("keytoma: only in the solo game", lambda f: f.update(keytoma={"dice": {"red": 3}})),
    ("pirates: only in the solo game", lambda f: f.update(pirates=[1] + [0] * 11)),
    ("seats must list 3", lambda f: f["seats"].pop()),
    ("harbours\\[0\\] \\(H1\\): unknown 'keyples'", lambda f: f["harbours"][0].update(keyples=[1, 0, 0])),
    ("resource_locations\\[\\d\\] \\(R\\d\\): owner P1 needs its keyple there",
     lambda f: next(r for i, r in enumerate(f["resource_locations"])
                    if f"R{i + 1}" not in f["seats"][1]["keyples"]).update(owner=1)),
    ("seats\\[1\\].strip: the game is played without dice strips", lambda f: f["seats"][1].update(strip=2)),
    # A value of the wrong type is refused by name, never read as "absent" or as a number.
    ("headlands must be a list, got ''", lambda f: f.update(headlands="")),
    ("headlands must be a list, got False", lambda f: f.update(headlands=False)),
    ("headlands must be a list, got \\{\\}", lambda f: f.update(headlands={})),
    ("skill_stacks must be a dict, got \\[\\]", lambda f: f.update(skill_stacks=[])),
    ("skill_stacks must be a dict, got ''", lambda f: f.update(skill_stacks="")),
    ("skill_stacks blue must be an integer 0..3, got True", lambda f: f.update(skill_stacks={"blue": True})),
    ("skill_stacks blue: the tiles left", lambda f: f.update(skill_stacks={"blue": [3, True]})),
    ("gem_bag must be a dict, got False", lambda f: f.update(gem_bag=False)),
    ("seats\\[0\\] keyples must be a dict, got ''", lambda f: f["seats"][0].update(keyples="")),
    ("seats\\[0\\] goods must be a dict, got \\[\\]", lambda f: f["seats"][0].update(goods=[])),
    ("seats\\[0\\] skill_tiles must be a list, got \\{\\}", lambda f: f["seats"][0].update(skill_tiles={})),
    ("seats\\[0\\] skill_tiles: each is", lambda f: f["seats"][0].update(skill_tiles=[["blue", True]])),
    ("seats\\[0\\] dice_left must be a list, got ''", lambda f: f["seats"][0].update(dice_left="")),
    ("seats\\[0\\] town must be an integer 0..18, got True", lambda f: f["seats"][0].update(town=True)),
    ("end_triggered must be true or false, got 0", lambda f: f.update(end_triggered=0)),
    ("harbours\\[0\\] \\(H1\\) dice must be a list, got False", lambda f: f["harbours"][0].update(dice=False)),
    ("harbours\\[0\\] \\(H1\\) indent must be an integer, got True", lambda f: f["harbours"][0].update(indent=True)),
    ("headlands\\[2\\] \\(H3\\|H4\\) faces", lambda f: (
        f["headlands"].__setitem__(2, {"tile": "A", "owner": 0, "faces": True}), f["seats"][0].update(headlands_built="A"))),
    ("resource_locations\\[\\d\\] \\(R\\d\\) icons\\[0\\]: unknown 'x'", lambda f: next(
        r for r in f["resource_locations"] if r["kind"] == "farm")["icons"][0].update(x=object())),
    ("boats\\[0\\] sailors must be a list, got ''", lambda f: f["boats"][0].update(sailors="")),
]


@pytest.mark.parametrize("name, spoil", BAD_PLAY, ids=[f"{i}" for i in range(len(BAD_PLAY))])
def test_every_bad_play_fact_is_refused_by_name(name, spoil):
    game, facts = _play_facts()
    game.position(0, **copy.deepcopy(facts))       # the unspoilt facts are fine
    spoil(facts)
    with pytest.raises(ValueError, match=name):
        game.position(0, **facts)


BAD_DICE = [
    ("seats\\[1\\].dice: another seat's dice are hidden", lambda f: f["seats"][1]["dice"].update(yellow=3)),
    ("seats\\[0\\] dice: secret dice are set in colour order", lambda f: f["seats"][0].update(dice={"red": 2})),
    ("seats\\[0\\].dice: each die shows a different value",
     lambda f: (f["seats"][0].update(dice={"yellow": 2, "green": 2}), f["seats"][0].pop("dice_set"))),
    ("harbours\\[0\\] \\(H1\\): no dice are on the harbours before the reveal",
     lambda f: f["harbours"][0].update(dice=[1], sailor="red")),
    ("end_triggered", lambda f: f.update(end_triggered=True)),
    ("seats\\[2\\].dice_set: dice are set in turn order", lambda f: f["seats"][2].update(dice_set=4)),
    ("seats\\[0\\] dice_set: 3, but 0 dice are given", lambda f: f["seats"][0].update(dice_set=3)),
]


@pytest.mark.parametrize("name, spoil", BAD_DICE, ids=[f"{i}" for i in range(len(BAD_DICE))])
def test_every_bad_dice_phase_fact_is_refused_by_name(name, spoil):
    game, facts = _dice_facts()
    game.position(0, **copy.deepcopy(facts))
    spoil(facts)
    with pytest.raises(ValueError, match=name):
        game.position(0, **facts)


def test_solo_facts_are_checked():
    game = boardlab.make("keyside", players=1)
    real = play_to_point(game, 5, 12)
    facts = position_facts(real.observation(0))
    game.position(0, **copy.deepcopy(facts))
    for name, spoil in [
        ("beacons\\[1\\] must be B1..B6", lambda f: f.update(beacons=["A1", "C2", "C3"])),
        ("flags\\[0\\]", lambda f: f.update(flags=[0, 5, 9])),
        ("turn must be a seat 0..0 or keytoma", lambda f: f.update(turn=2)),
        ("keytoma keyples\\[0\\] must be an integer 0..18",
         lambda f: f["keytoma"].update(keyples=[19] + [0] * 11)),
        # wrong types, which once went into the record as they were (json.dumps then failed)
        ("headlands\\[0\\] \\(H1\\|H2\\) owner: a landslide has none, got b'x'",
         lambda f: f["headlands"].__setitem__(0, {"tile": "landslide", "owner": b"x"})),
        ("headlands\\[0\\] \\(H1\\|H2\\) faces: a landslide has none",
         lambda f: f["headlands"].__setitem__(0, {"tile": "landslide", "faces": object()})),
        ("headlands\\[0\\] \\(H1\\|H2\\) owner must be a seat 0..0 or keytoma, got True",
         lambda f: f["headlands"].__setitem__(0, {"tile": "A", "owner": True})),
        ("headlands\\[0\\] \\(H1\\|H2\\) faces must be H1 or H2, got b'x'",
         lambda f: f["headlands"].__setitem__(0, {"tile": "A", "owner": 0, "faces": b"x"})),
        ("pirates must be a list, got ''", lambda f: f.update(pirates="")),
        ("keytoma must be a dict, got False", lambda f: f.update(keytoma=False)),
        ("keytoma keyples must be a list, got \\{\\}", lambda f: f["keytoma"].update(keyples={})),
        ("keytoma supply: 18 minus", lambda f: f["keytoma"].update(supply=0)),
        ("beacons\\[0\\] lit must be true or false", lambda f: f.update(
            beacons=[{"beacon": f["beacons"][0], "lit": object()}] + f["beacons"][1:])),
        ("turn must be a seat 0..0 or keytoma, got True", lambda f: f.update(turn=True)),
        ("seats\\[0\\].strip: dice strip . is Keytoma's",
         lambda f: f["seats"][0].update(strip=(f["keytoma"]["strips_left"] or [1])[0])
         if f["keytoma"]["strips_left"] else f.update(weather=1)),
    ]:
        spoilt = copy.deepcopy(facts)
        spoil(spoilt)
        with pytest.raises(ValueError, match=name):
            game.position(0, **spoilt)


def test_dice_set_from_a_strip_are_checked_against_it():
    game = boardlab.make("keyside", players=2, dice_strips=True)
    facts = position_facts(play_to_point(game, 3, 2).observation(0))
    assert facts["phase"] == "play" and facts["year"] == 1
    game.position(0, **copy.deepcopy(facts))
    dice = facts["seats"][1]["dice"]
    dice["yellow"], dice["green"] = dice["green"], dice["yellow"]
    with pytest.raises(ValueError, match="seats\\[1\\].dice: in year 1 they are dice strip .'s light side"):
        game.position(0, **facts)
    solo = boardlab.make("keyside", players=1)
    facts = next(f for f in (position_facts(play_to_point(solo, 3, k).observation(0)) for k in range(5, 60))
                 if f["phase"] == "play")
    game_dice = facts["keytoma"]["dice"]
    game_dice["red"], game_dice["blue"] = game_dice["blue"], game_dice["red"]
    with pytest.raises(ValueError, match="keytoma dice: not a side of a dice strip"):
        solo.position(0, **facts)


def test_a_bad_position_record_is_a_record_error():
    game, facts = _play_facts()
    record = dict(game.position(0, **facts).to_record())
    pos = dict(record["position"])
    pos["facts"] = {**pos["facts"], "year": 5}
    record["position"] = pos
    with pytest.raises(boardlab.RecordError, match="year"):
        game.replay(record)


def test_position_facts_needs_a_seat_s_observation():
    game = boardlab.make("keyside", players=2)
    with pytest.raises(ValueError, match="one seat's observation"):
        position_facts(play_to_point(game, 1, 0).full_observation())


# --- the Analyse page's form (AppTest) ------------------------------------------------------
def _analyse_page():
    from streamlit.testing.v1 import AppTest
    from boardlab.streamlit_app import MAIN_SCRIPT

    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=120).run()
    at.switch_page("views/analyse.py").run()
    at.selectbox(key="seat_game").set_value("keyside").run()
    assert not at.exception, at.exception
    return at


def _facts_area(at):
    return next(t for t in at.text_area if t.key.startswith("seat_ks_facts"))


def _build(at, facts):
    _facts_area(at).set_value(facts if isinstance(facts, str) else json.dumps(facts))
    at.button(key="seat_build").click().run()
    assert not at.exception, at.exception


def test_the_analyse_form_sets_up_a_seats_table_and_analyses_it():
    at = _analyse_page()
    at.selectbox(key="seat_ks_players").set_value(3).run()
    game = boardlab.make("keyside", players=3)
    real = next(r for r in (play_to_point(game, 8, skip) for skip in range(30, 90))
                if r.current_player >= 0 and r.full_observation()["phase"] == "play")
    seat = real.current_player
    seen = real.observation(seat)
    at.selectbox(key="seat_ks_seat").set_value(seat).run()
    _build(at, position_facts(seen))
    assert not at.error, [e.value for e in at.error]
    assert any(f"P{seat} to move" in s.value for s in at.success)
    pos = at.session_state["bl_analysis"]["seat_built"][0]
    assert pos.observation(seat) == seen
    at.number_input(key="an_seat_iters").set_value(100)
    at.button(key="an_seat_run").click().run()
    assert not at.exception, at.exception
    best = [m.value for m in at.markdown if "Best move for" in m.value]
    assert best and f"P{seat}" in best[0]


def test_the_analyse_form_starts_from_a_fresh_island_and_names_the_bad_fact():
    at = _analyse_page()
    facts = json.loads(_facts_area(at).value)          # the example: year 1, your dice to set
    assert facts["phase"] == "dice" and facts["year"] == 1
    _build(at, facts)
    assert any("P0 to move" in s.value for s in at.success), [e.value for e in at.error]
    bad = copy.deepcopy(facts)
    bad["boats"][1]["at"] = bad["boats"][0]["at"]
    _build(at, bad)
    assert any("cannot be set up: boats[1]: two boats at harbour" in e.value for e in at.error), \
        [e.value for e in at.error]
    assert "seat_built" not in at.session_state["bl_analysis"]
    bad = copy.deepcopy(facts)
    bad["seats"][1]["keyples"]["H13"] = 1
    _build(at, bad)
    assert any("seats[1] keyples: unknown location 'H13'" in e.value for e in at.error)
    _build(at, "{not json")
    assert any("not valid JSON" in e.value for e in at.error)
    bad = copy.deepcopy(facts)
    bad["turn"] = bad["start_player"] = 1
    _build(at, bad)
    assert any("P1 is to move in this position" in e.value for e in at.error)


def test_the_analyse_form_is_prefilled_from_the_game_being_played_as_your_seat_sees_it():
    from boardlab.streamlit_app.session import AI, HUMAN, PlaySession

    at = _analyse_page()
    game = boardlab.make("keyside", players=2)
    sess = PlaySession(game, [HUMAN, AI], seed=4)
    while sess.state.full_observation()["phase"] == "dice" and sess.state.current_player != 0:
        sess.state.apply(int(sess.state.legal_actions()[0]))
    at.session_state["bl_play"] = sess
    at.run()
    assert any("Prefilled from the game being played" in c.value for c in at.caption)
    facts = json.loads(_facts_area(at).value)
    assert facts == position_facts(sess.state.observation(0))
    assert all(v is None for v in sess.state.observation(0)["seats"][1]["dice"].values())
    assert not facts["seats"][1]["dice"]                # the AI's secret dice stay secret


@settings(max_examples=60, deadline=None)
@given(pset=st.integers(0, len(PARAMETER_SETS) - 1), seed=st.integers(0, 1000),
       edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(-3, 40)), min_size=1, max_size=4))
def test_a_spoilt_vector_is_refused_or_plays_on_without_a_crash(pset, seed, edits):
    """The kernel checks the vector itself (not only position_params): any entry changed either
    gives a ValueError or a state whose games run to the end."""
    params = PARAMETER_SETS[pset]
    game = boardlab.make("keyside", **params)
    real = play_to_point(game, seed, seed % 50)
    seat = max(real.current_player, 0)
    vec = keyside.position_params(game.params, seat, position_facts(real.observation(seat)))
    for i, v in edits:
        vec[i % len(vec)] = v
    try:
        core = game._core.setup_state(vec, 1)
    except ValueError as e:
        assert str(e).startswith("keyside: ")
        return
    from boardlab.game import State
    stats = game.random_playouts(3, seed=seed, state=State(game, core, 1))
    assert stats is not None
