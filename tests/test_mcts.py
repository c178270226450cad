"""MCTS (noughts.MCTS, noughts.match): legality, tactics, proofs, budgets, reuse, errors.

Everything is seeded, so every run searches the same trees. The searches are
small: the whole file runs in a few seconds on a loaded machine.
"""

from __future__ import annotations

import dataclasses
import os
import random
import signal
import threading
import time

import noughts
import pytest
from noughts import MCTS, Classic, IllegalMoveError, InvalidOptionError, Player, match

GAMES = {name: getattr(noughts, name) for name in ("Classic", "Ultimate", "Quantum") if hasattr(noughts, name)}


def game_class(name):
    if name not in GAMES:
        pytest.skip(f"noughts.{name} is not available in this build")
    return GAMES[name]


ALL_GAMES = ["Classic", "Ultimate", "Quantum"]


# ---- helpers ------------------------------------------------------------------


def random_positions(make, count, seed, plies=None):
    """Positions met in random games from make(): every position of each game, shuffled."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        game = make()
        while not game.is_over():
            positions.append(game.copy())
            game.play(rng.choice(game.legal_actions()))
    rng.shuffle(positions)
    return positions[:count]


def wins_now(game):
    """The moves that end the game at once with a win for the player to move."""
    me, out = game.to_move, []
    for m in game.legal_actions():
        game.play(m)
        if game.is_over() and game.winner == me:
            out.append(m)
        game.undo()
    return out


def safe_moves(game):
    """The moves after which the opponent, if they move next, cannot win at once."""
    me, out = game.to_move, []
    for m in game.legal_actions():
        game.play(m)
        if game.is_over() or game.to_move == me or not wins_now(game):
            out.append(m)
        game.undo()
    return out


def minimax(game, memo):
    """The exact value for the player to move (+1, 0, -1), memoised by position string."""
    key = game.to_string()
    if key in memo:
        return memo[key]
    me, best = game.to_move, -2
    for m in game.legal_actions():
        game.play(m)
        best = max(best, child_value(game, me, memo))
        game.undo()
        if best == 1:
            break
    memo[key] = best
    return best


def child_value(game, me, memo):
    """The value for `me` of the position after me's move (the mover may move again: Quantum)."""
    if game.is_over():
        return 0 if game.winner is None else (1 if game.winner == me else -1)
    v = minimax(game, memo)
    return v if game.to_move == me else -v


def perfect_player(seed):
    """Minimax play, choosing at random among the moves of the best value."""
    rng, memo = random.Random(seed), {}

    def play(game):
        me, scored = game.to_move, []
        for m in game.legal_actions():
            game.play(m)
            scored.append((child_value(game, me, memo), m))
            game.undo()
        best = max(v for v, _ in scored)
        return rng.choice([m for v, m in scored if v == best])

    return play


def random_player(seed):
    rng = random.Random(seed)
    return lambda game: rng.choice(game.legal_actions())


def without_time(result):
    return dataclasses.replace(result, seconds=0.0)


# ---- the result ---------------------------------------------------------------


def test_result_describes_the_search():
    game = Classic(4, 4)
    game.play("b2")
    r = MCTS(seed=3).search(game, iterations=3000)
    assert r.to_move == Player.O
    assert r.iterations == 3000 and r.reused_visits == 0
    # Every root visit went to one move (the root is expanded before the first iteration).
    assert sum(s.visits for s in r.moves) == r.iterations
    assert [s.visits for s in r.moves] == sorted((s.visits for s in r.moves), reverse=True)
    assert {s.move.id for s in r.moves} <= set(game.legal_actions())
    assert all(-1 <= s.value <= 1 for s in r.moves)
    assert r.best_move in [s.move for s in r.moves]
    assert r.pv[0] == r.best_move
    assert r.best_move.name == game.move_name(r.best_move.id)
    assert r.stats(r.best_move.name) == r.stats(r.best_move.id) == r.stats(r.best_move)
    assert not r.proven and r.proven_value is None and -1 <= r.value <= 1
    assert 0 < r.nodes and not r.tree_full and r.seconds >= 0
    replay = game.copy()
    for m in r.pv:
        replay.play(m)  # the principal variation is a legal line


@pytest.mark.parametrize("name", ALL_GAMES)
def test_deterministic_for_a_seed(name):
    cls = game_class(name)
    positions = random_positions(cls, 6, seed=11)
    for game in positions:
        a = MCTS(seed=42).search(game, iterations=2000)
        b = MCTS(seed=42).search(game, iterations=2000)
        assert without_time(a) == without_time(b)
    # The seed matters (the visits at least differ somewhere).
    game = cls()
    runs = {tuple((s.move.id, s.visits) for s in MCTS(seed=s).search(game, iterations=3000).moves) for s in range(3)}
    assert len(runs) > 1


def test_any_int_seeds_by_its_low_64_bits():
    """docs/mcts.md: the seed is any int; its low 64 bits seed the generator."""
    game = Classic(4, 4, 4)
    a = MCTS(seed=5).search(game, iterations=500)
    for big in (5 + 2**64, 5 + 2**65):
        assert without_time(MCTS(seed=big).search(game, iterations=500)) == without_time(a)
    MCTS(seed=2**63).search(game, iterations=10)  # no upper bound


@pytest.mark.parametrize("name", ALL_GAMES)
def test_deterministic_over_a_sequence_of_searches(name):
    # Tree reuse and the running random stream are part of the state: the same
    # calls on two searchers with the same seed give the same answers.
    cls = game_class(name)

    def play_out(seed):
        mcts, game, results = MCTS(seed=seed, iterations=500), cls(), []
        while not game.is_over():
            r = mcts.search(game)
            results.append(without_time(r))
            game.play(r.best_move)
        return results

    assert play_out(5) == play_out(5)


# ---- tactics ------------------------------------------------------------------


def test_classic_win_and_block_by_hand():
    game = Classic()
    for m in ("a1", "a2", "b1", "b2"):
        game.play(m)
    r = MCTS(seed=1).search(game, iterations=200)
    assert r.best_move.name == "c1" and r.proven and r.proven_value == 1
    game = Classic()
    for m in ("a1", "b2", "b1"):
        game.play(m)
    assert MCTS(seed=1).best_move(game, iterations=2000).name == "c1"


@pytest.mark.parametrize("name", ALL_GAMES)
def test_best_move_and_a_player_call_are_the_searchs_move(name):
    """best_move() and calling an MCTS skip building the full result, not the search."""
    game = game_class(name)()
    game.play(game.legal_actions()[1])
    expected = MCTS(seed=3).search(game, iterations=500)
    assert MCTS(seed=3).best_move(game, iterations=500) == expected.best_move
    assert MCTS(seed=3, iterations=500)(game) == expected.best_move
    with pytest.raises(InvalidOptionError):
        MCTS(seed=3).best_move(object(), iterations=10)


@pytest.mark.parametrize("name", ALL_GAMES)
def test_finds_a_win_in_one(name):
    cls = game_class(name)
    found = 0
    for game in random_positions(cls, 600, seed=3):
        wins = wins_now(game)
        if not wins or len(wins) == len(game.legal_actions()):
            continue
        r = MCTS(seed=found).search(game, iterations=4 * len(game.legal_actions()) + 10)
        assert r.best_move.id in wins, (game.to_string(), r.best_move, wins)
        assert r.proven and r.proven_value == 1
        found += 1
        if found == 15:
            break
    assert found >= 5


@pytest.mark.parametrize("name", ALL_GAMES)
def test_blocks_a_win_in_one(name):
    cls = game_class(name)
    found = lost = 0
    for game in random_positions(cls, 1500, seed=4):
        if wins_now(game):
            continue
        safe = safe_moves(game)
        if not safe or len(safe) == len(game.legal_actions()):
            continue
        r = MCTS(seed=found).search(game, iterations=20_000)
        if r.proven_value == -1:
            lost += 1  # blocking one threat does not save the game; any move is as good
            continue
        assert r.best_move.id in safe, (game.to_string(), r.best_move, safe)
        found += 1
        if found == 12:
            break
    assert found >= 5


def test_quantum_collapse_choice():
    cls = game_class("Quantum")
    # Positions where the player to move chooses a collapse: both choices are
    # legal answers, and when one of them wins the search takes it.
    checked = 0
    for game in random_positions(cls, 800, seed=9):
        if game.pending_collapse is None:
            continue
        chooser = game.to_move
        r = MCTS(seed=checked).search(game, iterations=3000)
        assert r.best_move.id in game.legal_actions() and r.best_move.id >= 36
        wins = wins_now(game)
        if wins:
            assert r.best_move.id in wins
        game.play(r.best_move)
        if not game.is_over():
            assert game.to_move == chooser  # the chooser moves again, and the search knew it
        checked += 1
    assert checked >= 10


# ---- legality and budgets -----------------------------------------------------


@pytest.mark.parametrize("name", ALL_GAMES)
def test_every_position_of_random_games(name):
    cls = game_class(name)
    rng = random.Random(8)
    mcts = MCTS(seed=8)
    for _ in range(4):
        game = cls()
        while not game.is_over():
            budget = rng.choice([1, 2, 5, 50, 300])
            r = mcts.search(game, iterations=budget)
            legal = set(game.legal_actions())
            assert r.best_move.id in legal
            assert {s.move.id for s in r.moves} <= legal
            replay = game.copy()
            for m in r.pv:
                replay.play(m)
            if r.proven:
                assert r.proven_value in (-1, 0, 1) and r.value == r.proven_value
            game.play(rng.choice(sorted(legal)))


CLASSIC_OPTIONS = [
    dict(rows=1, cols=1, k=1),
    dict(rows=4, cols=4, misere=True),
    dict(rows=3, cols=3, free_choice=True, misere=True),
    dict(rows=6, cols=7, k=4, gravity=True),
    dict(rows=5, cols=5, gravity=True, free_choice=True),
    dict(rows=8, cols=8, k=5, free_choice=True),  # 128 moves at the start: the most a game has
    dict(rows=1, cols=9, k=3),
]


@pytest.mark.parametrize("options", CLASSIC_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_classic_with_every_option(options):
    mcts = MCTS(seed=7)
    for game in random_positions(lambda: Classic(**options), 12, seed=1):
        r = mcts.search(game, iterations=400)
        assert r.best_move.id in game.legal_actions()
        assert {s.move.id for s in r.moves} <= set(game.legal_actions())
        assert sum(s.visits for s in r.moves) <= r.iterations + r.reused_visits


def test_one_cell_board():
    r = MCTS().search(Classic(1, 1, 1), iterations=10)
    assert r.best_move.name == "a1" and r.proven and r.proven_value == 1 and r.iterations <= 10


@pytest.mark.parametrize("name", ALL_GAMES)
def test_never_an_illegal_move_with_threads_and_a_small_tree(name):
    cls = game_class(name)
    for i, game in enumerate(random_positions(cls, 20, seed=21)):
        r = MCTS(seed=i, threads=2, max_nodes=600).search(game, iterations=3000)
        assert r.best_move.id in game.legal_actions()
        assert r.nodes <= 600


def test_time_budget():
    game = game_class("Ultimate")()
    for seconds in (0.05, 0.3):
        start = time.perf_counter()
        r = MCTS(seed=1).search(game, seconds=seconds)
        elapsed = time.perf_counter() - start
        assert r.iterations > 0
        assert elapsed < 2 * seconds + 0.2, elapsed
        assert r.seconds <= elapsed
    # Both budgets: the first one reached ends the search.
    r = MCTS(seed=1).search(game, iterations=10**12, seconds=0.05)
    assert 0 < r.iterations < 10**12
    r = MCTS(seed=1).search(game, iterations=100, seconds=60)
    assert r.iterations == 100


def test_default_budget_and_calls():
    game = game_class("Ultimate")()
    mcts = MCTS(seed=2, iterations=300)
    assert mcts(game).id in game.legal_actions()
    assert mcts.search(game).iterations == 300
    assert mcts.search(game, iterations=50).iterations == 50
    assert "iterations=300" in repr(mcts)


def test_memory_bound():
    # The tree stops growing at the bound; the search goes on to its budget
    # with rollouts from the leaves.
    game = game_class("Ultimate")()
    r = MCTS(seed=1, max_nodes=2000).search(game, iterations=20_000)
    assert r.tree_full and r.nodes <= 2000
    assert r.iterations == 20_000
    assert sum(s.visits for s in r.moves) == 20_000
    assert r.best_move.id in game.legal_actions()


def test_threads():
    game = game_class("Ultimate")()
    a = MCTS(seed=3, threads=2).search(game, iterations=10_000)
    b = MCTS(seed=3, threads=2).search(game, iterations=10_000)
    assert a.iterations == 10_000 and sum(s.visits for s in a.moves) == 10_000
    assert without_time(a) == without_time(b)  # iteration budgets split evenly: still reproducible


def test_one_searcher_per_thread():
    cls = game_class("Ultimate")
    game = cls()
    for m in (40, 36, 4):
        game.play(m)
    expected = without_time(MCTS(seed=4).search(game, iterations=20_000))
    results = [None] * 3

    def work(i):
        results[i] = without_time(MCTS(seed=4).search(game.copy(), iterations=20_000))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 3


def test_one_searcher_used_by_two_threads_at_once_refuses():
    game = game_class("Ultimate")()
    mcts = MCTS(seed=1)
    errors = []

    def work(seconds):
        try:
            mcts.search(game, seconds=seconds)
        except RuntimeError as e:
            errors.append(str(e))

    first = threading.Thread(target=work, args=(1.0,))
    first.start()
    time.sleep(0.3)
    work(0.5)  # overlaps the first search: one of the two is refused
    first.join()
    assert len(errors) == 1 and "another thread" in errors[0]
    assert mcts.search(game, iterations=10).iterations == 10  # and the searcher is free again


def test_ctrl_c_stops_a_search():
    game = game_class("Ultimate")()
    mcts = MCTS(seed=1)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        mcts.search(game, seconds=30)
    assert time.perf_counter() - start < 10
    timer.join()
    assert mcts.search(game, iterations=100).best_move.id in game.legal_actions()  # still usable


# ---- tree reuse -----------------------------------------------------------------


def test_tree_reuse():
    cls = game_class("Ultimate")
    # No prior: a discouraged move's virtual visits would count among its visits
    # without being iterations, and the accounting below is of iterations.
    mcts = MCTS(seed=6, prior_visits=0)
    game = cls()
    first = mcts.search(game, iterations=20_000)
    # The same position again: the whole tree is kept.
    again = mcts.search(game, iterations=1000)
    assert again.reused_visits == first.iterations
    # Two moves along the principal variation: the subtree is kept.
    game.play(first.pv[0])
    game.play(first.pv[1])
    later = mcts.search(game, iterations=1000)
    assert later.reused_visits > 0
    # The new root was a leaf once (one visit that reached no child), then an inner node.
    assert sum(s.visits for s in later.moves) == later.reused_visits - 1 + later.iterations
    # The same position without history (from a string) is recognised too.
    same = cls.from_string(game.to_string())
    assert mcts.search(same, iterations=10).reused_visits >= later.reused_visits + later.iterations
    # An unrelated position starts afresh, and reuse=False never reuses.
    assert mcts.search(cls(), iterations=10).reused_visits == 0
    fresh = MCTS(seed=6, reuse=False)
    fresh.search(game, iterations=100)
    assert fresh.search(game, iterations=100).reused_visits == 0
    # clear() forgets.
    mcts.clear()
    assert mcts.search(game, iterations=10).reused_visits == 0


def test_reused_proof_answers_at_once():
    game = Classic()
    for m in ("b2", "a1", "c3"):
        game.play(m)
    mcts = MCTS(seed=1)
    r = mcts.search(game, iterations=100_000)
    assert r.proven and r.proven_value == 0
    game.play(r.best_move)
    reply = mcts.search(game, iterations=100_000)  # X to move now, in the proven subtree
    assert reply.proven and reply.proven_value == 0 and reply.iterations == 0


# ---- proofs against minimax ---------------------------------------------------------

SMALL_BOARDS = [
    dict(),
    dict(misere=True),
    dict(free_choice=True),
    dict(gravity=True),
    dict(rows=3, cols=4, k=3, gravity=True),
    dict(rows=2, cols=4, k=2),
]


@pytest.mark.parametrize("options", SMALL_BOARDS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "3x3")
def test_proofs_match_minimax_on_small_boards(options):
    memo = {}
    proven = 0
    mcts = MCTS(seed=2, reuse=False)
    for game in random_positions(lambda: Classic(**options), 25, seed=5):
        r = mcts.search(game, iterations=20_000)
        if r.proven:
            proven += 1
            assert r.proven_value == minimax(game, memo), game.to_string()
        me = game.to_move
        for s in r.moves:
            if s.proven_value is not None:
                game.play(s.move)
                assert s.proven_value == child_value(game, me, memo), (game.to_string(), s)
                game.undo()
        if r.proven and r.proven_value >= 0:
            # The chosen move keeps the proven value.
            assert r.stats(r.best_move).proven_value == r.proven_value
    assert proven >= 10


def test_proofs_match_minimax_in_quantum():
    cls = game_class("Quantum")
    memo = {}
    proven = 0
    mcts = MCTS(seed=3, reuse=False)
    positions = [g for g in random_positions(cls, 400, seed=6) if g.marks_written >= 5][:25]
    for game in positions:
        r = mcts.search(game, iterations=20_000)
        me = game.to_move
        if r.proven:
            proven += 1
            assert r.proven_value == minimax(game, memo), game.to_string()
        for s in r.moves:
            if s.proven_value is not None:
                game.play(s.move)
                assert s.proven_value == child_value(game, me, memo), (game.to_string(), s)
                game.undo()
    assert proven >= 10


def test_3x3_root_is_proven_a_draw():
    r = MCTS(seed=0).search(Classic(), iterations=1_000_000)
    assert r.proven and r.proven_value == 0
    assert r.iterations < 1_000_000  # the proof ended the search


@pytest.mark.parametrize("mcts_plays", [Player.X, Player.O])
def test_3x3_never_loses_to_perfect_play(mcts_plays):
    mcts = MCTS(seed=int(mcts_plays), iterations=20_000)
    perfect = perfect_player(seed=int(mcts_plays))
    if mcts_plays == Player.X:
        result = match(mcts, perfect, Classic, games=10, a_starts=True)
        assert all(r.a_played == Player.X for r in result.records[::2])
    else:
        result = match(mcts, perfect, Classic, games=10, a_starts=False)
    assert result.losses == 0, [r.moves for r in result.records if r.a_score == 0]


# ---- match ----------------------------------------------------------------------------


def test_match_runner():
    result = match(random_player(1), random_player(2), Classic, games=30)
    assert result.games == 30 == len(result.records)
    assert result.wins + result.draws + result.losses == 30
    assert [r.a_played for r in result.records[:4]] == [Player.X, Player.O, Player.X, Player.O]
    for rec in result.records:
        game = Classic()
        for m in rec.moves:
            game.play(m)
        assert game.is_over() and game.winner == rec.winner
    assert 0 <= result.score <= 1 and result.error > 0
    assert "in 30 games" in str(result)
    seen = []
    match(random_player(1), random_player(2), Classic, games=3, on_game=lambda i, rec: seen.append(i))
    assert seen == [0, 1, 2]
    # A strong player beats a random one.
    strong = match(MCTS(seed=1, iterations=2000), random_player(3), Classic, games=10)
    assert strong.losses == 0 and strong.wins >= 5


# ---- errors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(iterations=-1),
        dict(iterations=0),
        dict(seconds=-0.5),
        dict(seconds=0),
        dict(seconds=float("nan")),
        dict(seconds=float("inf")),
        dict(iterations=1.5),
        dict(iterations=True),
        dict(seconds="1"),
        dict(),
    ],
)
def test_bad_budgets(kwargs):
    with pytest.raises(InvalidOptionError):
        MCTS().search(Classic(), **kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(threads=0),
        dict(threads=-2),
        dict(threads=1.0),
        dict(c=-1),
        dict(c=float("nan")),
        dict(max_nodes=10),
        dict(max_nodes=300, threads=2),
        dict(seed=1.5),
        dict(reuse=1),
        dict(iterations=-5),
    ],
)
def test_bad_options(kwargs):
    with pytest.raises(InvalidOptionError):
        MCTS(**kwargs)


def test_errors_are_value_errors_with_clear_messages():
    game = Classic()
    for m in ("a1", "a2", "b1", "b2", "c1"):
        game.play(m)
    with pytest.raises(IllegalMoveError, match="over"):
        MCTS().search(game, iterations=10)
    with pytest.raises(ValueError, match="budget"):
        MCTS().search(Classic())
    with pytest.raises(ValueError, match="threads"):
        MCTS(threads=0)
    with pytest.raises(InvalidOptionError, match="Classic, Ultimate, Quantum"):
        MCTS().search("not a game", iterations=10)
    with pytest.raises(InvalidOptionError, match="budget"):
        match(MCTS(), random_player(1), Classic, games=2)
    with pytest.raises(InvalidOptionError):
        match(random_player(1), random_player(2), Classic, games=-1)


def test_the_shortest_time_budget_still_searches():
    result = noughts.MCTS(seed=1).search(noughts.Classic(), seconds=1e-9)
    assert result.iterations >= 1 and sum(s.visits for s in result.moves) >= 1
