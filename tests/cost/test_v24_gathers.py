"""Version 24: gathers the counts used to take for one sector an element or one trip — lanes a few
elements apart, a tile whose memory-contiguous axis is not its last, and a row walked in chunks of
gathered lanes up to a runtime column count."""
import os

import pytest

import tilescope
from tilescope.costmodel.counts import count
from tilescope.costmodel.strided_lanes import scattered_sector_bytes
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _counts(name, spec, grid):
    kernels = load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))
    return count(tilescope.compile(getattr(kernels, name), parse_args(spec)).final, normalize_grid(grid))


def test_lanes_two_elements_apart_bring_the_sectors_of_their_span():
    counts = _counts("interleaved_pairs", "bf16[4096,256], bf16[4096,256], 64", (4096,))
    gathers = [a for a in counts.accesses if a.kind == "gather"]
    assert [a.lane_stride for a in gathers] == [2, 2] and not any(a.contiguous for a in gathers)
    assert scattered_sector_bytes(gathers[0]) == 4              # two bfloat16 elements a lane, not a sector
    r = tilescope.cost(load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py")).interleaved_pairs,
                       "bf16[4096,256], bf16[4096,256], 64", (4096,), "h200")
    read = sum(a.dram_bytes for a in r.counts.accesses if a.kind == "gather")
    assert read == pytest.approx(2 * 4096 * 64 * 4)          # each gather: its lanes' span of the row


def test_a_gather_whose_columns_run_along_the_tiles_first_axis_is_read_as_rows():
    counts = _counts("weight_tile_gather", "f16[8192,2048], i32[8192], f16[8192,128], 128, 128", (64,))
    w = next(a for a in counts.accesses if a.kind == "gather" and a.array == "w")
    assert w.contiguous and w.transposed
    assert w.row_bytes == 128 * 2 and w.rows == 128


def test_a_row_walked_in_gathered_chunks_up_to_a_runtime_count_takes_the_rows_chunks():
    counts = _counts("chunked_row_gathers", "f32[512,10000], f32[512,10000], i32, 1024", (512,))
    loop = next(r for r in counts.regions if r.op is not None)
    assert set(loop.trips) == {10.0}                         # ceil(10,000 / 1,024)
    assert any("10 tiles of 'x'" in n for n in counts.assumptions)
    exact = _counts("chunked_row_gathers", "f32[512,10000], f32[512,10000], 10000, 1024", (512,))
    assert set(next(r for r in exact.regions if r.op is not None).trips) == {10.0}
