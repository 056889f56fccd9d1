"""Tests for tilescope.meta: MetaTensor, argument specs, parsing and upstream conversion."""

import math

import ml_dtypes
import numpy as np
import pytest

from tilescope import dtypes as D
from tilescope.meta import (
    ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec, arg_spec_of, parse_args,
)


# --- construction and validation ---------------------------------------------------------

def test_defaults_and_c_strides():
    m = MetaTensor((4, 5, 6), "f32")
    assert m.shape == (4, 5, 6) and m.ndim == 3 and m.dtype is D.float32
    assert m.strides == (30, 6, 1)
    assert m.index_dtype is D.int32
    assert m.static_shape == (False,) * 3 and m.static_strides == (False,) * 3
    assert m.shape_divisible_by == (1, 1, 1) and m.stride_divisible_by == (1, 1, 1)
    assert m.base_addr_divisible_by == 1
    assert m.stride_lower_bound == (0, 0, 0)
    assert m.alias_groups == () and m.may_alias_internally is False
    assert m.size == 120 and m.nbytes == 480
    assert m.is_c_contiguous is True


def test_dynamic_dims():
    m = MetaTensor((None, 8, None), D.float16)
    assert m.strides == (None, None, 1)
    assert MetaTensor((8, None), "f32").strides == (None, 1)
    assert m.size is None and m.nbytes is None
    assert MetaTensor((3, None, 4), "f16").strides == (None, 4, 1)


def test_zero_d_and_fp4_nbytes():
    assert MetaTensor((), "i64").nbytes == 8
    assert MetaTensor((3,), "fp4").nbytes == 2  # 12 bits, rounded up


def test_dtype_inputs():
    assert MetaTensor((1,), np.float64).dtype is D.float64
    assert MetaTensor((1,), np.dtype(ml_dtypes.bfloat16)).dtype is D.bfloat16
    assert MetaTensor((1,), "bf16").dtype is D.bfloat16


@pytest.mark.parametrize("kwargs, message", [
    (dict(shape=(3, -1), dtype="f32"), r"^shape\[1\] is negative \(-1\)$"),
    (dict(shape=(3, 1.5), dtype="f32"), r"shape\[1\] must be a non-negative int or None"),
    (dict(shape=(True,), dtype="f32"), r"shape\[0\] must be"),
    (dict(shape="34", dtype="f32"), r"shape must be a sequence"),
    (dict(shape=(3,), dtype="nope"), r"^unknown dtype 'nope'"),
    (dict(shape=(3, 4), dtype="f32", strides=(1,)), r"^got 1 strides for a 2-d shape$"),
    (dict(shape=(3,), dtype="f32", strides=(0.5,)), r"strides\[0\] must be an int or None"),
    (dict(shape=(3,), dtype="f32", index_dtype=D.int16),
     r"^index_dtype must be int32 or int64, got int16$"),
    (dict(shape=(3,), dtype="f32", index_dtype="zzz"), r"^index_dtype must be int32 or int64"),
    (dict(shape=(3,), dtype="f32", shape_divisible_by=0),
     r"^shape_divisible_by must be a positive integer, got 0$"),
    (dict(shape=(None, None), dtype="f32", stride_divisible_by=(1, -2)),
     r"^stride_divisible_by\[1\] must be a positive integer, got -2$"),
    (dict(shape=(None,), dtype="f32", shape_divisible_by=(2, 2)),
     r"^shape_divisible_by has 2 entries but the array has 1 dimensions$"),
    (dict(shape=(3,), dtype="f32", base_addr_divisible_by=0),
     r"^base_addr_divisible_by must be a positive integer"),
    (dict(shape=(None,), dtype="f32", static_shape=True),
     r"^shape of dimension 0 is static but unknown$"),
    (dict(shape=(6,), dtype="f32", shape_divisible_by=4),
     r"^shape of dimension 0 is 6, which is not divisible by 4$"),
    (dict(shape=(4, 4), dtype="f32", strides=(-4, 1)),
     None),  # fine: the default lower bound follows the negative stride
    (dict(shape=(4,), dtype="f32", strides=(-1,), stride_lower_bound=0),
     r"^stride of dimension 0 is -1, below its lower bound 0$"),
    (dict(shape=(2**31,), dtype="f32"),
     r"^shape of dimension 0 \(2147483648\) does not fit index dtype int32; use index_dtype"),
    (dict(shape=(None,), dtype="f32", alias_groups="ab"), r"^alias_groups must be a sequence"),
    (dict(shape=(None,), dtype="f32", alias_groups=("a", "a")), r"duplicates"),
    (dict(shape=(None,), dtype="f32", static_shape=(1,)), r"static_shape\[0\] must be True"),
])
def test_validation(kwargs, message):
    if message is None:
        MetaTensor(**kwargs)
        return
    with pytest.raises(ValueError, match=message) as ei:
        MetaTensor(**kwargs)
    assert "\n" not in str(ei.value)


def test_int64_index_allows_big_dims():
    m = MetaTensor((2**31,), "u8", index_dtype="i64")
    assert m.index_dtype is D.int64 and m.nbytes == 2**31


def test_equality_and_hash():
    a = MetaTensor((None, 4), "f32")
    b = MetaTensor([None, 4], D.float32, (4, 1))  # C strides: (4, 1)
    assert a == b and hash(a) == hash(b)
    assert a != MetaTensor((None, 4), "f32", index_dtype="i64")
    assert a != MetaTensor((None, 4), "f32", static_strides=(False, True))
    assert a != MetaTensor((None, 4), "f16")
    assert len({a, b}) == 1


def test_immutable_and_replace():
    a = MetaTensor((2, 3), "f32")
    with pytest.raises(AttributeError):
        a.shape = (1,)
    b = a.replace(shape=(4, 3))
    assert b.strides == (3, 1) and a.shape == (2, 3)
    assert a.replace(dtype="f16").dtype is D.float16


# --- spec strings ---------------------------------------------------------------------------

@pytest.mark.parametrize("spec, shape, strides", [
    ("f32[1024,?]", (1024, None), (None, 1)),
    ("bfloat16[64,64]", (64, 64), (64, 1)),
    ("float32[?]", (None,), (1,)),
    ("f32[]", (), ()),
    ("f16[?,?]:[?,1]", (None, None), (None, 1)),
    ("f16[ 8 , ? ] : [ -1 , 8 ]", (8, None), (-1, 8)),
])
def test_parse_shapes(spec, shape, strides):
    m = MetaTensor.parse(spec)
    assert m.shape == shape and m.strides == strides


def test_parse_facts():
    m = MetaTensor.parse("bf16[?%16,64!]:[?%8,1!]@i64")
    assert m.dtype is D.bfloat16
    assert m.shape == (None, 64) and m.static_shape == (False, True)
    assert m.shape_divisible_by == (16, 1)
    assert m.strides == (None, 1) and m.static_strides == (False, True)
    assert m.stride_divisible_by == (8, 1)
    assert m.index_dtype is D.int64


def test_parse_overrides():
    m = MetaTensor.parse("f32[?]", base_addr_divisible_by=16, alias_groups=("g",))
    assert m.base_addr_divisible_by == 16 and m.alias_groups == ("g",)


@pytest.mark.parametrize("spec", [
    "f32[1024,?]", "bf16[64,64]", "f32[?]", "f32[]", "f16[?,?]:[?,1!]", "f32[?]@i64",
    "bf16[?%16,64!]:[?%8,1!]@i64", "f32[4,3]:[-6,2]", "b8[3]", "f8e4m3fn[?,32]",
    "f32[8!,8]", "i64[?,?]:[1,?]",
])
def test_repr_round_trip(spec):
    m = MetaTensor.parse(spec)
    assert repr(m) == spec
    assert MetaTensor.parse(repr(m)) == m


def test_repr_canonicalises():
    assert repr(MetaTensor.parse("float32[ 16 , ? ]")) == "f32[16,?]"
    assert repr(MetaTensor.parse("f32[4,3]:[3,1]")) == "f32[4,3]"  # C-contiguous: no suffix
    assert repr(MetaTensor.parse("f32[?]@i32")) == "f32[?]"


def test_repr_with_extra_facts():
    m = MetaTensor.parse("f32[?]", base_addr_divisible_by=16, alias_groups=("a",),
                         may_alias_internally=True)
    r = repr(m)
    assert r == "MetaTensor.parse('f32[?]%16~', alias_groups=('a',))"
    assert eval(r) == m
    assert MetaTensor.parse("f32[?%16]:[1!]%16~@i64") == MetaTensor(
        (None,), "f32", (1,), static_strides=True, shape_divisible_by=16, base_addr_divisible_by=16,
        may_alias_internally=True, index_dtype="i64")


@pytest.mark.parametrize("spec, part", [
    ("f32", "expected e.g."),
    ("f32[1024,?", "expected e.g."),
    ("xyz[3]", "unknown dtype 'xyz'"),
    ("f32[-3]", "dimension 0 is '-3'"),
    ("f32[4,x]", "dimension 1 is 'x'"),
    ("f32[?!]", "only a known value can be static"),
    ("f32[?%0]", "shape_divisible_by[0] must be a positive integer"),
    ("f32[?]:[1,1]", "2 strides for 1 dimensions"),
    ("f32[?]:[q]", "stride 0 is 'q'"),
    ("f32[?]@i16", "index_dtype must be int32 or int64"),
    ("f32[?]@zz", "index dtype 'zz' is not i32 or i64"),
    ("f32[6%4]", "not divisible by 4"),
])
def test_parse_errors(spec, part):
    with pytest.raises(ValueError) as ei:
        MetaTensor.parse(spec)
    msg = str(ei.value)
    assert part in msg and "\n" not in msg
    assert msg.startswith(f"bad array spec {spec!r}")


# --- like() ---------------------------------------------------------------------------------

def test_like_numpy_contiguous():
    m = MetaTensor.like(np.zeros((3, 4), np.float16))
    assert m == MetaTensor((3, 4), "f16")
    assert repr(m) == "f16[3,4]"


def test_like_numpy_non_contiguous():
    a = np.zeros((6, 8), np.int32)
    m = MetaTensor.like(a[::2, 1::3])
    assert m.shape == (3, 3) and m.strides == (16, 3)
    assert m.is_c_contiguous is False
    m = MetaTensor.like(a.T)
    assert m.shape == (8, 6) and m.strides == (1, 8)


def test_like_numpy_negative_strides():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)[::-1, ::-2]
    m = MetaTensor.like(a)
    assert m.shape == (3, 2) and m.strides == (-4, -2)
    assert m.stride_lower_bound == (None, None)
    assert repr(m) == "f64[3,2]:[-4,-2]"


def test_like_numpy_special_dtypes():
    assert MetaTensor.like(np.zeros(4, ml_dtypes.bfloat16)).dtype is D.bfloat16
    assert MetaTensor.like(np.zeros(4, ml_dtypes.float8_e5m2)).dtype is D.float8_e5m2
    assert MetaTensor.like(np.zeros(4, bool)).dtype is D.bool_
    with pytest.raises(ValueError, match="complex128 has no cuTile equivalent"):
        MetaTensor.like(np.zeros(4, complex))


def test_like_numpy_unaligned_stride():
    buf = np.zeros(20, np.uint8)
    a = np.ndarray((4,), np.int32, buf, 0, (5,))
    with pytest.raises(ValueError, match="byte stride 5 .* element size 4"):
        MetaTensor.like(a)


def test_like_numpy_is_shared_per_description_and_errors_repeat():
    a, b = np.zeros((5, 7), np.float32), np.ones((5, 7), np.float32)
    assert MetaTensor.like(a) is MetaTensor.like(b)          # immutable: one per description
    assert MetaTensor.like(a.T) == MetaTensor((7, 5), "f32", (1, 7))
    for _ in range(2):
        with pytest.raises(ValueError, match="complex64 has no cuTile equivalent"):
            MetaTensor.like(np.zeros(3, np.complex64))


def test_like_overrides_and_zero_d():
    m = MetaTensor.like(np.zeros((2, 2), np.float32), index_dtype="i64", static_shape=True)
    assert m.index_dtype is D.int64 and m.static_shape == (True, True)
    assert MetaTensor.like(np.zeros((), np.int8)).shape == ()
    assert MetaTensor.like(m) is m


class _CAI:
    def __init__(self, shape, typestr, strides=None):
        self.__cuda_array_interface__ = dict(shape=shape, typestr=typestr, strides=strides,
                                             data=(0, False), version=3)


def test_like_cuda_array_interface():
    # a GPU array: with the facts a launch derives (tests/gpu/test_specialize.py checks them against
    # upstream's launch)
    m = MetaTensor.like(_CAI((3, 5), "<f4"))
    assert m == MetaTensor((3, 5), "f32", static_strides=(False, True), base_addr_divisible_by=16)
    m = MetaTensor.like(_CAI((3, 5), "<i2", (2, 6)))
    assert m.dtype is D.int16 and m.strides == (1, 3) and m.static_strides == (True, False)


def test_like_dlpack():
    class OnlyDlpack:
        def __init__(self, arr):
            self._a = arr

        def __dlpack__(self, **kw):
            return self._a.__dlpack__(**kw)

        def __dlpack_device__(self):
            return self._a.__dlpack_device__()

    m = MetaTensor.like(OnlyDlpack(np.zeros((2, 3), np.uint16)))
    assert m == MetaTensor((2, 3), "u16")

    class BadDlpack:
        def __dlpack__(self, **kw):
            raise RuntimeError("device memory")

    with pytest.raises(TypeError, match="cannot import it through __dlpack__"):
        MetaTensor.like(BadDlpack())


def test_like_unsupported():
    with pytest.raises(TypeError, match="^cannot describe an object of type list as an array"):
        MetaTensor.like([1, 2, 3])


def test_like_torch():
    torch = pytest.importorskip("torch")
    t = torch.empty((4, 6), dtype=torch.bfloat16, device="meta")
    assert MetaTensor.like(t) == MetaTensor((4, 6), "bf16")
    m = MetaTensor.like(t.t())
    assert m.shape == (6, 4) and m.strides == (1, 6)
    assert MetaTensor.like(torch.zeros(3, dtype=torch.int64)[::2]).strides == (2,)


def test_like_jax():
    jax = pytest.importorskip("jax")
    s = jax.ShapeDtypeStruct((8, 2), np.float32)
    assert MetaTensor.like(s) == MetaTensor((8, 2), "f32")


# --- other specs ----------------------------------------------------------------------------

def test_scalar_and_constant_specs():
    assert ScalarSpec("i32") == ScalarSpec(D.int32) and repr(ScalarSpec("f16")) == "f16"
    assert hash(ScalarSpec("i32")) == hash(ScalarSpec(D.int32))
    assert ConstantSpec(1) != ConstantSpec(True) != ConstantSpec(1.0)
    assert ConstantSpec(1) != ConstantSpec(1.0)
    assert ConstantSpec(float("nan")) == ConstantSpec(float("nan"))
    assert ConstantSpec(np.int64(3)) == ConstantSpec(3)
    assert repr(ConstantSpec("x")) == "'x'"
    with pytest.raises(TypeError):
        ConstantSpec([1])


def test_tuple_and_list_specs():
    t = TupleSpec([1, MetaTensor.parse("f32[?]"), (2, None)])
    assert t.items[0] == ConstantSpec(1)
    assert t.items[2] == TupleSpec([ConstantSpec(2), ConstantSpec(None)])
    assert repr(t) == "(1, f32[?], (2, None))"
    assert repr(TupleSpec([5])) == "(5,)"
    lst = ListSpec("f32[?,?]")
    assert repr(lst) == "list[f32[?,?]]" and lst == ListSpec(MetaTensor.parse("f32[?,?]"))
    with pytest.raises(TypeError):
        ListSpec(ScalarSpec("i32"))


# --- parse_args -----------------------------------------------------------------------------

def test_parse_args_basic():
    args = parse_args("f32[1024,1024], f32[?], i32, 64")
    assert args == [MetaTensor((1024, 1024), "f32"), MetaTensor((None,), "f32"),
                    ScalarSpec(D.int32), ConstantSpec(64)]


def test_parse_args_all_kinds():
    text = ("f16[?,?]:[?,1], list[bf16[?,64]], (f32[?], i64, 3), 2.5, True, None, 'a,b', "
            "-7, (1,), (), float, (f32[4], (1, 2))")
    args = parse_args(text)
    assert args[0] == MetaTensor.parse("f16[?,?]")
    assert args[1] == ListSpec(MetaTensor.parse("bf16[?,64]"))
    assert args[2] == TupleSpec([MetaTensor.parse("f32[?]"), ScalarSpec("i64"), ConstantSpec(3)])
    assert args[3:8] == [ConstantSpec(2.5), ConstantSpec(True), ConstantSpec(None),
                         ConstantSpec("a,b"), ConstantSpec(-7)]
    assert args[8] == TupleSpec([ConstantSpec(1)]) and args[9] == TupleSpec([])
    assert args[10] == ScalarSpec(D.float32)
    assert args[11] == TupleSpec([MetaTensor.parse("f32[4]"), TupleSpec([1, 2])])
    assert parse_args("List[bf16[?,64]]") == args[1:2]          # as the IR prints a list's type


@pytest.mark.parametrize("text", [
    "f32[1024,1024], f32[?], i32, 64",
    "list[bf16[?,64]], (f32[?], i64, 3), 2.5, True, None, 'a,b', -7",
    "(1,), (), f16[?,?]:[?,1!]@i64, b8, (f32[4], (1, 2))",
])
def test_parse_args_round_trip(text):
    args = parse_args(text)
    again = parse_args(", ".join(repr(a) for a in args))
    assert again == args


def test_parse_args_nonfinite_constants():
    # a float constant's repr (-inf, nan) reads back as that constant, inside a tuple too
    args = parse_args("f32[4], -inf, inf, +INF, (nan, 1)")
    assert args[1:4] == [ConstantSpec(float("-inf")), ConstantSpec(float("inf")), ConstantSpec(float("inf"))]
    assert math.isnan(args[4].items[0].value) and args[4].items[1] == ConstantSpec(1)
    assert parse_args(", ".join(repr(a) for a in args[:4])) == args[:4]


def test_parse_args_empty():
    assert parse_args("") == [] and parse_args("   ") == []


@pytest.mark.parametrize("text, start, part", [
    ("f32[4], foo", "argument 1 ('foo'): ", "unknown dtype 'foo'"),
    ("f32[4], xyz[3]", "argument 1 ('xyz[3]'): ", "unknown dtype 'xyz'"),
    ("i32, f32[4,-1]", "argument 1 ('f32[4,-1]'): ", "dimension 1 is '-1'"),
    ("f32[4],,i32", "argument 1 is empty", ""),
    ("list[i32]", "argument 0 ('list[i32]'): ", "list elements must be arrays"),
    ("1 +", "argument 0 ('1 +'): ", "not an array spec, dtype name or Python literal"),
    ("[1, 2]", "argument 0 ('[1, 2]'): ", "bad array spec"),
    ("{1: 2}", "argument 0 ('{1: 2}'): ", "cannot use {1: 2} as an argument spec"),
    ("(f32[?], nope)", "argument 0 ('(f32[?], nope)'): ", "unknown dtype 'nope'"),
    ("f32[4", "unterminated bracket", ""),
    ("f32[4]]", "unbalanced ']'", ""),
    ("'abc", "unterminated string", ""),
])
def test_parse_args_errors(text, start, part):
    with pytest.raises(ValueError) as ei:
        parse_args(text)
    msg = str(ei.value)
    assert msg.startswith(start) and part in msg and "\n" not in msg


# --- arg_spec_of ----------------------------------------------------------------------------

def test_arg_spec_of():
    assert arg_spec_of(3) == ScalarSpec(D.int32)
    assert arg_spec_of(2**40) == ScalarSpec(D.int64)
    assert arg_spec_of(True) == ScalarSpec(D.bool_)
    assert arg_spec_of(1.0) == ScalarSpec(D.float32)
    assert arg_spec_of(np.float16(1)) == ScalarSpec(D.float16)
    assert arg_spec_of(np.uint8(1)) == ScalarSpec(D.uint8)
    assert arg_spec_of(None) == ConstantSpec(None)
    a = np.zeros((2, 3), np.float32)
    assert arg_spec_of(a) == MetaTensor((2, 3), "f32")
    assert arg_spec_of((a, 1)) == TupleSpec([MetaTensor((2, 3), "f32"), ScalarSpec("i32")])
    spec = MetaTensor.parse("f32[?]")
    assert arg_spec_of(spec) is spec


def test_arg_spec_of_lists():
    lst = [np.zeros((3, 4), np.float32), np.zeros((5, 4), np.float32)]
    assert arg_spec_of(lst) == ListSpec(MetaTensor((None, 4), "f32"))
    assert repr(arg_spec_of(lst)) == "list[f32[?,4]]"
    assert arg_spec_of(lst[:1]) == ListSpec(MetaTensor((3, 4), "f32"))
    with pytest.raises(ValueError, match="same dtype and rank"):
        arg_spec_of([np.zeros(3, np.float32), np.zeros(3, np.float16)])
    with pytest.raises(ValueError, match="empty list"):
        arg_spec_of([])
    with pytest.raises(TypeError):
        arg_spec_of(object())


# --- upstream conversion --------------------------------------------------------------------

try:
    import cuda.tile as ct
    import cuda.tile.compilation as comp
except Exception:  # noqa: BLE001
    ct = None

needs_upstream = pytest.mark.skipif(ct is None, reason="cuda.tile is not installed")


@needs_upstream
def test_to_upstream_array():
    m = MetaTensor.parse("bf16[?%16,64!]:[?%8,1!]@i64", base_addr_divisible_by=16,
                         alias_groups=("x",), may_alias_internally=True)
    c = m.to_upstream()
    assert isinstance(c, comp.ArrayConstraint)
    assert c.dtype == ct.bfloat16 and c.ndim == 2 and c.index_dtype == ct.int64
    assert c.shape_constant == (None, 64) and c.stride_constant == (None, 1)
    assert c.shape_divisible_by == (16, 1) and c.stride_divisible_by == (8, 1)
    assert c.stride_lower_bound_incl == (0, None)  # upstream drops bounds of constant strides
    assert c.base_addr_divisible_by == 16
    assert c.alias_groups == ("x",) and c.may_alias_internally is True


@needs_upstream
def test_to_upstream_known_dims_are_not_constants():
    c = MetaTensor.like(np.zeros((4, 4), np.float32)[::-1]).to_upstream()
    assert c.shape_constant == (None, None) and c.stride_constant == (None, None)
    assert c.stride_lower_bound_incl == (None, 0)


@needs_upstream
def test_to_upstream_other_specs():
    assert ScalarSpec("u16").to_upstream() == comp.ScalarConstraint(ct.uint16)
    assert ConstantSpec(7).to_upstream() == comp.ConstantConstraint(7)
    t = TupleSpec([ScalarSpec("i32"), 4]).to_upstream()
    assert isinstance(t, comp.TupleConstraint) and len(t.items) == 2
    lst = ListSpec(MetaTensor.parse("f32[?,?]"), alias_groups=("a",)).to_upstream()
    assert isinstance(lst, comp.ListConstraint) and lst.element.ndim == 2
    assert lst.alias_groups == ("a",)


@needs_upstream
def test_to_upstream_signature_exports(tmp_path):
    # A parsed signature is accepted by upstream's AOT exporter end to end.
    sig = comp.KernelSignature([a.to_upstream() for a in parse_args("f32[?], f32[?], f32[?]")],
                               calling_convention=comp.CallingConvention.cutile_python_v1())
    comp.export_kernel(_vadd, [sig], str(tmp_path / "k.tilebc"),
                       output_format="tileir_bytecode", bytecode_version="13.3")
    assert (tmp_path / "k.tilebc").stat().st_size > 0


if ct is not None:
    @ct.kernel
    def _vadd(a, b, c):
        x = ct.load(a, index=(0,), shape=(16,))
        y = ct.load(b, index=(0,), shape=(16,))
        ct.store(c, index=(0,), tile=x + y)


def test_to_upstream_without_cuda_tile(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "cuda.tile", None)
    monkeypatch.setitem(sys.modules, "cuda.tile.compilation", None)
    with pytest.raises(RuntimeError, match="needs the 'cuda-tile' package"):
        MetaTensor.parse("f32[?]").to_upstream()
    with pytest.raises(RuntimeError, match="needs the 'cuda-tile' package"):
        D.float32.to_upstream()
