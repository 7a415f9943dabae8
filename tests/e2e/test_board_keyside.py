"""Keyside in a real browser (headless Chromium): a whole 2-player game and a whole solo game
against Keytoma, the first year played by clicking (dice set with buttons, boats sent and
keyples moved by clicking places on the island, the rest with buttons), then "Let the AI finish
the game". Screenshots go to test-output/e2e/keyside-*.png.

The fixtures are copied from test_board_clicks.py. Their Playwright instance lives for this
module only, and this module must run before test_browser.py, whose session-wide instance
would stay open (Playwright's sync API allows one at a time): hence the file's name."""
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("BOARDLAB_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
OUT = Path(__file__).resolve().parents[2] / "test-output" / "e2e"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
DESKTOP = {"width": 1440, "height": 1400}
PHONE = {"width": 390, "height": 844}


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    if not os.path.exists(CHROMIUM):
        return f"chromium not found at {CHROMIUM}"
    return None


@pytest.fixture(scope="module")
def browser():
    why = _missing()
    if why:
        if IN_CI:
            pytest.fail(f"end-to-end tests need a browser in CI: {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory, browser):
    """`boardlab app` started from outside the source tree; yields its base URL."""
    port = _free_port()
    cwd = tmp_path_factory.mktemp("board_app")
    log = open(cwd / "streamlit.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "boardlab", "app", "--port", str(port),
                             "--host", "127.0.0.1"], cwd=cwd, stdout=log,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.time() > deadline:
                log.flush()
                raise RuntimeError("the app did not start:\n"
                                   + (cwd / "streamlit.log").read_text()[-3000:])
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def shots():
    OUT.mkdir(parents=True, exist_ok=True)
    return OUT


def settle(page, timeout=60.0, quiet=0.7):
    """Wait until the app has not been running for ``quiet`` seconds."""
    deadline = time.time() + timeout
    since = None
    while time.time() < deadline:
        running = page.locator('[data-testid="stStatusWidgetRunningIcon"]').count() > 0
        if running:
            since = None
        elif since is None:
            since = time.time()
        elif time.time() - since >= quiet:
            return
        time.sleep(0.1)
    raise AssertionError("the app kept running")


def key_of(locator) -> str:
    """The st-key-* class of the keyed element holding ``locator``."""
    return locator.evaluate(
        "b => [...b.closest('[class*=\"st-key-\"]').classList].find(c => c.startsWith('st-key-'))")


def log_text(page) -> str:
    return page.locator(".st-key-play_log").inner_text()


DECISION = ('div[class*="_act_"] button:not([disabled]), '
            'div[class*="-island"] button.blb-place')


def start_keyside(page, players_label: str, seed: int):
    page.locator('[data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name="Keyside").click()
    settle(page)
    if players_label != "2":
        page.get_by_label("Players").click()
        page.get_by_role("option", name=players_label).click()
        settle(page)
    page.get_by_text("Beginner", exact=True).first.click()
    seed_box = page.get_by_label("Seed (same seed, same deals)")
    seed_box.fill(str(seed))
    seed_box.press("Enter")
    settle(page)
    page.get_by_role("button", name="Start new game").click()
    page.locator(DECISION).first.wait_for(timeout=60000)
    settle(page)


def play_first_year(page, shots, name: str) -> dict:
    """Click decisions until year 2 begins: a lit place on the island when there is one (every
    other time, to use both), else a decision button. Returns counts of what was clicked."""
    clicked = {"island": 0, "button": 0}
    deadline = time.time() + 600
    shot_place = False
    while "Year 2 begins" not in log_text(page):
        assert time.time() < deadline, f"year 1 not over after {clicked}"
        assert not page.get_by_text("Game over:").count()
        places = page.locator('div[class*="-island"] button.blb-place')
        buttons = page.locator('div[class*="_act_"] button:not([disabled])')
        if places.count() and (not buttons.count() or clicked["island"] <= clicked["button"]):
            target = places.nth(clicked["island"] % places.count())
            target.hover()
            if not shot_place:
                page.screenshot(path=str(shots / f"keyside-{name}-2-island-choice.png"), full_page=True)
                shot_place = True
            what = "island"
        elif buttons.count():
            target = buttons.first
            what = "button"
        else:
            page.locator(DECISION).first.wait_for(timeout=60000)
            continue
        key = key_of(target)
        target.click()
        clicked[what] += 1
        page.locator(f".{key}").first.wait_for(state="detached", timeout=60000)
        settle(page, quiet=0.4)
    return clicked


@pytest.mark.parametrize("name,players_label,seed", [("2p", "2", 11),
                                                     ("solo", "1 (solo against Keytoma)", 12)])
def test_keyside_whole_game_first_year_by_clicking_then_the_ai_finishes(browser, server, shots,
                                                                        name, players_label, seed):
    ctx = browser.new_context(viewport={"width": 1440, "height": 2200})
    page = ctx.new_page()
    page.goto(server + "/")
    page.get_by_role("button", name="Start new game").wait_for(timeout=30000)
    settle(page)
    start_keyside(page, players_label, seed)
    page.screenshot(path=str(shots / f"keyside-{name}-1-start.png"), full_page=True)
    clicked = play_first_year(page, shots, name)
    assert clicked["island"] >= 3 and clicked["button"] >= 6, clicked
    page.screenshot(path=str(shots / f"keyside-{name}-3-year-2.png"), full_page=True)
    page.get_by_role("button", name="Let the AI finish the game").click()
    page.get_by_text("Game over:").wait_for(timeout=600000)
    settle(page)
    text = page.get_by_text("Game over:").inner_text()
    if name == "solo":
        assert re.search(r"(you win|Keytoma wins) .* \d+ points, \d beacons? lit", text), text
    else:
        assert re.search(r"P0 \d+, P1 \d+ points", text), text
    page.screenshot(path=str(shots / f"keyside-{name}-4-game-over.png"), full_page=True)
    ctx.close()
