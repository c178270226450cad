"""noughts.Solver's tables in a file (save, load): a solve goes on in another process from what
was proved, with the same answers; a file that does not fit is refused with a clear error and
leaves the Solver as it was. And the key the tables file positions under (Game.solver_key)."""

import json
import os
import subprocess
import sys
import textwrap

import noughts
import pytest
from game_choices import random_game
from minimax import minimax
from noughts import Classic

# 4x4, four in a row, misère with free choice: a draw of about half a million nodes.
BOARD = dict(rows=4, cols=4, k=4, misere=True, free_choice=True)


def run_python(code):
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_a_saved_table_answers_in_another_process(tmp_path):
    path = tmp_path / "solver.tables"
    solver = noughts.Solver(tt_mb=64)
    fresh = solver.solve(Classic(**BOARD), weak=True)
    solver.solve(noughts.Ultimate.from_string(_ULTIMATE_ENDGAME), weak=True)  # a second game's table
    solver.save(path)
    assert not os.path.exists(str(path) + ".partial")
    out = run_python(f"""
        import noughts
        solver = noughts.Solver(tt_mb=64)
        solver.load({str(path)!r})
        s = solver.solve(noughts.Classic(**{BOARD!r}), weak=True)
        u = solver.solve(noughts.Ultimate.from_string({_ULTIMATE_ENDGAME!r}), weak=True)
        print(s.value, s.nodes, u.value, u.nodes)
    """)
    value, nodes, u_value, u_nodes = map(int, out.split())
    assert value == fresh.value == 0
    assert nodes < fresh.nodes / 100  # the root's own entry answers
    assert u_value == noughts.solve(noughts.Ultimate.from_string(_ULTIMATE_ENDGAME), weak=True).value
    assert u_nodes < 100


_ULTIMATE_ENDGAME = "xoooxxox./.xoxooxoo/xxxxooxox/oo.oxox../xoox.xox./xoooxo..x/..o..xxo./ooo.x.xxo/...x..xxo -"


def test_a_stopped_solve_goes_on_from_its_file_to_the_same_answer(tmp_path):
    """Stopped early, saved, loaded (into a smaller budget too): the resumed solves agree with a fresh one."""
    g = random_game(lambda: Classic(5, 5, 4, misere=True, free_choice=True), 3, 10)
    fresh = noughts.solve(g, weak=True, tt_mb=64)
    solver = noughts.Solver(tt_mb=64)
    try:
        solver.solve(g, weak=True, max_seconds=0.05)
    except noughts.SearchTimeout:
        pass
    path = tmp_path / "stopped.tables"
    solver.save(path)
    for tt_mb in (64, 1):
        again = noughts.Solver(tt_mb=tt_mb)
        again.load(path)
        resumed = again.solve(g, weak=True)
        assert resumed.value == fresh.value
        assert resumed.best_moves[0] in noughts.solve(g, move_values=True).best_moves


def test_saving_twice_replaces_the_file(tmp_path):
    path = tmp_path / "t.tables"
    solver = noughts.Solver()
    solver.solve(Classic(4, 4, 3))
    solver.save(path)
    solver.clear()
    solver.save(path)  # no tables now
    again = noughts.Solver()
    again.load(path)
    assert again.solve(Classic(4, 4, 3)).nodes > 10


def saved(tmp_path, symmetry=True):
    path = tmp_path / "good.tables"
    solver = noughts.Solver(symmetry=symmetry)
    solver.solve(Classic(4, 4, 3))
    solver.save(path)
    return path


def assert_refused(path, match, symmetry=True):
    solver = noughts.Solver(symmetry=symmetry)
    solver.solve(Classic(3, 3, 3))
    kept = solver.solve(Classic(3, 3, 3)).nodes
    with pytest.raises(noughts.InvalidOptionError, match=match):
        solver.load(path)
    assert solver.solve(Classic(3, 3, 3)).nodes == kept  # its table is the one it had


def test_a_file_that_is_not_a_table_file_is_refused(tmp_path):
    path = tmp_path / "other"
    path.write_bytes(b"hello\n")
    assert_refused(path, "not a file of noughts.Solver.save")
    with pytest.raises(FileNotFoundError):
        noughts.Solver().load(tmp_path / "missing")


def test_a_damaged_or_short_file_is_refused(tmp_path):
    path = saved(tmp_path)
    data = path.read_bytes()
    (tmp_path / "short").write_bytes(data[:-20])
    assert_refused(tmp_path / "short", "ends before|damaged")
    flipped = bytearray(data)
    flipped[-100] ^= 0x10
    (tmp_path / "flipped").write_bytes(bytes(flipped))
    assert_refused(tmp_path / "flipped", "damaged")
    magic, header, rest = data.split(b"\n", 2)
    (tmp_path / "header").write_bytes(magic + b"\n{not json\n" + rest)
    assert_refused(tmp_path / "header", "header is damaged")


def test_a_file_keyed_otherwise_is_refused(tmp_path):
    path = saved(tmp_path)
    assert_refused(path, "symmetry=True", symmetry=False)
    magic, header, rest = path.read_bytes().split(b"\n", 2)
    fields = json.loads(header)
    fields["tables"][0]["keys"][3] ^= 1  # as if another version had keyed a position otherwise
    fields["noughts"] = "0.0.1"
    (tmp_path / "old").write_bytes(magic + b"\n" + json.dumps(fields).encode() + b"\n" + rest)
    assert_refused(tmp_path / "old", "0.0.1 keyed the positions")


@pytest.mark.parametrize(
    "options",
    [dict(rows=3, cols=3, k=3, free_choice=True), dict(rows=3, cols=3, k=3, misere=True), dict(rows=3, cols=4, k=3)],
    ids=str,
)
def test_positions_of_one_solver_key_have_one_value(options):
    """Grouped by solver_key, random positions of a small board have one exhaustive value each; the
    key is the same for a position's symmetric images (and, with free choice, its X/O swap), and
    without symmetry tells the images apart."""
    memo: dict = {}
    by_key: dict[int, set] = {}
    for seed in range(300):
        g = random_game(lambda: Classic(**options), seed, 2 + seed % 5)
        if g.is_over():
            continue
        by_key.setdefault(g.solver_key(), set()).add(minimax(g.copy(), memo)[0])
        for s in range(g.num_symmetries):
            assert g.symmetric(s).solver_key() == g.solver_key()
        if options.get("free_choice"):
            swapped = Classic.from_string(g.to_string().translate(str.maketrans("xo", "ox")))
            assert swapped.solver_key() == g.solver_key()
    assert all(len(values) == 1 for values in by_key.values())
    assert len(by_key) > 20
    a, b = Classic(**options), Classic(**options)
    symbol = "=X" if options.get("free_choice") else ""
    a.play("a1" + symbol)
    b.play(chr(ord("a") + options["cols"] - 1) + "1" + symbol)  # the first row's two corners
    assert a.solver_key() == b.solver_key() and a.solver_key(symmetry=False) != b.solver_key(symmetry=False)
