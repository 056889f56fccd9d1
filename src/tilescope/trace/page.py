"""The self-contained trace page of one launch (data, script and style inline; no network)."""
from __future__ import annotations

import base64
import html
import json
import os
import re
from typing import Any, Dict, List, Optional

import numpy as np

from .maps import ArrayMaps
from .recorder import TraceRecorder

MAX_EVENT_ENTRIES = 300_000      # footprint entries (tile accesses + lanes) embedded in a page
_ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "assets")


def b64(a: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(a).tobytes()).decode("ascii")


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
    tiles, lanes = [], []
    for ev in rec_array.tiles.values():
        blocks = np.concatenate(ev.blocks)
        keep = blocks < limit if limit is not None else slice(None)
        tiles.append({"op": op_index[id(ev.op)], "write": ev.write, "shape": list(ev.shape),
                      "order": list(ev.order), "blocks": b64(blocks[keep].astype(np.int32)),
                      "occ": _b64_unless(np.concatenate(ev.occurrence)[keep].astype(np.int32), 0, lambda o: o),
                      "index": [b64(np.concatenate([i[k] for i in ev.index])[keep].astype(np.int32))
                                for k in range(len(ev.shape))]})
    for ev in rec_array.lanes.values():
        blocks = np.concatenate(ev.blocks)
        keep = blocks < limit if limit is not None else slice(None)
        ndim = len(ev.coords[0]) if ev.coords else 0
        lanes.append({"op": op_index[id(ev.op)], "kind": ev.kind, "blocks": b64(blocks[keep].astype(np.int32)),
                      "occ": _b64_unless(np.concatenate(ev.occurrence)[keep].astype(np.int32), 0, lambda o: o),
                      "coords": [b64(np.concatenate([c[k] for c in ev.coords])[keep].astype(np.int32))
                                 for k in range(ndim)]})
    return {"tiles": tiles, "lanes": lanes}


def maps_json(m: ArrayMaps, nblocks: int) -> Dict[str, Any]:
    """The cell maps; block ids as uint16 (65535: none) when the grid allows, counts as uint8,
    op numbers as int8 when there are few ops. A map with nothing in it (no block, count or
    flag anywhere: the writes of an array only read) is sent as "" (smaller pages, faster
    writing)."""
    narrow = nblocks < 65535
    blocks = (lambda b: np.where(b < 0, 65535, b).astype(np.uint16)) if narrow else (lambda b: b)  # noqa: E731
    counts = lambda c: np.minimum(c, 255).astype(np.uint8)                                          # noqa: E731
    op_narrow = int(m.op.max(initial=-1)) < 127
    return {"name": m.name, "shape": list(m.shape), "dtype": m.dtype, "written": m.written, "rows": m.rows,
            "cols": m.cols, "step": list(m.step), "wrap": m.wrap, "inside": list(m.inside),
            "slices": [{"label": s.label, "lead": list(s.lead)} for s in m.slices], "notes": m.notes,
            "narrow": narrow, "op_narrow": op_narrow,
            "wblock": _b64_unless(m.wblock, -1, blocks), "rblock": _b64_unless(m.rblock, -1, blocks),
            "wcount": _b64_unless(m.wcount, 0, counts), "rcount": _b64_unless(m.rcount, 0, counts),
            "flags": _b64_unless(m.flags, 0, lambda f: f),
            "op": _b64_unless(m.op, -1, (lambda o: o.astype(np.int8)) if op_narrow else (lambda o: o))}


def _b64_unless(a: np.ndarray, empty, convert) -> str:
    """"" when every entry of `a` is `empty`, else the converted entries in base64."""
    if not a.size or (a.min() == empty and a.max() == empty):
        return ""
    return b64(convert(a))


_BLOCK = re.compile(r"\((\d+), (\d+), (\d+)\)")


def reports_json(reports: List[str], grid, names: List[str]) -> List[Dict[str, Any]]:
    """Each check report with its line, the blocks it names and the element (when it says)."""
    out = []
    for text in reports:
        m = re.match(r"^.*?:(\d+): ", text)
        line = int(m.group(1)) if m else None
        blocks = list(dict.fromkeys(int(x) + grid[0] * (int(y) + grid[1] * int(z)) for x, y, z in _BLOCK.findall(text)
                                    if int(x) < grid[0] and int(y) < grid[1] and int(z) < grid[2]))
        arr = re.search(r"array '([^']+)'", text)
        elem = re.search(r"element \(([-\d, ]+)\)", text)
        out.append({"text": text, "line": line, "blocks": blocks,
                    "array": arr.group(1) if arr and arr.group(1) in names else None,
                    "element": [int(v) for v in elem.group(1).split(",") if v.strip()] if elem else None})
    return out


def render(data: Dict[str, Any], title: str, summary: List[str], cost_text: Optional[str]) -> str:
    with open(os.path.join(_ASSETS, "trace.js")) as f:
        script = f.read()
    with open(os.path.join(_ASSETS, "trace.css")) as f:
        style = f.read()
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    legend = "".join(f'<span><i style="background:{c}"></i>{html.escape(t)}</span>' for c, t in (
        ("hsl(200,70%,45%)", "written (writer's colour)"), ("hsl(200,70%,85%)", "read by one block"),
        ("#9a9a9a", "read by several blocks"), ("#485260", "never written"), ("#e600c8", "race"),
        ("#cdd6e2", "padding read"), ("#e61414", "out of bounds"), ("#967828", "atomic")))
    lines = "".join(f"<p>{html.escape(s)}</p>" for s in summary)
    cost = f'<details><summary>predicted cost</summary><div class="cost">{html.escape(cost_text)}</div></details>' \
        if cost_text else ""
    return f"""<!doctype html>
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
<script type="application/json" id="trace-data">{payload}</script>
<script>{script}</script>
</body></html>
"""


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
