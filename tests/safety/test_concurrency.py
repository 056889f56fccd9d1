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
