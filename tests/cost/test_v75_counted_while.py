"""Model version 75: a `while` loop that steps a value it carries by a constant to a bound the
grid's scalars know (`while start < n: ...; start += TILE`, a row walked in blocks) is counted as
its steps, not as one pass (docs/cost-model.md history 117: set AF's unpermute backward walks the
hidden size so, 16 passes a routed expert)."""
import os

import pytest

import tilescope
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_while.py"))
ROWS, COLS, TILE = 4096, 4096, 256
SPEC = f"f32[{ROWS},{COLS}], f32[{ROWS},{COLS}], i32, {TILE}"


def _loop(report):
    (loop,) = [r for r in report.counts.regions if r.op is not None]
    return loop


@pytest.mark.parametrize("kernel", ["row_blocks_while", "row_blocks_down"])
@pytest.mark.parametrize("width", [COLS, COLS - 100])
def test_a_walk_to_a_launch_value_is_counted_as_its_steps(kernel, width):
    r = tilescope.cost(getattr(KERNELS, kernel), SPEC, (ROWS,), "h200", values={"n": width})
    steps = -(-width // TILE) if kernel == "row_blocks_while" else width // TILE
    assert _loop(r).trips.tolist() == [steps] * ROWS
    assert any(f"counted as its {steps} steps" in a for a in r.counts.assumptions)
    assert not any("both branches counted" in a for a in r.counts.assumptions)     # (the loop's own test)
    # every element of the rows is read once: the bytes are the array's, not one block's worth a row
    (read,) = [a for a in r.counts.accesses if a.kind == "gather"]
    assert read.bytes * read.executions == ROWS * steps * TILE * 4


def test_the_steps_scale_the_time():
    short = tilescope.cost(KERNELS.row_blocks_while, SPEC, (ROWS,), "h200", values={"n": COLS // 4})
    full = tilescope.cost(KERNELS.row_blocks_while, SPEC, (ROWS,), "h200", values={"n": COLS})
    assert full.predicted_us > 2.5 * short.predicted_us


def test_a_bound_unknown_or_a_step_not_constant_keeps_one_pass():
    unknown = tilescope.cost(KERNELS.row_blocks_while, SPEC, (ROWS,), "h200")
    assert _loop(unknown).trips.tolist() == [1] * ROWS
    assert any("while loop: counted as 1 iteration" in a for a in unknown.counts.assumptions)
    doubling = tilescope.cost(KERNELS.doubling_while, SPEC, (ROWS,), "h200", values={"n": COLS})
    assert _loop(doubling).trips.tolist() == [1] * ROWS
