"""Model version 85: a launch that keeps fewer than a quarter of the SMs busy waits less for its loads
than the loaded laws (a block on every SM) say: set AP's one-block finalisations as launched (2.73x,
2.76x), whose accelerator copies a lone block moves at a quarter of the loaded law's time per KiB
(bench/results/cost_micro85_lone_h100.json; docs/cost-model.md history 143)."""
import json
import os

import pytest

import tilescope
from tilescope.costmodel import lone_blocks
from tilescope.costmodel.calibration import H200
from tests.cost.test_v81_row_walks import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = load_file(os.path.join(ROOT, "tests", "cost", "kernels_lone_blocks.py"))


def test_the_shares_are_the_stored_microbenchmarks():
    with open(os.path.join(ROOT, "bench", "results", "cost_micro85_lone_h100.json")) as f:
        cases = json.load(f)["cases"]
    assert lone_blocks.derive(cases, H200.load_us_tma[1]) == (lone_blocks.LONE_LOAD_SHARE,
                                                               lone_blocks.LONE_GATHER_SHARE,
                                                               lone_blocks.LONE_COPY_SHARE)


def test_a_lone_block_waits_by_the_lone_shares():
    laws = lone_blocks.crowded_laws(H200, 1, 132)
    busy = 1 / (132 * lone_blocks.LOADED_FROM)
    share = lambda lone: lone + (1 - lone) * busy        # noqa: E731
    assert laws.load_us == pytest.approx((H200.load_us[0] * share(lone_blocks.LONE_LOAD_SHARE[0]),
                                          H200.load_us[1] * share(lone_blocks.LONE_LOAD_SHARE[1])))
    assert laws.load_us_tma == pytest.approx((H200.load_us_tma[0],
                                              H200.load_us_tma[1] * share(lone_blocks.LONE_COPY_SHARE)))
    assert laws.mma_rate == H200.mma_rate


@pytest.mark.parametrize("blocks", [33, 132, 5000])
def test_a_quarter_of_the_sms_busy_keeps_the_loaded_laws(blocks):
    assert lone_blocks.crowded_laws(H200, blocks, 132) is H200


def test_the_laws_grow_with_the_blocks():
    per_kib = [lone_blocks.crowded_laws(H200, b, 132).load_us_tma[1] for b in (1, 4, 16, 32, 33)]
    assert per_kib == sorted(per_kib) and per_kib[0] < 0.3 * per_kib[-1]


def _predicted(kernel, spec, blocks, aligned):
    return tilescope.cost(kernel, spec, (blocks, 1, 1), "h200", aligned=aligned).predicted_us


def _loaded(monkeypatch):
    monkeypatch.setattr(lone_blocks, "LONE_LOAD_SHARE", (1.0, 1.0))
    monkeypatch.setattr(lone_blocks, "LONE_COPY_SHARE", 1.0)
    monkeypatch.setattr(lone_blocks, "LONE_GATHER_SHARE", 1.0)


@pytest.mark.parametrize("aligned", [True, False])
def test_a_one_block_reduction_is_predicted_by_the_lone_laws(monkeypatch, aligned):
    tile = (KERNELS.column_sum_tile, "f32[4096, 64], f32[64], 4096, 64")
    gather = (KERNELS.gather_sum, "f32[16384], f32[1], 16384")
    lone = [_predicted(k, spec, 1, aligned) for k, spec in (tile, gather)]
    _loaded(monkeypatch)
    loaded = [_predicted(k, spec, 1, aligned) for k, spec in (tile, gather)]
    if aligned:      # the accelerator copies the tile: a quarter of the loaded law's time per KiB
        assert lone[0] < 0.4 * loaded[0]
    else:            # element loads: the tile's DRAM stream bounds it either way
        assert lone[0] == pytest.approx(loaded[0])
    assert lone[1] < 0.9 * loaded[1]


def test_a_full_grid_is_predicted_as_before(monkeypatch):
    spec = "f32[540672, 64], f32[8448], 4096, 64"
    new = _predicted(KERNELS.column_sum_tile, spec, 132, True)
    _loaded(monkeypatch)
    assert _predicted(KERNELS.column_sum_tile, spec, 132, True) == new
