"""The host's controls of a shared table: the links to send, who sits where (hand a seat to
the AI and back, a new link for a seat), the table's settings, and ending the table. Every
action goes through the store with the host token, which checks it."""
from __future__ import annotations

import time

import streamlit as st

from .. import common
from . import tables
from ..games import ui_for
from .tables import presence, seat_label

TIMER_CHOICES = {"No move timer": None, "30 s": 30.0, "1 min": 60.0, "2 min": 120.0,
                 "5 min": 300.0, "15 min": 900.0}


def timer_label(seconds) -> str:
    for label, value in TIMER_CHOICES.items():
        if value == seconds:
            return label
    return f"{seconds:g} s"


def show(link, view) -> None:
    ui = ui_for(view.game)
    store = common.game_store()
    gid, host = link.game_id, link.host_token
    links = tables.known_links(gid)
    ended = view.status == "ended"
    with st.expander("Host: links, seats and settings", expanded=not ended and bool(links),
                     icon=":material/admin_panel_settings:"):
        st.caption("Send each friend the link of their seat (it is their key: whoever has it "
                   "plays that seat). A link shown here is shown once; **New link** makes "
                   "another (the old one stops working). On a local network, use this "
                   "machine's address in place of localhost.")
        host_link = tables.TableLink(gid, None, host)
        st.markdown("**Your host link** (watch and manage the table):")
        st.code(tables.url_of(host_link), language=None)
        now = time.time()
        for info in view.seats:
            s = info.seat
            with st.container(border=True, key=f"host_seat_{s}"):
                c1, c2, c3 = st.columns([2.2, 1, 1])
                c1.html(f"<b>{seat_label(ui, view, s)}</b> · {presence(info, now)}")
                if info.kind != "human":
                    continue
                if not ended:
                    if c2.button("Give back" if info.to_ai else "Hand to the AI",
                                 key=f"host_ai_{s}", width="stretch",
                                 help="The AI plays this seat until you give it back"
                                 if not info.to_ai else "Its player decides again"):
                        tables.act("hand the seat over", store.hand_to_ai, gid, host, s,
                                   not info.to_ai)
                        st.rerun()
                    if c3.button("New link", key=f"host_new_{s}", width="stretch",
                                 help="A new link for this seat; the old one stops working"):
                        token = tables.act("make a new link", store.reissue, gid, host, s)
                        if token:
                            tables.remember_link(gid, s, token)
                        st.rerun()
                token = links.get(s)
                if token and token != link.seat_token:
                    st.code(tables.url_of(tables.TableLink(gid, token)), language=None)
                elif token:
                    st.caption("Your own seat (the link in your address bar).")
        if not ended:
            settings_form(view, link)
            st.divider()
            sure = st.checkbox("I want to end this table", key="host_end_sure")
            if st.button("End the table", key="host_end", disabled=not sure,
                         icon=":material/stop_circle:",
                         help="No more moves; everyone at the table sees every hand"):
                tables.act("end the table", store.end_table, gid, host)
                st.rerun()


def settings_form(view, link) -> None:
    s = view.settings
    with st.form(key="host_settings", border=False):
        st.markdown("**Settings**")
        public = st.toggle("Public: listed in the Lobby with its free seats", value=s.public)
        hints = st.toggle("Hints and the evaluation bar (off for a fair game)", value=s.hints)
        undo = st.radio("Undo", ["consent", "off"], index=0 if s.undo == "consent" else 1,
                        horizontal=True, format_func=lambda u: {
                            "consent": "with the other players' consent", "off": "off"}[u])
        labels = list(TIMER_CHOICES)
        current = timer_label(s.move_timer)
        if current not in labels:
            labels.append(current)
        timer = st.selectbox("Move timer (then the AI moves for an absent player)", labels,
                             index=labels.index(current))
        if st.form_submit_button("Save settings"):
            seconds = TIMER_CHOICES.get(timer, s.move_timer)
            tables.act("change the settings", common.game_store().change_settings,
                       link.game_id, link.host_token, public=public, hints=hints, undo=undo,
                       move_timer=seconds)
            st.rerun()
