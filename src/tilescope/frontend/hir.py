"""HIR: a desugared, located form of the kernel's Python source.

Differences from the Python AST: augmented and annotated assignments are plain
assignments, `elif` chains are nested `If`s, chained comparisons are split, and
every `return`/`break`/`continue` ends its block (statements after a branch that
may exit are moved into the branches that fall through, see `exits.py`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Optional, Tuple, Union

from ..errors import Loc


class Node:
    loc: Loc


# ---- expressions -----------------------------------------------------------

@dataclass
class Name(Node):
    id: str
    loc: Loc


@dataclass
class Const(Node):
    value: Any
    loc: Loc


@dataclass
class Attribute(Node):
    value: "Expr"
    attr: str
    loc: Loc


@dataclass
class Subscript(Node):
    value: "Expr"
    index: "Expr"
    loc: Loc


@dataclass
class SliceExpr(Node):
    lower: Optional["Expr"]
    upper: Optional["Expr"]
    step: Optional["Expr"]
    loc: Loc


@dataclass
class Starred(Node):
    value: "Expr"
    loc: Loc


@dataclass
class Keyword:
    name: Optional[str]   # None for `**mapping`
    value: "Expr"


@dataclass
class Call(Node):
    func: "Expr"
    args: List["Expr"]          # may contain Starred
    keywords: List[Keyword]
    loc: Loc


@dataclass
class BinOp(Node):
    op: str                     # Python operator name: add, sub, mul, matmul, ...
    left: "Expr"
    right: "Expr"
    loc: Loc


@dataclass
class UnaryOp(Node):
    op: str                     # neg, pos, invert, not_
    operand: "Expr"
    loc: Loc


@dataclass
class Compare(Node):
    op: str                     # eq, ne, lt, le, gt, ge, is_, is_not, in_, not_in
    left: "Expr"
    right: "Expr"
    loc: Loc


@dataclass
class BoolOp(Node):
    op: str                     # and, or
    values: List["Expr"]
    loc: Loc


@dataclass
class IfExp(Node):
    test: "Expr"
    body: "Expr"
    orelse: "Expr"
    loc: Loc


@dataclass
class TupleExpr(Node):
    elts: List["Expr"]          # may contain Starred
    loc: Loc


@dataclass
class FormattedValue:
    value: "Expr"
    conversion: int
    format_spec: Optional["Expr"]


@dataclass
class JoinedStr(Node):
    parts: List[Union[str, FormattedValue]]
    loc: Loc


@dataclass
class Comprehension:
    target: "Target"
    iter: "Expr"
    ifs: List["Expr"]


@dataclass
class GeneratorExp(Node):
    elt: "Expr"
    generators: List[Comprehension]
    loc: Loc


@dataclass
class Lambda(Node):
    func: "FunctionDef"
    loc: Loc


Expr = Union[Name, Const, Attribute, Subscript, SliceExpr, Starred, Call, BinOp, UnaryOp,
             Compare, BoolOp, IfExp, TupleExpr, JoinedStr, GeneratorExp, Lambda]

# Assignment targets: Name, TupleExpr of targets, Starred(Name), Attribute, Subscript.
Target = Expr


# ---- statements ------------------------------------------------------------

@dataclass
class Assign(Node):
    targets: List[Target]
    value: Expr
    loc: Loc


@dataclass
class ExprStmt(Node):
    value: Expr
    loc: Loc


@dataclass
class If(Node):
    test: Expr
    body: List["Stmt"]
    orelse: List["Stmt"]
    loc: Loc


@dataclass
class For(Node):
    target: Target
    iter: Expr
    body: List["Stmt"]
    loc: Loc
    static: bool = False        # `for x in ct.static_iter(...)`: unrolled at compile time


@dataclass
class While(Node):
    test: Expr
    body: List["Stmt"]
    loc: Loc


@dataclass
class Break(Node):
    loc: Loc


@dataclass
class Continue(Node):
    loc: Loc


@dataclass
class Return(Node):
    value: Optional[Expr]
    loc: Loc


@dataclass
class Raise(Node):
    exc: Expr                   # the argument of `ct.static_exception(...)`
    loc: Loc


@dataclass
class With(Node):
    items: List[Tuple[Expr, Optional[Target]]]
    body: List["Stmt"]
    loc: Loc


@dataclass
class WithEnter(Node):
    """Enter the context managers of a `with` (exits.py splits every `with` into enter/exit)."""
    items: List[Tuple[Expr, Optional[Target]]]
    key: str                    # pairs this enter with its exits
    loc: Loc


@dataclass
class WithExit(Node):
    """Leave the `with` entered under `key` (placed at its end and before every early exit)."""
    key: str
    loc: Loc


@dataclass
class Yield(Node):
    value: Optional[Expr]
    loc: Loc


@dataclass
class Param:
    name: str
    kind: str                   # positional_only, positional, var_positional, keyword_only, var_keyword
    default: Optional[Expr]
    annotation: Optional[Expr]
    loc: Loc


@dataclass
class FunctionDef(Node):
    name: str                   # "<lambda>" for lambdas
    params: List[Param]
    body: List["Stmt"]
    loc: Loc
    decorators: List[Expr] = field(default_factory=list)
    is_generator: bool = False
    # Names assigned anywhere in the body (Python's local-variable rule).
    local_names: frozenset = frozenset()


Stmt = Union[Assign, ExprStmt, If, For, While, Break, Continue, Return, Raise, With, Yield, FunctionDef]

EXITS = (Break, Continue, Return)
