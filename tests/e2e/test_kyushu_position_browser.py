"""A Kyūshū position entered from a seat on the Analyse page in a real browser, then analysed.
The facts are read off a random game's observation for that seat (tests/kyushu_facts.py) and
typed into the form. Screenshot: test-output/e2e/kyushu-position-*.png.
The fixtures are copied from test_board_clicks.py (tests/ modules cannot share a conftest by name)."""
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import boardlab  # noqa: E402
from kyushu_facts import facts_of, form_text, play_to_selection  # noqa: E402

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


def choose(page, key: str, option: str):
    page.locator(f".st-key-{key}").click()
    page.get_by_role("option", name=option, exact=True).click()
    settle(page)


def test_a_kyushu_table_entered_from_a_seat_is_analysed(browser, server, shots):
    params, seat = {"players": 3, "travelers": True}, 2
    real = play_to_selection(boardlab.make("kyushu", **params), 5, 8, seat)
    facts = facts_of(real.observation(seat))
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(server + "/")
    page.get_by_role("button", name="Start new game").wait_for(timeout=30000)
    settle(page)
    page.locator('[data-testid="stSidebarNav"]').get_by_text("Analyse", exact=True).click()
    settle(page)
    page.get_by_role("tab", name="From a seat's knowledge").click()
    settle(page)
    choose(page, "seat_game", "Kyūshū")
    choose(page, "seat_ky_players", "3")
    page.locator(".st-key-seat_ky_trav").get_by_text("Travelers").click()
    settle(page)
    choose(page, "seat_ky_seat", f"P{seat}")
    choose(page, "seat_ky_round", str(facts["round"]))
    for name, text in form_text(facts, params["players"]).items():
        box = page.locator(f".st-key-seat_ky_{name}").locator("input:enabled, textarea:enabled")
        if not box.count():
            assert not text, name
            continue
        box.fill(text)
        box.press("Tab")
        settle(page, quiet=0.3)
    page.screenshot(path=str(shots / "kyushu-position-1-form.png"), full_page=True)
    page.get_by_role("button", name="Set up this position").click()
    page.get_by_text(f"Position set up: P{seat} to move").wait_for(timeout=30000)
    settle(page)
    page.get_by_role("button", name=f"Analyse for P{seat}").click()
    page.get_by_text(f"Best move for P{seat}").wait_for(timeout=120000)
    settle(page)
    assert not page.locator('[data-testid="stException"]').count()
    page.screenshot(path=str(shots / "kyushu-position-2-analysed.png"), full_page=True)
    ctx.close()
