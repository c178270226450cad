#!/usr/bin/env bash
# Builds the C++ tests and the Python extension with AddressSanitizer and
# UndefinedBehaviorSanitizer (or the sanitizers given as $1, e.g. "thread"),
# runs ctest, then the Python test suite against that extension.
# Usage: scripts/sanitize.sh [address,undefined|thread] [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
san="${1:-address,undefined}"
shift || true
build="build/sanitize-${san//,/-}"
pybind11_dir="$(python3 -c 'import pybind11; print(pybind11.get_cmake_dir())')"

cmake -S . -B "$build/cpp" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNOUGHTS_SANITIZE="$san" >/dev/null
cmake --build "$build/cpp"
(cd "$build/cpp" && ctest --output-on-failure)

cmake -S . -B "$build/py" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNOUGHTS_SANITIZE="$san" \
  -DNOUGHTS_BUILD_PYTHON=ON -Dpybind11_DIR="$pybind11_dir" >/dev/null
cmake --build "$build/py"
pkg="$build/pkg/noughts"
rm -rf "$build/pkg" && mkdir -p "$pkg"
cp -r python/noughts/. "$pkg/"
rm -f "$pkg"/_core*.so
cp "$build"/py/cpp/bindings/_core*.so "$pkg/"
# The CodinGame bot's source, as a wheel ships it (the copied package is not
# next to the sources it would otherwise be built from).
cp "$build"/py/cpp/bindings/codingame_bot.cpp "$pkg/"

# Python itself is not instrumented: the runtime must be loaded first.
case "$san" in
  # libstdc++ too: python is not linked with it, and the sanitizer must find
  # the real __cxa_throw when it intercepts C++ exceptions.
  *address*) runtime="$(g++ -print-file-name=libasan.so) $(g++ -print-file-name=libstdc++.so)";
             export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" ;;
  # A forked child starting threads is what tests/test_threads.py checks; the
  # sanitizer refuses it unless told (its checks go on in the child).
  *thread*)  runtime="$(g++ -print-file-name=libtsan.so) $(g++ -print-file-name=libstdc++.so)";
             export TSAN_OPTIONS="die_after_fork=0" ;;
  *)         runtime="" ;;
esac
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
LD_PRELOAD="$runtime" PYTHONPATH="$build/pkg" python3 -m pytest -q -p no:cacheprovider "${@:-tests}"
