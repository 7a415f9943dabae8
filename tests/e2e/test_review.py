"""The game review in a real browser (Chromium), around the review itself (which
tests/e2e/test_review_games.py runs for every game: progress, the growing graph, the summary,
a click on the graph, "Show the better move"): the keys that step through a game, and a
finished game's review kept for a reload and another browser. Screenshots go to
test-output/e2e/ (names starting "review-").

The browser, the server and the helpers are those of test_browser.py."""
import json
import re
import sys
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
