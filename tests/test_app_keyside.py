"""Keyside in the browser app, through streamlit.testing.v1.AppTest (no browser): the new-game
form (2-4 players and the solo options), the island and the mats on screen, a boat sent by
clicking its harbour, secret dice kept secret, decisions through a whole year offered only
as legal choices, and the AI finishing 2-player and solo games."""
import random
import re

import pytest

pytest.importorskip("streamlit")

from streamlit.testing.v1 import AppTest  # noqa: E402

import boardlab  # noqa: E402
from boardlab.streamlit_app import MAIN_SCRIPT  # noqa: E402
from boardlab.streamlit_app.games import keyside as kui  # noqa: E402
from boardlab.streamlit_app.games import ui_for  # noqa: E402
from boardlab.streamlit_app.session import AI, HUMAN  # noqa: E402
from board_clicks import (board_data, boards, click_place, legal_places, new_app,  # noqa: E402
                          run_ui)

TIMEOUT = 120


def app():
    return new_app(TIMEOUT)


def start(at, seed=3, players=2, solo=()):
    at.selectbox(key="ng_game").set_value("keyside").run()
    at.selectbox(key="ng_ks_players").set_value(players).run()
    for opt in solo:
        at.checkbox(key=f"ng_ks_{opt}").check()
    at.radio(key="ng_preset").set_value("Beginner")
    at.number_input(key="ng_seed").set_value(seed)
    at.run()
    for s in range(max(players, 1)):
        if players > 1:
            at.selectbox(key=f"ng_seat_{s}").set_value("Human" if s == 0 else "AI")
    at.run()
    at.button(key="ng_start").click().run()
    assert not at.exception, at.exception
    return at.session_state["bl_play"]


def decisions(at):
    return [b for b in at.button if b.key and "_act_" in b.key and not b.disabled]


def island(at) -> str:
    """The island on the page: clickable (a board component) or drawn as a picture."""
    if boards(at, "-island"):
        return board_data(at, "-island")["svg"]
    return next(m.value for m in at.markdown if "aria-label='Keyside island'" in m.value)


def _action(button) -> int:
    return int(button.key.rsplit("_act_", 1)[1])


def legal_names(at) -> set[str]:
    st = at.session_state["bl_play"].state
    return {st.action_to_string(a) for a in st.legal_actions()}


def shown_option(at, by_option):
    """The island option whose places are lit, and the dice not chosen (their mat buttons
    wait). A boat is chosen by a die's row (a die of one option) and, when two of its
    boats reach one harbour, a row of its boats; other decisions have one row of options.
    Every option of ``island_options`` is in the rows."""
    row = next((r for r in at.radio if r.key and r.key.endswith("_opt")), None)
    boat = next((r for r in at.radio if r.key and "_boat_" in r.key), None)
    if row is None:
        assert len(by_option) <= 1
        return next(iter(by_option), None), set()
    assert set(row.options) == {lb.split(", boat at")[0] for lb in by_option}
    option = row.value + (f", {boat.value}" if boat is not None else "")
    dice = {o for o in row.options if re.fullmatch(r"\w+ \d", o)} - {row.value}
    return option, dice


def one_step(at, rng):
    """Take one decision the way a player does: a lit place on the island, else a button; check
    that everything offered is legal and that every legal decision is offered."""
    sess = at.session_state["bl_play"]
    state = sess.state
    legal = legal_names(at)
    buttons = decisions(at)
    offered = {state.action_to_string(_action(b)) for b in buttons}
    assert offered <= legal
    places = legal_places(at, "-island") if boards(at, "-island") else []
    obs = state.observation(state.current_player)
    names = {int(a): state.action_to_string(int(a)) for a in state.legal_actions()}
    by_option, rest = kui.island_options(names, obs)
    option, later = shown_option(at, by_option)
    if places:
        assert {p["id"] for p in places} == set(by_option[option])
    on_island = {names[a] for opt in by_option.values() for a in opt.values()}
    # nothing missing: what is not on screen is a die's mat button, shown once its die is chosen
    later = {names[a] for a in rest if (m := re.fullmatch(r"(\w+ \d) to mat", names[a]))
             and m.group(1).capitalize() in later}
    assert offered | on_island | later == legal and offered | later == {names[a] for a in rest}
    before = len(state.history)
    if places and (not buttons or rng.random() < 0.7):
        click_place(at, "-island", rng.choice(places)["id"])
    else:
        rng.choice(buttons).click().run()
    assert not at.exception, at.exception
    assert len(at.session_state["bl_play"].state.history) > before


def test_new_game_form_and_the_table():
    at = app()
    at.selectbox(key="ng_game").set_value("keyside").run()
    assert at.selectbox(key="ng_ks_players").options == ["2", "3", "4", "1 (solo against Keytoma)"]
    sess = start(at, players=2)
    assert sess.game.params["players"] == 2 and sess.seats == [HUMAN, AI]
    svg = island(at)
    for text in ("Town", "H1", "H12", "M8", "R8", "Year 1"):
        assert text in svg
    mats = next(m.value for m in at.markdown if "ks-mats" in m.value)
    assert "P0 (White)" in mats and "P1 (Black)" in mats and "Total" in mats


def test_solo_form_has_the_harder_options():
    at = app()
    at.selectbox(key="ng_game").set_value("keyside").run()
    at.selectbox(key="ng_ks_players").set_value(1).run()
    for opt in ("solo_all_beacons", "solo_keytoma_keyple", "solo_landslide", "solo_pirates"):
        assert at.checkbox(key=f"ng_ks_{opt}")
    assert not [c for c in at.checkbox if c.key == "ng_ks_first"]
    sess = start(at, players=1, solo=("solo_pirates", "solo_landslide"))
    assert sess.game.params["solo_pirates"] and sess.game.params["solo_landslide"]
    svg = island(at)
    assert "Keytoma" in svg and "Beacons" in svg and "☠" in svg and "slide" in svg
    caption = at.get("caption")
    assert any("Keyside, 1 player, seed" in c.value for c in caption)
    assert "solo against Keytoma" in boardlab.games.get("keyside").render(sess.state.full_observation())


def test_others_dice_stay_hidden_until_the_reveal():
    for seed in range(1, 30):       # a game where the AI (P1) sets its dice before P0
        at = app()
        start(at, seed=seed, players=2)
        if any(v is not None for v in at.session_state["bl_play"].state.full_observation()["seats"][1]["dice"].values()):
            break
    rng = random.Random(0)
    seen_hidden = False
    for _ in range(40):
        state = at.session_state["bl_play"].state
        obs = state.observation(0)
        if obs["phase"] != "dice":
            break
        full = state.full_observation()
        other = full["seats"][1]["dice"]
        if any(v is not None for v in other.values()):
            assert all(v is None for v in obs["seats"][1]["dice"].values())
            mats = next(m.value for m in at.markdown if "ks-mats" in m.value)
            p1 = mats.split("ks-phone-mats")[0].split("P1 (Black)")[1]     # the wide screen's mats
            assert re.findall(r"ks-die[^>]*>([^<]*)<", p1) == ["?"] * 6
            seen_hidden = True
        one_step(at, rng)
    assert seen_hidden
    assert at.session_state["bl_play"].state.observation(0)["phase"] == "play"


def test_a_boat_is_sent_by_clicking_its_harbour():
    game = boardlab.make("keyside", seed=5, players=2)
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.current_player < 0 or state.observation(state.current_player)["phase"] == "dice":
        state.apply(rng.choice(list(state.legal_actions())))
    assert (state.observation(state.current_player)["task"] or {}).get("kind") == "land"
    at = run_ui(state)
    places = legal_places(at, "-island")
    assert places and all(re.fullmatch(r"H\d+", p["id"]) for p in places)
    names = {int(a): state.action_to_string(int(a)) for a in state.legal_actions()}
    by_option, _ = kui.island_options(names, state.observation(state.current_player))
    option, _ = shown_option(at, by_option)
    assert {p["id"] for p in places} == set(by_option[option])
    assert all(names[a].startswith(f"lead {option.split(',')[0].lower()}:") for a in by_option[option].values())
    # a die whose boats reach different harbours is one option, else one per boat
    assert "Purple 1" in by_option and "Yellow 6, boat at H1" in by_option
    # each lit harbour says where the boat sails from, and what the harbour gives
    assert all(re.fullmatch(r"\w+ \d: sail the boat H\d+ → H\d+", p["label"]) for p in places)
    assert all("Harbour tile" in p["tip"] for p in places)
    # the mat buttons are there too, named by their effect
    mat = [b for b in decisions(at) if state.action_to_string(_action(b)).endswith("to mat")]
    assert mat and all(re.fullmatch(r"\w+ \d: advance \w+", b.label) for b in mat)
    assert all("on your mat, no boat: you advance" in b.help for b in mat)
    # of the chosen die only: choosing the yellow 6 lights its first boat's harbours, offers
    # its other boat, and its own mat button
    assert [names[_action(b)] for b in mat] == [f"{option.split(',')[0].lower()} to mat"]
    at.radio(key="t_opt").set_value("Yellow 6").run()
    boat = next(r for r in at.radio if r.key == "t_boat_Yellow 6")
    boats = [lb.split(", ")[1] for lb in by_option if lb.startswith("Yellow 6, ")]
    assert boat.options == ["B" + b[1:] for b in boats] and boat.value == boats[0]
    assert {p["id"] for p in legal_places(at, "-island")} == set(by_option[f"Yellow 6, {boats[0]}"])
    boat.set_value(boats[1]).run()
    assert {p["id"] for p in legal_places(at, "-island")} == set(by_option[f"Yellow 6, {boats[1]}"])
    assert [names[_action(b)] for b in decisions(at) if names[_action(b)].endswith("to mat")] \
        == ["yellow 6 to mat"]


def test_a_whole_year_offers_only_legal_choices():
    at = app()
    start(at, seed=6, players=2)
    rng = random.Random(2)
    for _ in range(120):
        state = at.session_state["bl_play"].state
        if state.is_terminal() or state.observation(0)["year"] > 1:
            break
        one_step(at, rng)
    assert at.session_state["bl_play"].state.observation(0)["year"] >= 2


@pytest.mark.parametrize("players,solo", [(2, ()), (1, ("solo_keytoma_keyple",))])
def test_let_the_ai_finish(players, solo):
    at = app()
    start(at, seed=2, players=players, solo=solo)
    at.button(key="play_ai_finish").click().run(timeout=600)
    assert not at.exception, at.exception
    sess = at.session_state["bl_play"]
    # the AI finished the game; the seats stay as they were (Undo and "Play again" keep them)
    assert sess.state.is_terminal() and sess.seats == [HUMAN] + [AI] * (max(players, 1) - 1)
    result = next(x.value for x in at.success if "Game over" in x.value)
    assert ("points" in result) and (("beacon" in result) == (players == 1))


def test_ui_is_registered():
    assert isinstance(ui_for("keyside"), kui.KeysideUI)


class _Changes:                 # the app's Changes as the board reads it: the moves' log lines
    def __init__(self, lines):
        self.lines = lines


def test_what_the_others_did_since_your_last_decision_is_ringed():
    changes = _Changes(["1. P1 Yellow 1: sail the boat H2 → H11", "2. P1 Keyple town → H5 (via M1)",
                        "3. P1 Market M4: 1 fish → 2 pigs", "4. P1 Advance red to level 1: 2 keyples",
                        "5. P1 lead yellow 1: boat H2 -> H11", "6. P1 move keyple town>M1>H5",
                        "3. P1 activate market M4 (blue)", "4. P1 advance red"])
    assert kui.recent_places(changes) == {"H11", "H5", "M4"}
    state = boardlab.make("keyside", seed=5, players=2).new_initial_state()
    while state.current_player < 0:
        state.apply(state.legal_actions()[0])
    obs = state.observation(0)
    assert "ks-recent" not in kui.island_svg(obs, 0)
    assert kui.island_svg(obs, 0, kui.recent_places(changes)).count("ks-recent") == 3


def test_idle_input_shows_only_your_own_dice():
    state = boardlab.make("keyside", seed=5, players=2).new_initial_state()
    rng = random.Random(3)
    while state.current_player < 0 or state.observation(state.current_player)["phase"] == "dice":
        state.apply(rng.choice(list(state.legal_actions())))
    obs = state.observation(0)
    html = kui.KeysideUI().idle_input(obs, 0)
    mine = [str(obs["seats"][0]["dice"][c]) for c in obs["seats"][0]["dice_left"]]
    assert re.findall(r">(\d)</span>", html) == mine


def test_the_prompt_says_what_the_step_still_allows():
    from boardlab.streamlit_app.games.keyside import task_detail
    assert task_detail({"kind": "move", "player": 0, "keyples_left": 2, "farms_and_fields_only": False}) \
        == " _(2 keyples still to move)_"
    assert task_detail({"kind": "move", "player": 0, "keyples_left": 1, "farms_and_fields_only": True}) \
        == " _(1 keyple still to move (to farms and fields only))_"
    assert task_detail({"kind": "build", "player": 0, "colours": ["red"], "wheat_cost": 0, "mandatory": True}) \
        == " _(red, free)_"
    assert task_detail({"kind": "land", "player": 0}) == "" and task_detail(None) == ""


def _farm_table():
    """A 2-player table (tests/keyside_table.py's layout) set up as a position: P0 owns farm 1
    (R2) with a pig on icon 1 and a cow on icon 2, has a pig in the barn, a keyple in the blue
    market (M1, turned to its pig -> 2 fish side), green at level 3 (a house built) and red at 0."""
    from boardlab.games.keyside import position_facts
    from keyside_table import table
    s = table(2)
    facts = position_facts(s.observation(0))
    farm = facts["resource_locations"][1]
    farm["icons"][0]["animal"], farm["icons"][1]["animal"] = "pig", "cow"
    seat = facts["seats"][0]
    seat.update(keyples={"M1": 1, "R2": 1}, town=4, mat=12)
    seat["goods"]["pig"] = 1
    seat["tracks"].update(blue=1, green=3)
    seat["buildings"] = {"green": {"letter": "E", "house": True}}
    facts["cottages_available"] = facts["cottages_available"].replace("E", "")
    facts["markets"][0]["side"] = "reverse"
    return s.game.position(0, seed=1, **facts)


@pytest.mark.parametrize("moves, offered", [
    (["red 3 to mat", "red 1 left"], ["pass", "transfer 1 keyple to the town", "transfer 2 keyples to the town"]),
    (["green 2 to mat"], ["exchange pig -> cow", "exchange pig on farm 1 icon 1 -> cow",
                          "exchange cow on farm 1 icon 2 -> sheep"]),
    (["blue 4 to mat", "blue 2 right", "activate market M1 (blue)", "market blue: pig->2 fish"],
     ["pay pig from the barn", "pay pig from farm 1 icon 1 (wheat)"]),
])
def test_the_new_choices_are_buttons_that_play(moves, offered):
    """Keyples to the town, an exchange on a farm, where a market's animal comes from: each is
    a button on the table, and clicking it plays it."""
    state = _farm_table()
    for m in moves:
        state.apply_string(m)
    at = run_ui(state, steps=("input",))
    labels = {state.action_to_string(_action(b)): b for b in decisions(at)}
    assert set(offered) <= set(labels)
    obs = state.observation(state.current_player)
    assert all(b.label == kui.kt.decision_label(n, obs) != n for n, b in labels.items())
    assert set(labels) == {state.action_to_string(int(a)) for a in state.legal_actions()}
    assert at.session_state["chosen"] is None
    labels[offered[-1]].click().run()
    assert not at.exception, at.exception
    assert state.action_to_string(at.session_state["chosen"]) == offered[-1]
