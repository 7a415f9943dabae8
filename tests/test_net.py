"""The kernel's policy-value network (kernel/net): its file format is validated with errors
that name the fault, and its forward pass equals the numpy reference (boardlab.nets.reference)
and PyTorch (where the train extra is installed) to 1e-5 on positions from played games
(every game whose kernel writes features)."""
import numpy as np
import pytest

import boardlab
from boardlab import _net
from boardlab.nets import netfile, reference
from boardlab.nets.features import feature_size, features
from conftest import random_action

TOL = 1e-5


def _positions(name, players, games, seed):
    """(features, legal masks) of every decision of `games` seeded random games, seen by
    the seat to move."""
    game = boardlab.make(name, players=players)
    rng = np.random.default_rng(seed)
    xs, masks = [], []
    for g in range(games):
        state = game.new_initial_state(seed=seed + g)
        while not state.is_terminal():
            if not state.is_chance():
                xs.append(features(state, state.current_player))
                m = np.zeros(game.num_actions, dtype=bool)
                m[state.legal_actions()] = True
                masks.append(m)
            state.apply(random_action(state, rng))
    return game, np.array(xs), np.array(masks)


#: (game, players, seeded games): each gives more than a thousand decisions.
CONFIGS = [("kitsu", 2, 30), ("kitsu", 4, 12), ("nukumi", 2, 12), ("keyside", 2, 6), ("kyushu", 2, 20)]


@pytest.fixture(scope="module")
def positions():
    return {(name, p): _positions(name, p, games, 40 + p) for name, p, games in CONFIGS}


def _net_for(game, width, blocks, seed, activation="tanh"):
    return netfile.random_spec(game.name, f"players={game.num_players}", feature_size(game), width,
                               blocks, game.num_players, game.num_actions, seed, activation)


@pytest.mark.parametrize("config", [c[:2] for c in CONFIGS], ids=lambda c: f"{c[0]}{c[1]}")
@pytest.mark.parametrize("width,blocks,dtype,activation", [(64, 2, "float32", "tanh"),
                                                         (128, 1, "float16", "tanh"),
                                                         (32, 0, "float32", "linear")])
def test_c_forward_equals_the_numpy_reference(positions, config, width, blocks, dtype, activation):
    game, x, mask = positions[config]
    players = config[1]
    assert len(x) >= 1000
    spec = _net_for(game, width, blocks, seed=width + blocks, activation=activation)
    data = netfile.to_bytes(spec, dtype)
    net = _net.Net.from_bytes(data)
    net.check_game(game._core)
    values, priors = net.forward(x, mask)
    # float16 files: the reference computes with the weights as stored (rounded).
    ref_v, ref_p = reference.forward(netfile.from_bytes(data), x, mask)
    assert values.shape == (len(x), players) and priors.shape == mask.shape
    np.testing.assert_allclose(values, ref_v, rtol=0, atol=TOL)
    np.testing.assert_allclose(priors, ref_p, rtol=0, atol=TOL)
    assert np.all(priors[~mask] == 0)
    np.testing.assert_allclose(priors.sum(axis=1), 1, atol=1e-5)
    # Not a degenerate net: the priors and values vary with the position.
    assert np.ptp(values[:, 0]) > 0.01 and np.ptp(priors.max(axis=1)) > 0.01


@pytest.mark.parametrize("config", [c[:2] for c in CONFIGS], ids=lambda c: f"{c[0]}{c[1]}")
def test_c_forward_equals_pytorch(positions, config):
    torch = pytest.importorskip("torch")
    from boardlab.learn.torch_model import PolicyValueNet
    game, x, mask = positions[config]
    spec = _net_for(game, 96, 2, seed=5)
    model = PolicyValueNet.from_spec(spec)
    with torch.no_grad():
        tv, tlogp = model(torch.from_numpy(x), torch.from_numpy(mask))
    values, priors = _net.Net.from_bytes(netfile.to_bytes(spec)).forward(x, mask)
    np.testing.assert_allclose(values, tv.numpy(), rtol=0, atol=TOL)
    np.testing.assert_allclose(priors, torch.exp(tlogp).numpy(), rtol=0, atol=TOL)
    # The export from torch is the same file.
    assert netfile.to_bytes(model.to_spec(game.name, f"players={config[1]}")) == netfile.to_bytes(spec)


@pytest.mark.parametrize("config", [c[:2] for c in CONFIGS], ids=lambda c: f"{c[0]}{c[1]}")
@pytest.mark.parametrize("width,blocks", [(64, 1), (96, 2)])
def test_every_build_of_the_pass_gives_the_same_bits(positions, config, width, blocks):
    """The pass the loader picked for this machine (AVX2 where it has it) equals the build
    for any machine bit for bit: the same operations in the same order, so a search is
    the same on every machine."""
    game, x, mask = positions[config]
    net = _net.Net.from_bytes(netfile.to_bytes(_net_for(game, width, blocks, seed=7), "float16"))
    picked, portable = net.forward(x, mask), net.forward(x, mask, portable=True)
    for a, b in zip(picked, portable):
        assert np.array_equal(a.view(np.uint32), b.view(np.uint32))


def test_a_row_with_no_legal_action_gets_no_prior():
    spec = netfile.random_spec("kitsu", "", 10, 8, 1, 2, 5)
    values, priors = _net.Net.from_bytes(netfile.to_bytes(spec)).forward(
        np.ones((2, 10), np.float32), np.array([[False] * 5, [True, False, True, False, False]]))
    assert np.all(priors[0] == 0) and priors[1, [0, 2]].sum() == pytest.approx(1)
    assert np.all(np.abs(values) <= 1)


def _small():
    return netfile.to_bytes(netfile.random_spec("kitsu", "players=2", 6, 4, 1, 2, 3))


def _patch(data, at, raw):
    return data[:at] + raw + data[at + len(raw):]


def _u32(v):
    return int(v).to_bytes(4, "little")


@pytest.mark.parametrize("mangle,message", [
    (lambda d: b"NOTANET!" + d[8:], "bad magic"),
    (lambda d: b"", "truncated network file"),
    (lambda d: d[:40], "truncated network file"),
    (lambda d: d[:-1], "truncated network file"),
    (lambda d: d + b"\0", "after its"),
    (lambda d: _patch(d, 8, _u32(2)), "version 2"),
    (lambda d: _patch(d, 12, b"\xff"), "game name"),
    (lambda d: _patch(d, 12, b"\0" * 16), "game name"),
    (lambda d: _patch(d, 28, b"a\0b"), "configuration key"),
    (lambda d: _patch(d, 64, _u32(0)), "width"),
    (lambda d: _patch(d, 64, _u32(2**31)), "width = 2147483648 is out of range"),
    (lambda d: _patch(d, 72, _u32(9)), "sizes out of range"),
    (lambda d: _patch(d, 80, _u32(3)), "unknown weight type 3"),
    (lambda d: _patch(d, 84, _u32(7)), "unknown value activation 7"),
    (lambda d: _patch(d, 88 + 4 * 5, np.float32(np.nan).tobytes()), "weight 5 is not a finite"),
])
def test_a_bad_file_is_refused_with_the_fault_named(mangle, message):
    with pytest.raises(ValueError, match=message):
        _net.Net.from_bytes(mangle(_small()))


def test_every_truncation_and_a_float16_infinity_are_refused():
    data = _small()
    for n in range(len(data)):
        with pytest.raises(ValueError):
            _net.Net.from_bytes(data[:n])
    half = netfile.to_bytes(netfile.random_spec("kitsu", "", 6, 4, 1, 2, 3), "float16")
    with pytest.raises(ValueError, match="weight 0 is not a finite"):
        _net.Net.from_bytes(_patch(half, 88, np.float16(np.inf).tobytes()))


def test_files_are_read_from_disk_and_a_missing_one_is_named(tmp_path):
    path = tmp_path / "kitsu.blnet"
    path.write_bytes(_small())
    net = _net.Net.from_file(path)
    assert (net.game, net.config, net.n_in, net.width, net.blocks, net.n_value, net.n_actions) \
        == ("kitsu", "players=2", 6, 4, 1, 2, 3)
    with pytest.raises(ValueError, match="cannot open network file: No such file"):
        _net.Net.from_file(tmp_path / "absent.blnet")


def test_a_network_for_another_game_or_configuration_is_refused():
    kitsu2, kitsu4 = boardlab.make("kitsu", players=2), boardlab.make("kitsu", players=4)
    fits = _net.Net.from_bytes(netfile.to_bytes(_net_for(kitsu2, 8, 0, 1)))
    fits.check_game(kitsu2._core)
    with pytest.raises(ValueError, match="2 value outputs, this kitsu has 4 seats"):
        fits.check_game(kitsu4._core)
    # more value outputs than seats: one network for every player count of the game
    _net.Net.from_bytes(netfile.to_bytes(_net_for(kitsu4, 8, 0, 1))).check_game(kitsu2._core)
    other = netfile.random_spec("nukumi", "", feature_size(kitsu2), 8, 0, 2, kitsu2.num_actions)
    with pytest.raises(ValueError, match="the network is for nukumi, not kitsu"):
        _net.Net.from_bytes(netfile.to_bytes(other)).check_game(kitsu2._core)
    wide = netfile.random_spec("kitsu", "", feature_size(kitsu2) + 1, 8, 0, 2, kitsu2.num_actions)
    with pytest.raises(ValueError, match=f"reads {feature_size(kitsu2) + 1} features, kitsu writes"):
        _net.Net.from_bytes(netfile.to_bytes(wide)).check_game(kitsu2._core)
    acts = netfile.random_spec("kitsu", "", feature_size(kitsu2), 8, 0, 2, 5)
    with pytest.raises(ValueError, match="5 action outputs, kitsu has"):
        _net.Net.from_bytes(netfile.to_bytes(acts)).check_game(kitsu2._core)



def test_every_float16_weight_is_read_exactly():
    """Every float16 bit pattern (subnormals and both zeros included) as the one weight of a
    value head: the kernel computes with exactly numpy's float32 of it; infinities and NaNs
    are refused."""
    spec = netfile.random_spec("kitsu", "", 1, 1, 0, 1, 1, value_activation="linear")
    spec.weights.update(in_w=np.ones((1, 1), np.float32), in_b=np.zeros(1, np.float32),
                        v_b=np.zeros(1, np.float32))
    image = bytearray(netfile.to_bytes(spec, "float16"))
    at = _net.HEADER_BYTES + 2 * 2                     # v_w: after in_w and in_b
    halves = np.arange(2**16, dtype=np.uint16).view(np.float16)
    x, mask = np.ones((1, 1), np.float32), np.ones((1, 1), bool)
    got = np.empty(2**16, np.float32)
    for i, h in enumerate(halves):
        image[at:at + 2] = h.tobytes()
        if not np.isfinite(h):
            with pytest.raises(ValueError, match="weight 2 is not a finite"):
                _net.Net.from_bytes(bytes(image))
            got[i] = h
            continue
        got[i] = _net.Net.from_bytes(bytes(image)).forward(x, mask)[0][0, 0]
    want = halves.astype(np.float32)
    finite = np.isfinite(want)
    # v * 1 + 0 turns -0 into +0: compare values, and the bits of everything else.
    assert np.array_equal(got[finite], want[finite])
    nonzero = finite & (want != 0)
    assert np.array_equal(got[nonzero].view(np.uint32), want[nonzero].view(np.uint32))
