"""C rules of print and assert.

`print` hands its operands' tiles to the launch's callback, which formats them with the
executor's own code (ops/debug.py printed_lines) into the launch's sink (printed in block
order at the end, as the executor does). A failed `assert` stops its block and the launch
(engine: kernels with asserts run their blocks one after another, so the blocks before the
failing one are exactly those that ran).
"""
from __future__ import annotations

from .cgen import CVal, contiguous_strides, ctype, loop_nest
from .rules import rule


@rule("print")
def _print(g, op):
    w = g.w
    ptrs = []
    for v in op.operands:
        c = g.val(v)
        if not c.shape:
            name = g.fresh("pv")
            w(f"{ctype(c.dtype)} {name} = {c.scalar_expr()};")
            ptrs.append(f"(void *)&{name}")
            continue
        buf = g.buffer(c.dtype, c.shape)
        full = CVal(c.dtype, c.shape, buf=buf.buf, strides=contiguous_strides(c.shape))
        loop_nest(w, c.shape, [full, c], lambda e: w(f"{e[0]} = {e[1]};"))
        ptrs.append(f"(void *){buf.buf}")
    site = g.report_site(op, "print")
    arr = g.fresh("pp")
    w(f"void *{arr}[{max(1, len(ptrs))}] = {{{', '.join(ptrs) or '0'}}};")
    w(f"ctx->print({site}, lin, {arr});")
    g.prints = True


@rule("assert")
def _assert(g, op):
    c = g.val(op.operands[0])
    site = g.report_site(op, "assert")
    w = g.w
    ok = g.fresh("ok")
    w(f"int {ok} = 1;")
    if c.shape:
        loop_nest(w, c.shape, [c], lambda e: w(f"{ok} &= ({e[0]}) != 0;"))
    else:
        w(f"{ok} = ({c.scalar_expr()}) != 0;")
    w(f"if (!{ok}) {{ ts_report(ctx, {site}, lin, 0, 0); return 1; }}")
    g.asserts = True
