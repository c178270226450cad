"""What a new user meets first: the README's set-up commands, the extras, and what a wheel may contain."""

import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
needs_tree = pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = None


def _pyproject():
    if tomllib is None:
        pytest.skip("tomllib is Python >= 3.11")
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _readme_setup_commands():
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```bash\n(.*?)```", text, re.S)
    assert block and text.index("```bash") < text.index("\n## "), "the README must start with its set-up commands"
    return [line for line in block.group(1).splitlines() if line.strip()]


@needs_tree
def test_readme_starts_with_two_setup_commands_and_ci_runs_the_second():
    commands = _readme_setup_commands()
    assert len(commands) == 2
    install_and_run, install_and_test = commands
    assert install_and_run.startswith("pip install . && noughts ")
    assert install_and_test.startswith("pip install ") and install_and_test.endswith("&& pytest")
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line and not line.startswith("#")]
    assert ci[-1] == install_and_test


@needs_tree
def test_extras_are_quoted_everywhere():
    # zsh (macOS' default shell) reads unquoted brackets as a glob: `pip install .[test]` fails there.
    files = [ROOT / "README.md", ROOT / ".ci" / "run", *ROOT.glob("docs/*.md"), *ROOT.glob(".github/workflows/*")]
    files += [*ROOT.glob("python/noughts/*.py")]
    unquoted = re.compile(r"""pip install (?:[^"'\n]* )?(?<!["'])[\w.]*\[\w""")
    bad = [f"{f.relative_to(ROOT)}: {m.group(0)}" for f in files for m in unquoted.finditer(f.read_text())]
    assert bad == []


@needs_tree
def test_every_extra_the_docs_name_exists_and_dev_has_the_tools():
    extras = _pyproject()["project"]["optional-dependencies"]
    text = "\n".join(p.read_text() for p in [ROOT / "README.md", *ROOT.glob("docs/*.md")])
    named = set(re.findall(r"""["']\.\[([\w,]+)\]["']""", text)) | set(re.findall(r"noughts\[([\w,]+)\]", text))
    for group in named:
        for extra in group.split(","):
            assert extra in extras, extra
    dev = " ".join(extras["dev"])
    for tool in ("pybind11", "scikit-build-core", "ruff", "mypy", "test", "play"):
        assert tool in dev, tool
    # The build back end's own requirements, so that an install without build isolation works.
    for req in _pyproject()["build-system"]["requires"]:
        assert re.split(r"[<>=]", req)[0] in dev


@needs_tree
@pytest.mark.parametrize(
    "path",
    [
        "python/noughts/_core.cpython-39-x86_64-linux-gnu.so",
        "python/noughts/_core.abi3.so",
        "python/noughts/_core.cp311-win_amd64.pyd",
        "python/noughts/._core.cpython-311-x86_64-linux-gnu.so.tmp",
    ],
)
def test_a_stray_module_next_to_the_sources_never_reaches_a_package(path):
    # The package's files are copied with sdist.exclude applied (the CMake-built module is installed separately):
    # a module that dev-build.sh or another Python left next to the sources must be matched here, whatever
    # .gitignore says.
    pathspec = pytest.importorskip("pathspec")
    patterns = _pyproject()["tool"]["scikit-build"]["sdist"]["exclude"]
    spec = pathspec.GitIgnoreSpec.from_lines(patterns)
    assert spec.match_file(path)
    assert not spec.match_file("python/noughts/_core.pyi")
    assert not spec.match_file("python/noughts/classic.py")


@needs_tree
def test_git_ignores_build_outputs():
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    assert "build-example/" in ignored and "build/" in ignored
    assert any(line.startswith("python/noughts/_core") for line in ignored)
