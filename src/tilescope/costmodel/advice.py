"""Lint-style advice from the counts and the prediction, each tied to a source line."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import List, Optional

from ..enums import RoundingMode
from .atomics import fenced_lanes_us
from .counts import INDEXED_TILE_OPS, Counts
from .estimated_facts import persistent_loops
from .loop_waits import warp_chain_us
from .model import Prediction
from .schedule import fed_loop, threads

PADDING_WORTH_SAYING = 0.10
FENCES_WORTH_SAYING = 0.10   # share of the predicted time an atomic's fences take
TAIL_WORTH_SAYING = 0.10     # share of the SMs' time a part-filled last wave leaves idle
# the most local memory a thread may have (CUDA C++ Programming Guide, technical specifications per
# compute capability: 512 KB); a cubin that spills past it does not launch (CUDA_ERROR_INVALID_VALUE:
# set BM's one-block finalisation of three (512, 1024) float32 tiles, 535,048 bytes a thread)
LOCAL_BYTES_PER_THREAD = 512 * 1024


def tail_idle_share(waves: float) -> float:
    """Share of the SMs' time the last wave leaves idle when every wave takes as long: its empty
    slots over all the waves' slots (a tenth of a wave in the last of 31 idles 3% of the time)."""
    if waves <= 1 or not waves % 1:
        return 0.0
    return (1 - waves % 1) / math.ceil(waves)


@dataclass(frozen=True)
class Advice:
    code: str
    line: Optional[int]
    col: Optional[int]
    message: str

    def to_json(self) -> dict:
        return {"code": self.code, "line": self.line, "col": self.col, "message": self.message}


def _share(x: float) -> str:
    """A share as a whole percentage that says 100% only when it is all (255/256 is 99%)."""
    pct = round(x * 100)
    return f"{min(pct, 99) if x < 1 else 100}%"


def advise(counts: Counts, p: Prediction) -> List[Advice]:
    out: List[Advice] = []
    seen = set()

    def add(code, loc, message):
        key = (code, loc.line if loc else None)
        if key not in seen:
            seen.add(key)
            out.append(Advice(code, loc.line if loc else None, loc.col if loc else None, message))
    for r in counts.regions:
        for op in r.mmas:
            x, y = op.operands[0].type, op.operands[1].type
            m, k, n = x.shape[-2], x.shape[-1], y.shape[-1]
            if x.dtype.name == "float32":
                add("float32-mma", op.loc, "mma on float32 tiles runs far below the tensor-core rate; "
                                           "astype(ct.tfloat32), float16 or bfloat16 operands use it fully")
            if m < 64 or n < 32 or k < 16:
                add("tensor-core-underfill", op.loc,
                    f"mma tile {m}x{n}x{k} under-fills the tensor cores (they work on 64-row slices, "
                    f"16 deep for 16-bit operands); use TM >= 64, TN >= 64, TK >= 16 where the data allows")
    for a in counts.accesses:
        if a.transposed:
            add("transposed-load", a.loc, f"tile of '{a.array}' is read transposed"
                + (" for an mma" if a.feeds_mma else "") + "; laid out so its last tile axis is the array's "
                "contiguous axis, it would be read in whole rows")
        if a.kind in ("load", "store") and a.lane_stride:
            add("strided-access", a.loc, f"no two elements of '{a.array}' lie side by side (the nearest "
                                         f"{a.lane_stride} elements apart): each element of its tiles costs "
                                         f"DRAM up to a 32-byte sector; a contiguous copy is read in whole rows")
        elif a.kind in ("load", "store") and a.rows > 1 and 0 < a.row_bytes < 32:
            add("strided-access", a.loc, f"each row of this tile of '{a.array}' is {a.row_bytes} bytes, less "
                                         f"than a 32-byte memory sector; most of every transfer is wasted")
        if a.kind in ("gather", "scatter"):
            moves = (f"brings {a.sector_share:.3g} bytes of 32-byte sectors per {a.itemsize}-byte element "
                     f"(where this metadata places its lanes)" if a.sector_share
                     else "moves up to a 32-byte sector per element")
            add("gather", a.loc, f"element-wise {a.kind} on '{a.array}' {moves}; a tile load is far cheaper "
                                 f"where the indices are contiguous")
        if a.pad_fraction > PADDING_WORTH_SAYING:
            # tiles that divide the array lie past it only where the grid has more blocks than tiles
            why = (f"the grid has more blocks than the array has tiles of shape {a.shape}" if a.divides
                   else f"its size is not a multiple of the tile shape {a.shape}")
            add("padding", a.loc, f"{_share(a.pad_fraction)} of the elements of this tile of '{a.array}' lie "
                                  f"past the array ({why}): loads, arithmetic and registers spent on padding")
        elif a.kind in ("load", "store") and a.check_bounds and a.divides and a.shape:
            add("check-bounds", a.loc, f"for this metadata the tiles of '{a.array}' never reach past the array: "
                                       f"check_bounds=False would skip the bounds checks (bytecode 13.4+)")
    _advise_fences(counts, p, add)
    _advise_serial_copies(counts, p, add)
    _advise_warp_chain(counts, p, add)
    _advise_divisions(counts, add)
    loc = counts.fn.loc
    if p.cubin is not None and p.cubin.local_bytes > LOCAL_BYTES_PER_THREAD:
        add("local-memory-limit", loc, f"the cubin needs {p.cubin.local_bytes:,} bytes of local memory a thread "
                                       f"(spilled tiles), past the {LOCAL_BYTES_PER_THREAD:,} a thread may have: "
                                       f"the launch fails; smaller tiles, taken in a loop, keep within it")
    slots = counts.blocks and p.gpu.sms * p.blocks_per_sm
    tail_idle = tail_idle_share(p.waves)
    # a loop that walks the work by the grid (a persistent kernel) shares it among whatever grid it gets
    persistent = bool(persistent_loops(counts))
    fill = (f"its loop walks the work by the grid, so a grid of {slots} blocks ({p.blocks_per_sm} per SM) "
            f"would share it out" if persistent else "")
    if counts.blocks < p.gpu.sms:
        add("small-grid", loc, f"the grid has {counts.blocks} block(s): {p.gpu.sms - counts.blocks} of the "
                               f"{p.gpu.sms} SMs of the {p.gpu.name} stay idle; "
                               + (fill or "split the work into more blocks"))
    elif counts.blocks < 0.75 * slots:
        add("small-grid", loc, f"{counts.blocks} blocks fill {counts.blocks / slots:.0%} of the GPU's "
                               f"{slots} block slots ({p.blocks_per_sm} per SM); "
                               + (fill or "smaller tiles give more blocks"))
    elif tail_idle >= TAIL_WORTH_SAYING and p.bound == "latency":
        add("tail-wave", loc, f"{p.waves:.2f} waves of blocks: the last one keeps only {p.waves % 1:.0%} of "
                              f"the GPU busy, leaving about {tail_idle:.0%} of the SMs' time idle; "
                              f"a grid of whole waves would use it")
    if p.tma and p.gpu.tma:
        _advise_row_pitch(counts, add)
    if not p.tma and p.gpu.tma and any(a.kind == "load" for a in counts.accesses):
        add("no-tma", loc, "the metadata does not say the arrays are 16-byte aligned with a unit last stride, "
                           "so tileiras cannot use TMA loads (a launch states both for ordinary allocations: "
                           "`tilescope cost` without --as-written predicts that case)")
    return sorted(out, key=lambda a: (a.line or 0, a.code))


CHAIN_WORTH_SAYING = 0.5     # share of the predicted time one warp's chain through the loop takes


def _advise_warp_chain(counts: Counts, p: Prediction, add) -> None:
    """A loop whose steps take one warp's chain of waits (version 99), on fewer blocks than SMs: each
    step's block-wide work (a reduction's shuffles, barriers and shared memory) waits on itself, and
    nothing else runs on the SM meanwhile; more blocks, each taking part of the loop, overlap."""
    loops = [r for r in counts.regions if r.op is not None]
    if len(loops) != 1 or counts.blocks >= p.gpu.sms:
        return
    step = warp_chain_us(loops[0], p.cubin, True, p.gpu)
    if step * float(loops[0].trips.max()) >= CHAIN_WORTH_SAYING * p.predicted_us:
        add("chained-steps", loops[0].op.loc,
            f"each step of this loop takes at least {step * 1e3:.3g} ns, one warp's chain of dependent waits "
            f"through the cubin's loop ({p.cubin.loop_chain_clocks} clocks a pass), and only {counts.blocks} "
            f"blocks run it: split the loop's range over more blocks (partial results combined after) so "
            f"other blocks' steps fill the waits")


# elements of a tile divided by one broadcast value from which the per-element divisions are worth saying
DIVISIONS_WORTH_SAYING = 1024


def _advise_divisions(counts: Counts, add) -> None:
    """A float tile divided element by element by a value broadcast along it (a softmax's row sum):
    tileiras builds an IEEE division per element, a reciprocal, five multiply-adds and a range check
    apiece; a row softmax of 16,384-element tiles ran 2.1-2.5 times as long as with the reciprocal
    taken once, or with approximate rounding, on an H100 (history 109)."""
    for op in counts.fn.walk():
        if op.name != "binary" or op.attrs.get("fn") != "truediv" or len(op.operands) != 2 or not op.results:
            continue
        if op.attrs.get("rounding_mode") is RoundingMode.APPROX:
            continue
        out, divisor = op.results[0].type, op.operands[1]
        if not getattr(out, "shape", None) or not out.dtype.name.startswith("float"):
            continue
        elements = int(math.prod(out.shape))
        source = divisor.owner.operands[0].type if divisor.owner is not None and divisor.owner.name == "broadcast" \
            else divisor.type
        if elements >= DIVISIONS_WORTH_SAYING and int(math.prod(getattr(source, "shape", ()) or (1,))) == 1:
            add("division", op.loc, f"each of this tile's {elements:,} elements is divided by one value: an "
                                    f"IEEE division apiece (a reciprocal, five multiply-adds and a range check); "
                                    f"multiplying by its reciprocal, taken once, or ct.truediv(..., rounding_mode="
                                    f"ct.RoundingMode.APPROX) ran a 16,384-element row softmax 2.1-2.5x faster")


def _advise_row_pitch(counts: Counts, add) -> None:
    """Tile loads of an aligned array whose metadata rules out TMA copies by its strides (version
    56): tileiras loads them element by element; rows padded to a multiple of 16 bytes allow copies."""
    for a in counts.accesses:
        if a.kind != "load" or a.copy_layout or a.op.name in INDEXED_TILE_OPS:
            continue
        per_row = 16 // math.gcd(16, a.itemsize)
        add("row-pitch", a.loc, f"{_pitch(a)}, so tileiras cannot copy its tiles with TMA and loads them "
                                f"element by element; rows padded to a multiple of {per_row} elements (a view "
                                f"of a wider allocation) would let it")


def _pitch(a) -> str:
    """What keeps the array's rows off 16-byte boundaries: the first stride, where its value is
    known, that is no multiple of 16 bytes."""
    t = a.op.operands[0].type
    t = getattr(t, "array", t)               # a tiled view's array
    for stride in getattr(t, "strides", ())[:-1]:
        if stride is not None and stride * a.itemsize % 16:
            return (f"rows of '{a.array}' lie {stride * a.itemsize:,} bytes apart ({stride:,} elements), "
                    f"not a multiple of 16 bytes")
    return f"the strides of '{a.array}' are not known to be multiples of 16 bytes"


def _advise_fences(counts: Counts, p: Prediction, add) -> None:
    """A tile atomic in acquire-release order (the default) that accumulates (not an exchange, which
    may publish data) and whose old values nothing reads: each thread waits a fenced round trip per
    lane (measured 2.2-4.4 times the relaxed time, history 74)."""
    block_threads = threads(p.cubin or p.estimate)
    read = {v.id for op in counts.fn.walk() for v in op.operands}
    for a in counts.accesses:
        if (a.kind != "atomic" or a.elements <= 1 or a.op.attrs.get("mode") == "xchg"
                or any(v.id in read for v in a.op.results)):
            continue
        fenced = fenced_lanes_us(a, counts, block_threads, p.gpu.sms * p.blocks_per_sm, p.blocks_per_sm == 1)
        if fenced >= FENCES_WORTH_SAYING * p.predicted_us:
            add("fenced-atomic", a.loc,
                f"this atomic_{a.op.attrs.get('mode', 'add')} on '{a.array}' is in acquire-release order "
                f"(the default): each thread waits a fenced round trip for each of its lanes in turn, "
                f"about {fenced:.3g} µs of the {p.predicted_us:.3g} µs predicted; "
                f"memory_order=ct.MemoryOrder.RELAXED drops the fences where no block reads what the others "
                f"add before the kernel ends")


def _advise_serial_copies(counts: Counts, p: Prediction, add) -> None:
    """A loop the accelerator feeds whose cubin's producer waits for each copy before it issues the
    next (`loop_serial_copies`, version 58): nothing runs ahead, each copy a whole round trip.
    Ordered atomics are one cause: the split-K GEMV it was found in (history 90) pipelines its
    copies once every atomic is relaxed, though other kernels with ordered atomics pipeline them."""
    serial = p.cubin.loop_serial_copies if p.cubin else 0
    if not serial:
        return
    ordered = counts.ordered_atomics()
    cause = ""
    if ordered:
        line = ordered[0].loc.line if ordered[0].loc else "?"
        cause = (f"; atomics in an order other than relaxed (acquire-release by default; line {line}) can "
                 f"make tileiras build them so: relaxed, where nothing depends on their order, the copies "
                 f"may run ahead")
    for r in counts.regions:
        if fed_loop(r, p.cubin):
            add("serial-copies", r.op.loc, f"the cubin's producer waits for each of this loop's accelerator "
                                           f"copies before it issues the next ({serial} a step, each a whole "
                                           f"round trip): no copy runs ahead of the tiles in use{cause}")
