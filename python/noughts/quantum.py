"""Quantum tic-tac-toe: Allan Goff's game played to a single result (docs/rules.md section 3)."""

from __future__ import annotations

from noughts import _core
from noughts._game import GameMixin

__all__ = ["Quantum"]


class Quantum(GameMixin, _core.Quantum):
    """Quantum tic-tac-toe on the 3x3 board; see docs/quantum.md.

    Marks are numbered 1..9 by the move that writes them (X the odd ones, O
    the even ones). A move is a spooky pair ``a1-b3`` (move ids 0..35), a
    collapse choice ``@a1`` (36 + cell) made by the player who did not close
    the cycle, or the single classical mark in the last free cell, ``c3``
    (45 + cell). Cells are named by column letter and row number from the
    top: ``a1`` is cell 0, ``c3`` cell 8.

    >>> g = Quantum()
    >>> g.play("a1-b2"); g.play("a1-b2")   # the same pair twice closes a cycle
    >>> g.pending_collapse                 # X, who did not close it, chooses
    (2, (0, 4))
    >>> g.play("@a1")                      # o2 lands in a1, so x1 goes to b2
    >>> g.classical_marks()[0], g.classical_marks()[4]
    ((<Player.O: 1>, 2), (<Player.X: 0>, 1))
    >>> g.to_move                          # X chose, and now writes mark 3
    <Player.X: 0>
    """

    _core_class = _core.Quantum
