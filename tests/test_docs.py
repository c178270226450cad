"""The documentation's examples run: docs/guide.md and the docstrings of the package."""

import doctest
import importlib
import pathlib

import noughts
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.IGNORE_EXCEPTION_DETAIL


@pytest.mark.skipif(not (ROOT / "docs" / "guide.md").exists(), reason="needs the source tree")
def test_user_guide():
    result = doctest.testfile(str(ROOT / "docs" / "guide.md"), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 20 and result.failed == 0


@pytest.mark.parametrize(
    "module",
    ["noughts.book", "noughts.classic", "noughts.quantum", "noughts.ultimate", "noughts.learning", "noughts.solver"],
)
def test_docstrings(module):
    result = doctest.testmod(importlib.import_module(module), optionflags=FLAGS)
    assert result.failed == 0


RULES = ROOT / "docs" / "rules.md"

# The perft table's rows of docs/rules.md, by their first column.
PERFT_ROWS = {
    "Classic 3×3 (also misère)": [lambda: noughts.Classic(), lambda: noughts.Classic(misere=True)],
    "Classic 4×4, k = 4": [lambda: noughts.Classic(4, 4, 4)],
    "Classic 3×3, free choice": [lambda: noughts.Classic(free_choice=True)],
    "Classic 6 rows × 7 columns, k = 4, gravity": [lambda: noughts.Classic(6, 7, 4, gravity=True)],
    "Ultimate": [noughts.Ultimate],
    "Quantum": [noughts.Quantum],
}


@pytest.mark.skipif(not RULES.exists(), reason="needs the source tree")
def test_the_perft_table_of_the_rules_is_the_engines():
    rows = {}
    section = RULES.read_text(encoding="utf-8").split("## Counting moves (perft)")[1].split("\n## ")[0]
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] in PERFT_ROWS:
            rows[cells[0]] = [int(c.replace(",", "")) for c in cells[1:] if c]
    assert set(rows) == set(PERFT_ROWS)
    for name, counts in rows.items():
        for make in PERFT_ROWS[name]:
            for depth, count in enumerate(counts, start=1):
                if count < 2_000_000:  # the deeper counts take seconds each: benchmarks/ print them
                    assert noughts.perft(make(), depth) == count, (name, depth)


@pytest.mark.skipif(not RULES.exists(), reason="needs the source tree")
def test_the_repository_cites_its_own_rules():
    # The rules live in docs/rules.md: nothing may point outside the repository for them.
    for path in [
        *ROOT.glob("*.md"),
        *(ROOT / "docs").glob("*.md"),
        *(ROOT / "python").rglob("*.py"),
        *(ROOT / "cpp").rglob("*.[hc]pp"),
    ]:
        text = path.read_text(encoding="utf-8")
        assert "RULES.md" not in text and "shared/" not in text, path
