"""noughts: a fast engine for the tic-tac-toe family.

Classic m,n,k games (misere, free choice, gravity), with move generation and
search in C++. See README.md and docs/ for a tour.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from noughts._core import Player, Termination
from noughts._game import Move, Outcome
from noughts.book import OpeningBook, shipped_book
from noughts.classic import Classic
from noughts.errors import (
    Error,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    SearchTimeout,
)
from noughts.mcts import MCTS, match
from noughts.quantum import Quantum
from noughts.records import Record, read_records, write_records
from noughts.registry import make_game
from noughts.search import perft, random_playouts
from noughts.solver import BestMove, Prover, Solution, Solver, SolveStatus, best_move, solve
from noughts.ultimate import BoardState, Ultimate

if TYPE_CHECKING:
    from noughts import svg
    from noughts.learning import VectorGame
    from noughts.svg import svg_of

# Loaded on first use: numpy (VectorGame) and the SVG writer are most of the
# package's import time, which `noughts engine --codingame` pays out of its
# first turn.
_LAZY = {
    "svg": ("noughts.svg", None),
    "svg_of": ("noughts.svg", "svg_of"),
    "VectorGame": ("noughts.learning", "VectorGame"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'noughts' has no attribute {name!r}")
    module, attribute = _LAZY[name]
    value = importlib.import_module(module)
    if attribute is not None:
        value = getattr(value, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


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
    "OpeningBook",
    "Outcome",
    "Player",
    "Prover",
    "Quantum",
    "Record",
    "SearchTimeout",
    "Solution",
    "SolveStatus",
    "Solver",
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
    "shipped_book",
    "solve",
    "__version__",
]
