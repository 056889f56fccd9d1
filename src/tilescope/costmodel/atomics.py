"""Atomics at data-dependent addresses (the "atomics" term).

Versions 2 and 22 charged every tile atomic the rate of relaxed atomics scattered over an array
L2 holds (`atomics_per_s`), or on few addresses their time one after another per address
(`atomic_ns_by_addresses`). Version 34 adds what `bench/results/cost_micro33_atomics_h200.json`
and `cost_micro35_atomics_dyn_h200.json` measured (docs history 64 and 66, version 36; 2^24 single-lane
atomics or 2^25-2^27 lanes of row tiles, as launched and dynamic):
- lanes along rows: a tile whose lanes run along the array's last axis (`offset + ct.arange`)
  with a constant unit stride is added 2.25 times faster than scattered lanes; with a runtime
  stride 1.06 times;
- the order (version 44, `cost_micro74_lanes_h200.json`, docs history 74): an acquire-release
  atomic has a fence before each lane's atomic, so a thread's lanes go one after another, each
  waiting a fenced round trip (0.576 µs, version 17); those waits add to the relaxed atomics' time,
  whose queue is what lengthens the round trip under load (versions 34-36 scaled the relaxed time
  by 3.83, 3.10 and 2.97 at 8 warps an SM and by less where more warps run; the chain reproduces
  those microbenchmarks and the one-row tiles theirs did not cover);
- few addresses (version 48): lanes that share a sector are one operation in an address's chain
  too, so a tile added along rows onto a small array (a norm's weight gradients, every row adding
  into the same 1,024 floats) waits a sector's chain, not a lane's (set X's layer-norm backward);
- a dynamic build lays a warp's lanes down a tile's rows first: a one-row tile's lanes are side by
  side and share sectors (float32: 8 a sector, 0.945 / 8 of a scattered atomic's time; the 1,024
  wide one-row scatter-add measured 0.132), a tile of 32 rows or more has one lane a row (0.945);
- arrays beyond L2: a scattered atomic whose sector the L2 no longer holds costs 51 ps more of
  the GPU's time (its sector read from DRAM and written back); the L2 keeps 39 MiB (0.68 of its
  60 MB) of such an array. Lanes along rows stream their sectors and are not charged more.
"""
from __future__ import annotations

import math

from .calibration import Calibration
from .counts import Access, Counts
from .estimated_facts import MAX_VECTOR_BYTES
from .gpus import GPU
from .index_steps import axis_stride
from .lane_offsets import SECTOR_BYTES, WARP_LANES
from .locks import _fenced, fenced_wait_us, lane_turns, scalar_atomics_us

# The time of one relaxed atomic against a scattered one's, by its lanes ("" scattered, "static"
# along rows with a constant unit stride, "runtime" along rows with a runtime stride, one lane a row)
RELAXED_SHARE = {"": 1.0, "static": 0.444, "runtime": 0.945}
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
    if axis_stride(idx[-1], -1) != 1 or any(axis_stride(x, -1) != 0 for x in idx[:-1]):
        return ""
    static = getattr(t, "static_strides", ()) and t.static_strides[-1] and t.strides[-1] == 1
    return "static" if static else "runtime"


def relaxed_share(a: Access, rows: str, threads: int = 0) -> float:
    """One relaxed atomic's time against a scattered one's: its lanes' share (version 34), for a
    dynamic build's rows divided among the lanes of a warp that share a sector (version 44); a
    launch's rows no longer than a thread's vector are scattered (version 48: set X's particle
    scatter, rows of 4 floats, ran as the dynamic build). A launch's tile of fewer elements than
    the block's `threads` leaves threads without one: its lanes lie side by side, as a dynamic
    build's (version 86: set AR's (128,) float32 sums of 256 threads, 2.75x; set X's (256,) tiles
    of 256 threads keep the launch's share)."""
    if rows == "static" and a.shape and a.shape[-1] * a.itemsize <= MAX_VECTOR_BYTES:
        return RELAXED_SHARE[""]       # a launch's thread holds a whole short row: lanes on other rows
    if rows == "static" and threads and a.elements < threads:
        rows = "runtime"
    if rows != "runtime":
        return RELAXED_SHARE[rows]
    return RELAXED_SHARE["runtime"] / lanes_a_sector(a)


def lanes_a_sector(a: Access) -> float:
    """Lanes of a warp that share a sector in a dynamic build, whose lanes go down the tile's rows
    first (`cost_micro74_lanes_h200.json`): one a row for 32 rows or more, side by side on fewer."""
    strides = getattr(a.op.operands[0].type, "strides", None) or ()
    last = a.shape[-1] if a.shape else 1
    if strides and strides[-1] not in (None, 1):
        return 1.0
    rows = min(WARP_LANES, max(1, int(a.elements) // max(1, last)))
    side = max(1, min(last, WARP_LANES // rows))
    return side / math.ceil(side * a.itemsize / SECTOR_BYTES)


def atomics_us(counts: Counts, cal: Calibration, gpu: GPU, slow: float, block_threads: int, slots: int,
               alone: bool = False) -> float:
    """Atomics at data-dependent addresses: those on one address run one after another, and
    the addresses are at best the target array's elements; never faster than the GPU's rate for
    their lanes, plus the sectors of arrays beyond L2 (version 34), plus for acquire-release ones
    each thread's fenced round trips, one after another, over the waves of blocks (version 44;
    longer for a block alone on its SM, version 35).
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
        share = relaxed_share(a, rows, block_threads)
        addresses = max(1.0, min(n, a.array_bytes / a.itemsize)) if a.array_bytes else n
        # lanes that share a sector are one L2 operation: for the GPU's rate and, on few addresses,
        # for each address's chain (version 48; atomic_ns was measured with scattered lanes)
        chain = n / addresses * atomic_ns(addresses, cal) * share
        total += max(n * share / cal.atomics_per_s, chain * 1e-9 * slow)
        if not rows and a.array_bytes:
            total += n * beyond_l2_share(a.array_bytes, gpu) * MISS_NS * 1e-9 * MEASURED_DRAM_TBS / gpu.dram_tbs
        total += fenced_lanes_us(a, counts, block_threads, slots, alone) * 1e-6 * slow
    return total * 1e6


def fenced_lanes_us(a: Access, counts: Counts, block_threads: int, slots: int, alone: bool = False) -> float:
    """What an acquire-release tile atomic's fences add over the launch (µs at the reference clock):
    each thread's lanes one after another, a fenced round trip each, over the waves (version 44)."""
    if not _fenced(a) or not counts.blocks:
        return 0.0
    rounds = math.ceil(counts.blocks / max(1, slots))
    turns = a.executions / counts.blocks * lane_turns(a, block_threads)
    return rounds * turns * fenced_wait_us(alone)


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
