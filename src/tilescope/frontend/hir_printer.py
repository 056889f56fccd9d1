"""Pseudo-Python text for HIR, with desugaring visible and optional line numbers."""
from __future__ import annotations

from typing import List

from . import hir as H

_BIN = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%",
        "pow": "**", "matmul": "@", "lshift": "<<", "rshift": ">>", "and_": "&", "or_": "|", "xor": "^"}
_UN = {"neg": "-", "pos": "+", "invert": "~", "not_": "not "}
_CMP = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "is_": "is",
        "is_not": "is not", "in_": "in", "not_in": "not in"}


def expr(e) -> str:
    if e is None:
        return ""
    if isinstance(e, H.Name):
        return e.id
    if isinstance(e, H.Const):
        return repr(e.value)
    if isinstance(e, H.Attribute):
        return f"{expr(e.value)}.{e.attr}"
    if isinstance(e, H.Subscript):
        return f"{expr(e.value)}[{expr(e.index)}]"
    if isinstance(e, H.SliceExpr):
        s = f"{expr(e.lower)}:{expr(e.upper)}"
        return s + (f":{expr(e.step)}" if e.step is not None else "")
    if isinstance(e, H.Starred):
        return "*" + expr(e.value)
    if isinstance(e, H.Call):
        args = [expr(a) for a in e.args]
        args += [(f"{k.name}={expr(k.value)}" if k.name else f"**{expr(k.value)}") for k in e.keywords]
        return f"{expr(e.func)}({', '.join(args)})"
    if isinstance(e, H.BinOp):
        return f"({expr(e.left)} {_BIN[e.op]} {expr(e.right)})"
    if isinstance(e, H.UnaryOp):
        return f"({_UN[e.op]}{expr(e.operand)})"
    if isinstance(e, H.Compare):
        return f"({expr(e.left)} {_CMP[e.op]} {expr(e.right)})"
    if isinstance(e, H.BoolOp):
        return "(" + f" {e.op} ".join(expr(v) for v in e.values) + ")"
    if isinstance(e, H.IfExp):
        return f"({expr(e.body)} if {expr(e.test)} else {expr(e.orelse)})"
    if isinstance(e, H.TupleExpr):
        inner = ", ".join(expr(x) for x in e.elts)
        return f"({inner},)" if len(e.elts) == 1 else f"({inner})"
    if isinstance(e, H.JoinedStr):
        parts = []
        for p in e.parts:
            parts.append(p.replace("{", "{{").replace("}", "}}") if isinstance(p, str)
                         else "{" + expr(p.value) + (":" + _spec(p.format_spec) if p.format_spec else "") + "}")
        return "f" + repr("".join(parts))
    if isinstance(e, H.GeneratorExp):
        gens = " ".join(f"for {expr(g.target)} in {expr(g.iter)}" + "".join(f" if {expr(c)}" for c in g.ifs)
                        for g in e.generators)
        return f"({expr(e.elt)} {gens})"
    if isinstance(e, H.Lambda):
        f = e.func
        ret = f.body[0].value if f.body and isinstance(f.body[0], H.Return) else None
        return f"(lambda {', '.join(p.name for p in f.params)}: {expr(ret)})"
    if isinstance(e, H.Yield):
        return f"yield {expr(e.value)}"
    return f"<{type(e).__name__}>"


def _spec(spec) -> str:
    if isinstance(spec, H.JoinedStr):
        return "".join(p if isinstance(p, str) else "{" + expr(p.value) + "}" for p in spec.parts)
    return expr(spec)


class _Printer:
    def __init__(self, lines: bool):
        self.out: List[str] = []
        self.show_lines = lines

    def emit(self, indent: str, text: str, node) -> None:
        if self.show_lines and getattr(node, "loc", None) is not None:
            text = f"{indent + text:<64}  # line {node.loc.line}"
            self.out.append(text)
        else:
            self.out.append(indent + text)

    def stmts(self, stmts, indent: str) -> None:
        if not stmts:
            self.emit(indent, "pass", None)
        for s in stmts:
            self.stmt(s, indent)

    def stmt(self, s, indent: str) -> None:
        if isinstance(s, H.Assign):
            self.emit(indent, " = ".join(expr(t) for t in s.targets) + " = " + expr(s.value), s)
        elif isinstance(s, H.ExprStmt):
            self.emit(indent, expr(s.value), s)
        elif isinstance(s, H.If):
            self.emit(indent, f"if {expr(s.test)}:", s)
            self.stmts(s.body, indent + "    ")
            if s.orelse:
                self.emit(indent, "else:", None)
                self.stmts(s.orelse, indent + "    ")
        elif isinstance(s, H.For):
            kw = "for[static]" if s.static else "for"
            self.emit(indent, f"{kw} {expr(s.target)} in {expr(s.iter)}:", s)
            self.stmts(s.body, indent + "    ")
        elif isinstance(s, H.While):
            self.emit(indent, f"while {expr(s.test)}:", s)
            self.stmts(s.body, indent + "    ")
        elif isinstance(s, H.Break):
            self.emit(indent, "break", s)
        elif isinstance(s, H.Continue):
            self.emit(indent, "continue", s)
        elif isinstance(s, H.Return):
            self.emit(indent, "return" + (f" {expr(s.value)}" if s.value is not None else ""), s)
        elif isinstance(s, H.Raise):
            self.emit(indent, f"raise static_exception({expr(s.exc)})", s)
        elif isinstance(s, H.WithEnter):
            items = ", ".join(expr(c) + (f" as {expr(t)}" if t is not None else "") for c, t in s.items)
            self.emit(indent, f"with_enter[{s.key}] {items}", s)
        elif isinstance(s, H.WithExit):
            self.emit(indent, f"with_exit[{s.key}]", s)
        elif isinstance(s, H.With):
            items = ", ".join(expr(c) + (f" as {expr(t)}" if t is not None else "") for c, t in s.items)
            self.emit(indent, f"with {items}:", s)
            self.stmts(s.body, indent + "    ")
        elif isinstance(s, H.Yield):
            self.emit(indent, expr(s), s)
        elif isinstance(s, H.FunctionDef):
            self.function(s, indent)
        else:
            self.emit(indent, f"<{type(s).__name__}>", s)

    def function(self, fn: H.FunctionDef, indent: str = "") -> None:
        params = []
        for p in fn.params:
            star = {"var_positional": "*", "var_keyword": "**"}.get(p.kind, "")
            text = star + p.name
            if p.annotation is not None:
                text += f": {expr(p.annotation)}"
            if p.default is not None:
                text += f" = {expr(p.default)}"
            params.append(text)
        self.emit(indent, f"def {fn.name}({', '.join(params)}):", fn)
        self.stmts(fn.body, indent + "    ")


def print_hir(fn: H.FunctionDef, *, lines: bool = False) -> str:
    p = _Printer(lines)
    p.function(fn)
    return "\n".join(p.out) + "\n"
