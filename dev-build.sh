#!/usr/bin/env bash
# Developer loop: build the extension in build/dev and drop it next to the
# Python sources, so `PYTHONPATH=python pytest` runs against the fresh build
# without reinstalling. Users and CI use `pip install .` instead.
set -euo pipefail
cd "$(dirname "$0")"
cmake -S . -B build/dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DNOUGHTS_BUILD_PYTHON=ON \
  -Dpybind11_DIR="$(python3 -c 'import pybind11; print(pybind11.get_cmake_dir())')" >/dev/null
cmake --build build/dev
# Copy then rename: a process still running the old module keeps its file
# (overwriting a mapped .so in place crashes it with SIGBUS).
for so in build/dev/cpp/bindings/_core*.so; do
  cp "$so" "python/noughts/.$(basename "$so").tmp"
  mv -f "python/noughts/.$(basename "$so").tmp" "python/noughts/$(basename "$so")"
done
