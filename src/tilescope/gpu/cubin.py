"""A small reader for the parts of a CUDA cubin (ELF64) that a launcher needs.

The kernel's `.nv.info.<kernel>` section is a list of EIATTR records:
`u8 format, u8 attribute`, then by format: 0x01 no value (u16 pad), 0x02 one byte (+ pad),
0x03 one u16, 0x04 a u16 byte count followed by that many bytes. We read the required block size
(EIATTR_REQNTID), the parameter layout (EIATTR_KPARAM_INFO, EIATTR_CBANK_PARAM_SIZE) and the static
shared memory (`.nv.shared.<kernel>` section size) without any NVIDIA tool.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

ELF_MAGIC = b"\x7fELF"
EM_CUDA = 190

# EIATTR attribute codes we use (the numbering of NVIDIA's nvinfo format).
EIATTR_MAX_THREADS = 0x05
EIATTR_REQNTID = 0x10
EIATTR_KPARAM_INFO = 0x17
EIATTR_CBANK_PARAM_SIZE = 0x19
EIATTR_MAXREG_COUNT = 0x1B
EIATTR_REGCOUNT = 0x2F
EIATTR_CTA_PER_CLUSTER = 0x3D
EIATTR_EXPLICIT_CLUSTER = 0x3E

EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL, EIFMT_SVAL = 0x01, 0x02, 0x03, 0x04


class CubinError(ValueError):
    """The bytes are not a cubin, or lack what a launch needs."""


@dataclass(frozen=True)
class ParamInfo:
    ordinal: int
    offset: int
    size: int


@dataclass
class KernelInfo:
    name: str
    reqntid: Optional[Tuple[int, int, int]] = None
    max_threads: Optional[Tuple[int, int, int]] = None
    params: List[ParamInfo] = field(default_factory=list)     # sorted by ordinal
    param_bytes: Optional[int] = None
    static_shared: int = 0
    cluster: Optional[Tuple[int, int, int]] = None
    attrs: Dict[int, bytes] = field(default_factory=dict)    # raw payloads of other attributes

    @property
    def block(self) -> Tuple[int, int, int]:
        """The block shape to launch with: REQNTID when present, else MAX_THREADS."""
        dims = self.reqntid or self.max_threads
        if dims is None:
            raise CubinError(f"kernel '{self.name}' has neither EIATTR_REQNTID nor EIATTR_MAX_THREADS")
        return dims


@dataclass
class Section:
    name: str
    type: int
    offset: int
    size: int


def _sections(data: bytes) -> List[Section]:
    if data[:4] != ELF_MAGIC:
        raise CubinError("not an ELF file")
    if data[4] != 2 or data[5] != 1:
        raise CubinError("expected a little-endian ELF64 cubin")
    (e_machine,) = struct.unpack_from("<H", data, 18)
    if e_machine != EM_CUDA:
        raise CubinError(f"ELF machine {e_machine} is not CUDA ({EM_CUDA})")
    e_shoff, = struct.unpack_from("<Q", data, 0x28)
    e_shentsize, e_shnum, e_shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    raw = []
    for i in range(e_shnum):
        base = e_shoff + i * e_shentsize
        sh_name, sh_type, _flags, _addr, sh_offset, sh_size = struct.unpack_from("<IIQQQQ", data, base)
        raw.append((sh_name, sh_type, sh_offset, sh_size))
    _, _, str_off, str_size = raw[e_shstrndx]
    strtab = data[str_off:str_off + str_size]

    def name_at(i):
        end = strtab.find(b"\0", i)
        return strtab[i:end].decode("ascii", "replace")
    return [Section(name_at(n), t, o, s) for n, t, o, s in raw]


def _eiattrs(payload: bytes):
    """Yield (attribute, format, value bytes) records of one .nv.info section."""
    pos = 0
    while pos + 2 <= len(payload):
        fmt, attr = payload[pos], payload[pos + 1]
        pos += 2
        if fmt == EIFMT_SVAL:
            (size,) = struct.unpack_from("<H", payload, pos)
            pos += 2
            yield attr, fmt, payload[pos:pos + size]
            pos += size
        elif fmt in (EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL):
            yield attr, fmt, payload[pos:pos + 2]
            pos += 2
        else:
            raise CubinError(f"unknown EIATTR format 0x{fmt:02x} at byte {pos - 2}")


def kernel_names(data: bytes) -> List[str]:
    """Kernels of a cubin: the names of its `.text.<kernel>` sections."""
    return [s.name[len(".text."):] for s in _sections(data) if s.name.startswith(".text.")]


def kernel_info(data: bytes, name: Optional[str] = None) -> KernelInfo:
    """Launch facts of kernel `name` (default: the cubin's only kernel)."""
    sections = _sections(data)
    names = [s.name[len(".text."):] for s in sections if s.name.startswith(".text.")]
    if name is None:
        if len(names) != 1:
            raise CubinError(f"the cubin holds {len(names)} kernels ({', '.join(names)}); name one")
        name = names[0]
    elif name not in names:
        raise CubinError(f"kernel '{name}' is not in the cubin (it holds: {', '.join(names) or 'none'})")
    info = KernelInfo(name)
    by_name = {s.name: s for s in sections}
    shared = by_name.get(".nv.shared." + name)
    if shared is not None:
        info.static_shared = shared.size
    nvinfo = by_name.get(".nv.info." + name)
    if nvinfo is None:
        return info
    params = []
    for attr, fmt, value in _eiattrs(data[nvinfo.offset:nvinfo.offset + nvinfo.size]):
        if attr == EIATTR_REQNTID and len(value) >= 12:
            info.reqntid = struct.unpack_from("<III", value)
        elif attr == EIATTR_MAX_THREADS and len(value) >= 12:
            info.max_threads = struct.unpack_from("<III", value)
        elif attr == EIATTR_CTA_PER_CLUSTER and len(value) >= 12:
            info.cluster = struct.unpack_from("<III", value)
        elif attr == EIATTR_KPARAM_INFO and len(value) >= 12:
            _index, ordinal, offset, flags = struct.unpack_from("<IHHI", value)
            params.append(ParamInfo(ordinal, offset, (flags >> 18) & 0x3FFF))
        elif attr == EIATTR_CBANK_PARAM_SIZE and fmt == EIFMT_HVAL:
            (info.param_bytes,) = struct.unpack_from("<H", value)
        else:
            info.attrs[attr] = bytes(value)
    info.params = sorted(params, key=lambda p: p.ordinal)
    return info


# Sections that only describe the source: line tables, and the TileIR and PTX text tileiras embeds
# with --lineinfo (named by the text's hash, so section and symbol numbers shift with it).
_DEBUG_PREFIXES = (".debug", ".nv_debug", ".nv.tileir.debug", ".rel.debug", ".rela.debug", ".rel.nv_debug",
                   ".rela.nv_debug", ".rel.nv.tileir.debug", ".rela.nv.tileir.debug")
_NAME_TABLES = (".shstrtab", ".strtab", ".symtab")
# .nv.info attributes whose value starts with a symbol index (of the function or its constant bank)
_SYMBOL_ATTRS = {0x0A, 0x11, 0x12, 0x2F}


def _symbols(data: bytes, sections: List[Section]) -> List[str]:
    """Names of the symbols of .symtab by index (a section symbol by its section's name)."""
    symtab = next((x for x in sections if x.name == ".symtab"), None)
    strtab = next((x for x in sections if x.name == ".strtab"), None)
    if symtab is None or strtab is None:
        return []
    names = []
    for off in range(symtab.offset, symtab.offset + symtab.size, 24):
        st_name, st_info, _other, st_shndx = struct.unpack_from("<IBBH", data, off)
        end = data.find(b"\0", strtab.offset + st_name)
        name = data[strtab.offset + st_name:end].decode("ascii", "replace")
        if not name and st_info & 0xF == 3 and st_shndx < len(sections):          # STT_SECTION
            name = sections[st_shndx].name
        names.append(name)
    return names


def code_sections(data: bytes) -> Dict[str, object]:
    """Every section of a cubin but the debug information, with symbol numbers replaced by names
    (debug sections shift them) so that two builds of the same code compare equal."""
    sections = _sections(data)
    names = _symbols(data, sections)

    def sym(i: int) -> str:
        return names[i] if 0 <= i < len(names) else f"#{i}"
    out: Dict[str, object] = {}
    for x in sections:
        if not x.name or x.name.startswith(_DEBUG_PREFIXES) or x.name in _NAME_TABLES:
            continue
        body = data[x.offset:x.offset + x.size] if x.type != 8 else b""
        if x.name.startswith(".nv.info"):
            recs = []
            for attr, fmt, value in _eiattrs(body):
                if attr in _SYMBOL_ATTRS and len(value) >= 4:
                    value = (sym(struct.unpack_from("<I", value)[0]), value[4:])
                recs.append((attr, fmt, value))
            out[x.name] = recs
        elif x.name.startswith(".rela"):
            out[x.name] = [(r_off, sym(info >> 32), info & 0xFFFFFFFF, add) for r_off, info, add in
                           struct.iter_unpack("<QQq", body)]
        else:
            out[x.name] = (x.type, x.size, body)
    return out


def same_code(a: bytes, b: bytes) -> bool:
    """Whether two cubins run the same: identical code, constants, kernel attributes, shared memory
    and relocations, whatever their line tables and embedded source text say."""
    return code_sections(a) == code_sections(b)
