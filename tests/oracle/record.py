"""Record upstream cuTile 1.7.0 verdicts for every corpus case.

    .venv/bin/python -m tests.oracle.record            # writes tests/corpus/upstream_results.json
    .venv/bin/python -m tests.oracle.record --check    # exit 1 if the JSON is stale
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.oracle.corpus import CORPUS_DIR, load_corpus

RESULTS_PATH = CORPUS_DIR / "upstream_results.json"
WORKER = Path(__file__).resolve().parent / "upstream_worker.py"


def upstream_version(python: str = sys.executable) -> str | None:
    r = subprocess.run([python, "-c", "import cuda.tile; print(cuda.tile.__version__)"],
                       capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


def run_worker(cases, python: str = sys.executable, jobs: int | None = None,
               timeout: float = 600) -> dict[str, dict]:
    """Run the worker over ``cases`` (in parallel batches, one batch per corpus file group)."""
    by_file: dict[str, list] = {}
    for c in cases:
        by_file.setdefault(c.file, []).append(
            {"key": c.key, "file": str(c.path), "kernel": c.kernel, "args": c.args})
    groups = list(by_file.values())
    jobs = jobs or min(8, os.cpu_count() or 1)
    batches = [[] for _ in range(min(jobs, len(groups)) or 1)]
    for i, g in enumerate(sorted(groups, key=len, reverse=True)):
        min(batches, key=len).extend(g)
    env = dict(os.environ)
    env.pop("CUDA_TILE_LOGS", None)
    env["PYTHONHASHSEED"] = "0"

    def go(batch):
        if not batch:
            return []
        r = subprocess.run([python, str(WORKER)], input=json.dumps(batch),
                           capture_output=True, text=True, timeout=timeout, env=env)
        if r.returncode != 0:
            raise RuntimeError(f"worker failed (rc={r.returncode}):\n{r.stderr[-4000:]}")
        return json.loads(r.stdout)

    out: dict[str, dict] = {}
    with ThreadPoolExecutor(len(batches)) as ex:
        for res in ex.map(go, batches):
            for rec in res:
                out[rec.pop("key")] = rec
    return out


def build_document(results: dict[str, dict], version: str | None) -> dict:
    return {
        "upstream": {"package": "cuda-tile", "version": version,
                     "bytecode_version": "13.3",
                     "calling_convention": "cutile_python_v1 (v2 for tuple parameters)"},
        "cases": {k: results[k] for k in sorted(results)},
    }


def dumps(doc: dict) -> str:
    return json.dumps(doc, indent=1, sort_keys=True) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="only compare, don't write")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("-j", "--jobs", type=int, default=None)
    ap.add_argument("-o", "--output", default=str(RESULTS_PATH))
    a = ap.parse_args(argv)
    cases = load_corpus()
    results = run_worker(cases, a.python, a.jobs)
    text = dumps(build_document(results, upstream_version(a.python)))
    out = Path(a.output)
    if a.check:
        old = out.read_text() if out.exists() else ""
        if old != text:
            print(f"{out} is stale; rerun without --check", file=sys.stderr)
            return 1
        print(f"{out} up to date ({len(results)} cases)")
        return 0
    out.write_text(text)
    acc = sum(r["accepted"] for r in results.values())
    print(f"wrote {out}: {len(results)} cases, {acc} accepted, {len(results) - acc} rejected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
