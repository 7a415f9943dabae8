"""Nukumi in a real browser (Chromium): at a desktop (1440x900) and a phone (390x844) the first
twenty decisions of a seeded 2-player game are made by clicking, each with the prompt and every
choice in the first screen, every choice with a tooltip and no two places of a board
overlapping; a 2-player first round played by clicking shows the other seat's moves ringed and
animated on the town, ends turns with the labelled "End turn" and keeps the other hand hidden
in the log. Screenshots go to test-output/e2e/nukumi-*.png.

The browser and the app server are test_browser.py's session fixtures (Playwright's sync API
allows one instance at a time in a process)."""
import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_browser import browser, open_app, server, settle, shots  # noqa: E402,F401

DESKTOP, PHONE = {"width": 1440, "height": 900}, {"width": 390, "height": 844}
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

# pairs of overlapping places (lit ones and inert ones with a tip) of one board
OVERLAP_JS = r"""
() => {
  const out = [];
  for (const stage of document.querySelectorAll('.blb-stage')) {
    if (stage.closest('[data-stale="true"]')) continue;
    const els = [...stage.querySelectorAll(':scope > .blb-place, :scope > .blb-info')];
    const boxes = els.map(e => [e.dataset.place || e.getAttribute('aria-label'),
                                e.getBoundingClientRect()]);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const [a, r] = boxes[i], [b, s] = boxes[j];
      const w = Math.min(r.right, s.right) - Math.max(r.left, s.left);
      const h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
      if (w > 1 && h > 1) out.push(`${a} / ${b}`);
    }
  }
  return out;
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


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_twenty_decisions_in_the_first_screen_with_tips_and_no_overlaps(browser, server, shots,
                                                                        viewport):
    ctx, page = open_app(browser, server, viewport)
    start_nukumi(page, seed=7)
    rng = random.Random(7)
    height, width = viewport["height"], viewport["width"]
    problems, on_board = [], []

    def look(ply, choices, made):
        where = f"decision {made + 1} (ply {ply})"
        status = page.locator(".st-key-play_status").bounding_box()
        if status is None or status["y"] + status["height"] > height:
            problems.append(f"{where}: the status line is below the first screen")
        low = [c["name"] for c in choices if c["bottom"] > height + 1]
        if low and width < 640:         # a phone: the town, the prompt and a first choice
            low = low if len(low) == len(choices) else []
        if low:
            problems.append(f"{where}: {len(low)} of {len(choices)} choices below the first "
                            f"screen, e.g. {low[:3]}")
        # (a phone's Streamlit buttons carry no help tooltip: their text names the effect)
        bare = [c["name"] for c in choices if not c["tip"] and (c["place"] or width >= 640)]
        if bare:
            problems.append(f"{where}: no tooltip on {bare[:4]}")
        overlaps = page.evaluate(OVERLAP_JS)
        if overlaps:
            problems.append(f"{where}: places overlap: {overlaps[:4]}")
        notation = [c["name"] for c in choices if not c["place"] and re.fullmatch(
            r"(logging|mining|cooking|planning|recruitment|pay [a-z+]+|sell \w+|end turn)",
            c["name"])]
        if notation:
            problems.append(f"{where}: bare notation on buttons {notation[:4]}")
        if made in (0, 4, 9, 19):
            page.screenshot(path=str(shots / f"nukumi-{width}-{made + 1:02d}.png"))

    def pick(choices):
        places = [i for i, c in enumerate(choices) if c["place"]]
        i = rng.choice(places) if places and rng.random() < .7 else rng.randrange(len(choices))
        on_board.append(choices[i]["place"])
        return i

    decided = walk(page, 20, pick, look)
    ctx.close()
    assert decided == 20, decided
    assert sum(on_board) >= 3           # spots, tiles and squares are clicked on the town
    assert not problems, f"at {width}x{height}:\n" + "\n".join(problems)


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
