"""A joined mma loop's operand tiles read as one tile per chunk of iterations (chunk_loads.py):
which loads qualify, that the chunk path runs, and that values and reports are unchanged."""
import numpy as np
import pytest

import cuda.tile as ct
from tilescope.backends.numpy import chunk_loads
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.compiler import compile as compile_kernel
from tilescope.meta import MetaTensor
from tests.backends import kernels_matmul as K
from tests.backends.test_fusion import three_ways, within_f32


@ct.kernel
def shifted_index(a, b, c, n, TK: ct.Constant[int]):
    acc = ct.zeros((16, 16), dtype=ct.float32)
    for k in range(n):
        acc = ct.mma(ct.load(a, index=(0, k + 1), shape=(16, TK)), ct.load(b, index=(k, 0), shape=(TK, 16)), acc)
    ct.store(c, index=(0, 0), tile=acc)


@ct.kernel
def transposed_load(a, b, c, n, TK: ct.Constant[int]):
    acc = ct.zeros((16, 16), dtype=ct.float32)
    for k in range(n):
        x = ct.load(a, index=(k, 0), shape=(16, TK), order=(1, 0))
        acc = ct.mma(x, ct.load(b, index=(k, 0), shape=(TK, 16)), acc)
    ct.store(c, index=(0, 0), tile=acc)


@ct.kernel
def past_the_end(a, b, c, TK: ct.Constant[int]):
    """Reads two K tiles beyond the arrays: undefined behaviour on the GPU, reported."""
    acc = ct.zeros((16, 16), dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(16, TK)) + 2):
        acc = ct.mma(ct.load(a, index=(0, k), shape=(16, TK)), ct.load(b, index=(k, 0), shape=(TK, 16)), acc)
    ct.store(c, index=(0, 0), tile=acc)


def _chunkable(kernel, args):
    fn = compile_kernel(kernel, args).final
    return sorted((c.mma, c.k_axis, c.op.results[0].type.shape) for loads in chunk_loads.chunkable_loads(fn).values()
                  for c in loads.values())


@pytest.mark.numpy_executor
def test_which_loads_are_read_per_chunk():
    f16, f32 = MetaTensor((64, 256), "float16"), MetaTensor((64, 16), "float32")
    assert _chunkable(K.tiled_matmul, [f16, MetaTensor((256, 64), "float16"), f32, 16, 16, 16, 4]) == \
        [(0, 0, (16, 16)), (0, 1, (16, 16))]                     # A along its columns, B along its rows
    b = MetaTensor((256, 16), "float16")
    assert _chunkable(shifted_index, [f16, b, f32, 4, 16]) == [(0, 0, (16, 16))]      # only b: a's index is k + 1
    assert _chunkable(transposed_load, [MetaTensor((256, 64), "float16"), b, f32, 4, 16]) == [(0, 0, (16, 16))]


@pytest.fixture
def chunks(monkeypatch):
    """The shapes of the tiles read whole, per call."""
    seen = []
    real = chunk_loads.load_chunk
    monkeypatch.setattr(chunk_loads, "load_chunk", lambda ex, load, tile: seen.append(tile[2]) or real(ex, load, tile))
    return seen


@pytest.mark.parametrize("dt", [np.float16, np.float32], ids=str)
def test_whole_chunks_are_read_once(tmp_path, chunks, dt):
    """K = 1,184 in tiles of 32: chunks of 16 iterations, 2 whole, the last (5 tiles) per iteration."""
    rng = np.random.default_rng(1)
    a, b = rng.uniform(-1, 1, (128, 1184)).astype(dt), rng.uniform(-1, 1, (1184, 96)).astype(dt)
    c = three_ways(tmp_path, (4, 3), K.tiled_matmul, lambda: (a, b, np.zeros((128, 96), np.float32), 32, 32, 32, 37))[2]
    within_f32(c, a, b, 1184)
    assert set(chunks) == {(32, 512), (512, 32)}
    assert len(chunks) % 4 == 0 and chunks                 # A and B tiles of the 2 whole chunks, per run


@pytest.mark.numpy_executor
@pytest.mark.parametrize("dt", [np.float16, np.float32], ids=str)
def test_a_chunk_past_the_edge_is_read_whole(tmp_path, chunks, dt, monkeypatch):
    """K = 1,000 and M = 120 in tiles of 32: the second chunk (tiles 16 to 31) and the last row
    of blocks reach past the arrays; read whole all the same, padded with zeros."""
    rng = np.random.default_rng(4)
    a, b = rng.uniform(-1, 1, (120, 1000)).astype(dt), rng.uniform(-1, 1, (1000, 96)).astype(dt)
    c = three_ways(tmp_path, (4, 3), K.tiled_matmul, lambda: (a, b, np.zeros((120, 96), np.float32), 32, 32, 32, 32))[2]
    within_f32(c, a, b, 1000)
    assert set(chunks) == {(32, 512), (512, 32)} and len(chunks) % 4 == 0
    monkeypatch.setattr(chunk_loads, "plan", lambda *args: None)
    c2 = np.zeros((120, 96), np.float32)
    run_kernel((4, 3), K.tiled_matmul, (a, b, c2, 32, 32, 32, 32))
    assert np.array_equal(c2, c)                             # the same as tile by tile


@pytest.mark.numpy_executor
def test_reports_of_a_loop_past_the_end_are_unchanged(chunks, monkeypatch):
    rng = np.random.default_rng(2)
    a, b = rng.uniform(-1, 1, (16, 512)).astype(np.float32), rng.uniform(-1, 1, (512, 16)).astype(np.float32)
    got = run_kernel((1,), past_the_end, (a, b, np.zeros((16, 16), np.float32), 32))
    assert chunks == [(16, 512), (512, 16)]                # the first chunk lies inside, read whole
    monkeypatch.setattr(chunk_loads, "plan", lambda *args: None)
    c2 = np.zeros((16, 16), np.float32)
    want = run_kernel((1,), past_the_end, (a, b, c2, 32))
    assert got.reports == want.reports and any("entirely out of bounds" in r for r in got.reports)


def test_a_loop_shorter_than_a_chunk_is_read_whole(tmp_path, chunks):
    rng = np.random.default_rng(3)
    a, b = rng.uniform(-1, 1, (64, 96)).astype(np.float16), rng.uniform(-1, 1, (96, 32)).astype(np.float16)
    c = three_ways(tmp_path, (2, 2), K.tiled_matmul, lambda: (a, b, np.zeros((64, 32), np.float32), 32, 16, 32, 3))[2]
    within_f32(c, a, b, 96)
    assert set(chunks) == {(32, 96), (96, 16)}
