"""The AI of shared tables, played on the server whoever is connected (no Streamlit here).

One :class:`AiWorker` per server process (the app starts it once, ``tables.ai_worker()``).
A thread looks for the tables whose seat to move the AI plays now -- an AI seat, a seat the
host handed to the AI, a seat whose move timer ran out (``GameStore.due_tables``) -- every
``interval`` seconds, and at once when this server has just applied a move (:meth:`wake`).
Each such table is played by a small pool of threads (the search runs without the GIL)
through ``GameStore.play_ai``: the store's claim makes every AI decision happen exactly
once, even with several servers on one database each running a worker. A table whose AI
move fails is left alone for ``RETRY_AFTER`` seconds. While the database fails, the worker
logs one line per kind of failure (its plain cause: no traceback, no token) and looks less
and less often (store.outage), and one line when it works again.
"""
from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from ..store.outage import Outage
from ..store.schema import StoreError

log = logging.getLogger(__name__)

RETRY_AFTER = 30.0     # seconds a table whose AI move failed is left alone


class AiWorker:
    def __init__(self, store, interval: float = 1.0, threads: int = 2, on_move=None):
        self.store = store
        self.on_move = on_move           # called after each AI decision committed here
        self.interval = interval
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._busy: set[str] = set()
        self._failed: dict[str, float] = {}
        self._guard = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="boardlab-ai")
        self.played = 0                  # AI decisions this worker committed
        self.outage = Outage(log, "the AI worker", interval)
        self._thread = threading.Thread(target=self._run, name="boardlab-ai-worker",
                                        daemon=True)

    def start(self) -> "AiWorker":
        self._thread.start()
        return self

    def wake(self) -> None:
        """Look for AI turns now (a move was just applied here)."""
        self._wake.set()

    def stop(self, wait: bool = True) -> None:
        self._stop.set()
        self._wake.set()
        if wait and self._thread.is_alive():
            self._thread.join()
        self._pool.shutdown(wait=wait)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def _run(self) -> None:
        wait = self.interval
        while not self._stop.is_set():
            self._wake.wait(wait)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                due = self.store.due_tables()
            except Exception as e:     # noqa: BLE001 - the database fails: try again later
                wait = self.outage.failed(e, "read the tables due")
                continue
            wait = self.outage.worked()
            now = time.monotonic()
            with self._guard:
                for gid in due:
                    if gid in self._busy or self._failed.get(gid, 0.0) > now:
                        continue
                    self._busy.add(gid)
                    self._pool.submit(self._play, gid)

    def _play(self, game_id: str) -> None:
        """The AI's decisions at one table, as long as the AI is to move (several AI seats
        in a row); stops when a human is to move or another server holds the claim."""
        played = 0
        try:
            while not self._stop.is_set() and self.store.play_ai(game_id):
                played += 1
                self.played += 1
                if self.on_move is not None:
                    self.on_move()
        except Exception as e:         # noqa: BLE001 - logged; that table waits a while
            if isinstance(e, StoreError):          # the database: one line per kind
                self.outage.failed(e, "play an AI move")
            else:                                  # the type only: no record, no token
                log.error("the AI could not move at table %s: an unexpected %s", game_id,
                          type(e).__name__)
                log.debug("the AI could not move at table %s", game_id, exc_info=e)
            with self._guard:
                self._failed[game_id] = time.monotonic() + RETRY_AFTER
        finally:
            with self._guard:
                self._busy.discard(game_id)
            if played:
                self._wake.set()       # a human's timer may start, another table may wait
