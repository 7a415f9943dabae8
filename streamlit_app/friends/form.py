"""The "Play with friends" part of the New game form: a table with a link per human seat
(names, public or private, hints, undo, move timer), created in the store and opened at the
creator's seat with the host's powers."""
from __future__ import annotations

import streamlit as st

from .. import common
from ..store import StoreError
from . import tables
from .host_panel import TIMER_CHOICES
from ..session import HUMAN

HERE, FRIENDS = "On this screen", "With friends: a link per seat"


def options(ui, game, seats: list) -> dict | None:
    """The table's options (None: play on this screen, solo or hot-seat, as before)."""
    mode = st.radio("Where", [HERE, FRIENDS], horizontal=True, key="ng_where",
                    help="With friends, each Human seat gets its own link: every player plays "
                         "from their own browser and sees only their own hand; the AI plays "
                         "the AI seats on the server.")
    if mode != FRIENDS:
        return None
    n = game.num_players
    humans = [s for s, kind in enumerate(seats) if kind == HUMAN]
    if not humans:
        st.warning("Make at least one seat Human: each Human seat gets a link.")
        return {"error": "no human seat"}
    st.markdown("**Players** — a name for each Human seat (optional)")
    cols = st.columns(len(humans))
    names = {}
    for col, s in zip(cols, humans):
        name = col.text_input(ui.seat_name(s, n), key=f"ng_name_{s}", max_chars=40,
                              placeholder="name")
        if name.strip():
            names[s] = name.strip()
    mine = st.selectbox("You sit at", humans + [None], key="ng_my_seat",
                        format_func=lambda s: "no seat: I only host and watch" if s is None
                        else ui.seat_name(s, n) + (f" ({names[s]})" if s in names else ""))
    c1, c2 = st.columns(2)
    public = c1.toggle("Public: listed in the Lobby with its free seats", key="ng_public")
    hints = c2.toggle("Hints and the evaluation bar (off for a fair game)", key="ng_hints")
    undo = c1.radio("Undo", ["consent", "off"], horizontal=True, key="ng_undo",
                    format_func=lambda u: {"consent": "with the others' consent",
                                           "off": "off"}[u])
    timer = c2.selectbox("Move timer (then the AI moves for an absent player)",
                         list(TIMER_CHOICES), key="ng_timer")
    return {"my_seat": mine, "names": names, "public": public, "hints": hints, "undo": undo,
            "move_timer": TIMER_CHOICES[timer]}


def start(sess, opts: dict) -> None:
    """Create the table and open it here (the page reruns), or say what is wrong."""
    if "error" in opts:
        st.error("A table needs at least one Human seat.")
        return
    try:
        tables.create(sess, **opts)
    except ValueError as e:
        st.error(f"Could not create the table: {e}")
        return
    except StoreError as e:             # its plain cause only
        st.error(common.not_saved(e, "the table was not created"))
        return
    st.rerun()
