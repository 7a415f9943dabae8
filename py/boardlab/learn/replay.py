"""Self-play samples on disk: chunks of finished games, one file per generation, the replay
window and its split into training and validation games.

Files are written atomically (a temporary file renamed over the name), so a file with its
final name is complete; and byte for byte the same for the same samples (fixed zip
timestamps), so a resumed run's files equal an uninterrupted run's.

A generation in progress keeps its finished games in ``gen-NNNN.part/chunk-NNNN.npz`` (each
chunk lists the games it holds); when every game is in, they are merged in game order into
``gen-NNNN.npz`` and the chunks removed. A kill loses only the games not yet in a chunk; a
chunk that cannot be read (a damaged disk) is dropped and its games played again.
"""
from __future__ import annotations

import io
import os
import shutil
import warnings
import zipfile
from pathlib import Path

import numpy as np

from .samples import FIELDS, GAME_FIELDS, Samples

__all__ = ["atomic_write", "write_npz", "read_npz", "Samples", "GenerationStore", "window",
           "split_games"]


def _fields(d: dict) -> dict:
    """The Samples of a file's arrays; files written before ``search_value`` existed read as
    NaN there (the search's estimate unknown), a generation's file before ``games`` as its
    games 0, 1, ... in order."""
    out = {f: d[f] for f in FIELDS + GAME_FIELDS if f in d}
    out.setdefault("search_value", np.full(d["value"].shape, np.nan, np.float32))
    if "decisions" in d and "games" not in d:
        out["games"] = np.arange(len(d["decisions"]), dtype=np.int32)
    return out


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that the name only ever holds a complete file."""
    path = Path(path)
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def write_npz(path: Path, arrays: dict) -> None:
    """An .npz (deflated) with fixed timestamps, written atomically."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, value in arrays.items():
            member = io.BytesIO()
            np.lib.format.write_array(member, np.asarray(value), allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, member.getvalue())
    atomic_write(path, buf.getvalue())


def read_npz(path: Path) -> dict:
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def split_games(games_per_gen: int, val_fraction: float) -> int:
    """How many of a generation's games are held out for validation: the last ones (games
    are seeded independently, so the last are as good a sample as any), at least one."""
    return max(1, int(round(games_per_gen * val_fraction)))


class GenerationStore:
    """The self-play samples of every generation in ``root`` (DIR/samples)."""

    def __init__(self, root: Path, n_in: int, n_value: int):
        self.root = Path(root)
        self.n_in, self.n_value = n_in, n_value
        self.root.mkdir(parents=True, exist_ok=True)

    def path(self, gen: int) -> Path:
        return self.root / f"gen-{gen:04d}.npz"

    def part_dir(self, gen: int) -> Path:
        return self.root / f"gen-{gen:04d}.part"

    def complete(self, gen: int) -> bool:
        return self.path(gen).exists()

    def load(self, gen: int) -> Samples:
        return Samples(**_fields(read_npz(self.path(gen))))

    def decisions(self, gen: int) -> int:
        """All decisions of a finished generation's games (one-action ones included)."""
        return int(read_npz(self.path(gen))["decisions"].sum())

    # --- a generation in progress ---
    def recover(self, gen: int) -> dict[int, Samples]:
        """The games already finished in generation ``gen``'s chunks, by index. Temporary
        files of a killed write are removed; an unreadable chunk is dropped with a warning
        (its games are played again)."""
        part = self.part_dir(gen)
        done: dict[int, Samples] = {}
        if not part.exists():
            return done
        for f in sorted(part.iterdir()):
            if ".tmp" in f.name:
                f.unlink()
                continue
            try:
                s = Samples(**_fields(read_npz(f)))
                done.update({int(i): s.of_game(int(i)) for i in s.games})
            except Exception as e:          # noqa: BLE001 - any damage: play those games again
                warnings.warn(f"dropping the unreadable self-play chunk {f} ({e}); its games "
                              f"are played again", stacklevel=2)
                f.unlink()
        return done

    def write_chunk(self, gen: int, games: list[Samples]) -> None:
        part = self.part_dir(gen)
        part.mkdir(parents=True, exist_ok=True)
        taken = [int(f.name[6:10]) for f in part.glob("chunk-*.npz")]
        k = max(taken, default=-1) + 1
        write_npz(part / f"chunk-{k:04d}.npz", Samples.concat(games).arrays())

    def finish(self, gen: int, games: dict[int, Samples]) -> Samples:
        """Merge every game of the generation, in game order, into its file."""
        s = Samples.concat([games[i] for i in sorted(games)])
        write_npz(self.path(gen), s.arrays())
        shutil.rmtree(self.part_dir(gen), ignore_errors=True)
        return s


def window(store: GenerationStore, gens: list[int], val_games: int, games_per_gen: int):
    """(train, validation) Samples of generations ``gens``: in each generation the last
    ``val_games`` games are held out (a whole game, never single samples of it). Each sample
    is copied once, straight into its place, and a generation is dropped before the next is
    read: 8,000 Keytoma games are a million samples, 7.9 GB of features, which a selection
    and then a concatenation held three times over."""
    if not gens:
        raise ValueError("a window of no generation")
    rows, lengths = {}, {}
    for g in gens:                              # the sizes first, from the small arrays
        with np.load(store.path(g), allow_pickle=False) as z:
            held = z["game"] >= games_per_gen - val_games
            rows[g] = (np.flatnonzero(~held), np.flatnonzero(held))
            lengths[g] = np.diff(z["legal_off"])
    out, at = [None, None], [[0, 0], [0, 0]]    # train, validation; (sample, legal) filled
    for g in gens:
        s = store.load(g)
        for side in (0, 1):
            r = rows[g][side]
            if out[side] is None:
                n = sum(len(rows[h][side]) for h in gens)
                n_legal = sum(int(lengths[h][rows[h][side]].sum()) for h in gens)
                out[side] = Samples(**{f: np.empty(((n_legal if f in ("legal", "policy") else
                                                     n + (f == "legal_off")),
                                                    *getattr(s, f).shape[1:]), getattr(s, f).dtype)
                                       for f in FIELDS})
                out[side].legal_off[0] = 0
            o, (p, q) = out[side], at[side]
            for f in ("x", "seat", "game", "value", "search_value"):
                np.take(getattr(s, f), r, axis=0, out=getattr(o, f)[p:p + len(r)], mode="clip")
            lens = lengths[g][r]
            take = (np.repeat(s.legal_off[r] - np.cumsum(lens) + lens, lens)
                    + np.arange(int(lens.sum())))
            o.legal[q:q + len(take)], o.policy[q:q + len(take)] = s.legal[take], s.policy[take]
            o.legal_off[p + 1:p + len(r) + 1] = q + np.cumsum(lens)
            at[side] = [p + len(r), q + len(take)]
        del s
    return tuple(out)
