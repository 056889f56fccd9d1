"""TileIR rules for matrix products, reductions and scans."""
from __future__ import annotations

import math

from ... import dtypes as D
from ...ir.core import Op
from .elements import float_bits
from .ir import FloatAttr, IntAttr, Scalar, TBlock, Tile, TValue
from .lower_common import elem_of, is_float, rounding_of, sign_of, ttype


class ReduceRules:
    """mma, reduce (with arg-reductions), scan."""

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
        if is_float(dt):
            r = self.emit1("mmaf", {"lhs": x, "rhs": y, "acc": acc}, T, fast_acc=bool(op.attrs.get("use_fast_acc")))
        else:
            r = self.emit1("mmai", {"lhs": x, "rhs": y, "acc": acc}, T, signedness_lhs=sign_of(dt),
                           signedness_rhs=sign_of(op.operands[1].type.dtype))
        return r

    def op_mma_scaled(self, op: Op) -> None:
        x, xs, y, ys, acc = (self.v(o) for o in op.operands)
        self.bind(op, self.emit1("mmaf_scaled", {"lhs": x, "rhs": y, "acc": acc, "lhs_scale": xs,
                                                 "rhs_scale": ys}, ttype(op.result.type)))

    # -- reductions and scans ----------------------------------------------------------------
    def _identity(self, fn: str, dt: D.DType, from_bool: bool = False):
        """The identity of reduction `fn` over `dt`; of a bool tile's (converted to `dt` first),
        upstream's bounds of the bool's own 8 bits."""
        elem = elem_of(dt)
        if is_float(dt):
            value = {"sum": 0.0, "prod": 1.0, "max": -math.inf, "min": math.inf}[fn]
            return FloatAttr(elem, float_bits(value, elem))
        bits = dt.bitwidth
        if from_bool:
            value = {"sum": 0, "prod": 1, "max": 0, "min": (1 << D.bool_.bitwidth) - 1}[fn]
        elif dt.kind == "uint":
            value = {"sum": 0, "prod": 1, "max": 0, "min": (1 << bits) - 1}[fn]
        else:
            value = {"sum": 0, "prod": 1, "max": -(1 << (bits - 1)), "min": (1 << (bits - 1)) - 1}[fn]
        return IntAttr(elem, value & ((1 << bits) - 1))

    def _combine(self, fn: str, dt: D.DType, a: TValue, b: TValue, op: Op) -> TValue:
        T = a.type
        if is_float(dt):
            fp = {"rounding_mode": rounding_of(op.attrs.get("rounding_mode")),
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
        return self.emit1(fn + "i", {"lhs": a, "rhs": b}, T, signedness=sign_of(dt))

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
        # upstream reduces one axis at a time, the smallest first (each later axis then sits one
        # lower); for floats the order decides the rounding, so the GPU agrees with upstream's
        axes = [a - i for i, a in enumerate(sorted(op.attrs.get("axes", ())))]
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
                idents = [self._identity(fn, dts[0], _bool_source(op))]
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
        if is_float(dt):
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
        if is_float(dt):
            better = self.emit1("cmpf", {"lhs": lv, "rhs": rv}, b1, comparison_predicate=want,
                                comparison_ordering="ordered")
            equal = self.emit1("cmpf", {"lhs": lv, "rhs": rv}, b1, comparison_predicate="equal",
                               comparison_ordering="ordered")
            # NaN ranks best with propagate_nan, worst otherwise; two NaNs tie (the smaller index wins)
            l_nan = self.emit1("cmpf", {"lhs": lv, "rhs": lv}, b1, comparison_predicate="not_equal",
                               comparison_ordering="unordered")
            r_nan = self.emit1("cmpf", {"lhs": rv, "rhs": rv}, b1, comparison_predicate="not_equal",
                               comparison_ordering="unordered")
            if op.attrs.get("propagate_nan"):
                r_ok = self.emit1("cmpf", {"lhs": rv, "rhs": rv}, b1, comparison_predicate="equal",
                                  comparison_ordering="ordered")
                nan_win = self.emit1("andi", {"lhs": l_nan, "rhs": r_ok}, b1)
            else:
                l_ok = self.emit1("cmpf", {"lhs": lv, "rhs": lv}, b1, comparison_predicate="equal",
                                  comparison_ordering="ordered")
                nan_win = self.emit1("andi", {"lhs": l_ok, "rhs": r_nan}, b1)
            better = self.emit1("ori", {"lhs": better, "rhs": nan_win}, b1)
            both_nan = self.emit1("andi", {"lhs": l_nan, "rhs": r_nan}, b1)
            equal = self.emit1("ori", {"lhs": equal, "rhs": both_nan}, b1)
        else:
            better = self.emit1("cmpi", {"lhs": lv, "rhs": rv}, b1, comparison_predicate=want, signedness=sign_of(dt))
            equal = self.emit1("cmpi", {"lhs": lv, "rhs": rv}, b1, comparison_predicate="equal", signedness=sign_of(dt))
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


# each op's TileIR rule, by op name (lower.py puts them into the primitive table)
RULES = {
    "mma": ReduceRules.op_mma, "mma_scaled": ReduceRules.op_mma_scaled, "reduce": ReduceRules.op_reduce,
    "scan": ReduceRules.op_scan,
}


def _bool_source(op) -> bool:
    """Whether reduction `op` reduces a bool tile, converted to an integer for it (by its own
    conversion, at its location)."""
    x = op.operands[0].owner
    return x is not None and x.name == "astype" and x.operands[0].type.dtype is D.bool_ and x.loc == op.loc
