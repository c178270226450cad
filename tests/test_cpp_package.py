"""The C++ side for other engines: the core builds alone, its ctest suite passes, and an
example program builds against the installed package through find_package(noughts)."""

import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(
    shutil.which("cmake") is None or not (ROOT / "CMakeLists.txt").exists(),
    reason="needs cmake and the source tree",
)


def run(*args, cwd=None):
    subprocess.run(args, cwd=cwd, check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cpp")
    build, prefix = tmp / "build", tmp / "prefix"
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    env_jobs = ["--parallel", str(os.cpu_count() or 2)]
    run("cmake", "-S", str(ROOT), "-B", str(build), *generator, "-DCMAKE_BUILD_TYPE=Release", "-DNOUGHTS_INSTALL=ON")
    run("cmake", "--build", str(build), *env_jobs)
    run("cmake", "--install", str(build), "--prefix", str(prefix))
    return tmp, build, prefix


def test_ctest_suite_passes(installed):
    _, build, _ = installed
    out = subprocess.run(["ctest", "--output-on-failure"], cwd=build, stdout=subprocess.PIPE, text=True)
    assert out.returncode == 0, out.stdout


def test_example_builds_against_the_installed_package(installed):
    tmp, _, prefix = installed
    example = tmp / "example"
    run("cmake", "-S", str(ROOT / "examples" / "cpp"), "-B", str(example), f"-DCMAKE_PREFIX_PATH={prefix}")
    run("cmake", "--build", str(example))
    exe = next(p for p in example.rglob("solve_and_count*") if p.is_file() and os.access(p, os.X_OK))
    out = subprocess.run([str(exe)], stdout=subprocess.PIPE, text=True, check=True).stdout
    assert "value for X +0" in out and "Ultimate perft(5) = 473256" in out
