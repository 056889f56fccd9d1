"""Read typed IR back from the text `ir/printer.py` writes (without `--locations`).

Attribute values are read by the kinds their primitive's schema declares (an enum member or a
dtype is printed as a bare name), so printing what this reads gives the same text again. The
text leaves out facts types do not print (array strides, static flags, index dtypes), so a
parsed function is for reading and checking, not for running.
"""
from __future__ import annotations

import ast
import re
from typing import Any, Callable, Dict, List, Optional, Tuple

from .. import dtypes as D, enums
from ..enums import PaddingMode
from .core import Block, Function, Op, Param, Value
from .primitive import PRIMITIVES, Attrs
from .types import ArrayType, ListType, RawMemoryType, TiledViewType, TileType, TokenType, Type


class ParseError(ValueError):
    """Text that is not typed IR as tilescope prints it; says which line and why."""

    def __init__(self, message: str, line: int):
        super().__init__(f"line {line}: {message}")
        self.line = line


class Opaque:
    """A kernel constant whose printed form is not a literal (a dataclass instance...): kept
    as its text, which it prints as."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


_NUMBER = re.compile(r"-?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NAME = re.compile(r"%([^\s,:()\[\]{}=]+)")
_SPECIAL = {"True": True, "False": False, "None": None, "nan": float("nan"), "inf": float("inf")}


class _Cursor:
    """A position in one line of text."""

    def __init__(self, text: str, line: int):
        self.text, self.pos, self.line = text, 0, line

    def error(self, message: str) -> ParseError:
        return ParseError(f"{message} at column {self.pos + 1}: {self.text.strip()!r}", self.line)

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] == " ":
            self.pos += 1

    def peek(self, s: str) -> bool:
        self.skip()
        return self.text.startswith(s, self.pos)

    def eat(self, s: str) -> bool:
        if self.peek(s):
            self.pos += len(s)
            return True
        return False

    def expect(self, s: str) -> None:
        if not self.eat(s):
            raise self.error(f"expected {s!r}")

    def match(self, pattern: re.Pattern) -> Optional[str]:
        self.skip()
        m = pattern.match(self.text, self.pos)
        if m is None:
            return None
        self.pos = m.end()
        return m.group(0)

    def done(self) -> bool:
        self.skip()
        return self.pos >= len(self.text)

    def rest(self) -> str:
        self.skip()
        return self.text[self.pos:]


# ---- literals --------------------------------------------------------------------------------

def _literal(cur: _Cursor, word: Callable[[str], Any]) -> Any:
    """A printed attribute value: tuple, string, number, or a bare word resolved by `word`."""
    if cur.eat("("):
        items = []
        while not cur.eat(")"):
            items.append(_literal(cur, word))
            if not cur.eat(","):
                cur.expect(")")
                break
        return tuple(items)
    cur.skip()
    if cur.pos < len(cur.text) and cur.text[cur.pos] in "'\"":
        return _string(cur)
    if cur.eat("-inf"):
        return float("-inf")
    num = cur.match(_NUMBER)
    if num is not None:
        return float(num) if any(c in num for c in ".eE") else int(num)
    w = cur.match(_WORD)
    if w is None:
        raise cur.error("expected a value")
    if w in _SPECIAL:
        return _SPECIAL[w]
    try:
        return word(w)
    except (KeyError, ValueError, TypeError):
        raise cur.error(f"unknown name {w!r}") from None


def _string(cur: _Cursor) -> str:
    quote, i = cur.text[cur.pos], cur.pos + 1
    while i < len(cur.text) and cur.text[i] != quote:
        i += 2 if cur.text[i] == "\\" else 1
    if i >= len(cur.text):
        raise cur.error("unterminated string")
    text = cur.text[cur.pos:i + 1]
    cur.pos = i + 1
    return ast.literal_eval(text)


def _no_word(w: str) -> Any:
    raise ValueError(w)


def _any_word(w: str) -> Any:
    """A bare word in a kernel constant: a dtype or an enum member of `cuda.tile`."""
    try:
        return D.dtype_from_name(w)
    except (KeyError, ValueError):
        pass
    for cls in (enums.PaddingMode, enums.RoundingMode, enums.MemoryOrder, enums.MemoryScope):
        if w in cls.__members__:
            return cls[w]
    raise ValueError(w)


# ---- types -----------------------------------------------------------------------------------

def _dims(cur: _Cursor) -> Tuple[Optional[int], ...]:
    cur.expect("(")
    out: List[Optional[int]] = []
    while not cur.eat(")"):
        if cur.eat("?"):
            out.append(None)
        else:
            num = cur.match(_NUMBER)
            if num is None:
                raise cur.error("expected a dimension")
            out.append(int(num))
        cur.eat(",")
    return tuple(out)


def _dtype(cur: _Cursor) -> D.DType:
    w = cur.match(_WORD)
    try:
        return D.dtype_from_name(w or "")
    except (KeyError, ValueError):
        raise cur.error(f"unknown dtype {w!r}") from None


def _type(cur: _Cursor) -> Type:
    kind = cur.match(_WORD)
    if kind == "Token":
        return TokenType()
    cur.expect("[")
    if kind == "Tile":
        dt = _dtype(cur)
        cur.expect(",")
        t: Type = TileType(dt, _dims(cur))
    elif kind == "Array":
        dt = _dtype(cur)
        cur.expect(",")
        shape = _dims(cur)
        t = ArrayType(dt, len(shape), shape)
    elif kind == "List":
        t = ListType(_type(cur))
    elif kind == "RawMemory":
        dt = _dtype(cur)
        t = RawMemoryType(ArrayType(dt, 1))
    elif kind == "TiledView":
        dt = _dtype(cur)
        fields = {}
        for key in ("tile", "order"):
            cur.expect(",")
            cur.expect(f"{key}=")
            fields[key] = _dims(cur)
        cur.expect(",")
        cur.expect("padding=")
        pad = cur.match(_WORD)
        array = ArrayType(dt, len(fields["order"]))
        t = TiledViewType(array, fields["tile"], fields["order"], PaddingMode[pad])
    else:
        raise cur.error(f"unknown type {kind!r}")
    cur.expect("]")
    return t


# ---- the function ----------------------------------------------------------------------------

class _Reader:
    def __init__(self, text: str):
        self.lines = [(i + 1, ln) for i, ln in enumerate(text.splitlines()) if ln.strip()]
        self.at = 0
        self.values: Dict[str, Value] = {}
        self.used: Dict[str, int] = {}      # the printer's count of values per user name so far

    def next_line(self) -> Tuple[int, str]:
        if self.at >= len(self.lines):
            raise ParseError("unexpected end of text", self.lines[-1][0] if self.lines else 0)
        self.at += 1
        return self.lines[self.at - 1]

    def define(self, cur: _Cursor) -> Value:
        """`%name: Type` at the cursor: a new value."""
        printed = cur.match(_NAME)
        if printed is None:
            raise cur.error("expected a %value")
        cur.expect(":")
        v = Value(_type(cur), self.user_name(printed[1:]))
        if printed in self.values:
            raise cur.error(f"{printed} is defined twice")
        self.values[printed] = v
        return v

    def user_name(self, printed: str) -> Optional[str]:
        """The variable name a printed value name came from, replaying the printer's naming: the
        n-th value named `x` prints as `x.n` (n >= 1); unnamed values print as numbers."""
        if printed.isdigit():
            return None
        base, dot, suffix = printed.rpartition(".")
        name = base if dot and suffix.isdigit() and int(suffix) >= 1 and self.used.get(base) == int(suffix) \
            else printed
        self.used[name] = self.used.get(name, 0) + 1
        return name

    def use(self, cur: _Cursor) -> Value:
        printed = cur.match(_NAME)
        if printed is None:
            raise cur.error("expected a %value")
        v = self.values.get(printed)
        if v is None:
            raise cur.error(f"{printed} is used before it is defined")
        return v

    def function(self) -> Function:
        line, text = self.next_line()
        cur = _Cursor(text, line)
        cur.expect("kernel")
        cur.expect("@")
        name = cur.match(_WORD)
        cur.expect("(")
        params: List[Param] = []
        while not cur.eat(")"):
            if cur.peek("%"):
                v = self.define(cur)
                params.append(Param(v.name or "", [v]))
            else:
                pname = cur.match(_WORD)
                cur.expect("=")
                params.append(Param(pname, [], _constant(cur), True))
            cur.eat(",")
        cur.expect("{")
        body = Block([v for p in params for v in p.values])
        self.block_ops(body, "}")
        return Function(name, body, params)

    def block_ops(self, block: Block, closers: str) -> str:
        """Read ops into `block` up to a line `}` or `} {`; returns the closing line."""
        while True:
            line, text = self.next_line()
            stripped = text.strip()
            if stripped in ("}", "} {"):
                return stripped
            if stripped.startswith("^("):
                cur = _Cursor(stripped[1:], line)
                cur.expect("(")
                while not cur.eat(")"):
                    block.args.append(self.define(cur))
                    cur.eat(",")
                cur.expect(":")
                continue
            block.ops.append(self.op(_Cursor(text, line)))

    def op(self, cur: _Cursor) -> Op:
        results: List[Value] = []
        if cur.peek("%"):
            while True:
                results.append(self.define(cur))
                if not cur.eat(","):
                    break
            cur.expect("=")
        name = cur.match(_WORD)
        if name is None:
            raise cur.error("expected an op name")
        prim = PRIMITIVES.get(name)
        if prim is None:
            raise cur.error(f"unknown op {name!r} (is the family that declares it loaded? "
                            f"tilescope.ops.load_all())")
        attrs: Dict[str, Any] = {}
        operands: List[Value] = []
        if name == "const" and results and not cur.done() and not cur.peek("{"):
            attrs["value"] = _literal(cur, _no_word)
            results[0].const = attrs["value"]
        else:
            while cur.peek("%"):
                operands.append(self.use(cur))
                if not cur.eat(","):
                    break
            if cur.peek("{") and cur.rest() != "{":
                cur.expect("{")
                while not cur.eat("}"):
                    key = cur.match(_WORD)
                    spec = prim.attrs.get(key or "")
                    if spec is None:
                        raise cur.error(f"op {name!r} has no attribute {key!r}")
                    cur.expect("=")
                    attrs[key] = _literal(cur, spec.kind.word or _no_word)
                    cur.eat(",")
        op = Op.__new__(Op)
        op.name, op.operands, op.attrs, op.loc, op.origin = name, operands, Attrs(name, attrs), None, None
        op.results, op.blocks = results, []
        for r in results:
            r.owner = op
        if cur.eat("{"):
            while True:
                block = Block()
                op.blocks.append(block)
                if self.block_ops(block, "}") == "}":
                    break
        if not cur.done():
            raise cur.error("unexpected text")
        return op


def _constant(cur: _Cursor) -> Any:
    """A kernel constant: a literal, else its text up to the next top-level `, ` or `)`."""
    start = cur.pos
    try:
        value = _literal(cur, _any_word)
        if cur.peek(",") or cur.peek(")"):
            return value
    except ParseError:
        pass
    cur.pos, depth = start, 0
    while cur.pos < len(cur.text):
        c = cur.text[cur.pos]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        cur.pos += 1
    return Opaque(cur.text[start:cur.pos].strip())


def parse_function(text: str) -> Function:
    """The function `print_function` printed as `text`; raises ParseError (with the line) otherwise.
    Op names and attributes are read by the schemas of the primitive table: the op families
    that declare them must be loaded (`tilescope.ops.load_all()`; compiling does it)."""
    reader = _Reader(text)
    fn = reader.function()
    if reader.at != len(reader.lines):
        raise ParseError("text after the end of the kernel", reader.lines[reader.at][0])
    return fn
