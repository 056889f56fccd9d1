"""Model version 95 (docs/cost-model.md history 163): a store of a tile with fewer elements than the
block's threads is issued by every warp, its lanes spread over them, so each warp reaches the rows its
share of the lanes does. The slim-store microbenchmarks' (8, 8) bfloat16 tiles, 128 threads, took as
long as (16, 8) tiles of the same arrays, twice what a line count of two warps gave (set BG's causal
mask, 0.41x); a (64, 1) column still costs a line an element (set AO's layout, 1.30x either way)."""
import os

import pytest

import tilescope
from tilescope.costmodel import row_lines
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_spread.py"))


def _store(tr, tc, n=1024):
    counts = tilescope.cost(KERNELS.mask_tile, f"bf16[{n},{n}], {tr}, {tc}", (n // tr, n // tc, 1), "h100").counts
    return next(a for a in counts.accesses if a.kind == "store")


def test_a_tile_smaller_than_the_block_is_stored_by_every_warp():
    small, full = _store(8, 8), _store(16, 8)
    assert small.elements < 128 <= full.elements
    assert row_lines.row_lines(small, 1.0, False, 128) == pytest.approx(2 * row_lines.row_lines(small, 1.0, False))
    # the same array's lines either way, as the two took the same time
    assert row_lines.row_lines(small, 1.0, False, 128) == pytest.approx(row_lines.row_lines(full, 1.0, False, 128))
    assert row_lines.row_lines(full, 1.0, False, 128) == row_lines.row_lines(full, 1.0, False)


def test_a_column_still_costs_a_line_an_element():
    column = _store(64, 1)
    assert row_lines.row_lines(column, 1.0, False, 128) == pytest.approx(row_lines.row_lines(column, 1.0, False))
