"""One document's analysis: static module, diagnostics and the type of every expression.

Runs in the analysis worker (worker.py); summary.py turns the result into the plain
data the server keeps. Nothing of the user's module is executed: kernels are compiled
from `SourceFunction`s built by `frontend.static_module` from the buffer text.
Locations here are the front end's: 1-based lines, UTF-8 byte columns (plus one),
except syntax errors, whose columns count code points (`Diag.char_cols`).
"""
from __future__ import annotations

import ast
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Dict, List, Optional, Tuple

from ...compiler import normalize_args
from ...costmodel import kernel_hover
from ...errors import Loc, TileError, TileRecursionError, TileSyntaxError, TileTypeError
from ...frontend.source import split_lines
from ...frontend.static_module import StaticModule, analyze_module
from ...frontend.unknown import UnknownValue, is_unknown_error
from . import compile_cache
from .checks import generic_checks, tile_functions
from .execute import ERROR_KEY
from .facts import ModuleFacts
from .metadata import Signature, kernel_signatures
from ...meta import parse_args
from ...ops import load_all
from ...passes.infer import Inference
from .records import KERNEL_COST, Diag, Key, Record, make_record, name_loc

log = logging.getLogger("tilescope.lsp")

MAX_SIGNATURES_PER_KERNEL = 3


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
    facts: Optional[ModuleFacts] = None
    extras: Dict[str, Any] = field(default_factory=dict)      # summary.Summary.extras, by key
    costs_to_do: List[tuple] = field(default_factory=list)    # see kernel_costs
    trusted: bool = False          # executeModules: the user asked for full Python
    module_read_s: float = 0.0     # time the static reader took over the module-level statements
    timed_out: bool = False
    elapsed_ms: float = 0.0

    @property
    def lines(self) -> List[str]:
        cached = getattr(self, "_lines", None)
        if cached is None:
            cached = self._lines = split_lines(self.text)
        return cached


def _key(loc: Loc) -> Key:
    return (loc.line, loc.col, loc.end_line or loc.line, loc.end_col or loc.col + 1)


# Called before each compilation that is not cached: (kernel, fingerprint, name location).
CompileHook = Callable[[str, str, Loc], None]


def analyze(text: str, filename: str, *, version: Optional[int] = None, budget_s: float = 2.0,
            cancel: Optional[threading.Event] = None, on_compile: Optional[CompileHook] = None,
            skip: Collection[str] = (), module_globals: Optional[Dict[str, Any]] = None) -> Analysis:
    """Analyse one buffer. Never raises for anything in the user's text.

    `skip` holds fingerprints of compilations not to attempt again (they ran past the
    worker's hard limit before); each is reported instead. `module_globals` (only with
    `executeModules`) are the globals of the module, run: they replace what the static
    reader could not know."""
    start = time.monotonic()
    deadline = start + budget_s
    sm = analyze_module(text, filename)
    an = Analysis(filename, text, version, sm, module_read_s=time.monotonic() - start)
    if module_globals is not None:
        an.trusted = True
        _use_executed_globals(an, module_globals)
    for err in sm.syntax_errors:
        an.diagnostics.append(Diag(err.loc, "error", err.kind, err.message, char_cols=True))
    try:
        an.signatures = kernel_signatures(sm.tree, text, filename, sm)
    except Exception:    # metadata is best effort
        log.exception("reading argument metadata failed")
    _check_cancel(cancel)
    an.facts = ModuleFacts({n: f.node for n, f in sm.functions.items()}, an.lines)
    an.tile_functions = tile_functions(sm, an.facts)
    generic_checks(an)
    for name in sm.kernels:
        _check_cancel(cancel)
        fn = sm.functions.get(name)
        sigs = an.signatures.get(name) or []
        if fn is None:
            continue
        if not sigs:
            node = fn.node
            an.diagnostics.append(Diag(_name_loc(an, node), "information", "info",
                                       f"kernel '{name}' has no argument metadata: types are unknown "
                                       f"(add '# tilescope: args ...' above it, record a run with "
                                       f"'tilescope run --record', or launch it with evident arguments)",
                                       name))
            continue
        for sig in sigs[:MAX_SIGNATURES_PER_KERNEL]:
            if time.monotonic() > deadline:
                an.timed_out = True
                break
            _compile_cached(an, name, fn, sig, deadline, cancel, on_compile, skip)
    if an.timed_out:
        an.diagnostics.append(Diag(Loc(filename, 1, 1, 1, 1), "information", "info",
                                   f"tilescope: analysis stopped after {budget_s:.1f} s; some kernels were "
                                   f"not checked"))
    _dedupe(an)
    an.elapsed_ms = (time.monotonic() - start) * 1000
    return an


def _check_cancel(cancel: Optional[threading.Event]) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled()


def _use_executed_globals(an: Analysis, module_globals: Dict[str, Any]) -> None:
    env = an.static.globals
    for name, value in list(env.items()):
        if isinstance(value, UnknownValue) and name in module_globals:
            env[name] = module_globals[name]
    error = module_globals.get(ERROR_KEY)
    if error is not None:
        line, message = error
        an.diagnostics.append(Diag(Loc(an.filename, line, 1, line, 2), "warning", "ModuleError",
                                   f"running the module (executeModules) raised {message}"))


def _name_loc(an: "Analysis", node) -> Loc:
    return name_loc(an.filename, an.lines, node)


def _compile_cached(an: Analysis, name: str, fn, sig: Signature, deadline: float, cancel,
                    on_compile: Optional[CompileHook] = None, skip: Collection[str] = ()) -> None:
    try:
        key, ranges = compile_cache.fingerprint(an, name, sig)
    except Exception:        # a node without positions: compile without caching
        key, ranges = None, ()
    part = compile_cache.lookup(key, ranges, an.filename) if key is not None else None
    if part is None and key is not None and key in skip:
        an.diagnostics.append(Diag(_name_loc(an, fn.node), "warning", "info",
                                   f"tilescope: kernel '{name}' ({sig.text}) is not analysed: its analysis "
                                   f"did not finish in time before and was stopped; edit it to try again",
                                   name))
        return
    if part is None:
        if on_compile is not None and key is not None:
            on_compile(name, key, _name_loc(an, fn.node))
        scratch = Analysis(an.filename, an.text, an.version, an.static, signatures=an.signatures, facts=an.facts,
                           trusted=an.trusted)
        _compile_one(scratch, name, fn, sig, deadline, cancel)
        an.timed_out = an.timed_out or scratch.timed_out
        part = compile_cache.Part(scratch.exprs, scratch.bindings, scratch.binding_names, scratch.diagnostics,
                                  scratch.compiled_kernels)
        if key is not None and not scratch.timed_out:
            compile_cache.store(key, ranges, part)
    for k, recs in part.exprs.items():
        an.exprs.setdefault(k, []).extend(recs)
    for k, recs in part.bindings.items():
        an.bindings.setdefault(k, []).extend(recs)
    an.binding_names.update(part.binding_names)
    an.diagnostics.extend(part.diagnostics)
    for k, v in part.compiled_kernels.items():
        an.compiled_kernels.setdefault(k, v)
    if KERNEL_COST in part.extras:
        an.extras.setdefault(KERNEL_COST, {})[name] = part.extras[KERNEL_COST]
    elif name in part.compiled_kernels and sig is (an.signatures.get(name) or [None])[0]:
        an.costs_to_do.append((name, fn, sig, part))


def kernel_costs(an: Analysis, stop: Callable[[], bool] = lambda: False) -> Dict[str, Tuple[str, str]]:
    """The cost-model hovers the analysis left to do (they cost a second, complete compile:
    the worker does them after sending the summary, while nothing else waits). Each is
    kept with its cached compilation. Returns kernel -> (signature text, markdown)."""
    done = {}
    while an.costs_to_do and not stop():
        name, fn, sig, part = an.costs_to_do.pop(0)
        try:
            text = kernel_hover(fn, sig.specs, values=sig.values)
        except Exception:        # the cost model is an extra: its failure is logged, not shown
            log.exception("cost model failed for %s", name)
            text = None
        if text is not None:
            part.extras[KERNEL_COST] = done[name] = (sig.text, text)
    an.extras.setdefault(KERNEL_COST, {}).update(done)
    return done


def _compile_one(an: Analysis, name: str, fn, sig: Signature, deadline: float, cancel) -> None:
    load_all()
    try:
        specs = parse_args(sig.specs) if isinstance(sig.specs, str) else list(sig.specs)
        specs = normalize_args(specs)
    except (ValueError, TypeError) as e:
        an.diagnostics.append(Diag(_name_loc(an, fn.node), "error", "ArgsError",
                                   f"bad argument metadata '{sig.text}': {e}", name))
        return
    bindings: list = []
    recorder = _Recorder(deadline, cancel)
    inference = Inference(bindings=bindings, expressions=recorder)
    inference.trust = an.trusted        # executeModules: compile-time Python runs as Python (in the worker)
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
        an.diagnostics.append(Diag(_name_loc(an, fn.node), "warning", "TileInternalError",
                                   f"tilescope internal error while compiling '{name}': "
                                   f"{type(ex).__name__}: {ex}", name))
    # Values seen before an error are still worth showing.
    for loc, value in recorder:
        if loc is not None and loc.filename == an.filename:
            an.exprs.setdefault(_key(loc), []).append(make_record(value, name, sig.text))
    for loc, bound, value in bindings:
        if loc is not None and loc.filename == an.filename:
            k = _key(loc)
            an.bindings.setdefault(k, []).append(make_record(value, name, sig.text))
            an.binding_names[k] = bound
    if error is not None:
        an.diagnostics.append(_error_diag(an, error, name, sig))


def _error_diag(an: Analysis, e: TileError, kernel: str, sig: Signature) -> Diag:
    loc = e.loc
    fn = an.static.functions.get(kernel)
    if loc is None or loc.line <= 0 or loc.filename != an.filename:
        loc = _name_loc(an, fn.node) if fn is not None else Loc(an.filename, 1, 1)
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
