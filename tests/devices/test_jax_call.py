"""`cuda.tile.jax.cutile_call` on the CPU executor (needs JAX; skipped without it)."""
import os

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from tilescope.lang import jax as ctjax  # noqa: E402
from tilescope.lang.shim import load_file  # noqa: E402

K = load_file(os.path.join(os.path.dirname(__file__), "kernels_aot.py"), "_tilescope_test_kernels_aot_jax")


def test_outputs_and_in_place_buffers_come_back_to_jax():
    x = jax.numpy.arange(512, dtype=jax.numpy.float32)
    y = jax.numpy.ones(512, dtype=jax.numpy.float32)

    def f(x, y):
        return ctjax.cutile_call((4,), K.axpy, (x, y, ctjax.OutputPlaceholder((512,), np.float32), 2.0, 128))

    out = jax.jit(f)(x, y)
    np.testing.assert_array_equal(np.asarray(out), 2.0 * np.arange(512, dtype=np.float32) + 1)
    both = ctjax.cutile_call((4,), K.axpy, (x, y, ctjax.InputOutput(y), 3.0, 128))
    np.testing.assert_array_equal(np.asarray(both), 3.0 * np.arange(512, dtype=np.float32) + 1)
