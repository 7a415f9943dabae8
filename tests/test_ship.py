"""`boardlab nets ship RUN` (boardlab.learn.ship): a finished training run's best network goes
into a networks folder with its manifest entry, built from the run's own files: the
configurations it serves, its settings, the `boardlab train` command that remakes it, seed,
run, best generation and that generation's strength match. Runs are made by hand in the
folder layout boardlab train writes (docs/learning.md, "The folder"), and once for real at
tiny budgets, so that the layout cannot drift from what ship reads."""
import hashlib
import json
import re
import shlex
from dataclasses import replace

import pytest

import boardlab
from boardlab.cli import build_parser, main
from boardlab.learn.config import RunConfig
from boardlab.learn.ship import ShipError, ship
from boardlab.nets import check, default_path, default_settings, load_net, loader, manifest, \
    netfile
from boardlab.nets.features import feature_size

SMALL = dict(seed=3, games_per_gen=2, iterations=20, width=16, blocks=1, epochs=2, batch=32,
             gate_games=0, gate_budget="20", strength_games=2, value_search_weight=0.5)
# A strength record as the run's gate module summarises a match (learn/gate.summarise).
STRENGTH = {"games": 40, "wins": 30, "other_wins": 9, "draws": 1, "score": 0.7625,
            "lo": 0.6093, "hi": 0.8681, "par": 0.5, "kept": True, "opponent": "plain ISMCTS",
            "seconds": 12.5}


def _net(name="kitsu", players=2, n_value=None, seed=1) -> bytes:
    game = boardlab.make(name, players=players)
    return netfile.to_bytes(netfile.random_spec(
        name, f"players={players}", feature_size(game), 16, 1, n_value or players,
        game.num_actions, seed), "float16")


def _run(root, cfg: RunConfig, best=2, nets=None, name="kitsu-2p", strength=STRENGTH):
    """A run's folder: config.json, state.json with ``best``, its networks and best.blnet."""
    run = root / name
    (run / "nets").mkdir(parents=True)
    (run / "config.json").write_text(cfg.checked().to_json())
    nets = nets or {g: _net(seed=g) for g in range(1, best + 1)}
    for g, data in nets.items():
        (run / "nets" / f"gen-{g:04d}.blnet").write_bytes(data)
    if best in nets:
        (run / "best.blnet").write_bytes(nets[best])
    gens = [{"generation": 0, "selfplay": {"games": 2}}] + [
        {"generation": g, "gate": {"games": 0, "kept": True}, "strength": dict(strength)}
        for g in range(1, max(nets, default=0) + 1)]
    (run / "state.json").write_text(json.dumps({"version": 1, "elapsed": 1.0, "best": best,
                                                "generations": gens}))
    return run


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """An empty networks folder read by net=default."""
    nets = tmp_path / "nets"
    monkeypatch.setattr(loader, "NETS_DIR", nets)
    return nets


def _config_of(command: str) -> RunConfig:
    """The RunConfig `boardlab train` builds from ``command`` (as cmd_train does)."""
    from boardlab.cli import run_config
    return run_config(build_parser().parse_args(shlex.split(command)[1:]))[0].checked()


def test_ship_copies_the_best_network_and_writes_its_entry(tmp_path, folder):
    cfg = RunConfig("kitsu", {"players": 2, "track_length": 18}, mix=0.5, late="uniform",
                    **SMALL)
    run = _run(tmp_path / "runs", cfg)
    entry = ship(run, folder)
    data = (run / "best.blnet").read_bytes()
    assert (folder / "kitsu-players2.blnet").read_bytes() == data
    assert entry == manifest.read(folder)["networks"][0]
    assert entry["configs"] == [{"players": 2}]       # what the network key names
    assert entry["sha256"] == hashlib.sha256(data).hexdigest() and entry["size"] == len(data)
    assert entry["settings"] == {"mix": 0.5, "late": "uniform"}
    made = entry["made_by"]
    assert (made["seed"], made["run"], made["generation"], made["started_from"]) == \
        (3, "kitsu-2p", 2, None)
    (command,) = made["command"]
    assert command.startswith(f"boardlab train kitsu --players 2 --param track_length=18 "
                              f"--out {run} ")
    assert _config_of(command) == cfg.checked()        # the command remakes the run
    (m,) = entry["strength"]
    assert (m["wins"], m["losses"], m["draws"], m["games"]) == (30, 9, 1, 40)
    assert (m["value"], m["interval"], m["budget"]) == (76.2, [60.9, 86.8], "20 iterations a move")
    assert m["compared"].startswith("the training run's strength match at its gate budget")
    assert m["seeds"] == "the run's seed 3, generation 2" and m["command"] == [command]
    # net=default plays it, with its settings
    game = boardlab.make("kitsu", players=2)
    assert default_path(game) == folder / "kitsu-players2.blnet"
    assert default_settings(game) == {"mix": 0.5, "late": "uniform"}
    load_net("default", game)
    assert check.faults(folder) == []


def test_shipping_again_replaces_the_entry_of_the_same_file(tmp_path, folder):
    first = ship(_run(tmp_path / "a", RunConfig("kitsu", {"players": 2}, **SMALL), best=1), folder)
    (folder / "other.blnet").write_bytes(_net("kitsu", 4))
    manifest.put_entry(folder, manifest.make_entry("other.blnet", "kitsu", [{"players": 4}],
                                                   (folder / "other.blnet").read_bytes()))
    second = ship(_run(tmp_path / "b", RunConfig("kitsu", {"players": 2}, **{**SMALL, "seed": 8}),
                       best=2), folder)
    files = [e["file"] for e in manifest.read(folder)["networks"]]
    assert files == ["kitsu-players2.blnet", "other.blnet"]       # in place, the other kept
    assert second["sha256"] != first["sha256"] and second["made_by"]["seed"] == 8
    assert check.faults(folder) == []


def test_a_run_of_several_variants_ships_one_network_for_each(tmp_path, folder):
    """config.json's variants (game parameters over the run's, --vary) are the network's
    configurations, as far as its key tells them apart; it ships as <game>.blnet, net=default
    finds it at each count, and its command's --vary options remake the variants."""
    wide = _net("kitsu", 4, n_value=6)
    variants = [{"players": p, "track_length": t} for p in (4, 6) for t in (15, 18)]
    cfg = RunConfig("kitsu", {"players": 4}, variants=variants, **SMALL)
    entry = ship(_run(tmp_path / "a", cfg, best=1, nets={1: wide}), folder)
    assert entry["file"] == "kitsu.blnet"
    assert entry["configs"] == [{"players": 4}, {"players": 6}]
    (command,) = entry["made_by"]["command"]
    assert " --vary players=4,6 --vary track_length=15,18 " in command
    assert _config_of(command) == cfg.checked()
    for players in (4, 6):
        assert default_path(boardlab.make("kitsu", players=players)) == folder / "kitsu.blnet"
    assert check.faults(folder) == []
    # variants that are not every combination of some values: no command makes them
    cfg = RunConfig("kitsu", {"players": 4}, variants=variants[:3], **SMALL)
    entry = ship(_run(tmp_path / "b", cfg, best=1, nets={1: wide}), folder)
    assert entry["made_by"]["command"] is None and entry["strength"][0]["command"] is None


def test_a_run_begun_from_a_shipped_network_says_which(tmp_path, folder):
    base = ship(_run(tmp_path / "a", RunConfig("kitsu", {"players": 2}, **SMALL), best=1,
                     name="first"), folder)
    cfg = replace(RunConfig("kitsu", {"players": 2}, **SMALL), start_from=base["sha256"])
    entry = ship(_run(tmp_path / "b", cfg, best=1, name="second"), folder)
    assert entry["made_by"]["started_from"] == {
        "sha256": base["sha256"], "file": "kitsu-players2.blnet", "run": "first", "seed": 3,
        "generation": 1}
    assert " --start-from default " in entry["made_by"]["command"][0]
    # begun from a network that does not ship here: its sha256, and NET in the command
    other = replace(cfg, start_from="ab" * 32)
    entry = ship(_run(tmp_path / "c", other, best=1, name="third"), folder)
    assert entry["made_by"]["started_from"] == {"sha256": "ab" * 32, "file": None, "run": None,
                                                "seed": None, "generation": None}
    assert " --start-from NET " in entry["made_by"]["command"][0]


def test_a_solo_run_records_its_strength_against_plain_ismcts_on_the_same_deals(tmp_path,
                                                                                 folder):
    solo = {"games": 100, "wins": 80, "other_wins": 60, "draws": 0, "score": 0.8, "lo": 0.71,
            "hi": 0.87, "par": 0.6, "kept": True, "return": 0.4, "other_return": 0.3,
            "return_diff": 0.1, "diff_lo": 0.05, "diff_hi": 0.15, "opponent": "plain ISMCTS"}
    cfg = RunConfig("nukumi", {"players": 1, "solo": "chasing"}, mix=0.5, **SMALL)
    run = _run(tmp_path, cfg, best=1, nets={1: netfile.to_bytes(netfile.random_spec(
        "nukumi", "players=1,solo=chasing", feature_size(boardlab.make("nukumi", players=1)),
        16, 1, 1, boardlab.make("nukumi", players=1).num_actions, 2))}, strength=solo)
    entry = ship(run, folder)
    assert entry["file"] == "nukumi-players1-solochasing.blnet"
    assert entry["configs"] == [{"players": 1, "solo": "chasing"}]
    (m,) = entry["strength"]
    assert (m["figure"], m["value"], m["wins"]) == ("games won", 80.0, None)
    assert m["also"][0] == "plain ISMCTS 60.0%" and "difference +0.1000" in m["also"][1]
    assert " --param solo=chasing " in entry["made_by"]["command"][0]


@pytest.mark.parametrize("make, message", [
    (lambda root: root / "empty", "is not a training run (no config.json)"),
    (lambda root: _run(root, RunConfig("kitsu", {"players": 2}, **SMALL), best=0, nets={}),
     "no network has passed its gate yet"),
    (lambda root: _run(root, replace(RunConfig("kitsu", {"players": 2}, **SMALL),
                                     start_from="0" * 64), best=0, nets={0: _net()}),
     "no generation of this run has passed its gate"),
    (lambda root: _run(root, RunConfig("kitsu", {"players": 4}, **SMALL), best=1),
     "the kernel refuses best.blnet"),
])
def test_ship_refuses_what_it_cannot_ship_and_writes_nothing(tmp_path, folder, make, message):
    run = make(tmp_path)
    run.mkdir(exist_ok=True)
    with pytest.raises(ShipError, match=re.escape(message)):
        ship(run, folder)
    assert not folder.exists()
    with pytest.raises(SystemExit) as exit_:
        main(["nets", "ship", str(run), "--nets-dir", str(folder)])
    assert exit_.value.code == 2


def test_ship_refuses_a_best_network_that_is_not_the_best_generations(tmp_path, folder):
    run = _run(tmp_path, RunConfig("kitsu", {"players": 2}, **SMALL), best=2)
    (run / "best.blnet").write_bytes(_net(seed=1))           # generation 1's, not 2's
    with pytest.raises(ShipError, match="best.blnet is not generation 2's network"):
        ship(run, folder)
    (run / "state.json").unlink()
    with pytest.raises(ShipError, match="no finished generation"):
        ship(run, folder)


def test_a_real_tiny_run_ships_and_its_command_remakes_it(tmp_path, folder, capsys):
    """A run boardlab train made (two generations at tiny budgets, no gate), shipped by the
    command line: the entry's command remakes the run's settings."""
    pytest.importorskip("torch")
    from boardlab.learn.run import train_run
    cfg = RunConfig("kitsu", {"players": 2}, **SMALL)
    run = tmp_path / "runs" / "tiny"
    train_run(run, cfg, generations=2)
    assert main(["nets", "ship", str(run), "--nets-dir", str(folder)]) == 0
    assert "kitsu-players2.blnet: generation 1 of tiny" in capsys.readouterr().out
    (entry,) = manifest.read(folder)["networks"]
    assert entry["made_by"]["generation"] == 1
    assert _config_of(entry["made_by"]["command"][0]) == cfg.checked()
    assert entry["strength"][0]["games"] == 2
    assert main(["nets", "--nets-dir", str(folder)]) == 0
