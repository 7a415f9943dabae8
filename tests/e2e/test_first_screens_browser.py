"""The app's first screens in a real browser (Chromium), as a new player meets them (issue
54): the Analyse page's four buttons beside its slider show one icon each (Streamlit wrote
each button's shortcut beside its label: "← ←", "→ →", and "Home" pushed its icon out while
End kept its own). Screenshots go to test-output/e2e/ (names starting "first-").

The browser, the server and the helpers are those of test_browser.py."""
import re

from test_browser import (browser, click_decision, goto_page, open_app, server,  # noqa: F401
                          settle, shots, start_game)


def decision(page) -> int:
    """The decision the Analyse page shows (its caption: "Decision 3 of 5 — ...")."""
    text = page.get_by_text(re.compile(r"^Decision \d+ of \d+")).first.inner_text()
    return int(re.match(r"Decision (\d+)", text).group(1))


NAV = {"an_first": "first_page", "an_prev": "chevron_left", "an_next": "chevron_right",
       "an_last": "last_page"}


def test_the_analyse_pages_step_buttons_show_one_icon_each(browser, server, shots):
    ctx, page = open_app(browser, server)
    try:
        start_game(page, seed=7)
        click_decision(page)
        goto_page(page, "Analyse")
        page.locator(".st-key-an_last button").first.wait_for(timeout=30000)
        row = page.locator(".st-key-an_first").locator(
            "xpath=ancestor::*[@data-testid='stHorizontalBlock'][1]")
        row.screenshot(path=str(shots / "first-analyse-step-buttons.png"))
        for key, icon in NAV.items():
            button = page.locator(f".st-key-{key} button").first
            assert button.inner_text().split() == [icon], (key, button.inner_text())
            glyph = button.locator('[role="img"]')
            assert glyph.count() == 1 and glyph.bounding_box()["width"] >= 12, key
            assert button.locator("kbd").is_hidden(), key       # the key: in the tooltip
        # they still step: back one, forward one, to the start
        last = decision(page)
        for key, want in (("an_prev", last - 1), ("an_next", last), ("an_first", 0)):
            page.locator(f".st-key-{key} button").first.click()
            settle(page)
            assert decision(page) == want, key
    finally:
        ctx.close()
