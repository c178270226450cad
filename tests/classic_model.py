"""A slow, obviously-correct model of docs/rules.md section 1, for cross-checks.

Written from the rules text alone: a board of symbols, a full scan for lines
after every move. It shares nothing with the C++ engine but the move ids.
"""

from __future__ import annotations

DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1)]


class ClassicModel:
    def __init__(self, rows=3, cols=3, k=3, misere=False, free_choice=False, gravity=False):
        self.rows, self.cols, self.k = rows, cols, k
        self.misere, self.free_choice, self.gravity = misere, free_choice, gravity
        self.board = [[None] * cols for _ in range(rows)]
        self.ply = 0
        self.result = None  # None, "X", "O" or "draw"

    @property
    def mover(self):
        return "X" if self.ply % 2 == 0 else "O"

    def copy(self):
        m = ClassicModel(self.rows, self.cols, self.k, self.misere, self.free_choice, self.gravity)
        m.board = [row[:] for row in self.board]
        m.ply, m.result = self.ply, self.result
        return m

    def _bases(self):
        if self.gravity:
            return [c for c in range(self.cols) if self.board[0][c] is None]
        return [r * self.cols + c for r in range(self.rows) for c in range(self.cols) if self.board[r][c] is None]

    def legal(self):
        if self.result is not None:
            return []
        bases = self._bases()
        if self.free_choice:
            return sorted([2 * b for b in bases] + [2 * b + 1 for b in bases])
        return bases

    def _has_line(self, symbol):
        for r in range(self.rows):
            for c in range(self.cols):
                for dr, dc in DIRECTIONS:
                    cells = [(r + i * dr, c + i * dc) for i in range(self.k)]
                    if all(
                        0 <= rr < self.rows and 0 <= cc < self.cols and self.board[rr][cc] == symbol for rr, cc in cells
                    ):
                        return True
        return False

    def play(self, action):
        assert action in self.legal()
        if self.free_choice:
            base, symbol = action // 2, "XO"[action % 2]
        else:
            base, symbol = action, self.mover
        if self.gravity:
            col = base
            row = max(r for r in range(self.rows) if self.board[r][col] is None)
        else:
            row, col = divmod(base, self.cols)
        mover = self.mover
        self.board[row][col] = symbol
        self.ply += 1
        if self._has_line(symbol):
            other = "O" if mover == "X" else "X"
            self.result = other if self.misere else mover
        elif self.ply == self.rows * self.cols:
            self.result = "draw"
