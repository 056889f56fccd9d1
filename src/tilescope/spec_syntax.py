"""The text syntax of argument specs (`--args`, `# tilescope: args` directives,
`MetaTensor.parse`): an array spec's fields, and splitting a list at its top-level commas.
Builds no objects (meta.py does), so it depends on the dtype table alone."""
from __future__ import annotations

import re
from typing import Any

from .dtypes import as_dtype

_ITEM = re.compile(r"^(\?|-?\d+)(!?)(?:%(\d+))?$")


def array_spec(spec: str):
    """(shape, dtype, strides, facts) of an array spec such as 'f32[1024,?]', 'f16[?,?]:[?,1]',
    'f32[?]%16~@i64' (shape and strides with None for '?'; facts as MetaTensor's keywords)."""
    if not isinstance(spec, str):
        raise TypeError(f"spec must be a str, got {type(spec).__name__}")
    text = "".join(spec.split())
    m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_.]*)\[([^\[\]]*)\]"
                     r"(?::\[([^\[\]]*)\])?(?:%(\d+))?(~?)(?:@([A-Za-z0-9_]+))?", text)
    if not m:
        raise ValueError(f"bad array spec {spec!r}: expected e.g. 'f32[1024,?]', "
                         f"'f16[?,?]:[?,1]' or 'f32[?]@i64'")
    dtype_s, dims_s, strides_s, base_s, overlap, index_s = m.groups()
    try:
        dtype = as_dtype(dtype_s)
    except ValueError as e:
        raise ValueError(f"bad array spec {spec!r}: {e}") from None

    def items(body, what, allow_negative):
        vals, statics, divs = [], [], []
        if body == "":
            return vals, statics, divs
        for j, part in enumerate(body.split(",")):
            im = _ITEM.match(part)
            if not im or (not allow_negative and part.startswith("-")):
                raise ValueError(f"bad array spec {spec!r}: {what} {j} is {part!r}; "
                                 f"expected '?', an int, optionally with '!' and '%N'")
            v, bang, div = im.groups()
            if bang and v == "?":
                raise ValueError(f"bad array spec {spec!r}: {what} {j} is {part!r}; "
                                 f"only a known value can be static ('!')")
            vals.append(None if v == "?" else int(v))
            statics.append(bool(bang))
            divs.append(int(div) if div else 1)
        return vals, statics, divs

    shape, s_static, s_div = items(dims_s, "dimension", False)
    kw: dict[str, Any] = dict(static_shape=tuple(s_static), shape_divisible_by=tuple(s_div))
    strides = None
    if strides_s is not None:
        strides, t_static, t_div = items(strides_s, "stride", True)
        if len(strides) != len(shape):
            raise ValueError(f"bad array spec {spec!r}: {len(strides)} strides for "
                             f"{len(shape)} dimensions")
        kw.update(static_strides=tuple(t_static), stride_divisible_by=tuple(t_div))
    if base_s is not None:
        kw["base_addr_divisible_by"] = int(base_s)
    if overlap:
        kw["may_alias_internally"] = True
    if index_s is not None:
        try:
            kw["index_dtype"] = as_dtype(index_s)
        except ValueError:
            raise ValueError(f"bad array spec {spec!r}: index dtype {index_s!r} is not "
                             f"i32 or i64") from None
    return shape, dtype, strides, kw


_OPEN, _CLOSE = "([{", ")]}"


def split_top(text: str) -> list[str]:
    """Split on commas outside brackets and quotes."""
    parts, depth, quote, start = [], 0, None, 0
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced {c!r} at offset {i} in {text!r}")
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    if quote or depth:
        raise ValueError(f"unterminated {'string' if quote else 'bracket'} in {text!r}")
    parts.append(text[start:])
    return parts


def parse_values(text: str) -> dict:
    """NAME=NUMBER pairs separated by commas (True/False for a bool): `tilescope cost --values` and
    the `# tilescope: values` directive. A ValueError says what is wrong."""
    out: dict = {}
    for part in (p.strip() for p in text.split(",")):
        name, eq, value = (x.strip() for x in part.partition("="))
        if not part or not eq or not name.isidentifier() or not value:
            raise ValueError("give NAME=NUMBER pairs separated by commas, e.g. n=4096,w=128")
        if value in ("True", "False"):
            out[name] = value == "True"
            continue
        for kind in (int, float):
            try:
                out[name] = kind(value)
                break
            except ValueError:
                pass
        else:
            raise ValueError(f"{name}={value} is not a number")
    return out
