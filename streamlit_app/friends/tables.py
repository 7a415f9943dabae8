"""Shared tables in the app: which table link this browser session holds, creating a table,
moves and answers through the store, the live update and the server's AI worker.

A table link is ``?game=ID&seat=TOKEN`` (a seat), ``?game=ID&host=TOKEN`` (the host; the
creator who also plays gets both in one link) or ``?game=ID`` (a spectator). The tokens
live in the URL and in this session's ``st.session_state`` only: they are never logged
(:func:`quiet_logs` masks any that a log line would carry), never put in a message, and the
store keeps only their hashes. Everything a page shows comes from ``GameStore.view`` for
that link: a seat's own observation, never the real position of a running table.

Live update: the server tells each open table page when its table changed: a page, once
drawn, is watched by the server's :class:`~.live.TableWatcher` (one read of the watched
tables' revisions every 0.25 s, and at once after a change made here), which asks the
sessions whose table moved on to run again (as Streamlit's own "run on save" does). Where
that is not available (a Streamlit without those internals, or ``BOARDLAB_LIVE=poll``), a
small fragment on the page reads the revision every ``POLL_SECONDS`` instead. The AI seats
are played by one :class:`~.ai_worker.AiWorker` per server process, whoever is connected
(see ai_worker.py).
"""
from __future__ import annotations

import html
import logging
import os
import re
import time
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

import streamlit as st

from .. import common
from .ai_worker import AiWorker
from .live import TableWatcher
from ..store import HOST, AccessDenied, GameMovedOn, NoSuchGame, StoreError, check_game_id

TABLE_KEY = "bl_table"          # the TableLink this session is at
DRAWN_KEY = "bl_table_drawn"    # (game id, revision) of the table on screen
NOTICE_KEY = "bl_table_notice"  # a message for the next drawing ("the game moved on", ...)
LINKS_KEY = "bl_table_links"    # game id -> {"host": token, seat: token}: links made here
OWN_KEY = "bl_table_own"        # this window changed the table (its next drawing knows why)
LEFT_KEY = "bl_table_left"      # the TableLink this session left (its "You left" page)
PRESENCE_KEY = "bl_table_presence"  # (game id, the seats' presence as drawn)
POLL_SECONDS = 0.5              # how often an open table page asks whether anything changed
TABLE_GAME = "This table's game"   # the Analyse page's name for an ended table's game
SEEN_EVERY = 10.0               # seconds between two "still here" of a seat's page
MOVED_ON = ("The game moved on before your click arrived: nothing was played. This is the "
            "position now.")


@dataclass(frozen=True, repr=False)
class TableLink:
    """The link this session opened: a game id and the tokens it carries."""
    game_id: str
    seat_token: str | None = None
    host_token: str | None = None

    @property
    def token(self) -> str | None:
        """The token the view is read with: the seat's, else the host's, else none."""
        return self.seat_token or self.host_token

    def query(self) -> dict:
        q = {"game": self.game_id}
        if self.seat_token:
            q["seat"] = self.seat_token
        if self.host_token:
            q["host"] = self.host_token
        return q

    def __repr__(self):            # tokens stay out of logs and tracebacks
        return (f"<TableLink {self.game_id}{' seat' if self.seat_token else ''}"
                f"{' host' if self.host_token else ''}>")


# --- the server's AI worker, its table watcher and its logs ---------------------------------
LIVE_ENV = "BOARDLAB_LIVE"      # "poll": each page polls (else the server tells the pages)


@st.cache_resource(show_spinner=False)
def ai_worker() -> AiWorker:
    """The AI worker of this server process (started on the first page run)."""
    quiet_logs()
    no_config_polling()
    return AiWorker(common.game_store(), on_move=lambda: _wake_watcher()).start()


@st.cache_resource(show_spinner=False)
def watcher() -> TableWatcher | None:
    """The table watcher of this server process, or None where pages must poll."""
    if os.environ.get(LIVE_ENV, "").strip().lower() == "poll" or _session_of(None) is None:
        return None
    return TableWatcher(common.game_store(), _rerun_session).start()


def _wake_watcher() -> None:
    w = watcher()
    if w is not None:
        w.wake()


def _session_of(session_id):
    """Streamlit's AppSession of ``session_id`` (None: gone); with None, whether this
    Streamlit has what the watcher needs (a truthy object) or not (None)."""
    try:
        from streamlit.runtime import Runtime
        from streamlit.runtime.app_session import AppSession
        if session_id is None:
            ok = all(hasattr(AppSession, a) for a in ("request_rerun",
                                                      "_call_soon_on_event_loop"))
            return ok or None
        info = Runtime.instance()._session_mgr.get_active_session_info(session_id)
    except (ImportError, AttributeError, RuntimeError):
        return None
    return None if info is None else info.session


def _rerun_session(session_id: str) -> bool | None:
    """Run that browser session's page again, with the state of its last run (no widget
    event is replayed): what Streamlit itself does when a source file is saved. None
    while the session runs (a run is never interrupted: a click in it would be lost);
    False when it is gone."""
    session = _session_of(session_id)
    if session is None:
        return False
    if getattr(session, "_scriptrunner", None) is not None:
        return None
    try:
        session._call_soon_on_event_loop(
            lambda: session.request_rerun(session._client_state))
    except (AttributeError, RuntimeError):
        return False
    return True


def _this_session() -> str | None:
    from streamlit.runtime.scriptrunner import get_script_run_ctx
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else None


_TOKEN_IN_URL = re.compile(r"((?:seat|host)(?:=|%3D))[A-Za-z0-9_-]{8,}", re.IGNORECASE)


class _MaskTokens(logging.Filter):
    """Masks a seat or host token in a log line (``seat=...`` -> ``seat=***``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        masked = _TOKEN_IN_URL.sub(r"\1***", msg)
        if masked != msg:
            record.msg, record.args = masked, None
        return True


def no_config_polling() -> None:
    """Where the app's sources are not watched (``server.fileWatcherType`` "none", as
    ``boardlab app`` runs it), stop Streamlit's polling of its config.toml files too: five
    looks a second at each (and a hash of a missing one), a steady share of a busy
    server's CPU. The app's settings are on its command line; a changed config.toml is
    read at the next start."""
    import gc
    try:
        from streamlit import config
        from streamlit.watcher.polling_path_watcher import PollingPathWatcher
        if config.get_option("server.fileWatcherType") != "none":
            return
        for w in gc.get_objects():      # the watchers are kept by their polling tasks only
            if isinstance(w, PollingPathWatcher) and str(getattr(w, "_path", "")).endswith(
                    "config.toml"):
                w.close()
    except (ImportError, AttributeError, RuntimeError):
        pass


def quiet_logs() -> None:
    """Put the token mask on every handler of the loggers a request could reach (ours,
    Streamlit's, the web server's): a defence in depth, nothing logs a URL today."""
    mask = _MaskTokens()
    for name in ("", "streamlit", "uvicorn", "uvicorn.error", "uvicorn.access", "boardlab"):
        for handler in logging.getLogger(name).handlers:
            if not any(isinstance(f, _MaskTokens) for f in handler.filters):
                handler.addFilter(mask)


# --- which table this session is at ----------------------------------------------------------
def resume() -> bool:
    """Run by the entry script before common.resume_game(): True if this session is at a
    table (the link in the URL, or the one it opened before a page switch dropped the
    query string); the local game is then left alone."""
    ai_worker()
    w = watcher()
    if w is not None:
        w.forget(_this_session())       # a table page watches again once drawn
    ss = st.session_state
    qp = st.query_params
    gid, seat, host = qp.get("game"), qp.get("seat"), qp.get("host")
    if gid or seat or host:
        ss.pop(LEFT_KEY, None)          # a link opened: the "You left" page is over
    if seat or host:
        link = TableLink(gid or "", seat or None, host or None)
    elif gid:
        here = ss.get(TABLE_KEY)
        if here is not None and here.game_id == gid and not here.token:
            return True
        if gid == ss.get(common.GAME_KEY):
            ss.pop(TABLE_KEY, None)
            return False                # this session's local game
        try:
            if not common.game_store().is_table(check_game_id(gid)):
                ss.pop(TABLE_KEY, None)
                return False
        except (ValueError, NoSuchGame):
            ss.pop(TABLE_KEY, None)
            return False                # common.resume_game says what is wrong with it
        link = TableLink(gid)           # a spectator
    else:
        link = ss.get(TABLE_KEY)
        if link is None:
            return ss.get(LEFT_KEY) is not None     # the "You left the table" page
        st.query_params.from_dict(link.query())     # a page switch dropped the query string
        return True
    if ss.get(TABLE_KEY) is None or ss[TABLE_KEY].query() != link.query():
        ss[TABLE_KEY] = link
        ss.pop(DRAWN_KEY, None)
    return True


def current() -> TableLink | None:
    """The table link of this session: the one it is at, else the one it just left."""
    return st.session_state.get(TABLE_KEY) or st.session_state.get(LEFT_KEY)


def has_left() -> bool:
    """This session left its table (the Play page says so, with the way back)."""
    return st.session_state.get(TABLE_KEY) is None and st.session_state.get(LEFT_KEY) is not None


def leave(told: bool = False) -> None:
    """This session leaves the table page (the table goes on without it). ``told``: its
    player chose to leave: a seat is marked as gone at once (the others see "left the
    table") and the next page says so, with the way back."""
    link = st.session_state.get(TABLE_KEY)
    for key in (TABLE_KEY, DRAWN_KEY, NOTICE_KEY, LEFT_KEY):
        st.session_state.pop(key, None)
    st.query_params.clear()
    if not told or link is None:
        return
    st.session_state[LEFT_KEY] = link
    if link.seat_token:
        st.session_state.pop(("bl_table_sat", link.game_id, link.seat_token), None)
        try:
            common.game_store().leave(link.game_id, link.seat_token)
        except (AccessDenied, NoSuchGame, ValueError):
            return                      # the seat is no longer this link's: nothing to mark
        _wake_watcher()


def open_link(link: TableLink) -> None:
    st.session_state.pop(LEFT_KEY, None)
    st.session_state[TABLE_KEY] = link
    st.session_state.pop(DRAWN_KEY, None)
    st.query_params.from_dict(link.query())


def url_of(link: TableLink) -> str:
    """The link as an address, on the server this browser reached."""
    base = urlsplit(st.context.url or "http://localhost:8501/")
    return f"{base.scheme}://{base.netloc}/?{urlencode(link.query())}"


# --- how a seat is named and where its player is --------------------------------------------
def esc(text) -> str:
    return html.escape(str(text), quote=True)


# The seat colours of the boards, in words (a seat named "P2" alone gets its colour's name).
COLOUR_WORD = {"#d1495b": "Red", "#d9432f": "Red", "#2e86ab": "Blue", "#2f6fd9": "Blue",
               "#e0a21b": "Yellow", "#c98a12": "Yellow", "#3f9c6d": "Green",
               "#2e9e4f": "Green", "#7b5ea7": "Purple"}


SWATCH = ("display:inline-block;width:.75em;height:.75em;border-radius:50%;margin-right:4px;"
          "vertical-align:-1px;border:1px solid rgba(0,0,0,.25);")


def seat_label(ui, view, s: int, plain: bool = False) -> str:
    """"P1 (Orange) — Ann": the seat's name in the game with its colour, as the board draws
    it, and the display name (escaped: a name is plain text, never markup). Not ``plain``:
    with a swatch of the colour before it."""
    name = view.seats[s].name if 0 <= s < len(view.seats) else None
    return seat_html(ui, s, view.players, name, plain)


def seat_html(ui, s: int, players: int, name: str | None = None, plain: bool = False) -> str:
    """:func:`seat_label` of seat ``s`` of a game of ``players`` (``name``: its player's)."""
    seat = ui.seat_name(s, players)
    colour = ui.seat_colour(s, players) if s >= 0 else None
    word = COLOUR_WORD.get(str(colour).lower())
    if word and "(" not in seat:
        seat += f" ({word})"
    label = seat + (f" — {name}" if name else "")
    if plain or not colour:
        return label if plain else esc(label)
    return (f"<span class='bl-swatch' style='{SWATCH}background:{esc(colour)}'></span>"
            f"{esc(label)}")


def presence(info, now: float) -> str:
    if info.played_by_ai:
        return "AI" + (" (handed over)" if info.to_ai else "")
    if not info.joined:
        return "not joined yet"
    if info.last_seen is None:
        return "left the table"
    if now - info.last_seen < 3 * SEEN_EVERY:
        return "here"
    return "away"


def presence_drawn(game_id: str, labels: tuple) -> None:
    """The seats' presence as this page draws it (the presence watch redraws on a change)."""
    st.session_state[PRESENCE_KEY] = (game_id, labels)



# --- creating a table ----------------------------------------------------------------------
def create(sess, *, my_seat: int | None, names: dict, public: bool, hints: bool, undo: str,
           move_timer: float | None) -> TableLink:
    """Keep ``sess`` as a new table and open it in this session: its seat ``my_seat`` (None:
    the host only watches) with the host's powers. The links for the other seats are kept
    in this session for the host panel to show (the store keeps only hashes)."""
    new = common.game_store().create_table(sess, names=names, public=public, hints=hints,
                                           undo=undo, move_timer=move_timer)
    mine = new.seat_tokens.get(my_seat) if my_seat is not None else None
    links = st.session_state.setdefault(LINKS_KEY, {})
    links[new.game_id] = {"host": new.host_token, **new.seat_tokens}
    link = TableLink(new.game_id, mine, new.host_token)
    open_link(link)
    if mine:
        common.game_store().sit(new.game_id, mine, names.get(my_seat))
    ai_worker().wake()
    return link


def known_links(game_id: str) -> dict:
    """The links of a table made in this session: {"host": token, seat: token}."""
    return st.session_state.get(LINKS_KEY, {}).get(game_id, {})


def remember_link(game_id: str, seat, token: str) -> None:
    st.session_state.setdefault(LINKS_KEY, {}).setdefault(game_id, {})[seat] = token


# --- acting through the store ----------------------------------------------------------------
def notice(text: str) -> None:
    """A message for this session's next drawing; it stays on screen while the table
    stays at the version first drawn with it (until the position changes or this session
    acts)."""
    st.session_state[NOTICE_KEY] = (text, None)


def take_notice(version: int | None = None) -> str | None:
    """The notice to show with ``version`` of the table (None: a page without one: shown
    once)."""
    note = st.session_state.get(NOTICE_KEY)
    if note is None:
        return None
    text, shown_at = note
    if version is None or (shown_at is not None and shown_at != version):
        st.session_state.pop(NOTICE_KEY, None)
        return text if version is None else None
    st.session_state[NOTICE_KEY] = (text, version)
    return text


def act(what: str, fn, *args, **kwargs):
    """Call a store action for this link; a game that moved on, a refusal, a bad request or a
    database that fails becomes a notice (shown with the position as it is), never a crash.
    Returns the result, or None if nothing was done."""
    st.session_state.pop(NOTICE_KEY, None)      # an action answers the last notice
    try:
        result = fn(*args, **kwargs)
    except GameMovedOn:
        notice(MOVED_ON)
        return None
    except StoreError as e:             # its plain cause only: nothing was written
        notice(common.not_saved(e, "your move was not played" if what == "play that"
                                else f"could not {what}"))
        return None
    except (AccessDenied, NoSuchGame, ValueError) as e:
        notice(f"Could not {what}: {e}")
        return None
    st.session_state[OWN_KEY] = True
    ai_worker().wake()
    _wake_watcher()
    return result


def mark_drawn(game_id: str, revision: int) -> None:
    st.session_state[DRAWN_KEY] = (game_id, revision)


def host_refusal(link: TableLink) -> str | None:
    """Why this link's ``host=`` token opens no host page (None: it does, or the link has
    none): checked before anything of the table is drawn, as a seat's token is, once per
    session and link. A missing game or a malformed id is left to the page's own check."""
    if not link.host_token:
        return None
    key = ("bl_table_host_ok", link.game_id, link.host_token)
    if st.session_state.get(key):
        return None
    try:
        role = common.game_store().view(link.game_id, link.host_token).role
    except AccessDenied as e:
        return f"This link does not open the host's page: {e}"
    except (NoSuchGame, ValueError):
        return None
    if role != HOST:
        return ("This link does not open the host's page: its host token is not this "
                "table's host link (a seat's link, or mistyped?)")
    st.session_state[key] = True
    return None


def seated(link: TableLink) -> None:
    """A seat's first page in this session takes the seat (the store's ``sit``)."""
    key = ("bl_table_sat", link.game_id, link.seat_token)
    if link.seat_token and not st.session_state.get(key):
        common.game_store().sit(link.game_id, link.seat_token)
        st.session_state[key] = True


def live(link: TableLink, revision: int) -> None:
    """Keep the page live: watched by the server, or (where it cannot) polling. A seat's
    page also says it is still there, every SEEN_EVERY seconds (while it runs)."""
    mark_drawn(link.game_id, revision)
    w = watcher()
    if w is None:
        poll(link)
    else:
        w.watch(_this_session(), link.game_id, revision)
    presence_watch(link)


@st.fragment(run_every=POLL_SECONDS)
def poll(link: TableLink) -> None:
    """Every POLL_SECONDS: the table's revision; the page runs again when it is not the one
    drawn."""
    try:
        rev = common.game_store().revision(link.game_id)
    except (ValueError, NoSuchGame, StoreError):     # the database fails: the next poll
        return
    if st.session_state.get(DRAWN_KEY) != (link.game_id, rev):
        st.rerun()


@st.fragment(run_every=SEEN_EVERY)
def presence_watch(link: TableLink) -> None:
    """Every SEEN_EVERY seconds, while the page is open (the page itself runs only when the
    table changes): a seat's page says it is still there, and any page whose seats' presence
    moved on ("here" gone "away": a closed window says nothing) is drawn again."""
    try:
        store = common.game_store()
        if link.seat_token:
            store.seen(link.game_id, link.seat_token)
        seats = store.view(link.game_id, link.token).seats
    except (AccessDenied, NoSuchGame, ValueError, StoreError):   # the database: next time
        return
    now = time.time()
    labels = tuple(presence(info, now) for info in seats)
    if st.session_state.get(PRESENCE_KEY, (None, None)) != (link.game_id, labels):
        st.rerun(scope="app")
