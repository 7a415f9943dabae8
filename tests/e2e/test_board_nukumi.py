"""Nukumi in a real browser: a whole Score Attack game played by clicking (moves on the map's
squares, the rest by buttons), and a 2-player game whose first round is played by clicking
before "Let the AI finish the game". Screenshots go to test-output/e2e/nukumi-*.png.

The browser and the app server are test_browser.py's session fixtures (Playwright's sync API
allows one instance at a time in a process)."""
import re
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
DESKTOP = {"width": 1440, "height": 1400}
OUT = Path(__file__).resolve().parents[2] / "test-output" / "e2e"

# One browser and one app server for every e2e module (Playwright's sync API allows one
# instance at a time in a process): test_browser's session fixtures.
from test_browser import browser, server, settle, shots, start_game  # noqa: E402,F401
from test_browser import open_app as open_app_at  # noqa: E402


def open_app(browser, url, viewport=DESKTOP):
    return open_app_at(browser, url, viewport)


def key_of(locator) -> str:
    """The st-key-* class of the keyed element holding ``locator``."""
    return locator.evaluate(
        "b => [...b.closest('[class*=\"st-key-\"]').classList].find(c => c.startsWith('st-key-'))")


MAP = 'div[class*="-map"] button.blb-place'
BUTTON = 'div[class*="_act_"] button:not([disabled])'


def start_nukumi(page, players: int, seed: int, solo: str | None = None, advanced=False):
    page.locator('[data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name="Nukumi Onsen").click()
    settle(page)
    if advanced:
        page.get_by_text("Advanced rules (face-up Helpers and action cards)").click()
        settle(page)
    if players != 2:
        box = page.locator('.st-key-ng_nk_players [data-testid="stSelectbox"]')
        box.click()
        page.get_by_role("option", name=str(players), exact=True).click()
        settle(page)
    if solo:
        page.locator('.st-key-ng_nk_solo [data-testid="stSelectbox"]').click()
        page.get_by_role("option", name=solo).click()
        settle(page)
    start_game(page, seed, decision=f"{MAP}, {BUTTON}", timeout=60000)


def round_of(page) -> int:
    m = re.search(r"Round (\d+) of 5", page.content())
    return int(m.group(1)) if m else 0


def one_decision(page) -> str:
    """Click a lit map square if the map is live, else a move action (for the map), else
    `end turn` after the action (the free actions it offers could wait), else the first button
    that is not 'pass' (a pass only when it is the only choice). Returns what was clicked."""
    lit = page.locator(MAP)
    if lit.count():
        target = lit.nth(lit.count() // 2)
        what = "square " + (target.get_attribute("aria-label") or "")
        target.hover()
        if not (OUT / "nukumi-02-map-lit.png").exists() and lit.count() >= 2:
            page.screenshot(path=str(OUT / "nukumi-02-map-lit.png"), full_page=True)
    else:
        buttons = page.locator(BUTTON)
        buttons.first.wait_for(timeout=60000)
        labels = [buttons.nth(i).inner_text().strip() for i in range(buttons.count())]
        pick = next((i for i, t in enumerate(labels) if t.startswith("move (") or t == "end turn"),
                    next((i for i, t in enumerate(labels) if t != "pass"), 0))
        target, what = buttons.nth(pick), labels[pick]
    key = key_of(target)
    target.click()
    try:
        page.locator(f".{key}").wait_for(state="detached", timeout=60000)
    except Exception:
        page.screenshot(path=str(OUT / "nukumi-stuck.png"), full_page=True)
        raise AssertionError(f"the decision {what!r} ({key}) stayed on screen")
    settle(page, quiet=0.4)
    return what


def test_score_attack_whole_game_by_clicking(browser, server, shots):
    ctx, page = open_app(browser, server)
    start_nukumi(page, 1, seed=11, solo="Score Attack (Solo 1)")
    page.screenshot(path=str(shots / "nukumi-01-score-attack-start.png"), full_page=True)
    clicked, squares, shot_map, rounds, npcs_ringed = [], 0, False, {1}, False
    while not page.get_by_text("Game over:").count():
        what = one_decision(page)
        clicked.append(what)
        if what.startswith("square"):
            squares += 1
            if not shot_map:
                page.screenshot(path=str(shots / "nukumi-03-score-attack-moved.png"), full_page=True)
                shot_map = True
        legend = page.locator(".nk-legend")
        if legend.count() and "NPC n" in legend.inner_text():
            npcs_ringed = True           # the NPCs' moves at a round's start, ringed on the map
        r = round_of(page)
        if r not in rounds:              # each new round as the player meets it
            rounds.add(r)
            page.screenshot(path=str(shots / f"nukumi-04-score-attack-round-{r}.png"), full_page=True)
        assert len(clicked) < 400, f"no end after {len(clicked)} clicks: {clicked[-20:]}"
    settle(page)
    assert squares >= 3, clicked
    assert rounds == {1, 2, 3, 4, 5} and npcs_ringed
    assert re.search(r"Game over: \d+ points — [A-Za-z ]+ Pioneer\.", page.content())
    page.screenshot(path=str(shots / "nukumi-05-score-attack-over.png"), full_page=True)
    ctx.close()


def test_two_players_first_round_by_clicking_then_the_ai_finishes(browser, server, shots):
    ctx, page = open_app(browser, server)
    start_nukumi(page, 2, seed=21)
    page.screenshot(path=str(shots / "nukumi-06-2p-start.png"), full_page=True)
    assert not page.locator("svg .nk-recent").count()        # nothing changed yet
    clicks, ringed, ended = 0, False, 0
    while round_of(page) == 1:
        ended += one_decision(page) == "end turn"     # after an action with resources left
        clicks += 1
        assert clicks < 200
        legend = page.locator(".nk-legend")
        if not ringed and legend.count() and "P1 moved to" in legend.inner_text():
            # P1's pioneer moved since my last decision: its square is ringed on the map
            assert page.locator("svg .nk-recent").count() >= 1
            page.screenshot(path=str(shots / "nukumi-06b-2p-p1-moved-ringed.png"), full_page=True)
            ringed = True
    assert round_of(page) == 2 and clicks >= 2 and ringed and ended
    log = page.locator(".st-key-play_log").inner_text()
    assert re.search(r"^\d+\. P1 ", log, re.M) and re.search(r"^\d+\. P0 ", log, re.M)
    assert "P1 draws a Helper" in log and not re.search(r"P1 draws S-\d\d", log)
    page.screenshot(path=str(shots / "nukumi-07-2p-round-2.png"), full_page=True)
    page.get_by_role("button", name="Let the AI finish the game").click()
    page.get_by_text("Game over:").wait_for(timeout=600000)
    settle(page)
    assert re.search(r"Game over: P\d(, P\d)* wins? with \d+ points", page.content())
    page.screenshot(path=str(shots / "nukumi-08-2p-over.png"), full_page=True)
    ctx.close()


def test_advanced_two_players_face_up_rows_through_the_first_round(browser, server, shots):
    ctx, page = open_app(browser, server)
    start_nukumi(page, 2, seed=5, advanced=True)
    assert page.locator(".nk-faceup").count() == 6          # 3 face-up Helpers, 3 action cards
    assert re.search(r"slot 1\s+S-\d\d", page.locator(".nk-faceup").first.inner_text())
    page.screenshot(path=str(shots / "nukumi-09-advanced-start.png"), full_page=True)
    clicks = 0
    while round_of(page) < 2:
        one_decision(page)
        clicks += 1
        assert clicks < 200
    settle(page)
    assert page.locator(".nk-faceup").count() == 6
    page.screenshot(path=str(shots / "nukumi-10-advanced-round-2.png"), full_page=True)
    ctx.close()
