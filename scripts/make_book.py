"""Computes an opening book: the exact score of every position a number of plies from the start.

    python scripts/make_book.py --plies 4 --out python/noughts/books/connect4.txt [--workers 2]

The book holds one line per position (up to the board's symmetries) that is `--plies` moves
from the start and not over: the moves that reach it, the value for the player to move (1
win, 0 draw, -1 loss), the distance in plies to the end with best play (0 for a draw), and
after a colon one line of best play to the end (the fastest win or slowest loss).
A solve takes these scores instead of searching below them (docs/solver.md, "Opening
books"), so any position with fewer moves played is answered from the book's scores alone.

Each position is solved without a book, those nearest the middle columns first. Positions
one move apart from the same parent go to one worker together, which solves them in turn on
one table (a noughts.Solver per worker): siblings share most of their search. Lines are added to --out as they are
solved, and positions it already holds are skipped: a stopped run goes on where it stopped
when started again, and a run with more --plies adds the next depth to the same book. The file is sorted, with a header naming the
depths it holds ("# moves played: 4-5"), when a run starts and when it ends. The game is
Classic with gravity (Connect Four by default); --rows, --cols and -k pick another board.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

import noughts


def game_of(args: argparse.Namespace) -> Any:
    return noughts.Classic(args.rows, args.cols, args.k, gravity=True)


def canonical(g: Any) -> str:
    """The position's string, the same for every position equal up to the board's symmetries."""
    return min(g.symmetric(s).to_string() for s in range(g.num_symmetries))


def frontier(start: Any, plies: int) -> list[list[str]]:
    """One move list (move names) for each position `plies` moves from `start` that is not over,
    up to symmetry, in the order first met."""
    found: dict[str, list[str]] = {}

    def walk(g: Any, moves: list[str]) -> None:
        if g.is_over():
            return
        if len(moves) == plies:
            found.setdefault(canonical(g), list(moves))
            return
        for m in g.legal_actions():
            name = g.move_name(m)
            g.play(m)
            walk(g, moves + [name])
            g.undo()

    walk(start, [])
    return list(found.values())


def after(start: Any, moves: list[str]) -> Any:
    for name in moves:
        start.play(start.parse_move(name))
    return start


def position_moves(line: str) -> list[str]:
    """The moves that reach a book line's position."""
    return line.partition(":")[0].split()[:-2]


def game_line(args: argparse.Namespace) -> str:
    return f"# game: classic {json.dumps(game_of(args).options(), sort_keys=True)}"


def header(args: argparse.Namespace, body: list[str]) -> list[str]:
    plies = [len(position_moves(line)) for line in body]
    return [
        "# noughts opening book, made by scripts/make_book.py",
        game_line(args),
        *([f"# moves played: {min(plies)}-{max(plies)}"] if plies else []),
        "# moves from the start, value for the player to move (1 win, 0 draw, -1 loss), distance in plies (0: draw),"
        " ':', a line of best play to the end",
    ]


def write_sorted(args: argparse.Namespace, body: list[str]) -> None:
    """Writes the book, its positions by moves played, through a new file: a run stopped
    meanwhile leaves the old one whole."""
    body = sorted(body, key=lambda line: (len(position_moves(line)), line))
    new = args.out.with_name(args.out.name + ".new")
    new.write_text("\n".join(header(args, body) + body) + "\n")
    os.replace(new, args.out)


_solver: noughts.Solver | None = None  # each worker's, kept from one task to the next


def start_worker(tt_mb: float) -> None:
    global _solver
    _solver = noughts.Solver(tt_mb=tt_mb)


def solve_siblings(task: tuple[argparse.Namespace, list[list[str]]]) -> list[tuple[str, float, int]]:
    """Solves positions that share a parent, in turn on this worker's table."""
    args, siblings = task
    assert _solver is not None, "start_worker runs first in each worker"
    solved = []
    for moves in siblings:
        g = after(game_of(args), moves)
        started = time.process_time()
        s = _solver.solve(g, all_best_moves=False, book=False)
        line = f"{' '.join(moves)} {s.value} {s.distance or 0} : {' '.join(m.name for m in s.principal_variation)}"
        solved.append((line, time.process_time() - started, s.nodes))
    return solved


def by_parent(todo: list[list[str]]) -> list[list[list[str]]]:
    """The move lists grouped by their position's parent, the groups in the order first met."""
    groups: dict[tuple[str, ...], list[list[str]]] = {}
    for moves in todo:
        groups.setdefault(tuple(moves[:-1]), []).append(moves)
    return list(groups.values())


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--plies", type=int, required=True, help="moves played in the book's positions")
    p.add_argument("--out", type=Path, required=True, help="the book file (resumed when it exists)")
    p.add_argument("--rows", type=int, default=6)
    p.add_argument("--cols", type=int, default=7)
    p.add_argument("-k", type=int, default=4)
    p.add_argument("--workers", type=int, default=1, help="positions solved at once, one process each")
    p.add_argument("--tt-mb", type=float, default=256, help="each worker's table")
    args = p.parse_args(argv)

    text = args.out.read_text() if args.out.exists() else ""
    lines = text.splitlines()
    if lines and game_line(args) not in lines:
        sys.exit(f"{args.out} is a book of another game: start a new file")
    if text and not text.endswith("\n"):
        lines.pop()  # a line cut short by a stopped run: solved again
    body = [line for line in lines if line and not line.startswith("#")]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_sorted(args, body)
    done = {canonical(after(game_of(args), position_moves(line))) for line in body}
    todo = [m for m in frontier(game_of(args), args.plies) if canonical(after(game_of(args), m)) not in done]
    # The positions nearest the middle first, which games reach most: a run stopped early has them.
    middle = (args.cols - 1) / 2
    todo.sort(key=lambda moves: sum(abs(game_of(args).parse_move(m) - middle) for m in moves))
    print(f"{len(todo)} positions {args.plies} moves in to solve; the book holds {len(body)}", flush=True)
    cpu, started = 0.0, time.monotonic()
    n = 0
    tasks = [(args, group) for group in by_parent(todo)]
    with args.out.open("a") as out, multiprocessing.Pool(args.workers, start_worker, (args.tt_mb,)) as pool:
        for solved in pool.imap_unordered(solve_siblings, tasks):
            for line, seconds, nodes in solved:
                out.write(line + "\n")
                out.flush()
                n += 1
                cpu += seconds
                print(
                    f"{n}/{len(todo)} {line}  {seconds:.2f} s {nodes} nodes "
                    f"(CPU so far {cpu:.0f} s, wall {time.monotonic() - started:.0f} s)",
                    flush=True,
                )
    body = [line for line in args.out.read_text().splitlines() if line and not line.startswith("#")]
    write_sorted(args, body)
    print(f"{args.out}: {len(body)} positions")


if __name__ == "__main__":
    main()
