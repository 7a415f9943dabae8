"""The strength-by-generation plot of a training run, as a hand-written SVG: no plotting
library needed, the same bytes for the same log, and it shows inline in the docs."""
from __future__ import annotations

from html import escape

__all__ = ["strength_svg"]


def strength_svg(rows: list[dict], title: str) -> str:
    """Each generation's score against plain ISMCTS with its 95% interval (filled: kept as
    best by its gate; hollow: rejected) and par, an equal agent's score (dashed)."""
    pts = [r for r in rows if r.get("strength_score") not in ("", None)]
    w, h, left, right, top, bottom = 640, 360, 56, 20, 52, 48
    gens = [int(r["generation"]) for r in pts] or [1]
    g_lo, g_hi = 0, max(max(gens), 1)

    def x(g):
        return left + (g - g_lo) / (g_hi - g_lo) * (w - left - right)

    def y(v):
        return top + (1 - float(v)) * (h - top - bottom)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w / 2}" y="20" text-anchor="middle">{escape(title)}</text>']
    for k in range(0, 11, 2):                       # score axis, 0-100%
        v = k / 10
        out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{w - right}" y2="{y(v):.1f}" '
                   f'stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{k * 10}%</text>')
    step = max(1, (g_hi - g_lo) // 10)
    for g in range(g_lo, g_hi + 1, step):
        out.append(f'<text x="{x(g):.1f}" y="{h - bottom + 16}" text-anchor="middle">{g}</text>')
    out.append(f'<text x="{w / 2}" y="{h - 10}" text-anchor="middle">generation</text>')
    out.append(f'<text x="14" y="{(top + h - bottom) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 14 {(top + h - bottom) / 2})">score vs plain ISMCTS</text>')
    if pts:
        par = " ".join(f"{x(int(r['generation'])):.1f},{y(r['strength_par']):.1f}" for r in pts)
        out.append(f'<polyline points="{par}" fill="none" stroke="gray" stroke-dasharray="4 3"/>')
        line = " ".join(f"{x(int(r['generation'])):.1f},{y(r['strength_score']):.1f}" for r in pts)
        out.append(f'<polyline points="{line}" fill="none" stroke="steelblue"/>')
    for r in pts:
        gx = x(int(r["generation"]))
        out.append(f'<line x1="{gx:.1f}" y1="{y(r["strength_lo"]):.1f}" x2="{gx:.1f}" '
                   f'y2="{y(r["strength_hi"]):.1f}" stroke="black"/>')
        fill = "steelblue" if str(r.get("kept")) == "1" else "white"
        out.append(f'<circle cx="{gx:.1f}" cy="{y(r["strength_score"]):.1f}" r="4" '
                   f'fill="{fill}" stroke="steelblue"/>')
    out.append(f'<text x="{w / 2}" y="38" text-anchor="middle" font-size="10">filled: kept '
               f'as best; hollow: rejected; dashed: par (an equal agent)</text>')   # not over the axis
    if not pts:
        out.append(f'<text x="{w / 2}" y="{h / 2}" text-anchor="middle">no network measured '
                   f'yet</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
