"""Kitsu: parameters, component data and the text drawing of a position.

The rules live in the C kernel (kernel/kitsu/); this module turns validated
parameters and the data file into the kernel's parameter vector.

Parameters (defaults in brackets):
  players       2, 4 or 6 [4]
  track_length  spaces of the wisdom track [15, a stand-in: see docs/kitsu.md]
"""
from __future__ import annotations

import json
import re
from importlib import resources

from .. import facts as check
from ..errors import CHANCE, HIDDEN, TERMINAL, brief_repr
from . import seen_history

NAME = "kitsu"

_DATA = json.loads(resources.files("boardlab").joinpath("data/kitsu.json").read_text())
CARD_TYPES: list[str] = _DATA["card_types"]
DEFAULTS = {"players": 4, "track_length": _DATA["track_length"]["default"]}
PARAMETER_SETS = [{"players": 2}, {"players": 4}, {"players": 6}]  # for generic test suites
#: Search options tuned for this game (docs/search.md): its heuristic at the leaf beats random rollouts.
SEARCH_DEFAULTS = {"rollout_depth": 0}
# Two clans, seats alternating (rulebook: partners sit apart), which win or lose together.
TEAMS = ("Blue", "Orange")


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


KA_GIVE, KA_DEAL = 30, 79          # action bases of kernel/kitsu/kitsu.h


def _progress(core) -> tuple:
    obs = json.loads(core.observe_json(-1))
    return obs["phase"], obs["round"], obs["tricks"]


class SeenHistory(seen_history.SeenHistory):
    """The history as a seat saw it (State.observed_history): a card dealt or drawn
    into another hand is HIDDEN; so is an exchange the seat neither gave nor received,
    and the card given to the seat until the exchange is over (the cards are revealed
    together); and another seat's face-down card (Hidden-card token) until its trick
    ends. Everything else is public."""

    given_to_me = None               # (index in out, action): shown once the exchange ends
    face_down = None                 # (index, action, (round, tricks)): shown once its trick ends

    def read(self, a: int) -> None:
        start, seat, out = self.start, self.seat, self.out
        actor = start.current_player()
        text = start.action_to_string(a)
        start.apply(a)
        if actor == CHANCE:
            private = KA_DEAL <= a and not text.endswith(f" to P{seat}")
            out.append(HIDDEN if private else a)
        elif KA_GIVE <= a < KA_GIVE + 15 and actor != seat:
            if (actor + 2) % start.core_game.num_players == seat:
                self.given_to_me = (len(out), a)
            out.append(HIDDEN)
        elif actor != seat and text.endswith(" with hidden"):
            self.face_down = (len(out), a, _progress(start)[1:])
            out.append(HIDDEN)
        else:
            out.append(a)
        if self.given_to_me is not None and _progress(start)[0] != "exchange":
            (i, shown), self.given_to_me = self.given_to_me, None
            out[i] = shown
        if self.face_down is not None and (_progress(start)[1:] != self.face_down[2]
                                           or start.current_player() == TERMINAL):
            (i, shown, _), self.face_down = self.face_down, None
            out[i] = shown


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


# ---------------------------------------------------------------- positions
TOKENS = ["+3", "no-advance", "hidden", "recover", "invert"]
POSITION_FACTS = ("hand", "leader", "trick", "discard", "last_trick", "pawns", "rounds_won",
                  "tokens", "hand_sizes", "known")
_SEAT_KEY = re.compile(r"[0-9]{1,2}", re.ASCII)  # a seat as a JSON object key


def _seat(value, what: str, players: int) -> int:
    if not check.is_int(value) or not 0 <= value < players:
        raise ValueError(f"{what} must be a seat 0..{players - 1} (an integer), got {brief_repr(value)}")
    return value


def _list(value, what: str, of: str) -> list:
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{what} must be a list of {of}, got {brief_repr(value)}")
    return list(value)


def _card_counts(cards, what: str) -> list[int]:
    counts = [0] * len(CARD_TYPES)
    for card in _list(cards, what, "card names"):
        if not isinstance(card, str) or card not in CARD_TYPES:
            raise ValueError(f"{what}: unknown card {brief_repr(card)}; cards are {' '.join(CARD_TYPES)}")
        counts[CARD_TYPES.index(card)] += 1
    return counts


def _trick_entry(text, i: int) -> list[int]:
    """'O3', 'O3 destroyed', 'B5 with +3 blue', 'B5 with hidden', 'hidden' -> 5 ints."""
    where = f"trick card {i + 1} ({brief_repr(text)})"
    if not isinstance(text, str):
        raise ValueError(f"{where}: must be a string such as 'O3' or 'hidden'")
    words = text.split()
    if not words:
        raise ValueError(f"{where}: empty")
    card, rest = words[0], words[1:]
    if card == "hidden":
        ctype, token, side = -1, TOKENS.index("hidden"), -1
    elif card in CARD_TYPES:
        ctype, token, side = CARD_TYPES.index(card), -1, -1
    else:
        raise ValueError(f"{where}: unknown card {card!r}")
    destroyed = 0
    while rest:
        word = rest.pop(0)
        if word == "destroyed":
            destroyed = 1
        elif word == "with" and rest and rest[0] in TOKENS:
            token = TOKENS.index(rest.pop(0))
            if TOKENS[token] == "+3":
                if not rest or rest[0] not in ("blue", "orange"):
                    raise ValueError(f"{where}: the +3 token needs a side, e.g. 'B5 with +3 blue'")
                side = ("blue", "orange").index(rest.pop(0))
        else:
            raise ValueError(f"{where}: cannot read {word!r}; write e.g. 'O3', 'O3 destroyed', "
                             f"'B5 with +3 blue', 'B5 with hidden' or 'hidden'")
    hidden = int(token == TOKENS.index("hidden"))
    return [ctype, hidden, destroyed, token, side]


def _pair(value, what: str) -> list[int]:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ValueError(f"{what} must be [blue, orange] integers, got {brief_repr(value)}")
    return [check.integer(x, what) for x in value]


def position_params(params: dict, seat: int, facts: dict) -> list[int]:
    """The kernel's set-up vector for what `seat` knows at a real table (kernel/kitsu/position.c).

    Facts: hand (required), leader (required), trick (cards in play order, e.g.
    ["O3", "hidden", "B5 with +3 blue"]), discard (cards seen in the discard pile),
    last_trick (the last completed trick's cards, within the discard), pawns and
    rounds_won ([blue, orange]), tokens ({"+3": seat or "used"}), hand_sizes
    (one per seat; default: equal hands, less what each played in this trick),
    known ({seat: cards seat knows another hand holds}, e.g. the card it gave).
    """
    unknown = sorted(set(facts) - set(POSITION_FACTS), key=str)
    if unknown:
        raise ValueError(f"unknown kitsu position fact(s) {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(POSITION_FACTS)}")
    for required in ("hand", "leader"):
        if required not in facts:
            raise ValueError(f"kitsu position needs {required!r}")
    players = params["players"]
    seat = _seat(seat, "seat", players)
    hand = _card_counts(facts["hand"], "hand")
    leader = _seat(facts["leader"], "leader", players)
    trick = [_trick_entry(t, i)
             for i, t in enumerate(_list(check.optional(facts, "trick", []), "trick", "cards"))]
    tokens = [-1] * len(TOKENS)
    held = check.optional(facts, "tokens", {})
    if not isinstance(held, dict):
        raise ValueError(f"tokens must map a token name to a seat, 'used' or None, got {brief_repr(held)}")
    for name, holder in held.items():
        if name not in TOKENS:
            raise ValueError(f"tokens: unknown token {brief_repr(name)}; tokens are {', '.join(TOKENS)}")
        if isinstance(holder, str) and holder == "used":
            tokens[TOKENS.index(name)] = -2
        elif check.is_int(holder) and 0 <= holder < players:
            tokens[TOKENS.index(name)] = holder
        elif holder is not None:
            raise ValueError(f"tokens: {name!r} must be held by a seat 0..{players - 1}, "
                             f"'used' or None, got {brief_repr(holder)}")
    played = [0] * players
    for i in range(len(trick)):
        played[(leader + i) % players] += 1
    sizes = facts.get("hand_sizes")
    if sizes is None:
        sizes = [sum(hand) + played[seat] - played[p] for p in range(players)]
    elif not isinstance(sizes, (list, tuple)) or len(sizes) != players:
        raise ValueError(f"hand_sizes must list {players} integers, got {brief_repr(sizes)}")
    else:
        sizes = [check.integer(x, "hand_sizes") for x in sizes]
    known = [[0] * len(CARD_TYPES) for _ in range(players)]
    told = check.optional(facts, "known", {})
    if not isinstance(told, dict):
        raise ValueError(f"known must map a seat to the cards known in its hand, got {brief_repr(told)}")
    for p, cards in told.items():
        if isinstance(p, str) and _SEAT_KEY.fullmatch(p):   # JSON keys are strings
            p = int(p)
        if not check.is_int(p) or not 0 <= p < players or p == seat:
            raise ValueError(f"known: {brief_repr(p)} is not another seat")
        known[p] = _card_counts(cards, f"known[{p}]")
    vector = [seat, leader] + _pair(check.optional(facts, "pawns", [0, 0]), "pawns") \
        + _pair(check.optional(facts, "rounds_won", [0, 0]), "rounds_won") + tokens + list(sizes) + hand \
        + _card_counts(check.optional(facts, "discard", []), "discard") \
        + _card_counts(check.optional(facts, "last_trick", []), "last_trick") \
        + [k for row in known for k in row] + [len(trick)] + [x for e in trick for x in e]
    return [int(x) for x in vector]
