"""The few constants the cost model takes from measurement, derived from microbenchmarks.

`derive(cases)` turns the microbenchmark times of `bench/cost_validate.py` (group `micro`:
bench/cost_kernels.py; stored in the MICRO_FILES of bench/results/) into a `Calibration`;
`H200` holds the result for the H200 runs of 2026-12-01 (a test re-derives it from the stored
JSON, so the numbers here cannot drift from the measurement). No validation kernel is among
the microbenchmarks. Other GPUs reuse these laws scaled by their clock (docs/cost-model.md).
"""
from __future__ import annotations

from dataclasses import dataclass
import math
from typing import Dict, List, Sequence, Tuple

# bench/results/: the first device run's microbenchmarks, then version 3's operand layouts
MICRO_FILES = ("cost_micro_h200.json", "cost_micro3_h200.json", "cost_micro6_h200.json",
               "cost_micro6b_h200.json", "cost_micro7_h200.json", "cost_micro22_at_h200.json")
REFERENCE_CLOCK_GHZ = 1.98          # the H200's clock during the microbenchmarks
MICRO_ITERATIONS = 256              # loop trips of load_chain and mma_stream
MMA_LOOP_ITERATIONS = 1024
H200_TENSOR_PEAK = 989.5e12         # dense f16 (datasheet), the efficiency's reference
H200_FP32_PEAK = 66.9e12
H200_SMS = 132


@dataclass(frozen=True)
class Calibration:
    launch_us: float                 # one launch, back to back (kernel start and end)
    blocks_per_s: float              # blocks the GPU starts per second (tiny blocks)
    dram_efficiency: float           # streaming copy bandwidth / datasheet bandwidth
    row_efficiency: Tuple[Tuple[int, float], ...]   # (row bytes, efficiency) of multi-row tile streams
    element_rate: Tuple[float, float]               # one-row tile streams: elements/s = r0·(E/1024)^p
    atomic_ns: float                 # one atomic on an address other blocks also hit (data-dependent)
    atomics_per_s: float             # atomics the GPU completes per second when addresses spread
    load_us: Tuple[float, float]     # plain loads of one block: latency µs, µs per KiB (no TMA)
    load_us_tma: Tuple[float, float]
    mma_rate: Tuple[float, float]    # loads feeding mma, per SM: KiB/µs = r0·(KiB per iteration / 8)^p
    mma_rate_tma: Tuple[float, float]
    tensor_efficiency: float         # mma throughput / datasheet tensor rate (f16, bf16)
    fp32_efficiency: float
    sfu_per_sm_clk: float            # exp results per SM per clock (with its multiply)
    exp2_per_sm_clk: float           # exp2 results per SM per clock
    operand_rates: Tuple[Tuple[str, float, float], ...]   # (role, r0, p): one operand tile's loads
                                     # per SM, KiB/µs = r0·(tile KiB / 8)^p, without TMA
    reduce_us: float                 # latency of one reduction across a block's tile
    access_latency_us: float = 0.0   # version 6: a warp's wait per element access it makes (see
                                     # schedule.py), beyond issuing its instructions
    tma_step_us: float = 0.0         # version 7: one loop iteration of a block whose tiles the tensor
                                     # memory accelerator copies (its producer warps run ahead)
    atomic_ns_by_addresses: Tuple[Tuple[int, float], ...] = ()   # version 22: (addresses, ns per
                                     # atomic on each) of uniformly random atomics over that many
    gather_share: float = 1.0        # version 87: a gather of consecutive elements' share of the
                                     # element law's µs per KiB (lone_blocks.py: below 1 for few blocks)


def _us(cases: Dict[str, dict], name: str) -> float:
    try:
        return float(cases[name]["us"])
    except KeyError:
        raise ValueError(f"microbenchmark '{name}' is missing from the calibration data") from None


def _line(points: Sequence[Tuple[float, float]]) -> Tuple[float, float]:
    """Least-squares (intercept, slope) through `points`."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    return my - slope * mx, slope


def _power_law(points: Sequence[Tuple[float, float]], unit: float) -> Tuple[float, float]:
    """Least-squares (r0, p) of y = r0·(x/unit)^p (a line in log-log)."""
    b, p = _line([(math.log(x / unit), math.log(y)) for x, y in points])
    return math.exp(b), p


# mma_stream shapes (operand dtype, TM, TN, TK) used for the load law: f16/bf16 only (float32
# mma adds arithmetic the law would absorb).
MMA_STREAM = [("float16", 64, 64, 16), ("float16", 128, 64, 32), ("float16", 64, 256, 32),
              ("float16", 128, 128, 16), ("float16", 32, 64, 64), ("bfloat16", 128, 64, 16)]
# operand-layout microbenchmarks (model version 3): A and B streamed, B alone, B along K
ORIENTATION = [("float16", 64, 64, 16), ("float16", 128, 64, 32), ("float16", 64, 256, 32),
               ("float16", 32, 64, 64), ("float16", 64, 32, 64), ("bfloat16", 128, 64, 16)]
# copy loops of model version 6 (bench/cost_kernels.py): (kernel, dtype, tile) -> blocks per SM
# and instructions per element access, read from their cubins (cubin_facts.py)
COPY_LOOPS = {("copy_loop", "f32", 1024): (10, 19.0), ("copy_loop", "f16", 1024): (10, 19.0),
              ("copy_loop", "f16", 4096): (5, 17.25), ("gather_copy_loop", "f16", 1024): (10, 16.0),
              ("gather_copy_loop", "f16", 4096): (7, 13.6), ("gather_copy_loop_unchecked", "f16", 1024): (9, 6.5),
              ("gather_copy_loop_unchecked", "f16", 4096): (4, 5.8)}
ISSUE_PER_SM_CLK = 4


def access_latency(cases: Dict[str, dict]) -> float:
    """The wait per element access of one warp, from persistent copies (tile, gather and
    unchecked gather code) over 132·k blocks: with W warps resident per SM, one warp access
    takes W/rate = a + W·(instructions per access)/(issue rate); a is the median over the runs
    that stay below 70% of the copy bandwidth."""
    copy_bw = 2 * 4 * (1 << 26) / _us(cases, "copy_f32_t1024")
    accesses_per_sm = 2 * (1 << 26) / 32 / H200_SMS
    waits = []
    for (kern, dt, t), (per_sm, per_access) in COPY_LOOPS.items():
        itemsize = 4 if dt == "f32" else 2
        issue = per_access / (ISSUE_PER_SM_CLK * REFERENCE_CLOCK_GHZ * 1e3)       # µs per warp access
        for k in (1, 2, 4, 8, 16):
            us = _us(cases, f"{kern}_{dt}_t{t}_k{k}")
            if k > per_sm or 2 * itemsize * (1 << 26) / us > 0.7 * copy_bw:
                continue
            warps = 4 * k
            waits.append(warps * us / accesses_per_sm - warps * issue)
    waits.sort()
    return waits[len(waits) // 2]


def tma_step(cases: Dict[str, dict]) -> float:
    """The shortest iteration of the load -> mma loops built as a launch builds them (TMA copies,
    a 256-thread block per SM, 2 waves of 132 blocks): the pipeline's step when the data is small."""
    return min(_us(cases, f"mma_stream_{dt}_{tm}x{tn}x{tk}_launch") / (2 * MICRO_ITERATIONS)
               for dt, tm, tn, tk in MMA_STREAM if (dt, tm, tn, tk) != ("float16", 32, 64, 64))


MMA_LOOP = [("float16", 64, 64, 32), ("float16", 64, 64, 64), ("float16", 128, 128, 32),
            ("float16", 64, 256, 64), ("bfloat16", 128, 64, 32)]


def derive(cases: Dict[str, dict]) -> Calibration:
    launch = _us(cases, "empty_1")
    blocks_per_s = (1 << 20) / (_us(cases, "empty_many") * 1e-6)
    copy_bytes = 2 * 4 * (1 << 26)
    dram = copy_bytes / (_us(cases, "copy_f32_t1024") * 1e-6) / 4.8e12
    rows = tuple((row, 2 * 4 * 8192 * 8192 / (_us(cases, name) * 1e-6) / 4.8e12 / dram)
                 for row, name in ((256, "copy_2d_f32_64x64"), (512, "copy_2d_f32_32x128")))
    # streams of one-row tiles: the rate in elements where the copy was not bandwidth-bound
    elements = _power_law([(t, 2 * (1 << 26) / (_us(cases, name) * 1e-6)) for t, name in
                           ((1024, "copy_f16_t1024"), (2048, "copy_f32_t2048"), (4096, "copy_f16_t4096"),
                            (4096, "copy_f32_t4096"))], 1024)
    atomics = 1 << 24
    per_iter = lambda name: _us(cases, name) / MICRO_ITERATIONS        # noqa: E731
    load = _line([(t * 4 / 1024, per_iter(f"load_chain_t{t}_g132")) for t in (256, 1024, 4096)])
    load_tma = _line([(t * 4 / 1024, per_iter(f"load_chain_t{t}_g132_tma")) for t in (1024, 4096)])
    tensor = sorted(H200_SMS * 16 * MMA_LOOP_ITERATIONS * 2 * tm * tn * tk /
                    (_us(cases, f"mma_{dt}_{tm}x{tn}x{tk}_g{H200_SMS * 16}") * 1e-6) / H200_TENSOR_PEAK
                    for dt, tm, tn, tk in MMA_LOOP)
    tensor_eff = tensor[len(tensor) // 2]
    per_block_tc = tensor_eff * H200_TENSOR_PEAK / H200_SMS / 2          # two blocks per SM

    def mma_points(suffix: str) -> List[Tuple[float, float]]:
        """(KiB per iteration, KiB/µs per SM): two blocks per SM share the operand path."""
        pts = []
        for dt, tm, tn, tk in MMA_STREAM:
            kib = (tm * tk + tk * tn) * 2 / 1024
            mma_us = 2 * tm * tn * tk / per_block_tc * 1e6
            pts.append((kib, 2 * kib / (per_iter(f"mma_stream_{dt}_{tm}x{tn}x{tk}{suffix}") - mma_us)))
        return pts
    def role_points(role: str) -> List[Tuple[float, float]]:
        """(tile KiB, KiB/µs per SM) of one operand role: B alone from the B-only loops, A as
        what streaming A adds to them."""
        pts = []
        for dt, tm, tn, tk in ORIENTATION:
            t = lambda kern: per_iter(f"{kern}_{dt}_{tm}x{tn}x{tk}_v3")      # noqa: E731
            ka, kb = tm * tk * 2 / 1024, tk * tn * 2 / 1024
            if role == "a":
                pts += [(ka, 2 * ka / (t("mma_stream") - t("mma_stream_b_only"))),
                        (ka, 2 * ka / (t("mma_stream_b_kmajor") - t("mma_stream_b_only_kmajor")))]
            else:
                pts.append((kb, 2 * kb / t("mma_stream_b_only" + ("_kmajor" if role == "b-kmajor" else ""))))
        return pts
    fma = 2 * H200_SMS * 16 * MMA_LOOP_ITERATIONS * 64 * 64 / (_us(cases, "fma_loop_g2112") * 1e-6)
    exps = H200_SMS * 16 * MMA_LOOP_ITERATIONS * 64 * 64 / (_us(cases, "exp_loop_g2112") * 1e-6)
    return Calibration(
        launch_us=launch, blocks_per_s=blocks_per_s, dram_efficiency=dram, row_efficiency=rows,
        element_rate=elements, atomic_ns=_us(cases, "atomic_random_1024") * 1e3 / (atomics / 1024),
        atomics_per_s=atomics / (_us(cases, "atomic_random_16384") * 1e-6),
        load_us=load, load_us_tma=load_tma,
        mma_rate=_power_law(mma_points(""), 8), mma_rate_tma=_power_law(mma_points("_tma"), 8),
        tensor_efficiency=tensor_eff, fp32_efficiency=fma / H200_FP32_PEAK,
        sfu_per_sm_clk=exps / H200_SMS / (REFERENCE_CLOCK_GHZ * 1e9),
        exp2_per_sm_clk=H200_SMS * 16 * MMA_LOOP_ITERATIONS * 64 * 64 / (_us(cases, "exp2_loop_g2112") * 1e-6)
        / H200_SMS / (REFERENCE_CLOCK_GHZ * 1e9),
        operand_rates=tuple((role,) + _power_law(role_points(role), 8) for role in ("a", "b", "b-kmajor")),
        reduce_us=_us(cases, "reduce_loop_t1024_g132") / MICRO_ITERATIONS,
        access_latency_us=access_latency(cases), tma_step_us=tma_step(cases),
        atomic_ns_by_addresses=tuple((bins, _us(cases, f"atomic_random_{bins}") * 1e3 / (atomics / bins))
                                     for bins in ATOMIC_BINS))


# atomic_random's bins (version 22): below 1,024 addresses, the lanes of one warp that hit one
# address are combined, so the time per atomic on each address falls with fewer addresses
ATOMIC_BINS = (16, 64, 256, 1024, 4096)


ACCESS_LATENCY = 0.03561            # µs; access_latency() of the cost_micro6*_h200.json copy loops, rounded

# derive(bench/results/cost_micro_h200.json), rounded (tests/cost/test_calibration.py checks it)
H200 = Calibration(
    launch_us=0.71, blocks_per_s=1.660e9, dram_efficiency=0.8678,
    row_efficiency=((256, 0.09130), (512, 0.1066)), element_rate=(1.366e12, -0.7277),
    atomic_ns=86.30, atomics_per_s=6.817e10,
    load_us=(0.3266, 0.07773), load_us_tma=(0.3878, 0.02683),
    mma_rate=(3.078, -0.1663), mma_rate_tma=(4.084, -0.4412),
    tensor_efficiency=0.8214, fp32_efficiency=0.7763, sfu_per_sm_clk=10.44, reduce_us=0.1788,
    exp2_per_sm_clk=15.65,
    operand_rates=(("a", 2.621, 0.1373), ("b", 3.048, -0.2896), ("b-kmajor", 4.267, -0.2461)),
    access_latency_us=ACCESS_LATENCY, tma_step_us=0.1580,
    atomic_ns_by_addresses=((16, 2.954), (64, 18.53), (256, 65.97), (1024, 86.30), (4096, 116.9)))
