"""Model version 81: where each lane of a warp walks a row of its own element by element, a line's
first LDG goes out and the thread's next ones find it in L1, so each wait that goes out brings a
line, not an element (set AL's column product-sum of 32 blocks: 3,264 waits a thread in 466 µs, and
the loads in flight had charged each an element's round trip, 3.80x); and a one-column tile is walked
a line a lane even where the arrays are aligned (set AK's one-column sums as launched, 0.35x with no
lines charged; docs/cost-model.md history 134)."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import model, row_lines, schedule
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = load_file(os.path.join(ROOT, "tests", "cost", "kernels_row_walks.py"))
H100 = gpu_named("h100")
# set AL's column product-sum as built for dynamic shapes: four-byte LDGs, 51 waits a pass of 64 LDGs
WALKED = CubinFacts("column_product_sum", threads=128, registers=237, shared_bytes=1280, local_bytes=0,
                    instructions=2128, global_loads=64, global_stores=32, local_loads=0, local_stores=0,
                    tma_loads=0, tma_stores=0, global_access_bytes=4.0, loads_in_flight=64 / 51,
                    global_load_bytes=4.0, local_load_waits=0, reload_bytes=0, loop_instructions=934,
                    loop_loads=64, loop_load_waits=51.0)
# set AK's one-column sum as launched: 16 four-byte LDGs a thread, one wait each, no accelerator copy
COLUMN = CubinFacts("one_column_sum", threads=128, registers=16, shared_bytes=1040, local_bytes=0,
                    instructions=400, global_loads=16, global_stores=1, local_loads=0, local_stores=0,
                    tma_loads=0, tma_stores=0, global_access_bytes=4.0, loads_in_flight=1.0,
                    global_load_bytes=4.0, local_load_waits=0, reload_bytes=0, loop_instructions=0)


def _product_sum(rows=128, cols=32, aligned=False):
    spec = f"f32[8192, 1024], f32[8192, 1024], f32[1024], 8192, {rows}, {cols}"
    return tilescope.cost(KERNELS.column_product_sum, spec, (1024 // cols, 1, 1), "h100", aligned=aligned).counts


def _loads(counts):
    return [a for a in counts.accesses if a.kind == "load"]


@pytest.mark.parametrize("rows, cols, share", [
    (128, 32, 1 / 32),      # a lane's 32 four-byte elements: one line
    (128, 8, 1 / 8),        # rows of 32 bytes: a line a row, eight LDGs in it
    (128, 64, 1 / 32),      # two lines a row, 32 LDGs each
    (16, 32, 1.0),          # fewer rows than a warp's lanes: lanes share rows, each LDG its own line
])
def test_a_lane_walking_its_row_misses_once_a_line(rows, cols, share):
    for load in _loads(_product_sum(rows, cols)):
        assert row_lines.walk_miss_share(load, WALKED, 1, H100, aligned=False) == pytest.approx(share)


def test_no_walk_where_the_build_lays_lanes_along_rows_or_loads_vectors():
    load = _loads(_product_sum())[0]
    assert row_lines.walk_miss_share(load, WALKED, 1, H100, aligned=True) == 1.0
    vectors = dataclasses.replace(WALKED, global_load_bytes=16.0)
    assert row_lines.walk_miss_share(load, vectors, 1, H100, aligned=False) == 1.0
    # a walk that outgrows L1 (version 62) finds nothing it brought
    assert row_lines.walk_misses_l1(load, WALKED, 64, H100)
    assert row_lines.walk_miss_share(load, WALKED, 64, H100, aligned=False) == 1.0


def test_each_wait_that_goes_out_brings_a_line():
    counts = _product_sum()
    per_sm = 1
    element = schedule.in_flight_us(counts, WALKED, H100, per_sm)
    walked = schedule.in_flight_us(counts, WALKED, H100, per_sm,
                                   lambda a: row_lines.walk_miss_share(a, WALKED, per_sm, H100, aligned=False))
    assert walked == pytest.approx(element / 32)
    p = model.predict(counts, H100, facts=WALKED)
    # the loads in flight no longer set the time: the lanes' lines do (measured 466 µs; 1,772 before)
    assert p.predicted_us < 0.3 * element
    assert p.predicted_us == pytest.approx(p.terms["memory"], rel=0.05)


def test_a_one_column_tile_is_walked_a_line_a_lane_even_when_aligned():
    counts = tilescope.cost(KERNELS.one_column_sum, "f32[2048, 768], f32[768], 2048", (768, 1, 1), "h100").counts
    load = _loads(counts)[0]
    launched = model.predict(counts, H100, tma=True, facts=COLUMN)
    lined = [(load, row_lines.row_lines(load, 1.0, False))]
    assert lined[0][1] == load.executions * load.elements / 32 * 32      # a line for each lane's element
    assert launched.terms["memory"] >= row_lines.row_lines_us(lined, H100, 768, COLUMN, 6)
    # a tile of whole rows (the product-sum's) keeps the aligned build's layout: no lines charged
    wide = _loads(_product_sum(aligned=True))[0]
    assert not row_lines.column_walked(wide, WALKED, "from the cubin", 1.0)
    assert row_lines.column_walked(load, COLUMN, "from the cubin", 1.0)
    assert not row_lines.column_walked(load, COLUMN, "estimated from the IR", 1.0)
