"""Bridges from boardlab games to other frameworks (optional dependencies).

* :mod:`boardlab.interop.openspiel` - every boardlab game as an OpenSpiel game
  (``pip install "boardlab[openspiel]"``).
"""
