"""Nukumi Onsen's observation tensor: every field of ``observation(seat)``, for
1 to 4 players, solo modes and advanced play, in one layout of the same size
for every parameter set (absent seats, solo and advanced fields are zeros).
Names and value lists follow kernel/nukumi/observe.c and the data file
(py/boardlab/data/nukumi.json); the slices are ``tensors.layout(game)`` and
docs/tensors.md."""
from __future__ import annotations

from boardlab.games import nukumi as _nk

from .writer import Writer, index_of

SEATS = 4                                    # kernel/nukumi/nukumi.h NK_MAXP
STACK = 32                                   # NK_STACK: the most pending effects
SEAT = index_of(range(SEATS))
PLAYERS = index_of(range(1, SEATS + 1))
PLAYER = index_of([0, 1, 2, 3, -1, -2])       # a seat, CHANCE, TERMINAL
SIDES = index_of("AB")
SOLO = index_of(["none", "score attack", "chasing"])
ROUND = index_of(range(6))                    # 0 during setup, then 1-5
PHASES = index_of(["setup", "die", "helper draw", "resource draw", "event", "actions", "payment", "move",
                   "play helpers", "take a card", "helper choice", "card draw", "npc route", "build", "end of turn",
                   "over"])
SQUARES = index_of(_nk.SQUARES)
RESOURCES = _nk.RESOURCES
RESOURCE = index_of(RESOURCES)
HELPERS = index_of(_nk.HELPER_IDS)
CARDS = index_of(_nk.CARD_IDS)
ROUND_CARDS = index_of(_nk.ROUND_IDS)
BUILDINGS = index_of(_nk.BUILDINGS)
PARTNERS = index_of(range(len(_nk.PARTNERS)))
PAYING = index_of(_nk.SPOTS + [f"build {b}" for b in _nk.BUILDINGS] + ["partner action"] + _nk.CARD_IDS)
USED = index_of(_nk.USED_NAMES + _nk.CARD_IDS)
OPS = index_of(["gain", "coins", "draw helpers", "play helpers", "move", "fun", "oishi", "die rolls",
                "take a card", "souvenir coins", "build", "move Nukumaru", "refill face-up helpers",
                "refill face-up cards", "npc die", "npc move"])
_NO_COUNT = ("move Nukumaru", "take a card")
CLEARED = index_of(range(1, 6))
TITLES = index_of(["Try Harder Next Time!", "World Best!", "Very Good Job!", "Good Job!",
                   "Apprentice Pioneer", "Common Pioneer", "Famous Pioneer", "Nukumi Town Pioneer",
                   "National Pioneer", "World Famous Pioneer"])
SCORE_PARTS = ("buildings", "helpers", "coins", "start_card", "partner_end", "construction", "cards",
               "tracks", "total")
_TOKENS = _nk.DATA["resource_tokens"]["counts"]
_BUILDING_COUNTS = {b["name"]: b["count"] for b in _nk.DATA["buildings"]}


def encode(obs: dict, params: dict, w: Writer) -> None:
    """Append ``obs`` (a Nukumi observation dict) to ``w``."""
    w.one_hot("viewer", obs["viewer"], SEAT)
    w.one_hot("players", obs["players"], PLAYERS)
    w.one_hot("partner_side", obs["partner_side"], SIDES)
    w.one_hot("board_side", obs["board_side"], SIDES)
    w.flag("advanced", obs["advanced"])
    w.one_hot("solo", obs["solo"], SOLO)
    w.one_hot("round", obs["round"], ROUND)
    w.one_hot("phase", obs["phase"], PHASES)
    w.one_hot("current_player", obs["current_player"], PLAYER)
    w.one_hot("acting_seat", obs["acting_seat"], SEAT)
    w.one_hot("start_player", obs["start_player"], SEAT)
    w.flag("start_face_down", obs["start_face_down"])
    w.one_hot("nukumaru", obs["nukumaru"], SQUARES)
    _slots(w, "round_cards", obs["round_cards"], ROUND_CARDS, 5)
    w.numbers("pool", [obs["pool"][r] for r in RESOURCES], max(_TOKENS.values()), len(RESOURCES))
    w.number("deck_size", obs["deck_size"], len(HELPERS))
    w.number("card_deck_size", obs["card_deck_size"], len(CARDS))
    _slots(w, "helper_row", obs["helper_row"], HELPERS, 3)
    w.positions("helper_bottom", obs["helper_bottom"], HELPERS)
    _slots(w, "card_row", obs["card_row"], CARDS, 3)
    w.positions("card_bottom", obs["card_bottom"], CARDS)
    w.counts("discard", obs["discard"], HELPERS)
    w.counts("cards_open", obs["cards_open"], CARDS)
    nb = len(BUILDINGS)
    kinds = w.block("buildings.kind", len(SQUARES) * nb, "per square (a1, b1 ... i7): counts of the 8 buildings")
    owners = w.block("buildings.owner", len(SQUARES) * SEATS, "per square: counts per owner seat 0-3")
    for b in obs["buildings"]:
        sq = _index(SQUARES, b["square"], "buildings square")
        w.out[kinds + sq * nb + _index(BUILDINGS, b["building"], "buildings building")] += 1.0
        w.out[owners + sq * SEATS + _index(SEAT, b["owner"], "buildings owner")] += 1.0
    left = obs["buildings_left"]
    w.numbers("buildings_left", [left[b] for b in BUILDINGS], max(_BUILDING_COUNTS.values()), len(BUILDINGS))
    w.counts("bonus_used", obs["bonus_used"], SQUARES)
    _slots(w, "npcs", obs["npcs"], SQUARES, 3)
    w.counts("npc_cubes", obs["npc_cubes"], SQUARES)
    w.counts("nukumaru_cubes", obs["nukumaru_cubes"], SQUARES)
    result = obs["result"]
    w.flag("result", result is not None)
    result = result or {}
    w.one_hot("result.cleared_round", result.get("cleared_round"), CLEARED)
    w.number("result.score", result.get("score"), 200)
    w.one_hot("result.title", result.get("title"), TITLES)
    w.one_hot("paying_for", obs["paying_for"], PAYING)
    w.flag("carriage_ridden", obs["carriage_ridden"])
    pending = obs["pending"]
    if len(pending) > STACK:
        raise ValueError(f"observation tensor: {len(pending)} pending effects, at most {STACK}")
    width = len(OPS) + 1 + len(RESOURCE)
    at = w.block("pending", STACK * width, f"{STACK} slots, top of the stack first: op one-hot "
                 f"({', '.join(OPS)}), count / 10, resource one-hot ({', '.join(RESOURCE)})")
    for text in pending:
        op, count, res = _effect(text)
        w.out[at + _index(OPS, op, "pending op")] = 1.0
        w.out[at + len(OPS)] = count / 10
        if res is not None:
            w.out[at + len(OPS) + 1 + RESOURCE[res]] = 1.0
        at += width
    seats = obs["seats"]
    for p in range(SEATS):
        _seat(w, f"seats[{p}]", seats[p] if p < len(seats) else None)
    w.numbers("scores", obs["scores"], 200, SEATS)


def _index(index: dict, value, what: str) -> int:
    try:
        return index[value]
    except (KeyError, TypeError):
        raise ValueError(f"observation tensor: {what} has unknown value {value!r}") from None


def _slots(w: Writer, name: str, values, index: dict, width: int) -> None:
    """An ordered list (or a row with empty places, None) as ``width`` one-hot slots."""
    values = list(values)
    if len(values) > width:
        raise ValueError(f"observation tensor: {name} has {len(values)} entries, at most {width}")
    for i in range(width):
        w.one_hot(f"{name}[{i}]", values[i] if i < len(values) else None, index)


def _effect(text: str):
    """A pending effect "gain 2 stone", "move 3" or "take a card" as (op, count, resource)."""
    if text in _NO_COUNT:
        return text, 0, None
    head, _, count = text.rpartition(" ")
    res = None
    if count in RESOURCE:
        res = count
        head, _, count = head.rpartition(" ")
    if not count.isdigit():
        raise ValueError(f"observation tensor: pending effect {text!r} is not 'op count [resource]'")
    return head, int(count), res


def _seat(w: Writer, at: str, seat: dict | None) -> None:
    seat = seat or {}
    partner = seat.get("partner")
    w.one_hot(f"{at}.partner", None if partner == -1 else partner, PARTNERS)    # -1: not chosen yet
    w.one_hot(f"{at}.square", seat.get("square"), SQUARES)
    w.number(f"{at}.coins", seat.get("coins"), 50)
    w.number(f"{at}.fun", seat.get("fun"), 5)
    w.number(f"{at}.oishi", seat.get("oishi"), 5)
    w.number(f"{at}.buildings", seat.get("buildings"), 10)
    w.number(f"{at}.draw_size", seat.get("draw_size"), 10)
    w.flag(f"{at}.passed", seat.get("passed"))
    for part in ("bag", "drawn", "spent"):
        counts = seat.get(part) or {}
        w.numbers(f"{at}.{part}", [counts.get(r, 0) for r in RESOURCES], 10, len(RESOURCES))
    w.number(f"{at}.hand_size", seat.get("hand_size"), 10)
    w.flag(f"{at}.hand_known", seat.get("hand") is not None)
    w.counts(f"{at}.hand", seat.get("hand"), HELPERS)
    w.counts(f"{at}.played", seat.get("played"), HELPERS)
    _slots(w, f"{at}.cards", seat.get("cards") or (), CARDS, 2)
    w.counts(f"{at}.used", seat.get("used"), USED)
    score = seat.get("score") or {}
    for part in SCORE_PARTS:
        w.number(f"{at}.score.{part}", score.get(part), 200 if part == "total" else 50)
