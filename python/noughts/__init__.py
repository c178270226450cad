"""noughts: a fast engine for the tic-tac-toe family.

Classic m,n,k games (misere, free choice, gravity), with move generation and
search in C++. See README.md and docs/ for a tour.
"""

from __future__ import annotations

from noughts import svg
from noughts._core import Player, Termination
from noughts._game import Move, Outcome
from noughts.classic import Classic
from noughts.errors import (
    Error,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    SearchTimeout,
)
from noughts.learning import VectorGame
from noughts.mcts import MCTS, match
from noughts.quantum import Quantum
from noughts.records import Record, read_records, write_records
from noughts.registry import make_game
from noughts.search import perft, random_playouts
from noughts.solver import BestMove, Prover, Solution, SolveStatus, best_move, solve
from noughts.svg import svg_of
from noughts.ultimate import BoardState, Ultimate

__version__ = "0.1.0"

__all__ = [
    "BestMove",
    "BoardState",
    "Classic",
    "Error",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "MCTS",
    "Move",
    "Outcome",
    "Player",
    "Prover",
    "Quantum",
    "Record",
    "SearchTimeout",
    "Solution",
    "SolveStatus",
    "Termination",
    "VectorGame",
    "Ultimate",
    "perft",
    "random_playouts",
    "make_game",
    "read_records",
    "svg",
    "svg_of",
    "write_records",
    "best_move",
    "match",
    "solve",
    "__version__",
]
