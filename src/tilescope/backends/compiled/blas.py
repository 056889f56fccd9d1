"""The BLAS NumPy itself calls (for `mma`'s products, bit-identical to the executor's np.matmul)."""
from __future__ import annotations

import contextlib
import ctypes
import glob
import os
import threading
from functools import lru_cache
from typing import Tuple

from . import runtime_math, runtime_types, toolchain


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
    """Within this context the BLAS runs on one thread (the compiled kernel's own threads share
    the cores). A launch enters it once, from the launching thread: OpenBLAS's pthreads builds
    set the count for every thread, so saves and restores made by each worker would interleave
    and could leave NumPy's own products on one thread afterwards, and the summation order
    depends on the thread count (a float32 (32×512) @ (512×32) product with OpenBLAS 0.3.31's
    Haswell kernels), so np.matmul's bits would then change under the executor. Launches from
    several threads share the setting: the first in sets it, the last out puts it back."""

    def __enter__(self):
        global _holders, _saved
        fn = _set_local_threads()
        self.old = None
        if fn is None:
            return self
        if _count_is_per_thread():
            self.old = fn(1)
            return self
        with _lock:                     # launches from several threads: the first saves, the last restores
            if _holders == 0:
                _saved = fn(1)
            _holders += 1
        return self

    def __exit__(self, *exc):
        global _holders
        fn = _set_local_threads()
        if fn is None:
            return
        if self.old is not None:
            fn(self.old)
            return
        with _lock:
            _holders -= 1
            if _holders == 0:
                fn(_saved)


_lock = threading.Lock()
_holders = 0                            # launches inside one_thread now (a process-wide count)
_saved = None


def in_worker():
    """The setting a launch's worker thread enters as well: one_thread where the count is kept
    per thread (OpenMP builds), none where the launching thread's setting already holds."""
    return one_thread() if _count_is_per_thread() else contextlib.nullcontext()


def blas_threads():
    """The BLAS's present thread count (None where it cannot be set): a product's summation
    order may depend on it, so what is probed against np.matmul is remembered per count."""
    fn = _set_local_threads()
    if fn is None:
        return None
    get = _get_threads()
    if get is not None:
        return get()
    count = fn(1)                       # (no getter: read it by setting it back)
    fn(count)
    return count


@lru_cache(maxsize=None)
def _get_threads():
    """OpenBLAS's thread count getter (builds name it differently), or None."""
    lib = library()[0]
    for name in ("openblas_get_num_threads", "openblas_get_num_threads64_", "scipy_openblas_get_num_threads64_",
                 "scipy_openblas_get_num_threads"):
        fn = getattr(lib, name, None)
        if fn is not None:
            fn.argtypes, fn.restype = [], ctypes.c_int
            return fn
    return None


@lru_cache(maxsize=None)
def _count_is_per_thread() -> bool:
    fn = _set_local_threads()
    if fn is None:
        return False
    old = fn(1)
    seen = []

    def look():
        seen.append(fn(2))
        fn(seen[0])
    t = threading.Thread(target=look)
    t.start()
    t.join()
    fn(old)
    return seen[0] != 1


def agrees_with_numpy(dtype: str, m: int, n: int, k: int) -> bool:
    """Whether this thread's BLAS call, as compiled kernels make it, equals np.matmul's result
    in every bit on random (m, k) @ (k, n) operands (for NumPy's present BLAS thread count)."""
    return _agrees(dtype, m, n, k, blas_threads())


@lru_cache(maxsize=None)
def _agrees(dtype: str, m: int, n: int, k: int, threads) -> bool:
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


_CANDIDATES_Q = (64, 96, 128, 192, 256, 320, 384, 512, 768, 1024)
_CANDIDATES_U = (16, 1, 2, 4, 8, 32)


@lru_cache(maxsize=None)
def _probe_library():
    """The runtime's own product kernels (runtime_math.GEMM), built for probing."""
    src = runtime_types.SOURCE + runtime_math.SOURCE + runtime_math.GEMM + r"""
__attribute__((visibility("default"))) void probe_s(int64_t m, int64_t n, int64_t k, const float *a,
        const float *b, float *c, int64_t q, int64_t u) { ts_sgemm_seq(m, n, k, a, k, b, n, c, q, u); }
__attribute__((visibility("default"))) void probe_d(int64_t m, int64_t n, int64_t k, const double *a,
        const double *b, double *c, int64_t q, int64_t u) { ts_dgemm_seq(m, n, k, a, k, b, n, c, q, u); }
"""
    lib = ctypes.CDLL(toolchain.library_for(src))
    for fn in (lib.probe_s, lib.probe_d):
        fn.argtypes = [ctypes.c_int64] * 3 + [ctypes.c_void_p] * 3 + [ctypes.c_int64] * 2
        fn.restype = None
    return lib


_rules: dict = {}
_last_rule: dict = {}


def sequential_rule(dtype: str, m: int, n: int, k: int):
    """(Q, U) for which the runtime's sequential product (runtime_math.GEMM) equals np.matmul
    in every bit for an (m, k) @ (k, n) product of `dtype` (float32/float64), on random operands
    and on special values (signed zeros, infinities, NaN); None when no candidate does (or no
    compiler is at hand): BLAS is called then. Remembered on disk next to the compiled kernels
    (keyed by the BLAS library and the CPU, each shape with the BLAS's thread count), so each
    shape is probed once per machine and count."""
    key = f"{dtype} {m} {n} {k} {blas_threads()}"
    if key in _rules:
        return _rules[key]
    if not toolchain.available() or min(m, n, k) < 2:
        return None
    stored = toolchain.read_cached_json(_rules_file())
    if key in stored:
        _rules[key] = tuple(stored[key]) if stored[key] else None
        return _rules[key]
    rule = _probe(dtype, m, n, k)
    _rules[key] = rule
    if rule is not None:
        _last_rule[dtype] = rule
    stored[key] = list(rule) if rule else None
    toolchain.write_cached_json(_rules_file(), stored)
    return rule


def _probe(dtype: str, m: int, n: int, k: int):
    import numpy as np
    rng = np.random.default_rng(3)
    x = rng.standard_normal((m, k)).astype(dtype)
    y = rng.standard_normal((k, n)).astype(dtype)
    x2, y2 = x.copy(), y.copy()
    x2[0, :] = -0.0                     # a row of products that are all -0
    x2[1 % m, 0] = np.inf
    y2[0, 1 % n] = np.nan
    cases = [(x, y), (x2, y2)]
    wants = [np.matmul(a[None], b[None])[0].tobytes() for a, b in cases]
    lib = _probe_library()
    fn = lib.probe_s if dtype == "float32" else lib.probe_d

    def matches(q, u) -> bool:
        for (a, b), want in zip(cases, wants):
            got = np.empty((m, n), dtype)
            fn(m, n, k, a.ctypes.data, b.ctypes.data, got.ctypes.data, q, u)
            if got.tobytes() != want:
                return False
        return True
    # likeliest first: one chain over all of K, then the cut another shape needed
    tried = []
    for cand in [(k, 16), _last_rule.get(dtype)] + [(q, u) for q in _CANDIDATES_Q if q < k for u in _CANDIDATES_U]:
        if cand is None or cand in tried:
            continue
        tried.append(cand)
        if matches(*cand):
            return cand
    return None


def _rules_file() -> str:
    import os
    lib = library()[0]._name
    try:
        st = os.stat(lib)
        ident = f"{lib}|{st.st_size}|{st.st_mtime_ns}|{toolchain._machine()}"
    except OSError:
        ident = lib
    import hashlib
    return os.path.join(toolchain.cache_dir(), f"gemm-order-{hashlib.sha256(ident.encode()).hexdigest()[:16]}.json")


