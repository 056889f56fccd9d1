"""Argument signatures recorded by `tilescope run --record`, read by `check`, `ir` and the editor.

They live in `.tilescope/signatures.json` next to the kernel's source file:
`{"<file name>::<kernel>": ["f32[1024], f32[1024], 256", ...]}` (spec strings as in
`tilescope.meta.parse_args`, most recent last, duplicates removed).
"""
from __future__ import annotations

import json
import os
from typing import Dict, List

FILENAME = os.path.join(".tilescope", "signatures.json")
MAX_PER_KERNEL = 16


def store_path(source_file: str) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(source_file)), FILENAME)


def key(source_file: str, kernel: str) -> str:
    return f"{os.path.basename(source_file)}::{kernel}"


def load(source_file: str) -> Dict[str, List[str]]:
    path = store_path(source_file)
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def recorded(source_file: str, kernel: str) -> List[str]:
    items = load(source_file).get(key(source_file, kernel), [])
    return [s for s in items if isinstance(s, str)]


def record(source_file: str, kernel: str, signature: str) -> None:
    data = load(source_file)
    k = key(source_file, kernel)
    items = [s for s in data.get(k, []) if s != signature] + [signature]
    data[k] = items[-MAX_PER_KERNEL:]
    path = store_path(source_file)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


class Recorder:
    """Installed by `tilescope run --record`: every launch adds its signature."""

    def __init__(self):
        self.count = 0

    def add(self, fn, specs) -> None:
        source = getattr(getattr(fn, "__code__", None), "co_filename", None)
        if not source or not os.path.exists(source):
            return
        record(source, fn.__name__, ", ".join(repr(s) for s in specs))
        self.count += 1


ACTIVE: List[Recorder] = []
