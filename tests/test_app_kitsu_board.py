"""Kitsu on the clickable board (AppTest, no browser): a card clicked in the hand, a Katana
target clicked on the table and named by whose card it is, the hint ringed in the hand, the
hand drawn inert while others move, what changed since the last decision, the "to move"
badge off the cards, the entered last trick of "analyse from a seat"."""
import json
import re

import numpy as np
import pytest

pytest.importorskip("streamlit")

from streamlit.testing.v1 import AppTest  # noqa: E402

import boardlab  # noqa: E402
from boardlab.streamlit_app import MAIN_SCRIPT  # noqa: E402
from boardlab.streamlit_app.games import kitsu as kui  # noqa: E402
from boardlab.streamlit_app.games import kitsu_text as kt  # noqa: E402
from boardlab.streamlit_app.session import AI, HUMAN  # noqa: E402
from board_clicks import board_data, boards, click_place, legal_places, run_ui  # noqa: E402

TIMEOUT = 60


def random_until(players: int, seed: int, stop):
    """Kitsu played at random (seeded) until ``stop(state)`` holds at a seat's decision."""
    s = boardlab.make("kitsu", players=players).new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        if s.is_chance():
            o = s.chance_outcomes()
            s.apply(o[rng.integers(len(o))][0])
            continue
        if stop(s):
            return s
        s.apply(int(rng.choice(s.legal_actions())))


def katana_state():
    """4p, seed 1: a seat must choose the Katana's target among cards that include its
    partner's."""
    def stop(s):
        if s.observation(s.current_player)["phase"] != "katana":
            return False
        names = [s.action_to_string(int(a)) for a in s.legal_actions()]
        return any(f"P{(s.current_player + 2) % 4} " in n for n in names)
    return random_until(4, 1, stop)


def load(state, seats):
    rec = state.to_record()
    rec["app"] = {"seats": seats, "ai": "Beginner"}
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=TIMEOUT)
    at.run()
    at.file_uploader(key="ng_upload").upload("k.json", json.dumps(rec).encode(),
                                             "application/json").run()
    assert not at.exception, at.exception
    return at


def test_katana_target_is_clicked_on_the_table_and_named_by_whose_card():
    s = katana_state()
    me = s.current_player
    at = load(s, [HUMAN if p == me else AI for p in range(4)])
    n = len(s.history)
    data = board_data(at, f"mv{n}-katana")
    legal = {s.action_to_string(int(a)): int(a) for a in s.legal_actions()}
    assert data["svg"].startswith("<svg") and "CURRENT TRICK" in data["svg"]
    lit = [p for p in data["places"] if p["legal"]]
    assert len(lit) == len(legal)
    labels = {p["id"]: p["label"] for p in lit}
    partner = (me + 2) % 4
    assert any(f"of P{partner} (your partner)" in lab for lab in labels.values())
    assert all(re.search(r"of P\d \((your partner|opponent)\)$", lab) for lab in labels.values())
    # the table it is drawn on is the one the board drew (no second table below it)
    assert not [m for m in at.markdown if "CURRENT TRICK" in m.value]
    pid, label = next((i, lab) for i, lab in labels.items() if f"P{partner}" in lab)
    target = next(a for nm, a in legal.items() if f"P{partner} " in nm)
    click_place(at, "-katana", pid)
    assert not at.exception, at.exception
    sess = at.session_state["bl_play"]
    assert sess.state.history[n] == target
    destroyed = kt.card_name(s.action_to_string(target).split()[-1])
    assert f"P{me} destroys {destroyed} of P{partner} (their partner)" in at.text[0].value


def test_a_forged_or_stale_place_is_no_move():
    s = katana_state()
    me = s.current_player
    at = load(s, [HUMAN if p == me else AI for p in range(4)])
    click_place(at, "-katana", "t9")                # no such card in the trick
    assert not at.exception, at.exception
    assert at.session_state["bl_play"].state.history == s.history


def test_hand_click_plays_that_card_and_only_legal_cards_are_lit():
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=TIMEOUT).run()
    at.radio(key="ng_preset").set_value("Beginner")
    at.number_input(key="ng_seed").set_value(9)
    at.run()
    at.button(key="ng_start").click().run()
    sess = at.session_state["bl_play"]
    state = sess.state
    n = len(state.history)
    data = board_data(at, f"mv{n}-kcard-hand")
    hand = state.observation(0)["hands"][0]
    assert [p["id"].split("-", 1)[1] for p in data["places"]] == hand
    legal = {state.action_to_string(int(a)): int(a) for a in state.legal_actions()}
    for p in data["places"]:
        assert p["svg"].startswith("<svg")
        card = p["id"].split("-", 1)[1]
        assert p["legal"] == (f"play {card}" in legal)
    last = legal_places(at, "-kcard-hand")[-1]
    card = last["id"].split("-", 1)[1]
    click_place(at, "-kcard-hand", last["id"])
    assert not at.exception, at.exception
    assert at.session_state["bl_play"].state.history[n] == legal[f"play {card}"]
    # the click is a trigger: a rerun (here: a toggle) does not play a second card
    after = list(at.session_state["bl_play"].state.history)
    at.toggle(key="play_show_all").set_value(True).run()
    assert at.session_state["bl_play"].state.history == after


def run_input(state, hint=None, interactive_hand=True):
    """KitsuUI.move_input (or the inert hand) alone in a script; returns the AppTest."""
    return run_ui(state, ["input" if interactive_hand else "idle"], hint=hint)


def play_state(seed=4):
    g = boardlab.make("kitsu", players=2)
    s = g.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    while s.is_chance() or s.observation(s.current_player)["phase"] != "play":
        if s.is_chance():
            o = s.chance_outcomes()
            s.apply(o[rng.integers(len(o))][0])
        else:
            s.apply(int(rng.choice(s.legal_actions())))
    return s


def test_the_hinted_card_is_ringed_in_the_hand():
    s = play_state()
    legal = [int(a) for a in s.legal_actions()]
    hint = legal[-1]
    card = s.action_to_string(hint).split()[1]
    data = board_data(run_input(s, hint=hint), "t-kcard-hand")
    marked = [p for p in data["places"] if p.get("mark") == "hint"]
    assert [p["id"].split("-", 1)[1] for p in marked] == [card] * len(marked) and marked
    assert all(p["caption"] == "AI hint" for p in marked)
    assert not [p for p in board_data(run_input(s), "t-kcard-hand")["places"] if p.get("mark")]


def test_the_hand_is_drawn_inert_while_others_move():
    s = play_state()
    p = s.current_player
    at = run_input(s, interactive_hand=False)
    assert not at.exception
    html = "".join(m.value for m in at.markdown)
    hand = s.observation(p)["hands"][p]
    # every card of the hand is drawn, as pictures only: nothing to click
    assert html.count("role='img'") == len(hand) and "<button" not in html
    assert all(f"aria-label='{kui.card_long_name(c)}'" in html for c in hand)
    assert not [b for b in at.button if not b.disabled]


def test_the_board_svg_details():
    s = play_state()
    p = s.current_player
    obs = s.observation(p)
    svg = kui.board_svg(obs, p)
    # the "to move" badge sits in the seat's name bar (y = 154), above the cards (y >= 208),
    # after the name; a narrow seat (6 players) gets a marker only
    badge = re.search(r"<rect x='([\d.]+)' y='([\d.]+)' width='62' height='18' rx='9'", svg)
    assert badge and float(badge.group(2)) < 160
    assert float(badge.group(1)) > 8 + 12 + 7 * len(f"P{p} · Blue  (you)")
    six = kui.board_svg(dict(obs, players=6, clans=["blue", "orange"] * 3, hands=[None] * 6,
                             hand_sizes=[5] * 6, known=[[]] * 6, current_player=5), 5)
    assert "<title>to move</title>" in six and "width='62' height='18'" not in six
    assert "0 tricks played" in svg
    one = dict(obs, tricks=1)
    assert "1 trick played" in kui.board_svg(one, p) and "1 tricks" not in kui.board_svg(one, p)
    # cards played since the viewer's last decision are ringed, and only those
    other = 1 - p
    trick = [{"seat": other, "card": "O3", "hidden": False, "destroyed": False}]
    shown = dict(obs, trick=trick)
    assert "played since your last decision" not in kui.board_svg(shown, p)
    assert kui.board_svg(shown, p, recent=[(other, "play O3")]).count(
        "played since your last decision") == 1
    # whose card: "opponent" under the card of the other clan
    assert ">opponent<" in kui.board_svg(shown, p)


def tables(at) -> list[str]:
    """The SVGs of the Kitsu tables on the page (drawn as boards with their places)."""
    found = [json.loads(e.proto.json).get("svg") or "" for e in boards(at)]
    return [svg for svg in found if "CURRENT TRICK" in svg]


def test_analyse_from_a_seat_draws_the_entered_last_trick():
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=TIMEOUT).run()
    at.switch_page("views/analyse.py").run()
    at.text_input(key="seat_hand").input("B1 B4 O4")
    at.text_input(key="seat_discard").input("B3 O6 B2")
    at.text_input(key="seat_last").input("B3 O6")
    at.run()
    at.button(key="seat_build").click().run()
    assert not at.exception, at.exception
    svg, = tables(at)
    last = svg[svg.index("LAST TRICK"):]
    assert "Entered (seats not given)" in last
    assert last.count(">3<") >= 1 and last.count(">6<") >= 1       # B3 and O6 drawn there
    # a position without a last trick draws none
    at.text_input(key="seat_last").input("")
    at.run()
    at.button(key="seat_build").click().run()
    svg, = tables(at)
    assert "Entered (seats not given)" not in svg


def test_katana_input_drawn_before_the_board_brings_the_table_once():
    """A page may draw the decision before the board (to read a click first): the Katana's
    input then draws the clickable table itself and the board leaves it out."""
    s = katana_state()
    for steps in (["input", "board"], ["board", "input"]):
        at = run_ui(s, steps)
        assert "CURRENT TRICK" in board_data(at, "t-katana")["svg"]
        assert len(tables(at)) == 1


def test_changes_ring_the_cards_played_since():
    s = play_state()
    p = s.current_player
    obs = s.observation(p)
    other = 1 - p
    obs["trick"] = [{"seat": other, "card": "O3", "hidden": False, "destroyed": False}]

    def script(obs, p, lines):
        from types import SimpleNamespace
        from boardlab.streamlit_app.games import kitsu as kui
        kui.KitsuUI().board(obs, viewer=p, changes=SimpleNamespace(lines=lines))

    for lines, rings in (([f"P{other} plays Orange 3"], 1), ([f"P{other} play O3"], 1), ([], 0)):
        at = AppTest.from_function(script, args=(obs, p, lines), default_timeout=TIMEOUT)
        at.run()
        assert not at.exception, at.exception
        svg, = tables(at)
        assert svg.count("played since your last decision") == rings


def recover_state():
    """2p, seed 0: a seat takes a card back with the Recover-card token."""
    return random_until(2, 0, lambda s: s.observation(s.current_player)["phase"] == "recover")


def test_recovered_card_is_clicked_in_the_last_trick():
    s = recover_state()
    me = s.current_player
    last = [c["card"] for c in s.observation(me)["last_trick"]["cards"]]
    legal = {s.action_to_string(int(a)): int(a) for a in s.legal_actions()}
    at = run_ui(s, ["board", "input"])
    data = board_data(at, "t-recover")
    lit = [p for p in data["places"] if p["legal"]]
    by_label = {kui.kt.decision_label(nm): nm for nm in legal}     # "Take Blue 2 back ..."
    assert {p["label"] for p in lit} == set(by_label)
    assert all(p["id"] == f"l{last.index(by_label[p['label']].split()[1])}" for p in lit)
    assert len(tables(at)) == 1                                         # one table, clickable
    # in the app: a click takes that card
    at = load(s, [HUMAN if p == me else AI for p in range(2)])
    n = len(s.history)
    pick = lit[-1]
    click_place(at, f"mv{n}-recover", pick["id"])
    assert not at.exception, at.exception
    assert at.session_state["bl_play"].state.history[n] == legal[by_label[pick["label"]]]


def test_the_token_toggle_explains_the_token_in_its_tooltip():
    """Playing a power token with a card: the toggle says what the token does in its tooltip,
    with no note under it (a phone's first screen would lose the hand below it)."""
    def stop(s):
        return (s.observation(s.current_player)["phase"] == "play"
                and any(" with " in s.action_to_string(int(a)) for a in s.legal_actions()))
    state = random_until(4, 3, stop)
    token = next(re.fullmatch(r"play \S+ with (\S+)", n).group(1)
                 for n in (state.action_to_string(int(a)) for a in state.legal_actions())
                 if " with " in n)
    at = run_input(state)
    assert not at.exception, at.exception
    toggle = next(t for t in at.toggle if t.key.endswith("-usetoken"))
    effect = kt.TOKEN_EFFECT[token]
    assert effect and toggle.help == effect[:1].upper() + effect[1:] + "."
    assert not at.caption
