"""Streamlit helpers shared by the pages.

Engines (configured ``boardlab.Game`` objects, immutable) are cached process-wide with
``st.cache_resource``; everything that belongs to one person (their games, searches, view
toggles) lives in ``st.session_state``, so two browser sessions never share a game.
"""
from __future__ import annotations

import json

import streamlit as st

import boardlab

from .games import ui_for
from .session import AI_PRESETS, PlaySession, run_search

PLAY_KEY = "bl_play"            # PlaySession of the Play page
SEARCH_KEY = "bl_last_search"   # {"result", "title", "state"} of the last search, for the tree page
ANALYSIS_KEY = "bl_analysis"    # analysis page: loaded source and results


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
    for base in (here.parent.parent / "docs", here.parents[3] / "docs"):
        p = base / f"{name}.md"
        if p.is_file():
            return p.read_text(encoding="utf-8")
    return None


def play_session() -> PlaySession | None:
    return st.session_state.get(PLAY_KEY)


def set_play_session(sess: PlaySession | None) -> None:
    st.session_state[PLAY_KEY] = sess


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


def move_log(state, viewer) -> list[str]:
    """The game so far as ``viewer`` may read it, numbered, with public events."""
    ui = ui_for(state.game.name)
    s = state.game.new_initial_state(seed=state._seed)
    lines = []
    look = viewer if viewer is not None else 0
    before = s.observation(look)
    k = 0
    for a in state.history:
        actor = s.current_player
        text = ui.log_text(s, a, actor, viewer)
        s.apply(a)
        if text:
            k += 1
            lines.append(f"{k}. {text}")
        after = s.observation(look)
        for ev in ui.events(before, after):
            lines.append(f"   • {ev}")
        before = after
    return lines


def draw_board(state, viewer, show_all: bool, key: str = "board") -> dict:
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
    ui.board(obs, key=key, viewer=viewer)
    return obs


def stats_table(result):
    """The analysis table and a bar chart of a SearchResult."""
    import pandas as pd
    import plotly.graph_objects as go
    from .session import search_rows

    rows = search_rows(result)
    df = pd.DataFrame(rows)
    st.dataframe(df, hide_index=True, width="stretch", key=None)
    top = rows[:12][::-1]
    fig = go.Figure(go.Bar(
        x=[r["visits"] for r in top], y=[r["move"] for r in top], orientation="h",
        marker=dict(color=[r["win %"] for r in top], colorscale="RdYlGn", cmin=0, cmax=100,
                    colorbar=dict(title="win %")),
        text=[f"{r['win %']:.1f}%" for r in top], textposition="auto",
        hovertemplate="%{y}: %{x} visits<extra></extra>"))
    fig.update_layout(height=80 + 34 * len(top), margin=dict(l=10, r=10, t=30, b=10),
                      title=f"Visits per move ({result.iterations:,} iterations, "
                            f"{result.seconds:.2f} s)", xaxis_title="visits")
    st.plotly_chart(fig, width="stretch")
    if result.principal_variation:
        st.markdown("**Principal variation:** " + " → ".join(
            f"P{p} {m}" for p, m in result.principal_variation[:12]))
    return df
