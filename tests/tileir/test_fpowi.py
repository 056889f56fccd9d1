"""`x ** n` for a float tile and an integer n is an integer power (fpowi) from bytecode 13.4 on, as
upstream writes it: the exponent keeps an integer type (the narrowest of i8/i16/i32 holding its
dtype; an int64 or uint32 exponent, a float one or an older target convert it to float: fpowf)."""
import re
from pathlib import Path

import numpy as np
import pytest

import tilescope
from tilescope.backends.tileir import find_toolchain
from tilescope.lang.shim import load_file, upstream_available

KERNELS = Path(__file__).with_name("kernels_pow.py")
MOD = load_file(str(KERNELS))
TOOLCHAIN = find_toolchain(required=False)


def _text(name, spec, version="13.4"):
    return tilescope.compile(getattr(MOD, name), spec, tileiras_version=version).tileir_text()


@pytest.mark.parametrize("x, n, exponent", [("f32", "i32", "i32"), ("f32", "i8", "i8"), ("bf16", "u8", "i16"),
                                            ("f16", "u16", "i32"), ("f64", "i16", "i16")])
def test_integer_tile_exponent(x, n, exponent):
    text = _text("pow_int_tile", f"{x}[64], {n}[64], {x}[64]")
    assert re.search(rf"fpowi %\S+, %\S+ : tile<64x\w+>, tile<64x{exponent}>", text), text
    assert "fpowf" not in text and "itof" not in text
    assert ("exti" in text) == (n[0] == "u")          # an unsigned exponent widens to a signed type


@pytest.mark.parametrize("n", ["i64", "u32"])
def test_exponent_too_wide_for_i32_is_converted(n):
    text = _text("pow_int_tile", f"f32[64], {n}[64], f32[64]")
    assert "fpowf" in text and "itof" in text and "fpowi" not in text


def test_literal_exponent_is_an_integer_splat_and_a_float_base_stays_fpowf():
    text = _text("pow_literal", "f32[64], f32[64]")
    assert re.search(r"constant <i32: 3> : tile<64xi32>", text)
    assert text.count("fpowi") == 1 and text.count("fpowf") == 1       # 2.0 ** a: a float exponent


def test_float_exponent_and_older_target_use_fpowf():
    assert "fpowi" not in _text("pow_float_literal", "f32[64], f32[64]")
    assert "fpowi" not in _text("pow_int_tile", "f32[64], i32[64], f32[64]", version="13.3")
    assert "fpowi" in _text("pow_function", "f32[64], i32[64], f32[64]")


def test_cpu_executor_result():
    x = np.linspace(-2, 2, 64, dtype=np.float32)
    n = np.arange(64, dtype=np.int32) % 7 - 3
    y = np.zeros(64, np.float32)
    tilescope.launch((1,), MOD.pow_int_tile, (x, n, y))
    np.testing.assert_allclose(y, x.astype(np.float64) ** n, rtol=1e-6)


@pytest.mark.skipif(TOOLCHAIN is None or not upstream_available(), reason="needs tileiras and cuda-tile")
def test_same_tileir_as_upstream(tmp_path):
    from tests.oracle.upstream_export import tileir_texts

    spec = {"pow_int_tile": "bf16[64], u8[64], bf16[64]", "pow_literal": "f32[64], f32[64]",
            "pow_function": "f32[64], i64[64], f32[64]"}
    texts = tileir_texts(TOOLCHAIN, "pow", MOD, KERNELS, spec, "13.4", str(tmp_path))
    for kernel, (ours, theirs) in texts.items():
        assert _ops(ours) == _ops(theirs), kernel


def _ops(text):
    return [re.sub(r"%[\w#]+", "%v", line.strip()) for line in text.splitlines() if line.strip()]
