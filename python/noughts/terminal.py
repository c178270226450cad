"""``noughts play``: a game in the terminal, against the engine or between humans.

Works with stdin not a TTY (moves piped in), so it can be scripted and tested.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from noughts._core import Player
from noughts.errors import Error
from noughts.mcts import MCTS

__all__ = ["play"]

HELP = "type a move (e.g. as listed below), or: undo, hint, moves, quit"


def _show(game: Any, out: TextIO) -> None:
    out.write(f"\n{game}\n")
    outcome = game.outcome()
    if outcome is None:
        out.write(f"{game.to_move.name} to move\n")


def play(
    game: Any,
    humans: set[Player],
    *,
    seconds: float = 1.0,
    seed: int = 0,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Plays to the end, or until the user quits or input ends; returns 0 (the exit status)."""
    inp, out = stdin or sys.stdin, stdout or sys.stdout
    engine = MCTS(seed=seed)
    _show(game, out)
    while not game.is_over():
        if game.to_move not in humans:
            result = engine.search(game, seconds=seconds)
            out.write(f"{game.to_move.name} (engine) plays {result.best_move.name}  [value {result.value:+.2f}]\n")
            game.play(result.best_move)
            _show(game, out)
            continue
        out.write(f"{game.to_move.name}> ")
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\nend of input\n")
            return 0
        text = line.strip()
        if not text:
            continue
        command = text.lower()
        if command in ("quit", "exit", "q"):
            return 0
        if command in ("help", "?"):
            out.write(HELP + "\n")
        elif command == "moves":
            out.write(" ".join(m.name for m in game.legal_moves()) + "\n")
        elif command == "hint":
            out.write(f"hint: {engine.search(game, seconds=seconds).best_move.name}\n")
        elif command == "undo":
            # Back to the last position where a human was to move.
            if not game.move_ids:
                out.write("nothing to undo\n")
                continue
            game.undo()
            while game.move_ids and game.to_move not in humans:
                game.undo()
            _show(game, out)
        else:
            try:
                game.play(text)
            except Error as e:
                out.write(f"{e}\n{HELP}\n")
                continue
            _show(game, out)
    outcome = game.outcome()
    winner = "draw" if outcome.winner is None else f"{outcome.winner.name} wins"
    out.write(f"game over: {winner} ({outcome.termination.name.lower().replace('_', ' ')}), {outcome.result}\n")
    return 0
