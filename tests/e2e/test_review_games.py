"""The game review in a real browser for all four games (test_review.py has the keys that
step through a game and a kept review): a whole finished 2-player game (a seeded random
game's record) uploaded on Analyse and every decision analysed in the background, the
per-seat accuracy summary, mistakes flagged with the win % they lost, "Show the better move"
on the board, and a click on a graph point that shows that decision, with the evaluation bar
beside the board showing the graph's value there, and End going to the end of the game, where
both show the result. Screenshots go to test-output/e2e/ (names "review-<game>-...").

The review's run is the same code for every game: one game (MID_RUN) is reviewed slowly
enough to be watched while it runs (the progress bar, Stop, a graph that grows); the others
at the smallest budget that still flags mistakes in their record (300 iterations a search,
under a second of searching in all), since what differs between games is what is drawn.

The browser, the server and the helpers are those of test_browser.py."""
import json
import random
import re
import time

import pytest
from playwright.sync_api import expect
from test_browser import browser, goto_page, open_app, server, settle, shots  # noqa: F401

import boardlab

GAMES = {"kitsu": {"players": 2, "track_length": 4}, "kyushu": {"players": 2},
         "keyside": {"players": 2}, "nukumi": {"players": 2}}
MID_RUN = "kitsu"           # the game watched while its review runs
FAST_ITERATIONS = 300       # every other game's budget: each seed-3 record has mistakes at it


def finished_record(name: str, seed: int) -> dict:
    """A whole game of seeded random moves (chance drawn with its probabilities)."""
    s = boardlab.make(name, **GAMES[name]).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        if s.is_chance():
            outcomes = s.chance_outcomes()
            s.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            s.apply(rng.choice(s.legal_actions()))
    return s.to_record()


def searches(record: dict) -> int:
    """How many searches the review of ``record`` runs: one a decision, and one more from
    P0's knowledge (the graph's side) at each of P1's decisions."""
    s = boardlab.replay({**record, "actions": [], "moves": None, "result": None})
    out = 0
    for a in record["actions"]:
        out += {0: 1, 1: 2}.get(s.current_player, 0)
        s.apply(a)
    return out


def caption(page) -> str:
    return page.get_by_text(re.compile(r"^Decision \d+ of \d+")).inner_text()


def decision_shown(page) -> int:
    return int(re.search(r"Decision (\d+) of", caption(page)).group(1))


# The points of the win-% line: the graph's first trace once a decision is analysed (the
# traces after it mark flagged moves, then the network's reading; before, that is the first).
LINE_POINTS = ".st-key-rv_graph .scatterlayer .trace:first-of-type path.point"


# The network's reading, dashed: the graph's last trace.
NETWORK_POINTS = ".st-key-rv_graph .scatterlayer .trace:last-of-type path.point"


def wait_for_decision(page, decision: int, why: str) -> None:
    deadline = time.time() + 30
    while time.time() < deadline:
        settle(page, quiet=0.4)
        if decision_shown(page) == decision:
            return
        time.sleep(0.3)
    assert decision_shown(page) == decision, why


def graph_decisions(page) -> set[int]:
    """The decisions the win-% graph has a point for."""
    return set(page.locator(LINE_POINTS).evaluate_all(
        "ps => ps.filter(p => !p.closest('.trace').__data__[0].trace.name.includes('network'))"
        ".map(p => p.__data__.x)"))


def grid(page, key: str) -> list[dict]:
    """The rows of the st.dataframe in container ``key`` (from its accessible table, which
    mirrors the canvas the user sees), as dicts by column."""
    cells = page.locator(f".st-key-{key} table").evaluate(
        "t => [...t.querySelectorAll('tr')].map(r => [...r.children].map(c => c.textContent))")
    return [dict(zip(cells[0], row)) for row in cells[1:]]


# The default run reviews MID_RUN's game; the other three are slow (.ci/run runs them): the
# run is the same code, and what each game draws is tests/test_board_marks.py's, its hints on
# the board tests/e2e/test_board_hints.py's.
@pytest.mark.parametrize("name", [n if n == MID_RUN else pytest.param(n, marks=pytest.mark.slow)
                                  for n in GAMES])
def test_review_of_a_whole_game(browser, server, shots, name):
    record = finished_record(name, seed=3)
    # tall enough for the bar and the graph in one screenshot (the page scrolls inside)
    ctx, page = open_app(browser, server, viewport={"width": 1440, "height": 2600})
    goto_page(page, "Analyse")
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": f"{name}.json", "mimeType": "application/json",
                "buffer": json.dumps(record).encode()}])
    page.get_by_text(re.compile(r"^Decision \d+ of \d+")).wait_for(timeout=30000)
    settle(page)
    total = int(re.search(r"of (\d+)", caption(page)).group(1))  # the end position's number
    progress = page.get_by_text(re.compile(r"^Analysed \d+ of \d+ decisions"))
    if name == MID_RUN:
        done_text = watch_the_review_run(page, shots, name, record, total)
    else:
        box = page.locator(".st-key-rv_iters input")
        box.fill(str(FAST_ITERATIONS))
        box.press("Enter")
        settle(page)
        page.get_by_role("button", name="Analyse the whole game").click()
        done_text = f"Reviewed at {FAST_ITERATIONS:,} iterations per decision."
    points = page.locator(LINE_POINTS)

    # the whole game: one point per decision, the summary per seat
    page.get_by_text(done_text).wait_for(timeout=60000)
    deadline = time.time() + 600
    while (progress.count() or len(graph_decisions(page)) <= total) and time.time() < deadline:
        time.sleep(0.5)
    # the last decision's run reruns the whole page, which removes Stop: it may still be on its way
    page.get_by_role("button", name="Stop").wait_for(state="detached", timeout=30000)
    settle(page)
    # every decision, then the result at the end position (number total)
    assert graph_decisions(page) == set(range(total + 1)) and points.count() == total + 1
    assert not progress.count()
    summary = grid(page, "rv_summary_box")
    assert [r["seat"] for r in summary] == ["P0", "P1"]
    assert sum(int(r["decisions"]) for r in summary) == total     # every decision, once
    for r in summary:                           # accuracy: the share of unflagged decisions
        flagged = int(r["inaccuracies"]) + int(r["mistakes"]) + int(r["blunders"])
        expected = 100 * (int(r["decisions"]) - flagged) / int(r["decisions"])
        assert abs(float(r["accuracy %"]) - expected) < 0.06, r
    assert sum(int(r["mistakes"]) + int(r["blunders"]) for r in summary) >= 1

    # a flagged decision: its win-% loss, and the better move on the board
    flag = page.locator(".st-key-rv_flag")
    flag.wait_for(timeout=30000)
    shown = flag.locator("input").input_value()
    m = re.search(r"(\d+): P(\d) .*\((inaccuracy|mistake|blunder), -(\d+\.\d)%\)", shown)
    assert m, shown
    flagged, lost = int(m.group(1)), float(m.group(4))
    assert lost >= 5.0
    page.locator(".st-key-rv_graph").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"review-{name}-02-graph-and-table.png"), full_page=True)
    page.get_by_role("button", name="Show the better move").click()
    better = page.get_by_text(re.compile(r"^Better move: "))
    better.wait_for(timeout=30000)
    settle(page)
    assert decision_shown(page) == flagged
    line = page.locator('[data-testid="stMarkdownContainer"]', has_text="Better move:")
    assert f"{lost:.1f} win-% points lost" in line.first.inner_text()
    page.locator(".bl-evalbar").first.wait_for(timeout=30000)     # drawn with the board
    page.locator(".bl-evalbar").first.scroll_into_view_if_needed()   # the board and the line
    page.screenshot(path=str(shots / f"review-{name}-03-better-move.png"), full_page=True)

    # a click on a graph point shows that decision
    target = points.nth(3 if flagged != 3 else 4)
    target.scroll_into_view_if_needed()
    clicked = int(target.evaluate("p => p.__data__.x"))
    target.click(force=True)
    wait_for_decision(page, clicked, "the graph click did not show that decision")
    # the slider's thumb too (its label is drawn after the caption on a loaded machine: a
    # CI run read 32, the decision before, right after the caption said 3)
    expect(page.locator('[data-testid="stSliderThumbValue"]').first).to_have_text(
        str(clicked), timeout=30000)
    assert bar_win(page) == graph_y(page, clicked), "the bar and the graph disagree"
    page.get_by_text(re.compile(r"^Decision \d+ of \d+")).scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"review-{name}-04-jumped-from-graph.png"), full_page=True)
    # and on the network's dashed line (a click that hovered it once went to no decision)
    net_point = page.locator(NETWORK_POINTS).nth(5)
    net_point.scroll_into_view_if_needed()
    net_point.click(force=True)
    wait_for_decision(page, 5, "a click on the network's line did not show that decision")

    # End: the end of the game, where the bar and the graph's last point show the result
    page.locator("h1").first.click()              # focus on the page, out of any field
    page.keyboard.press("End")
    page.get_by_text(re.compile(rf"^Decision {total} of {total}\b")).wait_for(timeout=30000)
    settle(page)
    result = round(100.0 * (record["result"][0] + 1) / 2, 1)     # P0's returns: its side's
    assert graph_y(page, total) == bar_win(page) == result, "not the result at the end"
    page.locator(".bl-evalbar").first.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"review-{name}-05-end-result.png"), full_page=True)
    page.locator(".st-key-rv_graph").scroll_into_view_if_needed()   # its last point, too
    page.screenshot(path=str(shots / f"review-{name}-06-end-graph.png"), full_page=True)
    ctx.close()


def watch_the_review_run(page, shots, name: str, record: dict, total: int) -> str:
    """Start the review at a budget in seconds (it lasts about as long on any machine: at
    least 0.1 s a search and 12 s in all, long enough to see it half done; a short game at
    0.1 s was over before a slow machine had taken the mid-run screenshot), and watch it
    run: the progress bar, Stop, a graph of the decisions analysed so far that grows.
    Returns the caption the finished review shows."""
    per = max(0.1, round(12 / searches(record), 2))
    page.locator(".st-key-rv_kind").get_by_text("Seconds").click()
    settle(page)
    secs = page.locator(".st-key-rv_secs input")
    secs.fill(f"{per:g}")
    secs.press("Enter")
    settle(page)
    page.get_by_role("button", name="Analyse the whole game").click()
    progress = page.get_by_text(re.compile(r"^Analysed \d+ of \d+ decisions"))
    progress.first.wait_for(timeout=30000)
    deadline = time.time() + 60
    while not graph_decisions(page) and time.time() < deadline:
        time.sleep(0.2)
    mid = len(graph_decisions(page))
    assert 0 < mid < total, (mid, total)
    assert page.get_by_role("button", name="Stop").count() == 1
    page.mouse.wheel(0, 4000)                   # down to the graph (it is redrawn meanwhile)
    page.screenshot(path=str(shots / f"review-{name}-01-mid-run.png"), full_page=True)
    later = time.time() + 30
    grown = None                                # (points, still running) when it grew
    while grown is None and time.time() < later:
        now = len(graph_decisions(page))
        if now > mid:
            grown = (now, progress.count() > 0)
        time.sleep(0.2)
    assert grown and grown[1] and grown[0] < total, \
        f"the graph does not grow while the review runs: {grown}"
    return f"Reviewed at {per:g} s per decision."


def bar_win(page) -> float:
    """The win % the evaluation bar shows (its side is the graph's)."""
    bar = page.locator(".bl-evalbar").first
    bar.wait_for(timeout=30000)
    return float(bar.get_attribute("data-win"))


def graph_y(page, decision: int) -> float:
    """The graph's value at ``decision``, rounded as the bar shows it. (While a rerun draws
    the graph anew, a loaded machine can show the old drawing beside the new one for a
    moment: two points for the decision, until the old one is gone.)"""
    find = (f"ps => ps.filter(p => p.__data__.x === {decision}"
            " && !p.closest('[data-stale=\"true\"]')).map(p => p.__data__.y)")
    deadline = time.time() + 30
    while len(ys := page.locator(LINE_POINTS).evaluate_all(find)) != 1 and time.time() < deadline:
        time.sleep(0.2)
    assert len(ys) == 1, (decision, ys)
    return round(ys[0], 1)
