"""Nukumi in the browser app, through streamlit.testing.v1.AppTest (no browser): the new-game
form, moves clicked on the map, buttons for the rest, hidden Helper hands, the AI finishing a
game, the drawings, Game.position and its form on the Analyse page."""
import json
import re

import numpy as np
import pytest

pytest.importorskip("streamlit")

from streamlit.testing.v1 import AppTest  # noqa: E402

import boardlab  # noqa: E402
from boardlab.streamlit_app import MAIN_SCRIPT  # noqa: E402
from boardlab.streamlit_app.games import nukumi as nui  # noqa: E402
from boardlab.streamlit_app.games import nukumi_draw as nd  # noqa: E402
from boardlab.streamlit_app.games import nukumi_text as nt  # noqa: E402
from boardlab.streamlit_app.games import ui_for  # noqa: E402
from boardlab.streamlit_app import board_component as bc  # noqa: E402
from boardlab.streamlit_app.common import ANALYSIS_KEY, changes_since  # noqa: E402
from boardlab.streamlit_app.session import AI, PlaySession  # noqa: E402
from board_clicks import (board_data, boards, click_place, legal_places, new_app,  # noqa: E402
                          run_ui)

TIMEOUT = 120


def app():
    return new_app(TIMEOUT)


def start(at, seed=7, players=2, solo=None, human=0, board_side=None):
    at.selectbox(key="ng_game").set_value("nukumi").run()
    at.selectbox(key="ng_nk_players").set_value(players).run()
    if solo:
        at.selectbox(key="ng_nk_solo").set_value(solo)
    if board_side:
        at.selectbox(key="ng_nk_board").set_value(board_side)
    at.radio(key="ng_preset").set_value("Beginner")
    at.number_input(key="ng_seed").set_value(seed)
    at.run()
    for s in range(players):
        at.selectbox(key=f"ng_seat_{s}").set_value("Human" if s == human else "AI")
    at.run()
    at.button(key="ng_start").click().run()
    assert not at.exception, at.exception
    return at.session_state["bl_play"]


def decisions(at):
    return [b for b in at.button if b.key and "_act_" in b.key and not b.disabled]


def html(at) -> str:
    """The page's markdown and every board's drawing and tooltips."""
    return "\n".join([m.value for m in at.markdown] + [e.proto.json for e in boards(at)])


def open_more(at, key="board"):
    """Open the folded partner boards and cards on offer (drawn only while open)."""
    at.session_state[f"{key}-nkmore"] = True
    at.run()
    assert not at.exception, at.exception


def chosen_by(at) -> dict:
    """What the human may click now: legal place id of the town or button -> action."""
    sess = at.session_state["bl_play"]
    out = {}
    if boards(at, "-town"):
        on_town = nui.town_choices(sess.state.observation(0),
                                   {int(a): sess.state.action_to_string(int(a))
                                    for a in sess.state.legal_actions()})
        out |= {("place", p["id"]): on_town[p["id"]] for p in legal_places(at, "-town")}
    for b in decisions(at):
        out[("button", b.key)] = int(b.key.rsplit("_act_", 1)[1])
    return out


def decide(at, prefer=()):
    """Click the first choice whose notation starts with one of ``prefer`` (in that order),
    else the first that is not a pass. Returns the notation clicked."""
    sess = at.session_state["bl_play"]
    options = chosen_by(at)
    assert options, "no decision offered"
    named = [(sess.state.action_to_string(a), where) for where, a in options.items()]
    pick = next((x for pre in prefer for x in named if x[0].startswith(pre)),
                next((x for x in named if x[0] != "pass"), named[0]))
    kind, ident = pick[1]
    if kind == "place":
        click_place(at, "-town", ident)
    else:
        next(b for b in decisions(at) if b.key == ident).click().run()
    assert not at.exception, at.exception
    return pick[0]


def test_new_game_form_offers_the_solo_modes_for_one_player():
    at = app()
    at.selectbox(key="ng_game").set_value("nukumi").run()
    assert not any(s.key == "ng_nk_solo" for s in at.selectbox)
    at.selectbox(key="ng_nk_players").set_value(1).run()
    assert at.selectbox(key="ng_nk_solo").options == ["Score Attack (Solo 1)", "Chasing Nukumaru (Solo 2)",
                                                      "Plain 1-player game"]


def test_the_player_board_side_is_chosen_on_the_new_game_form():
    at = app()
    sess = start(at, board_side="B")
    assert sess.game.params["board_side"] == "B"
    assert sess.state.observation(0)["board_side"] == "B"


def test_score_attack_page_shows_map_tracks_bag_and_npcs():
    at = app()
    sess = start(at, players=1, solo="score_attack")
    assert sess.game.params["solo"] == "score_attack"
    obs = sess.state.observation(0)
    town = board_data(at, "-nktown")
    for i in range(1, 4):                          # the NPC pioneers on the map, as pawns
        assert f">n{i}</text>" in town["svg"]
    assert "Round 1 (now)" in town["svg"]
    tips = {p["id"]: p["tip"] for p in town["places"]}
    assert "Nukumaru is here" in tips[obs["nukumaru"]]
    for i, sq in enumerate(obs["npcs"]):
        assert f"NPC {i + 1}" in tips[sq]
    assert any("Solo: **Score Attack** — NPCs on" in c.value for c in at.caption)   # the header
    assert not boards(at, "-nkseat")            # folded: not drawn
    open_more(at)
    seat = board_data(at, "-nkseat0")
    assert "draw size" in seat["svg"] and ">bag</text>" in seat["svg"]
    assert {"fun:0", "oishi:0", "bag:0", "drawn:0", "partner:0"} <= {p["id"] for p in seat["places"]}
    assert f"score {obs['seats'][0]['score']['total']}" in seat["svg"]


def _step_until_map(at, limit=60):
    """Click decisions (preferring a move action) until a square of the map is lit."""
    for _ in range(limit):
        sess = at.session_state["bl_play"]
        if sess.state.observation(0)["phase"] == "move" and boards(at, "-town") and any(
                p["id"] in nui.SQUARES for p in legal_places(at, "-town")):
            return True
        legal = {int(a) for a in sess.state.legal_actions()}
        assert set(chosen_by(at).values()) <= legal           # only legal choices
        decide(at, ("move (", "pay ", "accept", "decline"))
    return False


def test_a_move_is_clicked_on_the_map():
    at = app()
    start(at, players=1, solo="score_attack", seed=3)
    assert _step_until_map(at)
    sess = at.session_state["bl_play"]
    before = len(sess.state.history)
    squares = [p for p in legal_places(at, "-town") if p["id"] in nui.SQUARES]
    legal = {sess.state.action_to_string(a) for a in sess.state.legal_actions()}
    for p in squares:                                   # every lit square is a legal step or ride
        assert f"step {p['id']}" in legal or f"carriage to {p['id']}" in legal
        assert p["label"] in (f"Step to {p['id']}", f"Ride the carriage to {p['id']}")
        assert p["tip"].startswith(f"{p['id']}: ")
    data = board_data(at, "-town")
    assert sum(p["id"] in nui.SQUARES for p in data["places"]) == 63    # every square, most inert
    target = squares[-1]["id"]
    action = nui.square_actions(sess.state)[target]
    click_place(at, "-town", target)
    assert not at.exception, at.exception
    sess = at.session_state["bl_play"]
    assert list(sess.state.history)[before] == action


def test_other_hands_stay_hidden_in_two_player_game():
    at = app()
    sess = start(at, players=2, seed=5)
    for _ in range(10):                     # past the event: the Helpers are drawn
        if sess.state.full_observation()["seats"][1]["hand"]:
            break
        decide(at, ("accept",))
        sess = at.session_state["bl_play"]
    open_more(at)
    obs = sess.state.full_observation()
    theirs = obs["seats"][1]["hand"]
    page = html(at)
    seat1 = board_data(at, "-nkseat1")
    backs = [p for p in seat1["places"] if p["id"].startswith("back:1:")]
    assert len(backs) == obs["seats"][1]["hand_size"] and "hidden from you" in backs[0]["tip"]
    mine = obs["seats"][0]["hand"]
    for h in theirs:
        if h not in mine and h not in obs["discard"] and all(h not in s["played"] for s in obs["seats"]):
            assert h not in page, f"P1's Helper {h} is on P0's page"


@pytest.mark.parametrize("players,solo", [(1, "score_attack"), (2, None)])
def test_let_the_ai_finish(players, solo):
    at = app()
    start(at, players=players, solo=solo, seed=2)
    at.button(key="play_ai_finish").click().run(timeout=600)
    assert not at.exception, at.exception
    sess = at.session_state["bl_play"]
    assert sess.state.is_terminal()
    text = " ".join(x.value for x in at.success)
    assert "Game over" in text
    if players == 1:
        assert re.search(r"\d+ points — \w+", text)


def test_every_phase_offers_only_legal_choices():
    """Random games through PlaySession: the map's lit squares and the buttons name only legal
    actions, and every legal action is reachable (a square or a button)."""
    game = boardlab.make("nukumi", players=2)
    sess = PlaySession(game=game, seats=[AI, AI], preset="Beginner", seed=4)
    rng = np.random.default_rng(4)
    checked = 0
    while not sess.state.is_terminal():
        state = sess.state
        legal = [int(a) for a in state.legal_actions()]
        squares = nui.square_actions(state)
        assert set(squares.values()) <= set(legal)
        if squares and checked < 3:
            at = run_ui(state)
            names = {a: state.action_to_string(a) for a in legal}
            on_town = nui.town_actions(names)
            lit = {p["id"] for p in legal_places(at, "-town")}
            assert lit == set(on_town) and set(squares) <= lit
            buttons = {int(b.key.rsplit("_act_", 1)[1]) for b in at.button
                       if b.key and "_act_" in b.key}
            assert buttons | {on_town[q] for q in lit} == set(legal)      # each one way
            assert not buttons & {on_town[q] for q in lit}
            checked += 1
        state.apply(int(legal[rng.integers(len(legal))]))
        sess.advance_chance()
    assert checked == 3
    assert "Game over" in ui_for("nukumi").result_text(sess.state)


def test_map_svg_draws_buildings_with_their_owner_and_npc_cubes():
    game = boardlab.make("nukumi", players=1, solo="score_attack")
    facts = nui.example_facts(1, "score_attack")
    facts["seats"][0]["buildings"] = [{"square": "c3", "building": "tavern"}]
    state = game.position(0, **facts)
    obs = state.observation(0)
    found = []
    svg = nd.town_svg(obs, found)
    assert ">Tavern</text>" in svg and f"fill='{nui.SEAT_COLOURS[0]}'" in svg
    tips = {p["id"]: p["tip"] for p in found}
    assert "P0's Tavern stands here" in tips["c3"]
    assert sum("an NPC's cube: counts as built" in t for t in tips.values()) == 2
    idle = ui_for("nukumi").idle_input(obs, 0)
    assert "S-01" in idle and "<button" not in idle


def test_seat_facts_form_on_the_analyse_page():
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=TIMEOUT)
    at.run()
    at.switch_page("views/analyse.py").run()
    at.selectbox(key="seat_game").set_value("nukumi").run()
    assert not at.exception, at.exception
    area = next(t for t in at.text_area if t.key.startswith("seat_nk_facts"))
    facts = json.loads(area.value)
    facts["seats"][1]["hand_size"] = 99
    area.set_value(json.dumps(facts))
    at.button(key="seat_build").click().run()
    assert any("hand_size" in e.value for e in at.error)
    area = next(t for t in at.text_area if t.key.startswith("seat_nk_facts"))
    area.set_value(json.dumps(nui.example_facts(2, "none")))
    at.button(key="seat_build").click().run()
    assert not at.exception, at.exception
    assert any("Position set up: P0 to move" in s.value for s in at.success)


# ------------------------------------------------------------------- Game.position

def _facts():
    return {"round": 2, "round_cards": ["E-01", "E-02", "E-03", "E-04", "E-05"], "nukumaru": "g2",
            "start_player": 1, "hand": ["S-03", "S-07"], "discard": ["S-10"],
            "seats": [{"partner": "Yumomi", "square": "c3", "coins": 5, "fun": 1,
                       "bag": {"stone": 2, "wood": 1},
                       "drawn": {"food": 2, "networking": 1, "stone": 1}, "played": ["S-01"],
                       "used": ["mining"], "buildings": [{"square": "c3", "building": "stall"}]},
                      {"partner": "Miko", "square": "e5", "coins": 3, "hand_size": 2,
                       "bag": {"wood": 3}, "drawn": {"gold": 1}, "cards": ["EX-05"]}]}


def test_position_is_what_the_seat_said_and_deals_the_rest():
    game = boardlab.make("nukumi", players=2)
    state = game.position(0, seed=3, **_facts())
    obs = state.observation(0)
    assert state.current_player == 0 and obs["phase"] == "actions" and obs["round"] == 1
    me, other = obs["seats"]
    assert me["hand"] == ["S-03", "S-07"] and other["hand"] is None and other["hand_size"] == 2
    assert me["square"] == "c3" and me["coins"] == 5 and me["fun"] == 1 and me["used"] == ["mining"]
    assert me["drawn"]["food"] == 2 and me["bag"]["stone"] == 2 and other["cards"] == ["EX-05"]
    assert obs["buildings"] == [{"square": "c3", "building": "stall", "owner": 0}]
    assert obs["nukumaru"] == "g2" and obs["start_player"] == 1
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert "mining" not in legal and "cooking" in legal
    hands = set()
    for seed in range(8):                  # the hidden hand is dealt from the unseen Helpers
        full = game.position(0, seed=seed, **_facts()).full_observation()
        dealt = full["seats"][1]["hand"]
        assert len(dealt) == 2 and not set(dealt) & {"S-03", "S-07", "S-10", "S-01"}
        hands.add(tuple(dealt))
    assert len(hands) > 1
    assert len(game.random_playouts(5, state=state).returns) == 5    # it plays on to the end


@pytest.mark.parametrize("change,message", [
    ({"round": 6}, "round must be an integer 1..5"),
    ({"nukumaru": "d4"}, "nukumaru must be on a Nukumaru square"),
    ({"round_cards": ["E-01", "E-01", "E-02", "E-03", "E-04"]}, "E-01 is listed twice"),
    ({"colour": 1}, "unknown nukumi position fact"),
    ({"hand": ["S-01"]}, "played Helper is also in a hand"),
    ({"start_player": 2}, "start_player must be a seat"),
])
def test_bad_position_facts_name_what_is_wrong(change, message):
    game = boardlab.make("nukumi", players=2)
    with pytest.raises(ValueError, match=re.escape(message)):
        game.position(0, **(_facts() | change))


@pytest.mark.parametrize("seat_change,message", [
    ({"partner": "Nobody"}, "seats[0] partner must be one of"),
    ({"fun": 6}, "seats[0] fun must be an integer 0..5"),
    ({"bag": {"jade": 1}}, "unknown resource 'jade'"),
    ({"drawn": {}}, "has no drawn resources"),
    ({"passed": True}, "has passed"),
    ({"used": ["juggling"]}, "seats[0] used: unknown 'juggling'"),
    ({"buildings": [{"square": "a1", "building": "stall"}]}, "a1 is a ribbon square"),
    ({"cards": ["EX-05"]}, "EX-05 is held twice"),
    ({"partner": "Miko"}, "already taken"),
])
def test_bad_seat_facts_name_what_is_wrong(seat_change, message):
    game = boardlab.make("nukumi", players=2)
    facts = _facts()
    facts["seats"][0] = facts["seats"][0] | seat_change
    with pytest.raises(ValueError, match=re.escape(message)):
        game.position(0, **facts)


def test_other_hand_sizes_cannot_exceed_the_unseen_helpers():
    game = boardlab.make("nukumi", players=2)
    facts = _facts()
    facts["seats"][1]["hand_size"] = 37
    with pytest.raises(ValueError, match="only 36 are unaccounted for"):
        game.position(0, **facts)


def test_solo_position_facts():
    game = boardlab.make("nukumi", players=1, solo="chasing")
    facts = nui.example_facts(1, "chasing") | {"nukumaru_cubes": ["d1", "a2"]}
    assert game.position(0, **facts).observation(0)["nukumaru_cubes"] == ["d1", "a2"]
    with pytest.raises(ValueError, match="npcs: only Score Attack"):
        game.position(0, **(facts | {"npcs": ["d4", "d4", "d4"]}))
    sa = boardlab.make("nukumi", players=1, solo="score_attack")
    with pytest.raises(ValueError, match="npcs: Score Attack needs"):
        sa.position(0, **nui.example_facts(1, "none"))
    with pytest.raises(ValueError, match="advanced play"):
        boardlab.make("nukumi", players=2, advanced=True).position(0, **_facts())


def test_mining_the_action_numbered_zero_is_taken():
    at = app()
    start(at, players=1, solo="score_attack", seed=11)
    decide(at, ("accept",))
    before = len(at.session_state["bl_play"].state.history)
    assert "spot:mining" in {p["id"] for p in legal_places(at, "-town")}
    click_place(at, "-town", "spot:mining")                    # the spot clicked on the town
    assert not at.exception, at.exception
    sess = at.session_state["bl_play"]
    assert sess.state.history[before] == 0                     # 0 is "mining"
    assert [b.label for b in decisions(at)][0].startswith("Pay ")


# ------------------------------------------------------------ what changed since your last move

def test_recent_squares_name_what_changed_between_two_views():
    game = boardlab.make("nukumi", players=1, solo="score_attack")
    facts = nui.example_facts(1, "score_attack")
    before = game.position(0, **facts).observation(0)
    facts["seats"][0]["square"] = "c3"
    facts["seats"][0]["buildings"] = [{"square": "c5", "building": "stall"}]
    facts |= {"nukumaru": "d1", "npcs": ["e4", "d6", "c4"], "npc_cubes": ["e4", "c4", "d6"]}
    now = game.position(0, **facts).observation(0)
    recent = nui.recent_squares(before, now)
    assert recent == {"c3": ["P0 moved to c3"], "c5": ["P0 built a stall on c5"],
                      "d1": ["Nukumaru moved to d1"],
                      "d6": ["NPC n2 moved to d6", "an NPC cube placed on d6"]}
    assert nui.recent_squares(now, now) == {} and nui.recent_squares(None, now) == {}
    svg, found = nui.town(now, 0, before, recent)
    assert svg.count("class='nk-recent'") == 4 and "nk-recent" not in nui.town(now, 0)[0]
    anims = {p["id"]: p["anim"] for p in found if p["anim"]}
    assert anims["c3"] == {"from": list(nd.centre("d4"))}          # the pioneer walks in
    assert anims["c5"] == {"kind": "drop"}                          # the building drops in
    assert "data-place='c3'" in svg and "data-place='c5'" in svg
    assert "Nukumaru moved to d1" in nui.map_legend(recent) and "nk-legend" not in nui.map_legend({})


def _human_decides(at):
    """Make the human seat's decision: a step if there is one, else a move action, a
    payment, the rest."""
    decide(at, ("step ", "move (", "pay stone", "pay wood", "pay networking", "pay food",
                "pay gold"))


def test_after_the_action_free_actions_and_end_turn_are_buttons():
    """The rulebook's free actions "any time during a player's turn": after the action too,
    until the player clicks `end turn`."""
    at = app()
    start(at, players=2, seed=7)
    for _ in range(60):
        sess = at.session_state["bl_play"]
        if sess.state.current_player == 0 and sess.state.observation(0)["phase"] == "end of turn":
            break
        _human_decides(at)
    else:
        pytest.fail("P0 never finished an action with resources left")
    labels = [b.label for b in decisions(at)]
    assert labels[0] == "End turn"                                   # first, named
    assert any(t.startswith("Sell ") and t.endswith(" +1") for t in labels)
    sells = [b for b in decisions(at) if b.label.startswith("Sell ")]   # short: in the tip
    assert all(b.help.startswith("Free action: put 1 drawn ") for b in sells)
    assert not any(t.startswith(("Mining", "Logging", "Pass")) for t in labels)   # no 2nd action
    assert not boards(at, "-town") or all(                  # no spot lit either
        not p["id"].startswith("spot:") for p in legal_places(at, "-town"))
    assert "choose free actions, or end your turn" in html(at)
    before = len(sess.state.history)
    next(b for b in decisions(at) if b.label.startswith("End turn")).click().run()
    assert not at.exception, at.exception
    sess = at.session_state["bl_play"]
    assert sess.state.history[before] == sess.game.num_actions - 1     # `end turn`, the last id
    assert sess.state.current_player != 0 or sess.state.observation(0)["phase"] != "end of turn"


def test_squares_the_ai_moved_to_are_ringed_after_its_move_and_not_before():
    at = app()
    sess = start(at, players=2, seed=7)
    assert "nk-recent" not in html(at)                   # the first decision: nothing changed yet
    for _ in range(80):
        sess = at.session_state["bl_play"]
        state = sess.state
        since = sess.since_last_decision(0)
        moved = [t for who, t in bc.recent_moves(changes_since(sess, 0))
                 if who == 1 and re.fullmatch(r"(?:steps|rides the carriage) to [a-i][1-7]", t)]
        if since and moved and state.current_player == 0:
            break
        page = html(at)
        if since and state.current_player == 0 and not any(who != 0 for who in sess._actors[since:]):
            assert "nk-recent" not in page                # only my own moves since my last decision
                                                          # (no chance either: Nukumaru may move)
        _human_decides(at)
    else:
        pytest.fail("the AI never moved on the map")
    where = state.observation(0)["seats"][1]["square"]
    page = html(at)
    assert "nk-recent" in page and f"P1 moved to {where}" in page
    data = board_data(at, "-town") if boards(at, "-town") else None
    if data is not None:                                 # the clickable map keeps the rings
        assert "nk-recent" in data["svg"]


def test_seat_facts_form_in_advanced_play():
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=TIMEOUT)
    at.run()
    at.switch_page("views/analyse.py").run()
    at.selectbox(key="seat_game").set_value("nukumi").run()
    at.checkbox(key="seat_nk_adv").check().run()
    area = next(t for t in at.text_area if t.key.startswith("seat_nk_facts"))
    facts = json.loads(area.value)
    assert facts["helper_row"] == ["S-05", "S-06", "S-07"] and len(facts["card_row"]) == 3
    facts["card_row"] = ["EX-01", "EX-01", None]
    area.set_value(json.dumps(facts))
    at.button(key="seat_build").click().run()
    assert any("card_row: EX-01 is listed twice" in e.value for e in at.error)
    facts["card_row"] = ["EX-01", None, "EX-04"]
    area = next(t for t in at.text_area if t.key.startswith("seat_nk_facts"))
    area.set_value(json.dumps(facts))
    at.button(key="seat_build").click().run()
    assert not at.exception, at.exception
    assert any("Position set up: P0 to move" in s.value for s in at.success)
    open_more(at, "seat_board")
    offer = board_data(at, "-nkoffer")
    ids = [p["id"] for p in offer["places"]]
    assert ids == ["offer:S-05", "offer:S-06", "offer:S-07", "offer:EX-01", "offer:EX-04"]
    assert ">empty</text>" in offer["svg"]                              # the empty slot 2
    assert offer["places"][-1]["tip"] == nt.card_tip("EX-04")


@pytest.mark.parametrize("players,solo", [(1, "score_attack"), (1, "chasing"), (2, "none"), (4, "none")])
def test_the_forms_example_facts_set_up_in_advanced_play(players, solo):
    game = boardlab.make("nukumi", players=players, solo=solo, advanced=True)
    obs = game.position(0, **nui.example_facts(players, solo, advanced=True)).observation(0)
    assert obs["helper_row"] == ["S-05", "S-06", "S-07"] and obs["card_deck_size"] == 9


def test_cards_on_offer_say_what_they_do():
    game = boardlab.make("nukumi", players=2)
    obs = game.position(0, **_facts()).observation(0)
    found = []
    svg = nd.offer_svg(obs, found)
    tips = {p["id"]: p["tip"] for p in found}
    assert "pay stone + wood → +1 gold into your bag" in tips["offer:EX-10"]
    assert ">Quarry</text>" in svg
    assert "offer:EX-05" not in tips                      # held by P1, not on offer
    assert nt.effects_text([]) == "no effect"
    assert nt.effects_text([["helper", 2], ["die", 1]]) == "draw 2 Helpers, roll your partner's die"


def test_taking_an_action_card_shows_what_each_one_does():
    facts = _facts()
    facts["seats"][0]["coins"] = 10
    state = boardlab.make("nukumi", players=2).position(0, **facts)
    state.apply_string("add an action")
    state.apply_string("pay stone")
    assert state.observation(0)["phase"] == "take a card"
    at = run_ui(state, steps=("input",))
    buttons = {b.label: b.help for b in at.button if b.key and "_act_" in b.key}
    assert buttons["Take Quarry (pay stone + wood → +1 gold)"] == nt.card_tip("EX-10")
    assert not any("Horse Riding" in label for label in buttons)   # P1 holds it


def test_the_analyse_form_fills_in_from_the_game_in_progress():
    at = app()
    sess = start(at, players=2, seed=7)
    for _ in range(40):                      # to P0's turn in the Actions phase
        sess = at.session_state["bl_play"]
        obs = sess.state.observation(0)
        if sess.state.current_player == 0 and obs["phase"] == "actions" and not obs["pending"]:
            break
        _human_decides(at)
    else:
        pytest.fail("P0's turn never came")
    seen = sess.state.observation(0)
    legal = sorted(sess.state.action_to_string(a) for a in sess.state.legal_actions())
    at.switch_page("views/analyse.py").run()
    at.selectbox(key="seat_game").set_value("nukumi").run()
    at.button(key="seat_nk_from_play").click().run()
    assert not at.exception, at.exception
    area = next(t for t in at.text_area if t.key.startswith("seat_nk_facts"))
    facts = json.loads(area.value)
    hidden = sess.state.full_observation()["seats"][1]["hand"]
    assert "hand" not in facts["seats"][1] and facts["seats"][1]["hand_size"] == len(hidden)
    at.button(key="seat_build").click().run()
    assert any("Position set up: P0 to move" in s.value for s in at.success)
    pos = at.session_state[ANALYSIS_KEY]["seat_built"][0]
    assert pos.observation(0) == seen
    assert sorted(pos.action_to_string(a) for a in pos.legal_actions()) == legal
