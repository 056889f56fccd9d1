"""Upstream cuTile's bytecode for corpus cases, from a worker process (importing cuda.tile is slow
and global, so it stays out of the caller's process).

    from tests.oracle.upstream_export import export_bytecode
    paths = export_bytecode(cases, "13.4", out_dir)       # {case key: path or "error: ..."}

With `launches` ({case key: tests.oracle.launch_args.launch_arguments(...)}) the signature is the one
upstream's launch derives from such arguments instead of the corpus spec.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class SpecCase:
    """One kernel of a test module, with its argument specs, as export_bytecode takes cases."""
    def __init__(self, prefix: str, path, kernel: str, args):
        self.key, self.path, self.kernel, self.args = f"{prefix}::{kernel}", path, kernel, args


def export_spec(prefix: str, path, spec: dict, version: str, out_dir: str) -> dict:
    """Upstream's bytecode of every kernel of `spec` ({kernel: argument specs}) in the module at
    `path`: {kernel: bytecode file}."""
    cases = [SpecCase(prefix, path, name, args) for name, args in spec.items()]
    paths = export_bytecode(cases, version, out_dir)
    return {c.kernel: paths[c.key] for c in cases}


def tileir_texts(toolchain, prefix: str, module, path, spec: dict, version: str, out_dir: str) -> dict:
    """{kernel: (ours, theirs)}: the TileIR text tileiras disassembles from tilescope's bytecode
    (compiled for `version`) and from upstream's, for every kernel of `spec` in `module` (loaded
    from `path`)."""
    import tilescope
    from tilescope.backends.tileir import write_bytecode

    out = {}
    for kernel, theirs in export_spec(prefix, path, spec, version, out_dir).items():
        compiled = tilescope.compile(getattr(module, kernel), spec[kernel], tileiras_version=version)
        out[kernel] = (toolchain.disassemble(write_bytecode(compiled.tileir_module(), version)),
                       toolchain.disassemble(Path(theirs).read_bytes()))
    return out


def export_bytecode(cases, version: str, out_dir: str, launches=None) -> dict:
    launches = launches or {}
    job = {"version": version, "out": str(out_dir),
           "cases": [{"key": c.key, "file": str(c.path), "kernel": c.kernel, "args": c.args,
                      "launch": launches.get(c.key)} for c in cases]}
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "src")]))
    r = subprocess.run([sys.executable, "-m", "tests.oracle.upstream_export"], input=json.dumps(job),
                       capture_output=True, text=True, env=env, cwd=str(ROOT))
    if r.returncode:
        raise RuntimeError(f"upstream export worker failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout)


def _signature(kern, case):
    from cuda.tile.compilation import CallingConvention, KernelSignature
    from tests.oracle.spec import to_upstream_args
    from tests.oracle.upstream_worker import _has_tuple
    if case.get("launch") is not None:
        from tests.oracle.launch_args import upstream_signature
        return upstream_signature(kern, case["launch"])
    params, _ = to_upstream_args(case["args"])
    cc = CallingConvention.cutile_python_v2() if any(_has_tuple(p) for p in params) \
        else CallingConvention.cutile_python_v1()
    return KernelSignature(params, calling_convention=cc)


def main() -> int:
    from cuda.tile.compilation import export_kernel
    from tests.oracle.upstream_worker import _import_corpus_file
    job = json.load(sys.stdin)
    out = {}
    for c in job["cases"]:
        try:
            kern = getattr(_import_corpus_file(c["file"]), c["kernel"])
            sig = _signature(kern, c)
            tag = hashlib.sha256((c["key"] + json.dumps(c.get("launch")) + job["version"]).encode()).hexdigest()
            path = os.path.join(job["out"], f"up-{tag[:24]}.tilebc")
            with contextlib.redirect_stdout(io.StringIO()):
                export_kernel(kern, [sig], path, output_format="tileir_bytecode", bytecode_version=job["version"])
            out[c["key"]] = path
        except Exception as e:  # noqa: BLE001 - recorded per case
            text = str(e).strip().splitlines()
            out[c["key"]] = f"error: {type(e).__name__}: {text[0] if text else ''}"
    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
