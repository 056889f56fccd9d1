"""Model version 56: the accelerator copies tiles only of arrays whose strides other than the last
are known multiples of 16 bytes (a 1001-wide float16 matrix is loaded element by element), and a
loop tileiras unrolls k times in place waits its cubin loop's round trips every k steps
(docs/cost-model.md history 87)."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import CubinFacts, copy_layout, read_cubin_facts
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.costmodel.unrolled_waits import unrolled_load_waits
from tilescope.lang.shim import load_file
from tilescope.meta import MetaTensor

needs_tileiras = pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")
H200 = gpu_named("h200")
KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_rows.py"))
matmul, row_sums = KERNELS.matmul, KERNELS.row_sums




def _matmul_spec(n):
    return f"f16[{n},{n}], f16[{n},{n}], f32[{n},{n}], 128, 128, 64"


def _grid(n):
    return (-(-n // 128), -(-n // 128))


def test_strides_that_are_not_16_byte_multiples_rule_out_copies():
    # a launch of 1,000 float16 columns: rows 2,000 bytes apart, a multiple of 16
    assert copy_layout(MetaTensor((1000, 1000), "float16", None, static_strides=(False, True),
                                  stride_divisible_by=(8, 1), base_addr_divisible_by=16))
    # 1,001 columns: 2,002 bytes, not; a one-axis array has no such stride
    assert not copy_layout(MetaTensor((1001, 1001), "float16", None, static_strides=(False, True),
                                      base_addr_divisible_by=16))
    assert copy_layout(MetaTensor((1001,), "float16", None, static_strides=(True,), base_addr_divisible_by=16))
    # a stride given as a constant counts by its value
    assert copy_layout(MetaTensor((4, 4), "float32", (4, 1), static_strides=(True, True), base_addr_divisible_by=16))
    assert not copy_layout(MetaTensor((4, 3), "float32", (3, 1), static_strides=(True, True),
                                      base_addr_divisible_by=16))


def test_the_estimate_loads_a_1001_wide_matrix_element_by_element():
    copied = tilescope.cost(matmul, _matmul_spec(1000), _grid(1000), "h200").prediction.estimate
    plain = tilescope.cost(matmul, _matmul_spec(1001), _grid(1001), "h200").prediction.estimate
    assert copied.tma_loads and copied.threads == 256
    assert plain.tma_loads == 0 and plain.tma_stores == 0 and plain.threads == 128


@needs_tileiras
def test_tileiras_copies_only_where_the_strides_allow():
    for n, copies in ((1000, True), (1001, False)):
        report = tilescope.cost(matmul, _matmul_spec(n), _grid(n), "h200", cubin=True)
        assert bool(report.prediction.cubin.tma_loads) == copies
        # the estimate agrees with the cubin, and both time the same kind of build (element loads:
        # more than ten times the copied build's time before version 56 said)
        estimate = tilescope.cost(matmul, _matmul_spec(n), _grid(n), "h200").prediction.estimate
        assert bool(estimate.tma_loads) == copies
    plain, ir = (tilescope.cost(matmul, _matmul_spec(1001), _grid(1001), "h200", cubin=c).predicted_us
                 for c in (True, False))
    assert ir == pytest.approx(plain, rel=0.3)


FACTS = CubinFacts("k", threads=256, registers=255, shared_bytes=0, local_bytes=0, instructions=400,
                   global_loads=10, global_stores=1, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                   global_access_bytes=4.0, loads_in_flight=8.0, global_load_bytes=4.0, local_load_waits=0,
                   reload_bytes=0, loop_instructions=151, loop_loads=8, loop_load_waits=1.0)


def _row_counts():
    return tilescope.cost(row_sums, "f32[4096, 16384], f32[4096], 256", (4096,), "h200", aligned=False).counts


def test_a_loop_unrolled_in_place_waits_once_a_pass_of_the_cubin_loop():
    counts = _row_counts()
    loop = next(r for r in counts.regions if r.op is not None)
    # one LDG a step (256 elements on 256 threads), 8 in the cubin's loop, one wait: an eighth a step
    assert unrolled_load_waits(counts, FACTS) == {id(loop): pytest.approx(1 / 8)}
    # LDGs that are no whole number of steps say nothing of the loop's unrolling
    assert unrolled_load_waits(counts, dataclasses.replace(FACTS, loop_loads=1)) == {}
    # and at one block an SM (the aligned layer norm's 255 registers) its chain is shorter for it
    once = predict(_row_counts(), H200, facts=FACTS).predicted_us
    each = predict(_row_counts(), H200, facts=dataclasses.replace(FACTS, loop_loads=None)).predicted_us
    assert once < each


@needs_tileiras
def test_tileiras_unrolls_a_row_loop_in_place():
    spec = "f32[4096, 16384], f32[4096], 256"
    facts = read_cubin_facts(tilescope.compile(row_sums, spec).cubin("sm_90"))
    counts = _row_counts()
    waits = unrolled_load_waits(counts, facts)
    assert facts.loop_loads >= 2 and waits
    assert all(w < 1 for w in waits.values())


def test_advice_names_the_arrays_whose_row_pitch_rules_out_copies():
    def pitch(n):
        advice = tilescope.cost(matmul, _matmul_spec(n), _grid(n), "h200").advice
        return {a.line: a.message for a in advice if a.code == "row-pitch"}
    assert pitch(1000) == {}
    lines = pitch(1001)
    assert len(lines) == 2 and all("multiple of 8 elements" in m for m in lines.values())
    assert {"'a'", "'b'"} == {m.split()[2] for m in lines.values()}
    assert all("2,002 bytes apart" in m for m in lines.values())
