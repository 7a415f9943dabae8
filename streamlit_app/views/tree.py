"""Search tree page: drill down the last search of this session (a hint or an analysis; an AI
seat's move is never kept here: its tree would show that seat's hand). Only the focused node
and a few levels of its top-k children are fetched and drawn, never the whole tree. Every
ring is coloured by the win % of one side (the side the Analyse graph is drawn for, else the
seat searched for); moves are named in the buttons' words (move_names.LineNamer), and those
the search cannot name are said in words."""
import json

import plotly.graph_objects as go
import streamlit as st

from boardlab.arena import sides_of
from boardlab.streamlit_app import common
from boardlab.streamlit_app.games import ui_for
from boardlab.streamlit_app.move_names import LineNamer

ss = st.session_state
st.title("Search tree")
MAX_DEPTH = 24

last = common.last_search()
if last is None:
    st.info("No search yet in this session. Ask for a **Hint** on the Play page, or run an "
            "analysis on the Analyse page; its tree then appears here.")
    st.stop()

result = last["result"]
st.caption(f"{last['title']} — {result.iterations:,} iterations, {result.nodes:,} nodes in the "
           f"tree, searched for P{result.player}.")
game = last["state"].game
namer = LineNamer(ui_for(game.name), last["state"], result.player)
side_names, side_of = sides_of(game.name, game.num_players)
two_sides = len(set(side_of)) == 2
side = ss.get("rv_side") if ss.get("rv_side") in set(side_of) else side_of[result.player]
seats_of_side = ", ".join(f"P{t}" for t in range(game.num_players) if side_of[t] == side)
side_name = (f"{side_names[side]} ({seats_of_side})" if side_names[side] != f"P{side}"
             else seats_of_side)

c1, c2 = st.columns(2)
k = c1.slider("Children per node (top-k by visits)", 2, 8, 4, key="tr_k")
levels = c2.slider("Levels shown below the focus", 1, 3, 2 if k > 5 else 3, key="tr_levels")

if ss.get("tr_sid") != last["id"]:
    ss["tr_sid"], ss["tr_path"], ss["tr_cache"] = last["id"], [], {}
path = ss["tr_path"]


def fetch(depth: int) -> dict:
    """The tree to ``depth`` below the root, top-k children per node (cached per session)."""
    key = (depth, k)
    cache = ss["tr_cache"]
    if key not in cache:
        cache.clear()                     # keep only one export in memory
        cache[key] = result.tree(depth=depth, top_k=k)
    return cache[key]


depth = min(len(path) + levels, MAX_DEPTH)
with st.spinner("Reading the tree…"):
    root = fetch(depth)
# walk to the focus (the path may be stale if k shrank)
focus, names, focus_line = root, [], []       # focus_line: (player, notation) from the root
for j, idx in enumerate(path):
    if idx >= len(focus["children"]):
        del path[j:]
        break
    focus = focus["children"][idx]
    focus_line.append((focus["player"], focus["move"]))
    names.append(f"P{focus['player']} {namer.name(focus_line)}")


def win(node) -> float:
    """The win % of the seat that made the node's move (its mean value, read as a chance)."""
    return 100.0 * (node["mean"] + 1.0) / 2.0


def side_win(node) -> float | None:
    """The win % of the side the tree is coloured for after the node's move: the mover's
    own, or with two sides the rest; None when the mover is a third side's (or the root:
    then the mean over its children, by visits)."""
    if node["player"] is None:
        kids = [(side_win(c), c["visits"]) for c in node["children"]]
        kids = [(v, n) for v, n in kids if v is not None and n > 0]
        total = sum(n for _, n in kids)
        return sum(v * n for v, n in kids) / total if total else None
    if side_of[node["player"]] == side:
        return win(node)
    return 100.0 - win(node) if two_sides else None


# breadcrumb
st.markdown("**Focus:** " + (" → ".join(names) if names else "root (the position searched)"))
crumbs = st.columns([1, 1.6, 5])
if crumbs[0].button("Root", key="tr_root", disabled=not path):
    path.clear()
    st.rerun()
if path and crumbs[1].button("Up one level", key="tr_up"):
    path.pop()
    st.rerun()

# the picture: the focus and `levels` levels of its top-k children
ids, labels, parents, values, colours, hover, custom = [], [], [], [], [], [], []


def add(node, nid, parent, lvl, trail, line):
    ids.append(nid)
    label = "focus" if nid == "f" and not names else namer.name(line, short=True)
    labels.append(label if len(label) <= 22 else label[:21] + "…")
    parents.append(parent)
    values.append(max(int(node["visits"]), 0))
    value = side_win(node)
    colours.append(value if value is not None else 50.0)
    who = f"P{node['player']}" if node["player"] is not None else "—"
    hover.append(f"{' → '.join(trail) or 'root'}<br>moved by {who}<br>visits {node['visits']:,}"
                 + (f"<br>win {value:.1f}% for {side_name}" if value is not None else
                    f"<br>win {win(node):.1f}% for {who} (another side)"))
    custom.append(nid)
    me = len(ids) - 1
    below = 0
    if lvl < levels:
        for i, ch in enumerate(node["children"]):
            sub = line + [(ch["player"], ch["move"])]
            below += add(ch, f"{nid}/{i}", nid, lvl + 1,
                         trail + [f"P{ch['player']} {namer.name(sub)}"], sub)
    values[me] = max(values[me], below)      # "total" sectors: never smaller than the children
    return values[me]


add(focus, "f", "", 0, list(names), list(focus_line))
fig = go.Figure(go.Sunburst(
    ids=ids, labels=labels, parents=parents, values=values, branchvalues="total",
    customdata=custom, hovertext=hover, hoverinfo="text",
    marker=dict(colors=colours, colorscale="RdYlGn", cmin=0, cmax=100,
                colorbar=dict(title=f"win % of<br>{side_name}")),
    insidetextorientation="radial", maxdepth=levels + 1))
fig.update_layout(height=560, margin=dict(l=0, r=0, t=10, b=10))
left, right = st.columns([3, 2])
with left:
    event = st.plotly_chart(fig, key="tr_chart", on_select="rerun", selection_mode="points",
                            width="stretch")
    st.caption(f"{len(ids)} nodes drawn. Each ring is a move; its size is the number of "
               "iterations (visits) that went through it; its colour the win % of "
               f"**{side_name}** after it, as the search estimates it (green: they win). "
               "Click a ring to zoom in the picture; use the buttons to fetch deeper levels.")

# node chosen for the details panel: a clicked point, else the focus
chosen = "f"
try:
    pts = event.selection.points if event is not None else []
    if pts:
        chosen = pts[0].get("customdata") or pts[0].get("id") or "f"
        if isinstance(chosen, list):
            chosen = chosen[0]
except AttributeError:
    pass
by_id = {nid: i for i, nid in enumerate(ids)}

with right:
    st.markdown("**Go deeper** (top children of the focus by visits)")
    if not focus["children"]:
        st.caption("A leaf: the search did not expand below this node.")
    total = max(focus["visits"], 1)
    for i, ch in enumerate(focus["children"]):
        v = side_win(ch)
        if st.button(f"▶ P{ch['player']} {namer.name(focus_line + [(ch['player'], ch['move'])])}"
                     f" — {ch['visits']:,} visits ({100 * ch['visits'] / total:.0f}% of the "
                     "focus's), " + (f"win {v:.0f}% for {side_name}" if v is not None
                                     else f"win {win(ch):.0f}% for P{ch['player']}"),
                     key=f"tr_child_{len(path)}_{i}", width="stretch",
                     disabled=len(path) >= MAX_DEPTH):
            path.append(i)
            st.rerun()

    st.markdown("**Node details**")
    node_ids = ids
    pick = st.selectbox("Node", node_ids, index=node_ids.index(chosen) if chosen in by_id else 0,
                        format_func=lambda nid: hover[by_id[nid]].split("<br>")[0],
                        key=f"tr_pick_{len(path)}_{k}_{levels}")
    node = focus
    trail, line = list(names), list(focus_line)
    for part in pick.split("/")[1:]:
        node = node["children"][int(part)]
        line.append((node["player"], node["move"]))
        trail.append(f"P{node['player']} {namer.name(line)}")
    nxt = {c["player"] for c in node["children"]}
    value = side_win(node)
    st.table({
        "path": " → ".join(trail) or "root",
        "visits (iterations through this move)": f"{node['visits']:,}",
        "mean value for the mover (−1 loss … +1 win)":
            "—" if node["player"] is None else f"{node['mean']:+.3f}",
        "win % of the mover (50 + 50 × mean value)":
            "—" if node["player"] is None else f"{win(node):.1f}%",
        f"win % of {side_name}": "—" if value is None else f"{value:.1f}%",
        "moved by": "—" if node["player"] is None else f"P{node['player']}",
        "player to move": (", ".join(f"P{q}" for q in sorted(nxt)) if nxt else
                           (f"P{result.player}" if node is root else "— (not expanded)")),
    })
    st.caption("**Mean value**: the average outcome of the iterations through this move for "
               "the seat that made it, −1 a sure loss, +1 a sure win, 0 even. A **hidden "
               "move** is one of another seat's the searching seat cannot see (a card from a "
               "hidden hand, a secret turn): its tree has it, but it has no name in any world "
               f"P{result.player} imagines.")
    export = {"search": {"player": result.player, "iterations": result.iterations,
                         "seed": result.seed, "title": last["title"]},
              "focus_path": trail, "top_k": k, "levels": levels, "subtree": focus}
    st.download_button("Export this subtree (JSON)", json.dumps(export, indent=1),
                       file_name="search-subtree.json", mime="application/json",
                       key="tr_export", on_click="ignore")
