"""The coordinate-range proof that blocks write disjoint elements (lane_ranges.py): kernels it
must prove, kernels it must not, and launches it lets run in parallel bit for bit as the executor."""
import numpy as np
import pytest

import tilescope
import tilescope.lang as ct
from tilescope.backends.compiled import engine, lane_ranges, toolchain
from tilescope.backends.numpy.launcher import run_kernel


@ct.kernel
def flat(x, y, n: int, B: ct.Constant[int]):
    offs = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    ct.scatter(y, offs, ct.gather(x, offs, mask=offs < n) + 1.0, mask=offs < n)


@ct.kernel
def mirrored(x, y, n: int, B: ct.Constant[int]):
    offs = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    ct.scatter(y, n - 1 - offs, ct.gather(x, offs))


@ct.kernel
def halves(x, y, n: int, B: ct.Constant[int]):
    offs = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    ct.scatter(y, offs // 2, ct.gather(x, offs))                # two lanes per element, one block


@ct.kernel
def overlapping(x, y, n: int, B: ct.Constant[int]):
    offs = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    ct.scatter(y, offs - ct.bid(0) * (B // 2), ct.gather(x, offs))


@ct.kernel
def grid_2d(x, y, n: int, B: ct.Constant[int]):
    offs = (ct.bid(1) * ct.num_blocks(0) + ct.bid(0)) * B + ct.arange(B, dtype=ct.int32)
    ct.scatter(y, offs, ct.gather(x, offs) * 3.0)


@ct.kernel
def ignores_axis_1(x, y, n: int, B: ct.Constant[int]):
    offs = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    ct.scatter(y, offs, ct.gather(x, offs) + ct.astype(ct.bid(1), ct.float32))


@ct.kernel
def tile_pairs(x, y, n: int, B: ct.Constant[int]):
    t = ct.load(x, index=(2 * ct.bid(0),), shape=(B,))
    ct.store(y, index=(2 * ct.bid(0) + 1,), tile=t)
    ct.store(y, index=(2 * ct.bid(0),), tile=t + 1.0)


@ct.kernel
def tile_mod(x, y, n: int, B: ct.Constant[int]):
    ct.store(y, index=(ct.bid(0) % 3,), tile=ct.load(x, index=(ct.bid(0),), shape=(B,)))


@ct.kernel
def counted_loop(x, y, n: int, B: ct.Constant[int]):
    for i in range(4):
        offs = (ct.bid(0) * 4 + i) * B + ct.arange(B, dtype=ct.int32)
        ct.scatter(y, offs, ct.gather(x, offs) - 1.0)


@ct.kernel
def persistent(x, y, n: int, B: ct.Constant[int]):
    for t in range(ct.bid(0), n // B, ct.num_blocks(0)):
        offs = t * B + ct.arange(B, dtype=ct.int32)
        ct.scatter(y, offs, ct.gather(x, offs))


@ct.kernel
def wraps(x, y, n: int, B: ct.Constant[int]):
    offs = ct.bid(0) * 1073741824 + ct.arange(B, dtype=ct.int32)    # 2**30: int32 wraps from block 2
    ct.scatter(y, offs, ct.gather(x, offs))


@ct.kernel
def sized_by_output(x, y, n: int, B: ct.Constant[int]):
    offs = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    ct.scatter(y, y.shape[0] - 1 - offs, ct.gather(x, offs))       # the written array's shape read


@ct.kernel
def in_place(x, y, n: int, B: ct.Constant[int]):
    offs = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    ct.scatter(x, offs, ct.gather(x, n - 1 - offs))


N, B = 1024, 64
CASES = [  # kernel, grid, proven
    (flat, (16, 1, 1), True), (mirrored, (16, 1, 1), True), (halves, (16, 1, 1), True),
    (overlapping, (16, 1, 1), False), (grid_2d, (4, 4, 1), True), (ignores_axis_1, (16, 2, 1), False),
    (ignores_axis_1, (16, 1, 1), True), (tile_pairs, (8, 1, 1), True), (tile_mod, (16, 1, 1), False),
    (counted_loop, (4, 1, 1), True), (persistent, (4, 1, 1), False), (wraps, (4, 1, 1), False),
    (in_place, (16, 1, 1), False), (sized_by_output, (16, 1, 1), True),
]


def _args():
    x = np.random.default_rng(3).standard_normal(N).astype(np.float32)
    return x, np.zeros(N, np.float32), N, B


@pytest.mark.parametrize("kernel,grid,proven", CASES, ids=[f"{k.__name__}-{g[1]}" for k, g, _ in CASES])
def test_the_proof_holds_exactly_where_blocks_are_apart(kernel, grid, proven):
    fn = tilescope.compile(kernel, f"f32[{N}], f32[{N}], i32, {B}").final
    x, y, n, b = _args()
    assert lane_ranges.independent(fn, grid, [x, y, n]) is proven


@pytest.mark.skipif(not toolchain.available(), reason="no C compiler")
@pytest.mark.parametrize("kernel,grid,proven", CASES, ids=[f"{k.__name__}-{g[1]}" for k, g, _ in CASES])
def test_launches_equal_the_executor(kernel, grid, proven):
    outs = []
    for eng in ("auto", "numpy"):
        args = _args()
        chk = run_kernel(grid, kernel, args, engine=eng, threads=2)
        if eng == "auto":
            info = engine.last_launch()
        outs.append((args[0].tobytes(), args[1].tobytes(), sorted(chk.reports)))
    assert outs[0] == outs[1]
    if proven:
        assert info.get("threads") == 2 and not outs[0][2]


def test_interleaved_channels_are_left_to_tracking():
    # block c writes element c*16 + s of every image: disjoint, but not by ranges
    @ct.kernel
    def one_channel(x, y, C: int, B: ct.Constant[int]):
        rows = ct.arange(B, dtype=ct.int32)
        image = rows // 16
        offs = image * (C * 16) + ct.bid(0) * 16 + (rows - image * 16)
        ct.scatter(y, offs, ct.gather(x, offs))
    fn = tilescope.compile(one_channel, "f32[1024], f32[1024], i32, 128").final
    assert not lane_ranges.independent(fn, (8, 1, 1), [np.zeros(1024, np.float32), np.zeros(1024, np.float32), 8])
