"""Kyūshū positions from a seat's knowledge (Game.position): built, searched,
refused with the bad fact named, read back from a real game, re-dealt."""
import random

import pytest

import boardlab
from boardlab.games import kyushu
from boardlab.search import ismcts


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


SAME = ("round", "phase", "current_player", "pool", "draw_pile_size", "discarded", "hand_sizes", "hands",
        "pick_boxes", "selected", "most_fewest", "travelers", "maps", "scores")


@pytest.mark.parametrize("params, round_, to_move, seat", [
    ({"players": 3}, 4, 0, 1),
    ({"players": 2}, 9, 1, 1),
    ({"players": 2, "most_fewest": True}, 3, 0, 1),
    ({"players": 4, "most_fewest": True, "travelers": True}, 10, 2, 3),
    ({"players": 5, "side": "B", "travelers": True}, 8, 4, 2),
])
def test_a_real_table_read_by_a_seat_round_trips(params, round_, to_move, seat):
    game = boardlab.make("kyushu", **params)
    real = play_to_selection(game, 7, round_, to_move)
    seen = real.observation(seat)
    pos = game.position(seat, seed=3, **facts_of(seen))
    again = pos.observation(seat)
    for key in SAME:
        assert again[key] == seen[key], key
    if seat == to_move:   # the mover's choices depend on its hand, which only it sees
        assert sorted(pos.legal_actions()) == sorted(real.legal_actions())


def test_position_is_searched_and_replays():
    game = boardlab.make("kyushu", players=3)
    real = play_to_selection(game, 11, 3, 1)
    pos = game.position(1, seed=5, **facts_of(real.observation(1)))
    result = ismcts(pos, iterations=200, seed=1)
    assert result.player == 1 and sum(st["visits"] for st in result.stats) >= 199
    move = result.best_action
    assert move in pos.legal_actions()
    pos.apply(move)
    again = game.replay(pos.to_record())
    assert again.observation(1) == pos.observation(1)


def test_the_hidden_rest_varies_under_determinize():
    game = boardlab.make("kyushu", players=4)
    real = play_to_selection(game, 2, 2, 0)
    pos = game.position(0, seed=1, **facts_of(real.observation(0)))
    hands = set()
    for k in range(8):
        d = pos.determinize(0, seed=k) if "seed" in pos.determinize.__code__.co_varnames else pos.determinize(0)
        full = d.full_observation()
        assert full["hands"][0] == pos.observation(0)["hands"][0]
        hands.add(tuple(map(tuple, full["hands"][1:])))
    assert len(hands) > 1
    other = game.position(0, seed=2, **facts_of(real.observation(0)))
    assert other.full_observation()["hands"][1:] != pos.full_observation()["hands"][1:]


def _base():
    game = boardlab.make("kyushu", players=3, travelers=True)
    real = play_to_selection(game, 7, 8, 1)
    return game, facts_of(real.observation(0))


def _first_resource(f):
    return f["resources"][0]


BAD = [
    ("round", lambda f: f.update(round=6)),
    ("round", lambda f: f.update(round="3")),
    ("hand", lambda f: f.update(hand=f["hand"][1:])),
    ("hand", lambda f: f.update(hand=[61] + f["hand"][1:])),
    ("cards", lambda f: f.update(hand=[f["pick_boxes"][0]] + f["hand"][1:])),
    ("maps", lambda f: f.update(maps=f["maps"][:2])),
    ("maps", lambda f: f["maps"][0][1].update(row=0, col=0)),
    ("maps", lambda f: f["maps"][1].__setitem__(0, {**f["maps"][1][0], "card": f["maps"][0][0]["card"]})),
    ("maps[0] card 1 orientation", lambda f: f["maps"][0][1].update(orientation="diagonal")),
    ("maps[0] card 1 layer", lambda f: f["maps"][0][1].update(layer="beside")),
    ("pick_boxes", lambda f: f.update(pick_boxes=f["pick_boxes"][:2])),
    ("pick_boxes", lambda f: f["pick_boxes"].__setitem__(0, None)),
    ("taken", lambda f: f.update(taken=[])),
    ("to_move", lambda f: f.update(to_move=7)),
    ("pool", lambda f: f["pool"].update(blue=f["pool"]["blue"] + 1)),
    ("pool colour", lambda f: f.update(pool={"gold": 1})),
    ("resources", lambda f: _first_resource(f).update(colour=[c for c in kyushu.COLOURS
                                                              if c != _first_resource(f)["colour"]][0])),
    ("resources", lambda f: f["resources"].append(dict(f["resources"][0]))),
    ("resources[0]", lambda f: f["resources"].__setitem__(0, {"seat": 0})),
    ("tiles", lambda f: f.update(tiles=[{"seat": 0, "row": f["resources"][0]["row"],
                                         "col": f["resources"][0]["col"], "terrain": "lake"}])),
    ("tiles[0] terrain", lambda f: f.update(tiles=[{"seat": 0, "row": 0, "col": 0, "terrain": "sea"}])),
    ("travelers", lambda f: f.update(travelers=[{"owner": 0, "host": 0, "row": 0, "col": 0}])),
    ("most_fewest", lambda f: f.update(most_fewest=[[1, "most"]] * 3)),
    ("discarded", lambda f: f.update(discarded=[1, 2])),
    ("unknown kyushu position fact", lambda f: f.update(weather="rain")),
]


@pytest.mark.parametrize("name, spoil", BAD, ids=[f"{i}-{b[0]}" for i, b in enumerate(BAD)])
def test_every_bad_fact_is_refused_by_name(name, spoil):
    game, facts = _base()
    game.position(0, **facts)   # the unspoilt facts are fine
    spoil(facts)
    with pytest.raises(ValueError, match=name.replace("[", r"\[").replace("]", r"\]")):
        game.position(0, **facts)


def test_a_bad_position_record_is_a_record_error():
    game, facts = _base()
    record = game.position(0, **facts).to_record()
    record = dict(record)
    pos = dict(record["position"])
    pos["facts"] = {**pos["facts"], "round": 6}
    record["position"] = pos
    with pytest.raises(boardlab.RecordError, match="round"):
        game.replay(record)
