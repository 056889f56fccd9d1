"""Model version 46: an element-by-element gather or scatter along the rows of an index tile of
several rows spreads a warp instruction's lanes down min(rows, 32) of them, and the cache lines each
request touches are handled in turn: gathers at one rate, scatters (partial lines written on to L2)
at a lower one that rises with the bytes each line gets, the two overlapping."""
import math
import os

import pytest

import tilescope
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import row_lines
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_cost.py"))
needs_tileiras = pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")
SIDE = 8192
ELEMENTS = SIDE * SIDE


def _copy(dtype, tm, tn, aligned=False, cubin=None):
    spec = f"{dtype}[{SIDE},{SIDE}], {dtype}[{SIDE},{SIDE}], {tm}, {tn}"
    return tilescope.cost(KERNELS.block_gather_copy, spec, (SIDE // tm, SIDE // tn), "h200", aligned=aligned,
                          cubin=cubin)


def _lined(r):
    return [a for a in r.counts.accesses if a.kind in ("gather", "scatter")]


def test_a_warp_instruction_touches_a_line_in_each_row_its_lanes_cover():
    for dtype, tm, tn, per_instruction, run in (("f32", 32, 32, 32, 4), ("f32", 64, 16, 32, 4),
                                               ("f32", 8, 128, 8, 16), ("bf16", 8, 256, 8, 8)):
        r = _copy(dtype, tm, tn)
        for a in _lined(r):
            assert a.contiguous and a.rows == tm
            assert row_lines.line_run(a) == run                      # 32 // min(rows, 32) lanes on a row
            assert row_lines.row_lines(a, 1.0, False) == ELEMENTS / 32 * per_instruction


def test_the_time_follows_the_lines_not_the_bytes():
    # rows of float32 and bfloat16 at 32 rows a tile: the same lines, half the bytes
    f32, bf16 = _copy("f32", 32, 32), _copy("bf16", 32, 64)
    assert f32.prediction.terms["memory"] == pytest.approx(bf16.prediction.terms["memory"], rel=0.12)
    # halving the rows halves the lines a warp instruction touches, and the time with them
    rows32, rows16 = f32.prediction.terms["memory"], _copy("f32", 16, 64).prediction.terms["memory"]
    assert 1.8 < rows32 / rows16 < 2.4


def test_gathers_and_scatters_overlap_and_a_scatter_line_costs_more():
    r = _copy("f32", 32, 32)
    gather, scatter = sorted(_lined(r), key=lambda a: a.kind)
    clocks = 132 * 1.98e9
    pairs = {a.kind: (a, row_lines.row_lines(a, 1.0, False)) for a in (gather, scatter)}
    alone = {kind: row_lines.row_lines_us([pair], r.prediction.gpu) for kind, pair in pairs.items()}
    assert alone["scatter"] > 3 * alone["gather"]                  # partial lines written on to L2
    both = row_lines.row_lines_us(list(pairs.values()), r.prediction.gpu)
    assert max(alone.values()) < both < sum(alone.values())
    assert both == pytest.approx(math.hypot(*alone.values()))
    # the gathers at 0.87 lines a clock on each of the H200's 132 SMs
    assert alone["gather"] == pytest.approx(ELEMENTS / clocks / row_lines.READ_LINES_PER_SM_CLK * 1e6, rel=0.02)


def test_vector_loads_of_a_launch_are_charged_the_dram_rate():
    dynamic, launched = _copy("f32", 32, 32), _copy("f32", 32, 32, aligned=True)
    dram_us = 2 * ELEMENTS * 4 / (4.8e12 * 0.9) * 1e6
    assert launched.prediction.terms["memory"] < 1.3 * dram_us
    assert dynamic.prediction.terms["memory"] > 3 * launched.prediction.terms["memory"]


@needs_tileiras
def test_tileiras_builds_the_dynamic_copy_element_by_element_and_the_launch_in_vectors():
    for aligned, width in ((False, 4), (True, 16)):
        facts = _copy("f32", 32, 32, aligned=aligned, cubin=True).prediction.cubin
        assert facts.global_load_bytes == width and facts.global_access_bytes == width


def test_rows_closer_than_a_line_share_it_even_from_a_start_the_data_gives():
    r = tilescope.cost(KERNELS.packed_rows_scatter, "u8[1048576], i32[1024], 128, 4", (1024,), "h200",
                       aligned=False)
    scatter = next(a for a in r.counts.accesses if a.kind == "scatter")
    # 32 lanes down 32 rows of 4 bytes, back to back: 128 bytes, one line (at most two unaligned)
    assert 1 <= scatter.line_count <= 2
    assert row_lines.row_lines(scatter, 1.0, False) == 1024 * 128 * 4 / 32 * scatter.line_count
    spread = tilescope.cost(KERNELS.block_gather_copy, "u8[8192,8192], u8[8192,8192], 128, 4", (64, 2048), "h200",
                            aligned=False)
    assert next(a for a in spread.counts.accesses if a.kind == "scatter").line_count == 32   # rows 8 KB apart


def _cast(src, dst, rows, cols, tm, tn, aligned=False):
    spec = f"{src}[{rows},{cols}], {dst}[{rows},{cols}], {tm}, {tn}"
    return tilescope.cost(KERNELS.cast_copy, spec, (rows // tm, cols // tn), "h200", aligned=aligned)


def test_element_by_element_tile_copies_take_their_lines_whatever_the_dtype():
    f32, bf16 = _cast("f32", "f32", 8192, 4096, 32, 64), _cast("bf16", "bf16", 8192, 4096, 32, 64)
    for r in (f32, bf16):
        assert all(row_lines.row_lines(a, 1.0, False) == 8192 * 4096 / 32 * 32 for a in r.counts.accesses)
    # the same lines, half the bytes: about the same time (measured 600 and 518 us)
    assert f32.prediction.terms["memory"] == pytest.approx(bf16.prediction.terms["memory"], rel=0.12)
    assert 450 < bf16.prediction.terms["memory"] < 700


def test_a_tile_converted_to_float8_is_stored_along_its_rows():
    to_fp8, to_bf16 = _cast("bf16", "f8e4m3fn", 8192, 4096, 32, 64), _cast("bf16", "bf16", 8192, 4096, 32, 64)
    store = next(a for a in to_fp8.counts.accesses if a.kind == "store")
    assert row_lines.along_rows(store) and row_lines.row_lines(store, 1.0, False) == 8192 * 4096 / 32   # a line an instruction
    # measured 154 against 518 us: the copy to float8 takes about its loads' time alone
    assert to_fp8.prediction.terms["memory"] < 0.4 * to_bf16.prediction.terms["memory"]


@needs_tileiras
def test_tileiras_converts_layouts_through_shared_memory_only_at_one_byte():
    for src, dst, staged in (("bf16", "f8e4m3fn", True), ("f32", "u8", True), ("i8", "bf16", True),
                             ("u8", "u8", False), ("bf16", "f32", False)):
        spec = f"{src}[8192,4096], {dst}[8192,4096], 32, 64"
        facts = tilescope.cost(KERNELS.cast_copy, spec, (256, 64), "h200", aligned=False, cubin=True).prediction.cubin
        assert (facts.shared_bytes > 0) == staged, (src, dst)


def test_rows_back_to_back_share_their_lines():
    narrow = _cast("bf16", "bf16", 1 << 20, 2, 64, 2)           # rows of 4 bytes: a warp's 32 rows in one line
    load = next(a for a in narrow.counts.accesses if a.kind == "load")
    assert load.spans_rows and row_lines.row_lines(load, 1.0, False) == (1 << 21) / 32 * 1
