"""Model version 37: a loop without mma whose tiles the accelerator copies takes a step what one
SM's copies move (at least FED_STEP_US), and each start of it waits FED_FILL_US for its first
copies; blocks sharing an SM share its copies (bench/results/cost_micro37_fed_h200.json)."""
import dataclasses
import json
import os

import pytest

import tilescope
from tilescope.costmodel import model
from tilescope.costmodel.calibration import H200
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
segment_sum = load_file(os.path.join(ROOT, "bench", "cost_kernels.py")).segment_sum
STEPS = 2048
# the launch build's cubin: one 256-thread block an SM, the tiles copied by the accelerator
FED = CubinFacts("segment_sum", threads=256, registers=255, shared_bytes=66832, local_bytes=0, instructions=256,
                 global_loads=0, global_stores=1, local_loads=0, local_stores=0, tma_loads=1, tma_stores=0,
                 global_access_bytes=4.0, loads_in_flight=None, global_load_bytes=None, local_load_waits=0,
                 reload_bytes=0, loop_instructions=40, loop_shared_ops=0)
FOUR_AN_SM = dataclasses.replace(FED, registers=64, shared_bytes=20000)


def _measured(name):
    with open(os.path.join(ROOT, "bench", "results", "cost_micro37_fed_h200.json")) as f:
        return json.load(f)["cases"][name]["us"]


def _predict(tile, steps, grid, facts=FED):
    r = tilescope.cost(segment_sum, f"f32[{grid}, {steps * tile}], f32[{grid}, 1], {tile}", (grid,), "h200")
    assert r.prediction.tma                       # the launch build copies the tiles
    return model.predict(r.counts, gpu_named("h200"), tma=True, facts=facts)


def test_the_constants_come_from_the_stored_microbenchmark():
    # 2048 steps of 16 KiB by one block: the SM's copy rate; of 1 KiB: the shortest step
    assert _measured("segment_sum_t4096_g1_launch") / STEPS / 16 == pytest.approx(model.FED_STEP_US_PER_KIB,
                                                                                 rel=0.01)
    assert _measured("segment_sum_t256_g1_launch") / STEPS == pytest.approx(model.FED_STEP_US, rel=0.03)


@pytest.mark.parametrize("tile, step", [(256, model.FED_STEP_US), (1024, model.FED_STEP_US),
                                        (4096, 16 * model.FED_STEP_US_PER_KIB)])
def test_a_long_fed_loop_takes_its_step_each_iteration(tile, step):
    p = _predict(tile, STEPS, 1)
    assert p.blocks_per_sm == 1
    assert p.terms["latency"] == pytest.approx(STEPS * step + model.FED_FILL_US, rel=0.02)
    # within the microbenchmark's spread of the measured time (launch included)
    assert p.predicted_us == pytest.approx(_measured(f"segment_sum_t{tile}_g1_launch"), rel=0.2)


def test_each_start_of_a_fed_loop_waits_for_its_first_copies(monkeypatch):
    blocks = 8192
    one, eight = _predict(256, 1, blocks), _predict(256, 8, blocks)
    assert eight.block_us - one.block_us == pytest.approx(7 * model.FED_STEP_US, rel=0.02)
    monkeypatch.setattr(model, "FED_FILL_US", 0.0)
    assert one.block_us - _predict(256, 1, blocks).block_us == pytest.approx(1.0, rel=0.02)
    # measured: 74.9 µs for one 1 KiB step a block, 8,192 blocks
    assert one.predicted_us == pytest.approx(_measured("segment_sum_t256_s1_g8192_launch"), rel=0.1)


def test_blocks_sharing_an_sm_share_its_copies_and_overlap_their_starts():
    p = _predict(4096, 64, 4 * 132, FOUR_AN_SM)
    assert p.blocks_per_sm == 4
    copies = 4 * 64 * 16 * model.FED_STEP_US_PER_KIB        # the SM's copies of its four blocks' tiles
    alone = model.FED_FILL_US + 64 * 16 * model.FED_STEP_US_PER_KIB
    assert copies > alone
    assert p.terms["latency"] == pytest.approx(copies, rel=0.05)
    # short loops: the first copies' wait, not the shared rate, sets the block's time
    short = _predict(256, 2, 4 * 132, FOUR_AN_SM)
    assert short.terms["latency"] == pytest.approx(model.FED_FILL_US + 2 * model.FED_STEP_US, rel=0.3)


def test_mma_loops_keep_their_pipeline_step():
    kernels = load_file(os.path.join(ROOT, "bench", "cost_kernels.py"))
    r = tilescope.cost(kernels.mma_stream, "f16[8448, 16384], f16[16384, 64], f32[8448, 64], 256, 64, 64, 64",
                       (132,), "h200")
    loop = next(x for x in r.counts.regions if x.mmas)
    facts = dataclasses.replace(FED, tma_loads=2)
    assert model._fed_step_us(loop, facts, H200) == H200.tma_step_us
    assert model._fed_loop_us(loop, facts, 5.0, 1, 1.0) == 5.0
