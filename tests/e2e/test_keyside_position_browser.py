"""A Keyside position entered from a seat on the Analyse page in a real browser, then analysed:
the facts of a random 3-player game in play, read off the observation of the seat to move, typed
into the form (with one bad fact first, refused by name); and the form prefilled from a game
being played. Screenshots: test-output/e2e/keyside-position-*.png.
The browser and the app server are test_browser.py's session fixtures (Playwright's sync API
allows one instance at a time in a process)."""
import copy
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import boardlab  # noqa: E402
from boardlab.games.keyside import position_facts  # noqa: E402
from test_browser import browser, goto_page, open_app, server, settle, shots, start_game  # noqa: E402,F401

DESKTOP = {"width": 1440, "height": 1400}
DECISION = ('div[class*="_act_"] button:not([disabled]), '
            'div[class*="-island"] button.blb-place')     # as test_board_keyside's


def choose(page, key: str, option: str):
    page.locator(f".st-key-{key}").click()
    page.get_by_role("option", name=option, exact=True).click()
    settle(page)


def _seat_tab(page):
    goto_page(page, "Analyse")
    page.get_by_role("tab", name="From a seat's knowledge").click()
    settle(page)
    choose(page, "seat_game", "Keyside")


def _facts_box(page):
    return page.locator("[class*='st-key-seat_ks_facts'] textarea")


def _type_facts(page, facts: dict):
    box = _facts_box(page)
    box.fill(json.dumps(facts, indent=1))
    box.press("Tab")
    settle(page, quiet=0.3)


def _a_real_turn(players: int, seed: int):
    """A random game's state at the start of a seat's turn in play."""
    game = boardlab.make("keyside", players=players)
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    while not s.is_terminal():
        full = s.full_observation()
        if len(s.history) > 140 and s.current_player >= 0 and full["phase"] == "play" \
                and full["task"]["kind"] in ("land", "resolve"):
            return s
        s.apply(int(rng.choice(list(s.legal_actions()))))
    raise AssertionError("no turn found")


def test_a_keyside_table_entered_from_a_seat_is_analysed(browser, server, shots):
    real = _a_real_turn(3, 6)
    seat = real.current_player
    facts = position_facts(real.observation(seat))
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(server + "/")
    page.get_by_role("button", name="Start new game").wait_for(timeout=30000)
    settle(page)
    _seat_tab(page)
    choose(page, "seat_ks_players", "3")
    choose(page, "seat_ks_seat", f"P{seat}")
    bad = copy.deepcopy(facts)
    bad["boats"][1]["at"] = bad["boats"][0]["at"]
    _type_facts(page, bad)
    page.get_by_role("button", name="Set up this position").click()
    page.get_by_text("cannot be set up: boats[1]: two boats at harbour").wait_for(timeout=30000)
    settle(page)
    page.screenshot(path=str(shots / "keyside-position-1-refused.png"), full_page=True)
    _type_facts(page, facts)
    page.get_by_role("button", name="Set up this position").click()
    page.get_by_text(f"Position set up: P{seat} to move").wait_for(timeout=30000)
    settle(page)
    page.get_by_role("button", name=f"Analyse for P{seat}").click()
    page.get_by_text(f"Best move for P{seat}").wait_for(timeout=120000)
    settle(page)
    assert not page.locator('[data-testid="stException"]').count()
    page.screenshot(path=str(shots / "keyside-position-2-analysed.png"), full_page=True)
    ctx.close()


def test_the_keyside_form_starts_from_the_game_being_played(browser, server, shots):
    ctx, page = open_app(browser, server, viewport=DESKTOP)
    page.locator('[data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name="Keyside").click()
    settle(page)
    start_game(page, seed=11, decision=DECISION, timeout=60000)
    _seat_tab(page)
    page.get_by_text("Prefilled from the game being played").wait_for(timeout=30000)
    facts = json.loads(_facts_box(page).input_value())
    assert facts["year"] == 1 and not any(s["dice"] for s in facts["seats"][1:])
    page.get_by_role("button", name="Set up this position").click()
    page.get_by_text("Position set up: P0 to move").wait_for(timeout=30000)
    settle(page)
    page.get_by_role("button", name="Analyse for P0").click()
    page.get_by_text("Best move for P0").wait_for(timeout=120000)
    settle(page)
    assert not page.locator('[data-testid="stException"]').count()
    page.screenshot(path=str(shots / "keyside-position-3-from-the-game.png"), full_page=True)
    ctx.close()
