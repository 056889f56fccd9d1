"""C rules of gather, scatter and advanced indexing: per-lane element access (numerics as tiles.load_elements /
store_elements). Negative or too large indices are out of bounds; such lanes, and lanes
masked off, read the padding value or write nothing (cuTile's way to mask lanes). Under
check_bounds=False a lane out of bounds that the mask does not remove is undefined behaviour on
the GPU and reported (bounds check) as the executor words it: the first such lane of the
smallest block."""
from __future__ import annotations

from .cgen import CVal, Unsupported, ctype, loop_nest, tile_of
from .rules import rule
from .rules_memory import lane_log_sites, log_entry, padding_bits


def _operands(op, n_values: int):
    n = op.operands[0].type.ndim
    rest = op.operands[1:]
    idx, values = rest[:n], rest[n:n + n_values]
    mask = rest[n + n_values] if op.attrs.get("has_mask") else None
    return list(idx), list(values), mask


def _lane_access(g, op, arr, idx_vals, shape):
    """C expressions per element: coordinates, `ok` (inside the array) and the offset."""
    coords = [f"(int64_t)({c})" for c in idx_vals]
    ok = " && ".join(f"(uint64_t){c} < (uint64_t){arr.dim(k)}" for k, c in enumerate(coords)) or "1"
    off = " + ".join(f"{c}*{arr.stride(k)}" for k, c in enumerate(coords)) or "0"
    return coords, ok, off


def _tracking(g, arr, coords, write: bool) -> str:
    """In a kernel compiled to track its accesses (disjoint.trackable: one entry per element of
    a gathered/scattered array), the C statement recording that this block touched the lane's
    element when `take` holds; '' otherwise."""
    slot = g.tracked_slots.get(arr.param_index)
    if slot is None:
        return ""
    flat = coords[0]
    for k in range(1, len(coords)):
        flat = f"({flat}) * {arr.dim(k)} + {coords[k]}"
    return f" if (take) ts_track(ctx, {slot}, {flat}, lin, {int(write)});"


def _logging(sites, occ, coords, mask: str) -> str:
    """In a traced launch, the C statements logging the lane: its element when taken (`take`),
    an out-of-bounds attempt when unmasked and outside (with the 'oob' site, check_bounds=False)."""
    if not sites:
        return ""
    out = f" if (take) {log_entry(sites[0], occ, coords)}"
    if len(sites) > 1:
        out += f" if (({mask}) && !in) {log_entry(sites[1], occ, coords)}"
    return out


def report_first_bad(g, op, arr, shape, idx_cvals, mask_cval, bad: str, what: str, outcome: str, ub: bool):
    """If some lane was bad (the C flag `bad`): find the first (row-major) and report it (with its
    element and lane)."""
    w = g.w
    w.open(f"if (TS_UNLIKELY({bad}))")
    site = g.report_site(op, "lane-oob", what=what, outcome=outcome, ub=ub, array=arr.param_index,
                         ndim=arr.ndim, rank=len(shape))
    names = [g.fresh("l") for _ in shape]
    w.open("")
    w("int64_t det[8] = {0};")
    w("int found = 0;")
    with w.loops(names, shape, until="found"):
        coords = [c.at(names) for c in idx_cvals]
        m = mask_cval.at(names) if mask_cval is not None else "1"
        _, ok, _ = _lane_access(g, op, arr, coords, shape)
        w.open(f"if (({m}) && !({ok}))")
        for k, c in enumerate(coords):
            w(f"det[{k}] = (int64_t)({c});")
        for k, n in enumerate(names):
            w(f"det[{arr.ndim + k}] = {n};")
        w("found = 1;")
        w.close()
    w(f"if (found) ts_report(ctx, {site}, lin, {arr.ndim + len(shape)}, det);")
    w.close()
    w.close()


def _lane_tiles(g, op, idx, mask, shape):
    """(check_bounds, index tiles, mask tile or None) of a gather or scatter over lanes `shape`
    (one lane, of scalars, when `shape` is ())."""
    idx_c = [tile_of(g.val_lazy(v), shape) for v in idx]
    mask_c = tile_of(g.val_lazy(mask), shape) if mask is not None else None
    return op.attrs.get("check_bounds", True), idx_c, mask_c


def _check(op, g):
    if g.options.poison:
        raise Unsupported("the poison check runs on the NumPy executor")
    if op.operands[0].type.ndim == 0:
        raise Unsupported("gathers and scatters on 0-d arrays run on the NumPy executor")
    if len(op.operands[0].type.shape) + 1 > 8:
        raise Unsupported("arrays of more than 7 dimensions")


@rule("gather")
def _gather(g, op):
    _check(op, g)
    arr = g.array(op.operands[0])
    idx, (pad,), mask = _operands(op, 1)
    res = op.results[0]
    shape = tuple(res.type.shape)
    cb, idx_c, mask_c = _lane_tiles(g, op, idx, mask, shape)
    pad_c = tile_of(g.val(pad), shape)
    w = g.w
    if shape:
        out = g.buffer(res.type.dtype, shape, f"v{res.id}")
    else:                                   # one lane: a C local
        out = CVal(res.type.dtype, (), expr=f"v{res.id}")
        w(f"{ctype(res.type.dtype)} {out.expr};")
    bad = g.fresh("bad")
    w(f"int64_t {bad} = 0;")
    operands = [out] + idx_c + [pad_c] + ([mask_c] if mask_c is not None else [])
    occ, sites = lane_log_sites(g, op, arr, ["read"] + (["oob"] if g.options.bounds and not cb else []))

    def body(e):
        coords, ok, off = _lane_access(g, op, arr, e[1:1 + len(idx_c)], shape)
        m = e[-1] if mask_c is not None else "1"
        w(f"{{ const int in = {ok}; const int take = in && ({m}); "
          f"{e[0]} = take ? {arr.ptr()}[take ? {off} : 0] : {e[1 + len(idx_c)]}; {bad} |= ({m}) && !in;"
          f"{_tracking(g, arr, coords, False)}{_logging(sites, occ, coords, m)} }}")
    loop_nest(w, shape, operands, body)
    if g.options.bounds and not cb:     # checked lanes out of bounds are cuTile's masking: no report
        report_first_bad(g, op, arr, shape, idx_c, mask_c, bad, "gather with check_bounds=False",
                         "the lane reads the padding value", True)
    g.define(res, out)


@rule("scatter")
def _scatter(g, op):
    _check(op, g)
    arr = g.array(op.operands[0])
    idx, (value,), mask = _operands(op, 1)
    shape = tuple(op.operands[1].type.shape)
    cb, idx_c, mask_c = _lane_tiles(g, op, idx, mask, shape)
    val_c = tile_of(g.val_lazy(value), shape)
    w = g.w
    bad = g.fresh("bad")
    w(f"int64_t {bad} = 0;")
    occ, sites = lane_log_sites(g, op, arr, ["write"] + (["oob"] if g.options.bounds and not cb else []))
    names = [g.fresh("l") for _ in shape]
    with w.loops(names, shape):           # row-major: where lanes collide the last one wins
        coords = [c.at(names) for c in idx_c]
        coords, ok, off = _lane_access(g, op, arr, coords, shape)
        m = mask_c.at(names) if mask_c is not None else "1"
        v = val_c.at(names)
        w(f"{{ const int in = {ok}; const int take = in && ({m}); if (take) {arr.ptr()}[{off}] = {v}; "
          f"{bad} |= ({m}) && !in;{_tracking(g, arr, coords, True)}{_logging(sites, occ, coords, m)} }}")
    if g.options.bounds and not cb:
        report_first_bad(g, op, arr, shape, idx_c, mask_c, bad, "scatter with check_bounds=False",
                         "the lane's store is dropped", True)


# ---- advanced indexing: one sparse axis (a 1-D index tile), dense ranges elsewhere -----------------

def _advanced_coords(g, op, shape, names):
    """Per array axis, the element coordinate of tile element `names` (no bounds reports:
    tiles.load_elements/store_elements are called with report_oob=False)."""
    sparse = op.attrs["sparse_dim"]
    coords = []
    for d, v in enumerate(op.operands[1:1 + len(shape)]):
        c = g.val_lazy(v) if d == sparse else g.val(v)
        if d == sparse:
            coords.append(f"(int64_t)({c.at([names[d]])})")
        else:
            coords.append(f"((int64_t)({c.scalar_expr()}) + {names[d]})")
    return coords


@rule("load_advanced")
def _load_advanced(g, op):
    _check(op, g)
    arr = g.array(op.operands[0])
    res = op.results[0]
    shape = tuple(res.type.shape)
    out = g.buffer(res.type.dtype, shape, f"v{res.id}")
    pad = padding_bits(op.attrs["padding_mode"], res.type.dtype)
    w = g.w
    names = [g.fresh("l") for _ in shape]
    with w.loops(names, shape):
        _, ok, off = _lane_access(g, op, arr, _advanced_coords(g, op, shape, names), shape)
        w(f"{out.at(names)} = ({ok}) ? {arr.ptr()}[({ok}) ? {off} : 0] : {pad};")
    g.define(res, out)


@rule("store_advanced")
def _store_advanced(g, op):
    _check(op, g)
    arr = g.array(op.operands[0])
    shape = tuple(op.attrs["shape"])
    val = tile_of(g.val_lazy(op.operands[-1]), shape)
    w = g.w
    names = [g.fresh("l") for _ in shape]
    with w.loops(names, shape):             # row-major: where lanes collide the last one wins
        _, ok, off = _lane_access(g, op, arr, _advanced_coords(g, op, shape, names), shape)
        w(f"if ({ok}) {arr.ptr()}[{off}] = {val.at(names)};")
