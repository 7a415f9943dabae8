"""The best move drawn on the board itself (issue 39), as the Analyse page draws it (the
board only, no decision input) and as Play draws it (board and input): every game's suggested
move is ringed where it is (a card of the hand on the table, a token, a seat, a square; for a
decision made with buttons, what it is about: a die or track of a Keyside mat, Nukumi's drawn
resources), and Kyūshū's placement is a ghost of the card, in its orientation, on the squares
it goes to, or turned in the hand when nothing says where it goes (AppTest, no browser)."""
import json
import re

import pytest

pytest.importorskip("streamlit")

from streamlit.testing.v1 import AppTest  # noqa: E402

import boardlab  # noqa: E402
from boardlab.streamlit_app import MAIN_SCRIPT  # noqa: E402
from boardlab.streamlit_app.games import kyushu as kui  # noqa: E402
from boardlab.streamlit_app.games.base import search_line  # noqa: E402
from boardlab.streamlit_app.session import AI, HUMAN  # noqa: E402
from test_board_ids import at_decision  # noqa: E402


def _marked(game, record, action, line, input_too, viewer_you):
    import streamlit as st

    import boardlab
    from boardlab.streamlit_app import board_component as bc
    from boardlab.streamlit_app.games import ui_for
    s = boardlab.replay(record)
    p = s.current_player
    ui = ui_for(game)
    bc.set_viewer_you(viewer_you)
    ui.show_best_move(s, action, line)
    ui.board(s.observation(p), key="an", viewer=p)
    if input_too:
        st.session_state["chosen"] = ui.move_input(s, s.observation(p), key="mv", hint=action)


def draw(state, action, line=(), input_too=False, viewer_you=True):
    at = AppTest.from_function(_marked, args=(state.game.name, json.dumps(state.to_record()),
                                              int(action), list(line), input_too, viewer_you),
                               default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return {el.key: json.loads(el.proto.json) for el in at.get("bidi_component")}, at


def hinted(boards, key_part=""):
    """(board key, place id) of every place ringed as the hint."""
    return [(k, p["id"]) for k, d in boards.items() if key_part in k for p in d["places"]
            if p.get("mark") == "hint"]


def action_named(state, pattern):
    return next(int(a) for a in state.legal_actions()
                if re.fullmatch(pattern, state.action_to_string(int(a))))


def test_kitsu_card_played_is_ringed_in_the_seats_hand_on_the_table():
    s = at_decision("kitsu", 3, lambda s, o: o["phase"] == "play", players=4)
    p = s.current_player
    hand = s.observation(p)["hands"][p]
    a = action_named(s, rf"play {re.escape(hand[-1])}")
    boards, _ = draw(s, a)
    assert hinted(boards) == [("an-kitsu-table", f"s{p}c{hand.index(hand[-1])}")]


def test_kitsu_token_taken_and_leader_chosen_are_ringed():
    s = at_decision("kitsu", 3, lambda s, o: o["phase"] == "token_pick", players=4)
    a = int(s.legal_actions()[-1])
    name = s.action_to_string(a).split()[-1]
    assert ("an-kitsu-table", f"tok-{name}") in hinted(draw(s, a)[0])
    s = at_decision("kitsu", 1, lambda s, o: o["phase"] == "round_leader", players=4)
    a = int(s.legal_actions()[-1])
    seat = re.search(r"P(\d)", s.action_to_string(a)).group(1)
    assert ("an-kitsu-table", f"seat{seat}") in hinted(draw(s, a)[0])


def test_kitsu_an_ai_seat_seen_from_is_not_you():
    s = at_decision("kitsu", 3, lambda s, o: o["phase"] == "play" and len(o["trick"]) > 1,
                    players=4)
    p = s.current_player
    svg = draw(s, int(s.legal_actions()[0]), viewer_you=False)[0]["an-kitsu-table"]["svg"]
    assert "(you)" not in svg and f"P{p} · " in svg and "(view)" in svg
    assert ">you<" not in svg and ">your partner<" not in svg     # the trick's cards' owners
    everything = json.dumps(draw(s, int(s.legal_actions()[0]), viewer_you=False)[0])  # tips
    assert not re.search(r"\((you|your partner)\)|\byou know\b", everything)
    svg = draw(s, int(s.legal_actions()[0]))[0]["an-kitsu-table"]["svg"]
    assert "(you)" in svg


def kyushu_orient(turned: str):
    """A Map phase decision: (state, seat, the action laying its card ``turned`` over the map,
    a placement option of that orientation - the one in the middle of the list)."""
    s = at_decision("kyushu", 5, lambda s, o: o["phase"] == "map" and any(
        s.action_to_string(int(a)).startswith("orient ") for a in s.legal_actions()))
    p = s.current_player
    card = s.observation(p)["selected"][p]
    orient = action_named(s, rf"orient {card} {turned} over")
    after = s.clone()
    after.apply(orient)
    opts = kui.placement_options(after, p, card)
    return s, p, orient, opts[len(opts) // 2]


def ghost_of(svg):
    m = re.search(r"<g class='bl-ghost'.*?</g><rect x='([\d.]+)' y='([\d.]+)' "
                  r"width='([\d.]+)' height='([\d.]+)'", svg)
    assert m, "no ghost drawn"
    return [float(v) for v in m.groups()], re.search(r"<g class='bl-ghost'.*?</g>", svg).group(0)


@pytest.mark.parametrize("turned", ["vertical turned", "horizontal"])
def test_kyushu_oriented_card_is_a_ghost_on_the_squares_the_search_puts_it(turned):
    s, p, orient, o = kyushu_orient(turned)
    boards, _ = draw(s, orient, [o["name"]])
    mine = boards[f"an-kyseat{p}"]
    (x, y, w, h), ghost = ghost_of(mine["svg"])
    # the ghost stands at the option's square, in the orientation's extent, showing its squares
    cell = w / o["width"]
    assert abs(h / cell - o["height"]) < 1e-6
    assert ghost.count("<use ") == len(o["cells"])
    tip = next(q for q in mine["places"] if q["id"] == "ghost")
    assert o["square"] in tip["tip"] and turned in tip["tip"]
    square = next((q for q in mine["places"] if q["id"] == f"c{o['square']}"), None)
    if square is not None:                          # the square is on the map: it is there
        assert abs(square["rect"][0] - x) < 0.2 and abs(square["rect"][1] - y) < 0.2
    # the card of the hand is ringed too, and not drawn turned again there
    assert (f"an-kyhand{p}", f"taken{p}") in hinted(boards)
    assert (f"an-kyhand{p}", f"ghost{p}") not in hinted(boards)


@pytest.mark.parametrize("turned, degrees", [("vertical turned", 270), ("horizontal", 0)])
def test_kyushu_oriented_card_with_no_square_is_a_ghost_turned_in_the_hand(turned, degrees):
    """Without the search's line (a review's row kept before rows had one) nothing says
    where the card goes: no ghost on the map, a ghost of the card turned that way in the
    hand beside the card, both ringed."""
    s, p, orient, _ = kyushu_orient(turned)
    boards, _ = draw(s, orient)
    assert "bl-ghost" not in boards[f"an-kyseat{p}"]["svg"]
    hand = {q["id"]: q for q in boards[f"an-kyhand{p}"]["places"]}
    ghost = hand[f"ghost{p}"]
    assert ghost["mark"] == "hint" and hand[f"taken{p}"]["mark"] == "hint"
    assert "class='bl-ghost'" in ghost["svg"] and f"rotate({degrees})" in ghost["svg"]
    assert turned in ghost["caption"] and turned in ghost["tip"]


def test_kyushu_hint_on_play_turns_the_card_rings_its_square_and_draws_the_ghost():
    s, p, orient, o = kyushu_orient("vertical turned")
    boards, at = draw(s, orient, [o["name"]], input_too=True)
    key = next(k for k in boards if "kymap" in k)
    assert (key, f"p{o['square']}") in hinted(boards)
    ghost_of(boards[key]["svg"])
    assert at.session_state["mv_ky_rot"] == "vertical turned"
    turned = [m.value for m in at.markdown if "bl-ky-turned" in m.value]
    assert turned and "outline:3px solid #7c3aed" in turned[0]
    assert at.button(key="mv_ky_rotate").label == "Rotate ↻"
    at.button(key="mv_ky_rotate").click().run()       # turned away: Rotate leads back to it
    assert at.session_state["mv_ky_rot"] != "vertical turned"
    assert at.button(key="mv_ky_rotate").label == "Rotate ↻ · AI hint"
    turned = [m.value for m in at.markdown if "bl-ky-turned" in m.value]
    assert "outline" not in turned[0] and "bl-ghost" not in "".join(
        d["svg"] for k, d in boards_of(at).items() if "kymap" in k)


def test_search_line_is_the_same_seats_next_moves():
    class R:
        principal_variation = [(0, "orient 9 vertical over"), (0, "place 9 vertical at d4 over"),
                               (1, "orient 3 horizontal over")]
    assert search_line(R()) == ("place 9 vertical at d4 over",)
    assert search_line(object()) == ()


def keyside_at(pattern, seed=2):
    """A Keyside decision with an action whose notation matches ``pattern``, and that action."""
    s = at_decision("keyside", seed, lambda s, o: any(
        re.fullmatch(pattern, s.action_to_string(int(a))) for a in s.legal_actions()))
    return s, action_named(s, pattern)


def test_keyside_boat_sailed_gets_an_arrow_and_the_die_followed_its_harbour():
    s, a = keyside_at(r"lead \w+ \d: boat H\d+ -> H\d+")
    frm, to = re.search(r"boat (H\d+) -> (H\d+)", s.action_to_string(a)).groups()
    boards, _ = draw(s, a)
    island = next(d for k, d in boards.items() if k.endswith("-island"))
    assert island["arrow"] == [frm, to]
    assert any(pid == to for _, pid in hinted(boards))
    s, a = keyside_at(r"follow \w+ \d")
    harbour = s.observation(s.current_player)["task"]["harbour"]
    assert any(pid == f"H{harbour}" for _, pid in hinted(draw(s, a)[0]))
    s, a = keyside_at(r"transfer \d keyples? to the town")
    assert any(pid == "town" for _, pid in hinted(draw(s, a)[0]))


def test_nukumi_event_accepted_is_ringed_on_its_round_card():
    s = at_decision("nukumi", 2, lambda s, o: any(
        s.action_to_string(int(a)).startswith("accept ") for a in s.legal_actions()))
    a = action_named(s, r"accept E-\d\d")
    i = s.observation(s.current_player)["round_cards"].index(s.action_to_string(a).split()[1])
    assert any(pid == f"round:{i}" for _, pid in hinted(draw(s, a)[0]))


def nukumi_at(pattern, seed=2, **params):
    """A Nukumi decision with an action matching ``pattern``, and that action."""
    s = at_decision("nukumi", seed, lambda s, o: any(
        re.fullmatch(pattern, s.action_to_string(int(a))) for a in s.legal_actions()), **params)
    return s, action_named(s, pattern)


@pytest.mark.parametrize("pattern, marked", [
    (r"sell \w+", ["hold:{p}"]),                   # the drawn resources sold (in the town)
    (r"pay [a-z+]+", ["hold:{p}"]),                 # ... or paid
    (r"pay \d coins to move", ["hold:{p}"]),        # its Coins
    (r"stop moving", ["{square}"]),                # the pioneer's square
    (r"pass", ["board:{p}"]),                      # its player board: no more actions
])
def test_nukumi_button_decision_is_ringed_in_the_town(pattern, marked):
    s, a = nukumi_at(pattern)
    p = s.current_player
    square = s.observation(p)["seats"][p]["square"]
    boards, _ = draw(s, a, input_too=True)
    town = [pid for k, pid in hinted(boards) if k.endswith("-town") or k.endswith("-nktown")]
    assert town == [m.format(p=p, square=square) for m in marked]


def test_nukumi_npc_route_gets_an_arrow_and_end_turn_only_its_button():
    s, a = nukumi_at(r"NPC \d route .+", seed=0, players=1, solo="score_attack")
    route = re.fullmatch(r"NPC (\d) route (.+)", s.action_to_string(a))
    start = s.observation(s.current_player)["npcs"][int(route.group(1)) - 1]
    end = route.group(2).split("-")[-1]
    boards, _ = draw(s, a)
    town = next(d for k, d in boards.items() if k.endswith("-nktown"))
    assert [pid for _, pid in hinted(boards)] == [end]
    if start != end:
        assert town["arrow"] == [start, end]
    s, a = nukumi_at("end turn")
    boards, at = draw(s, a, input_too=True)
    assert hinted(boards) == []             # nothing on the board: its button is marked
    assert any(b.proto.type == "primary" for b in at.button if b.label == "End turn")


def mat_rings(at):
    """The parts of the Keyside mats (keyside_draw.mat_id) ringed as the hint, as a desktop
    shows them (the phone's folded copy left out)."""
    mats = next(m.value for m in at.markdown if "ks-mats" in m.value)
    return re.findall(r"class='[^']*\bks-hint\b[^']*' data-mark='([^']+)'",
                      mats.split("ks-phone-mats")[0])


@pytest.mark.parametrize("pattern, parts", [
    (r"\w+ = [1-6]", ["die-{0}"]),                        # a die set in secret
    (r"\w+ \d to mat", ["die-{0}", "track-{0}"]),          # a die onto the mat: its track
    (r"advance \w+", ["track-{1}"]),
    (r"take \w+\+\w+", ["stores"]),
])
def test_keyside_decision_on_the_mat_rings_its_die_track_or_stores(pattern, parts):
    s, a = keyside_at(pattern)
    p, name = s.current_player, s.action_to_string(a)
    words = re.findall(r"\w+", name)
    want = [f"mat{p}-{part.format(*words)}" for part in parts]
    _, at = draw(s, a, input_too=True)
    assert sorted(mat_rings(at)) == sorted(want)


def test_keyside_order_of_a_harbours_actions_rings_that_harbour_and_pass_rings_nothing():
    s, a = keyside_at(r"(?:move|market|skill tile) first")
    tile = s.observation(s.current_player)["task"]["harbour_tile"]
    h = next(hb["indent"] for hb in s.observation(s.current_player)["harbours"]
             if hb["tile"] == tile)
    boards, at = draw(s, a)
    assert [pid for _, pid in hinted(boards)] == [f"H{h}"] and mat_rings(at) == []
    boards, at = draw(s, action_named(s, "pass"), input_too=True)
    assert hinted(boards) == [] and mat_rings(at) == []     # its button alone is marked
    assert any(b.proto.type == "primary" for b in at.button if b.label == "Do neither")


def test_analyse_names_the_seat_to_move_you_only_when_it_is_yours():
    """Analyse, stepping through a finished game of yours (P0) against the AI: the board is
    seen from the seat to move, "(you)" at your decisions, "(view)" at the AI seat's."""
    from test_app import ANALYSE, finished_record
    from boardlab.streamlit_app.session import decision_plies, load_record, state_at
    rec = finished_record()
    rec["app"] = {"seats": [HUMAN, AI], "ai": "Beginner"}
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=60)
    at.run()
    at.file_uploader(key="ng_upload").upload("k.json", json.dumps(rec).encode(),
                                             "application/json").run()
    at.switch_page(ANALYSE).run()
    assert not at.exception, at.exception
    base = load_record(json.dumps(rec).encode())
    plies = decision_plies(base)
    slider = next(s for s in at.slider if s.key and s.key.startswith("an_ply_"))
    seen = set()
    for i, ply in enumerate(plies):
        mover = state_at(base, ply).current_player
        if mover < 0 or mover in seen:
            continue
        seen.add(mover)
        slider.set_value(i).run()
        svg = next(d for k, d in boards_of(at).items() if k.startswith("an_board"))["svg"]
        who = re.search(rf"P{mover} · \w+ +\((you|view)\)", svg)
        assert who and who.group(1) == ("you" if mover == 0 else "view"), (mover, who)
        slider = next(s for s in at.slider if s.key and s.key.startswith("an_ply_"))
    assert seen == {0, 1}


def boards_of(at):
    return {el.key: json.loads(el.proto.json) for el in at.get("bidi_component")}


def test_kyushu_review_row_orienting_the_card_draws_its_ghost_on_its_square():
    """Analyse, a reviewed Kyūshū game at a decision whose better move orients the card:
    the row keeps the search's line, so the card's ghost stands turned on the square the
    search puts it; a row kept without a line turns the ghost in the hand instead."""
    from test_app import ANALYSE
    from boardlab.streamlit_app import common
    from boardlab.streamlit_app.review import Review
    s, p, orient, _ = kyushu_orient("vertical turned")
    played = s.clone()
    played.apply(int(s.legal_actions()[0]))
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=60)
    at.run()
    at.switch_page(ANALYSE).run()
    at.file_uploader(key="an_upload").upload("k.json", json.dumps(played.to_record()).encode(),
                                             "application/json").run()
    an = at.session_state[common.ANALYSIS_KEY]
    job = Review(an["upload_state"], {"iterations": 300})
    i = job.plies.index(len(s.history))
    row = job.analyse(i)
    assert row["ai_move"].startswith("orient ") and row["ai_line"][0].startswith("place ")
    an["review"] = job
    slider = next(x for x in at.slider if x.key and x.key.startswith("an_ply_"))
    slider.set_value(i).run()
    assert not at.exception, at.exception
    boards = boards_of(at)
    (x, y, w, h), _ = ghost_of(boards[f"an_board-kyseat{p}"]["svg"])
    square = row["ai_line"][0].split(" at ")[1].split()[0]
    tip = next(q for q in boards[f"an_board-kyseat{p}"]["places"] if q["id"] == "ghost")
    assert square in tip["tip"] and row["ai_move"].split()[2] in tip["tip"]
    assert f"ghost{p}" not in {q["id"] for q in boards[f"an_board-kyhand{p}"]["places"]}
    del row["ai_line"]                      # a review kept before rows had their line
    at.run()
    boards = boards_of(at)
    assert "bl-ghost" not in boards[f"an_board-kyseat{p}"]["svg"]
    assert f"ghost{p}" in {q["id"] for q in boards[f"an_board-kyhand{p}"]["places"]}


def test_kyushu_hint_names_the_square_the_oriented_card_goes_to():
    from boardlab.streamlit_app.eval_bar import then_text
    from boardlab.streamlit_app.games import ui_for
    s, p, orient, o = kyushu_orient("horizontal")

    class Result:
        best_action = orient
        principal_variation = [(p, s.action_to_string(orient)), (p, o["name"]), (1 - p, "x")]
    assert then_text(s, Result(), ui_for("kyushu")) == \
        f", then Place card {o['name'].split()[1]} horizontal at {o['square']} (over)"
    Result.principal_variation = Result.principal_variation[:1]
    assert then_text(s, Result(), ui_for("kyushu")) == ""


def _late_hint(record, hint):
    import boardlab
    import streamlit as st
    from boardlab.streamlit_app.games import ui_for
    s = boardlab.replay(record)
    p = s.current_player
    ui = ui_for("keyside")
    shown = hint if st.session_state.get("asked") else None      # Hint clicked later
    if shown is not None:
        ui.show_best_move(s, shown)
    ui.board(s.observation(p), key="board", viewer=p)
    ui.move_input(s, s.observation(p), key="mv", hint=shown)


def test_keyside_hint_chooses_its_die_when_another_was_chosen_first():
    s = at_decision("keyside", 2, lambda s, o: len({
        re.match(r"lead (\w+ \d)", s.action_to_string(int(a))).group(1)
        for a in s.legal_actions() if s.action_to_string(int(a)).startswith("lead ")}) > 1)
    names = [s.action_to_string(int(a)) for a in s.legal_actions()]
    at = AppTest.from_function(_late_hint, args=(json.dumps(s.to_record()), 0),
                               default_timeout=60)
    at.run()
    first = at.radio(key="mv_opt").value
    hint = next(int(a) for a, nm in zip(s.legal_actions(), names) if nm.startswith("lead ")
                and not nm.startswith(f"lead {first.lower()}"))
    at = AppTest.from_function(_late_hint, args=(json.dumps(s.to_record()), hint),
                               default_timeout=60)
    at.run()
    assert at.radio(key="mv_opt").value == first
    at.session_state["asked"] = True
    at.run()
    assert not at.exception, at.exception
    die = re.match(r"lead (\w+) (\d)", s.action_to_string(hint))
    assert at.radio(key="mv_opt").value == f"{die.group(1).capitalize()} {die.group(2)}"
    assert any(k.endswith("-island") for k, _ in hinted(boards_of(at)))
