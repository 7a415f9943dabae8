"""Kitsu's observation tensor: every field of ``observation(seat)``, for 2, 4
and 6 players, in one layout of the same size for every parameter set (seats
are 6 wide, absent ones zeros). Names and value lists follow
kernel/kitsu/observe.c; the slices are ``tensors.layout(game)`` and
docs/tensors.md."""
from __future__ import annotations

from boardlab.games import kitsu as _kitsu

from .writer import Writer, index_of

SEATS = 6
SEAT = index_of(range(SEATS))
PLAYERS = index_of([2, 4, 6])
PLAYER = index_of([0, 1, 2, 3, 4, 5, -1, -2])       # a seat, CHANCE, TERMINAL
CARDS = index_of(_kitsu.CARD_TYPES)
CLANS = index_of(["blue", "orange"])
TOKENS = ("+3", "no-advance", "hidden", "recover", "invert")
TOKEN = index_of(TOKENS)
PHASES = index_of(["first_leader", "deal", "exchange", "play", "plus3_side", "recover", "katana",
                   "token_pick", "token_seat", "round_leader", "over"])


def encode(obs: dict, params: dict, w: Writer) -> None:
    """Append ``obs`` (a Kitsu observation dict) to ``w``."""
    track = obs["track_length"]
    w.one_hot("viewer", obs["viewer"], SEAT)
    w.one_hot("players", obs["players"], PLAYERS)
    w.number("track_length", track, 100)
    w.one_hot("phase", obs["phase"], PHASES)
    w.one_hot("current_player", obs["current_player"], PLAYER)
    w.number("round", obs["round"], 3)
    w.number("deal", obs["deal"], 3)
    w.number("tricks", obs["tricks"], 10)
    w.numbers("pawns", obs["pawns"], track, 2)
    w.numbers("rounds_won", obs["rounds_won"], 2, 2)
    w.one_hot("leader", obs["leader"], SEAT)
    _per_seat(w, "clans", obs["clans"], lambda at, clan: w.one_hot(at, clan, CLANS))
    w.one_hot("winner", obs["winner"], CLANS)
    w.numbers("hand_sizes", obs["hand_sizes"], 8, SEATS)

    def hand(at, cards):
        w.flag(f"{at}.known", cards is not None)
        w.counts(f"{at}.cards", cards, CARDS)
    _per_seat(w, "hands", obs["hands"], hand)
    w.number("stock_size", obs["stock_size"], 30)
    w.flag("stock.known", obs["stock"] is not None)        # only a full observation shows it
    w.counts("stock.cards", obs["stock"], CARDS)
    w.counts("discard", obs["discard"], CARDS)
    _trick(w, "trick", obs["trick"])
    last = obs["last_trick"]
    _trick(w, "last_trick.cards", last["cards"])
    w.one_hot("last_trick.winner", last["winner"], CLANS)
    w.number("last_trick.moved", last["moved"], track)
    for name in TOKENS:
        tok = obs["tokens"][name]
        w.one_hot(f"tokens.{name}.holder", tok["holder"], SEAT)
        w.flag(f"tokens.{name}.used", tok["used"])
        w.flag(f"tokens.{name}.in_trick", tok["in_trick"])
    w.one_hot("plus3_side", obs["plus3_side"], CLANS)
    forced = obs["forced"] or {}
    w.one_hot("forced.seat", forced.get("seat"), SEAT)
    w.one_hot("forced.colour", forced.get("colour"), CLANS)

    def exchange(at, ex):
        w.flag(f"{at}.put_down", ex["put_down"])
        for key in ("card", "gave", "received"):
            w.one_hot(f"{at}.{key}", ex[key], CARDS)
    _per_seat(w, "exchange", obs["exchange"], exchange,
              {"put_down": False, "card": None, "gave": None, "received": None})
    _per_seat(w, "known", obs["known"] or [], lambda at, cards: w.counts(at, cards, CARDS))

    def caps(at, pair):
        for col, cap in zip(CLANS, pair):
            w.flag(f"{at}.{col}.capped", cap is not None)
            w.number(f"{at}.{col}.cap", cap, 8)
    _per_seat(w, "colour_caps", obs["colour_caps"], caps, [None, None])
    w.one_hot("recover_seat", obs["recover_seat"], SEAT)
    gain = obs["gain"] or {}
    w.one_hot("gain.clan", gain.get("clan"), CLANS)
    w.one_hot("gain.token", gain.get("token"), TOKEN)
    dealing = obs["dealing"] or {}
    w.one_hot("dealing.to", dealing.get("to"), SEAT)
    w.number("dealing.left", dealing.get("left"), 30)
    w.flag("dealing.refill", dealing.get("refill"))


def _per_seat(w: Writer, name: str, values: list, write, empty=None) -> None:
    """``write(field name, value)`` for seats 0-5 (``empty`` for the seats the game lacks)."""
    if len(values) > SEATS:
        raise ValueError(f"observation tensor: {name} has {len(values)} seats, at most {SEATS}")
    for i in range(SEATS):
        write(f"{name}[{i}]", values[i] if i < len(values) else empty)


def _trick(w: Writer, name: str, cards: list) -> None:
    """Up to 6 played cards in order: seat, card (None: hidden from this seat), hidden, destroyed."""
    _per_seat(w, name, cards, lambda at, c: (w.one_hot(f"{at}.seat", c.get("seat"), SEAT),
                                              w.one_hot(f"{at}.card", c.get("card"), CARDS),
                                              w.flag(f"{at}.hidden", c.get("hidden")),
                                              w.flag(f"{at}.destroyed", c.get("destroyed"))), {})
