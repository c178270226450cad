"""Matches between engines, the way engine authors test a change (docs/arena.md).

An engine is anything with ``start(game)``, ``play(game, last_move, first) ->
Answer`` and ``close()``; two kinds come with noughts:

- :class:`SearchEngine`: a noughts MCTS in this process, with a time or
  iteration budget a move;
- :class:`ProgramEngine`: an external program that speaks CodinGame's Ultimate
  protocol over its standard input and output (any CodinGame bot, or
  ``noughts engine --codingame`` itself).

:func:`play_game` plays one game, with forfeits for an illegal move or an
answer later than the time limit; :func:`run_match` plays pairs of games on
the same random opening with colours swapped, stops early on a sequential
probability ratio test when asked, and returns a :class:`MatchSummary` (wins,
draws, losses, score and Elo with 95 % intervals, think times, iterations).
``python benchmarks/arena.py`` is the command line over it.
"""

from __future__ import annotations

import json
import math
import random
import select
import shlex
import statistics
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from noughts._core import Player
from noughts.codingame import grid_to_id, id_to_grid
from noughts.errors import InvalidOptionError
from noughts.mcts import MCTS

__all__ = [
    "Answer",
    "Engine",
    "GameResult",
    "Limits",
    "MatchSummary",
    "ProgramEngine",
    "SearchEngine",
    "Sprt",
    "elo_of_score",
    "mean_half_width",
    "play_game",
    "random_opening",
    "run_match",
    "score_half_width",
]


@dataclass(frozen=True)
class Answer:
    """An engine's move, how long it took, and what it says of its search (when it says)."""

    move: int
    seconds: float
    iterations: int | None = None
    #: The engine's value of the position for itself (-1 .. +1), when it reports one.
    value: float | None = None


class Engine(Protocol):
    name: str

    def start(self, game: Any) -> None:
        """A new game begins at this position (the opening already played)."""

    def play(self, game: Any, last_move: int | None, first: bool) -> Answer:
        """The engine's move in `game` (a copy it may keep); `last_move` is the opponent's, if any."""
        ...

    def close(self) -> None:
        """Frees what the engine holds (a process, a tree)."""


# ---- engines -------------------------------------------------------------------


class SearchEngine:
    """noughts' MCTS in this process: `ms` (or `iterations`) a move, `first_ms` on its first move.

    Other keyword arguments go to :class:`noughts.MCTS` (``c``, ``threads``,
    ``max_nodes``, ``reuse``, ``seed``). The tree is kept from move to move, as
    in a real game.
    """

    def __init__(
        self,
        name: str = "noughts",
        *,
        ms: float | None = None,
        iterations: int | None = None,
        first_ms: float | None = None,
        **options: Any,
    ) -> None:
        if ms is None and iterations is None:
            raise InvalidOptionError("a SearchEngine needs a budget: ms= and/or iterations=")
        self.name = name
        self.ms, self.iterations, self.first_ms = ms, iterations, first_ms
        self._options = options
        self._seed = int(options.pop("seed", 0))
        self._games = 0
        self._mcts: MCTS | None = None

    def start(self, game: Any) -> None:
        # A fresh tree and seed stream a game: games stay independent of their order.
        self._mcts = MCTS(seed=self._seed + self._games, **self._options)
        self._games += 1

    def play(self, game: Any, last_move: int | None, first: bool) -> Answer:
        if self._mcts is None:
            self.start(game)
        assert self._mcts is not None
        ms = self.first_ms if first and self.first_ms is not None else self.ms
        t0 = time.perf_counter()
        r = self._mcts.search(game, iterations=self.iterations, seconds=None if ms is None else ms / 1000)
        return Answer(r.best_move.id, time.perf_counter() - t0, r.iterations, r.value)

    def close(self) -> None:
        self._mcts = None


class ProgramEngine:
    """An external program speaking CodinGame's Ultimate protocol (one process a game).

    Each turn it is sent ``opponentRow opponentCol`` (``-1 -1`` on the first
    turn of the game), the number of legal moves and one ``row col`` line each;
    it answers ``row col`` (anything after the two numbers is ignored, but
    ``iterations=N`` and ``value=V`` there or on its standard error are
    read as diagnostics). The time of an answer runs from the first byte sent
    to the answer's line received.

    The protocol cannot set up a position, so a game with an opening needs a
    program that takes one on its command line: the text ``{opening}`` in the
    command is replaced by the opening's moves, comma-separated in grid
    notation (``e5,d4``), and by ``-`` when there is none.
    """

    def __init__(self, command: str | Sequence[str], name: str | None = None, *, cwd: str | None = None) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise InvalidOptionError("a ProgramEngine needs a command")
        self.name = name or self.command[0].rsplit("/", 1)[-1]
        self.cwd = cwd
        self._proc: subprocess.Popen[bytes] | None = None
        self._diagnostics: list[str] = []
        self._lock = threading.Condition()
        self._stderr_lines = 0
        # The number of moves of the position the program was started from: a last move
        # among them is not sent again (the program has it from its command line).
        self._known = 0
        self._buffer = b""

    @property
    def takes_openings(self) -> bool:
        return any("{opening}" in part for part in self.command)

    def start(self, game: Any) -> None:
        self.close()
        opening = [game.move_name(m) for m in game.move_ids]
        if opening and not self.takes_openings:
            raise InvalidOptionError(
                f"{self.name} speaks the CodinGame protocol, which cannot set up an opening: "
                "play from the empty board (opening plies 0) or put {opening} in its command"
            )
        text = ",".join(opening) or "-"
        argv = [part.replace("{opening}", text) for part in self.command]
        self._proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=self.cwd
        )
        self._buffer = b""
        self._diagnostics = []
        self._known = len(opening)
        threading.Thread(target=self._read_stderr, args=(self._proc,), daemon=True).start()

    def _read_stderr(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stderr is not None
        for raw in proc.stderr:
            with self._lock:
                self._diagnostics.append(raw.decode("utf-8", "replace"))
                self._stderr_lines += 1
                self._lock.notify_all()

    def play(self, game: Any, last_move: int | None, first: bool) -> Answer:
        if self._proc is None:
            self.start(game)
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        known = len(game.move_ids) <= self._known
        row, col = id_to_grid(last_move) if last_move is not None and not known else (-1, -1)
        legal = game.legal_actions()
        lines = [f"{row} {col}", str(len(legal))] + ["{} {}".format(*id_to_grid(m)) for m in legal]
        with self._lock:
            self._diagnostics.clear()
            seen = self._stderr_lines
        t0 = time.perf_counter()
        try:
            proc.stdin.write(("\n".join(lines) + "\n").encode())
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return Answer(-1, time.perf_counter() - t0)
        line = self._read_line(proc, timeout=30.0)
        seconds = time.perf_counter() - t0
        if line is None:
            return Answer(-1, seconds)
        words = line.split()
        try:
            move = grid_to_id(int(words[0]), int(words[1]))
        except (IndexError, ValueError):
            return Answer(-1, seconds)
        with self._lock:
            # A program that writes diagnostics writes them before its answer; the reader
            # thread may not have them yet.
            if (seen or first) and self._stderr_lines == seen:
                self._lock.wait_for(lambda: self._stderr_lines > seen, timeout=0.05)
            said = " ".join([line, *self._diagnostics])
        return Answer(move, seconds, _diagnostic(said, "iterations", int), _diagnostic(said, "value", float))

    def _read_line(self, proc: subprocess.Popen[bytes], timeout: float) -> str | None:
        """One line of the program's output, or None on end of file or after `timeout` seconds."""
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = _read_some(fd)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace")

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            try:
                if proc.stdin is not None:
                    proc.stdin.close()
            except OSError:
                pass
            try:
                proc.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _read_some(fd: int) -> bytes:
    import os

    try:
        return os.read(fd, 65536)
    except OSError:
        return b""


def _diagnostic(text: str, key: str, kind: Callable[[str], Any]) -> Any:
    """The last ``key=value`` in text, converted by `kind`, or None."""
    found = None
    for word in text.replace(",", " ").split():
        if word.startswith(key + "="):
            try:
                found = kind(word[len(key) + 1 :])
            except ValueError:
                continue
    return found


# ---- one game ---------------------------------------------------------------------


@dataclass(frozen=True)
class Limits:
    """Time limits on an answer (CodinGame's: 100 ms a turn, 1000 ms on a player's first turn).

    A later answer forfeits the game when `forfeit_late` is set; it is only
    counted otherwise.
    """

    turn_ms: float = 100.0
    first_turn_ms: float = 1000.0
    forfeit_late: bool = True


#: What a game read back (GameResult.from_dict) must have: enough to pair and score it.
_REQUIRED = frozenset({"x", "o", "opening", "winner"})


@dataclass
class GameResult:
    """One game: who played X and O, the moves, the result and how each side spent its time."""

    x: str
    o: str
    opening: list[int]
    moves: list[int] = field(default_factory=list)
    winner: Player | None = None
    termination: str = ""
    #: The side that forfeited, and why ("illegal move ...", "late: 123 ms"), else None.
    forfeit: tuple[Player, str] | None = None
    #: Per side (X then O): think time of each of its moves, in ms, and the iterations it reported.
    think_ms: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    iterations: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))
    late: tuple[int, int] = (0, 0)

    def score_for(self, name_is_x: bool) -> float:
        """1, 0.5 or 0 for the side that played X (True) or O (False)."""
        if self.winner is None:
            return 0.5
        return float((self.winner == Player.X) == name_is_x)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameResult:
        """The game of a dict as to_json writes it; InvalidOptionError when it is not one.

        Only the players, the opening and the winner are required, so results kept by other
        tools (or older versions of this one) still read."""
        if not isinstance(data, Mapping) or not _REQUIRED <= data.keys():
            raise InvalidOptionError(f"not an arena game: it needs {', '.join(sorted(_REQUIRED))}")
        winner = data["winner"]
        if winner not in (None, "X", "O"):
            raise InvalidOptionError(f"a game's winner must be 'X', 'O' or null, not {winner!r}")
        forfeit = data.get("forfeit")
        think: Sequence[Sequence[float]] = data.get("think_ms") or ([], [])
        iterations: Sequence[Sequence[int]] = data.get("iterations") or ([], [])
        late: Sequence[int] = data.get("late") or (0, 0)
        try:
            return cls(
                x=str(data["x"]),
                o=str(data["o"]),
                opening=[int(m) for m in data["opening"]],
                moves=[int(m) for m in data.get("moves", [])],
                winner=None if winner is None else Player[winner],
                termination=str(data.get("termination", "")),
                forfeit=None if forfeit is None else (Player[forfeit[0]], str(forfeit[1])),
                think_ms=(list(map(float, think[0])), list(map(float, think[1]))),
                iterations=(list(map(int, iterations[0])), list(map(int, iterations[1]))),
                late=(int(late[0]), int(late[1])),
            )
        except (TypeError, ValueError, KeyError, IndexError) as e:
            raise InvalidOptionError(f"not an arena game: a field has the wrong shape ({e})") from None

    @classmethod
    def from_json(cls, text: str) -> GameResult:
        """The game of one line that to_json wrote; InvalidOptionError when it is not one."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise InvalidOptionError(f"not a JSON game ({e.msg})") from None
        return cls.from_dict(data)

    def to_json(self) -> str:
        return json.dumps(
            {
                "x": self.x,
                "o": self.o,
                "opening": self.opening,
                "moves": self.moves,
                "winner": None if self.winner is None else self.winner.name,
                "termination": self.termination,
                "forfeit": None if self.forfeit is None else [self.forfeit[0].name, self.forfeit[1]],
                "think_ms": [[round(t, 2) for t in side] for side in self.think_ms],
                "iterations": list(self.iterations),
                "late": list(self.late),
            }
        )


def play_game(x: Engine, o: Engine, game: Any, limits: Limits = Limits()) -> GameResult:
    """Plays `game` (from its position: an opening may be on it) to the end between x and o."""
    result = GameResult(x.name, o.name, list(game.move_ids))
    engines = (x, o)
    for engine in engines:
        engine.start(game.copy())
    first = [True, True]
    late = [0, 0]
    last: int | None = game.move_ids[-1] if game.move_ids else None
    try:
        while not game.is_over():
            side = int(game.to_move)
            engine = engines[side]
            answer = engine.play(game.copy(), last, first[side])
            ms = answer.seconds * 1000
            limit = limits.first_turn_ms if first[side] else limits.turn_ms
            first[side] = False
            result.think_ms[side].append(ms)
            if answer.iterations is not None:
                result.iterations[side].append(answer.iterations)
            if ms > limit:
                late[side] += 1
                if limits.forfeit_late:
                    result.forfeit = (Player(side), f"late: {ms:.1f} ms, the limit is {limit:g} ms")
                    break
            if answer.move not in game.legal_actions():
                result.forfeit = (Player(side), f"illegal move {answer.move}")
                break
            game.play(answer.move)
            result.moves.append(answer.move)
            last = answer.move
    finally:
        for engine in engines:
            engine.close()
    result.late = (late[0], late[1])
    if result.forfeit is not None:
        result.winner = Player(1 - int(result.forfeit[0]))
        result.termination = "forfeit"
    else:
        result.winner = game.winner
        result.termination = game.termination.name.lower()
    return result


def random_opening(make_game: Callable[[], Any], plies: int, rng: random.Random) -> list[int]:
    """`plies` uniformly random legal moves from the start that do not end the game."""
    while True:
        game = make_game()
        moves = []
        for _ in range(plies):
            if game.is_over():
                break
            move = rng.choice(game.legal_actions())
            game.play(move)
            moves.append(move)
        if not game.is_over():
            return moves


# ---- statistics -----------------------------------------------------------------


def elo_of_score(score: float) -> float:
    """The Elo difference that predicts `score` (0 < score < 1); infinite at the ends."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def mean_half_width(values: Sequence[float]) -> float:
    """The half-width of the 95 % confidence interval of the mean of `values` (normal approximation; nan below 2)."""
    if len(values) < 2:
        return math.nan
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def score_half_width(wins: int, draws: int, losses: int) -> float:
    """The half-width of the 95 % confidence interval of a score (normal approximation; nan below 2 games)."""
    return mean_half_width([1.0] * wins + [0.5] * draws + [0.0] * losses)


def _expected(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: Elo = elo0 against H1: Elo = elo1.

    The log-likelihood ratio is the generalised one fishtest uses for game
    results (a normal approximation with the observed variance); the test
    accepts H1 when it crosses log((1 - beta) / alpha) and H0 when it falls
    below log(beta / (1 - alpha)).
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise InvalidOptionError(f"SPRT needs elo0 < elo1, not {self.elo0}, {self.elo1}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise InvalidOptionError("SPRT's alpha and beta must be between 0 and 0.5")

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: int, draws: int, losses: int) -> float:
        n = wins + draws + losses
        if n == 0:
            return 0.0
        mean = (wins + 0.5 * draws) / n
        var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2) / n
        if var <= 0:
            var = 1e-3  # every game alike so far: keep the test finite
        s0, s1 = _expected(self.elo0), _expected(self.elo1)
        return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)

    def verdict(self, wins: int, draws: int, losses: int) -> str | None:
        """ "H1" or "H0" once the test has decided, else None."""
        low, high = self.bounds
        llr = self.llr(wins, draws, losses)
        return "H1" if llr >= high else "H0" if llr <= low else None


@dataclass
class MatchSummary:
    """A match from A's side."""

    a: str
    b: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: tuple[int, int] = (0, 0)  # games A and B lost by forfeit
    late: tuple[int, int] = (0, 0)  # answers over the limit, A and B
    think_ms: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    iterations: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))
    sprt: Sprt | None = None
    verdict: str | None = None

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % confidence interval of the score (normal approximation), within 0..1."""
        if self.games < 2:
            return (0.0, 1.0)
        half = score_half_width(self.wins, self.draws, self.losses)
        return max(0.0, self.score - half), min(1.0, self.score + half)

    @property
    def elo(self) -> tuple[float, float, float]:
        """A's Elo difference over B, with the 95 % interval's ends."""
        low, high = self.interval
        return elo_of_score(self.score), elo_of_score(low), elo_of_score(high)

    def add(self, result: GameResult, a_is_x: bool) -> None:
        s = result.score_for(a_is_x)
        if s == 1:
            self.wins += 1
        elif s == 0:
            self.losses += 1
        else:
            self.draws += 1
        a_side, b_side = (0, 1) if a_is_x else (1, 0)
        if result.forfeit is not None:
            f = int(result.forfeit[0]) == a_side
            self.forfeits = (self.forfeits[0] + f, self.forfeits[1] + (not f))
        self.late = (self.late[0] + result.late[a_side], self.late[1] + result.late[b_side])
        self.think_ms[0].extend(result.think_ms[a_side])
        self.think_ms[1].extend(result.think_ms[b_side])
        self.iterations[0].extend(result.iterations[a_side])
        self.iterations[1].extend(result.iterations[b_side])
        if self.sprt is not None:
            self.verdict = self.sprt.verdict(self.wins, self.draws, self.losses)

    def report(self) -> str:
        low, high = self.interval
        elo, elo_low, elo_high = self.elo
        lines = [
            f"{self.a} vs {self.b}: +{self.wins} ={self.draws} -{self.losses} in {self.games} games",
            f"score {100 * self.score:.1f} % (95 % interval {100 * low:.1f} .. {100 * high:.1f} %), "
            f"Elo {_elo_text(elo)} ({_elo_text(elo_low)} .. {_elo_text(elo_high)})",
            f"forfeits: {self.a} {self.forfeits[0]}, {self.b} {self.forfeits[1]}; "
            f"answers over the limit: {self.a} {self.late[0]}, {self.b} {self.late[1]}",
        ]
        for name, times, its in zip((self.a, self.b), self.think_ms, self.iterations):
            if times:
                q = _quantiles(times)
                line = (
                    f"{name}: think ms median {q[50]:.1f}, p99 {q[99]:.1f}, max {max(times):.1f} "
                    f"over {len(times)} moves"
                )
                if its:
                    line += f"; iterations a move median {statistics.median(its):,.0f}"
                lines.append(line)
        if self.sprt is not None:
            low_b, high_b = self.sprt.bounds
            llr = self.sprt.llr(self.wins, self.draws, self.losses)
            state = {"H1": "H1 accepted", "H0": "H0 accepted", None: "undecided"}[self.verdict]
            lines.append(
                f"SPRT elo0={self.sprt.elo0:g} elo1={self.sprt.elo1:g}: LLR {llr:.2f} ({low_b:.2f}, {high_b:.2f}): {state}"
            )
        return "\n".join(lines)


def _elo_text(elo: float) -> str:
    return "+inf" if elo == math.inf else "-inf" if elo == -math.inf else f"{elo:+.0f}"


def _quantiles(values: list[float]) -> dict[int, float]:
    ordered = sorted(values)
    return {p: ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] for p in (50, 99)}


# ---- a match --------------------------------------------------------------------


def run_match(
    a: Engine,
    b: Engine,
    make_game: Callable[[], Any],
    games: int,
    *,
    opening_plies: int = 2,
    seed: int = 0,
    limits: Limits = Limits(),
    sprt: Sprt | None = None,
    on_game: Callable[[int, GameResult, MatchSummary], None] | None = None,
) -> MatchSummary:
    """Up to `games` games, in pairs on the same opening with colours swapped (A is X first).

    Stops early when `sprt` decides (after a whole pair). `on_game(i, result,
    summary)` is called after each game.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InvalidOptionError(f"games must be a whole number >= 1, not {games!r}")
    if isinstance(opening_plies, bool) or not isinstance(opening_plies, int) or opening_plies < 0:
        raise InvalidOptionError(f"opening_plies must be a whole number >= 0, not {opening_plies!r}")
    summary = MatchSummary(a.name, b.name, sprt=sprt)
    rng = random.Random(seed)
    for i, (opening, a_is_x) in enumerate(_schedule(make_game, games, opening_plies, rng)):
        game = make_game()
        for move in opening:
            game.play(move)
        x, o = (a, b) if a_is_x else (b, a)
        result = play_game(x, o, game, limits)
        summary.add(result, a_is_x)
        if on_game is not None:
            on_game(i, result, summary)
        if summary.verdict is not None and i % 2 == 1:
            break
    return summary


def _schedule(
    make_game: Callable[[], Any], games: int, plies: int, rng: random.Random
) -> Iterator[tuple[list[int], bool]]:
    opening: list[int] = []
    for i in range(games):
        if i % 2 == 0:
            opening = random_opening(make_game, plies, rng)
        yield opening, i % 2 == 0
