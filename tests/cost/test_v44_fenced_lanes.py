"""Version 44: a dynamic build's one-row tile atomics share sectors, and an acquire-release atomic
waits a fenced round trip for each of a thread's lanes, one after another (docs/cost-model.md
history 74, bench/results/cost_micro74_lanes_h200.json)."""
import cuda.tile as ct
import pytest

import tilescope
from tilescope.costmodel.atomics import RELAXED_SHARE, lanes_a_sector, lanes_along_rows, relaxed_share
from tilescope.costmodel.locks import FENCED_ATOMIC_ALONE_US, FENCED_ATOMIC_US


def _rows(idx, R):
    return ct.reshape(ct.load(idx, index=(ct.bid(0),), shape=(R,)), (R, 1))


@ct.kernel
def add_rows(grad, idx, table, R: ct.Constant[int], W: ct.Constant[int]):
    cols = ct.reshape(ct.arange(W, dtype=ct.int32), (1, W))
    g = ct.load(grad, index=(ct.bid(0), 0), shape=(R, W))
    ct.atomic_add(table, (_rows(idx, R), cols), g, memory_order=ct.MemoryOrder.RELAXED)


@ct.kernel
def add_rows_fenced(grad, idx, table, R: ct.Constant[int], W: ct.Constant[int]):
    cols = ct.reshape(ct.arange(W, dtype=ct.int32), (1, W))
    ct.atomic_add(table, (_rows(idx, R), cols), ct.load(grad, index=(ct.bid(0), 0), shape=(R, W)))


SOURCES = 1 << 14


def _report(kernel, r, w, dtype="f32", table_rows=512):
    spec = f"{dtype}[{SOURCES}, {w}], i32[{SOURCES}], {dtype}[{table_rows}, {w}], {r}, {w}"
    return tilescope.cost(kernel, spec, (SOURCES // r,), "h200", aligned=False)


def _atomic(report):
    return next(a for a in report.counts.accesses if a.kind == "atomic")


@pytest.mark.parametrize("r, w, dtype, lanes", [
    (1, 1024, "f32", 8),      # 32 lanes side by side: 128 bytes, 4 sectors
    (1, 1024, "bf16", 16),
    (4, 256, "f32", 8),       # 8 lanes a row: one sector each
    (8, 256, "f32", 4),       # 4 lanes a row: half a sector
    (64, 256, "f32", 1),      # one lane a row (the scatter-adds of version 34)
])
def test_lanes_share_a_sector_as_a_dynamic_build_lays_them_down_rows(r, w, dtype, lanes):
    a = _atomic(_report(add_rows, r, w, dtype))
    assert lanes_along_rows(a) == "runtime"
    assert lanes_a_sector(a) == lanes
    assert relaxed_share(a, "runtime") == pytest.approx(RELAXED_SHARE["runtime"] / lanes)


def test_a_one_row_scatter_add_runs_at_its_sectors_rate():
    # measured (dynamic build): 2^24 float32 lanes in rows of 1,024 into 512 rows, 32.6 µs
    relaxed = _report(add_rows, 1, 1024).to_json()["terms_us"]["atomics"]
    assert 22 < relaxed < 42
    # the same lanes in tiles of 64 rows, one lane a row, as version 36 charged both: 8 times as long
    one_a_row = _report(add_rows, 64, 1024).to_json()["terms_us"]["atomics"]
    assert one_a_row / relaxed == pytest.approx(8, rel=0.02)


def test_fenced_lanes_wait_their_round_trips_in_turn_over_the_waves():
    relaxed = _report(add_rows, 1, 1024)
    fenced = _report(add_rows_fenced, 1, 1024)
    p = fenced.prediction
    threads = fenced.to_json()["estimated_schedule"]["threads"]
    rounds = -(-p.blocks // (p.blocks_per_sm * 132))
    alone = FENCED_ATOMIC_ALONE_US if p.blocks_per_sm == 1 else 0.0
    extra = rounds * -(-1024 // threads) * (FENCED_ATOMIC_US + alone)
    gap = fenced.to_json()["terms_us"]["atomics"] - relaxed.to_json()["terms_us"]["atomics"]
    assert gap == pytest.approx(extra, rel=0.01)
    # measured (dynamic build): 70.5 µs fenced against 32.6 relaxed
    assert 45 < fenced.predicted_us < 100


@ct.kernel
def count_then_read(grad, idx, table, old, R: ct.Constant[int], W: ct.Constant[int]):
    """The old values are read (stored): the order may matter, so no advice to relax it."""
    cols = ct.reshape(ct.arange(W, dtype=ct.int32), (1, W))
    before = ct.atomic_add(table, (_rows(idx, R), cols), ct.load(grad, index=(ct.bid(0), 0), shape=(R, W)))
    ct.store(old, index=(ct.bid(0), 0), tile=before)


def _fence_advice(report):
    return [a["message"] for a in report.to_json()["advice"] if a["code"] == "fenced-atomic"]


def test_advice_names_the_fences_of_an_atomic_whose_old_values_nothing_reads():
    fenced = _report(add_rows_fenced, 1, 1024)
    [message] = _fence_advice(fenced)
    assert "atomic_add on 'table'" in message and "memory_order=ct.MemoryOrder.RELAXED" in message
    share = fenced.to_json()["terms_us"]["atomics"] - _report(add_rows, 1, 1024).to_json()["terms_us"]["atomics"]
    assert f"about {share:.3g} µs" in message
    assert not _fence_advice(_report(add_rows, 1, 1024))             # relaxed already
    spec = f"f32[{SOURCES}, 1024], i32[{SOURCES}], f32[512, 1024], f32[{SOURCES}, 1024], 1, 1024"
    read = tilescope.cost(count_then_read, spec, (SOURCES,), "h200", aligned=False)
    assert not _fence_advice(read)
