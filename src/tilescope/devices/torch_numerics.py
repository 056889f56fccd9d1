"""Where torch's CPU kernels round differently from its CUDA kernels, device tensors get the GPU's.

A script checks a cuTile kernel against a torch reference computed on the same device, with
tolerances chosen on a GPU. tilescope's executor reproduces the GPU's numerics; torch's CPU
kernels do not always, and then the reference, not the kernel, fails the check. Measured on
upstream cuTile's samples:
- half-precision (f16/bf16) GEMMs: the GPU accumulates products in float32 or wider and rounds
  once; torch's CPU rounds partial sums (MatMul.py: 27 of 1M elements outside torch's default
  tolerance). Computed here in float64, rounded once.
- float32 GEMMs under `torch.set_float32_matmul_precision("high")`/`"medium"`: the GPU rounds
  inputs to TF32; torch's CPU ignores the setting. Inputs rounded to TF32 here, as the
  executor rounds `ct.tfloat32`.
- half-precision normalisations and softmax: CUDA kernels accumulate in float32; torch's CPU
  layer_norm backward accumulates weight and bias gradients in bfloat16 (LayerNorm.py: off by
  0.4 where the kernel is within 0.03 of exact). Computed here in float32, rounded back.
- scaled_dot_product_attention under a CUDA-only backend choice (cuDNN): the CPU's backends.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F

_HALF = (torch.float16, torch.bfloat16)
_GEMMS = {torch.matmul, torch.mm, torch.bmm, torch.addmm, torch.baddbmm, F.linear, torch.Tensor.matmul,
          torch.Tensor.__matmul__, torch.Tensor.__rmatmul__, torch.Tensor.mm, torch.Tensor.bmm,
          torch.Tensor.addmm, torch.Tensor.baddbmm}
_FLOAT32_ACCUMULATING = {F.layer_norm, F.group_norm, F.batch_norm, F.instance_norm, F.softmax, F.log_softmax,
                         torch.softmax, torch.log_softmax, torch.Tensor.softmax, torch.Tensor.log_softmax,
                         F.cross_entropy}
if hasattr(F, "rms_norm"):
    _FLOAT32_ACCUMULATING.add(F.rms_norm)


def round_to_tf32(t: torch.Tensor) -> torch.Tensor:
    """float32 values rounded to TF32 (10 mantissa bits), nearest-even, as tilescope's executor does."""
    bits = t.contiguous().view(torch.int32)
    rounded = (bits + 0x0FFF + ((bits >> 13) & 1)) & -8192
    special = (bits & 0x7F800000) == 0x7F800000                      # inf / nan unchanged
    return torch.where(special, bits, rounded).view(torch.float32)


def _tensors(args, kwargs):
    return [a for a in list(args) + list(kwargs.values()) if isinstance(a, torch.Tensor)]


def _widened(args, kwargs, widen):
    return ([widen(a) if isinstance(a, torch.Tensor) else a for a in args],
            {k: widen(v) if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()})


def _narrowed(ret, dtype):
    if isinstance(ret, torch.Tensor):
        return ret.to(dtype) if ret.is_floating_point() else ret
    if isinstance(ret, tuple):
        return type(ret)(_narrowed(r, dtype) for r in ret)
    return ret


def like_the_gpu(func, args, kwargs):
    """`func` computed with the GPU's accumulation where torch's CPU kernel differs, else None."""
    if "out" in kwargs:
        return None
    if func is F.scaled_dot_product_attention:
        return _attention(args, kwargs)
    if func in _GEMMS:
        tensors = _tensors(args, kwargs)
        if not tensors or any(t.dtype != tensors[0].dtype for t in tensors):
            return None
        dtype = tensors[0].dtype
        if dtype in _HALF:
            widen = torch.Tensor.double
        elif (dtype == torch.float32 and torch.get_float32_matmul_precision() != "highest"
              and not any(t.requires_grad for t in tensors)):
            def widen(t):
                return round_to_tf32(t).double()
        else:
            return None
    elif func in _FLOAT32_ACCUMULATING:
        floats = [t for t in _tensors(args, kwargs) if t.is_floating_point()]
        if not floats or floats[0].dtype not in _HALF:
            return None
        dtype = floats[0].dtype

        def widen(t):
            return t.float() if t.dtype in _HALF else t
    else:
        return None
    wide_args, wide_kwargs = _widened(args, kwargs, widen)
    return _narrowed(func(*wide_args, **wide_kwargs), dtype)


def _attention(args, kwargs):
    """scaled_dot_product_attention on device tensors: a script may have picked a CUDA backend
    (`sdpa_kernel(SDPBackend.CUDNN_ATTENTION)`), which the CPU lacks; the CPU's own backends
    compute the same function, with float32 accumulation for half precision as CUDA's do."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    floats = [t for t in _tensors(args, kwargs) if t.is_floating_point()]
    dtype = floats[0].dtype if floats else None
    with sdpa_kernel([SDPBackend.MATH, SDPBackend.FLASH_ATTENTION]):
        if dtype not in _HALF:
            return F.scaled_dot_product_attention(*args, **kwargs)
        wide_args, wide_kwargs = _widened(args, kwargs, lambda t: t.float() if t.dtype in _HALF else t)
        return _narrowed(F.scaled_dot_product_attention(*wide_args, **wide_kwargs), dtype)
