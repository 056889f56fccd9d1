"""Every corpus kernel through tilescope's TileIR backend and tileiras, compared with upstream's.

    python bench/tileir_corpus.py [--only SUBSTR] [--gpu sm_90,sm_100] [--version 13.4]
                                  [--launch] [--json OUT.json] [--cache DIR] [--list]

For each corpus case upstream cuTile 1.7.0 accepts (at the target version): tilescope lowers it,
writes bytecode, reads it back (round trip), `tileirdisasm` prints it (it must equal tilescope's
printer), and `tileiras` assembles it for each `--gpu`. Upstream's `export_kernel` bytecode for the
same signature goes through the same tileiras; the two sm_90 cubins are compared byte for byte.

With `--launch` the signature is not the corpus spec but what a launch derives from device arrays of
that shape (contiguous, 256-byte aligned; tests/oracle/launch_args.py): tilescope's launch description
(`tilescope.gpu.launch_specs`) against the constraints upstream's launch derives (equal to upstream's
own derivation: tests/gpu/test_specialize.py). Cases whose scalars no launch can pass are left out.

Cubins are cached by bytecode hash under --cache (default .tileir-corpus/), so a rerun only assembles
what changed. Upstream's bytecode comes from a worker process (tests/oracle/upstream_export.py).
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))
sys.path.insert(0, ROOT)


def corpus_cases(version: str, only: str = ""):
    """Cases upstream accepts at `version`: accepted at the recorded target, or refused there only
    because a feature needs a newer tileiras that `version` is."""
    from tests.oracle.corpus import CORPUS_DIR, load_corpus
    results = json.loads((CORPUS_DIR / "upstream_results.json").read_text())["cases"]
    out = []
    for c in load_corpus():
        r = results.get(c.key)
        if r is None or (only and not any(o in c.key for o in only.split(","))):
            continue
        gated = (r["error"] == "TileUnsupportedFeatureError" and "requires tileiras" in (r["message"] or "")
                 and version >= r["message"].split("requires tileiras ")[1].split(" ")[0])
        if r["accepted"] or gated:
            out.append(c)
    return out


# ---- tilescope side ----------------------------------------------------------------------------

def assemble_cached(tc, data: bytes, gpu: str, cache: str, opt_level: int = 3) -> bytes:
    """tileiras with the flags upstream's launch passes (-O<level> --lineinfo), cached."""
    path = os.path.join(cache, hashlib.sha256(data + f"{gpu} -O{opt_level} --lineinfo".encode()).hexdigest()[:32]
                        + ".cubin")
    if os.path.exists(path):
        with open(path, "rb") as f:
            return f.read()
    cubin = tc.assemble(data, gpu, opt_level=opt_level)
    with open(path, "wb") as f:
        f.write(cubin)
    return cubin


def tilescope_case(case, module_cache, version, launch):
    import tilescope
    from tilescope.lang.shim import load_file
    if case.path not in module_cache:
        module_cache[case.path] = load_file(str(case.path))
    kern = getattr(module_cache[case.path], case.kernel)
    if launch is not None:
        from tests.oracle.launch_args import device_args
        from tilescope.gpu.artifact import launch_specs
        compiled = tilescope.compile(kern, launch_specs(kern, device_args(launch))[1], tileiras_version=version)
    else:
        compiled = tilescope.compile(kern, case.args, tileiras_version=version)
    return compiled


def run(args) -> dict:
    from tilescope.backends.tileir import (find_toolchain, normalize_names, print_module, read_bytecode,
                                           write_bytecode)
    from tilescope.errors import TileError
    from tilescope.gpu.cubin import same_code
    tc = find_toolchain()
    os.makedirs(args.cache, exist_ok=True)
    cases = corpus_cases(args.version, args.only)
    launches = {}
    if args.launch:
        from tests.oracle.launch_args import launch_arguments
        launches = {c.key: launch_arguments(c.args) for c in cases}
        cases = [c for c in cases if launches[c.key] is not None]
    t0 = time.time()
    from tests.oracle.upstream_export import export_bytecode
    up = export_bytecode(cases, args.version, args.cache, launches)
    gpus = args.gpu.split(",")
    rows, mods = {}, {}
    for i, c in enumerate(cases):
        row = rows[c.key] = {"stage": "ok"}
        try:
            compiled = tilescope_case(c, mods, args.version, launches.get(c.key))
        except TileError as e:
            # at a launch signature upstream may refuse the case too (an unannotated int used as a shape)
            both = up.get(c.key, "").startswith("error")
            row.update(stage="refused by both" if both else "front end", error=f"{e.kind}: {e.message}")
            continue
        try:
            module = compiled.tileir_module(args.version)
        except TileError as e:
            row.update(stage="lowering", error=f"{e.kind}: {e.message}")
            continue
        from tilescope.backends.tileir.hints import opt_level
        level = opt_level(compiled.options, "sm_90")
        try:
            data = write_bytecode(module, args.version)
            back = print_module(read_bytecode(data))
            text = print_module(module)
            if normalize_names(back) != normalize_names(text):
                row.update(stage="round trip")
            shown = tc.disassemble(data)
            if normalize_names(shown) != normalize_names(text):
                row.update(stage="printer", error="tileirdisasm differs from the printer")
            for gpu in gpus:
                try:
                    row[gpu] = len(assemble_cached(tc, data, gpu, args.cache, opt_level(compiled.options, gpu)))
                except Exception as e:  # noqa: BLE001 - recorded per case and target
                    row[gpu] = f"error: {str(e).splitlines()[-1][:160]}"
        except Exception as e:  # noqa: BLE001
            row.update(stage="bytecode", error=f"{type(e).__name__}: {e}")
            continue
        u = up.get(c.key, "error: missing")
        if u.startswith("error"):
            row["upstream"] = u
            continue
        with open(u, "rb") as f:
            udata = f.read()
        try:
            ucubin = assemble_cached(tc, udata, "sm_90", args.cache, level)
            ours = assemble_cached(tc, data, "sm_90", args.cache, level) if isinstance(row.get("sm_90"), int) else None
            row["identical"] = ours == ucubin
            row["same_code"] = ours is not None and same_code(ours, ucubin)
            if not row["same_code"]:
                row["ops"] = op_difference(tc.disassemble(udata), shown)
        except Exception as e:  # noqa: BLE001
            row["upstream"] = f"error: {str(e).splitlines()[-1][:160]}"
        if args.progress and i % 50 == 0:
            print(f"  {i}/{len(cases)} {time.time() - t0:.0f}s", file=sys.stderr)
    return {"version": args.version, "gpus": gpus, "launch": args.launch, "seconds": round(time.time() - t0, 1),
            "rows": rows}


def op_difference(up_text: str, our_text: str) -> str:
    """Ops whose counts differ between two disassemblies, as '+name' (ours has more) / '-name'."""
    def counts(text):
        c = collections.Counter()
        for line in text.splitlines():
            line = line.strip()
            if " = " in line:
                line = line.split(" = ", 1)[1]
            word = line.split(" ")[0]
            if word and word[0].isalpha():
                c[word] += 1
        return c
    a, b = counts(up_text), counts(our_text)
    diff = [f"{'+' if b[k] > a[k] else '-'}{k}{abs(b[k] - a[k]) if abs(b[k] - a[k]) > 1 else ''}"
            for k in sorted(set(a) | set(b)) if a[k] != b[k]]
    return " ".join(diff) or "same op counts"


def summarize(res: dict) -> str:
    rows = res["rows"]
    n = len(rows)
    lines = [f"{n} corpus cases upstream accepts at {res['version']}"
             f"{' (launch-time signatures)' if res['launch'] else ''}; {res['seconds']} s"]
    stages = collections.Counter(r["stage"] for r in rows.values())
    lines.append("stages: " + ", ".join(f"{k} {v}" for k, v in stages.most_common()))
    n -= stages.get("refused by both", 0)
    for gpu in res["gpus"]:
        ok = sum(isinstance(r.get(gpu), int) for r in rows.values())
        lines.append(f"{gpu} cubins: {ok}/{n} (cases not refused by both)")
    compared = [r for r in rows.values() if "identical" in r]
    if compared:
        same = sum(r["identical"] for r in compared)
        code = sum(r["same_code"] for r in compared)
        lines.append(f"sm_90 cubins (-O3 --lineinfo) vs upstream's: byte-identical {same}/{len(compared)} "
                     f"({100 * same / len(compared):.1f}%), same code (all but debug sections) {code}/{len(compared)} "
                     f"({100 * code / len(compared):.1f}%)")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="comma-separated substrings of case keys")
    ap.add_argument("--gpu", default="sm_90,sm_100")
    ap.add_argument("--version", default="13.4")
    ap.add_argument("--launch", action="store_true", help="launch-time signatures instead of the corpus specs")
    ap.add_argument("--cache", default=os.path.join(ROOT, ".tileir-corpus"))
    ap.add_argument("--json")
    ap.add_argument("--list", action="store_true", help="list every case that is not identical")
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args(argv)
    res = run(args)
    print(summarize(res))
    if args.list:
        for key, r in sorted(res["rows"].items()):
            if r["stage"] != "ok" or not r.get("same_code", False) or any(
                    isinstance(r.get(g), str) for g in res["gpus"]):
                detail = r.get("error") or r.get("upstream") or r.get("ops") or \
                    "; ".join(f"{g}: {r[g]}" for g in res["gpus"] if isinstance(r.get(g), str))
                print(f"  {key}: {r['stage']}: {detail}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
