"""GameStore: every game of the app in one database, changed only by transactions that
check the game's version (see the package docstring for the whole contract)."""
from __future__ import annotations

import json
import logging
import os
import secrets
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import sqlalchemy as sa

import boardlab

from ..session import AI, HUMAN, PlaySession, mix, session_from_record
from . import access
from .access import (HOST, LOCAL, SEAT, SPECTATOR, AccessDenied, LobbyEntry, NewTable,
                     SeatInfo, Settings, TableView, UndoRequest, check_game_id, check_name,
                     check_token)
from .schema import (CAUSES, StoreError, ai_claims, database_url, engine_for, games, meta,
                     migrate, reviews, seats, transaction, undo_consents,
                     undo_requests)

log = logging.getLogger(__name__)

DATA_ENV = "BOARDLAB_DATA_DIR"
MAX_IN_MEMORY = 256
OPEN, RUNNING, ENDED = "open", "running", "ended"


def data_dir() -> Path:
    """Where the app keeps its data: $BOARDLAB_DATA_DIR, else ~/.cache/boardlab/games."""
    env = os.environ.get(DATA_ENV)
    return Path(env) if env else Path.home() / ".cache" / "boardlab" / "games"


_IMPORT_LOCK = 0x626C6A73   # PostgreSQL advisory lock key of the JSON import ("bljs")


class NoSuchGame(LookupError):
    """No game has this id on this database."""


class GameMovedOn(Exception):
    """The game changed since the version the caller acted on: nothing was applied.
    ``version`` is the game's version now (read the view again to see the new position)."""

    def __init__(self, version: int):
        super().__init__(f"the game moved on: it is at version {version} now")
        self.version = version


@dataclass(frozen=True, repr=False)
class AiClaim:
    """This store's right to compute the AI's decision for ``seat`` at ``version`` (until
    ``expires``); ``session`` is a private copy of the game to search on."""
    game_id: str
    version: int
    seat: int
    owner: str
    expires: float
    session: PlaySession

    def __repr__(self):
        return f"<AiClaim {self.game_id} v{self.version} seat {self.seat}>"


def _actions(action) -> list[int]:
    """One action or a list of them (a grouped move) as ints; ValueError otherwise."""
    items = list(action) if isinstance(action, (list, tuple)) else [action]
    if not items or any(isinstance(a, bool) or not isinstance(a, int) for a in items):
        raise ValueError(f"an action is an int or a non-empty list of ints, got "
                         f"{str(action)[:60]!r}")
    return [int(a) for a in items]


class GameStore:
    """Games by id in SQLite (default: ``boardlab.db`` in ``directory``) or PostgreSQL
    (``url``). Opening it migrates the schema and, once per database, imports the JSON game
    files of ``directory``. Safe to share between threads; several stores (processes,
    servers) may share one database."""

    def __init__(self, directory: Path | str | None = None, *, url: str | None = None,
                 import_json: bool = True, clock=time.time, ai_lease: float = 60.0,
                 story=None):
        """``story(game_id, session, viewer, everything)``: optional, what a view's ``story``
        holds (the app's log with events and headings, "since your last move"): computed
        here from the real position, it must return only what ``viewer`` (a seat, or None
        for what every seat knows; ``everything``: the table has ended) may know. Cached
        per game version and viewer. With it, a view's ``log`` is the story's move lines
        (its ``lines`` of kind "move"), read once per version instead of from the start."""
        self.directory = Path(directory) if directory is not None else data_dir()
        self.url = url or database_url(self.directory)
        self.engine = engine_for(self.url)
        migrate(self.engine)
        self._clock = clock
        self.ai_lease = ai_lease
        self._live: OrderedDict[str, PlaySession] = OrderedDict()   # handed out by get()
        self._snaps: OrderedDict[tuple, PlaySession] = OrderedDict()  # (id, version): private
        self._logs: OrderedDict[tuple, tuple] = OrderedDict()        # (id, version, viewer)
        self._story = story
        self._stories: OrderedDict[tuple, object] = OrderedDict()    # (id, version, viewer)
        self._locks: dict[str, threading.RLock] = {}
        self._guard = threading.Lock()
        self._damaged = False       # a damaged file was seen: nothing more is read or written
        if import_json:
            self.import_json(self.directory)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _transaction(self, write: bool):
        """schema.transaction (every database error a StoreError with its plain cause); once
        the database turned out damaged, this store refuses everything without touching it
        (a write could spread the damage): it must be repaired, and the server restarted."""
        if self._damaged:
            raise StoreError(CAUSES["damaged"], "damaged")
        try:
            with transaction(self.engine, write) as conn:
                yield conn
        except StoreError as e:
            if e.kind == "damaged":
                self._damaged = True
            raise

    # --- local games: solo and hot-seat (no tokens; the link opens the whole game) ----------
    def add(self, sess: PlaySession) -> str:
        """Keep a new local game; returns its id. ``sess`` is then its live object."""
        with self._transaction(write=True) as conn:
            gid = self._insert(conn, sess, None, (), Settings())
        sess.stored_version = 1
        self._keep_snapshot(gid, sess.copy())
        with self._guard:
            self._remember(self._live, gid, sess)
        return gid

    def get(self, game_id: str) -> PlaySession | None:
        """The local game with this id, or None if there is none. The same object as long
        as the database holds the version it was loaded or saved at; a new one once another
        server (or another store) changed the game. ValueError for a malformed id;
        AccessDenied for a table (see view()); boardlab.RecordError for a corrupt record."""
        check_game_id(game_id)
        with self._transaction(write=False) as conn:
            row = conn.execute(sa.select(games.c.version, games.c.host_hash)
                               .where(games.c.id == game_id)).first()
            if row is None:
                return None
            if row.host_hash is not None:
                raise AccessDenied("this game is a table with seats: open it with its seat link")
            with self._guard:
                sess = self._live.get(game_id)
                if sess is not None and sess.stored_version == row.version:
                    self._live.move_to_end(game_id)
                    return sess
            full = conn.execute(sa.select(games).where(games.c.id == game_id)).first()
        sess = self._load(full)
        self._keep_snapshot(game_id, sess.copy())
        with self._guard:
            have = self._live.get(game_id)
            if have is not None and have.stored_version == sess.stored_version:
                return have                  # a racing loader keeps the first one
            self._live.pop(game_id, None)
            return self._remember(self._live, game_id, sess)

    def save(self, game_id: str, sess: PlaySession) -> int:
        """Write a local game's record, over the version ``sess`` was loaded or last saved
        at; returns the new version. GameMovedOn if the game changed meanwhile (nothing is
        written; get() gives the game as it is now)."""
        check_game_id(game_id)
        if sess.stored_version is None:
            raise ValueError("this game was not added to or loaded from the store")
        stored = sess.stored_version
        try:
            with self._transaction(write=True) as conn:
                row = self._row(conn, game_id, lock=True)
                if row.host_hash is not None:
                    raise AccessDenied("a table changes only through its seats' and host's "
                                       "links")
                if row.version != sess.stored_version:
                    raise GameMovedOn(row.version)
                version = self._commit(conn, row, sess, (), human_moved=True)
        except (GameMovedOn, StoreError):
            sess.stored_version = stored        # _commit sets it before the commit
            with self._guard:                   # not the game as stored: never handed out again
                if self._live.get(game_id) is sess:
                    del self._live[game_id]
            raise
        sess.stored_version = version
        self._keep_snapshot(game_id, sess.copy())
        with self._guard:
            self._live[game_id] = sess
            self._remember(self._live, game_id, sess)
        return version

    def as_stored(self, game_id: str, sess: PlaySession) -> PlaySession:
        """After a save() of ``sess`` failed: the game as it was stored at ``sess``'s version
        (without the changes that were not saved), a new object that get() then gives. From
        this store's memory when it has it: the database may be what failed. Else read (a
        StoreError if that fails too)."""
        check_game_id(game_id)
        with self._guard:
            kept = self._snaps.get((game_id, sess.stored_version))
        if kept is None:
            fresh = self.get(game_id)
            if fresh is None:
                raise NoSuchGame(f"there is no game {game_id!r} on this server")
            return fresh
        fresh = kept.copy()
        with self._guard:
            self._live.pop(game_id, None)
            return self._remember(self._live, game_id, fresh)

    def lock(self, game_id: str) -> threading.RLock:
        """This process's lock of a local game, to hold while changing its live object (two
        tabs may show the same game)."""
        with self._guard:
            return self._locks.setdefault(game_id, threading.RLock())

    # --- tables: seats with links, a host, spectators -----------------------------------------
    def create_table(self, sess: PlaySession, *, names=None, public: bool = False,
                     hints: bool = False, undo: str = "consent",
                     move_timer: float | None = None) -> NewTable:
        """Keep a new table of ``sess`` (its seats HUMAN/AI as they are): one token for the
        host and one per human seat, returned once (only their hashes are kept). ``names``:
        optional display names by seat (a dict or a list)."""
        settings = Settings(public, hints, undo, move_timer).checked()
        n = sess.game.num_players
        names = dict(enumerate(names)) if isinstance(names, (list, tuple)) else (names or {})
        if any(not (isinstance(s, int) and 0 <= s < n) for s in names):
            raise ValueError(f"names are for seats 0-{n - 1}")
        if sess.finishing:
            raise ValueError("a table cannot start with the AI finishing the game")
        sess.auto_forced = False    # never played here: a seat's own page does, as a click
        host = access.new_token()
        tokens = {s: access.new_token() for s, kind in enumerate(sess.seats) if kind == HUMAN}
        rows = [{"seat": s, "kind": kind, "to_ai": False,
                 "token_hash": access.token_hash(tokens[s]) if s in tokens else None,
                 "name": check_name(names.get(s)), "joined": None, "last_seen": None}
                for s, kind in enumerate(sess.seats)]
        with self._transaction(write=True) as conn:
            gid = self._insert(conn, sess, access.token_hash(host), rows, settings)
        return NewTable(gid, host, tokens)

    def view(self, game_id: str, token: str | None = None) -> TableView:
        """What this link may see of the game now (see TableView for each role): a seat
        token, the host token, or None (a spectator of a table; everything of a local game).
        AccessDenied for a token that is not this table's, before any state is read."""
        check_game_id(game_id)
        if token is not None:
            check_token(token)
        with self._transaction(write=False) as conn:
            row = self._row(conn, game_id)
            seat_rows = self._seat_rows(conn, game_id)
            role, seat = self._access(conn, row, token, seat_rows)
            undo = self._undo_request(conn, row, seat_rows)
        sess = self._snapshot(row).copy()        # threads never share a State while reading
        return self._view(row, seat_rows, undo, sess, role, seat)

    def revisions(self, game_ids) -> dict[str, int]:
        """The revision of each of these games (one read; an unknown id is left out):
        what a server watching its open tables polls."""
        ids = [check_game_id(g) for g in game_ids]
        if not ids:
            return {}
        with self._transaction(write=False) as conn:
            rows = conn.execute(sa.select(games.c.id, games.c.revision)
                                .where(games.c.id.in_(ids))).all()
        return {r.id: r.revision for r in rows}

    def is_table(self, game_id: str) -> bool:
        """Whether the game is a table (seats with links) rather than a local game.
        ValueError for a malformed id, NoSuchGame for an unknown one."""
        check_game_id(game_id)
        with self._transaction(write=False) as conn:
            row = conn.execute(sa.select(games.c.host_hash).where(games.c.id == game_id)).first()
        if row is None:
            raise NoSuchGame(f"there is no game {game_id!r} on this server")
        return row.host_hash is not None

    def version(self, game_id: str) -> int:
        """The game's version: +1 with every change of its record (a move, an undo)."""
        return self._stamp(game_id).version

    def revision(self, game_id: str) -> int:
        """+1 with every change of the game at all (also a seat taken or handed to the AI, a
        setting, an undo request): poll it, and read the view again when it changes."""
        return self._stamp(game_id).revision

    def apply(self, game_id: str, token: str | None, expected_version: int, action) -> int:
        """Play a human decision for the seat this token holds (a local game: token None,
        the human seat to move): one action, or a list of actions the seat takes in a row.
        Applied only if the game is still at ``expected_version`` (else GameMovedOn) and
        every action is legal (else IllegalActionError, a ValueError); the chance events
        after it follow. Returns the new version."""
        check_game_id(game_id)
        if token is not None:
            check_token(token)
        actions = _actions(action)
        with self._transaction(write=True) as conn:
            row = self._row(conn, game_id, lock=True)
            role, seat = self._access(conn, row, token)
            if role not in (SEAT, LOCAL):
                raise AccessDenied("only a seat's link can move (this one is the "
                                   f"{role}'s)")
            if row.version != expected_version:
                raise GameMovedOn(row.version)
            self._check_running(row)
            sess = self._snapshot(row).copy()
            seat_rows = self._seat_rows(conn, game_id)
            p = sess.state.current_player
            if role == LOCAL and p >= 0 and sess.plays(p) != HUMAN:
                raise ValueError("it is not a human seat's turn")
            if role == SEAT:
                if p != seat:
                    raise ValueError(f"it is not your turn: P{p} is to move"
                                     if p >= 0 else "the game is over")
                if seat_rows[seat].to_ai:
                    raise AccessDenied("the host has handed your seat to the AI")
            sess.apply_human(actions)
            version = self._commit(conn, row, sess, seat_rows, human_moved=True)
        self._keep_snapshot(game_id, sess)
        return version

    def due_tables(self) -> list[str]:
        """Ids of the tables whose seat to move the AI plays now (an AI seat, a seat handed
        to the AI, a seat whose move timer ran out) and whose move no server is computing:
        what an AI worker should play (play_ai claims each, so it is played once). One
        read, without the records."""
        now = self._clock()
        g, s, c = games, seats, ai_claims
        timed_out = sa.and_(s.c.kind == HUMAN, g.c.move_timer.is_not(None),
                            g.c.turn_started + g.c.move_timer <= now)
        claimed = sa.exists().where(c.c.game_id == g.c.id, c.c.version == g.c.version,
                                    c.c.expires > now)
        q = (sa.select(g.c.id)
             .select_from(g.join(s, sa.and_(s.c.game_id == g.c.id, s.c.seat == g.c.turn_seat)))
             .where(g.c.host_hash.is_not(None), g.c.status != ENDED, g.c.turn_seat >= 0,
                    sa.or_(s.c.kind == AI, s.c.to_ai == sa.true(), timed_out), ~claimed)
             .order_by(g.c.updated))
        with self._transaction(write=False) as conn:
            return [r.id for r in conn.execute(q)]

    def claim_ai(self, game_id: str) -> AiClaim | None:
        """If the AI plays the seat to move now (an AI seat, a seat handed to the AI, a seat
        whose move timer ran out) and no server is computing that move, claim it: returns
        the claim, else None. A claim not committed by its expiry may be taken by another."""
        check_game_id(game_id)
        now = self._clock()
        with self._transaction(write=True) as conn:
            row = self._row(conn, game_id, lock=True)
            seat_rows = self._seat_rows(conn, game_id)
            sess = self._snapshot(row)
            if not self._ai_plays(row, sess, seat_rows, now):
                return None
            held = conn.execute(sa.select(ai_claims).where(ai_claims.c.game_id == game_id)).first()
            if held is not None and held.version == row.version and held.expires > now:
                return None
            owner = secrets.token_hex(8)
            expires = now + self._lease(sess)
            conn.execute(ai_claims.delete().where(ai_claims.c.game_id == game_id))
            conn.execute(ai_claims.insert().values(game_id=game_id, version=row.version,
                                                   owner=owner, expires=expires))
        return AiClaim(game_id, row.version, sess.state.current_player, owner, expires,
                       sess.copy())

    def commit_ai(self, claim: AiClaim, action: int) -> bool:
        """Play the AI's ``action`` of ``claim`` if the game is still at the claim's version
        and the AI still plays that seat; else nothing is played and False is returned (the
        result is discarded: another server moved, or a human did)."""
        now = self._clock()
        with self._transaction(write=True) as conn:
            row = self._row(conn, claim.game_id, lock=True)
            if row.version != claim.version:
                return False
            seat_rows = self._seat_rows(conn, claim.game_id)
            sess = self._snapshot(row).copy()
            if sess.state.current_player != claim.seat or not self._ai_plays(row, sess,
                                                                             seat_rows, now):
                return False
            sess.apply_ai(action)
            self._commit(conn, row, sess, seat_rows, human_moved=False)
        self._keep_snapshot(claim.game_id, sess)
        return True

    def play_ai(self, game_id: str, progress=None) -> bool:
        """One AI decision, if the AI is to move and no other server is computing it: claim,
        search (outside any transaction; ``progress(fraction, text)``), commit. True if this
        store played it. The search's statistics stay here: they show the AI seat's view."""
        claim = self.claim_ai(game_id)
        if claim is None:
            return False
        result = claim.session.search_ai(progress)
        return self.commit_ai(claim, result.best_action)

    def request_undo(self, game_id: str, token: str, expected_version: int) -> bool:
        """Ask to take back this seat's last decision (and everything after it). Done at
        once (True) when no other human sits at the table; else it waits for their consent
        (answer_undo) and False is returned. ValueError when the table's undo is off, there
        is nothing to take back, or a request is already waiting."""
        check_game_id(game_id)
        check_token(token)
        with self._transaction(write=True) as conn:
            row = self._row(conn, game_id, lock=True)
            role, seat = self._access(conn, row, token)
            if role != SEAT:
                raise AccessDenied("only a seat's link can ask for an undo")
            if row.version != expected_version:
                raise GameMovedOn(row.version)
            self._check_running(row)
            if row.undo == "off":
                raise ValueError("undo is off at this table")
            seat_rows = self._seat_rows(conn, game_id)
            sess = self._snapshot(row).copy()
            target = sess.undo_target(seat)
            if target is None:
                raise ValueError("you have no decision to take back")
            if self._undo_request(conn, row, seat_rows) is not None:
                raise ValueError("an undo request is already waiting for an answer")
            if not self._undo_voters(seat_rows, seat):
                sess.undo(seat)
                self._commit(conn, row, sess, seat_rows, human_moved=True)
                done = True
            else:
                conn.execute(undo_requests.insert().values(
                    game_id=game_id, seat=seat, version=row.version, target=target,
                    created=self._clock()))
                self._touch(conn, row, seat_rows)
                done = False
        if done:
            self._keep_snapshot(game_id, sess)
        return done

    def answer_undo(self, game_id: str, token: str, agree: bool) -> bool:
        """This seat's answer to the waiting undo request: a refusal drops it; the last
        consent needed takes the requester's decision back (True). ValueError if no request
        waits for this seat's answer."""
        check_game_id(game_id)
        check_token(token)
        with self._transaction(write=True) as conn:
            row = self._row(conn, game_id, lock=True)
            role, seat = self._access(conn, row, token)
            if role != SEAT:
                raise AccessDenied("only a seat's link can answer an undo request")
            seat_rows = self._seat_rows(conn, game_id)
            req = self._undo_request(conn, row, seat_rows)
            if req is None or seat not in req.waiting:
                raise ValueError("no undo request is waiting for your answer")
            if not agree:
                self._drop_undo(conn, game_id)
                self._touch(conn, row, seat_rows)
                return False
            conn.execute(undo_consents.insert().values(game_id=game_id, seat=seat))
            if len(req.waiting) > 1:
                self._touch(conn, row, seat_rows)
                return False
            sess = self._snapshot(row).copy()
            sess.undo(req.seat)
            self._commit(conn, row, sess, seat_rows, human_moved=True)
        self._keep_snapshot(game_id, sess)
        return True

    def sit(self, game_id: str, token: str, name: str | None = None) -> int:
        """The holder of a seat link sits down (its first visit: call it on every visit) or
        renames itself; returns the seat. The revision changes only when the seat is newly
        taken or renamed."""
        check_game_id(game_id)
        check_token(token)
        name = check_name(name)
        with self._transaction(write=True) as conn:
            row = self._row(conn, game_id, lock=True)
            role, seat = self._access(conn, row, token)
            if role != SEAT:
                raise AccessDenied("this is not a seat's link")
            seat_rows = self._seat_rows(conn, game_id)
            now = self._clock()
            change = {}
            if seat_rows[seat].joined is None:
                change["joined"] = now
            if name is not None and name != seat_rows[seat].name:
                change["name"] = name
            back = seat_rows[seat].last_seen is None    # it had left the table
            self._update_seat(conn, game_id, seat, last_seen=now, **change)
            if change or back:               # the others see who sits where
                self._touch(conn, row, self._seat_rows(conn, game_id))
        return seat

    def join(self, game_id: str, seat: int, name: str | None = None) -> str:
        """Take a free human seat of a public, open table (from the lobby): returns the new
        token of that seat (an invite link sent for it before stops working)."""
        check_game_id(game_id)
        name = check_name(name)
        with self._transaction(write=True) as conn:
            row = self._row(conn, game_id, lock=True)
            if row.host_hash is None or not row.public:
                raise AccessDenied("this is not a public table")
            self._check_running(row)
            seat_rows = self._seat_rows(conn, game_id)
            if not (isinstance(seat, int) and 0 <= seat < len(seat_rows)):
                raise ValueError(f"no seat {seat!r} at this table")
            s = seat_rows[seat]
            if s.kind != HUMAN or s.to_ai or s.joined is not None:
                raise ValueError(f"seat {seat} is not free")
            token = access.new_token()
            now = self._clock()
            self._update_seat(conn, game_id, seat, token_hash=access.token_hash(token),
                              joined=now, last_seen=now, **({"name": name} if name else {}))
            self._touch(conn, row, self._seat_rows(conn, game_id))
        return token

    def seen(self, game_id: str, token: str) -> None:
        """A seat's browser is still there (last_seen; the revision does not change). Cheap:
        call it every few seconds while the page is open."""
        check_game_id(game_id)
        check_token(token)
        with self._transaction(write=True) as conn:
            row = self._row(conn, game_id)          # no row lock: moves never wait for it
            role, seat = self._access(conn, row, token)
            if role != SEAT:
                raise AccessDenied("this is not a seat's link")
            self._update_seat(conn, game_id, seat, last_seen=self._clock())

    def leave(self, game_id: str, token: str) -> None:
        """The holder of a seat link leaves the table (its "Leave this table"): its presence
        is cleared at once and the others' pages are told (the revision changes); the seat
        stays its own: the link opens it again (``sit``)."""
        check_game_id(game_id)
        check_token(token)
        with self._transaction(write=True) as conn:
            row = self._row(conn, game_id, lock=True)
            role, seat = self._access(conn, row, token)
            if role != SEAT:
                raise AccessDenied("this is not a seat's link")
            self._update_seat(conn, game_id, seat, last_seen=None)
            self._touch(conn, row, self._seat_rows(conn, game_id))

    def lobby(self, limit: int = 50) -> list[LobbyEntry]:
        """Public tables with free human seats, newest first."""
        with self._transaction(write=False) as conn:
            rows = conn.execute(sa.select(games.c.id, games.c.name, games.c.params,
                                          games.c.created)
                                .where(games.c.public.is_(True), games.c.status == OPEN)
                                .order_by(games.c.created.desc()).limit(limit)).all()
            out = []
            for r in rows:
                srs = self._seat_rows(conn, r.id)
                free = tuple(s.seat for s in srs if s.kind == HUMAN and not s.to_ai
                             and s.joined is None)
                out.append(LobbyEntry(r.id, r.name, json.loads(r.params), len(srs), free,
                                      tuple(s.name for s in srs), r.created))
        return out

    # --- host actions --------------------------------------------------------------------------
    def hand_to_ai(self, game_id: str, host_token: str, seat: int, to_ai: bool = True) -> None:
        """The host hands a human seat to the AI (``to_ai`` True) or gives it back."""
        check_game_id(game_id)
        check_token(host_token)
        with self._transaction(write=True) as conn:
            row = self._host_row(conn, game_id, host_token)
            seat_rows = self._seat_rows(conn, game_id)
            if not (isinstance(seat, int) and 0 <= seat < len(seat_rows)) \
                    or seat_rows[seat].kind != HUMAN:
                raise ValueError(f"seat {seat!r} is not a human seat of this table")
            if type(to_ai) is not bool:
                raise ValueError("to_ai must be True or False")
            self._update_seat(conn, game_id, seat, to_ai=to_ai)
            turn = {}
            if not to_ai and row.turn_seat == seat:
                turn = {"turn_started": self._clock()}     # back: a full move timer
            self._touch(conn, row, self._seat_rows(conn, game_id), **turn)

    def change_settings(self, game_id: str, host_token: str, **changes) -> Settings:
        """The host changes public, hints, undo ("consent" or "off") or move_timer
        (seconds or None); returns the settings now."""
        check_game_id(game_id)
        check_token(host_token)
        unknown = set(changes) - {"public", "hints", "undo", "move_timer"}
        if unknown:
            raise ValueError(f"unknown table settings: {', '.join(sorted(unknown))}")
        with self._transaction(write=True) as conn:
            row = self._host_row(conn, game_id, host_token)
            settings = replace(self._settings(row), **changes).checked()
            if settings.undo == "off":
                self._drop_undo(conn, game_id)
            turn = {}
            if settings.move_timer != row.move_timer:   # a new timer counts from now
                turn = {"turn_started": self._clock()}
            self._touch(conn, row, self._seat_rows(conn, game_id), public=settings.public,
                        hints=settings.hints, undo=settings.undo,
                        move_timer=settings.move_timer, **turn)
        return settings

    def reissue(self, game_id: str, host_token: str, seat: int) -> str:
        """A new link for a human seat (its old one stops working; it sits down again when
        the new one is first used). Returns the new token."""
        check_game_id(game_id)
        check_token(host_token)
        with self._transaction(write=True) as conn:
            self._host_row(conn, game_id, host_token)
            seat_rows = self._seat_rows(conn, game_id)
            if not (isinstance(seat, int) and 0 <= seat < len(seat_rows)) \
                    or seat_rows[seat].kind != HUMAN:
                raise ValueError(f"seat {seat!r} is not a human seat of this table")
            token = access.new_token()
            self._update_seat(conn, game_id, seat, token_hash=access.token_hash(token),
                              joined=None)
            row = self._row(conn, game_id)
            self._touch(conn, row, self._seat_rows(conn, game_id))
        return token

    def end_table(self, game_id: str, host_token: str) -> None:
        """The host ends the table: no more moves; everyone with the link sees the whole
        game from now on."""
        check_game_id(game_id)
        check_token(host_token)
        with self._transaction(write=True) as conn:
            row = self._host_row(conn, game_id, host_token)
            self._drop_undo(conn, game_id)
            conn.execute(ai_claims.delete().where(ai_claims.c.game_id == game_id))
            self._touch(conn, row, (), status=ENDED)

    # --- import of the JSON files of the store before the database ---------------------------
    # --- reviews kept with finished games (the app's review module says what they hold) -----
    def keep_review(self, game_id: str, key: str, review: str) -> None:
        """Keep ``review`` (JSON text) with the game, replacing the one under the same key."""
        check_game_id(game_id)
        with self._transaction(write=True) as conn:
            conn.execute(reviews.delete().where(sa.and_(reviews.c.game_id == game_id,
                                                        reviews.c.review_key == key)))
            conn.execute(reviews.insert().values(game_id=game_id, review_key=key,
                                                 review=review, created=time.time()))

    def kept_review(self, game_id: str, key: str) -> str | None:
        """The review kept with the game under ``key`` (JSON text), or None."""
        check_game_id(game_id)
        with self._transaction(write=False) as conn:
            return conn.execute(sa.select(reviews.c.review).where(sa.and_(
                reviews.c.game_id == game_id, reviews.c.review_key == key))).scalar()

    def import_json(self, directory: Path | str) -> int:
        """Import ``<id>.json`` game records of ``directory`` as local games, once per
        database (later calls import nothing); a game already stored is kept, a malformed
        file is skipped with a warning in the log. Returns how many were imported."""
        directory = Path(directory)
        with self._transaction(write=True) as conn:
            if conn.dialect.name == "postgresql":   # one importer at a time (SQLite: the writer lock)
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _IMPORT_LOCK})
            if conn.execute(sa.select(meta.c.value).where(meta.c.key == "json_import")).first():
                return 0
            count = 0
            for path in sorted(directory.glob("*.json")) if directory.is_dir() else ():
                gid = path.stem
                if not access.GAME_ID.fullmatch(gid):
                    log.warning("not importing %s: its name is not a game id", path.name)
                    continue
                if conn.execute(sa.select(games.c.id).where(games.c.id == gid)).first():
                    continue
                try:
                    sess = session_from_record(path.read_bytes())
                except (OSError, ValueError, UnicodeDecodeError, KeyError, TypeError) as e:
                    log.warning("not importing %s: %s", path.name, str(e)[:200])
                    continue
                self._insert(conn, sess, None, (), Settings(), game_id=gid)
                count += 1
            conn.execute(meta.insert().values(key="json_import", value=str(self._clock())))
        if count:
            log.info("imported %d saved games from %s", count, directory)
        return count

    # --- inside -------------------------------------------------------------------------------
    def _insert(self, conn, sess, host_hash, seat_rows, settings, game_id=None) -> str:
        now = self._clock()
        gid = game_id or access.new_game_id()
        conn.execute(games.insert().values(
            id=gid, name=sess.game.name, params=json.dumps(sess.game.params),
            record=json.dumps(sess.record(), separators=(",", ":")), version=1, revision=1,
            created=now, updated=now, host_hash=host_hash, status=self._status(sess, seat_rows),
            public=settings.public, hints=settings.hints, undo=settings.undo,
            move_timer=settings.move_timer, turn_seat=sess.state.current_player,
            turn_started=now))
        for r in seat_rows:
            conn.execute(seats.insert().values(game_id=gid, **r))
        return gid

    @staticmethod
    def _status(sess, seat_rows) -> str:
        """ended (the game is over), open (a human seat nobody has taken), else running.
        A table the host ended stays ended (nothing is committed to it any more)."""
        if sess.state.is_terminal():
            return ENDED
        rows = [r if isinstance(r, dict) else r._mapping for r in seat_rows]
        free = any(r["kind"] == HUMAN and not r["to_ai"] and r["joined"] is None for r in rows)
        return OPEN if free else RUNNING

    def _row(self, conn, game_id, lock=False):
        q = sa.select(games).where(games.c.id == game_id)
        row = conn.execute(q.with_for_update() if lock else q).first()
        if row is None:
            raise NoSuchGame(f"there is no game {game_id!r} on this server")
        return row

    def _stamp(self, game_id):
        check_game_id(game_id)
        with self._transaction(write=False) as conn:
            row = conn.execute(sa.select(games.c.version, games.c.revision)
                               .where(games.c.id == game_id)).first()
        if row is None:
            raise NoSuchGame(f"there is no game {game_id!r} on this server")
        return row

    @staticmethod
    def _seat_rows(conn, game_id) -> list:
        return conn.execute(sa.select(seats).where(seats.c.game_id == game_id)
                            .order_by(seats.c.seat)).all()

    def _access(self, conn, row, token, seat_rows=None) -> tuple[str, int | None]:
        """(role, seat) of ``token`` at this game; AccessDenied if it is none of its own.
        ``seat_rows``: the game's seats, if already read."""
        if row.host_hash is None:
            if token is not None:
                raise AccessDenied("this game has no seat or host links: its link alone opens it")
            return LOCAL, None
        if token is None:
            return SPECTATOR, None
        h = access.token_hash(token)
        found = (HOST, None) if access.same_token(h, row.host_hash) else None
        if seat_rows is None:
            seat_rows = self._seat_rows(conn, row.id)
        for s in seat_rows:                     # every seat compared, in constant time
            if access.same_token(h, s.token_hash):
                found = (SEAT, s.seat)
        if found is None:
            raise AccessDenied("this link's token is not one of this table's (a mistyped or "
                               "old link?)")
        return found

    def _host_row(self, conn, game_id, host_token):
        row = self._row(conn, game_id, lock=True)
        role, _ = self._access(conn, row, host_token)
        if role != HOST:
            raise AccessDenied("only the host's link can do that")
        return row

    @staticmethod
    def _check_running(row) -> None:
        if row.status == ENDED:
            raise ValueError("the game is over: the table has ended")

    @staticmethod
    def _settings(row) -> Settings:
        return Settings(bool(row.public), bool(row.hints), row.undo, row.move_timer)

    def _lease(self, sess) -> float:
        return self.ai_lease + 4 * sess.ai_budget.get("seconds", 0.0)

    def _ai_plays(self, row, sess, seat_rows, now) -> bool:
        """Whether the AI decides for the seat to move now."""
        p = sess.state.current_player
        if p < 0 or row.status == ENDED:
            return False
        if row.host_hash is None:
            return sess.plays(p) == AI
        s = seat_rows[p]
        if s.kind == AI or s.to_ai:
            return True
        return self._deadline(row, seat_rows, p) is not None and now >= self._deadline(
            row, seat_rows, p)

    @staticmethod
    def _deadline(row, seat_rows, p) -> float | None:
        if row.move_timer is None or p < 0 or row.turn_seat != p or row.status == ENDED:
            return None
        s = seat_rows[p]
        if s.kind != HUMAN or s.to_ai:
            return None
        return row.turn_started + row.move_timer

    def _commit(self, conn, row, sess, seat_rows, human_moved: bool) -> int:
        """Write ``sess``'s record over ``row``'s version (compare-and-set); returns the new
        version. A move drops a waiting undo request and any AI claim."""
        now = self._clock()
        p = sess.state.current_player
        turn = {}
        if p != row.turn_seat or human_moved:
            turn = {"turn_seat": p, "turn_started": now}
        status = self._status(sess, seat_rows)
        done = conn.execute(
            games.update().where(games.c.id == row.id, games.c.version == row.version)
            .values(record=json.dumps(sess.record(), separators=(",", ":")),
                    version=row.version + 1, revision=row.revision + 1, updated=now,
                    status=status, **turn))
        if done.rowcount != 1:
            raise GameMovedOn(self._row(conn, row.id).version)
        self._drop_undo(conn, row.id)
        conn.execute(ai_claims.delete().where(ai_claims.c.game_id == row.id))
        sess.stored_version = row.version + 1
        return row.version + 1

    def _touch(self, conn, row, seat_rows, **values) -> None:
        """A change of the table that is not a move: the revision goes up, the status
        follows the seats."""
        status = values.pop("status", None)
        if status is None:
            status = row.status if row.status == ENDED or row.host_hash is None else (
                self._status(self._snapshot(row), seat_rows))
        conn.execute(games.update().where(games.c.id == row.id)
                     .values(revision=games.c.revision + 1, updated=self._clock(),
                             status=status, **values))

    @staticmethod
    def _update_seat(conn, game_id, seat, **values) -> None:
        conn.execute(seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat)
                     .values(**values))

    @staticmethod
    def _drop_undo(conn, game_id) -> None:
        conn.execute(undo_consents.delete().where(undo_consents.c.game_id == game_id))
        conn.execute(undo_requests.delete().where(undo_requests.c.game_id == game_id))

    @staticmethod
    def _undo_voters(seat_rows, requester) -> list[int]:
        """The humans whose consent an undo of ``requester`` needs: the other human seats
        that someone sits at and the AI does not play."""
        return [s.seat for s in seat_rows if s.kind == HUMAN and not s.to_ai
                and s.joined is not None and s.seat != requester]

    def _undo_request(self, conn, row, seat_rows) -> UndoRequest | None:
        req = conn.execute(sa.select(undo_requests)
                           .where(undo_requests.c.game_id == row.id)).first()
        if req is None or req.version != row.version:
            return None
        agreed = {r.seat for r in conn.execute(sa.select(undo_consents.c.seat)
                                               .where(undo_consents.c.game_id == row.id))}
        voters = self._undo_voters(seat_rows, req.seat)
        return UndoRequest(req.seat, req.version, tuple(sorted(agreed & set(voters))),
                           tuple(s for s in voters if s not in agreed))

    def _load(self, row) -> PlaySession:
        """A new PlaySession from the row's record (raises boardlab.RecordError if corrupt)."""
        try:
            sess = session_from_record(row.record)
        except (ValueError, KeyError, TypeError) as e:
            if isinstance(e, boardlab.RecordError):
                raise
            raise boardlab.RecordError(f"the stored record of game {row.id} is corrupt: "
                                       f"{e}") from e
        sess.stored_version = row.version
        return sess

    def _snapshot(self, row) -> PlaySession:
        """The game at ``row``'s version (a version's record never changes), shared by this
        store's reads: never changed, never handed out (a change starts from a copy)."""
        key = (row.id, row.version)
        with self._guard:
            sess = self._snaps.get(key)
            if sess is not None:
                self._snaps.move_to_end(key)
                return sess
        sess = self._load(row)
        with self._guard:
            return self._remember(self._snaps, key, sess)

    def _keep_snapshot(self, game_id, sess) -> None:
        """Remember a session this store just committed (never handed out) as the snapshot
        of its version."""
        with self._guard:
            self._remember(self._snaps, (game_id, sess.stored_version), sess)

    @staticmethod
    def _remember(cache: OrderedDict, key, value):
        """Keep ``value`` under ``key`` unless the key is taken (then the kept one is
        returned); the oldest entries go beyond MAX_IN_MEMORY."""
        value = cache.setdefault(key, value)
        cache.move_to_end(key)
        while len(cache) > MAX_IN_MEMORY:
            cache.popitem(last=False)
        return value

    def _log(self, row, sess, viewer, everything: bool) -> tuple:
        key = (row.id, row.version, "all" if everything else viewer)
        with self._guard:
            lines = self._logs.get(key)
        if lines is None:
            lines = tuple(access.move_log(sess.state, viewer, everything=everything))
            with self._guard:
                self._remember(self._logs, key, lines)
        return lines

    def _view(self, row, seat_rows, undo, sess, role, seat) -> TableView:
        state = sess.state
        now = self._clock()
        ended = row.status == ENDED
        everything = ended or role == LOCAL
        p = state.current_player
        ai_now = self._ai_plays(row, sess, seat_rows, now)
        if everything:
            obs, shown = state.full_observation(), state.clone
        elif role == SEAT:
            obs = state.observation(seat)
            seed = mix(sess.seed, row.version, seat, 0x5EA7)
            shown = lambda: state.determinize(seat, seed)     # noqa: E731
        else:
            obs, shown = access.public_observation(state), lambda: None     # noqa: E731
        mine = not ended and p >= 0 and (     # a seat whose timer ran out may still move
            (role == SEAT and p == seat and not seat_rows[seat].to_ai)
            or (role == LOCAL and sess.plays(p) == HUMAN))
        legal = tuple((int(a), state.action_to_string(int(a))) for a in state.legal_actions()) \
            if mine else ()
        can_undo = (role == SEAT and not ended and row.undo != "off" and undo is None
                    and sess.undo_target(seat) is not None)
        infos = tuple(SeatInfo(s.seat, s.kind, bool(s.to_ai), s.name, s.joined is not None,
                               s.last_seen) for s in seat_rows)
        viewer = seat if role == SEAT else None
        story = self._told(row, sess, viewer, everything)
        if story is not None:       # its moves, read once per version (not the whole game)
            log = tuple(line.raw for line in story.lines if line.kind == "move")
        else:
            log = self._log(row, sess, viewer, everything)
        return TableView(
            game_id=row.id, version=row.version, revision=row.revision, role=role, seat=seat,
            game=row.name, params=json.loads(row.params), players=sess.game.num_players,
            status=row.status, settings=self._settings(row), seats=infos, to_move=p,
            ai_to_move=ai_now, turn_deadline=self._deadline(row, seat_rows, p),
            observation=obs, legal=legal,
            log=log, make_state=shown, record=sess.record() if everything else None,
            result=tuple(float(r) for r in state.returns()) if state.is_terminal() else None,
            undo=undo, can_undo=can_undo, story=story)

    def _told(self, row, sess, viewer, everything: bool):
        """The ``story`` hook's answer for this viewer at this version (cached), or None."""
        if self._story is None:
            return None
        key = (row.id, row.version, viewer, everything)
        with self._guard:
            told = self._stories.get(key)
        if told is None:
            told = self._story(row.id, sess, viewer, everything)
            with self._guard:
                told = self._remember(self._stories, key, told)
        return told
