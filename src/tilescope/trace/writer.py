"""Write one launch's trace: the page, one PNG per array."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from ..costmodel import cost_of_compiled
from ..errors import TileError
from ..ir.types import ArrayType, ListType
from . import maps as _maps
from .page import block_limit, events_json, maps_json, render, reports_json
from .png import array_png
from .recorder import TraceRecorder


LAYOUTS_KEPT = 64              # layouts a folder keeps for its next pages (each up to a few 100 KB)


@dataclass
class Reused:
    """What the pages of one folder share (a loop launches one kernel alike many times): cost
    reports by compiled kernel, grid and scalars; what follows from arrays' layouts alone
    (maps.build)."""
    costs: Dict[tuple, tuple] = field(default_factory=dict)
    layouts: dict = field(default_factory=dict)


def write_launch(folder: str, rec: TraceRecorder, fn, grid, checks, compiled, scalars=None, error: str = "",
                 reused: Optional[Reused] = None) -> str:
    """Write `folder`/index.html and PNGs; returns a one-line summary. `scalars`: the launch's
    runtime scalar values by name (the cost report counts the loops they bound exactly);
    `error`: how the launch failed ("" when it did not); `reused`: what earlier pages of the
    folder made."""
    reused = reused or Reused()
    if len(reused.layouts) > LAYOUTS_KEPT:
        reused.layouts.clear()
    os.makedirs(folder, exist_ok=True)
    ops: List[dict] = []
    op_index: Dict[int, int] = {}
    looped = _ops_in_loops(fn)
    ordered = sorted(rec.arrays.values(), key=lambda r: r.index)
    for r in ordered:
        for ev in list(r.tiles.values()) + list(r.lanes.values()):
            if id(ev.op) not in op_index:
                op_index[id(ev.op)] = len(ops)
                loc = ev.op.loc
                ops.append({"line": loc.line if loc else 0, "col": loc.col if loc else 0, "name": ev.op.name,
                            "array": r.name, "loop": id(ev.op) in looped})
    limit = block_limit(rec)
    arrays, pngs = [], []
    built = [(r, _maps.build(r, op_index, reused.layouts)) for r in ordered]
    _maps.mark_shared_memory_races(built)
    for r, m in built:
        j = maps_json(m, grid[0] * grid[1] * grid[2])
        j.update(events_json(r, op_index, limit), also=r.also)
        arrays.append(j)
        png = f"{re.sub(r'[^A-Za-z0-9_]+', '_', r.name)}.png"
        with open(os.path.join(folder, png), "wb") as f:
            f.write(array_png(m))
        pngs.append(png)
    nblocks = grid[0] * grid[1] * grid[2]
    names = {n: r.name for r in ordered for n in [r.name] + r.also}
    reports = reports_json(checks.reports, grid, names)
    src_file = fn.loc.filename if fn.loc else None
    data = {"kernel": fn.name, "grid": list(grid), "ops": ops, "arrays": arrays, "reports": reports,
            "source": _source_lines(src_file, [o["line"] for o in ops] + [r["line"] for r in reports if r["line"]])}
    where = f"{os.path.basename(src_file)}:{fn.loc.line}" if src_file else fn.name
    summary = [f"{where} · grid {grid[0]}×{grid[1]}×{grid[2]} ({nblocks} blocks) · "
               f"{len(checks.reports)} check report(s)"]
    if error:
        summary.insert(0, f"the launch failed: {error} (the pictures show the accesses made before it failed; "
                          f"the arrays are as they were before the launch)")
    if not ordered:
        summary.append("no array element was read or written: there is no memory access to draw"
                       if _has_arrays(fn) else "the kernel has no array arguments: there is no memory access to draw")
    if limit is not None:
        summary.append(f"footprints kept for blocks 0…{limit - 1} (of {nblocks}); the pictures cover every block")
    if rec.lanes_dropped:
        summary.append(f"{rec.lanes_dropped} element accesses past the recording budget are not drawn")
    if rec.log_dropped:
        summary.append(f"{rec.log_dropped} accesses made past the end of the trace log ({rec.log_capacity:,} entries) "
                       f"are not drawn")
    if not rec.races_checked:
        summary.append("race checks were off for this launch; races shown here are the trace's own reading")
    with open(os.path.join(folder, "index.html"), "wb") as f:
        f.writelines(render(data, f"tilescope trace: {fn.name}", summary,
                            _cost_text(compiled, grid, scalars, reused.costs)))
    failed = f", failed ({error.split(':')[0]})" if error else ""
    return f"{where}, grid {grid[0]}×{grid[1]}×{grid[2]}, {len(checks.reports)} report(s), {len(pngs)} PNG(s){failed}"


def _has_arrays(fn) -> bool:
    """Whether any kernel parameter is an array (or a list of them)."""
    return any(isinstance(v.type, (ArrayType, ListType)) for p in fn.params for v in p.values)


def _ops_in_loops(fn) -> set:
    """Ids of the ops inside a `for` or `while` body (their steps are loop iterations)."""
    out = set()

    def walk(block, inside):
        for op in block.ops:
            if inside:
                out.add(id(op))
            for b in op.blocks:
                walk(b, inside or op.name in ("for", "loop"))
    walk(fn.body, False)
    return out


def _source_lines(path, lines) -> Dict[int, str]:
    if not path or not os.path.isfile(path):
        return {}
    with open(path, errors="replace") as f:
        text = f.read().splitlines()
    want = {n for line in lines for n in range(line - 2, line + 3) if 1 <= n <= len(text)}
    return {n: text[n - 1] for n in sorted(want)}


def _cost_text(compiled, grid, scalars=None, costs: Optional[dict] = None) -> str:
    """The cost model's report for this launch on an H200 (tilescope.costmodel), taken from
    `costs` when a launch of the same compiled kernel, grid and scalars made it."""
    if compiled is None:
        return ""
    key = (id(compiled), tuple(grid), tuple(sorted((scalars or {}).items())))
    made = (costs or {}).get(key)
    if made is not None and made[0] is compiled:
        return made[1]
    text = _new_cost_text(compiled, grid, scalars)
    if costs is not None:
        costs[key] = (compiled, text)
    return text


def _new_cost_text(compiled, grid, scalars) -> str:
    try:
        return cost_of_compiled(compiled, grid, "h200", values=scalars).text()
    except (TileError, ValueError, ZeroDivisionError):
        return ""
    except Exception as e:       # the page is the launch's record: a model failure must not cost it
        return f"(the cost model failed on this launch: {type(e).__name__}: {e})"
