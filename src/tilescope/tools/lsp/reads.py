"""Which top-level statements compiling a kernel can depend on.

The compile cache (compile_cache.py) keys a compilation by the text of what it reads.
Keying by every module-level statement made a keystroke anywhere at module level (a
name typed between two kernels) compile every kernel again. A kernel reads its own
function, the helpers and globals it names, and — through them — whatever the
statements binding those globals read. The static reader (frontend.static_module)
evaluates imports, assignments, `if`/`try` at module level and the decorators, defaults
and annotations of functions and classes; an evaluated call may change an object that
another statement holds (a registry list, a dict of settings), so a statement with such a
call is read by every kernel. What is left out can change no value a kernel sees.

When in doubt the answer is "every statement": with `executeModules`, or when the
module's own evaluation came near its step, size or time budget (one budget is shared
by all module-level statements, so any of them could change what another evaluates to).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Dict, FrozenSet, List, Optional, Sequence

from ... import lang
from ...lang import compilation
from ...pyeval.limits import MAX_TOTAL_ITEMS
from .memo import RecentResults

_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True)
class StatementReads:
    binds: FrozenSet[str]       # names it binds, or holds an object it may change (`d[k] = v` binds d)
    reads: FrozenSet[str]       # every name it mentions, also inside strings (string annotations)
    call_roots: FrozenSet[str]  # first names of what its evaluated parts call ("" for `f()()`, lambdas ...)
    mutates: bool               # it changes an object in place (augmented or attribute/item assignment)


def statement_reads(stmt: ast.stmt) -> StatementReads:
    reads = set()
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name):
            reads.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            reads.update(_WORD.findall(node.value))
    binds, roots = set(), set()
    mutates = False
    for expr in _evaluated(stmt):
        for node in ast.walk(expr):
            if isinstance(node, ast.Call):
                roots.add(_root(node.func))
            elif isinstance(node, ast.AugAssign):
                mutates = True      # `x += [1]` changes the list x names, which another name may hold
            elif isinstance(node, (ast.Attribute, ast.Subscript)) and not isinstance(node.ctx, ast.Load):
                mutates = True
                binds.add(_root(node))
    for node in _binding_nodes(stmt):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            binds.add(node.id)
        elif isinstance(node, (_FUNCTIONS, ast.ClassDef)):
            binds.add(node.name)
            roots.update(_root(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list)
        elif isinstance(node, ast.alias):
            binds.add(node.asname or node.name.split(".")[0])
    binds.discard("")
    return StatementReads(frozenset(binds), frozenset(reads), frozenset(roots), mutates)


def _binding_nodes(stmt: ast.stmt):
    """The nodes of a top-level statement outside function and class bodies (their names are local)."""
    todo = [stmt]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, (_FUNCTIONS, ast.ClassDef)):
            continue
        todo.extend(ast.iter_child_nodes(node))


def _root(node: ast.AST) -> str:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def _evaluated(stmt: ast.stmt) -> List[ast.AST]:
    """The parts of a top-level statement the static reader evaluates (see _run_statement there)."""
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        return [stmt]
    if isinstance(stmt, ast.ClassDef):       # its body runs, its methods' bodies do not
        parts = list(stmt.decorator_list) + list(stmt.bases) + list(stmt.keywords)
        return parts + [p for s in stmt.body for p in (_evaluated(s) if isinstance(s, _FUNCTIONS) else [s])]
    if isinstance(stmt, _FUNCTIONS):
        a = stmt.args
        parts = list(stmt.decorator_list) + list(a.defaults) + [d for d in a.kw_defaults if d is not None]
        parts += [x.annotation for x in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]
                  if x is not None and x.annotation is not None]
        return parts + ([stmt.returns] if stmt.returns is not None else [])
    if isinstance(stmt, ast.If):
        return [stmt.test] + [p for s in stmt.body + stmt.orelse for p in _evaluated(s)]
    if isinstance(stmt, ast.Try):
        inner = stmt.body + stmt.orelse + stmt.finalbody + [s for h in stmt.handlers for s in h.body]
        return [p for s in inner for p in _evaluated(s)]
    return []     # expression statements, loops, `with`, `del` ... are not evaluated


# A statement's reads depend only on its text: kept across keystrokes.
_KNOWN: "RecentResults[StatementReads]" = RecentResults(256)


def _cached_reads(text: str, stmt: ast.stmt) -> StatementReads:
    return _KNOWN.get(text, lambda: statement_reads(stmt))


class ModuleReads:
    """The top-level statements of one analysed module, and which of them each kernel reads."""

    def __init__(self, statements: Sequence[ast.stmt], texts: Sequence[str], inert_roots: FrozenSet[str],
                 narrow: bool):
        self.statements = list(statements)
        self.texts = list(texts)
        self.narrow = narrow
        self.info = [_cached_reads(t, s) for s, t in zip(statements, texts)]
        self.binders: Dict[str, List[int]] = {}
        for i, info in enumerate(self.info):
            for name in info.binds:
                self.binders.setdefault(name, []).append(i)
        # Calls through names bound by imports only, to tilescope itself, change nothing.
        inert_roots = {n for n in inert_roots if self.binders.get(n) and
                       all(isinstance(self.statements[i], (ast.Import, ast.ImportFrom)) for i in self.binders[n])}
        # Read by every kernel: statements that may change an object another one holds.
        self.always = [i for i, info in enumerate(self.info)
                       if info.mutates or not info.call_roots <= inert_roots]

    def read_by(self, functions: Sequence[ast.AST]) -> List[int]:
        """Indexes (in module order) of the statements compiling these functions can depend on."""
        if not self.narrow:
            wanted = {id(f) for f in functions}
            return [i for i, st in enumerate(self.statements)
                    if not isinstance(st, _FUNCTIONS) or id(st) in wanted]
        by_node = {id(st): i for i, st in enumerate(self.statements)}
        todo = [by_node[id(f)] for f in functions if id(f) in by_node] + self.always
        chosen = set()
        while todo:
            i = todo.pop()
            if i in chosen:
                continue
            chosen.add(i)
            for name in self.info[i].reads:
                todo.extend(self.binders.get(name, ()))
        return sorted(chosen)


def module_reads(an) -> ModuleReads:
    """The analysis's ModuleReads, built on first use."""
    cached = getattr(an, "_module_reads", None)
    if cached is None:
        sm, lines = an.static, an.lines
        statements = list(sm.tree.body)
        texts = [statement_text(lines, st) for st in statements]
        cached = an._module_reads = ModuleReads(statements, texts, _inert_roots(sm),
                                                narrow=not an.trusted and _budget_far_from_spent(an))
    return cached


def statement_text(lines: Sequence[str], st: ast.stmt) -> str:
    first = min([st.lineno] + [d.lineno for d in getattr(st, "decorator_list", ())])
    return "\n".join(lines[first - 1:(st.end_lineno or st.lineno)])


def _inert_roots(sm) -> FrozenSet[str]:
    """Names bound to tilescope.lang (`ct`) or to one of its functions (`from cuda.tile import
    kernel`): calling them changes no user object."""
    inert = set()
    for name, value in sm.globals.items():
        if value is lang or value is compilation or \
                getattr(lang, getattr(value, "__name__", "") or "", None) is value:
            inert.add(name)
    return frozenset(inert)


def _budget_far_from_spent(an) -> bool:
    budget = getattr(an.static.evaluator, "budget", None)
    if budget is None:
        return False
    return (budget.steps < budget.max_steps // 4 and budget.items < MAX_TOTAL_ITEMS // 4
            and an.module_read_s < budget.max_seconds / 4)


__all__ = ["ModuleReads", "StatementReads", "module_reads", "statement_reads", "statement_text"]
