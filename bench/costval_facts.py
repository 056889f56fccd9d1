"""Where the estimate without a cubin loses its accuracy (bench/cost_validate.py facts).

For every measured goal launch whose cubin is at hand, the model runs on the facts it estimates
from the IR (estimated_facts.py) with groups of them replaced by what tileiras's cubin says. A
group that brings the estimate's score close to the cubin's is where a better estimate pays; one
that moves nothing is not worth estimating better. No time is fitted here: it reads the committed
measurements and predicts."""
from __future__ import annotations

import dataclasses
from typing import Dict, List, Sequence, Tuple

from costval_report import GOAL_GROUPS, case_costs, cubin_of, measured_times, score_line

# the facts by what sets them in the cubin: the block's schedule, the spills, the innermost mma
# loop's code and waits, the longest loop's code and loads
SCHEDULE = ("threads", "registers", "shared_bytes")
SCALARS = SCHEDULE + ("local_bytes", "instructions", "global_loads", "global_stores", "local_loads", "local_stores",
                      "tma_loads", "tma_stores", "global_access_bytes", "loads_in_flight", "global_load_bytes")
SPILL_SIZES = ("local_bytes", "local_loads", "local_stores")
SPILL_RELOADS = ("local_load_waits", "reload_bytes", "reload_wait_bytes", "spill_area_bytes", "loop_local_clocks",
                 "mma_loop_local_clocks")
SPILLS = SPILL_SIZES + SPILL_RELOADS
MMA_LOOP = ("mma_loop_mmas", "mma_loop_full_waits", "mma_loop_pipelined_waits", "mma_loop_instructions",
            "mma_loop_load_waits", "mma_loop_local_clocks")
LONGEST_LOOP = ("loop_instructions", "loop_shared_ops", "loop_loads", "loop_load_waits", "loop_serial_copies",
                "called_instructions", "loop_local_clocks")
LOOPS = tuple(dict.fromkeys(SPILL_RELOADS + MMA_LOOP + LONGEST_LOOP))
GROUPS: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    ("none (the estimate read as a cubin's facts)", ()),
    ("registers", ("registers",)), ("threads", ("threads",)), ("loads in flight", ("loads_in_flight",)),
    ("instructions", ("instructions",)), ("global loads and stores", ("global_loads", "global_stores")),
    ("spills", SPILLS), ("innermost mma loop", MMA_LOOP), ("longest loop", LONGEST_LOOP),
    ("block schedule and spills", SCHEDULE + SPILLS), ("spills and mma loop", SPILLS + MMA_LOOP),
    ("every per-kernel count", SCALARS), ("every per-loop fact", LOOPS),
    ("every fact", SCALARS + LOOPS))


def _ratios(case, us: float, kernel_of, cubin: bytes, gpu: str) -> Dict[str, float]:
    from tilescope.costmodel import gpu_named, read_cubin_facts
    from tilescope.costmodel.model import predict
    ir, with_cubin = case_costs(case, kernel_of, cubin, gpu)
    estimate, facts = ir.prediction.estimate, read_cubin_facts(cubin, arch="sm_90")
    out = {"estimate": ir.predicted_us / us, "cubin": with_cubin.predicted_us / us}
    for label, fields in GROUPS:
        mixed = dataclasses.replace(estimate, **{f: getattr(facts, f) for f in fields})
        try:
            p = predict(ir.counts, gpu_named(gpu), tma=ir.prediction.tma, facts=mixed).predicted_us
        except TypeError:       # a loop fact whose partner the estimate leaves unknown: no mix
            p = ir.predicted_us
        out[label] = p / us
    return out


def fact_groups(results: Sequence[str], cases, kernel_of, cubins: Sequence[str]) -> str:
    """The score of the estimate with each group of facts taken from the cubin, over the goal
    launches whose cubin is in `cubins`."""
    measured = measured_times(results)
    rows: List[Dict[str, float]] = []
    for case in cases:
        m, data = measured.get(case.name), cubin_of(cubins, case.name)
        if m is not None and data is not None and case.group in GOAL_GROUPS:
            rows.append(_ratios(case, m["us"], kernel_of, data, m["gpu"]))
    if not rows:
        return "no measured goal launch has a cubin in the folders given"
    lines = [f"{len(rows)} goal launches with their cubin.",
             f"- with the cubin: {score_line([r['cubin'] for r in rows])}",
             f"- estimated from the IR: {score_line([r['estimate'] for r in rows])}",
             "- the estimate with these facts from the cubin:"]
    lines += [f"  - {label}: {score_line([r[label] for r in rows])}" for label, _ in GROUPS]
    return "\n".join(lines)
