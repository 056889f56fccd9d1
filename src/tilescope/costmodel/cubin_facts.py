"""What a kernel's cubin says about its schedule, read from the ELF without any NVIDIA tool.

The IR does not fix how tileiras schedules a kernel: it picks the block size (128 or 256
threads), the registers per thread, the shared memory and whether values spill to local
memory. The cubin records all four:
- the kernel's `.nv.info.<kernel>` section: EIATTR_REQNTID / EIATTR_MAX_THREADS (block shape);
- the global `.nv.info` section: EIATTR_REGCOUNT and EIATTR_FRAME_SIZE (registers and local
  memory per thread, each keyed by the kernel's symbol index);
- the sizes of `.nv.shared.<kernel>` (static shared memory) and `.text.<kernel>` (16 bytes per
  sm_70+ instruction);
- for sm_90 code, the memory instructions in `.text.<kernel>`: the low 12 bits of each
  instruction are its opcode (LDG 0x981, STG 0x986, LDL 0x983, STL 0x387 — checked against
  `cuobjdump -sass` on every opcode of ~200 tileiras cubins), so global loads and stores and
  the spill code (local loads and stores) can be counted; so can the tensor-memory-accelerator
  copies (UTMALDG 0x5b4, UTMASTG 0x3b5), which move a whole tile per instruction: tileiras emits
  them for tile loads and stores of arrays known to be aligned with a unit last stride;
- from the scheduling bits and branch targets of that code (versions 10-13): the loads a thread
  issues before it waits, its waits on spill reloads, the spilled bytes its loops reload, and the
  subroutines (slow paths) it calls;
- the innermost loop holding warpgroup tensor-core mma (HGMMA, QGMMA): its mma, and whether its
  waits on them (WARPGROUP.DEPBAR) drain every group or keep one in flight;
- the accelerator copies a loop's producer waits for before it issues the next (version 58);
- one warp's clocks through the longest loop, from the control bits' stalls and waits (`warp_chain`, v99).

The ELF structures and `.nv.info` records are read by backends/cubin_elf.py, shared with the launcher.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Set, Tuple

from ..backends.cubin_elf import CubinError, eiattrs, pick_kernel, sections, symbol_names
from .sm90_code import (BARRIER_ARRIVE_OPCODE, BARRIER_WAIT_OPCODE, FCHK_OPCODE, LDG_OPCODE, LDL_OPCODE,
                        LDS_OPCODE, SHFL_OPCODE, WAIT_MASK_SHIFT, WRITE_BARRIER_SHIFT, Words)
from .warp_chain import loop_chain_clocks

MAX_THREADS, REQNTID, FRAME_SIZE, REGCOUNT = 0x05, 0x10, 0x11, 0x2F
THREADS = 128            # one warpgroup: the block tileiras builds for plain code on sm_80+ (REQNTID 128)
MAX_REGISTERS = 255      # a thread's register ceiling (sm_70+)
BRA_OPCODE, CALL_OPCODE, EXIT_OPCODE = 0x947, 0x944, 0x94D
TMA_LOAD_OPCODE = 0x5B4          # UTMALDG: a tile copy by the tensor memory accelerator
SM90_OPCODES = {LDG_OPCODE: "global_loads", 0x986: "global_stores", LDL_OPCODE: "local_loads", 0x387: "local_stores",
                TMA_LOAD_OPCODE: "tma_loads", 0x3B5: "tma_stores"}

# The bytes are not a CUDA cubin holding the kernel asked for (the launcher's error, one class).
CubinFactsError = CubinError


@dataclass(frozen=True)
class CubinFacts:
    kernel: str
    threads: int                 # per block
    registers: int               # per thread
    shared_bytes: int            # static shared memory per block
    local_bytes: int             # local memory (spills, local arrays) per thread
    instructions: int            # SASS instructions in the kernel's code
    # memory instructions in the code (static counts; None where the opcodes are not known)
    global_loads: Optional[int] = None
    global_stores: Optional[int] = None
    local_loads: Optional[int] = None
    local_stores: Optional[int] = None
    tma_loads: Optional[int] = None          # tile copies by the tensor memory accelerator
    tma_stores: Optional[int] = None
    global_access_bytes: Optional[float] = None   # mean bytes one LDG/STG moves per thread (1-16)
    loads_in_flight: Optional[float] = None  # LDGs issued together before a wait on one (version 10)
    mma_loop_load_waits: Optional[float] = None   # load round trips a pass of the mma loop waits (version 27)
    global_load_bytes: Optional[float] = None     # mean bytes one LDG moves per thread (version 12)
    local_load_waits: Optional[int] = None   # instructions that wait on a pending LDL (version 13; since
    #                                          version 53 those of the role with most, `_roles`, as local_loads)
    reload_bytes: Optional[int] = None       # distinct local bytes a thread reloads in loops, else anywhere (v13)
    reload_wait_bytes: Optional[float] = None     # mean bytes of the reloads one such wait waits for (v23)
    spill_area_bytes: Optional[int] = None   # a block's spill areas: each role's threads x its reload_bytes (v53)
    called_instructions: Optional[int] = None     # code of subroutines the kernel calls (slow paths; v13)
    loop_instructions: Optional[int] = None       # the longest loop's body (backward branch; v14)
    loop_shared_ops: Optional[int] = None         # of which shuffles and shared loads/stores (v14)
    loop_local_clocks: Optional[int] = None       # L1 clocks of its local loads/stores (spills; v15)
    # the innermost loop holding tensor-core mma (HGMMA/QGMMA): its mma instructions, and its waits
    # on them (WARPGROUP.DEPBAR) that drain every group (count 0) or keep some in flight (count > 0)
    mma_loop_mmas: Optional[int] = None
    mma_loop_full_waits: Optional[int] = None
    mma_loop_pipelined_waits: Optional[int] = None
    mma_loop_instructions: Optional[int] = None   # its body, and its local loads' and stores' L1 clocks
    mma_loop_local_clocks: Optional[int] = None
    loop_loads: Optional[int] = None              # the longest loop's LDGs, and the round trips a
    loop_load_waits: Optional[float] = None       # pass of it waits for them in series (version 40)
    loop_serial_copies: Optional[int] = None      # accelerator copies a loop pass waits for one by one (v58)
    divisions: Optional[int] = None               # IEEE float32 divisions' range checks (FCHK) in a role's code (v70)
    loop_chain_clocks: Optional[int] = None       # one warp's clocks through a pass of the longest loop (v99)

    @property
    def global_accesses(self) -> Optional[int]:
        return None if self.global_loads is None else self.global_loads + self.global_stores

    def to_json(self) -> dict:
        return {"kernel": self.kernel, "threads": self.threads, "registers": self.registers,
                "shared_bytes": self.shared_bytes, "local_bytes": self.local_bytes,
                "instructions": self.instructions, "global_loads": self.global_loads,
                "global_stores": self.global_stores, "local_loads": self.local_loads,
                "local_stores": self.local_stores, "tma_loads": self.tma_loads, "tma_stores": self.tma_stores,
                "global_access_bytes": self.global_access_bytes, "loads_in_flight": self.loads_in_flight,
                "global_load_bytes": self.global_load_bytes, "local_load_waits": self.local_load_waits,
                "reload_bytes": self.reload_bytes, "reload_wait_bytes": self.reload_wait_bytes,
                "spill_area_bytes": self.spill_area_bytes,
                "called_instructions": self.called_instructions,
                "loop_instructions": self.loop_instructions, "loop_shared_ops": self.loop_shared_ops,
                "loop_local_clocks": self.loop_local_clocks, "mma_loop_mmas": self.mma_loop_mmas,
                "mma_loop_full_waits": self.mma_loop_full_waits,
                "mma_loop_pipelined_waits": self.mma_loop_pipelined_waits,
                "mma_loop_instructions": self.mma_loop_instructions,
                "mma_loop_local_clocks": self.mma_loop_local_clocks,
                "mma_loop_load_waits": self.mma_loop_load_waits, "loop_loads": self.loop_loads,
                "loop_load_waits": self.loop_load_waits, "loop_serial_copies": self.loop_serial_copies,
                "divisions": self.divisions, "loop_chain_clocks": self.loop_chain_clocks}


def read_cubin_facts(data: bytes, kernel: Optional[str] = None, arch: Optional[str] = None) -> CubinFacts:
    """The schedule tileiras chose for `kernel` (default: the cubin's only kernel); memory
    instructions are counted when `arch` (default: the cubin's own, `cubin_arch`) is sm_90."""
    found = sections(data)
    arch = arch or cubin_arch(data)
    by_name = {s.name: s for s in found}
    kernel = pick_kernel(found, kernel)
    threads = None
    own = by_name.get(".nv.info." + kernel)
    for attr, _fmt, value in eiattrs(own.body(data)) if own else ():
        if attr in (REQNTID, MAX_THREADS) and len(value) >= 12 and (threads is None or attr == REQNTID):
            x, y, z = struct.unpack_from("<III", value)
            threads = x * y * z
    symbols = symbol_names(data, found)
    sym = symbols.index(kernel) if kernel in symbols else None
    per_symbol: Dict[int, int] = {}
    glob = by_name.get(".nv.info")
    for attr, _fmt, value in eiattrs(glob.body(data)) if glob else ():
        if attr in (REGCOUNT, FRAME_SIZE) and len(value) >= 8:
            index, amount = struct.unpack_from("<II", value)
            if index == sym or sym is None:
                per_symbol[attr] = amount
    if threads is None or REGCOUNT not in per_symbol:
        raise CubinFactsError(f"kernel '{kernel}': the cubin records no block size or register count")
    shared = by_name.get(".nv.shared." + kernel)
    text = by_name[".text." + kernel]
    counts = _memory_instructions(text.body(data), threads, per_symbol[REGCOUNT]) if arch == "sm_90" else {}
    return CubinFacts(kernel, threads, per_symbol[REGCOUNT], shared.size if shared else 0,
                      per_symbol.get(FRAME_SIZE, 0), text.size // 16, **counts)


def cubin_arch(data: bytes) -> str:
    """The architecture a cubin's code is for ("sm_90"): CUDA ELF files keep it in bits 8-15 of
    e_flags (the 64-bit header's word at 0x30)."""
    sections(data)          # a CUDA ELF file, or a CubinError saying what it is not
    return f"sm_{(struct.unpack_from('<I', data, 0x30)[0] >> 8) & 0xFF}"


def _decode(code: bytes) -> Words:
    """The code's 16-byte instructions, unpacked once for every reader below."""
    whole = len(code) // 16 * 16
    return [(16 * i, lo, hi) for i, (lo, hi) in enumerate(struct.iter_unpack("<QQ", code[:whole]))]


def _scoreboard_waits(words: Words, opcode: int) -> Iterator[Tuple[bool, bool]]:
    """For each instruction: (whether it is an `opcode` instruction, whether it waits on the
    scoreboard of a pending one issued earlier)."""
    for ours, cleared in _scoreboard_releases(words, opcode):
        yield ours, bool(cleared)


def _scoreboard_releases(words: Words, opcode: int) -> Iterator[Tuple[bool, Set[int]]]:
    """For each instruction: (whether it is an `opcode` instruction, the scoreboards of pending
    ones issued earlier that it waits on)."""
    pending: Set[int] = set()
    for _, lo, hi in words:
        mask = (hi >> WAIT_MASK_SHIFT) & 0x3F
        cleared = {b for b in pending if mask >> b & 1}
        pending -= cleared
        ours = lo & 0xFFF == opcode
        if ours:
            barrier = (hi >> WRITE_BARRIER_SHIFT) & 7
            if barrier != 7:
                pending.add(barrier)
        yield ours, cleared


def _loads_in_flight(words: Words) -> Optional[float]:
    """Global loads a thread keeps in flight: its LDGs over the memory round trips its code takes
    one after another, the code walked once in order (`_walk`, version 60). 1 means each load is
    waited for before the next issues. A wait on one scoreboard leaves the loads of the others in
    flight, so code that waits for its oldest load and then issues the next keeps a window of
    loads outstanding (before version 60 each wait counted as a round trip of its own)."""
    loads = _ldgs(words)
    if not loads:
        return None
    ready: Dict[int, float] = {}
    trips = max([_walk(words, ready, 0.0), *ready.values()])
    return loads / trips if trips else float(loads)


def _local_load_waits(words: Words) -> int:
    """Instructions that wait on the scoreboard of a pending local reload (LDL): the times a
    thread stops for spilled values. tileiras often reloads several spilled values (addresses,
    partial sums) together before one wait, so this can be far fewer than the LDLs."""
    return sum(waited for _, waited in _scoreboard_waits(words, LDL_OPCODE))


# the width field of LDG/STG (bits 9-11 of the instruction's second word): U8, S8, U16, S16, 32, 64, 128 bits
_WIDTH_BYTES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 8, 6: 16}


def _width(hi: int) -> int:
    return _WIDTH_BYTES.get((hi >> 9) & 7, 4)


def _memory_instructions(code: bytes, threads: Optional[int] = None, registers: int = 0) -> Dict[str, object]:
    """The counts of the code's instructions CubinFacts keeps; with the block's `threads` and the
    kernel's `registers`, its spill areas too."""
    words = _decode(code)
    counts: Dict[str, object] = dict.fromkeys(SM90_OPCODES.values(), 0)
    moved = loaded = 0
    for _, lo, hi in words:
        name = SM90_OPCODES.get(lo & 0xFFF)
        if name:
            counts[name] += 1
            if name in ("global_loads", "global_stores"):      # vector loads move up to 16 bytes a thread
                moved += _width(hi)
                loaded += _width(hi) if name == "global_loads" else 0
    accesses = counts["global_loads"] + counts["global_stores"]
    counts["global_access_bytes"] = moved / accesses if accesses else None
    counts["global_load_bytes"] = loaded / counts["global_loads"] if counts["global_loads"] else None
    counts["loads_in_flight"] = _loads_in_flight(words)
    # warpgroups of different roles run side by side: a thread stops for its own role's reloads
    roles = _roles(words)
    counts["local_loads"] = max(sum(lo & 0xFFF == LDL_OPCODE for _, lo, _ in body) for _, _, body in roles)
    counts["local_load_waits"] = max(_local_load_waits(body) for _, _, body in roles)
    counts["divisions"] = max(sum(lo & 0xFFF == FCHK_OPCODE for _, lo, _ in body) for _, _, body in roles)
    if threads is not None:
        counts["spill_area_bytes"] = _spill_area_bytes(roles, threads, registers)
    counts["reload_bytes"] = _reload_bytes(words)
    counts["reload_wait_bytes"] = _reload_wait_bytes(words)
    counts["called_instructions"] = _called_instructions(words)
    counts["loop_instructions"], counts["loop_shared_ops"], counts["loop_local_clocks"] = _longest_loop(words)
    (counts["mma_loop_mmas"], counts["mma_loop_full_waits"], counts["mma_loop_pipelined_waits"],
     counts["mma_loop_instructions"], counts["mma_loop_local_clocks"]) = _mma_loop_waits(words)
    counts["mma_loop_load_waits"] = _mma_loop_load_waits(words)
    longest = _longest_loop_body(words)
    counts["loop_loads"] = _ldgs(longest) if longest else None
    counts["loop_load_waits"] = _load_waits(longest)
    counts["loop_serial_copies"] = _loop_serial_copies(words)
    counts["loop_chain_clocks"] = loop_chain_clocks(longest) if longest else None
    return counts


def _mma_loop_load_waits(words: Words) -> Optional[float]:
    """The global-load round trips a pass of the innermost tensor-core loop waits for in series.
    Where that loop loads nothing and another loop loads without mma, tileiras split the IR's
    loop in two, a loop of loads and a loop of mma each pass: the waits are those of the loading
    loop (the one of most LDGs; version 41: upstream's 128x128 attention as built for aligned
    arrays waits 128 a pass, each load alone)."""
    mma = _innermost_mma_loop(words)
    waits = _load_waits(mma)
    if waits is None and mma is not None:
        bodies = [words[s // 16:e // 16 + 1] for s, e in _loops(words) if s >= 0]
        loading = [b for b in bodies if _ldgs(b) and not any(lo & 0xFFF in GMMA_OPCODES for _, lo, _ in b)]
        if loading:
            waits = _load_waits(max(loading, key=_ldgs))
    return waits


def _ldgs(body: Words) -> int:
    """The global loads (LDG) of a stretch of code."""
    return sum(lo & 0xFFF == LDG_OPCODE for _, lo, _ in body)


def _load_waits(body: Optional[Words]) -> Optional[float]:
    """Global-load round trips one pass of a loop body waits for, in series: the body run with
    each LDG's result arriving a round trip after it issues and each instruction waiting on the
    scoreboards its control bits name (steady state: loads issued late in one pass and waited for
    early in the next count once). None without the loop or loads in it. (Version 27 for the
    innermost tensor-core loop, version 40 for the longest loop.)"""
    if body is None or not _ldgs(body):
        return None
    ready: Dict[int, float] = {}
    now, ends = 0.0, []
    for _ in range(3):
        now = _walk(body, ready, now)
        ends.append(now)
    return ends[-1] - ends[-2]


def _walk(body: Words, ready: Dict[int, float], now: float) -> float:
    """One pass of `body` from round trip `now`: each LDG's result arrives a round trip after it
    issues, and each instruction waits for the scoreboards its control bits name. `ready` holds
    the pending scoreboards' arrivals and is updated; returns when the pass's last wait ends."""
    for _, lo, hi in body:
        mask = (hi >> WAIT_MASK_SHIFT) & 0x3F
        for b in [b for b in ready if mask >> b & 1]:
            now = max(now, ready.pop(b))
        if lo & 0xFFF == LDG_OPCODE and (hi >> WRITE_BARRIER_SHIFT) & 7 != 7:
            b = (hi >> WRITE_BARRIER_SHIFT) & 7
            ready[b] = max(ready.get(b, 0.0), now + 1.0)
    return now


def _branch_target(at: int, lo: int, hi: int) -> int:
    """Where a BRA at byte `at` goes: a signed count of 4-byte units from the next instruction,
    its low 8 bits in bits 16-23 of the first word and the rest from bit 34 on (checked against
    `cuobjdump -sass` on all 1,778 branches of a dozen tileiras cubins of the validation sets)."""
    units = (((lo >> 34) | ((hi & 0x3FFFF) << 30)) << 8) | ((lo >> 16) & 0xFF)
    if units >> 55:
        units -= 1 << 56
    return at + 16 + 4 * units


def _unconditional(lo: int) -> bool:
    """Whether an instruction runs always: its guard predicate (bits 12-15) is PT (7), not negated."""
    return (lo >> 12) & 0xF == 7


def _loops(words: Words) -> List[Tuple[int, int]]:
    """(start, end) byte offsets of the code's loops: each backward branch and its target. Not
    a loop (version 17): an unconditional branch placed after the kernel's last unconditional EXIT
    back to code before it — tileiras puts the retry of each wait on an accelerator barrier
    (SYNCS.PHASECHK.TRYWAIT) out of line there, ending in a jump back to the wait's next
    instruction (`nvdisasm` of set M's launched cubins: 27 to 40 such stubs, whose jumps spanned
    the whole kernel and were taken for its longest loop). Nor (version 19) a loop wholly after
    that EXIT: a retry's own spin on its barrier, or a called slow path's loop (set O's row-tile
    attention: 17 such spins, holding reloads, hid its 8 KB of straight-line spills)."""
    exits = [at for at, lo, _ in words if lo & 0xFFF == EXIT_OPCODE and _unconditional(lo)]
    last_exit = max(exits, default=None)
    out = []
    for at, lo, hi in words:
        if lo & 0xFFF == BRA_OPCODE:
            target = _branch_target(at, lo, hi)
            if last_exit is not None and last_exit < at and (target < last_exit and _unconditional(lo)
                                                             or target > last_exit):
                continue
            if target <= at:
                out.append((target, at))
    return out


def _reload_bytes(words: Words) -> int:
    """Distinct local-memory bytes (offset and width of each LDL) a thread reloads inside the
    code's loops (backward branches), or anywhere in the code when no loop reloads: the spill
    working set that has to stay in L1 for reloads to be cheap."""
    loops = _loops(words)
    reloads = [(at, (lo >> 40) & 0xFFFFFF, _width(hi)) for at, lo, hi in words if lo & 0xFFF == LDL_OPCODE]
    looped = [(offset, width) for at, offset, width in reloads if any(s <= at <= e for s, e in loops)]
    chosen = looped or [(offset, width) for _, offset, width in reloads]
    return sum(dict(sorted(chosen)).values())


# USETMAXREG (setmaxnreg), with the register budget in bits 32-39 of the first word
SETMAXREG_OPCODE, WARPGROUP_THREADS = 0x9C8, 128


def _roles(words: Words) -> List[Tuple[int, Optional[int], Words]]:
    """(start, register budget, code) of each role of warp-specialised code (sm_90 builds the
    accelerator feeds): each warpgroup enters its role at a USETMAXREG, raising its budget for
    the roles that compute, lowering it for the producer warpgroup's. The code before the first
    (budget None) is the prologue every thread runs, or, where no role raises its budget, the
    computing threads' own code; code without USETMAXREG is one role."""
    sites = [(at, (lo >> 32) & 0xFF) for at, lo, _ in words if lo & 0xFFF == SETMAXREG_OPCODE]
    starts = [(0, None)] + sites
    ends = [at for at, _ in sites] + [16 * len(words)]
    return [(at, budget, words[at // 16:end // 16]) for (at, budget), end in zip(starts, ends)]


def _spill_area_bytes(roles: List[Tuple[int, Optional[int], Words]], threads: int, registers: int) -> int:
    """Bytes of a block's spill areas: each role's threads times the distinct bytes its code
    reloads (`_reload_bytes`): a role reloads only its own spills (`cuobjdump -sass` of sets L,
    O, S, T and W: in their 384-thread builds one of the two computing roles holds nearly every
    LDL). A role that raises its budget is one of the computing warpgroups, one that lowers it
    the producer warpgroup."""
    if len(roles) == 1:
        return _reload_bytes(roles[0][2]) * threads
    raising = sum(budget is not None and budget > registers for _, budget, _ in roles)
    computing = threads - (WARPGROUP_THREADS if raising < len(roles) - 1 else 0)
    area = 0
    for _, budget, body in roles:
        if budget is None:
            role = threads if raising else computing
        else:
            role = computing // raising if budget > registers else WARPGROUP_THREADS
        area += role * _reload_bytes(body)
    return area


def _reload_wait_bytes(words: Words) -> Optional[float]:
    """Mean bytes (per thread) of the reloads each wait on pending LDLs waits for, over the waits
    inside the code's loops, or anywhere when no loop waits on one: what a thread brings back
    from memory per stop. None when nothing waits on a reload."""
    loops = _loops(words)
    pending: Dict[int, int] = {}          # scoreboard -> bytes of the LDLs that release it
    batches: List[Tuple[int, int]] = []
    for (at, _, hi), (is_reload, cleared) in zip(words, _scoreboard_releases(words, LDL_OPCODE)):
        if cleared:
            batches.append((at, sum(pending.pop(b, 0) for b in cleared)))
        barrier = (hi >> WRITE_BARRIER_SHIFT) & 7
        if is_reload and barrier != 7:
            pending[barrier] = pending.get(barrier, 0) + _width(hi)
    looped = [n for at, n in batches if any(s <= at <= e for s, e in loops)]
    chosen = looped or [n for _, n in batches]
    return sum(chosen) / len(chosen) if chosen else None


# shuffles (SHFL.BFLY), shared loads (LDS) and shared stores (STS) as tileiras's sm_90 code spells them
# (read against `cuobjdump -sass` of the set K cubins): each warp instruction takes the SM's shared-memory
# / shuffle pipe a clock (32 lanes per clock, the CUDA guide's throughput for compute capability 9.0)
SHARED_PIPE_OPCODES = {SHFL_OPCODE, LDS_OPCODE, 0x388, 0x988}
# local loads and stores (LDL, STL: spills) go through the SM's L1, 128 bytes a clock (sm_80+)
LOCAL_OPCODES, L1_BYTES_PER_CLK = {LDL_OPCODE, 0x387}, 128


# An accelerator copy's barriers (sm90_code.BARRIER_ARRIVE_OPCODE, BARRIER_WAIT_OPCODE): a barrier's
# address is a register (bits 24-31), a uniform register (second word, bits 0-5) and an offset
# (bits 40-63), read against `nvdisasm -hex`
SERIAL_COPY_WINDOW = 8           # instructions searched on each side of a copy


def _barrier(lo: int, hi: int) -> Tuple[int, int, int]:
    """The address a barrier instruction names: register, uniform register, offset."""
    return (lo >> 24) & 0xFF, hi & 0x3F, lo >> 40


def _serial_copy(words: Words, i: int) -> bool:
    """Whether copy `i` is waited for by the thread that issued it before it goes on: the last
    expect-bytes arrive before it and the first wait after it name the same barrier (tileiras's
    staged copies, e.g. set M's launched split-K GEMV: arrive, UTMALDG, wait on that barrier, and
    only then the slot for the consumer warps)."""
    before = [w for w in reversed(words[max(0, i - SERIAL_COPY_WINDOW):i]) if w[1] & 0xFFF == BARRIER_ARRIVE_OPCODE]
    after = [w for w in words[i + 1:i + 1 + SERIAL_COPY_WINDOW] if w[1] & 0xFFF == BARRIER_WAIT_OPCODE]
    return bool(before and after) and _barrier(*before[0][1:]) == _barrier(*after[0][1:])


def _loop_serial_copies(words: Words) -> int:
    """The most accelerator copies a pass of an innermost loop (one holding no other) waits for
    one after another: each such copy's round trip is the loop's own time. (Copies in an outer
    loop, such as set S's GEMM loading its C tile once an output tile around the K loop, are not
    a step's.)"""
    loops = [(s, e) for s, e in _loops(words) if s >= 0]
    innermost = [(s, e) for s, e in loops if not any((s, e) != (s2, e2) and s <= s2 and e2 <= e for s2, e2 in loops)]
    serial = [at for i, (at, lo, _) in enumerate(words) if lo & 0xFFF == TMA_LOAD_OPCODE and _serial_copy(words, i)]
    return max((sum(s <= at <= e for at in serial) for s, e in innermost), default=0)


def _longest_loop_body(words: Words) -> Optional[Words]:
    """The longest loop body (the first of those): the code from a backward branch's target to
    the branch; None for code without loops."""
    loops = [(start, end) for start, end in _loops(words) if start >= 0]
    if not loops:
        return None
    start, end = max(loops, key=lambda se: (se[1] - se[0]) // 16)
    return words[start // 16:end // 16 + 1]


def _longest_loop(words: Words) -> Tuple[int, int, int]:
    """(instructions, shuffle and shared-memory instructions, L1 clocks of the local loads and
    stores) of the longest loop body; (0, 0, 0) for code without loops."""
    body = _longest_loop_body(words)
    if body is None:
        return 0, 0, 0
    return len(body), sum(lo & 0xFFF in SHARED_PIPE_OPCODES for _, lo, _ in body), _local_clocks(body)


def _local_clocks(body: Words) -> int:
    """L1 clocks of a body's local loads and stores: a warp's LDL/STL moves 32 lanes of its width
    through the SM's L1 at L1_BYTES_PER_CLK (at least a clock)."""
    return sum(max(1, 32 * _width(hi) // L1_BYTES_PER_CLK) for _, lo, hi in body if lo & 0xFFF in LOCAL_OPCODES)


def _called_instructions(words: Words) -> int:
    """Instructions from the first target of a CALL on: tileiras places the subroutines a kernel
    calls (the IEEE slow paths of division and square root, taken only for corner-case operands)
    after the kernel's own code, so a block runs none of them on ordinary data. (In all 117
    tileiras cubins with calls seen here, the instruction before the first target is an
    unconditional EXIT or BRA: nothing falls through into them.)"""
    size = 16 * len(words)
    targets = [_branch_target(at, lo, hi) for at, lo, hi in words if lo & 0xFFF == CALL_OPCODE]
    first = min((t for t in targets if 0 < t < size), default=size)
    return (size - first) // 16


# Warpgroup tensor-core mma as tileiras's sm_90 code spells them (low 12 bits, read against
# `cuobjdump -sass`): HGMMA (float16/bfloat16/tf32) 0x9F0 and QGMMA (float8) 0x9F3 with both operands
# in shared memory; bit 10 set (QGMMA 0xDF3 seen, HGMMA 0xDF0 by the same bit) takes A from registers.
GMMA_OPCODES = {0x9F0, 0xDF0, 0x9F3, 0xDF3}
# WARPGROUP.ARRIVE and WARPGROUP.DEPBAR share this opcode; DEPBAR has bit 16 of the second word set
# and the number of mma groups it lets stay pending in bits 8-15 (`gsb0, 0x1` ...10100, `gsb0, 0x0` ...10000)
WARPGROUP_OPCODE, DEPBAR_BIT = 0x9C5, 1 << 16


def _depbar_pending(lo: int, hi: int) -> Optional[int]:
    """The groups a WARPGROUP.DEPBAR lets stay in flight, or None for any other instruction."""
    if lo & 0xFFF != WARPGROUP_OPCODE or not hi & DEPBAR_BIT:
        return None
    return (hi >> 8) & 0xFF


def _innermost_mma_loop(words: Words) -> Optional[Words]:
    """The body of the innermost (shortest; the first of those) loop that issues tensor-core mma."""
    def body(start, end):
        return words[start // 16:end // 16 + 1]
    holding = [(s, e) for s, e in _loops(words)
               if s >= 0 and any(lo & 0xFFF in GMMA_OPCODES for _, lo, _ in body(s, e))]
    if not holding:
        return None
    return body(*min(holding, key=lambda se: (se[1] - se[0], se[0])))


def _mma_loop_waits(words: Words) -> Tuple[Optional[int], ...]:
    """(mma instructions, waits for all of them, waits that keep some in flight, instructions, L1
    clocks of local loads and stores) of the innermost (shortest) loop that issues tensor-core
    mma, or Nones when no loop does. A loop whose waits all have count 0 stops the tensor core
    each iteration until its last mma is done: tileiras writes it when the loop reads an mma's
    product on the CUDA cores (an accumulator added to, the float8 path, a spilled accumulator),
    while a chained accumulator gets `gsb0, 0x1`."""
    inner = _innermost_mma_loop(words)
    if inner is None:
        return None, None, None, None, None
    pending = [p for p in (_depbar_pending(lo, hi) for _, lo, hi in inner) if p is not None]
    return (sum(lo & 0xFFF in GMMA_OPCODES for _, lo, _ in inner), pending.count(0),
            sum(p > 0 for p in pending), len(inner), _local_clocks(inner))
