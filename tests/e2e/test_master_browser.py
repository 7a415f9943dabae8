"""The learned network in a real browser (Chromium): Kitsu with two players, whose network
ships, offers the Master level; at Master the AI answers a move with the guided search; the
Play page's evaluation bar (first the network's reading, then the search's) reaches the
search's reading with the board still there; on Analyse the evaluation bar shows the network's reading before any search, the review graph
draws it as a dashed line, and a search's table has the network's prior beside its visits.
Screenshots go to test-output/e2e/ (names starting "master-").

The browser, the server and the helpers are those of test_browser.py."""
import boardlab
from boardlab.nets import default_path
from test_app_infra import wait_decision
from test_browser import (browser, click_decision, goto_page, log_text, open_app,  # noqa: F401
                          server, settle, shots, start_game)


def test_master_plays_and_analyse_reads_the_network(browser, server, shots):
    assert default_path(boardlab.make("kitsu", players=2)).is_file()   # it ships
    ctx, page = open_app(browser, server)
    page.get_by_text("Master", exact=True).first.wait_for(timeout=30000)
    start_game(page, seed=77, preset="Master")
    assert "learned from self-play" in page.content()       # the level says what it is
    before = log_text(page)
    click_decision(page)
    wait_decision(page, timeout=90000)                        # the AI at Master answered
    assert log_text(page) != before
    page.screenshot(path=str(shots / "master-play.png"), full_page=True)
    page.get_by_text("Evaluation bar", exact=True).click()
    page.locator('.bl-evalbar[data-source="search"]').first.wait_for(timeout=60000)
    assert page.locator(".bl-evalbar").count() == 1
    wait_decision(page)                                       # your choices are still there
    page.screenshot(path=str(shots / "master-play-eval-bar.png"), full_page=True)

    goto_page(page, "Analyse")
    bar = page.locator('.bl-evalbar[data-source="network"]').first
    bar.wait_for(timeout=30000)
    assert "learned network" in bar.get_attribute("title")
    caption = page.get_by_text("the learned network's reading of every decision").first
    caption.wait_for(timeout=30000)
    caption.scroll_into_view_if_needed()
    page.get_by_text("the network's reading (no search)").first.wait_for(timeout=30000)
    settle(page)
    page.screenshot(path=str(shots / "master-analyse-before-search.png"), full_page=True)
    page.get_by_role("button", name="Analyse for P0").click()
    page.get_by_text("Best move for P").wait_for(timeout=60000)
    page.get_by_text("how likely the learned network").first.wait_for(timeout=30000)
    settle(page)
    page.screenshot(path=str(shots / "master-analyse.png"), full_page=True)
    ctx.close()
