"""Random games for property tests: a game is drawn as a list of choices, and
choice i plays legal move (i mod the number of legal moves), so hypothesis
shrinks games as it shrinks lists of integers."""

import random

from hypothesis import strategies as st


def choices(max_size: int) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(min_value=0, max_value=10**6), max_size=max_size)


def play_choices(game, picks):
    """Plays the picks on the game (until it ends) and returns it."""
    for pick in picks:
        legal = game.legal_actions()
        if not legal:
            break
        game.play(legal[pick % len(legal)])
    return game


def random_game(factory, seed, plies):
    """A game from factory() after up to `plies` random moves of a seeded generator (fewer when it ends)."""
    rng = random.Random(seed)
    game = factory()
    for _ in range(plies):
        legal = game.legal_actions()
        if not legal:
            break
        game.play(rng.choice(legal))
    return game


# The eight symmetries of a 3x3 square as cell maps (reading order), in the
# order the engine documents: 0 identity, 1-3 rotations clockwise, 4 left-right,
# 5 top-bottom, 6 main diagonal, 7 anti-diagonal. Written out independently of
# the engine's tables.
_IMAGES = [
    lambda r, c: (r, c),
    lambda r, c: (c, 2 - r),
    lambda r, c: (2 - r, 2 - c),
    lambda r, c: (2 - c, r),
    lambda r, c: (r, 2 - c),
    lambda r, c: (2 - r, c),
    lambda r, c: (c, r),
    lambda r, c: (2 - c, 2 - r),
]
SQUARE_SYMMETRIES = [[3 * f(i // 3, i % 3)[0] + f(i // 3, i % 3)[1] for i in range(9)] for f in _IMAGES]
