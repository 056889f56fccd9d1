"""Version 35: a fenced atomic that ends a block running alone on its SM waits longer
(docs/cost-model.md history 65, `sum_atomic` of bench/results/cost_micro33_atomics_h200.json)."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import locks, model
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.locks import FENCED_ATOMIC_ALONE_US, FENCED_ATOMIC_US, fenced_atomics_us
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_atomics.py"))
sum_into_one, sum_into_one_relaxed = KERNELS.sum_into_one, KERNELS.sum_into_one_relaxed


ALONE = CubinFacts("k", threads=256, registers=255, shared_bytes=3128, local_bytes=0, instructions=300,
                   global_loads=0, global_stores=0, local_loads=0, local_stores=0, tma_loads=1, tma_stores=0,
                   global_access_bytes=8.0, loads_in_flight=1.0, global_load_bytes=8.0, local_load_waits=0,
                   reload_bytes=0)
SHARED = dataclasses.replace(ALONE, threads=128, registers=32, tma_loads=0)
N = 1 << 26


def _latency(kernel, facts):
    r = tilescope.cost(kernel, f"f64[{N}], f64[1], 256", (N // 256,), "h200", aligned=False)
    return model.predict(r.counts, gpu_named("h200"), facts=facts)


def test_the_fenced_atomic_of_a_block_alone_on_its_sm_waits_longer():
    r = tilescope.cost(sum_into_one, f"f64[{N}], f64[1], 256", (N // 256,), "h200", aligned=False)
    region = next(x for x in r.counts.regions if any(a.kind == "atomic" for a in x.accesses))
    assert fenced_atomics_us(region) == pytest.approx(FENCED_ATOMIC_US)
    assert fenced_atomics_us(region, alone=True) == pytest.approx(FENCED_ATOMIC_US + FENCED_ATOMIC_ALONE_US)


def test_only_one_block_an_sm_and_only_fenced_atomics_pay_it(monkeypatch):
    waves = (N // 256) / 132
    alone, relaxed = _latency(sum_into_one, ALONE), _latency(sum_into_one_relaxed, ALONE)
    assert alone.blocks_per_sm == 1
    gap = (alone.terms["latency"] - relaxed.terms["latency"]) / waves
    # the fence's round trip and the wait of a block alone on its SM (at the H200's clock)
    assert gap == pytest.approx(FENCED_ATOMIC_US + FENCED_ATOMIC_ALONE_US, rel=0.05)
    # measured 3,125 µs as launched (one block an SM)
    assert 2700 < alone.terms["latency"] < 3500
    # blocks that share their SM keep version 17's wait: a larger constant changes nothing for them
    shared = _latency(sum_into_one, SHARED)
    assert shared.blocks_per_sm > 1
    monkeypatch.setattr(locks, "FENCED_ATOMIC_ALONE_US", 100.0)
    assert _latency(sum_into_one, SHARED).predicted_us == pytest.approx(shared.predicted_us)
    assert _latency(sum_into_one, ALONE).predicted_us > 10 * alone.predicted_us
