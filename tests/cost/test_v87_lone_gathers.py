"""Model version 87: a gather of consecutive elements has a warp's lanes read one line (coalesced
LDGs), and a block of a launch that keeps few SMs busy waits for it at the aligned `load_chain`'s
lone rate, 0.19 of the loaded element law's time per KiB (the law itself was measured with the
dynamic `load_chain`): sets AP's and AQ's one-block means of two gathers (2.75x, 1.84x under version
85; docs/cost-model.md history 146)."""
import os

import pytest

import tilescope
from tilescope.costmodel import lone_blocks
from tilescope.costmodel.calibration import H200
from tests.cost.test_v81_row_walks import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = load_file(os.path.join(ROOT, "tests", "cost", "kernels_lone_blocks.py"))


def _predicted(kernel, n, blocks, monkeypatch=None, lone_gathers=True):
    if not lone_gathers:          # gathers take the element loads' share, as before version 87
        monkeypatch.setattr(lone_blocks, "LONE_GATHER_SHARE", lone_blocks.LONE_LOAD_SHARE[1])
    spec = f"f32[{2 * n * blocks}], f32[{blocks}], {n}"
    return tilescope.cost(kernel, spec, (blocks, 1, 1), "h200", aligned=False).predicted_us


def test_the_gather_share_is_the_lone_coalesced_rate_over_the_loaded_law():
    laws = lone_blocks.crowded_laws(H200, 1, 132)
    busy = 1 / (132 * lone_blocks.LOADED_FROM)
    gathered = laws.load_us[1] * laws.gather_share
    assert gathered == pytest.approx(H200.load_us[1] * (lone_blocks.LONE_GATHER_SHARE
                                                        + (1 - lone_blocks.LONE_GATHER_SHARE) * busy))
    assert lone_blocks.crowded_laws(H200, 132, 132).gather_share == 1.0


def test_a_one_block_gather_of_consecutive_elements_waits_less(monkeypatch):
    lone = _predicted(KERNELS.gather_sum, 16384, 1)
    before = _predicted(KERNELS.gather_sum, 16384, 1, monkeypatch, lone_gathers=False)
    assert lone < 0.6 * before


def test_spaced_gathers_and_full_grids_keep_their_law(monkeypatch):
    spaced = _predicted(KERNELS.spaced_gather_sum, 16384, 1)
    full = _predicted(KERNELS.gather_sum, 16384, 132)
    assert spaced == _predicted(KERNELS.spaced_gather_sum, 16384, 1, monkeypatch, lone_gathers=False)
    assert full == _predicted(KERNELS.gather_sum, 16384, 132, monkeypatch, lone_gathers=False)
