"""A plain exhaustive minimax over the public game API: the solver's independent referee.

It knows nothing of alpha-beta, tables or symmetry: it tries every move,
memoised by position string. Values are (v, d) for the player to move:
v = +1/0/-1, d = plies to the end with the winner hurrying and the loser
stalling (d is ignored for draws).
"""

from __future__ import annotations


def minimax(game, memo=None):
    if memo is None:
        memo = {}
    key = game.to_string()
    if key in memo:
        return memo[key]
    me = game.to_move
    best = None
    for move in game.legal_actions():
        game.play(move)
        if game.is_over():
            w = game.winner
            child = (0 if w is None else (1 if w == me else -1), 1)
        else:
            v, d = minimax(game, memo)
            if game.to_move != me:
                v = -v
            child = (v, d + 1)
        game.undo()
        if best is None or _better(child, best):
            best = child
    memo[key] = best
    return best


def _better(a, b):
    """Is outcome a better than b for the mover? Win fast, lose slow."""
    if a[0] != b[0]:
        return a[0] > b[0]
    if a[0] > 0:
        return a[1] < b[1]
    if a[0] < 0:
        return a[1] > b[1]
    return False


def move_values(game, memo=None):
    """The value of every legal move for the player to move, by id."""
    memo = {} if memo is None else memo
    me = game.to_move
    values = {}
    for move in game.legal_actions():
        game.play(move)
        if game.is_over():
            w = game.winner
            values[move] = 0 if w is None else (1 if w == me else -1)
        else:
            v, _ = minimax(game, memo)
            values[move] = v if game.to_move == me else -v
        game.undo()
    return values
