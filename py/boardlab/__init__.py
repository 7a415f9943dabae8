"""boardlab: compiled rules engines and AI for tabletop games.

>>> import boardlab
>>> boardlab.games_available()
['kitsu']
>>> game = boardlab.make("kitsu", players=4, seed=7)
>>> state = game.new_initial_state()
>>> state.current_player == boardlab.CHANCE
True
"""
from .errors import CHANCE, HIDDEN, TERMINAL, IllegalActionError, RecordError
from .game import Game, PlayoutStats, State, games_available, make, replay

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "HIDDEN",
    "TERMINAL",
    "Game",
    "IllegalActionError",
    "PlayoutStats",
    "RecordError",
    "State",
    "games_available",
    "make",
    "replay",
]
