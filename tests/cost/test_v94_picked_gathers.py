"""Model version 94 (docs/cost-model.md history 160): a gather at indices a loaded tile gives reads a
sector of its own a lane, anywhere in the array. Each pick is an L2 lookup, and where the arrays picked
together outgrow the share of L2 that keeps them, a DRAM fetch too. Sets AR's and AY's batch-norm
concatenations pick two arrays at random element indices; they had been charged each array once."""
import os

import pytest

import tilescope
from tilescope.costmodel import picked_gathers
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_picked.py"))
H100 = gpu_named("h100")
LANES = 1 << 24


def _pick_two(elements):
    return tilescope.cost(KERNELS.pick_two, f"bf16[{elements}], bf16[{elements}], i32[{LANES}], bf16[{LANES}], 256",
                          (LANES // 256, 1, 1), "h100")


def test_a_loaded_index_picks_and_a_windowed_one_does_not():
    two = _pick_two(1 << 22).counts
    assert sum(picked_gathers.is_pick(a) for a in two.accesses) == 2
    window = tilescope.cost(KERNELS.pick_in_window, f"bf16[{LANES}], i32[256], bf16[{LANES}], 256",
                            (LANES // 256, 1, 1), "h100").counts
    assert not any(picked_gathers.is_pick(a) for a in window.accesses)
    small = _pick_two(1 << 10).counts               # 2 KB arrays stay in L1
    assert not any(picked_gathers.is_pick(a) for a in small.accesses)


def test_each_pick_is_an_l2_lookup():
    # 2^25 picks of arrays L2 keeps: L2's rate, not each array's bytes once (8 MB, a few µs)
    report = _pick_two(1 << 22)
    assert picked_gathers.missed_share(report.counts, H100) == 0.0
    lookups_us = 2 * LANES / (picked_gathers.PICKS_PER_SM_CLK * 132 * 1.98e3)
    assert report.prediction.terms["memory"] == pytest.approx(lookups_us, rel=0.01)
    assert report.predicted_us > 200


def test_arrays_picked_together_compete_for_l2():
    # two 16 MB arrays: L2 keeps 29 MB of picked arrays, so each alone would stay, together 13.5% miss
    apart, together = _pick_two(1 << 22), _pick_two(1 << 23)
    missed = picked_gathers.missed_share(together.counts, H100)
    assert missed == pytest.approx(1 - 0.58 * 50 / 33.55, abs=0.005)
    fetches_us = 2 * LANES * missed * picked_gathers.MISS_NS * 1e-3
    assert together.prediction.terms["memory"] == pytest.approx(apart.prediction.terms["memory"] + fetches_us, rel=0.01)
