"""Forced moves at a table of friends, in a real browser: a Keyside seat clicks five of its
six secret dice; the sixth has one value left and its page plays it (the setting is on by
default), its log says "(forced)"; the other seat's page reads only that P0 set their dice
in secret, with no "(forced)" and no value. Screenshot: test-output/e2e/ ("forced-*")."""
from test_browser import browser, server, settle, shots  # noqa: F401
from test_tables_browser import (app_store, click_first, decision, link,  # noqa: F401
                                 log_text, make_table, open_table, shows_text)

from boardlab.streamlit_app.session import HUMAN


def test_a_forced_die_sets_itself_on_its_seats_page(browser, server, shots, app_store):
    t = make_table(app_store, "keyside", [HUMAN, HUMAN], seed=3)
    gid = t.game_id
    ctx0, mine = open_table(browser, link(server, gid, t.seat_tokens[0]))
    ctx1, theirs = open_table(browser, link(server, gid, t.seat_tokens[1]))
    for _ in range(5):
        decision(mine).first.wait_for(timeout=60000)
        click_first(mine)
    shows_text(mine, "(forced)")                       # the sixth: played by the page
    last = log_text(mine).strip().splitlines()[-1]
    assert last.startswith("6. P0 sets the ") and last.endswith(" (forced)"), last
    assert app_store.view(gid).to_move == 1
    shows_text(theirs, "P0 sets their dice in secret")
    settle(theirs)
    assert "(forced)" not in log_text(theirs)
    settle(mine)
    mine.screenshot(path=str(shots / "forced-01-sixth-die.png"), full_page=True)
    ctx0.close()
    ctx1.close()
