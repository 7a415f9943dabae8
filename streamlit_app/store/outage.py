"""How a background loop (the table watcher, the AI worker) meets a database that fails:
one log line per kind of failure (its plain cause, no traceback: a driver's error text may
carry a game's record), a wait that doubles while it lasts (up to a cap), and one line when
the database works again. During an outage a loop that logged every failure with its
traceback wrote 155 tracebacks in 18 s."""
from __future__ import annotations

import threading

from .schema import StoreError

BACKOFF_CAP = 10.0      # seconds: the longest wait between two tries while the database fails


class Outage:
    def __init__(self, log, what: str, interval: float, cap: float = BACKOFF_CAP):
        """``what``: who fails, for the log ("the table watcher"); ``interval``: its wait
        when all is well (the first wait after a failure)."""
        self.log, self.what, self.interval, self.cap = log, what, interval, cap
        self._kinds: set[str] = set()     # the kinds logged since the last success
        self._wait = interval
        self._guard = threading.Lock()

    @property
    def failing(self) -> bool:
        with self._guard:
            return bool(self._kinds)

    def failed(self, e: BaseException, doing: str) -> float:
        """Note a failure of ``doing`` ("read the tables"); returns the seconds to wait
        before the next try. A StoreError is logged by its plain message; anything else (a
        bug) by its type only, its traceback at DEBUG level."""
        kind = e.kind if isinstance(e, StoreError) else f"bug:{type(e).__name__}"
        with self._guard:
            new = kind not in self._kinds
            self._kinds.add(kind)
            wait, self._wait = self._wait, min(self._wait * 2, self.cap)
        if new and isinstance(e, StoreError):
            self.log.warning("%s could not %s: %s (trying again, less often, until it works)",
                             self.what, doing, e.for_log())
        elif new:
            self.log.error("%s could not %s: an unexpected %s (trying again, less often)",
                           self.what, doing, type(e).__name__)
        if not isinstance(e, StoreError):
            self.log.debug("%s could not %s", self.what, doing, exc_info=e)
        return wait

    def worked(self) -> float:
        """Note a success; returns the usual wait. Logs one line if it failed before."""
        with self._guard:
            was, self._kinds, self._wait = self._kinds, set(), self.interval
        if was:
            self.log.warning("%s works again: the database answers", self.what)
        return self.interval
