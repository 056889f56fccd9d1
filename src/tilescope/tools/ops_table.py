"""`tilescope ops`: the op x backend table, read from the primitive table.

Each cell says whether the primitive has a rule for that column, or the reason it has none
(numbered notes under the table); "MISSING" marks a gap nobody explained (a test fails on it).
"""
from __future__ import annotations

import importlib
import json
from typing import Dict, List

from ..ir.primitive import COLUMNS, PRIMITIVES, Primitive
from ..ops import FAMILIES, load_all


def load_rules() -> None:
    """Import everything that fills rule columns: the op families, the TileIR backend and the
    compiled CPU backend."""
    load_all()
    importlib.import_module("tilescope.backends.tileir.lower")
    importlib.import_module("tilescope.backends.compiled.kernel_gen")


def families() -> Dict[str, str]:
    """Primitive name -> the family module that declares it."""
    out = {}
    for family in FAMILIES:
        module = importlib.import_module(f"tilescope.ops.{family}")
        for value in vars(module).values():
            if isinstance(value, Primitive):
                out.setdefault(value.name, family)
    return out


def rows() -> List[dict]:
    """One dict per primitive: name, family, doc, and per column None (a rule) or the reason."""
    load_rules()
    fam = families()
    return [{"op": name, "family": fam.get(name, "?"), "doc": p.doc,
             **{c: p.status(c) for c in COLUMNS}} for name, p in sorted(PRIMITIVES.items())]


def render_text() -> str:
    table = rows()
    notes: Dict[str, int] = {}

    def cell(status) -> str:
        if status is None:
            return "yes"
        if status == "missing":
            return "MISSING"
        return f"no[{notes.setdefault(status, len(notes) + 1)}]"
    header = ["op", "family", *COLUMNS]
    body = [[r["op"], r["family"], *(cell(r[c]) for c in COLUMNS)] for r in table]
    widths = [max(len(row[i]) for row in [header] + body) for i in range(len(header))]
    lines = ["  ".join(text.ljust(w) for text, w in zip(row, widths)).rstrip() for row in [header] + body]
    lines.append("")
    lines += [f"[{n}] {reason}" for reason, n in notes.items()]
    return "\n".join(lines) + "\n"


def render_json() -> str:
    return json.dumps(rows(), indent=2) + "\n"
