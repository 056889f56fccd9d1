"""What the padded lanes of a tile hold, followed through element-wise code (version 70).

A load past an array's end fills its lanes with the padding value (zero, an infinity or NaN). Many
ops keep such a value known: `exp(-inf)` is 0, `-inf - x` is `-inf`, `0 * x` is 0. An IEEE float32
division whose dividend or divisor is zero, infinite or NaN leaves the fast sequence for a slow
path (the cubin's `FCHK` range check and a called routine), so the division's cost depends on how
many of its elements are such lanes: a softmax's padding, loaded as `-inf`, reaches its division
as zeros (docs/cost-model.md history 110). The other operand of an op is taken as finite and
nonzero, what it is in the code this follows (a row's maximum, a sum)."""
from __future__ import annotations

import math
from typing import Callable, Dict, Optional, Tuple

import numpy as np

from ..ir.core import Op

_PADDING = {"ZERO": 0.0, "NEG_INF": -math.inf, "POS_INF": math.inf, "NAN": math.nan}
_UNARY: Dict[str, Callable[[float], float]] = {
    "exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "sqrt": np.sqrt, "neg": np.negative,
    "abs": np.abs, "tanh": np.tanh, "rsqrt": lambda v: 1.0 / np.sqrt(v)}

Lanes = Tuple[float, float]          # (the padded lanes' value, their share of the tile's elements)


def special(v: float) -> bool:
    """Whether IEEE division takes its slow path for this operand: zero, infinite or NaN."""
    return v == 0.0 or not math.isfinite(v)


def _with_finite(fn: str, v: float, padded_first: bool) -> Optional[float]:
    """`v op x` (or `x op v`) for any finite nonzero x, where that does not depend on x."""
    if fn in ("add", "sub") and not math.isfinite(v):
        return -v if fn == "sub" and not padded_first else v
    if fn == "mul" and v == 0.0:
        return 0.0
    if fn == "truediv" and padded_first and v == 0.0:
        return 0.0
    if fn == "max" and v == math.inf or fn == "min" and v == -math.inf:
        return v
    return None


class PaddedLanes:
    """The known padded-lane values of a function's tiles, recorded op by op in program order."""

    def __init__(self) -> None:
        self._known: Dict[int, Lanes] = {}

    def get(self, value) -> Optional[Lanes]:
        return self._known.get(value.id)

    def loaded(self, op: Op, pad_fraction: float) -> None:
        """A tile load whose lanes past the array (`pad_fraction` of them) take its padding value."""
        mode = str(op.attrs.get("padding_mode", "")).rsplit(".", 1)[-1]
        if pad_fraction > 0 and mode in _PADDING and op.results:
            self._known[op.results[0].id] = (_PADDING[mode], pad_fraction)

    def visit(self, op: Op) -> None:
        """Record what `op`'s result holds in the padded lanes of its operands, where that is known."""
        if not op.results or not op.operands:
            return
        known = [self.get(v) for v in op.operands]
        fn = op.attrs.get("fn", "")
        value: Optional[float] = None
        share = next((k[1] for k in known if k is not None), None)
        if share is None:
            return
        with np.errstate(all="ignore"):
            if op.name in ("astype", "reshape") and known[0] is not None:
                if op.name == "reshape" or getattr(op.results[0].type.dtype, "is_float", False):
                    value = known[0][0]
            elif op.name == "unary" and fn in _UNARY:
                value = float(_UNARY[fn](np.float64(known[0][0])))
            elif op.name == "binary" and len(known) == 2:
                a, b = known
                if a is not None and b is not None:
                    value = None          # two padded tiles: their lanes need not coincide
                elif a is not None:
                    value = _with_finite(fn, a[0], True)
                else:
                    value = _with_finite(fn, b[0], False)
        if value is not None:
            self._known[op.results[0].id] = (value, share)

    def slow_share(self, op: Op) -> float:
        """The share of a division's elements with a zero, infinite or NaN operand in padded lanes."""
        return max([k[1] for k in map(self.get, op.operands[:2]) if k is not None and special(k[0])],
                   default=0.0)
