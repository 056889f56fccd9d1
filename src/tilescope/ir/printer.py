"""Stable, readable text for the typed IR. Every value is printed with its type."""
from __future__ import annotations

import enum
import os
from typing import Dict, List

from ..dtypes import DType
from .core import Block, Function, Op, Value


class _Names:
    """Gives each value a unique printable name, preferring the user's variable name."""

    def __init__(self):
        self.names: Dict[int, str] = {}
        self.used: Dict[str, int] = {}
        self.counter = 0

    def __call__(self, v: Value) -> str:
        name = self.names.get(v.id)
        if name is None:
            if v.name:
                n = self.used.get(v.name, 0)
                self.used[v.name] = n + 1
                name = v.name if n == 0 else f"{v.name}.{n}"
            else:
                name = str(self.counter)
                self.counter += 1
            self.names[v.id] = name
        return "%" + name


def format_attr(value) -> str:
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, DType):
        return value.name
    if isinstance(value, tuple):
        inner = ", ".join(format_attr(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, str):
        return repr(value)
    if callable(value) and hasattr(value, "__name__"):
        return value.__name__
    return repr(value)


class Printer:
    def __init__(self, *, locations: bool = False):
        self.names = _Names()
        self.locations = locations
        self.lines: List[str] = []

    def value(self, v: Value) -> str:
        return self.names(v)

    def typed(self, v: Value) -> str:
        return f"{self.names(v)}: {v.type}"

    def op(self, op: Op, indent: str) -> None:
        text = indent
        if op.results:
            text += ", ".join(self.typed(r) for r in op.results) + " = "
        if op.results and len(op.results) == 1 and op.results[0].const is not None and op.name == "const":
            text = text[:-2] + f"= const {format_attr(op.results[0].const)}"
        else:
            text += op.name
            if op.operands:
                text += " " + ", ".join(self.value(v) for v in op.operands)
            attrs = {k: v for k, v in op.attrs.items() if k != "value" and v is not None}
            if attrs:
                text += " {" + ", ".join(f"{k}={format_attr(v)}" for k, v in attrs.items()) + "}"
        if self.locations and op.loc is not None and op.loc.line:
            text = f"{text:<72}  # {os.path.basename(op.loc.filename)}:{op.loc.line}"
        if op.blocks:
            text += " {" if len(op.blocks) else ""
        self.lines.append(text)
        for i, block in enumerate(op.blocks):
            if i:
                self.lines.append(indent + "} {")
            if block.args:
                self.lines.append(indent + "  ^(" + ", ".join(self.typed(a) for a in block.args) + "):")
            self.block(block, indent + "  ")
        if op.blocks:
            self.lines.append(indent + "}")

    def block(self, block: Block, indent: str) -> None:
        for op in block.ops:
            self.op(op, indent)

    def function(self, fn: Function) -> str:
        params = []
        for p in fn.params:
            if p.is_constant:
                params.append(f"{p.name} = {format_attr(p.constant)}")
            else:
                params.extend(self.typed(v) for v in p.values)
        self.lines.append(f"kernel @{fn.name}({', '.join(params)}) {{")
        self.block(fn.body, "  ")
        self.lines.append("}")
        return "\n".join(self.lines) + "\n"


def print_function(fn: Function, *, locations: bool = False) -> str:
    return Printer(locations=locations).function(fn)
