"""The typed IR: SSA values, operations with nested blocks, and a builder.

One generic `Op` class serves every operation; what an op *means* (its schema and
rules) is its row in the primitive table (`ir/primitive.py`), keyed by `Op.name`.
"""
from __future__ import annotations

import itertools
import functools
import weakref
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

from ..errors import Loc
from .primitive import PRIMITIVES, Attrs
from .types import Type

_ids = itertools.count()


class Value:
    """An SSA value: the result of an op or an argument of a block."""
    __slots__ = ("type", "name", "owner", "const", "id")

    def __init__(self, type: Type, name: Optional[str] = None, owner: Optional["Op"] = None,
                 const: Any = None):
        self.type = type
        self.name = name          # user variable name it was first bound to, if any
        self.owner = owner        # defining op (None for block arguments)
        self.const = const        # Python value when known at compile time
        self.id = next(_ids)

    @property
    def is_const(self) -> bool:
        return self.const is not None

    def __repr__(self) -> str:
        return f"<Value {self.name or self.id}: {self.type}>"


class Block:
    """A list of ops with arguments; the last op of a nested block is a terminator."""
    __slots__ = ("args", "ops")

    def __init__(self, args: Sequence[Value] = ()):
        self.args: List[Value] = list(args)
        self.ops: List[Op] = []

    @property
    def terminator(self) -> Optional["Op"]:
        return self.ops[-1] if self.ops and is_terminator(self.ops[-1]) else None

    def walk(self) -> Iterator["Op"]:
        for op in self.ops:
            yield op
            for block in op.blocks:
                yield from block.walk()

    def nested(self) -> Iterator["Block"]:
        """This block and every block nested in its ops, outer first."""
        yield self
        for op in self.ops:
            for block in op.blocks:
                yield from block.nested()

    def readers(self) -> Dict[int, List["Op"]]:
        """Value id -> the ops (here or nested) that read it, once per operand position."""
        out: Dict[int, List[Op]] = {}
        for op in self.walk():
            for v in op.operands:
                out.setdefault(v.id, []).append(op)
        return out


class Site:
    """Where upstream's front end makes a compile-time number's typed constant: where the number
    was bound (`loc`: the expression that evaluated it, or the kernel's `def` for a constant
    parameter). While the IR is built that is before op `index` of `block`; once it is built
    (`anchor`), after the ops `after` and before the ops `before` of `block` (a few each, nearest
    first), so that the place survives passes that replace ops and copies of the function. A
    constant parameter's (`param`: its position) is made among the arrays' views instead. Sites at
    one place sort by `seq`."""
    __slots__ = ("loc", "block", "index", "param", "seq", "after", "before", "anchored")
    _seq = itertools.count()
    NEIGHBOURS = 4

    def __init__(self, loc: Optional[Loc], block: Optional["Block"], index: int, param: Optional[int] = None):
        self.loc, self.block, self.index, self.param = loc, block, index, param
        self.seq = next(Site._seq)
        self.after: tuple = ()
        self.before: tuple = ()
        self.anchored = False

    def anchor(self) -> None:
        """Fix the place by its neighbouring ops (the block is complete)."""
        if not self.anchored:
            ops, i, n = self.block.ops, self.index, Site.NEIGHBOURS
            self.after = tuple(reversed(ops[max(0, i - n):i]))
            self.before = tuple(ops[i:i + n])
            self.anchored = True

    def copied(self, blocks: Dict[int, "Block"], ops: Dict[int, "Op"]) -> "Site":
        """This site in a copy of the function (`blocks`, `ops`: old id -> copy; an op not copied
        yet is left out)."""
        out = Site.__new__(Site)
        out.loc, out.index, out.param, out.seq, out.anchored = self.loc, self.index, self.param, self.seq, self.anchored
        out.block = blocks.get(id(self.block))
        out.after = tuple(ops[id(x)] for x in self.after if id(x) in ops)
        out.before = tuple(ops[id(x)] for x in self.before if id(x) in ops)
        return out


class Op:
    """One operation. `attrs` are compile-time Python values (ints, tuples, enums, dtypes); an
    attribute not given reads as its primitive's default. `origin` (a Site, constants only) is
    where the number it makes was bound, when that is not where the op is: the TileIR lowering
    makes it there, as upstream does; nothing else reads it."""
    __slots__ = ("name", "operands", "results", "attrs", "blocks", "loc", "origin")

    def __init__(self, name: str, operands: Sequence[Value] = (), result_types: Sequence[Type] = (),
                 attrs: Optional[Dict[str, Any]] = None, blocks: Sequence[Block] = (),
                 loc: Optional[Loc] = None):
        self.name = name
        self.operands: List[Value] = list(operands)
        self.results: List[Value] = [Value(t, owner=self) for t in result_types]
        self.attrs: Dict[str, Any] = Attrs(name, attrs or ())
        self.blocks: List[Block] = list(blocks)
        self.loc = loc
        self.origin: Optional[Site] = None

    @property
    def result(self) -> Value:
        assert len(self.results) == 1, self.name
        return self.results[0]

    def __repr__(self) -> str:
        return f"<Op {self.name}>"


def is_terminator(op: Op) -> bool:
    """Whether `op` ends its block and transfers control (yield, continue, break, return)."""
    prim = PRIMITIVES.get(op.name)
    return prim is not None and "terminator" in prim.traits


class Function:
    """A kernel after inference: parameters, a body block, and what it was built from."""

    def __init__(self, name: str, body: Block, params: List["Param"], loc: Optional[Loc] = None):
        self.name = name
        self.body = body
        self.params = params
        self.loc = loc

    def walk(self) -> Iterator[Op]:
        return self.body.walk()


def per_function(analysis: Callable[["Function"], Any]) -> Callable[["Function"], Any]:
    """Memoise a whole-function analysis on the Function (forgotten with it)."""
    cache: "weakref.WeakKeyDictionary[Function, Any]" = weakref.WeakKeyDictionary()

    @functools.wraps(analysis)
    def cached(fn: "Function") -> Any:
        result = cache.get(fn)
        if result is None:
            result = cache[fn] = analysis(fn)
        return result
    return cached


class Param:
    """A kernel parameter: runtime values (possibly several, for tuples) or a constant."""

    def __init__(self, name: str, values: List[Value], constant: Any = None, is_constant: bool = False):
        self.name = name
        self.values = values
        self.constant = constant
        self.is_constant = is_constant


class Builder:
    """Appends ops to the current block; blocks nest with `with builder.into(block)`."""

    def __init__(self, block: Block):
        self.block = block
        self.loc: Optional[Loc] = None

    def add(self, name: str, operands: Sequence[Value] = (), result_types: Sequence[Type] = (),
            attrs: Optional[Dict[str, Any]] = None, blocks: Sequence[Block] = (),
            loc: Optional[Loc] = None) -> Op:
        op = Op(name, operands, result_types, attrs, blocks, loc or self.loc)
        self.block.ops.append(op)
        return op

    def into(self, block: Block) -> "_Into":
        return _Into(self, block)

    @property
    def terminated(self) -> bool:
        return self.block.terminator is not None


class _Into:
    def __init__(self, builder: Builder, block: Block):
        self.builder, self.block, self.saved = builder, block, None

    def __enter__(self) -> Block:
        self.saved = self.builder.block
        self.builder.block = self.block
        return self.block

    def __exit__(self, *exc) -> None:
        self.builder.block = self.saved


def clone_function(fn: Function) -> Function:
    """A deep copy of a function's IR (passes rewrite in place; stages stay inspectable)."""
    mapping = {}
    blocks: Dict[int, Block] = {}
    ops: Dict[int, Op] = {}
    sites: Dict[int, Site] = {}

    def val(v: Value) -> Value:
        new = mapping.get(v.id)
        if new is None:          # defined outside what we copied (should not happen) – share it
            return v
        return new

    def site(s: Optional[Site]) -> Optional[Site]:
        if s is None:
            return None
        if id(s) not in sites:
            sites[id(s)] = s.copied(blocks, ops)
        return sites[id(s)]

    def copy_block(b: Block) -> Block:
        nb = blocks[id(b)] = Block()
        for a in b.args:
            na = Value(a.type, a.name, None, a.const)
            mapping[a.id] = na
            nb.args.append(na)
        for op in b.ops:
            nop = ops[id(op)] = Op.__new__(Op)
            nop.name, nop.attrs, nop.loc = op.name, Attrs(op.name, op.attrs), op.loc
            nop.origin = site(op.origin)
            nop.operands = [val(v) for v in op.operands]
            nop.blocks = [copy_block(inner) for inner in op.blocks]
            nop.results = []
            for r in op.results:
                nr = Value(r.type, r.name, nop, r.const)
                mapping[r.id] = nr
                nop.results.append(nr)
            nb.ops.append(nop)
        return nb

    body = copy_block(fn.body)
    params = [Param(p.name, [mapping.get(v.id, v) for v in p.values], p.constant, p.is_constant)
              for p in fn.params]
    out = Function(fn.name, body, params, fn.loc)
    for k, v in vars(fn).items():
        if k not in ("name", "body", "params", "loc"):
            setattr(out, k, v)
    return out
