"""Launches from several threads: registration of the ops and the compile caches are
thread-safe (first launches used to fail with KeyError: 'bid' / 'add' and missing rules)."""
import os
import subprocess
import sys
import threading

import numpy as np

import tilescope
import tilescope.lang as ct

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(os.path.dirname(HERE)), "src")


def test_concurrent_first_launches_in_fresh_processes():
    # Before registration was locked, every one of these runs failed (6 of 6 tried).
    env = dict(os.environ, PYTHONPATH=SRC)
    for _ in range(3):
        p = subprocess.run([sys.executable, os.path.join(HERE, "concurrent_first_launches.py"), "8"],
                           capture_output=True, text=True, env=env, timeout=300)
        assert p.returncode == 0 and p.stdout.strip() == "OK", p.stdout + p.stderr


@ct.kernel
def _shift(a, c, k, T: ct.Constant[int]):
    bid = ct.bid(0)
    ct.store(c, index=(bid,), tile=ct.load(a, index=(bid,), shape=(T,)) + k)


def test_many_threads_share_one_compiled_kernel():
    results = {}

    def run(i):
        a = np.arange(64, dtype=np.float32)
        c = np.zeros(64, np.float32)
        tilescope.launch((4,), _shift, (a, c, float(i), 16))
        results[i] = bool((c == a + i).all())

    threads = [threading.Thread(target=run, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {i: True for i in range(12)}


def test_compile_cache_keeps_only_the_most_recent_kernels(monkeypatch):
    """A long process compiling many kernels (a test suite, the fuzzer) must not keep them all."""
    import gc
    import weakref
    from tilescope.backends.numpy import launcher
    monkeypatch.setenv("TILESCOPE_ENGINE", "numpy")      # this executor's cache (the compiled backend has its own)
    monkeypatch.setattr(launcher, "COMPILED_KEPT", 2)
    monkeypatch.setattr(launcher, "_compiled", type(launcher._compiled)())
    a = np.arange(64, dtype=np.float32)

    def launch(tile):
        c = np.zeros(64, np.float32)
        tilescope.launch((64 // tile,), _shift, (a, c, 1.0, tile))
        assert (c == a + 1).all()
    def kept():
        return sorted(int(key[1][3]) for key in launcher._compiled)
    launch(16)
    first = weakref.ref(next(iter(launcher._compiled.values())))
    launch(8)
    launch(16)                       # used again: now the most recent
    launch(4)
    assert kept() == [4, 16]         # the least recently used (8) went first
    launch(2)
    assert kept() == [2, 4]
    gc.collect()
    assert first() is None           # evicted and freed
    launch(16)                       # an evicted kernel compiles again when launched
    assert kept() == [2, 16]


def test_front_end_cache_keeps_a_bounded_number_of_functions(monkeypatch, tmp_path):
    """Every new kernel file used to stay in the HIR cache for the life of the process."""
    from tilescope.frontend import source
    from tilescope.lang.shim import load_file
    monkeypatch.setattr(source, "_HIR_KEPT", 2)
    monkeypatch.setattr(source, "_hir_cache", {})
    for i in range(5):
        path = tmp_path / f"k{i}.py"
        path.write_text("import cuda.tile as ct\n\n@ct.kernel\ndef k(a):\n"
                        f"    ct.store(a, index=(0,), tile=ct.full((4,), {i}, dtype=ct.float32))\n")
        tilescope.compile(load_file(str(path)).k, "f32[4]")
        assert 1 <= len(source._hir_cache) <= 2
