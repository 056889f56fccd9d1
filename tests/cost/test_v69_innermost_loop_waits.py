"""Model version 69: where the IR's innermost loop with `mma` sits inside another loop and the
cubin's longest loop makes the LDGs of one of its iterations, that cubin loop is the iteration's
body and its scoreboard waits are the iteration's, as version 64 has it for a kernel of one loop
(docs/cost-model.md history 108: set AD's launched 3x3x3 convolution by banded mma, a gather of
32 two-byte elements a thread a step, each waited alone: 0.34x)."""
import dataclasses

import pytest

from tilescope.costmodel.schedule import element_ldgs, load_round_trip_us, mma_loop_load_wait_us

from .test_v27_load_waits import FACTS, _matmul_counts


def test_the_innermost_mma_loop_waits_the_longest_loop_s_round_trips():
    _, loop = _matmul_counts()
    loads = [a for a in loop.accesses if a.kind == "load"]
    facts = dataclasses.replace(FACTS, mma_loop_load_waits=24.0, loop_loads=round(element_ldgs(loads, FACTS)),
                                loop_load_waits=80.0)
    trip = load_round_trip_us(loads)
    assert mma_loop_load_wait_us(loop, facts, loads, innermost=True) == pytest.approx(80 * trip)
    # an outer mma loop (not the innermost) keeps the mma loop's own waits
    assert mma_loop_load_wait_us(loop, facts, loads) == pytest.approx(24 * trip)
    # and so does the innermost one where the longest loop makes other loads
    other = dataclasses.replace(facts, loop_loads=round(element_ldgs(loads, FACTS) / 3))
    assert mma_loop_load_wait_us(loop, other, loads, innermost=True) == pytest.approx(24 * trip)
