"""C rules of `mma`, and of `for` loops that only accumulate `mma` products.

The executor (semantics.products.mma) multiplies through np.matmul, whose result depends on the BLAS's
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

from contextlib import contextmanager
from math import prod
from typing import List, Tuple

from ... import dtypes as D
from ..numpy.fusion import chunk_iterations
from . import blas
from .cgen import CVal, Unsupported, canon, contiguous_strides, ctype, loop_nest, tile_of, to_double
from .rules import rule

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
        """An operand element as the product's type (semantics.products.mma_operand)."""
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



@contextmanager
def _unless_placed(w, place):
    """Code emitted inside runs only when `place` (an operand already placed, or None) is not set."""
    if place is not None:
        w.open(f"if (!{place.flag})")
    yield
    if place is not None:
        w.close()


def _dims(op) -> Tuple[Tuple[int, ...], int, int, int]:
    xs, ys = op.operands[0].type.shape, op.operands[1].type.shape
    batch, m, k = tuple(xs[:-2]), xs[-2], xs[-1]
    n = ys[-1]
    if min(m, n, k) <= 1:
        # NumPy calls gemv/dot/its own loop for these shapes
        raise Unsupported("mma with a dimension of 1 is not supported by the compiled backend yet")
    return batch, m, n, k


def converted(g, v: CVal, plan: Plan, dt: D.DType, value=None) -> CVal:
    """A contiguous copy of an operand in the product's type (made once where hoisted)."""
    hit = g.hoisted.get((value.id, plan.width.name, dt.name)) if value is not None else None
    if hit is not None:
        return hit
    out = g.buffer(plan.width, v.shape)
    loop_nest(g.w, v.shape, [out, v], lambda e: g.w(f"{e[0]} = {plan.operand(e[1], dt)};"))
    return out


def hoist_operand(g, mma, value) -> None:
    """Convert `value`, an operand of `mma` defined outside its loop, now (see KernelGen)."""
    try:
        plan = Plan(mma)
    except Unsupported:
        return                                   # (the mma's own rule will say why)
    dt = plan.x_dt if mma.operands[0] is value else plan.y_dt
    key = (value.id, plan.width.name, dt.name)
    if key not in g.hoisted:
        g.hoisted[key] = converted(g, tile_of(g.val(value), tuple(value.type.shape)), plan, dt)


def product(g, plan: Plan, xa: str, ya: str, acc: CVal, out: CVal, batch, m: int, n: int, k: int,
            lda: int, x_batch: int, y_batch: int) -> None:
    """out = acc + xa @ ya as the executor computes it. xa: (batch, m, k) with row stride lda
    and batch stride x_batch; ya: (batch, k, n) contiguous rows, batch stride y_batch."""
    w = g.w
    nb = prod(batch)
    shape = (nb, m, n)
    acc3 = CVal(acc.dtype, shape, expr=acc.expr) if acc.buf is None else \
        CVal(acc.dtype, shape, buf=acc.buf, strides=_flat3(acc, batch, m, n))
    out3 = CVal(out.dtype, shape, buf=out.buf, strides=contiguous_strides(shape))
    if plan.width is D.int64:
        w(f"for (int64_t b = 0; b < {nb}; b++) for (int64_t i = 0; i < {m}; i++) for (int64_t j = 0; j < {n}; j++) {{")
        w(f"    int64_t s = 0; for (int64_t q = 0; q < {k}; q++) s += {xa}[b*{x_batch} + i*{lda} + q] * "
          f"{ya}[b*{y_batch} + q*{n} + j];")
        acc_e = acc3.at(["b", "i", "j"])
        w(f"    {out3.at(['b', 'i', 'j'])} = (int32_t)(s + {plan.widened(acc_e)});")
        w("}")
        return
    part = g.buffer(plan.width, shape)
    ks = plan.k_step
    steps = list(range(0, k, ks))
    cur = None
    for s in steps:
        kk = min(ks, k - s)
        call = gemm_call(g, plan.width, m, n, kk, f"{xa} + b*{x_batch} + {s}", lda, f"{ya} + b*{y_batch} + {s}*{n}",
                         n, f"{part.buf} + b*{m * n}")
        w(f"for (int64_t b = 0; b < {nb}; b++) {{ {call} }}")
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


def gemm_call(g, width, m: int, n: int, k, a: str, lda, b: str, ldb, c: str, rule=None) -> str:
    """C for c[m×n] = a[m×k] @ b[k×n] (row strides lda, ldb) in NumPy's BLAS's summation order:
    the runtime's own kernel where blas.sequential_rule knows the order for this shape, else a
    call of the BLAS itself. `k` may be a C expression (then `rule` is given: C arrays of Q and U
    per K, 0 where BLAS is called)."""
    seq, call = ("ts_sgemm_seq", "ts_sgemm") if width is D.float32 else ("ts_dgemm_seq", "ts_dgemm")
    if rule is None:
        found = blas.sequential_rule(width.name, m, n, k)
        if found is not None:
            return f"{seq}({m}, {n}, {k}, {a}, {lda}, {b}, {ldb}, {c}, {found[0]}, {found[1]});"
        g.uses_blas = True
        g.gemm_shapes.add((width.name, m, n, k))
        return f"{call}(ctx, {m}, {n}, {k}, {a}, {lda}, {b}, {ldb}, {c});"
    qs, us = rule
    return (f"if ({qs}) {seq}({m}, {n}, {k}, {a}, {lda}, {b}, {ldb}, {c}, {qs}, {us}); "
            f"else {call}(ctx, {m}, {n}, {k}, {a}, {lda}, {b}, {ldb}, {c});")


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
    xa = converted(g, tile_of(x, tuple(op.operands[0].type.shape)), plan, plan.x_dt, op.operands[0])
    ya = converted(g, tile_of(y, tuple(op.operands[1].type.shape)), plan, plan.y_dt, op.operands[1])
    res = op.results[0]
    out = g.buffer(res.type.dtype, res.type.shape, f"v{res.id}")
    product(g, plan, xa.buf, ya.buf, tile_of(acc, tuple(res.type.shape)), out, batch, m, n, k,
            lda=k, x_batch=m * k, y_batch=k * n)
    g.define(res, out)


# ---- loops that only accumulate products -------------------------------------------------------

def gen_fused_for(g, op, chain: List) -> None:
    """A qualifying `for` loop (fusion.py): body ops run every iteration, the products of up to
    `chunk_iterations` iterations are gathered and multiplied together. A float32 operand
    loaded straight from an array, tile after tile along K, is not gathered: where a chunk's
    tiles lie inside the array, BLAS reads them in place (see `_InPlace`)."""
    w = g.w
    start, stop, step = (g.val(v).scalar_expr() for v in op.operands[:3])
    body = op.blocks[0]
    iv = body.args[0]
    mmas = {id(m): i for i, m in enumerate(chain)}
    it = g.fresh("it")
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
        places = [_InPlace.of(g, op, mma, pos, plan, its, it) for pos in (0, 1)]
        for p in places:
            if p is not None:
                w(f"int {p.flag} = 0; int64_t {p.row0} = 0;")
        states.append((mma, plan, batch, m, n, k, its, acc, xs, ys, count, places))
        g.define(body.args[1 + i], acc)
    guarded = {id(p.load): p.flag for st in states for p in st[-1] if p is not None}

    def flush(st, parts: str) -> None:
        mma, plan, batch, m, n, k, its, acc, xs, ys, count, places = st
        tmp = g.buffer(acc.dtype, acc.shape)
        w.open(f"if ({parts} > 0)")
        # the chunk holds `parts` iterations: its K is parts*k (BLAS gets the true K)
        _product_dynamic(g, plan, xs.buf, ys.buf, acc, tmp, batch, m, n, k, its, parts, places)
        g.copy_into(acc, tmp)
        w(f"{parts} = 0;")
        w.close()

    w.open(f"for (int64_t {it} = (int64_t){start}; {it} < (int64_t){stop}; {it} += (int64_t){step})")
    w(f"const {ctype(iv.type.dtype)} v{iv.id} = ({ctype(iv.type.dtype)}){it};")
    g.define(iv, CVal(iv.type.dtype, (), expr=f"v{iv.id}"))
    for st in states:
        for p in st[-1]:
            if p is not None:
                p.at_chunk_start(g, st[10], stop, step)
    for o in body.ops[:-1]:
        i = mmas.get(id(o))
        if i is None:
            g.guard = guarded.get(id(o))            # (a load BLAS may read in place: skipped then)
            g.op(o)
            g.guard = None
            continue
        mma, plan, batch, m, n, k, its, acc, xs, ys, count, places = states[i]
        nb = prod(batch)
        kc = k * its
        # x rows go to columns [count*k, count*k + k) of xs; y rows to rows of ys
        with _unless_placed(w, places[0]):
            x3 = _as3(tile_of(g.val(o.operands[0]), tuple(o.operands[0].type.shape)), nb, m, k)
            w(f"for (int64_t b = 0; b < {nb}; b++) for (int64_t i = 0; i < {m}; i++) for (int64_t q = 0; q < {k}; q++) "
              f"{xs.buf}[b*{m * kc} + i*{kc} + {count}*{k} + q] = {plan.operand(x3.at(['b', 'i', 'q']), plan.x_dt)};")
        with _unless_placed(w, places[1]):
            y3 = _as3(tile_of(g.val(o.operands[1]), tuple(o.operands[1].type.shape)), nb, k, n)
            w(f"for (int64_t b = 0; b < {nb}; b++) for (int64_t q = 0; q < {k}; q++) for (int64_t j = 0; j < {n}; j++) "
              f"{ys.buf}[b*{kc * n} + ({count}*{k} + q)*{n} + j] = {plan.operand(y3.at(['b', 'q', 'j']), plan.y_dt)};")
        w(f"{count}++;")
        w.open(f"if ({count} == {its})")
        flush(states[i], count)
        w.close()
    w.close()
    for st in states:
        flush(st, st[10])
    for r, st in zip(op.results, states):
        g.define(r, st[7])


def _chunk_rules(g, width, m: int, n: int, k: int, its: int, parts: str):
    """C expressions of (Q, U) for a chunk of `parts` iterations (K = parts*k), read from tables
    of blas.sequential_rule per parts (0 where BLAS is called instead)."""
    rules = [blas.sequential_rule(width.name, m, n, k * p) for p in range(1, its + 1)]
    for p, r in enumerate(rules, 1):
        if r is None:
            g.uses_blas = True
            g.gemm_shapes.add((width.name, m, n, k * p))
    q = g.fresh("qtab")
    g.w(f"static const int64_t {q}[{its + 1}][2] = {{{{0, 0}}, "
        + ", ".join(f"{{{r[0]}, {r[1]}}}" if r else "{0, 0}" for r in rules) + "};")
    return f"{q}[{parts}][0]", f"{q}[{parts}][1]"


class _InPlace:
    """A float32 mma operand that a `load_tile` of a row-major array reads, one tile further
    along K per iteration (index (m, k) for x, (k, n) for y, k the loop's index, step 1): a
    chunk of such tiles is one block of the array, which BLAS can read in place (row stride
    the array's) when it lies inside the array and this BLAS gives the same bits for operands
    inside larger arrays: the runtime's own product kernel does every chunk (its order does not
    depend on the row stride). The load itself is then skipped (g.guard)."""

    def __init__(self, load, arr, pos, fixed: str, tile, its: int, it: str, flag: str):
        self.load, self.arr, self.pos, self.fixed, self.tile, self.its, self.it = load, arr, pos, fixed, tile, its, it
        self.flag = flag

    @classmethod
    def of(cls, g, loop, mma, pos: int, plan: Plan, its: int, it: str):
        v = mma.operands[pos]
        load, body = v.owner, loop.blocks[0]
        if load is None or load.name != "load_tile" or plan.width is not D.float32 or v.type.dtype is not D.float32:
            return None
        if "traversal_steps" in load.attrs or tuple(load.attrs["order"]) != (0, 1) or len(v.type.shape) != 2:
            return None
        if len(g._readers.get(v.id, [])) != 1 or g._block_of.get(id(load)) is not body:
            return None
        step = loop.operands[2]
        if step.owner is None or step.owner.name != "const" or step.owner.attrs.get("value") != 1:
            return None
        index = load.operands[1:]
        k_pos, fixed_pos = (1, 0) if pos == 0 else (0, 1)
        fixed = index[fixed_pos]
        if index[k_pos] is not body.args[0] or g._block_of.get(id(fixed.owner)) is body or fixed is body.args[0]:
            return None
        arr = g.array(load.operands[0])
        if arr.stride(1) != "1":
            return None
        m, n, k = (mma.operands[0].type.shape[-2], mma.operands[1].type.shape[-1], mma.operands[0].type.shape[-1])
        # the runtime's own product kernel must do every chunk (BLAS reads in place may differ)
        if any(blas.sequential_rule("float32", m, n, k * p) is None for p in range(1, its + 1)):
            return None
        return cls(load, arr, pos, g.val(fixed).scalar_expr(), tuple(v.type.shape), its, it, g.fresh("inplace"))

    def at_chunk_start(self, g, count: str, stop: str, step: str) -> None:
        """At a chunk's first iteration: whether its tiles all lie inside the array."""
        w = g.w
        t0, t1 = self.tile
        p = g.fresh("pc")
        w.open(f"if ({count} == 0)")
        w(f"const int64_t {p} = ((int64_t){stop} - {self.it}) < {self.its} ? ((int64_t){stop} - {self.it}) : {self.its};")
        w(f"{self.row0} = {self.it};")
        if self.pos == 0:        # rows fixed*t0 .. +t0, columns it*t1 .. +p*t1
            inside = (f"(int64_t)({self.fixed}) >= 0 && ((int64_t)({self.fixed}) + 1) * {t0} <= {self.arr.dim(0)} && "
                      f"{self.it} >= 0 && ({self.it} + {p}) * {t1} <= {self.arr.dim(1)}")
        else:                    # rows it*t0 .. +p*t0, columns fixed*t1 .. +t1
            inside = (f"{self.it} >= 0 && ({self.it} + {p}) * {t0} <= {self.arr.dim(0)} && "
                      f"(int64_t)({self.fixed}) >= 0 && ((int64_t)({self.fixed}) + 1) * {t1} <= {self.arr.dim(1)}")
        w(f"{self.flag} = {inside};")
        w.close()

    @property
    def row0(self) -> str:
        return self.flag + "_k0"

    def pointer(self) -> str:
        """The chunk's first element and row stride, as (pointer expression, ld expression)."""
        t0, t1 = self.tile
        if self.pos == 0:
            ptr = f"({self.arr.ptr()} + (int64_t)({self.fixed}) * {t0} * {self.arr.stride(0)} + {self.row0} * {t1})"
        else:
            ptr = f"({self.arr.ptr()} + {self.row0} * {t0} * {self.arr.stride(0)} + (int64_t)({self.fixed}) * {t1})"
        return ptr, self.arr.stride(0)


def _as3(v: CVal, nb: int, r: int, c: int) -> CVal:
    if not v.strided:
        return CVal(v.dtype, (nb, r, c), expr=v.expr, strides=(0, 0, 0))
    st = v.strides
    bst = 0
    if len(v.shape) > 2:
        dims = [(d, s) for d, s in zip(v.shape[:-2], st[:-2]) if d != 1]
        for a in range(len(dims) - 1):
            if dims[a][1] != dims[a + 1][1] * dims[a + 1][0]:
                raise Unsupported("mma operand view with uneven batch strides")
        bst = dims[-1][1] if dims else 0
    return CVal(v.dtype, (nb, r, c), buf=v.buf, strides=(bst, st[-2], st[-1]), iota=v.iota)


def _product_dynamic(g, plan: Plan, xs: str, ys: str, acc: CVal, out: CVal, batch, m, n, k, its, parts: str,
                     places=(None, None)):
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
    lda, ldb = pk, str(n)
    for place, var in zip(places, (xp, yp)):
        if place is not None:             # (2-D tiles only: one product per chunk)
            ptr, ld = place.pointer()
            w(f"if ({place.flag}) {var} = {ptr};")
            if var == xp:
                lda = f"({place.flag} ? {ld} : {pk})"
            else:
                ldb = f"({place.flag} ? {ld} : {n})"
    rule = _chunk_rules(g, plan.width, m, n, k, its, parts)
    call = gemm_call(g, plan.width, m, n, pk, f"{xp} + b*{m}*{pk}", lda, f"{yp} + b*{pk}*{n}", ldb,
                     f"{part.buf} + b*{m * n}", rule=rule)
    w(f"for (int64_t b = 0; b < {nb}; b++) {{ {call} }}")
    part3 = CVal(plan.width, shape, buf=part.buf, strides=contiguous_strides(shape))
    loop_nest(w, shape, [out3, part3, acc3],
              lambda e: w(f"{e[0]} = {canon(plan.rounded(f'({e[1]} + {plan.widened(e[2])})'), plan.acc_dt)};"))
