"""The noughts command line and the engine protocol, through real subprocesses."""

import subprocess
import sys
import time

import noughts
import pytest

CLI = [sys.executable, "-m", "noughts.cli"]


def run(*args, stdin="", timeout=120):
    return subprocess.run(CLI + list(args), input=stdin, capture_output=True, text=True, timeout=timeout)


def test_help_everywhere():
    for command in ([], ["play"], ["solve"], ["perft"], ["analyse"], ["match"], ["bench"], ["engine"]):
        out = run(*command, "--help")
        assert out.returncode == 0 and "usage: noughts" in out.stdout


def test_readme_main_command_counts_perft():
    out = run("perft", "classic", "--size", "4", "--depth", "4")
    assert out.returncode == 0
    assert "43,680" in out.stdout  # 4x4 k=4 perft(4)


def test_perft_on_every_game():
    assert "720" in run("perft", "ultimate", "--depth", "2").stdout
    quantum = run("perft", "quantum", "--depth", "1").stdout
    assert f"{noughts.perft(noughts.Quantum(), 1):>16,}" in quantum


def test_solve_reports_value_moves_and_line():
    out = run("solve", "classic", "--size", "4", "-k", "3")
    assert out.returncode == 0
    assert "X wins in 5" in out.stdout and "principal variation:" in out.stdout
    out = run("solve", "--moves", "a1 a2 b1 b2", "--values")
    assert "c1 wins" in out.stdout


def test_options_take_their_python_names_too():
    # --free-choice is free_choice=True, as --free is; both solve the same game.
    short = run("solve", "classic", "--size", "3", "--free", "--misere")
    long = run("solve", "classic", "--size", "3", "--free-choice", "--misere")
    assert short.returncode == 0 and long.returncode == 0

    def answer(out):  # without the time of the solve
        return [line for line in out.stdout.splitlines() if not line.startswith("nodes:")]

    assert answer(short) == answer(long) and "value: draw" in long.stdout


def test_weak_solve_reports_the_value_and_one_move():
    out = run("solve", "classic", "--size", "4", "-k", "3", "--weak")
    assert out.returncode == 0
    assert "value: X wins\n" in out.stdout and "in 5" not in out.stdout
    assert "a best move: " in out.stdout and "principal variation" not in out.stdout
    move = out.stdout.split("a best move: ")[1].split()[0]
    full = run("solve", "classic", "--size", "4", "-k", "3").stdout
    assert move in full.split("best moves: ")[1].split("\n")[0].split()
    out = run("solve", "classic", "--size", "4", "-k", "3", "--one-best-move")
    assert "X wins in 5" in out.stdout and "a best move: " in out.stdout and "principal variation:" in out.stdout
    out = run("solve", "classic", "--size", "4", "-k", "3", "--method", "pns")
    assert out.returncode == 0 and "value: X wins" in out.stdout
    out = run("solve", "classic", "--method", "magic")
    assert out.returncode == 2 and "alphabeta" in out.stderr and "Traceback" not in out.stderr


def test_solve_asking_one_question():
    """--ask win / --ask loss: a weak solve of one question, its answer worded by what it asked."""
    won = ("solve", "classic", "--size", "4", "-k", "3")  # X wins
    out = run(*won, "--ask", "win")
    assert out.returncode == 0 and "value: X wins\n" in out.stdout and "principal variation" not in out.stdout
    assert "value: X does not lose\n" in run(*won, "--ask", "loss").stdout
    drawn = ("solve", "classic", "--size", "3", "--values")
    out = run(*drawn, "--ask", "win", "--method", "pns")
    assert "value: X does not win\n" in out.stdout and "a1 does not win" in out.stdout
    assert "value: X does not lose\n" in run(*drawn, "--ask", "loss").stdout
    out = run(*drawn, "--ask", "draw")
    assert out.returncode == 2 and "win" in out.stderr and "Traceback" not in out.stderr


def test_solve_keeps_its_table_in_a_file(tmp_path):
    """--tables FILE: the table is written after the solve, also when the time runs out, and read
    by the next run, which answers the same with far fewer nodes."""
    tables = str(tmp_path / "solve.tables")
    args = ("solve", "classic", "--size", "4", "-k", "4", "--misere", "--free", "--weak", "--tables", tables)
    stopped = run(*args, "--max-seconds", "0.01")
    assert "saved the table to" in stopped.stderr
    first = run(*args)
    assert first.returncode == 0 and "value: draw" in first.stdout
    assert "read the table of" in first.stderr
    again = run(*args)
    nodes = [int(out.stdout.split("nodes: ")[1].split()[0].replace(",", "")) for out in (first, again)]
    assert "value: draw" in again.stdout and nodes[1] * 100 < nodes[0]
    out = run(*args, "--method", "pns")
    assert out.returncode == 2 and "--tables" in out.stderr and "Traceback" not in out.stderr


def test_solve_with_threads_gives_the_one_thread_answer():
    one = run("solve", "classic", "--size", "4", "-k", "3").stdout
    two = run("solve", "classic", "--size", "4", "-k", "3", "--threads", "2", "--tt-mb", "4")
    assert two.returncode == 0
    for line in ("value:", "best moves:"):
        assert [x for x in one.splitlines() if x.startswith(line)] == [
            x for x in two.stdout.splitlines() if x.startswith(line)
        ]
    pns = run("solve", "classic", "--size", "4", "-k", "3", "--threads", "2", "--tt-mb", "4", "--method", "pns")
    assert pns.returncode == 0
    assert "value: X wins" in pns.stdout  # proof-number search tells no distance
    assert [x for x in one.splitlines() if x.startswith("best moves:")] == [
        x for x in pns.stdout.splitlines() if x.startswith("best moves:")
    ]


def test_bad_input_gives_a_message_not_a_traceback():
    out = run("solve", "--moves", "a1 a1")
    assert out.returncode == 2 and "occupied" in out.stderr and "Traceback" not in out.stderr
    out = run("perft", "--position", "nonsense")
    assert out.returncode == 2 and "invalid classic position" in out.stderr
    out = run("solve", "ultimate", "--size", "4")
    assert out.returncode == 2 and "ultimate takes no --size" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["perft", "--depth", "-1"], "--depth: must be at least 1"),
        (["perft", "--depth", "0"], "--depth: must be at least 1"),
        (["match", "--games", "0"], "--games: must be at least 1"),
        (["solve", "--size", "0"], "rows"),
        (["solve", "--rows", "3", "--size", "4"], "--size or --rows"),
        (["solve", "--tt-mb", "0"], "--tt-mb: must be a number > 0"),
        (["analyse", "--seconds", "-1"], "--seconds: must be a number > 0"),
        (["analyse", "--seconds", "nan"], "--seconds: must be a number > 0"),
        (["play", "--human", "y"], "--human"),
        (["solve", "--position", "x.. k=3", "--size", "3"], "carries its own options"),
    ],
)
def test_every_bad_argument_exits_2_with_a_message(args, message):
    out = run(*args, timeout=60)
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    assert message in out.stderr and "Traceback" not in out.stderr
    assert out.stdout == ""  # refused before anything ran


def test_match_refuses_an_unwritable_records_path_before_playing(tmp_path):
    bad = tmp_path / "no such directory" / "games.txt"
    out = run("match", "classic", "--games", "2", "--a-iterations", "50", "--b-iterations", "50", "--records", str(bad))
    assert out.returncode == 2 and "cannot write the records" in out.stderr and "Traceback" not in out.stderr
    assert "games" not in out.stderr.split("cannot write")[0]  # no game was played first


def test_version_and_python_dash_m():
    out = run("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"noughts {noughts.__version__}"
    module = subprocess.run([sys.executable, "-m", "noughts", "--version"], capture_output=True, text=True)
    assert module.returncode == 0 and module.stdout == out.stdout
    module = subprocess.run(
        [sys.executable, "-m", "noughts", "perft", "--depth", "1"], capture_output=True, text=True, timeout=60
    )
    assert module.returncode == 0 and " 9 " in module.stdout


def test_human_side_is_case_insensitive():
    out = run("play", "--human", "O", "--seconds", "0.01", stdin="quit\n")
    assert out.returncode == 0 and "Traceback" not in out.stderr
    assert "X (engine) played" in out.stdout and "you play O" in out.stdout  # the engine opened


def test_engine_survives_bytes_that_are_not_utf8():
    proc = subprocess.run(
        CLI + ["engine"],
        input=b"\xff\xfe bogus\nisready\nquit\n",
        capture_output=True,
        timeout=60,
        env={**__import__("os").environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr
    assert b"readyok" in proc.stdout and b"error" in proc.stdout


def test_analyse_lists_moves():
    out = run("analyse", "ultimate", "--iterations", "2000")
    assert out.returncode == 0 and "visits" in out.stdout and "best:" in out.stdout
    assert out.stdout.count("X to move") == 1


def test_analyse_shows_which_moves_are_proven():
    out = run("analyse", "--moves", "a1 a2 b1 b2", "--iterations", "20000")
    assert out.returncode == 0 and "proven (for X)" in out.stdout
    rows = {line.split()[0]: line.split() for line in out.stdout.splitlines() if line.strip()[:2] in ("c1", "c2")}
    assert rows["c1"][-1] == "win"  # completes the top row
    assert "best: c1 (proven win)" in out.stdout
    out = run("analyse", "--iterations", "200000")  # 3x3 from the start: every move proven, none a win
    verdicts = [
        line.split()[-1] for line in out.stdout.splitlines() if line[:8].strip() in noughts.Classic().legal_moves()
    ]
    assert len(verdicts) == 9 and set(verdicts) <= {"draw", "loss"} and "draw" in verdicts


def test_play_with_piped_moves_undo_and_bad_input():
    moves = "b2\nzz\nhint\nundo\nb2\nquit\n"
    out = run("play", "--seconds", "0.02", stdin=moves)
    assert out.returncode == 0  # quitting is no error
    assert "cannot read move 'zz'" in out.stdout and "hint:" in out.stdout
    assert "Traceback" not in out.stderr


def test_play_auto_runs_to_the_end():
    out = run("play", "--auto", "--seconds", "0.01")
    assert out.returncode == 0 and "Game over (1/2-1/2): Draw" in out.stdout  # 3x3 between sound players is a draw


def test_match_prints_a_score_and_writes_records(tmp_path):
    records = tmp_path / "games.txt"
    out = run(
        "match", "classic", "--games", "4", "--a-iterations", "200", "--b-iterations", "200", "--records", str(records)
    )
    assert out.returncode == 0 and "A scored" in out.stdout and "95% interval" in out.stdout
    assert "A: MCTS, 200 iterations a move" in out.stdout and "B: MCTS, 200 iterations a move" in out.stdout
    games = noughts.read_records(records)
    assert len(games) == 4 and all(r.game.is_over() for r in games)


def test_bench_prints_a_table():
    out = run("bench", timeout=300)
    assert out.returncode == 0 and "random playouts ultimate" in out.stdout


class Session:
    """An engine subprocess driven line by line."""

    def __init__(self):
        self.proc = subprocess.Popen(
            CLI + ["engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix, timeout=30):
        lines, deadline = [], time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline().rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines
        raise AssertionError(f"no {prefix!r} in {lines}")

    def close(self):
        self.send("quit")
        assert self.proc.wait(timeout=30) == 0


def test_protocol_session():
    s = Session()
    s.send("noughts")
    assert s.read_until("noughtsok")[0].startswith("id name noughts")
    s.send("game classic rows=3 cols=3 k=3")
    s.send("position start moves a1 a2 b1 b2")
    s.send("go iterations 5000")
    lines = s.read_until("bestmove")
    assert lines[-1] == "bestmove c1" and any(l.startswith("info") for l in lines)
    s.send("go solve")
    assert s.read_until("bestmove")[-1] == "bestmove c1"
    s.send("play c1")
    s.send("go")
    assert s.read_until("bestmove")[-1] == "bestmove none"
    s.close()


def test_protocol_survives_malformed_lines():
    s = Session()
    for bad in [
        "bogus",
        "game chess",
        "game classic rows=x",
        "position",
        "position start moves zz",
        "go iterations -3",
        "play",
        "setoption name nope value 1",
        'position string "unclosed',
    ]:
        s.send(bad)
        assert s.read_until("error")[-1].startswith("error")
    s.send("isready")
    assert s.read_until("readyok")
    s.close()


def test_stop_ends_a_long_search_quickly():
    s = Session()
    s.send("game ultimate")
    s.send("go movetime 60000")
    time.sleep(0.5)
    start = time.monotonic()
    s.send("isready")
    s.read_until("readyok")
    s.send("stop")
    lines = s.read_until("bestmove")
    assert time.monotonic() - start < 10
    move = lines[-1].split()[1]
    assert noughts.Ultimate().is_legal(move)
    s.close()


def test_codingame_protocol():
    # We move first: the referee sends -1 -1 and all 81 squares.
    squares = "\n".join(f"{r} {c}" for r in range(9) for c in range(9))
    out = subprocess.run(
        CLI + ["engine", "--codingame", "--ms", "20"],
        input=f"-1 -1\n81\n{squares}\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0
    row, col = map(int, out.stdout.split())
    assert 0 <= row < 9 and 0 <= col < 9


def test_codingame_collects_only_a_turns_garbage_between_turns(monkeypatch):
    """Between turns only the youngest generation is collected: a full collection takes
    milliseconds, which an opponent that answers at once would see on our clock."""
    import gc
    import io

    from noughts import codingame

    generations = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: generations.append(generation) or 0)
    squares = "\n".join(f"{r} {c}" for r in range(9) for c in range(9))
    first = "-1 -1\n81\n" + squares + "\n"
    out = io.StringIO()
    codingame.run(io.StringIO(first), out, ms=20, first_ms=40)
    assert out.getvalue().count("\n") == 1
    assert generations and all(g == 0 for g in generations)


@pytest.mark.parametrize("row,col", [(0, 0), (4, 4), (8, 8), (2, 6), (5, 1)])
def test_codingame_coordinates_round_trip(row, col):
    from noughts.codingame import grid_to_id, id_to_grid

    move = grid_to_id(row, col)
    assert id_to_grid(move) == (row, col)
    assert noughts.Ultimate().move_name(move) == "abcdefghi"[col] + str(row + 1)


@pytest.mark.parametrize("row,col", [(0, 9), (9, 0), (3, -1), (-1, -1), (100, 4)])
def test_codingame_grid_to_id_rejects_squares_off_the_grid(row, col):
    from noughts.codingame import grid_to_id

    with pytest.raises(noughts.InvalidMoveError, match="rows and columns are 0..8"):
        grid_to_id(row, col)


@pytest.mark.parametrize("move", [-1, 81, 1000])
def test_codingame_id_to_grid_rejects_ids_outside_ultimate(move):
    from noughts.codingame import id_to_grid

    with pytest.raises(noughts.InvalidMoveError, match="ids are 0..80"):
        id_to_grid(move)


def test_codingame_rejects_squares_off_the_grid():
    import io

    from noughts import codingame

    for dialogue in ("0 9\n0\n", "3 -1\n0\n", "-1 -1\n1\n9 9\n"):
        with pytest.raises(ValueError, match="rows and columns are 0..8"):
            codingame.run(io.StringIO(dialogue), io.StringIO(), ms=5)


def test_engine_refuses_too_many_threads():
    from noughts.engine import Engine

    out = []
    engine = Engine(out.append)
    engine.handle("setoption name threads value 100000")
    assert out and out[-1].startswith("error threads must be between 1 and 256")
    engine.handle("go iterations 100")
    engine.handle("stop")
    assert out[-1].startswith("bestmove ")


def test_match_progress_has_a_time_estimate_and_the_interval_stays_within_0_100():
    out = run("match", "classic", "--games", "3", "--a-iterations", "100", "--b-iterations", "100")
    assert out.returncode == 0 and "about " in out.stderr and " left" in out.stderr and "3/3 games" in out.stderr
    from noughts.cli import _score_interval
    from noughts.mcts import MatchResult

    for wins, draws, losses in [(10, 0, 0), (0, 0, 10), (9, 1, 0), (1, 0, 0), (3, 4, 3), (0, 20, 0)]:
        result = MatchResult(wins, draws, losses, ())
        low, high = _score_interval(result)
        assert 0.0 <= low <= result.score <= high <= 1.0
    low, high = _score_interval(MatchResult(4, 0, 0, ()))
    assert high == 1.0 and 0.4 < low < 0.6  # four wins of four: far from proving 100%
    low, high = _score_interval(MatchResult(1000, 0, 0, ()))
    assert 0.99 < low < 1.0


def test_the_engine_keeps_its_solver_table_between_moves():
    """'go solve' on a position solved before is answered from the table; a new game starts afresh."""
    from noughts.engine import Engine

    out: list[str] = []
    engine = Engine(out.append)

    def solved_nodes() -> int:
        out.clear()
        engine.handle("go solve")
        deadline = time.monotonic() + 60
        while not any(line.startswith("bestmove") for line in out):
            assert time.monotonic() < deadline, f"no bestmove within 60 s: {out}"
            time.sleep(0.01)
        info = next(line for line in out if line.startswith("info solved"))
        return int(info.split(" nodes ")[1].split()[0])

    for _ in range(2):
        engine.handle("game classic rows=6 cols=7 k=4 gravity")
        engine.handle("position start moves d d d c c e b f")
        first = solved_nodes()
        assert solved_nodes() * 10 < first
