"""Tensors "on the GPU" under the CPU device layer: CPU tensors that read as `cuda:0`.

A factory call or conversion that names the CUDA device makes a `CudaTensor`: a torch CPU
tensor subclass whose `.device` is `cuda:0` and `.is_cuda` is True. Every torch operation
on it returns a `CudaTensor` again (torch's `__torch_function__` protocol), so results stay
"on the GPU" as they would on a real one. Moving to and from the device copies, as on a
GPU, so host and device tensors never alias; `.numpy()` refuses as torch does for CUDA
tensors.
"""
from __future__ import annotations

import functools

import torch

from .errors import NotOnCpu
from .torch_numerics import like_the_gpu
from .torch_random import device_draw, draws

CUDA0 = torch.device("cuda", 0)
CPU = torch.device("cpu")
_PLAIN = torch.Tensor


def names_cuda(d) -> bool:
    """True for every way of naming the CUDA device: "cuda", "cuda:0", torch.device, a bare ordinal."""
    if isinstance(d, torch.device):
        kind, index = d.type, d.index
    elif isinstance(d, str):
        try:
            dev = torch.device(d)
        except RuntimeError:
            return False
        kind, index = dev.type, dev.index
    elif isinstance(d, int) and not isinstance(d, bool):
        kind, index = "cuda", d
    else:
        return False
    if kind != "cuda":
        return False
    if index not in (None, 0):
        raise NotOnCpu(f"CUDA device {index}", "the CPU device layer emulates one GPU, cuda:0")
    return True


def is_emulated(x) -> bool:
    return isinstance(x, CudaTensor)


def to_device(t: torch.Tensor) -> "CudaTensor":
    """A fresh device copy of a host tensor (or the tensor itself if already on the device)."""
    if isinstance(t, CudaTensor):
        return t
    with torch._C.DisableTorchFunctionSubclass():
        copy = _PLAIN.clone(t, memory_format=torch.preserve_format)
    return as_device(copy, leaf=t.is_leaf and not t.requires_grad)


def as_device(t: torch.Tensor, leaf: bool = True) -> "CudaTensor":
    """View `t`'s memory as a device tensor (no copy). A leaf that requires grad stays a leaf."""
    if isinstance(t, CudaTensor):
        return t
    if leaf and t.requires_grad and t.is_leaf:
        return t.detach().as_subclass(CudaTensor).requires_grad_()
    return t.as_subclass(CudaTensor)


def wrap(ret):
    """Results of an operation on device tensors are device tensors."""
    if type(ret) is _PLAIN:
        return ret.as_subclass(CudaTensor)
    if isinstance(ret, (tuple, list)) and any(type(r) is _PLAIN for r in ret):
        return type(ret)([wrap(r) for r in ret])          # also torch.return_types.* (max, sort, ...)
    return ret


_NOWRAP = None


class CudaTensor(torch.Tensor):
    """A CPU tensor that reads as a CUDA tensor (`cuda:0`)."""

    __tilescope_emulated__ = True

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        global _NOWRAP
        if _NOWRAP is None:
            _NOWRAP = torch.overrides.get_default_nowrap_functions()
        kwargs = kwargs or {}
        with torch._C.DisableTorchFunctionSubclass():
            kind = draws(func, kwargs)
            if kind:
                ret = device_draw(lambda kw: func(*args, **kw), kwargs, kind)
            else:
                ret = like_the_gpu(func, args, kwargs)
                if ret is None:
                    ret = func(*args, **kwargs)
        if func in _NOWRAP:
            return ret
        return wrap(ret)

    @property
    def device(self):
        return CUDA0

    @property
    def is_cuda(self):
        return True

    @property
    def is_cpu(self):
        return False

    def get_device(self):
        return 0

    def cpu(self, memory_format=torch.preserve_format):
        with torch._C.DisableTorchFunctionSubclass():
            return _PLAIN.clone(self, memory_format=memory_format).as_subclass(_PLAIN)

    def numpy(self, *, force=False):
        if force:
            return self.cpu().numpy()
        raise TypeError("can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the "
                        "tensor to host memory first.")

    def __array__(self, dtype=None, copy=None):
        return self.numpy()

    def __format__(self, format_spec):
        # torch formats 0-d tensors through .item() only for the exact Tensor type.
        if self.dim() == 0:
            return self.item().__format__(format_spec)
        return super().__format__(format_spec)

    def __reduce_ex__(self, proto):
        # Pickled (torch.save, multiprocessing) as a plain tensor: loadable anywhere.
        return _PLAIN.__reduce_ex__(self.cpu(), proto)

    def __repr__(self, *, tensor_contents=None):
        # torch prints a subclass under its class name; a CUDA tensor prints as tensor(..., device='cuda:0').
        text = super().__repr__(tensor_contents=tensor_contents)
        return "tensor(" + text[len(type(self).__name__) + 1:] if text.startswith(type(self).__name__ + "(") else text

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        with torch._C.DisableTorchFunctionSubclass():
            copy = _PLAIN.__deepcopy__(self.as_subclass(_PLAIN), memo)
        result = as_device(copy)
        memo[id(self)] = result
        return result


def host_view(x: CudaTensor) -> torch.Tensor:
    """The plain CPU tensor sharing `x`'s memory (for tilescope's executor and CuPy interop)."""
    return x.as_subclass(_PLAIN)


def call_on_device(func, args, kwargs):
    """Run a torch call that names the CUDA device on the CPU; tensors it makes are device tensors."""
    kwargs = dict(kwargs, device=CPU)
    kind = draws(func, kwargs)
    ret = device_draw(lambda kw: func(*args, **kw), kwargs, kind) if kind else func(*args, **kwargs)
    return as_device(ret) if isinstance(ret, _PLAIN) else ret


def constructors():
    """torch's factory functions (those `torch.set_default_device` applies to)."""
    from torch.utils._device import _device_constructors
    return _device_constructors()


def device_factory(fn):
    """`fn` (a torch factory or `*_like` function, or a `Tensor.new_*` method) with `device=`
    naming the CUDA device made on the CPU, as a device tensor."""
    @functools.wraps(fn)
    def make(*args, **kwargs):
        device = kwargs.get("device")
        if device is not None and names_cuda(device):
            return call_on_device(fn, args, kwargs)
        return fn(*args, **kwargs)
    make.__tilescope_device_factory__ = True
    return make
