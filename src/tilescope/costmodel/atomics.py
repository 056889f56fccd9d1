"""Atomics at data-dependent addresses (the "atomics" term).

Versions 2 and 22 charged every tile atomic the rate of relaxed atomics scattered over an array
L2 holds (`atomics_per_s`), or on few addresses their time one after another per address
(`atomic_ns_by_addresses`). Version 34 adds what `bench/results/cost_micro33_atomics_h200.json`
and `cost_micro35_atomics_dyn_h200.json` measured (docs history 64 and 66, version 36; 2^24 single-lane
atomics or 2^25-2^27 lanes of row tiles, as launched and dynamic):
- lanes along rows: a tile whose lanes run along the array's last axis (`offset + ct.arange`)
  with a constant unit stride is added 2.25 times faster than scattered lanes; with a runtime
  stride 1.06 times;
- the order: in acquire-release order (the default) each lane's old value is awaited, so fewer
  complete where few warps run: with 8 warps an SM 3.83 times the relaxed time for scattered
  lanes and 3.10 and 2.97 times along rows (constant and runtime stride); with 40 warps 1.69
  times (scattered). The wait's share is taken to fall as 8 / warps an SM (1.57 at 40);
- arrays beyond L2: a scattered atomic whose sector the L2 no longer holds costs 51 ps more of
  the GPU's time (its sector read from DRAM and written back); the L2 keeps 39 MiB (0.68 of its
  60 MB) of such an array. Lanes along rows stream their sectors and are not charged more.
"""
from __future__ import annotations

import math

from .calibration import Calibration
from .counts import Access, Counts, _axis_stride
from .gpus import GPU
from .locks import _fenced, scalar_atomics_us

# The time of one relaxed atomic against a scattered one's, by its lanes ("" scattered, "static"
# along rows with a constant unit stride, "runtime" along rows with a runtime stride)
RELAXED_SHARE = {"": 1.0, "static": 0.444, "runtime": 0.945}
# An acquire-release atomic's time against a relaxed one's with FENCED_WARPS warps an SM, by lanes
FENCED_SHARE = {"": 3.83, "static": 3.10, "runtime": 2.97}
FENCED_WARPS = 8
MISS_NS = 0.0513                 # a scattered atomic's sector fetched from DRAM and written back (H200;
MEASURED_DRAM_TBS = 4.8          # other GPUs: scaled by their DRAM rate against the H200's)
L2_KEPT_SHARE = 0.68             # share of L2 that keeps an atomically updated array's sectors


def lanes_along_rows(a: Access) -> str:
    """'static' or 'runtime' (the array's last stride) for a tile atomic whose lanes run along
    the array's last axis; '' for scattered lanes."""
    op = a.op
    t = op.operands[0].type
    ndim = len(getattr(t, "shape", ()) or ())
    if a.elements <= 1 or not ndim or len(op.operands) <= ndim:
        return ""
    idx = op.operands[1:1 + ndim]
    if _axis_stride(idx[-1], -1) != 1 or any(_axis_stride(x, -1) != 0 for x in idx[:-1]):
        return ""
    static = getattr(t, "static_strides", ()) and t.static_strides[-1] and t.strides[-1] == 1
    return "static" if static else "runtime"


def time_share(fenced: bool, rows: str, warps: float) -> float:
    """One atomic's time against a relaxed scattered one's: its lanes' share, times the wait on
    the old values of an acquire-release atomic, which falls as more warps run on the SM."""
    wait = (FENCED_SHARE[rows] - 1.0) * min(1.0, FENCED_WARPS / max(1.0, warps)) if fenced else 0.0
    return RELAXED_SHARE[rows] * (1.0 + wait)


def atomics_us(counts: Counts, cal: Calibration, gpu: GPU, slow: float, warps: float) -> float:
    """Atomics at data-dependent addresses: those on one address run one after another, and
    the addresses are at best the target array's elements; never faster than the GPU's rate for
    their order, lanes and the warps an SM runs, plus the sectors of arrays beyond L2 (version 34).
    A scalar atomic (one lane's) is resolved in the L2 at its own, faster, rate (version 17)."""
    total = 0.0
    for a in counts.accesses:
        if a.kind != "atomic":
            continue
        n = a.elements * a.executions
        scalar = scalar_atomics_us(a, counts)
        if scalar is not None:
            total += max(n / cal.atomics_per_s, scalar * 1e-6 * slow)
            continue
        rows = lanes_along_rows(a) if a.op.name == "atomic" else ""
        rate = cal.atomics_per_s / time_share(_fenced(a), rows, warps)
        addresses = max(1.0, min(n, a.array_bytes / a.itemsize)) if a.array_bytes else n
        total += max(n / rate, n / addresses * atomic_ns(addresses, cal) * 1e-9 * slow)
        if not rows and a.array_bytes:
            total += n * beyond_l2_share(a.array_bytes, gpu) * MISS_NS * 1e-9 * MEASURED_DRAM_TBS / gpu.dram_tbs
    return total * 1e6


def beyond_l2_share(array_bytes: float, gpu: GPU) -> float:
    """Share of an array's randomly picked elements or rows the L2 does not hold (version 34:
    the atomics and row gathers of cost_micro33; the L2 keeps 0.68 of its size of such an array)."""
    return max(0.0, 1.0 - L2_KEPT_SHARE * gpu.l2_mb * 1e6 / array_bytes) if array_bytes else 0.0


def atomic_ns(addresses: float, cal: Calibration) -> float:
    """Time of one atomic on each of `addresses` addresses that random data picks (version 22):
    log-log interpolation of atomic_random's times, the ends held (not extrapolated)."""
    table = cal.atomic_ns_by_addresses
    if not table:
        return cal.atomic_ns
    if addresses <= table[0][0]:
        return table[0][1]
    for (x0, y0), (x1, y1) in zip(table, table[1:]):
        if addresses <= x1:
            w = math.log(addresses / x0) / math.log(x1 / x0)
            return math.exp(math.log(y0) + w * math.log(y1 / y0))
    return table[-1][1]
