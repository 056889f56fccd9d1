"""What a kernel does per block, counted from its final typed IR and argument metadata.

The kernel body and each loop body are *regions*; a region runs `trips` times per block
(exact where loop bounds follow from metadata, see scalars.py). Each region records, per run,
its memory accesses (with tile shapes, bytes, padding and which blocks share them) and its
arithmetic by kind. Nothing is executed.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..enums import MemoryOrder, RoundingMode
from ..errors import Loc
from ..ir.core import Function, Op, Value
from ..ir.types import ArrayType, TiledViewType, TileType
from .compacted_index import runs_of_lanes
from .index_steps import axis_stride, const_int, last_axis_stride
from .lane_offsets import DRAM_READ_BYTES, LINE_BYTES, WARP_LANES, lines_per_instruction, sector_share
from .loop_bounds import LOAD_OPS, arrays_read_for, bisection_trips, counted_trips, loads_feeding
from .padded_lanes import PaddedLanes
from .scalars import VARIANT, GridScalars, trip_counts
from .tile_rows import isolated_elements, known_bytes, row_pitch, whole_rows_run

_VIEW_OPS = ("reshape", "permute", "astype", "broadcast")
_SFU = ("exp", "exp2", "log", "log2", "sin", "cos", "tan", "sinh", "cosh", "tanh", "rsqrt", "sqrt")
# FP32 instructions per element beyond the one every element-wise op issues
DIVISION_INSTRUCTIONS = 3
_EXTRA_INSTR = {"truediv": DIVISION_INSTRUCTIONS, "pow": 8, "atan2": 12}


@dataclass
class Access:
    kind: str                        # load, store, gather, scatter, atomic
    op: Op
    array: str
    dtype: str
    itemsize: int
    shape: Tuple[int, ...]           # tile (or index) shape
    elements: int                    # per execution
    order: Tuple[int, ...] = ()
    feeds_mma: bool = False
    operand: str = ""                # its mma role: "a" (rows along K), "a-mmajor" (along M), "b" (rows
                                     # along N) or "b-kmajor" (along K)
    mma_dtype: str = ""              # the operand dtype its mma takes (tfloat32 for float32 tiles cast to it)
    transposed: bool = False         # read in a permuted order, or permuted before its mma
    pad_fraction: float = 0.0        # share of the tile's elements outside the array (tiling estimate)
    row_bytes: int = 0               # contiguous bytes per tile row (last tile axis)
    rows: int = 1                    # tile rows (product of the other axes)
    array_bytes: Optional[int] = None
    root_bytes: Optional[int] = None     # the bytes of the array it slices (its own where it is no slice)
    executions: float = 0.0          # over the whole grid
    dram_bytes: float = 0.0          # estimated DRAM traffic over the grid
    region: Optional["Region"] = None
    weight: float = 1.0              # share of the region's runs that reach it (an if-branch's share of blocks)
    check_bounds: bool = True
    divides: bool = False            # tiles never reach past the array (metadata says so)
    contiguous: bool = False         # a gather/scatter whose lanes run along the array's rows
    index_lanes: bool = False        # lanes follow a loaded index tile, a row each (v14; see _loaded_rows)
    lane_stride: int = 0             # elements between neighbouring lanes of a strided gather's row (v24)
    sector_share: float = 0.0        # DRAM bytes a lane brings, its index evaluated from metadata (v43)
    spans_rows: bool = False         # whole trailing axes of the array: runs (row_bytes) longer than its last axis
    line_count: float = 0.0          # lines a warp instruction touches, its index evaluated from metadata (v46)
    copy_layout: bool = True         # its array's strides let the accelerator copy its tiles (v56)
    vector_layout: bool = True       # its array's last extent is known a multiple of 16 bytes (v57)
    l2_kept_share: float = 0.0       # of the launch's data, the share L2 keeps to the next launch (v79, v105)
    lane_pitch: int = 0              # bytes between the rows a warp's lanes go down, where known (v84)
    picked_index: bool = False       # a one-axis gather at a loaded tile's values as loaded (v94: picks)

    @property
    def bytes(self) -> int:
        return self.elements * self.itemsize

    @property
    def loc(self) -> Optional[Loc]:
        return self.op.loc


@dataclass
class Work:
    """Arithmetic of one region run (per block)."""
    tensor: Dict[str, float] = field(default_factory=dict)    # mma FLOPs by operand dtype
    fp32: float = 0.0                # FLOPs on CUDA cores (an FMA counts 2)
    fp32_instr: float = 0.0          # element-wise instructions (for issue time)
    fp64: float = 0.0
    sfu: float = 0.0                 # transcendental results
    exp2: float = 0.0                # of which base-2 exponentials (one SFU instruction, no helpers)
    int_ops: float = 0.0
    reductions: float = 0.0          # reductions across a tile (each a chain of shuffles and a barrier)
    conversions: float = 0.0         # elements converted between integer and float (version 17)
    divisions: float = 0.0           # elements of IEEE float32 divisions (version 70)
    slow_divisions: float = 0.0      # of which with a zero, infinite or NaN operand: the slow path

    def add(self, other: "Work", weight: float = 1.0) -> None:
        for k, v in other.tensor.items():
            self.tensor[k] = self.tensor.get(k, 0.0) + v * weight
        self.fp32 += other.fp32 * weight
        self.fp32_instr += other.fp32_instr * weight
        self.fp64 += other.fp64 * weight
        self.sfu += other.sfu * weight
        self.exp2 += other.exp2 * weight
        self.int_ops += other.int_ops * weight
        self.reductions += other.reductions * weight
        self.conversions += other.conversions * weight
        self.divisions += other.divisions * weight
        self.slow_divisions += other.slow_divisions * weight


@dataclass
class Region:
    op: Optional[Op]                 # the loop (None: the kernel body)
    trips: np.ndarray                # runs per block (float: an if-branch may take a share)
    depth: int
    accesses: List[Access] = field(default_factory=list)
    work: Work = field(default_factory=Work)
    mmas: List[Op] = field(default_factory=list)
    entries: Optional[np.ndarray] = None    # times a block starts the loop (None: the kernel body)


@dataclass
class Counts:
    fn: Function
    grid: Tuple[int, int, int]
    blocks: int
    regions: List[Region]
    accesses: List[Access]
    assumptions: List[str]
    scalars: GridScalars
    occupancy: Optional[int] = None  # blocks per SM asked by `@ct.kernel(occupancy=...)` for the target

    def innermost_mma_loop(self) -> Optional[Region]:
        """The deepest loop with an `mma` (the first of the deepest), or None."""
        loops = [r for r in self.regions if r.op is not None and r.mmas]
        return max(loops, key=lambda r: r.depth, default=None)

    def ordered_atomics(self) -> List[Access]:
        """The atomics in any memory order but relaxed (acquire-release, the default; acquire;
        release): what orders the kernel's other memory accesses around them."""
        return [a for a in self.accesses if a.kind == "atomic"
                and a.op.attrs.get("memory_order", MemoryOrder.RELAXED) != MemoryOrder.RELAXED]

    def total_work(self) -> Work:
        out = Work()
        for r in self.regions:
            out.add(r.work, float(r.trips.sum()))
        return out


def _trips_words(trips: np.ndarray) -> str:
    """A loop's trip counts over the blocks, in words: one number, or their range."""
    lo, hi = int(trips.min()), int(trips.max())
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def count(fn: Function, grid, values: Optional[Dict[str, Any]] = None) -> Counts:
    """What `fn` does over `grid`; `values`: runtime scalar arguments' values by name, for loop
    bounds and tile indices (as `scalars.checked_values` gives them)."""
    grid3 = tuple(grid) + (1,) * (3 - len(tuple(grid)))
    sc = GridScalars(fn, grid3, values)
    walker = _Walker(fn, sc)
    params = {p.name for p in fn.params}
    given = {k: v for k, v in (values or {}).items() if k in params}
    read = {k: v for k, v in (values or {}).items() if k not in params}
    if given:
        walker.assumptions.append("runtime scalars at the launch's values (loop bounds and tile indices; the "
                                  "build keeps them runtime arguments): "
                                  + ", ".join(f"{k}={v}" for k, v in given.items()))
    if read:
        walker.assumptions.append("values the kernel reads from memory taken as given, in every block (the loops "
                                  "and branches they decide): " + ", ".join(f"{k}={v}" for k, v in read.items()))
    top = Region(None, np.ones(sc.blocks), 0)
    walker.regions.append(top)
    walker.walk(fn.body, top, 1.0)
    accesses = [a for r in walker.regions for a in r.accesses]
    for a in accesses:
        a.executions = float(a.region.trips.sum()) * a.weight
    return Counts(fn, grid3, sc.blocks, walker.regions, accesses, walker.assumptions, sc)


class _Walker:
    def __init__(self, fn: Function, sc: GridScalars):
        self.fn, self.sc = fn, sc
        self.regions: List[Region] = []
        self.assumptions: List[str] = []
        self.readers = fn.body.readers()
        self.params = {v.id: p.name for p in fn.params for v in p.values}
        self.index_lane_values = set()      # results of gathers whose lanes follow a loaded index tile
        self.lanes = PaddedLanes()          # what padded lanes hold, for the divisions (version 70)
        self.counted_loops = set()          # ids of the `while` loops counted as their steps (version 75)

    def note(self, op: Op, text: str) -> None:
        where = f"line {op.loc.line}: " if op.loc else ""
        self.assumptions.append(where + text)

    def walk(self, block, region: Region, weight: float) -> None:
        for op in block.ops:
            if op.name == "for":
                before, offsets = self.sc.bounded, self.sc.offsets
                self.sc.zeroed.clear()
                trips = trip_counts(self.sc, op)
                if trips is not None and self.sc.bounded != before:
                    self.note(op, "loop bound is a min() (a start: a max()) of a value unknown from metadata: "
                                  "counted at its other operand, an upper bound on the trips"
                                  + self._values_hint(op))
                elif trips is not None and self.sc.offsets != offsets:
                    names = ", ".join(f"'{n}'" for n in self.sc.zeroed) or "a runtime scalar"
                    self.note(op, f"loop bound is a min() or max() of a block's position past a runtime offset: "
                                  f"{names} taken as 0, each block's own trip count")
                if trips is None:
                    trips, walked = self._tile_walk_trips(op)
                    if walked:
                        self.note(op, f"loop bound unknown from metadata (a runtime scalar): taken as the "
                                      f"{walked} its variable indexes" + self._values_hint(op))
                    else:
                        trips = np.ones(self.sc.blocks)
                        loaded = arrays_read_for(op.operands[:3], LOAD_OPS, self._array_name)
                        self.note(op, "loop bounds unknown from metadata: counted as 1 iteration"
                                      + (f" (they are read from {loaded} at run time)" if loaded else "")
                                      + (self._values_hint(op) or ("" if loaded else " (a runtime argument given "
                                                                   "as a number in the arguments is counted exactly)")))
                self._loop(op, region, trips, weight)
            elif op.name == "loop":
                counted = counted_trips(op, self.sc, const_int)
                if counted is not None:
                    self.counted_loops.add(id(op))
                trips, walked = (counted, "") if counted is not None else self._stride_walk_trips(op)
                halvings = None if walked or counted is not None else bisection_trips(op, self.sc, const_int)
                if counted is not None:
                    self.note(op, f"while loop: a value stepped to its bound: counted as its "
                                  f"{_trips_words(counted)} steps")
                elif walked:
                    self.note(op, f"while loop: trip count unknown from metadata: taken as the {walked} its "
                                  f"carried values index, shared by the grid's blocks (a grid-stride loop)")
                elif halvings is not None:
                    trips = np.full(self.sc.blocks, float(halvings[0]))
                    self.note(op, f"while loop: a bisection of a span of {halvings[1]}: counted as its "
                                  f"{halvings[0]} halvings")
                else:
                    trips = np.ones(self.sc.blocks)
                    self.note(op, "while loop: counted as 1 iteration")
                self._loop(op, region, trips, weight)
            elif op.name == "if":
                cond = self.sc.value(op.operands[0])
                share = float(np.mean(cond.astype(bool))) if isinstance(cond, np.ndarray) else None
                if cond is VARIANT and region.op is not None and region.op.name == "for":
                    share = self.sc.iteration_share(op.operands[0], region.op)   # e.g. a last, partial tile
                if share is not None:
                    self.walk(op.blocks[0], region, weight * share)
                    self.walk(op.blocks[1], region, weight * (1 - share))
                else:
                    if not (id(region.op) in self.counted_loops and op is region.op.blocks[0].ops[-1]):
                        # (a counted loop's own test: its passes are counted, its break is empty)
                        read = self.sc.unknown_data([op.operands[0]])
                        self.note(op, "branch condition unknown from metadata: both branches counted"
                                  + (f" (it reads {', '.join(repr(n) for n in read)} from memory: "
                                     f"--values {read[0]}=V counts it at that value)" if read else ""))
                    for b in op.blocks:
                        self.walk(b, region, weight)
            else:
                self.visit(op, region, weight)

    def _tile_walk_trips(self, op: Op) -> Tuple[Optional[np.ndarray], str]:
        """Trips of a `for` whose start and step are known but whose stop is not (a runtime scalar
        such as a matmul's K, or a persistent loop's tile count from M and N): the loop is taken
        to walk the tiles its variable indexes — the most tiles of one access whose tile index
        depends on the variable (the product of the array's tile counts along those axes), with
        the array's extents from metadata. (trips, what they cover) or (None, "")."""
        start, stop, step = (self.sc.value(v) for v in op.operands[:3])
        if any(x is None or x is VARIANT for x in (start, step)) or stop is not None or not op.blocks[0].args:
            return None, ""
        var = op.blocks[0].args[0]
        best, what = 0, ""
        for inner in op.blocks[0].walk():
            axes = _tile_axes(inner) or _chunk_axis(inner)
            walked = [(n, k) for v, n, k in axes or () if _depends_on(v, var.id)]
            if not walked:
                continue
            tiles = 0 if any(not isinstance(n, int) for n, _ in walked) else math.prod(-(-n // k) for n, k in walked)
            if tiles > best:
                best, what = tiles, f"{tiles} tiles of '{self._array_name(inner.operands[0])}'"
        if not best:
            return None, ""
        step = np.where(step == 0, 1, step)
        return np.maximum(0, -np.floor_divide(-(best - start), step)).astype(np.float64), what

    def _stride_walk_trips(self, op: Op) -> Tuple[Optional[np.ndarray], str]:
        """Trips of a `while` loop whose stores' tile indices follow its carried values (version 20:
        a persistent kernel's `while tile < total: ...; tile += num_blocks`, the total loaded from
        memory): the loop is taken to store each tile of its largest such output once, the tiles
        shared evenly by the grid's blocks. An output sliced at runtime counts the array it is a
        slice of. (trips, what they cover) or (None, "") when no store follows the carried values."""
        carried = [a.id for a in op.blocks[0].args] if op.blocks else []
        best, what = 0, ""
        for inner in op.blocks[0].walk() if carried else ():
            if inner.name != "store_tile":
                continue
            array = _unsliced(inner.operands[0])
            axes = _tile_axes(inner, array)
            if axes is None or not all(isinstance(n, int) for _, n, _ in axes) \
                    or not any(_depends_on(v, c) for v, _, _ in axes for c in carried):
                continue
            tiles = math.prod(-(-n // k) for _, n, k in axes)
            if tiles > best:
                best, what = tiles, f"{tiles} tiles of '{self._array_name(array)}'"
        if not best:
            return None, ""
        return np.full(self.sc.blocks, -(-best // self.sc.blocks), dtype=np.float64), what

    def _loop(self, op: Op, region: Region, trips: np.ndarray, weight: float) -> None:
        runs = region.trips * trips * weight         # (an if-branch's share of the blocks)
        inner = Region(op, runs, region.depth + 1, entries=region.trips * weight)
        self.regions.append(inner)
        self.walk(op.blocks[0], inner, 1.0)

    # ---- one op -------------------------------------------------------------------

    def visit(self, op: Op, region: Region, weight: float) -> None:
        name = op.name
        if name in ("load_tile", "store_tile", "gather", "scatter", "atomic", "atomic_cas", "tiled_load",
                    "tiled_store", "load_advanced", "store_advanced", "tiled_atomic"):
            acc = self._access(op)
            if acc is not None:
                acc.region, acc.weight = region, weight
                region.accesses.append(acc)
                if acc.kind == "load":
                    self.lanes.loaded(op, acc.pad_fraction)
            return
        self.lanes.visit(op)
        w = Work()
        if name == "mma":
            x, y, c = (v.type for v in op.operands[:3])
            m, k = x.shape[-2:]
            n = y.shape[-1]
            batch = int(np.prod(c.shape[:-2])) if len(c.shape) > 2 else 1
            w.tensor[_mma_kind(x.dtype.name)] = 2.0 * m * n * k * batch
            region.mmas.append(op)
        elif name in ("binary", "fma", "unary", "compare", "where", "reduce", "scan", "astype"):
            t = op.results[0].type
            src = op.operands[0].type
            elems = _elements(src if name in ("reduce", "scan") else t)
            dt = (src if name in ("compare", "astype", "reduce", "scan") else t).dtype
            fn = op.attrs.get("fn", "")
            if name in ("reduce", "scan") and elems > 1:
                w.reductions += 1
            if name == "astype" and src.dtype.is_float != t.dtype.is_float:
                w.conversions += elems
            if dt.is_float:
                if dt.name == "float64":
                    w.fp64 += elems * (2 if name == "fma" else 1)
                else:
                    w.fp32 += elems * (2 if name == "fma" else 1)
                    if name == "unary" and fn in _SFU:
                        w.sfu += elems           # (the SFU rate was measured with its FP32 helpers)
                        w.exp2 += elems if fn == "exp2" else 0.0
                    else:
                        w.fp32_instr += elems * (1 + _EXTRA_INSTR.get(fn, 0))
                    if fn == "truediv" and dt.name == "float32" and _ieee(op) \
                            and not _view_source(op.operands[1]).is_const:     # (a constant: multiplied)
                        w.divisions += elems
                        w.slow_divisions += elems * self.lanes.slow_share(op)
            else:
                w.int_ops += elems
        region.work.add(w, weight)

    def _outside_share(self, op: Op, shape, extents, order) -> Optional[float]:
        """Mean share of a tile access's elements past the array over the grid's blocks, from
        each block's tile index (None when an index varies in a loop or is unknown)."""
        if op.name not in ("load_tile", "store_tile") or order != tuple(range(len(shape))):
            return None
        index = op.operands[1:-1] if op.name == "store_tile" else op.operands[1:]
        if len(index) != len(shape):
            return None
        inside = np.ones(self.sc.blocks)
        for v, ts, n in zip(index, shape, extents):
            x = self.sc.value(v)
            if x is None or x is VARIANT:
                return None
            start = np.broadcast_to(np.asarray(x, dtype=np.float64), (self.sc.blocks,)) * ts
            inside = inside * np.clip(n - start, 0, ts) / ts
        return float(1.0 - inside.mean())

    def _access(self, op: Op) -> Optional[Access]:
        arr_v = op.operands[0]
        t = arr_v.type
        view = t if isinstance(t, TiledViewType) else None
        if view is not None:             # a tiled view's load or store: a tile of the array it views
            t = view.array
        if not isinstance(t, ArrayType):
            return None
        dtype = t.dtype
        itemsize = max(1, dtype.bitwidth // 8)
        name = self._array_name(arr_v)
        kind = {"load_tile": "load", "tiled_load": "load", "load_advanced": "load", "store_tile": "store",
                "tiled_store": "store", "store_advanced": "store", "gather": "gather", "scatter": "scatter"}.get(
                    op.name, "atomic")
        if op.name in ("load_tile", "tiled_load"):
            shape = tuple(op.results[0].type.shape)
        elif op.name in ("store_tile", "tiled_store"):
            shape = tuple(op.operands[-1].type.shape)
        elif op.results and getattr(op.results[0].type, "shape", None):
            shape = tuple(op.results[0].type.shape)          # gather, atomics: the index shape
        else:
            shape = tuple(getattr(op.operands[1].type, "shape", ()) if len(op.operands) > 1 else ())
        elements = int(np.prod(shape)) if shape else 1
        order = tuple(view.order if view is not None else op.attrs.get("order", range(len(shape))))
        item = self._list_item(arr_v)
        if item is not None:
            name += item
        acc = Access(kind, op, name, dtype.name, itemsize, shape, elements, order,
                     check_bounds=bool(op.attrs.get("check_bounds", True)))
        known = all(isinstance(d, int) for d in t.shape)
        acc.array_bytes = known_bytes(t.shape, itemsize)
        root = _unsliced(arr_v).type
        acc.root_bytes = known_bytes(getattr(root.array if isinstance(root, TiledViewType) else root,
                                             "shape", None), itemsize)
        if item == "[?]":        # an item the run picks (a loop's): how many items it reaches is not known
            acc.array_bytes = acc.root_bytes = None
        if kind in ("load", "store") and shape and len(shape) == t.ndim:
            acc.row_bytes = shape[-1] * itemsize if order[-1] == t.ndim - 1 else itemsize
            step = isolated_elements(t)
            if step:                         # no element beside another: as a strided gather's lanes (v103)
                acc.lane_stride, acc.row_bytes = step, itemsize
                if acc.array_bytes:          # (its footprint as DRAM reads it)
                    acc.array_bytes = acc.array_bytes // itemsize * min(DRAM_READ_BYTES, step * itemsize)
            acc.rows = elements // shape[-1]
            acc.transposed = order != tuple(range(len(shape)))
            if known:
                fill, divides = 1.0, True
                for k, ts in enumerate(shape):
                    n = t.shape[order[k]]
                    fill *= n / (-(-n // ts) * ts) if n else 0.0     # (an empty array: all padding)
                    divides = divides and n % ts == 0
                acc.pad_fraction, acc.divides = 1.0 - fill, divides
                outside = self._outside_share(op, shape, t.shape, order)
                if outside is not None:          # the blocks' own tile indices say how much lies past the array
                    acc.pad_fraction = outside
        run = whole_rows_run(t, shape) if kind in ("load", "store") and shape and len(shape) == t.ndim \
            and acc.rows > 1 and order == tuple(range(len(shape))) else None
        if run:
            acc.row_bytes, acc.rows = run * itemsize, elements // run    # whole rows: longer runs of memory
            acc.spans_rows = True
        elif kind in ("load", "store") and known:
            acc.lane_pitch = row_pitch(t, shape, order, itemsize)
        if kind in ("gather", "scatter") and shape and len(op.operands) > t.ndim:
            idx = op.operands[1:1 + t.ndim]
            strides = [last_axis_stride(v, uniform=self._uniform_int) for v in idx]
            if strides[-1] is not None and abs(strides[-1]) > 1 and all(x == 0 for x in strides[:-1]):
                acc.lane_stride = abs(strides[-1])     # e.g. 2 * ct.arange(n): every other element
            along = next((k for k in range(-1, -len(shape) - 1, -1)
                          if axis_stride(idx[-1], k, uniform=self._uniform_int) in (1, -1)
                          and all(axis_stride(x, k, uniform=self._uniform_int) == 0 for x in idx[:-1])), None)
            if along is None and len(shape) == 1 and all(x == 0 for x in strides[:-1]) \
                    and runs_of_lanes(idx[-1], self._uniform_int):
                along = -1           # a compaction's running counts: runs of consecutive elements (v71)
            if along is not None:
                # e.g. offset ± ct.arange(n) on the last axis; or on another tile axis (a weight
                # tile gathered as (rows[None, :], cols[:, None]): its columns run along memory)
                acc.contiguous = True
                acc.row_bytes, acc.rows = shape[along] * itemsize, elements // shape[along]
                acc.transposed = along != -1
                if along == -2:              # the lanes go down the tile's rows: along memory
                    acc.lane_pitch = itemsize
                if along == -1 and acc.rows > 1 and known:
                    acc.line_count = lines_per_instruction(self.sc, idx, t.shape, itemsize) or 0.0
                if kind == "gather" and acc.rows > 1 and any(_loaded_rows(v) for v in idx[:-1]):
                    acc.index_lanes = True
                    self.index_lane_values.update(r.id for r in op.results)
            elif not acc.lane_stride and known:
                acc.sector_share = sector_share(self.sc, idx, t.shape, itemsize) or 0.0
                if len(shape) > 1 and shape[-1] == 1:       # lanes down a column: a line each, a row apart (v89)
                    acc.line_count = lines_per_instruction(self.sc, idx, t.shape, itemsize) or 0.0
                    if acc.line_count:
                        acc.rows = elements
            # a 1-D index whose neighbouring lanes span more lines than a run of them would (v96)
            if len(shape) == 1 and known and not acc.contiguous:
                lines = lines_per_instruction(self.sc, idx, t.shape, itemsize) or 0.0
                acc.line_count = lines if lines > -(-WARP_LANES * itemsize // LINE_BYTES) else 0.0
        if kind == "gather" and t.ndim == 1 and not acc.contiguous:    # each lane where loaded data says (v94)
            source = _view_source(op.operands[1]).owner
            acc.picked_index = source is not None and source.name in LOAD_OPS
        if kind == "store" and op.name == "store_tile" and _view_source(op.operands[-1]).id in self.index_lane_values:
            acc.index_lanes = True                     # the gathered tile stored as the gather laid it out
        if kind == "load" and op.results:
            use = self._mma_use(op.results[0])
            if use is not None:
                index, permuted, acc.mma_dtype = use
                acc.feeds_mma = True
                acc.transposed = acc.transposed or permuted
                # an operand laid the other way in memory (B with K contiguous, A with M): read
                # through order=, or permuted on the way (tileiras folds the permute into the load)
                flipped = (order != tuple(range(len(shape)))) != permuted
                acc.operand = ("a-mmajor" if flipped else "a") if index == 0 else ("b-kmajor" if flipped else "b")
        if kind == "gather" and op.results:      # a gathered operand: only its mma dtype is recorded (v14)
            use = self._mma_use(op.results[0])
            acc.mma_dtype = use[2] if use is not None else ""
        return acc

    def _mma_use(self, v: Value, permuted: bool = False, depth: int = 0) -> Optional[Tuple[int, bool, str]]:
        """(operand index, whether a permute lies on the way, the operand's dtype at the mma) when
        `v` reaches an mma operand through view ops, else None."""
        if depth > 6:
            return None
        for user in self.readers.get(v.id, ()):
            if user.name == "mma":
                for k, o in enumerate(user.operands[:2]):
                    if o is v:
                        return k, permuted, o.type.dtype.name
            if user.name in _VIEW_OPS:
                hit = self._mma_use(user.results[0], permuted or user.name == "permute", depth + 1)
                if hit is not None:
                    return hit
        return None

    def _values_hint(self, loop: Op) -> str:
        """The tail of a loop's assumption naming the runtime integer parameters its bounds are
        computed from whose values were not given, with the `--values` that counts it exactly
        ('' where there are none)."""
        names = self.sc.unknown_scalars(loop.operands[:3])
        if not names:
            return ""
        given = ",".join(f"{n}=..." for n in names)
        quoted = ", ".join(f"'{n}'" for n in names)
        return (f"; set by runtime scalar{'s' if len(names) > 1 else ''} {quoted}, not given: "
                f"`--values {given}` (`values=` from Python) counts it exactly")

    def _uniform_int(self, v: Value) -> Optional[int]:
        """The integer a uniform value holds in every block: a constant, or a computation on the
        block's scalars whose runtime arguments' values are given (`count`'s `values`)."""
        c = const_int(v)
        if c is not None or not self.sc.known:
            return c
        while v.owner is not None and v.owner.name in ("broadcast", "reshape") and v.owner.operands:
            v = v.owner.operands[0]              # (a scalar broadcast to the index tile's shape)
        x = self.sc.value(v)
        if not isinstance(x, np.ndarray) or x.size == 0 or not np.issubdtype(x.dtype, np.integer):
            return None
        first = x.flat[0]
        return int(first) if np.all(x == first) else None

    def _list_item(self, v: Value) -> Optional[str]:
        """For an array that is an item of a list-of-arrays parameter: "[k]" where the item is a
        constant k (each item is an array of its own), "[?]" where it is a run-time value (a loop
        over the items reads a different array each step); None for other arrays."""
        while v.owner is not None and v.owner.operands:
            if v.owner.name == "list_item":
                k = self._uniform_int(v.owner.operands[1])
                return "[?]" if k is None else f"[{k}]"
            v = v.owner.operands[0]
        return None

    def _array_name(self, v: Value) -> str:
        while v.owner is not None and v.owner.operands:
            v = v.owner.operands[0]
        return self.params.get(v.id, v.name or "array")


def _unsliced(v: Value) -> Value:
    """The array `v` is a slice of (through slices of slices); `v` itself where it is no slice."""
    while v.owner is not None and v.owner.name == "array_slice":
        v = v.owner.operands[0]
    return v


# tile accesses with a data-given axis (advanced indexing): element by element, never an accelerator copy
INDEXED_TILE_OPS = ("load_advanced", "store_advanced")


def _tile_axes(op: Op, array: Optional[Value] = None) -> Optional[List[Tuple[Value, Any, int]]]:
    """For a tile load or store: (index operand, extent of the array axis it walks — None where the
    metadata leaves it unknown —, the tile's size along it) per tile axis, through the tile's
    `order`; None for other ops and tiles whose rank is not the array's. `array`: the array to
    measure (default: the one accessed)."""
    if op.name not in ("load_tile", "store_tile"):
        return None
    store = op.name == "store_tile"
    t = (array if array is not None else op.operands[0]).type
    index = op.operands[1:-1] if store else op.operands[1:]
    shape = tuple((op.operands[-1] if store else op.results[0]).type.shape)
    order = tuple(op.attrs.get("order", range(len(shape))))
    if not isinstance(t, ArrayType) or len(index) != len(shape) or len(shape) != t.ndim:
        return None
    return [(v, t.shape[order[k]], shape[k]) for k, v in enumerate(index)]


def _chunk_axis(op: Op) -> Optional[List[Tuple[Value, Any, int]]]:
    """For a gather or scatter whose lanes run along the array's rows (the last axis's index steps
    by one along the tile's last axis, e.g. `chunk * BLOCK + ct.arange(BLOCK)`): that index, the
    rows' extent and the lanes per row, as `_tile_axes` gives for tiles (version 24: a loop over a
    row's chunks by gathers walks them as a tile loop walks tiles). None for other ops."""
    if op.name not in ("gather", "scatter") or not isinstance(op.operands[0].type, ArrayType):
        return None
    t = op.operands[0].type
    index = op.operands[1:1 + t.ndim]
    lanes = tuple(getattr(index[-1].type, "shape", ()) or ()) if len(index) == t.ndim else ()
    if not lanes or lanes[-1] == 1 or last_axis_stride(index[-1]) not in (1, -1):
        return None
    return [(index[-1], t.shape[-1], lanes[-1])]


def _depends_on(v: Value, var_id: int, depth: int = 0) -> bool:
    """Whether scalar `v` is computed from the value `var_id` (a loop variable)."""
    if v.id == var_id:
        return True
    op = v.owner
    if op is None or depth > 24 or op.name in ("load_tile", "gather", "for", "loop", "if"):
        return False
    return any(_depends_on(o, var_id, depth + 1) for o in op.operands)


def indexed_by_loads(op: Op) -> bool:
    """Whether a gather's or scatter's index is computed from loaded values (a routing table's
    expert ids): where it reads follows the data, not the loop."""
    if op.name not in ("gather", "scatter") or not isinstance(op.operands[0].type, ArrayType):
        return False
    return bool(loads_feeding(op.operands[1:1 + op.operands[0].type.ndim], LOAD_OPS))


def _view_source(v: Value, depth: int = 0) -> Value:
    """The value a tile is a view or conversion of (through reshape, permute, astype, broadcast)."""
    op = v.owner
    if op is None or op.name not in _VIEW_OPS or not op.operands or depth > 8:
        return v
    return _view_source(op.operands[0], depth + 1)


def _loaded_rows(v: Value) -> bool:
    """A gather index of several rows, one loaded index a row (`idx_tile[:, None]` of token ids):
    tileiras lays the gathered tile out as it holds the loaded index tile, a lane a row, so in
    element-by-element code a warp's access touches 32 rows (the embedding gather's SASS: the row of
    a lane is `bid·64 + tid % 64`), as the 2-D copy microbenchmarks' tiles do (version 14)."""
    shape = tuple(getattr(v.type, "shape", ()) or ())
    if len(shape) < 2 or int(np.prod(shape[:-1])) <= 1:
        return False
    if shape[-1] != 1 and last_axis_stride(v) != 0:          # one index a row, broadcast along it
        return False
    src = _view_source(v)
    return src.owner is not None and src.owner.name in LOAD_OPS


def _ieee(op: Op) -> bool:
    """A division rounded as IEEE prescribes (its slow path included), not approximately."""
    mode = op.attrs.get("rounding_mode")
    return mode not in (RoundingMode.APPROX, RoundingMode.FULL)


def _elements(t) -> int:
    return int(np.prod(t.shape)) if isinstance(t, TileType) and t.shape else 1


def _mma_kind(dtype: str) -> str:
    return {"bfloat16": "bfloat16", "float16": "float16", "float32": "float32", "tfloat32": "tfloat32",
            "float64": "float64", "int8": "int8", "uint8": "int8"}.get(dtype, "float8" if "float8" in dtype
                                                                         else dtype)


def tile_keys(sc: GridScalars, acc: Access) -> Optional[np.ndarray]:
    """(blocks, k) tile-index components of a tile access that stay fixed through its loop
    (components that change per iteration are left out), or None when unknown."""
    if acc.op.name not in ("load_tile", "store_tile"):
        return None
    ops = acc.op.operands[1:-1] if acc.op.name == "store_tile" else acc.op.operands[1:]
    cols = []
    for v in ops:
        x = sc.value(v)
        if x is VARIANT:
            # a component that changes with the loop is left out where every block starts at the same
            # value (the k of a matmul); where blocks start apart (a flat index mixing the block and
            # the loop variable, a persistent kernel's tile), its first value tells them apart (v11)
            x = sc.at_first_iteration(v)
            if x is None or x is VARIANT:
                return None             # the data picks the tile: no block is known to share it (v39)
            if not isinstance(x, np.ndarray) or np.all(x == np.broadcast_to(x, (sc.blocks,))[0]):
                continue
        if x is None:
            return None
        cols.append(np.broadcast_to(np.asarray(x, dtype=np.int64), (sc.blocks,)))
    if not cols:
        return np.zeros((sc.blocks, 1), np.int64)
    return np.stack(cols, axis=1)
