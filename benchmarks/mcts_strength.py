"""MCTS strength: against perfect play on Classic, against OpenSpiel's MCTSBot on Ultimate.

  classic    3x3: noughts.MCTS with a modest budget against perfect play
             (the exact solver, choosing at random among the best moves; the tests check
             the solver against an exhaustive minimax),
             --classic-games games from each side. It must never lose.
  4x4        the same on 4x4, k=4; perfect play from noughts.solve (the
             exact solver), skipped when it is not available.
  ultimate   noughts.MCTS against OpenSpiel's MCTSBot (C++, RandomRollout-
             Evaluator(1), uct_c=2, solve on) over --games games, colours
             alternating: at equal iterations per move (--iterations) and at
             equal time per move (--seconds). OpenSpiel splits a free move in
             two decisions (board, then cell) and searches for each with the
             full budget, so on free moves it gets twice ours.

Each match prints the score of noughts.MCTS (wins/draws/losses, and the mean
points per game with a 95% error bar). Run on demand, one part at a time on
a shared machine:

  python benchmarks/mcts_strength.py classic 4x4
  python benchmarks/mcts_strength.py ultimate --games 200 --iterations 1000 --seconds 0.1
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import noughts
from noughts import MCTS, Classic, Player, match

try:
    import pyspiel
except ImportError:  # the Ultimate match needs it
    pyspiel = None


# ---- perfect play ----------------------------------------------------------------


def solver_player(seed):
    """Perfect play by the exact solver: at random among every move that keeps the value."""
    rng = random.Random(seed)
    return lambda game: rng.choice(noughts.solve(game).best_moves)


# ---- OpenSpiel's MCTSBot on Ultimate ----------------------------------------------------


def _choosing_board(state):
    actions = state.legal_actions()
    return bool(actions) and state.action_to_string(state.current_player(), actions[0]).startswith("Choose local board")


def openspiel_state(spiel_game, game):
    """OpenSpiel's state after our game's moves (a free move is two OpenSpiel actions)."""
    state = spiel_game.new_initial_state()
    for m in game.move_ids:
        board, cell = divmod(m, 9)
        if _choosing_board(state):
            state.apply_action(board)
        state.apply_action(cell)
    return state


def openspiel_player(*, iterations=None, seconds=None, seed=0):
    """OpenSpiel's MCTSBot as a match player: a function of our Ultimate game returning our move id."""
    spiel_game = pyspiel.load_game("ultimate_tic_tac_toe")
    sims = iterations if iterations else 10**9
    wall = seconds if seconds else -1.0
    bot = pyspiel.MCTSBot(
        spiel_game,
        pyspiel.RandomRolloutEvaluator(1, seed),
        2.0,
        sims,
        1000,
        True,
        seed,
        False,
        pyspiel.ChildSelectionPolicy.UCT,
        wall,
    )

    def play(game):
        state = openspiel_state(spiel_game, game)
        board = game.forced_board
        if _choosing_board(state):
            board = bot.step(state)
            state.apply_action(board)
        cell = bot.step(state)
        move = board * 9 + cell
        assert game.is_legal(move), (game.to_string(), board, cell)
        return move

    return play


# ---- the matches ---------------------------------------------------------------------------


def report(label, result, started):
    print(f"{label}: {result}  [{time.perf_counter() - started:.0f} s]", flush=True)


def progress(total):
    def on_game(i, record):
        if (i + 1) % 20 == 0 and i + 1 < total:
            print(f"  ... {i + 1}/{total} games", flush=True)

    return on_game


def classic_side(args, make, label, perfect, iterations):
    """MCTS against perfect play, games from each side separately."""
    for side in (Player.X, Player.O):
        started = time.perf_counter()
        mcts = MCTS(seed=int(side) + 1, iterations=iterations)
        wins = draws = losses = 0
        records = []
        for i in range(args.classic_games):
            opponent = perfect(seed=1000 * int(side) + i)
            game = make()
            while not game.is_over():
                mover = mcts if game.to_move == side else opponent
                game.play(mover(game.copy()))
            records.append(list(game.move_ids))
            if game.winner is None:
                draws += 1
            elif game.winner == side:
                wins += 1
            else:
                losses += 1
                print("  lost:", [game.move_name(m) for m in game.move_ids], flush=True)
        print(
            f"{label}: MCTS ({iterations:,} iterations a move) as {side.name} vs perfect play: "
            f"+{wins} ={draws} -{losses} in {args.classic_games} games  [{time.perf_counter() - started:.0f} s]",
            flush=True,
        )


def ultimate(args):
    if pyspiel is None:
        print("ultimate: pyspiel is not installed", file=sys.stderr)
        return
    if args.iterations:
        started = time.perf_counter()
        ours = MCTS(seed=1, iterations=args.iterations)
        theirs = openspiel_player(iterations=args.iterations, seed=2)
        result = match(ours, theirs, noughts.Ultimate, games=args.games, on_game=progress(args.games))
        report(f"Ultimate, {args.iterations:,} iterations a move: noughts MCTS vs OpenSpiel MCTSBot", result, started)
    if args.seconds:
        started = time.perf_counter()
        ours = MCTS(seed=3, seconds=args.seconds)
        theirs = openspiel_player(seconds=args.seconds, seed=4)
        result = match(ours, theirs, noughts.Ultimate, games=args.games, on_game=progress(args.games))
        report(f"Ultimate, {1000 * args.seconds:.0f} ms a move: noughts MCTS vs OpenSpiel MCTSBot", result, started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", help="which matches: classic, 4x4, ultimate (default: all)")
    parser.add_argument("--classic-games", type=int, default=100, help="games from each side against perfect play")
    parser.add_argument("--classic-iterations", type=int, default=10_000, help="MCTS iterations a move on 3x3")
    parser.add_argument("--4x4-iterations", dest="iterations_4x4", type=int, default=20_000, help="on 4x4")
    parser.add_argument("--games", type=int, default=200, help="games of each Ultimate match")
    parser.add_argument(
        "--iterations", type=int, default=1000, help="iterations a move in the equal-iterations match (0: skip)"
    )
    parser.add_argument("--seconds", type=float, default=0.1, help="seconds a move in the equal-time match (0: skip)")
    args = parser.parse_args()
    print(f"noughts {noughts.__version__}: MCTS strength")
    args.parts = args.parts or ["classic", "4x4", "ultimate"]
    if unknown := set(args.parts) - {"classic", "4x4", "ultimate"}:
        parser.error(f"unknown parts {sorted(unknown)}: choose from classic, 4x4, ultimate")
    if "classic" in args.parts:
        classic_side(args, Classic, "3x3", solver_player, args.classic_iterations)
    if "4x4" in args.parts:
        if hasattr(noughts, "solve"):
            classic_side(args, lambda: Classic(4, 4), "4x4 k=4", solver_player, args.iterations_4x4)
        else:
            print("4x4: noughts.solve is not available: skipped")
    if "ultimate" in args.parts:
        ultimate(args)


if __name__ == "__main__":
    main()
