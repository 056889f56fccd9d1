"""Model version 18: loads in flight and the DRAM's rate limit a stream together. Near the knee, where
Little's law for the loads in flight and the DRAM's rate give similar times, the loaded round trip
lengthens as the DRAM fills, so the stream takes longer than either; the model takes their p-norm.
The exponent is the one the stored round-trip microbenchmarks (bench/results/cost_micro18rt_h200.json:
copies and two- and three-input adds at tiles of 256 and 1,024, and the 4,096-element copy) fit best."""
import json
import math
import os

import pytest

import tilescope
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import read_cubin_facts, schedule
from tilescope.costmodel.schedule import queued_us
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLCHAIN = find_toolchain(required=False)
needs_tileiras = pytest.mark.skipif(TOOLCHAIN is None, reason="tileiras not found")
MOVED = 768 * (1 << 20)          # bytes each round-trip microbenchmark moves
FITTED = [(kernel, inputs, tile) for tile in (256, 1024)
          for kernel, inputs in (("copy_1d", 1), ("add_1d", 2), ("add3_1d", 3))] + [("copy_1d", 1, 4096)]


def test_the_queued_time_meets_each_limit_far_from_the_knee_and_exceeds_both_near_it():
    assert queued_us(0.0, 100.0) == 0.0                     # nothing loaded element by element
    assert queued_us(10.0, 100.0) == pytest.approx(100.0, rel=1e-2)
    assert queued_us(1000.0, 100.0) == pytest.approx(1000.0, rel=1e-2)
    at_knee = queued_us(100.0, 100.0)
    assert at_knee == pytest.approx(100.0 * 2 ** (1 / schedule.QUEUE_EXPONENT))
    assert 100.0 < at_knee < 200.0                          # more than either, less than their sum
    assert queued_us(120.0, 100.0) > queued_us(100.0, 100.0)


def _ratios():
    """Predicted over measured for the fitted round-trip cases, each with its own cubin."""
    kernels = load_file(os.path.join(ROOT, "bench", "cost_kernels.py"))
    with open(os.path.join(ROOT, "bench", "results", "cost_micro18rt_h200.json")) as f:
        measured = json.load(f)["cases"]
    out = []
    for kernel, inputs, tile in FITTED:
        n = MOVED // 4 // (inputs + 1)
        dynamic = ", ".join(["float32[?]"] * (inputs + 1) + [str(tile)])
        cubin = tilescope.compile(getattr(kernels, kernel), dynamic).cubin("sm_90")
        spec = ", ".join([f"float32[{n}]"] * (inputs + 1) + [str(tile)])
        r = tilescope.cost(getattr(kernels, kernel), spec, (n // tile,), "h200", cubin=cubin)
        out.append(r.predicted_us / measured[f"rt_{kernel}_f32_t{tile}"]["us"])
    return out


@needs_tileiras
def test_the_exponent_is_the_best_fit_of_the_round_trip_microbenchmarks(monkeypatch):
    chosen, errors = schedule.QUEUE_EXPONENT, {}
    for p in (2.0, 2.5, 3.0, 3.5):
        monkeypatch.setattr(schedule, "QUEUE_EXPONENT", p)
        errors[p] = math.sqrt(sum(math.log(r) ** 2 for r in _ratios()) / len(FITTED))
    assert min(errors, key=errors.get) == chosen


@needs_tileiras
def test_two_input_adds_with_two_loads_in_flight_are_no_longer_at_the_dram_rate():
    ratios = dict(zip(FITTED, _ratios()))
    for case, ratio in ratios.items():
        assert 0.85 < ratio < 1.15, case
    # the adds' cubins keep two 4-byte loads a lane in flight: the DRAM rate alone gave 0.76
    cubin = tilescope.compile(load_file(os.path.join(ROOT, "bench", "cost_kernels.py")).add_1d,
                              "float32[?], float32[?], float32[?], 1024").cubin("sm_90")
    assert read_cubin_facts(cubin).loads_in_flight == 2.0
    assert ratios[("add_1d", 2, 1024)] > 0.9


@needs_tileiras
def test_loads_queued_at_the_dram_are_named_memory_and_too_few_in_flight_latency():
    kernels = load_file(os.path.join(ROOT, "bench", "cost_kernels.py"))
    bounds = {}
    for kernel, inputs, tile in (("add_1d", 2, 1024), ("copy_1d", 1, 4096)):
        n = MOVED // 4 // (inputs + 1)
        cubin = tilescope.compile(getattr(kernels, kernel), ", ".join(["float32[?]"] * (inputs + 1) + [str(tile)])).cubin("sm_90")
        r = tilescope.cost(getattr(kernels, kernel), ", ".join([f"float32[{n}]"] * (inputs + 1) + [str(tile)]),
                           (n // tile,), "h200", cubin=cubin)
        p = r.prediction
        assert p.terms["latency"] > p.terms["memory"]          # the queued time is what limits both
        bounds[kernel] = r.bound
    # the add's loads in flight would outrun the DRAM alone; the 4,096-element copy's would not
    assert bounds == {"add_1d": "memory", "copy_1d": "latency"}
