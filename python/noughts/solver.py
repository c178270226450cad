"""The exact solver: who wins with perfect play, by which moves, and how fast."""

from __future__ import annotations

import json
import math
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from noughts import _core
from noughts._core import Player
from noughts._game import Move
from noughts._numbers import as_int, whole_number
from noughts.book import OpeningBook, _rules_of, shipped_book_for_solve
from noughts.errors import InvalidOptionError, SearchTimeout
from noughts.mcts import check_threads
from noughts.registry import info_of, make_game
from noughts.search import check_game

__all__ = ["BestMove", "Prover", "Solution", "SolveStatus", "Solver", "best_move", "solve"]


@dataclass(frozen=True)
class Solution:
    """The solved value of a position.

    ``value`` is from the view of the player to move in the solved position,
    ``to_move`` (+1 they win, 0 draw, -1 they lose), as engines report it;
    ``value_for(player)`` gives it from either player's view. ``distance`` is
    the number of plies to the end with best play (the fastest win for the
    winner, the slowest loss for the loser), None for a draw.
    ``best_moves`` are every move that keeps the value (one of them with
    ``solve(..., all_best_moves=False)``); ``move_values`` maps
    every legal move id to its value for the mover (only when asked for with
    ``solve(..., move_values=True)``); the ``principal_variation``
    is one line of best play to the end.

    ``weak`` is True for the answer of ``solve(..., weak=True)``: the value
    only, so ``distance`` is None, ``best_moves`` holds one move that keeps the
    value (every one with ``move_values=True``) and ``principal_variation`` is
    empty. ``window`` is the part of the value such a solve asked about
    (``solve(..., weak=True, window=...)``): ``value`` and ``move_values`` are
    held to it, so a value at its upper end means "at least that", at its lower
    end "at most that", when the window is narrower than (-1, 1).
    """

    value: int
    to_move: Player
    distance: int | None
    best_moves: list[Move]
    move_values: dict[int, int]
    principal_variation: list[Move]
    nodes: int
    seconds: float
    weak: bool = False
    window: tuple[int, int] = (-1, 1)

    def value_for(self, player: Player) -> int:
        """The value from ``player``'s view: +1 they win, 0 draw, -1 they lose."""
        return self.value if player == self.to_move else -self.value

    @property
    def result(self) -> str:
        """Who wins with perfect play: "X wins", "draw" or "O wins"; a draw held to a
        narrower window says what it means ("X does not lose", "O does not win")."""
        if self.value == 0 and self.window != (-1, 1):
            return f"{self.to_move.name} does not {'lose' if self.window[1] == 0 else 'win'}"
        return {1: "X wins", 0: "draw", -1: "O wins"}[self.value_for(Player.X)]


@dataclass(frozen=True)
class SolveStatus:
    """What a solve has proved so far: the argument of ``solve(..., progress=f)``, and
    ``SearchTimeout.proven`` when a solve stops before its answer.

    ``lower <= value <= upper`` bounds the value for ``to_move`` (+1 win, 0 draw, -1 loss).
    Once a win's distance is proven, ``depth`` plies are proven too few for it (the
    fastest win takes one more; 0 while the distance is searched); once a loss's
    distance is proven, ``to_move`` lasts ``depth`` plies (0 while it is searched).
    """

    nodes: int
    seconds: float
    to_move: Player
    lower: int
    upper: int
    depth: int

    def __str__(self) -> str:
        who = self.to_move.name
        if self.lower == self.upper == 1:
            return f"{who} wins" + (f", in more than {self.depth} plies" if self.depth else "")
        if self.lower == self.upper == -1:
            return f"{who} loses" + (f", lasting at least {self.depth} plies" if self.depth else "")
        if self.lower == self.upper == 0:
            return "a draw"
        if self.upper == 0:
            return f"{who} does not win (a draw or a loss)"
        return "nothing proven yet"


class _Poll:
    """The object the C++ side polls every 20 ms (with the GIL) while a solve runs:
    reports progress and passes on the caller's stop. Whatever these raise (Ctrl-C
    included) stops the search and is raised again once it has ended."""

    def __init__(self, stop: Any, report: Callable[[], None] | None, every: float) -> None:
        self.stop, self.report, self.every = stop, report, every
        self.next_report = time.monotonic() + every
        self.error: BaseException | None = None

    def is_set(self) -> bool:
        if self.error is not None:
            return True
        try:
            if self.report is not None and time.monotonic() >= self.next_report:
                self.next_report = time.monotonic() + self.every
                self.report()
            return self.stop is not None and bool(self.stop.is_set())
        except BaseException as e:  # noqa: B036 - raised again after the search stopped
            self.error = e
            return True


def _number(name: str, value: Any, allow_none: bool = False) -> float:
    if value is None and allow_none:
        return 0.0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise InvalidOptionError(f"{name} must be a positive number{' or None' if allow_none else ''}, not {value!r}")
    return float(value)


#: The searches behind ``solve(..., method=...)``.
_METHODS = ("alphabeta", "pns")


def solve(
    game: Any,
    *,
    max_seconds: float | None = None,
    tt_mb: float = 64,
    symmetry: bool = True,
    move_values: bool = False,
    weak: bool = False,
    all_best_moves: bool = True,
    stop: Any = None,
    progress: Callable[[SolveStatus], Any] | None = None,
    method: str = "alphabeta",
    threads: int = 1,
    book: bool | OpeningBook | None = True,
    window: tuple[int, int] = (-1, 1),
) -> Solution:
    """Solves the game's position exactly, in C++ without the GIL.

    ``max_seconds`` bounds the time (SearchTimeout when it runs out; Ctrl-C
    raises KeyboardInterrupt); ``tt_mb`` bounds the transposition table's
    memory; ``symmetry`` keys the table by the position up to the board's
    symmetries; ``move_values`` also tells win, draw or loss for every legal
    move (slower: a drawn move must be told from a losing one; without it
    ``Solution.move_values`` is empty); ``weak=True`` proves only win, draw or
    loss (no distance, one best move, no principal variation: often several
    times faster); ``all_best_moves=False`` keeps the exact score and the
    principal variation but gives only its first move as ``best_moves`` (every
    best move with ``move_values=True``, which tells them all anyway; telling
    of every other move whether it keeps the value can cost far more than the
    score); ``stop``, a ``threading.Event`` that
    another thread may set, ends the search early with SearchTimeout (it is
    asked every 20 ms; what its ``is_set()`` raises stops the search and
    propagates). ``progress``, a function, is called about once a second with a
    SolveStatus (nodes, elapsed time, what is proved so far); a SearchTimeout
    carries the last one as ``proven``. Raises IllegalMoveError on a finished game.

    ``method`` picks the search: ``"alphabeta"`` (the default) proves the value
    with the distance and a fastest principal variation; ``"pns"``
    (depth-first proof-number search) proves the value and the best moves of
    positions whose trees alpha-beta cannot finish, such as Ultimate
    endgames, but not the distance (``distance`` is None) and its principal
    variation keeps the value at every move without being the fastest;
    ``all_best_moves`` is the alpha-beta's (proof-number search always gives
    every best move), and ``weak=True`` asks it for the value only.

    ``window`` (weak solves only), two of -1, 0, 1 from the mover's view, is
    the part of the value asked about: the value is held to it, and a question
    only its ends would answer is not searched. ``(0, 1)`` asks only "can the
    mover win?" (0 then means a draw or a loss), ``(-1, 0)`` only "can they
    avoid losing?" (0 means a draw or a win): about half the work, when the
    rest is known already or not wanted (e.g. the moves below a root known to
    be a draw can only draw or lose).

    ``threads`` searches with that many threads sharing one table: the same
    value, distance and best moves as one thread, sooner on large solves;
    ``nodes`` then counts every thread's. Alpha-beta's threads all search
    each question (lazy SMP); proof-number search's all search the value,
    then share out the root moves' questions.

    ``book`` (alpha-beta only): the exact scores of an OpeningBook are taken
    instead of searching below its positions. True (the default) uses the
    book noughts ships for the game's rules, if any (Connect Four's:
    docs/solver.md); False or None searches everything. The value, distance,
    every best move and move value are the same either way (the principal
    variation, and the one best move of a weak solve, may be other best play).
    """
    return _solve(
        game,
        max_seconds,
        tt_mb,
        symmetry,
        move_values,
        weak,
        all_best_moves,
        stop,
        progress,
        method,
        threads,
        book,
        window,
        None,
    )


def _solve(
    game: Any,
    max_seconds: float | None,
    tt_mb: float,
    symmetry: bool,
    move_values: bool,
    weak: bool,
    all_best_moves: bool,
    stop: Any,
    progress: Callable[[SolveStatus], Any] | None,
    method: str,
    threads: int,
    book: bool | OpeningBook | None,
    window: Any,
    table: Any,
) -> Solution:
    """solve's work, on a table kept by a Solver (a _core.SolveTable) or on its own (None)."""
    check_game(game, "solve")
    if stop is not None and not callable(getattr(stop, "is_set", None)):
        raise InvalidOptionError(f"stop must be a threading.Event (or have is_set()), not {stop!r}")
    if progress is not None and not callable(progress):
        raise InvalidOptionError(f"progress must be a function of a SolveStatus, not {progress!r}")
    if method not in _METHODS:
        raise InvalidOptionError(f"method must be one of {', '.join(map(repr, _METHODS))}, not {method!r}")
    seconds, size = _number("max_seconds", max_seconds, True), _number("tt_mb", tt_mb)
    threads = check_threads(threads)
    lower, upper = _window(window, weak)
    opening_book = _book_for(game, book, method)
    to_move, started = game.to_move, time.monotonic()
    state = _core.SolveProgress()

    def status() -> SolveStatus:
        return SolveStatus(state.nodes, time.monotonic() - started, to_move, state.lower, state.upper, state.depth)

    # Nothing to poll without a stop or a progress report: the C++ side then
    # only lets Python handle signals while it waits.
    report = None if progress is None else lambda: progress(status())
    poll = None if stop is None and report is None else _Poll(stop, report, 1.0)
    try:
        common = (game, seconds, size, bool(symmetry), bool(move_values), poll, state, bool(weak), lower, upper)
        if method == "alphabeta":
            raw = _core.solve(*common, bool(all_best_moves), threads, opening_book, table)
        else:
            raw = _core.solve_proof_number(*common, threads)
    except SearchTimeout as e:
        if poll is not None and poll.error is not None:
            raise poll.error from None
        e.proven = SolveStatus(e.nodes, e.seconds, to_move, state.lower, state.upper, state.depth)
        raise
    if poll is not None and poll.error is not None:  # raised while the search was finishing
        raise poll.error

    return _solution(raw, game, to_move, bool(weak), (lower, upper))


def _window(window: Any, weak: bool) -> tuple[int, int]:
    """A valid window as (lower, upper), or InvalidOptionError."""
    try:
        lower, upper = (as_int(v) for v in window)
    except (TypeError, ValueError):
        lower = upper = None
    if lower is None or upper is None or not -1 <= lower < upper <= 1:
        raise InvalidOptionError(f"window must be (lower, upper), two of -1, 0, 1 with lower < upper, not {window!r}")
    if (lower, upper) != (-1, 1) and not weak:
        raise InvalidOptionError(
            f"window={window!r} needs weak=True (a distance has no meaning for a value held to it)"
        )
    return lower, upper


def _book_for(game: Any, book: Any, method: str) -> Any:
    """The core book solve hands to the search, or None."""
    if book is None or book is False:
        return None
    if book is True:
        found = shipped_book_for_solve(game) if method == "alphabeta" else None
        return None if found is None else found._core
    if not isinstance(book, OpeningBook):
        raise InvalidOptionError(f"book must be True, False, None or a noughts.OpeningBook, not {book!r}")
    if method != "alphabeta":
        raise InvalidOptionError(f"a book needs method='alphabeta' (the {method!r} search does not read one)")
    if not book.applies_to(game):
        raise InvalidOptionError(f"{book!r} is a book of {book.start!r}'s rules, not of {game!r}'s")
    return book._core


def _solution(
    raw: tuple[Any, ...], game: Any, to_move: Player, weak: bool, window: tuple[int, int] = (-1, 1)
) -> Solution:
    """The Solution of the core's answer (bind_solver.hpp's solution_tuple) for the game's position."""
    value, distance, best_moves, move_values, principal_variation, nodes, seconds = raw
    # The fields are set as a frozen dataclass's __init__ would set them, without its
    # object.__setattr__ per field: a solve of a position near its end takes about a
    # microsecond in C++, which that __init__ alone would double.
    solution = object.__new__(Solution)
    solution.__dict__.update(
        value=value,
        to_move=to_move,
        distance=None if distance < 0 else distance,
        best_moves=game._moves(best_moves),
        move_values=move_values,
        principal_variation=game._moves(principal_variation),
        nodes=nodes,
        seconds=seconds,
        weak=weak,
        window=window,
    )
    return solution


class Prover:
    """Proof-number search that keeps its table from one position to the next.

    ``prove(game)`` answers what ``solve(game, method="pns", weak=True)``
    answers (the value and one move that keeps it), or None when its limits
    stop it first; what it proved on the way stays in the table, so positions
    of one game proved one after another (each move of a game as it is
    played, or its positions from the end back) cost less than fresh solves:

    >>> import noughts
    >>> game = noughts.Classic(4, 4, 3)
    >>> prover = noughts.Prover()
    >>> prover.prove(game).result
    'X wins'

    One table for each game and set of options (a table is only valid for
    the rules it was filled under); ``tt_mb`` bounds each. ``clear()``
    forgets them. One object is used by one thread at a time.
    """

    def __init__(self, *, tt_mb: float = 64, symmetry: bool = True) -> None:
        self.tt_mb = _number("tt_mb", tt_mb)
        self.symmetry = bool(symmetry)
        self._provers: dict[Any, Any] = {}

    def __repr__(self) -> str:
        return f"noughts.Prover(tt_mb={self.tt_mb!r}, symmetry={self.symmetry!r})"

    def prove(self, game: Any, *, max_seconds: float | None = None, max_nodes: int | None = None) -> Solution | None:
        """The weak solution of the game's position, or None past ``max_seconds`` or ``max_nodes``.

        Without limits it searches until it proves the value (Ctrl-C stops it).
        Raises IllegalMoveError on a finished game.
        """
        info = info_of(check_game(game, "prove"))
        assert info is not None  # check_game took a noughts game
        seconds = _number("max_seconds", max_seconds, True)
        nodes = 0 if max_nodes is None else whole_number("max_nodes", max_nodes, 1, 2**63 - 1)
        key = _rules_of(game)
        prover = self._provers.get(key)
        if prover is None:
            prover = self._provers[key] = info.prover(self.tt_mb, self.symmetry)
        to_move = game.to_move
        raw = prover.prove(game, seconds, nodes)
        return None if raw is None else _solution(raw, game, to_move, weak=True)

    def clear(self) -> None:
        """Forgets every table."""
        for prover in self._provers.values():
            prover.clear()


class Solver:
    """Alpha-beta solves that keep their table from one position to the next.

    ``solve(game)`` answers what ``noughts.solve(game)`` answers, with the same
    options; what each solve stores in the table stays there, so positions
    solved one after another share their work: each position of a game as it
    is played, the positions after each move of one position, or the same
    position asked again:

    >>> import noughts
    >>> solver = noughts.Solver()
    >>> game = noughts.Classic(4, 4, 3)
    >>> first = solver.solve(game)
    >>> again = solver.solve(game)
    >>> (again.value, again.distance) == (first.value, first.distance) and again.nodes < first.nodes
    True

    One table for each game and set of options (a table is only valid for
    the rules it was filled under); ``tt_mb`` bounds each, and ``symmetry``
    keys them as solve's does. ``clear()`` forgets them. One object is used
    by one thread at a time (a second thread solving positions of the same
    rules at once gets a RuntimeError); ``threads`` shares one solve's work
    between threads.

    ``save(path)`` writes the tables to a file and ``load(path)`` takes them
    back, in another process as well: a solve of hours, stopped by
    ``max_seconds`` or ``stop``, goes on later from what it had proved.
    """

    def __init__(self, *, tt_mb: float = 64, symmetry: bool = True) -> None:
        self.tt_mb = _number("tt_mb", tt_mb)
        self.symmetry = bool(symmetry)
        self._tables: dict[Any, Any] = {}

    def __repr__(self) -> str:
        return f"noughts.Solver(tt_mb={self.tt_mb!r}, symmetry={self.symmetry!r})"

    def solve(
        self,
        game: Any,
        *,
        max_seconds: float | None = None,
        move_values: bool = False,
        weak: bool = False,
        all_best_moves: bool = True,
        stop: Any = None,
        progress: Callable[[SolveStatus], Any] | None = None,
        threads: int = 1,
        book: bool | OpeningBook | None = True,
        window: tuple[int, int] = (-1, 1),
    ) -> Solution:
        """The solution of the game's position, as ``noughts.solve`` gives it (alpha-beta).

        A solve stopped by ``max_seconds`` or ``stop`` keeps what it proved in
        the table. Raises IllegalMoveError on a finished game.
        """
        key = _rules_of(check_game(game, "solve"))
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = _core.SolveTable(self.tt_mb)
        return _solve(
            game, max_seconds, self.tt_mb, self.symmetry, move_values, weak, all_best_moves, stop, progress,
            "alphabeta", threads, book, window, table,
        )  # fmt: skip

    def clear(self) -> None:
        """Forgets every table."""
        self._tables = {}

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes every table to the file ``path`` (replaced whole, and only once the new one is written).

        The file holds each table's entries with the rules it was filled under, keyed as this
        Solver keys them (``symmetry``), and the keys of a few positions of each game, by which
        ``load`` tells whether the noughts reading it keys positions the same way. It takes 16
        bytes an entry: at most ``tt_mb`` MB a table.
        """
        path = os.fspath(path)
        described: list[dict[str, Any]] = []  # each table's rules, as the header gives them
        tables = []
        for (cls, options), table in self._tables.items():
            info = info_of(cls)
            if info is None:  # pragma: no cover - a table is made for a registered game only
                continue
            game = make_game(info.name, **dict(options))
            described.append({"game": info.name, "options": dict(options), "keys": _sample_keys(game, self.symmetry)})
            tables.append(table)
        header = {
            "noughts": _core_version(),
            "byteorder": sys.byteorder,
            "symmetry": self.symmetry,
            "tables": described,
        }
        partial = path + ".partial"
        with open(partial, "wb") as f:
            f.write(_TABLES_MAGIC + json.dumps(header).encode() + b"\n")
        try:
            for table in tables:
                table.save(partial)
            os.replace(partial, path)
        except BaseException:
            os.unlink(partial)
            raise

    def load(self, path: str | os.PathLike[str]) -> None:
        """Takes the tables ``save`` wrote to ``path``, in place of those this Solver holds for
        the same rules (the others stay). Each is read into a table within ``tt_mb``: a smaller
        budget than the saver's keeps the entries of the larger subtrees where two meet.

        Raises InvalidOptionError for a file that is not such a table file, is damaged or cut
        short, was keyed with another ``symmetry``, or keys positions otherwise than this
        version of noughts does (then its entries would not hold: solve afresh).
        """
        path = os.fspath(path)
        with open(path, "rb") as f:
            magic = f.read(len(_TABLES_MAGIC))
            line = f.readline()
            offset = f.tell()
        if magic != _TABLES_MAGIC:
            raise InvalidOptionError(f"{path} is not a file of noughts.Solver.save")
        try:
            header = json.loads(line)
            tables, symmetry, byteorder = header["tables"], header["symmetry"], header["byteorder"]
        except (ValueError, KeyError, TypeError):
            raise InvalidOptionError(f"{path}: its header is damaged") from None
        if byteorder != sys.byteorder:
            raise InvalidOptionError(f"{path} was written on a {byteorder}-endian machine, this one is {sys.byteorder}")
        if symmetry != self.symmetry:
            raise InvalidOptionError(
                f"{path} holds tables keyed with symmetry={symmetry}, this Solver keys with symmetry={self.symmetry}"
            )
        loaded = {}
        for entry in tables:
            try:
                game = make_game(entry["game"], **entry["options"])
                keys = entry["keys"]
            except (KeyError, TypeError):
                raise InvalidOptionError(f"{path}: its header is damaged") from None
            if keys != _sample_keys(game, self.symmetry):
                raise InvalidOptionError(
                    f"{path}: noughts {header.get('noughts')} keyed the positions of {game!r} otherwise than this"
                    f" version ({_core_version()}) does, so its entries would not hold: solve afresh"
                )
            table = _core.SolveTable(self.tt_mb)
            offset = table.load(path, offset)
            loaded[_rules_of(game)] = table
        self._tables.update(loaded)


_TABLES_MAGIC = b"noughts solver tables\n"


def _core_version() -> str:
    from noughts import __version__

    return __version__


def _sample_keys(game: Any, symmetry: bool) -> list[int]:
    """The solver's keys of a few positions of the game's rules, from one seeded random game (the
    same positions wherever it runs): a table file keeps them, so that its reader can tell whether
    it keys positions the same way."""
    rng = random.Random(0)
    game = game.copy()
    keys = [game.solver_key(symmetry)]
    while len(keys) < 12 and not game.is_over():
        game.play(rng.choice(game.legal_actions()))
        if not game.is_over():
            keys.append(game.solver_key(symmetry))
    return keys


@dataclass(frozen=True)
class BestMove:
    """The answer of ``best_move``: a move, and how sure it is.

    ``exact`` is True when the move is proven best (the solver finished, or MCTS
    proved the position); then ``value`` is the exact value for ``to_move`` (+1, 0,
    -1). Otherwise ``value`` is MCTS's mean result of the move (-1 .. +1).
    ``method`` says which search answered: "solver" or "mcts"; ``solution`` and
    ``search`` hold its full result. It stands for its move where a move is taken
    (``game.play(answer)``), and has the move's ``id`` and ``name``.
    """

    move: Move
    exact: bool
    value: float
    to_move: Player
    method: str
    seconds: float
    solution: Solution | None = field(default=None, repr=False)
    search: Any = field(default=None, repr=False)  # a noughts.mcts.SearchResult when MCTS answered

    # It stands for its move: game.play(best_move(game, seconds=1)) plays it.
    @property
    def id(self) -> int:
        return self.move.id

    @property
    def name(self) -> str:
        return self.move.name

    def __index__(self) -> int:
        return self.move.id

    def __str__(self) -> str:
        return self.move.name


#: The share of best_move's time given to the solver before MCTS takes the rest.
SOLVER_SHARE = 0.5


def best_move(
    game: Any,
    seconds: float | None = None,
    *,
    max_seconds: float | None = None,
    seed: int = 0,
    tt_mb: float = 64,
    stop: Any = None,
) -> BestMove:
    """The best move found within ``seconds`` (``max_seconds`` is the same), for every game.

    The exact solver runs first; when it finishes in its share of the time the
    answer is exact, the fastest win when winning. Otherwise MCTS searches for the
    rest of the time and its best move is the answer (``exact`` False unless it
    proved the position). Without a time the solver runs to the end, as ``solve``.
    ``stop`` (a threading.Event) ends the solver early too.
    """
    check_game(game, "best_move")
    if seconds is not None and max_seconds is not None and seconds != max_seconds:
        raise InvalidOptionError(f"give seconds or max_seconds, not both ({seconds!r} and {max_seconds!r})")
    budget = seconds if seconds is not None else max_seconds
    started = time.monotonic()
    if budget is None:
        s = solve(game, tt_mb=tt_mb, stop=stop)
        return BestMove(s.principal_variation[0], True, float(s.value), game.to_move, "solver", s.seconds, s)
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not (0 < budget < math.inf):
        raise InvalidOptionError(f"seconds must be a finite number > 0, not {budget!r}")
    from noughts.mcts import MCTS

    to_move = game.to_move
    try:
        s = solve(game, max_seconds=budget * SOLVER_SHARE, tt_mb=tt_mb, stop=stop)
    except SearchTimeout:
        pass
    else:
        return BestMove(
            s.principal_variation[0], True, float(s.value), to_move, "solver", time.monotonic() - started, s
        )
    stopped = stop is not None and stop.is_set()
    left = budget - (time.monotonic() - started)
    if stopped or left <= 0:
        r = MCTS(seed=seed).search(game, iterations=100)  # out of time: a move all the same
    else:
        r = MCTS(seed=seed).search(game, seconds=left)
    value = r.value if r.proven_value is None else float(r.proven_value)
    return BestMove(r.best_move, r.proven, value, to_move, "mcts", time.monotonic() - started, search=r)
