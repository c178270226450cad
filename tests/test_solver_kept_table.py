"""noughts.Solver: alpha-beta solves that keep their table between positions. Whatever it solved
before, under any options, its answers are the exhaustive referee's (small boards) and a fresh
solve's, and a stopped solve leaves the table usable."""

import threading

import noughts
import pytest
from game_choices import choices, play_choices, random_game
from hypothesis import given, settings
from hypothesis import strategies as st
from minimax import minimax, move_values
from noughts import Classic, IllegalMoveError, InvalidOptionError, SearchTimeout, Ultimate

OPTION_SETS = [
    dict(misere=m, free_choice=f, gravity=g) for m in (False, True) for f in (False, True) for g in (False, True)
]
# The ways a solve is asked for, mixed in one table: each stores bounds of its own questions.
ASKS = [dict(), dict(weak=True), dict(move_values=True), dict(all_best_moves=False), dict(threads=2)]


def ends_with(game, line, value, distance):
    """Whether playing `line` from `game` ends it with `value` for its mover in `distance` plies."""
    g, me = game.copy(), game.to_move
    for m in line:
        assert not g.is_over()
        g.play(m.id)
    result = 0 if g.winner is None else (1 if g.winner == me else -1)
    return g.is_over() and result == value and (value == 0 or len(line) == distance)


def assert_solves(solver, game, memo, ask):
    """The solver's answer is the referee's value, distance, best moves and move values."""
    s = solver.solve(game, **ask)
    value, distance = minimax(game.copy(), memo)
    values = move_values(game.copy(), memo)
    assert s.value == value and s.to_move == game.to_move
    best = sorted(m for m, v in values.items() if v == value)
    if ask.get("weak"):
        assert s.distance is None and len(s.best_moves) == 1 and values[s.best_moves[0].id] == value
    else:
        assert s.distance == (distance if value else None)
        assert ends_with(game, s.principal_variation, value, distance)
        if not ask.get("all_best_moves", True):
            assert s.best_moves == s.principal_variation[:1]
        else:
            assert [m.id for m in s.best_moves] == best
    if ask.get("move_values"):
        assert s.move_values == values


@given(st.sampled_from(OPTION_SETS), st.lists(st.tuples(choices(12), st.sampled_from(range(len(ASKS)))), max_size=4))
@settings(max_examples=30, deadline=None)
def test_one_solver_answers_many_positions_of_many_boards_as_the_referee(options, games):
    """Positions of several boards and option sets, from each game's end back, asked in every way,
    through one solver with a small table: nothing solved under one set of options or one way of
    asking leaks wrongly into another."""
    solver, memos = noughts.Solver(tt_mb=1), {}
    for i, (picks, ask) in enumerate(games):
        board = [(3, 3, 3), (3, 4, 3), (4, 3, 3)][i % 3]
        for rules in (options, {**options, "misere": not options["misere"]}):  # the same keys, other values
            game = play_choices(Classic(*board, **rules), picks)
            history = [game.copy()]
            while history[-1].ply > 0:
                previous = history[-1].copy()
                previous.undo()
                history.append(previous)
            for position in history:
                # The referee takes the 12-cell boards from their fourth move on.
                if not position.is_over() and (board == (3, 3, 3) or position.ply >= 4):
                    assert_solves(solver, position, memos.setdefault((board, str(rules)), {}), ASKS[ask])


@pytest.mark.parametrize(
    ("make", "plies"),
    [
        (lambda: Classic(6, 7, 4, gravity=True), 10),
        (lambda: Classic(5, 5, 4, misere=True, free_choice=True), 12),
        (lambda: Ultimate(tiebreak=True), 46),
        (lambda: noughts.Quantum(), 2),
    ],
)
def test_a_game_played_on_gets_the_answers_of_fresh_solves(make, plies):
    """Each position of a game as it is played, solved in turn (on one thread or two): the same
    answers as fresh solves."""
    game = random_game(make, 3, plies)
    assert not game.is_over()
    solver = noughts.Solver()
    while not game.is_over():
        # Two threads now and then: the table is shared while they run, then one thread's again.
        kept = solver.solve(game, book=False, threads=1 + game.ply % 2)
        fresh = noughts.solve(game, book=False)
        assert (kept.value, kept.distance, kept.best_moves) == (fresh.value, fresh.distance, fresh.best_moves)
        assert ends_with(game, kept.principal_variation, kept.value, kept.distance)
        game.play(kept.principal_variation[0].id)


def test_a_position_asked_again_is_answered_from_the_table():
    solver = noughts.Solver()
    game = Classic.from_string("......./......./......./.x...../.o..o.o/xo.xx.x k=4 gravity")
    first, again = solver.solve(game), solver.solve(game)
    assert (again.value, again.distance, again.best_moves) == (first.value, first.distance, first.best_moves)
    assert again.nodes * 10 < first.nodes
    solver.clear()
    assert solver.solve(game).nodes * 10 > first.nodes  # forgotten


def test_a_stopped_solve_leaves_the_table_usable():
    solver = noughts.Solver()
    game = random_game(lambda: Classic(5, 5, 4, misere=True, free_choice=True), 1, 12)
    assert not game.is_over()
    with pytest.raises(SearchTimeout):
        solver.solve(game, max_seconds=1e-3)  # asked every 4,096 nodes: it stops after the first
    s, fresh = solver.solve(game), noughts.solve(game)
    assert (s.value, s.distance, s.best_moves) == (fresh.value, fresh.distance, fresh.best_moves)


def test_bad_input_is_refused_and_changes_nothing():
    with pytest.raises(InvalidOptionError, match="tt_mb"):
        noughts.Solver(tt_mb=0)
    solver = noughts.Solver()
    done = Classic(3, 3, 3)
    for cell in (0, 3, 1, 4, 2):
        done.play(cell)
    with pytest.raises(IllegalMoveError, match="over"):
        solver.solve(done)
    with pytest.raises(InvalidOptionError, match="noughts game"):
        solver.solve("x........")
    with pytest.raises(InvalidOptionError, match="threads"):
        solver.solve(Classic(3, 3, 3), threads=0)
    assert solver.solve(Classic(3, 3, 3)).result == "draw"
    assert repr(solver) == "noughts.Solver(tt_mb=64.0, symmetry=True)"


def test_one_solver_is_used_by_one_thread_at_a_time():
    solver, started, stop = noughts.Solver(), threading.Event(), threading.Event()
    game = Classic(5, 5, 4, misere=True, free_choice=True)
    errors = []

    def long_solve():
        try:
            solver.solve(game, stop=stop, progress=lambda status: started.set())
        except SearchTimeout:
            pass
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    worker = threading.Thread(target=long_solve)
    worker.start()
    try:
        assert started.wait(30)
        with pytest.raises(RuntimeError, match="one thread at a time"):
            solver.solve(game)
        assert solver.solve(Classic(3, 3, 3)).result == "draw"  # other rules: another table, free
    finally:
        stop.set()
        worker.join()
    assert errors == []
