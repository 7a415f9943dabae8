"""How fast the browser app feels: Playwright (Chromium) against a `boardlab app` it starts.

Prints one line per figure, never asserts:

* ``<game> <players>p beginner click->decision`` for each ``--game`` (Kitsu 4p, Kyushu 3p,
  Keyside 2p, Nukumi 2p; ``--game all`` for the four): a game at Beginner, you in seat 0; the
  time from a click on your first choice (a lit place or card on the board, else a decision
  button) until your next decision can be clicked (the AI replies included), median and p90,
  and the server's CPU seconds per decision; then a table of them;
* ``kyushu 3p beginner let-the-AI-finish``: a 3-player Kyushu game at Beginner, from the
  click on "Let the AI finish the game" at the first decision until "Game over";
* with ``--sessions N``: N browser sessions clicking at once against the same server,
  median/p90 latency, errors, decisions per second and server CPU seconds per decision.

    python bench/app_latency.py                        # n=30, then the Kyushu finish
    python bench/app_latency.py --game all --n 20 --no-finish   # the four games, a table
    python bench/app_latency.py --sessions 12 --n 10   # and 12 concurrent sessions
    python bench/app_latency.py --n 8 --sessions 3 --no-finish   # quick (CI)

The server is started with a throw-away data directory (BOARDLAB_DATA_DIR), on a free port;
Chromium is /usr/bin/chromium (or $BOARDLAB_CHROMIUM).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

CHROMIUM = os.environ.get("BOARDLAB_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
# game -> (its title in the form, its players box, players benched)
GAMES = {"kitsu": ("Kitsu", "ng_players", 4), "kyushu": ("Kyūshū", "ng_ky_players", 3),
         "keyside": ("Keyside", "ng_ks_players", 2), "nukumi": ("Nukumi Onsen", "ng_nk_players", 2)}
# A choice: a lit place or card of the board, else a decision button (keyed <input key>_act_..).
CHOICE = ('button.blb-place, button.blb-piece:not([disabled]), '
          '[class*="_act_"] button:not([disabled])')


def choices_of(ply: int) -> str:
    """The selector of decision ``ply``'s choices (its input's keys start "mv<ply>-"/"_")."""
    return ", ".join(f'[class*="st-key-mv{ply}{sep}"] {what}' if what != "act" else
                     f'[class*="st-key-mv{ply}_act_"] button:not([disabled])'
                     for sep in ("-", "_") for what in
                     ("button.blb-place", "button.blb-piece:not([disabled])", "act")
                     if not (what == "act" and sep == "-"))
# A decision: such a choice whose widget key starts "mv<ply>" (the Play page's move input),
# outside elements Streamlit marks stale (left over from the previous run).
NEXT_DECISION_JS = r"""
(prev) => {
  if (document.body.innerText.includes('Game over:')) return 'over';
  for (const b of document.querySelectorAll('CHOICE')) {""".replace("CHOICE", CHOICE) + r"""
    if (b.closest('[data-stale="true"]')) continue;
    const box = b.closest('[class*="st-key-mv"]');
    if (!box) continue;
    const m = [...box.classList].join(' ').match(/st-key-mv(\d+)[-_]/);
    if (m && Number(m[1]) > prev) return Number(m[1]);
  }
  return false;
}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (and its reaped children) from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(fields[i]) for i in (11, 12, 13, 14))   # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


class Server:
    """`python -m boardlab app` on a free port with its own data directory."""

    def __init__(self):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.dir = tempfile.mkdtemp(prefix="boardlab-bench-")
        env = dict(os.environ, BOARDLAB_DATA_DIR=str(Path(self.dir) / "games"))
        self.log = open(Path(self.dir) / "server.log", "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "boardlab", "app", "--port", str(self.port),
             "--host", "127.0.0.1"], cwd=self.dir, env=env, stdout=self.log,
            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.time() + 90
        while True:
            try:
                with urllib.request.urlopen(self.url + "/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                self.close()
                raise SystemExit("the app did not start:\n"
                                 + (Path(self.dir) / "server.log").read_text()[-3000:])
            time.sleep(0.3)

    def cpu(self) -> float:
        return cpu_seconds(self.proc.pid)

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


async def settle(page, quiet=0.5, timeout=60.0):
    """Wait until the app has not been running for ``quiet`` seconds."""
    deadline = time.time() + timeout
    since = None
    while time.time() < deadline:
        running = await page.locator('[data-testid="stStatusWidgetRunningIcon"]').count()
        if running:
            since = None
        elif since is None:
            since = time.time()
        elif time.time() - since >= quiet:
            return
        await asyncio.sleep(0.1)


async def choose(page, box_key: str, option: str):
    await page.locator(f".st-key-{box_key}").click(timeout=120000)
    await page.get_by_role("option", name=option, exact=True).click(timeout=120000)
    await settle(page, 0.3)


async def new_game(page, url: str, game: str, players: int, seed: int):
    """Open the app and start a game at Beginner (you in seat 0, the others AI)."""
    await page.context.clear_cookies()      # no last game resumed: the form is on the page
    await page.goto(url + "/")
    # no game yet: the form is on the page; the browser's last game resumed: in the bar's menu
    start = page.get_by_role("button", name="Start new game")
    menu = page.locator(".st-key-play_new button")
    deadline = time.time() + 120
    while not await start.is_visible():
        if await menu.count() and await menu.first.is_visible():
            await menu.first.click()
            await start.wait_for(timeout=120000)
            break
        if time.time() > deadline:
            raise TimeoutError("no new-game form")
        await asyncio.sleep(0.2)
    await settle(page)
    title, players_box, _ = GAMES[game]
    if game != "kitsu":
        await choose(page, "ng_game", title)
    await choose(page, players_box, str(players))
    await page.get_by_text("Beginner", exact=True).first.click()
    seed_box = page.get_by_label("Seed (same seed, same deals)")
    await seed_box.fill(str(seed))
    await seed_box.press("Enter")
    await settle(page, 0.3)
    await page.get_by_role("button", name="Start new game").click()
    confirm = page.get_by_role("button", name=re.compile("^Yes, start"))
    ply = await page.wait_for_function(
        NEXT_DECISION_JS.replace("(prev) => {", "(prev) => { if (document.querySelector("
                                 "'.st-key-ng_confirm_yes button')) return 'confirm';"),
        arg=-1, timeout=60000)
    if await ply.json_value() == "confirm":
        await confirm.click()
        ply = await page.wait_for_function(NEXT_DECISION_JS, arg=-1, timeout=60000)
    return await ply.json_value()


async def click_decisions(page, url: str, n: int, seed: int, latencies: list, errors: list,
                          counter: list, ply="over", game: str = "kitsu"):
    """Play ``n`` decisions by clicking the first enabled choice (from decision ``ply`` of a
    started game, else in a new game); a latency per click."""
    done, tries = 0, 0
    while done < n:
        if ply == "over":
            tries += 1
            if tries > n + 3:
                errors.append("gave up: games could not be started")
                return
            try:
                ply = await new_game(page, url, game, GAMES[game][2], seed + 1000 * tries)
            except Exception as e:          # noqa: BLE001 - counted, then tried again
                errors.append(f"new game: {type(e).__name__}: {str(e).splitlines()[0]}")
            continue
        button = page.locator(choices_of(ply)).filter(visible=True).first
        t0 = time.perf_counter()
        try:
            await button.click(timeout=30000)
            res = await page.wait_for_function(NEXT_DECISION_JS, arg=ply, timeout=60000,
                                               polling=20)
        except Exception as e:             # noqa: BLE001 - a timeout is an error to count
            errors.append(f"{type(e).__name__}: {str(e).splitlines()[0]}")
            ply = "over"
            continue
        latencies.append(time.perf_counter() - t0)
        counter[0] += 1
        done += 1
        ply = await res.json_value()
        if await page.locator('[data-testid="stException"]').count():
            errors.append("exception shown on the page")


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


async def bench_latency(browser, server, game: str, n: int, seed: int) -> dict:
    ctx = await browser.new_context(viewport={"width": 1440, "height": 900})
    page = await ctx.new_page()
    latencies, errors, count = [], [], [0]
    players = GAMES[game][2]
    ply = await new_game(page, server.url, game, players, seed)
    cpu0 = server.cpu()
    await click_decisions(page, server.url, n, seed, latencies, errors, count, ply, game)
    cpu = (server.cpu() - cpu0) / max(count[0], 1)
    await ctx.close()
    med = statistics.median(latencies) if latencies else float("nan")
    p90 = quantile(latencies, 0.9) if latencies else float("nan")
    print(f"{game} {players}p beginner click->decision median {med:.2f} s "
          f"(n={len(latencies)}, p90 {p90:.2f} s); server CPU "
          f"{cpu:.3f} s per decision (incl. starting games); errors {len(errors)}", flush=True)
    for e in sorted(set(errors))[:5]:
        print(f"  error: {e}", flush=True)
    return {"game": game, "players": players, "n": len(latencies), "median": med, "p90": p90,
            "cpu": cpu, "errors": len(errors)}


def print_table(rows: list) -> None:
    print("\n| game | players | clicks | median s | p90 s | server CPU s/decision | errors |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['game']} | {r['players']} | {r['n']} | {r['median']:.2f} | {r['p90']:.2f} "
              f"| {r['cpu']:.3f} | {r['errors']} |", flush=True)


async def bench_sessions(browser, server, sessions: int, n: int, seed: int):
    ctxs = [await browser.new_context(viewport={"width": 1280, "height": 1000})
            for _ in range(sessions)]
    pages = [await c.new_page() for c in ctxs]
    latencies, errors, count = [], [], [0]
    plies = []
    for i, p in enumerate(pages):            # the games start one by one, not timed
        try:
            plies.append(await new_game(p, server.url, "kitsu", 4, seed + 17 * i))
        except Exception as e:              # noqa: BLE001 - counted; that session retries
            errors.append(f"new game: {type(e).__name__}: {str(e).splitlines()[0]}")
            plies.append("over")
    cpu0, t0 = server.cpu(), time.perf_counter()
    await asyncio.gather(*(click_decisions(p, server.url, n, seed + 17 * i, latencies, errors,
                                           count, plies[i]) for i, p in enumerate(pages)))
    wall = time.perf_counter() - t0
    cpu = (server.cpu() - cpu0) / max(count[0], 1)
    for c in ctxs:
        await c.close()
    med = statistics.median(latencies) if latencies else float("nan")
    p90 = quantile(latencies, 0.9) if latencies else float("nan")
    print(f"kitsu 4p beginner {sessions} sessions click->decision median {med:.2f} s "
          f"(n={len(latencies)}, p90 {p90:.2f} s), errors {len(errors)}, "
          f"{count[0] / wall:.1f} decisions/s, server CPU {cpu:.3f} s per decision "
          f"(incl. games started after one ended)", flush=True)
    for e in sorted(set(errors))[:5]:
        print(f"  error: {e}", flush=True)


async def bench_finish(browser, server, seed: int):
    ctx = await browser.new_context(viewport={"width": 1440, "height": 1100})
    page = await ctx.new_page()
    try:
        await new_game(page, server.url, "kyushu", 3, seed)
        await settle(page, 0.3)
        t0 = time.perf_counter()
        await page.get_by_role("button", name="Let the AI finish the game").click()
        await page.get_by_text("Game over:").first.wait_for(timeout=600000)
        took = time.perf_counter() - t0
        print(f"kyushu 3p beginner let-the-AI-finish {took:.1f} s", flush=True)
    except Exception as e:                  # noqa: BLE001 - reported, the bench goes on
        print(f"kyushu 3p beginner let-the-AI-finish: error {type(e).__name__}: "
              f"{str(e).splitlines()[0]}", flush=True)
    await ctx.close()


async def run(args):
    from playwright.async_api import async_playwright
    server = Server()
    try:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            if args.n:
                rows = [await bench_latency(browser, server, game, args.n, args.seed)
                        for game in args.games]
                if len(rows) > 1:
                    print_table(rows)
            if args.finish:
                await bench_finish(browser, server, args.seed)
            if args.sessions:
                await bench_sessions(browser, server, args.sessions, args.session_n, args.seed)
            await browser.close()
    finally:
        server.close()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=30, help="clicks timed in one session (0: skip)")
    ap.add_argument("--sessions", type=int, default=0, help="concurrent browser sessions (0: skip)")
    ap.add_argument("--session-n", type=int, default=10, help="clicks per concurrent session")
    ap.add_argument("--no-finish", dest="finish", action="store_false",
                    help="skip the Kyushu 'Let the AI finish' figure")
    ap.add_argument("--game", action="append", choices=[*GAMES, "all"],
                    help="the game(s) of the click->decision figure (repeat it; 'all': the "
                         "four; default kitsu)")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    chosen = args.game or ["kitsu"]
    args.games = list(GAMES) if "all" in chosen else list(dict.fromkeys(chosen))
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
