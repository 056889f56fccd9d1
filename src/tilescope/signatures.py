"""Argument signatures recorded by `tilescope run --record`, read by `check`, `ir` and the editor.

They live in `.tilescope/signatures.json` next to the kernel's source file:
`{"<file name>::<kernel>": ["f32[1024], f32[1024], 256", ...]}` (spec strings as in
`tilescope.meta.parse_args`, most recent last, duplicates removed).

Recording never loses entries: a file that is not valid JSON, or not of that shape, is kept
aside as `signatures.json.bak` (`.bak2`, ... if that exists) with a warning before a new one
is started, and concurrent recorders (threads, processes) take turns.
"""
from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
from typing import Dict, Iterator, List

FILENAME = os.path.join(".tilescope", "signatures.json")
MAX_PER_KERNEL = 16
_lock = threading.Lock()


def store_path(source_file: str) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(source_file)), FILENAME)


def key(source_file: str, kernel: str) -> str:
    return f"{os.path.basename(source_file)}::{kernel}"


def load(source_file: str) -> Dict[str, List[str]]:
    """The recorded signatures (an empty table when there are none or the file is unreadable)."""
    try:
        data = _read(store_path(source_file))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and _entry_ok(v)}


def recorded(source_file: str, kernel: str) -> List[str]:
    items = load(source_file).get(key(source_file, kernel), [])
    return [s for s in items if isinstance(s, str)]


def record(source_file: str, kernel: str, signature: str) -> None:
    path = store_path(source_file)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with _exclusive(path):
        data = _load_for_update(path)
        k = key(source_file, kernel)
        items = [s for s in data.get(k, []) if s != signature] + [signature]
        data[k] = items[-MAX_PER_KERNEL:]
        tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
        with open(tmp, "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
        os.replace(tmp, path)


def _read(path: str):
    with open(path) as f:
        return json.load(f)


def _entry_ok(v) -> bool:
    return isinstance(v, list) and all(isinstance(s, str) for s in v)


def _well_formed(data) -> bool:
    return isinstance(data, dict) and all(isinstance(k, str) and _entry_ok(v) for k, v in data.items())


def _load_for_update(path: str) -> Dict[str, List[str]]:
    """The table to add to; a broken file is moved aside first (never overwritten)."""
    try:
        data = _read(path)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        _keep_aside(path, f"it is not valid JSON ({e})")
        return {}
    if not _well_formed(data):
        _keep_aside(path, "it is not a table of signature lists")
        return {}
    return data


def _keep_aside(path: str, why: str) -> None:
    aside, n = path + ".bak", 1
    while os.path.exists(aside):
        n += 1
        aside = f"{path}.bak{n}"
    os.replace(path, aside)
    print(f"tilescope: warning: {path}: {why}; kept it as {os.path.basename(aside)} and started a new one",
          file=sys.stderr)


@contextlib.contextmanager
def _exclusive(path: str) -> Iterator[None]:
    """One recorder at a time: threads of this process, and other processes where file locks exist."""
    with _lock:
        try:
            import fcntl
        except ImportError:          # no advisory locks on this platform: threads still take turns
            yield
            return
        with open(path + ".lock", "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


class Recorder:
    """Installed by `tilescope run --record`: every launch adds its signature."""

    def __init__(self):
        self.count = 0

    def add(self, fn, specs) -> None:
        source = getattr(getattr(fn, "__code__", None), "co_filename", None)
        if not source or not os.path.exists(source):
            return
        try:
            record(source, fn.__name__, ", ".join(repr(s) for s in specs))
        except OSError as e:          # a read-only project: the run goes on
            print(f"tilescope: warning: cannot record the signature of '{fn.__name__}': {e}", file=sys.stderr)
            return
        self.count += 1


ACTIVE: List[Recorder] = []
