"""The element-by-element law (version 46): where tileiras walks a tile element by element
(dynamically shaped builds), each cache line a warp instruction touches is handled in turn, and
L1 takes the lines at a rate of its own for reads and for writes."""
from __future__ import annotations

import math
from typing import List, Optional, Tuple

from .counts import Access
from .cubin_facts import CubinFacts
from .gpus import GPU
from .l2_kept import IN_L2_SHARE
from .lane_offsets import LINE_BYTES, WARP_LANES
from .schedule import l1_beside_blocks, tma_copied

# Element by element (dynamically shaped builds), a warp instruction spreads its lanes down min(rows,
# 32) of a tile's rows, a few neighbouring elements in each, and each cache line a request touches is
# handled in turn (version 46; bench/results/cost_micro46*_h200.json). Reads (loads and gathers):
# 0.85-0.90 lines a clock on every SM whatever the dtype, the row count or whether the lines hit L1.
# Writes (stores and scatters), partial lines sent on to L2: 0.23 a clock at 2-4 bytes a line,
# rising with the bytes each line gets (0.27-0.31 at 8, 0.35-0.43 at 16, the most measured; the
# copies' times less their reads'). Reads and writes overlap: a copy takes the root of the sum of
# their squares (2-D gather copies and tile copies of 32 and 16 rows, float32, bfloat16, float8,
# within 25% of it but for the float32 tile copy of 16 rows, 1.35x). Tile loads and stores were
# charged the 2-D copy law before: a rate of bytes where the lines say a rate of elements by rows.
READ_LINES_PER_SM_CLK = 0.87
WRITE_LINES_PER_SM_CLK = (0.203, 0.0114, 16)     # at 0 bytes a line, per byte, up to the bytes measured
# A line such a store writes a few bytes of stays partly written until its last element lands. Past
# 0.26 of L2 of such lines held by the resident blocks' stored tiles, the write rate falls as their
# bytes' fourth root (version 59: the transposes and 2-D copies of B, C, G, H, K and N held 6.5-78 MB
# and wrote at 1.0 of the rate up to 13 MB, 0.74-0.86 at 21.6, 0.72 at 43 and 0.65 at 78; history 92)
PARTIAL_LINES_KNEE = 0.26
PARTIAL_LINES_EXPONENT = 0.25
# A walk whose lines outgrow L1 (a thread a row of a 128-row tile, 16 blocks an SM: 256 KB of lines)
# reads each element's line again: 0.11 lines a clock on every SM, the value that fits the row_walk
# microbenchmarks that do (bench/results/cost_run_m91_h200.json: the 128-row permutes of bfloat16 and
# float32, rows 12 heads apart or back to back, and the copy, within 0.84-1.20x; their 64- and
# 32-row walks, 128 and 64 KB, keep the 0.87; history 95)
MISSED_READ_LINES_PER_SM_CLK = 0.11
# ... and 0.33 where the array fits the share of L2 that keeps data (schedule.IN_L2_SHARE), so each
# line L1 lost is still there (version 97)
L2_KEPT_READ_LINES_PER_SM_CLK = 0.33

VECTOR_WIDTH = 2                     # elements an access from which code is vectorised, not element by element


def row_lines(a: Access, width: float, tma: bool, threads: int = 0) -> float:
    """Cache lines an element-by-element access of a tile of several rows touches, over the grid
    (0 where the law does not apply): a warp instruction's lanes go down min(rows, 32) of the
    tile's rows, a line each, unless rows lie closer than a line (an index evaluated from metadata,
    a tile of whole rows of the array, or, for reads, rows `lane_pitch` bytes apart: version 84, set
    AO's final sum of (32768, 4) tiles of a 16-column array, two rows a line, 2.70x at a line a
    lane, and its gather whose tile rows run along memory, 3.87x); a tile of 1-byte elements has
    its lanes along its rows instead (`along_rows`). Writes keep a line a lane, each lane's bytes
    their own sector (set AO's layout stores, 64-byte rows, came to 0.69x at several a line),
    unless the lanes abut (`abutting_lanes`). A store of a tile of fewer elements than the block's
    `threads` is issued by every warp, its lanes spread over them: each warp reaches the rows its
    share of the lanes does (version 95: the slim stores' (8, 8) tiles take as long as (16, 8) ones,
    set BG's causal mask; a column of 64 elements still a line an element, set AO's layout)."""
    rows = lane_rows(a)
    if spread(a):               # (a gather or scatter: never an accelerator copy, whatever `tma` says)
        return 0.0 if width >= VECTOR_WIDTH else a.executions * a.elements / WARP_LANES * a.line_count
    if (a.kind not in ("gather", "scatter", "load", "store") or rows <= 1 or a.index_lanes or a.feeds_mma
            or tma or width >= VECTOR_WIDTH      # (a gather or scatter: along rows, or down one column, v89)
            or (a.kind in ("gather", "scatter") and not a.contiguous and not a.line_count)):
        return 0.0
    instructions = a.executions * a.elements / WARP_LANES
    if along_rows(a):      # a line for each row the warp's lanes reach; one where rows lie back to back
        reached = WARP_LANES * a.itemsize / line_run(a)
        return instructions * math.ceil(WARP_LANES * a.itemsize / LINE_BYTES if a.spans_rows else reached)
    down = min(rows, WARP_LANES)
    lines = a.line_count or down * math.ceil(line_run(a) / LINE_BYTES)
    if a.spans_rows and a.kind in ("load", "store"):        # the tile's rows back to back in memory
        lines = min(lines, math.ceil(down * a.shape[-1] * a.itemsize / LINE_BYTES))
    if a.lane_pitch and (a.kind in ("load", "gather") or abutting_lanes(a)):   # several a line (v84, v90)
        lines = min(lines, math.ceil(down * a.lane_pitch / LINE_BYTES))
    if a.kind == "store" and threads > a.elements:      # every warp stores, its share of lanes (v95)
        return instructions * threads / a.elements * min(lines, WARP_LANES * a.elements / threads)
    return instructions * lines


def spread(a: Access) -> bool:
    """A 1-D gather or scatter whose lanes the metadata places, a warp's neighbouring lanes over more
    lines than a run of them would take (version 96: set BH's channels-last batch norm, lanes a
    768-byte channel row apart, a line each, 0.26x with no lines charged; `line_count`)."""
    return a.kind in ("gather", "scatter") and len(a.shape) == 1 and bool(a.line_count) and not a.contiguous


def abutting_lanes(a: Access) -> bool:
    """Whether a warp's lanes go down rows one element apart, so that they share sectors, writes
    too (version 90: set AX's channels-last scatter, lanes down 2-byte channels, came to 3.17x
    at a line a lane)."""
    return a.lane_pitch == a.itemsize


def line_bytes(a: Access) -> int:
    """Bytes a warp instruction writes into each line it touches."""
    return min(WARP_LANES * a.itemsize, LINE_BYTES) if abutting_lanes(a) else line_run(a)


def along_rows(a: Access) -> bool:
    """Whether tileiras lays a warp's lanes along a tile's rows (version 47): for a tile of 1-byte
    elements (bool, int8, uint8, float8) loaded or stored element by element, as the listings of
    their copies show (a row's 64 neighbouring bytes on 64 threads; tiles of wider types take a row
    a lane). A conversion to or from a wider type passes the tile through shared memory."""
    return a.kind in ("load", "store") and a.itemsize == 1


def lane_rows(a: Access) -> int:
    """The rows a warp's lanes are laid down: a tile's own rows (whole rows of the array or not),
    an index tile's rows."""
    return a.elements // a.shape[-1] if a.kind in ("load", "store") and a.shape else a.rows


def line_run(a: Access) -> int:
    """Bytes a warp instruction's lanes take from each row they share (a spread access: each line)."""
    if spread(a):
        return max(1, round(WARP_LANES * a.itemsize / a.line_count))
    if along_rows(a):
        return min(a.shape[-1], WARP_LANES) * a.itemsize
    return WARP_LANES // min(lane_rows(a), WARP_LANES) * a.itemsize


def row_lines_us(lined: List[Tuple[Access, float]], gpu: GPU, resident: int = 0,
                 facts: Optional[CubinFacts] = None, per_sm: int = 0) -> float:
    """The time L1 takes over the lines of these (access, lines) pairs: reads and writes each at
    their rate, overlapping as the copies measured; reads slower where the `per_sm` blocks walk
    more lines at once than L1 keeps (`walk_misses_l1`); writes slower where the `resident` blocks'
    stored tiles, written a few bytes a line at a time, are more than L2 keeps (`partial_lines_share`).
    Only the SMs that hold the `resident` blocks take lines (version 80: set AJ's final channel sum,
    four blocks, walks 50,176 lines each at 0.87 a clock in 29 µs; all SMs' rate gave it 1.2 µs)."""
    clocks = (min(gpu.sms, resident) if resident else gpu.sms) * gpu.clock_ghz * 1e9
    base, per_byte, most = WRITE_LINES_PER_SM_CLK
    reads = sum(n / (missed_read_rate(a, gpu) if walk_misses_l1(a, facts, per_sm, gpu) else READ_LINES_PER_SM_CLK)
                for a, n in lined if a.kind in ("gather", "load"))
    stored = [(a, n) for a, n in lined if a.kind in ("scatter", "store")]
    writes = sum(n / (base + per_byte * min(line_bytes(a), most)) for a, n in stored)
    writes /= partial_lines_share(resident * sum(a.bytes for a, _ in stored if a.kind == "store"), gpu)
    return math.hypot(reads, writes) / clocks * 1e6


def walk_misses_l1(a: Access, facts: Optional[CubinFacts], per_sm: int, gpu: GPU) -> bool:
    """Whether a read's element-by-element walk outgrows L1 (version 62): each thread walks a row
    of the tile a line at a time, so a block keeps a line for each of its rows, up to its threads,
    and the `per_sm` resident blocks that many; past the L1 left beside their shared memory, each
    line is gone before the thread's next element in it."""
    if facts is None or not per_sm or a.kind not in ("gather", "load") or not gpu.l1_shared_kb or one_column(a):
        return False
    walked = per_sm * (lane_rows(a) if rows_at_once(a, facts) else min(lane_rows(a), facts.threads)) * LINE_BYTES
    return walked > l1_beside_blocks(facts, per_sm, gpu)


def rows_at_once(a: Access, facts: CubinFacts) -> bool:
    """Whether each thread walks several of a tile's rows side by side: a tile of more rows than
    threads, loaded in a loop and not reduced, takes one column a pass over all of a thread's rows
    (the listing of set BH's copy of (512, 16) tiles: rows tid, tid + 128, ... a pass), so a block
    keeps a line for every row of the tile; a reduction down the rows walks them one after another."""
    return (lane_rows(a) > facts.threads and bool(facts.loop_instructions)
            and a.region is not None and not a.region.work.reductions)


def missed_read_rate(a: Access, gpu: GPU) -> float:
    """Lines a clock an SM of a read walk past L1: L2's where the array is small enough to stay in it."""
    kept = (a.root_bytes or a.array_bytes or math.inf) <= IN_L2_SHARE * gpu.l2_mb * 1e6
    return L2_KEPT_READ_LINES_PER_SM_CLK if kept else MISSED_READ_LINES_PER_SM_CLK


def walk_miss_share(a: Access, facts: Optional[CubinFacts], per_sm: int, gpu: GPU, aligned: bool) -> float:
    """Share of a thread's LDGs of tile load `a` that go past L1, where each lane of a warp walks a
    row of its own element by element (version 81: a tile of at least a warp's rows, scalar LDGs,
    in a dynamically shaped build, as the listings of set AK's and AL's column sums show; an
    `aligned` build lays the lanes along the rows, version 57): the thread's next LDG takes the
    bytes after its last, in the line that one brought, until the tile's row ends; a line's first
    LDG goes out and the rest find it in L1. 1 otherwise, and where the walk outgrows L1 (version 62)."""
    if (aligned or a.kind != "load" or not a.shape or facts is None or a.feeds_mma or lane_rows(a) < WARP_LANES
            or (facts.global_load_bytes or LINE_BYTES) > a.itemsize      # vector LDGs, or no width known
            or walk_misses_l1(a, facts, per_sm, gpu)):
        return 1.0
    return min(1.0, a.itemsize / min(LINE_BYTES, a.shape[-1] * a.itemsize))


def one_column(a: Access) -> bool:
    """A tile one element wide: a warp's lanes can only go down its rows, and each of a lane's
    elements lies in a line of its own, so a walk down it has nothing to lose from L1 (version 82)."""
    return a.kind in ("load", "store", "gather", "scatter") and bool(a.shape) and a.shape[-1] == 1


def access_width(a: Access, facts: Optional[CubinFacts], width: float) -> float:
    """Elements one LDG (a read) or STG (a write) of access `a` moves per thread, where the lanes of a
    warp go down a tile's rows, at most two a row (a tile of at least half a warp's rows): the code's
    mean width of that kind over the access's element size (version 83: set AM's causal segment mask
    loads 8-byte positions and stores its (1, 32, 32) bfloat16 tile two bytes a lane; the mean over
    both, 2.3 elements, had taken the store for vectors and charged it no lines, 0.47x; version 92:
    AW's, (16, 64) tiles, 0.22x). `width` (the mean over every access) elsewhere and where the code
    does not say (for tiles of 2-8 rows the kind's width put AH's and BB's masked rows at 1.5x)."""
    if not facts or not facts.global_access_bytes or not facts.global_load_bytes or lane_rows(a) < WARP_LANES // 2:
        return width
    loads, stores = facts.global_loads or 0, facts.global_stores or 0
    if a.kind in ("load", "gather"):
        moved = facts.global_load_bytes
    elif stores:
        moved = (facts.global_access_bytes * (loads + stores) - facts.global_load_bytes * loads) / stores
    else:
        return width
    return max(1.0, moved / a.itemsize)


def column_walked(a: Access, facts: CubinFacts, schedule: str, width: float) -> bool:
    """A one-column tile the cubin loads or stores element by element even for aligned arrays
    (no accelerator copy, scalar accesses): its lines are charged whatever the metadata say
    (version 81: set AK's one-column sums as launched, 16 four-byte LDGs a thread, take 11 µs; with
    no lines charged, 3.8 were predicted). Scalar: under two elements an access of its kind
    (version 89; the code's mean bytes over all accesses had taken set AW's bfloat16 columns, read
    beside four-byte scalars, 2.4 bytes an LDG, for vectors: 0.11x)."""
    return (schedule == "from the cubin" and one_column(a) and not tma_copied(a, facts)
            and access_width(a, facts, width) < VECTOR_WIDTH)


def partial_lines_share(partial_bytes: float, gpu: GPU) -> float:
    """Share of the write-line rate left when tiles being stored element by element hold
    `partial_bytes` of partly written lines across the GPU at once (version 59, history 92)."""
    knee = PARTIAL_LINES_KNEE * gpu.l2_mb * 1e6
    return 1.0 if partial_bytes <= knee else (knee / partial_bytes) ** PARTIAL_LINES_EXPONENT
