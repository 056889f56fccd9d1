"""TileIR rules for constants, element-wise math, conversions and shape ops."""
from __future__ import annotations

from typing import Optional

from ... import dtypes as D
from ...ir.core import Op
from ...ir.types import TileType
from ...semantics.functions import UNARY as UNARY_FNS
from .elements import float_bits, int_bytes, storage_bytes
from .ir import Dense, Scalar, Tile, TValue
from .lower_common import PRED, elem_of, is_float, rounding_of, sign_of, ttype
from .source_order import is_creation_call


def _unbroadcast(v):
    """The value a chain of reshapes/broadcasts starts from."""
    while v.owner is not None and v.owner.name in ("reshape", "broadcast"):
        v = v.owner.operands[0]
    return v


class ComputeRules:
    """Constants, element-wise ops, conversions, shape changes."""

    # -- constants ------------------------------------------------------------------------
    def op_const(self, op: Op) -> None:
        t = op.result.type
        if id(op) in self.top_consts:               # made at the top, where upstream has them
            self.bind(op, self.top_const(op.result.const, elem_of(t.dtype), t.shape))
            return
        self.bind(op, self.const(op.result.const if op.result.const is not None else op.attrs["value"],
                                 elem_of(t.dtype), t.shape))

    def op_undef(self, op: Op) -> None:
        t = op.result.type
        self.bind(op, self.const(0, elem_of(t.dtype), t.shape))
        self.undefs.add(id(self.block.ops[-1]))

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
        elif is_float(op.result.type.dtype):
            data = b"".join(float_bits(float(x), elem).to_bytes(storage_bytes(elem), "little") for x in vals)
        else:
            data = b"".join(int_bytes(int(x), elem) for x in vals)
        if len(set(vals)) == 1:
            self.bind(op, self.const(vals[0], elem, t.shape))
            return
        self.bind(op, self.emit1("constant", {}, t, value=Dense(elem, data, False)))

    def op_from_scalars(self, op: Op) -> None:
        """TileIR has no tile-from-elements op: as upstream builds it, each element becomes a
        1-element tile and halves are concatenated recursively (the count is a power of two)."""
        T = ttype(op.result.type)
        xs = [self.elements.get((id(op), k)) or self.v(o) for k, o in enumerate(op.operands)]
        flat = self._cat_halves(xs, T.elem)
        self.bind(op, flat if T.shape == flat.type.shape else self.emit1("reshape", {"source": flat}, T))

    def _cat_halves(self, xs: list, elem) -> TValue:
        if len(xs) == 1:
            x = xs[0]
            return x if x.type.shape == (1,) else self.emit1("reshape", {"source": x}, Tile((1,), elem))
        mid = len(xs) // 2
        left, right = self._cat_halves(xs[:mid], elem), self._cat_halves(xs[mid:], elem)
        return self.emit1("cat", {"lhs": left, "rhs": right}, Tile((len(xs),), elem), dim=0)

    # -- element-wise ----------------------------------------------------------------------
    def _fp_attrs(self, op: Op) -> dict:
        return {"rounding_mode": rounding_of(op.attrs.get("rounding_mode")),
                "flush_to_zero": bool(op.attrs.get("flush_to_zero"))}

    def op_binary(self, op: Op) -> None:
        x, y = (self.v(o) for o in op.operands)
        fn, dt, T = op.attrs["fn"], op.operands[0].type.dtype, ttype(op.result.type)
        if is_float(dt):
            fp = self._fp_attrs(op)
            simple = {"add": "addf", "sub": "subf", "mul": "mulf", "truediv": "divf"}
            if fn in simple:
                r = self.emit1(simple[fn], {"lhs": x, "rhs": y}, T, **fp)
            elif fn in ("max", "min"):
                r = self.emit1(fn + "f", {"lhs": x, "rhs": y}, T, propagate_nan=bool(op.attrs.get("propagate_nan")),
                               flush_to_zero=fp["flush_to_zero"])
            elif fn == "pow":
                n = self.integer_exponent(op, T.shape)
                r = self.emit1("fpowf", {"lhs": x, "rhs": y}, T) if n is None else \
                    self.emit1("fpowi", {"source": x, "exponent": n}, T)
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
        sign = sign_of(dt)
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
            # upstream writes the sign fix for unsigned operands too (with unsigned compares it
            # never applies; tileiras folds it away, but the TileIR text reaches the cubin)
            r = self._fix_mod(r, y, T, "cmpi", sign)
        else:
            raise self.unsupported(f"integer '{fn}'")
        self.bind(op, r)

    def integer_exponent(self, op: Op, shape) -> Optional[TValue]:
        """The integer exponent of `x ** n` where the front end found one (attr `exponent`, its
        dtype): the integer operand before its conversion to float (which goes unused), converted
        to that dtype and broadcast; a constant exponent is an integer constant (of the tile's
        shape made at the top, as upstream materializes it: see materialize_constants)."""
        name = op.attrs.get("exponent")
        if name is None:
            return None
        if id(op) in self.exponents:
            return self.exponents[id(op)]
        dt = D.dtype_from_name(name)
        y = _unbroadcast(op.operands[1])
        if y.const is not None and not isinstance(y.const, tuple) and float(y.const).is_integer():
            return self.const(int(y.const), elem_of(dt), shape)
        src = y.owner
        if src is None or src.name != "astype" or not src.operands[0].type.dtype.is_int:
            return None
        n = src.operands[0]
        return self.to_shape(self.convert(self.v(n), n.type.dtype, dt), shape)

    def _fix_mod(self, r: TValue, y: TValue, T: Tile, cmp: str, sign: str = "signed") -> TValue:
        """Python's modulo takes the divisor's sign: add y where r != 0 and sign(r) != sign(y)."""
        b = Tile(T.shape, Scalar("i1"))
        zero = self.splat_like(0, T)
        extra = {"signedness": sign} if cmp == "cmpi" else {"comparison_ordering": "ordered"}
        r_neg = self.emit1(cmp, {"lhs": r, "rhs": zero}, b, comparison_predicate="less_than", **extra)
        known = self.splats.get(id(y)) if cmp == "cmpi" and not y.type.shape else None
        if known is not None:                # upstream folds the test of a scalar constant divisor
            y_neg = self.const(int(known) < 0 and sign == "signed", Scalar("i1"), T.shape)
        else:
            y_neg = self.emit1(cmp, {"lhs": y, "rhs": zero}, b, comparison_predicate="less_than", **extra)
        differ = self.emit1("xori", {"lhs": r_neg, "rhs": y_neg}, b)
        # `r != 0` is Python's `!=`: unordered for floats (true for NaN), as upstream writes it
        ne = {"comparison_ordering": "unordered"} if cmp == "cmpf" else extra
        nonzero = self.emit1(cmp, {"lhs": r, "rhs": zero}, b, comparison_predicate="not_equal", **ne)
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
        if is_float(dt):
            order = "unordered" if op.attrs["fn"] == "ne" else "ordered"
            r = self.emit1("cmpf", {"lhs": x, "rhs": y}, T, comparison_predicate=pred, comparison_ordering=order)
        else:
            r = self.emit1("cmpi", {"lhs": x, "rhs": y}, T, comparison_predicate=pred, signedness=sign_of(dt))
        self.bind(op, r)

    def op_where(self, op: Op) -> None:
        c, a, b = (self.v(o) for o in op.operands)
        self.bind(op, self.emit1("select", {"cond": c, "val_if_true": a, "val_if_false": b},
                                 ttype(op.result.type)))

    def op_astype(self, op: Op) -> None:
        if op.result.id in self.vals:                # materialized (materialize_constants)
            return
        self.bind(op, self.convert(self.v(op.operands[0]), op.operands[0].type.dtype, op.result.type.dtype,
                                   op.attrs.get("rounding_mode")))

    def convert(self, x: TValue, src: D.DType, dst: D.DType, rounding=None) -> TValue:
        T = Tile(x.type.shape, elem_of(dst))
        if src is dst:
            return x
        if dst is D.bool_ and is_float(src):
            # as upstream writes it: an unsigned ftoi to i1 is `x != 0` (NaN and 0.5 true; checked
            # on an H200, docs/gpu-validation.md)
            return self.emit1("ftoi", {"from": x}, T, signedness="unsigned", rounding_mode="nearest_int_to_zero",
                              saturating=False)
        if dst is D.bool_:
            b = Tile(x.type.shape, Scalar("i1"))
            zero = self.splat_like(0, x.type)
            return self.emit1("cmpi", {"lhs": x, "rhs": zero}, b, comparison_predicate="not_equal",
                              signedness=sign_of(src) if src is not D.bool_ else "unsigned")
        if is_float(src) and is_float(dst):
            return self.emit1("ftof", {"from": x}, T, rounding_mode=rounding_of(rounding))
        if is_float(dst):
            return self.emit1("itof", {"from": x}, T, signedness=sign_of(src), rounding_mode=rounding_of(rounding))
        if is_float(src):
            return self.emit1("ftoi", {"from": x}, T, signedness=sign_of(dst), rounding_mode="nearest_int_to_zero",
                              saturating=False)
        sb, db = (1 if src is D.bool_ else src.bitwidth), dst.bitwidth
        if sb < db:
            return self.emit1("exti", {"from": x}, T, signedness=sign_of(src) if src is not D.bool_ else "unsigned")
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
        # between dtypes TileIR spells alike (int32 and uint32) upstream still writes the bitcast
        same = op.operands[0].type.dtype is op.result.type.dtype
        self.bind(op, x if same else self.emit1("bitcast", {"source": x}, T))

    def op_broadcast(self, op: Op) -> None:
        if op.result.id in self.vals:                # materialized (materialize_constants)
            return
        if self.is_creation(op):
            return self.creation_splat(op)
        self.bind(op, self.to_shape(self.v(op.operands[0]), op.result.type.shape))

    def op_reshape(self, op: Op) -> None:
        if op.result.id in self.vals:
            return
        if self.is_creation(op):
            return self.creation_splat(op)
        x = self.v(op.operands[0])
        T = ttype(op.result.type)
        self.bind(op, x if x.type == T else self.emit1("reshape", {"source": x}, T))

    def is_creation(self, op: Op) -> bool:
        """Whether a reshape/broadcast of a constant is a creation (one splat constant upstream)."""
        return id(op) in self.creations or is_creation_call(op)

    def find_implicit_accumulators(self, fn) -> None:
        """A matmul's implicit zero accumulator is a creation too (upstream makes it with full())."""
        uses: dict = {}
        for op in fn.body.walk():
            for o in op.operands:
                uses[o.id] = uses.get(o.id, 0) + 1
        for op in fn.body.walk():
            if op.name != "mma" or len(op.operands) < 3:
                continue
            v = op.operands[2]
            while v.owner is not None and v.owner.name in ("reshape", "broadcast") and v.owner.loc == op.loc \
                    and uses.get(v.id) == 1 and v.const is not None:
                self.creations.add(id(v.owner))
                v = v.owner.operands[0]

    def creation_splat(self, op: Op) -> None:
        """ct.full/zeros/ones of a constant: one splat constant (the scalar it replaces goes unused)."""
        self.op_const(op)

    def materialize_constants(self, fn) -> None:
        """As upstream (which knows integer constants through reshapes and broadcasts from its
        dataflow analysis): each reshape/broadcast of an integer or boolean constant, and each
        integer conversion of an integer constant, is a constant of its own shape, made at the top
        of the kernel in program order; what it replaces goes unused."""
        loc = self.loc
        for op in fn.body.walk():
            if op.name == "binary" and op.attrs.get("exponent") is not None:
                self.materialize_exponent(op)
            if op.name == "from_scalars":
                self.materialize_elements(op)
            c = op.result.const if op.name in ("reshape", "broadcast") and len(op.results) == 1 else None
            if op.name == "astype" and _int_conversion(op):        # (upstream converts the constant)
                c = D.cast_python_scalar(op.operands[0].const, op.result.type.dtype)
            if c is None or isinstance(c, (tuple, float)) or self.is_creation(op):
                continue
            elem = elem_of(op.result.type.dtype)
            if elem.name[0] != "i":
                continue
            self.loc = op.loc
            self.vals[op.result.id] = self.materialized(op, c, elem, op.result.type.shape)
        self.loc = loc

    def materialize_elements(self, op: Op) -> None:
        """The 1-element tile of each integer or boolean constant element of a tile built from
        scalars (op_from_scalars) is a known constant too."""
        elem = elem_of(op.result.type.dtype)
        if elem.name[0] != "i":
            return
        loc, self.loc = self.loc, op.loc
        for k, x in enumerate(op.operands):
            if x.const is not None and not isinstance(x.const, tuple):
                self.elements[(id(op), k)] = self.materialized(op, x.const, elem, (1,))
        self.loc = loc

    def materialize_exponent(self, op: Op) -> None:
        """A constant integer exponent of a tile `x ** n` is a splat constant at the top, as the
        broadcast upstream's fpowi makes of it (a known integer constant)."""
        shape = op.result.type.shape
        y = _unbroadcast(op.operands[1])
        if not shape or y.const is None or isinstance(y.const, tuple) or not float(y.const).is_integer():
            return
        loc, self.loc = self.loc, op.loc
        self.exponents[id(op)] = self.materialized(op, int(y.const), elem_of(D.dtype_from_name(op.attrs["exponent"])),
                                                   shape)
        self.loc = loc

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

    def op_insert(self, op: Op) -> None:
        x, value, *idx = op.operands
        self.bind(op, self.emit1("insert", {"source": self.v(value), "destination": self.v(x),
                                            "indices": [self.v(i) for i in idx]}, ttype(op.result.type)))

    def op_pack_bytes(self, op: Op) -> None:
        # TileIR has no unsigned types: the uint8 result is an i8 tile
        self.bind(op, self.emit1("pack", {"source": self.v(op.operands[0])}, ttype(op.result.type)))

    def op_unpack_bytes(self, op: Op) -> None:
        self.bind(op, self.emit1("unpack", {"source": self.v(op.operands[0])}, ttype(op.result.type)))

    def op_unary(self, op: Op) -> None:
        x = self.v(op.operands[0])
        fn, dt, T = op.attrs["fn"], op.operands[0].type.dtype, ttype(op.result.type)
        if fn == "not":
            ones = self.splat_like(1 if dt is D.bool_ else -1, T)
            self.bind(op, self.emit1("xori", {"lhs": x, "rhs": ones}, T))
            return
        if is_float(dt):
            row = UNARY_FNS[fn]
            name = row.tileir.get("float")
            if name is None:
                raise self.unsupported(f"float '{fn}'")
            attrs = {}
            if row.rounding:              # the op takes a rounding mode: FULL by default where it has one
                attrs["rounding_mode"] = rounding_of(op.attrs.get("rounding_mode"),
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


# each op's TileIR rule, by op name (lower.py puts them into the primitive table)
RULES = {
    "const": ComputeRules.op_const, "undef": ComputeRules.op_undef, "arange": ComputeRules.op_arange,
    "literal_tile": ComputeRules.op_literal_tile, "from_scalars": ComputeRules.op_from_scalars,
    "binary": ComputeRules.op_binary, "fma": ComputeRules.op_fma, "compare": ComputeRules.op_compare,
    "where": ComputeRules.op_where, "astype": ComputeRules.op_astype, "bitcast": ComputeRules.op_bitcast,
    "broadcast": ComputeRules.op_broadcast, "reshape": ComputeRules.op_reshape, "permute": ComputeRules.op_permute,
    "cat": ComputeRules.op_cat, "extract": ComputeRules.op_extract, "insert": ComputeRules.op_insert,
    "pack_bytes": ComputeRules.op_pack_bytes, "unpack_bytes": ComputeRules.op_unpack_bytes,
    "unary": ComputeRules.op_unary,
}


def _int_conversion(op: Op) -> bool:
    """Whether `astype` op converts a known integer constant tile to another integer type."""
    x, dt = op.operands[0], op.result.type.dtype
    return (x.const is not None and bool(op.result.type.shape) and not isinstance(x.const, (tuple, float, bool)) and D.is_integral(dt)
            and not dt.is_bool and isinstance(x.type, TileType) and D.is_integral(x.type.dtype)
            and not x.type.dtype.is_bool)
