"""Typing rules of tile creation (tilescope/ops/creation.py): arange, full, zeros, ones, astile."""
import itertools
import textwrap

import pytest

import tilescope
from tilescope.errors import TileTypeError
from tilescope.lang.shim import load_file

_counter = itertools.count()


def compile_body(tmp_path, body, args, params="out, s"):
    path = tmp_path / f"k{next(_counter)}.py"
    path.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef k(" + params + "):\n"
                    + textwrap.indent(textwrap.dedent(body), "    "))
    return tilescope.compile(load_file(str(path)).k, args)


def ops_named(compiled, name):
    return [op for op in compiled.ir.walk() if op.name == name]


def store(expr, index="(0,)"):
    return f"ct.store(out, index={index}, tile={expr})"


# ---- arange ------------------------------------------------------------------

@pytest.mark.parametrize("dtype,args,count_dtype", [("ct.int64", "i64[64], i32", "int64"),
                                                    ("ct.float32", "f32[64], i32", "int32"),
                                                    ("ct.bool_", "bool[64], i32", "int32")])
def test_arange_counts_in_integers(tmp_path, dtype, args, count_dtype):
    c = compile_body(tmp_path, store(f"ct.arange(64, dtype={dtype})"), args)
    (op,) = ops_named(c, "arange")
    assert op.result.type.dtype.name == count_dtype and op.result.type.shape == (64,)
    assert not ops_named(c, "binary")          # start=0, step=1 emit nothing


def test_arange_start_and_step(tmp_path):
    c = compile_body(tmp_path, store("ct.arange(64, dtype=ct.float32, start=s, step=0.25)"), "f32[64], i32")
    assert [op.attrs["fn"] for op in ops_named(c, "binary")] == ["mul", "add"]
    assert ops_named(c, "astype")[-1].result.type.dtype.name == "float32"   # the run-time int32 start
    assert c.stored_types() == ["Tile[float32,(64)]"]


@pytest.mark.parametrize("call,msg", [
    ("ct.arange(48, dtype=ct.int32)", "power of 2, got 48"),
    ("ct.arange(s, dtype=ct.int32)", "Expected an integer constant, but given value is not constant"),
    ("ct.arange(True, dtype=ct.int32)", "integer constant"),
    ("ct.arange(64, dtype=ct.bool_, step=2)", "does not support bool"),
    ("ct.arange(64, dtype=3)", "dtype"),
])
def test_arange_errors(tmp_path, call, msg):
    with pytest.raises(TileTypeError, match=msg):
        compile_body(tmp_path, store(call), "i32[64], i32")


# ---- full / zeros / ones -----------------------------------------------------

def test_full_constant_is_a_splat_without_range_check(tmp_path):
    c = compile_body(tmp_path, store("ct.full(16, 300, dtype=ct.int8)"), "i8[16], i32")
    assert [op.attrs["value"] for op in ops_named(c, "const")][0] == 300 - 256   # wraps like the hardware
    assert c.stored_types() == ["Tile[int8,(16)]"]


def test_full_runtime_value_is_converted_and_broadcast(tmp_path):
    c = compile_body(tmp_path, store("ct.full((8, 4), s, ct.float16)", "(0, 0)"), "f16[8,4], i32")
    assert ops_named(c, "astype")[0].result.type.dtype.name == "float16"
    assert ops_named(c, "broadcast")[-1].result.type.shape == (8, 4)


def test_zeros_ones_and_empty_shape(tmp_path):
    c = compile_body(tmp_path, store("ct.zeros((4,), ct.bfloat16) + ct.ones(4, ct.bfloat16)") + "\n"
                     + store("ct.full((), 1.0, ct.bfloat16)"), "bf16[4], i32")
    assert c.stored_types() == ["Tile[bfloat16,(4)]", "Tile[bfloat16,(1)]"]


@pytest.mark.parametrize("call,msg", [
    ("ct.full((3, 4), 1.0, ct.float32)", "power"),
    ("ct.full((0,), 1.0, ct.float32)", "positive"),
    ("ct.full((4,), ct.zeros((4,), ct.int32), ct.int32)", "0D tile"),
    ("ct.full((4,), None, ct.int32)", "0D tile"),
    ("ct.ones((out.shape[0],), ct.float32)", "Expected a constant integer tuple, but given value is not constant"),
])
def test_full_errors(tmp_path, call, msg):
    with pytest.raises(TileTypeError, match=msg):
        compile_body(tmp_path, store(call), "f32[64], i32")


# ---- astile ------------------------------------------------------------------

def test_astile_constant_tuple_is_a_literal(tmp_path):
    c = compile_body(tmp_path, store("ct.astile(((1, 2.5), (True, 4)), dtype=ct.int32)", "(0, 0)"),
                     "i32[2,2], i32")
    (op,) = ops_named(c, "literal_tile")
    assert op.attrs["values"] == (1, 2, 1, 4) and op.result.type.shape == (2, 2)


def test_astile_runtime_elements(tmp_path):
    c = compile_body(tmp_path, store("ct.astile((s, 1, s + 1, 2.0), dtype=ct.float32)"), "f32[4], i32")
    (op,) = ops_named(c, "from_scalars")
    assert [v.type.dtype.name for v in op.operands] == ["float32"] * 4
    assert c.stored_types() == ["Tile[float32,(4)]"]


def test_astile_scalar_converts(tmp_path):
    c = compile_body(tmp_path, store("ct.astile(s, dtype=ct.float16)"), "f16[1], i32")
    assert c.stored_types() == ["Tile[float16,(1)]"]


@pytest.mark.parametrize("value,msg", [
    ("((1, 2), (3,))", r"non-uniform inner shapes at value$"),
    ("((1, 2), (3, (4, 5)))", r"non-uniform inner shapes at value\[1\]"),
    ("(1, 2, 3)", "Tuple length 3 at value is not a power of 2"),
    ("()", "Tuple length 0"),
    ("(ct.zeros((2,), ct.int32), s)", r"scalar elements at value\[0\]; got a tile of shape \(2,\)"),
    ("ct.zeros((2,), ct.int32)", "scalar or \\(possibly nested\\) tuple"),
])
def test_astile_errors(tmp_path, value, msg):
    with pytest.raises(TileTypeError, match=msg):
        compile_body(tmp_path, store(f"ct.astile({value}, dtype=ct.int32)"), "i32[4], i32")
