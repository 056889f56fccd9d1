"""C rules of the element-wise primitives: const, binary, unary, fma, compare, where, astype.

Each builds the C expression of one element from its operands' element expressions, with
the executor's numerics (semantics/numerics.py, arithmetic.py): floats correctly rounded in their
storage format, integers wrapping, NaNs of arithmetic made canonical.
"""
from __future__ import annotations

from ... import dtypes as D
from .cgen import (INT_SUFFIX, WRAP_TYPE, Unsupported, c_literal, canon, ctype, from_double, from_float, ftz,
                   to_double, to_float)
from .rules import rule
from .transcendental import gen_transcendental, TRANSCENDENTAL


def _plain_rounding(op) -> None:
    mode = op.attrs.get("rounding_mode")
    name = getattr(mode, "name", mode)
    if name not in (None, "RN", "FULL", "APPROX"):
        raise Unsupported(f"rounding mode {name} is not supported by the compiled backend yet")


def _rounded_operands(g, op):
    """(result dtype, lazy operands, flush) of an element-wise op with rounding attributes, after
    refusing the rounding modes the compiled backend does not have. `flush`: flush_to_zero is
    in effect, which changes float32 values only (as semantics/numerics.py's `_flush`)."""
    _plain_rounding(op)
    dt = op.results[0].type.dtype
    flush = bool(op.attrs.get("flush_to_zero")) and dt.name == "float32"
    return dt, [g.val_lazy(v) for v in op.operands], flush


@rule("const")
def _const(g, op):
    g.scalar(op.results[0], c_literal(op.attrs["value"], op.results[0].type.dtype))


# ---- binary ---------------------------------------------------------------------------------

_ARITH = {"add": "+", "sub": "-", "mul": "*", "truediv": "/"}


def float_binary(fn: str, x: str, y: str, dt: D.DType, propagate_nan: bool = False, flush: bool = False) -> str:
    """One element of a float binary op in storage dtype `dt` (result not yet canonical).
    `flush` (float32 only): operands and rounded results flushed to zero where the executor
    flushes them (not for mod, whose rule takes no flush)."""
    if flush and fn != "mod":
        x, y = ftz(x), ftz(y)
    if fn in _ARITH:
        o = _ARITH[fn]
        if dt.name in ("float32", "float64"):
            out = f"(({x}) {o} ({y}))"
            return ftz(out) if flush else out
        return from_float(f"({to_float(x, dt)} {o} {to_float(y, dt)})", dt)
    if fn in ("max", "min"):
        return minmax_pick(fn, x, y, dt, propagate_nan)
    if fn == "floordiv":
        q = float_binary("truediv", x, y, dt, flush=flush)
        return from_double(f"floor({to_double(q, dt)})", dt)
    if fn == "mod":
        return f"ts_fmod_{_short(dt)}({x}, {y})"
    raise Unsupported(f"binary '{fn}' on {dt.name} is not supported by the compiled backend yet")


def minmax_pick(fn: str, x: str, y: str, dt: D.DType, propagate_nan: bool) -> str:
    """float_minmax: one operand's bits (float32 and narrower compare as float32, exactly)."""
    prop = 1 if propagate_nan else 0
    if dt.name == "float64":
        return f"(ts_pick_{fn}({x}, {y}, {prop}) ? ({x}) : ({y}))"
    return f"(ts_pick_{fn}32({to_float(x, dt)}, {to_float(y, dt)}, {prop}) ? ({x}) : ({y}))"


def _short(dt: D.DType) -> str:
    return {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16"}[dt.name]


def int_binary(fn: str, x: str, y: str, dt: D.DType, ydt: D.DType = None) -> str:
    c = ctype(dt)
    if dt.is_bool:
        ops = {"and": "&", "or": "|", "xor": "^", "max": "|", "min": "&"}
        if fn in ops:
            return f"(uint8_t)(({x}) {ops[fn]} ({y}))"
        raise Unsupported(f"binary '{fn}' on bool is not supported by the compiled backend yet")
    u = WRAP_TYPE[dt.name]
    if fn in ("add", "sub", "mul"):
        o = _ARITH[fn]
        return f"({c})(({u})({x}) {o} ({u})({y}))"
    if fn in ("and", "or", "xor"):
        o = {"and": "&", "or": "|", "xor": "^"}[fn]
        return f"({c})(({x}) {o} ({y}))"
    if fn == "max":
        return f"(({x}) > ({y}) ? ({x}) : ({y}))"
    if fn == "min":
        return f"(({x}) < ({y}) ? ({x}) : ({y}))"
    sfx = INT_SUFFIX[dt.name]
    if fn in ("floordiv", "cdiv", "mod", "pow"):
        return f"ts_{fn}_{sfx}({x}, {y})"
    if fn in ("lshift", "rshift"):
        ydt = ydt or dt
        amount = f"(uint64_t)({y})" if not ydt.is_signed else f"(uint64_t)(int64_t)({y})"
        return f"ts_{'shl' if fn == 'lshift' else 'shr'}_{sfx}({x}, {amount})"
    raise Unsupported(f"binary '{fn}' on {dt.name} is not supported by the compiled backend yet")


@rule("binary")
def _binary(g, op):
    dt, (x, y), flush = _rounded_operands(g, op)
    fn = op.attrs["fn"]
    if dt.is_float and fn in ("pow", "atan2"):      # the executor's rule takes no flush here
        gen_transcendental(g, op, fn, [x, y], dt)
        return
    if dt.is_float:
        prop = bool(op.attrs.get("propagate_nan", False))
        g.elementwise(op.results[0], [x, y],
                      lambda e: canon(float_binary(fn, e[0], e[1], dt, prop, flush), dt))
    else:
        ydt = op.operands[1].type.dtype
        g.elementwise(op.results[0], [x, y], lambda e: int_binary(fn, e[0], e[1], dt, ydt))


# ---- unary ----------------------------------------------------------------------------------

def float_exact_unary(fn: str, x: str, dt: D.DType) -> str:
    """abs/neg/floor/ceil, as the executor computes them: in float64, rounded back (NaNs as the
    conversions leave them)."""
    if fn in ("floor", "ceil"):               # new arithmetic: NaNs made canonical
        return canon(_exact_unary(fn, x, dt), dt)
    return _exact_unary(fn, x, dt)


def _exact_unary(fn: str, x: str, dt: D.DType) -> str:
    f = {"abs": "fabs", "neg": "-", "floor": "floor", "ceil": "ceil"}[fn]
    if dt.name == "float32":
        return f"(float)ts_quiet64({f}((double)({x})))"
    if dt.name == "float64":
        return f"ts_quiet64({f}({x}))"
    if dt.name == "float16":
        if fn == "abs":
            return f"(ts_f16)(({x}) & 0x7FFF)"
        if fn == "neg":
            return f"(ts_f16)(({x}) ^ 0x8000)"
        return f"ts_d2h({f}(ts_h2d({x})))"
    if dt.name == "bfloat16":
        return f"ts_f2bf((float){f}((double)ts_bf2f({x})))"
    raise Unsupported(f"unary '{fn}' on {dt.name} is not supported by the compiled backend yet")


@rule("unary")
def _unary(g, op):
    dt, (x,), flush = _rounded_operands(g, op)
    fn = op.attrs["fn"]
    if fn == "not":
        expr = (lambda e: f"(uint8_t)!({e[0]})") if dt.is_bool else (lambda e: f"({ctype(dt)})~({e[0]})")
    elif not dt.is_float:
        u = WRAP_TYPE[dt.name]
        c = ctype(dt)
        if fn == "abs":
            expr = (lambda e: f"(({e[0]}) < 0 ? ({c})(({u})0 - ({u})({e[0]})) : ({e[0]}))") if dt.is_signed \
                else (lambda e: e[0])
        elif fn == "neg":
            expr = lambda e: f"({c})(({u})0 - ({u})({e[0]}))"  # noqa: E731
        elif fn in ("floor", "ceil"):
            expr = lambda e: e[0]  # noqa: E731
        else:
            raise Unsupported(f"unary '{fn}' on {dt.name} is not supported by the compiled backend yet")
    elif fn in ("abs", "neg", "floor", "ceil"):
        expr = lambda e: float_exact_unary(fn, e[0], dt)  # noqa: E731
    elif fn == "sqrt":
        if dt.name == "float32":
            expr = lambda e: canon(f"sqrtf({e[0]})", dt)  # noqa: E731
        elif dt.name == "float64":
            expr = lambda e: canon(f"sqrt({e[0]})", dt)  # noqa: E731
        else:
            expr = lambda e: canon(from_float(f"sqrtf({to_float(e[0], dt)})", dt), dt)  # noqa: E731
    elif fn == "rsqrt" and dt.name != "float64":
        expr = lambda e: canon(from_float(f"(float)(1.0 / sqrt({to_double(e[0], dt)}))", dt), dt)  # noqa: E731
    elif fn == "rsqrt":
        expr = lambda e: canon(f"(1.0 / sqrt({e[0]}))", dt)  # noqa: E731
    elif fn in TRANSCENDENTAL:
        gen_transcendental(g, op, fn, [x], dt, flush)
        return
    else:
        raise Unsupported(f"unary '{fn}' is not supported by the compiled backend yet")
    if flush:       # the operand flushed; of these results only rsqrt's is flushed again
        inner = expr
        expr = (lambda e: ftz(inner([ftz(e[0])]))) if fn == "rsqrt" else (lambda e: inner([ftz(e[0])]))  # noqa: E731
    g.elementwise(op.results[0], [x], expr)


# ---- fma, compare, where, astype ------------------------------------------------------------

@rule("fma")
def _fma(g, op):
    dt, (a, b, c), flush = _rounded_operands(g, op)
    if flush:
        expr = lambda e: ftz(canon(f"fmaf({ftz(e[0])}, {ftz(e[1])}, {ftz(e[2])})", dt))  # noqa: E731
    elif dt.name == "float32":
        expr = lambda e: canon(f"fmaf({e[0]}, {e[1]}, {e[2]})", dt)  # noqa: E731
    elif dt.name == "float64":
        expr = lambda e: canon(f"ts_fma64({e[0]}, {e[1]}, {e[2]})", dt)  # noqa: E731
    elif dt.name in ("float16", "bfloat16"):
        expr = lambda e: canon(from_double("ts_fma_narrow(" + ", ".join(to_double(x, dt) for x in e) + ")", dt),  # noqa: E731
                               dt)
    else:
        raise Unsupported(f"fma on {dt.name} is not supported by the compiled backend yet")
    g.elementwise(op.results[0], [a, b, c], expr)


_COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


@rule("compare")
def _compare(g, op):
    dt = op.operands[0].type.dtype
    o = _COMPARE[op.attrs["fn"]]
    x, y = (g.val_lazy(v) for v in op.operands)
    if dt.is_float and dt.name not in ("float32", "float64"):
        expr = lambda e: f"(uint8_t)({to_float(e[0], dt)} {o} {to_float(e[1], dt)})"  # noqa: E731
    else:
        expr = lambda e: f"(uint8_t)(({e[0]}) {o} ({e[1]}))"  # noqa: E731
    g.elementwise(op.results[0], [x, y], expr)


@rule("where")
def _where(g, op):
    c, x, y = (g.val_lazy(v) for v in op.operands)
    g.elementwise(op.results[0], [c, x, y], lambda e: f"(({e[0]}) ? ({e[1]}) : ({e[2]}))")


def convert(x: str, src: D.DType, dst: D.DType) -> str:
    """semantics.numerics.convert for one element (nearest-even rounding)."""
    if src is dst:
        return x
    if dst.is_bool:
        return f"(uint8_t)({to_double(x, src)} != 0)" if src.is_float else f"(uint8_t)(({x}) != 0)"
    if dst.is_int:
        if src.is_float:
            fn = ("ts_ftoi" if dst.is_signed else "ts_ftou") + str(dst.bitwidth)
            return f"{fn}({to_double(x, src)})"
        return f"({ctype(dst)})({x})"
    ctype(dst)
    if src.is_float:
        if src.name in ("float32", "tfloat32") and dst.name == "tfloat32":
            return f"ts_tf32({x})"
        if src.name == "bfloat16" and dst.name == "float32":      # (a C compiler may fold float->double->float)
            return f"ts_quiet32(ts_bf2f({x}))"
        return from_double(to_double(x, src), dst)
    if dst.name in ("float32", "float64"):
        return f"({ctype(dst)})({x})"                  # C rounds integers once, to nearest even
    if src.name in ("int64", "uint64"):                # exact as float64 only when rounded to odd
        return from_double(f"ts_{'i' if src.is_signed else 'u'}64_odd({x})", dst)
    return from_double(f"(double)({x})", dst)


@rule("astype")
def _astype(g, op):
    _plain_rounding(op)
    src, dst = op.operands[0].type.dtype, op.attrs["dtype"]
    g.elementwise(op.results[0], [g.val_lazy(op.operands[0])], lambda e: convert(e[0], src, dst))
