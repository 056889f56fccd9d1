"""The server's options (`initializationOptions`, `workspace/didChangeConfiguration`), checked.

A bad value is never taken: the option keeps its previous value and the user is told
which option, what was given and what is accepted.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any, Dict, List, Tuple


@dataclass(frozen=True)
class Options:
    debounceMs: float = 150.0           # delay after an edit before re-analysis
    executeModules: bool = False        # run the module (in the worker) to know more values
    maxDocumentKB: int = 1024           # larger documents are not analysed
    analysisTimeoutMs: float = 2000.0   # an analysis stops itself after this; killed 2 s later
    workerMemoryMB: int = 2048          # address-space limit of an analysis worker
    workers: int = 2                    # analysis processes at most

    @property
    def debounce_s(self) -> float:
        return self.debounceMs / 1000

    @property
    def budget_s(self) -> float:
        return self.analysisTimeoutMs / 1000

    @property
    def hard_limit_s(self) -> float:
        return self.budget_s + 2.0

    @property
    def max_document_bytes(self) -> int:
        return self.maxDocumentKB * 1024


# name -> (kind, lowest, highest)
_RULES: Dict[str, Tuple[str, float, float]] = {
    "debounceMs": ("number", 0, 10_000),
    "executeModules": ("bool", 0, 0),
    "maxDocumentKB": ("int", 1, 64 * 1024),
    "analysisTimeoutMs": ("number", 50, 120_000),
    "workerMemoryMB": ("int", 256, 1024 * 1024),
    "workers": ("int", 1, 8),
}
assert set(_RULES) == {f.name for f in fields(Options)}

# Settings an editor's extension keeps for itself but may send along (VS Code's "tilescope.command").
CLIENT_SIDE = ("command", "trace")

# Options that only take effect in a fresh analysis worker.
WORKER_OPTIONS = ("executeModules", "workerMemoryMB")


def _check(name: str, value: Any) -> Tuple[Any, str]:
    kind, lo, hi = _RULES[name]
    if kind == "bool":
        if isinstance(value, bool):
            return value, ""
        return None, "must be true or false"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None, f"must be a number from {lo:g} to {hi:g}"
    if isinstance(value, float) and not math.isfinite(value):
        return None, f"must be a finite number from {lo:g} to {hi:g}"
    if kind == "int" and value != int(value):
        return None, f"must be a whole number from {lo:g} to {hi:g}"
    if not lo <= value <= hi:
        return None, f"must be from {lo:g} to {hi:g}"
    return (int(value) if kind == "int" else float(value)), ""


def apply(current: Options, raw: Any) -> Tuple[Options, List[str]]:
    """`current` updated with the valid entries of `raw`, and one message per rejected entry."""
    if raw is None:
        return current, []
    if not isinstance(raw, dict):
        return current, [f"tilescope: options must be an object, not {type(raw).__name__}; ignored"]
    if isinstance(raw.get("tilescope"), dict):      # {"tilescope": {...}} from a configuration section
        raw = raw["tilescope"]
    changes: Dict[str, Any] = {}
    problems = []
    for name, value in raw.items():
        if name in CLIENT_SIDE:
            continue
        if name not in _RULES:
            problems.append(f"tilescope: unknown option {name!r} ignored (known: {', '.join(_RULES)})")
            continue
        checked, why = _check(name, value)
        if why:
            problems.append(f"tilescope: option {name}={_show(value)} ignored: it {why}")
        else:
            changes[name] = checked
    return replace(current, **changes), problems


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
