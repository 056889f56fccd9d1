"""The compiled backend's per-process caches stay bounded: built kernels (engine._kernels) and
launch plans (runner._plans) keep only the most recently used, and an evicted kernel's library
is unloaded once nothing holds it."""
import gc
import os
import weakref

import numpy as np
import pytest

import cuda.tile as ct
import tilescope
from tilescope.backends.compiled import engine, runner, toolchain

pytestmark = pytest.mark.skipif(not toolchain.available(), reason="no C compiler")


@ct.kernel
def _add_bound(a, c, T: ct.Constant[int]):
    bid = ct.bid(0)
    ct.store(c, index=(bid,), tile=ct.load(a, index=(bid,), shape=(T,)) + 7.25)


def _launch(tile, n=64):
    a = np.arange(n, dtype=np.float32)
    c = np.zeros(n, np.float32)
    tilescope.launch((n // tile,), _add_bound, (a, c, tile))
    assert (c == a + 7.25).all()
    return engine.last_launch()


def _mapped(path) -> bool:
    with open("/proc/self/maps") as f:
        return any(line.rstrip().endswith(path) for line in f)


@pytest.fixture
def small_caches(monkeypatch):
    monkeypatch.delenv("TILESCOPE_ENGINE", raising=False)
    monkeypatch.setattr(engine, "KERNELS_KEPT", 2)
    monkeypatch.setattr(engine, "_kernels", type(engine._kernels)())
    monkeypatch.setattr(runner, "PLANS_KEPT", 2)
    monkeypatch.setattr(runner, "_plans", type(runner._plans)())


def test_built_kernels_keep_only_the_most_recently_used(small_caches):
    assert "threads" in _launch(16)          # ran compiled
    first = next(iter(engine._kernels.values()))[1]
    first_lib, first_ref = first.lib._name, weakref.ref(first)
    del first
    unloads = os.path.exists("/proc/self/maps") and engine._UNLOAD is not None
    assert not unloads or _mapped(first_lib)
    _launch(8)
    _launch(16)                              # the fast path: no rebuild, the plan holds the kernel
    _launch(4)
    assert len(engine._kernels) == 2 and len(runner._plans) == 2
    _launch(2)
    assert len(engine._kernels) == 2 and len(runner._plans) == 2
    gc.collect()
    assert first_ref() is None               # evicted from both caches and freed
    assert not unloads or not _mapped(first_lib)       # and its library unloaded
    assert "threads" in _launch(16)          # an evicted kernel builds (here: loads) again and runs
    assert len(engine._kernels) == 2 and len(runner._plans) == 2


def test_launch_plans_keep_only_the_most_recently_used(small_caches):
    for n in (64, 128, 192):
        _launch(16, n)
    kept = [key[2][0][1] for key in runner._plans]          # the first argument's shape
    assert kept == [(128,), (192,)]
    _launch(16, 128)                                         # the fast path makes it the most recent
    _launch(16, 256)
    assert [key[2][0][1] for key in runner._plans] == [(128,), (256,)]
