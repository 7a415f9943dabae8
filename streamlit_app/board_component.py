"""One clickable board for every game: an SVG (or a row of SVG pieces) with places on it.

A *place* is somewhere a player may click: a card in a hand, a square of a map, a card on the
table. The game draws the picture (SVG, in Python, from an observation) and lists its places,
each with an id and, for the ones the player may choose now, ``legal=True``. The component
lights the legal places, leaves the rest inert, shows a place's hover preview (an SVG fragment
drawn over the board, and a line of text) and sends the clicked place's id back to Python as a
*trigger*: one click is one value for one script run, never re-sent on a later rerun.

Two layouts, the same places:

* ``board(svg=..., places=[Place(id, label, rect=(x, y, w, h)), ...])`` - one SVG; a place is
  a rectangle in the SVG's viewBox coordinates (a map square, a card on the table);
* ``board(places=[Place(id, label, svg=...), ...])`` - *pieces*: each place is its own small
  SVG and they wrap in rows (a hand of cards: a row on a desktop, a grid on a phone).

``interactive=False`` draws the same board inert (while another seat moves). Nothing here
knows a game: the mapping place id -> action is the caller's (see :func:`pick`).

Built on Streamlit custom components v2 (inline HTML/CSS/JS, no JavaScript build step). The
places are real ``<button>`` elements (keyboard focus, ``disabled``), laid over the SVG.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass

import streamlit as st

COMPONENT_NAME = "boardlab_board"
TRIGGER = "click"

MARKS = ("hint", "chosen")      # a ring on a place: the AI's hint, the player's current choice


@dataclass(frozen=True)
class Place:
    """A clickable place. ``rect`` (x, y, w, h in the board SVG's viewBox) in the board
    layout, ``svg`` (a whole ``<svg>``) in the pieces layout. ``label`` is the accessible name
    and tooltip; ``preview`` an SVG fragment drawn over the board while the place is hovered;
    ``note`` a line shown under the board meanwhile; ``caption`` a line under a piece."""
    id: str
    label: str
    legal: bool = True
    rect: tuple[float, float, float, float] | None = None
    svg: str | None = None
    preview: str = ""
    note: str = ""
    caption: str = ""
    mark: str | None = None
    tip: str = ""
    anim: dict | None = None

    def as_data(self) -> dict:
        d = {"id": self.id, "label": self.label, "legal": bool(self.legal)}
        if self.rect is not None:
            x, y, w, h = self.rect
            d["rect"] = [round(float(x), 2), round(float(y), 2), round(float(w), 2),
                         round(float(h), 2)]
        for name in ("svg", "preview", "note", "caption", "mark", "tip"):
            value = getattr(self, name)
            if value:
                d[name] = value
        if self.anim:
            d["anim"] = dict(self.anim)
        return d


def board_data(places, svg: str | None = None, *, interactive: bool = True, note: str = "",
               max_width: int | None = None, piece_width: int | None = None) -> dict:
    """The JSON the component draws (also what the tests read). Raises ValueError for places
    that cannot be drawn: duplicate ids, a board place without ``rect``, a piece without
    ``svg``, an unknown mark."""
    places = list(places)
    ids = [p.id for p in places]
    if len(set(ids)) != len(ids):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"board: place ids must be unique, repeated: {', '.join(dup)}")
    for p in places:
        if not isinstance(p.id, str) or not p.id:
            raise ValueError(f"board: a place id must be a non-empty string, got {p.id!r}")
        if svg is not None and p.rect is None:
            raise ValueError(f"board: place {p.id!r} needs a rect on a board SVG")
        if svg is None and not p.svg:
            raise ValueError(f"board: piece {p.id!r} needs its own svg")
        if p.mark is not None and p.mark not in MARKS:
            raise ValueError(f"board: place {p.id!r} has unknown mark {p.mark!r} "
                             f"(marks: {', '.join(MARKS)})")
    data = {"interactive": bool(interactive), "places": [p.as_data() for p in places]}
    if svg is not None:
        data["svg"] = svg
    if note:
        data["note"] = note
    if max_width:
        data["max_width"] = int(max_width)
    if piece_width:
        data["piece_width"] = int(piece_width)
    return data


def clicked_place(value, places, interactive: bool = True) -> str | None:
    """The place id a trigger value names if it is a legal place of this board, else None
    (a stale or forged value never becomes a move)."""
    if not interactive or not isinstance(value, str):
        return None
    return value if any(p.id == value and p.legal for p in places) else None


def pick(clicked: str | None, actions: dict):
    """The action of the clicked place (``actions``: place id -> action or list of actions)."""
    return None if clicked is None else actions.get(clicked)


def board(places, svg: str | None = None, *, key: str, interactive: bool = True,
          note: str = "", max_width: int | None = None, piece_width: int | None = None):
    """Draw a clickable board; returns the id of the legal place clicked in this run, or None.

    Give a ``key`` that changes when the decision changes (e.g. with the move number): a click
    then belongs to one decision only."""
    places = list(places)
    data = board_data(places, svg, interactive=interactive, note=note, max_width=max_width,
                      piece_width=piece_width)
    result = _component()(key=key, data=data, on_click_change=_ignore, width="stretch",
                          height="content")
    return clicked_place(getattr(result, TRIGGER, None), places, interactive)


def recent_moves(changes) -> list[tuple[int, str]]:
    """(actor, text) of the moves since the viewer's last decision, read from ``changes``
    (the app's Changes: ``lines`` are the log lines as the viewer may read them, e.g.
    "P1 play O3", "P1 placed 37 ..."), so a board highlights only what the viewer knows."""
    out = []
    for line in getattr(changes, "lines", None) or ():
        m = re.match(r"\s*(?:\d+\.\s*)?(?:•\s*)?P(\d+) (.+)", str(line))
        if m:
            out.append((int(m.group(1)), m.group(2)))
    return out


def _ignore():          # a trigger needs an on_<name>_change callback to be registered
    return None


_MOUNT = None


def _component():
    global _MOUNT
    if _MOUNT is None:
        _MOUNT = st.components.v2.component(COMPONENT_NAME, css=CSS, js=JS, isolate_styles=False)
    return _MOUNT


# ----------------------------------------------------------------------------------------------
# Front end. Not style-isolated (a shadow root would hide the place buttons from the page's
# own tests and from `closest()`), so every class starts with "blb-".
# ----------------------------------------------------------------------------------------------
CSS = """
.blb { font-family: Helvetica, Arial, sans-serif; }
.blb-stage { position: relative; width: 100%; line-height: 0; }
.blb-stage > svg { display: block; width: 100%; height: auto; max-width: none !important; }
.blb-place {
  position: absolute; padding: 0; margin: 0; border: 0; border-radius: 6px; cursor: pointer;
  background: rgba(255, 214, 64, .16); box-shadow: inset 0 0 0 2px rgba(227, 168, 27, .95);
  transition: background .1s, box-shadow .1s;
}
.blb-place:hover, .blb-place:focus-visible {
  background: rgba(255, 214, 64, .38); box-shadow: inset 0 0 0 3px #b8860b; outline: none;
}
.blb-place.blb-mark-hint { box-shadow: inset 0 0 0 3px #7c3aed, 0 0 0 3px rgba(124, 58, 237, .35); }
.blb-place.blb-mark-chosen { box-shadow: inset 0 0 0 3px #1f7a3a; }
.blb-preview { pointer-events: none; }
.blb-note { min-height: 1.3em; margin: 4px 2px 0; font-size: .9rem; line-height: 1.3;
  color: #3b3f4a; }
.blb-pieces { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-end; }
.blb-piece { display: flex; flex-direction: column; align-items: center; gap: 3px;
  width: var(--blb-piece-w, 84px); padding: 0; margin: 0; border: 0; background: none;
  cursor: pointer; font: inherit; color: #3b3f4a; border-radius: 10px; }
.blb-piece > svg { display: block; width: 100%; height: auto; border-radius: 9px;
  transition: transform .12s, box-shadow .12s; }
.blb-piece.blb-legal > svg { box-shadow: 0 0 0 2px rgba(227, 168, 27, .9); }
.blb-piece.blb-legal:hover > svg, .blb-piece.blb-legal:focus-visible > svg {
  transform: translateY(-6px); box-shadow: 0 0 0 3px #e3a81b, 0 6px 10px rgba(0,0,0,.25); }
.blb-piece:focus-visible { outline: none; }
.blb-piece[disabled] { cursor: default; }
.blb-piece.blb-illegal > svg { opacity: .38; filter: grayscale(.45); }
.blb-piece.blb-mark-hint > svg { box-shadow: 0 0 0 4px #7c3aed, 0 0 12px 3px rgba(124,58,237,.55); }
.blb-piece-cap { font-size: .75rem; line-height: 1.15; text-align: center; min-height: 1.15em; }
.blb-piece.blb-mark-hint .blb-piece-cap { color: #6d28d9; font-weight: 700; }
.blb-sent .blb-place, .blb-sent .blb-piece { pointer-events: none; }
.blb-sent { opacity: .75; transition: opacity .2s; }
@media (max-width: 640px) {
  .blb-pieces { gap: 5px; }
  .blb-piece { width: var(--blb-piece-w-phone, 52px); }
  .blb-piece-cap { font-size: .65rem; }
}
"""

JS = r"""
const SVGNS = "http://www.w3.org/2000/svg";

export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  let root = parentElement.querySelector(":scope > .blb");
  if (!root) {
    root = document.createElement("div");
    root.className = "blb";
    parentElement.appendChild(root);
  }
  root.replaceChildren();
  root.classList.remove("blb-sent");
  const live = !!data.interactive;
  root.classList.toggle("blb-inert", !live);
  const places = data.places || [];
  let timer = null;
  const send = (id) => {
    if (!live || root.classList.contains("blb-sent")) return;
    root.classList.add("blb-sent");            // one click, one move: wait for the next board
    timer = setTimeout(() => root.classList.remove("blb-sent"), 8000);
    setTriggerValue("click", id);
  };
  const note = document.createElement("div");
  note.className = "blb-note";
  note.setAttribute("aria-live", "polite");
  const idle = data.note || "";
  note.textContent = idle;

  if (data.svg) {
    const stage = document.createElement("div");
    stage.className = "blb-stage";
    if (data.max_width) stage.style.maxWidth = data.max_width + "px";
    stage.innerHTML = data.svg;
    root.appendChild(stage);
    const svg = stage.querySelector("svg");
    const vb = svg && svg.viewBox && svg.viewBox.baseVal;
    const overlay = document.createElementNS(SVGNS, "g");
    overlay.setAttribute("class", "blb-preview");
    if (svg) svg.appendChild(overlay);
    const show = (p) => { overlay.innerHTML = p.preview || ""; note.textContent = p.note || p.label; };
    const hide = () => { overlay.innerHTML = ""; note.textContent = idle; };
    if (live && vb && vb.width > 0 && vb.height > 0) {
      for (const p of places) {
        if (!p.legal || !p.rect) continue;     // inert: the drawing shows it, nothing to click
        const [x, y, w, h] = p.rect;
        const b = document.createElement("button");
        b.type = "button";
        b.className = "blb-place" + (p.mark ? " blb-mark-" + p.mark : "");
        b.dataset.place = p.id;
        b.title = p.label;
        b.setAttribute("aria-label", p.label);
        b.style.left = ((x - vb.x) / vb.width * 100) + "%";
        b.style.top = ((y - vb.y) / vb.height * 100) + "%";
        b.style.width = (w / vb.width * 100) + "%";
        b.style.height = (h / vb.height * 100) + "%";
        b.addEventListener("mouseenter", () => show(p));
        b.addEventListener("focus", () => show(p));
        b.addEventListener("mouseleave", hide);
        b.addEventListener("blur", hide);
        b.addEventListener("click", () => send(p.id));
        stage.appendChild(b);
      }
    }
  } else {
    const row = document.createElement("div");
    row.className = "blb-pieces";
    if (data.piece_width) {
      row.style.setProperty("--blb-piece-w", data.piece_width + "px");
      row.style.setProperty("--blb-piece-w-phone", Math.round(data.piece_width * 0.62) + "px");
    }
    for (const p of places) {
      const b = document.createElement("button");
      b.type = "button";
      const clickable = live && p.legal;
      b.className = "blb-piece" + (clickable ? " blb-legal" : "") +
        (live && !p.legal ? " blb-illegal" : "") + (p.mark ? " blb-mark-" + p.mark : "");
      b.dataset.place = p.id;
      b.title = p.label;
      b.setAttribute("aria-label", p.label);
      b.disabled = !clickable;
      b.innerHTML = p.svg;
      const cap = document.createElement("span");
      cap.className = "blb-piece-cap";
      cap.textContent = p.caption || "";
      b.appendChild(cap);
      if (clickable) {
        b.addEventListener("click", () => send(p.id));
        b.addEventListener("mouseenter", () => { note.textContent = p.note || p.label; });
        b.addEventListener("mouseleave", () => { note.textContent = idle; });
      }
      row.appendChild(b);
    }
    root.appendChild(row);
  }
  if (idle || places.some((p) => p.note)) root.appendChild(note);
  return () => { if (timer) clearTimeout(timer); };
}
"""


# ----------------------------------------------------------------------------------------------
# Slots: a game's board() may leave a place its decision input later draws into (the table a
# Katana target is clicked on, the map a card is placed on, the panel beside it). A slot lives
# for one script run only: an input drawn in another run (or with no board) finds none. Where
# the page draws the input before the board, the input draws that part itself and claims it.
# ----------------------------------------------------------------------------------------------
_RUN = threading.local()


def _run_marker():
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx
    ctx = get_script_run_ctx(suppress_warning=True)
    return None if ctx is None else ctx.cursors     # a new dict at every script run


def reserve(name: str, *, replace: bool = True, **info):
    """A slot an input may draw into later in this run: an ``st.empty()`` whose one element
    the input replaces (``replace``), else an ``st.container()`` it adds to. ``info`` is kept
    with it (e.g. the observation the slot's drawing was made from)."""
    slot = st.empty() if replace else st.container()
    _this_run()[name] = (slot, info)
    return slot


def reserved(name: str):
    """(slot, info) reserved under ``name`` in this script run, else None."""
    return _this_run().get(name)


def claim(name: str) -> None:
    """An input drew part ``name`` itself (no board had left a slot for it before): the
    board, drawn later in this run, leaves that part out instead of drawing it twice."""
    _this_run()[("claimed", name)] = True


def claimed(name: str) -> bool:
    return bool(_this_run().get(("claimed", name)))


def _this_run() -> dict:
    marker = _run_marker()
    if marker is None:
        return {}
    if getattr(_RUN, "marker", None) is not marker:
        _RUN.marker, _RUN.slots = marker, {}
    return _RUN.slots
