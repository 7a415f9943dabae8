"""A Kyūshū position entered from a seat on the Analyse page in a real browser, then analysed.
The facts are read off a random game's observation for that seat (tests/kyushu_facts.py) and
typed into the form. Screenshot: test-output/e2e/kyushu-position-*.png.
The browser and the app server are test_browser.py's session fixtures (Playwright's sync API
allows one instance at a time in a process)."""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import boardlab  # noqa: E402
from kyushu_facts import facts_of, form_text, play_to_selection  # noqa: E402
from test_browser import NAV, browser, server, settle, shots  # noqa: E402,F401

OUT = Path(__file__).resolve().parents[2] / "test-output" / "e2e"
DESKTOP = {"width": 1440, "height": 1400}


def choose(page, key: str, option: str):
    page.locator(f".st-key-{key}").click()
    page.get_by_role("option", name=option, exact=True).click()
    settle(page)


def type_texts(page, texts: dict):
    """Type the form's texts (key suffix -> text); a disabled or absent box must stay empty."""
    for name, text in texts.items():
        box = page.locator(f".st-key-seat_ky_{name}").locator("input:enabled, textarea:enabled")
        if not box.count():
            assert not text, name
            continue
        box.fill(text)
        box.press("Tab")
        settle(page, quiet=0.3)


def set_up_and_analyse(page, seat: int):
    """Set up the position typed in, then analyse it for ``seat``."""
    page.get_by_role("button", name="Set up this position").click()
    page.get_by_text(f"Position set up: P{seat} to move").wait_for(timeout=30000)
    settle(page)
    assert not page.locator('[data-testid="stAlert"]').filter(has_text="cannot be set up").count()
    page.get_by_role("button", name=f"Analyse for P{seat}").click()
    page.get_by_text(f"Best move for P{seat}").wait_for(timeout=120000)
    settle(page)
    assert not page.locator('[data-testid="stException"]').count()


def test_a_kyushu_table_entered_from_a_seat_is_analysed(browser, server, shots):
    params, seat = {"players": 3, "travelers": True}, 2
    real = play_to_selection(boardlab.make("kyushu", **params), 5, 8, seat)
    facts = facts_of(real.observation(seat))
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(server + "/")
    page.get_by_role("button", name="Start new game").wait_for(timeout=30000)
    settle(page)
    page.locator(NAV).get_by_text("Analyse", exact=True).click()
    settle(page)
    page.get_by_role("tab", name="From a seat's knowledge").click()
    settle(page)
    choose(page, "seat_game", "Kyūshū")
    choose(page, "seat_ky_players", "3")
    page.locator(".st-key-seat_ky_trav").get_by_text("Travelers").click()
    settle(page)
    choose(page, "seat_ky_seat", f"P{seat}")
    choose(page, "seat_ky_round", str(facts["round"]))
    type_texts(page, form_text(facts, params["players"]))
    page.screenshot(path=str(shots / "kyushu-position-1-form.png"), full_page=True)
    set_up_and_analyse(page, seat)
    page.screenshot(path=str(shots / "kyushu-position-2-analysed.png"), full_page=True)
    ctx.close()
