"""Kernel symbol names of cuda.tile's calling convention: `NAME_K<code>_<param>_<param>...`.

Each parameter is one letter and its facts: `A` array (`A<ndim><dtype>`, then per-axis
predicates grouped by hex axis mask — `s` shape constant, `i` shape divisor, `t` stride
constant, `v` stride divisor, `l` stride lower bound — then extras: `p` base-address divisor,
`g<id>` alias groups, `i` internal aliasing, `w`/`u` int64/uint32 indices), `S<dtype>` scalar,
`L` list, `T<count>` tuple, `B0/B1`, `I<int>`, `F<16 hex digits>` constants. Negative
integers are written `_N`. The names agree with upstream cuda-tile's (tested against it).
"""
from __future__ import annotations

import re
import struct
from typing import Dict, List, Tuple

from .. import dtypes as D
from .constraints import (ArrayConstraint, CallingConvention, ConstantConstraint, ListConstraint, ScalarConstraint,
                          TupleConstraint)

_DTYPE_CODES = {D.bool_: "b8", D.uint8: "u8", D.uint16: "u16", D.uint32: "u32", D.uint64: "u64", D.int8: "i8",
                D.int16: "i16", D.int32: "i32", D.int64: "i64", D.float16: "f16", D.float32: "f32",
                D.float64: "f64", D.bfloat16: "bf16", D.tfloat32: "tf32", D.float8_e4m3fn: "f8m3fn",
                D.float8_e5m2: "f8m2", D.float8_e8m0fnu: "f8m0fnu"}
_CODE_DTYPES = {v: k for k, v in _DTYPE_CODES.items()}

# axis predicates: letter, ArrayConstraint field, the value meaning "no fact"
_PREDICATES = (("s", "shape_constant", None), ("i", "shape_divisible_by", 1), ("t", "stride_constant", None),
               ("v", "stride_divisible_by", 1), ("l", "stride_lower_bound_incl", None))


def _int(v: int) -> str:
    return f"_{-v}" if v < 0 else str(v)


def _dtype(dt) -> str:
    try:
        return _DTYPE_CODES[dt]
    except KeyError:
        raise ValueError(f"Unexpected dtype {dt}") from None


def _alias_ids(parameters) -> Dict[str, int]:
    ids: Dict[str, int] = {}

    def visit(p):
        if isinstance(p, (ArrayConstraint, ListConstraint)):
            for g in p.alias_groups:
                ids.setdefault(g, len(ids))
        if isinstance(p, ListConstraint):
            visit(p.element)
        if isinstance(p, TupleConstraint):
            for item in p.items:
                visit(item)
    for p in parameters:
        visit(p)
    return ids


def _mangle(p, ids: Dict[str, int]) -> str:
    if isinstance(p, ArrayConstraint):
        by_predicate: Dict[str, int] = {}
        for letter, field, default in _PREDICATES:
            for axis, v in enumerate(getattr(p, field)):
                if v != default:
                    key = letter + _int(v)
                    by_predicate[key] = by_predicate.get(key, 0) | (1 << axis)
        by_mask: Dict[int, str] = {}
        for pred, mask in by_predicate.items():
            by_mask[mask] = by_mask.get(mask, "") + pred
        text = f"A{p.ndim}{_dtype(p.dtype)}" + "".join(f"_{m:x}{by_mask[m]}" for m in sorted(by_mask))
        extras = f"p{_int(p.base_addr_divisible_by)}" if p.base_addr_divisible_by != 1 else ""
        extras += "".join(f"g{i:x}" for i in sorted(ids[g] for g in p.alias_groups))
        extras += "i" if p.may_alias_internally else ""
        extras += {D.uint32: "u", D.int64: "w"}.get(p.index_dtype, "")
        return text + ("_" + extras if extras else "")
    if isinstance(p, ListConstraint):
        groups = "".join(f"g{i:x}" for i in sorted(ids[g] for g in p.alias_groups))
        return "L" + groups + ("i" if p.elements_may_alias else "") + _mangle(p.element, ids)
    if isinstance(p, TupleConstraint):
        return f"T{len(p.items)}" + "".join(_mangle(e, ids) for e in p.items)
    if isinstance(p, ScalarConstraint):
        return "S" + _dtype(p.dtype)
    if isinstance(p, ConstantConstraint):
        v = p.value
        if isinstance(v, bool):
            return f"B{int(v)}"
        if isinstance(v, int):
            return "I" + _int(v)
        return "F" + format(struct.unpack("<Q", struct.pack("<d", float(v)))[0], "016x")
    raise TypeError(f"Unexpected constraint type: {type(p)}")


def mangle_kernel_name(function_name: str, kernel_signature) -> str:
    """The symbol a kernel compiled for `kernel_signature` gets."""
    ids = _alias_ids(kernel_signature.parameters)
    parts = [f"{function_name}_K{kernel_signature.calling_convention.code}"]
    parts += [_mangle(p, ids) for p in kernel_signature.parameters]
    return "_".join(parts)


class _Cursor:
    def __init__(self, symbol: str, pos: int):
        self.symbol, self.pos = symbol, pos

    def read(self, pattern: str):
        m = re.compile(pattern).match(self.symbol, self.pos)
        if m is None:
            return None
        self.pos = m.end()
        return m.group(0)

    def expect(self, pattern: str, what: str) -> str:
        text = self.read(pattern)
        if text is None:
            raise ValueError(f"Invalid mangled name '{self.symbol}': {what} at position {self.pos}")
        return text

    def signed(self) -> int:
        sign = -1 if self.read("_") else 1
        return sign * int(self.expect("[0-9]+", "expected a decimal integer"))

    @property
    def done(self) -> bool:
        return self.pos >= len(self.symbol)


def _demangle_array(c: _Cursor, groups: List[str]):
    ndim = int(c.expect("[0-9]+", "expected the array's rank"))
    dtype = _CODE_DTYPES[c.expect("[a-z][a-z0-9]*", "expected a dtype")]
    facts = {field: [default] * ndim for _, field, default in _PREDICATES}
    fields = {letter: field for letter, field, _ in _PREDICATES}
    while c.read("_(?=[0-9a-f]+[silvt])"):
        mask = int(c.expect("[0-9a-f]+", "expected an axis mask"), 16)
        while True:
            letter = c.read("[siltv]")
            if letter is None:
                break
            value = c.signed()
            for axis in range(ndim):
                if mask >> axis & 1:
                    facts[fields[letter]][axis] = value
    extras = c.read("_(?=[pgiwu])")
    base, alias, internal, index = 1, [], False, D.int32
    if extras:
        if c.read("p"):
            base = c.signed()
        while c.read("g"):
            alias.append(_group(groups, int(c.expect("[0-9a-f]+", "expected an alias group id"), 16)))
        internal = c.read("i") is not None
        index = {"w": D.int64, "u": D.uint32}.get(c.read("[wu]") or "", D.int32)
    return ArrayConstraint(dtype, ndim, index_dtype=index, stride_lower_bound_incl=facts["stride_lower_bound_incl"],
                           alias_groups=alias, may_alias_internally=internal,
                           stride_constant=facts["stride_constant"], shape_constant=facts["shape_constant"],
                           stride_divisible_by=facts["stride_divisible_by"],
                           shape_divisible_by=facts["shape_divisible_by"], base_addr_divisible_by=base)


def _group(groups: List[str], gid: int) -> str:
    while len(groups) <= gid:
        groups.append(f"group{len(groups)}")
    return groups[gid]


def _demangle(c: _Cursor, groups: List[str]):
    kind = c.expect("[ALTSBIF]", "expected a parameter code")
    if kind == "A":
        return _demangle_array(c, groups)
    if kind == "L":
        alias = []
        while c.read("g"):
            alias.append(_group(groups, int(c.expect("[0-9a-f]+", "expected an alias group id"), 16)))
        may_alias = c.read("i") is not None
        element = _demangle(c, groups)
        return ListConstraint(element, alias_groups=alias, elements_may_alias=may_alias)
    if kind == "T":
        count = int(c.expect("[0-9]+", "expected an element count"))
        return TupleConstraint([_demangle(c, groups) for _ in range(count)])
    if kind == "S":
        return ScalarConstraint(_CODE_DTYPES[c.expect("[a-z0-9]+", "expected a dtype")])
    if kind == "B":
        return ConstantConstraint(c.expect("[01]", "expected 0 or 1") == "1")
    if kind == "I":
        return ConstantConstraint(c.signed())
    bits = int(c.expect("[0-9a-f]{16}", "expected 16 hex digits"), 16)
    return ConstantConstraint(struct.unpack("<d", struct.pack("<Q", bits))[0])


def demangled_parts(symbol: str) -> Tuple[str, list, CallingConvention]:
    """(function name, parameter constraints, calling convention) of a mangled symbol; alias
    groups are named group0, group1..."""
    pos = symbol.rfind("_K")
    if pos < 0:
        raise ValueError(f"`{symbol}` is not a mangled kernel name")
    c = _Cursor(symbol, pos + 2)
    cconv = CallingConvention.from_code(c.expect("[^_]+", "expected a calling convention code after _K"))
    groups: List[str] = []
    params = []
    while not c.done:
        c.expect("_", "expected an underscore")
        params.append(_demangle(c, groups))
    return symbol[:pos], params, cconv
