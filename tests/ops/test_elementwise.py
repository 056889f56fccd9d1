"""Typing rules of element-wise ops (tilescope/ops/elementwise.py and ops/math.py)."""
import itertools
import textwrap

import pytest

import tilescope
from tilescope.errors import (TileInternalError, TileTypeError, TileUnsupportedFeatureError,
                              TileValueError)
from tilescope.enums import RoundingMode
from tilescope.lang.shim import load_file

_counter = itertools.count()


def compile_body(tmp_path, body, args, params="x, y"):
    """Compile `@ct.kernel def k(params): body` for the signature `args`."""
    path = tmp_path / f"k{next(_counter)}.py"
    if body.startswith(LOAD):
        body = LOAD + textwrap.dedent(body[len(LOAD):])
    path.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef k(" + params + "):\n"
                    + textwrap.indent(textwrap.dedent(body), "    "))
    return tilescope.compile(load_file(str(path)).k, args)


def ops_named(compiled, name):
    return [op for op in compiled.ir.walk() if op.name == name]


LOAD = "a = ct.load(x, index=(0,), shape=(64,))\n"


# ---- unary math ----------------------------------------------------------------

@pytest.mark.parametrize("fn", ["exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tan",
                                "sinh", "cosh", "tanh"])
def test_transcendentals_promote_ints_to_float32(tmp_path, fn):
    c = compile_body(tmp_path, LOAD + f"ct.store(y, index=(0,), tile=ct.{fn}(a))", "i16[64], f32[64]")
    assert [op.attrs["fn"] for op in ops_named(c, "unary")] == [fn]
    assert ops_named(c, "unary")[0].operands[0].type.dtype.name == "float32"
    assert c.stored_types() == ["Tile[float32,(64)]"]


@pytest.mark.parametrize("expr,args,msg", [
    ("ct.floor(a)", "i32[64], f32[64]", "Integer inputs are not supported"),
    ("ct.ceil(a)", "bool[64], f32[64]", "Boolean inputs are not supported"),
    ("ct.bitwise_not(a)", "f32[64], f32[64]", "Float inputs are not supported"),
    ("~a", "f16[64], f16[64]", "Float inputs are not supported"),
    ("ct.isnan(a)", "i32[64], bool[64]", "Unexpected input type"),
])
def test_unary_rejects_dtype(tmp_path, expr, args, msg):
    with pytest.raises(TileTypeError, match=msg):
        compile_body(tmp_path, LOAD + f"ct.store(y, index=(0,), tile={expr})", args)


@pytest.mark.parametrize("expr,args,stored", [
    ("-a", "bool[64], i32[64]", "Tile[int32,(64)]"),
    ("+a", "bool[64], i32[64]", "Tile[int32,(64)]"),
    ("+a", "f16[64], f16[64]", "Tile[float16,(64)]"),
    ("abs(a)", "bool[64], bool[64]", "Tile[bool_,(64)]"),
    ("-a", "f8e4m3fn[64], f8e4m3fn[64]", "Tile[float8_e4m3fn,(64)]"),
    ("ct.exp(a)", "f8e4m3fn[64], f8e4m3fn[64]", "Tile[float8_e4m3fn,(64)]"),
    ("not a", "i32[64], bool[64]", "Tile[bool_,(64)]"),
    ("~a", "bool[64], bool[64]", "Tile[bool_,(64)]"),
    ("ct.isnan(a)", "f16[64], bool[64]", "Tile[bool_,(64)]"),
])
def test_unary_result_types(tmp_path, expr, args, stored):
    c = compile_body(tmp_path, LOAD + f"ct.store(y, index=(0,), tile={expr})", args)
    assert c.stored_types() == [stored]


def test_isnan_is_self_inequality(tmp_path):
    c = compile_body(tmp_path, LOAD + "ct.store(y, index=(0,), tile=ct.isnan(a))", "f32[64], bool[64]")
    (op,) = ops_named(c, "compare")
    assert op.attrs["fn"] == "ne" and op.operands[0] is op.operands[1]


def test_unary_constants_fold(tmp_path):
    c = compile_body(tmp_path, """\
        v = ct.floor(2.5) + ct.sqrt(ct.int32(16)) + ct.bitwise_not(True)
        ct.store(y, index=(0,), tile=ct.full((64,), v, ct.float32))
        """, "f32[64], f32[64]")
    assert not ops_named(c, "unary") and not ops_named(c, "binary")
    assert 6.0 in [op.attrs["value"] for op in ops_named(c, "const")]


@pytest.mark.parametrize("expr,cls,msg", [
    ("ct.log(0)", TileValueError, "math domain error"),
    ("~True", TileTypeError, "please use ct.bitwise_not"),
])
def test_unary_constant_errors(tmp_path, expr, cls, msg):
    with pytest.raises(cls, match=msg):
        compile_body(tmp_path, f"ct.store(y, index=(0,), tile=ct.full((64,), {expr}, ct.float32))",
                     "f32[64], f32[64]")


# ---- rounding modes and flush-to-zero ----------------------------------------

@pytest.mark.parametrize("expr,args,cls,msg", [
    ("ct.exp(a, rounding_mode=ct.RoundingMode.RN)", "f32", TileTypeError, "not supported for exp"),
    ("ct.exp(a, rounding_mode=ct.RoundingMode.APPROX)", "f16", TileTypeError, "only be used for float32"),
    ("ct.sqrt(a, flush_to_zero=True)", "f16", TileTypeError, "Flush to zero can only be used for float32"),
    ("ct.log(a, flush_to_zero=True)", "f32", TileTypeError, "unexpected keyword"),
    ("ct.add(a, a, rounding_mode=ct.RoundingMode.APPROX)", "f32", TileTypeError, "not supported for add"),
    ("ct.add(a, a, rounding_mode=ct.RoundingMode.RZ)", "i32", TileTypeError, "unrestricted float"),
    ("ct.mul(a, a, flush_to_zero=True)", "i32", TileTypeError, "only be used for float32"),
    ("ct.exp2(a, flush_to_zero=1)", "f32", TileTypeError, "flush_to_zero"),
    ("ct.astype(a, ct.float16, rounding_mode=ct.RoundingMode.APPROX)", "f32", TileTypeError,
     "not supported for conversion"),
    ("ct.astype(a, ct.float8_e8m0fnu)", "f32", TileTypeError, "RN is not supported for conversion"),
    ("ct.astype(a, ct.float32, rounding_mode=ct.RoundingMode.RN)", "i32", TileTypeError,
     "only valid for float to float"),
])
def test_rounding_rules(tmp_path, expr, args, cls, msg):
    with pytest.raises(cls, match=msg):
        compile_body(tmp_path, LOAD + f"r = {expr}", f"{args}[64], f32[64]")


def test_rz_conversion_to_f16_follows_the_target(tmp_path, monkeypatch):
    body = LOAD + "r = a.astype(ct.float16, rounding_mode=ct.RoundingMode.RZ)"
    compile_body(tmp_path, body, "f32[64], f32[64]")            # the default target is the newest known
    monkeypatch.setenv("TILESCOPE_TILEIRAS_VERSION", "13.3")
    with pytest.raises(TileUnsupportedFeatureError, match="tileiras 13.4"):
        compile_body(tmp_path, body, "f32[64], f32[64]")


def test_rounding_attrs_recorded(tmp_path):
    c = compile_body(tmp_path, LOAD + """\
        r = ct.tanh(a, rounding_mode=ct.RoundingMode.APPROX) + ct.sqrt(a, flush_to_zero=True)
        r = ct.truediv(r, a, rounding_mode="RZ")
        r = r + ct.astype(a, ct.float8_e8m0fnu, rounding_mode=ct.RoundingMode.RZ).astype(ct.float32)
        ct.store(y, index=(0,), tile=r)
        """, "f32[64], f32[64]")
    tanh, sqrt = ops_named(c, "unary")
    assert tanh.attrs["rounding_mode"] is RoundingMode.APPROX and sqrt.attrs["flush_to_zero"]
    div = [op for op in ops_named(c, "binary") if op.attrs["fn"] == "truediv"]
    assert div[0].attrs["rounding_mode"] is RoundingMode.RZ
    assert ops_named(c, "astype")[0].attrs["rounding_mode"] is RoundingMode.RZ


# ---- binary arithmetic -------------------------------------------------------

@pytest.mark.parametrize("expr,msg", [("a ** 2", "pow, int"), ("ct.atan2(a, a)", "atan2, int")])
def test_integer_pow_and_atan2_are_internal_errors(tmp_path, expr, msg):
    with pytest.raises(TileInternalError, match=msg):
        compile_body(tmp_path, LOAD + f"ct.store(y, index=(0,), tile={expr})", "i32[64], i32[64]")


def test_cdiv_on_floats_is_internal_error_but_folds_on_constants(tmp_path):
    with pytest.raises(TileInternalError, match="cdiv, float"):
        compile_body(tmp_path, LOAD + "ct.store(y, index=(0,), tile=ct.cdiv(a, 2))", "f32[64], f32[64]")
    c = compile_body(tmp_path, "ct.store(y, index=(0,), tile=ct.full((64,), ct.cdiv(7.0, 2), ct.float32))",
                     "f32[64], f32[64]")
    assert 4.0 in [op.attrs["value"] for op in ops_named(c, "const")]


@pytest.mark.parametrize("args,msg", [("f8e5m2[64], f8e5m2[64]", "non-arithmetic dtype float8_e5m2"),
                                      ("tf32[64], tf32[64]", "non-arithmetic dtype tfloat32"),
                                      ("bool[64], bool[64]", "does not support bool")])
def test_arithmetic_dtype_restrictions(tmp_path, args, msg):
    with pytest.raises(TileTypeError, match=msg):
        compile_body(tmp_path, LOAD + "ct.store(y, index=(0,), tile=ct.maximum(a, a))", args)


def test_typed_constant_division_by_zero(tmp_path):
    with pytest.raises(TileValueError):
        compile_body(tmp_path, LOAD + "ct.store(y, index=(0,), tile=a + ct.float32(1.0) / ct.float32(0.0))",
                     "f32[64], f32[64]")


def test_divmod_returns_a_pair(tmp_path):
    c = compile_body(tmp_path, LOAD + """\
        q, r = ct.divmod(a, 3)
        q2, r2 = divmod(a, a)
        ct.store(y, index=(0,), tile=q + r + q2 + r2)
        """, "u16[64], u16[64]")
    assert [op.attrs["fn"] for op in ops_named(c, "binary")][:4] == ["floordiv", "mod", "floordiv", "mod"]
    assert c.stored_types() == ["Tile[uint16,(64)]"]


@pytest.mark.parametrize("args,msg", [("f32[64], f32[64]", "not implemented for floating point"),
                                      ("bool[64], bool[64]", "does not support bool")])
def test_divmod_errors(tmp_path, args, msg):
    with pytest.raises(TileTypeError, match=msg):
        compile_body(tmp_path, LOAD + "q, r = ct.divmod(a, a)", args)


def test_mod_rejects_two_bools_but_not_bool_and_int(tmp_path):
    with pytest.raises(TileTypeError, match="Modulo operation does not support bool"):
        compile_body(tmp_path, LOAD + "r = a % a", "bool[64], bool[64]")
    c = compile_body(tmp_path, LOAD + "ct.store(y, index=(0,), tile=a % 3)", "bool[64], i32[64]")
    assert c.stored_types() == ["Tile[int32,(64)]"]


# ---- bitwise -----------------------------------------------------------------

@pytest.mark.parametrize("expr,args,cls,msg", [
    ("a & b", "i32[64], i64[64]", TileTypeError, "same data type, got: int32 and int64"),
    ("a & True", "i8[64], i8[64]", TileTypeError, "bool and int8"),
    ("a | b", "f32[64], f32[64]", TileTypeError, "require integers or booleans"),
    ("a << 1", "bool[64], bool[64]", TileTypeError, "left-hand side, got: bool_"),
    ("a & 300", "u8[64], u8[64]", TileValueError, "300 is out of range of uint8"),
])
def test_bitwise_errors(tmp_path, expr, args, cls, msg):
    with pytest.raises(cls, match=msg):
        compile_body(tmp_path, LOAD + "b = ct.load(y, index=(0,), shape=(64,))\n" + f"r = {expr}", args)


@pytest.mark.parametrize("expr,args,stored", [
    ("a << b", "i32[64], i64[64]", "Tile[int64,(64)]"),      # shifts promote
    ("a & 1", "bool[64], i32[64]", "Tile[int32,(64)]"),      # a loose int lifts a bool tile
    ("a ^ True", "bool[64], bool[64]", "Tile[bool_,(64)]"),
    ("1 << a", "i16[64], i16[64]", "Tile[int16,(64)]"),
])
def test_bitwise_result_types(tmp_path, expr, args, stored):
    c = compile_body(tmp_path, LOAD + "b = ct.load(y, index=(0,), shape=(64,))\n"
                     + f"ct.store(y, index=(0,), tile={expr})", args)
    assert c.stored_types() == [stored]


# ---- where, bitcast, astype --------------------------------------------------

@pytest.mark.parametrize("expr,args,stored", [
    ("ct.where(a, a, 0)", "i32[64], i32[64]", "Tile[int32,(64)]"),          # non-bool condition
    ("ct.where(a, a, 1.0)", "f32[64], f32[64]", "Tile[float32,(64)]"),
    ("ct.where(a > 0, 1, 2.0)", "i8[64], f32[64]", "Tile[float32,(64)]"),    # two loose branches
    ("ct.where(True, a, 0.0)", "f8e4m3fn[64], f8e4m3fn[64]", "Tile[float8_e4m3fn,(64)]"),
    ("ct.where(a[:, None] > 0, 1.0, ct.zeros((64, 2), ct.float16))", "f32[64], f16[64,2]",
     "Tile[float16,(64,2)]"),
])
def test_where_types(tmp_path, expr, args, stored):
    index = "(0, 0)" if "," in args.split(", ")[1] else "(0,)"
    c = compile_body(tmp_path, LOAD + f"ct.store(y, index={index}, tile={expr})", args)
    assert c.stored_types() == [stored]
    (op,) = ops_named(c, "where")
    assert op.operands[0].type.dtype.name == "bool_"


@pytest.mark.parametrize("expr,args,cls", [
    ("ct.where(a > 0, a, 1000)", "i8[64], i8[64]", TileValueError),
    ("ct.where(a > 0, a, b)", "f16[64], bf16[64]", TileTypeError),
])
def test_where_errors(tmp_path, expr, args, cls):
    with pytest.raises(cls):
        compile_body(tmp_path, LOAD + "b = ct.load(y, index=(0,), shape=(64,))\n" + f"r = {expr}", args)


@pytest.mark.parametrize("dtype,args,msg", [("ct.int16", "f32[64], i16[64]", r"bit width is different \(32 vs. 16\)"),
                                            ("ct.bool_", "u8[64], bool[64]", "to or from bool")])
def test_bitcast_errors(tmp_path, dtype, args, msg):
    with pytest.raises(TileTypeError, match=msg):
        compile_body(tmp_path, LOAD + f"r = ct.bitcast(a, {dtype})", args)


def test_bitcast_same_width(tmp_path):
    c = compile_body(tmp_path, LOAD + "ct.store(y, index=(0,), tile=ct.bitcast(a, ct.tfloat32))",
                     "f32[64], tf32[64]")
    assert ops_named(c, "bitcast")[0].attrs["dtype"].name == "tfloat32"
    assert c.stored_types() == ["Tile[tfloat32,(64)]"]


def test_astype_of_constant_folds(tmp_path):
    c = compile_body(tmp_path, "ct.store(y, index=(0,), tile=ct.full((64,), ct.astype(3, ct.float16), "
                               "ct.float16))", "f16[64], f16[64]")
    assert not ops_named(c, "astype")
