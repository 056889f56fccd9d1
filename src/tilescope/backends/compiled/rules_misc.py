"""C rules of the remaining tile ops: arg-reductions, cat, sub-tile extract/insert, bit casts,
tiles from scalars, and the no-ops (assume, grid_control, undef)."""
from __future__ import annotations

from math import prod

from .cgen import CVal, Unsupported, c_literal, contiguous_strides, ctype, loop_nest, tile_of, to_double
from .rules import rule


def arg_reduce(g, op, fn: str) -> None:
    """First index of the largest/smallest element along one axis (semantics.reductions._arg_reduce): NaN is
    the worst value (index 0 when all are NaN), or with propagate_nan the best (first NaN)."""
    x = g.val_lazy(op.operands[0])
    axis = op.attrs["axes"][0]
    res = op.results[0]
    dt = op.operands[0].type.dtype
    shape = tuple(x.shape)
    n = shape[axis]
    others = [a for a in range(len(shape)) if a != axis]
    out_shape = tuple(res.type.shape)
    prop = bool(op.attrs.get("propagate_nan", False))
    w = g.w
    out = g.buffer(res.type.dtype, out_shape, f"v{res.id}") if out_shape else None
    if not out_shape:
        w(f"int32_t v{res.id};")
    names = {a: g.fresh("r") for a in others}
    for a in others:
        w.open(f"for (int64_t {names[a]} = 0; {names[a]} < {shape[a]}; {names[a]}++)")
    k = g.fresh("k")
    at = lambda pos: x.at([names[a] if a != axis else pos for a in range(len(shape))])  # noqa: E731
    best, idx, nan_at = g.fresh("best"), g.fresh("idx"), g.fresh("nan")
    better = ">" if fn == "argmax" else "<"
    if dt.is_float:
        w(f"double {best} = 0; int64_t {idx} = -1, {nan_at} = -1;")
        w.open(f"for (int64_t {k} = 0; {k} < {n}; {k}++)")
        v = g.fresh("v")
        w(f"const double {v} = {to_double(at(k), dt)};")
        w(f"if ({v} != {v}) {{ if ({nan_at} < 0) {nan_at} = {k}; continue; }}")
        w(f"if ({idx} < 0 || {v} {better} {best}) {{ {best} = {v}; {idx} = {k}; }}")
        w.close()
        w(f"if ({idx} < 0) {idx} = 0;")
        if prop:
            w(f"if ({nan_at} >= 0) {idx} = {nan_at};")
    else:
        w(f"{ctype(dt)} {best} = {at('0')}; int64_t {idx} = 0;")
        w(f"for (int64_t {k} = 1; {k} < {n}; {k}++) if ({at(k)} {better} {best}) {{ {best} = {at(k)}; {idx} = {k}; }}")
    if out_shape:
        flat = " + ".join(f"{names[a]}*{s}" for a, s in zip(others, contiguous_strides(out_shape))) or "0"
        w(f"{out.buf}[{flat}] = (int32_t){idx};")
    else:
        w(f"v{res.id} = (int32_t){idx};")
    for _ in others:
        w.close()
    if out_shape:
        g.define(res, out)
    else:
        g.define(res, CVal(res.type.dtype, (), expr=f"v{res.id}"))


@rule("cat")
def _cat(g, op):
    x, y = (g.val_lazy(v) for v in op.operands)
    axis = op.attrs["axis"]
    res = op.results[0]
    shape = tuple(res.type.shape)
    out = g.buffer(res.type.dtype, shape, f"v{res.id}")
    w = g.w
    half = x.shape[axis]
    for part, off in ((x, 0), (y, half)):
        dst = CVal(out.dtype, part.shape, buf=f"({out.buf} + {off * out.strides[axis]})", strides=out.strides)
        loop_nest(w, part.shape, [dst, part], lambda e: w(f"{e[0]} = {e[1]};"))
    g.define(res, out)


def _subtile(g, op, index_vals, sub, full, what: str):
    """Per-axis start expressions of a sub-tile (clipped, as tilegeom.subtile_coords), with
    the bounds report of an index outside the sub-tile grid."""
    w = g.w
    starts, valid = [], []
    for k, (i, s, n) in enumerate(zip(index_vals, sub, full)):
        v = g.fresh("s")
        w(f"const int64_t {v} = (int64_t)({i});")
        valid.append(f"({v} >= 0 && {v} < {n // s})")
        starts.append(v)
    if g.options.bounds:
        site = g.report_site(op, "subtile", what=what, sub=tuple(sub), full=tuple(full))
        w.open(f"if (TS_UNLIKELY(!({' && '.join(valid)})))")
        w(f"const int64_t det[{max(1, len(starts))}] = {{{', '.join(starts)}}};")
        w(f"ts_report(ctx, {site}, lin, {len(starts)}, det);")
        w.close()
    return starts, valid


def _clip(start: str, s: int, n: int, i: str) -> str:
    """The element coordinate of lane i of the sub-tile at `start`, clipped into [0, n)."""
    c = f"({start}*{s} + {i})"
    return f"({c} < 0 ? 0 : {c} > {n - 1} ? {n - 1} : {c})"


@rule("extract")
def _extract(g, op):
    x = g.val(op.operands[0])
    res = op.results[0]
    sub, full = tuple(op.attrs["shape"]), tuple(x.shape)
    starts, _ = _subtile(g, op, [g.val(v).scalar_expr() for v in op.operands[1:]], sub, full, "extract")
    out = g.buffer(res.type.dtype, sub, f"v{res.id}")
    w = g.w
    names = [g.fresh("e") for _ in sub]
    with w.loops(names, sub):
        src = x.at([_clip(st, s, n, i) for st, s, n, i in zip(starts, sub, full, names)])
        w(f"{out.at(names)} = {src};")
    g.define(res, out)


@rule("insert")
def _insert(g, op):
    x, val = g.val_lazy(op.operands[0]), g.val(op.operands[1])
    res = op.results[0]
    full, sub = tuple(res.type.shape), tuple(val.shape)
    starts, valid = _subtile(g, op, [g.val(v).scalar_expr() for v in op.operands[2:]], sub, full, "insert")
    out = g.buffer(res.type.dtype, full, f"v{res.id}")
    w = g.w
    loop_nest(w, full, [out, tile_of(x, full)], lambda e: w(f"{e[0]} = {e[1]};"))
    w.open(f"if ({' && '.join(valid)})")            # an index outside the grid writes nothing
    names = [g.fresh("e") for _ in sub]
    with w.loops(names, sub):
        w(f"{out.at([f'({st}*{s} + {i})' for st, s, i in zip(starts, sub, names)])} = {tile_of(val, sub).at(names)};")
    w.close()
    g.define(res, out)


@rule("bitcast")
def _bitcast(g, op):
    x = g.val(op.operands[0])
    res = op.results[0]
    dst = op.attrs["dtype"]
    src = op.operands[0].type.dtype
    if src.bitwidth != dst.bitwidth or dst.bitwidth < 8:
        raise Unsupported("bit casts between widths (or of fp4) are not supported by the compiled backend yet")
    if not x.shape:
        name = f"v{res.id}"
        g.w(f"{ctype(dst)} {name}; {{ {ctype(src)} b_ = {x.scalar_expr()}; memcpy(&{name}, &b_, sizeof {name}); }}")
        g.define(res, CVal(dst, (), expr=name))
        return
    if x.buf is None:
        x = g.val(op.operands[0]) if x.lazy else x
    out = g.buffer(src, x.shape)
    loop_nest(g.w, x.shape, [out, x], lambda e: g.w(f"{e[0]} = {e[1]};"))
    g.define(res, CVal(dst, tuple(res.type.shape), buf=f"(({ctype(dst)} *){out.buf})", strides=out.strides))


@rule("from_scalars")
def _from_scalars(g, op):
    res = op.results[0]
    out = g.buffer(res.type.dtype, res.type.shape, f"v{res.id}")
    for k, v in enumerate(op.operands):
        g.w(f"{out.buf}[{k}] = ({ctype(res.type.dtype)})({g.val(v).scalar_expr()});")
    g.define(res, out)


@rule("assume")
def _assume(g, op):
    x = g.val(op.operands[0])
    if g.options.bounds:
        d = op.attrs["divisor"]
        site = g.report_site(op, "assume", divisor=d)
        g.w(f"if (TS_UNLIKELY((int64_t)({x.scalar_expr()}) % {d} != 0)) "
            f"{{ const int64_t det[1] = {{(int64_t)({x.scalar_expr()})}}; ts_report(ctx, {site}, lin, 1, det); }}")
    g.define(op.results[0], x)


@rule("grid_control")
def _grid_control(g, op):
    """Programmatic dependent launch: a no-op (a launch runs after the previous one finished)."""


@rule("undef")
def _undef(g, op):
    res = op.results[0]
    t = res.type
    if not t.shape:
        g.scalar(res, c_literal(0, t.dtype))
        return
    out = g.buffer(t.dtype, t.shape, f"v{res.id}")
    g.w(f"memset({out.buf}, 0, {prod(t.shape)} * sizeof *{out.buf});")
    g.define(res, out)
