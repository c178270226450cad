"""game.explanation: a finished game's result in words, checked against the game's facts read another way."""

import random
import re
from typing import Any

import noughts
import pytest
from noughts import Player, Termination

# The 3x3 board's lines, written out here so the checks do not lean on the engine's tables.
LINES3 = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("classic", {"misere": True}),
    ("classic", {"free_choice": True}),
    ("classic", {"free_choice": True, "misere": True}),
    ("classic", {"rows": 4, "cols": 4, "k": 4, "gravity": True}),
    ("classic", {"rows": 4, "cols": 4, "k": 4, "gravity": True, "misere": True, "free_choice": True}),
    ("ultimate", {}),
    ("ultimate", {"tiebreak": True}),
    ("quantum", {}),
]
# What random play must reach for each kind of game, so that every branch of the words is checked.
EXPECTED = {
    "classic": {Termination.LINE, Termination.MISERE_LINE, Termination.FULL_BOARD},
    "ultimate": {Termination.LINE, Termination.MORE_BOARDS, Termination.FULL_BOARD},
    "quantum": {Termination.LINE, Termination.EARLIER_LINE, Termination.FULL_BOARD},
}


def _other(p: Player) -> Player:
    return Player.O if p == Player.X else Player.X


def _random_game(name: str, options: dict[str, Any], rng: random.Random) -> tuple[Any, list[str]]:
    """A finished random game, and for each position before it ended whether its explanation was its status."""
    game = noughts.make_game(name, **options)
    before = []
    while not game.is_over():
        before.append(game.explanation == game.status)
        game.play(rng.choice(game.legal_moves()))
    return game, before


def _cell_name(game: Any, cell: int) -> str:
    cols = game.cols if hasattr(game, "cols") else 3
    return "abcdefghijklmnopqrstuvwxyz"[cell % cols] + str(cell // cols + 1)


def _named_cells(text: str) -> list[list[str]]:
    """The runs of cell names in the text: 'a1 b2 c3' -> ['a1', 'b2', 'c3']."""
    return [run.split() for run in re.findall(r"[a-z]\d+(?: [a-z]\d+)+|(?<![a-z])[a-z]\d+(?!\d)", text)]


def _check_classic(game: Any, text: str) -> None:
    xs, os = game.cell_marks()
    cells = game.rows * game.cols
    if game.winner is None:
        assert bin(xs | os).count("1") == cells and "full" in text
        return
    winner = game.winner
    # The line: k cells of one symbol in a row, every one named.
    line = [c for c in range(cells) if game.winning_line() >> c & 1]
    assert len(line) == game.k
    symbol = "X" if all(xs >> c & 1 for c in line) else "O"
    assert all((xs if symbol == "X" else os) >> c & 1 for c in line)
    assert [_cell_name(game, c) for c in line] in _named_cells(text)
    assert f"{game.k} in a row" in text
    # The player who completed it made the last move: the winner in normal play, the loser in misère.
    last_mover = Player.X if game.ply % 2 == 1 else Player.O
    if game.misere:
        assert game.termination == Termination.MISERE_LINE and last_mover == _other(winner)
        assert "misère" in text and f"{_other(winner).name} completed" in text
    else:
        assert game.termination == Termination.LINE and last_mover == winner
        assert "misère" not in text
    if game.free_choice:
        assert f"of {symbol} marks" in text and f"{last_mover.name} completed" in text
    else:
        assert symbol == last_mover.name  # without free choice a player writes only their own symbol


def _check_ultimate(game: Any, text: str) -> None:
    states = [s.name for s in game.board_states()]
    count = {p: states.count(p.name) for p in Player}
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    if game.termination == Termination.LINE:
        lines = {line for line in LINES3 if all(states[b] == game.winner.name for b in line)}
        named = {tuple(int(b) for b in run.split(", ")) for run in re.findall(r"boards (\d(?:, \d)*)", text)}
        assert lines and named == lines and len(numbers) == 3 * len(lines)
        assert "three small boards in a row" in text
        return
    # Every board is decided and no line of boards: the counts decide, or nobody.
    assert "OPEN" not in states
    assert not any(all(states[b] == p.name for b in line) for line in LINES3 for p in Player)
    assert "decided" in text
    if game.termination == Termination.MORE_BOARDS:
        assert game.tiebreak and count[game.winner] > count[_other(game.winner)]
        assert numbers == [count[game.winner], count[_other(game.winner)]]
    elif game.tiebreak:
        assert count[Player.X] == count[Player.O] and numbers == [count[Player.X]]
    else:
        assert numbers == []


def _newest_marks(game: Any) -> dict[Player, tuple[int, list[str]] | None]:
    """For each player, the line of classical marks that counts (the one with the lowest newest mark), or None."""
    marks = game.classical_marks()
    best: dict[Player, tuple[int, list[str]] | None] = {Player.X: None, Player.O: None}
    for line in LINES3:
        owners = {marks[c][0] if marks[c] else None for c in line}
        if len(owners) == 1 and None not in owners:
            (owner,) = owners
            newest = max(marks[c][1] for c in line)
            if best[owner] is None or newest < best[owner][0]:  # type: ignore[index]
                best[owner] = (newest, [_cell_name(game, c) for c in line])
    return best


def _check_quantum(game: Any, text: str) -> None:
    lines = _newest_marks(game)
    times = dict(zip(Player, game.line_times()))
    for p in Player:
        assert (lines[p] is None) == (times[p] is None) and (lines[p] is None or lines[p][0] == times[p])
    if game.winner is None:
        assert all(m is not None for m in game.classical_marks()) and lines == {p: None for p in Player}
        return
    winner, loser = game.winner, _other(game.winner)
    numbers = [int(n) for n in re.findall(r"number (\d+)", text)]
    assert lines[winner] is not None and lines[winner][1] in _named_cells(text)
    if game.termination == Termination.EARLIER_LINE:
        assert lines[loser] is not None and lines[winner][0] < lines[loser][0]
        assert lines[loser][1] in _named_cells(text) and numbers == [lines[winner][0], lines[loser][0]]
        assert "earlier" in text
    else:
        assert lines[loser] is None and numbers == [lines[winner][0]]


CHECKS = {"classic": _check_classic, "ultimate": _check_ultimate, "quantum": _check_quantum}


@pytest.mark.parametrize(("name", "options"), GAMES, ids=[f"{n}-{'-'.join(o) or 'plain'}" for n, o in GAMES])
def test_the_explanation_names_the_winner_and_the_reason(name, options):
    rng = random.Random(f"{name}{sorted(options)}")
    seen = set()
    for _ in range(300):
        game, before = _random_game(name, options, rng)
        assert all(before)  # while the game is played, its explanation is its status
        text = game.explanation
        assert text.endswith(".") and text[0].isupper()
        if game.winner is None:
            assert text.startswith("Draw:") and game.outcome().result == "1/2-1/2"
        else:
            assert text.startswith(f"{game.winner.name} wins")
            assert f"{_other(game.winner).name} wins" not in text and "Draw" not in text
        CHECKS[name](game, text)
        seen.add(game.termination)
    wanted = EXPECTED[name] - ({Termination.LINE} if options.get("misere") else {Termination.MISERE_LINE})
    if name == "ultimate" and not options.get("tiebreak"):
        wanted -= {Termination.MORE_BOARDS}
    assert seen >= wanted


def test_an_unfinished_game_explains_itself_with_its_status():
    for name in ("classic", "ultimate", "quantum"):
        game = noughts.make_game(name)
        assert game.explanation == game.status
        game.play(game.legal_moves()[0])
        assert game.explanation == game.status


def test_a_position_read_from_a_string_is_explained_like_a_played_one():
    # from_string derives the outcome itself: the words must come from that, not from the moves.
    rng = random.Random(5)
    for name, options in GAMES:
        for _ in range(20):
            game, _ = _random_game(name, options, rng)
            copy = type(game).from_string(game.to_string())
            assert copy.explanation == game.explanation
