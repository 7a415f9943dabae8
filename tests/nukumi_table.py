"""Set a Nukumi table exactly as a scenario needs it: explicit chance outcomes,
named moves, and (where a rule needs a situation play would take long to
reach) parts of the position set directly through boardlab._nukumi_scenario."""
import boardlab
from boardlab import _nukumi_scenario
from boardlab.games import nukumi
from moves import names, play  # noqa: F401  (re-exported for the scenario tests)

PARTNER = {b["name"]: i + 1 for i, b in enumerate(nukumi.DATA["partners"]["boards"])}
SQUARES = nukumi.SQUARES


def table(players=2, rounds=(1, 2, 3, 4, 5), partners=("Yumomi", "Kajiya", "Ryoriya", "Daiku"),
          nukumaru=1, side="A", advanced=False, helper_row=(1, 2, 3), card_row=(1, 2, 3), solo="none",
          board="A"):
    """A game right after the setup chance: round cards E-0k in `rounds` order,
    partner boards dealt to P0, P1, ..., (advanced: the face-up Helpers S-0k
    and action cards EX-0k, first slot first), Nukumaru placed on die face
    `nukumaru`; player boards on side `board`. Start abilities without chance have been applied."""
    s = boardlab.make("nukumi", players=players, partner_side=side, advanced=advanced,
                      solo=solo, board_side=board).new_initial_state()
    for k in rounds:
        play(s, f"round card E-{k:02d}")
    for i in range(players):
        play(s, f"partner board {PARTNER[partners[i]]} to P{i}")
    if advanced:
        for k in helper_row:
            play(s, f"face up S-{k:02d}")
        for k in card_row:
            play(s, f"face up EX-{k:02d}")
    play(s, f"Nukumaru die {nukumaru}")
    return s


def start_round(s, events=None, helpers=None, draws=None):
    """Phases 1-3 of a round: each seat's event answer ("accept"/"decline"),
    the Helper each draws (S-number) and the resources each draws (names)."""
    players = s.game.num_players
    first = obs(s)["start_player"]
    order = [(first + i) % players for i in range(players)]
    events = events or {p: "decline" for p in order}
    card = obs(s)["round_cards"][obs(s)["round"]]
    for p in order:
        assert s.current_player == p
        play(s, f"{events[p]} {card}")
    helpers = helpers or {}
    for k, p in enumerate(order):
        if obs(s)["advanced"]:
            play(s, helpers.get(p, "draw blind"))
            if s.is_chance():
                play(s, names(s)[-1])       # the blind draw, or the refill of the row
            continue
        if obs(s)["deck_size"]:
            default = f"P{p} draws S-{30 + k:02d}"
            play(s, f"P{p} draws S-{helpers[p]:02d}" if p in helpers
                 else default if default in names(s) else names(s)[-1])
    draws = {p: list(v) for p, v in (draws or {}).items()}
    while s.is_chance() and obs(s)["phase"] == "resource draw":
        first_name = names(s)[0]                    # "P1 draws stone"
        p = int(first_name.split()[0][1:])
        wanted = draws.get(p)
        play(s, f"P{p} draws {wanted.pop(0)}" if wanted else first_name)
    return s


def obs(s, viewer=None):
    return s.full_observation() if viewer is None else s.observation(viewer)


def seat(s, p, viewer=None):
    return obs(s, viewer)["seats"][p]


def setf(s, what, player=0, index=0, value=0):
    """Set a part of the position (see boardlab._nukumi_scenario.FIELDS); squares by name."""
    if isinstance(index, str):
        index = SQUARES.index(index) if index in SQUARES else nukumi.RESOURCES.index(index)
    _nukumi_scenario.set_field(s, what, player, index, value)
    return s


def helper(name):
    """Kernel index of Helper "S-07"."""
    return int(name[2:]) - 1


def give(s, p, *cards):
    for card in cards:
        setf(s, "hand", p, helper(card))
    return s


def hand_of(s, p, resources):
    """Replace p's drawn resources by `resources` ({"stone": 2, ...})."""
    for r in nukumi.RESOURCES:
        setf(s, "drawn", p, r, resources.get(r, 0))
    return s
