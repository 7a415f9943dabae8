"""Play page: a new game (seats, AI strength, seed), the board, moves, AI replies, hints,
undo, save/load and the game-over screen.

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
from boardlab.streamlit_app import common, friends_form, table_page, tables
from boardlab.streamlit_app.eval_bar import beside_board
from boardlab.streamlit_app.games import ui_for
from boardlab.streamlit_app.session import (AI, AI_PRESETS, DEFAULT_PRESET, HUMAN, PlaySession,
                                            run_search, search_rows, session_from_record)

ss = st.session_state
REPAINT_EVERY = 0.4      # seconds of slow AI moves between two paintings of the table
SLOW_ITERATIONS = 5000   # AI budgets above this show "thinking" with a progress bar
STATUS_HEIGHT, CHANGES_HEIGHT = 56, 40   # pixels

CSS = """<style>
/* room below the table: when the input area gets shorter (your cards give way to the
   waiting line) the page does not shrink under a scrolled-down window, so nothing jumps */
[data-testid="stMainBlockContainer"] { padding-bottom: 30vh; }
.bl-changes { background: #fff4d6; border-left: 4px solid #e3a81b; border-radius: 4px;
  padding: 4px 10px; font-size: .9rem; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }
.bl-status { font-size: 1rem; padding: 2px 0; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }
</style>"""

st.title("Play")
if tables.current() is not None:        # a shared table's link: that table, live
    table_page.show()
    st.stop()
st.markdown(CSS, unsafe_allow_html=True)


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


def new_game_form(expanded: bool) -> None:
    with st.expander("New game", expanded=expanded):
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
        presets = list(AI_PRESETS)
        preset = st.radio("AI strength", presets, index=presets.index(DEFAULT_PRESET),
                          horizontal=True, key="ng_preset",
                          captions=[AI_PRESETS[p][1] for p in presets])
        ss.setdefault("ng_seed_default", random.randrange(1, 100000))
        seed = st.number_input("Seed (same seed, same deals)", min_value=0, max_value=2**31 - 1,
                               value=ss["ng_seed_default"], step=1, key="ng_seed")
        friends = friends_form.options(ui, game, seats)      # None: on this screen
        if st.button("Create the table" if friends else "Start new game", type="primary",
                     key="ng_start"):
            sess = PlaySession(game=game, seats=seats, preset=preset, seed=int(seed))
            friends_form.start(sess, friends) if friends else open_game(sess)
    with st.expander("Load a saved game"):
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
                    open_game(sess)
            else:
                st.success(f"Loaded {up.name}.")


# --- the table (a fragment) ------------------------------------------------------------------
def status_line(slot, text: str) -> None:
    slot.markdown(f"<div class='bl-status'>{text}</div>", unsafe_allow_html=True)


def human_input(sess, ui, status):
    """The decision of the human seat to move, with the Hint row; returns the chosen action."""
    state, p = sess.state, sess.to_move
    ply = sess.ply
    obs = state.observation(p)
    hint = sess.hint.best_action if sess.hint is not None and sess.hint_ply == ply else None
    action = ui.move_input(state, obs, key=f"mv{ply}", hint=hint)
    hc1, hc2 = st.columns([1, 3])
    if hc1.button("Hint", icon=":material/lightbulb:", key=f"hint_{ply}",
                  help=f"What the AI would play here ({AI_PRESETS[sess.preset][1]})"):
        bar = status.progress(0.0, text="Thinking about a hint…")   # the slot stays an element
        result = run_search(state, sess.ai_budget, sess.ai_seed() ^ 0x4E1,
                            lambda frac, text: bar.progress(min(max(frac, 0.0), 1.0),
                                                            text=f"Thinking about a hint: {text}"))
        sess.hint, sess.hint_ply = result, ply
        common.remember_search(result, f"Hint for P{p} at move {ply}", state)
        rerun_table()                   # the input above marks the hinted move
    if sess.hint is not None and sess.hint_ply == ply:
        rows = search_rows(sess.hint)[:3]
        hc2.markdown(f"**The AI would play `{sess.hint.best_move}`.** Top three:")
        hc2.dataframe(rows, hide_index=True, key=None)
    return action


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


def controls(sess) -> None:
    state = sess.state
    c1, c2 = st.columns(2)
    c1.button("Undo", key="play_undo", icon=":material/undo:", disabled=not sess.can_undo(),
              help="Take back to your previous decision", width="stretch", on_click=undo)
    ident = (common.game_id(), sess.ply)
    if ss.get("play_save_ready") == ident:
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
def table(show_all: bool, eval_on: bool = False) -> None:
    """The game as it is now, then what happens next: a click on your decision is played,
    or the AI seats move; either way the fragment then reruns to show the new position.
    Everything is painted first, so nothing blinks while the AI thinks."""
    sess = common.play_session()
    if sess is None:
        return
    ui = ui_for(sess.game.name)
    n = sess.game.num_players
    state = sess.state
    p = state.current_player
    gated = (sess.is_human_turn() and len(sess.humans) > 1 and sess.revealed != p
             and not show_all)
    viewer = None if gated else sess.viewer()

    left, right = st.columns([3, 1.15])
    with left:
        # fixed heights: what these say changes, the board below them never moves
        # (a place keeps its kind: status and idle_slot hold one element, the others are
        # containers; the page breaks when a place turns from one into the other)
        status = st.container(key="play_status", height=STATUS_HEIGHT, border=False).empty()
        changes_slot = st.container(key="play_changes", height=CHANGES_HEIGHT, border=False)
        board_slot = st.container(key="play_board")
        idle_slot = st.empty()
        idle_slot.markdown("")
        input_slot = st.container(key="play_input")
    with right:
        with st.container():
            controls(sess)
        st.markdown("**Moves**" + ("" if viewer is None else f" (as P{viewer} sees them)"))
        with st.container(height=430, key="play_log", autoscroll=True):
            log = common.move_log(state, viewer, sess.cache)
            st.text("\n".join(log) if log else "No moves yet.")

    if state.is_terminal():
        status_line(status, "")
    elif gated:
        status_line(status, f"<b>{ui.seat_name(p, n)}</b> to move.")
    elif sess.is_human_turn():
        status_line(status, f"<b>Your turn</b> — you play {ui.seat_name(p, n)}")
    else:
        status_line(status, f"{ui.seat_name(p, n)} to move (AI)…")
    changes = (common.changes_since(sess, viewer) if viewer is not None
               and not state.is_terminal() else None)
    with changes_slot:
        if changes:
            ui.show_changes(changes, key="changes")
    with board_slot, beside_board(sess, eval_on and not gated):
        if state.is_terminal():
            st.success(ui.result_text(state), icon=":material/emoji_events:")
        common.draw_board(state, viewer, show_all, key="board", changes=changes)

    if state.is_terminal():
        with input_slot:
            if st.button("Play again with the same seats", key="play_again"):
                common.set_play_session(PlaySession(game=sess.game, seats=list(sess.seats),
                                                    preset=sess.preset,
                                                    seed=random.randrange(1, 100000)))
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
            action = human_input(sess, ui, status)
        if action is not None:
            with common.game_lock():
                if sess.ply == ply and sess.is_human_turn():   # not already played in another tab
                    sess.apply_human(action)
            common.save_game()
            if sess.is_ai_turn() and not ai_is_slow(sess):
                idle(sess, ui, idle_slot)       # fast replies: shown with your move at once
                play_ai_moves(sess, ui, status)
            rerun_table()                       # slow ones: after a run that shows your move
    else:                                   # the AI seats to move: new game, AI finishing, reload
        idle(sess, ui, idle_slot)
        play_ai_moves(sess, ui, status)
        rerun_table()


notice = ss.pop(common.NOTICE_KEY, None)
if notice:
    st.warning(notice)
sess = common.play_session()
confirm_box()
new_game_form(expanded=sess is None)
if sess is None:
    st.info("Choose the seats and the AI strength above, then **Start new game**.")
    st.stop()

game = sess.game
ui = ui_for(game.name)
n = game.num_players
who = ", ".join(f"{ui.seat_name(s, n)}: {'you' if k == HUMAN else 'AI'}"
                for s, k in enumerate(sess.seats))
st.caption(f"{ui.title}, {n} players, seed {sess.seed} — {who} — AI strength "
           f"**{sess.preset}** ({AI_PRESETS[sess.preset][1]})")
t1, t2 = st.columns(2)
show_all = t1.toggle("Show all hands (analysis: reveals hidden cards)", key="play_show_all")
eval_on = t2.toggle("Evaluation bar (your win %, searched from your seat)", key="play_eval")
table(show_all, eval_on)
