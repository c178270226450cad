"""Random games for property tests: a game is drawn as a list of choices, and
choice i plays legal move (i mod the number of legal moves), so hypothesis
shrinks games as it shrinks lists of integers."""

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
