"""The evaluation bar: the win % of one fixed side (the viewer's seat or team, the side the
review's graph is drawn for), with its ± (a vertical gauge drawn in HTML, in the seats'
colours: the side's share from the bottom, the rest in the other side's colour), shown
beside the board on Play and Analyse, and the hint's box."""
from __future__ import annotations

import html

import streamlit as st

OTHER = "#5c5c5c"           # the rest of the bar when the other side has no one colour


def eval_bar_html(ev: dict | None, height: int = 320, colour: str = "#f2f2f2",
                  other: str = OTHER, label: str | None = None) -> str:
    """HTML of the bar for an :func:`review.evaluation`-like dict (``win_pct`` and ``pm`` of
    the side shown, ``seat``; optional ``best_move`` (in the buttons' words) and
    ``best_code`` (its notation, kept in a data attribute for tools), ``within_noise``,
    ``note``, ``verdict`` and ``verdict_tip`` (:func:`review.verdict`)), None: not
    evaluated yet. ``colour``: that side's, ``other``: the rest's; ``label`` names the side
    (default P<seat>)."""
    if ev is None:
        return (f'<div class="bl-evalbar" style="height:{height}px;width:54px;border:1px solid '
                '#999;border-radius:4px;display:flex;align-items:center;justify-content:center;'
                'font-size:11px;color:#777;text-align:center">no eval</div>')
    pct = min(max(ev["win_pct"], 0.0), 100.0)
    lo, hi = max(pct - ev["pm"], 0.0), min(pct + ev["pm"], 100.0)
    who = label or f"P{ev['seat']}"
    # at a reviewed decision the review's verdict on the move played (review.verdict), the
    # same words as its table and marks; elsewhere whether the best two moves are apart
    under = ev.get("verdict") or ("best ≈ next: within noise" if ev.get("within_noise") else "")
    noise = f"<br>{html.escape(under)}" if under else ""
    best = f"; best {ev['best_move']}" if ev.get("best_move") else ""
    network = ev.get("source") == "network"       # a reading at a glance: no interval
    title = html.escape((f"Win % of {who}: {pct:.1f}%" if network else
                         f"Win % of {who}: {pct:.1f}% ± {ev['pm']:.1f} (95% interval over the "
                         f"search's visits)") + best + (f". {ev['note']}" if ev.get("note") else "")
                        + (f". {ev['verdict_tip']}" if ev.get("verdict_tip") else ""))
    spread = "network" if network else f"± {ev['pm']:.1f}"
    code = (f'data-best-code="{html.escape(ev["best_code"])}" ' if ev.get("best_code") else "")
    return (
        f'<div class="bl-evalbar" data-side="{html.escape(who)}" data-win="{pct:.1f}" '
        f'data-source="{"network" if network else "search"}" {code}'
        f'title="{title}" style="width:54px;text-align:center;font-size:11px">'
        f'<div style="position:relative;height:{height}px;border:1px solid #555;'
        f'border-radius:4px;background:{other};overflow:hidden">'
        f'<div class="bl-evalbar-side" style="position:absolute;bottom:0;width:100%;'
        f'height:{pct:.1f}%;background:{colour}"></div>'
        f'<div style="position:absolute;bottom:{lo:.1f}%;height:{hi - lo:.1f}%;width:100%;'
        f'background:rgba(230,140,0,.45)"></div></div>'
        f'<div><b>{pct:.1f}%</b><br>{spread}<br>'
        f'<span style="color:{colour};font-weight:700">{html.escape(who)}</span>{noise}</div>'
        f'</div>')


def show_eval_bar(ev: dict | None, height: int = 320, **style) -> None:
    st.html(eval_bar_html(ev, height, **style))


def hint_box(result, state, ui) -> None:
    """The hint (Play page, a table's seat): the best move in words, how sure the search is,
    and the top three."""
    from .review import evaluation
    ev = evaluation(result)
    st.markdown(f"**Hint: {ui.decision_label(state, result.best_action)}"
                f"{then_text(state, result, ui)}** — your win "
                f"{ev['win_pct']:.0f}% ± {ev['pm']:.0f} ({result.iterations:,} iterations)")
    top = sorted(result.stats, key=lambda s: (-s["visits"], s["action"]))[:3]
    st.markdown(hint_table(top, state, ui), unsafe_allow_html=True)
    if ev["within_noise"]:
        st.caption("The best two are within the search's noise: it cannot tell them apart.")


def named_evaluation(result, state, ui, viewer=None) -> dict:
    """:func:`review.evaluation` of a search at ``state``, its best move in the buttons'
    words as ``viewer`` reads them (``best_code``: the notation, for tools)."""
    from .review import evaluation
    ev = evaluation(result)
    return dict(ev, best_move=ui.move_label(state, int(result.best_action), viewer),
                best_code=ev["best_move"])


def then_text(state, result, ui) -> str:
    """", then <the seat's next move>" when the search expects the same seat to move again
    right after its best move (a Kyūshū card oriented, then placed at a square), else ""."""
    from .games.base import search_line
    line = search_line(result)
    if not line:
        return ""
    after = state.clone()
    after.apply(int(result.best_action))
    nxt = next((int(a) for a in after.legal_actions() if after.action_to_string(int(a)) == line[0]),
               None)
    return "" if nxt is None else f", then {ui.decision_label(after, nxt)}"


HINT_TABLE_CSS = ("<style>.bl-hint-top{width:100%;border-collapse:collapse;font-size:.85rem;"
                  "margin:.25rem 0 .5rem}.bl-hint-top th,.bl-hint-top td{padding:3px 6px;"
                  "border-bottom:1px solid #e6e3dc;text-align:left;vertical-align:top}"
                  ".bl-hint-top th{font-weight:600;color:#6b7080}.bl-hint-top .n{text-align:right;"
                  "white-space:nowrap;width:1%}</style>")


def hint_table(top, state, ui) -> str:
    """The hint's top three as an HTML table: the move's words wrap, the numbers keep their
    width (a data grid in the narrow panel cut the numbers off, or drew an empty box)."""
    rows = "".join(
        f"<tr><td>{html.escape(ui.decision_label(state, int(s['action'])))}</td>"
        f"<td class='n'>{100.0 * s['win_prob']:.1f}</td><td class='n'>{int(s['visits']):,}</td></tr>"
        for s in top)
    return (f"{HINT_TABLE_CSS}<table class='bl-hint-top'><thead><tr><th>move</th>"
            f"<th class='n'>win %</th><th class='n'>visits</th></tr></thead><tbody>{rows}</tbody>"
            "</table>")


def network_bar(state, observer: int, seat: int, note: str) -> dict | None:
    """The bar's evaluation from the shipped network's reading of ``state`` as ``observer``
    knows it, for ``seat``'s side (``seat`` None in the dict: a reading, not a seat's search);
    None where no network ships."""
    from .session import network_reading
    reading = network_reading(state, observer)
    if reading is None:
        return None
    return {"win_pct": 50.0 + 50.0 * reading[0][seat], "pm": 0.0, "seat": None,
            "source": "network", "note": note}


def deferred_bar(cache_name: str, key, state, seat: int, search, **style):
    """Draw the bar of ``seat`` at ``state`` in a placeholder of the current container: the
    search's reading if cached under ``key`` in ``st.session_state[cache_name]``, else the
    shipped network's reading at once (where none ships: "no eval", "searching…"). Returns
    ``refine()``: for the page to call once the rest is drawn, so that the board and the
    seat's choices never wait for the search; it runs ``search()`` (an
    :func:`review.evaluation` dict), caches it (one position per cache) and redraws the
    bar, or does nothing when the bar was cached."""
    cache = st.session_state.setdefault(cache_name, {})
    ev = cache.get(key)
    if ev is None:
        ev = network_bar(state, seat, seat, "the learned network's reading, without search; "
                                            "the search refines it")
        if ev is not None:
            ev["seat"] = seat
    bar, caption = st.empty(), st.empty()
    with bar:
        show_eval_bar(ev, **style)
    if key in cache:
        return lambda: None
    caption.caption("searching…")

    def refine():
        cache.clear()
        cache[key] = search()
        with bar:
            show_eval_bar(cache[key], **style)
        caption.empty()
    return refine


def beside_board(sess, on: bool, iterations: int | None = None):
    """Play page: with ``on``, a narrow column for the bar of the position when a human seat
    is to move and a wide one for the board; else a plain container (keyed ``play_parts``: on
    a phone the Play page puts the decision panel after its first element, the table).
    Returns (the board's container, ``refine`` of :func:`deferred_bar`). The bar is searched
    from that seat's own knowledge at the analysis budget, ``iterations``, not at the AI
    seats' strength."""
    if not on:
        return st.container(key="play_parts"), lambda: None
    from .games import ui_for
    from .session import ANALYSIS_ITERATIONS, analysis_budget, mix, run_search
    iterations = iterations or ANALYSIS_ITERATIONS
    state = sess.state
    seat = sess.viewer()                # the bar reads from the human seat, in its colour
    colour = ui_for(sess.game.name).seat_colour(seat or 0, sess.game.num_players)
    bar_col, board_col = st.columns([1, 11])
    with bar_col:
        if state.is_terminal() or not sess.is_human_turn():
            show_eval_bar(None, colour=colour)
            st.caption("on your turns")
            return board_col, lambda: None
        shown = state.clone()           # another tab may move the game on meanwhile
        return board_col, deferred_bar(
            "bl_play_eval", (sess.game.name, sess.seed, tuple(shown.history), iterations),
            shown, seat, lambda: named_evaluation(
                run_search(shown, analysis_budget(iterations),
                           mix(sess.seed, len(shown.history), 13)),
                shown, ui_for(sess.game.name)),
            colour=colour)
