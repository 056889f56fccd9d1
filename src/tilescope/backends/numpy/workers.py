"""Groups of blocks run on several threads at once.

NumPy releases the GIL inside its loops, so groups of one launch can run side by side on
the machine's cores. Groups of a race-free kernel touch disjoint memory and compute
exactly what they would one after another, so results do not depend on the thread count.
What a group *reports* is kept in order instead of acted on: its check reports and its
race-tracker records are replayed by the launching thread, group after group, so reports
read exactly as in a one-thread run.

Kernels whose blocks interact through more than plain loads and stores run their groups
one after another: atomics (their order shows in results), prints, asserts and
breakpoints (output and failures in block order).
"""
from __future__ import annotations

import os
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Deque, Dict, Iterable, List, Tuple

from ...ir.core import per_function
from ...run import LaunchError
from .executor import Checks, Executor

ENV_THREADS = "TILESCOPE_THREADS"
_ORDERED_OPS = frozenset({"atomic", "raw_atomic", "tiled_atomic", "atomic_cas", "raw_atomic_cas",
                          "print", "assert", "breakpoint"})


def thread_count() -> int:
    """Threads a launch may use: `TILESCOPE_THREADS` (default 1)."""
    text = os.environ.get(ENV_THREADS, "").strip()
    if not text:
        return 1
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise LaunchError(f"{ENV_THREADS} must be a whole number ≥ 1, got {text!r}")
    return n


@per_function
def runs_concurrently(fn) -> bool:
    """Whether the kernel's groups may run side by side (no op orders blocks)."""
    return not any(op.name in _ORDERED_OPS for op in fn.walk())


@per_function
def has_breakpoint(fn) -> bool:
    return any(op.name == "breakpoint" for op in fn.walk())


class _GroupChecks(Checks):
    """The launch's checks as one group sees them: reports are logged for replay."""

    def __init__(self, launch: Checks, log: List[tuple]):
        super().__init__(bounds=launch.bounds, races=launch.races, strict=launch.strict, poison=launch.poison,
                         uninit=launch.uninit, max_loop_iterations=launch.max_loop_iterations)
        self.log = log

    def add(self, kernel, loc, block, message, once=None) -> None:
        if once is None or once not in self._once:     # the launch's checks pick the first in group order
            self._once.add(once)
            self.log.append(("report", (kernel, loc, block, message, once)))


class _GroupRaces:
    """Stands in for the launch's RaceTracker inside a group: records are logged for replay."""

    def __init__(self, log: List[tuple]):
        self.log = log

    def record_tile(self, ex, op, *args, **kwargs) -> None:
        self.log.append(("record_tile", (op, args, kwargs)))

    def record_tile_store(self, ex, op, *args, **kwargs) -> None:
        self.log.append(("record_tile_store", (op, args, kwargs)))

    def record_elements(self, ex, op, *args, **kwargs) -> None:
        self.log.append(("record_elements", (op, args, kwargs)))


def _replay(ex: Executor, log: List[tuple], checks: Checks, tracker) -> None:
    """Act on a finished group's log in the launching thread, as a one-thread run would have."""
    ex.checks = checks
    for kind, payload in log:
        if kind == "report":
            checks.add(*payload)
        else:
            op, args, kwargs = payload
            ex.op = op                      # reports name the op's line
            getattr(tracker, kind)(ex, op, *args, **kwargs)


_POOLS: Dict[int, ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()
_PREFIX = "tilescope-group"


def _pool(threads: int) -> ThreadPoolExecutor:
    with _POOLS_LOCK:
        pool = _POOLS.get(threads)
        if pool is None:
            pool = _POOLS[threads] = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=_PREFIX)
        return pool


def _wait_out(futures, stop: threading.Event) -> None:
    """Stop and wait for groups still running (none may write after the launch returns)."""
    stop.set()
    for future in futures:
        if not future.cancel():
            future.exception()


def on_worker(run: Callable[[], Any], stop: threading.Event) -> Any:
    """run() on a worker thread, the launching thread waiting.

    Why: glibc's allocator returns freed memory of the main thread's arena to the system
    at once, so the tile-sized temporaries a group allocates page-fault afresh every time
    (measured: a third of a layer norm's run time); a worker thread's arena keeps them.
    """
    if threading.current_thread().name.startswith(_PREFIX):
        return run()
    future = _pool(1).submit(run)
    try:
        return future.result()
    except BaseException:
        _wait_out([future], stop)          # interrupted while waiting: let the group stop first
        raise


def run_concurrently(executors: Iterable[Executor], threads: int, checks: Checks, tracker,
                     stop: threading.Event) -> None:
    """Run the groups, `threads` at a time, replaying each one's log in group order.

    At most `threads` groups are in flight, so memory stays that many groups' worth. On an
    error the groups not yet started are dropped and those running are waited for, then
    the first failing group's error is raised.
    """
    pool = _pool(threads)
    flight: Deque[Tuple[Executor, List[tuple], Any]] = deque()

    def finish() -> None:
        ex, log, future = flight.popleft()
        try:
            future.result()
        finally:
            _replay(ex, log, checks, tracker)

    try:
        for ex in executors:
            if len(flight) >= threads:
                finish()
            log: List[tuple] = []
            ex.checks = _GroupChecks(checks, log)
            ex.races = _GroupRaces(log) if tracker is not None else None
            flight.append((ex, log, pool.submit(ex.run)))
        while flight:
            finish()
    finally:
        if flight:
            _wait_out([future for _, _, future in flight], stop)
