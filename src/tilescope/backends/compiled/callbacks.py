"""The callback compiled kernels use to have the executor's own rule compute some elements
(transcendentals near a rounding boundary, float64 transcendentals; transcendental.py)."""
from __future__ import annotations

import ctypes

import numpy as np

from ... import dtypes as D
from ...ops.debug import printed_lines
from ...semantics import arithmetic, numerics
from .transcendental import BINARY_TRANSCENDENTAL, CALLBACK_DTYPES, CALLBACK_FNS

_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p,
                             ctypes.c_void_p, ctypes.c_void_p)
_keep = []


def _view(ptr: int, n: int, dtype: np.dtype) -> np.ndarray:
    buf = (ctypes.c_char * (n * dtype.itemsize)).from_address(ptr)
    return np.frombuffer(buf, dtype=dtype, count=n)


def _numpy_rule(code, dcode, n, a, b, out):
    try:
        fn = CALLBACK_FNS[code]
        dt = getattr(D, CALLBACK_DTYPES[dcode])
        npdt = np.dtype(dt.numpy)
        x = _view(a, n, npdt).copy()
        with np.errstate(all="ignore"):
            if fn in BINARY_TRANSCENDENTAL:
                y = _view(b, n, npdt).copy()
                r = arithmetic.binary(x, y, fn, dt)
            else:
                r = arithmetic.unary(x, fn, dt)
        r = numerics.canonical_nans(np.asarray(r, dtype=npdt))
        r = np.ascontiguousarray(np.broadcast_to(r, (n,)))
        ctypes.memmove(out, r.ctypes.data, n * npdt.itemsize)
    except Exception as e:          # never let an exception unwind through C
        import sys
        print(f"tilescope: internal error in a compiled kernel's callback: {e!r}", file=sys.stderr)


def numpy_rule_callback():
    if not _keep:
        _keep.append(_CALLBACK(_numpy_rule))
    return _keep[0]


_PRINT = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_int64, ctypes.POINTER(ctypes.c_void_p))


def print_callback(ck, grid3, sink):
    """The `print` callback of one launch: formats the operands as the executor does
    (ops/debug.py) into `sink`, under the block's coordinates."""

    def printer(site, lin, ptrs):
        try:
            op = ck.sites[site].op
            arrays = []
            for k, v in enumerate(op.operands):
                t = v.type
                npdt = np.dtype(t.dtype.numpy)
                n = int(np.prod(t.shape, dtype=np.int64)) if t.shape else 1
                arrays.append(_view(ptrs[k], n, npdt).copy().reshape((1,) + tuple(t.shape)))
            block = (lin % grid3[0], (lin // grid3[0]) % grid3[1], lin // (grid3[0] * grid3[1]))
            for _, text in printed_lines(op.attrs["pieces"], arrays, [v.type.dtype for v in op.operands], [0]):
                sink.write(block, text)
        except Exception as e:          # never let an exception unwind through C
            import sys
            print(f"tilescope: internal error printing from a compiled kernel: {e!r}", file=sys.stderr)
    return _PRINT(printer)
