"""Keyside in a real browser (headless Chromium): the first twenty decisions of a solo game
at 1440x900 (the prompt and its choices in the first viewport, every choice and every island
element with a tooltip, no two island elements overlapping) and of a 2-player game at 390x844
(the island scaled to the width, the choices right under it); a whole 2-player game and a
whole solo game against Keytoma, the first year played by clicking (dice set with buttons,
boats sent and keyples moved by clicking places on the island, the rest with buttons), then
"Let the AI finish the game". Screenshots go to test-output/e2e/keyside-*.png.

The browser and the app server are test_browser.py's session fixtures (Playwright's sync API
allows one instance at a time in a process)."""
import re
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
# One browser and one app server for every e2e module (two Playwright instances in one
# process clash): test_browser's session fixtures.
from test_browser import browser, server, settle, shots, start_game  # noqa: E402,F401

DESKTOP = {"width": 1440, "height": 1400}


def key_of(locator) -> str:
    """The st-key-* class of the keyed element holding ``locator``."""
    return locator.evaluate(
        "b => [...b.closest('[class*=\"st-key-\"]').classList].find(c => c.startsWith('st-key-'))")


def log_text(page) -> str:
    return page.locator(".st-key-play_log").inner_text()


DECISION = ('div[class*="_act_"] button:not([disabled]):visible, '
            'div[class*="-island"] button.blb-place:visible')
PLACES = 'div[class*="-island"] button.blb-place:visible'
BUTTONS = 'div[class*="_act_"] button:not([disabled]):visible'


def start_keyside(page, players_label: str, seed: int):
    page.locator('[data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name="Keyside").click()
    settle(page)
    if players_label != "2":
        page.get_by_label("Players").click()
        page.get_by_role("option", name=players_label).click()
        settle(page)
    start_game(page, seed, decision=DECISION, timeout=60000)


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


# The 2-player game is slow (.ci/run runs it): its first twenty decisions are
# test_tables_generic.py's, "Let the AI finish" test_app_infra.py's; the solo game's end
# against Keytoma is this file's alone.
@pytest.mark.parametrize("name,players_label,seed", [
    pytest.param("2p", "2", 11, marks=pytest.mark.slow),
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


def _overlapping(boxes):
    for i, (a, ra) in enumerate(boxes):
        for b, rb in boxes[i + 1:]:
            if (ra["x"] + 0.5 < rb["x"] + rb["width"] and rb["x"] + 0.5 < ra["x"] + ra["width"]
                    and ra["y"] + 0.5 < rb["y"] + rb["height"] and rb["y"] + 0.5 < ra["y"] + ra["height"]):
                return a, b
    return None


# What check_decision looks at, read in one round trip (a Playwright call per element made the
# check take most of the test's time): boxes in viewport pixels, visible elements only.
LAYOUT_JS = """([places, buttons]) => {
  const vis = e => { const r = e.getBoundingClientRect();
                     return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
  const box = e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; };
  const all = sel => [...document.querySelectorAll(sel)].filter(vis);
  return {
    prompt: box(document.querySelector('.st-key-play_input')),
    // a place of an island drawn larger in a box that scrolls (its text readable) is where
    // that box is: the player scrolls the box, not the page, to reach it
    places: all(places).map(e => ({box: box(e.closest('.blb-zoomed') || e), text: e.innerText})),
    buttons: all(buttons).map(b => ({box: box(b), text: b.innerText,
                                     help: !!b.closest('[data-testid=stTooltipHoverTarget]')})),
    elements: all('div[class*="-island"] .blb-info, ' + places).map(e => ({
      tip: e.getAttribute('data-tip'), label: e.getAttribute('aria-label'),
      place: e.getAttribute('data-place'), box: box(e)})),
  };
}"""


def check_decision(page, viewport, k: int) -> str:
    """One decision on screen: where its prompt and choices are, their tooltips, the island's
    elements apart. Returns what it clicks next ("place" or "button")."""
    page.evaluate("window.scrollTo(0, 0)")
    seen = page.evaluate(LAYOUT_JS, [PLACES.replace(":visible", ""), BUTTONS.replace(":visible", "")])
    prompt, places, buttons = seen["prompt"], seen["places"], seen["buttons"]
    assert places or buttons, f"decision {k}: nothing to choose"
    for c in places + buttons + [{"box": prompt, "text": "the prompt"}]:   # in the first screen
        box = c["box"]
        assert box["y"] + box["height"] <= viewport["height"], (k, c["text"][:60], box)
    # every lit place and every island element has a tooltip; none overlaps another
    for el in seen["elements"]:
        assert (el["tip"] or "").strip(), el["label"]
    boxes = [(el["place"], el["box"]) for el in seen["elements"]]
    assert len(boxes) > 40
    assert _overlapping(boxes) is None, (k, _overlapping(boxes))
    for b in buttons:                       # a decision button names its effect and has help
        label = b["text"]
        assert not re.search(r"->|^pass$|^\w+ = \d$", label), label
        assert b["help"], label
    if buttons and k == 0:                                    # and the help is words
        page.locator(BUTTONS).first.hover()
        tip = page.locator('[data-testid="stTooltipContent"]')
        tip.first.wait_for(timeout=10000)
        assert len(tip.first.inner_text().split()) > 5
        page.mouse.move(0, 0)
    return "place" if places and (not buttons or k % 2 == 0) else "button"


# A 2-player game at 1440x900 and 390x844 is test_tables_generic.py's (the same seed and
# checks, tips hovered), and a phone seat's island, then its choices, then the mats is
# test_tables_browser.py's: here the solo game, which they do not play.
@pytest.mark.parametrize("name,players_label,seed,viewport", [
    ("solo-desktop", "1 (solo against Keytoma)", 12, {"width": 1440, "height": 900})])
def test_keyside_first_twenty_decisions_at_hand(browser, server, shots, name, players_label, seed,
                                                viewport):
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    page.goto(server + "/")
    page.get_by_role("button", name="Start new game").wait_for(timeout=30000)
    settle(page)
    start_keyside(page, players_label, seed)
    for k in range(20):
        page.locator(DECISION).first.wait_for(timeout=60000)
        settle(page, quiet=0.4)
        what = check_decision(page, viewport, k)
        if k in (0, 7, 19):
            page.screenshot(path=str(shots / f"keyside-{name}-decision-{k:02d}.png"))
        target = page.locator(PLACES if what == "place" else BUTTONS).first
        if what == "place":
            target.hover()
            if k < 12:
                page.screenshot(path=str(shots / f"keyside-{name}-hover-place.png"))
        key = key_of(target)
        target.click()
        page.locator(f".{key}").first.wait_for(state="detached", timeout=60000)
    page.screenshot(path=str(shots / f"keyside-{name}-decision-20-full.png"), full_page=True)
    ctx.close()
