"""Transposing copies (backends/numpy/copying.py) and tiles read transposed kept in grid form
(grid.tiles_as_grid): the same bytes as a plain NumPy assignment and as one block at a time."""
import numpy as np
import pytest

import cuda.tile as ct
from tilescope.backends.numpy import copying, grid
from tilescope.backends.numpy.forwarding import streams_only
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.compiler import compile as compile_kernel
from tilescope.meta import MetaTensor
from tests.backends.test_fusion import three_ways


def _plain(dst, src):
    want = dst.copy()
    want[...] = src
    return want


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.uint16])
def test_transposing_copies_match_a_plain_assignment(dtype):
    rng = np.random.default_rng(1)
    x = rng.integers(-100, 100, (256, 320)).astype(dtype)
    cases = [
        (np.zeros((320, 256), dtype), x.T),                                   # 2-d
        (np.zeros((320, 300), dtype)[:, 20:276], x.T),                        # into a strided window
        (np.zeros((5, 64, 4, 64), dtype), x[:, :320].reshape(4, 64, 5, 64).transpose(2, 3, 0, 1)),   # tiles
        (np.zeros((320, 256), dtype), x.T[:, :1]),                            # a broadcast column
    ]
    for dst, src in cases:
        want = _plain(dst, src)
        copying.copy_into(dst, src)
        assert np.array_equal(dst.view(np.uint8), want.view(np.uint8))


def test_which_copies_go_by_pieces():
    x = np.zeros((512, 512), np.float32)
    p, width, outer = copying._plan(np.zeros((512, 512), np.float32), x.T)
    assert (p, width, outer) == (1, 16, [])             # pieces one cache line wide along dst's rows
    assert copying._plan(np.zeros((512, 512), np.float32), x) is None           # same order: plain
    assert copying._plan(x, x.T) is None                # overlapping: NumPy's own copy handles it
    assert copying._plan(np.zeros((8, 8), np.float32), x[:8, :8].T) is None    # small: plain
    # 64x64 tiles each transposed from a contiguous buffer: pieces would be tiny, plain is better
    tiles = np.zeros((64, 64, 64), np.float32)
    assert copying._plan(np.zeros((64, 64, 64), np.float32), tiles.transpose(0, 2, 1)) is None


def test_an_in_place_transpose_is_unchanged():
    x = np.arange(256 * 256, dtype=np.float32).reshape(256, 256)
    want = x.T.copy()
    copying.copy_into(x, x.T)
    assert np.array_equal(x, want)


@ct.kernel
def transpose(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    i, j = ct.bid(0), ct.bid(1)
    ct.store(y, index=(j, i), tile=ct.transpose(ct.load(x, index=(i, j), shape=(TM, TN))))


@ct.kernel
def transpose_scaled(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    i, j = ct.bid(0), ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN))
    ct.store(y, index=(j, i), tile=ct.transpose(t) * 2.0)       # arithmetic needs block order


@ct.kernel
def transpose_and_clear(x, y, TM: ct.Constant[int]):
    i, j = ct.bid(0), ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TM))
    ct.store(x, index=(i, j), tile=ct.zeros((TM, TM), dtype=x.dtype))
    ct.store(y, index=(j, i), tile=ct.transpose(t))


def test_a_transpose_streams_but_arithmetic_on_transposed_tiles_does_not():
    f32 = MetaTensor((256, 256), "float32")
    assert streams_only(compile_kernel(transpose, [f32, f32, 32, 32]).final)
    assert not streams_only(compile_kernel(transpose_scaled, [f32, f32, 32, 32]).final)


@pytest.mark.parametrize("kernel,scale", [(transpose, 1), (transpose_scaled, 2)])
def test_transposing_kernels(tmp_path, kernel, scale):
    x = np.random.default_rng(2).standard_normal((192, 256)).astype(np.float32)
    y = three_ways(tmp_path, (192 // 16, 256 // 32), kernel, lambda: (x, np.zeros((256, 192), np.float32), 16, 32))[1]
    assert np.array_equal(y, x.T * np.float32(scale))


def test_tiles_of_an_array_the_kernel_writes_are_read_before_it_changes(tmp_path):
    # the kernel clears each tile after reading it: a grid-form view of x would still be read
    # by the store of y after the clearing, so such arrays are read in block order (a copy)
    x = np.arange(128 * 128, dtype=np.float32).reshape(128, 128)
    xc, y = three_ways(tmp_path, (4, 4), transpose_and_clear, lambda: (x.copy(), np.zeros_like(x), 32))[:2]
    assert np.array_equal(y, x.T) and not xc.any()


@pytest.mark.numpy_executor
def test_tiles_read_transposed_stay_views(monkeypatch):
    seen = []
    real = grid.tiles_as_grid
    monkeypatch.setattr(grid, "tiles_as_grid", lambda *a: seen.append(real(*a)) or seen[-1])
    x = np.random.default_rng(3).standard_normal((128, 128)).astype(np.float32)
    y = np.zeros_like(x)
    run_kernel((4, 4), transpose, (x, y, 32, 32), group=16)
    assert np.array_equal(y, x.T)
    assert len(seen) == 1 and isinstance(seen[0], grid.Factored) and np.shares_memory(seen[0].data, x)
