"""Model version 59: tiles stored element by element leave their lines partly written until the
last element lands; when the blocks resident across the GPU hold more of them than a quarter of
L2, the write-line rate falls (docs/cost-model.md history 92)."""
import os

import pytest

import tilescope
from tilescope.costmodel import row_lines
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = load_file(os.path.join(ROOT, "bench", "cost_kernels.py"))
H200 = gpu_named("h200")


def test_the_share_is_whole_up_to_the_knee_and_falls_past_it():
    knee = row_lines.PARTIAL_LINES_KNEE * H200.l2_mb * 1e6
    assert row_lines.partial_lines_share(0, H200) == 1.0
    assert row_lines.partial_lines_share(knee, H200) == 1.0
    shares = [row_lines.partial_lines_share(mb * 1e6, H200) for mb in (20, 40, 80)]
    assert shares == sorted(shares, reverse=True) and shares[0] < 1.0
    # H's 128x128 float32 transpose holds 78 MB of partly written lines: two thirds of the rate
    assert row_lines.partial_lines_share(78e6, H200) == pytest.approx(0.67, abs=0.02)
    # a GPU with a larger L2 keeps more before the rate falls
    assert row_lines.partial_lines_share(30e6, gpu_named("b200")) == 1.0 > row_lines.partial_lines_share(30e6, H200)


def _memory_us(tile, knee=None, monkeypatch=None):
    if knee is not None:
        monkeypatch.setattr(row_lines, "PARTIAL_LINES_KNEE", knee)
    r = tilescope.cost(KERNELS.copy_2d, f"f32[8192,8192], f32[8192,8192], {tile}, {tile}",
                       (8192 // tile, 8192 // tile), "h200", aligned=False)
    return r.prediction.terms["memory"]


def test_large_tiles_stored_element_by_element_write_more_slowly(monkeypatch):
    # dynamically shaped: the copy walks its rows element by element; a 128x128 float32 tile holds
    # 64 KB of partly written lines a block
    with_rule = _memory_us(128)
    without = _memory_us(128, knee=1e9, monkeypatch=monkeypatch)
    assert with_rule > 1.15 * without


def test_small_tiles_keep_the_write_rate(monkeypatch):
    # 16x16 tiles: 1 KB a block, far below the knee, whatever the blocks resident
    assert _memory_us(16) == pytest.approx(_memory_us(16, knee=1e9, monkeypatch=monkeypatch))
