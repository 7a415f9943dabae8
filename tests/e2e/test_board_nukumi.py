"""Nukumi in a real browser (Chromium): a 2-player first round played by clicking shows the
other seat's moves ringed and animated on the town, ends turns with the labelled "End turn"
and keeps the other hand hidden in the log. (The first twenty decisions at a desktop and a
phone, each with the prompt and every choice in the first screen, a tooltip on every choice
and no two places overlapping, are test_tables_generic.py's, as for every game; that every
button names its effect, test_app_nukumi_text.py's.) Screenshots go to
test-output/e2e/nukumi-*.png.

The browser and the app server are test_browser.py's session fixtures (Playwright's sync API
allows one instance at a time in a process)."""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_browser import browser, open_app, server, settle, shots  # noqa: E402,F401

# a choice: a lit place of a board, else a decision button (keyed <input key>_act_..)
CHOICE = 'button.blb-place, [class*="_act_"] button:not([disabled])'

# The decision on screen: its ply (the input's key is "mv<ply>") and its choices' boxes in page
# coordinates. Elements Streamlit marks stale (the last run's) do not count.
DECISION_JS = r"""
([prev, choice]) => {
  if (document.body.innerText.includes('Game over:')) return 'over';
  const main = document.querySelector('[data-testid="stMain"]');
  const top = (main ? main.scrollTop : 0) + window.scrollY;
  let ply = null;
  const found = [];
  for (const b of document.querySelectorAll(choice)) {
    if (b.closest('[data-stale="true"]')) continue;
    const box = b.closest('[class*="st-key-mv"]');
    if (!box) continue;
    const m = [...box.classList].join(' ').match(/st-key-mv(\d+)[-_]/);
    if (!m || Number(m[1]) <= prev) continue;
    if (ply === null) ply = Number(m[1]);
    if (Number(m[1]) !== ply) continue;
    const r = b.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const help = b.closest('[data-testid="stTooltipHoverTarget"]');
    found.push({bottom: r.bottom + top, tip: b.dataset.tip || (help ? 'help' : ''),
                name: b.getAttribute('aria-label') || b.innerText.trim().slice(0, 60),
                place: b.classList.contains('blb-place')});
  }
  return ply === null ? false : {ply, choices: found};
}
"""

TOP_JS = """() => { const m = document.querySelector('[data-testid="stMain"]');
                   if (m) m.scrollTo(0, 0); window.scrollTo(0, 0); }"""


def choices_of(ply: int) -> str:
    return ", ".join([f'[class*="st-key-mv{ply}-"] button.blb-place'] +
                     [f'[class*="st-key-mv{ply}{sep}"][class*="_act_"] button:not([disabled])'
                      for sep in "-_"])


def start_nukumi(page, seed: int, players: int = 2):
    page.locator('[data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name="Nukumi Onsen").click()
    settle(page)
    if players != 2:
        page.locator('.st-key-ng_nk_players [data-testid="stSelectbox"]').click()
        page.get_by_role("option", name=str(players), exact=True).click()
        settle(page)
    page.get_by_text("Beginner", exact=True).first.click()
    seed_box = page.get_by_label("Seed (same seed, same deals)")
    seed_box.fill(str(seed))
    seed_box.press("Enter")
    settle(page)
    page.get_by_role("button", name="Start new game").click()     # next_decision waits


def next_decision(page, prev: int):
    handle = page.wait_for_function(DECISION_JS, arg=[prev, CHOICE], timeout=90000, polling=100)
    return handle.json_value()


def walk(page, most: int, pick, look=None) -> int:
    """Make up to ``most`` decisions of the game on ``page`` by clicking, each once the page
    is still and shown from its top: ``look(ply, choices, made)`` reads it first (a true
    value stops the walk there), ``pick(choices)`` is the index of the choice clicked
    (``choices``: DECISION_JS's). Returns how many were made (fewer at the game's end)."""
    prev, made = -1, 0
    while made < most:
        if next_decision(page, prev) == "over":
            break
        settle(page, quiet=0.4)
        page.evaluate(TOP_JS)
        got = page.evaluate(DECISION_JS, [prev, CHOICE])
        if got in (False, "over"):
            continue
        ply, choices = got["ply"], got["choices"]
        if look is not None and look(ply, choices, made):
            break
        targets = page.locator(choices_of(ply)).filter(visible=True)
        targets.nth(min(pick(choices), targets.count() - 1)).click()
        made += 1
        prev = ply
    return made


def round_of(page) -> int:
    m = re.search(r"Round (\d+) \(now\)", page.locator("svg").all_inner_texts().__str__())
    return int(m.group(1)) if m else 0


def test_two_players_first_round_shows_the_other_seats_moves(browser, server, shots):
    """Round 1 of a 2-player game by clicking: the AI seat's walk is ringed and animated on
    the town, "End turn" ends a turn after the action, the log hides P1's Helpers."""
    ctx, page = open_app(browser, server, {"width": 1440, "height": 900})
    start_nukumi(page, seed=21)
    assert not page.locator("svg .nk-recent").count()        # nothing changed yet
    seen = {"ringed": False, "ended": 0}

    def look(ply, choices, made):
        if "Round 2 (now)" in page.content():
            return True
        legend = page.locator(".nk-legend")
        if not seen["ringed"] and legend.count() and "P1 moved to" in legend.inner_text():
            assert page.locator("svg .nk-recent").count() >= 1
            log = page.evaluate("window.__blbAnimLog || []")
            assert any(e["kind"] == "slide" for e in log), log     # the pioneer walked in
            page.screenshot(path=str(shots / "nukumi-p1-moved-ringed.png"))
            seen["ringed"] = True

    def pick(choices):
        names = [c["name"] for c in choices]
        i = next((i for i, n in enumerate(names) if n.startswith("End turn")),
                 next((i for i, n in enumerate(names) if n.startswith(("Moving", "Step"))),
                      next((i for i, n in enumerate(names) if not n.startswith("Pass")), 0)))
        seen["ended"] += names[i].startswith("End turn")
        return i

    assert walk(page, 150, pick, look) < 150, "round 1 did not end in 150 decisions"
    assert seen["ringed"] and seen["ended"]
    log = page.locator(".st-key-play_log").inner_text()
    assert "P1 draws a Helper" in log and not re.search(r"P1 draws S-\d\d", log)
    page.screenshot(path=str(shots / "nukumi-2p-round-2.png"))
    ctx.close()
