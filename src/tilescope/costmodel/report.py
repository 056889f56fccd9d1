"""A cost report: text for people, JSON for tools, one line for an editor hover."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Tuple

BOUND_WORDS = {
    "memory": "memory bandwidth", "tensor core": "tensor-core throughput", "issue": "instruction issue",
    "latency": "latency (each block waits on its loads)", "too few blocks": "latency / too few blocks",
    "block launch": "block launch rate (many tiny blocks)", "atomics": "atomics on shared addresses",
    "l2": "L2 bandwidth to the SMs (tiles re-read from L2)"}


def human_bytes(n: float) -> str:
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n:.0f} B"


def human_flops(n: float) -> str:
    for unit, size in (("TFLOP", 1e12), ("GFLOP", 1e9), ("MFLOP", 1e6), ("KFLOP", 1e3)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n:.0f} FLOP"


@dataclass
class CostReport:
    kernel: str
    grid: Tuple[int, int, int]
    counts: Any
    prediction: Any
    advice: List[Any]

    @property
    def predicted_us(self) -> float:
        return self.prediction.predicted_us

    @property
    def bound(self) -> str:
        return self.prediction.bound

    def to_json(self) -> Dict[str, Any]:
        p = self.prediction
        return {
            "kernel": self.kernel, "grid": list(self.grid), "gpu": p.gpu.name, "predicted_us": round(p.predicted_us, 3),
            "bound": p.bound, "terms_us": {k: round(v, 3) for k, v in p.terms.items()},
            "blocks": p.blocks, "blocks_per_sm": p.blocks_per_sm, "waves": round(p.waves, 3),
            "block_us": round(p.block_us, 3), "tma": p.tma, "schedule": p.schedule,
            "cubin": p.cubin.to_json() if p.cubin else None,
            "estimated_schedule": _estimate_json(p.estimate) if p.estimate else None,
            "bytes": {k: round(v) for k, v in p.bytes.items()}, "flops": {k: round(v) for k, v in p.flops.items()},
            "arithmetic_intensity": None if p.intensity == float("inf") else round(p.intensity, 3),
            "accesses": [_access_json(a) for a in self.counts.accesses],
            "assumptions": self.assumptions(),
            "advice": [a.to_json() for a in self.advice]}

    def assumptions(self) -> List[str]:
        """The counts' assumptions, then the prediction's notes, each once (several ops may note one rate)."""
        return list(dict.fromkeys(list(self.counts.assumptions) + list(self.prediction.notes)))

    def hover(self) -> str:
        """One short paragraph: bytes, FLOPs, bound, predicted time."""
        p = self.prediction
        moved = p.bytes["dram_read"] + p.bytes["dram_write"]
        return (f"**cost on {p.gpu.name}** (grid {'×'.join(map(str, self.grid))}): ~{p.predicted_us:.3g} µs, "
                f"bound by {BOUND_WORDS.get(p.bound, p.bound)}; DRAM {human_bytes(moved)}, "
                f"{human_flops(sum(p.flops.values()))}")

    def text(self) -> str:
        p, b = self.prediction, self.prediction.bytes
        g = "×".join(map(str, self.grid))
        lines = [f"{self.kernel} on {p.gpu.name}, grid {g} ({p.blocks} block{'s' if p.blocks != 1 else ''}, "
                 f"{p.blocks_per_sm} per SM, "
                 f"{p.waves:.2f} waves){_layout_words(p)}",
                 f"  schedule {p.schedule}" + (f": {p.cubin.threads} threads, {p.cubin.registers} registers, "
                                               f"{p.cubin.shared_bytes} B shared, {p.cubin.local_bytes} B local "
                                               f"per thread" if p.cubin else _estimate_words(p.estimate)),
                 f"  predicted: {p.predicted_us:.4g} µs, bound by {BOUND_WORDS.get(p.bound, p.bound)}",
                 "  times (µs): " + ", ".join(f"{k} {v:.4g}" for k, v in p.terms.items()),
                 f"  bytes: read {human_bytes(b['read_requested'])} ({human_bytes(b['read_per_block'])} per block), "
                 f"written {human_bytes(b['write_requested'])}; DRAM ≈ {human_bytes(b['dram_read'])} read + "
                 f"{human_bytes(b['dram_write'])} written",
                 f"         padding {human_bytes(b['padding'])}, re-read by several blocks "
                 f"{human_bytes(b['reread_by_blocks'])}, of which L2 likely absorbs {human_bytes(b['l2_absorbed'])}",
                 "  FLOPs: " + (", ".join(f"{k} {human_flops(v)}" for k, v in p.flops.items()) or "none")
                 + (f"; intensity {p.intensity:.3g} FLOP/byte" if p.intensity != float("inf") else "")]
        assumptions = self.assumptions()
        if assumptions:
            lines.append("  assumptions:")
            lines += [f"    - {a}" for a in assumptions]
        if self.advice:
            lines.append("  advice:")
            lines += [f"    line {a.line}: [{a.code}] {a.message}" if a.line else f"    [{a.code}] {a.message}"
                      for a in self.advice]
        return "\n".join(lines)


def _layout_words(p) -> str:
    """What the arrays' alignment let tileiras build: TMA copies or vector loads, as the cubin says;
    without a cubin only that the arrays are aligned (the estimate's choice is not shown as fact)."""
    if not p.tma:
        return ""
    if not p.gpu.tma:
        return ", aligned arrays (async copies)"
    if p.cubin is not None and p.cubin.tma_loads is not None:
        return ", TMA loads" if p.cubin.tma_loads else ", aligned arrays (vector loads)"
    return ", aligned arrays"


def _estimate_json(e) -> Dict[str, Any]:
    return {"threads": e.threads, "registers": e.registers, "local_bytes": e.local_bytes, "tma_loads": e.tma_loads,
            "tma_stores": e.tma_stores, "bytes_per_load": e.global_load_bytes, "loads_in_flight": e.loads_in_flight}


def _estimate_words(e) -> str:
    """The block schedule the model estimated for tileiras's build (no cubin was read)."""
    if e is None:
        return ""
    copies = ", tiles copied by the TMA" if e.tma_loads else ""
    spills = f", ~{e.local_bytes} B spilled" if e.local_bytes else ""
    return f" (likely {e.threads} threads, ~{e.registers} registers{copies}{spills})"


def _access_json(a) -> Dict[str, Any]:
    return {"kind": a.kind, "array": a.array, "line": a.loc.line if a.loc else None, "dtype": a.dtype,
            "tile": list(a.shape), "bytes": a.bytes, "executions": round(a.executions, 3),
            "dram_bytes": round(a.dram_bytes), "padding": round(a.pad_fraction, 4), "feeds_mma": a.feeds_mma,
            "transposed": a.transposed}
