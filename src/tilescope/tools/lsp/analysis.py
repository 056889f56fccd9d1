"""One document's analysis: static module, diagnostics and the abstract value of every expression.

Pure Python, no LSP types: the server (server.py) converts. Nothing of the user's
module is executed: kernels are compiled from `SourceFunction`s built by
`frontend.static_module` from the buffer text.
"""
from __future__ import annotations

import ast
import inspect
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from ...errors import Loc, TileError, TileRecursionError, TileSyntaxError, TileTypeError
from ...frontend.static_module import StaticModule, analyze_module
from ...frontend.unknown import is_unknown_error
from .metadata import Signature, kernel_signatures

log = logging.getLogger("tilescope.lsp")

MAX_SIGNATURES_PER_KERNEL = 3
Key = Tuple[int, int, int, int]      # line, col, end_line, end_col (1-based, end exclusive)


class Cancelled(BaseException):
    """The analysis ran past its budget or a newer version of the document arrived."""


class _Recorder(list):
    """The interpreter's expression log; also where a long compilation notices it must stop."""

    def __init__(self, deadline: float, cancel: Optional[threading.Event]):
        super().__init__()
        self.deadline, self.cancel, self.count = deadline, cancel, 0

    def append(self, item) -> None:
        self.count += 1
        if self.count & 63 == 0 and (time.monotonic() > self.deadline or
                                     (self.cancel is not None and self.cancel.is_set())):
            raise Cancelled()
        super().append(item)


@dataclass
class Diag:
    loc: Loc
    severity: str              # "error", "warning", "information", "hint"
    kind: str                  # upstream's error class name, or "info"
    message: str
    kernel: Optional[str] = None
    related: List[Tuple[Loc, str]] = field(default_factory=list)
    generic: bool = False      # from the metadata-free checks (a compile error at the same spot wins)


@dataclass
class Record:
    value: Any
    kernel: str
    signature: str


@dataclass
class Analysis:
    filename: str
    text: str
    version: Optional[int]
    static: StaticModule
    diagnostics: List[Diag] = field(default_factory=list)
    exprs: Dict[Key, List[Record]] = field(default_factory=dict)
    bindings: Dict[Key, List[Record]] = field(default_factory=dict)
    binding_names: Dict[Key, str] = field(default_factory=dict)
    signatures: Dict[str, List[Signature]] = field(default_factory=dict)
    tile_functions: Dict[str, ast.AST] = field(default_factory=dict)
    compiled_kernels: Dict[str, str] = field(default_factory=dict)      # kernel -> signature used
    timed_out: bool = False
    elapsed_ms: float = 0.0

    @property
    def lines(self) -> List[str]:
        cached = getattr(self, "_lines", None)
        if cached is None:
            cached = self._lines = self.text.splitlines()
        return cached


def _key(loc: Loc) -> Key:
    return (loc.line, loc.col, loc.end_line or loc.line, loc.end_col or loc.col + 1)


def analyze(text: str, filename: str, *, version: Optional[int] = None, budget_s: float = 2.0,
            cancel: Optional[threading.Event] = None) -> Analysis:
    """Analyse one buffer. Never raises for anything in the user's text."""
    start = time.monotonic()
    deadline = start + budget_s
    sm = analyze_module(text, filename)
    _restrict_builtins(sm)
    an = Analysis(filename, text, version, sm)
    for err in sm.syntax_errors:
        an.diagnostics.append(Diag(err.loc, "error", err.kind, err.message))
    try:
        an.signatures = kernel_signatures(sm.tree, text, filename, sm)
    except Exception:    # metadata is best effort
        log.exception("reading argument metadata failed")
    an.tile_functions = _tile_functions(sm)
    _generic_checks(an)
    for name in sm.kernels:
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        fn = sm.functions.get(name)
        sigs = an.signatures.get(name) or []
        if fn is None:
            continue
        if not sigs:
            node = fn.node
            an.diagnostics.append(Diag(_name_loc(filename, node, text), "information", "info",
                                       f"kernel '{name}' has no argument metadata: types are unknown "
                                       f"(add '# tilescope: args ...' above it, record a run with "
                                       f"'tilescope run --record', or launch it with evident arguments)",
                                       name))
            continue
        for sig in sigs[:MAX_SIGNATURES_PER_KERNEL]:
            if time.monotonic() > deadline:
                an.timed_out = True
                break
            _compile_cached(an, name, fn, sig, deadline, cancel)
    if an.timed_out:
        an.diagnostics.append(Diag(Loc(filename, 1, 1, 1, 1), "information", "info",
                                   f"tilescope: analysis stopped after {budget_s:.1f} s; some kernels were "
                                   f"not checked"))
    _dedupe(an)
    an.elapsed_ms = (time.monotonic() - start) * 1000
    return an


def _restrict_builtins(sm: StaticModule) -> None:
    """`ct.static_eval` evaluates kernel expressions with the module globals: keep them pure."""
    from ...frontend.static_module import _CONSTANT_NAMES, _PURE_BUILTINS
    safe = dict(_PURE_BUILTINS)
    safe.update(_CONSTANT_NAMES)
    sm.globals["__builtins__"] = safe


def _name_loc(filename: str, node, text: str) -> Loc:
    """The range of a def's name."""
    line = node.lineno
    src = text.splitlines()[line - 1] if line - 1 < len(text.splitlines()) else ""
    col = src.find(node.name, node.col_offset)
    if col < 0:
        return Loc(filename, line, node.col_offset + 1, line, node.col_offset + 4)
    return Loc(filename, line, col + 1, line, col + 1 + len(node.name))


# Compilations keyed by everything they read (the kernel's text and line numbers, the
# helpers it reaches, the module-level statements, the signature): typing inside one
# kernel does not recompile the others.
_CACHE: Dict[tuple, "Analysis"] = {}
_CACHE_SIZE = 256


def _fingerprint(an: Analysis, name: str, sig: Signature) -> tuple:
    sm = an.static
    lines = an.lines
    module_text = getattr(an, "_module_text", None)
    if module_text is None:
        module_text = an._module_text = "\n".join(
            "\n".join(lines[st.lineno - 1:st.end_lineno or st.lineno]) for st in sm.tree.body
            if not isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)))
    parts = []
    for fname in sorted(_reachable(sm, name)):
        node = sm.functions[fname].node
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        parts.append((first, "\n".join(lines[first - 1:node.end_lineno or node.lineno])))
    return (an.filename, name, sig.text, module_text, tuple(parts))


def _reachable(sm: StaticModule, root: str) -> set:
    seen, todo = set(), [root]
    while todo:
        fname = todo.pop()
        if fname in seen or fname not in sm.functions:
            continue
        seen.add(fname)
        for sub in ast.walk(sm.functions[fname].node):
            if isinstance(sub, ast.Name) and sub.id in sm.functions:
                todo.append(sub.id)
    return seen


def _compile_cached(an: Analysis, name: str, fn, sig: Signature, deadline: float, cancel) -> None:
    try:
        key = _fingerprint(an, name, sig)
    except Exception:
        key = None
    part = _CACHE.get(key) if key is not None else None
    if part is None:
        part = Analysis(an.filename, an.text, an.version, an.static, signatures=an.signatures)
        _compile_one(part, name, fn, sig, deadline, cancel)
        if key is not None and not part.timed_out:
            if len(_CACHE) >= _CACHE_SIZE:
                _CACHE.clear()
            _CACHE[key] = part
    for k, recs in part.exprs.items():
        an.exprs.setdefault(k, []).extend(recs)
    for k, recs in part.bindings.items():
        an.bindings.setdefault(k, []).extend(recs)
    an.binding_names.update(part.binding_names)
    an.diagnostics.extend(part.diagnostics)
    for k, v in part.compiled_kernels.items():
        an.compiled_kernels.setdefault(k, v)
    an.timed_out = an.timed_out or part.timed_out


def _compile_one(an: Analysis, name: str, fn, sig: Signature, deadline: float, cancel) -> None:
    from ...ops import load_all
    load_all()
    from ...compiler import normalize_args
    from ...passes.infer import Inference
    from ...meta import parse_args
    try:
        specs = parse_args(sig.specs) if isinstance(sig.specs, str) else list(sig.specs)
        specs = normalize_args(specs)
    except (ValueError, TypeError) as e:
        an.diagnostics.append(Diag(_name_loc(an.filename, fn.node, an.text), "error", "ArgsError",
                                   f"bad argument metadata '{sig.text}': {e}", name))
        return
    bindings: list = []
    recorder = _Recorder(deadline, cancel)
    inference = Inference(bindings=bindings, expressions=recorder)
    error: Optional[TileError] = None
    try:
        inference.infer_kernel(fn, specs, name)
        an.compiled_kernels.setdefault(name, sig.text)
    except Cancelled:
        if cancel is not None and cancel.is_set():
            raise
        an.timed_out = True
    except TileError as e:
        error = e
    except RecursionError:
        error = TileRecursionError("Maximum recursion depth reached while compiling", inference.loc)
    except Exception as ex:     # a bug in tilescope: log it, show it as a warning
        log.exception("internal error compiling %s(%s)", name, sig.text)
        an.diagnostics.append(Diag(_name_loc(an.filename, fn.node, an.text), "warning", "TileInternalError",
                                   f"tilescope internal error while compiling '{name}': "
                                   f"{type(ex).__name__}: {ex}", name))
    # Values seen before an error are still worth showing.
    for loc, value in recorder:
        if loc is not None and loc.filename == an.filename:
            an.exprs.setdefault(_key(loc), []).append(Record(value, name, sig.text))
    for loc, bound, value in bindings:
        if loc is not None and loc.filename == an.filename:
            k = _key(loc)
            an.bindings.setdefault(k, []).append(Record(value, name, sig.text))
            an.binding_names[k] = bound
    if error is not None:
        an.diagnostics.append(_error_diag(an, error, name, sig))


def _error_diag(an: Analysis, e: TileError, kernel: str, sig: Signature) -> Diag:
    loc = e.loc
    fn = an.static.functions.get(kernel)
    if loc is None or loc.line <= 0 or loc.filename != an.filename:
        loc = _name_loc(an.filename, fn.node, an.text) if fn is not None else Loc(an.filename, 1, 1)
    related = []
    site = loc.call_site
    while site is not None:
        related.append((site, "called from here"))
        site = site.call_site
    if is_unknown_error(e):
        return Diag(loc, "information", e.kind, e.message, kernel, related)
    msg = f"{e.message}  [kernel {kernel}({sig.text})]" if sig.source != "directive" or \
        len(an.signatures.get(kernel, ())) > 1 else e.message
    return Diag(loc, "error", e.kind, msg, kernel, related)


# ---- generic checks (no argument metadata needed) -----------------------------

def _tile_functions(sm: StaticModule) -> Dict[str, ast.AST]:
    """Kernels, @ct.function helpers and every module function they call by name."""
    todo = [n for n, f in sm.functions.items() if f.is_kernel or getattr(f, "is_tile_function", False)]
    seen: Dict[str, ast.AST] = {}
    while todo:
        name = todo.pop()
        if name in seen or name not in sm.functions:
            continue
        node = sm.functions[name].node
        seen[name] = node
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id in sm.functions and sub.id != name:
                todo.append(sub.id)
    return seen


def _generic_checks(an: Analysis) -> None:
    from ...frontend.ast2hir import function_to_hir
    from ... import lang
    sm = an.static
    known = set(dir(lang))
    for name, node in an.tile_functions.items():
        fn = sm.functions[name]
        try:
            function_to_hir(node, an.filename, is_entry=fn.is_kernel)
        except TileError as e:
            an.diagnostics.append(Diag(e.loc or _name_loc(an.filename, node, an.text), "error", e.kind,
                                       e.message, name, generic=True))
        except RecursionError:
            an.diagnostics.append(Diag(_name_loc(an.filename, node, an.text), "error", "TileRecursionError",
                                       "the function is too deeply nested to analyse", name))
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                d = _arity_check(an, sub)
                if d is not None:
                    an.diagnostics.append(d)
    aliases = set(sm.tile_aliases)
    if aliases:
        for sub in ast.walk(sm.tree):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id in aliases \
                    and sub.attr not in known:
                loc = Loc(an.filename, sub.lineno, sub.col_offset + 1, sub.end_lineno, sub.end_col_offset + 1)
                an.diagnostics.append(Diag(loc, "error", "TileTypeError",
                                           f"module 'cuda.tile' has no attribute '{sub.attr}'"))


def _arity_check(an: Analysis, call: ast.Call) -> Optional[Diag]:
    from ...ops.registry import SurfaceFunction
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    target = None
    label = None
    f = call.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in an.static.tile_aliases:
        from ... import lang
        target = getattr(lang, f.attr, None) if f.attr in dir(lang) else None
        label = f"{f.value.id}.{f.attr}"
        if not isinstance(target, SurfaceFunction) or target.raw_args or target.family == "missing":
            return None
        sig = target.signature
    elif isinstance(f, ast.Name) and f.id in an.tile_functions and f.id in an.static.functions:
        sig = _ast_signature(an.static.functions[f.id].node)
        label = f.id
        if sig is None:
            return None
    else:
        return None
    try:
        sig.bind(*([None] * len(call.args)), **{k.arg: None for k in call.keywords})
    except TypeError as e:
        loc = Loc(an.filename, call.lineno, call.col_offset + 1, call.end_lineno, call.end_col_offset + 1)
        return Diag(loc, "error", "TileTypeError", f"{label}(): {e}", generic=True)
    return None


def _ast_signature(node) -> Optional[inspect.Signature]:
    a = node.args
    P = inspect.Parameter
    params = []
    pos = a.posonlyargs + a.args
    first_default = len(pos) - len(a.defaults)
    try:
        for i, arg in enumerate(pos):
            kind = P.POSITIONAL_ONLY if i < len(a.posonlyargs) else P.POSITIONAL_OR_KEYWORD
            params.append(P(arg.arg, kind, default=None if i >= first_default else P.empty))
        if a.vararg:
            params.append(P(a.vararg.arg, P.VAR_POSITIONAL))
        for arg, d in zip(a.kwonlyargs, a.kw_defaults):
            params.append(P(arg.arg, P.KEYWORD_ONLY, default=P.empty if d is None else None))
        if a.kwarg:
            params.append(P(a.kwarg.arg, P.VAR_KEYWORD))
        return inspect.Signature(params)
    except ValueError:
        return None


def _dedupe(an: Analysis) -> None:
    """One diagnostic per place and message; a compile error wins over the generic check at its spot."""
    compiled_errors = {(d.loc.line, d.loc.col) for d in an.diagnostics if not d.generic and d.severity == "error"}
    seen = set()
    out = []
    for d in an.diagnostics:
        if d.generic and (d.loc.line, d.loc.col) in compiled_errors:
            continue
        key = (d.loc.line, d.loc.col, d.message)
        if key in seen:
            continue
        seen.add(key)
        out.append(d)
    an.diagnostics = out


# ---- queries -------------------------------------------------------------------

def innermost(table: Dict[Key, List[Record]], line: int, col: int) -> Optional[Tuple[Key, List[Record]]]:
    """The smallest recorded range containing the 1-based (line, col)."""
    best = None
    best_size = None
    for k, recs in table.items():
        l0, c0, l1, c1 = k
        if (line, col) < (l0, c0) or (line, col) >= (l1, c1):
            continue
        size = (l1 - l0, (c1 - c0) if l1 == l0 else c1)
        if best_size is None or size < best_size:
            best, best_size = (k, recs), size
    return best
