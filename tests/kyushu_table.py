"""Set a Kyushu table exactly as a scenario needs it: explicit chance actions,
named moves, and (for scoring scenarios) maps painted square by square."""
import boardlab
from boardlab import _kyushu_scenario
from moves import names, play  # noqa: F401  (re-exported for the scenario tests)

# Kernel terrain codes (kernel/kyushu/kyushu.h).
TERRAIN = {"L": 1, "F": 2, "T": 3, "H": 4, "W": 5}
COLOUR = {"b": 0, "r": 1, "g": 2, "p": 3}


def table(players=2, hands=None, offer=None, provinces=None, boxes=None, middles=(59, 60),
          most_fewest=None, side="A", travelers=False):
    """A game right after setup (first Selection phase, P0 to choose).

    hands: seat -> the 6 cards dealt (default seat s gets 10s+1 .. 10s+6);
    offer: Starting Provinces dealt face up (default 1..players);
    provinces: seat -> province chosen (default: seat s takes offer[s]);
    boxes: seat -> card put in the pick box (default: the first of its hand);
    middles: 2p cards drawn into the middle boxes (right of P0, then left);
    most_fewest: list of (card 1-8, "most"/"fewest"), one per seat, or None.
    """
    game = boardlab.make("kyushu", players=players, side=side, most_fewest=most_fewest is not None,
                         travelers=travelers)
    s = game.new_initial_state()
    hands = hands or {p: [10 * p + k for k in range(1, 7)] for p in range(players)}
    offer = offer or list(range(1, players + 1))
    provinces = provinces or {p: offer[p] for p in range(players)}
    boxes = boxes or {p: hands[p][0] for p in range(players)}
    for k in offer:
        s.apply_string(f"offer province {k}{side}")
    for i, (card, face) in enumerate(most_fewest or []):
        s.apply_string(f"scoring card {card} {face} between P{i} and P{(i + 1) % players}")
    for i in range(6):
        for p in range(players):
            s.apply_string(f"deal {hands[p][i]} to P{p}")
    for p in reversed(range(players)):
        assert s.current_player == p
        s.apply_string(f"province {provinces[p]}{side}")
        s.apply_string(f"pick box {boxes[p]}")
    if players == 2:
        s.apply_string(f"middle {middles[0]} right")
        s.apply_string(f"middle {middles[1]} left")
    return s


def obs(s, seat=None):
    return s.full_observation() if seat is None else s.observation(seat)


def cell(s, seat, name, viewer=None):
    """The observed square `name` ("p17") of seat's map, or None if empty."""
    for c in obs(s, viewer)["maps"][seat]["cells"]:
        if c["name"] == name:
            return c
    return None


def positions(s, orientation, layer):
    """Top-left squares where the card to place may go (orientation, over/under)."""
    t = s.clone()
    legal = names(t)
    orient = [m for m in legal if m.startswith("orient") and m.endswith(f" {orientation} {layer}")]
    if not orient:
        return set()
    t.apply_string(orient[0])
    return {m.split(" at ")[1].split()[0] for m in names(t)}


def paint(s, seat, rows, top=12, left=12, clear=True):
    """Draw seat's map from text rows of space-separated squares:
    . empty, L F T H W terrain, Pc production, Xcv factory (colour c in b r g p,
    value v), then optional suffixes: *c a resource of colour c (* alone: the
    production colour), + a terraforming tile, !s a traveler of seat s."""
    if clear:
        _kyushu_scenario.clear_map(s, seat)
    for i, row in enumerate(rows):
        for j, tok in enumerate(row.split()):
            if tok == ".":
                continue
            traveler = -1
            if "!" in tok:
                tok, owner = tok.split("!")
                traveler = int(owner)
            tile = tok.endswith("+")
            tok = tok.rstrip("+")
            resource = -1
            if "*" in tok:
                tok, res = tok.split("*")
                resource = COLOUR[res] if res else COLOUR[tok[1]]
            if tok[0] == "P":
                terrain, value = 6 + COLOUR[tok[1]], 0
            elif tok[0] == "X":
                terrain, value = 10 + COLOUR[tok[1]], int(tok[2])
            else:
                terrain, value = TERRAIN[tok], 0
            _kyushu_scenario.set_cell(s, seat, top + i, left + j, terrain, value, resource, tile, traveler)
    return s


def scores(s, viewer=None):
    return obs(s, viewer)["scores"]
