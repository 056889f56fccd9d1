"""C rules of `mma`, and of `for` loops that only accumulate `mma` products.

The executor (numerics.mma) multiplies through np.matmul, whose result depends on the BLAS's
summation order; compiled kernels call the very BLAS function NumPy calls (blas.py), with
the same arguments, so every product is the same in every bit:
  float32 accumulator, float32/tf32 operands: sgemm over the whole K, then + acc in float32;
  float32 accumulator, narrow operands (f16/bf16/fp8): dgemm on their exact float64 values,
    + acc in float64, rounded once;
  float16 accumulator: dgemm per 16-deep (fp8: 32-deep) K step, + the running value, rounded
    to float16 after each step; float64: dgemm, + acc; int8/uint8: exact, wrapped to int32.
A `for` loop that only accumulates mma products (fusion.fused_mmas) is run as the executor
runs it: the operands of up to fusion.FUSED_K elements of K are gathered and multiplied at once.
"""
from __future__ import annotations

from math import prod
from typing import List, Tuple

from ... import dtypes as D
from .cgen import CVal, Unsupported, contiguous_strides, ctype, loop_nest, tile_of, to_double
from .rules import rule
from .rules_elementwise import canon

_K_STEP = {"float16": 16, "bfloat16": 16, "float8_e4m3fn": 32, "float8_e5m2": 32}
_NARROW = ("float16", "bfloat16", "float8_e4m3fn", "float8_e5m2")


class Plan:
    """How one mma computes (see module doc): the product's float type and K step."""

    def __init__(self, op):
        x_dt, acc_dt = op.operands[0].type.dtype, op.results[0].type.dtype
        self.x_dt, self.y_dt, self.acc_dt = x_dt, op.operands[1].type.dtype, acc_dt
        k = op.operands[0].type.shape[-1]
        if x_dt.is_int or x_dt.is_bool:
            self.width = D.int64
        elif acc_dt is D.float32 and x_dt in (D.float32, D.tfloat32):
            self.width = D.float32
        elif x_dt.name in _NARROW + ("float64",) and acc_dt.name in ("float32", "float16", "float64"):
            self.width = D.float64
        else:
            raise Unsupported(f"mma of {x_dt.name} into {acc_dt.name} is not supported by the compiled backend yet")
        self.k_step = k if acc_dt is not D.float16 else _K_STEP.get(x_dt.name, k)

    def operand(self, expr: str, dt: D.DType) -> str:
        """An operand element as the product's type (numerics.mma_operand)."""
        if self.width is D.float32:
            return f"ts_tf32({expr})" if dt is D.tfloat32 else expr
        if self.width is D.int64:
            return f"(int64_t)({expr})"
        return to_double(expr, dt)

    def rounded(self, expr: str) -> str:
        """A product-type value rounded to the accumulator's storage."""
        a = self.acc_dt
        if self.width is D.int64:
            return f"(int32_t)({expr})"
        if self.width is a:
            return expr
        if a is D.float32:
            return f"(float)({expr})"
        if a is D.float16:
            return f"ts_d2h({expr})"
        raise Unsupported(f"mma into {a.name} is not supported by the compiled backend yet")

    def widened(self, expr: str) -> str:
        """An accumulator element as the product's type (exact)."""
        if self.width is D.int64:
            return f"(int64_t)({expr})"
        return expr if self.width is self.acc_dt else to_double(expr, self.acc_dt)


def _dims(op) -> Tuple[Tuple[int, ...], int, int, int]:
    xs, ys = op.operands[0].type.shape, op.operands[1].type.shape
    batch, m, k = tuple(xs[:-2]), xs[-2], xs[-1]
    n = ys[-1]
    if min(m, n, k) <= 1:
        # NumPy calls gemv/dot/its own loop for these shapes
        raise Unsupported("mma with a dimension of 1 is not supported by the compiled backend yet")
    return batch, m, n, k


def converted(g, v: CVal, plan: Plan, dt: D.DType) -> CVal:
    """A contiguous copy of an operand in the product's type."""
    out = g.buffer(plan.width, v.shape)
    loop_nest(g.w, v.shape, [out, v], lambda e: g.w(f"{e[0]} = {plan.operand(e[1], dt)};"))
    return out


def product(g, plan: Plan, xa: str, ya: str, acc: CVal, out: CVal, batch, m: int, n: int, k: int,
            lda: int, x_batch: int, y_batch: int) -> None:
    """out = acc + xa @ ya as the executor computes it. xa: (batch, m, k) with row stride lda
    and batch stride x_batch; ya: (batch, k, n) contiguous rows, batch stride y_batch."""
    w = g.w
    g.uses_blas = g.uses_blas or plan.width is not D.int64
    nb = prod(batch)
    shape = (nb, m, n)
    acc3 = CVal(acc.dtype, shape, expr=acc.expr) if acc.buf is None else \
        CVal(acc.dtype, shape, buf=acc.buf, strides=_flat3(acc, batch, m, n))
    out3 = CVal(out.dtype, shape, buf=out.buf, strides=contiguous_strides(shape))
    wc = ctype(plan.width)
    if plan.width is D.int64:
        w(f"for (int64_t b = 0; b < {nb}; b++) for (int64_t i = 0; i < {m}; i++) for (int64_t j = 0; j < {n}; j++) {{")
        w(f"    int64_t s = 0; for (int64_t q = 0; q < {k}; q++) s += {xa}[b*{x_batch} + i*{lda} + q] * "
          f"{ya}[b*{y_batch} + q*{n} + j];")
        acc_e = acc3.at(["b", "i", "j"])
        w(f"    {out3.at(['b', 'i', 'j'])} = (int32_t)(s + {plan.widened(acc_e)});")
        w("}")
        return
    part = g.buffer(plan.width, shape)
    gemm = "ts_sgemm" if plan.width is D.float32 else "ts_dgemm"
    ks = plan.k_step
    steps = list(range(0, k, ks))
    cur = None
    for s in steps:
        kk = min(ks, k - s)
        g.gemm_shapes.add((plan.width.name, m, n, kk))
        w(f"for (int64_t b = 0; b < {nb}; b++) {gemm}(ctx, {m}, {n}, {kk}, {xa} + b*{x_batch} + {s}, {lda}, "
          f"{ya} + b*{y_batch} + {s}*{n}, {n}, {part.buf} + b*{m * n});")
        part3 = CVal(plan.width, shape, buf=part.buf, strides=contiguous_strides(shape))
        addend = acc3 if cur is None else cur
        last = s == steps[-1]
        if last:
            loop_nest(w, shape, [out3, part3, addend],
                      lambda e: w(f"{e[0]} = {canon(plan.rounded(f'({e[1]} + {plan.widened(e[2]) if cur is None else e[2]})'), plan.acc_dt)};"))
        else:
            nxt = g.buffer(plan.width, shape)
            nxt3 = CVal(plan.width, shape, buf=nxt.buf, strides=contiguous_strides(shape))
            loop_nest(w, shape, [nxt3, part3, addend], lambda e: w(
                f"{e[0]} = {to_double(plan.rounded(f'({e[1]} + {plan.widened(e[2]) if cur is None else e[2]})'), plan.acc_dt)};"))
            cur = nxt3


def _flat3(acc: CVal, batch, m: int, n: int) -> Tuple[int, int, int]:
    """Strides of acc seen as (prod(batch), m, n) (batch axes of a view merge only when even)."""
    st = acc.strides
    if not batch:
        return (0, st[-2], st[-1])
    bst = [s for s, d in zip(st[:-2], batch) if d != 1]
    dims = [d for d in batch if d != 1]
    for k in range(len(bst) - 1):
        if bst[k] != bst[k + 1] * dims[k + 1]:
            raise Unsupported("mma on an accumulator view with uneven batch strides")
    return (bst[-1] if bst else 0, st[-2], st[-1])


@rule("mma")
def _mma(g, op):
    if op.attrs.get("use_fast_acc"):
        pass                                  # the executor ignores it as well
    plan = Plan(op)
    batch, m, n, k = _dims(op)
    x, y, acc = g.val_lazy(op.operands[0]), g.val_lazy(op.operands[1]), g.val(op.operands[2])
    xa = converted(g, tile_of(x, tuple(op.operands[0].type.shape)), plan, plan.x_dt)
    ya = converted(g, tile_of(y, tuple(op.operands[1].type.shape)), plan, plan.y_dt)
    res = op.results[0]
    out = g.buffer(res.type.dtype, res.type.shape, f"v{res.id}")
    product(g, plan, xa.buf, ya.buf, tile_of(acc, tuple(res.type.shape)), out, batch, m, n, k,
            lda=k, x_batch=m * k, y_batch=k * n)
    g.define(res, out)


# ---- loops that only accumulate products -------------------------------------------------------

def gen_fused_for(g, op, chain: List) -> None:
    """A qualifying `for` loop (fusion.py): body ops run every iteration, the products of up to
    `chunk_iterations` iterations are gathered and multiplied together."""
    from ..numpy.fusion import chunk_iterations
    w = g.w
    start, stop, step = (g.val(v).scalar_expr() for v in op.operands[:3])
    body = op.blocks[0]
    iv = body.args[0]
    mmas = {id(m): i for i, m in enumerate(chain)}
    states = []
    for i, (mma, init) in enumerate(zip(chain, op.operands[3:])):
        plan = Plan(mma)
        batch, m, n, k = _dims(mma)
        its = chunk_iterations(mma)
        nb = prod(batch)
        kc = k * its
        acc = g.buffer(mma.results[0].type.dtype, mma.results[0].type.shape, g.fresh("acc"))
        g.copy_into(acc, g.val(init))
        xs = g.buffer(plan.width, (nb, m, kc))          # operand rows of the chunk, K-concatenated
        ys = g.buffer(plan.width, (nb, kc, n))
        count = g.fresh("p")
        w(f"int64_t {count} = 0;")
        states.append((mma, plan, batch, m, n, k, its, acc, xs, ys, count))
        g.define(body.args[1 + i], acc)

    def flush(st, parts: str) -> None:
        mma, plan, batch, m, n, k, its, acc, xs, ys, count = st
        tmp = g.buffer(acc.dtype, acc.shape)
        w.open(f"if ({parts} > 0)")
        # the chunk holds `parts` iterations: its K is parts*k (BLAS gets the true K)
        _product_dynamic(g, plan, xs.buf, ys.buf, acc, tmp, batch, m, n, k, its, parts)
        g.copy_into(acc, tmp)
        w(f"{parts} = 0;")
        w.close()

    it = g.fresh("it")
    w.open(f"for (int64_t {it} = (int64_t){start}; {it} < (int64_t){stop}; {it} += (int64_t){step})")
    w(f"const {ctype(iv.type.dtype)} v{iv.id} = ({ctype(iv.type.dtype)}){it};")
    g.define(iv, CVal(iv.type.dtype, (), expr=f"v{iv.id}"))
    for o in body.ops[:-1]:
        i = mmas.get(id(o))
        if i is None:
            g.op(o)
            continue
        st = states[i]
        mma, plan, batch, m, n, k, its, acc, xs, ys, count = st
        x, y = g.val(o.operands[0]), g.val(o.operands[1])
        nb = prod(batch)
        x3 = _as3(tile_of(x, tuple(o.operands[0].type.shape)), nb, m, k)
        y3 = _as3(tile_of(y, tuple(o.operands[1].type.shape)), nb, k, n)
        kc = k * its
        # x rows go to columns [count*k, count*k + k) of xs; y rows to rows of ys
        w(f"for (int64_t b = 0; b < {nb}; b++) for (int64_t i = 0; i < {m}; i++) for (int64_t q = 0; q < {k}; q++) "
          f"{xs.buf}[b*{m * kc} + i*{kc} + {count}*{k} + q] = {plan.operand(x3.at(['b', 'i', 'q']), plan.x_dt)};")
        w(f"for (int64_t b = 0; b < {nb}; b++) for (int64_t q = 0; q < {k}; q++) for (int64_t j = 0; j < {n}; j++) "
          f"{ys.buf}[b*{kc * n} + ({count}*{k} + q)*{n} + j] = {plan.operand(y3.at(['b', 'q', 'j']), plan.y_dt)};")
        w(f"{count}++;")
        w.open(f"if ({count} == {its})")
        flush(st, count)
        w.close()
    w.close()
    for st in states:
        flush(st, st[-1])
    for r, st in zip(op.results, states):
        g.define(r, st[7])


def _as3(v: CVal, nb: int, r: int, c: int) -> CVal:
    if v.buf is None:
        return CVal(v.dtype, (nb, r, c), expr=v.expr, strides=(0, 0, 0))
    st = v.strides
    bst = 0
    if len(v.shape) > 2:
        dims = [(d, s) for d, s in zip(v.shape[:-2], st[:-2]) if d != 1]
        for a in range(len(dims) - 1):
            if dims[a][1] != dims[a + 1][1] * dims[a + 1][0]:
                raise Unsupported("mma operand view with uneven batch strides")
        bst = dims[-1][1] if dims else 0
    return CVal(v.dtype, (nb, r, c), buf=v.buf, strides=(bst, st[-2], st[-1]))


def _product_dynamic(g, plan: Plan, xs: str, ys: str, acc: CVal, out: CVal, batch, m, n, k, its, parts: str):
    """product() for a chunk of `parts` (a C expression, 1..its) iterations of K-width k: the
    operands are passed to BLAS laid out as the executor's concatenated arrays are (a chunk
    cut short is first compacted, so its row stride is its own K)."""
    w = g.w
    kc = k * its
    if plan.k_step != k and plan.width is not D.int64:
        raise Unsupported("float16 accumulators are not joined (the executor rounds them per K step)")
    nb = prod(batch)
    shape = (nb, m, n)
    acc3 = _as3(acc, nb, m, n)
    out3 = CVal(out.dtype, shape, buf=out.buf, strides=contiguous_strides(shape))
    pk = g.fresh("pk")
    w(f"const int64_t {pk} = {parts} * {k};")
    if plan.width is D.int64:
        w(f"for (int64_t b = 0; b < {nb}; b++) for (int64_t i = 0; i < {m}; i++) for (int64_t j = 0; j < {n}; j++) {{")
        w(f"    int64_t s = 0; for (int64_t q = 0; q < {pk}; q++) s += {xs}[b*{m * kc} + i*{kc} + q] * "
          f"{ys}[b*{kc * n} + q*{n} + j];")
        w(f"    {out3.at(['b', 'i', 'j'])} = (int32_t)(s + {plan.widened(acc3.at(['b', 'i', 'j']))});")
        w("}")
        return
    g.uses_blas = True
    g.gemm_shapes.add((plan.width.name, m, n, kc))
    wc = ctype(plan.width)
    xc, yc = g.buffer(plan.width, (nb, m, kc)), g.buffer(plan.width, (nb, kc, n))
    xp, yp = g.fresh("xp"), g.fresh("yp")
    w(f"const {wc} *{xp} = {xs}, *{yp} = {ys};")
    w.open(f"if ({parts} != {its})")
    w(f"for (int64_t b = 0; b < {nb}; b++) for (int64_t i = 0; i < {m}; i++) for (int64_t q = 0; q < {pk}; q++) "
      f"{xc.buf}[(b*{m} + i)*{pk} + q] = {xs}[b*{m * kc} + i*{kc} + q];")
    w(f"for (int64_t b = 0; b < {nb}; b++) for (int64_t q = 0; q < {pk}; q++) for (int64_t j = 0; j < {n}; j++) "
      f"{yc.buf}[(b*{pk} + q)*{n} + j] = {ys}[b*{kc * n} + q*{n} + j];")
    w(f"{xp} = {xc.buf}; {yp} = {yc.buf};")
    w.close()
    part = g.buffer(plan.width, shape)
    gemm = "ts_sgemm" if plan.width is D.float32 else "ts_dgemm"
    w(f"for (int64_t b = 0; b < {nb}; b++) {gemm}(ctx, {m}, {n}, {pk}, {xp} + b*{m}*{pk}, {pk}, "
      f"{yp} + b*{pk}*{n}, {n}, {part.buf} + b*{m * n});")
    part3 = CVal(plan.width, shape, buf=part.buf, strides=contiguous_strides(shape))
    loop_nest(w, shape, [out3, part3, acc3],
              lambda e: w(f"{e[0]} = {canon(plan.rounded(f'({e[1]} + {plan.widened(e[2])})'), plan.acc_dt)};"))
