"""scripts/make_book.py end to end on a small gravity board: every score it writes is the one
a fresh solve gives, the book holds each position of the asked depths once up to symmetry,
a second run adds the next depth, and noughts reads the file back as a book."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import noughts
import pytest
from script_loader import SCRIPTS, load_script

SCRIPT = SCRIPTS / "make_book.py"
ROWS, COLS, K = 4, 5, 3
BOARD = ["--rows", str(ROWS), "--cols", str(COLS), "-k", str(K)]


@pytest.fixture(scope="module")
def script():
    return load_script("make_book")


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("book") / "small.txt"
    for plies in ("2", "3"):
        done = subprocess.run(
            [sys.executable, str(SCRIPT), "--plies", plies, "--out", str(out), "--workers", "2", *BOARD],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
    return out


def start() -> noughts.Classic:
    return noughts.Classic(ROWS, COLS, K, gravity=True)


def positions(book: Path) -> list[str]:
    """The book's position lines."""
    return [line for line in book.read_text().splitlines() if line and not line.startswith("#")]


def test_each_score_is_a_fresh_solves(book, script) -> None:
    lines = positions(book)
    assert lines
    for line in lines:
        moves = script.position_moves(line)
        value, distance = map(int, line.partition(":")[0].split()[-2:])
        s = noughts.solve(script.after(start(), moves), book=False)
        assert (value, distance) == (s.value, s.distance or 0), line


def test_the_book_holds_each_position_of_both_depths_once(book, script) -> None:
    lines = positions(book)
    held = [script.canonical(script.after(start(), script.position_moves(line))) for line in lines]
    wanted = {script.canonical(script.after(start(), m)) for plies in (2, 3) for m in script.frontier(start(), plies)}
    assert len(held) == len(set(held)) and set(held) == wanted
    assert "# moves played: 2-3" in book.read_text()


def test_noughts_reads_it_as_a_book(book) -> None:
    assert noughts.OpeningBook(book).applies_to(start())


def test_siblings_go_together(script) -> None:
    todo = script.frontier(start(), 3)
    groups = script.by_parent(todo)
    assert sorted(map(tuple, (m for g in groups for m in g))) == sorted(map(tuple, todo))
    assert all(len({tuple(m[:-1]) for m in g}) == 1 for g in groups)
    assert len({tuple(g[0][:-1]) for g in groups}) == len(groups) < len(todo)
