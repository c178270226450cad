"""One C++ source file from a main file and the engine's headers (no imports: CMake runs it as a script).

Each ``#include "noughts/..."`` is replaced by the header's text, once per
header (they all say ``#pragma once``); standard headers stay as includes.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

_LOCAL = re.compile(r'^\s*#\s*include\s+"(noughts/[^"]+)"\s*$')
_PRAGMA_ONCE = re.compile(r"^\s*#\s*pragma\s+once\s*$")


def amalgamate(main: Path, include_dir: Path, defines: dict[str, str] | None = None) -> str:
    seen: set[str] = set()
    out: list[str] = [f"#define {k} {v}" for k, v in (defines or {}).items()]

    def inline(path: Path) -> None:
        for line in path.read_text().splitlines():
            m = _LOCAL.match(line)
            if m:
                name = m.group(1)
                if name not in seen:
                    seen.add(name)
                    out.append(f"// ---- {name}")
                    inline(include_dir / name)
            elif not _PRAGMA_ONCE.match(line):
                out.append(line)

    inline(main)
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    main_file, include, target = (Path(a) for a in sys.argv[1:4])
    text = amalgamate(main_file, include, {"NOUGHTS_NO_EVALUATION": "1", "NOUGHTS_NO_CLONES": "1"})
    target.write_text(text)
