"""Model version 77: lanes a constant stride apart (one element every S) move through DRAM in
64-byte pairs of sectors when read, and a write that leaves gaps in its array (no other write of
the kernel fills them) has the span between lanes, up to a line, read in before its sectors go
back (docs/cost-model.md history 120: the strided microbenchmarks of history 119, read 0.59x and
written 0.24x at S = 32 under version 76)."""
import os

import pytest

import tilescope
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = load_file(os.path.join(ROOT, "bench", "cost_kernels_strided.py"))
LANES, TILE = 1 << 22, 256


def _dram(kernel, s, out_elements=None):
    n = LANES * s
    if kernel == "strided_write":
        spec = f"i32[{LANES}], i32[{n}], {s}, {TILE}"
    elif kernel == "strided_read":
        spec = f"i32[{n}], i32[{LANES}], {s}, {TILE}"
    else:
        spec = f"i32[{n}], i32[{n}], {s}, {TILE}"
    r = tilescope.cost(getattr(KERNELS, kernel), spec, (LANES // TILE,), "h100")
    kinds = {a.kind: a.dram_bytes for a in r.counts.accesses}
    return r, kinds


@pytest.mark.parametrize("s, per_lane", [(2, 8), (8, 32), (17, 64), (32, 64)])
def test_a_strided_gather_reads_pairs_of_sectors(s, per_lane):
    _, dram = _dram("strided_read", s)
    assert dram["gather"] == pytest.approx(LANES * per_lane)


@pytest.mark.parametrize("s, per_lane", [(2, 8 + 8), (8, 32 + 32), (17, 32 + 68), (32, 32 + 128)])
def test_a_write_that_leaves_gaps_reads_its_lines_in(s, per_lane):
    _, dram = _dram("strided_write", s)
    assert dram["scatter"] == pytest.approx(LANES * per_lane)


def test_writes_that_fill_each_other_s_gaps_read_nothing_in():
    interleave = load_file(os.path.join(os.path.dirname(__file__), "kernels_interleave.py"))
    n = 1 << 25                          # (an output past L2: 128 MB)
    r = tilescope.cost(interleave.interleave_halves, f"f16[{n}], f16[{n}], f16[{2 * n}], 1024", (n // 1024,), "h100")
    scatters = [a for a in r.counts.accesses if a.kind == "scatter"]
    # each lane's share of the sectors it writes back (4 bytes), nothing read in (a line's 4 more)
    assert len(scatters) == 2 and all(a.dram_bytes == pytest.approx(n * 4) for a in scatters)


def test_the_time_follows_the_bytes():
    wide, _ = _dram("strided_write", 32)
    close, _ = _dram("strided_write", 8)
    assert wide.predicted_us > 2 * close.predicted_us
