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
