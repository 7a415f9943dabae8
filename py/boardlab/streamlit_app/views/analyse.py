"""Analyse page: step through a game (the current one or an uploaded record) and run the AI
for the player to move; or set up a position from what one seat knows."""
import streamlit as st

import boardlab
from boardlab.streamlit_app import common
from boardlab.streamlit_app.games import ui_for
from boardlab.streamlit_app.session import (AI_PRESETS, decision_plies, load_record, mix,
                                            state_at)

ss = st.session_state
st.title("Analyse")
an = ss.setdefault(common.ANALYSIS_KEY, {})


def budget_input(key: str) -> dict:
    c1, c2 = st.columns([2, 1])
    kind = c1.radio("Search budget", ["Iterations", "Seconds"], horizontal=True, key=f"{key}_kind")
    if kind == "Iterations":
        n = c2.number_input("Iterations", min_value=50, max_value=2_000_000, value=2000, step=500,
                            key=f"{key}_iters")
        return {"iterations": int(n)}
    x = c2.number_input("Seconds", min_value=0.1, max_value=30.0, value=1.0, step=0.5,
                        key=f"{key}_secs")
    return {"seconds": float(x)}


def analyse_block(pos, player, key: str, title: str, refused: str | None = None) -> None:
    """Run button + results for position ``pos`` (seat ``player`` to move); ``refused``: why
    this search may not run (it would use cards you may not see)."""
    if refused:
        st.info(refused)
        return
    budget = budget_input(key)
    ident = (key, pos.game.name, str(sorted(pos.game.params.items())), pos._seed,
             tuple(pos.history), player)
    if st.button(f"Analyse for P{player}", type="primary", key=f"{key}_run"):
        result = common.search_with_progress(pos, budget, mix(len(pos.history), 7),
                                             f"Searching for P{player}")
        an[f"{key}_result"] = (ident, result)
        common.remember_search(result, title, pos)
    saved = an.get(f"{key}_result")
    if saved and saved[0] == ident:
        result = saved[1]
        st.markdown(f"**Best move for P{player}: `{result.best_move}`** — "
                    f"{result.iterations:,} iterations in {result.seconds:.2f} s. "
                    "Open **Search tree** to explore the search.")
        common.stats_table(result)


tab_game, tab_seat = st.tabs(["Step through a game", "From a seat's knowledge"])

with tab_game:
    sess = common.play_session()
    options = (["Current game"] if sess is not None else []) + ["Upload a record"]
    source = st.radio("Game", options, horizontal=True, key="an_source")
    base = None
    live_seat = None        # a live game is seen from its human seat only
    if source == "Current game":
        base = sess.state
        if not base.is_terminal() and sess.humans:
            live_seat = sess.viewer()
    else:
        up = st.file_uploader("Game record (JSON)", type=["json"], key="an_upload")
        if up is not None:
            ident = (up.name, up.size, getattr(up, "file_id", None))
            if an.get("upload_id") != ident:
                try:
                    an["upload_state"] = load_record(up.getvalue())
                    an["upload_id"] = ident
                    an.pop("upload_error", None)
                except (boardlab.RecordError, ValueError, UnicodeDecodeError) as e:
                    an["upload_state"], an["upload_id"] = None, ident
                    an["upload_error"] = f"Could not load {up.name}: {e}"
            if an.get("upload_error"):
                st.error(an["upload_error"])
            base = an.get("upload_state")
    if base is None:
        st.info("Start a game on the Play page, or upload a saved record.")
    else:
        ui = ui_for(base.game.name)
        key = (id(base), len(base.history))
        if an.get("plies_key") != key:
            an["plies"], an["plies_key"] = decision_plies(base), key
        plies = an["plies"]
        if len(plies) > 1:
            i = st.slider("Position (decision number)", 0, len(plies) - 1, len(plies) - 1,
                          key=f"an_ply_{len(plies)}_{id(base)}")
        else:
            i = 0
        pos = state_at(base, plies[i])
        mover = pos.current_player
        what = (f"P{mover} to move" if mover >= 0 else "game over" if pos.is_terminal() else "chance")
        st.caption(f"Decision {i} of {len(plies) - 1} — after {plies[i]} actions — {what}")
        if live_seat is not None:
            show_all = st.toggle("Show all hands (reveals the AI seats' hidden cards)",
                                 key="an_show_all_live")
            st.caption(f"This game is still being played: every position is shown as "
                       f"P{live_seat} (you) knew it"
                       + (" — **all hands shown** (the toggle above)." if show_all else
                          ". The AI seats' hands stay hidden unless you turn on "
                          "**Show all hands**."))
            viewer = live_seat
        else:
            show_all = st.toggle("Show all hands (analysis)", key="an_show_all")
            viewer = mover if mover >= 0 else None
        common.draw_board(pos, viewer, show_all, key="an_board")
        if pos.is_terminal():
            st.success(ui.result_text(pos))
        elif mover >= 0:
            refused = None
            if live_seat is not None and mover != live_seat and not show_all:
                refused = (f"This is P{mover}'s decision: its analysis would search from "
                           f"P{mover}'s hand, which you may not see while the game goes on. "
                           "Turn on **Show all hands** to run it anyway, or pick one of your "
                           "own decisions.")
            analyse_block(pos, mover, "an_game", f"Analysis of P{mover} after {plies[i]} actions",
                          refused)

with tab_seat:
    games = boardlab.games_available()
    gname = st.selectbox("Game", games, key="seat_game", format_func=lambda n: ui_for(n).title)
    built = None
    if ui_for(gname).supports_seat_facts:
        built = ui_for(gname).seat_facts(gname, key="seat")
    else:
        st.warning("This game has no 'analyse from a seat' form yet.")
    if built:
        an["seat_built"] = built
    elif ss.get("seat_build"):          # "Set up" clicked and refused: drop the old position
        an.pop("seat_built", None)
    if an.get("seat_built"):
        pos, seat, notes = an["seat_built"]
        for note in notes:
            st.info(note)
        st.success(f"Position set up: P{seat} to move, seen from P{seat}'s seat.")
        common.draw_board(pos, seat, False, key="seat_board")
        analyse_block(pos, seat, "an_seat", f"Analysis from P{seat}'s seat (entered facts)")
