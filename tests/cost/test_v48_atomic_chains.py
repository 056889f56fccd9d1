"""Model version 48: on few addresses, atomics wait one after another per address; lanes that share
a sector are one L2 operation, so a tile added along a small array's elements (every row of a
norm's backward adding into the same weights) waits a sector's chain, not a lane's."""
import os

import pytest

import tilescope
from tilescope.costmodel import atomics, schedule
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_cost.py"))
ROWS, WIDTH = 8192, 1024


def _cost(along: bool, dtype="f32"):
    spec = f"{dtype}[{ROWS},{WIDTH}], {dtype}[{WIDTH}], i32[{WIDTH}], 256, {along}"
    return tilescope.cost(KERNELS.row_grads_into_weights, spec, (ROWS,), "h200", aligned=False)   # a dynamic build


def test_lanes_along_a_small_array_wait_a_sectors_chain():
    along, scattered = _cost(True), _cost(False)
    a = next(x for x in along.counts.accesses if x.kind == "atomic")
    assert atomics.lanes_along_rows(a) and not atomics.lanes_along_rows(
        next(x for x in scattered.counts.accesses if x.kind == "atomic"))
    # the same adds on the same 1,024 addresses; along the rows a sector's lanes go together
    share = atomics.relaxed_share(a, atomics.lanes_along_rows(a))
    assert share < 0.5
    assert along.prediction.terms["atomics"] == pytest.approx(share * scattered.prediction.terms["atomics"], rel=0.05)
    # set X's layer-norm backward (two such adds a row, 8,192 rows of 1,024) ran 187 us on the
    # H200, where a lane's chain said 1,534; one array's add here is about half of that kernel's
    assert 40 < along.prediction.terms["atomics"] < 200


def test_more_bytes_a_lane_fewer_lanes_a_sector():
    f32 = next(x for x in _cost(True).counts.accesses if x.kind == "atomic")
    f16 = next(x for x in _cost(True, "f16").counts.accesses if x.kind == "atomic")
    assert atomics.lanes_a_sector(f16) == 2 * atomics.lanes_a_sector(f32)


def test_a_launchs_short_rows_are_scattered_lanes():
    def share(c):
        r = tilescope.cost(KERNELS.cells_scatter_add, f"f32[1048576,{c}], i32[262144], f32[262144,{c}], 32, {c}",
                           (262144 // 32,), "h200")
        a = next(x for x in r.counts.accesses if x.kind == "atomic")
        return atomics.relaxed_share(a, atomics.lanes_along_rows(a))
    # rows of 4 floats (16 bytes, a thread's vector): each lane on its own row, as scattered lanes
    # (set X's particle-to-grid scatter ran as fast launched as dynamic); rows of 64 take 2.25x
    assert share(4) == 1.0 and share(64) == pytest.approx(0.444)


def test_advanced_indexing_is_never_an_accelerator_copy():
    # a kernel with atomics has its tile loads copied by the accelerator (version 45), but not a
    # tile with a data-given axis: set X's particle scatter as launched had no TMA in its cubin
    spec = "f32[65536,64], i32[65536], f32[65536,64], 32, 64"
    r = tilescope.cost(KERNELS.indexed_rows_scatter_add, spec, (65536 // 32,), "h200")
    facts = r.prediction.estimate
    indexed = next(a for a in r.counts.accesses if a.op.name == "load_advanced")
    assert facts.tma_loads == 1                 # the index tile's load only
    assert not schedule.tma_copied(indexed, facts) and schedule.tma_copied(
        next(a for a in r.counts.accesses if a.op.name == "load_tile"), facts)
