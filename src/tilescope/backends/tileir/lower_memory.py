"""TileIR rules for arrays: tiled loads/stores, gathers/scatters, atomics."""
from __future__ import annotations

from math import gcd
from typing import List, Optional

from ...errors import TileUnsupportedFeatureError
from ...ir.core import Op, Value
from ...ir.types import ArrayType
from .divisibility import ArrayFacts, Fact
from .elements import bitwidth
from .ir import TOKEN, Bounded, DivBy, Hints, PartitionView, Ptr, Scalar, StridedView, TensorView, Tile, TValue
from .lower_common import PADDING, SCOPE, elem_of, enum_name, is_float, sign_of, ttype


class ArrayInfo:
    """An array value as TileIR sees it: base pointer, shape and strides (index-typed scalars)
    and, when some op reads it through a view, its `make_tensor_view`."""

    def __init__(self, ptr: TValue, shape: List[TValue], strides: List[TValue], view: Optional[TValue],
                 atype: ArrayType):
        self.ptr, self.shape, self.strides, self.view, self.atype = ptr, shape, strides, view, atype

    def flat(self) -> List[TValue]:
        return [self.ptr] + list(self.shape) + list(self.strides)


# ops that reach their array operand through a tensor view (the others use its pointer)
VIEW_USERS = {"load_tile", "store_tile", "num_tiles", "tiled_view", "load_advanced", "store_advanced"}


class MemoryRules:
    """Arrays as tensor views (tiled loads/stores) and as pointers (gathers, scatters, atomics)."""

    def array(self, v: Value) -> ArrayInfo:
        info = self.arrays.get(v.id)
        if info is None:
            raise self.unsupported(f"arrays of type {v.type} made this way")
        return info

    def bounded(self, x: TValue) -> TValue:
        """Shapes and strides are non-negative (upstream tells tileiras so wherever an array is made)."""
        if id(x) in self.known:
            return x
        return self.emit1("assume", {"value": x}, x.type, predicate=Bounded(0, None))

    def make_array(self, v: Value, ptr: TValue, shape: List[TValue], strides: List[TValue],
                   facts: Optional[ArrayFacts] = None, fresh_ptr: bool = False) -> ArrayInfo:
        """Bind array value `v` to its pieces, with a tensor view when a view-reading op uses it.

        Shapes and strides are assumed non-negative, and divisible by what is known of them where
        they build a view (as upstream does); positive constant extents are part of the view's type.
        A `fresh_ptr` (a slice's, a list item's) that builds a view is assumed divisible too.
        """
        t: ArrayType = v.type
        facts = facts or self.facts.array(v)
        viewed = v.id in self.viewed
        if fresh_ptr and viewed:
            ptr = self.divisible(ptr, facts.ptr.assumed)
        shape = [self._piece(s, f, viewed) for s, f in zip(shape, facts.shape)]
        strides = [self._piece(s, f, viewed) for s, f in zip(strides, facts.strides)]
        view = None
        if v.id in self.viewed:
            static = [self._static_extent(s) for s in shape]
            static_st = [self._static_extent(s) for s in strides]
            tv = TensorView(elem_of(t.dtype), tuple(static), tuple(static_st))
            view = self.emit1("make_tensor_view", {
                "base": ptr, "dynamicShape": [s for s, c in zip(shape, static) if c is None],
                "dynamicStrides": [s for s, c in zip(strides, static_st) if c is None]}, tv)
        info = self.arrays[v.id] = ArrayInfo(ptr, shape, strides, view, t)
        return info

    def _piece(self, x: TValue, fact, viewed: bool) -> TValue:
        """An extent or stride: its constant when known, else assumed non-negative, and divisible
        by what is known of it when it builds a view (upstream assumes divisibility only there)."""
        if fact.const is not None and id(x) not in self.known:
            return self.const(fact.const, x.type.elem)
        x = self.bounded(x)
        return self.divisible(x, fact.assumed) if viewed else x

    def divisible(self, x: TValue, divisor: int) -> TValue:
        """`assume div_by<divisor>` of x (nothing for 1 or a known constant, which says more)."""
        if divisor <= 1 or id(x) in self.known:
            return x
        return self.emit1("assume", {"value": x}, x.type, predicate=DivBy(divisor))

    def _static_extent(self, x: TValue):
        """A known positive constant (TileIR's tensor-view types take only those), else None."""
        c = self.known.get(id(x))
        return c if c is not None and c > 0 else None

    def array_param(self, v: Value, params: List[TValue]):
        """The TileIR parameters of an array: pointer, shape, strides (returned in that order)."""
        t: ArrayType = v.type
        idx = Tile((), elem_of(t.index_dtype))
        ptr = TValue(Tile((), Ptr(elem_of(t.dtype))))
        shape = [TValue(idx) for _ in range(t.ndim)]
        strides = [TValue(idx) for _ in range(t.ndim)]
        params.extend([ptr] + shape + strides)
        return ptr, shape, strides

    def param_facts(self, v: Value, raw):
        """An array parameter's pieces as the kernel uses them: assumed divisible by what the
        signature says, and constants where it gives their value."""
        ptr, shape, strides = raw
        f = self.facts.array(v)
        ptr = self.divisible(ptr, f.ptr.assumed)
        shape = [self.divisible(x, p.assumed) if p.const is None else x for x, p in zip(shape, f.shape)]
        strides = [self.divisible(x, p.assumed) if p.const is None else x for x, p in zip(strides, f.strides)]
        return ptr, shape, strides

    def param_constants(self, v: Value, pieces):
        """The constants the signature gives an array parameter's extents (after every assume)."""
        ptr, shape, strides = pieces
        f = self.facts.array(v)
        idx = shape[0].type.elem if shape else None
        shape = [x if p.const is None else self.const(p.const, idx) for x, p in zip(shape, f.shape)]
        strides = [x if p.const is None else self.const(p.const, idx) for x, p in zip(strides, f.strides)]
        return ptr, shape, strides

    def op_array_dim(self, op: Op) -> None:
        info = self.array(op.operands[0])
        vals = info.shape if op.attrs["what"] == "shape" else info.strides
        self.bind(op, vals[op.attrs["axis"]])

    def partition(self, info: ArrayInfo, shape, order, padding, steps=None) -> TValue:
        """The view tiled loads/stores index: a partition view, or a strided view when tile origins
        are not one tile apart (`traversal_steps`)."""
        if len(shape) != info.atype.ndim:
            # upstream's front end accepts this too, but its bytecode fails in tileiras the same way
            raise TileUnsupportedFeatureError(
                f"a rank-{len(shape)} tile cannot be stored to or loaded from a rank-{info.atype.ndim} array on "
                f"the GPU: tileiras requires a partition view's tile rank to equal its array's rank", self.loc)
        pad = PADDING.get(enum_name(padding)) if padding is not None else None
        if steps and tuple(steps) != tuple(shape):
            sv = StridedView(tuple(shape), tuple(steps), info.view.type, tuple(order), pad)
            return self.emit1("make_strided_view", {"tensor_view": info.view}, sv)
        pv = PartitionView(tuple(shape), info.view.type, tuple(order), pad)
        return self.emit1("make_partition_view", {"tensor_view": info.view}, pv)

    def _mem_attrs(self, op: Op) -> dict:
        mo = enum_name(op.attrs.get("memory_order", "WEAK")).lower()
        attrs = {"memory_ordering_semantics": mo}
        scope = SCOPE.get(enum_name(op.attrs.get("memory_scope", "NONE")))
        if scope is not None:
            attrs["memory_scope"] = scope
        hints = []
        if op.attrs.get("allow_tma") is False:
            hints.append(("allow_tma", False))
        if op.attrs.get("latency") is not None:
            hints.append(("latency", op.attrs["latency"]))
        if hints:
            attrs["optimization_hints"] = Hints((("default", tuple(hints)),))
        attrs["inbounds"] = ()
        return attrs

    def load_view(self, op: Op, info: ArrayInfo, idx: List[Value], shape, order, padding, steps=None) -> None:
        """`load_view_tko` of the tile at tile index `idx`, reshaped to the op's result shape."""
        pv = self.partition(info, shape, order, padding, steps)
        res_t = Tile(tuple(shape), elem_of(info.atype.dtype))
        attrs = self._mem_attrs(op)
        attrs["inbounds"] = (not op.attrs.get("check_bounds", True),) * len(idx)
        ld = self.emit("load_view_tko", {"view": pv, "index": self.indices(info, idx), "token": self.mem_in(op)},
                       [res_t, TOKEN], attrs, hints=("tile", "result_token"))
        self.mem_out(op, ld.results[1])
        out = tuple(op.result.type.shape)
        self.bind(op, ld.results[0] if res_t.shape == out else self.to_shape(ld.results[0], out))

    def store_view(self, op: Op, info: ArrayInfo, idx: List[Value], t: Value, order, steps=None) -> None:
        tv = self.v(t)
        shape = tuple(tv.type.shape)
        ndim = info.atype.ndim
        if len(shape) != ndim:
            shape = (1,) * (ndim - len(shape)) + shape
            tv = self.emit1("reshape", {"source": tv}, Tile(shape, tv.type.elem))
        pv = self.partition(info, shape, order, None, steps)
        attrs = self._mem_attrs(op)
        attrs["inbounds"] = (not op.attrs.get("check_bounds", True),) * len(idx)
        st = self.emit("store_view_tko", {"tile": tv, "view": pv, "index": self.indices(info, idx),
                                          "token": self.mem_in(op)}, [TOKEN], attrs)
        self.mem_out(op, st.result)

    def indices(self, info: ArrayInfo, idx: List[Value]) -> List[TValue]:
        """Tile indices: 64-bit arrays index with i64 (so bid * tile cannot overflow), others i32."""
        out = []
        wide = info.atype.index_dtype.bitwidth > 32
        for i in idx:
            x = self.v(i)
            if wide and x.type.elem.name != "i64":
                x = self.emit1("exti", {"from": x}, Tile((), Scalar("i64")),
                               signedness="signed" if i.type.dtype.kind == "int" else "unsigned")
            elif not wide and x.type.elem.name == "i64":
                x = self.emit1("trunci", {"from": x}, Tile((), Scalar("i32")), overflow="none")
            out.append(x)
        return out

    def op_load_tile(self, op: Op) -> None:
        a, *idx = op.operands
        self.load_view(op, self.array(a), idx, op.attrs["shape"], op.attrs["order"], op.attrs.get("padding_mode"),
                       op.attrs.get("traversal_steps"))

    def op_store_tile(self, op: Op) -> None:
        a, *idx, t = op.operands
        self.store_view(op, self.array(a), idx, t, op.attrs["order"], op.attrs.get("traversal_steps"))

    def index_space(self, info: ArrayInfo, shape, order, axis: int, steps=None) -> TValue:
        pv = self.partition(info, shape, order, None, steps)
        i32 = Tile((), Scalar("i32"))
        shp = self.emit("get_index_space_shape", {"src": pv}, [i32] * info.atype.ndim)
        return shp.results[axis]

    def op_num_tiles(self, op: Op) -> None:
        info = self.array(op.operands[0])
        self.bind(op, self.index_space(info, op.attrs["shape"], op.attrs["order"], op.attrs["axis"],
                                       op.attrs.get("traversal_steps")))

    # -- pointers: gather / scatter / atomics ---------------------------------------------------
    def pointers(self, info: ArrayInfo, idx: List[TValue], check_bounds: bool, mask: Optional[TValue],
                 signs: Optional[List[str]] = None, shape=None, divs: Optional[tuple] = None):
        """Element pointers for index tiles (broadcast to `shape`) and the in-bounds mask, built
        in upstream's order (per axis: index, bounds test, stride product; then the pointer; the
        bounds mask and then the user's mask). Known extents and strides are constants of the
        whole shape made at the top of the kernel, where upstream materializes them. With `divs`
        (the index divisors and the array's facts: a gather's or scatter's), a pointer of one
        element is assumed divisible as upstream's dataflow finds it."""
        shape = tuple(shape) if shape is not None else (tuple(idx[0].type.shape) if idx else ())
        i64 = Scalar("i64")
        b = Tile(shape, Scalar("i1"))
        offset = None
        inb = None
        for k, ix in enumerate(idx):
            if id(ix) in self.known:                 # a constant index is a constant (upstream folds astype)
                ix = self.const(self.known[id(ix)], i64)
            elif ix.type.elem.name != "i64":          # widened, then broadcast (unsigned ones zero-extended)
                ix = self.emit1("exti", {"from": ix}, Tile(ix.type.shape, i64),
                                signedness=signs[k] if signs else "signed")
            ix = self.to_shape(ix, shape) if id(ix) not in self.known or not shape else \
                self.top_const(self.known[id(ix)], i64, shape)
            if check_bounds:
                lim = self.i64_like(info.shape[k], shape)
                ok = self.emit1("cmpi", {"lhs": ix, "rhs": lim}, b, comparison_predicate="less_than",
                                signedness="unsigned")
                inb = ok if inb is None else self.emit1("andi", {"lhs": inb, "rhs": ok}, b)
            term = self.emit1("muli", {"lhs": ix, "rhs": self.i64_like(info.strides[k], shape)}, Tile(shape, i64),
                              overflow="none")
            offset = term if offset is None else self.emit1("addi", {"lhs": offset, "rhs": term},
                                                             Tile(shape, i64), overflow="none")
        base = self.to_shape(info.ptr, shape)
        ptr = base if offset is None else \
            self.emit1("offset", {"ptr": base, "offset": offset}, Tile(shape, info.ptr.type.elem))
        if divs is not None and offset is not None and all(d == 1 for d in shape):
            ptr = self.divisible(ptr, pointer_divisor(info, *divs))
        if mask is not None:
            mask = self.to_shape(mask, shape)
            inb = mask if inb is None else self.emit1("andi", {"lhs": inb, "rhs": mask}, b)
        return ptr, inb

    def i64_like(self, x: TValue, shape) -> TValue:
        """An extent or stride as i64 of `shape`: a known one is a constant made at the top."""
        if id(x) in self.known:
            return self.top_const(self.known[id(x)], Scalar("i64"), shape)
        return self.to_shape(self.to_i64(x), shape)

    def to_i64(self, x: TValue) -> TValue:
        """An index-typed scalar as i64 (a constant stays a constant, as upstream folds it)."""
        if x.type.elem.name == "i64":
            return x
        if id(x) in self.known:
            return self.const(self.known[id(x)], Scalar("i64"))
        return self.emit1("exti", {"from": x}, Tile((), Scalar("i64")), signedness="signed")

    def element_indices(self, op: Op, n: int) -> List[TValue]:
        """A gather's, scatter's or atomic's n index tiles, before the front end broadcast them to
        their common shape for the op: upstream widens each index to 64 bits first, then
        broadcasts it (`pointers`); the broadcast left unused is dropped."""
        return [self.unbroadcast(op, x) for x in op.operands[1:1 + n]]

    def stored_value(self, op: Op, x) -> TValue:
        """A scatter's or atomic's value as it was before the front end reshaped and broadcast it
        for `op`: upstream shapes it after the pointers (an integer constant stays the constant
        tile materialized at the top)."""
        while x.owner is not None and x.owner.name in ("reshape", "broadcast") and x.owner.loc == op.loc \
                and id(x.owner) not in self.deferred_ops and x.owner.operands[0].id in self.vals \
                and not isinstance(x.const, (int, bool)):
            x = x.owner.operands[0]
        return self.v(x)

    def unbroadcast(self, op: Op, x) -> TValue:
        """Operand `x` of `op` as it was before the front end broadcast it for `op`."""
        b = x.owner
        if b is not None and b.name == "broadcast" and b.loc == op.loc and b.operands[0].id in self.vals:
            x = b.operands[0]
        return self.v(x)

    def index_divisors(self, op: Op, n: int) -> tuple:
        """(divisors of a gather's/scatter's indices, the array's facts), for `pointers`."""
        return tuple(self.facts.of(x).div for x in op.operands[1:1 + n]), self.facts.array(op.operands[0])

    def defer_paddings(self, fn) -> None:
        """Upstream converts and broadcasts a gather's padding, a scatter's value and an atomic's
        operands (raw memory's too) after the pointers: what the typed IR makes for the op alone (at
        its location: a broadcast, a reshape, and a constant not made where its number was bound)
        is lowered inside the op's rule, after the pointers."""
        uses: dict = {}
        for op in fn.body.walk():
            for o in op.operands:
                uses[o.id] = uses.get(o.id, 0) + 1
        for op in fn.body.walk():
            operands = _deferred_operands(op)
            deferred = []
            for v in operands:
                chain, const = [], False
                while v.owner is not None:
                    o, alone = v.owner, uses.get(v.id) == 1 and v.owner.loc == op.loc
                    if o.name == "const":
                        const = True
                        if alone and o.origin is None:     # a bound number's constant stays at its site
                            chain.append(o)
                        break
                    if o.name not in ("reshape", "broadcast") or not alone:
                        break
                    chain.append(o)
                    v = o.operands[0]
                if chain and const:
                    deferred.extend(chain[::-1])
            if deferred:
                self.deferred[id(op)] = deferred
                self.deferred_ops.update(id(o) for o in deferred)

    def op_gather(self, op: Op) -> None:
        a = op.operands[0]
        info = self.array(a)
        n = info.atype.ndim
        idx = self.element_indices(op, n)
        mask = self.unbroadcast(op, op.operands[2 + n]) if op.attrs.get("has_mask") else None
        shape = tuple(op.result.type.shape)
        ptr, inb = self.pointers(info, idx, op.attrs.get("check_bounds", True), mask, _signs(op, n), shape,
                                 self.index_divisors(op, n))
        self.lower_deferred(op)
        pad = self.v(op.operands[1 + n])
        # (upstream passes the padding even where nothing is masked)
        args = {"source": ptr, "mask": inb, "paddingValue": self.to_shape(pad, shape, fold=True),
                "token": self.mem_in(op)}
        attrs = self._mem_attrs(op)
        attrs.pop("inbounds")
        ld = self.emit("load_ptr_tko", args, [ttype(op.result.type), TOKEN], attrs, hints=("result", "result_token"))
        self.mem_out(op, ld.results[1])
        self.bind(op, ld.results[0])

    def op_scatter(self, op: Op) -> None:
        info = self.array(op.operands[0])
        n = info.atype.ndim
        idx = self.element_indices(op, n)
        value = op.operands[1 + n]
        mask = self.unbroadcast(op, op.operands[2 + n]) if op.attrs.get("has_mask") else None
        shape = tuple(value.type.shape)
        for i in idx:
            if len(i.type.shape) > len(shape) or i.type.shape != shape:
                shape = tuple(max(p, q) for p, q in zip(i.type.shape, shape)) if len(i.type.shape) == len(
                    shape) else i.type.shape
        ptr, inb = self.pointers(info, idx, op.attrs.get("check_bounds", True), mask, _signs(op, n), shape,
                                 self.index_divisors(op, n))
        self.lower_deferred(op)
        val = self.to_shape(self.stored_value(op, value), shape)
        attrs = self._mem_attrs(op)
        attrs.pop("inbounds")
        st = self.emit("store_ptr_tko", {"destination": ptr, "value": val, "mask": inb, "token": self.mem_in(op)},
                       [TOKEN], attrs)
        self.mem_out(op, st.result)

    def _atomic_prelude(self, op: Op, n_tail: int):
        info = self.array(op.operands[0])
        n = info.atype.ndim
        idx = self.element_indices(op, n)
        shape = tuple(op.result.type.shape)
        ptr, inb = self.pointers(info, idx, op.attrs.get("check_bounds", True), None, _signs(op, n), shape)
        self.lower_deferred(op)
        tail = [self.to_shape(self.stored_value(op, x), shape) for x in op.operands[1 + n:1 + n + n_tail]]
        mo = enum_name(op.attrs.get("memory_order", "ACQ_REL")).lower()
        scope = SCOPE.get(enum_name(op.attrs.get("memory_scope", "DEVICE"))) or "device"
        return ptr, inb, tail, {"memory_ordering_semantics": mo, "memory_scope": scope}

    def op_atomic(self, op: Op) -> None:
        ptr, inb, (upd,), attrs = self._atomic_prelude(op, 1)
        dt = op.result.type.dtype
        mode = op.attrs["mode"]
        if is_float(dt):
            if mode == "add":
                mode = "addf"
            elif mode != "xchg":
                raise self.unsupported(f"float atomic '{mode}'")
        elif dt.kind == "uint" and mode in ("max", "min"):
            mode = "u" + mode
        attrs["mode"] = mode
        r = self.emit("atomic_rmw_tko", {"pointers": ptr, "arg": upd, "mask": inb, "token": self.mem_in(op)},
                      [ttype(op.result.type), TOKEN], attrs, hints=("result", "result_token"))
        self.mem_out(op, r.results[1])
        self.bind(op, r.results[0])

    def op_atomic_cas(self, op: Op) -> None:
        ptr, inb, (exp, des), attrs = self._atomic_prelude(op, 2)
        r = self.emit("atomic_cas_tko",
                      {"pointers": ptr, "cmp": exp, "val": des, "mask": inb, "token": self.mem_in(op)},
                      [ttype(op.result.type), TOKEN], attrs, hints=("result", "result_token"))
        self.mem_out(op, r.results[1])
        # out of bounds the result is `expected` (cuTile's contract): the masked op itself gives
        # that, as upstream's lowering relies on (no select after it)
        self.bind(op, r.results[0])


# the operands made after the pointers (defer_paddings): how many after the array and its indices,
# or after raw memory and its offsets
_DEFERRED_OPERANDS = {"gather": 1, "scatter": 1, "atomic": 1, "atomic_cas": 2,
                      "raw_load": 1, "raw_store": 1, "raw_atomic": 1, "raw_atomic_cas": 2}


def _deferred_operands(op: Op) -> list:
    count = _DEFERRED_OPERANDS.get(op.name)
    if count is None:
        return []
    first = 2 if op.name.startswith("raw_") else 1 + op.operands[0].type.ndim
    return op.operands[first:first + count]


def _signs(op: Op, n: int) -> List[str]:
    """Signedness of a gather/scatter/atomic's n index operands (after the array)."""
    return [sign_of(x.type.dtype) for x in op.operands[1:1 + n]]


def pointer_divisor(info: ArrayInfo, index_divs, facts: ArrayFacts, unit: bool = False) -> int:
    """What upstream's dataflow knows divides a pointer moved by sum(index * stride) elements (with
    `unit`, by one offset in elements): the gcd of the base's divisor and the offset's in bytes (a
    divisor of 0: the value is zero)."""
    off = 0
    strides = [1] * len(index_divs) if unit else [st.const if st.const is not None else st.div
                                                  for st in facts.strides]
    for d, st in zip(index_divs, strides):
        off = gcd(off, d * st)
    bits = bitwidth(info.ptr.type.elem.elem)
    d = gcd(facts.ptr.div, off * (bits // 8)) if bits % 8 == 0 else gcd(facts.ptr.div, 1)
    return Fact(d).assumed


# each op's TileIR rule, by op name (lower.py puts them into the primitive table)
RULES = {
    "array_dim": MemoryRules.op_array_dim, "load_tile": MemoryRules.op_load_tile,
    "store_tile": MemoryRules.op_store_tile, "num_tiles": MemoryRules.op_num_tiles, "gather": MemoryRules.op_gather,
    "scatter": MemoryRules.op_scatter, "atomic": MemoryRules.op_atomic, "atomic_cas": MemoryRules.op_atomic_cas,
}
