"""Debugging kernels on the CPU: `breakpoint()` inside a kernel, `TILESCOPE_BLOCK`, `tilescope run --pdb`.

A `breakpoint()` call in a kernel compiles to a `breakpoint` op. When the executor
reaches it, `breakpoint_hook` opens `pdb` on a namespace holding the kernel's user
variables *for one block*, as NumPy values named as in the source: a tile of shape
S is an array of shape S, a scalar a NumPy scalar, an array argument the caller's
NumPy array. `_block` holds the block's (x, y, z) and `_kernel` the kernel name.
Variables the compiler removed as dead code (never used afterwards) are absent.

Which block: the one named by the environment variable `TILESCOPE_BLOCK="x,y,z"`
(missing trailing coordinates are 0), else the first block that executes the
breakpoint in each group of blocks run together (with `TILESCOPE_BLOCK` set the
launcher runs only that block, so there is exactly one). `TILESCOPE_PDB=1` stops
once per launch before the kernel's first op, with the parameters in scope
(`tilescope run --pdb` sets it).

`set_interact(fn)` replaces the pdb session by `fn(namespace, banner)` (tests
record the namespace this way).
"""
from __future__ import annotations

import os
import pdb
import sys
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from ... import dtypes as D
from ...ir.core import Block, Function, Op, Value
from .tiles import ArrayRef

ENV_BLOCK = "TILESCOPE_BLOCK"
ENV_PDB = "TILESCOPE_PDB"

Interact = Callable[[Dict[str, Any], str], None]


def parse_block(text: str) -> Tuple[int, int, int]:
    """'3', '3,1' or '3,1,0' (spaces and parentheses allowed) -> (3, 1, 0)."""
    parts = [p for p in text.strip().strip("()").replace(" ", "").split(",") if p != ""]
    if not 1 <= len(parts) <= 3:
        raise ValueError(f"a block is 1 to 3 comma-separated integers, got {text!r}")
    try:
        coords = [int(p) for p in parts]
    except ValueError:
        raise ValueError(f"a block is 1 to 3 comma-separated integers, got {text!r}") from None
    if any(c < 0 for c in coords):
        raise ValueError(f"block coordinates must be non-negative, got {text!r}")
    return tuple(coords + [0] * (3 - len(coords)))


def selected_block() -> Optional[Tuple[int, int, int]]:
    text = os.environ.get(ENV_BLOCK)
    return parse_block(text) if text else None


def stop_at_entry_requested() -> bool:
    return os.environ.get(ENV_PDB, "") not in ("", "0")


# ---- the namespace -------------------------------------------------------------

def _path_to(block: Block, target: Op) -> Optional[List[Tuple[Block, int]]]:
    """[(block, index of the op in it)] from `block` down to `target`, or None."""
    for i, op in enumerate(block.ops):
        if op is target:
            return [(block, i)]
        for inner in op.blocks:
            sub = _path_to(inner, target)
            if sub is not None:
                return [(block, i)] + sub
    return None


def visible_values(fn: Function, at: Op) -> List[Value]:
    """Values in scope just before op `at`, in program order (later definitions shadow earlier ones)."""
    path = _path_to(fn.body, at) or [(fn.body, len(fn.body.ops))]
    out: List[Value] = []
    for block, index in path:
        out.extend(block.args)
        for op in block.ops[:index]:
            out.extend(op.results)     # ops before `at`: their results, not their regions' internals
    return out


def _for_block(x: Any, b: int) -> Any:
    if isinstance(x, ArrayRef):
        return x.array
    if isinstance(x, list):
        return [_for_block(i, b) for i in x]
    if isinstance(x, np.ndarray) and x.ndim >= 1:
        row = x[b if x.shape[0] > 1 else 0]
        return row.copy() if isinstance(row, np.ndarray) else row
    return x


def _as_declared(x: Any, v: Value) -> Any:
    """A value the executor keeps wider than its type (widened.py) in its declared dtype."""
    if isinstance(x, (np.ndarray, np.generic)) and getattr(v.type, "dtype", None) is D.float16 \
            and x.dtype == np.float32:
        return x.astype(np.float16)
    return x


def user_namespace(ex, at: Op, b: int) -> Dict[str, Any]:
    """The kernel's named variables for block `b` of the executor's group, as NumPy values."""
    ns: Dict[str, Any] = {}
    for v in visible_values(ex.fn, at):
        if v.name and v.id in ex.env:
            ns[v.name] = _as_declared(_for_block(ex.get(v), b), v)
    ns["_block"] = tuple(int(c) for c in ex.block_ids[b])
    ns["_kernel"] = ex.fn.name
    return ns


def choose_block(ex) -> Optional[int]:
    """Index (in the group) of the block to show, or None when it is not running here."""
    active = ex.active_mask()
    want = selected_block()
    if want is None:
        hits = np.flatnonzero(active)
        return int(hits[0]) if hits.size else None
    hits = np.flatnonzero((ex.block_ids == np.asarray(want)).all(axis=1) & active)
    return int(hits[0]) if hits.size else None


# ---- the session -----------------------------------------------------------------

def _pdb_session(ns: Dict[str, Any], banner: str) -> None:
    print(banner, file=sys.stderr)
    debugger = pdb.Pdb()
    debugger.prompt = "(tilescope-pdb) "
    code = compile("pass  # the kernel's variables are in scope; 'c' continues the launch",
                   "<kernel breakpoint>", "exec")
    debugger.run(code, ns, ns)


_interact: Interact = _pdb_session


def set_interact(fn: Optional[Interact]) -> Interact:
    """Install `fn(namespace, banner)` as the breakpoint session (None: pdb). Returns the previous one."""
    global _interact
    previous = _interact
    _interact = fn or _pdb_session
    return previous


def _banner(ex, at: Op, ns: Dict[str, Any], why: str) -> str:
    loc = at.loc
    where = f"{loc.filename}:{loc.line}" if loc is not None else "?"
    names = ", ".join(sorted(k for k in ns if not k.startswith("_"))) or "(none)"
    return (f"tilescope: {why} in kernel '{ex.fn.name}' at {where}, block {ns['_block']}\n"
            f"tilescope: variables: {names}")


def breakpoint_hook(ex, op: Op) -> None:
    """The executor's `breakpoint` op: open a session on one block's variables."""
    b = choose_block(ex)
    if b is None:
        return
    ns = user_namespace(ex, op, b)
    _interact(ns, _banner(ex, op, ns, "breakpoint()"))


def stop_at_entry(ex) -> None:
    """`--pdb`: a session before the kernel's first op (only the parameters are defined yet)."""
    b = choose_block(ex)
    if b is None or not ex.fn.body.ops:
        return
    for p, arg in zip(ex.fn.body.args, ex.args):
        ex.set(p, arg)
    first = ex.fn.body.ops[0]
    ns = user_namespace(ex, first, b)
    _interact(ns, _banner(ex, first, ns, "kernel entry"))
