"""The analysis worker: a separate process that analyses documents for the server.

Started by pool.py as `python -c "from tilescope.tools.lsp.worker import main; main()"`.
Analysis compiles kernels and may evaluate compile-time Python; here it can be
stopped (the server kills the process when it runs past its time), its memory is
capped (RLIMIT_AS where the OS has it), and it cannot take the server's memory or
block its event loop. The server gets back a `summary.Summary` (plain data).

Messages are length-prefixed pickles (wire.py). Server to worker: ("config", {...}) first, then
("analyze", id, {...}), ("cancel", id), ("quit",). Worker to server: ("ready", info),
("progress", id, kernel, fingerprint, range) before each compilation that is not
cached, ("diagnostics", id, [Diagnostic]) once the analysis is done (ahead of the summary, which
takes a while longer to build), one of ("done", id, summary, info), ("cancelled", id) or ("failed", id,
message) per job, then maybe ("extras", id, {key: {...}}): what was computed after the
summary (the kernels' cost hovers).
"""
from __future__ import annotations

import gc
import logging
import os
import queue
import sys
import threading
import time
import warnings
from typing import Any, Dict

from ...frontend.source import BOM
from ...ops import load_all
from . import guard
from .analysis import Cancelled, analyze, kernel_costs
from .execute import execute_module
from .records import KERNEL_COST
from .summary import build_summary, diagnostics_of
from .wire import read_frame, write_frame

log = logging.getLogger("tilescope.lsp.worker")

IDLE_BEFORE_EXTRAS_S = 1.0    # cost hovers wait for a quiet second: a keystroke's analysis never waits for them
# Python's cycle collector runs between jobs, not inside them: a full collection walks every
# cached compilation (~100 ms on a busy machine) and fell inside one analysis in ten. After
# each job, its young objects; every 4th job the middle generation; every 32nd all of them.
# Inside a job only a runaway allocation (far beyond an analysis's few thousand) starts one.
COLLECT_MIDDLE_EVERY, COLLECT_ALL_EVERY = 4, 32
YOUNG_OBJECTS_BEFORE_A_COLLECTION = 100_000
WORKER_STACK = 64 * 1024 * 1024
WARM_UP = '''import cuda.tile as ct

# tilescope: args f32[64], f32[64], 16
@ct.kernel
def warm_up(a, b, T: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(a, index=(i,), shape=(T,), padding_mode=ct.PaddingMode.ZERO)
    for j in range(2):
        t = t + ct.full((T,), 1.0, dtype=ct.float32)
    ct.store(b, index=(i,), tile=ct.exp(t) * ct.static_eval(2 + 3))
'''


# ---- measurements ---------------------------------------------------------------

def rss_mb() -> float:
    """This process's resident memory now (peak where /proc is missing)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, AttributeError, IndexError):
        try:
            import resource        # optional: Unix only
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            return peak / (2**20 if sys.platform == "darwin" else 2**10)
        except ImportError:      # Windows
            return 0.0


def limit_memory(megabytes: int) -> None:
    try:
        import resource            # optional: Unix only
    except ImportError:          # Windows: the server's watchdog is the only limit
        return
    limit = int(megabytes) * 2**20
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError, AttributeError):
        log.warning("could not limit the worker's memory to %d MB", megabytes)


# ---- the analysis ---------------------------------------------------------------

class Worker:
    def __init__(self, out, config: Dict[str, Any]):
        self.out = out
        self.config = config
        self.jobs: "queue.Queue" = queue.Queue()
        self.cancels: Dict[int, threading.Event] = {}
        self.lock = threading.Lock()
        self.pending = None           # (job id, analysis) whose cost hovers are still to compute
        self.collections = 0

    def send(self, msg) -> None:
        with self.lock:
            write_frame(self.out, msg)

    def run_jobs(self) -> None:
        while True:
            try:
                job = self.jobs.get(timeout=IDLE_BEFORE_EXTRAS_S if self.pending is not None else None)
            except queue.Empty:          # the editor is quiet: time for what can wait
                self.finish_costs()
                continue
            if job is None:
                return
            job_id, params = job
            cancel = self.cancels.setdefault(job_id, threading.Event())
            self.pending = None
            try:
                self.send(self.analyse(job_id, params, cancel))
            except BrokenPipeError:
                return
            finally:
                self.cancels.pop(job_id, None)
            self.collect_garbage()

    def collect_garbage(self) -> None:
        self.collections += 1
        n = self.collections
        gc.collect(2 if n % COLLECT_ALL_EVERY == 0 else 1 if n % COLLECT_MIDDLE_EVERY == 0 else 0)

    def finish_costs(self) -> None:
        """The kernels' cost hovers (a second, complete compile each), one at a time while no
        job waits; sent as extras of the job they belong to."""
        job_id, an = self.pending
        done = kernel_costs(an, stop=lambda: not self.jobs.empty())
        self.collect_garbage()
        if not an.costs_to_do:
            self.pending = None
        if done:
            try:
                self.send(("extras", job_id, {KERNEL_COST: done}))
            except BrokenPipeError:
                pass

    def analyse(self, job_id: int, params: Dict[str, Any], cancel: threading.Event):
        text = params["text"]
        bom = text.startswith(BOM)
        if bom:
            text = text[1:]

        def progress(kernel, fingerprint, loc):
            self.send(("progress", job_id, kernel, fingerprint, (loc.line, loc.col, loc.end_line, loc.end_col)))

        try:
            module_globals = None
            if self.config.get("execute_modules"):
                module_globals = execute_module(text, params["filename"])
            an = analyze(text, params["filename"], version=params.get("version"),
                         budget_s=params.get("budget_s", 2.0), cancel=cancel, on_compile=progress,
                         skip=params.get("skip", ()), module_globals=module_globals)
            diagnostics = diagnostics_of(an, bom=bom)
            self.send(("diagnostics", job_id, diagnostics))      # what the editor waits for: first
            summary = build_summary(an, bom=bom, diagnostics=diagnostics)
            if an.costs_to_do:
                self.pending = (job_id, an)
        except Cancelled:
            return ("cancelled", job_id)
        except MemoryError:
            return ("failed", job_id, f"the analysis ran out of memory (the worker's limit is "
                                      f"{self.config.get('memory_mb')} MB)")
        except RecursionError:
            return ("failed", job_id, "the analysis went too deep (recursion)")
        except Exception as e:          # a bug in tilescope: report it, keep the worker
            log.exception("analysis failed")
            return ("failed", job_id, f"tilescope internal error: {type(e).__name__}: {e}")
        return ("done", job_id, summary, {"rss_mb": rss_mb()})

    def read_messages(self, inp) -> None:
        while True:
            msg = read_frame(inp)
            if msg is None or msg[0] == "quit":
                break
            if msg[0] == "analyze":
                self.cancels[msg[1]] = threading.Event()
                self.jobs.put((msg[1], msg[2]))
            elif msg[0] == "cancel":
                ev = self.cancels.get(msg[1])
                if ev is not None:
                    ev.set()
        self.jobs.put(None)


def _warm_up() -> None:
    """Import and exercise what an analysis needs, before the guard narrows what may load."""
    load_all()
    build_summary(analyze(WARM_UP, "<tilescope-warm-up>"))


def _private_pipes():
    """The protocol's pipes, moved off fds 0 and 1: `print()` or `input()` in analysed
    code reach /dev/null and stderr, never the server."""
    inp = os.fdopen(os.dup(0), "rb", buffering=0)
    out = os.fdopen(os.dup(1), "wb", buffering=0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull)
    sys.stdout = sys.stderr
    return inp, out


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="tilescope-worker %(levelname)s: %(message)s")
    # Half-typed code makes the parser warn ("invalid decimal literal") at every keystroke;
    # the editor shows errors as diagnostics, the log needs none of it.
    warnings.simplefilter("ignore", SyntaxWarning)
    warnings.simplefilter("ignore", DeprecationWarning)
    # `python -c` puts the current directory first on sys.path: never import from it.
    sys.path[:] = [p for p in sys.path if p not in ("", ".", os.getcwd())]
    inp, out = _private_pipes()
    first = read_frame(inp)
    config = first[1] if first and first[0] == "config" else {}
    limit_memory(config.get("memory_mb", 2048))
    _warm_up()
    worker = Worker(out, config)
    gc.collect()
    gc.set_threshold(YOUNG_OBJECTS_BEFORE_A_COLLECTION, 10, 10)     # see COLLECT_ALL_EVERY
    threading.stack_size(WORKER_STACK)      # kernels inline helpers recursively
    thread = threading.Thread(target=worker.run_jobs, name="tilescope-analysis", daemon=True)
    thread.start()
    threading.stack_size(0)
    if not config.get("execute_modules"):
        guard.install()
    worker.send(("ready", {"pid": os.getpid(), "rss_mb": rss_mb(), "started": time.time()}))
    try:
        worker.read_messages(inp)
    except (OSError, ValueError, EOFError):
        pass
    thread.join(timeout=1.0)
    os._exit(0)


if __name__ == "__main__":
    main()
