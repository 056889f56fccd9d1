"""Shared bits: result records, child-process launching, GPU-only markers."""
from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from typing import Dict, List, Optional

HARNESS_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Source markers of features that only exist on a real GPU (reason shown in the report).
GPU_ONLY_MARKERS = [
    ("torch.distributed", "multi-GPU (torch.distributed / symmetric memory)"),
    ("nvshmem", "nvshmem (multi-GPU)"),
    ("cuda.tile.tune", "autotuning (cuda.tile.tune times kernels on the GPU)"),
    ("cuda.tile.jax", "JAX FFI"),
    ("import jax", "JAX FFI"),
    ("torch.cuda.graph", "CUDA graphs"),
    ("CUDAGraph", "CUDA graphs"),
    ("programmatic_dependent_launch=True", "programmatic dependent launch (PDL)"),
]


@dataclasses.dataclass
class Result:
    kind: str            # samples | tests | negative | doctests
    file: str            # file the case comes from (relative to the upstream checkout)
    case: str            # test id / sample name / doc example id
    outcome: str         # passed | failed | skipped | error
    category: str = ""   # failure or skip category
    detail: str = ""     # one-line reason

    def to_json(self) -> Dict[str, str]:
        return dataclasses.asdict(self)


def gpu_only_reason(source: str) -> Optional[str]:
    for marker, reason in GPU_ONLY_MARKERS:
        if marker in source:
            return reason
    return None


TILEIRAS_VERSION = "13.4"


def child_env(extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """Environment of a harness child: tilescope and this package importable, no GPU noise."""
    env = dict(os.environ)
    paths = [HARNESS_ROOT, os.path.join(HARNESS_ROOT, "src")]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env.setdefault("CUDA_VISIBLE_DEVICES", "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"        # never leave __pycache__ in the upstream checkout
    env.pop("TILESCOPE_CPU", None)
    # Upstream's tests and docs are written for the tileiras its wheel brings (13.4): check
    # kernels for it, so features gated on 13.4 (insert, check_bounds=False...) are exercised.
    env.setdefault("TILESCOPE_TILEIRAS_VERSION", TILEIRAS_VERSION)
    if extra:
        env.update(extra)
    return env


def run_child(args: List[str], *, timeout: float, cwd: Optional[str] = None,
              env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([sys.executable] + args, capture_output=True, text=True, timeout=timeout,
                              cwd=cwd, env=env or child_env())
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        return subprocess.CompletedProcess(e.cmd, -9, out, err + f"\n[harness] timed out after {timeout:.0f} s")


def last_line(text: str, limit: int = 200) -> str:
    lines = [l.strip() for l in text.strip().splitlines() if l.strip()]
    if not lines:
        return ""
    line = lines[-1]
    return line if len(line) <= limit else line[:limit - 3] + "..."
