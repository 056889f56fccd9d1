"""IEEE float32 divisions, one after another in each warp (version 70; docs/cost-model.md history 110).

tileiras builds each element's division as a reciprocal, five dependent multiply-adds and a range
check (`FCHK`) branching to a called slow path, in a convergence region of its own: nothing of one
division overlaps the next in the same warp, so a thread waits its divisions in series. Those with a
zero, infinite or NaN operand (`padded_lanes.py`) take the slow path too. The model adds that wait to
a block's time beyond what the divisions' instructions already cost it (model._iteration_us).

The two figures are an H100's, measured on history 110's whole-row softmax as launched (one block an
SM, one working warp a scheduler: nothing hides a division's latency)."""
from __future__ import annotations

from typing import Optional

from .counts import Work
from .cubin_facts import CubinFacts
from .gpus import GPU

FAST_LATENCY_CLK = 38.0      # a division's fast sequence, a warp alone on its scheduler
SLOW_LATENCY_CLK = 235.0     # the slow path beyond it: the range check's branch, the call and its routine


def division_us(w: Work, facts: Optional[CubinFacts], threads: int, gpu: GPU, in_series: bool = False) -> float:
    """A block's time in its divisions in one run of a region: a thread's divisions one after another,
    the IR's share of a thread, or where `in_series` (the region's divisions are all the code's) the
    cubin's count of range checks in one role's code if more (a block whose divisions one warpgroup
    makes). A cubin without range checks divides by constants it knows, by multiplying: no wait."""
    if not w.divisions or (facts is not None and facts.divisions == 0):
        return 0.0
    per_thread = w.divisions / threads
    if in_series and facts is not None and facts.divisions:
        per_thread = max(per_thread, float(facts.divisions))
    slow_share = w.slow_divisions / w.divisions
    clk = per_thread * (FAST_LATENCY_CLK + slow_share * SLOW_LATENCY_CLK)
    return clk / (gpu.clock_ghz * 1e3)
