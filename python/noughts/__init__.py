"""noughts: a fast engine for the tic-tac-toe family.

Classic m,n,k games (misere, free choice, gravity), with move generation and
search in C++. See README.md and docs/ for a tour.
"""

from __future__ import annotations

from noughts._core import Player, Termination
from noughts._game import Move, Outcome
from noughts.classic import Classic
from noughts.errors import Error, IllegalMoveError, InvalidMoveError, InvalidOptionError, InvalidPositionError
from noughts.search import perft, random_playouts

__version__ = "0.1.0"

__all__ = [
    "Classic",
    "Error",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "Move",
    "Outcome",
    "Player",
    "Termination",
    "perft",
    "random_playouts",
    "__version__",
]
