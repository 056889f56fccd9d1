"""Upstream oracle worker: compile corpus cases with the real cuTile front end.

Run as a subprocess with the project venv python:

    python tests/oracle/upstream_worker.py < cases.json > results.json

stdin:  JSON list of {"key", "file" (absolute path), "kernel", "args"}
stdout: JSON list of result records (same order), see ``run_case``.

Each case is compiled exactly like
``cuda.tile.compilation.export_kernel(kernel, [sig], out, output_format="tileir_bytecode",
bytecode_version="13.3")`` -- i.e. ``compile_tile(..., sm_arch=None, return_bytecode=True,
return_cubin=False)`` -- except that we also pass ``return_final_ir=True`` so the final typed
cuTile IR is returned as an object instead of being scraped from the ``CUDA_TILE_LOGS=CUTILEIR``
log (which upstream ``print``s to ``sys.stderr``). No GPU and no ``tileiras`` are needed.
"""
from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import sys
import traceback
from pathlib import Path

sys.dont_write_bytecode = True  # don't litter tests/corpus with __pycache__

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent.parent))          # repo root -> tests.oracle.*
_SRC = _HERE.parent.parent / "src"
if _SRC.is_dir():
    sys.path.insert(0, str(_SRC))                        # tilescope.meta if present

from tests.oracle.corpus import ORACLE_TILEIRAS  # noqa: E402
from tests.oracle.spec import to_upstream_args  # noqa: E402

BYTECODE_VERSION = ORACLE_TILEIRAS

# opcode -> operand names holding the tile that is stored / printed
STORE_OPERANDS = {
    "tile_store": ("tile",),
    "store_pointer": ("value",),
    "tile_atomic_rmw": ("update",),
    "tile_atomic_cas": ("desired",),
    "tile_atomic_red_view": ("update",),
    "tile_printf": ("args",),
}

_modules: dict[str, object] = {}


def _import_corpus_file(path: str):
    if path in _modules:
        return _modules[path]
    p = Path(path)
    name = "tilescope_corpus_" + "_".join(p.with_suffix("").parts[-2:])
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    _modules[path] = mod
    return mod


def _public_error_name(exc: BaseException) -> str:
    import cuda.tile as ct
    public = {}
    for n in dir(ct):
        obj = getattr(ct, n)
        if isinstance(obj, type) and issubclass(obj, BaseException):
            public.setdefault(obj, n)
    for cls in type(exc).__mro__:
        if cls in public:
            return public[cls]
    return type(exc).__name__


def _walk(block):
    for op in block.operations:
        yield op
        for b in op.nested_blocks:
            yield from _walk(b)


def _stored_types(block) -> tuple[list[str], list[str]]:
    types, ops = [], []
    for op in _walk(block):
        names = STORE_OPERANDS.get(op.op)
        if names is None:
            continue
        for n in names:
            v = getattr(op, n)
            for var in (v if isinstance(v, tuple) else (v,)):
                types.append(str(var.get_type()))
                ops.append(op.op)
    return types, ops


def _has_tuple(p) -> bool:
    from cuda.tile.compilation import TupleConstraint
    return isinstance(p, (tuple, TupleConstraint))


def run_case(case: dict) -> dict:
    import cuda.tile as ct
    from cuda.tile.compilation import KernelSignature, CallingConvention
    from cuda.tile._compile import compile_tile, parse_bytecode_version
    from cuda.tile._exception import TileError

    rec = {"key": case["key"], "accepted": False, "error": None, "error_impl": None,
           "line": None, "col": None, "message": None, "error_file": None,
           "stored_types": None, "stored_ops": None, "calling_convention": None}
    stage = "import"
    try:
        mod = _import_corpus_file(case["file"])
        stage = "lookup"
        kern = getattr(mod, case["kernel"])
        stage = "signature"
        params, _conv = to_upstream_args(case["args"])
        # cutile_python_v1 is the oracle's calling convention; it rejects tuple
        # parameters outright, so signatures with a tuple parameter use v2.
        if any(_has_tuple(p) for p in params):
            cc = CallingConvention.cutile_python_v2()
        else:
            cc = CallingConvention.cutile_python_v1()
        rec["calling_convention"] = cc.name
        sig = KernelSignature(params, calling_convention=cc)
        stage = "compile"
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            res = compile_tile(kern._annotated_function, [sig], sm_arch=None,
                               compiler_options=kern._compiler_options,
                               return_bytecode=True, return_cubin=False,
                               return_final_ir=True,
                               bytecode_version=parse_bytecode_version(BYTECODE_VERSION))
        assert res.bytecode, "no bytecode produced"
        rec["accepted"] = True
        rec["stored_types"], rec["stored_ops"] = _stored_types(res.final_ir[0])
    except BaseException as e:  # noqa: BLE001 - we record everything
        if isinstance(e, KeyboardInterrupt):
            raise
        rec["error"] = _public_error_name(e)
        rec["error_impl"] = type(e).__name__
        msg = e.message if isinstance(e, TileError) else str(e)
        rec["message"] = (msg.strip().splitlines() or [""])[0]
        if stage != "compile":
            rec["error"] = f"{stage}:{rec['error']}"
            rec["message"] += " | " + traceback.format_exc().strip().splitlines()[-1]
        loc = getattr(e, "loc", None)
        if loc is not None and not loc.is_unknown():
            # Report the innermost location inside the corpus file itself; if the
            # innermost frame is elsewhere (e.g. upstream's own _stub.py), note it.
            target = Path(case["file"]).resolve()
            inner = loc
            while loc is not None and not (loc.filename and Path(loc.filename).resolve() == target):
                loc = loc.call_site
            if loc is not None:
                rec["line"], rec["col"] = loc.line, loc.col
            if inner is not loc and inner.filename:
                parts = Path(inner.filename).parts
                short = "/".join(parts[parts.index("cuda"):]) if "cuda" in parts else parts[-1]
                rec["error_file"] = f"{short}:{inner.line}"
    return rec


def main() -> int:
    cases = json.load(sys.stdin)
    out = []
    # Keep upstream chatter (CUTILEIR logs etc.) off our stdout protocol.
    real_stdout = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):
        for c in cases:
            out.append(run_case(c))
    json.dump(out, real_stdout)
    return 0


def serve() -> int:
    """Long-lived mode (``--serve``): one JSON case per stdin line, one JSON record per stdout line.

    Used by the fuzzer (tests/fuzz) to keep one upstream process for a whole session.
    """
    real_stdout = sys.stdout
    with contextlib.redirect_stdout(sys.stderr):
        for line in sys.stdin:
            if not line.strip():
                continue
            rec = run_case(json.loads(line))
            real_stdout.write(json.dumps(rec) + "\n")
            real_stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(serve() if "--serve" in sys.argv[1:] else main())
