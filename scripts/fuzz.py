#!/usr/bin/env python3
"""Runs the fuzz targets of tests/test_fuzz.py for many cases (docs/hardening.md).

The targets are the hypothesis tests of tests/test_fuzz.py (CI runs them with
100 examples each); here each runs ``--cases`` examples (default 100,000),
with fresh randomness unless ``--seed`` is given, no example database and no
health checks. Prints, per target, the examples run (per game where the
target draws games), the time, and the failure if any; exits 1 on any failure.

    nice -n 10 python3 scripts/fuzz.py                       # every target, 100,000 cases each
    nice -n 10 python3 scripts/fuzz.py --cases 20000 -k records -k engine
    python3 scripts/fuzz.py --list
    python3 scripts/fuzz.py --tolerate-known                 # count the open bugs' signatures, look past them

``--atheris NAME`` runs one parser under atheris (coverage-guided libFuzzer
for Python, ``pip install atheris``) instead of hypothesis, with the same
checks; arguments after ``--`` go to libFuzzer (``-runs=N``,
``-max_total_time=S``, a corpus directory). NAME is one of
``records``, ``position``, ``move``, ``engine``:

    nice -n 10 python3 scripts/fuzz.py --atheris records -- -runs=200000 -artifact_prefix=/tmp/

``--tolerate-known`` sets NOUGHTS_FUZZ_TOLERATE_KNOWN=1: an exception that
matches an open bug's signature (tests/test_fuzz.py ``known_bug``) is counted
under "known" and the example dropped, so a long campaign can look for new
bugs; without it such an example fails its target, as in CI.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=100_000, help="examples per target (default 100,000)")
    parser.add_argument(
        "-k", dest="patterns", action="append", default=[], help="run targets whose name contains this (repeatable)"
    )
    parser.add_argument("--seed", type=int, help="hypothesis seed (default: fresh randomness)")
    parser.add_argument(
        "--tolerate-known", action="store_true", help="count the open bugs' signatures instead of failing"
    )
    parser.add_argument("--list", action="store_true", help="list the targets and exit")
    parser.add_argument("--atheris", metavar="NAME", choices=sorted(ATHERIS_TARGETS), help="run one atheris target")
    parser.add_argument("libfuzzer_args", nargs="*", help="after --: libFuzzer's arguments (with --atheris)")
    args = parser.parse_args(argv)

    if args.tolerate_known:
        os.environ["NOUGHTS_FUZZ_TOLERATE_KNOWN"] = "1"
    if importlib.util.find_spec("noughts") is None:  # not installed and no PYTHONPATH: the work tree's package
        sys.path.insert(0, str(ROOT / "python"))
    sys.path.insert(0, str(ROOT / "tests"))

    from hypothesis import HealthCheck, Phase, settings
    from hypothesis import seed as hypothesis_seed

    # Loaded before the targets are imported: their own @settings inherit from it.
    settings.register_profile(
        "fuzz",
        max_examples=args.cases,
        deadline=None,
        derandomize=False,
        database=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate, Phase.target, Phase.shrink, Phase.explain],
        print_blob=True,
    )
    settings.load_profile("fuzz")
    spec = importlib.util.spec_from_file_location("test_fuzz", ROOT / "tests" / "test_fuzz.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["test_fuzz"] = module
    spec.loader.exec_module(module)

    import noughts

    if args.atheris:
        return run_atheris(module, args.atheris, args.libfuzzer_args)

    targets = {
        name: fn
        for name, fn in vars(module).items()
        if name.startswith("test_") and hasattr(fn, "hypothesis") and not name.startswith("test_regression")
    }
    if args.patterns:
        targets = {n: f for n, f in targets.items() if any(p in n for p in args.patterns)}
    if args.list:
        print("\n".join(targets))
        return 0
    if not targets:
        print("no target matches", file=sys.stderr)
        return 2

    print(
        f"noughts {noughts.__version__} from {Path(noughts.__file__).parent}; {len(targets)} targets, "
        f"{args.cases:,} cases each{'; tolerating known bugs' if args.tolerate_known else ''}",
        flush=True,
    )
    failures: list[str] = []
    total_cases, start = 0, time.perf_counter()
    for name, fn in targets.items():
        before = dict(module.COUNTS)
        known_before = dict(module.KNOWN)
        t0 = time.perf_counter()
        run = hypothesis_seed(args.seed)(fn) if args.seed is not None else fn
        error = None
        try:
            run()
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # noqa: BLE001 - every failure is reported, then the next target runs
            error = e
        seconds = time.perf_counter() - t0
        counts = {k: v - before.get(k, 0) for k, v in module.COUNTS.items() if v - before.get(k, 0)}
        short = name.removeprefix("test_")
        main_key = next((k for k in counts if "/" not in k), None)
        cases = counts.get(main_key, 0) if main_key else 0
        total_cases += cases
        games = ", ".join(f"{k.split('/', 1)[1]} {v:,}" for k, v in sorted(counts.items()) if "/" in k)
        known = {k: v - known_before.get(k, 0) for k, v in module.KNOWN.items() if v - known_before.get(k, 0)}
        line = f"{short:26} {cases:>9,} cases {seconds:8.1f} s"
        if games:
            line += f"  ({games})"
        if known:
            line += "  known: " + ", ".join(f"{k} {v:,}" for k, v in sorted(known.items()))
        print(line + ("  FAILED" if error else "  ok"), flush=True)
        if error is not None:
            failures.append(name)
            print("".join(traceback.format_exception(error)), flush=True)
    elapsed = time.perf_counter() - start
    print(
        f"total: {total_cases:,} cases in {elapsed:.0f} s over {len(targets)} targets; "
        f"{len(failures)} failed{': ' + ', '.join(failures) if failures else ''}"
    )
    if module.KNOWN:
        print("known bugs met: " + ", ".join(f"{k} {v:,}" for k, v in sorted(module.KNOWN.items())))
    return 1 if failures else 0


# ---------------------------------------------------------------------------
# atheris: the same checks, driven by coverage-guided libFuzzer on raw bytes
# ---------------------------------------------------------------------------
ATHERIS_TARGETS = ("engine", "move", "position", "records")


def run_atheris(module, name: str, libfuzzer_args: list[str]) -> int:
    try:
        import atheris
    except ImportError:
        print("atheris is not installed: pip install atheris", file=sys.stderr)
        return 2
    from hypothesis.errors import UnsatisfiedAssumption

    classes = module.CLASSES
    factories = module.FACTORIES
    runs = [0]

    def one_input(data: bytes) -> None:
        if len(data) < 2:
            return
        runs[0] += 1
        # The first byte picks the game, the second how far into it; the rest is the text, undecodable bytes
        # becoming lone surrogates as stdin does under the C locale.
        text = data[2:].decode("utf-8", "surrogateescape")
        try:
            if name == "records":
                module.check_records(text)
            elif name == "position":
                module.check_position_string(classes[data[0] % 3], text)
            elif name == "move":
                game = module.random_game(factories[data[0] % len(factories)], data[1], data[1] % 40)
                module.check_move_text(game, text)
            else:
                out: list[str] = []
                engine = module.Engine(out.append)
                for line in text.split("\n")[:8]:
                    module.run_engine_line(engine, out, line)
        except UnsatisfiedAssumption:  # a tolerated known bug (--tolerate-known)
            pass

    import warnings

    warnings.filterwarnings("ignore", message="Using `reject` outside")
    atheris.instrument_all()  # every Python function loaded (noughts, the checks): coverage for libFuzzer
    atheris.Setup([sys.argv[0], *libfuzzer_args], one_input)
    start = time.perf_counter()
    try:
        atheris.Fuzz()
    finally:
        print(f"atheris {name}: {runs[0]:,} inputs in {time.perf_counter() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
