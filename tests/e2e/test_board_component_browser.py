"""The board component (streamlit_app/board_component.py) in Chromium, on a small script of its
own (board_demo_app.py): a place's tip shows on hover (inert places and disabled pieces too),
each place animates once per animation key (not again on a reload), a click during an
animation is a click at once, and nothing moves under prefers-reduced-motion."""
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from test_browser import _free_port, browser, settle, shots  # noqa: F401

DEMO = Path(__file__).resolve().parent / "board_demo_app.py"


@pytest.fixture(scope="module")
def demo(browser, tmp_path_factory):  # noqa: F811
    port = _free_port()
    cwd = tmp_path_factory.mktemp("demo")
    log = open(cwd / "streamlit.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(DEMO),
                             "--server.port", str(port), "--server.address", "127.0.0.1",
                             "--server.headless", "true", "--browser.gatherUsageStats", "false"],
                            cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.time() > deadline:
                raise RuntimeError("the demo did not start:\n"
                                   + (cwd / "streamlit.log").read_text()[-3000:])
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def open_demo(browser, url, **ctx_args):  # noqa: F811
    ctx = browser.new_context(viewport={"width": 900, "height": 700}, **ctx_args)
    page = ctx.new_page()
    page.goto(url)
    page.locator(".blb-place").first.wait_for(timeout=30000)
    settle(page)
    return ctx, page


def anim_log(page) -> list:
    return page.evaluate("(window.__blbAnimLog || []).map(e => [e.id, e.kind, e.reduced])")


def visible_tip(page) -> str:
    return page.locator(".blb-tip:not([hidden])").inner_text()


def test_tips_show_on_hover_on_legal_and_inert_places(browser, demo, shots):  # noqa: F811
    ctx, page = open_demo(browser, demo)
    page.hover('.blb-place[data-place="a"]')
    assert visible_tip(page) == "Card A: gives 2 points"
    page.hover('.blb-info[data-place="b"]')                 # inert, drawn hoverable for its tip
    assert visible_tip(page) == "Market B: costs 1 coin"
    page.screenshot(path=str(shots / "component-tip.png"))
    assert page.locator('.blb-place[data-place="c"]').get_attribute("data-tip") is None
    page.hover('.blb-piece[data-place="p2"]', force=True)   # a disabled piece: its slot shows it
    assert visible_tip(page) == "Piece 2: not now"
    assert page.locator('.blb-piece[data-place="p2"]').is_disabled()
    ctx.close()


# The board's arrival animations (Element.animate), not the CSS transitions a click or a
# hover starts (a sent place fades for 0.2 s, a tooltip fades in).
ARRIVALS = ("document.querySelector('.blb').getAnimations({subtree: true})"
            ".filter((a) => !(a instanceof CSSTransition))")


def test_each_place_animates_once_per_key_and_a_click_is_not_delayed(browser, demo):  # noqa: F811
    ctx, page = open_demo(browser, demo)
    assert sorted(anim_log(page)) == [["a", "slide", False], ["b", "flash", False],
                                      ["c", "drop", False], ["p1", "drop", False]]
    page.reload()                                            # the same moment: not again
    page.locator(".blb-place").first.wait_for()
    settle(page)
    assert anim_log(page) == []
    page.get_by_role("button", name="next").click()          # a new moment: once more
    settle(page)
    page.wait_for_function("(window.__blbAnimLog || []).length >= 4", timeout=10000)
    assert sorted(e[0] for e in anim_log(page)) == ["a", "b", "c", "p1"]
    page.get_by_role("button", name="next").click()
    page.locator('.blb-place[data-place="a"]').wait_for()
    page.wait_for_function(f"{ARRIVALS}.length > 0")         # clicked while it plays
    page.click('.blb-place[data-place="a"]')
    page.get_by_text("clicks: a").wait_for(timeout=10000)
    assert page.evaluate(f"{ARRIVALS}.length") == 0         # the click ended them
    ctx.close()


def test_nothing_moves_under_reduced_motion(browser, demo):  # noqa: F811
    ctx, page = open_demo(browser, demo, reduced_motion="reduce")
    assert sorted(anim_log(page)) == [["a", "slide", True], ["b", "flash", True],
                                      ["c", "drop", True], ["p1", "drop", True]]
    assert page.evaluate("[...document.querySelectorAll('.blb')].map(e => e.dataset.animated)"
                         ) == ["0", "0"]
    ctx.close()
