"""Launching artifacts with CuPy: load the cubin, size the block from EIATTR_REQNTID, pack the
calling-convention-v1 parameters and call the kernel."""
from __future__ import annotations

import os
import tempfile
from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np

from .. import lang
from ..compiler import Compiled
from ..dtypes import dtype_from_numpy
from ..launch_args import normalize_grid
from .abi import pack
from .artifact import (DEFAULT_BYTECODE, Artifact, artifact_key, build, cache_dir, from_compiled, key_for,
                       launch_specs, lookup, signature_text, source_digest)
from .device import DeviceArray, describe

_functions: Dict[Tuple[str, int], Any] = {}       # (cubin sha, device) -> cupy Function
_memo: Dict[Any, Artifact] = {}                   # (id of kernel function, key) -> artifact


# cudaDevAttrMaxSharedMemoryPerBlockOptin; CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES / _MAX_DYNAMIC_SHARED_SIZE_BYTES
_ATTR_SMEM_OPTIN, _FUNC_SHARED_SIZE, _FUNC_MAX_DYNAMIC_SHARED = 97, 1, 8


class GPUError(RuntimeError):
    """CuPy or a usable GPU is missing, or no artifact can be found/built."""


def _cupy():
    try:
        import cupy
    except ImportError as e:
        raise GPUError(f"tilescope.gpu needs CuPy (pip install 'tilescope[gpu]'): {e}") from None
    return cupy


def device_arch() -> str:
    cp = _cupy()
    return "sm_" + str(cp.cuda.Device().compute_capability)


def load_function(artifact: Artifact):
    """The CuPy Function of an artifact on the current device (loaded once), with its dynamic
    shared-memory ceiling raised to what the device allows past the static part (as cuTile does)."""
    import hashlib
    cp = _cupy()
    dev = cp.cuda.Device().id
    key = (hashlib.sha256(artifact.cubin).hexdigest(), dev)
    hit = _functions.get(key)
    if hit is not None:
        return hit[0]
    folder = os.path.join(tempfile.gettempdir(), "tilescope-cubins")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, key[0][:32] + ".cubin")
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(artifact.cubin)
    module = cp.RawModule(path=path)
    fn = module.get_function(artifact.symbol)
    _raise_dynamic_shared_ceiling(cp, fn, dev)
    _functions[key] = (fn, module)           # the module must outlive the function
    return fn


def _raise_dynamic_shared_ceiling(cp, fn, dev: int) -> None:
    """CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = device opt-in maximum - static shared memory."""
    optin = cp.cuda.runtime.deviceGetAttribute(_ATTR_SMEM_OPTIN, dev)
    try:
        static = fn.shared_size_bytes
        if optin >= static:
            fn.max_dynamic_shared_size_bytes = optin - static
        return
    except AttributeError:
        pass
    handle = getattr(fn, "kernel", fn).ptr          # RawKernel wraps a cupy.cuda.function.Function
    static = cp.cuda.driver.funcGetAttribute(_FUNC_SHARED_SIZE, handle)
    if optin >= static:
        cp.cuda.driver.funcSetAttribute(handle, _FUNC_MAX_DYNAMIC_SHARED, optin - static)


def resolve(kernel_or_artifact, args: Sequence[Any], *, bundle: Optional[str] = None, arch: Optional[str] = None,
            cache: Optional[str] = None, bytecode_version: str = DEFAULT_BYTECODE) -> Artifact:
    """The artifact to run: given, from a bundle, from the compile cache, or compiled now."""
    if isinstance(kernel_or_artifact, Artifact):
        return kernel_or_artifact
    arch = arch or device_arch()
    if isinstance(kernel_or_artifact, Compiled):
        c = kernel_or_artifact
        key = artifact_key(source_digest(c.pyfunc), c.name, signature_text(c.args), arch, bytecode_version)
        found = lookup(cache_dir(cache), key)
        if found is None:
            found = from_compiled(c, arch, bytecode_version, key=key)
            found.save(cache_dir(cache))
        return found
    key, sig = key_for(kernel_or_artifact, args, arch, bytecode_version)
    memo = _memo.get((id(kernel_or_artifact), key))
    if memo is not None:
        return memo
    if bundle is not None:
        found = lookup(bundle, key)
        if found is None:
            name = getattr(kernel_or_artifact, "__name__", "kernel")
            raise GPUError(f"bundle {bundle} has no cubin for {name}({sig}) on {arch} (key {key}); build it with "
                           f"python -m tilescope.gpu.bundle build --out {bundle} FILE --kernel {name} --args '{sig}' "
                           f"--arch {arch}")
    else:
        found = lookup(cache_dir(cache), key)
        if found is None:
            found = build(kernel_or_artifact, _specs_of(kernel_or_artifact, args), arch, bytecode_version)
            found.save(cache_dir(cache))
    _memo[(id(kernel_or_artifact), key)] = found
    return found


def _specs_of(kernel, args):
    return launch_specs(kernel, args)[1]


def launch(grid, kernel_or_compiled, args: Sequence[Any], *, stream=None, bundle: Optional[str] = None,
           arch: Optional[str] = None, cache: Optional[str] = None, host_arrays: bool = False,
           bytecode_version: str = DEFAULT_BYTECODE) -> Artifact:
    """Run a kernel on the GPU over `grid` (1-3 ints) with `args` (device arrays and scalars, constants
    as at `ct.launch`). `kernel_or_compiled`: a kernel (compiled for the arguments' metadata, cubin cached
    under ~/.cache/tilescope/gpu), a `tilescope.compile` result, or an `Artifact`. `bundle=DIR` takes
    the cubin from a prebuilt artifact bundle and never compiles. With `host_arrays=True`, NumPy
    arguments are copied to the device and back (synchronously). Returns the artifact it ran."""
    cp = _cupy()
    grid3 = normalize_grid(grid)
    art = resolve(kernel_or_compiled, args, bundle=bundle, arch=arch, cache=cache,
                  bytecode_version=bytecode_version)
    copies = []
    dev_args = list(args)
    if host_arrays:
        for i, a in enumerate(args):
            if isinstance(a, np.ndarray):
                d = _to_device(cp, a)
                copies.append((a, d))
                dev_args[i] = d
    fn = load_function(art)
    params = pack(art.layout, dev_args, describe)
    cp_stream = _as_cupy_stream(cp, stream)
    fn(grid3, art.block, tuple(params), shared_mem=0, stream=cp_stream)
    if copies:
        (cp_stream or cp.cuda.get_current_stream()).synchronize()
        for host, d in copies:
            _from_device(cp, d, host)
    return art


def _to_device(cp, a: np.ndarray) -> DeviceArray:
    """Copy a host array (any dtype, bf16 included, by its bytes) to a new device buffer."""
    raw = np.ascontiguousarray(a)
    buf = cp.asarray(raw.view(np.uint8).reshape(-1))
    d = DeviceArray(ptr=buf.data.ptr, shape=raw.shape, dtype=dtype_from_numpy(raw.dtype))
    d.base = buf                     # keeps the device buffer alive as long as the DeviceArray
    return d


def _from_device(cp, d: DeviceArray, host: np.ndarray) -> None:
    n = host.nbytes
    out = np.empty(n, np.uint8)
    cp.cuda.runtime.memcpy(out.ctypes.data, d.ptr, n, cp.cuda.runtime.memcpyDeviceToHost)
    contiguous = out.view(host.dtype).reshape(host.shape)
    host[...] = contiguous


def _as_cupy_stream(cp, stream):
    if stream is None or isinstance(stream, cp.cuda.Stream):
        return stream
    for attr in ("cuda_stream", "ptr", "handle"):
        h = getattr(stream, attr, None)
        if isinstance(h, int):
            return cp.cuda.ExternalStream(h)
    if isinstance(stream, int):
        return cp.cuda.ExternalStream(stream)
    raise GPUError(f"cannot use a {type(stream).__name__} as a CUDA stream")


def use_for_ct_launch(bundle: Optional[str] = None) -> None:
    """Make `ct.launch` (tilescope's `cuda.tile`) run kernels on the GPU; NumPy arrays are copied
    to the device and back. Used by `tilescope run --device gpu`."""

    def gpu_ct_launch(stream, grid, kernel, kernel_args, /, **_ignored):
        launch(grid, kernel, kernel_args, bundle=bundle, host_arrays=True)
        if stream is None:
            _cupy().cuda.get_current_stream().synchronize()
    lang.launch = gpu_ct_launch
