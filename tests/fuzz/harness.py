"""Checking the fuzzing properties on one kernel.

* `check_frontend`: compiling either succeeds or raises a located TileError whose line is
  inside the kernel's file (property 1), within a time limit.
* `check_execution`: an accepted kernel runs, and the vectorised run equals the
  one-block-at-a-time run bit for bit, NaN-aware (property 2).
* `UpstreamOracle`: one long-lived upstream cuda-tile worker per session; `compare_upstream`
  checks accept/reject, the error class and the stored tile types (property 3).
"""
from __future__ import annotations

import contextlib
import importlib.util
import io
import itertools
import json
import linecache
import os
import select
import signal
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional

import numpy as np

from tests.oracle.corpus import ORACLE_TILEIRAS

ROOT = Path(__file__).resolve().parents[2]
WORKER = ROOT / "tests" / "oracle" / "upstream_worker.py"

_counter = itertools.count()
_tmpdir: Optional[str] = None
_written: Dict[str, str] = {}     # source -> kernel file, since the last `forget()`
_loaded: Dict[str, Any] = {}      # kernel file -> its module, since the last `forget()`


class Timeout(Exception):
    pass


class PropertyFailure(AssertionError):
    """A property was violated; the message carries a reproducer."""


@contextlib.contextmanager
def time_limit(seconds: float):
    """Raise Timeout in the main thread after `seconds` of CPU time (SIGPROF; no-op elsewhere).
    CPU time, not wall-clock time: on a loaded machine a fast step can take long to finish, while
    a step that loops burns CPU either way."""
    if seconds is None or not hasattr(signal, "setitimer"):
        yield
        return
    import threading
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_alarm(signum, frame):
        raise Timeout(f"took longer than {seconds}s")
    old = signal.signal(signal.SIGPROF, on_alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def scratch_dir() -> str:
    global _tmpdir
    if _tmpdir is None:
        _tmpdir = tempfile.mkdtemp(prefix="tilescope_fuzz_")
    return _tmpdir


def write_kernel(source: str) -> str:
    """Kernels need a real file (source locations, inspect); every new source gets a fresh name
    (the steps of one example share the file of its kernel until `forget()`)."""
    path = _written.get(source)
    if path is None:
        path = os.path.join(scratch_dir(), f"fuzz_{os.getpid()}_{next(_counter)}.py")
        with open(path, "w") as f:
            f.write(source)
        _written[source] = path
    return path


def forget(keep_files: bool = False) -> None:
    """Drop the kernel modules (and files, unless kept for a failure's reproducer) written since the
    last call. A long run would otherwise keep every example's modules in sys.modules (memory, and
    each load scans sys.modules)."""
    for module in _loaded.values():
        sys.modules.pop(module.__name__, None)
    for path in _written.values():
        linecache.cache.pop(path, None)
        if not keep_files:
            with contextlib.suppress(OSError):
                os.remove(path)
    _loaded.clear()
    _written.clear()


@dataclass
class Verdict:
    outcome: str                        # accept | reject | import_error
    kind: Optional[str] = None          # error class name when rejected
    line: Optional[int] = None
    message: Optional[str] = None
    stored: Optional[List[str]] = None
    compiled: Any = None
    module: Any = None


def load(path: str):
    """The module of a kernel file, imported once until `forget()` (an example's steps share it)."""
    module = _loaded.get(path)
    if module is None:
        from tilescope.lang.shim import load_file
        module = load_file(path)
        _loaded[path] = module
    return module


def check_frontend(path: str, kernel_name: str, spec: Any, timeout: float = 10.0) -> Verdict:
    """Property 1. Returns the verdict; raises PropertyFailure on a violation."""
    import tilescope
    from tilescope.errors import TileError, TileInternalError
    try:
        mod = load(path)
        kern = getattr(mod, kernel_name)
    except Exception as e:  # a mutant that Python itself refuses: not the front end's business
        return Verdict("import_error", type(e).__name__, message=str(e))
    if isinstance(spec, str):
        try:
            spec = tilescope.parse_args(spec)
        except (ValueError, TypeError) as e:      # a malformed spec is the API's business, not the kernel's
            if "\n" in str(e).strip():
                raise PropertyFailure(f"parse_args message spans lines: {e!r}") from e
            return Verdict("bad_spec", type(e).__name__, message=str(e))
    try:
        with time_limit(timeout):
            compiled = tilescope.compile(kern, spec, tileiras_version=ORACLE_TILEIRAS)
    except Timeout:
        raise PropertyFailure(f"compile did not finish within {timeout}s") from None
    except TileInternalError as e:
        # A Python exception escaping an op rule is wrapped as "internal error while compiling";
        # other TileInternalErrors deliberately mirror upstream's own (e.g. int ** int).
        if "internal error while compiling" in e.message or e.loc is None:
            raise PropertyFailure(f"internal error: {e}") from e
        return Verdict("reject", e.kind, e.loc.line, e.message)
    except TileError as e:
        if e.loc is None:
            raise PropertyFailure(f"{e.kind} without a location: {e.message}") from e
        nlines = len(Path(path).read_text().splitlines())
        if os.path.abspath(e.loc.filename) != os.path.abspath(path) or not 1 <= e.loc.line <= nlines:
            # a location in a helper's file would be fine, but our kernels are one file
            raise PropertyFailure(f"{e.kind} located outside the kernel file: {e.loc}: {e.message}") from e
        return Verdict("reject", e.kind, e.loc.line, e.message, module=mod)
    except Exception as e:
        raise PropertyFailure(f"non-TileError escaped the front end: {type(e).__name__}: {e}") from e
    return Verdict("accept", stored=compiled.stored_types(), compiled=compiled, module=mod)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit-for-bit equality (NaN payloads included)."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return a.tobytes() == b.tobytes()


RUNS = (("vectorised", dict(engine="numpy")), ("sequential", dict(sequential=True)),
        ("compiled", dict(engine="auto")))


def run_both(kern, grid, make_args, timeout: float = 30.0, compiled: bool = True):
    """Run vectorised, sequential and (unless `compiled` is False) compiled, where the compiled
    backend takes the kernel; return (args, reports) of each, in RUNS order."""
    from tilescope.backends.numpy.launcher import run_kernel
    results = []
    for _, how in (RUNS if compiled else RUNS[:2]):
        args = make_args()
        err = io.StringIO()
        with time_limit(timeout), contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()), \
                warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            chk = run_kernel(grid, kern, args, **how)
        results.append((args, sorted(chk.reports)))
    return results


def check_execution(kernel, verdict: Verdict, timeout: float = 30.0, compare_reports: bool = True,
                    compiled: bool = True) -> None:
    """Property 2 for an accepted kernel (`compiled`: also run it on the compiled CPU backend)."""
    from tilescope.errors import TileError
    from tilescope.run import LaunchError
    kern = getattr(verdict.module, kernel.name)
    try:
        runs = run_both(kern, kernel.grid, kernel.make_args, timeout, compiled)
    except Timeout:
        raise PropertyFailure(f"execution did not finish within {timeout}s") from None
    except TileError as e:
        raise PropertyFailure(f"accepted kernel failed to run: {e.kind}: {e}") from e
    except LaunchError as e:          # a clear refusal at launch (e.g. a tile too large for the CPU)
        raise PropertyFailure(f"accepted kernel failed to run: LaunchError: {e}") from e
    except Exception as e:
        raise PropertyFailure(f"accepted kernel crashed the executor: {type(e).__name__}: {e}") from e
    (a1, r1), name1 = runs[1], RUNS[1][0]
    for (a2, r2), (name2, _) in zip(runs[:1] + runs[2:], RUNS[:1] + RUNS[2:]):
        if any("race on" in r for r in r1 + r2):
            raise PropertyFailure(f"race reported: {(r1 + r2)[:2]}")
        for p, x, y in zip(kernel.params, a2, a1):
            if isinstance(x, np.ndarray) and not _same(x, y):
                bad = np.argwhere(~((x == y) | ((x != x) & (y != y))))[:3] if x.shape == y.shape else "shape"
                raise PropertyFailure(f"{name2} and {name1} runs differ in '{p.name}' at {bad}:\n"
                                      f"{name2}: {x!r}\n{name1}: {y!r}")
        if compare_reports and r1 != r2:
            raise PropertyFailure(f"check reports differ:\n{name2}: {r2}\n{name1}: {r1}")


# ---------------------------------------------------------------------------------------
# Upstream oracle.
# ---------------------------------------------------------------------------------------

def upstream_available() -> bool:
    try:
        from tilescope.lang.shim import upstream_available as ua
        return ua() and importlib.util.find_spec("cuda.tile.compilation") is not None
    except (ImportError, ValueError):
        return False


class UpstreamOracle:
    """One upstream worker process (`upstream_worker.py --serve`), one JSON line per case."""

    def __init__(self, python: str = sys.executable, timeout: float = 60.0):
        self.python, self.timeout = python, timeout
        self.proc: Optional[subprocess.Popen] = None

    def _start(self):
        self.proc = subprocess.Popen([self.python, str(WORKER), "--serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                     cwd=str(ROOT))

    def verdict(self, path: str, kernel: str, spec: str) -> Optional[dict]:
        """Upstream's record for one kernel, or None when upstream timed out or died."""
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        case = {"key": path, "file": path, "kernel": kernel, "args": spec}
        self.proc.stdin.write(json.dumps(case) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            self.close()
            return None
        return json.loads(line)

    def close(self):
        if self.proc is not None:
            with contextlib.suppress(Exception):
                self.proc.kill()
                self.proc.wait(5)
            self.proc = None


def compare_upstream(up: dict, ours: Verdict) -> Optional[str]:
    """A description of the disagreement, or None when tilescope and upstream agree."""
    if ours.outcome in ("import_error", "bad_spec") or up is None:
        return None
    if up["error"] and ":" in up["error"]:          # upstream failed outside compilation
        return None if ours.outcome != "accept" else None
    if up["accepted"]:
        if ours.outcome != "accept":
            return f"upstream accepts, tilescope rejects: {ours.kind} line {ours.line}: {ours.message}"
        if ours.stored != up["stored_types"]:
            return f"stored tile types differ: tilescope {ours.stored} upstream {up['stored_types']}"
        return None
    if ours.outcome == "accept":
        return f"upstream rejects ({up['error']} line {up['line']}: {up['message']}), tilescope accepts"
    kinds = {up["error"]}
    if up["error"] == "StaticException":
        kinds.add("TileStaticEvalError")
    if up["error"] == "TileInternalError" or ours.kind in kinds or not up["error"].startswith("Tile"):
        return None      # upstream crashed, or failed outside its typing (e.g. a bad signature)
    from tilescope import errors
    ours_cls = getattr(errors, ours.kind, None)
    if ours_cls is not None and up["error"] in {c.__name__ for c in ours_cls.__mro__}:
        return None      # upstream raised a base class of ours

    return f"error class {ours.kind} ({ours.message}) != upstream {up['error']} ({up['message']})"
