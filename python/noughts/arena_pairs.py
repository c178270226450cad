"""Two versions of an engine compared game by game against one opponent (docs/arena.md).

Against a third engine, two matches played on the same openings (the same
``--seed``, ``--opening-plies`` and number of games) pair up game by game:
game i of both started from the same position, with the tested engine on the
same side. The difference of the two results, pair by pair, cancels most of
what the opening decides, so its interval is narrower than the two scores'
intervals suggest, and it needs no match between the two versions, which may
rank differently against each other than against the opponent that counts.

:func:`compare_matches` takes the matches' :class:`~noughts.arena.GameResult` records, as
run_match gives them or as :func:`read_games` reads them back from
``benchmarks/arena.py --jsonl``; ``python benchmarks/arena.py --compare
FIRST.jsonl SECOND.jsonl`` prints the comparison.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from noughts.arena import GameResult, mean_half_width
from noughts.errors import InvalidOptionError

__all__ = ["PairedComparison", "compare_matches", "read_games"]


@dataclass(frozen=True)
class PairedComparison:
    """The tested engine of each match (its engine A) against their common opponent."""

    first: str
    second: str
    opponent: str
    #: The games each match's tested engine scored (1, 0.5, 0), in pairs' order.
    first_scores: tuple[float, ...]
    second_scores: tuple[float, ...]

    @property
    def pairs(self) -> int:
        return len(self.first_scores)

    @property
    def difference(self) -> tuple[float, float, float]:
        """The second's score minus the first's, with the ends of its 95 % interval (nan below 2 pairs)."""
        diffs = [b - a for a, b in zip(self.first_scores, self.second_scores)]
        return _mean_interval(diffs)

    def report(self) -> str:
        a, a_low, a_high = _mean_interval(self.first_scores)
        b, b_low, b_high = _mean_interval(self.second_scores)
        d, d_low, d_high = self.difference
        return "\n".join(
            [
                f"against {self.opponent}, {self.pairs} games paired by opening and colour:",
                f"  first  {self.first}: {_pct(a)} % ({_pct(a_low)} .. {_pct(a_high)})",
                f"  second {self.second}: {_pct(b)} % ({_pct(b_low)} .. {_pct(b_high)})",
                f"  difference, second - first: {_points(d)} points ({_points(d_low)} .. {_points(d_high)})",
            ]
        )


def read_games(path: str | Path) -> list[GameResult]:
    """The games of a --jsonl file, one a line; InvalidOptionError, naming the line, for one that is not a game."""
    games = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.strip():
                try:
                    games.append(GameResult.from_json(line))
                except InvalidOptionError as e:
                    raise InvalidOptionError(f"{path}, line {number}: {e}") from None
    return games


def compare_matches(first: Sequence[GameResult], second: Sequence[GameResult]) -> PairedComparison:
    """Pairs game i of the two matches; over as many games as both have (SPRT may stop one early).

    Each match's tested engine is the one that played X in its first game (run_match's
    engine A). Raises InvalidOptionError when the matches do not pair up: a game that
    started from another opening, or with the tested engine on the other side.
    """
    n = min(len(first), len(second))
    if n == 0:
        raise InvalidOptionError("a comparison needs games in both matches")
    for which, games in (("first", first), ("second", second)):
        if games[0].x == games[0].o:
            raise InvalidOptionError(
                f"both engines of the {which} match are called {games[0].x!r}: name them (--a-name, --b-name)"
            )
    first_name, second_name, opponent = first[0].x, second[0].x, first[0].o
    first_scores, second_scores = [], []
    for i in range(n):
        g, h = first[i], second[i]
        g_x, h_x = _tested_is_x(g, first_name, i, "first"), _tested_is_x(h, second_name, i, "second")
        if g.opening != h.opening or g_x != h_x:
            raise InvalidOptionError(
                f"game {i} started from another opening or with the sides swapped in the two matches: "
                "play both with the same --seed, --opening-plies and --games"
            )
        first_scores.append(g.score_for(g_x))
        second_scores.append(h.score_for(h_x))
    return PairedComparison(first_name, second_name, opponent, tuple(first_scores), tuple(second_scores))


def _tested_is_x(game: GameResult, tested: str, i: int, which: str) -> bool:
    if game.x == tested:
        return True
    if game.o == tested:
        return False
    raise InvalidOptionError(
        f"game {i} of the {which} match is between {game.x!r} and {game.o!r}, without {tested!r}, "
        "the engine of its first game"
    )


def _mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    mean, half = statistics.fmean(values), mean_half_width(values)
    return mean, mean - half, mean + half


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _points(x: float) -> str:
    return f"{100 * x:+.1f}"
