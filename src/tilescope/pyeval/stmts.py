"""Statements of the Python functions compile-time code calls (helpers written in Python)."""
from __future__ import annotations

import ast
from typing import Any, List

from ..errors import TileError
from . import objects
from .builtins import items_of
from .calls import call, construct
from .functions import Frame, PyFunction, Return
from .limits import EvalControl, Refused
from .objects import AST_BINARY
from .policy import READABLE_MODULES


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


def exec_block(ev, body: List[ast.stmt], frame: Frame) -> None:
    for stmt in body:
        ev.budget.charge()
        method = _STATEMENTS.get(type(stmt))
        if method is None:
            raise Refused(f"'{type(stmt).__name__}' statements are not evaluated at compile time", stmt,
                          frame.filename)
        try:
            method(ev, stmt, frame)
        except EvalControl as ex:
            raise ex.locate(stmt, frame.filename)


def assign(ev, target: ast.expr, value: Any, frame: Frame) -> None:
    if isinstance(target, ast.Name):
        _store_name(frame, target.id, value)
    elif isinstance(target, (ast.Tuple, ast.List)):
        _unpack(ev, target.elts, value, frame)
    elif isinstance(target, ast.Attribute):
        objects.set_attribute(ev, ev.eval(target.value, frame), target.attr, value)
    elif isinstance(target, ast.Subscript):
        objects.set_item(ev, ev.eval(target.value, frame), ev.eval(target.slice, frame), value)
    elif isinstance(target, ast.Starred):
        raise Refused("a starred assignment target must be in a list or tuple")
    else:
        raise Refused(f"assigning to a '{type(target).__name__}' is not evaluated at compile time")


def _store_name(frame: Frame, name: str, value: Any) -> None:
    declared = getattr(frame, "nonlocals", None)
    if declared and name in declared:
        owner = frame.owner_of(name)
        if owner is not None:
            owner.vars[name] = value
            return
    if name not in frame.local_names and frame.name != "<comprehension>":
        raise Refused(f"assigning the global '{name}' is not allowed in compile-time Python")
    frame.vars[name] = value


def _unpack(ev, targets: List[ast.expr], value: Any, frame: Frame) -> None:
    items = items_of(ev, value)
    star = [i for i, t in enumerate(targets) if isinstance(t, ast.Starred)]
    if not star:
        if len(items) != len(targets):
            word = "many" if len(items) > len(targets) else "enough"
            raise ValueError(f"too {word} values to unpack (expected {len(targets)}, got {len(items)})")
        for t, v in zip(targets, items):
            assign(ev, t, v, frame)
        return
    i = star[0]
    after = len(targets) - i - 1
    if len(items) < len(targets) - 1:
        raise ValueError(f"not enough values to unpack (expected at least {len(targets) - 1}, got {len(items)})")
    for t, v in zip(targets[:i], items[:i]):
        assign(ev, t, v, frame)
    assign(ev, targets[i].value, ev.own(items[i:len(items) - after]), frame)
    for t, v in zip(targets[i + 1:], items[len(items) - after:]):
        assign(ev, t, v, frame)


def _expr(ev, s, frame):
    ev.eval(s.value, frame)


def _assign(ev, s, frame):
    value = ev.eval(s.value, frame)
    for t in s.targets:
        assign(ev, t, value, frame)


def _annassign(ev, s, frame):
    if s.value is not None:
        assign(ev, s.target, ev.eval(s.value, frame), frame)


def _augassign(ev, s, frame):
    op = AST_BINARY[type(s.op)]
    t = s.target
    if isinstance(t, ast.Name):
        current = ev.lookup(t.id, frame)
        _store_name(frame, t.id, objects.augmented(ev, op, current, ev.eval(s.value, frame)))
    elif isinstance(t, ast.Attribute):
        obj = ev.eval(t.value, frame)
        current = objects.get_attribute(ev, obj, t.attr)
        objects.set_attribute(ev, obj, t.attr, objects.augmented(ev, op, current, ev.eval(s.value, frame)))
    elif isinstance(t, ast.Subscript):
        obj, key = ev.eval(t.value, frame), ev.eval(t.slice, frame)
        current = objects.get_item(ev, obj, key)
        objects.set_item(ev, obj, key, objects.augmented(ev, op, current, ev.eval(s.value, frame)))
    else:
        raise Refused("unsupported augmented assignment target")


def _return(ev, s, frame):
    raise Return(None if s.value is None else ev.eval(s.value, frame))


def _pass(ev, s, frame):
    pass


def _break(ev, s, frame):
    raise _Break()


def _continue(ev, s, frame):
    raise _Continue()


def _if(ev, s, frame):
    exec_block(ev, s.body if objects.truth(ev, ev.eval(s.test, frame)) else s.orelse, frame)


def _for(ev, s, frame):
    if isinstance(s, ast.AsyncFor):
        raise Refused("'async for' is not evaluated at compile time")
    for item in objects.iterate(ev, ev.eval(s.iter, frame)):
        assign(ev, s.target, item, frame)
        if not _loop_body(ev, s, frame):
            return
    exec_block(ev, s.orelse, frame)


def _while(ev, s, frame):
    while objects.truth(ev, ev.eval(s.test, frame)):
        ev.budget.charge()
        if not _loop_body(ev, s, frame):
            return
    exec_block(ev, s.orelse, frame)


def _loop_body(ev, s, frame) -> bool:
    """Run a loop's body once; False when it breaks out of the loop."""
    try:
        exec_block(ev, s.body, frame)
    except _Break:
        return False
    except _Continue:
        pass
    return True


def _functiondef(ev, s, frame):
    decorators = [ev.eval(d, frame) for d in s.decorator_list]
    value: Any = PyFunction(s, frame, frame.globals, frame.filename, ev.defaults_of(s.args, frame))
    for decorator in reversed(decorators):
        value = call(ev, decorator, [value], {})
    _store_name(frame, s.name, value)


def _assert(ev, s, frame):
    if not objects.truth(ev, ev.eval(s.test, frame)):
        raise AssertionError(*(() if s.msg is None else (ev.eval(s.msg, frame),)))


def _raise(ev, s, frame):
    if s.exc is None:
        raise Refused("a bare 'raise' is not evaluated at compile time")
    exc = ev.eval(s.exc, frame)
    if issubclass(type(exc), type) and issubclass(exc, BaseException):
        exc = construct(ev, exc, [], {})
    if not issubclass(type(exc), BaseException) or issubclass(type(exc), EvalControl):
        raise TypeError("exceptions must derive from BaseException")
    raise exc


def _try(ev, s, frame):
    try:
        exec_block(ev, s.body, frame)
    except (EvalControl, TileError, Return, _Break, _Continue):
        raise
    except Exception as ex:
        for handler in s.handlers:
            if handler.type is None or _matches(ev, ex, ev.eval(handler.type, frame)):
                if handler.name:
                    frame.vars[handler.name] = ex
                exec_block(ev, handler.body, frame)
                break
        else:
            raise
    else:
        exec_block(ev, s.orelse, frame)
    finally:
        exec_block(ev, s.finalbody, frame)


def _matches(ev, ex: BaseException, handler_type: Any) -> bool:
    types_ = handler_type if type(handler_type) is tuple else (handler_type,)
    for t in types_:
        if not (issubclass(type(t), type) and issubclass(t, BaseException)):
            raise TypeError("catching classes that do not inherit from BaseException is not allowed")
    return issubclass(type(ex), types_)


def _nonlocal(ev, s, frame):
    frame.nonlocals = set(getattr(frame, "nonlocals", ())) | set(s.names)


def _global(ev, s, frame):
    raise Refused("'global' statements are not evaluated at compile time")


def _delete(ev, s, frame):
    for t in s.targets:
        if isinstance(t, ast.Name) and t.id in frame.vars:
            del frame.vars[t.id]
        elif isinstance(t, ast.Subscript):
            obj = ev.eval(t.value, frame)
            if not ev.owns(obj):
                raise Refused("compile-time Python may only change objects it created")
            key = ev.eval(t.slice, frame)
            del obj[key]
        else:
            raise Refused("this 'del' is not evaluated at compile time")


def _import(ev, s, frame):
    import importlib
    names = [a.name for a in s.names]
    module = getattr(s, "module", None)
    for name in ([module] if module else names):
        if name not in READABLE_MODULES:
            raise Refused(f"importing '{name}' is not allowed in compile-time Python")
    if isinstance(s, ast.ImportFrom):
        base = importlib.import_module(module)
        for a in s.names:
            _store_name(frame, a.asname or a.name, objects.get_attribute(ev, base, a.name))
    else:
        for a in s.names:
            _store_name(frame, a.asname or a.name, importlib.import_module(a.name))


_STATEMENTS = {
    ast.Expr: _expr, ast.Assign: _assign, ast.AnnAssign: _annassign, ast.AugAssign: _augassign,
    ast.Return: _return, ast.Pass: _pass, ast.Break: _break, ast.Continue: _continue, ast.If: _if,
    ast.For: _for, ast.While: _while, ast.FunctionDef: _functiondef, ast.Assert: _assert,
    ast.Raise: _raise, ast.Try: _try, ast.Nonlocal: _nonlocal, ast.Global: _global, ast.Delete: _delete,
    ast.Import: _import, ast.ImportFrom: _import,
}
