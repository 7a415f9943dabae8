"""Live tables without polling browsers: the server tells each open table page when its
table changed (no Streamlit calls here; the rerun itself is given by the app).

One :class:`TableWatcher` per server process. A table page, once drawn, says which
revision of which table it shows (:meth:`TableWatcher.watch`). A thread reads the
revisions of the watched tables (one query for all of them) every ``interval`` seconds, at
once when this server changed a table (:meth:`wake`), and asks each page whose table moved
past the revision on screen to run again: ``rerun(session_id)`` returns True (asked: the
page is forgotten until it has drawn again), None (the page is running now: asked again
at the next look, never interrupted) or False (the browser is gone: forgotten). Changes
made by other servers on the same database are seen the same way. While the database fails,
the watcher logs one line per kind of failure and looks less and less often (store.outage).
"""
from __future__ import annotations

import logging
import threading

from ..store.outage import Outage

log = logging.getLogger(__name__)


class TableWatcher:
    def __init__(self, store, rerun, interval: float = 0.25):
        self.store = store
        self.rerun = rerun
        self.interval = interval
        self._pages: dict[str, tuple[str, int]] = {}     # session id -> (game id, revision)
        self._guard = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.reruns = 0                 # pages asked to run again
        self.outage = Outage(log, "the table watcher", interval)
        self._thread = threading.Thread(target=self._run, name="boardlab-table-watcher",
                                        daemon=True)

    def start(self) -> "TableWatcher":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join()

    def watch(self, session_id: str, game_id: str, revision: int) -> None:
        """The page of ``session_id`` shows ``revision`` of table ``game_id``."""
        with self._guard:
            self._pages[session_id] = (game_id, revision)

    def forget(self, session_id: str) -> None:
        with self._guard:
            self._pages.pop(session_id, None)

    def wake(self) -> None:
        """Look now (this server just changed a table)."""
        self._wake.set()

    def watching(self) -> dict:
        with self._guard:
            return dict(self._pages)

    def _run(self) -> None:
        wait = self.interval
        while not self._stop.is_set():
            self._wake.wait(wait)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                self.check()
            except Exception as e:     # noqa: BLE001 - the database fails: look again later
                wait = self.outage.failed(e, "read the tables")
            else:
                wait = self.outage.worked()

    def check(self) -> int:
        """One look: rerun the pages whose table changed; returns how many were asked."""
        pages = self.watching()
        if not pages:
            return 0
        now = self.store.revisions({gid for gid, _ in pages.values()})
        asked = 0
        for sid, (gid, rev) in pages.items():
            if now.get(gid, rev) == rev:
                continue
            answer = self.rerun(sid)
            if answer is None:
                continue                # running: its next drawing says what it shows
            with self._guard:
                if self._pages.get(sid) == (gid, rev):
                    del self._pages[sid]
            asked += bool(answer)
        self.reruns += asked
        return asked
