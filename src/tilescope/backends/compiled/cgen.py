"""C text for compiled kernels: storage types, values (scalars and tiles), a line writer and
element-wise loop nests.

A tile value lives in a buffer (or is a view of one: broadcasts, reshapes and permutations
only change the element strides); a scalar is a C expression, usually a local variable.
Generated names follow IR value ids (`v17`), so the C reads next to `tilescope ir --stage final`.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from math import prod
from typing import Callable, List, Optional, Sequence, Tuple

from ... import dtypes as D
from ...ir.types import TileShaped
from ...semantics.numerics import round_float


class Unsupported(Exception):
    """The compiled backend cannot run this kernel; the message says why (the NumPy executor runs it)."""


# cuTile dtype name -> C storage type
_CTYPE = {
    "bool_": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
    "uint8": "uint8_t", "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t",
    "float16": "ts_f16", "bfloat16": "ts_bf16", "float32": "float", "float64": "double", "tfloat32": "float",
    "float8_e4m3fn": "ts_f8", "float8_e5m2": "ts_f8",
}
# integer dtype name -> suffix of the runtime's integer helpers (ts_floordiv_i32...)
INT_SUFFIX = {"int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
              "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64"}
# integer dtype name -> the unsigned type its wrapping arithmetic is done in
WRAP_TYPE = {"int8": "uint32_t", "int16": "uint32_t", "int32": "uint32_t", "int64": "uint64_t",
             "uint8": "uint32_t", "uint16": "uint32_t", "uint32": "uint32_t", "uint64": "uint64_t",
             "bool_": "uint32_t"}


def ctype(dtype: D.DType) -> str:
    t = _CTYPE.get(dtype.name)
    if t is None:
        raise Unsupported(f"dtype {dtype.name} is not supported by the compiled backend yet")
    return t


def itemsize(dtype: D.DType) -> int:
    return {"uint8_t": 1, "int8_t": 1, "ts_f8": 1, "int16_t": 2, "uint16_t": 2, "ts_f16": 2, "ts_bf16": 2,
            "int32_t": 4, "uint32_t": 4, "float": 4, "int64_t": 8, "uint64_t": 8, "double": 8}[ctype(dtype)]


# storage dtype -> the runtime function converting it to / from float32 (absent: a plain C cast)
_TO_FLOAT = {"float16": "ts_h2f", "bfloat16": "ts_bf2f", "float8_e4m3fn": "ts_e4m3_to_f",
             "float8_e5m2": "ts_e5m2_to_f"}
_FROM_FLOAT = {"float16": "ts_f2h", "bfloat16": "ts_f2bf", "float8_e4m3fn": "ts_f_to_e4m3",
               "float8_e5m2": "ts_f_to_e5m2", "tfloat32": "ts_tf32"}
_FROM_DOUBLE = {"float64": "", "float32": "(float)", "float16": "ts_d2h", "bfloat16": "ts_d2bf"}
_CANON = {"float32": "ts_canon32", "tfloat32": "ts_canon32", "float64": "ts_canon64", "float16": "ts_canon16",
          "bfloat16": "ts_canonbf"}


def to_double(expr: str, dtype: D.DType) -> str:
    """The value of a storage expression as the executor's `to_float64` gives it."""
    if dtype.name == "float16":
        return f"ts_h2d({expr})"
    return f"(double){to_float(expr, dtype)}"      # the float32 value is exact, so widening is too


def to_float(expr: str, dtype: D.DType) -> str:
    """float32 value of a float16/bfloat16/fp8/float32 storage expression (exact)."""
    return f"{_TO_FLOAT.get(dtype.name, '')}({expr})"


def from_float(expr: str, dtype: D.DType) -> str:
    """A float32 value rounded (nearest even) into storage `dtype` (float32 and narrower)."""
    return f"{_FROM_FLOAT.get(dtype.name, '')}({expr})"


def from_double(expr: str, dtype: D.DType) -> str:
    """A float64 value (taken as exact) rounded once, nearest even, into storage `dtype`."""
    f = _FROM_DOUBLE.get(dtype.name)
    if f is not None:
        return f"{f}({expr})"
    return from_float(f"ts_d2f_odd({expr})", dtype)     # round to odd, then once more: exact


def c_literal(value, dtype: D.DType) -> str:
    """A C expression for a constant already in the dtype's value set, in storage form."""
    import numpy as np
    if dtype.is_bool:
        return "1" if value else "0"
    if dtype.is_int:
        v = int(value)
        if dtype.name == "uint64":
            return f"{v}ull"
        if dtype.name == "int64":
            return f"(int64_t){v}ll" if v != -(1 << 63) else "INT64_MIN"
        return f"({ctype(dtype)}){v}"
    stored = np.asarray(round_float(np.array([float(value)]), dtype))
    if dtype.name == "float64":
        return _double_bits(float(stored[0]))
    if dtype.name in ("float32", "tfloat32"):
        bits = int(stored.view(np.uint32)[0])
        return f"ts_u2f(0x{bits:08X}u)"
    raw = int(stored.view(f"u{stored.dtype.itemsize}")[0])
    return f"({ctype(dtype)})0x{raw:X}u"


def _double_bits(x: float) -> str:
    import struct
    return f"ts_u2d(0x{struct.unpack('<Q', struct.pack('<d', x))[0]:016X}ull)"


# ---- values -----------------------------------------------------------------------------

@dataclass(frozen=True)
class CVal(TileShaped):
    """A run-time value in C. Scalars: `expr`. Tiles: `buf` (a pointer expression) and element
    strides per tile axis (0 along broadcast axes); a tile with `buf` None repeats `expr`.
    A *lazy* tile (`build` set) is an element-wise expression of `leaves` (tiles of its shape),
    computed where it is read (fusion: no buffer, no pass of its own)."""
    dtype: D.DType
    shape: Tuple[int, ...]
    expr: Optional[str] = None
    buf: Optional[str] = None
    strides: Tuple[int, ...] = ()
    leaves: Tuple["CVal", ...] = ()
    build: Optional[Callable[[List[str]], str]] = None
    iota: bool = False          # no buffer: the element is its own offset (an arange, or a view of one)

    @property
    def lazy(self) -> bool:
        return self.build is not None

    def at(self, idx: Sequence[str]) -> str:
        """Element expression at loop indices `idx` (one C expression per tile axis)."""
        if self.build is not None:
            return self.build([leaf.at(idx) for leaf in self.leaves])
        if self.buf is None and not self.iota:
            return self.expr
        terms = [f"{i}*{s}" if s != 1 else i for i, s in zip(idx, self.strides) if s != 0]
        return self.element(" + ".join(terms) if terms else "0")

    def element(self, offset: str) -> str:
        """The element at `offset` (in elements) of a buffer, or an iota's value there."""
        if self.iota:
            return f"(({ctype(self.dtype)})({offset}))"
        return f"{self.buf}[{offset}]"

    @property
    def strided(self) -> bool:
        """A buffer or an iota: elements found through strides."""
        return self.buf is not None or self.iota

    def scalar_expr(self) -> str:
        if self.buf is None:
            return self.expr
        return f"{self.buf}[0]"


def contiguous_strides(shape: Sequence[int]) -> Tuple[int, ...]:
    out, step = [], 1
    for n in reversed(shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))


def is_contiguous(v: CVal) -> bool:
    return v.buf is not None and all(s == c for s, c, n in zip(v.strides, contiguous_strides(v.shape), v.shape)
                                     if n != 1)


def tile_of(v: CVal, shape: Tuple[int, ...]) -> CVal:
    """`v` (a scalar or a tile of the same shape) seen as a tile of `shape` (scalars broadcast)."""
    if not v.shape:
        if v.buf is not None:
            return CVal(v.dtype, tuple(shape), buf=v.buf, strides=(0,) * len(shape))
        return CVal(v.dtype, tuple(shape), expr=v.expr, strides=(0,) * len(shape))
    if tuple(v.shape) != tuple(shape):
        raise Unsupported(f"internal: operand shape {v.shape} differs from result shape {shape}")
    return v


class Writer:
    """Indented C lines."""

    def __init__(self):
        self.lines: List[str] = []
        self.depth = 1

    def __call__(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def open(self, line: str) -> None:
        self(line + " {")
        self.depth += 1

    def close(self, tail: str = "") -> None:
        self.depth -= 1
        self("}" + tail)

    @contextmanager
    def loops(self, names: Sequence[str], extents: Sequence[int], until: str = ""):
        """Nested row-major `for` loops, index `names[k]` over `extents[k]` (stopping early once
        the C condition `until` holds), closed when the `with` block ends."""
        stop = f" && !{until}" if until else ""
        for n, t in zip(names, extents):
            self.open(f"for (int64_t {n} = 0; {n} < {t}{stop}; {n}++)")
        yield
        for _ in names:
            self.close()

    def text(self) -> str:
        return "\n".join(self.lines)


def merged_dims(shape: Sequence[int], operands: Sequence[CVal]) -> Tuple[List[int], List[List[int]]]:
    """Collapse adjacent loop dims that every operand walks contiguously (fewer, longer loops,
    which the C compiler vectorises); returns the dims and each operand's strides over them."""
    dims = [n for n in shape]
    strides = [list(o.strides) if o.strided else [0] * len(shape) for o in operands]
    k = len(dims) - 2
    while k >= 0:
        if all(s[k] == s[k + 1] * dims[k + 1] for s in strides):
            dims[k] *= dims[k + 1]
            del dims[k + 1]
            for s in strides:
                s[k] = s[k + 1]
                del s[k + 1]
        k -= 1
    keep = [i for i, n in enumerate(dims) if n != 1] or [len(dims) - 1] if dims else []
    return [dims[i] for i in keep], [[s[i] for i in keep] for s in strides]


_locals = [0]


def _fresh_local() -> str:
    _locals[0] += 1
    return f"h{_locals[0]}"


def loop_nest(w: Writer, shape: Sequence[int], operands: Sequence[CVal],
              body: Callable[[List[str]], None], prefix: str = "i") -> None:
    """Emit loops over `shape`; `body(elems)` writes the statements for one element, given each
    operand's element expression (operands may be scalars, broadcast or strided views)."""
    if not shape or prod(shape) == 1:
        body([o.at(["0"] * len(o.shape)) for o in operands])
        return
    # lazy operands take part through their leaves (their expressions are rebuilt per element)
    flat, spans = [], []
    for o in operands:
        parts = list(o.leaves) if o.lazy else [o]
        spans.append((len(flat), len(parts), o))
        flat.extend(parts)
    if any(o.lazy for o in operands):
        def rebuilt(e, inner=body):
            inner([o.build(e[s:s + n]) if o.lazy else e[s] for s, n, o in spans])
        loop_nest(w, shape, flat, rebuilt, prefix)
        return
    # an input read at one element for the whole loop: into a local first (GCC vectorises the
    # loop only then)
    hoisted = []
    for k, o in enumerate(operands):
        if k > 0 and o.buf is not None and all(s == 0 or n == 1 for s, n in zip(o.strides, o.shape)):
            name = _fresh_local()
            w(f"const __typeof__({o.buf}[0]) {name} = {o.buf}[0];")
            o = CVal(o.dtype, o.shape, expr=name, strides=o.strides)
        hoisted.append(o)
    operands = hoisted
    dims, strides = merged_dims(shape, operands)
    names = [f"{prefix}{k}" for k in range(len(dims))]
    for name, n in zip(names, dims):
        w.open(f"for (int64_t {name} = 0; {name} < {n}; {name}++)")
    elems = []
    for o, s in zip(operands, strides):
        if not o.strided:
            elems.append(o.expr)
        else:
            terms = [f"{i}*{st}" if st != 1 else i for i, st in zip(names, s) if st != 0]
            elems.append(o.element(" + ".join(terms) if terms else "0"))
    body(elems)
    for _ in dims:
        w.close()


def ftz(expr: str) -> str:
    """`expr` (a float32) with a subnormal value flushed to zero (flush_to_zero)."""
    return f"ts_ftz32({expr})"


def canon(expr: str, dtype: D.DType) -> str:
    """`expr` with a NaN result replaced by the GPU's canonical NaN."""
    f = _CANON.get(dtype.name)
    return expr if f is None else f"{f}({expr})"
