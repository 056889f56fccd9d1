"""TileIR rules for other views of arrays: slices, tiled views, raw memory, list items, advanced
indexing, and arrays flowing through `if`.

An array value is its pieces (`ArrayInfo`: pointer, shape, strides); a slice or a list item is new
pieces, a tiled view or raw memory refers to its array's. Tiled-view loads and stores build their
partition (or strided) view at the op, as upstream does.
"""
from __future__ import annotations

from typing import List

from ... import dtypes as D
from ...ir.core import Op, Value
from ...ir.types import ArrayType, ListType, RawMemoryType, TiledViewType
from .ir import TOKEN, GatherScatterView, PartitionView, Ptr, Scalar, TensorView, Tile, TValue
from .lower_common import PADDING, SCOPE, elem_of, enum_name, is_float, ttype
from .lower_memory import ArrayInfo, pointer_divisor

I32, I64 = Scalar("i32"), Scalar("i64")


def list_tile_width(words: int) -> int:
    """Upstream loads a list item's words as one (1, next power of two) i64 tile."""
    n = 1
    while n < words:
        n *= 2
    return n


class ViewRules:
    """Array slices, tiled views, raw memory, lists of arrays, advanced indexing."""

    # -- Array.slice -------------------------------------------------------------------------
    def op_array_slice(self, op: Op) -> None:
        a, start, stop = op.operands
        info = self.array(a)
        ax = op.attrs["axis"]
        idx = info.shape[ax].type.elem
        lo, hi = self.v(start), self.v(stop)
        # the base moves by start * stride[axis] elements, widened to 64 bits as upstream does
        lo_i = self.widen(lo, start.type.dtype, idx)
        off = self.emit1("muli", {"lhs": lo_i, "rhs": info.strides[ax]}, lo_i.type, overflow="none")
        ptr = self.emit1("offset", {"ptr": info.ptr, "offset": self.widen(off, D.int32, I64)}, info.ptr.type)
        viewed = op.result.id in self.viewed
        if viewed:                          # (upstream assumes the new base divisible before the extent)
            ptr = self.divisible(ptr, self.facts.array(op.result).ptr.assumed)
        if id(lo) in self.known and id(hi) in self.known:
            n = self.const(self.known[id(hi)] - self.known[id(lo)], idx)
        else:
            n = self.widen(self.emit1("subi", {"lhs": hi, "rhs": lo}, hi.type, overflow="none"), stop.type.dtype, idx)
        shape = [n if i == ax else s for i, s in enumerate(info.shape)]
        # as upstream: the new array's known strides are constants of its own (its dataflow makes
        # them at the top), and a viewed array keeps its constant pieces
        strides = [self.top_const(self.known[id(x)], x.type.elem) if id(x) in self.known else x
                   for x in info.strides]
        if viewed:
            self.kept.update(id(x) for x in shape + strides)
        self.make_array(op.result, ptr, shape, strides)

    def widen(self, x: TValue, dt: D.DType, to: Scalar) -> TValue:
        """An integer scalar converted to `to` (sign-extended for signed dtypes, truncated when narrower)."""
        if x.type.elem == to:
            return x
        have = int(x.type.elem.name[1:])
        want = int(to.name[1:])
        if have < want:
            sign = "signed" if dt.kind == "int" else "unsigned"
            return self.emit1("exti", {"from": x}, Tile(x.type.shape, to), signedness=sign)
        return self.emit1("trunci", {"from": x}, Tile(x.type.shape, to), overflow="none")

    # -- tiled views ---------------------------------------------------------------------------
    def op_tiled_view(self, op: Op) -> None:
        self.arrays[op.result.id] = self.array(op.operands[0])

    def _view_parts(self, view: Value):
        vt: TiledViewType = view.type
        nd = len(vt.order)
        shape = vt.tile_shape or (1,) * nd
        steps = vt.traversal_steps or shape
        return self.array(view), vt, shape, steps

    def op_tiled_load(self, op: Op) -> None:
        view, *idx = op.operands
        info, vt, shape, steps = self._view_parts(view)
        self.load_view(op, info, idx, shape, vt.order, vt.padding_mode, steps)

    def op_tiled_store(self, op: Op) -> None:
        view, *idx, t = op.operands
        info, vt, shape, steps = self._view_parts(view)
        self.store_view(op, info, idx, t, vt.order, steps)

    def op_tiled_num_tiles(self, op: Op) -> None:
        info, vt, shape, steps = self._view_parts(op.operands[0])
        self.bind(op, self.index_space(info, shape, vt.order, op.attrs["axis"], steps))

    def op_tiled_atomic(self, op: Op) -> None:
        view, *idx, upd = op.operands
        info, vt, shape, steps = self._view_parts(view)
        pv = self.partition(info, shape, vt.order, None, steps)
        attrs = {"memory_ordering_semantics": enum_name(op.attrs["memory_order"]).lower(),
                 "memory_scope": SCOPE[enum_name(op.attrs["memory_scope"])],
                 "mode": self.rmw_mode(op.attrs["mode"], vt.dtype), "inbounds": ()}
        r = self.emit("atomic_red_view_tko", {"view": pv, "index": self.indices(info, idx), "value": self.v(upd),
                                              "token": self.mem_in(op)}, [TOKEN], attrs)
        self.mem_out(op, r.result)

    def rmw_mode(self, mode: str, dt: D.DType) -> str:
        if is_float(dt):
            if mode == "add":
                return "addf"
            if mode != "xchg":
                raise self.unsupported(f"float atomic '{mode}'")
        elif dt.kind == "uint" and mode in ("max", "min"):
            return "u" + mode
        return mode

    # -- raw memory ----------------------------------------------------------------------------
    def op_raw_memory(self, op: Op) -> None:
        self.arrays[op.result.id] = self.array(op.operands[0])

    def raw_pointers(self, raw: Value, offsets: Value, shape, assume: bool = True) -> TValue:
        """base + offset (elements), the offset sign-extended to i64 as upstream does; with `assume`
        (a load's or store's, not an atomic's) a one-element pointer is assumed divisible."""
        info = self.array(raw)
        x = self.v(offsets)
        if id(x) in self.known:                  # a constant offset: converted at compile time
            wide = self.const(self.known[id(x)], I64)
        else:
            wide = self.widen(x, offsets.type.dtype, I64)
        off = self.to_shape(wide, shape)
        base = self.to_shape(info.ptr, shape)
        ptr = self.emit1("offset", {"ptr": base, "offset": off}, Tile(tuple(shape), info.ptr.type.elem))
        if assume and all(d == 1 for d in shape):       # as for a gather's
            facts = self.facts.array(raw)
            ptr = self.divisible(ptr, pointer_divisor(info, (self.facts.of(offsets).div,), facts, unit=True))
        return ptr

    def op_raw_load(self, op: Op) -> None:
        raw, off, pad, *mask = op.operands
        shape = tuple(op.result.type.shape)
        ptr = self.raw_pointers(raw, off, shape)
        self.lower_deferred(op)
        m = self.to_shape(self.v(mask[0]), shape) if mask else None
        attrs = self._mem_attrs(op)
        attrs.pop("inbounds")
        # (upstream passes the padding even where nothing is masked)
        args = {"source": ptr, "mask": m, "paddingValue": self.to_shape(self.v(pad), shape, fold=True),
                "token": self.mem_in(op)}
        ld = self.emit("load_ptr_tko", args, [ttype(op.result.type), TOKEN], attrs, hints=("result", "result_token"))
        self.mem_out(op, ld.results[1])
        self.bind(op, ld.results[0])

    def op_raw_store(self, op: Op) -> None:
        raw, off, val, *mask = op.operands
        shape = tuple(val.type.shape)
        ptr = self.raw_pointers(raw, off, shape)
        self.lower_deferred(op)
        m = self.to_shape(self.v(mask[0]), shape) if mask else None
        attrs = self._mem_attrs(op)
        attrs.pop("inbounds")
        st = self.emit("store_ptr_tko", {"destination": ptr, "value": self.v(val), "mask": m,
                                         "token": self.mem_in(op)}, [TOKEN], attrs)
        self.mem_out(op, st.result)

    def _raw_atomic_attrs(self, op: Op) -> dict:
        return {"memory_ordering_semantics": enum_name(op.attrs.get("memory_order", "ACQ_REL")).lower(),
                "memory_scope": SCOPE.get(enum_name(op.attrs.get("memory_scope", "DEVICE"))) or "device"}

    def op_raw_atomic(self, op: Op) -> None:
        raw, off, upd, *mask = op.operands
        shape = tuple(op.result.type.shape)
        ptr = self.raw_pointers(raw, off, shape, assume=False)
        self.lower_deferred(op)
        attrs = self._raw_atomic_attrs(op)
        attrs["mode"] = self.rmw_mode(op.attrs["mode"], op.result.type.dtype)
        m = self.to_shape(self.v(mask[0]), shape) if mask else None
        r = self.emit("atomic_rmw_tko", {"pointers": ptr, "arg": self.to_shape(self.v(upd), shape), "mask": m,
                                         "token": self.mem_in(op)}, [ttype(op.result.type), TOKEN], attrs,
                      hints=("result", "result_token"))
        self.mem_out(op, r.results[1])
        self.bind(op, r.results[0])

    def op_raw_atomic_cas(self, op: Op) -> None:
        raw, off, exp, des, *mask = op.operands
        shape = tuple(op.result.type.shape)
        ptr = self.raw_pointers(raw, off, shape, assume=False)
        self.lower_deferred(op)
        m = self.to_shape(self.v(mask[0]), shape) if mask else None
        r = self.emit("atomic_cas_tko", {"pointers": ptr, "cmp": self.to_shape(self.v(exp), shape),
                                         "val": self.to_shape(self.v(des), shape), "mask": m,
                                         "token": self.mem_in(op)}, [ttype(op.result.type), TOKEN],
                      self._raw_atomic_attrs(op), hints=("result", "result_token"))
        self.mem_out(op, r.results[1])
        self.bind(op, r.results[0])

    # -- lists of arrays -----------------------------------------------------------------------
    def list_param(self, v: Value, params: List[TValue]) -> None:
        """A list parameter is a pointer to its items' words (pointer, shape, strides, each an i64)
        and its length; items are read through a (length x words) tensor view."""
        item: ArrayType = v.type.item
        words = 1 + 2 * item.ndim
        base, length = TValue(Tile((), Ptr(I64))), TValue(Tile((), I32))
        params.extend([base, length])
        tv = TensorView(I64, (None, words), (words, 1))
        view = self.emit1("make_tensor_view", {"base": base, "dynamicShape": [length], "dynamicStrides": []}, tv)
        pv = PartitionView((1, list_tile_width(words)), tv, (0, 1), None)
        self.lists[v.id] = (self.emit1("make_partition_view", {"tensor_view": view}, pv), length)

    def op_list_item(self, op: Op) -> None:
        lst, index = op.operands
        item: ArrayType = op.result.type
        pv, _ = self.lists[lst.id]
        words = 1 + 2 * item.ndim
        width = list_tile_width(words)
        i = self.widen(self.v(index), index.type.dtype, I32)
        zero = self.const(0, I32)
        row = self.emit("load_view_tko", {"view": pv, "index": [i, zero], "token": None},
                        [Tile((1, width), I64), TOKEN], {"memory_ordering_semantics": "weak",
                                                         "inbounds": (False, False)},
                        hints=("tile", "result_token")).results[0]
        vals = []
        for k in range(words):
            w = self.emit1("extract", {"source": row, "indices": [zero, self.const(k, I32)]}, Tile((1, 1), I64))
            vals.append(self.emit1("reshape", {"source": w}, Tile((), I64)))
        idx = elem_of(item.index_dtype)
        rest = [w if idx == I64 else self.emit1("trunci", {"from": w}, Tile((), idx), overflow="none")
                for w in vals[1:]]
        ptr = self.emit1("int_to_ptr", {"source": vals[0]}, Tile((), Ptr(elem_of(item.dtype))))
        n = item.ndim
        self.make_array(op.result, ptr, rest[:n], rest[n:], fresh_ptr=True)

    def op_list_len(self, op: Op) -> None:
        self.bind(op, self.lists[op.operands[0].id][1])

    # -- advanced indexing ----------------------------------------------------------------------
    def _gather_view(self, op: Op, info: ArrayInfo, padding) -> TValue:
        pad = PADDING.get(enum_name(padding)) if padding is not None else None
        gv = GatherScatterView(tuple(op.attrs["shape"]), info.view.type, op.attrs["sparse_dim"], pad)
        return self.emit1("make_gather_scatter_view", {"tensor_view": info.view}, gv)

    def op_load_advanced(self, op: Op) -> None:
        a, *idx = op.operands
        info = self.array(a)
        gv = self._gather_view(op, info, op.attrs.get("padding_mode"))
        attrs = self._mem_attrs(op)
        attrs["inbounds"] = (False,) * len(idx)
        ld = self.emit("load_view_tko", {"view": gv, "index": [self.v(i) for i in idx], "token": self.mem_in(op)},
                       [ttype(op.result.type), TOKEN], attrs, hints=("tile", "result_token"))
        self.mem_out(op, ld.results[1])
        self.bind(op, ld.results[0])

    def op_store_advanced(self, op: Op) -> None:
        a, *idx, t = op.operands
        info = self.array(a)
        gv = self._gather_view(op, info, None)
        attrs = self._mem_attrs(op)
        attrs["inbounds"] = (False,) * len(idx)
        st = self.emit("store_view_tko", {"tile": self.v(t), "view": gv, "index": [self.v(i) for i in idx],
                                          "token": self.mem_in(op)}, [TOKEN], attrs)
        self.mem_out(op, st.result)

    # -- arrays through control flow -------------------------------------------------------------
    def flat_values(self, v: Value) -> List[TValue]:
        """The TileIR values of a typed-IR value: an array is its pointer and the extents and
        strides its type does not fix (a static one is part of the type, as upstream's)."""
        if isinstance(v.type, ArrayType):
            info = self.array(v)
            return [info.ptr] + [x for x, fixed in zip(info.shape + info.strides, _static(v.type)) if not fixed]
        if isinstance(v.type, (ListType, TiledViewType, RawMemoryType)):
            raise self.unsupported(f"values of type {v.type} passed through control flow")
        return [self.v(v)]

    def flat_types(self, t) -> list:
        if isinstance(t, ArrayType):
            idx = Tile((), elem_of(t.index_dtype))
            return [Tile((), Ptr(elem_of(t.dtype)))] + [idx for fixed in _static(t) if not fixed]
        if isinstance(t, (ListType, TiledViewType, RawMemoryType)):
            raise self.unsupported(f"values of type {t} passed through control flow")
        return [ttype(t)]

    def bind_flat(self, results: List[Value], vals: List[TValue]) -> None:
        """Bind typed-IR results to the flat TileIR values of a control-flow op (arrays re-assumed
        non-negative and viewed again after the join, as upstream does; a static extent or
        stride is a constant made at the top, where upstream materializes the joined value)."""
        k = 0
        for r in results:
            if isinstance(r.type, ArrayType):
                t, idx = r.type, elem_of(r.type.index_dtype)
                ptr, pieces = vals[k], []
                k += 1
                for value, fixed in zip(t.shape + t.strides, _static(t)):
                    if fixed:
                        pieces.append(self.top_const(value, idx))
                        if r.id in self.viewed:      # upstream's view op reads it (kept unused)
                            self.kept.add(id(pieces[-1]))
                    else:
                        pieces.append(vals[k])
                        k += 1
                self.make_array(r, ptr, pieces[:t.ndim], pieces[t.ndim:], fresh_ptr=True)
            else:
                self.vals[r.id] = vals[k]
                k += 1


def _static(t: ArrayType) -> tuple:
    """Which of an array type's extents, then strides, are fixed by the type."""
    return tuple(t.static_shape) + tuple(t.static_strides)


# each op's TileIR rule, by op name (lower.py puts them into the primitive table)
RULES = {
    "array_slice": ViewRules.op_array_slice, "tiled_view": ViewRules.op_tiled_view,
    "tiled_load": ViewRules.op_tiled_load, "tiled_store": ViewRules.op_tiled_store,
    "tiled_num_tiles": ViewRules.op_tiled_num_tiles, "tiled_atomic": ViewRules.op_tiled_atomic,
    "raw_memory": ViewRules.op_raw_memory, "raw_load": ViewRules.op_raw_load, "raw_store": ViewRules.op_raw_store,
    "raw_atomic": ViewRules.op_raw_atomic, "raw_atomic_cas": ViewRules.op_raw_atomic_cas,
    "list_item": ViewRules.op_list_item, "list_len": ViewRules.op_list_len,
    "load_advanced": ViewRules.op_load_advanced, "store_advanced": ViewRules.op_store_advanced,
}
