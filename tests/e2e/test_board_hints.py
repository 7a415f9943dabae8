"""Issue 39 in a real browser (Chromium): the Kitsu board of "From a seat's knowledge" paints
its cards while the hidden "Step through a game" tab holds a board of the same pictures; the
hint is drawn on the board in every game (screenshots test-output/e2e/hint-*.png), also
when its decision is made with buttons only (a Keyside die on the mat, Nukumi's resources paid
with), its panel shows its top three with every column whole, and the Hint button's tooltip is
gone after the click.

The browser and the app server are test_browser.py's session fixtures."""
import io
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_board_clicks import load_game  # noqa: E402
from test_browser import browser, goto_page, open_app, server, settle, shots, start_game  # noqa: E402,F401

from boardlab.streamlit_app.session import AI, HUMAN  # noqa: E402
from test_board_ids import at_decision  # noqa: E402

# every paint server a board's picture refers to, and whether it is in that picture itself
PAINT_JS = r"""
(sel) => {
  const svg = document.querySelector(sel + ' .blb-stage > svg');
  if (!svg) return null;
  const bad = [];
  let n = 0;
  for (const el of svg.querySelectorAll('[fill^="url(#"], [filter^="url(#"]')) {
    for (const a of ['fill', 'filter']) {
      const v = el.getAttribute(a);
      if (!v || !v.startsWith('url(#')) continue;
      n++;
      const t = document.getElementById(v.slice(5, -1));
      if (!t || !svg.contains(t)) bad.push(v);
    }
  }
  return {n, bad: [...new Set(bad)]};
}
"""

MARK = ".blb-mark-hint, .blb-marks rect, .blb-arrow, .bl-ghost"
TIP = '[data-testid="stTooltipContent"]'


def blue_share(png: bytes) -> float:
    """The share of a picture's pixels that are clearly blue (a Blue card's face)."""
    from PIL import Image
    img = Image.open(io.BytesIO(png)).convert("RGB")
    px = list(img.get_flattened_data())
    return sum(1 for r, g, b in px if b > r + 60 and b > 120) / max(len(px), 1)


def test_kitsu_seat_board_paints_its_cards_beside_a_hidden_game_board(browser, server, shots):
    ctx, page = open_app(browser, server)
    start_game(page, seed=11)           # Kitsu: the Analyse page's first tab draws its table
    goto_page(page, "Analyse")
    page.locator(".st-key-an_board-kitsu-table").wait_for(timeout=30000)
    page.get_by_role("tab", name="From a seat's knowledge").click()
    hand = page.get_by_label(re.compile(r"^Your hand"))
    hand.fill("B1 B4 B5 O6 Black Katana")
    hand.press("Enter")
    settle(page)
    page.get_by_role("button", name="Set up this position").click()
    page.get_by_text("Position set up").wait_for(timeout=30000)
    settle(page)
    board = ".st-key-seat_board-kitsu-table"
    page.locator(board + " .blb-stage > svg").wait_for(timeout=30000)
    card = page.locator(board + ' .blb-info[data-place="s0c0"]')      # B1, the hand's first
    card.scroll_into_view_if_needed()
    assert blue_share(card.screenshot()) > 0.3, "the Blue 1 of the hand is not painted"
    found = page.evaluate(PAINT_JS, board)
    assert found["n"] > 10 and not found["bad"], found
    # its best move, searched from the seat, is drawn on this board (not on the hidden one)
    assert not page.locator(board).locator(MARK).count()
    page.get_by_role("button", name="Analyse for P0").click()
    page.get_by_text("Best move for P0").wait_for(timeout=120000)
    settle(page)
    assert page.locator(board + " .blb-marks rect").count() == 1
    page.locator(board).screenshot(path=str(shots / "hint-kitsu-seat-board.png"))
    ctx.close()


def kyushu_map():
    return at_decision("kyushu", 5, lambda s, o: o["phase"] == "map" and any(
        s.action_to_string(int(a)).startswith("orient ") for a in s.legal_actions()))


POSITIONS = {       # a decision of the seat to move, whose best move shows on the board
    "kitsu": lambda: at_decision("kitsu", 3, lambda s, o: o["phase"] == "play" and o["trick"],
                                 players=2),
    "kyushu": kyushu_map,
    "keyside": lambda: at_decision("keyside", 2, lambda s, o: o["phase"] == "play"
                                   and len(s.history) > 30),
    "nukumi": lambda: at_decision("nukumi", 2, lambda s, o: o["phase"] == "actions"),
}


def hint_shown(browser, server, state, marks):
    """The app playing ``state``'s seat to move (the others AI) with its Hint clicked and
    shown (nothing matching ``marks`` drawn before): (context, page)."""
    me = state.current_player
    ctx, page = open_app(browser, server)
    load_game(page, state, [HUMAN if s == me else AI for s in range(state.game.num_players)])
    hint = page.get_by_role("button", name="Hint", exact=True)
    hint.wait_for(timeout=60000)
    assert page.locator(marks).count() == 0
    hint.hover()
    hint.click()
    page.get_by_text(re.compile(r"^Hint: ")).wait_for(timeout=120000)
    return ctx, page


@pytest.mark.parametrize("game", sorted(POSITIONS))
def test_hint_is_drawn_on_the_board_with_its_table_whole(browser, server, shots, game):
    ctx, page = hint_shown(browser, server, POSITIONS[game](), MARK)
    settle(page)                        # the pointer is still on the button
    assert page.locator(MARK).count() > 0, f"{game}: the hint is drawn nowhere on the board"
    assert not page.locator(TIP).filter(visible=True).count(), "the Hint tooltip stayed open"
    # the top three: every column whole in the panel
    table = page.locator(".bl-hint-top")
    assert table.count() == 1
    cut = table.evaluate("""t => [...t.querySelectorAll('th, td')]
        .filter(c => c.scrollWidth > c.clientWidth + 1
                || c.getBoundingClientRect().right > t.parentElement.getBoundingClientRect().right + 1)
        .map(c => c.textContent)""")
    assert not cut, f"{game}: cut in the hint's table: {cut}"
    assert "visits" in table.inner_text()
    page.screenshot(path=str(shots / f"hint-{game}.png"), full_page=True)
    ctx.close()


BUTTON_DECISIONS = {    # decisions whose choices are buttons only, and where the hint rings
    # a die of the seat's mat (the secret dice: every choice a value of one die)
    "keyside": (lambda: at_decision("keyside", 2, lambda s, o: o["phase"] == "dice"),
                ".ks-mats.ks-full .ks-hint"),
    # the drawn resources of the seat, in the town (how to pay: every choice a payment)
    "nukumi": (lambda: at_decision("nukumi", 2, lambda s, o: o["phase"] == "payment"),
               '[class*="st-key-board-nktown"] .blb-marks rect'),
}


@pytest.mark.parametrize("game", sorted(BUTTON_DECISIONS))
def test_hint_of_a_button_decision_rings_what_it_is_about_on_the_board(browser, server, shots,
                                                                      game):
    make, ring = BUTTON_DECISIONS[game]
    state = make()
    me = state.current_player
    ctx, page = hint_shown(browser, server, state, ring)
    page.locator(ring).first.wait_for(timeout=30000)
    settle(page)
    marked = page.locator(ring)
    assert marked.count() == 1 and marked.is_visible(), f"{game}: nothing ringed on the board"
    colour = marked.evaluate("e => getComputedStyle(e)[e.tagName === 'rect' ? 'stroke' "
                             ": 'outlineColor']")
    assert colour in ("rgb(124, 58, 237)", "#7c3aed"), colour      # the hint's purple
    if game == "keyside":       # the die being set, on the seat's own mat
        assert marked.get_attribute("data-mark").startswith(f"mat{me}-die-")
    marked.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"hint-{game}-button-decision.png"), full_page=True)
    ctx.close()
