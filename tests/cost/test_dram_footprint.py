"""After set N: the H200's DRAM rate does not fall at multi-GB footprints. The stored
microbenchmarks (a copy moving 256 MB to 12 GB; a three-stream add moving 768 MB to 12 GB) stream
at one rate each, so the model keeps no footprint term; the copy's rate is the calibrated one."""
import json
import os

import pytest

from tilescope.costmodel.calibration import H200

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _rates(name: str, prefix: str) -> dict:
    """Bytes moved per second for each footprint (MiB, from the case name) of the stored cases."""
    with open(os.path.join(ROOT, "bench", "results", name)) as f:
        cases = json.load(f)["cases"]
    out = {}
    for case, r in cases.items():
        if case.startswith(prefix) and not case.endswith("_odd"):
            mib = int(case[len(prefix):].split("mb")[0])
            out[mib] = mib * (1 << 20) / (r["us"] * 1e-6)
    return out


def test_a_copy_streams_at_the_calibrated_rate_at_every_footprint():
    rates = _rates("cost_micro18_h200.json", "copy_footprint_f32_")
    assert sorted(rates) == [256, 1024, 2048, 4096, 8192, 12288]
    calibrated = 4.8e12 * H200.dram_efficiency
    for mib, rate in rates.items():
        assert rate == pytest.approx(calibrated, rel=0.05), mib
    assert rates[12288] >= rates[256]          # no fall from 256 MB to 12 GB


def test_the_three_stream_add_is_slower_than_the_copy_at_every_footprint_alike():
    adds = _rates("cost_micro18b_h200.json", "add_footprint_f32_")
    assert sorted(adds) == [768, 3072, 12288]
    assert max(adds.values()) / min(adds.values()) < 1.03        # flat: not a footprint effect
    copy = _rates("cost_micro18_h200.json", "copy_footprint_f32_")[12288]
    assert all(rate < 0.8 * copy for rate in adds.values())      # its shortfall has another cause
