"""`prepare` of bench/cost_validate.py: each case's cubin (tilescope's bytecode, or for an `aligned`
case upstream cuTile's, both assembled by tileiras), saved with the listing's facts in cases.json.
The kernels come from a `kernel_of(case)` the caller gives: cost_validate.kernel_of, which knows
the checkouts given on the command line."""
from __future__ import annotations

import io
import json
import os
import sys
import time
from typing import List, Optional

from costval_case import ROOT, Case, KernelOf, case_json, picked

ARCH = "sm_90"
BYTECODE = "13.3"
NEWER_BYTECODE = "13.4"


def aligned_specs(case: Case):
    """Argument specs as upstream's launch describes aligned contiguous arrays (`Case.args_for`)."""
    from tilescope.meta import parse_args
    specs = case.args_for(concrete=False)
    return parse_args(specs) if isinstance(specs, str) else specs


def load_module(path: str, name: str):
    import importlib.util
    mod = sys.modules.get(name)
    if mod is None:
        spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, path))
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return mod


def build_artifact(case: Case, kernel_of: KernelOf):
    import tilescope
    from tilescope.gpu.abi import layout_of
    from tilescope.gpu.artifact import Artifact, build
    from tilescope.gpu import cubin as cb
    from tilescope.lang.shim import load_file
    from tilescope.meta import parse_args
    if not case.aligned:
        try:
            return build(kernel_of(case), case.args_for(concrete=False), ARCH, BYTECODE)
        except Exception as e:       # an op newer than BYTECODE (e.g. fpowi): the newer format tileiras reads
            if "needs bytecode" not in str(e):
                raise
            return build(kernel_of(case), case.args_for(concrete=False), ARCH, NEWER_BYTECODE)
    module = load_file(os.path.join(ROOT, case.file))
    import cuda.tile  # noqa: F401  (the real package: upstream's bytecode)
    from cuda.tile.compilation import CallingConvention, KernelSignature, export_kernel
    from tilescope.backends.tileir.toolchain import find_toolchain
    up = load_module(case.file, "costval_upstream_" + os.path.basename(case.file)[:-3])
    sig = KernelSignature([s.to_upstream() for s in aligned_specs(case)],
                          calling_convention=CallingConvention.cutile_python_v1())
    buf = io.BytesIO()
    export_kernel(getattr(up, case.kernel), [sig], buf, output_format="tileir_bytecode", bytecode_version=BYTECODE)
    cubin = find_toolchain().assemble(buf.getvalue(), ARCH, where=case.name)
    layout = layout_of(tilescope.compile(getattr(module, case.kernel), parse_args(case.spec(concrete=False))).final)
    return Artifact.from_cubin(cubin, layout, kernel=case.kernel, signature=case.spec(False), arch=ARCH,
                               symbol=cb.kernel_names(cubin)[0], origin="upstream")


def cubin_facts(cubin: bytes, block) -> dict:
    """Block, registers per thread and static shared memory, for the listing (the model reads
    the cubin itself: costmodel/cubin_facts.py)."""
    from tilescope.costmodel.cubin_facts import read_cubin_facts
    facts = read_cubin_facts(cubin)
    return {"block": list(block), "registers": facts.registers, "shared": facts.shared_bytes}


def prepare(all_cases: List[Case], out: str, only: Optional[str], kernel_of: KernelOf,
            keep: bool = False) -> None:
    os.makedirs(out, exist_ok=True)
    made = []
    for c in all_cases:
        if not picked(c, only):
            continue
        t = time.time()
        if keep and os.path.exists(os.path.join(out, c.name + ".cubin")):
            from tilescope.gpu.artifact import Artifact
            art = Artifact.load(os.path.join(out, c.name))
        else:
            try:
                art = build_artifact(c, kernel_of)
            except Exception as e:       # one case that does not build must not lose the others
                print(f"{c.name:34s} not built: {type(e).__name__}: {str(e).splitlines()[0][:200]}", flush=True)
                continue
            art.save(out, c.name)
        c.facts = cubin_facts(art.cubin, art.block)
        made.append(c)
        print(f"{c.name:34s} {time.time() - t:5.1f}s  {c.facts}", flush=True)
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump([case_json(c) for c in made], f, indent=1)
