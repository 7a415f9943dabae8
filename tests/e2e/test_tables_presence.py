"""Who is at a table, in a real browser: a player who leaves is told so on their page, with
the way back and the way to a game of their own, and the host's page says "left the table"
at once; back at the table they are "here" again; a window closed without a word turns
"away" on the host's page within a minute, though nothing else changed at the table (the
page redraws the seats' presence by itself). Screenshots: test-output/e2e/ ("presence-*")."""
import re

from test_browser import browser, server, settle, shots  # noqa: F401
from test_tables_browser import app_store, link, make_table, open_table  # noqa: F401

from boardlab.streamlit_app.session import HUMAN


def chip(page, seat: int, says: str):
    """The header's chip of ``seat`` once it says ``says``."""
    loc = page.locator(".bl-seat").filter(has_text=re.compile(rf"^P{seat} .* · {says}$"))
    return loc.first


def test_leaving_and_a_closed_window_show_on_the_hosts_page(browser, server, shots, app_store):
    t = make_table(app_store, "kitsu", [HUMAN, HUMAN], seed=5, track_length=3)
    gid = t.game_id
    host_ctx, host = open_table(browser, link(server, gid, t.seat_tokens[0], t.host_token))
    ctx, page = open_table(browser, link(server, gid, t.seat_tokens[1]))
    chip(host, 1, "here").wait_for(timeout=60000)
    page.get_by_role("button", name="Leave this table").click()
    page.get_by_text("You left the table").first.wait_for(timeout=60000)
    page.get_by_role("button", name="Back to the table").wait_for(timeout=10000)
    page.get_by_role("button", name="New game").wait_for(timeout=10000)
    assert f"seat={t.seat_tokens[1]}" in page.locator("[data-testid='stCode']").inner_text()
    chip(host, 1, "left the table").wait_for(timeout=30000)        # told at once
    settle(page)
    page.screenshot(path=str(shots / "presence-01-you-left.png"), full_page=True)
    host.screenshot(path=str(shots / "presence-02-host-sees-left.png"), full_page=True)
    page.get_by_role("button", name="Back to the table").click()
    page.locator(".st-key-play_log").wait_for(timeout=60000)
    chip(host, 1, "here").wait_for(timeout=30000)
    ctx.close()                                     # gone without a word
    chip(host, 1, "away").wait_for(timeout=90000)   # presence is 30 s old, then redrawn
    chip(host, 0, "here").wait_for(timeout=10000)   # the host's own seat keeps saying so
    host.screenshot(path=str(shots / "presence-03-host-sees-away.png"), full_page=True)
    host_ctx.close()
