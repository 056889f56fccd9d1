"""Compile-time Python run as ordinary Python: only when the user trusts the code.

`tilescope check --trust`, `tilescope run --trust` (TILESCOPE_TRUST=1) and
`tilescope.compile(..., trust=True)` opt in; the CLI then runs the whole command in a
separate, time- and memory-limited process (tools/isolation.py). Everywhere else the
restricted evaluator (tilescope.pyeval) evaluates it.
"""
from __future__ import annotations

import ast
import threading
from typing import Any, List

from ...errors import StaticException, TileError, TileStaticEvalError
from ...ops import registry
from ...pyeval import ForbiddenCall
from .static_values import check_static_visible, from_static, to_static, type_and_str

_local = threading.local()


def _contexts() -> List[Any]:
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


def trusted_python(ctx, node: ast.expr, what: str) -> Any:
    names = sorted({n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)})
    scope = {}
    for name in names:
        try:
            value = ctx.lookup(name)
        except TileError:
            continue
        check_static_visible(ctx, value)
        scope[name] = to_static(ctx, value)
    lam = ast.Expression(ast.Lambda(
        ast.arguments(posonlyargs=[], args=[ast.arg(n) for n in scope], kwonlyargs=[], kw_defaults=[],
                      defaults=[]), node))
    ast.fix_missing_locations(lam)
    ast.copy_location(lam.body, node)
    stack = _contexts()
    try:
        code = compile(lam, ctx.loc.filename if ctx.loc else "<static>", "eval")
        fn = eval(code, dict(ctx.frame.globals))
        stack.append(ctx)
        try:
            return fn(*scope.values())
        finally:
            stack.pop()
    except TileError:
        raise
    except _Forbidden as ex:
        verb = "used" if ex.name in registry.STATIC_FORMS else "called"
        raise ctx.error(TileStaticEvalError, f"{ex.name}() cannot be {verb} inside {what}.") from None
    except ForbiddenCall as ex:       # a tile-code function called
        raise ctx.error(TileStaticEvalError, f"{ex.desc} cannot be {ex.verb} inside {what}.") from None
    except Exception as ex:  # the user's code failed at compile time
        raise ctx.error(StaticException, f"Exception was raised inside {what} "
                                         f"({type_and_str(ex)})") from None


class _Forbidden(Exception):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def call_in_trusted_python(name: str, allowed: bool, args, kwargs):
    """(True, result) when a `cuda.tile` op is called from trusted compile-time Python."""
    stack = _contexts()
    if not stack:
        return False, None
    if not allowed:
        raise _Forbidden(name)
    ctx = stack[-1]
    result = ctx.call_surface(name, [from_static(a) for a in args],
                              {k: from_static(v) for k, v in kwargs.items()})
    return True, to_static(ctx, result)


registry.NATIVE_CALL[0] = call_in_trusted_python
