"""SVG pictures of games: ``noughts.svg_of(game)`` (also ``noughts.svg.svg(game)``) and Jupyter's ``_repr_svg_``.

``import noughts.svg`` gives this module. The module can also be called,
``noughts.svg(game)``, the same as ``svg_of(game)``.

Plain string building with the standard library only, so that drawing a
game never needs an extra dependency. Every drawn thing carries a ``class``
(``mark-x``, ``mark-o``, ``win-line``, ``last-move``, ``board-x``,
``playable``, ``spooky-x``, ``collapse`` ...) and, where it belongs to a
cell, a ``data-cell`` with the cell's name, so that tests and style sheets
can find it. See docs/positions.md, "Seeing games".
"""

from __future__ import annotations

import re
import sys
import types
from dataclasses import dataclass, field
from typing import Any, Union
from xml.sax.saxutils import escape as _escape
from xml.sax.saxutils import quoteattr as _quoteattr

from noughts._core import Player
from noughts._game import Move, MoveLike
from noughts._numbers import as_int
from noughts.classic import Classic
from noughts.errors import InvalidMoveError, InvalidOptionError
from noughts.quantum import Quantum
from noughts.ultimate import BoardState, Ultimate

# Characters XML 1.0 forbids even when escaped (controls, U+FFFE/FFFF) and
# lone surrogates (not encodable): shown as U+FFFD so any text stays safe.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape(text: str) -> str:
    return _escape(_NOT_XML.sub("\ufffd", text))


def quoteattr(text: str) -> str:
    return _quoteattr(_NOT_XML.sub("\ufffd", text))


__all__ = ["svg", "svg_of"]

_Game = Union[Classic, Ultimate, Quantum]

# Colours: X blue, O red (distinguishable for red-green colour blindness);
# tints of them shade won boards.
X_COLOUR = "#1f5fb4"
O_COLOUR = "#c4302b"
X_TINT = "#d8e5f6"
O_TINT = "#f6dcda"
GRID = "#5a5a5a"
BOARD_FILL = "#fbfaf6"
LABEL = "#6b6b6b"
WIN_FILL = "#ffe38a"
WIN_STROKE = "#3d3d3d"
LAST_MOVE = "#f08c00"
PLAYABLE_FILL = "#fff3c4"
PLAYABLE_STROKE = "#d9a300"
DRAWN_FILL = "#d2d2d2"
COLLAPSE = "#7b3fbf"
COLLAPSE_FILL = "#efe4fb"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

# Long boards (1x64) get cells of at least this many pixels rather than
# shrinking to unreadable slivers: the picture grows wider than `size`.
MIN_CELL = 24.0


# ---------------------------------------------------------------------------
# A tiny SVG writer
# ---------------------------------------------------------------------------
def _num(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros (short, stable output)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _attrs(attrs: dict[str, object]) -> str:
    # Python names to SVG names: class_ -> class, stroke_width -> stroke-width.
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        text = _num(value) if isinstance(value, float) else str(value)
        out.append(f" {name}={quoteattr(text)}")
    return "".join(out)


@dataclass
class _Canvas:
    """Elements of one picture, in drawing order (later ones paint over earlier ones)."""

    parts: list[str] = field(default_factory=list)

    def add(self, tag: str, text: str | None = None, **attrs: object) -> None:
        if text is None:
            self.parts.append(f"<{tag}{_attrs(attrs)}/>")
        else:
            self.parts.append(f"<{tag}{_attrs(attrs)}>{escape(text)}</{tag}>")

    def open(self, tag: str, **attrs: object) -> None:
        self.parts.append(f"<{tag}{_attrs(attrs)}>")

    def close(self, tag: str) -> None:
        self.parts.append(f"</{tag}>")

    def text(self, x: float, y: float, text: str, font_size: float, **attrs: object) -> None:
        # dominant-baseline is not honoured everywhere; shifting the baseline
        # by a third of the font size centres digits and letters well enough.
        attrs.setdefault("text_anchor", "middle")
        attrs.setdefault("fill", LABEL)
        self.add("text", text, x=x, y=y + font_size * 0.35, font_size=font_size, font_family=FONT, **attrs)


def _draw_x(c: _Canvas, cx: float, cy: float, r: float, width: float, cls: str, **attrs: object) -> None:
    c.open("g", class_=cls, stroke=X_COLOUR, stroke_width=width, stroke_linecap="round", **attrs)
    c.add("line", x1=cx - r, y1=cy - r, x2=cx + r, y2=cy + r)
    c.add("line", x1=cx - r, y1=cy + r, x2=cx + r, y2=cy - r)
    c.close("g")


def _draw_o(c: _Canvas, cx: float, cy: float, r: float, width: float, cls: str, **attrs: object) -> None:
    c.open("g", class_=cls, **attrs)
    c.add("circle", cx=cx, cy=cy, r=r, fill="none", stroke=O_COLOUR, stroke_width=width)
    c.close("g")


def _draw_mark(
    c: _Canvas, symbol: str, cx: float, cy: float, r: float, width: float, kind: str = "mark", **attrs: object
) -> None:
    """An X (two strokes) or an O (a ring); `kind` prefixes the class: mark-x, big-x ..."""
    if symbol == "X":
        _draw_x(c, cx, cy, r, width, f"{kind} {kind}-x", **attrs)
    elif symbol == "O":
        _draw_o(c, cx, cy, r * 1.08, width, f"{kind} {kind}-o", **attrs)


def _last_move_box(c: _Canvas, x: float, y: float, cell: float, name: str) -> None:
    inset = cell * 0.07
    c.add(
        "rect",
        class_="last-move",
        data_cell=name,
        x=x + inset,
        y=y + inset,
        width=cell - 2 * inset,
        height=cell - 2 * inset,
        rx=cell * 0.08,
        fill="none",
        stroke=LAST_MOVE,
        stroke_width=max(2.0, cell * 0.045),
    )


def _compose(body: _Canvas, width: float, height: float, title: str | None, status: str | None, desc: str) -> str:
    """The whole document: optional title above the board, status line below, centred."""
    title_h = 30.0 if title else 0.0
    status_h = 28.0 if status else 0.0
    # Text needs room too: a 1-column board must not clip its status line.
    text_w = max((len(t) * 8.0 + 16.0 for t in (title, status) if t), default=0.0)
    total_w = max(width, text_w)
    total_h = title_h + height + status_h
    dx = (total_w - width) / 2
    # No XML declaration: the document is also pasted inline into HTML (Jupyter), where one is noise.
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_num(total_w)}" height="{_num(total_h)}" '
        f'viewBox="0 0 {_num(total_w)} {_num(total_h)}">'
    )
    c = _Canvas()
    c.add("title", title or desc)
    c.add("desc", desc)
    c.add("rect", class_="background", x=0.0, y=0.0, width=total_w, height=total_h, fill="#ffffff")
    if title:
        c.text(total_w / 2, title_h / 2, title, 16.0, class_="title", fill="#222222", font_weight="bold")
    c.open("g", class_="board-area", transform=f"translate({_num(dx)},{_num(title_h)})")
    c.parts.extend(body.parts)
    c.close("g")
    if status:
        c.text(total_w / 2, title_h + height + status_h / 2, status, 14.0, class_="status", fill="#222222")
    return head + "\n" + "\n".join(c.parts) + "\n</svg>\n"


# ---------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------
def _column_name(col: int) -> str:
    """Spreadsheet-style column letters, as Classic's notation: a..z, aa, ab, ..."""
    name = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        name = chr(ord("a") + rem) + name
    return name


def _cell_name(row: int, col: int) -> str:
    return f"{_column_name(col)}{row + 1}"


def _move_id(game: _Game, move: MoveLike) -> int:
    """A move given as id, Move or notation, as an id of `game` (checked to name a move)."""
    number = as_int(move)
    if isinstance(move, Move):
        move_id = move.id
    elif isinstance(move, str):
        move_id = int(game.parse_move(move))
    elif number is not None:
        move_id = number
    else:
        raise InvalidMoveError(f"last_move must be a move id, a Move or notation, not {move!r}")
    game.move_name(move_id)  # raises for an id outside the game's move space
    return move_id


def _last_move_id(game: _Game, last_move: MoveLike | None) -> int | None:
    if last_move is not None:
        return _move_id(game, last_move)
    ids = game.move_ids
    return int(ids[-1]) if ids else None


def _label_band(cell: float) -> float:
    return max(16.0, min(28.0, cell * 0.45))


# ---------------------------------------------------------------------------
# Classic
# ---------------------------------------------------------------------------
def _classic_lines(game: Classic) -> tuple[list[tuple[int, int, int, int]], int]:
    """The lines complete on the board (those the deciding move completed), as segments and as a mask of their cells.

    A segment runs from a line's first cell to its last, as (r0, c0, r1, c1); a
    line of one cell (k = 1) is highlighted without one.
    """
    segments, mask = [], 0
    for _, cells in game.completed_lines():
        for i in cells:
            mask |= 1 << i
        if len(cells) > 1:
            (r0, c0), (r1, c1) = divmod(cells[0], game.cols), divmod(cells[-1], game.cols)
            segments.append((r0, c0, r1, c1))
    return segments, mask


def _classic_body(game: Classic, size: float, last_move: int | None, coordinates: bool) -> tuple[_Canvas, float, float]:
    rows, cols = game.rows, game.cols
    cell = max(size / max(rows, cols), MIN_CELL)
    band = _label_band(cell) if coordinates else 4.0
    # Gravity: letters name the moves, so the top band has letters and a drop
    # arrow each, and row numbers are left out (no move names a row).
    top = band * (1.7 if game.gravity and coordinates else 1.0)
    left = 4.0 if game.gravity else band
    floor = max(4.0, cell * 0.12) if game.gravity else 0.0
    width = left + cols * cell + 4.0
    height = top + rows * cell + floor + 4.0
    c = _Canvas()
    c.add("rect", class_="board", x=left, y=top, width=cols * cell, height=rows * cell, fill=BOARD_FILL)

    segments, win = _classic_lines(game)
    for i in range(rows * cols):  # winning cells under everything else
        if win >> i & 1:
            _tint_cell(c, "win-cell", i, cols, left, top, cell, WIN_FILL)

    _grid(c, left, top, rows, cols, cell, max(1.0, cell * 0.022))
    if coordinates:
        font = band * 0.6
        for col in range(cols):
            cx = left + (col + 0.5) * cell
            c.text(cx, band / 2, _column_name(col), font, class_="coord")
            if game.gravity:
                a = band * 0.25
                y0 = band * 1.05
                c.add(
                    "polygon",
                    class_="drop",
                    points=f"{_num(cx - a)},{_num(y0)} {_num(cx + a)},{_num(y0)} {_num(cx)},{_num(y0 + a * 1.4)}",
                    fill=LABEL,
                )
        if not game.gravity:
            for r in range(rows):
                c.text(band / 2, top + (r + 0.5) * cell, str(r + 1), font, class_="coord")
    if game.gravity:
        c.add(
            "rect", class_="floor", x=left - 2, y=top + rows * cell, width=cols * cell + 4, height=floor, fill="#333333"
        )
        if not game.is_over():
            _landing_hints(c, game, left, top, cell)

    board = game.board()
    for r in range(rows):
        for col in range(cols):
            cx, cy = left + (col + 0.5) * cell, top + (r + 0.5) * cell
            _draw_mark(c, board[r][col], cx, cy, cell * 0.3, cell * 0.1, data_cell=_cell_name(r, col))

    for r0, c0, r1, c1 in segments:
        c.add(
            "line",
            class_="win-line",
            x1=left + (c0 + 0.5) * cell,
            y1=top + (r0 + 0.5) * cell,
            x2=left + (c1 + 0.5) * cell,
            y2=top + (r1 + 0.5) * cell,
            stroke=WIN_STROKE,
            stroke_width=cell * 0.08,
            stroke_linecap="round",
            stroke_opacity="0.7",
        )

    if last_move is not None:
        for target in game.move_cells(last_move):
            r, col = divmod(target, cols)
            _last_move_box(c, left + col * cell, top + r * cell, cell, _cell_name(r, col))
    return c, width, height


def _tint_cell(c: _Canvas, class_: str, i: int, cols: int, left: float, top: float, cell: float, fill: str) -> None:
    """Fills cell i (reading order, `cols` columns) of a grid whose top-left corner is (left, top)."""
    r, col = divmod(i, cols)
    c.add(
        "rect",
        class_=class_,
        data_cell=_cell_name(r, col),
        x=left + col * cell,
        y=top + r * cell,
        width=cell,
        height=cell,
        fill=fill,
    )


def _grid(c: _Canvas, left: float, top: float, rows: int, cols: int, cell: float, width: float) -> None:
    c.open("g", class_="grid", stroke=GRID, stroke_width=width)
    for col in range(cols + 1):
        c.add("line", x1=left + col * cell, y1=top, x2=left + col * cell, y2=top + rows * cell)
    for r in range(rows + 1):
        c.add("line", x1=left, y1=top + r * cell, x2=left + cols * cell, y2=top + r * cell)
    c.close("g")


def _landing_hints(c: _Canvas, game: Classic, left: float, top: float, cell: float) -> None:
    """A faint ring where a drop in each open column would land."""
    for i in game.playable_cells():
        r, col = divmod(i, game.cols)
        c.add(
            "circle",
            class_="landing",
            data_cell=_cell_name(r, col),
            cx=left + (col + 0.5) * cell,
            cy=top + (r + 0.5) * cell,
            r=cell * 0.12,
            fill="#c8c8c8",
        )


# ---------------------------------------------------------------------------
# Ultimate
# ---------------------------------------------------------------------------
_BOARD_CLASS = {
    BoardState.OPEN: "board-open",
    BoardState.X: "board-x",
    BoardState.O: "board-o",
    BoardState.DRAWN: "board-drawn",
}
_BOARD_FILL = {BoardState.OPEN: "#ffffff", BoardState.X: X_TINT, BoardState.O: O_TINT, BoardState.DRAWN: DRAWN_FILL}


def _ultimate_body(
    game: Ultimate, size: float, last_move: int | None, coordinates: bool
) -> tuple[_Canvas, float, float]:
    gap_ratio = 0.3  # the gap between small boards, in cells
    cell = max(size / (9 + 2 * gap_ratio), MIN_CELL)
    gap = cell * gap_ratio
    band = _label_band(cell) if coordinates else 4.0
    left = top = band
    span = 9 * cell + 2 * gap
    c = _Canvas()

    states = game.board_states()
    playable = set(game.playable_boards())

    def origin(board: int) -> tuple[float, float]:
        return left + (board % 3) * (3 * cell + gap), top + (board // 3) * (3 * cell + gap)

    def cell_xy(row: int, col: int) -> tuple[float, float]:
        # Grid row/column (0..8) to the top-left corner of the cell, gaps included.
        return left + col * cell + (col // 3) * gap, top + row * cell + (row // 3) * gap

    for b, state in enumerate(states):
        x0, y0 = origin(b)
        cls = f"board {_BOARD_CLASS[state]}" + (" playable" if b in playable else "")
        fill = PLAYABLE_FILL if b in playable else _BOARD_FILL[state]
        stroke = PLAYABLE_STROKE if b in playable else GRID
        c.add(
            "rect",
            class_=cls,
            data_board=b,
            x=x0,
            y=y0,
            width=3 * cell,
            height=3 * cell,
            fill=fill,
            stroke=stroke,
            stroke_width=max(1.5, cell * (0.09 if b in playable else 0.04)),
        )
        c.open("g", class_="grid", stroke="#9a9a9a", stroke_width=max(1.0, cell * 0.025))
        for k in (1, 2):
            c.add("line", x1=x0 + k * cell, y1=y0, x2=x0 + k * cell, y2=y0 + 3 * cell)
            c.add("line", x1=x0, y1=y0 + k * cell, x2=x0 + 3 * cell, y2=y0 + k * cell)
        c.close("g")

    if coordinates:
        font = band * 0.6
        for i in range(9):
            x, y = cell_xy(i, i)
            c.text(x + cell / 2, band / 2, _column_name(i), font, class_="coord")
            c.text(band / 2, y + cell / 2, str(i + 1), font, class_="coord")

    grid = game.board()
    for r in range(9):
        for col in range(9):
            x, y = cell_xy(r, col)
            # Marks of a closed board fade so that its big mark reads first.
            decided = states[Ultimate.grid_to_id(r, col) // 9].is_decided
            _draw_mark(
                c,
                grid[r][col],
                x + cell / 2,
                y + cell / 2,
                cell * 0.28,
                cell * 0.1,
                data_cell=_cell_name(r, col),
                opacity="0.35" if decided else None,
            )

    for b, state in enumerate(states):
        if state in (BoardState.X, BoardState.O):
            x0, y0 = origin(b)
            _draw_mark(
                c,
                state.name,
                x0 + 1.5 * cell,
                y0 + 1.5 * cell,
                cell * 1.1,
                cell * 0.3,
                kind="big",
                data_board=b,
                opacity="0.85",
            )

    for _, boards in game.completed_lines():  # the winner's lines of boards
        (xa, ya), (xb, yb) = origin(boards[0]), origin(boards[-1])
        c.add(
            "line",
            class_="win-line",
            x1=xa + 1.5 * cell,
            y1=ya + 1.5 * cell,
            x2=xb + 1.5 * cell,
            y2=yb + 1.5 * cell,
            stroke=WIN_STROKE,
            stroke_width=cell * 0.22,
            stroke_linecap="round",
            stroke_opacity="0.6",
        )

    if last_move is not None:
        for square in game.move_cells(last_move):
            r, col = divmod(square, 9)
            x, y = cell_xy(r, col)
            _last_move_box(c, x, y, cell, _cell_name(r, col))
    return c, left + span + 4.0, top + span + 4.0


# ---------------------------------------------------------------------------
# Quantum
# ---------------------------------------------------------------------------
# Where a classical mark's centre sits in its cell (fraction of the cell), x and y.
MARK_AT = 0.44


def _quantum_body(q: Quantum, size: float, last_move: int | None, coordinates: bool) -> tuple[_Canvas, float, float]:
    cell = max(size / 3, 3 * MIN_CELL)  # nine spooky marks must fit in a cell
    band = _label_band(cell) if coordinates else 4.0
    left = top = band
    c = _Canvas()
    pending = q.pending_collapse
    collapse_cells = set(pending[1]) if pending else set()
    c.add("rect", class_="board", x=left, y=top, width=3 * cell, height=3 * cell, fill=BOARD_FILL)
    for i in sorted(collapse_cells):  # the choice waiting: tinted under everything
        _tint_cell(c, "collapse-cell", i, 3, left, top, cell, COLLAPSE_FILL)
    _grid(c, left, top, 3, 3, cell, max(1.5, cell * 0.02))
    if coordinates:
        for i in range(3):
            c.text(left + (i + 0.5) * cell, band / 2, _column_name(i), band * 0.6, class_="coord")
            c.text(band / 2, top + (i + 0.5) * cell, str(i + 1), band * 0.6, class_="coord")

    for i, mark in enumerate(q.classical_marks()):
        if mark is not None:
            player, number = mark
            r, col = divmod(i, 3)
            # Off-centre towards the top left, to leave the bottom right to the number.
            cx, cy = left + (col + MARK_AT) * cell, top + (r + MARK_AT) * cell
            colour = X_COLOUR if player == Player.X else O_COLOUR
            _draw_mark(c, player.name, cx, cy, cell * 0.24, cell * 0.08, data_cell=_cell_name(r, col), data_mark=number)
            c.text(
                left + (col + 0.83) * cell,
                top + (r + 0.82) * cell,
                str(number),
                cell * 0.17,
                class_="mark-number",
                fill=colour,
                font_weight="bold",
            )

    newest = pending[0] if pending else None
    boxed = _quantum_last_mark(q, last_move)
    font = cell * 0.16
    for number, player, cells in q.spooky_marks():
        for i in cells:
            _spooky_label(c, left, top, cell, font, i, number, player, number == newest, number == boxed)

    for i in sorted(collapse_cells):  # outlined over the marks so it stays visible
        r, col = divmod(i, 3)
        inset = cell * 0.03
        c.add(
            "rect",
            class_="collapse",
            data_cell=_cell_name(r, col),
            x=left + col * cell + inset,
            y=top + r * cell + inset,
            width=cell - 2 * inset,
            height=cell - 2 * inset,
            fill="none",
            stroke=COLLAPSE,
            stroke_width=max(2.0, cell * 0.03),
            stroke_dasharray=f"{_num(cell * 0.08)},{_num(cell * 0.05)}",
        )

    if q.is_over():
        winner = q.winner
        for player, line in q.completed_lines():
            # The winner's lines decide; the loser's (EARLIER_LINE) are drawn thin and dashed.
            a, b = divmod(line[0], 3), divmod(line[2], 3)
            deciding = player == winner
            c.add(
                "line",
                class_="win-line" if deciding else "late-line",
                x1=left + (a[1] + MARK_AT) * cell,
                y1=top + (a[0] + MARK_AT) * cell,
                x2=left + (b[1] + MARK_AT) * cell,
                y2=top + (b[0] + MARK_AT) * cell,
                stroke=WIN_STROKE,
                stroke_width=cell * (0.06 if deciding else 0.025),
                stroke_linecap="round",
                stroke_opacity="0.7",
                stroke_dasharray=None if deciding else f"{_num(cell * 0.06)},{_num(cell * 0.05)}",
            )

    if last_move is not None and boxed is None:
        for i in q.move_cells(last_move):
            r, col = divmod(i, 3)
            _last_move_box(c, left + col * cell, top + r * cell, cell, _cell_name(r, col))
    return c, left + 3 * cell + 4.0, top + 3 * cell + 4.0


def _quantum_last_mark(q: Quantum, last_move: int | None) -> int | None:
    """The spooky mark a pair move wrote, if it is still spooky (its labels get the last-move frame)."""
    if last_move is None:
        return None
    cells = tuple(q.move_cells(last_move))
    numbers = [number for number, _, pair in q.spooky_marks() if len(cells) == 2 and tuple(pair) == cells]
    return max(numbers) if numbers else None


def _spooky_label(
    c: _Canvas,
    left: float,
    top: float,
    cell: float,
    font: float,
    i: int,
    number: int,
    player: Player,
    newest: bool,
    last: bool,
) -> None:
    """A spooky mark 'x1' in slot number-1 of the cell's 3x3 slots, so a mark sits at the same place in both its cells.

    The mark waiting for its collapse gets a purple-tinted box, the mark of
    the last move an orange frame (both, when it is both).
    """
    r, col = divmod(i, 3)
    slot_r, slot_c = divmod(number - 1, 3)
    x = left + col * cell + (slot_c + 0.5) * cell / 3
    y = top + r * cell + (slot_r + 0.5) * cell / 3
    if newest or last:
        cls = " ".join(name for name, on in (("collapse-mark", newest), ("last-move", last)) if on)
        c.add(
            "rect",
            class_=cls,
            data_cell=_cell_name(r, col),
            x=x - cell * 0.15,
            y=y - cell * 0.12,
            width=cell * 0.3,
            height=cell * 0.24,
            rx=cell * 0.04,
            fill="#ffffff",
            stroke=LAST_MOVE if last else COLLAPSE,
            stroke_width=max(1.5, cell * 0.02),
        )
    letter = "x" if player == Player.X else "o"
    colour = X_COLOUR if player == Player.X else O_COLOUR
    c.text(
        x,
        y,
        f"{letter}{number}",
        font,
        class_=f"spooky spooky-{letter}",
        data_cell=_cell_name(r, col),
        data_mark=number,
        fill=colour,
        font_weight="bold" if newest else None,
    )


# ---------------------------------------------------------------------------
# The entry point
# ---------------------------------------------------------------------------
def svg(
    game: _Game,
    size: float = 400,
    last_move: MoveLike | None = None,
    *,
    coordinates: bool = True,
    status: bool = True,
    title: str | None = None,
) -> str:
    """A standalone SVG document (a str) picturing `game`.

    - `size`: the board's size in pixels (its longer side). Cells never get
      smaller than 24 pixels, so a 1x64 board is wider than `size`.
    - `last_move`: the move to mark with an orange frame: an id, a Move or
      notation. By default the last move of the game's history, if any.
    - `coordinates`: column letters and row numbers around the board.
    - `status`: a line under the board: who moves, or how the game ended.
    - `title`: a line of text above the board (escaped; any text is safe).

    Classic highlights the winning line of a finished game and draws a floor
    and drop arrows under gravity; Ultimate shades won and drawn boards and
    frames the board(s) the mover may play in; Quantum shows spooky marks
    small (``x1``) and classical marks large with their number, outlines the
    two cells of a pending collapse and draws the deciding line(s).
    """
    if isinstance(size, bool) or not isinstance(size, (int, float)) or not 16 <= size <= 10_000:
        raise InvalidOptionError(f"size must be a number of pixels between 16 and 10000, not {size!r}")
    if not isinstance(game, (Classic, Ultimate, Quantum)):
        raise TypeError(f"svg() draws Classic, Ultimate and Quantum games, not {type(game).__name__}")
    move_id = _last_move_id(game, last_move)
    body, width, height = _body(game, float(size), move_id, coordinates)
    text = game.status if status else None  # the game says it (one home for its rules)
    desc = f"{type(game).__name__}: {game.to_string()}"
    return _compose(body, width, height, title, text, desc)


def _body(game: object, size: float, move_id: int | None, coordinates: bool) -> tuple[_Canvas, float, float]:
    if isinstance(game, Classic):
        return _classic_body(game, size, move_id, coordinates)
    if isinstance(game, Ultimate):
        return _ultimate_body(game, size, move_id, coordinates)
    if isinstance(game, Quantum):
        return _quantum_body(game, size, move_id, coordinates)
    raise AssertionError("svg() checked the game's type")


svg_of = svg


class _CallableModule(types.ModuleType):
    """This module's class: calling the module draws, as ``svg_of`` does."""

    def __call__(self, *args: Any, **kwargs: Any) -> str:
        return svg(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
