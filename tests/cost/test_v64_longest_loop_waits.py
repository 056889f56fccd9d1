"""Model version 64: where the IR has one loop and the cubin's longest loop makes the LDGs of an
iteration of it, that loop is the iteration's body and its scoreboard waits are the iteration's,
whatever other loop of the cubin has mma (docs/cost-model.md history 97: DeltaNet's chunk loop)."""
import dataclasses

import pytest

from tilescope.costmodel.schedule import element_ldgs, load_round_trip_us, mma_loop_load_wait_us

from .test_v27_load_waits import FACTS, _matmul_counts


def _loop_and_loads():
    _, loop = _matmul_counts()
    return loop, [a for a in loop.accesses if a.kind == "load"]


def test_the_longest_loop_making_the_iterations_loads_waits_for_them():
    loop, loads = _loop_and_loads()
    ldgs = element_ldgs(loads, FACTS)
    two = dataclasses.replace(FACTS, mma_loop_load_waits=24.0, loop_loads=round(ldgs), loop_load_waits=80.0)
    trip = load_round_trip_us(loads)
    assert mma_loop_load_wait_us(loop, two, loads, only_loop=True) == pytest.approx(80 * trip)
    # the IR has other loops: which the longest loop runs is not known, the mma loop's waits stand
    assert mma_loop_load_wait_us(loop, two, loads, only_loop=False) == pytest.approx(24 * trip)


def test_a_longest_loop_of_other_loads_leaves_the_mma_loops_waits():
    loop, loads = _loop_and_loads()
    ldgs = element_ldgs(loads, FACTS)
    trip = load_round_trip_us(loads)
    for other in (round(ldgs / 2), round(ldgs / 3)):         # (more might be iterations unrolled)
        facts = dataclasses.replace(FACTS, mma_loop_load_waits=24.0, loop_loads=other, loop_load_waits=80.0)
        assert mma_loop_load_wait_us(loop, facts, loads, only_loop=True) == pytest.approx(24 * trip)
    # the accelerator's copies wait no element loads
    copied = dataclasses.replace(FACTS, mma_loop_load_waits=24.0, loop_loads=round(ldgs), loop_load_waits=80.0,
                                 tma_loads=4)
    assert mma_loop_load_wait_us(loop, copied, loads, only_loop=True) == 0.0
