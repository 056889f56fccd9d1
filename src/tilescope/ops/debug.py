"""Debugging: device-side print/printf and assert.

`print` and `printf` both become one `print` op whose `format` attr is a C printf
format (as cuTile builds it) with one conversion per operand, and whose `pieces`
attr splits that format for the executor: literal strings and
`(operand_index, conversion)` pairs. A tile operand prints as a nested list with
the conversion applied to every element, e.g. `[0, 1, 2, 3]` or `[[1.0, 2.0]]`.
"""
from __future__ import annotations

import os
import re
from typing import Any, List, Tuple

from .. import dtypes as D
from ..ir.core import Value
from ..ir.primitive import LITERALS, STR, one_of
from ..ir.types import TileType
from .common import expect, is_number, is_tile, no_results, tile_operand, tile_type
from .context import FormatField, FormatString
from .registry import Attr, no_rule, optional, primitive, surface
from .shape import type_name

PRINT = primitive("print", "Print `format` (C printf style, one conversion per operand, tiles as nested lists); "
                           "`pieces` splits it into text and (operand, conversion) pairs.",
                  operands=("*values",), results=0, traits=("side_effects",),
                  attrs={"format": Attr(STR), "pieces": Attr(LITERALS), "origin": Attr(one_of("print", "printf")),
                         "stored_operand": Attr(STR, "all")})
ASSERT = primitive("assert", "Abort with `message` unless every element of the bool operand is true.",
                   operands=("cond",), results=0, traits=("side_effects",), attrs={"message": optional(STR)})
BREAKPOINT = primitive("breakpoint", "Stop in the debugger (`tilescope run --pdb`); nothing elsewhere.",
                       results=0, traits=("side_effects",))

_INT_CONV = set("diuoxX")
_FLOAT_CONV = set("eEfFgGaA")
# %[flags][width][.precision][length]specifier, the subset cuTile accepts.
_C_SPEC = re.compile(r"%([0 #+-])?([0-9]+)?(\.[0-9]+)?(hh|h|ll|l)?([diuoxXeEfFgGaAcspn])")
# Python format spec: [align][sign][#][0][width][.precision][type]
_PY_SPEC = re.compile(r"(?P<align>[<>^])?(?P<sign>[+ -])?(?P<alt>#)?(?P<zero>0)?(?P<width>[0-9]+)?"
                      r"(?:\.(?P<precision>[0-9]+))?(?P<type>[diouxXeEfFgGaA])?")


def _conversion_fits(dtype: D.DType, conv: str) -> bool:
    if dtype.is_bool or dtype.is_int:
        return conv in _INT_CONV
    if dtype.is_float:
        return conv in _FLOAT_CONV
    return False


def default_conversion(dtype: D.DType) -> str:
    """The C conversion print() uses for a dtype without a format spec."""
    if dtype.is_bool:
        return "%d"
    if dtype.is_int:
        return "%" + ("ll" if dtype.bitwidth == 64 else "") + ("d" if dtype.kind == "int" else "u")
    return "%lf" if dtype.bitwidth == 64 else "%f"


def python_spec_to_c(ctx, spec: str, dtype: D.DType) -> str:
    """Translate an f-string format spec (`>+08.3e`) into a C conversion for `dtype`."""
    m = _PY_SPEC.fullmatch(spec)
    if m is None:
        raise ctx.value_error(f"print(): unsupported format spec '{spec}'")
    align, sign, alt, zero = m.group("align"), m.group("sign"), m.group("alt"), m.group("zero")
    flags = ("-" if align == "<" else "") + (sign if sign in ("+", " ") else "") + ("#" if alt else "") \
        + ("0" if zero and align != "<" else "")
    width = m.group("width") or ""
    precision = "" if m.group("precision") is None else "." + m.group("precision")
    conv = m.group("type")
    if conv is None:
        conv = default_conversion(dtype)[1:]
    elif not _conversion_fits(dtype, conv):
        raise ctx.type_error(f"print(): format spec '{spec}' is incompatible with dtype {dtype}")
    return f"%{flags}{width}{precision}{conv}"


class _FormatBuilder:
    """Accumulates literal text and run-time fields of a print() call."""

    def __init__(self):
        self.pieces: List[Any] = []       # str, or (operand index, python spec or None)
        self.values: List[Value] = []

    def text(self, s: str) -> None:
        if not s:
            return
        if self.pieces and isinstance(self.pieces[-1], str):
            self.pieces[-1] += s
        else:
            self.pieces.append(s)

    def field(self, value: Value, spec) -> None:
        self.pieces.append((len(self.values), spec))
        self.values.append(value)


def _append_str(ctx, b: _FormatBuilder, x: Any, what: str) -> None:
    """Append `str(x)` (run-time parts become fields)."""
    if isinstance(x, FormatString):
        for p in x.parts:
            if isinstance(p, FormatField):
                _append_field(ctx, b, p)
            else:
                b.text(p)
    elif isinstance(x, str):
        b.text(x)
    elif isinstance(x, tuple):
        b.text("(")
        for i, item in enumerate(x):
            if i:
                b.text(", ")
            _append_repr(ctx, b, item, what)
        b.text(",)" if len(x) == 1 else ")")
    else:
        _append_repr(ctx, b, x, what, as_str=True)


def _append_repr(ctx, b: _FormatBuilder, x: Any, what: str, as_str: bool = False) -> None:
    if isinstance(x, (str, FormatString, tuple)):
        if isinstance(x, str):
            b.text(str(x) if as_str else repr(x))
        elif isinstance(x, tuple):
            _append_str(ctx, b, x, what)
        else:
            b.text("'")
            _append_str(ctx, b, x, what)
            b.text("'")
        return
    if isinstance(x, Value):
        if x.const is not None and not (isinstance(x.type, TileType) and x.type.shape):
            # Upstream inlines a 0-d constant as text; a constant tile of any shape is still printed.
            b.text(str(x.const))
        elif isinstance(x.type, TileType):
            b.field(x, None)
        else:
            b.text(f"<object of type {x.type}>")
        return
    b.text(str(x) if as_str else repr(x))


def _append_field(ctx, b: _FormatBuilder, f: FormatField) -> None:
    v = f.value
    if is_number(v):
        v = ctx.to_value(v)
    if isinstance(v, tuple) and not f.spec:
        _append_str(ctx, b, v, "field")       # `f"{(nx, ny)}"`: tiles inside become fields
        return
    if not is_tile(v):
        b.text(f"<object of type {type_name(v)}>")
        return
    b.field(v, f.spec or None)


def _escape(s: str) -> str:
    return s.replace("%", "%%")


def _emit_print(ctx, pieces: List[Any], values: List[Value], origin: str) -> None:
    fmt = "".join(p if isinstance(p, str) else p[1] for p in
                  [(_escape(q) if isinstance(q, str) else q) for q in pieces])
    ctx.emit("print", values, [], format=fmt, pieces=tuple(pieces), origin=origin, stored_operand="all")


@surface("debug", raw_args=True)
def print(*args, sep=" ", end="\n"):
    """Print `args` from the device like Python's print(); tiles print as nested lists."""


@print.rule
def _(ctx, *args, **kwargs):
    for k in kwargs:
        if k not in ("sep", "end"):
            raise ctx.type_error(f"print(): got an unexpected keyword argument '{k}'")
    sep, end = kwargs.get("sep", " "), kwargs.get("end", "\n")
    for name, s in (("sep", sep), ("end", end)):
        if not isinstance(s, (str, FormatString)):
            raise ctx.type_error(f"Invalid argument \"{name}\" of print(): Expected a string, but given value "
                                 f"has type {type_name(s)}")
    b = _FormatBuilder()
    for i, a in enumerate(args):
        if i:
            _append_str(ctx, b, sep, "sep")
        _append_str(ctx, b, a, f"argument #{i}")
    _append_str(ctx, b, end, "end")
    pieces = []
    for p in b.pieces:
        if isinstance(p, str):
            pieces.append(p)
        else:
            idx, spec = p
            dtype = b.values[idx].type.dtype
            conv = default_conversion(dtype) if spec is None else python_spec_to_c(ctx, spec, dtype)
            pieces.append((idx, conv))
    _emit_print(ctx, pieces, b.values, "print")
    return None


@surface("debug")
def printf(format, *args):
    """C printf from the device: `format` uses %d/%x/%f/%e... conversions, one per tile in `args`."""


def parse_c_format(ctx, fmt: str, dtypes: Tuple[Any, ...]) -> List[Any]:
    """Split a printf format into literal text and `(arg index, conversion)`, checking the types."""
    pieces: List[Any] = []
    text, pos, arg = "", 0, 0
    while pos < len(fmt):
        ch = fmt[pos]
        if ch != "%":
            text += ch
            pos += 1
            continue
        if fmt.startswith("%%", pos):
            text += "%"
            pos += 2
            continue
        m = _C_SPEC.match(fmt, pos)
        if m is None:
            raise ctx.type_error("Invalid format string")
        conv, spec = m.group(5), m.group(0)
        if conv not in _INT_CONV and conv not in _FLOAT_CONV:
            raise ctx.type_error(f"Specifier {conv} in {spec} is not supported")
        if arg >= len(dtypes):
            raise ctx.type_error("Not enough arguments for format string")
        if not _conversion_fits(dtypes[arg][0], conv):
            raise ctx.type_error(f"Format {spec} for arg #{arg} got unexpected type of {dtypes[arg][1]}")
        if text:
            pieces.append(text)
            text = ""
        pieces.append((arg, spec))
        arg += 1
        pos = m.end()
    if text:
        pieces.append(text)
    if arg < len(dtypes):
        raise ctx.type_error("Too many arguments for format string")
    return pieces


@printf.rule
def _(ctx, format, *args):
    if not isinstance(format, str):
        if isinstance(format, FormatString):
            raise ctx.type_error("Invalid argument \"format\" of printf(): Expected a string constant, but "
                                 "given value is not constant")
        raise ctx.type_error(f"Invalid argument \"format\" of printf(): Expected a string, but given value "
                             f"has type {type_name(format)}")
    values = []
    for a in args:
        if not (is_tile(a) or is_number(a)):
            raise ctx.type_error(f"Expected a tile, but given value has type {type_name(a)}")
        values.append(tile_operand(ctx, a))
    pieces = parse_c_format(ctx, format, tuple((v.type.dtype, v.type) for v in values))
    _emit_print(ctx, pieces, values, "printf")
    return None


@surface("debug")
def assert_(cond, /, message=None):
    """Abort the kernel with `message` unless every element of the bool tile `cond` is true."""


@assert_.rule
def _(ctx, cond, message):
    if not (is_tile(cond) or is_number(cond)):
        raise ctx.type_error(f"Expected a tile, but given value has type {type_name(cond)}")
    c = tile_operand(ctx, cond, "cond")
    if not c.type.dtype.is_bool:
        raise ctx.type_error(f"Type of condition must be bool, got {c.type}")
    if message is None:
        msg = ""
    elif isinstance(message, str):
        msg = message
    elif isinstance(message, FormatString) or isinstance(message, Value) and message.const is None:
        raise ctx.type_error("Invalid argument \"message\" of assert_(): Expected a string constant, but given "
                             "value is not constant")
    else:
        raise ctx.type_error(f"Invalid argument \"message\" of assert_(): Expected a string, but given value "
                             f"has type {type_name(message)}")
    ctx.emit("assert", [c], [], message=msg)
    return None


# ---- CPU executor rules ------------------------------------------------------
# Output goes through `ex.sink`, one text per active block, so a launch prints in
# block order whatever the grouping of blocks (the vectorised run prints exactly
# what the one-block-at-a-time run prints).

import numpy as _np

from ..semantics.printing import printed_lines

@PRINT.numpy
def _(ex, op, *operands):
    lines = printed_lines(op.attrs["pieces"], operands, [v.type.dtype for v in op.operands],
                          _np.flatnonzero(ex.active_mask()))
    for b, text in lines:
        ex.sink.write(tuple(int(v) for v in ex.block_ids[b]), text)
    return None


@ASSERT.numpy
def _(ex, op, cond):
    """A device-side assert: the first active block (lowest linear id in the group) with a false
    element stops the launch with an ExecutionError naming the kernel, the line, the block and the
    message. Checks settings do not soften it (as on the GPU, an assert always aborts the kernel);
    text printed before it is still flushed by the launcher."""
    ok = cond.reshape(cond.shape[0], -1).all(axis=1)
    bad = ~_np.broadcast_to(ok, (ex.nb,)) & ex.active_mask()
    if not bad.any():
        return None
    b = int(_np.argmax(bad))
    block = tuple(int(v) for v in ex.block_ids[b])
    loc = op.loc
    where = f"{loc.filename}:{loc.line}" if loc is not None else "?"
    message = op.attrs["message"] or ""
    text = f"assertion failed in kernel '{ex.fn.name}' at {where}, block {block}"
    text += f": {message}" if message else ""
    # The GPU's device-side assert also prints one line to stdout (with the message).
    ex.sink.write(block, text + "\n")
    raise ex.error(text)


@BREAKPOINT.numpy
def _(ex, op):
    hook = getattr(ex, "breakpoint_hook", None)
    if hook is not None:
        hook(ex, op)
    return None


@PRINT.transpile
def _(w, op):
    pieces = tuple(p if isinstance(p, str) else tuple(p) for p in op.attrs["pieces"])
    w.call(op, "print_", "ctx", w.args(op.operands), pieces=pieces, dtypes=tuple(v.type.dtype for v in op.operands))


@ASSERT.transpile
def _(w, op):
    line = f"{os.path.basename(op.loc.filename)}:{op.loc.line}" if op.loc else "?"
    where = f"kernel '{w.fn.name}' at {line}"         # worded as the executor's assert report
    w.call(op, "assert_", "ctx", w.name(op.operands[0]), w.literal(op.attrs["message"] or ""), w.literal(where))


@BREAKPOINT.transpile
def _(w, op):
    w.emit(f"pass  # {op.name}: nothing to do on the CPU")


# ---- typing (the verifier's rules) and folding -------------------------------------------

@ASSERT.typing
def _(op):
    expect(tile_type(op).dtype is D.bool_, f"assert takes a bool tile, not {op.operands[0].type}")
    return []


PRINT.typing(no_results)
BREAKPOINT.typing(no_results)
no_rule("fold", "a side effect", PRINT, ASSERT, BREAKPOINT)
