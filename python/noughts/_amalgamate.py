"""One C++ source file from a main file and the engine's headers (no imports: CMake runs it as a script).

Each ``#include "noughts/..."`` is replaced by the header's text, once per
header (they all say ``#pragma once``); standard headers stay as includes.
Source files given after the main file follow it, their includes resolved the
same way. The network's weights header becomes a packed copy (16-bit numbers
in base 64, unpacked when the program starts): as decimal text it would not
fit CodinGame's limit on a source file. Lines that hold only a comment, and
indentation, are left out for the same reason.
"""

from __future__ import annotations

import base64
import re
import struct
import sys
from pathlib import Path

_LOCAL = re.compile(r'^\s*#\s*include\s+"(noughts/[^"]+)"\s*(//.*)?$')
_PRAGMA_ONCE = re.compile(r"^\s*#\s*pragma\s+once\s*$")
WEIGHTS = "noughts/ultimate_eval_weights.hpp"


def amalgamate(
    main: Path, include_dir: Path, defines: dict[str, str] | None = None, sources: tuple[Path, ...] = ()
) -> str:
    seen: set[str] = set()
    out: list[str] = [f"#define {k} {v}" for k, v in (defines or {}).items()]

    def inline(path: Path) -> None:
        for line in path.read_text().splitlines():
            m = _LOCAL.match(line)
            if m:
                name = m.group(1)
                if name not in seen:
                    seen.add(name)
                    if name == WEIGHTS:
                        out.extend(packed_weights((include_dir / name).read_text()).splitlines())
                    else:
                        inline(include_dir / name)
            elif not _PRAGMA_ONCE.match(line):
                out.append(line)

    inline(main)
    for source in sources:
        inline(source)
    kept = [_without_comment(line.strip()) for line in out]
    return "\n".join(line for line in kept if line) + "\n"


def _without_comment(line: str) -> str:
    """The line without a trailing // comment (one outside any string or character literal)."""
    quote = ""
    i = 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif line.startswith("//", i):
            return line[:i].rstrip()
        i += 1
    return line


def _floats(text: str, name: str) -> list[float]:
    body = re.search(r"\b" + name + r"\b[^=]*=\s*(\{.*?\});", text, re.S)
    if body is None:
        raise ValueError(f"{WEIGHTS} has no {name}")
    return [float(v) for v in re.findall(r"-?[\d.]+(?:e[-+]?\d+)?(?=f)", body.group(1))]


def packed_weights(text: str) -> str:
    """The weights header as C++ that unpacks the same arrays (to 16-bit precision) at start-up."""
    features = int(re.search(r"kFeatures = (\d+);", text).group(1))  # type: ignore[union-attr]
    hidden = int(re.search(r"kHidden = (\d+);", text).group(1))  # type: ignore[union-attr]
    arrays = [_floats(text, "kInput"), _floats(text, "kHiddenBias"), _floats(text, "kOutput")]
    if [len(a) for a in arrays] != [features * hidden, hidden, hidden]:
        raise ValueError(f"{WEIGHTS}: the arrays do not have the sizes it declares")
    bias = re.search(r"kOutputBias = (-?[\d.]+(?:e[-+]?\d+)?)f;", text)
    if bias is None:
        raise ValueError(f"{WEIGHTS} has no kOutputBias")
    scales = [max(map(abs, a)) / 32767 or 1.0 for a in arrays]
    data = b"".join(struct.pack(f"<{len(a)}h", *(round(v / s) for v in a)) for a, s in zip(arrays, scales))
    return f"""namespace noughts::ultimate_eval_weights {{
inline constexpr int kFeatures = {features};
inline constexpr int kHidden = {hidden};
alignas(64) inline float kInput[kFeatures][kHidden];
alignas(64) inline float kHiddenBias[kHidden];
alignas(64) inline float kOutput[kHidden];
inline constexpr float kOutputBias = {bias.group(1)}f;
inline const char kPacked[] = "{base64.b64encode(data).decode()}";
inline int unpack() {{
  auto digit = [](char c) -> unsigned {{
    return c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 : c >= '0' && c <= '9' ? c - '0' + 52 : c == '+' ? 62 : 63;
  }};
  static unsigned char bytes[sizeof kPacked];
  unsigned n = 0, bits = 0, count = 0;
  for (const char* p = kPacked; *p && *p != '='; ++p) {{
    bits = bits << 6 | digit(*p);
    if ((count += 6) >= 8) bytes[n++] = static_cast<unsigned char>(bits >> (count -= 8));
  }}
  unsigned at = 0;
  auto read = [&](float* to, int size, float scale) {{
    for (int i = 0; i < size; ++i, at += 2) to[i] = static_cast<short>(bytes[at] | bytes[at + 1] << 8) * scale;
  }};
  read(&kInput[0][0], kFeatures * kHidden, {scales[0]!r}f);
  read(kHiddenBias, kHidden, {scales[1]!r}f);
  read(kOutput, kHidden, {scales[2]!r}f);
  return 0;
}}
inline const int kUnpacked = unpack();
}}  // namespace noughts::ultimate_eval_weights
"""


def bot_sources(root: Path) -> tuple[Path, tuple[Path, ...]]:
    """The bot's main file and the sources that follow it, in a source tree."""
    return root / "cpp/codingame/bot.cpp", (root / "cpp/src/ultimate_eval.cpp",)


if __name__ == "__main__":
    root, target = (Path(a) for a in sys.argv[1:3])
    main_file, sources = bot_sources(root)
    target.write_text(amalgamate(main_file, root / "cpp/include", {"NOUGHTS_NO_CLONES": "1"}, sources))
