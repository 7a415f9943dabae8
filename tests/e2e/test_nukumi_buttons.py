"""Nukumi's header in a real browser (Chromium) at 1440x900: a solo game names its mode and
its progress ("caught on …") in the header, in the first screen, and the header follows a
catch made by a click (a rerun of the table alone). (That no decision button breaks a word or
lets one out, for every decision kind of every game, is test_choice_labels.py's.)
Screenshots go to test-output/e2e/.

The browser and the app server are test_browser.py's session fixtures."""
import sys
from pathlib import Path

import numpy as np

import boardlab
from boardlab.streamlit_app.games import ui_for
from boardlab.streamlit_app.session import HUMAN

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_board_nukumi import TOP_JS, next_decision  # noqa: E402
from test_board_clicks import load_game  # noqa: E402
from test_browser import browser, open_app, server, settle, shots  # noqa: E402,F401

DESKTOP = {"width": 1440, "height": 900}

CHASING_HEADER = ".st-key-play_caption"


def start_solo(page, mode: str, seed: int):
    """A 1-player Nukumi game in solo mode ``mode`` (the form's wording)."""
    page.locator('[data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name="Nukumi Onsen").click()
    settle(page)
    page.locator('.st-key-ng_nk_players [data-testid="stSelectbox"]').click()
    page.get_by_role("option", name="1", exact=True).click()
    settle(page)
    page.locator('.st-key-ng_nk_solo [data-testid="stSelectbox"]').click()
    page.get_by_role("option", name=mode).click()
    settle(page)
    seed_box = page.get_by_label("Seed (same seed, same deals)")
    seed_box.fill(str(seed))
    seed_box.press("Enter")
    settle(page)
    page.get_by_role("button", name="Start new game").click()


def test_the_solo_mode_and_its_progress_are_in_the_header(browser, server, shots):
    for mode, words in (("Chasing Nukumaru (Solo 2)", ("Chasing Nukumaru", "caught on")),
                        ("Score Attack (Solo 1)", ("Score Attack", "NPC"))):
        ctx, page = open_app(browser, server, DESKTOP)
        start_solo(page, mode, seed=5)
        next_decision(page, -1)
        settle(page, quiet=0.4)
        page.evaluate(TOP_JS)
        header = page.locator(CHASING_HEADER)
        text = header.inner_text()
        box = header.bounding_box()
        page.screenshot(path=str(shots / f"nukumi-solo-header-{words[0].split()[0]}.png"))
        ctx.close()
        for w in words:
            assert w in text, f"{mode}: {w!r} not in the header {text!r}"
        assert box is not None and box["y"] + box["height"] < DESKTOP["height"] / 4, box


def before_a_catch(seed: int = 6):
    """A Chasing Nukumaru game played (seeded, leaning to moves) up to a decision that catches
    Nukumaru: (state, that decision's label)."""
    game = boardlab.make("nukumi", players=1, solo="chasing")
    state, rng = game.new_initial_state(seed=seed), np.random.default_rng(seed)
    while not state.is_terminal():
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state.apply(outcomes[rng.integers(len(outcomes))][0])
            continue
        legal = [int(a) for a in state.legal_actions()]
        for a in legal:
            after = state.clone()
            after.apply(a)
            if after.observation(0)["nukumaru_cubes"]:
                return state, ui_for("nukumi").decision_label(state, a)
        moves = [a for a in legal if state.action_to_string(a).startswith(
            ("move", "step", "sell", "pay 3", "accept"))]
        pool = moves if moves and rng.random() < .85 else legal
        state.apply(pool[rng.integers(len(pool))])
    raise AssertionError("no catch in this game")


def test_the_header_follows_a_catch(browser, server, shots):
    state, label = before_a_catch()
    ctx, page = open_app(browser, server, DESKTOP)
    load_game(page, state, [HUMAN])
    header = page.locator(CHASING_HEADER)
    assert "caught on none yet (0 of 6)" in header.inner_text()
    page.locator(f'button.blb-place[aria-label^="{label}"], '
                 f'[class*="_act_"] button:has-text("{label}")').first.click()
    page.wait_for_function(
        "() => document.querySelector('.st-key-play_caption').innerText.includes('(1 of 6)')",
        timeout=60000, polling=200)
    settle(page)
    page.screenshot(path=str(shots / "nukumi-solo-header-caught.png"))
    ctx.close()
