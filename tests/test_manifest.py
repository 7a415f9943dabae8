"""The manifest of the shipped networks (boardlab.nets.manifest, docs/learning.md "What ships"):
every entry matches its file and the kernel takes it for every configuration it claims, every
network file in the folder is listed, net=default finds the entry whose configuration matches
(one network may serve several), a file the manifest does not list is never used, a damaged
manifest or file is refused naming the fault, and docs/learning.md's table is what
`boardlab nets --markdown` prints."""
import hashlib
import importlib.util
import json
import shutil
from pathlib import Path

import pytest

import boardlab
from boardlab import _net
from boardlab.cli import main
from boardlab.nets import check, default_path, default_settings, load_net, loader, manifest, \
    netfile
from boardlab.nets.features import feature_size

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = manifest.read(loader.NETS_DIR)["networks"]


def _random_net(name: str, players: int, n_value: int | None = None, seed: int = 1) -> bytes:
    game = boardlab.make(name, players=players)
    return netfile.to_bytes(netfile.random_spec(
        name, f"players={players}", feature_size(game), 16, 1, n_value or players,
        game.num_actions, seed), "float16")


def _folder(tmp_path, monkeypatch, nets: dict) -> Path:
    """A networks folder read by net=default: file name -> (game, configs, bytes, settings)."""
    manifest.write(tmp_path, {"version": manifest.VERSION, "networks": []})
    for file, (game, configs, data, settings) in nets.items():
        (tmp_path / file).write_bytes(data)
        manifest.put_entry(tmp_path, manifest.make_entry(file, game, configs, data, settings))
    monkeypatch.setattr(loader, "NETS_DIR", tmp_path)
    return tmp_path


# --- what ships ------------------------------------------------------------------------------
def test_seven_networks_ship_each_with_how_it_was_made_and_its_strength():
    assert len(SHIPPED) == 7
    for e in SHIPPED:
        assert e["made_by"]["command"] and all(c.startswith("boardlab train ")
                                               for c in e["made_by"]["command"]), e["file"]
        assert e["strength"] and all(m["interval"] for m in e["strength"]), e["file"]


@pytest.mark.parametrize("entry", SHIPPED, ids=[e["file"] for e in SHIPPED])
def test_every_entry_matches_its_file_and_the_kernel_takes_it_for_every_config(entry):
    data = (loader.NETS_DIR / entry["file"]).read_bytes()
    assert hashlib.sha256(data).hexdigest() == entry["sha256"]
    assert len(data) == entry["size"]
    net = _net.Net.from_bytes(data)
    for config in entry["configs"]:
        game = boardlab.make(entry["game"], **config)
        net.check_game(game._core)
        assert default_path(game) == loader.NETS_DIR / entry["file"]    # net=default finds it
        assert default_settings(game) == entry["settings"]


def test_every_network_file_in_the_folder_is_listed_and_the_check_finds_nothing():
    files = sorted(p.name for p in loader.NETS_DIR.glob("*.blnet"))
    assert files == sorted(e["file"] for e in SHIPPED)
    assert not (loader.NETS_DIR / "settings.json").exists()      # the manifest replaced it
    assert check.faults(loader.NETS_DIR) == []


# --- the lookup ------------------------------------------------------------------------------
def test_one_network_serving_several_configurations_is_picked_for_each(tmp_path, monkeypatch):
    """A Kitsu network with a value per seat up to six, listed for 4 and 6 players: net=default
    reads it at both counts with its settings, and not at 2, which it does not claim; a more
    specific entry (a track length) wins where it matches."""
    wide = _random_net("kitsu", 4, n_value=6)
    folder = _folder(tmp_path, monkeypatch, {
        "kitsu.blnet": ("kitsu", [{"players": 4}, {"players": 6}], wide, {"mix": 0.5}),
        "kitsu-long.blnet": ("kitsu", [{"players": 4, "track_length": 18}],
                             _random_net("kitsu", 4, seed=2), {})})
    assert check.faults(folder) == []
    for players in (4, 6):
        game = boardlab.make("kitsu", players=players)
        assert default_path(game) == folder / "kitsu.blnet"
        assert default_settings(game) == {"mix": 0.5}
        assert load_net("default", game) is load_net(str(folder / "kitsu.blnet"), game)
    assert default_path(boardlab.make("kitsu", players=4, track_length=18)) == \
        folder / "kitsu-long.blnet"
    two = boardlab.make("kitsu", players=2)
    assert default_path(two) is None and default_settings(two) == {}
    with pytest.raises(ValueError, match="no network ships for kitsu with players=2"):
        load_net("default", two)


def test_a_network_file_the_manifest_does_not_list_is_never_used(tmp_path, monkeypatch):
    folder = _folder(tmp_path, monkeypatch, {})
    (folder / "kitsu-players2.blnet").write_bytes(_random_net("kitsu", 2))
    game = boardlab.make("kitsu", players=2)
    assert default_path(game) is None
    with pytest.raises(ValueError, match="no network ships for kitsu with players=2"):
        load_net("default", game)
    assert check.faults(folder) == [f"kitsu-players2.blnet: in {folder} but not in manifest.json "
                                    f"(a network it does not list is never used)"]


# --- faults, named ---------------------------------------------------------------------------
@pytest.fixture
def kitsu_folder(tmp_path, monkeypatch):
    return _folder(tmp_path, monkeypatch, {
        "kitsu-players2.blnet": ("kitsu", [{"players": 2}], _random_net("kitsu", 2), {})})


def _edit(folder: Path, change) -> None:
    path = folder / manifest.FILE_NAME
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(version=2), "version 2, this boardlab reads 1"),
    (lambda d: d.pop("version"), "missing field version"),
    (lambda d: d["networks"][0].update(mix=0.5), "unknown field mix"),
    (lambda d: d["networks"][0].pop("sha256"), "missing field sha256"),
    (lambda d: d["networks"][0].update(size="107 kB"), "field size must be a positive integer"),
    (lambda d: d["networks"][0].update(configs=[{"solo": "chasing"}]), "must name its players"),
    (lambda d: d["networks"][0].update(settings={"mix": 2}), "mix must be a number in"),
    (lambda d: d["networks"][0].update(settings={"depth": 2}), "unknown setting depth"),
    (lambda d: d["networks"][0]["made_by"].update(seed="one"), "made_by: field seed must be an "
                                                               "integer or null"),
    (lambda d: d["networks"][0].update(strength=[{"value": 1}]), r"strength\[0\]: missing field"),
    (lambda d: d["networks"].append(dict(d["networks"][0])), "listed twice"),
    (lambda d: d["networks"].append({**d["networks"][0], "file": "other.blnet"}),
     "is served by both kitsu-players2.blnet and other.blnet"),
])
def test_a_damaged_manifest_is_refused_naming_the_fault(kitsu_folder, change, message):
    _edit(kitsu_folder, change)
    game = boardlab.make("kitsu", players=2)
    with pytest.raises(ValueError, match=message):
        load_net("default", game)
    assert len(check.faults(kitsu_folder)) == 1 and "manifest.json" in check.faults(kitsu_folder)[0]


def test_bad_json_is_refused_naming_the_file(kitsu_folder):
    (kitsu_folder / manifest.FILE_NAME).write_text('{"version": 1, "networks": [')
    with pytest.raises(manifest.ManifestError, match="manifest.json: not valid JSON"):
        manifest.read(kitsu_folder)


def test_a_file_that_is_missing_or_not_the_one_listed_is_refused(kitsu_folder):
    game = boardlab.make("kitsu", players=2)
    path = kitsu_folder / "kitsu-players2.blnet"
    good = path.read_bytes()
    path.write_bytes(_random_net("kitsu", 2, seed=9))            # same size, other weights
    with pytest.raises(ValueError, match="kitsu-players2.blnet: sha256 [0-9a-f]+, manifest.json "
                                         "says"):
        load_net("default", game)
    path.write_bytes(good + b"\0")
    with pytest.raises(ValueError, match=f"{len(good) + 1} bytes, manifest.json says {len(good)}"):
        load_net("default", game)
    path.unlink()
    with pytest.raises(ValueError, match="kitsu-players2.blnet: listed in manifest.json but "
                                         "missing"):
        load_net("default", game)


# --- boardlab nets ---------------------------------------------------------------------------
def test_boardlab_nets_lists_what_ships_and_finds_nothing_wrong(capsys):
    assert main(["nets"]) == 0
    out = capsys.readouterr().out
    for e in SHIPPED:
        assert e["file"] in out
    assert "solo (chasing)" in out and "87 of 100 [79.0, 92.2]" in out
    assert "7 networks" in out and "every file is as the manifest says" in out


def test_boardlab_nets_names_every_fault_and_exits_non_zero(tmp_path, capsys):
    kitsu2, kitsu4 = _random_net("kitsu", 2), _random_net("kitsu", 4)
    for name, game, configs, data in [
            ("missing.blnet", "kitsu", [{"players": 2}], kitsu2),
            ("changed.blnet", "kitsu", [{"players": 2, "track_length": 18}], kitsu2),
            ("wrong-count.blnet", "kitsu", [{"players": 4}, {"players": 6}], kitsu4)]:
        (tmp_path / name).write_bytes(data)
        manifest.put_entry(tmp_path, manifest.make_entry(name, game, configs, data))
    (tmp_path / "missing.blnet").unlink()
    (tmp_path / "changed.blnet").write_bytes(kitsu2[:-2] + b"\0\0")
    (tmp_path / "stray.blnet").write_bytes(kitsu2)
    assert main(["nets", "--nets-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "missing.blnet: listed in manifest.json but missing" in err
    assert "changed.blnet: sha256" in err
    assert "wrong-count.blnet: the kernel refuses it for kitsu {'players': 6}" in err
    assert "{'players': 4}" not in err              # four value outputs serve four seats
    assert "stray.blnet: in" in err and "not in manifest.json" in err
    assert len(err.strip().splitlines()) == 4


DOCS_TABLE = "<!-- The output of `boardlab nets --markdown`"


def _docs_table() -> str:
    """The table after its marker in docs/learning.md."""
    text = (ROOT / "docs" / "learning.md").read_text(encoding="utf-8")
    assert text.count(DOCS_TABLE) == 1, f"docs/learning.md has no one {DOCS_TABLE!r} line"
    lines = text.split(DOCS_TABLE, 1)[1].splitlines()[1:]
    start = next(k for k, line in enumerate(lines) if line.strip())
    end = next((k for k in range(start, len(lines)) if not lines[k].startswith("|")), len(lines))
    return "\n".join(lines[start:end]) + "\n"


@pytest.mark.skipif(not (ROOT / "docs" / "learning.md").is_file(), reason="no source tree")
def test_the_docs_table_of_what_ships_is_boardlab_nets_markdown(capsys):
    """docs/learning.md reads the manifest: its table is the command's output, copied by
    nobody. After a change to the manifest, paste `boardlab nets --markdown` there."""
    assert main(["nets", "--markdown"]) == 0
    assert _docs_table() == capsys.readouterr().out


# --- bench/net_strength.py --manifest --------------------------------------------------------
def _bench():
    path = ROOT / "bench" / "net_strength.py"
    spec = importlib.util.spec_from_file_location("net_strength", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not (ROOT / "bench").is_dir(), reason="no source tree")
def test_the_strength_bench_writes_its_figure_into_the_shipped_networks_entry(kitsu_folder,
                                                                             capsys):
    bench = _bench()
    def args(seed):
        return ["--seconds", "0.002", "--games", "2", "--seed", str(seed), "--net",
                "kitsu:players=2:default", "--manifest"]
    for _ in range(2):                              # a rerun replaces its own figure
        bench.main(args(5))
    assert "written into" in capsys.readouterr().out
    (entry,) = manifest.read(kitsu_folder)["networks"]
    (m,) = entry["strength"]
    assert m["games"] == 2 and m["wins"] + m["losses"] + m["draws"] == 2
    assert m["budget"] == "0.002 s a move" and m["seeds"] == "match seed 5"
    assert m["command"] == ["python bench/net_strength.py " + " ".join(args(5))]
    assert m["value"] == 100 * m["wins"] / 2 and len(m["interval"]) == 2
    bench.main(args(7))                         # another seed is another figure, shown last
    assert [m["seeds"] for m in manifest.read(kitsu_folder)["networks"][0]["strength"]] == \
        ["match seed 5", "match seed 7"]
    with pytest.raises(SystemExit, match="--manifest records figures of the shipped networks"):
        bench.main(["--net", f"kitsu:players=2:{kitsu_folder / 'kitsu-players2.blnet'}",
                    "--manifest"])


def test_a_shipped_file_copied_elsewhere_still_loads_as_a_path(tmp_path):
    """net=PATH never reads the manifest: a file of one's own needs no entry."""
    src = loader.NETS_DIR / SHIPPED[0]["file"]
    shutil.copyfile(src, tmp_path / "mine.blnet")
    game = boardlab.make(SHIPPED[0]["game"], **SHIPPED[0]["configs"][0])
    load_net(str(tmp_path / "mine.blnet"), game)


# --- two rooms, one direction ----------------------------------------------------------------
PLAY_TIME = ["py/boardlab/nets/*.py", "py/boardlab/search.py", "py/boardlab/agents.py",
             "py/boardlab/arena.py", "streamlit_app/**/*.py"]


def _imports(path: Path) -> set[str]:
    import ast
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            out.add("." * node.level + (node.module or ""))
            out.update("." * node.level + a.name for a in node.names if not node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


@pytest.mark.skipif(not (ROOT / "py" / "boardlab").is_dir(), reason="no source tree")
def test_play_time_code_never_imports_the_training_package():
    """boardlab.nets is what a search needs at play time; boardlab.learn (training) imports
    it, never the reverse, and keeps no copy of what moved."""
    wrong = [f"{p.relative_to(ROOT)}: {m}" for pattern in PLAY_TIME for p in ROOT.glob(pattern)
             for m in _imports(p) if (m.startswith((".", "boardlab")))
             and "learn" in m.lstrip(".").split(".")]
    assert not wrong, wrong
    assert not [p.name for p in (ROOT / "py" / "boardlab" / "learn").glob("*.py")
                if p.name in ("netfile.py", "reference.py", "features.py", "nets.py")]
