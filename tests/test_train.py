"""`boardlab train` (boardlab.learn.run): a few-second run on Kitsu for two players with tiny
budgets trains networks the kernel loads and computes like PyTorch, resumes after a stop
between generations or a kill inside one into the same files as an uninterrupted run, and
refuses bad arguments with the option named. Skips only where PyTorch is absent."""
import csv
import hashlib
import json
import re
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import boardlab                                                       # noqa: E402
from boardlab import _net                                            # noqa: E402
from boardlab.cli import main                                        # noqa: E402
from boardlab.learn import gate, trainer                             # noqa: E402
from boardlab.learn.replay import GenerationStore, read_npz          # noqa: E402
from boardlab.learn.run import TIME_COLUMNS, ConfigError, RunConfig, train_run  # noqa: E402
from boardlab.learn.selfplay import SelfPlayConfig, play_game        # noqa: E402
from boardlab.learn.torch_model import PolicyValueNet                # noqa: E402
from boardlab.nets import netfile                                    # noqa: E402

# The runs share a module fixture: keep them in one xdist worker.
pytestmark = pytest.mark.xdist_group("train")

# Tiny budgets. An untrained network nearly always loses its gate, so the main run has none
# (--gate-games 0: every new network is the best) and generations 1 and 2 play their
# self-play with the guided search; GATED has a real gate (its verdict is not asserted).
SMALL = dict(seed=3, games_per_gen=2, iterations=20, width=16, blocks=1, epochs=2, batch=32,
             gate_games=0, gate_budget="20", strength_games=2, value_search_weight=0.5)
# --value-search-weight 0.5 is given: the default (1) would leave the outcome untested.
CFG = RunConfig("kitsu", {"players": 2}, **SMALL)
GATED = RunConfig("kitsu", {"players": 2}, **{**SMALL, "gate_games": 2})
GENERATIONS = 3
CLI_SMALL = ["--seed", "3", "--games-per-gen", "2", "--iterations", "20", "--width", "16",
             "--blocks", "1", "--epochs", "2", "--batch", "32", "--gate-games", "0",
             "--gate-budget", "20", "--strength-games", "2", "--value-search-weight", "0.5"]


def _train(out, cfg, generations, **kw):
    lines = []
    why = train_run(out, cfg, generations=generations,
                    report=lambda text, transient=False: transient or lines.append(text), **kw)
    assert why == f"stopped after {generations} generations (--generations {generations})"
    return lines


@pytest.fixture(scope="module")
def full_run(tmp_path_factory):
    """An uninterrupted run of GENERATIONS generations."""
    out = tmp_path_factory.mktemp("full") / "run"
    return out, _train(out, CFG, GENERATIONS)


def _log(out):
    with open(out / "log.csv", newline="") as f:
        return list(csv.DictReader(f))


def _files(out):
    """Every file of a run that depends on the seed alone, by relative path."""
    got = {}
    for p in sorted(out.rglob("*")):
        rel = p.relative_to(out).as_posix()
        if p.is_dir() or rel in ("state.json", ".lock", "log.csv"):
            continue
        got[rel] = p.read_bytes()
    got["log.csv (without times)"] = [{k: v for k, v in r.items() if k not in TIME_COLUMNS}
                                      for r in _log(out)]
    return got


def test_a_run_plays_trains_and_logs_every_generation(full_run):
    out, lines = full_run
    rows = _log(out)
    text = "\n".join(lines)
    assert [int(r["generation"]) for r in rows] == list(range(GENERATIONS))
    # Generation 0 is plain ISMCTS's self-play, with no network to train or gate.
    assert rows[0]["best"] == "0" and rows[0]["train_loss"] == "" and rows[0]["kept"] == ""
    assert "gen 0 self-play (plain ISMCTS)" in text
    for g, r in enumerate(rows[1:], 1):
        assert float(r["train_loss"]) > 0 and float(r["val_loss"]) > 0
        assert int(r["train_samples"]) > 0 and int(r["val_samples"]) > 0
        assert r["kept"] == "1" and r["gate_games"] == "0"
        # ... and the later self-play is the guided search with the newest network.
        assert r["best"] == str(g) and f"gen {g} self-play (gen {g} network" in text
        assert r["strength_games"] == "2" and 0 <= float(r["strength_score"]) <= 1
        assert float(r["strength_lo"]) <= float(r["strength_score"]) <= float(r["strength_hi"])
    assert "gen 1 train: generations 0-0" in text and "gen 2 train: generations 0-1" in text
    assert "gen 2 strength vs plain ISMCTS (20 a move): " in text
    assert "games/s" in text and "validation" in text
    svg = (out / "strength.svg").read_text()
    assert svg.startswith("<svg") and svg.count("<circle") == GENERATIONS - 1
    assert (out / "best.blnet").read_bytes() == (out / "nets" / "gen-0002.blnet").read_bytes()
    assert (out / "best.pt").read_bytes() == (out / "nets" / "gen-0002.pt").read_bytes()


def test_a_run_can_begin_with_a_network_and_train_on_from_it(full_run, tmp_path, capsys):
    """--start-from: the network is generation 0's player, the best so far, and the learner
    generation 1 continues (at a learning rate too small to move it, network 1 is network 0)."""
    out, _ = full_run
    start = (out / "nets" / "gen-0001.blnet").read_bytes()        # width 16, 1 block
    (tmp_path / "start.blnet").write_bytes(start)
    run = tmp_path / "run"
    # No --width or --blocks: the network's are taken.
    assert main(["train", "kitsu", "--players", "2", "--out", str(run), "--generations", "1",
                 "--start-from", str(tmp_path / "start.blnet"), "--lr", "1e-12",
                 *[a for a in CLI_SMALL if a not in ("--width", "16", "--blocks", "1")]]) == 0
    printed = capsys.readouterr()
    assert "gen 0 self-play (gen 0 network" in printed.err and "best network:" in printed.out
    stored = json.loads((run / "config.json").read_text())
    assert stored["start_from"] == hashlib.sha256(start).hexdigest()
    assert (stored["width"], stored["blocks"]) == (16, 1)
    assert (run / "nets/gen-0000.blnet").read_bytes() == (run / "best.blnet").read_bytes() == start
    spec = netfile.from_bytes(start)
    settings = trainer.TrainSettings(1, 32, 1e-3, 0.0, 0.5)
    model, _, meta = trainer.load_checkpoint((run / "nets/gen-0000.pt").read_bytes(), settings)
    assert meta["generation"] == 0
    assert np.array_equal(model.inp.weight.detach().numpy(), spec.weights["in_w"])
    # The resume needs neither the file nor the option: the run keeps its copy.
    (tmp_path / "start.blnet").unlink()
    assert main(["train", "kitsu", "--out", str(run), "--generations", "2"]) == 0
    assert "gen 1 train: generations 0-0" in capsys.readouterr().err
    one = netfile.from_bytes((run / "nets/gen-0001.blnet").read_bytes())
    for name, w in spec.weights.items():     # float16 files: equal to a float16 step
        assert np.allclose(one.weights[name], w, rtol=2e-3, atol=1e-4), name
    plain = netfile.from_bytes((out / "nets/gen-0001.blnet").read_bytes())   # fresh learner
    assert not np.allclose(plain.weights["in_w"], netfile.from_bytes(
        (out / "nets/gen-0002.blnet").read_bytes()).weights["in_w"], atol=1e-4)


def test_a_starting_network_must_fit_the_run(full_run, tmp_path, capsys):
    out, _ = full_run
    start = (out / "nets" / "gen-0001.blnet").read_bytes()

    def refused(*argv, match):
        with pytest.raises(SystemExit) as e:
            main(["train", *argv, "--generations", "1"])
        err = capsys.readouterr().err
        assert e.value.code == 2 and match in err, err
    (tmp_path / "net.blnet").write_bytes(start)
    (tmp_path / "junk.blnet").write_bytes(b"not a network")
    run = ["--out", str(tmp_path / "r")]
    refused("kitsu", "--players", "4", *run, "--start-from", str(tmp_path / "net.blnet"),
            match="--start-from: a network for kitsu players=2, not for kitsu players=4")
    refused("kitsu", "--players", "2", *run, "--start-from", str(tmp_path / "net.blnet"),
            "--width", "32", match="--start-from: the network has width 16, the run's --width is 32")
    refused("kitsu", "--players", "2", *run, "--start-from", str(tmp_path / "junk.blnet"),
            match="--start-from: not a network file that can be read")
    refused("kitsu", "--players", "2", *run, "--start-from", str(tmp_path / "none.blnet"),
            match="--start-from: cannot read")
    refused("kitsu", "--players", "6", *run, "--start-from", "default",
            match="--start-from default: no network ships for kitsu")
    assert not (tmp_path / "r").exists()
    # A run that began with one network does not go on from another.
    train_run(tmp_path / "r", CFG, generations=1, start_net=start)
    other = (out / "nets" / "gen-0002.blnet").read_bytes()
    (tmp_path / "other.blnet").write_bytes(other)
    refused("kitsu", *run, "--start-from", str(tmp_path / "other.blnet"),
            match="--start-from: the run in")


def test_a_gate_plays_the_best_so_far_and_keeps_only_a_network_that_does_not_lose(tmp_path):
    lines = _train(tmp_path / "run", GATED, 3)
    text = "\n".join(lines)
    rows = _log(tmp_path / "run")
    # Generation 1 is gated against plain ISMCTS, which is then its strength figure too.
    assert rows[1]["gate_opponent"] == "plain ISMCTS" and "gen 1 gate vs plain ISMCTS" in text
    assert rows[1]["strength_score"] == rows[1]["gate_score"]
    best = 0
    for g, r in enumerate(rows[1:], 1):
        assert r["gate_opponent"] == (f"gen {best}" if best else "plain ISMCTS")
        wins, other = int(r["gate_wins"]), int(r["gate_other_wins"])
        assert wins + other + int(r["gate_draws"]) == 2
        assert r["kept"] == str(int(wins >= other))
        assert ("kept as best" if wins >= other else "rejected") in lines[
            next(k for k, t in enumerate(lines) if t.startswith(f"gen {g} gate"))]
        best = g if wins >= other else best
        assert r["best"] == str(best)               # who played this generation's self-play
    best_file = tmp_path / "run" / "best.blnet"
    if best:
        assert best_file.read_bytes() == (tmp_path / "run" / "nets" / f"gen-{best:04d}.blnet").read_bytes()
    else:
        assert not best_file.exists()


def test_samples_hold_features_visit_shares_and_the_final_evaluation_seen_from_each_seat(full_run):
    out, _ = full_run
    game = boardlab.make("kitsu", players=2)
    s = read_npz(out / "samples" / "gen-0000.npz")
    n = len(s["x"])
    assert s["x"].shape == (n, game._core.feature_size) and s["value"].shape == (n, 2)
    shares = np.add.reduceat(s["policy"], s["legal_off"][:-1])
    np.testing.assert_allclose(shares, 1, atol=1e-6)
    assert np.all(np.diff(s["legal_off"]) >= 2)          # only decisions with a choice
    assert set(s["game"].tolist()) == {0, 1}
    for g in (0, 1):
        rows = s["game"] == g
        seats, value = s["seat"][rows], s["value"][rows]
        # One outcome per game, re-indexed from the seat: index 0 is the sample's own seat.
        final = np.where(seats[:, None] == 0, value, value[:, ::-1])
        assert np.all(final == final[0]) and set(seats.tolist()) == {0, 1}
        assert np.all(np.abs(final[0]) <= 1)
    # The same game again gives the same samples (seeded by run seed, generation, index).
    sp = SelfPlayConfig("kitsu", dict(game.params), 20)
    a, b = play_game(None, sp, 3, 0, 1), play_game(None, sp, 3, 0, 1)
    np.testing.assert_array_equal(a.x, s["x"][s["game"] == 1])
    np.testing.assert_array_equal(a.policy, b.policy)


def test_the_root_estimate_covers_a_clan_game_seat_by_seat():
    """Kitsu with four players: two clans, P0+P2 against P1+P3. The mover's estimate is its
    partner's too and the opposing clan's with the sign turned."""
    game = boardlab.make("kitsu", players=4, track_length=3)
    g = play_game(None, SelfPlayConfig("kitsu", dict(game.params), 20), 5, 0, 0)
    q = g.search_value
    assert q.shape == (len(g.seat), 4) and not np.isnan(q).any()
    np.testing.assert_array_equal(q[:, 2], q[:, 0])            # index 2: the partner
    np.testing.assert_array_equal(q[:, 1], -q[:, 0])
    np.testing.assert_array_equal(q[:, 3], -q[:, 0])
    assert np.all(g.value[:, 2] == g.value[:, 0]) and np.all(g.value[:, 1] == -g.value[:, 0])


def test_self_play_and_the_gate_search_with_the_runs_late_prior():
    """--late reaches the guided search of self-play (Kitsu: late moves come with the other
    hand, so the games differ) and the gate's agent specs."""
    game = boardlab.make("kitsu", players=2, track_length=3)
    spec = netfile.random_spec("kitsu", "", game._core.feature_size, 16, 1, 2, game.num_actions,
                               seed=1)
    net = netfile.to_bytes(spec)
    by = {late: play_game(net, SelfPlayConfig("kitsu", dict(game.params), 200, late=late),
                          5, 1, 0)
          for late in (None, "uniform")}
    assert not np.array_equal(by[None].policy, by["uniform"].policy)
    assert gate.agent_spec("20", net, late="uniform").endswith(":late=uniform")
    assert ":late" not in gate.agent_spec("20", net)


def test_explored_decisions_are_played_at_random_and_seeded_by_the_game():
    """--explore-rate: past the drawn opening, that share of decisions is played uniformly at
    random (a game of every move random differs from the searched one), the same again for
    the same game."""
    game = boardlab.make("kitsu", players=2, track_length=3)
    params = dict(game.params)
    searched = play_game(None, SelfPlayConfig("kitsu", params, 200, temperature_moves=0), 5, 0, 0)
    explored = [play_game(None, SelfPlayConfig("kitsu", params, 200, temperature_moves=0,
                                               explore_rate=1.0), 5, 0, 0) for _ in range(2)]
    np.testing.assert_array_equal(explored[0].x, explored[1].x)
    assert explored[0].x.shape != searched.x.shape or not np.array_equal(explored[0].x, searched.x)


def test_samples_hold_the_search_root_estimate_and_the_learner_can_mix_it_into_the_value(
        full_run):
    out, _ = full_run
    s = GenerationStore(out / "samples", 1, 2).load(0)
    q = s.search_value
    assert q.shape == s.value.shape and not np.isnan(q).any()
    assert np.all(np.abs(q) <= 1) and np.all(q[:, 1] == -q[:, 0])     # Kitsu 2p: zero-sum
    # One outcome per game, but the search's estimate moves from position to position.
    assert len(np.unique(q[:, 0])) > len(np.unique(s.game))
    # Played again, the game gives the same estimates.
    game = boardlab.make("kitsu", players=2)
    sp = SelfPlayConfig("kitsu", dict(game.params), 20)
    g = play_game(None, sp, 3, 0, 0)
    np.testing.assert_array_equal(g.search_value, q[s.game == 0])
    w = 0.25
    mixed = trainer.value_target(s, w)
    np.testing.assert_allclose(mixed, 0.75 * s.value + 0.25 * q, rtol=0, atol=1e-6)
    np.testing.assert_array_equal(trainer.value_target(s, 0.0), s.value)
    # Where the search said nothing (a file written before the estimate was kept), the
    # outcome stays the target.
    s.search_value[:3] = np.nan
    np.testing.assert_array_equal(trainer.value_target(s, w)[:3], s.value[:3])


def test_the_exported_network_loads_in_c_and_computes_like_torch_on_validation_samples(full_run):
    out, _ = full_run
    game = boardlab.make("kitsu", players=2)
    store = GenerationStore(out / "samples", game._core.feature_size, 2)
    for g in range(1, GENERATIONS):
        data = (out / "nets" / f"gen-{g:04d}.blnet").read_bytes()
        net = _net.Net.from_file(out / "nets" / f"gen-{g:04d}.blnet")
        net.check_game(game._core)
        assert (net.game, net.width, net.blocks, net.n_value) == ("kitsu", 16, 1, 2)
        assert data[80:84] == (2).to_bytes(4, "little")            # float16 weights
        # The file is the learner's checkpoint, rounded to float16.
        model, _, meta = trainer.load_checkpoint(
            (out / "nets" / f"gen-{g:04d}.pt").read_bytes(), trainer.TrainSettings())
        assert meta["generation"] == g
        spec = netfile.from_bytes(data)
        for name, w in model.to_spec("kitsu", spec.config).weights.items():
            np.testing.assert_array_equal(spec.weights[name], w.astype(np.float16).astype(np.float32))
        # C and PyTorch agree on the held-out games of the window it trained on.
        val = store.load(g - 1)
        x, mask, _ = val.select(np.flatnonzero(val.game == 1)).dense(game.num_actions)
        assert len(x) > 20
        with torch.no_grad():
            tv, tlogp = PolicyValueNet.from_spec(spec)(torch.from_numpy(x), torch.from_numpy(mask))
        values, priors = net.forward(x, mask)
        np.testing.assert_allclose(values, tv.numpy(), rtol=0, atol=1e-5)
        np.testing.assert_allclose(priors, torch.exp(tlogp).numpy(), rtol=0, atol=1e-5)
        assert np.ptp(values[:, 0]) > 0                            # not a constant network


def test_stopping_between_generations_and_resuming_gives_the_same_files(full_run, tmp_path, capsys):
    out, _ = full_run
    run = tmp_path / "run"
    # Through the command line; a resume needs only the game, --out and the budget.
    assert main(["train", "kitsu", "--players", "2", "--out", str(run), "--generations", "1",
                 *CLI_SMALL]) == 0
    assert "stopped after 1 generations" in capsys.readouterr().out
    for n in range(2, GENERATIONS + 1):
        assert main(["train", "kitsu", "--out", str(run), "--generations", str(n)]) == 0
    printed = capsys.readouterr()
    assert "best network:" in printed.out and "gen 2 strength vs plain ISMCTS" in printed.err
    assert _files(run) == _files(out)
    # A finished budget stops at once, saying how to go on.
    assert main(["train", "kitsu", "--out", str(run), "--generations", str(GENERATIONS)]) == 0
    assert f"stopped after {GENERATIONS} generations" in capsys.readouterr().out


def test_a_kill_inside_a_generation_loses_only_the_games_in_progress(full_run, tmp_path):
    out, _ = full_run
    run = tmp_path / "run"
    # A budget used up at once: the run is set up and stops before its first game.
    assert "budget is used up" in train_run(run, CFG, hours=1e-12)
    # Killed in generation 0's self-play: game 0 saved in a chunk, a chunk cut short by the
    # kill (its temporary file) and one damaged on disk.
    store = GenerationStore(run / "samples", 607, 2)
    sp = SelfPlayConfig("kitsu", {"players": 2, "track_length": 15}, 20)
    store.write_chunk(0, [play_game(None, sp, CFG.seed, 0, 0)])
    part = store.part_dir(0)
    (part / "chunk-0001.npz.tmp999").write_bytes(b"PK\x03\x04 half a chunk")
    good = (part / "chunk-0000.npz").read_bytes()
    (part / "chunk-0002.npz").write_bytes(good[: len(good) // 2])
    # ... and in generation 2's gate: one game on file, the next line cut short.
    lines = (out / "matches" / "gen-0002.jsonl").read_text().splitlines()
    (run / "matches").mkdir(exist_ok=True)
    (run / "matches" / "gen-0002.jsonl").write_text(lines[0] + "\n" + lines[1][:30])
    with pytest.warns(UserWarning, match="dropping the unreadable self-play chunk"):
        train_run(run, CFG, generations=GENERATIONS)
    assert not part.exists()
    assert _files(run) == _files(out)
    # Killed after the last generation's games were merged, before state.json recorded it
    # (and before the chunks were removed): the merged file is taken as it is.
    state = json.loads((run / "state.json").read_text())
    del state["generations"][-1]["selfplay"]
    (run / "state.json").write_text(json.dumps(state))
    store.part_dir(GENERATIONS - 1).mkdir()
    lines = _train(run, CFG, GENERATIONS)
    assert lines == [f"gen {GENERATIONS - 1} self-play: complete on disk"]
    assert not store.part_dir(GENERATIONS - 1).exists() and _files(run) == _files(out)


def test_worker_processes_and_ray_tasks_give_the_same_records(full_run, tmp_path):
    out, _ = full_run
    # Two local processes, through generation 1's gate (the networks travel as bytes) and
    # generation 1's self-play by the best agent.
    train_run(tmp_path / "jobs", CFG, generations=2, jobs=2)
    # Ray (a local Ray started for the run), generation 0.
    train_run(tmp_path / "ray", CFG, generations=1, backend="ray", jobs=2)
    for name in ("samples/gen-0000.npz", "samples/gen-0001.npz", "nets/gen-0001.blnet"):
        assert (tmp_path / "jobs" / name).read_bytes() == (out / name).read_bytes(), name
    assert (tmp_path / "ray" / "samples/gen-0000.npz").read_bytes() \
        == (out / "samples/gen-0000.npz").read_bytes()
    assert _log(tmp_path / "jobs")[1]["gate_score"] == _log(out)[1]["gate_score"]


def test_bad_settings_are_refused_naming_the_option(tmp_path, capsys):
    def refused(*argv, match):
        with pytest.raises(SystemExit) as e:
            main(["train", *argv])
        err = capsys.readouterr().err
        assert e.value.code == 2 and match in err, err

    out = ["--out", str(tmp_path / "r"), "--generations", "1"]
    refused("kitsu", "--players", "2", "--games-per-gen", "1", *out,
            match="--games-per-gen: must be an integer in [2,")
    refused("kitsu", "--players", "2", "--width", "0", *out, match="--width: must be")
    refused("kitsu", "--players", "2", "--gate-games", "3", *out,
            match="--gate-games: must be a multiple of 2")
    refused("kitsu", "--players", "2", "--gate-budget", "fast", *out,
            match="--gate-budget: must be seconds (0.1s) or iterations (400)")
    refused("kitsu", "--players", "2", "--mix", "2", *out, match="--mix: must be a number in [0, 1]")
    refused("kitsu", "--players", "2", "--late", "flat", *out,
            match="--late: must be one of net, uniform")
    refused("kitsu", "--players", "2", "--val-fraction", "0.9", *out, match="--val-fraction")
    refused("kitsu", "--players", "2", "--value-search-weight", "1.5", *out,
            match="--value-search-weight: must be a number in [0, 1]")
    refused("kitsu", "--players", "2", "--explore-rate", "-0.1", *out,
            match="--explore-rate: must be a number in [0, 1]")
    refused("kitsu", "--players", "2", "--gate-by", "return", *out,
            match="--gate-by: return compares one agent's games with another's on the same "
                  "deals: solo games only")
    refused("nukumi", "--players", "1", "--gate-by", "points", *out,
            match="--gate-by: must be wins or return, got 'points'")
    refused("kitsu", "--players", "3", *out, match="bad parameters for kitsu")
    refused("chess", *out, match="unknown game 'chess'")
    refused("kitsu", "--out", str(tmp_path / "r"), match="--hours: give hours")
    refused("kitsu", "--hours", "-1", "--out", str(tmp_path / "r"), match="--hours: must be")
    refused("kitsu", "--jobs", "0", *out, match="--jobs must be at least 1")
    (tmp_path / "file").write_text("x")
    refused("kitsu", "--out", str(tmp_path / "file"), "--generations", "1", match="is a file")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("x")
    refused("kitsu", "--out", str(tmp_path / "full"), "--generations", "1",
            match="is not empty and holds no training run")
    assert not (tmp_path / "r").exists()              # nothing written by a refused run
    # A run keeps its settings: a resume may not change them.
    train_run(tmp_path / "r", CFG, generations=1)
    refused("kitsu", "--width", "32", *out, match="--width: the run in")
    refused("kitsu", "--players", "4", *out, match="the run in")
    import fcntl                                            # POSIX: Linux and macOS wheels
    with open(tmp_path / "r" / ".lock", "w") as held:      # another run holds the folder
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        refused("kitsu", *out, match="--out: another boardlab train is running in")
    with pytest.raises(ConfigError, match="epochs: must be an integer"):
        RunConfig("kitsu", {"players": 2}, epochs=0).checked()


def test_without_torch_the_message_says_how_to_install_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "torch", None)          # import torch -> ImportError
    with pytest.raises(SystemExit) as e:
        main(["train", "kitsu", "--players", "2", "--out", str(tmp_path / "r"), "--hours", "1"])
    assert e.value.code == 2
    assert 'pip install "boardlab[train]"' in capsys.readouterr().err


def test_the_gate_keeps_a_network_that_does_not_lose():
    def result(wins_by_agent, agents=2, sides=("Blue", "Orange"), draws=0):
        r = gate.MatchResult("kitsu", {}, ["a"] * agents, 0, 0, list(sides))
        k = 0
        for agent, w in enumerate(wins_by_agent):
            for _ in range(w):
                r.outcomes.append(gate.GameOutcome(k, 0, [0, 1], agent, [0.0] * len(sides), 0, 0))
                k += 1
        for _ in range(draws):
            r.outcomes.append(gate.GameOutcome(k, 0, [0, 1], None, [0.0] * len(sides), 0, 0))
            k += 1
        return r
    assert gate.summarise("gate", {"gate": result([5, 5])})["kept"]
    assert gate.summarise("gate", {"gate": result([3, 2], draws=5)})["score"] == 0.55
    assert not gate.summarise("gate", {"gate": result([4, 6])})["kept"]
    solo = {"gate:candidate": result([3], 1, ("P0",)), "gate:other": result([4], 1, ("P0",))}
    for r in solo.values():
        r.games = 10
    s = gate.summarise("gate", solo)
    assert not s["kept"] and s["score"] == 0.3 and s["par"] == 0.4


def test_a_solo_run_gated_by_return_keeps_the_network_that_scores_more(tmp_path, monkeypatch):
    """... and a run stopped in generation 1's self-play has logged its gate already."""
    from boardlab.learn import run as run_module
    selfplay = run_module._Run.selfplay
    monkeypatch.setattr(run_module._Run, "selfplay",     # generation 1's is stopped at once
                        lambda self, g, rec: None if g else selfplay(self, g, rec))
    cfg = RunConfig("nukumi", {"players": 1, "solo": "score_attack"},
                    **{**SMALL, "gate_games": 2, "gate_by": "return"})
    lines = []
    why = train_run(tmp_path / "run", cfg, hours=1,
                    report=lambda text, transient=False: transient or lines.append(text))
    assert why.startswith("stopped in generation 1 (selfplay)")
    r = _log(tmp_path / "run")[1]
    assert r["selfplay_games"] == "" and r["best"] == ""
    mine, theirs = float(r["gate_return"]), float(r["gate_other_return"])
    assert r["kept"] == str(int(mine >= theirs)) and r["gate_opponent"] == "plain ISMCTS"
    line = next(t for t in lines if t.startswith("gen 1 gate"))
    assert f"mean return {mine:.4f} vs {theirs:.4f}" in line


def test_a_solo_gate_by_return_compares_the_same_deals_mean_returns():
    """Score Attack is won (a positive return) in nearly every game at the gate's budget, so
    its gate compares the mean return; the candidate below wins fewer games but scores more."""
    def solo(returns):
        r = gate.MatchResult("nukumi", {}, ["a"], len(returns), 0, ["P0"])
        r.outcomes = [gate.GameOutcome(k, k, [0], 0 if x > 0 else None, [x], 0, 0)
                      for k, x in enumerate(returns)]
        return r
    cand, other = [0.9, 0.5, -0.1, 0.4], [0.2, 0.3, 0.1, 0.4]
    results = {"gate:candidate": solo(cand), "gate:other": solo(other)}
    by_wins, by_return = (gate.summarise("gate", results, by) for by in ("wins", "return"))
    assert not by_wins["kept"] and by_return["kept"]
    assert by_return["return"] == sum(cand) / 4 and by_return["other_return"] == sum(other) / 4
    assert by_return["diff_lo"] < by_return["return_diff"] == (0.7 + 0.2 - 0.2) / 4 \
        < by_return["diff_hi"]
    results = {"gate:candidate": solo(other), "gate:other": solo(cand)}
    assert not gate.summarise("gate", results, "return")["kept"]


def test_a_run_from_before_the_search_estimate_keeps_training_on_outcomes(tmp_path):
    from dataclasses import asdict
    from boardlab.learn.run import open_config
    assert RunConfig("kitsu", {"players": 2}).value_search_weight == 1.0     # a new run
    old = {k: v for k, v in asdict(CFG.checked()).items() if k != "value_search_weight"}
    (tmp_path / "config.json").write_text(json.dumps(old))
    assert open_config(tmp_path, RunConfig("kitsu", {}), {"game"}).value_search_weight == 0.0


def test_the_strength_plots_words_do_not_overlap():
    """No two labels of the plot share a line where their (estimated) extents meet: the
    legend once sat on the axis title."""
    import re
    from boardlab.learn.plot import strength_svg
    rows = [{"generation": g, "strength_score": 0.6, "strength_lo": 0.45, "strength_hi": 0.75,
             "strength_par": 0.5, "kept": 1} for g in (1, 2)]
    svg = strength_svg(rows, "kitsu players=2: network of each generation vs plain ISMCTS")
    spans = []
    for attrs, text in re.findall(r"<text ([^>]*)>([^<]*)</text>", svg):
        if "rotate" in attrs:
            continue
        x, y = float(re.search(r'x="([\d.]+)"', attrs)[1]), float(re.search(r'y="([\d.]+)"', attrs)[1])
        size = float(re.search(r'font-size="([\d.]+)"', attrs)[1]) if "font-size" in attrs else 12
        width = 0.6 * size * len(text)
        anchor = re.search(r'text-anchor="(\w+)"', attrs)
        start = {"middle": x - width / 2, "end": x - width}.get(anchor and anchor[1], x)
        spans.append((y, size, start, start + width, text))
    for i, a in enumerate(spans):
        for b in spans[i + 1:]:
            if abs(a[0] - b[0]) < max(a[1], b[1]):
                assert a[3] <= b[2] or b[3] <= a[2], (a[4], b[4])


def test_a_run_gated_by_return_plots_the_mean_return_against_plain_on_the_same_deals():
    from boardlab.learn.plot import strength_svg
    rows = [{"generation": 1, "strength_return": "0.29290", "strength_return_lo": "0.27340",
             "strength_return_hi": "0.31240", "strength_other_return": "0.27620", "kept": 1,
             "strength_score": "0.9850", "strength_lo": "0.95", "strength_hi": "0.99",
             "strength_par": "0.98"}]
    svg = strength_svg(rows, "nukumi players=1 solo=score_attack", "return")
    assert "mean return (plain ISMCTS: par)" in svg and "%" not in svg
    labels = [float(v) for v in re.findall(r'text-anchor="end">([-\d.]+)</text>', svg)]
    grid = [float(v) for v in re.findall(r'<line x1="[\d.]+" y1="([\d.]+)"[^>]*stroke="#ddd"', svg)]
    ys = dict(zip(labels, grid))                              # each value's height on the axis
    assert min(ys) <= 0.2734 and max(ys) >= 0.3124           # the axis spans the interval
    circle_y = float(re.search(r'<circle cx="[\d.]+" cy="([\d.]+)"', svg)[1])
    lo, hi = min(ys), max(ys)                                 # the point sits at 0.2929 on it
    assert abs(circle_y - (ys[lo] + (0.2929 - lo) / (hi - lo) * (ys[hi] - ys[lo]))) < 0.5
    by_wins = strength_svg(rows, "t")                         # the share won, 0-100%
    assert "100%" in by_wins and "mean return" not in by_wins


def test_the_window_holds_each_sample_once_as_selecting_and_concatenating_did(full_run):
    """window() copies each sample straight into its place (a million Keytoma samples did
    not fit three times over); the result is the same arrays as a selection of each
    generation's rows followed by a concatenation."""
    from boardlab.learn.replay import Samples, window
    out, _ = full_run
    store = GenerationStore(out / "samples", boardlab.make("kitsu", players=2)._core.feature_size, 2)
    gens = list(range(GENERATIONS - 1))
    for held_games in (1, 2):                     # one of two games held out, then both
        train, val = window(store, gens, held_games, 2)
        parts = [store.load(g) for g in gens]
        for got, keep in ((train, lambda s: s.game < 2 - held_games),
                          (val, lambda s: s.game >= 2 - held_games)):
            want = Samples.concat([s.select(np.flatnonzero(keep(s))) for s in parts])
            for f in ("x", "seat", "game", "legal_off", "legal", "policy", "value", "search_value"):
                a, b = getattr(got, f), getattr(want, f)
                assert a.dtype == b.dtype and a.shape == b.shape, f
                np.testing.assert_array_equal(a, b, err_msg=f)
        assert len(val) > 0 and (len(train) == 0) == (held_games == 2)


def test_the_log_gives_what_the_value_explains_of_the_held_out_games(full_run):
    """val_value_r2 = 1 - the validation value MSE / the variance of its target (Keytoma's
    outcome target learnt 7,200 games and explained nothing of the held-out ones)."""
    from boardlab.learn.replay import split_games, window
    out, lines = full_run
    store = GenerationStore(out / "samples", boardlab.make("kitsu", players=2)._core.feature_size, 2)
    for g in range(1, GENERATIONS):
        row = _log(out)[g]
        gens = list(range(max(0, g - CFG.window), g))
        _, val = window(store, gens, split_games(CFG.games_per_gen, CFG.val_fraction),
                        CFG.games_per_gen)
        spread = trainer.value_target(val, CFG.value_search_weight).var(axis=0).mean()
        assert float(row["val_value_r2"]) == pytest.approx(1 - float(row["val_value"]) / spread,
                                                           abs=1e-3)
        assert f"R² {float(row['val_value_r2']):+.3f}" in next(
            t for t in lines if t.startswith(f"gen {g} train"))


def test_one_network_learns_every_player_count_of_a_run_over_several(tmp_path, capsys):
    """--vary players=2,4: self-play alternates the counts, every sample's value has an
    output per seat of the largest count (NaN past its table's), the network carries the
    run's key and plays both tables, and the gate and strength matches are played at each
    count (rounded up to a multiple of its sides)."""
    run = tmp_path / "run"
    gated = [a if a != "0" or CLI_SMALL[k - 1] != "--gate-games" else "2"
             for k, a in enumerate(CLI_SMALL)]      # a gate of 2 games a count
    assert main(["train", "kitsu", "--vary", "players=2,4", "--out", str(run),
                 "--generations", "2", *gated]) == 0
    capsys.readouterr()
    stored = json.loads((run / "config.json").read_text())
    assert stored["variants"] == [{"players": 2}, {"players": 4}]
    data = read_npz(run / "samples" / "gen-0000.npz")
    assert data["value"].shape[1] == 4
    two = data["game"] == 0                         # game 0: two players, game 1: four
    assert np.isnan(data["value"][two][:, 2:]).all() and not np.isnan(data["value"][~two]).any()
    spec = netfile.from_bytes((run / "nets" / "gen-0001.blnet").read_bytes())
    assert (spec.config, spec.n_value) == ("players=2,4", 4)
    for n in (2, 4):
        _net.Net.from_bytes(netfile.to_bytes(spec)).check_game(boardlab.make("kitsu", players=n)._core)
    gen1 = json.loads((run / "state.json").read_text())["generations"][1]
    by_count = [(v["params"]["players"], v["games"]) for v in gen1["gate"]["variants"]]
    assert by_count == [(2, 2), (4, 2)] and gen1["gate"]["games"] == 4
    assert [v["params"]["players"] for v in gen1["strength"]["variants"]] == [2, 4]


def test_a_run_over_several_counts_can_begin_from_one_counts_network(full_run, tmp_path):
    """A two-player network begins a run over 2 and 4 players: network 0 is that network with
    the value head widened to four seats (the new outputs copies of its last), so that it
    plays both; its policy and the values it had are unchanged."""
    out, _ = full_run
    start = (out / "nets" / "gen-0001.blnet").read_bytes()
    cfg = RunConfig("kitsu", {"players": 2}, **{**SMALL, "variants": ({"players": 2},
                                                                      {"players": 4})})
    _train(tmp_path / "run", cfg, 1, start_net=start)
    old = netfile.from_bytes(start)
    new = netfile.from_bytes((tmp_path / "run" / "nets" / "gen-0000.blnet").read_bytes())
    assert (new.config, new.n_value) == ("players=2,4", 4)
    assert np.array_equal(new.weights["v_w"][:2], old.weights["v_w"])
    assert np.array_equal(new.weights["v_w"][3], old.weights["v_w"][1])
    assert np.array_equal(new.weights["p_w"], old.weights["p_w"])


def test_bad_variants_are_refused_naming_the_fault(tmp_path, capsys):
    with pytest.raises(ConfigError, match="variants: .*bad game parameters"):
        RunConfig("kitsu", {}, variants=({"players": 3},)).checked()
    with pytest.raises(ConfigError, match="listed twice"):
        RunConfig("kitsu", {}, variants=({"players": 2}, {"players": 2})).checked()
    with pytest.raises(SystemExit):
        main(["train", "kitsu", "--vary", "players", "--out", str(tmp_path / "r"),
              "--generations", "1"])
    assert "--vary expects KEY=V1,V2" in capsys.readouterr().err


def test_a_few_optimiser_steps_on_a_fixed_batch_lower_the_loss(full_run):
    """The learner's loss goes down where it trains: a wrong-signed loss, or a value or policy
    target the loss does not reach, would leave it where it is or raise it."""
    out, _ = full_run
    data = GenerationStore(out / "samples", 0, 0).load(0)
    settings = trainer.TrainSettings(epochs=1, batch=len(data), lr=3e-3)
    model, opt = trainer.new_learner({"n_in": data.x.shape[1], "width": 16, "blocks": 1,
                                      "n_value": 2, "n_actions": 94}, settings, seed=1)
    before = trainer.evaluate(model, data)
    for step in range(20):
        trainer.train_epochs(model, opt, data, settings, seed=step)
    after = trainer.evaluate(model, data)
    # the policy loss is a cross-entropy: its floor is the targets' own entropy
    p = data.policy[data.policy > 0]
    floor = float(-(p * np.log(p)).sum()) / len(data)
    assert after.value < 0.8 * before.value
    assert after.policy - floor < 0.8 * (before.policy - floor)
