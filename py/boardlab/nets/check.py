"""Whether a networks folder is what its manifest says (``boardlab nets``, tests/test_manifest.py):
every listed file there with its size and sha256, the kernel loading it and accepting it for
every configuration it claims, and no network file the manifest does not list."""
from __future__ import annotations

from pathlib import Path

from . import manifest

__all__ = ["faults"]


def _kernel_faults(path: Path, entry: dict) -> list[str]:
    import boardlab
    from .. import _net
    try:
        net = _net.Net.from_file(str(path))
    except ValueError as e:
        return [f"{entry['file']}: the kernel refuses the file: {e}"]
    out = []
    for config in entry["configs"]:
        try:
            game = boardlab.make(entry["game"], **config)
        except (ValueError, TypeError, KeyError) as e:
            out.append(f"{entry['file']}: {entry['game']} {config} is not a configuration "
                       f"of the game: {e}")
            continue
        try:
            net.check_game(game._core)
        except ValueError as e:
            out.append(f"{entry['file']}: the kernel refuses it for {entry['game']} "
                       f"{config}: {e}")
    return out


def faults(folder) -> list[str]:
    """What is wrong with ``folder`` against its manifest, one sentence a fault ([]: none)."""
    folder = Path(folder)
    if not (folder / manifest.FILE_NAME).is_file():
        return [f"no {manifest.FILE_NAME} in {folder}"]
    try:
        entries = manifest.read(folder)["networks"]
    except manifest.ManifestError as e:
        return [str(e)]
    out = []
    for entry in entries:
        try:
            path = manifest.verified_path(folder, entry)
        except manifest.ManifestError as e:
            out.append(str(e))
            continue
        out += _kernel_faults(path, entry)
    listed = {e["file"] for e in entries}
    out += [f"{p.name}: in {folder} but not in {manifest.FILE_NAME} (a network it does not "
            f"list is never used)" for p in sorted(folder.glob("*.blnet")) if p.name not in listed]
    return out
