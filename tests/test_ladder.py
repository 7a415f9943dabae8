"""boardlab.ladder: Elo fit, round robin, table, plot, CLI."""
import json
import math

import pytest

from boardlab.cli import main
from boardlab.ladder import fit_elo, run_ladder


def test_fit_elo_recovers_a_known_gap():
    # 76% expected score <-> about 200 Elo
    elo = fit_elo(2, [(0, 1, 24.0, 100)], iterations=5000)
    assert elo[0] == 0.0
    expected = 200.0
    p = 1 / (1 + 10 ** (-elo[1] / 400))
    assert p == pytest.approx(0.76, abs=0.01) and abs(elo[1] - expected) < 15
    # all wins stay finite thanks to the prior
    assert math.isfinite(fit_elo(2, [(0, 1, 0.0, 10)])[1])


def test_round_robin_table_and_plots(tmp_path):
    r = run_ladder("kitsu", {"players": 2}, ["random", "greedy", "ismcts:200"], games=2,
                   seed=3, bootstrap=20)
    assert len(r.matches) == 3 and all(len(m.outcomes) == 2 for m in r.matches.values())
    rows = r.rows()
    assert [row["agent"] for row in rows] == ["random", "greedy", "ismcts:200"]
    for row in rows:
        assert row["elo_lo"] <= row["elo"] + 1e-9 and row["elo"] <= row["elo_hi"] + 1e-9
        assert row["games"] == 4
    assert rows[0]["elo"] == 0.0
    assert "Elo" in r.table()
    json.dumps(r.to_dict())
    svg = r.plot(str(tmp_path / "l.svg"))
    assert open(svg).read().startswith("<svg")
    png = r.plot(str(tmp_path / "l.png"))
    assert png.endswith((".png", ".svg"))
    # same seed, same ladder
    again = run_ladder("kitsu", {"players": 2}, ["random", "greedy", "ismcts:200"], games=2,
                       seed=3, bootstrap=20)
    assert again.to_dict() == r.to_dict()


def test_ladder_cli(tmp_path, capsys):
    out = tmp_path / "ladder.svg"
    assert main(["arena", "kitsu", "--players", "2", "--ladder", "--agents", "random", "greedy",
                 "--games", "2", "--plot", str(out), "--bootstrap", "10"]) == 0
    text = capsys.readouterr().out
    assert "random" in text and "greedy" in text and out.exists()


def test_ladder_needs_two_agents():
    with pytest.raises(ValueError, match="at least 2"):
        run_ladder("kitsu", {"players": 2}, ["random"], games=2)
