"""Without a cubin: an estimate, from the final IR and metadata, of what tileiras's cubin would say
(cubin_facts.CubinFacts), so that the model runs the same time mechanisms either way.

Each fact follows from what the IR shows (rules in docs/cost-model.md, version 13; checked
against the cubins tileiras builds, never against times):
- accesses the tensor memory accelerator copies: for arrays known aligned with a unit last stride,
  tiles that feed an `mma`, and the tile loads of row kernels that reduce (a `sum`-like reduction
  of a loaded row), unless the load says `allow_tma=False`;
- block size: 256 threads where the accelerator feeds the kernel (warp-specialised), else 128;
- access width: bytes one LDG/STG moves per thread — a thread's contiguous share of a tile row,
  at most 16, for tile accesses of aligned arrays whose tiles divide them; the element size otherwise;
- memory instructions in the code: each access's elements per thread over its width, once per op;
- registers: the register ceiling for `mma` and accelerator-fed kernels, else a base plus the
  largest tiles a thread holds;
- loads in flight: a thread's loads of one tile are issued together when the code converts
  nothing between them (32-bit data, or 16-bit data added without leaving 16 bits), else one at
  a time.
"""
from __future__ import annotations

import math
from typing import Iterable, List

import numpy as np

from ..ir.types import TileType
from .counts import Access, Counts
from .cubin_facts import CubinFacts

THREADS = 128                 # one warpgroup: what tileiras picks for plain code
FED_THREADS = 256             # warp-specialised code the accelerator feeds (producer + consumers)
MAX_REGISTERS = 255
MAX_VECTOR_BYTES = 16         # LDG.128 / STG.128
BASE_REGISTERS = 24           # addresses, indices and loop state of the plainest cubins
CODE_PER_BLOCK = 60           # instructions of set-up and exit around the memory instructions
CODE_PER_ACCESS = 18          # address arithmetic, bounds test and the access itself


def estimate_facts(counts: Counts, aligned: bool) -> CubinFacts:
    """What tileiras would most likely build for this kernel (sm_90): see the module's rules."""
    fn = counts.fn
    has_mma = any(r.mmas for r in counts.regions)
    copied_loads, copied_stores = _accelerator_copies(counts, aligned, has_mma)
    copied = _ids(copied_loads) | _ids(copied_stores)
    threads = FED_THREADS if copied_loads else THREADS
    plain = [a for a in counts.accesses if a.kind != "atomic" and id(a) not in copied]
    widths = {id(a): _width(a, aligned, threads) for a in plain}
    loads = [a for a in plain if a.kind in ("load", "gather")]
    stores = [a for a in plain if a.kind in ("store", "scatter")]
    n_loads = sum(_instructions(a, threads, widths[id(a)]) for a in loads)
    n_stores = sum(_instructions(a, threads, widths[id(a)]) for a in stores)
    moved = sum(_instructions(a, threads, widths[id(a)]) * widths[id(a)] for a in plain)
    loaded = sum(_instructions(a, threads, widths[id(a)]) * widths[id(a)] for a in loads)
    registers = MAX_REGISTERS if (has_mma or threads == FED_THREADS) else _registers(fn, threads)
    return CubinFacts(
        fn.name, threads=threads, registers=registers, shared_bytes=0, local_bytes=0,
        instructions=int(CODE_PER_BLOCK + CODE_PER_ACCESS * (n_loads + n_stores)),
        global_loads=int(round(n_loads)), global_stores=int(round(n_stores)), local_loads=0, local_stores=0,
        tma_loads=len(copied_loads), tma_stores=len(copied_stores),
        global_access_bytes=moved / (n_loads + n_stores) if n_loads + n_stores else None,
        global_load_bytes=loaded / n_loads if n_loads else None,
        loads_in_flight=_loads_in_flight(counts, loads, threads, widths) if n_loads else None)


def _accelerator_copies(counts: Counts, aligned: bool, has_mma: bool):
    if not aligned:
        return [], []
    tiles = [a for a in counts.accesses if a.kind in ("load", "store") and a.op.attrs.get("allow_tma") is not False]
    if has_mma:
        return [a for a in tiles if a.kind == "load"], [a for a in tiles if a.kind == "store" and a.rows > 1]
    if not _reduces(counts):
        return [], []
    return [a for a in tiles if a.kind == "load" and a.elements >= 256], []


def _reduces(counts: Counts) -> bool:
    """A row kernel: a loaded tile summed across (not an arg-max search)."""
    return any(op.name == "reduce" and op.attrs.get("fn") in ("add", "sum") for op in counts.fn.walk())


def _width(a: Access, aligned: bool, threads: int) -> float:
    """Bytes one instruction moves per thread for this access: for a tile of an aligned array that
    the tiles divide, a thread's share of a contiguous run (up to 16 bytes); else one element."""
    if not aligned or a.kind not in ("load", "store") or not a.divides or a.transposed or not a.shape:
        return float(a.itemsize)
    share = a.elements * a.itemsize // threads
    per_thread = max(a.itemsize, min(MAX_VECTOR_BYTES, share, a.row_bytes))
    return float(2 ** int(math.log2(per_thread)))


def _instructions(a: Access, threads: int, width: float) -> float:
    """Memory instructions of this access in the code (per thread, once per op)."""
    return max(1.0, a.elements * a.itemsize / threads / width)


def _registers(fn, threads: int) -> int:
    """A base plus the 32-bit registers of the two largest tiles a thread holds at once."""
    sizes = sorted((_tile_words(r.type) for op in fn.walk() for r in op.results), reverse=True)
    regs = BASE_REGISTERS + sum(sizes[:2]) / threads
    return int(min(MAX_REGISTERS, math.ceil(regs / 8) * 8))


def _tile_words(t) -> float:
    if isinstance(t, TileType) and t.shape:
        return float(np.prod(t.shape)) * max(1, t.dtype.bitwidth // 8) / 4
    return 0.0


def _loads_in_flight(counts: Counts, loads: List[Access], threads: int, widths) -> float:
    """A thread's loads of a tile are issued together unless the code converts each element on the
    way (16-bit data widened to 32 bits), in which case it waits on each load before the next."""
    total = sum(_instructions(a, threads, widths[id(a)]) for a in loads)
    runs = sum(1 if _batched(counts, a) else _instructions(a, threads, widths[id(a)]) for a in loads)
    return total / runs if runs else 1.0


def _batched(counts: Counts, a: Access) -> bool:
    return a.itemsize >= 4 or not _widened(counts, a)


def _widened(counts: Counts, a: Access) -> bool:
    """Whether the loaded 16-bit tile is converted to a wider type (astype) before use."""
    if not a.op.results:
        return False
    seen, todo = set(), [a.op.results[0]]
    readers = counts.fn.body.readers()
    while todo:
        v = todo.pop()
        if v.id in seen:
            continue
        seen.add(v.id)
        for user in readers.get(v.id, ()):
            if user.name == "astype":
                return True
            if user.name in ("reshape", "permute", "broadcast") and user.results:
                todo.append(user.results[0])
    return False


def _ids(accs: Iterable[Access]):
    return {id(a) for a in accs}
