"""What a launcher needs from a CUDA cubin, read without any NVIDIA tool (backends/cubin_elf.py
reads the ELF): the required block size (EIATTR_REQNTID), the parameter layout
(EIATTR_KPARAM_INFO, EIATTR_CBANK_PARAM_SIZE) and the static shared memory (`.nv.shared.<kernel>`
section size); and which sections two builds of the same code share.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from ..backends import cubin_elf
from ..backends.cubin_elf import EIFMT_HVAL, SHT_NOBITS, CubinError

# EIATTR attribute codes we use (the numbering of NVIDIA's nvinfo format).
EIATTR_MAX_THREADS = 0x05
EIATTR_REQNTID = 0x10
EIATTR_KPARAM_INFO = 0x17
EIATTR_CBANK_PARAM_SIZE = 0x19
EIATTR_MAXREG_COUNT = 0x1B
EIATTR_REGCOUNT = 0x2F
EIATTR_CTA_PER_CLUSTER = 0x3D
EIATTR_EXPLICIT_CLUSTER = 0x3E


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


def kernel_names(data: bytes) -> List[str]:
    """Kernels of a cubin: the names of its `.text.<kernel>` sections."""
    return cubin_elf.kernel_names(cubin_elf.sections(data))


def kernel_info(data: bytes, name: Optional[str] = None) -> KernelInfo:
    """Launch facts of kernel `name` (default: the cubin's only kernel)."""
    sections = cubin_elf.sections(data)
    name = cubin_elf.pick_kernel(sections, name)
    info = KernelInfo(name)
    by_name = {s.name: s for s in sections}
    shared = by_name.get(".nv.shared." + name)
    if shared is not None:
        info.static_shared = shared.size
    nvinfo = by_name.get(".nv.info." + name)
    if nvinfo is None:
        return info
    params = []
    for attr, fmt, value in cubin_elf.eiattrs(nvinfo.body(data)):
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


def code_sections(data: bytes) -> Dict[str, object]:
    """Every section of a cubin but the debug information, with symbol numbers replaced by names
    (debug sections shift them) so that two builds of the same code compare equal."""
    sections = cubin_elf.sections(data)
    names = cubin_elf.symbol_names(data, sections)

    def sym(i: int) -> str:
        return names[i] if 0 <= i < len(names) else f"#{i}"
    out: Dict[str, object] = {}
    for x in sections:
        if not x.name or x.name.startswith(_DEBUG_PREFIXES) or x.name in _NAME_TABLES:
            continue
        body = x.body(data) if x.type != SHT_NOBITS else b""
        if x.name.startswith(".nv.info"):
            recs = []
            for attr, fmt, value in cubin_elf.eiattrs(body):
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
