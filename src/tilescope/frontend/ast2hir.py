"""Python AST → HIR, rejecting the syntax cuTile does not support."""
from __future__ import annotations

import ast
from typing import List, Optional, Set

from ..errors import Loc, TileSyntaxError
from . import hir as H
from .exits import seal_function

_BINOPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv",
           ast.FloorDiv: "floordiv", ast.Mod: "mod", ast.Pow: "pow", ast.MatMult: "matmul",
           ast.LShift: "lshift", ast.RShift: "rshift", ast.BitAnd: "and_", ast.BitOr: "or_",
           ast.BitXor: "xor"}
_UNARY = {ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "invert", ast.Not: "not_"}
_CMPOPS = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt",
           ast.GtE: "ge", ast.Is: "is_", ast.IsNot: "is_not", ast.In: "in_", ast.NotIn: "not_in"}


def _loc(filename: str, node: ast.AST) -> Loc:
    return Loc(filename, node.lineno, node.col_offset + 1,
               getattr(node, "end_lineno", None),
               None if getattr(node, "end_col_offset", None) is None else node.end_col_offset + 1)


class _Converter:
    def __init__(self, filename: str):
        self.filename = filename
        self.loop_depth = 0
        self.static_loop_depth = 0
        self.in_generator = False

    def loc(self, node: ast.AST) -> Loc:
        return _loc(self.filename, node)

    def unsupported(self, node: ast.AST, what: Optional[str] = None) -> TileSyntaxError:
        msg = "Unsupported syntax" if what is None else f"Unsupported syntax: {what}"
        return TileSyntaxError(msg, self.loc(node))

    # ---- functions ----------------------------------------------------------

    def function(self, node, *, is_entry: bool) -> H.FunctionDef:
        a = node.args
        params: List[H.Param] = []
        pos = a.posonlyargs + a.args
        defaults = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
        for i, (arg, d) in enumerate(zip(pos, defaults)):
            kind = "positional_only" if i < len(a.posonlyargs) else "positional"
            params.append(self.param(arg, kind, d))
        if a.vararg:
            if is_entry:
                raise TileSyntaxError("Variadic kernel parameters are not supported", self.loc(a.vararg))
            params.append(self.param(a.vararg, "var_positional", None))
        for arg, d in zip(a.kwonlyargs, a.kw_defaults):
            params.append(self.param(arg, "keyword_only", d))
        if a.kwarg:
            if is_entry:
                raise TileSyntaxError("Variadic kernel parameters are not supported", self.loc(a.kwarg))
            params.append(self.param(a.kwarg, "var_keyword", None))

        saved = (self.loop_depth, self.static_loop_depth, self.in_generator)
        self.loop_depth = self.static_loop_depth = 0
        if isinstance(node, ast.Lambda):
            body = [H.Return(self.expr(node.body), self.loc(node.body))]
            name, decorators, is_gen = "<lambda>", [], False
        else:
            is_gen = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _walk_own(node))
            self.in_generator = is_gen
            stmts = node.body
            if stmts and isinstance(stmts[0], ast.Expr) and isinstance(stmts[0].value, ast.Constant) \
                    and isinstance(stmts[0].value.value, str):
                stmts = stmts[1:]          # docstring
            body = self.stmts(stmts)
            name = node.name
            decorators = [self.expr(d) for d in node.decorator_list]
        self.loop_depth, self.static_loop_depth, self.in_generator = saved
        fn = H.FunctionDef(name, params, body, self.loc(node), decorators, is_gen)
        fn.local_names = frozenset(_assigned_names(body) | {p.name for p in params})
        return fn

    def param(self, arg: ast.arg, kind: str, default) -> H.Param:
        return H.Param(arg.arg, kind, None if default is None else self.expr(default),
                       None if arg.annotation is None else self.expr(arg.annotation), self.loc(arg))

    # ---- statements ---------------------------------------------------------

    def stmts(self, nodes) -> List[H.Stmt]:
        out: List[H.Stmt] = []
        for n in nodes:
            out.extend(self.stmt(n))
        return out

    def stmt(self, n: ast.stmt) -> List[H.Stmt]:
        loc = self.loc(n)
        if isinstance(n, ast.Assign):
            return [H.Assign([self.target(t) for t in n.targets], self.expr(n.value), loc)]
        if isinstance(n, ast.AnnAssign):
            return [] if n.value is None else [H.Assign([self.target(n.target)], self.expr(n.value), loc)]
        if isinstance(n, ast.AugAssign):
            op = _BINOPS[type(n.op)]
            if isinstance(n.target, ast.Subscript) and _is_simple(n.target.value) and _is_simple(n.target.slice):
                # `x[i] += v` is `x[i] = x[i] + v` (operands are names/constants: evaluating twice is safe)
                cur = self.expr(n.target)
                return [H.Assign([self.target(n.target)], H.BinOp(op, cur, self.expr(n.value), loc), loc)]
            if not isinstance(n.target, ast.Name):
                raise self.unsupported(n.target, "augmented assignment to an attribute or item")
            cur = H.Name(n.target.id, self.loc(n.target))
            return [H.Assign([self.target(n.target)], H.BinOp(op, cur, self.expr(n.value), loc), loc)]
        if isinstance(n, ast.Expr):
            if isinstance(n.value, (ast.Yield, ast.YieldFrom)):
                return [self.yield_(n.value)]
            return [H.ExprStmt(self.expr(n.value), loc)]
        if isinstance(n, ast.If):
            return [H.If(self.expr(n.test), self.stmts(n.body), self.stmts(n.orelse), loc)]
        if isinstance(n, ast.For):
            if n.orelse:
                raise TileSyntaxError("'for-else' is not supported", self.loc(n.orelse[0]))
            static = _is_call_to(n.iter, "static_iter")
            if static:
                self.static_loop_depth += 1
            else:
                self.loop_depth += 1
            saved_static = self.static_loop_depth
            if not static:
                self.static_loop_depth = 0
            body = self.stmts(n.body)
            self.static_loop_depth = saved_static
            if static:
                self.static_loop_depth -= 1
            else:
                self.loop_depth -= 1
            it = self.static_iter_arg(n.iter) if static else self.expr(n.iter)
            return [H.For(self.target(n.target), it, body, loc, static=static)]
        if isinstance(n, ast.While):
            if n.orelse:
                raise TileSyntaxError("'while-else' is not supported", self.loc(n.orelse[0]))
            self.loop_depth += 1
            saved_static, self.static_loop_depth = self.static_loop_depth, 0
            body = self.stmts(n.body)
            self.static_loop_depth = saved_static
            self.loop_depth -= 1
            return [H.While(self.expr(n.test), body, loc)]
        if isinstance(n, (ast.Break, ast.Continue)):
            word = "Break" if isinstance(n, ast.Break) else "Continue"
            if self.static_loop_depth:
                raise TileSyntaxError(f"{word} in a for loop with static_iter() is not supported", loc)
            if not self.loop_depth:
                raise TileSyntaxError(f"'{word.lower()}' outside loop", loc)
            return [H.Break(loc) if word == "Break" else H.Continue(loc)]
        if isinstance(n, ast.Return):
            if self.static_loop_depth:
                raise TileSyntaxError("Returning from a for loop is not supported (the loop uses static_iter())", loc)
            if self.in_generator:
                raise TileSyntaxError("Returning from a generator-based context manager is not supported", loc)
            return [H.Return(None if n.value is None else self.expr(n.value), loc)]
        if isinstance(n, ast.Pass):
            return []
        if isinstance(n, ast.Raise):
            if n.cause is not None:
                raise TileSyntaxError("'raise from' syntax is not supported", self.loc(n.cause))
            if n.exc is None or not _is_call_to(n.exc, "static_exception"):
                raise TileSyntaxError("Raised exception must be wrapped in static_exception()", loc)
            if len(n.exc.args) != 1 or n.exc.keywords:
                raise TileSyntaxError("static_exception() expects exactly one argument", loc)
            return [H.Raise(self.expr(n.exc.args[0]), loc)]
        if isinstance(n, ast.With):
            items = [(self.expr(i.context_expr), None if i.optional_vars is None else self.target(i.optional_vars))
                     for i in n.items]
            return [H.With(items, self.stmts(n.body), loc)]
        if isinstance(n, ast.FunctionDef):
            if n.decorator_list:
                raise TileSyntaxError("Decorators on nested functions are not supported",
                                      self.loc(n.decorator_list[0]))
            return [self.function(n, is_entry=False)]
        what = {ast.Assert: "assert statement", ast.Try: "try statement", ast.Import: "import",
                ast.ImportFrom: "import", ast.Global: "global", ast.Nonlocal: "nonlocal",
                ast.Delete: "del", ast.ClassDef: "class definition",
                ast.AsyncFunctionDef: "async function", ast.AsyncFor: "async for",
                ast.AsyncWith: "async with"}.get(type(n))
        raise self.unsupported(n, what)

    def yield_(self, node) -> H.Yield:
        if not self.in_generator or isinstance(node, ast.YieldFrom):
            raise self.unsupported(node)
        return H.Yield(None if node.value is None else self.expr(node.value), self.loc(node))

    def target(self, t: ast.expr) -> H.Expr:
        loc = self.loc(t)
        if isinstance(t, ast.Name):
            return H.Name(t.id, loc)
        if isinstance(t, (ast.Tuple, ast.List)):
            return H.TupleExpr([self.target(e) for e in t.elts], loc)
        if isinstance(t, ast.Subscript):
            return H.Subscript(self.expr(t.value), self.expr(t.slice), loc)
        # Starred targets (`a, *rest = t`) and attribute assignment are not cuTile syntax.
        raise self.unsupported(t)

    def static_iter_arg(self, call: ast.Call) -> H.Expr:
        if len(call.args) != 1 or call.keywords:
            raise TileSyntaxError("static_iter() expects exactly one argument", self.loc(call))
        node = H.Call(self.expr(call.func), [self.raw_python_arg(call.args[0])], [], self.loc(call))
        node.raw = call     # the iterable is evaluated as compile-time Python
        return node

    def raw_python_arg(self, a: ast.expr) -> H.Expr:
        """An argument that is evaluated as plain Python at compile time (static_eval & co.).

        It may use Python syntax that tile code does not have (lists, comprehensions);
        the interpreter evaluates the raw AST, so a placeholder stands in for it here.
        """
        try:
            return self.expr(a)
        except TileSyntaxError:
            return H.Const(None, self.loc(a))

    # ---- expressions --------------------------------------------------------

    def expr(self, n: ast.expr) -> H.Expr:
        loc = self.loc(n)
        if isinstance(n, ast.Name):
            return H.Name(n.id, loc)
        if isinstance(n, ast.Constant):
            return H.Const(n.value, loc)
        if isinstance(n, ast.Attribute):
            return H.Attribute(self.expr(n.value), n.attr, loc)
        if isinstance(n, ast.Subscript):
            return H.Subscript(self.expr(n.value), self.expr(n.slice), loc)
        if isinstance(n, ast.Slice):
            f = lambda e: None if e is None else self.expr(e)
            return H.SliceExpr(f(n.lower), f(n.upper), f(n.step), loc)
        if isinstance(n, ast.Starred):
            return H.Starred(self.expr(n.value), loc)
        if isinstance(n, ast.Call):
            if _is_call_to(n, "static_iter"):
                raise TileSyntaxError("static_iter() is only allowed as iterable in a `for` loop,"
                                      " i.e. `for i in static_iter(...)`", loc)
            if _is_call_to(n, "static_exception"):
                raise TileSyntaxError("static_exception() is only allowed after `raise`,"
                                      " e.g. `raise static_exception(ValueError('Error'))`", loc)
            if (isinstance(n.func, ast.Name) and n.func.id == "tuple" and len(n.args) == 1
                    and not n.keywords and isinstance(n.args[0], ast.GeneratorExp)):
                return H.Call(self.expr(n.func), [self.genexp(n.args[0])], [], loc)
            arg = self.raw_python_arg if (_is_call_to(n, "static_eval")
                                          or _is_call_to(n, "static_assert")) else self.expr
            call = H.Call(self.expr(n.func), [arg(a) for a in n.args],
                          [H.Keyword(k.arg, self.expr(k.value)) for k in n.keywords], loc)
            call.raw = n     # static_eval & co. compile their argument as Python
            return call
        if isinstance(n, ast.BinOp):
            return H.BinOp(_BINOPS[type(n.op)], self.expr(n.left), self.expr(n.right), loc)
        if isinstance(n, ast.UnaryOp):
            return H.UnaryOp(_UNARY[type(n.op)], self.expr(n.operand), loc)
        if isinstance(n, ast.Compare):
            # a < b < c  →  (a < b) and (b < c)
            parts, left = [], self.expr(n.left)
            for op, right_node in zip(n.ops, n.comparators):
                right = self.expr(right_node)
                parts.append(H.Compare(_CMPOPS[type(op)], left, right, loc))
                left = right
            return parts[0] if len(parts) == 1 else H.BoolOp("and", parts, loc)
        if isinstance(n, ast.BoolOp):
            return H.BoolOp("and" if isinstance(n.op, ast.And) else "or",
                            [self.expr(v) for v in n.values], loc)
        if isinstance(n, ast.IfExp):
            return H.IfExp(self.expr(n.test), self.expr(n.body), self.expr(n.orelse), loc)
        if isinstance(n, ast.Tuple):
            return H.TupleExpr([self.expr(e) for e in n.elts], loc)
        if isinstance(n, ast.JoinedStr):
            parts = []
            for v in n.values:
                if isinstance(v, ast.Constant):
                    parts.append(v.value)
                else:
                    parts.append(H.FormattedValue(self.expr(v.value), v.conversion,
                                                  None if v.format_spec is None else self.expr(v.format_spec)))
            return H.JoinedStr(parts, loc)
        if isinstance(n, ast.Lambda):
            return H.Lambda(self.function(n, is_entry=False), loc)
        if isinstance(n, ast.GeneratorExp):
            raise TileSyntaxError("Generator expressions are only supported as tuple(... for x in"
                                  " ct.static_iter(...))", loc)
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return self.yield_(n)
        what = {ast.List: "list", ast.Dict: "dict", ast.Set: "set", ast.ListComp: "list comprehension",
                ast.DictComp: "dict comprehension", ast.SetComp: "set comprehension",
                ast.NamedExpr: "assignment expression", ast.Await: "await"}.get(type(n))
        raise self.unsupported(n, what)

    def genexp(self, n: ast.GeneratorExp) -> H.GeneratorExp:
        gens = []
        for g in n.generators:
            if g.is_async:
                raise TileSyntaxError("async in tuple comprehension is not supported", self.loc(g.iter))
            if not _is_call_to(g.iter, "static_iter"):
                raise TileSyntaxError("All iterables in a tuple comprehension must be wrapped in"
                                      " ct.static_iter(), e.g. tuple(... for x in ct.static_iter(...))",
                                      self.loc(g.iter))
            gens.append(H.Comprehension(self.target(g.target), self.static_iter_arg(g.iter),
                                        [self.expr(i) for i in g.ifs]))
        return H.GeneratorExp(self.expr(n.elt), gens, self.loc(n))


def _is_simple(node: ast.AST) -> bool:
    """A name, constant or tuple of them: evaluating it twice has no effect."""
    if isinstance(node, ast.Tuple):
        return all(_is_simple(e) for e in node.elts)
    return isinstance(node, (ast.Name, ast.Constant))


def _is_call_to(node: ast.AST, name: str) -> bool:
    """Syntactic check for `name(...)` or `<module>.name(...)`; resolved later by the interpreter."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    return (isinstance(f, ast.Name) and f.id == name) or (isinstance(f, ast.Attribute) and f.attr == name)


def _walk_own(fn: ast.AST):
    """ast.walk that does not descend into nested functions or lambdas."""
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        n = stack.pop()
        yield n
        if not isinstance(n, (ast.FunctionDef, ast.Lambda, ast.AsyncFunctionDef)):
            stack.extend(ast.iter_child_nodes(n))


def _assigned_names(stmts) -> Set[str]:
    names: Set[str] = set()

    def targets(t):
        if isinstance(t, H.Name):
            names.add(t.id)
        elif isinstance(t, H.TupleExpr):
            for e in t.elts:
                targets(e)
        elif isinstance(t, H.Starred):
            targets(t.value)

    for s in stmts:
        if isinstance(s, H.Assign):
            for t in s.targets:
                targets(t)
        elif isinstance(s, H.For):
            targets(s.target)
            names |= _assigned_names(s.body)
        elif isinstance(s, H.While):
            names |= _assigned_names(s.body)
        elif isinstance(s, H.If):
            names |= _assigned_names(s.body) | _assigned_names(s.orelse)
        elif isinstance(s, H.WithEnter):
            for _, t in s.items:
                if t is not None:
                    targets(t)
        elif isinstance(s, H.With):
            for _, t in s.items:
                if t is not None:
                    targets(t)
            names |= _assigned_names(s.body)
        elif isinstance(s, H.FunctionDef):
            names.add(s.name)
    return names


assigned_names = _assigned_names


def function_to_hir(node, filename: str, *, is_entry: bool) -> H.FunctionDef:
    fn = _Converter(filename).function(node, is_entry=is_entry)
    return seal_function(fn, is_entry=is_entry)
