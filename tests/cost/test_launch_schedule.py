"""Model version 7: what tileiras does for arrays a launch describes as aligned with divisible
extents (MetaTensor.like of a contiguous GPU array): vector loads, tensor-memory-accelerator
copies, and how the prediction follows them."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.arraylike import launch_facts
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import CubinFacts, read_cubin_facts
from tilescope.costmodel.counts import count
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.costmodel.schedule import access_chain_us, element_accesses, fed_loop, tma_copied, vector_width
from tilescope.dtypes import as_dtype
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import MetaTensor, parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLCHAIN = find_toolchain(required=False)
needs_tileiras = pytest.mark.skipif(TOOLCHAIN is None, reason="tileiras not found")
N = 1 << 24


def _example(name, kernel):
    return getattr(load_file(os.path.join(ROOT, "examples", name)), kernel)


def _launched(shape, dtype):
    """The MetaTensor a launch derives from a contiguous, 256-byte aligned device array."""
    dt = as_dtype(dtype)
    return MetaTensor(shape, dt, None, **launch_facts(1 << 20, shape, None, dt))


def _facts(**changes):
    base = CubinFacts("k", threads=128, registers=32, shared_bytes=0, local_bytes=0, instructions=300,
                      global_loads=16, global_stores=8, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                      global_access_bytes=4.0)
    return dataclasses.replace(base, **changes)


def _vector_add_counts():
    compiled = tilescope.compile(_example("vector_add.py", "vector_add"),
                                 parse_args(f"f32[{N}], f32[{N}], f32[{N}], 1024"))
    return count(compiled.final, normalize_grid((N // 1024,)))


def _matmul_counts():
    compiled = tilescope.compile(_example("matmul.py", "matmul"),
                                 parse_args("f16[4096,4096], f16[4096,4096], f32[4096,4096], 128, 128, 64"))
    return count(compiled.final, normalize_grid((32, 32)))


@needs_tileiras
def test_a_launch_build_loads_16_bytes_a_thread_and_the_reader_sees_it():
    kernel = _example("vector_add.py", "vector_add")
    dynamic = read_cubin_facts(tilescope.compile(kernel, parse_args("f32[?], f32[?], f32[?], 1024")).cubin("sm_90"))
    specs = [_launched((N,), "float32").signature() for _ in range(3)] + [1024]
    launched = read_cubin_facts(tilescope.compile(kernel, specs).cubin("sm_90"))
    assert dynamic.global_access_bytes == 4.0                 # one f32 an instruction
    assert launched.global_access_bytes == 16.0               # LDG.E.128 / STG.E.128
    assert launched.global_accesses * 4 == dynamic.global_accesses
    counts = _vector_add_counts()
    assert vector_width(counts, dynamic) == 1.0 and vector_width(counts, launched) == 4.0


@needs_tileiras
def test_a_launch_build_of_a_matmul_copies_its_tiles_with_the_accelerator():
    kernel = _example("matmul.py", "matmul")
    specs = [_launched((4096, 4096), "float16").signature(), _launched((4096, 4096), "float16").signature(),
             _launched((4096, 4096), "float32").signature(), 128, 128, 64]
    facts = read_cubin_facts(tilescope.compile(kernel, specs).cubin("sm_90"))
    assert facts.tma_loads >= 2 and facts.global_loads == 0
    counts = _matmul_counts()
    assert all(tma_copied(a, facts) for a in counts.accesses if a.kind == "load")
    assert [a.kind for a in element_accesses(counts, facts)] == ([] if facts.tma_stores else ["store"])


def test_vector_loads_shorten_the_access_chain():
    counts = _vector_add_counts()
    h200 = gpu_named("h200")
    scalar, vector = _facts(global_access_bytes=4.0), _facts(global_access_bytes=16.0, global_loads=4,
                                                              global_stores=2)
    wait = tilescope.costmodel.H200.access_latency_us
    assert access_chain_us(counts, vector, h200, 16, 0.0, wait) == pytest.approx(
        access_chain_us(counts, scalar, h200, 16, 0.0, wait) / 4)
    assert vector_width(counts, _facts(global_access_bytes=2.0)) == 1.0      # never below one element


def test_accelerator_fed_loops_take_a_pipeline_step_not_the_element_operand_path():
    h200 = gpu_named("h200")
    per_element = predict(_matmul_counts(), h200, tma=True, facts=_facts(threads=256, registers=255))
    fed = predict(_matmul_counts(), h200, tma=True,
                  facts=_facts(threads=256, registers=255, global_loads=0, tma_loads=2, tma_stores=2))
    assert fed.terms["latency"] < per_element.terms["latency"] / 5
    loop = [r for r in _matmul_counts().regions if r.op is not None][0]
    assert fed_loop(loop, _facts(tma_loads=2)) and not fed_loop(loop, _facts())
    # each iteration at least the step the launch-built load -> mma microbenchmark measured
    blocks, slots = 1024, 132
    step = tilescope.costmodel.H200.tma_step_us
    assert fed.terms["latency"] >= -(-blocks // slots) * 64 * step * 0.999


def test_spill_reloads_in_a_fed_loop_at_the_register_ceiling_cost_each_iteration():
    h200 = gpu_named("h200")
    kw = dict(threads=256, global_loads=0, tma_loads=2, tma_stores=2, local_loads=200, local_bytes=1024)
    capped = predict(_matmul_counts(), h200, tma=True, facts=_facts(registers=255, **kw))
    below = predict(_matmul_counts(), h200, tma=True, facts=_facts(registers=168, **kw))
    wait = tilescope.costmodel.H200.access_latency_us
    assert capped.block_us >= 64 * 200 * wait * 0.999
    assert below.block_us < capped.block_us / 5


def test_overlapping_gathers_along_rows_are_read_from_dram_once():
    kernels = load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))
    r = tilescope.cost(kernels.stencil_rows, "f32[4096,4096], f32[4096,4096], 5, 32, 128", (128, 32))
    gathers = [a for a in r.counts.accesses if a.kind == "gather"]
    requested = sum(a.bytes * a.executions for a in gathers)
    assert requested == pytest.approx(5 * 4096 * 4096 * 4, rel=0.05)
    assert r.prediction.bytes["dram_read"] == pytest.approx(4096 * 4096 * 4, rel=0.01)


def test_spill_reloads_at_the_register_ceiling_cost_each_iteration_of_an_mma_loop_too():
    # version 8 (set G's dynamic matmuls): without accelerator copies the same rule holds
    h200 = gpu_named("h200")
    kw = dict(threads=256, local_loads=400, local_bytes=2048)
    capped = predict(_matmul_counts(), h200, facts=_facts(registers=255, **kw))
    below = predict(_matmul_counts(), h200, facts=_facts(registers=200, **kw))
    wait = tilescope.costmodel.H200.access_latency_us
    assert capped.block_us >= 64 * 400 * wait * 0.999 > below.block_us


def test_as_launched_describes_contiguous_arrays_as_a_launch_does():
    specs = parse_args("f16[4096,1024], f32[?], f32[64,64]:[128,1], 7")
    out = tilescope.costmodel.as_launched(specs)
    assert out[0] == _launched((4096, 1024), "float16")
    assert out[1:] == specs[1:]          # unknown sizes and given strides are kept as they are
    kernel, spec = _example("vector_add.py", "vector_add"), f"f32[{N}], f32[{N}], f32[{N}], 1024"
    r = tilescope.cost(kernel, spec, (N // 1024,), aligned=True)
    same = tilescope.cost(kernel, tilescope.costmodel.as_launched(parse_args(spec)), (N // 1024,))
    assert r.prediction.tma and same.prediction.tma and r.predicted_us == same.predicted_us


def test_without_a_cubin_an_aligned_mma_kernel_is_estimated_accelerator_fed():
    h200 = gpu_named("h200")
    presumed = predict(_matmul_counts(), h200, tma=True)
    dynamic = predict(_matmul_counts(), h200)
    assert presumed.schedule == "estimated from the IR" and presumed.cubin is None and presumed.blocks_per_sm == 1
    assert dynamic.schedule == "estimated from the IR"
    assert presumed.predicted_us < dynamic.predicted_us / 5        # no element-load operand path, no LDG issue


def test_a_branch_on_the_loop_variable_takes_its_share_of_the_iterations():
    kernels = load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))
    r = tilescope.cost(kernels.last_tile_branch, "f32[1024,4000], f32[1024,512], 4000, 512", (1024,))
    loads = [a for a in r.counts.accesses if a.kind == "load"]
    assert sorted(a.weight for a in loads) == pytest.approx([1 / 8, 7 / 8])     # 7 full tiles, 1 partial
    assert not any("both branches" in n for n in r.counts.assumptions)


def test_tiles_a_block_indexes_past_the_array_carry_no_traffic():
    kernels = load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))
    r = tilescope.cost(kernels.element_index_tiles, "f32[1048576], f32[1048576], 1024", (1024,))
    assert all(a.pad_fraction == pytest.approx(1 - 1 / 1024) for a in r.counts.accesses)
    assert r.prediction.bytes["dram_read"] <= 4096
