#!/usr/bin/env python3
"""The README's two pictures, taken from the real app (issue 54):

- ``play.png``: the Play page on a 1440x900 screen in the middle of a 2-player Kitsu game
  against the AI, with the evaluation bar on: the board, the decision (the cards to play) and
  the move log.
- ``review.png``: the Analyse page of a finished 2-player Kitsu game after "Analyse the whole
  game": the board at a flagged decision with "Show the better move" (the better card ringed
  in purple), then the win-% graph, the summary per seat, the review table and the flagged
  decision's row. The page is taller than a screen: the picture joins these two parts of one
  screenshot, cut where a dashed line runs across (the forms between them are left out).

It starts ``python -m boardlab app`` on a free local port with a throw-away store (the server
of bench/app_latency.py), drives Chromium through the app with Playwright (each game's record
loaded through "Load a saved game", as a player goes on with a saved game), writes the two
PNGs and stops the server. The games are AI games of fixed seeds and the review has a fixed
budget in iterations, so a rerun gives the same pictures; it takes about half a minute.

    python scripts/readme_pictures.py [--out docs/pictures] [--chromium /usr/bin/chromium]

Needs the package (``pip install .``), Playwright's Python package (``pip install
playwright``) and a Chromium (Debian's ``chromium``; never ``playwright install``). Pillow
(installed with Streamlit) makes the PNGs small and joins the review's two parts; without it
both are written as taken (the review: the whole page, the forms between the parts too).
"""
from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The app's server (a free port, a throw-away store) and the Chromium the app's bench drives.
sys.path.insert(0, str(ROOT / "bench"))
from app_latency import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402

SCREEN = {"width": 1440, "height": 900}

# The Play picture: Kitsu, 2 players, the default wisdom track; both seats an ISMCTS of this
# budget until P0 holds three cards in round 2 or later, a trick under way and one finished.
PLAY_GAME = {"players": 2}
PLAY_SEEDS = range(10, 40)        # the first seed whose game reaches such a position
PLAY_AGENTS = ("ismcts:300", "ismcts:300")
# The review: a short Kitsu game (a wisdom track of 6) of a weak P0 against a stronger P1,
# reviewed at the Analyse page's default of 2,000 iterations a decision (about 0.02 s each).
REVIEW_GAME = {"players": 2, "track_length": 6}
REVIEW_SEED = 5
REVIEW_AGENTS = ("ismcts:30", "ismcts:300")
REVIEW_ITERATIONS = 2000


# --- the games -------------------------------------------------------------------------------
def ai_game(opts: dict, seed: int, specs, stop=lambda state: False):
    """A Kitsu game of the agents ``specs`` (one a seat, seeded from ``seed``), chance drawn
    with its probabilities from ``seed``: the first position where ``stop`` holds, else the
    end of the game."""
    import boardlab
    from boardlab.agents import make_agent
    state = boardlab.make("kitsu", **opts).new_initial_state(seed=seed)
    rng = random.Random(seed)
    agents = [make_agent(spec, seed=seed * 10 + p) for p, spec in enumerate(specs)]
    while not state.is_terminal():
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([a for a, _ in outcomes], [q for _, q in outcomes])[0])
        elif stop(state):
            break
        else:
            state.apply(agents[state.current_player].step(state))
    return state


def mid_game(state) -> bool:
    """P0 to move with three cards in hand in round 2 or later, a trick started and the last
    one on the table, a pawn well up the track: the board has something in every part."""
    obs = state.observation(0)
    return (state.current_player == 0 and obs["round"] >= 2 and max(obs["pawns"]) >= 3
            and len(obs["hands"][0]) == 3 and len(obs["trick"]) >= 1
            and bool(obs["last_trick"]["cards"]) and len(state.legal_actions()) >= 2)


def play_record() -> dict:
    for seed in PLAY_SEEDS:
        state = ai_game(PLAY_GAME, seed, PLAY_AGENTS, mid_game)
        if not state.is_terminal():
            record = state.to_record()
            record["app"] = {"seats": ["human", "ai"], "ai": "Casual"}
            return record
    raise SystemExit(f"no seed of {PLAY_SEEDS} reaches the Play picture's position")


def review_record() -> dict:
    record = ai_game(REVIEW_GAME, REVIEW_SEED, REVIEW_AGENTS).to_record()
    record["app"] = {"seats": ["human", "ai"], "ai": "Casual"}
    return record


# --- the browser -----------------------------------------------------------------------------
# True once the app has not been running for ``quiet`` ms (Streamlit's running icon absent).
IDLE = """quiet => {
  const now = performance.now();
  if (document.querySelector('[data-testid="stStatusWidgetRunningIcon"]')) {
    window.__readmeIdle = null;
    return false;
  }
  if (window.__readmeIdle == null) window.__readmeIdle = now;
  return now - window.__readmeIdle >= quiet;
}"""


def settle(page, quiet_ms=700, timeout_ms=90000) -> None:
    """Wait until the app has been idle for ``quiet_ms``."""
    page.evaluate("() => { window.__readmeIdle = null; }")
    page.wait_for_function(IDLE, arg=quiet_ms, polling=100, timeout=timeout_ms)


def open_app(browser, url: str):
    ctx = browser.new_context(viewport=SCREEN)
    page = ctx.new_page()
    page.goto(url + "/")
    page.get_by_role("button", name="Start new game").wait_for(timeout=60000)
    settle(page)
    return ctx, page


def load_saved_game(page, record: dict) -> None:
    """Play page, no game yet: "Load a saved game" with ``record``."""
    page.get_by_text("Load a saved game").click()
    page.locator('.st-key-ng_upload input[type="file"]').set_input_files(
        files=[{"name": "game.json", "mimeType": "application/json",
                "buffer": json.dumps(record).encode()}])
    page.locator(".st-key-play_log").wait_for(timeout=60000)    # the game's table
    settle(page)


def goto_page(page, title: str) -> None:
    page.locator('[data-testid="stTopNav"], [data-testid="stSidebarNav"]').get_by_text(
        title, exact=True).click()
    settle(page)


def box(page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    if found is None:
        raise SystemExit(f"nothing drawn for {selector!r}")
    return found


def take_play(browser, url: str) -> bytes:
    ctx, page = open_app(browser, url)
    load_saved_game(page, play_record())
    page.get_by_text("Evaluation bar", exact=True).click()
    page.locator(".bl-evalbar").first.wait_for(timeout=60000)
    settle(page)
    shot = page.screenshot()
    ctx.close()
    return shot


def pick_worst_flag(page) -> int:
    """Choose the flagged decision that lost the most win % ("26: P0 play O1 (blunder,
    -53.9%)"); returns its number."""
    page.get_by_role("combobox", name="Flagged decision").click()
    page.keyboard.press("ArrowDown")                  # the list opens
    page.get_by_role("option").first.wait_for(timeout=30000)
    options = page.get_by_role("option").all_inner_texts()
    lost = {t: float(m.group(1)) for t in options if (m := re.search(r"-(\d+(?:\.\d+)?)%", t))}
    if not lost:
        raise SystemExit(f"no flagged decision to show: {options}")
    worst = max(lost, key=lambda t: (lost[t], t))
    page.get_by_role("option", name=worst, exact=True).click()
    settle(page)
    return int(worst.split(":")[0])


# The review table (a canvas grid of a row a decision, both seats reviewed) scrolled so that
# ``decision``'s row is its third.
SCROLL_TABLE = """([decision, decisions]) => {
  const scroller = document.querySelector('.st-key-rv_table_box .dvn-scroller');
  const row = scroller.scrollHeight / (decisions + 1);          // the header is a row high
  scroller.scrollTop = Math.max(0, (decision - 2) * row);
  return scroller.scrollTop;
}"""


def scroll_table_to(page, decision: int) -> None:
    decisions = int(re.search(r"of (\d+)", page.get_by_text(
        re.compile(r"^Decision \d+ of \d+")).inner_text()).group(1))
    if page.evaluate(SCROLL_TABLE, [decision, decisions]) > 0:
        # the grid draws the rows scrolled to on its next frames
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => "
                      "requestAnimationFrame(r)))")


def take_review(browser, url: str):
    """(the screenshot, the two regions to keep as (left, top, right, bottom))."""
    ctx, page = open_app(browser, url)
    load_saved_game(page, review_record())
    page.get_by_text(re.compile(r"^Game over")).first.wait_for(timeout=60000)
    goto_page(page, "Analyse")
    page.get_by_text(re.compile(r"^Decision \d+ of \d+")).wait_for(timeout=60000)
    iterations = page.locator(".st-key-rv_iters input")
    iterations.fill(str(REVIEW_ITERATIONS))
    iterations.press("Enter")
    settle(page)
    page.get_by_role("button", name="Analyse the whole game").click()
    page.get_by_text(re.compile(r"^This review is kept with the game")).wait_for(timeout=600000)
    settle(page)
    decision = pick_worst_flag(page)
    page.get_by_role("button", name="Show the better move").click()
    page.get_by_text(re.compile(r"^Better move: ")).wait_for(timeout=60000)
    page.get_by_text(re.compile(rf"^Decision {decision} of \d+")).wait_for(timeout=60000)
    settle(page)
    # a screen tall enough for the whole page (it scrolls inside its main block)
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]')"
                           ".scrollHeight")
    page.set_viewport_size({"width": SCREEN["width"], "height": int(height) + 40})
    settle(page)
    page.locator(".st-key-rv_graph .scatterlayer path.point").first.wait_for(timeout=60000)
    scroll_table_to(page, decision)
    graph = box(page, ".st-key-rv_graph")
    left, right = graph["x"] - 24, graph["x"] + graph["width"] + 24
    better = box(page, '[class*="st-key-an_better_"]')
    top = min(box(page, ".st-key-an_first")["y"], box(page, '[data-testid="stSlider"]')["y"])
    below = box(page, ".st-key-an_game_kind")["y"]          # the search form after it
    board = (left, top - 16, right, min(better["y"] + better["height"] + 28, below - 8))
    flag = box(page, ".st-key-rv_flag")
    table = (left, graph["y"] - 16, right, flag["y"] + flag["height"] + 16)
    shot = page.screenshot()
    ctx.close()
    return shot, [tuple(round(v) for v in r) for r in (board, table)]


# --- the files -------------------------------------------------------------------------------
def small_png(image) -> bytes:
    """``image`` as a PNG of 256 colours (the app's flat colours and text keep well)."""
    from PIL import Image
    out = io.BytesIO()
    image.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT,
                                  dither=Image.Dither.NONE).save(out, "PNG", optimize=True)
    return out.getvalue()


def write_play(shot: bytes, path: Path) -> None:
    try:
        from PIL import Image
    except ImportError:
        path.write_bytes(shot)
        return
    path.write_bytes(small_png(Image.open(io.BytesIO(shot))))


def write_review(shot: bytes, regions, path: Path) -> None:
    (board, table) = regions
    try:
        from PIL import Image, ImageDraw
    except ImportError:                     # one stretch, the forms between the parts too
        path.write_bytes(shot)
        return
    full = Image.open(io.BytesIO(shot)).convert("RGB")
    parts = [full.crop(board), full.crop(table)]
    gap = 32
    width = max(p.width for p in parts)
    out = Image.new("RGB", (width, sum(p.height for p in parts) + gap), "white")
    out.paste(parts[0], (0, 0))
    out.paste(parts[1], (0, parts[0].height + gap))
    draw = ImageDraw.Draw(out)
    y = parts[0].height + gap // 2
    for x in range(24, width - 24, 12):     # a dashed line: the page goes on between them
        draw.line([(x, y), (x + 6, y)], fill=(190, 190, 190), width=1)
    path.write_bytes(small_png(out))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Take the README's pictures (play.png, review.png) from the real app: "
                    "starts `boardlab app` on a free local port, drives Chromium through it "
                    "with Playwright, writes the PNGs and stops the server.")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "pictures",
                        help="folder for play.png and review.png (default: docs/pictures)")
    parser.add_argument("--chromium", default=CHROMIUM,
                        help="the Chromium to drive (default: $BOARDLAB_CHROMIUM, else "
                             "`chromium` on the PATH, else /usr/bin/chromium)")
    args = parser.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise SystemExit("needs Playwright: pip install playwright (and a Chromium; "
                         "never `playwright install` here)") from None
    if not os.path.exists(args.chromium):
        raise SystemExit(f"no Chromium at {args.chromium} (--chromium PATH)")
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    app = Server()                      # waits until it answers; its folder goes with it
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            try:
                play = take_play(browser, app.url)
                review, regions = take_review(browser, app.url)
            finally:
                browser.close()
    finally:
        app.close()
    write_play(play, args.out / "play.png")
    write_review(review, regions, args.out / "review.png")
    for name in ("play.png", "review.png"):
        print(f"{args.out / name}: {(args.out / name).stat().st_size / 1024:.0f} KB")
    print(f"in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
