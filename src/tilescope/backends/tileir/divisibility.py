"""What is known about the integers of a kernel: divisibility and constant values, from the argument
metadata (base address, shape and stride facts of arrays) through the arithmetic that uses them.

TileIR learns these facts through `assume div_by<n>` ops; upstream places one on every kernel and
loop-body argument with a known divisor, and on every value that builds a tensor view or feeds a
pointer load/store. The lowering asks this analysis (a fixpoint over the typed IR, loops included)
for each such value, so the same signature yields the same assumptions.

Divisors follow upstream's rules: sums take the gcd, products multiply, a constant c is divisible by
|c| (0 by everything, written 0), integer conversions keep what the narrower width keeps, and a
pointer moved by a scalar offset keeps gcd(its divisor, offset divisor x element bytes).
"""
from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from typing import Dict, List, Optional, Sequence, Tuple

from ...ir.core import Block, Function, Op, Value
from ...ir.types import ArrayType, ListType, TileType
from ...meta import ListSpec, MetaTensor

MAX_DIVISOR = 1024


@dataclass(frozen=True)
class Fact:
    div: int = 1                         # 0: the value is zero (divisible by anything)
    const: Optional[int] = None

    def unify(self, other: "Fact") -> "Fact":
        return Fact(gcd(self.div, other.div), self.const if self.const == other.const else None)

    @property
    def assumed(self) -> int:
        """The divisor an `assume div_by` states: its power-of-two part, at most 1024 (1: none)."""
        d = self.div & -self.div
        return min(d, MAX_DIVISOR) if d > 1 else 1


UNKNOWN = Fact()


@dataclass(frozen=True)
class ArrayFacts:
    ptr: Fact
    shape: Tuple[Fact, ...]
    strides: Tuple[Fact, ...]

    def unify(self, other: "ArrayFacts") -> "ArrayFacts":
        return ArrayFacts(self.ptr.unify(other.ptr), tuple(a.unify(b) for a, b in zip(self.shape, other.shape)),
                          tuple(a.unify(b) for a, b in zip(self.strides, other.strides)))


def array_facts(spec) -> ArrayFacts:
    """What a MetaTensor says about its array's pieces (a constant extent is its own divisor)."""
    def piece(value, static, div):
        return Fact(value, value) if static and value is not None else Fact(div)
    return ArrayFacts(Fact(spec.base_addr_divisible_by),
                      tuple(piece(*t) for t in zip(spec.shape, spec.static_shape, spec.shape_divisible_by)),
                      tuple(piece(*t) for t in zip(spec.strides, spec.static_strides, spec.stride_divisible_by)))


def unknown_array(ndim: int) -> ArrayFacts:
    return ArrayFacts(UNKNOWN, (UNKNOWN,) * ndim, (UNKNOWN,) * ndim)


class Divisibility:
    """Facts per typed-IR value (Fact for integers and pointers, ArrayFacts for arrays, the item's
    ArrayFacts for lists)."""

    def __init__(self, fn: Function, leaf_specs: Sequence):
        self.facts: Dict[int, object] = {}
        values = [v for p in fn.params if not p.is_constant for v in p.values]
        for v, spec in zip(values, list(leaf_specs) + [None] * len(values)):
            self.facts[v.id] = self._param(v, spec)
        self.changed = True
        rounds = 0
        while self.changed and rounds < 50:
            self.changed = False
            self.block(fn.body)
            rounds += 1

    def _param(self, v: Value, spec):
        t = v.type
        if isinstance(t, ArrayType):
            return array_facts(spec) if isinstance(spec, MetaTensor) else unknown_array(t.ndim)
        if isinstance(t, ListType):
            return array_facts(spec.item) if isinstance(spec, ListSpec) else unknown_array(t.item.ndim)
        return UNKNOWN

    # -- queries --------------------------------------------------------------------------------
    def of(self, v: Value) -> Fact:
        f = self.facts.get(v.id, UNKNOWN)
        return f if isinstance(f, Fact) else UNKNOWN

    def array(self, v: Value) -> ArrayFacts:
        f = self.facts.get(v.id)
        if isinstance(f, ArrayFacts):
            return f
        t = v.type
        return unknown_array(t.ndim if isinstance(t, ArrayType) else t.item.ndim)

    # -- the walk -------------------------------------------------------------------------------
    def set(self, v: Value, fact) -> None:
        """Join `fact` into what `v` may be (it flows in from several places)."""
        old = self.facts.get(v.id)
        new = fact if old is None else old.unify(fact)
        if new != old:
            self.facts[v.id] = new
            self.changed = True

    def get(self, v: Value):
        f = self.facts.get(v.id)
        if f is not None:
            return f
        if isinstance(v.type, ArrayType):
            return unknown_array(v.type.ndim)
        return UNKNOWN

    def block(self, b: Block, loop: Optional[Op] = None, branch: Optional[Op] = None) -> None:
        for op in b.ops:
            self.op(op, loop, branch)

    def op(self, op: Op, loop, branch) -> None:
        name, ins, outs = op.name, op.operands, op.results
        rule = getattr(self, "_" + name, None)
        if rule is not None:
            rule(op, loop, branch)
        elif name in ("reshape", "broadcast", "permute", "tiled_view", "raw_memory"):
            self.set(outs[0], self.get(ins[0]))
        else:
            for r in outs:
                self.set(r, UNKNOWN if not isinstance(r.type, ArrayType) else unknown_array(r.type.ndim))

    def _const(self, op: Op, loop, branch) -> None:
        value = op.result.const if op.result.const is not None else op.attrs.get("value")
        self.set(op.result, _const_fact(value, op.result.type))

    def _literal_tile(self, op: Op, loop, branch) -> None:
        values = list(op.attrs["values"])
        self.set(op.result, _const_fact(values[0], op.result.type) if len(set(values)) == 1 else UNKNOWN)

    def _binary(self, op: Op, loop, branch) -> None:
        x, y = (self.get(o) for o in op.operands)
        fn = op.attrs["fn"]
        if not _integral(op.result.type) or fn not in ("add", "sub", "mul"):
            self.set(op.result, UNKNOWN)
        elif fn == "mul":
            self.set(op.result, Fact(x.div * y.div))
        else:
            self.set(op.result, Fact(gcd(x.div, y.div)))

    def _unary(self, op: Op, loop, branch) -> None:
        keeps = _integral(op.result.type) and op.attrs["fn"] in ("abs", "neg")
        self.set(op.result, Fact(self.get(op.operands[0]).div) if keeps else UNKNOWN)

    def _astype(self, op: Op, loop, branch) -> None:
        src, dst = op.operands[0].type, op.result.type
        if not (_integral(src) and _integral(dst)):
            self.set(op.result, UNKNOWN)
            return
        x = self.get(op.operands[0])
        bits = dst.dtype.bitwidth
        const = None
        if x.const is not None:
            const = x.const & ((1 << bits) - 1)
            if dst.dtype.kind == "int" and const >= 1 << (bits - 1):
                const -= 1 << bits
        self.set(op.result, Fact(gcd(x.div, 1 << bits), const))

    def _assume(self, op: Op, loop, branch) -> None:
        self.set(op.result, Fact(int(op.attrs["divisor"]), self.get(op.operands[0]).const))

    def _array_dim(self, op: Op, loop, branch) -> None:
        a = self.get(op.operands[0])
        pieces = a.shape if op.attrs["what"] == "shape" else a.strides
        self.set(op.result, pieces[op.attrs["axis"]])

    def _array_slice(self, op: Op, loop, branch) -> None:
        a, start, stop = op.operands
        f = self.get(a)
        ax = op.attrs["axis"]
        s, e = self.get(start), self.get(stop)
        bits = a.type.dtype.bitwidth
        offset = s.div * f.strides[ax].div
        ptr = Fact(gcd(f.ptr.div, offset * (bits // 8))) if bits % 8 == 0 else UNKNOWN
        n = Fact(gcd(s.div, e.div), e.const - s.const if s.const is not None and e.const is not None else None)
        shape = tuple(n if i == ax else d for i, d in enumerate(f.shape))
        self.set(op.result, ArrayFacts(ptr, shape, f.strides))

    def _list_item(self, op: Op, loop, branch) -> None:
        self.set(op.result, self.get(op.operands[0]))

    def _if(self, op: Op, loop, branch) -> None:
        for b in op.blocks:
            self.block(b, loop, op)

    def _yield(self, op: Op, loop, branch) -> None:
        if branch is not None and branch.name == "if":
            for v, r in zip(op.operands, branch.results):
                self.set(r, self.get(v))

    def _for(self, op: Op, loop, branch) -> None:
        body = op.blocks[0]
        inits = op.operands[3:]
        self.set(body.args[0], UNKNOWN)               # the induction variable
        for v, arg, r in zip(inits, body.args[1:], op.results):
            self.set(arg, self.get(v))
            self.set(r, self.get(v))                  # no iteration at all
        self.block(body, op, None)

    def _loop(self, op: Op, loop, branch) -> None:
        body = op.blocks[0]
        for v, arg in zip(op.operands, body.args):
            self.set(arg, self.get(v))
        self.block(body, op, None)

    def _continue(self, op: Op, loop, branch) -> None:
        args = loop.blocks[0].args[1:] if loop.name == "for" else loop.blocks[0].args
        for v, arg in zip(op.operands, args):
            self.set(arg, self.get(v))
        if loop.name == "for":
            for v, r in zip(op.operands, loop.results):
                self.set(r, self.get(v))

    def _break(self, op: Op, loop, branch) -> None:
        for v, r in zip(op.operands, loop.results):
            self.set(r, self.get(v))


def _integral(t) -> bool:
    return isinstance(t, TileType) and t.dtype.kind in ("int", "uint", "bool")


def _const_fact(value, t) -> Fact:
    if isinstance(value, (bool, int)):
        scalar = isinstance(t, TileType) and not t.shape
        return Fact(abs(int(value)), int(value) if scalar else None)
    return UNKNOWN


def entry_values(fn: Function) -> List[Value]:
    return [v for p in fn.params if not p.is_constant for v in p.values]
