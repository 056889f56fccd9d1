"""Finding and parsing the source of kernels and helper functions."""
from __future__ import annotations

import ast
import inspect
import linecache
import re
from typing import Dict, List, Optional, Tuple

from ..errors import Loc, TileSyntaxError
from . import hir as H
from .ast2hir import function_to_hir

# Speed caches, bounded: a long process (the language server, a test session, a fuzzer) meets
# ever new files and would otherwise keep every function it ever compiled.
_module_cache: Dict[Tuple[str, str], ast.Module] = {}
_hir_cache: Dict[Tuple[str, int, str, bool], H.FunctionDef] = {}
_HIR_KEPT = 512

# Python and LSP end a line at "\r\n", "\r" or "\n" only; `str.splitlines` also splits at
# form feed, VT, FS/GS/RS, U+0085, U+2028 and U+2029, which would renumber every line below.
_LINE_END = re.compile(r"\r\n|\r|\n")
BOM = "\ufeff"


def split_lines(text: str, keepends: bool = False) -> List[str]:
    """The lines of `text` numbered as Python and the Language Server Protocol number them.

    Like `str.splitlines`, a final line ending does not start an empty last line."""
    if keepends:
        lines = []
        start = 0
        for m in _LINE_END.finditer(text):
            lines.append(text[start:m.end()])
            start = m.end()
        if start < len(text):
            lines.append(text[start:])
        return lines
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def strip_bom(text: str) -> str:
    """The text without a leading UTF-8 byte order mark (`ast.parse` rejects U+FEFF)."""
    return text[1:] if text.startswith(BOM) else text


def parse_file_text(filename: str, text: str) -> ast.Module:
    key = (filename, text)
    tree = _module_cache.get(key)
    if tree is None:
        try:
            tree = ast.parse(text, filename)
        except SyntaxError as e:
            raise TileSyntaxError(e.msg, Loc(filename, e.lineno or 1, e.offset or 1)) from None
        if len(_module_cache) > 64:
            _module_cache.clear()
        _module_cache[key] = tree
    return tree


def find_function_node(tree: ast.Module, name: str, first_line: int):
    """The def whose first line (decorators included) is `first_line`."""
    best = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            if start == first_line or node.lineno == first_line:
                return node
            if best is None:
                best = node
    return best


def function_ast(fn) -> Tuple[ast.FunctionDef, str]:
    """The AST of a live Python function, located in its real source file."""
    if isinstance(fn, SourceFunction):
        return fn.node, fn.filename
    code = fn.__code__
    filename = code.co_filename
    lines = linecache.getlines(filename, fn.__globals__)
    if not lines:
        try:
            src_lines, start = inspect.getsourcelines(fn)
        except (OSError, TypeError):
            raise TileSyntaxError(f"cannot find the source code of '{fn.__qualname__}'",
                                  Loc(filename, code.co_firstlineno, 1)) from None
        lines = ["\n"] * (start - 1) + src_lines
    tree = parse_file_text(filename, "".join(lines))
    # The code object's name, not `__name__`: functools.wraps gives a decorator's wrapper
    # the wrapped function's name, and the wrapper is what runs.
    name = code.co_name
    if name == "<lambda>":
        for node in ast.walk(tree):
            if isinstance(node, ast.Lambda) and node.lineno == code.co_firstlineno:
                return node, filename
    node = find_function_node(tree, name, code.co_firstlineno)
    if node is None:
        raise TileSyntaxError(f"cannot find the source code of '{fn.__qualname__}'",
                              Loc(filename, code.co_firstlineno, 1))
    return node, filename


class SourceFunction:
    """A function known only from its source text (nothing executed): used by the editor.

    `globals` maps module-level names to statically evaluated values (see
    `frontend.static_module`); `annotations`/`defaults` are evaluated the same way.
    """

    def __init__(self, node, filename: str, globals_: dict, *, annotations=None, defaults=None,
                 is_kernel: bool = False, is_contextmanager: bool = False):
        self.node = node
        self.filename = filename
        self.__globals__ = globals_
        self.__name__ = node.name
        self.__qualname__ = node.name
        self.__annotations__ = annotations or {}
        self.defaults = defaults or {}
        self.is_kernel = is_kernel
        self.is_contextmanager = is_contextmanager
        self.hints: Optional[dict] = None       # `@ct.kernel(...)`'s hints (see static_module)
        self.hint_error: Optional[Exception] = None
        self.hir: Dict[bool, H.FunctionDef] = {}        # is_entry -> HIR (see function_hir)

    def __call__(self, *args, **kwargs):
        # Callable (so `callable()` says what Python would), but only ever interpreted.
        raise TypeError(f"{self.__qualname__}() is read from source and is not run as Python")

    def __repr__(self) -> str:
        return f"<source function {self.__name__} at {self.filename}:{self.node.lineno}>"


def function_hir(fn, *, is_entry: bool) -> H.FunctionDef:
    if isinstance(fn, SourceFunction):
        # Kept on the function itself: the editor builds new SourceFunctions for every
        # version of a buffer, and a global table keyed by line would only ever grow.
        hir = fn.hir.get(is_entry)
        if hir is None:
            hir = fn.hir[is_entry] = function_to_hir(fn.node, fn.filename, is_entry=is_entry)
        return hir
    node, filename = function_ast(fn)
    key = (filename, node.lineno, node.name if hasattr(node, "name") else "<lambda>", is_entry)
    hir = _hir_cache.get(key)
    if hir is None or getattr(hir, "_ast", None) is not node:
        hir = function_to_hir(node, filename, is_entry=is_entry)
        hir._ast = node
        _remember_hir(key, hir)
    return hir


def _remember_hir(key: Tuple[str, int, str, bool], hir: H.FunctionDef) -> None:
    if len(_hir_cache) >= _HIR_KEPT:
        _hir_cache.clear()
    _hir_cache[key] = hir


def node_hir(node, filename: str, *, is_entry: bool) -> H.FunctionDef:
    return function_to_hir(node, filename, is_entry=is_entry)


def kernel_ast_of(fn) -> Optional[ast.AST]:
    try:
        return function_ast(fn)[0]
    except TileSyntaxError:
        return None


def unwrap_tile_function(obj) -> Optional[object]:
    """The plain Python function behind a `@ct.kernel` or `@ct.function` wrapper (ours or
    upstream's: both kernel classes are named `kernel` and keep the function as `_pyfunc`)."""
    if type(obj).__name__ == "kernel":
        py = getattr(obj, "_pyfunc", None)
        return py if callable(py) else None
    if getattr(obj, "_cutile_function_wrapper", False):
        return obj.__wrapped__
    return None


def is_kernel_object(obj) -> bool:
    """A `@ct.kernel` object (ours or upstream's): launched, never called from tile code."""
    return type(obj).__name__ == "kernel" and hasattr(type(obj), "_pyfunc")
