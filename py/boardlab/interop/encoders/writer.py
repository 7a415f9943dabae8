"""The Writer every exact encoder fills: fields appended in a fixed order, so a
game's tensor has one layout per parameter set; with ``record=True`` it also
names each field's slice (``tensors.layout(game)``, docs/tensors.md)."""
from __future__ import annotations

from collections import defaultdict
from itertools import islice

import numpy as np


def index_of(choices) -> dict:
    """{choice: position} for a Writer's categorical fields."""
    return {c: i for i, c in enumerate(choices)}


class Writer:
    """Floats for one tensor. Categorical values are one-hot (``None``: all
    zero), collections are counts per choice, numbers are divided by a fixed
    scale (so every value a field can take maps to a distinct float). A value
    outside a field's choices is a ValueError naming the field: the encoder
    must be extended, never silently lose it.

    A tensor is mostly zeros, so only the floats a field sets are kept
    (``out``: position -> value, or ``scatter`` arrays) and the array is made
    once, in ``floats``. ``fields`` and ``dicts`` write whole dicts described by
    ``Fields``; they and ``empty_slots`` skip what is absent when no layout is
    recorded."""

    __slots__ = ("size", "out", "layout", "_scattered")

    def __init__(self, record: bool = False):
        self.size = 0                                  # floats written so far: where the next field starts
        self.out: defaultdict[int, float] = defaultdict(float)
        self.layout: list[tuple[str, int, int, str]] | None = [] if record else None
        self._scattered: list[tuple[np.ndarray, np.ndarray]] = []

    def _field(self, name: str, width: int, what: str) -> None:
        self.layout.append((name, self.size, self.size + width, what))

    def floats(self) -> np.ndarray:
        """Everything written, in order (float32)."""
        t = np.zeros(self.size, np.float32)
        n = len(self.out)
        if n:     # computed as Python floats, rounded to float32 here
            t[np.fromiter(self.out.keys(), np.intp, n)] = np.fromiter(self.out.values(), np.float64, n)
        for at, values in self._scattered:
            t[at] = values
        return t

    def one_hot(self, name: str, value, index: dict) -> None:
        """One-hot of ``value`` over ``index`` (a dict choice -> position); None is all zeros."""
        if self.layout is not None:
            self._field(name, len(index), "one-hot: " + _choices(index))
        if value is not None:
            try:
                self.out[self.size + index[value]] = 1.0
            except (KeyError, TypeError):
                raise _unknown(name, value) from None
        self.size += len(index)

    def counts(self, name: str, values, index: dict) -> None:
        """How many times each choice occurs in ``values`` (a set is 0/1 bits)."""
        if self.layout is not None:
            self._field(name, len(index), "counts: " + _choices(index))
        for value in values or ():
            try:
                self.out[self.size + index[value]] += 1.0
            except (KeyError, TypeError):
                raise _unknown(name, value) from None
        self.size += len(index)

    def flag(self, name: str, value) -> None:
        """1 for true, 0 for false or None."""
        if self.layout is not None:
            self._field(name, 1, "0/1")
        if value:
            self.out[self.size] = 1.0
        self.size += 1

    def number(self, name: str, value, scale: float) -> None:
        """``value / scale`` (None: 0)."""
        if self.layout is not None:
            self._field(name, 1, f"value / {scale:g}")
        if value is not None:
            self.out[self.size] = float(value) / scale
        self.size += 1

    def numbers(self, name: str, values, scale: float, width: int) -> None:
        """``width`` numbers ``/ scale``, the missing ones 0."""
        values = list(values or ())
        if len(values) > width:
            raise ValueError(f"observation tensor: {name} has {len(values)} values, at most {width}")
        if self.layout is not None:
            self._field(name, width, f"{width} values / {scale:g}")
        at, out = self.size, self.out
        for i, x in enumerate(values):
            if x or type(x) is not int or not scale > 0:     # int 0 / scale: the +0.0 there already
                out[at + i] = x / scale if scale != 1 else x
        self.size += width

    def numbers_by(self, name: str, values: dict, index: dict, scale: float) -> None:
        """``values``, {choice of ``index``: number}, as ``numbers`` in the order of ``index``
        (a choice absent: 0)."""
        if self.layout is not None:
            self._field(name, len(index), f"{len(index)} values / {scale:g}")
        at, out = self.size, self.out
        for choice, x in (values or {}).items():
            try:
                i = at + index[choice]
            except (KeyError, TypeError):
                raise _unknown(name, choice) from None
            if x or type(x) is not int or not scale > 0:
                out[i] = x / scale
        self.size += len(index)

    def block(self, name: str, width: int, what: str) -> int:
        """``width`` zeros the caller fills (``out[start + i]``, or ``scatter``: a field too
        regular to write one by one); returns where they start."""
        if self.layout is not None:
            self._field(name, width, what)
        start = self.size
        self.size += width
        return start

    def scatter(self, at: np.ndarray, values: np.ndarray) -> None:
        """Set the floats at positions ``at`` (within ``block``s) to ``values``, a whole
        field's worth at once."""
        self._scattered.append((at, values))

    def empty_slots(self, write, slots: range) -> None:
        """``write(i)`` for each slot ``i`` of ``slots``, all empty: alike but for their
        place and names. Unless a layout is recorded, when the first sets only zeros the
        others are skipped over (the slots past a short list cost nothing)."""
        if self.layout is None and len(slots):
            start, n, scattered = self.size, len(self.out), len(self._scattered)
            write(slots[0])
            if len(self._scattered) == scattered and not any(islice(self.out.values(), n, None)):
                self.size += (self.size - start) * (len(slots) - 1)
                return
            slots = slots[1:]
        for i in slots:
            write(i)

    def fields(self, at: str, d: dict, fields: Fields) -> None:
        """The ``fields`` of dict ``d`` in their order: each ``(key, kind, arg)`` as
        ``self.<kind>(f"{at}.{key}", d.get(key), arg)`` (``*arg`` for "dicts"). Unless a layout
        is recorded, only the keys ``d`` has are looked at, at places worked out once (``_put``):
        a sparse dict costs what it holds."""
        if self.layout is None:
            self._put(self.size, at, d, fields)
            self.size += fields.width
            return
        if fields.required:
            _check_required(at, d, fields)
        for key, kind, arg in fields.spec:
            if kind == "flag":
                self.flag(f"{at}.{key}", d.get(key))
            elif kind == "dicts":
                self.dicts(f"{at}.{key}", d.get(key) or [], *arg)
            else:
                getattr(self, kind)(f"{at}.{key}", d.get(key), arg)

    def dicts(self, name: str, items: list, fields: Fields, count: int) -> None:
        """A list of up to ``count`` dicts, each as ``fields`` (``name[i]``; empty slots past
        the list's end)."""
        if self.layout is None:
            self._put_dicts(self.size, name, items, fields, count)
            self.size += count * fields.width
            return
        _check_count(name, items, count)
        for i in range(count):
            self.fields(f"{name}[{i}]", items[i] if i < len(items) else {}, fields)

    def _put(self, start: int, at: str, d: dict, fields: Fields) -> None:
        """``fields`` of ``d`` from ``start``, as the methods of the same names write them."""
        if not isinstance(d, dict):
            raise ValueError(f"observation tensor: {at} should be a dict, not {type(d).__name__}")
        if fields.required:
            _check_required(at, d, fields)
        out, places = self.out, fields.places
        for key, value in d.items():
            place = places.get(key)
            if place is None or value is None:
                continue
            offset, kind, arg = place
            i = start + offset
            if kind == "one_hot":
                try:
                    out[i + arg[value]] = 1.0
                except (KeyError, TypeError):
                    raise _unknown(f"{at}.{key}", value) from None
            elif kind == "number":
                out[i] = float(value) / arg
            elif kind == "flag":
                if value:
                    out[i] = 1.0
            elif kind == "counts":
                for v in value or ():
                    try:
                        out[i + arg[v]] += 1.0
                    except (KeyError, TypeError):
                        raise _unknown(f"{at}.{key}", v) from None
            else:                                # dicts
                self._put_dicts(i, f"{at}.{key}", value, *arg)

    def _put_dicts(self, start: int, name: str, items: list, fields: Fields, count: int) -> None:
        _check_count(name, items, count)
        for i, d in enumerate(items):
            self._put(start + i * fields.width, f"{name}[{i}]", d, fields)

    def positions(self, name: str, values, index: dict) -> None:
        """An ordered list of distinct choices: per choice, its place in the
        list (1-based) / the number of choices, 0 if absent."""
        if self.layout is not None:
            self._field(name, len(index), f"place in the list / {len(index)}: " + _choices(index))
        for i, value in enumerate(values or ()):
            try:
                self.out[self.size + index[value]] = (i + 1) / len(index)
            except (KeyError, TypeError):
                raise _unknown(name, value) from None
        self.size += len(index)


class Fields:
    """Fields of a dict for ``Writer.fields``, in order: ``(key, kind, arg)`` with kind
    "one_hot" or "counts" (arg: the index of choices), "number" (arg: the scale), "flag"
    (arg None) or "dicts" (a list of dicts, arg: (their Fields, how many slots)).
    ``required``: a dict without one of the keys is a ValueError."""

    __slots__ = ("spec", "required", "places", "width")

    def __init__(self, *spec: tuple, required: bool = False):
        self.spec, self.required, self.places, self.width = spec, required, {}, 0
        for key, kind, arg in spec:
            self.places[key] = (self.width, kind, arg)       # where Writer._put writes it
            if kind in ("one_hot", "counts"):
                self.width += len(arg)
            elif kind == "dicts":
                self.width += arg[0].width * arg[1]
            elif kind in ("number", "flag"):
                self.width += 1
            else:
                raise ValueError(f"Fields: {key!r} has no kind {kind!r}")


def _check_required(at: str, d: dict, fields: Fields) -> None:
    if not fields.places.keys() <= d.keys():
        missing = [key for key, _, _ in fields.spec if key not in d]
        raise ValueError(f"observation tensor: {at} has no {missing[0]!r}")


def _check_count(name: str, items: list, count: int) -> None:
    if len(items) > count:
        raise ValueError(f"observation tensor: {name} has {len(items)} entries, at most {count}")


def _unknown(name: str, value) -> ValueError:
    return ValueError(f"observation tensor: {name} has unknown value {value!r}")


def _choices(index: dict) -> str:
    names = [str(c) for c in index]
    return ", ".join(names) if len(names) <= 8 else f"{', '.join(names[:3])} ... {names[-1]} ({len(names)})"
