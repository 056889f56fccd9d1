"""A module's globals known from its source text alone: nothing of the user's code runs.

The editor compiles kernels from unsaved buffers. Importing the buffer would run
arbitrary code (and the buffer is often half-typed), so instead we read the module
statement by statement:

- `import cuda.tile as ct` / `from cuda.tile import X` resolve to `tilescope.lang`;
  a few pure standard-library modules are really imported; any other import is an
  `UnknownValue`;
- module-level expressions go through the restricted evaluator of `tilescope.pyeval`
  (literals, arithmetic, names, attributes, subscripts such as `ct.Constant[int]`,
  allow-listed pure calls, and the module's own functions, interpreted);
- `def`s become `SourceFunction`s (the interpreter inlines them from their AST);
- dataclasses, enums and plain classes are built from their source (static_classes.py);
- everything else becomes an `UnknownValue`.

When kernel code uses an `UnknownValue` the interpreter reports a
`TileStaticEvalError` whose `unknown` attribute is True (see `unknown_value_error`):
the editor shows it as information, not as an error in the user's code.
"""
from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from .. import lang
from ..errors import InvalidValueError, Loc, TileSyntaxError
from ..lang import compilation
from ..pyeval import Budget, EvalControl, Evaluator
from ..pyeval.calls import call
from ..pyeval.objects import AST_BINARY as _BINARY, binary, get_attribute, truth
from . import local_imports
from .source import SourceFunction, split_lines
from .static_classes import NotBuilt, build_class
from .unknown import FOREIGN_DTYPE_MODULES, ForeignDtypes, UnknownValue

# Standard-library modules whose import has no side effects worth fearing.
SAFE_MODULES = ("math", "enum", "dataclasses", "typing", "functools", "contextlib", "operator", "itertools")
CUDA_TILE_MODULES = ("cuda.tile", "cuda.tile.compilation", "tilescope.lang", "tilescope.lang.compilation")
# cuTile's own enum and dtype modules (`from cuda.tile._numeric_semantics import RoundingMode`):
# tilescope's stand-ins define constants only, so importing them is as safe as `lang`.
PURE_TILE_MODULES = {
    f"{prefix}.{name}": f"tilescope.lang.private.{name}"
    for prefix in ("cuda.tile", "tilescope.lang.private")
    for name in ("_datatype", "_numeric_semantics", "_memory_model", "_exception")}


class _Unknown(Exception):
    def __init__(self, reason: str):
        self.reason = reason


class _Bound:
    """The module's evaluator and namespace, for one statement."""

    def __init__(self, sm: "StaticModule", env: Dict[str, Any]):
        self.sm, self.env = sm, env

    def eval(self, node: ast.AST) -> Any:
        return _evaluate(self.sm.evaluator, node, self.env, self.sm.filename)


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
    defined_at: Dict[int, SourceFunction] = field(default_factory=dict)  # `def` line -> that definition
    tile_aliases: List[str] = field(default_factory=list)             # names bound to tilescope.lang
    evaluator: Any = None                                               # one budget for the whole module
    depth: int = 0                                                      # read for an import of another file


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
    parts, errors, failed = [], [], []
    for begin, end in chunks:
        try:
            parts.append((begin, ast.parse("".join(lines[begin:end]), filename)))
            continue
        except SyntaxError as e:
            errors.append(_syntax_error(e, filename, line_offset=begin))
        except (ValueError, RecursionError, MemoryError) as e:
            errors.append(TileSyntaxError(str(e), Loc(filename, begin + 1, 1)))
        failed.append((begin, end))
    if not errors:
        errors.append(first_error)
    # One more parse, of the text with the failing statements blanked, numbers every node as
    # in the file: cheaper than renumbering the nodes of each part.
    kept = list(lines)
    for begin, end in failed:
        kept[begin:end] = [line[len(line.rstrip("\r\n")):] for line in lines[begin:end]]   # the line ends
    try:
        return ast.parse("".join(kept), filename), errors
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        body = []
        for begin, part in parts:
            ast.increment_lineno(part, begin)
            body.extend(part.body)
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

# Module-level code of one file gets this many evaluation steps in all.
MODULE_STEPS = 1_000_000


def _new_evaluator(filename: str):
    return Evaluator(budget=Budget(max_steps=MODULE_STEPS), filename=filename)


def _evaluate(ev, node: ast.AST, env: Dict[str, Any], filename: str, scope=None) -> Any:
    """The value of a module-level expression, or raise _Unknown saying why not."""
    try:
        return ev.evaluate(node, scope, env, filename)
    except EvalControl as e:
        raise _Unknown(e.reason) from None
    except RecursionError:
        raise _Unknown("too deeply nested") from None
    except Exception as e:
        raise _Unknown(f"evaluating raised {type(e).__name__}: {e}") from None


def _apply(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except _Unknown:
        raise
    except EvalControl as e:
        raise _Unknown(e.reason) from None
    except Exception as e:
        raise _Unknown(f"evaluating raised {type(e).__name__}: {e}") from None


def safe_getattr(obj: Any, attr: str) -> Any:
    """An attribute as compile-time Python may read it (raises _Unknown when it may not)."""
    try:
        return get_attribute(Evaluator(), obj, attr)
    except (EvalControl, AttributeError) as e:
        raise _Unknown(getattr(e, "reason", None) or str(e)) from None


# ---- building the module --------------------------------------------------------

def _tile_module(dotted: str):
    if dotted in ("cuda.tile", "tilescope.lang"):
        return lang
    return compilation


def _decorator_kind(dec: ast.expr) -> Optional[str]:
    """'kernel', 'function', 'contextmanager' or None, recognised syntactically."""
    target = dec.func if isinstance(dec, ast.Call) else dec
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
    if name in ("kernel", "function", "contextmanager"):
        return name
    return None


def analyze_module(text: str, filename: str, *, depth: int = 0) -> StaticModule:
    tree, errors = parse_tolerant(text, filename)
    env: Dict[str, Any] = {"__name__": STATIC_MODULE_NAME, "__file__": filename}
    sm = StaticModule(filename, text, tree, env, syntax_errors=errors, depth=depth)
    sm.evaluator = _new_evaluator(filename)
    _run_statements(sm, tree.body, env)
    return sm


STATIC_MODULE_NAME = "__tilescope_static__"


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
    ev = _Bound(sm, env)
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
            elif stmt.level == 0 and (mod in CUDA_TILE_MODULES or mod in SAFE_MODULES or mod in PURE_TILE_MODULES):
                base = _tile_module(mod) if mod in CUDA_TILE_MODULES else \
                    importlib.import_module(PURE_TILE_MODULES.get(mod, mod))
                try:
                    _bind(sm, env, bound, safe_getattr(base, alias.name), stmt)
                except _Unknown as u:
                    _bind(sm, env, bound, UnknownValue(u.reason, _loc(sm, stmt)), stmt)
            else:
                value = _from_local_module(sm, mod, stmt.level, alias.name)
                _bind(sm, env, bound, value if value is not _NOT_LOCAL else
                      UnknownValue(f"imported from module '{'.' * stmt.level}{mod}'", _loc(sm, stmt)), stmt)
    elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if stmt.value is None:
            return
        try:
            value = ev.eval(stmt.value)
            if isinstance(stmt, ast.AugAssign):
                current = ev.eval(stmt.target)
                value = _apply(binary, sm.evaluator, _BINARY[type(stmt.op)], current, value)
        except (_Unknown, KeyError) as u:
            value = UnknownValue(getattr(u, "reason", "operator not evaluated"), _loc(sm, stmt))
        for t in targets:
            _assign(sm, env, t, value, stmt)
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        _define_function(sm, env, stmt, ev)
    elif isinstance(stmt, ast.ClassDef):
        try:
            cls = build_class(stmt, env, sm.filename, sm.evaluator, STATIC_MODULE_NAME)
        except NotBuilt as e:
            cls = UnknownValue(str(e), _loc(sm, stmt))
        except RecursionError:
            cls = UnknownValue("too deeply nested", _loc(sm, stmt))
        _bind(sm, env, stmt.name, cls, stmt)
    elif isinstance(stmt, ast.If):
        # `if TYPE_CHECKING:` / `if __name__ == "__main__":` ... take a branch when the
        # test is known, otherwise every name bound in either branch is unknown.
        try:
            taken = stmt.body if _apply(truth, sm.evaluator, ev.eval(stmt.test)) else stmt.orelse
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


_NOT_LOCAL = object()


def _from_local_module(sm: StaticModule, module: str, level: int, name: str) -> Any:
    """`name` from the user's own module (a sibling file, read from source), else _NOT_LOCAL."""
    path = local_imports.module_file(sm.filename, module, level)
    other = local_imports.read_module(path, sm.depth + 1, analyze_module) if path else None
    if other is None or name not in other.globals:
        return _NOT_LOCAL
    return other.globals[name]


def _do_import(sm, env, dotted: str, asname: Optional[str], stmt) -> None:
    if dotted in CUDA_TILE_MODULES or dotted in ("cuda", "tilescope"):
        if asname:
            value = _cuda_package() if dotted == "cuda" else _tilescope() if dotted == "tilescope" else \
                _tile_module(dotted)
            _bind(sm, env, asname, value, stmt)
            if dotted in ("cuda.tile", "tilescope.lang"):
                sm.tile_aliases.append(asname)
        elif dotted.startswith("tilescope"):     # `import tilescope.lang` binds `tilescope`
            _bind(sm, env, "tilescope", _tilescope(), stmt)
        else:   # `import cuda.tile` binds `cuda`
            _bind(sm, env, "cuda", _cuda_package(), stmt)
        return
    top = dotted.split(".")[0]
    if dotted in PURE_TILE_MODULES and asname:
        _bind(sm, env, asname, importlib.import_module(PURE_TILE_MODULES[dotted]), stmt)
        return
    if dotted in SAFE_MODULES:
        _bind(sm, env, asname or top, importlib.import_module(dotted), stmt)
        return
    reason = f"module '{dotted}' is not imported by the editor"
    if dotted in FOREIGN_DTYPE_MODULES:      # `torch.int32` as a kernel's dtype is known; the rest is not
        _bind(sm, env, asname or top, ForeignDtypes(dotted, reason, _loc(sm, stmt)), stmt)
        return
    _bind(sm, env, asname or top, UnknownValue(reason, _loc(sm, stmt)), stmt)


def _tilescope():
    import tilescope
    return tilescope


def _cuda_package():
    import types
    pkg = types.ModuleType("cuda")
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


def _define_function(sm: StaticModule, env, node, ev: "_Bound") -> None:
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
    if fn.is_kernel:
        fn.hints, fn.hint_error = _kernel_hints(sm, env, node, kinds)
    _bind(sm, env, node.name, _decorated(sm, env, node, fn, kinds), node)
    sm.functions[node.name] = fn
    sm.defined_at[node.lineno] = fn      # a name defined twice: each definition stays reachable
    if fn.is_kernel:
        sm.kernels.append(node.name)


def _kernel_hints(sm: StaticModule, env, node, kinds) -> Tuple[Optional[dict], Optional[InvalidValueError]]:
    """The hints of `@ct.kernel(occupancy=..., ...)` as the decorator would keep them (None when
    written without arguments or not knowable from the source), or the located error a bad hint
    raises when the module is imported."""
    for dec, kind in zip(node.decorator_list, kinds):
        if kind != "kernel" or not isinstance(dec, ast.Call):
            continue
        try:
            callee = _evaluate(sm.evaluator, dec.func, env, sm.filename)
            if callee is not lang.kernel:
                return None, None          # another library's `kernel`: its options are not ours
            if dec.args or any(k.arg is None for k in dec.keywords):
                return None, None
            kwargs = {k.arg: _hint_value(sm, env, k.value) for k in dec.keywords}
            return dict(lang.kernel(**kwargs).hints), None
        except _Unknown:
            return None, None
        except (TypeError, ValueError) as e:
            return None, InvalidValueError(str(e), _loc(sm, dec))
    return None, None


def _hint_value(sm: StaticModule, env, node: ast.expr) -> Any:
    """A hint's value; `ct.ByTarget(sm_90=..., default=...)` is built here, as compile-time
    Python does not build library classes."""
    if isinstance(node, ast.Call):
        callee = _evaluate(sm.evaluator, node.func, env, sm.filename)
        if callee is lang.ByTarget:
            if node.args or any(k.arg is None for k in node.keywords):
                raise TypeError("ByTarget() takes keyword arguments only")
            return lang.ByTarget(**{k.arg: _evaluate(sm.evaluator, k.value, env, sm.filename)
                                    for k in node.keywords})
    return _evaluate(sm.evaluator, node, env, sm.filename)


def _decorated(sm: StaticModule, env, node, fn: SourceFunction, kinds) -> Any:
    """The function with its other decorators applied by the evaluator (`functools.wraps`
    wrappers, user decorators written in Python); the undecorated function when a decorator
    cannot be evaluated (a JIT from another library, say)."""
    value: Any = fn
    for dec, kind in reversed(list(zip(node.decorator_list, kinds))):
        if kind is not None:
            continue
        try:
            decorator = _evaluate(sm.evaluator, dec, env, sm.filename)
            value = _apply(call, sm.evaluator, decorator, [value], {})
        except _Unknown:
            return fn
    return value


def _eval_or_unknown(sm, ev, node):
    try:
        return ev.eval(node)
    except (_Unknown, RecursionError) as u:
        return UnknownValue(getattr(u, "reason", "too deeply nested"), _loc(sm, node))
