"""Reading a CUDA cubin (ELF64) without any NVIDIA tool: its sections, symbols and `.nv.info` records.

The launcher (gpu/cubin.py: block size, parameter layout) and the cost model
(costmodel/cubin_facts.py: registers, spills, instruction counts) read different facts from
the same structures; both stand on this module, which sits in the lowest layer.

An `.nv.info` section is a list of EIATTR records: `u8 format, u8 attribute`, then by format:
0x01 no value (u16 pad), 0x02 one byte (+ pad), 0x03 one u16, 0x04 a u16 byte count and that
many bytes.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Iterator, List, Optional, Tuple

ELF_MAGIC = b"\x7fELF"
EM_CUDA = 190
SHT_SYMTAB, SHT_NOBITS = 2, 8
STT_SECTION = 3
EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL, EIFMT_SVAL = 0x01, 0x02, 0x03, 0x04


class CubinError(ValueError):
    """The bytes are not a cubin, or lack what was asked of them."""


@dataclass(frozen=True)
class Section:
    name: str
    type: int
    offset: int
    size: int
    link: int = 0
    entsize: int = 0

    def body(self, data: bytes) -> bytes:
        return data[self.offset:self.offset + self.size]


def sections(data: bytes) -> List[Section]:
    """The section headers of a little-endian ELF64 cubin, with their names."""
    if data[:4] != ELF_MAGIC or len(data) < 64:
        raise CubinError("not an ELF file")
    if data[4] != 2 or data[5] != 1:
        raise CubinError("not a little-endian ELF64 file")
    machine, = struct.unpack_from("<H", data, 18)
    if machine != EM_CUDA:
        raise CubinError(f"not a CUDA cubin (ELF machine {machine} is not EM_CUDA, {EM_CUDA})")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    raw = []
    for i in range(shnum):
        name, typ, _flags, _addr, off, size, link, _info, _align, entsize = struct.unpack_from(
            "<IIQQQQIIQQ", data, shoff + i * shentsize)
        raw.append((name, typ, off, size, link, entsize))
    names = Section("", 0, raw[shstrndx][2], raw[shstrndx][3]).body(data)
    return [Section(_cstr(names, n), t, o, s, ln, e) for n, t, o, s, ln, e in raw]


def kernel_names(found: List[Section]) -> List[str]:
    """Kernels of a cubin: the names of its `.text.<kernel>` sections."""
    return [s.name[len(".text."):] for s in found if s.name.startswith(".text.")]


def pick_kernel(found: List[Section], name: Optional[str]) -> str:
    """`name` if the cubin holds that kernel; with no name, the cubin's only kernel."""
    kernels = kernel_names(found)
    if name is None:
        if len(kernels) != 1:
            raise CubinError(f"the cubin holds {len(kernels)} kernels ({', '.join(kernels)}); name one")
        return kernels[0]
    if name not in kernels:
        raise CubinError(f"kernel '{name}' is not in the cubin (it holds: {', '.join(kernels) or 'none'})")
    return name


def eiattrs(payload: bytes) -> Iterator[Tuple[int, int, bytes]]:
    """(attribute, format, value bytes) of each record of one `.nv.info` section."""
    pos = 0
    while pos + 2 <= len(payload):
        fmt, attr = payload[pos], payload[pos + 1]
        if fmt == EIFMT_SVAL:
            size, = struct.unpack_from("<H", payload, pos + 2)
            yield attr, fmt, payload[pos + 4:pos + 4 + size]
            pos += 4 + size
        elif fmt in (EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL):
            yield attr, fmt, payload[pos + 2:pos + 4]
            pos += 4
        else:
            raise CubinError(f"unknown EIATTR format 0x{fmt:02x} at byte {pos}")


def symbol_names(data: bytes, found: List[Section]) -> List[str]:
    """Names of the symbol table's entries by index (a section symbol by its section's name)."""
    symtab = next((s for s in found if s.type == SHT_SYMTAB), None)
    if symtab is None or not symtab.entsize:
        return []
    strings = found[symtab.link].body(data)
    names = []
    for off in range(symtab.offset, symtab.offset + symtab.size, symtab.entsize):
        st_name, st_info, _other, st_shndx = struct.unpack_from("<IBBH", data, off)
        name = _cstr(strings, st_name)
        if not name and st_info & 0xF == STT_SECTION and st_shndx < len(found):
            name = found[st_shndx].name
        names.append(name)
    return names


def _cstr(table: bytes, at: int) -> str:
    return table[at:table.find(b"\0", at)].decode("ascii", "replace")
