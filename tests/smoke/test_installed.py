"""Smoke test of an installed boardlab: what a wheel or an sdist can get wrong and the source
tree cannot show. The files the package needs at run time (game data, the app, the Rules
page's docs), the compiled kernel and search of every game, the `boardlab` entry point and
`--version`, and `boardlab app` serving its Play page.

.ci/run runs this file (with tests/conftest.py, nothing else) from a copy outside the source
tree against the auditwheel-repaired wheel built from the sdist; cibuildwheel runs it against
every wheel it builds. `pytest -q tests` runs it too (a few seconds)."""
import json
import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
from importlib import metadata, resources
from pathlib import Path

import numpy as np
import pytest

import boardlab
from boardlab import search

GAMES = ("kitsu", "kyushu", "keyside", "nukumi")
#: The browser part of test_app_serves_the_play_page is required where this is set (.ci/run);
#: elsewhere (cibuildwheel's build containers have no Chromium) it is skipped without one.
NEED_BROWSER = os.environ.get("BOARDLAB_SMOKE_BROWSER", "") == "1"
CHROMIUM = os.environ.get("BOARDLAB_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def boardlab_command() -> str:
    """The `boardlab` console script installed next to this interpreter."""
    path = Path(sysconfig.get_path("scripts")) / "boardlab"
    assert path.is_file(), f"no boardlab entry point in {path.parent}"
    return str(path)


def test_every_game_is_compiled_in():
    assert set(GAMES) <= set(boardlab.games_available())


@pytest.mark.parametrize("name", GAMES)
def test_package_data_is_installed(name):
    package = resources.files("boardlab")
    data = package / "data" / f"{name}.json"
    assert data.is_file(), f"{data} missing"
    json.loads(data.read_text(encoding="utf-8"))
    doc = package / "docs" / f"{name}.md"            # the app's Rules page
    assert doc.is_file(), f"{doc} missing"
    assert doc.read_text(encoding="utf-8").startswith("#")


@pytest.mark.parametrize("name, params, mix", [("kitsu", {"players": 2}, None),
                                               ("kitsu", {"players": 4}, None),
                                               ("kyushu", {"players": 2}, 0.5),
                                               ("keyside", {"players": 2}, 0.5),
                                               ("nukumi", {"players": 2}, 0.5),
                                               ("nukumi", {"players": 1, "solo": "chasing"}, 0.5),
                                               ("nukumi", {"players": 1, "solo": "score_attack"},
                                                0.5)])
def test_the_shipped_network_is_installed_and_guides_a_search(name, params, mix):
    """net=default reads the network file the wheel carries, with the settings it shipped
    with (docs/learning.md, what ships)."""
    from boardlab import nets
    game = boardlab.make(name, **params)
    assert nets.default_settings(game).get("mix") == mix
    state = game.new_initial_state(seed=3)
    while state.is_chance() or len(state.legal_actions()) < 2:
        state.apply(int(state.chance_outcomes()[0][0]) if state.is_chance()
                    else int(state.legal_actions()[0]))
    result = search.ismcts(state, iterations=200, seed=1, net="default")
    assert sum(row["prior"] for row in result.stats) == pytest.approx(1.0, abs=1e-4)


def test_the_shipped_networks_are_as_their_manifest_says():
    """Every file the wheel carries matches its manifest entry and the kernel takes it for
    every configuration the entry claims; no network file is left unlisted."""
    from boardlab.nets import check, loader
    assert check.faults(loader.NETS_DIR) == []


def test_app_sources_are_installed():
    app = resources.files("boardlab") / "streamlit_app"
    for part in ("main.py", "views/play.py", "views/analyse.py", "views/tree.py", "views/rules.py"):
        assert (app / part).is_file(), f"{part} missing from the installed app"


@pytest.mark.parametrize("name", GAMES)
def test_each_game_makes_searches_and_plays_to_the_end(name):
    state = boardlab.make(name, seed=3).new_initial_state()
    rng = np.random.default_rng(3)
    searched = False
    for _ in range(100_000):
        if state.is_terminal():
            break
        if state.is_chance():
            actions, probs = zip(*state.chance_outcomes())
            state.apply(int(rng.choice(actions, p=np.array(probs) / sum(probs))))
            continue
        if not searched:                                  # the compiled search, once
            result = search.ismcts(state, iterations=50, seed=1)
            assert result.best_action in state.legal_actions()
            searched = True
        state.apply(int(rng.choice(state.legal_actions())))
    assert state.is_terminal() and searched
    assert np.all(np.isfinite(state.returns()))


@pytest.mark.parametrize("launcher", ["entry point", "python -m"])
def test_version(launcher):
    cmd = [boardlab_command()] if launcher == "entry point" else [sys.executable, "-m", "boardlab"]
    out = subprocess.run(cmd + ["--version"], capture_output=True, text=True, check=True).stdout
    assert out.strip() == f"boardlab {metadata.version('boardlab')}" == f"boardlab {boardlab.__version__}"


def test_entry_point_plays_a_match():
    out = subprocess.run([boardlab_command(), "arena", "nukumi", "--players", "2", "--agents",
                          "random", "greedy", "--games", "2", "--json"],
                         capture_output=True, text=True, check=True).stdout
    result = json.loads(out)
    assert sum(result["wins"]) + result["draws"] == 2


def test_rules_page_reads_the_installed_docs():
    from streamlit.testing.v1 import AppTest
    from boardlab.streamlit_app import MAIN_SCRIPT
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=120)
    at.run()
    at.switch_page("views/rules.py").run()
    for name in GAMES:
        at.selectbox(key="rules_game").set_value(name).run()
        assert not at.exception, at.exception
        assert not at.warning, [w.value for w in at.warning]     # "No rules page is shipped"
        assert "rules as implemented" in " ".join(m.value for m in at.markdown)


#: Opens the app at argv[1] in Chromium (argv[2]) and waits for the Play page's form.
OPEN_PLAY_PAGE = """
import sys
from playwright.sync_api import sync_playwright
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=sys.argv[2], args=["--no-sandbox", "--disable-gpu"])
    page = browser.new_page()
    page.goto(sys.argv[1] + "/")
    page.get_by_role("button", name="Start new game").wait_for(timeout=120_000)
    assert page.locator('[data-testid="stException"]').count() == 0, "the Play page shows an error"
    browser.close()
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_app_serves_the_play_page(tmp_path):
    """`boardlab app` from an empty folder: the server's health check, then (with Chromium)
    the Play page in a browser, down to its "Start new game" button."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = open(tmp_path / "app.log", "w")
    proc = subprocess.Popen([boardlab_command(), "app", "--port", str(port), "--host", "127.0.0.1"],
                            cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    try:
        for _ in range(1500):                   # up to 5 minutes on a crowded machine
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            assert proc.poll() is None, (tmp_path / "app.log").read_text()[-3000:]
            time.sleep(0.2)
        else:
            pytest.fail("the app did not answer its health check:\n"
                        + (tmp_path / "app.log").read_text()[-3000:])
        with urllib.request.urlopen(url + "/", timeout=10) as r:
            assert r.status == 200 and b'id="root"' in r.read()
        try:
            import playwright.sync_api  # noqa: F401
            have_playwright = True
        except ImportError:
            have_playwright = False
        if not have_playwright or not os.path.exists(CHROMIUM):
            if NEED_BROWSER:
                pytest.fail(f"BOARDLAB_SMOKE_BROWSER=1 but no Playwright or no Chromium at {CHROMIUM}")
            pytest.skip("the Play page in a browser needs Playwright and Chromium")
        # In its own process: a test process may already run a sync Playwright (tests/e2e's
        # shared browser), and two cannot run in one process.
        subprocess.run([sys.executable, "-c", OPEN_PLAY_PAGE, url, CHROMIUM], check=True)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
