"""The manifest of the networks that ship: ``manifest.json`` beside the ``.blnet`` files.

One entry per network file: the game and the configurations it serves, the file's sha256
and size, the guided-search settings it plays with, how it was made (the `boardlab train`
commands, seed, run, generation) and its measured strength. ``net=default``, the app's
Master level, ``boardlab nets`` and docs/learning.md's table read it; a file the manifest
does not list is never used. Format (version 1)::

    {"version": 1, "networks": [ENTRY, ...]}
    ENTRY     = {"file": "kitsu-players2.blnet", "game": "kitsu",
                 "configs": [{"players": 2}, ...],    # game parameters that must match
                 "sha256": HEX, "size": BYTES,
                 "settings": {"mix": 0.5},            # cpuct / mix / late; {}: the defaults
                 "made_by": MADE_BY, "strength": [MEASUREMENT, ...]}
    MADE_BY   = {"command": [STR, ...] | null, "seed": INT | null, "run": STR | null,
                 "generation": INT | null, "started_from": STARTED | null,
                 "record": STR | null, "plot": STR | null}   # record, plot: under docs/
    STARTED   = {"run": STR | null, "seed": INT | null, "generation": INT | null,
                 "sha256": HEX | null, "file": STR | null}
    MEASUREMENT = {"compared": STR, "budget": STR, "games": INT | null, "seeds": STR | null,
                   "wins": INT | null, "losses": INT | null, "draws": INT | null,
                   "figure": STR, "value": NUMBER, "unit": STR, "interval": [LO, HI] | null,
                   "also": [STR, ...], "command": [STR, ...] | null, "date": STR | null}

null is "not recorded". Reading checks every field and names the fault (ManifestError);
a file's sha256 and size are checked when it is loaded (:func:`verified_path`).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from pathlib import Path

__all__ = ["VERSION", "FILE_NAME", "ManifestError", "read", "write", "validate", "make_entry",
           "with_entry", "put_entry", "add_strength", "entry_for", "verified_path", "digest",
           "config_matches", "config_of_key"]

VERSION = 1
FILE_NAME = "manifest.json"
SETTINGS = ("cpuct", "mix", "late")


class ManifestError(ValueError):
    """The manifest, or a file it lists, is not as it should be; the message names the fault."""


# --- field checks ----------------------------------------------------------------------------
def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_str(v) -> bool:
    return isinstance(v, str) and v != ""


def _is_str_list(v) -> bool:
    return isinstance(v, list) and all(_is_str(x) for x in v)


def _is_sha(v) -> bool:
    return isinstance(v, str) and re.fullmatch(r"[0-9a-f]{64}", v) is not None


def _optional(check):
    return lambda v: v is None or check(v)


def _is_interval(v) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(_is_number(x) for x in v)


_STR = ("a non-empty string", _is_str)
_INT = ("an integer", _is_int)
_STRS = ("a list of strings", _is_str_list)


def _or_null(kind):
    words, check = kind
    return f"{words} or null", _optional(check)


# field -> (what it must be, its check)
_STARTED = {"run": _or_null(_STR), "seed": _or_null(_INT), "generation": _or_null(_INT),
            "sha256": _or_null(("64 lower-case hex digits", _is_sha)), "file": _or_null(_STR)}
_MADE_BY = {"command": _or_null(_STRS), "seed": _or_null(_INT), "run": _or_null(_STR),
            "generation": _or_null(_INT),
            "started_from": ("an object or null", lambda v: v is None or isinstance(v, dict)),
            "record": _or_null(_STR), "plot": _or_null(_STR)}
_MEASUREMENT = {"compared": _STR, "budget": _STR, "games": _or_null(_INT),
                "seeds": _or_null(_STR), "wins": _or_null(_INT), "losses": _or_null(_INT),
                "draws": _or_null(_INT), "figure": _STR, "value": ("a number", _is_number),
                "unit": ("a string", lambda v: isinstance(v, str)),
                "interval": _or_null(("[low, high]", _is_interval)), "also": _STRS,
                "command": _or_null(_STRS), "date": _or_null(_STR)}
_ENTRY = ("file", "game", "configs", "sha256", "size", "settings", "made_by", "strength")


def _keys(where: str, obj, keys) -> None:
    """obj is a dict with exactly ``keys``."""
    if not isinstance(obj, dict):
        raise ManifestError(f"{where}: must be an object, got {type(obj).__name__}")
    missing = [k for k in keys if k not in obj]
    unknown = sorted(set(obj) - set(keys))
    if missing or unknown:
        raise ManifestError(f"{where}: " + "; ".join(
            ([f"missing field {', '.join(missing)}"] if missing else []) +
            ([f"unknown field {', '.join(unknown)}"] if unknown else [])))


def _fields(where: str, obj, spec: dict) -> None:
    """obj is a dict with exactly spec's keys, each of the kind spec says."""
    _keys(where, obj, spec)
    for key, (words, check) in spec.items():
        if not check(obj[key]):
            raise ManifestError(f"{where}: field {key} must be {words}, got {obj[key]!r}")


def _settings_error(settings) -> str | None:
    """Why ``settings`` are not guided-search settings a network can ship with, or None."""
    if not isinstance(settings, dict):
        return f"must be an object, got {type(settings).__name__}"
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        return f"unknown setting {', '.join(unknown)} (known: {', '.join(SETTINGS)})"
    if "cpuct" in settings and not (_is_number(settings["cpuct"]) and settings["cpuct"] > 0):
        return f"cpuct must be a number > 0, got {settings['cpuct']!r}"
    if "mix" in settings and not (_is_number(settings["mix"]) and 0 <= settings["mix"] <= 1):
        return f"mix must be a number in [0, 1], got {settings['mix']!r}"
    if "late" in settings and settings["late"] not in ("net", "uniform"):
        return f"late must be net or uniform, got {settings['late']!r}"
    return None


def _check_config(where: str, config) -> None:
    if not isinstance(config, dict) or not config:
        raise ManifestError(f"{where}: a configuration must be a non-empty object of game "
                            f"parameters, got {config!r}")
    if not _is_int(config.get("players")):
        raise ManifestError(f"{where}: a configuration must name its players (an integer), "
                            f"got {config!r}")
    for k, v in config.items():
        if not isinstance(v, (str, int, float, bool)):
            raise ManifestError(f"{where}: parameter {k} must be a string, number or "
                                f"boolean, got {v!r}")


def _check_entry(where: str, e) -> None:
    _keys(where, e, _ENTRY)
    name = e["file"]
    if not (isinstance(name, str) and name.endswith(".blnet") and Path(name).name == name
            and name != ".blnet"):
        raise ManifestError(f"{where}: field file must be a file name ending in .blnet "
                            f"(no folder), got {name!r}")
    where = f"{where} ({name})"
    if not _is_str(e["game"]):
        raise ManifestError(f"{where}: field game must be a game's name, got {e['game']!r}")
    if not isinstance(e["configs"], list) or not e["configs"]:
        raise ManifestError(f"{where}: field configs must be a non-empty list, got "
                            f"{e['configs']!r}")
    for config in e["configs"]:
        _check_config(where, config)
    if not _is_sha(e["sha256"]):
        raise ManifestError(f"{where}: field sha256 must be 64 lower-case hex digits, got "
                            f"{e['sha256']!r}")
    if not (_is_int(e["size"]) and e["size"] > 0):
        raise ManifestError(f"{where}: field size must be a positive integer, got "
                            f"{e['size']!r}")
    why = _settings_error(e["settings"])
    if why:
        raise ManifestError(f"{where}: field settings: {why}")
    _fields(f"{where}: made_by", e["made_by"], _MADE_BY)
    if e["made_by"]["started_from"] is not None:
        _fields(f"{where}: made_by.started_from", e["made_by"]["started_from"], _STARTED)
    if not isinstance(e["strength"], list):
        raise ManifestError(f"{where}: field strength must be a list, got {e['strength']!r}")
    for k, m in enumerate(e["strength"]):
        _fields(f"{where}: strength[{k}]", m, _MEASUREMENT)


def validate(data) -> dict:
    """``data`` (a parsed manifest) if it is a valid one; ManifestError naming the fault."""
    if not isinstance(data, dict):
        raise ManifestError(f"must be an object with version and networks, got "
                            f"{type(data).__name__}")
    if "version" not in data:
        raise ManifestError("missing field version")
    if data["version"] != VERSION:
        raise ManifestError(f"version {data.get('version')!r}, this boardlab reads {VERSION}")
    unknown = sorted(set(data) - {"version", "networks"})
    if unknown:
        raise ManifestError(f"unknown field {', '.join(unknown)}")
    if not isinstance(data.get("networks"), list):
        raise ManifestError("field networks must be a list")
    files, served = set(), {}
    for k, e in enumerate(data["networks"]):
        _check_entry(f"networks[{k}]", e)
        if e["file"] in files:
            raise ManifestError(f"{e['file']} is listed twice")
        files.add(e["file"])
        for config in e["configs"]:
            key = (e["game"], json.dumps(config, sort_keys=True))
            if key in served:
                raise ManifestError(f"{e['game']} {config} is served by both {served[key]} "
                                    f"and {e['file']}")
            served[key] = e["file"]
    return data


# --- reading and writing ---------------------------------------------------------------------
_cache: dict[tuple, dict] = {}


def read(folder) -> dict:
    """The manifest in ``folder``, validated (read once per version of the file);
    ``{"version": 1, "networks": []}`` for a folder without one (nothing ships).
    ManifestError naming the fault: bad JSON, another version, a missing or unknown field,
    a field of the wrong type, a file or configuration listed twice."""
    path = Path(folder) / FILE_NAME
    try:
        stat = path.stat()
    except FileNotFoundError:
        return {"version": VERSION, "networks": []}
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _cache:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            raise ManifestError(f"{path}: not valid JSON: {e}") from None
        try:
            _cache[key] = validate(data)
        except ManifestError as e:
            raise ManifestError(f"{path}: {e}") from None
    return _cache[key]


def write(folder, data: dict) -> Path:
    """Write ``data`` (validated first) as ``folder``'s manifest, atomically."""
    validate(data)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / FILE_NAME
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".manifest-", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
    return path


def digest(path) -> tuple[str, int]:
    """sha256 (hex) and size of a file."""
    data = Path(path).read_bytes()
    return hashlib.sha256(data).hexdigest(), len(data)


def make_entry(file: str, game: str, configs, data: bytes, settings=None, made_by=None,
               strength=()) -> dict:
    """The entry of the network file named ``file`` whose bytes are ``data`` (their sha256
    and size); ``made_by`` None records nothing of how it was made. ManifestError names a
    bad field."""
    entry = {"file": file, "game": game, "configs": [dict(c) for c in configs],
             "sha256": hashlib.sha256(data).hexdigest(), "size": len(data),
             "settings": dict(settings or {}),
             "made_by": dict(made_by) if made_by else dict.fromkeys(_MADE_BY),
             "strength": [dict(m) for m in strength]}
    _check_entry(file, entry)
    return entry


def with_entry(data: dict, entry: dict) -> dict:
    """The manifest ``data`` with ``entry`` in place of the entry for the same file (or
    added last), validated: ManifestError when another file already serves one of its
    configurations."""
    nets = list(data["networks"])
    at = next((k for k, e in enumerate(nets) if e["file"] == entry["file"]), None)
    if at is None:
        nets.append(entry)
    else:
        nets[at] = entry
    return validate({"version": VERSION, "networks": nets})


def put_entry(folder, entry: dict) -> Path:
    """Add ``entry`` to ``folder``'s manifest, in place of the entry for the same file."""
    return write(folder, with_entry(read(folder), entry))


def add_strength(folder, file: str, measurement: dict) -> Path:
    """Record a measurement of ``file``'s network: it replaces one of the same comparison,
    budget and seeds (a rerun), else it is appended (the newest is the one shown)."""
    data = read(folder)
    entry = next((e for e in data["networks"] if e["file"] == file), None)
    if entry is None:
        raise ManifestError(f"{file} is not in {Path(folder) / FILE_NAME}")
    same = ("compared", "budget", "seeds")
    kept = [m for m in entry["strength"] if any(m[k] != measurement[k] for k in same)]
    entry = {**entry, "strength": kept + [measurement]}
    return put_entry(folder, entry)


# --- lookup ----------------------------------------------------------------------------------
def config_matches(config: dict, game) -> bool:
    """Whether every parameter of ``config`` has that value in ``game`` (a boardlab.Game)."""
    params = {**game.params, "players": game.num_players}
    return all(k in params and params[k] == v for k, v in config.items())


def config_of_key(game, key: str) -> dict:
    """The configuration a network key names ("players=1,solo=chasing"), with the game's own
    values (so their types are right): {"players": 1, "solo": "chasing"}."""
    params = {**game.params, "players": game.num_players}
    names = [part.split("=", 1)[0] for part in key.split(",")]
    return {name: params[name] for name in names}


def entry_for(folder, game) -> dict | None:
    """The entry serving ``game``'s configuration: among the entries of its game with a
    configuration that matches, the one whose matching configuration names the most
    parameters (the most specific); None where none does."""
    best, best_size = None, -1
    for e in read(folder)["networks"]:
        if e["game"] != game.name:
            continue
        for config in e["configs"]:
            if config_matches(config, game) and len(config) > best_size:
                best, best_size = e, len(config)
    return best


_verified: set[tuple] = set()      # (path, mtime, size, sha256) of files already hashed


def verified_path(folder, entry: dict) -> Path:
    """The path of ``entry``'s file once it is there with the listed size and sha256;
    ManifestError naming what is wrong. A file is hashed once per version of it."""
    path = Path(folder) / entry["file"]
    if not path.is_file():
        raise ManifestError(f"{entry['file']}: listed in {FILE_NAME} but missing from {folder}")
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size, entry["sha256"])
    if key in _verified:
        return path
    sha, size = digest(path)
    if size != entry["size"]:
        raise ManifestError(f"{entry['file']}: {size} bytes, {FILE_NAME} says {entry['size']}")
    if sha != entry["sha256"]:
        raise ManifestError(f"{entry['file']}: sha256 {sha}, {FILE_NAME} says "
                            f"{entry['sha256']}")
    _verified.add(key)
    return path
