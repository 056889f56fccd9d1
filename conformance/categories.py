"""Sorting failures into categories from their error text (first matching rule wins)."""
from __future__ import annotations

import re
from typing import Tuple

# (regex on the failure text, category). Ordered: specific before general.
RULES = [
    (r"\"\w+_cpu\" not implemented for|PythonDispatcher", "torch CPU reference op missing for a dtype"),
    (r"Got unsupported ScalarType Float8", "launch: torch float8 tensors are not converted to NumPy (tilescope/run.py)"),
    (r"does not fit index dtype int32",
     "launch: arrays beyond int32 indexing need index_dtype=int64 (upstream picks it automatically)"),
    (r"is not an array the CPU executor can use", "launch: dataclass kernel arguments not supported"),
    (r"requires tileiras 13\.4 or later", "feature gated on tileiras 13.4 (tilescope emulates 13.3)"),
    (r"function (u?int\d+|float\d+|bool|bfloat16) is not supported in tile code|cannot call the dtype|"
     r"a dtype object is not callable", "front end: dtype objects as constructors in tile code (ct.int32(x), np.float16(x))"),
    (r"(shape|strides)' of a Array\[.*is not known at compile", "front end: array shape/strides not static in static_assert/static_eval"),
    (r"Exception was raised inside static_assert\(\) condition", "front end: static_assert condition evaluation"),
    (r"difference: nan|Greatest absolute difference: nan",
     "wrong result: NaN (UNDETERMINED load padding is poisoned with NaN; the kernel multiplies padding by 0)"),
    (r"shape must be a compile-time constant, got a run-time value of type a tuple",
     "front end: tuple kernel arguments used as shapes are not constant"),
    (r"@contextmanager function|control flow: one branch of 'if' exits", "front end: contextlib.contextmanager / early exits"),
    (r"Actual message:", "error message differs"),
    (r"No module named 'cuda\.tile\.[\w.]+'|cannot import name '\w+' from 'cuda\.tile",
     "needs an upstream-internal module (not public API)"),
    (r"module 'cuda\.tile' has no attribute", "missing public cuda.tile name"),
    (r"not supported by tilescope yet", "operation not implemented in tilescope"),
    (r"NotOnCpu|is not available on the CPU", "GPU-only feature"),
    (r"NotImplementedError|no numpy rule|no CPU rule|has no executor rule", "op not implemented in the CPU executor"),
    (r"DID NOT RAISE", "negative test: tilescope accepts what upstream rejects"),
    (r"Regex pattern did not match", "error message differs"),
    (r"Tile\w*Error|tilescope\.errors", "tilescope front end rejects a valid kernel"),
    (r"LaunchError", "launch arguments rejected"),
    (r"Mismatched elements|Tensor-likes are not (close|equal)|assert_close|AssertionError|Correctness check failed",
     "wrong result"),
    (r"timed out|Timeout", "timeout"),
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
