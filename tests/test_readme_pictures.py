"""The README's pictures and the script that takes them (scripts/readme_pictures.py, issue 54),
kept from rotting without a browser: the script imports and answers --help, the games it
shows are still built (a mid-game position for the Play picture, a finished game for the
review), and docs/pictures/play.png and review.png are PNGs of the sizes it writes, small,
and shown by the README. (Rerun the script after a change to what the pictures show.)

Read from the source tree beside this file; skipped where there is none (the smoke tests run
from a folder holding tests/ alone)."""
from __future__ import annotations

import importlib.util
import struct
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "readme_pictures.py"
PICTURES = ROOT / "docs" / "pictures"
if not SCRIPT.is_file():
    pytest.skip("no source tree beside the tests (scripts/readme_pictures.py)",
                allow_module_level=True)


def script():
    spec = importlib.util.spec_from_file_location("readme_pictures", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) from the PNG's header; fails if it is not a PNG."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def test_the_script_answers_help():
    out = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "--out" in out.stdout and "--chromium" in out.stdout


def test_the_games_it_shows_are_built():
    rp = script()
    import boardlab
    play = rp.play_record()
    state = boardlab.replay(play)
    assert not state.is_terminal() and rp.mid_game(state)
    assert play["app"]["seats"] == ["human", "ai"]
    review = rp.review_record()
    assert boardlab.replay(review).is_terminal()


def test_the_pictures_are_small_pngs_of_their_sizes():
    play, review = PICTURES / "play.png", PICTURES / "review.png"
    assert png_size(play) == (1440, 900)                  # one 1440x900 screen
    width, height = png_size(review)                      # the Analyse page's two parts
    assert 1000 <= width <= 1440 and 900 <= height <= 2600, (width, height)
    for picture in (play, review):
        assert picture.stat().st_size < 300_000, f"{picture} is not optimised"


def test_the_readme_shows_both():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("play.png", "review.png"):
        assert f"](docs/pictures/{name})" in readme, f"README.md does not show {name}"
