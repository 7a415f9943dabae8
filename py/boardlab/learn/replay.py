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
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .selfplay import GameSamples

__all__ = ["atomic_write", "write_npz", "read_npz", "Samples", "GenerationStore", "window",
           "split_games"]

FIELDS = ("x", "seat", "game", "legal_off", "legal", "policy", "value", "search_value")


def _fields(d: dict) -> dict:
    """The Samples fields of a file's arrays; files written before ``search_value`` existed
    read as NaN there (the search's estimate unknown)."""
    out = {f: d[f] for f in FIELDS if f in d}
    out.setdefault("search_value", np.full(d["value"].shape, np.nan, np.float32))
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


@dataclass
class Samples:
    """Samples of several games, flattened (legal sets ragged through ``legal_off``)."""
    x: np.ndarray
    seat: np.ndarray
    game: np.ndarray        # game index (within its generation) of each sample
    legal_off: np.ndarray
    legal: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    search_value: np.ndarray    # the search's root estimate, like value; NaN where unknown

    def __len__(self) -> int:
        return len(self.x)

    @classmethod
    def from_games(cls, games: list[GameSamples], n_in: int, n_value: int) -> "Samples":
        offs, base = [np.zeros(1, np.int64)], 0
        for g in games:
            offs.append(g.legal_off[1:] + base)
            base += int(g.legal_off[-1])

        def cat(parts, dtype, shape=()):
            parts = [p for p in parts if len(p)]
            return np.concatenate(parts).astype(dtype) if parts else np.zeros((0, *shape), dtype)
        return cls(x=cat([g.x for g in games], np.float32, (n_in,)),
                   seat=cat([g.seat for g in games], np.int8),
                   game=cat([np.full(len(g.x), g.index, np.int32) for g in games], np.int32),
                   legal_off=np.concatenate(offs).astype(np.int64),
                   legal=cat([g.legal for g in games], np.int32),
                   policy=cat([g.policy for g in games], np.float32),
                   value=cat([g.value for g in games], np.float32, (n_value,)),
                   search_value=cat([g.search_value if g.search_value is not None
                                     else np.full(g.value.shape, np.nan, np.float32)
                                     for g in games], np.float32, (n_value,)))

    @classmethod
    def concat(cls, parts: list["Samples"]) -> "Samples":
        offs, base = [np.zeros(1, np.int64)], 0
        for p in parts:
            offs.append(p.legal_off[1:] + base)
            base += int(p.legal_off[-1])
        return cls(**{f: np.concatenate([getattr(p, f) for p in parts])
                      for f in FIELDS if f != "legal_off"},
                   legal_off=np.concatenate(offs))

    def select(self, rows: np.ndarray) -> "Samples":
        """The samples at ``rows`` (in that order)."""
        rows = np.asarray(rows, dtype=np.int64)
        starts, ends = self.legal_off[rows], self.legal_off[rows + 1]
        lengths = ends - starts
        take = (np.concatenate([np.arange(s, e) for s, e in zip(starts, ends)])
                if len(rows) else np.zeros(0, np.int64))
        return Samples(x=self.x[rows], seat=self.seat[rows], game=self.game[rows],
                       legal_off=np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64),
                       legal=self.legal[take], policy=self.policy[take], value=self.value[rows],
                       search_value=self.search_value[rows])

    def dense(self, n_actions: int):
        """(x, legal mask, policy target) with the action axis dense, for a batch."""
        n = len(self)
        mask = np.zeros((n, n_actions), dtype=bool)
        target = np.zeros((n, n_actions), dtype=np.float32)
        rows = np.repeat(np.arange(n), np.diff(self.legal_off))
        mask[rows, self.legal] = True
        target[rows, self.legal] = self.policy
        return self.x, mask, target

    def arrays(self) -> dict:
        return {f: getattr(self, f) for f in FIELDS}


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
    def recover(self, gen: int) -> dict[int, GameSamples]:
        """The games already finished in generation ``gen``'s chunks, by index. Temporary
        files of a killed write are removed; an unreadable chunk is dropped with a warning
        (its games are played again)."""
        part = self.part_dir(gen)
        done: dict[int, GameSamples] = {}
        if not part.exists():
            return done
        for f in sorted(part.iterdir()):
            if ".tmp" in f.name:
                f.unlink()
                continue
            try:
                done.update({g.index: g for g in self._read_chunk(f)})
            except Exception as e:          # noqa: BLE001 - any damage: play those games again
                warnings.warn(f"dropping the unreadable self-play chunk {f} ({e}); its games "
                              f"are played again", stacklevel=2)
                f.unlink()
        return done

    def write_chunk(self, gen: int, games: list[GameSamples]) -> None:
        part = self.part_dir(gen)
        part.mkdir(parents=True, exist_ok=True)
        taken = [int(f.name[6:10]) for f in part.glob("chunk-*.npz")]
        k = max(taken, default=-1) + 1
        s = Samples.from_games(games, self.n_in, self.n_value)
        write_npz(part / f"chunk-{k:04d}.npz",
                  {**s.arrays(), "games": np.array([g.index for g in games], np.int32),
                   "decisions": np.array([g.decisions for g in games], np.int32)})

    def _read_chunk(self, path: Path) -> list[GameSamples]:
        d = read_npz(path)
        s = Samples(**_fields(d))
        out = []
        for index, decisions in zip(d["games"].tolist(), d["decisions"].tolist()):
            rows = np.flatnonzero(s.game == index)
            g = s.select(rows)
            out.append(GameSamples(index=index, x=g.x, seat=g.seat, legal_off=g.legal_off,
                                   legal=g.legal, policy=g.policy, value=g.value,
                                   decisions=decisions, search_value=g.search_value))
        return out

    def finish(self, gen: int, games: dict[int, GameSamples]) -> Samples:
        """Merge every game of the generation, in game order, into its file."""
        order = sorted(games)
        s = Samples.from_games([games[i] for i in order], self.n_in, self.n_value)
        write_npz(self.path(gen), {**s.arrays(), "decisions": np.array(
            [games[i].decisions for i in order], np.int32)})
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
