"""A table whose seats are on two `boardlab app` servers sharing one PostgreSQL (as behind a
load balancer): a 4-player Kitsu table, P0's browser on one server, P1's on the other, the
AI seats played by the servers' workers. One server tells its pages of changes (the table
watcher), the other's pages poll (BOARDLAB_LIVE=poll): each seat's move shows in the other's
browser, on the other server; every decision is in the record once; and neither server's
log (at debug level) holds a seat or host token. Needs $BOARDLAB_TEST_POSTGRES (CI starts
a server).

The browser and the servers are those of test_browser.py and test_app_servers.py."""
import pytest

from test_app_servers import shared_db, start_server, stop_servers  # noqa: F401
from test_browser import browser, settle, shots  # noqa: F401
from test_tables_browser import (click_first, log_text, make_table, next_mover, open_table,
                         record_of, wait_change)

import boardlab
from boardlab.streamlit_app.session import AI, HUMAN, actors
from boardlab.streamlit_app.store import GameStore


@pytest.fixture
def two_servers(shared_db, tmp_path, monkeypatch):
    """Server a (pages told of changes) and server b (pages polling), logging at debug
    level (Streamlit's setting, by its environment variable)."""
    monkeypatch.setenv("STREAMLIT_LOGGER_LEVEL", "debug")
    procs, urls = [], []
    try:
        for name in ("a", "b"):
            if name == "b":
                monkeypatch.setenv("BOARDLAB_LIVE", "poll")
            (tmp_path / name).mkdir()
            proc, url = start_server(shared_db, tmp_path / name)
            procs.append(proc)
            urls.append(url)
        yield urls
    finally:
        stop_servers(procs)


def test_a_table_with_seats_on_two_servers(browser, two_servers, shared_db, tmp_path, shots):
    url_a, url_b = two_servers
    store = GameStore(tmp_path / "store", url=shared_db)
    try:
        t = make_table(store, "kitsu", [HUMAN, HUMAN, AI, AI], seed=44, names=["Ann", "Bob"],
                       track_length=3)
        gid = t.game_id
        (ca, a) = open_table(browser, f"{url_a}/?game={gid}&seat={t.seat_tokens[0]}"
                                      f"&host={t.host_token}")
        (cb, b) = open_table(browser, f"{url_b}/?game={gid}&seat={t.seat_tokens[1]}")
        pages = [a, b]
        for _ in range(5):
            mover = next_mover(pages)
            other = pages[1 - mover]
            settle(other)
            before = log_text(other)
            click_first(pages[mover])
            wait_change(other, before)          # shown on the other server's page
        settle(a)
        settle(b)
        a.screenshot(path=str(shots / "table-servers-a.png"), full_page=True)
        assert not any(p.locator('[data-testid="stException"]').count() for p in pages)
        rec = record_of(store, gid)
        who = [p for p in actors(boardlab.replay(rec)) if p >= 0]
        assert who.count(2) and who.count(3)    # the AI seats moved, on one server or other
        assert store.version(gid) - 1 == len(who)   # one commit per decision: none twice
        ca.close()
        cb.close()
    finally:
        store.close()
    logs = [(tmp_path / name / "streamlit.log").read_text() for name in ("a", "b")]
    assert all("AppSession initialized" in text for text in logs)   # debug lines are there
    for token in [t.host_token, *t.seat_tokens.values()]:
        assert not any(token in text for text in logs)
