"""The boardlab browser app (Streamlit), shipped inside the wheel.

``boardlab app [--port N] [--host H]`` runs ``streamlit run`` on :data:`MAIN_SCRIPT`.

Layout:

* ``main.py`` - the entry script: page navigation (Play, Analyse, Search tree, Rules);
* ``views/`` - one script per page (not ``pages/``, which Streamlit would auto-register), UI only, on the public ``boardlab`` API;
* ``session.py`` - a game in progress (seats, AI, chance, undo, records), no Streamlit;
* ``store/`` - games kept on the server by id in a database (SQLite, or PostgreSQL shared by
  several servers), tables with seat links and what each link may see; no Streamlit;
* ``common.py`` - Streamlit helpers shared by the pages (cached engines, AI with progress);
* ``games/`` - one module per game with its board drawing and move input, registered by
  name in ``games/__init__.py``; a game without a module gets a generic text board and one
  button per legal move.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

APP_DIR = Path(__file__).resolve().parent
MAIN_SCRIPT = APP_DIR / "main.py"

__all__ = ["APP_DIR", "MAIN_SCRIPT", "streamlit_command", "launch"]


def streamlit_command(port: int | None = None, host: str | None = None,
                      headless: bool = True) -> list[str]:
    """The ``streamlit run`` command line that serves the app."""
    cmd = [sys.executable, "-m", "streamlit", "run", str(MAIN_SCRIPT),
           "--browser.gatherUsageStats", "false",
           "--client.toolbarMode", "minimal",          # no "Deploy" button
           # an uncaught error shows players a generic message, never a traceback or the
           # exception's text (the server's console still gets it)
           "--client.showErrorDetails", "none",
           # a full gc.collect() after every script run cost ~0.1 CPU-s per decision, and
           # the polling watcher of the app's sources (for live editing) more
           "--runner.postScriptGC", "false", "--server.fileWatcherType", "none",
           "--server.headless", "true" if headless else "false"]
    if port is not None:
        cmd += ["--server.port", str(int(port))]
    if host is not None:
        cmd += ["--server.address", str(host)]
    return cmd


def launch(port: int | None = None, host: str | None = None, headless: bool = True) -> int:
    """Run the app in the foreground (replaces this process with streamlit)."""
    cmd = streamlit_command(port, host, headless)
    sys.stdout.flush()
    os.execv(cmd[0], cmd)
    return 0  # pragma: no cover - execv does not return
