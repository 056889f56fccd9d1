"""Model version 91 (docs/cost-model.md history 155): accelerator copies of tiles larger than the
block's shared memory wait a round trip for each box where nothing stages them ahead (one warpgroup,
or shared memory smaller than a box): set AV's launched online softmax, 64 (1, 8192) bfloat16 tiles
a row through 9 KiB of shared memory, took 17.8 ms where 4.4 were predicted."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import model, staged_copies
from tilescope.costmodel.calibration import H200 as H200_CAL
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_staged.py"))
H100 = gpu_named("h100")
# one warpgroup copying its tiles through 9 KiB: 32 boxes a (1, 8192) tile, UTMALDG each
ROW = CubinFacts("row_scale", threads=128, registers=96, shared_bytes=9216, local_bytes=0, instructions=4000,
                 global_loads=0, global_stores=0, local_loads=0, local_stores=0, tma_loads=64, tma_stores=64,
                 global_access_bytes=None, loads_in_flight=None, global_load_bytes=None, local_load_waits=0,
                 reload_bytes=0, called_instructions=0, loop_instructions=0, loop_shared_ops=0,
                 loop_local_clocks=0, loop_loads=None, loop_load_waits=None)


def _counts(n=8192):
    return tilescope.cost(KERNELS.row_scale, f"bf16[4096,{2 * n}], bf16[4096,{2 * n}], {n}", (4096, 1, 1),
                          "h100", aligned=True).counts


def test_boxes_of_a_tile():
    assert staged_copies.boxes((1, 8192)) == 32
    assert staged_copies.boxes((32768, 4)) == 128
    assert staged_copies.boxes((300, 300)) == 4


def test_a_lone_warpgroup_waits_each_box():
    counts = _counts()
    latency, per_kib = H200_CAL.load_us_tma
    box = latency + per_kib * 0.5                    # 512 bytes a box
    assert staged_copies.staged_copy_us(counts, ROW, H200_CAL.load_us_tma) == pytest.approx(2 * 32 * box)
    # producer warps with room for a box stage them ahead; tiles that fit are copied whole
    assert staged_copies.staged_copy_us(counts, dataclasses.replace(ROW, threads=256), H200_CAL.load_us_tma) == 0
    assert staged_copies.staged_copy_us(counts, dataclasses.replace(ROW, shared_bytes=65536),
                                        H200_CAL.load_us_tma) == 0
    # ... unless the shared memory holds less than one box
    tiny = dataclasses.replace(ROW, threads=256, shared_bytes=256)
    assert staged_copies.staged_copy_us(counts, tiny, H200_CAL.load_us_tma) > 0


def test_the_box_waits_set_the_launch_time():
    counts = _counts()
    p = model.predict(counts, H100, tma=True, facts=ROW)
    roomy = model.predict(counts, H100, tma=True, facts=dataclasses.replace(ROW, shared_bytes=65536))
    assert p.terms["latency"] > 2 * roomy.terms["latency"]
    assert p.predicted_us > roomy.predicted_us
