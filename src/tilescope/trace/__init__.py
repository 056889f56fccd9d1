"""Launch traces: per launch, a self-contained page and PNGs of which block touched which elements.

`tilescope.launch(grid, kernel, args, trace=DIR)` or `tilescope run --trace DIR SCRIPT` write
`DIR/NN-<kernel>/index.html` (with one PNG per array) for launch NN, and
`DIR/index.html` listing the launches. See docs/trace.md.
"""
from __future__ import annotations

import contextlib
import os
import re
import sys
from typing import Any, Dict, List, Optional

from .page import render_index
from .recorder import TraceRecorder
from .writer import Reused, write_launch

__all__ = ["TraceRecorder", "TraceSession", "session_for", "start_run", "stop_run"]

_RUN: Optional["TraceSession"] = None          # the `tilescope run --trace` folder, while the script runs
_SESSIONS: Dict[str, "TraceSession"] = {}
ENV_LIMIT = "TILESCOPE_TRACE_LIMIT"     # launches traced per kernel and folder (0: all)
TRACED_PER_KERNEL = 16          # a benchmark loop would write a page per launch (hundreds, 100s of MB)


class TraceSession:
    """One output folder: numbers its launches and keeps DIR/index.html current."""

    def __init__(self, folder: str):
        self.folder = os.path.abspath(folder)
        self.launches: List[Dict[str, Any]] = []
        self.traced: Dict[str, int] = {}         # launches traced, by kernel name
        self.untraced: Dict[str, int] = {}       # and those past the limit, run untraced
        self.reused = Reused()                   # what its pages share (writer.py)

    def admit(self, kernel: str) -> bool:
        """Whether this launch of `kernel` is traced: the first `TILESCOPE_TRACE_LIMIT` (default
        TRACED_PER_KERNEL) of each kernel are; later ones run untraced, counted on the index."""
        limit = trace_limit()
        if limit and self.traced.get(kernel, 0) >= limit:
            if not self.untraced.get(kernel):
                print(f"tilescope: trace: '{kernel}' was traced {limit} times; its later launches run untraced "
                      f"({ENV_LIMIT} sets how many are traced, 0 for all)", file=sys.stderr)
            self.untraced[kernel] = self.untraced.get(kernel, 0) + 1
            with contextlib.suppress(OSError):
                self.write_index()
            return False
        self.traced[kernel] = self.traced.get(kernel, 0) + 1
        return True

    def write(self, recorder: TraceRecorder, fn, grid, checks, compiled, scalars=None, failed=None) -> str:
        """Write the launch's page (`scalars`: the runtime scalar arguments' values, by name, for
        its cost report; `failed`: the exception that ended the launch, if any); returns the line
        to print. A page that cannot be written (disk full, folder removed) is said in that line:
        the launch's results stand all the same."""
        name = f"{len(self.launches) + 1:02d}-{re.sub(r'[^A-Za-z0-9_]+', '_', fn.name)}"
        error = failure_text(failed)
        what = f"{fn.name} (the launch failed: {error.splitlines()[0]})" if error else fn.name
        try:
            summary = write_launch(os.path.join(self.folder, name), recorder, fn, grid, checks, compiled, scalars,
                                   error, self.reused)
            self.launches.append({"href": f"{name}/index.html",
                                  "title": f"launch {len(self.launches) + 1}: {fn.name}", "summary": summary,
                                  "kernel": fn.name})
            self.write_index()
        except OSError as e:
            return f"trace of {what} not written to {os.path.join(self.folder, name)}: {e.strerror or e}"
        return f"trace of {what} written to {os.path.join(self.folder, name, 'index.html')}"

    def write_index(self) -> None:
        """DIR/index.html, rewritten in place after each launch (truncating it first costs ten
        times as much on some disks; the list only grows, so the new text covers the old)."""
        os.makedirs(self.folder, exist_ok=True)
        text = render_index(self.launches, self.untraced).encode("utf-8")
        path = os.path.join(self.folder, "index.html")
        try:
            with open(path, "r+b") as f:
                f.write(text)
                f.truncate()
        except FileNotFoundError:
            with open(path, "wb") as f:
                f.write(text)


def trace_limit() -> int:
    """Launches traced per kernel: `TILESCOPE_TRACE_LIMIT` (0: every one), else TRACED_PER_KERNEL."""
    text = os.environ.get(ENV_LIMIT, "").strip()
    return int(text) if text.isdigit() else TRACED_PER_KERNEL


def failure_text(e: Optional[BaseException]) -> str:
    """How a failed launch ended ("" for one that did not fail), e.g. "ExecutionError: ..."."""
    if e is None:
        return ""
    return f"{type(e).__name__}: {e}" if str(e) else type(e).__name__


def session_for(folder: Optional[str]) -> Optional[TraceSession]:
    """The session writing to `folder` (from `launch(..., trace=folder)`), else the active
    `tilescope run --trace` one, else None."""
    if folder is None:
        return _RUN
    if not isinstance(folder, (str, os.PathLike)) or not str(os.fspath(folder)).strip():
        raise ValueError(f"trace= takes the folder to write the pages to, got {folder!r}")
    key = os.path.abspath(os.fspath(folder))
    if _RUN is not None and _RUN.folder == key:
        return _RUN
    s = _SESSIONS.get(key)
    if s is None:
        s = _SESSIONS[key] = TraceSession(key)
    return s


def start_run(folder: str) -> TraceSession:
    global _RUN
    _RUN = TraceSession(folder)
    return _RUN


def stop_run() -> Optional[str]:
    """End the `run --trace` session; a line to print when it saw no launch (its index says so too)."""
    global _RUN
    run, _RUN = _RUN, None
    if run is None or run.launches:
        return None
    try:
        os.makedirs(run.folder, exist_ok=True)
        run.write_index()
    except OSError:
        pass
    return f"no kernel was launched, so {os.path.join(run.folder, 'index.html')} lists no traces"
