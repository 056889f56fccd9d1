"""The BLAS NumPy itself calls (for `mma`'s products, bit-identical to the executor's np.matmul)."""
from __future__ import annotations

import ctypes
import glob
import os
from functools import lru_cache
from typing import Tuple


class BlasMissing(Exception):
    pass


# (sgemm, dgemm, is ILP64) symbol names, most specific first
_SYMBOLS = [("scipy_cblas_sgemm64_", "scipy_cblas_dgemm64_", 1), ("cblas_sgemm64_", "cblas_dgemm64_", 1),
            ("scipy_cblas_sgemm", "scipy_cblas_dgemm", 0), ("cblas_sgemm", "cblas_dgemm", 0)]


@lru_cache(maxsize=None)
def library():
    import numpy as np
    here = os.path.dirname(np.__file__)
    names = []
    for d in (os.path.join(here, "..", "numpy.libs"), os.path.join(here, ".dylibs"), here):
        names += glob.glob(os.path.join(d, "*openblas*")) + glob.glob(os.path.join(d, "*blas*"))
    for path in names:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for s, d, ilp in _SYMBOLS:
            if hasattr(lib, s) and hasattr(lib, d):
                return lib, s, d, ilp
    raise BlasMissing("NumPy's BLAS library was not found")


@lru_cache(maxsize=None)
def gemm_pointers() -> Tuple[int, int, int]:
    lib, s, d, ilp = library()
    return (ctypes.cast(getattr(lib, s), ctypes.c_void_p).value, ctypes.cast(getattr(lib, d), ctypes.c_void_p).value,
            ilp)


@lru_cache(maxsize=None)
def _set_local_threads():
    """OpenBLAS's per-thread thread count setter, or None (other BLAS libraries)."""
    lib = library()[0]
    fn = getattr(lib, "openblas_set_num_threads_local", None)
    if fn is not None:
        fn.argtypes, fn.restype = [ctypes.c_int], ctypes.c_int
    return fn


class one_thread:
    """Within this context the calling thread's BLAS calls run on that thread alone (the
    compiled kernel's own threads share the cores)."""

    def __enter__(self):
        fn = _set_local_threads()
        self.old = fn(1) if fn is not None else None
        return self

    def __exit__(self, *exc):
        fn = _set_local_threads()
        if fn is not None and self.old is not None:
            fn(self.old)


def agrees_with_numpy(dtype: str, m: int, n: int, k: int) -> bool:
    """Whether this thread's BLAS call, as compiled kernels make it, equals np.matmul's result
    in every bit on random (m, k) @ (k, n) operands."""
    return _agrees(dtype, m, n, k)


@lru_cache(maxsize=None)
def _agrees(dtype: str, m: int, n: int, k: int) -> bool:
    import numpy as np
    rng = np.random.default_rng(1)
    x = rng.standard_normal((m, k)).astype(dtype)
    y = rng.standard_normal((k, n)).astype(dtype)
    want = np.matmul(x[None], y[None])[0]
    lib, s, d, ilp = library()
    fn = getattr(lib, s if dtype == "float32" else d)
    i = ctypes.c_int64 if ilp else ctypes.c_int
    f = ctypes.c_float if dtype == "float32" else ctypes.c_double
    fn.argtypes = [ctypes.c_int] * 3 + [i] * 3 + [f, ctypes.c_void_p, i, ctypes.c_void_p, i, f, ctypes.c_void_p, i]
    fn.restype = None
    got = np.empty((m, n), dtype)
    with one_thread():
        fn(101, 111, 111, m, n, k, 1.0, x.ctypes.data, k, y.ctypes.data, n, 0.0, got.ctypes.data, n)
    return got.tobytes() == want.tobytes()
