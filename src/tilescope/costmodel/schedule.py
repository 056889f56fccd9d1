"""The block schedule: threads, registers and spills, from the cubin when there is one (model
version 6), else estimated from the IR (versions 1–5).

What the cubin changes (cubin_facts.py reads it):
- occupancy: blocks per SM from the block size, registers (allocated per warp in 256-register
  units) and shared memory tileiras chose, instead of a guess from the tile sizes;
- issue: the instructions the grid executes, from the kernel's code — each warp runs the code
  once per block, more often where the accesses the IR counts outnumber the code's memory
  instructions (loops) — instead of per-element constants;
- spills: code that reloads spilled values from local memory (LDL) runs its loads one after
  another: each global load waits for its reloads, each a memory round trip;
- vector and bulk accesses (version 7): for arrays known to be aligned, with divisible extents,
  tileiras loads up to 16 bytes a thread per instruction (LDG.128) and may copy whole tiles with
  the tensor memory accelerator (UTMALDG/UTMASTG); the per-access wait and issue are charged per
  instruction, not per element, and tiles the accelerator copies are not element accesses at all.
"""
from __future__ import annotations

import math
from typing import Callable, List, Optional

import numpy as np

from ..ir.types import TileType
from .counts import Access, Counts, Region
from .index_steps import const_int
from .cubin_facts import L1_BYTES_PER_CLK, MAX_REGISTERS, THREADS, CubinFacts
from .estimated_facts import SPILL_ACCUMULATOR_WORDS, copyable
from .gpus import GPU
from .l2_kept import left_in_l2
from .instructions import PER_ELEMENT
from .lane_offsets import WARP_LANES
from .picked_gathers import is_pick

REGISTER_UNIT = 256                  # registers are allocated per warp in units of 256
# a thread's loads from which a cubin loop over straight-line IR's tiles sets the loads in flight (v55)
WALKED_LOADS = 4
SHARED_RESERVED = 1024               # shared memory the driver reserves per block (sm_80+)
# loads a thread has in flight in the copy-loop microbenchmarks the access wait was measured on
# (their cubins: 8 for 1,024-element tiles, 10.7 for 4,096): code with more waits less per access
ACCESS_WAIT_IN_FLIGHT = 8.0
# a global load's round trip in a streaming kernel (µs): the 4,096-element copy microbenchmarks
# (copy_f32_t4096, copy_f16_t4096: 24 warps resident per SM, 1.33 loads of 4 or 2 bytes in flight per
# thread) read 32·24·1.33·bytes per SM per round trip at 0.570 and 0.514 µs; the mean (version 12)
LOADED_LATENCY_US = 0.54
# a dependent load's round trip from L1 (µs; version 16): chase_l1_g132 (bench/results/cost_micro16_h200.json:
# one warp a block, one block per SM, 4,096 gathers each reading the next index from an 8 KiB array)
# takes 103.4 µs, less the 0.71 µs launch: 0.0251 µs a step; the same chase through 16 MiB (L2) takes
# 0.160 µs a step, through 1 GiB (DRAM) 0.361
L1_HIT_US = 0.0251
L2_HIT_US = 0.160       # the chase through 16 MiB: L2's round trip (version 23)
DRAM_HIT_US = 0.361     # the chase through 1 GiB: DRAM's round trip (version 62)
# the end of a block whose code has bulk stores (version 13; version 7 charged one load round trip,
# 0.33 µs): the launch builds of row_scale_by_sum (bench/results/cost_micro13_h200.json: one f32 row
# of 1,024 or 4,096 elements per 256-thread block, one block per SM, 125 waves; accelerator loads
# and stores) take 188.7 and 385.1 µs where the rest of the model gives 142.4 and 232.7 µs: their
# blocks wait 0.697 and 1.546 µs after the stores are issued, 0.414 µs + 0.0708 µs per KiB stored.
# Since version 70 the model charges those rows' divisions (divisions.py): 0.413 µs + 0.0376 µs per KiB
DRAIN_US, DRAIN_US_PER_KIB, DRAIN_LONGEST_KIB = 0.413, 0.0376, 16.0


def threads(facts: Optional[CubinFacts]) -> int:
    return facts.threads if facts else THREADS


def blocks_per_sm(counts: Counts, gpu: GPU, facts: Optional[CubinFacts] = None) -> int:
    """Blocks resident per SM: from the cubin's threads, registers and shared memory, or, without
    it, estimated: kernels with mma hold ~255 registers per thread (every sm_90 cubin seen:
    206–255), so two 128-thread blocks; others are limited by registers estimated from their
    largest tiles, and by the warps an SM holds."""
    if facts is not None:
        warps = -(-facts.threads // 32)
        per_warp = math.ceil(facts.registers * 32 / REGISTER_UNIT) * REGISTER_UNIT
        by_regs = gpu.regs_per_sm // (warps * per_warp)
        shared = facts.shared_bytes + SHARED_RESERVED
        by_shared = gpu.smem_per_sm_kb * 1024 // shared
        return max(1, min(gpu.max_warps_per_sm // warps, gpu.max_blocks_per_sm, by_regs, by_shared))
    fn = counts.fn
    if any(op.name == "mma" for op in fn.walk()):
        return max(1, gpu.regs_per_sm // (THREADS * 256))
    sizes = sorted((_tile_bytes(r.type) for op in fn.walk() for r in op.results), reverse=True)
    live = sum(sizes[:2])
    regs = 32 + 1.5 * live / THREADS / 4
    regs = int(math.ceil(regs / 8) * 8)
    by_regs = gpu.regs_per_sm // (THREADS * min(regs, MAX_REGISTERS))
    return max(1, min(gpu.max_warps_per_sm // (THREADS // 32), gpu.max_blocks_per_sm, by_regs))


def _tile_bytes(t) -> int:
    if isinstance(t, TileType) and t.shape:
        return int(np.prod(t.shape)) * max(1, t.dtype.bitwidth // 8)
    return 0


def tma_copied(a: Access, facts: Optional[CubinFacts]) -> bool:
    """A tile load (store) that the cubin performs with the tensor memory accelerator: tileiras
    uses it for tile accesses only, never for gathers, scatters, atomics or tiles with an axis an
    index tile gives (advanced indexing, version 48), and a tile of fewer than 16 bytes is no
    accelerator copy (version 38: a copy's box spans a multiple of 16 bytes along its innermost
    axis; such tiles, a weight or a row pointer a step, are element loads): `copyable`."""
    if not facts or not copyable(a):
        return False
    return (a.kind == "load" and bool(facts.tma_loads)) or (a.kind == "store" and bool(facts.tma_stores))


def fed_loop(r: Region, facts: Optional[CubinFacts]) -> bool:
    """A loop whose tile loads the accelerator copies: producer warps run ahead of the others."""
    return r.op is not None and any(tma_copied(a, facts) for a in r.accesses if a.kind == "load")


def element_accesses(counts: Counts, facts: Optional[CubinFacts], operands: bool = True) -> List[Access]:
    """The accesses made element by element (LDG/STG per thread), not by the accelerator. A cubin
    with accelerator loads and not a single LDG makes none of its reads so, gathers included: it
    copies their rows to shared memory 16 bytes at a time (LDGSTS), as it does gathered operand
    rows (version 73)."""
    no_ldg = facts is not None and facts.global_loads == 0 and bool(facts.tma_loads)
    return [a for a in counts.accesses if a.kind != "atomic" and not tma_copied(a, facts)
            and not (no_ldg and a.kind in ("load", "gather")) and (operands or not a.feeds_mma)]


def vector_width(counts: Counts, facts: Optional[CubinFacts]) -> float:
    """Elements one LDG/STG moves per thread: the code's mean access width over the mean element
    size of the accesses (1 for the scalar loads of dynamically shaped arrays)."""
    if not facts or not facts.global_access_bytes:
        return 1.0
    accs = element_accesses(counts, facts)
    elements = sum(a.elements for a in accs)
    if not elements:
        return 1.0
    itemsize = sum(a.elements * a.itemsize for a in accs) / elements
    return max(1.0, facts.global_access_bytes / itemsize)


def _accesses_per_thread(counts: Counts, facts: CubinFacts) -> float:
    """Memory instructions (element loads and stores, over the vector width) a thread makes in all."""
    total = sum(a.elements * a.executions for a in element_accesses(counts, facts))
    return total / facts.threads / vector_width(counts, facts)


def code_instructions(counts: Counts, facts: CubinFacts) -> Optional[float]:
    """Warp instructions the grid executes, from the code: every warp of every block runs it once
    (less the subroutines it calls, slow paths ordinary data does not take);
    element accesses beyond the code's memory instructions (loop iterations after the first) add
    the per-element instructions of instructions.py. None without the memory-instruction counts."""
    if facts.global_accesses is None or not (facts.global_accesses or facts.tma_loads or facts.tma_stores):
        return None
    warps = running_warps(facts)
    repeated = max(0.0, _accesses_per_thread(counts, facts) - counts.blocks * facts.global_accesses)
    run = facts.instructions - (facts.called_instructions or 0)      # called slow paths: not run (v13)
    return warps * (counts.blocks * run + max(repeated * PER_ELEMENT, fed_loop_repeats(counts, facts)))


def fed_loop_repeats(counts: Counts, facts: CubinFacts) -> float:
    """Instructions a warp issues over the grid in the iterations after the first of a loop the
    accelerator feeds (version 17): its tiles are bulk copies, not element accesses, so the
    per-access count above sees no iterations; the cubin's longest loop body is the IR's only
    loop's, run once an iteration."""
    loop = _only_for_loop(counts)
    if loop is None or not facts.loop_instructions or not fed_loop(loop, facts):
        return 0.0
    return float(np.maximum(loop.trips - 1, 0).sum()) * facts.loop_instructions


def running_warps(facts: CubinFacts) -> int:
    """Warps of a block that run each instruction of the code: all of them, except in
    warp-specialised code (accelerator loads, more than one warpgroup), where the producer
    warpgroup runs its own few instructions and the others the rest (version 14; before, every
    warp was charged the whole code, producer and consumer parts alike)."""
    warps = -(-facts.threads // 32)
    return warps - 4 if facts.tma_loads and warps > 4 else warps


def spill_chain_us(counts: Counts, r: Region, facts: Optional[CubinFacts], load_latency_us: float,
                   wait_us: float = 0.0, per_sm: int = 1, gpu: Optional[GPU] = None,
                   reload_us: Optional[float] = None) -> float:
    """Extra time of one run of a region by a block whose code reloads spills: a thread's element
    loads bring their share of local reloads, each a memory round trip the code waits for; in a
    loop the accelerator feeds, each reload costs a warp's access wait (`wait_us`). Where the
    reloaded values of the resident threads fit in L1 (version 13), reloads issued together come
    back together: the round trips are the code's waits on reloads, not the reloads. `reload_us`:
    one wait on reloads that miss L1 (`reload_wait_us`; default `load_latency_us`)."""
    if not facts or not facts.local_loads:
        return 0.0
    if reload_us is None:
        reload_us = load_latency_us
    # (a loop nested in another shares its reloads with the outer one: not counted, unless its
    # accumulator alone leaves no room for the operands — 128 words a thread or more: K's 256x256
    # float32 over 256 threads, not the 64 of A-C's persistent 128x128 matmuls; version 14)
    own = r.depth == 1 or (r.depth > 1 and _accumulator_words(r, facts) >= SPILL_ACCUMULATOR_WORDS)
    if fed_loop(r, facts) or (r.mmas and own):
        if r.mmas and facts.mma_loop_local_clocks == 0 and "float32" not in r.work.tensor:
            # the cubin's tensor-core loop loads and stores nothing local: its reloads are elsewhere
            # (another loop's, the epilogue's), none in this loop's iterations (version 22)
            return 0.0
        # at the register ceiling an mma loop's live values do not fit: each reload, once an iteration
        if facts.registers >= MAX_REGISTERS and own:
            # (where the reloaded values fit L1, reloads issued together come back together: the
            # code's waits on them, as version 13 counts them outside such loops; version 23)
            reloads = facts.local_loads
            if facts.local_load_waits is not None and reloads_fit_l1(facts, per_sm, gpu):
                reloads = facts.local_load_waits
            if facts.loop_instructions == 0:
                # the cubin has no loop: the IR's loop is unrolled, and the code's reloads are those of
                # all its iterations, counted once (version 22)
                return reloads * wait_us / max(1.0, float(np.mean(r.trips)))
            return reloads * wait_us
        if r.mmas and own and facts.local_load_waits and not reloads_fit_l1(facts, per_sm, gpu):
            # below it, an mma loop whose resident threads reload spills from beyond L1: each wait on
            # reloads stalls the warp a round trip, once an iteration (version 15 for float32 mma,
            # the warps' own multiplies and adds; version 16 for the tensor cores' too: the causal
            # FMHAs' iterations, each block's own trip count, wait that long with them); since
            # version 23 L2's round trip where they fit L2, for the share that does not fit L1
            return facts.local_load_waits * reload_us * reloads_missing_l1(facts, per_sm, gpu)
        return 0.0
    if len(counts.regions) == 1 and facts.local_load_waits and not reloads_fit_l1(facts, per_sm, gpu):
        # straight-line code (no loop in the IR) whose reloads miss L1: each wait on reloads is a
        # round trip no element load overlaps (version 14)
        return facts.local_load_waits * reload_us * reloads_missing_l1(facts, per_sm, gpu)
    if not facts.global_loads:
        return 0.0
    loads = sum(a.elements * a.weight for a in r.accesses
                if a.kind in ("load", "gather") and not a.feeds_mma and not tma_copied(a, facts)) / facts.threads
    reloads = facts.local_loads
    if facts.local_load_waits is not None and reloads_fit_l1(facts, per_sm, gpu):
        reloads = facts.local_load_waits
    return loads / vector_width(counts, facts) * reloads / facts.global_loads * load_latency_us


def reload_wait_us(facts: CubinFacts, per_sm: int, gpu: GPU, l2_round_trip_us: float,
                   dram_round_trip_us: float, l2_bytes_per_sm_us: float, blocks: int = 0) -> float:
    """One wait on spilled values that miss L1 (version 23). They were stored shortly before, so
    L2 holds them as far as the spill areas of all resident blocks fit it (`spill_area_bytes`;
    since version 53 only the roles that spill have one): L2's round trip, DRAM's for the share
    beyond L2. Where the resident threads of an SM reload more at each wait (`reload_wait_bytes`
    each: all stop at the same code) than L2 delivers to one SM in that time, the delivery.
    `blocks`: the grid's, where it may hold fewer than the SMs do."""
    beyond = spills_beyond_l2(facts, per_sm, gpu, blocks)
    round_trip = l2_round_trip_us + beyond * (dram_round_trip_us - l2_round_trip_us)
    batch = (facts.reload_wait_bytes or 0.0) * facts.threads * per_sm
    return max(round_trip, batch / l2_bytes_per_sm_us)


def spills_beyond_l2(facts: CubinFacts, per_sm: int, gpu: GPU, blocks: int = 0) -> float:
    """Share of the spill areas of all resident blocks (`spill_area_bytes`) that L2 cannot hold: as
    many as the SMs hold, or the grid's `blocks` where fewer (version 90: set BB's lone block)."""
    footprint = spill_area_bytes(facts) * min(per_sm * gpu.sms, blocks or per_sm * gpu.sms)
    return max(0.0, 1.0 - gpu.l2_mb * 1e6 / footprint) if footprint else 0.0


def _accumulator_words(r: Region, facts: CubinFacts) -> float:
    """32-bit words per thread of the largest `mma` accumulator of a region."""
    words = [float(np.prod(op.results[0].type.shape)) * max(1, op.results[0].type.dtype.bitwidth // 8) / 4
             for op in r.mmas if op.results and isinstance(op.results[0].type, TileType)]
    return max(words, default=0.0) / facts.threads


def bulk_store_drain_us(counts: Counts, facts: Optional[CubinFacts]) -> float:
    """Time a block waits at its end for its bulk stores (UTMASTG) to leave shared memory:
    DRAIN_US plus DRAIN_US_PER_KIB for each KiB of its last stores (one execution of each store
    the accelerator copies), not extrapolated past the 16 KiB rows it was measured on (v13)."""
    if not facts or not facts.tma_stores:
        return 0.0
    stored = sum(a.bytes for a in counts.accesses if a.kind == "store" and tma_copied(a, facts)) / 1024
    return DRAIN_US + DRAIN_US_PER_KIB * min(stored, DRAIN_LONGEST_KIB)


# the accelerator copies a tile to or from shared memory in boxes of at most 128-byte rows (the
# 128-byte swizzle tileiras uses): set M's launched cubins store a 16x64 float32 tile as two boxes
BOX_ROW_BYTES = 128


def looped_store_drain_us(r: Region, facts: Optional[CubinFacts]) -> float:
    """Each iteration of an `mma` loop the accelerator feeds that stores a tile of several rows
    through it waits for each box of that store to leave (version 17): tileiras gives the stores
    to one warp, which issues a box (UTMASTG) and waits for it (UTMACMDFLUSH, DEPBAR) before the
    next, and the next iteration's tile waits for the buffer: the drain of a block's end
    (`bulk_store_drain_us`) once a box, each iteration. (A row kernel's stores of one row
    wait once for all their boxes, and its loop has no `mma`: not charged.)"""
    if r.op is None or not r.mmas or not fed_loop(r, facts):
        return 0.0
    t = 0.0
    for a in r.accesses:
        if a.kind == "store" and a.rows > 1 and tma_copied(a, facts):
            boxes = max(1, -(-int(a.row_bytes) // BOX_ROW_BYTES))
            t += boxes * (DRAIN_US + DRAIN_US_PER_KIB * min(a.bytes / boxes / 1024, DRAIN_LONGEST_KIB))
    return t


def reloads_fit_l1(facts: CubinFacts, per_sm: int, gpu: Optional[GPU]) -> bool:
    """Whether the spilled values the resident threads reload (in loops, else anywhere) fit the
    SM's L1 beside the blocks' shared memory (one array per SM on sm_80+, `l1_shared_kb`)."""
    return reloads_missing_l1(facts, per_sm, gpu) == 0.0


def reloads_missing_l1(facts: CubinFacts, per_sm: int, gpu: Optional[GPU]) -> float:
    """Share of the resident threads' spilled values (`reload_bytes` each) beyond the L1 left
    beside their blocks' shared memory (version 23; before, all or nothing; since version 52 the
    shared part is a capacity the SM can be set to, `GPU.l1_left_bytes`): reloads of values
    that fit, even just, come back from L1."""
    if facts.reload_bytes is None or gpu is None or not gpu.l1_shared_kb:
        return 1.0
    footprint = facts.reload_bytes * facts.threads * per_sm
    return max(0.0, 1.0 - l1_beside_blocks(facts, per_sm, gpu) / footprint) if footprint else 0.0


def spill_area_bytes(facts: CubinFacts) -> float:
    """A block's spill areas: its threads times the bytes each reloads, or, read from a cubin of
    warp-specialised code, each role's own threads and spills (`CubinFacts.spill_area_bytes`)."""
    if facts.spill_area_bytes is not None:
        return float(facts.spill_area_bytes)
    return float((facts.reload_bytes or 0) * facts.threads)


def l1_beside_blocks(facts: CubinFacts, per_sm: int, gpu: GPU) -> float:
    """Bytes of L1 an SM keeps beside the shared memory of `per_sm` resident blocks."""
    return gpu.l1_left_bytes(per_sm * (facts.shared_bytes + SHARED_RESERVED))


def resident_warps(counts: Counts, facts: CubinFacts, gpu: GPU, per_sm: int) -> int:
    """Warps resident on one SM: the cubin's block size times the blocks an SM holds (or gets)."""
    return -(-facts.threads // 32) * min(per_sm, max(1, -(-counts.blocks // gpu.sms)))


def access_chain_us(counts: Counts, facts: Optional[CubinFacts], gpu: GPU, per_sm: int, issue_us: float,
                    wait_us: float, l1_wait_us: float = 0.0) -> float:
    """Time of the element accesses on one SM: each resident warp waits `wait_us` per access it
    makes (the copy_loop microbenchmarks' latency per access, shared by more loads in flight
    than theirs), and the SM issues the grid's instructions (`issue_us`, from the code); fewer
    resident warps hide less of the wait. A read of an array that stays in L1 waits `l1_wait_us`
    instead (where given; version 16)."""
    if not facts:
        return 0.0
    warps = resident_warps(counts, facts, gpu, per_sm)
    # warp accesses: a warp's 32 lanes × the vector width a time, elements past the array waiting on
    # nothing; a tile of fewer elements is still one warp access (version 15)
    lanes = 32 * vector_width(counts, facts)
    waits = sum(max(a.elements * (1 - a.pad_fraction) / lanes, 1.0) * a.executions
                * (l1_wait_us / wait_us if l1_wait_us and l1_resident(a, facts, per_sm, gpu) else 1.0)
                for a in element_accesses(counts, facts, operands=False) if a.elements * (1 - a.pad_fraction) > 0)
    waits /= occupied_sms(counts, gpu)                 # on the SMs that hold blocks (v15: every SM before)
    if facts.loads_in_flight:        # more loads in flight than the copy loops had share the wait (v11)
        wait_us *= ACCESS_WAIT_IN_FLIGHT / max(ACCESS_WAIT_IN_FLIGHT, facts.loads_in_flight)
    return waits * wait_us / warps + issue_us


def l1_resident(a: Access, facts: CubinFacts, per_sm: int, gpu: GPU) -> bool:
    """A read of an array that fits whole in the L1 left beside the resident blocks' shared memory
    (a routing table's counts, a norm's weight vector): after its first touch it stays there."""
    if a.kind not in ("load", "gather") or a.array_bytes is None or not gpu.l1_shared_kb:
        return False
    return a.array_bytes <= l1_beside_blocks(facts, per_sm, gpu)


def in_flight_us(counts: Counts, facts: Optional[CubinFacts], gpu: GPU, per_sm: int,
                 past_l1: Callable[[Access], float] = lambda a: 1.0) -> float:
    """Little's law for the element loads: each resident warp keeps the loads its code issues
    before waiting on one (`loads_in_flight`, of `global_load_bytes` a lane) outstanding for a
    loaded round trip, so the SMs fetch at most that many bytes per LOADED_LATENCY_US. Charged
    on the loads' DRAM bytes (re-reads that hit L2 return sooner). 0 without the scoreboards.
    Since version 55 only the SMs the grid occupies count, and a tile tileiras walks in a loop of
    its own (`_walked_in_a_loop`) has that loop's loads per wait in flight, as reads the IR's loops
    make have where that loop keeps more (version 74, `_read_in_loops`). A lane whose LDGs walk a
    row brings a line for the `past_l1` share of them that miss L1 and finds it for the rest
    (version 81): each wait that goes out brings that many more bytes."""
    width = facts and (facts.global_load_bytes or facts.global_access_bytes)
    if not facts or not facts.loads_in_flight or not width:
        return 0.0
    reads = [a for a in element_accesses(counts, facts, operands=False) if a.kind in ("load", "gather")
             and not is_pick(a)]          # (single elements data picks: a law of their own, v94)
    loads = facts.loads_in_flight
    if _walked_in_a_loop(counts, facts, reads, width) or _read_in_loops(reads, facts):
        loads = facts.loop_loads / facts.loop_load_waits
    ldgs = [(element_ldgs([a], facts), past_l1(a)) for a in reads]
    went_out = sum(n * share for n, share in ldgs)
    if went_out:
        width *= sum(n for n, _ in ldgs) / went_out
    # (a grid of fewer blocks than SMs leaves some idle: v55)
    in_flight = occupied_sms(counts, gpu) * resident_warps(counts, facts, gpu, per_sm) * 32 * loads * width
    # data the launch before left in L2 come back in L2's round trip (v78)
    round_trip = L2_HIT_US if left_in_l2(counts.accesses) else LOADED_LATENCY_US
    return sum(a.dram_bytes for a in reads) / in_flight * round_trip


def occupied_sms(counts: Counts, gpu: GPU) -> int:
    """The SMs that hold a block of the grid (at least one)."""
    return min(gpu.sms, max(1, counts.blocks))


def _walked_in_a_loop(counts: Counts, facts: CubinFacts, reads: List[Access], width: float) -> bool:
    """Whether tileiras walks the tiles of straight-line IR in a loop of its own that issues nearly
    every load (v55): the IR has no loop, the cubin's longest loop loads, and a thread's loads (its
    share of the element `reads`, `width` bytes each) outnumber the code's LDGs WALKED_LOADS times."""
    if len(counts.regions) != 1 or not facts.loop_loads or not facts.loop_load_waits or not facts.global_loads:
        return False
    loaded = sum(a.bytes * a.executions for a in reads)
    return loaded / max(1, counts.blocks) / facts.threads / width >= WALKED_LOADS * facts.global_loads


def _read_in_loops(reads: List[Access], facts: CubinFacts) -> bool:
    """Whether every element read is in an IR loop and the cubin's longest loop keeps more loads in
    flight a wait than the code as a whole (version 74): those loops' loads are the ones waited."""
    if not reads or not facts.loop_loads or not facts.loop_load_waits:
        return False
    return all(a.region.op is not None for a in reads) \
        and facts.loop_loads / facts.loop_load_waits > facts.loads_in_flight


# the p of queued_us (version 18): of 2, 2.5, 3 and 3.5, the one that fits the round-trip copies and
# adds best (bench/results/cost_micro18rt_h200.json at tiles of 256 and 1,024 and the 4,096-element
# copy, each with its cubin; rms log error 0.040)
QUEUE_EXPONENT = 2.5


def queued_us(flight: float, memory: float) -> float:
    """The time of loads whose round trip lengthens as the DRAM fills: neither Little's law for the
    loads in flight (`flight`) nor the DRAM's rate (`memory`) alone, but their p-norm, which meets each
    far from the knee and exceeds both near it."""
    if flight <= 0.0:
        return 0.0
    return (flight ** QUEUE_EXPONENT + memory ** QUEUE_EXPONENT) ** (1 / QUEUE_EXPONENT)


# a warp issues at most one instruction per 2.81 clocks (version 17): long_body_u128_g132
# (bench/results/cost_micro16_h200.json: one 128-thread block an SM, one warp a scheduler, 262,860
# instructions a warp, 64 loops of 4,100) takes 373.6 µs, less the 0.71 µs launch: 738,340 clocks
WARP_ISSUE_CLK = 2.81


def sm_issue_per_clk(facts: Optional[CubinFacts], shared: int, peak: float) -> float:
    """Warp instructions an SM issues per clock: the schedulers' peak, or, in warp-specialised code
    (accelerator loads, more than one warpgroup), fewer where too few consumer warps run the code to
    keep them busy (a block alone on its SM: four). (Charged to all code, it moved kernels of one
    or two warps an SM whose time the model takes from their loads' chain.)"""
    if not facts or running_warps(facts) == -(-facts.threads // 32):
        return peak
    return min(peak, running_warps(facts) * max(1, shared) / WARP_ISSUE_CLK)


# the shared-memory / shuffle pipe: one warp instruction per SM per clock (32 lanes a clock, compute
# capability 9.0); the other instructions at the schedulers' 4 per SM per clock (version 14)
SHARED_PIPE_PER_SM_CLK = 1.0


def looped_region(counts: Counts, facts: Optional[CubinFacts], issue_per_clk: float) -> Optional[Region]:
    """The loop whose body is the cubin's longest loop: the IR's only loop, where the cubin's code
    is not warp-specialised (no accelerator copies; version 28), or where that body keeps the
    shared-memory / shuffle pipe busier than the schedulers (cross-thread reductions of large tiles
    each iteration) and the loop has no `mma`; None otherwise. (In warp-specialised code the
    longest backward branch often spans the producer and store code as well, and the per-access
    laws already charge its loads.)"""
    if not facts or not facts.loop_instructions:
        return None
    loop = _only_for_loop(counts)
    if loop is None:
        return None
    if not facts.tma_loads and not facts.tma_stores:
        return loop
    others = facts.loop_instructions - (facts.loop_shared_ops or 0)
    if not facts.loop_shared_ops or facts.loop_shared_ops / SHARED_PIPE_PER_SM_CLK < others / issue_per_clk:
        return None
    return loop if not loop.mmas else None


def loop_issue_us(facts: CubinFacts, gpu: GPU, shared: int, issue_per_clk: float) -> float:
    """One iteration's issue on its SM (µs): each warp that runs the loop issues the body, its
    shuffles and shared accesses at SHARED_PIPE_PER_SM_CLK, the rest at the schedulers' rate, for
    every block sharing the SM. In warp-specialised code (accelerator loads, more than one
    warpgroup) one warpgroup only produces: the others run the body."""
    warps = running_warps(facts)
    pipe = facts.loop_shared_ops or 0
    clocks = shared * warps * ((facts.loop_instructions - pipe) / issue_per_clk + pipe / SHARED_PIPE_PER_SM_CLK)
    return clocks / (gpu.clock_ghz * 1e3)


def spilled_loop_us(facts: CubinFacts, gpu: GPU, shared: int, issue_per_clk: float) -> float:
    """One iteration of a spilled `mma` loop on its SM (µs; version 15): every running warp of the
    blocks sharing the SM issues the body (schedulers at `issue_per_clk`), and its local loads
    and stores take L1 clocks (`loop_local_clocks`) on the pipe the shuffles and shared accesses
    use; the two go on side by side, the busier one sets the pace."""
    warps = shared * running_warps(facts)
    issue = facts.loop_instructions / issue_per_clk
    pipe = (facts.loop_shared_ops or 0) / SHARED_PIPE_PER_SM_CLK + facts.loop_local_clocks
    return warps * max(issue, pipe) / (gpu.clock_ghz * 1e3)


# clocks a drained mma loop's chain waits per L1 clock of its local loads and stores (version 18): the
# value that fits the 26 launched mw_* microbenchmarks with one block an SM whose mma loop waits for all
# its mma best (bench/results/cost_micro19_mw*_h200.json; rms log error 0.151, 22 within 30%, the worst
# 1.40x), with the loop's code at WARP_ISSUE_CLK an instruction and no time of its own for the waits
LOCAL_CHAIN_CLK = 10


def drained_mma_loop(counts: Counts, facts: Optional[CubinFacts]) -> Optional[Region]:
    """The IR's innermost `mma` loop where it is a product's loop (no transcendentals, no
    reductions: a GEMM's, not an attention's) and the cubin's innermost mma loop waits for all
    its mma each iteration, keeping none in flight (version 18); None otherwise. (Attention loops
    wait so too, for the softmax between their two products; their times follow the other laws.)"""
    if not facts or not facts.mma_loop_full_waits or facts.mma_loop_pipelined_waits:
        return None
    inner = counts.innermost_mma_loop()
    return inner if inner is not None and not inner.work.sfu and not inner.work.reductions else None


def drained_loop_us(facts: CubinFacts, gpu: GPU, tensor_us: float, steps: int = 1) -> float:
    """One iteration of a block's `mma` loop that waits for all its mma (version 18): the mma do not
    overlap the rest of the iteration, so the block's tensor-core work (`tensor_us`, at the SM's
    rate), then a warp's issue of the loop's code (WARP_ISSUE_CLK an instruction) with its local
    reloads and stores waited for on the way (LOCAL_CHAIN_CLK per L1 clock), one after another.
    Other blocks on the SM overlap it. `steps`: the loop's iterations the cubin's body holds
    (`unrolled_steps`); its code is shared by them."""
    clocks = facts.mma_loop_instructions * WARP_ISSUE_CLK + facts.mma_loop_local_clocks * LOCAL_CHAIN_CLK
    return tensor_us + clocks / steps / (gpu.clock_ghz * 1e3)


def constant_trips(r: Region) -> Optional[int]:
    """The trip count of `for` loop `r` where its bounds are constants, else None."""
    start, stop, step = (const_int(v) for v in r.op.operands[:3])
    if start is None or stop is None or not step:
        return None
    return -(-(stop - start) // step)


def unrolled_steps(r: Region, facts: Optional[CubinFacts]) -> int:
    """IR iterations the cubin's innermost `mma` loop body holds (version 25): a nested `mma` loop
    of constant trip count T (a launch build's K loop, K known) that tileiras unrolled whole into
    the loop around it — the cubin's innermost loop with mma is then its longest loop, and holds T
    times the mma and full waits of one step; else 1. (Set S's launched MoE GEMM: 16 K steps, 256
    mma and 16 full waits in the persistent loop's body; its dynamic build keeps a K loop.)
    Else, the steps of the loop itself that tileiras unrolled into one body (`unrolled_by_loads`)."""
    if r.op is None or r.op.name != "for" or not r.mmas or not facts:
        return 1
    if not facts.mma_loop_instructions or facts.mma_loop_instructions != facts.loop_instructions:
        return 1
    steps = constant_trips(r) if r.depth >= 2 else None
    if steps is None:
        return unrolled_by_loads(r, facts)
    waits, mmas = facts.mma_loop_full_waits or 0, facts.mma_loop_mmas or 0
    if steps < 2 or waits < steps or waits % steps or mmas % steps:
        return unrolled_by_loads(r, facts)
    return steps


def unrolled_by_loads(r: Region, facts: CubinFacts) -> int:
    """IR steps of loop `r` in one pass of the cubin's loop, which is its longest (version 49):
    k where that loop's LDGs are k >= 2 times (within UNROLLED_LOADS_SLACK) the element loads one
    step makes, else 1. (Set X's dynamic split-K projection: 160 LDGs a pass, 80 a step of its
    128x128 and 32x128 bfloat16 tiles on 256 threads; its 120 waits a pass are two steps'.)"""
    if not facts.loop_loads:
        return 1
    per_step = element_ldgs([a for a in r.accesses if a.kind in ("load", "gather") and not tma_copied(a, facts)],
                            facts)
    k = round(facts.loop_loads / per_step) if per_step else 0
    if k < 2 or not holds_loads(facts.loop_loads, k * per_step):
        return 1
    return k


def element_ldgs(loads: List[Access], facts: CubinFacts) -> float:
    """LDGs a thread issues for one execution of these element-by-element loads (the cubin's width)."""
    width = facts.global_load_bytes or facts.global_access_bytes or 4.0
    return sum(max(1.0, a.elements * a.itemsize / facts.threads / width) * a.weight for a in loads)


def mma_loop_load_wait_us(r: Region, facts: Optional[CubinFacts], loads: List[Access],
                          only_loop: bool = False, innermost: bool = False) -> float:
    """What an iteration of `mma` loop `r` waits for the global loads it makes element by element
    (version 27): the cubin's innermost tensor-core loop waits for `mma_loop_load_waits` round
    trips in series (its scoreboards say where it stops for them), each DRAM's loaded round trip
    for the share of those loads' bytes DRAM serves and L2's for the rest, over the IR iterations
    the loop's body holds. Blocks on an SM wait side by side: no share of the SM is charged.
    Where no loop of the cubin has warpgroup mma (HGMMA, QGMMA: tileiras built the products
    otherwise) and `r` is the IR's only loop (`only_loop`), the cubin's longest loop is its
    body: its waits (version 42); so it is where the longest loop makes the LDGs of an iteration
    of `r`, whatever other loop of the cubin has mma (version 64), and where `r` is the innermost
    loop with mma of several (`innermost`, version 69). 0 without such a loop, or where the
    accelerator copies the loads."""
    waits = facts.mma_loop_load_waits if facts else None
    if waits is None and facts and facts.mma_loop_mmas is None and only_loop:
        waits = facts.loop_load_waits
    element = [a for a in loads if not tma_copied(a, facts)]
    if (only_loop or innermost) and facts and facts.loop_load_waits and holds_loads(
            facts.loop_loads or 0, element_ldgs(element, facts)):
        waits = facts.loop_load_waits
    if not waits or not r.mmas or not element:
        return 0.0
    return waits * load_round_trip_us(element) / unrolled_steps(r, facts)


# A wait of an aligned array's element-loaded mma operands (version 57): the loaded round trip of loads
# L2 mostly serves, many warps' at once, between L2's unloaded 0.160 µs and DRAM's loaded 0.54 µs; the
# value that, beside a warp's issue of the loop, fits the 18 float16 and bfloat16 microbenchmarks of
# such loops best (the twelve odd-row GEMMs of bench/results/cost_run_odd_h200.json, seven tile shapes
# and four sizes; the six aligned mma_stream builds of cost_micro_h200.json): rms log error 0.21, 16
# within 30% (0.30 µs: 0.24; 0.42: 0.22; 0.48: 0.26)
ALONG_ROWS_WAIT_US = 0.36


def lanes_along_rows_wait_us(r: Region, facts: Optional[CubinFacts], operands: List[Access],
                             gpu: GPU) -> Optional[float]:
    """An iteration of `mma` loop `r` whose operands an aligned array's build loads element by
    element (version 57): there tileiras lays a warp's lanes along a tile's rows (a row's 32
    neighbouring elements, one cache line), so L1 handles few lines, and a warp issues the loop's
    code (WARP_ISSUE_CLK an instruction) and waits its `mma_loop_load_waits` round trips
    (ALONG_ROWS_WAIT_US each), one after another (history 88). None where the loads are vectors,
    the accelerator copies them, or the cubin gave no waits."""
    waits = facts.mma_loop_load_waits if facts else None
    if not waits or not operands or not facts.mma_loop_instructions or any(tma_copied(a, facts) for a in operands):
        return None
    if facts.global_load_bytes is None or facts.global_load_bytes > max(a.itemsize for a in operands):
        return None
    issue_us = facts.mma_loop_instructions * WARP_ISSUE_CLK / (gpu.clock_ghz * 1e3)
    return (issue_us + waits * ALONG_ROWS_WAIT_US) / unrolled_steps(r, facts)


def load_round_trip_us(loads: List[Access]) -> float:
    """One wait on element loads: DRAM's loaded round trip for the share of their bytes DRAM
    serves (`_dram`), L2's for the rest; L2's for all where the launch before left the data there
    (version 79: set AJ's channel sum, 128 waits of a loop walking 11 MB, 2.83x at DRAM's), and
    for the share L2 keeps of data larger than it (version 105: a block's sum of 128 float32
    (1, 64) rows, one wait a step, 0.25 µs a step over 39 MB on an H100, 0.31 over 77 MB,
    where DRAM's whole round trip gave 2.2x and 1.9x)."""
    moved = sum(a.bytes * (1 - a.pad_fraction) * a.executions for a in loads)
    from_dram = min(1.0, sum(a.dram_bytes for a in loads) / moved) if moved > 0 else 1.0
    from_dram *= 1.0 - min((a.l2_kept_share for a in loads), default=0.0)    # (all kept: L2's alone)
    return from_dram * LOADED_LATENCY_US + (1 - from_dram) * L2_HIT_US


# how far the cubin's loop LDGs may be from the IR's steps' element loads for the loop to be taken
# as holding those steps (a few loads of the outer loop's own, a vector width the estimate misses)
UNROLLED_LOADS_SLACK = 1.25


def holds_loads(cubin_ldgs: float, ir_ldgs: float) -> bool:
    """Whether a cubin loop's LDGs a pass are these IR loads' LDGs, within UNROLLED_LOADS_SLACK."""
    return bool(ir_ldgs) and 1 / UNROLLED_LOADS_SLACK <= cubin_ldgs / ir_ldgs <= UNROLLED_LOADS_SLACK


def spilled_mma_loop(counts: Counts, facts: Optional[CubinFacts]) -> Optional[Region]:
    """The IR's only loop, where it has `mma` and the cubin's longest loop reloads and stores
    spills (version 15): its body, thousands of local accesses each through L1 besides the
    instructions, is issued by every running warp each iteration; None otherwise."""
    if not facts or not facts.loop_instructions or not facts.loop_local_clocks:
        return None
    loop = _only_for_loop(counts)
    return loop if loop is not None and loop.mmas else None


def streamed_spill_loop(counts: Counts, facts: Optional[CubinFacts]) -> Optional[Region]:
    """The IR's innermost `mma` loop where it is a float32 product's (computed on the CUDA cores:
    no transcendentals or reductions beside it) and the cubin's longest loop stores and reloads
    spills: its spills go through L2 every iteration (version 54; history 59's spill
    microbenchmarks are such loops); None otherwise."""
    if not facts or not facts.loop_local_clocks or facts.mma_loop_mmas:
        return None
    inner = counts.innermost_mma_loop()
    if inner is None or "float32" not in inner.work.tensor or inner.work.sfu or inner.work.reductions:
        return None
    return inner


def spill_stream_us(facts: CubinFacts, gpu: GPU, shared: int, per_sm: int, dram_share_bytes_us: float,
                    blocks: int = 0) -> float:
    """One iteration of a `streamed_spill_loop` on its SM (µs; version 54): the `shared` blocks' local
    bytes of the loop (from its L1 clocks) that miss L1 and lie beyond L2 (`spills_beyond_l2`, of the
    grid's `blocks` since version 93) move at the SM's share of DRAM's rate (`dram_share_bytes_us`)."""
    moved = facts.loop_local_clocks * L1_BYTES_PER_CLK / WARP_LANES * facts.threads * shared
    beyond = spills_beyond_l2(facts, per_sm, gpu, blocks)
    return moved * reloads_missing_l1(facts, per_sm, gpu) * beyond / dram_share_bytes_us


def _only_for_loop(counts: Counts) -> Optional[Region]:
    """The IR's loop where it has one, a `for` (the body the cubin's longest loop then is)."""
    loops = [r for r in counts.regions if r.op is not None]
    return loops[0] if len(loops) == 1 and loops[0].op.name == "for" else None


def reloads_beside_loads(facts: Optional[CubinFacts], per_sm: int, gpu: GPU) -> bool:
    """Whether a spilled `mma` loop waits for its reloads after its loads, not while (version 63):
    the cubin's tensor-core loop stops for each LDG alone (as many waits as the longest loop's
    LDGs, no accelerator copies), so no load is in flight across a stop for a reload, and the
    resident threads' spilled values miss L1, so each such stop is a round trip of its own."""
    if not facts or not facts.mma_loop_load_waits or not facts.loop_loads or facts.tma_loads:
        return False
    return facts.mma_loop_load_waits >= facts.loop_loads and not reloads_fit_l1(facts, per_sm, gpu)
