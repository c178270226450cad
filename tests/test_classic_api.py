"""The Python surface of Classic: notation, strings, copies, pickling, errors."""

import copy
import pickle

import noughts
import pytest
from noughts import Classic, Move, Player


def test_move_names_round_trip_for_every_id():
    for options in (dict(), dict(gravity=True), dict(free_choice=True), dict(free_choice=True, gravity=True)):
        for rows, cols in ((3, 3), (4, 7), (1, 64), (8, 8), (2, 30)):
            g = Classic(rows, cols, 2, **options)
            for i in range(g.num_actions):
                assert g.parse_move(g.move_name(i)) == i


def test_names_follow_reading_order():
    g = Classic(3, 3)
    assert [g.move_name(i) for i in range(9)] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    assert Classic(1, 30, 3).move_name(27) == "ab1"
    assert g.parse_move(" B2 ") == 4


def test_play_accepts_id_move_and_text():
    g = Classic()
    g.play(4)
    g.play(Move(0, "a1"))
    g.play("c3")
    assert g.move_ids == [4, 0, 8]
    assert [m.name for m in g.history] == ["b2", "a1", "c3"]


def test_undo_restores_and_reports_the_move():
    g = Classic()
    g.play("b2")
    assert g.undo() == 4
    assert g == Classic() and g.ply == 0
    with pytest.raises(IndexError):
        g.undo()


def test_repr_evaluates_back():
    g = Classic(4, 5, 3, misere=True, gravity=True)
    g.play("c")
    again = eval(repr(g), {"noughts": noughts})
    assert again == g and again.options() == g.options()


def test_position_string_round_trip_and_format():
    g = Classic(3, 3)
    g.play("a1")
    g.play("c3")
    assert g.to_string() == "x../.../..o k=3"
    assert Classic.from_string("x../.../..o k=3") == g
    assert Classic.from_string("x../.../..o") == g  # k defaults like the constructor


@pytest.mark.parametrize(
    "text",
    [
        "",
        "xxx",  # three X marks and no O mark
        "x../..",
        "x./...",
        "xo?/.../...",
        "xx./.../... k=3",
        "xxx/ooo/... k=3",
        "xxx/oo./..o k=3",
        "x../.../... k=4",
        "x../.../... k=x",
        "x../.../... colour",
        "x../.../... gravity",  # a floating mark
        "/".join(["." * 9] * 9),  # 81 cells
    ],
)
def test_invalid_position_strings(text):
    with pytest.raises(noughts.InvalidPositionError):
        Classic.from_string(text)


def test_finished_positions_read_back_with_their_result():
    g = Classic.from_string("xxx/oo./... k=3")
    assert g.winner == Player.X and g.legal_actions() == []
    g = Classic.from_string("xxx/oo./... k=3 misere")
    assert g.winner == Player.O
    # Free choice: 3 marks were written, so X completed the line of O.
    g = Classic.from_string("ooo/.../... free")
    assert g.winner == Player.X


def test_copy_pickle_deepcopy_keep_history_and_type():
    g = Classic(4, 4)
    for m in ("a1", "b2", "c3"):
        g.play(m)
    for other in (g.copy(), copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert type(other) is Classic
        assert other == g and hash(other) == hash(g)
        assert other.move_ids == g.move_ids
        other.undo()
        assert other != g  # independent


def test_pickle_of_a_game_started_from_a_position():
    g = Classic.from_string("x../.o./... k=3")
    g.play("c3")
    h = pickle.loads(pickle.dumps(g))
    assert h == g and h.start_string() == "x../.o./... k=3"


def test_equality_and_hash_ignore_history_but_not_rules():
    a, b = Classic(), Classic()
    for m in ("a1", "b2", "c1"):
        a.play(m)
    for m in ("c1", "b2", "a1"):
        b.play(m)
    assert a == b and hash(a) == hash(b)
    assert Classic(3, 3) != Classic(3, 3, misere=True)
    assert Classic() != "x"


def test_str_is_a_grid():
    g = Classic()
    g.play("b2")
    assert str(g).splitlines() == ["  a b c", "1 . . .", "2 . X .", "3 . . ."]


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(k=0),
        dict(k=4),
        dict(rows=0),
        dict(rows=9, cols=8),
        dict(rows=2.5),
        dict(k="3"),
        dict(misere=1),
        dict(cols=-1),
    ],
)
def test_invalid_parameters(kwargs):
    with pytest.raises(noughts.InvalidOptionError) as info:
        Classic(**kwargs)
    assert isinstance(info.value, ValueError)
    assert "allowed" in str(info.value) or "must" in str(info.value)


@pytest.mark.parametrize(
    "move,error",
    [
        (-1, noughts.IllegalMoveError),
        (9, noughts.IllegalMoveError),
        (2**80, noughts.IllegalMoveError),
        (-(2**80), noughts.IllegalMoveError),
        ("b2", noughts.IllegalMoveError),
        ("d1", noughts.IllegalMoveError),
        ("a9", noughts.IllegalMoveError),
        ("", noughts.InvalidMoveError),
        ("2b", noughts.InvalidMoveError),
        ("b2=X", noughts.InvalidMoveError),
        ("b", noughts.InvalidMoveError),
        ("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz9", noughts.InvalidMoveError),
        (1.0, noughts.InvalidMoveError),
        (None, noughts.InvalidMoveError),
        (True, noughts.InvalidMoveError),
        ([4], noughts.InvalidMoveError),
    ],
)
def test_bad_moves_raise_and_change_nothing(move, error):
    g = Classic()
    g.play("b2")
    before = (g.to_string(), g.move_ids, g.position_hash())
    with pytest.raises(error):
        g.play(move)
    assert (g.to_string(), g.move_ids, g.position_hash()) == before
    assert not g.is_legal(move)


def test_moves_after_the_end_are_illegal():
    g = Classic()
    for m in ("a1", "a2", "b1", "b2", "c1"):
        g.play(m)
    with pytest.raises(noughts.IllegalMoveError, match="game is over"):
        g.play("c3")


def test_error_message_names_move_and_alternatives():
    g = Classic()
    g.play("b2")
    with pytest.raises(noughts.IllegalMoveError) as info:
        g.play("b2")
    assert "b2" in str(info.value) and "occupied" in str(info.value) and "a1" in str(info.value)


def test_errors_share_one_base():
    for cls in (
        noughts.IllegalMoveError,
        noughts.InvalidMoveError,
        noughts.InvalidPositionError,
        noughts.InvalidOptionError,
    ):
        assert issubclass(cls, noughts.Error) and issubclass(cls, ValueError)


def test_search_arguments_are_checked():
    with pytest.raises(noughts.InvalidOptionError):
        noughts.perft(Classic(), -1)
    with pytest.raises(noughts.InvalidOptionError):
        noughts.random_playouts(Classic(), "10")


def test_random_playouts_are_deterministic_and_sum_up():
    a = noughts.random_playouts(Classic(), 2000, seed=7)
    assert a == noughts.random_playouts(Classic(), 2000, seed=7)
    assert a == noughts.random_playouts(Classic(), 2000, seed=7 + 2**64)  # any seed: its low 64 bits
    assert sum(a) == 2000
    # Known frequencies of random 3x3 play: X wins ~58.5%, O ~28.8%, draws ~12.7%.
    big = noughts.random_playouts(Classic(), 200_000, seed=1)
    assert abs(big.x_wins / 200_000 - 0.585) < 0.01
    assert abs(big.draws / 200_000 - 0.127) < 0.01


def test_long_non_ascii_input_gives_a_clean_error():
    g = Classic()
    for text in ("é" * 100, "a" * 59 + "é" * 10, "€" * 40):
        with pytest.raises(noughts.InvalidMoveError):
            g.play(text)
        with pytest.raises(noughts.InvalidPositionError):
            Classic.from_string(text)
