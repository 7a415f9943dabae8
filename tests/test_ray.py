"""The Ray back end (boardlab.parallel): same results as local processes, progress as games
finish, clear errors when Ray is missing or a cluster cannot be reached."""
import socket
import sys

import pytest
import ray      # the test extra installs it: a missing Ray fails here rather than skipping

from boardlab.arena import play_match
from boardlab.cli import main
from boardlab.ladder import run_ladder
from boardlab.parallel import RAY_MISSING, run_tasks

MATCH = ("kitsu", {"players": 2}, ["random", "ismcts:30"])


# Errors first: they need no Ray running (the module's Ray starts at its first use).
def test_missing_ray_is_a_clear_error(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)          # import ray -> ImportError
    with pytest.raises(ImportError, match=r'pip install "boardlab\[ray\]"'):
        play_match(*MATCH, games=2, backend="ray")
    with pytest.raises(SystemExit) as e:
        main(["arena", "kitsu", "--players", "2", "--agents", "random", "random",
              "--games", "2", "--backend", "ray"])
    assert e.value.code == 2
    assert RAY_MISSING in capsys.readouterr().err


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_address_is_a_clear_error(capsys):
    assert not ray.is_initialized()
    address = f"127.0.0.1:{_closed_port()}"
    with pytest.raises(ConnectionError, match=f"cannot reach a Ray cluster at {address}"):
        play_match(*MATCH, games=2, backend="ray", address=address)
    with pytest.raises(SystemExit) as e:
        main(["arena", "kitsu", "--players", "2", "--agents", "random", "random",
              "--games", "2", "--backend", "ray", "--address", address])
    assert e.value.code == 2 and "cannot reach a Ray cluster" in capsys.readouterr().err
    with pytest.raises(ValueError, match="HOST:PORT"):
        play_match(*MATCH, games=2, backend="ray", address="no-port-here")
    assert not ray.is_initialized()


def test_backend_options_are_checked():
    with pytest.raises(ValueError, match="backend"):
        play_match(*MATCH, games=2, backend="dask")
    with pytest.raises(ValueError, match="address"):
        play_match(*MATCH, games=2, backend="local", address="127.0.0.1:6379")


def test_a_ray_started_for_one_match_is_shut_down_after_it():
    assert not ray.is_initialized()
    on_ray = play_match(*MATCH, games=2, seed=3, backend="ray", jobs=2)
    assert not ray.is_initialized()
    assert on_ray.to_dict() == play_match(*MATCH, games=2, seed=3).to_dict()


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray for the module (two CPUs, no dashboard), shut down afterwards."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_match_on_ray_equals_local_jobs(local_ray):
    seen = []
    on_ray = play_match(*MATCH, games=6, seed=21, backend="ray",
                        progress=lambda done, total: seen.append((done, total)))
    local = play_match(*MATCH, games=6, seed=21, backend="local", jobs=2)
    assert on_ray.to_dict() == local.to_dict()
    assert seen == [(k, 6) for k in range(1, 7)]          # one call per finished game
    other = play_match(*MATCH, games=6, seed=22, backend="ray")
    assert other.to_dict() != on_ray.to_dict()


def test_ladder_on_ray_equals_local(local_ray):
    specs = ["random", "greedy", "ismcts:20"]
    pairs = []
    on_ray = run_ladder("kitsu", {"players": 2}, specs, games=2, seed=4, bootstrap=10,
                        backend="ray", progress=lambda k, n, a, b, m: pairs.append((k, n, a, b)))
    local = run_ladder("kitsu", {"players": 2}, specs, games=2, seed=4, bootstrap=10, jobs=2)
    assert on_ray.to_dict() == local.to_dict()
    assert sorted(p[0] for p in pairs) == [1, 2, 3] and {p[1] for p in pairs} == {3}
    assert {(a, b) for _, _, a, b in pairs} == {("random", "greedy"), ("random", "ismcts:20"),
                                               ("greedy", "ismcts:20")}


def test_task_errors_come_back(local_ray):
    with pytest.raises(ValueError, match="no-such-game|unknown"):
        list(run_tasks(play_match, [("no-such-game", {}, ["random"], 1)], backend="ray"))


def test_cli_arena_on_ray(local_ray, capsys):
    assert main(["arena", "kitsu", "--players", "2", "--agents", "random", "greedy",
                 "--games", "2", "--backend", "ray", "--progress"]) == 0
    captured = capsys.readouterr()
    assert "0:random" in captured.out and "2/2 games" in captured.err
    # which machine played the games: one node here, its address and both games
    node = ray.util.get_node_ip_address()
    assert f"games by node: {node} 2" in captured.err


def test_games_are_counted_by_node(local_ray):
    import collections
    on_ray, local = collections.Counter(), collections.Counter()
    play_match(*MATCH, games=3, seed=8, backend="ray", nodes=on_ray)
    play_match(*MATCH, games=3, seed=8, backend="local", jobs=2, nodes=local)
    assert on_ray == {ray.util.get_node_ip_address(): 3} and local == {"local": 3}


def test_tune_search_on_ray_equals_local(local_ray, capsys):
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "bench" / "tune_search.py"
    spec = importlib.util.spec_from_file_location("tune_search", path)
    tune = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tune)
    argv = ["--reference", "ismcts:20", "--candidates", "random", "ismcts:40", "--games", "4"]

    def scores(extra):
        tune.main(argv + extra)
        lines = capsys.readouterr().out.splitlines()[1:]
        return [line.rsplit("(", 1)[0] for line in lines]       # without the time taken
    on_ray = scores(["--backend", "ray"])
    assert len(on_ray) == 2 and "score" in on_ray[0]
    assert on_ray == scores(["--jobs", "2"])


def test_batch_analysis_on_ray_equals_local(local_ray, tmp_path):
    import json

    import pandas as pd

    from boardlab.analysis import analyse_files
    from test_batch_analysis import _record
    paths = []
    for seed in (5, 6):
        p = tmp_path / f"g{seed}.json"
        p.write_text(json.dumps(_record(seed, max_decisions=6)))
        paths.append(str(p))
    on_ray, local = str(tmp_path / "ray.csv"), str(tmp_path / "local.csv")
    assert analyse_files(paths, on_ray, budget="40", backend="ray", progress=False)["rows"] == 12
    analyse_files(paths, local, budget="40", jobs=2, progress=False)
    key = ["record", "decision"]
    pd.testing.assert_frame_equal(pd.read_csv(on_ray).sort_values(key).reset_index(drop=True),
                                  pd.read_csv(local).sort_values(key).reset_index(drop=True))
