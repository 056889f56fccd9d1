"""The predicted / measured table of docs/cost-model.md (bench/cost_validate.py report)."""
from __future__ import annotations

import json
import math
import os
from typing import List

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ACHIEVABLE_BW = 4.8e12 * 0.8678          # the copy microbenchmark's bandwidth on the H200
GROUPS = (("validate", "Set A (27 kernels written before the model; version 1 of the model was frozen before "
                       "their times were opened)"),
          ("validate-b", "Set B (20 held-out kernels, measured and opened after version 2 was frozen)"),
          ("validate-c", "Set C (16 kernels of upstream cuTile's test/kernels, none written here; chosen and "
                         "measured with version 3 frozen, which scored 7 of 16 within ±30% and 6 beyond 2× on them; "
                         "the table is version 5, written after C was opened)"),
          ("validate-d", "Set D (10 kernels of TileGym, none written here; chosen and measured with version 4 "
                         "frozen, which scored 5 of 10 within ±30% and 4 beyond 2× on them; the table is version 5)"),
          ("validate-e", "Set E (10 streaming kernels of TileGym that no earlier set used; chosen and committed "
                         "before any prediction, predicted by versions 4 and 5 (identical on all ten) and measured "
                         "after both were committed: blind)"),
          ("validate-tma", "Aligned arrays, upstream launch-like cubins (TMA loads): outside the goal"))


def render(path: str, cases, kernel_of) -> str:
    import tilescope
    with open(path) as f:
        measured = json.load(f)["cases"]
    by_name = {c.name: c for c in cases}
    out: List[str] = []
    summary = {}
    for group, title in GROUPS:
        rows, ratios, shown_memory, named_memory = [], [], 0, 0
        for name, m in measured.items():
            if m.get("group") != group or name not in by_name or "us" not in m:
                continue
            c = by_name[name]
            kernel = kernel_of(c)
            r = tilescope.cost(kernel, c.spec(concrete=True), c.grid, "h200", aligned=c.aligned)
            p = r.prediction
            ratio = r.predicted_us / m["us"]
            ratios.append(ratio)
            moved = p.bytes["dram_read"] + p.bytes["dram_write"]
            bw = moved / (m["us"] * 1e-6)
            memory_shown = bw >= 0.85 * ACHIEVABLE_BW
            shown_memory += memory_shown
            named_memory += memory_shown and r.bound == "memory"
            mark = "" if abs(ratio - 1) <= 0.3 else (" ✗✗" if ratio > 2 or ratio < 0.5 else " ✗")
            rows.append(f"| {name} | {'×'.join(map(str, c.grid))} | {r.predicted_us:,.1f} | {m['us']:,.1f} | "
                        f"{ratio:.2f}{mark} | {r.bound} | {bw / 1e9:,.0f} GB/s |")
        if not rows:
            continue
        within = sum(abs(x - 1) <= 0.3 for x in ratios)
        beyond = sum(x > 2 or x < 0.5 for x in ratios)
        geo = math.exp(sum(abs(math.log(x)) for x in ratios) / len(ratios))
        summary[group] = (within, len(ratios), beyond)
        out += [f"**{title}**: {within} of {len(ratios)} within ±30%, {beyond} off by more than 2×, geometric mean "
                f"error {geo:.2f}×; bound named \"memory\" for {named_memory} of the {shown_memory} kernels whose "
                f"measured DRAM traffic reached 85% of the achievable bandwidth.", "",
                "| kernel | grid | predicted µs | measured µs | ratio | predicted bound | DRAM rate measured |",
                "|---|---|---:|---:|---:|---|---:|", *rows, ""]
    if "validate" in summary and "validate-b" in summary:
        w = summary["validate"][0] + summary["validate-b"][0]
        n = summary["validate"][1] + summary["validate-b"][1]
        b = summary["validate"][2] + summary["validate-b"][2]
        out.insert(0, f"Sets A and B together: {w} of {n} within ±30% ({w / n:.0%}), {b} off by more than 2×.\n")
    return "\n".join(out)
