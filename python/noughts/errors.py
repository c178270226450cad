"""The exceptions of noughts: one base class, ValueError subclasses for bad input.

The C++ engine raises these through the bindings, so the same classes come
from every game and every entry point.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "Error",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "SearchTimeout",
]


class Error(Exception):
    """Base class of every error noughts raises on purpose."""


class InvalidMoveError(Error, ValueError):
    """A move that cannot be read: text not in the game's notation, or a wrong type."""


class IllegalMoveError(Error, ValueError):
    """A well-formed move that is not legal in this position (occupied, out of range, game over...)."""


class InvalidPositionError(Error, ValueError):
    """A position string that does not describe a reachable position of the game."""


class InvalidOptionError(Error, ValueError):
    """Game parameters or search arguments outside what is allowed."""


class SearchTimeout(Error, TimeoutError):
    """A search stopped at its time limit before it had an answer.

    ``nodes`` and ``seconds`` say how far it got; ``proven`` what a solve had proved.
    """

    def __init__(self, message: str, nodes: int = 0, seconds: float = 0.0) -> None:
        super().__init__(f"{message} after {nodes:,} nodes in {seconds:.2f} s")
        self.nodes = nodes
        self.seconds = seconds
        #: For a solve: what it had proved when it stopped (a noughts.solver.SolveStatus), else None.
        self.proven: Any = None
