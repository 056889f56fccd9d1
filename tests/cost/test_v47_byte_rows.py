"""Model version 47: element-by-element code lays a warp's lanes along the rows of a tile of 1-byte
elements (tileiras's listings: 64 neighbouring bytes of a row on 64 threads), where a tile of wider
elements takes a row a lane; so a copy of bytes touches a line or two an instruction, not 32."""
import os

import pytest

import tilescope
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import row_lines
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_cost.py"))
needs_tileiras = pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")


def _cast(src, dst, rows, cols, tm, tn):
    spec = f"{src}[{rows},{cols}], {dst}[{rows},{cols}], {tm}, {tn}"
    return tilescope.cost(KERNELS.cast_copy, spec, (rows // tm, cols // tn), "h200", aligned=False)


def _lines_per_instruction(r, kind):
    a = next(a for a in r.counts.accesses if a.kind == kind)
    return row_lines.row_lines(a, 1.0, False) / (a.executions * a.elements / 32)


@pytest.mark.parametrize("dtype", ["u8", "i8", "bool", "f8e4m3fn"])
def test_one_byte_tiles_take_a_line_per_row_their_lanes_reach(dtype):
    wide = _cast(dtype, dtype, 8192, 4096, 32, 64)            # 32 lanes inside one row of 64 bytes
    assert _lines_per_instruction(wide, "load") == _lines_per_instruction(wide, "store") == 1
    narrow = _cast(dtype, dtype, 8192, 4096, 64, 16)          # 16 bytes a row: a warp reaches two rows
    assert _lines_per_instruction(narrow, "load") == 2


def test_wider_tiles_keep_a_row_a_lane():
    for dtype in ("bf16", "f16", "f32", "i32"):
        r = _cast(dtype, dtype, 8192, 4096, 32, 64)
        assert not any(row_lines.along_rows(a) for a in r.counts.accesses)
        assert _lines_per_instruction(r, "load") == 32


def test_a_copy_of_bytes_moves_at_dram_rate():
    # measured on the H200: 70 us (32x64 tiles) and 64 us (16x64), the bfloat16 copy of the same
    # tiles 518 us (its lanes down 32 rows); the bytes' lines are few, so memory is the DRAM time
    for tm in (32, 16):
        u8, bf16 = _cast("u8", "u8", 8192, 4096, tm, 64), _cast("bf16", "bf16", 8192, 4096, tm, 64)
        dram_us = 2 * 8192 * 4096 / (4.8e12 * 0.8678) * 1e6
        assert u8.prediction.terms["memory"] == pytest.approx(dram_us, rel=0.1)
        assert u8.predicted_us < bf16.predicted_us / 4


@needs_tileiras
def test_with_its_cubin_a_copy_of_bytes_is_timed_by_its_loads_round_trips():
    spec = "u8[8192,4096], u8[8192,4096], 32, 64"
    r = tilescope.cost(KERNELS.cast_copy, spec, (256, 64), "h200", aligned=False, cubin=True)
    assert 50 < r.predicted_us < 90 and r.bound == "latency"         # measured 70 us
