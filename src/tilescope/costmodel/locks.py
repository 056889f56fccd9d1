"""Critical sections under spin locks (model version 14), and the waits of fenced atomics (17).

A kernel that takes a lock spins on `ct.atomic_cas(Locks, i, 0, 1)` in a `while` loop, works on
data other blocks also update, and gives the lock back with an atomic exchange (or another
atomic) on the same array. The blocks that share a lock run their sections one after another,
so a launch lasts at least the sections of its busiest lock, each:
- the acquire: the winning compare-and-swap's round trip;
- the loads inside: a round trip per batch of loads a thread issues before it waits on one
  (the code's loads in flight; accelerator copies: one copy's latency), and their transfer;
- the stores inside: their transfer; bulk stores (UTMASTG) first leave shared memory (the drain
  of version 13);
- the release: its fence and atomic, a round trip before the next block's compare-and-swap can
  succeed.
Every constant is an existing microbenchmark's: the round trip of one block's plain load
(`load_chain`: 0.33 µs), the transfer per KiB of the same law (loads and stores), the
accelerator copy's law, and the bulk-store drain.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import List, Optional

import numpy as np

from ..enums import MemoryOrder
from ..ir.core import Block, Op
from .counts import Access, Counts, Region
from .cubin_facts import THREADS, CubinFacts
from .schedule import DRAIN_US, DRAIN_US_PER_KIB, threads, tma_copied, vector_width


@dataclass
class Lock:
    region: Region                   # the region whose runs each take the lock once
    array: str
    keys: Optional[np.ndarray]       # the lock each block takes (None: unknown from metadata)
    locks: int                       # how many locks the array holds
    accesses: List[Access] = field(default_factory=list)      # between the acquire and the release


def find_locks(counts: Counts) -> List[Lock]:
    """The spin locks of a kernel: a `while` loop around an `atomic_cas`, and the accesses that
    follow it in the same region up to the next atomic on the lock array (the release)."""
    out: List[Lock] = []
    top = [r for r in counts.regions if r.op is None]
    for r in top + [r for r in counts.regions if r.op is not None]:
        block = counts.fn.body if r.op is None else r.op.blocks[0]
        _scan(block, r, counts, out)
    return out


def _scan(block: Block, region: Region, counts: Counts, out: List[Lock]) -> None:
    by_op = {id(a.op): a for a in region.accesses}
    held: Optional[Lock] = None
    for op in block.ops:
        cas = _acquire(op)
        if cas is not None:
            held = _lock(cas, region, counts)
            out.append(held)
        elif op.name == "if":                       # a lock taken inside a branch of this region
            for b in op.blocks:
                _scan(b, region, counts, out)
        elif held is not None:
            for inner in [op] + [x for b in op.blocks for x in b.walk()]:
                acc = by_op.get(id(inner))
                if acc is None:
                    continue
                if acc.kind == "atomic" and acc.array == held.array:
                    held = None                     # released
                    break
                held.accesses.append(acc)


def _acquire(op: Op) -> Optional[Op]:
    if op.name != "loop":
        return None
    return next((x for b in op.blocks for x in b.walk() if x.name == "atomic_cas"), None)


def _lock(cas: Op, region: Region, counts: Counts) -> Lock:
    arr = cas.operands[0]
    name = next((a.array for a in counts.accesses if a.op is cas), "locks")
    shape = getattr(arr.type, "shape", ())
    locks = int(np.prod(shape)) if shape and all(isinstance(d, int) for d in shape) else 1
    key = counts.scalars.value(cas.operands[1]) if len(cas.operands) > 1 else None
    keys = np.broadcast_to(np.asarray(key), (counts.blocks,)) if isinstance(key, np.ndarray) else None
    return Lock(region, name, keys, max(1, locks))


def section_us(lock: Lock, counts: Counts, facts: Optional[CubinFacts], load_us, load_us_tma) -> float:
    """One critical section's time (µs at the reference clock)."""
    rtt, per_kib = load_us
    kib = lambda accs: sum(a.bytes * (1 - a.pad_fraction) * a.weight for a in accs) / 1024      # noqa: E731
    loads = [a for a in lock.accesses if a.kind in ("load", "gather")]
    stores = [a for a in lock.accesses if a.kind in ("store", "scatter")]
    t = 2 * rtt                                      # the acquire and the release
    bulk = [a for a in loads if tma_copied(a, facts)]
    plain = [a for a in loads if not tma_copied(a, facts)]
    if bulk:
        t += load_us_tma[0] + load_us_tma[1] * kib(bulk)
    if plain:
        per_thread = sum(a.elements * a.weight for a in plain) / threads(facts) / vector_width(counts, facts)
        batch = max(1.0, (facts.loads_in_flight or 1.0) if facts else 1.0)
        t += math.ceil(per_thread / batch - 1e-9) * rtt + per_kib * kib(plain)
    bulk_stores = [a for a in stores if tma_copied(a, facts)]
    if bulk_stores:
        t += DRAIN_US + DRAIN_US_PER_KIB * kib(bulk_stores)
    t += per_kib * kib([a for a in stores if not tma_copied(a, facts)])
    return t


def locks_us(counts: Counts, facts: Optional[CubinFacts], load_us, load_us_tma, slow: float) -> float:
    """The busiest lock's sections one after another (0 for a kernel without locks)."""
    worst = 0.0
    for lock in find_locks(counts):
        runs = np.asarray(lock.region.trips, dtype=np.float64)
        if lock.keys is not None:
            _, which = np.unique(lock.keys, return_inverse=True)      # (lock indices may be far apart)
            sections = float(np.bincount(which.ravel(), weights=runs).max())
        else:                                        # unknown: the blocks spread evenly over the locks
            sections = float(runs.sum()) / lock.locks
        worst = max(worst, sections * section_us(lock, counts, facts, load_us, load_us_tma) * slow)
    return worst


# Fenced scalar atomics (version 17): `atomic_scalar_loop` (bench/cost_kernels.py), 256 float atomic
# adds a block in the default acquire-release order, which tileiras builds as MEMBAR.ALL.GPU, an
# ATOMG that returns the old value, and CCTL.IVALL (bench/results/cost_micro17_h200.json):
# - one address every block hits (1,056 blocks of one warp, 8 per SM): 490.5 µs for 270,336 atomics,
#   1.815 ns each one after another (relaxed order: 1.77 ns) — the L2 resolves one lane's atomic on an
#   address at that rate; the 86 ns of `atomic_random_1024` is a tile's lanes scattered over few lines;
# - one address per block (132 blocks, one per SM): 147.4 µs for 256 fenced atomics in a row, 0.576 µs
#   each; 8 blocks per SM took no longer (139.5 µs): the fence and the awaited value are a wait on the
#   block's path, not a throughput.
SAME_ADDRESS_NS = 1.815
FENCED_ATOMIC_US = 0.576
# A block that runs alone on its SM (one block an SM: a launch's 256-thread builds at the register
# ceiling) waits longer for the fenced atomic that ends it: `sum_atomic` as launched (a tile's sum
# added into one element; 256 and 1,024 lanes, float32 and float64;
# bench/results/cost_micro33_atomics_h200.json) took 0.30-0.38 µs a block more than version 34
# charged, 0.355 on average (docs history 65)
FENCED_ATOMIC_ALONE_US = 0.355


def derive_atomic_constants(cases) -> "tuple[float, float]":
    """(SAME_ADDRESS_NS, FENCED_ATOMIC_US) from the atomic_scalar_loop microbenchmark times."""
    same = cases["atomic_scalar_same_g1056"]["us"] * 1e3 / (1056 * 256)
    fenced = cases["atomic_scalar_own_g132"]["us"] / 256
    return same, fenced


def _fenced(a: Access) -> bool:
    """An atomic read-modify-write in acquire-release order (the default): a fence before it and its
    value awaited after it. Lock acquires and releases (compare-and-swap, acquire or release order)
    are the sections' own round trips (`section_us`)."""
    return a.kind == "atomic" and a.op.name == "atomic" and a.op.attrs.get("memory_order") == MemoryOrder.ACQ_REL


def fenced_atomics_us(region: Region, alone: bool = False, block_threads: int = THREADS) -> float:
    """What one run of `region` waits on its fenced atomics: a fenced round trip each (µs at the
    reference clock), and more in a block that runs alone on its SM (`alone`, version 35). A tile
    atomic is a thread's share of its lanes one after another, each behind its own fence (v44)."""
    return sum(a.weight * lane_turns(a, block_threads) for a in region.accesses if _fenced(a)) * fenced_wait_us(alone)


def fenced_wait_us(alone: bool = False) -> float:
    """One fenced atomic's round trip (µs at the reference clock), longer for a block alone on its SM."""
    return FENCED_ATOMIC_US + (FENCED_ATOMIC_ALONE_US if alone else 0.0)


def lane_turns(a: Access, block_threads: int) -> int:
    """How many of a tile access's elements each thread of the block takes, one after another."""
    return max(1, -(-int(a.elements) // max(1, block_threads)))


def scalar_atomics_us(a: Access, counts: Counts) -> Optional[float]:
    """A scalar atomic (one lane's) over the grid: those on one address one after another, the
    busiest address's count × SAME_ADDRESS_NS (µs at the reference clock); the address each block
    hits is evaluated from the grid's scalars (unknown: the blocks spread evenly over the array).
    None for tile atomics."""
    if a.kind != "atomic" or a.elements != 1 or a.op.name != "atomic":
        return None
    runs = np.asarray(a.region.trips, dtype=np.float64) * a.weight
    ndim = len(getattr(a.op.operands[0].type, "shape", ()) or ())
    keys = [counts.scalars.value(v) for v in a.op.operands[1:1 + ndim]]
    if ndim and all(isinstance(k, np.ndarray) for k in keys):
        cols = np.stack([np.broadcast_to(k, (counts.blocks,)) for k in keys], axis=1)
        _, which = np.unique(cols, axis=0, return_inverse=True)
        busiest = float(np.bincount(which.ravel(), weights=runs).max())
    else:
        elements = a.array_bytes / a.itemsize if a.array_bytes else float(runs.sum())
        busiest = float(runs.sum()) / max(1.0, min(float(runs.sum()), elements))
    return busiest * SAME_ADDRESS_NS * 1e-3
