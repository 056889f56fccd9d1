"""Hover, inlay hints, completion, signature help and go-to-definition on an `Analysis`.

Positions here are 1-based (line, col) like `Loc`; the server converts from LSP's 0-based ones.
"""
from __future__ import annotations

import ast
import enum
import inspect
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from ... import dtypes as D
from .analysis import Analysis, Record, innermost

MAX_VARIANTS = 4


# ---- describing abstract values ------------------------------------------------

def describe(value: Any) -> str:
    """A short cuTile-flavoured type of an abstract value."""
    from ...ir.core import Value
    from ...frontend.source import SourceFunction
    from ...ops.registry import SurfaceFunction
    from ...passes.infer import BoundMethod, Closure, RangeValue
    if isinstance(value, Value):
        text = str(value.type)
        if value.const is not None:
            text += f"  (strict constant = {value.const!r})"
        return text
    if isinstance(value, bool) or value is None:
        return f"loose constant {type(value).__name__} = {value!r}"
    if isinstance(value, (int, float)) and not isinstance(value, enum.Enum):
        return f"loose constant {type(value).__name__} = {value!r}"
    if isinstance(value, str):
        return f"constant str = {value!r}"
    if isinstance(value, D.DType):
        return f"dtype {value.name}"
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, tuple):
        if all(isinstance(v, (bool, int, float, str, type(None))) for v in value):
            return f"loose constant tuple = {value!r}"
        inner = ", ".join(describe(v) for v in value[:8])
        return "(" + inner + (", ..." if len(value) > 8 else "") + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, SurfaceFunction):
        return f"function ct.{value.name}{value.signature}"
    if isinstance(value, BoundMethod):
        target = value.target
        name = getattr(target, "name", getattr(target, "__name__", "method"))
        return f"method {name} of {describe(value.self_value)}"
    if isinstance(value, SourceFunction):
        kind = "kernel" if value.is_kernel else "function"
        return f"{kind} {value.__name__}{_ast_sig_text(value.node)}"
    if isinstance(value, Closure):
        return f"function {value.__name__} (nested)"
    if isinstance(value, RangeValue):
        return "range"
    if inspect.ismodule(value):
        return "module cuda.tile" if value.__name__ == "tilescope.lang" else f"module {value.__name__}"
    if isinstance(value, type):
        return f"class {value.__name__}"
    return type(value).__name__


def _ast_sig_text(node) -> str:
    try:
        return "(" + ast.unparse(node.args) + ")"
    except Exception:
        return "(...)"


def _variants(records: List[Record]) -> List[Tuple[str, List[str]]]:
    """Distinct descriptions with the kernel signatures that produced them."""
    out: Dict[str, List[str]] = {}
    for r in records:
        out.setdefault(describe(r.value), [])
        label = f"{r.kernel}({r.signature})"
        if label not in out[describe(r.value)]:
            out[describe(r.value)].append(label)
    return list(out.items())


def doc_of(value: Any) -> Optional[str]:
    from ...ops.registry import SurfaceFunction
    from ...passes.infer import BoundMethod
    if isinstance(value, BoundMethod):
        value = value.target
    if isinstance(value, SurfaceFunction):
        return inspect.cleandoc(value.__doc__ or "")
    return None


# ---- hover ---------------------------------------------------------------------

@dataclass
class HoverResult:
    markdown: str
    range: Tuple[int, int, int, int]     # 1-based, end exclusive


def hover(an: Analysis, line: int, col: int) -> Optional[HoverResult]:
    cost = _kernel_cost_hover(an, line, col)
    if cost is not None:
        return cost
    hit_b = innermost(an.bindings, line, col)
    hit_e = innermost(an.exprs, line, col)
    hit = hit_b if hit_b is not None else hit_e
    if hit_b is not None and hit_e is not None and _size(hit_e[0]) < _size(hit_b[0]):
        hit = hit_e
    if hit is not None:
        key, records = hit
        label = _source_text(an, key) or an.binding_names.get(key, "")
        variants = _variants(records)
        body = []
        if len(variants) == 1:
            body.append(f"```python\n{label}: {variants[0][0]}\n```")
        else:
            body.append(f"```python\n{label}\n```")
            for text, sigs in variants[:MAX_VARIANTS]:
                body.append(f"- `{text}` — in {', '.join(sigs[:2])}")
        doc = doc_of(records[-1].value)
        if doc:
            body.append(doc)
        return HoverResult("\n\n".join(body), key)
    return _static_hover(an, line, col)


def _kernel_cost_hover(an: Analysis, line: int, col: int) -> Optional[HoverResult]:
    """On a kernel's name where it is defined: its predicted cost (tilescope.costmodel)."""
    w = word_at(an.lines[line - 1], col) if line - 1 < len(an.lines) else None
    fn = an.static.functions.get(w[2]) if w is not None and w[2] in an.static.kernels else None
    sigs = an.signatures.get(w[2]) if fn is not None and getattr(fn.node, "lineno", None) == line else None
    if not sigs or w[2] not in an.compiled_kernels:
        return None
    from ...costmodel import kernel_hover
    text = kernel_hover(fn, sigs[0].specs)
    return HoverResult(f"```python\n{w[2]}({sigs[0].text})\n```\n\n{text}", (line, w[0], line, w[1])) \
        if text else None


def _size(k):
    return (k[2] - k[0], k[3] - k[1] if k[2] == k[0] else k[3])


def _source_text(an: Analysis, key) -> str:
    l0, c0, l1, c1 = key
    if l0 != l1 or l0 - 1 >= len(an.lines):
        return ""
    text = an.lines[l0 - 1][c0 - 1:c1 - 1]
    return text if len(text) <= 80 else text[:77] + "..."


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def word_at(text_line: str, col: int) -> Optional[Tuple[int, int, str]]:
    """(start col, end col, dotted expression up to the word) around 1-based `col`."""
    for m in _WORD.finditer(text_line):
        if m.start() <= col - 1 < m.end() or (m.end() == col - 1 and col - 1 == len(text_line)):
            start = m.start()
            # extend left over `a.b.` chains
            j = start
            while j > 0 and text_line[j - 1] == ".":
                mm = re.search(r"[A-Za-z_][A-Za-z0-9_]*$", text_line[:j - 1])
                if not mm:
                    break
                j = mm.start()
            return m.start() + 1, m.end() + 1, text_line[j:m.end()]
    return None


def _static_hover(an: Analysis, line: int, col: int) -> Optional[HoverResult]:
    """No recorded value here: describe `ct.*` names and module-level values from the source alone."""
    if line - 1 >= len(an.lines):
        return None
    w = word_at(an.lines[line - 1], col)
    if w is None:
        return None
    start, end, dotted = w
    value = resolve_dotted(an, dotted)
    rng = (line, start, line, end)
    if value is not _MISSING:
        body = [f"```python\n{dotted}: {describe(value)}\n```"]
        doc = doc_of(value)
        if doc:
            body.append(doc)
        return HoverResult("\n\n".join(body), rng)
    fn = enclosing_function(an, line)
    if fn is not None and fn.name in an.tile_functions:
        reason = "no argument metadata for the kernel" if not an.compiled_kernels else \
            "not reached by the analysed kernels"
        return HoverResult(f"```python\n{dotted}\n```\n\ntype unknown ({reason})", rng)
    return None


_MISSING = object()


def resolve_dotted(an: Analysis, dotted: str) -> Any:
    from ...frontend.static_module import UnknownValue, _Unknown, safe_getattr
    parts = dotted.split(".")
    env = an.static.globals
    if parts[0] not in env:
        return _MISSING
    value = env[parts[0]]
    for p in parts[1:]:
        if isinstance(value, UnknownValue):
            return _MISSING
        try:
            value = safe_getattr(value, p)
        except _Unknown:
            return _MISSING
    if isinstance(value, UnknownValue):
        return _MISSING
    return value


def enclosing_function(an: Analysis, line: int):
    best = None
    for node in ast.walk(an.static.tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                node.lineno <= line <= (node.end_lineno or node.lineno):
            if best is None or node.lineno >= best.lineno:
                best = node
    return best


# ---- inlay hints ---------------------------------------------------------------

@dataclass
class InlayHint:
    line: int
    col: int          # 1-based; the hint goes before this column
    label: str


def _short_type(value) -> Optional[str]:
    from ...ir.core import Value
    if isinstance(value, Value):
        return str(value.type)
    if isinstance(value, tuple) and value and all(isinstance(v, Value) for v in value):
        return "(" + ", ".join(str(v.type) for v in value) + ")"
    return None


def _hint_label(records: List[Record]) -> Optional[str]:
    texts = []
    for r in records:
        t = _short_type(r.value)
        if t is None:
            return None
        if t not in texts:
            texts.append(t)
    return " | ".join(texts[:MAX_VARIANTS]) if texts else None


def inlay_hints(an: Analysis, first_line: int = 1, last_line: int = 1 << 30) -> List[InlayHint]:
    out = []
    params = _param_keys(an)
    for key, records in an.bindings.items():
        if not first_line <= key[0] <= last_line or key in params:
            continue
        label = _hint_label(records)
        if label:
            out.append(InlayHint(key[2], key[3], f": {label}"))
    out.extend(_loop_hints(an, first_line, last_line))
    out.sort(key=lambda h: (h.line, h.col))
    return out


def _param_keys(an: Analysis):
    keys = set()
    for node in an.tile_functions.values():
        a = node.args
        for arg in a.posonlyargs + a.args + a.kwonlyargs:
            keys.add((arg.lineno, arg.col_offset + 1, arg.end_lineno, arg.end_col_offset + 1))
    return keys


def _loop_hints(an: Analysis, first_line: int, last_line: int) -> List[InlayHint]:
    """After a loop header: the types of the variables the loop carries."""
    out = []
    by_name: Dict[str, List[Tuple[int, List[Record]]]] = {}
    for key, recs in an.bindings.items():
        by_name.setdefault(an.binding_names.get(key, ""), []).append((key[0], recs))
    for fn in an.tile_functions.values():
        for node in ast.walk(fn):
            if not isinstance(node, (ast.For, ast.While)) or not first_line <= node.lineno <= last_line:
                continue
            end = node.end_lineno or node.lineno
            assigned = _carried_names(node)
            parts = []
            for name in assigned:
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
                out.append(InlayHint(header_end, len(src.rstrip()) + 1, "  carries " + ", ".join(parts)))
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


def _in_target(target, name_node) -> bool:
    return any(n is name_node for n in ast.walk(target))


# ---- completion and signature help ---------------------------------------------

@dataclass
class CompletionItem:
    label: str
    kind: str             # function, constant, enum, module, property, method, keyword, class
    detail: str = ""
    documentation: str = ""
    insert_text: Optional[str] = None


_TRAILING_DOTTED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\.([A-Za-z0-9_]*)$")


def completions(an: Analysis, text_line: str, line: int, col: int) -> List[CompletionItem]:
    before = text_line[:col - 1]
    m = _TRAILING_DOTTED.search(before)
    if m:
        return _attribute_completions(an, m.group(1), line)
    call = call_context(before_cursor_text(an, text_line, line, col))
    if call is not None:
        fn = resolve_dotted(an, call[0])
        items = _keyword_completions(fn)
        if items:
            return items + _name_completions(an)
    return _name_completions(an)


def before_cursor_text(an: Analysis, text_line: str, line: int, col: int, max_lines: int = 20) -> str:
    start = max(0, line - 1 - max_lines)
    prev = an.lines[start:line - 1] if line - 1 <= len(an.lines) else []
    return "\n".join(prev + [text_line[:col - 1]])


def _attribute_completions(an: Analysis, base: str, line: int) -> List[CompletionItem]:
    from ...frontend.static_module import UnknownValue
    value = resolve_dotted(an, base)
    if value is not _MISSING and not isinstance(value, UnknownValue):
        if inspect.ismodule(value) and value.__name__ == "tilescope.lang":
            return tile_module_items()
        if isinstance(value, type) and issubclass(value, enum.Enum):
            return [CompletionItem(m.name, "enum", f"{value.__name__}.{m.name}") for m in value]
        if inspect.ismodule(value):
            return [CompletionItem(n, "property") for n in dir(value) if not n.startswith("_")]
        return []
    # A local of a tile function: the methods and attributes of its recorded type.
    if "." not in base:
        types_ = _local_types(an, base, line)
        return value_member_items(types_)
    return []


def _local_types(an: Analysis, name: str, line: int) -> List[type]:
    from ...ir.core import Value
    found = []
    for key, recs in an.bindings.items():
        if an.binding_names.get(key) == name and key[0] <= line:
            for r in recs:
                if isinstance(r.value, Value) and type(r.value.type) not in found:
                    found.append(type(r.value.type))
    return found


def value_member_items(type_classes: List[type]) -> List[CompletionItem]:
    from ...ir.types import ArrayType, TileType
    from ...ops.registry import ATTRIBUTES, METHODS, SurfaceFunction
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
        from ... import lang
        from ...ops.registry import SurfaceFunction
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


def _name_completions(an: Analysis) -> List[CompletionItem]:
    out = []
    for name, value in an.static.globals.items():
        if name.startswith("__"):
            continue
        out.append(CompletionItem(name, "module" if inspect.ismodule(value) else "variable", describe(value)))
    return out


def _keyword_completions(fn) -> List[CompletionItem]:
    from ...ops.registry import SurfaceFunction
    from ...frontend.source import SourceFunction
    sig = _signature_of(fn)
    if sig is None:
        return []
    items = []
    for p in sig.parameters.values():
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            default = "" if p.default is p.empty else f" (default {p.default!r})"
            items.append(CompletionItem(f"{p.name}=", "keyword", f"{p.name}{default}", insert_text=f"{p.name}="))
    return items


def _signature_of(fn) -> Optional[inspect.Signature]:
    from ...ops.registry import SurfaceFunction
    from ...frontend.source import SourceFunction
    from .analysis import _ast_signature
    if isinstance(fn, SurfaceFunction):
        return fn.signature
    if isinstance(fn, SourceFunction):
        return _ast_signature(fn.node)
    return None


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


def signature_help(an: Analysis, text_before: str) -> Optional[SignatureHelp]:
    ctx = call_context(text_before)
    if ctx is None:
        return None
    callee, index, keywords = ctx
    fn = resolve_dotted(an, callee)
    sig = _signature_of(fn)
    if sig is None:
        return None
    params = list(sig.parameters.values())
    labels = [_param_label(p) for p in params]
    active = min(index, max(0, len(params) - 1))
    # When the current argument is a keyword, point at that parameter.
    current = re.search(r"(?:^|[,(])\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)[^,]*$", text_before)
    if current:
        names = [p.name for p in params]
        if current.group(1) in names:
            active = names.index(current.group(1))
    elif any(p.kind == p.VAR_POSITIONAL for p in params[:index + 1]):
        active = next(i for i, p in enumerate(params) if p.kind == p.VAR_POSITIONAL)
    name = callee.split(".")[-1]
    prefix = "ct." if doc_of(fn) is not None else ""
    return SignatureHelp(f"{prefix}{name}({', '.join(labels)})", doc_of(fn) or "", labels, active)


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

def definition(an: Analysis, line: int, col: int) -> Optional[Tuple[str, int, int, int, int]]:
    """(filename, line, col, end_line, end_col) of what the name at the position refers to."""
    if line - 1 >= len(an.lines):
        return None
    w = word_at(an.lines[line - 1], col)
    if w is None:
        return None
    start, end, dotted = w
    parts = dotted.split(".")
    if len(parts) == 1:
        name = parts[0]
        fn = enclosing_function(an, line)
        if fn is not None:
            local = _local_definition(fn, name)
            if local is not None:
                return (an.filename,) + local
        node = an.static.definitions.get(name)
        if node is not None:
            return (an.filename,) + _def_range(node, name, an)
        return None
    value = resolve_dotted(an, dotted)
    if value is _MISSING:
        return None
    target = getattr(value, "__wrapped__", None) or value
    try:
        path = inspect.getsourcefile(target)
        _, first = inspect.getsourcelines(target)
    except (TypeError, OSError):
        return None
    return (path, first, 1, first, 1)


def _local_definition(fn, name: str) -> Optional[Tuple[int, int, int, int]]:
    a = fn.args
    for arg in a.posonlyargs + a.args + a.kwonlyargs + [x for x in (a.vararg, a.kwarg) if x]:
        if arg.arg == name:
            return arg.lineno, arg.col_offset + 1, arg.end_lineno, arg.end_col_offset + 1
    first = None
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            if first is None or (node.lineno, node.col_offset) < (first.lineno, first.col_offset):
                first = node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node is not fn and node.name == name:
            return node.lineno, node.col_offset + 1, node.lineno, node.col_offset + 1
    if first is None:
        return None
    return first.lineno, first.col_offset + 1, first.end_lineno, first.end_col_offset + 1


def _def_range(node, name: str, an: Analysis) -> Tuple[int, int, int, int]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        src = an.lines[node.lineno - 1] if node.lineno - 1 < len(an.lines) else ""
        c = src.find(name, node.col_offset)
        if c >= 0:
            return node.lineno, c + 1, node.lineno, c + 1 + len(name)
    return node.lineno, node.col_offset + 1, node.end_lineno or node.lineno, (node.end_col_offset or 0) + 1
