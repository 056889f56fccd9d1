"""The IR verifier, generated from the primitive schemas (`ir/primitive.py`).

For every op it checks what its primitive declares: operand, result and block counts, the
attributes (known names, values of the declared kind, required ones present), that operands
are defined before use and visible (SSA scoping through nested blocks), that terminators come
last in their blocks, and — where the primitive has a `typing` rule — that the result types are the ones the
rule derives from the operands and attributes.
"""
from __future__ import annotations

from typing import List, Optional, Set

from .core import Block, Function, Op
from .primitive import PRIMITIVES, TypingError


class VerifyError(Exception):
    """The IR breaks a rule of its primitives' schemas; says which op and why."""

    def __init__(self, message: str, op: Optional[Op] = None):
        where = ""
        if op is not None and op.loc is not None:
            where = f"{op.loc.filename}:{op.loc.line}: "
        super().__init__(f"{where}{message}")
        self.op = op


def verify(fn: Function, *, types: bool = True) -> None:
    """Raise VerifyError at the first op that breaks its schema (`types=False`: skip the typing
    rules, for IR read back from text, whose types leave some facts out)."""
    _Verifier(types).block(fn.body, set())


def verify_op(op: Op, *, types: bool = True) -> List[str]:
    """The schema problems of one op on its own (operands are not checked for scope)."""
    return _op_problems(op, types)


class _Verifier:
    def __init__(self, types: bool):
        self.types = types

    def block(self, block: Block, visible: Set[int]) -> None:
        scope = set(visible) | {a.id for a in block.args}
        for i, op in enumerate(block.ops):
            for v in op.operands:
                if v.id not in scope:
                    raise VerifyError(f"op '{op.name}' uses a value not defined before it in scope ({v!r})", op)
            problems = _op_problems(op, self.types)
            if problems:
                raise VerifyError(f"op '{op.name}': " + "; ".join(problems), op)
            prim = PRIMITIVES[op.name]
            if prim.has("terminator") and i != len(block.ops) - 1:
                raise VerifyError(f"terminator '{op.name}' is not the last op of its block", op)
            for inner in op.blocks:
                self.block(inner, scope)
            scope.update(r.id for r in op.results)


def _op_problems(op: Op, types: bool) -> List[str]:
    prim = PRIMITIVES.get(op.name)
    if prim is None:
        return ["unknown op"]
    out: List[str] = []
    for key, value in op.attrs.items():
        spec = prim.attrs.get(key)
        if spec is None:
            out.append(f"unknown attribute {key!r}")
        elif not spec.accepts(value):
            out.append(f"attribute {key}={value!r} is not a {spec.kind.name}")
    for key, spec in prim.attrs.items():
        if spec.required and key not in op.attrs:
            out.append(f"missing attribute {key!r}")
    if out:
        return out
    if not prim.operands.count_ok(len(op.operands), op.attrs):
        out.append(f"{len(op.operands)} operands, expected ({prim.operands.describe()})")
    if prim.results != "*" and len(op.results) != prim.results:
        out.append(f"{len(op.results)} results, expected {prim.results}")
    if len(op.blocks) not in prim.blocks:
        out.append(f"{len(op.blocks)} nested blocks, expected {' or '.join(map(str, prim.blocks))}")
    rule = prim.rule("typing") if types and not out else None
    if rule is not None:
        try:
            expected = rule(op)
        except TypingError as e:
            return [str(e)]
        if len(expected) != len(op.results):
            return [f"{len(op.results)} results, its typing rule gives {len(expected)}"]
        for k, (want, r) in enumerate(zip(expected, op.results)):
            if want is not None and want != r.type:
                out.append(f"result #{k} has type {r.type}, expected {want}")
    return out
