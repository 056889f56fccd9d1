"""Validation set D: kernels of NVIDIA/TileGym (src/tilegym/ops/cutile at commit 75a1430), none
written here, chosen and fixed before any prediction for them was looked at, to test the
model's version 4 (set C had been opened by then).

The kernels are read from a checkout given by `--tilegym DIR` (never copied here). TileGym's
modules import torch and TileGym's host-side helpers; `load` imports them with stand-ins for
those (the kernels themselves use only cuda.tile). Tile sizes are those of TileGym's launch
wrappers (autotuned ones: a config from its autotune list); sizes are common LLM shapes.
"""
from __future__ import annotations

import importlib.util
import os
import sys
import types
from typing import List

from costval_case import A, Case, K

TILEGYM_COMMIT = "75a1430"
PREFIX = "tilegym:"


class _Meta(type):
    def __getattr__(cls, name):
        return stand_in(name)


def stand_in(name):
    """A class that is whatever host code asks of it: a base class, a decorator, a value.
    Dunder names are missing as on any module or class (`__file__`, `__path__`: tools that walk
    sys.modules read them)."""
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    def call(self, *a, **k):
        return a[0] if len(a) == 1 and callable(a[0]) and not k else stand_in(name)()
    return _Meta(name, (), {"__init__": lambda self, *a, **k: None, "__call__": call,
                            "__getattr__": lambda self, m: stand_in(m)})


def _module(name: str, **attrs) -> types.ModuleType:
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    m.__getattr__ = stand_in
    sys.modules[name] = m
    return m


class _TorchDtype:
    """A torch dtype without NumPy's name for it (kernels name set U's MXFP8 output so): it prints as
    torch's does, "torch.<name>", which is how tilescope reads a torch dtype."""
    __module__ = "torch"

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return "torch." + self.name


def install_torch() -> None:
    """A stand-in `torch` when torch is not installed: its dtypes as NumPy's, the rest stood in."""
    import numpy as np
    if "torch" in sys.modules:
        return
    try:
        import torch  # noqa: F401
    except ImportError:
        t = _module("torch", **{n: np.dtype(n) for n in ("float16", "float32", "float64", "int8", "int16",
                                                          "int32", "int64", "uint8")})
        for name in ("bfloat16", "float8_e4m3fn", "float8_e5m2"):    # no NumPy name: as torch prints them
            setattr(t, name, _TorchDtype(name))
        t.nn = _module("torch.nn")
        t.nn.functional = _module("torch.nn.functional")


def _install(root: str) -> None:
    if "tilegym.ops.cutile" in sys.modules:
        return
    install_torch()
    for name in ("tilegym", "tilegym.backend", "tilegym.backend.dispatcher", "tilegym.autotune", "tilegym.logger",
                 "tilegym.ops"):
        _module(name)
    _module("tilegym.experimental", experimental_kernel=lambda f=None, **k: f if f is not None else (lambda g: g))
    pkg = types.ModuleType("tilegym.ops.cutile")
    pkg.__path__ = [os.path.join(root, "src/tilegym/ops/cutile")]
    sys.modules["tilegym.ops.cutile"] = pkg


def load(root: str, rel: str):
    """The module src/tilegym/ops/cutile/`rel` of a TileGym checkout."""
    _install(root)
    base = os.path.join(root, "src/tilegym/ops/cutile")
    name = "tilegym.ops.cutile." + rel[:-3].replace("/", ".")
    if name in sys.modules:
        return sys.modules[name]
    if "/" in rel:
        sub = "tilegym.ops.cutile." + rel.split("/")[0]
        if sub not in sys.modules:
            p = types.ModuleType(sub)
            p.__path__ = [os.path.join(base, rel.split("/")[0])]
            sys.modules[sub] = p
    spec = importlib.util.spec_from_file_location(name, os.path.join(base, rel))
    m = importlib.util.module_from_spec(spec)
    sys.modules[name] = m
    spec.loader.exec_module(m)
    return m


def setd_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    f = lambda rel: PREFIX + rel                                  # noqa: E731
    rows = 16384 // d
    add(Case("D_softmax_row_f16_16384x4096", "validate-d", f("softmax.py"),
             "_softmax_kernel_multi_wave_full_row_reg_cached_ldg",
             [A((rows, 4096), "float16", "zeros"), A((rows, 4096), "float16"), K(4096), K(4096)], (rows,)))
    r2 = 8192 // d
    add(Case("D_swiglu_fwd_f16_8192x11008", "validate-d", f("swiglu.py"), "_swiglu_forward_kernel",
             [A((r2, 11008), "float16"), A((r2, 11008), "float16"), A((r2, 11008), "float16", "zeros"), K(16384)],
             (r2,)))
    n = (1 << 26) // d // d
    add(Case("D_gelu_f16_64M", "validate-d", f("activation/gelu.py"), "_gelu_kernel",
             [A((n,), "float16", "zeros"), A((n,), "float16"), K(n), K(1024), K(0)], (n // 1024,)))
    add(Case("D_relu_f16_64M", "validate-d", f("activation/relu.py"), "_relu_fwd_kernel",
             [A((n,), "float16"), A((n,), "float16", "zeros"), K(n), K(1024)], (n // 1024,)))
    m2, n2 = 16384 // d, 4096
    add(Case("D_geglu_fwd_f16_16384x4096", "validate-d", f("activation/geglu.py"), "_geglu_fwd_kernel",
             [A((m2 * n2,), "float16", "zeros"), A((m2 * 2 * n2,), "float16"), K(n2), K(2 * n2), K(n2), K(256),
              K(0)], (m2 * n2 // 256,)))
    add(Case("D_dropout_f16_64M", "validate-d", f("dropout.py"), "_dropout_kernel",
             [A((n,), "float16"), A((n,), "float16", "zeros"), K(0.5), K(12345), K(1024), K(True)], (n // 1024,)))
    r3 = 65536 // d
    add(Case("D_rms_norm_cached_bf16_65536x4096", "validate-d", f("rms_norm.py"),
             "_rms_norm_kernel_multi_wave_cached",
             [A((r3, 4096), "bfloat16"), A((4096,), "bfloat16"), A((r3, 4096), "bfloat16", "zeros"),
              A((r3,), init="zeros"), K(4096), K(1e-6), K(0.0), K(4096)], (r3,)))
    add(Case("D_silu_and_mul_f16_16384x4096", "validate-d", f("silu_and_mul.py"), "_silu_and_mul_kernel_row_wise",
             [A((rows, 8192), "float16"), A((rows, 4096), "float16", "zeros"), K(4096), K(4096)], (rows,)))
    q, mm = 8, 2048 // d
    add(Case("D_bmm_f16_8x2048", "validate-d", f("bmm.py"), "_bmm_kernel",
             [A((q, mm, mm), "float16"), A((q, mm, mm), "float16"), A((q, mm, mm), "float16", "zeros"),
              K(128), K(128), K(32)], (mm // 128, mm // 128, q)))
    m4 = 4096 // d
    add(Case("D_matmul_f16_4096", "validate-d", f("matmul.py"), "_matmul_kernel",
             [A((m4, m4), "float16"), A((m4, m4), "float16"), A((m4, m4), "float16", "zeros"),
              K(128), K(128), K(64)], ((m4 // 128) ** 2,)))
    return out
