"""Model version 98 (docs/cost-model.md history 171).

DRAM reads a 64-byte pair of sectors for each row of a tile load whose rows hold a sector or less and
lie a pair or more apart; the pair's other half is of use only where the block that loads the
neighbouring column tile comes while L2 still holds it (set AR's batch-norm epilogue as launched:
(1024, 16) bfloat16 tiles of 192-byte rows, the six column tiles of a row 1,568 blocks apart, 0.41x
at the bytes its tiles hold)."""
import os

import pytest

import tilescope
from tilescope.costmodel import sector_rows
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = load_file(os.path.join(ROOT, "bench", "cost_kernels_thin.py"))
H100 = gpu_named("h100")
ROWS, COLS = 1568 * 1024, 96              # set AR's epilogue: 308 MB of bfloat16, 192-byte rows


def _load(kernel, tile=(1024, 16), rows=ROWS, cols=COLS):
    grid = (rows // tile[0], cols // tile[1])
    if kernel is KERNELS.thin_copy_columns_first:
        grid = grid[::-1]
    spec = f"bf16[{rows}, {cols}], bf16[{rows}, {cols}], {tile[0]}, {tile[1]}"
    report = tilescope.cost(kernel, spec, grid, "h100", cubin=False)
    (load,) = [a for a in report.counts.accesses if a.kind == "load"]
    return report, load


def test_rows_whose_neighbours_come_late_bring_their_whole_pair():
    report, load = _load(KERNELS.thin_copy)
    assert sector_rows.neighbour_distance(report.counts, load) == 1568
    assert sector_rows.sector_rows_factor(report.counts, load, H100.l2_mb * 1e6) == 2.0
    assert load.dram_bytes == pytest.approx(2 * load.bytes * load.executions, rel=0.01)


def test_neighbouring_blocks_share_their_pairs():
    report, load = _load(KERNELS.thin_copy_columns_first)
    assert sector_rows.neighbour_distance(report.counts, load) == 1
    assert sector_rows.sector_rows_factor(report.counts, load, H100.l2_mb * 1e6) == 1.0
    assert load.dram_bytes == pytest.approx(load.bytes * load.executions, rel=0.01)


@pytest.mark.parametrize("tile, cols", [((1024, 32), 96), ((1024, 16), 16), ((1024, 1), 96)])
def test_rows_of_a_pair_or_back_to_back_or_one_element_keep_their_bytes(tile, cols):
    # 64-byte rows fill their pair; a tile of whole rows lies back to back; a one-column tile's
    # elements are charged by their own laws
    report, load = _load(KERNELS.thin_copy, tile=tile, cols=cols)
    assert sector_rows.sector_rows_factor(report.counts, load, H100.l2_mb * 1e6) == 1.0


def test_the_late_neighbours_take_longer():
    late, _ = _load(KERNELS.thin_copy)
    near, _ = _load(KERNELS.thin_copy_columns_first)
    assert late.prediction.terms["memory"] > 1.3 * near.prediction.terms["memory"]
