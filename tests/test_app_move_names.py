"""Issue 56: the analysis speaks the player's language. Every move the Analyse page and the
Search tree name (the review's table, the better move, the evaluation bar's tooltip, the
best move and its line, the tree) is named with the words of its decision button
(``GameUI.move_label``), not the kernel's notation ("Play Orange 2", not "play O2"), in all
four games; and the bar's note under it says what the review says of the move played."""
import json
import re
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("streamlit")
pytest.importorskip("plotly")

import boardlab  # noqa: E402
from boardlab.streamlit_app.eval_bar import eval_bar_html  # noqa: E402
from boardlab.streamlit_app.games import ui_for  # noqa: E402
from boardlab.streamlit_app.review import evaluation, win_interval  # noqa: E402
from boardlab.streamlit_app.session import state_at  # noqa: E402
from test_app import TREE, app, finished_record  # noqa: E402
from test_app_review import bar, frame, run_review, upload  # noqa: E402

GAMES = ["kitsu", "kyushu", "keyside", "nukumi"]


def opening_record(name: str, decisions: int = 12, seed: int = 5) -> dict:
    """The record of ``decisions`` random decisions of a 2-seat game (chance sampled): a
    short game to review, whose moves have words that differ from their notation."""
    s = boardlab.make(name, players=2).new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    done = 0
    while not s.is_terminal() and done < decisions:
        if s.is_chance():
            o = s.chance_outcomes()
            p = np.array([q for _, q in o])
            s.apply(o[rng.choice(len(o), p=p / p.sum())][0])
            continue
        s.apply(int(rng.choice(s.legal_actions())))
        done += 1
    return s.to_record()


def bar_body(at) -> str:
    bodies = [h.proto.body for h in at.get("html") if "bl-evalbar" in h.proto.body]
    assert len(bodies) == 1, bodies
    return bodies[0]


def title_of(body: str) -> str:
    import html
    return html.unescape(re.search(r'title="([^"]*)"', body).group(1))


@pytest.mark.parametrize("name", GAMES)
def test_the_analysis_names_moves_as_the_buttons_do(name):
    ui = ui_for(name)
    at = app()
    upload(at, opening_record(name))
    job = run_review(at, iters=50)
    base, rows = job.base, sorted(job.rows.values(), key=lambda r: r["decision"])
    observer = job.observer

    # the review's table: the words of each move's button, read from the graph's seat
    table = frame(at, "flag")
    played = dict(zip(table["decision"], table["played"]))
    ai = dict(zip(table["decision"], table["AI"]))
    for r in rows:
        pos = state_at(base, r["ply"])
        assert played[r["decision"]] == ui.move_label(pos, r["played_action"], observer)
        assert ai[r["decision"]] == ui.move_label(pos, r["ai_action"], observer)
    assert any(played[r["decision"]] != r["played_move"] for r in rows), played
    assert list(table["played (notation)"]) == [r["played_move"] for r in rows]  # for tools

    # the better move's line and the bar's tooltip at a decision
    r = next((r for r in rows if r["played_action"] != r["ai_action"]), rows[0])
    d, pos = r["decision"], state_at(base, r["ply"])
    better = ui.move_label(pos, r["ai_action"], r["seat"])
    slider = [s for s in at.slider if s.key.startswith("an_ply")][0]
    at.session_state["bl_analysis"]["better"] = d
    slider.set_value(d).run()
    assert not at.exception, at.exception
    line = [m.value for m in at.markdown if m.value.startswith("**Better move:")]
    assert line and line[0].startswith(f"**Better move: {better}**"), line
    assert f"played {ui.move_label(pos, r['played_action'], r['seat'])}," in line[0]
    body = bar_body(at)
    assert f"; best {better}" in title_of(body), title_of(body)
    assert f'data-best-code="{r["ai_move"]}"' in body.replace("&gt;", ">")

    # the best move of a search here, its line and the search tree
    at.number_input(key="an_game_iters").set_value(300).run()
    at.button(key="an_game_run").click().run()
    assert not at.exception, at.exception
    result = at.session_state["bl_analysis"]["an_game_result"][1]
    best = ui.move_label(pos, result.best_action, r["seat"])
    assert any(m.value.startswith(f"**Best move for P{r['seat']}: {best}**") for m in at.markdown)
    pv = [m.value for m in at.markdown if m.value.startswith("**Principal variation**")][0]
    first = result.principal_variation[0]
    words = ui.move_label(pos, pos.parse_action(first[1]), r["seat"])
    assert f"P{first[0]} {words}" in pv, pv
    stats = frame(at, "visits")
    assert best in list(stats["move"]) and result.best_move in list(stats["notation"])

    at.switch_page(TREE).run()
    assert not at.exception, at.exception
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)["data"][0]
    hover = dict(zip(spec["ids"], spec["hovertext"]))
    root = next(iter(at.session_state["tr_cache"].values()))
    named = 0
    for i, ch in enumerate(root["children"]):
        if f"f/{i}" not in hover or ch["player"] != pos.current_player:
            continue
        words = ui.move_label(pos, pos.parse_action(ch["move"]), r["seat"])
        assert hover[f"f/{i}"].startswith(f"P{ch['player']} {words}<br>"), hover[f"f/{i}"]
        named += words != ch["move"]
    assert named, "no move of the tree's root named in words"
    buttons = [b.label for b in at.button if b.key and b.key.startswith("tr_child_")]
    assert buttons and not any(b.startswith(f"▶ P{pos.current_player} {ch['move']} ")
                               for b in buttons for ch in root["children"]
                               if ui.move_label(pos, pos.parse_action(ch["move"]),
                                                r["seat"]) != ch["move"]), buttons


def test_kitsu_words_are_said_from_the_viewers_seat():
    """Kitsu's "token to P<s>" names s's relation to the seat reading it: on the mover's
    button "(yourself)", read by an opponent "(opponent)", by the receiver "(yourself)"."""
    s = boardlab.make("kitsu", players=4).new_initial_state(seed=0)
    rng = np.random.default_rng(0)
    while not any(s.action_to_string(int(a)).startswith("token to P") for a in s.legal_actions()):
        assert not s.is_terminal()
        if s.is_chance():
            s.apply(s.chance_outcomes()[0][0])
        else:
            s.apply(int(rng.choice(s.legal_actions())))
    ui, mover = ui_for("kitsu"), s.current_player
    clans = s.observation(mover)["clans"]
    partner = next(p for p in range(4) if p != mover and clans[p] == clans[mover])
    opponent = next(p for p in range(4) if clans[p] != clans[mover])
    keep = next(int(a) for a in s.legal_actions()
                if s.action_to_string(int(a)) == f"token to P{mover}")
    assert ui.move_label(s, keep, None) == ui.decision_label(s, keep)
    assert ui.move_label(s, keep, mover) == f"Give the token to P{mover} (yourself)"
    assert ui.move_label(s, keep, partner) == f"Give the token to P{mover} (your partner)"
    assert ui.move_label(s, keep, opponent) == f"Give the token to P{mover} (opponent)"


def test_a_line_is_named_alike_whatever_the_hidden_cards_are():
    """The tree and the line name another seat's imagined move in words when it replays;
    whether it replays must not tell what that seat holds: two positions the searcher
    cannot tell apart (the true one and a world of its information set) name every line
    alike."""
    from boardlab.streamlit_app.move_names import LineNamer
    s = boardlab.make("kitsu", players=2).new_initial_state(seed=3)
    while s.is_chance():
        s.apply(s.chance_outcomes()[0][0])
    me = s.current_player
    other = 1 - me
    world = s.determinize(me, 11)
    assert world.observation(me) == s.observation(me)
    assert world.observation(other)["hands"][other] != s.observation(other)["hands"][other]
    mine = s.action_to_string(int(s.legal_actions()[0]))
    cards = (set(s.observation(other)["hands"][other])
             | set(world.observation(other)["hands"][other]))
    ui = ui_for("kitsu")
    for card in sorted(cards):
        line = [(me, mine), (other, f"play {card}")]
        assert LineNamer(ui, s, me).names(line) == LineNamer(ui, world, me).names(line), card
    assert LineNamer(ui, s, me).names([(me, mine)]) == [ui.move_label(s, s.parse_action(mine), me)]


# --- the bar's note and the review's mark ----------------------------------------------------
def _result(stats, best):
    return SimpleNamespace(stats=stats, best_action=best, player=0, best_move=f"m{best}")


def test_within_noise_is_the_reviews_test_of_a_difference():
    """Best 60% ± 4.6 and runner-up 52.5% ± 4.7 (450 visits each): 7.5 points apart, more
    than the difference's noise (hypot, 6.6) that the review flags a loss by, less than the
    two ± added (9.3) that the note used: the note said "within noise" where the review
    flagged the runner-up played."""
    stats = [{"action": 1, "move": "m1", "win_prob": 0.60, "visits": 450},
             {"action": 2, "move": "m2", "win_prob": 0.525, "visits": 450}]
    ev = evaluation(_result(stats, 1))
    o_pct, o_pm = win_interval(0.525, 450)
    assert ev["win_pct"] - o_pct > (ev["pm"] ** 2 + o_pm ** 2) ** 0.5
    assert ev["win_pct"] - o_pct < ev["pm"] + o_pm
    assert ev["within_noise"] is False
    close = [dict(stats[0]), dict(stats[1], win_prob=0.58)]
    assert evaluation(_result(close, 1))["within_noise"] is True


@pytest.mark.parametrize("label,sign", [("blunder", "??"), ("mistake", "?"),
                                        ("inaccuracy", "?!")])
def test_the_bar_says_the_reviews_mark_at_a_flagged_decision(label, sign):
    row = {"label": label, "win_pct_lost": 25.0, "noise": 6.0, "played_action": 3,
           "ai_action": 1, "within_noise": True}        # best vs runner-up within noise
    from boardlab.streamlit_app.review import verdict
    under, tip = verdict(row)
    body = eval_bar_html({"win_pct": 40.0, "pm": 3.0, "seat": 0, "within_noise": True,
                          "verdict": under, "verdict_tip": tip})
    assert "within noise" not in body
    assert f"played: {sign} {label}" in body and f"a {label} ({sign})" in title_of(body)
    best = dict(row, label="", played_action=1, win_pct_lost=0.0, noise=0.0)
    assert verdict(best)[0] == "played the best move"
    quiet = dict(row, label="", win_pct_lost=5.5, noise=7.0)   # the table's "— within noise"
    assert verdict(quiet)[0] == "played ≈ best: within noise"


def test_on_the_page_the_bar_and_the_review_agree_at_flagged_decisions():
    at = app()
    upload(at, finished_record(seed=4))
    job = run_review(at, iters=100)
    table = frame(at, "flag")
    flag = dict(zip(table["decision"], table["flag"]))
    flagged = [r for r in job.rows.values() if r["label"] in ("inaccuracy", "mistake", "blunder")]
    assert flagged, "a random game has mistakes at this budget"
    slider = [s for s in at.slider if s.key.startswith("an_ply")][0]
    for r in flagged[:2]:
        slider.set_value(r["decision"]).run()
        assert not at.exception, at.exception
        body = bar_body(at)
        assert flag[r["decision"]] in body.replace("played: ", ""), (flag[r["decision"]], body)
        assert "within noise" not in body
        assert bar(at)["win"] >= 0
