"""Launch arguments for a corpus signature: what a real launch would pass, without memory.

A corpus spec (`f32[?,64], i32, 16`) becomes device arrays of those shapes (a `?` extent is 1024),
C-contiguous, at distinct 256-byte aligned addresses (as CUDA allocators give), Python numbers for
run-time scalars and the constants themselves. Both sides then derive the launch signature from
them: tilescope through `tilescope.gpu.launch_specs`, upstream through the constraints
`MetaTensor.like(...).signature().to_upstream()` gives (equal to what upstream's own launch derives:
tests/gpu/test_specialize.py).

`launch_arguments` returns plain JSON data; `device_args` turns it into launch arguments.
"""
from __future__ import annotations

from typing import Any, List, Optional

DYNAMIC_EXTENT = 1024
BASE = 0x7F0000000000
LAUNCH_SCALARS = {"int32": 3, "float32": 1.5, "bool_": True}   # what a Python number launches as


def launch_arguments(spec_text: str) -> Optional[List[Any]]:
    """JSON-able launch arguments for a spec, or None when no launch passes such arguments (a
    scalar of a dtype Python numbers do not launch as, such as int16)."""
    from tilescope.meta import ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec, parse_args
    addr = [BASE]

    def array(m: MetaTensor):
        shape = [DYNAMIC_EXTENT if d is None else d for d in m.shape]
        ptr = addr[0]
        size = max(1, m.dtype.bitwidth // 8) * max(1, _prod(shape))
        addr[0] += (size + 255) // 256 * 256 + 256
        return {"array": {"ptr": ptr, "shape": shape, "dtype": m.dtype.name}}

    def conv(s):
        if isinstance(s, MetaTensor):
            return array(s)
        if isinstance(s, ListSpec):
            return {"list": [array(s.item), array(s.item)]}
        if isinstance(s, TupleSpec):
            items = [conv(i) for i in s.items]
            return None if any(i is None for i in items) else {"tuple": items}
        if isinstance(s, ScalarSpec):
            v = LAUNCH_SCALARS.get(s.dtype.name)
            return None if v is None else {"scalar": v}
        return {"const": s.value if isinstance(s, ConstantSpec) else s}
    out = [conv(s) for s in parse_args(spec_text)]
    return None if any(o is None for o in out) else out


def _prod(xs) -> int:
    n = 1
    for x in xs:
        n *= x
    return n


def device_args(launch: List[Any]) -> list:
    """tilescope launch arguments: DeviceArray (address, shape, dtype; no memory), numbers, constants."""
    from tilescope.gpu.device import DeviceArray

    def conv(a):
        if "array" in a:
            d = a["array"]
            return DeviceArray(ptr=d["ptr"], shape=d["shape"], dtype=d["dtype"])
        if "list" in a:
            return [conv(x) for x in a["list"]]
        if "tuple" in a:
            return tuple(conv(x) for x in a["tuple"])
        return a["scalar"] if "scalar" in a else a["const"]
    return [conv(a) for a in launch]


def upstream_signature(kernel, launch: List[Any]):
    """The KernelSignature upstream's launch derives for these arguments (cuda.tile must be importable)."""
    from cuda.tile.compilation import CallingConvention, KernelSignature
    from tilescope.gpu.artifact import launch_specs
    _, specs = launch_specs(kernel, device_args(launch))
    params = [s.to_upstream() if hasattr(s, "to_upstream") else s for s in specs]
    tuples = any(type(p).__name__ == "TupleConstraint" for p in params)
    cc = CallingConvention.cutile_python_v2() if tuples else CallingConvention.cutile_python_v1()
    return KernelSignature(params, calling_convention=cc)
