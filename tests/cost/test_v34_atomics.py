"""Version 34: the atomics term by memory order, lanes along rows and arrays beyond L2
(docs/cost-model.md history 64, bench/results/cost_micro33_atomics_h200.json); the fenced wait as
version 44 charges it (history 74)."""
import cuda.tile as ct
import pytest

import tilescope
from tilescope.costmodel.atomics import L2_KEPT_SHARE, MISS_NS, RELAXED_SHARE, lanes_along_rows
from tilescope.costmodel.locks import FENCED_ATOMIC_US
from tilescope.meta import MetaTensor


@ct.kernel
def scattered(idx, hist, TILE: ct.Constant[int]):
    bins = ct.load(idx, index=(ct.bid(0),), shape=(TILE,))
    ct.atomic_add(hist, bins, ct.ones((TILE,), dtype=ct.float32), memory_order=ct.MemoryOrder.RELAXED)


@ct.kernel
def scattered_fenced(idx, hist, TILE: ct.Constant[int]):
    bins = ct.load(idx, index=(ct.bid(0),), shape=(TILE,))
    ct.atomic_add(hist, bins, ct.ones((TILE,), dtype=ct.float32))


@ct.kernel
def rows_relaxed(grad, idx, table, R: ct.Constant[int], W: ct.Constant[int]):
    rows = ct.reshape(ct.load(idx, index=(ct.bid(0),), shape=(R,)), (R, 1))
    cols = ct.reshape(ct.arange(W, dtype=ct.int32), (1, W))
    g = ct.load(grad, index=(ct.bid(0), 0), shape=(R, W))
    ct.atomic_add(table, (rows, cols), g, memory_order=ct.MemoryOrder.RELAXED)


@ct.kernel
def rows_strided(grad, idx, table, R: ct.Constant[int], W: ct.Constant[int]):
    """Lanes two elements apart: scattered, not along rows."""
    rows = ct.reshape(ct.load(idx, index=(ct.bid(0),), shape=(R,)), (R, 1))
    cols = ct.reshape(ct.arange(W, dtype=ct.int32) * 2, (1, W))
    g = ct.load(grad, index=(ct.bid(0), 0), shape=(R, W))
    ct.atomic_add(table, (rows, cols), g, memory_order=ct.MemoryOrder.RELAXED)


N = 1 << 24


def _atomics(kernel, spec, grid):
    r = tilescope.cost(kernel, spec, grid, "h200", aligned=False)
    return r, r.to_json()["terms_us"]["atomics"]


def _unit_stride(shape, dtype="float32"):
    return MetaTensor(shape, dtype, (shape[1], 1), static_strides=(False, True))


def test_acquire_release_atomics_add_each_lanes_fenced_round_trips():
    spec = f"i32[{N}], f32[{1 << 20}], 1024"
    grid = (N // 1024,)
    r, relaxed = _atomics(scattered, spec, grid)
    _, fenced = _atomics(scattered_fenced, spec, grid)
    p = r.prediction
    rounds = -(-p.blocks // (p.blocks_per_sm * 132))
    turns = -(-1024 // r.to_json()["estimated_schedule"]["threads"])      # a thread's lanes, in turn
    assert fenced - relaxed == pytest.approx(rounds * turns * FENCED_ATOMIC_US, rel=0.01)
    # the microbenchmark, 40 warps an SM (dynamic): 2^24 such atomics in 289 µs fenced
    assert 200 < fenced < 400


def test_an_array_beyond_l2_costs_each_missed_sector():
    _, inside = _atomics(scattered, f"i32[{N}], f32[{1 << 22}], 1024", (N // 1024,))
    _, beyond = _atomics(scattered, f"i32[{N}], f32[{1 << 28}], 1024", (N // 1024,))
    missed = 1 - L2_KEPT_SHARE * 60e6 / (1 << 30)
    assert beyond - inside == pytest.approx(N * missed * MISS_NS * 1e-3, rel=0.01)
    assert 900 < beyond < 1200                      # measured 1,040 µs


def test_lanes_along_rows_with_a_unit_stride_are_added_faster():
    rows, w = 1 << 19, 256
    grad, idx = MetaTensor((rows, w), "float32"), MetaTensor((rows,), "int32")
    table_static = _unit_stride((65536, w))
    r, along = _atomics(rows_relaxed, [grad, idx, table_static, 64, w], (rows // 64,))
    atomic = next(a for a in r.counts.accesses if a.kind == "atomic")
    assert lanes_along_rows(atomic) == "static"
    r2, runtime = _atomics(rows_relaxed, f"f32[{rows}, {w}], i32[{rows}], f32[65536, {w}], 64, {w}", (rows // 64,))
    assert lanes_along_rows(next(a for a in r2.counts.accesses if a.kind == "atomic")) == "runtime"
    assert along / runtime == pytest.approx(RELAXED_SHARE["static"] / RELAXED_SHARE["runtime"], rel=0.01)
    assert 600 < along < 950                        # measured 721 µs


def test_strided_lanes_are_scattered():
    rows, w = 1 << 19, 128
    spec = [MetaTensor((rows, w), "float32"), MetaTensor((rows,), "int32"), _unit_stride((65536, 2 * w)), 64, w]
    r = tilescope.cost(rows_strided, spec, (rows // 64,), "h200", aligned=False)
    assert lanes_along_rows(next(a for a in r.counts.accesses if a.kind == "atomic")) == ""
