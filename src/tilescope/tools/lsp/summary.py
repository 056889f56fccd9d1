"""What the server keeps of one analysis: plain data, built in the analysis worker.

The worker (worker.py) compiles kernels, which may evaluate compile-time Python; the
server process only ever sees this summary: strings, numbers and the small classes
below (its unpickler accepts nothing else). Every range here is 1-based with
code-point columns (an index into the line's `str`, plus one), end exclusive; the
server converts to the client's position encoding.

To show something new in the editor, add a field (or an `extras` entry) filled by
`build_summary` and read it in features.py.
"""
from __future__ import annotations

import ast
import enum
import types
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from ... import lang
from ...frontend.source import BOM, SourceFunction, split_lines
from ...frontend.static_module import SAFE_MODULES, UnknownValue
from .analysis import Analysis, analyze, kernel_costs
from .facts import function_facts
from .records import DOCS, Record
from .describe import describe
from .positions import byte_to_index

Key = Tuple[int, int, int, int]       # line, col, end_line, end_col
MAX_VARIANTS = 4


class HoverEntry(NamedTuple):
    label: str                                    # the source text (or the bound name)
    variants: List[Tuple[str, List[str]]]         # description, kernel signatures giving it
    doc: Optional[str] = None                     # key into Summary.docs
    name: str = ""                                # bound name (bindings only)
    types: Tuple[str, ...] = ()                   # IR type classes, for member completion


class Hint(NamedTuple):
    line: int
    col: int          # the hint goes before this column
    label: str


@dataclass
class FunctionInfo:
    name: str
    first_line: int
    last_line: int
    is_tile: bool                                  # a kernel, a @ct.function or a helper they call
    name_range: Key
    params: List[str]                              # `name=default` labels
    locals: Dict[str, Key] = field(default_factory=dict)     # parameters, first assignments, nested defs


@dataclass
class Symbol:
    """A module-level name as the static reader knows it."""
    text: str                                      # describe() of the value
    module: Optional[str] = None                   # a module of tilescope's or a pure stdlib one
    lang_path: Optional[str] = None                # the object tilescope.lang.<path>
    function: Optional[str] = None                 # a module-level def (Summary.functions)
    unknown: bool = False
    definition: Optional[Key] = None


@dataclass
class Diagnostic:
    range: Key
    severity: str
    kind: str
    message: str
    related: List[Tuple[Key, str]] = field(default_factory=list)


@dataclass
class Summary:
    version: Optional[int]
    diagnostics: List[Diagnostic] = field(default_factory=list)
    exprs: Dict[Key, HoverEntry] = field(default_factory=dict)
    bindings: Dict[Key, HoverEntry] = field(default_factory=dict)
    hints: List[Hint] = field(default_factory=list)
    symbols: Dict[str, Symbol] = field(default_factory=dict)
    functions: Dict[str, FunctionInfo] = field(default_factory=dict)
    docs: Dict[str, str] = field(default_factory=dict)
    compiled_kernels: Dict[str, str] = field(default_factory=dict)
    timed_out: bool = False
    elapsed_ms: float = 0.0
    extras: Dict[str, Any] = field(default_factory=dict)
    text: str = ""               # set by the server: the text this summary describes
    _lines: Optional[List[str]] = None

    @property
    def lines(self) -> List[str]:
        if self._lines is None:
            self._lines = split_lines(self.text)
        return self._lines

    # Hover entries and hints (thousands) travel as plain tuples: pickling them as objects
    # took four times as long, on every keystroke's analysis.
    def __getstate__(self):
        state = dict(self.__dict__, _lines=None)
        state["exprs"] = {k: tuple(v) for k, v in self.exprs.items()}
        state["bindings"] = {k: tuple(v) for k, v in self.bindings.items()}
        state["hints"] = [tuple(h) for h in self.hints]
        return state

    def __setstate__(self, state):
        make_entry, make_hint = HoverEntry._make, Hint._make
        state["exprs"] = {k: make_entry(v) for k, v in state["exprs"].items()}
        state["bindings"] = {k: make_entry(v) for k, v in state["bindings"].items()}
        state["hints"] = [make_hint(h) for h in state["hints"]]
        self.__dict__.update(state)


def summarize(text: str, filename: str, **analyze_options) -> Summary:
    """Analyse and summarise in this process (tests, scripts; the server uses a worker)."""
    bom = text.startswith(BOM)
    an = analyze(text[1:] if bom else text, filename, **analyze_options)
    kernel_costs(an)
    s = build_summary(an, bom=bom)
    s.text = text
    return s


# The classes the server's unpickler accepts from a worker.
PLAIN_CLASSES = frozenset({"FunctionInfo", "Symbol", "Diagnostic", "Summary"})


# ---- building (worker side) --------------------------------------------------------

class Columns:
    """UTF-8 byte columns (the AST's) to code-point columns, both 1-based."""

    def __init__(self, lines: List[str], bom: bool, text: str = ""):
        self.lines, self.bom = lines, bom
        self.ascii: Dict[int, bool] = {}
        self.identity = not bom and text.isascii()     # every column is already a code point

    def char(self, line: int, col: int) -> int:
        ascii_ = self.ascii.get(line)
        if ascii_ is None:
            ascii_ = self.ascii[line] = not 0 < line <= len(self.lines) or self.lines[line - 1].isascii()
        if ascii_:
            return self._shift(line, col)
        return self._shift(line, byte_to_index(self.lines[line - 1], col - 1) + 1)

    def char_from_chars(self, line: int, col: int) -> int:
        """A column already in code points (`SyntaxError.offset`)."""
        return self._shift(line, col)

    def _shift(self, line: int, col: int) -> int:
        return col + 1 if self.bom and line == 1 else col     # the BOM the parser never saw

    def key(self, k: Key) -> Key:
        if self.identity:
            return k
        l0, c0, l1, c1 = k
        return l0, self.char(l0, c0), l1, self.char(l1, c1)


def diagnostics_of(an: Analysis, *, bom: bool = False) -> List[Diagnostic]:
    """The analysis's diagnostics as the summary holds them (sent ahead of the summary: they
    are what an editor waits for after a pause, the rest is read on hover)."""
    cols = Columns(an.lines, bom, an.text)
    return [_diagnostic(d, cols) for d in an.diagnostics]


def build_summary(an: Analysis, *, bom: bool = False, diagnostics: Optional[List[Diagnostic]] = None) -> Summary:
    """The summary of an analysis (`diagnostics`: diagnostics_of(an, bom=bom), when already made)."""
    cols = Columns(an.lines, bom, an.text)
    s = Summary(an.version, compiled_kernels=dict(an.compiled_kernels), timed_out=an.timed_out,
                elapsed_ms=an.elapsed_ms, extras={k: v for k, v in an.extras.items()})
    s.diagnostics = list(diagnostics) if diagnostics is not None else [_diagnostic(d, cols) for d in an.diagnostics]
    lines = an.lines
    for table, out, named in ((an.exprs, s.exprs, False), (an.bindings, s.bindings, True)):
        for k, records in table.items():
            out[cols.key(k)] = _hover_entry(lines, s, k, records, an.binding_names.get(k, "") if named else "",
                                            cols)
    s.hints = _inlay_hints(an, cols)
    s.functions = _functions(an, cols)
    s.symbols = _symbols(an, cols, s)
    return s


def _loc_key(loc, cols: Columns, chars: bool) -> Key:
    line = max(loc.line, 1)
    col = max(loc.col, 1)
    end_line = loc.end_line or line
    end_col = loc.end_col or None
    conv = cols.char_from_chars if chars else cols.char
    c0 = conv(line, col)
    c1 = conv(end_line, end_col) if end_col else c0 + 1
    if (end_line, c1) <= (line, c0):
        end_line, c1 = line, c0 + 1
    return line, c0, end_line, c1


def _diagnostic(d, cols: Columns) -> Diagnostic:
    related = [(_loc_key(loc, cols, False), msg) for loc, msg in d.related]
    return Diagnostic(_loc_key(d.loc, cols, d.char_cols), d.severity, d.kind, d.message, related)


# Hover entries of unchanged code are the same from one keystroke to the next: kept by
# the identity of the records they are made of (cached compilations share them).
_ENTRIES: "OrderedDict[tuple, HoverEntry]" = OrderedDict()
_ENTRIES_SIZE = 4096


def _hover_entry(lines: List[str], s: Summary, key: Key, records: List[Record], name: str,
                 cols: Columns) -> HoverEntry:
    label = _source_text(lines, key, cols) or name
    memo = (label, name, *records)
    entry = _ENTRIES.get(memo)
    if entry is None:
        entry = _ENTRIES[memo] = _new_entry(label, name, records)
        if len(_ENTRIES) > _ENTRIES_SIZE:
            _ENTRIES.popitem(last=False)
    if entry.doc is not None and entry.doc not in s.docs:
        s.docs[entry.doc] = DOCS.get(entry.doc, "")
    return entry


def _new_entry(label: str, name: str, records: List[Record]) -> HoverEntry:
    variants: Dict[str, List[str]] = {}
    type_classes: List[str] = []
    for r in records:
        sigs = variants.setdefault(r.text, [])
        sig = f"{r.kernel}({r.signature})"
        if sig not in sigs:
            sigs.append(sig)
        if r.type_class is not None and r.type_class not in type_classes:
            type_classes.append(r.type_class)
    doc = records[-1].doc if records else None
    return HoverEntry(label, list(variants.items())[:MAX_VARIANTS], doc, name, tuple(type_classes))


def _source_text(lines: List[str], key: Key, cols: Columns) -> str:
    l0, c0, l1, c1 = key
    if l0 != l1 or not 0 < l0 <= len(lines):
        return ""
    line = lines[l0 - 1]
    if cols.identity or line.isascii():
        text = line[c0 - 1:c1 - 1]
    else:
        data = line.encode("utf-8", "surrogatepass")[c0 - 1:c1 - 1]
        text = data.decode("utf-8", "replace")
    return text if len(text) <= 80 else text[:77] + "..."


# ---- inlay hints -------------------------------------------------------------------

def _hint_label(records: List[Record]) -> Optional[str]:
    texts = []
    for r in records:
        t = r.hint
        if t is None:
            return None
        if t not in texts:
            texts.append(t)
    return " | ".join(texts[:MAX_VARIANTS]) if texts else None


def _inlay_hints(an: Analysis, cols: Columns) -> List[Hint]:
    out = []
    params = _param_keys(an)
    for key, records in an.bindings.items():
        if key in params:
            continue
        label = _hint_label(records)
        if label:
            out.append(Hint(key[2], cols.char(key[2], key[3]), f": {label}"))
    out.extend(_loop_hints(an, cols))
    out.sort(key=lambda h: (h.line, h.col))
    return out


def _param_keys(an: Analysis):
    keys = set()
    for node in an.tile_functions.values():
        a = node.args
        for arg in a.posonlyargs + a.args + a.kwonlyargs:
            keys.add((arg.lineno, arg.col_offset + 1, arg.end_lineno, arg.end_col_offset + 1))
    return keys


def _loop_hints(an: Analysis, cols: Columns) -> List[Hint]:
    """After a loop header: the types of the variables the loop carries."""
    out = []
    by_name: Dict[str, List[Tuple[int, List[Record]]]] = {}
    for key, recs in an.bindings.items():
        by_name.setdefault(an.binding_names.get(key, ""), []).append((key[0], recs))
    for fname, fn in an.tile_functions.items():
        facts = an.facts[fname]
        if facts.carried is None:
            facts.carried = [(loop, _carried_names(loop)) for loop in facts.loops]
        for node, carried in facts.carried:
            end = node.end_lineno or node.lineno
            parts = []
            for name in carried:
                entries = by_name.get(name, [])
                before = [e for e in entries if fn.lineno <= e[0] < node.lineno]
                inside = [r for ln, recs in entries if node.lineno <= ln <= end for r in recs]
                if not before or not inside:
                    continue       # not carried: defined only inside the loop
                label = _hint_label(inside)
                if label:
                    parts.append(f"{name}: {label}")
            if parts:
                header_end = node.body[0].lineno - 1 if node.body[0].lineno > node.lineno else node.lineno
                src = an.lines[header_end - 1] if header_end - 1 < len(an.lines) else ""
                out.append(Hint(header_end, cols.char_from_chars(header_end, len(src.rstrip()) + 1),
                                "  carries " + ", ".join(parts)))
    return out


def _carried_names(loop) -> List[str]:
    """Names the loop body reads before assigning them (in evaluation order): their value
    flows from one iteration to the next."""
    first_store: Dict[str, int] = {}
    first_load: Dict[str, int] = {}
    counter = [0]

    def note(table, name):
        counter[0] += 1
        table.setdefault(name, counter[0])

    def visit(node):
        if isinstance(node, ast.Assign):
            visit(node.value)
            for t in node.targets:
                visit(t)
        elif isinstance(node, ast.AugAssign):
            if isinstance(node.target, ast.Name):
                note(first_load, node.target.id)
            visit(node.value)
            visit(node.target)
        elif isinstance(node, ast.AnnAssign):
            if node.value is not None:
                visit(node.value)
            visit(node.target)
        elif isinstance(node, ast.For):
            visit(node.iter)
            visit(node.target)
            for stmt in node.body + node.orelse:
                visit(stmt)
        elif isinstance(node, ast.Name):
            note(first_store if isinstance(node.ctx, ast.Store) else first_load, node.id)
        else:
            for child in ast.iter_child_nodes(node):
                visit(child)

    if isinstance(loop, ast.While):
        visit(loop.test)
    for stmt in loop.body + (loop.orelse or []):
        visit(stmt)
    if isinstance(loop, ast.While):
        visit(loop.test)      # the condition is evaluated again after the body
    return [n for n in first_store if n in first_load and first_load[n] < first_store[n]]


# ---- functions and module-level names -------------------------------------------------

def _node_key(node, cols: Columns) -> Key:
    end_line = getattr(node, "end_lineno", None) or node.lineno
    end_col = getattr(node, "end_col_offset", None)
    return cols.key((node.lineno, node.col_offset + 1, end_line,
                     (end_col if end_col is not None else node.col_offset + 1) + 1))


def _def_name_key(node, an: Analysis, cols: Columns) -> Key:
    """The range of the name in `def name(` / `class name`."""
    src = an.lines[node.lineno - 1] if 0 < node.lineno <= len(an.lines) else ""
    data = src.encode("utf-8", "surrogatepass")
    start = data.find(node.name.encode(), node.col_offset)
    if start < 0:
        return cols.key((node.lineno, node.col_offset + 1, node.lineno, node.col_offset + 1))
    return cols.key((node.lineno, start + 1, node.lineno, start + 1 + len(node.name.encode())))


def _param_labels(node) -> List[str]:
    a = node.args
    pos = a.posonlyargs + a.args
    defaults = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    labels = [arg.arg + ("" if d is None else "=" + _unparse(d)) for arg, d in zip(pos, defaults)]
    if a.vararg:
        labels.append("*" + a.vararg.arg)
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        labels.append(arg.arg + ("" if d is None else "=" + _unparse(d)))
    if a.kwarg:
        labels.append("**" + a.kwarg.arg)
    return labels


def _unparse(node) -> str:
    try:
        text = ast.unparse(node)
    except Exception:
        return "..."
    return text if len(text) <= 40 else text[:37] + "..."


def _functions(an: Analysis, cols: Columns) -> Dict[str, FunctionInfo]:
    out: Dict[str, FunctionInfo] = {}
    known = an.static.functions
    todo = [(an.facts[name] if an.facts is not None else function_facts(fn.node)) for name, fn in known.items()]
    for stmt in an.static.tree.body:     # defs the static reader did not bind (class bodies, unknown branches)
        if not (isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name in known):
            todo.extend(function_facts(n) for n in ast.walk(stmt) if isinstance(n, (ast.FunctionDef,
                                                                                    ast.AsyncFunctionDef)))
    for facts in todo:
        node = facts.node
        if node.name in out:
            continue
        info = FunctionInfo(node.name, node.lineno, node.end_lineno or node.lineno,
                            node.name in an.tile_functions, _def_name_key(node, an, cols), _param_labels(node))
        a = node.args
        for arg in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
            info.locals.setdefault(arg.arg, _node_key(arg, cols))
        for n in sorted(facts.stores, key=lambda n: (n.lineno, n.col_offset)):
            info.locals.setdefault(n.id, _node_key(n, cols))
        for sub in facts.nested:
            info.locals[sub.name] = _def_name_key(sub, an, cols)
        out[node.name] = info
        todo.extend(function_facts(sub) for sub in facts.nested if sub.name not in out)
    return out


def _lang_paths() -> Dict[int, str]:
    """id() of every public object of tilescope.lang (and enum member) -> its dotted path."""
    paths = {id(lang): ""}
    for name in dir(lang):
        if name.startswith("_"):
            continue
        try:
            value = getattr(lang, name)
        except AttributeError:
            continue
        paths.setdefault(id(value), name)
        if isinstance(value, type) and issubclass(value, enum.Enum):
            for member in value:
                paths.setdefault(id(member), f"{name}.{member.name}")
    return paths


_LANG_PATHS: Optional[Dict[int, str]] = None


def _symbols(an: Analysis, cols: Columns, s: Summary) -> Dict[str, Symbol]:
    global _LANG_PATHS
    if _LANG_PATHS is None:
        _LANG_PATHS = _lang_paths()
    out = {}
    for name, value in an.static.globals.items():
        if name.startswith("__"):
            continue
        node = an.static.definitions.get(name)
        definition = None
        if node is not None:
            definition = _def_name_key(node, an, cols) if isinstance(
                node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else _node_key(node, cols)
        sym = Symbol(describe(value), definition=definition)
        if isinstance(value, UnknownValue):
            sym.unknown = True
        elif isinstance(value, SourceFunction):
            sym.function = name if name in s.functions else None
        elif id(value) in _LANG_PATHS:
            sym.lang_path = _LANG_PATHS[id(value)]
        elif isinstance(value, types.ModuleType) and (value.__name__.startswith("tilescope")
                                                      or value.__name__ in SAFE_MODULES):
            sym.module = value.__name__
        elif isinstance(value, types.ModuleType) and hasattr(value, "tile"):
            sym.module = "cuda"         # `import cuda.tile` binds the package `cuda`
        out[name] = sym
    return out
