"""Bridges from boardlab games to other frameworks (optional dependencies).

* :mod:`boardlab.interop.openspiel` - every boardlab game as an OpenSpiel game
  (``pip install "boardlab[openspiel]"``).
* :mod:`boardlab.interop.pettingzoo` - every boardlab game as a PettingZoo AEC
  environment (``pip install "boardlab[pettingzoo]"``).
* :mod:`boardlab.interop.tensors` - the observation tensors both use (no extra).
"""
