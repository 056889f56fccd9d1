"""A NumPy-backed stand-in for CuPy, used as `cupy` when CuPy cannot run (not installed, or
no GPU driver).

`cupy.ndarray` is a NumPy array subclass living "on the device" (host memory): creation,
random numbers, dtype names, ufuncs and NumPy's functions work on it and return it;
`asnumpy`/`.get()` copy to the host; `cuda.Stream/Event/Device` and `cuda.runtime` basics
answer as the emulated GPU. tilescope's executor takes these arrays as kernel arguments and
writes results in place. Anything CUDA-specific (raw kernels, cupyx, memory pointers...)
raises NotOnCpu naming the call.
"""
from __future__ import annotations

import ctypes
import importlib.abc
import importlib.machinery
import importlib.util
import sys

from ..errors import NotOnCpu


_probing = False


def real_cupy_can_run() -> bool:
    """True when CuPy is installed and a CUDA driver with a device answers (checked without
    importing CuPy)."""
    global _probing
    _probing = True
    try:
        if importlib.util.find_spec("cupy") is None:
            return False
    except (ImportError, ValueError):
        return False
    finally:
        _probing = False
    try:
        libcuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    count = ctypes.c_int(0)
    return libcuda.cuInit(0) == 0 and libcuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0


class _StubLoader(importlib.abc.Loader):
    def create_module(self, spec):
        return None

    def exec_module(self, module):
        modules = install()
        name = module.__name__
        if name not in modules:
            raise ModuleNotFoundError(f"No module named '{name}': tilescope's CuPy stand-in (CuPy cannot run "
                                      f"here) has no such module", name=name)
        # The import system returns what sys.modules holds for the name afterwards.
        sys.modules[name] = modules[name]


class _CupyFinder(importlib.abc.MetaPathFinder):
    """Answers `import cupy` with the stand-in, decided at the first such import."""

    use_stub = None

    def find_spec(self, fullname, path=None, target=None):
        if _probing or fullname.split(".")[0] not in ("cupy", "cupyx", "cupy_backends"):
            return None
        if _CupyFinder.use_stub is None:
            _CupyFinder.use_stub = not real_cupy_can_run()
        if not _CupyFinder.use_stub:
            return None
        return importlib.machinery.ModuleSpec(fullname, _StubLoader())


_FINDER = _CupyFinder()


def install_if_needed() -> None:
    """From now on `import cupy` gives the stand-in unless the real CuPy can run (decided then,
    so nothing is imported or probed before a script asks for CuPy)."""
    if "cupy" in sys.modules and not getattr(sys.modules["cupy"], "__tilescope_stub__", False):
        return                     # the script already imported the real one
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def install() -> dict:
    """Register the stand-in's modules as `cupy`, `cupy.cuda`, ... in sys.modules (returned)."""
    from . import _core, cuda, fft, linalg, random, testing   # start-up time: NumPy, when a script imports cupy
    root = _core.module()
    root.cuda, root.random, root.testing, root.linalg, root.fft = cuda, random, testing, linalg, fft
    modules = {"cupy": root, "cupy.cuda": cuda, "cupy.cuda.runtime": cuda.runtime, "cupy.cuda.memory": cuda,
               "cupy.cuda.stream": cuda, "cupy.cuda.device": cuda, "cupy.random": random,
               "cupy.testing": testing, "cupy.linalg": linalg, "cupy.fft": fft,
               "cupyx": _RefusedModule("cupyx"), "cupy_backends": _RefusedModule("cupy_backends")}
    for name, value in modules.items():
        if not isinstance(sys.modules.get(name), type(value)):
            sys.modules[name] = value
    return modules


class _RefusedModule(type(sys)):
    """`import cupyx` works; using anything from it says it is not available on the CPU."""

    def __init__(self, name):
        super().__init__(name)
        self.__path__ = []

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        raise NotOnCpu(f"{self.__name__}.{attr}", "CuPy's CUDA-specific extensions")


__all__ = ["install_if_needed", "install", "real_cupy_can_run"]
