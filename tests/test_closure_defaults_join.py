"""Closures of one function made on two paths keep each path's default values when they join at
an `if` (a default is evaluated where the `def` runs, not looked up when the closure is called)."""
from pathlib import Path

import numpy as np

from tilescope.backends.numpy.launcher import run_kernel
from tilescope.lang.shim import load_file

CORPUS = Path(__file__).parent / "corpus" / "ported" / "closures.py"


def test_defaults_of_closures_joined_at_an_if_are_the_defs_values():
    mod = load_file(str(CORPUS))
    x = np.zeros(2, dtype=np.int32)
    run_kernel((2,), mod.host_closure_default_from_branch, (x,))
    assert x.tolist() == [3, 4]           # not the factory's later `default = -1`
