"""HIR construction, exit lowering, printers and the compile API."""
import ast
import textwrap

import pytest

import tilescope
import tilescope.lang as ct
from tilescope import MetaTensor
from tilescope.errors import TileSyntaxError, TileTypeError
from tilescope.frontend import hir as H
from tilescope.frontend.ast2hir import function_to_hir
from tilescope.frontend.hir_printer import print_hir
from tests.frontend import kernels_frontend as K


def hir_of(src: str, entry=True):
    node = ast.parse(textwrap.dedent(src)).body[0]
    return function_to_hir(node, "<test>", is_entry=entry)


def test_augmented_assignment_desugars_to_binop():
    fn = hir_of("""
    def k(x):
        x += 1
    """)
    stmt = fn.body[0]
    assert isinstance(stmt, H.Assign) and isinstance(stmt.value, H.BinOp) and stmt.value.op == "add"


def test_chained_comparison_splits_into_and():
    fn = hir_of("""
    def k(n):
        c = 0 < n < 10
    """)
    v = fn.body[0].value
    assert isinstance(v, H.BoolOp) and v.op == "and" and [c.op for c in v.values] == ["lt", "lt"]


def test_exits_end_their_blocks():
    fn = hir_of("""
    def k(n):
        if n:
            return
        a = 1
        b = 2
    """)
    top = fn.body
    assert isinstance(top[-1], H.If)
    # the statements after the returning branch moved into the other branch
    assert [type(s).__name__ for s in top[-1].orelse] == ["Assign", "Assign", "Return"]
    assert isinstance(top[-1].body[-1], H.Return)


def test_return_inside_loop_becomes_flag_and_break():
    fn = hir_of("""
    def k(n):
        for i in range(n):
            if i == 2:
                return
        a = 1
    """)
    text = print_hir(fn)
    assert "$returned = True" in text and "break" in text and "if $returned" in text


@pytest.mark.parametrize("src, message", [
    ("def k():\n    x = [1, 2]\n", "Unsupported syntax"),
    ("def k():\n    assert True\n", "Unsupported syntax"),
    ("def k():\n    try:\n        pass\n    except Exception:\n        pass\n", "Unsupported syntax"),
    ("def k():\n    for i in range(3):\n        pass\n    else:\n        pass\n", "'for-else' is not supported"),
    ("def k(*a):\n    pass\n", "Variadic kernel parameters are not supported"),
    ("def k():\n    raise ValueError()\n", "static_exception"),
])
def test_unsupported_syntax_is_located(src, message):
    with pytest.raises(TileSyntaxError) as e:
        hir_of(src)
    assert message in e.value.message
    assert e.value.loc.line >= 1


def test_compile_api_exposes_every_stage():
    c = tilescope.compile(K.with_helper, [MetaTensor((None,), "f32"), MetaTensor((None,), "f32"), 64])
    assert "def with_helper" in c.hir_text()
    assert "kernel @with_helper" in c.ir_text()
    assert c.stages[0][0] == "ir" and c.final is not None
    assert c.stored_types() == ["Tile[float32,(64)]"]
    # the helper was inlined: no call remains, the multiply is there
    assert "call" not in c.final_text() and "fn='mul'" in c.final_text()


def test_spec_string_and_real_arrays_give_same_types():
    import numpy as np
    a = tilescope.compile(K.with_helper, "f16[128], f16[128], 32")
    b = tilescope.compile(K.with_helper, (np.zeros(128, np.float16), np.zeros(128, np.float16), 32))
    assert a.stored_types() == b.stored_types() == ["Tile[float16,(32)]"]


def test_loop_with_break_and_early_return_compile():
    c = tilescope.compile(K.early_exit, "f32[16], f32[16], i32")
    text = c.final_text()
    assert "break" in text and "for" in text


def test_type_error_has_location_and_caret():
    with pytest.raises(TileTypeError) as e:
        tilescope.compile(K.with_helper, "f32[128], i8[128], 32")
    err = e.value
    assert err.loc.line > 0
    formatted = err.format()
    assert "TileTypeError" in formatted and "^" in formatted


def test_locations_in_printed_ir():
    c = tilescope.compile(K.chained_compare, "f32[16], f32[16], i32")
    assert "# kernels_frontend.py:" in c.final_text(locations=True)


def test_every_public_operation_has_a_typing_rule():
    missing = [n for n in ct.OPERATION_NAMES if getattr(ct, n).typing is None]
    assert missing == []


def test_upstream_public_names_are_all_present():
    names = ("Array ArrayAnnotation ByTarget Constant ConstantAnnotation DType IndexedWithInt64 ListAnnotation "
             "MemoryOrder MemoryScope PaddingMode RoundingMode Scalar ScalarInt64 Slice StaticException Tile "
             "TileCompilerExecutionError TileCompilerTimeoutError TileError TileInternalError TileRecursionError "
             "TileStaticAssertionError TileStaticEvalError TileSyntaxError TileTypeError "
             "TileUnsupportedFeatureError TileValueError TiledView bfloat16 bool_ compiler_timeout float16 float32 "
             "float4_e2m1fn float64 float8_e4m3fn float8_e5m2 float8_e5m3fnu float8_e8m0fnu function int16 int32 "
             "int64 int8 kernel launch tfloat32 uint16 uint32 uint64 uint8").split()
    assert [n for n in names if not hasattr(ct, n)] == []


def test_surface_functions_refuse_host_calls_except_cdiv():
    assert ct.cdiv(10, 4) == 3
    with pytest.raises(RuntimeError, match="tile code"):
        ct.load(None, (0,), (16,))
