"""Find and run NVIDIA's TileIR assembler (`tileiras`) and disassembler (`tileirdisasm`).

Search order: $TILESCOPE_CUDA_BIN (a directory), the pip packages `nvidia-cuda-tileiras` +
`nvidia-cuda-nvcc` + `nvidia-nvvm` of the running interpreter (nvidia/cu13/bin), PATH,
then $CUDA_HOME/bin. tileiras needs libNVVM (<bin>/../nvvm/lib64 or <bin>/../lib) and `ptxas` beside it.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import List, Optional

from ...errors import Loc

INSTALL_HINT = ('install the TileIR toolchain: pip install "cuda-tile[tileiras]==1.7.0" (or nvidia-cuda-tileiras, '
                'nvidia-cuda-nvcc and nvidia-nvvm of one version), or set TILESCOPE_CUDA_BIN to its bin directory')
GPUS = ("sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_103", "sm_110", "sm_120", "sm_121")


class ToolchainError(Exception):
    """The TileIR toolchain is missing or incomplete (one line, saying what to install)."""


class AssemblerError(Exception):
    """tileiras rejected a program; `loc` is the kernel-source location of the first diagnostic
    that carries one (from the bytecode's debug info), else None."""

    def __init__(self, message: str, loc=None):
        super().__init__(message)
        self.loc = loc


_DI_LOC = re.compile(r'#cuda_tile\.di_loc<loc\("([^"]+)":(\d+):(\d+)\)(?:[^>]|>(?!>: ))*>>: ')
_PLAIN_LOC = re.compile(r'loc\("([^"]+)":(\d+):(\d+)\)')


def source_diagnostics(text: str):
    """Rewrite the tools' debug-info locations (`#cuda_tile.di_loc<loc("f.py":12:5) in ...>: error`)
    as `f.py:12:5: error`, with the source line quoted; returns (text, first Loc or None)."""
    first = None
    out = []
    for line in text.splitlines():
        m = _DI_LOC.search(line) or None
        if m:
            loc = Loc(m.group(1), int(m.group(2)), int(m.group(3)) + 1)     # TileIR columns are 0-based
            first = first or loc
            line = line[:m.start()] + f"{loc}: " + line[m.end():]
            out.append(line)
            src = loc.source_line()
            if src:
                out.append("    " + src.strip())
            continue
        m = _PLAIN_LOC.search(line)
        if m and first is None:
            first = Loc(m.group(1), int(m.group(2)), int(m.group(3)) + 1)
        out.append(line)
    return "\n".join(out), first


def _candidate_dirs() -> List[str]:
    dirs = []
    env = os.environ.get("TILESCOPE_CUDA_BIN")
    if env:
        dirs.append(env)
    for path in sys.path:
        d = os.path.join(path, "nvidia", "cu13", "bin")
        if os.path.isdir(d):
            dirs.append(d)
    found = shutil.which("tileiras")
    if found:
        dirs.append(os.path.dirname(os.path.realpath(found)))
    cuda = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if cuda:
        dirs.append(os.path.join(cuda, "bin"))
    return dirs


@dataclass
class Toolchain:
    bin_dir: str

    @property
    def tileiras(self) -> str:
        return os.path.join(self.bin_dir, "tileiras")

    @property
    def tileirdisasm(self) -> str:
        return os.path.join(self.bin_dir, "tileirdisasm")

    def problems(self) -> List[str]:
        out = []
        if not os.path.isfile(self.tileiras):
            out.append("tileiras")
        if not os.path.isfile(os.path.join(self.bin_dir, "ptxas")):
            out.append("ptxas (nvidia-cuda-nvcc)")
        import glob
        root = os.path.join(self.bin_dir, "..")
        if not (glob.glob(os.path.join(root, "nvvm", "lib64", "libnvvm*")) or
                glob.glob(os.path.join(root, "lib", "libnvvm*"))):
            out.append("libNVVM (nvidia-nvvm)")
        return out

    def assemble(self, bytecode: bytes, gpu: str = "sm_90", *, where: str = "", opt_level: int = 3,
                 lineinfo: bool = True) -> bytes:
        """bytecode -> cubin with the flags upstream's launch uses (`-O3 --lineinfo` by default);
        raises AssemblerError with tileiras's message."""
        if gpu not in GPUS:
            raise AssemblerError(f"unknown GPU '{gpu}' (one of {', '.join(GPUS)})")
        with tempfile.TemporaryDirectory(prefix="tilescope-") as tmp:
            src, dst = os.path.join(tmp, "k.tilebc"), os.path.join(tmp, "k.cubin")
            with open(src, "wb") as f:
                f.write(bytecode)
            flags = [f"--gpu-name={gpu}", f"-O{opt_level}"] + (["--lineinfo"] if lineinfo else [])
            r = subprocess.run([self.tileiras, *flags, "-o", dst, src], capture_output=True, text=True)
            if r.returncode:
                msg = (r.stderr or r.stdout).strip() or _silent_exit(r.returncode)
                if r.returncode == 5 and "failed to compile Tile IR program" in msg and msg.count("\n") == 0:
                    raise ToolchainError("tileiras failed without a diagnostic: its libNVVM/ptxas do not match "
                                         "its version; " + INSTALL_HINT)
                if "verification failed" in msg and "di_loc" not in msg and os.path.isfile(self.tileirdisasm):
                    # tileiras drops the location of verifier errors; tileirdisasm keeps it
                    d = subprocess.run([self.tileirdisasm, src], capture_output=True, text=True)
                    if d.returncode and "di_loc" in d.stderr:
                        msg = d.stderr.strip().splitlines()[0] + "\n" + msg
                msg, loc = source_diagnostics(msg)
                prefix = f"{loc or where}: " if (loc or where) else ""
                raise AssemblerError(f"{prefix}tileiras {' '.join(flags)} failed:\n{msg}", loc)
            with open(dst, "rb") as f:
                return f.read()

    def disassemble(self, bytecode: bytes) -> str:
        with tempfile.TemporaryDirectory(prefix="tilescope-") as tmp:
            src = os.path.join(tmp, "k.tilebc")
            with open(src, "wb") as f:
                f.write(bytecode)
            r = subprocess.run([self.tileirdisasm, src], capture_output=True, text=True)
            if r.returncode:
                msg, loc = source_diagnostics((r.stderr or r.stdout).strip())
                raise AssemblerError(f"tileirdisasm failed:\n{msg}", loc)
            return r.stdout


def find_toolchain(required: bool = True) -> Optional[Toolchain]:
    """The first complete toolchain found; with `required`, a one-line ToolchainError if none."""
    incomplete = []
    for d in _candidate_dirs():
        tc = Toolchain(d)
        missing = tc.problems()
        if not missing:
            return tc
        if os.path.isfile(tc.tileiras):
            incomplete.append(f"{d} lacks {', '.join(missing)}")
    if not required:
        return None
    if incomplete:
        raise ToolchainError(f"incomplete TileIR toolchain ({incomplete[0]}); {INSTALL_HINT}")
    raise ToolchainError(f"tileiras not found; {INSTALL_HINT}")


def _silent_exit(returncode: int) -> str:
    """What to say when tileiras stops without a message: the signal that killed it, or its status."""
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return (f"tileiras was killed by {name} without a diagnostic (a crash of tileiras itself; "
                "very large tiles can cause it)")
    return f"tileiras exited with status {returncode} without a diagnostic"
