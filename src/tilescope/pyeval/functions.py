"""Functions as the evaluator sees them: where their source, globals, closure and defaults are,
how arguments bind, and the scopes their names resolve in."""
from __future__ import annotations

import ast
import types
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..errors import TileSyntaxError
from ..frontend.source import function_ast, SourceFunction
from .limits import Refused


class Return(Exception):
    """A `return` in an interpreted function body, carrying its value to the call."""

    def __init__(self, value: Any):
        self.value = value

_MISSING = object()


class Scope:
    """Names of one evaluation level; `find` answers (found, value)."""
    parent: Optional["Scope"] = None

    def find(self, name: str) -> Tuple[bool, Any]:
        return False, None


class ResolverScope(Scope):
    """The names an embedding (a kernel being compiled) resolves itself."""

    def __init__(self, resolve: Callable[[str], Tuple[bool, Any]]):
        self.resolve = resolve

    def find(self, name: str) -> Tuple[bool, Any]:
        return self.resolve(name)


class CellScope(Scope):
    """The free variables of a live Python function (its closure cells)."""

    def __init__(self, cells: Dict[str, Any]):
        self.cells = cells

    def find(self, name: str) -> Tuple[bool, Any]:
        cell = self.cells.get(name)
        if cell is None:
            return False, None
        try:
            return True, cell.cell_contents
        except ValueError:
            raise NameError(f"cannot access free variable '{name}' where it is not associated with a value "
                            f"in enclosing scope") from None


class Frame(Scope):
    """Local variables of an interpreted function call or comprehension."""

    def __init__(self, local_names, parent: Optional[Scope], globals_: Dict[str, Any], filename: str,
                 name: str = "<lambda>"):
        self.vars: Dict[str, Any] = {}
        self.local_names = local_names
        self.parent = parent
        self.globals = globals_
        self.filename = filename
        self.name = name

    def find(self, name: str) -> Tuple[bool, Any]:
        if name in self.vars:
            return True, self.vars[name]
        if name in self.local_names:
            raise UnboundLocalError(f"cannot access local variable '{name}' where it is not associated "
                                    f"with a value")
        return False, None

    def owner_of(self, name: str) -> Optional["Frame"]:
        """The enclosing frame a `nonlocal name` refers to."""
        s = self.parent
        while s is not None:
            if isinstance(s, Frame) and name in s.local_names:
                return s
            s = s.parent
        return None


class PyFunction:
    """A `def` or `lambda` evaluated at compile time (a closure over its defining frame)."""

    def __init__(self, node, scope: Optional[Scope], globals_: Dict[str, Any], filename: str,
                 defaults: Dict[str, Any]):
        self.node = node
        self.scope = scope
        self.globals = globals_
        self.filename = filename
        self.defaults = defaults
        self.__name__ = getattr(node, "name", "<lambda>")
        self.__qualname__ = self.__name__

    def __call__(self, *args, **kwargs):
        # Callable (so `callable()` says what Python would), but only ever interpreted.
        raise TypeError(f"{self.__name__}() was made by compile-time Python and is not run as Python")

    def __repr__(self) -> str:
        return f"<function {self.__name__} (compile time)>"


class BoundMethod:
    """`obj.method` for a method the evaluator interprets."""

    def __init__(self, function: Any, self_value: Any):
        self.function = function
        self.self_value = self_value
        self.__name__ = getattr(function, "__name__", "method")

    def __repr__(self) -> str:
        return f"<bound method {self.__name__} (compile time)>"


class FunctionSource:
    """Everything needed to interpret a call: AST, where names resolve, defaults."""

    def __init__(self, node, filename: str, globals_: Dict[str, Any], scope: Optional[Scope],
                 defaults: Dict[str, Any]):
        self.node, self.filename, self.globals, self.scope, self.defaults = node, filename, globals_, scope, defaults


def source_of(fn: Any) -> Optional[FunctionSource]:
    """How to interpret `fn`, or None when it is not a function the evaluator interprets."""
    if type(fn) is PyFunction:
        return FunctionSource(fn.node, fn.filename, fn.globals, fn.scope, fn.defaults)
    if isinstance(fn, SourceFunction):
        return FunctionSource(fn.node, fn.filename, fn.__globals__, None, dict(fn.defaults))
    if type(fn) is types.FunctionType:
        return _live_source(fn)
    return None


def _live_source(fn: types.FunctionType) -> FunctionSource:
    try:
        node, filename = function_ast(fn)
    except (TileSyntaxError, OSError, TypeError):
        raise Refused(f"the source of {fn.__qualname__}() is not available to evaluate it") from None
    code = fn.__code__
    scope = None
    if code.co_freevars and fn.__closure__:
        scope = CellScope(dict(zip(code.co_freevars, fn.__closure__)))
    args = node.args
    positional = [a.arg for a in args.posonlyargs + args.args]
    defaults: Dict[str, Any] = {}
    values = fn.__defaults__ or ()
    for name, value in zip(positional[len(positional) - len(values):], values):
        defaults[name] = value
    defaults.update(fn.__kwdefaults__ or {})
    return FunctionSource(node, filename, fn.__globals__, scope, defaults)


_local_names_cache: Dict[int, Tuple[Any, frozenset]] = {}


def local_names(node) -> frozenset:
    """Names a function body binds (its locals), as Python's compiler decides them."""
    hit = _local_names_cache.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    names, declared = set(), set()
    args = node.args
    for a in args.posonlyargs + args.args + args.kwonlyargs:
        names.add(a.arg)
    for a in (args.vararg, args.kwarg):
        if a is not None:
            names.add(a.arg)
    body = node.body if isinstance(node.body, list) else []
    stack: List[ast.AST] = list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            declared.update(n.names)
            continue
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(n.name)
            stack.extend(getattr(n, "decorator_list", []))
            continue           # its body is its own scope
        if isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            names.add(n.id)
        elif isinstance(n, ast.alias):
            names.add((n.asname or n.name).split(".")[0])
        elif isinstance(n, ast.ExceptHandler) and n.name:
            names.add(n.name)
        elif isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name):
            names.add(n.target.id)
        stack.extend(ast.iter_child_nodes(n))
    result = frozenset(names - declared)
    if len(_local_names_cache) > 1024:
        _local_names_cache.clear()
    _local_names_cache[id(node)] = (node, result)
    return result


def bind_arguments(name: str, args_node: ast.arguments, defaults: Dict[str, Any], args: List[Any],
                   kwargs: Dict[str, Any], frame: Frame) -> None:
    """Bind a call's arguments to a function's parameters, with Python's errors."""
    posonly = [a.arg for a in args_node.posonlyargs]
    regular = [a.arg for a in args_node.args]
    positional = posonly + regular
    kwonly = [a.arg for a in args_node.kwonlyargs]
    out = frame.vars
    if len(args) > len(positional) and args_node.vararg is None:
        raise TypeError(f"{name}() takes {len(positional)} positional argument{'s' if len(positional) != 1 else ''} "
                        f"but {len(args)} were given")
    for p, v in zip(positional, args):
        out[p] = v
    if args_node.vararg is not None:
        out[args_node.vararg.arg] = tuple(args[len(positional):])
    extra: Dict[str, Any] = {}
    for k, v in kwargs.items():
        if k in regular or k in kwonly:
            if k in out:
                raise TypeError(f"{name}() got multiple values for argument '{k}'")
            out[k] = v
        elif args_node.kwarg is not None:
            extra[k] = v
        else:
            raise TypeError(f"{name}() got an unexpected keyword argument '{k}'")
    if args_node.kwarg is not None:
        out[args_node.kwarg.arg] = extra
    missing = []
    for p in positional + kwonly:
        if p not in out:
            value = defaults.get(p, _MISSING)
            if value is _MISSING:
                missing.append(p)
            else:
                out[p] = value
    if missing:
        listed = ", ".join(f"'{m}'" for m in missing)
        raise TypeError(f"{name}() missing {len(missing)} required argument{'s' if len(missing) != 1 else ''}: "
                        f"{listed}")
