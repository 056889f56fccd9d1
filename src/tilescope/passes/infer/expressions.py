"""Expressions: names, attributes, subscripts, operators and comparisons, folded on constants
and sent to the op families' typing rules on tiles."""
from __future__ import annotations

import builtins
import dataclasses
import enum
import operator
import types
from typing import Any

from ... import dtypes as D
from ...errors import TileError, TileStaticEvalError, TileSyntaxError, TileTypeError
from ...frontend import hir as H
from ...frontend.source import SourceFunction
from ...frontend.unknown import UnknownValue, unknown_value_error
from ...ir.core import Block, Value
from ...ir.types import ArrayType, TileType
from ...ops.bridge import translate
from ...ops.registry import ATTRIBUTES, METHODS
from ..bound import bind
from ..values import UNDEFINED
from .abstract import (BoundMethod, Conflict, MaybeUndefined, RangeValue, _class_member, _dataclass_dunder,
                       _is_number, _is_type_like, describe)
from .static import compare_tuples, contains, format_fstring, host_compare, host_getattr, tuple_comprehension


# Python operators → the cuTile surface function that implements them on tiles.
BINARY_SURFACE = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "truediv",
                  "floordiv": "floordiv", "mod": "mod", "pow": "pow", "matmul": "matmul",
                  "lshift": "bitwise_lshift", "rshift": "bitwise_rshift", "and_": "bitwise_and",
                  "or_": "bitwise_or", "xor": "bitwise_xor"}


COMPARE_SURFACE = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
                   "gt": "greater", "ge": "greater_equal"}


PY_BINARY = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
             "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow,
             "matmul": operator.matmul, "lshift": operator.lshift, "rshift": operator.rshift,
             "and_": operator.and_, "or_": operator.or_, "xor": operator.xor}




_OPERATOR_FUNCTIONS = {**{getattr(operator, n): ("binary", n) for n in PY_BINARY},
                       **{getattr(operator, n): ("compare", n) for n in COMPARE_SURFACE},
                       operator.neg: ("unary", "neg"), operator.pos: ("unary", "pos"),
                       operator.invert: ("unary", "invert"), operator.not_: ("unary", "not_")}


class Expressions:
    """(one section of `Inference`; see passes/infer/__init__.py)"""

    # ---- expressions --------------------------------------------------------

    def eval(self, e: H.Expr) -> Any:
        saved = self.loc
        self.loc = e.loc
        try:
            result = getattr(self, "_expr_" + type(e).__name__)(e)
            if (type(result) is int or type(result) is float) and self.builder is not None:
                result = bind(result, self.site())      # a number is bound where it is evaluated
            if self.expressions is not None:
                self.expressions.append((e.loc, result))
            return result
        finally:
            self.loc = saved

    def _expr_Const(self, e: H.Const) -> Any:
        return self._check_int_range(e.value)

    def _check_int_range(self, v: Any) -> Any:
        """Integer constants must fit some cuTile integer dtype (int64 or uint64), wherever they appear."""
        if isinstance(v, int) and not isinstance(v, bool) and not -(1 << 63) <= v < (1 << 64):
            raise self.value_error(f"Integer constant {v} is out of range of any supported integer type")
        return v

    def _expr_Name(self, e: H.Name) -> Any:
        return self.lookup(e.id)

    def lookup(self, name: str) -> Any:
        f = self.frame
        while f is not None:
            if name in f.vars:
                v = f.vars[name]
                if isinstance(v, MaybeUndefined):
                    raise self.error(TileTypeError, f"Use of potentially undefined variable `{name}`", v.loc)
                if isinstance(v, Conflict):
                    raise v.error
                if v is UNDEFINED:
                    raise self.error(TileTypeError, f"Use of potentially undefined variable `{name}`")
                if type(v) is UnknownValue:   # a default known only by running the module
                    raise unknown_value_error(self, name, v)
                return v
            if f.hir_fn is not None and name in f.hir_fn.local_names and f.parent is None \
                    and f is self.frame:
                if name in f.loop_maybe or any(name in names for names in f.loop_assigned):
                    raise self.error(TileTypeError, f"Use of potentially undefined variable `{name}`")
                raise self.error(TileSyntaxError, f"Undefined variable {name} used")
            if f.closure is not None:
                found, v = f.closure(name)
                if found:
                    return self._host_object(translate(v))
            if f.parent is None:
                if name in f.globals:
                    v = f.globals[name]
                    if type(v) is UnknownValue:   # editor: a global not evaluated statically
                        raise unknown_value_error(self, name, v)
                    return self._host_object(translate(v))
                if hasattr(builtins, name):
                    return getattr(builtins, name)
                break
            f = f.parent
        raise self.error(TileSyntaxError, f"Undefined variable {name} used")

    def _host_object(self, v: Any) -> Any:
        """A NumPy scalar captured from Python is a typed constant of its dtype (`np.int16(4)`);
        a captured array (a global tensor) is not a constant: arrays are passed as arguments."""
        cls = type(v)
        if (cls.__module__, cls.__qualname__) in (("torch", "Tensor"), ("numpy", "ndarray")):
            raise self.type_error(f"Cannot create constant from value of type {cls.__module__}.{cls.__qualname__}. "
                                  f"Pass the array to the kernel as an argument instead.")
        if type(v).__module__ == "numpy" and hasattr(v, "dtype") and getattr(v, "shape", None) == ():
            try:
                dt = D.as_dtype(v.dtype)
            except (TypeError, ValueError):
                return v
            return self.constant(v.item(), dt)
        return v

    def _expr_Attribute(self, e: H.Attribute) -> Any:
        obj = self.eval(e.value)
        return self.getattr(obj, e.attr)

    def getattr(self, obj: Any, attr: str) -> Any:
        if isinstance(obj, Value):
            ty = type(obj.type)
            getter = ATTRIBUTES.get((ty, attr))
            if getter is not None:
                return getter(self, obj)
            target = METHODS.get((ty, attr))
            if target is not None:
                return BoundMethod(target, obj, attr)
            raise self.type_error(f"{str(obj.type)} has no attribute '{attr}'")
        if isinstance(obj, RangeValue) and attr in ("start", "stop", "step"):
            return getattr(obj, attr)
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            if attr in {f.name for f in dataclasses.fields(obj)}:
                return object.__getattribute__(obj, attr)
            member = _class_member(type(obj), attr)
            if isinstance(member, (types.FunctionType, SourceFunction, property)):
                if isinstance(member, property):
                    return self._call(member.fget, [obj], {})
                return BoundMethod(member, obj)
        if _is_number(obj):
            # A loose number has the methods and attributes of a 0-d tile (`8.astype(...)`).
            getter = ATTRIBUTES.get((TileType, attr))
            if getter is not None:
                return getter(self, self.to_value(obj))
            target = METHODS.get((TileType, attr))
            if target is not None:
                return BoundMethod(target, obj)
        if isinstance(obj, D.DType):
            if attr in ("bitwidth", "name"):
                return getattr(obj, attr)
        try:
            value = host_getattr(self, obj, attr)
        except AttributeError:
            raise self.type_error(f"{describe(obj)} has no attribute '{attr}'") from None
        except TileError:
            raise
        except Exception as ex:  # a property of a user object failed
            raise self.error(TileStaticEvalError, f"reading attribute '{attr}' raised "
                                                  f"{type(ex).__name__}: {ex}") from None
        return translate(value)

    def _expr_Subscript(self, e: H.Subscript) -> Any:
        obj = self.eval(e.value)
        index = self.eval(e.index)
        return self.getitem(obj, index)

    def getitem(self, obj: Any, index: Any) -> Any:
        dunder = _dataclass_dunder(obj, "__getitem__")
        if dunder is not None:
            return self._call(dunder, [obj, index], {})
        if isinstance(obj, Value):
            getter = METHODS.get((type(obj.type), "__getitem__"))
            if getter is None:
                if isinstance(obj.type, ArrayType):
                    raise self.type_error(f"Arrays are not directly subscriptable; use load() on "
                                          f"{obj.type}")
                raise self.type_error(f"{str(obj.type)} does not support indexing")
            return self._call(getter, [obj, index], {})
        if isinstance(obj, tuple):
            if isinstance(index, Value):
                if isinstance(index.type, TileType) and index.type.shape == () \
                        and D.is_integral(index.type.dtype):
                    raise self.type_error("Tuple indices must be constant, but the index is a run-time value")
                raise self.type_error(f"Tuple indices must be integers or slices, not {describe(index)}")
            if isinstance(index, slice) or isinstance(index, int):
                try:
                    return obj[index]
                except IndexError:
                    raise self.type_error(f"Index {index} is out of range for a tuple of length {len(obj)}") from None
            raise self.type_error(f"Tuple indices must be integers or slices, not {describe(index)}")
        try:
            return translate(obj[index])
        except KeyError:
            if isinstance(obj, dict):
                raise self.type_error(f"Key {index!r} not found in dictionary") from None
            raise self.type_error(f"cannot index {describe(obj)} with {describe(index)}") from None
        except Exception as ex:
            raise self.type_error(f"cannot index {describe(obj)} with {describe(index)}") from None

    def _expr_SliceExpr(self, e: H.SliceExpr) -> Any:
        parts = [None if p is None else self.require_constant(self.eval(p), "a slice bound")
                 for p in (e.lower, e.upper, e.step)]
        return slice(*parts)

    def _expr_TupleExpr(self, e: H.TupleExpr) -> Any:
        return tuple(self.eval_items(e.elts))

    def eval_items(self, elts) -> list:
        """The values of a tuple display's or a call's items, `*t` spreading a tuple."""
        out = []
        for x in elts:
            if isinstance(x, H.Starred):
                v = self.eval(x.value)
                if not isinstance(v, tuple):
                    raise self.error(TileTypeError, f"Expected a tuple after *, got {describe(v)}", x.loc)
                out.extend(v)
            else:
                out.append(self.eval(x))
        return out

    def _expr_Starred(self, e: H.Starred) -> Any:
        raise self.syntax_error("Unsupported syntax: starred expression here")

    def _expr_JoinedStr(self, e: H.JoinedStr) -> Any:
        return format_fstring(self, e)

    def _expr_Lambda(self, e: H.Lambda) -> Any:
        return self._make_closure(e.func)

    def _expr_GeneratorExp(self, e: H.GeneratorExp) -> Any:
        return tuple_comprehension(self, e)

    def _expr_BinOp(self, e: H.BinOp) -> Any:
        left = self.eval(e.left)
        right = self.eval(e.right)
        return self.binary(e.op, left, right)

    def binary(self, op: str, left: Any, right: Any) -> Any:
        if isinstance(left, Value) or isinstance(right, Value):
            if isinstance(left, tuple) or isinstance(right, tuple):
                raise self.type_error(f"unsupported operand types for {op}: {describe(left)} and {describe(right)}")
            return self.call_surface(BINARY_SURFACE[op], [left, right], {})
        if isinstance(left, tuple) and isinstance(right, tuple) and op == "add":
            return left + right
        # An IntEnum member is an int in arithmetic (tuple repetition is not cuTile).
        left = int(left) if isinstance(left, enum.IntEnum) else left
        right = int(right) if isinstance(right, enum.IntEnum) else right
        if _is_number(left) and _is_number(right):
            return self._fold_python(op, left, right)
        if op == "or_" and _is_type_like(left) and _is_type_like(right):
            return left | right
        raise self.type_error(f"unsupported operand types for {op}: {describe(left)} and {describe(right)}")

    def _fold_python(self, op: str, left, right):
        if op in ("pow", "lshift") and isinstance(left, int) and isinstance(right, int) and right > 256 \
                and abs(left) > 1:
            raise self.value_error(f"Integer constant {left} {'**' if op == 'pow' else '<<'} {right} is out of "
                                   f"range of any supported integer type")
        try:
            return self._check_int_range(PY_BINARY[op](left, right))
        except ZeroDivisionError:
            raise self.value_error("division by zero in a compile-time constant expression") from None
        except (OverflowError, ValueError, TypeError) as ex:
            raise self.value_error(f"cannot evaluate constant expression: {ex}") from None

    def _expr_UnaryOp(self, e: H.UnaryOp) -> Any:
        v = self.eval(e.operand)
        return self.unary(e.op, v)

    def unary(self, op: str, v: Any) -> Any:
        if (isinstance(v, Value) and isinstance(v.type, TileType)) or (op == "invert" and isinstance(v, bool)):
            from ...ops import math as tile_math    # element-wise rules, as upstream's operator overloads
            rule = {"not_": tile_math.logical_not, "pos": tile_math.unary_plus,
                    "invert": tile_math.invert}.get(op)
            return rule(self, v) if rule else self.call_surface("negative", [v], {})
        if op == "not_":
            b = self.to_bool(v)
            if isinstance(b, Value):
                return self.call_surface("equal", [b, False], {})
            return not b
        if isinstance(v, Value):
            if op == "pos":
                return v
            return self.call_surface({"neg": "negative", "invert": "bitwise_not"}[op], [v], {})
        if _is_number(v):
            return {"neg": operator.neg, "pos": operator.pos, "invert": operator.invert}[op](v)
        raise self.type_error(f"bad operand type for unary {op}: {describe(v)}")

    def _expr_Compare(self, e: H.Compare) -> Any:
        left = self.eval(e.left)
        right = self.eval(e.right)
        return self.compare(e.op, left, right)

    def compare(self, op: str, left: Any, right: Any) -> Any:
        if op in ("in_", "not_in"):
            r = contains(self, left, right)
            return self.unary("not_", r) if op == "not_in" else r
        if op in ("is_", "is_not"):
            if isinstance(left, Value) or isinstance(right, Value):
                if left is not None and right is not None:
                    word = "is" if op == "is_" else "is not"
                    raise self.type_error(f"Operator '{word}' expects one of the operands to be None")
                same = left is right
            else:
                same = left is right or (left is None and right is None)
            return same if op == "is_" else not same
        if isinstance(left, tuple) or isinstance(right, tuple):
            return compare_tuples(self, op, left, right)
        if isinstance(left, Value) or isinstance(right, Value):
            return self.call_surface(COMPARE_SURFACE[op], [left, right], {})
        try:
            return host_compare(self, op, left, right)
        except TypeError:
            raise self.type_error(f"cannot compare {describe(left)} and {describe(right)}") from None

    def _expr_BoolOp(self, e: H.BoolOp) -> Any:
        return self._bool_chain(e.op, e.values)

    def _bool_chain(self, op: str, values) -> Any:
        """Python short-circuit semantics on constants; a dynamic operand becomes an `if` whose
        branch that short-circuits yields the condition itself and whose other branch evaluates
        the rest of the chain (`a and b and c` is `a and (b and c)`), as upstream writes it."""
        result = self.eval(values[0])
        if len(values) == 1:
            return result
        b = self.to_bool(result)
        if not isinstance(b, Value):
            if (op == "and" and not b) or (op == "or" and b):
                return result
            return self._bool_chain(op, values[1:])

        def rest():
            return self.to_bool(self._bool_chain(op, values[1:]))
        return self._select_bool(b, rest, lambda: b) if op == "and" else self._select_bool(b, lambda: b, rest)

    def _select_bool(self, cond: Value, then_fn, else_fn) -> Any:
        vals = []
        blocks = []
        for fn in (then_fn, else_fn):
            block = Block()
            with self.builder.into(block):
                vals.append(fn())
            blocks.append(block)
        if not isinstance(vals[0], Value) and not isinstance(vals[1], Value) and vals[0] == vals[1]:
            return vals[0]
        ifop = self.emit("if", [cond], [])
        return self._merge_into(ifop, blocks, [("condition", vals[0], vals[1], self.loc, self.loc)])[0]

    def _expr_IfExp(self, e: H.IfExp) -> Any:
        cond = self.to_bool(self.eval(e.test))
        if not isinstance(cond, Value):
            return self.eval(e.body if cond else e.orelse)
        vals, blocks = [], []
        for sub in (e.body, e.orelse):
            block = Block()
            with self.builder.into(block):
                vals.append(self.eval(sub))
            blocks.append(block)
        ifop = self.emit("if", [cond], [])
        return self._merge_into(ifop, blocks, [("conditional expression", vals[0], vals[1], e.body.loc,
                                                e.orelse.loc)])[0]
