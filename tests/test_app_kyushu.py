"""Kyūshū in the browser app, through streamlit.testing.v1.AppTest (no browser): new game,
a placement with preview and confirm, the AI's reply, undo, save/load, hidden Map turns,
the game-over screen, and the SVG drawings on their own."""
import json
import re

import numpy as np
import pytest

pytest.importorskip("streamlit")
pytest.importorskip("plotly")

from streamlit.testing.v1 import AppTest  # noqa: E402
from streamlit.testing.v1.element_tree import Block  # noqa: E402

import boardlab  # noqa: E402
from boardlab.streamlit_app import MAIN_SCRIPT  # noqa: E402
from boardlab.streamlit_app.games import kyushu as kui  # noqa: E402
from boardlab.streamlit_app.games import kyushu_draw  # noqa: E402
from boardlab.streamlit_app.games import kyushu_text as kt  # noqa: E402
from boardlab.streamlit_app.games import ui_for  # noqa: E402
from boardlab.streamlit_app.session import AI, HUMAN, PlaySession, actors  # noqa: E402
from board_clicks import (board_data, boards, click_place, legal_places, new_app,  # noqa: E402
                          run_ui)

TIMEOUT = 60


def app():
    return new_app(TIMEOUT)


def start(at, seed=7, players=2, human=0, most_fewest=False, travelers=False, side="A",
          forced=True):
    at.selectbox(key="ng_game").set_value("kyushu").run()
    at.toggle(key="ng_forced").set_value(forced)
    at.selectbox(key="ng_ky_players").set_value(players)
    at.radio(key="ng_ky_side").set_value(side)
    at.checkbox(key="ng_ky_mf").check() if most_fewest else None
    at.checkbox(key="ng_ky_trav").check() if travelers else None
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


def svgs(at):
    """Every SVG on the page, in page order: markdown pictures, boards and their pieces."""
    out = []
    for node, _ in _chains(at._tree):
        data = json.loads(node.proto.json) if getattr(node, "type", "") == "bidi_component" else None
        if isinstance(data, dict):                      # a board (not another component)
            out += [data["svg"]] if data.get("svg") else []
            out += [p["svg"] for p in data["places"] if p.get("svg")]
        elif getattr(node, "type", "") == "markdown" and node.value.startswith("<svg"):
            out.append(node.value)
    return out


def page_texts(at):
    """The markdown texts and board SVGs of the page, in page order."""
    out = []
    for node, _ in _chains(at._tree):
        data = json.loads(node.proto.json) if getattr(node, "type", "") == "bidi_component" else None
        if isinstance(data, dict):
            out.append(data.get("svg") or "")
        elif getattr(node, "type", "") == "markdown":
            out.append(node.value)
    return out


def words(state) -> dict:
    """What the UI calls each legal decision (button text, place label) -> the action."""
    out = {}
    for a in state.legal_actions():
        nm = state.action_to_string(int(a))
        out[kt.decision_label(nm)] = int(a)
        out[kui.traveler_label(nm)] = int(a)
        out[kt.box_choice_label(nm)] = int(a)
    return out


def phase(at):
    sess = at.session_state["bl_play"]
    p = sess.state.current_player
    return sess.state.observation(p)["phase"] if p >= 0 else None


def advance_to_map_phase(at, limit=40, until=("map",)):
    """Click the first offered decision (a button, else a lit square of the map) until the
    human seat has to place a card."""
    for _ in range(limit):
        if phase(at) in until:
            return at.session_state["bl_play"]
        one_step(at)
    raise AssertionError(f"never reached {until}")


def one_step(at):
    buttons = decisions(at)
    legal = set(words(at.session_state["bl_play"].state))
    assert {b.label for b in buttons} <= legal               # only legal choices
    assert all(b.proto.help for b in buttons)                # each with its tooltip
    squares = legal_places(at, "-kysq") if boards(at, "-kysq") else []
    assert {p["label"] for p in squares} <= legal
    cards = legal_places(at, "_act_cards") if boards(at, "_act_cards") else []
    assert {p["label"] for p in cards} <= legal
    if squares:
        click_place(at, "-kysq", squares[0]["id"])
    elif cards:
        click_place(at, "_act_cards", cards[0]["id"])
    else:
        assert buttons, f"no decision offered in phase {phase(at)}"
        buttons[0].click().run()
    assert not at.exception, at.exception


def test_new_game_form_has_the_options():
    at = app()
    at.selectbox(key="ng_game").set_value("kyushu").run()
    assert at.selectbox(key="ng_ky_players").options == ["2", "3", "4", "5"]
    sess = start(at, players=3, most_fewest=True, travelers=True, side="B")
    assert sess.game.params == {"players": 3, "side": "B", "most_fewest": True, "travelers": True}
    assert sess.seats == [HUMAN, AI, AI]
    text = "\n".join(svgs(at))
    assert "PICK BOXES" in text and "Round" in text or "Setup" in text
    assert any("Most/Fewest cards" in m.value for m in at.markdown)
    assert len(at.table) == 1 and list(at.table[0].value.index)[:1] == ["P0 (you)"]


def orient_actions(state):
    return {state.action_to_string(int(a)): int(a) for a in state.legal_actions()
            if state.action_to_string(int(a)).startswith("orient ")}


def positions_of(state, orient):
    """The squares (top-left) of the legal positions after ``orient``, from the engine."""
    clone = state.clone()
    clone.apply(orient)
    return {re.search(r" at ([a-z]+\d+) ", clone.action_to_string(int(a))).group(1): int(a)
            for a in clone.legal_actions()
            if clone.action_to_string(int(a)).startswith("place ")}


def test_placement_by_clicking_the_map_rotate_ai_reply_and_undo():
    at = app()
    sess = start(at, seed=7)
    sess = advance_to_map_phase(at)
    state = sess.state
    n_before = len(state.history)
    card = state.observation(0)["selected"][0]
    orients = orient_actions(state)
    first = orients[f"orient {card} horizontal over"]
    # the map's lit squares are exactly the legal positions of the orientation shown
    data = board_data(at, f"mv{n_before}-kymap-{first}")
    lit = [p for p in data["places"] if p["legal"]]
    assert {p["id"][1:] for p in lit} == set(positions_of(state, first))
    assert all(p["preview"] and "<use href=" in p["preview"] for p in lit)
    assert all(re.search(r"[+-]\d+ points", p["note"]) for p in lit)
    assert all(p["tip"] for p in data["places"])                  # lit or not, each explained
    assert f"place card {card}" in data["svg"]
    # Rotate: a quarter turn clockwise; the lit squares follow
    at.button(key=f"mv{n_before}_ky_rotate").click().run()
    assert not at.exception, at.exception
    turned = orients[f"orient {card} vertical over"]
    assert not boards(at, f"-kymap-{first}")
    data = board_data(at, f"mv{n_before}-kymap-{turned}")
    squares = positions_of(state, turned)
    assert {p["id"][1:] for p in data["places"] if p["legal"]} == set(squares)
    assert not at.session_state["bl_play"].state.history[n_before:]   # nothing applied yet
    target = sorted(squares)[-1]
    click_place(at, "-kymap-", f"p{target}")
    assert not at.exception, at.exception
    sess = at.session_state["bl_play"]
    hist = sess.state.history
    assert hist[n_before:n_before + 2] == [turned, squares[target]]
    ended = phase(at) == "map_after"
    if ended:                                           # terraforming is possible: decline
        [b for b in decisions(at) if b.label == "End your Map turn"][0].click().run()
        sess = at.session_state["bl_play"]
    who = actors(sess.state)
    assert 1 in who[n_before + 2:]                      # the AI replied (its own Map turn)
    log = at.text[0].value
    assert f"P0 places card {card} vertical at {target} (" in log
    # undo takes back the whole placement (orientation and position together)
    if ended:
        at.button(key="play_undo").click().run()
        assert at.session_state["bl_play"].state.history == hist[:n_before + 2]
    at.button(key="play_undo").click().run()
    assert not at.exception
    sess = at.session_state["bl_play"]
    assert sess.state.history == state.history
    assert phase(at) == "map"


def test_layer_choice_and_the_decision_in_the_input_area():
    at = app()
    sess = start(at, seed=7)
    sess = advance_to_map_phase(at)
    state = sess.state
    n = len(state.history)
    card = state.observation(0)["selected"][0]
    orients = orient_actions(state)
    layer = at.radio(key=f"mv{n}_ky_layer")
    assert layer.value == "over"
    if "under" in layer.options:
        layer.set_value("under").run()
        assert not at.exception, at.exception
        under = orients[f"orient {card} horizontal under"]
        data = board_data(at, f"-kymap-{under}")
        lit = [p for p in data["places"] if p["legal"]]
        assert {p["id"][1:] for p in lit} == set(positions_of(state, under))
        assert all("stroke-dasharray" in p["preview"] for p in lit)
    # the decision (layer, Rotate) is drawn in the page's input area (the page puts it
    # beside the board), the map it places on in the board's area
    chains = list(_chains(at._tree))
    map_chain = next(ch for node, ch in chains if getattr(node, "type", "") ==
                     "bidi_component" and "-kymap-" in node.key)
    rotate_chain = next(ch for node, ch in chains if getattr(node, "type", "") == "button"
                        and node.key and node.key.endswith("_ky_rotate"))
    assert "play_board" in {b.key for b in map_chain} - {b.key for b in rotate_chain}
    assert "play_input" in {b.key for b in rotate_chain} - {b.key for b in map_chain}


def _part_of(node, chain):
    """The index of the part of the board (a child of ``play_parts``) an element is in: 0 is
    the board's first element, the one a phone shows before the decision panel."""
    i = next(i for i, b in enumerate(chain) if b.key == "play_parts")
    return list(chain[i].children.values()).index(chain[i - 1] if i else node)


def test_a_decision_on_my_map_puts_the_map_in_the_boards_first_element():
    """A phone shows the board's first element, then the decision panel, then the rest: a
    placement (clicked on the viewer's map) has that map and the hand in the first element,
    with the table; a choice in the panel (the Starting Province) leaves the map after it."""
    at = app()
    start(at, seed=7, forced=False)     # P0 picks its Province last: one left, a forced move
    chains = list(_chains(at._tree))

    def part(fragment):
        return _part_of(*next((node, ch) for node, ch in chains if getattr(node, "type", "")
                              == "bidi_component" and fragment in node.key))
    assert phase(at) == "province" and part("-kytable") == 0 and part("-kyseat0") > 0
    advance_to_map_phase(at)
    chains = list(_chains(at._tree))
    assert part("-kytable") == 0 and part("-kymap-") == 0 and part("-kyhand0") == 0


def _chains(node, above=()):
    """(element, [its enclosing blocks, innermost first]) for every element of the tree."""
    for child in node.children.values():
        if isinstance(child, Block):
            yield from _chains(child, (child,) + above)
        else:
            yield child, list(above)



def test_hidden_map_turn_of_the_other_seat():
    """Seat 1 is human: seat 0 (AI) places first, and its card stays off seat 0's map on
    seat 1's screen, and out of the log, until seat 1 has placed too."""
    at = app()
    start(at, seed=3, human=1)
    sess = advance_to_map_phase(at)
    state = sess.state
    assert state.current_player == 1
    full = state.full_observation()
    mine = state.observation(1)
    assert len(full["maps"][0]["cards"]) == len(mine["maps"][0]["cards"]) + 1   # P0 placed
    hidden_card = next(c["card"] for c in full["maps"][0]["cards"]
                       if c["card"] not in {x["card"] for x in mine["maps"][0]["cards"]})
    p0_map = next(v for v in svgs(at) if "aria-label='P0" in v)
    assert f">{hidden_card}<" not in p0_map
    assert p0_map == kui.map_svg(kui.seat_map(mine, 0), title=re.search(
        r"aria-label='([^']*)'", p0_map).group(1), title_colour=kui.SEAT_COLOURS[0],
        cell=kui.cell_size(mine["maps"][0]))
    log = at.text[0].value
    assert "P0 takes their Map turn" in log and "P0 place" not in log
    assert any("hidden until everyone has placed" in c.value for c in at.caption)
    # the other hand is face down
    assert "cards face down" in "".join(svgs(at))


def test_save_and_load_a_kyushu_game():
    at = app()
    start(at, seed=11)
    advance_to_map_phase(at)
    sess = at.session_state["bl_play"]
    data = sess.record_json().encode()
    assert json.loads(data)["game"] == "kyushu"
    other = app()
    other.file_uploader(key="ng_upload").upload("k.json", data, "application/json").run()
    assert not other.exception, other.exception
    loaded = other.session_state["bl_play"]
    assert loaded.state == sess.state and loaded.seats == sess.seats
    assert other.radio(key=f"mv{len(loaded.state.history)}_ky_layer")      # back at the placement
    assert boards(other, f"mv{len(loaded.state.history)}-kymap-")


def finished_record(seed=5, players=2):
    game = boardlab.make("kyushu", players=players, most_fewest=True, travelers=True)
    s = game.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    while not s.is_terminal():
        if s.is_chance():
            o = s.chance_outcomes()
            s.apply(o[rng.integers(len(o))][0])
        else:
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
    return s


def test_game_over_screen_with_final_breakdown():
    s = finished_record()
    at = app()
    at.file_uploader(key="ng_upload").upload("done.json", json.dumps(s.to_record()).encode(),
                                              "application/json").run()
    assert not at.exception, at.exception
    assert any(re.search(r"Game over: (P\d wins with \d+ points|.*tie|.*share)", x.value)
               for x in at.success)
    assert any("Final scores" in m.value for m in at.markdown)
    table = at.table[0].value
    final = s.full_observation()["scores"]
    assert list(table["Total"]) == [sc["total"] for sc in final]
    assert list(table["Forests"]) == [sc["forests"] for sc in final]
    assert {"Hot springs", "Towns", "Lakes", "Factories", "Travelers", "Most/Fewest"} <= set(table.columns)


def test_let_the_ai_finish():
    at = app()
    start(at, seed=2)
    at.button(key="play_ai_finish").click().run(timeout=120)
    assert not at.exception, at.exception
    sess = at.session_state["bl_play"]
    assert sess.state.is_terminal() and sess.seats == [HUMAN, AI]     # the seats are kept
    assert any("Game over" in x.value for x in at.success)
    assert not at.button(key="play_undo").disabled


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_phase_offers_only_legal_choices(players):
    """Random games through PlaySession: the UI's input for each human decision names only
    legal actions (checked on the notation the buttons carry)."""
    game = boardlab.make("kyushu", players=players, travelers=True, most_fewest=True)
    sess = PlaySession(game=game, seats=[AI] * players, preset="Beginner", seed=players)
    rng = np.random.default_rng(players)
    seen = set()
    while not sess.state.is_terminal():
        p = sess.state.current_player
        seen.add(sess.state.observation(p)["phase"])
        legal = sess.state.legal_actions()
        sess.state.apply(int(legal[rng.integers(len(legal))]))
        sess.advance_chance()
    assert {"province", "first_box", "select", "replace", "map", "position"} <= seen
    obs = sess.state.full_observation()
    for seat in range(players):
        svg = kui.map_svg(kui.seat_map(obs, seat), title=f"P{seat}")
        assert svg.startswith("<svg") and svg.count("<rect") >= 6
    assert "PICK BOXES" in kui.table_svg(obs)


def test_card_drawings_and_square_names():
    assert kui.parse_square("c4") == (3, 2) and kui.parse_square("ab17") == (16, 27)
    assert kui.col_name(kui.parse_square("ae9")[1]) == "ae"
    squares, duals = kyushu_draw.card_face(5)
    assert len(squares) == 6 and duals == [(2, 5)]
    svg = kui.card_svg(5)
    assert "No. 5" in svg and svg.startswith("<svg")
    assert "Province 3" in kui.card_svg("S3A")
    assert ui_for("kyushu").title == "Kyūshū"


def test_paying_a_resource_is_clicked_on_the_map():
    at = app()
    start(at, seed=7)
    advance_to_map_phase(at, until=("select",))
    sess = at.session_state["bl_play"]
    pay = [b for b in decisions(at) if b.label == "Pay a resource to take it"]
    assert pay, "no paid take offered"
    pay[0].click().run()
    assert not at.exception, at.exception
    assert phase(at) == "pay"
    state = at.session_state["bl_play"].state
    n = len(state.history)
    legal = {state.action_to_string(int(a)): int(a) for a in state.legal_actions()}
    places = legal_places(at, f"mv{n}-kysq")
    said = {kt.decision_label(nm): a for nm, a in legal.items()}   # "Pay the blue resource at p16"
    assert {p["label"] for p in places} == set(said)            # every choice is a square
    assert {p["id"][1:] for p in places} == {nm.split(" at ")[1] for nm in legal}
    choice = places[-1]
    click_place(at, "-kysq", choice["id"])
    assert not at.exception, at.exception
    assert at.session_state["bl_play"].state.history[n] == said[choice["label"]]
    del sess


def map_state(seed=7, players=2):
    game = boardlab.make("kyushu", players=players, travelers=True)
    s = game.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        if s.is_chance():
            o = s.chance_outcomes()
            s.apply(o[rng.integers(len(o))][0])
            continue
        if s.observation(s.current_player)["phase"] == "map" and s.observation(0)["round"] >= 3:
            return s
        legal = s.legal_actions()
        s.apply(int(legal[rng.integers(len(legal))]))


def test_placement_previews_match_the_engine():
    s = map_state()
    seat = s.current_player
    card = s.observation(seat)["selected"][seat]
    for name, orient in orient_actions(s).items():
        base = s.clone()
        base.apply(orient)
        options = kui.placement_options(base, seat, card)
        assert {o["action"] for o in options} == set(positions_of(s, orient).values())
        for o in options:
            assert (o["row"], o["col"]) == kui.parse_square(o["square"])
            rows = {r for r, _, _ in o["cells"]}
            cols = {c for _, c, _ in o["cells"]}
            assert rows <= set(range(o["row"], o["row"] + o["height"]))
            assert cols <= set(range(o["col"], o["col"] + o["width"]))
            if name.endswith(" over"):          # over: all six squares in view
                assert sorted(sq for _, _, sq in o["cells"]) == list(range(6))
            else:                               # under: some hidden, some in view
                assert 0 < len(o["cells"]) < 6
        svg, places, actions = kui.placement_board(s.observation(seat), seat, card, options)
        assert set(actions.values()) == {o["action"] for o in options}
        lit = [p for p in places if p.legal]
        assert len(lit) == len(options)
        for o, p in zip(options, lit):          # the preview draws the squares left in view
            assert p.preview.count("<use href='#kyp") == len(o["cells"])
            assert p.rect[2] == p.rect[3] and p.id == f"p{o['square']}"


def test_hint_sets_the_orientation_and_rings_its_buttons():
    s = map_state()
    orients = orient_actions(s)
    card = s.observation(s.current_player)["selected"][s.current_player]
    hint = orients.get(f"orient {card} vertical under") or orients[f"orient {card} vertical over"]

    at = run_ui(s, ["input"], hint=hint)
    layer = s.action_to_string(hint).split()[-1]
    assert at.radio(key="t_ky_layer").value == layer
    assert any(c.value.startswith(f"vertical · {layer} · the AI's hint") for c in at.caption)
    assert boards(at, f"t-kymap-{hint}")


def test_traveler_buttons_say_what_they_do_and_tell_apart():
    assert kui.traveler_label("traveler to P1 with grey from o17") == \
        ":gray[●] Send a traveler to P1 with the grey resource from o17"
    assert kui.traveler_label("traveler to P2 with brown from p3") == \
        ":orange[●] Send a traveler to P2 with the brown resource from p3"
    assert kui.traveler_label("traveler on P1's hot spring at q15") == \
        "Put the traveler on P1's hot spring at q15"
    assert kui.traveler_label("no traveler to P1") == "Send no traveler to P1"


def test_cards_placed_since_the_last_decision_are_ringed():
    s = map_state()
    obs = s.full_observation()
    seat = 1 - s.current_player
    placed = [c["card"] for c in obs["maps"][seat]["cards"] if not str(c["card"]).startswith("S")]
    assert placed
    recent = [(seat, f"place {placed[-1]} horizontal at c4 over"), (seat, "end turn")]
    assert kui.recent_cards(recent) == {seat: {str(placed[-1])}}
    m = kui.seat_map(obs, seat)
    assert "placed since your last decision" not in kui.map_svg(m)
    assert kui.map_svg(m, rings=kui.recent_cards(recent)[seat]).count(
        "placed since your last decision") == 1


def test_placement_input_drawn_before_the_board_brings_the_map_once():
    """A page may draw the decision before the board: the input then draws the mover's map
    (clickable) itself, and the board leaves that map out."""
    s = map_state()
    me = s.current_player
    layout = []
    for steps in (["input", "board"], ["board", "input"]):
        at = run_ui(s, steps)
        assert len(boards(at, "t-kymap-")) == 1
        own = [v for v in svgs(at) if f"aria-label='P{me} (you)" in v]
        assert len(own) == 1                             # drawn once: as the clickable map
        others = [v for v in svgs(at) if f"aria-label='P{1 - me}" in v]
        assert len(others) == 1
        assert at.radio(key="t_ky_layer") and at.button(key="t_ky_rotate")
        # on screen in either order: the board's table, the other map and the scores, then
        # the decision in the input's place (the page puts it beside the board)
        texts = page_texts(at)
        order = [next(i for i, t in enumerate(texts) if "PICK BOXES" in t),
                 next(i for i, t in enumerate(texts) if f"aria-label='P{1 - me}" in t),
                 next(i for i, t in enumerate(texts) if t.startswith("**Score so far")),
                 next(i for i, t in enumerate(texts) if t.startswith("**Map phase:**"))]
        layout.append(order)
    assert layout[0] == sorted(layout[0]) and layout[1] == sorted(layout[1])


def test_changes_ring_the_maps_placed_since():
    s = map_state()
    me = s.current_player
    obs = s.observation(me)
    other = 1 - me
    placed = [c["card"] for c in obs["maps"][other]["cards"] if not str(c["card"]).startswith("S")]

    def script(obs, me, lines):
        from types import SimpleNamespace
        from boardlab.streamlit_app.games import kyushu as kui
        kui.KyushuUI().board(obs, viewer=me, changes=SimpleNamespace(lines=lines))

    at = AppTest.from_function(script, args=(obs, me, [
        f"P{other} placed {placed[-1]} horizontal at c4 over"]), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, at.exception
    theirs = next(v for v in svgs(at) if f"aria-label='P{other}" in v)
    assert theirs.count("placed since your last decision") == 1


def test_cards_to_choose_are_clicked():
    """Starting Province, the card for the pick box, the replacement: the cards themselves
    are clicked (a row of pieces), one per legal choice."""
    at = app()
    start(at, seed=5, forced=False)     # a forced Province would play itself
    seen = set()
    for _ in range(12):
        if phase(at) == "select":
            break
        state = at.session_state["bl_play"].state
        n = len(state.history)
        legal = {state.action_to_string(int(a)): int(a) for a in state.legal_actions()}
        data = board_data(at, f"mv{n}_act_cards")
        said = {kt.decision_label(nm): a for nm, a in legal.items()}
        assert {p["label"] for p in data["places"]} == set(said)
        assert all(p["svg"].startswith("<svg") and p["caption"] and p["tip"]
                   for p in data["places"])
        seen.add(phase(at))
        pick = data["places"][-1]
        click_place(at, "_act_cards", pick["id"])
        assert not at.exception, at.exception
        assert at.session_state["bl_play"].state.history[n] == said[pick["label"]]
    assert {"province", "first_box"} <= seen
