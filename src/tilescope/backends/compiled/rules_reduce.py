"""C rules of reductions and scans, in the executor's order (semantics/reductions.py: reduce, scan).

Sums and products combine adjacent pairs in a fixed tree, level by level (the GPU's order);
max/min give the same value in any order and use the same tree. The reduced elements are
first gathered into a scratch array laid out (K, rows) when there are several rows, so each
tree level is one loop over contiguous rows that the C compiler vectorises, else (rows, K).
"""
from __future__ import annotations

from math import prod
from typing import Sequence

from ... import dtypes as D
from .cgen import CVal, Unsupported, canon, c_literal, ctype, contiguous_strides, from_float, to_float
from .rules import rule
from .rules_elementwise import convert, int_binary, minmax_pick
from .rules_misc import arg_reduce

_STEP_ATTRS = ("rounding_mode", "flush_to_zero")


def combine(fn: str, a: str, b: str, dt: D.DType, propagate_nan: bool = False) -> str:
    """One step of a built-in reduction/scan (semantics.reductions._reduce_step)."""
    if fn in ("sum", "prod"):
        if dt.is_float:
            o = "+" if fn == "sum" else "*"
            if dt.name in ("float32", "float64"):
                return f"(({a}) {o} ({b}))"
            return from_float(f"({to_float(a, dt)} {o} {to_float(b, dt)})", dt)
        return int_binary("add" if fn == "sum" else "mul", a, b, dt)
    if fn in ("max", "min"):
        if not dt.is_float:
            o = ">" if fn == "max" else "<"
            return f"(({a}) {o} ({b}) ? ({a}) : ({b}))"
        if dt.name == "bfloat16" and not propagate_nan:
            # ml_dtypes' fmax/fmin: NaN ignored, ties (±0) give the second operand
            o = ">" if fn == "max" else "<"
            fa, fb = to_float(a, dt), to_float(b, dt)
            return f"(({fb} != {fb}) || ({fa} {o} {fb}) ? ({a}) : ({b}))"
        if dt.name == "bfloat16":
            fa, fb = to_float(a, dt), to_float(b, dt)
            o = ">" if fn == "max" else "<"
            return f"(({fa} != {fa}) || ({fb} != {fb}) ? (ts_bf16)0x7FC0 : (({fa} {o} {fb}) || ({fa} == {fb}) ? ({a}) : ({b})))"
        return minmax_pick(fn, a, b, dt, propagate_nan)
    raise Unsupported(f"reduction '{fn}' is not supported by the compiled backend yet")


def _identity(fn: str, dt: D.DType) -> str:
    if fn == "sum":
        return c_literal(0, dt)
    if fn == "prod":
        return c_literal(1, dt)
    if dt.is_int:
        return c_literal(dt.min if fn == "max" else dt.max, dt)
    return c_literal(float("-inf") if fn == "max" else float("inf"), dt)


def _check_attrs(op) -> None:
    mode = op.attrs.get("rounding_mode")
    if getattr(mode, "name", mode) not in (None, "RN", "FULL", "APPROX") or op.attrs.get("flush_to_zero"):
        raise Unsupported("reductions with a rounding mode or flush_to_zero run on the NumPy executor")


@rule("reduce")
def _reduce(g, op):
    _check_attrs(op)
    fn = op.attrs["fn"]
    if fn in ("argmax", "argmin"):
        arg_reduce(g, op, fn)
    elif fn == "custom":
        custom_reduce(g, op)
    else:
        _builtin_reduce(g, op, fn)


def _builtin_reduce(g, op, fn: str) -> None:
    x = g.val_lazy(op.operands[0])
    res = op.results[0]
    dt = res.type.dtype
    axes = tuple(op.attrs["axes"])
    kept = [a for a in range(len(x.shape)) if a not in axes]
    rows = prod(x.shape[a] for a in kept)
    k = prod(x.shape[a] for a in axes)
    prop = bool(op.attrs.get("propagate_nan", False))
    src_dt = op.operands[0].type.dtype
    step = lambda a, b: combine(fn, a, b, dt, prop)  # noqa: E731
    col = rows >= 8          # (K, rows) layout: tree levels vectorise across rows
    w = g.w
    work = g.buffer(dt, (k, rows) if col else (rows, k))
    _gather(g, x, kept, axes, work, col, src_dt, dt)
    ident = _identity(fn, dt)
    other = g.buffer(dt, ((k + 1) // 2, rows) if col else (rows, (k + 1) // 2)) if k > 1 else work
    src, dst, width = work, other, k
    while width > 1:
        # level: dst[i] = step(src[2i], src[2i+1]) (the last one with the identity when odd)
        half, odd = width // 2, width % 2
        nxt = half + odd
        if col:
            at = lambda b, i: f"{b.buf}[({i})*{rows} + r]"  # noqa: E731
            w(f"for (int64_t i = 0; i < {half}; i++) for (int64_t r = 0; r < {rows}; r++) "
              f"{at(dst, 'i')} = {step(at(src, '2*i'), at(src, '2*i+1'))};")
            if odd:
                w(f"for (int64_t r = 0; r < {rows}; r++) {at(dst, half)} = {step(at(src, 2 * half), ident)};")
        else:
            at = lambda b, i, wd: f"{b.buf}[r*{wd} + ({i})]"  # noqa: E731
            w(f"for (int64_t r = 0; r < {rows}; r++) for (int64_t i = 0; i < {half}; i++) "
              f"{at(dst, 'i', nxt)} = {step(at(src, '2*i', width), at(src, '2*i+1', width))};")
            if odd:
                w(f"for (int64_t r = 0; r < {rows}; r++) {at(dst, half, nxt)} = "
                  f"{step(at(src, 2 * half, width), ident)};")
        src, dst, width = dst, src, nxt
    work = src
    out_shape = tuple(res.type.shape)
    if not out_shape:
        g.scalar(res, canon(f"{work.buf}[0]", dt))
        return
    out = g.buffer(dt, out_shape, f"v{res.id}")
    w(f"for (int64_t r = 0; r < {rows}; r++) {out.buf}[r] = {canon(f'{work.buf}[r]', dt)};")   # width 1 left
    g.define(res, out)


def _gather(g, x: CVal, kept: Sequence[int], axes: Sequence[int], work: CVal, col: bool, src_dt, dt) -> None:
    """work[(k, r) or (r, k)] = x at kept-index r and reduced-index k (reduced axes flattened in
    the order `axes` lists them, as semantics.reductions._move_to_end does)."""
    w = g.w
    kept_shape = [x.shape[a] for a in kept]
    red_shape = [x.shape[a] for a in axes]
    names_k = [g.fresh("r") for _ in kept]
    names_r = [g.fresh("q") for _ in axes]
    idx = [None] * len(x.shape)
    for a, n in zip(kept, names_k):
        idx[a] = n
    for a, n in zip(axes, names_r):
        idx[a] = n
    rs = contiguous_strides(kept_shape)
    ks = contiguous_strides(red_shape)
    r_flat = " + ".join(f"{n}*{s}" for n, s in zip(names_k, rs)) or "0"
    k_flat = " + ".join(f"{n}*{s}" for n, s in zip(names_r, ks)) or "0"
    rows = max(1, len(kept_shape) and _prod(kept_shape))
    kk = _prod(red_shape)
    pos = f"({k_flat})*{rows} + ({r_flat})" if col else f"({r_flat})*{kk} + ({k_flat})"
    elem = x.at(idx)
    with w.loops(names_k + names_r, kept_shape + red_shape):
        w(f"{work.buf}[{pos}] = {convert(elem, src_dt, dt) if src_dt is not dt else elem};")


def _prod(xs) -> int:
    return prod(xs) if xs else 1


@rule("scan")
def _scan(g, op):
    _check_attrs(op)
    if op.attrs["fn"] == "custom":
        custom_scan(g, op)
    else:
        _builtin_scan(g, op, op.attrs["fn"])


def _builtin_scan(g, op, fn: str) -> None:
    x = g.val(op.operands[0])
    res = op.results[0]
    dt = res.type.dtype
    axis = op.attrs["axis"]
    reverse = bool(op.attrs.get("reverse", False))
    prop = bool(op.attrs.get("propagate_nan", False))
    shape = tuple(res.type.shape)
    out = g.buffer(dt, shape, f"v{res.id}")
    w = g.w
    others, idx = _open_outer_loops(g, shape, axis)
    n = shape[axis]
    kv = g.fresh("k")
    acc = g.fresh("acc")
    first = "0" if not reverse else str(n - 1)
    src = lambda pos: x.at(idx(pos))  # noqa: E731
    w(f"{ctype(dt)} {acc} = {src(first)};")
    w(f"{out.at(idx(first))} = {acc};")
    pos = kv if not reverse else f"({n - 1} - {kv})"
    w.open(f"for (int64_t {kv} = 1; {kv} < {n}; {kv}++)")
    w(f"{acc} = {combine(fn, acc, src(pos), dt, prop)};")
    w(f"{out.at(idx(pos))} = {acc};")
    w.close()
    for _ in others:
        w.close()
    if dt.is_float:
        w(f"for (int64_t i = 0; i < {prod(shape)}; i++) {out.buf}[i] = {canon(f'{out.buf}[i]', dt)};")
    g.define(res, out)


# ---- custom combiners ----------------------------------------------------------------------------

def _region(g, block, lhs, rhs):
    """Emit a combiner region on scalar operands; returns its yielded element expressions."""
    args = list(lhs) + list(rhs)
    for a, e in zip(block.args, args):
        g.define(a, CVal(a.type.dtype, (), expr=e))
    for o in block.ops:
        if o.name == "yield":
            return [g.val(v).scalar_expr() for v in o.operands]
        if any(getattr(r.type, "shape", ()) for r in o.results):
            raise Unsupported("combiners on tiles are not supported by the compiled backend yet")
        g.op(o)
    raise Unsupported("a combiner region without a yield")


def custom_reduce(g, op) -> None:
    """semantics.reductions.reduce with fn 'custom': the operands' reduced axes flattened, combined in
    adjacent pairs level by level (odd widths padded with the identities)."""
    xs = [g.val_lazy(v) for v in op.operands]
    axes = tuple(op.attrs["axes"])
    shape = tuple(xs[0].shape)
    kept = [a for a in range(len(shape)) if a not in axes]
    rows, k = prod(shape[a] for a in kept), prod(shape[a] for a in axes)
    dts = [r.type.dtype for r in op.results]
    w = g.w
    works = []
    for x, v, dt in zip(xs, op.operands, dts):
        work = g.buffer(dt, (rows, k))
        _gather(g, x, kept, axes, work, False, v.type.dtype, dt)
        works.append((work, g.buffer(dt, (rows, (k + 1) // 2))))
    idents = [c_literal(i, dt) for i, dt in zip(op.attrs.get("identities") or [0] * len(xs), dts)]
    width, flip = k, False
    while width > 1:
        half, odd = width // 2, width % 2
        nxt = half + odd
        srcs = [(b if flip else a) for a, b in works]
        dsts = [(a if flip else b) for a, b in works]
        for i_expr, count, pad in (("2*i", half, False), (str(2 * half), odd, True)):
            if not count:
                continue
            w.open(f"for (int64_t r = 0; r < {rows}; r++) for (int64_t i = 0; i < {count}; i++)")
            lhs = [f"{s.buf}[r*{width} + {i_expr}]" for s in srcs]
            rhs = idents if pad else [f"{s.buf}[r*{width} + 2*i+1]" for s in srcs]
            outs = _region(g, op.blocks[0], lhs, rhs)
            for d, e, dt in zip(dsts, outs, dts):
                w(f"{d.buf}[r*{nxt} + {'i' if not pad else half}] = ({ctype(dt)})({e});")
            w.close()
        width, flip = nxt, not flip
    finals = [(b if flip else a) for a, b in works]
    for r, f, dt in zip(op.results, finals, dts):
        if not r.type.shape:
            g.scalar(r, canon(f"{f.buf}[0]", dt))
            continue
        out = g.buffer(dt, r.type.shape, f"v{r.id}")
        w(f"for (int64_t r = 0; r < {rows}; r++) {out.buf}[r] = {canon(f'{f.buf}[r]', dt)};")
        g.define(r, out)


def _open_outer_loops(g, shape, axis):
    """Open one loop per axis other than `axis`; returns those axes (one w.close() each) and
    idx(pos): the index list of the current element with `pos` along `axis`."""
    others = [a for a in range(len(shape)) if a != axis]
    names = {a: g.fresh("r") for a in others}
    for a in others:
        g.w.open(f"for (int64_t {names[a]} = 0; {names[a]} < {shape[a]}; {names[a]}++)")
    return others, lambda pos: [names[a] if a != axis else pos for a in range(len(shape))]


def custom_scan(g, op) -> None:
    """semantics.reductions.scan with fn 'custom': along the axis, acc = combine(acc, element)."""
    xs = [g.val_lazy(v) for v in op.operands]
    axis = op.attrs["axis"]
    reverse = bool(op.attrs.get("reverse", False))
    shape = tuple(op.results[0].type.shape)
    dts = [r.type.dtype for r in op.results]
    outs = [g.buffer(dt, shape, f"v{r.id}") for r, dt in zip(op.results, dts)]
    w = g.w
    others, idx = _open_outer_loops(g, shape, axis)
    n = shape[axis]
    kv = g.fresh("k")
    first = "0" if not reverse else str(n - 1)
    accs = [g.fresh("acc") for _ in xs]
    for a, x, o, dt in zip(accs, xs, outs, dts):
        w(f"{ctype(dt)} {a} = {x.at(idx(first))};")
        w(f"{o.at(idx(first))} = {a};")
    pos = kv if not reverse else f"({n - 1} - {kv})"
    w.open(f"for (int64_t {kv} = 1; {kv} < {n}; {kv}++)")
    new = _region(g, op.blocks[0], accs, [x.at(idx(pos)) for x in xs])
    tmps = [g.fresh("nv") for _ in xs]
    for t, e, dt in zip(tmps, new, dts):
        w(f"const {ctype(dt)} {t} = ({ctype(dt)})({e});")
    for a, t, o in zip(accs, tmps, outs):
        w(f"{a} = {t};")
        w(f"{o.at(idx(pos))} = {a};")
    w.close()
    for _ in others:
        w.close()
    for r, o, dt in zip(op.results, outs, dts):
        if dt.is_float:
            w(f"for (int64_t i = 0; i < {prod(shape)}; i++) {o.buf}[i] = {canon(f'{o.buf}[i]', dt)};")
        g.define(r, o)
