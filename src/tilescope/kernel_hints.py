"""Kernel hint values (`ct.ByTarget`, the hints' defaults): a leaf module, read by `@ct.kernel`
(lang/kernel.py) and by the TileIR backend that writes the hints."""
from __future__ import annotations

import re
from typing import Any, Dict, Generic, TypeVar

T = TypeVar("T")


class _Unspecified:
    def __repr__(self) -> str:
        return "UNSPECIFIED"


UNSPECIFIED = _Unspecified()


class ByTarget(Generic[T]):
    """A compiler hint whose value depends on the target GPU architecture (e.g. `sm_90=2`);
    without `default`, other targets get the hint's own default."""

    def __init__(self, *, default: Any = UNSPECIFIED, **value_by_target: Any):
        for k in value_by_target:
            if not re.fullmatch(r"sm_\d+", k):
                raise ValueError(f"Invalid GPU architecture name: {k}, expected sm_<major><minor>")
        self.default = default
        self.by_target: Dict[str, Any] = value_by_target

    def __eq__(self, other) -> bool:
        return isinstance(other, ByTarget) and (self.default, self.by_target) == (other.default, other.by_target)

    def __hash__(self) -> int:
        return hash((repr(self.default), tuple(sorted(self.by_target.items()))))

    def __repr__(self) -> str:
        items = [f"{k}={v!r}" for k, v in self.by_target.items()]
        if self.default is not UNSPECIFIED:
            items.append(f"default={self.default!r}")
        return f"ByTarget({', '.join(items)})"


HINT_NAMES = ("num_ctas", "occupancy", "opt_level", "num_worker_warps")
HINT_DEFAULTS = {"num_ctas": None, "occupancy": None, "opt_level": 3, "num_worker_warps": None}


def kernel_options(obj: Any) -> Dict[str, Any]:
    """The compiler hints of a kernel object by hint name: tilescope's `@ct.kernel` keeps them in
    `hints`, upstream's in a `_compiler_options` dataclass; anything else has the defaults."""
    hints = getattr(obj, "hints", None)
    if isinstance(hints, dict):
        return dict(hints)
    opts = getattr(obj, "_compiler_options", None)
    if opts is not None:
        return {name: _from_upstream(getattr(opts, name, HINT_DEFAULTS[name])) for name in HINT_NAMES}
    return dict(HINT_DEFAULTS)


def _from_upstream(value: Any) -> Any:
    by = getattr(value, "_by_target", None)
    if by is None:
        return value
    default = getattr(value, "_default", UNSPECIFIED)
    return ByTarget(**by, **({} if type(default).__name__ == "_UnspecifiedType" else {"default": default}))
