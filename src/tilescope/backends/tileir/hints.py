"""Kernel compiler hints (`@ct.kernel(num_ctas=..., occupancy=..., opt_level=..., num_worker_warps=...)`)
as the entry's `optimization_hints`, the way upstream writes them.

Per target (`default`, or an architecture named by a `ct.ByTarget`): `num_cta_in_cga`, `occupancy`,
`num_worker_warps_per_cta` when set. Bytecode before 13.3 knows no `default` key: the hints are then
resolved for one architecture (`default` overlaid by its own values) and keyed by it. `opt_level`
is not a hint but tileiras's `-O` level (see `opt_level`).
"""
from __future__ import annotations

import warnings
from typing import Any, Dict, Mapping, Optional, Tuple

from ...errors import TileUnsupportedFeatureError
from ...kernel_hints import HINT_DEFAULTS, UNSPECIFIED, ByTarget
from .ir import Hints

_NAMES = (("num_ctas", "num_cta_in_cga"), ("occupancy", "occupancy"),
          ("num_worker_warps", "num_worker_warps_per_cta"))


def hints_by_target(options: Mapping[str, Any]) -> Dict[str, Dict[str, Any]]:
    """{target: {hint: value}}, targets in the order upstream lists them."""
    out: Dict[str, Dict[str, Any]] = {}
    for name in ("num_ctas", "occupancy", "opt_level", "num_worker_warps"):
        value = options.get(name, HINT_DEFAULTS[name])
        if isinstance(value, ByTarget):
            for target, v in value.by_target.items():
                out.setdefault(target, {})[name] = v
            value = value.default if value.default is not UNSPECIFIED else HINT_DEFAULTS[name]
        out.setdefault("default", {})[name] = value
    return out


def _version(v) -> Tuple[int, int]:
    if isinstance(v, tuple):
        return v
    major, minor = str(v).split(".")
    return int(major), int(minor)


def entry_hints(options: Mapping[str, Any], version="13.4", gpu: Optional[str] = None, loc=None) -> Optional[Hints]:
    """The entry's optimization hints for bytecode `version` (and, before 13.3, target `gpu`;
    None when there is none to resolve them for)."""
    v = _version(version)
    targets = hints_by_target(options)
    if v < (13, 3):
        if gpu is None:
            return None
        resolved = dict(targets.get("default", {}))
        resolved.update(targets.get(gpu, {}))
        targets = {gpu: resolved}
    out = []
    for target, fields in targets.items():
        items = []
        for name, key in _NAMES:
            value = fields.get(name)
            if name == "num_worker_warps":
                value = _worker_warps(value, v, loc)
            if value is not None:
                items.append((key, value))
        out.append((target, tuple(items)))
    return Hints(tuple(out))


def _worker_warps(value, v: Tuple[int, int], loc) -> Optional[int]:
    if value is None:
        return None
    if v < (13, 3):
        warnings.warn(f"num_worker_warps is ignored: requires tileiras 13.3, but current version is "
                      f"{v[0]}.{v[1]}.")
        return None
    if value not in (4, 8):
        # tilescope writes bytecode up to 13.4; other counts need 13.5
        raise TileUnsupportedFeatureError(f"num_worker_warps={value} requires tileiras 13.5 or later. "
                                          f"Current version is {v[0]}.{v[1]}.", loc)
    return value


def opt_level(options: Mapping[str, Any], gpu: str) -> int:
    """tileiras's -O level for `gpu` (3 unless `opt_level` says otherwise)."""
    value = options.get("opt_level", 3)
    if isinstance(value, ByTarget):
        value = value.by_target.get(gpu, value.default)
        if value is UNSPECIFIED:
            value = 3
    return 3 if value is None else int(value)
