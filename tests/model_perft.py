"""perft over the slow reference models (anything with legal(), copy() and play()), written once."""


def model_perft(model, depth):
    """The number of legal move sequences of exactly `depth` moves from the model's position."""
    if depth == 0:
        return 1
    moves = model.legal()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        child = model.copy()
        child.play(m)
        total += model_perft(child, depth - 1)
    return total
