"""The game this browser session plays on the Play page, kept in ``st.session_state``: read by
the pages (through common.py) and by a game's "analyse from a seat" form, which offers the
position on screen. Its own module so that both can import it without importing each other.
"""
from __future__ import annotations

import streamlit as st

PLAY_KEY = "bl_play"            # PlaySession of the Play page


def play_session():
    """The Play page's :class:`~.session.PlaySession` in this browser session, or None."""
    return st.session_state.get(PLAY_KEY)
