"""What the analysis needs to know about each function's syntax, gathered in one walk.

Reachability, the generic checks, inlay hints and the summary's function table all look
at the same nodes; walking each function once per analysis (instead of once per
question) is most of what keeps a keystroke cheap.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set

from .memo import RecentResults


@dataclass
class FunctionFacts:
    node: ast.AST
    names: Set[str] = field(default_factory=set)                  # every name it reads or writes
    calls: List[ast.Call] = field(default_factory=list)
    stores: List[ast.Name] = field(default_factory=list)          # assigned names, in walk order
    loops: List[ast.stmt] = field(default_factory=list)           # for / while statements
    nested: List[ast.AST] = field(default_factory=list)           # defs inside it
    attributes: List[ast.Attribute] = field(default_factory=list)  # `name.attr`
    carried: Optional[list] = None         # (loop, names it carries), filled by summary.py when needed


def function_facts(node: ast.AST) -> FunctionFacts:
    facts = FunctionFacts(node)
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            facts.names.add(sub.id)
            if isinstance(sub.ctx, ast.Store):
                facts.stores.append(sub)
        elif isinstance(sub, ast.Call):
            facts.calls.append(sub)
        elif isinstance(sub, ast.Attribute):
            if isinstance(sub.value, ast.Name):
                facts.attributes.append(sub)
        elif isinstance(sub, (ast.For, ast.While)):
            facts.loops.append(sub)
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) and sub is not node:
            facts.nested.append(sub)
    return facts


# Facts of a function depend only on its text and place: kept across analyses (the
# nodes they hold come from an earlier parse of the same text, at the same place). Each
# holds a function's syntax tree: enough for the functions of the open documents, no more.
_KNOWN: "RecentResults[FunctionFacts]" = RecentResults(64)


class ModuleFacts:
    """Facts of the module's top-level functions, each computed on first use."""

    def __init__(self, functions: Dict[str, ast.AST], lines: Optional[List[str]] = None):
        self._nodes = functions
        self._lines = lines
        self._facts: Dict[str, FunctionFacts] = {}

    def __getitem__(self, name: str) -> FunctionFacts:
        facts = self._facts.get(name)
        if facts is None:
            facts = self._facts[name] = self._lookup(self._nodes[name])
        return facts

    def _lookup(self, node) -> FunctionFacts:
        if self._lines is None:
            return function_facts(node)
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        key = (first, node.col_offset, "\n".join(self._lines[first - 1:node.end_lineno or node.lineno]))
        return _KNOWN.get(key, lambda: function_facts(node))

    def __contains__(self, name: str) -> bool:
        return name in self._nodes

    def calls_from(self, name: str) -> Set[str]:
        """Module functions `name` mentions by name (calls, or passes along)."""
        return {n for n in self[name].names if n in self._nodes and n != name}

    def reachable(self, root: str) -> Set[str]:
        seen, todo = set(), [root]
        while todo:
            fname = todo.pop()
            if fname in seen or fname not in self._nodes:
                continue
            seen.add(fname)
            todo.extend(self.calls_from(fname))
        return seen
