"""Sorting failures into categories from their error text (first matching rule wins)."""
from __future__ import annotations

import re
from typing import Tuple

# (regex on the failure text, category). Ordered: specific before general.
RULES = [
    (r"No module named 'cuda\.tile\.[\w.]+'|cannot import name '\w+' from 'cuda\.tile",
     "needs an upstream-internal module (not public API)"),
    (r"module 'cuda\.tile' has no attribute", "missing public cuda.tile name"),
    (r"not supported by tilescope yet", "operation not implemented in tilescope"),
    (r"GpuOnlyFeature", "GPU-only feature"),
    (r"NotImplementedError|no numpy rule|no CPU rule|has no executor rule", "op not implemented in the CPU executor"),
    (r"DID NOT RAISE", "negative test: tilescope accepts what upstream rejects"),
    (r"Regex pattern did not match", "negative test: error message differs"),
    (r"Tile\w*Error|tilescope\.errors", "tilescope front end rejects a valid kernel"),
    (r"LaunchError", "launch arguments rejected"),
    (r"Mismatched elements|Tensor-likes are not (close|equal)|assert_close|AssertionError|Correctness check failed",
     "wrong result"),
    (r"timed out|Timeout", "timeout"),
    (r"torch\.|Tensor", "torch CPU incompatibility"),
]


def categorize(text: str) -> Tuple[str, str]:
    """(category, one-line detail) for a failure's text."""
    detail = _key_line(text)
    for pattern, category in RULES:
        if re.search(pattern, text):
            return category, detail
    return "other", detail


def _key_line(text: str) -> str:
    lines = [l.strip() for l in text.strip().splitlines() if l.strip()]
    for l in reversed(lines):
        if re.match(r"^(E\s+)?[\w.]*(Error|Exception|Failed)\b", l) or l.startswith("E "):
            return l[:240]
    return (lines[-1] if lines else "")[:240]
