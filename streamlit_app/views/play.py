"""Play page: a new game (seats, AI strength, seed), the board, moves, AI replies, hints,
undo, save/load and the game-over screen.

One table layout for every game: a bar of controls on top (How to play, New game, Load, the
view toggles), then the board on the left and, beside it on a desktop (under it on a phone),
the decision panel: the status line, the game's decision input, the Hint, Undo/Save and the
log. The prompt and its choices are in the first screen without scrolling.

The table is a fragment (``st.fragment``): a click reruns only the table, and the AI seats'
replies are played inside that same run, one search after another, so a decision costs
one partial run instead of a full page run per AI move. While the AI plays, the input area
shows the hand inert (nothing to click) and a fixed-height slot says who is thinking; the
board is repainted between AI moves only when they are slow enough to watch (and then first
with your move on it)."""
import random
import time

import streamlit as st

import boardlab
from boardlab.streamlit_app import board_component as bc
from boardlab.streamlit_app import common
from boardlab.streamlit_app.friends import form as friends_form, page as table_page, tables
from boardlab.streamlit_app.friends.page import FORCED_HELP, FORCED_LABEL
from boardlab.streamlit_app.eval_bar import beside_board, hint_box
from boardlab.streamlit_app.games import ui_for
from boardlab.streamlit_app.games.base import search_line
from boardlab.streamlit_app.review import load_review
from boardlab.streamlit_app.session import (AI, AI_PRESETS, ANALYSIS_CHOICES, DEFAULT_PRESET,
                                            HUMAN, PlaySession, closest_preset,
                                            configuration_words, presets_for,
                                            session_from_record)

ss = st.session_state
REPAINT_EVERY = 0.4      # seconds of slow AI moves between two paintings of the table
SLOW_ITERATIONS = 5000   # AI budgets above this show "thinking" with a progress bar
STATUS_HEIGHT = 48      # pixels: the status line, or the AI's progress bar in its place
SIDE = [2.6, 1]         # board : decision panel (the panel is about 360-420 px on a desktop)

CSS = """<style>
/* the table starts high: the page title is the navigation's */
[data-testid="stMainBlockContainer"] { padding-top: 3.6rem; }
/* room below the table: when the input area gets shorter (your cards give way to the
   waiting line) the page does not shrink under a scrolled-down window, so nothing jumps */
[data-testid="stMainBlockContainer"] { padding-bottom: 30vh; }
/* a button's help (a decision's tooltip) on a phone too: below 576 px Streamlit draws each
   button with help twice and shows the copy without its tooltip */
@media (max-width: 576px) {
  [data-testid="stButton"] > div:has(> [data-testid="stTooltipIcon"]) { display: block !important; }
  [data-testid="stButton"]:has([data-testid="stTooltipIcon"]) > div:not(:has([data-testid="stTooltipIcon"])) {
    display: none !important; }
}
@media (max-width: 640px) {
  [data-testid="stMainBlockContainer"] { padding-left: .6rem; padding-right: .6rem; }
  /* a phone's first screen is the table's: the header's band is see-through (its menu
     button stays, the caption starts beside it) and the bar of controls is one row that
     scrolls sideways */
  [data-testid="stMainBlockContainer"] { padding-top: .55rem; }
  [data-testid="stHeader"] { background: transparent; pointer-events: none; }
  [data-testid="stHeader"] button { pointer-events: auto; }
  [data-testid="stExpandSidebarButton"] { background: rgba(255, 255, 255, .85); border-radius: 50%; }
  .st-key-play_caption, .bl-thead { padding-left: 2.9rem; min-height: 2.2rem; }
  .st-key-play_bar { flex-wrap: nowrap !important; overflow-x: auto; scrollbar-width: none; }
  .st-key-play_bar > * { flex: 0 0 auto !important; width: auto !important; }
  [data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] { gap: .7rem; }
  /* the island's line under it ("Click a lit place…", or the place under a finger) lies
     on its sea, not under it */
  [class*="-island"] .blb { position: relative; }
  [class*="-island"] .blb-note { position: absolute; left: 0; right: 0; bottom: 0; margin: 0;
    padding: 1px 8px; background: rgba(255, 255, 255, .82); font-size: .82rem; }
  /* the status line, and the prompt right under it (the slot between them is empty but
     on an AI's turn) */
  [data-testid="stLayoutWrapper"]:has(> .st-key-play_status), .st-key-play_status {
    height: 2.2rem !important; flex-basis: 2.2rem !important; min-height: 0 !important; }
  [data-testid="stLayoutWrapper"]:has(> .st-key-play_status) + [data-testid="stElementContainer"]:has([data-testid="stMarkdownContainer"]:empty) {
    display: none; }
  /* the decision's choices in compact rows; long ones two to a row, read in full (they wrap) */
  .st-key-play_input [data-testid="stVerticalBlock"] { gap: .45rem; }
  .st-key-play_input [data-testid="stButton"] button { min-height: 2.15rem; padding: .15rem .5rem; }
  .st-key-play_input [data-testid="stButton"] button p { font-size: .88rem; line-height: 1.2; }
  .st-key-play_input [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"]:only-child)
    > [data-testid="stColumn"] > [data-testid="stVerticalBlock"] {
    display: grid; grid-template-columns: 1fr 1fr; gap: .4rem; }
  .st-key-play_input [role="radiogroup"] { gap: .15rem .9rem; }
  .st-key-play_input [role="radiogroup"] label p { font-size: .9rem; }
  /* a phone: the bar's menus show their icons only (the name stays for screen readers) */
  .st-key-play_bar [data-testid="stPopoverButton"] [data-testid="stMarkdownContainer"] {
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  .st-key-play_bar [data-testid="stPopoverButton"] { padding-left: .6rem; padding-right: .4rem; }
  .st-key-play_caption p { font-size: .72rem; line-height: 1.25; }
  /* the decision panel's buttons stay side by side (Streamlit stacks a phone's columns):
     the choices follow the board instead of a screen below it */
  .st-key-play_input [data-testid="stHorizontalBlock"] { flex-wrap: nowrap !important; gap: .5rem; }
  .st-key-play_input [data-testid="stColumn"] { min-width: 0 !important; width: auto !important;
    flex: 1 1 0 !important; }
  /* the board's first element (the table), then the decision panel, then the rest of the
     board (the players' panels): the wrappers in between are flattened, so that the parts
     and the panel's column are items of one column that ``order`` arranges */
  [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] .st-key-play_parts) {
    flex-direction: column; flex-wrap: nowrap; gap: 1rem; }
  [data-testid="stColumn"]:has(.st-key-play_parts),
  [data-testid="stColumn"]:has(.st-key-play_parts) > [data-testid="stVerticalBlock"],
  [data-testid="stLayoutWrapper"]:has(> .st-key-play_board), .st-key-play_board,
  .st-key-play_board > [data-testid="stLayoutWrapper"]:has(> .st-key-play_parts),
  .st-key-play_parts { display: contents; }
  .st-key-play_parts > * ~ * { order: 2; }
  [data-testid="stColumn"]:has(.st-key-play_input) { order: 1; }
  /* a table of friends the same way (its board's parts are the children of tbl_board) */
  [data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] .st-key-tbl_board) {
    flex-direction: column; flex-wrap: nowrap; gap: .7rem; }
  [data-testid="stColumn"]:has(.st-key-tbl_board),
  [data-testid="stColumn"]:has(.st-key-tbl_board) > [data-testid="stVerticalBlock"],
  [data-testid="stLayoutWrapper"]:has(> .st-key-tbl_board), .st-key-tbl_board { display: contents; }
  .st-key-tbl_board > * ~ * { order: 2; }
}
/* every choice reads in full: a decision button's label wraps between words, on as many lines
   as it needs (Streamlit cuts a label to one line, "Take …") */
.st-key-play_input [data-testid="stButton"] [data-testid="stMarkdownContainer"] {
  white-space: normal; overflow: visible; text-overflow: clip; }
.st-key-play_input [data-testid="stButton"] button p { white-space: normal; overflow-wrap: normal;
  word-break: normal; hyphens: none; }
/* "since your last move": one line that opens, over the board, into the whole list */
.st-key-play_changes, .st-key-tbl_changes { min-height: 2.1rem; }
/* nothing new (a second step of your own decision): the strip's room stays, the board too */
.bl-ch-none { visibility: hidden; padding: 4px 10px; border-left: 4px solid transparent; }
.bl-changes { position: relative; font-size: .9rem; }
.bl-changes > summary { display: flex; gap: .4rem; align-items: baseline; cursor: pointer;
  list-style: none; background: #fff4d6; border-left: 4px solid #e3a81b; border-radius: 4px;
  padding: 4px 10px; white-space: nowrap; }
.bl-changes > summary::-webkit-details-marker { display: none; }
.bl-ch-text { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
.bl-ch-more { color: #8a6212; font-weight: 600; }
.bl-ch-list { position: absolute; z-index: 30; left: 0; right: 0; top: 100%; margin: 2px 0 0;
  padding: 6px 10px 6px 2.2rem; max-height: 60vh; overflow: auto; background: #fffaf0;
  border: 1px solid #e3a81b; border-radius: 4px; box-shadow: 0 6px 18px rgba(0,0,0,.18); }
.bl-ch-list li { margin: 0; }
.bl-status { font-size: 1rem; padding: 2px 0; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }
.bl-peeked { font-size: .85rem; color: #8a1c1c; }
</style>"""

st.markdown(CSS, unsafe_allow_html=True)
if tables.current() is not None:        # a shared table's link: that table, live
    table_page.show()
    st.stop()

# A new game shows its table from the top (its form's button may have been far down).
_TOP_JS = """
export default function ({ data }) {
  if (window.__blTableOf === data) return;
  window.__blTableOf = data;
  const main = document.querySelector('[data-testid="stMain"]');
  if (main) main.scrollTo(0, 0);
  window.scrollTo(0, 0);
}
"""


@st.cache_resource(show_spinner=False)
def _to_top():
    return st.components.v2.component("boardlab_table_top", js=_TOP_JS)


# --- new game / load, asking first when a game is in progress -------------------------------
def open_game(sess: PlaySession) -> None:
    """Switch to ``sess`` now, or ask first if the current game is still going."""
    if common.game_in_progress():
        ss["ng_pending"] = sess
    else:
        common.set_play_session(sess)
        ss.pop("ng_seed_default", None)
    st.rerun()


def confirm_box() -> None:
    pending = ss.get("ng_pending")
    if pending is None:
        return
    with st.container(border=True, key="ng_confirm"):
        st.warning("**A game is in progress.** Leave it for the new one? It stays saved on "
                   "this server: its link (the address of this page now) opens it again.",
                   icon=":material/help:")
        c1, c2, _ = st.columns([1.3, 1, 2])
        if c1.button(f"Yes, start the new {ui_for(pending.game.name).title} game",
                     type="primary", key="ng_confirm_yes"):
            ss.pop("ng_pending", None)
            common.set_play_session(pending)
            ss.pop("ng_seed_default", None)
            st.rerun()
        if c2.button("No, keep playing", key="ng_confirm_no"):
            ss.pop("ng_pending", None)
            st.rerun()


def _remember_level() -> None:
    ss["ng_preset_wish"] = ss["ng_preset"]


def level_choice(game, title: str) -> str:
    """The AI strength for ``game``. A level it does not offer (Master where no network
    ships for its configuration) is named with the reason; a level chosen earlier that this
    game does not offer is kept as the player's wish (it comes back with a game that offers
    it) and the level played instead is said, never changed silently."""
    presets = presets_for(game)
    wish = ss.get("ng_preset_wish", DEFAULT_PRESET)
    shown = closest_preset(game, wish)
    if ss.get("ng_preset") != shown:
        ss["ng_preset"] = shown
    preset = st.radio("AI strength", presets, horizontal=True, key="ng_preset",
                      captions=[AI_PRESETS[p][1] for p in presets], on_change=_remember_level)
    missing = [p for p in AI_PRESETS if p not in presets]
    if missing:
        why = (f"**{' and '.join(missing)}** need{'s' if len(missing) == 1 else ''} a "
               "learned network; none ships yet for "
               f"{title} with {configuration_words(game)}")
        if wish in missing:
            st.info(f"{why}. The AI seats will play at **{preset}**, the strongest here; "
                    f"{wish} comes back when you choose a game that has a network.",
                    icon=":material/info:")
        else:
            st.caption(f"{why} — the strongest here is **{presets[-1]}**.")
    return preset


def new_game_form() -> None:
    """The new-game form (game, parameters, seats, AI strength, seed)."""
    names = boardlab.games_available()
    name = st.selectbox("Game", names, key="ng_game", format_func=lambda n: ui_for(n).title)
    ui = ui_for(name)
    params = ui.param_inputs(key="ng")
    try:
        game = common.get_game(name, params)
    except ValueError as e:
        st.error(str(e))
        return
    n = game.num_players
    st.markdown("**Seats** — who plays each seat")
    cols = st.columns(n)
    seats = []
    for s in range(n):
        kind = cols[s].selectbox(ui.seat_name(s, n), ["Human", "AI"], index=0 if s == 0 else 1,
                                 key=f"ng_seat_{s}")
        seats.append(HUMAN if kind == "Human" else AI)
    preset = level_choice(game, ui.title)
    ss.setdefault("ng_seed_default", random.randrange(1, 100000))
    seed = st.number_input("Seed (same seed, same deals)", min_value=0, max_value=2**31 - 1,
                           value=ss["ng_seed_default"], step=1, key="ng_seed")
    forced = st.toggle(FORCED_LABEL, value=True, key="ng_forced", help=FORCED_HELP)
    friends = friends_form.options(ui, game, seats)      # None: on this screen
    if st.button("Create the table" if friends else "Start new game", type="primary",
                 key="ng_start"):
        # at a table, each seat's own page plays its forced moves (table_page.play_forced)
        sess = PlaySession(game=game, seats=seats, preset=preset, seed=int(seed),
                           auto_forced=forced and not friends)
        friends_form.start(sess, friends) if friends else open_game(sess)


def load_form() -> None:
    """A saved record to go on with."""
    up = st.file_uploader("Game record (JSON, as saved by this app or `to_record()`)",
                          type=["json"], key="ng_upload")
    if up is not None:
        ident = (up.name, up.size, getattr(up, "file_id", None))
        if ss.get("ng_loaded") != ident:
            try:
                sess = session_from_record(up.getvalue())
            except (boardlab.RecordError, ValueError, UnicodeDecodeError) as e:
                st.error(f"Could not load {up.name}: {e}")
            else:
                ss["ng_loaded"] = ident
                st.toast(f"Loaded {up.name}" + (" with its review (on the Analyse page)"
                                                 if sess.review is not None else "") + ".",
                         icon=":material/upload_file:")
                if sess.notes:          # said on the next run (the game opens on it)
                    ss[common.NOTICE_KEY] = " ".join(sess.notes)
                open_game(sess)
        else:
            st.success(f"Loaded {up.name}.")


# --- the table (a fragment) ------------------------------------------------------------------
def status_line(slot, text: str) -> None:
    slot.markdown(f"<div class='bl-status'>{text}</div>", unsafe_allow_html=True)


def human_input(sess, ui, status, iterations: int):
    """The decision of the human seat to move, with the Hint row; returns the chosen action.
    The hint searches at the analysis budget (``iterations``), not at the AI's strength."""
    state, p = sess.state, sess.to_move
    ply = sess.ply
    obs = state.observation(p)
    hint = sess.hint.best_action if sess.hint is not None and sess.hint_ply == ply else None
    action = ui.move_input(state, obs, key=f"mv{ply}", hint=hint)
    # no tooltip once the hint is shown: one left open by the click would stay over the board
    if st.button("Hint", icon=":material/lightbulb:", key=f"hint_{ply}",
                 help=None if hint is not None else
                 f"What a search of {iterations:,} iterations from your seat would play "
                 "(its own budget, whatever the AI seats' strength)"):
        bar = status.progress(0.0, text="Thinking about a hint…")   # the slot stays an element
        sess.compute_hint(lambda frac, text: bar.progress(min(max(frac, 0.0), 1.0),
                                                          text=f"Thinking about a hint: {text}"),
                          iterations)
        common.remember_search(sess.hint, f"Hint for P{p} at move {ply}", state)
        rerun_table()                   # the input and the board mark the hinted move
    if hint is not None:
        hint_box(sess.hint, state, ui)
    return action


NO_CHANGES = ("<div class='bl-changes bl-ch-none' aria-hidden='true'><b>Since your last move:"
              "</b></div>")
HIDE_INPUT = "<style>div.st-key-play_input { display: none !important; }</style>"


def idle(sess, ui, idle_slot) -> None:
    """Your input area while the AI plays: the decision's widgets are hidden at once (a
    style in the idle slot; replacing them would leave them on screen until the run ends)
    and the game's inert drawing shows in their place. The slot is always one element and
    the input always a container: Streamlit's page breaks if a place changes kind."""
    viewer = sess.viewer()
    obs = sess.state.observation(viewer) if viewer is not None else None
    idle_slot.markdown(HIDE_INPUT + ui.idle_input(obs, viewer), unsafe_allow_html=True)


def ai_is_slow(sess) -> bool:
    budget = sess.ai_budget
    return sess.finishing or "seconds" in budget or budget.get("iterations", 0) > SLOW_ITERATIONS


def play_ai_moves(sess, ui, status) -> None:
    """Play the AI seats until a human decides or the game ends. Fast AI moves are played
    without painting anything; slow ones say who thinks (with progress) in the status slot
    and stop after REPAINT_EVERY seconds, for the rerun that follows to show the board."""
    slow = ai_is_slow(sess)
    n = sess.game.num_players
    started = time.perf_counter()
    lock = common.game_lock()
    while sess.is_ai_turn():
        p = sess.to_move
        progress = None
        if slow:
            label = (f"{ui.seat_name(p, n)} is thinking… (AI, {sess.preset}"
                     + (", finishing the game)" if sess.finishing else ")"))
            bar = status.progress(0.0, text=label)

            def progress(frac, text, bar=bar, label=label):
                bar.progress(min(max(frac, 0.0), 1.0), text=f"{label} {text}")
        with lock:
            if not sess.is_ai_turn():            # another tab of this game moved meanwhile
                break
            sess.play_ai(progress)
        if slow and time.perf_counter() - started > REPAINT_EVERY:
            break
    common.save_game()


def rerun_table() -> None:
    """Draw the table again: a rerun of this fragment only, or of the page when the
    fragment runs as part of a page run (where Streamlit refuses a fragment rerun)."""
    from streamlit.errors import StreamlitAPIException
    try:
        st.rerun(scope="fragment")
    except StreamlitAPIException:
        st.rerun()


def undo() -> None:
    sess = common.play_session()
    with common.game_lock():
        sess.undo()
    common.save_game()


def let_ai_finish() -> None:
    common.play_session().finish_by_ai()
    common.save_game()


def kept_review(sess):
    """The review kept in the store with the current (finished) game, or None."""
    try:
        return load_review(common.game_store(), common.game_id(), sess.state)
    except Exception:   # noqa: BLE001 - the store unreadable: the record goes without it
        return None


def controls(sess) -> None:
    state = sess.state
    c1, c2 = st.columns(2)
    c1.button("Undo", key="play_undo", icon=":material/undo:", disabled=not sess.can_undo(),
              help="Take back to your previous decision", width="stretch", on_click=undo)
    ident = (common.game_id(), sess.ply)
    if ss.get("play_save_ready") == ident:
        if sess.review is None and state.is_terminal():     # reviewed in an earlier visit
            sess.review = kept_review(sess)
        c2.download_button("Download", icon=":material/download:", data=sess.record_json(),
                           file_name=f"{sess.game.name}-{sess.seed}.json",
                           mime="application/json", key="play_download", on_click="ignore",
                           help="The game record (JSON) as it is now", width="stretch",
                           type="primary")
    else:
        c2.button("Save", icon=":material/save:", key="play_save", width="stretch",
                  help="Prepare the game record (JSON) for download",
                  on_click=lambda: ss.__setitem__("play_save_ready", ident))
    if sess.humans and not state.is_terminal() and not sess.finishing:
        st.button("Let the AI finish the game", key="play_ai_finish",
                  icon=":material/fast_forward:", width="stretch", on_click=let_ai_finish,
                  help="The AI plays every seat to the end (your view stays on screen; "
                       "Undo takes you back to your last decision with your seats).")


@st.fragment
def table(show_all: bool, eval_on: bool = False, iterations: int = ANALYSIS_CHOICES[0]) -> None:
    """The game as it is now, then what happens next: a click on your decision is played,
    or the AI seats move; either way the fragment then reruns to show the new position.
    Everything is painted first, so nothing blinks while the AI thinks."""
    sess = common.play_session()
    if sess is None:
        return
    ui = ui_for(sess.game.name)
    if header_note(sess, ui) != ss.get(HEADER_NOTE):
        st.rerun()                      # the header (outside this fragment) says it: redraw it
    n = sess.game.num_players
    state = sess.state
    p = state.current_player
    gated = (sess.is_human_turn() and len(sess.humans) > 1 and sess.revealed != p
             and not show_all)
    viewer = None if gated else sess.viewer()

    board_col, side = st.columns(SIDE, gap="medium")
    with board_col:
        changes_slot = st.container(key="play_changes")
        board_slot = st.container(key="play_board")
    with side:
        # fixed heights: what the status says changes, the input below never moves
        # (a place keeps its kind: status and idle_slot hold one element, the others are
        # containers; the page breaks when a place turns from one into the other)
        status = st.container(key="play_status", height=STATUS_HEIGHT, border=False).empty()
        idle_slot = st.empty()
        idle_slot.markdown("")
        input_slot = st.container(key="play_input")
        with st.container(key="play_tools"):
            controls(sess)
        st.markdown("**Moves**" + ("" if viewer is None else f" (as P{viewer} sees them)"))
        with st.container(height=360, key="play_log", autoscroll=True):
            log = common.move_log(state, viewer, sess.cache)
            st.text("\n".join(log) if log else "No moves yet.")

    if state.is_terminal():
        status_line(status, "<b>Game over</b>")
    elif gated:
        status_line(status, f"<b>{ui.seat_name(p, n)}</b> to move.")
    elif sess.is_human_turn():
        status_line(status, f"<b>Your turn</b> — you play {tables.seat_html(ui, p, n)}")
    else:
        status_line(status, f"{ui.seat_name(p, n)} to move (AI)…")
    changes = (common.changes_since(sess, viewer) if viewer is not None
               and not state.is_terminal() else None)
    with changes_slot:
        # a strip with something in it: the trick your own card ended counts, a deal no
        # line names (chance only) does not
        if changes is not None and changes.strip():
            ui.show_changes(changes, key="changes")
        else:                   # an empty container takes no room: the board would jump up
            st.markdown(NO_CHANGES, unsafe_allow_html=True)
    if changes:                 # the board animates what is new once per viewer's decision
        bc.set_anim_key(f"{common.game_id()}:{viewer}:{changes.since}")
    hint = (sess.hint.best_action if sess.hint is not None and sess.hint_ply == sess.ply
            and sess.is_human_turn() and not gated else None)
    if hint is not None:        # rung on the board (an arrow for a move between two places)
        ui.show_best_move(state, hint, search_line(sess.hint))
    with board_slot:
        board_col, refine_bar = beside_board(sess, eval_on and not gated, iterations)
    with board_slot, board_col:
        if state.is_terminal():
            st.success(ui.result_text(state), icon=":material/emoji_events:")
            if sess.peeked_at_ply is not None:
                st.warning(peeked_text(sess.peeked_at_ply), icon=":material/visibility:")
        common.draw_board(state, viewer, show_all, key="board", changes=changes)

    if state.is_terminal():
        with input_slot:
            if st.button("Play again with the same seats", key="play_again", type="primary"):
                common.set_play_session(PlaySession(game=sess.game, seats=list(sess.seats),
                                                    preset=sess.preset,
                                                    seed=random.randrange(1, 100000),
                                                    auto_forced=sess.auto_forced))
                st.rerun()
    elif gated:
        with input_slot:
            st.warning(f"**{ui.seat_name(p, n)}** to move. Pass the device: the other players "
                       "should look away.")
            st.button(f"I am P{p} — show my hand", key=f"reveal_{p}_{sess.ply}", type="primary",
                      on_click=lambda: setattr(sess, "revealed", p))
    elif sess.is_human_turn():
        sess.revealed = p
        ply = sess.ply
        with input_slot:
            action = human_input(sess, ui, status, iterations)
        if action is not None:
            with common.game_lock():
                if sess.ply == ply and sess.is_human_turn():   # not already played in another tab
                    sess.apply_human(action)
            common.save_game()
            if sess.is_ai_turn() and not ai_is_slow(sess):
                idle(sess, ui, idle_slot)       # fast replies: shown with your move at once
                play_ai_moves(sess, ui, status)
            rerun_table()                       # slow ones: after a run that shows your move
        else:
            refine_bar()                        # once the board and your choices are drawn
    else:                                   # the AI seats to move: new game, AI finishing, reload
        idle(sess, ui, idle_slot)
        play_ai_moves(sess, ui, status)
        rerun_table()


def peeked_text(ply: int) -> str:
    return (f"**All hands were shown** while this game was being played (from action {ply} "
            "on): it is marked as peeked at, in its record too.")


HEADER_NOTE = "play_header_note"


def header_note(sess, ui) -> str:
    """The game's line for the header (a solo mode and its progress), from the viewer's
    observation."""
    viewer = sess.viewer()
    return ui.header_note(sess.state.observation(0 if viewer is None else viewer))


def top_bar(sess, ui):
    """One row over the table: the game line, How to play, New game, Load, the view toggles
    and the analysis budget. Returns (show_all, eval_on, iterations)."""
    n = sess.game.num_players
    who = ", ".join(f"{ui.seat_name(s, n)}: {'you' if k == HUMAN else 'AI'}"
                    for s, k in enumerate(sess.seats))
    note = ss[HEADER_NOTE] = header_note(sess, ui)
    st.container(key="play_caption").caption(
        f"{ui.title}, {n} player{'' if n == 1 else 's'}, seed {sess.seed} — {who} — AI strength **{sess.preset}** "
        f"({AI_PRESETS[sess.preset][1]})" + (f"  \n{note}" if note else ""))
    with st.container(horizontal=True, vertical_alignment="center", key="play_bar", gap="small"):
        with st.popover("How to play", icon=":material/help:", key="play_howto"):
            st.markdown(ui.how_to_play(sess.game.params))
        with st.popover("New game", icon=":material/add_circle:", key="play_new"):
            new_game_form()
        with st.popover("Load", icon=":material/upload_file:", key="play_load"):
            st.caption("This game is kept on this server under its link (the address with "
                       "?game=…): a reload or a new tab with that link goes on with it. A "
                       "record saved with **Save** goes on from here.")
            load_form()
        show_all = st.toggle("Show all hands", key="play_show_all",
                             help="Analysis: shows every seat's hidden cards. In a game still "
                                  "being played this marks the game as peeked at (in its "
                                  "record, its result and its review).")
        eval_on = st.toggle("Evaluation bar", key="play_eval",
                            help="Your win % on your turns, searched from your seat (where a "
                                 "learned network ships, its reading shows first).")
        with st.popover("Analysis", icon=":material/tune:", key="play_analysis_box"):
            iterations = st.radio(
                "Hint and evaluation bar: search budget", ANALYSIS_CHOICES, key="play_analysis",
                format_func=lambda k: f"{k:,} iterations", horizontal=True,
                help="A search of its own, whatever the AI seats' strength: more iterations, "
                     "a smaller ± (and a longer wait).")
        if sess.peeked_at_ply is not None:
            st.markdown(f"<span class='bl-peeked' title='All hands were shown from action "
                        f"{sess.peeked_at_ply} on'>● peeked at</span>", unsafe_allow_html=True)
    return show_all, eval_on, iterations


notice = ss.pop(common.NOTICE_KEY, None)
if notice:
    st.warning(notice)
sess = common.play_session()
confirm_box()
if sess is None:
    st.title("Play")
    with st.container(border=True, key="play_new_inline"):
        st.markdown("#### New game")
        new_game_form()
    with st.expander("Load a saved game"):
        load_form()
    st.info("Choose the seats and the AI strength above, then **Start new game**.")
    st.stop()

st.html("<style>.st-key-play_top { display: none; }</style>")
_to_top()(data=str(common.game_id()), key="play_top")
show_all, eval_on, iterations = top_bar(sess, ui_for(sess.game.name))
if show_all and sess.peeked_at_ply is None and sess.peek():
    common.save_game()                  # the record says so from now on
table(show_all, eval_on, iterations)
