"""Running the user's code only in a separate process limited in time and memory.

`tilescope check/ir/transpile/compile --import` (import the module, running its top-level
code) and `--trust` (evaluate compile-time Python as ordinary Python) re-run the same command
in a child process: a module that loops forever, exhausts memory or ends the process cannot
take the caller with it, and the parent reports what happened in one line. The language
server can use `run_isolated` the same way.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from typing import List, Optional

DEFAULT_SECONDS = 60.0
DEFAULT_MEMORY_MB = 4096
# Exit codes the command itself returns; anything else means the user's code ended the process.
OWN_EXIT_CODES = (0, 1, 2, 130)


@dataclass
class Outcome:
    returncode: int
    timed_out: bool = False
    signal_name: Optional[str] = None


def _limits(memory_mb: Optional[int], seconds: Optional[float]):
    def apply():       # runs in the child, before Python starts
        try:
            import resource
        except ImportError:       # not on this platform: the wall-clock limit still holds
            return
        if memory_mb:
            limit = int(memory_mb) << 20
            for which in ("RLIMIT_AS", "RLIMIT_DATA"):
                if hasattr(resource, which):
                    try:
                        resource.setrlimit(getattr(resource, which), (limit, limit))
                    except (ValueError, OSError):
                        pass
        if seconds:
            cpu = int(seconds) + 1
            try:
                resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
            except (ValueError, OSError):
                pass
    return apply


def run_isolated(argv: List[str], *, seconds: float = DEFAULT_SECONDS,
                 memory_mb: int = DEFAULT_MEMORY_MB, env: Optional[dict] = None) -> Outcome:
    """Run `python -m tilescope ARGV` in a child process; its output passes through."""
    preexec = _limits(memory_mb, seconds) if os.name == "posix" else None
    env = dict(os.environ if env is None else env)
    # The child imports this very tilescope, however the parent found it.
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
    proc = subprocess.Popen([sys.executable, "-m", "tilescope", *argv], env=env, preexec_fn=preexec)
    try:
        rc = proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return Outcome(-signal.SIGKILL, timed_out=True)
    except KeyboardInterrupt:
        proc.kill()
        proc.wait()
        raise
    name = None
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = f"signal {-rc}"
    return Outcome(rc, signal_name=name)


def describe(outcome: Outcome, what: str, seconds: float, memory_mb: int) -> Optional[str]:
    """One line for an outcome the command did not report itself, else None."""
    if outcome.timed_out or outcome.signal_name in ("SIGXCPU",):
        return f"{what} took longer than {seconds:g} s and was stopped (--time-limit)"
    if outcome.signal_name == "SIGKILL":
        return f"{what} was killed (out of memory? the limit is {memory_mb} MiB: --memory-limit)"
    if outcome.signal_name is not None:
        return f"{what} ended with {outcome.signal_name}"
    if outcome.returncode not in OWN_EXIT_CODES:
        return f"{what} ended the process with exit code {outcome.returncode}"
    return None
