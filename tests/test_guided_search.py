"""The guided search (kernel/search/ismcts.c, iterate_guided; docs/learning.md): a network's
prior steers the selection and its value is backed up at the leaf. These tests use random
networks: they check the wiring (which prior, which seat's value, no hidden information),
not strength, which bench/ measures."""
import shutil
from pathlib import Path

import numpy as np
import pytest

import boardlab
from boardlab import _net as cnet
from boardlab.agents import make_agent
from boardlab.nets import config_key, default_path, load_net, netfile
from boardlab.nets.features import feature_size, features
from boardlab.search import ismcts
from test_search import _game_positions, deep_position, midgame


def _spec(game, width=32, blocks=1, seed=1, n_value=None):
    return netfile.random_spec(game.name, config_key(game), feature_size(game), width, blocks,
                               n_value or game.num_players, game.num_actions, seed)


def random_net(game, **kw):
    return cnet.Net.from_bytes(netfile.to_bytes(_spec(game, **kw)))


def _with_value(game, bias):
    """A network whose value head ignores the position: tanh(bias) for the evaluated seat
    and the seats after it."""
    spec = _spec(game)
    spec.weights["v_w"][:] = 0.0
    spec.weights["v_b"][:] = bias
    return cnet.Net.from_bytes(netfile.to_bytes(spec))


def signature(result):
    return (result.best_action, [(s["action"], s["visits"], round(s["mean"], 9),
                                  s["availability"], s["prior"]) for s in result.stats])


def test_root_priors_are_the_networks_prior_at_the_root():
    state = midgame(seed=21)
    game, seat = state.game, state.current_player
    net = random_net(game)
    result = ismcts(state, iterations=200, seed=3, net=net)
    mask = np.zeros((1, game.num_actions), dtype=bool)
    mask[0, state.legal_actions()] = True
    _, prior = net.forward(features(state, seat)[None, :], mask)
    for row in result.stats:
        assert row["prior"] == pytest.approx(float(prior[0, row["action"]]), abs=1e-6)
    assert sum(r["prior"] for r in result.stats) == pytest.approx(1.0, abs=1e-5)
    # The plain search has no prior to show.
    assert all(r["prior"] is None for r in ismcts(state, iterations=50, seed=3).stats)


def test_a_zero_value_network_replaces_the_rollout_unless_mixed():
    """mix=1: every leaf backs up the network's value (0 here), so every root mean is 0
    (no terminal is within reach at the start of a deal); mix=0.5 adds rollouts."""
    state = midgame(seed=21, plies=0)
    net = _with_value(state.game, 0.0)
    alone = ismcts(state, iterations=300, seed=2, net=net)
    assert all(r["mean"] == 0.0 for r in alone.stats)
    mixed = ismcts(state, iterations=300, seed=2, net=net, mix=0.5, rollout_depth=-1)
    assert any(r["mean"] != 0.0 for r in mixed.stats)


@pytest.mark.parametrize("name, seed", [("kitsu", None), ("nukumi", 0), ("keyside", 0)])
def test_the_value_head_is_read_from_the_evaluated_seat(name, seed):
    """Value k belongs to seat (s + k) % n, s the seat to move at the leaf. A network
    saying "+tanh(1) for the seat to move, -tanh(1) for the next", whose prior points at
    one move: after two iterations (the first expands the root) that move has one visit,
    and its mean is +tanh(1) when the root seat moves again after it, else -tanh(1)."""
    state = midgame(seed=21) if name == "kitsu" else \
        deep_position(name, {"players": 2}, seed=seed, plies=30)
    game, seat = state.game, state.current_player
    signs = set()
    for action in state.legal_actions():
        after = state.clone()
        after.apply(int(action))
        if after.is_chance():
            continue           # who moves after a chance step is not known here
        spec = _spec(game)
        spec.weights["v_w"][:] = 0.0
        spec.weights["v_b"][:] = [1.0, -1.0]
        spec.weights["p_w"][:] = 0.0
        spec.weights["p_b"][:] = 0.0
        spec.weights["p_b"][int(action)] = 10.0
        net = cnet.Net.from_bytes(netfile.to_bytes(spec))
        (row,) = [r for r in ismcts(state, iterations=2, seed=1, net=net).stats if r["visits"]]
        assert row["action"] == action
        sign = 1 if after.current_player == seat else -1
        assert row["mean"] == pytest.approx(sign * np.tanh(1.0), abs=1e-6)
        signs.add(sign)
    assert signs == {-1, 1}       # these positions have moves of both kinds


@pytest.mark.parametrize("name, params", _game_positions())
@pytest.mark.parametrize("threads, late", [(1, "net"), (2, "net"), (2, "uniform")])
def test_guided_search_never_reads_hidden_information_and_is_deterministic(name, params, threads,
                                                                           late):
    """Every game: the same seed gives the same guided search (1 and 2 threads, either late
    prior), and states the seat cannot tell apart search alike (the network reads features
    of the determinized world, never the true hidden state)."""
    state = deep_position(name, params)
    seat = state.current_player
    net = random_net(state.game, seed=7)
    opts = dict(iterations=400, seed=3, threads=threads, net=net, mix=0.5, rollout_depth=4,
                late=late)
    ref = ismcts(state, **opts)
    assert sum(s["visits"] for s in ref.stats) >= 400 - threads    # each tree's first iteration expands its root
    assert signature(ismcts(state.clone(), **opts)) == signature(ref)
    for s in range(1, 3):
        assert signature(ismcts(state.determinize(seat, s), **opts)) == signature(ref)


@pytest.mark.parametrize("name, params", _game_positions())
def test_a_uniform_late_prior_evaluates_the_network_at_the_leaves_alone(name, params):
    """late="net" evaluates the network again where an iteration meets a move its node has
    no child for yet (another determinization or chance outcome brought it); late="uniform"
    gives that move the prior 1 / legal moves instead, so an iteration evaluates the
    network once at most (at its leaf). At these positions late moves come in Kitsu and
    Nukumi (the opponent's hand, the draws); in Kyūshū and Keyside a node's moves are the
    same in every world searched, so the two searches are the same."""
    state = deep_position(name, params)
    net = random_net(state.game, seed=7)
    opts = dict(iterations=400, seed=3, net=net, mix=0.5, rollout_depth=4)
    by_net, uniform = ismcts(state, **opts), ismcts(state, late="uniform", **opts)
    assert 0 < uniform.net_evals <= uniform.iterations
    late_moves = by_net.net_evals > by_net.iterations
    assert late_moves == (name in ("kitsu", "nukumi"))
    assert (signature(by_net) == signature(uniform)) == (not late_moves)
    assert ismcts(state, iterations=50, seed=3).net_evals == 0       # the plain search


def test_a_guided_agent_never_reads_hidden_information(tmp_path):
    state = midgame(seed=21)
    path = tmp_path / "kitsu.blnet"
    path.write_bytes(netfile.to_bytes(_spec(state.game), "float16"))
    spec = f"ismcts:300:net={path}"
    reference = make_agent(spec, seed=4).step(state)
    for s in range(1, 4):
        assert make_agent(spec, seed=4).step(state.determinize(state.current_player, s)) == reference


def test_the_agent_spec_takes_the_network_and_its_options(tmp_path):
    path = tmp_path / "MyNet.blnet"        # the path keeps its case
    agent = make_agent(f"ismcts:1.5s:net={path}:cpuct=2:mix=0.25", seed=1)
    assert (agent.net, agent.cpuct, agent.mix) == (str(path), 2.0, 0.25)
    assert agent.name == f"ismcts:1.5s:net={path}:cpuct=2:mix=0.25"
    agent = make_agent(f"ismcts:100:net={path}:late=uniform", seed=1)
    assert agent.late == "uniform" and agent.name == f"ismcts:100:net={path}:late=uniform"
    assert make_agent(agent.name).name == agent.name
    assert make_agent("ismcts:100:net=default").net == "default"


@pytest.mark.parametrize("spec, message", [
    ("ismcts:100:cpuct=1", "give net= too"),
    ("ismcts:100:mix=0.5", "give net= too"),
    ("ismcts:100:late=uniform", "give net= too"),
    ("ismcts:100:net=x:late=flat", "late must be one of net, uniform"),
    ("ismcts:100:net=default:bias=1", "bias"),
    ("ismcts:100:net=x:mix=1.5", "mix must be a number in \\[0, 1\\]"),
    ("ismcts:100:net=x:cpuct=-1", "cpuct"),
    ("ismcts:100:net=", "net must be"),
])
def test_bad_guided_specs_are_refused(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


def test_a_network_that_does_not_fit_is_refused_with_its_fault(tmp_path):
    state = midgame(seed=21)
    four = boardlab.make("kitsu", players=4)
    with pytest.raises(ValueError, match="value outputs"):     # two outputs for four seats
        ismcts(four.new_initial_state(seed=3), iterations=10, net=random_net(state.game))
    nukumi = boardlab.make("nukumi", players=2)
    with pytest.raises(ValueError, match="nukumi"):
        ismcts(state, iterations=10, net=random_net(nukumi))
    with pytest.raises(ValueError, match="no network file"):
        ismcts(state, iterations=10, net=str(tmp_path / "missing.blnet"))
    damaged = tmp_path / "damaged.blnet"
    damaged.write_bytes(netfile.to_bytes(_spec(state.game))[:200])
    with pytest.raises(ValueError, match="damaged.blnet"):
        ismcts(state, iterations=10, net=str(damaged))
    with pytest.raises(ValueError, match="net must be"):
        load_net(3, state.game)


def test_net_default_names_the_configuration_when_none_ships():
    game = boardlab.make("kyushu", players=5)
    assert config_key(game) == "players=5"
    assert config_key(boardlab.make("nukumi", players=1, solo="chasing")) == "players=1,solo=chasing"
    assert default_path(boardlab.make("nukumi", players=1, solo="chasing")).name == \
        "nukumi-players1-solochasing.blnet"
    assert default_path(game) is None
    with pytest.raises(ValueError, match="no network ships for kyushu with players=5"):
        load_net("default", game)
    from boardlab.arena import play_match          # refused before any game is played
    with pytest.raises(ValueError, match="agent 'ismcts:30:net=default': net=default: no "
                                         "network ships for kyushu with players=5"):
        play_match("kyushu", {"players": 5}, ["ismcts:30:net=default"] + ["ismcts:30"] * 4, 2)


def test_net_default_plays_with_the_settings_its_network_shipped_with(monkeypatch, tmp_path):
    """The manifest beside the shipped networks gives each one's mix and cpuct; net=default
    takes them unless the caller gives its own, and a network file of one's own never does."""
    from boardlab.nets import default_settings, loader, manifest
    state = midgame(seed=21)
    path = str(default_path(state.game))            # Kitsu 2p ships
    shutil.copyfile(path, tmp_path / "kitsu-players2.blnet")
    manifest.put_entry(tmp_path, manifest.make_entry(
        "kitsu-players2.blnet", "kitsu", [{"players": 2}], Path(path).read_bytes(),
        {"mix": 0.5, "cpuct": 2.0}))
    monkeypatch.setattr(loader, "NETS_DIR", tmp_path)
    assert default_settings(state.game) == {"mix": 0.5, "cpuct": 2.0}
    assert default_settings(boardlab.make("kitsu", players=4)) == {}

    def run(**kw):
        return signature(ismcts(state, iterations=300, seed=4, **kw))
    shipped = run(net="default")
    assert shipped == run(net=path, mix=0.5, cpuct=2.0) != run(net=path)
    assert run(net=" Default ", mix=1.0) == run(net=path, mix=1.0, cpuct=2.0)
    assert run(net="default", mix=1.0, cpuct=1.5) == run(net=path)


@pytest.mark.parametrize("name,players,largest", [("kitsu", 2, 6), ("kyushu", 3, 5),
                                                  ("keyside", 2, 4), ("nukumi", 3, 4)])
def test_a_network_for_every_player_count_reads_only_the_tables_seats(name, players, largest):
    """One network serves every player count of a game: a value output per relative seat up
    to the largest count. A table of fewer seats reads only its first outputs: the search
    with such a network equals the search with the same network cut to the table's seats,
    whatever the other outputs say."""
    game = boardlab.make(name, players=players)
    wide = _spec(game, n_value=largest, seed=5)
    wide.weights["v_b"][players:] = 3.0         # seats the table does not have: never read
    cut = _spec(game, n_value=players)
    cut.weights = {k: w[:players].copy() if k in ("v_w", "v_b") else w
                   for k, w in wide.weights.items()}
    state = deep_position(name, {"players": players}, seed=7, plies=20)
    a, b = (ismcts(state, iterations=300, seed=2, net=cnet.Net.from_bytes(netfile.to_bytes(s)))
            for s in (wide, cut))
    assert a.best_action == b.best_action and a.stats == b.stats
