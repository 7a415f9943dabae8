"""The app in a real browser: a whole 2-player Kitsu game against the AI by clicking, the
analysis and the search tree, and two browser contexts that stay independent.
Screenshots go to test-output/e2e/.

The browser is the Debian `chromium` (never `playwright install`). These tests skip only
outside CI when Chromium or Playwright is missing; in CI (CI=true) that is a failure.
(The fixtures live here, not in a conftest.py: tests/ modules import the top-level conftest
by name.)"""
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


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    if not os.path.exists(CHROMIUM):
        return f"chromium not found at {CHROMIUM}"
    return None


# One browser and one server for the whole session, also for the modules that import these
# fixtures (pytest makes a fixture per importing module; two sync Playwrights cannot run).
_SHARED: dict = {}


@pytest.fixture(scope="session")
def browser():
    if "browser" in _SHARED:
        yield _SHARED["browser"]
        return
    why = _missing()
    if why:
        if IN_CI:
            pytest.fail(f"end-to-end tests need a browser in CI: {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        _SHARED["browser"] = b
        try:
            yield b
        finally:
            _SHARED.pop("browser", None)
            b.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server(tmp_path_factory, browser):
    """`boardlab app` started from outside the source tree; yields its base URL."""
    if "server" in _SHARED:
        yield _SHARED["server"]
        return
    port = _free_port()
    cwd = tmp_path_factory.mktemp("app")
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
        _SHARED["server"] = url
        yield url
    finally:
        _SHARED.pop("server", None)
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def shots():
    OUT.mkdir(parents=True, exist_ok=True)
    return OUT

DECISION = ('div[class*="kcard"] button:not([disabled]), '
            'div[class*="_act_"] button:not([disabled]), div[class*="-kysq"] button.blb-place')
VIEWPORT = {"width": 1440, "height": 1100}
NAV = '[data-testid="stTopNav"], [data-testid="stSidebarNav"]'   # on top; a phone's menu


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
    return locator.evaluate(
        "b => [...b.closest('[class*=\"st-key-\"]').classList].find(c => c.startsWith('st-key-'))")


def open_app(browser, url, viewport=VIEWPORT):
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    page.goto(url + "/")
    page.get_by_role("button", name="Start new game").wait_for(timeout=30000)
    settle(page)
    return ctx, page


def start_game(page, seed: int, preset="Beginner", decision=DECISION, timeout=30000):
    """Start a game of the game chosen in the form with this preset and seed; wait for the
    first decision (``decision``: its selector)."""
    page.get_by_text(preset, exact=True).first.click()
    seed_box = page.get_by_label("Seed (same seed, same deals)")
    seed_box.fill(str(seed))
    seed_box.press("Enter")
    settle(page)
    page.get_by_role("button", name="Start new game").click()
    page.locator(decision).first.wait_for(timeout=timeout)
    settle(page)


def goto_page(page, title: str):
    page.locator(NAV).get_by_text(title, exact=True).click()
    settle(page)


def test_play_a_whole_game_analyse_and_tree(browser, server, shots):
    ctx, page = open_app(browser, server)
    start_game(page, seed=2024)
    page.screenshot(path=str(shots / "01-new-game.png"), full_page=True)
    moves = 0
    deadline = time.time() + 240
    while time.time() < deadline:
        if page.get_by_text("Game over:").count():
            break
        button = page.locator(DECISION).first
        try:
            button.wait_for(timeout=15000)
        except Exception:                       # noqa: BLE001 - maybe the game just ended
            settle(page)
            continue
        key = key_of(button)
        button.click()
        moves += 1
        page.locator(f".{key}").wait_for(state="detached", timeout=30000)
        settle(page, quiet=0.4)
        if moves == 3:
            page.screenshot(path=str(shots / "02-mid-game.png"), full_page=True)
        if moves == 2:
            page.get_by_text("Show all hands", exact=True).click()
            settle(page)
            page.screenshot(path=str(shots / "03-show-all-hands.png"), full_page=True)
            page.get_by_text("Show all hands", exact=True).click()
            settle(page)
    assert page.get_by_text("Game over:").count(), f"game not over after {moves} moves"
    assert re.search(r"the (Blue|Orange) clan \(P\d\) wins", page.content())
    page.screenshot(path=str(shots / "04-game-over.png"), full_page=True)
    assert moves >= 3

    # --- analysis of the finished game -------------------------------------------------------
    goto_page(page, "Analyse")
    slider = page.locator('[data-testid="stSlider"] input[type="range"]').first
    slider.focus()
    slider.press("Home")
    slider.press("ArrowRight")
    settle(page)
    page.get_by_text(re.compile(r"^Decision 1 of \d+")).wait_for(timeout=30000)
    page.get_by_role("button", name=re.compile(r"^Analyse for P\d")).click()
    page.get_by_text("Best move for P").wait_for(timeout=60000)
    page.get_by_text("Principal variation").wait_for(timeout=30000)    # drawn after the best move
    settle(page)
    page.screenshot(path=str(shots / "05-analyse.png"), full_page=True)

    # --- the tree of that search -------------------------------------------------------------
    goto_page(page, "Search tree")
    page.get_by_text("Go deeper").wait_for(timeout=30000)
    page.locator('[data-testid="stPlotlyChart"]').first.wait_for(timeout=30000)
    time.sleep(1)
    page.screenshot(path=str(shots / "06-tree.png"), full_page=True)
    child = page.locator('div[class*="st-key-tr_child_0_"] button').first
    child.click()
    page.locator('div[class*="st-key-tr_child_1_"] button, div.st-key-tr_up').first.wait_for(
        timeout=30000)
    settle(page)
    assert page.get_by_text(re.compile(r"^Focus:")).count() or "Focus:" in page.content()
    page.screenshot(path=str(shots / "07-tree-drilled.png"), full_page=True)

    goto_page(page, "Rules")
    page.get_by_text("Stand-in components").first.wait_for(timeout=30000)
    ctx.close()


def caption_seed(page) -> str:
    m = re.search(r"seed (\d+) —", page.content())
    return m.group(1) if m else ""


def log_text(page) -> str:
    return page.locator(".st-key-play_log").inner_text()


def pointer_off(page):
    """The pointer off the page's controls, and no tooltip open: one it opened where it last
    clicked (Kitsu's No-advance switch moves under it after a rerun) can cover the next
    button (loaded runs timed out so)."""
    page.mouse.move(0, 0)
    page.locator('[data-testid="stTooltipContent"]').first.wait_for(state="hidden", timeout=10000)


def click_decision(page):
    button = page.locator(DECISION).first
    button.wait_for(timeout=30000)
    pointer_off(page)
    key = key_of(button)
    button.click()
    page.locator(f".{key}").wait_for(state="detached", timeout=30000)
    settle(page)


def test_two_browser_contexts_are_independent(browser, server, shots):
    ctx_a, a = open_app(browser, server)
    ctx_b, b = open_app(browser, server)
    start_game(a, seed=111)
    start_game(b, seed=222)
    assert caption_seed(a) == "111" and caption_seed(b) == "222"
    log_b0 = log_text(b)
    click_decision(a)
    log_a1 = log_text(a)
    click_decision(b)
    log_b1 = log_text(b)
    # B's game went on from its own start, A's moves never appear in it, and vice versa
    assert log_b1.startswith(log_b0.strip().splitlines()[0]) and log_b1 != log_b0
    assert caption_seed(b) == "222"
    toggle = a.get_by_text("Show all hands", exact=True)
    toggle.click()                              # a rerun of A's session
    settle(a)
    assert log_text(a) == log_a1 and caption_seed(a) == "111"
    toggle.click()
    settle(a)
    a.screenshot(path=str(shots / "08-context-a.png"), full_page=True)
    b.screenshot(path=str(shots / "09-context-b.png"), full_page=True)
    ctx_a.close()
    ctx_b.close()



# --- Kyushu --------------------------------------------------------------------------------
KY_ROUNDS_BY_CLICKING = 4
KY_VIEWPORT = {"width": 1440, "height": 2000}   # the maps, the input and the preview in one shot


def round_of(page) -> int:
    m = re.search(r"Round (\d+) of 12", page.content())
    return int(m.group(1)) if m else 0


# Slow (.ci/run runs it): Kyūshū's map clicks are test_board_clicks.py's and its first twenty
# decisions test_tables_generic.py's, "Let the AI finish" test_app_infra.py's.
@pytest.mark.slow
def test_kyushu_rounds_by_clicking_then_the_ai_finishes(browser, server, shots):
    """A 2-player Kyushu game against the AI: several rounds by clicking (selection, pay,
    replacement, a position clicked on the map after its hover preview),
    then the visible "Let the AI finish the game" control plays it out (a whole game by
    clicking is about 55 human decisions: too slow for CI on 2 cores)."""
    ctx = browser.new_context(viewport=KY_VIEWPORT)
    page = ctx.new_page()
    page.goto(server + "/")
    page.get_by_role("button", name="Start new game").wait_for(timeout=30000)
    settle(page)
    page.locator('[data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name="Kyūshū").click()
    settle(page)
    page.get_by_text("Most/Fewest scoring cards").click()
    settle(page)
    page.get_by_text("Travelers", exact=True).click()
    settle(page)
    start_game(page, seed=4242)
    page.screenshot(path=str(shots / "10-kyushu-new-game.png"))
    clicks, previews, mid_shot = 0, 0, False
    deadline = time.time() + 240
    while round_of(page) <= KY_ROUNDS_BY_CLICKING and time.time() < deadline:
        assert not page.get_by_text("Game over:").count()
        lit = page.locator('div[class*="-kymap-"] button.blb-place')
        if lit.count():
            # a placement: hover a lit square of the map (the card is previewed there), click it
            button = lit.nth(min(2, lit.count() - 1))
            button.hover()
            page.locator('div[class*="-kymap-"] .blb-preview use').first.wait_for(timeout=10000)
            previews += 1
            if previews == 2:
                page.screenshot(path=str(shots / "11-kyushu-placement-preview.png"))
        else:
            button = page.locator(DECISION).first
        button.wait_for(timeout=30000)
        key = key_of(button)
        button.click()
        clicks += 1
        page.locator(f".{key}").wait_for(state="detached", timeout=30000)
        settle(page, quiet=0.4)
        if round_of(page) >= 3 and not mid_shot:
            page.screenshot(path=str(shots / "12-kyushu-mid-game.png"))
            mid_shot = True
    assert round_of(page) > KY_ROUNDS_BY_CLICKING, f"stuck in round {round_of(page)} after {clicks} clicks"
    assert previews >= KY_ROUNDS_BY_CLICKING
    log = page.locator(".st-key-play_log").inner_text()
    assert "P0 place" in log and "P1 takes their Map turn" in log or "P1 placed" in log
    page.get_by_role("button", name="Let the AI finish the game").click()
    page.get_by_text("Game over:").wait_for(timeout=180000)
    page.get_by_text("Final scores").wait_for(timeout=30000)
    settle(page)
    assert re.search(r"Game over: (P\d wins with \d+ points|a tie|P\d and P\d share)", page.content())
    page.screenshot(path=str(shots / "13-kyushu-game-over.png"))
    ctx.close()
