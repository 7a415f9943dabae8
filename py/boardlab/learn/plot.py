"""The strength-by-generation plot of a training run, as a hand-written SVG: no plotting
library needed, the same bytes for the same log, and it shows inline in the docs."""
from __future__ import annotations

import math
from html import escape

__all__ = ["strength_svg"]

#: What a plot can show of each generation: the log.csv columns of its figure, its
#: interval and par, and the axis title. "score": the share of games won (a match, or a
#: solo game won or lost); "return": a solo gate by return, the mean return on the same
#: deals as plain ISMCTS (the game's return scale; par is plain's mean).
METRICS = {
    "score": ("strength_score", "strength_lo", "strength_hi", "strength_par",
              "score vs plain ISMCTS"),
    "return": ("strength_return", "strength_return_lo", "strength_return_hi",
               "strength_other_return", "mean return (plain ISMCTS: par)"),
}


def _ticks(lo: float, hi: float) -> list[float]:
    """About five round values spanning [lo, hi]."""
    step = 10 ** math.floor(math.log10((hi - lo) / 5))
    step *= next(m for m in (1, 2, 5, 10) if (hi - lo) / (step * m) <= 6)
    return [k * step for k in range(math.floor(lo / step), math.ceil(hi / step) + 1)]


def strength_svg(rows: list[dict], title: str, metric: str = "score") -> str:
    """Each generation's figure against plain ISMCTS with its 95% interval (filled: kept as
    best by its gate; hollow: rejected) and par (dashed): an equal agent's score, or plain
    ISMCTS's mean return on the same deals."""
    key, key_lo, key_hi, key_par, axis = METRICS[metric]
    pts = [r for r in rows if r.get(key) not in ("", None)]
    w, h, left, right, top, bottom = 640, 360, 56, 20, 52, 48
    gens = [int(r["generation"]) for r in pts] or [1]
    g_lo, g_hi = 0, max(max(gens), 1)
    if metric == "score":
        ticks, label = [k / 10 for k in range(0, 11, 2)], (lambda v: f"{v:.0%}")
    else:
        values = [float(r[k]) for r in pts for k in (key_lo, key_hi, key_par)] or [0.0, 1.0]
        span = max(values) - min(values) or 1.0
        ticks = _ticks(min(values) - span / 10, max(values) + span / 10)
        digits = max(0, -math.floor(math.log10(ticks[1] - ticks[0])))
        label = (lambda v: f"{v:.{digits}f}")
    v_lo, v_hi = ticks[0], ticks[-1]

    def x(g):
        return left + (g - g_lo) / (g_hi - g_lo) * (w - left - right)

    def y(v):
        return top + (v_hi - float(v)) / (v_hi - v_lo) * (h - top - bottom)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w / 2}" y="20" text-anchor="middle">{escape(title)}</text>']
    for v in ticks:
        out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{w - right}" y2="{y(v):.1f}" '
                   f'stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{label(v)}</text>')
    step = max(1, (g_hi - g_lo) // 10)
    for g in range(g_lo, g_hi + 1, step):
        out.append(f'<text x="{x(g):.1f}" y="{h - bottom + 16}" text-anchor="middle">{g}</text>')
    out.append(f'<text x="{w / 2}" y="{h - 10}" text-anchor="middle">generation</text>')
    out.append(f'<text x="14" y="{(top + h - bottom) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 14 {(top + h - bottom) / 2})">{axis}</text>')
    if pts:
        par = " ".join(f"{x(int(r['generation'])):.1f},{y(r[key_par]):.1f}" for r in pts)
        out.append(f'<polyline points="{par}" fill="none" stroke="gray" stroke-dasharray="4 3"/>')
        line = " ".join(f"{x(int(r['generation'])):.1f},{y(r[key]):.1f}" for r in pts)
        out.append(f'<polyline points="{line}" fill="none" stroke="steelblue"/>')
    for r in pts:
        gx = x(int(r["generation"]))
        out.append(f'<line x1="{gx - 12:.1f}" y1="{y(r[key_par]):.1f}" x2="{gx + 12:.1f}" '
                   f'y2="{y(r[key_par]):.1f}" stroke="gray" stroke-dasharray="4 3"/>')  # one alone too
        out.append(f'<line x1="{gx:.1f}" y1="{y(r[key_lo]):.1f}" x2="{gx:.1f}" '
                   f'y2="{y(r[key_hi]):.1f}" stroke="black"/>')
        fill = "steelblue" if str(r.get("kept")) == "1" else "white"
        out.append(f'<circle cx="{gx:.1f}" cy="{y(r[key]):.1f}" r="4" '
                   f'fill="{fill}" stroke="steelblue"/>')
    legend = ("par (an equal agent)" if metric == "score"
              else "plain ISMCTS on the same deals")
    out.append(f'<text x="{w / 2}" y="38" text-anchor="middle" font-size="10">filled: kept '
               f'as best; hollow: rejected; dashed: {legend}</text>')   # not over the axis
    if not pts:
        out.append(f'<text x="{w / 2}" y="{h / 2}" text-anchor="middle">no network measured '
                   f'yet</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
