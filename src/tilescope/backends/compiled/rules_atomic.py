"""C rules of element atomics (atomic: add/max/min/and/or/xor/xchg, atomic_cas), with the
compiler's `__atomic` builtins, lanes in row-major order.

As in the executor (ops/atomics.py): each lane's old value is returned (0 for lanes that are
out of bounds, `expected` for such CAS lanes), out-of-bounds lanes are no-ops (reported only
with check_bounds=False), float adds are rounded in the array's dtype, CAS compares bits.
Whether blocks may run these concurrently is the engine's decision (order.py).
"""
from __future__ import annotations

from .cgen import CVal, Unsupported, WRAP_TYPE, ctype, from_float, itemsize, tile_of, to_float
from .rules import rule
from .rules_gather import _lane_access, report_first_bad
from .rules_memory import lane_log_sites, log_entry

_ORDER = {"RELAXED": "__ATOMIC_RELAXED", "ACQUIRE": "__ATOMIC_ACQUIRE", "RELEASE": "__ATOMIC_RELEASE",
          "ACQ_REL": "__ATOMIC_ACQ_REL", "WEAK": "__ATOMIC_RELAXED"}
_UINT = {1: "uint8_t", 2: "uint16_t", 4: "uint32_t", 8: "uint64_t"}


def _order(op) -> str:
    mo = op.attrs.get("memory_order")
    return _ORDER.get(getattr(mo, "name", mo), "__ATOMIC_SEQ_CST")


def _update(mode: str, old: str, upd: str, dt) -> str:
    """The new element value from the old one (array dtype)."""
    c = ctype(dt)
    if mode == "xchg":
        return upd
    if dt.is_float:
        if mode != "add":
            raise Unsupported(f"atomic {mode} on {dt.name} is not supported by the compiled backend yet")
        if dt.name in ("float32", "float64"):
            return f"({old} + {upd})"
        return from_float(f"({to_float(old, dt)} + {to_float(upd, dt)})", dt)
    u = WRAP_TYPE[dt.name]
    return {"add": f"({c})(({u}){old} + ({u}){upd})", "and": f"({c})({old} & {upd})", "or": f"({c})({old} | {upd})",
            "xor": f"({c})({old} ^ {upd})", "max": f"({old} > {upd} ? {old} : {upd})",
            "min": f"({old} < {upd} ? {old} : {upd})"}[mode]


def _lanes(g, op, shape, operands, body):
    """Row-major loops over the lanes; body(names, elements) for each."""
    w = g.w
    names = [g.fresh("l") for _ in shape]
    with w.loops(names, shape):
        body(names, [o.at(names) for o in operands])


def _atomic_common(g, op, mode: str, n_values: int):
    if g.options.poison:
        raise Unsupported("the poison check runs on the NumPy executor")
    arr = g.array(op.operands[0])
    dt = op.operands[0].type.dtype
    c = ctype(dt)
    nd = op.operands[0].type.ndim
    idx = op.operands[1:1 + nd]
    values = op.operands[1 + nd:1 + nd + n_values]
    res = op.results[0]
    shape = tuple(res.type.shape)
    idx_c = [tile_of(g.val(v), shape) for v in idx]
    val_c = [tile_of(g.val(v), shape) for v in values]
    if shape:
        out = g.buffer(dt, shape, f"v{res.id}")
    else:
        g.w(f"{c} v{res.id};")
        out = CVal(dt, (), expr=f"v{res.id}")
    w = g.w
    bad = g.fresh("bad")
    w(f"int64_t {bad} = 0;")
    cb = op.attrs.get("check_bounds", True)
    order = _order(op)
    u = _UINT[arr_itemsize(dt)]
    occ, sites = lane_log_sites(g, op, arr, ["atomic"])

    def body(names, e):
        o = out.at(names) if shape else out.expr
        coords, ok = e[:nd], None
        _, ok, off = _lane_access(g, op, arr, coords, shape)
        w.open("")
        w(f"const int in = {ok};")
        w(f"{bad} |= !in;")
        if sites:
            w(f"if (in) {log_entry(sites[0], occ, [f'(int64_t)({c})' for c in coords])}")
        if mode == "cas":
            exp_, des = e[nd], e[nd + 1]
            w(f"{c} expv = {exp_}, desv = {des};")
            w(f"{o} = expv;")
            w.open("if (in)")
            w(f"{u} *p = ({u} *)&{arr.ptr()}[{off}];")
            w(f"{u} e_ = 0, d_ = 0; memcpy(&e_, &expv, sizeof(expv)); memcpy(&d_, &desv, sizeof(desv));")
            w(f"__atomic_compare_exchange_n(p, &e_, d_, 0, {order}, __ATOMIC_RELAXED);")
            w(f"memcpy(&{o}, &e_, sizeof({o}));")      # e_ holds the old value either way
            w.close()
        else:
            upd = e[nd]
            w(f"{c} updv = {upd};")
            w(f"{o} = ({c})0;")
            w.open("if (in)")
            w(f"{c} *p = &{arr.ptr()}[{off}];")
            if mode == "add" and not dt.is_float:
                w(f"{o} = __atomic_fetch_add(p, updv, {order});")
            elif mode == "xchg":
                w(f"{u} ub_; memcpy(&ub_, &updv, sizeof(updv));")
                w(f"{u} ob_ = __atomic_exchange_n(({u} *)p, ub_, {order});")
                w(f"memcpy(&{o}, &ob_, sizeof(ob_));")
            else:
                w(f"{u} ob_ = __atomic_load_n(({u} *)p, __ATOMIC_RELAXED), nb_;")
                w(f"{c} oldv, newv;")
                w.open("do")
                w("memcpy(&oldv, &ob_, sizeof(oldv));")
                w(f"newv = {_update(mode, 'oldv', 'updv', dt)};")
                w("memcpy(&nb_, &newv, sizeof(newv));")
                w.close(f" while (!__atomic_compare_exchange_n(({u} *)p, &ob_, nb_, 1, {order}, __ATOMIC_RELAXED));")
                w(f"{o} = oldv;")
            w.close()
        w.close()

    _lanes(g, op, shape, idx_c + val_c, body)
    if not cb and g.options.bounds:
        what = "atomic_cas with check_bounds=False" if mode == "cas" else \
            f"atomic_{mode} with check_bounds=False"
        report_first_bad(g, op, arr, shape or (1,), idx_c, None, bad, what,
                         "undefined behaviour on the GPU; tilescope makes the lane a no-op", False)
    g.define(res, out)


def arr_itemsize(dt) -> int:
    return itemsize(dt)


@rule("atomic")
def _atomic(g, op):
    _atomic_common(g, op, op.attrs["mode"], 1)


@rule("atomic_cas")
def _atomic_cas(g, op):
    _atomic_common(g, op, "cas", 2)
