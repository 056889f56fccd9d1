"""Checks that need no argument metadata: unsupported syntax, call arity, unknown `ct.` names."""
from __future__ import annotations

import ast
import hashlib
import inspect
from collections import OrderedDict
from typing import Dict, List, Optional

from ... import lang
from ...errors import Loc, TileError
from ...frontend.ast2hir import function_to_hir
from ...frontend.static_module import StaticModule
from ...ops.registry import SurfaceFunction
from .facts import ModuleFacts
from .records import Diag, name_loc

# Converting a function to HIR (the syntax check) depends only on its text and place:
# diagnostics keyed by a hash of both, least recently used first out.
_HIR_CHECKS: "OrderedDict[str, List[Diag]]" = OrderedDict()
_HIR_CHECKS_SIZE = 256


def tile_functions(sm: StaticModule, facts: ModuleFacts) -> Dict[str, ast.AST]:
    """Kernels, @ct.function helpers and every module function they call by name."""
    todo = [n for n, f in sm.functions.items() if f.is_kernel or getattr(f, "is_tile_function", False)]
    seen: Dict[str, ast.AST] = {}
    while todo:
        name = todo.pop()
        if name in seen or name not in sm.functions:
            continue
        seen[name] = sm.functions[name].node
        todo.extend(facts.calls_from(name))
    return seen


def generic_checks(an) -> None:
    sm = an.static
    for name, node in an.tile_functions.items():
        an.diagnostics.extend(_hir_check(an, name, node, sm.functions[name].is_kernel))
        for call in an.facts[name].calls:
            d = _arity_check(an, call)
            if d is not None:
                an.diagnostics.append(d)
    aliases = set(sm.tile_aliases)
    if not aliases:
        return
    known = _lang_names()
    attributes = [a for n in sm.functions for a in an.facts[n].attributes]
    for stmt in sm.tree.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) or stmt.name not in sm.functions:
            attributes.extend(sub for sub in ast.walk(stmt) if isinstance(sub, ast.Attribute)
                              and isinstance(sub.value, ast.Name))
    for sub in attributes:
        if sub.value.id in aliases and sub.attr not in known:
            loc = Loc(an.filename, sub.lineno, sub.col_offset + 1, sub.end_lineno, sub.end_col_offset + 1)
            an.diagnostics.append(Diag(loc, "error", "TileTypeError",
                                       f"module 'cuda.tile' has no attribute '{sub.attr}'"))


def _hir_check(an, name: str, node, is_kernel: bool) -> List[Diag]:
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    text = "\n".join(an.lines[first - 1:node.end_lineno or node.lineno])
    key = hashlib.sha1(repr((an.filename, first, node.col_offset, is_kernel, text))
                       .encode("utf-8", "surrogatepass")).hexdigest()
    cached = _HIR_CHECKS.get(key)
    if cached is not None:
        _HIR_CHECKS.move_to_end(key)
        return cached
    out = []
    try:
        function_to_hir(node, an.filename, is_entry=is_kernel)
    except TileError as e:
        out.append(Diag(e.loc or name_loc(an.filename, an.lines, node), "error", e.kind, e.message, name,
                        generic=True))
    except RecursionError:
        out.append(Diag(name_loc(an.filename, an.lines, node), "error", "TileRecursionError",
                        "the function is too deeply nested to analyse", name))
    _HIR_CHECKS[key] = out
    while len(_HIR_CHECKS) > _HIR_CHECKS_SIZE:
        _HIR_CHECKS.popitem(last=False)
    return out


def _arity_check(an, call: ast.Call) -> Optional[Diag]:
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    f = call.func
    keywords = tuple(k.arg for k in call.keywords)
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in an.static.tile_aliases:
        shape = (f.attr, len(call.args), keywords)
        error = _LANG_CALLS.get(shape, False)
        if error is False:
            target = getattr(lang, f.attr, None) if f.attr in _lang_names() else None
            usable = isinstance(target, SurfaceFunction) and not target.raw_args and target.family != "missing"
            error = _bind_error(target.signature, len(call.args), keywords) if usable else None
            if len(_LANG_CALLS) >= _LANG_CALLS_SIZE:
                _LANG_CALLS.clear()
            _LANG_CALLS[shape] = error
        label = f"{f.value.id}.{f.attr}"
    elif isinstance(f, ast.Name) and f.id in an.tile_functions and f.id in an.static.functions:
        sig = ast_signature(an.static.functions[f.id].node)
        label = f.id
        error = _bind_error(sig, len(call.args), keywords) if sig is not None else None
    else:
        return None
    if error is None:
        return None
    loc = Loc(an.filename, call.lineno, call.col_offset + 1, call.end_lineno, call.end_col_offset + 1)
    return Diag(loc, "error", "TileTypeError", f"{label}(): {error}", generic=True)


# What binding a call of the same shape to a cuda.tile function gave: (name, positional
# arguments, keyword names) -> the error, or None. Every keystroke checks every call again.
_LANG_CALLS: Dict[tuple, Optional[str]] = {}
_LANG_CALLS_SIZE = 4096


def _bind_error(sig: inspect.Signature, positional: int, keywords: tuple) -> Optional[str]:
    try:
        sig.bind(*([None] * positional), **{k: None for k in keywords})
    except TypeError as e:
        return str(e)
    return None


_LANG_NAMES: Optional[frozenset] = None


def _lang_names() -> frozenset:
    global _LANG_NAMES
    if _LANG_NAMES is None:
        _LANG_NAMES = frozenset(dir(lang))
    return _LANG_NAMES


def ast_signature(node) -> Optional[inspect.Signature]:
    """The call signature of a def, from its syntax (defaults stand in as None)."""
    a = node.args
    P = inspect.Parameter
    params = []
    pos = a.posonlyargs + a.args
    first_default = len(pos) - len(a.defaults)
    try:
        for i, arg in enumerate(pos):
            kind = P.POSITIONAL_ONLY if i < len(a.posonlyargs) else P.POSITIONAL_OR_KEYWORD
            params.append(P(arg.arg, kind, default=None if i >= first_default else P.empty))
        if a.vararg:
            params.append(P(a.vararg.arg, P.VAR_POSITIONAL))
        for arg, d in zip(a.kwonlyargs, a.kw_defaults):
            params.append(P(arg.arg, P.KEYWORD_ONLY, default=P.empty if d is None else None))
        if a.kwarg:
            params.append(P(a.kwarg.arg, P.VAR_KEYWORD))
        return inspect.Signature(params)
    except ValueError:
        return None
