"""Nukumi's decision panel and header in a real browser (Chromium) at 1440x900: no decision
button breaks a word across two lines ("Sansuk|e"), nor lets a word out of the button, over the
first thirty decisions of a seeded 2-player game. Screenshots go to test-output/e2e/.

The browser and the app server are test_browser.py's session fixtures."""
import random
import sys
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_board_nukumi import (CHOICE, DECISION_JS, TOP_JS, choices_of,  # noqa: E402
                               next_decision, start_nukumi)
from test_browser import browser, server, settle, shots  # noqa: E402,F401

DESKTOP = {"width": 1440, "height": 900}

# Each word of each decision button's text: the boxes of its characters (Range.getClientRects)
# on one line, and inside the button. Returns the faults found.
BROKEN_WORDS_JS = r"""
(sel) => {
  const out = [];
  for (const b of document.querySelectorAll(sel)) {
    if (b.closest('[data-stale="true"]')) continue;
    const box = b.getBoundingClientRect();
    if (box.width === 0) continue;
    const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      const re = /\S+/g;
      let m;
      while ((m = re.exec(node.textContent))) {
        const r = document.createRange();
        r.setStart(node, m.index);
        r.setEnd(node, m.index + m[0].length);
        const rects = [...r.getClientRects()].filter(x => x.width > 0);
        const tops = new Set(rects.map(x => Math.round(x.top)));
        const label = b.innerText.trim().replace(/\s+/g, ' ');
        if (tops.size > 1) out.push(`"${label}": "${m[0]}" broken over ${tops.size} lines`);
        if (rects.some(x => x.left < box.left - 1 || x.right > box.right + 1))
          out.push(`"${label}": "${m[0]}" runs out of the button`);
      }
    }
  }
  return out;
}
"""
BUTTONS = '[class*="-nkgrid"] button'


def test_no_decision_button_breaks_a_word(browser, server, shots):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(server + "/")
    page.get_by_role("button", name="Start new game").wait_for(timeout=30000)
    settle(page)
    start_nukumi(page, seed=11)
    rng = random.Random(11)
    problems, prev, decided, buttons_seen, worst = [], -1, 0, 0, None
    while decided < 30:
        got = next_decision(page, prev)
        if got == "over":
            break
        settle(page, quiet=0.4)
        page.evaluate(TOP_JS)
        got = page.evaluate(DECISION_JS, [prev, CHOICE])
        if got in (False, "over"):
            continue
        ply, choices = got["ply"], got["choices"]
        found = page.evaluate(BROKEN_WORDS_JS, BUTTONS)
        count = page.locator(BUTTONS).count()
        buttons_seen += count
        if found:
            problems += [f"ply {ply}: {f}" for f in found]
            worst = worst or ply
            page.screenshot(path=str(shots / "nukumi-buttons-broken.png"))
        if count >= 8 and worst is None:
            page.screenshot(path=str(shots / "nukumi-buttons-1440.png"))
        # the panel's buttons first (they are what this test reads), the town now and then
        buttons = [i for i, c in enumerate(choices) if not c["place"]
                   and not c["name"].startswith(("End turn", "Pass"))]
        pick = rng.choice(buttons) if buttons and rng.random() < .75 else \
            rng.randrange(len(choices))
        targets = page.locator(choices_of(ply)).filter(visible=True)
        targets.nth(min(pick, targets.count() - 1)).click()
        decided += 1
        prev = ply
    ctx.close()
    assert buttons_seen >= 60, buttons_seen     # the panel was read, many buttons
    assert not problems, "\n".join(problems[:20])

