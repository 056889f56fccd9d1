"""A launch completes or leaves every array it can write as it was: on Ctrl-C (a real SIGINT)
and on any exception raised mid-launch."""
import os
import signal
import subprocess
import sys

import numpy as np
import pytest

import tilescope.lang as ct
from tilescope.backends.numpy import executor, rollback
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.errors import TileError

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(os.path.dirname(HERE)), "src")


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
def test_sigint_mid_launch_restores_every_output():
    env = dict(os.environ, PYTHONPATH=SRC)
    p = subprocess.Popen([sys.executable, os.path.join(HERE, "interrupted_launch.py")], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = p.stdout.readline()
        assert line.strip() == "running", line + p.stderr.read()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=300)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    assert "restored=True" in out and "numpy_frames=0" in out, out
    groups = int(out.split("after ")[1].split(" ")[0])
    assert groups >= 2                                   # some groups had written before the SIGINT
    assert "interrupted; its arrays are as they were before it" in out


@ct.kernel
def _assert_late(x, y, T: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(T,))
    ct.store(y, index=(bid,), tile=t + 1)
    ct.assert_(bid < 50, "block too far")


def test_failed_assert_mid_launch_restores_outputs():
    x = np.arange(64 * 16, dtype=np.float32)
    y = np.full(64 * 16, -1.0, np.float32)
    before = y.copy()
    with pytest.raises(TileError, match="block too far"):
        run_kernel((64,), _assert_late, (x, y, 16), group=4)      # blocks 0..47 have stored by then
    assert np.array_equal(y, before)


@ct.kernel
def _two_outputs(x, y, z, T: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(T,))
    ct.store(y, index=(bid,), tile=t * 2)
    ct.atomic_add(z, bid % 4, 1.0)


def test_any_exception_mid_launch_restores_all_written_arrays(monkeypatch):
    calls = []
    real_run = executor.Executor.run

    def run_then_fail(self):
        real_run(self)
        calls.append(1)
        if len(calls) == 3:
            raise MemoryError("simulated")
    monkeypatch.setattr(executor.Executor, "run", run_then_fail)
    x = np.ones(16 * 32, np.float32)
    y = np.full(16 * 32, 5.0, np.float32)
    z = np.zeros(4, np.float32)
    before_y, before_z = y.copy(), z.copy()
    with pytest.raises(MemoryError):
        run_kernel((32,), _two_outputs, (x, y, z, 16), group=4)
    assert np.array_equal(y, before_y) and np.array_equal(z, before_z)


@ct.kernel
def _copy(x, y, T: ct.Constant[int]):
    bid = ct.bid(0)
    ct.store(y, index=(bid,), tile=ct.load(x, index=(bid,), shape=(T,)) + 1)


def test_overlapping_written_views_are_restored_exactly(monkeypatch):
    base = np.arange(40, dtype=np.float32)
    before = base.copy()
    calls = []
    real_run = executor.Executor.run

    def run_then_fail(self):
        real_run(self)
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("simulated")
    monkeypatch.setattr(executor.Executor, "run", run_then_fail)
    with pytest.raises(RuntimeError):
        run_kernel((4,), _copy, (base[:32], base[8:40], 8), group=1, checks={"races": False})
    assert np.array_equal(base, before)


def test_only_written_arrays_are_copied(monkeypatch):
    sizes = []
    real = rollback.Snapshot.__init__

    def record(self, values, written):
        real(self, values, written)
        sizes.append(self.nbytes)
    monkeypatch.setattr(rollback.Snapshot, "__init__", record)
    x = np.ones(1 << 16, np.float32)
    y = np.zeros(1 << 16, np.float32)
    run_kernel((64,), _copy, (x, y, 1024), engine="numpy")     # (the compiled backend copies nothing here)
    assert sizes == [y.nbytes]          # the input is not copied
