"""scripts/train_ultimate_eval.py end to end on a few tiny games: each step runs, label's
values are the solver's, label --nodes gives the same labels every time, and the header
export reads back as the network it was given."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import noughts
import numpy as np
import pytest
from script_loader import SCRIPTS, load_script

SCRIPT = SCRIPTS / "train_ultimate_eval.py"


def run(*args: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def script():
    return load_script("train_ultimate_eval")


@pytest.fixture(scope="module")
def selfplay(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("train")
    run("selfplay", "--games", 3, "--iterations", 100, "--seed", 5, "--tiebreak", "--out", "sp.npz", cwd=where)
    return where


def test_label_by_nodes_is_reproducible_and_matches_the_solver(selfplay, script) -> None:
    for out in ("a.npz", "b.npz"):
        run("label", "--data", "sp.npz", "--out", out, "--nodes", 20000, "--from-ply", 30, cwd=selfplay)
    a, b = np.load(selfplay / "a.npz"), np.load(selfplay / "b.npz")
    assert np.array_equal(a["proven"], b["proven"])
    proved = np.flatnonzero(a["proven"] != script.UNPROVEN)
    assert len(proved) > 0
    # The alpha-beta solver is the independent route. It answers at once only near a game's
    # end, so the positions checked are each game's last few (a game's positions are
    # consecutive: a position is a game's last when the next one is not one ply deeper);
    # the time limit turns a slow solve into a failure instead of a hang.
    last = [start - 1 for start in script.game_starts(script.marks(a))[1:]]
    proved_set = set(proved.tolist())
    checked = [i for end in last for i in range(end - 3, end + 1) if i in proved_set]
    assert len(checked) >= 3
    for i in checked:
        game = noughts.Ultimate.from_string(
            script.position_string(a["xs"][i], a["os"][i], int(a["forced"][i]), bool(a["tiebreak"][i]))
        )
        assert noughts.solve(game, weak=True, max_seconds=20).value == a["proven"][i]


def test_label_games_labels_the_first_games_alone(selfplay, script) -> None:
    run("label", "--data", "sp.npz", "--out", "all.npz", "--nodes", 20000, "--from-ply", 30, cwd=selfplay)
    run("label", "--data", "sp.npz", "--out", "one.npz", "--nodes", 20000, "--from-ply", 30, "--games", 1, cwd=selfplay)
    every, first = np.load(selfplay / "all.npz")["proven"], np.load(selfplay / "one.npz")["proven"]
    end = script.game_starts(script.marks(np.load(selfplay / "sp.npz")))[1]  # where the second game starts
    assert np.array_equal(first[:end], every[:end])
    assert (every[end:] != script.UNPROVEN).any()
    assert (first[end:] == script.UNPROVEN).all()


def test_train_then_export_reads_back(selfplay, script) -> None:
    run("label", "--data", "sp.npz", "--out", "lab.npz", "--nodes", 5000, "--from-ply", 30, cwd=selfplay)
    train = ("train", "--data", "lab.npz", "--out", "net.npz", "--epochs", 1, "--hidden", 8, "--rules", "codingame")
    run(*train, cwd=selfplay)
    header = selfplay / "weights.hpp"
    run("export", "--net", "net.npz", "--tiebreak-net", "net.npz", "--header", header, cwd=selfplay)
    trained = script.load_network(selfplay / "net.npz")
    for rules in script.RULES:
        shipped = script.load_network(Path(f"{header}:{rules}"))
        for key, weights in trained.items():
            np.testing.assert_allclose(shipped[key], weights.reshape(shipped[key].shape), rtol=1e-6, atol=1e-9)
    # A network of a header is a start as good as a file: exporting the header's own
    # networks again writes the same weights.
    again = selfplay / "again.hpp"
    run("export", "--net", f"{header}:seed", "--tiebreak-net", f"{header}:codingame", "--header", again, cwd=selfplay)
    assert again.read_text().split("#pragma once")[1] == header.read_text().split("#pragma once")[1]
