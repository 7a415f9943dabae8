"""Kyūshū position facts read off a real table (a random game's observation), and the same
facts as the Analyse form's text: shared by the position tests, the AppTest and the e2e."""
import random

from boardlab.games.kyushu import col_name


def play_to_selection(game, seed, round_, to_move=0):
    """A random game up to the Selection phase of `round_` with `to_move` to choose."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    while True:
        o = s.full_observation()
        if o["phase"] == "select" and o["round"] == round_ and o["current_player"] == to_move:
            return s
        assert not s.is_terminal()
        s.apply(rng.choice(list(s.legal_actions())))


def facts_of(obs):
    """The position facts a seat reads off the table (its observation)."""
    cards = []
    for m in obs["maps"]:
        cards.append([{"card": c["card"], "orientation": c["orientation"], "row": c["row"], "col": c["col"],
                       "layer": "under" if c["z"] < 0 else "over"} for c in m["cards"]])
    cells = [(m["seat"], c) for m in obs["maps"] for c in m["cells"]]
    to_move = obs["current_player"]
    facts = {
        "round": obs["round"], "hand": obs["hands"][obs["viewer"]], "maps": cards,
        "pick_boxes": [b["card"] for b in obs["pick_boxes"]], "to_move": to_move,
        "taken": obs["selected"][:to_move], "pool": obs["pool"], "discarded": obs["discarded"],
        "resources": [{"seat": p, "row": c["row"], "col": c["col"], "colour": c["resource"]}
                      for p, c in cells if c["resource"]],
        "tiles": [{"seat": p, "row": c["row"], "col": c["col"], "terrain": c["terrain"]}
                  for p, c in cells if c["tile"]],
        "travelers": [{k: t[k] for k in ("owner", "host", "row", "col", "active")} for t in obs["travelers"]["placed"]],
    }
    if obs["options"]["most_fewest"]:
        facts["most_fewest"] = [[m["card"], m["side"]] for m in sorted(obs["most_fewest"], key=lambda m: m["seats"][0])]
    return facts


def square(row: int, col: int) -> str:
    return f"{col_name(col)}{row + 1}"


def form_text(facts: dict, players: int) -> dict:
    """The Analyse form's text inputs (key suffix -> text) for `facts`."""
    short = {"horizontal": "h", "vertical": "v", "horizontal turned": "ht", "vertical turned": "vt"}
    out = {"hand": " ".join(map(str, facts["hand"])),
           "boxes": " ".join("-" if b is None else str(b) for b in facts["pick_boxes"]),
           "taken": " ".join(map(str, facts["taken"]))}
    for p in range(players):
        out[f"map{p}"] = "\n".join(f"{c['card']} {short[c['orientation']]} {square(c['row'], c['col'])}"
                                   + (" under" if c["layer"] == "under" else "") for c in facts["maps"][p])
        out[f"res{p}"] = ", ".join(f"{square(r['row'], r['col'])} {r['colour']}"
                                   for r in facts["resources"] if r["seat"] == p)
        out[f"tiles{p}"] = ", ".join(f"{square(t['row'], t['col'])} {t['terrain']}"
                                     for t in facts["tiles"] if t["seat"] == p)
    out["travelers"] = ", ".join(f"P{t['owner']} on P{t['host']} {square(t['row'], t['col'])}"
                                 + ("" if t["active"] else " covered") for t in facts["travelers"])
    out["mftext"] = ", ".join(f"{c} {s}" for c, s in facts.get("most_fewest", []))
    out["discarded"] = " ".join(map(str, facts["discarded"]))
    return out
