"""Strict checks of values a user gives: game parameters and ``Game.position`` facts.

Every game reads its parameters and position facts through these, so a wrong type gets the
same clear ValueError everywhere: a bool is not an int, a str is not a list, a dict is not a
list, and an empty or false value is not "absent" (only a missing key or None is). Each check
names the value's place (``what``) and shows what was given.

>>> integer(3, "year", 1, 3)
3
>>> integer(True, "year", 1, 3)
Traceback (most recent call last):
...
ValueError: year must be an integer 1..3, got True
>>> optional({"trick": None}, "trick", [])
[]
>>> sequence(optional({"trick": ""}, "trick", []), "trick")
Traceback (most recent call last):
...
ValueError: trick must be a list, got ''
"""
from __future__ import annotations

import numpy as np

from .errors import brief_repr

#: Every number of a kernel set-up vector is an int32.
INT32 = 2**31


def is_int(value) -> bool:
    """An int or a numpy integer, but not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def integer(value, what: str, lo: int = -INT32, hi: int = INT32 - 1) -> int:
    """An int in [lo, hi] (bounds included)."""
    if lo == -INT32 and hi == INT32 - 1:       # any int32: the kernel checks the rules' range
        if not is_int(value):
            raise ValueError(f"{what} must be an integer, got {brief_repr(value)}")
        if not lo <= value <= hi:
            raise ValueError(f"{what}: {brief_repr(value)} is out of range")
    elif not is_int(value) or not lo <= value <= hi:
        raise ValueError(f"{what} must be an integer {lo}..{hi}, got {brief_repr(value)}")
    return int(value)


def boolean(value, what: str) -> bool:
    """True or False, nothing else (not 0/1, not "yes")."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{what} must be true or false, got {brief_repr(value)}")
    return bool(value)


def text(value, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a string, got {brief_repr(value)}")
    return value


def choice(value, what: str, options) -> int:
    """The index of ``value`` among the string ``options``."""
    options = list(options)
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{what} must be one of {', '.join(map(repr, options))}, got {brief_repr(value)}")
    return options.index(value)


def sequence(value, what: str, length: int | None = None) -> list:
    """A list or tuple (not a str, dict or set), of ``length`` entries if given."""
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{what} must be a list, got {brief_repr(value)}")
    if length is not None and len(value) != length:
        raise ValueError(f"{what} must list {length} entries, got {len(value)}")
    return list(value)


def mapping(value, what: str, known=None) -> dict:
    """A dict; with ``known``, every key must be one of them."""
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be a dict, got {brief_repr(value)}")
    if known is not None:
        known = list(known)
        bad = sorted((k for k in value if not isinstance(k, str) or k not in known), key=str)
        if bad:
            raise ValueError(f"{what}: unknown {', '.join(map(brief_repr, bad))}; known: {', '.join(known)}")
    return value


def names(value, what: str, known, unique: bool = True) -> list[int]:
    """A list of names from ``known`` -> their indices (each at most once if ``unique``)."""
    known = list(known)
    out = []
    for v in sequence(value, what):
        if not isinstance(v, str) or v not in known:
            raise ValueError(f"{what}: unknown {brief_repr(v)}; e.g. {known[0]}")
        i = known.index(v)
        if unique and i in out:
            raise ValueError(f"{what}: {v} is listed twice")
        out.append(i)
    return out


def optional(facts: dict, name: str, default):
    """A fact's value; absent or None means ``default`` (an empty or false value does not)."""
    value = facts.get(name)
    return default if value is None else value


def param_values(game: str, defaults: dict, params: dict) -> dict:
    """``params`` checked against their defaults' types (a bool option takes True/False, a
    number an int, a name a str) and made plain Python values (numpy scalars would not go
    into a JSON record). The game module then checks each value's range."""
    out = {}
    for key, value in params.items():
        default = defaults[key]
        if isinstance(default, bool):
            ok, kind, plain = isinstance(value, (bool, np.bool_)), "True or False", bool
        elif isinstance(default, int):
            ok, kind, plain = is_int(value), "an integer", int
        elif isinstance(default, float):
            ok, kind, plain = is_int(value) or isinstance(value, (float, np.floating)), "a number", float
        elif isinstance(default, str):
            ok, kind, plain = isinstance(value, str), f"a string such as {default!r}", str
        else:
            ok, kind, plain = True, "", lambda v: v
        if not ok:
            raise ValueError(f"{game} parameter {key!r} must be {kind}, got {brief_repr(value)}")
        out[key] = plain(value)
    return out
