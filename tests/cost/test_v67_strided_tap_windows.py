"""Model version 67: the taps of a pooling window gathered lanes a few elements apart (`lane_stride`)
read the array's sectors once, as tile-row and metadata-placed gathers do (version 24): the windows
the resident blocks read together stay in L2 between taps. Before, each tap paid its own sectors:
set AA's 3x3 max pooling of stride 2 was charged 1.9 GB of DRAM for a 419 MB input (3.3x and 3.5x,
docs/cost-model.md history 105)."""
import os

import pytest

import tilescope
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_lanes.py"))
N = 1 << 24


def _gather(taps, values=None):
    spec = f"f16[{N}], f16[{N // 2}], i32, {taps}, 512"
    r = tilescope.cost(KERNELS.strided_taps, spec, (N // 2 // 512,), "h200", values=values)
    return next(a for a in r.counts.accesses if a.kind == "gather"), r


def test_strided_taps_read_the_array_once():
    g, r = _gather(3, {"stride": 2})
    assert g.lane_stride == 2
    assert g.dram_bytes == pytest.approx(N * 2)              # the float16 array, once
    # the taps' requests (three a lane, two bytes each) stay as they were
    assert g.bytes * g.executions == pytest.approx(3 * N // 2 * 2)
    assert r.prediction.bytes["l2_absorbed"] == pytest.approx(3 * N - N * 2)

