"""Model version 101 (docs/cost-model.md history 174).

Tensor-core operands a launch's build loads without the accelerator, eight float16 elements a lane
per 16-byte LDG, take the operand path's time over the square root of the elements a load moves:
the path was measured on loads of one 2-byte element a lane. The `vecop_*` microbenchmark of a
(128, 32) by (32, 64) float16 load -> mma loop as launched took 792 µs on an H100; version 99 had
1,845."""
import dataclasses
import math
import os

import tilescope
from tilescope.costmodel import model, vector_operands
from tilescope.costmodel.counts import Access
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STREAMS = load_file(os.path.join(ROOT, "bench", "cost_kernels_vector.py"))
H100 = gpu_named("h100")
SPEC = "f16[33792, 8192], f16[8192, 64], f32[33792, 64], 256, 128, 64, 32"
MEASURED_US = 792.1          # bench/results/cost_micro_vecop_h100.json
# vecop_no_tma_float16_128x64x32 as launched, as tileiras 13.3 built it: 16-byte loads, no copies
FACTS = CubinFacts("mma_stream_no_tma", threads=256, registers=255, shared_bytes=66592, local_bytes=0,
                   instructions=1072, global_loads=18, global_stores=0, local_loads=0, local_stores=0,
                   tma_loads=0, tma_stores=4, global_access_bytes=16.0, loads_in_flight=3.0,
                   global_load_bytes=16.0, local_load_waits=0, reload_bytes=0, spill_area_bytes=0,
                   called_instructions=0, loop_instructions=212, loop_shared_ops=20, loop_local_clocks=0,
                   mma_loop_mmas=4, mma_loop_full_waits=1, mma_loop_pipelined_waits=0,
                   mma_loop_instructions=212, mma_loop_local_clocks=0, mma_loop_load_waits=2.0, loop_loads=6,
                   loop_load_waits=2.0, loop_serial_copies=0, divisions=0, loop_chain_clocks=501)


def _operand(dtype="float16", itemsize=2, mma_dtype="float16"):
    return Access("load", None, "a", dtype, itemsize, (128, 32), 4096, (0, 1), feeds_mma=True,
                  operand="a", mma_dtype=mma_dtype)


def _predicted_us():
    counts = tilescope.cost(STREAMS.mma_stream_no_tma, SPEC, (264,), "h100", aligned=True, cubin=False).counts
    return model.predict(counts, H100, tma=True, facts=FACTS).predicted_us


def test_the_elements_a_load_moves_divide_the_path_by_their_square_root():
    assert vector_operands.vector_gain([_operand()], FACTS) == math.sqrt(8)
    assert vector_operands.vector_gain([_operand()], dataclasses.replace(FACTS, global_load_bytes=4.0)) \
        == math.sqrt(2)
    # one element a load: the path as measured
    assert vector_operands.vector_gain([_operand()], dataclasses.replace(FACTS, global_load_bytes=2.0)) == 1.0


def test_mixed_widths_unknown_widths_and_cuda_core_products_keep_the_path():
    # a mean of 1.54 bytes over one-byte operands: loads of several widths, not a vector
    one_byte = _operand("float8_e4m3fn", 1, "float8_e4m3fn")
    assert vector_operands.vector_gain([one_byte], dataclasses.replace(FACTS, global_load_bytes=1.54)) == 1.0
    assert vector_operands.vector_gain([_operand()], dataclasses.replace(FACTS, global_load_bytes=None)) == 1.0
    assert vector_operands.vector_gain([_operand()], None) == 1.0
    f32 = _operand("float32", 4, "float32")
    assert vector_operands.vector_gain([f32], dataclasses.replace(FACTS, global_load_bytes=16.0)) == 1.0


def test_the_launched_stream_of_16_byte_loads_is_predicted_within_30_percent():
    assert 0.7 <= _predicted_us() / MEASURED_US <= 1.3


def test_without_the_law_the_launched_stream_is_past_2x(monkeypatch):
    monkeypatch.setattr(model, "vector_gain", lambda operands, facts: 1.0)
    assert _predicted_us() / MEASURED_US > 2.0

