"""Turning what compiled blocks recorded into the executor's reports and errors.

Each report site (an op and a kind of problem, kernel_gen.ReportSite) has one row of
`WIDTH` int64s: the smallest linear block id that hit it, then the details that block
recorded. Messages are worded exactly as the NumPy executor's.
"""
from __future__ import annotations

import numpy as np

from ..numpy.executor import ExecutionError

WIDTH = 16
_NO_BLOCK = np.iinfo(np.int64).max


def _block_of(lin: int, grid3) -> tuple:
    return (lin % grid3[0], (lin // grid3[0]) % grid3[1], lin // (grid3[0] * grid3[1]))


def deliver(ck, rows: np.ndarray, grid3, values, checks, sink) -> None:
    hits = [(int(rows[i, 0]), i) for i in range(len(ck.sites)) if rows[i, 0] != _NO_BLOCK]
    for lin, i in sorted(hits):
        site = ck.sites[i]
        block = _block_of(lin, grid3)
        op = site.op
        if site.kind == "assert":
            where = f"{op.loc.filename}:{op.loc.line}" if op.loc is not None else "?"
            message = op.attrs.get("message") or ""
            text = f"assertion failed in kernel '{ck.fn.name}' at {where}, block {block}"
            text += f": {message}" if message else ""
            sink.write(block, text + "\n")
            raise ExecutionError(text, op.loc)
        if site.kind == "loop-limit":
            raise ExecutionError(f"a while loop ran more than {site.info['limit']} iterations", op.loc)
        if site.kind == "tile-oob":
            what = site.info["what"]
            ref = values[site.info["array"]]
            n = len(site.info["tile_shape"])
            idx = tuple(int(x) for x in rows[i, 1:1 + n])
            ext = tuple(int(x) for x in rows[i, 1 + n:1 + n + site.info["ndim"]])
            msg = (f"{what} of a tile entirely out of bounds (undefined behaviour on the GPU; tilescope "
                   f"{'pads it' if what == 'load' else 'drops it'}): array '{ref.name}' of shape "
                   f"{ext}, tile index {idx}, tile shape {tuple(site.info['tile_shape'])}")
            checks.add(ck.fn.name, op.loc, block, msg, once=(id(op), "tile-oob"))
        if site.kind == "slice":
            ref = values[site.info["array"]]
            lo, hi, n = (int(x) for x in rows[i, 1:4])
            checks.add(ck.fn.name, op.loc, block,
                       f"Array.slice(axis={site.info['axis']}, start={lo}, stop={hi}) of array '{ref.name}' "
                       f"with extent {n} along that axis: bounds must satisfy 0 <= start <= stop <= extent "
                       f"(undefined behaviour on the GPU; tilescope clamps them)", once=(id(op), "slice"))
        if site.kind == "subtile":
            info = site.info
            idx = tuple(int(x) for x in rows[i, 1:1 + len(info["sub"])])
            checks.add(ck.fn.name, op.loc, block, f"{info['what']} at sub-tile index {idx} is outside the grid of "
                       f"{info['sub']} sub-tiles of a {info['full']} tile (undefined behaviour on the GPU)")
        if site.kind == "assume":
            checks.add(ck.fn.name, op.loc, block, f"assume_divisible_by: value {int(rows[i, 1])} is not a multiple "
                       f"of {site.info['divisor']}")
        if site.kind == "lane-oob":
            info = site.info
            ref = values[info["array"]]
            elem = tuple(int(x) for x in rows[i, 1:1 + info["ndim"]])
            lane = tuple(int(x) for x in rows[i, 1 + info["ndim"]:1 + info["ndim"] + info["rank"]])
            why = "undefined behaviour on the GPU; here " if info["ub"] else ""
            msg = (f"{info['what']} out of bounds: array '{ref.name}' of shape {tuple(ref.array.shape)}, "
                   f"element {elem} (lane {lane}): {why}{info['outcome']}")
            checks.add(ck.fn.name, op.loc, block, msg, once=(id(op), "oob"))
