"""The public Python API (make / Game / State / records) on Kitsu."""
import copy
import json
import pickle

import numpy as np
import pytest

import boardlab
from boardlab import CHANCE, TERMINAL, IllegalActionError, RecordError, search
from boardlab.agents import ISMCTSAgent, make_agent

from conftest import play_random, random_action, random_positions


def decision_state(game, seed=0, skip=0):
    """A state at a decision node (after the deal), `skip` decisions later."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    while state.is_chance() or skip > 0:
        if not state.is_chance():
            skip -= 1
        state.apply(random_action(state, rng))
        assert not state.is_terminal()
    return state


def finished_state(game, seed=0):
    return play_random(game.new_initial_state(seed), np.random.default_rng(seed))


# ---------------------------------------------------------------- make / Game
def test_constants_and_errors():
    assert (CHANCE, TERMINAL) == (-1, -2)
    assert issubclass(IllegalActionError, ValueError)
    assert issubclass(RecordError, ValueError)
    assert "kitsu" in boardlab.games_available()


def test_unknown_game_lists_known_games():
    with pytest.raises(ValueError, match="kitsu") as info:
        boardlab.make("chess")
    assert "chess" in str(info.value)


def test_unknown_parameter_is_named():
    with pytest.raises(ValueError, match="plyers"):
        boardlab.make("kitsu", plyers=4)


@pytest.mark.parametrize("bad", [3, 0, 7, -2, "4", 4.0, None])
def test_bad_parameter_value_is_named(bad):
    with pytest.raises(ValueError, match="players"):
        boardlab.make("kitsu", players=bad)


#: Values of the wrong type for a parameter whose default is a bool, an int or a str.
WRONG_TYPES = {bool: [1, 0, "yes", None, [True], {}], int: [True, "4", 4.0, None, [4], {}],
               str: [[4], {}, 4, None, b"A", ("A",)]}


def _parameter_cases():
    for name in boardlab.games_available():
        for key, default in boardlab.games.get(name).DEFAULTS.items():
            for bad in WRONG_TYPES[type(default)]:
                yield pytest.param(name, key, bad, id=f"{name}-{key}-{bad!r}")


@pytest.mark.parametrize("name, key, bad", _parameter_cases())
def test_parameter_of_the_wrong_type_is_named(name, key, bad):
    """Unhashable or wrong-typed values are refused with a ValueError naming the parameter
    (a list for a name once raised TypeError: unhashable)."""
    with pytest.raises(ValueError, match=repr(key)) as info:
        boardlab.make(name, **{key: bad})
    assert type(info.value) is ValueError


def test_numpy_parameters_become_plain_values():
    game = boardlab.make("kitsu", players=np.int64(2))
    assert type(game.params["players"]) is int
    json.dumps(game.new_initial_state().to_record())


@pytest.mark.parametrize("seed", [-1, 2**64, "1", 1.5, True])
def test_bad_seed(seed):
    with pytest.raises(ValueError, match="seed"):
        boardlab.make("kitsu", seed=seed)


def test_game_attributes(game4):
    assert game4.name == "kitsu"
    assert game4.seed == 11
    assert game4.num_players == 4
    assert game4.num_actions > 0
    params = game4.params
    assert params["players"] == 4 and set(params) >= {"players"}
    params["players"] = 6                       # a copy
    assert game4.params["players"] == 4
    defaults = boardlab.make("kitsu")
    assert set(defaults.params) == set(params)


def test_game_repr_round_trips(game4):
    again = eval(repr(game4), {"boardlab": boardlab})
    assert again == game4 and repr(again) == repr(game4)


def test_initial_state_seeds(game4):
    assert game4.new_initial_state() == game4.new_initial_state(11)
    assert game4.new_initial_state(5) == game4.new_initial_state(5)
    unseeded = boardlab.make("kitsu", players=4)
    assert unseeded.new_initial_state() == unseeded.new_initial_state(0)
    with pytest.raises(ValueError, match="seed"):
        game4.new_initial_state(-3)


# ------------------------------------------------------------------- State
def test_initial_state_is_chance(game4):
    state = game4.new_initial_state()
    assert state.current_player == CHANCE and state.is_chance()
    assert not state.is_terminal()
    outcomes = state.chance_outcomes()
    assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert [a for a, _ in outcomes] == state.legal_actions().tolist()
    assert state.history == []


def test_history_records_every_action(game4, rng):
    state = game4.new_initial_state()
    applied = []
    for _ in range(40):
        a = random_action(state, rng)
        state.apply(a)
        applied.append(a)
    assert state.history == applied
    state.history.append(99)                    # a copy
    assert state.history == applied


@pytest.mark.parametrize("bad", ["3", 3.5, None, True, [1], -1, 10_000])
def test_illegal_apply_leaves_state_unchanged(game4, bad):
    state = decision_state(game4, seed=2)
    before, history = state.clone(), state.history
    with pytest.raises(IllegalActionError) as info:
        state.apply(bad)
    assert isinstance(info.value, ValueError)
    assert state == before and state.history == history
    legal = state.legal_actions()
    assert info.value.legal == legal.tolist()
    text = str(info.value)
    assert repr(bad) in text or str(bad) in text
    # The legal set is listed with its notation.
    assert state.action_to_string(int(legal[0])) in text


def test_illegal_but_in_range_action(game4):
    state = decision_state(game4, seed=3)
    illegal = [a for a in range(game4.num_actions) if not state.legal_mask()[a]]
    before = state.clone()
    for a in illegal:
        with pytest.raises(IllegalActionError, match=rf"\b{a}\b"):
            state.apply(a)
        with pytest.raises(IllegalActionError):
            state.action_to_string(a)
    assert state == before and state.history == before.history


def test_numpy_integers_are_accepted(game4):
    state = decision_state(game4, seed=4)
    a = state.legal_actions()[0]
    assert isinstance(a, np.integer)
    state.apply(a)
    assert state.history[-1] == int(a) and type(state.history[-1]) is int


def test_terminal_state(game4):
    state = finished_state(game4, seed=5)
    assert state.is_terminal() and state.current_player == TERMINAL
    assert len(state.legal_actions()) == 0 and not state.legal_mask().any()
    assert state.chance_outcomes() == []
    returns = state.returns()
    assert returns.shape == (4,) and np.all(np.isfinite(returns))
    with pytest.raises(IllegalActionError, match="over"):
        state.apply(0)


def test_clone_is_independent(game4, rng):
    state = decision_state(game4, seed=6)
    clone = state.clone()
    assert clone == state and clone is not state
    snapshot = state.observation(0)
    play_random(clone, rng)
    assert clone.is_terminal() and not state.is_terminal()
    assert state.observation(0) == snapshot
    assert len(clone.history) > len(state.history)
    assert copy.copy(state) == state and copy.deepcopy(state) == state


def test_equality_and_hash(game4):
    a, b = decision_state(game4, seed=7), decision_state(game4, seed=7)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    b.apply(int(b.legal_actions()[0]))
    assert a != b
    other = boardlab.make("kitsu", players=6).new_initial_state()
    assert other != game4.new_initial_state()


def test_pickle_round_trip(game4):
    state = decision_state(game4, seed=8, skip=3)
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.history == state.history


def test_parse_and_format_round_trip(game4):
    for state in random_positions(game4, seed=9, count=60):
        for a in state.legal_actions().tolist():
            text = state.action_to_string(a)
            assert isinstance(text, str) and text.strip()
            assert state.parse_action(text) == a
            assert state.parse_action(f"  {text.upper()}  ") == a
            assert state.parse_action("  ".join(text.lower().split())) == a
            assert state.parse_action(str(a)) == a


def test_notations_are_distinct(game4):
    for state in random_positions(game4, seed=10, count=60):
        names = [state.action_to_string(a) for a in state.legal_actions().tolist()]
        folded = [" ".join(n.split()).casefold() for n in names]
        assert len(set(folded)) == len(folded), names


def test_parse_unknown_text(game4):
    state = decision_state(game4, seed=12)
    before = state.clone()
    notations = [state.action_to_string(a) for a in state.legal_actions().tolist()]
    with pytest.raises(IllegalActionError) as info:
        state.parse_action("castle kingside")
    text = str(info.value)
    assert "castle kingside" in text
    assert all(n in text for n in notations)
    illegal = next(a for a in range(game4.num_actions) if not state.legal_mask()[a])
    with pytest.raises(IllegalActionError):
        state.parse_action(str(illegal))
    with pytest.raises(IllegalActionError):
        state.parse_action(3)
    assert state == before


def test_apply_string(game4):
    state = decision_state(game4, seed=13)
    a = int(state.legal_actions()[-1])
    assert state.apply_string(state.action_to_string(a).swapcase()) == a
    assert state.history[-1] == a


def test_chance_outcomes_at_decision_node(game4):
    state = decision_state(game4, seed=14)
    assert state.chance_outcomes() == []


def test_observation(game4):
    state = decision_state(game4, seed=15, skip=2)
    for p in range(4):
        obs = state.observation(p)
        assert isinstance(obs, dict)
        json.dumps(obs)
    assert state.observation(0) != state.observation(1)
    for bad in (-1, 4, "0", True, 1.5, None):
        with pytest.raises(ValueError):
            state.observation(bad)
    assert isinstance(state.full_observation(), dict)


def test_str_and_repr(game4):
    state = decision_state(game4, seed=16)
    assert isinstance(str(state), str) and str(state).strip()
    assert "kitsu" in repr(state)


def test_evaluate(game4):
    state = decision_state(game4, seed=17).determinize(0, 1)
    value = state.evaluate()
    assert value.shape == (4,)
    assert np.all((value >= -1) & (value <= 1))


def test_determinize(game4, monkeypatch):
    state = decision_state(game4, seed=18, skip=5)
    before = state.clone()
    det = state.determinize(2, seed=3)
    assert det.is_determinized and not state.is_determinized
    # Its history is what seat 2 saw (Kitsu's rule: tests/test_hidden_info.py).
    assert det.history == state.observed_history(2) != state.history
    assert all(seen in (a, boardlab.HIDDEN) for a, seen in zip(state.history, det.history))
    # Without a game's own rule a seat sees its own moves only.
    monkeypatch.delattr(game4._module, "SeenHistory")
    replay = game4.new_initial_state(18)
    for a, seen in zip(state.history, state.observed_history(2)):
        assert seen == (a if replay.current_player == 2 else boardlab.HIDDEN)
        replay.apply(a)
    assert det.determinize(2, seed=4).history == [boardlab.HIDDEN] * len(state.history)
    assert det.observation(2) == state.observation(2)
    assert state == before
    assert det.clone().is_determinized
    with pytest.raises(ValueError, match="determinized"):
        det.to_record()
    for bad in (-1, 4, "1"):
        with pytest.raises(ValueError):
            state.determinize(bad, 0)
    with pytest.raises(ValueError, match="seed"):
        state.determinize(0, -1)


def test_observed_history_is_read_once_and_follows_every_move(game4, monkeypatch):
    """A seat's determinizations of one position replay its history once (the reader is
    kept with the state), and a move reads only that move on from a copy of it; a move, a
    clone's own move or a returned list changed by the caller never shows in it: it is
    always what a fresh replay of the record says."""
    state = decision_state(game4, seed=18, skip=5)
    rule, read = game4._module.SeenHistory, []
    monkeypatch.setattr(rule, "read",
                        lambda self, a, read_one=rule.read: read.append(a) or read_one(self, a))
    for seed in range(5):
        state.determinize(1, seed)
    assert read == state.history
    first = state.observed_history(1)
    first.append(-99)                               # the caller's copy
    assert state.observed_history(1) == first[:-1]
    copy = state.clone()
    for s in (state, copy):
        s.apply(int(s.legal_actions()[0]) if not s.is_chance() else s.chance_outcomes()[0][0])
        read.clear()
        s.observed_history(1)
        assert read == s.history[-1:]
        fresh = boardlab.replay(s.to_record())
        for seat in range(4):
            assert s.observed_history(seat) == fresh.observed_history(seat)
            assert s.determinize(seat, 1).history == fresh.observed_history(seat)


# ----------------------------------------------------------------- records
def test_record_shape(game4):
    state = decision_state(game4, seed=19, skip=4)
    record = state.to_record()
    assert record["format"] == "boardlab-record" and record["version"] == 1
    assert record["game"] == "kitsu" and record["params"] == game4.params
    assert record["seed"] == 19
    assert record["actions"] == state.history
    assert len(record["moves"]) == len(record["actions"])
    assert record["result"] is None
    json.dumps(record)


def test_record_round_trip_mid_game_and_finished(game4):
    for state in (decision_state(game4, seed=20, skip=7), finished_state(game4, seed=21)):
        record = state.to_record()
        for form in (record, json.dumps(record), json.dumps(record).encode()):
            again = game4.replay(form)
            assert again == state and again.history == state.history
            assert boardlab.replay(form) == state
        if state.is_terminal():
            assert record["result"] == state.returns().tolist()


def test_record_without_optional_keys(game4):
    state = decision_state(game4, seed=22, skip=2)
    record = state.to_record()
    del record["moves"], record["result"]
    assert game4.replay(record) == state


def _tampered(record, **changes):
    out = json.loads(json.dumps(record))
    out.update(changes)
    return out


@pytest.fixture
def records(game4):
    mid = decision_state(game4, seed=23, skip=6).to_record()
    end = finished_state(game4, seed=24).to_record()
    return mid, end


def test_record_not_a_record(game4):
    for bad in ([], 5, None, "not json {", "[1, 2]", b"\xff\xfe"):
        with pytest.raises(RecordError):
            game4.replay(bad)
        with pytest.raises(RecordError):
            boardlab.replay(bad)


@pytest.mark.parametrize("key", ["format", "version", "game", "params", "seed", "actions"])
def test_record_missing_key(records, key):
    mid, _ = records
    del mid[key]
    with pytest.raises(RecordError, match=key):
        boardlab.replay(mid)


@pytest.mark.parametrize("changes, pattern", [
    ({"format": "pgn"}, "format"),
    ({"version": 2}, "version"),
    ({"version": "1"}, "version"),
    ({"version": True}, "version"),
    ({"game": "chess"}, "chess"),
    ({"game": 3}, "game"),
    ({"params": {"players": 3}}, "players"),
    ({"params": {"plyers": 4}}, "plyers"),
    ({"params": [4]}, "params"),
    ({"seed": -1}, "seed"),
    ({"seed": "7"}, "seed"),
    ({"actions": "1 2 3"}, "actions"),
    ({"moves": "x"}, "moves"),
    ({"result": "won"}, "result"),
])
def test_record_bad_fields(records, changes, pattern):
    mid, _ = records
    with pytest.raises(RecordError, match=pattern):
        boardlab.replay(_tampered(mid, **changes))


def test_record_non_int_action(records):
    mid, _ = records
    for bad in ("3", 3.0, None, True):
        actions = list(mid["actions"])
        actions[5] = bad
        with pytest.raises(RecordError, match=r"actions\[5\]"):
            boardlab.replay(_tampered(mid, actions=actions))


def test_record_illegal_action(game4, records):
    mid, _ = records
    i = len(mid["actions"]) - 2
    state = game4.replay(_tampered(mid, actions=mid["actions"][:i], moves=mid["moves"][:i]))
    illegal = next(a for a in range(game4.num_actions) if not state.legal_mask()[a])
    actions = list(mid["actions"])
    actions[i] = illegal
    with pytest.raises(RecordError, match=rf"actions\[{i}\] = {illegal}"):
        game4.replay(_tampered(mid, actions=actions))
    actions[i] = 10_000
    with pytest.raises(RecordError, match=rf"actions\[{i}\]"):
        game4.replay(_tampered(mid, actions=actions))


def test_record_notation_mismatch(records):
    mid, _ = records
    moves = list(mid["moves"])
    moves[3] = "something else"
    with pytest.raises(RecordError, match=r"moves\[3\]"):
        boardlab.replay(_tampered(mid, moves=moves))
    moves = list(mid["moves"])
    moves[3] = "  " + moves[3].upper()          # normalised comparison
    assert boardlab.replay(_tampered(mid, moves=moves)).history == mid["actions"]
    with pytest.raises(RecordError, match="moves"):
        boardlab.replay(_tampered(mid, moves=mid["moves"][:-1]))


def test_record_result_mismatch(records):
    mid, end = records
    result = list(end["result"])
    result[0] = result[0] + 1.0
    with pytest.raises(RecordError, match="result"):
        boardlab.replay(_tampered(end, result=result))
    with pytest.raises(RecordError, match="result"):
        boardlab.replay(_tampered(end, result=None))
    with pytest.raises(RecordError, match="result"):
        boardlab.replay(_tampered(end, result=end["result"][:-1]))
    with pytest.raises(RecordError, match="result"):
        boardlab.replay(_tampered(mid, result=[0.0] * 4))


def test_record_actions_after_the_end(records):
    _, end = records
    n = len(end["actions"])
    with pytest.raises(RecordError, match=rf"actions\[{n}\].*over"):
        boardlab.replay(_tampered(end, actions=end["actions"] + [0], moves=None, result=None))


def test_record_of_another_game(game4, records):
    mid, _ = records
    with pytest.raises(RecordError, match="players|params"):
        boardlab.make("kitsu", players=6).replay(mid)
    with pytest.raises(RecordError, match="chess"):
        game4.replay(_tampered(mid, game="chess"))


# ---------------------------------------------------------------- playouts
def test_random_playouts(game4):
    stats = game4.random_playouts(50, seed=3)
    assert isinstance(stats, boardlab.PlayoutStats)
    assert stats.returns.shape == (50, 4) and np.all(np.isfinite(stats.returns))
    assert stats.actions > 50
    again = game4.random_playouts(50, seed=3)
    assert np.array_equal(again.returns, stats.returns) and again.actions == stats.actions
    other = game4.random_playouts(50, seed=4)
    assert other.actions != stats.actions or not np.array_equal(other.returns, stats.returns)
    assert game4.random_playouts(0).returns.shape == (0, 4)


def test_random_playouts_from_a_state(game4):
    state = decision_state(game4, seed=25, skip=3)
    before = state.clone()
    stats = game4.random_playouts(20, seed=1, state=state)
    assert stats.returns.shape == (20, 4)
    assert state == before
    with pytest.raises(ValueError):
        game4.random_playouts(5, state=boardlab.make("kitsu", players=2).new_initial_state())
    with pytest.raises(ValueError):
        game4.random_playouts(-1)


# ---------------------------------------------------------------- bad input: the documented error
def position_record():
    """A record of a Kitsu position set up with Game.position (2 players)."""
    game = boardlab.make("kitsu", players=2)
    return game.position(0, seed=1, hand=["B1", "O3"], leader=1, trick=["O6"]).to_record()


def test_record_nested_too_deeply():
    for text in ("[" * 100_000, b"[" * 100_000, '{"a": ' * 100_000):
        with pytest.raises(RecordError, match="nested too deeply"):
            boardlab.replay(text)
        with pytest.raises(RecordError, match="nested too deeply"):
            boardlab.make("kitsu").replay(text)


@pytest.mark.parametrize("seat", [7, 2, -1, 2**70])
def test_record_position_seat_out_of_range(seat):
    record = position_record()
    record["position"]["seat"] = seat
    with pytest.raises(RecordError, match=r"position.*seat must be a seat in \[0, 2\)"):
        boardlab.replay(record)


#: (fact, bad value): each must be refused naming the fact, by Game.position and in a record.
BAD_FACTS = [
    ("tokens", [1]), ("tokens", "used"), ("tokens", {"+3": True}), ("tokens", {"+3": 1.0}),
    ("tokens", {"+3": 2**40}), ("known", [1]), ("known", {"١": ["B1"]}), ("known", {"1": "B1"}),
    ("trick", 3), ("trick", "O3"), ("trick", [3]), ("trick", [["O3"]]),
    ("leader", None), ("leader", "1"), ("leader", True), ("leader", 1.9), ("leader", 2**40),
    ("leader", -1), ("pawns", [2**40, 0]), ("pawns", [0, -2**40]), ("pawns", [0]),
    ("pawns", "0 0"), ("rounds_won", [0, 2**63]), ("rounds_won", [0.0, 0]),
    ("hand_sizes", [2**40, 0]), ("hand_sizes", [1, "1"]), ("hand", "B1 O3"), ("hand", [None]),
    ("hand", [["B1"]]), ("discard", [{"card": "B1"}]), ("last_trick", 5),
]


@pytest.mark.parametrize("fact, bad", BAD_FACTS)
def test_position_bad_fact_is_named(fact, bad):
    game = boardlab.make("kitsu", players=2)
    facts = dict(position_record()["position"]["facts"], **{fact: bad})
    with pytest.raises(ValueError, match=fact) as info:
        game.position(0, **facts)
    assert type(info.value) is ValueError
    record = position_record()
    record["position"]["facts"][fact] = bad
    with pytest.raises(RecordError, match=fact):
        boardlab.replay(record)
    with pytest.raises(RecordError, match=fact):
        boardlab.replay(json.dumps(record))


def test_position_facts_of_the_right_type_still_work():
    game = boardlab.make("kitsu", players=2)
    s = game.position(1, hand=["B1", "O3"], leader=0, trick=["O6"], tokens={"+3": 0, "hidden": None},
                      known={"0": ["B6"]}, pawns=(3, 4), discard=None)   # None: not given
    assert s.current_player == 1 and s.full_observation()["pawns"] == [3, 4]
    assert boardlab.replay(json.loads(json.dumps(s.to_record()))) == s


def test_kernel_setup_vector_is_range_checked():
    core = boardlab.make("kitsu", players=2)._core
    with pytest.raises(ValueError, match="position value 2 out of int32 range"):
        core.setup_state([0, 0, 2**40], 0)
    with pytest.raises(ValueError, match="position value 1 must be an int"):
        core.setup_state([0, "1"], 0)


def test_search_binding_names_out_of_range_arguments(game4):
    from boardlab import _search
    core = decision_state(game4, seed=16)._core
    for kwargs, name in [({"rollout_depth": 2**31}, "rollout_depth"), ({"seed": 2**64}, "seed"),
                         ({"max_nodes": 2**63}, "max_nodes"), ({"player": 2**40}, "player")]:
        args = dict({"player": 0}, **kwargs)
        with pytest.raises(ValueError, match=name):
            _search.ISMCTSTree(core, **args)
    tree = _search.ISMCTSTree(core, 0)
    for n in (-1, 2**63, 1.5):
        with pytest.raises(ValueError, match="n: must be an integer"):
            tree.run(n)
    assert tree.run(5) == 5 and tree.iterations == 5


def test_record_huge_numbers():
    record = position_record()
    for changes, pattern in [({"result": [2**2000, 0]}, "result"),
                             ({"result": [float("inf"), 0.0]}, "result"),
                             ({"seed": 10**5000}, "seed"),
                             ({"actions": [10**5000], "moves": None}, r"actions\[0\] = <int too large")]:
        with pytest.raises(RecordError, match=pattern):
            boardlab.replay(_tampered(record, **changes))
    text = '{"format": "boardlab-record", "version": 1, "seed": ' + "9" * 5000 + "}"
    with pytest.raises(RecordError, match="not valid JSON"):
        boardlab.replay(text)


def test_parse_action_numbers_are_ascii_and_bounded(game4):
    state = decision_state(game4, seed=12)
    before = state.clone()
    a = int(state.legal_actions()[-1])
    assert state.parse_action(str(a)) == a
    assert state.parse_action(f"+{a}") == a and state.parse_action(f"000{a}") == a
    arabic = "".join("٠١٢٣٤٥٦٧٨٩"[int(d)] for d in str(a))      # the same number, Arabic-Indic
    fullwidth = "".join(chr(0xFF10 + int(d)) for d in str(a))
    for text in (arabic, fullwidth, "9" * 5000, "9" * 10, f"-{a}", f"1{'0' * 4400}{a}"):
        with pytest.raises(IllegalActionError, match="no legal move matches"):
            state.parse_action(text)
    assert state == before and state.history == before.history


def test_huge_action_values_are_illegal_actions(game4):
    state = decision_state(game4, seed=13)
    before = state.clone()
    for bad in (10**5000, 2**64, -(2**63), np.uint64(2**64 - 1)):
        with pytest.raises(IllegalActionError, match="out of range"):
            state.apply(bad)
    assert state == before and state.history == before.history


def test_random_playouts_range(game4):
    for n in (2**31, 2**63, -1, 1.0, True):
        with pytest.raises(ValueError, match=r"n must be an int in \[0, 2147483647\]"):
            game4.random_playouts(n)


# ---------------------------------------------------------------- search and agent parameters
@pytest.mark.parametrize("kwargs, message", [
    ({"iterations": 10, "rollout_depth": 2**31}, r"rollout_depth must be an integer in \[-1, 2147483647\]"),
    ({"iterations": 10, "max_nodes": 2**63}, r"max_nodes must be an integer in \[1, 2147483647\]"),
    ({"iterations": 10, "max_nodes": 2**31}, r"max_nodes must be an integer in \[1, 2147483647\]"),
    ({"iterations": 10, "seed": 2**64}, r"seed must be an integer in \[0, 2\*\*64\)"),
    ({"iterations": 10, "seed": 2**70}, r"seed must be an integer in \[0, 2\*\*64\)"),
    ({"seconds": 0.01, "threads": 100_000}, r"threads must be an integer in \[1, 16\]"),
    ({"iterations": 10, "threads": 17}, r"threads must be an integer in \[1, 16\]"),
    ({"iterations": 2**32}, r"iterations must be an integer in \[1, 4294967295\]"),
    ({"iterations": 10, "c": 10**400}, "c must be a finite number >= 0"),
    ({"iterations": 10, "bias": -(10**400)}, "bias must be a finite number >= 0"),
    ({"seconds": 10**400}, "seconds must be a finite number > 0"),
    ({"iterations": 10, "player": 2**70}, r"player must be an integer in \[0, 4\)"),
    ({"iterations": 10, "final": ["visits"]}, "final must be one of"),
])
def test_search_values_out_of_range(game4, kwargs, message):
    state = decision_state(game4, seed=14)
    before = state.clone()
    with pytest.raises(ValueError, match=message):
        search.ismcts(state, **kwargs)
    assert state == before and state.history == before.history


@pytest.mark.parametrize("bad", ["kitsu", None, 42, [1, 2], boardlab.make("kitsu")])
def test_search_needs_a_state(bad):
    with pytest.raises(TypeError, match="state must be a boardlab.State, got"):
        search.ismcts(bad, iterations=10)
    for agent in (make_agent("random"), make_agent("greedy"), make_agent("ismcts:10")):
        with pytest.raises(TypeError, match="state must be a boardlab.State"):
            agent.step(bad)


def test_search_threads_at_the_documented_maximum(game4):
    state = decision_state(game4, seed=15)
    r = search.ismcts(state, seconds=0.02, threads=search.MAX_THREADS, seed=1)
    assert r.iterations > 0 and sum(s["visits"] for s in r.stats) == r.iterations
    r = search.ismcts(state, iterations=40, threads=search.MAX_THREADS, seed=1)
    assert r.iterations == 40 and sum(s["visits"] for s in r.stats) == 40


@pytest.mark.parametrize("spec, seed, message", [
    ("ismcts:10:depth=99999999999", 0, r"rollout_depth must be an integer in \[-1, 2147483647\]"),
    ("ismcts:10:threads=100000", 0, r"threads must be an integer in \[1, 16\]"),
    ("ismcts:1s:c=1e999", 0, "c must be a finite number"),
    ("ismcts:10:bias=nan", 0, "bad value 'nan' for bias"),
    ("ismcts:10:depth=٣", 0, "bad value '٣' for depth"),
    ("ismcts:10:c=١.٥", 0, "bad value"),
    ("ismcts:10:depth=" + "9" * 5000, 0, "bad value '9999"),
    ("ismcts:" + "9" * 5000, 0, "bad ismcts budget"),
    ("ismcts:٣٠", 0, "bad ismcts budget"),
    ("ismcts:99999999999", 0, r"iterations must be an integer in \[1, 4294967295\]"),
    ("random", 2**64, r"seed must be an integer in \[0, 2\*\*64\)"),
    ("ismcts:10", 2**64, r"seed must be an integer in \[0, 2\*\*64\)"),
], ids=lambda v: str(v)[:32] if isinstance(v, str) else None)
def test_agent_spec_values_out_of_range(spec, seed, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec, seed=seed)


def test_agent_options_checked_when_made():
    for kwargs, name in [({"c": float("nan")}, "c"), ({"rollout_depth": 2**31}, "rollout_depth"),
                         ({"threads": 2**40}, "threads"), ({"bias": float("inf")}, "bias"),
                         ({"final": "best"}, "final"), ({"seed": 2**64}, "seed"),
                         ({"iterations": 10, "seconds": 1.0}, "exactly one")]:
        with pytest.raises(ValueError, match=name):
            ISMCTSAgent(**kwargs)
    agent = ISMCTSAgent(iterations=10, seed=2**64 - 1, rollout_depth=2**31 - 1, threads=16)
    assert agent.name == "ismcts:10:depth=2147483647:threads=16"


@pytest.mark.parametrize("name,players", [("kitsu", 2), ("kitsu", 6), ("kyushu", 3),
                                          ("kyushu", 5), ("keyside", 1), ("keyside", 4),
                                          ("nukumi", 1), ("nukumi", 3)])
def test_who_wins_together_and_whether_returns_sum_to_zero_are_the_games(name, players):
    """Game.sides and Game.zero_sum, which self-play and the arena read instead of guessing
    from one game's returns: a side's seats finish with the same return, and a zero-sum
    table's returns add up to 0 in every game."""
    game = boardlab.make(name, players=players)
    names, side_of = game.sides
    assert len(side_of) == players and sorted(set(side_of)) == list(range(len(names)))
    assert names == (["Blue", "Orange"] if name == "kitsu" else [f"P{s}" for s in range(players)])
    assert game.zero_sum == (players > 1)
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        returns = play_random(state, np.random.default_rng(seed)).returns()
        for s in range(players):
            assert returns[s] == returns[side_of.index(side_of[s])]
        if game.zero_sum:
            assert abs(sum(returns)) < 1e-9
