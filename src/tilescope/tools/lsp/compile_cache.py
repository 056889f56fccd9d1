"""Compilations remembered across keystrokes, wherever their code moves in the file.

A kernel compiled for a signature reads its own text, the helpers it reaches and the
module-level statements they depend on (reads.py). The cache key is a hash of those
texts (not of their line numbers): a line typed above a kernel moves it but does not
make it compile again. A
hit whose statements moved gets its locations shifted statement by statement; one that
cannot be shifted exactly (a location outside the statements read, a line number
inside a message) compiles again.
"""
from __future__ import annotations

import bisect
import hashlib
import re
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, Dict, List, Optional, Tuple

from ...errors import Loc
from .reads import module_reads
from .records import Diag, Key, Record

CACHE_SIZE = 128      # (kernel, signature) compilations: a few open documents of a dozen kernels, and their edits
_LINE_IN_TEXT = re.compile(r"\bline \d+")

Ranges = Tuple[Tuple[int, int], ...]     # first and last line of each statement read, in key order


@dataclass
class Part:
    """One kernel compiled for one signature (no text, no IR)."""
    exprs: Dict[Key, List[Record]]
    bindings: Dict[Key, List[Record]]
    binding_names: Dict[Key, str]
    diagnostics: List[Diag]
    compiled_kernels: Dict[str, str]
    extras: Dict[str, Any] = field(default_factory=dict)     # position-free facts (the kernel's cost)


_CACHE: "OrderedDict[str, Tuple[Part, Ranges]]" = OrderedDict()


def fingerprint(an, name: str, sig) -> Tuple[str, Ranges]:
    """The hash of what compiling `name` for `sig` reads, and where those statements are."""
    module = module_reads(an)
    sm = an.static
    chosen = module.read_by([sm.functions[f].node for f in sorted(an.facts.reachable(name))])
    texts, ranges = [], []
    for i in chosen:
        st = module.statements[i]
        first = min([st.lineno] + [d.lineno for d in getattr(st, "decorator_list", ())])
        texts.append(module.texts[i])
        ranges.append((first, st.end_lineno or st.lineno))
    # Every signature of the kernel: how many there are, and where they come from, shape its messages;
    # a `values` directive, its cost hover.
    signatures = [(s.text, s.source, s.values) for s in an.signatures.get(name) or ()]
    key = repr((an.filename, name, sig.text, signatures, module.narrow, texts))
    return hashlib.sha1(key.encode("utf-8", "surrogatepass")).hexdigest(), tuple(ranges)


def lookup(key: str, ranges: Ranges, filename: str) -> Optional[Part]:
    hit = _CACHE.get(key)
    if hit is None:
        return None
    _CACHE.move_to_end(key)
    part, old = hit
    if old == ranges:
        return part
    moved = _moved(part, old, ranges, filename)
    if moved is None:
        del _CACHE[key]
        return None
    _CACHE[key] = (moved, ranges)
    return moved


def store(key: str, ranges: Ranges, part: Part) -> None:
    _CACHE[key] = (part, ranges)
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)


class _Unmovable(Exception):
    pass


def _moved(part: Part, old: Ranges, new: Ranges, filename: str) -> Optional[Part]:
    spans = sorted((o0, o1, n0 - o0) for (o0, o1), (n0, _) in zip(old, new))
    starts = [s[0] for s in spans]

    def line(n: int) -> int:
        i = bisect.bisect_right(starts, n) - 1
        if i < 0 or n > spans[i][1]:
            raise _Unmovable()
        return n + spans[i][2]

    def key(k: Key) -> Key:
        return line(k[0]), k[1], line(k[2]), k[3]

    def loc(x: Optional[Loc]) -> Optional[Loc]:
        if x is None or x.filename != filename:
            return x
        return replace(x, line=line(x.line), end_line=line(x.end_line) if x.end_line else x.end_line,
                       call_site=loc(x.call_site))

    try:
        diags = []
        for d in part.diagnostics:
            if _LINE_IN_TEXT.search(d.message):
                raise _Unmovable()
            diags.append(replace(d, loc=loc(d.loc), related=[(loc(r), m) for r, m in d.related]))
        return Part({key(k): v for k, v in part.exprs.items()}, {key(k): v for k, v in part.bindings.items()},
                    {key(k): v for k, v in part.binding_names.items()}, diags, part.compiled_kernels,
                    part.extras)
    except _Unmovable:
        return None
