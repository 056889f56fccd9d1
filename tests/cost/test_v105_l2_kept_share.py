"""Model version 105 (docs/cost-model.md history 182).

A loop that waits for each step's load finds in L2 the share of the launch's data that L2 keeps
from the launch before: all of it where the data fit half the L2 (version 79), that room over the
data where they do not. The `stepped_*` microbenchmark of 128 (1, 64) float32 rows summed by each
of 1,182 blocks (39 MB read, one wait a step) took 64.4 µs on an H100; version 104, charging
DRAM's whole round trip at every step, had 144.5 (2.2x)."""
import json
import os

from tilescope.costmodel import l2_kept, model
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file
import tilescope

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STEPPED = load_file(os.path.join(ROOT, "bench", "cost_kernels_stepped.py"))
H100 = gpu_named("h100")
MEASURED_US = 64.4          # bench/results/cost_micro_stepped_h100.json, stepped_sum_f32_t64_g1182
# as tileiras 13.3 built it (kept with version 101's predictions)
with open(os.path.join(ROOT, "bench", "results", "cost_micro_stepped_v101_h100_predictions.json")) as f:
    FACTS = CubinFacts(**json.load(f)["stepped_sum_f32_t64_g1182"]["schedule"])


def _counts(steps: int = 128):
    spec = f"f32[{1182 * steps}, 64], f32[1182, 64], 64, {steps}"
    return tilescope.cost(STEPPED.row_steps_sum, spec, (1182,), "h100", aligned=False, cubin=False).counts


def test_data_past_the_l2_keep_its_room_over_their_size():
    counts = _counts()
    share = l2_kept.l2_kept_share(counts, H100)
    footprint = sum(a.dram_bytes for a in counts.accesses)
    assert 38e6 < footprint < 40e6
    assert abs(share - l2_kept.IN_L2_SHARE * H100.l2_mb * 1e6 / footprint) < 1e-9
    assert l2_kept.l2_kept_share(_counts(32), H100) == 1.0      # 9.7 MB: kept whole


def test_each_steps_wait_is_l2s_for_the_kept_share():
    predicted = model.predict(_counts(), H100, facts=FACTS).predicted_us
    assert abs(predicted / MEASURED_US - 1) <= 0.3


def test_dram_for_every_wait_is_past_two_times(monkeypatch):
    monkeypatch.setattr(model, "l2_kept_share", lambda counts, gpu, held=None: 0.0)
    assert model.predict(_counts(), H100, facts=FACTS).predicted_us / MEASURED_US > 2
