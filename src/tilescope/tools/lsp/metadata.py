"""Where the editor finds argument metadata for a kernel, without running anything.

In order of preference:
1. `# tilescope: args ...` directives (as for `tilescope check`);
2. `.tilescope/signatures.json` next to the source file, written by
   `tilescope run --record`. Format: a JSON object mapping `"<file name>::<kernel>"`
   (the file's base name; an absolute path is accepted too) to a list of argument
   texts in `tilescope.meta.parse_args` syntax:
       {"kernels.py::vector_add": ["f32[1024], f32[1024], f32[1024], 256"]}
3. `ct.launch(stream, grid, kernel, (args...))` call sites in the same file whose
   arguments are evident from the source: literals, and arrays made by
   `torch.empty/zeros/ones/randn/rand/full` or `np.empty/zeros/ones/full`
   (also `cupy`) with a literal shape and dtype.
"""
from __future__ import annotations

import ast
import json
import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from ...annotations import is_constant_annotation
from ...directives import find_kernels
from ...dtypes import literal_dtype
from ...meta import ConstantSpec, MetaTensor, ScalarSpec


@dataclass
class Signature:
    specs: Any           # args text (str) or a list of specs
    text: str            # how to show it
    source: str          # "directive", "recorded", "launch"
    values: Optional[str] = None    # a directive's `# tilescope: values` text, for the cost hover


def kernel_signatures(tree: ast.Module, text: str, filename: str, static_module) -> Dict[str, List[Signature]]:
    out: Dict[str, List[Signature]] = {}
    for site in find_kernels(tree, text):
        if site.signatures:
            out[site.name] = [Signature(s, s, "directive", site.values) for s in site.signatures]
    recorded = _recorded(filename)
    for name in static_module.kernels:
        if name in out:
            continue
        texts = recorded.get(f"{os.path.basename(filename)}::{name}") or \
            recorded.get(f"{os.path.abspath(filename)}::{name}")
        if texts:
            out[name] = [Signature(t, t, "recorded") for t in texts if isinstance(t, str)]
    missing = [k for k in static_module.kernels if k not in out]
    if missing:
        for name, specs in _launch_sites(tree, static_module, set(missing)):
            sigs = out.setdefault(name, [])
            text = ", ".join(repr(s) for s in specs)
            if all(s.text != text for s in sigs):
                sigs.append(Signature(specs, text, "launch"))
    return out


_recorded_cache: Dict[str, tuple] = {}


def _recorded(filename: str) -> dict:
    path = os.path.join(os.path.dirname(os.path.abspath(filename)), ".tilescope", "signatures.json")
    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        return {}
    cached = _recorded_cache.get(path)
    if cached and cached[0] == mtime:
        return cached[1]
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    _recorded_cache[path] = (mtime, data)
    return data


# ---- ct.launch call sites -------------------------------------------------------

_ARRAY_MAKERS = {"empty", "zeros", "ones", "randn", "rand", "full", "empty_strided"}
_TORCH_DTYPES = {"float16": "f16", "half": "f16", "bfloat16": "bf16", "float32": "f32", "float": "f32",
                 "float64": "f64", "double": "f64", "int8": "i8", "int16": "i16", "int32": "i32",
                 "int": "i32", "int64": "i64", "long": "i64", "uint8": "u8", "bool": "bool",
                 "float8_e4m3fn": "f8e4m3fn", "float8_e5m2": "f8e5m2"}


def _launch_sites(tree: ast.Module, sm, wanted):
    for scope in [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
        local = _simple_assignments(scope)
        for node in _walk_scope(scope):
            if not (isinstance(node, ast.Call) and _callee_name(node.func) == "launch" and len(node.args) >= 4):
                continue
            kernel = node.args[2]
            if not isinstance(kernel, ast.Name) or kernel.id not in wanted:
                continue
            args = node.args[3]
            if not isinstance(args, ast.Tuple):
                args = local.get(args.id) if isinstance(args, ast.Name) else None
                if not isinstance(args, ast.Tuple):
                    continue
            fn = sm.functions.get(kernel.id)
            specs = _specs(args.elts, local, sm, fn)
            if specs is not None:
                yield kernel.id, specs


def _walk_scope(scope):
    """Nodes of one scope, not descending into nested functions (they are their own scope)."""
    stack = list(scope.body)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                stack.append(child)


def _simple_assignments(scope) -> Dict[str, ast.expr]:
    out: Dict[str, ast.expr] = {}
    for node in _walk_scope(scope):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            out[name] = None if name in out else node.value    # reassigned: not evident
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) \
                and isinstance(node.value, ast.Tuple) and len(node.value.elts) == len(node.targets[0].elts):
            for t, v in zip(node.targets[0].elts, node.value.elts):
                if isinstance(t, ast.Name):
                    out[t.id] = None if t.id in out else v
    return out


def _callee_name(func) -> Optional[str]:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _specs(elts, local, sm, fn) -> Optional[list]:
    params = [a.arg for a in fn.node.args.args] if fn is not None else []
    if fn is not None and len(params) != len(elts):
        return None
    out = []
    for i, e in enumerate(elts):
        value = _evident(e, local, sm, 0)
        if value is None:
            return None
        if isinstance(value, str):          # an array spec text
            out.append(MetaTensor.parse(value))
            continue
        ann = fn.__annotations__.get(params[i]) if fn is not None else None
        if is_constant_annotation(ann) or not isinstance(value, (bool, int, float)):
            out.append(ConstantSpec(value))
        else:
            out.append(ScalarSpec(literal_dtype(value)))
    return out


def _evident(e, local, sm, depth):
    """A Python constant, or an array spec text, or None when not evident."""
    if depth > 8:
        return None
    if isinstance(e, ast.Constant) and isinstance(e.value, (bool, int, float)):
        return e.value
    if isinstance(e, ast.Name):
        if e.id in local:
            v = local[e.id]
            return None if v is None else _evident(v, local, sm, depth + 1)
        g = sm.globals.get(e.id)
        if isinstance(g, (bool, int, float)):
            return g
        return None
    if isinstance(e, ast.Call) and _callee_name(e.func) in _ARRAY_MAKERS and e.args:
        lib = e.func.value.id if isinstance(e.func, ast.Attribute) and isinstance(e.func.value, ast.Name) else ""
        shape_node = e.args[0]
        dims = shape_node.elts if isinstance(shape_node, (ast.Tuple, ast.List)) else \
            (e.args if _callee_name(e.func) in ("randn", "rand") or lib == "torch" else [shape_node])
        shape = []
        for d in dims:
            v = _evident(d, local, sm, depth + 1)
            if not isinstance(v, int) or isinstance(v, bool):
                return None
            shape.append(v)
        dtype_node = next((k.value for k in e.keywords if k.arg == "dtype"), None)
        if dtype_node is None:
            dtype = "f32" if lib == "torch" else "f64"
        else:
            name = dtype_node.attr if isinstance(dtype_node, ast.Attribute) else \
                (dtype_node.value if isinstance(dtype_node, ast.Constant) else None)
            dtype = _TORCH_DTYPES.get(name) if isinstance(name, str) else None
            if dtype is None:
                return None
        return f"{dtype}[{','.join(str(d) for d in shape)}]"
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        v = _evident(e.operand, local, sm, depth + 1)
        return -v if isinstance(v, (int, float)) and not isinstance(v, bool) else None
    return None
