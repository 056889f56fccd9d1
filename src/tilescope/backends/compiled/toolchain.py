"""Finding a C compiler, compiling generated C into a shared library, and the on-disk cache.

The compiler is `$TILESCOPE_CC` if set, else `cc`, `gcc` or `clang` on PATH, else the
`ziglang` wheel's (`python -m ziglang cc`, pip-installable everywhere). Libraries are cached
under `$TILESCOPE_CACHE_DIR/cpu` (default `~/.cache/tilescope/cpu`), named by a hash of the
source, the compiler's identity, the flags and tilescope's version; a cached library is
loaded without running the compiler.

Flags: `-ffp-contract=off` (no fused multiply-adds the executor would not make), no
`-ffast-math` (IEEE semantics), `-fno-math-errno` (libm calls do not set errno, so their
results stay the same and loops vectorise), and the build machine's instruction set.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import sys
import threading
from functools import lru_cache
from typing import List, Optional, Tuple

from ... import __version__

FLAGS = ["-O2", "-fPIC", "-shared", "-ffp-contract=off", "-fno-math-errno", "-fno-strict-aliasing",
         "-fvisibility=hidden", "-ftree-vectorize", "-fno-semantic-interposition"]
_NATIVE = ["-march=native"]
ENV_CC = "TILESCOPE_CC"
ENV_CACHE = "TILESCOPE_CACHE_DIR"
_lock = threading.Lock()


class CompilerMissing(Exception):
    """No C compiler could be found (the message says what was tried)."""


class CompileFailed(Exception):
    """The C compiler rejected generated code (a tilescope bug; the message has its output)."""


def cache_dir() -> str:
    root = os.environ.get(ENV_CACHE) or os.path.join(os.path.expanduser("~"), ".cache", "tilescope")
    return os.path.join(root, "cpu")


@lru_cache(maxsize=None)
def compiler() -> Tuple[Tuple[str, ...], str, Tuple[str, ...]]:
    """(command, identity, flags) of the C compiler to use; raises CompilerMissing.

    Probing a compiler runs it (tens of milliseconds), so the result is remembered in the
    cache directory, keyed by the compiler executable's path and modification time."""
    tried = []
    env = os.environ.get(ENV_CC)
    candidates: List[List[str]] = [env.split()] if env else []
    candidates += [[c] for c in ("cc", "gcc", "clang") if shutil.which(c)]
    candidates.append([sys.executable, "-m", "ziglang", "cc"])
    known = read_cached_json(_probe_file())
    for cmd in candidates:
        tried.append(" ".join(cmd))
        stamp = _stamp(cmd)
        hit = known.get(stamp)
        if hit is not None:
            return tuple(cmd), hit[0], tuple(hit[1])
        ident = _identity(cmd)
        if ident is not None:
            fl = FLAGS + (_NATIVE if _accepts(cmd, _NATIVE) else [])
            known[stamp] = [ident, fl]
            write_cached_json(_probe_file(), known)
            return tuple(cmd), ident, tuple(fl)
    raise CompilerMissing("no C compiler found (tried " + ", ".join(tried) + "); install gcc or clang, "
                          "or `pip install ziglang`, or set TILESCOPE_CC")


def _stamp(cmd: List[str]) -> str:
    exe = shutil.which(cmd[0]) or cmd[0]
    try:
        mtime = os.stat(os.path.realpath(exe)).st_mtime_ns
    except OSError:
        mtime = 0
    return f"{' '.join(cmd)}|{os.path.realpath(exe)}|{mtime}|{_machine()}"


def _probe_file() -> str:
    return os.path.join(cache_dir(), "compilers.json")


def read_cached_json(path: str) -> dict:
    """A JSON object kept in the cache directory; {} when it is missing or unreadable."""
    import json
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def write_cached_json(path: str, data: dict) -> None:
    """Keep `data` as JSON at `path` in the cache directory (written atomically; skipped when the
    directory cannot be written: the cache only saves time)."""
    import json
    try:
        os.makedirs(cache_dir(), exist_ok=True)
        _write_atomically(path, json.dumps(data))
    except OSError:
        pass


def _identity(cmd: List[str]) -> Optional[str]:
    import subprocess          # (imported when a compiler is probed: not on cached launches)
    try:
        out = subprocess.run(cmd + ["--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    first = (out.stdout or out.stderr).strip().splitlines()
    return first[0] if first else " ".join(cmd)


def _accepts(cmd, extra) -> bool:
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "t.c")
        with open(src, "w") as f:
            f.write("int ts_probe(void) { return 1; }\n")
        try:
            r = subprocess.run(list(cmd) + FLAGS + list(extra) + [src, "-o", os.path.join(d, "t.so")],
                               capture_output=True, timeout=120)
        except (OSError, subprocess.SubprocessError):
            return False
        return r.returncode == 0


def _version() -> str:
    return __version__


def library_for(source: str) -> str:
    """Path of the shared library built from `source` (compiled now unless cached).

    Libraries are named by a hash of the source, tilescope's version, the CPU, the compiler's
    identity and the flags; a small index file named by the first three points to the latest
    one, so a machine without a compiler still runs kernels that are in its cache."""
    base = hashlib.sha256("\0".join([source, _version(), _machine()]).encode()).hexdigest()[:24]
    d = cache_dir()
    index = os.path.join(d, f"s{base}")
    try:
        cmd, ident, fl = compiler()
    except CompilerMissing:
        try:
            with open(index) as f:
                path = os.path.join(d, f.read().strip())
            if os.path.exists(path):
                return path
        except OSError:
            pass
        raise
    key = hashlib.sha256("\0".join([base, ident, " ".join(fl)]).encode()).hexdigest()[:24]
    path = os.path.join(d, f"k{key}{_suffix()}")
    if os.path.exists(path):
        return path
    os.makedirs(d, exist_ok=True)
    with _lock:
        if not os.path.exists(path):
            _build(cmd, fl, source, path)
        _write_atomically(index, os.path.basename(path))
    return path


def _build(cmd, fl, source: str, path: str) -> None:
    import subprocess
    import tempfile
    d = os.path.dirname(path)
    fd, tmp_src = tempfile.mkstemp(suffix=".c", dir=d)
    with os.fdopen(fd, "w") as f:
        f.write(source)
    tmp_lib = tmp_src[:-2] + _suffix()
    try:
        r = subprocess.run(list(cmd) + list(fl) + [tmp_src, "-o", tmp_lib, "-lm"], capture_output=True,
                           text=True, timeout=600)
        if r.returncode != 0:
            raise CompileFailed(f"the C compiler failed on generated code ({' '.join(cmd)}):\n"
                                f"{(r.stderr or r.stdout)[-4000:]}")
        os.replace(tmp_lib, path)          # atomic: other processes see all of it or nothing
    finally:
        for p in (tmp_src, tmp_lib):
            if os.path.exists(p):
                os.unlink(p)


def _write_atomically(path: str, text: str) -> None:
    tmp = f"{path}.{os.getpid()}.{threading.get_ident()}"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def _suffix() -> str:
    return ".dll" if sys.platform == "win32" else ".dylib" if sys.platform == "darwin" else ".so"


@lru_cache(maxsize=None)
def _machine() -> str:
    """The CPU model, so that a cache shared by machines never loads another instruction set."""
    import platform
    model = platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith(("model name", "flags")):
                    model += line
    except OSError:
        pass
    return hashlib.sha256(model.encode()).hexdigest()[:16]


_helpers: dict = {}
_helpers_lock = threading.Lock()


def helper(source: str, name: str, argtypes, restype):
    """The C function `name` of `source` (a library built once and cached, as kernels are), for
    the work around launches that NumPy does in many passes; None where no compiler (or cached
    library) is at hand, the caller then doing that work in NumPy."""
    key = (source, name)
    if key not in _helpers:
        import ctypes
        with _helpers_lock:            # (library_for takes _lock)
            try:
                fn = getattr(ctypes.CDLL(library_for(source)), name)
                fn.argtypes, fn.restype = argtypes, restype
            except (CompilerMissing, CompileFailed, OSError):
                fn = None
        _helpers[key] = fn
    return _helpers[key]


def available() -> bool:
    """Whether a C compiler can be used (probed once)."""
    try:
        compiler()
        return True
    except CompilerMissing:
        return False
