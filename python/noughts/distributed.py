"""A solve split over many processes or machines: the positions a few plies below the root
are solved as separate tasks by any pool's ``map`` (Ray's, multiprocessing's, an executor's),
and their results combined by the minimax above them (docs/solver.md).

>>> from ray.util.multiprocessing import Pool          # doctest: +SKIP
>>> with Pool() as pool:                                # the cluster of ray.init(), or RAY_ADDRESS
...     s = noughts.distributed.solve(game, plies=2, map=pool.map)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from noughts.errors import IllegalMoveError, InvalidOptionError
from noughts.registry import game_info, info_of
from noughts.search import check_game
from noughts.solver import Solution
from noughts.solver import solve as solve_here

__all__ = ["frontier", "solve"]

#: Scores as the C++ solver keeps them, from the mover's view: WIN - d for a win in d plies,
#: -(WIN - d) for a loss in d plies, 0 for a draw.
_WIN = 1000

#: A map over tasks: ``map(function, items)``, in the items' order.
MapLike = Callable[[Callable[[Any], Any], Iterable[Any]], Iterable[Any]]


def frontier(game: Any, plies: int) -> list[str]:
    """The distinct positions (as position strings) ``plies`` plies below ``game`` that are not
    over: the tasks of a split solve. A line that ends sooner leaves none."""
    check_game(game, "frontier")
    plies = _check_plies(plies)
    seen: dict[str, None] = {}

    def walk(g: Any, left: int) -> None:
        if g.is_over():
            return
        if left == 0:
            seen.setdefault(g.to_string(), None)
            return
        for m in g.legal_actions():
            child = g.copy()
            child.play(m)
            walk(child, left - 1)

    walk(game, plies)
    return list(seen)


def _check_plies(plies: Any) -> int:
    if isinstance(plies, bool) or not isinstance(plies, int) or not 1 <= plies <= 8:
        raise InvalidOptionError(f"plies must be a whole number 1 .. 8, not {plies!r}")
    return plies


def _solve_task(task: tuple[str, str, bool, float, int]) -> tuple[int, list[int], int]:
    """One frontier position, solved where the pool runs it: its score, principal variation and nodes."""
    name, position, weak, tt_mb, threads = task
    g = game_info(name).cls.from_string(position)
    s = solve_here(g, weak=weak, all_best_moves=False, tt_mb=tt_mb, threads=threads)
    score = s.value if weak else (0 if s.value == 0 else s.value * (_WIN - (s.distance or 0)))
    return score, [m.id for m in s.principal_variation], s.nodes


def solve(
    game: Any,
    *,
    plies: int = 2,
    map: MapLike | None = None,  # noqa: A002 - the name says what is passed: a pool's map
    weak: bool = False,
    tt_mb: float = 64,
    threads: int = 1,
) -> Solution:
    """Solves ``game`` as ``noughts.solve`` does, as one task per position ``plies`` plies below
    it (``frontier``), run by ``map`` (e.g. ``pool.map`` of ``ray.util.multiprocessing.Pool``,
    ``multiprocessing.Pool`` or a ``concurrent.futures`` executor; the built-in ``map``, one
    task after another here, by default), then combined by the minimax above them.

    The answer is ``noughts.solve``'s: the value, the distance, every best move, and a
    principal variation to the end (when ``weak``: the value and one best move); ``nodes`` adds the
    tasks' nodes, ``seconds`` is the wall time. Each task solves with ``tt_mb`` of table and
    ``threads`` threads where it runs. Tasks travel as position strings, so a pool of other
    machines needs only noughts installed.
    """
    check_game(game, "solve")
    plies = _check_plies(plies)
    if game.is_over():
        raise IllegalMoveError("the game is over: there is nothing to solve")
    if map is not None and not callable(map):
        raise InvalidOptionError(f"map must be a function map(function, items), such as pool.map, not {map!r}")
    info = info_of(game)
    if info is None:  # pragma: no cover - check_game accepts noughts' games only
        raise InvalidOptionError(f"solve needs a noughts game, not {game!r}")
    started = time.monotonic()
    positions = frontier(game, plies)
    tasks = [(info.name, p, bool(weak), float(tt_mb), int(threads)) for p in positions]
    results = list((map or _serial_map)(_solve_task, tasks))
    if len(results) != len(tasks):
        raise InvalidOptionError(f"map returned {len(results)} results for {len(tasks)} tasks")
    solved = dict(zip(positions, results, strict=True))
    known: dict[tuple[str, int], int] = {}  # positions above the frontier, met again by transposition or the line

    def score(g: Any, left: int) -> int:
        """The exact score (the value, when weak) of a position that is not over, for its mover."""
        if left == 0:
            return int(solved[g.to_string()][0])
        key = (g.to_string(), left)
        if key not in known:
            known[key] = max(child_score(g, m, left) for m in g.legal_actions())
        return known[key]

    def child_score(g: Any, m: int, left: int) -> int:
        """The score for g's mover of playing m (a move's ply is one more to the end)."""
        child = g.copy()
        child.play(m)
        if child.is_over():
            win = 1 if weak else _WIN - 1
            return 0 if child.winner is None else (win if child.winner == g.to_move else -win)
        s = score(child, left - 1)
        s = s if weak else s - (s > 0) + (s < 0)
        return s if child.to_move == g.to_move else -s

    moves = {m: child_score(game, m, plies) for m in game.legal_actions()}
    best = max(moves.values())
    value = (best > 0) - (best < 0)
    best_moves = sorted(m for m, s in moves.items() if (s > 0) - (s < 0) == value)
    if weak:  # as noughts.solve's weak answer: one move that keeps the value
        best_moves = best_moves[:1]
    line: list[int] = []
    if not weak:  # the moves that keep the exact score down to the frontier, then its line
        g, target, left = game.copy(), best, plies
        while not g.is_over() and left > 0:
            m = next(m for m in g.legal_actions() if child_score(g, m, left) == target)
            child = g.copy()
            child.play(m)
            if not child.is_over():  # the child's own score: a ply nearer the end, from its mover's view
                nearer = target + (target > 0) - (target < 0)
                target = nearer if child.to_move == g.to_move else -nearer
            line.append(m)
            g, left = child, left - 1
        if not g.is_over():
            line += solved[g.to_string()][1]
    return Solution(
        value=value,
        to_move=game.to_move,
        distance=None if weak or value == 0 else _WIN - abs(best),
        best_moves=game._moves(best_moves),
        move_values={},
        principal_variation=game._moves(line),
        nodes=sum(r[2] for r in results),
        seconds=time.monotonic() - started,
        weak=bool(weak),
    )


def _serial_map(function: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
    return [function(item) for item in items]
