"""The database: which one (SQLite file or PostgreSQL), its tables, and the migrations that
bring an older schema up to date.

SQLite (the default, a file ``boardlab.db`` in the data directory) runs in WAL mode with a
busy timeout and foreign keys on; a write transaction starts with ``BEGIN IMMEDIATE`` (one
writer at a time, readers never blocked). PostgreSQL (``BOARDLAB_DB=postgresql://...``) is
shared by several app servers; a write transaction locks the game's row
(``SELECT ... FOR UPDATE``), so the writes to one game are serialised there too.

Migrations are numbered and applied in order, each in the transaction that records it in
``schema_version``; the transaction holds the writer lock (SQLite) or an advisory lock
(PostgreSQL), so servers starting together migrate once. A database whose schema is newer
than this code is refused.

Every database error is turned into a :class:`StoreError` whose message names the cause in
plain words (the server cannot be reached, the disk is full, the database is read-only, the
file is damaged, ...) and nothing else: a driver's error carries the statement and its
parameters (a game's record, its seed), which must reach neither a page nor a log.
"""
from __future__ import annotations

import errno
import os
import secrets
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import make_url

DB_ENV = "BOARDLAB_DB"
DB_FILE = "boardlab.db"
SYNC_ENV = "BOARDLAB_SQLITE_SYNC"   # "normal" (the default) or "full": see docs/store.md
BUSY_TIMEOUT = 30.0            # seconds an SQLite writer waits for the lock
_MIGRATION_LOCK = 0x6B6C6462   # PostgreSQL advisory lock key of the migrations ("bdlk")


class StoreError(RuntimeError):
    """The store cannot work with this database: a refused URL, a schema newer than this
    code, or a database error (an unreachable server, a full disk, ...). The message names
    the cause in plain words and holds no data; ``kind`` is one word for it (one of
    :data:`CAUSES`, or "refused"), e.g. for one log line per kind of failure; ``detail`` is
    for the operator's log only (an unclassified error's type and code, never its text)."""

    def __init__(self, message: str, kind: str = "refused", detail: str = ""):
        super().__init__(message)
        self.kind = kind
        self.detail = detail

    def for_log(self) -> str:
        return f"{self} ({self.detail})" if self.detail else str(self)


#: kind -> what went wrong, as a player or an operator may read it
CAUSES = {
    "unreachable": "the database server cannot be reached",
    "disk_full": "the database's disk is full",
    "read_only": "the database is read-only",
    "damaged": "the database file is damaged",
    "io": "the database's disk could not be read or written",
    "busy": "the database is busy (locked by another writer)",
    "empty": "the database file is empty",
    "cannot_open": "the database file cannot be opened",
    "other": "the database reported an error",
}

_SQLITE_KINDS = (   # (error name prefix, message part, kind): names from Python 3.11 on
    ("SQLITE_READONLY", "readonly", "read_only"),
    ("SQLITE_FULL", "database or disk is full", "disk_full"),
    ("SQLITE_CORRUPT", "malformed", "damaged"),
    ("SQLITE_NOTADB", "not a database", "damaged"),
    ("SQLITE_IOERR", "disk i/o", "io"),
    ("SQLITE_BUSY", "database is locked", "busy"),
    ("SQLITE_LOCKED", "table is locked", "busy"),
    ("SQLITE_CANTOPEN", "unable to open", "cannot_open"),
)
_PG_KINDS = (       # (SQLSTATE prefix, kind), the first that matches
    ("53100", "disk_full"), ("25006", "read_only"), ("08", "unreachable"),
    ("57P", "unreachable"), ("53300", "unreachable"), ("XX001", "damaged"),
    ("XX002", "damaged"), ("58030", "io"), ("55P03", "busy"), ("40P01", "busy"),
)


_OS_KINDS = {errno.ENOSPC: "disk_full", errno.EROFS: "read_only", errno.EACCES: "read_only",
             errno.EPERM: "read_only"}


def _driver_errors() -> tuple:
    errors = (sa.exc.SQLAlchemyError, sqlite3.Error)
    try:
        import psycopg
    except ImportError:
        return errors
    return errors + (psycopg.Error,)


def error_kind(e: BaseException) -> str:
    """The kind (a key of CAUSES) of a database error, from the driver's error code."""
    if isinstance(e, StoreError):
        return e.kind
    orig = getattr(e, "orig", None) or e
    state = getattr(orig, "sqlstate", None)
    if state:
        return next((kind for prefix, kind in _PG_KINDS if state.startswith(prefix)), "other")
    if isinstance(orig, sqlite3.Error):
        name = getattr(orig, "sqlite_errorname", "") or ""
        text = str(orig).lower()
        for prefix, part, kind in _SQLITE_KINDS:
            if name.startswith(prefix) or (not name and part in text):
                return kind
        return "other"
    if isinstance(e, sa.exc.TimeoutError):           # no pooled connection came free
        return "busy"
    if getattr(e, "connection_invalidated", False) or type(orig).__name__ in (
            "OperationalError", "InterfaceError"):   # psycopg: no SQLSTATE, the link broke
        return "unreachable"
    return "other"


def database_error(e: BaseException) -> StoreError:
    """A StoreError naming the cause of the database error ``e`` and nothing of its data.
    An unclassified error keeps its type and code (never its text) as the operator's detail."""
    kind = error_kind(e)
    detail = ""
    if kind == "other":
        orig = getattr(e, "orig", None) or e
        code = getattr(orig, "sqlstate", None) or getattr(orig, "sqlite_errorname", None)
        detail = f"{type(orig).__name__}{f' {code}' if code else ''}"
    _scrub(e)
    return StoreError(CAUSES[kind], kind, detail)


def _scrub(e: BaseException) -> None:
    """Drop the statement and its parameters from a driver error that stays chained (as the
    context) to the StoreError: in case something prints the chain anyway."""
    seen = set()
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, sa.exc.StatementError):
            e.statement, e.params = None, None
        e = e.__context__


# --- the tables as the newest migration leaves them (the migrations below are frozen SQL) ---
metadata = sa.MetaData()

schema_version = sa.Table(
    "schema_version", metadata,
    sa.Column("version", sa.Integer, primary_key=True),     # one row per applied migration
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("applied_at", sa.Float, nullable=False))

meta = sa.Table(
    "meta", metadata,
    sa.Column("key", sa.String(40), primary_key=True),      # "json_import": when it ran
    sa.Column("value", sa.Text, nullable=False))

games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("name", sa.String(40), nullable=False),       # the game: "kitsu", ...
    sa.Column("params", sa.Text, nullable=False),           # its make() parameters (JSON)
    sa.Column("record", sa.Text, nullable=False),           # the game record (JSON): the truth
    sa.Column("version", sa.Integer, nullable=False),       # +1 with every change of the record
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    # migration 2: tables that several browsers sit at
    sa.Column("revision", sa.Integer, nullable=False),      # +1 with every change at all
    sa.Column("host_hash", sa.String(64)),                  # SHA-256 of the host token; NULL: a local game
    sa.Column("status", sa.String(8), nullable=False),      # open | running | ended
    sa.Column("public", sa.Boolean, nullable=False),        # listed in the lobby
    sa.Column("hints", sa.Boolean, nullable=False),         # hints and the evaluation bar allowed
    sa.Column("undo", sa.String(8), nullable=False),        # off | consent
    sa.Column("move_timer", sa.Float),                      # seconds, then the AI moves; NULL: none
    sa.Column("turn_seat", sa.Integer),                     # the seat to move since turn_started
    sa.Column("turn_started", sa.Float))

seats = sa.Table(
    "seats", metadata,
    sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),        # human | ai (as created)
    sa.Column("to_ai", sa.Boolean, nullable=False),         # a human seat the host handed to the AI
    sa.Column("token_hash", sa.String(64)),                 # SHA-256 of the seat token (human seats)
    sa.Column("name", sa.String(40)),
    sa.Column("joined", sa.Float),                          # when its link was first used
    sa.Column("last_seen", sa.Float))

undo_requests = sa.Table(
    "undo_requests", metadata,
    sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),          # who asked
    sa.Column("version", sa.Integer, nullable=False),       # the position it is for
    sa.Column("target", sa.Integer, nullable=False),        # history length to go back to
    sa.Column("created", sa.Float, nullable=False))

undo_consents = sa.Table(
    "undo_consents", metadata,
    sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True))

ai_claims = sa.Table(
    "ai_claims", metadata,
    sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),       # the position being searched
    sa.Column("owner", sa.String(40), nullable=False),      # random id of the claiming store
    sa.Column("expires", sa.Float, nullable=False))         # then another server may take over

# migration 3: a finished game's review, kept with it (rows as the Analyse page keeps them)
reviews = sa.Table(
    "reviews", metadata,
    sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("review_key", sa.String(64), primary_key=True),  # SHA-256 of its game and seats
    sa.Column("review", sa.Text, nullable=False),              # budget, seats, rows (JSON)
    sa.Column("created", sa.Float, nullable=False))

sa.Index("games_lobby", games.c.public, games.c.status)


# --- migrations -------------------------------------------------------------------------------
def _m1_games(conn) -> None:
    """Games by id with their record (what the JSON files held)."""
    conn.execute(sa.text(
        "CREATE TABLE games (id VARCHAR(40) PRIMARY KEY, name VARCHAR(40) NOT NULL, "
        "params TEXT NOT NULL, record TEXT NOT NULL, version INTEGER NOT NULL, "
        "created FLOAT NOT NULL, updated FLOAT NOT NULL)"))
    conn.execute(sa.text("CREATE TABLE meta (key VARCHAR(40) PRIMARY KEY, value TEXT NOT NULL)"))


def _m2_tables(conn) -> None:
    """Tables that several browsers sit at: seats with tokens, host, settings, undo
    requests, AI claims."""
    false = "FALSE" if conn.dialect.name == "postgresql" else "0"
    for col in ("revision INTEGER NOT NULL DEFAULT 1", "host_hash VARCHAR(64)",
                "status VARCHAR(8) NOT NULL DEFAULT 'running'",
                f"public BOOLEAN NOT NULL DEFAULT {false}",
                f"hints BOOLEAN NOT NULL DEFAULT {false}",
                "undo VARCHAR(8) NOT NULL DEFAULT 'consent'", "move_timer FLOAT",
                "turn_seat INTEGER", "turn_started FLOAT"):
        conn.execute(sa.text(f"ALTER TABLE games ADD COLUMN {col}"))
    fk = "VARCHAR(40) NOT NULL REFERENCES games (id) ON DELETE CASCADE"
    for ddl in (
            f"CREATE TABLE seats (game_id {fk}, seat INTEGER NOT NULL, kind VARCHAR(8) NOT NULL, "
            "to_ai BOOLEAN NOT NULL, token_hash VARCHAR(64), name VARCHAR(40), joined FLOAT, "
            "last_seen FLOAT, PRIMARY KEY (game_id, seat))",
            f"CREATE TABLE undo_requests (game_id {fk} PRIMARY KEY, seat INTEGER NOT NULL, "
            "version INTEGER NOT NULL, target INTEGER NOT NULL, created FLOAT NOT NULL)",
            f"CREATE TABLE undo_consents (game_id {fk}, seat INTEGER NOT NULL, "
            "PRIMARY KEY (game_id, seat))",
            f"CREATE TABLE ai_claims (game_id {fk} PRIMARY KEY, version INTEGER NOT NULL, "
            "owner VARCHAR(40) NOT NULL, expires FLOAT NOT NULL)",
            "CREATE INDEX games_lobby ON games (public, status)"):
        conn.execute(sa.text(ddl))


def _m3_reviews(conn) -> None:
    """A finished game's review kept with the game: a reload, another browser or another
    server shows its graph without searching again."""
    conn.execute(sa.text(
        "CREATE TABLE reviews (game_id VARCHAR(40) NOT NULL REFERENCES games (id) ON DELETE "
        "CASCADE, review_key VARCHAR(64) NOT NULL, review TEXT NOT NULL, created FLOAT NOT "
        "NULL, PRIMARY KEY (game_id, review_key))"))


#: (number, what it does, function(connection)); append only, never edit an applied one.
MIGRATIONS = [
    (1, "games and their records", _m1_games),
    (2, "tables: seats, host, settings, undo requests, AI claims", _m2_tables),
    (3, "reviews of finished games", _m3_reviews),
]
SCHEMA_VERSION = MIGRATIONS[-1][0]


# --- connecting -------------------------------------------------------------------------------
def database_url(directory: Path | str) -> str:
    """$BOARDLAB_DB (a ``postgresql://`` URL) if set, else the SQLite file in ``directory``."""
    env = os.environ.get(DB_ENV, "").strip()
    if env:
        return env
    return f"sqlite:///{Path(directory) / DB_FILE}"


def safe_url(url) -> str:
    """The URL as it may be shown: the password masked."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:   # noqa: BLE001 - not even a URL: show its scheme only
        return str(url).split(":", 1)[0] + ":..."


def engine_for(url: str) -> sa.Engine:
    """An engine for ``url``: ``postgresql://`` (driven by psycopg 3) or ``sqlite:///FILE``;
    anything else is refused with a StoreError."""
    try:
        u = make_url(url)
    except Exception as e:   # noqa: BLE001 - sqlalchemy raises ArgumentError and others
        raise StoreError(f"{DB_ENV} must be a postgresql:// URL, got {safe_url(url)!r}") from e
    if u.drivername in ("postgresql", "postgresql+psycopg"):
        try:
            import psycopg  # noqa: F401
        except ImportError as e:
            raise StoreError('PostgreSQL needs psycopg: pip install "boardlab[postgres]"') from e
        # hide_parameters: never a record in an error's text (they are wrapped anyway)
        return sa.create_engine(u.set(drivername="postgresql+psycopg"), pool_pre_ping=True,
                                hide_parameters=True)
    if u.drivername == "sqlite" and u.database and u.database != ":memory:":
        sync = os.environ.get(SYNC_ENV, "").strip().lower() or "normal"
        if sync not in ("normal", "full"):
            raise StoreError(f"{SYNC_ENV} must be normal or full, got {sync[:20]!r}")
        _new_sqlite_file(Path(u.database))
        engine = sa.create_engine(u, connect_args={"timeout": BUSY_TIMEOUT,
                                                   "check_same_thread": False},
                                  hide_parameters=True)
        event.listen(engine, "connect",
                     lambda dbapi_conn, _record: _sqlite_connect(dbapi_conn, sync))
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    raise StoreError(f"{DB_ENV} must be a postgresql:// URL (or unset for SQLite in the data "
                     f"directory), got {safe_url(url)!r}")


def _new_sqlite_file(path: Path) -> None:
    """Create the SQLite file if there is none, whole (a header in WAL mode) before it takes
    its name: so a file of 0 bytes is never one being created, and is refused (a database
    that lost its content must not quietly start again empty)."""
    try:
        if path.stat().st_size == 0:
            raise StoreError(f"cannot open the database {path}: the file is empty (0 bytes), "
                             "so its games may have been lost; restore it from a backup, or "
                             "move it away to start a new database", "empty")
        return
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.new")
    try:
        con = sqlite3.connect(tmp)
        try:
            con.execute("PRAGMA journal_mode=WAL")      # writes the first page
        finally:
            con.close()
        try:
            os.link(tmp, path)                          # atomic; another server may be first
        except FileExistsError:
            pass
        except OSError:                                 # a file system without hard links
            if not path.exists():
                os.replace(tmp, path)
    except (OSError, sqlite3.Error) as e:
        kind = error_kind(e) if isinstance(e, sqlite3.Error) else _OS_KINDS.get(e.errno, "other")
        cause = e.strerror if kind == "other" and isinstance(e, OSError) else CAUSES[kind]
        raise StoreError(f"cannot create the database {path}: {cause}", kind) from None
    finally:
        tmp.unlink(missing_ok=True)


def _sqlite_connect(dbapi_conn, sync: str) -> None:
    dbapi_conn.isolation_level = None        # transactions are begun by _sqlite_begin
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT * 1000)}")
    cur.execute("PRAGMA foreign_keys=ON")
    # NORMAL: in WAL mode a commit is not synced to disk; a power cut (not an app crash) may
    # lose the last commits, the file stays consistent. FULL syncs every commit.
    cur.execute(f"PRAGMA synchronous={sync.upper()}")
    cur.close()


def _sqlite_begin(conn) -> None:
    write = conn.get_execution_options().get("boardlab_write", False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


@contextmanager
def transaction(engine: sa.Engine, write: bool):
    """A connection in a transaction, committed at the end (rolled back on an exception).
    ``write``: SQLite takes the writer lock at the start (no deadlock between two
    read-then-write transactions). Any database error, from connecting to committing,
    comes out as a StoreError with its cause in plain words (see database_error)."""
    try:
        with engine.connect() as conn:
            conn.execution_options(boardlab_write=write)
            with conn.begin():
                yield conn
    except _driver_errors() as e:
        raise database_error(e) from None


def current_version(conn) -> int:
    """The schema version of the database (0: empty)."""
    if not sa.inspect(conn).has_table("schema_version"):
        return 0
    return conn.execute(sa.select(sa.func.max(schema_version.c.version))).scalar() or 0


def migrate(engine: sa.Engine, upto: int | None = None, migrations=None) -> int:
    """Bring the schema up to ``upto`` (default: the newest); returns the version reached.
    StoreError if the database is newer than the code, or unreachable."""
    migrations = MIGRATIONS if migrations is None else migrations
    known = migrations[-1][0]
    target = known if upto is None else upto
    deadline = time.monotonic() + BUSY_TIMEOUT
    while True:
        try:
            return _migrate_once(engine, known, target, migrations)
        except StoreError as e:
            # SQLite can refuse at once, not waiting out the busy timeout, while another
            # connection turns a new file into WAL: try again until the timeout is spent.
            locked = engine.dialect.name == "sqlite" and e.kind == "busy"
            if not locked or time.monotonic() > deadline:
                if e.kind == "refused":
                    raise
                raise StoreError(f"cannot open the database {safe_url(engine.url)}: {e}",
                                 e.kind, e.detail) from None
            time.sleep(0.05)


def _migrate_once(engine: sa.Engine, known: int, target: int, migrations) -> int:
    with transaction(engine, write=True) as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
        else:
            check_sqlite(conn)
        metadata.create_all(conn, tables=[schema_version])
        have = current_version(conn)
        if have > known:
            raise StoreError(
                f"the database {safe_url(engine.url)} has schema version {have}, newer than "
                f"this boardlab knows ({known}): upgrade boardlab, or use another database")
        for number, name, step in migrations:
            if have < number <= target:
                step(conn)
                conn.execute(schema_version.insert().values(version=number, name=name,
                                                            applied_at=time.time()))
                have = number
        return have


def check_sqlite(conn) -> None:
    """StoreError "damaged" unless SQLite's quick check finds the file whole: a damaged file
    is refused before anything is written to it (run once, when a store opens)."""
    problems = [r[0] for r in conn.exec_driver_sql("PRAGMA quick_check(1)")]
    if problems != ["ok"]:
        raise StoreError(CAUSES["damaged"], "damaged")
