"""What ships, as ``boardlab nets`` prints it: one row per network of the manifest, as a
text table or as the markdown table of docs/learning.md, "What ships" (tests/test_manifest.py
holds the docs to this output, so the table is never copied by hand)."""
from __future__ import annotations

from . import manifest

__all__ = ["configs_words", "strength_words", "text_table", "markdown_table"]


def configs_words(entry: dict) -> str:
    """The configurations in words: "2 players", "solo (chasing)", "4 players (track length
    18)", several joined by "; "."""
    out = []
    for config in entry["configs"]:
        n = config["players"]
        rest = [(f"{v}" if k == "solo" else f"{k} {v}").replace("_", " ")
                for k, v in config.items() if k != "players"]
        words = "solo" if n == 1 else f"{n} players"
        out.append(words + (f" ({', '.join(rest)})" if rest else ""))
    return "; ".join(out)


def settings_words(entry: dict, code: str = "") -> str:
    s = entry["settings"]
    return ", ".join(f"{code}{k}={str(v)}{code}" for k, v in s.items()) or "defaults"


def _figure(m: dict) -> str:
    """The figure with its interval: "90.5% [85.6, 93.8]", "87 of 100 [79.0, 92.2]"; numbers
    as the manifest writes them (70.0 stays 70.0, 194 stays 194)."""
    unit = "%" if m["unit"] == "%" else (f" {m['unit']}" if m["unit"] else "")
    lo_hi = f" [{str(m['interval'][0])}, {str(m['interval'][1])}]" if m["interval"] else ""
    return f"{str(m['value'])}{unit}{lo_hi}"


def strength_words(m: dict, bold: str = "") -> str:
    """A measurement in one line: what was compared, at what budget, over which games, and
    the figure (with the match's record when it is one)."""
    games = f"{m['games']} games" if m["games"] is not None else ""
    if m["seeds"]:
        games = f"{games} ({m['seeds']})" if games else m["seeds"]
    record = ""
    if m["wins"] is not None and m["losses"] is not None:
        draws = m["draws"] or 0
        record = f"{m['wins']}-{m['losses']}" + (
            f" ({draws} draw{'s' if draws > 1 else ''})" if draws else "") + ", "
    head = ", ".join(x for x in (m["compared"], m["budget"], games) if x)
    text = f"{head}: {m['figure']} {bold}{record}{_figure(m)}{bold}"
    return "; ".join([text, *m["also"]])


def _size(entry: dict) -> str:
    return f"{round(entry['size'] / 1000)} kB"


def text_table(folder) -> str:
    """The rows of what ships in ``folder``, aligned for a terminal."""
    head = ("game", "configurations", "file", "size", "settings", "strength (newest)")
    rows = [head]
    for e in manifest.read(folder)["networks"]:
        m = e["strength"][-1] if e["strength"] else None
        strength = (f"{_figure(m)} ({m['figure']}), {m['budget']}"
                    + (f", {m['games']} games" if m["games"] is not None else "")
                    if m else "not measured")
        rows.append((e["game"], configs_words(e), e["file"], _size(e), settings_words(e),
                     strength))
    widths = [max(len(r[k]) for r in rows) for k in range(len(head) - 1)]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1]
                     for r in rows)


def _made_by(entry: dict) -> str:
    b = entry["made_by"]
    parts = [f"run `{b['run']}`" if b["run"] else "run not recorded"]
    parts += [f"seed {b['seed']}"] if b["seed"] is not None else []
    parts += [f"generation {b['generation']}"] if b["generation"] is not None else []
    text = ", ".join(parts)
    s = b["started_from"]
    if s:
        if s["run"]:
            what = f"run `{s['run']}`'s network"
            detail = [f"seed {s['seed']}"] if s["seed"] is not None else []
            detail += [f"generation {s['generation']}"] if s["generation"] is not None else []
            what += f" ({', '.join(detail)})" if detail else ""
        elif s["file"]:
            what = f"`{s['file']}`"
        else:
            what = f"the network of sha256 {s['sha256'][:12]}…" if s["sha256"] else \
                "another network (not recorded)"
        text += f", begun from {what}"
    return text


def _links(entry: dict) -> str:
    b = entry["made_by"]
    links = ([f"[commands and generations]({b['record']})"] if b["record"] else []) + \
        ([f"[plot]({b['plot']})"] if b["plot"] else [])
    return ", ".join(links)


def markdown_table(folder) -> str:
    """docs/learning.md's table of what ships (links relative to docs/)."""
    lines = ["| configuration | file (size) | settings | made by (`boardlab train`) | "
             "strength, the newest measurement | the run |",
             "|---|---|---|---|---|---|"]
    for e in manifest.read(folder)["networks"]:
        strength = strength_words(e["strength"][-1], bold="**") if e["strength"] else \
            "not measured"
        lines.append(f"| {e['game']}, {configs_words(e)} | `{e['file']}` ({_size(e)}) | "
                     f"{settings_words(e, '`')} | {_made_by(e)} | {strength} | {_links(e)} |")
    return "\n".join(lines) + "\n"
