"""One C++ source file from a main file and the engine's headers (no imports: CMake runs it as a script).

Each ``#include "noughts/..."`` is replaced by the header's text, once per
header (they all say ``#pragma once``); standard headers stay as includes.
Source files given after the main file follow it, their includes resolved the
same way. The networks' weights header becomes a packed copy (12-bit numbers,
two base-64 digits each, unpacked when the program starts): as decimal text it would not
fit CodinGame's limit on a source file. Lines that hold only a comment, and
indentation, are left out for the same reason.
"""

from __future__ import annotations

import re
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
    body = re.search(r"\b" + name + r"\b[^=]*=\s*(\{.*?\});\n", text, re.S)
    if body is None:
        raise ValueError(f"{WEIGHTS} has no {name}")
    return [float(v) for v in re.findall(r"-?[\d.]+(?:e[-+]?\d+)?(?=f)", body.group(1))]


def _int(text: str, name: str) -> int:
    found = re.search(name + r" = (\d+);", text)
    if found is None:
        raise ValueError(f"{WEIGHTS} has no {name}")
    return int(found.group(1))


def network_arrays(text: str) -> list[list[list[float]]]:
    """Each rule set's network from the weights header: [input weights, hidden biases, output weights]."""
    rule_sets, features, hidden = _int(text, "kRuleSets"), _int(text, "kFeatures"), _int(text, "kHidden")
    sizes = [features * hidden, hidden, hidden]
    arrays = [_floats(text, name) for name in ("kInput", "kHiddenBias", "kOutput")]
    if [len(a) for a in arrays] != [rule_sets * size for size in sizes]:
        raise ValueError(f"{WEIGHTS}: the arrays do not have the sizes it declares")
    return [[a[r * size : (r + 1) * size] for a, size in zip(arrays, sizes)] for r in range(rule_sets)]


_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_STEPS = 2047  # a weight is a multiple of its array's scale, -2047 .. 2047 of them: 12 bits


def packed_number(step: int) -> str:
    """One weight's multiple of its scale (-2047 .. 2047) as two base-64 digits, offset by 2048."""
    q = step + 2048
    return _DIGITS[q >> 6] + _DIGITS[q & 63]


def packed_weights(text: str) -> str:
    """The weights header as C++ that unpacks the same arrays (to 12-bit precision) at start-up.

    Rule set r's numbers are the string kPacked<r>; a program that plays one rule set may
    empty the other's (export.py does), and that network's weights then stay zero."""
    rule_sets, features, hidden = _int(text, "kRuleSets"), _int(text, "kFeatures"), _int(text, "kHidden")
    bias = _floats(text, "kOutputBias")
    strings, reads = [], []
    for r, arrays in enumerate(network_arrays(text)):
        scales = [max(map(abs, a)) / _STEPS or 1.0 for a in arrays]
        data = "".join(packed_number(round(v / s)) for a, s in zip(arrays, scales) for v in a)
        strings.append(f'inline const char kPacked{r}[] = "{data}";')
        reads.append(
            f"  if (*kPacked{r}) {{\n    float* const to[] = {{&kInput[{r}][0][0], kHiddenBias[{r}], kOutput[{r}]}};\n"
            f"    const float scales[] = {{{', '.join(f'{s!r}f' for s in scales)}}};\n"
            f"    read(kPacked{r}, to, scales);\n  }}"
        )
    newline = "\n"
    return f"""namespace noughts::ultimate_eval_weights {{
inline constexpr int kRuleSets = {rule_sets};
inline constexpr int kFeatures = {features};
inline constexpr int kHidden = {hidden};
alignas(64) inline float kInput[kRuleSets][kFeatures][kHidden];
alignas(64) inline float kHiddenBias[kRuleSets][kHidden];
alignas(64) inline float kOutput[kRuleSets][kHidden];
inline constexpr float kOutputBias[kRuleSets] = {{{", ".join(f"{b!r}f" for b in bias)}}};
{newline.join(strings)}
inline int unpack() {{
  auto digit = [](char c) -> int {{
    return c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 : c >= '0' && c <= '9' ? c - '0' + 52 : c == '+' ? 62 : 63;
  }};
  auto read = [&](const char* p, float* const* to, const float* scales) {{
    const int sizes[] = {{kFeatures * kHidden, kHidden, kHidden}};
    for (int a = 0; a < 3; ++a)
      for (int i = 0; i < sizes[a]; ++i, p += 2) to[a][i] = static_cast<float>((digit(p[0]) << 6 | digit(p[1])) - 2048) * scales[a];
  }};
{newline.join(reads)}
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
