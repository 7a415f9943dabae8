"""Registry of the games with a Python module.

Each module ``boardlab.games.<name>`` provides (docs/CONTRACTS.md):

* ``NAME`` - the kernel's registered name;
* ``DEFAULTS`` - dict of parameter -> default value;
* ``kernel_params(params) -> list[int]`` - validate a full parameter dict and
  build the kernel parameter vector (``ValueError`` naming the parameter);
* ``render(obs) -> str`` - draw an observation dict (full or one seat's).
"""
from . import keyside, kitsu, kyushu, nukumi

#: name -> game module, in display order.
GAMES = {kitsu.NAME: kitsu, kyushu.NAME: kyushu, keyside.NAME: keyside, nukumi.NAME: nukumi}


def get(name):
    """The module of game ``name`` (``ValueError`` listing the known games)."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown game {name!r}; available games: {', '.join(sorted(GAMES))}"
        ) from None


__all__ = ["GAMES", "get"]
