"""Lobby page: the public tables of this server with free seats; join one, or watch."""
import streamlit as st

from boardlab.streamlit_app import APP_DIR, common
from boardlab.streamlit_app.friends import tables
from boardlab.streamlit_app.games import ui_for
from boardlab.streamlit_app.store import StoreError
from boardlab.streamlit_app.friends.tables import TableLink, esc

PLAY_PAGE = str(APP_DIR / "views" / "play.py")

st.title("Lobby")
st.caption("Tables whose host made them public, with a free seat. Joining gives you that "
           "seat's link (keep it: it is your key to the seat). To open a table yourself: "
           "Play → New game → With friends.")
st.text_input("Your name at the table (optional)", key="lobby_name", max_chars=40)


@st.fragment(run_every=5)
def listing() -> None:
    try:
        store = common.game_store()
        entries = store.lobby()
    except StoreError as e:       # its plain cause only; the listing is read again shortly
        st.warning(f"The tables cannot be read: {e}. The lobby tries again every few seconds.",
                   icon=":material/cloud_off:")
        return
    if not entries:
        st.info("No public table has a free seat right now.", icon=":material/event_seat:")
        return
    for e in entries:
        ui = ui_for(e.game)
        with st.container(border=True, key=f"lobby_{e.game_id}"):
            seats = ", ".join(
                f"{esc(ui.seat_name(s, e.players))}: "
                + ("<b>free</b>" if s in e.free_seats else esc(e.names[s] or "taken"))
                for s in range(e.players))
            st.html(f"<b>{esc(ui.title)}</b>, {e.players} players — {seats}")
            cols = st.columns(len(e.free_seats) + 1)
            for col, s in zip(cols, e.free_seats):
                if col.button(f"Join as {ui.seat_name(s, e.players)}", type="primary",
                              key=f"lobby_join_{e.game_id}_{s}"):
                    token = tables.act("join", store.join, e.game_id, s,
                                       st.session_state.get("lobby_name", "").strip() or None)
                    if token:
                        link = TableLink(e.game_id, token)
                        tables.open_link(link)
                        tables.remember_link(e.game_id, s, token)
                        st.switch_page(PLAY_PAGE, query_params=link.query())
                    st.rerun()
            if cols[-1].button("Watch", key=f"lobby_watch_{e.game_id}"):
                link = TableLink(e.game_id)
                tables.open_link(link)
                st.switch_page(PLAY_PAGE, query_params=link.query())


note = tables.take_notice()
if note:
    st.warning(note)
listing()
