"""Model version 14: the `mma` kernels of set K — loops bounded by runtime scalars, accumulators
that spill inside a persistent loop."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import CubinFacts, schedule
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

HERE = os.path.dirname(os.path.abspath(__file__))


def _kernels():
    return load_file(os.path.join(HERE, "kernels_cost.py"))


def _facts(**changes):
    base = CubinFacts("k", threads=256, registers=255, shared_bytes=90000, local_bytes=8688, instructions=9000,
                      global_loads=0, global_stores=0, local_loads=3000, local_stores=3000, tma_loads=0,
                      tma_stores=0)
    return dataclasses.replace(base, **changes)


@pytest.mark.parametrize("tile, charged", [(256, True), (128, False)])
def test_a_nested_mma_loop_reloads_its_spills_each_iteration_only_when_its_accumulator_spills(tile, charged):
    # a persistent matmul: the K loop is nested in the loop over output tiles; a 256x256 float32
    # accumulator is 256 words a thread of 256 threads (no room at the register ceiling), 128x128 is 64
    r = tilescope.cost(_kernels().persistent_matmul_sized,
                       f"f16[1024,512], f16[512,1024], f32[1024,1024], i32, i32, i32, {tile}, {tile}, 64", (4,))
    inner = [reg for reg in r.counts.regions if reg.mmas][0]
    assert inner.depth == 2
    spill = schedule.spill_chain_us(r.counts, inner, _facts(), 0.33, 0.0356, 1, gpu_named("h200"))
    assert spill == (pytest.approx(3000 * 0.0356) if charged else 0.0)
    # below the register ceiling nothing is charged
    assert schedule.spill_chain_us(r.counts, inner, _facts(registers=200), 0.33, 0.0356, 1, gpu_named("h200")) == 0.0


def test_tfloat32_operands_wait_as_plain_loads_each_iteration():
    # float32 tiles cast to tfloat32 reach the tensor cores unconverted (copied to shared memory and
    # read as they are): an iteration waits for them as for a plain load, its latency and transfer
    from tilescope.costmodel.calibration import H200
    from tilescope.costmodel.model import _iteration_us
    spec = "f32[4096,1024], f32[1024,4096], f32[4096,4096], 32, 32, 32, {}"
    tf32 = tilescope.cost(_kernels().matmul_cast, spec.format(True), (128, 128), aligned=False)
    f32 = tilescope.cost(_kernels().matmul_cast, spec.format(False), (128, 128), aligned=False)
    assert {a.mma_dtype for a in tf32.counts.accesses if a.feeds_mma} == {"tfloat32"}
    assert {a.mma_dtype for a in f32.counts.accesses if a.feeds_mma} == {"float32"}
    loop = [reg for reg in tf32.counts.regions if reg.mmas][0]
    h200 = gpu_named("h200")
    lat, per_kib = H200.load_us
    tensor = 2 * 32 ** 3 / (h200.tensor_rate("tfloat32") * H200.tensor_efficiency / h200.sms) * 1e6
    work = loop.work.fp32_instr / (h200.fp32_tflops * 1e12 / 2 * H200.fp32_efficiency / h200.sms) * 1e6
    assert _iteration_us(loop, h200, 1, False, 1.0, H200, []) == pytest.approx(lat + per_kib * 8 + tensor + work)
    # float32 operands keep the operand path (multiplied and added on the CUDA cores): slower
    loop32 = [reg for reg in f32.counts.regions if reg.mmas][0]
    assert _iteration_us(loop32, h200, 1, False, 1.0, H200, []) > 2 * _iteration_us(loop, h200, 1, False, 1.0, H200, [])


def test_gathered_operand_rows_overlap_in_a_loop_the_accelerator_feeds():
    # the producer warps copy gathered operand rows asynchronously (LDGSTS) beside the accelerator's
    # tiles: in such a loop the gather is no plain load waited for each iteration; elsewhere it is
    from tilescope.costmodel.calibration import H200
    from tilescope.costmodel.model import _iteration_us
    r = tilescope.cost(_kernels().gathered_rows_mma, "f16[8192,1024], f16[1024,1024], i32[4096], f32[4096,1024], "
                       "128, 128, 64", (32, 8))
    gather = [a for a in r.counts.accesses if a.kind == "gather" and a.array == "a"][0]
    assert gather.contiguous and gather.mma_dtype == "float16" and not gather.feeds_mma
    loop = [reg for reg in r.counts.regions if reg.mmas][0]
    h200 = gpu_named("h200")
    fed = _facts(threads=256, local_loads=0, local_bytes=0, tma_loads=1, global_loads=8)
    lat, per_kib = H200.load_us_tma
    tensor = 2 * 128 * 128 * 64 / (h200.tensor_rate("float16") * H200.tensor_efficiency / h200.sms) * 1e6
    assert _iteration_us(loop, h200, 1, True, 1.0, H200, [], fed) == pytest.approx(max(tensor, H200.tma_step_us))
    plain = _iteration_us(loop, h200, 1, False, 1.0, H200, [], _facts(threads=256, local_loads=0, global_loads=8))
    assert plain > H200.load_us[0] + H200.load_us[1] * 16


def test_a_float32_mma_runs_at_the_fp32_rate_a_multiply_and_an_add_per_product():
    from tilescope.costmodel.calibration import H200
    r = tilescope.cost(_kernels().matmul_cast, "f32[4096,1024], f32[1024,4096], f32[4096,4096], 32, 32, 32, False",
                       (128, 128), aligned=False)
    h200 = gpu_named("h200")
    flops = 2 * 4096 * 4096 * 1024
    assert r.prediction.flops["tensor float32"] == flops
    rate = h200.fp32_tflops * 1e12 / 2 * H200.fp32_efficiency      # FMUL + FADD per product
    assert r.prediction.terms["tensor core"] == pytest.approx(flops / rate * 1e6)
    assert any("CUDA cores" in n for n in r.to_json()["assumptions"])


@pytest.mark.parametrize("tiles, launched, blocks", [((64, 64, 32), True, 4), ((64, 64, 32), False, 4),
                                                     ((128, 256, 64), True, 1)])
def test_an_occupancy_hint_caps_the_estimated_registers_where_the_accumulator_fits(tiles, launched, blocks):
    # tileiras fits 4 blocks of an mma kernel in the registers (64 a thread of 256, 128 of 128) unless
    # the accumulator takes more than half of them (128x256 float32 over 256 threads: 128 words)
    tm, tn, tk = tiles
    spec = f"f16[4096,1024], f16[1024,4096], f32[4096,4096], {tm}, {tn}, {tk}"
    r = tilescope.cost(_kernels().matmul_occupancy4, spec, (4096 // tm, 4096 // tn), aligned=launched)
    assert r.counts.occupancy == 4
    assert r.prediction.blocks_per_sm == blocks
    plain = tilescope.cost(_kernels().matmul_cast, spec.replace("f16", "f32") + ", True", (4096 // tm, 4096 // tn),
                           aligned=launched)
    assert plain.counts.occupancy is None and plain.prediction.blocks_per_sm <= 2


def test_the_occupancy_hint_is_resolved_for_the_target():
    from tilescope.costmodel.estimated_facts import occupancy_hint
    from tilescope.kernel_hints import ByTarget
    assert occupancy_hint({"occupancy": ByTarget(sm_90=2, default=4)}, "sm_90") == 2
    assert occupancy_hint({"occupancy": ByTarget(sm_100=2, default=4)}, "sm_90") == 4
    assert occupancy_hint({"occupancy": None}, "sm_90") is None and occupancy_hint({}, "sm_90") is None


@pytest.mark.parametrize("tm, tn, tk, reloads", [(256, 256, 64, int(256 * 4 * 2.55)), (256, 256, 32, int(256 * 2 * 2.55)),
                                                 (128, 256, 64, 2 * 128)])
def test_an_accumulator_beyond_the_registers_is_estimated_to_reload_every_tensor_core_step(tm, tn, tk, reloads):
    # 256x256 float32 over 256 threads is 256 words a thread, more than its 255 registers: the cubins
    # reload each word 2.2-3.3 times per k16 step; 128 words keep the version 13 estimate (twice)
    from tilescope.costmodel.estimated_facts import estimate_facts
    spec = f"f16[4096,4096], f16[4096,4096], f32[4096,4096], {tm}, {tn}, {tk}, False"
    r = tilescope.cost(_kernels().matmul_cast, spec, (4096 // tm, 4096 // tn))
    facts = estimate_facts(r.counts, True)
    assert facts.threads == 256 and facts.local_loads == reloads
