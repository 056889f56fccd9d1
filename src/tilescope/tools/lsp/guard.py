"""A backstop in the analysis worker: refuse what no analysis of a kernel file needs.

The gate is the front end: module-level code is read statically, and compile-time
Python (`ct.static_eval`...) goes through tilescope's restricted evaluator. Should an
expression still slip through, this audit hook (PEP 578), installed in the worker once
it has started up, refuses the operations that would do harm or leak: starting
processes, signals, network, ctypes, writing, renaming or deleting files, reading files
outside Python's and tilescope's installation, importing packages that are not
tilescope's or part of a small pure standard-library set, reading the worker's
standard input, and walking the garbage collector to its pipes. An audit hook is not a
sandbox (Python's documentation says as much); it narrows what a hole could reach.
"""
from __future__ import annotations

import os
import site
import sys
from typing import Iterable, List, Tuple

import tilescope

# Audit events refused outright (an event matches an entry equal to it or starting with entry + ".").
DENIED_EVENTS = (
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "os.kill", "os.killpg",
    "os.startfile", "subprocess", "pty", "signal.pthread_kill", "socket", "ctypes", "mmap", "webbrowser",
    "urllib", "http", "ftplib", "smtplib", "imaplib", "poplib", "nntplib", "telnetlib", "sqlite3", "winreg",
    "shutil", "os.remove", "os.rmdir", "os.rename", "os.mkdir", "os.chmod", "os.chown", "os.chflags",
    "os.lchflags", "os.lchmod", "os.link", "os.symlink", "os.truncate", "os.utime", "os.putenv",
    "os.unsetenv", "os.chdir", "os.lockf", "os.setxattr", "os.removexattr", "os.add_dll_directory",
    "_thread.start_new_thread", "builtins.input", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
    "pickle.find_class", "sys.settrace", "sys.setprofile", "sys.remote_exec", "resource.setrlimit",
    "resource.prlimit",
)
_DENIED = frozenset(DENIED_EVENTS)

# Packages a worker may import after start-up (standard-library modules that compute, nothing more).
ALLOWED_IMPORTS = frozenset({
    "tilescope", "numpy", "ml_dtypes", "math", "cmath", "fractions", "decimal", "numbers", "enum",
    "dataclasses", "typing", "functools", "itertools", "operator", "collections", "contextlib", "re",
    "string", "textwrap", "copy", "abc", "types", "keyword", "heapq", "bisect", "statistics", "struct",
    "array", "weakref", "warnings", "traceback", "linecache", "tokenize", "token", "encodings",
    "unicodedata", "json", "datetime", "reprlib", "pprint", "difflib", "inspect", "dis", "opcode",
    "ast", "_ast", "_struct", "_json", "_datetime", "_decimal", "_pydecimal", "_bisect", "_heapq",
    "_statistics", "_contextvars", "contextvars", "_strptime", "calendar", "locale", "_locale",
})

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


class Refused(PermissionError):
    """An operation the analysis worker does not allow."""


def readable_roots() -> List[str]:
    """Where Python and tilescope are installed: the only places a worker reads from."""
    roots = {os.path.dirname(os.path.dirname(os.path.abspath(tilescope.__file__)))}
    for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix):
        roots.add(p)
    try:
        roots.update(site.getsitepackages())
    except AttributeError:       # some virtualenv builds lack it
        pass
    cwd = os.getcwd()
    for p in sys.path:
        if p and os.path.isabs(p) and os.path.isdir(p) and os.path.realpath(p) != os.path.realpath(cwd):
            roots.add(p)
    return sorted({os.path.realpath(r) + os.sep for r in roots if r})


def _is_write(mode, flags) -> bool:
    if isinstance(mode, str) and any(c in mode for c in "wax+"):
        return True
    return isinstance(flags, int) and bool(flags & _WRITE_FLAGS)


def _is_metadata(path: str) -> bool:
    """`.tilescope/signatures.json` next to a kernel file (argument metadata)."""
    head, name = os.path.split(path)
    return name == "signatures.json" and os.path.basename(head) == ".tilescope"


def make_hook(roots: Iterable[str]):
    roots_t: Tuple[str, ...] = tuple(roots)

    def refuse(what: str):
        raise Refused(f"refused by the tilescope analysis worker: {what}")

    def hook(event: str, args: tuple) -> None:
        if event == "open":
            path, mode, flags = (tuple(args) + (None, None, None))[:3]
            if _is_write(mode, flags):
                refuse(f"opening {path!r} for writing")
            if isinstance(path, bytes):
                path = os.fsdecode(path)
            if not isinstance(path, str):
                refuse(f"opening file descriptor {path!r}")
            real = os.path.realpath(path)
            if not (real.startswith(roots_t) or _is_metadata(real)):
                refuse(f"reading {path!r}")
            return
        if event == "import":
            top = str(args[0]).split(".")[0] if args else ""
            if top not in ALLOWED_IMPORTS:
                refuse(f"importing {args[0]!r}")
            return
        if event in _DENIED or event.split(".")[0] in _DENIED or \
                (event.count(".") > 1 and event.rsplit(".", 1)[0] in _DENIED):
            refuse(event)

    return hook


def install() -> None:
    """Install the hook for the rest of the process (audit hooks cannot be removed)."""
    sys.addaudithook(make_hook(readable_roots()))
