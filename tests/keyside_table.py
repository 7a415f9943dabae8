"""Set a Keyside table exactly as a scenario needs it: explicit chance actions,
named moves, and (for scoring scenarios) seats edited field by field."""
import boardlab
from boardlab import _keyside_scenario
from moves import names, play  # noqa: F401  (re-exported for the scenario tests)

COLOURS = ["yellow", "green", "red", "blue", "purple", "orange"]
GOODS = ["cow", "pig", "sheep", "fish", "stone", "wheat", "wood", "emerald", "ruby", "sapphire"]
LOC = {"town": 0, **{f"M{k}": k for k in range(1, 9)}, **{f"R{k}": 8 + k for k in range(1, 9)},
       **{f"H{k}": 16 + k for k in range(1, 13)}}


def table(players=2, tiles="ABCDEFGHIJKL", scores=range(1, 13), start=0, dice=None,
          beacons=("A1", "B1", "C1"), flag=1, kt_strips=(1, 2, 3), seed=1, **params):
    """A game right after setup: harbour tile tiles[i] and scoring tile scores[i] at H(i+1),
    the first field placement, farms 1-5 side a and markets in data order (top side) in
    location order, start player `start`. dice: seat -> six values (yellow..orange) to set
    (default: everyone 1..6); False leaves the dice phase open. Solo (players=1): Keytoma's
    dice strips, the beacons drawn and the harbour number of the 1-2 flag."""
    game = boardlab.make("keyside", players=players, **params)
    s = game.new_initial_state(seed=seed)   # the seed draws the hidden gem bag order
    for i, t in enumerate(tiles):
        s.apply_string(f"harbour tile {t} at H{i + 1}")
    for i, n in enumerate(scores):
        s.apply_string(f"scoring tile {n} at H{i + 1}")
    while s.is_chance() and s.full_observation()["harbours"][0]["score"] is not None:
        legal = names(s)
        text = legal[0]
        if text.startswith("start player"):
            text = f"start player P{start}"
        elif text.startswith("farm"):
            text = [x for x in legal if x.endswith(f"at {x.split(' at ')[1]}") and "side a" in x][0]
        elif text.startswith("market"):
            text = [x for x in legal if "top" in x][0]
        elif text.startswith("Keytoma gets"):
            text = f"Keytoma gets dice strip {[k for k in kt_strips if f'strip {k}' in ' '.join(legal)][0]}"
        elif text.startswith("beacon"):
            text = f"beacon {beacons[ord(text[7]) - ord('A')]}"
        elif text.startswith("flag"):
            text = f"flag 1-2 at harbour {flag}"
        s.apply_string(text)
    if dice is not False:
        dice = dice or {p: [1, 2, 3, 4, 5, 6] for p in range(players)}
        for k in range(players):
            p = (start + k) % players
            for c, v in zip(COLOURS, dice[p]):
                s.apply_string(f"{c} = {v}")
    return s


def setv(s, seat, field, index, value):
    """Edit one field of the table (boardlab._keyside_scenario.FIELDS)."""
    if field == "good" and isinstance(index, str):
        index = GOODS.index(index)
    if field in ("keyples",) and isinstance(index, str):
        index = LOC[index]
    if field in ("level", "building", "house") and isinstance(index, str):
        index = COLOURS.index(index)
    _keyside_scenario.set(s, seat, field, index, value)
    return s


def obs(s, seat=None):
    return s.full_observation() if seat is None else s.observation(seat)


def score(s, seat):
    return obs(s)["seats"][seat]["score"]
