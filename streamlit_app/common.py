"""Streamlit helpers shared by the pages.

Engines (configured ``boardlab.Game`` objects, immutable) are cached process-wide with
``st.cache_resource``, and so is the :class:`GameStore` of games by id (a database shared
with the other app servers, if any). A browser session
knows its game by id (in ``st.session_state``, in the URL as ``?game=<id>`` and in a
cookie), so a reload, a new tab on the same link or a typed address find the game again;
two browser sessions with different games never share one. Searches, view toggles and the
analysis belong to one session (``st.session_state``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import streamlit as st

import boardlab

from .current_game import PLAY_KEY, play_session
from .games import Changes, ui_for
from .session import AI_PRESETS, PlaySession, duration_text, log_text, run_search
from .store import (AccessDenied, GameMovedOn, GameStore, StoreError, check_game_id,
                    data_dir)

GAME_KEY = "bl_game_id"         # its id in the store (and in the URL)
SEARCH_KEY = "bl_last_search"   # {"result", "title", "state"} of the last search, for the tree page
ANALYSIS_KEY = "bl_analysis"    # analysis page: loaded source and results
NOTICE_KEY = "bl_game_notice"   # why a game from the URL could not be opened
COOKIE = "boardlab_game"        # the browser's last game, for an address typed without ?game=

# Sets the cookie from the page (a components v2 script runs in the app page, no iframe).
_REMEMBER_JS = """
export default function ({ data }) {
  if (typeof data === "string" && /^[A-Za-z0-9_-]{8,40}$/.test(data)) {
    document.cookie = "%s=" + data + "; path=/; max-age=31536000; SameSite=Lax";
  }
}
""" % COOKIE
_remember_component = st.components.v2.component("boardlab_remember_game", js=_REMEMBER_JS)


@st.cache_resource(show_spinner=False)
def _cached_game(name: str, params_json: str):
    return boardlab.make(name, **json.loads(params_json))


def get_game(name: str, params: dict):
    """A configured game, shared by every session (Game objects are immutable)."""
    return _cached_game(name, json.dumps(params, sort_keys=True))


@st.cache_data(show_spinner=False)
def read_doc(name: str) -> str | None:
    """Text of docs/<name>.md: the copy shipped in the wheel, else the source tree's."""
    from importlib import resources
    try:
        res = resources.files("boardlab").joinpath("docs", f"{name}.md")
        if res.is_file():
            return res.read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, OSError):
        pass
    from pathlib import Path
    here = Path(__file__).resolve()
    # Beside the app's folder: boardlab/docs when installed, <repo>/docs in a checkout.
    p = here.parent.parent / "docs" / f"{name}.md"
    if p.is_file():
        return p.read_text(encoding="utf-8")
    return None


@st.cache_resource(show_spinner=False)
def game_store() -> GameStore:
    """The process-wide store of games (SQLite in data_dir(), or $BOARDLAB_DB); a table's
    views carry each visitor's log and "since your last move" (friends/story.py)."""
    from .friends.story import StoryTeller
    return GameStore(data_dir(), story=StoryTeller())


def game_id() -> str | None:
    return st.session_state.get(GAME_KEY)


def not_saved(e: StoreError, what: str = "your move was not played") -> str:
    """What a player reads when the database fails: its plain cause, and that nothing
    happened (never the driver's text: it would carry the game's record)."""
    return f"The game could not be saved: {e} — {what}; try again."


def set_play_session(sess: PlaySession | None) -> None:
    """Make ``sess`` this browser session's game: kept in the store under a new id, which
    goes into the URL (None: no game). If the database fails, the session keeps the game
    it had, and says why."""
    if sess is None:
        st.session_state[PLAY_KEY] = st.session_state[GAME_KEY] = None
        st.query_params.pop("game", None)
        return
    try:
        gid = game_store().add(sess)
    except StoreError as e:
        st.session_state[NOTICE_KEY] = not_saved(e, "the new game was not started")
        return
    _adopt(gid, sess)


def _adopt(gid: str, sess: PlaySession) -> None:
    st.session_state[PLAY_KEY], st.session_state[GAME_KEY] = sess, gid
    if st.query_params.get("game") != gid:
        st.query_params["game"] = gid


def save_game() -> None:
    """Write the current game's record to the store (after a decision). If the game changed
    meanwhile elsewhere (another server, another store), nothing is written and this
    session takes the game as it is now."""
    gid, sess = game_id(), play_session()
    if gid and sess is not None:
        try:
            game_store().save(gid, sess)
        except GameMovedOn:
            fresh = game_store().get(gid)
            if fresh is not None:
                st.session_state[PLAY_KEY] = fresh
            st.session_state[NOTICE_KEY] = ("The game moved on in another window: this is "
                                             "where it stands now.")
        except StoreError as e:     # the position as stored: the unsaved change is dropped
            try:
                st.session_state[PLAY_KEY] = game_store().as_stored(gid, sess)
                what = "your move was not played"
            except StoreError:      # neither kept here nor readable: no game on screen
                st.session_state[PLAY_KEY] = None
                what = "your move was not played, and the game cannot be read now"
            st.session_state[NOTICE_KEY] = not_saved(e, what)
            st.rerun()              # the whole page: the notice and the position as stored


def game_lock():
    """The store's lock of the current game (two tabs may play the same game)."""
    return game_store().lock(game_id())


def resume_game() -> None:
    """Find this session's game (run by the entry script on every page, every run): the id
    in the URL, else the session's own, else the browser's cookie; keep the URL showing it."""
    ss = st.session_state
    wanted = st.query_params.get("game")
    source = "link"
    if not wanted and not ss.get(GAME_KEY) and not ss.get("bl_cookie_tried"):
        ss["bl_cookie_tried"] = True             # only when the session starts
        wanted, source = st.context.cookies.get(COOKIE), "cookie"
    if wanted and wanted != ss.get(GAME_KEY):
        try:
            sess = game_store().get(check_game_id(wanted))
        except (ValueError, AccessDenied, boardlab.RecordError, StoreError) as e:
            sess, why = None, f"The game in the link cannot be opened: {e}"
        else:
            why = (f"There is no saved game {wanted!r} on this server (the link may be "
                   "from another server, or its file was removed).")
        if sess is not None:
            _adopt(wanted, sess)
        else:
            if source == "link":
                ss[NOTICE_KEY] = why
            if ss.get(GAME_KEY):
                st.query_params["game"] = ss[GAME_KEY]
            else:
                st.query_params.pop("game", None)
    elif ss.get(GAME_KEY):
        _refresh(ss[GAME_KEY])
        if st.query_params.get("game") != ss[GAME_KEY]:
            st.query_params["game"] = ss[GAME_KEY]    # page switches drop the query string
    if ss.get(GAME_KEY):            # drawn nowhere (no sidebar): it only sets the cookie
        st.html("<style>.st-key-bl_remember_game { display: none; }</style>")
        _remember_component(data=ss[GAME_KEY], key="bl_remember_game")


def _refresh(gid: str) -> None:
    """Take the stored game if it changed since this session read it (on another server)."""
    try:
        fresh = game_store().get(gid)
    except (ValueError, AccessDenied, boardlab.RecordError, StoreError):
        return
    if fresh is not None and fresh is not st.session_state.get(PLAY_KEY):
        st.session_state[PLAY_KEY] = fresh


def game_in_progress() -> bool:
    """A game not over in which a human seat has decided (leaving it asks first)."""
    sess = play_session()
    return (sess is not None and not sess.state.is_terminal()
            and any(sess.since_last_decision(h) for h in sess.humans))


def remember_search(result, title: str, state) -> None:
    """Keep a search for the Search tree page (this session only)."""
    st.session_state[SEARCH_KEY] = {"result": result, "title": title, "state": state.clone(),
                                    "id": id(result)}


def last_search():
    return st.session_state.get(SEARCH_KEY)


def search_with_progress(state, budget: dict, seed: int, label: str, player=None):
    """Run ISMCTS with a progress bar (the page stays live: the bar moves every batch)."""
    bar = st.progress(0.0, text=f"{label}…")

    def progress(frac, text):
        bar.progress(min(max(frac, 0.0), 1.0), text=f"{label}: {text}")

    result = run_search(state, budget, seed, progress, player=player)
    bar.empty()
    return result


def preset_help() -> str:
    return " · ".join(f"**{k}**: {v[1]}" for k, v in AI_PRESETS.items())


@dataclass
class LogLine:
    ply: int        # index in the history of the action this line comes from
    text: str       # as shown: "12. P0 play B3", "   • Trick: ...", "── Round 2 ──"
    kind: str       # "move", "event" or "section"
    raw: str = ""   # the same without number, bullet or rule: "P0 play B3"


class _Log:
    """The log of one game as one viewer reads it, extended move by move (a replay of the
    new actions only, not of the whole game, on each run)."""

    def __init__(self, state, viewer):
        self.ui = ui_for(state.game.name)
        self.viewer = viewer
        self.look = viewer if viewer is not None else 0
        self.replay = state.game.new_initial_state(seed=state._seed)
        self.history: list[int] = []
        self.before = self.replay.observation(self.look)
        self.section = self.ui.section(self.before)
        self.lines: list[LogLine] = []
        self.moves = 0
        self.obs_at: dict[int, dict] = {}   # the viewer's observation after some plies

    def extend(self, history) -> None:
        ui, s = self.ui, self.replay
        for ply in range(len(self.history), len(history)):
            a = history[ply]
            actor = s.current_player
            text = log_text(ui, s, a, actor, self.viewer)
            s.apply(a)
            self.history.append(a)
            if text:
                self.moves += 1
                self.lines.append(LogLine(ply, f"{self.moves}. {text}", "move", text))
            after = s.observation(self.look)
            for ev in ui.events(self.before, after):
                self.lines.append(LogLine(ply, f"   • {ev}", "event", ev))
            section = ui.section(after)
            if section and section != self.section:     # after the events that led to it
                self.lines.append(LogLine(ply, f"── {section} ──", "section", section))
            self.section = section
            self.before = after


def log_lines(state, viewer, cache: dict | None = None) -> list[LogLine]:
    """The game so far as ``viewer`` may read it: numbered moves, public events and section
    headings, oldest first. With ``cache`` (a dict kept with the game), only the actions
    added since the last call are replayed."""
    history = state.history
    log = cache.get(("log", viewer)) if cache is not None else None
    if log is None or len(log.history) > len(history) or log.history != history[:len(log.history)]:
        log = _Log(state, viewer)
        if cache is not None:
            cache[("log", viewer)] = log
    log.extend(history)
    return log.lines


def move_log(state, viewer, cache: dict | None = None) -> list[str]:
    """The log's lines as text."""
    return [line.text for line in log_lines(state, viewer, cache)]


def changes_since(sess: PlaySession, viewer) -> Changes:
    """What happened since ``viewer``'s last decision, as ``viewer`` may know it."""
    if viewer is None:
        return Changes(viewer=None, since=sess.ply)
    start, since = sess.last_decision(viewer)
    lines = log_lines(sess.state, viewer, sess.cache)
    history = sess.state.history
    moves = list(zip(sess._actors[since:], history[since:]))
    before = None
    if moves:
        key = ("obs", viewer, since, tuple(history[:since][-8:]))
        before = sess.cache.get(key)
        if before is None:
            from .session import state_at
            before = state_at(sess.state, since).observation(viewer)
            sess.cache = {k: v for k, v in sess.cache.items() if k[0] != "obs"}
            sess.cache[key] = before
    return Changes(viewer=viewer, since=since, moves=moves,
                   lines=[ln.raw for ln in lines if ln.ply >= since and ln.kind != "section"],
                   before=before, outcome=Changes.outcome_of(lines, start, since))


def draw_board(state, viewer, show_all: bool, key: str = "board",
               changes: Changes | None = None) -> dict:
    """Draw ``state`` as ``viewer`` sees it (everything if show_all; with no viewer, what
    every seat sees: the public part of seat 0's view without its hand). Returns the obs."""
    ui = ui_for(state.game.name)
    if show_all:
        obs = state.full_observation()
    elif viewer is None:
        obs = state.observation(0)
        obs["hands"] = [None] * len(obs["hands"]) if isinstance(obs.get("hands"), list) else None
        if "exchange" in obs:
            obs["exchange"] = [{} for _ in obs["exchange"]]
    else:
        obs = state.observation(viewer)
    if changes:
        ui.board(obs, key=key, viewer=viewer, changes=changes)
    else:
        ui.board(obs, key=key, viewer=viewer)
    return obs


def stats_table(result, priors: dict | None = None, state=None):
    """The analysis table and a bar chart of a SearchResult (``priors``: the learned
    network's prior of each move, shown beside the search's visits); ``state``: the position
    searched, whose moves and line are then named in the buttons' words (the searched
    seat's), the notation kept in a hidden column."""
    import pandas as pd
    import plotly.graph_objects as go
    from .session import search_rows

    names = namer = None
    if state is not None:
        from .games import ui_for
        from .move_names import LineNamer
        namer = LineNamer(ui_for(state.game.name), state, result.player)
        names = {int(s["action"]): namer.name([(result.player, s["move"])])
                 for s in result.stats}
    rows = search_rows(result, priors, names)
    df = pd.DataFrame(rows)
    st.dataframe(df, hide_index=True, width="stretch", key=None,
                 column_config={"notation": None})      # kept for tools, not on screen
    st.caption(("**network %**: how likely the learned network, reading the position at a "
                "glance without any search, thinks the move is the one to play; "
                if "network %" in df.columns else "") +
               "**visits**: iterations of the search that tried the move; **share %**: its "
               "share of all the iterations (the search tries the moves it rates best most); "
               f"**win %**: how often P{result.player} won after it in those iterations; "
               "**mean value**: the same outcome on a −1 (loss) … +1 (win) scale "
               "(win % = 50 + 50 × mean value).")
    top = rows[:12][::-1]
    fig = go.Figure(go.Bar(
        x=[r["visits"] for r in top], y=[r["move"] for r in top], orientation="h",
        marker=dict(color=[r["win %"] for r in top], colorscale="RdYlGn", cmin=0, cmax=100,
                    colorbar=dict(title="win %")),
        text=[f"{r['win %']:.1f}%" for r in top], textposition="auto",
        hovertemplate="%{y}: %{x} visits<extra></extra>"))
    fig.update_layout(height=80 + 34 * len(top), margin=dict(l=10, r=10, t=30, b=10),
                      title=f"Visits per move ({result.iterations:,} iterations, "
                            f"{duration_text(result.seconds)})", xaxis_title="visits")
    st.plotly_chart(fig, width="stretch")
    if result.principal_variation:
        from .review import move_words
        line = [(p, m) for p, m in result.principal_variation[:12]]
        words = (namer.names(line) if namer is not None else
                 [move_words(m, p, result.player) for p, m in line])
        st.markdown("**Principal variation** (the line the search expects, most visited move "
                    "after most visited move): " + " → ".join(
                        f"P{p} {w}" for (p, _), w in zip(line, words)))
    return df
