"""Nukumi Onsen Kaitakuki: parameters, component data and the text drawing of a position.

The rules live in the C kernel (kernel/nukumi/); this module turns validated
parameters and the data file (py/boardlab/data/nukumi.json: the board, cards,
partner boards and buildings, with every part the rulebook does not print
flagged ``"stand_in": true``, see docs/nukumi.md) into the kernel's parameter
vector (layout: kernel/nukumi/nukumi.h), and draws observations as text.

Parameters (defaults in brackets):
  players       1 to 4 [2]
  partner_side  side of the partner boards, "A" or "B" ["A"]
  board_side    side of the personal player action boards, "A" or "B" (B: stand-in) ["A"]
  advanced      the advanced rules: 3 face-up Helpers and action cards [False]
  solo          "none", or for 1 player "score_attack" (Solo 1) or "chasing" (Solo 2) ["none"]
"""
from __future__ import annotations

import json
import re
from importlib import resources

from .. import facts as check
from ..errors import CHANCE, HIDDEN, brief_repr
from . import seen_history

NAME = "nukumi"

DATA = json.loads(resources.files("boardlab").joinpath("data/nukumi.json").read_text())
DEFAULTS = {"players": 2, "partner_side": "A", "board_side": "A", "advanced": False, "solo": "none"}
SOLO_MODES = ["none", "score_attack", "chasing"]
#: Parameter sets for the generic suites: 1 to 4 players, both partner sides.
PARAMETER_SETS = [
    {"players": 2},
    {"players": 1},
    {"players": 3, "partner_side": "B", "board_side": "B"},
    {"players": 4, "advanced": True},
    {"players": 1, "solo": "score_attack"},
    {"players": 1, "solo": "chasing", "advanced": True},
]


def search_defaults(params: dict) -> dict:
    """The search's tuning by mode (docs/search.md, "Defaults per game"): the 1-player building game
    (Score Attack, or no solo rule) rolls out 20 decisions of the kernel's rollout policy and
    then asks the heuristic, Score Attack with the exploration constant c = 0.25; Chasing 8
    random decisions; the multiplayer game full rollouts."""
    p = {**DEFAULTS, **params}
    if p["players"] != 1:
        return {}
    if p["solo"] == "chasing":
        return {"rollout_depth": 8}
    return {"rollout_depth": 20, **({"c": 0.25} if p["solo"] == "score_attack" else {})}


RESOURCES: list[str] = DATA["resources"]
SQUARE_KINDS = ["vacant", "helper", "2_coins", "central", "nukumaru", "carriage_stop"]
SPOTS = [s["name"] for s in DATA["player_board"]["spots"]]
BUILDINGS = [b["name"] for b in DATA["buildings"]]
SQUARES = [sq["name"] for sq in DATA["board"]["squares"]]
# Kernel effect ops and triggers (kernel/nukumi/nukumi.h EF_*, TR_*, END_*).
_OPS = {"gain": 1, "coins": 2, "helper": 3, "play": 4, "move": 5, "fun": 6, "oishi": 7, "die": 8,
        "take_card": 9, "coins_per_adjacent_building": 10, "build": 11}
_TRIGGERS = {"played": 0, "after_action": 1, "after_catch": 2, "none": 3}
_ENDS = {"none": 0, "built_all": 1, "per_building": 2, "track": 3, "helpers": 4, "coins": 5,
         "buildings": 6}
N_EFF = 4
N_SQ, N_HELP, N_CARD, N_ROUND, N_PART, N_CUBES = 63, 40, 12, 7, 6, 10
WIDTH = 9            # board columns a..i (kernel/nukumi/nukumi.h NK_W)
COLUMNS = "abcdefghi"


def _bad(what: str) -> ValueError:
    return ValueError(f"nukumi data: {what}")


def _effects(effects: list, what: str) -> list[int]:
    if len(effects) > N_EFF:
        raise _bad(f"{what} has more than {N_EFF} effects")
    out = []
    for e in effects:
        op = e[0]
        if op not in _OPS:
            raise _bad(f"{what}: unknown effect {op!r}; known: {', '.join(_OPS)}")
        if op == "gain":
            if len(e) != 3 or e[1] not in RESOURCES or not 1 <= e[2] <= 9:
                raise _bad(f"{what}: 'gain' needs a resource and a count 1-9, got {e!r}")
            out += [_OPS[op], RESOURCES.index(e[1]), e[2]]
        elif op == "take_card":
            out += [_OPS[op], 1, 0]
        else:
            if len(e) != 2 or not 1 <= e[1] <= 20:
                raise _bad(f"{what}: {op!r} needs a count 1-20, got {e!r}")
            out += [_OPS[op], e[1], 0]
    return out + [0, 0, 0] * (N_EFF - len(effects))


def _cost(slots: list, coins: int, what: str) -> list[int]:
    """3 slot masks + Coins. A slot is 'any' or resource names joined by '|'."""
    if len(slots) > 3:
        raise _bad(f"{what} costs more than 3 resources")
    masks = []
    for slot in slots:
        if slot == "any":
            masks.append((1 << len(RESOURCES)) - 1)
            continue
        m = 0
        for name in slot.split("|"):
            if name not in RESOURCES:
                raise _bad(f"{what}: unknown resource {name!r} in cost {slot!r}")
            m |= 1 << RESOURCES.index(name)
        masks.append(m)
    return masks + [0] * (3 - len(masks)) + [coins]


def _spot_mask(names: list, what: str) -> int:
    m = 0
    for n in names:
        if n not in SPOTS:
            raise _bad(f"{what}: unknown action {n!r}; known: {', '.join(SPOTS)}")
        m |= 1 << SPOTS.index(n)
    return m


def _board() -> list[int]:
    squares = DATA["board"]["squares"]
    if len(squares) != N_SQ:
        raise _bad(f"the board must have {N_SQ} squares")
    for i, sq in enumerate(squares):
        if sq["name"] != f"{COLUMNS[i % WIDTH]}{i // WIDTH + 1}":
            raise _bad(f"square {i} must be named {COLUMNS[i % WIDTH]}{i // WIDTH + 1} (row by row)")
    index = {sq["name"]: i for i, sq in enumerate(squares)}
    vec, numbers = [], []
    for i, sq in enumerate(squares):
        if sq["kind"] not in SQUARE_KINDS:
            raise _bad(f"square {sq['name']}: unknown kind {sq['kind']!r}")
        mask = 0
        for n in sq["neighbours"]:
            if n not in index or n == sq["name"]:
                raise _bad(f"square {sq['name']}: bad neighbour {n!r}")
            if sq["name"] not in squares[index[n]]["neighbours"]:
                raise _bad(f"squares {sq['name']} and {n} must list each other as neighbours")
            mask |= 1 << index[n]
        num = sq.get("nukumaru", 0)
        if (sq["kind"] == "nukumaru") != (num != 0):
            raise _bad(f"square {sq['name']}: exactly the Nukumaru squares carry a number 1-6")
        if num:
            numbers.append(num)
        ribbon = bool(sq["ribbon"]) or sq["kind"] in ("central", "nukumaru", "carriage_stop")
        vec += [SQUARE_KINDS.index(sq["kind"]), int(ribbon), num, mask & 0x1FFFFF, (mask >> 21) & 0x1FFFFF, mask >> 42]
    if sorted(numbers) != [1, 2, 3, 4, 5, 6]:
        raise _bad("the Nukumaru squares must be numbered 1 to 6")
    kinds = [sq["kind"] for sq in squares]
    if kinds.count("central") != 1 or kinds.count("carriage_stop") < 2:
        raise _bad("the board needs one Central Square and at least 2 Carriage Stops")
    return vec


def _components() -> list[int]:
    vec = _board()
    tokens = DATA["resource_tokens"]["counts"]
    start = DATA["start_bag"]
    if any(tokens[r] < 4 * start.get(r, 0) for r in RESOURCES):
        raise _bad("not enough resource tokens for 4 starting bags")
    vec += [tokens[r] for r in RESOURCES] + [start.get(r, 0) for r in RESOURCES]
    tracks = DATA["tracks"]
    vec += [0] + tracks["fun"]["bonus_die_rolls"] + [0] + tracks["oishi"]["bonus_coins"]
    vec += tracks["fun"]["points"]["by_level"] + tracks["oishi"]["points"]["by_level"]
    for side in (DATA["player_board"], DATA["player_board"]["side_b"]):
        spots = side["spots"]
        if [s["name"] for s in spots] != SPOTS or SPOTS[-1] != "construction" or len(SPOTS) != 10:
            raise _bad("each side of the player board has the same 9 spots then 'construction'")
        for s in spots[:-1]:
            vec += _cost(s["cost"], 0, s["name"]) + _effects(s["effects"], s["name"])
    vec += DATA["player_board"]["add_action_coins"]
    vec += [DATA["start_player_card_points"], DATA["catch_coins"], DATA["two_coins_square_coins"]]
    if len(DATA["buildings"]) != 8:
        raise _bad("there are 8 building types")
    for b in DATA["buildings"]:
        fun = b["points"] == "fun"
        vec += [b["count"], 0 if fun else b["points"], int(fun)]
        vec += _cost(b["cost"], b.get("coins", 0), b["name"]) + _effects(b["effects"], b["name"])
    helpers = DATA["helpers"]["cards"]
    if len(helpers) != N_HELP:
        raise _bad(f"there are {N_HELP} Helpers")
    for h in helpers:
        what = f"Helper {h['id']}"
        if h["trigger"] not in _TRIGGERS:
            raise _bad(f"{what}: unknown trigger {h['trigger']!r}")
        vec += [h["points"], h["rank"], _TRIGGERS[h["trigger"]], _spot_mask(h.get("on", []), what)]
        vec += _effects(h["effects"], what)
    cards = DATA["action_cards"]["cards"]
    if len(cards) != N_CARD:
        raise _bad(f"there are {N_CARD} additional action cards")
    for k in cards:
        vec += [k["points"]] + _cost(k["cost"], 0, k["id"]) + _effects(k["effects"], k["id"])
    rounds = DATA["round_cards"]["cards"]
    if len(rounds) != N_ROUND:
        raise _bad(f"there are {N_ROUND} round cards")
    for r in rounds:
        vec += _effects(r["effects"], r["id"])
    boards = DATA["partners"]["boards"]
    if len(boards) != N_PART:
        raise _bad(f"there are {N_PART} partner boards")
    for b in boards:
        for side in "AB":
            d, what = b[side], f"partner {b['name']} {side}"
            vec += _effects(d["start"], what + " start")
            og = d["ongoing"]
            vec += [_TRIGGERS[og["trigger"]], _spot_mask(og.get("on", []), what)]
            vec += _effects(og["effects"], what + " ongoing")
            vec += _end(d["end"], what)
            vec += _cost(d["specific_action"]["cost"], 0, what) + _effects(d["specific_action"]["effects"], what)
            if len(d["die"]) != 6:
                raise _bad(f"{what}: the die table has 6 faces")
            for face in d["die"]:
                vec += _effects(face, what + " die")
            if len(d["draw"]) != N_CUBES + 1 or len(d["points"]) != N_CUBES + 1:
                raise _bad(f"{what}: draw sizes and points for 0..{N_CUBES} cubes used")
            vec += d["draw"] + d["points"]
    return vec


def _end(end: dict, what: str) -> list[int]:
    kind = end["kind"]
    if kind not in _ENDS:
        raise _bad(f"{what}: unknown end-game ability {kind!r}")
    if kind == "built_all":
        mask = 0
        for n in end["buildings"]:
            mask |= 1 << BUILDINGS.index(n)
        a, b = mask, 0
    elif kind == "per_building":
        a, b = BUILDINGS.index(end["building"]), 0
    elif kind == "track":
        a, b = ["fun", "oishi"].index(end["track"]), end["level"]
    elif kind in ("helpers", "buildings"):
        a, b = end["count"], 0
    elif kind == "coins":
        a, b = end["coins"], 0
    else:
        a, b = 0, 0
    return [_ENDS[kind], a, b, end.get("points", 0)]


_COMPONENTS = _components()


_HELPER_DRAW = re.compile(r"P(\d) draws S-\d+")


class SeenHistory(seen_history.SeenHistory):
    """The history as a seat saw it (State.observed_history): a Helper drawn into
    another hand is HIDDEN; every decision and every other chance outcome (bag
    draws, dice, cards turned face up) is public."""

    def read(self, a: int) -> None:
        private = False
        if self.start.current_player() == CHANCE:
            drawn = _HELPER_DRAW.fullmatch(self.start.action_to_string(a))
            private = drawn is not None and int(drawn.group(1)) != self.seat
        self.start.apply(a)
        self.out.append(HIDDEN if private else a)


def kernel_params(params: dict) -> list[int]:
    """Validate `params` (defaults filled) and build the kernel's parameter vector."""
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown nukumi parameter(s) {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(DEFAULTS)}")
    players = params["players"]
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
        raise ValueError(f"nukumi parameter 'players' must be an integer from 1 to 4, got {players!r}")
    for key in ("partner_side", "board_side"):
        if params[key] not in ("A", "B"):
            raise ValueError(f"nukumi parameter {key!r} must be 'A' or 'B', got {params[key]!r}")
    advanced = params["advanced"]
    if not isinstance(advanced, bool):
        raise ValueError(f"nukumi parameter 'advanced' must be True or False, got {advanced!r}")
    solo = params["solo"]
    if solo not in SOLO_MODES:
        raise ValueError(f"nukumi parameter 'solo' must be one of {SOLO_MODES}, got {solo!r}")
    if solo != "none" and players != 1:
        raise ValueError(f"nukumi parameter 'solo' needs players=1, got players={players}")
    return ([players, "AB".index(params["partner_side"]), "AB".index(params["board_side"]), int(advanced),
             SOLO_MODES.index(solo)] + _COMPONENTS)


# ---------------------------------------------------------------- drawing

_SQ_LETTER = {"vacant": ".", "helper": "H", "2_coins": "$", "central": "C", "nukumaru": "N",
              "carriage_stop": "#"}
_BLD_LETTER = {"stall": "s", "public bath": "b", "tavern": "t", "ryokan": "r", "playground": "p",
               "nukumi palace": "P", "nukumaru statue": "u", "souvenir shop": "o"}


def _res_text(counts: dict) -> str:
    return " ".join(f"{k} {v}" for k, v in counts.items() if v) or "-"


def render(obs: dict) -> str:
    """Draw an observation (the full state, or what one seat knows) as text."""
    n, viewer = obs["players"], obs["viewer"]
    mode = {"none": "", "score attack": " (Score Attack)", "chasing": " (Chasing Nukumaru)"}[obs["solo"]]
    lines = [f"Nukumi Onsen{mode}, {n} player{'s' if n > 1 else ''}, partner side {obs['partner_side']}, "
             f"board side {obs['board_side']}"
             + (", advanced" if obs["advanced"] else "")
             + f" - round {obs['round'] + 1} of 5, {obs['phase']}"
             + ("" if viewer is None else f" - seen by P{viewer}")]
    rc = obs["round_cards"]
    names = {c["id"]: c["name"] for c in DATA["round_cards"]["cards"]}
    lines.append("  round cards: " + ", ".join(
        (f"[{c} {names[c]}]" if i == obs["round"] else c) for i, c in enumerate(rc)))
    lines.append(f"  Nukumaru on {obs['nukumaru']}; start player card: P{obs['start_player']}"
                 f" ({'face down' if obs['start_face_down'] else 'face up'}); "
                 f"Helper deck {obs['deck_size']}; pool {_res_text(obs['pool'])}")
    cells = {sq: "x" for sq in obs["npc_cubes"]}
    for i, sq in enumerate(obs["npcs"]):
        cells[sq] = cells.get(sq, "") + f"n{i + 1}"
    for b in obs["buildings"]:
        cells[b["square"]] = _BLD_LETTER[b["building"]] + str(b["owner"])
    for p, pl in enumerate(obs["seats"]):
        text = cells.get(pl["square"], "")
        cells[pl["square"]] = text + ("" if "@" in text else "@") + str(p)
    kinds = {sq["name"]: sq["kind"] for sq in DATA["board"]["squares"]}
    lines.append("     " + "".join(f"{c:<6}" for c in COLUMNS))
    for r in range(1, N_SQ // WIDTH + 1):
        row = []
        for c in COLUMNS:
            name = f"{c}{r}"
            text = cells.get(name) or _SQ_LETTER[kinds[name]]
            if name == obs["nukumaru"]:
                text = "N*" if text == "N" else text + "*"
            row.append(f"{text:<6}")
        lines.append(f"  {r}  " + "".join(row).rstrip())
    lines.append("  (. vacant, H Helper, $ 2 Coins, C Central, N Nukumaru square, # Carriage Stop, "
                 "* Nukumaru, @p pioneer, n1-n3 NPCs, x NPC cube; building letter+owner: s stall b bath t tavern r ryokan "
                 "p playground P palace u statue o souvenir shop)")
    for p, pl in enumerate(obs["seats"]):
        mark = " [to move]" if p == obs["current_player"] else ""
        hand = (" ".join(pl["hand"]) or "-") if pl["hand"] is not None else f"{pl['hand_size']} cards"
        partner = DATA["partners"]["boards"][pl["partner"]]["name"] if pl["partner"] >= 0 else "-"
        lines.append(f"P{p}{mark}: {partner} on {pl['square']}; coins {pl['coins']}, fun {pl['fun']}, "
                     f"oishi {pl['oishi']}, buildings {pl['buildings']}, draw {pl['draw_size']}"
                     f"{', passed' if pl['passed'] else ''}; score {pl['score']['total']}")
        lines.append(f"    drawn {_res_text(pl['drawn'])} | bag {_res_text(pl['bag'])} | "
                     f"on boards {_res_text(pl['spent'])}")
        lines.append(f"    hand {hand}; played {' '.join(pl['played']) or '-'}; "
                     f"cards {' '.join(pl['cards']) or '-'}; used {', '.join(pl['used']) or '-'}")
    if obs["nukumaru_cubes"]:
        lines.append(f"  Nukumaru squares caught: {' '.join(obs['nukumaru_cubes'])}")
    if obs["result"]:
        lines.append(f"  result: {obs['result']}")
    if obs["pending"]:
        lines.append(f"  pending: {', '.join(obs['pending'])}")
    return "\n".join(lines)


# ---------------------------------------------------------------- positions
POSITION_FACTS = ("round", "round_cards", "start_player", "start_face_down", "nukumaru", "seats",
                  "hand", "discard", "npcs", "npc_cubes", "nukumaru_cubes",
                  "helper_row", "card_row", "helper_bottom", "card_bottom")
ADVANCED_FACTS = ("helper_row", "card_row", "helper_bottom", "card_bottom")
SEAT_FACTS = ("partner", "square", "coins", "fun", "oishi", "passed", "hand_size", "used", "cards",
              "bag", "drawn", "spent", "played", "buildings")
PARTNERS = [b["name"] for b in DATA["partners"]["boards"]]
HELPER_IDS = [h["id"] for h in DATA["helpers"]["cards"]]
CARD_IDS = [k["id"] for k in DATA["action_cards"]["cards"]]
ROUND_IDS = [r["id"] for r in DATA["round_cards"]["cards"]]
USED_NAMES = SPOTS + ["partner action"]     # then the card slots (bits 11, 12)
_NUKU_FACE = {sq["name"]: sq.get("nukumaru", 0) for sq in DATA["board"]["squares"]}


def _square(value, what: str) -> int:
    if not isinstance(value, str) or value not in SQUARES:
        raise ValueError(f"{what} must be a square a1..i7, got {brief_repr(value)}")
    return SQUARES.index(value)


def _mask40(ids: list[int]) -> list[int]:
    m = sum(1 << i for i in ids)
    return [m & 0xFFFFF, m >> 20]


def _resources(value, what: str) -> list[int]:
    """Counts per resource from {name: count} (absent: none)."""
    check.mapping(value, what)
    for k in value:
        if k not in RESOURCES:
            raise ValueError(f"{what}: unknown resource {brief_repr(k)}; resources are {', '.join(RESOURCES)}")
    return [check.integer(value.get(r, 0), f"{what} {r}", 0, 60) for r in RESOURCES]


def position_params(params: dict, seat: int, facts: dict) -> list[int]:
    """The kernel's set-up vector for `seat`'s turn in the Actions phase, from what it knows
    (layout: kernel/nukumi/position.c). Facts:

    round (1-5), round_cards (the 5 in play, in order, e.g. ["E-03", ...]), nukumaru (its
    square), start_player (seat, default 0) and start_face_down (default False), hand (your
    Helpers), discard (Helpers discarded), seats (one dict per seat: partner (name), square,
    coins, fun, oishi, passed, hand_size (others' only), used (spots used this round, e.g.
    "mining", "partner action"), cards (action cards held), bag / drawn / spent (resource ->
    count), played (Helpers played), buildings ([{"square", "building"}])); Score Attack:
    npcs (3 squares) and npc_cubes (squares); Chasing: nukumaru_cubes (squares caught on).
    Advanced play: helper_row and card_row (the 3 face-up slots left to right, null for an
    empty one), helper_bottom and card_bottom (the cards the clean-up slide put under the
    decks, the next drawn first; default none); the other action cards are the card deck.
    Other hands and the deck are dealt at random (see also :func:`position_facts`).
    """
    unknown = sorted(set(facts) - set(POSITION_FACTS), key=str)
    if unknown:
        raise ValueError(f"unknown nukumi position fact(s) {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(POSITION_FACTS)}")
    for required in ("round", "round_cards", "nukumaru", "seats"):
        if required not in facts:
            raise ValueError(f"nukumi position needs {required!r}")
    if not params["advanced"]:
        extra = [f for f in ADVANCED_FACTS if check.optional(facts, f, None) is not None]
        if extra:
            raise ValueError(f"{extra[0]}: only advanced play has face-up rows (make the game "
                             "with advanced=True)")
    elif "helper_row" not in facts or "card_row" not in facts:
        raise ValueError("advanced play needs 'helper_row' and 'card_row' (the 3 face-up Helpers "
                         "and action cards, null for an empty slot)")
    players = params["players"]
    get = lambda name, default: check.optional(facts, name, default)   # noqa: E731
    rnd = check.integer(facts["round"], "round", 1, 5)
    rcs = check.names(facts["round_cards"], "round_cards", ROUND_IDS)
    if len(rcs) != 5:
        raise ValueError(f"round_cards must list the 5 round cards in play, got {len(rcs)}")
    start = get("start_player", 0)
    if not check.is_int(start) or not 0 <= start < players:
        raise ValueError(f"start_player must be a seat 0..{players - 1}, got {brief_repr(start)}")
    down = check.boolean(get("start_face_down", False), "start_face_down")
    nuku = _square(facts["nukumaru"], "nukumaru")
    if not _NUKU_FACE[facts["nukumaru"]]:
        raise ValueError(f"nukumaru must be on a Nukumaru square, {facts['nukumaru']} is not one")
    solo = params["solo"]
    if solo == "score_attack":
        npcs = get("npcs", None)
        if not isinstance(npcs, (list, tuple)) or len(npcs) != 3:
            raise ValueError(f"npcs: Score Attack needs the 3 NPCs' squares, got {brief_repr(npcs)}")
        npc_sq = [_square(q, "npcs") for q in npcs]
    elif get("npcs", None) is not None:
        raise ValueError("npcs: only Score Attack has NPCs")
    else:
        npc_sq = [-1, -1, -1]
    if solo != "chasing" and get("nukumaru_cubes", None) is not None:
        raise ValueError("nukumaru_cubes: only Chasing Nukumaru has them")
    cube_mask = 0
    for q in check.sequence(get("nukumaru_cubes", []), "nukumaru_cubes"):
        _square(q, "nukumaru_cubes")
        if not _NUKU_FACE[q]:
            raise ValueError(f"nukumaru_cubes: {q} is not a Nukumaru square")
        cube_mask |= 1 << (_NUKU_FACE[q] - 1)
    if solo != "score_attack" and get("npc_cubes", None) is not None:
        raise ValueError("npc_cubes: only Score Attack has them")
    hand = check.names(get("hand", []), "hand", HELPER_IDS)
    discard = check.names(get("discard", []), "discard", HELPER_IDS)
    seats = check.sequence(facts["seats"], "seats", players)
    vec = [seat, rnd - 1, start, int(down), nuku] + rcs + npc_sq + [cube_mask] \
        + _mask40(discard) + _mask40(hand)
    builds = []
    for p, sf in enumerate(seats):
        what = f"seats[{p}]"
        check.mapping(sf, what, SEAT_FACTS)
        opt = lambda name, default: check.optional(sf, name, default)   # noqa: E731
        check.choice(opt("partner", None), f"{what} partner", PARTNERS)
        cards = check.names(opt("cards", []), f"{what} cards", CARD_IDS)
        if len(cards) > 2:
            raise ValueError(f"{what} cards: at most 2 action cards, got {len(cards)}")
        used = 0
        for u in check.sequence(opt("used", []), f"{what} used"):
            if isinstance(u, str) and u in USED_NAMES:
                used |= 1 << USED_NAMES.index(u)
            elif isinstance(u, str) and u in CARD_IDS and CARD_IDS.index(u) in cards:
                used |= 1 << (len(USED_NAMES) + cards.index(CARD_IDS.index(u)))
            else:
                raise ValueError(f"{what} used: unknown {brief_repr(u)}; spots are {', '.join(USED_NAMES)} "
                                 "or an action card held")
        hsize = opt("hand_size", len(hand) if p == seat else 0)
        vec += [PARTNERS.index(sf["partner"]), _square(opt("square", "d4"), f"{what} square"),
                check.integer(opt("coins", 0), f"{what} coins", 0, 999),
                check.integer(opt("fun", 0), f"{what} fun", 0, 5),
                check.integer(opt("oishi", 0), f"{what} oishi", 0, 5),
                int(check.boolean(opt("passed", False), f"{what} passed")),
                check.integer(hsize, f"{what} hand_size", 0, 40), used] + (cards + [-1, -1])[:2]
        vec += _resources(opt("bag", {}), f"{what} bag") + _resources(opt("drawn", {}), f"{what} drawn") \
            + _resources(opt("spent", {}), f"{what} spent")
        vec += _mask40(check.names(opt("played", []), f"{what} played", HELPER_IDS))
        for b in check.sequence(opt("buildings", []), f"{what} buildings"):
            if not isinstance(b, dict) or set(b) != {"square", "building"} or b["building"] not in BUILDINGS:
                raise ValueError(f"{what} buildings: each is {{'square': 'c4', 'building': one of "
                                 f"{', '.join(BUILDINGS)}}}, got {brief_repr(b)}")
            builds += [_square(b["square"], f"{what} buildings square"), BUILDINGS.index(b["building"]), p]
    for q in check.sequence(get("npc_cubes", []), "npc_cubes"):
        builds += [_square(q, "npc_cubes"), 0, -1]
    tail = []
    if params["advanced"]:
        tail = (_row(facts["helper_row"], "helper_row", HELPER_IDS)
                + _row(facts["card_row"], "card_row", CARD_IDS))
        for name, known in (("helper_bottom", HELPER_IDS), ("card_bottom", CARD_IDS)):
            under = check.names(get(name, []), name, known)
            tail += [len(under)] + under
    return [int(x) for x in vec + [len(builds) // 3] + builds + tail]


def _row(value, what: str, known: list[str]) -> list[int]:
    """A face-up row: 3 slots left to right, each an id or None (empty); -1 for None."""
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise ValueError(f"{what} must list the 3 face-up slots left to right (null for an empty "
                         f"one), got {brief_repr(value)}")
    ids = iter(check.names([v for v in value if v is not None], what, known))
    return [-1 if v is None else next(ids) for v in value]


#: Observed phases that are not part of a seat's turn in the Actions phase (the set-up, the
#: draws, a round card's event, the NPC routes of Score Attack).
_NOT_A_TURN = ("setup", "die", "helper draw", "resource draw", "event", "npc route", "card draw", "over")


def position_facts(obs: dict) -> dict:
    """The facts of ``Game.position`` that one seat's observation states (at the start of its
    turn in the Actions phase these set up the same position again, up to the hidden cards)."""
    if obs.get("viewer") is None:
        raise ValueError("position_facts needs one seat's observation, not the full one")
    me = obs["viewer"]
    if obs["phase"] in _NOT_A_TURN:
        raise ValueError(f"Game.position sets up a seat's turn in the Actions phase, not the "
                         f"{obs['phase']} phase")
    if not any(obs["seats"][me]["drawn"].values()):
        raise ValueError(f"P{me} has no drawn resources: it passes, there is no turn to set up")
    seats = []
    for p, pl in enumerate(obs["seats"]):
        sf = {"partner": PARTNERS[pl["partner"]], "square": pl["square"], "coins": pl["coins"],
              "fun": pl["fun"], "oishi": pl["oishi"], "passed": pl["passed"],
              "used": list(pl["used"]), "cards": list(pl["cards"]),
              "bag": dict(pl["bag"]), "drawn": dict(pl["drawn"]), "spent": dict(pl["spent"]),
              "played": list(pl["played"]),
              "buildings": [{"square": b["square"], "building": b["building"]}
                            for b in obs["buildings"] if b["owner"] == p]}
        if p != me:
            sf["hand_size"] = pl["hand_size"]
        seats.append(sf)
    facts = {"round": obs["round"] + 1, "round_cards": list(obs["round_cards"]),
             "nukumaru": obs["nukumaru"], "start_player": obs["start_player"],
             "start_face_down": obs["start_face_down"], "hand": list(obs["seats"][me]["hand"]),
             "discard": list(obs["discard"]), "seats": seats}
    if obs["solo"] == "score attack":
        facts |= {"npcs": list(obs["npcs"]), "npc_cubes": list(obs["npc_cubes"])}
    elif obs["solo"] == "chasing":
        facts["nukumaru_cubes"] = list(obs["nukumaru_cubes"])
    if obs["advanced"]:
        facts |= {k: list(obs[k]) for k in ADVANCED_FACTS}
    return facts
