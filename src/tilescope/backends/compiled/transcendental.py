"""Transcendental functions (exp, log, sin, tanh, pow...) in compiled kernels.

float32/float16/bfloat16 results: the function is evaluated in float64 (ts_exp64, else the C
library's) and rounded through float32 as the executor does; elements whose float64 value
sits within `_ULPS` units of a float32 rounding boundary are recomputed by the executor's own
rule through the launch's callback (see runtime_math.py). float64 results come from the
executor's rule for the whole tile (NumPy's float64 functions cannot be reproduced in C).
"""
from __future__ import annotations

from typing import List

from ... import dtypes as D
from .cgen import CVal, Unsupported, canon, contiguous_strides, ctype, from_float, ftz, is_contiguous, loop_nest, \
    tile_of, to_double

# fn -> C float64 function
TRANSCENDENTAL = {"exp": "ts_exp64", "exp2": "exp2", "log": "ts_log64", "log2": "log2", "sin": "sin", "cos": "cos",
                  "tan": "tan", "sinh": "sinh", "cosh": "cosh", "tanh": "ts_tanh64"}
BINARY_TRANSCENDENTAL = {"pow": "pow", "atan2": "atan2"}
_ULPS = 64             # both float64 evaluations are within a few units of the exact value

# Callback codes: what the executor's rule computes (engine.py decodes them).
CALLBACK_FNS = sorted(TRANSCENDENTAL) + sorted(BINARY_TRANSCENDENTAL)
CALLBACK_DTYPES = ["float16", "bfloat16", "float32", "float64"]


def callback_code(fn: str) -> int:
    return CALLBACK_FNS.index(fn)


def gen_transcendental(g, op, fn: str, operands: List[CVal], dt: D.DType, flush: bool = False) -> None:
    """`flush` (float32 only): operands and result flushed to zero, as the executor's unary rule does."""
    if dt.name not in CALLBACK_DTYPES:
        raise Unsupported(f"'{fn}' on {dt.name} is not supported by the compiled backend yet")
    result = op.results[0]
    shape = tuple(result.type.shape)
    code, dcode = callback_code(fn), CALLBACK_DTYPES.index(dt.name)
    if dt.name == "float64":
        _via_callback(g, result, operands, code, dcode)
        return
    cfn = TRANSCENDENTAL.get(fn) or BINARY_TRANSCENDENTAL[fn]
    w = g.w
    if shape:
        out = g.buffer(dt, shape, f"v{result.id}")
    else:
        name = f"v{result.id}"
        w(f"{ctype(dt)} {name};")
        out = CVal(dt, (), expr=name)
    n = max(1, out.size)
    ops = [tile_of(o, shape) for o in operands]
    # Three loops the C compiler vectorises one by one: operands to float64, the function,
    # rounding (and looking for values near a float32 rounding boundary).
    args = [g.buffer(D.float64, (n,)) for _ in ops]
    flat = [CVal(D.float64, shape, buf=a.buf, strides=contiguous_strides(shape)) if shape else a for a in args]
    arg = ftz if flush else (lambda e: e)
    for a, o in zip(flat, ops):
        if shape:
            loop_nest(w, shape, [a, o], lambda e, o=o: w(f"{e[0]} = {to_double(arg(e[1]), dt)};"))
        else:
            w(f"{a.buf}[0] = {to_double(arg(o.scalar_expr()), dt)};")
    res = g.buffer(D.float64, (n,))
    w(f"for (int64_t i = 0; i < {n}; i++) {res.buf}[i] = {cfn}({', '.join(f'{a.buf}[i]' for a in args)});")
    bad = g.fresh("bad")
    w(f"int64_t {bad} = 0;")
    target = (lambda i: f"{out.buf}[{i}]") if shape else (lambda i: out.expr)
    w(f"for (int64_t i = 0; i < {n}; i++) {{ {target('i')} = {arg(canon(from_float(f'(float){res.buf}[i]', dt), dt))}; "
      f"{bad} |= ts_near_half32({res.buf}[i], {_ULPS}); }}")
    w.open(f"if (TS_UNLIKELY({bad}))")
    c = ctype(dt)
    w.open(f"for (int64_t i = 0; i < {n}; i++) if (ts_near_half32({res.buf}[i], {_ULPS}))")
    w(f"{c} xs[2] = {{{', '.join(f'({c})0' for _ in range(2))}}};")
    for k, o in enumerate(ops):
        src = o.at(_unflatten(shape)) if shape else o.scalar_expr()
        w(f"xs[{k}] = {arg(src)};")
    w(f"ctx->numpy_rule({code}, {dcode}, 1, &xs[0], &xs[1], &{target('i')});")
    if flush:
        w(f"{target('i')} = {ftz(target('i'))};")
    w.close()
    w.close()
    g.define(result, out)


def _unflatten(shape):
    """C index expressions per axis of flat index `i` over a row-major `shape`."""
    out, step = [], 1
    for n in reversed(shape):
        out.append(f"((i / {step}) % {n})")
        step *= n
    return list(reversed(out))


def _via_callback(g, result, operands: List[CVal], code: int, dcode: int) -> None:
    """The executor's rule computes the whole (float64) tile."""
    shape = tuple(result.type.shape)
    dt = result.type.dtype
    w = g.w
    ptrs = []
    for o in operands:
        if o.shape and is_contiguous(o):
            ptrs.append(o.buf)
            continue
        full = g.buffer(o.dtype, shape) if shape else None
        if full is None:
            t = g.fresh("x")
            w(f"{ctype(o.dtype)} {t} = {o.scalar_expr()};")
            ptrs.append(f"&{t}")
        else:
            g.copy_into(full, tile_of(o, shape))
            ptrs.append(full.buf)
    ptrs += ["0"] * (2 - len(ptrs))
    if shape:
        out = g.buffer(dt, shape, f"v{result.id}")
        target = out.buf
    else:
        name = f"v{result.id}"
        w(f"{ctype(dt)} {name};")
        out = CVal(dt, (), expr=name)
        target = f"&{name}"
    n = max(1, out.size)
    w(f"ctx->numpy_rule({code}, {dcode}, {n}, {ptrs[0]}, {ptrs[1]}, {target});")
    g.define(result, out)
    assert contiguous_strides(shape) == out.strides or not shape
