"""Reading TileIR bytecode back into `ir` objects (the inverse of `bytecode.Writer`), so that a
round trip can be checked against the printer and foreign bytecode can be inspected."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from .bytecode import (A_BOOL, A_BOUNDED, A_DICT, A_DIVBY, A_FLOAT, A_HINTS, A_INT, DYNAMIC, MAGIC, PADS, SEC_CONST,
                       SEC_END, SEC_FUNC, SEC_STRING, SEC_TYPE, TAG_SCALARS, T_FUNC, T_GSVIEW, T_PTR, T_PVIEW, T_SVIEW,
                       T_TILE, T_TVIEW, BytecodeError, parse_version)
from .elements import bitwidth
from .ir import (Bounded, Dense, DivBy, FloatAttr, FuncType, GatherScatterView, Hints, IntAttr, PartitionView, Ptr,
                 Scalar, StridedView, TBlock, TensorView, TFunc, TModule, TOp, TValue, Tile)
from .opcodes import BY_CODE, ENUMS, OPS, version_of


class _Cursor:
    def __init__(self, data: bytes, pos: int = 0, end: Optional[int] = None):
        self.data, self.pos, self.end = data, pos, len(data) if end is None else end

    def byte(self) -> int:
        if self.pos >= self.end:
            raise BytecodeError("truncated bytecode")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def varint(self) -> int:
        x, shift = 0, 0
        while True:
            b = self.byte()
            x |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return x

    def svarint(self) -> int:
        x = self.varint()
        return (x >> 1) if not x & 1 else -((x + 1) >> 1)

    def raw(self, n: int) -> bytes:
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def ints(self, width: int) -> List[int]:
        return [int.from_bytes(self.raw(width), "little", signed=True) for _ in range(self.varint())]

    def align(self, n: int) -> None:
        self.pos += -self.pos % n


def _read_table(c: _Cursor, width: int) -> List[bytes]:
    n = c.varint()
    c.align(width)
    offs = [int.from_bytes(c.raw(width), "little") for _ in range(n)]
    base = c.pos
    ends = offs[1:] + [None]
    out = []
    for o, e in zip(offs, ends):
        out.append(c.data[base + o: (base + e) if e is not None else c.end])
    return out


class Reader:
    def __init__(self, data: bytes):
        if not data.startswith(MAGIC):
            raise BytecodeError("not TileIR bytecode (bad magic)")
        self.data = data
        self.version = parse_version((data[8], data[9]))
        self.sections: Dict[int, Tuple[int, int]] = {}
        c = _Cursor(data, 12)
        while True:
            sid = c.byte()
            if sid == SEC_END:
                break
            size = c.varint()
            if sid & 0x80:
                c.align(c.varint())
            self.sections[sid & 0x7F] = (c.pos, c.pos + size)
            c.pos += size
        self.strings = [b.decode("utf-8") for b in self._table(SEC_STRING, 4)]
        self.type_blobs = self._table(SEC_TYPE, 4)
        self.const_blobs = self._table(SEC_CONST, 8)
        self.types: Dict[int, Any] = {}

    def _table(self, sid: int, width: int) -> List[bytes]:
        if sid not in self.sections:
            return []
        start, end = self.sections[sid]
        return _read_table(_Cursor(self.data, start, end), width)

    def type(self, tid: int):
        if tid in self.types:
            return self.types[tid]
        blob = self.type_blobs[tid]
        c = _Cursor(blob)
        tag = c.byte()
        if tag in TAG_SCALARS:
            t = Scalar(TAG_SCALARS[tag])
        elif tag == T_PTR:
            if self.version >= (13, 4):
                c.varint()
            t = Ptr(self.type(c.varint()))
        elif tag == T_TILE:
            elem = self.type(c.varint())
            t = Tile(tuple(c.ints(8)), elem)
        elif tag == T_TVIEW:
            if self.version >= (13, 4):
                c.varint()
            elem = self.type(c.varint())
            shape = tuple(None if d == DYNAMIC else d for d in c.ints(8))
            strides = tuple(None if d == DYNAMIC else d for d in c.ints(8))
            t = TensorView(elem, shape, strides)
        elif tag == T_PVIEW:
            has_pad = c.varint() if self.version >= (13, 3) else 0
            tile_shape = tuple(c.ints(4))
            view = self.type(c.varint())
            dim_map = tuple(c.ints(4))
            if self.version < (13, 3):
                has_pad = c.varint()
            pad = PADS[c.byte()] if has_pad else None
            t = PartitionView(tile_shape, view, dim_map, pad)
        elif tag == T_SVIEW:
            has_pad = c.varint()
            tile_shape, steps = tuple(c.ints(4)), tuple(c.ints(4))
            view = self.type(c.varint())
            dim_map = tuple(c.ints(4))
            t = StridedView(tile_shape, steps, view, dim_map, PADS[c.byte()] if has_pad else None)
        elif tag == T_GSVIEW:
            has_pad = c.varint()
            tile_shape = tuple(c.ints(4))
            view = self.type(c.varint())
            sparse = c.varint()
            t = GatherScatterView(tile_shape, view, sparse, PADS[c.byte()] if has_pad else None)
        elif tag == T_FUNC:
            params = tuple(self.type(c.varint()) for _ in range(c.varint()))
            results = tuple(self.type(c.varint()) for _ in range(c.varint()))
            t = FuncType(params, results)
        else:
            raise BytecodeError(f"unknown type tag {tag:#x}")
        self.types[tid] = t
        return t

    def tagged(self, c: _Cursor):
        tag = c.byte()
        if tag == A_FLOAT:
            elem = self.type(c.varint())
            bits = c.byte() if bitwidth(elem) <= 8 else c.svarint()
            return FloatAttr(elem, bits)
        if tag == A_INT:
            return IntAttr(self.type(c.varint()), c.varint())
        if tag == A_BOOL:
            return bool(c.byte())
        if tag == A_BOUNDED:
            fl = c.byte()
            lb = c.svarint() if fl & 1 else None
            ub = c.svarint() if fl & 2 else None
            return Bounded(lb, ub)
        if tag == A_DIVBY:
            d = c.varint()
            fl = c.byte()
            every = c.svarint() if fl & 1 else None
            along = c.svarint() if fl & 2 else None
            return DivBy(d, every, along)
        if tag == A_HINTS:
            return self.hints(c)
        raise BytecodeError(f"unsupported attribute tag {tag:#x}")

    def hints(self, c: _Cursor) -> Hints:
        out = []
        for _ in range(c.varint()):
            target = self.strings[c.varint()]
            if c.byte() != A_DICT:
                raise BytecodeError("expected a dictionary in optimization hints")
            items = []
            for _ in range(c.varint()):
                key = self.strings[c.varint()]
                v = self.tagged(c)
                items.append((key, v.value if isinstance(v, IntAttr) else v))
            out.append((target, tuple(items)))
        return Hints(tuple(out))

    def attr(self, c: _Cursor, kind: str):
        if kind in ENUMS:
            return ENUMS[kind][c.byte()]
        if kind == "int":
            return c.varint()
        if kind == "bool":
            return bool(c.byte())
        if kind == "str":
            return self.strings[c.varint()]
        if kind == "array":
            return tuple(self.tagged(c) for _ in range(c.varint()))
        if kind == "dense":
            blob = _Cursor(self.const_blobs[c.varint()])
            return blob.raw(blob.varint())
        if kind == "i32s":
            return tuple(c.ints(4))
        if kind == "bools":
            return tuple(bool(x) for x in c.ints(1))
        if kind == "hints":
            return self.hints(c)
        if kind == "pred":
            return self.tagged(c)
        raise BytecodeError(f"unknown attribute kind {kind}")

    def op(self, c: _Cursor, vals: List[TValue]) -> TOp:
        code = c.varint()
        name = BY_CODE.get(code)
        if name is None:
            raise BytecodeError(f"unknown opcode {code}")
        _, results, flags, attrs, operands, nregions = OPS[name]
        n = c.varint() if results == "sized" else results
        rtypes = [self.type(c.varint()) for _ in range(n)]
        fl = flags.split()
        bits = 0
        if fl:
            since = max((version_of(f)[1] or (13, 1)) for f in fl)
            if self.version >= since:
                bits = c.varint()
        present, op_attrs = {}, {}
        for i, f in enumerate(fl):
            fname = version_of(f)[0]
            on = bool(bits >> i & 1)
            if fname.startswith("?"):
                present[fname[1:]] = on
            else:
                op_attrs[fname] = on
        for a in attrs.split():
            aname, since = version_of(a)
            aname, kind = aname.split(":")
            optional = aname.endswith("?")
            aname = aname.rstrip("?")
            if since is not None and self.version < since:
                continue
            if optional and not present.get(aname):
                continue
            op_attrs[aname] = self.attr(c, kind)
        args: Dict[str, Any] = {}
        groups = operands.split()
        if groups and groups[0].startswith("#"):
            total = c.varint()
            # plain operands are always there; optional ones without a flag bit are there when
            # the count says so (ops whose only optional operand is counted, like gdc_wait_tko)
            spare = total - sum(1 for g in groups if g.lstrip("#")[0] not in "+?")
        for g in groups:
            g = g.lstrip("#")
            if g[0] == "*":
                args[g[1:]] = [vals[c.varint()] for _ in range(c.varint())]
            elif g[0] == "+":
                args[g[1:]] = [vals[c.varint()] for _ in range(spare)]
            elif g[0] == "?":
                on = present[g[1:]] if g[1:] in present else spare > 0
                if g[1:] not in present and on:
                    spare -= 1
                args[g[1:]] = vals[c.varint()] if on else None
            else:
                args[g] = vals[c.varint()]
        regions = []
        if nregions:
            mark = len(vals)
            for _ in range(c.varint()):
                regions.append(self.region(c, vals))
                del vals[mark:]
        op = TOp(name, args, rtypes, op_attrs, regions)
        if name == "constant":
            t = rtypes[0]
            count = 1
            for d in t.shape:
                count *= d
            raw = op_attrs["value"]
            elem = t.elem
            width = (bitwidth(elem) + 7) // 8
            splat = len(raw) == width and count != 1 or count == 1
            if elem.name == "i1" and count > 1 and len(raw) == (count + 7) // 8 and len(raw) != 1:
                splat = False
            op.attrs["value"] = Dense(elem, raw, splat if count > 1 else True)
        vals.extend(op.results)
        return op

    def region(self, c: _Cursor, vals: List[TValue]) -> TBlock:
        if c.byte() != 1:
            raise BytecodeError("regions with several blocks are not supported")
        args = [TValue(self.type(c.varint())) for _ in range(c.varint())]
        vals.extend(args)
        block = TBlock(args)
        for _ in range(c.varint()):
            block.ops.append(self.op(c, vals))
        return block

    def module(self) -> TModule:
        start, end = self.sections[SEC_FUNC]
        c = _Cursor(self.data, start, end)
        m = TModule("kernels")
        for _ in range(c.varint()):
            name = self.strings[c.varint()]
            ftype = self.type(c.varint())
            flags = c.byte()
            c.varint()                      # debug index
            hints = self.tagged(c) if flags & 0x04 else None
            size = c.varint()
            body_c = _Cursor(self.data, c.pos, c.pos + size)
            params = [TValue(t) for t in ftype.params]
            vals = list(params)
            body = TBlock()
            while body_c.pos < body_c.end:
                body.ops.append(self.op(body_c, vals))
            c.pos += size
            m.funcs.append(TFunc(name, params, body, bool(flags & 0x02), hints))
        return m


def read_bytecode(data: bytes) -> TModule:
    return Reader(data).module()
