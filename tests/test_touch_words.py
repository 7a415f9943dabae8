"""What the Map phase of Kyūshū asks speaks to a touch screen as well as to a mouse: the prompt
and the note under the lit map say how to preview (hover, or a first tap) and how to place
(click, or a second tap) — a phone has no hover."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from board_clicks import board_data, run_ui  # noqa: E402
from test_app_kyushu import map_state  # noqa: E402


def test_the_map_phase_prompt_and_note_speak_of_tapping():
    at = run_ui(map_state(), ["input"])
    prompt = next(m.value for m in at.markdown if m.value.startswith("**Map phase:**"))
    assert "tap it once to preview" in prompt and "tap it again to place" in prompt, prompt
    assert "hover" in prompt and "click" in prompt      # a mouse is still spoken to
    note = board_data(at, "t-kymap-")["note"]
    assert "tap" in note and "hover" in note, note
