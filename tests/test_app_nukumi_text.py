"""Nukumi's words (streamlit_app/games/nukumi_text.py) and its town (nukumi_draw.py): the
tooltip of every Helper, action card, round card, partner board side, building, action spot,
square and track of the data file says what it costs and gives and follows an edit of the data;
every decision's button names its effect in words; the town's places all have a tip and none
overlaps another; NPC routes on offer are drawn numbered on the map."""
import copy
import random
import re

import pytest

pytest.importorskip("streamlit")

import boardlab  # noqa: E402
from boardlab.streamlit_app.games import nukumi as nui  # noqa: E402
from boardlab.streamlit_app.games import nukumi_draw as nd  # noqa: E402
from boardlab.streamlit_app.games import nukumi_text as nt  # noqa: E402
from board_clicks import board_data, run_ui  # noqa: E402

DATA = nt.game_data()
UI = nui.NukumiUI()


def test_every_helper_tip_names_it_its_points_and_each_effect():
    for h in DATA["helpers"]["cards"]:
        tip = nt.helper_tip(h["id"])
        assert tip.startswith(f"Helper {h['id']} {h['name']} (rank {h['rank']})")
        assert f"Worth {h['points']} point" in tip and "discard it" in tip
        for e in h["effects"]:
            assert nt.effect_text(e) in tip
        if h["trigger"] == "after_action":
            assert all(nt.SPOT_TITLE.get(a, nt.title(a)) in tip for a in h["on"])
        assert ("Stand-in" in tip) == bool(h.get("stand_in"))
    assert len(DATA["helpers"]["cards"]) == 40


def test_every_action_card_tip_says_its_cost_effect_and_points():
    for c in DATA["action_cards"]["cards"]:
        tip = nt.card_tip(c["id"])
        assert f"{c['id']} {c['name']}" in tip and f"Worth {c['points']} points" in tip
        assert f"pay {nt.cost_text(c['cost'])} → {nt.effects_text(c['effects'])}" in tip
    assert "pay stone → move 2 squares" in nt.card_tip("EX-01")


def test_every_round_card_and_partner_side_has_its_effects_in_words():
    for r in DATA["round_cards"]["cards"]:
        tip = nt.round_card_tip(r["id"])
        assert f"{r['id']} {r['name']}" in tip and nt.effects_text(r["effects"]) in tip
    for i, b in enumerate(DATA["partners"]["boards"]):
        for side in "AB":
            s = b[side]
            tip = nt.partner_tip(i, side, used=2)
            assert tip.startswith(f"Partner board {b['name']} (side {side})")
            assert f"Start: {nt.effects_text(s['start'])}" in tip
            assert nt.effects_text(s["ongoing"]["effects"]) in tip
            assert nt.partner_action(i, side) in tip
            assert ", ".join(map(str, s["draw"])) in tip and f"draw size {s['draw'][2]}" in tip
    assert "10 points if you built a Public Bath and a Ryokan" in nt.partner_tip(0, "A")


def test_every_building_spot_square_and_track_has_a_tip():
    for b in DATA["buildings"]:
        tip = nt.building_tip(b["name"], left=1)
        assert tip.startswith(nt.title(b["name"])) and nt.cost_text(b["cost"]) in tip
        assert f"1 of {b['count']} tiles left" in tip
        assert (str(b["points"]) in tip) if b["points"] != "fun" else "fun level" in tip
    assert "pay stone (or gold) ×3 + 3 Coins → 23 points" in nt.building_tip("ryokan")
    for side in "AB":
        for s in nt.spots(side):
            tip = nt.spot_tip(s["name"], side)
            assert f"(player board side {side})" in tip
            if s.get("cost"):
                assert nt.cost_text(s["cost"]) in tip and nt.effects_text(s["effects"]) in tip
    kinds = {}
    for sq in DATA["board"]["squares"]:
        tip = nt.square_tip(sq, {})
        assert tip.startswith(f"{sq['name']}: {nt.KIND_NAME[sq['kind']]}")
        kinds[sq["kind"]] = tip
    assert "draws a Helper" in kinds["helper"] and "2 Coins" in kinds["2_coins"]
    assert "carriage" in kinds["carriage_stop"] and "on a die roll of" in kinds["nukumaru"]
    assert "0, 3, 6, 10, 15, 20 points" in nt.track_tip("fun", 2)


def test_a_tip_follows_an_edit_of_the_data():
    data = copy.deepcopy(DATA)
    assert nt.helper_tip("S-05", data) == nt.helper_tip("S-05")
    data["helpers"]["cards"][4]["points"] = 9
    data["helpers"]["cards"][4]["effects"] = [["coins", 5]]
    assert "Worth 9 points" in nt.helper_tip("S-05", data) and "+5 Coins" in nt.helper_tip("S-05", data)
    data["action_cards"]["cards"][0]["cost"] = ["gold", "food"]
    assert "pay gold + food → move 2 squares" in nt.card_tip("EX-01", data)
    data["round_cards"]["cards"][0]["effects"] = [["fun", 2]]
    assert "accept fun +2" in nt.round_card_tip("E-01", data)
    data["buildings"][0]["points"] = 6
    assert "→ 6 points" in nt.building_tip("stall", data)
    data["partners"]["boards"][0]["A"]["draw"][0] = 5
    assert "you draw 5, 6, 8" in nt.partner_tip(0, "A", data)
    data["player_board"]["spots"][1]["effects"] = [["gain", "wood", 3]]
    assert "+3 wood into your bag" in nt.spot_tip("logging", "A", data)
    data["tracks"]["fun"]["points"]["by_level"] = [0, 1, 2, 3, 4, 5]
    assert "0, 1, 2, 3, 4, 5 points" in nt.track_tip("fun", data=data)


NOTATION = re.compile(r"(mining|logging|planning|cooking|gold mining|recruitment|move \(\d\)|"
                      r"add an action|construction|partner action|pass|end turn|stop \w+|"
                      r"(pay|sell|step|take|play|use|accept|decline|build|discard) .*|NPC .*)")


@pytest.mark.parametrize("params", [dict(players=2), dict(players=1, solo="score_attack"),
                                    dict(players=3, advanced=True, board_side="B")])
def test_every_decision_button_names_its_effect(params):
    """Random games: every legal decision's label is words (not its notation) and it has a
    tooltip, for every kind of decision met."""
    state = boardlab.make("nukumi", **params).new_initial_state()
    rng = random.Random(3)
    kinds = set()
    while not state.is_terminal():
        legal = [int(a) for a in state.legal_actions()]
        if not state.is_chance():
            for a in legal:
                name = state.action_to_string(a)
                label, tip = UI.decision_label(state, a), UI.decision_tip(state, a)
                assert label != name and not NOTATION.fullmatch(label), (name, label)
                assert tip, name
                kinds.add(name.split()[0])
        state.apply(rng.choice(legal))
    assert {"mining", "pay", "accept", "step", "sell", "end"} <= kinds or params["players"] == 1


def test_town_places_have_tips_and_never_overlap():
    for params in (dict(players=4, advanced=True), dict(players=1, solo="score_attack")):
        state = boardlab.make("nukumi", **params).new_initial_state()
        rng = random.Random(1)
        for _ in range(150):            # into the game: buildings, Helpers, cards held
            if state.is_terminal():
                break
            state.apply(rng.choice([int(a) for a in state.legal_actions()]))
        obs = state.full_observation()
        for draw in (lambda f: nd.town_svg(obs, f, seat=0), lambda f: nd.seat_svg(obs, 0, f),
                     lambda f: nd.offer_svg(obs, f)):
            found = []
            draw(found)
            assert found and all(p["tip"] for p in found)
            rects = [p["rect"] for p in found]
            for i, (x, y, w, h) in enumerate(rects):
                for (u, v, s, t) in rects[i + 1:]:
                    assert min(x + w, u + s) - max(x, u) <= 1 or min(y + h, v + t) - max(y, v) <= 1


def test_the_best_move_is_ringed_where_it_is_clicked():
    state = boardlab.make("nukumi", players=2).new_initial_state()
    rng = random.Random(2)
    while state.is_chance() or state.observation(state.current_player)["phase"] != "actions":
        state.apply(rng.choice([int(a) for a in state.legal_actions()]))
    obs = state.observation(state.current_player)
    found = []
    nd.town_svg(obs, found, seat=state.current_player)
    ids = {p["id"] for p in found}
    for a in state.legal_actions():
        name = state.action_to_string(int(a))
        mark = UI.best_move_mark(state, int(a))
        if name in ("mining", "cooking") or name.startswith("build "):
            assert mark and set(mark) <= ids, name


def test_npc_routes_on_offer_are_numbered_on_the_map():
    """Score Attack: when an NPC's shortest routes tie, each is drawn on the map with its
    number and the button says "Route k: NPC n walks a → b → c"."""
    for seed in range(40):
        state = boardlab.make("nukumi", players=1, solo="score_attack").new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if not state.is_chance() and state.observation(0)["phase"] == "npc route":
                break
            state.apply(rng.choice([int(a) for a in state.legal_actions()]))
        else:
            continue
        break
    else:
        pytest.fail("no NPC route choice in 40 games")
    legal = [int(a) for a in state.legal_actions()]
    labels = [UI.decision_label(state, a) for a in legal]
    assert all(re.fullmatch(r"Route \d: NPC \d walks [a-i][1-7]( → [a-i][1-7])*", t) for t in labels)
    at = run_ui(state)
    data = board_data(at, "t-town")
    for k in range(1, len(legal) + 1):
        assert f">{k}</text>" in data["svg"] and nd.ROUTE_COLOURS[k - 1] in data["svg"]
    lit = [p for p in data["places"] if p["legal"]]      # a square on one route only
    assert lit
    buttons = [b.label for b in at.button if b.key and "_act_" in b.key]
    assert len(lit) + len(buttons) == len(legal)
    for p in lit:                                         # chooses it, its walk previewed
        assert p["label"].startswith("Route ") and "<path" in p["preview"]
        assert p["tip"].startswith(p["label"])
    assert set(p["label"] for p in lit) | set(buttons) == set(labels)


def test_how_to_play_says_the_goal_a_turn_and_the_end():
    text = UI.how_to_play()
    for words in ("**Goal.**", "one action", "Free actions", "**End turn**", "5th round",
                  "Score Attack"):
        assert words in text
