"""boardlab.analysis / `boardlab analyse`: every decision of saved games, resumable output."""
import json
import math

import pandas as pd
import pytest

import boardlab
from boardlab.analysis import COLUMNS, analyse_files, record_id
from boardlab.arena import _build_agent, _sample_chance
from boardlab.cli import main
from boardlab.errors import RecordError


def _record(seed: int, agents=("random", "greedy"), max_decisions=12) -> dict:
    """A short Kitsu game between two agents, saved as the app saves it (cut short: a
    record need not be finished)."""
    import random
    state = boardlab.make("kitsu", players=2).new_initial_state(seed=seed)
    players = [_build_agent(a, seed + k) for k, a in enumerate(agents)]
    rng = random.Random(seed)
    decisions = 0
    while not state.is_terminal() and decisions < max_decisions:
        if state.current_player == boardlab.CHANCE:
            state.apply(_sample_chance(state, rng))
        else:
            state.apply(int(players[state.current_player].step(state)))
            decisions += 1
    return state.to_record()


@pytest.fixture
def records(tmp_path):
    paths = []
    for seed in (1, 2):
        p = tmp_path / f"game{seed}.json"
        p.write_text(json.dumps(_record(seed)))
        paths.append(str(p))
    return paths


@pytest.mark.parametrize("ext", ["csv", "parquet"])
def test_two_records_every_decision(records, tmp_path, ext):
    out = str(tmp_path / f"review.{ext}")
    summary = analyse_files(records, out, budget="200", progress=False, jobs=2)
    assert summary == {"records": 2, "skipped": 0, "analysed": 2, "rows": 24}
    df = pd.read_csv(out) if ext == "csv" else pd.read_parquet(out)
    assert list(df.columns) == COLUMNS and len(df) == 24
    for path in records:
        rec = json.loads(open(path).read())
        mine = df[df["record"] == path].sort_values("decision")
        assert list(mine["decision"]) == list(range(12))
        assert (mine["record_id"].astype(str) == record_id(rec)).all()
        state = boardlab.replay({**rec, "actions": [], "moves": None, "result": None})
        seats, plays = [], []
        for ply, a in enumerate(rec["actions"]):       # the rows are exactly the decisions
            if state.current_player >= 0:
                seats.append(state.current_player)
                plays.append((ply, a, state.action_to_string(a)))
            state.apply(a)
        assert list(mine["seat"]) == seats
        assert list(zip(mine["ply"], mine["played_action"], mine["played_move"])) == plays
    assert ((df["ai_win_pct"] >= 0) & (df["ai_win_pct"] <= 100)).all()
    same = df["ai_action"] == df["played_action"]
    assert (df.loc[same, "win_pct_lost"] == 0).all()
    assert (df.loc[same, "played_win_pct"] == df.loc[same, "ai_win_pct"]).all()
    other = df.loc[~same]
    assert len(other) > 0                        # random play leaves something to find
    assert (other["win_pct_lost"] == other["ai_win_pct"] - other["played_win_pct"]).all()
    # the AI's move has the most visits, so its win % is estimated best; a played move
    # can look better only by sampling noise
    assert (other["win_pct_lost"] > -15).all()
    assert (df["legal_moves"] >= 1).all() and (df["iterations"] == 200).all()


def test_rerun_skips_done_records(records, tmp_path):
    out = str(tmp_path / "review.parquet")
    first = analyse_files(records[:1], out, budget="50", progress=False)
    assert first["analysed"] == 1 and first["rows"] == 12
    before = pd.read_parquet(out)
    again = analyse_files(records, out, budget="50", progress=False)
    assert again == {"records": 2, "skipped": 1, "analysed": 1, "rows": 24}
    after = pd.read_parquet(out)
    pd.testing.assert_frame_equal(after.iloc[:12].reset_index(drop=True), before)
    assert sorted(set(after["record"])) == sorted(records)
    done = analyse_files(records, out, budget="50", progress=False)
    assert done == {"records": 2, "skipped": 2, "analysed": 0, "rows": 24}
    pd.testing.assert_frame_equal(pd.read_parquet(out), after)


def test_same_result_in_one_or_two_processes(records, tmp_path):
    a, b = str(tmp_path / "a.csv"), str(tmp_path / "b.csv")
    analyse_files(records, a, budget="50", progress=False, jobs=1)
    analyse_files(records, b, budget="50", progress=False, jobs=2)
    key = ["record", "decision"]
    pd.testing.assert_frame_equal(pd.read_csv(a).sort_values(key).reset_index(drop=True),
                                  pd.read_csv(b).sort_values(key).reset_index(drop=True))


def test_malformed_record_names_the_file(records, tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "boardlab-record", "version": 1')
    with pytest.raises(RecordError, match="broken.json"):
        analyse_files(records + [str(bad)], str(tmp_path / "r.csv"), progress=False)
    rec = json.loads(open(records[0]).read())
    rec["actions"][3] = 10 ** 6                           # an illegal action
    wrong = tmp_path / "illegal.json"
    wrong.write_text(json.dumps(rec))
    with pytest.raises(RecordError, match=r"illegal\.json.*actions\[3\]"):
        analyse_files([str(wrong)], str(tmp_path / "r.csv"), progress=False)
    with pytest.raises(RecordError, match="missing.json"):
        analyse_files([str(tmp_path / "missing.json")], str(tmp_path / "r.csv"), progress=False)
    assert not (tmp_path / "r.csv").exists()              # nothing written before the check


def test_bad_options(records, tmp_path):
    with pytest.raises(ValueError, match="extension"):
        analyse_files(records, str(tmp_path / "r.xlsx"), progress=False)
    with pytest.raises(ValueError, match="budget|agent spec"):
        analyse_files(records, str(tmp_path / "r.csv"), budget="lots", progress=False)
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="not an analysis"):
        analyse_files(records, str(other), progress=False)
    assert other.read_text() == "a,b\n1,2\n"             # never overwritten


def test_cli(records, tmp_path, capsys):
    out = tmp_path / "review.csv"
    assert main(["analyse", *records, "--budget", "50", "--out", str(out), "--jobs", "2"]) == 0
    text = capsys.readouterr()
    assert "24 decisions; 2 records analysed, 0 already done" in text.out
    assert "2/2" in text.err                                 # the progress bar
    assert len(pd.read_csv(out)) == 24
    assert main(["analyse", *records, "--out", str(out), "--quiet"]) == 0
    assert "2 already done" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    with pytest.raises(SystemExit) as e:
        main(["analyse", str(bad), "--out", str(tmp_path / "x.csv")])
    assert e.value.code == 2 and "bad.json" in capsys.readouterr().err
    assert not math.isnan(pd.read_csv(out)["ai_win_pct"].sum())
