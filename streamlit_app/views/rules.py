"""Rules page: the rules as implemented, stand-in components and choices (docs/<game>.md)."""
import streamlit as st

import boardlab
from boardlab.streamlit_app.common import read_doc
from boardlab.streamlit_app.games import ui_for

st.title("Rules")
names = boardlab.games_available()
name = st.selectbox("Game", names, format_func=lambda n: ui_for(n).title, key="rules_game")
doc = read_doc(name)
if doc is None:
    st.warning(f"No rules page is shipped for {name}.")
else:
    st.caption("The rules as implemented by the engine, the stand-in components and every choice "
               "made where the rulebook is silent.")
    st.markdown(doc)
