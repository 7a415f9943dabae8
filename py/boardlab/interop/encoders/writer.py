"""The Writer every exact encoder fills: fields appended in a fixed order, so a
game's tensor has one layout per parameter set; with ``record=True`` it also
names each field's slice (``tensors.layout(game)``, docs/tensors.md)."""
from __future__ import annotations

import numpy as np


def index_of(choices) -> dict:
    """{choice: position} for a Writer's categorical fields."""
    return {c: i for i, c in enumerate(choices)}


class Writer:
    """Floats for one tensor. Categorical values are one-hot (``None``: all
    zero), collections are counts per choice, numbers are divided by a fixed
    scale (so every value a field can take maps to a distinct float). A value
    outside a field's choices is a ValueError naming the field: the encoder
    must be extended, never silently lose it."""

    __slots__ = ("out", "layout", "_done")

    def __init__(self, record: bool = False):
        self.out: list[float] = []
        self.layout: list[tuple[str, int, int, str]] | None = [] if record else None
        self._done: list[np.ndarray] = []        # finished parts, before ``out`` (see ``array``)

    def _field(self, name: str, width: int, what: str) -> None:
        start = len(self.out) + sum(len(a) for a in self._done)
        self.layout.append((name, start, start + width, what))

    def array(self, name: str, values: np.ndarray, what: str) -> None:
        """A whole numpy array at once (a field too big to pass through the list, such as a
        map's grid planes); ``block`` offsets count from the last ``array``."""
        if self.layout is not None:
            self._field(name, values.size, what)
        self._done += [np.asarray(self.out, np.float32), values.ravel()]
        self.out = []

    def floats(self) -> list[float] | np.ndarray:
        """Everything written, in order."""
        return np.concatenate(self._done + [np.asarray(self.out, np.float32)]) if self._done else self.out

    def one_hot(self, name: str, value, index: dict) -> None:
        """One-hot of ``value`` over ``index`` (a dict choice -> position); None is all zeros."""
        if self.layout is not None:
            self._field(name, len(index), "one-hot: " + _choices(index))
        v = [0.0] * len(index)
        if value is not None:
            try:
                v[index[value]] = 1.0
            except (KeyError, TypeError):
                raise ValueError(f"observation tensor: {name} has unknown value {value!r}") from None
        self.out += v

    def counts(self, name: str, values, index: dict) -> None:
        """How many times each choice occurs in ``values`` (a set is 0/1 bits)."""
        if self.layout is not None:
            self._field(name, len(index), "counts: " + _choices(index))
        v = [0.0] * len(index)
        for value in values or ():
            try:
                v[index[value]] += 1.0
            except (KeyError, TypeError):
                raise ValueError(f"observation tensor: {name} has unknown value {value!r}") from None
        self.out += v

    def flag(self, name: str, value) -> None:
        """1 for true, 0 for false or None."""
        if self.layout is not None:
            self._field(name, 1, "0/1")
        self.out.append(1.0 if value else 0.0)

    def number(self, name: str, value, scale: float) -> None:
        """``value / scale`` (None: 0)."""
        if self.layout is not None:
            self._field(name, 1, f"value / {scale:g}")
        self.out.append(0.0 if value is None else float(value) / scale)

    def numbers(self, name: str, values, scale: float, width: int) -> None:
        """``width`` numbers ``/ scale``, the missing ones 0."""
        values = list(values or ())
        if len(values) > width:
            raise ValueError(f"observation tensor: {name} has {len(values)} values, at most {width}")
        if self.layout is not None:
            self._field(name, width, f"{width} values / {scale:g}")
        self.out += [x / scale for x in values] if scale != 1 else values
        self.out += [0.0] * (width - len(values))

    def block(self, name: str, width: int, what: str) -> int:
        """``width`` zeros the caller fills (a field too regular to write one by one);
        returns where they start."""
        if self.layout is not None:
            self._field(name, width, what)
        start = len(self.out)
        self.out += [0.0] * width
        return start

    def positions(self, name: str, values, index: dict) -> None:
        """An ordered list of distinct choices: per choice, its place in the
        list (1-based) / the number of choices, 0 if absent."""
        if self.layout is not None:
            self._field(name, len(index), f"place in the list / {len(index)}: " + _choices(index))
        v = [0.0] * len(index)
        for i, value in enumerate(values or ()):
            try:
                v[index[value]] = (i + 1) / len(index)
            except (KeyError, TypeError):
                raise ValueError(f"observation tensor: {name} has unknown value {value!r}") from None
        self.out += v


def _choices(index: dict) -> str:
    names = [str(c) for c in index]
    return ", ".join(names) if len(names) <= 8 else f"{', '.join(names[:3])} ... {names[-1]} ({len(names)})"

