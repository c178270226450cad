"""CodinGame's Ultimate Tic-Tac-Toe protocol, so the engine can play in those arenas.

Each turn the referee sends ``opponentRow opponentCol`` (``-1 -1`` when we
move first), then ``validActionCount`` and that many ``row col`` lines, all on
the 9x9 grid (0-based, row 0 at the top); we answer ``row col``. CodinGame
breaks a full-board tie by counting small boards won; noughts' rules (and
search) call it a draw, so the engine may play such endings differently.
"""

from __future__ import annotations

import sys
from typing import TextIO

from noughts.mcts import MCTS
from noughts.ultimate import Ultimate

__all__ = ["grid_to_id", "id_to_grid", "run"]


def grid_to_id(row: int, col: int) -> int:
    """The move id (board * 9 + cell) of a 9x9 grid square (row and column 0..8)."""
    return int(Ultimate.grid_to_id(row, col))


def id_to_grid(move: int) -> tuple[int, int]:
    """The 9x9 grid square (row, column) of an Ultimate move id (0..80)."""
    row, col = Ultimate.id_to_grid(move)
    return int(row), int(col)


def _numbers(stream: TextIO, count: int) -> list[int]:
    line = stream.readline()
    if not line:
        raise EOFError
    values = [int(w) for w in line.split()]
    if len(values) != count:
        raise ValueError(f"expected {count} numbers, got {line.strip()!r}")
    return values


def run(
    stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout, *, ms: int = 90, first_ms: int = 900, seed: int = 0
) -> int:
    game = Ultimate()
    engine = MCTS(seed=seed)
    first = True
    try:
        while True:
            row, col = _numbers(stdin, 2)
            if (row, col) != (-1, -1):
                game.play(grid_to_id(row, col))
            (count,) = _numbers(stdin, 1)
            valid = {grid_to_id(*_numbers(stdin, 2)) for _ in range(count)}
            result = engine.search(game, seconds=(first_ms if first else ms) / 1000)
            move = result.best_move.id
            if valid and move not in valid:  # trust the referee's list if the rules ever differ
                ranked = [s.move.id for s in sorted(result.moves, key=lambda s: -s.visits)]
                move = next((m for m in ranked if m in valid), min(valid))
            game.play(move)
            r, c = id_to_grid(move)
            stdout.write(f"{r} {c}\n")
            stdout.flush()
            first = False
    except EOFError:
        return 0
