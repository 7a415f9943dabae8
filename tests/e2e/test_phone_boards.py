"""The boards read on a phone without tapping: at 390x844 every text drawn in an SVG of the
table (the boards, the cards, the mats: whatever is open on the page) renders at 10 CSS px or
more — its font size times the SVG's scale on screen — for each of the four games, a position a
few decisions into a seeded game. The same positions at 1440x900 are screenshotted too, to look
at the desktop boards. Screenshots go to test-output/e2e/phone-board-*.png.

The browser and the app server are test_browser.py's session fixtures."""
import sys
from pathlib import Path

import numpy as np
import pytest

import boardlab
from boardlab.streamlit_app.session import AI, HUMAN

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_board_clicks import load_game  # noqa: E402
from test_browser import browser, server, settle, shots  # noqa: E402,F401

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
MIN_PX = 10

# Every visible SVG text of the page's main area whose rendered size is under ``min``: the
# font size in user units times the vertical scale of its screen transform. Hidden ones (no
# box, display none, transparent: a hover preview not shown) do not count.
SMALL_TEXT_JS = r"""
(min) => {
  const out = [];
  let seen = 0;
  const main = document.querySelector('[data-testid="stMain"]') || document.body;
  for (const t of main.querySelectorAll('svg text')) {
    if (t.closest('[data-stale="true"]') || !t.textContent.trim()) continue;
    const r = t.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    let hidden = false;
    for (let e = t; e && e !== main; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === 'none' || cs.visibility === 'hidden' || parseFloat(cs.opacity) === 0) {
        hidden = true; break;
      }
    }
    if (hidden) continue;
    const m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.c, m.d);
    seen++;
    if (px < min - 0.05) {
      const svg = t.ownerSVGElement;
      out.push(`${t.textContent.trim().slice(0, 24)} (${px.toFixed(1)} px, in ` +
               `${(svg && (svg.getAttribute('aria-label') || svg.id)) || 'an svg'})`);
    }
  }
  return {seen, small: out};
}
"""


def position(name: str, params: dict, seed: int, decisions: int):
    """A seeded random game of ``name`` after ``decisions`` decisions (chance settled), at a
    decision: the state and the seats (the seat to move human, the others AI)."""
    state = boardlab.make(name, **params).new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    made = 0
    while True:
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state.apply(outcomes[rng.integers(len(outcomes))][0])
            continue
        if made >= decisions:
            break
        legal = state.legal_actions()
        state.apply(int(legal[rng.integers(len(legal))]))
        made += 1
    assert not state.is_terminal()
    p = state.current_player
    return state, [HUMAN if s == p else AI for s in range(state.game.num_players)]


GAMES = {   # a position with most of each board on show (Kyūshū: maps built, Map phase)
    "kitsu": ("kitsu", {"players": 2}, 3, 9),
    "kyushu": ("kyushu", {"players": 2}, 7, 24),
    "keyside": ("keyside", {"players": 2}, 5, 12),
    "nukumi": ("nukumi", {"players": 2}, 7, 20),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_every_board_text_is_readable_on_a_phone(browser, server, shots, game):
    name, params, seed, decisions = GAMES[game]
    state, seats = position(name, params, seed, decisions)
    found = {}
    for label, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        ctx = browser.new_context(viewport=viewport, has_touch=label == "phone",
                                  is_mobile=label == "phone")
        page = ctx.new_page()
        page.goto(server + "/")
        page.get_by_role("button", name="Start new game").wait_for(timeout=30000)
        settle(page)
        load_game(page, state, seats)
        page.locator('[data-testid="stMain"] svg text').first.wait_for(timeout=30000)
        settle(page)
        found[label] = page.evaluate(SMALL_TEXT_JS, MIN_PX)
        page.screenshot(path=str(shots / f"phone-board-{game}-{label}.png"), full_page=True)
        ctx.close()
    phone = found["phone"]
    assert phone["seen"] >= 10, phone          # the boards were on the page
    assert not phone["small"], (f"{len(phone['small'])} of {phone['seen']} texts under "
                                f"{MIN_PX} px at 390x844: " + "; ".join(phone["small"][:25]))
