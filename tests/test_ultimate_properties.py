"""Properties of Ultimate over random move sequences (hypothesis), and the playout distribution."""

from __future__ import annotations

import math

import game_choices
import noughts
from hypothesis import given
from hypothesis import strategies as st
from noughts import IllegalMoveError, InvalidMoveError, Player, Ultimate

choices = game_choices.choices(90)


def play_out(picks: list[int]) -> Ultimate:
    return game_choices.play_choices(Ultimate(), picks)


def snapshot(g: Ultimate) -> tuple:
    return (
        g.to_string(),
        g.position_hash(),
        hash(g),
        g.move_ids,
        g.legal_actions(),
        g.forced_board,
        g.board_states(),
        g.to_move,
        g.winner,
        g.termination,
        g.ply,
    )


@given(choices)
def test_play_then_undo_restores_everything(picks: list[int]) -> None:
    g = Ultimate()
    for pick in picks:
        legal = g.legal_actions()
        if not legal:
            break
        before = snapshot(g)
        move = legal[pick % len(legal)]
        g.play(move)
        assert g.undo() == move
        assert snapshot(g) == before
        g.play(move)
    # ... and undoing everything gets back to the start.
    while g.move_ids:
        g.undo()
    assert g == Ultimate() and snapshot(g) == snapshot(Ultimate())


GARBAGE = ["", " ", "z9", "e0", "e55", "4/", "4-4", "x", "a1a1", "//", "e5!", "４/４"]


@given(choices, st.integers(min_value=0, max_value=10**6))
def test_rejected_moves_change_nothing(picks: list[int], salt: int) -> None:
    g = play_out(picks)
    before = snapshot(g)
    legal = set(g.legal_actions())
    illegal_ids = [m for m in range(81) if m not in legal]
    tries: list[object] = [-1, 81, 10**9, -(10**9), 1.5, None, True]
    tries += illegal_ids[salt % len(illegal_ids) :: 7] if illegal_ids else []
    tries += [g.move_name(m) for m in illegal_ids[salt % max(1, len(illegal_ids)) :: 11]]
    tries += GARBAGE
    for move in tries:
        try:
            g.play(move)  # type: ignore[arg-type]
        except (IllegalMoveError, InvalidMoveError) as e:
            if isinstance(move, int) and not isinstance(move, bool) and 0 <= move < 81 and not g.is_over():
                # The message says where the mover may play.
                assert "must play in board" in str(e) or "may play in any open board" in str(e)
        else:
            raise AssertionError(f"{move!r} was accepted in {g.to_string()}")
        assert snapshot(g) == before


@given(choices)
def test_position_string_round_trips(picks: list[int]) -> None:
    g = play_out(picks)
    text = g.to_string()
    back = Ultimate.from_string(text)
    assert back == g and hash(back) == hash(g)
    assert back.to_string() == text
    assert snapshot(back)[:1] + snapshot(back)[4:] == snapshot(g)[:1] + snapshot(g)[4:]
    assert back.outcome() == g.outcome()
    assert eval(repr(g), {"noughts": noughts}) == g


@given(choices)
def test_marks_agree_with_history(picks: list[int]) -> None:
    g = play_out(picks)
    grid = g.board()
    for i, m in enumerate(g.move_ids):
        b, c = divmod(m, 9)
        mark = "X" if i % 2 == 0 else "O"
        assert g.cell(b, c) == mark
        assert grid[b // 3 * 3 + c // 3][b % 3 * 3 + c % 3] == mark
    assert sum(v != "." for row in grid for v in row) == g.ply


# ---------------------------------------------------------------- symmetry

# The dihedral group on a 3x3 index (game_choices writes it independently of the engine):
SYM = game_choices.SQUARE_SYMMETRIES


def map_move(s: int, move: int) -> int:
    b, c = divmod(move, 9)
    return SYM[s][b] * 9 + SYM[s][c]


@given(choices, st.integers(min_value=0, max_value=7))
def test_symmetric_positions_play_alike(picks: list[int], s: int) -> None:
    g = play_out(picks)
    image = g.symmetric(s)
    # The image is the position reached by the mapped moves...
    mapped = Ultimate()
    for m in g.move_ids:
        mapped.play(map_move(s, m))
    assert image == mapped and hash(image) == hash(mapped)
    assert image.to_string() == mapped.to_string()
    # ... its legal moves are the images of the legal moves, and it counts alike.
    assert image.legal_actions() == sorted(map_move(s, m) for m in g.legal_actions())
    assert noughts.perft(image, 2) == noughts.perft(g, 2)
    assert image.winner == g.winner and image.forced_board == (
        None if g.forced_board is None else SYM[s][g.forced_board]
    )


def test_symmetry_images_are_distinct() -> None:
    # Eight different images of an asymmetric position: the maps are the whole group.
    g = Ultimate()
    for m in ("b1", "d2", "c5"):
        g.play(m)
    assert len({g.symmetric(s).to_string() for s in range(8)}) == 8


# ------------------------------------------------------- playout distribution


def exact_distribution(g: Ultimate, memo: dict[str, tuple[float, float, float]]) -> tuple[float, float, float]:
    """P(X wins), P(O wins), P(draw) when both players pick uniformly among the legal moves."""
    key = g.to_string()
    if key not in memo:
        if g.is_over():
            memo[key] = {Player.X: (1.0, 0.0, 0.0), Player.O: (0.0, 1.0, 0.0), None: (0.0, 0.0, 1.0)}[g.winner]
        else:
            legal = g.legal_actions()
            total = [0.0, 0.0, 0.0]
            for m in legal:
                g.play(m)
                for i, p in enumerate(exact_distribution(g, memo)):
                    total[i] += p / len(legal)
                g.undo()
            memo[key] = (total[0], total[1], total[2])
    return memo[key]


def test_random_playouts_pick_uniformly_among_legal_moves() -> None:
    # A free move with open boards of 2, 5, 1 and 2 empty cells, a few plies from the end: picking a
    # board first and then a cell (a common mistake) moves P(X wins) by about 0.03.
    g = Ultimate.from_string(
        "oxx..oo../x.x..oo../.xoo.oo.x/x...x.x.x/ooox.xxoo/.x.x..oxo/o.xo..ox./..xoooxox/.xxox..ox -"
    )
    assert g.forced_board is None and len(g.open_boards()) == 4
    expected = exact_distribution(g, {})
    n = 400_000
    counts = noughts.random_playouts(g, n, seed=5)
    for p, count in zip(expected, counts):
        sigma = math.sqrt(p * (1 - p) / n)
        assert abs(count / n - p) < 5 * sigma + 1e-9, (expected, [c / n for c in counts])
