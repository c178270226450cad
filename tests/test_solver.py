"""The exact solver: known values, an exhaustive referee, principal variations, limits."""

import itertools
import random

import noughts
import pytest
from minimax import minimax, move_values
from noughts import Classic

X, DRAW, O = 1, 0, -1


@pytest.mark.parametrize(
    "game,value",
    [
        (Classic(), DRAW),
        (Classic(4, 4, 3), X),
        (Classic(4, 4, 4), DRAW),
        (Classic(free_choice=True), X),
        (Classic(misere=True), DRAW),
        # John Tromp's Connect-Four table, k = 4: 4 columns x 4 rows and 5 x 4 draw, 6 x 4 a second-player win.
        (Classic(4, 4, 4, gravity=True), DRAW),
        (Classic(4, 5, 4, gravity=True), DRAW),
        (Classic(4, 6, 4, gravity=True), O),
        # C. Y. Lee: 5x5 four-in-a-row is a draw (a few seconds).
        (Classic(5, 5, 4), DRAW),
    ],
    ids=lambda x: x.to_string() if isinstance(x, Classic) else str(x),
)
def test_known_values(game, value):
    solution = noughts.solve(game)
    assert solution.value == value
    assert_principal_variation_is_sound(game, solution)


def assert_principal_variation_is_sound(game, solution):
    g = game.copy()
    for move in solution.principal_variation:
        g.play(move)
    assert g.is_over()
    winner = {X: noughts.Player.X, O: noughts.Player.O, DRAW: None}[solution.value_for(noughts.Player.X)]
    assert g.winner == winner
    if solution.distance is not None:
        assert len(solution.principal_variation) == solution.distance
    assert solution.principal_variation[0] in solution.best_moves


SMALL = [
    (rows, cols, k, m, f, g)
    for rows, cols, k in [(3, 3, 3), (2, 4, 3), (3, 2, 2), (2, 3, 2), (1, 5, 3), (2, 3, 1)]
    for m in (False, True)
    for f in (False, True)
    for g in (False, True)
]


@pytest.mark.parametrize("rows,cols,k,misere,free,gravity", SMALL)
def test_small_boards_against_exhaustive_minimax(rows, cols, k, misere, free, gravity):
    game = Classic(rows, cols, k, misere=misere, free_choice=free, gravity=gravity)
    memo = {}
    value, distance = minimax(game.copy(), memo)
    solution = noughts.solve(game, move_values=True)
    mover_sign = 1 if game.to_move == noughts.Player.X else -1
    assert solution.value == value and solution.value_for(noughts.Player.X) == value * mover_sign
    assert solution.value_for(noughts.Player.O) == -value * mover_sign and solution.to_move == game.to_move
    if value != 0:
        assert solution.distance == distance
    assert solution.move_values == move_values(game.copy(), memo)
    assert [m.id for m in solution.best_moves] == sorted(i for i, v in solution.move_values.items() if v == value)
    assert_principal_variation_is_sound(game, solution)


TINY = [
    (rows, cols, k, m, f, g)
    for rows, cols in [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2), (1, 4), (3, 1), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)]
    for k in range(1, max(rows, cols) + 1)
    for m, f, g in itertools.product((False, True), repeat=3)
    if not (f and rows * cols > 9)
]


@pytest.mark.parametrize("rows,cols,k,misere,free,gravity", TINY)
def test_tiny_boards_with_every_k_by_every_route(rows, cols, k, misere, free, gravity):
    """Every allowed k, down to 1 (each mark completes a line), on boards small enough for
    minimax: the strong and weak solves, proof-number search and the solve keyed without
    symmetry all give minimax's value, and its distance where they give one."""
    game = Classic(rows, cols, k, misere=misere, free_choice=free, gravity=gravity)
    value, distance = minimax(game.copy(), {})
    for route in (dict(), dict(weak=True), dict(method="pns"), dict(symmetry=False)):
        s = noughts.solve(game, **route)
        assert s.value == value, route
        if value != 0 and s.distance is not None:
            assert s.distance == distance, route


def random_position(make, plies, seed):
    rng = random.Random(seed)
    while True:
        g = make()
        for _ in range(plies):
            if g.is_over():
                break
            g.play(rng.choice(g.legal_actions()))
        if not g.is_over():
            return g


@pytest.mark.parametrize("seed", range(24))
def test_mid_game_positions_against_minimax(seed):
    # Every combination of the options three times (the bits of seed % 8).
    options = dict(misere=seed & 1 == 1, free_choice=seed & 2 == 2, gravity=seed & 4 == 4)
    g = random_position(lambda: Classic(4, 4, 3, **options), 9 if options["free_choice"] else 7, seed)
    memo = {}
    value, distance = minimax(g.copy(), memo)
    solution = noughts.solve(g, move_values=True)
    assert solution.value == value
    assert [m.id for m in solution.best_moves] == sorted(i for i, v in solution.move_values.items() if v == value)
    assert noughts.solve(g).best_moves == solution.best_moves  # the cheap way finds the same moves
    assert solution.move_values == move_values(g.copy(), memo)
    if value != 0:
        assert solution.distance == distance
    assert_principal_variation_is_sound(g, solution)


def assert_matches_minimax(g):
    """The solver's value, every move's value and the distance agree with the exhaustive referee."""
    memo = {}
    value, distance = minimax(g.copy(), memo)
    solution = noughts.solve(g, move_values=True)
    assert solution.value == value
    assert solution.move_values == move_values(g.copy(), memo)
    if value != 0:
        assert solution.distance == distance
    assert_principal_variation_is_sound(g, solution)


@pytest.mark.parametrize("board", [(6, 6, 4), (6, 6, 3)])
@pytest.mark.parametrize("seed", range(8))
def test_larger_boards_late_positions_against_minimax(board, seed):
    """Boards past 32 cells (two-word symmetric images), with up to 64 lines (6x6 k=4: 54,
    the tactics visit the live lines the search state keeps) and more (6x6 k=3: 80, the
    tactics scan every line): late positions in every option combination."""
    options = dict(misere=seed & 1 == 1, free_choice=seed & 2 == 2, gravity=seed & 4 == 4)
    empty = 7 if options["free_choice"] else 9
    g = random_position(lambda: Classic(*board, **options), 36 - empty, seed)
    assert_matches_minimax(g)


@pytest.mark.parametrize("board", [(6, 7, 4), (5, 5, 4), (8, 8, 4), (4, 9, 3)])
@pytest.mark.parametrize("seed", range(6))
def test_gravity_boards_in_both_layouts_against_minimax(board, seed):
    """Gravity played in turn takes its tactics and move order column by column where the
    columns fit a word with a bit to spare ((rows + 1) * cols <= 64: 7x6, 5x5; the state
    carries them), else in the cells (8x8, 9x4 with k=3): late positions of each agree with
    the exhaustive referee."""
    rows, cols, k = board
    g = random_position(lambda: Classic(rows, cols, k, gravity=True), rows * cols - 10, seed)
    assert_matches_minimax(g)


OPTION_SETS = list(itertools.product([False, True], repeat=3))  # misere, free choice, gravity
TABLE_CASES = [((4, 4, 4), (False, False, False), 4, seed, 0.01) for seed in range(6)] + [
    # 5x5 k=4 with 14 empty cells (12 in misere free choice, whose trees are far larger)
    ((5, 5, 4), opts, 13 if opts[0] and opts[1] and not opts[2] else 11, seed, 1.5)
    for opts in OPTION_SETS
    for seed in range(3)
]


@pytest.mark.parametrize("board,opts,plies,seed,tt_mb", TABLE_CASES)
def test_symmetry_and_table_size_do_not_change_the_answer(board, opts, plies, seed, tt_mb):
    """With the default table and symmetry, and with a small table without symmetry, every
    move's value and the distance agree."""
    misere, free, gravity = opts
    g = random_position(lambda: Classic(*board, misere=misere, free_choice=free, gravity=gravity), plies, seed)
    a = noughts.solve(g, move_values=True)
    b = noughts.solve(g, symmetry=False, tt_mb=tt_mb, move_values=True)
    assert (a.value, a.distance, a.move_values) == (b.value, b.distance, b.move_values)
    assert_principal_variation_is_sound(g, a)


THREAD_CASES = [((4, 4, 4), opts, 3, seed) for opts in OPTION_SETS for seed in range(2)] + [
    ((5, 5, 4), opts, 12, seed) for opts in OPTION_SETS if not (opts[0] and opts[1]) for seed in range(2)
]


@pytest.mark.parametrize("board,opts,plies,seed", THREAD_CASES)
def test_threads_sharing_the_table_find_what_one_thread_finds(board, opts, plies, seed):
    misere, free, gravity = opts
    g = random_position(lambda: Classic(*board, misere=misere, free_choice=free, gravity=gravity), plies, seed)
    one, two = noughts.solve(g), noughts.solve(g, threads=2, tt_mb=8)
    assert (one.value, one.distance, one.best_moves) == (two.value, two.distance, two.best_moves)
    assert_principal_variation_is_sound(g, two)
    weak_one, weak_two = noughts.solve(g, weak=True), noughts.solve(g, weak=True, threads=2, tt_mb=8)
    assert weak_one.value == weak_two.value == one.value
    assert weak_two.best_moves[0] in one.best_moves  # a move that keeps the value


def test_threads_on_a_solve_big_enough_for_the_helpers():
    """A Connect Four position of about 1.4 M nodes: past the nodes one thread searches alone
    before the others start, so the threads share the table for most of the solve."""
    g = Classic.from_string("......./......./......./.x...../.o..o.o/xo.xx.x k=4 gravity")
    one, two = noughts.solve(g), noughts.solve(g, threads=2)
    assert (one.value, one.distance, one.best_moves) == (two.value, two.distance, two.best_moves)
    assert one.nodes > 2**12  # the helpers' start (SolveLimits::help_after_nodes)
    assert_principal_variation_is_sound(g, two)


@pytest.mark.parametrize(
    "position",
    [
        "......./......./......./.x...../.o..o.o/xo.xx.x k=4 gravity",
        # 5x5 four in a row, 23 empty cells: most of the solve is the root moves' questions
        "...../.x.../..o../...../..... k=4",
    ],
)
def test_threads_take_the_root_moves_in_turn_and_find_every_value(position):
    """With the helpers running, the root moves' questions (every best move, every move's
    value) are a batch the threads take move by move: the same values as one thread."""
    g = Classic.from_string(position)
    one, two = noughts.solve(g, move_values=True), noughts.solve(g, move_values=True, threads=2)
    assert (one.value, one.distance, one.move_values, one.best_moves) == (
        two.value,
        two.distance,
        two.move_values,
        two.best_moves,
    )
    best_one, best_two = noughts.solve(g), noughts.solve(g, threads=2)
    assert best_one.best_moves == best_two.best_moves == one.best_moves


def test_a_time_limit_stops_two_threads_in_any_phase():
    """Limits that fall in the value, the distance or the root moves' batch: a timeout or the
    one-thread answer, and the next solve runs as usual (no helper left behind)."""
    g = Classic.from_string("...../.x.../..o../...../..... k=4")
    full = noughts.solve(g)
    for limit in (0.005, 0.02, 0.05, 0.1, 0.2, 0.4):
        try:
            s = noughts.solve(g, threads=2, max_seconds=limit)
        except noughts.SearchTimeout:
            continue
        assert (s.value, s.distance, s.best_moves) == (full.value, full.distance, full.best_moves)
    assert noughts.solve(g, threads=2).best_moves == full.best_moves


def test_threads_keep_the_table_of_a_search_rich_in_transpositions():
    """A shared table keeps the verdict it had when the helpers joined (rich in
    transpositions, so it grows at once past a core's cache, or not): the helpers wait for a
    verdict. Joining before it, on this 5x5 misere free choice position (2.9 M nodes alone),
    two threads searched 1.75 times one thread's nodes in a table too small; with it, about
    as many."""
    g = Classic.from_string("o..x./.ooxx/x.xo./..o../....o k=4 misere free")
    one, two = noughts.solve(g), noughts.solve(g, threads=2)
    assert (one.value, one.distance, one.best_moves) == (two.value, two.distance, two.best_moves)
    assert two.nodes < 1.3 * one.nodes


def test_threads_are_checked():
    for bad in (0, -1, 1.5, True, "2", 10_000):
        with pytest.raises(noughts.InvalidOptionError, match="threads"):
            noughts.solve(Classic(), threads=bad)
        with pytest.raises(noughts.InvalidOptionError, match="threads"):
            noughts.solve(Classic(), threads=bad, method="pns")


def test_whole_4x4_game_with_a_small_table():
    g = Classic(4, 4, 4)
    a, b = noughts.solve(g), noughts.solve(g, tt_mb=1.5)
    assert (a.value, a.distance) == (b.value, b.distance) == (DRAW, None)
    assert a.best_moves == b.best_moves
    assert len(a.best_moves) == 16  # every first move draws


@pytest.mark.parametrize(
    "make,plies,seed",
    [(noughts.Ultimate, 58, seed) for seed in range(5)] + [(noughts.Quantum, 6, seed) for seed in range(6)],
    ids=lambda x: getattr(x, "__name__", str(x)),
)
def test_ultimate_and_quantum_positions_against_minimax(make, plies, seed):
    """Ultimate endgames and Quantum middle games: every value and distance against the exhaustive referee."""
    g = random_position(make, plies, seed)
    assert_matches_minimax(g)


def test_quantum_is_a_first_player_win():
    """Ishizeki and Matsuura: under the single-result rule X wins (a few seconds)."""
    solution = noughts.solve(noughts.Quantum())
    assert solution.value == X
    assert_principal_variation_is_sound(noughts.Quantum(), solution)


def test_best_move_wins_fastest():
    g = Classic()
    for m in ("a1", "a2", "b1", "b2"):
        g.play(m)
    assert noughts.best_move(g).name == "c1"  # wins at once (c2 would only block)


def test_time_limit_raises_search_timeout():
    with pytest.raises(noughts.SearchTimeout) as info:
        noughts.solve(Classic(5, 5, 4, misere=True), max_seconds=0.2)  # a solve of about a minute
    assert info.value.nodes > 0 and isinstance(info.value, TimeoutError)


def test_bad_arguments():
    g = Classic()
    for kwargs in (dict(max_seconds=0), dict(max_seconds=-1), dict(tt_mb=0), dict(max_seconds="1")):
        with pytest.raises(noughts.InvalidOptionError):
            noughts.solve(g, **kwargs)
    for m in ("a1", "a2", "b1", "b2", "c1"):
        g.play(m)
    with pytest.raises(noughts.IllegalMoveError, match="over"):
        noughts.solve(g)


@pytest.mark.skipif(__import__("sys").platform == "win32", reason="SIGINT to a child process is POSIX")
def test_ctrl_c_stops_a_long_solve():
    import signal
    import subprocess
    import sys
    import time

    code = (
        "import noughts, signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)  # even if the test run ignores SIGINT\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    noughts.solve(noughts.Classic(8, 8, 5))\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=20)
    finally:
        proc.kill()  # never leave an 8x8 solve running
    assert "interrupted" in out and proc.returncode == 0


def test_value_is_the_movers_and_value_for_names_a_viewpoint():
    # O to move on 3x3 after X's corner and O's edge: X wins, so O (the mover) loses.
    g = Classic()
    g.play("a1")
    g.play("b1")
    s = noughts.solve(g)
    assert s.to_move == noughts.Player.X and s.value == 1
    g.play(s.best_moves[0])
    s = noughts.solve(g)
    assert s.to_move == noughts.Player.O and s.value == -1
    assert s.value_for(noughts.Player.O) == -1 and s.value_for(noughts.Player.X) == 1
    assert s.result == "X wins"
    r = noughts.MCTS(seed=3).search(g, iterations=20_000)
    assert r.to_move == noughts.Player.O and r.proven_value == s.value == r.value
    assert r.value_for(noughts.Player.X) == -r.value


@pytest.mark.parametrize(
    "cols,rows,misere,free_choice",
    [
        (5, 4, True, False),
        (4, 5, True, False),
        (6, 4, True, False),
        (4, 6, True, False),
        (4, 5, False, True),
        (4, 5, True, True),
        (5, 4, True, True),
    ],
    ids=lambda x: str(x),
)
def test_gravity_values_no_one_tabulated_agree_by_other_routes(cols, rows, misere, free_choice):
    """The gravity rows of docs/solver-results.md with misere or free choice have no published value
    to compare with: the table's solve (strong, keyed by symmetry) must agree with a weak solve keyed
    without symmetry, which asks other questions of a differently filled table, and, on the boards
    small enough for it, with proof-number search."""
    g = Classic(rows, cols, 4, gravity=True, misere=misere, free_choice=free_choice)
    strong = noughts.solve(g)
    weak = noughts.solve(g, weak=True, symmetry=False)
    assert strong.value == weak.value
    assert_principal_variation_is_sound(g, strong)
    if not free_choice:
        assert noughts.solve(g, method="pns", weak=True).value == strong.value
