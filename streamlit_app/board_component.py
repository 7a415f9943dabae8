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
import dataclasses
from dataclasses import dataclass
from functools import partial

import streamlit as st

COMPONENT_NAME = "boardlab_board"
TRIGGER = "click"
CLICKED_KEY = "bl_board_clicked"    # the key of the board clicked, set before the script runs

MARKS = ("hint", "chosen")      # a ring on a place: the AI's hint, the player's current choice
ANIM_KINDS = ("slide", "drop", "flash")   # how a place that changed since the viewer's last
                                          # decision arrives (see Place.anim)


@dataclass(frozen=True)
class Place:
    """A place on the board. ``rect`` (x, y, w, h in the board SVG's viewBox) in the board
    layout, ``svg`` (a whole ``<svg>``) in the pieces layout. ``label`` is the short
    accessible name ("Blue 3: play B3"); ``tip`` the tooltip in words, shown on hover and on
    tap (what it costs and what it gives; a place with an effect must have one, and an inert
    place with a tip is drawn hoverable too); ``preview`` an SVG fragment drawn over the board
    while the place is hovered; ``note`` a line shown under the board meanwhile; ``caption``
    a line under a piece; ``mark`` a ring (:data:`MARKS`).

    ``anim``: how the place arrives when it changed since the viewer's last decision, animated
    once per new value (not again when the same position is drawn again), skippable by a
    click, never delaying input, off under ``prefers-reduced-motion``:
    ``{"from": [x, y]}`` slides it from that viewBox point (a card from a seat's hand to the
    trick, a boat from its old harbour), ``{"kind": "drop"}`` drops it in, ``{"kind":
    "flash"}`` flashes it. The board animates the SVG element tagged
    ``data-place="<id>"`` if the drawing has one, else a highlight over ``rect``."""
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
            d["anim"] = check_anim(self.id, self.anim)
        return d


def check_anim(place_id: str, anim) -> dict:
    """``anim`` as the browser gets it: {"kind": "slide", "from": [x, y]}, {"kind": "drop"}
    or {"kind": "flash"}; ValueError naming the place for anything else."""
    if not isinstance(anim, dict):
        raise ValueError(f"board: place {place_id!r} anim must be a dict, got {anim!r}")
    kind = anim.get("kind", "slide" if "from" in anim else None)
    unknown = set(anim) - {"kind", "from"}
    if kind not in ANIM_KINDS or unknown:
        raise ValueError(f"board: place {place_id!r} has unknown anim {anim!r} "
                         f"(kinds: {', '.join(ANIM_KINDS)}; keys: kind, from)")
    if kind == "slide":
        frm = anim.get("from")
        if not (isinstance(frm, (list, tuple)) and len(frm) == 2
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in frm)):
            raise ValueError(f"board: place {place_id!r} anim 'from' must be [x, y], "
                             f"got {frm!r}")
        return {"kind": "slide", "from": [round(float(frm[0]), 2), round(float(frm[1]), 2)]}
    if "from" in anim:
        raise ValueError(f"board: place {place_id!r} anim kind {kind!r} takes no 'from'")
    return {"kind": kind}


# An SVG id and a reference to one (url(#x), href="#x"): one page holds many boards, and a
# reference resolves to the first element of that id in the whole page, perhaps in a hidden tab
# (where a gradient paints nothing), so every board's ids get a prefix of their own.
_SVG_ID = re.compile(r"""(?<![\w-])id=(['"])([^'"]+)\1""")
_SVG_REF = re.compile(r"""(url\(\s*['"]?#|(?<![\w-])(?:xlink:)?href=['"]#)([^)'"\s]+)""")


def scope_prefix(name: str) -> str:
    """The id prefix of the board (or piece) ``name`` (e.g. its key): id characters only."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", str(name)) + "--"


def scope_ids(text: str, prefix: str) -> str:
    """``text`` (an SVG or a fragment drawn over one) with every id and every reference to
    an id given ``prefix``: two boards drawn from the same pictures share no id."""
    if not prefix or not text:
        return text
    text = _SVG_ID.sub(lambda m: f"id={m.group(1)}{prefix}{m.group(2)}{m.group(1)}", text)
    return _SVG_REF.sub(lambda m: f"{m.group(1)}{prefix}{m.group(2)}", text)


def scoped(places, svg: str | None, scope: str):
    """(places, svg) with their ids under the prefix of ``scope`` (a board's key): the board
    SVG and the previews drawn over it share one prefix, each piece has its own."""
    if not scope:
        return list(places), svg
    board = scope_prefix(scope)
    out = [dataclasses.replace(p, preview=scope_ids(p.preview, board),
                               svg=scope_ids(p.svg, scope_prefix(f"{scope}-{p.id}")))
           for p in places]
    return out, scope_ids(svg, board)


def board_data(places, svg: str | None = None, *, interactive: bool = True, note: str = "",
               max_width: int | None = None, piece_width: int | None = None,
               anim_key: str = "", scope: str = "", focus=()) -> dict:
    """The JSON the component draws (also what the tests read). Raises ValueError for places
    that cannot be drawn: duplicate ids, a board place without ``rect``, a piece without
    ``svg``, an unknown mark, a ``focus`` id that is no place. ``scope`` (the board's key): the
    SVG ids get its prefix (see :func:`scope_ids`)."""
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
        if not isinstance(p.tip, str):
            raise ValueError(f"board: place {p.id!r} tip must be text, got {p.tip!r}")
    focus = [str(f) for f in focus or ()]
    unknown = sorted(set(focus) - set(ids))
    if unknown:
        raise ValueError(f"board: focus names no place: {', '.join(unknown)}")
    places, svg = scoped(places, svg, scope)
    data = {"interactive": bool(interactive), "places": [p.as_data() for p in places]}
    if svg is not None:
        data["svg"] = svg
    if note:
        data["note"] = note
    if max_width:
        data["max_width"] = int(max_width)
    if piece_width:
        data["piece_width"] = int(piece_width)
    if anim_key and any(p.anim for p in places):
        data["anim_key"] = str(anim_key)
    if focus:
        data["focus"] = focus
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
          note: str = "", max_width: int | None = None, piece_width: int | None = None,
          anim_key: str | None = None, focus=()):
    """Draw a clickable board; returns the id of the legal place clicked in this run, or None.

    ``focus``: the ids of the places the decision is about when none of them is lit (the
    viewer's own seat, the pick boxes): a board drawn larger in a box that scrolls (its text
    readable) opens on its lit places, else on these, else on its middle.

    Give a ``key`` that changes when the decision changes (e.g. with the move number): a click
    then belongs to one decision only. ``anim_key`` names the moment the places' ``anim``
    belong to (default: the one the page set with :func:`set_anim_key`, e.g. the game and the
    viewer's last decision): a place animates once per (anim_key, place), so the same move
    later in the game animates again, a redraw of the same position does not."""
    places = list(places)
    run = _this_run()
    if anim_key is None:
        anim_key = run.get("anim_key", "")
    marks = run.get("marks") or {}
    if marks:
        places = [dataclasses.replace(p, mark=marks[p.id]) if p.id in marks and p.mark is None else p
                  for p in places]
    data = board_data(places, svg, interactive=interactive, note=note, max_width=max_width,
                      piece_width=piece_width, anim_key=anim_key, scope=key, focus=focus)
    arrow = run.get("arrow")
    rects = {p.id: p.rect for p in places if p.rect is not None}
    if svg is not None and arrow and all(a in rects for a in arrow):
        data["arrow"] = list(arrow)
    result = _component()(key=key, data=data, on_click_change=partial(_clicked, key),
                          width="stretch", height="content")
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


def _clicked(key: str) -> None:
    """The trigger's callback (a trigger needs one to be registered), run before the script:
    it tells the page which board was clicked (see :func:`take_clicked`)."""
    st.session_state[CLICKED_KEY] = key


def take_clicked() -> str | None:
    """The key of the board clicked since the last run, once (None: no board click)."""
    return st.session_state.pop(CLICKED_KEY, None)


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
.blb { font-family: Helvetica, Arial, sans-serif; position: relative; }
.blb-stage { position: relative; width: 100%; line-height: 0; }
.blb-stage > svg { display: block; width: 100%; height: auto; max-width: none !important; }
.blb-place {
  position: absolute; padding: 0; margin: 0; border: 0; border-radius: 6px; cursor: pointer;
  background: rgba(255, 214, 64, .16); box-shadow: inset 0 0 0 2px rgba(227, 168, 27, .95);
  transition: background .1s, box-shadow .1s;
}
.blb-place:hover, .blb-place:focus-visible, .blb-place.blb-armed {
  background: rgba(255, 214, 64, .38); box-shadow: inset 0 0 0 3px #b8860b; outline: none;
}
.blb-info { position: absolute; border-radius: 4px; cursor: help; }
.blb-info:hover, .blb-info:focus-visible, .blb-info.blb-armed {
  background: rgba(80, 110, 200, .10); box-shadow: inset 0 0 0 1px rgba(80, 110, 200, .6);
  outline: none; }
.blb-place.blb-mark-hint { box-shadow: inset 0 0 0 3px #7c3aed, 0 0 0 3px rgba(124, 58, 237, .35); }
.blb-place.blb-mark-chosen { box-shadow: inset 0 0 0 3px #1f7a3a; }
.blb-preview, .blb-fx, .blb-marks { pointer-events: none; }
.blb-note { min-height: 1.3em; margin: 4px 2px 0; font-size: .9rem; line-height: 1.3;
  color: #3b3f4a; }
.blb-tip { position: absolute; z-index: 20; max-width: min(300px, 92%); padding: 6px 9px;
  border-radius: 6px; background: #23262e; color: #fff; font-size: .8rem; line-height: 1.35;
  white-space: pre-line; pointer-events: none; box-shadow: 0 3px 10px rgba(0,0,0,.3); }
.blb-tip[hidden] { display: none; }
.blb-pieces { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-end; }
.blb-slot { width: var(--blb-piece-w, 84px); }
.blb-piece { display: flex; flex-direction: column; align-items: center; gap: 3px;
  width: 100%; padding: 0; margin: 0; border: 0; background: none;
  cursor: pointer; font: inherit; color: #3b3f4a; border-radius: 10px; }
.blb-piece > svg { display: block; width: 100%; height: auto; border-radius: 9px;
  transition: transform .12s, box-shadow .12s; }
.blb-piece.blb-legal > svg { box-shadow: 0 0 0 2px rgba(227, 168, 27, .9); }
.blb-piece.blb-legal:hover > svg, .blb-piece.blb-legal:focus-visible > svg,
.blb-piece.blb-armed > svg {
  transform: translateY(-6px); box-shadow: 0 0 0 3px #e3a81b, 0 6px 10px rgba(0,0,0,.25); }
.blb-piece:focus-visible { outline: none; }
.blb-piece[disabled] { cursor: default; pointer-events: none; }   /* its slot shows the tip */
.blb-slot.blb-has-tip .blb-piece[disabled] { cursor: help; }
.blb-piece.blb-illegal > svg { opacity: .38; filter: grayscale(.45); }
.blb-piece.blb-mark-hint > svg { box-shadow: 0 0 0 4px #7c3aed, 0 0 12px 3px rgba(124,58,237,.55); }
.blb-piece-cap { font-size: .75rem; line-height: 1.15; text-align: center; min-height: 1.15em; }
.blb-piece.blb-mark-hint .blb-piece-cap { color: #6d28d9; font-weight: 700; }
.blb-sent .blb-place, .blb-sent .blb-piece { pointer-events: none; }
.blb-sent { opacity: .75; transition: opacity .2s; }
.blb-scroll.blb-zoomed, .blb-pieces.blb-zoomed { overflow: auto; overscroll-behavior: contain;
  -webkit-overflow-scrolling: touch; border-radius: 6px; box-shadow: inset 0 0 0 1px #d6d9e0; }
.blb-scroll.blb-zoomed > .blb-stage { max-width: none !important; }
.blb-pieces.blb-zoomed { flex-wrap: nowrap; padding: 6px 4px 2px; }
.blb-pieces.blb-zoomed > .blb-slot { flex: 0 0 auto; }
@media (max-width: 640px) {
  .blb-phone-hide { display: none; }    /* a drawing's labels too small to read on a phone */
  .blb-pieces { gap: 5px; }
  .blb-slot { width: var(--blb-piece-w-phone, 52px); }
  .blb-piece-cap { font-size: .65rem; }
}
"""

JS = r"""
const SVGNS = "http://www.w3.org/2000/svg";

// --- animations: once per new value, skippable, never in the way of a click ------------------
const SEEN_KEY = "blb-anim-seen", SEEN_MAX = 400;
const seenMem = new Set();          // when sessionStorage is not available
const running = new Set();          // Animation objects still playing
const DURATION = { slide: 450, drop: 350, flash: 600 };

function seenList() {
  try { return JSON.parse(sessionStorage.getItem(SEEN_KEY) || "[]"); } catch (e) { return null; }
}
function firstTime(key) {           // true once per key in this tab (a reload keeps the list)
  const list = seenList();
  if (list === null) {
    if (seenMem.has(key)) return false;
    seenMem.add(key);
    return true;
  }
  if (list.includes(key)) return false;
  list.push(key);
  try { sessionStorage.setItem(SEEN_KEY, JSON.stringify(list.slice(-SEEN_MAX))); } catch (e) {}
  return true;
}
function skipAll() { for (const a of [...running]) { try { a.finish(); } catch (e) {} } }
if (!window.__blbSkipper) {         // a click or a key anywhere ends every animation at once
  window.__blbSkipper = true;
  document.addEventListener("pointerdown", skipAll, true);
  document.addEventListener("keydown", skipAll, true);
}
const reducedMotion = () => !!(window.matchMedia &&
  window.matchMedia("(prefers-reduced-motion: reduce)").matches);

function play(el, frames, ms, after) {
  if (!el.animate) { if (after) after(); return; }
  const a = el.animate(frames, { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" });
  running.add(a);
  const done = () => { running.delete(a); if (after) after(); };
  a.onfinish = done;
  a.oncancel = done;
}

function animate(root, data, svg, pieceOf) {
  const log = (window.__blbAnimLog = window.__blbAnimLog || []);
  let n = 0;
  for (const p of data.places || []) {
    if (!p.anim) continue;
    const key = (data.anim_key || "") + "|" + JSON.stringify([p.id, p.anim, p.rect, p.label]);
    if (!firstTime(key)) continue;
    const kind = p.anim.kind;
    const reduced = reducedMotion();
    log.push({ id: p.id, kind: kind, reduced: reduced });
    if (reduced) continue;
    n++;
    const ms = DURATION[kind] || 450;
    if (svg && p.rect) {
      const [x, y, w, h] = p.rect;
      let target = null;
      try { target = svg.querySelector('[data-place="' + CSS.escape(p.id) + '"]'); } catch (e) {}
      let wrap, fx = null;
      if (target && target.parentNode) {      // the game's own drawing of the place moves
        wrap = document.createElementNS(SVGNS, "g");
        target.parentNode.insertBefore(wrap, target);
        wrap.appendChild(target);
      } else {                                // else a highlight over its rectangle
        wrap = fx = document.createElementNS(SVGNS, "g");
        fx.setAttribute("class", "blb-fx");
        const r = document.createElementNS(SVGNS, "rect");
        for (const [k, v] of [["x", x], ["y", y], ["width", w], ["height", h],
                              ["rx", Math.min(w, h) * .12], ["fill", "rgba(255,214,64,.45)"],
                              ["stroke", "#e3a81b"], ["stroke-width", Math.max(2, w * .03)]])
          r.setAttribute(k, v);
        fx.appendChild(r);
        svg.appendChild(fx);
      }
      const end = fx ? () => fx.remove() : null;
      if (kind === "slide") {
        const dx = p.anim.from[0] - (x + w / 2), dy = p.anim.from[1] - (y + h / 2);
        play(wrap, [{ transform: `translate(${dx}px, ${dy}px)`, opacity: fx ? 1 : .85 },
                    { transform: "translate(0px, 0px)", opacity: fx ? .6 : 1 }], ms, end);
      } else if (kind === "drop") {
        const lift = Math.max(h * .5, 12);
        play(wrap, [{ transform: `translate(0px, ${-lift}px)`, opacity: 0 },
                    { transform: "translate(0px, 0px)", opacity: 1 }], ms, end);
      } else {
        play(wrap, [{ opacity: 1 }, { opacity: .25 }, { opacity: 1 }, { opacity: .25 },
                    { opacity: 1 }], ms, end);
      }
    } else {
      const el = pieceOf(p.id);
      if (!el) continue;
      if (kind === "flash") {
        play(el, [{ filter: "brightness(1.6)" }, { filter: "none" }, { filter: "brightness(1.6)" },
                  { filter: "none" }], ms);
      } else {
        play(el, [{ transform: "translateY(-24px)", opacity: 0 },
                  { transform: "translateY(0)", opacity: 1 }], ms);
      }
    }
  }
  root.dataset.animated = String(n);
}

// --- tooltips: hover or focus; on a touch screen a first tap shows, a second one plays -------
const touchOnly = () => !!(window.matchMedia && window.matchMedia("(hover: none)").matches);

// --- a board reads without tapping: no text of a drawing under MIN_PX (10 on a phone, 9 on a
// larger screen) ----------------------------------------------------------------------------
// A board whose smallest text would render smaller is drawn larger (a zoom) in a box of the
// height the board had, as wide as its column, which scrolls both ways (the page around keeps
// its layout) and opens on what the decision is about (see openOn); pieces (cards) are drawn
// wider in one row that scrolls sideways. On a larger screen a board short of MIN_PX by less
// than SLACK (a window a little narrower than 1440 px) stays whole in its column: a box that
// hides a sliver of it would read worse.
const PHONE_MIN_PX = 10, MIN_PX = 9, SLACK = 1.1;
const phone = () => !!(window.matchMedia && window.matchMedia("(max-width: 640px)").matches);
const minPx = () => (phone() ? PHONE_MIN_PX : MIN_PX);
const zoomBelow = () => (phone() ? PHONE_MIN_PX : MIN_PX / SLACK);
function smallestText(el) {         // the smallest rendered font size (CSS px) of its SVG text
  let min = Infinity;
  for (const t of el.querySelectorAll("svg text")) {
    if (!t.textContent.trim() || !t.getClientRects().length) continue;   // hidden: not read
    const m = t.getScreenCTM(), size = parseFloat(getComputedStyle(t).fontSize);
    const px = m ? size * Math.hypot(m.c, m.d) : 0;
    if (px > 0) min = Math.min(min, px);
  }
  return min;
}
// Where a zoomed board opens: on the lit places (the view that holds the most of them, centred
// on those it holds), else on the places the game names as the decision's subject
// (``data.focus``: the viewer's own seat and hand, the pick boxes), else on the board's middle
// (never on a corner of empty sea).
function subject(data) {             // the places a zoomed board opens on
  const places = (data.places || []).filter((p) => p.rect);
  const lit = data.interactive ? places.filter((p) => p.legal) : [];
  const focus = new Set(data.focus || []);
  return lit.length ? lit : places.filter((p) => focus.has(p.id));
}
function openOn(scroller, stage, data, vb) {
  const W = stage.offsetWidth, H = stage.offsetHeight;
  const cw = scroller.clientWidth, ch = scroller.clientHeight;
  const box = ([x, y, w, h]) => ({ x: (x - vb.x) / vb.width * W, y: (y - vb.y) / vb.height * H,
                                   w: w / vb.width * W, h: h / vb.height * H });
  const targets = subject(data).map((p) => box(p.rect));
  const clampX = (x) => Math.max(0, Math.min(x, W - cw));
  const clampY = (y) => Math.max(0, Math.min(y, H - ch));
  // a view on (x0, y0)-(x1, y1): centred on it, or from its top left if it is larger
  const view = (x0, y0, x1, y1) => [clampX(x1 - x0 > cw ? x0 : (x0 + x1 - cw) / 2),
                                    clampY(y1 - y0 > ch ? y0 : (y0 + y1 - ch) / 2)];
  const inside = ([x, y], t) => t.x >= x - 1 && t.y >= y - 1 && t.x + t.w <= x + cw + 1 &&
                                t.y + t.h <= y + ch + 1;
  let at = [clampX((W - cw) / 2), clampY((H - ch) / 2)];       // the middle
  let best = -1;
  for (const t of targets) {
    const v = view(t.x, t.y, t.x + t.w, t.y + t.h);
    const held = targets.filter((u) => inside(v, u));
    if (held.length <= best) continue;
    best = held.length;
    const edge = (f, pick) => f(...held.map(pick));       // the places it holds, centred
    const c = view(edge(Math.min, (u) => u.x), edge(Math.min, (u) => u.y),
                   edge(Math.max, (u) => u.x + u.w), edge(Math.max, (u) => u.y + u.h));
    at = held.every((u) => inside(c, u)) ? c : v;
  }
  scroller.scrollLeft = at[0];
  scroller.scrollTop = at[1];
}
function zoomBoard(root, scroller, stage, data, vb) {
  const { width, height } = stage.getBoundingClientRect();
  const min = smallestText(stage), need = minPx();
  if (!(width > 0) || !(min < zoomBelow())) return;
  scroller.style.height = Math.round(height) + "px";
  stage.style.width = Math.ceil(width * (need + .3) / min) + "px";
  scroller.classList.add("blb-zoomed");
  // the same decision drawn again keeps where the player had scrolled; a new one opens on
  // its subject
  const about = JSON.stringify(subject(data).map((p) => p.id));
  const kept = root.__blbScroll;
  if (kept && kept.about === about) {
    scroller.scrollLeft = kept.at[0];
    scroller.scrollTop = kept.at[1];
  } else if (vb && vb.width > 0 && vb.height > 0) {
    openOn(scroller, stage, data, vb);
  }
  scroller.addEventListener("scroll", () => {
    // (a scroll reported after the board was drawn again comes from the box taken out of
    // the page, which reads 0, 0: the corner of the board)
    if (!scroller.isConnected) return;
    root.__blbScroll = { about: about, at: [scroller.scrollLeft, scroller.scrollTop] };
  }, { passive: true });
}
function zoomPieces(row) {
  const first = row.querySelector(".blb-slot");
  const width = first ? first.getBoundingClientRect().width : 0;
  const min = smallestText(row), need = minPx();
  if (!(width > 0) || !(min < zoomBelow())) return;
  const wide = Math.ceil(width * (need + .3) / min) + "px";
  row.style.setProperty(phone() ? "--blb-piece-w-phone" : "--blb-piece-w", wide);
  row.classList.add("blb-zoomed");
}

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
  const tip = document.createElement("div");
  tip.className = "blb-tip";
  tip.setAttribute("role", "tooltip");
  tip.hidden = true;
  let armed = null;                            // touch: the element whose tip is shown
  const showTip = (el, p) => {
    if (!p.tip) { tip.hidden = true; return; }
    tip.textContent = p.tip;
    tip.hidden = false;
    const r = el.getBoundingClientRect(), box = root.getBoundingClientRect();
    const tw = tip.offsetWidth, th = tip.offsetHeight;
    let left = r.left - box.left + r.width / 2 - tw / 2;
    left = Math.max(0, Math.min(left, box.width - tw));
    let top = r.top - box.top - th - 6;
    if (r.top - th - 6 < 0) top = r.bottom - box.top + 6;   // no room above in the window
    tip.style.left = left + "px";
    tip.style.top = top + "px";
  };
  const unarm = () => { if (armed) armed.classList.remove("blb-armed"); armed = null; };
  const hideTip = () => { tip.hidden = true; unarm(); };
  // hover/focus show the tip (and the place's note); a tap on a touch screen arms the place
  // (its tip shows) and a second tap on it plays it
  const wire = (el, p, clickable, over) => {
    if (p.tip) { el.dataset.tip = p.tip; el.setAttribute("aria-description", p.tip); }
    const enter = () => { if (over) over(true); showTip(el, p); };
    const leave = () => { if (over) over(false); if (armed !== el) tip.hidden = true; };
    el.addEventListener("mouseenter", enter);
    el.addEventListener("focus", enter);
    el.addEventListener("mouseleave", leave);
    el.addEventListener("blur", leave);
    el.addEventListener("click", (ev) => {
      if (touchOnly() && p.tip && armed !== el) {
        unarm(); armed = el; el.classList.add("blb-armed"); enter();
        ev.preventDefault();
        return;
      }
      if (clickable) { hideTip(); send(p.id); }
    });
  };
  let svg = null, scroller = null, pieces = null;
  const pieceEls = {};

  if (data.svg) {
    const stage = document.createElement("div");
    stage.className = "blb-stage";
    if (data.max_width) stage.style.maxWidth = data.max_width + "px";
    stage.innerHTML = data.svg;
    scroller = document.createElement("div");
    scroller.className = "blb-scroll";
    scroller.appendChild(stage);
    root.appendChild(scroller);
    svg = stage.querySelector("svg");
    const vb = svg && svg.viewBox && svg.viewBox.baseVal;
    const overlay = document.createElementNS(SVGNS, "g");
    overlay.setAttribute("class", "blb-preview");
    if (svg) svg.appendChild(overlay);
    const show = (p) => { overlay.innerHTML = p.preview || ""; note.textContent = p.note || p.label; };
    const hide = () => { overlay.innerHTML = ""; note.textContent = idle; };
    const pos = (el, [x, y, w, h]) => {
      el.style.left = ((x - vb.x) / vb.width * 100) + "%";
      el.style.top = ((y - vb.y) / vb.height * 100) + "%";
      el.style.width = (w / vb.width * 100) + "%";
      el.style.height = (h / vb.height * 100) + "%";
    };
    if (svg && vb && vb.width > 0 && vb.height > 0) {
      const unit = vb.width / 160;
      const marks = document.createElementNS(SVGNS, "g");      // rings on places not clickable
      marks.setAttribute("class", "blb-marks");
      for (const p of places) {
        if (!p.mark || !p.rect || (live && p.legal)) continue;
        const [x, y, w, h] = p.rect, r = document.createElementNS(SVGNS, "rect");
        for (const [k, v] of [["x", x], ["y", y], ["width", w], ["height", h],
                              ["rx", Math.min(w, h) * .15], ["fill", "none"],
                              ["stroke", p.mark === "hint" ? "#7c3aed" : "#1f7a3a"],
                              ["stroke-width", unit * .9]])
          r.setAttribute(k, v);
        marks.appendChild(r);
      }
      const centre = (id) => {
        const q = places.find((pl) => pl.id === id);
        return q && q.rect ? [q.rect[0] + q.rect[2] / 2, q.rect[1] + q.rect[3] / 2] : null;
      };
      const a = data.arrow && centre(data.arrow[0]), b = data.arrow && centre(data.arrow[1]);
      if (a && b) {                              // the best move from one place to another
        const defs = document.createElementNS(SVGNS, "defs");
        // an id of this board's own: the first of a repeated id may be in a hidden tab
        const head = "blb-head-" + (window.__blbHeads = (window.__blbHeads || 0) + 1);
        defs.innerHTML = `<marker id="${head}" viewBox="0 0 10 10" refX="7" refY="5" ` +
          `markerWidth="4" markerHeight="4" orient="auto-start-reverse">` +
          `<path d="M0,0 L10,5 L0,10 z" fill="#7c3aed"/></marker>`;
        marks.appendChild(defs);
        const line = document.createElementNS(SVGNS, "line");
        for (const [k, v] of [["x1", a[0]], ["y1", a[1]], ["x2", b[0]], ["y2", b[1]],
                              ["stroke", "#7c3aed"], ["stroke-width", unit * 1.4],
                              ["stroke-linecap", "round"], ["opacity", ".85"],
                              ["marker-end", `url(#${head})`]])
          line.setAttribute(k, v);
        line.setAttribute("class", "blb-arrow");
        marks.appendChild(line);
      }
      svg.insertBefore(marks, overlay);
    }
    if (vb && vb.width > 0 && vb.height > 0) {
      // inert places with a tip first: a legal place drawn after them is on top
      for (const p of places) {
        if (!p.rect || !p.tip || (live && p.legal)) continue;
        const d = document.createElement("div");
        d.className = "blb-info";
        d.dataset.place = p.id;
        d.tabIndex = 0;
        d.setAttribute("role", "note");
        d.setAttribute("aria-label", p.label);
        pos(d, p.rect);
        wire(d, p, false, null);
        stage.appendChild(d);
      }
      for (const p of places) {
        if (!live || !p.legal || !p.rect) continue;   // inert: the drawing shows it
        const b = document.createElement("button");
        b.type = "button";
        b.className = "blb-place" + (p.mark ? " blb-mark-" + p.mark : "");
        b.dataset.place = p.id;
        b.setAttribute("aria-label", p.label);
        pos(b, p.rect);
        wire(b, p, true, (on) => (on ? show(p) : hide()));
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
      const slot = document.createElement("div");
      slot.className = "blb-slot" + (p.tip ? " blb-has-tip" : "");
      const b = document.createElement("button");
      b.type = "button";
      const clickable = live && p.legal;
      b.className = "blb-piece" + (clickable ? " blb-legal" : "") +
        (live && !p.legal ? " blb-illegal" : "") + (p.mark ? " blb-mark-" + p.mark : "");
      b.dataset.place = p.id;
      b.setAttribute("aria-label", p.label);
      b.disabled = !clickable;
      b.innerHTML = p.svg;
      const cap = document.createElement("span");
      cap.className = "blb-piece-cap";
      cap.textContent = p.caption || "";
      b.appendChild(cap);
      const over = (on) => { note.textContent = on ? (p.note || p.label) : idle; };
      if (clickable) {
        wire(b, p, true, over);
      } else if (p.tip) {                      // a disabled button gets no events: its slot does
        b.dataset.tip = p.tip;
        slot.tabIndex = 0;
        wire(slot, p, false, null);
      }
      pieceEls[p.id] = b;
      slot.appendChild(b);
      row.appendChild(slot);
    }
    root.appendChild(row);
    pieces = row;
  }
  if (idle || places.some((p) => p.note)) root.appendChild(note);
  root.appendChild(tip);
  const away = (ev) => { if (armed && !armed.contains(ev.target)) hideTip(); };
  document.addEventListener("pointerdown", away, true);
  if (scroller) zoomBoard(root, scroller, scroller.firstElementChild, data,
                          svg && svg.viewBox && svg.viewBox.baseVal);
  if (pieces) zoomPieces(pieces);
  requestAnimationFrame(() => animate(root, data, svg, (id) => pieceEls[id]));
  return () => {
    if (timer) clearTimeout(timer);
    document.removeEventListener("pointerdown", away, true);
  };
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


def set_anim_key(key: str) -> None:
    """The default ``anim_key`` of the boards drawn in the rest of this script run."""
    _this_run()["anim_key"] = str(key)


def set_marks(place_ids, mark: str = "hint", arrow=None, move=None) -> None:
    """Ring the places ``place_ids`` (of any board drawn in the rest of this script run that
    has them and marks them no other way) with ``mark``, e.g. the hint's or the analysis'
    best move; ``arrow`` = (from id, to id) also draws an arrow between two of its places
    (a move from one place to another). ``move`` = (state, action, line): that move itself
    (``line``: the same seat's next moves the search expects, as notations), for a game's
    drawing that shows it more than by rings (see :func:`marked_move`)."""
    if mark not in MARKS:
        raise ValueError(f"board: unknown mark {mark!r} (marks: {', '.join(MARKS)})")
    run = _this_run()
    run["marks"] = {str(pid): mark for pid in place_ids or ()}
    run["arrow"] = (str(arrow[0]), str(arrow[1])) if arrow else None
    run["move"] = move


def set_viewer_you(you: bool) -> None:
    """Whether the seat the boards drawn in the rest of this run are seen from is the person
    at the screen (default; its name reads "you") or only a seat the page is seen from (the
    Analyse page stepping through a game: the seat to move, maybe an AI seat)."""
    _this_run()["viewer_you"] = bool(you)


def viewer_word() -> str:
    """How a board names the seat it is seen from: "you", or "view" (see set_viewer_you)."""
    return "you" if _this_run().get("viewer_you", True) else "view"


def marked_places() -> dict:
    """{place id: mark} set by :func:`set_marks` in this script run: a game's drawing that
    is not a board (e.g. HTML beside it) rings the same ids itself."""
    return dict(_this_run().get("marks") or {})


def marked_move():
    """(state, action, line) of the best move marked in this script run (see
    :func:`set_marks`), or None: a game draws it on its board (e.g. a ghost of the card on
    the square it goes to)."""
    return _this_run().get("move")


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


def forget_drawn() -> None:
    """Forget this run's slots, claims, marks and animation key: the page is drawn again
    from the start in this run (what was drawn so far is replaced)."""
    _this_run().clear()


def _this_run() -> dict:
    marker = _run_marker()
    if marker is None:
        return {}
    if getattr(_RUN, "marker", None) is not marker:
        _RUN.marker, _RUN.slots = marker, {}
    return _RUN.slots
