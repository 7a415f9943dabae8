"""Entry script of the boardlab app: ``streamlit run main.py`` (or ``boardlab app``)."""
from pathlib import Path

import streamlit as st

st.set_page_config(page_title="boardlab", page_icon="🦊", layout="wide")

# Not "pages/": Streamlit would also auto-register that folder as an old-style multipage app.
_PAGES = Path(__file__).resolve().parent / "views"

page = st.navigation([
    st.Page(_PAGES / "play.py", title="Play", icon=":material/playing_cards:", url_path="play", default=True),
    st.Page(_PAGES / "analyse.py", title="Analyse", icon=":material/query_stats:", url_path="analyse"),
    st.Page(_PAGES / "tree.py", title="Search tree", icon=":material/account_tree:", url_path="tree"),
    st.Page(_PAGES / "rules.py", title="Rules", icon=":material/menu_book:", url_path="rules"),
    st.Page(_PAGES / "lobby.py", title="Lobby", icon=":material/groups:", url_path="lobby"),
], position="top")      # no sidebar: the table gets the whole width
from boardlab.streamlit_app import common  # noqa: E402  (after set_page_config)
from boardlab.streamlit_app.friends import tables

if not tables.resume():         # a table's link (seat, host, spectator) opens that table
    common.resume_game()
page.run()
