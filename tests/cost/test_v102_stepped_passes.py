"""Model version 102 (docs/cost-model.md history 178).

A loop that tileiras unrolls into passes of k steps (its longest loop's LDGs k times one step's)
issues the pass's code once per k steps: the looped region's issue floor is the pass's over k.
The `stepped_*` microbenchmark of 128 (1, 32) float32 rows summed by each of 1,182 blocks
(dynamic; eight steps a pass) took 37.4 µs on an H100; version 101, charging the pass's code at
every step, had 145.5."""
import json
import os

from tilescope.costmodel import model, schedule
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file
import tilescope

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STEPPED = load_file(os.path.join(ROOT, "bench", "cost_kernels_stepped.py"))
H100 = gpu_named("h100")
SPEC = "f32[151296, 32], f32[1182, 32], 32, 128"
MEASURED_US = 37.4          # bench/results/cost_micro_stepped_h100.json
# stepped_sum_f32_t32_g1182 as tileiras 13.3 built it (kept with version 101's predictions)
with open(os.path.join(ROOT, "bench", "results", "cost_micro_stepped_v101_h100_predictions.json")) as f:
    FACTS = CubinFacts(**json.load(f)["stepped_sum_f32_t32_g1182"]["schedule"])


def _counts():
    return tilescope.cost(STEPPED.row_steps_sum, SPEC, (1182,), "h100", aligned=False, cubin=False).counts


def test_a_pass_of_eight_unrolled_steps_issues_its_code_once_per_eight():
    counts = _counts()
    loop = [r for r in counts.regions if r.op is not None][0]
    assert schedule.unrolled_by_loads(loop, FACTS) == 8
    predicted = model.predict(counts, H100, facts=FACTS).predicted_us
    assert abs(predicted / MEASURED_US - 1) <= 0.3


def test_charging_the_pass_at_every_step_is_past_two_times(monkeypatch):
    monkeypatch.setattr(model, "unrolled_by_loads", lambda r, facts: 1)
    assert model.predict(_counts(), H100, facts=FACTS).predicted_us / MEASURED_US > 2
