"""Matrix products of many blocks computed as one BLAS call, where that changes no bit.

In grid form (grid.py) a matmul's A tiles often vary along one grid axis only and its B tiles
along another: block (i, j) multiplies A row-panel i by B column-panel j. Instead of one small
BLAS call per block, `joined_matmul` stacks the panels into one (rows·TM × K) @ (K × cols·TN)
product per batch entry, which BLAS runs 1.5–2× faster (no repacking of each panel per block).

Bit-identity with the one-call-per-block products (one-block runs, transpiled modules) is not
assumed: a BLAS's summation order for an element can depend on the matrix sizes (OpenBLAS has a
separate kernel for small products). Each combination of dtype, tile sizes and joined sizes is
therefore probed once per process on random data, comparing tiles of the joined product with
their own per-block calls; shapes where they differ keep the per-block calls.
"""
from __future__ import annotations

from functools import lru_cache
from math import prod

import numpy as np


def joined_matmul(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """np.matmul(x, y) for grid-form operands (3 grid axes, then the matrix axes), bit for bit."""
    if x.ndim == y.ndim > 5 and x.shape[3:-2] == y.shape[3:-2] and all(n == 1 for n in x.shape[3:-2]):
        # tiles with leading axes of one element (a batched matmul's (1, TM, TK) tiles)
        flat = joined_matmul(x.reshape(x.shape[:3] + x.shape[-2:]), y.reshape(y.shape[:3] + y.shape[-2:]))
        return flat.reshape(flat.shape[:3] + x.shape[3:-2] + flat.shape[-2:])
    if x.ndim != 5 or y.ndim != 5 or x.dtype != y.dtype or x.dtype.kind != "f":
        return np.matmul(x, y)
    lead_x, lead_y = x.shape[:3], y.shape[:3]
    both = [a for a in range(3) if lead_x[a] > 1 and lead_y[a] > 1]
    only_x = [a for a in range(3) if lead_x[a] > 1 and lead_y[a] == 1]
    only_y = [a for a in range(3) if lead_y[a] > 1 and lead_x[a] == 1]
    (tm, k), tn = x.shape[3:], y.shape[-1]
    mx, ny = prod(lead_x[a] for a in only_x), prod(lead_y[a] for a in only_y)
    if (mx == 1 and ny == 1) or not _joins_exactly(x.dtype.str, tm, k, tn, mx, ny):
        return np.matmul(x, y)
    nb = prod(lead_x[a] for a in both)
    rest_x = [a for a in range(3) if a not in both and a not in only_x]
    rest_y = [a for a in range(3) if a not in both and a not in only_y]
    # (batch…, rows…, TM, K) → (nb, rows·TM, K) and (batch…, K, cols…, TN) → (nb, K, cols·TN)
    xj = np.ascontiguousarray(np.transpose(x, both + only_x + rest_x + [3, 4])).reshape(nb, mx * tm, k)
    yj = np.ascontiguousarray(np.transpose(y, both + rest_y + [3] + only_y + [4])).reshape(nb, k, ny * tn)
    # (nb, rows·TM, cols·TN) → its labelled axes (grid axes 0–2, 3 = TM, 4 = TN), then in order
    size = [max(lead_x[a], lead_y[a]) for a in range(3)] + [tm, tn]
    labels = both + only_x + [3] + only_y + [4]
    p = np.matmul(xj, yj).reshape([size[a] for a in labels])
    p = np.transpose(p, np.argsort(labels))
    return p.reshape([size[a] if a in labels else 1 for a in range(3)] + [tm, tn])


@lru_cache(maxsize=None)
def _joins_exactly(dtype: str, tm: int, k: int, tn: int, mx: int, ny: int) -> bool:
    """Whether a (mx·tm × k) @ (k × ny·tn) product equals, in every bit, its per-tile
    (tm × k) @ (k × tn) products on this machine's BLAS. Random operands: where the summation
    order differs most elements of every tile differ, so the corner and middle tiles decide."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((mx * tm, k)).astype(dtype)
    y = rng.standard_normal((k, ny * tn)).astype(dtype)
    joined = np.matmul(x[None], y[None])[0]
    for i, j in {(0, 0), (0, ny - 1), (mx - 1, 0), (mx - 1, ny - 1), (mx // 2, ny // 2)}:
        xt = np.ascontiguousarray(x[i * tm:(i + 1) * tm])[None]
        yt = np.ascontiguousarray(y[:, j * tn:(j + 1) * tn])[None]
        if not np.array_equal(np.matmul(xt, yt)[0], joined[i * tm:(i + 1) * tm, j * tn:(j + 1) * tn]):
            return False
    return True
