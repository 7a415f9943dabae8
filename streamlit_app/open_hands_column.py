"""The "open hands" column of the Analyse page and of the game review: beside the normal
search, the best move with every hand face up and what the hidden information cost
(:func:`boardlab.open_hands.compare`, "double dummy" as bridge players say).

The open-hands search looks at every hidden card, so it is shown only for a finished or
uploaded game, or for a live one when "Show all hands" is on (then every hand is on the
screen anyway); otherwise it is refused with a note saying why.
"""
from __future__ import annotations

import streamlit as st

from boardlab.open_hands import compare
from boardlab.streamlit_app.games import ui_for
from boardlab.streamlit_app.session import mix, state_at

REFUSED = ("**Open hands** (the best move with every hand face up) is not shown while this "
           "game is still being played: it looks at every hidden card. It is there for a "
           "finished or uploaded game, or with **Show all hands** on.")


def refusal(live_seat, show_all: bool) -> str | None:
    """Why the open-hands search may not run here (None: it may)."""
    return REFUSED if live_seat is not None and not show_all else None


def cost_text(c) -> str:
    """What the hidden information cost, in words."""
    if c.same_move:
        return "same move: the hidden cards cost nothing here"
    if c.cost is None:
        return "unknown (the open-hands search never tried the seat's move)"
    return (f"{100 * c.cost:.1f} win-% points (judged face up; the seat's move had "
            f"{c.cost_visits:,} open-hands visits)")


def _header(title: str, live_seat, show_all: bool, key: str) -> int | None:
    """The column's title, then its refusal (None) or its iteration budget input."""
    st.markdown(f"##### {title}")
    why = refusal(live_seat, show_all)
    if why:
        st.info(why)
        return None
    return int(st.number_input("Open-hands iterations (each search)", min_value=50,
                               max_value=2_000_000, value=2000, step=500, key=f"{key}_oh_iters"))


def position_column(pos, mover: int, live_seat, show_all: bool, key: str, store: dict):
    """The open-hands column for one position (``mover`` to move); returns the comparison
    once run (kept in ``store``), else None."""
    iterations = _header("Open hands (every hand face up)", live_seat, show_all, key)
    if iterations is None:
        return None
    ident = (pos.game.name, str(sorted(pos.game.params.items())), pos._seed,
             tuple(pos.history), iterations)
    if st.button(f"Compare P{mover}'s search with open hands", key=f"{key}_oh_run"):
        with st.spinner("Searching twice: the seat's view, then every hand face up"):
            store[f"{key}_oh"] = (ident, compare(pos, iterations=iterations,
                                                 seed=mix(len(pos.history), 11)))
    saved = store.get(f"{key}_oh")
    if not saved or saved[0] != ident:
        return None
    c = saved[1]
    ui = ui_for(pos.game.name)
    left, right = st.columns(2)
    left.metric(f"P{mover}'s search (what P{mover} knows)",
                ui.move_label(pos, c.ismcts.best_action, mover))
    right.metric("Open hands (every hand face up)",
                 ui.move_label(pos, c.open_hands.best_action, mover))
    st.markdown(f"**What the hidden information cost:** {cost_text(c)}.")
    return c


def review_column(base, rows, live_seat, show_all: bool, store: dict) -> list[dict] | None:
    """The open-hands column of the game review: for every reviewed decision, the
    open-hands best move and the cost of the seat's search's move. Returns the table rows
    once computed (kept in ``store``), else None."""
    iterations = _header("Open hands column", live_seat, show_all, "rv")
    if iterations is None:
        return None
    ident = (tuple(base.history), iterations, tuple(sorted(r["decision"] for r in rows)))
    if st.button("Add the open-hands column", key="rv_oh_run"):
        out = []
        bar = st.progress(0.0, text="Open-hands searches")
        ui = ui_for(base.game.name)
        for k, r in enumerate(sorted(rows, key=lambda r: r["decision"])):
            at = state_at(base, r["ply"])
            c = compare(at, iterations=iterations, seed=mix(r["ply"], 11))

            def words(action, at=at, seat=r["seat"]):     # the buttons' words (move_names)
                return ui.move_label(at, int(action), seat)
            out.append({"decision": r["decision"], "seat": f"P{r['seat']}",
                        "played": words(r["played_action"]),
                        "search": words(c.ismcts.best_action),
                        "open hands": words(c.open_hands.best_action),
                        "hidden-info cost (win-% pts)": (None if c.cost is None
                                                         else round(100 * c.cost, 1))})
            bar.progress((k + 1) / len(rows), text="Open-hands searches")
        store["rv_oh"] = (ident, out)
    saved = store.get("rv_oh")
    if not saved or saved[0] != ident:
        return None
    import pandas as pd
    st.dataframe(pd.DataFrame(saved[1]), hide_index=True)
    return saved[1]
