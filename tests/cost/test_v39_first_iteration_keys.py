"""Model version 39: which tiles the blocks of a wave read in common is told by the tile index at
each loop's first iteration, with the values a loop carries (a counter beside the loop variable, a
persistent grid's tile in a while loop) at their initial values; where that index is not known (it
comes from the data), no block is taken to share another's tiles. Blocks of a wave that start on
the same tile read from DRAM the longest walk among them, once."""
import os

import numpy as np

import tilescope
from tilescope.costmodel.counts import tile_keys
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_keys.py"))
TILE_BYTES = 64 * 64 * 2


def _access(kernel, spec, grid, array="x"):
    r = tilescope.cost(kernel, spec, grid, "h200")
    return r, next(a for a in r.counts.accesses if a.array == array and a.kind == "load")


def test_a_counter_carried_beside_the_loop_variable_tells_the_splits_apart():
    r, x = _access(KERNELS.split_rows_counter, "f16[8192, 64], f32[512, 512], 16, 64", (8, 8))
    keys = tile_keys(r.counts.scalars, x)
    splits = np.arange(64) // 8                       # block ids run along the heads first
    assert keys is not None and np.array_equal(keys[:, 0], splits * 16)
    # each split's 16 tiles come from DRAM once, shared by its 8 heads (all 64 blocks in one wave)
    assert x.dram_bytes == 8 * 16 * TILE_BYTES
    assert x.bytes * x.executions == 8 * x.dram_bytes


def test_a_persistent_grid_s_blocks_start_on_their_own_tiles():
    r, x = _access(KERNELS.grid_stride_rows, "f16[65536, 64], f16[65536, 64], 1024, 64", (132,))
    keys = tile_keys(r.counts.scalars, x)
    assert keys is not None and np.array_equal(keys[:, 0], np.arange(132))
    assert x.dram_bytes == 1024 * TILE_BYTES           # every tile read once: nothing shared


def test_tiles_the_data_picks_are_not_taken_as_shared():
    r, x = _access(KERNELS.grid_stride_rows_by_table,
                   "f16[65536, 64], i32[1024], f16[65536, 64], 1024, 64", (132,))
    assert tile_keys(r.counts.scalars, x) is None
    # each block's reads count in full, at most the array once (it fits L2)
    assert x.dram_bytes == 65536 * 64 * 2


def test_blocks_walking_the_same_tiles_read_the_longest_walk_once():
    r, x = _access(KERNELS.causal_rows, "f16[1024, 64], f32[1024, 64], 64", (16,))
    trips = np.broadcast_to(x.region.trips, (16,))
    assert list(trips) == list(range(1, 17))
    # one wave, every block from tile 0: the last block's 16 tiles, once (not the first block's one)
    assert x.dram_bytes == 16 * TILE_BYTES
