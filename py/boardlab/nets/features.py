"""The kernel's network input per game (kernel/<game>/features.c; docs/learning.md)."""
from __future__ import annotations

import numpy as np


def feature_size(game) -> int:
    """Floats of the game's features, 0 for a game without network features."""
    return game._core.feature_size


def features(state, seat: int) -> np.ndarray:
    """What `seat` knows in `state`, as the kernel writes it for the network (float32)."""
    return state._core.features(seat)
