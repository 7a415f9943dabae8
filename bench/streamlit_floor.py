"""What a Streamlit page run costs the server before any boardlab code: the floor under the
table page's CPU per decision (docs/scale.md, "The floor under it").

A throw-away script (one button, then ELEMENTS Markdown elements of KB kilobytes in all, for
each ``--shape ELEMENTS:KB``) is served by the same ``streamlit run`` command line as
``boardlab app`` (no garbage collection after each run, no file watcher, ...); Chromium clicks
the button ``--n`` times, each click waited out until the run has ended. Prints, per page
shape, the server's CPU seconds per page run (its idle CPU over the same time taken off) and
what four such runs, one per seat of a table of four humans, cost each decision. Never
asserts.

    python bench/streamlit_floor.py                       # 1 element, then the table page's shape
    python bench/streamlit_floor.py --shape 23:70 --n 200
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_latency import CHROMIUM, CHROMIUM_ARGS, cpu_seconds, free_port  # noqa: E402

from boardlab.streamlit_app import MAIN_SCRIPT, streamlit_command  # noqa: E402

SCRIPT = """
import streamlit as st
st.button("go", key="go")
for i in range({elements}):
    st.markdown(f"element {{i}} " + "x" * {size})
"""
RUN_OVER = "() => !document.querySelector('[data-testid=stStatusWidget]')"


def per_run(elements: int, kb: float, n: int) -> tuple[float, float]:
    """(server CPU s per page run, idle CPU s per second) for that page shape."""
    from playwright.sync_api import sync_playwright
    folder = Path(tempfile.mkdtemp(prefix="boardlab-floor-"))
    size = int(kb * 1024 / max(elements, 1))
    (folder / "page.py").write_text(SCRIPT.format(elements=elements, size=size))
    port = free_port()
    cmd = streamlit_command(port, "127.0.0.1")          # `boardlab app`'s, on this page
    cmd[cmd.index(str(MAIN_SCRIPT))] = str(folder / "page.py")
    server = subprocess.Popen(cmd, cwd=folder, stdout=subprocess.DEVNULL,
                              stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            deadline = time.time() + 60
            while True:
                try:
                    page.goto(f"http://127.0.0.1:{port}/")
                    break
                except Exception:           # noqa: BLE001 - the server is still starting
                    if time.time() > deadline:
                        raise
                    time.sleep(0.5)
            button = page.get_by_role("button", name="go")
            button.wait_for()
            page.wait_for_function(RUN_OVER)
            time.sleep(1.0)
            c0, t0 = cpu_seconds(server.pid), time.time()
            for _ in range(n):
                button.click()
                page.wait_for_timeout(30)
                page.wait_for_function(RUN_OVER)
            time.sleep(0.5)
            busy, took = cpu_seconds(server.pid) - c0, time.time() - t0
            c1 = cpu_seconds(server.pid)
            time.sleep(min(took, 10.0))
            idle = (cpu_seconds(server.pid) - c1) / min(took, 10.0)
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
    return max(busy - idle * took, 0.0) / n, idle


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shape", action="append", metavar="ELEMENTS:KB",
                    help="a page of ELEMENTS Markdown elements, KB kilobytes in all (default: "
                         "1:0, then 23:70, the shape of a waiting seat's table page)")
    ap.add_argument("--n", type=int, default=120, help="page runs timed per shape")
    args = ap.parse_args()
    if args.n < 1:
        ap.error(f"--n must be at least 1, got {args.n}")
    for shape in args.shape or ["1:0", "23:70"]:
        try:
            elements, kb = shape.split(":")
            elements, kb = int(elements), float(kb)
        except ValueError:
            ap.error(f"--shape {shape!r}: expected ELEMENTS:KB, e.g. 23:70")
        if elements < 0 or not 0 <= kb <= 10_000:
            ap.error(f"--shape {shape!r}: ELEMENTS must be >= 0 and KB in [0, 10000]")
        cpu, idle = per_run(elements, kb, args.n)
        print(f"streamlit page run, {elements} elements, {kb:g} KB: {cpu * 1000:.1f} ms server "
              f"CPU a run (n={args.n}; idle {idle * 1000:.1f} ms/s taken off); four seats' runs "
              f"a decision: {4 * cpu:.3f} CPU-s", flush=True)


if __name__ == "__main__":
    main()
