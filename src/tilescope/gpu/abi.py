"""Calling convention v1 (`cutile_python_v1`): which kernel arguments become which parameters.

Each array argument is a pointer, then its shape (one index-typed integer per axis), then its
strides in elements (one per axis); index type int32 unless the array was declared with
`index_dtype=int64`. A run-time scalar is one value of its dtype (Python int → int32, float →
float32, bool → one byte). Compile-time constants are not passed. Parameters are laid out with
natural alignment, as C would: the cubin's EIATTR_KPARAM_INFO confirms the offsets
(`check_against_cubin`).

The layout is plain data (`ParamLayout`, JSON-able) so the GPU side needs no compiler.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from ..dtypes import dtype_from_name
from ..ir.types import ArrayType, TileType

# numpy dtype used to pack one scalar parameter of a cuTile dtype (bf16/fp8 by their bits).
_SCALAR_STORAGE = {
    "bool_": np.uint8, "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
    "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
    "float16": np.float16, "float32": np.float32, "float64": np.float64,
}
_INDEX_STORAGE = {"int32": np.int32, "int64": np.int64}


class ABIError(ValueError):
    """Arguments that do not match the compiled kernel's parameters."""


@dataclass(frozen=True)
class ArgSlot:
    """How one kernel argument (by position) is passed."""
    kind: str                      # "array" | "scalar" | "constant"
    dtype: Optional[str] = None    # cuTile dtype name (array element or scalar)
    ndim: int = 0
    index_dtype: str = "int32"
    value: Any = None              # the constant's value (kind "constant")

    def to_json(self) -> dict:
        d = {"kind": self.kind}
        if self.kind == "constant":
            d["value"] = self.value
        else:
            d["dtype"] = self.dtype
        if self.kind == "array":
            d["ndim"] = self.ndim
            d["index_dtype"] = self.index_dtype
        return d

    @classmethod
    def from_json(cls, d: dict) -> "ArgSlot":
        return cls(d["kind"], d.get("dtype"), d.get("ndim", 0), d.get("index_dtype", "int32"), d.get("value"))


@dataclass(frozen=True)
class ParamLayout:
    slots: Tuple[ArgSlot, ...]

    def to_json(self) -> list:
        return [s.to_json() for s in self.slots]

    @classmethod
    def from_json(cls, items: list) -> "ParamLayout":
        return cls(tuple(ArgSlot.from_json(d) for d in items))

    def param_sizes(self) -> List[int]:
        """Byte size of every CUDA parameter, in order."""
        out = []
        for s in self.slots:
            if s.kind == "array":
                isz = np.dtype(_INDEX_STORAGE[s.index_dtype]).itemsize
                out += [8] + [isz] * (2 * s.ndim)
            elif s.kind == "scalar":
                out.append(np.dtype(_scalar_storage(s.dtype)).itemsize)
        return out

    def param_offsets(self) -> List[Tuple[int, int]]:
        """(offset, size) of every parameter with natural alignment."""
        out, pos = [], 0
        for size in self.param_sizes():
            pos = (pos + size - 1) // size * size
            out.append((pos, size))
            pos += size
        return out


def _scalar_storage(dtype: str):
    if dtype in _SCALAR_STORAGE:
        return _SCALAR_STORAGE[dtype]
    bits = dtype_from_name(dtype).bitwidth
    return {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]   # bf16, fp8: raw bits


def layout_of(fn) -> ParamLayout:
    """The layout of a compiled kernel's final typed IR (`Compiled.final`)."""
    slots = []
    for p in fn.params:
        if p.is_constant:
            c = p.constant
            slots.append(ArgSlot("constant", value=c if isinstance(c, (bool, int, float, str)) or c is None
                                 else repr(c)))
            continue
        if len(p.values) != 1:
            raise ABIError(f"parameter '{p.name}' is a tuple or list; calling convention v1 passes only "
                           f"arrays and scalars")
        t = p.values[0].type
        if isinstance(t, ArrayType):
            slots.append(ArgSlot("array", t.dtype.name, t.ndim, t.index_dtype.name))
        elif isinstance(t, TileType) and not t.shape:
            slots.append(ArgSlot("scalar", t.dtype.name))
        else:
            raise ABIError(f"parameter '{p.name}' of type {t} cannot be passed")
    return ParamLayout(tuple(slots))


@dataclass(frozen=True)
class DeviceArrayInfo:
    """What the launch needs from a device array: address, shape, strides in elements, dtype."""
    ptr: int
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]
    dtype: str                       # cuTile dtype name (or a raw 'uintN'/'intN' storage name)
    itemsize: int


# cuTile dtypes whose device arrays often come as raw integers of the same width (CuPy has no bf16).
_RAW_OK = {"bfloat16": 2, "float8_e4m3fn": 1, "float8_e5m2": 1, "float8_e8m0fnu": 1, "tfloat32": 4}


def _compatible(want: str, have: str, itemsize: int) -> bool:
    if want == have:
        return True
    return _RAW_OK.get(want) == itemsize and have.startswith(("uint", "int"))


def pack(layout: ParamLayout, args: Sequence[Any], describe) -> List[np.generic]:
    """CUDA parameters (numpy scalars, in order) for `args`.

    `describe(x)` turns an array argument into a DeviceArrayInfo. Constants must be given (as at
    `ct.launch`) and equal the compiled value; they are not passed.
    """
    if len(args) != len(layout.slots):
        raise ABIError(f"the kernel takes {len(layout.slots)} arguments, got {len(args)}")
    out: List[np.generic] = []
    for i, (slot, a) in enumerate(zip(layout.slots, args)):
        if slot.kind == "constant":
            if slot.value is not None and not isinstance(slot.value, str) and a != slot.value:
                raise ABIError(f"argument {i} is the compile-time constant {slot.value!r}, got {a!r}")
            continue
        if slot.kind == "scalar":
            if hasattr(a, "shape") and getattr(a, "shape", ()) != ():
                raise ABIError(f"argument {i} is a {slot.dtype} scalar, got an array")
            store = _scalar_storage(slot.dtype)
            if slot.dtype in _SCALAR_STORAGE:
                out.append(store(a))
            else:
                raw = np.asarray(a).astype(dtype_from_name(slot.dtype).numpy)
                out.append(raw.view(store)[()])
            continue
        info = describe(a)
        if len(info.shape) != slot.ndim:
            raise ABIError(f"argument {i} must be a {slot.ndim}-d array, got {len(info.shape)}-d")
        if not _compatible(slot.dtype, info.dtype, info.itemsize):
            raise ABIError(f"argument {i} must be a {slot.dtype} array, got {info.dtype}")
        idx = _INDEX_STORAGE[slot.index_dtype]
        limit = np.iinfo(idx).max
        for what, vals in (("shape", info.shape), ("stride", info.strides)):
            for v in vals:
                if v < 0 or v > limit:
                    raise ABIError(f"argument {i}: {what} {v} does not fit {slot.index_dtype} "
                                   f"(or is negative; calling convention v1 assumes strides >= 0)")
        out.append(np.uint64(info.ptr))
        out += [idx(v) for v in info.shape] + [idx(v) for v in info.strides]
    return out


def param_buffer(values: Sequence[np.generic]) -> bytes:
    """The parameter block as the driver would see it (natural alignment): for tests and checks."""
    buf = bytearray()
    for v in values:
        size = v.dtype.itemsize
        buf += b"\0" * ((-len(buf)) % size)
        buf += v.tobytes()
    return bytes(buf)


def check_against_cubin(layout: ParamLayout, kinfo) -> None:
    """Raise ABIError if our parameter offsets/sizes differ from the cubin's EIATTR_KPARAM_INFO."""
    if not kinfo.params:
        return
    ours = layout.param_offsets()
    theirs = [(p.offset, p.size) for p in kinfo.params]
    if ours != theirs:
        raise ABIError(f"parameter layout mismatch for {kinfo.name}: ours {ours}, cubin {theirs}")
