"""The element-wise function table: one row per `fn` of the `unary`, `binary` and `compare` ops.

Each row holds every property a part of tilescope asks about a function — the `cuda.tile`
name that calls it, which inputs it takes, which rounding modes and flush-to-zero it accepts,
how it folds on Python constants, how NumPy computes it, and its TileIR op — so that adding a
function is one row here (the op families make its `cuda.tile` surface from the row).

Standalone (NumPy and `math` only): transpiled modules carry this table whole.
"""
import math
import operator

import numpy as np

# Rounding modes (by `RoundingMode` member name), each with the first tileiras version that
# accepts it (None: every version).
BASIC_ROUNDING = {"RN": None, "RZ": None, "RM": None, "RP": None}

# What happens to bool / integer / float inputs of a unary function: "float" converts to
# float32, "int" to int32, "keep" leaves the dtype, None rejects the input.
TO_FLOAT = ("float", "float", "keep")
FLOAT_ONLY = (None, None, "keep")
BOOL_TO_INT = ("int", "keep", "keep")
NO_FLOAT = ("keep", "keep", None)
ANY_INPUT = ("keep", "keep", "keep")


class Fn:
    """One element-wise function.

    name: the op's `fn` attribute; surface: the `cuda.tile` function calling it (None: only
    operators reach it); inputs: bool/int/float handling (unary); rounding: accepted rounding
    modes; ftz: accepts flush_to_zero; fold: the Python function on constants; libm: the
    float64 NumPy function of a transcendental (None for exact functions); tileir: TileIR op
    names by operand kind ("float", "int"); unlowered: operand kinds upstream types but cannot
    lower (rejected after dead-code elimination, as upstream fails then); sign_only: the
    result's bits are the operand's but for the sign (no fresh NaN); kwargs: keyword arguments of the surface function; static:
    callable from compile-time Python (static_eval, static_assert); form: the typing rule of a
    binary function's surface ("arith", "bitwise", "shift"; None: its family writes one).
    """
    __slots__ = ("name", "surface", "inputs", "rounding", "ftz", "fold", "libm", "tileir", "unlowered",
                 "sign_only", "kwargs", "static", "form", "doc")

    def __init__(self, name, surface, doc, *, fold, inputs=ANY_INPUT, rounding=None, ftz=False, libm=None,
                 tileir=None, unlowered=(), sign_only=False, kwargs=(), static=False, form="arith"):
        self.name, self.surface, self.doc = name, surface, doc
        self.inputs, self.rounding, self.ftz = inputs, dict(rounding or {}), ftz
        self.fold, self.libm, self.tileir, self.unlowered = fold, libm, dict(tileir or {}), tuple(unlowered)
        self.sign_only, self.kwargs, self.static, self.form = sign_only, tuple(kwargs), static, form

    @property
    def transcendental(self) -> bool:
        return self.libm is not None

    def __repr__(self):
        return f"<fn {self.name}>"


def _not(x):
    return (not x) if isinstance(x, bool) else ~x


def _rsqrt(v):
    return 1.0 / np.sqrt(v)


_TF = " Bool and integer inputs are converted to float32 first."
_RM = ("rounding_mode",)
_FTZ = ("flush_to_zero",)

UNARY = {f.name: f for f in (
    Fn("abs", "abs", "Element-wise absolute value (any dtype; also builtin abs()).", fold=abs,
       tileir={"float": "absf", "int": "absi"}, sign_only=True),
    Fn("neg", "negative", "Element-wise `-x`; a bool tile becomes int32 first.", fold=operator.neg,
       inputs=BOOL_TO_INT, tileir={"float": "negf", "int": "negi"}, sign_only=True, static=True),
    Fn("exp", "exp", "Element-wise e**x (rounding_mode FULL or APPROX, float32 only)." + _TF, fold=math.exp,
       inputs=TO_FLOAT, rounding={"FULL": None, "APPROX": (13, 3)}, libm=np.exp, tileir={"float": "exp"},
       kwargs=_RM),
    Fn("exp2", "exp2", "Element-wise 2**x." + _TF, fold=lambda x: 2 ** x, inputs=TO_FLOAT, ftz=True,
       libm=np.exp2, tileir={"float": "exp2"}, kwargs=_FTZ),
    Fn("log", "log", "Element-wise natural logarithm." + _TF, fold=math.log, inputs=TO_FLOAT, libm=np.log,
       tileir={"float": "log"}),
    Fn("log2", "log2", "Element-wise base-2 logarithm." + _TF, fold=math.log2, inputs=TO_FLOAT, libm=np.log2,
       tileir={"float": "log2"}),
    Fn("sqrt", "sqrt", "Element-wise square root." + _TF, fold=math.sqrt, inputs=TO_FLOAT,
       rounding={**BASIC_ROUNDING, "APPROX": None}, ftz=True, tileir={"float": "sqrt"},
       kwargs=_RM + _FTZ),
    Fn("rsqrt", "rsqrt", "Element-wise 1 / sqrt(x)." + _TF, fold=lambda x: x ** -0.5, inputs=TO_FLOAT,
       ftz=True, libm=_rsqrt, tileir={"float": "rsqrt"}, kwargs=_FTZ),
    Fn("sin", "sin", "Element-wise sine (radians)." + _TF, fold=math.sin, inputs=TO_FLOAT, libm=np.sin,
       tileir={"float": "sin"}),
    Fn("cos", "cos", "Element-wise cosine (radians)." + _TF, fold=math.cos, inputs=TO_FLOAT, libm=np.cos,
       tileir={"float": "cos"}),
    Fn("tan", "tan", "Element-wise tangent (radians)." + _TF, fold=math.tan, inputs=TO_FLOAT, libm=np.tan,
       tileir={"float": "tan"}),
    Fn("sinh", "sinh", "Element-wise hyperbolic sine." + _TF, fold=math.sinh, inputs=TO_FLOAT, libm=np.sinh,
       tileir={"float": "sinh"}),
    Fn("cosh", "cosh", "Element-wise hyperbolic cosine." + _TF, fold=math.cosh, inputs=TO_FLOAT, libm=np.cosh,
       tileir={"float": "cosh"}),
    Fn("tanh", "tanh", "Element-wise hyperbolic tangent (rounding_mode FULL or APPROX, float32 only)." + _TF,
       fold=math.tanh, inputs=TO_FLOAT, rounding={"FULL": None, "APPROX": (13, 2)}, libm=np.tanh,
       tileir={"float": "tanh"}, kwargs=_RM),
    Fn("floor", "floor", "Element-wise round toward -inf (float tiles only).", fold=math.floor,
       inputs=FLOAT_ONLY, tileir={"float": "floor"}),
    Fn("ceil", "ceil", "Element-wise round toward +inf (float tiles only).", fold=math.ceil, inputs=FLOAT_ONLY,
       tileir={"float": "ceil"}),
    Fn("not", "bitwise_not", "Element-wise `~x` on integers; logical not on bools. Floats are rejected.",
       fold=_not, inputs=NO_FLOAT, sign_only=True, static=True),
)}


def _cdiv(x, y):
    return -((-x) // y)


# kwargs of binary surfaces: rounding_mode + flush_to_zero, or flush_to_zero + propagate_nan.
_ROUNDED = ("rounding_mode", "flush_to_zero")
_NAN = ("flush_to_zero", "propagate_nan")

BINARY = {f.name: f for f in (
    Fn("add", "add", "Element-wise `x + y` with promotion and broadcasting.", fold=operator.add,
       rounding=BASIC_ROUNDING, ftz=True, tileir={"float": "addf", "int": "addi"}, kwargs=_ROUNDED, static=True),
    Fn("sub", "sub", "Element-wise `x - y` with promotion and broadcasting.", fold=operator.sub,
       rounding=BASIC_ROUNDING, ftz=True, tileir={"float": "subf", "int": "subi"}, kwargs=_ROUNDED, static=True),
    Fn("mul", "mul", "Element-wise `x * y` with promotion and broadcasting.", fold=operator.mul,
       rounding=BASIC_ROUNDING, ftz=True, tileir={"float": "mulf", "int": "muli"}, kwargs=_ROUNDED, static=True),
    Fn("truediv", "truediv", "Element-wise `x / y`; integer operands give float32.", fold=operator.truediv,
       rounding={**BASIC_ROUNDING, "FULL": None, "APPROX": None}, ftz=True, tileir={"float": "divf"},
       kwargs=_ROUNDED, static=True),
    Fn("floordiv", "floordiv", "Element-wise `x // y`, rounding toward negative infinity.",
       fold=operator.floordiv, tileir={"int": "divi"}, static=True),
    Fn("cdiv", "cdiv", "Element-wise ceiling division of integers, `-(-x // y)`.", fold=_cdiv,
       tileir={"int": "divi"}, unlowered=("float",), static=True),
    Fn("mod", "mod", "Element-wise `x % y`; the result has the sign of `y` (Python semantics).",
       fold=operator.mod, tileir={"float": "remf", "int": "remi"}, static=True, form=None),
    Fn("pow", "pow", "Element-wise `x ** y` (floats only: integer powers are not lowered).", fold=operator.pow,
       libm=np.power, tileir={"float": "fpowf"}, unlowered=("int",), static=True),
    Fn("atan2", "atan2", "Element-wise arc tangent of `x1 / x2` in the correct quadrant.", fold=math.atan2,
       libm=np.arctan2, tileir={"float": "atan2"}, unlowered=("int",)),
    Fn("max", "maximum", "Element-wise maximum; NaN is ignored unless `propagate_nan`.", fold=max, ftz=True,
       tileir={"float": "maxf", "int": "maxi"}, kwargs=_NAN, static=True),
    Fn("min", "minimum", "Element-wise minimum; NaN is ignored unless `propagate_nan`.", fold=min, ftz=True,
       tileir={"float": "minf", "int": "mini"}, kwargs=_NAN, static=True),
    Fn("and", "bitwise_and", "Element-wise `x & y` on integers or bools.", fold=operator.and_,
       tileir={"int": "andi"}, static=True, form="bitwise"),
    Fn("or", "bitwise_or", "Element-wise `x | y` on integers or bools.", fold=operator.or_,
       tileir={"int": "ori"}, static=True, form="bitwise"),
    Fn("xor", "bitwise_xor", "Element-wise `x ^ y` on integers or bools.", fold=operator.xor,
       tileir={"int": "xori"}, static=True, form="bitwise"),
    Fn("lshift", "bitwise_lshift", "Element-wise `x << y` on integers.", fold=operator.lshift,
       tileir={"int": "shli"}, static=True, form="shift"),
    Fn("rshift", "bitwise_rshift", "Element-wise `x >> y` on integers (sign-extending for signed types).",
       fold=operator.rshift, tileir={"int": "shri"}, static=True, form="shift"),
)}

# Comparisons give bool; ordered (false with NaN) except `ne`.
COMPARE = {name: Fn(name, surface, f"Element-wise `{name}` comparison giving a bool tile.", fold=fold,
                    tileir={"predicate": predicate}, static=True)
           for name, surface, fold, predicate in (
               ("eq", "equal", operator.eq, "equal"), ("ne", "not_equal", operator.ne, "not_equal"),
               ("lt", "less", operator.lt, "less_than"), ("le", "less_equal", operator.le, "less_than_or_equal"),
               ("gt", "greater", operator.gt, "greater_than"),
               ("ge", "greater_equal", operator.ge, "greater_than_or_equal"))}
