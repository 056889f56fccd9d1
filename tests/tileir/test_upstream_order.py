"""Upstream's op sequences where tilescope once wrote the same values otherwise (the TileIR text
reaches the cubin under `--lineinfo`, and a different order can change tileiras's schedule):
Python's float `r != 0` in a modulo is unordered, an unsigned modulo keeps the sign fix,
argmax/argmin tie two NaNs by index, a multi-axis reduction goes smallest axis first, `astile`
of run-time scalars concatenates halves, gather/atomic indices are widened before they are
broadcast, and a `for` that breaks carries a done flag (tests/tileir/kernels_order.py)."""
import re
from pathlib import Path

import numpy as np
import pytest

import tilescope
from tilescope.backends.numpy import launcher
from tilescope.backends.tileir import find_toolchain, normalize_names
from tilescope.ir.core import clone_function
from tilescope.lang.shim import load_file, upstream_available
from tilescope.passes.for_break import lower_for_breaks
from tilescope.passes.loop_split import split_loops

KERNELS = Path(__file__).with_name("kernels_order.py")
MOD = load_file(str(KERNELS))
SPEC = {"float_mod": "f32[16], f32[16]", "unsigned_mod": "u8[16], u8[16]", "arg_best": "f32[8,16], i32[16]",
        "sum_two_axes": "f32[4,8,16], f32[8]", "tile_of_scalars": "i32[4], i32, i32",
        "for_with_break": "f32[128], f32[16], i32", "gather_broadcast": "f32[64,64], f32[16,16]",
        "atomic_broadcast": "i32[16,16]"}
TOOLCHAIN = find_toolchain(required=False)


def _text(name):
    return tilescope.compile(getattr(MOD, name), SPEC[name], tileiras_version="13.4").tileir_text()


def _ops(text, name):
    return [line.strip() for line in text.splitlines() if re.search(rf"= {name} |^\s*{name} ", line)]


def test_float_modulo_tests_the_remainder_unordered():
    ne = [c for c in _ops(_text("float_mod"), "cmpf") if "not_equal" in c]
    assert len(ne) == 1 and "unordered" in ne[0]


def test_unsigned_modulo_keeps_the_sign_fix():
    text = _text("unsigned_mod")
    assert len(_ops(text, "remi")) == 1 and len(_ops(text, "select")) == 1
    assert all("unsigned" in c for c in _ops(text, "cmpi"))


def test_arg_reductions_tie_two_nans():
    text = _text("arg_best")
    assert len(_ops(text, "xori")) == 0
    assert len(_ops(text, "cmpf")) == 2 * 5         # better, equal, two NaN tests, one not-NaN test


def test_axes_reduced_smallest_first():
    dims = [int(d) for d in re.findall(r"reduce .* dim=(\d+)", _text("sum_two_axes"))]
    assert dims == [0, 1]                           # axis 0, then axis 2 (now 1)


def test_astile_concatenates_halves():
    text = _text("tile_of_scalars")
    assert len(_ops(text, "cat")) == 3 and not _ops(text, "iota") and not _ops(text, "select")


@pytest.mark.parametrize("name", ["gather_broadcast", "atomic_broadcast"])
def test_indices_widened_before_broadcast(name):
    exts = _ops(_text(name), "exti")
    assert any("tile<16x1xi32> -> tile<16x1xi64>" in e for e in exts)
    assert any("tile<1x16xi32> -> tile<1x16xi64>" in e for e in exts)


def test_for_with_break_keeps_a_for():
    text = _text("for_with_break")
    assert "loop iter_values" not in text and len(re.findall(r"= for ", text)) == 2     # and split


@pytest.mark.parametrize("limit", [-1, 0, 2, 3, 5, 8, 12])
def test_done_flag_and_split_compute_the_same(limit, monkeypatch):
    x = np.random.RandomState(1).standard_normal(128).astype(np.float32)
    ref = np.zeros(16, np.float32)
    tilescope.launch((1,), MOD.for_with_break, (x, ref, limit))
    real = launcher.compile_for

    def rewritten(fn, specs):
        c = real(fn, specs)
        final = clone_function(c.final)
        lower_for_breaks(final)
        c.final = split_loops(final)
        return c
    monkeypatch.setattr(launcher, "compile_for", rewritten)
    got = np.zeros(16, np.float32)
    tilescope.launch((1,), MOD.for_with_break, (x, got, limit))
    assert got.tobytes() == ref.tobytes()


@pytest.mark.skipif(TOOLCHAIN is None or not upstream_available(), reason="needs tileiras and cuda-tile")
def test_same_tileir_as_upstream(tmp_path):
    from tests.oracle.upstream_export import tileir_texts

    texts = tileir_texts(TOOLCHAIN, "order", MOD, KERNELS, SPEC, "13.4", str(tmp_path))
    for kernel, (ours, theirs) in texts.items():
        assert normalize_names(ours) == normalize_names(theirs), kernel
