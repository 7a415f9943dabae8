"""Keyside's words and island (streamlit_app/games/keyside_text.py, keyside_draw.py): the tooltip
of every harbour tile, scoring tile, market, headland, farm tile, skill track level, dice strip
and beacon of the data file says what it gives, and follows an edit of the data; every decision
of random games (1-4 players) is named by its effect, not its notation; no two elements of the
island overlap at any seed and player count, each has a tip; the prompt of a keyple moving into
a harbour lights where it comes from; a boat that sailed since the viewer's last decision slides
from its old harbour."""
import copy
import random
import re
from functools import lru_cache

import pytest

pytest.importorskip("streamlit")

import boardlab  # noqa: E402
from boardlab.streamlit_app.games import keyside as kui  # noqa: E402
from boardlab.streamlit_app.games import keyside_draw as kd  # noqa: E402
from boardlab.streamlit_app.games import keyside_text as kt  # noqa: E402

DATA = kt.game_data()


def test_every_harbour_tile_tip_spells_its_tiers():
    tiers = DATA["harbour_benefits"]["tiers"]
    for letter, text in DATA["harbour_benefits"]["tiles"].items():
        tip = kt.harbour_tip(letter)
        assert f"Harbour tile {letter} ({kt.HARBOUR_NAME[letter]})" in tip
        assert "everyone with a keyple there gains" in tip
        amounts = re.search(r"\b\d+(?:\s*/\s*\d+)+\b", text)
        if amounts:
            first = amounts.group(0).split("/")[0].strip()
            assert f"{first} for dice totalling {tiers[0]}" in tip, tip
            assert " / " not in tip
    assert "2 for dice totalling 1-2, 1 for dice totalling 3-5, 3 for dice totalling 6+" \
        in kt.harbour_tip("C")
    assert "Its dice total 4 now: the 3-5 amount" in kt.harbour_tip("C", 4)
    assert [kt.tier_of(t) for t in (1, 2, 3, 5, 6, 11)] == [0, 0, 1, 1, 2, 2]


def test_a_harbour_tip_follows_an_edit_of_the_data():
    data = copy.deepcopy(DATA)
    data["harbour_benefits"]["tiles"]["C"] = "wood 4 / 5 / 6"
    assert "4 for dice totalling 1-2, 5 for dice totalling 3-5" in kt.harbour_tip("C", data=data)
    assert "4 for dice" not in kt.harbour_tip("C")
    assert "not in the game's data" in kt.harbour_tip("Z")


def test_every_scoring_tile_market_headland_and_track_level_has_its_words():
    for side in ("black", "red"):
        for number, row in enumerate(DATA["scoring_tiles"][side], 1):
            tip = kt.scoring_tip(number, side == "red")
            assert f"Scoring tile {number} ({side}): {kt.arrows(row)}" in tip
            assert "each of your keyples in this harbour" in tip
    for mk in DATA["markets"]:
        tip = kt.market_tip(mk["tile"], "top")
        assert kt.arrows(mk["top"]) in tip and "->" not in tip
        if "reverse" in mk:
            assert kt.arrows(mk["reverse"]) in tip and "flips" in tip
            assert kt.arrows(mk["reverse"]) in kt.market_tip(mk["tile"], "reverse").split("other side")[0]
    for tile in "ABCDEF":
        name, _, effect = DATA["headlands"][tile].partition(": ")
        assert f"Headland {tile}, the {name}: {effect}" in kt.headland_tip(tile)
    for colour, rows in DATA["skill_tracks"].items():
        if colour not in DATA["colours"]:
            continue
        tip = kt.track_tip(colour, 1)
        for level in range(1, len(rows) + 1):
            assert f"level {level}: {kt.level_text(colour, level)}" in tip
        assert " | " not in tip and "L " not in tip.split(".")[1][:3]
    assert kt.level_text("red", 1, "left") == "2 keyples from your mat to the town"
    assert kt.level_text("red", 1, "right") == "move 1 or 2 keyples"


def test_farm_strip_and_beacon_tips_come_from_the_data():
    for tile in DATA["farm_tiles"]["tiles"]:
        for side in "ab":
            tip = kt.farm_tip(tile["farm"], side, tile[side])
            for i, res in enumerate(tile[side]):
                assert f"icon {i + 1} {res}" in tip
    for strip in DATA["dice_strips"]["strips"]:
        for side in ("light", "deep"):
            want = ", ".join(f"{c} {v}" for c, v in zip(DATA["colours"], strip[side]))
            assert kt.strip_text(strip["strip"], side) == want
    for beacon, cond in DATA["solo"]["beacons"].items():
        assert cond.replace(">=", "at least") in kt.beacon_tip(beacon, False)
    data = copy.deepcopy(DATA)
    data["markets"][0]["top"] = "1 fish -> 3 cows"
    assert "1 fish → 3 cows" in kt.market_tip("blue", data=data)
    data["dice_strips"]["strips"][0]["light"] = [6, 5, 4, 3, 2, 1]
    assert kt.strip_text(1, "light", data).startswith("yellow 6, green 5")


def _play(players: int, seed: int, **params):
    """Random legal play: (observation of the mover, notation of each legal decision)."""
    state = boardlab.make("keyside", players=players, **params).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = [int(a) for a in state.legal_actions()]
        if not state.is_chance():
            yield state, [state.action_to_string(a) for a in legal]
        state.apply(rng.choice(legal))


@lru_cache(maxsize=1)
def _games():
    out = []
    for players in (1, 2, 3, 4):
        for seed in (1, 2):
            params = {"dice_strips": True} if seed == 2 else {}
            if players == 1 and seed == 2:
                params.update(solo_pirates=True, solo_landslide=True, solo_keytoma_keyple=True)
            out.append((players, seed, [(s.observation(s.current_player), names, s.clone())
                                        for s, names in _play(players, seed, **params)]))
    return out


NOTATION = re.compile(r"->|\w\|\w|^(?:lead|follow|resolve|activate|build cottage|advance) |^\w+ = \d$"
                      r"|^\w+ \d (?:left|right)$|^pass$")


def test_every_decision_is_named_by_its_effect():
    seen = set()
    for _, _, steps in _games():
        for obs, names, _ in steps:
            for name in names:
                label = kt.decision_label(name, obs)
                assert not NOTATION.search(label), (name, label)
                pattern = re.sub(r"\d+", "#", name)
                if pattern not in seen:
                    seen.add(pattern)
                    tip = kt.decision_tip(name, obs)
                    assert tip and tip != label, (name, tip)
    assert len(seen) > 100


def test_the_new_decisions_are_named_in_words():
    obs = {"players": 2, "current_player": 0, "task": {"kind": "pay_animal", "animal": "pig"},
           "seats": [{"tracks": {}, "strip": 3}]}
    assert kt.decision_label("pay pig from the barn", obs) == "Give the pig from your barn"
    assert kt.decision_label("pay pig from farm 1 icon 1 (wheat)", obs) == "Give the pig on farm 1's wheat icon"
    assert kt.decision_label("transfer 2 keyples to the town", obs) == "2 keyples from your mat to the town"
    assert kt.decision_label("exchange cow on farm 3 icon 4 -> pig", obs) \
        == "Exchange the cow on farm 3 (icon 4) for a pig"
    assert kt.decision_label("dice strip deep side", obs) == "Strip: deep side"
    assert kt.strip_text(3, "deep") in kt.decision_tip("dice strip deep side", obs)
    assert "the others" not in kt.decision_tip("yellow = 3", {**obs, "players": 1})
    assert kt.decision_label("lead yellow 1: boat H4 -> H3", obs) == "Yellow 1: sail the boat H4 → H3"
    assert kt.decision_label("red 1 left", {**obs, "task": {"kind": "level"}}) \
        == "Red 1 left: 2 keyples from your mat to the town"
    assert kt.decision_label("pass", {**obs, "task": {"kind": "follow"}}) == "Don't follow"


def _overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def test_no_two_island_elements_overlap_at_any_seed_and_player_count():
    checked = 0
    for players, seed, steps in _games():
        for k, (obs, _, _) in enumerate(steps):
            if k % 25:
                continue
            places = []
            kd.island_svg(obs, obs["viewer"], places=places)
            ids = [p["id"] for p in places]
            assert len(set(ids)) == len(ids)
            for i, p in enumerate(places):
                x, y, w, h = p["rect"]
                assert 0 <= x and 0 <= y and x + w <= kd.SIZE and y + h <= kd.SIZE, p
                assert p["tip"], p
                for q in places[i + 1:]:
                    assert not _overlap(p["rect"], q["rect"]), (players, seed, p["id"], q["id"])
            checked += 1
    assert checked > 40


def test_boxes_clear_of_each_other_for_every_harbour():
    """The fixed geometry: every boat position is clear of every harbour, market, resource and
    headland box (the boats at H4 and H10 no longer cover the dice spaces)."""
    boxes = ([kd.location_rect(f"{k}{i}") for k, n in (("H", 12), ("M", 8), ("R", 8)) for i in range(1, n + 1)]
             + [kd.headland_rect(s) for s in range(12)] + [kd.town_rect()])
    for h in range(12):
        assert not any(_overlap(kd.boat_rect(h), b) for b in boxes), h
    for i, a in enumerate(boxes):
        assert not any(_overlap(a, b) for b in boxes[i + 1:])


def test_a_keyple_moving_into_the_harbour_is_clicked_where_it_comes_from():
    found = 0
    for _, _, steps in _games():
        for obs, names, _ in steps:
            if (obs.get("task") or {}).get("kind") != "keyple_in":
                continue
            h = f"H{obs['task']['harbour']}"
            assert "click the lit place it comes from" in kui.prompt(obs) and h in kui.prompt(obs)
            for name in names:
                choice = kui.island_choice(name, obs)
                if choice:
                    src = re.fullmatch(r"move keyple (\w+)>.*", name).group(1)
                    assert choice == (f"A keyple into {h}", src)
                    found += 1
    assert found


def test_solo_prompts_name_no_others():
    obs = {"players": 1, "phase": "dice", "task": None}
    assert "secret" not in kui.prompt(obs) and "others" not in kui.prompt(obs)
    assert "secret" in kui.prompt({**obs, "players": 2})


def test_the_dice_prompt_names_the_die_being_set():
    obs = {"players": 2, "phase": "dice", "task": None}
    assert kui.prompt(obs, ["blue = 1", "blue = 4"]).startswith("**Set your blue die in secret")


def test_a_boat_that_sailed_slides_from_its_old_harbour_and_a_new_die_flashes():
    for _, _, steps in _games():
        for (obs, names, state), (after, _, _) in zip(steps, steps[1:]):
            lead = next((n for n in names if n.startswith("lead")), None)
            if not lead or obs["viewer"] != after["viewer"]:
                continue
            st = state.clone()
            st.apply_string(lead)
            new = st.observation(obs["viewer"])
            places = []
            kd.island_svg(new, obs["viewer"], places=places, before=obs)
            m = re.match(r"lead \w+ \d: boat H(\d+) -> H(\d+)", lead)
            boat = next(p for p in places if p["id"].startswith("boat") and p["label"].endswith(f"H{m.group(2)}"))
            assert boat["anim"] == {"from": list(kd.boat_centre(int(m.group(1)) - 1))}
            harbour = next(p for p in places if p["id"] == f"H{m.group(2)}")
            assert harbour["anim"] == {"kind": "flash"}
            still = [p for p in places if p["id"].startswith("M") and p["anim"]]
            assert not still
            return
    pytest.fail("no lead found")


def test_the_log_reads_in_words_and_keeps_the_secret_dice_secret():
    ui = kui.KeysideUI()
    seen = set()
    for players, _, steps in _games():
        if players != 2:
            continue
        for obs, names, state in steps:
            actor = state.current_player
            other = 1 - actor
            for a in state.legal_actions():
                name = state.action_to_string(int(a))
                if name.startswith("lead") and "lead" not in seen:
                    seen.add("lead")
                    text = ui.log_text(state, int(a), actor, other)
                    assert re.fullmatch(rf"P{actor} leads with the \w+ \d to sail the boat H\d+ → H\d+",
                                        text), text
                if re.fullmatch(r"\w+ = \d", name) and "dice" not in seen:
                    seen.add("dice")
                    text = ui.log_text(state, int(a), actor, other)
                    assert not re.search(r"\d", text.replace(f"P{actor}", ""))
                    colour, value = name.split(" = ")
                    assert ui.log_text(state, int(a), actor, actor) == \
                        f"P{actor} sets the {colour} die to {value}"
        break
    assert seen == {"lead", "dice"}


def test_how_to_play_and_the_best_move_marks():
    ui = kui.KeysideUI()
    text = ui.how_to_play()
    for part in ("**Goal.**", "**A year.**", "**How it ends.**", "scoring tile", "Keytoma"):
        assert part in text
    marked = set()
    for _, _, steps in _games():
        for obs, names, state in steps:
            for a in state.legal_actions():
                name = state.action_to_string(int(a))
                mark = ui.best_move_mark(state, int(a))
                if name.startswith("lead") and "lead" not in marked:
                    assert mark == [re.search(r"-> (H\d+)", name).group(1)]
                    marked.add("lead")
                elif obs["task"] and obs["task"]["kind"] == "keyple_in" and name != "pass" \
                        and "in" not in marked:
                    assert mark == [re.match(r"move keyple (\w+)>", name).group(1)]
                    assert ui.best_move_arrow(state, int(a)) == (mark[0], f"H{obs['task']['harbour']}")
                    marked.add("in")
                elif name == "pass":
                    assert mark == []
        if marked == {"lead", "in"}:
            return
    pytest.fail(f"only {marked}")
