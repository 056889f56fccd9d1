"""One fuzzing step: generate (and maybe mutate) a kernel, check every property, classify the outcome.

Shared by the CI test (tests/fuzz/test_fuzz_quick.py) and the long profile (bench/fuzz.py).
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import warnings
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from . import gen as G
from . import harness as H
from . import mutate as M

# Known open discrepancies (reported, not yet fixed): (label, pattern on the failure text).
KNOWN = [
    # Upstream drops unused loop-carried / if results before lowering, so an int `**` feeding
    # only a dead carried value is accepted upstream; tilescope's DCE keeps carried values.
    ("known:dead-carried-no-lowering",
     r"upstream accepts, tilescope rejects: TileInternalError .*Missing binary arithmetic implementation"),
]


@dataclass
class Outcome:
    label: str                       # e.g. "accept+run", "reject:TileTypeError", "import_error"
    failure: Optional[str] = None    # a property violation, with its reproducer
    upstream: Optional[str] = None   # "agree", "skipped"


def _classify(text: str) -> Optional[str]:
    for label, pattern in KNOWN:
        if re.search(pattern, text):
            return label
    return None


def check_kernel(kernel: G.Kernel, oracle: Optional[H.UpstreamOracle] = None, *, execute: bool = True,
                 tag: str = "", mutant: bool = False, compiled: bool = True) -> Outcome:
    """Properties 1-3 for one kernel (`compiled`: property 2 also compares the compiled CPU backend)."""
    path = H.write_kernel(kernel.source)

    def fail(what: str) -> Outcome:
        known = _classify(what)
        if known:
            return Outcome(known, None)
        return Outcome("FAIL", f"{tag}{what}\n--- reproducer ({path}) ---\n{kernel.reproducer()}")
    try:
        verdict = H.check_frontend(path, kernel.name, kernel.spec)
    except H.PropertyFailure as e:
        return fail(f"[front end] {e}")
    label = verdict.outcome if verdict.outcome != "reject" else f"reject:{verdict.kind}"
    up_state = "skipped"
    if oracle is not None and verdict.outcome != "import_error":
        up = oracle.verdict(path, kernel.name, kernel.spec)
        diff = H.compare_upstream(up, verdict)
        if diff is not None:
            return fail(f"[upstream] {diff}")
        up_state = "agree" if up is not None else "skipped"
    if verdict.outcome == "accept" and execute:
        if mutant and kernel.spec_override is not None:
            return Outcome(label, None, up_state)     # real arguments no longer match the spec
        try:
            H.check_execution(kernel, verdict, timeout=5.0 if mutant else 30.0, compare_reports=not mutant,
                              compiled=compiled)
        except H.PropertyFailure as e:
            text = str(e)
            if mutant and ("failed to run" in text or "did not finish" in text or "race on" in text):
                return Outcome("accept+run_error", None, up_state)   # a broken kernel may fail at run time
            return fail(f"[execution] {e}")
        label = "accept+run"
    return Outcome(label, None, up_state)


def check_mutant(kernel: G.Kernel, draw: G.Draw, oracle=None, tag: str = "", compiled: bool = True) -> Outcome:
    bad, kind = M.mutate(kernel, draw)
    out = check_kernel(bad, oracle, tag=f"{tag}mutation {kind}: ", mutant=True, compiled=compiled)
    if out.failure is None:
        out.label = f"mutant:{out.label}"
    return out


# ---------------------------------------------------------------------------------------
# Garbage at the public entry points.
# ---------------------------------------------------------------------------------------

def _one_line_value_error(call: Callable[[], object], what: str) -> Outcome:
    try:
        call()
    except (ValueError, TypeError) as e:
        if "\n" in str(e).strip():
            return Outcome("FAIL", f"[api] {what}: {type(e).__name__} message spans lines: {e!r}")
        return Outcome(f"api:{type(e).__name__}")
    except Exception as e:
        return Outcome("FAIL", f"[api] {what}: raised {type(e).__name__}: {e}")
    return Outcome("api:ok")


def check_parse_args(draw: G.Draw) -> Outcome:
    import tilescope
    text = M.garbage_spec(draw)
    return _one_line_value_error(lambda: tilescope.parse_args(text), f"parse_args({text!r})")


def check_meta_tensor(draw: G.Draw) -> Outcome:
    from tilescope import MetaTensor
    args, kwargs = M.garbage_meta_call(draw)
    return _one_line_value_error(lambda: MetaTensor(*args, **kwargs), f"MetaTensor(*{args!r}, **{kwargs!r})")


def check_compile_garbage(kernel: G.Kernel, draw: G.Draw) -> Outcome:
    import tilescope
    from tilescope.errors import TileError, TileInternalError
    path = H.write_kernel(kernel.source)
    kern = getattr(H.load(path), kernel.name)
    args = M.garbage_compile_args(draw, kernel)
    what = f"compile(kernel, {args!r})\n--- kernel ({path}) ---\n{kernel.source}"
    try:
        with H.time_limit(10):
            tilescope.compile(kern, args)
    except H.Timeout:
        return Outcome("FAIL", f"[api] {what}: did not finish")
    except TileInternalError as e:
        if "internal error while compiling" in e.message:
            return Outcome("FAIL", f"[api] {what}: {e}")
        return Outcome("api:TileInternalError")
    except TileError as e:
        if e.loc is None:
            return Outcome("FAIL", f"[api] {what}: {e.kind} without a location: {e.message}")
        return Outcome(f"api:{e.kind}")
    except (ValueError, TypeError) as e:
        if "\n" in str(e).strip():
            return Outcome("FAIL", f"[api] {what}: message spans lines: {e!r}")
        return Outcome(f"api:{type(e).__name__}")
    except Exception as e:
        return Outcome("FAIL", f"[api] {what}: raised {type(e).__name__}: {e}")
    return Outcome("api:ok")


@contextlib.contextmanager
def _engine(name: Optional[str]):
    """TILESCOPE_ENGINE=name for the duration (None: as it is)."""
    if name is None:
        yield
        return
    old = os.environ.get("TILESCOPE_ENGINE")
    os.environ["TILESCOPE_ENGINE"] = name
    try:
        yield
    finally:
        if old is None:
            del os.environ["TILESCOPE_ENGINE"]
        else:
            os.environ["TILESCOPE_ENGINE"] = old


def check_launch_garbage(kernel: G.Kernel, draw: G.Draw, compiled: bool = True) -> Outcome:
    """Garbage launch arguments: rejected with a clear error and nothing written (`compiled`
    False: the launch runs on the NumPy executor, TILESCOPE_ENGINE=numpy)."""
    import tilescope.lang as ct
    from tilescope.errors import TileError
    from tilescope.run import LaunchError
    path = H.write_kernel(kernel.source)
    kern = getattr(H.load(path), kernel.name)
    grid, args, what = M.garbage_launch(draw, kernel)
    before = [np.array(a, copy=True) if isinstance(a, np.ndarray) else None for a in args]
    desc = f"launch with bad {what}\n--- kernel ({path}), grid {kernel.grid}, spec {kernel.spec} ---\n{kernel.source}"
    try:
        with H.time_limit(30), contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()), \
                warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            with _engine(None if compiled else "numpy"):
                ct.launch(None, grid, kern, tuple(args))
    except H.Timeout:
        return Outcome("FAIL", f"[launch] {desc}: did not finish")
    except (TileError, LaunchError, ValueError, TypeError) as e:
        for b, a in zip(before, args):
            if b is not None and not (b.shape == a.shape and b.tobytes() == np.asarray(a).tobytes()):
                return Outcome("FAIL", f"[launch] {desc}: rejected ({type(e).__name__}: {e}) but wrote to an array")
        return Outcome(f"launch:{type(e).__name__}")
    except Exception as e:
        return Outcome("FAIL", f"[launch] {desc}: raised {type(e).__name__}: {e}")
    return Outcome("launch:ran")
