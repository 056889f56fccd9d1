"""Hover, inlay hints, completion, signature help and go-to-definition on a `Summary`.

Runs in the server process on plain data (summary.py): the only live objects it looks
at are tilescope's own (`tilescope.lang`, its enums and functions) and pure standard
modules. Positions are 1-based (line, col) with code-point columns; the server converts
from and to the client's encoding.
"""
from __future__ import annotations

import enum
import inspect
import re
import sys
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

from ... import dtypes as D
from ... import lang
from ...frontend.static_module import _cuda_package, _Unknown, safe_getattr
from ...ir import types as irt
from ...ir.types import ArrayType, TileType
from ...ops.registry import ATTRIBUTES, METHODS, SurfaceFunction
from .describe import describe, doc_of
from .records import KERNEL_COST
from .summary import FunctionInfo, HoverEntry, Key, Summary, Symbol

_MISSING = object()


# ---- resolving dotted names ------------------------------------------------------

def _module(name: str):
    if name == "cuda":
        return _cuda_package()
    return sys.modules.get(name)      # imported by tilescope already: nothing new is loaded


def resolve(s: Summary, dotted: str) -> Any:
    """A live tilescope/stdlib object, a `Symbol` (a value known only by description), or _MISSING."""
    parts = dotted.split(".")
    sym = s.symbols.get(parts[0])
    if sym is None or sym.unknown:
        return _MISSING
    if sym.lang_path is not None:
        value = lang
        for p in [p for p in sym.lang_path.split(".") if p]:
            value = getattr(value, p)
    elif sym.module is not None:
        value = _module(sym.module)
        if value is None:
            return _MISSING
    else:
        return sym if len(parts) == 1 else _MISSING
    for p in parts[1:]:
        try:
            value = safe_getattr(value, p)
        except _Unknown:
            return _MISSING
    return value


def _text_of(value: Any) -> str:
    return value.text if isinstance(value, Symbol) else describe(value)


# ---- hover ---------------------------------------------------------------------

@dataclass
class HoverResult:
    markdown: str
    range: Key


# Extra hover sections: functions (summary, line, col) -> markdown or None, appended in order.
HOVER_SECTIONS: List[Callable[[Summary, int, int], Optional[str]]] = []


def hover(s: Summary, line: int, col: int) -> Optional[HoverResult]:
    result = _kernel_cost_hover(s, line, col) or _recorded_hover(s, line, col) or _static_hover(s, line, col)
    extra = [text for text in (f(s, line, col) for f in HOVER_SECTIONS) if text]
    if not extra:
        return result
    if result is None:
        return HoverResult("\n\n".join(extra), (line, col, line, col + 1))
    return HoverResult("\n\n".join([result.markdown] + extra), result.range)


def _kernel_cost_hover(s: Summary, line: int, col: int) -> Optional[HoverResult]:
    """On a kernel's name where it is defined: its predicted cost (tilescope.costmodel, computed
    by the worker for the kernel's first signature)."""
    for name, (sig, text) in s.extras.get(KERNEL_COST, {}).items():
        fn = s.functions.get(name)
        if fn is not None and _inside(fn.name_range, line, col):
            return HoverResult(f"```python\n{name}({sig})\n```\n\n{text}", fn.name_range)
    return None


def _inside(k: Key, line: int, col: int) -> bool:
    return (k[0], k[1]) <= (line, col) < (k[2], k[3])


def innermost(table: Dict[Key, Any], line: int, col: int) -> Optional[Tuple[Key, Any]]:
    """The smallest recorded range containing the 1-based (line, col)."""
    best = None
    best_size = None
    for k, entry in table.items():
        l0, c0, l1, c1 = k
        if (line, col) < (l0, c0) or (line, col) >= (l1, c1):
            continue
        size = _size(k)
        if best_size is None or size < best_size:
            best, best_size = (k, entry), size
    return best


def _size(k: Key):
    return (k[2] - k[0], k[3] - k[1] if k[2] == k[0] else k[3])


def _recorded_hover(s: Summary, line: int, col: int) -> Optional[HoverResult]:
    hit_b = innermost(s.bindings, line, col)
    hit_e = innermost(s.exprs, line, col)
    hit = hit_b if hit_b is not None else hit_e
    if hit_b is not None and hit_e is not None and _size(hit_e[0]) < _size(hit_b[0]):
        hit = hit_e
    if hit is None:
        return None
    key, entry = hit
    return HoverResult(entry_markdown(s, entry), key)


def entry_markdown(s: Summary, entry: HoverEntry) -> str:
    body = []
    if len(entry.variants) == 1:
        body.append(f"```python\n{entry.label}: {entry.variants[0][0]}\n```")
    else:
        body.append(f"```python\n{entry.label}\n```")
        for text, sigs in entry.variants:
            body.append(f"- `{text}` — in {', '.join(sigs[:2])}")
    if entry.doc and s.docs.get(entry.doc):
        body.append(s.docs[entry.doc])
    return "\n\n".join(body)


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def word_at(text_line: str, col: int) -> Optional[Tuple[int, int, str]]:
    """(start col, end col, dotted expression up to the word) around 1-based `col`."""
    for m in _WORD.finditer(text_line):
        if m.start() <= col - 1 < m.end() or (m.end() == col - 1 and col - 1 == len(text_line)):
            j = m.start()
            # extend left over `a.b.` chains
            while j > 0 and text_line[j - 1] == ".":
                mm = re.search(r"[A-Za-z_][A-Za-z0-9_]*$", text_line[:j - 1])
                if not mm:
                    break
                j = mm.start()
            return m.start() + 1, m.end() + 1, text_line[j:m.end()]
    return None


def _word_at_position(s: Summary, line: int, col: int):
    """word_at on the document's 1-based `line` (start, end, dotted name), or None off the text."""
    if not 0 < line <= len(s.lines):
        return None
    return word_at(s.lines[line - 1], col)


def _static_hover(s: Summary, line: int, col: int) -> Optional[HoverResult]:
    """No recorded value here: describe `ct.*` names and module-level values from the source alone."""
    w = _word_at_position(s, line, col)
    if w is None:
        return None
    start, end, dotted = w
    value = resolve(s, dotted)
    rng = (line, start, line, end)
    if value is not _MISSING:
        body = [f"```python\n{dotted}: {_text_of(value)}\n```"]
        doc = None if isinstance(value, Symbol) else doc_of(value)
        if doc:
            body.append(doc)
        return HoverResult("\n\n".join(body), rng)
    fn = enclosing_function(s, line)
    if fn is not None and fn.is_tile:
        reason = "no argument metadata for the kernel" if not s.compiled_kernels else \
            "not reached by the analysed kernels"
        return HoverResult(f"```python\n{dotted}\n```\n\ntype unknown ({reason})", rng)
    return None


def enclosing_function(s: Summary, line: int) -> Optional[FunctionInfo]:
    best = None
    for fn in s.functions.values():
        if fn.first_line <= line <= fn.last_line and (best is None or fn.first_line >= best.first_line):
            best = fn
    return best


# ---- inlay hints ---------------------------------------------------------------

def inlay_hints(s: Summary, first_line: int = 1, last_line: int = 1 << 30):
    return [h for h in s.hints if first_line <= h.line <= last_line]


# ---- completion and signature help ---------------------------------------------

@dataclass
class CompletionItem:
    label: str
    kind: str             # function, constant, enum, module, property, method, keyword, class, variable
    detail: str = ""
    documentation: str = ""
    insert_text: Optional[str] = None


_TRAILING_DOTTED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\.([A-Za-z0-9_]*)$")


def completions(s: Summary, before: str, line: int) -> List[CompletionItem]:
    """Items for the cursor after `before` (the text before it, up to 20 lines) on 1-based `line`."""
    last_line = before.rsplit("\n", 1)[-1]
    m = _TRAILING_DOTTED.search(last_line)
    if m:
        return _attribute_completions(s, m.group(1), line)
    call = call_context(before)
    if call is not None:
        items = _keyword_completions(s, resolve(s, call[0]))
        if items:
            return items + _name_completions(s)
    return _name_completions(s)


def _attribute_completions(s: Summary, base: str, line: int) -> List[CompletionItem]:
    value = resolve(s, base)
    if value is not _MISSING and not isinstance(value, Symbol):
        if inspect.ismodule(value) and value.__name__ == "tilescope.lang":
            return tile_module_items()
        if isinstance(value, type) and issubclass(value, enum.Enum):
            return [CompletionItem(m.name, "enum", f"{value.__name__}.{m.name}") for m in value]
        if inspect.ismodule(value):
            return [CompletionItem(n, "property") for n in dir(value) if not n.startswith("_")]
        return []
    # A local of a tile function: the methods and attributes of its recorded type.
    if "." not in base:
        return value_member_items(_local_types(s, base, line))
    return []


def _local_types(s: Summary, name: str, line: int) -> List[type]:
    found = []
    for key, entry in s.bindings.items():
        if entry.name == name and key[0] <= line:
            for t in entry.types:
                cls = getattr(irt, t, None)
                if isinstance(cls, type) and cls not in found:
                    found.append(cls)
    return found


def value_member_items(type_classes: List[type]) -> List[CompletionItem]:
    if not type_classes:
        type_classes = [TileType, ArrayType]     # type unknown: offer both
    items: Dict[str, CompletionItem] = {}
    for (cls, name), target in METHODS.items():
        if cls in type_classes and not name.startswith("_"):
            detail = f"{cls.__name__.replace('Type', '')}.{name}"
            doc = ""
            if isinstance(target, SurfaceFunction):
                detail += str(_without_first(target.signature))
                doc = inspect.cleandoc(target.__doc__ or "")
            items.setdefault(name, CompletionItem(name, "method", detail, doc))
    for (cls, name), getter in ATTRIBUTES.items():
        if cls in type_classes and not name.startswith("_"):
            items.setdefault(name, CompletionItem(name, "property", f"{cls.__name__.replace('Type', '')}.{name}",
                                                  inspect.cleandoc(getter.__doc__ or "")))
    return sorted(items.values(), key=lambda i: i.label)


def _without_first(sig: inspect.Signature) -> inspect.Signature:
    params = list(sig.parameters.values())
    return sig.replace(parameters=params[1:]) if params else sig


_TILE_ITEMS: Optional[List[CompletionItem]] = None


def tile_module_items() -> List[CompletionItem]:
    global _TILE_ITEMS
    if _TILE_ITEMS is None:
        items = []
        for name in dir(lang):
            if name.startswith("_") or name in ("OPERATION_NAMES", "foreign_pointer_dtype"):
                continue
            try:
                value = getattr(lang, name)
            except AttributeError:
                continue
            if inspect.ismodule(value):
                continue
            if isinstance(value, SurfaceFunction):
                items.append(CompletionItem(name, "function", f"ct.{name}{value.signature}",
                                            inspect.cleandoc(value.__doc__ or "")))
            elif isinstance(value, D.DType):
                items.append(CompletionItem(name, "constant", f"dtype {value.name}"))
            elif isinstance(value, type) and issubclass(value, enum.Enum):
                items.append(CompletionItem(name, "enum", f"enum {name}", inspect.cleandoc(value.__doc__ or "")))
            elif isinstance(value, type):
                items.append(CompletionItem(name, "class", f"class {name}", inspect.cleandoc(value.__doc__ or "")))
            else:
                items.append(CompletionItem(name, "function" if callable(value) else "constant", name,
                                            inspect.cleandoc(getattr(value, "__doc__", "") or "")
                                            if callable(value) else ""))
        _TILE_ITEMS = items
    return _TILE_ITEMS


def _name_completions(s: Summary) -> List[CompletionItem]:
    return [CompletionItem(name, "module" if sym.module or sym.lang_path == "" else "variable", sym.text)
            for name, sym in s.symbols.items()]


def _signature_labels(s: Summary, fn: Any) -> Optional[List[str]]:
    """`name=default` labels of a tilescope function or a module-level def."""
    if isinstance(fn, SurfaceFunction):
        return [_param_label(p) for p in fn.signature.parameters.values()]
    if isinstance(fn, Symbol) and fn.function in s.functions:
        return list(s.functions[fn.function].params)
    return None


def _keyword_completions(s: Summary, fn: Any) -> List[CompletionItem]:
    if isinstance(fn, SurfaceFunction):
        labels = [_param_label(p) for p in fn.signature.parameters.values()
                  if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    else:
        labels = [lab for lab in _signature_labels(s, fn) or () if not lab.startswith("*")]
    items = []
    for label in labels:
        name, _, default = label.partition("=")
        detail = name + (f" (default {default})" if default else "")
        items.append(CompletionItem(f"{name}=", "keyword", detail, insert_text=f"{name}="))
    return items


def call_context(text: str) -> Optional[Tuple[str, int, List[str]]]:
    """For text ending inside a call: (callee dotted name, index of the current argument,
    keyword names already given), or None."""
    depth = 0
    commas = 0
    keywords: List[str] = []
    i = len(text) - 1
    quote = None
    seg_end = len(text)
    while i >= 0:
        c = text[i]
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c in ")]}":
            depth += 1
        elif c in "([{":
            if depth == 0:
                if c != "(":
                    return None
                m = re.search(r"([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*$", text[:i])
                if not m:
                    return None
                _collect_keyword(text[i + 1:seg_end], keywords)
                return m.group(1), commas, keywords
            depth -= 1
        elif c == "," and depth == 0:
            _collect_keyword(text[i + 1:seg_end], keywords)
            seg_end = i
            commas += 1
        i -= 1
    return None


def _collect_keyword(segment: str, keywords: List[str]) -> None:
    m = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)", segment)
    if m:
        keywords.append(m.group(1))


@dataclass
class SignatureHelp:
    label: str
    documentation: str
    parameters: List[str]
    active_parameter: int


def signature_help(s: Summary, text_before: str) -> Optional[SignatureHelp]:
    ctx = call_context(text_before)
    if ctx is None:
        return None
    callee, index, _ = ctx
    fn = resolve(s, callee)
    labels = _signature_labels(s, fn)
    if labels is None:
        return None
    names = [lab.lstrip("*").partition("=")[0] for lab in labels]
    active = min(index, max(0, len(labels) - 1))
    # When the current argument is a keyword, point at that parameter.
    current = re.search(r"(?:^|[,(])\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)[^,]*$", text_before)
    if current:
        if current.group(1) in names:
            active = names.index(current.group(1))
    else:
        star = next((i for i, lab in enumerate(labels) if lab.startswith("*") and not lab.startswith("**")), None)
        if star is not None and star <= index:
            active = star
    doc = None if isinstance(fn, Symbol) else doc_of(fn)
    prefix = "ct." if doc is not None else ""
    return SignatureHelp(f"{prefix}{callee.split('.')[-1]}({', '.join(labels)})", doc or "", labels, active)


def _param_label(p: inspect.Parameter) -> str:
    """`name=default` with enum defaults written as in source (`PaddingMode.ZERO`)."""
    d = p.default
    if isinstance(d, enum.Enum):
        d_text = f"{type(d).__name__}.{d.name}"
    elif d is p.empty:
        d_text = None
    else:
        d_text = repr(d)
    prefix = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "")
    return f"{prefix}{p.name}" + ("" if d_text is None else f"={d_text}")


# ---- go to definition ------------------------------------------------------------

def definition(s: Summary, line: int, col: int) -> Optional[Tuple[Optional[str], Key]]:
    """(file path, or None for this document; range) of what the name at the position refers to."""
    w = _word_at_position(s, line, col)
    if w is None:
        return None
    _, _, dotted = w
    parts = dotted.split(".")
    if len(parts) == 1:
        name = parts[0]
        fn = enclosing_function(s, line)
        if fn is not None and name in fn.locals:
            return None, fn.locals[name]
        sym = s.symbols.get(name)
        if sym is not None and sym.definition is not None:
            return None, sym.definition
        return None
    value = resolve(s, dotted)
    if value is _MISSING or isinstance(value, Symbol):
        return None
    target = getattr(value, "__wrapped__", None) or value
    try:
        path = inspect.getsourcefile(target)
        _, first = inspect.getsourcelines(target)
    except (TypeError, OSError):
        return None
    return (path, (first, 1, first, 1)) if path else None
