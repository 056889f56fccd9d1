"""Artifact bundles: build cubins here (where tileiras is), launch them on a GPU machine without it.

    python -m tilescope.gpu.bundle build --out DIR FILE --kernel K --args "f32[?], f32[?], f32[?], 1024" \
        [--kernel K2 --args SPEC2 ...] [--arch sm_90] [--bytecode-version 13.3]
    python -m tilescope.gpu.bundle list DIR

Pass array arguments as dynamic (`f32[?]`): a launch describes real arrays that way, so the key
matches. Then `tilescope.gpu.launch(grid, kernel, args, bundle=DIR)` finds the cubin by key.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import List, Optional

from ..lang.shim import load_file
from .artifact import DEFAULT_BYTECODE, Artifact, build

MANIFEST = "manifest.json"


def add(out: str, artifact: Artifact) -> None:
    artifact.save(out)
    path = os.path.join(out, MANIFEST)
    entries = {}
    if os.path.exists(path):
        with open(path) as f:
            entries = json.load(f).get("entries", {})
    entries[artifact.key] = {"kernel": artifact.kernel, "signature": artifact.signature, "arch": artifact.arch,
                             "symbol": artifact.symbol, "origin": artifact.origin}
    with open(path, "w") as f:
        json.dump({"format": "tilescope-gpu-bundle/1", "entries": entries}, f, indent=1, sort_keys=True)


def build_bundle(out: str, file: str, pairs, arch: str = "sm_90", bytecode_version: str = DEFAULT_BYTECODE) -> List[Artifact]:
    module = load_file(file)
    made = []
    for kernel, spec in pairs:
        art = build(getattr(module, kernel), spec, arch, bytecode_version)
        add(out, art)
        made.append(art)
    return made


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tilescope.gpu.bundle")
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="compile kernels to cubins (needs tileiras) into a bundle directory")
    b.add_argument("file")
    b.add_argument("--out", required=True)
    b.add_argument("--kernel", action="append", required=True)
    b.add_argument("--args", action="append", required=True, help="one per --kernel, in order")
    b.add_argument("--arch", default="sm_90")
    b.add_argument("--bytecode-version", default=DEFAULT_BYTECODE)
    ls = sub.add_parser("list", help="list a bundle's cubins")
    ls.add_argument("dir")
    a = p.parse_args(argv)
    if a.command == "list":
        with open(os.path.join(a.dir, MANIFEST)) as f:
            for key, e in sorted(json.load(f)["entries"].items(), key=lambda kv: kv[1]["kernel"]):
                print(f"{key}  {e['arch']}  {e['kernel']}({e['signature']})  {e['symbol']}")
        return 0
    if len(a.kernel) != len(a.args):
        p.error("give one --args per --kernel")
    for art in build_bundle(a.out, a.file, list(zip(a.kernel, a.args)), a.arch, a.bytecode_version):
        print(f"{art.key}  {art.kernel}({art.signature})  block={art.block}  shared={art.static_shared}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
