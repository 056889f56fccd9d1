"""Fused multiply-add contraction, as cuTile's front end does it.

A float `add`/`sub` whose operand is a float `mul` becomes one `fma` (a single rounding):

    a*b + c  →  fma(a, b, c)          c + a*b  →  fma(a, b, c)
    a*b - c  →  fma(a, b, -c)         c - a*b  →  fma(-a, b, c)

only when the product has no other use and both ops have the same rounding mode (none
means nearest-even) and flush-to-zero flag, for unrestricted floats (f16, bf16, f32, f64).
As upstream, the left operand is the candidate when it is a float mul (even if that
candidate is then rejected); the right one is tried only otherwise. The negations are
`unary` fn=neg ops placed just before the `fma`, which takes the place of the add/sub.
"""
from __future__ import annotations

from collections import Counter
from typing import Dict, List

from ..ir.core import Block, Function, Op
from ..ir.primitive import Attrs
from ..ir.types import TileType


def _float_mul(op) -> bool:
    if op is None or op.name != "binary" or op.attrs.get("fn") != "mul":
        return False
    t = op.results[0].type
    return isinstance(t, TileType) and t.dtype.is_float and not t.dtype.is_restricted


def _rounding(op):
    rm = op.attrs.get("rounding_mode")
    return None if rm is None or rm.name == "RN" else rm


def fma(fn: Function) -> Function:
    ops = list(fn.walk())
    uses = Counter(v.id for op in ops for v in op.operands)
    defs = {r.id: op for op in ops for r in op.results}
    removed = set()
    replacements: Dict[int, List[Op]] = {}
    for op in ops:
        if op.name != "binary" or op.attrs.get("fn") not in ("add", "sub"):
            continue
        lhs_def, rhs_def = (defs.get(v.id) for v in op.operands)
        if _float_mul(lhs_def):
            mul, acc, mul_on_rhs = lhs_def, op.operands[1], False
        elif _float_mul(rhs_def):
            mul, acc, mul_on_rhs = rhs_def, op.operands[0], True
        else:
            continue
        if _rounding(op) != _rounding(mul) or \
                bool(op.attrs.get("flush_to_zero")) != bool(mul.attrs.get("flush_to_zero")):
            continue
        if uses[mul.results[0].id] != 1 or id(mul) in removed or id(op) in replacements:
            continue
        a, b = mul.operands
        new_ops: List[Op] = []
        if op.attrs["fn"] == "sub":
            target = a if mul_on_rhs else acc
            neg = Op("unary", [target], [target.type], {"fn": "neg"}, loc=op.loc)
            new_ops.append(neg)
            if mul_on_rhs:
                a = neg.results[0]
            else:
                acc = neg.results[0]
        attrs = {k: op.attrs[k] for k in ("rounding_mode", "flush_to_zero") if k in op.attrs}
        # the add itself becomes the fma (its users, and what is placed relative to it, stay)
        op.name, op.operands, op.attrs = "fma", [a, b, acc], Attrs("fma", attrs)
        new_ops.append(op)
        removed.add(id(mul))
        replacements[id(op)] = new_ops
    if replacements:
        _apply(fn.body, removed, replacements)
    return fn


def _apply(block: Block, removed, replacements) -> None:
    kept: List[Op] = []
    for op in block.ops:
        for b in op.blocks:
            _apply(b, removed, replacements)
        if id(op) in replacements:
            kept.extend(replacements[id(op)])
        elif id(op) not in removed:
            kept.append(op)
    block.ops = kept
