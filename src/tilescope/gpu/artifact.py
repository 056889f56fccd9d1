"""Compiled GPU artifacts (cubin + launch facts), their cache keys, and on-disk stores.

A store is a directory of `<key>.cubin` + `<key>.json` pairs: the compile cache
(`~/.cache/tilescope/gpu`, or `$TILESCOPE_CACHE_DIR/gpu`) and an artifact bundle (the same files
plus `manifest.json`, built where tileiras exists and carried to a GPU machine that lacks it)
share the format. The key hashes the kernel's source file, its name, the argument signature, the
target, the bytecode version and tilescope's version, so an edit to any of them misses.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
from dataclasses import dataclass
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from ..arraylike import launch_facts
from ..backends.tileir import mangle
from ..compiler import _apply_annotations, _constants_by_annotation, normalize_args, resolve_kernel
from ..compiler import compile as ts_compile
from ..dtypes import dtype_from_numpy
from ..meta import ListSpec, MetaTensor, parse_args
from .abi import ParamLayout, check_against_cubin, layout_of
from .cubin import kernel_info
from .device import DeviceArray

DEFAULT_BYTECODE = "13.4"        # what tileiras 13.4 reads, as upstream's launch targets it
FORMAT = "tilescope-gpu-artifact/1"


def tilescope_version() -> str:
    from .. import __version__
    return __version__


@functools.lru_cache(maxsize=1)
def tilescope_build() -> str:
    """tilescope's version and a digest of its own sources (about 6 ms, once): the cache key's
    part for the compiler, so that a cubin cached by another build of the same version (an
    editable install between releases) is never reused."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    h = hashlib.sha256()
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                h.update(os.path.relpath(path, root).encode())
                with open(path, "rb") as f:
                    h.update(f.read())
    return f"{tilescope_version()}+{h.hexdigest()[:16]}"


def cache_dir(override: Optional[str] = None) -> str:
    """Where compiled cubins are kept: `override`, `$TILESCOPE_CACHE_DIR/gpu` or ~/.cache/tilescope/gpu."""
    if override:
        return override
    base = os.environ.get("TILESCOPE_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "tilescope")
    return os.path.join(base, "gpu")


def source_digest(pyfunc) -> str:
    """sha256 of the kernel's whole source file (helpers beside it count too)."""
    path = getattr(getattr(pyfunc, "__code__", None), "co_filename", None) or getattr(pyfunc, "filename", None)
    if path and os.path.isfile(path):
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    import inspect
    return hashlib.sha256(inspect.getsource(pyfunc).encode()).hexdigest()


def artifact_key(source_sha: str, kernel: str, signature: str, arch: str,
                 bytecode_version: str = DEFAULT_BYTECODE, version: Optional[str] = None) -> str:
    text = "\n".join([FORMAT, source_sha, kernel, signature, arch, bytecode_version,
                      version or tilescope_build()])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def signature_text(specs: Sequence[Any]) -> str:
    return ", ".join(repr(s) for s in specs)


@dataclass
class Artifact:
    """A cubin with what launching it needs; JSON + bytes on disk."""
    kernel: str                     # Python name
    symbol: str                     # the entry in the cubin
    signature: str                  # argument spec text it was compiled for
    arch: str
    bytecode_version: str
    layout: ParamLayout
    block: Tuple[int, int, int]
    static_shared: int
    cubin: bytes
    key: str = ""
    origin: str = "tilescope"       # or "upstream"

    def meta(self) -> dict:
        return {"format": FORMAT, "kernel": self.kernel, "symbol": self.symbol, "signature": self.signature,
                "arch": self.arch, "bytecode_version": self.bytecode_version, "layout": self.layout.to_json(),
                "block": list(self.block), "static_shared": self.static_shared, "key": self.key,
                "origin": self.origin, "tilescope": tilescope_version(),
                "cubin_sha256": hashlib.sha256(self.cubin).hexdigest()}

    @classmethod
    def from_cubin(cls, cubin: bytes, layout: ParamLayout, *, kernel: str, signature: str, arch: str,
                   bytecode_version: str = DEFAULT_BYTECODE, symbol: Optional[str] = None, key: str = "",
                   origin: str = "tilescope") -> "Artifact":
        """Read block size and shared memory from the cubin and check the parameter layout against it."""
        info = kernel_info(cubin, symbol)
        check_against_cubin(layout, info)
        return cls(kernel, info.name, signature, arch, bytecode_version, layout, tuple(info.block),
                   info.static_shared, cubin, key, origin)

    def save(self, directory: str, name: Optional[str] = None) -> str:
        """Write `<directory>/<name or key>.cubin` and `.json`; returns the path without extension."""
        os.makedirs(directory, exist_ok=True)
        base = os.path.join(directory, name or self.key or hashlib.sha256(self.cubin).hexdigest()[:32])
        _atomic_write(base + ".cubin", self.cubin)
        _atomic_write(base + ".json", json.dumps(self.meta(), indent=1).encode())
        return base

    @classmethod
    def load(cls, base: str) -> "Artifact":
        """Read `<base>.json` and `<base>.cubin` (base without extension)."""
        with open(base + ".json") as f:
            m = json.load(f)
        if m.get("format") != FORMAT:
            raise ValueError(f"{base}.json: not a tilescope GPU artifact (format {m.get('format')!r})")
        with open(base + ".cubin", "rb") as f:
            cubin = f.read()
        if hashlib.sha256(cubin).hexdigest() != m["cubin_sha256"]:
            raise ValueError(f"{base}.cubin does not match its manifest (sha256 differs)")
        return cls(m["kernel"], m["symbol"], m["signature"], m["arch"], m["bytecode_version"],
                   ParamLayout.from_json(m["layout"]), tuple(m["block"]), m["static_shared"], cubin,
                   m.get("key", ""), m.get("origin", "tilescope"))


def _atomic_write(path: str, data: bytes) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def lookup(directory: str, key: str) -> Optional[Artifact]:
    base = os.path.join(directory, key)
    if os.path.isfile(base + ".json") and os.path.isfile(base + ".cubin"):
        return Artifact.load(base)
    return None


# -- from kernels -----------------------------------------------------------------------------

def launch_specs(kernel, args: Sequence[Any]) -> Tuple[Any, List[Any]]:
    """(Python function, argument specs) as a launch sees them, as upstream's launch derives them:
    each array with the facts its address, extents and strides show (a unit stride is the
    constant 1, 16-byte divisibility of base, strides and extents, overlap), and nothing else, so one
    cubin serves every array with the same facts; Constant-annotated parameters are constants. A NumPy
    array stands for the contiguous device copy `host_arrays=True` makes of it."""
    fn, _ = resolve_kernel(kernel)

    def described(a):
        if isinstance(a, DeviceArray):
            return a.meta()
        if isinstance(a, np.ndarray):            # copied to a fresh (aligned, contiguous) device buffer
            dt = dtype_from_numpy(a.dtype)
            return MetaTensor(a.shape, dt, **launch_facts(0, a.shape, None, dt))
        if isinstance(a, (list, tuple)):
            return type(a)(described(x) for x in a)
        return a
    specs = _apply_annotations(fn, normalize_args(_constants_by_annotation(fn, [described(a) for a in args])))
    out = []
    for s in specs:
        if isinstance(s, MetaTensor):
            s = s.signature()
        elif isinstance(s, ListSpec):
            s = ListSpec(s.item.signature(), alias_groups=s.alias_groups, elements_may_alias=True)
        out.append(s)
    return fn, out


def key_for(kernel, args: Sequence[Any], arch: str, bytecode_version: str = DEFAULT_BYTECODE) -> Tuple[str, str]:
    """(key, signature text) of a launch."""
    fn, specs = launch_specs(kernel, args)
    sig = signature_text(specs)
    return artifact_key(source_digest(fn), fn.__name__, sig, arch, bytecode_version), sig


def build(kernel, specs, arch: str = "sm_90", bytecode_version: str = DEFAULT_BYTECODE) -> Artifact:
    """Compile `kernel` for `specs` (spec text or a list) to a cubin with tileiras (must be installed)."""
    fn, _ = resolve_kernel(kernel)
    spec_list = parse_args(specs) if isinstance(specs, str) else list(specs)
    compiled = ts_compile(kernel, spec_list)
    sig = signature_text(compiled.args)
    key = artifact_key(source_digest(fn), fn.__name__, sig, arch, bytecode_version)
    return from_compiled(compiled, arch, bytecode_version, key=key)


def from_compiled(compiled, arch: str = "sm_90", bytecode_version: str = DEFAULT_BYTECODE,
                  key: str = "") -> Artifact:
    layout = layout_of(compiled.final)
    cubin = compiled.cubin(arch, bytecode_version)
    symbol = mangle(compiled.final.name, compiled.args)
    if not key:
        key = artifact_key(source_digest(compiled.pyfunc), compiled.name, signature_text(compiled.args), arch,
                           bytecode_version)
    return Artifact.from_cubin(cubin, layout, kernel=compiled.name, signature=signature_text(compiled.args),
                               arch=arch, bytecode_version=bytecode_version, symbol=symbol, key=key)
