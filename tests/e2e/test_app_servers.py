"""Two `boardlab app` servers on different ports sharing one PostgreSQL (BOARDLAB_DB), as
behind a load balancer: a game started on one is opened by its link on the other, each
server's move shows on the other, and a click on a stale page of one server after the
other moved is not applied (the page takes the game as it stands). Needs
$BOARDLAB_TEST_POSTGRES (CI starts a server); skipped without it outside CI.

The browser and the helpers are those of test_browser.py."""
import os
import re
import secrets
import subprocess
import sys
import time
import urllib.request

import pytest
from test_browser import (DECISION, IN_CI, _free_port, browser, click_decision,  # noqa: F401
                          log_text, open_app, settle, shots, start_game)

PG_ENV = "BOARDLAB_TEST_POSTGRES"


@pytest.fixture
def shared_db():
    """A fresh schema in the test PostgreSQL, as a BOARDLAB_DB URL."""
    base = os.environ.get(PG_ENV)
    if not base:
        if IN_CI:
            pytest.fail(f"CI must run the two-server test on PostgreSQL: set {PG_ENV}")
        pytest.skip(f"{PG_ENV} is not set")
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url
    name = "e2e_" + secrets.token_hex(6)
    admin = sa.create_engine(make_url(base).set(drivername="postgresql+psycopg"))
    with admin.begin() as c:
        c.execute(sa.text(f"CREATE SCHEMA {name}"))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={name}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as c:
            c.execute(sa.text(f"DROP SCHEMA {name} CASCADE"))
        admin.dispose()


def stop_servers(procs) -> None:
    for proc in procs:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def start_server(db_url, cwd):
    port = _free_port()
    env = dict(os.environ, BOARDLAB_DB=db_url, BOARDLAB_DATA_DIR=str(cwd / "data"))
    log = open(cwd / "streamlit.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "boardlab", "app", "--port", str(port),
                             "--host", "127.0.0.1"], cwd=cwd, env=env, stdout=log,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while True:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return proc, url
        except OSError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            raise RuntimeError("the app did not start:\n" + (cwd / "streamlit.log").read_text()[-3000:])
        time.sleep(0.3)


@pytest.fixture
def two_servers(shared_db, tmp_path):
    procs = []
    try:
        urls = []
        for name in ("a", "b"):
            (tmp_path / name).mkdir()
            proc, url = start_server(shared_db, tmp_path / name)
            procs.append(proc)
            urls.append(url)
        yield urls
    finally:
        stop_servers(procs)


def game_id(page) -> str:
    m = re.search(r"[?&]game=([A-Za-z0-9_-]+)", page.url)
    assert m, f"no game id in {page.url}"
    return m.group(1)


def rerun(page):
    """A full run of the page, without reloading it: the hint's search budget changed and
    changed back (a setting that changes nothing on the table; "Show all hands" would mark
    the game as peeked at)."""
    page.locator(".st-key-play_analysis_box button").first.click()
    for budget in ("5,000 iterations", "2,000 iterations"):
        page.get_by_text(budget, exact=True).click()
        settle(page)
    page.keyboard.press("Escape")
    settle(page)


def test_two_servers_share_one_game(browser, two_servers, shots):
    url_a, url_b = two_servers
    ctx_a, a = open_app(browser, url_a)
    start_game(a, seed=424)
    click_decision(a)
    gid, log_a = game_id(a), log_text(a)

    ctx_b = browser.new_context()
    b = ctx_b.new_page()
    b.goto(f"{url_b}/?game={gid}")                           # the link, on the other server
    b.locator(DECISION).first.wait_for(timeout=30000)
    settle(b)
    assert log_text(b) == log_a
    click_decision(b)                                        # B moves
    log_b = log_text(b)
    assert log_b != log_a

    rerun(a)                                                 # A's next run takes B's move
    assert log_text(a) == log_b
    click_decision(a)                                        # and A moves on from there
    log_a2 = log_text(a)
    assert log_a2.startswith(log_b.rstrip()) and log_a2 != log_b

    click_decision(b)                                        # a click on B's stale page
    settle(b)
    assert log_text(b) == log_a2                             # not applied: B shows A's move
    b.screenshot(path=str(shots / "servers-01-stale-click.png"), full_page=True)
    b.reload()
    b.locator(DECISION).first.wait_for(timeout=30000)
    settle(b)
    assert log_text(b) == log_a2 and game_id(b) == gid
    ctx_a.close()
    ctx_b.close()
