"""When the database fails (issue 39): every store method raises a StoreError whose message
names the cause in plain words and nothing of the data (a driver's error carries the
statement and its parameters: a game's record, whose seed and decisions rebuild every hidden
card); a damaged or emptied SQLite file is refused untouched; the background loops log one
line per kind of failure; players never see a traceback.

How the failures are made, for real (the tests run as root, who ignores file permissions):

* a failed ``UPDATE games``: on PostgreSQL a trigger raising ``disk_full``; on SQLite the
  connection is switched to ``PRAGMA query_only`` just before that UPDATE, so SQLite itself
  refuses it with SQLITE_READONLY ("attempt to write a readonly database"), as it does for a
  file it may not write;
* a read-only SQLite database: every new connection of the store gets ``PRAGMA query_only``;
* a full SQLite disk: ``PRAGMA max_page_count`` at the file's size (SQLITE_FULL);
* PostgreSQL gone after opening: a throw-away cluster of scripts/postgres.sh, stopped;
* damaged files: bytes of a closed database overwritten, zeroed or cut off.
"""
import glob
import json
import logging
import os
import secrets
import shutil
import subprocess
import tempfile
import threading
import traceback
from pathlib import Path

import pytest
import sqlalchemy as sa

import boardlab

from boardlab.streamlit_app.session import AI, HUMAN
from boardlab.streamlit_app.store import GameStore, StoreError, schema
from test_store import PG_ENV, db, kitsu, real_state  # noqa: F401 - db is a fixture

REPO = Path(__file__).resolve().parent.parent
log = logging.getLogger("boardlab.test.failures")


def leaked(e: BaseException, record: str | None = None) -> list[str]:
    """What of the game or the driver the error shows: as str and repr, and in a printed
    traceback (what Streamlit's console and log.exception print): no chained driver error."""
    full = "".join(traceback.format_exception(e))
    texts = [str(e), repr(e), "".join(traceback.format_exception_only(e))]
    bad = ["SQL", "UPDATE", "INSERT", "SELECT", "parameters", "seed", "record", "[",
           "OperationalError", "DatabaseError", "psycopg", "sqlite3"]
    found = [b for b in bad for t in texts if b in t]
    found += [b for b in ("During handling", "direct cause", '"seed":', "[SQL", "sqlalchemy.exc")
              if b in full]
    if record and record[:40] in full:
        found.append("the record")
    return found


def disk_full_on_updates(conn) -> None:
    """PostgreSQL raises disk_full at every UPDATE of games from now on (a trigger)."""
    conn.execute(sa.text(
        "CREATE FUNCTION disk_is_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "RAISE EXCEPTION 'could not extend file: No space left on device' "
        "USING ERRCODE = 'disk_full'; END $$"))
    conn.execute(sa.text("CREATE TRIGGER full_disk BEFORE UPDATE ON games FOR EACH ROW "
                         "EXECUTE FUNCTION disk_is_full()"))


def fail_updates_of_games(db, store):
    """The next ``UPDATE games`` fails in the database: PostgreSQL with disk_full (a
    trigger), SQLite with its read-only refusal. Returns a function that ends it."""
    if db.kind == "postgresql":
        with db.engine().begin() as c:
            disk_full_on_updates(c)

        def end():
            with db.engine().begin() as c:
                c.execute(sa.text("DROP TRIGGER full_disk ON games"))
        return end

    def read_only(conn, cursor, statement, *_):       # only while that UPDATE runs
        only = 1 if statement.startswith("UPDATE games") else 0
        cursor.connection.execute(f"PRAGMA query_only={only}")
    sa.event.listen(store.engine, "before_cursor_execute", read_only)

    def end():
        sa.event.remove(store.engine, "before_cursor_execute", read_only)
    return end


# --- 1. a failed write shows nothing of the game ------------------------------------------------
def test_a_failed_move_write_shows_nothing_of_the_game(db, caplog):
    store = db.open()
    t = store.create_table(kitsu((HUMAN, HUMAN), seed=41))
    v = store.view(t.game_id)
    seat = v.to_move
    token = t.seat_tokens[seat]
    before = real_state(db, t.game_id)
    with db.engine().connect() as c:
        record = c.execute(sa.select(schema.games.c.record)).scalar()
    end = fail_updates_of_games(db, store)
    mine = store.view(t.game_id, token)
    with pytest.raises(StoreError) as e:
        store.apply(t.game_id, token, mine.version, mine.legal[0][0])
    cause = "disk is full" if db.kind == "postgresql" else "read-only"
    assert cause in str(e.value), str(e.value)
    assert leaked(e.value, record) == []
    with caplog.at_level(logging.ERROR, logger=log.name):
        log.exception("a move failed")                 # what a careless handler would log
    assert leaked(e.value) == [] and '"seed"' not in caplog.text and "SQL" not in caplog.text
    assert real_state(db, t.game_id) == before and store.version(t.game_id) == mine.version
    end()                                              # the disk has room again: it plays
    assert store.apply(t.game_id, token, mine.version, mine.legal[0][0]) == mine.version + 1


def test_a_failed_save_of_a_local_game_keeps_the_position_as_stored(db):
    store = db.open()
    sess = human_to_move(kitsu((HUMAN, AI), seed=41))
    gid = store.add(sess)
    before = sess.state.clone()
    end = fail_updates_of_games(db, store)
    sess.apply_human(int(sess.state.legal_actions()[0]))
    with pytest.raises(StoreError) as e:
        store.save(gid, sess)
    assert leaked(e.value, json.dumps(sess.record())) == []
    assert sess.stored_version == 1
    back = store.as_stored(gid, sess)                  # from memory: no database needed
    assert back is not sess and back.state == before and back.stored_version == 1
    assert store.get(gid) is back                      # the unsaved object is not handed out
    end()
    back.apply_human(int(back.state.legal_actions()[0]))
    assert store.save(gid, back) == 2


def test_the_engine_never_puts_parameters_in_an_error(db):
    assert schema.engine_for(db.url).hide_parameters


# --- 2. players never see a traceback ------------------------------------------------------------
def test_players_see_no_error_details():
    import tomllib

    from streamlit.config import ShowErrorDetailsConfigOptions as Options

    from boardlab.streamlit_app import APP_DIR, streamlit_command
    cmd = streamlit_command(8600)
    assert cmd[cmd.index("--client.showErrorDetails") + 1] == "none"
    toml = tomllib.loads((APP_DIR / ".streamlit" / "config.toml").read_text())
    assert toml["client"]["showErrorDetails"] == "none"
    assert "none" in {o.value for o in Options}        # a value this Streamlit knows


# --- 3. every method, whatever fails --------------------------------------------------------------
def every_call(store, gid, t, sess):
    """(name, call, writes) for every store method, on a local game ``gid`` (its live
    ``sess``) and a table ``t``."""
    seat = store.view(t.game_id).to_move
    tok, host = t.seat_tokens[seat], t.host_token
    v = store.view(t.game_id, tok)
    return [
        ("add", lambda: store.add(kitsu()), True),
        ("get", lambda: store.get(gid), False),
        ("save", lambda: store.save(gid, sess), True),
        ("create_table", lambda: store.create_table(kitsu()), True),
        ("view", lambda: store.view(t.game_id, tok), False),
        ("revisions", lambda: store.revisions([t.game_id]), False),
        ("is_table", lambda: store.is_table(t.game_id), False),
        ("version", lambda: store.version(t.game_id), False),
        ("revision", lambda: store.revision(t.game_id), False),
        ("apply", lambda: store.apply(t.game_id, tok, v.version, v.legal[0][0]), True),
        ("due_tables", lambda: store.due_tables(), False),
        ("claim_ai", lambda: store.claim_ai(t.game_id), True),
        ("play_ai", lambda: store.play_ai(t.game_id), True),
        ("request_undo", lambda: store.request_undo(t.game_id, tok, v.version), True),
        ("answer_undo", lambda: store.answer_undo(t.game_id, tok, True), True),
        ("sit", lambda: store.sit(t.game_id, tok, "Ann"), True),
        ("join", lambda: store.join(t.game_id, 1 - seat), True),
        ("seen", lambda: store.seen(t.game_id, tok), True),
        ("lobby", lambda: store.lobby(), False),
        ("hand_to_ai", lambda: store.hand_to_ai(t.game_id, host, 1 - seat), True),
        ("change_settings", lambda: store.change_settings(t.game_id, host, hints=True), True),
        ("reissue", lambda: store.reissue(t.game_id, host, seat), True),
        ("end_table", lambda: store.end_table(t.game_id, host), True),
        ("import_json", lambda: store.import_json(store.directory), True),
    ]


def human_to_move(sess):
    while sess.is_ai_turn():
        sess.play_ai()
    return sess


def games_to_fail_on(store):
    sess = human_to_move(kitsu((HUMAN, AI), seed=7))
    gid = store.add(sess)
    sess.apply_human(int(sess.state.legal_actions()[0]))
    t = store.create_table(kitsu((HUMAN, HUMAN), seed=7), public=True)
    return gid, t, sess


def assert_every_call_fails_plainly(calls, cause, only_writes=False):
    for name, call, writes in calls:
        if only_writes and not writes:
            call()                                     # a read still works
            continue
        with pytest.raises(StoreError) as e:
            call()
        assert cause in str(e.value), (name, str(e.value))
        assert leaked(e.value) == [], (name, leaked(e.value))


def test_a_read_only_sqlite_file_refuses_every_write_plainly(tmp_path):
    store = GameStore(tmp_path)
    gid, t, sess = games_to_fail_on(store)
    calls = every_call(store, gid, t, sess)
    store.engine.dispose()                # new connections: read-only from now on
    sa.event.listen(store.engine, "connect", lambda c, _r: c.execute("PRAGMA query_only=1"))
    before = (tmp_path / "boardlab.db").read_bytes()
    assert_every_call_fails_plainly(calls, "the database is read-only", only_writes=True)
    store.close()
    assert (tmp_path / "boardlab.db").read_bytes() == before


def test_a_full_sqlite_disk_refuses_new_games_plainly(tmp_path):
    store = GameStore(tmp_path)
    gid, t, sess = games_to_fail_on(store)
    for _ in range(40):                   # pages of their own for the games' records
        store.add(kitsu((HUMAN, AI), seed=secrets.randbelow(1000)))
    store.engine.dispose()
    sa.event.listen(store.engine, "connect", lambda c, _r: c.execute(
        "PRAGMA max_page_count=" + str(c.execute("PRAGMA page_count").fetchone()[0])))
    for _ in range(3):
        with pytest.raises(StoreError, match="the database's disk is full") as e:
            for _ in range(200):          # until a new page is needed
                store.add(kitsu((HUMAN, AI), seed=7))
        assert leaked(e.value) == []
    store.close()


def pg_bin():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return found[-1] if found else None


@pytest.fixture
def own_postgres():
    """A throw-away PostgreSQL cluster of this test's own (it is stopped by the test)."""
    pytest.importorskip("psycopg")
    if not pg_bin():
        if os.environ.get("CI"):
            pytest.fail("CI must have a PostgreSQL server (apt-get install postgresql)")
        pytest.skip("no PostgreSQL server installed")
    d = Path(tempfile.mkdtemp(prefix="boardlab-pg-"))   # the postgres user must reach it
    url = subprocess.run(["bash", str(REPO / "scripts/postgres.sh"), "start", str(d)],
                         check=True, capture_output=True, text=True).stdout.strip()
    try:
        yield url, d
    finally:
        subprocess.run(["bash", str(REPO / "scripts/postgres.sh"), "stop", str(d)], check=True)
        shutil.rmtree(d, ignore_errors=True)


def test_postgresql_gone_after_opening_every_method_says_so(own_postgres, tmp_path):
    url, d = own_postgres
    store = GameStore(tmp_path, url=url + "?connect_timeout=5")
    gid, t, sess = games_to_fail_on(store)
    calls = every_call(store, gid, t, sess)
    subprocess.run(["bash", str(REPO / "scripts/postgres.sh"), "stop", str(d)], check=True)
    assert_every_call_fails_plainly(calls, "the database server cannot be reached")
    store.close()


@pytest.mark.parametrize("db", ["postgresql"], indirect=True)   # the trigger is PostgreSQL's
def test_a_full_postgresql_disk_refuses_every_move_plainly(db):
    store = db.open()
    gid, t, sess = games_to_fail_on(store)
    ai = store.create_table(kitsu((AI, AI)))
    calls = [c for c in every_call(store, gid, t, sess) if c[0] in (
        "save", "apply", "sit", "hand_to_ai", "change_settings", "reissue", "end_table")]
    calls.append(("play_ai", lambda: store.play_ai(ai.game_id), True))
    fail_updates_of_games(db, store)
    assert_every_call_fails_plainly(calls, "the database's disk is full")


# --- damaged and empty SQLite files -----------------------------------------------------------
def a_closed_database(directory: Path, games: int = 30) -> tuple[Path, list[str]]:
    store = GameStore(directory)
    ids = [store.add(kitsu((HUMAN, AI), seed=s)) for s in range(games)]
    store.close()                          # the last connection checkpoints the WAL
    path = directory / "boardlab.db"
    assert not Path(str(path) + "-wal").exists() and path.stat().st_size > 8 * 4096
    return path, ids


def page(data: bytes, n: int) -> slice:
    return slice(n * 4096, (n + 1) * 4096)


DAMAGE = {
    "truncated": lambda b: b[:len(b) // 2],
    "garbage": lambda b: secrets.token_bytes(len(b)),
    "garbage header": lambda b: secrets.token_bytes(100) + b[100:],
    "overwritten page": lambda b: (b[:page(b, 3).start] + secrets.token_bytes(4096)
                                   + b[page(b, 3).stop:]),
    "zeroed page mid-file": lambda b: (b[:page(b, len(b) // 8192).start] + bytes(4096)
                                       + b[page(b, len(b) // 8192).stop:]),
}


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_sqlite_file_is_refused_untouched(tmp_path, kind):
    path, _ = a_closed_database(tmp_path)
    damaged = DAMAGE[kind](path.read_bytes())
    path.write_bytes(damaged)
    for _ in range(2):
        with pytest.raises(StoreError, match="the database file is damaged") as e:
            GameStore(tmp_path)
        assert leaked(e.value) == [] and e.value.kind == "damaged"
        assert path.read_bytes() == damaged            # nothing written to it


def test_a_file_damaged_while_open_fails_plainly_and_is_written_no_more(tmp_path):
    path, ids = a_closed_database(tmp_path)
    store = GameStore(tmp_path)
    store.engine.dispose()                 # no page of it cached
    data = path.read_bytes()
    with store.engine.connect() as c:      # the games table's first page
        root = c.exec_driver_sql("SELECT rootpage FROM sqlite_master WHERE name='games'").scalar()
    store.engine.dispose()
    damaged = data[:(root - 1) * 4096] + bytes(4096) + data[root * 4096:]
    path.write_bytes(damaged)
    for call in (lambda: store.view(ids[0]), lambda: store.add(kitsu()),
                 lambda: store.get(ids[1]), lambda: store.due_tables()):
        with pytest.raises(StoreError, match="the database file is damaged") as e:
            call()
        assert leaked(e.value) == []
    store.close()
    assert path.read_bytes() == damaged


def test_an_empty_sqlite_file_is_refused_not_started_again(tmp_path):
    path = tmp_path / "boardlab.db"
    path.write_bytes(b"")
    with pytest.raises(StoreError, match="empty") as e:
        GameStore(tmp_path)
    assert "lost" in str(e.value) and e.value.kind == "empty"
    assert path.read_bytes() == b""
    path.unlink()                          # a file that does not exist yet is made
    store = GameStore(tmp_path)
    assert path.stat().st_size > 0 and store.add(kitsu())
    store.close()


def test_a_database_file_that_cannot_be_opened_says_so(tmp_path):
    (tmp_path / "boardlab.db").mkdir()     # a directory where the file should be
    with pytest.raises(StoreError, match="the database file cannot be opened") as e:
        GameStore(tmp_path)
    assert e.value.kind == "cannot_open" and leaked(e.value) == []


# --- 6. durability: synchronous ------------------------------------------------------------------
@pytest.mark.parametrize("value, level", [(None, 1), ("normal", 1), ("full", 2), ("FULL", 2)])
def test_sqlite_synchronous_is_normal_or_full_as_asked(tmp_path, monkeypatch, value, level):
    if value is None:
        monkeypatch.delenv(schema.SYNC_ENV, raising=False)
    else:
        monkeypatch.setenv(schema.SYNC_ENV, value)
    store = GameStore(tmp_path)
    with store.engine.connect() as c:
        assert c.exec_driver_sql("PRAGMA synchronous").scalar() == level
    store.close()


def test_a_bad_synchronous_setting_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv(schema.SYNC_ENV, "off")
    with pytest.raises(StoreError, match=schema.SYNC_ENV):
        GameStore(tmp_path)


# --- 5. the background loops during an outage ----------------------------------------------------
class FailingStore:
    """A store whose reads fail ``n`` times (a StoreError, as the store raises), then work."""

    def __init__(self, n: int, error=None):
        self.n, self.calls = n, 0
        self.error = error or StoreError(schema.CAUSES["unreachable"], "unreachable")
        self.worked = threading.Event()

    def _call(self, value):
        self.calls += 1
        if self.calls <= self.n:
            raise self.error
        self.worked.set()
        return value

    def due_tables(self):
        return self._call([])

    def revisions(self, ids):
        return self._call({})


def through_an_outage(caplog, module: str, make) -> list[str]:
    """Run the loop ``make(store)`` of ``module`` over a store that fails 6 times, until
    it works; returns the lines logged at WARNING and above (none with a traceback)."""
    store = FailingStore(6)
    name = f"boardlab.streamlit_app.friends.{module}"
    with caplog.at_level(logging.DEBUG, logger=name):
        loop = make(store).start()
        store.worked.wait()
        loop.stop()
    assert not any(r.exc_info for r in caplog.records)
    return [r.getMessage() for r in caplog.records
            if r.name == name and r.levelno >= logging.WARNING]


def test_the_ai_worker_logs_an_outage_once_and_its_end_once(caplog):
    from boardlab.streamlit_app.friends.ai_worker import AiWorker
    assert through_an_outage(caplog, "ai_worker", lambda s: AiWorker(s, interval=0.01)) == [
        "the AI worker could not read the tables due: the database server cannot be reached "
        "(trying again, less often, until it works)",
        "the AI worker works again: the database answers"]


def test_the_table_watcher_logs_an_outage_once_and_backs_off(caplog, monkeypatch):
    from boardlab.streamlit_app.friends.live import TableWatcher
    waits = []

    def watcher(store):
        w = TableWatcher(store, rerun=lambda sid: True, interval=0.01)
        w.watch("s", "GAME12345678", 1)
        failed = w.outage.failed
        monkeypatch.setattr(w.outage, "failed", lambda e, doing: waits.append(
            failed(e, doing)) or waits[-1])
        return w
    assert through_an_outage(caplog, "live", watcher) == [
        "the table watcher could not read the tables: the database server cannot be reached "
        "(trying again, less often, until it works)",
        "the table watcher works again: the database answers"]
    assert waits == [0.01, 0.02, 0.04, 0.08, 0.16, 0.32]     # doubling while it fails


def test_an_outage_waits_no_longer_than_the_cap_and_logs_each_kind_once(caplog):
    from boardlab.streamlit_app.store.outage import Outage
    o = Outage(log, "the loop", 1.0, cap=5.0)
    full = StoreError(schema.CAUSES["disk_full"], "disk_full")
    gone = StoreError(schema.CAUSES["unreachable"], "unreachable")
    with caplog.at_level(logging.DEBUG, logger=log.name):
        waits = [o.failed(e, "read") for e in (full, full, gone, full, gone, full)]
        assert o.worked() == 1.0 and o.worked() == 1.0
        o.failed(KeyError("secret-record"), "read")
    assert waits == [1.0, 2.0, 4.0, 5.0, 5.0, 5.0]
    msgs = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert msgs == ["the loop could not read: the database's disk is full (trying again, "
                    "less often, until it works)",
                    "the loop could not read: the database server cannot be reached (trying "
                    "again, less often, until it works)",
                    "the loop works again: the database answers",
                    "the loop could not read: an unexpected KeyError (trying again, less "
                    "often)"]
    assert "secret-record" not in " ".join(msgs)


# --- the app: a move the database refuses ---------------------------------------------------------
@pytest.fixture
def app_store(tmp_path, monkeypatch):
    """The app's process-wide store, opened afresh on this test's data directory; ``fail()``
    makes its database read-only from then on (PRAGMA query_only on new connections)."""
    pytest.importorskip("streamlit")
    from boardlab.streamlit_app.common import game_store
    monkeypatch.setenv("BOARDLAB_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("BOARDLAB_LIVE", "poll")
    monkeypatch.delenv("BOARDLAB_DB", raising=False)
    game_store.clear()

    def fail():
        store = game_store()
        store.engine.dispose()
        sa.event.listen(store.engine, "connect", lambda c, _r: c.execute("PRAGMA query_only=1"))
    yield fail
    game_store().close()
    game_store.clear()


NOT_SAVED = ("The game could not be saved: the database is read-only — your move was not "
             "played; try again.")


def page_text(at) -> str:
    return " ".join(str(e.value) for kind in ("warning", "error", "markdown", "caption", "info")
                    for e in getattr(at, kind))


def test_the_play_page_says_a_move_was_not_saved_and_keeps_the_position(app_store):
    from test_app import app, play_one_human_move, start_game
    from boardlab.streamlit_app.common import game_store
    at = app()
    start_game(at, seed=41)
    gid = at.session_state["bl_game_id"]
    before = at.session_state["bl_play"].state.clone()
    version = game_store().version(gid)
    app_store()
    play_one_human_move(at)
    assert not at.exception, at.exception
    assert [w.value for w in at.warning if "could not be saved" in w.value] == [NOT_SAVED]
    assert at.session_state["bl_play"].state == before          # the move is not kept
    assert game_store().version(gid) == version
    assert "seed\"" not in page_text(at) and "SQL" not in page_text(at)


def test_a_seats_page_says_a_move_was_not_saved_and_keeps_the_position(tmp_path, app_store):
    from streamlit.testing.v1 import AppTest

    from boardlab.streamlit_app import MAIN_SCRIPT
    from boardlab.streamlit_app.common import game_store
    from test_app import play_one_human_move
    t = game_store().create_table(kitsu((HUMAN, HUMAN), seed=41))
    seat = game_store().view(t.game_id).to_move
    at = AppTest.from_file(str(MAIN_SCRIPT), default_timeout=120)
    at.query_params.update(game=t.game_id, seat=t.seat_tokens[seat])
    at.run()
    assert not at.exception, at.exception
    version = game_store().version(t.game_id)
    before = real_state_of(t.game_id)
    app_store()
    play_one_human_move(at)
    assert not at.exception, at.exception
    assert [w.value for w in at.warning if "could not be saved" in w.value] == [NOT_SAVED]
    assert game_store().version(t.game_id) == version and real_state_of(t.game_id) == before
    assert "seed\"" not in page_text(at) and "SQL" not in page_text(at)


def real_state_of(gid):
    from boardlab.streamlit_app.common import game_store
    with game_store().engine.connect() as c:
        rec = c.execute(sa.select(schema.games.c.record).where(schema.games.c.id == gid)).scalar()
    return boardlab.replay(rec)


def test_the_lobby_says_plainly_that_the_tables_cannot_be_read(app_store, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from boardlab.streamlit_app import APP_DIR
    from boardlab.streamlit_app.common import game_store

    def down(*_a, **_k):
        raise StoreError("the database server cannot be reached")
    monkeypatch.setattr(game_store(), "lobby", down)
    at = AppTest.from_file(str(APP_DIR / "views" / "lobby.py"), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    assert [w.value for w in at.warning] == [
        "The tables cannot be read: the database server cannot be reached. The lobby tries "
        "again every few seconds."]


def test_creating_a_table_says_plainly_that_it_was_not_created(app_store):
    from test_app import app
    at = app()
    at.radio(key="ng_where").set_value("With friends: a link per seat").run()
    app_store()
    at.button(key="ng_start").click().run()
    assert not at.exception, at.exception
    assert [e.value for e in at.error] == [
        "The game could not be saved: the database is read-only — the table was not created; "
        "try again."]


def test_an_unclassified_error_keeps_its_code_for_the_log_and_out_of_the_players_text():
    """A player reads the plain cause; the operator's log also gets the error's type and
    SQLSTATE (never its text, which may quote the statement)."""
    class UndefinedTable(Exception):
        sqlstate = "42P01"
    e = schema.database_error(sa.exc.ProgrammingError("SELECT record FROM games", {"x": 1},
                                                      UndefinedTable('"games" ... seed')))
    assert str(e) == "the database reported an error" and e.kind == "other"
    assert e.for_log() == "the database reported an error (UndefinedTable 42P01)"
    assert leaked(e) == []
