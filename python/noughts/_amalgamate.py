"""One C++ source file from a main file and the engine's headers (no imports: CMake runs it as a script).

Each ``#include "noughts/..."`` is replaced by the header's text, once per
header (they all say ``#pragma once``); standard headers stay as includes.
Source files given after the main file follow it, their includes resolved the
same way. The networks' weights header becomes a packed copy (12-bit numbers, seven of them
in six characters of a UTF-16 string, unpacked when the program starts): as decimal text it
would not fit CodinGame's limit on a source file, which counts characters, not bytes. Lines
that hold only a comment, and indentation, are left out for the same reason.
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


_STEPS = 2047  # a weight is a multiple of its array's scale, -2047 .. 2047 of them: 12 bits
_NUMBER_BITS = 12
# Each character of the packed string carries 14 bits: 0x4E00 plus the bits, all CJK unified
# ideographs (16,384 code points from U+4E00, every one assigned and in the Basic Multilingual
# Plane: one UTF-16 unit, one character by CodinGame's count, never a quote or a backslash).
_CHAR_BITS = 14
_CHAR_BASE = 0x4E00


def packed_numbers(steps: list[int]) -> str:
    """Weights' multiples of their scale (-2047 .. 2047), offset by 2048, as a bit stream of
    12 bits a number, written 14 bits a character (the last character padded with zeros)."""
    out: list[str] = []
    buffer, bits = 0, 0
    for step in steps:
        if not -_STEPS <= step <= _STEPS:
            raise ValueError(f"a packed weight must be -{_STEPS} .. {_STEPS} steps, not {step}")
        buffer, bits = buffer << _NUMBER_BITS | (step + 2048), bits + _NUMBER_BITS
        while bits >= _CHAR_BITS:
            bits -= _CHAR_BITS
            out.append(chr(_CHAR_BASE + (buffer >> bits & ((1 << _CHAR_BITS) - 1))))
        buffer &= (1 << bits) - 1
    if bits:
        out.append(chr(_CHAR_BASE + (buffer << (_CHAR_BITS - bits))))
    return "".join(out)


def unpacked_numbers(text: str, count: int) -> list[int]:
    """The first `count` numbers of packed_numbers' string (what the bot's C++ reads)."""
    out: list[int] = []
    buffer, bits = 0, 0
    for c in text:
        buffer, bits = buffer << _CHAR_BITS | (ord(c) - _CHAR_BASE), bits + _CHAR_BITS
        while bits >= _NUMBER_BITS and len(out) < count:
            bits -= _NUMBER_BITS
            out.append((buffer >> bits & ((1 << _NUMBER_BITS) - 1)) - 2048)
        buffer &= (1 << bits) - 1
    return out


def packed_weights(text: str) -> str:
    """The weights header as C++ that unpacks the same arrays (to 12-bit precision) at start-up.

    Rule set r's numbers are the string kPacked<r>; a program that plays one rule set may
    empty the other's (export.py does), and that network's weights then stay zero."""
    rule_sets, features, hidden = _int(text, "kRuleSets"), _int(text, "kFeatures"), _int(text, "kHidden")
    bias = _floats(text, "kOutputBias")
    strings, reads = [], []
    for r, arrays in enumerate(network_arrays(text)):
        scales = [max(map(abs, a)) / _STEPS or 1.0 for a in arrays]
        data = packed_numbers([round(v / s) for a, s in zip(arrays, scales) for v in a])
        strings.append(f'inline const char16_t kPacked{r}[] = u"{data}";')
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
  auto read = [](const char16_t* p, float* const* to, const float* scales) {{
    const int sizes[] = {{kFeatures * kHidden, kHidden, kHidden}};
    unsigned buffer = 0;
    int bits = 0;
    for (int a = 0; a < 3; ++a)
      for (int i = 0; i < sizes[a]; ++i) {{
        while (bits < {_NUMBER_BITS}) buffer = buffer << {_CHAR_BITS} | unsigned(*p++ - {_CHAR_BASE:#x}), bits += {_CHAR_BITS};  // only the low bits are read
        bits -= {_NUMBER_BITS};
        to[a][i] = static_cast<float>(int(buffer >> bits & 0xfff) - 2048) * scales[a];
      }}
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
