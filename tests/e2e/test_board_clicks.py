"""Clicks on the board in a real browser: a Kitsu card clicked in the hand (desktop and phone
width), a Katana target clicked on the table, a Kyūshū card placed by clicking a square of
the map after its hover preview. Screenshots go to test-output/e2e/board-*.png.

The positions come from saved games loaded through "Load a saved game" (the same records the
AppTest suite builds), so each test starts at the decision it is about. The browser and the
app server are test_browser.py's session fixtures (two Playwright instances in one process
clash; tests/ modules cannot share a conftest by name)."""
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from boardlab.streamlit_app.games.base import third_person  # noqa: E402
from test_app_kitsu_board import katana_state  # noqa: E402
from test_app_kyushu import map_state  # noqa: E402
from test_browser import browser, server, settle, shots  # noqa: E402,F401
from test_browser import open_app as open_app_at  # noqa: E402

DESKTOP = {"width": 1440, "height": 1400}
PHONE = {"width": 390, "height": 844}


def open_app(browser, url, viewport=DESKTOP):
    return open_app_at(browser, url, viewport)


def load_game(page, state, seats):
    """Continue ``state`` through "Load a saved game" with these seats."""
    rec = state.to_record()
    rec["app"] = {"seats": seats, "ai": "Beginner"}
    page.get_by_text("Load a saved game").click()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": "game.json", "mimeType": "application/json",
                "buffer": json.dumps(rec).encode()}])
    page.locator(".st-key-play_log").wait_for(timeout=30000)   # the table of the game loaded
    settle(page)


def key_of(locator) -> str:
    """The st-key-* class of the keyed element holding ``locator``."""
    return locator.evaluate(
        "b => [...b.closest('[class*=\"st-key-\"]').classList].find(c => c.startsWith('st-key-'))")


def log_text(page) -> str:
    return page.locator(".st-key-play_log").inner_text()


def wait_log(page, pattern: str, timeout=30.0) -> str:
    """Wait until the move log has a line matching ``pattern``; returns the log."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        text = log_text(page)
        if re.search(pattern, text, re.M):
            return text
        time.sleep(0.2)
    raise AssertionError(f"no log line like {pattern!r} in:\n{log_text(page)}")


def start_kitsu(page, seed):
    page.get_by_text("Beginner", exact=True).first.click()
    seed_box = page.get_by_label("Seed (same seed, same deals)")
    seed_box.fill(str(seed))
    seed_box.press("Enter")
    settle(page)
    page.get_by_role("button", name="Start new game").click()
    page.locator("div[class*='-kcard-hand'] button.blb-legal").first.wait_for(timeout=30000)
    settle(page)


def test_kitsu_card_clicked_in_the_hand_desktop_and_phone(browser, server, shots):
    ctx, page = open_app(browser, server)
    start_kitsu(page, seed=31)
    hand = page.locator("div[class*='-kcard-hand'] button.blb-piece")
    legal = page.locator("div[class*='-kcard-hand'] button.blb-legal")
    assert hand.count() >= legal.count() >= 1
    boxes = [hand.nth(i).bounding_box() for i in range(hand.count())]
    assert len({round(b["y"]) for b in boxes}) <= 2               # rows of cards in the panel
    panel = page.locator(".st-key-play_input").bounding_box()     # beside the table
    assert all(panel["x"] <= b["x"] and b["x"] + b["width"] <= panel["x"] + panel["width"]
               for b in boxes)
    card = legal.last
    assert card.get_attribute("aria-label").startswith("Play ")   # "Play Blue 3"
    move = third_person(card.get_attribute("aria-label"))    # "plays Blue 3" in the log
    card.hover()
    page.screenshot(path=str(shots / "board-01-kitsu-hand.png"), full_page=True)
    card.click()
    wait_log(page, rf"P0 {re.escape(move)}$")
    settle(page)
    ctx.close()
    # a phone: the hand is a row (or rows) of small cards, not a column of wide ones
    ctx, page = open_app(browser, server, PHONE)
    start_kitsu(page, seed=31)
    hand = page.locator("div[class*='-kcard-hand'] button.blb-piece")
    boxes = [hand.nth(i).bounding_box() for i in range(hand.count())]
    assert all(b["width"] <= 70 for b in boxes)
    assert len({round(b["y"]) for b in boxes}) <= 2
    assert max(b["x"] + b["width"] for b in boxes) <= PHONE["width"]
    page.screenshot(path=str(shots / "board-02-kitsu-phone.png"), full_page=True)
    ctx.close()


def test_katana_target_clicked_on_the_table(browser, server, shots):
    state = katana_state()
    me = state.current_player
    partner = (me + 2) % 4
    ctx, page = open_app(browser, server)
    load_game(page, state, ["human" if p == me else "ai" for p in range(4)])
    target = page.locator(f"div[class*='-katana'] button.blb-place"
                          f"[aria-label$='of P{partner} (your partner)']")
    target.wait_for(timeout=30000)
    target.hover()
    page.get_by_text(re.compile(rf"P{partner} \(your partner\)$")).wait_for(timeout=10000)
    page.screenshot(path=str(shots / "board-03-katana-target.png"), full_page=True)
    key = key_of(target)
    target.click()
    wait_log(page, rf"P{me} destroys .* of P{partner} ")
    page.locator(f".{key}").wait_for(state="detached", timeout=30000)   # the decision is gone
    settle(page)
    page.screenshot(path=str(shots / "board-04-katana-done.png"), full_page=True)
    ctx.close()


def test_kyushu_card_placed_by_clicking_the_map(browser, server, shots):
    state = map_state()
    me = state.current_player
    card = state.observation(me)["selected"][me]
    ctx, page = open_app(browser, server)
    load_game(page, state, ["human" if p == me else "ai" for p in range(2)])
    lit = page.locator("div[class*='-kymap-'] button.blb-place")
    lit.first.wait_for(timeout=30000)
    n_over = lit.count()
    # hover: the card is drawn there (its squares) and the points it makes are named
    square = lit.nth(n_over // 2)
    square.hover()
    page.locator("div[class*='-kymap-'] .blb-preview use").first.wait_for(timeout=10000)
    assert page.locator("div[class*='-kymap-'] .blb-preview use").count() == 6
    # (in the note under the map; the square's tooltip begins with the same words)
    page.locator("div[class*='-kymap-'] .blb-note").get_by_text(
        re.compile(rf"^Place card {card} horizontal at [a-z]+\d+ \(over\): [+-]\d+ points")
    ).wait_for(timeout=10000)
    page.screenshot(path=str(shots / "board-05-kyushu-hover.png"), full_page=True)
    # Rotate beside the map: the lit squares follow the new orientation
    key_before = key_of(lit.first)
    page.get_by_role("button", name="Rotate ↻").click()
    page.locator(f".{key_before}").wait_for(state="detached", timeout=30000)
    settle(page)
    rotation = page.get_by_text(re.compile(r"^(horizontal|vertical)( turned)? · over$"))
    rotation = rotation.first.inner_text().split(" · ")[0]
    assert rotation != "horizontal"                               # a quarter turn at least
    lit = page.locator("div[class*='-kymap-'] button.blb-place")
    lit.first.wait_for(timeout=30000)
    square = lit.last
    where = re.search(r"at ([a-z]+\d+)", square.get_attribute("aria-label")).group(1)
    square.hover()
    page.screenshot(path=str(shots / "board-06-kyushu-rotated.png"), full_page=True)
    key = key_of(square)
    square.click()
    wait_log(page, rf"P{me} places card {card} {rotation} at {where} \(over\)")
    page.locator(f".{key}").wait_for(state="detached", timeout=30000)
    settle(page)
    page.screenshot(path=str(shots / "board-07-kyushu-placed.png"), full_page=True)
    ctx.close()
