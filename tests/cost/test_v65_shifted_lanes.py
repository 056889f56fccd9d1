"""Model version 65: an index built with `<<` and `>>` of runtime scalars the launch gives (a
bitonic pass's partners, `((i >> s) << (s + 1)) + (i & (j - 1))`) is evaluated like any other
index of `bid`, `ct.arange` and known scalars (version 43), so its lanes are charged the sectors
they share; before, shifts were unknown and every lane paid a 32-byte sector of its own
(docs/cost-model.md history 102: set AA's bitonic pass, 8.8x and 12.2x)."""
import os

import numpy as np

import tilescope
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_lanes.py"))
M = 1 << 24
SPEC = f"f16[{M}], i32, i32, 2048"
GRID = (M // 2 // 2048,)


def _accesses(j_log):
    r = tilescope.cost(KERNELS.pair_exchange, SPEC, GRID, "h200", values={"j": 1 << j_log, "j_log": j_log})
    return [a for a in r.counts.accesses if a.kind in ("gather", "scatter")]


def test_the_last_stages_partners_are_two_contiguous_runs():
    accesses = _accesses(23)
    assert len(accesses) == 4
    for a in accesses:
        assert a.sector_share == 2.0            # a float16 lane's own two bytes
    reads = [a for a in accesses if a.kind == "gather"]
    assert sum(a.dram_bytes for a in reads) == M * 2          # the array, read once


def test_the_first_stages_partners_are_every_other_element():
    # j = 1: lane i reads elements 2i and 2i + 1; a block's 2,048 lanes of either span 8 KB
    for a in _accesses(0):
        block = 2048 * (GRID[0] // 2)
        low = 2 * (block + np.arange(2048))
        assert a.sector_share == np.unique(low * 2 // 32).size * 32 / 2048 == 4.0
