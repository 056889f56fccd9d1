"""Finding kernels in a source file and the argument metadata written next to them.

A kernel's signatures can be written as comment directives directly above its
decorators (or as the first lines of its body):

    # tilescope: args f32[1024], f32[1024], f32[1024], 256
    @ct.kernel
    def vadd(a, b, c, TILE: ct.Constant[int]): ...

Several `args` lines give several signatures. The spec syntax is `tilescope.meta.parse_args`.
A `# tilescope: values n=4096,n_routed=2` line gives what a launch passes to runtime scalar
parameters, or values the kernel reads from memory, for the cost model (`tilescope cost --values`;
the editor's cost hover); the last such line counts.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import List, Optional

from .frontend.source import split_lines, strip_bom

ARGS_RE = re.compile(r"^\s*#\s*tilescope:\s*args\s*(.*?)\s*$")
VALUES_RE = re.compile(r"^\s*#\s*tilescope:\s*values\s*(.*?)\s*$")


@dataclass
class KernelSite:
    name: str
    line: int                 # line of the `def`
    col: int
    end_line: int
    signatures: List[str] = field(default_factory=list)   # args texts from directives
    directive_lines: List[int] = field(default_factory=list)
    values: Optional[str] = None         # a `values` directive's text, and its line
    values_line: int = 0


def is_kernel_decorator(dec: ast.expr) -> bool:
    """`@ct.kernel`, `@kernel`, `@ct.kernel(...)`, `@cuda.tile.kernel`."""
    if isinstance(dec, ast.Call):
        dec = dec.func
    if isinstance(dec, ast.Attribute):
        return dec.attr == "kernel"
    return isinstance(dec, ast.Name) and dec.id == "kernel"


def find_kernels(tree: ast.Module, source: str) -> List[KernelSite]:
    # Numbered as `tree` numbers them (see split_lines): a form feed or U+2028 in a
    # comment must not move the directives of the kernels below it.
    lines = split_lines(strip_bom(source))
    sites = []
    for node in _defs(tree):
        if any(is_kernel_decorator(d) for d in node.decorator_list):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            site = KernelSite(node.name, node.lineno, node.col_offset + 1, node.end_lineno or node.lineno)
            # Contiguous comment lines directly above the decorators.
            i = first - 2
            above = []
            while i >= 0 and lines[i].lstrip().startswith("#"):
                above.append(i)
                i -= 1
            # And comment lines at the top of the body.
            body_start = node.body[0].lineno - 1 if node.body else node.lineno
            j = node.lineno
            below = []
            while j < body_start and j < len(lines):
                if lines[j].lstrip().startswith("#"):
                    below.append(j)
                j += 1
            for idx in sorted(above) + below:
                m = ARGS_RE.match(lines[idx])
                if m:
                    site.signatures.append(m.group(1))
                    site.directive_lines.append(idx + 1)
                v = VALUES_RE.match(lines[idx])
                if v:
                    site.values, site.values_line = v.group(1), idx + 1
            sites.append(site)
    sites.sort(key=lambda s: s.line)
    return sites


def _defs(tree: ast.AST):
    """Every function definition, at any depth; only statements are visited (a def is one)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(node, name, ()) or ():
                if isinstance(child, ast.AST):
                    todo.append(child)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def find_kernel(sites: List[KernelSite], name: Optional[str]) -> List[KernelSite]:
    if name is None:
        return sites
    return [s for s in sites if s.name == name]
