"""Debugging kernels on the CPU: breakpoint() namespaces, TILESCOPE_BLOCK, `tilescope run --block/--pdb`.

The pdb session is replaced by a recorder, so no test is interactive.
"""
import io
import os
import subprocess
import sys

import numpy as np
import pytest

from tilescope.backends.numpy import debugger
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.run import LaunchError
from tests.backends import kernels_debug as K


@pytest.fixture
def sessions(monkeypatch):
    """Every breakpoint session's (namespace, banner), in order."""
    monkeypatch.delenv(debugger.ENV_BLOCK, raising=False)
    monkeypatch.delenv(debugger.ENV_PDB, raising=False)
    seen = []
    previous = debugger.set_interact(lambda ns, banner: seen.append((ns, banner)))
    yield seen
    debugger.set_interact(previous)


def test_namespace_holds_user_variables_of_the_first_block(sessions):
    x = np.arange(32, dtype=np.float32)
    y = np.zeros_like(x)
    run_kernel((4,), K.break_after_load, (x, y, 8))
    ns, banner = sessions[0]
    assert ns["_block"] == (0, 0, 0) and ns["_kernel"] == "break_after_load"
    assert np.array_equal(ns["tile"], x[:8]) and ns["tile"].shape == (8,)
    assert np.array_equal(ns["doubled"], 2 * x[:8])
    assert int(ns["bid"]) == 0 and int(ns["total"]) == 100
    assert ns["x"] is x and ns["y"] is y              # arrays are the caller's arrays
    assert "break_after_load" in banner and "block (0, 0, 0)" in banner and "kernels_debug.py" in banner
    assert "unused" not in ns                          # eliminated as dead code
    assert np.array_equal(y, 2 * x * np.repeat(np.arange(4) + 100, 8))   # the launch continued


def test_block_selected_by_environment(sessions, monkeypatch):
    monkeypatch.setenv(debugger.ENV_BLOCK, "2,0,0")
    x = np.arange(32, dtype=np.float32)
    y = np.zeros_like(x)
    run_kernel((4,), K.break_after_load, (x, y, 8))
    assert len(sessions) == 1
    ns, _ = sessions[0]
    assert ns["_block"] == (2, 0, 0) and np.array_equal(ns["tile"], x[16:24]) and int(ns["total"]) == 102
    # TILESCOPE_BLOCK also makes the launch run that block only.
    assert np.array_equal(y[16:24], 2 * x[16:24] * 102) and not y[:16].any() and not y[24:].any()


def test_breakpoint_in_loop_sees_carried_value(sessions):
    x = np.zeros(8, dtype=np.float32)
    run_kernel((2,), K.break_in_loop, (x, 4))
    accs = [ns["acc"] for ns, _ in sessions]
    assert [float(a[0]) for a in accs] == [1.0, 2.0, 3.0]
    assert [int(ns["i"]) for ns, _ in sessions] == [0, 1, 2]


def test_breakpoint_in_branch_shows_an_active_block(sessions):
    x = np.arange(16, dtype=np.float32)
    run_kernel((4,), K.break_in_branch, (x.copy(), 4), group=4)
    ns, _ = sessions[0]
    assert ns["_block"] == (1, 0, 0)                  # block 0 does not take the branch
    assert np.array_equal(ns["odd"], x[4:8] + 1)


def test_same_sessions_one_block_at_a_time(sessions):
    x = np.arange(16, dtype=np.float32)
    run_kernel((4,), K.break_in_branch, (x.copy(), 4), sequential=True)
    assert [ns["_block"] for ns, _ in sessions] == [(1, 0, 0), (3, 0, 0)]


def test_stop_at_entry_shows_parameters(sessions, monkeypatch):
    monkeypatch.setenv(debugger.ENV_PDB, "1")
    x = np.zeros(4, dtype=np.int32)
    run_kernel((4,), K.mark_blocks, (x,))
    ns, banner = sessions[0]
    assert ns["x"] is x and set(k for k in ns if not k.startswith("_")) == {"x"}
    assert "kernel entry" in banner
    assert list(x) == [1, 2, 3, 4]


def test_run_only_one_block():
    x = np.zeros(4, dtype=np.int32)
    run_kernel((4,), K.mark_blocks, (x,), block=(2,))
    assert list(x) == [0, 0, 3, 0]
    y = np.zeros((3, 2), dtype=np.int32)
    run_kernel((3, 2), K.mark_blocks_2d, (y,), block="2, 1")
    assert y.tolist() == [[0, 0], [0, 0], [0, 21]]


@pytest.mark.parametrize("block", [(4,), (0, 1), "a,b", "1,2,3,4"])
def test_bad_block_is_a_launch_error(block):
    with pytest.raises(LaunchError):
        run_kernel((4,), K.mark_blocks, (np.zeros(4, np.int32),), block=block)


def test_parse_block():
    assert debugger.parse_block("3") == (3, 0, 0)
    assert debugger.parse_block("(1, 2)") == (1, 2, 0)
    assert debugger.parse_block("1,2,3") == (1, 2, 3)
    with pytest.raises(ValueError):
        debugger.parse_block("-1")


SCRIPT = '''
import numpy as np
import cuda.tile as ct


@ct.kernel
def mark(x):
    bid = ct.bid(0)
    ct.store(x, index=(bid,), tile=bid + 1)


x = np.zeros(4, dtype=np.int32)
ct.launch(None, (4,), mark, (x,))
print(x.tolist())
'''


def _tilescope(*args, stdin=""):
    env = dict(os.environ)
    env.pop(debugger.ENV_BLOCK, None)
    env.pop(debugger.ENV_PDB, None)
    src = os.path.join(os.path.dirname(__file__), "..", "..", "src")
    env["PYTHONPATH"] = os.path.abspath(src) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "tilescope", *args], input=stdin, capture_output=True,
                          text=True, env=env, timeout=120)


def test_cli_run_block(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    r = _tilescope("run", "--block", "1", str(script))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "[0, 2, 0, 0]"


def test_cli_run_pdb_stops_at_entry(tmp_path):
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    r = _tilescope("run", "--pdb", "--block", "3", str(script), stdin="p x.shape\np _block\nc\n")
    assert r.returncode == 0, r.stderr
    assert "(4,)" in r.stdout and "(3, 0, 0)" in r.stdout
    assert "kernel entry in kernel 'mark'" in r.stderr
    assert r.stdout.strip().splitlines()[-1].endswith("[0, 0, 0, 4]")   # after the last pdb prompt
