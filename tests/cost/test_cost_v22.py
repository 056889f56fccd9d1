"""Model version 22: the time of one atomic on each of the addresses random data picks depends on
how many addresses there are (microbenchmark `atomic_random` over 16 to 4,096 bins): with few, the
lanes of a warp that hit one address are combined."""
import os

import pytest

import tilescope
from tilescope.costmodel.calibration import H200
from tilescope.costmodel.atomics import atomic_ns
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_per_address_time_follows_the_measured_table_and_holds_its_ends():
    table = dict(H200.atomic_ns_by_addresses)
    for bins, ns in table.items():
        assert atomic_ns(bins, H200) == pytest.approx(ns)
    assert atomic_ns(1, H200) == table[16] and atomic_ns(1 << 20, H200) == table[4096]
    between = atomic_ns(128, H200)                # log-log halfway between 64 and 256
    assert between == pytest.approx((table[64] * table[256]) ** 0.5)
    assert table[16] < table[64] < table[256] < table[1024] < table[4096]


@pytest.mark.parametrize("bins", [16, 256, 1024])
def test_histogram_atomics_are_charged_by_their_bin_count(bins):
    kernels = load_file(os.path.join(ROOT, "tests", "cost", "kernels_atomics.py"))
    n, t = 1 << 26, 1024
    r = tilescope.cost(kernels.histogram, f"u8[{n}], i32[{bins}], {t}", (n // t,))
    assert r.prediction.terms["atomics"] == pytest.approx(n / bins * atomic_ns(bins, H200) * 1e-3, rel=0.01)
    assert r.bound == "atomics"
