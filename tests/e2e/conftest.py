"""End-to-end fixtures: `boardlab app` on a free port and headless Chromium via Playwright.

The browser is the Debian `chromium` (never `playwright install`). These tests skip only
outside CI when Chromium or Playwright is missing; in CI (CI=true) that is a failure.
"""
import os
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


@pytest.fixture(scope="session")
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


@pytest.fixture(scope="session")
def server(tmp_path_factory, browser):
    """`boardlab app` started from outside the source tree; yields its base URL."""
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
        yield url
    finally:
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
