"""A number literal's constant, in the literal's own type, is made where upstream evaluates the
literal: before the conversions and broadcasts its expression makes of the other operands (a
literal converted to another type is made where it is converted)."""
import re
from pathlib import Path

import pytest

import tilescope
from tilescope.backends.tileir import find_toolchain
from tilescope.lang.shim import load_file, upstream_available

KERNELS = Path(__file__).with_name("kernels_literals.py")
MOD = load_file(str(KERNELS))
SPEC = {"int_tile_plus_float": "i32[64], f32[64]", "arange_start_step": "f32[64]",
        "where_int_and_float": "i8[64], f32[64]", "two_atomics": "i32[?]:[1!], i32[?]:[1!]"}
TOOLCHAIN = find_toolchain(required=False)


def _ops(text):
    """The kernel body's ops as 'name' or 'constant <value>' (views and assumptions left out)."""
    out = []
    for line in text.splitlines():
        s = line.strip()
        s = s.split(" = ", 1)[1] if s.startswith("%") else s
        m = re.match(r"constant <\w+: ([^>]+)> : tile<(\w*)>", s)
        if m:
            out.append(f"constant {float(m.group(1))}")
        elif s and not s.startswith(("assume", "make_", "}", "entry", "return")):
            out.append(s.split(" ")[0])
    return out


def _text(name):
    return tilescope.compile(getattr(MOD, name), SPEC[name], tileiras_version="13.4").tileir_text()


def test_float_literal_before_the_conversion_of_the_int_tile():
    ops = _ops(_text("int_tile_plus_float"))
    assert ops.index("constant 0.5") < ops.index("itof") < ops.index("reshape")


def test_call_literals_in_source_order_before_the_calls_ops():
    ops = _ops(_text("arange_start_step"))
    assert ops.index("constant 0.5") < ops.index("constant 0.25") < ops.index("iota")


def test_a_converted_literal_is_made_where_it_is_converted():
    ops = _ops(_text("where_int_and_float"))
    assert ops.index("constant 2.0") < ops.index("constant 1.0") < ops.index("reshape")


def test_constants_made_at_the_top_stay_in_program_order():
    # each atomic's i64 unit stride (made while lowering it) comes before its value's splat
    tops = [(m.group(2), m.group(1)) for m in re.finditer(r"constant <(\w+): (\d+)> : tile<64x", _text("two_atomics"))]
    assert tops == [("1", "i64"), ("3", "i32"), ("1", "i64"), ("5", "i32")]


@pytest.mark.skipif(TOOLCHAIN is None or not upstream_available(), reason="needs tileiras and cuda-tile")
def test_same_order_as_upstream(tmp_path):
    from tests.oracle.upstream_export import tileir_texts

    texts = tileir_texts(TOOLCHAIN, "literals", MOD, KERNELS, SPEC, "13.4", str(tmp_path))
    for kernel, (ours, theirs) in texts.items():
        assert _ops(ours) == _ops(theirs), kernel
