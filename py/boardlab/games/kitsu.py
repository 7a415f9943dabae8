"""Kitsu: parameters, component data and the text drawing of a position.

The rules live in the C kernel (kernel/kitsu/); this module turns validated
parameters and the data file into the kernel's parameter vector.

Parameters (defaults in brackets):
  players       2, 4 or 6 [4]
  track_length  spaces of the wisdom track [15, a stand-in: see docs/kitsu.md]
"""
from __future__ import annotations

import json
from importlib import resources

NAME = "kitsu"

_DATA = json.loads(resources.files("boardlab").joinpath("data/kitsu.json").read_text())
CARD_TYPES: list[str] = _DATA["card_types"]
DEFAULTS = {"players": 4, "track_length": _DATA["track_length"]["default"]}
PARAMETER_SETS = [{"players": 2}, {"players": 4}, {"players": 6}]  # for generic test suites


def deck(players: int) -> list[int]:
    """Copies of each card type (in CARD_TYPES order) used with this many players."""
    dist = _DATA["card_distribution"]
    nums = dist["numerals_per_colour"][str(players)]
    specials = [dist["specials"][name] for name in CARD_TYPES[12:]]
    return list(nums) + list(nums) + specials


def _int_param(params: dict, name: str) -> int:
    value = params[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"kitsu parameter {name!r} must be an integer, got {value!r}")
    return value


def kernel_params(params: dict) -> list[int]:
    """Validate `params` (defaults filled) and build the kernel's parameter vector."""
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown kitsu parameter(s) {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(DEFAULTS)}")
    players = _int_param(params, "players")
    if players not in (2, 4, 6):
        raise ValueError(f"kitsu parameter 'players' must be 2, 4 or 6, got {players}")
    track = _int_param(params, "track_length")
    if not 1 <= track <= 100:
        raise ValueError(f"kitsu parameter 'track_length' must be between 1 and 100, got {track}")
    return [players, track] + deck(players)


def _bar(pos: int, length: int) -> str:
    return "#" * pos + "." * (length - pos)


def _cards(cards) -> str:
    return " ".join(cards) if cards else "-"


def render(obs: dict) -> str:
    """Draw an observation (the full state, or what one seat knows) as text."""
    n, viewer, length = obs["players"], obs["viewer"], obs["track_length"]
    lines = [f"Kitsu, {n} players - round {obs['round']}, deal {obs['deal']}, "
             f"{obs['tricks']} tricks played" + ("" if viewer is None else f" - seen by P{viewer}")]
    for clan, name in ((0, "Blue  "), (1, "Orange")):
        lines.append(f"  {name} [{_bar(obs['pawns'][clan], length)}] {obs['pawns'][clan]:>2}/{length}"
                     f"  rounds won {obs['rounds_won'][clan]}")
    holders = {tok["holder"]: name for name, tok in obs["tokens"].items() if tok["holder"] is not None}
    for seat in range(n):
        hand = obs["hands"][seat]
        marks = []
        if seat == obs["leader"]:
            marks.append("leader")
        if seat == obs["current_player"]:
            marks.append("to move")
        if seat in holders:
            marks.append(f"token {holders[seat]}")
        shown = _cards(hand) if hand is not None else f"{obs['hand_sizes'][seat]} cards"
        known = obs["known"][seat] if obs.get("known") else []
        extra = f" (known: {_cards(known)})" if known else ""
        lines.append(f"  P{seat} {obs['clans'][seat]:<6} {shown}{extra}"
                     + (f"  [{', '.join(marks)}]" if marks else ""))
    trick = [f"P{c['seat']} " + (c["card"] or "??") + (" (hidden)" if c["hidden"] else "")
             + (" (destroyed)" if c["destroyed"] else "") for c in obs["trick"]]
    lines.append(f"  Trick: {', '.join(trick) if trick else '-'}")
    last = obs["last_trick"]
    if last["cards"]:
        cards = ", ".join(f"P{c['seat']} {c['card']}" + (" (destroyed)" if c["destroyed"] else "")
                          for c in last["cards"])
        result = f"{last['winner']} +{last['moved']}" if last["winner"] else "nobody moves"
        lines.append(f"  Last trick: {cards} -> {result}")
    if obs["forced"]:
        lines.append(f"  Black Kitsune: P{obs['forced']['seat']} must play {obs['forced']['colour']} if able")
    used = [name for name, tok in obs["tokens"].items() if tok["used"]]
    free = [name for name, tok in obs["tokens"].items() if tok["holder"] is None and not tok["used"]]
    lines.append(f"  Tokens available: {', '.join(free) or '-'}; used this round: {', '.join(used) or '-'}")
    pile = f"draw pile {obs['stock_size']}, " if n == 2 or obs["phase"] == "deal" else ""
    lines.append(f"  {pile}discard {len(obs['discard'])} cards")
    if obs["winner"]:
        lines.append(f"  Game over: {obs['winner']} wins")
    return "\n".join(lines)
