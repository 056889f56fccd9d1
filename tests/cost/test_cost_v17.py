"""Model version 17: a scalar atomic (one lane's) on an address other blocks share is resolved in
the L2 at the rate the same-address microbenchmark measured (not the scattered tile lanes' rate),
and an atomic in acquire-release order waits its fence and its value on the block's path."""
import json
import os

import pytest

import tilescope
from tilescope.costmodel import locks, model
from tilescope.costmodel.calibration import H200
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _kernels():
    return load_file(os.path.join(ROOT, "tests", "cost", "kernels_atomics.py"))


def test_atomic_constants_come_from_the_stored_microbenchmark():
    with open(os.path.join(ROOT, "bench", "results", "cost_micro17_h200.json")) as f:
        cases = json.load(f)["cases"]
    same, fenced = locks.derive_atomic_constants(cases)
    assert same == pytest.approx(locks.SAME_ADDRESS_NS, rel=2e-3)
    assert fenced == pytest.approx(locks.FENCED_ATOMIC_US, rel=2e-3)


def test_scalar_atomics_on_one_address_run_at_the_same_address_rate():
    blocks = 32768
    r = tilescope.cost(_kernels().sum_into_one, f"f32[{blocks * 4096}], f32[1], 4096", (blocks,))
    p = r.prediction
    assert p.terms["atomics"] == pytest.approx(blocks * locks.SAME_ADDRESS_NS * 1e-3, rel=0.02)
    # far below one atomic per address at the scattered lanes' rate, which version 16 charged
    assert p.terms["atomics"] < blocks * H200.atomic_ns * 1e-3 / 10
    assert p.bound != "atomics"


def test_scalar_atomics_spread_over_addresses_by_the_blocks_index():
    blocks, groups = 4096, 8
    r = tilescope.cost(_kernels().sum_into_groups, f"f32[{blocks * 1024}], f32[{groups}], 1024, {groups}",
                       (blocks,))
    a = [x for x in r.counts.accesses if x.kind == "atomic"][0]
    busiest = blocks // groups
    assert locks.scalar_atomics_us(a, r.counts) == pytest.approx(busiest * locks.SAME_ADDRESS_NS * 1e-3)


def test_a_fenced_atomic_waits_a_round_trip_a_block_and_a_relaxed_one_does_not():
    spec, grid = "f32[4194304], f32[1], 4096", (1024,)
    fenced = tilescope.cost(_kernels().sum_into_one, spec, grid)
    relaxed = tilescope.cost(_kernels().sum_into_one_relaxed, spec, grid)
    top = [reg for reg in fenced.counts.regions if reg.op is None][0]
    assert locks.fenced_atomics_us(top) == pytest.approx(locks.FENCED_ATOMIC_US)
    top = [reg for reg in relaxed.counts.regions if reg.op is None][0]
    assert locks.fenced_atomics_us(top) == 0.0
    gap = fenced.prediction.block_us - relaxed.prediction.block_us
    # a block alone on its SM (this estimate: one) waits longer (version 35)
    alone = locks.FENCED_ATOMIC_ALONE_US if fenced.prediction.blocks_per_sm == 1 else 0.0
    assert gap == pytest.approx(locks.FENCED_ATOMIC_US + alone, rel=0.01)


def _efficiency(kernel, spec, grid):
    r = tilescope.cost(kernel, spec, grid, aligned=False)          # element by element, no accelerator
    return [model._stream_efficiency(a, False, H200) for a in r.counts.accesses]


def test_the_few_rows_exponent_comes_from_the_stored_copies():
    with open(os.path.join(ROOT, "bench", "results", "cost_micro17b_h200.json")) as f:
        cases = json.load(f)["cases"]
    assert model.few_rows_exponent(cases) == pytest.approx(model.FEW_ROWS_EXPONENT, rel=2e-3)


def test_a_2d_tile_of_fewer_rows_than_a_warp_streams_faster_than_the_multi_row_law():
    e0 = H200.row_efficiency[0][1]
    k = _kernels()
    assert _efficiency(k.copy_tiles, "f32[8192, 8192], f32[8192, 8192], 64, 64", (128, 128)) == [e0, e0]
    sixteen = e0 * 2 ** model.FEW_ROWS_EXPONENT
    assert _efficiency(k.copy_tiles, "f32[8192, 8192], f32[8192, 8192], 16, 16", (512, 512)) == \
        pytest.approx([sixteen, sixteen])
    assert _efficiency(k.copy_tiles, "f32[8192, 8192], f32[8192, 8192], 8, 64", (1024, 128)) == [1.0, 1.0]


def test_the_few_rows_gain_stays_within_what_was_measured():
    k = _kernels()
    # rows longer than the law's shortest (8 x 256 float32: 1 KiB rows) keep the multi-row law
    long_rows = _efficiency(k.copy_tiles, "f32[8192, 8192], f32[8192, 8192], 8, 256", (1024, 32))
    assert all(e < 0.5 for e in long_rows)
    # tiles of more than two axes longer than 1 keep it too; axes of 1 lay out nothing (version 29)
    e0 = H200.row_efficiency[0][1]
    assert _efficiency(k.copy_tiles_3d, "f32[64, 1024, 128], f32[64, 1024, 128], 2, 8, 64", (32, 128)) == [e0, e0]
    assert _efficiency(k.copy_tiles_3d, "f32[64, 1024, 128], f32[64, 1024, 128], 1, 8, 64", (64, 128)) == \
        _efficiency(k.copy_tiles, "f32[8192, 8192], f32[8192, 8192], 8, 64", (1024, 128))
