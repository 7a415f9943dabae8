"""Play page: a new game (seats, AI strength, seed), the board, moves, AI replies, hints,
undo, save/load and the game-over screen. One AI move per script run, then a rerun, so the
page is never blocked for longer than one move's budget."""
import random

import streamlit as st

import boardlab
from boardlab.streamlit_app import common
from boardlab.streamlit_app.games import ui_for
from boardlab.streamlit_app.session import (AI, AI_PRESETS, DEFAULT_PRESET, HUMAN, PlaySession,
                                            search_rows, session_from_record)

ss = st.session_state
st.title("Play")


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
        if st.button("Start new game", type="primary", key="ng_start"):
            common.set_play_session(PlaySession(game=game, seats=seats, preset=preset,
                                                seed=int(seed)))
            ss.pop("ng_seed_default", None)
            st.rerun()
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
                    common.set_play_session(sess)
                    st.rerun()
            else:
                st.success(f"Loaded {up.name}.")


sess = common.play_session()
new_game_form(expanded=sess is None)
if sess is None:
    st.info("Choose the seats and the AI strength above, then **Start new game**.")
    st.stop()

state = sess.state
game = state.game
ui = ui_for(game.name)
n = game.num_players
who = ", ".join(f"{ui.seat_name(s, n)}: {'you' if k == HUMAN else 'AI'}"
                for s, k in enumerate(sess.seats))
st.caption(f"{ui.title}, {n} players, seed {sess.seed} — {who} — AI strength "
           f"**{sess.preset}** ({AI_PRESETS[sess.preset][1]})")

p = state.current_player
multi_human = len(sess.humans) > 1
show_all = st.toggle("Show all hands (analysis: reveals hidden cards)", key="play_show_all")
gated = (sess.is_human_turn() and multi_human and sess.revealed != p and not show_all)
viewer = None if gated else sess.viewer()

left, right = st.columns([3, 1.15])

# --- right column first: controls stay clickable while the AI thinks -------------------------
with right:
    c1, c2 = st.columns(2)
    if c1.button("Undo", key="play_undo", icon=":material/undo:", disabled=not sess.can_undo(),
                 help="Take back to your previous decision", width="stretch"):
        sess.undo()
        st.rerun()
    c2.download_button("Save", icon=":material/download:", data=sess.record_json(), file_name=f"{game.name}-{sess.seed}.json",
                       mime="application/json", key="play_save", on_click="ignore",
                       help="Download the game record (JSON)", width="stretch")
    if sess.humans and not state.is_terminal():
        if st.button("Let the AI finish the game", key="play_ai_finish",
                     icon=":material/fast_forward:", width="stretch",
                     help="Every seat becomes an AI seat and the game plays out to the end "
                          "(your view stays on screen)."):
            sess.seats = [AI] * n
            st.rerun()
    st.markdown("**Moves**" + ("" if viewer is None else f" (as P{viewer} sees them)"))
    log = common.move_log(state, viewer)
    with st.container(height=430, key="play_log"):
        st.text("\n".join(log[-300:]) if log else "No moves yet.")

with left:
    if state.is_terminal():
        st.success(ui.result_text(state), icon=":material/emoji_events:")
        common.draw_board(state, viewer, show_all)
        st.button("Play again with the same seats", key="play_again", on_click=lambda: (
            common.set_play_session(PlaySession(game=game, seats=list(sess.seats), preset=sess.preset,
                                                seed=random.randrange(1, 100000)))))
    elif gated:
        st.warning(f"**{ui.seat_name(p, n)}** to move. Pass the device: the other players should "
                   "look away.")
        if st.button(f"I am P{p} — show my hand", key=f"reveal_{p}_{len(state.history)}",
                     type="primary"):
            sess.revealed = p
            st.rerun()
    elif sess.is_human_turn():
        sess.revealed = p
        common.draw_board(state, p, show_all)
        obs = state.observation(p)
        action = ui.move_input(state, obs, key=f"mv{len(state.history)}")
        if action is not None:
            sess.apply_human(action)
            st.rerun()
        hc1, hc2 = st.columns([1, 3])
        if hc1.button("Hint", icon=":material/lightbulb:", key=f"hint_{len(state.history)}",
                      help=f"What the AI would play here ({AI_PRESETS[sess.preset][1]})"):
            result = common.search_with_progress(state, sess.ai_budget,
                                                 sess.ai_seed() ^ 0x4E1, "Thinking about a hint")
            sess.hint, sess.hint_ply = result, len(state.history)
            common.remember_search(result, f"Hint for P{p} at move {len(state.history)}", state)
        if sess.hint is not None and sess.hint_ply == len(state.history):
            rows = search_rows(sess.hint)[:3]
            hc2.markdown(f"**The AI would play `{sess.hint.best_move}`.** Top three:")
            hc2.dataframe(rows, hide_index=True, key=None)
    else:  # an AI seat
        common.draw_board(state, viewer, show_all)
        result = common.search_with_progress(state, sess.ai_budget, sess.ai_seed(),
                                             f"{ui.seat_name(p, n)} (AI) is thinking")
        state_before = state.clone()
        sess.state.apply(result.best_action)
        sess.last_ai = result
        sess.advance_chance()
        common.remember_search(result, f"AI move of P{p} at move {len(state_before.history)}",
                               state_before)
        st.rerun()
