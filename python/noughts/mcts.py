"""Monte Carlo tree search for every game, and a match runner (docs/mcts.md).

The search runs in C++ (cpp/include/noughts/search/mcts.hpp) without the GIL;
Ctrl-C stops it. One MCTS object holds one tree per game type it has searched
and reuses it when the next position follows from the last one.

>>> import noughts
>>> game = noughts.Classic()
>>> result = noughts.MCTS(seed=1).search(game, iterations=100_000)
>>> result.proven, result.proven_value   # 3x3 is a draw, and the search proves it
(True, 0)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from noughts._core import Player
from noughts._game import Move
from noughts._numbers import as_int, whole_number
from noughts.errors import InvalidOptionError
from noughts.registry import GameInfo, info_of

__all__ = [
    "DEFAULT_C",
    "DEFAULT_MAX_NODES",
    "DEFAULT_MINIMAX",
    "DEFAULT_PUCT",
    "DEFAULT_PUCT_TEMPERATURE",
    "GameRecord",
    "MCTS",
    "MatchResult",
    "MoveStats",
    "SearchResult",
    "match",
]

#: The default UCT exploration constant, for rewards +1 / 0 / -1.
DEFAULT_C = 1.0
DEFAULT_MINIMAX = 0.3
#: With an evaluation: PUCT's exploration constant, and the temperature of the softmax of
#: the children's evaluations that gives each move its prior (docs/mcts.md).
DEFAULT_PUCT = 2.0
DEFAULT_PUCT_TEMPERATURE = 0.3
#: The default bound on tree nodes (24 bytes each, 28 in a game with an evaluation such as Ultimate: 224 MiB when full), all threads together.
DEFAULT_MAX_NODES = 1 << 23


class MoveStats(NamedTuple):
    """What the search found about one root move, for the player to move at the root.

    A named tuple: a search returns one for each of up to 81 moves, and a tuple is
    made several times faster than a frozen dataclass.
    """

    move: Move
    visits: int
    #: Mean result of the iterations through this move: +1 win, 0 draw, -1 loss.
    value: float
    #: The exact value when the search proved it (+1 forced win, 0 draw, -1 forced loss), else None.
    proven_value: int | None


@dataclass(frozen=True)
class SearchResult:
    """The outcome of MCTS.search. Values are for the player to move at the searched position."""

    best_move: Move
    #: The proven value if the position is proven, else the best move's mean result (-1 .. +1).
    value: float
    #: Whether the search proved the position's value (then `proven_value` is +1, 0 or -1).
    proven: bool
    proven_value: int | None
    #: Every legal move the search visited, most visited first.
    moves: tuple[MoveStats, ...]
    #: The principal variation: the best move and the expected continuation.
    pv: tuple[Move, ...]
    #: Iterations done by this search (all threads); 0 when a reused tree was already proven.
    iterations: int
    #: Root visits inherited from earlier searches (tree reuse).
    reused_visits: int
    seconds: float
    #: Tree nodes in use after the search, and whether the node bound stopped the tree from growing.
    nodes: int
    tree_full: bool
    to_move: Player

    def value_for(self, player: Player) -> float:
        """``value`` from ``player``'s view (the negation of it for the player not to move)."""
        return self.value if player == self.to_move else -self.value

    def stats(self, move: Any) -> MoveStats:
        """The statistics of one root move (id, Move or notation); KeyError if it was not visited."""
        for s in self.moves:
            if (s.move.name == move) if isinstance(move, str) else (s.move.id == int(move)):
                return s
        raise KeyError(move)


def _check_int(name: str, value: Any, minimum: int, *, counted: bool = True) -> int:
    """A whole number >= minimum; a count (`counted`) must also fit the C++ side's 64 bits."""
    number = whole_number(name, value, minimum)
    if counted and number >= 2**63:
        raise InvalidOptionError(f"{name} must be below 2**63, not {number}")
    return number


def _check_number(name: str, value: Any, low: float, high: float, allowed: str) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise InvalidOptionError(f"{name} must be {allowed}, not {value!r}")
    return float(value)


def _check_weight(name: str, value: Any) -> float:
    return _check_number(name, value, 0, 1, "a number from 0 to 1")


def check_c(value: Any) -> float:
    """The UCT exploration constant: a finite number >= 0 (for MCTS and the engine's setoption)."""
    number = as_int(value)
    if number is None and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise InvalidOptionError(f"c must be a finite number >= 0, not {value!r}")
    c = float(value if number is None else number)
    if not math.isfinite(c) or c < 0:
        raise InvalidOptionError(f"c must be a finite number >= 0, not {value!r}")
    return c


def check_threads(value: Any) -> int:
    """Threads of a search: 1 to 256 (the C++ side's bound), for MCTS and the engine's setoption."""
    threads = _check_int("threads", value, -(2**63))
    if not 1 <= threads <= 256:
        raise InvalidOptionError(f"threads must be between 1 and 256, not {threads}")
    return threads


def _check_budget(iterations: Any, seconds: Any) -> tuple[int, float]:
    """Validated budgets as the C++ side takes them (0 = no limit)."""
    if iterations is not None:
        iterations = _check_int("iterations", iterations, 1)
    if seconds is not None:
        whole = as_int(seconds)
        if whole is not None:
            seconds = whole
        elif isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise InvalidOptionError(f"seconds must be a number, not {seconds!r}")
        if not math.isfinite(seconds) or seconds <= 0:
            raise InvalidOptionError(f"seconds must be a finite number > 0, not {seconds!r}")
        # A deadline past ~290 years would overflow the clock: it is no limit at all.
        seconds = min(float(seconds), 1e9)
    if iterations is None and seconds is None:
        raise InvalidOptionError("a search needs a budget: pass iterations and/or seconds")
    return (iterations or 0), float(seconds or 0.0)


def _info(game: Any) -> GameInfo:
    """The registry's descriptor of a game object."""
    info = None if isinstance(game, type) else info_of(game)
    if info is None:
        raise InvalidOptionError(f"MCTS searches noughts games (Classic, Ultimate, Quantum), not {type(game).__name__}")
    return info


class MCTS:
    """Monte Carlo tree search (UCT with MCTS-solver) for Classic, Ultimate and Quantum.

    >>> import noughts
    >>> mcts = noughts.MCTS(seed=7, seconds=0.05)   # a default budget makes it a player
    >>> game = noughts.Ultimate()
    >>> game.play(mcts(game))                       # calling it returns its best move

    Arguments:
        seed: the random seed. With threads=1 (or with iteration budgets), the same
            calls give the same results.
        c: the UCT exploration constant (rewards are +1 / 0 / -1).
        threads: independent trees searched in parallel and merged at the root.
        max_nodes: the bound on tree nodes, all threads together (24 bytes a node, 28 with
            an evaluation). When the tree reaches it, it stops growing and the search
            goes on with rollouts from the leaves it reaches.
        reuse: keep the subtree of a position reached from the previous search's position.
        heuristics: use the game's own knowledge where it has any (Ultimate's rollouts
            take a win at once and avoid handing the opponent one, its prior and its
            learned evaluation); False searches with plain UCT and uniformly random
            rollouts.
        prior_visits: the virtual losses a move the game discourages starts with (Ultimate:
            a move that gives the opponent a free move), with heuristics; 0 for none.
        evaluation: use the game's learned evaluation (Ultimate), with heuristics: the
            children of a node are evaluated when it is expanded, each node keeps the
            minimax of those values, and selection blends it with the mean result
            (implicit minimax backups, docs/mcts.md). Games without an evaluation
            ignore it.
        minimax: with evaluation, the weight in [0, 1] of a move's backed-up minimax
            value against its mean result when selecting moves.
        rollout_weight: with evaluation, the weight in [0, 1] of a rollout's result in the
            value of a new leaf (1: rollouts alone; 0: the evaluations alone).
        puct: with evaluation, selection is PUCT: a move's value plus
            puct * prior * sqrt(parent visits) / (1 + visits), its prior the softmax of
            the children's evaluations; 0 selects by UCT with c instead (the default in
            games without an evaluation).
        puct_temperature: the temperature of that softmax, 0.01 to 100 (lower: the
            moves that look best get more of the search).
        iterations, seconds: the default budget of search(), best_move() and calls.
    """

    def __init__(
        self,
        seed: int = 0,
        c: float = DEFAULT_C,
        threads: int = 1,
        max_nodes: int = DEFAULT_MAX_NODES,
        *,
        reuse: bool = True,
        heuristics: bool = True,
        evaluation: bool = True,
        prior_visits: int = 10,
        minimax: float = DEFAULT_MINIMAX,
        rollout_weight: float = 1.0,
        puct: float = DEFAULT_PUCT,
        puct_temperature: float = DEFAULT_PUCT_TEMPERATURE,
        iterations: int | None = None,
        seconds: float | None = None,
    ) -> None:
        seed = _check_int("seed", seed, -(2**63), counted=False)  # any int: its low 64 bits seed the generator
        c = check_c(c)
        threads = check_threads(threads)
        max_nodes = _check_int("max_nodes", max_nodes, 256 * threads)
        if not isinstance(reuse, bool):
            raise InvalidOptionError(f"reuse must be True or False, not {reuse!r}")
        for flag, value in (("heuristics", heuristics), ("evaluation", evaluation)):
            if not isinstance(value, bool):
                raise InvalidOptionError(f"{flag} must be True or False, not {value!r}")
        if iterations is not None or seconds is not None:
            iterations = None if iterations is None else _check_int("iterations", iterations, 1)
            _check_budget(iterations, seconds)
        self.seed = seed
        self.c = c
        self.threads = threads
        self.max_nodes = max_nodes
        self.reuse = reuse
        self.heuristics = heuristics
        self.evaluation = evaluation
        self.prior_visits = _check_int("prior_visits", prior_visits, 0)
        if self.prior_visits > 1000:
            raise InvalidOptionError(f"prior_visits must be between 0 and 1000, not {prior_visits}")
        self.minimax = _check_weight("minimax", minimax)
        self.rollout_weight = _check_weight("rollout_weight", rollout_weight)
        self.puct = _check_number("puct", puct, 0, math.inf, "a finite number >= 0 (0: UCT)")
        self.puct_temperature = _check_number(
            "puct_temperature", puct_temperature, 0.01, 100, "a number from 0.01 to 100"
        )
        self.iterations = iterations
        self.seconds = seconds
        self._searchers: dict[Any, Any] = {}

    def __repr__(self) -> str:
        budget = "".join(
            f", {k}={v!r}" for k, v in (("iterations", self.iterations), ("seconds", self.seconds)) if v is not None
        )
        extra = "" if self.heuristics else ", heuristics=False"
        extra += f", prior_visits={self.prior_visits}" if self.prior_visits != 10 else ""
        extra += "" if self.evaluation else ", evaluation=False"
        extra += f", minimax={self.minimax}" if self.minimax != DEFAULT_MINIMAX else ""
        extra += f", rollout_weight={self.rollout_weight}" if self.rollout_weight != 1 else ""
        extra += f", puct={self.puct}" if self.puct != DEFAULT_PUCT else ""
        extra += (
            f", puct_temperature={self.puct_temperature}" if self.puct_temperature != DEFAULT_PUCT_TEMPERATURE else ""
        )
        return (
            f"noughts.MCTS(seed={self.seed}, c={self.c}, threads={self.threads}, max_nodes={self.max_nodes}"
            f"{extra}{budget})"
        )

    def _searcher(self, game: Any) -> Any:
        info = _info(game)
        searcher = self._searchers.get(info.name)
        if searcher is None:
            searcher = info.mcts(
                self.seed & (2**64 - 1),
                self.c,
                self.threads,
                self.max_nodes,
                self.reuse,
                self.heuristics,
                self.evaluation,
                self.prior_visits,
                self.minimax,
                self.rollout_weight,
                self.puct,
                self.puct_temperature,
            )
            self._searchers[info.name] = searcher
        return searcher

    def search(self, game: Any, iterations: int | None = None, seconds: float | None = None) -> SearchResult:
        """Searches the game's position for the player to move.

        The budget: `iterations` and/or `seconds` (the search stops at the first one
        reached, or as soon as the position is proven); without either, the budget
        given to the constructor. Raises IllegalMoveError when the game is over.
        """
        r, to_move = self._run(game, iterations, seconds)
        visited = [s for s in r["moves"] if s[1] > 0]
        named = game._moves([r["best_move"], *(s[0] for s in visited), *r["pv"]])
        moves = tuple(
            MoveStats(move, v, score / v if v else 0.0, p) for move, (_, v, score, p) in zip(named[1:], visited)
        )
        return SearchResult(
            best_move=named[0],
            value=r["value"],
            proven=r["proof"] is not None,
            proven_value=r["proof"],
            moves=moves,
            pv=tuple(named[1 + len(visited) :]),
            iterations=r["iterations"],
            reused_visits=r["reused_visits"],
            seconds=r["seconds"],
            nodes=r["nodes"],
            tree_full=r["tree_full"],
            to_move=to_move,
        )

    def best_move(self, game: Any, iterations: int | None = None, seconds: float | None = None) -> Move:
        """The move search() recommends (without building the rest of its result)."""
        best = self._run(game, iterations, seconds)[0]["best_move"]
        return game._moves([best])[0]  # type: ignore[no-any-return]

    def __call__(self, game: Any) -> Move:
        """The best move with the default budget: an MCTS with a budget is a player for match()."""
        return self.best_move(game)

    def _run(self, game: Any, iterations: int | None, seconds: float | None) -> tuple[dict[str, Any], Player]:
        """The C++ search's answer (a dict) within the budget given, or the constructor's, and
        the player to move at the position searched."""
        if iterations is None and seconds is None:
            iterations, seconds = self.iterations, self.seconds
        n, s = _check_budget(iterations, seconds)
        searcher = self._searcher(game)
        # Read before the search: the result describes the position searched, even if the game moves on meanwhile.
        to_move = game.to_move
        return searcher.search(game, n, s), to_move

    def clear(self) -> None:
        """Forgets every tree: the next search starts afresh (the random stream goes on)."""
        for searcher in self._searchers.values():
            searcher.clear()


# ---- matches ------------------------------------------------------------------

PlayerLike = Callable[[Any], Any]


@dataclass(frozen=True)
class GameRecord:
    """One game of a match."""

    moves: tuple[int, ...]
    #: Which side player A played.
    a_played: Player
    #: The winner (None for a draw).
    winner: Player | None

    @property
    def a_score(self) -> float:
        """1 if A won, 0.5 for a draw, 0 if A lost."""
        return 0.5 if self.winner is None else float(self.winner == self.a_played)


@dataclass(frozen=True)
class MatchResult:
    """The score of a match from player A's side."""

    wins: int
    draws: int
    losses: int
    records: tuple[GameRecord, ...]

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """A's mean points per game: 1 a win, 0.5 a draw."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    @property
    def error(self) -> float:
        """The half-width of the 95% confidence interval of `score` (normal approximation)."""
        from noughts.arena import score_half_width

        return score_half_width(self.wins, self.draws, self.losses)

    def __str__(self) -> str:
        return (
            f"+{self.wins} ={self.draws} -{self.losses} in {self.games} games: "
            f"score {100 * self.score:.1f}% ± {100 * self.error:.1f}%"
        )


def match(
    player_a: PlayerLike,
    player_b: PlayerLike,
    game_factory: Callable[[], Any],
    games: int = 100,
    *,
    a_starts: bool = True,
    on_game: Callable[[int, GameRecord], None] | None = None,
) -> MatchResult:
    """Plays `games` games between two players, colours alternating; returns A's score.

    A player is a callable taking the game (a copy, history included) and returning
    a move (an id, a Move or notation): a function, or an MCTS made with a default
    budget (``MCTS(seed=1, iterations=1000)``). Game i (from 0) has A as X when i is
    even (odd when `a_starts` is False). `game_factory()` makes each new game, e.g.
    ``noughts.Ultimate`` or ``lambda: noughts.Classic(4, 4)``. `on_game(i, record)` is
    called after each game (progress reports).
    """
    games = _check_int("games", games, 0)
    for name, p in (("player_a", player_a), ("player_b", player_b)):
        if not callable(p):
            raise InvalidOptionError(f"{name} must be callable (a function of the game, or an MCTS), not {p!r}")
        if isinstance(p, MCTS) and p.iterations is None and p.seconds is None:
            raise InvalidOptionError(f"{name} is an MCTS without a budget: make it with iterations= or seconds=")
    wins = draws = losses = 0
    records = []
    for i in range(games):
        a_is_x = (i % 2 == 0) == a_starts
        game = game_factory()
        while not game.is_over():
            x_to_move = game.to_move == Player.X
            mover = player_a if x_to_move == a_is_x else player_b
            game.play(mover(game.copy()))
        record = GameRecord(tuple(game.move_ids), Player.X if a_is_x else Player.O, game.winner)
        records.append(record)
        if record.winner is None:
            draws += 1
        elif record.winner == record.a_played:
            wins += 1
        else:
            losses += 1
        if on_game is not None:
            on_game(i, record)
    return MatchResult(wins, draws, losses, tuple(records))
