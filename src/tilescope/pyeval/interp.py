"""The evaluator: Python expressions (and, through stmts.py, function bodies) interpreted over
known values, with no imports, no dunder attributes, only allow-listed calls, and a budget."""
from __future__ import annotations

import ast
import builtins
import re
import sys
from typing import Any, Dict, List, Optional

from ..frontend.unknown import UnknownValue
from . import objects
from .calls import call, construct
from .functions import Frame, PyFunction, Scope
from .kinds import describe
from .limits import MAX_NESTING, Budget, EvalControl, OverBudget, Refused
from .objects import AST_BINARY, AST_COMPARE, AST_UNARY
from .stmts import assign, exec_block

_NAME_CHARS = re.compile(r"[A-Za-z0-9_]*")      # string constants CPython interns


class Host:
    """How an embedding (a kernel being compiled) takes part: values it hands out, and the
    tilescope objects it calls itself (tile proxies' methods, `cuda.tile` ops)."""

    def adapt(self, value: Any) -> Any:
        """A value read from an object or a name, as compile-time code sees it."""
        return value

    def call(self, fn: Any, args: List[Any], kwargs: Dict[str, Any]) -> Any:
        """Call a tilescope object the evaluator does not know; raise Refused if not allowed."""
        raise Refused(f"calling {describe(fn)} is not allowed in compile-time Python")

    def unknown(self, name: str, value: Any) -> Any:
        """A name whose value is unknown without running the module (the editor's case)."""
        raise Refused(f"the value of '{name}' is unknown without running the module")


def _free_in(frame: Frame, owner: Scope) -> bool:
    """Whether a name of `owner` is a free variable where `frame` reads it: some function frame lies
    between (before Python 3.12 comprehensions were functions too)."""
    scope: Optional[Scope] = frame
    while scope is not None and scope is not owner:
        if not (isinstance(scope, Frame) and scope.name == "<comprehension>") or sys.version_info < (3, 12):
            return True
        scope = scope.parent
    return False


class Evaluator:
    """One evaluation: its budget, its call depth, and the objects it created (only those may
    be changed by the code it runs)."""

    def __init__(self, *, host: Optional[Host] = None, budget: Optional[Budget] = None,
                 filename: str = "<compile-time>"):
        self.host = host or Host()
        self.budget = budget or Budget()
        self.filename = filename
        self.depth = 0
        self.nesting = 0
        self._owned: Dict[int, Any] = {}
        self._literals: Dict[str, str] = {}

    # ---- ownership: what evaluated code may mutate ---------------------------------------

    def own(self, obj: Any) -> Any:
        self._owned[id(obj)] = obj
        return obj

    def owns(self, obj: Any) -> bool:
        return self._owned.get(id(obj)) is obj

    def new_container(self, obj: Any) -> Any:
        self.budget.allocate(len(obj))
        return self.own(obj)

    # ---- what the evaluator's parts call back into (the interpreter is mutually recursive:
    # a call runs a function body, whose statements evaluate calls...) ---------------------

    def call(self, fn: Any, args: List[Any], kwargs: Dict[str, Any]) -> Any:
        return call(self, fn, args, kwargs)

    def construct(self, cls: type, args: List[Any], kwargs: Dict[str, Any]) -> Any:
        return construct(self, cls, args, kwargs)

    def exec_block(self, body: List[ast.stmt], frame: Frame) -> None:
        exec_block(self, body, frame)

    # ---- entry points --------------------------------------------------------------------

    def evaluate(self, node: ast.expr, scope: Scope, globals_: Dict[str, Any], filename: str) -> Any:
        """The value of the expression `node` with names resolved in `scope`, then `globals_`,
        then the built-ins."""
        frame = Frame(frozenset(), scope, globals_, filename, "<expression>")
        return self.eval(node, frame)

    # ---- expressions ---------------------------------------------------------------------

    def eval(self, node: ast.AST, frame: Frame) -> Any:
        self.budget.charge()
        method = _EXPRESSIONS.get(type(node))
        if method is None:
            raise Refused(f"'{type(node).__name__}' expressions are not evaluated at compile time", node,
                          frame.filename)
        self.nesting += 1
        try:
            if self.nesting > MAX_NESTING:
                raise OverBudget(f"expressions are nested more than {MAX_NESTING} deep")
            return method(self, node, frame)
        except EvalControl as ex:
            raise ex.locate(node, frame.filename)
        except RecursionError:
            raise OverBudget("it is nested too deeply", node, frame.filename) from None
        finally:
            self.nesting -= 1

    def _constant(self, node, frame):
        value = node.value
        if type(value) is bytes:
            raise Refused("bytes literals are not evaluated at compile time")
        if type(value) is str:
            # Equal string literals are one object, as CPython makes them (`'tile' is 'tile'` is
            # True there): name-like ones interned, the others shared within an evaluation.
            if _NAME_CHARS.fullmatch(value):
                return sys.intern(value)
            return self._literals.setdefault(value, value)
        return value

    def _name(self, node, frame):
        if isinstance(node.ctx, ast.Load):
            return self.lookup(node.id, frame)
        raise Refused("assignment inside an expression is not evaluated at compile time")

    def lookup(self, name: str, frame: Frame) -> Any:
        scope: Optional[Scope] = frame
        while scope is not None:
            try:
                found, value = scope.find(name)
            except UnboundLocalError:
                if scope is frame or not _free_in(frame, scope):
                    raise
                raise NameError(f"cannot access free variable '{name}' where it is not associated with a "
                                f"value in enclosing scope") from None
            if found:
                return self.checked(name, value)
            scope = scope.parent
        globals_ = frame.globals
        if type(globals_) is dict and name in globals_:
            return self.checked(name, dict.__getitem__(globals_, name))
        if name in _BUILTIN_NAMES or hasattr(builtins, name):
            # Every built-in resolves; calls.py decides which may be called (open, __import__,
            # eval... may not, and say so).
            return getattr(builtins, name)
        raise NameError(f"name '{name}' is not defined")

    def checked(self, name: str, value: Any) -> Any:
        if type(value) is UnknownValue:
            return self.host.unknown(name, value)
        return value

    def _attribute(self, node, frame):
        return objects.get_attribute(self, self.eval(node.value, frame), node.attr)

    def _subscript(self, node, frame):
        return objects.get_item(self, self.eval(node.value, frame), self.eval(node.slice, frame))

    def _slice(self, node, frame):
        part = lambda n: None if n is None else self.eval(n, frame)  # noqa: E731
        return slice(part(node.lower), part(node.upper), part(node.step))

    def _sequence_items(self, elts, frame) -> List[Any]:
        items: List[Any] = []
        for e in elts:
            if isinstance(e, ast.Starred):
                items.extend(objects.iterate(self, self.eval(e.value, frame)))
            else:
                items.append(self.eval(e, frame))
            self.budget.allocate(0)
        self.budget.allocate(len(items))
        return items

    def _tuple(self, node, frame):
        return tuple(self._sequence_items(node.elts, frame))

    def _list(self, node, frame):
        return self.own(self._sequence_items(node.elts, frame))

    def _set(self, node, frame):
        items = self._sequence_items(node.elts, frame)
        return self.own(objects.make_set(self, items))

    def _dict(self, node, frame):
        out: Dict[Any, Any] = {}
        for k, v in zip(node.keys, node.values):
            if k is None:
                extra = self.eval(v, frame)
                if type(extra) is not dict:
                    raise TypeError(f"'{type(extra).__name__}' object is not a mapping")
                for kk, vv in extra.items():
                    objects.dict_set(self, out, kk, vv)
            else:
                objects.dict_set(self, out, self.eval(k, frame), self.eval(v, frame))
        self.budget.allocate(len(out))
        return self.own(out)

    def _binop(self, node, frame):
        return objects.binary(self, AST_BINARY[type(node.op)], self.eval(node.left, frame),
                              self.eval(node.right, frame))

    def _unaryop(self, node, frame):
        value = self.eval(node.operand, frame)
        if isinstance(node.op, ast.Not):
            return not objects.truth(self, value)
        return objects.unary(self, AST_UNARY[type(node.op)], value)

    def _boolop(self, node, frame):
        value = None
        for v in node.values:
            value = self.eval(v, frame)
            truth = objects.truth(self, value)
            if isinstance(node.op, ast.And) and not truth or isinstance(node.op, ast.Or) and truth:
                return value
        return value

    def _compare(self, node, frame):
        left = self.eval(node.left, frame)
        result: Any = True
        for op, right_node in zip(node.ops, node.comparators):
            right = self.eval(right_node, frame)
            if isinstance(op, (ast.Is, ast.IsNot)):
                result = (left is right) == isinstance(op, ast.Is)
            elif isinstance(op, (ast.In, ast.NotIn)):
                result = objects.contains(self, right, left) == isinstance(op, ast.In)
            else:
                result = objects.compare(self, AST_COMPARE[type(op)], left, right)
            if len(node.ops) > 1 and not objects.truth(self, result):
                return result
            left = right
        return result

    def _ifexp(self, node, frame):
        test = objects.truth(self, self.eval(node.test, frame))
        return self.eval(node.body if test else node.orelse, frame)

    def _namedexpr(self, node, frame):
        value = self.eval(node.value, frame)
        target = frame
        while target.name == "<comprehension>" and isinstance(target.parent, Frame):
            target = target.parent      # a walrus in a comprehension binds in the enclosing function
        if target.name == "<expression>":
            raise Refused("assignment expressions are not evaluated at compile time")
        target.vars[node.target.id] = value
        return value

    def _call(self, node, frame):
        fn = self.eval(node.func, frame)
        args: List[Any] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                args.extend(objects.iterate(self, self.eval(a.value, frame)))
            else:
                args.append(self.eval(a, frame))
        kwargs: Dict[str, Any] = {}
        for k in node.keywords:
            value = self.eval(k.value, frame)
            if k.arg is None:
                if type(value) is not dict:
                    raise TypeError(f"argument after ** must be a mapping, not {type(value).__name__}")
                for kk, vv in value.items():
                    if type(kk) is not str:
                        raise TypeError("keywords must be strings")
                    if kk in kwargs:
                        raise TypeError(f"got multiple values for keyword argument '{kk}'")
                    kwargs[kk] = vv
            else:
                kwargs[k.arg] = value
        self.budget.allocate(len(args) + len(kwargs))
        return call(self, fn, args, kwargs)

    def _lambda(self, node, frame):
        return PyFunction(node, frame, frame.globals, frame.filename, self.defaults_of(node.args, frame))

    def defaults_of(self, args: ast.arguments, frame: Frame) -> Dict[str, Any]:
        defaults: Dict[str, Any] = {}
        positional = args.posonlyargs + args.args
        for a, d in zip(positional[len(positional) - len(args.defaults):], args.defaults):
            defaults[a.arg] = self.eval(d, frame)
        for a, d in zip(args.kwonlyargs, args.kw_defaults):
            if d is not None:
                defaults[a.arg] = self.eval(d, frame)
        return defaults

    def _joinedstr(self, node, frame):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(v.value)
                continue
            value = self.eval(v.value, frame)
            if v.conversion == ord("r"):
                value = objects.to_repr(self, value)
            elif v.conversion == ord("s"):
                value = objects.to_str(self, value)
            elif v.conversion == ord("a"):
                value = ascii(objects.to_repr(self, value))
            spec = "" if v.format_spec is None else self.eval(v.format_spec, frame)
            parts.append(objects.format_value(self, value, spec))
        text = "".join(parts)
        self.budget.allocate(len(text) // 8)
        return text

    def _formattedvalue(self, node, frame):
        value = self.eval(node.value, frame)
        spec = "" if node.format_spec is None else self.eval(node.format_spec, frame)
        return objects.format_value(self, value, spec)

    # ---- comprehensions --------------------------------------------------------------------

    def _comprehension_items(self, node, frame):
        """Yield a Frame for each combination of the generators (lazily, as Python does)."""
        def walk(i: int, scope: Frame):
            if i == len(node.generators):
                yield scope
                return
            gen = node.generators[i]
            if gen.is_async:
                raise Refused("async comprehensions are not evaluated at compile time")
            # The first iterable is evaluated in the enclosing scope, the others inside.
            iterable = self.eval(gen.iter, frame if i == 0 else scope)
            for item in objects.iterate(self, iterable):
                assign(self, gen.target, item, scope)
                if all(objects.truth(self, self.eval(c, scope)) for c in gen.ifs):
                    yield from walk(i + 1, scope)
        targets = frozenset(n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name))
        inner = Frame(targets, frame, frame.globals, frame.filename, "<comprehension>")
        return walk(0, inner)

    def _listcomp(self, node, frame):
        out = self.own([])
        for scope in self._comprehension_items(node, frame):
            out.append(self.eval(node.elt, scope))
            self.budget.allocate(1)
        return out

    def _setcomp(self, node, frame):
        items = [self.eval(node.elt, scope) for scope in self._comprehension_items(node, frame)]
        return self.own(objects.make_set(self, items))

    def _dictcomp(self, node, frame):
        out: Dict[Any, Any] = {}
        for scope in self._comprehension_items(node, frame):
            objects.dict_set(self, out, self.eval(node.key, scope), self.eval(node.value, scope))
            self.budget.allocate(1)
        return self.own(out)

    def _generatorexp(self, node, frame):
        scopes = self._comprehension_items(node, frame)
        return objects.EvalIterator(self.eval(node.elt, scope) for scope in scopes)

    def _starred(self, node, frame):
        raise Refused("a starred expression is not allowed here")

    def _await(self, node, frame):
        raise Refused("'await' is not evaluated at compile time")

    _yield = _yieldfrom = _await


_EXPRESSIONS = {
    ast.Constant: Evaluator._constant, ast.Name: Evaluator._name, ast.Attribute: Evaluator._attribute,
    ast.Subscript: Evaluator._subscript, ast.Slice: Evaluator._slice, ast.Tuple: Evaluator._tuple,
    ast.List: Evaluator._list, ast.Set: Evaluator._set, ast.Dict: Evaluator._dict, ast.BinOp: Evaluator._binop,
    ast.UnaryOp: Evaluator._unaryop, ast.BoolOp: Evaluator._boolop, ast.Compare: Evaluator._compare,
    ast.IfExp: Evaluator._ifexp, ast.NamedExpr: Evaluator._namedexpr, ast.Call: Evaluator._call,
    ast.Lambda: Evaluator._lambda, ast.JoinedStr: Evaluator._joinedstr,
    ast.FormattedValue: Evaluator._formattedvalue, ast.ListComp: Evaluator._listcomp,
    ast.SetComp: Evaluator._setcomp, ast.DictComp: Evaluator._dictcomp,
    ast.GeneratorExp: Evaluator._generatorexp, ast.Starred: Evaluator._starred, ast.Await: Evaluator._await,
    ast.Yield: Evaluator._yield, ast.YieldFrom: Evaluator._yieldfrom,
}

# Built-in names compile-time code may mention (calling them is checked in calls.py; the rest
# of `builtins` -- open, __import__, eval, exec, print... -- is simply not there).
_BUILTIN_NAMES = frozenset(
    "abs all any ascii bin bool callable chr complex dict divmod enumerate filter float format frozenset "
    "getattr hasattr hash hex int isinstance issubclass iter len list map max min next oct ord pow range "
    "repr reversed round set slice sorted str sum tuple type zip True False None Ellipsis NotImplemented "
    "ArithmeticError AssertionError AttributeError BaseException Exception IndexError KeyError LookupError "
    "NameError NotImplementedError OverflowError RuntimeError StopIteration TypeError ValueError "
    "ZeroDivisionError".split())

