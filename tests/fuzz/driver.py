"""One fuzzing step: generate (and maybe mutate) a kernel, check every property, classify the outcome.

Shared by the CI test (tests/fuzz/test_fuzz_quick.py) and the long profile (bench/fuzz.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from . import gen as G
from . import harness as H


@dataclass
class Outcome:
    label: str                       # e.g. "accept+run", "reject:TileTypeError", "import_error"
    failure: Optional[str] = None    # a property violation, with its reproducer
    upstream: Optional[str] = None   # "agree", "disagree", "skipped"


def check_kernel(kernel: G.Kernel, oracle: Optional[H.UpstreamOracle] = None, *, execute: bool = True,
                 tag: str = "") -> Outcome:
    path = H.write_kernel(kernel.source)

    def fail(what: str) -> Outcome:
        return Outcome("FAIL", f"{tag}{what}\n--- reproducer ({path}) ---\n{kernel.reproducer()}")
    try:
        verdict = H.check_frontend(path, kernel.name, kernel.spec)
    except H.PropertyFailure as e:
        return fail(f"[front end] {e}")
    label = verdict.outcome if verdict.outcome != "reject" else f"reject:{verdict.kind}"
    up_state = "skipped"
    if oracle is not None and verdict.outcome != "import_error":
        up = oracle.verdict(path, kernel.name, kernel.spec)
        diff = H.compare_upstream(up, verdict)
        if diff is not None:
            return fail(f"[upstream] {diff}")
        up_state = "agree" if up is not None else "skipped"
    if verdict.outcome == "accept" and execute:
        try:
            H.check_execution(kernel, verdict)
        except H.PropertyFailure as e:
            return fail(f"[execution] {e}")
        label = "accept+run"
    return Outcome(label, None, up_state)
