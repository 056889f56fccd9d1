"""docs/conformance.md: per-file pass/fail/skip table, failure categories with counts, fixes."""
from __future__ import annotations

import collections
import datetime
import os
import subprocess
from typing import Dict, Iterable, List, Optional

from .common import Result

KIND_TITLES = {
    "samples": "Samples (`samples/*.py --correctness-check`)",
    "tests": "Value tests (`test/test_*.py`)",
    "negative": "Negative tests (`pytest.raises(Tile…Error, match=…)`)",
    "doctests": "Doc examples (`.. testcode::` in `src/cuda/tile/_stub.py`)",
}
SKIP_NOT_APPLICABLE = ("GPU-only feature", "not applicable (upstream internals)")


def upstream_revision(upstream: str) -> Dict[str, str]:
    def git(*args):
        try:
            return subprocess.run(["git", "-C", upstream] + list(args), capture_output=True, text=True,
                                  timeout=30).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            return ""
    return {"commit": git("rev-parse", "HEAD") or "unknown", "date": git("log", "-1", "--format=%ci") or "unknown",
            "describe": git("describe", "--tags", "--always")}


def _counts(results: Iterable[Result]) -> collections.Counter:
    c = collections.Counter()
    for r in results:
        c[r.outcome] += 1
    return c


def _rate(results: List[Result]) -> str:
    applicable = [r for r in results if not (r.outcome == "skipped")]
    if not applicable:
        return "n/a"
    passed = sum(r.outcome == "passed" for r in applicable)
    return f"{passed}/{len(applicable)} = {100.0 * passed / len(applicable):.1f}%"


def render(results: List[Result], upstream: str, *, fixes: Optional[List[str]] = None,
           notes: Optional[List[str]] = None, reproducers: Optional[Dict[str, str]] = None) -> str:
    rev = upstream_revision(upstream)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = ["# Conformance: upstream cuTile's own samples, tests and doc examples on tilescope's CPU executor", "",
           f"- Upstream: NVIDIA/cutile-python, commit `{rev['commit']}` ({rev['describe']}), committed {rev['date']}",
           f"- Run: {now}, `python -m conformance --upstream PATH` (see `conformance/README.md`)",
           "- Applicable = run and not skipped. Skips are GPU-only features, tests of upstream internals "
           "(bytecode, private modules) and upstream's own skip conditions on an H200.", ""]
    out += notes or []
    out += ["", "## Totals", "", "| kind | passed | failed | errors | skipped | pass rate (applicable) |",
            "|---|---:|---:|---:|---:|---:|"]
    by_kind = collections.defaultdict(list)
    for r in results:
        by_kind[r.kind].append(r)
    for kind in KIND_TITLES:
        rs = by_kind.get(kind, [])
        if not rs:
            continue
        c = _counts(rs)
        out.append(f"| {kind} | {c['passed']} | {c['failed']} | {c['error']} | {c['skipped']} | {_rate(rs)} |")

    out += ["", "## Failure categories", "", "| kind | category | count | example case | detail |",
            "|---|---|---:|---|---|"]
    cats = collections.defaultdict(list)
    for r in results:
        if r.outcome in ("failed", "error"):
            cats[(r.kind, r.category)].append(r)
    for (kind, cat), rs in sorted(cats.items(), key=lambda kv: (kv[0][0], -len(kv[1]))):
        ex = rs[0]
        out.append(f"| {kind} | {cat} | {len(rs)} | `{ex.file}::{ex.case}` | {_cell(ex.detail)} |")
    if reproducers:
        out += ["", "### Minimal reproducers", ""]
        for title, code in reproducers.items():
            out += [f"**{title}**", "", "```python", code.strip(), "```", ""]

    out += ["", "## Skip reasons", "", "| kind | category | reason | count |", "|---|---|---|---:|"]
    skips = collections.Counter((r.kind, r.category, _reason_key(r.detail)) for r in results if r.outcome == "skipped")
    for (kind, cat, reason), n in sorted(skips.items(), key=lambda kv: (kv[0][0], -kv[1])):
        out.append(f"| {kind} | {cat} | {_cell(reason)} | {n} |")

    if fixes:
        out += ["", "## Fixes made in tilescope while building the harness", ""] + [f"- {f}" for f in fixes]

    for kind, title in KIND_TITLES.items():
        rs = by_kind.get(kind, [])
        if not rs:
            continue
        out += ["", f"## {title}: per file", "", "| file | passed | failed | errors | skipped | failure categories |",
                "|---|---:|---:|---:|---:|---|"]
        per_file = collections.defaultdict(list)
        for r in rs:
            per_file[r.file].append(r)
        for file in sorted(per_file):
            frs = per_file[file]
            c = _counts(frs)
            fcats = collections.Counter(r.category for r in frs if r.outcome in ("failed", "error"))
            cat_text = "; ".join(f"{k} ({v})" for k, v in fcats.most_common()) or ""
            if not fcats and c["skipped"] and not c["passed"]:
                cat_text = "skipped: " + "; ".join(sorted({_reason_key(r.detail) for r in frs}))[:300]
            out.append(f"| `{file}` | {c['passed']} | {c['failed']} | {c['error']} | {c['skipped']} | {_cell(cat_text)} |")
    return "\n".join(out) + "\n"


def _reason_key(detail: str) -> str:
    """A skip reason without per-test specifics, so equal reasons group together."""
    import re
    detail = re.sub(r"\.(major|minor)$", "", detail)
    return detail.strip()[:160]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")[:300]


def write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
