"""The Play page of a shared table: one seat's view (its board, its hand, its decision), or
a spectator's or the host's (what every seat knows), live.

Everything drawn comes from ``GameStore.view`` for this session's link
(:mod:`.tables`): a seat's own observation and, for its move widgets, hints and the
evaluation bar, a position made up from what it knows (``view.state``); the log and "since
your last move" from the store's story of that seat (story.py). A click is played
through the store over the version on screen: if another browser moved first, nothing is
played and the new position is shown with a note.
"""
from __future__ import annotations

import time
import zlib

import streamlit as st

from .. import APP_DIR, common
from . import host_panel, tables
from ..eval_bar import deferred_bar, hint_box
from ..games import ui_for
from ..games.base import search_line
from .. import board_component as bc
from ..session import analysis_budget, mix, run_search
from ..store import SEAT, AccessDenied, NoSuchGame, StoreError
from .tables import esc, presence, seat_label

VIEW_KEY = "bl_table_view"      # the view on screen (a seat's turn: clicks apply over it)
VIEW_LINK_KEY = "bl_table_view_link"    # the link it was read with
FRESH_KEY = "bl_table_fresh"    # the next drawing reads the store's view now
SIDE = [2.6, 1]                 # board : decision panel, as the solo Play page

CSS = """<style>
.bl-undo-note { background: #fff4d6; border-left: 4px solid #e3a81b; border-radius: 4px;
  padding: 4px 10px; font-size: .9rem; }
.bl-tstatus { font-size: 1rem; padding: 2px 0; min-height: 1.6rem; }
.bl-seats { display: flex; flex-wrap: wrap; gap: 6px; margin: 2px 0 6px; }
.bl-seat { border: 1px solid #d0d3dc; border-radius: 12px; padding: 1px 9px; font-size: .85rem;
  color: #333; background: #fafbfc; }
.bl-seat.bl-me { border-color: #2b6cb0; background: #e8f0fb; font-weight: 600; }
.bl-seat.bl-turn { box-shadow: 0 0 0 2px #e3a81b; }
.st-key-tbl_reading { display: none; }
</style>"""


FORCED_LABEL = "Forced moves play themselves"
FORCED_HELP = ("A decision with only one legal choice is played at once, as on Board Game "
               "Arena; the log says \"(forced)\" (to you only: the others read it as any "
               "move). At a table of friends, your own page plays it for your seat.")
FORCED_KEY = "tbl_forced"       # this browser plays its seat's forced moves (default: on)


def refuse(text: str) -> None:
    """A link that opens nothing: the reason, a way out, and no state of any game."""
    st.error(text, icon=":material/block:")
    if st.button("Leave this link", key="tbl_leave_refused"):
        tables.leave()
        st.rerun()


def unreadable(e: StoreError) -> None:
    """The database fails: its plain cause (never the driver's text), and how to go on."""
    st.error(f"The table cannot be read now: {e}. Reload the page to try again.",
             icon=":material/cloud_off:")


def show() -> None:
    """The whole table page (run by the Play page when this session is at a table)."""
    link = tables.current()
    st.markdown(CSS, unsafe_allow_html=True)
    if tables.has_left():
        return left_page(link)
    bad_host = tables.host_refusal(link)    # before a seat is taken or anything is read
    if bad_host:
        return refuse(bad_host)
    try:
        tables.seated(link)             # a seat's first visit takes it (then the view)
        view = view_for(link)
        view, head = play_click(link, view)
    except AccessDenied as e:
        return refuse(f"This link does not open a seat: {e}")
    except NoSuchGame:
        return refuse("There is no such table on this server (the link may be from another "
                      "server, or mistyped).")
    except ValueError as e:
        return refuse(f"This link is malformed: {e}")
    except StoreError as e:
        return unreadable(e)
    try:
        view = play_forced(link, view)
        table(link, view, head)
        tables.live(link, view.revision)
        if link.host_token:
            host_panel.show(link, st.session_state.get(VIEW_KEY, view))
    except StoreError as e:
        return unreadable(e)
    if st.button("Leave this table", key="tbl_leave", icon=":material/logout:",
                 help="Back to your own games on this page; the table goes on without this "
                      "window (its link opens it again)."):
        tables.leave(told=True)
        st.rerun()


def left_page(link) -> None:
    """After "Leave this table": what happened, the way back (this window's link) and the
    way to a game of one's own."""
    seat = link.seat_token is not None
    st.info("You left the table" + (": the others see that you left, and the AI moves for "
                                     "your seat only if the host hands it over or the move "
                                     "timer runs out." if seat else "."),
            icon=":material/logout:")
    st.markdown("Your link to it (keep it to come back later):")
    st.code(tables.url_of(link), language=None)
    c1, c2, _ = st.columns([1, 1, 2])
    if c1.button("Back to the table", key="tbl_back", type="primary",
                 icon=":material/login:"):
        tables.open_link(link)
        st.rerun()
    if c2.button("New game", key="tbl_left_new", icon=":material/add:",
                 help="Your own games on this screen (the table goes on without you)"):
        st.session_state.pop(tables.LEFT_KEY, None)
        st.rerun()


def view_for(link):
    """The view to draw in this run. The one on screen while it is this seat's turn (so a
    click on it is played over the version it shows, or told that the game moved on: never
    lost), unless a fresh one was asked for; else the store's view now. A seat whose turn
    was on screen when someone else changed the position (its other window, the AI for an
    absent seat, the host) is told so."""
    ss = st.session_state
    drawn = ss.get(VIEW_KEY) if ss.get(VIEW_LINK_KEY) == link.query() else None
    if not ss.pop(FRESH_KEY, False) and drawn is not None and drawn.my_turn:
        return drawn
    own = ss.pop(tables.OWN_KEY, False)
    view = common.game_store().view(link.game_id, link.token)
    if drawn is not None and drawn.my_turn and view.version != drawn.version and not own:
        tables.notice(tables.MOVED_ON)
    ss[VIEW_KEY], ss[VIEW_LINK_KEY] = view, link.query()
    return view


def play_click(link, view):
    """A click on a board of this seat's input (its callback named the board) is read and
    played before anything else is drawn, and the new position is drawn in this same run:
    one page run per click instead of two (one reaching the click after drawing the whole
    page, then one for the new position). The input is drawn to read the click in the
    header's place, hidden, and the header replaces it; a click that is no decision (a
    step of one, a stale value) runs the page again. Returns the view to draw and the
    header's place (None: where it is drawn anyway)."""
    clicked = bc.take_clicked()
    if not (view.my_turn and clicked is not None
            and clicked.startswith((f"mv{view.version}-", f"mv{view.version}_"))):
        return view, None
    head = st.empty()
    with head.container(key="tbl_reading"):
        action = ui_for(view.game).move_input(view.state, view.observation,
                                              key=f"mv{view.version}", hint=hint_action(link, view))
    if action is None:
        st.rerun()
    played = tables.act("play that", common.game_store().apply, link.game_id, link.seat_token,
                        view.version, action)
    bc.forget_drawn()               # the board draws its parts again (the input claimed some)
    st.session_state[FRESH_KEY] = True
    if played is None:              # refused (the notice says why): the input at this
        st.rerun()                  # version is drawn again, by a run of its own
    return view_for(link), head


def play_forced(link, view):
    """This seat's decisions with one legal choice, played by its own page (when its
    player keeps the setting on) as a click on that choice would be, when the others know
    it is forced (else its speed would tell them: it waits for the click). Returns the view
    to draw."""
    ss = st.session_state
    ss.setdefault(FORCED_KEY, ss.get("ng_forced", True))
    for _ in range(50):                 # a chain of forced steps; never an endless loop
        if not (ss[FORCED_KEY] and view.my_turn and len(view.legal) == 1
                and ui_for(view.game).forced_is_public(view.state, view.seat)):
            break
        if tables.act("play that", common.game_store().apply, link.game_id, link.seat_token,
                      view.version, view.legal[0][0]) is None:
            break                       # the notice says why
        ss[FRESH_KEY] = True
        view = view_for(link)
    return view


def rerun_table() -> None:
    """Draw the page again, with the store's view now. (The whole page: the table is not a
    fragment, because a fragment's rerun racing the live poll's left stale widgets on
    screen.)"""
    st.session_state[FRESH_KEY] = True
    st.rerun()


def table(link, view, head=None) -> None:
    """The play page's one table layout: the board on the left and, beside it (under it on
    a phone), the decision panel: the status line, the seat's input, the table's tools and
    the log. ``head``: the place of the header line (see :func:`play_click`)."""
    store = common.game_store()
    ui = ui_for(view.game)
    seat = view.seat if view.role == SEAT else None
    ended = view.status == "ended"
    header(ui, view, head or st)
    note = tables.take_notice(view.version)
    if note:
        st.warning(note, icon=":material/info:")

    board_col, side = st.columns(SIDE, gap="medium")
    with board_col:
        changes_slot = st.container(key="tbl_changes")
        board_slot = st.container(key="tbl_board")
    with side:
        st.html(f"<div class='bl-tstatus' data-version='{view.version}'>{status_text(ui, view)}</div>")
        undo_box(ui, view, link)
        input_slot = st.container(key="play_input")
        with st.container(key="tbl_tools"):
            controls(ui, view, link)
        story = view.story
        st.markdown("**Moves**" + ("" if seat is None else f" (as {ui.seat_name(seat, view.players)} "
                                                            "sees them)"))
        with st.container(height=360, key="play_log", autoscroll=True):
            lines = story.texts() if story is not None else list(view.log)
            st.text("\n".join(lines) if lines else "No moves yet.")

    changes = story.changes() if story is not None and seat is not None and not ended else None
    with changes_slot:
        if changes is not None and changes.strip():     # the trick your card ended counts
            ui.show_changes(changes, key="changes")
    if changes:                 # the board animates what is new once per seat's decision
        bc.set_anim_key(f"{view.game_id}:{seat}:{changes.since}")
    hint = hint_action(link, view)
    if hint is not None:
        ui.show_best_move(view.state, hint, search_line(st.session_state["tbl_hint"][1]))
    refine_bar = None
    with board_slot:
        inner = board_slot
        if view.settings.hints and st.session_state.get("tbl_eval") and view.my_turn:
            bar_col, inner = st.columns([1, 11])
            with bar_col:
                refine_bar = deferred_bar("bl_table_eval", (view.game_id, view.version, view.seat),
                                          view.state, view.seat, lambda: evaluate(view))
        with inner:
            if ended and view.result is not None:
                st.success(ui.result_text(view.state), icon=":material/emoji_events:")
            elif ended:
                st.info("The host ended this table: every hand is shown.", icon=":material/flag:")
            if changes:
                ui.board(view.observation, key="board", viewer=seat, changes=changes)
            else:
                ui.board(view.observation, key="board", viewer=seat)

    with input_slot:
        if view.my_turn:
            action = ui.move_input(view.state, view.observation, key=f"mv{view.version}",
                                   hint=hint)
            if action is not None:
                tables.act("play that", store.apply, link.game_id, link.seat_token,
                           view.version, action)
                rerun_table()
            if hint is not None:
                hint_box(st.session_state["tbl_hint"][1], view.state, ui)
            if store.revision(link.game_id) != view.revision:
                rerun_table()           # the view on screen was old: draw the new one
            if refine_bar is not None:
                refine_bar()            # once the board and the choices are drawn
        elif seat is not None and not ended:
            st.markdown(ui.idle_input(view.observation, seat), unsafe_allow_html=True)


def hint_action(link, view):
    """The hint asked for this seat at this version, or None."""
    hint = st.session_state.get("tbl_hint")
    if view.my_turn and hint and hint[0] == (link.game_id, view.version):
        return hint[1].best_action
    return None


def header(ui, view, where=st) -> None:
    now = time.time()
    chips, here = [], []
    for info in view.seats:
        cls = "bl-seat" + (" bl-me" if view.role == SEAT and info.seat == view.seat else "") \
            + (" bl-turn" if info.seat == view.to_move else "")
        here.append(presence(info, now))
        chips.append(f"<span class='{cls}'>{seat_label(ui, view, info.seat)} · "
                     f"{esc(here[-1])}</span>")
    tables.presence_drawn(view.game_id, tuple(here))
    role = {"seat": f"you play {seat_label(ui, view, view.seat)}" if view.seat is not None else "",
            "host": "you host this table (watching)",
            "spectator": "you are watching"}.get(view.role, "")
    s = view.settings
    rules = ", ".join(x for x in (
        "public" if s.public else "private", "hints on" if s.hints else "no hints",
        "undo by consent" if s.undo == "consent" else "no undo",
        f"{s.move_timer:g} s per move" if s.move_timer else "no move timer") if x)
    where.html(f"<div class='bl-thead' style='font-size:.95rem'><b>{esc(ui.title)}</b>, {view.players} players — "
            f"{role} <span style='color:#777'>({esc(rules)})</span></div>"
            f"<div class='bl-seats'>{''.join(chips)}</div>")


def status_text(ui, view) -> str:
    p = view.to_move
    if view.status == "ended":
        return ""
    label = seat_label(ui, view, p) if p >= 0 else ""
    left = ""
    if view.turn_deadline is not None:
        secs = max(0, int(view.turn_deadline - time.time()))
        left = f" — the AI moves for them in about {secs} s" if secs else \
            " — time is up: the AI moves for them"
    if view.my_turn:
        if view.turn_deadline is not None:
            left = left.replace("them", "you")
        return f"<b>Your turn</b> — you play {label}{left}"
    if view.ai_to_move:
        return f"<b>{label}</b> is thinking (AI)…"
    return f"Waiting for <b>{label}</b>{left}"


def undo_box(ui, view, link) -> None:
    req = view.undo
    if req is None:
        return
    who = seat_label(ui, view, req.seat)
    waiting = ", ".join(seat_label(ui, view, s) for s in req.waiting)
    if view.role == SEAT and view.seat == req.seat:
        st.html(f"<div class='bl-undo-note'>You asked to take back your last move: waiting for "
                f"{waiting}.</div>")
    elif view.role == SEAT and view.seat in req.waiting:
        with st.container(border=True, key="tbl_undo_ask"):
            st.html(f"<b>{who}</b> asks to take back their last move (and everything after it).")
            c1, c2, _ = st.columns([1, 1, 2])
            store = common.game_store()
            if c1.button("Agree", key=f"tbl_undo_yes_{req.version}", type="primary"):
                tables.act("agree", store.answer_undo, link.game_id, link.seat_token, True)
                rerun_table()
            if c2.button("Refuse", key=f"tbl_undo_no_{req.version}"):
                tables.act("refuse", store.answer_undo, link.game_id, link.seat_token, False)
                rerun_table()
    else:
        st.html(f"<div class='bl-undo-note'>{who} asks to take back their last move: waiting "
                f"for {waiting}.</div>")


def controls(ui, view, link) -> None:
    store = common.game_store()
    if view.role == SEAT and view.status != "ended":
        off = view.settings.undo == "off"
        if st.button("Ask to undo" if not off else "Undo is off", key="tbl_undo",
                     icon=":material/undo:", disabled=not view.can_undo, width="stretch",
                     help="Take back your last move: the other players at the table must "
                          "agree" if not off else "The host turned undo off at this table"):
            done = tables.act("undo", store.request_undo, link.game_id, link.seat_token,
                              view.version)
            if done:
                tables.notice("Your last move was taken back.")
            rerun_table()
        st.toggle(FORCED_LABEL, key=FORCED_KEY, help=FORCED_HELP)
        if view.settings.hints:
            st.toggle("Evaluation bar (your win %, from what you know)", key="tbl_eval")
            # no tooltip once the hint is shown: left open by the click, it stays over the board
            shown = hint_action(link, view) is not None
            if view.my_turn and st.button("Hint", icon=":material/lightbulb:", key="tbl_hint_btn",
                                          width="stretch",
                                          help=None if shown else
                                          "What the AI would play in your place, searching "
                                          "only from what you know"):
                st.session_state["tbl_hint"] = ((link.game_id, view.version), hint_search(view))
                rerun_table()           # the input and the board mark the hinted move
    if view.status == "ended" and view.record is not None:
        import json
        if st.button("Review this game", key="tbl_review", icon=":material/query_stats:",
                     width="stretch", help="The win-% graph and every move's loss on the "
                     "Analyse page; the review is kept with the game for every seat"):
            st.session_state["an_source"] = tables.TABLE_GAME
            st.switch_page(str(APP_DIR / "views" / "analyse.py"))
        st.download_button("Download the record", data=json.dumps(view.record, indent=1),
                           file_name=f"{view.game}-{view.game_id}.json", mime="application/json",
                           icon=":material/download:", key="tbl_download", on_click="ignore",
                           width="stretch")


def _seed(view, salt: int) -> int:
    return mix(zlib.crc32(view.game_id.encode()), view.version, view.seat or 0, salt)


def hint_search(view):
    """The AI's choice for this seat, searched from the seat's own knowledge at the analysis
    budget (not at the AI seats' strength)."""
    return run_search(view.state, analysis_budget(), _seed(view, 0x4E1), player=view.seat)


def evaluate(view) -> dict:
    """The evaluation bar's search for this seat on its turn."""
    from ..review import evaluation
    return evaluation(run_search(view.state, analysis_budget(), _seed(view, 13), player=view.seat))
