"""Kitsu's words (streamlit_app/games/kitsu_text.py): the tooltip of every card type of the data
file says what the card is and does and how many copies the deck holds, and follows an edit
of the data; tokens, track and pawns; every decision's button text is words, not notation;
every element of the table has a tip, none overlaps another, and what changed since the
viewer's last decision is animated."""
import copy
import re

import numpy as np
import pytest

pytest.importorskip("streamlit")

import boardlab  # noqa: E402
from boardlab.streamlit_app.games import kitsu as kui  # noqa: E402
from boardlab.streamlit_app.games import kitsu_draw as kd  # noqa: E402
from boardlab.streamlit_app.games import kitsu_text as kt  # noqa: E402

DATA = kt.game_data()


def test_every_card_of_the_data_has_a_tip_with_its_content():
    dist = DATA["card_distribution"]
    for card in DATA["card_types"]:
        for players in (2, 4, 6):
            tip = kt.card_tip(card, players)
            assert kt.card_name(card) in tip
            if kt.is_numeral(card):
                value, clan = int(card[1:]), kt.CLAN[card[0]]
                n = dist["numerals_per_colour"][str(players)][value - 1]
                assert f"adds {value} to {clan}'s total" in tip
            else:
                n = dist["specials"][card]
                assert kt.SPECIAL_EFFECT[card] in tip
            assert f"{n} {'copy' if n == 1 else 'copies'} in the deck with {players} players" in tip
    assert "destroys a face-up numeral card" in kt.card_tip("Katana")
    assert "inverts the colours" in kt.card_tip("White")
    assert "obliges the next player" in kt.card_tip("Black")


def test_a_card_tip_follows_an_edit_of_the_data():
    data = copy.deepcopy(DATA)
    data["card_distribution"]["numerals_per_colour"]["4"][2] = 5      # five 3s of each colour
    data["card_distribution"]["specials"]["White"] = 3
    assert "5 copies in the deck with 4 players" in kt.card_tip("B3", 4, data)
    assert "1 copy in the deck with 4 players" in kt.card_tip("B3", 4)
    assert "3 copies" in kt.card_tip("White", 4, data)
    data["card_types"].remove("Katana")
    assert "not a card" in kt.card_tip("Katana", 4, data)


def test_the_track_tip_says_its_length_and_whether_it_is_a_stand_in():
    default = DATA["track_length"]["default"]
    assert f"{default} spaces" in kt.track_tip(default) and "stand-in" in kt.track_tip(default)
    assert "stand-in" not in kt.track_tip(default + 3)           # a length the player chose
    data = copy.deepcopy(DATA)
    data["track_length"]["stand_in"] = False                     # the printed board's count
    assert "stand-in" not in kt.track_tip(default, data)
    assert "3 spaces to absolute wisdom" in kt.pawn_tip(0, default - 3, default)
    assert "Moved +2" in kt.pawn_tip(1, 5, default, before=3)


def test_every_token_has_a_tip_with_its_effect_and_where_it_is():
    for name in boardlab.games.get("kitsu").TOKENS:
        tip = kt.token_tip(name)
        assert tip.startswith(kt.TOKEN_NAME[name]) and kt.TOKEN_EFFECT[name] in tip
        assert "Held by P3" in kt.token_tip(name, {"holder": 3, "used": False})
        assert "Used this round" in kt.token_tip(name, {"holder": None, "used": True})
        assert "Available" in kt.token_tip(name, {"holder": None, "used": False})


def random_states(players: int, seed: int, moves: int):
    """(state at a seat's decision) along a seeded random game."""
    s = boardlab.make("kitsu", players=players).new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    while not s.is_terminal() and len(out) < moves:
        if s.is_chance():
            o = s.chance_outcomes()
            s.apply(o[rng.integers(len(o))][0])
            continue
        out.append(s.clone())
        s.apply(int(rng.choice(s.legal_actions())))
    return out


NOTATION = re.compile(r"^(play|give|katana|recover|take|token to|leader|\+3 to) |#\d")


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_decision_is_named_in_words_with_a_tip(players):
    ui = kui.KitsuUI()
    seen = set()
    for s in random_states(players, seed=players, moves=400):
        for a in s.legal_actions():
            name = s.action_to_string(int(a))
            label = ui.decision_label(s, int(a))
            assert label and label[0].isupper() and not NOTATION.search(label), (name, label)
            assert label != name
            assert ui.decision_tip(s, int(a)), name
            seen.add(name.split()[0])
    assert {"play", "katana"} <= seen
    if players > 2:
        assert "give" in seen


def overlaps(a, b) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_element_of_the_table_has_a_tip_and_none_overlaps(players):
    for s in random_states(players, seed=10 + players, moves=120)[::7]:
        seat = s.current_player
        obs = s.observation(seat)
        found = []
        kd.board_svg(obs, seat, places=found)
        ids = [p["id"] for p in found]
        assert len(ids) == len(set(ids))
        assert all(p["tip"] and p["label"] for p in found)
        for i, p in enumerate(found):
            assert not any(overlaps(p["rect"], q["rect"]) for q in found[i + 1:]), p["id"]
        for i, c in enumerate(obs["trick"]):            # a trick card's tip names that card
            tip = next(p["tip"] for p in found if p["id"] == f"t{i}")
            assert kt.card_name(c["card"]) in tip if c.get("card") else "face down" in tip
        assert {f"tok-{t}" for t in obs["tokens"]} <= set(ids)
        assert {"pawn-blue", "pawn-orange", "track"} <= set(ids)


def test_what_changed_since_the_last_decision_arrives_animated():
    s = kui_play_state()
    me = s.current_player
    other = 1 - me
    before = s.observation(me)
    after = copy.deepcopy(before)
    after["trick"] = [{"seat": other, "card": "O3", "hidden": False, "destroyed": False}]
    after["pawns"] = [before["pawns"][0], before["pawns"][1] + 2]
    found = []
    svg = kd.board_svg(after, me, places=found, before=before)
    anim = {p["id"]: p["anim"] for p in found if p["anim"]}
    x, y, w, _ = next(p["rect"] for p in found if p["id"] == f"seat{other}")
    fx, fy = anim["t0"]["from"]                                    # slides from its seat
    assert x < fx < x + w and y < fy < y + 112
    assert "from" in anim["pawn-orange"] and "pawn-blue" not in anim
    assert "data-place='t0'" in svg and "data-place='pawn-orange'" in svg
    found = []
    kd.board_svg(after, me, places=found, before=after)           # nothing new: still
    assert not [p for p in found if p["anim"]]


def kui_play_state():
    for s in random_states(2, seed=4, moves=60):
        obs = s.observation(s.current_player)
        if obs["phase"] == "play" and not obs["trick"]:
            return s
    raise AssertionError("no lead in sight")


def test_best_move_mark_names_the_places_the_board_draws():
    ui = kui.KitsuUI()
    s = kui_play_state()
    seat = s.current_player
    obs = s.observation(seat)
    names = {int(a): s.action_to_string(int(a)) for a in s.legal_actions()}
    places, _ = kui.hand_places(obs["hands"][seat], kui.hand_actions(names, False), names)
    ids = {p.id for p in places}
    for a, nm in names.items():
        if " with " not in nm:
            mark = ui.best_move_mark(s, a)       # the card in the hand, and on the table
            i = obs["hands"][seat].index(nm.split()[1])
            assert mark == [f"h{i}-{nm.split()[1]}", f"s{seat}c{i}"] and mark[0] in ids


def test_how_to_play_says_the_goal_a_turn_and_the_end():
    text = kui.KitsuUI().how_to_play()
    assert "**Goal.**" in text and "**A trick.**" in text and "2 rounds" in text
