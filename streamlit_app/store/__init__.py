"""The games of the app, kept on the server in a database (no Streamlit here).

One :class:`GameStore` per server process. SQLite by default (``boardlab.db`` in
``$BOARDLAB_DATA_DIR``, WAL), PostgreSQL when ``BOARDLAB_DB=postgresql://...`` is set: then
several app servers share every game, and a browser may land on any of them. The game record
(JSON) is the truth; each game has a ``version`` (+1 with every change of the record) and a
``revision`` (+1 with every change at all). Every change is a transaction that applies only
over the version it was computed from (``UPDATE ... WHERE version = :expected``), else
:class:`GameMovedOn` and nothing is written.

Two kinds of game:

* **local** (solo, hot-seat: one screen): no tokens; the game id in the link opens the whole
  game. The app keeps a live :class:`PlaySession` per game: :meth:`GameStore.add`,
  :meth:`~GameStore.get` (the same object while the database holds its version, a fresh one
  once another server changed it) and :meth:`~GameStore.save` (over the version it was read at).
* **tables** (:meth:`GameStore.create_table`): each human seat has a token, so does the host
  (``secrets.token_urlsafe(24)``, only SHA-256 hashes stored). :meth:`~GameStore.view` gives
  each link only what it may see (:class:`TableView`): a seat its own observation, its legal
  moves, the log as it may read it and a determinized position; the host and spectators (no
  token) what every seat knows; everyone everything once the table has ended. The full record
  and the real position of a running table never leave the store. Moves go through
  :meth:`~GameStore.apply`, the AI's through :meth:`~GameStore.play_ai` (claimed by one server,
  computed outside any transaction, committed only if nothing moved meanwhile).

Refusals: a malformed game id or token -> ValueError / :class:`AccessDenied` before any
lookup; a token of another table, a spectator or a seat trying what only a seat or the host
may -> :class:`AccessDenied` (no state in it); an unknown id -> :class:`NoSuchGame`; an
illegal move -> ``boardlab.IllegalActionError``; a stale version -> :class:`GameMovedOn`; a
database that cannot be used, or any database error when opening or after (an unreachable
server, a full disk, a read-only or damaged file) -> :class:`StoreError`, whose message
names the cause in plain words and holds nothing of the data (never the driver's statement
or parameters: a record rebuilds every hidden card). A damaged or empty (0-byte) SQLite file
is refused untouched. No token is logged or shown in a message.
"""
from .access import (HOST, LOCAL, SEAT, SPECTATOR, AccessDenied, LobbyEntry, NewTable,
                     SeatInfo, Settings, TableView, UndoRequest, check_game_id, new_game_id)
from .gamestore import (DATA_ENV, MAX_IN_MEMORY, AiClaim, GameMovedOn, GameStore, NoSuchGame,
                        data_dir)
from .schema import DB_ENV, SCHEMA_VERSION, StoreError, database_url

__all__ = ["GameStore", "TableView", "SeatInfo", "Settings", "UndoRequest", "NewTable",
           "LobbyEntry", "AiClaim", "GameMovedOn", "AccessDenied", "NoSuchGame", "StoreError",
           "LOCAL", "SEAT", "HOST", "SPECTATOR", "check_game_id", "new_game_id", "data_dir",
           "database_url", "DATA_ENV", "DB_ENV", "SCHEMA_VERSION", "MAX_IN_MEMORY"]
