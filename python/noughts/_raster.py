"""Pictures as pixels: an SVG document rendered by resvg-py and its PNG read into numpy (for rgb_array renders)."""

from __future__ import annotations

import struct
import zlib
from typing import Any

import numpy as np

__all__ = ["png_to_rgb", "svg_to_rgb"]


def svg_to_rgb(document: str) -> Any:
    """The document as an (height, width, 3) uint8 array on a white background; ImportError without resvg-py."""
    try:
        import resvg_py
    except ImportError as e:
        raise ImportError('rendering to pixels needs resvg-py: pip install ".[pettingzoo]" (or resvg-py)') from e
    return png_to_rgb(bytes(resvg_py.svg_to_bytes(svg_string=document, background="#ffffff")))


def png_to_rgb(data: bytes) -> Any:
    """The pixels of an 8-bit RGB or RGBA, non-interlaced PNG (what resvg writes) as (height, width, 3) uint8."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    if header is None:
        raise ValueError("a PNG without a header")
    width, height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        raise ValueError(f"only 8-bit RGB(A) non-interlaced PNGs are read (depth {depth}, colour type {colour})")
    stride = width * channels
    raw = np.frombuffer(zlib.decompress(b"".join(idat)), np.uint8).reshape(height, stride + 1)
    out = np.zeros((height, stride), np.uint8)
    prev = np.zeros(stride, np.int16)
    for y in range(height):
        kind, line = raw[y, 0], raw[y, 1:].astype(np.int16)
        if kind == 0:
            row = line
        elif kind == 2:  # up
            row = (line + prev) & 0xFF
        elif kind == 1:  # sub: a running sum per channel
            row = np.cumsum(line.reshape(width, channels), axis=0, dtype=np.int64).reshape(stride) & 0xFF
        else:  # average or Paeth: each byte needs the one just decoded to its left
            row = _left_dependent(int(kind), line.tolist(), prev.tolist(), channels)
        out[y] = row
        prev = np.asarray(row, np.int16)
    pixels = out.reshape(height, width, channels)
    return np.ascontiguousarray(pixels[:, :, :3])


def _left_dependent(kind: int, line: list[int], up: list[int], bpp: int) -> Any:
    row = [0] * len(line)
    for i, v in enumerate(line):
        a = row[i - bpp] if i >= bpp else 0
        b = up[i]
        if kind == 3:
            row[i] = (v + ((a + b) >> 1)) & 0xFF
        elif kind == 4:
            c = up[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            row[i] = (v + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        else:
            raise ValueError(f"unknown PNG filter {kind}")
    return np.asarray(row, np.int16)
