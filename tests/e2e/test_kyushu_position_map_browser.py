"""A Kyūshū Map turn in progress entered from its seat on the Analyse page in a real browser
(the phase, every seat's card taken, the maps as the phase began, the move made so far by
name), then analysed. Screenshots: test-output/e2e/kyushu-map-position-*.png. The browser
and the server are test_browser.py's."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import boardlab  # noqa: E402
from kyushu_facts import form_text  # noqa: E402
from test_browser import browser, goto_page, open_app, server, settle, shots  # noqa: E402,F401
from test_kyushu_position_browser import (DESKTOP, choose, set_up_and_analyse,  # noqa: E402
                                          type_texts)
from test_kyushu_position_map import map_turn_in_progress  # noqa: E402


def test_a_kyushu_map_turn_in_progress_entered_from_its_seat_is_analysed(browser, server, shots):
    params, seat = {"players": 3}, 1
    real, facts, turn = map_turn_in_progress(params, 5, seat, 1)
    before = boardlab.replay({**real.to_record(), "actions": real.history[:-1], "moves": None,
                              "result": None})
    move = before.action_to_string(turn[0])
    ctx, page = open_app(browser, server, viewport=DESKTOP)
    goto_page(page, "Analyse")
    page.get_by_role("tab", name="From a seat's knowledge").click()
    settle(page)
    choose(page, "seat_game", "Kyūshū")
    choose(page, "seat_ky_players", "3")
    page.locator(".st-key-seat_ky_phase").get_by_text("Map (your hidden Map turn)").click()
    settle(page)
    choose(page, "seat_ky_seat", f"P{seat}")
    choose(page, "seat_ky_round", str(facts["round"]))
    type_texts(page, {**form_text(facts, params["players"]), "turn": move})
    page.screenshot(path=str(shots / "kyushu-map-position-1-form.png"), full_page=True)
    set_up_and_analyse(page, seat)
    assert page.get_by_text("Map phase").count()            # the table shows the phase
    page.get_by_text(f"Position set up: P{seat} to move").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "kyushu-map-position-2-analysed.png"), full_page=True)
    ctx.close()
