"""The documentation's examples run: docs/guide.md and the docstrings of the package."""

import doctest
import importlib
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.IGNORE_EXCEPTION_DETAIL


@pytest.mark.skipif(not (ROOT / "docs" / "guide.md").exists(), reason="needs the source tree")
def test_user_guide():
    result = doctest.testfile(str(ROOT / "docs" / "guide.md"), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 20 and result.failed == 0


@pytest.mark.parametrize("module", ["noughts.classic", "noughts.quantum", "noughts.ultimate", "noughts.learning"])
def test_docstrings(module):
    result = doctest.testmod(importlib.import_module(module), optionflags=FLAGS)
    assert result.failed == 0
