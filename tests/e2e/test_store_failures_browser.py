"""When the database fails, in a real browser against `boardlab app` on PostgreSQL (issue
39): a seat's move that the database refuses (a trigger raising disk_full on the UPDATE of
the game) is told in plain words, with the position as it was and nothing of the game's
record; the lobby whose games table is gone says so in plain words, no traceback and no
exception text (and an error no page caught would show none either: client.showErrorDetails
= "none", tests/test_store_failures.py); the server's log holds no statement, parameter or
seed. Needs $BOARDLAB_TEST_POSTGRES (CI starts
a server); skipped without it outside CI. Screenshots: test-output/e2e/store-failure-*."""
import sqlalchemy as sa
from test_app_servers import shared_db, start_server, stop_servers  # noqa: F401
from test_browser import browser, settle, shots  # noqa: F401
from test_store_failures import disk_full_on_updates
from test_tables_browser import decision, log_text, make_table, open_table, shows_text

from boardlab.streamlit_app.session import HUMAN
from boardlab.streamlit_app.store import GameStore

NOT_SAVED = ("The game could not be saved: the database's disk is full — your move was not "
             "played; try again.")
DETAILS = ("Traceback", "SQL", "seed", "\"actions\"", "psycopg", "StoreError", "UndefinedTable",
           "42P01", "disk_full", ".py")


def test_a_refused_move_and_an_unreadable_lobby_show_no_details(browser, shared_db, tmp_path,
                                                              shots):
    proc, url = start_server(shared_db, tmp_path)
    store = GameStore(tmp_path, url=shared_db)             # the server's database
    try:
        t = make_table(store, "kitsu", [HUMAN, HUMAN], seed=41)
        seat = store.view(t.game_id).to_move
        ctx, page = open_table(browser, f"{url}/?game={t.game_id}&seat={t.seat_tokens[seat]}")
        before = log_text(page)
        with store.engine.begin() as c:
            disk_full_on_updates(c)
        decision(page).first.click()
        shows_text(page, "The game could not be saved")
        settle(page)
        page.screenshot(path=str(shots / "store-failure-01-move-not-saved.png"), full_page=True)
        text = page.locator("body").inner_text()
        assert NOT_SAVED in text
        assert [d for d in DETAILS if d in text] == []
        assert log_text(page) == before and store.version(t.game_id) == 1
        assert decision(page).count()                      # the seat may try again

        with store.engine.begin() as c:                    # the lobby cannot read the tables
            c.execute(sa.text("ALTER TABLE games RENAME TO games_gone"))
        page.goto(f"{url}/lobby")
        shows_text(page, "The tables cannot be read: the database reported an error")
        settle(page)
        page.screenshot(path=str(shots / "store-failure-02-lobby.png"), full_page=True)
        text = page.locator("body").inner_text()
        assert [d for d in DETAILS if d in text] == [], text
        assert not page.locator('[data-testid="stException"]').count()
        ctx.close()
    finally:
        store.close()
        stop_servers([proc])
    server_log = (tmp_path / "streamlit.log").read_text()
    for bad in ("[SQL", "parameters:", '"seed"', "INSERT INTO", "UPDATE games"):
        assert bad not in server_log, bad
