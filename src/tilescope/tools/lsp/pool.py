"""The server's side of the analysis workers (worker.py): start, feed, watch, kill.

At most one job per document runs at a time, the newest version wins (a queued older
one is dropped, a running one is told to stop), and a job that runs past its hard time
limit, or does not stop within a grace period after being told to, is ended by killing
its worker; a fresh worker starts when the next job needs one. A document goes to the
worker that analysed it before (its caches know it) unless that one has been busy for
more than AFFINITY_WAIT_S; a second worker starts when jobs wait while the first is
busy, so that one slow document does not hold back the others.
"""
from __future__ import annotations

import asyncio
import itertools
import logging
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, List, Optional, Tuple

import tilescope

from .wire import MAX_FRAME, load_message, write_frame

log = logging.getLogger("tilescope.lsp")

START_TIMEOUT_S = 60.0
CANCEL_GRACE_S = 2.5        # then a worker that did not stop is killed (and its caches lost)
IDLE_EXTRA_WORKER_S = 60.0
AFFINITY_WAIT_S = 0.5          # a document waits this long for its own worker before taking another
WATCH_INTERVAL_S = 0.1


@dataclass
class PoolConfig:
    max_workers: int = 2
    budget_s: float = 2.0          # the analysis stops itself after this (partial results)
    hard_limit_s: float = 5.0      # the worker is killed after this
    memory_mb: int = 2048          # RLIMIT_AS of a worker
    recycle_mb: int = 1024         # a worker above this resident size is replaced after its job
    execute_modules: bool = False


@dataclass
class Outcome:
    kind: str                          # "done", "cancelled", "failed", "killed"
    summary: Any = None
    message: str = ""
    hung: Optional[Tuple[str, str, Tuple[int, int, int, int]]] = None   # kernel, fingerprint, byte range
    crashed: bool = False              # the worker died under the job (not killed by the pool)


@dataclass
class Job:
    uri: str
    version: Optional[int]
    text: str
    filename: str
    skip: FrozenSet[str] = frozenset()
    attempt: int = 1
    id: int = 0
    future: Optional[asyncio.Future] = None
    submitted: float = 0.0
    started: Optional[float] = None
    received: Optional[float] = None       # when its outcome's bytes arrived
    unpickled: Optional[float] = None      # when they were read
    cancel_sent: Optional[float] = None
    progress: Optional[Tuple[str, str, Tuple[int, int, int, int]]] = None


def _worker_command() -> Tuple[List[str], Dict[str, str], str]:
    root = os.path.dirname(os.path.dirname(os.path.abspath(tilescope.__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env.setdefault("OMP_NUM_THREADS", "1")
    cmd = [sys.executable, "-c", "from tilescope.tools.lsp.worker import main; main()"]
    return cmd, env, root


class WorkerProcess:
    _ids = itertools.count(1)

    def __init__(self, pool: "WorkerPool"):
        self.pool = pool
        self.name = f"worker-{next(self._ids)}"
        self.proc: Optional[asyncio.subprocess.Process] = None
        self.ready = False
        self.dead = False
        self.job: Optional[Job] = None
        self.started_at = time.monotonic()
        self.idle_since = time.monotonic()
        self.retire = False
        self.killed_for: Optional[Outcome] = None     # why the pool killed it (None: it was not)
        self.last_job: Optional[Job] = None           # its extras may still come
        self.reader: Optional[asyncio.Task] = None

    async def start(self) -> None:
        cmd, env, cwd = _worker_command()
        self.proc = await asyncio.create_subprocess_exec(
            *cmd, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env, cwd=cwd)
        cfg = self.pool.config
        self.send(("config", {"execute_modules": cfg.execute_modules, "memory_mb": cfg.memory_mb}))
        self.reader = asyncio.ensure_future(self._read())

    def send(self, msg) -> None:
        if self.dead or self.proc is None or self.proc.stdin is None:
            return
        try:
            write_frame(_AsyncWriter(self.proc.stdin), msg)
        except (BrokenPipeError, ConnectionResetError, RuntimeError):
            pass

    async def _read(self) -> None:
        stream = self.proc.stdout
        try:
            while True:
                head = await stream.readexactly(4)
                n = int.from_bytes(head, "big")
                if n > MAX_FRAME:
                    raise ValueError(f"frame of {n} bytes")
                data = await stream.readexactly(n)
                job, received = self.job, time.monotonic()
                msg = load_message(data)
                if job is not None:
                    job.received, job.unpickled = received, time.monotonic()
                self.pool._on_message(self, msg)
        except (asyncio.IncompleteReadError, ConnectionResetError):
            pass
        except asyncio.CancelledError:
            return
        except Exception as e:       # a garbled frame: this worker cannot be trusted further
            log.warning("%s sent a bad message (%s): restarting it", self.name, e)
        self.pool._on_exit(self)

    def kill(self) -> None:
        self.dead = True
        if self.proc is not None and self.proc.returncode is None:
            try:
                self.proc.kill()
            except ProcessLookupError:
                pass


class _AsyncWriter:
    """write_frame's file interface over an asyncio StreamWriter (buffered, never blocks)."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, data: bytes) -> None:
        self.stream.write(data)

    def flush(self) -> None:
        pass


class WorkerPool:
    def __init__(self, config: PoolConfig, on_outcome, on_extras=lambda job, extras: None,
                 on_diagnostics=lambda job, diagnostics: None):
        self.config = config
        self.on_outcome = on_outcome          # (job, outcome) -> None
        self.on_extras = on_extras            # (job, {key: value}) -> None, after a "done" outcome
        self.on_diagnostics = on_diagnostics  # (job, [Diagnostic]) -> None, before its "done" outcome
        self.workers: List[WorkerProcess] = []
        self.queue: List[Job] = []
        self.running: Dict[str, Job] = {}      # uri -> job
        self.home: Dict[str, WorkerProcess] = {}    # uri -> the worker that analysed it last
        self._ids = itertools.count(1)
        self._watch: Optional[asyncio.Task] = None
        self.failed_starts = 0
        self.broken_until = 0.0
        self.last_start_error = ""
        self.kills = 0
        self.restarts = 0

    # ---- jobs --------------------------------------------------------------------------

    def submit(self, job: Job) -> asyncio.Future:
        loop = asyncio.get_running_loop()
        job.id = next(self._ids)
        job.submitted = time.monotonic()
        job.future = loop.create_future()
        for old in [j for j in self.queue if j.uri == job.uri]:
            self.queue.remove(old)
            self._resolve(old, Outcome("cancelled"))
        self.queue.append(job)
        running = self.running.get(job.uri)
        if running is not None:
            self.cancel(running)
        self._pump()
        if self._watch is None or self._watch.done():
            self._watch = asyncio.ensure_future(self._watchdog())
        return job.future

    def cancel(self, job: Job) -> None:
        if job.cancel_sent is None:
            job.cancel_sent = time.monotonic()
            w = self._worker_of(job)
            if w is not None:
                w.send(("cancel", job.id))

    def drop(self, uri: str) -> None:
        """The document closed: forget its queued job, stop its running one."""
        for old in [j for j in self.queue if j.uri == uri]:
            self.queue.remove(old)
            self._resolve(old, Outcome("cancelled"))
        if uri in self.running:
            self.cancel(self.running[uri])

    def close(self, uri: str) -> None:
        self.drop(uri)
        self.home.pop(uri, None)

    def _worker_of(self, job: Job) -> Optional[WorkerProcess]:
        return next((w for w in self.workers if w.job is job), None)

    def _resolve(self, job: Job, outcome: Outcome) -> None:
        if job.future is not None and not job.future.done():
            job.future.set_result(outcome)
        try:
            self.on_outcome(job, outcome)
        except Exception:
            log.exception("handling an analysis outcome failed")

    def _pump(self) -> None:
        now = time.monotonic()
        if now < self.broken_until:
            for job in list(self.queue):
                self.queue.remove(job)
                self._resolve(job, Outcome("failed", message="tilescope's analysis worker does not start: "
                                                              + self.last_start_error))
            return
        for job in list(self.queue):
            if job.uri in self.running:
                continue
            worker = self._worker_for(job, now)
            if worker is None:
                continue
            self.queue.remove(job)
            self.running[job.uri] = job
            self.home[job.uri] = worker
            worker.job = job
            job.started = now
            worker.send(("analyze", job.id, {"text": job.text, "filename": job.filename,
                                             "version": job.version, "budget_s": self.config.budget_s,
                                             "skip": sorted(job.skip)}))

    def _worker_for(self, job: Job, now: float) -> Optional[WorkerProcess]:
        """The document's own worker (its caches know the document) when free, or when it has
        been busy for long, any free one; None: wait (and start another worker if allowed)."""
        idle = [w for w in self.workers if w.ready and not w.dead and w.job is None and not w.retire]
        home = self.home.get(job.uri)
        if home is not None and home in idle:
            return home
        if home is not None and not home.dead and home.job is not None and home.job.started is not None \
                and now - home.job.started < AFFINITY_WAIT_S:
            return None
        if idle:
            return idle[0]
        starting = [w for w in self.workers if not w.ready and not w.dead]
        alive = [w for w in self.workers if not w.dead]
        if not starting and len(alive) < self.config.max_workers:
            self._spawn()
        return None

    def _spawn(self) -> None:
        w = WorkerProcess(self)
        self.workers.append(w)          # at once: the next _pump sees it starting
        asyncio.ensure_future(self._start_worker(w))

    async def _start_worker(self, w: WorkerProcess) -> None:
        try:
            await w.start()
        except (OSError, ValueError) as e:
            self.last_start_error = str(e)
            w.kill()
            self._forget(w)
            self._start_failed()

    def _start_failed(self) -> None:
        self.failed_starts += 1
        if self.failed_starts >= 3:
            self.broken_until = time.monotonic() + 30.0
            self.failed_starts = 0
        self._pump()

    # ---- messages from workers -----------------------------------------------------------

    def _on_message(self, w: WorkerProcess, msg) -> None:
        kind = msg[0]
        if kind == "ready":
            w.ready = True
            w.idle_since = time.monotonic()
            self.failed_starts = 0
            self._pump()
            return
        if kind == "extras":
            done = w.last_job
            if done is not None and done.id == msg[1]:
                self.on_extras(done, msg[2])
            return
        job = w.job
        if job is None or msg[1] != job.id:
            return
        if kind == "progress":
            job.progress = (msg[2], msg[3], msg[4])
            return
        if kind == "diagnostics":
            self.on_diagnostics(job, msg[2])
            return
        outcome = {"done": lambda: Outcome("done", summary=msg[2]),
                   "cancelled": lambda: Outcome("cancelled"),
                   "failed": lambda: Outcome("failed", message=msg[2])}.get(kind)
        if outcome is None:
            return
        if kind == "done" and msg[3].get("rss_mb", 0) > self.config.recycle_mb:
            w.retire = True
        self._finish(w, outcome())

    def _finish(self, w: WorkerProcess, outcome: Outcome) -> None:
        job = w.job
        w.job = None
        w.last_job = job
        w.idle_since = time.monotonic()
        if job is not None:
            self.running.pop(job.uri, None)
            self._resolve(job, outcome)
        if w.retire and not w.dead:
            w.send(("quit",))
            w.dead = True
            self._forget(w)
        self._pump()

    def _on_exit(self, w: WorkerProcess) -> None:
        was_ready = w.ready
        w.dead = True
        self._forget(w)
        job = w.job
        if job is not None:
            w.job = None
            self.running.pop(job.uri, None)
            if w.killed_for is not None:
                self._resolve(job, w.killed_for)
            else:
                code = w.proc.returncode if w.proc is not None else None
                self._resolve(job, Outcome("failed", crashed=True,
                                           message=f"the analysis worker stopped unexpectedly (exit status {code})"))
        if not was_ready and w.killed_for is None:
            self.last_start_error = "it exited while starting (see the server's log)"
            self._start_failed()
            return
        self._pump()

    def _forget(self, w: WorkerProcess) -> None:
        if w in self.workers:
            self.workers.remove(w)
        for uri in [u for u, home in self.home.items() if home is w]:
            del self.home[uri]

    # ---- the watchdog -------------------------------------------------------------------

    async def _watchdog(self) -> None:
        while self.workers or self.queue:
            await asyncio.sleep(WATCH_INTERVAL_S)
            now = time.monotonic()
            for w in list(self.workers):
                job = w.job
                if not w.ready and now - w.started_at > START_TIMEOUT_S:
                    self.last_start_error = f"no answer after {START_TIMEOUT_S:.0f} s"
                    self._kill(w, None)
                elif job is not None and job.started is not None:
                    if now - job.started > self.config.hard_limit_s:
                        self._kill(w, Outcome("killed", hung=job.progress,
                                              message=f"did not finish within {self.config.hard_limit_s:g} s"))
                    elif job.cancel_sent is not None and now - job.cancel_sent > CANCEL_GRACE_S:
                        self._kill(w, Outcome("cancelled"))
                elif job is None and w.ready and len(self.workers) > 1 and \
                        now - w.idle_since > IDLE_EXTRA_WORKER_S and w is self._least_home():
                    w.send(("quit",))
                    w.dead = True
                    self._forget(w)
            self._pump()

    def _least_home(self) -> Optional[WorkerProcess]:
        """The worker that the fewest documents call home (the one to let go when idle)."""
        counts = {id(w): 0 for w in self.workers}
        for home in self.home.values():
            if id(home) in counts:
                counts[id(home)] += 1
        return min(self.workers, key=lambda w: counts[id(w)], default=None)

    def _kill(self, w: WorkerProcess, outcome: Optional[Outcome]) -> None:
        self.kills += 1
        w.killed_for = outcome
        w.kill()

    def stats(self) -> Dict[str, Any]:
        return {"workers": [w.proc.pid for w in self.workers if w.proc is not None],
                "queued": len(self.queue), "running": len(self.running), "kills": self.kills}

    async def shutdown(self) -> None:
        for w in list(self.workers):
            w.send(("quit",))
        await asyncio.sleep(0)
        for w in list(self.workers):
            if w.proc is not None:
                try:
                    await asyncio.wait_for(w.proc.wait(), 1.0)
                except asyncio.TimeoutError:
                    w.kill()
        if self._watch is not None:
            self._watch.cancel()
