"""Kyūshū's words (streamlit_app/games/kyushu_text.py): the tooltip of every Map card, Starting
Province and Most/Fewest card of the data file lists what is printed on it and follows an
edit of the data; squares, resources, tiles, travelers, pool and pick boxes; every decision's
button text is words, not notation; every element of the table and the maps has a tip, none
overlaps another, and what arrived since the viewer's last decision is animated."""
import copy
import re

import numpy as np
import pytest

pytest.importorskip("streamlit")

import boardlab  # noqa: E402
from boardlab.streamlit_app.games import kyushu as kui  # noqa: E402
from boardlab.streamlit_app.games import kyushu_draw as kd  # noqa: E402
from boardlab.streamlit_app.games import kyushu_text as kt  # noqa: E402

DATA = kt.game_data()


def printed(squares) -> list[str]:
    """The names a tip gives the six squares of a card in the data (as printed, in order)."""
    return [kt.TERRAIN_NAME[s.partition(":")[0]] for s in squares[0] + squares[1]]


def all_cards():
    for card in DATA["map_cards"]["cards"]:
        yield card["number"], card
    for prov in DATA["starting_provinces"]["cards"]:
        for side in "AB":
            yield f"S{prov['number']}{side}", prov[side]


def test_every_card_of_the_data_has_a_tip_listing_its_squares_in_order():
    n = 0
    for card, face in all_cards():
        tip = kt.card_tip(card)
        names = printed(face["squares"])
        positions = [tip.index(name) for name in names[:1]]
        for name in names[1:]:                   # each square, in the printed order
            positions.append(tip.index(name, positions[-1] + 1))
        for sq in face["squares"][0] + face["squares"][1]:
            kind, _, colour = sq.partition(":")
            if colour:
                assert f"{kt.TERRAIN_NAME[kind]} ({colour}" in tip
        assert tip.count("Dual factory") == len(face["duals"])
        assert ("stand-in" in tip) == bool(DATA["map_cards" if isinstance(card, int)
                                                else "starting_provinces"]["stand_in"])
        n += 1
    assert n == 60 + 12


def test_factory_values_in_a_tip_come_from_the_data():
    values = DATA["factory_values"]
    for card, face in all_cards():
        squares = face["squares"][0] + face["squares"][1]
        for a, b in face["duals"]:
            key = "dual_one_colour" if squares[a] == squares[b] else "dual_two_colours"
            assert f"{values[key]} points per resource" in kt.card_tip(card)
        singles = [i for i, s in enumerate(squares) if s.startswith("factory:")
                   and not any(i in pair for pair in face["duals"])]
        if singles:
            assert f"{values['single']} points)" in kt.card_tip(card)


def test_a_card_tip_follows_an_edit_of_the_data():
    data = copy.deepcopy(DATA)
    card = data["map_cards"]["cards"][11]                          # Map card 12
    assert kt.card_tip(12, data) == kt.card_tip(12)
    card["squares"][0][0] = "fallow"
    assert kt.card_tip(12, data) != kt.card_tip(12)
    assert "Map card 12, top row: Fallow," in kt.card_tip(12, data)
    data["factory_values"]["single"] = 5
    single = next(c["number"] for c in data["map_cards"]["cards"] if not c["duals"]
                  and any(s.startswith("factory:") for r in c["squares"] for s in r))
    assert "5 points)" in kt.card_tip(single, data) and "5 points)" not in kt.card_tip(single)
    data["map_cards"]["stand_in"] = False                         # the printed cards
    assert "stand-in" not in kt.card_tip(12, data)
    data["starting_provinces"]["cards"][2]["B"]["squares"][1][2] = "town"
    assert kt.card_tip("S3B", data).split("bottom row: ")[1].split(".")[0].endswith(", Town")
    assert not kt.card_tip("S3B").split("bottom row: ")[1].split(".")[0].endswith(", Town")


def test_every_most_fewest_card_has_a_tip_with_its_criterion_and_the_counts():
    obs = {"scores": [{"most_metrics": [1] * 8, "fewest_metrics": [2] * 8},
                      {"most_metrics": [4] * 8, "fewest_metrics": [0] * 8}]}
    for i, card in enumerate(DATA["most_fewest_cards"]["cards"], 1):
        for side in ("most", "fewest"):
            tip = kt.most_fewest_tip({"card": i, "side": side, "seats": [0, 1]}, obs)
            assert card[side] in tip and "between P0 and P1" in tip and "3 points" in tip
            assert ("Now: P0 1, P1 4." if side == "most" else "Now: P0 2, P1 0.") in tip
    data = copy.deepcopy(DATA)
    data["most_fewest_cards"]["cards"][0]["most"] = "Most foxes"
    assert "Most foxes" in kt.most_fewest_tip({"card": 1, "side": "most", "seats": [0, 1]},
                                              data=data)


def test_squares_resources_tiles_travelers_pool_and_boxes_have_tips():
    for terrain in DATA["terrains"]:
        colour = "blue" if terrain in ("production", "factory") else None
        assert kt.terrain_effect(terrain, colour, 2 if terrain == "factory" else None)
    for colour in DATA["colours"]:
        tile = kt.TILE_OF[colour]
        assert f"a {colour} one gives a {kt.TERRAIN_NAME[tile].lower()} tile" in kt.resource_tip(colour)
        assert kt.tile_tip(tile).startswith(f"{kt.TERRAIN_NAME[tile]} terraforming tile (from a {colour}")
        assert f"of the {DATA['resources_per_colour']} {colour}" in kt.pool_tip(colour, 9)
    data = copy.deepcopy(DATA)
    data["resources_per_colour"] = 20
    assert "9 of the 20 blue" in kt.pool_tip("blue", 9, data)
    assert "P2's traveler on P0's hot spring" in kt.traveler_tip(2, 0)
    # pick boxes: own, left (next seat), right (previous seat); 2p middles by who looks
    box = {"box": 1, "owner": 1, "label": "P1", "card": 12}
    assert "any card of your hand" in kt.pick_box_tip(dict(box, owner=0), 0, 3)
    assert "higher card" in kt.pick_box_tip(box, 0, 3)
    assert "lower card" in kt.pick_box_tip(box, 2, 3)
    assert "only by paying" in kt.pick_box_tip(box, 3, 5)
    middle = {"box": 2, "owner": None, "label": "left of P0", "card": 12}
    assert "higher card" in kt.pick_box_tip(middle, 0, 2)
    assert "lower card" in kt.pick_box_tip(middle, 1, 2)
    assert kt.card_tip(12) in kt.pick_box_tip(box, 0, 3)


def random_states(players: int, seed: int, every: int = 1, **options):
    s = boardlab.make("kyushu", players=players, **options).new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    out, k = [], 0
    while not s.is_terminal():
        if s.is_chance():
            o = s.chance_outcomes()
            s.apply(o[rng.integers(len(o))][0])
            continue
        if k % every == 0:
            out.append(s.clone())
        k += 1
        legal = s.legal_actions()
        s.apply(int(legal[rng.integers(len(legal))]))
    return out + [s]


NOTATION = re.compile(r"^(province|pick box|take|pay|replace|orient|place|terraform|discard|"
                      r"choose|end turn|traveler|no traveler) |_")


def test_every_decision_is_named_in_words_with_a_tip():
    ui = kui.KyushuUI()
    seen = set()
    for s in random_states(2, seed=1, most_fewest=True, travelers=True)[:-1]:
        phase = s.observation(s.current_player)["phase"]
        for a in list(s.legal_actions())[:40]:
            name = s.action_to_string(int(a))
            label = ui.decision_label(s, int(a))
            assert label[0].isupper() and not NOTATION.search(label), (name, label)
            assert ui.decision_tip(s, int(a)), name
        seen.add(phase)
    assert {"province", "first_box", "select", "replace", "map", "position"} <= seen


def overlaps(a, b) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def check_places(found):
    ids = [p["id"] for p in found]
    assert len(ids) == len(set(ids))
    assert all(p["tip"] and p["label"] for p in found)
    for i, p in enumerate(found):
        assert not any(overlaps(p["rect"], q["rect"]) for q in found[i + 1:]), p["id"]


@pytest.mark.parametrize("players", [2, 5])
def test_every_element_of_the_table_and_maps_has_a_tip_and_none_overlaps(players):
    states = random_states(players, seed=players, every=25, most_fewest=True, travelers=True)
    for s in states[::3] + states[-1:]:
        obs = s.full_observation()
        found = []
        kd.table_svg(obs, 0, places=found)
        check_places(found)
        assert {f"box{b['box']}" for b in obs["pick_boxes"]} <= {p["id"] for p in found}
        assert len([p for p in found if p["id"].startswith("mf")]) == len(obs["most_fewest"])
        for seat in range(players):
            m = kd.seat_map(obs, seat)
            found = []
            kd.map_svg(m, places=found)
            check_places(found)
            assert len(found) == len(m["cells"])
            for cell in m["cells"]:                      # a square's tip: its square, its card
                tip = next(p["tip"] for p in found if p["id"] == f"c{cell['name']}")
                assert tip.startswith(f"{cell['name']}: {kt.TERRAIN_NAME[cell['terrain']]}")
                assert tip.count(kt.TERRAIN_NAME[cell["terrain"]] + ":") == 0   # said once
                assert kt.card_kind(cell["card"]) in tip
                if cell["resource"]:
                    assert f"A {cell['resource']} resource" in tip


def test_a_new_card_drops_in_and_a_new_resource_flashes():
    s = random_states(2, seed=3, every=1000)[-1]        # the game over: full maps
    m = s.full_observation()["maps"][0]
    newest = str(m["cards"][-1]["card"])
    before = copy.deepcopy(m)
    before["cards"] = [c for c in m["cards"] if str(c["card"]) != newest]
    changed = next(c for c in m["cells"] if str(c["card"]) != newest)
    old = next(c for c in before["cells"] if c["name"] == changed["name"])
    old["resource"], changed = None, dict(changed, resource="blue")
    after = dict(m, cells=[changed if c["name"] == changed["name"] else c for c in m["cells"]])
    found = []
    svg = kd.map_svg(after, places=found, before=before)
    anim = {p["id"]: p["anim"] for p in found if p["anim"]}
    assert {i for i, a in anim.items() if a == {"kind": "drop"}} == \
        {f"c{c['name']}" for c in m["cells"] if str(c["card"]) == newest}
    assert anim[f"c{changed['name']}"] == {"kind": "flash"}
    assert f"data-place='c{changed['name']}'" in svg
    found = []
    kd.map_svg(after, places=found, before=after)
    assert not [p for p in found if p["anim"]]


def test_best_move_mark_names_the_places_the_board_draws():
    ui = kui.KyushuUI()
    for s in random_states(2, seed=5, every=9)[:-1]:
        seat = s.current_player
        obs = s.observation(seat)
        for a in s.legal_actions()[:5]:
            name = s.action_to_string(int(a))
            mark = ui.best_move_mark(s, int(a))
            if name.startswith(("take", "pay to take")):
                assert mark and mark[0] in {f"box{b['box']}" for b in obs["pick_boxes"]}
            if name.startswith("place "):
                sq = name.split(' at ')[1].split()[0]      # the square, and the card taken
                assert mark == [f"p{sq}", f"c{sq}", f"taken{seat}"]


def test_how_to_play_says_the_goal_a_round_and_the_end():
    text = kui.KyushuUI().how_to_play()
    assert "**Goal.**" in text and "**A round**" in text and "12" in text
