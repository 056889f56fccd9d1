"""Model version 43: a gather whose index comes from `bid`, `ct.arange` and constants alone (here
split by `//` and `%`, as pooling and flattened N-d kernels do) is evaluated for one block, and
each lane is charged the sectors the block's lanes touch, not a 32-byte sector of its own; the
taps of such gathers overlap, so together they read the array from DRAM at most once."""
import os

import numpy as np

import tilescope
from tilescope.costmodel import lane_offsets
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_lanes.py"))
POOL = "f32[4096, 1024], f32[1048576], 32, 16, 256"      # 4,096 planes of 32 x 32 -> 16 x 16
BIG = "f32[65536, 1024], f32[16777216], 32, 16, 256"     # 268 MB: more than the L2 keeps


def _gathers(r):
    return [a for a in r.counts.accesses if a.kind == "gather"]


def test_a_pooling_tap_brings_the_sectors_its_lanes_share():
    r = tilescope.cost(KERNELS.pool_taps, BIG, (65536,), "h200")
    taps = _gathers(r)
    assert len(taps) == 4
    # a block's 256 lanes: one plane, 16 rows of 16 taps two floats apart -> 16 rows x 124 B
    # spans (four sectors each) = 64 sectors of 32 B for 256 lanes
    for a in taps:
        assert a.sector_share == 64 * 32 / 256
    # the four taps overlap: together they read the input once (not 4 x 16M lanes x 8 B)
    assert sum(a.dram_bytes for a in taps) == 65536 * 1024 * 4


def test_the_evaluation_matches_the_lanes_a_numpy_model_of_the_kernel_reads():
    r = tilescope.cost(KERNELS.pool_taps, POOL, (4096,), "h200")
    block = 4096 // 2
    lane = block * 256 + np.arange(256)
    ow, oh, plane = lane % 16, (lane // 16) % 16, lane // 256
    for a, (dh, dw) in zip(_gathers(r), ((0, 0), (0, 1), (1, 0), (1, 1))):
        flat = plane * 1024 + (2 * oh + dh) * 32 + 2 * ow + dw
        assert a.sector_share == np.unique(flat * 4 // 32).size * 32 / 256


def test_lanes_the_data_places_keep_a_sector_each():
    r = tilescope.cost(KERNELS.gather_by_table, "f32[1048576], i32[65536], f32[65536], 256", (256,), "h200")
    (a,) = _gathers(r)
    assert a.sector_share == 0.0
    assert a.dram_bytes == 65536 * 32


def test_lanes_past_the_array_are_not_counted():
    r = tilescope.cost(KERNELS.pool_taps, POOL, (4096,), "h200")
    tap = _gathers(r)[0].op
    # the same lanes against an array of 4 planes: the middle block's plane lies past it, and the
    # bounds check drops its lanes
    assert lane_offsets.sector_share(r.counts.scalars, tap.operands[1:3], (4, 1024), 4) == 0.0
    assert lane_offsets.sector_share(r.counts.scalars, tap.operands[1:3], (4096, 1024), 4) == 8.0
