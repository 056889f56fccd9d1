"""Model version 51: without a cubin, a kernel whose tile products are no larger than one warp's
smallest tensor-core product (16x8 accumulator elements) is estimated as plain code, not at the
register ceiling of a product pipeline."""
import os

import pytest

import tilescope
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import as_launched, read_cubin_facts, _aligned_by_metadata
from tilescope.costmodel.counts import count
from tilescope.costmodel.cubin_facts import MAX_REGISTERS
from tilescope.costmodel.estimated_facts import WARP_FRAGMENT, estimate_facts
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_estimate.py"))
needs_tileiras = pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")


def _build(tm, tn, tk, dtype="f16", launched=False):
    specs = parse_args(f"{dtype}[4096,4096], {dtype}[4096,4096], f32[4096,4096], {tm}, {tn}, {tk}")
    compiled = tilescope.compile(KERNELS.small_products, as_launched(specs) if launched else specs)
    counts = count(compiled.final, normalize_grid((4096 // tm, 4096 // tn)))
    return estimate_facts(counts, _aligned_by_metadata(compiled.args)), compiled


def test_a_product_within_one_warps_fragment_is_estimated_as_plain_code():
    assert WARP_FRAGMENT == 128
    for tm, tn in ((4, 4), (8, 8), (16, 8)):            # 16 to 128 accumulator elements
        est, _ = _build(tm, tn, 16)
        assert est.threads == 128 and est.registers < 64
    larger, _ = _build(16, 16, 16)                      # 256 elements: a product pipeline
    assert larger.registers == MAX_REGISTERS


def test_a_build_the_accelerator_feeds_stays_at_the_ceiling():
    est, _ = _build(8, 8, 16, launched=True)
    assert est.threads == 256 and est.registers == MAX_REGISTERS


@needs_tileiras
@pytest.mark.parametrize("dtype", ["f16", "f32"])
def test_tileiras_builds_such_products_below_the_ceiling(dtype):
    for tm, tn in ((4, 4), (8, 8), (16, 8)):
        est, compiled = _build(tm, tn, 16, dtype)
        real = read_cubin_facts(compiled.cubin("sm_90"))
        assert real.threads == est.threads == 128
        assert real.registers < MAX_REGISTERS / 2 and est.registers < MAX_REGISTERS / 2
    _, compiled = _build(64, 64, 32, "f16")
    assert read_cubin_facts(compiled.cubin("sm_90")).registers > MAX_REGISTERS * 3 / 4
