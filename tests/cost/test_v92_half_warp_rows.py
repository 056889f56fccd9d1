"""Model version 92 (docs/cost-model.md history 157): the width the cubin gives an access's own kind
(version 83) also decides whether a tile of 16 to 31 rows is walked element by element. Set AW's
causal segment mask stores (16, 64) bfloat16 tiles two bytes a lane beside 8-byte position loads;
the code's mean, 5.2 bytes an access, had taken the store for vectors and charged it no lines (0.22x)."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import model, row_lines
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_half_warp.py"))
H100 = gpu_named("h100")
# the dynamic build's facts: one 8-byte LDG an element of the positions, one 2-byte STG an element
WALKED = CubinFacts("position_mask", threads=128, registers=28, shared_bytes=0, local_bytes=0, instructions=376,
                    global_loads=9, global_stores=8, local_loads=0, local_stores=0, tma_loads=0, tma_stores=0,
                    global_access_bytes=(9 * 8 + 8 * 2) / 17, loads_in_flight=1.8, global_load_bytes=8.0)


def _counts(rows):
    return tilescope.cost(KERNELS.position_mask, f"i64[4096], bf16[4096,4096], {rows}, 64",
                          (4096 // rows, 64, 1), "h100").counts


def _store(counts):
    return next(a for a in counts.accesses if a.kind == "store")


def test_a_half_warp_of_rows_takes_its_own_kinds_width():
    store = _store(_counts(16))
    mean = model.vector_width(_counts(16), WALKED)
    assert mean >= row_lines.VECTOR_WIDTH                       # the code's mean says vectors
    assert row_lines.access_width(store, WALKED, mean) == pytest.approx(1.0)
    assert row_lines.row_lines(store, 1.0, False) > 0


def test_fewer_rows_keep_the_codes_mean():
    store = _store(_counts(8))
    mean = model.vector_width(_counts(8), WALKED)
    assert row_lines.access_width(store, WALKED, mean) == mean


def test_the_walked_store_is_charged_its_lines():
    counts = _counts(16)
    walked = model.predict(counts, H100, facts=WALKED)
    vectors = model.predict(counts, H100, facts=dataclasses.replace(WALKED, global_access_bytes=16.0,
                                                                       global_load_bytes=16.0))
    assert walked.terms["memory"] > 2 * vectors.terms["memory"]
