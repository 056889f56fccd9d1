"""TileIR bytecode (versions 13.1-13.4): the writer, driven by `opcodes.OPS` (the reader is bytecode_read.py).

Layout: magic, version, then sections (functions, constants, debug info, types, strings),
each `id|0x80, length, alignment, padding, body`. Values are numbered per function: the
parameters first, then op results in order; a region's block arguments and ops take the
next numbers, which are free again once the region ends (the op's results come after).
"""
from __future__ import annotations

import os
import re
from typing import Dict, List, Tuple

from .ir import (Bounded, DivBy, FloatAttr, FuncType, GatherScatterView, Hints, IntAttr, PartitionView, Ptr,
                 Scalar, StridedView, TBlock, TensorView, TFunc, TModule, TOp, TValue, Tile)
from .elements import bitwidth
from .opcodes import ENUMS, OPS, SINCE, version_of
from ...targets import KNOWN_TARGETS as SUPPORTED_VERSIONS

MAGIC = b"\x7fTileIR\x00"
DYNAMIC = -(1 << 63)
SCALAR_TAGS = {"i1": 0x00, "i8": 0x01, "i16": 0x02, "i32": 0x03, "i64": 0x04, "f16": 0x05, "bf16": 0x06,
               "f32": 0x07, "tf32": 0x08, "f64": 0x09, "f8E4M3FN": 0x0A, "f8E5M2": 0x0B, "token": 0x11,
               "f8E8M0FNU": 0x12, "f4E2M1FN": 0x13, "i4": 0x16}
TAG_SCALARS = {v: k for k, v in SCALAR_TAGS.items()}
T_PTR, T_TILE, T_TVIEW, T_PVIEW, T_FUNC, T_GSVIEW, T_SVIEW = 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x14, 0x15
PADS = ["zero", "neg_zero", "nan", "pos_inf", "neg_inf"]
A_INT, A_FLOAT, A_BOOL, A_ARRAY, A_DICT, A_HINTS, A_DIVBY, A_BOUNDED = 1, 2, 3, 6, 0x0A, 0x0B, 0x08, 0x0C
DI_UNIT, DI_FILE, DI_BLOCK, DI_LOC, DI_SUBPROGRAM, DI_CALLSITE = 1, 2, 3, 4, 5, 6
SEC_END, SEC_STRING, SEC_FUNC, SEC_DEBUG, SEC_CONST, SEC_TYPE = 0, 1, 2, 3, 4, 5


class BytecodeError(Exception):
    pass


def parse_version(text) -> Tuple[int, int]:
    if isinstance(text, tuple):
        v = text
    else:
        parts = str(text).split(".")
        v = (int(parts[0]), int(parts[1]))
    if v not in SUPPORTED_VERSIONS:
        raise BytecodeError(f"unsupported TileIR bytecode version {v[0]}.{v[1]} "
                            f"(supported: {', '.join('%d.%d' % s for s in SUPPORTED_VERSIONS)})")
    return v


# ---- primitive encodings ---------------------------------------------------------------

def put_varint(buf: bytearray, x: int) -> None:
    if x < 0:
        raise BytecodeError(f"negative varint {x}")
    while True:
        byte = x & 0x7F
        x >>= 7
        if x:
            buf.append(byte | 0x80)
        else:
            buf.append(byte)
            return


def put_svarint(buf: bytearray, x: int) -> None:
    put_varint(buf, (x << 1) if x >= 0 else ((-x << 1) - 1))


def put_ints(buf: bytearray, xs, width: int) -> None:
    put_varint(buf, len(xs))
    for x in xs:
        buf.extend(int(x).to_bytes(width, "little", signed=True))


class _Interner:
    """Deduplicating table: id of each distinct encoded item, in first-use order."""

    def __init__(self, first_id: int = 0):
        self.ids: Dict[bytes, int] = {}
        self.first = first_id

    def __call__(self, item: bytes) -> int:
        if item not in self.ids:
            self.ids[item] = len(self.ids) + self.first
        return self.ids[item]

    def items(self) -> List[bytes]:
        return list(self.ids)


def _pad(buf: bytearray, align: int) -> None:
    buf.extend(b"\xcb" * (-len(buf) % align))


def _table(buf: bytearray, items: List[bytes], index_width: int) -> None:
    put_varint(buf, len(items))
    _pad(buf, index_width)
    offset = 0
    for it in items:
        buf.extend(offset.to_bytes(index_width, "little"))
        offset += len(it)
    for it in items:
        buf.extend(it)


def _section(out: bytearray, sid: int, body: bytes, align: int) -> None:
    out.append(sid | (0x80 if align > 1 else 0))
    put_varint(out, len(body))
    if align > 1:
        put_varint(out, align)
        _pad(out, align)
    out.extend(body)


# ---- writer ------------------------------------------------------------------------------

def _count(args, group: str) -> int:
    """How many operands an operand group contributes to an op's counted operand list."""
    if group[0] in "*+":
        return len(args[group[1:]])
    if group[0] == "?":
        return int(args.get(group[1:]) is not None)
    return 1


class Writer:
    def __init__(self, version):
        self.version = parse_version(version)
        self.strings = _Interner()
        self.types = _Interner()
        self.consts = _Interner()
        self.debug = _Interner(first_id=1)          # debug attributes; id 0 means "unknown"
        self.scope = 0
        self.types(bytes([SCALAR_TAGS["i1"]]))
        self.types(bytes([SCALAR_TAGS["i32"]]))

    def at_least(self, v) -> bool:
        return v is None or self.version >= v

    def string(self, s: str) -> int:
        return self.strings(s.encode("utf-8"))

    def type_id(self, t) -> int:
        b = bytearray()
        if isinstance(t, Scalar):
            b.append(SCALAR_TAGS[t.name])
        elif isinstance(t, Ptr):
            b.append(T_PTR)
            if self.version >= (13, 4):
                put_varint(b, 0)
            put_varint(b, self.type_id(t.elem))
        elif isinstance(t, Tile):
            b.append(T_TILE)
            put_varint(b, self.type_id(t.elem))
            put_ints(b, t.shape, 8)
        elif isinstance(t, TensorView):
            b.append(T_TVIEW)
            if self.version >= (13, 4):
                put_varint(b, 0)
            put_varint(b, self.type_id(t.elem))
            put_ints(b, [DYNAMIC if d is None else d for d in t.shape], 8)
            put_ints(b, [DYNAMIC if d is None else d for d in t.strides], 8)
        elif isinstance(t, PartitionView):
            b.append(T_PVIEW)
            has_pad = t.padding is not None
            if self.version >= (13, 3):
                put_varint(b, int(has_pad))
            put_ints(b, t.tile, 4)
            put_varint(b, self.type_id(t.view))
            put_ints(b, t.dim_map, 4)
            if self.version < (13, 3):
                put_varint(b, int(has_pad))
            if has_pad:
                b.append(PADS.index(t.padding))
        elif isinstance(t, StridedView):
            b.append(T_SVIEW)
            put_varint(b, int(t.padding is not None))
            put_ints(b, t.tile, 4)
            put_ints(b, t.steps, 4)
            put_varint(b, self.type_id(t.view))
            put_ints(b, t.dim_map, 4)
            if t.padding is not None:
                b.append(PADS.index(t.padding))
        elif isinstance(t, GatherScatterView):
            b.append(T_GSVIEW)
            put_varint(b, int(t.padding is not None))
            put_ints(b, t.tile, 4)
            put_varint(b, self.type_id(t.view))
            put_varint(b, t.sparse_dim)
            if t.padding is not None:
                b.append(PADS.index(t.padding))
        elif isinstance(t, FuncType):
            b.append(T_FUNC)
            for group in (t.params, t.results):
                put_varint(b, len(group))
                for x in group:
                    put_varint(b, self.type_id(x))
        else:
            raise BytecodeError(f"cannot encode type {t!r}")
        return self.types(bytes(b))

    # attributes
    def tagged(self, buf: bytearray, a) -> None:
        if isinstance(a, FloatAttr):
            buf.append(A_FLOAT)
            put_varint(buf, self.type_id(a.elem))
            if bitwidth(a.elem) <= 8:
                buf.append(a.bits)
            else:
                put_svarint(buf, a.bits)
        elif isinstance(a, IntAttr):
            buf.append(A_INT)
            put_varint(buf, self.type_id(a.elem))
            put_varint(buf, a.value)
        elif isinstance(a, bool):
            buf.extend((A_BOOL, int(a)))
        elif isinstance(a, int):
            buf.append(A_INT)
            put_varint(buf, self.type_id(Scalar("i32")))
            put_varint(buf, a & 0xFFFFFFFF)
        elif isinstance(a, Bounded):
            buf.extend((A_BOUNDED, (a.lb is not None) | ((a.ub is not None) << 1)))
            for x in (a.lb, a.ub):
                if x is not None:
                    put_svarint(buf, x)
        elif isinstance(a, DivBy):
            buf.append(A_DIVBY)
            put_varint(buf, a.divisor)
            buf.append((a.every is not None) | ((a.along is not None) << 1))
            for x in (a.every, a.along):
                if x is not None:
                    put_svarint(buf, x)
        elif isinstance(a, Hints):
            buf.append(A_HINTS)
            self.hints(buf, a)
        else:
            raise BytecodeError(f"cannot encode attribute {a!r}")

    def hints(self, buf: bytearray, h: Hints) -> None:
        put_varint(buf, len(h.by_target))
        for target, items in h.by_target:
            put_varint(buf, self.string(target))
            buf.append(A_DICT)
            put_varint(buf, len(items))
            for k, v in items:
                put_varint(buf, self.string(k))
                self.tagged(buf, v)

    def attr(self, buf: bytearray, kind: str, value) -> None:
        if kind in ENUMS:
            buf.append(ENUMS[kind].index(value))
        elif kind == "int":
            put_varint(buf, value)
        elif kind == "bool":
            buf.append(int(bool(value)))
        elif kind == "str":
            put_varint(buf, self.string(value))
        elif kind == "array":
            put_varint(buf, len(value))
            for a in value:
                self.tagged(buf, a)
        elif kind == "dense":
            c = bytearray()
            put_varint(c, len(value.data))
            c.extend(value.data)
            put_varint(buf, self.consts(bytes(c)))
        elif kind == "i32s":
            put_ints(buf, value, 4)
        elif kind == "bools":
            put_ints(buf, [int(bool(x)) for x in value], 1)
        elif kind == "hints":
            self.hints(buf, value)
        elif kind == "pred":
            self.tagged(buf, value)
        else:
            raise BytecodeError(f"unknown attribute kind {kind}")

    # ops
    def op(self, buf: bytearray, op: TOp, ids: Dict[int, int], counter: List[int], nops: List[int]) -> None:
        spec = OPS.get(op.name)
        if spec is None:
            raise BytecodeError(f"no bytecode encoding for op '{op.name}'")
        code, results, flags, attrs, operands, nregions = spec
        if op.name in SINCE and self.version < SINCE[op.name]:
            v = SINCE[op.name]
            raise BytecodeError(f"'{op.name}' needs bytecode {v[0]}.{v[1]} "
                                f"(writing {self.version[0]}.{self.version[1]})")
        nops.append(self.loc_attr(op.loc))     # one debug attribute per op, in pre-order
        put_varint(buf, code)
        if results == "sized":
            put_varint(buf, len(op.results))
        elif len(op.results) != results:
            raise BytecodeError(f"'{op.name}' has {len(op.results)} results, expected {results}")
        for r in op.results:
            put_varint(buf, self.type_id(r.type))
        fl = flags.split()
        if fl:
            since = max((version_of(f)[1] or (13, 1)) for f in fl)
            bits = 0
            for i, f in enumerate(fl):
                name = version_of(f)[0]
                if name.startswith("?"):
                    present = op.attrs.get(name[1:]) is not None if name[1:] in op.attrs else \
                        op.args.get(name[1:]) is not None
                else:
                    present = bool(op.attrs.get(name))
                bits |= int(present) << i
            if self.version >= since:
                put_varint(buf, bits)
            elif bits:
                raise BytecodeError(f"'{op.name}' flags need bytecode {since[0]}.{since[1]}")
        for a in attrs.split():
            name, since = version_of(a)
            name, kind = name.split(":")
            optional = name.endswith("?")
            name = name.rstrip("?")
            value = op.attrs.get(name)
            if not self.at_least(since):
                # older versions imply the attribute's neutral value; anything else is lost
                if value not in (None, False, (), "none", "full") and not (kind == "bools" and not any(value)):
                    raise BytecodeError(f"'{op.name}' {name}={value} needs bytecode {since[0]}.{since[1]}")
                continue
            if optional and value is None:
                continue
            if value is None and kind == "bools":
                value = ()
            self.attr(buf, kind, value)

        def vid(v: TValue) -> int:
            try:
                return ids[id(v)]
            except KeyError:
                raise BytecodeError(f"'{op.name}' uses a value defined later or out of scope") from None
        groups = operands.split()
        if groups and groups[0].startswith("#"):
            put_varint(buf, sum(_count(op.args, g.lstrip("#")) for g in groups))
        for g in groups:
            g = g.lstrip("#")
            if g[0] in "*+":
                vals = op.args[g[1:]]
                if g[0] == "*":
                    put_varint(buf, len(vals))
                for v in vals:
                    put_varint(buf, vid(v))
            elif g[0] == "?":
                v = op.args.get(g[1:])
                if v is not None:
                    put_varint(buf, vid(v))
            else:
                put_varint(buf, vid(op.args[g]))
        if nregions:
            put_varint(buf, len(op.regions))
            saved = counter[0]
            for region in op.regions:
                self.region(buf, region, ids, counter, nops)
                counter[0] = saved
        for r in op.results:
            ids[id(r)] = counter[0]
            counter[0] += 1

    def region(self, buf: bytearray, block: TBlock, ids, counter, nops) -> None:
        buf.append(1)
        put_varint(buf, len(block.args))
        for a in block.args:
            put_varint(buf, self.type_id(a.type))
            ids[id(a)] = counter[0]
            counter[0] += 1
        body = bytearray()
        for op in block.ops:
            self.op(body, op, ids, counter, nops)
        put_varint(buf, len(block.ops))
        buf.extend(body)

    def module(self, m: TModule) -> bytes:
        funcs = bytearray()
        put_varint(funcs, len(m.funcs))
        debug_info = []
        for index, f in enumerate(m.funcs, 1):
            put_varint(funcs, self.string(f.name))
            put_varint(funcs, self.type_id(FuncType(tuple(p.type for p in f.params), ())))
            # bytecode before 13.3 has no `default` target: hints resolved for one architecture only
            hints = f.hints if f.hints is not None and (self.version >= (13, 3) or all(
                t.startswith("sm_") for t, _ in f.hints.by_target)) else None
            funcs.append((0x02 | (0x04 if hints else 0)) if f.entry else 0)
            put_varint(funcs, index)
            if hints:
                self.tagged(funcs, hints)
            ids = {id(p): i for i, p in enumerate(f.params)}
            counter, nops = [len(f.params)], [self.func_debug(f)]
            body = bytearray()
            for op in f.body.ops:
                self.op(body, op, ids, counter, nops)
            put_varint(funcs, len(body))
            funcs.extend(body)
            debug_info.append(nops)
        out = bytearray(MAGIC)
        out.extend((self.version[0], self.version[1], 0, 0))
        _section(out, SEC_FUNC, bytes(funcs), 8)
        consts = bytearray()
        _table(consts, self.consts.items(), 8)
        _section(out, SEC_CONST, bytes(consts), 8)
        _section(out, SEC_DEBUG, self._debug(debug_info), 8)
        types = bytearray()
        _table(types, self.types.items(), 4)
        _section(out, SEC_TYPE, bytes(types), 4)
        strings = bytearray()
        _table(strings, self.strings.items(), 4)
        _section(out, SEC_STRING, bytes(strings), 4)
        out.append(SEC_END)
        return bytes(out)

    # debug info: DIFile, DICompileUnit, DISubprogram per kernel; a DILoc per op (a CallSite
    # wraps the location inside an inlined helper and the call's location)
    def func_debug(self, f: TFunc) -> int:
        self.scope = 0
        loc = f.loc
        if loc is None or not getattr(loc, "line", 0):
            return 0
        directory, base = os.path.split(loc.filename)
        self.scope = self.subprogram(directory, base, f.first_line or loc.line, f.source_name or f.name, f.name)
        return self.loc_attr(loc)

    def subprogram(self, directory: str, base: str, line: int, name: str, linkage: str) -> int:
        file = self.debug(bytes([DI_FILE]) + _varints(self.string(base), self.string(directory)))
        unit = self.debug(bytes([DI_UNIT]) + _varints(file))
        return self.debug(bytes([DI_SUBPROGRAM]) + _varints(file, line, self.string(name), self.string(linkage),
                                                             unit, line))

    def helper_subprogram(self, s) -> int:
        """An inlined helper's subprogram, named as upstream names it: `name@stem:line:col_sN`."""
        directory, base = os.path.split(s.filename)
        stem = re.sub(r"[^A-Za-z0-9_]", "_", os.path.splitext(base)[0]) or "anonymous"
        linkage = f"{'lambda' if s.name == '<lambda>' else s.name}@{stem}:{s.line}:{s.col}_{s.specialization}"
        return self.subprogram(directory, base, s.line, s.name, linkage)

    def loc_attr(self, loc) -> int:
        if loc is None or not self.scope or not getattr(loc, "line", 0):
            return 0
        loc = getattr(loc, "debug", None) or loc
        scope = self.helper_subprogram(loc.scope) if getattr(loc, "scope", None) is not None else self.scope
        # columns are 0-based in TileIR's debug info (Python's col_offset), 1-based in tilescope's Loc
        attr = self.debug(bytes([DI_LOC]) + _varints(scope, self.string(loc.filename), loc.line,
                                                     max(loc.col - 1, 0)))
        caller = getattr(loc, "call_site", None)
        if caller is not None:
            outer = self.loc_attr(caller)
            if outer:
                attr = self.debug(bytes([DI_CALLSITE]) + _varints(attr, outer))
        return attr

    def _debug(self, debug_info: List[List[int]]) -> bytes:
        b = bytearray()
        put_varint(b, len(debug_info))
        _pad(b, 4)
        offset = 0
        for attrs in debug_info:
            b.extend(offset.to_bytes(4, "little"))
            offset += len(attrs)
        put_varint(b, offset)
        _pad(b, 8)
        for attrs in debug_info:
            for a in attrs:
                b.extend(a.to_bytes(8, "little"))
        # the tools reject an empty attribute table
        _table(b, self.debug.items() or [b"\x00"], 4)
        return bytes(b)


def _varints(*xs) -> bytes:
    b = bytearray()
    for x in xs:
        put_varint(b, x)
    return bytes(b)


def write_bytecode(m: TModule, version="13.3") -> bytes:
    return Writer(version).module(m)
