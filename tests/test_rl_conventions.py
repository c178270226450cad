"""What RL code expects of the adapters: OpenSpiel games registered on import, versioned PettingZoo modules,
rgb_array pictures, and the PNG reader behind them."""

import random
import struct
import subprocess
import sys
import zlib

import noughts
import numpy as np
import pytest
from noughts._raster import png_to_rgb


def test_importing_the_openspiel_adapter_registers_the_games():
    pytest.importorskip("pyspiel")
    # A fresh interpreter: nothing but the import before load_game.
    code = (
        "import pyspiel, noughts.openspiel\n"
        "for name in ('noughts_classic', 'noughts_ultimate', 'noughts_quantum'):\n"
        "    state = pyspiel.load_game(name).new_initial_state()\n"
        "    state.apply_action(state.legal_actions()[0])\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


@pytest.mark.parametrize(
    "name, game", [("classic_v0", "classic"), ("ultimate_v0", "ultimate"), ("quantum_v0", "quantum")]
)
def test_versioned_pettingzoo_modules(name, game):
    pytest.importorskip("pettingzoo")
    import importlib

    module = importlib.import_module(f"noughts.pettingzoo.{name}")
    from noughts import pettingzoo

    assert getattr(pettingzoo, name) is module
    env = module.env()
    env.reset(seed=1)
    assert env.metadata["name"] == f"noughts_{game}_v0"
    assert type(env.unwrapped.game).__name__.lower() == game
    raw = module.raw_env()
    assert type(raw).__name__ == "raw_env"


def test_versioned_classic_takes_options():
    pytest.importorskip("pettingzoo")
    from noughts.pettingzoo import classic_v0

    env = classic_v0.env(rows=4, cols=4, k=3, gravity=True)
    env.reset()
    assert env.unwrapped.game.options() == noughts.Classic(4, 4, 3, gravity=True).options()


@pytest.mark.parametrize("game", ["classic", "ultimate", "quantum"])
def test_rgb_array_render_is_the_svg_picture(game):
    pytest.importorskip("pettingzoo")
    pytest.importorskip("resvg_py")
    from noughts.pettingzoo import env

    e = env(game, render_mode="rgb_array")
    e.reset(seed=0)
    before = e.render()
    assert isinstance(before, np.ndarray) and before.dtype == np.uint8 and before.ndim == 3 and before.shape[2] == 3
    assert (before[0, 0] == 255).all()  # the white background
    agent = e.agent_selection
    e.step(int(np.flatnonzero(e.observe(agent)["action_mask"])[0]))
    after = e.render()
    assert after.shape == before.shape and (after != before).any()  # the mark shows


def _png(pixels, filters):
    """An RGBA PNG of `pixels` (height, width, 4), row y filtered with filters[y] (0-4): an independent encoder."""
    height, width, _ = pixels.shape
    rows, prev = [], np.zeros(width * 4, np.int64)
    for y in range(height):
        line = pixels[y].reshape(-1).astype(np.int64)
        left = np.concatenate([np.zeros(4, np.int64), line[:-4]])
        upleft = np.concatenate([np.zeros(4, np.int64), prev[:-4]])
        kind = filters[y]
        if kind == 0:
            f = line
        elif kind == 1:
            f = line - left
        elif kind == 2:
            f = line - prev
        elif kind == 3:
            f = line - (left + prev) // 2
        else:
            p = left + prev - upleft
            pa, pb, pc = abs(p - left), abs(p - prev), abs(p - upleft)
            f = line - np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, prev, upleft))
        rows.append(bytes([kind]) + bytes((f % 256).astype(np.uint8)))
        prev = line

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows)))
        + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize("seed", range(5))
def test_png_reader_undoes_every_filter(seed):
    rng = np.random.default_rng(seed)
    height, width = 7, 5
    pixels = rng.integers(0, 256, (height, width, 4), dtype=np.uint8)
    filters = [random.Random(seed).randrange(5) for _ in range(height)]
    filters[:5] = [0, 1, 2, 3, 4][seed:] + [0, 1, 2, 3, 4][:seed]  # every filter in every run
    assert (png_to_rgb(_png(pixels, filters)) == pixels[:, :, :3]).all()


def test_png_reader_refuses_what_it_cannot_read():
    with pytest.raises(ValueError, match="not a PNG"):
        png_to_rgb(b"GIF89a")
