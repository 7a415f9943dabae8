"""Search tree page: drill down the last search of this session (a hint or an analysis; an AI
seat's move is never kept here: its tree would show that seat's hand). Only the focused node and a few levels of its top-k children are fetched and drawn,
never the whole tree."""
import json

import plotly.graph_objects as go
import streamlit as st

from boardlab.streamlit_app import common

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
focus, names = root, []
for j, idx in enumerate(path):
    if idx >= len(focus["children"]):
        del path[j:]
        break
    focus = focus["children"][idx]
    names.append(f"P{focus['player']} {focus['move']}")


def win(node) -> float:
    return 100.0 * (node["mean"] + 1.0) / 2.0


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


def add(node, nid, parent, lvl, trail):
    ids.append(nid)
    label = "focus" if nid == "f" and not names else (node["move"] or "root")
    labels.append(label if len(label) <= 22 else label[:21] + "…")
    parents.append(parent)
    values.append(max(int(node["visits"]), 0))
    colours.append(win(node) if node["player"] is not None else 50.0)
    who = f"P{node['player']}" if node["player"] is not None else "—"
    hover.append(f"{' → '.join(trail) or 'root'}<br>moved by {who}<br>visits {node['visits']:,}"
                 f"<br>win {colours[-1]:.1f}% for the mover")
    custom.append(nid)
    me = len(ids) - 1
    below = 0
    if lvl < levels:
        for i, ch in enumerate(node["children"]):
            below += add(ch, f"{nid}/{i}", nid, lvl + 1, trail + [f"P{ch['player']} {ch['move']}"])
    values[me] = max(values[me], below)      # "total" sectors: never smaller than the children
    return values[me]


add(focus, "f", "", 0, list(names))
fig = go.Figure(go.Sunburst(
    ids=ids, labels=labels, parents=parents, values=values, branchvalues="total",
    customdata=custom, hovertext=hover, hoverinfo="text",
    marker=dict(colors=colours, colorscale="RdYlGn", cmin=0, cmax=100,
                colorbar=dict(title="win % (mover)")),
    insidetextorientation="radial", maxdepth=levels + 1))
fig.update_layout(height=560, margin=dict(l=0, r=0, t=10, b=10))
left, right = st.columns([3, 2])
with left:
    event = st.plotly_chart(fig, key="tr_chart", on_select="rerun", selection_mode="points",
                            width="stretch")
    st.caption(f"{len(ids)} nodes drawn. Click a ring to zoom in the picture; use the buttons "
               "to fetch deeper levels.")

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
        if st.button(f"▶ P{ch['player']} {ch['move']} — {ch['visits']:,} visits "
                     f"({100 * ch['visits'] / total:.0f}%), win {win(ch):.0f}%",
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
    trail = list(names)
    for part in pick.split("/")[1:]:
        node = node["children"][int(part)]
        trail.append(f"P{node['player']} {node['move']}")
    nxt = {c["player"] for c in node["children"]}
    st.table({
        "path": " → ".join(trail) or "root",
        "visits": f"{node['visits']:,}",
        "mean value (mover)": "—" if node["player"] is None else f"{node['mean']:+.3f}",
        "win % (mover)": "—" if node["player"] is None else f"{win(node):.1f}%",
        "moved by": "—" if node["player"] is None else f"P{node['player']}",
        "player to move": (", ".join(f"P{q}" for q in sorted(nxt)) if nxt else
                           (f"P{result.player}" if node is root else "— (not expanded)")),
    })
    export = {"search": {"player": result.player, "iterations": result.iterations,
                         "seed": result.seed, "title": last["title"]},
              "focus_path": trail, "top_k": k, "levels": levels, "subtree": focus}
    st.download_button("Export this subtree (JSON)", json.dumps(export, indent=1),
                       file_name="search-subtree.json", mime="application/json",
                       key="tr_export", on_click="ignore")
