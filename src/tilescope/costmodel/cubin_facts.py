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
  the spill code (local loads and stores) can be counted.

An `.nv.info` section is a list of records `u8 format, u8 attribute`, then by format: 0x01 no
value (u16 pad), 0x02 one byte (+ pad), 0x03 one u16, 0x04 a u16 byte count and that many bytes.
(The launcher has its own reader in gpu/cubin.py; the cost model sits below it in the layers.)
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Tuple

EM_CUDA = 190
SHT_SYMTAB = 2
MAX_THREADS, REQNTID, FRAME_SIZE, REGCOUNT = 0x05, 0x10, 0x11, 0x2F
SIZED = 0x04
SM90_OPCODES = {0x981: "global_loads", 0x986: "global_stores", 0x983: "local_loads", 0x387: "local_stores"}


class CubinFactsError(ValueError):
    """The bytes are not a CUDA cubin holding the kernel asked for."""


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

    @property
    def global_accesses(self) -> Optional[int]:
        return None if self.global_loads is None else self.global_loads + self.global_stores

    def to_json(self) -> dict:
        return {"kernel": self.kernel, "threads": self.threads, "registers": self.registers,
                "shared_bytes": self.shared_bytes, "local_bytes": self.local_bytes,
                "instructions": self.instructions, "global_loads": self.global_loads,
                "global_stores": self.global_stores, "local_loads": self.local_loads,
                "local_stores": self.local_stores}


@dataclass
class _Section:
    name: str
    type: int
    offset: int
    size: int
    link: int
    entsize: int


def _sections(data: bytes) -> List[_Section]:
    if data[:4] != b"\x7fELF" or len(data) < 64:
        raise CubinFactsError("not an ELF file")
    if data[4] != 2 or data[5] != 1:
        raise CubinFactsError("not a little-endian ELF64 file")
    if struct.unpack_from("<H", data, 18)[0] != EM_CUDA:
        raise CubinFactsError("not a CUDA cubin (ELF machine is not EM_CUDA)")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    raw = []
    for i in range(shnum):
        name, typ, _flags, _addr, off, size, link, _info, _align, entsize = struct.unpack_from(
            "<IIQQQQIIQQ", data, shoff + i * shentsize)
        raw.append((name, typ, off, size, link, entsize))
    names = raw[shstrndx]
    table = data[names[2]:names[2] + names[3]]
    return [_Section(_cstr(table, n), t, o, s, ln, e) for n, t, o, s, ln, e in raw]


def _cstr(table: bytes, at: int) -> str:
    return table[at:table.find(b"\0", at)].decode("ascii", "replace")


def _records(payload: bytes) -> Iterator[Tuple[int, bytes]]:
    """(attribute, value bytes) of each record of an .nv.info section."""
    pos = 0
    while pos + 4 <= len(payload):
        fmt, attr = payload[pos], payload[pos + 1]
        if fmt == SIZED:
            size, = struct.unpack_from("<H", payload, pos + 2)
            yield attr, payload[pos + 4:pos + 4 + size]
            pos += 4 + size
        elif fmt in (0x01, 0x02, 0x03):
            yield attr, payload[pos + 2:pos + 4]
            pos += 4
        else:
            raise CubinFactsError(f"unknown .nv.info record format 0x{fmt:02x} at byte {pos}")


def _symbol_index(data: bytes, sections: List[_Section], name: str) -> Optional[int]:
    symtab = next((s for s in sections if s.type == SHT_SYMTAB), None)
    if symtab is None or not symtab.entsize:
        return None
    strtab = sections[symtab.link]
    strings = data[strtab.offset:strtab.offset + strtab.size]
    for i in range(symtab.size // symtab.entsize):
        st_name, = struct.unpack_from("<I", data, symtab.offset + i * symtab.entsize)
        if _cstr(strings, st_name) == name:
            return i
    return None


def read_cubin_facts(data: bytes, kernel: Optional[str] = None, arch: str = "sm_90") -> CubinFacts:
    """The schedule tileiras chose for `kernel` (default: the cubin's only kernel); memory
    instructions are counted when `arch` is sm_90."""
    sections = _sections(data)
    by_name: Dict[str, _Section] = {s.name: s for s in sections}
    kernels = [s.name[len(".text."):] for s in sections if s.name.startswith(".text.")]
    if kernel is None:
        if len(kernels) != 1:
            raise CubinFactsError(f"the cubin holds {len(kernels)} kernels; name one")
        kernel = kernels[0]
    elif kernel not in kernels:
        raise CubinFactsError(f"kernel '{kernel}' is not in the cubin (it holds: {', '.join(kernels) or 'none'})")
    threads = None
    own = by_name.get(".nv.info." + kernel)
    for attr, value in _records(_payload(data, own)) if own else ():
        if attr in (REQNTID, MAX_THREADS) and len(value) >= 12 and (threads is None or attr == REQNTID):
            x, y, z = struct.unpack_from("<III", value)
            threads = x * y * z
    sym = _symbol_index(data, sections, kernel)
    per_symbol: Dict[int, int] = {}
    glob = by_name.get(".nv.info")
    for attr, value in _records(_payload(data, glob)) if glob else ():
        if attr in (REGCOUNT, FRAME_SIZE) and len(value) >= 8:
            index, amount = struct.unpack_from("<II", value)
            if index == sym or sym is None:
                per_symbol[attr] = amount
    if threads is None or REGCOUNT not in per_symbol:
        raise CubinFactsError(f"kernel '{kernel}': the cubin records no block size or register count")
    shared = by_name.get(".nv.shared." + kernel)
    text = by_name[".text." + kernel]
    counts = _memory_instructions(_payload(data, text)) if arch == "sm_90" else {}
    return CubinFacts(kernel, threads, per_symbol[REGCOUNT], shared.size if shared else 0,
                      per_symbol.get(FRAME_SIZE, 0), text.size // 16, **counts)


def _memory_instructions(code: bytes) -> Dict[str, int]:
    counts = dict.fromkeys(SM90_OPCODES.values(), 0)
    for at in range(0, len(code) - 15, 16):
        name = SM90_OPCODES.get(struct.unpack_from("<H", code, at)[0] & 0xFFF)
        if name:
            counts[name] += 1
    return counts


def _payload(data: bytes, s: _Section) -> bytes:
    return data[s.offset:s.offset + s.size]
