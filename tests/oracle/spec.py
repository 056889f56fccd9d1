"""Minimal private parser for ``# tilescope: args`` spec text.

This is a stand-in used by the oracle until/unless ``tilescope.meta.parse_args``
is available; :func:`to_upstream_args` prefers that implementation when it can be
imported, and falls back to the converter below otherwise.

Spec grammar (comma separated at bracket depth 0):
  * ``dtype[d0,d1,...]``  array (dims are ints or ``?``; ``dtype[]`` is 0-d)
  * ``dtype``             runtime scalar
  * ``(spec, spec, ...)`` tuple parameter
  * ``list[dtype[...]]``  list-of-arrays parameter
  * anything else         Python literal -> compile-time constant
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

# short name -> cuda.tile attribute name
DTYPE_ALIASES = {
    "b8": "bool_", "bool": "bool_", "bool_": "bool_",
    "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
    "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
    "tf32": "tfloat32",
    "f8e4m3fn": "float8_e4m3fn", "f8e5m2": "float8_e5m2",
    "f8e8m0fnu": "float8_e8m0fnu", "f8e5m3fnu": "float8_e5m3fnu",
    "f4e2m1fn": "float4_e2m1fn",
}
for _full in set(DTYPE_ALIASES.values()):
    DTYPE_ALIASES.setdefault(_full, _full)


@dataclass(frozen=True)
class ArraySpec:
    dtype: str          # cuda.tile attribute name
    dims: tuple         # ints or None for '?'


@dataclass(frozen=True)
class ScalarSpec:
    dtype: str


@dataclass(frozen=True)
class ConstSpec:
    value: Any


@dataclass(frozen=True)
class TupleSpec:
    items: tuple


@dataclass(frozen=True)
class ListSpec:
    element: ArraySpec


def split_top(text: str, sep: str = ",") -> list[str]:
    """Split ``text`` on ``sep`` at bracket depth 0, ignoring quoted strings."""
    parts, depth, cur, quote = [], 0, [], None
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    tail = "".join(cur).strip()
    if tail or parts:
        parts.append(tail)
    return parts


def parse_one(text: str):
    text = text.strip()
    if text.startswith("list[") and text.endswith("]"):
        elem = parse_one(text[5:-1])
        if not isinstance(elem, ArraySpec):
            raise ValueError(f"list element must be an array spec: {text!r}")
        return ListSpec(elem)
    if text.startswith("(") and text.endswith(")"):
        inner = text[1:-1]
        return TupleSpec(tuple(parse_one(p) for p in split_top(inner)))
    if "[" in text and text.endswith("]"):
        name, dims = text[:-1].split("[", 1)
        name = name.strip()
        if name in DTYPE_ALIASES:
            ds = []
            for d in split_top(dims):
                ds.append(None if d == "?" else int(d))
            return ArraySpec(DTYPE_ALIASES[name], tuple(ds))
    if text in DTYPE_ALIASES:
        return ScalarSpec(DTYPE_ALIASES[text])
    return ConstSpec(ast.literal_eval(text))


def parse_args(text: str) -> list:
    return [parse_one(p) for p in split_top(text)]


def _convert(spec, ct, comp):
    if isinstance(spec, ArraySpec):
        return comp.ArrayConstraint(getattr(ct, spec.dtype), len(spec.dims),
                                    index_dtype=ct.int32, stride_lower_bound_incl=0,
                                    alias_groups=(), may_alias_internally=False)
    if isinstance(spec, ScalarSpec):
        return comp.ScalarConstraint(getattr(ct, spec.dtype))
    if isinstance(spec, ConstSpec):
        return spec.value
    if isinstance(spec, TupleSpec):
        return tuple(_convert(s, ct, comp) for s in spec.items)
    if isinstance(spec, ListSpec):
        return comp.ListConstraint(_convert(spec.element, ct, comp), alias_groups=(),
                                   elements_may_alias=False)
    raise TypeError(spec)


def to_upstream_args(text: str) -> tuple[list, str]:
    """Return (list of upstream parameter constraints, converter name)."""
    import cuda.tile as ct
    import cuda.tile.compilation as comp
    try:
        from tilescope.meta import parse_args as ts_parse_args  # type: ignore
    except Exception:
        ts_parse_args = None
    if ts_parse_args is not None:
        try:
            return [s.to_upstream() for s in ts_parse_args(text)], "tilescope.meta"
        except Exception:
            pass
    return [_convert(s, ct, comp) for s in parse_args(text)], "tests.oracle.spec"
