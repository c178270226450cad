"""Classic move counting: published perft figures and the reachable-position count."""

import noughts
import pytest
from classic_model import ClassicModel
from model_perft import model_perft

PERFT_3X3 = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
PERFT_4X4_K4 = [16, 240, 3360, 43680]


@pytest.mark.parametrize("depth", range(1, 10))
def test_perft_3x3(depth):
    assert noughts.perft(noughts.Classic(), depth) == PERFT_3X3[depth - 1]


@pytest.mark.parametrize("depth", range(1, 5))
def test_perft_4x4_k4(depth):
    assert noughts.perft(noughts.Classic(4, 4, 4), depth) == PERFT_4X4_K4[depth - 1]


def test_perft_depth_zero_and_past_the_end():
    g = noughts.Classic()
    assert noughts.perft(g, 0) == 1
    assert noughts.perft(g, 10) == 0  # every 3x3 game ends by ply 9


def test_reachable_3x3_positions_by_hash():
    """5,478 distinct positions (empty board included), told apart by the engine's hash."""
    start = noughts.Classic()
    seen = {start.position_hash(): start.to_string()}
    frontier = [start]
    while frontier:
        nxt = []
        for g in frontier:
            for m in g.legal_actions():
                child = g.copy()
                child.play(m)
                h = child.position_hash()
                if h not in seen:
                    seen[h] = child.to_string()
                    nxt.append(child)
                else:
                    assert seen[h] == child.to_string(), "hash collision"
        frontier = nxt
    assert len(seen) == 5478


OPTION_SETS = [
    dict(misere=m, free_choice=f, gravity=g) for m in (False, True) for f in (False, True) for g in (False, True)
]
SMALL_BOARDS = [(1, 1, 1), (1, 4, 2), (2, 2, 2), (2, 3, 2), (3, 2, 3), (3, 3, 3), (2, 4, 3), (3, 3, 2)]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(k for k, v in o.items() if v) or "plain")
@pytest.mark.parametrize("rows,cols,k", SMALL_BOARDS)
def test_perft_matches_independent_model(rows, cols, k, options):
    """Every option combination on small boards against the slow Python model."""
    game = noughts.Classic(rows, cols, k, **options)
    model = ClassicModel(rows, cols, k, **options)
    depth = min(rows * cols, 4 if options["free_choice"] else 6)
    for d in range(1, depth + 1):
        assert noughts.perft(game, d) == model_perft(model, d), f"depth {d}"
