"""The verifier generated from the op schemas: each rule it checks, on IR broken on purpose."""
import pytest

import tilescope
import tilescope.lang as ct
from tilescope import dtypes as D
from tilescope.ir.core import Block, Function, Op, Param, Value
from tilescope.ir.types import ArrayType, TileType
from tilescope.ir.verify import VerifyError, verify

F32 = TileType(D.float32, (4,))


def _fn(*ops, args=()):
    body = Block(list(args))
    body.ops.extend(ops)
    return Function("k", body, [Param(a.name or "a", [a]) for a in args])


def _arg(t=F32, name="x"):
    return Value(t, name)


def test_good_ir_passes():
    x = _arg()
    op = Op("binary", [x, x], [F32], {"fn": "add"})
    verify(_fn(op, args=[x]))


@pytest.mark.parametrize("make, message", [
    (lambda x: Op("binary", [x], [F32], {"fn": "add"}), "1 operands, expected"),
    (lambda x: Op("binary", [x, x], [F32, F32], {"fn": "add"}), "2 results, expected 1"),
    (lambda x: Op("binary", [x, x], [F32], {"fn": "add", "colour": 1}), "unknown attribute 'colour'"),
    (lambda x: Op("binary", [x, x], [F32], {"fn": "plus"}), "is not a key of its function table"),
    (lambda x: Op("binary", [x, x], [F32], {}), "missing attribute 'fn'"),
    (lambda x: Op("binary", [x, x], [F32], {"fn": "add", "flush_to_zero": 1}), "is not a bool"),
    (lambda x: Op("binary", [x, x], [TileType(D.float16, (4,))], {"fn": "add"}), "result #0 has type"),
    (lambda x: Op("compare", [x, x], [F32], {"fn": "lt"}), r"expected Tile\[bool_,\(4\)\]"),
    (lambda x: Op("no_such_op", [x], [F32]), "unknown op"),
    (lambda x: Op("if", [x], [], blocks=[Block()]), "1 nested blocks, expected 2"),
    (lambda x: Op("permute", [x], [F32], {"axes": (1,)}), "do not permute"),
])
def test_broken_ops_are_reported(make, message):
    x = _arg()
    with pytest.raises(VerifyError, match=message):
        verify(_fn(make(x), args=[x]))


def test_use_before_definition():
    x, y = _arg(), _arg(name="y")
    with pytest.raises(VerifyError, match="not defined before it"):
        verify(_fn(Op("unary", [y], [F32], {"fn": "neg"}), args=[x]))


def test_values_of_a_nested_block_are_not_visible_after_it():
    x = _arg()
    cond = Value(TileType(D.bool_, ()), "c")
    inner = Op("unary", [x], [F32], {"fn": "neg"})
    then_b, else_b = Block(), Block()
    then_b.ops += [inner, Op("yield", [])]
    else_b.ops += [Op("yield", [])]
    ifop = Op("if", [cond], [], blocks=[then_b, else_b])
    after = Op("unary", [inner.results[0]], [F32], {"fn": "neg"})
    with pytest.raises(VerifyError, match="not defined before it"):
        verify(_fn(ifop, after, args=[x, cond]))


def test_a_terminator_must_end_its_block():
    x = _arg()
    with pytest.raises(VerifyError, match="not the last op"):
        verify(_fn(Op("return", []), Op("unary", [x], [F32], {"fn": "neg"}), args=[x]))


def test_conditional_operands_follow_their_flag():
    a = _arg(ArrayType(D.float32, 1), "a")
    i, pad = _arg(TileType(D.int32, (4,)), "i"), _arg(F32, "pad")
    mask = _arg(TileType(D.bool_, (4,)), "m")
    good = Op("gather", [a, i, pad, mask], [F32], {"has_mask": True})
    verify(_fn(good, args=[a, i, pad, mask]))
    bad = Op("gather", [a, i, pad], [F32], {"has_mask": True})
    with pytest.raises(VerifyError, match="operands, expected"):
        verify(_fn(bad, args=[a, i, pad]))


def test_compile_verifies_after_inference_and_every_pass(monkeypatch):
    """A pass that breaks the IR is caught at once, as a located internal error."""
    from tilescope import compiler

    def bad_pass(fn):
        for op in fn.walk():
            if op.name == "binary":
                op.attrs["fn"] = "plus"
        return fn
    monkeypatch.setattr(compiler, "PASSES", [("broken", bad_pass)])
    with pytest.raises(tilescope.errors.TileInternalError, match="the broken pass made invalid IR"):
        tilescope.compile(doubles, "f32[4]")


@ct.kernel
def doubles(a):
    t = ct.load(a, index=(0,), shape=(4,))
    ct.store(a, index=(0,), tile=t + t)
