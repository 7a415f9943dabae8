"""Game review on the Analyse page (win-% graph, review table, better move, eval bar) and
the Play page's evaluation bar, through AppTest; the review logic alone, without Streamlit."""
import json
import re
import math

import pytest

pytest.importorskip("streamlit")
pytest.importorskip("plotly")

import boardlab  # noqa: E402
from boardlab.streamlit_app.eval_bar import eval_bar_html  # noqa: E402
from boardlab.streamlit_app.review import (Review, classify, evaluation,  # noqa: E402
                                           summary, win_interval)
from test_app import ANALYSE, app, finished_record, play_one_human_move, start_game  # noqa: E402


def upload(at, record):
    at.switch_page(ANALYSE).run()
    at.file_uploader(key="an_upload").upload("g.json", json.dumps(record).encode(),
                                             "application/json").run()
    assert not at.exception, at.exception


def frame(at, column):
    """The dataframe on the page that has ``column``."""
    frames = [d.value for d in at.dataframe if column in d.value.columns]
    assert frames, f"no table with a {column!r} column"
    return frames[0]


def run_review(at, iters=100, max_runs=200):
    at.number_input(key="rv_iters").set_value(iters).run()
    at.button(key="rv_start").click().run()
    job = at.session_state["bl_analysis"]["review"]
    runs = 0
    while not job.done and runs < max_runs:     # each run of the page does a few decisions
        at.run()
        runs += 1
    assert not at.exception, at.exception
    return job


# --- the logic alone ---------------------------------------------------------------------
def test_win_interval_shrinks_with_visits_and_stays_in_range():
    p10, pm10 = win_interval(0.632, 10)
    p1k, pm1k = win_interval(0.632, 1000)
    assert pm1k < pm10 and 0 <= p10 - pm10 and p10 + pm10 <= 100
    assert abs(p1k - 63.2) < 0.2 and 2.5 < pm1k < 3.5       # 1.96 * sqrt(.632*.368/1000)
    assert win_interval(0.5, 0) == (50.0, 50.0)


def test_classify_thresholds_and_noise():
    assert classify(25.0, 3.0) == "blunder"
    assert classify(12.0, 3.0) == "mistake"
    assert classify(6.0, 3.0) == "inaccuracy"
    assert classify(4.0, 1.0) == ""
    assert classify(25.0, 30.0) == ""            # within noise: not flagged
    assert classify(math.nan, 0.0) == "unknown"


def test_review_of_a_record_every_decision_once_and_summary():
    state = boardlab.replay(finished_record(seed=4))
    job = Review(state, {"iterations": 150})
    while not job.done:
        job.step(3)
    assert sorted(job.rows) == list(range(len(job.plies)))
    for i, row in job.rows.items():
        assert row["ply"] == job.plies[i] and row["seat"] == job.movers[i]
        assert row["iterations"] == 150 and 0 <= row["win_pct"] <= 100
        assert (row["ai_action"] == row["played_action"]) == (row["win_pct_lost"] == 0.0)
    per_seat = summary(job.rows.values())
    assert [e["seat"] for e in per_seat] == [0, 1]
    assert sum(e["decisions"] for e in per_seat) == len(job.rows)
    for e in per_seat:
        flagged = e["inaccuracy"] + e["mistake"] + e["blunder"]
        assert e["accuracy"] == pytest.approx(100 * (e["decisions"] - flagged) / e["decisions"])


def test_review_restricted_to_a_seat_never_searches_the_others():
    state = boardlab.replay(finished_record(seed=4))
    job = Review(state, {"iterations": 50}, seats=frozenset([0]))
    while not job.done:
        job.step(5)
    assert job.rows and {r["seat"] for r in job.rows.values()} == {0}
    other = job.movers.index(1)
    with pytest.raises(ValueError, match="may not search"):
        job.analyse(other)
    with pytest.raises(ValueError, match="budget"):
        Review(state, {"iterations": 0})


@pytest.mark.parametrize("name", boardlab.games_available())
def test_review_works_for_every_registered_game(name):
    import random
    s = boardlab.make(name).new_initial_state(seed=2)
    rng = random.Random(2)
    decisions = 0
    while not s.is_terminal() and decisions < 6:
        decisions += not s.is_chance()
        s.apply(s.chance_outcomes()[0][0] if s.is_chance() else rng.choice(s.legal_actions()))
    job = Review(s, {"iterations": 40})
    rows = job.step(4)
    assert [r["decision"] for r in rows] == [0, 1, 2, 3]
    for r in rows:
        legal = boardlab.replay({**s.to_record(), "actions": s.history[:r["ply"]],
                                 "moves": None, "result": None}).legal_actions()
        assert r["ai_action"] in legal and r["played_action"] == s.history[r["ply"]]


def test_evaluation_and_bar():
    s = boardlab.make("kitsu", players=2).new_initial_state(seed=1)
    while s.is_chance():
        s.apply(s.chance_outcomes()[0][0])
    ev = evaluation(boardlab.search.ismcts(s, iterations=400, seed=1))
    assert ev["seat"] == s.current_player and 0 < ev["pm"] < 50
    html = eval_bar_html(ev)
    assert f"{ev['win_pct']:.1f}%" in html and f"± {ev['pm']:.1f}" in html
    assert "no eval" in eval_bar_html(None)


# --- the Analyse page ------------------------------------------------------------------------
def test_review_of_an_uploaded_record_graph_table_and_better_move():
    at = app()
    upload(at, finished_record(seed=4))
    job = run_review(at)
    assert job.done and len(job.rows) == len(job.plies)
    graphs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")
              if "win % of Blue (P0)" in c.proto.spec]
    assert graphs, "no win-% graph from the viewer's clan (P0: Blue)"
    line, *marks = graphs[0]["data"]
    end = len(job.plies)                                     # the end position's number
    assert line["x"] == list(range(end + 1))                 # every decision, then the result
    assert line["line"]["color"] == "#2f6fd6"                # in the clan's colour
    by = {r["decision"]: r for r in job.rows.values()}
    # every point read from P0's (the viewer's) knowledge: its own search at P1's decisions
    assert all(r["view_seat"] == 0 for r in by.values())
    assert line["y"][:end] == [pytest.approx(r["view_pct"]) for _, r in sorted(by.items())]
    won = job.base.returns()[0] > 0
    assert line["y"][end] == (100.0 if won else 0.0)
    *marks, network = marks                 # the network's reading (dashed) comes last
    assert "network" in network["name"] and network["line"]["dash"] == "dash"
    # a click selects the point it hovers, on any trace: plotly selects none on a line alone
    assert all("markers" in t["mode"] for t in graphs[0]["data"])
    flagged_x = sorted(x for m in marks for x in m["x"])     # every flagged move marked on it
    assert flagged_x == sorted(d for d, r in by.items()
                               if r["label"] in ("inaccuracy", "mistake", "blunder"))
    summary_df = frame(at, "accuracy %")
    assert list(summary_df["seat"]) == ["P0", "P1"]
    table = frame(at, "flag")
    assert len(table) == len(job.rows)
    flagged = [r for r in job.rows.values() if r["label"] in ("inaccuracy", "mistake", "blunder")]
    assert flagged, "a random game has mistakes at this budget"
    d = flagged[0]["decision"]
    at.selectbox(key="rv_flag").set_value(d).run()
    at.button(key="rv_show").click().run()
    assert not at.exception, at.exception
    slider = [s for s in at.slider if s.key.startswith("an_ply")][0]
    assert slider.value == d
    from boardlab.streamlit_app.games import ui_for
    from boardlab.streamlit_app.session import state_at
    pos = state_at(job.base, flagged[0]["ply"])         # named as its button is, not "play O2"
    words = ui_for("kitsu").move_label(pos, flagged[0]["ai_action"], flagged[0]["seat"])
    assert any(f"Better move: {words}**" in m.value for m in at.markdown)
    # its button ringed (buttons are keyed <input key>_act_<action>)
    assert any(f"st-key-an_better_{d}" in h.proto.body
               and f"_act_{flagged[0]['ai_action']}" in h.proto.body for h in at.get("html"))
    assert bar(at)["win"] == pytest.approx(line["y"][d], abs=0.051)   # the graph's point


def test_review_of_chosen_seats_only_and_stop(monkeypatch):
    from boardlab.streamlit_app import review
    monkeypatch.setattr(review, "SLICE_SECONDS", 0.0)   # one decision a run: Stop comes first
    monkeypatch.setattr(review, "SLICE_PER_DRAW", 0.0)
    at = app()
    upload(at, finished_record(seed=4))
    at.multiselect(key="rv_seats").set_value([1]).run()
    at.number_input(key="rv_iters").set_value(100).run()
    at.button(key="rv_start").click().run()
    job = at.session_state["bl_analysis"]["review"]
    at.button(key="rv_stop").click().run()
    assert job.stopped and not job.done
    n = len(job.rows)
    at.run()
    assert len(job.rows) == n, "a stopped review goes on"
    assert any("Stopped after" in c.value for c in at.caption)
    assert set(frame(at, "flag")["seat"]) <= {"P1"}


def test_review_of_a_live_game_searches_only_the_human_seat():
    at = app()
    sess = start_game(at, seed=6)
    play_one_human_move(at)
    play_one_human_move(at)
    at.switch_page(ANALYSE).run()
    job = run_review(at)
    human = sess.humans[0]
    assert job.rows and {r["seat"] for r in job.rows.values()} == {human}
    assert job.seats == frozenset([human])


def bar(at) -> dict:
    """The evaluation bar on the page: its side's label, win % and colour."""
    import re
    bodies = [h.proto.body for h in at.get("html") if "bl-evalbar" in h.proto.body]
    assert len(bodies) == 1, bodies
    win = float(re.search(r"<b>([\d.]+)%</b>", bodies[0]).group(1))      # the number shown
    side = re.search(r'data-side="([^"]*)"', bodies[0])
    colour = re.search(r'bottom:0;width:100%;height:[\d.]+%;background:(#[0-9a-f]{6})',
                       bodies[0])                                         # its part of the bar
    return {"side": side and side.group(1), "win": win, "colour": colour and colour.group(1)}


def test_the_bar_reads_the_graph_side_and_agrees_with_the_graph_at_every_decision():
    """Stepping through a reviewed Kitsu game (P0 the viewer, Blue), the bar beside the board
    shows Blue's win % at every decision and at the end, in Blue's colour, the same number
    as the graph's point there; it never flips to the seat to move."""
    at = app()
    upload(at, finished_record(seed=4))
    job = run_review(at)
    spec = [json.loads(c.proto.spec) for c in at.get("plotly_chart")
            if "win % of Blue (P0)" in c.proto.spec][0]
    line = spec["data"][0]
    point = dict(zip(line["x"], line["y"]))
    slider_key = [s for s in at.slider if s.key.startswith("an_ply")][0].key
    movers = set()
    for d in range(len(job.plies) + 1):                 # every decision, then the end
        at.slider(key=slider_key).set_value(d).run()
        assert not at.exception, at.exception
        shown = bar(at)
        assert shown["win"] == pytest.approx(point[d], abs=0.051), (d, shown, point[d])
        assert shown["side"] == "Blue (P0)" and shown["colour"] == "#2f6fd6", (d, shown)
        if d < len(job.plies):
            movers.add(job.movers[d])
    assert movers == {0, 1}
    assert point[len(job.plies)] in (0.0, 100.0)         # the end: the result


# --- the Play page ---------------------------------------------------------------------------
def eval_bars(at):
    return [h.proto.body for h in at.get("html") if "bl-evalbar" in h.proto.body]


def test_play_evaluation_bar_is_opt_in_and_from_the_human_seat():
    at = app()
    sess = start_game(at, seed=6)
    assert at.toggle(key="play_eval").value is False
    assert not eval_bars(at)
    at.toggle(key="play_eval").set_value(True).run()
    assert not at.exception, at.exception
    assert sess.is_human_turn()
    bars = eval_bars(at)
    assert len(bars) == 1 and f"P{sess.humans[0]}" in bars[0] and "±" in bars[0]
    cached = list(at.session_state["bl_play_eval"])
    assert cached[0][2] == tuple(sess.state.history)
    play_one_human_move(at)                      # a new position, a new evaluation
    assert list(at.session_state["bl_play_eval"])[0][2] == tuple(sess.state.history)
    at.toggle(key="play_eval").set_value(False).run()
    assert not eval_bars(at)


# --- the graph's sides and the review's resolution ---------------------------------------
def _row(decision, seat, win_pct, pm=2.0, lost=0.0, noise=0.0, label=""):
    return {"decision": decision, "seat": seat, "win_pct": win_pct, "pm": pm,
            "win_pct_lost": lost, "noise": noise, "label": label}


def test_side_lines_two_sides_over_every_decision_more_sides_at_their_own():
    rows = [_row(0, 0, 60.0), _row(1, 1, 70.0), _row(2, 2, 55.0), _row(3, 3, 45.0)]
    from boardlab.streamlit_app.review import side_lines
    clans = side_lines(rows, [0, 1, 0, 1])                   # Kitsu 4p: two clans
    assert [y for _, y, _ in clans[0]] == [60.0, 30.0, 55.0, 55.0]
    assert [y for _, y, _ in clans[1]] == [40.0, 70.0, 45.0, 45.0]
    alone = side_lines(rows, [0, 1, 2, 3])                   # four sides: each at its own
    assert alone == {0: [(0, 60.0, 2.0)], 1: [(1, 70.0, 2.0)], 2: [(2, 55.0, 2.0)],
                     3: [(3, 45.0, 2.0)]}


def test_a_review_too_coarse_to_tell_moves_apart_says_so():
    from boardlab.streamlit_app.review import budget_warning, resolution
    # the case: ± 7-12 points, a 10.6-point loss unflagged, every seat at 100%
    coarse = [_row(0, 0, 50, pm=7, lost=10.6, noise=11.0), _row(1, 1, 50, pm=8, lost=3, noise=9),
              _row(2, 0, 50, pm=6), _row(3, 1, 50, pm=7, lost=1, noise=12)]
    assert resolution(coarse) == pytest.approx(10.0)             # median of 8.5, 9, 11, 12
    text = budget_warning(coarse, {"iterations": 200})
    assert text and "too low" in text and "±10" in text and "1 decision lost 5 points" in text
    assert "1,000 iterations" in text                        # 200 x (10 / 5)^2 = 800
    fine = [_row(0, 0, 50, pm=1, lost=6, noise=2, label="inaccuracy"), _row(1, 1, 50, pm=1.5)]
    assert budget_warning(fine, {"iterations": 20000}) is None
    assert budget_warning([], {"iterations": 200}) is None


def test_the_page_warns_at_a_low_review_budget():
    at = app()
    upload(at, finished_record(seed=4))
    run_review(at, iters=50)
    assert any("too low to tell moves apart" in w.value for w in at.warning)
    assert any("unreliable at this budget" in m.value for m in at.markdown)


def test_the_budget_warning_asks_once_and_not_again_at_the_budget_it_asked_for():
    """The issue's sequence: at 2,000 iterations a ±10 review asks for 8,000; at 8,000 the
    played moves' noise shrank less than 1/sqrt (±6.1), and the warning used to ask for
    12,000. It asks once: at the budget asked for it says the noise, not a new budget."""
    from boardlab.streamlit_app.review import asked_budget, budget_warning, noise_note
    at_2000 = [_row(0, 0, 50, pm=7, lost=3, noise=10.0), _row(1, 1, 50, pm=7, lost=1, noise=10.0)]
    assert asked_budget(at_2000, {"iterations": 2000}) == 8000
    assert "8,000 iterations" in budget_warning(at_2000, {"iterations": 2000})
    at_8000 = [_row(0, 0, 50, pm=4, lost=3, noise=6.1), _row(1, 1, 50, pm=4, lost=1, noise=6.1)]
    assert "12,000" in budget_warning(at_8000, {"iterations": 8000})   # asked anew: not twice
    assert budget_warning(at_8000, {"iterations": 8000}, asked=8000) is None
    assert budget_warning(at_8000, {"iterations": 4000}, asked=8000)   # below it: still warned
    assert "±6" in noise_note(at_8000)


def test_the_page_asks_for_a_budget_once_and_the_table_shows_each_loss_with_its_noise():
    at = app()
    upload(at, finished_record(seed=4))
    job = run_review(at, iters=50)
    warning = [w.value for w in at.warning if "too low to tell moves apart" in w.value]
    need = int(re.search(r"about \*\*([\d,]+) iterations", warning[0]).group(1).replace(",", ""))
    table = frame(at, "flag")
    lost = dict(zip(table["decision"], table["win % lost"]))
    flag = dict(zip(table["decision"], table["flag"]))
    for r in job.rows.values():                      # each loss with its noise, beside its flag
        d = r["decision"]
        if r["played_action"] == r["ai_action"]:
            assert lost[d] == "0 (the best move)"
        else:
            assert lost[d] == f"{r['win_pct_lost']:.1f} ± {r['noise']:.1f}"
        if r["label"] == "" and r["win_pct_lost"] >= 5:
            assert flag[d] == "— within noise", (d, flag[d])
    assert any(f == "— within noise" for f in flag.values())
    run_review(at, iters=need)                       # at the budget asked for: no new ask
    assert not [w for w in at.warning if "too low to tell moves apart" in w.value]


# --- the numbers in words: the search tree and the analysis table ----------------------------
def test_the_tree_is_coloured_from_one_side_and_names_hidden_moves_in_words():
    """A Kitsu hint's tree: every ring's colour is the win % of the searched seat's side
    (a child of the other seat shows the rest, so a parent at 39% never has a child at 68%
    for the same outcome), and the moves the search cannot name ("#12") are said in words."""
    import re
    from test_app import PLAY, TREE
    at = app()
    at.switch_page(PLAY).run()
    start_game(at, seed=13)
    [b for b in at.button if b.key and b.key.startswith("hint_")][0].click().run()
    at.switch_page(TREE).run()
    assert not at.exception, at.exception
    result = at.session_state["bl_last_search"]["result"]
    root = next(iter(at.session_state["tr_cache"].values()))
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)["data"][0]
    colour = dict(zip(spec["ids"], spec["marker"]["colors"]))
    label = dict(zip(spec["ids"], spec["labels"]))
    hover = dict(zip(spec["ids"], spec["hovertext"]))
    me = result.player
    seen_other = hidden = 0

    def walk(node, nid):
        nonlocal seen_other, hidden
        if node["player"] is not None and nid in colour:
            win = 100.0 * (node["mean"] + 1) / 2
            if node["player"] == me:
                assert colour[nid] == pytest.approx(win), nid
            else:
                assert colour[nid] == pytest.approx(100.0 - win), nid
                seen_other += 1
            assert not re.fullmatch(r"#\d+", label[nid]), label[nid]
            if re.fullmatch(r"#\d+", node["move"]):
                hidden += 1
                assert "hidden move" in label[nid] and "cannot see" in hover[nid]
        for i, ch in enumerate(node["children"]):
            walk(ch, f"{nid}/{i}")

    walk(root, "f")
    assert seen_other and hidden, (seen_other, hidden)
    assert f"win % of<br>Blue (P{me})" in json.dumps(spec["marker"]["colorbar"])   # P0: Blue
    assert any("Mean value" in c.value for c in at.caption)


def test_the_analysis_table_says_what_its_numbers_are_and_its_line_names_hidden_moves():
    import re
    at = app()
    upload(at, finished_record(seed=4))
    slider_key = [s for s in at.slider if s.key.startswith("an_ply")][0].key
    at.slider(key=slider_key).set_value(3).run()
    at.number_input(key="an_game_iters").set_value(2000).run()
    at.button(key="an_game_run").click().run()
    assert not at.exception, at.exception
    assert any("**share %**" in c.value and "**mean value**" in c.value for c in at.caption)
    line = [m.value for m in at.markdown if m.value.startswith("**Principal variation**")][0]
    assert not re.search(r"#\d+", line), line


# --- a finished game's review kept with the game ------------------------------------------
def test_a_finished_games_review_is_kept_with_it_and_shown_again_without_searching(monkeypatch):
    """The review of a finished current game is kept in the store with the game: a reload or
    another browser (even after a server restart) opening the game's link sees the same graph
    and table on Analyse, and no search runs for it."""
    from streamlit.testing.v1 import AppTest

    from boardlab import search
    from boardlab.streamlit_app.common import game_store
    from test_app import MAIN_SCRIPT, TIMEOUT
    at = app()
    at.file_uploader(key="ng_upload").upload("done.json", json.dumps(finished_record(seed=4))
                                             .encode(), "application/json").run()
    gid = at.session_state["bl_game_id"]
    at.switch_page(ANALYSE).run()
    assert at.radio(key="an_source").value == "Current game"
    job = run_review(at)
    at.run()
    assert job.done and job.saved
    graph = [c.proto.spec for c in at.get("plotly_chart") if "win % of" in c.proto.spec]

    def no_search(*a, **k):
        raise AssertionError("a kept review is searched again")
    monkeypatch.setattr(search, "ismcts", no_search)
    game_store.clear()                                       # a server restart: memory gone
    other = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=TIMEOUT)   # another browser
    other.query_params["game"] = gid
    other.switch_page(ANALYSE).run()
    assert not other.exception, other.exception
    kept = other.session_state["bl_analysis"]["review"]
    assert kept.done and sorted(kept.rows) == sorted(job.rows) and kept.budget == job.budget
    assert [c.proto.spec for c in other.get("plotly_chart") if "win % of" in c.proto.spec] == graph
    assert len(frame(other, "flag")) == len(job.rows)
    assert any("kept with the game" in c.value for c in other.caption)


def title(chart) -> str:
    return json.loads(chart.proto.spec)["layout"]["yaxis"]["title"]["text"]


@pytest.fixture
def app_data(tmp_path, monkeypatch):
    """The app's store opened afresh on this test's folder, and closed after it (the next
    test's app must not find this one's store)."""
    from boardlab.streamlit_app.common import game_store
    monkeypatch.setenv("BOARDLAB_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("BOARDLAB_LIVE", "poll")
    game_store.clear()
    yield tmp_path
    game_store().close()
    game_store.clear()


def test_an_ended_tables_review_is_kept_for_every_seat(app_data, monkeypatch):
    """At a table of friends that has ended, a seat's "Review this game" opens it on Analyse;
    the review it runs is kept with the table's game, and the other seat's browser sees the
    same graph without searching again."""
    import numpy as np
    from streamlit.testing.v1 import AppTest

    from boardlab import search
    from boardlab.streamlit_app.common import game_store
    from boardlab.streamlit_app.session import HUMAN, PlaySession
    from boardlab.streamlit_app.store import GameStore
    from test_app import MAIN_SCRIPT, TIMEOUT
    store = GameStore(app_data)
    sess = PlaySession(game=boardlab.make("kitsu", players=2, track_length=3),
                       seats=[HUMAN, HUMAN], preset="Beginner", seed=4, auto_forced=False)
    t = store.create_table(sess)
    rng = np.random.default_rng(4)
    while (seat := store.view(t.game_id).to_move) >= 0:
        v = store.view(t.game_id, t.seat_tokens[seat])
        store.apply(t.game_id, t.seat_tokens[seat], v.version,
                    v.legal[rng.integers(len(v.legal))][0])
    assert store.view(t.game_id).status == "ended"
    store.close()

    def browser(seat):
        at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=TIMEOUT)
        at.query_params.update(game=t.game_id, seat=t.seat_tokens[seat])
        at.run()
        assert not at.exception, at.exception
        return at

    at = browser(0)
    at.button(key="tbl_review").click().run()
    assert not at.exception, at.exception
    assert at.radio(key="an_source").value == "This table's game"
    job = run_review(at)
    at.run()
    assert job.done and job.saved and job.base.is_terminal()
    assert [title(c) for c in at.get("plotly_chart")] == ["win % of Blue (P0)"]

    def no_search(*a, **k):
        raise AssertionError("a kept review is searched again")
    monkeypatch.setattr(search, "ismcts", no_search)
    game_store.clear()                                       # a server restart: memory gone
    other = browser(1)
    other.button(key="tbl_review").click().run()
    assert not other.exception, other.exception
    kept = other.session_state["bl_analysis"]["review"]
    assert kept.done and kept.rows == job.rows                 # drawn from P1's side
    assert [title(c) for c in other.get("plotly_chart")] == ["win % of Orange (P1)"]
    assert any("kept with the game" in c.value for c in other.caption)


def test_play_bar_shows_the_network_at_once_and_the_search_once_the_page_is_drawn():
    """Kitsu 2p ships a network: before ``refine`` the bar is its reading of the human seat's
    knowledge (no search run, nothing cached); ``refine`` searches and redraws it."""
    from streamlit.testing.v1 import AppTest

    def page():
        import streamlit as st
        from boardlab.streamlit_app.eval_bar import beside_board
        board, refine = beside_board(st.session_state["sess"], True, 2000)
        with board:
            st.write("the board")
        if st.session_state.get("refine"):
            refine()

    from boardlab.streamlit_app.session import AI, HUMAN, PlaySession
    from boardlab.nets import reading
    sess = PlaySession(game=boardlab.make("kitsu", players=2), seats=[HUMAN, AI], seed=3)
    assert sess.is_human_turn()
    at = AppTest.from_function(page, default_timeout=60)
    at.session_state["sess"] = sess
    at.run()
    assert not at.exception, at.exception
    (bar,) = eval_bars(at)
    value = reading(sess.state, 0)[0][0]
    assert 'data-source="network"' in bar and f'data-win="{50 + 50 * value:.1f}"' in bar
    assert not at.session_state["bl_play_eval"]              # no search yet
    at.session_state["refine"] = True
    at.run()
    (bar,) = eval_bars(at)
    assert 'data-source="search"' in bar and "±" in bar
    assert list(at.session_state["bl_play_eval"])[0][2] == tuple(sess.state.history)
    at.run()                                                 # cached: the search's bar at once
    (bar,) = eval_bars(at)
    assert 'data-source="search"' in bar
