"""Model version 16, the IR-only estimate (costmodel/estimated_facts.py): rules read from the
validation cubins, checked here on small kernels against the facts of the cubins tileiras builds
for the same IR (when it is installed)."""
import os

import pytest

import tilescope
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import _aligned_by_metadata, as_launched, read_cubin_facts
from tilescope.costmodel.counts import count
from tilescope.costmodel.estimated_facts import estimate_facts, occupancy_hint
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
needs_tileiras = pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")


def _kernels():
    return load_file(os.path.join(ROOT, "tests", "cost", "kernels_estimate.py"))


def _build(kernel, spec, grid, launched=True):
    """(estimate, compiled) for the kernel as a launch builds it, or as written (dynamic shapes)."""
    specs = parse_args(spec)
    compiled = tilescope.compile(kernel, as_launched(specs) if launched else specs)
    counts = count(compiled.final, normalize_grid(grid))
    counts.occupancy = occupancy_hint(compiled.options or {}, "sm_90")
    return estimate_facts(counts, _aligned_by_metadata(compiled.args)), compiled


OCCUPANCY = [("softmax_occupancy2", "f32[16384,4096], f32[16384,4096], 4096", 128),
             ("row_mean_occupancy8", "f32[16384,2048], f32[16384], 2048", 32)]


@pytest.mark.parametrize("name, spec, registers", OCCUPANCY)
def test_an_occupancy_hint_lowers_the_register_ceiling_of_accelerator_fed_row_kernels(name, spec, registers):
    # a row kernel the accelerator feeds takes every register it may: with `occupancy=N`, what N
    # blocks of 256 threads leave a thread (the validation cubins: 128 at 2, 80 at 3, 64 at 4, 32 at 8)
    est, _ = _build(getattr(_kernels(), name), spec, (16384,))
    assert est.threads == 256 and est.tma_loads + est.tma_stores >= 1
    assert est.registers == registers


@needs_tileiras
@pytest.mark.parametrize("name, spec, registers", OCCUPANCY)
def test_the_occupancy_estimate_matches_the_cubin(name, spec, registers):
    est, compiled = _build(getattr(_kernels(), name), spec, (16384,))
    real = read_cubin_facts(compiled.cubin("sm_90"))
    assert real.threads == est.threads
    assert real.registers <= est.registers < 255 * 0.75     # the softmax takes all of them, the mean 25


PERSISTENT = [("persistent_scaled_rows", "f32[?,?], f32[?], f32[?,?], 4096, 16, 1024", 256),
              ("persistent_scaled_rows", "f64[?,?], f64[?], f64[?,?], 4096, 16, 512", 256),
              ("persistent_scaled_rows", "f32[?,?], f32[?], f32[?,?], 4096, 8, 1024", 128),
              ("persistent_two_tiles", "f64[?,?], f64[?,?], f64[?,?], 4096, 16, 512", 128)]
BUILT = PERSISTENT[1:]           # the 16x1024 float32 build takes tileiras ~15 s


@pytest.mark.parametrize("name, spec, threads", PERSISTENT)
def test_a_persistent_loop_keeping_a_broadcast_of_half_the_registers_gets_256_threads(name, spec, threads):
    # tileiras computes a weight row's broadcast against a block of rows once, before the loop: at
    # 128 words a thread of 128 (16 or 32 rows of 1024 or 512 floats) it doubles the block and spills;
    # at 64 words, or with nothing broadcast from outside the loop, 128 threads
    est, _ = _build(getattr(_kernels(), name), spec, (264,), launched=False)
    assert est.threads == threads
    assert (est.local_loads > 0) == (threads == 256)


@needs_tileiras
@pytest.mark.parametrize("name, spec, threads", BUILT)
def test_the_persistent_block_size_matches_the_cubin(name, spec, threads):
    est, compiled = _build(getattr(_kernels(), name), spec, (264,), launched=False)
    real = read_cubin_facts(compiled.cubin("sm_90"))
    assert real.threads == est.threads
    if threads == 256:
        assert real.local_loads > 0 and real.registers == est.registers == 255


GATHERED = [("f16[4096,8192], f32[4096], 0, 8192, 2048", 16), ("f16[4096,8192], f32[4096], 1, 8192, 2048", 2)]


@pytest.mark.parametrize("spec, width", GATHERED)
def test_a_gather_at_a_loop_counter_is_vectorised_when_the_counter_keeps_the_vector_aligned(spec, width):
    # the counter of `range(START, N, TILE)` takes START + k * TILE: aligned to 16 bytes when both are
    est, _ = _build(_kernels().row_sum_gathered, spec, (4096,))
    assert est.global_load_bytes == width


@needs_tileiras
@pytest.mark.parametrize("spec, width", GATHERED)
def test_the_gather_width_matches_the_cubin(spec, width):
    est, compiled = _build(_kernels().row_sum_gathered, spec, (4096,))
    assert read_cubin_facts(compiled.cubin("sm_90")).global_load_bytes == est.global_load_bytes
