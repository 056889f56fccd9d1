"""Kernel symbols: upstream's name mangling of a kernel signature (calling conventions t1/t2).

A symbol is `<name>_K<convention>` then `_<code>` per parameter:

* array `A<ndim><dtype>`, then per group of axes with the same facts `_<axis mask in hex>` followed
  by the facts in a fixed order (`s<n>` constant shape, `i<n>` shape divisible by n, `t<n>` constant
  stride, `v<n>` stride divisible by n, `l<n>` stride lower bound), then `_` and the array-wide facts
  (`p<n>` base address divisible by n bytes, `g<id>` alias groups, `i` may alias internally,
  `w` 64-bit indices) when there are any;
* list of arrays `L[g<id>...][i]A...`, tuple `T<n><items>`, scalar `S<dtype>`;
* constants `B0/B1`, `I<n>` (`I_<n>` when negative), `F<16 hex digits of the double>`.

Two launches (or exports) of a kernel build the same cubin only if their symbols agree, so this
follows upstream's scheme exactly for every fact tilescope's argument metadata can state.
"""
from __future__ import annotations

import struct

from ... import dtypes as D
from ...meta import ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec
from typing import Dict, List, Sequence

DTYPE_CODES = {"bool_": "b8", "float8_e4m3fn": "f8m3fn", "float8_e5m2": "f8m2", "float8_e8m0fnu": "f8m0fnu"}


def dtype_code(dt) -> str:
    return DTYPE_CODES.get(dt.name, dt.short)


def _int(v: int) -> str:
    return f"_{-v}" if v < 0 else str(v)


def calling_convention(specs: Sequence) -> str:
    """t2 when a parameter needs it (a tuple, a constant shape), else t1, as upstream picks."""

    def needs_v2(s) -> bool:
        if isinstance(s, TupleSpec) or isinstance(s, ConstantSpec) and isinstance(s.value, tuple):
            return True
        if isinstance(s, ListSpec):
            s = s.item
        return isinstance(s, MetaTensor) and any(s.static_shape)
    return "t2" if any(needs_v2(s) for s in specs) else "t1"


def mangle(name: str, specs: Sequence) -> str:
    groups: Dict[str, int] = {}
    for s in _arrays(specs):
        for g in s.alias_groups:
            groups.setdefault(g, len(groups))
    return f"{name}_K{calling_convention(specs)}" + "".join("_" + _param(s, groups) for s in specs)


def _arrays(specs):
    for s in specs:
        if isinstance(s, MetaTensor):
            yield s
        elif isinstance(s, ListSpec):
            yield s
            yield s.item
        elif isinstance(s, TupleSpec):
            yield from _arrays(s.items)


def _param(s, groups: Dict[str, int]) -> str:
    if isinstance(s, MetaTensor):
        return "A" + _array(s, groups)
    if isinstance(s, ListSpec):
        head = "".join(f"g{i:x}" for i in sorted(groups[g] for g in s.alias_groups))
        return "L" + head + ("i" if s.elements_may_alias else "") + _param(s.item, groups)
    if isinstance(s, TupleSpec):
        return f"T{len(s.items)}" + "".join(_param(i, groups) for i in s.items)
    if isinstance(s, ScalarSpec):
        return "S" + dtype_code(s.dtype)
    value = s.value if isinstance(s, ConstantSpec) else s
    if isinstance(value, tuple):
        return f"T{len(value)}" + "".join(_param(ConstantSpec(v), groups) for v in value)
    if isinstance(value, bool):
        return f"B{int(value)}"
    if isinstance(value, int):
        return "I" + _int(value)
    if isinstance(value, float):
        return "F" + format(struct.unpack("<Q", struct.pack("<d", value))[0], "016x")
    raise ValueError(f"no symbol for a constant {value!r}")


def _array(a, groups: Dict[str, int]) -> str:
    out = f"{a.ndim}{dtype_code(a.dtype)}"
    facts: Dict[str, int] = {}          # fact text -> axis mask, in first-seen order

    def collect(values: Sequence, letter: str, default) -> None:
        for i, v in enumerate(values):
            if v != default:
                key = letter + _int(v)
                facts[key] = facts.get(key, 0) | (1 << i)
    constant_strides = tuple(s if st else None for s, st in zip(a.strides, a.static_strides))
    collect(tuple(d if st else None for d, st in zip(a.shape, a.static_shape)), "s", None)
    collect(tuple(1 if st else d for d, st in zip(a.shape_divisible_by, a.static_shape)), "i", 1)
    collect(constant_strides, "t", None)
    # a constant stride makes its divisibility and lower bound redundant (upstream drops them)
    collect(tuple(1 if c is not None else d for d, c in zip(a.stride_divisible_by, constant_strides)), "v", 1)
    collect(tuple(None if c is not None else lb for lb, c in zip(a.stride_lower_bound, constant_strides)),
            "l", None)
    by_mask: Dict[int, str] = {}
    for key, mask in facts.items():
        by_mask[mask] = by_mask.get(mask, "") + key
    out += "".join(f"_{mask:x}{by_mask[mask]}" for mask in sorted(by_mask))
    extra = f"p{_int(a.base_addr_divisible_by)}" if a.base_addr_divisible_by != 1 else ""
    extra += "".join(f"g{i:x}" for i in sorted(groups[g] for g in a.alias_groups))
    extra += "i" if a.may_alias_internally else ""
    extra += "w" if a.index_dtype is D.int64 else ""
    return out + ("_" + extra if extra else "")


def leaf_specs(specs: Sequence) -> List:
    """The specs of a kernel's run-time parameters in order (tuples flattened, constants dropped),
    matching the typed IR's parameter values."""
    out: List = []
    for s in specs:
        if isinstance(s, TupleSpec):
            out.extend(leaf_specs(s.items))
        elif not isinstance(s, ConstantSpec) and hasattr(s, "__slots__"):
            out.append(s)
    return out
