"""Property tests: undo, transpositions and rejected input, on random games of every option."""

import noughts
from game_choices import play_choices
from hypothesis import given
from hypothesis import strategies as st
from noughts import Classic

configs = st.builds(
    lambda rows, cols, misere, free, gravity: (rows, cols, min(3, max(rows, cols)), misere, free, gravity),
    st.integers(1, 6),
    st.integers(1, 6),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)


def make(config):
    rows, cols, k, misere, free, gravity = config
    return Classic(rows, cols, k, misere=misere, free_choice=free, gravity=gravity)


def random_game(config, choices):
    return play_choices(make(config), choices)


@given(configs, st.lists(st.integers(0, 1000), max_size=40))
def test_play_then_undo_restores_position_and_hash(config, choices):
    g = random_game(config, choices)
    snapshots = []
    replay = make(config)
    for m in g.move_ids:
        snapshots.append((replay.to_string(), replay.position_hash(), replay.legal_actions()))
        replay.play(m)
    for expected in reversed(snapshots):
        g.undo()
        assert (g.to_string(), g.position_hash(), g.legal_actions()) == expected
    assert g == make(config)


@given(configs, st.lists(st.integers(0, 1000), max_size=40), st.randoms(use_true_random=False))
def test_move_order_does_not_matter_without_gravity(config, choices, rnd):
    rows, cols, k, misere, free, _ = config
    config = (rows, cols, k, misere, free, False)
    g = random_game(config, choices)
    if g.is_over():
        return  # the last move is special once a line is made
    moves = g.move_ids
    # Swap moves of the same player (same parity) and replay.
    by_player = [moves[0::2], moves[1::2]]
    for lst in by_player:
        rnd.shuffle(lst)
    shuffled = [by_player[i % 2][i // 2] for i in range(len(moves))]
    h = make(config)
    for m in shuffled:
        h.play(m)
    if not h.is_over():
        assert h == g and h.position_hash() == g.position_hash() and hash(h) == hash(g)


junk = st.one_of(
    st.integers(-(2**70), 2**70),
    st.text(max_size=8),
    st.floats(allow_nan=True),
    st.none(),
    st.booleans(),
    st.lists(st.integers(), max_size=2),
)


@given(configs, st.lists(st.integers(0, 1000), max_size=30), junk)
def test_rejected_input_leaves_the_game_unchanged(config, choices, move):
    g = random_game(config, choices)
    before = (g.to_string(), g.move_ids, g.position_hash(), g.legal_actions())
    try:
        g.play(move)
    except noughts.Error as e:
        assert isinstance(e, ValueError)
        assert (g.to_string(), g.move_ids, g.position_hash(), g.legal_actions()) == before
    else:
        assert g.move_ids[:-1] == before[1]
        assert g.move_ids[-1] in before[3]


@given(configs, st.lists(st.integers(0, 1000), max_size=40))
def test_position_string_round_trips(config, choices):
    g = random_game(config, choices)
    again = Classic.from_string(g.to_string())
    assert again == g and again.to_string() == g.to_string()
    assert again.legal_actions() == g.legal_actions() and again.winner == g.winner


@given(configs, st.text(max_size=30))
def test_from_string_never_crashes(config, text):
    try:
        Classic.from_string(text)
    except noughts.InvalidPositionError:
        pass
