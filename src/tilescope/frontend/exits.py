"""Make every `return`/`break`/`continue` the last statement of its block.

After this pass a statement list either falls through or ends in an exit, and
an `if` either has no exits or exits on every path. Statements that follow a
branch that may exit are moved into the branches that fall through, so the
interpreter never needs "maybe exited" states. A `return` inside a loop becomes
a flag plus `break`, checked after the loop.
"""
from __future__ import annotations

import itertools
from typing import List

from . import hir as H

RETURNED = "$returned"
RETVAL = "$retval"


def _may_exit(stmts: List[H.Stmt], *, in_loop_level: bool = True) -> bool:
    for s in stmts:
        if isinstance(s, H.EXITS):
            return True
        if isinstance(s, H.If) and (_may_exit(s.body) or _may_exit(s.orelse)):
            return True
        if isinstance(s, (H.For, H.While)) and _contains_return(s.body):
            return True
    return False


def _contains_return(stmts: List[H.Stmt]) -> bool:
    for s in stmts:
        if isinstance(s, H.Return):
            return True
        for sub in _child_lists(s):
            if _contains_return(sub):
                return True
    return False


def _child_lists(s: H.Stmt):
    if isinstance(s, H.If):
        return [s.body, s.orelse]
    if isinstance(s, (H.For, H.While)):
        return [s.body]
    return []


def _seal(stmts: List[H.Stmt], tail: List[H.Stmt], in_loop: bool = False) -> List[H.Stmt]:
    """Return `stmts + tail` with exits pushed to block ends (tail runs only on fall-through)."""
    out: List[H.Stmt] = []
    for i, s in enumerate(stmts):
        rest = stmts[i + 1:] + tail
        if isinstance(s, H.EXITS):
            out.append(s)
            return out            # statements after an exit are dead
        if isinstance(s, H.If) and (_may_exit(s.body) or _may_exit(s.orelse)):
            out.append(H.If(s.test, _seal(s.body, rest, in_loop), _seal(s.orelse, rest, in_loop), s.loc))
            return out
        if isinstance(s, H.If):
            out.append(H.If(s.test, _seal(s.body, [], in_loop), _seal(s.orelse, [], in_loop), s.loc))
        elif isinstance(s, (H.For, H.While)):
            out.extend(_seal_loop(s))
            if out and isinstance(out[-1], H.If) and getattr(out[-1], "after_loop_return", False):
                # `if $returned: return $retval` takes the rest into its else-branch;
                # inside an enclosing loop the return keeps propagating as a break.
                check = out.pop()
                exit_ = [H.Break(check.loc)] if in_loop else check.body
                out.append(H.If(check.test, exit_, _seal(rest, [], in_loop), check.loc))
                return out
        elif isinstance(s, H.FunctionDef):
            out.append(seal_function(s, is_entry=False))
        else:
            out.append(s)
    out.extend(_seal(tail, [], in_loop) if tail else [])
    return out


def _seal_loop(loop) -> List[H.Stmt]:
    """Seal a loop body; a `return` inside becomes flag + break, checked after the loop."""
    has_return = _contains_return(loop.body)
    body = _rewrite_returns(loop.body, loop.loc) if has_return else loop.body
    body = _seal(body, [H.Continue(loop.loc)], in_loop=True)
    if isinstance(loop, H.For):
        new = H.For(loop.target, loop.iter, body, loop.loc, static=loop.static)
    else:
        new = H.While(loop.test, body, loop.loc)
    if not has_return:
        return [new]
    loc = loop.loc
    init = [H.Assign([H.Name(RETURNED, loc)], H.Const(False, loc), loc),
            H.Assign([H.Name(RETVAL, loc)], H.Const(None, loc), loc)]
    check = H.If(H.Name(RETURNED, loc), [H.Return(H.Name(RETVAL, loc), loc)], [], loc)
    check.after_loop_return = True
    return init + [new, check]


def _rewrite_returns(stmts: List[H.Stmt], loc) -> List[H.Stmt]:
    out: List[H.Stmt] = []
    for s in stmts:
        if isinstance(s, H.Return):
            value = s.value if s.value is not None else H.Const(None, s.loc)
            out += [H.Assign([H.Name(RETVAL, s.loc)], value, s.loc),
                    H.Assign([H.Name(RETURNED, s.loc)], H.Const(True, s.loc), s.loc),
                    H.Break(s.loc)]
        elif isinstance(s, H.If):
            out.append(H.If(s.test, _rewrite_returns(s.body, loc), _rewrite_returns(s.orelse, loc), s.loc))
        else:
            # Nested loops keep their own returns; _seal_loop rewrites them and
            # the outer loop sees the `if $returned: return` that follows.
            out.append(s)
    return out


_with_keys = itertools.count()


def _flatten_withs(stmts: List[H.Stmt], open_withs=(), loop_withs=()) -> List[H.Stmt]:
    """Turn every `with` into WithEnter + body + WithExit, with a WithExit before each
    `break`/`continue`/`return` that leaves it (innermost first), so exits need no special case
    and a generator's `yield` inside a `with` becomes a top-level statement."""
    out: List[H.Stmt] = []
    for s in stmts:
        if isinstance(s, H.With):
            key = f"$with{next(_with_keys)}"
            inner = open_withs + (key,)
            out.append(H.WithEnter(s.items, key, s.loc))
            out.extend(_flatten_withs(s.body, inner, loop_withs + (key,)))
            out.append(H.WithExit(key, s.loc))
        elif isinstance(s, H.Return):
            out.extend(H.WithExit(k, s.loc) for k in reversed(open_withs))
            out.append(s)
        elif isinstance(s, (H.Break, H.Continue)):
            out.extend(H.WithExit(k, s.loc) for k in reversed(loop_withs))
            out.append(s)
        elif isinstance(s, H.If):
            out.append(H.If(s.test, _flatten_withs(s.body, open_withs, loop_withs),
                            _flatten_withs(s.orelse, open_withs, loop_withs), s.loc))
        elif isinstance(s, H.For):
            out.append(H.For(s.target, s.iter, _flatten_withs(s.body, open_withs, ()), s.loc, static=s.static))
        elif isinstance(s, H.While):
            out.append(H.While(s.test, _flatten_withs(s.body, open_withs, ()), s.loc))
        else:
            out.append(s)
    return out


def _early_returns(stmts: List[H.Stmt], nested: bool = False) -> bool:
    """Whether a `return` (with a value) sits inside an `if`, and none inside a loop or `with`."""
    found = False
    for s in stmts:
        if isinstance(s, (H.For, H.While, H.WithEnter)) or (isinstance(s, H.Return) and s.value is None):
            return False
        if isinstance(s, H.Return) and nested:
            found = True
        if isinstance(s, H.If):
            inner = [_early_returns(b, True) if _contains_return(b) else None for b in (s.body, s.orelse)]
            if False in inner:
                return False
            found = found or True in inner
    return found


def _as_loop(body: List[H.Stmt], loc) -> List[H.Stmt]:
    """A helper body with early returns as upstream writes it: one loop whose `break`s return,
    the value carried out in RETVAL, which starts undefined (`$retval = None; while True: ...;
    $retval = v; break`, then `return $retval`)."""
    def rewrite(stmts):
        out: List[H.Stmt] = []
        for s in stmts:
            if isinstance(s, H.Return):
                out += [H.Assign([H.Name(RETVAL, s.loc)], s.value, s.loc), H.Break(s.loc)]
            elif isinstance(s, H.If):
                out.append(H.If(s.test, rewrite(s.body), rewrite(s.orelse), s.loc))
            else:
                out.append(s)
        return out
    return [H.Assign([H.Name(RETVAL, loc)], H.Const(None, loc), loc), H.While(H.Const(True, loc), rewrite(body), loc),
            H.Return(H.Name(RETVAL, loc), loc)]


def seal_function(fn: H.FunctionDef, *, is_entry: bool) -> H.FunctionDef:
    flat = _flatten_withs(fn.body)
    if not is_entry and not fn.is_generator and _early_returns(flat) and isinstance(flat[-1], H.Return):
        flat = _as_loop(flat, fn.loc)
    if fn.is_generator:
        body = _seal(flat, [])
    else:
        body = _seal(flat, [H.Return(None, fn.loc)])
    sealed = H.FunctionDef(fn.name, fn.params, body, fn.loc, fn.decorators, fn.is_generator)
    sealed.local_names = fn.local_names
    return sealed
