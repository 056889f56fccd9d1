"""Lower tilescope's final typed IR (`Compiled.final`) to the TileIR model in `ir.py`.

Calling convention v1: every array parameter becomes a pointer, then its shape (one
index-typed scalar per axis), then its strides in elements; run-time scalars pass as
0-d tiles; compile-time constants are not parameters. One `make_token` orders memory
operations the way upstream's weak loads/stores are ordered (see docs/tileir.md).
"""
from __future__ import annotations

import enum
import functools
import math
from typing import Dict, List, Optional, Sequence

from ... import dtypes as D
from ...errors import TileUnsupportedFeatureError
from ...ir.core import Block, Function, Op, Value
from ...ir.primitive import PRIMITIVES
from ...ir.types import ArrayType, TileType
from ...semantics.functions import UNARY as UNARY_FNS
from .ir import (TOKEN, Bounded, Dense, DivBy, FloatAttr, Hints, IntAttr, PartitionView, Ptr, Scalar, TBlock,
                 TensorView, TFunc, TModule, TOp, TValue, Tile)
from .elements import float_bits, int_bytes, storage_bytes
from .tokens import (ACQUIRE, MEMORY_OPS, UNIVERSE, Analysis, Effects, TokenMap, has_acquire, order_name,
                     prune_tokens)

ELEM = {
    "bool_": "i1", "int8": "i8", "uint8": "i8", "int16": "i16", "uint16": "i16", "int32": "i32",
    "uint32": "i32", "int64": "i64", "uint64": "i64", "float16": "f16", "bfloat16": "bf16",
    "float32": "f32", "float64": "f64", "tfloat32": "tf32", "float8_e4m3fn": "f8E4M3FN",
    "float8_e5m2": "f8E5M2", "float8_e8m0fnu": "f8E8M0FNU", "float4_e2m1fn": "f4E2M1FN",
}
PADDING = {"ZERO": "zero", "NEG_ZERO": "neg_zero", "NAN": "nan", "POS_INF": "pos_inf", "NEG_INF": "neg_inf"}
SCOPE = {"NONE": None, "BLOCK": "tl_blk", "DEVICE": "device", "SYS": "sys"}
PRED = {"eq": "equal", "ne": "not_equal", "lt": "less_than", "le": "less_than_or_equal",
        "gt": "greater_than", "ge": "greater_than_or_equal"}
RMW_INT = {"add": "add", "max": "max", "min": "min", "and": "and", "or": "or", "xor": "xor", "xchg": "xchg"}


def elem_of(dt: D.DType) -> Scalar:
    return Scalar(ELEM[dt.name])


def ttype(t: TileType) -> Tile:
    return Tile(tuple(t.shape), elem_of(t.dtype))


def _is_float(dt: D.DType) -> bool:
    return dt.kind == "float"


def _sign(dt: D.DType) -> str:
    return "signed" if dt.kind == "int" else "unsigned"


def _enum_name(x) -> str:
    return x.name if isinstance(x, enum.Enum) else str(x)


def _rounding(x, default="nearest_even") -> str:
    return x.value if isinstance(x, enum.Enum) else default


NARROW_FLOATS = {"float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu", "float4_e2m1fn"}
WIDENED_OPS = {"binary", "unary", "compare", "fma"}
POINTER_ONLY = {"gather", "scatter", "atomic", "atomic_cas", "array_dim", "raw_memory"}


class _LoopFrame:
    """An enclosing loop: the token keys it carries, its iteration's user values, its
    `returned` flag argument (None without one), and for a `for` lowered as `loop` the
    induction variable and step."""

    def __init__(self, keys, user_args, flag):
        self.keys, self.user_args, self.flag = keys, user_args, flag
        self.iv = self.step = None
        self.parallel: set = set()
        self.parent: Optional[TokenMap] = None


class _ArrayInfo:
    def __init__(self, ptr: TValue, shape: List[TValue], strides: List[TValue], view: TValue, atype: ArrayType):
        self.ptr, self.shape, self.strides, self.view, self.atype = ptr, shape, strides, view, atype


def mangle(name: str, params) -> str:
    """Upstream's kernel symbol scheme (calling convention v1, `t1`), for the constraints we know."""
    parts = [f"{name}_Kt1"]
    for p in params:
        if p.is_constant:
            c = p.constant
            if isinstance(c, bool):
                parts.append(f"B{int(c)}")
            elif isinstance(c, int):
                parts.append(f"I{c}" if c >= 0 else f"I_{-c}")
            elif isinstance(c, float):
                import struct
                parts.append("F" + format(struct.unpack("<Q", struct.pack("<d", c))[0], "016x"))
            continue
        for v in p.values:
            t = v.type
            if isinstance(t, ArrayType):
                text = f"A{t.ndim}{_MANGLED.get(t.dtype.name, t.dtype.short)}"
                if t.ndim:
                    text += f"_{(1 << t.ndim) - 1:x}l0"
                if t.index_dtype is D.int64:
                    text += "_w"
                parts.append(text)
            elif isinstance(t, TileType):
                parts.append("S" + _MANGLED.get(t.dtype.name, t.dtype.short))
    return "_".join(parts)


_MANGLED = {"bool_": "b8", "float8_e4m3fn": "f8m3fn", "float8_e5m2": "f8m2", "float8_e8m0fnu": "f8m0fnu"}


class Lowering:
    def __init__(self, fn: Function, *, hints: Optional[Hints] = Hints((("default", ()),))):
        self.fn = fn
        self.hints = hints
        self.vals: Dict[int, TValue] = {}
        self.arrays: Dict[int, _ArrayInfo] = {}
        self.block: Optional[TBlock] = None
        self.loc = fn.loc
        self.analysis = Analysis(fn)
        self.tm: Optional[TokenMap] = None        # current token of each memory chain
        self.loops: List[_LoopFrame] = []          # enclosing loops, innermost last
        self.if_keys: Optional[list] = None        # token keys the enclosing `if` returns

    # -- helpers ------------------------------------------------------------------
    def unsupported(self, what: str) -> TileUnsupportedFeatureError:
        return TileUnsupportedFeatureError(f"the TileIR backend does not support {what} yet", self.loc)

    def emit(self, name: str, args, result_types, attrs=None, regions=(), hints=()) -> TOp:
        op = TOp(name, args, result_types, attrs, regions, loc=self.loc, hints=hints)
        self.block.ops.append(op)
        return op

    def emit1(self, name, args, rtype, **attrs) -> TValue:
        return self.emit(name, args, [rtype], attrs).result

    def v(self, x: Value) -> TValue:
        try:
            return self.vals[x.id]
        except KeyError:
            raise TileUnsupportedFeatureError(f"the TileIR backend cannot use a value of type {x.type} "
                                              f"here", self.loc) from None

    def const(self, value, elem: Scalar, shape=()) -> TValue:
        if elem.name in ("f16", "bf16", "f32", "f64", "tf32", "f8E4M3FN", "f8E5M2", "f8E8M0FNU", "f4E2M1FN"):
            data = float_bits(float(value), elem).to_bytes(storage_bytes(elem), "little")
        else:
            data = int_bytes(int(value), elem)
        return self.emit1("constant", {}, Tile(tuple(shape), elem), value=Dense(elem, data, True))

    def splat_like(self, value, t: Tile) -> TValue:
        return self.const(value, t.elem, t.shape)

    def to_shape(self, x: TValue, shape) -> TValue:
        """Reshape/broadcast a tile to `shape` (ranks padded on the left)."""
        t = x.type
        shape = tuple(shape)
        if t.shape == shape:
            return x
        if len(t.shape) != len(shape):
            pad = (1,) * (len(shape) - len(t.shape)) + t.shape
            x = self.emit1("reshape", {"source": x}, Tile(pad, t.elem))
            t = x.type
        if t.shape != shape:
            x = self.emit1("broadcast", {"source": x}, Tile(shape, t.elem))
        return x

    # -- entry ----------------------------------------------------------------------
    def run(self) -> TModule:
        fn = self.fn
        params: List[TValue] = []
        body = TBlock()
        self.block = body
        self.tm = TokenMap(self.emit1("make_token", {}, TOKEN))
        # arrays reached only through pointers (gather/scatter/atomics) need no tensor view
        self.viewed = {o.id for op in fn.body.walk() if op.name not in POINTER_ONLY for o in op.operands}
        for p in fn.params:
            if p.is_constant:
                continue
            for v in p.values:
                t = v.type
                if isinstance(t, ArrayType):
                    self._array_param(v, t, params)
                elif isinstance(t, TileType):
                    tv = TValue(ttype(t))
                    params.append(tv)
                    self.vals[v.id] = tv
                else:
                    raise TileUnsupportedFeatureError(f"the TileIR backend does not support kernel "
                                                      f"parameters of type {t} yet", fn.loc)
        self.lower_block(fn.body)
        if not body.ops or body.ops[-1].name != "return":
            self.emit("return", {"operands": []}, [])
        prune_tokens(body)
        name = mangle(fn.name, fn.params)
        return TModule("kernels", [TFunc(name, params, body, True, self.hints, fn.loc, fn.name)])

    def _array_param(self, v: Value, t: ArrayType, params: List[TValue]) -> TValue:
        idx = Tile((), elem_of(t.index_dtype))
        ptr = TValue(Tile((), Ptr(elem_of(t.dtype))))
        shape = [TValue(idx) for _ in range(t.ndim)]
        strides = [TValue(idx) for _ in range(t.ndim)]
        params.extend([ptr] + shape + strides)
        bshape = [self.emit1("assume", {"value": s}, idx, predicate=Bounded(0, None)) for s in shape]
        bstrides = [self.emit1("assume", {"value": s}, idx, predicate=Bounded(0, None)) for s in strides]
        tv = TensorView(elem_of(t.dtype), (None,) * t.ndim, (None,) * t.ndim)
        view = None
        if v.id in self.viewed:
            view = self.emit1("make_tensor_view", {"base": ptr, "dynamicShape": bshape, "dynamicStrides": bstrides},
                              tv)
        self.arrays[v.id] = _ArrayInfo(ptr, bshape, bstrides, view, t)

    # -- blocks ---------------------------------------------------------------------
    def lower_block(self, b: Block) -> None:
        for op in b.ops:
            if op.loc is not None:
                self.loc = op.loc
            prim = PRIMITIVES.get(op.name)
            rule = prim.rule("tileir") if prim is not None else None
            if rule is None:
                raise self.unsupported(f"the '{op.name}' operation")
            handler = functools.partial(rule, self)
            if op.name in WIDENED_OPS and any(isinstance(o.type, TileType) and o.type.dtype.name in NARROW_FLOATS
                                              for o in op.operands):
                self._widened(op, handler)
            else:
                handler(op)

    def _widened(self, op: Op, handler) -> None:
        """TileIR's float math takes f16/bf16/f32/f64 only: compute an fp8 op in f32 (as upstream
        does) and round the result back."""
        f32 = D.float32
        shadow_operands = []
        for o in op.operands:
            if isinstance(o.type, TileType) and o.type.dtype.name in NARROW_FLOATS:
                w = Value(TileType(f32, o.type.shape))
                x = self.v(o)
                self.vals[w.id] = self.emit1("ftof", {"from": x}, Tile(x.type.shape, Scalar("f32")),
                                             rounding_mode="nearest_even")
                shadow_operands.append(w)
            else:
                shadow_operands.append(o)
        rtypes = [TileType(f32, r.type.shape) if r.type.dtype.name in NARROW_FLOATS else r.type for r in op.results]
        shadow = Op(op.name, shadow_operands, rtypes, op.attrs, op.blocks, op.loc)
        handler(shadow)
        for r, w in zip(op.results, shadow.results):
            v = self.vals[w.id]
            if r.type != w.type:
                v = self.emit1("ftof", {"from": v}, ttype(r.type), rounding_mode="nearest_even")
            self.vals[r.id] = v

    def nested(self, b: Block, args: Sequence[TValue]) -> TBlock:
        tb = TBlock(args)
        for x, a in zip(b.args, args):
            self.vals[x.id] = a
        saved = self.block
        self.block = tb
        try:
            self.lower_block(b)
        finally:
            self.block = saved
        return tb

    def bind(self, op: Op, *values: TValue) -> None:
        for r, v in zip(op.results, values):
            self.vals[r.id] = v

    # -- grid / arrays ------------------------------------------------------------------
    def op_bid(self, op: Op) -> None:
        i32 = Tile((), Scalar("i32"))
        ids = self.emit("get_tile_block_id", {}, [i32] * 3, hints=("blockId_x", "blockId_y", "blockId_z"))
        self.bind(op, ids.results[op.attrs["axis"]])

    def op_num_blocks(self, op: Op) -> None:
        i32 = Tile((), Scalar("i32"))
        ids = self.emit("get_num_tile_blocks", {}, [i32] * 3, hints=("gridSize_x", "gridSize_y", "gridSize_z"))
        self.bind(op, ids.results[op.attrs["axis"]])

    def array(self, v: Value) -> _ArrayInfo:
        info = self.arrays.get(v.id)
        if info is None:
            raise self.unsupported(f"arrays of type {v.type} that are not kernel parameters")
        return info

    def op_array_dim(self, op: Op) -> None:
        info = self.array(op.operands[0])
        vals = info.shape if op.attrs["what"] == "shape" else info.strides
        self.bind(op, vals[op.attrs["axis"]])

    def partition(self, info: _ArrayInfo, shape, order, padding) -> TValue:
        if len(shape) != info.atype.ndim:
            raise self.unsupported("tile loads whose rank differs from the array's")
        pad = PADDING.get(_enum_name(padding)) if padding is not None else None
        pv = PartitionView(tuple(shape), info.view.type, tuple(order), pad)
        return self.emit1("make_partition_view", {"tensor_view": info.view}, pv)

    def _mem_attrs(self, op: Op) -> dict:
        mo = _enum_name(op.attrs.get("memory_order", "WEAK")).lower()
        attrs = {"memory_ordering_semantics": mo}
        scope = SCOPE.get(_enum_name(op.attrs.get("memory_scope", "NONE")))
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

    def _check_steps(self, op: Op) -> None:
        if op.attrs.get("traversal_steps"):
            raise self.unsupported("loads/stores with traversal_steps (make_strided_view)")

    def op_load_tile(self, op: Op) -> None:
        self._check_steps(op)
        a, *idx = op.operands
        info = self.array(a)
        shape = tuple(op.attrs["shape"])
        pv = self.partition(info, shape, op.attrs["order"], op.attrs.get("padding_mode"))
        res_t = Tile(shape, elem_of(info.atype.dtype))
        attrs = self._mem_attrs(op)
        attrs["inbounds"] = (False,) * len(idx)
        ld = self.emit("load_view_tko", {"view": pv, "index": [self.v(i) for i in idx], "token": self.mem_in(op)},
                       [res_t, TOKEN], attrs, hints=("tile", "result_token"))
        self.mem_out(op, ld.results[1])
        self.bind(op, self.to_shape(ld.results[0], op.result.type.shape) if res_t.shape != tuple(
            op.result.type.shape) else ld.results[0])

    def op_store_tile(self, op: Op) -> None:
        self._check_steps(op)
        a, *idx, t = op.operands
        info = self.array(a)
        tv = self.v(t)
        shape = tuple(tv.type.shape)
        ndim = info.atype.ndim
        if len(shape) != ndim:
            shape = (1,) * (ndim - len(shape)) + shape
            tv = self.emit1("reshape", {"source": tv}, Tile(shape, tv.type.elem))
        pv = self.partition(info, shape, op.attrs["order"], None)
        attrs = self._mem_attrs(op)
        attrs["inbounds"] = (False,) * len(idx)
        st = self.emit("store_view_tko", {"tile": tv, "view": pv, "index": [self.v(i) for i in idx],
                                          "token": self.mem_in(op)}, [TOKEN], attrs)
        self.mem_out(op, st.result)

    def op_num_tiles(self, op: Op) -> None:
        self._check_steps(op)
        info = self.array(op.operands[0])
        pv = self.partition(info, op.attrs["shape"], op.attrs["order"], None)
        i32 = Tile((), Scalar("i32"))
        shp = self.emit("get_index_space_shape", {"src": pv}, [i32] * info.atype.ndim)
        self.bind(op, shp.results[op.attrs["axis"]])

    # -- constants ------------------------------------------------------------------------
    def op_const(self, op: Op) -> None:
        t = op.result.type
        self.bind(op, self.const(op.result.const if op.result.const is not None else op.attrs["value"],
                                 elem_of(t.dtype), t.shape))

    def op_undef(self, op: Op) -> None:
        t = op.result.type
        self.bind(op, self.const(0, elem_of(t.dtype), t.shape))

    def op_arange(self, op: Op) -> None:
        self.bind(op, self.emit1("iota", {}, ttype(op.result.type)))

    def op_literal_tile(self, op: Op) -> None:
        t = ttype(op.result.type)
        vals = list(op.attrs["values"])
        elem = t.elem
        if elem.name == "i1":
            bits = 0
            for i, x in enumerate(vals):
                bits |= (1 << i) if x else 0
            data = bits.to_bytes((len(vals) + 7) // 8, "little")
        elif _is_float(op.result.type.dtype):
            data = b"".join(float_bits(float(x), elem).to_bytes(storage_bytes(elem), "little") for x in vals)
        else:
            data = b"".join(int_bytes(int(x), elem) for x in vals)
        if len(set(vals)) == 1:
            self.bind(op, self.const(vals[0], elem, t.shape))
            return
        self.bind(op, self.emit1("constant", {}, t, value=Dense(elem, data, False)))

    def op_from_scalars(self, op: Op) -> None:
        """TileIR has no tile-from-elements op: start from element 0 everywhere and select each
        further element in at its flat position (iota == k)."""
        T = ttype(op.result.type)
        n = math.prod(T.shape)
        flat = Tile((n,), T.elem)
        xs = [self.v(o) for o in op.operands]
        acc = self.to_shape(xs[0], (n,))
        if n > 1:
            i32 = Scalar("i32")
            pos = self.emit1("iota", {}, Tile((n,), i32))
            b = Tile((n,), Scalar("i1"))
            for k, x in enumerate(xs[1:], 1):
                hit = self.emit1("cmpi", {"lhs": pos, "rhs": self.const(k, i32, (n,))}, b,
                                 comparison_predicate="equal", signedness="signed")
                acc = self.emit1("select", {"cond": hit, "val_if_true": self.to_shape(x, (n,)),
                                            "val_if_false": acc}, flat)
        self.bind(op, acc if T.shape == (n,) else self.emit1("reshape", {"source": acc}, T))

    # -- element-wise ----------------------------------------------------------------------
    def _fp_attrs(self, op: Op) -> dict:
        return {"rounding_mode": _rounding(op.attrs.get("rounding_mode")),
                "flush_to_zero": bool(op.attrs.get("flush_to_zero"))}

    def op_binary(self, op: Op) -> None:
        x, y = (self.v(o) for o in op.operands)
        fn, dt, T = op.attrs["fn"], op.operands[0].type.dtype, ttype(op.result.type)
        if _is_float(dt):
            fp = self._fp_attrs(op)
            simple = {"add": "addf", "sub": "subf", "mul": "mulf", "truediv": "divf"}
            if fn in simple:
                r = self.emit1(simple[fn], {"lhs": x, "rhs": y}, T, **fp)
            elif fn in ("max", "min"):
                r = self.emit1(fn + "f", {"lhs": x, "rhs": y}, T, propagate_nan=bool(op.attrs.get("propagate_nan")),
                               flush_to_zero=fp["flush_to_zero"])
            elif fn == "pow":
                r = self.emit1("fpowf", {"lhs": x, "rhs": y}, T)
            elif fn == "atan2":
                r = self.emit1("atan2", {"lhs": x, "rhs": y}, T)
            elif fn == "floordiv":
                q = self.emit1("divf", {"lhs": x, "rhs": y}, T, **fp)
                r = self.emit1("floor", {"source": q}, T)
            elif fn == "mod":
                r = self._float_mod(x, y, T)
            else:
                raise self.unsupported(f"float '{fn}'")
            self.bind(op, r)
            return
        sign = _sign(dt)
        simple = {"add": "addi", "sub": "subi", "mul": "muli", "lshift": "shli"}
        bitwise = {"and": "andi", "or": "ori", "xor": "xori"}
        if fn in simple:
            r = self.emit1(simple[fn], {"lhs": x, "rhs": y}, T, overflow="none")
        elif fn in bitwise:
            r = self.emit1(bitwise[fn], {"lhs": x, "rhs": y}, T)
        elif fn == "rshift":
            r = self.emit1("shri", {"lhs": x, "rhs": y}, T, signedness=sign)
        elif fn in ("max", "min"):
            r = self.emit1(fn + "i", {"lhs": x, "rhs": y}, T, signedness=sign)
        elif fn == "floordiv":
            r = self.emit1("divi", {"lhs": x, "rhs": y}, T, signedness=sign,
                           rounding="negative_inf" if sign == "signed" else "zero")
        elif fn == "cdiv":
            r = self.emit1("divi", {"lhs": x, "rhs": y}, T, signedness=sign, rounding="positive_inf")
        elif fn == "mod":
            r = self.emit1("remi", {"lhs": x, "rhs": y}, T, signedness=sign)
            if sign == "signed":
                r = self._fix_mod(r, y, T, "cmpi")
        else:
            raise self.unsupported(f"integer '{fn}'")
        self.bind(op, r)

    def _fix_mod(self, r: TValue, y: TValue, T: Tile, cmp: str) -> TValue:
        """Python's modulo takes the divisor's sign: add y where r != 0 and sign(r) != sign(y)."""
        b = Tile(T.shape, Scalar("i1"))
        zero = self.splat_like(0, T)
        extra = {"signedness": "signed"} if cmp == "cmpi" else {"comparison_ordering": "ordered"}
        r_neg = self.emit1(cmp, {"lhs": r, "rhs": zero}, b, comparison_predicate="less_than", **extra)
        y_neg = self.emit1(cmp, {"lhs": y, "rhs": zero}, b, comparison_predicate="less_than", **extra)
        differ = self.emit1("xori", {"lhs": r_neg, "rhs": y_neg}, b)
        nonzero = self.emit1(cmp, {"lhs": r, "rhs": zero}, b, comparison_predicate="not_equal", **extra)
        fix = self.emit1("andi", {"lhs": differ, "rhs": nonzero}, b)
        add = "addi" if cmp == "cmpi" else "addf"
        attrs = {"overflow": "none"} if cmp == "cmpi" else {"rounding_mode": "nearest_even", "flush_to_zero": False}
        shifted = self.emit1(add, {"lhs": r, "rhs": y}, T, **attrs)
        return self.emit1("select", {"cond": fix, "val_if_true": shifted, "val_if_false": r}, T)

    def _float_mod(self, x: TValue, y: TValue, T: Tile) -> TValue:
        r = self.emit1("remf", {"lhs": x, "rhs": y}, T)
        return self._fix_mod(r, y, T, "cmpf")

    def op_fma(self, op: Op) -> None:
        a, b, c = (self.v(o) for o in op.operands)
        self.bind(op, self.emit1("fma", {"lhs": a, "rhs": b, "acc": c}, ttype(op.result.type), **self._fp_attrs(op)))

    def op_compare(self, op: Op) -> None:
        x, y = (self.v(o) for o in op.operands)
        dt = op.operands[0].type.dtype
        T = ttype(op.result.type)
        pred = PRED[op.attrs["fn"]]
        if _is_float(dt):
            order = "unordered" if op.attrs["fn"] == "ne" else "ordered"
            r = self.emit1("cmpf", {"lhs": x, "rhs": y}, T, comparison_predicate=pred, comparison_ordering=order)
        else:
            r = self.emit1("cmpi", {"lhs": x, "rhs": y}, T, comparison_predicate=pred, signedness=_sign(dt))
        self.bind(op, r)

    def op_where(self, op: Op) -> None:
        c, a, b = (self.v(o) for o in op.operands)
        self.bind(op, self.emit1("select", {"cond": c, "val_if_true": a, "val_if_false": b},
                                 ttype(op.result.type)))

    def op_astype(self, op: Op) -> None:
        self.bind(op, self.convert(self.v(op.operands[0]), op.operands[0].type.dtype, op.result.type.dtype,
                                   op.attrs.get("rounding_mode")))

    def convert(self, x: TValue, src: D.DType, dst: D.DType, rounding=None) -> TValue:
        T = Tile(x.type.shape, elem_of(dst))
        if src is dst:
            return x
        b = Tile(x.type.shape, Scalar("i1"))
        if dst is D.bool_ and src.name in NARROW_FLOATS:
            # cmpf takes no fp8: compare in f32
            x = self.emit1("ftof", {"from": x}, Tile(x.type.shape, Scalar("f32")), rounding_mode="nearest_even")
            src = D.float32
        if dst is D.bool_:
            zero = self.splat_like(0, x.type)
            if _is_float(src):
                return self.emit1("cmpf", {"lhs": x, "rhs": zero}, b, comparison_predicate="not_equal",
                                  comparison_ordering="unordered")
            return self.emit1("cmpi", {"lhs": x, "rhs": zero}, b, comparison_predicate="not_equal",
                              signedness=_sign(src) if src is not D.bool_ else "unsigned")
        if _is_float(src) and _is_float(dst):
            return self.emit1("ftof", {"from": x}, T, rounding_mode=_rounding(rounding))
        if _is_float(dst):
            return self.emit1("itof", {"from": x}, T, signedness=_sign(src), rounding_mode=_rounding(rounding))
        if _is_float(src):
            return self.emit1("ftoi", {"from": x}, T, signedness=_sign(dst), rounding_mode="nearest_int_to_zero",
                              saturating=False)
        sb, db = (1 if src is D.bool_ else src.bitwidth), dst.bitwidth
        if sb < db:
            return self.emit1("exti", {"from": x}, T, signedness=_sign(src) if src is not D.bool_ else "unsigned")
        if sb > db:
            return self.emit1("trunci", {"from": x}, T, overflow="none")
        return x if x.type == T else self.emit1("bitcast", {"source": x}, T)

    def op_bitcast(self, op: Op) -> None:
        x = self.v(op.operands[0])
        T = ttype(op.result.type)
        src, dst = x.type.elem.name, T.elem.name
        if "tf32" in (src, dst) and src != dst:
            # TileIR's tf32 is 19 bits wide, so it bitcasts to nothing: tf32 is stored as f32
            # whose low 13 mantissa bits are ignored, so convert through f32 (exact that way,
            # truncating the other way)
            f32 = Tile(T.shape, Scalar("f32"))
            if src == "tf32":
                x = self.emit1("ftof", {"from": x}, f32, rounding_mode="nearest_even")
                self.bind(op, x if dst == "f32" else self.emit1("bitcast", {"source": x}, T))
            else:
                if src != "f32":
                    x = self.emit1("bitcast", {"source": x}, f32)
                self.bind(op, self.emit1("ftof", {"from": x}, T, rounding_mode="zero"))
            return
        self.bind(op, x if x.type == T else self.emit1("bitcast", {"source": x}, T))

    def op_broadcast(self, op: Op) -> None:
        self.bind(op, self.to_shape(self.v(op.operands[0]), op.result.type.shape))

    def op_reshape(self, op: Op) -> None:
        x = self.v(op.operands[0])
        T = ttype(op.result.type)
        self.bind(op, x if x.type == T else self.emit1("reshape", {"source": x}, T))

    def op_permute(self, op: Op) -> None:
        self.bind(op, self.emit1("permute", {"source": self.v(op.operands[0])}, ttype(op.result.type),
                                 permutation=tuple(op.attrs["axes"])))

    def op_cat(self, op: Op) -> None:
        x, y = (self.v(o) for o in op.operands)
        self.bind(op, self.emit1("cat", {"lhs": x, "rhs": y}, ttype(op.result.type), dim=op.attrs["axis"]))

    def op_extract(self, op: Op) -> None:
        src, *idx = op.operands
        self.bind(op, self.emit1("extract", {"source": self.v(src), "indices": [self.v(i) for i in idx]},
                                 ttype(op.result.type)))

    def op_unary(self, op: Op) -> None:
        x = self.v(op.operands[0])
        fn, dt, T = op.attrs["fn"], op.operands[0].type.dtype, ttype(op.result.type)
        if fn == "not":
            ones = self.splat_like(1 if dt is D.bool_ else -1, T)
            self.bind(op, self.emit1("xori", {"lhs": x, "rhs": ones}, T))
            return
        if _is_float(dt):
            row = UNARY_FNS[fn]
            name = row.tileir.get("float")
            if name is None:
                raise self.unsupported(f"float '{fn}'")
            attrs = {}
            if row.rounding:              # the op takes a rounding mode: FULL by default where it has one
                attrs["rounding_mode"] = _rounding(op.attrs.get("rounding_mode"),
                                                   "full" if "FULL" in row.rounding else "nearest_even")
            if row.ftz:
                attrs["flush_to_zero"] = bool(op.attrs.get("flush_to_zero"))
            self.bind(op, self.emit1(name, {"source": x}, T, **attrs))
            return
        if fn == "abs":
            self.bind(op, x if dt.kind == "uint" else self.emit1("absi", {"source": x}, T))
        elif fn == "neg":
            self.bind(op, self.emit1("negi", {"source": x}, T, overflow="none"))
        else:
            raise self.unsupported(f"integer '{fn}'")

    # -- matmul -----------------------------------------------------------------------------
    def op_mma(self, op: Op) -> None:
        x, y, acc = (self.v(o) for o in op.operands)
        dt = op.operands[0].type.dtype
        T = ttype(op.result.type)
        if len(T.shape) > 3:
            # TileIR's mma takes 2-D/3-D tiles: fold the batch axes into one
            batch = math.prod(T.shape[:-2])
            x, y, acc = (self.emit1("reshape", {"source": v}, Tile((batch,) + v.type.shape[-2:], v.type.elem))
                         for v in (x, y, acc))
            flat = Tile((batch,) + T.shape[-2:], T.elem)
            r = self._mma(op, x, y, acc, dt, flat)
            self.bind(op, self.emit1("reshape", {"source": r}, T))
            return
        self.bind(op, self._mma(op, x, y, acc, dt, T))

    def _mma(self, op: Op, x, y, acc, dt, T) -> TValue:
        if _is_float(dt):
            r = self.emit1("mmaf", {"lhs": x, "rhs": y, "acc": acc}, T, fast_acc=bool(op.attrs.get("use_fast_acc")))
        else:
            r = self.emit1("mmai", {"lhs": x, "rhs": y, "acc": acc}, T, signedness_lhs=_sign(dt),
                           signedness_rhs=_sign(op.operands[1].type.dtype))
        return r

    def op_mma_scaled(self, op: Op) -> None:
        x, xs, y, ys, acc = (self.v(o) for o in op.operands)
        self.bind(op, self.emit1("mmaf_scaled", {"lhs": x, "rhs": y, "acc": acc, "lhs_scale": xs,
                                                 "rhs_scale": ys}, ttype(op.result.type)))

    # -- reductions and scans ----------------------------------------------------------------
    def _identity(self, fn: str, dt: D.DType):
        elem = elem_of(dt)
        if _is_float(dt):
            value = {"sum": 0.0, "prod": 1.0, "max": -math.inf, "min": math.inf}[fn]
            return FloatAttr(elem, float_bits(value, elem))
        bits = dt.bitwidth
        if dt.kind == "uint":
            value = {"sum": 0, "prod": 1, "max": 0, "min": (1 << bits) - 1}[fn]
        else:
            value = {"sum": 0, "prod": 1, "max": -(1 << (bits - 1)), "min": (1 << (bits - 1)) - 1}[fn]
        return IntAttr(elem, value & ((1 << bits) - 1))

    def _combine(self, fn: str, dt: D.DType, a: TValue, b: TValue, op: Op) -> TValue:
        T = a.type
        if _is_float(dt):
            fp = {"rounding_mode": _rounding(op.attrs.get("rounding_mode")),
                  "flush_to_zero": bool(op.attrs.get("flush_to_zero"))}
            if fn == "sum":
                return self.emit1("addf", {"lhs": a, "rhs": b}, T, **fp)
            if fn == "prod":
                return self.emit1("mulf", {"lhs": a, "rhs": b}, T, **fp)
            return self.emit1(fn + "f", {"lhs": a, "rhs": b}, T, propagate_nan=bool(op.attrs.get("propagate_nan")),
                              flush_to_zero=fp["flush_to_zero"])
        if fn == "sum":
            return self.emit1("addi", {"lhs": a, "rhs": b}, T, overflow="none")
        if fn == "prod":
            return self.emit1("muli", {"lhs": a, "rhs": b}, T, overflow="none")
        return self.emit1(fn + "i", {"lhs": a, "rhs": b}, T, signedness=_sign(dt))

    def _builtin_region(self, fn: str, dt: D.DType, op: Op) -> TBlock:
        s = Tile((), elem_of(dt))
        lhs, rhs = TValue(s, "lhs"), TValue(s, "rhs")
        blk = TBlock([lhs, rhs])
        saved, self.block = self.block, blk
        r = self._combine(fn, dt, lhs, rhs, op)
        self.emit("yield", {"operands": [r]}, [])
        self.block = saved
        return blk

    def _custom_region(self, op: Op) -> TBlock:
        b = op.blocks[0]
        n = len(op.operands)
        args = [TValue(Tile((), elem_of(x.type.dtype))) for x in b.args]
        # our combiner block takes (*lhs, *rhs); TileIR interleaves (lhs0, rhs0, lhs1, rhs1, ...)
        order = [a for i in range(n) for a in (args[i], args[n + i])]
        saved, self.if_keys = self.if_keys, None     # its `yield` returns no tokens
        try:
            tb = self.nested(b, args)
        finally:
            self.if_keys = saved
        tb.args = order
        return tb

    def op_reduce(self, op: Op) -> None:
        fn = op.attrs["fn"]
        axes = sorted(op.attrs.get("axes", ()), reverse=True)
        xs = [self.v(o) for o in op.operands]
        dts = [o.type.dtype for o in op.operands]
        if fn in ("argmax", "argmin"):
            self.bind(op, self._argreduce(op, xs[0], dts[0], axes[0]))
            return
        cur = xs
        for ax in axes:
            shape = tuple(d for i, d in enumerate(cur[0].type.shape) if i != ax)
            if fn == "custom":
                region = self._custom_region(op)
                idents = [self._custom_identity(op, i) for i in range(len(xs))]
            else:
                region = self._builtin_region(fn, dts[0], op)
                idents = [self._identity(fn, dts[0])]
            red = self.emit("reduce", {"operands": cur}, [Tile(shape, c.type.elem) for c in cur],
                            {"dim": ax, "identities": tuple(idents)}, [region])
            cur = red.results
        self.bind(op, *cur)

    def _custom_identity(self, op: Op, i: int):
        ids = op.attrs.get("identities")
        dt = op.operands[i].type.dtype
        if ids is None:
            raise self.unsupported("custom reductions without identities")
        value = ids[i]
        elem = elem_of(dt)
        if _is_float(dt):
            return FloatAttr(elem, float_bits(float(value), elem))
        return IntAttr(elem, int(value) & ((1 << (1 if dt is D.bool_ else dt.bitwidth)) - 1))

    def _argreduce(self, op: Op, x: TValue, dt: D.DType, ax: int) -> TValue:
        """argmax/argmin as a two-operand reduce of (value, index); ties keep the smaller index."""
        want = "greater_than" if op.attrs["fn"] == "argmax" else "less_than"
        shape = x.type.shape
        i32 = Scalar("i32")
        iota = self.emit1("iota", {}, Tile((shape[ax],), i32))
        idx = iota
        if len(shape) > 1:
            rs = tuple(d if i == ax else 1 for i, d in enumerate(shape))
            idx = self.emit1("reshape", {"source": iota}, Tile(rs, i32))
            idx = self.emit1("broadcast", {"source": idx}, Tile(shape, i32))
        s, si = Tile((), x.type.elem), Tile((), i32)
        lv, rv, li, ri = TValue(s, "lhs0"), TValue(s, "rhs0"), TValue(si, "lhs1"), TValue(si, "rhs1")
        blk = TBlock([lv, rv, li, ri])
        saved, self.block = self.block, blk
        b1 = Tile((), Scalar("i1"))
        if _is_float(dt):
            better = self.emit1("cmpf", {"lhs": lv, "rhs": rv}, b1, comparison_predicate=want,
                                comparison_ordering="ordered")
            equal = self.emit1("cmpf", {"lhs": lv, "rhs": rv}, b1, comparison_predicate="equal",
                               comparison_ordering="ordered")
            # NaN ranks best with propagate_nan, worst otherwise
            l_nan = self.emit1("cmpf", {"lhs": lv, "rhs": lv}, b1, comparison_predicate="not_equal",
                               comparison_ordering="unordered")
            r_nan = self.emit1("cmpf", {"lhs": rv, "rhs": rv}, b1, comparison_predicate="not_equal",
                               comparison_ordering="unordered")
            if op.attrs.get("propagate_nan"):
                r_ok = self.emit1("xori", {"lhs": r_nan, "rhs": self.const(1, Scalar("i1"))}, b1)
                nan_win = self.emit1("andi", {"lhs": l_nan, "rhs": r_ok}, b1)
            else:
                l_ok = self.emit1("xori", {"lhs": l_nan, "rhs": self.const(1, Scalar("i1"))}, b1)
                nan_win = self.emit1("andi", {"lhs": l_ok, "rhs": r_nan}, b1)
            better = self.emit1("ori", {"lhs": better, "rhs": nan_win}, b1)
        else:
            better = self.emit1("cmpi", {"lhs": lv, "rhs": rv}, b1, comparison_predicate=want, signedness=_sign(dt))
            equal = self.emit1("cmpi", {"lhs": lv, "rhs": rv}, b1, comparison_predicate="equal", signedness=_sign(dt))
        smaller = self.emit1("cmpi", {"lhs": li, "rhs": ri}, b1, comparison_predicate="less_than",
                             signedness="signed")
        tie = self.emit1("andi", {"lhs": equal, "rhs": smaller}, b1)
        take_l = self.emit1("ori", {"lhs": better, "rhs": tie}, b1)
        v = self.emit1("select", {"cond": take_l, "val_if_true": lv, "val_if_false": rv}, s)
        i = self.emit1("select", {"cond": take_l, "val_if_true": li, "val_if_false": ri}, si)
        self.emit("yield", {"operands": [v, i]}, [])
        self.block = saved
        fn = "max" if op.attrs["fn"] == "argmax" else "min"
        idents = (self._worst(fn, dt), IntAttr(i32, 0))
        rshape = tuple(d for k, d in enumerate(shape) if k != ax)
        red = self.emit("reduce", {"operands": [x, idx]}, [Tile(rshape, x.type.elem), Tile(rshape, i32)],
                        {"dim": ax, "identities": idents}, [blk])
        return red.results[1]

    def _worst(self, fn: str, dt: D.DType):
        # the identity of max is the smallest value, of min the largest
        return self._identity("max" if fn == "max" else "min", dt)

    def op_scan(self, op: Op) -> None:
        fn = op.attrs["fn"]
        xs = [self.v(o) for o in op.operands]
        dt = op.operands[0].type.dtype
        if fn == "custom":
            region = self._custom_region(op)
            idents = tuple(self._custom_identity(op, i) for i in range(len(xs)))
        else:
            region = self._builtin_region(fn, dt, op)
            idents = (self._identity(fn, dt),)
        sc = self.emit("scan", {"operands": xs}, [x.type for x in xs],
                       {"dim": op.attrs["axis"], "reverse": bool(op.attrs.get("reverse")), "identities": idents},
                       [region])
        self.bind(op, *sc.results)

    # -- memory tokens (see tokens.py) ------------------------------------------------------
    def join(self, toks: List[TValue]) -> TValue:
        return toks[0] if len(toks) == 1 else self.emit1("join_tokens", {"tokens": list(toks)}, TOKEN)

    def _access(self, op: Op):
        alias, _, _ = self.analysis.access(op)
        kind = MEMORY_OPS[op.name][0] if op.name in MEMORY_OPS else "store"
        return alias, kind, order_name(op)

    def _parallel(self, op: Op) -> bool:
        return bool(self.loops) and op in self.loops[-1].parallel

    def mem_in(self, op: Op) -> TValue:
        """The input token of a memory op (joining what it must wait for)."""
        alias, kind, order = self._access(op)
        if kind == "load":
            return self.join(self.tm.to_join(("store", alias), order))
        if self._parallel(op):
            # the one store to this array in a loop, at an index injective in the induction
            # variable: iterations need not wait for each other
            before = self.loops[-1].parent.get(("op", alias))
            acq = self.tm.items.get(ACQUIRE)
            return self.join([before, acq] if acq is not None and acq is not before else [before])
        return self.join(self.tm.to_join(("op", alias), order))

    def mem_out(self, op: Op, tok: TValue) -> None:
        """Record a memory op's result token."""
        alias, kind, order = self._access(op)
        if kind == "load":
            self.tm.set(("op", alias), self.join([self.tm.get(("op", alias)), tok]))
        elif self._parallel(op):
            joined = self.join([self.tm.get(("op", alias)), tok])
            self.tm.set(("op", alias), joined)
            self.tm.set(("store", alias), joined)
            return
        else:
            self.tm.set(("op", alias), tok)
            self.tm.set(("store", alias), tok)
        if has_acquire(order) or (op.name == "grid_control" and op.attrs.get("what") == "wait"):
            self.tm.set(ACQUIRE, tok)

    # -- control flow ------------------------------------------------------------------------
    @staticmethod
    def _own_exits(b: Block, names) -> bool:
        """Whether `b` has an op in `names` belonging to this loop (not to a nested loop)."""
        for o in b.ops:
            if o.name in names:
                return True
            if o.name not in ("for", "loop") and any(Lowering._own_exits(x, names) for x in o.blocks):
                return True
        return False

    def _parallel_stores(self, body: Block) -> set:
        """Stores that may skip waiting for the previous iteration (upstream's rule): the only
        memory op on its array at the top level of a `for` body, no nested op touches that
        array, and one of its indices is the induction variable."""
        fx = self.analysis.of(body)
        if any(a == UNIVERSE for a in fx.sets):
            return set()
        nested = Effects()
        by_alias: Dict[int, list] = {}
        for o in body.ops:
            for b in o.blocks:
                nested = nested.merge(self.analysis.of(b))
            if o.name in MEMORY_OPS:
                by_alias.setdefault(self.analysis.alias_of(o.operands[0]), []).append(o)
        iv = body.args[0]
        out = set()
        for alias, ops in by_alias.items():
            if len(ops) == 1 and ops[0].name == "store_tile" and alias not in nested.sets and \
                    any(x is iv for x in ops[0].operands[1:-1]):
                out.add(ops[0])
        return out

    def _loop(self, op: Op, body: Block, user_inits: List[TValue], iv: Optional[TValue] = None,
              bounds=None) -> TOp:
        """Lower a loop body with its carried tokens (and a `returned` flag when a `return` inside
        must leave the kernel). With `bounds` (a `for` that breaks/returns) the result is a
        `loop` that tests the bound itself, with the induction variable as first value."""
        keys = self.analysis.of(body).keys()
        returns = any(o.name == "return" for o in body.walk())
        i1 = Tile((), Scalar("i1"))
        tok_inits = self.tm.values(keys)
        flag_init = [self.const(0, Scalar("i1"))] if returns else []
        user_args = [TValue(i.type) for i in user_inits]
        tok_args = [TValue(TOKEN) for _ in keys]
        flag_args = [TValue(i1)] if returns else []
        iv_args = [iv] if iv is not None else []
        frame = _LoopFrame(keys, user_args, flag_args[0] if returns else None)
        if iv is not None:
            frame.parallel = self._parallel_stores(body)
            frame.parent = self.tm.copy()
        if bounds is not None:
            frame.iv, frame.step = iv, bounds[2]
        body_map = self.tm.copy()
        for k, a in zip(keys, tok_args):
            body_map.set(k, a)
        saved = (self.tm, self.if_keys, self.block)
        self.tm, self.if_keys = body_map, None
        self.loops.append(frame)
        tb = TBlock(iv_args + user_args + tok_args + flag_args)
        self.block = tb
        try:
            for x, a in zip(body.args, iv_args + user_args):
                self.vals[x.id] = a
            if bounds is not None:
                # leave once the induction variable reaches the upper bound
                go = self.emit1("cmpi", {"lhs": iv, "rhs": bounds[1]}, i1, comparison_predicate="less_than",
                                signedness="signed")
                stop = TBlock()
                stop.ops.append(TOp("break", {"operands": user_args + tok_args + flag_args}, []))
                self.emit("if", {"condition": go}, [], {}, [TBlock([]), stop])
                self.block.ops[-1].regions[0].ops.append(TOp("yield", {"operands": []}, []))
            self.lower_block(body)
            if not tb.ops or tb.ops[-1].name not in ("continue", "break", "return", "yield"):
                # unreachable tail after an `if` whose branches all leave the iteration
                self.exit("continue", user_args)
        finally:
            self.loops.pop()
            self.tm, self.if_keys, self.block = saved
        results = [ttype(r.type) for r in op.results] + [TOKEN] * len(keys) + ([i1] if returns else [])
        if bounds is not None:
            lp = self.emit("loop", {"initValues": [bounds[0]] + user_inits + tok_inits + flag_init}, results, {}, [tb])
        elif iv is not None:
            lb, ub, step = [self.v(o) for o in op.operands[:3]]
            lp = self.emit("for", {"lowerBound": lb, "upperBound": ub, "step": step,
                                   "initValues": user_inits + tok_inits}, results, {"unsignedCmp": False}, [tb])
        else:
            lp = self.emit("loop", {"initValues": user_inits + tok_inits + flag_init}, results, {}, [tb])
        n = len(op.results)
        for k, r in zip(keys, lp.results[n:n + len(keys)]):
            self.tm.set(k, r)
        if returns:
            # a `return` inside broke out of the loop: return now (or leave the enclosing loop too)
            then = TBlock()
            saved_block, self.block = self.block, then
            self._return_here()
            self.block = saved_block
            els = TBlock()
            els.ops.append(TOp("yield", {"operands": []}, []))
            self.emit("if", {"condition": lp.results[-1]}, [], {}, [then, els])
        self.bind(op, *lp.results[:n])
        return lp

    def exit(self, kind: str, user_vals: List[TValue]) -> None:
        """Emit `continue`/`break` of the innermost loop with its tokens and flag."""
        frame = self.loops[-1]
        toks = self.tm.values(frame.keys)
        if kind == "continue":
            head = []
            if frame.iv is not None:
                head = [self.emit1("addi", {"lhs": frame.iv, "rhs": frame.step}, frame.iv.type, overflow="none")]
            flag = [frame.flag] if frame.flag is not None else []
            self.emit("continue", {"operands": head + list(user_vals) + toks + flag}, [])
        else:
            flag = [self.const(0, Scalar("i1"))] if frame.flag is not None else []
            self.emit("break", {"operands": list(user_vals) + toks + flag}, [])

    def _return_here(self) -> None:
        if self.loops:
            frame = self.loops[-1]
            toks = self.tm.values(frame.keys)
            self.emit("break", {"operands": frame.user_args + toks + [self.const(1, Scalar("i1"))]}, [])
        else:
            self.emit("return", {"operands": []}, [])

    def op_for(self, op: Op) -> None:
        lb, ub, step, *inits = (self.v(o) for o in op.operands)
        body = op.blocks[0]
        iv = TValue(lb.type, "loopIdx")
        if self._own_exits(body, ("break",)) or any(o.name == "return" for o in body.walk()):
            self._loop(op, body, inits, iv, bounds=(lb, ub, step))
        else:
            self._loop(op, body, inits, iv)

    def op_loop(self, op: Op) -> None:
        self._loop(op, op.blocks[0], [self.v(o) for o in op.operands])

    def op_if(self, op: Op) -> None:
        cond = self.v(op.operands[0])
        fx = Effects()
        for b in op.blocks:
            fx = fx.merge(self.analysis.of(b))
        keys = fx.keys()
        outer, saved_keys = self.tm, self.if_keys
        regions = []
        for b in list(op.blocks) + [Block()] * (2 - len(op.blocks)):
            self.tm, self.if_keys = outer.copy(), keys
            try:
                tb = self.nested(b, [])
                if not tb.ops or tb.ops[-1].name not in ("yield", "continue", "break", "return"):
                    tb.ops.append(TOp("yield", {"operands": self.tm.values(keys)}, []))
            finally:
                self.tm, self.if_keys = outer, saved_keys
            regions.append(tb)
        n = len(op.results)
        f = self.emit("if", {"condition": cond}, [ttype(r.type) for r in op.results] + [TOKEN] * len(keys), {},
                      regions)
        for k, r in zip(keys, f.results[n:]):
            self.tm.set(k, r)
        self.bind(op, *f.results[:n])

    def op_yield(self, op: Op) -> None:
        extra = self.tm.values(self.if_keys) if self.if_keys is not None else []
        self.emit("yield", {"operands": [self.v(o) for o in op.operands] + extra}, [])

    def op_continue(self, op: Op) -> None:
        self.exit("continue", [self.v(o) for o in op.operands])

    def op_break(self, op: Op) -> None:
        self.exit("break", [self.v(o) for o in op.operands])

    def op_return(self, op: Op) -> None:
        if op.operands:
            raise self.unsupported("returning values from a kernel")
        self._return_here()

    # -- pointers: gather / scatter / atomics ---------------------------------------------------
    def pointers(self, info: _ArrayInfo, idx: List[TValue], check_bounds: bool, mask: Optional[TValue]):
        """Element pointers for index tiles (broadcast to one shape) and the in-bounds mask."""
        shape = tuple(idx[0].type.shape) if idx else ()
        i64 = Scalar("i64")
        b = Tile(shape, Scalar("i1"))
        offset = None
        inb = mask
        for k, ix in enumerate(idx):
            ix = self.to_shape(ix, shape)
            if ix.type.elem.name != "i64":
                ix = self.emit1("exti", {"from": ix}, Tile(shape, i64), signedness="signed")
            if check_bounds:
                dim = self.emit1("exti", {"from": info.shape[k]}, Tile((), i64), signedness="signed") \
                    if info.shape[k].type.elem.name != "i64" else info.shape[k]
                lim = self.to_shape(dim, shape)
                ok = self.emit1("cmpi", {"lhs": ix, "rhs": lim}, b, comparison_predicate="less_than",
                                signedness="unsigned")
                inb = ok if inb is None else self.emit1("andi", {"lhs": inb, "rhs": ok}, b)
            st = self.emit1("exti", {"from": info.strides[k]}, Tile((), i64), signedness="signed") \
                if info.strides[k].type.elem.name != "i64" else info.strides[k]
            term = self.emit1("muli", {"lhs": ix, "rhs": self.to_shape(st, shape)}, Tile(shape, i64),
                              overflow="none")
            offset = term if offset is None else self.emit1("addi", {"lhs": offset, "rhs": term},
                                                             Tile(shape, i64), overflow="none")
        base = self.to_shape(info.ptr, shape)
        if offset is None:
            return base, inb
        ptr = self.emit1("offset", {"ptr": base, "offset": offset}, Tile(shape, info.ptr.type.elem))
        return ptr, inb

    def op_gather(self, op: Op) -> None:
        a = op.operands[0]
        info = self.array(a)
        n = info.atype.ndim
        idx = [self.v(x) for x in op.operands[1:1 + n]]
        pad = self.v(op.operands[1 + n])
        mask = self.v(op.operands[2 + n]) if op.attrs.get("has_mask") else None
        shape = tuple(op.result.type.shape)
        idx = [self.to_shape(i, shape) for i in idx]
        ptr, inb = self.pointers(info, idx, op.attrs.get("check_bounds", True), mask)
        args = {"source": ptr, "mask": inb, "paddingValue": self.to_shape(pad, shape) if inb is not None else None,
                "token": self.mem_in(op)}
        attrs = self._mem_attrs(op)
        attrs.pop("inbounds")
        ld = self.emit("load_ptr_tko", args, [ttype(op.result.type), TOKEN], attrs, hints=("result", "result_token"))
        self.mem_out(op, ld.results[1])
        self.bind(op, ld.results[0])

    def op_scatter(self, op: Op) -> None:
        info = self.array(op.operands[0])
        n = info.atype.ndim
        idx = [self.v(x) for x in op.operands[1:1 + n]]
        val = self.v(op.operands[1 + n])
        mask = self.v(op.operands[2 + n]) if op.attrs.get("has_mask") else None
        shape = tuple(val.type.shape)
        for i in idx:
            if len(i.type.shape) > len(shape) or i.type.shape != shape:
                shape = tuple(max(p, q) for p, q in zip(i.type.shape, shape)) if len(i.type.shape) == len(
                    shape) else i.type.shape
        idx = [self.to_shape(i, shape) for i in idx]
        val = self.to_shape(val, shape)
        mask = self.to_shape(mask, shape) if mask is not None else None
        ptr, inb = self.pointers(info, idx, op.attrs.get("check_bounds", True), mask)
        attrs = self._mem_attrs(op)
        attrs.pop("inbounds")
        st = self.emit("store_ptr_tko", {"destination": ptr, "value": val, "mask": inb, "token": self.mem_in(op)},
                       [TOKEN], attrs)
        self.mem_out(op, st.result)

    def _atomic_prelude(self, op: Op, n_tail: int):
        info = self.array(op.operands[0])
        n = info.atype.ndim
        idx = [self.v(x) for x in op.operands[1:1 + n]]
        tail = [self.v(x) for x in op.operands[1 + n:1 + n + n_tail]]
        shape = tuple(op.result.type.shape)
        idx = [self.to_shape(i, shape) for i in idx]
        tail = [self.to_shape(t, shape) for t in tail]
        ptr, inb = self.pointers(info, idx, op.attrs.get("check_bounds", True), None)
        mo = _enum_name(op.attrs.get("memory_order", "ACQ_REL")).lower()
        scope = SCOPE.get(_enum_name(op.attrs.get("memory_scope", "DEVICE"))) or "device"
        return ptr, inb, tail, {"memory_ordering_semantics": mo, "memory_scope": scope}

    def op_atomic(self, op: Op) -> None:
        ptr, inb, (upd,), attrs = self._atomic_prelude(op, 1)
        dt = op.result.type.dtype
        mode = op.attrs["mode"]
        if _is_float(dt):
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
        r = self.emit("atomic_cas_tko", {"pointers": ptr, "cmp": exp, "val": des, "mask": inb, "token": self.mem_in(op)},
                      [ttype(op.result.type), TOKEN], attrs, hints=("result", "result_token"))
        self.mem_out(op, r.results[1])
        res = r.results[0]
        if inb is not None:
            # out of bounds: the result is `expected`
            res = self.emit1("select", {"cond": inb, "val_if_true": res, "val_if_false": exp}, res.type)
        self.bind(op, res)

    # -- debug / static -----------------------------------------------------------------------
    def op_print(self, op: Op) -> None:
        vals = [self.v(o) for o in op.operands]
        pr = self.emit("print_tko", {"args": vals, "token": self.mem_in(op)}, [TOKEN], {"str": op.attrs["format"]})
        self.mem_out(op, pr.result)

    def op_assert(self, op: Op) -> None:
        self.emit("assert", {"condition": self.v(op.operands[0])}, [], {"message": op.attrs.get("message") or ""})

    def op_assume(self, op: Op) -> None:
        x = self.v(op.operands[0])
        self.bind(op, self.emit1("assume", {"value": x}, x.type, predicate=DivBy(int(op.attrs["divisor"]))))


def lower_function(fn: Function, *, hints: Optional[Hints] = Hints((("default", ()),))) -> TModule:
    """TileIR for one kernel; raises a located TileUnsupportedFeatureError for what is not lowered."""
    return Lowering(fn, hints=hints).run()


def _register_rules() -> None:
    """Each lowered op's rule goes into its primitive's `tileir` column (the ops must be loaded)."""
    from ...ops import load_all      # deferred: the op families load on first use
    load_all()
    rules = {
    "bid": Lowering.op_bid, "num_blocks": Lowering.op_num_blocks, "array_dim": Lowering.op_array_dim,
    "load_tile": Lowering.op_load_tile, "store_tile": Lowering.op_store_tile,
    "num_tiles": Lowering.op_num_tiles, "const": Lowering.op_const, "undef": Lowering.op_undef,
    "arange": Lowering.op_arange, "literal_tile": Lowering.op_literal_tile,
    "from_scalars": Lowering.op_from_scalars, "binary": Lowering.op_binary, "fma": Lowering.op_fma,
    "compare": Lowering.op_compare, "where": Lowering.op_where, "astype": Lowering.op_astype,
    "bitcast": Lowering.op_bitcast, "broadcast": Lowering.op_broadcast, "reshape": Lowering.op_reshape,
    "permute": Lowering.op_permute, "cat": Lowering.op_cat, "extract": Lowering.op_extract,
    "unary": Lowering.op_unary, "mma": Lowering.op_mma, "mma_scaled": Lowering.op_mma_scaled,
    "reduce": Lowering.op_reduce, "scan": Lowering.op_scan, "for": Lowering.op_for, "loop": Lowering.op_loop,
    "if": Lowering.op_if, "yield": Lowering.op_yield, "continue": Lowering.op_continue,
    "break": Lowering.op_break, "return": Lowering.op_return, "gather": Lowering.op_gather,
    "scatter": Lowering.op_scatter, "atomic": Lowering.op_atomic, "atomic_cas": Lowering.op_atomic_cas,
    "print": Lowering.op_print, "assert": Lowering.op_assert, "assume": Lowering.op_assume,
    }
    for name, rule in rules.items():
        PRIMITIVES[name].tileir(rule)


_register_rules()
