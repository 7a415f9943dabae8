"""Observation tensors: one fixed-size float32 vector per seat, shared by the
OpenSpiel and PettingZoo adapters.

A tensor is always built from ``state.observation(seat)`` - the dict of what
that seat knows - so it cannot carry hidden information.

>>> import boardlab
>>> from boardlab.interop import tensors
>>> game = boardlab.make("kitsu", players=2)
>>> state = game.new_initial_state()
>>> tensors.observation_tensor(state, 0).shape == (tensors.tensor_size(game),)
True

Every game has its own encoder (:data:`ENCODERS`, one module per game in
:mod:`boardlab.interop.encoders`).
Every encoder encodes every field of the observation dict exactly (a
one-hot per categorical value, counts per collection, numbers over a fixed
scale; docs/tensors.md has the layout, :func:`layout` every field's slice);
a value an encoder does not know is a ValueError, never silently dropped.
"""
from __future__ import annotations

import re
from typing import Callable

import numpy as np

from .encoders import keyside as _keyside, kitsu as _kitsu, kyushu as _kyushu, nukumi as _nukumi
from .encoders.writer import Writer

__all__ = ["ENCODERS", "encode", "observation_tensor", "tensor_size", "layout", "layout_table"]

#: Encoders that fill a :class:`Writer` (these have a recorded :func:`layout`).
_WRITERS: dict[str, Callable[[dict, dict, Writer], None]] = {
    "keyside": _keyside.encode, "kitsu": _kitsu.encode, "kyushu": _kyushu.encode, "nukumi": _nukumi.encode}


def _written(fill):
    def encoder(obs: dict, params: dict) -> list[float]:
        w = Writer()
        try:
            fill(obs, params, w)
        except (TypeError, AttributeError) as e:    # a value of the wrong kind where the
            # checks above do not look (a number where a list of dicts belongs): still a
            # ValueError, never a crash of the caller's loop over observations
            raise ValueError(f"observation tensor: a malformed observation ({e})") from None
        return w.floats()
    encoder.__doc__ = fill.__doc__
    return encoder


#: game name -> encoder(observation dict, game params) -> floats (list or array).
ENCODERS: dict[str, Callable[[dict, dict], list]] = {name: _written(fill) for name, fill in _WRITERS.items()}


def _encoder(name: str):
    try:
        return ENCODERS[name]
    except KeyError:
        raise NotImplementedError(f"no observation tensor for game {name!r}: add an encoder to "
                                  "boardlab.interop.tensors.ENCODERS") from None


def encode(game, obs: dict) -> np.ndarray:
    """The tensor of a seat's observation dict ``obs`` in ``game`` (a boardlab Game)."""
    return np.asarray(_encoder(game.name)(obs, game.params), dtype=np.float32)


def observation_tensor(state, seat: int) -> np.ndarray:
    """``seat``'s tensor in ``state`` (a boardlab State), from ``state.observation(seat)``."""
    return encode(state.game, state.observation(seat))


_sizes: dict = {}


def tensor_size(game) -> int:
    """Length of every tensor of ``game`` (fixed per game and parameters)."""
    key = (game.name, tuple(sorted(game.params.items())))
    if key not in _sizes:
        state = game.new_initial_state(seed=0)
        _sizes[key] = len(observation_tensor(state, 0))
    return _sizes[key]


def layout(game) -> list[tuple[str, int, int, str]]:
    """Every field of ``game``'s tensor as (name, start, stop, encoding), in
    order (docs/tensors.md summarises them)."""
    if game.name not in _WRITERS:
        raise NotImplementedError(f"no recorded layout for game {game.name!r}")
    w = Writer(record=True)
    _WRITERS[game.name](game.new_initial_state(seed=0).observation(0), game.params, w)
    return w.layout


def layout_table(game) -> str:
    """:func:`layout` as a Markdown table, one row per kind of field (``seats[*].goods``:
    where the first is, how many there are, how wide each is); docs/tensors.md has these."""
    rows: dict[str, list] = {}
    for name, start, stop, what in layout(game):
        key = re.sub(r"\[\d+\]", "[*]", name)
        if key in rows:
            rows[key][2] += 1
        else:
            rows[key] = [start, stop - start, 1, what]
    lines = ["| field | first at | floats x times | encoding |", "|---|---|---|---|"]
    for key, (start, width, times, what) in rows.items():
        lines.append(f"| `{key}` | {start} | {width} x {times} | {what} |")
    return "\n".join(lines)
