"""Kyūshū in words: the tooltips of the Map cards, Starting Provinces, squares, resources,
terraforming tiles, travelers, pick boxes and Most/Fewest cards, the text of the decision
buttons and the "How to play" panel.

Everything a card shows (its six squares, its dual factories), the factory values, the
resources per colour and the Most/Fewest criteria come from the game's data file
(``data/kyushu.json``, the file the kernel's cards are built from): a stand-in edited there
changes the text here. Every function that reads it takes an optional ``data`` dict (the
default is that file).
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

TERRAIN_NAME = {"lake": "Lake", "forest": "Forest", "town": "Town", "hot_spring": "Hot spring",
                "fallow": "Fallow", "production": "Production", "factory": "Factory"}
#: The terraforming tile a discarded resource of each colour gives (rulebook, Terraforming).
TILE_OF = {"blue": "lake", "brown": "town", "grey": "forest", "purple": "hot_spring"}
SIDE_NAME = {"most": "Most", "fewest": "Fewest"}


@lru_cache(maxsize=1)
def game_data() -> dict:
    """The component data the kernel's cards are built from (boardlab/data/kyushu.json)."""
    return json.loads(resources.files("boardlab").joinpath("data/kyushu.json").read_text())


def face(card, data: dict | None = None) -> tuple[list[str], list[tuple[int, int]]]:
    """(six squares row-major as printed, dual pairs) of a Map card number or a province id
    such as "S3A"."""
    data = data or game_data()
    if isinstance(card, str) and card.startswith("S"):
        printed = data["starting_provinces"]["cards"][int(card[1:-1]) - 1][card[-1]]
    else:
        printed = data["map_cards"]["cards"][int(card) - 1]
    return printed["squares"][0] + printed["squares"][1], [tuple(p) for p in printed.get("duals", [])]


def face_squares(card, data: dict | None = None) -> list[tuple]:
    """(terrain, colour or None, factory value or None) of the six printed squares: a factory
    is worth the data's single value, or its dual value (two colours / one colour)."""
    data = data or game_data()
    values = data["factory_values"]
    squares, duals = face(card, data)
    out = []
    for i, sq in enumerate(squares):
        terrain, _, colour = sq.partition(":")
        value = None
        if terrain == "factory":
            value = values["single"]
            for a, b in duals:
                if i in (a, b):
                    value = values["dual_one_colour" if squares[a] == squares[b]
                                   else "dual_two_colours"]
        out.append((terrain, colour or None, value))
    return out


def square_name(terrain: str, colour=None, value=None) -> str:
    """"Forest", "Production (blue)", "Factory (grey, 3 points)"."""
    name = TERRAIN_NAME.get(terrain, terrain)
    if terrain == "production":
        return f"{name} ({colour})"
    if terrain == "factory":
        return f"{name} ({colour}, {value} points)" if value else f"{name} ({colour})"
    return name


def terrain_effect(terrain: str, colour=None, value=None) -> str:
    """What a square of this kind does, in a sentence."""
    if terrain == "lake":
        return ("Each lake area scores 3 points per square after its first; a lake may never "
                "be covered.")
    if terrain == "forest":
        return "2 points, and 1 more for each hot spring around it (diagonals too)."
    if terrain == "town":
        return "1 point per square of your largest area of towns."
    if terrain == "hot_spring":
        return ("1 point per forest in the 8 squares around it; a neighbour's traveler may "
                "stand on it.")
    if terrain == "fallow":
        return ("No points; terraform it (discard 2 resources) into a lake, town, forest or hot "
                "spring. The most Fallows left breaks a tie.")
    if terrain == "production":
        return (f"Receives a {colour} resource when it is placed; resources pay for cards and "
                f"terraforming, and feed {colour} factories at the end.")
    if terrain == "factory":
        worth = f"{value} points" if value else "2 to 4 points"
        return f"At the end it takes one {colour} resource from your map for {worth}."
    return ""


def card_kind(card) -> str:
    if isinstance(card, str) and card.startswith("S"):
        return f"Starting Province {card[1:-1]}, side {card[-1]}"
    return f"Map card {card}"


def card_tip(card, data: dict | None = None) -> str:
    """A Map card or Starting Province as printed (horizontal): its two rows, its dual
    factories, and a note if it is a stand-in."""
    data = data or game_data()
    squares = face_squares(card, data)
    _, duals = face(card, data)
    rows = [", ".join(square_name(*sq) for sq in squares[r * 3:r * 3 + 3]) for r in (0, 1)]
    text = f"{card_kind(card)}, top row: {rows[0]}; bottom row: {rows[1]}."
    for a, b in duals:
        ca, cb = squares[a][1], squares[b][1]
        colours = ca if ca == cb else f"{ca} + {cb}"
        text += f" Dual factory ({colours}): {squares[a][2]} points per resource."
    section = "starting_provinces" if isinstance(card, str) else "map_cards"
    if data[section].get("stand_in"):
        text += " (A stand-in: the rulebook does not print the cards.)"
    return text


def resource_tip(colour: str, where: str = "production") -> str:
    tile = TERRAIN_NAME[TILE_OF[colour]].lower()
    return (f"A {colour} resource ({'on a hot spring, brought by a traveler' if where == 'hot_spring' else 'on this square'}): "
            f"discard it to take a card from any pick box; discard two to terraform a Fallow "
            f"(a {colour} one gives a {tile} tile); at the end it can feed a {colour} factory.")


def tile_tip(terrain: str) -> str:
    colour = next(c for c, t in TILE_OF.items() if t == terrain)
    text = (f"{TERRAIN_NAME[terrain]} terraforming tile (from a {colour} resource) on a Fallow: "
            f"it counts as a {TERRAIN_NAME[terrain].lower()} for placing and scoring.")
    if terrain == "lake":
        return text + " A lake tile may never be covered."
    return text + " A card may cover it later (the tile goes back)."


def cell_tip(cell: dict, seat: int, travelers=(), data: dict | None = None) -> str:
    """A visible square of a map: its square, what it does, what is on it and its card."""
    terrain, colour, value = cell["terrain"], cell["colour"], cell["factory_value"]
    if cell.get("tile"):
        text = f"{cell['name']}: {tile_tip(terrain)} {terrain_effect(terrain)}"
    else:
        text = (f"{cell['name']}: {square_name(terrain, colour, value)}. "
                f"{terrain_effect(terrain, colour, value)}")
    if cell.get("resource"):
        text += " " + resource_tip(cell["resource"], terrain)
    for t in travelers:
        if t.get("row") == cell["row"] and t.get("col") == cell["col"]:
            text += f" {traveler_tip(t['owner'], seat)}"
    if cell.get("card") is not None:
        text += f" {card_tip(cell['card'], data)}"
    return text


def traveler_tip(owner: int, host: int) -> str:
    return (f"P{owner}'s traveler on P{host}'s hot spring: P{owner} scores 1 point per forest "
            "around it at the end (none once covered); its resource belongs to this map.")


def pool_tip(colour: str, count: int, data: dict | None = None) -> str:
    data = data or game_data()
    total = data["resources_per_colour"]
    return (f"{count} of the {total} {colour} resources are in the common pool; a new {colour} "
            f"production square takes one from here while it lasts.")


def pick_box_tip(box: dict, viewer, players: int, data: dict | None = None) -> str:
    """A pick box: whose it is, how the viewer may take its card, and the card."""
    owner, card = box["owner"], box["card"]
    if owner is not None:
        where = "Your pick box" if owner == viewer else f"P{owner}'s pick box"
    else:
        where = f"The middle pick box {box['label']}"
    side = None
    if viewer is not None:
        if owner == viewer:
            side = "own"
        elif players == 2 and owner is None:
            side = "left" if (box["label"] == "left of P0") == (viewer == 0) else "right"
        elif players > 2 and owner == (viewer + 1) % players:
            side = "left"
        elif players > 2 and owner == (viewer - 1) % players:
            side = "right"
    how = {"own": "you take it free and refill the box with any card of your hand",
           "left": "it is on your left: take it free if you refill the box with a higher card",
           "right": "it is on your right: take it free if you refill the box with a lower card",
           None: "you take it only by paying"}[side]
    text = f"{where}: "
    if card is None:
        return text + "empty."
    if viewer is None:
        how = ("its owner takes it free (refilling it with any card), a neighbour free by "
               "refilling it with a higher or a lower card, anyone by paying")
    text += (f"card {card}. {how[0].upper() + how[1:]}; or discard a resource from your map to "
             f"take it and refill with any card. {card_tip(card, data)}")
    return text


def most_fewest_tip(mf: dict, obs: dict | None = None, data: dict | None = None) -> str:
    """A Most/Fewest card between two neighbours: its criterion, how it scores, the counts."""
    data = data or game_data()
    a, b = mf["seats"]
    crit = data["most_fewest_cards"]["cards"][mf["card"] - 1][mf["side"]]
    text = (f"{SIDE_NAME[mf['side']]}/Fewest card {mf['card']} ({SIDE_NAME[mf['side']]} side) "
            f"between P{a} and P{b}: {crit}. Of those two, the one with the "
            f"{'most' if mf['side'] == 'most' else 'fewest'} scores 3 points; a tie scores 1 each")
    text += " (a Most card needs at least 1 to score)." if mf["side"] == "most" else "."
    if obs is not None and obs.get("scores"):
        key = "most_metrics" if mf["side"] == "most" else "fewest_metrics"
        va, vb = obs["scores"][a][key][mf["card"] - 1], obs["scores"][b][key][mf["card"] - 1]
        text += f" Now: P{a} {va}, P{b} {vb}."
    return text


def draw_pile_tip(size: int) -> str:
    return (f"Draw pile: {size} Map cards, face down. After round 6 each player gets 6 new "
            "cards from it.")


# ----------------------------------------------------------------------------------------------
# Decisions: the button text naming the effect, and its tooltip
# ----------------------------------------------------------------------------------------------
BOX_WORDS = {"own box": "your box", "left box": "the box on your left",
             "right box": "the box on your right"}
REFILL = {"own box": "refill it with any card", "left box": "refill it with a higher card",
          "right box": "refill it with a lower card"}


def _box_words(frm: str) -> str:
    if frm in BOX_WORDS:
        return BOX_WORDS[frm]
    m = re.fullmatch(r"middle box (left|right) of (P\d+)", frm)
    if m:
        return f"the middle box {m.group(1)} of {m.group(2)}"
    return f"{frm}"


def log_label(name: str) -> str:
    """The decision ``name`` as its button says it, an order starting with its verb, for the
    log to tell what was done ("P0 takes card 41 from their box ...")."""
    return decision_label(name).replace(", refill it with any card",
                                        " (to refill it with any card)")


def decision_label(name: str) -> str:
    """The words of a decision (``name``: its notation)."""
    m = re.fullmatch(r"province (\d)([AB])", name)
    if m:
        return f"Start with Province {m.group(1)} (side {m.group(2)})"
    m = re.fullmatch(r"pick box (\d+)", name)
    if m:
        return f"Put card {m.group(1)} in your pick box"
    m = re.fullmatch(r"take (\d+) from (own box|left box|right box)", name)
    if m:
        return f"Take card {m.group(1)} from {BOX_WORDS[m.group(2)]}, {REFILL[m.group(2)]}"
    m = re.fullmatch(r"pay to take (\d+) from (.+)", name)
    if m:
        return f"Pay a resource to take card {m.group(1)} from {_box_words(m.group(2))}"
    m = re.fullmatch(r"pay (\w+) at ([a-z]{1,2}\d+)", name)
    if m:
        return f"Pay the {m.group(1)} resource at {m.group(2)}"
    m = re.fullmatch(r"replace with (\d+)", name)
    if m:
        return f"Refill the box with card {m.group(1)}"
    m = re.fullmatch(r"orient (\d+) (.+) (over|under)", name)
    if m:
        return f"Lay card {m.group(1)} {m.group(2)}, {m.group(3)} the map"
    m = re.fullmatch(r"place (\d+) (.+) at ([a-z]{1,2}\d+) (over|under)", name)
    if m:
        return f"Place card {m.group(1)} {m.group(2)} at {m.group(3)} ({m.group(4)})"
    if name == "terraform":
        return "Terraform a Fallow (discard 2 resources)"
    m = re.fullmatch(r"discard (\w+) at ([a-z]{1,2}\d+)", name)
    if m:
        return f"Discard the {m.group(1)} resource at {m.group(2)}"
    m = re.fullmatch(r"choose (\w+) \((\w+) tile\)", name)
    if m:
        return f"Use {m.group(1)}: a {TERRAIN_NAME.get(m.group(2), m.group(2)).lower()} tile"
    m = re.fullmatch(r"(\w+) tile at ([a-z]{1,2}\d+)", name)
    if m:
        return (f"Put the {TERRAIN_NAME.get(m.group(1), m.group(1)).lower()} tile on the Fallow "
                f"at {m.group(2)}")
    if name == "end turn":
        return "End your Map turn"
    m = re.fullmatch(r"traveler to (P\d+) with (\w+) from ([a-z]{1,2}\d+)", name)
    if m:
        return (f"Send a traveler to {m.group(1)} with the {m.group(2)} resource from "
                f"{m.group(3)}")
    m = re.fullmatch(r"traveler on (P\d+)'s hot spring at ([a-z]{1,2}\d+)", name)
    if m:
        return f"Put the traveler on {m.group(1)}'s hot spring at {m.group(2)}"
    m = re.fullmatch(r"no traveler to (P\d+)", name)
    if m:
        return f"Send no traveler to {m.group(1)}"
    return name


def box_choice_label(name: str) -> str:
    """A way to take a pick box's card, said short for a button beside that card's picture
    ("Take it, refill higher"); the full words are :func:`decision_label`."""
    m = re.fullmatch(r"(pay to )?take \d+ from (.+)", name)
    if not m:
        return decision_label(name)
    if m.group(1):
        return "Pay a resource to take it"
    return {"own box": "Take it, refill with any card", "left box": "Take it, refill higher",
            "right box": "Take it, refill lower"}.get(m.group(2), decision_label(name))


def decision_tip(name: str, data: dict | None = None) -> str:
    """The tooltip of a decision: what it costs and gives, and the card it concerns."""
    m = re.fullmatch(r"(?:province (\d[AB])|pick box (\d+)|replace with (\d+))", name)
    if m:
        if m.group(1):
            return ("Your first card: a resource goes on each of its production squares. "
                    + card_tip("S" + m.group(1), data))
        card = int(m.group(2) or m.group(3))
        return ("The card goes face up into the box: the next players may take it. "
                + card_tip(card, data))
    m = re.fullmatch(r"(pay to )?take (\d+) from (.+)", name)
    if m:
        cost = ("Costs a resource from your map (chosen next), then refill the box with any "
                "card of your hand." if m.group(1) else
                f"Free; then {REFILL.get(m.group(3), 'refill the box')} of your hand.")
        return f"{cost} You place the card on your map in the Map phase. " + card_tip(int(m.group(2)), data)
    m = re.fullmatch(r"(?:pay|discard) (\w+) at ([a-z]{1,2}\d+)", name)
    if m:
        return f"The {m.group(1)} resource at {m.group(2)} goes back to the pool."
    m = re.fullmatch(r"(?:orient|place) (\d+) (.+?)(?: at [a-z]{1,2}\d+)? (over|under)", name)
    if m:
        how = ("over: on top of the map, at least one square on a placed card, no lake covered"
               if m.group(3) == "over" else
               "under: at least one square slid under a placed card and one in the open; only "
               "the squares in the open count")
        return f"{m.group(2).capitalize()}, {how}. " + card_tip(int(m.group(1)), data)
    if name == "terraform":
        return ("Once per Map phase: discard 2 resources from your map, then turn a Fallow into "
                "a tile by one of their colours: blue lake, brown town, grey forest, purple hot "
                "spring.")
    m = re.fullmatch(r"choose (\w+) \((\w+) tile\)", name)
    if m:
        return tile_tip(m.group(2))
    m = re.fullmatch(r"(\w+) tile at ([a-z]{1,2}\d+)", name)
    if m:
        return tile_tip(m.group(1))
    if name == "end turn":
        return "Your Map turn is over; the others see your map when everyone has placed."
    m = re.fullmatch(r"traveler to (P\d+) with (\w+) from ([a-z]{1,2}\d+)", name)
    if m:
        return (f"The traveler and the {m.group(2)} resource go to a hot spring of {m.group(1)}: "
                "you score 1 point per forest around it at the end; the resource becomes theirs.")
    m = re.fullmatch(r"traveler on (P\d+)'s hot spring at ([a-z]{1,2}\d+)", name)
    if m:
        return (f"You score 1 point per forest around {m.group(1)}'s hot spring at {m.group(2)} "
                "at the end (none if it is covered).")
    if name.startswith("no traveler"):
        return "Keep the traveler: it scores nothing."
    return ""


HOW_TO_PLAY = """\
**Kyūshū** is a map-building game for 2–5 players over **12 rounds**.

**Goal.** Build the best-scoring map out of Map cards (2 rows of 3 squares each). At the end
the visible squares of your map score: **forests** 2 each; **hot springs** 1 per forest around
them (diagonals too); your largest **town** area 1 per square; **lakes** 3 per square after the
first of each lake; **factories** take a matching resource from your map each: 2 points for a
single factory square, 3 in a pair of two colours, 4 in a pair of one colour. The highest total
wins (ties: the most Fallows left).

**Set-up.** Everyone gets a hand of **6** Map cards. In turn, each chooses a Starting Province
(the first card of their map; a resource on each of its production squares), then puts a card
from their hand into their own **pick box**.

**A round** has two phases.
1. *Selection*: in turn, take a card from a pick box. Your own box is free (refill it with any
   card of your hand); the box on your left is free if you refill it with a **higher** card,
   the one on your right with a **lower** card; any box if you discard a resource from your map.
   In the last round everyone takes the card in their own box.
2. *Map*: everyone places the card taken on their own map at the same time, either way round,
   across or upright — over it or slid under it, with at least one square covering or covered
   and at least one square showing, never covering a lake. A resource on a covered square is
   lost; each new production square receives a resource of its colour.

**Terraforming.** Once per Map phase you may discard 2 resources to turn a Fallow into a lake
(blue), town (brown), forest (grey) or hot spring (purple): the colour of one of the two
resources decides.

**The end.** After round 6 everyone gets a new hand of 6; after round 12 the maps are scored.

{players}

{options}

**Here:** take a card in the panel beside your map; in the Map phase choose the rotation and
over/under, then hover a lit square (on a touch screen: tap it once) to preview the card there,
and click it (tap it again) to place the card. Hover or tap any square, card or box to read what
it does.
"""

TWO_PLAYERS = """\
**With 2 players** there are two **middle pick boxes** between you, each filled from the draw
pile: the one on your left counts as your left neighbour's box, the one on your right as your
right neighbour's (refill the left one with a higher card, the right one with a lower card).
Your opponent's own box can be taken **only by discarding a resource**. After round 6 the two
middle boxes get two new cards from the pile."""

MORE_PLAYERS = """\
**With 3–5 players** each player has a pick box; your neighbours' boxes are the ones on your
left and right."""

MOST_FEWEST = """\
**Most/Fewest cards** (optional rule): a card lies between each pair of neighbours, e.g. "most
single forests". Of those two players, the one with the most (or fewest) scores **3**; a tie
scores 1 each (a "most" card needs at least one)."""

TRAVELERS = """\
**Travelers** (optional rule): after round 6, in turn, each player may send a traveler, with a
resource from their map, onto a hot spring of a neighbour's map (2 players: one traveler each,
onto the opponent's map). At the end it scores its owner 1 per forest around that hot spring;
the map's owner may use its resource like one on a production square."""


def how_to_play(params: dict | None = None) -> str:
    """The panel for a game's configuration (``params``: players, most_fewest, travelers);
    every player count and option when none is given."""
    players = (params or {}).get("players")
    parts = [TWO_PLAYERS] if players == 2 else [MORE_PLAYERS] if players else [TWO_PLAYERS,
                                                                               MORE_PLAYERS]
    options = [text for opt, text in (("most_fewest", MOST_FEWEST), ("travelers", TRAVELERS))
               if params is None or params.get(opt)]
    return HOW_TO_PLAY.format(players="\n\n".join(parts),
                              options="\n\n".join(options)).replace("\n\n\n\n", "\n\n")


def chance_sentence(name: str) -> str:
    """A public chance event of the log as a sentence ("offer province 4A" -> "Province 4
    (side A) is laid out to choose from")."""
    if m := re.fullmatch(r"offer province (\d+)([AB])", name):
        return f"Province {m.group(1)} (side {m.group(2)}) is laid out to choose from"
    if m := re.fullmatch(r"middle (\d+) (left|right)", name):
        return f"Card {m.group(1)} is dealt to the {m.group(2)} middle pick box"
    if m := re.fullmatch(r"scoring card (\d+) (most|fewest) between (P\d) and (P\d)", name):
        return (f"Scoring card {m.group(1)} ({m.group(2).capitalize()}) is laid between "
                f"{m.group(3)} and {m.group(4)}")
    return name
