"""Concatenate standalone modules into one module's text: the transpiled prelude is built so.

Each module is taken whole. Its imports are gathered at the top (each once); imports of sibling
modules of the same package (`from .functions import UNARY`) are dropped, since the concatenation
defines those names itself, so modules must be listed after the ones they import from. A
module's docstring becomes a comment heading its section.
"""
from __future__ import annotations

import ast
from typing import List, Sequence, Tuple


def _split(source: str, name: str) -> Tuple[List[str], str, str]:
    """(import lines, docstring, body text without the imports and the docstring)."""
    tree = ast.parse(source, name)
    lines = source.splitlines()
    drop, imports, doc = set(), [], ""
    for i, node in enumerate(tree.body):
        span = range(node.lineno - 1, node.end_lineno)
        if i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            doc = node.value.value
            drop.update(span)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            drop.update(span)
            if isinstance(node, ast.ImportFrom) and (node.level or node.module == "__future__"):
                continue             # a sibling module (in the concatenation) or a compiler directive
            imports.append(ast.unparse(node))
        elif not isinstance(node, (ast.Import, ast.ImportFrom)):
            if any(isinstance(n, ast.ImportFrom) and n.level for n in ast.walk(node)):
                raise ValueError(f"{name}: a relative import inside a function cannot be concatenated")
    body = "\n".join(line for k, line in enumerate(lines) if k not in drop)
    return imports, doc, body.strip("\n")


def concatenate(sources: Sequence[Tuple[str, str]], header: str = "") -> str:
    """One module from (name, source) pairs, in order; `header` (comment lines) goes first."""
    imports: List[str] = []
    sections = []
    for name, source in sources:
        mod_imports, doc, body = _split(source, name)
        imports += [i for i in mod_imports if i not in imports]
        title = f"# ==== {name} " + "=" * max(4, 92 - len(name))
        comment = "\n".join(("# " + ln).rstrip() for ln in doc.strip().splitlines())
        sections.append("\n".join(part for part in (title, comment, body) if part))
    plain = sorted(i for i in imports if i.startswith("import "))
    froms = sorted(i for i in imports if i.startswith("from "))
    head = header.strip("\n")
    return "\n\n\n".join(part for part in (head + ("\n" if head else "") + "\n".join(plain + froms),
                                           *sections) if part) + "\n"
