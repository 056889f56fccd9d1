"""From counts (counts.py) to a predicted time and the bound that sets it.

The prediction is the largest of a few times, plus the launch:
- memory: DRAM bytes / achievable bandwidth (multi-row tiles read without TMA stream at the
  lower rate the row-width microbenchmark measured);
- block launch: blocks / the rate at which the GPU starts blocks;
- tensor core: total work / throughput; issue: the larger of the FP32/SFU work at their
  throughput and the grid's instructions (instructions.py: every element access is its own
  load or store with its address arithmetic) at the schedulers' issue rate;
- latency: waves × the time of one block, each loop iteration costing its loads' latency plus
  its arithmetic at the block's share of the SM (the laws of calibration.py); with a cubin, at
  least the element-access chain of schedule.py (the resident warps hiding each access's wait)
  and the loads the resident warps keep in flight (Little's law, version 12).
The schedule (block size, registers, spills, code, load width, accelerator copies) comes from
the cubin when one is given (schedule.py, cubin_facts.py), else from estimates on the IR. Loops
whose tiles the tensor memory accelerator copies (what a launch builds for aligned arrays) take
a pipeline step in which the asynchronous mma overlaps the CUDA-core work.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import numpy as np

from .atomics import atomics_us, beyond_l2_share
from .calibration import H200, REFERENCE_CLOCK_GHZ, Calibration
from .counts import DIVISION_INSTRUCTIONS, Access, Counts, Region, tile_keys
from .cubin_facts import CubinFacts
from .divisions import division_us
from .estimated_facts import estimate_facts
from .fetch import fetch_floor_us
from .gpus import GPU, MEASURED_ARCH
from .instructions import ISSUE_PER_SM_CLK, warp_instructions
from .l2_kept import l2_kept_share
from .lane_offsets import WARP_LANES
from .loop_waits import carried_nothing_wait_us, waits_on_loads, warp_chain_us
from .locks import fenced_atomics_us, locks_us
from .lone_blocks import crowded_laws
from .picked_gathers import charge_picks, is_pick, picks_us
from .row_lines import VECTOR_WIDTH, access_width, column_walked, row_lines, row_lines_us, walk_miss_share
from .sector_rows import sector_rows_factor
from .staged_copies import staged_copy_us
from .straight_code import straight_code_us, straight_code_waits_us
from .strided_lanes import (gapped_arrays, l2_held_bytes, priced_as_strided, scattered_sector_bytes,
                            strided_dram_per_lane, strided_lanes)
from .schedule import (L1_HIT_US, L2_HIT_US, MAX_REGISTERS, access_chain_us, blocks_per_sm, bulk_store_drain_us,
                       code_instructions, drained_loop_us, drained_mma_loop, fed_loop, in_flight_us,
                       lanes_along_rows_wait_us, load_round_trip_us, loop_issue_us, looped_region,
                       looped_store_drain_us, mma_loop_load_wait_us, occupied_sms, queued_us, reload_wait_us,
                       reloads_beside_loads, reloads_fit_l1, sm_issue_per_clk, spill_chain_us, spill_stream_us,
                       spilled_loop_us, spilled_mma_loop, streamed_spill_loop, threads, tma_copied,
                       unrolled_by_loads, unrolled_steps, vector_width)
from .unrolled_waits import unrolled_load_waits
from .vector_operands import vector_gain

# integer <-> float conversions: 16 results a clock per SM (CUDA C++ Programming Guide, compute capability 9.0,
# "all other type conversions"); the launched shared_tile_convert microbenchmark (cost_micro17m2b_h200.json)
# converts 8,192 int8 a block and step, 2 blocks an SM, in 0.52 µs a step more than shared_tile_s0: 15.9 a clock
CONVERSIONS_PER_SM_CLK = 16.0
MEMORY_BOUND_SHARE = 0.85           # the goal's test: DRAM rate within 15% of the achievable
ELEMENT_LAW_LONGEST = 4096            # longest tile of the copy microbenchmarks it was fitted on
L2_RESIDENT_SHARE = 0.5              # arrays below this share of L2 are read from DRAM once
PIPELINE_STAGES = 2                  # tiles a producer must hold to run a copy ahead of the consumers
# A loop without mma whose tiles the accelerator copies (version 37, the launched segment_sum
# microbenchmark, bench/results/cost_micro37_fed_h200.json: each block sums its own row, 2048 steps of
# 1, 4 or 16 KiB, on 1 to 66 blocks, below DRAM's rate): a step takes what one SM's copies move, 16 KiB
# in 0.225 µs, and at least 0.060 µs (1 KiB: 0.060, 4 KiB: 0.072, whatever the blocks). The mma loops'
# step (Calibration.tma_step_us, 0.158 µs) stays theirs.
FED_STEP_US = 0.060
FED_STEP_US_PER_KIB = 0.225 / 16
# Each time a block starts such a loop it waits for its first copies: the wait that fits the same
# file's 1-32-step launches on 8,192 blocks best (rms log error 0.125; a block spends about 1 µs
# beyond its steps)
FED_FILL_US = 1.0
# What the accelerator's copies of tiles L2 already holds deliver to an SM, µs per KiB (version 22):
# the launched shared_tile_s7 microbenchmark (bench/results/cost_micro17m2_h200.json: 264 blocks, 2 an
# SM, each its own 64x128 float16 tile of an 8 MB array every step, 512 steps) moves 16,384 KiB an SM
# in 242.3 µs. The TMA load law (load_chain_*_tma) was measured on tiles read once, from DRAM.
L2_TMA_US_PER_KIB = 242.3 / (2 * 512 * 16)
# The most L2 delivered to the SMs' accelerator copies: shared_tile_s0 (the same microbenchmark, every
# block reading the same tile at the same step, as an attention's query blocks walk the same keys) moves
# 264 x 512 x 16 KiB in 145.1 µs, 15.3 TB/s, at the H200's 132 SMs; a floor on any launch's copied bytes
L2_COPY_BYTES_PER_SM_S = 264 * 512 * 16384 / 145.1e-6 / 132
# Gathers and scatters over index tiles of several short rows run at twice the rate the 2-D copy
# microbenchmark's tile loads reach (fitted on the two validation kernels of that form, the 2-D
# gather vector add of set C and the 5x5 blur of set F, 1.95x and 2.30x over at the tile rate)
GATHER_ROWS_GAIN = 2.0
# Element-by-element code lays a warp's lanes down a tile's rows first (the cubins of the 2-D copy
# and of set M's 16x16 transpose: lane index mod the rows picks the row), so the 2-D copy's tiles
# (64 and 32 rows) spread a warp over 32 rows, a tile of r < 32 rows over r. The copies of
# version 17 (bench/results/cost_micro17b_h200.json: `copy_2d` of 16x64, 16x16, 8x64 and 4x256
# float32 tiles, `transpose_2d` of five shapes) run (32 / r)^FEW_ROWS_EXPONENT times the rate of the
# multi-row law, up to the DRAM rate: 16 rows 4.2x and 4.5x (few_rows_exponent()), 8 and 4 rows at
# 80% of it
FEW_ROWS_EXPONENT = 2.108
# a launch's float32 mma whose A tile lies with M contiguous (stored (K, M), transposed on the way):
# its share of the operand path's time (cost_micro49_f32mma_h200.json, version 50)
M_MAJOR_A_SHARE = 0.4


def few_rows_exponent(cases: Dict[str, dict], cal: Calibration = H200) -> float:
    """The exponent from the 16-row copies: log2 of their rate over the multi-row law's (their rows
    of 256 and 64 bytes are both at the law's shortest-row rate)."""
    bw = 4.8e12 * cal.dram_efficiency
    gains = [2 * 4 * 8192 ** 2 / (cases[f"copy_2d_f32_{shape}_v17"]["us"] * 1e-6) / bw / cal.row_efficiency[0][1]
             for shape in ("16x64", "16x16")]
    return sum(math.log2(g) for g in gains) / len(gains)


# The element-rate law (one-row tiles' rate falling with the tile length) is charged only where the
# loads a thread keeps in flight are not known: with them (from the cubin, version 12, or estimated
# from the IR, version 13) they and the warps resident say how fast loads return (Little's law,
# schedule.in_flight_us; versions 10 and 11 charged the law to code with fewer than 2 loads in
# flight, at its share of the copies' 24 resident warps)


@dataclass
class Prediction:
    gpu: GPU
    predicted_us: float
    bound: str
    terms: Dict[str, float]          # µs each
    blocks: int
    blocks_per_sm: int
    waves: float
    block_us: float                  # mean time of one block
    tma: bool
    schedule: str = "estimated from the IR"     # or "from the cubin" (tileiras's block size, registers, ...)
    cubin: Optional[CubinFacts] = None
    bytes: Dict[str, float] = field(default_factory=dict)
    flops: Dict[str, float] = field(default_factory=dict)
    notes: List[str] = field(default_factory=list)
    estimate: Optional[CubinFacts] = None        # without a cubin: what tileiras most likely builds (v13)

    @property
    def intensity(self) -> float:
        total = sum(self.flops.values())
        moved = self.bytes.get("dram_read", 0.0) + self.bytes.get("dram_write", 0.0)
        return total / moved if moved else float("inf")


def predict(counts: Counts, gpu: GPU, *, tma: bool = False, cal: Calibration = H200,
            facts: Optional[CubinFacts] = None) -> Prediction:
    """`facts`: what tileiras's cubin for this kernel and GPU says (block size, registers, shared
    memory, spills, code); without it the same facts are estimated from the IR (estimated_facts.py,
    version 13: what tileiras most likely builds, e.g. an accelerator-fed pipeline for an mma
    kernel of aligned arrays, `tma`) and the same mechanisms run on the estimate."""
    slow = REFERENCE_CLOCK_GHZ / gpu.clock_ghz          # the per-block laws were measured at 1.98 GHz
    schedule = "from the cubin" if facts else "estimated from the IR"
    if facts is None:
        facts = estimate_facts(counts, tma)
    c = blocks_per_sm(counts, gpu, facts)
    slots = gpu.sms * c
    shared = min(c, max(1, -(-counts.blocks // gpu.sms)))     # blocks sharing one SM's throughput
    notes: List[str] = [] if gpu.arch == MEASURED_ARCH else [_unmeasured_note(gpu, facts is not None)]
    _dram(counts, gpu, slots)
    work = counts.total_work()
    bw = gpu.dram_tbs * 1e12 * cal.dram_efficiency
    width = vector_width(counts, facts)
    t_mem, lined = 0.0, []          # lined: (access, its lines) of element-by-element rows (v46)
    for a in (a for a in counts.accesses if not is_pick(a)):      # picks: their own law (v94)
        copied = tma or tma_copied(a, facts)
        lines = row_lines(a, access_width(a, facts, width), copied and not column_walked(a, facts, schedule, width),
                          threads(facts))
        if lines:
            lined.append((a, lines))
        else:
            t_mem += _stream_us(a, bw, copied, cal, facts is not None, width, _serial_loads(facts))
    t_mem += max(sum(a.dram_bytes for a, _ in lined) / bw * 1e6,
                 row_lines_us(lined, gpu, min(slots, counts.blocks), facts, shared))   # blocks an SM holds (v80)
    terms = {
        "memory": max(t_mem, picks_us(counts, gpu)),
        # atomics one after another per address, fenced ones waiting their lanes' round trips (v44);
        # sections under a spin lock one after another (v14)
        "atomics": max(atomics_us(counts, cal, gpu, slow, threads(facts), slots, c == 1),
                       locks_us(counts, facts, cal.load_us, cal.load_us_tma, slow)),
        "block launch": counts.blocks / (cal.blocks_per_s * gpu.sms / 132 / slow) * 1e6,
        "tensor core": sum(f / _tensor_rate(gpu, k, cal, notes) for k, f in work.tensor.items()) * 1e6,
        "issue": (work.fp32_instr / (gpu.fp32_tflops * 1e12 / 2 * cal.fp32_efficiency)
                  + _sfu_s(work.sfu, work.exp2, gpu, cal) / gpu.sms
                  + work.fp64 / (gpu.fp64_tflops * 1e12 * cal.fp32_efficiency)) * 1e6,
    }
    terms["memory"] = max(terms["memory"], 0.0)
    # every tile the accelerator copies comes through L2, re-read or not: at most L2's measured rate (v22)
    copied = sum(a.bytes * a.executions for a in counts.accesses
                 if a.kind == "load" and (tma or tma_copied(a, facts)))
    terms["l2"] = copied / (L2_COPY_BYTES_PER_SM_S * gpu.sms / slow) * 1e6
    # every element access is its own instructions: the schedulers' issue rate bounds streams
    per_clk = sm_issue_per_clk(facts, shared, ISSUE_PER_SM_CLK)     # fewer where few warps run (v17)
    issue_rate = gpu.sms * per_clk * gpu.clock_ghz * 1e9
    code = code_instructions(counts, facts) if facts else None
    instructions = code if code is not None else warp_instructions(counts, threads(facts),
                                                                    lambda a: tma_copied(a, facts))
    terms["issue"] = max(terms["issue"], instructions / issue_rate * 1e6)
    chain = access_chain_us(counts, facts, gpu, c, instructions / issue_rate * 1e6, cal.access_latency_us * slow,
                            L1_HIT_US * slow)
    per_block = np.zeros(counts.blocks)
    spill_block = np.zeros(counts.blocks)
    looped = looped_region(counts, facts, ISSUE_PER_SM_CLK)
    # loops that carry no loaded value overlap their loads (v15); an estimate at the register
    # ceiling may hide spill reloads (outside mma loops the IR does not say), which those waits stand for
    overlap_loads = schedule == "from the cubin" or facts.registers < MAX_REGISTERS
    spilled = spilled_mma_loop(counts, facts)
    streamed = streamed_spill_loop(counts, facts)
    # a wait on spilled values beyond L1: L2's or DRAM's round trip, or L2's delivery (version 23)
    reloads = reload_wait_us(facts, c, gpu, L2_HIT_US * slow, cal.load_us[0] * slow,
                             L2_COPY_BYTES_PER_SM_S / slow * 1e-6, counts.blocks)
    drained = drained_mma_loop(counts, facts)       # (estimates carry no mma-loop waits)
    unrolled = unrolled_load_waits(counts, facts if schedule == "from the cubin" else None)
    loops = [r for r in counts.regions if r.op is not None]
    only_loop = loops[0] if len(loops) == 1 else None
    innermost = counts.innermost_mma_loop()
    loops_divide = any(r.work.divisions for r in loops)     # else the cubin's divisions are the body's
    block_laws = crowded_laws(cal, counts.blocks, gpu.sms)      # a launch keeping few SMs busy waits less (v85)
    for r in counts.regions:
        run = _iteration_us(r, gpu, shared, tma, slow, block_laws, notes, facts, overlap_loads, unrolled,
                            r is only_loop, c, schedule != "from the cubin", r is innermost,
                            r.op is None and not loops_divide)
        if r is looped:            # the loop's code, issued by the resident warps, each pass (v14), a pass
            # of k unrolled steps once per k (v102); under a branch only in the runs that take it (v76)
            taken = max((a.weight for a in r.accesses), default=1.0)
            run = max(run, loop_issue_us(facts, gpu, shared, per_clk) * taken / unrolled_by_loads(r, facts))
        if r is spilled:           # a spilled mma loop's code and local accesses, each iteration (v15)
            run = max(run, spilled_loop_us(facts, gpu, shared, per_clk))
        if r is streamed:          # a float32 product's spills beyond L2, at DRAM's rate (v54)
            run = max(run, spill_stream_us(facts, gpu, shared, c, bw / 1e6 / occupied_sms(counts, gpu), counts.blocks))
        # a K loop unrolled whole into the loop around it: the cubin's loop body is that many steps (v25)
        steps = unrolled_steps(r, facts)
        if r is drained:           # an mma loop that waits for all its mma: nothing overlaps them (v18)
            run = max(run, drained_loop_us(facts, gpu, _sm_tensor_s(r.work, gpu, cal, notes) * 1e6, steps))
        spill = spill_chain_us(counts, r, facts, cal.load_us[0] * slow, cal.access_latency_us * slow, c, gpu,
                               reloads) / steps
        # an mma loop's reloads overlap its other waits, unless it stops for each load alone (v63)
        fed = fed_loop(r, facts)
        overlapped = fed or (r.mmas and not reloads_beside_loads(facts, c, gpu))
        run = max(run, spill) if overlapped else run + spill
        run = max(run, warp_chain_us(r, facts, r is only_loop, gpu))     # a warp's pass at least (v99)
        if not (fed or r.mmas):       # the reloads' share of a block's time
            spill_block += r.trips * spill
        # a fenced atomic (acquire-release, the default) waits its fence and its value (version 17),
        # longer in a block alone on its SM (version 35), each of a thread's lanes in turn (version 44)
        fenced = fenced_atomics_us(r, c == 1, threads(facts)) * slow
        per_block += _fed_loop_us(r, facts, r.trips * (run + fenced), shared, slow)
    # a block ends when its bulk stores are out of shared memory (from the cubin or the estimate)
    per_block += bulk_store_drain_us(counts, facts) * slow
    if schedule == "from the cubin":            # (an estimate's shared memory is not tileiras's staging)
        per_block = np.maximum(per_block, staged_copy_us(counts, facts, cal.load_us_tma) * slow)   # (v91)
    fetched = fetch_floor_us(counts, facts if schedule == "from the cubin" else None, gpu, shared)
    if fetched is not None:          # a loop body past the instruction cache (version 62)
        per_block = np.maximum(per_block, fetched)
    if counts.blocks <= slots and schedule == "from the cubin":     # a lone wave's straight code (v78)
        per_block = np.maximum(per_block, straight_code_us(counts, facts, gpu, slow))
    mean_block = float(per_block.mean()) if counts.blocks else 0.0
    waves = counts.blocks / slots
    if counts.blocks <= slots:
        terms["latency"] = float(per_block.max()) if counts.blocks else 0.0
    else:
        terms["latency"] = math.ceil(waves) * mean_block
    past_l1 = lambda a: walk_miss_share(a, facts, shared, gpu, tma)      # noqa: E731
    flight = max(in_flight_us(counts, facts, gpu, c, past_l1),              # its LDGs, bytes or not (v88)
                 straight_code_waits_us(counts, facts, gpu, c, past_l1))
    if schedule == "from the cubin" and facts.local_loads and counts.blocks and not reloads_fit_l1(facts, c, gpu):
        # reloads that miss L1 go the loads' way to L2 and queue with them: their round trips add
        # to the time the loads in flight take instead of overlapping it (version 13)
        flight += float(spill_block.max()) if counts.blocks <= slots else math.ceil(waves) * float(spill_block.mean())
    # loads in flight and the DRAM's rate limit together near the knee: their p-norm (version 18)
    queued = queued_us(flight, terms["memory"])
    terms["latency"] = max(terms["latency"], chain, queued)
    name = max(terms, key=terms.get)
    bound = name
    if terms["memory"] >= MEMORY_BOUND_SHARE * terms[name]:
        bound = "memory"             # DRAM busy within 15% of the whole time: bandwidth is what limits
    elif name == "latency" and terms["latency"] == queued and terms["memory"] >= flight:
        bound = "memory"             # loads queued at a DRAM whose rate is the nearer limit (version 18)
    elif name == "latency" and counts.blocks < slots:
        bound = "too few blocks"
    predicted = cal.launch_us * slow + terms[name]
    reads = [a for a in counts.accesses if a.kind in ("load", "gather")]
    writes = [a for a in counts.accesses if a.kind not in ("load", "gather")]
    requested_read = sum(a.bytes * a.executions for a in reads)
    useful_read = sum(a.bytes * a.executions * (1 - a.pad_fraction) for a in reads)
    unique_read = _unique_bytes(reads)
    dram_read = sum(a.dram_bytes for a in reads)
    byte_stats = {
        "read_requested": requested_read, "write_requested": sum(a.bytes * a.executions for a in writes),
        "padding": requested_read - useful_read + sum(a.bytes * a.executions * a.pad_fraction for a in writes),
        "reread_by_blocks": max(0.0, useful_read - unique_read), "l2_absorbed": max(0.0, useful_read - dram_read),
        "dram_read": dram_read, "dram_write": sum(a.dram_bytes for a in writes),
        "read_per_block": requested_read / max(1, counts.blocks),
        "write_per_block": sum(a.bytes * a.executions for a in writes) / max(1, counts.blocks)}
    flops = {f"tensor {k}": v for k, v in work.tensor.items()}
    flops.update({"fp32": work.fp32, "fp64": work.fp64, "transcendental": work.sfu, "integer": work.int_ops})
    return Prediction(gpu, predicted, bound, terms, counts.blocks, c, waves, mean_block, tma, schedule,
                      facts if schedule == "from the cubin" else None,
                      byte_stats, {k: v for k, v in flops.items() if v}, notes,
                      None if schedule == "from the cubin" else facts)


def _unmeasured_note(gpu: GPU, from_cubin: bool) -> str:
    """What a prediction for a GPU of another architecture than the model was measured on rests on."""
    build = "the sm_90 build's (read from its cubin)" if from_cubin else "that estimated for the sm_90 build"
    copies = "; its async copies stand in for that build's TMA copies" if not gpu.tma else ""
    return (f"{gpu.name} is {gpu.arch}: the schedule is {build}, the latencies per block are Hopper's "
            f"scaled by its clock, the peaks its own{copies} (not validated against {gpu.name} times)")


def _sfu_s(sfu: float, exp2: float, gpu: GPU, cal: Calibration) -> float:
    """Seconds one SM spends on transcendentals: exp2 is one SFU instruction, the others
    (exp, log, ...) also need FP32 helpers (the exp microbenchmark's rate)."""
    fast = cal.exp2_per_sm_clk or cal.sfu_per_sm_clk
    return ((sfu - exp2) / cal.sfu_per_sm_clk + exp2 / fast) / (gpu.clock_ghz * 1e9)


def _tensor_rate(gpu: GPU, kind: str, cal: Calibration, notes: List[str]) -> float:
    if kind == "float32":
        # tileiras computes a float32 mma on the CUDA cores, a multiply and an add per product (FMUL,
        # FADD: no HMMA in any float32-mma cubin seen); version 14 (before: a third of the TF32 rate)
        note = "float32 mma computed on the CUDA cores: a multiply and an add per product, at the FP32 rate"
        if note not in notes:
            notes.append(note)
        return gpu.fp32_tflops * 1e12 / 2 * cal.fp32_efficiency
    rate = gpu.tensor_rate(kind)
    if not rate:
        notes.append(f"no tensor-core rate for {kind} on {gpu.name}: counted at the FP32 rate")
        return gpu.fp32_tflops * 1e12 * cal.fp32_efficiency
    return rate * cal.tensor_efficiency


def _serial_loads(facts: Optional[CubinFacts]) -> bool:
    """Whether the element-rate law applies: where the loads in flight are not known (a cubin whose
    scoreboards were not read; with them, measured or estimated, Little's law charges the loads)."""
    return facts is None or facts.loads_in_flight is None


def _stream_us(a: Access, bw: float, tma: bool, cal: Calibration, from_cubin: bool = False,
               width: float = 1.0, serial: bool = True) -> float:
    """DRAM time of one access over the grid: its bytes at the bandwidth its tile shape reaches,
    and for one-row tiles at least the time the element rate of the copy microbenchmark gives
    (a block moves a tile's elements at a rate that falls with the tile's length; vector
    loads of `width` elements an instruction move that many times as many), where `serial` says
    the law applies (no cubin scoreboards to count the loads in flight)."""
    efficiency = _stream_efficiency(a, tma, cal, width)
    if a.index_lanes and width <= 1 and not tma:
        # element-by-element code with lanes on rows (a loaded index tile's layout): the 2-D copy
        # microbenchmark's lanes are laid out so too; its rate at its longest rows (v14)
        efficiency = min(efficiency, cal.row_efficiency[1][1])
    t = a.dram_bytes / bw
    if efficiency < 1.0:     # short rows waste the SM's sectors: a limit on the bytes requested, L2 hits too
        t = max(t, a.bytes * (1 - a.pad_fraction) * a.executions / (bw * efficiency))
    if serial and _branches_per_element(a, from_cubin) and a.rows <= 1 and not a.feeds_mma and a.shape and not tma:
        r0, p = cal.element_rate
        length = min(a.elements, ELEMENT_LAW_LONGEST)         # the law is not extrapolated past its data
        t = max(t, a.elements * (1 - a.pad_fraction) * a.executions / (width * r0 * (length / 1024) ** p))
    return t * 1e6


def _branches_per_element(a: Access, from_cubin: bool = False) -> bool:
    """The element-rate law was measured on tile copies, whose SASS tests and branches around
    every element; a gather or scatter without bounds checks compiles to straight-line code
    (one branch in all) and is charged the DRAM rate. The gather-copy microbenchmark ran
    bounds-checked gathers at the DRAM rate too; without the cubin they keep the law (what
    slows some of them is low occupancy, which only the cubin tells), with it they do not."""
    return a.kind in ("load", "store") or (a.contiguous and a.check_bounds and not from_cubin)


def _streams(a: Access) -> bool:
    """Tile loads and stores, and gathers/scatters whose lanes run along rows, stream."""
    return a.kind in ("load", "store") or a.contiguous


def _stream_efficiency(a: Access, tma: bool, cal: Calibration, width: float = 1.0) -> float:
    """Share of the achievable bandwidth a stream of these tiles reaches: tiles of several
    short rows read without TMA reach the rate the 2-D copy microbenchmark measured."""
    rows, row_bytes = a.rows, a.row_bytes
    if a.spans_rows and width < VECTOR_WIDTH:
        # element by element, a warp's lanes go down a tile's rows whether or not they are whole
        # rows of the array (the build does not know the shapes): the tile's own rows (version 29:
        # a 32x128 copy of a 128-wide array runs at the 2-D law, cost_micro29_split_h200.json)
        rows, row_bytes = a.elements // a.shape[-1], a.shape[-1] * a.itemsize
    if not _streams(a) or a.feeds_mma or rows <= 1 or tma:
        return 1.0
    (r0, e0), (r1, e1) = cal.row_efficiency
    if a.kind in ("gather", "scatter"):          # index tiles of several rows: twice the tile rate
        e0, e1 = min(1.0, GATHER_ROWS_GAIN * e0), min(1.0, GATHER_ROWS_GAIN * e1)
    if row_bytes <= r0:
        e = e0
    elif row_bytes >= 4 * r1:
        return 1.0
    elif row_bytes <= r1:
        e = e0 + (e1 - e0) * (row_bytes - r0) / (r1 - r0)
    else:
        e = e1 + (1.0 - e1) * (row_bytes - r1) / (3 * r1)
    two_axes = sum(d > 1 for d in a.shape) == 2          # any rank: the axes of 1 lay out nothing (v29)
    if a.kind in ("load", "store") and rows < WARP_LANES and two_axes and row_bytes <= r0:
        # a warp over fewer rows than its lanes (version 17), as measured: 2-D tiles of short rows
        e *= (WARP_LANES / rows) ** FEW_ROWS_EXPONENT
    return min(1.0, e)


def _iteration_us(r: Region, gpu: GPU, shared: int, tma: bool, slow: float, cal: Calibration,
                  notes: List[str], facts: Optional[CubinFacts] = None, overlap_loads: bool = True,
                  unrolled: Optional[Dict[int, float]] = None, only_loop: bool = False, per_sm: int = 1,
                  estimated: bool = False, innermost: bool = False, one_divider: bool = False) -> float:
    """One run of a region by one block: its loads' latency and transfer, then its arithmetic
    at the block's share of the SM. `mma` operands that the tensor memory accelerator copies
    (the cubin says so) do not take the element-load path: the tensor core and DRAM bound them.
    `unrolled`: the serial load waits per step of loops unrolled whole (`unrolled_load_waits`);
    `only_loop`: whether `r` is the IR's only loop; `per_sm`: the blocks an SM holds; `estimated`:
    whether `facts` are estimated from the IR; `innermost`: whether `r` is the innermost loop with `mma`;
    `one_divider`: whether `r` is the kernel body and no loop has IEEE divisions (the cubin's count
    of them is the body's: no loop's trips repeat them)."""
    # (an access under a branch costs in the share of the runs that take it: its weight)
    kib = lambda accs: sum(a.bytes * (1 - a.pad_fraction) * a.weight for a in accs) / 1024      # noqa: E731
    plain = [a for a in r.accesses if a.kind in ("load", "gather") and not a.feeds_mma]
    fed = fed_loop(r, facts)
    # nothing the next iteration reads waits on them (v15); but where the accelerator feeds the loop,
    # only its copies run ahead: the element loads of the consumer warps are waited in the step (v38)
    t = 0.0
    if overlap_loads and not waits_on_loads(r) and not fed:
        # unless the loop stops for them anyway (the cubin's waits; an estimate's one a step), each wait
        # the round trip from where the data are (v61)
        t = carried_nothing_wait_us(r, facts, plain, only_loop, per_sm, gpu, estimated)
        plain = []
    if fed:              # in a loop the accelerator's producer warps run ahead: a step, overlapping the rest
        # (they also copy gathered mma operands of rows, asynchronously: LDGSTS in the cubins; v14)
        tma, plain = True, [a for a in plain if not tma_copied(a, facts) and not _gathered_operand(a)]
        copied = _copied_loads(r, facts)
        stages = 1 if r.mmas else PIPELINE_STAGES
        if facts.shared_bytes and stages * sum(a.bytes for a in copied) > facts.shared_bytes:
            # an iteration's tiles larger than the block's shared memory (the cubin's): one stage,
            # reused within the iteration, so nothing runs ahead: it waits for its copies (version 15);
            # so does a loop without mma whose shared memory holds its tiles once but not twice: its
            # element-wise code reads them all together, and the producer's next copies wait for it
            # to release the one buffer (version 22). (An mma loop releases each operand after its
            # own mma: the next key tile's copy overlaps the value tile's product.)
            fed, plain = False, plain + copied
    elif any(tma_copied(a, facts) for a in plain):
        tma = True
    # float32 tiles cast to tfloat32 reach the tensor cores unconverted, copied to shared memory
    # (LDGSTS, or the accelerator) and read from it as they are: each iteration waits for them as
    # for a plain load, its latency and transfer (version 14)
    tf32 = [a for a in r.accesses if a.kind == "load" and a.feeds_mma and a.mma_dtype == "tfloat32"]
    plain += tf32
    # other 32-bit operands are converted element by element after the copy: they keep the operand path
    operands = [a for a in r.accesses if a.kind == "load" and a.feeds_mma and a not in tf32
                and (not tma_copied(a, facts) or a.itemsize >= 4)]
    # a float32 product runs on the CUDA cores: where nothing spills, streaming its B tile (loaded
    # as float32) costs next to nothing beyond the product's FMAs and only A takes the operand path
    # (the float32 product microbenchmarks, docs history 61; version 31)
    if facts is not None and not facts.local_bytes:
        operands = [a for a in operands if not (a.mma_dtype == "float32" and a.itemsize == 4
                                                and not _is_a(a))]
    stores = [a for a in r.accesses if a.kind not in ("load", "gather")]
    lat, per_kib = cal.load_us_tma if tma else cal.load_us
    r0, p = cal.mma_rate_tma if tma else cal.mma_rate
    if plain:
        if unrolled and id(r) in unrolled and not fed:
            # a step of a loop unrolled whole: its share of the cubin loop's waits in series (v40)
            lat = unrolled[id(r)] * load_round_trip_us(plain)
        t += lat * max(a.weight for a in plain) + sum(kib([a]) * _per_kib(a, per_kib, tma, cal) for a in plain)
    along_rows = lanes_along_rows_wait_us(r, facts, operands, gpu) if tma and not fed else None
    if along_rows is not None:       # an aligned array's operands loaded element by element (v57)
        t += along_rows
    elif operands and ((tma and not fed) or not cal.operand_rates):   # the SM's operand path, shared by its blocks
        k = kib(operands)
        t += shared * k / (r0 * (k / 8) ** p) / vector_gain(operands, facts)     # (v101)
    elif operands:                   # each operand tile at the rate its role and layout reach
        rates = {role: (r0, p) for role, r0, p in cal.operand_rates}
        for a in operands:
            r0, p = rates["a" if _is_a(a) else a.operand]
            k = kib([a])
            # a float32 A tile the accelerator copies with its M axis contiguous is read faster (v50)
            fast = a.operand == "a-mmajor" and a.mma_dtype == "float32" and tma_copied(a, facts)
            t += shared * k / (r0 * (k / 8) ** p) * (M_MAJOR_A_SHARE if fast else 1.0) / vector_gain([a], facts)
    if not fed:          # an mma loop loading element by element waits for its loads in series (version 27)
        t = max(t, mma_loop_load_wait_us(r, facts, plain + operands, only_loop, innermost))
    if stores:
        t += per_kib * kib(stores)
    t *= slow
    w = r.work
    sm_tc = _sm_tensor_s(w, gpu, cal, notes)
    fp32_rate = gpu.fp32_tflops * 1e12 / 2 * cal.fp32_efficiency / gpu.sms     # an SM's, instructions/s
    sm_issue = (w.fp32_instr / fp32_rate
                + _sfu_s(w.sfu, w.exp2, gpu, cal))
    # integer <-> float conversions on their own unit, after the rest (version 17)
    sm_convert = w.conversions / (CONVERSIONS_PER_SM_CLK * gpu.clock_ghz * 1e9)
    if fed:      # warp-specialised code: the asynchronous mma overlaps the CUDA-core work of other warps
        rest = t + w.reductions * cal.reduce_us * slow + (max(sm_tc, sm_issue) + sm_convert) * shared * 1e6
        # the store warp's waits on its bulk stores overlap the other warps' next tile (version 17)
        return max(rest, _fed_step_us(r, facts, cal) * slow, looped_store_drain_us(r, facts) * slow,
                   _serial_copies_us(r, facts, cal) * slow)
    # IEEE divisions one after another in each warp, in place of their instructions' issue (version 70)
    issued = w.divisions * (1 + DIVISION_INSTRUCTIONS) / fp32_rate * shared * 1e6
    divided = division_us(w, None if estimated else facts, threads(facts), gpu, one_divider)
    return (t + w.reductions * cal.reduce_us * slow + (sm_tc + sm_issue + sm_convert) * shared * 1e6
            + max(0.0, divided - issued))


def _is_a(a: Access) -> bool:
    """An mma's left operand, either layout."""
    return (a.operand or "a").startswith("a")


def _fed_step_us(r: Region, facts: CubinFacts, cal: Calibration) -> float:
    """The shortest step of a loop the accelerator feeds, for a block alone on its SM: an mma
    loop's pipeline step; otherwise what the SM's copies move in a step (version 37)."""
    return cal.tma_step_us if r.mmas else max(FED_STEP_US, _fed_copy_us(r, facts))


def _serial_copies_us(r: Region, facts: CubinFacts, cal: Calibration) -> float:
    """A step of a loop the accelerator feeds whose producer waits for each copy before it issues
    the next (`loop_serial_copies`, version 58): those copies' round trips one after another, each
    the accelerator load law's for the loop's mean copied tile."""
    copied = _copied_loads(r, facts)
    if not facts.loop_serial_copies or not copied:
        return 0.0
    lat, per_kib = cal.load_us_tma
    kib = sum(a.bytes for a in copied) / len(copied) / 1024
    return facts.loop_serial_copies * (lat + per_kib * kib) / unrolled_steps(r, facts)


def _fed_copy_us(r: Region, facts: CubinFacts) -> float:
    """The time the SM's copies take to move one step's tiles of a loop the accelerator feeds."""
    return sum(a.bytes for a in _copied_loads(r, facts)) / 1024 * FED_STEP_US_PER_KIB


def _copied_loads(r: Region, facts: Optional[CubinFacts]) -> List[Access]:
    """The tile loads of region `r` the accelerator copies."""
    return [a for a in r.accesses if a.kind == "load" and tma_copied(a, facts)]


def _fed_loop_us(r: Region, facts: CubinFacts, stepped, shared: int, slow: float):
    """A block's time in a loop without mma that the accelerator feeds, from its steps' time:
    each start waits for the first copies' round trip before the first step; blocks sharing the SM
    share its copies, whose rate bounds them together (version 37)."""
    if r.entries is None or r.mmas or not fed_loop(r, facts):
        return stepped
    return np.maximum(stepped + r.entries * FED_FILL_US * slow, r.trips * shared * _fed_copy_us(r, facts) * slow)


def _per_kib(a: Access, per_kib: float, tma: bool, cal: Calibration = H200) -> float:
    """µs per KiB of a tile a block waits for: the load law's (tiles read from DRAM), but the share of
    an accelerator copy's bytes that L2 serves (what other blocks read already, `_dram`) at L2's rate
    to the SM (version 22). Element loads keep their law: their issue, not the source, limits them;
    a gather of consecutive elements its share of it (`Calibration.gather_share`, version 87)."""
    moved = a.bytes * (1 - a.pad_fraction) * a.executions
    if not tma and a.kind == "gather" and a.contiguous:     # coalesced LDGs
        return per_kib * cal.gather_share
    if not tma or moved <= 0 or a.kind != "load" or a.dram_bytes <= 0:     # (0: not estimated)
        return per_kib
    from_dram = min(1.0, a.dram_bytes / moved)
    return from_dram * per_kib + (1 - from_dram) * min(per_kib, L2_TMA_US_PER_KIB)


def _sm_tensor_s(w, gpu: GPU, cal: Calibration, notes: List[str]) -> float:
    """Seconds of a block's tensor-core work at one SM's share of the GPU's rate."""
    return sum(f / (_tensor_rate(gpu, kind, cal, notes) / gpu.sms) for kind, f in w.tensor.items())


def _gathered_operand(a: Access) -> bool:
    """A gather along rows whose tile is an mma operand (e.g. a mixture of experts' token rows)."""
    return a.kind == "gather" and a.contiguous and bool(a.mma_dtype)


def _dram(counts: Counts, gpu: GPU, slots: int) -> None:
    """Estimated DRAM bytes of each access: blocks resident together (a wave of consecutive
    block ids) that read the same tiles read them from DRAM once; arrays that stay in L2
    (`_l2_resident_arrays`) and the taps of small windows (`_tap_windows`) are read once in all."""
    per_array: Dict[str, float] = {}
    l2 = gpu.l2_mb * 1e6 * L2_RESIDENT_SHARE
    resident = _l2_resident_arrays(counts, slots, l2)
    windows = _tap_windows(counts, slots, gpu.l2_mb * 1e6)     # (read at once: the whole L2, not a share)
    gapped = gapped_arrays(counts)
    for a in counts.accesses:
        useful = a.bytes * (1 - a.pad_fraction)
        if a.kind in ("gather", "scatter") and a.contiguous:
            a.dram_bytes = useful * a.executions                 # lanes along rows: like a tile
        elif priced_as_strided(a):
            # lanes a constant stride apart: DRAM's pairs of sectors, lines read in past gaps (v77);
            # so are the elements of an array strided along every axis (v103)
            a.dram_bytes = strided_lanes(a) * strided_dram_per_lane(a, a.array in gapped) * a.executions
        elif a.kind in ("gather", "scatter"):
            # a sector per element, worst case; lanes a few elements apart share sectors: the
            # sectors their span covers (version 24)
            a.dram_bytes = a.elements * scattered_sector_bytes(a) * a.executions
        elif a.kind == "atomic":
            a.dram_bytes = 0.0                  # atomics resolve in L2 (the atomics time covers them)
        elif a.kind == "store":
            a.dram_bytes = useful * a.executions
        else:
            a.dram_bytes = _wave_reuse(counts, a, slots, useful) * sector_rows_factor(counts, a, gpu.l2_mb * 1e6)
        # arrays small enough to stay in L2 are read once; so are the overlapping windows of gathers along
        # rows (stencil taps, a row read twice) and of lanes a few elements apart (a pooling's taps, v67):
        # they fit in L2. A gather whose lanes data places brings at most its array too (v96; picks: v94)
        once = a.array_bytes is not None and (a.array in resident or a.kind == "gather")
        # ... and so are a block's taps of one array (version 68), up to the array they slice
        whole = windows.get(id(a)) if a.kind == "load" else None
        if whole is None and a.kind != "store" and once:
            whole = a.array_bytes
        if whole is not None:
            before = per_array.get(a.array, 0.0)
            gathered = a.dram_bytes
            a.dram_bytes = max(0.0, min(a.dram_bytes, whole - before))
            if a.kind == "gather" and a.index_lanes and a.array not in resident:
                # rows that data picks share no window: what the L2 does not keep of the array is
                # read again at each pick (version 34)
                a.dram_bytes = max(a.dram_bytes, gathered * beyond_l2_share(a.array_bytes, gpu))
            per_array[a.array] = before + a.dram_bytes
    charge_picks(counts, gpu)               # single elements data picks (v94)
    # lanes a stride apart hold their sectors in L2, not DRAM's pairs or lines read in past gaps;
    # where the launch's data stay there from one launch to the next, that is what they move (v104)
    sectors = {id(a): l2_held_bytes(a) for a in counts.accesses if priced_as_strided(a)}
    share = l2_kept_share(counts, gpu, sectors)     # by the launch before: waits on its loads (v79, v105)
    for a in counts.accesses:
        a.l2_kept_share = share
        if share >= 1.0:
            a.dram_bytes = sectors.get(id(a), a.dram_bytes)


def _tap_windows(counts: Counts, slots: int, l2: float) -> Dict[int, int]:
    """The tile loads (by `id`) that are taps of one array: several loads of a block's one loop
    body or straight code reading it (a stencil's or a convolution's shifted windows, sliced or
    indexed), where all the resident blocks read of it together fits in `l2` — each tap finds in
    L2 what the others brought, so DRAM delivers the array once (version 68) — with the bytes of
    the array (of a slice, the array it slices). (Loads of one array in separate passes, a norm's,
    are not taps: a pass reads the whole row before the next begins.) One load of a view the loop
    slices anew each step is such taps too (version 72)."""
    groups: Dict[Tuple[int, str], List[Access]] = {}
    for a in counts.accesses:
        if a.kind == "load" and a.root_bytes is not None:
            groups.setdefault((id(a.region), a.array), []).append(a)
    resident_blocks = min(slots, counts.blocks)
    out: Dict[int, int] = {}
    for taps in groups.values():
        per_block = sum(a.bytes * float(a.region.trips.mean()) * a.weight for a in taps)
        if (len(taps) > 1 or _sliced_each_step(taps[0])) and resident_blocks * per_block <= l2:
            out.update((id(a), a.root_bytes) for a in taps)
    return out


def _sliced_each_step(a: Access) -> bool:
    """A load of a view its loop slices anew each step (a stencil's windows, a tap a step: v72)."""
    view, loop = a.op.operands[0].owner, a.region.op
    return loop is not None and view is not None and view.name == "array_slice" \
        and any(op is view for op in loop.blocks[0].ops)


def _l2_resident_arrays(counts: Counts, slots: int, l2: float) -> set:
    """Arrays that stay in L2 once read: arrays blocks read again (tile loads whose waves' reads exceed
    the array) share L2, smallest first, as far as they fit together (version 17: not each alone, so a
    matmul's two 27.5 MB weights re-read each wave no longer fit the H200's 30 MB); others do not compete."""
    sizes: Dict[str, int] = {}
    reread: Dict[str, float] = {}
    for a in counts.accesses:
        if a.array_bytes is None or a.kind == "store":
            continue
        sizes[a.array] = a.array_bytes
        if a.kind == "load":
            reread[a.array] = reread.get(a.array, 0.0) + _wave_reuse(counts, a, slots, a.bytes * (1 - a.pad_fraction))
    resident, used = set(), 0.0
    for name in sorted(sizes, key=lambda n: sizes[n]):
        if sizes[name] > l2:
            continue
        if reread.get(name, 0.0) > sizes[name]:        # read again: it holds its L2 share
            if used + sizes[name] > l2:
                continue
            used += sizes[name]
        resident.add(name)
    return resident


def _wave_reuse(counts: Counts, a: Access, slots: int, useful: float) -> float:
    per_block = a.region.trips * useful * a.weight
    keys = tile_keys(counts.scalars, a)
    if keys is None:
        return float(per_block.sum())
    # one key per (wave, tile): the blocks of a wave that start on the same tile walk the same
    # tiles, so DRAM delivers the longest walk among them once (version 39; before, the first
    # block's: a causal attention's first query block, one key tile, for the whole head)
    cols = np.concatenate([(np.arange(counts.blocks) // slots)[:, None], keys - keys.min(axis=0)], axis=1)
    dims = cols.max(axis=0) + 1
    if float(np.prod(dims.astype(np.float64))) < 2.0 ** 62:
        _, group = np.unique(np.ravel_multi_index(tuple(cols.T), tuple(dims)), return_inverse=True)
    else:
        _, group = np.unique(cols, axis=0, return_inverse=True)
    longest = np.zeros(int(group.max()) + 1 if group.size else 0)
    np.maximum.at(longest, group.ravel(), np.broadcast_to(per_block, (counts.blocks,)))
    return float(longest.sum())


def _unique_bytes(reads: List[Access]) -> float:
    """Bytes of distinct elements read, at most each array's size (when known)."""
    by_array: Dict[str, float] = {}
    for a in reads:
        cap = a.array_bytes if a.array_bytes is not None else float("inf")
        by_array[a.array] = min(cap, by_array.get(a.array, 0.0) + a.bytes * a.executions * (1 - a.pad_fraction))
    return sum(by_array.values())
