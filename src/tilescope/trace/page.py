"""The self-contained trace page of one launch (data, script and style inline; no network)."""
from __future__ import annotations

import base64
import functools
import html
import json
import os
import re
from typing import Any, Dict, List, Optional

import numpy as np

from .maps import OOB, ArrayMaps
from .recorder import TraceRecorder, joined

MAX_EVENT_ENTRIES = 300_000      # footprint entries (tile accesses + lanes) embedded in a page
_ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets")


def b64(a: np.ndarray) -> bytes:
    """`a`'s bytes in base64: bytes, which `render` splices into the page's JSON as a string."""
    return base64.b64encode(np.ascontiguousarray(a))


def ints(a: np.ndarray) -> bytes:
    """Integers for the page in base64, in the fewest bytes that hold them all: after "u8:" or
    "u16:" when they lie in [0, 255] or [0, 65535], else as int32 (a footprint's blocks, tile
    indices and occurrences are mostly small: a third to a half of the text to write)."""
    if a.size and a.min() >= 0:
        top = a.max()
        if top < 1 << 8:
            return b"u8:" + b64(a.astype(np.uint8))
        if top < 1 << 16:
            return b"u16:" + b64(a.astype(np.uint16))
    return b64(a.astype(np.int32))


def block_limit(rec: TraceRecorder) -> Optional[int]:
    """Footprints are embedded for blocks below this linear id (None: all of them)."""
    blocks = [b for r in rec.arrays.values() for ev in list(r.tiles.values()) + list(r.lanes.values())
              for b in ev.blocks]
    total = sum(int(b.size) for b in blocks)
    if total <= MAX_EVENT_ENTRIES:
        return None
    counts = np.bincount(np.concatenate(blocks))
    return max(1, int(np.searchsorted(np.cumsum(counts), MAX_EVENT_ENTRIES)))


def events_json(rec_array, op_index: Dict[int, int], limit: Optional[int]) -> Dict[str, list]:
    """The footprint records, integers as `ints`. A tile record's "blocks" or "occ" that equal
    one of its tile indices (a block's own tile: index (bid, ...); a loop's j-th tile at its
    j-th iteration) are sent as that index's number; a tile index equal to one of an earlier
    record's (passes over the same tiles) as [that record's number, the index's number]."""
    tiles, lanes = [], []
    sent: List[List[np.ndarray]] = []         # the tile indices of the records so far, in order
    for ev in rec_array.tiles.values():
        blocks = joined(ev.blocks)
        keep = blocks < limit if limit is not None else slice(None)
        blocks = blocks[keep]
        index = [joined([i[k] for i in ev.index])[keep] for k in range(len(ev.shape))]
        occ = joined(ev.occurrence)[keep]
        tiles.append({"op": op_index[id(ev.op)], "write": ev.write, "shape": list(ev.shape),
                      "order": list(ev.order), "blocks": _index_equal(index, blocks, ints),
                      "occ": _index_equal(index, occ, _occurrences), "index": [_sent_before(i, sent) for i in index]})
        sent.append(index)
    for ev in rec_array.lanes.values():
        blocks = joined(ev.blocks)
        keep = blocks < limit if limit is not None else slice(None)
        ndim = len(ev.coords[0]) if ev.coords else 0
        lanes.append({"op": op_index[id(ev.op)], "kind": ev.kind, "blocks": ints(blocks[keep]),
                      "occ": _occurrences(joined(ev.occurrence)[keep]),
                      "coords": [ints(joined([c[k] for c in ev.coords])[keep]) for k in range(ndim)]})
    return {"tiles": tiles, "lanes": lanes}


def _occurrences(occ: np.ndarray):
    """A footprint's occurrences: "" when all are 0 (no loop, or its first iteration only)."""
    return ints(occ) if occ.any() else ""


def _sent_before(i: np.ndarray, sent: List[List[np.ndarray]]):
    """[r, k] where `i` equals tile record r's index k, else `i` as `ints`."""
    for r, index in enumerate(sent):
        k = _equal_to(index, i)
        if k is not None:
            return [r, k]
    return ints(i)


def _index_equal(index: List[np.ndarray], values: np.ndarray, encode):
    """The number of the first tile index equal to `values`, else `values` encoded."""
    k = _equal_to(index, values)
    return encode(values) if k is None else k


def _equal_to(arrays: List[np.ndarray], values: np.ndarray) -> Optional[int]:
    """The number of the first of `arrays` equal to `values` (None: none is)."""
    return next((k for k, a in enumerate(arrays) if np.array_equal(a, values)), None)


def maps_json(m: ArrayMaps, nblocks: int) -> Dict[str, Any]:
    """The cell maps; block ids as uint16 (65535: none) when the grid allows, counts as uint8,
    op numbers as int8 when there are few ops. A map with nothing in it (no block, count or
    flag anywhere: the writes of an array only read) is sent as "" (smaller pages, faster
    writing). A count or op map holding one value at every cell accessed (written, for
    "wcount"; read, for "rcount"; either or out of bounds, for "op") is sent as that number."""
    narrow = nblocks < 65535
    blocks = (lambda b: b.astype(np.uint16)) if narrow else None          # (-1 wraps to 65535)  # noqa: E731
    counts = lambda c: np.minimum(c, 255).astype(np.uint8)                  # noqa: E731
    op_top = int(m.op.max(initial=-1))
    op_narrow = op_top < 127
    return {"name": m.name, "shape": list(m.shape), "dtype": m.dtype, "written": m.written, "rows": m.rows,
            "cols": m.cols, "step": list(m.step), "wrap": m.wrap, "inside": list(m.inside),
            "slices": [{"label": s.label, "lead": list(s.lead)} for s in m.slices], "notes": m.notes,
            "narrow": narrow, "op_narrow": op_narrow,
            "wblock": _packed(m.wblock, -1, blocks), "rblock": _packed(m.rblock, -1, blocks),
            "wcount": _packed(m.wcount, 0, counts, lambda: m.wblock >= 0),
            "rcount": _packed(m.rcount, 0, counts, lambda: m.rblock >= 0),
            "flags": _packed(m.flags, 0),
            "op": _packed(m.op, -1, (lambda o: o.astype(np.int8)) if op_narrow else None,
                          lambda: (m.wblock >= 0) | (m.rblock >= 0) | ((m.flags & OOB) > 0), op_top)}


RUN_GAIN = 8                     # a map goes as runs where it has at most 1/RUN_GAIN as many as cells


def _packed(a: np.ndarray, empty, convert=None, accessed=None, top=None):
    """"" when every entry of `a` is `empty`, its least value (`top`: its largest, when known);
    the one value of the cells `accessed()`, converted, as a number when the other cells are
    `empty`; else the converted entries, as runs of equal entries ({"runs": their lengths as
    `ints`, "values": their values in base64}) where there are few (a tile's cells alike: a
    fraction of the text to encode and write), else all in base64 (bytes)."""
    top = a.max() if top is None and a.size else top
    if not a.size or top == empty:
        return ""
    convert = convert or (lambda x: x)
    if accessed is not None and _one_value(a, top, empty, accessed()):
        return int(convert(np.asarray(top)))
    flat = a.reshape(-1)
    starts = np.flatnonzero(flat[1:] != flat[:-1]) + 1
    if len(starts) >= flat.size // RUN_GAIN:
        return b64(convert(a))
    starts = np.concatenate([[0], starts])
    return {"runs": ints(np.diff(starts, append=flat.size)), "values": b64(convert(flat[starts]))}


def _one_value(a: np.ndarray, top, empty, accessed: np.ndarray) -> bool:
    """Whether `a` is `top` (not `empty`) at the cells `accessed` and `empty` elsewhere: `top`
    exactly there, and as many cells not `empty` (a few passes over bools, no temporary like `a`)."""
    at_top = a == top
    return not np.logical_xor(at_top, accessed, out=at_top).any() and \
        np.count_nonzero(a != empty) == np.count_nonzero(accessed)


_BLOCK = re.compile(r"\((\d+), (\d+), (\d+)\)")


def reports_json(reports: List[str], grid, names: Dict[str, str]) -> List[Dict[str, Any]]:
    """Each check report with its line, the blocks it names and the element (when it says);
    its array by the name the page gives it (`names`: by parameter name, for arrays passed to
    several parameters)."""
    out = []
    for text in reports:
        m = re.match(r"^.*?:(\d+): ", text)
        line = int(m.group(1)) if m else None
        blocks = list(dict.fromkeys(int(x) + grid[0] * (int(y) + grid[1] * int(z)) for x, y, z in _BLOCK.findall(text)
                                    if int(x) < grid[0] and int(y) < grid[1] and int(z) < grid[2]))
        arr = re.search(r"array '([^']+)'", text)
        elem = re.search(r"element \(([-\d, ]+)\)", text)
        out.append({"text": text, "line": line, "blocks": blocks,
                    "array": names.get(arr.group(1)) if arr else None,
                    "element": [int(v) for v in elem.group(1).split(",") if v.strip()] if elem else None})
    return out


def payload_json(data: Dict[str, Any]) -> List[bytes]:
    """`data` as JSON for a <script> element, in pieces: the base64 texts (bytes in `data`) go
    in as they are, since json.dumps would copy and scan each of their characters, and they
    need no escaping."""
    blobs: List[bytes] = []

    def placeholder(o):
        if isinstance(o, bytes):
            blobs.append(o)
            return f"@b64:{len(blobs) - 1}@"
        raise TypeError(f"{type(o).__name__} is not JSON serialisable")
    text = json.dumps(data, separators=(",", ":"), default=placeholder).replace("</", "<\\/")
    parts = _PLACEHOLDER.split(text)
    if [int(i) for i in parts[1::2]] != list(range(len(blobs))):     # a string of the data looks like one
        return [json.dumps(_texts(data), separators=(",", ":")).replace("</", "<\\/").encode("ascii")]
    out = []
    for k, part in enumerate(parts):
        out.append(part.encode("ascii") if k % 2 == 0 else b'"' + blobs[int(part)] + b'"')
    return out


_PLACEHOLDER = re.compile(r'"@b64:(\d+)@"')


def _texts(o):
    """`o` with its bytes as strings."""
    if isinstance(o, bytes):
        return o.decode("ascii")
    if isinstance(o, dict):
        return {k: _texts(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_texts(v) for v in o]
    return o


@functools.lru_cache(maxsize=None)
def _asset(name: str) -> str:
    with open(os.path.join(_ASSETS, name), encoding="utf-8") as f:
        return f.read()


def render(data: Dict[str, Any], title: str, summary: List[str], cost_text: Optional[str]) -> List[bytes]:
    """The page, in pieces of UTF-8 to write one after another."""
    script, style = _asset("trace.js"), _asset("trace.css")
    legend = "".join(f'<span><i style="background:{c}"></i>{html.escape(t)}</span>' for c, t in (
        ("hsl(200,70%,45%)", "written (writer's colour)"), ("hsl(200,70%,85%)", "read by one block"),
        ("#9a9a9a", "read by several blocks"), ("#485260", "never written"), ("#e600c8", "race"),
        ("#cdd6e2", "padding read"), ("#e61414", "out of bounds"), ("#967828", "atomic")))
    lines = "".join(f"<p>{html.escape(s)}</p>" for s in summary)
    cost = f'<details><summary>predicted cost</summary><div class="cost">{html.escape(cost_text)}</div></details>' \
        if cost_text else ""
    head = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>{style}</style></head>
<body>
<header><h1>{html.escape(title)}</h1>{lines}{cost}</header>
<div class="bar">
 <span>block <input id="bx" type="number" min="0" value="0"> <input id="by" type="number" min="0" value="0">
 <input id="bz" type="number" min="0" value="0"> <button id="pick">show</button>
 <button id="prev">◀</button><button id="next">▶</button><button id="clear">clear</button></span>
 <span>step <input id="step" type="range" min="0" max="1" value="0" disabled> <span id="step-label">pick a block</span></span>
 <span id="footprint-count"></span>
 <span class="legend">{legend}</span>
</div>
<div class="layout">
<main id="arrays"></main>
<aside>
<h3>check reports</h3><ul id="reports"></ul>
<h3>accesses of the picked block</h3><ul id="steps"></ul>
<h3>source</h3><pre id="source"></pre>
</aside>
</div>
<div id="tip" hidden></div>
<script type="application/json" id="trace-data">"""
    tail = f"""</script>
<script>{script}</script>
</body></html>
"""
    return [head.encode("utf-8")] + payload_json(data) + [tail.encode("utf-8")]


def render_index(launches: List[Dict[str, Any]], untraced: Optional[Dict[str, int]] = None) -> str:
    """DIR/index.html: the launches of a run, each linking its page; `untraced`: launches past the
    per-kernel limit, by kernel name."""
    rows = "".join(
        f'<li><a href="{html.escape(l["href"])}">{html.escape(l["title"])}</a> — {html.escape(l["summary"])}</li>'
        for l in launches)
    rows += "".join(f"<li>{n} more launch{'es' if n > 1 else ''} of {html.escape(k)}, run untraced (the first "
                    f"{sum(1 for l in launches if l.get('kernel') == k)} were traced)</li>"
                    for k, n in (untraced or {}).items())
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tilescope trace</title>
<style>body{{font:14px/1.5 system-ui,sans-serif;margin:24px}}</style></head>
<body><h1>tilescope trace</h1>{f"<ol>{rows}</ol>" if rows else "<p>No kernel was launched.</p>"}</body></html>
"""
