"""A small, slow, deliberately plain model of Quantum tic-tac-toe.

Written from docs/rules.md section 3 alone, to check the C++ engine against. It
keeps the game as the rules describe it: a list of numbered marks, each
either spooky (two cells) or classical (one cell). Connectivity is found by
searching the marks every time, and the collapse is carried out exactly as
the rules word it: the newest mark lands, every other spooky mark in a cell
that just became classical is pushed to its other cell, and so on. Nothing
is cached, so there is nothing to get out of sync.

Move ids are those of docs/rules.md "Move ids": 0..35 the spooky pair {a, b}
(a < b, lexicographic), 36 + c the collapse choice, 45 + c the last-cell mark.
"""

from __future__ import annotations

from itertools import combinations

LINES = [
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),  # rows
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),  # columns
    (0, 4, 8),
    (2, 4, 6),  # diagonals
]
PAIRS = list(combinations(range(9), 2))  # index = move id
COLLAPSE = 36
LAST_CELL = 45

X, O = "X", "O"


def writer(number: int) -> str:
    """X writes the odd marks, O the even ones."""
    return X if number % 2 == 1 else O


def other(player: str) -> str:
    return O if player == X else X


class Mark:
    def __init__(self, number: int, cells: tuple[int, ...]) -> None:
        self.number = number
        self.cells = cells  # the two cells of a spooky mark (one for the last-cell mark)
        self.landed: int | None = None  # its cell once classical

    def copy(self) -> Mark:
        m = Mark(self.number, self.cells)
        m.landed = self.landed
        return m


class QuantumModel:
    def __init__(self) -> None:
        self.marks: list[Mark] = []
        self.collapsing: Mark | None = None  # the mark whose cycle must collapse
        self.winner: str | None = None
        self.reason: str | None = None  # "line", "earlier_line", "full_board"
        self.over = False

    def copy(self) -> QuantumModel:
        g = QuantumModel()
        g.marks = [m.copy() for m in self.marks]
        if self.collapsing is not None:
            g.collapsing = g.marks[self.collapsing.number - 1]
        g.winner, g.reason, g.over = self.winner, self.reason, self.over
        return g

    # ---- what the position shows ------------------------------------------
    def board(self) -> list[tuple[str, int] | None]:
        """Cell -> (player, number) of its classical mark, or None."""
        cells: list[tuple[str, int] | None] = [None] * 9
        for m in self.marks:
            if m.landed is not None:
                assert cells[m.landed] is None, "two classical marks in one cell"
                cells[m.landed] = (writer(m.number), m.number)
        return cells

    def spooky(self) -> list[tuple[int, str, tuple[int, int]]]:
        return [(m.number, writer(m.number), tuple(sorted(m.cells))) for m in self.marks if m.landed is None]

    def free_cells(self) -> list[int]:
        return [c for c, mark in enumerate(self.board()) if mark is None]

    def to_move(self) -> str:
        if self.collapsing is not None:
            # The player who did not close the cycle chooses.
            return other(writer(self.collapsing.number))
        return writer(len(self.marks) + 1)

    def pending(self) -> tuple[int, tuple[int, int]] | None:
        if self.collapsing is None:
            return None
        return (self.collapsing.number, tuple(sorted(self.collapsing.cells)))

    # ---- moves --------------------------------------------------------------
    def legal(self) -> list[int]:
        if self.over:
            return []
        if self.collapsing is not None:
            return sorted(COLLAPSE + c for c in self.collapsing.cells)
        free = self.free_cells()
        if len(free) == 1:
            return [LAST_CELL + free[0]]
        return sorted(PAIRS.index(p) for p in combinations(free, 2))

    def play(self, move: int) -> None:
        assert move in self.legal(), (move, self.legal())
        if move < COLLAPSE:
            a, b = PAIRS[move]
            closes = self.connected(a, b)  # looked at before the new pair is added
            mark = Mark(len(self.marks) + 1, (a, b))
            self.marks.append(mark)
            if closes:
                self.collapsing = mark
        elif move < LAST_CELL:
            assert self.collapsing is not None
            self.collapse(self.collapsing, move - COLLAPSE)
            self.collapsing = None
            self.judge()
        else:
            mark = Mark(len(self.marks) + 1, (move - LAST_CELL,))
            mark.landed = move - LAST_CELL
            self.marks.append(mark)
            self.judge()

    def edges(self) -> list[Mark]:
        return [m for m in self.marks if m.landed is None]

    def connected(self, a: int, b: int) -> bool:
        """Whether spooky marks link cell a to cell b (a search, every time)."""
        seen, todo = {a}, [a]
        while todo:
            cell = todo.pop()
            for m in self.edges():
                if cell in m.cells:
                    for nxt in m.cells:
                        if nxt not in seen:
                            seen.add(nxt)
                            todo.append(nxt)
        return b in seen

    def collapse(self, newest: Mark, cell: int) -> None:
        component = {c for c in range(9) if self.connected(newest.cells[0], c)}
        newest.landed = cell
        just_classical = [cell]
        while just_classical:
            c = just_classical.pop(0)
            for m in self.edges():
                if c in m.cells:
                    # Its other cell is the only place left for it.
                    (target,) = [d for d in m.cells if d != c]
                    m.landed = target
                    just_classical.append(target)
        # The rules promise: every mark connected to the cycle is now
        # classical, one per cell; marks not connected stay spooky.
        board = self.board()
        for c in component:
            assert board[c] is not None, "a cell of the collapsed component got no mark"
        for m in self.edges():
            assert not set(m.cells) & component

    def judge(self) -> None:
        board = self.board()
        finished: dict[str, list[int]] = {X: [], O: []}
        for line in LINES:
            owners = {board[c][0] if board[c] else None for c in line}
            if len(owners) == 1 and None not in owners:
                (player,) = owners
                finished[player].append(max(board[c][1] for c in line))
        if finished[X] and finished[O]:
            self.over, self.reason = True, "earlier_line"
            self.winner = X if min(finished[X]) < min(finished[O]) else O
        elif finished[X] or finished[O]:
            self.over, self.reason = True, "line"
            self.winner = X if finished[X] else O
        elif all(board):
            self.over, self.reason = True, "full_board"
