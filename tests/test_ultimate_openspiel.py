"""Ultimate against OpenSpiel's ultimate_tic_tac_toe, an independent implementation of the same rules.

OpenSpiel splits a free move in two actions by the same player: first the
board ("Choose local board b", action b), then the cell (action c, 0..8). A
forced move is the cell action alone. Folding the two gives our id b*9+c.
Both close drawn boards and let a player sent to a decided board choose any
open board, as docs/rules.md section 2 does.
"""

from __future__ import annotations

import random

import pytest
from noughts import Player, Ultimate

pyspiel = pytest.importorskip("pyspiel")

GAMES = 3000


def openspiel_moves(state) -> dict[int, tuple[int, ...]]:
    """OpenSpiel's legal moves folded into our ids, each with the action sequence that plays it."""
    player = state.current_player()
    actions = state.legal_actions()
    if actions and state.action_to_string(player, actions[0]).startswith("Choose local board"):
        moves = {}
        for board in actions:
            child = state.clone()
            child.apply_action(board)
            assert child.current_player() == player  # the same player then picks the cell
            for cell in child.legal_actions():
                moves[board * 9 + cell] = (board, cell)
        return moves
    # A forced move: "Local board b: x(r,c)" names the board.
    board = int(state.action_to_string(player, actions[0]).split(":")[0].split()[-1])
    return {board * 9 + cell: (cell,) for cell in actions}


def openspiel_grid(state) -> list[str]:
    """The 9 rows of OpenSpiel's board text (x, o, .), in our grid layout."""
    rows = [line.replace(" ", "") for line in str(state).splitlines()]
    return [r for r in rows if len(r) == 9 and set(r) <= set("xo.")]


def test_random_games_match_openspiel() -> None:
    game = pyspiel.load_game("ultimate_tic_tac_toe")
    rng = random.Random(20261129)
    results = {"x": 0, "o": 0, "draw": 0}
    for _ in range(GAMES):
        ours = Ultimate()
        theirs = game.new_initial_state()
        while True:
            assert ours.is_over() == theirs.is_terminal()
            if ours.is_over():
                break
            moves = openspiel_moves(theirs)
            assert ours.legal_actions() == sorted(moves), ours.to_string()
            assert theirs.current_player() == int(ours.to_move)
            move = rng.choice(ours.legal_actions())
            ours.play(move)
            for action in moves[move]:
                theirs.apply_action(action)
        returns = theirs.returns()
        expected = {Player.X: [1.0, -1.0], Player.O: [-1.0, 1.0], None: [0.0, 0.0]}[ours.winner]
        assert returns == expected, ours.to_string()
        assert openspiel_grid(theirs) == ours.to_string().split()[0].split("/")
        results["draw" if ours.winner is None else ours.winner.name.lower()] += 1
    # Random games end every way; a sample this size that did not would hide half the comparison.
    assert min(results.values()) > GAMES // 10, results
