"""The bench tools: bench/calibrate.py (the iteration budget that stands for a time budget),
bench/keyside_solo.py's --drawn filter and --calibrate and the Nukumi benches' building counts."""
import importlib.util
import re
from pathlib import Path

import pytest

import boardlab


BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name="calibrate"):
    path = BENCH / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_calibrate_times_the_agents_searches(capsys):
    cal = _load()
    rate, done = cal.calibrate("nukumi", 2, "ismcts:200", searches=3, seed=7)
    assert done == 3 and rate > 0
    cal.main(["kyushu", "--players", "3", "--agent", "ismcts:100", "--searches", "2"])
    out = capsys.readouterr().out
    assert "kyushu 3p, ismcts:100" in out and "first 2 searches" in out and "1 s/move = ismcts:" in out


def test_calibrate_needs_an_iteration_budget():
    with pytest.raises(SystemExit, match="iteration budget"):
        _load().calibrate("nukumi", 2, "ismcts:0.1s", searches=1, seed=7)


def test_keyside_solo_calibrates_on_the_first_searches_of_a_game(monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(BENCH))
    solo = _load("keyside_solo")
    import solo_play                                    # on the path from here
    state = boardlab.make("keyside", players=1).new_initial_state(seed=3)
    played = solo_play.play_seeded(state, "ismcts:50", 3, searches=4)
    assert played.searched == 4 and played.cpu > 0 and not played.state.is_terminal()
    solo.main(["--agent", "ismcts:50", "--calibrate", "3", "--seed", "3"])
    assert re.search(r"first 3 searches: [\d,]+ iterations per CPU second", capsys.readouterr().out)
    with pytest.raises(SystemExit, match="iteration budget"):
        solo.main(["--agent", "ismcts:0.01s", "--calibrate", "1"])


def test_keyside_solo_plays_only_the_seeds_that_draw_the_beacons_asked(monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(BENCH))              # keyside_solo imports solo_play
    solo = _load("keyside_solo")
    drawn = {seed: solo.drawn_beacons(seed) for seed in range(5000, 5012)}
    assert all(len(b) == 3 and b[1][0] == "B" for b in drawn.values())
    solo.main(["--agent", "random", "--games", "12", "--seed", "5000", "--drawn", "B1,B2"])
    out, err = capsys.readouterr()
    played = [int(line.split(" seed ")[1].split(":")[0]) for line in err.splitlines() if line.startswith("game ")]
    assert played == [s for s, b in drawn.items() if {"B1", "B2"} & set(b)] and played
    assert "CPU s a move" in out
    with pytest.raises(SystemExit):
        solo.main(["--agent", "random", "--games", "2", "--drawn", "B9"])
    assert "unknown beacon(s) B9" in capsys.readouterr().err
    with pytest.raises(SystemExit):                        # a range where none is drawn
        solo.main(["--agent", "random", "--games", "1", "--seed", "5000", "--drawn", "B1"])
    assert "no seed from 5000 to 5000 draws B1" in capsys.readouterr().err


def test_nukumi_benches_count_buildings_and_the_construction_bonus(monkeypatch, capsys):
    """bench/nukumi_solo.py (Score Attack) and bench/nukumi_selfplay.py (2-4 players) report
    how many buildings each seat built and how often the 8th building's bonus scored."""
    monkeypatch.syspath_prepend(str(BENCH))              # they import solo_play, nukumi_solo
    _load("nukumi_solo").main(["--mode", "score_attack", "--agent", "random", "--games", "3"])
    _load("nukumi_selfplay").main(["--players", "2", "--agent", "random", "--games", "2"])
    out = capsys.readouterr().out
    assert out.count("construction bonus (8th building) in 0/") == 2
    assert "in 0/3" in out and "in 0/4" in out and "seat scores: median" in out
    # Score Attack's median with its 95% interval (3 games: the lowest to the highest score)
    # and the CPU time a move.
    assert re.search(r"median score \d+ \[95% interval \d+, \d+\]", out)
    assert "from seed 0: " in out and "CPU s a move" in out


def test_a_solo_bench_with_a_record_goes_on_from_the_games_it_holds(monkeypatch, capsys, tmp_path):
    """--record keeps each game as it ends; a run with the same settings plays only the seeds
    the record does not hold and reports them all, the same as one run would."""
    monkeypatch.syspath_prepend(str(BENCH))
    solo = _load("keyside_solo")
    record = tmp_path / "games.jsonl"
    args = ["--agent", "random", "--seed", "40", "--all-beacons", "--record", str(record)]
    solo.main(args + ["--games", "2"])
    capsys.readouterr()
    with record.open("a") as f:
        f.write('{"seed": 42, "resu')                       # a line cut short by a kill
    solo.main(args + ["--games", "4"])
    resumed = capsys.readouterr()
    assert "2 of 4 games read back" in resumed.err
    assert [line.split(":")[0] for line in resumed.err.splitlines() if line.startswith("game ")] \
        == ["game seed 42", "game seed 43"]
    solo.main(["--agent", "random", "--seed", "40", "--all-beacons", "--games", "4"])
    assert capsys.readouterr().out.split("\n", 1)[1] == resumed.out.split("\n", 1)[1]
    with pytest.raises(SystemExit, match=r"made with other settings \(agent\)"):
        solo.main(["--agent", "ismcts:10", "--seed", "40", "--all-beacons", "--record", str(record)])
    record.write_text("not json\n{}\n")
    with pytest.raises(SystemExit, match="not a record of this bench"):
        solo.main(args)
