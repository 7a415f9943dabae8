"""Per-game UI, registered by game name: :data:`UIS` and :func:`ui_for`.

The contract a game's UI fulfils is :class:`GameUI` in base.py. Kitsu and Kyushu keep their
pictures (the SVG) in ``<game>_draw.py``, apart from the page layout and the move input in
``<game>.py``. Imports go downward only: the pages and common.py import this package; a game's
modules import base.py, their drawing module and the app's lower modules, never this package.
"""
from __future__ import annotations

from .base import Changes, GameUI, action_buttons, esc, plural
from .kitsu import KitsuUI
from .kyushu import KyushuUI
from .keyside import KeysideUI
from .nukumi import NukumiUI

#: game name -> its UI; register a new game here.
UIS: dict[str, GameUI] = {"kitsu": KitsuUI(), "kyushu": KyushuUI(), "keyside": KeysideUI(),
                          "nukumi": NukumiUI()}


def ui_for(name: str) -> GameUI:
    """The registered UI of game ``name`` (the generic one if it has none)."""
    return UIS.get(name) or GameUI(name)


__all__ = ["GameUI", "Changes", "UIS", "ui_for", "action_buttons", "esc", "plural"]
