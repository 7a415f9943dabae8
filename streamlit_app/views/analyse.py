"""Analyse page: step through a game (the current one or an uploaded record; ←/→ step,
Home/End the first and last position) and
run the AI for the player to move, its best move drawn on the board; review the whole game
(a win-% graph from one side, in the seats' colours, with its blunders marked; a click on it
jumps there); or set up a position from what one seat knows."""
import json
import logging
import math
import time

import streamlit as st

import boardlab
from boardlab.arena import sides_of
from boardlab.streamlit_app import board_component as bc
from boardlab.streamlit_app import common, eval_bar, open_hands_column, review
from boardlab.streamlit_app.eval_bar import named_evaluation, network_bar, show_eval_bar
from boardlab.streamlit_app.friends import tables
from boardlab.streamlit_app.games import ui_for
from boardlab.streamlit_app.games.base import search_line
from boardlab.streamlit_app.move_names import review_names
from boardlab.streamlit_app.review import (MARK_SIGN, THRESHOLDS, Review, asked_budget,
                                           budget_warning, content_key, load_review, noise_note, save_review,
                                           review_in_record,
                                           network_points, result_point,
                                           side_lines, side_value, summary, verdict)
from boardlab.streamlit_app.store import AccessDenied, NoSuchGame, StoreError
from boardlab.streamlit_app.session import (HUMAN, budget_text, decision_plies, duration_text,
                                            load_record, mix, network_reading, peeked_at,
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
    seed = mix(len(pos.history), 7)
    ident = content_key(pos, key, player, budget, seed)     # the facts, not the form's seed
    if st.button(f"Analyse for P{player}", type="primary", key=f"{key}_run"):
        result = common.search_with_progress(pos, budget, seed, f"Searching for P{player}")
        an[f"{key}_result"] = (ident, result)
        an[f"{key}_best"] = (content_key(pos), result.best_action, search_line(result))
        common.remember_search(result, title, pos)
        st.rerun()                                # the board above rings the best move
    saved = an.get(f"{key}_result")
    if saved and saved[0] == ident:
        result = saved[1]
        words = ui_for(pos.game.name).move_label(pos, int(result.best_action), player)
        st.markdown(f"**Best move for P{player}: {words}** — "
                    f"{result.iterations:,} iterations in {duration_text(result.seconds)}. "
                    "Open **Search tree** to explore the search.")
        reading = network_reading(pos, player)          # the seat's own knowledge
        common.stats_table(result, reading[1] if reading else None, pos)
        return result
    return None


def graph_sides(base, viewer_seat: int, live_seat) -> dict:
    """The sides of the game ``base`` as the graph and the bar show them: names, side of each
    seat, labels, colours (the board's seat colours), the side chosen below the graph
    (default the viewer's) and the seat whose knowledge the review reads the graph from
    (the live game's human seat, else the viewer's seat if on that side, else that side's
    first seat)."""
    n = base.game.num_players
    names, side_of = sides_of(base.game.name, n)
    sides = sorted(set(side_of))
    ui = ui_for(base.game.name)
    first = {sd: side_of.index(sd) for sd in sides}
    label = {sd: (f"{names[sd]} ({', '.join(f'P{t}' for t in range(n) if side_of[t] == sd)})"
                  if names[sd] != f"P{sd}" else ui.seat_name(sd, n)) for sd in sides}
    mine = side_of[viewer_seat] if 0 <= viewer_seat < n else sides[0]
    side = ss.get("rv_side", mine)
    side = side if side in sides else mine
    if live_seat is not None:
        observer = live_seat
    else:
        observer = viewer_seat if 0 <= viewer_seat < n and side_of[viewer_seat] == side \
            else first[side]
    colours = {sd: ui.seat_colour(first[sd], n) for sd in sides}
    return {"side_of": side_of, "sides": sides, "label": label, "mine": mine, "side": side,
            "colours": colours, "observer": observer}


def bar_style(g: dict, side: int) -> dict:
    """The bar's colours and label for ``side`` (the rest: the other side's colour)."""
    others = [sd for sd in g["sides"] if sd != side]
    return {"colour": g["colours"][side], "label": g["label"][side],
            "other": g["colours"][others[0]] if len(others) == 1 else eval_bar.OTHER}


def bar_value(g: dict, pos, row, result, viewer=None) -> tuple[dict | None, int]:
    """(the bar's evaluation, its side) at this position: the graph's value (the review's
    row, with the review's verdict on the move played), else a search run here, turned to
    the graph's side (with more than two sides a search gives its mover's side only); its
    best move in the buttons' words as ``viewer`` reads them."""
    ui = ui_for(pos.game.name)
    side, side_of = g["side"], g["side_of"]
    if pos.is_terminal():
        end = result_point(pos, side_of)
        return {"win_pct": end[side], "pm": 0.0, "seat": None, "note": "the result"}, side
    if row is not None:
        v = side_value(row, side, side_of)
        shown = side if v is not None else side_of[row["seat"]]
        pct, pm = v if v is not None else (row["win_pct"], row["pm"])
        under, tip = verdict(row)
        return {"win_pct": pct, "pm": pm, "seat": row["seat"],
                "best_move": ui.move_label(pos, int(row["ai_action"]), viewer),
                "best_code": row["ai_move"], "verdict": under, "verdict_tip": tip,
                "note": f"read from P{row.get('view_seat', row['seat'])}'s knowledge"}, shown
    if result is not None:
        ev = named_evaluation(result, pos, ui, viewer)
        mover_side = side_of[ev["seat"]]
        if mover_side != side and len(g["sides"]) == 2:
            ev = dict(ev, win_pct=100.0 - ev["win_pct"])
            mover_side = side
        return dict(ev, note=f"a search for P{ev['seat']}"), mover_side
    return network_bar(pos, g["observer"], side_of.index(side),     # at once, before any search
                       f"the learned network's reading from P{g['observer']}'s knowledge, "
                       "without search"), side


TABLE_GAME = tables.TABLE_GAME
NAV_KEYS = ("an_first", "an_prev", "an_next", "an_last")     # the buttons beside the slider


def ended_table():
    """The ended table of friends this session is at (every seat may then read everything,
    and its review is kept with it): (its id, its full record, this link's seat or 0);
    else (None, None, 0)."""
    link = tables.current()
    if link is None:
        return None, None, 0
    try:
        view = common.game_store().view(link.game_id, link.token)
    except (AccessDenied, NoSuchGame, StoreError, ValueError):
        return None, None, 0
    if view.status != "ended" or view.record is None:
        return None, None, 0
    return link.game_id, view.record, view.seat if view.seat is not None else 0


def kept_review(base, store_id: str):
    """The review kept with the finished game ``store_id`` (all seats), made this session's
    review; None if there is none or the store cannot be read."""
    try:
        job = load_review(common.game_store(), store_id, base)
    except Exception:   # noqa: BLE001 - the store unreadable: the page still works
        logging.getLogger(__name__).warning("the review kept with a game could not be read")
        return None
    if job is not None:
        an["review"] = job
    return job


def keep_review(job, store_id: str | None) -> None:
    """Keep a finished game's finished review with the game (once)."""
    if store_id is None or job.saved or not job.done or not job.base.is_terminal() \
            or job.seats is not None:
        return
    try:
        save_review(common.game_store(), store_id, job)
    except Exception:   # noqa: BLE001 - the store unwritable: the review stays on screen
        logging.getLogger(__name__).warning("a review could not be kept with its game")
        st.caption("This review could not be kept with the game (the database is not "
                   "available): a reload will have to run it again.")
        return
    job.saved = True


def review_controls(base, live_seat, show_all, slider_key: str, g: dict,
                    peeked: int | None = None, store_id: str | None = None):
    """Win-%% graph and review of the whole game ``base``: every decision this viewer may
    search, analysed in the background (a fragment doing a few per run) at a set budget.
    The graph is drawn from the side chosen below (``g``: :func:`graph_sides`), read from
    one seat's knowledge at every decision, and ends at the result."""
    n = base.game.num_players
    st.subheader("Whole game: win-% graph and review")
    if peeked is not None:
        st.warning(f"**Peeked at:** all hands were shown while this game was being played "
                   f"(from action {peeked} on).", icon=":material/visibility:")
    sides, side_of, side_label = g["sides"], g["side_of"], g["label"]
    viewer_side = st.selectbox("Graph from the side of", sides, index=sides.index(g["mine"]),
                               format_func=lambda sd: side_label[sd], key="rv_side")
    budget = budget_input("rv")
    if live_seat is not None and not show_all:
        allowed = frozenset([live_seat])
        st.caption(f"The game goes on: only P{live_seat}'s (your) decisions are searched.")
    else:
        allowed = None
    seats = st.multiselect("Review the decisions of", list(range(n)),
                           default=sorted(allowed) if allowed else list(range(n)),
                           format_func=lambda s: f"P{s}", key="rv_seats")
    job = an.get("review")
    if job is not None and job.key != Review.key_for(base, allowed):
        job = an["review"] = None                 # another game, or it went on
    net_pts = None
    if len(sides) == 2:                           # at once, before (and beside) the search
        net_pts = network_points(base, g["observer"], viewer_side, side_of)
    c1, c2 = st.columns([1, 1])
    if c1.button("Analyse the whole game", key="rv_start", type="primary"):
        job = an["review"] = Review(base.clone(), budget, seats=allowed,
                                    seed=mix(len(base.history), 11), observer=g["observer"])
    if job is None:
        if net_pts:
            st.caption("Before any search: the learned network's reading of every decision "
                       "(dashed). **Analyse the whole game** refines it with the search.")
            win_graph([], side_of, viewer_side, side_label, g["colours"],
                      len(decision_plies(base)) - 1, None, g["observer"], net_pts)
        return None
    running = not job.done and not job.stopped
    if running and c2.button("Stop", key="rv_stop"):
        job.stopped = True
        running = False

    @st.fragment(run_every=0.2 if running else None)
    def worker():
        # A run of this fragment alone analyses a few more decisions and redraws the graph
        # and the table, so they grow while the rest of the page stays as it is.
        if not job.done and not job.stopped:
            slice_seconds = max(review.SLICE_SECONDS, review.SLICE_PER_DRAW * job.draw_seconds)
            job.step(len(job.todo), seconds=slice_seconds)
            if job.done:
                st.rerun()                        # the page: no more timer, graph complete
            st.progress(job.progress, text=f"Analysed {len(job.rows)} of {len(job.todo)} "
                                           "decisions")
        elif running:
            # Finished or stopped, but the page still shows Stop and keeps this timer: the
            # rerun that ends them was lost (a loaded run kept Stop on screen after the end).
            st.rerun()
        elif job.stopped and not job.done:
            st.caption(f"Stopped after {len(job.rows)} of {len(job.todo)} decisions.")
        drawing = time.perf_counter()
        st.caption(f"Reviewed at {budget_text(job.budget)} per decision.")
        rows = [job.rows[i] for i in sorted(job.rows)]
        if rows:
            asked = an.setdefault("rv_asked", {})         # game -> the budget asked for, once
            game_key = content_key(base)
            warning = budget_warning(rows, job.budget, asked.get(game_key))
            if warning:
                st.warning(warning, icon=":material/warning:")
                need = asked_budget(rows, job.budget)
                if need and job.done:
                    asked.setdefault(game_key, need)
            note = noise_note(rows) if not warning and game_key in asked else None
            if note:
                st.caption(note)
            rows = named(base, rows, g["observer"])
            end = (len(job.plies), result_point(base, side_of)) if job.done else None
            win_graph(rows, side_of, viewer_side, side_label, g["colours"], len(job.plies),
                      end, job.observer, net_pts if job.observer == g["observer"] else None)
            review_table(rows, seats, slider_key, unreliable=bool(warning or note))
        job.draw_seconds = time.perf_counter() - drawing

    worker()
    keep_review(job, store_id)
    if job.saved:
        st.caption("This review is kept with the game: a reload or another browser shows it "
                   "without searching again.")
    rows = [job.rows[i] for i in sorted(job.rows)]
    if rows and not running:                      # on the decisions the review has analysed
        open_hands_column.review_column(base, rows, live_seat, show_all, an)
    return job


MARK_STYLE = {label: (MARK_SIGN[label], symbol, size) for label, symbol, size in
              (("blunder", "x", 13), ("mistake", "diamond", 11), ("inaccuracy", "circle-open", 11))}


def named(base, rows, viewer) -> list[dict]:
    """The review's rows with their moves in the buttons' words as ``viewer`` reads them
    (``played_name``, ``ai_name``; the notation stays in ``played_move``, ``ai_move``),
    named once per game, rows and viewer (a replay of the game)."""
    key = (Review.key_for(base, None), tuple(r["decision"] for r in rows), viewer)
    if an.get("rv_names_key") != key:
        an["rv_names"] = review_names(ui_for(base.game.name), base, rows, viewer)
        an["rv_names_key"] = key
    names = an["rv_names"]
    return [dict(r, played_name=names[r["decision"]][0], ai_name=names[r["decision"]][1])
            for r in rows]


def win_graph(rows, side_of, viewer_side, side_label, colours, decisions: int,
              end=None, observer: int | None = None, net_pts=None) -> None:
    """The win % of ``viewer_side`` at each decision analysed (with two sides one line over
    every decision, read from the ``observer`` seat's knowledge; with more, each side's line
    at its own decisions, the viewer's bold), in the seats' colours, the flagged moves
    marked on it (?! ? ??), and ``end`` = (the end position's number, each side's result)
    last. ``decisions``: the axis spans the whole game, so a graph still growing fills it
    from the left. ``net_pts``: the learned network's reading [(decision, win %)], dashed.
    A click on a point goes to that decision."""
    import plotly.graph_objects as go
    lines = side_lines(rows, side_of, end)
    two = len(lines) == 2
    shown = [viewer_side] if two else sorted(lines, key=lambda sd: sd != viewer_side)
    fig = go.Figure()
    by_decision = {r["decision"]: r for r in rows}

    def about(d):
        r = by_decision.get(d)
        if r is None:
            return ["", "the end: the result", ""]
        return [f"P{r['seat']}", f"played {r['played_name']}", f", best {r['ai_name']}"]

    for sd in shown:
        pts = lines[sd]
        if not pts:
            continue
        bold = sd == viewer_side
        fig.add_trace(go.Scatter(
            x=[d for d, _, _ in pts], y=[y for _, y, _ in pts],
            error_y={"type": "data", "array": [pm for _, _, pm in pts], "thickness": 1,
                     "color": colours[sd]},
            mode="lines+markers", name=f"{side_label[sd]} win %",
            line={"color": colours[sd], "width": 3 if bold else 1.5},
            marker={"color": colours[sd], "size": 6 if bold else 4},
            opacity=1.0 if bold else 0.55,
            customdata=[about(d) for d, _, _ in pts],
            hovertemplate="decision %{x}: %{y:.1f}%<br>%{customdata[0]} %{customdata[1]}"
                          "%{customdata[2]}<extra></extra>"))
    y_of = {sd: {d: y for d, y, _ in lines[sd]} for sd in lines}
    for label, (sign, symbol, size) in MARK_STYLE.items():
        flagged = [r for r in rows if r["label"] == label]
        if not flagged:
            continue
        on = [(r, viewer_side if two else side_of[r["seat"]]) for r in flagged]
        fig.add_trace(go.Scatter(
            x=[r["decision"] for r, _ in on], y=[y_of[sd][r["decision"]] for r, sd in on],
            mode="markers+text", text=[sign] * len(on), textposition="top center",
            textfont={"color": "#b3261e", "size": 13}, name=f"{label} ({sign})",
            marker={"symbol": symbol, "size": size, "color": "#b3261e",
                    "line": {"width": 2, "color": "#b3261e"}},
            customdata=[[f"P{r['seat']}", r["played_name"], r["ai_name"], r["win_pct_lost"]]
                        for r, _ in on],
            hovertemplate=f"decision %{{x}}: {label}<br>%{{customdata[0]}} played "
                          "%{customdata[1]} (-%{customdata[3]:.1f}%), best "
                          "%{customdata[2]}<extra></extra>"))
    if net_pts:                       # last: the search's line and marks come first
        fig.add_trace(go.Scatter(
            x=[d for d, _ in net_pts], y=[y for _, y in net_pts], showlegend=True,
            name=f"{side_label[viewer_side]} win %, the network's reading (no search)",
            line={"color": colours[viewer_side], "width": 1.5, "dash": "dash"},
            # markers: plotly selects no point of a lines-only trace, so a click that
            # hovered this line (where it meets the search's) went to no decision
            mode="lines+markers", marker={"color": colours[viewer_side], "size": 3},
            hovertemplate="decision %{x}: %{y:.1f}% (network)<extra></extra>"))
    fig.update_layout(height=280, margin={"l": 10, "r": 10, "t": 10, "b": 10},
                      # room above 100 and below 0 for a flagged move's mark and its ?? there
                      yaxis={"range": [-4, 112], "tickvals": [0, 20, 40, 60, 80, 100],
                             "title": f"win % of {side_label[viewer_side]}" if two
                             else "win % (each side at its own decisions)"},
                      xaxis={"title": "decision (click a point to go there)"
                             + (f"; every point as P{observer} knew it" if two and
                                observer is not None else ""),
                             "range": [-0.5, decisions + 0.5]},
                      legend={"orientation": "h", "y": -0.3},
                      clickmode="event+select")
    event = st.plotly_chart(fig, on_select="rerun", selection_mode="points", key="rv_graph",
                            width="stretch")
    points = (event or {}).get("selection", {}).get("points", []) if event else []
    if not points:
        an.pop("graph_jumped", None)
    else:
        x = int(points[0]["x"])
        if an.get("graph_jumped") != x:
            an["graph_jumped"] = x
            ss["an_jump"] = x
            st.rerun()


def lost_text(r: dict) -> str:
    """The win % a move lost with its noise, as the table shows it."""
    if math.isnan(r["win_pct_lost"]):
        return "not searched"
    if r["played_action"] == r["ai_action"]:
        return "0 (the best move)"
    return f"{r['win_pct_lost']:.1f} ± {r['noise']:.1f}"


def flag_text(r: dict, marks: dict) -> str:
    """The flag, or why a loss of an inaccuracy's size or more was not flagged."""
    smallest = min(t for _, t in THRESHOLDS)
    if r["label"] == "" and r["win_pct_lost"] >= smallest:
        return "— within noise"
    return marks[r["label"]]


def review_table(rows, seats, slider_key: str, unreliable: bool = False) -> None:
    import pandas as pd
    mine = [r for r in rows if r["seat"] in seats]
    if not mine:
        return
    marks = {**{label: f"{sign} {label}" for label, sign in MARK_SIGN.items()},
             "unknown": "not searched", "": ""}
    st.markdown("**Summary per seat** — accuracy: share of decisions that are not an "
                "inaccuracy, mistake or blunder (" + ", ".join(
                    f"{k} ≥ {v:g}" for k, v in reversed(THRESHOLDS))
                + " win-% points lost, and more than the noise)"
                + (" — **unreliable at this budget** (see above)" if unreliable else ""))
    st.container(key="rv_summary_box").dataframe(pd.DataFrame([{
        "seat": f"P{e['seat']}", "decisions": e["decisions"],
        "accuracy %": round(e["accuracy"], 1), "mean win % lost": round(e["mean_lost"], 1),
        "inaccuracies": e["inaccuracy"], "mistakes": e["mistake"], "blunders": e["blunder"]}
        for e in summary(mine, seats)]), hide_index=True, key="rv_summary")
    st.caption("Each move, from the mover's own search (what it knew): **mover's win %** "
               "with the best move; **win % lost** = that minus the move played's, ± its noise "
               "(the two moves' ± combined); a move is flagged only when it lost more than that "
               "noise. (The graph reads every decision from one seat, so at the other seat's "
               "decisions it differs from the mover's win %.)")
    st.container(key="rv_table_box").dataframe(pd.DataFrame([{
        "decision": r["decision"], "seat": f"P{r['seat']}", "played": r["played_name"],
        "AI": r["ai_name"], "mover's win % (best move)": f"{r['win_pct']:.1f} ± {r['pm']:.1f}",
        "win % lost": lost_text(r), "flag": flag_text(r, marks),
        "played (notation)": r["played_move"], "AI (notation)": r["ai_move"]} for r in mine]),
        hide_index=True, key="rv_table", height=240,
        # the kernel's notation stays in the table's data (for tools), not on screen
        column_config={"played (notation)": None, "AI (notation)": None})
    flagged = [r for r in mine if r["label"] in ("inaccuracy", "mistake", "blunder")]
    if flagged:
        c1, c2 = st.columns([3, 1])
        by_decision = {r["decision"]: r for r in flagged}
        pick = by_decision[c1.selectbox(
            "Flagged decision", list(by_decision), key="rv_flag",
            format_func=lambda d: f"{d}: P{by_decision[d]['seat']} "
            f"{by_decision[d]['played_name']} ({by_decision[d]['label']}, "
            f"-{by_decision[d]['win_pct_lost']:.1f}%)")]
        if c2.button("Show the better move", key="rv_show"):
            ss["an_jump"] = pick["decision"]
            an["better"] = pick["decision"]
            st.rerun()
    else:
        st.caption("No inaccuracy, mistake or blunder among the decisions reviewed so far.")


def uploaded_app(data: bytes, state) -> tuple[int | None, int]:
    """(ply "Show all hands" was switched on at, or None; the seat the graph is seen from:
    the record's first human seat, else P0) from an uploaded record's "app" block."""
    try:
        rec = json.loads(data)
    except ValueError:
        return None, 0
    app = rec.get("app") if isinstance(rec, dict) else None
    seats = app.get("seats") if isinstance(app, dict) else None
    humans = [s for s, kind in enumerate(seats)
              if kind == HUMAN] if isinstance(seats, list) else []
    seat = humans[0] if humans and humans[0] < state.game.num_players else 0
    return peeked_at(rec, len(state.history)), seat


def uploaded_review(data: bytes, state) -> str | None:
    """Take the review an uploaded record carries (its "app" block) as this session's review;
    what to tell of one that is left out, else None."""
    job, why = review_in_record(json.loads(data), state)
    if why:
        return f"The record's review cannot be read, so it is left out: {why}."
    if job is not None and job.seats is not None:
        return (f"The record's review covers only {', '.join(f'P{s}' for s in sorted(job.seats))}"
                "'s decisions (made while the game was being played): **Analyse the whole "
                "game** reviews every seat's.")
    if job is not None:
        an["review"] = job
    return None


def mark_button(prefix: str, action: int) -> None:
    """Ring the button of ``action`` in the input keyed ``prefix`` (buttons are keyed
    ``<key>_act_<action>``; a game's input that marks the hint itself is marked twice)."""
    sel = ", ".join(f'[class*="st-key-{prefix}"][class{op}="_act_{action}{end}"] button'
                    for op, end in (("*", " "), ("$", "")))
    st.html(f"<style>{sel} {{outline: 3px solid #7c3aed; outline-offset: 2px; "
            "font-weight: 700}}</style>")


tab_game, tab_seat = st.tabs(["Step through a game", "From a seat's knowledge"])

with tab_game:
    sess = common.play_session()
    table_id, table_record, table_seat = ended_table()
    options = ((["Current game"] if sess is not None else [])
               + ([TABLE_GAME] if table_record is not None else []) + ["Upload a record"])
    if ss.get("an_source") not in options:
        ss.pop("an_source", None)
    source = st.radio("Game", options, horizontal=True, key="an_source")
    base = None
    live_seat = None        # a live game is seen from its human seat only
    peeked, viewer_seat = None, 0       # "Show all hands" in the live game; the graph's side
    if source == "Current game":
        base = sess.state
        if not base.is_terminal() and sess.humans:
            live_seat = sess.viewer()
        peeked = sess.peeked_at_ply
        viewer_seat = sess.viewer() if sess.viewer() is not None else 0
    elif source == TABLE_GAME:
        key = ("table", table_id, len(table_record["actions"]))
        if an.get("table_key") != key:
            an["table_state"], an["table_key"] = load_record(table_record), key
        base = an["table_state"]
        viewer_seat = table_seat
    else:
        up = st.file_uploader("Game record (JSON)", type=["json"], key="an_upload")
        if up is not None:
            ident = (up.name, up.size, getattr(up, "file_id", None))
            if an.get("upload_id") != ident:
                try:
                    an["upload_state"] = load_record(up.getvalue())
                    an["upload_id"] = ident
                    an.pop("upload_error", None)
                    an["upload_app"] = uploaded_app(up.getvalue(), an["upload_state"])
                    an["upload_note"] = uploaded_review(up.getvalue(), an["upload_state"])
                except (boardlab.RecordError, ValueError, UnicodeDecodeError) as e:
                    an["upload_state"], an["upload_id"] = None, ident
                    an["upload_error"] = f"Could not load {up.name}: {e}"
            if an.get("upload_error"):
                st.error(an["upload_error"])
            elif an.get("upload_note"):
                st.warning(an["upload_note"], icon=":material/warning:")
            base = an.get("upload_state")
            if base is not None:
                peeked, viewer_seat = an.get("upload_app") or (None, 0)
    if base is None:
        st.info("Start a game on the Play page, or upload a saved record.")
    else:
        ui = ui_for(base.game.name)
        key = (id(base), len(base.history))
        if an.get("plies_key") != key:
            an["plies"], an["plies_key"] = decision_plies(base), key
        plies = an["plies"]
        slider_key = f"an_ply_{len(plies)}_{id(base)}"
        if "an_jump" in ss:                       # from the graph or "Show the better move"
            ss[slider_key] = min(int(ss.pop("an_jump")), len(plies) - 1)
        if len(plies) > 1:
            last = len(plies) - 1

            def step(by: int, key=slider_key, last=last) -> None:
                ss[key] = min(max(int(ss.get(key, last)) + by, 0), last)

            # Home/End: the first and the last position, as on Lichess (whose ↑/↓ are left to
            # the browser here: they scroll this long page)
            c_first, c_prev, c_slider, c_next, c_last = st.columns(
                [1, 1, 12, 1, 1], vertical_alignment="bottom")
            # one icon each: Streamlit writes a button's shortcut beside its label ("← ←",
            # "Home" pushing the icon out), so the key is named in the tooltip only
            st.html("<style>" + ", ".join(f".st-key-{k} kbd" for k in NAV_KEYS)
                    + " { display: none; }</style>")
            c_first.button(":material/first_page:", key="an_first", shortcut="Home",
                           on_click=step, args=(-last,), help="The first decision (Home key)",
                           width="stretch")
            c_prev.button(":material/chevron_left:", key="an_prev", shortcut="Left",
                          on_click=step, args=(-1,), help="The previous decision (← key)",
                          width="stretch")
            c_next.button(":material/chevron_right:", key="an_next", shortcut="Right",
                          on_click=step, args=(1,), help="The next decision (→ key)",
                          width="stretch")
            c_last.button(":material/last_page:", key="an_last", shortcut="End",
                          on_click=step, args=(last,), help="The end of the game (End key)",
                          width="stretch")
            i = c_slider.slider("Position (decision number)", 0, last, last, key=slider_key)
        else:
            i = 0
        pos = state_at(base, plies[i])
        mover = pos.current_player
        what = (f"P{mover} to move" if mover >= 0 else "game over" if pos.is_terminal() else "chance")
        st.caption(f"Decision {i} of {len(plies) - 1} — after {plies[i]} actions — {what}")
        if live_seat is not None:
            show_all = st.toggle("Show all hands (reveals the AI seats' hidden cards)",
                                 key="an_show_all_live",
                                 help="The game is marked as peeked at (in its record, its "
                                      "result and its review).")
            if show_all and sess.peeked_at_ply is None and sess.peek():
                peeked = sess.peeked_at_ply
                common.save_game()
            st.caption(f"This game is still being played: every position is shown as "
                       f"P{live_seat} (you) knew it"
                       + (" — **all hands shown** (the toggle above)." if show_all else
                          ". The AI seats' hands stay hidden unless you turn on "
                          "**Show all hands**."))
            viewer = live_seat
        else:
            show_all = st.toggle("Show all hands (analysis)", key="an_show_all")
            viewer = mover if mover >= 0 else None
        store_id = (common.game_id() if source == "Current game" else
                    table_id if source == TABLE_GAME else None)
        job = an.get("review")
        mine = sess.review if source == "Current game" else None   # its record's, or made here
        if mine is not None and (job is None or job.key != Review.key_for(base, job.seats)) \
                and mine.key == Review.key_for(base, mine.seats):
            job = an["review"] = mine
        if (job is None or job.key != Review.key_for(base, job.seats)) and store_id:
            job = kept_review(base, store_id) or job
        row = job.rows.get(i) if job is not None and job.key == Review.key_for(base, job.seats) \
            else None
        if peeked is not None and live_seat is not None:
            st.caption(f"All hands were shown in this game from action {peeked} on: it is "
                       "marked as peeked at.")
        best, line = None, ()       # the best move found here: drawn on the board
        found = an.get("an_game_best")
        if found and found[0] == content_key(pos):
            best, line = found[1], found[2]
        elif row is not None:       # (a review kept before rows had their line: none)
            best, line = row["ai_action"], tuple(row.get("ai_line") or ())
        if best is not None and mover >= 0:
            ui.show_best_move(pos, best, line)
        # "you" only for the seat the person at the screen played (not an AI seat to move)
        bc.set_viewer_you(live_seat is not None or (source == "Current game"
                                                    and viewer in sess.humans))
        bar_col, board_col = st.columns([1, 11])
        with board_col:
            obs = common.draw_board(pos, viewer, show_all, key="an_board")
            if row is not None and an.get("better") == i:
                played, better = (ui.move_label(pos, int(row[k]), viewer)
                                  for k in ("played_action", "ai_action"))
                st.markdown(f"**Better move: {better}** (marked in purple) — "
                            f"played {played}, {row['win_pct_lost']:.1f} win-% "
                            f"points lost ({row['label']}). This input only shows the move.")
                ui.move_input(pos, obs, key=f"an_better_{i}", hint=row["ai_action"])
                mark_button(f"an_better_{i}", row["ai_action"])
        g = graph_sides(base, viewer_seat, live_seat)
        result = None
        if pos.is_terminal():
            st.success(ui.result_text(pos))
        elif mover >= 0:
            refused = None
            if live_seat is not None and mover != live_seat and not show_all:
                refused = (f"This is P{mover}'s decision: its analysis would search from "
                           f"P{mover}'s hand, which you may not see while the game goes on. "
                           "Turn on **Show all hands** to run it anyway, or pick one of your "
                           "own decisions.")
            result = analyse_block(pos, mover, "an_game",
                                   f"Analysis of P{mover} after {plies[i]} actions", refused)
            open_hands_column.position_column(pos, mover, live_seat, show_all, "an_game", an)
        if pos.is_terminal() or mover >= 0:
            ev, side = bar_value(g, pos, row, result, viewer)   # the graph's side and value
            with bar_col:
                show_eval_bar(ev, **bar_style(g, side))
        job = review_controls(base, live_seat, show_all, slider_key, g, peeked, store_id)
        if source == "Current game" and job is not None:
            sess.review = job               # Save writes it in the game's record

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
        found = an.get("an_seat_best")
        bc.set_marks(())        # the other tab's best move is not this position's
        bc.set_viewer_you(True)     # the facts entered are the seat's at the screen
        if found and found[0] == content_key(pos):
            ui_for(pos.game.name).show_best_move(pos, found[1], found[2])
        common.draw_board(pos, seat, False, key="seat_board")
        analyse_block(pos, seat, "an_seat", f"Analysis from P{seat}'s seat (entered facts)")
