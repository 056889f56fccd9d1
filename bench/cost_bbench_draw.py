"""How sets AG to AP (bench/cost_setag.py ... cost_setap.py) were drawn:
python bench/cost_bbench_draw.py SET BBENCH_DIR OUT_DIR

BBENCH_DIR is eellison/better-benchmark at 66bb464 (docs/cost-validation-checkouts.md). The draw
samples, by the set's seed, the oracle files no earlier set used; each drawn file's
`oracle_forward` then runs once, in a process of its own, at its first shape point with
tilescope's CPU device layer (torch on the CPU must be installed), `ct.launch` recording each
launch instead of running it. OUT_DIR/<name>.json holds a file's launches; the case lines for
the files taken (in draw order, every launch of a file or none, until LIMIT launches) are
printed."""
from __future__ import annotations

import inspect
import json
import os
import random
import subprocess
import sys

from tilescope.arraylike import c_strides

DRAWN, LIMIT = 80, 32
# each set's seed, in draw order; a set leaves out the files of sets W and Y (drawn by hand) and of
# every set drawn before it. The table is also the sets' list: cost_validate and costval_catalog
# take each set's checkout and cases (cost_set<letter>.py) from it
SEEDS = {"AG": 36, "AH": 37, "AI": 38, "AJ": 39, "AK": 40, "AL": 41, "AM": 42, "AN": 43, "AO": 44, "AP": 45,
         "AQ": 46, "AR": 47, "AS": 48, "AT": 49, "AU": 50, "AV": 51, "AW": 52, "AX": 53, "AY": 54, "AZ": 55,
         "BA": 56, "BB": 57, "BC": 58, "BD": 59, "BE": 60, "BF": 61, "BG": 62, "BH": 63,
         "BI": 64, "BJ": 65, "BK": 66, "BL": 67, "BM": 68, "BN": 69, "BO": 70, "BP": 71}
SETS = {name: (seed, ("cost_setw.py", "cost_sety.py") + tuple(f"cost_set{e.lower()}.py" for e in list(SEEDS)[:i]))
        for i, (name, seed) in enumerate(SEEDS.items())}
SCALAR_DTYPES = {"int": "int32", "float": "float32", "bool": "bool"}     # a runtime scalar's, as the cases take it
DTYPES = {"float32", "float16", "bfloat16", "bool", "int8", "int16", "int32", "int64", "uint8", "float64"}


def draw(set_name: str, root: str) -> list:
    seed, earlier = SETS[set_name]
    here = os.path.dirname(os.path.abspath(__file__))
    used = set()
    for name in earlier:
        with open(os.path.join(here, name)) as f:
            text = f.read()
        used |= {part.split('/')[0] for part in text.split('BB + "')[1:]}
    canonical = os.path.join(root, "repros_cutile", "canonical")
    names = sorted(n for n in os.listdir(canonical)
                   if n not in used and os.path.exists(os.path.join(canonical, n, "oracle.py")))
    return random.Random(seed).sample(names, DRAWN)


def record(root: str, name: str, out: str) -> None:
    """In this process: run the file's oracle at its first shape point, launches recorded."""
    sys.path.insert(0, root)
    from tilescope.devices import activate
    activate()
    import torch
    import cuda.tile as ct
    import oracle_harness
    launches = []

    def arg(a):
        if isinstance(a, torch.Tensor):
            d = {"kind": "array", "shape": list(a.shape), "stride": list(a.stride()),
                 "dtype": str(a.dtype).replace("torch.", ""), "numel": a.numel()}
            if not a.dtype.is_floating_point and a.dtype != torch.bool and a.numel():
                d["min"], d["max"] = int(a.min()), int(a.max())
            return d
        return {"kind": type(a).__name__, "value": a if isinstance(a, (bool, int, float)) else repr(a)}

    def launch(stream, grid, kernel, args):
        params = [str(p.annotation) for p in inspect.signature(kernel.__wrapped__).parameters.values()]
        name = kernel.__wrapped__.__name__
        # a kernel a function makes at run time (closure constants) is no attribute a case can name
        named = getattr(inspect.getmodule(kernel.__wrapped__), name, None) is kernel
        launches.append({"kernel": name, "grid": list(grid), "params": params, "named": named,
                         "args": [arg(a) for a in args]})

    ct.launch = launch
    torch.cuda.set_rng_state = lambda *a, **k: None      # the files rewind CUDA's Philox state by its bytes
    oracle_harness.get_gpu_kind._cached = "H100"
    _, fn, _ = oracle_harness._load_oracle_module(os.path.join(root, "repros_cutile", "canonical", name))
    inputs = oracle_harness.get_inputs(os.path.join(root, "repros", "canonical", name))
    call, _ = oracle_harness.resolve_oracle(fn, inputs)
    call(inputs)
    with open(out, "w") as f:
        json.dump(launches, f, indent=1)


def case_args(lc: dict):
    """The case's argument list as source text, or None where the cases cannot hold a launch."""
    if not lc.get("named", True):
        return None
    parts = []
    for param, a in zip(lc["params"] + [""] * len(lc["args"]), lc["args"]):
        if a["kind"] == "array":
            if a["dtype"] not in DTYPES or (tuple(a["stride"]) != c_strides(tuple(a["shape"])) and a["numel"] > 1):
                return None
            init = f', "index:{a["max"] + 1}"' if a.get("min", -1) >= 0 else ""
            parts.append(f'A({tuple(a["shape"])!r}, "{a["dtype"]}"{init})')
        elif a["kind"] in ("int", "float", "bool"):
            if "Constant" in param:
                parts.append(f"K({a['value']!r})")
            else:
                parts.append(f'S({a["value"]!r}, "{SCALAR_DTYPES[a["kind"]]}")')
        else:
            return None
    return "[" + ", ".join(parts) + "]"


def main(set_name: str, root: str, out_dir: str) -> None:
    os.makedirs(out_dir, exist_ok=True)
    taken = 0
    for name in draw(set_name, root):
        path = os.path.join(out_dir, name + ".json")
        if not os.path.exists(path):
            subprocess.run([sys.executable, __file__, "--record", root, name, path], timeout=600)
        if not os.path.exists(path):
            print(f"# {name}: the oracle did not run")
            continue
        with open(path) as f:
            launches = json.load(f)
        lines, seen = [], set()
        for lc in launches:
            args = case_args(lc)
            key = (lc["kernel"], args, tuple(lc["grid"]))
            if key not in seen:
                seen.add(key)
                lines.append(None if args is None else f"{name}\t{lc['kernel']}\t{args}\t{tuple(lc['grid'])}")
        if not lines or None in lines:
            print(f"# {name}: {'no launch' if not lines else 'a launch the cases cannot hold'}")
            continue
        if taken >= LIMIT:
            break
        print("\n".join(lines))
        taken += len(lines)


if __name__ == "__main__":
    if sys.argv[1] == "--record":
        record(*sys.argv[2:5])
    else:
        main(*sys.argv[1:4])
