"""Property-based tests (Hypothesis): bad input of every kind, on every registered game and
parameter set, gets its documented error and leaves the state byte-identical.

Documented errors: IllegalActionError for actions and move text, ValueError for other values
(seats, seeds, search options, agent specs, Game.position facts), TypeError for a search on
something that is not a state, RecordError for records. Examples are derandomized (the same
inputs on every run) and few enough for CI; no deadline (a slow machine is not a failure).
"""
import functools
import json
import math
import numbers

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardlab
from boardlab import IllegalActionError, RecordError, search
from boardlab.agents import ISMCTSAgent, make_agent

from conftest import game_cases, play_random, random_positions

CASES = game_cases()
FAST = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---------------------------------------------------------------- states under test
@functools.lru_cache(maxsize=None)
def game_of(case):
    name, params = case
    return boardlab.make(name, **dict(params))


@functools.lru_cache(maxsize=None)
def states_of(case):
    """States at random points of random games (chance and decision nodes), one terminal."""
    game = game_of(case)
    states = random_positions(game, seed=5, count=6)
    states.append(play_random(game.new_initial_state(seed=9), np.random.default_rng(9)))
    return tuple(states)


def key(case):
    """A hashable form of a (name, params) case."""
    name, params = case
    return name, tuple(sorted(params.items()))


def snapshot(state):
    """Everything a call must leave as it was."""
    return state._core.to_bytes(), json.dumps(state.full_observation()), state.history


def pick(case, index):
    states = states_of(case)
    return states[index % len(states)].clone()


# ---------------------------------------------------------------- values of every type
HUGE = st.one_of(st.sampled_from([2**31, 2**32, 2**63, 2**64, 2**70, -(2**63) - 1]),
                 st.integers(4400, 5000).map(lambda n: 10**n))      # past str()'s digit limit
INTS = st.one_of(st.integers(), st.integers(-3, 300), HUGE)
NUMPY = st.one_of(st.integers(-(2**63), 2**63 - 1).map(np.int64),
                  st.integers(0, 2**64 - 1).map(np.uint64),
                  st.integers(-128, 127).map(np.int8),
                  st.floats(allow_nan=True).map(np.float64),
                  st.booleans().map(np.bool_))
TEXT = st.one_of(st.text(max_size=12), st.integers().map(str),
                 st.integers(1, 6000).map(lambda n: "9" * n),
                 st.sampled_from(["٣", "３", "-0", "+1", "0x10", "1e3", " 2 ", "", "None"]))
SCALARS = st.one_of(st.none(), st.booleans(), INTS, st.floats(allow_nan=True), TEXT, NUMPY,
                    st.binary(max_size=8))
ANY = st.one_of(SCALARS, st.lists(SCALARS, max_size=3),
                st.dictionaries(st.text(max_size=4), SCALARS, max_size=3))
#: JSON values (what a record can hold): nested lists and objects of JSON scalars.
JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), HUGE.filter(lambda v: abs(v) < 2**80),
                         st.floats(allow_nan=True), st.text(max_size=10))
JSON = st.recursive(JSON_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=10)


def as_int(value):
    """The action an int-like value names (None for other types and bools)."""
    if isinstance(value, (bool, np.bool_)):
        return None
    try:
        return int(value.__index__())
    except (AttributeError, TypeError):
        return None


# ---------------------------------------------------------------- actions
@pytest.mark.parametrize("case", CASES)
@FAST
@given(value=st.one_of(ANY, st.integers(-2, 120)), index=st.integers(0, 99),
       call=st.sampled_from(["apply", "action_to_string", "parse_action", "apply_string"]))
def test_any_action_value(case, value, index, call):
    state = pick(key(case), index)
    before = snapshot(state)
    legal = state.legal_actions().tolist()
    try:
        out = getattr(state, call)(value)
    except IllegalActionError as e:
        assert e.legal == legal
        assert snapshot(state) == before
        return
    if call in ("apply", "action_to_string"):
        assert as_int(value) in legal
    else:
        assert out in legal and isinstance(value, str)
    if call == "action_to_string":
        assert isinstance(out, str) and snapshot(state) == before
    elif call == "parse_action":
        assert snapshot(state) == before
    else:
        assert state.history == before[2] + [as_int(value) if call == "apply" else out]


@pytest.mark.parametrize("case", CASES)
@FAST
@given(player=st.one_of(ANY, st.integers(-2, 8)), seed=st.one_of(ANY, st.integers(0, 9)),
       index=st.integers(0, 99))
def test_any_seat_and_seed(case, player, seed, index):
    state = pick(key(case), index)
    before = snapshot(state)
    for call in (lambda: state.observation(player), lambda: state.determinize(player, seed)):
        try:
            call()
        except ValueError:
            pass
        else:
            p = as_int(player)
            assert p is not None and 0 <= p < state.game.num_players
        assert snapshot(state) == before


# ---------------------------------------------------------------- records
@functools.lru_cache(maxsize=None)
def records_of(case):
    """JSON texts of records: a Game.position one first where there is one, then games."""
    records = [s.to_record() for s in states_of(case)]
    game = game_of(case)
    if game.name == "kitsu" and game.num_players == 2:
        s = game.position(0, seed=1, hand=["B1", "O3"], leader=1, trick=["O6"], pawns=[3, 4],
                          rounds_won=[0, 1], tokens={"+3": "used", "hidden": None, "invert": 1},
                          discard=["B2", "O2"], last_trick=["B2", "O2"], known={"1": ["B6"]},
                          hand_sizes=[2, 3])               # every fact, for the mutations
        records.insert(0, s.to_record())
    return tuple(json.dumps(r) for r in records)


def paths(value, prefix=()):
    """Every path (tuple of keys / indices) into a JSON value, the root included."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, prefix + (i,))


def mutate(record, data):
    """Apply a few random edits: delete, retype, replace, insert or truncate anywhere."""
    for _ in range(data.draw(st.integers(1, 3), label="edits")):
        if not isinstance(record, dict) or not record:
            break
        top = data.draw(st.sampled_from(sorted(record)), label="key")   # each key as likely
        where = data.draw(st.sampled_from(list(paths(record[top], (top,)))), label="path")
        parent = record
        for k in where[:-1]:
            parent = parent[k]
        last = where[-1]
        edit = data.draw(st.sampled_from(["delete", "replace", "nudge", "insert", "truncate"]))
        if edit == "delete":
            del parent[last]
        elif edit == "replace":
            parent[last] = data.draw(JSON, label="value")
        elif edit == "nudge" and isinstance(parent[last], int) and not isinstance(parent[last], bool):
            parent[last] += data.draw(st.sampled_from([-1, 1, 7, 2**31, -(2**40), 2**64]))
        elif edit == "insert" and isinstance(parent[last], list):
            at = data.draw(st.integers(0, len(parent[last])))
            parent[last].insert(at, data.draw(st.one_of(JSON, st.integers(-1, 400))))
        elif edit == "truncate" and isinstance(parent[last], (list, str)):
            parent[last] = parent[last][:data.draw(st.integers(0, max(len(parent[last]) - 1, 0)))]
    return record


def check_replay(record, game):
    """A (mutated) record replays to a State or raises RecordError, and stays as it was."""
    given_text = json.dumps(record)
    for source in (record, given_text):
        try:
            state = boardlab.replay(source)
        except RecordError:
            pass
        else:                                   # a mutation may leave a valid record
            assert boardlab.replay(state.to_record()) == state
    try:
        game.replay(record)
    except RecordError:
        pass
    assert json.dumps(record) == given_text


@pytest.mark.parametrize("case", CASES)
@FAST
@given(index=st.integers(0, 99), data=st.data())
def test_mutated_records(case, index, data):
    texts = records_of(key(case))
    check_replay(mutate(json.loads(texts[index % len(texts)]), data), game_of(key(case)))


@pytest.mark.parametrize("case", [c for c in CASES if c.values[0][0] == "kitsu"
                                  and c.values[0][1].get("players") == 2])
@settings(FAST, max_examples=200)               # one short record: cheap, and worth many tries
@given(data=st.data())
def test_mutated_position_records(case, data):
    """Edits inside the "position" of a Game.position record (seat and facts)."""
    record = json.loads(records_of(key(case))[0])
    part = mutate({"position": record.pop("position")}, data)
    check_replay(dict(record, **part), game_of(key(case)))


@FAST
@given(source=st.one_of(st.text(max_size=40), st.binary(max_size=40), JSON, ANY,
                        st.integers(1, 200_000).map(lambda n: "[" * n),
                        st.integers(1, 200_000).map(lambda n: '{"a":' * n)))
def test_anything_as_a_record(source):
    with pytest.raises(RecordError):
        boardlab.replay(source)


# ---------------------------------------------------------------- positions
def position_cases():
    return [c for c in CASES if hasattr(boardlab.games.get(c.values[0][0]), "position_params")]


def fact_values(module, players):
    """Plausible and implausible values for a game's position facts."""
    cards = st.sampled_from(getattr(module, "CARD_TYPES", ["x"]))
    tokens = getattr(module, "TOKENS", ["x"])
    seats = st.integers(-1, players)
    card_lists = st.lists(st.one_of(cards, SCALARS), max_size=5)
    trick_words = st.lists(st.one_of(cards, st.sampled_from(
        ["hidden", "destroyed", "with", "blue", "orange"] + tokens)), min_size=1, max_size=4)
    return st.one_of(
        ANY, seats, card_lists, st.lists(cards, max_size=8),
        st.lists(st.one_of(trick_words.map(" ".join), SCALARS), max_size=players),
        st.lists(st.one_of(st.integers(0, 12), INTS), min_size=2, max_size=players + 1),
        st.dictionaries(st.one_of(st.sampled_from(tokens), st.text(max_size=3)),
                        st.one_of(seats, st.just("used"), SCALARS), max_size=3),
        st.dictionaries(st.one_of(seats.map(str), seats, st.text(max_size=2)),
                        card_lists, max_size=3))


@pytest.mark.parametrize("case", position_cases())
@FAST
@given(data=st.data())
def test_random_position_facts(case, data):
    game = game_of(key(case))
    module = game._module
    names = st.one_of(st.sampled_from(list(getattr(module, "POSITION_FACTS", ()))),
                      st.text(max_size=6)).filter(lambda n: n not in ("seat", "seed"))
    # (a fact named like position()'s own parameters is Python's TypeError, not the game's)
    facts = data.draw(st.dictionaries(names, fact_values(module, game.num_players), max_size=6))
    if hasattr(module, "CARD_TYPES") and data.draw(st.booleans()):   # Kitsu: its required facts
        facts.setdefault("hand", data.draw(st.lists(st.sampled_from(module.CARD_TYPES), max_size=6)))
        facts.setdefault("leader", data.draw(st.integers(0, game.num_players - 1)))
    seat = data.draw(st.one_of(st.integers(0, game.num_players - 1), ANY))
    seed = data.draw(st.one_of(st.integers(0, 2**64 - 1), ANY))
    try:
        state = game.position(seat, seed, **facts)
    except ValueError as e:
        assert type(e) is ValueError
    else:   # an accepted position round-trips through its record, as JSON
        assert boardlab.replay(json.loads(json.dumps(state.to_record()))) == state
    record = {"format": "boardlab-record", "version": 1, "game": game.name, "params": game.params,
              "seed": 0, "actions": [], "position": {"seat": seat, "facts": facts}}
    try:
        text = json.dumps(record)
    except (TypeError, ValueError):                 # not JSON (numpy values, bytes, NaN is fine)
        return
    try:
        boardlab.replay(text)
    except RecordError:
        pass


# ---------------------------------------------------------------- search options and agents
def short(value, limit):
    """False for a valid budget above ``limit`` (it would only take long)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        return True
    if isinstance(limit, int):                      # iterations: integers only
        return not isinstance(value, numbers.Integral) or not limit < value <= search.MAX_ITERATIONS
    try:
        return not math.isfinite(float(value)) or float(value) <= limit
    except OverflowError:
        return True


BUDGETS = st.one_of(
    st.fixed_dictionaries({"iterations": st.integers(1, 24)}),
    st.fixed_dictionaries({"seconds": st.floats(1e-4, 2e-3)}),
    st.fixed_dictionaries({}, optional={
        "iterations": st.one_of(ANY.filter(lambda v: short(v, 24)), st.integers(-2, 24)),
        "seconds": st.one_of(ANY.filter(lambda v: short(v, 2e-3)), st.floats(-1, 2e-3))}))
OPTION_VALUES = {
    "c": st.one_of(st.floats(0, 3), ANY),
    "rollout_depth": st.one_of(st.integers(-2, 30), st.integers(2**31 - 2, 2**31), ANY),
    "seed": st.one_of(st.integers(0, 2**64 - 1), ANY),
    "player": st.one_of(st.integers(-1, 6), ANY),
    "max_nodes": st.one_of(st.integers(0, 50), st.integers(2**31 - 1, 2**31), ANY),
    "threads": st.one_of(st.integers(0, search.MAX_THREADS + 1), ANY),
    "final": st.one_of(st.sampled_from(["visits", "mean", "robust", "best"]), ANY),
    "bias": st.one_of(st.floats(0, 3), ANY),
    "progress": st.one_of(st.just(lambda done, total, elapsed: None), ANY),
}


@pytest.mark.parametrize("case", CASES)
@settings(FAST, max_examples=25)
@given(budget=BUDGETS, options=st.fixed_dictionaries({}, optional=OPTION_VALUES),
       index=st.integers(0, 99))
def test_random_search_options(case, budget, options, index):
    state = pick(key(case), index)
    before = snapshot(state)
    try:
        result = search.ismcts(state, **budget, **options)
    except ValueError:
        pass
    else:
        assert 0 <= state.current_player < state.game.num_players
        assert sum(s["visits"] for s in result.stats) == result.iterations
        assert result.best_action in {s["action"] for s in result.stats}
    assert snapshot(state) == before


@FAST
@given(value=st.one_of(ANY, st.sampled_from([boardlab.make("kitsu"), object(), int])))
def test_search_on_anything_but_a_state(value):
    with pytest.raises(TypeError, match="state must be a boardlab.State"):
        search.ismcts(value, iterations=5)


SPEC_PARTS = st.one_of(
    st.sampled_from(["ismcts", "mcts", "random", "greedy", "", "1s", "0s", "1.5s", "s", "-1"]),
    st.integers(-5, 2**40).map(str), TEXT,
    st.tuples(st.sampled_from(["c", "depth", "rollout_depth", "threads", "bias", "final", "x", ""]),
              st.one_of(TEXT, st.floats(allow_nan=True).map(str), st.integers().map(str),
                        st.sampled_from(["visits", "robust", "mean"]))).map("=".join))


def assert_usable(agent):
    """An agent that was made holds values its search accepts, and its name remakes it."""
    assert 0 <= agent.seed < 2**64
    if isinstance(agent, ISMCTSAgent):
        search.check_budget(agent.iterations, agent.seconds)
        search.check_options(c=agent.c, rollout_depth=agent.rollout_depth, seed=agent.seed,
                             threads=agent.threads, final=agent.final, bias=agent.bias)
    assert make_agent(agent.name, seed=agent.seed).name == agent.name


@FAST
@given(parts=st.lists(SPEC_PARTS, min_size=1, max_size=5), seed=st.one_of(st.integers(0, 9), ANY))
def test_random_agent_specs(parts, seed):
    spec = ":".join(parts)
    try:
        agent = make_agent(spec, seed=seed)
    except ValueError:
        return
    assert_usable(agent)


@FAST
@given(options=st.fixed_dictionaries({}, optional={
    "iterations": st.one_of(st.integers(1, 50), ANY), "seconds": st.one_of(st.floats(0, 1), ANY),
    **{k: v for k, v in OPTION_VALUES.items() if k not in ("player", "max_nodes", "progress")}}))
def test_random_agent_options(options):
    try:
        agent = ISMCTSAgent(**options)
    except ValueError:
        return
    assert_usable(agent)
