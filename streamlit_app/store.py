"""Games kept on the server, by id, so that a game survives a reload, a new tab on the same
link and a server restart.

No Streamlit here. The app holds one :class:`GameStore` per process (``st.cache_resource``):
live :class:`PlaySession` objects in memory (a bounded, least recently used dict) and each
game's record as a JSON file ``<id>.json`` in :func:`data_dir`, rewritten after every
decision. A game id is random and unguessable (it is the game's link); anything else given
as an id is refused with a ValueError, never used as a path.
"""
from __future__ import annotations

import json
import os
import re
import secrets
import threading
from collections import OrderedDict
from pathlib import Path

import boardlab

from .session import PlaySession, session_from_record

DATA_ENV = "BOARDLAB_DATA_DIR"
GAME_ID = re.compile(r"[A-Za-z0-9_-]{8,40}")
MAX_IN_MEMORY = 256


def data_dir() -> Path:
    """Where game records are kept: $BOARDLAB_DATA_DIR, else ~/.cache/boardlab/games."""
    env = os.environ.get(DATA_ENV)
    return Path(env) if env else Path.home() / ".cache" / "boardlab" / "games"


def new_game_id() -> str:
    return secrets.token_urlsafe(12)


def check_game_id(game_id) -> str:
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise ValueError(f"not a game id: {str(game_id)[:60]!r} (expected 8-40 letters, "
                         "digits, '-' or '_')")
    return game_id


class GameStore:
    """Games by id: in memory, and a JSON record per game in ``directory``."""

    def __init__(self, directory: Path | str):
        self.directory = Path(directory)
        self._games: OrderedDict[str, PlaySession] = OrderedDict()
        self._locks: dict[str, threading.RLock] = {}
        self._guard = threading.Lock()

    def lock(self, game_id: str) -> threading.RLock:
        """The lock to hold while changing a game (two tabs may show the same game)."""
        with self._guard:
            return self._locks.setdefault(game_id, threading.RLock())

    def add(self, sess: PlaySession) -> str:
        """Keep a new game; returns its id."""
        game_id = new_game_id()
        with self._guard:
            self._remember(game_id, sess)
        self.save(game_id, sess)
        return game_id

    def get(self, game_id: str) -> PlaySession | None:
        """The game with this id (from memory, else its file), or None if there is none.
        ValueError for a malformed id; boardlab.RecordError if its file is unreadable."""
        check_game_id(game_id)
        with self._guard:
            sess = self._games.get(game_id)
            if sess is not None:
                self._games.move_to_end(game_id)
                return sess
        path = self.directory / f"{game_id}.json"
        if not path.is_file():
            return None
        try:
            data = path.read_bytes()
        except OSError as e:
            raise boardlab.RecordError(f"cannot read the saved game {game_id}: {e}") from e
        sess = session_from_record(data)
        with self._guard:
            return self._remember(game_id, sess)

    def save(self, game_id: str, sess: PlaySession) -> None:
        """Write the game's record (atomically: a reader never sees half a file). A disk that
        refuses is not fatal: the game goes on in memory."""
        check_game_id(game_id)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            tmp = self.directory / f".{game_id}.{threading.get_ident()}.tmp"
            tmp.write_text(json.dumps(sess.record(), separators=(",", ":")), encoding="utf-8")
            os.replace(tmp, self.directory / f"{game_id}.json")
        except OSError:
            pass

    def _remember(self, game_id: str, sess: PlaySession) -> PlaySession:
        sess = self._games.setdefault(game_id, sess)   # a racing loader keeps the first one
        self._games.move_to_end(game_id)
        while len(self._games) > MAX_IN_MEMORY:
            old, _ = self._games.popitem(last=False)
            self._locks.pop(old, None)
        return sess
