"""Every game's table in Chromium, as a player sits down to it: a seeded game against the AI
at Beginner (you in seat 0), at 1440x900 (a desktop) and 390x844 (a phone). For each of your
first twenty decisions, with the page scrolled to the top:

* the prompt (the status line and the decision panel's first line) and every choice (each
  lit place or card of a board, each button of the decision panel) lie within the first
  viewport: nothing to scroll for;
* every choice has a non-empty tooltip: a board place or card its ``data-tip`` (the board
  component shows it on hover and tap), a decision button its Streamlit help, read by hovering
  it (a button of a name read at an earlier decision is not hovered again, nor any on a phone,
  whose buttons carry the desktop's help texts: its help is still checked there);
* the board does not move: its top edge is where it was at decision 1;
* no two board elements overlap. The board elements are the boxes the board component lays
  over its drawings (a place of an SVG board, lit or inert with a tip) and its pieces (a card
  in a row). Two boxes overlap when they share more than 1 px in both directions (the
  percentages the boxes are placed with round to a pixel). One overlap is legitimate: a box
  entirely inside another of the same board (a pawn on its track, a card in its pick box,
  a piece on its square) - it is a part of that place, and it is drawn above it (later in
  the document: the boxes carry no z-index), so its own tip and click are reached; drawn
  under it, it is reported as hidden. Boxes of two different boards never overlap.

A board a phone draws larger, in a box of its own size that scrolls (its text readable, see
the board component), is panned in that box: a choice in it is on the first screen when the
box is, and its boxes count clipped to the box (a box scrolled out of sight is not drawn).

Every problem of a game is collected over its twenty decisions and reported together (the
kind, the decision, the element), so one run says all that is wrong with a table.
Screenshots of the first viewport at decisions 1, 10 and 20:
test-output/e2e/tables-<game>-<width>-<decision>.png.

The browser and the app server are test_browser.py's (one of each per process: under
pytest-xdist, per worker)."""
import re
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from test_browser import browser, server, settle, shots  # noqa: F401

# game -> (its title in the new-game form, its players box, players, seed, number boxes set).
# Kitsu 4p on a 30-space track: the four seats' table, in a game long enough for twenty
# decisions of yours (on 15 spaces a clan may win in the second round).
GAMES = {"kitsu": ("Kitsu", "ng_players", 4, 11, {"ng_track": 30}),
         "kyushu": ("Kyūshū", "ng_ky_players", 3, 11, {}),
         "keyside": ("Keyside", "ng_ks_players", 2, 11, {}),
         "nukumi": ("Nukumi Onsen", "ng_nk_players", 2, 11, {})}
SIZES = {"desktop": {"width": 1440, "height": 900}, "phone": {"width": 390, "height": 844}}
DECISIONS = 20
SHOTS_AT = (1, 10, 20)

# What to click: a lit place or card, else a decision button that plays (keyed _act_).
CLICKABLE = ('.blb:not(.blb-inert) button.blb-place, '
             '.blb:not(.blb-inert) button.blb-piece:not([disabled]), '
             '.st-key-play_input [class*="_act_"] button:not([disabled])')


# The decision on screen, as a signature: its choices (lit places and cards of the live boards,
# the decision panel's buttons) by key and name; "over" at the game's end, null while nothing
# is to be chosen or the page is stale. A decision in two steps (a card, then its target)
# changes the signature without changing the move number.
DECISION_JS = r"""
() => {
  if (document.body.innerText.includes('Game over:')) return 'over';
  if (document.querySelector('[data-stale="true"] .st-key-play_input, .st-key-play_input[data-stale="true"]'))
    return null;
  const keyOf = (e) => { const k = e.closest('[class*="st-key-"]');
    return k ? [...k.classList].find((c) => c.startsWith('st-key-')) : ''; };
  const sig = [...document.querySelectorAll('CLICKABLE')]
    .filter((e) => e.offsetParent !== null && !e.closest('[data-stale="true"]'))
    .map((e) => keyOf(e) + ':' + (e.dataset.place || e.innerText.trim()));
  return sig.length ? sig.join('|') : null;
}
""".replace("CLICKABLE", CLICKABLE)


# What a player sees of the decision, measured at the top of the page (see the docstring).
PROBE_JS = r"""
() => {
  const W = innerWidth, H = innerHeight, TOL = 1;
  const shown = (e) => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && !e.closest('[data-stale="true"]'); };
  // a board a phone draws larger in a box that scrolls (its text readable) is panned in its
  // box, not by scrolling the page: what it holds counts where the box shows it, clipped to
  // the box, and, for being on the first screen, as the box
  const scroller = (e) => e.closest('.blb-zoomed');
  const rawBox = (e) => { const r = e.getBoundingClientRect();
    return {x: r.left, y: r.top, r: r.right, b: r.bottom}; };
  const box = (e) => { const b = rawBox(e), s = scroller(e);
    if (!s) return b;
    const c = rawBox(s);
    return {x: Math.max(b.x, c.x), y: Math.max(b.y, c.y), r: Math.min(b.r, c.r),
            b: Math.min(b.b, c.b)}; };
  const reach = (e) => scroller(e) ? rawBox(scroller(e)) : box(e);
  const inView = (b) => b.x >= -TOL && b.y >= -TOL && b.r <= W + TOL && b.b <= H + TOL;
  const name = (e) => (e.dataset.place ? e.dataset.place + ' ' : '') +
    (e.getAttribute('aria-label') || e.innerText || '').trim().replace(/\s+/g, ' ').slice(0, 50);
  const fmt = (b) => `(${Math.round(b.x)},${Math.round(b.y)})-(${Math.round(b.r)},${Math.round(b.b)})`;
  const out = {viewport: [], tip: [], overlap: [], jump: [], buttons: [], choices: 0};
  const table = document.querySelector('.st-key-play_board');
  out.board_top = table ? Math.round(table.getBoundingClientRect().top) : null;
  const input = document.querySelector('.st-key-play_input');
  const status = document.querySelector('.st-key-play_status');
  const prompt = input && [...input.querySelectorAll('[data-testid="stMarkdownContainer"]')]
    .find((e) => shown(e) && e.innerText.trim());
  for (const [what, el] of [['status line', status], ['prompt', prompt]]) {
    if (!el) out.viewport.push(`no ${what}`);
    else if (!inView(box(el))) out.viewport.push(`${what} "${name(el)}" at ${fmt(box(el))}`);
  }
  // the choices: lit places and cards of every live board, the decision panel's buttons
  const places = [...document.querySelectorAll(
    '.blb:not(.blb-inert) button.blb-place, .blb:not(.blb-inert) button.blb-piece:not([disabled])')]
    .filter(shown);
  const buttons = input ? [...input.querySelectorAll('[data-testid="stButton"] button')]
    .filter((b) => shown(b) && !b.disabled && !b.closest('[class*="st-key-hint_"]')) : [];
  out.choices = places.length + buttons.length;
  if (!out.choices) out.viewport.push('no choice on screen');
  for (const el of [...places, ...buttons])
    if (!inView(reach(el))) out.viewport.push(`choice "${name(el)}" at ${fmt(reach(el))}`);
  for (const el of places)
    if (!(el.dataset.tip || '').trim()) out.tip.push(`board choice "${name(el)}" has no tip`);
  buttons.forEach((b, i) => {
    b.dataset.blTest = String(i);
    out.buttons.push({i: i, name: name(b),
                      help: !!b.closest('[data-testid="stTooltipHoverTarget"]')});
  });
  // board elements: the boxes over the drawings and the pieces, per board
  const els = [...document.querySelectorAll(
    '.blb-stage > .blb-place, .blb-stage > .blb-info, .blb-pieces > .blb-slot')].filter(shown);
  const boxes = els.map((e) => ({e: e, b: box(e), root: e.closest('.blb'),
                                 n: name(e.matches('.blb-slot') ? e.firstElementChild : e)}))
    .filter((q) => q.b.r - q.b.x > TOL && q.b.b - q.b.y > TOL);    // not scrolled out of sight
  const inside = (a, o) => a.x >= o.x - TOL && a.y >= o.y - TOL && a.r <= o.r + TOL && a.b <= o.b + TOL;
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const p = boxes[i], q = boxes[j];
    const w = Math.min(p.b.r, q.b.r) - Math.max(p.b.x, q.b.x);
    const h = Math.min(p.b.b, q.b.b) - Math.max(p.b.y, q.b.y);
    if (w <= TOL || h <= TOL) continue;
    if (p.root === q.root && (inside(p.b, q.b) || inside(q.b, p.b))) {
      const [inner, outer] = inside(p.b, q.b) ? [p, q] : [q, p];
      // p comes first in the document: the inner one must be the later, drawn on top
      if (inner === p && !(inside(q.b, p.b)))
        out.overlap.push(`"${inner.n}" is hidden under "${outer.n}" ${fmt(outer.b)}`);
      continue;
    }
    out.overlap.push(`"${p.n}" ${fmt(p.b)} and "${q.n}" ${fmt(q.b)} overlap by ` +
                     `${Math.round(w)}x${Math.round(h)} px`);
  }
  return out;
}
"""


def to_top(page) -> None:
    page.evaluate("""() => { const m = document.querySelector('[data-testid="stMain"]');
                             if (m) m.scrollTo(0, 0); window.scrollTo(0, 0); }""")


def choose(page, key: str, option: str) -> None:
    page.locator(f".st-key-{key}").click()
    page.get_by_role("option", name=option, exact=True).click()
    settle(page, quiet=0.3)


def wait_decision(page, before=None) -> str:
    """Wait for a decision other than ``before`` (a signature of DECISION_JS), or the game's
    end; returns its signature ('over' at the end)."""
    page.wait_for_function(f"(before) => {{ const d = ({DECISION_JS})(); "
                           "return d !== null && d !== before; }",
                           arg=before, timeout=120000, polling=50)
    settle(page, quiet=0.4)
    page.wait_for_function(f"() => ({DECISION_JS})() !== null", timeout=120000, polling=50)
    return page.evaluate(DECISION_JS)


def start(page, server, game: str) -> str:  # noqa: F811
    title, players_box, players, seed, numbers = GAMES[game]
    page.goto(server + "/")
    page.get_by_role("button", name="Start new game").wait_for(timeout=60000)
    settle(page)
    if game != "kitsu":
        choose(page, "ng_game", title)
    choose(page, players_box, str(players))
    for key, value in numbers.items():
        box = page.locator(f".st-key-{key} input")
        box.fill(str(value))
        box.press("Enter")
        settle(page, quiet=0.3)
    page.get_by_text("Beginner", exact=True).first.click()
    seed_box = page.get_by_label("Seed (same seed, same deals)")
    seed_box.fill(str(seed))
    seed_box.press("Enter")
    settle(page, quiet=0.3)
    page.get_by_role("button", name="Start new game").click()
    return wait_decision(page)


def clear_tips(page) -> None:
    """The pointer away, no button focused, no tooltip open (one left open, by the pointer or
    by focus, may cover the next button)."""
    page.mouse.move(1, 1)
    page.evaluate("() => { const a = document.activeElement;"
                  " if (a && a.tagName === 'BUTTON') a.blur(); }")
    try:
        page.locator('[data-testid="stTooltipContent"]').first.wait_for(state="hidden",
                                                                        timeout=2000)
    except PlaywrightTimeout:
        pass


def button_tip(page, i: int) -> str:
    """The help Streamlit shows for decision button ``i`` (of the probe), read by hovering."""
    button = page.locator(f'[data-bl-test="{i}"]')
    text = ""
    # A hover that lands while the last tooltip closes is lost, and an open tooltip or the
    # phone's sticky header may cover the button: each try clears the tooltips and brings the
    # button to the middle of the screen, waiting longer each time (a lost hover costs seconds,
    # not the whole wait a slow machine may need).
    for timeout in (1500, 3000, 6000):
        clear_tips(page)
        button.evaluate("b => b.scrollIntoView({block: 'center'})")
        try:
            button.hover(timeout=timeout)
            tip = page.locator('[data-testid="stTooltipContent"]').last
            tip.wait_for(timeout=timeout)
            text = tip.inner_text().strip()
        except PlaywrightTimeout:               # covered, or no tooltip opened: tried again
            pass
        if text:
            break
        page.wait_for_timeout(300)
    clear_tips(page)
    return text


@pytest.mark.parametrize(("game", "size"), [(g, s) for g in GAMES for s in SIZES],
                         ids=[f"{g}-{s}" for g in GAMES for s in SIZES])
def test_a_table_shows_and_explains_each_decision(browser, server, shots, game, size):  # noqa: F811
    viewport = SIZES[size]
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    problems: dict[str, list[str]] = {"viewport": [], "tip": [], "overlap": [], "jump": []}
    board_top = None
    read = set()        # the buttons whose tooltip was read by hovering, by name
    try:
        ply = start(page, server, game)
        for n in range(1, DECISIONS + 1):
            assert ply != "over", f"the game ended before decision {n}"
            to_top(page)
            page.wait_for_timeout(50)           # a frame: the boxes after the scroll
            seen = page.evaluate(PROBE_JS)
            if seen["viewport"]:    # a run may have begun (its stale parts are not counted):
                settle(page, quiet=0.5)     # what is wrong is still wrong once it has ended
                to_top(page)
                page.wait_for_timeout(50)
                seen = page.evaluate(PROBE_JS)
            for b in seen["buttons"]:
                if not b["help"]:
                    seen["tip"].append(f'button "{b["name"]}" has no tooltip')
                elif b["name"] in read or size == "phone":
                    # its words were read at an earlier decision, or are read by the desktop
                    # test (a button's help is the same text at every size)
                    continue
                elif not button_tip(page, b["i"]):
                    seen["tip"].append(f'button "{b["name"]}" has an empty tooltip')
                else:
                    read.add(b["name"])
            if board_top is None:
                board_top = seen["board_top"]
            elif seen["board_top"] != board_top:    # the board stays where the eye is
                seen["jump"] = [f"the board's top at {seen['board_top']} px, "
                                f"at {board_top} px at decision 1"]
            for kind in problems:
                problems[kind] += [f"decision {n}: {p}" for p in seen[kind]]
            if n in SHOTS_AT:
                to_top(page)
                page.screenshot(path=str(shots / f"tables-{game}-{viewport['width']}-{n:02d}.png"))
            if n == DECISIONS:
                break
            choices = page.locator(CLICKABLE).filter(visible=True)
            count = choices.count()
            assert count, f"decision {n}: nothing to click"
            choices.nth((7 * n) % count).click()     # a spread of choices, the same each run
            ply = wait_decision(page, ply)
    finally:
        ctx.close()
    failed = {k: v for k, v in problems.items() if v}
    assert not failed, f"{game} at {viewport['width']}x{viewport['height']}:\n" + "\n".join(
        f"  {kind} ({len(v)}):\n" + "\n".join(f"    {p}" for p in v[:12])
        + (f"\n    … and {len(v) - 12} more" if len(v) > 12 else "") for kind, v in failed.items())
