"""The Classic text board: every mark stands under its column's name, past z too."""

import noughts
import pytest


@pytest.mark.parametrize("rows, cols", [(3, 3), (1, 26), (1, 27), (2, 30), (1, 64), (2, 32), (10, 6)])
def test_marks_stand_under_their_column_names(rows, cols):
    g = noughts.Classic(rows, cols, k=min(3, max(rows, cols)))
    # Marks in the first and last columns and past z, where the names take two letters.
    for cell in sorted({cols - 1, min(26, cols - 1), (rows - 1) * cols, (rows - 1) * cols + cols // 2}):
        if not g.is_over() and g.is_legal(cell):
            g.play(cell)
    header, *lines = str(g).split("\n")
    assert len(lines) == rows
    starts = []
    for col in range(cols):
        name = g.move_name(col)[: -len("1")]  # "b1" -> "b"
        starts.append(header.index(" " + name + " " if col + 1 < cols else " " + name, starts[-1] if starts else 0) + 1)
    board = g.board()
    for r, line in enumerate(lines):
        assert line.split()[0] == str(r + 1)
        for c, start in enumerate(starts):
            assert line[start] == board[r][c], (r, c, line)
        assert line.rstrip() == line
