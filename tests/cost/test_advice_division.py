"""The `division` advice (docs/cost-model.md history 109): a float tile divided element by element by
one broadcast value gets it at the division's line; the reciprocal taken once, approximate rounding
and small tiles do not. On an H100 the divided 16,384-element row softmax ran 2.1-2.5 times as long
as the other two (bench/results/cost_run_m109_h100.json)."""
import os

import tilescope
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE = os.path.join(ROOT, "bench", "cost_kernels_divide.py")
KERNELS = load_file(SOURCE)
# the line of row_softmax_divided's division
DIVIDED_LINE = next(i for i, text in enumerate(open(SOURCE).read().splitlines(), 1) if "tile=ct.astype(e / s," in text)


def _divisions(kernel, tile):
    r = tilescope.cost(kernel, f"f16[8192,{tile}], f16[8192,{tile}], {tile}", (8192,), "h200", cubin=False)
    return [a for a in r.advice if a.code == "division"]


def test_a_tile_divided_by_its_row_sum_is_told_of_the_reciprocal():
    (advice,) = _divisions(KERNELS.row_softmax_divided, 16384)
    assert advice.line == DIVIDED_LINE and "16,384 elements" in advice.message and "reciprocal" in advice.message


def test_the_reciprocal_approximate_rounding_and_small_tiles_are_not():
    assert not _divisions(KERNELS.row_softmax_reciprocal, 16384)
    assert not _divisions(KERNELS.row_softmax_approx, 16384)
    assert not _divisions(KERNELS.row_softmax_divided, 512)
