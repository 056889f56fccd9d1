"""Model version 83: where each lane takes a row of its own, an access's instruction width is its
kind's (the code's LDGs for reads, its STGs for writes) over its element size, not the mean over
every access: set AM's causal segment mask loads 8-byte positions and stores 16-bit values two
bytes a lane, and the mean (2.3 elements) had taken the store for vectors and charged it no lines
(0.47x; docs/cost-model.md history 138)."""
import dataclasses

import pytest

import tilescope
from tilescope.costmodel import model, row_lines
from tilescope.costmodel.cubin_facts import CubinFacts
from tests.cost.test_v81_row_walks import H100, KERNELS

# set AM's causal segment mask as built for dynamic shapes: 18 eight-byte LDGs, 8 two-byte STGs
MASK = CubinFacts("masked_tile", threads=128, registers=36, shared_bytes=0, local_bytes=0, instructions=456,
                  global_loads=18, global_stores=8, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                  global_access_bytes=(18 * 8 + 8 * 2) / 26, loads_in_flight=2.0, global_load_bytes=8.0,
                  local_load_waits=0, reload_bytes=0, loop_instructions=0)


def _counts(t=32):
    return tilescope.cost(KERNELS.masked_tile, f"i64[512], bf16[32, 512, 512], {t}", (32, 512 // t, 512 // t),
                          "h100", aligned=False).counts


def test_each_kind_has_its_own_width():
    counts = _counts()
    store = next(a for a in counts.accesses if a.kind == "store")
    load = next(a for a in counts.accesses if a.kind == "load")
    mean = model.vector_width(counts, MASK)
    assert mean >= row_lines.VECTOR_WIDTH                       # the mean takes the store for vectors
    assert row_lines.access_width(store, MASK, mean) == pytest.approx(1.0)
    assert row_lines.access_width(load, MASK, mean) == mean         # a one-row tile: the mean, as before
    vectors = dataclasses.replace(MASK, global_access_bytes=(18 * 8 + 8 * 16) / 26)
    assert row_lines.access_width(store, vectors, mean) == pytest.approx(8.0)


def test_the_narrow_store_is_charged_its_lines():
    counts = _counts()
    store = next(a for a in counts.accesses if a.kind == "store")
    p = model.predict(counts, H100, facts=MASK)
    lines = row_lines.row_lines(store, 1.0, False)
    assert lines == store.executions * store.elements / 32 * 32       # 32 rows a warp instruction, a line each
    held = p.blocks_per_sm
    assert p.terms["memory"] >= row_lines.row_lines_us([(store, lines)], H100, H100.sms * held, MASK, held)
