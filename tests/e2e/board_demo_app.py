"""A Streamlit script with one board and one row of pieces, for the board component's browser
test (tests/e2e/test_board_component_browser.py): tips on legal and inert places, one place of
each animation kind, a "next" button that sets a new animation key."""
import streamlit as st

from boardlab.streamlit_app import board_component as bc

SVG = ("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 400 200'>"
       "<rect width='400' height='200' fill='#eee'/>"
       "<g data-place='a'><rect x='20' y='20' width='60' height='80' fill='#c33'/></g>"
       "<rect x='120' y='20' width='60' height='80' fill='#33c'/></svg>")
n = st.session_state.setdefault("n", 0)
bc.set_anim_key(f"moment-{n}")
got = bc.board([bc.Place("a", "card a", rect=(20, 20, 60, 80), tip="Card A: gives 2 points",
                         anim={"from": [300, 150]}),
                bc.Place("b", "market b", legal=False, rect=(120, 20, 60, 80),
                         tip="Market B: costs 1 coin", anim={"kind": "flash"}),
                bc.Place("c", "spot c", rect=(220, 20, 60, 80), anim={"kind": "drop"})],
               SVG, key=f"demo{n}")
pieces = bc.board([bc.Place("p1", "card 1", svg=SVG, tip="Piece 1: play it", anim={"kind": "drop"}),
                   bc.Place("p2", "card 2", svg=SVG, legal=False, tip="Piece 2: not now")],
                  key="pieces", piece_width=80)
if got or pieces:
    st.session_state.setdefault("clicks", []).append(got or pieces)
st.write("clicks: " + ", ".join(st.session_state.get("clicks", [])))
if st.button("next"):
    st.session_state["n"] = n + 1
    st.rerun()
