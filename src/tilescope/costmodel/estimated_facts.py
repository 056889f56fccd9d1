"""Without a cubin: an estimate, from the final IR and metadata, of what tileiras's cubin would say
(cubin_facts.CubinFacts), so that the model runs the same time mechanisms either way (version 13).

Each fact follows from what the IR shows (the rules and how often each matches the cubins are in
docs/cost-model.md; they were checked against cubins tileiras built, never against times):
- accelerator copies: for aligned arrays, the tile loads of an `mma` kernel and its stores of
  several rows; the tile loads of a kernel with atomics, where none is larger than 32 KB
  (version 45); the row-tile stores of a kernel that reduces, and its row-tile loads when all its
  reductions are sums; never an access marked `allow_tma=False`;
- block size: 256 threads where the accelerator copies anything, one warp for scalar code, else 128;
  256 for a dynamically shaped persistent loop of `mma`, or one that keeps a broadcast of values it
  does not change filling half the registers of 128 threads (version 16);
- registers: the ceiling for `mma` and accelerator-fed code — with an `occupancy` hint, what that
  many blocks leave a thread (version 16: for every such kernel, not only `mma` ones) — else a base
  plus the largest tile a thread holds (a chunk of it in element-wise code);
- access width: for aligned arrays, a thread's share of a contiguous run up to 16 bytes (tiles in
  order that divide the array or its 16-byte vectors, gathers along rows from an aligned offset,
  a loop counter aligned as its start and step are: version 16);
  one element otherwise; memory instructions and code size follow from it;
- loads in flight: a thread's share of a tile at once, one at a time for 16-bit tiles widened as
  they are loaded, two a trip in kernels that permute a tile;
- spills: `mma` accumulators too large for the register ceiling; in such a 256-thread persistent
  loop, what its held tiles need beyond the ceiling (version 16);
- the only loop's body, where it reduces tiles across threads (version 14): its shuffles and
  shared accesses, and its other code.
"""
from __future__ import annotations

import math
from typing import Iterable, List, Optional

import numpy as np

from ..ir.core import Value
from ..ir.types import TileType
from ..kernel_hints import ByTarget
from .counts import INDEXED_TILE_OPS, Access, Counts
from .index_steps import const_int, last_axis_stride
from .cubin_facts import MAX_REGISTERS, THREADS, CubinFacts
from .instructions import PER_BLOCK, PER_ELEMENT, PER_ELEMENT_UNCHECKED, PER_REDUCTION, PER_TRANSCENDENTAL
from .lane_offsets import WARP_LANES

FED_THREADS = 256             # warp-specialised code the accelerator feeds (producer + consumers)
MAX_VECTOR_BYTES = 16         # LDG.128 / STG.128
TMA_MIN_BYTES = 16            # the least an accelerator copy moves along its box's innermost axis
ELEMENTWISE_WORDS = 64        # a chunk of element-wise work a thread holds
SPILL_ACCUMULATOR_WORDS = 128 # accumulator words per thread from which mma loops spill
SPILL_F32_PRODUCT = 256       # float32 mma: accumulator × operand words per thread from which it spills
# an accumulator of more words a thread than it has registers is reloaded for every tensor-core step
# along K (32 bytes of each operand row: k16 for 16-bit operands): the cubins of a 256x256 float16
# matmul at TK 32 and 64, both builds, reload 2.2-3.3 values per word per step (median 2.55; v14)
MMA_STEP_BYTES = 32
RELOADS_PER_WORD_STEP = 2.55
TRANSPOSED_IN_FLIGHT = 2      # loads per trip of the loops tileiras writes for permuted tiles (cubins: 1-3.5)
PERSISTENT_HOLDS = 8          # tiles' worth of registers a dynamically shaped persistent loop holds
                              # (cubins of the tests' persistent_rows: 90, 171, 255 for 8, 16, 32 words)
ATOMIC_COPY_BYTES = 32768     # a kernel with atomics whose tile loads are this small has them all copied;
                              # one loading 64 KB tiles has none (validation and tests' cubins: 4-32 KB copied)
ROW_TILE = 256                # a row tile of a row kernel: at least two elements per thread
BASE_REGISTERS = 24           # addresses, indices and loop state of the plainest cubins
REGISTERS_PER_SM = 65536      # sm_90
WARP_FRAGMENT = 16 * 8        # accumulator elements of one warp's smallest tensor-core product (m16n8)
# an aligned array's mma operands loaded element by element (version 57), in the cubins of fifteen such
# builds (GEMMs of odd-length rows, upstream's aligned table, the aligned mma_stream loops): a thread's
# operand LDG brings 23 instructions to the loop (its bounds branch, address and shared-memory store;
# 18-33 on 128 threads), and the loop waits once for every 7 of them (the median; 1 to 16)
OPERAND_LOAD_CODE = 23
OPERAND_LOADS_PER_WAIT = 7


def estimate_facts(counts: Counts, aligned: bool) -> CubinFacts:
    """What tileiras would most likely build for this kernel (sm_90): see the module's rules."""
    fn = counts.fn
    has_mma = any(r.mmas for r in counts.regions)
    copied_loads, copied_stores = _accelerator_copies(counts, aligned, has_mma)
    copied = _ids(copied_loads) | _ids(copied_stores)
    threads = FED_THREADS if copied else THREADS
    if all(not isinstance(r.type, TileType) or int(np.prod(r.type.shape or (1,))) <= 1
           for op in fn.walk() for r in op.results):
        threads = WARP_LANES          # scalar code: one warp (tileiras's choice for every such corpus kernel)
    persistent = persistent_loops(counts) if not aligned else []     # dynamically shaped, walking tiles by the grid
    spills = _accumulator_spills(counts, threads) if has_mma else 0
    if spills:
        threads = FED_THREADS         # tileiras gives every spilling mma kernel seen 256 threads
    elif persistent and (has_mma or max(map(_hoisted_words, persistent)) >= MAX_REGISTERS / 2):
        threads = FED_THREADS         # persistent mma, or a broadcast kept across the loop filling half the registers (v16)
    plain = [a for a in counts.accesses if a.kind != "atomic" and id(a) not in copied]
    widths = {id(a): _width(counts, a, aligned, threads) for a in plain}
    loads = [a for a in plain if a.kind in ("load", "gather")]
    stores = [a for a in plain if a.kind in ("store", "scatter")]
    n_loads = sum(_instructions(a, threads, widths[id(a)]) for a in loads)
    n_stores = sum(_instructions(a, threads, widths[id(a)]) for a in stores)
    moved = sum(_instructions(a, threads, widths[id(a)]) * widths[id(a)] for a in plain)
    loaded = sum(_instructions(a, threads, widths[id(a)]) * widths[id(a)] for a in loads)
    loop_code, loop_pipe = _shuffle_loop(counts, threads - THREADS if copied_loads and threads > THREADS else threads,
                                         plain, widths)
    pipelined = has_mma and _accumulator_elements(counts) > WARP_FRAGMENT    # (v51)
    registers = MAX_REGISTERS if (pipelined or threads == FED_THREADS) else _registers(counts, threads)
    if registers == MAX_REGISTERS and counts.occupancy:     # the ceiling is what the hint leaves (v16)
        registers = _occupancy_registers(counts, threads, registers)
    if persistent and not has_mma:
        registers = _registers(counts, threads, PERSISTENT_HOLDS)
        if threads == FED_THREADS:    # what the ceiling cannot hold spills (v16)
            spills = max(0, int(BASE_REGISTERS + PERSISTENT_HOLDS * _held_words(counts, threads)) - MAX_REGISTERS)
    return CubinFacts(
        fn.name, threads=threads, registers=registers, shared_bytes=0, local_bytes=4 * spills,
        instructions=int(_code_size(counts, plain, threads, widths)),
        global_loads=int(round(n_loads)), global_stores=int(round(n_stores)), local_loads=spills, local_stores=spills,
        tma_loads=len(copied_loads), tma_stores=len(copied_stores),
        global_access_bytes=moved / (n_loads + n_stores) if n_loads + n_stores else None,
        global_load_bytes=loaded / n_loads if n_loads else None,
        loads_in_flight=_loads_in_flight(counts, loads, threads, widths) if n_loads else None,
        loop_instructions=loop_code, loop_shared_ops=loop_pipe,
        loop_serial_copies=_serial_copies(counts, copied_loads),
        **(_element_operand_loop(counts, threads, widths) if aligned and has_mma and not copied_loads else {}))


def _element_operand_loop(counts: Counts, threads: int, widths) -> dict:
    """The innermost `mma` loop's code and load waits where an aligned array's operands are loaded
    element by element (version 57: rows not a multiple of 16 bytes), as their cubins have them:
    OPERAND_LOAD_CODE instructions a thread's operand LDG, one wait in OPERAND_LOADS_PER_WAIT."""
    loop = counts.innermost_mma_loop()
    operands = [a for a in loop.accesses if a.kind == "load" and a.feeds_mma] if loop is not None else []
    if not operands or any(widths.get(id(a), a.itemsize) > a.itemsize for a in operands):
        return {}
    ldgs = sum(_instructions(a, threads, widths.get(id(a), a.itemsize)) for a in operands)
    return {"mma_loop_instructions": int(OPERAND_LOAD_CODE * ldgs),
            "mma_loop_load_waits": ldgs / OPERAND_LOADS_PER_WAIT}


def _serial_copies(counts: Counts, copied_loads: List[Access]) -> int:
    """Copies a step of the innermost `mma` loop waits for one by one (version 58): in a kernel
    with an atomic in any order but relaxed, tileiras's producer waits for each copy of its `mma`
    loop before it issues the next — set M's split-K GEMV, the split_k_rows microbenchmarks and U's
    fused decode (locks); relaxed, none; without `mma` (X's layer-norm backward) none either."""
    loop = counts.innermost_mma_loop()
    if loop is None or not counts.ordered_atomics():
        return 0
    copied = _ids(copied_loads)
    return sum(id(a) in copied for a in loop.accesses)


def _accelerator_copies(counts: Counts, aligned: bool, has_mma: bool):
    """(loads, stores) the accelerator copies: every tile access of an `mma` kernel of aligned
    arrays; in a kernel with atomics, its tile loads unless one is larger than ATOMIC_COPY_BYTES
    (version 45); in a row kernel that reduces, the row tiles it stores, and the tiles it loads when
    its reductions are all sums (a max or arg-max search keeps the loads element by element: in
    the cubins it is the -inf padding such searches use, history 75)."""
    if not aligned:
        return [], []
    tiles = [a for a in counts.accesses if a.kind in ("load", "store") and a.op.attrs.get("allow_tma") is not False
             and copyable(a)]
    if has_mma:
        return [a for a in tiles if a.kind == "load"], [a for a in tiles if a.kind == "store" and a.rows > 1]
    loads = [a for a in tiles if a.kind == "load"]
    adds = any(a.kind == "atomic" for a in counts.accesses) and all(a.bytes <= ATOMIC_COPY_BYTES for a in loads)
    kinds = _reductions(counts)
    rows = [a for a in tiles if kinds and a.elements >= ROW_TILE]
    summed = {id(a) for a in rows} if kinds <= {"sum", "add"} else set()
    return [a for a in loads if adds or id(a) in summed], [a for a in rows if a.kind == "store"]


def copyable(a: Access) -> bool:
    """Whether the accelerator can copy this tile access at all: at least TMA_MIN_BYTES, no axis
    an index tile gives (advanced indexing is element by element, version 48), and an array whose
    metadata gives the strides a copy needs (`copy_layout`, version 56)."""
    return a.copy_layout and a.bytes >= TMA_MIN_BYTES and a.op.name not in INDEXED_TILE_OPS


def persistent_loops(counts: Counts) -> list:
    """The loops that start at each block's own index and stride past the others' (a persistent
    kernel walking tiles by the grid)."""
    out = []
    for r in counts.regions:
        if r.op is None or r.op.name != "for":
            continue
        start = counts.scalars.value(r.op.operands[0])
        if isinstance(start, np.ndarray) and start.size > 1 and np.ptp(start) > 0 and float(r.trips.max()) > 1:
            out.append(r.op)
    return out


def _hoisted_words(loop) -> float:
    """32-bit words a thread of a 128-thread block holds of the tiles the loop broadcasts from
    values it does not change (a weight row against a tile of rows): tileiras computes them
    once, before the loop, so they stay live across its iterations."""
    body = [op for b in loop.blocks for op in b.walk()]
    defs = {v.id: op for op in body for v in op.results}
    counters = {op.blocks[0].args[0].id: op for op in body if op.name == "for" and op.blocks and op.blocks[0].args}
    inside = set(defs) | {v.id for b in loop.blocks for blk in b.nested() for v in blk.args}
    memo: dict = {}

    def invariant(v) -> bool:         # the same in every iteration (an inner loop's counter too)
        if v.id not in inside:
            return True
        if v.id not in memo:
            op, inner = defs.get(v.id), counters.get(v.id)
            memo[v.id] = False            # until shown otherwise (a loop-carried cycle is not)
            memo[v.id] = (all(map(invariant, inner.operands[:3])) if inner is not None else
                          op is not None and not op.blocks and op.name in _VALUE_OPS
                          and all(map(invariant, op.operands)))
        return memo[v.id]
    return max((_tile_words(op.results[0].type) / THREADS for op in body
                if op.name == "broadcast" and op.results and invariant(op.operands[0])), default=0.0)


# ops whose result depends on their operands only (no memory, no nested code)
_VALUE_OPS = {"const", "reshape", "broadcast", "astype", "extract", "binary", "unary", "permute"}


def _reductions(counts: Counts) -> set:
    return {op.attrs.get("fn") for op in counts.fn.walk() if op.name == "reduce"}


def _width(counts: Counts, a: Access, aligned: bool, threads: int) -> float:
    """Bytes one instruction moves per thread for this access: for an aligned array, a thread's
    share of a contiguous run (up to 16 bytes) — a tile the tiles divide, or a gather along rows
    (`offset + ct.arange`) whose offset is a multiple of the vector; else one element."""
    if not aligned or not a.shape:
        return float(a.itemsize)
    if a.kind in ("load", "store"):
        if a.transposed or not a.vector_layout or not (a.divides or _extent_divisible(a)):
            return float(a.itemsize)
        run = a.row_bytes
    elif a.kind in ("gather", "scatter") and a.contiguous and len(a.op.operands) > 1:
        index = a.op.operands[len(a.op.operands[0].type.shape)]          # the last axis's index
        if last_axis_stride(index, clamps=False) != 1:
            return float(a.itemsize)
        run = min(a.row_bytes, _offset_divisor(counts, index) * a.itemsize)
    else:
        return float(a.itemsize)
    share = a.elements * a.itemsize // threads
    per_thread = max(a.itemsize, min(MAX_VECTOR_BYTES, share, run))
    return float(2 ** int(math.log2(per_thread)))


def _extent_divisible(a: Access) -> bool:
    """The array's last extent is a multiple of a 16-byte vector: a padded tile's vectors lie
    wholly inside or wholly outside it."""
    extent = a.op.operands[0].type.shape[-1] if a.op.operands[0].type.shape else None
    return isinstance(extent, int) and extent * a.itemsize % MAX_VECTOR_BYTES == 0


def _offset_divisor(counts: Counts, v: Value, depth: int = 0) -> int:
    """The power of two that divides every lane's index once `ct.arange`'s step is taken out (the
    first lane's alignment), as far as the IR shows: 1 when unknown. A loop's counter takes
    start + k * step: the smaller of theirs."""
    cap = 1 << 20
    low_bit = lambda n: cap if n == 0 else min(cap, abs(n) & -abs(n))     # noqa: E731 (0: any power)
    t = v.type
    op = v.owner
    if not getattr(t, "shape", None):                   # a scalar: its value for every block
        x = counts.scalars.as_built(v)
        if isinstance(x, np.ndarray) and x.dtype.kind in "iu":
            return low_bit(int(np.gcd.reduce(np.abs(x.astype(np.int64)))) if x.size else 0)
        c = const_int(v)
        if c is not None:
            return low_bit(c)
    if op is None and depth <= 12:    # a loop's counter: start + k * step (v16)
        loop = next((o for o in counts.fn.walk() if o.name == "for" and o.blocks and o.blocks[0].args
                     and o.blocks[0].args[0] is v), None)
        if loop is not None:
            return min(_offset_divisor(counts, o, depth + 1) for o in (loop.operands[0], loop.operands[2]))
    if op is None or depth > 12:
        return 1
    if op.name == "arange":
        return cap
    if op.name == "const":
        c = const_int(v)
        return 1 if c is None else low_bit(c)
    if op.name in ("broadcast", "reshape", "astype"):
        return _offset_divisor(counts, op.operands[0], depth + 1)
    if op.name == "binary" and op.attrs.get("fn") in ("add", "sub"):
        return min(_offset_divisor(counts, o, depth + 1) for o in op.operands[:2])
    if op.name == "binary" and op.attrs.get("fn") == "mul":
        a, b = (_offset_divisor(counts, o, depth + 1) for o in op.operands[:2])
        return min(cap, a * b)
    if op.name == "where" and len(op.operands) == 3:
        return min(_offset_divisor(counts, o, depth + 1) for o in op.operands[1:])
    return 1


def _instructions(a: Access, threads: int, width: float) -> float:
    """Memory instructions of this access in the code (per thread, once per op)."""
    return max(1.0, a.elements * a.itemsize / threads / width)


def _code_size(counts: Counts, plain: List[Access], threads: int, widths) -> float:
    """Instructions in the kernel's code, each region once, with instructions.py's per-item counts
    (read from the SASS of tileiras's cubins): set-up, each memory instruction with its address
    arithmetic and bounds test, each tile reduction, transcendental and element-wise operation."""
    total = PER_BLOCK
    for a in plain:
        unchecked = a.kind in ("gather", "scatter") and not a.check_bounds
        total += _instructions(a, threads, widths[id(a)]) * (PER_ELEMENT_UNCHECKED if unchecked else PER_ELEMENT)
    for r in counts.regions:
        w = r.work
        total += w.reductions * PER_REDUCTION + (w.fp32_instr + w.int_ops + w.sfu * PER_TRANSCENDENTAL) / threads
    return total


def _shuffle_loop(counts: Counts, threads: int, plain: List[Access], widths):
    """(instructions, shuffles and shared accesses) of the body of the IR's only loop (version 14),
    where it reduces tiles across threads: a thread holds its share of a tile as a run along the
    last axis; a reduction along another axis combines each value it holds across the lanes that
    hold that column (a shuffle per level within the warp, a shared store and load across warps),
    one along the last axis each row it holds; an add per shuffle, with the loop's other code at
    instructions.py's per-item counts. (None, None) for other code. The cubins of set K's gated
    delta rule: 648 shuffles and 264 shared accesses in two reductions of a 128x64 state, this
    estimate 640 and 256; the reduce_loop microbenchmark's one row: 7 and 4, here 5 and 2.)"""
    loops = [r for r in counts.regions if r.op is not None]
    if len(loops) != 1 or loops[0].mmas or loops[0].op.name != "for":
        return None, None
    r = loops[0]
    pipe = sum(_reduce_pipe(op, threads) for b in r.op.blocks for op in b.walk() if op.name == "reduce")
    if not pipe:
        return None, None
    accesses = sum(_instructions(a, threads, widths[id(a)]) * PER_ELEMENT for a in plain if a.region is r)
    w = r.work
    arithmetic = (w.fp32_instr + w.int_ops + w.sfu * PER_TRANSCENDENTAL) / threads
    other = pipe + accesses + w.reductions * PER_REDUCTION + arithmetic
    return int(pipe + other), int(pipe)


def _reduce_pipe(op, threads: int) -> float:
    """Shuffles and shared accesses a thread makes for one tile reduction (see _shuffle_loop)."""
    shape = tuple(getattr(op.operands[0].type, "shape", ()) or ())
    if not shape or int(np.prod(shape)) <= 1:
        return 0.0
    held = max(1.0, float(np.prod(shape)) / threads)
    run = min(held, shape[-1])                       # a thread's values along the last axis
    lanes_along_row = max(1.0, shape[-1] / run)
    axes = tuple(op.attrs.get("axes", ()) or (len(shape) - 1,))
    if len(shape) - 1 in axes:                        # along the row: one value a row held
        values, lanes = held / run, lanes_along_row
    else:                                             # across rows: every column value held
        values, lanes = run, threads / lanes_along_row
    levels = math.log2(min(WARP_LANES, lanes)) if lanes > 1 else 0.0
    return values * (levels + (2 if lanes > WARP_LANES else 0))


def _registers(counts: Counts, threads: int, copies: float = 1.0) -> int:
    """A base plus the 32-bit registers of the largest tile a thread holds (a fit of the 182 plain
    128-thread cubins of the validation sets: within 25% for 96, where the two largest tiles gave
    70), `copies` of it at once; code without reductions walks large element-wise tiles in a loop
    (its LDG counts show it), holding a chunk of at most ELEMENTWISE_WORDS."""
    held = _held_words(counts, threads)
    return int(min(MAX_REGISTERS, math.ceil((BASE_REGISTERS + copies * held) / 8) * 8))


def _held_words(counts: Counts, threads: int) -> float:
    """32-bit words a thread holds of the largest tile (a chunk of element-wise code's)."""
    held = max((_tile_words(r.type) for op in counts.fn.walk() for r in op.results), default=0.0) / threads
    return held if _reductions(counts) else min(held, ELEMENTWISE_WORDS)


def _occupancy_registers(counts: Counts, threads: int, registers: int) -> int:
    """An occupancy hint makes tileiras fit that many blocks in the SM's registers where the
    largest mma accumulator takes at most half of the registers left a thread (cubins of a matmul
    at occupancy 2, 4 and 8, f16 and f32, 64x64 to 128x256 tiles, both builds: 32 of 36 exact; the
    misses fall back to a lower occupancy instead; set K's TF32 linear and fused MLP at
    occupancy 4: 124 and 128 registers for 128 threads, 64 for 256; version 14). Without an mma
    nothing competes for the cap (version 16: the 9 accelerator-fed row kernels of sets E, F, H, K
    and L with a hint of 2-8 hold exactly it)."""
    cap = REGISTERS_PER_SM // (counts.occupancy * threads) // 8 * 8
    accumulator = max((_tile_words(t) for t in _accumulators(counts)), default=0.0) / threads
    return min(registers, cap) if accumulator <= cap / 2 else registers


def _accumulators(counts: Counts) -> List[TileType]:
    return [op.results[0].type for r in counts.regions for op in r.mmas
            if op.results and isinstance(op.results[0].type, TileType)]


def _accumulator_elements(counts: Counts) -> int:
    """Elements of the largest `mma` accumulator. One of at most WARP_FRAGMENT elements is a
    single warp's product: tileiras builds the kernel as plain code, not at the register ceiling
    of a product pipeline (version 51: the dynamic builds of P's rope rotation, 32 elements, 18
    and 20 registers; V's 8x8 sparse blocks, 8 elements, 64; X's 4x4 Sinkhorn steps, 128
    elements, 52; the larger products' 128-thread cubins hold 64-255, most 255)."""
    return max((int(np.prod(t.shape or (1,))) for t in _accumulators(counts)), default=0)


def _accumulator_spills(counts: Counts, threads: int) -> int:
    """Local reloads in an `mma` loop, per iteration. An accumulator of SPILL_ACCUMULATOR_WORDS or
    more 32-bit words per thread (128×256 over 256 threads, the block tileiras gives such
    accumulators in every build seen) leaves no room for the operands at the register ceiling: the
    cubins reload about twice its words. A float32 `mma` (multiplied and added on the CUDA cores)
    reloads about its accumulator's words times its operands' words per thread (0.75-1.1× in the
    four such cubins) once that product reaches SPILL_F32_PRODUCT."""
    per_thread = max(threads, FED_THREADS)
    spills = 0
    for r in counts.regions:
        for op in r.mmas:
            acc = _tile_words(op.results[0].type) / per_thread if op.results else 0.0
            if acc >= SPILL_ACCUMULATOR_WORDS:
                spills = max(spills, int(2 * acc))
            if acc > MAX_REGISTERS:       # the accumulator itself cannot stay in registers (v14)
                x = op.operands[0].type
                steps = x.shape[-1] * max(1, x.dtype.bitwidth // 8) / MMA_STEP_BYTES
                spills = max(spills, int(acc * steps * RELOADS_PER_WORD_STEP))
            operands = sum(_tile_words(o.type) for o in op.operands[:2]) / per_thread
            if op.operands[0].type.dtype.name == "float32" and acc * operands >= SPILL_F32_PRODUCT:
                spills = max(spills, int(acc * operands))
    return spills


def _tile_words(t) -> float:
    if isinstance(t, TileType) and t.shape:
        return float(np.prod(t.shape)) * max(1, t.dtype.bitwidth // 8) / 4
    return 0.0


def _loads_in_flight(counts: Counts, loads: List[Access], threads: int, widths) -> float:
    """Loads a thread issues before it waits on one: all of its share of a tile at once, unless the
    code converts a 16-bit tile element by element on the way (it then waits on each load), or
    permutes the tile (a loop over the tile's elements: TRANSPOSED_IN_FLIGHT a trip). Counted
    over the loads that do not feed an `mma` (the ones the model charges by it)."""
    plain = [a for a in loads if not a.feeds_mma] or loads
    permutes = any(op.name == "permute" for op in counts.fn.walk()) or any(a.transposed for a in plain)
    readers = counts.fn.body.readers()
    total = runs = 0.0
    for a in plain:
        n = _instructions(a, threads, widths[id(a)])
        total += n
        if permutes:
            runs += max(1.0, n / TRANSPOSED_IN_FLIGHT)
        else:
            runs += 1 if _batched(a, readers) else n
    return total / runs if runs else 1.0


def _batched(a: Access, readers) -> bool:
    """Whether a thread issues its share of this access together (not one load per wait)."""
    if a.kind == "gather":
        return True
    return a.itemsize >= 4 or _first_use(a, readers) != ("astype", None)


def _first_use(a: Access, readers):
    """(op name, fn) of the first reader that computes on the loaded tile (past view ops)."""
    if not a.op.results:
        return None
    todo = [a.op.results[0]]
    while todo:
        v = todo.pop(0)
        for user in readers.get(v.id, ()):
            if user.name in ("reshape", "permute", "broadcast") and user.results:
                todo.append(user.results[0])
            else:
                return user.name, user.attrs.get("fn")
    return None


def _ids(accs: Iterable[Access]):
    return {id(a) for a in accs}


def occupancy_hint(options: dict, arch: str) -> Optional[int]:
    """The `occupancy` of a kernel's `@ct.kernel(...)` hints for `arch` (a `ct.ByTarget` resolved
    for it), or None."""
    value = options.get("occupancy")
    if isinstance(value, ByTarget):
        value = value.by_target.get(arch, value.default)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None
