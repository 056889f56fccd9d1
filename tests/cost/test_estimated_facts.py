"""Model version 13: without a cubin, the facts tileiras's cubin would give are estimated from the
IR (costmodel/estimated_facts.py), and the model runs the same mechanisms on the estimate. Each
estimate is checked here against the cubin tileiras builds for the same IR (when it is installed)."""
import os

import pytest

import tilescope
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import _aligned_by_metadata, as_launched, read_cubin_facts
from tilescope.costmodel.counts import count
from tilescope.costmodel.estimated_facts import estimate_facts
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
needs_tileiras = pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")


def _kernels(module="kernels_cost.py"):
    return load_file(os.path.join(ROOT, "tests", "cost", module))


def _example(name, kernel):
    return getattr(load_file(os.path.join(ROOT, "examples", name)), kernel)


def _build(kernel, spec, grid, launched):
    """(estimate, compiled) for the kernel as a launch builds it, or as written (dynamic shapes)."""
    specs = parse_args(spec)
    compiled = tilescope.compile(kernel, as_launched(specs) if launched else specs)
    counts = count(compiled.final, normalize_grid(grid))
    return estimate_facts(counts, _aligned_by_metadata(compiled.args)), compiled


def _cubin(compiled):
    return read_cubin_facts(compiled.cubin("sm_90"))


VECTOR_ADD = f"f32[{1 << 22}], f32[{1 << 22}], f32[{1 << 22}], 1024"
MATMUL = "f16[4096,4096], f16[4096,4096], f32[4096,4096], 128, 128, 64"


def test_a_launch_of_an_elementwise_kernel_is_estimated_to_move_16_bytes_a_thread():
    est, _ = _build(_example("vector_add.py", "vector_add"), VECTOR_ADD, (4096,), launched=True)
    assert est.threads == 128 and not est.tma_loads and not est.tma_stores
    assert est.global_load_bytes == 16 and est.global_access_bytes == 16
    assert est.global_loads == 2 * 1024 * 4 // 128 // 16 and est.global_stores == 2      # 8 floats a thread, 4 per LDG
    dynamic, _ = _build(_example("vector_add.py", "vector_add"), VECTOR_ADD.replace(f"[{1 << 22}]", "[?]"), (4096,),
                        launched=False)
    assert dynamic.global_load_bytes == 4 and dynamic.global_loads == 16      # one element per instruction


@needs_tileiras
def test_the_vector_width_estimate_matches_what_tileiras_builds():
    kernel = _example("vector_add.py", "vector_add")
    for launched in (True, False):
        est, compiled = _build(kernel, VECTOR_ADD, (4096,), launched)
        real = _cubin(compiled)
        assert (est.threads, est.global_load_bytes, est.global_loads, est.global_stores) == \
               (real.threads, real.global_load_bytes, real.global_loads, real.global_stores)
        assert bool(est.tma_loads) == bool(real.tma_loads) is False


def test_a_launch_of_an_mma_kernel_is_estimated_accelerator_fed():
    est, _ = _build(_example("matmul.py", "matmul"), MATMUL, (32, 32), launched=True)
    assert est.tma_loads and est.tma_stores and est.threads == 256 and est.registers == 255
    assert not est.global_loads and est.loads_in_flight is None            # no element loads left to wait on
    dynamic, _ = _build(_example("matmul.py", "matmul"), MATMUL, (32, 32), launched=False)
    assert not dynamic.tma_loads and dynamic.threads == 128 and dynamic.global_load_bytes == 2


@needs_tileiras
def test_the_accelerator_estimate_of_an_mma_kernel_matches_what_tileiras_builds():
    for launched in (True, False):
        est, compiled = _build(_example("matmul.py", "matmul"), MATMUL, (32, 32), launched)
        real = _cubin(compiled)
        assert (bool(est.tma_loads), bool(est.tma_stores), est.threads) == \
               (bool(real.tma_loads), bool(real.tma_stores), real.threads)


ROWS = "{t}[8192,1024], {t}[8192,1024], 1024"


def test_a_row_kernel_that_sums_is_estimated_to_copy_its_rows_with_the_accelerator():
    est, _ = _build(_kernels().row_norm, ROWS.format(t="f32"), (8192,), launched=True)
    assert est.tma_loads and est.tma_stores and est.threads == 256
    as_written, _ = _build(_kernels().row_norm, ROWS.format(t="f32"), (8192,), launched=False)
    assert not as_written.tma_loads and as_written.threads == 128


@needs_tileiras
def test_the_row_kernel_estimates_match_what_tileiras_builds():
    for t in ("f32", "bf16"):
        for launched in (True, False):
            est, compiled = _build(_kernels().row_norm, ROWS.format(t=t), (8192,), launched)
            real = _cubin(compiled)
            assert (bool(est.tma_loads), bool(est.tma_stores), est.threads) == \
                   (bool(real.tma_loads), bool(real.tma_stores), real.threads)


HISTOGRAM = "i32[4194304], i32[4096], 1024"
SCATTER = "f32[65536,256], i32[65536], f32[4096,256], {rows}, 256"     # {rows} x 256 float32 a block


def test_a_launch_of_a_kernel_with_atomics_is_estimated_to_copy_its_tile_loads():
    k = _kernels("kernels_estimate.py")
    est, _ = _build(k.histogram_bins, HISTOGRAM, (4096,), launched=True)
    assert est.tma_loads == 1 and not est.tma_stores and est.threads == 256 and est.registers == 255
    small, _ = _build(k.scatter_rows_add, SCATTER.format(rows=4), (16384,), launched=True)
    assert small.tma_loads == 2 and small.threads == 256          # the index tile and the 4 KB of values
    large, _ = _build(k.scatter_rows_add, SCATTER.format(rows=64), (1024,), launched=True)
    assert not large.tma_loads and large.threads == 128           # 64 KB of values: nothing copied
    as_written, _ = _build(k.histogram_bins, HISTOGRAM, (4096,), launched=False)
    assert not as_written.tma_loads and as_written.threads == 128


@needs_tileiras
def test_the_atomics_copy_estimates_match_what_tileiras_builds():
    k = _kernels("kernels_estimate.py")
    builds = [(k.histogram_bins, HISTOGRAM, (4096,))] + \
             [(k.scatter_rows_add, SCATTER.format(rows=r), (65536 // r,)) for r in (4, 32, 64)]
    for kernel, spec, grid in builds:
        for launched in (True, False):
            est, compiled = _build(kernel, spec, grid, launched)
            assert bool(est.tma_loads) == bool(_cubin(compiled).tma_loads), (kernel.__name__, spec, launched)


def test_16_bit_rows_widened_on_the_way_are_loaded_one_at_a_time():
    f16, _ = _build(_kernels().row_softmax, ROWS.format(t="f16"), (8192,), launched=False)
    f32, _ = _build(_kernels().row_softmax, ROWS.format(t="f32"), (8192,), launched=False)
    assert f16.loads_in_flight == 1                           # load, convert, next load
    assert f32.loads_in_flight == 1024 // 128                 # a thread's whole share of the row at once


@needs_tileiras
def test_the_loads_in_flight_estimate_matches_what_tileiras_builds():
    for t in ("f16", "f32"):
        est, compiled = _build(_kernels().row_softmax, ROWS.format(t=t), (8192,), launched=False)
        assert est.loads_in_flight == pytest.approx(_cubin(compiled).loads_in_flight)


def test_a_gather_along_rows_loads_vectors_only_from_an_aligned_offset():
    aligned, _ = _build(_kernels().row_copy, ROWS.format(t="f16") + ", True", (8192,), launched=True)
    shifted, _ = _build(_kernels().shifted_copy, f"f32[{(1 << 20) + 1}], f32[{(1 << 20) + 1}], 1024", (1024,),
                        launched=True)
    assert aligned.global_load_bytes == 16                    # row * 1024 + arange: a multiple of 8 halves
    assert shifted.global_load_bytes == 4                     # bid * 1024 + 1 + arange: one float at a time


@needs_tileiras
def test_the_gather_width_estimates_match_what_tileiras_builds():
    for kernel, spec, grid in ((_kernels().row_copy, ROWS.format(t="f16") + ", True", (8192,)),
                               (_kernels().shifted_copy, f"f32[{(1 << 20) + 1}], f32[{(1 << 20) + 1}], 1024", (1024,))):
        est, compiled = _build(kernel, spec, grid, launched=True)
        assert est.global_load_bytes == _cubin(compiled).global_load_bytes


def test_scalar_code_is_estimated_to_run_one_warp():
    k = _kernels()
    est, _ = _build(k.until_limit, "f32[65536], f32[8192], i32, 1024", (8,), launched=False)
    assert est.threads == 128
    scalar, _ = _build(k.reverse_masked, "i32[1], i32[1], i32, 1", (1,), launched=False)
    assert scalar.threads == 32


def test_without_a_cubin_the_model_runs_on_the_estimate():
    h200 = gpu_named("h200")
    compiled = tilescope.compile(_example("vector_add.py", "vector_add"), as_launched(parse_args(VECTOR_ADD)))
    counts = count(compiled.final, normalize_grid((4096,)))
    alone = predict(counts, h200, tma=True)
    given = predict(count(compiled.final, normalize_grid((4096,))), h200, tma=True, facts=estimate_facts(counts, True))
    assert alone.schedule == "estimated from the IR" and given.schedule == "from the cubin"
    assert alone.predicted_us == pytest.approx(given.predicted_us) and alone.blocks_per_sm == given.blocks_per_sm


@needs_tileiras
def test_the_block_size_estimate_of_scalar_code_matches_what_tileiras_builds():
    est, compiled = _build(_kernels().reverse_masked, "i32[1], i32[1], i32, 1", (1,), launched=False)
    assert est.threads == _cubin(compiled).threads == 32


F32_MATMUL = "f32[2048,2048], f32[2048,2048], f32[2048,2048], 64, 64, 32"


def test_a_float32_mma_too_large_for_the_registers_is_estimated_to_spill():
    est, _ = _build(_example("matmul.py", "matmul"), F32_MATMUL, (32, 32), launched=False)
    # 64×64 accumulator and 64×32 + 32×64 operands over 256 threads: 16 × 16 words a thread
    assert est.threads == 256 and est.registers == 255 and est.local_loads == 16 * 16
    small, _ = _build(_example("matmul.py", "matmul"), F32_MATMUL.replace("64, 64, 32", "32, 32, 32"), (64, 64),
                      launched=False)
    assert small.local_loads == 0 and small.threads == 128


@needs_tileiras
def test_the_float32_spill_estimate_matches_what_tileiras_builds():
    est, compiled = _build(_example("matmul.py", "matmul"), F32_MATMUL, (32, 32), launched=False)
    real = _cubin(compiled)
    assert real.threads == est.threads and real.registers == est.registers
    assert 0.5 * real.local_loads <= est.local_loads <= 2 * real.local_loads


PERSISTENT = ("f16[16384,1024], f16[16384,1024], 16384, 1024", "f32[16384,2048], f32[16384,2048], 16384, 2048",
              "f16[16384,4096], f16[16384,4096], 16384, 4096")


def test_a_persistent_row_loop_is_estimated_to_hold_several_rows_in_registers():
    plain, _ = _build(_kernels().row_softmax, "f16[16384,1024], f16[16384,1024], 1024", (16384,), launched=False)
    regs = [_build(_kernels().persistent_rows, spec, (264,), launched=False)[0].registers for spec in PERSISTENT]
    assert regs[0] > 2 * plain.registers                      # the same row, walked by the grid's stride
    assert regs == sorted(regs) and regs[-1] == 255           # more with the row, up to the ceiling


@needs_tileiras
def test_the_persistent_register_estimate_matches_what_tileiras_builds():
    for spec in PERSISTENT:
        est, compiled = _build(_kernels().persistent_rows, spec, (264,), launched=False)
        real = _cubin(compiled)
        assert est.threads == real.threads and abs(est.registers - real.registers) <= 0.25 * real.registers
