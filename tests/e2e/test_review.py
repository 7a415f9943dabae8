"""The game review in a real browser (Chromium): a whole short Kitsu game (2 players) uploaded
on Analyse, every decision analysed in the background at a small budget (progress bar), the
win-% graph growing meanwhile (tests/e2e/test_review_games.py checks that), the review
table and summary, a click on a graph point that moves the position
slider to that decision, and "Show the better move". Screenshots go to test-output/e2e/
(names starting "review-").

The browser, the server and the helpers are those of test_browser.py."""
import json
import re
import sys
import time
from pathlib import Path

from test_browser import browser, goto_page, open_app, server, settle, shots  # noqa: F401

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_app import finished_record  # noqa: E402


def caption(page) -> str:
    return page.get_by_text(re.compile(r"^Decision \d+ of \d+")).inner_text()


def start_review(page, field: str, value: str) -> None:
    """Set the review's budget (the number input keyed ``field``) and start the review."""
    box = page.locator(f".st-key-{field} input")
    box.fill(value)
    box.press("Enter")
    settle(page)
    page.get_by_role("button", name="Analyse the whole game").click()


def test_review_of_a_whole_game_and_jump_from_the_graph(browser, server, shots):
    ctx, page = open_app(browser, server)
    goto_page(page, "Analyse")
    record = finished_record(seed=4)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "game.json", "mimeType": "application/json",
                "buffer": json.dumps(record).encode()}])
    page.get_by_text(re.compile(r"^Decision \d+ of \d+")).wait_for(timeout=30000)
    settle(page)
    total = int(re.search(r"of (\d+)", caption(page)).group(1))
    page.locator(".st-key-rv_kind").get_by_text("Seconds").click()   # 0.1 s a decision:
    settle(page)                                # long enough on any machine to see progress
    start_review(page, "rv_secs", "0.1")
    progress = page.get_by_text(re.compile(r"^Analysed \d+ of \d+ decisions"))
    progress.first.wait_for(timeout=30000)
    page.screenshot(path=str(shots / "review-01-progress.png"), full_page=True)
    deadline = time.time() + 300
    while progress.count() and time.time() < deadline:
        time.sleep(0.5)
    assert not progress.count(), "the review did not finish"
    page.get_by_text(re.compile(r"^Summary per seat")).wait_for(timeout=30000)
    page.get_by_role("button", name="Show the better move").wait_for(timeout=30000)
    settle(page)
    points = page.locator(".st-key-rv_graph .scatterlayer .trace:first-of-type path.point")  # the line
    # every decision, one point each, then the result at the end position
    assert points.count() == total + 1, (points.count(), total)
    page.locator(".st-key-rv_graph").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "review-02-graph-and-table.png"), full_page=True)

    # a click on a graph point moves the slider there
    target = points.nth(5)
    target.scroll_into_view_if_needed()
    clicked = int(target.evaluate("p => p.__data__.x"))          # the point's decision
    target.click(force=True)
    deadline = time.time() + 30
    wanted = None
    while time.time() < deadline:
        settle(page, quiet=0.4)
        m = re.search(r"Decision (\d+) of", caption(page))
        if m and int(m.group(1)) == clicked:
            wanted = int(m.group(1))
            break
        time.sleep(0.3)
    assert wanted is not None, "the graph click did not move the slider"
    thumb = page.locator('[data-testid="stSliderThumbValue"]').first.inner_text()
    assert int(thumb) == wanted == clicked
    page.screenshot(path=str(shots / "review-03-jumped-from-graph.png"), full_page=True)

    # the better move of a flagged decision, marked on the board
    page.get_by_role("button", name="Show the better move").click()
    page.get_by_text(re.compile(r"^Better move: ")).wait_for(timeout=30000)
    settle(page)
    assert page.locator(".bl-evalbar").count() >= 1
    page.get_by_text(re.compile(r"^Better move: ")).scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "review-04-better-move.png"), full_page=True)
    ctx.close()


def test_home_end_and_arrows_step_through_the_game(browser, server, shots):
    """The keys on the Analyse page (focus on the page, not in a field): Home goes to the
    first decision, End to the end of the game, ←/→ one decision."""
    ctx, page = open_app(browser, server)
    goto_page(page, "Analyse")
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "game.json", "mimeType": "application/json",
                "buffer": json.dumps(finished_record(seed=4)).encode()}])
    page.get_by_text(re.compile(r"^Decision \d+ of \d+")).wait_for(timeout=30000)
    settle(page)
    total = int(re.search(r"of (\d+)", caption(page)).group(1))

    def press_to(key: str, wanted: int) -> None:
        page.locator("h1").first.click()          # focus on the page, out of any field
        page.keyboard.press(key)
        page.get_by_text(re.compile(rf"^Decision {wanted} of {total}\b")).wait_for(timeout=30000)
        settle(page)

    press_to("Home", 0)
    page.screenshot(path=str(shots / "review-05-home.png"), full_page=True)
    press_to("ArrowRight", 1)
    press_to("ArrowRight", 2)
    press_to("ArrowLeft", 1)
    press_to("End", total)
    page.screenshot(path=str(shots / "review-06-end.png"), full_page=True)
    ctx.close()


def test_a_finished_games_review_is_kept_for_a_reload_and_another_browser(browser, server, shots):
    """A finished game loaded on Play (the current game), reviewed on Analyse: the review is
    kept with the game, so the page reloaded and the game's link opened in another browser
    show the graph at once, without running the review again."""
    ctx, page = open_app(browser, server)
    record = finished_record(seed=4)
    page.locator('.st-key-ng_upload [data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "done.json", "mimeType": "application/json",
                "buffer": json.dumps(record).encode()}])
    page.get_by_text(re.compile(r"^Game over")).first.wait_for(timeout=30000)
    settle(page)
    goto_page(page, "Analyse")
    page.get_by_text(re.compile(r"^Decision \d+ of \d+")).wait_for(timeout=30000)
    total = int(re.search(r"of (\d+)", caption(page)).group(1))
    start_review(page, "rv_iters", "100")
    kept = page.get_by_text(re.compile(r"^This review is kept with the game"))
    kept.wait_for(timeout=120000)
    settle(page)
    points = ".st-key-rv_graph .scatterlayer .trace:first-of-type path.point"
    page.locator(".st-key-rv_graph").scroll_into_view_if_needed()
    page.locator(points).first.wait_for(timeout=30000)
    assert page.locator(points).count() == total + 1
    gid = re.search(r"[?&]game=([A-Za-z0-9_-]+)", page.url).group(1)

    page.reload()                                           # F5: the graph without a search
    page.locator(".st-key-rv_graph").wait_for(timeout=30000)
    page.locator(".st-key-rv_graph").scroll_into_view_if_needed()
    page.locator(points).first.wait_for(timeout=30000)
    settle(page)
    assert page.locator(points).count() == total + 1
    assert not page.get_by_text(re.compile(r"^Analysed \d+ of \d+ decisions")).count()

    other = browser.new_context(viewport={"width": 1440, "height": 1800})   # another browser
    p2 = other.new_page()
    p2.goto(f"{server}/analyse?game={gid}")
    p2.locator(".st-key-rv_graph").wait_for(timeout=30000)
    p2.locator(".st-key-rv_graph").scroll_into_view_if_needed()
    p2.locator(points).first.wait_for(timeout=30000)
    settle(p2)
    assert p2.locator(points).count() == total + 1
    assert p2.get_by_text(re.compile(r"^This review is kept with the game")).count()
    assert not p2.get_by_text(re.compile(r"^Analysed \d+ of \d+ decisions")).count()
    p2.locator(".st-key-rv_graph").scroll_into_view_if_needed()
    p2.screenshot(path=str(shots / "review-07-kept-in-another-browser.png"), full_page=True)
    other.close()
    ctx.close()
