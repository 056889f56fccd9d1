"""A module's globals known from its source text alone: nothing of the user's code runs.

The editor compiles kernels from unsaved buffers. Importing the buffer would run
arbitrary code (and the buffer is often half-typed), so instead we read the module
statement by statement:

- `import cuda.tile as ct` / `from cuda.tile import X` resolve to `tilescope.lang`;
  a few pure standard-library modules are really imported; any other import is an
  `UnknownValue`;
- module-level assignments go through a small evaluator (literals, arithmetic,
  tuples, names, attributes of known objects, subscripts such as `ct.Constant[int]`,
  and calls to a whitelist of pure builtins and `math` functions);
- `def`s become `SourceFunction`s (the interpreter inlines them from their AST);
- classes and everything else become `UnknownValue`s.

When kernel code uses an `UnknownValue` the interpreter reports a
`TileStaticEvalError` whose `unknown` attribute is True (see `unknown_value_error`):
the editor shows it as information, not as an error in the user's code.
"""
from __future__ import annotations

import ast
import builtins
import importlib
import math
import operator
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from ..errors import Loc, TileStaticEvalError, TileSyntaxError
from .source import SourceFunction, split_lines

# Standard-library modules whose import has no side effects worth fearing.
SAFE_MODULES = ("math", "enum", "dataclasses", "typing", "functools", "contextlib", "operator")
CUDA_TILE_MODULES = ("cuda.tile", "cuda.tile.compilation")

_PURE_BUILTINS = {name: getattr(builtins, name) for name in (
    "abs", "min", "max", "int", "float", "bool", "str", "len", "round", "pow", "divmod", "tuple",
    "range", "sum", "any", "all", "isinstance", "slice")}
_CONSTANT_NAMES = {"True": True, "False": False, "None": None}
_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
           ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
           ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert,
          ast.Not: operator.not_}
_CMPOPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
           ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not}
# Guard against `2 ** 10**9` and friends in an evaluator that runs on every keystroke.
_MAX_INT_BITS = 4096
_MAX_SEQ = 10_000


class UnknownValue:
    """A module-level value that cannot be known without running the module."""

    def __init__(self, reason: str, loc: Optional[Loc] = None):
        self.reason = reason
        self.loc = loc

    def __repr__(self) -> str:
        return f"<unknown: {self.reason}>"


def unknown_value_error(ctx, name: str, value: UnknownValue) -> TileStaticEvalError:
    """The located error the interpreter raises when kernel code uses an unknown global."""
    where = f" (defined at line {value.loc.line})" if value.loc is not None else ""
    err = ctx.error(TileStaticEvalError,
                    f"the value of '{name}' is unknown without running the module{where}: {value.reason}")
    err.unknown = True
    return err


def is_unknown_error(err: BaseException) -> bool:
    return bool(getattr(err, "unknown", False))


class _Unknown(Exception):
    def __init__(self, reason: str):
        self.reason = reason


@dataclass
class StaticModule:
    filename: str
    text: str
    tree: ast.Module                       # every top-level statement that parsed
    globals: Dict[str, Any]
    functions: Dict[str, SourceFunction] = field(default_factory=dict)
    kernels: List[str] = field(default_factory=list)
    syntax_errors: List[TileSyntaxError] = field(default_factory=list)
    definitions: Dict[str, ast.AST] = field(default_factory=dict)    # name -> defining node
    tile_aliases: List[str] = field(default_factory=list)             # names bound to tilescope.lang


# ---- parsing what can be parsed ------------------------------------------------

_TOP_START = re.compile(r"^[^\s#)\]}]")


def parse_tolerant(text: str, filename: str) -> Tuple[ast.Module, List[TileSyntaxError]]:
    """Parse a module; on a syntax error, parse each top-level statement on its own.

    Statements that still fail are dropped (their error is returned), so one broken
    function does not hide the rest of the file.
    """
    try:
        return ast.parse(text, filename), []
    except SyntaxError as e:
        first_error = _syntax_error(e, filename)
    except (ValueError, RecursionError, MemoryError) as e:  # NUL bytes, absurd nesting
        return ast.Module(body=[], type_ignores=[]), [TileSyntaxError(str(e), Loc(filename, 1, 1))]
    lines = split_lines(text, keepends=True)     # numbered as the parser numbers them
    starts = [i for i, line in enumerate(lines) if _TOP_START.match(line)]
    # Decorators belong to the statement that follows them.
    chunks: List[Tuple[int, int]] = []
    begin = None
    for k, i in enumerate(starts):
        if begin is None:
            begin = i
        if lines[i].startswith("@"):
            continue
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        chunks.append((begin, end))
        begin = None
    if begin is not None:
        chunks.append((begin, len(lines)))
    body, errors = [], []
    for begin, end in chunks:
        chunk = "".join(lines[begin:end])
        try:
            part = ast.parse(chunk, filename)
        except SyntaxError as e:
            err = _syntax_error(e, filename, line_offset=begin)
            errors.append(err)
            continue
        except (ValueError, RecursionError, MemoryError) as e:
            errors.append(TileSyntaxError(str(e), Loc(filename, begin + 1, 1)))
            continue
        ast.increment_lineno(part, begin)
        body.extend(part.body)
    if not errors:
        errors.append(first_error)
    return ast.Module(body=body, type_ignores=[]), errors


def _syntax_error(e: SyntaxError, filename: str, line_offset: int = 0) -> TileSyntaxError:
    line = (e.lineno or 1) + line_offset
    col = e.offset or 1
    end_line = (e.end_lineno + line_offset) if getattr(e, "end_lineno", None) else None
    end_col = getattr(e, "end_offset", None) or None
    if end_line is not None and end_col is not None and (end_line, end_col) <= (line, col):
        end_line = end_col = None
    return TileSyntaxError(e.msg, Loc(filename, line, col, end_line, end_col))


# ---- the evaluator ---------------------------------------------------------------

class _Evaluator:
    def __init__(self, env: Dict[str, Any]):
        self.env = env

    def eval(self, node: ast.AST) -> Any:
        m = getattr(self, "_" + type(node).__name__, None)
        if m is None:
            raise _Unknown(f"'{type(node).__name__}' expressions are not evaluated statically")
        return m(node)

    def _Constant(self, node):
        return node.value

    def _Tuple(self, node):
        if len(node.elts) > _MAX_SEQ:
            raise _Unknown("tuple too long")
        return tuple(self.eval(e) for e in node.elts)

    _List = _Tuple    # a list literal is only ever used as a sequence of constants here

    def _Dict(self, node):
        if any(k is None for k in node.keys):
            raise _Unknown("'**' in a dict literal")
        return {self.eval(k): self.eval(v) for k, v in zip(node.keys, node.values)}

    def _Name(self, node):
        if node.id in self.env:
            v = self.env[node.id]
            if isinstance(v, UnknownValue):
                raise _Unknown(f"'{node.id}' is unknown ({v.reason})")
            return v
        if node.id in _CONSTANT_NAMES:
            return _CONSTANT_NAMES[node.id]
        if node.id in _PURE_BUILTINS:
            return _PURE_BUILTINS[node.id]
        raise _Unknown(f"'{node.id}' is not defined statically")

    def _Attribute(self, node):
        obj = self.eval(node.value)
        return safe_getattr(obj, node.attr)

    def _Subscript(self, node):
        obj = self.eval(node.value)
        index = self.eval(node.slice)
        try:
            return obj[index]
        except Exception as e:
            raise _Unknown(f"indexing raised {type(e).__name__}") from None

    def _Slice(self, node):
        part = lambda n: None if n is None else self.eval(n)  # noqa: E731
        return slice(part(node.lower), part(node.upper), part(node.step))

    def _BinOp(self, node):
        fn = _BINOPS.get(type(node.op))
        if fn is None:
            raise _Unknown("operator not evaluated statically")
        a, b = self.eval(node.left), self.eval(node.right)
        _check_number_or_seq(a)
        _check_number_or_seq(b)
        if fn is operator.pow and isinstance(b, int) and isinstance(a, int) and \
                abs(b) * max(1, abs(a).bit_length()) > _MAX_INT_BITS:
            raise _Unknown("the result is too large")
        if fn is operator.lshift and isinstance(b, int) and b > _MAX_INT_BITS:
            raise _Unknown("the result is too large")
        if fn is operator.mul and (isinstance(a, (tuple, str)) or isinstance(b, (tuple, str))):
            n = b if isinstance(b, int) else a
            if isinstance(n, int) and n > _MAX_SEQ:
                raise _Unknown("the result is too large")
        return _apply(fn, a, b)

    def _UnaryOp(self, node):
        return _apply(_UNARY[type(node.op)], self.eval(node.operand))

    def _BoolOp(self, node):
        value = None
        for v in node.values:
            value = self.eval(v)
            if isinstance(node.op, ast.And) and not value:
                return value
            if isinstance(node.op, ast.Or) and value:
                return value
        return value

    def _Compare(self, node):
        left = self.eval(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            fn = _CMPOPS.get(type(op))
            if fn is None:
                raise _Unknown("comparison not evaluated statically")
            right = self.eval(right_node)
            if not _apply(fn, left, right):
                return False
            left = right
        return True

    def _IfExp(self, node):
        return self.eval(node.body) if self.eval(node.test) else self.eval(node.orelse)

    def _Call(self, node):
        fn = self.eval(node.func)
        if not _is_whitelisted_call(fn):
            raise _Unknown(f"calls to {getattr(fn, '__name__', type(fn).__name__)} are not evaluated statically")
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                args.extend(self.eval(a.value))
            else:
                args.append(self.eval(a))
        kwargs = {k.arg: self.eval(k.value) for k in node.keywords if k.arg is not None}
        if any(k.arg is None for k in node.keywords):
            raise _Unknown("'**' arguments are not evaluated statically")
        if fn is range and len(range(*args)) > _MAX_SEQ:
            raise _Unknown("range too long")
        return _apply(fn, *args, **kwargs)


def _check_number_or_seq(x):
    if isinstance(x, int) and x.bit_length() > _MAX_INT_BITS:
        raise _Unknown("the value is too large")


def _apply(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except _Unknown:
        raise
    except Exception as e:
        raise _Unknown(f"evaluating raised {type(e).__name__}: {e}") from None


def _is_whitelisted_call(fn) -> bool:
    if any(fn is f for f in _PURE_BUILTINS.values()):
        return True
    if getattr(fn, "__module__", None) == "math" or any(fn is f for f in vars(math).values()
                                                       if callable(f)):
        return True
    from ..lang import _host_cdiv
    from ..ops.registry import SurfaceFunction
    if isinstance(fn, SurfaceFunction) and fn.host is _host_cdiv:
        return True
    return fn is _host_cdiv


def safe_getattr(obj: Any, attr: str) -> Any:
    """Attributes of objects we created ourselves (modules we imported, dtypes, enums, typing)."""
    import enum
    import types
    if attr.startswith("__"):
        raise _Unknown(f"attribute '{attr}' is not evaluated statically")
    if isinstance(obj, types.ModuleType):
        name = obj.__name__
        if not (name.startswith("tilescope") or name in SAFE_MODULES):
            raise _Unknown(f"module '{name}' is not evaluated statically")
    elif isinstance(obj, type) and issubclass(obj, enum.Enum):
        pass
    elif type(obj).__module__.startswith(("tilescope", "typing", "enum")):
        pass
    elif isinstance(obj, (int, float, complex)) and attr in ("real", "imag"):
        pass
    else:
        raise _Unknown(f"attributes of {type(obj).__name__} are not evaluated statically")
    try:
        return getattr(obj, attr)
    except AttributeError:
        raise _Unknown(f"{getattr(obj, '__name__', type(obj).__name__)} has no attribute '{attr}'") from None


# ---- building the module --------------------------------------------------------

def _tile_module(dotted: str):
    from .. import lang
    if dotted == "cuda.tile":
        return lang
    from ..lang import compilation
    return compilation


def _decorator_kind(dec: ast.expr) -> Optional[str]:
    """'kernel', 'function', 'contextmanager' or None, recognised syntactically."""
    target = dec.func if isinstance(dec, ast.Call) else dec
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
    if name in ("kernel", "function", "contextmanager"):
        return name
    return None


def analyze_module(text: str, filename: str) -> StaticModule:
    tree, errors = parse_tolerant(text, filename)
    env: Dict[str, Any] = {"__name__": "__tilescope_static__", "__file__": filename}
    sm = StaticModule(filename, text, tree, env, syntax_errors=errors)
    _run_statements(sm, tree.body, env)
    return sm


def _loc(sm: StaticModule, node: ast.AST) -> Loc:
    return Loc(sm.filename, node.lineno, node.col_offset + 1)


def _bind(sm: StaticModule, env: Dict[str, Any], name: str, value: Any, node: ast.AST) -> None:
    env[name] = value
    sm.definitions[name] = node


def _run_statements(sm: StaticModule, body: List[ast.stmt], env: Dict[str, Any]) -> None:
    for stmt in body:
        try:
            _run_statement(sm, stmt, env)
        except RecursionError:
            for name in _bound_names(stmt):
                _bind(sm, env, name, UnknownValue("too deeply nested", _loc(sm, stmt)), stmt)


def _run_statement(sm: StaticModule, stmt: ast.stmt, env: Dict[str, Any]) -> None:
    ev = _Evaluator(env)
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            _do_import(sm, env, alias.name, alias.asname, stmt)
    elif isinstance(stmt, ast.ImportFrom):
        mod = stmt.module or ""
        for alias in stmt.names:
            bound = alias.asname or alias.name
            if alias.name == "*":
                continue
            full = f"{mod}.{alias.name}"
            if stmt.level == 0 and full in CUDA_TILE_MODULES:
                _bind(sm, env, bound, _tile_module(full), stmt)
                sm.tile_aliases.append(bound)
            elif stmt.level == 0 and (mod in CUDA_TILE_MODULES or mod in SAFE_MODULES):
                base = _tile_module(mod) if mod in CUDA_TILE_MODULES else importlib.import_module(mod)
                try:
                    _bind(sm, env, bound, safe_getattr(base, alias.name), stmt)
                except _Unknown as u:
                    _bind(sm, env, bound, UnknownValue(u.reason, _loc(sm, stmt)), stmt)
            else:
                _bind(sm, env, bound, UnknownValue(f"imported from module '{'.' * stmt.level}{mod}'",
                                                   _loc(sm, stmt)), stmt)
    elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if stmt.value is None:
            return
        try:
            value = ev.eval(stmt.value)
            if isinstance(stmt, ast.AugAssign):
                value = _apply(_BINOPS[type(stmt.op)], ev.eval(stmt.target), value)
        except (_Unknown, KeyError) as u:
            value = UnknownValue(getattr(u, "reason", "operator not evaluated"), _loc(sm, stmt))
        for t in targets:
            _assign(sm, env, t, value, stmt)
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        _define_function(sm, env, stmt, ev)
    elif isinstance(stmt, ast.ClassDef):
        _bind(sm, env, stmt.name, UnknownValue(f"class '{stmt.name}' is not built without running the module",
                                               _loc(sm, stmt)), stmt)
    elif isinstance(stmt, ast.If):
        # `if TYPE_CHECKING:` / `if __name__ == "__main__":` ... take a branch when the
        # test is known, otherwise every name bound in either branch is unknown.
        try:
            taken = stmt.body if ev.eval(stmt.test) else stmt.orelse
            _run_statements(sm, taken, env)
        except _Unknown:
            for name in _bound_names(stmt):
                _bind(sm, env, name, UnknownValue("assigned under a condition that is not known statically",
                                                  _loc(sm, stmt)), stmt)
    elif isinstance(stmt, ast.Try):
        # The `try` body is the path we assume; handlers only fill what it left unbound.
        _run_statements(sm, stmt.body, env)
        for name in _bound_names(stmt):
            if name not in env:
                _bind(sm, env, name, UnknownValue("assigned in an exception handler", _loc(sm, stmt)), stmt)
    else:
        for name in _bound_names(stmt):
            _bind(sm, env, name, UnknownValue(f"assigned by a '{type(stmt).__name__}' statement",
                                              _loc(sm, stmt)), stmt)


def _do_import(sm, env, dotted: str, asname: Optional[str], stmt) -> None:
    if dotted in CUDA_TILE_MODULES or dotted == "cuda":
        if asname:
            _bind(sm, env, asname, _tile_module(dotted) if dotted != "cuda" else _cuda_package(), stmt)
            if dotted == "cuda.tile":
                sm.tile_aliases.append(asname)
        else:   # `import cuda.tile` binds `cuda`
            _bind(sm, env, "cuda", _cuda_package(), stmt)
        return
    top = dotted.split(".")[0]
    if dotted in SAFE_MODULES:
        _bind(sm, env, asname or top, importlib.import_module(dotted), stmt)
        return
    _bind(sm, env, asname or top, UnknownValue(f"module '{dotted}' is not imported by the editor",
                                               _loc(sm, stmt)), stmt)


def _cuda_package():
    import types
    pkg = types.ModuleType("tilescope_static_cuda")
    from .. import lang
    pkg.tile = lang
    return pkg


def _assign(sm, env, target, value, stmt) -> None:
    if isinstance(target, ast.Name):
        _bind(sm, env, target.id, value, stmt)
    elif isinstance(target, (ast.Tuple, ast.List)):
        items = None
        if isinstance(value, tuple) and len(value) == len(target.elts) and \
                not any(isinstance(e, ast.Starred) for e in target.elts):
            items = value
        for i, t in enumerate(target.elts):
            v = items[i] if items is not None else UnknownValue("unpacked from a value not known statically",
                                                                _loc(sm, stmt))
            _assign(sm, env, t.value if isinstance(t, ast.Starred) else t, v, stmt)
    # attribute/subscript targets change objects we do not model: ignore


def _bound_names(stmt: ast.stmt) -> List[str]:
    names = []
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.append(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.alias):
            names.append(node.asname or node.name.split(".")[0])
    return names


def _define_function(sm: StaticModule, env, node, ev: _Evaluator) -> None:
    kinds = [_decorator_kind(d) for d in node.decorator_list]
    a = node.args
    annotations: Dict[str, Any] = {}
    for arg in a.posonlyargs + a.args + a.kwonlyargs:
        if arg.annotation is not None:
            try:
                annotations[arg.arg] = ev.eval(arg.annotation)
            except (_Unknown, RecursionError):
                pass     # an annotation we cannot read just says nothing
    defaults: Dict[str, Any] = {}
    pos = a.posonlyargs + a.args
    for arg, d in zip(pos[len(pos) - len(a.defaults):], a.defaults):
        defaults[arg.arg] = _eval_or_unknown(sm, ev, d)
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        if d is not None:
            defaults[arg.arg] = _eval_or_unknown(sm, ev, d)
    fn = SourceFunction(node, sm.filename, env, annotations=annotations, defaults=defaults,
                        is_kernel="kernel" in kinds, is_contextmanager="contextmanager" in kinds)
    fn.is_tile_function = "function" in kinds
    _bind(sm, env, node.name, fn, node)
    sm.functions[node.name] = fn
    if fn.is_kernel:
        sm.kernels.append(node.name)


def _eval_or_unknown(sm, ev, node):
    try:
        return ev.eval(node)
    except (_Unknown, RecursionError) as u:
        return UnknownValue(getattr(u, "reason", "too deeply nested"), _loc(sm, node))
