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
  median/p90 latency, errors, decisions per second and server CPU seconds per decision;
* with ``--tables T --humans H [--think S]``: T tables of 4-player Kitsu played at once
  (H human seats each, the others AI at Beginner), one browser context per human seat,
  each waiting S seconds before its click: the latency from a click until every other
  human seat's browser shows the move (median, p90), errors, the server's CPU seconds per
  decision (per human click, and per decision with the AI's), the browsers' CPU seconds,
  and the capacity this implies (decisions per second per core of server CPU).

    python bench/app_latency.py                        # n=30, then the Kyushu finish
    python bench/app_latency.py --game all --n 20 --no-finish   # the four games, a table
    python bench/app_latency.py --sessions 12 --n 10   # and 12 concurrent sessions
    python bench/app_latency.py --n 8 --sessions 3 --no-finish   # quick (CI)
    python bench/app_latency.py --n 0 --no-finish --tables 2 --humans 4 --think 3

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
    """The selector of decision ``ply``'s choices (its input's keys start "mv<ply>-"/"_"; a
    decision button's key holds "_act_" after that, e.g. "mv8_act_3" or "mv8-g2_act_301")."""
    return ", ".join([f'[class*="st-key-mv{ply}{sep}"] {what}' for sep in ("-", "_")
                      for what in ("button.blb-place", "button.blb-piece:not([disabled])")]
                     + [f'[class*="st-key-mv{ply}_act_"] button:not([disabled])',
                        f'[class*="st-key-mv{ply}-"][class*="_act_"] button:not([disabled])'])


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


# --- tables of friends: several humans per game, each in their own browser -------------------
# The table page marks the version on screen (data-version on its status line); a decision is
# an enabled button in the seat's input area. Elements Streamlit marks stale are skipped.
TABLE_VERSION_JS = r"""
() => {
  for (const s of document.querySelectorAll('.bl-tstatus[data-version]')) {
    if (!s.closest('[data-stale="true"]')) return Number(s.dataset.version);
  }
  return -1;
}
"""
# A decision: an enabled button of the seat's input area (not a widget's help icon, which is a
# button too), or a lit place on the board (a Kitsu Katana's target is clicked on the table).
TABLE_CHOICES_JS = r"""
() => [...document.querySelectorAll(
    '.st-key-play_input button:not([disabled]):not([aria-label^="Help for"]), .st-key-tbl_board button.blb-place:not([disabled]), .st-key-tbl_board button.blb-legal:not([disabled])')]
  .filter(b => !b.closest('[data-stale="true"]'))
"""
TABLE_TURN_JS = r"""
() => {
  if (document.body.innerText.includes('Game over')) return 'over';
  let version = -1;
  for (const s of document.querySelectorAll('.bl-tstatus[data-version]')) {
    if (!s.closest('[data-stale="true"]')) version = Number(s.dataset.version);
  }
  if (version < 0 || !document.body.innerText.includes('Your turn')) return false;
  return (""" + TABLE_CHOICES_JS + """)().length ? version : false;
}
"""
TABLE_CLICK_JS = r"""
() => {
  const choices = (""" + TABLE_CHOICES_JS + """)();
  if (!choices.length) return false;
  choices[0].click();
  return true;
}
"""


def browser_cpu_seconds(server) -> float:
    """CPU seconds of this process's descendants other than the app server (the
    Playwright driver and Chromium)."""
    me = os.getpid()
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(d.name))
    total, stack = 0.0, list(children.get(me, []))
    while stack:
        pid = stack.pop()
        try:
            if pid == server.proc.pid:
                continue                      # the server (measured on its own)
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(fields[i]) for i in (11, 12)) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            continue
        stack.extend(children.get(pid, []))
    return total


def make_tables(server, count: int, humans: int, seed: int) -> list:
    """``count`` 4-player Kitsu tables (Beginner AI), made with the Python store on the
    server's database; returns (game id, {seat: token}) pairs."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import boardlab
    from boardlab.streamlit_app.session import AI, HUMAN, PlaySession
    from boardlab.streamlit_app.store import GameStore
    store = GameStore(Path(server.dir) / "games")
    made = []
    for t in range(count):
        seats = [HUMAN] * humans + [AI] * (4 - humans)
        sess = PlaySession(game=boardlab.make("kitsu", players=4), seats=seats,
                           preset="Beginner", seed=seed + 101 * t)
        new = store.create_table(sess, names=[f"T{t}P{s}" for s in range(humans)] + [None] *
                                 (4 - humans))
        made.append((new.game_id, dict(new.seat_tokens)))
    store.close()
    return made


async def table_seat(page, others, think: float, table: dict, latencies: list, errors: list,
                     counter: list):
    """One human seat: wait for its decision, think, click the first choice, and time
    until every other human seat's page shows a version past the clicked one; until the
    table has had its ``table["left"]`` human decisions."""
    waited = 0.0
    while table["left"] > 0:
        try:
            turn = await page.wait_for_function(TABLE_TURN_JS, timeout=2000, polling=50)
        except Exception:                   # noqa: BLE001 - not this seat's turn yet
            waited += 2.0
            if waited > 180:
                errors.append("no decision came in 180 s")
                return
            continue
        waited = 0.0
        version = await turn.json_value()
        if version == "over":               # the game ended before its decisions were played
            table["left"], table["over"] = 0, True
            return
        if think:
            await asyncio.sleep(think)
        t0 = time.perf_counter()
        if not await page.evaluate(TABLE_CLICK_JS):
            continue                        # the page changed meanwhile: look again
        try:
            await asyncio.gather(*(o.wait_for_function(
                f"() => ({TABLE_VERSION_JS})() > {int(version)}", timeout=120000, polling=20)
                for o in others))
        except Exception as e:              # noqa: BLE001 - a timeout is an error to count
            errors.append(f"not seen by every seat: {type(e).__name__}")
            continue
        latencies.append(time.perf_counter() - t0)
        counter[0] += 1
        table["left"] -= 1
        if await page.locator('[data-testid="stException"]').count():
            errors.append("exception shown on the page")
        if "moved on before your click" in await page.content():
            errors.append("told the game moved on")


async def bench_tables(browser, server, tables: int, humans: int, think: float, n: int,
                       seed: int):
    made = make_tables(server, tables, humans, seed)
    ctxs, seats = [], []
    for gid, tokens in made:               # the pages open one by one, not timed
        pages = []
        for s in sorted(tokens):
            ctx = await browser.new_context(viewport={"width": 1280, "height": 1000})
            page = await ctx.new_page()
            await page.goto(f"{server.url}/?game={gid}&seat={tokens[s]}")
            await page.wait_for_function(f"() => ({TABLE_VERSION_JS})() >= 1", timeout=180000)
            ctxs.append(ctx)
            pages.append(page)
        seats.append(pages)
    latencies, errors, count = [], [], [0]
    cpu0, bcpu0, v0, t0 = server.cpu(), browser_cpu_seconds(server), versions(server, made), \
        time.perf_counter()
    left = [{"left": n * humans} for _ in seats]
    await asyncio.gather(*(table_seat(p, [o for o in pages if o is not p], think, left[t],
                                      latencies, errors, count)
                           for t, pages in enumerate(seats) for p in pages))
    wall = time.perf_counter() - t0
    cpu, bcpu = server.cpu() - cpu0, browser_cpu_seconds(server) - bcpu0
    all_decisions = versions(server, made) - v0
    for c in ctxs:
        await c.close()
    med = statistics.median(latencies) if latencies else float("nan")
    p90 = quantile(latencies, 0.9) if latencies else float("nan")
    per_click = cpu / max(count[0], 1)
    per_decision = cpu / max(all_decisions, 1)
    print(f"kitsu 4p tables {tables}x{humans} humans think {think:g} s: click->every other "
          f"seat sees it median {med:.2f} s p90 {p90:.2f} s (n={len(latencies)}), errors "
          f"{len(errors)}; {count[0]} human + {all_decisions - count[0]} AI decisions in "
          f"{wall:.0f} s; server CPU {per_click:.3f} s per human decision, {per_decision:.3f} "
          f"s per decision; browsers CPU {bcpu / max(count[0], 1):.2f} s per human decision; "
          f"capacity {1 / per_decision if per_decision else float('inf'):.0f} decisions/s "
          f"per core; {sum(t.get('over', False) for t in left)} of {tables} games ended "
          f"early", flush=True)
    for e in sorted(set(errors))[:5]:
        print(f"  error: {e} (x{errors.count(e)})", flush=True)


def versions(server, made) -> int:
    """The sum of the tables' versions: +1 with every committed decision (human or AI)."""
    from boardlab.streamlit_app.store import GameStore
    store = GameStore(Path(server.dir) / "games")
    try:
        return sum(store.version(gid) for gid, _ in made)
    finally:
        store.close()


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
            if args.tables:
                await bench_tables(browser, server, args.tables, args.humans, args.think,
                                   args.table_n, args.seed)
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
    ap.add_argument("--tables", type=int, default=0,
                    help="4-player Kitsu tables played at once by browsers (0: skip)")
    ap.add_argument("--humans", type=int, default=4, choices=range(1, 5),
                    help="human seats per table (one browser context each)")
    ap.add_argument("--think", type=float, default=0.0,
                    help="seconds each human waits before clicking")
    ap.add_argument("--table-n", type=int, default=10,
                    help="human decisions per table, per human seat")
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
