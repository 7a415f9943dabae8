"""Observation tensors (boardlab.interop.tensors), shared by the OpenSpiel and
PettingZoo adapters: fixed size, built from the seat's own observation only,
and exact: every field of the observation moves the tensor."""
import copy
import json
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import boardlab
import boardlab.games
from boardlab.interop import tensors
from conftest import decision_states as _decisions, game_cases, random_action

#: Games whose encoders keep every field of the observation (all of them).
EXACT = ("keyside", "kitsu", "kyushu", "nukumi")


@pytest.mark.parametrize("case", game_cases())
def test_fixed_size_and_finite(case):
    name, params = case
    game = boardlab.make(name, **params)
    size = tensors.tensor_size(game)
    for state in _decisions(game, 1)[::7]:
        for seat in range(game.num_players):
            t = tensors.observation_tensor(state, seat)
            assert t.dtype == np.float32 and t.shape == (size,)
            assert np.isfinite(t).all()


@pytest.mark.parametrize("case", game_cases())
def test_tensor_depends_only_on_what_the_seat_knows(case):
    """Resampling everything a seat cannot know leaves its tensor unchanged,
    while the other seats' tensors do change somewhere in a game."""
    name, params = case
    game = boardlab.make(name, **params)
    changed = False
    for k, state in enumerate(_decisions(game, 2)[:-1:3]):
        seat = state.current_player
        mine = tensors.observation_tensor(state, seat)
        for seed in range(3):
            d = state.determinize(seat, 100 * k + seed)
            assert np.array_equal(tensors.observation_tensor(d, seat), mine)
            for other in range(game.num_players):     # (with dice strips only year 3 hides dice)
                changed |= other != seat and not np.array_equal(tensors.observation_tensor(d, other),
                                                                tensors.observation_tensor(state, other))
    if game.num_players > 1:      # a solo game has no other seat to see a difference
        assert changed, "no determinization ever changed another seat's tensor"


# --- exactness --------------------------------------------------------------------------------
def _exact_cases():
    return [c for c in game_cases() if c.values[0][0] in EXACT]


def _observations(game, games=3, every=3):
    """Every seat's observation at every ``every``-th state of ``games`` random games (chance
    states too: a seat observes them), as dicts."""
    out = []
    for seed in range(games):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state(seed=seed)
        k = 0
        while True:
            if k % every == 0 or state.is_terminal():
                out += [state.observation(seat) for seat in range(game.num_players)]
            if state.is_terminal():
                break
            state.apply(random_action(state, rng))
            k += 1
    return out


def _leaves(value, path=()):
    """(path, value) of every leaf of a JSON value, depth first in document order; lists and
    dicts are paths too. (A stack, not nested generators: a Kyūshū 5-player pool has millions
    of leaves, and each nested yield would pass through every level above it.)"""
    stack = [(path, value)]
    while stack:
        path, value = stack.pop()
        yield path, value
        if isinstance(value, dict):
            stack.extend((path + (k,), v) for k, v in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((path + (i,), value[i]) for i in range(len(value) - 1, -1, -1))


def _replace(obs, path, value):
    """``obs`` with the entry at ``path`` set to ``value`` (or dropped); copies only that path."""
    out = top = copy.copy(obs)
    for key in path[:-1]:
        top[key] = copy.copy(top[key])
        top = top[key]
    if value is _DROP:
        del top[path[-1]]
    else:
        top[path[-1]] = value
    return out


_DROP = object()


def _tagged(value):
    """A value with its type, so True, 1 and 1.0 differ; lists and dicts as they are."""
    return (type(value).__name__, value)


def _key(value):
    """A hashable stand-in for a JSON value, its type included (see :func:`_tagged`)."""
    if isinstance(value, (list, dict)):
        return type(value).__name__, json.dumps(value, sort_keys=True)
    return _tagged(value)


def _changes(pool, sample):
    """(obs, path, old, new, changed obs): one field of an observation in ``sample`` changed.
    A leaf is changed to every other value it takes at the same place, for the same viewer,
    anywhere in ``pool`` (a whole list or dict to two of them), each such value once over the
    sample (at the first observation where it differs) and every leaf of every observation
    at least once; a dict entry that is not always there is removed."""
    seen, keys = {}, {}        # values per (viewer, path): scalars all, lists and dicts 3
    tags = {}                  # the _tagged scalars of seen, per (viewer, path), as a set
    for obs in pool:
        for path, value in _leaves(obs):
            at = (obs["viewer"], path)
            values = seen.setdefault(at, [])
            if isinstance(value, dict):
                keys.setdefault(at, []).append(set(value))
            if isinstance(value, (list, dict)):
                if len(values) < 3 and value not in values:
                    values.append(value)
            elif _tagged(value) not in tags.setdefault(at, set()):
                tags[at].add(_tagged(value))
                values.append(value)
    optional = {at: set.union(*ks) - set.intersection(*ks) for at, ks in keys.items()}
    tried = {}                 # path -> the values it was changed to so far
    for obs in sample:
        viewer = obs["viewer"]
        for path, value in list(_leaves(obs))[1:]:
            changes = [v for v in seen[(viewer, path)] if _tagged(v) != _tagged(value)]
            if isinstance(value, (list, dict)):
                changes = changes[:2]
            done = tried.setdefault(path, set())
            fresh = [v for v in changes if _key(v) not in done]
            done.update(map(_key, fresh))
            changes = fresh or changes[:1]
            if path[-1] in optional.get((viewer, path[:-1]), ()):
                changes.append(_DROP)
            for new in changes:
                yield obs, path, value, "dropped" if new is _DROP else new, _replace(obs, path, new)


def _misses(game, pool, sample):
    """Two lists over the changes of :func:`_changes`: those the tensor does not see, as
    (path, old, new), and those that move a float outside the layout's slices for that part
    of the observation (seats/2/... may only move seats[2]... fields), as (path, field)."""
    fields = tensors.layout(game)
    owner = np.empty(fields[-1][2], object)
    for name, start, stop, _ in fields:
        owner[start:stop] = name
    parts, base, missed, strays = {}, {}, [], []

    def part(top):
        if top not in parts:
            parts[top] = {name for name, _, _, _ in fields if name == top or name.startswith((top + ".", top + "["))}
        return parts[top]
    for obs, path, old, new, changed in _changes(pool, sample):
        if id(obs) not in base:
            base[id(obs)] = tensors.encode(game, obs)
        moved = np.flatnonzero(tensors.encode(game, changed) != base[id(obs)])
        where = "/".join(map(str, path))
        if not len(moved):
            missed.append((where, old, new))
        else:      # seats/2/... -> seats[2]...; a list without per-entry fields (Nukumi's
            # buildings) -> all its fields
            mine = part(f"{path[0]}[{path[1]}]") if len(path) > 1 and isinstance(path[1], int) else set()
            mine = mine or part(path[0])
            strays += [(where, owner[i]) for i in moved if owner[i] not in mine]
    return missed, strays


@pytest.mark.parametrize("case", _exact_cases())
def test_distinct_observations_give_distinct_tensors(case):
    """Over random playouts the tensor is a function of the observation (equal dicts, equal
    tensors) and tells every two different observations apart."""
    name, params = case
    game = boardlab.make(name, **params)
    observations = _observations(game)
    for obs in observations[::10]:
        assert np.array_equal(tensors.encode(game, obs), tensors.encode(game, json.loads(json.dumps(obs))))
    assert len({json.dumps(obs, sort_keys=True) for obs in observations}) > 50, "too few to mean anything"
    clashes = _clashes(game, observations)
    assert not clashes, f"{len(clashes)} tensors stand for several observations, e.g. {clashes[0][:2]}"


def _clashes(game, observations):
    """Groups of different observations with the same tensor."""
    by_tensor = {}
    for obs in observations:
        by_tensor.setdefault(tensors.encode(game, obs).tobytes(), set()).add(json.dumps(obs, sort_keys=True))
    return [sorted(group) for group in by_tensor.values() if len(group) > 1]


@pytest.mark.parametrize("case", _exact_cases())
def test_every_visible_field_moves_the_tensor(case):
    """Changing any one field of an observation changes the tensor, and only
    within the slices :func:`tensors.layout` names for that part."""
    name, params = case
    game = boardlab.make(name, **params)
    pool = _observations(game)
    sample = pool[len(pool) // 4::len(pool) // 4][:3] + [pool[-1]]      # early, middle, late, over
    missed, strays = _misses(game, pool, sample)
    assert not missed, f"{len(missed)} changes the tensor does not see, e.g. {missed[:5]}"
    assert not strays, f"{len(strays)} floats moved outside their field's slices, e.g. {strays[:5]}"


def test_the_checks_catch_a_lossy_or_a_constant_encoder(monkeypatch):
    """The exactness checks above fail for an encoder that drops one field (here
    Keyside seat 0's goods: only the field-by-field check sees it, as the scores
    change with the goods) and for a constant tensor (both see it)."""
    game = boardlab.make("keyside", players=2)
    pool = _observations(game, games=1)
    assert _misses(game, pool, pool[-2:]) == ([], []) and not _clashes(game, pool)
    (start, stop), = [(a, b) for name, a, b, _ in tensors.layout(game) if name == "seats[0].goods"]
    real = tensors.ENCODERS["keyside"]

    def lossy(obs, params):
        out = np.asarray(real(obs, params))
        out[start:stop] = 0
        return out
    monkeypatch.setitem(tensors.ENCODERS, "keyside", lossy)
    missed = {path for path, _, _ in _misses(game, pool, pool[-2:])[0]}
    assert missed and all(path.startswith("seats/0/goods") for path in missed), missed
    monkeypatch.setitem(tensors.ENCODERS, "keyside", lambda obs, params: [0.0] * 8)
    assert _misses(game, pool, pool[-1:])[0] and len(_clashes(game, pool)) == 1


@pytest.mark.parametrize("name", EXACT)
def test_layout_covers_the_tensor_once(name):
    """The recorded layout names every float exactly once, in order."""
    game = boardlab.make(name)
    fields = tensors.layout(game)
    assert fields[0][1] == 0 and fields[-1][2] == tensors.tensor_size(game)
    assert all(a[2] == b[1] for a, b in zip(fields, fields[1:]))
    assert len({f[0] for f in fields}) == len(fields)


def test_docs_show_the_layouts():
    source = Path(__file__).resolve().parent.parent / "docs" / "tensors.md"
    installed = resources.files("boardlab").joinpath("docs", "tensors.md")     # from a wheel
    text = (source if source.exists() else installed).read_text()
    for name in EXACT:
        game = boardlab.make(name)
        assert tensors.layout_table(game) in text, f"docs/tensors.md: regenerate the {name} table"
        assert f"| {tensors.tensor_size(game)} (" in text


def test_a_game_without_an_encoder_is_a_clear_error(monkeypatch):
    monkeypatch.delitem(tensors.ENCODERS, "kitsu")
    game = boardlab.make("kitsu", players=2)
    with pytest.raises(NotImplementedError, match="no observation tensor for game 'kitsu'"):
        tensors.observation_tensor(game.new_initial_state(seed=0), 0)


def test_an_unknown_value_is_an_error_naming_the_field():
    game = boardlab.make("nukumi", players=2)
    obs = game.new_initial_state(seed=0).observation(0)
    obs["seats"][1]["square"] = "z9"
    with pytest.raises(ValueError, match=r"seats\[1\]\.square has unknown value 'z9'"):
        tensors.encode(game, obs)


def test_nukumi_build_decisions_are_encoded():
    """A card's "build" effect waits in its own phase (a rare state random playouts of the
    other tests may never reach): the tensor knows the phase and the effect."""
    game = boardlab.make("nukumi", players=2)
    seen = 0
    for seed in range(60):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal() and not seen:
            if state.full_observation()["phase"] == "build":
                before = tensors.observation_tensor(state, state.current_player)
                state.apply(state.legal_actions()[-1])
                assert not np.array_equal(before, tensors.observation_tensor(state, state.current_player))
                seen += 1
                break
            state.apply(random_action(state, rng))
        if seen:
            break
    assert seen, "no build decision in 60 random games"


def test_a_kyushu_cell_outside_the_grid_is_an_error_naming_the_field():
    game = boardlab.make("kyushu", players=2)
    obs = game.new_initial_state(seed=0).observation(0)
    obs["maps"][1]["cells"] = [{"row": 40, "col": 3}]
    with pytest.raises(ValueError, match=r"maps\[1\]\.cells has a cell outside the grid"):
        tensors.encode(game, obs)
    obs["maps"][1]["cells"] = []
    obs["my_turn"] = {"discarded": "zz9"}
    with pytest.raises(ValueError, match=r"my_turn\.discarded has unknown value 'zz9'"):
        tensors.encode(game, obs)


@pytest.mark.parametrize("name,path,value,match", [
    ("kyushu", ("maps",), [1, 2], r"malformed observation"),
    ("kyushu", ("travelers", "placed"), [3], r"malformed observation"),
    ("kyushu", ("most_fewest",), [{"seats": 5}], r"most_fewest|malformed"),
    ("keyside", ("pending",), [7], r"malformed observation"),
    ("keyside", ("harbours", 0, "dice"), [1, 2], r"malformed observation"),
    ("kyushu", ("scores",), [5, 6], r"scores\[0\] should be a dict, not int"),
])
def test_a_value_of_the_wrong_kind_is_a_value_error(name, path, value, match):
    """A number where a list of dicts (or pairs) belongs: a ValueError, not a TypeError or
    AttributeError from inside the encoder."""
    game = boardlab.make(name, players=2)
    obs = game.new_initial_state(seed=0).observation(0)
    at = obs
    for key in path[:-1]:
        at = at[key]
    at[path[-1]] = value
    with pytest.raises(ValueError, match=match):
        tensors.encode(game, obs)
