"""Validate tilescope's GPU launches against the CPU executor and against upstream cuTile's launches.

    python bench/gpu_validate.py prepare [--out .gpuval] [--only NAME,...]   # here: tileiras, cuda-tile, a C compiler
    python bench/gpu_validate.py run [--dir .gpuval] [--json OUT.json] [--api] # on the GPU machine: needs CuPy
    python bench/gpu_validate.py run --mock                                  # here: CPU executor stands in
    python bench/gpu_validate.py report RESULTS.json [--doc docs/gpu-validation.md]

Both sides launch the same arrays, at a check size (odd sizes: partial tiles) and at a size that fills
the GPU; a launch compiles for what it sees in its arrays (tilescope.gpu.launch_specs), so each size
has its own kernel. `prepare` builds, per case and size, (a) tilescope's launch artifact through
tilescope's own launch path (`tilescope.gpu.resolve`, into the bundle .gpuval/bundle) and (b)
upstream's launch cubin by running upstream's own `ct.launch` here with a stand-in libcuda
(tests/gpu/fakecuda.c: no GPU, tileiras runs for real) on device arrays of the same shapes, dtypes
and alignment; it records whether the two cubins are byte-identical or run the same code
(tilescope.gpu.cubin.same_code), makes the check inputs, runs the CPU executor and saves everything.
`run` launches tilescope's kernels through `tilescope.gpu` (deriving the signature from the real
CuPy arrays and finding it in the bundle) and upstream's cubins with the same arguments, compares
outputs (bit-exact for integer and data-movement kernels, within a dtype tolerance for floating
point), then times both at the large size (CUDA events, warm-up, median of 25 rounds, interleaved).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from gpu_cases import CASES, Case, Rand, ShapeRand, cdiv, case_named  # noqa: E402

BYTECODE = "13.4"           # what upstream's launch writes for tileiras 13.4 (its newest)
ARCH = "sm_90"
BASE = 0x7F0000000000       # stand-in device addresses (CuPy's allocations are 512-byte aligned)


def cpu_launch(grid, kernel, args):
    from tilescope.run import launch
    launch(grid, kernel, args)


# --------------------------------------------------------------------------------------------
# prepare (here)
# --------------------------------------------------------------------------------------------

def _dt_name(a) -> str:
    return str(a.dtype)


def _as_cpu_array(a, dtype):
    """Host arrays for the CPU executor: bf16 raw bits become ml_dtypes.bfloat16 views."""
    if dtype == "bfloat16":
        import ml_dtypes
        return a.view(ml_dtypes.bfloat16)
    return a


def _array_dtypes(case: Case) -> List[Optional[str]]:
    from tilescope.meta import MetaTensor, parse_args
    return [s.dtype.name if isinstance(s, MetaTensor) else None for s in parse_args(case.spec)]


def _poison(a):
    """Fill an output with a recognisable pattern (NaN for floats, 0x5A5A... for ints)."""
    if a.dtype.kind == "f":
        a[...] = np.nan
    else:
        a.view(np.uint8)[...] = 0x5A
    return a


def _stand_ins(args, dtypes) -> list:
    """Launch arguments without memory: each array a DeviceArray of its shape and dtype at its own
    512-byte aligned address, as CuPy allocates them (scalars and constants as they are)."""
    from tilescope.gpu import DeviceArray
    out, addr = [], BASE
    for a, dt in zip(args, dtypes):
        if dt is None:
            out.append(a)
            continue
        out.append(DeviceArray(ptr=addr, shape=a.shape, dtype=dt))
        addr += (max(1, int(np.prod(a.shape))) * a.dtype.itemsize + 511) // 512 * 512 + 512
    return out


def _job(case: Case, grid, stand_ins) -> dict:
    """An upstream launch of `case` with these arguments, for tests/gpu/upstream_launch.capture_launches."""
    from tilescope.gpu import DeviceArray
    args = [{"array": {"ptr": a.ptr, "shape": list(a.shape), "dtype": a.dtype.name}}
            if isinstance(a, DeviceArray) else a for a in stand_ins]
    return {"file": os.path.join(ROOT, case.file), "kernel": case.kernel, "grid": list(grid), "args": args}


def _example_launches():
    """(file, kernel, args) shaped like each example script's own `ct.launch` (a launch compiles for
    its arrays' facts: extents divisible by 16 or not, so the shapes are the scripts'), and the
    API check's launches."""
    f16, f32 = np.float16, np.float32
    v = lambda *shape, dt=f32: np.empty(shape, dt)  # noqa: E731
    return [
        ("examples/vector_add.py", "vector_add", (v(1 << 20), v(1 << 20), v(1 << 20), 1024)),
        ("examples/vector_add.py", "vector_add", (v(1_000_000), v(1_000_000), v(1_000_000), 1024)),
        ("examples/softmax.py", "softmax", (v(512, 1000), v(512, 1000), 1024)),
        ("examples/layernorm.py", "layernorm", (v(256, 1000), v(1000), v(1000), v(256, 1000), 1e-5, 256)),
        ("examples/layernorm.py", "layernorm", (v(512, 1000), v(1000), v(1000), v(512, 1000), 1e-5, 256)),
        ("examples/matmul.py", "matmul", (v(256, 160, dt=f16), v(160, 192, dt=f16), v(256, 192), 64, 64, 32)),
        ("examples/attention.py", "attention", (v(2, 256, 64, dt=f16), v(2, 256, 64, dt=f16), v(2, 256, 64, dt=f16),
                                                 v(2, 256, 64, dt=f16), 1 / np.sqrt(64), 64, 64, 64)),
        ("examples/transpose.py", "transpose", (v(512, 256), v(256, 512), 64, 64)),
    ]


def prepare_bundle(out: str) -> None:
    """An artifact bundle for the example scripts (`tilescope run --device gpu --bundle DIR`) and the
    launch-API check; every key is checked to be the one a launch with such arguments computes."""
    from tilescope.gpu import build, key_for
    from tilescope.gpu.artifact import launch_specs
    from tilescope.gpu.bundle import add
    from tilescope.lang.shim import load_file
    for file, name, args in _example_launches():
        kernel = getattr(load_file(os.path.join(ROOT, file)), name)
        art = build(kernel, launch_specs(kernel, args)[1], ARCH, BYTECODE)
        key, sig = key_for(kernel, args, ARCH, BYTECODE)
        assert key == art.key, (name, sig, art.signature)
        add(out, art)
        print(f"bundle: {name}({sig})", flush=True)


def prepare(out: str, only: Optional[Sequence[str]] = None) -> None:
    import tilescope
    from tests.gpu.upstream_launch import build_fakecuda, capture_launches
    from tilescope.gpu import Artifact
    from tilescope.gpu.cubin import same_code
    from tilescope.gpu.launcher import resolve
    from tilescope.lang.shim import load_file
    os.makedirs(out, exist_ok=True)
    bundle = os.path.join(out, "bundle")
    lib = build_fakecuda(out)
    if lib is None:
        raise SystemExit("prepare needs a C compiler (cc) to build the stand-in libcuda for upstream's launches")
    manifest = {"created": datetime.datetime.now().isoformat(timespec="seconds"), "arch": ARCH,
                "bytecode_version": BYTECODE, "tilescope": tilescope.__version__, "cases": {}}
    path = os.path.join(out, "manifest.json")
    if only and os.path.exists(path):              # refresh some cases, keep the others
        with open(path) as f:
            manifest["cases"] = json.load(f)["cases"]
    jobs, pending = [], []
    for case in CASES:
        if only and case.name not in only:
            continue
        t0 = time.perf_counter()
        entry: Dict[str, Any] = {"file": case.file, "kernel": case.kernel, "spec": case.spec}
        cdir = os.path.join(out, case.name)
        os.makedirs(cdir, exist_ok=True)
        kernel = getattr(load_file(os.path.join(ROOT, case.file)), case.kernel)
        dtypes = _array_dtypes(case)
        # check-size inputs and the CPU executor's outputs
        args, grid, roles = case.make(Rand(np, 1234), **case.check)
        targs, tgrid, _ = case.make(ShapeRand(), **case.time)
        for which, a, g in (("check", args, grid), ("time", targs, tgrid)):
            stand_ins = _stand_ins(a, dtypes)
            try:
                art = resolve(kernel, stand_ins, arch=ARCH, cache=bundle, bytecode_version=BYTECODE)
                entry[which] = {"key": art.key, "signature": art.signature, "symbol": art.symbol,
                                "block": art.block, "static_shared": art.static_shared}
                jobs.append(_job(case, g, stand_ins))
                pending.append((case.name, which, art))
            except Exception as e:  # noqa: BLE001 - recorded, the case fails in `run`
                entry["tilescope_error"] = f"{type(e).__name__}: {e}"
        arrays = {}
        for i, (a, role) in enumerate(zip(args, roles)):
            if role == "out":
                _poison(a)
            if role is not None:
                arrays[f"in{i}"] = np.array(a)
        cpu_args = [_as_cpu_array(a, dtypes[i]) if roles[i] else a for i, a in enumerate(args)]
        t1 = time.perf_counter()
        cpu_launch(grid, kernel, cpu_args)
        entry["cpu_seconds"] = round(time.perf_counter() - t1, 3)
        for i, role in enumerate(roles):
            if role in ("out", "inout"):
                arrays[f"expect{i}"] = np.array(args[i])
        np.savez(os.path.join(cdir, "check.npz"), **arrays)
        entry.update({"grid": list(grid), "time_grid": list(tgrid), "roles": roles, "dtypes": dtypes,
                      "scalars": {str(i): a for i, a in enumerate(args) if roles[i] is None}})
        manifest["cases"][case.name] = entry
        print(f"{case.name:24s} prepared in {time.perf_counter() - t0:5.1f}s (CPU executor {entry['cpu_seconds']}s)",
              flush=True)
    # upstream's own launches of the same arrays (one process, here, without a GPU)
    t0 = time.perf_counter()
    captured = capture_launches(lib, jobs, os.path.join(out, "upstream-launches"))
    for (name, which, ours), got in zip(pending, captured):
        entry, cdir = manifest["cases"][name], os.path.join(out, name)
        if got.get("cubin") is None:
            entry["upstream_error"] = got.get("error", "no cubin captured")
            continue
        up = Artifact.from_cubin(got["cubin"], ours.layout, kernel=ours.kernel, signature=ours.signature, arch=ARCH,
                                 bytecode_version=BYTECODE, symbol=got["symbol"], key="upstream", origin="upstream")
        up.save(cdir, f"upstream-{which}")
        entry[which].update({"upstream_symbol": up.symbol, "byte_identical": up.cubin == ours.cubin,
                             "same_code": same_code(up.cubin, ours.cubin)})
    print(f"upstream launches: {len(jobs)} in {time.perf_counter() - t0:.0f}s", flush=True)
    for name, entry in manifest["cases"].items():
        if only and name not in only:
            continue
        marks = [f"{w}: {'byte-identical' if entry[w].get('byte_identical') else 'same code' if entry[w].get('same_code') else 'DIFFERENT'}"
                 for w in ("check", "time") if w in entry and "same_code" in entry[w]]
        print(f"{name:24s} " + ", ".join(marks) + "".join(f"  {k}: {v}" for k, v in entry.items() if k.endswith("_error")))
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    if not only:
        prepare_bundle(bundle)


def api_check(directory: str) -> dict:
    """`tilescope.gpu.launch` itself, on CuPy arrays and torch CUDA tensors, with the bundle."""
    import cupy as cp
    import tilescope.gpu as tg
    from tilescope.lang.shim import load_file
    bundle = os.path.join(directory, "bundle")
    out = {}
    va = load_file(os.path.join(ROOT, "examples/vector_add.py")).vector_add
    n = 1_000_000
    a, b = cp.random.rand(n, dtype=cp.float32), cp.random.rand(n, dtype=cp.float32)
    c = cp.full(n, cp.nan, cp.float32)
    art = tg.launch((cdiv(n, 1024),), va, (a, b, c, 1024), bundle=bundle)
    cp.cuda.get_current_stream().synchronize()
    out["vector_add_cupy"] = {"exact": bool((c == a + b).all()), "block": art.block, "symbol": art.symbol}
    try:
        import torch
        ln = load_file(os.path.join(ROOT, "examples/layernorm.py")).layernorm
        x = torch.randn(512, 1000, device="cuda")
        w, bb = torch.randn(1000, device="cuda"), torch.randn(1000, device="cuda")
        y = torch.full_like(x, float("nan"))
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            tg.launch((512,), ln, (x, w, bb, y, 1e-5, 256), bundle=bundle, stream=s)
        s.synchronize()
        ref = torch.nn.functional.layer_norm(x.double(), (1000,), w.double(), bb.double(), 1e-5)
        out["layernorm_torch_stream"] = {"max_abs_err": float((y.double() - ref).abs().max())}
    except Exception as e:  # noqa: BLE001
        out["layernorm_torch_stream"] = {"error": f"{type(e).__name__}: {e}"}
    try:
        tg.launch((1,), va, (a, b, c, 512), bundle=bundle)
        out["missing_entry"] = "no error (unexpected)"
    except tg.GPUError as e:
        out["missing_entry"] = "GPUError as expected: " + str(e)[:100]
    for k, v in out.items():
        print(f"api {k}: {v}", flush=True)
    return out


# --------------------------------------------------------------------------------------------
# run (GPU machine, or --mock here)
# --------------------------------------------------------------------------------------------

class CupyBackend:
    """Device memory, launches and CUDA-event timing through CuPy."""
    name = "cupy"

    def __init__(self):
        import cupy
        self.cp = cupy
        self.xp = cupy

    def device(self) -> str:
        cp = self.cp
        props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
        return f"{props['name'].decode()} (sm_{cp.cuda.Device().compute_capability}), driver " \
               f"{cp.cuda.runtime.driverGetVersion()}, CuPy {cp.__version__}"

    def to_device(self, a):
        return self.cp.asarray(a)

    def to_host(self, a):
        return self.cp.asnumpy(a)

    def prepare_launch(self, artifact, grid, args, dtypes):
        from tilescope.gpu import DeviceArray, describe, load_function, pack
        from tilescope.run import normalize_grid
        fn = load_function(artifact)
        dev = [DeviceArray(a, dtype=dtypes[i]) if dtypes[i] == "bfloat16" else a for i, a in enumerate(args)]
        params = tuple(pack(artifact.layout, dev, describe))
        grid3, block = normalize_grid(grid), artifact.block
        return lambda: fn(grid3, block, params, shared_mem=0)

    def sync(self):
        self.cp.cuda.get_current_stream().synchronize()

    def launch_args(self, args, dtypes):
        """The arguments as tilescope.gpu.launch takes them (CuPy has no bfloat16: raw uint16 re-typed)."""
        from tilescope.gpu import DeviceArray
        return [DeviceArray(a, dtype=dtypes[i]) if dtypes[i] == "bfloat16" else a for i, a in enumerate(args)]

    def time_rounds(self, launches: Dict[str, Callable], rounds: int, reps: int) -> Dict[str, List[float]]:
        """Per-launch milliseconds of each variant for `rounds` rounds of `reps` back-to-back launches,
        the variants interleaved round by round (so clock drift hits them alike)."""
        cp = self.cp
        out = {k: [] for k in launches}
        for _ in range(rounds):
            for k, go in launches.items():
                start, end = cp.cuda.Event(), cp.cuda.Event()
                start.record()
                for _ in range(reps):
                    go()
                end.record()
                end.synchronize()
                out[k].append(cp.cuda.get_elapsed_time(start, end) / reps)
        return out


class MockBackend:
    """Stands in for the GPU here: 'launching' an artifact runs the CPU executor on the case's kernel
    after packing the parameters exactly as for the GPU; timing uses the host clock."""
    name = "mock"

    def __init__(self):
        self.xp = np
        self.kernel_of: Dict[str, Any] = {}

    def device(self) -> str:
        return "mock (CPU executor; no GPU)"

    def to_device(self, a):
        return np.array(a)

    def to_host(self, a):
        return np.array(a)

    def prepare_launch(self, artifact, grid, args, dtypes):
        from tilescope.gpu import DeviceArray, pack
        from tilescope.gpu.abi import DeviceArrayInfo

        def host_describe(x):
            if isinstance(x, DeviceArray):
                return x.info()
            from tilescope.dtypes import dtype_from_numpy
            return DeviceArrayInfo(x.ctypes.data, x.shape, tuple(s // x.itemsize for s in x.strides),
                                   dtype_from_numpy(x.dtype).name, x.itemsize)
        dev = [DeviceArray(ptr=a.ctypes.data, shape=a.shape, dtype=dtypes[i]) if dtypes[i] == "bfloat16" else a
               for i, a in enumerate(args)]
        pack(artifact.layout, dev, host_describe)          # the same packing and checks as on the GPU
        kernel = self.kernel_of[artifact.kernel]
        cpu_args = [_as_cpu_array(a, dtypes[i]) if dtypes[i] else a for i, a in enumerate(args)]
        return lambda: cpu_launch(grid, kernel, cpu_args)

    def sync(self):
        pass

    def launch_args(self, args, dtypes):
        """Host arrays standing for device arrays at their (aligned) host addresses."""
        from tilescope.gpu import DeviceArray
        return [DeviceArray(ptr=a.ctypes.data, shape=a.shape, dtype=dtypes[i]) if dtypes[i] else a
                for i, a in enumerate(args)]

    def time_rounds(self, launches, rounds, reps):
        out = {k: [] for k in launches}
        for _ in range(rounds):
            for k, go in launches.items():
                t = time.perf_counter()
                for _ in range(reps):
                    go()
                out[k].append((time.perf_counter() - t) * 1e3 / reps)
        return out


def _compare(got: np.ndarray, ref: np.ndarray, dtype: Optional[str], mode: str, tol: float) -> dict:
    """Bitwise equality, and for floats the max error relative to the reference's largest magnitude."""
    exact = got.tobytes() == ref.tobytes()
    res = {"bitwise": exact, "mismatches": 0, "rel_err": 0.0}
    if not exact:
        res["mismatches"] = int(np.count_nonzero(got.view(np.uint8).reshape(got.size, -1) !=
                                                 ref.view(np.uint8).reshape(ref.size, -1)) if got.size else 0)
    if dtype == "bfloat16":
        import ml_dtypes
        g, r = got.view(ml_dtypes.bfloat16).astype(np.float64), ref.view(ml_dtypes.bfloat16).astype(np.float64)
    elif got.dtype.kind == "f":
        g, r = got.astype(np.float64), ref.astype(np.float64)
    else:
        g = r = None
    if g is not None and not exact:
        bad = np.isnan(g) != np.isnan(r)
        scale = float(np.nanmax(np.abs(r))) if np.isfinite(r).any() else 1.0
        diff = np.abs(np.nan_to_num(g - r, nan=0.0))
        res["rel_err"] = float(diff.max() / (scale or 1.0)) if diff.size else 0.0
        res["nan_mismatch"] = int(bad.sum())
        res["ok"] = bool(res["rel_err"] <= tol and not bad.any()) if mode == "float" else False
    else:
        res["ok"] = exact
    return res


def run(directory: str, backend, *, only=None, rounds: int = 25, json_out: Optional[str] = None,
        time_budget_s: float = 400.0, extra: Optional[dict] = None) -> dict:
    with open(os.path.join(directory, "manifest.json")) as f:
        manifest = json.load(f)
    results = {"date": datetime.date.today().isoformat(), "device": backend.device(), "backend": backend.name,
               "manifest_created": manifest["created"], "rounds": rounds, "cases": {}, **(extra or {})}
    t_start = time.perf_counter()
    for name, entry in manifest["cases"].items():
        if only and name not in only:
            continue
        case = case_named(name)
        res: Dict[str, Any] = {"compare": case.compare, "tol": case.tol, "note": case.note}
        results["cases"][name] = res
        cdir = os.path.join(directory, name)
        from tilescope.lang.shim import load_file
        kernel = getattr(load_file(os.path.join(ROOT, case.file)), case.kernel)
        if isinstance(backend, MockBackend):
            backend.kernel_of[case.kernel] = kernel
        for k in ("tilescope_error", "upstream_error"):
            if k in entry:
                res[k] = entry[k]
        for which in ("check", "time"):
            for k in ("byte_identical", "same_code"):
                if k in entry.get(which, {}):
                    res[f"{which}_{k}"] = entry[which][k]
        roles, dtypes = entry["roles"], entry["dtypes"]
        # -- correctness at the check size --------------------------------------------------
        data = np.load(os.path.join(cdir, "check.npz"))
        outs = {}
        for origin in ("tilescope", "upstream"):
            try:
                args = []
                for i, role in enumerate(roles):
                    args.append(backend.to_device(data[f"in{i}"]) if role else entry["scalars"][str(i)])
                art = _artifact(origin, backend, kernel, args, dtypes, directory, name, "check", res)
                backend.prepare_launch(art, entry["grid"], args, dtypes)()
                backend.sync()
                outs[origin] = {i: backend.to_host(args[i]) for i, r in enumerate(roles) if r in ("out", "inout")}
                res[f"{origin}_vs_cpu"] = _merge([_compare(outs[origin][i], data[f"expect{i}"], dtypes[i],
                                                           case.compare, case.tol) for i in outs[origin]])
            except Exception as e:  # noqa: BLE001 - record and go on with the other cases
                res[f"{origin}_error"] = f"{type(e).__name__}: {e}"
        if "tilescope" in outs and "upstream" in outs:
            res["tilescope_vs_upstream"] = _merge([_compare(outs["tilescope"][i], outs["upstream"][i], dtypes[i],
                                                            case.compare, case.tol) for i in outs["tilescope"]])
        # -- timing at the timing size ----------------------------------------------------------
        if time.perf_counter() - t_start > time_budget_s:
            res["timing_skipped"] = "time budget of the run used up"
            continue
        size = case.check if isinstance(backend, MockBackend) else case.time
        res["time_size"] = size
        try:
            targs, tgrid, _ = case.make(Rand(backend.xp, 99), **size)
            which = "check" if isinstance(backend, MockBackend) else "time"
            arts = {o: _artifact(o, backend, kernel, targs, dtypes, directory, name, which, res)
                    for o in ("tilescope", "upstream")}
            launches = {o: backend.prepare_launch(a, tgrid, targs, dtypes) for o, a in arts.items()}
            for go in launches.values():          # warm-up (module load, clocks)
                for _ in range(3):
                    go()
            backend.sync()
            probe = backend.time_rounds(launches, 1, 1)
            per = max(min(v[0] for v in probe.values()), 1e-4)
            reps = int(min(50, max(1, 2.0 / per))) if not isinstance(backend, MockBackend) else 1
            r = rounds if not isinstance(backend, MockBackend) else 3
            times = backend.time_rounds(launches, r, reps)
            res["reps_per_round"] = reps
            for o, ts in times.items():
                res[f"{o}_ms"] = float(np.median(ts))
                res[f"{o}_ms_spread"] = [float(np.min(ts)), float(np.max(ts))]
            if "tilescope_ms" in res and "upstream_ms" in res:
                res["ratio"] = res["tilescope_ms"] / res["upstream_ms"]
            if case.flops:
                res["tflops_tilescope"] = case.flops(**size) / (res.get("tilescope_ms", np.nan) * 1e-3) / 1e12
            if case.nbytes:
                res["gbps_tilescope"] = case.nbytes(**size) / (res.get("tilescope_ms", np.nan) * 1e-3) / 1e9
        except Exception as e:  # noqa: BLE001
            res["timing_error"] = f"{type(e).__name__}: {e}"
        print(_row(name, res), flush=True)
    results["seconds"] = round(time.perf_counter() - t_start, 1)
    if json_out:
        with open(json_out, "w") as f:
            json.dump(results, f, indent=1, default=str)
    return results


def _artifact(origin: str, backend, kernel, args, dtypes, directory: str, name: str, which: str, res: dict):
    """tilescope's: what `tilescope.gpu` resolves for these very arguments (the signature derived from
    the real arrays, found in the bundle prepared here); upstream's: its captured launch cubin."""
    from tilescope.gpu import Artifact
    if origin == "upstream":
        return Artifact.load(os.path.join(directory, name, f"upstream-{which}"))
    from tilescope.gpu.launcher import resolve
    art = resolve(kernel, backend.launch_args(args, dtypes), bundle=os.path.join(directory, "bundle"), arch=ARCH,
                  bytecode_version=BYTECODE)
    res[f"{which}_signature"] = art.signature
    return art


def _merge(parts: List[dict]) -> dict:
    out = {"ok": all(p["ok"] for p in parts), "bitwise": all(p["bitwise"] for p in parts),
           "mismatches": sum(p["mismatches"] for p in parts), "rel_err": max(p["rel_err"] for p in parts)}
    return out


def _verdict(c: Optional[dict]) -> str:
    if c is None:
        return "—"
    if c["bitwise"]:
        return "bit-exact"
    return ("ok" if c["ok"] else "FAIL") + f" ({c['rel_err']:.1e}, {c['mismatches']} diff)"


def _row(name, res) -> str:
    ratio = f"{res['ratio']:.3f}" if "ratio" in res else "—"
    ts = f"{res['tilescope_ms']:.4f}" if "tilescope_ms" in res else "—"
    up = f"{res['upstream_ms']:.4f}" if "upstream_ms" in res else "—"
    errs = "; ".join(f"{k}: {v}" for k, v in res.items() if k.endswith("_error"))
    return (f"{name:22s} vs CPU: {_verdict(res.get('tilescope_vs_cpu')):28s} vs upstream: "
            f"{_verdict(res.get('tilescope_vs_upstream')):28s} ts {ts} ms  up {up} ms  ratio {ratio}"
            + (f"  [{errs}]" if errs else ""))


# --------------------------------------------------------------------------------------------
# report
# --------------------------------------------------------------------------------------------

BEGIN, END = "<!-- gpu-validate:begin -->", "<!-- gpu-validate:end -->"


def _size_text(size: dict) -> str:
    return "×".join(str(v) for v in size.values()) if size else ""


def report_table(results: dict) -> str:
    lines = [f"Run of {results['date']} on {results['device']} (backend `{results['backend']}`, "
             f"inputs prepared {results['manifest_created']}, {results['seconds']} s).", "",
             "| kernel | tilescope vs CPU executor | tilescope vs upstream | upstream vs CPU | cubin vs upstream's "
             "launch (check / timing size) | timing size | tilescope ms | upstream ms | ratio | tilescope rate |",
             "|---|---|---|---|---|---|---:|---:|---:|---:|"]
    for name, res in results["cases"].items():
        rate = ""
        if "tflops_tilescope" in res:
            rate = f"{res['tflops_tilescope']:.1f} TFLOP/s"
        elif "gbps_tilescope" in res:
            rate = f"{res['gbps_tilescope']:.0f} GB/s"
        ts = f"{res['tilescope_ms']:.4f}" if "tilescope_ms" in res else "—"
        up = f"{res['upstream_ms']:.4f}" if "upstream_ms" in res else "—"
        ratio = f"{res['ratio']:.3f}" if "ratio" in res else "—"
        vs_cpu = _verdict(res.get("tilescope_vs_cpu"))
        if "tilescope_error" in res:
            vs_cpu = "ERROR: " + res["tilescope_error"].replace("|", "/")[:120]
        vs_up = _verdict(res.get("upstream_vs_cpu"))
        if "upstream_error" in res:
            vs_up = "ERROR: " + res["upstream_error"].replace("|", "/")[:120]
        note = f" ({res['note']})" if res.get("note") else ""
        if "timing_error" in res:
            note += " timing error: " + res["timing_error"].replace("|", "/")[:100]
        cubins = " / ".join(_cubin_verdict(res, w) for w in ("check", "time"))
        lines.append(f"| {name}{note} | {vs_cpu} | {_verdict(res.get('tilescope_vs_upstream'))} | {vs_up} | {cubins} | "
                     f"{_size_text(res.get('time_size', {}))} | {ts} | {up} | {ratio} | {rate} |")
    ratios = [r["ratio"] for r in results["cases"].values() if "ratio" in r and not r.get("note")]
    if ratios:
        within = sum(0.97 <= x <= 1.03 for x in ratios)
        lines += ["", f"Timing ratio (tilescope launch / upstream launch), kernels that fill the GPU: geometric mean "
                      f"{float(np.exp(np.mean(np.log(ratios)))):.3f}, {within} of {len(ratios)} within ±3%."]
    cases = results["cases"].values()
    same = sum(bool(r.get(f"{w}_same_code")) for r in cases for w in ("check", "time"))
    ident = sum(bool(r.get(f"{w}_byte_identical")) for r in cases for w in ("check", "time"))
    n = sum(f"{w}_same_code" in r for r in cases for w in ("check", "time"))
    if n:
        lines.append(f"Launch cubins: {same} of {n} run the same code as upstream's launch cubin for the same arrays, "
                     f"{ident} of {n} byte-identical.")
    return "\n".join(lines)


def _cubin_verdict(res: dict, which: str) -> str:
    if res.get(f"{which}_byte_identical"):
        return "byte-identical"
    if res.get(f"{which}_same_code"):
        return "same code"
    return "different" if f"{which}_same_code" in res else "—"


def report(json_path: str, doc: str) -> None:
    with open(json_path) as f:
        results = json.load(f)
    table = report_table(results)
    text = open(doc).read() if os.path.exists(doc) else "# GPU validation\n\n"
    block = f"{BEGIN}\n{table}\n{END}"
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    with open(doc, "w") as f:
        f.write(text)
    print(table)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("prepare")
    a.add_argument("--out", default=os.path.join(ROOT, ".gpuval"))
    a.add_argument("--only")
    r = sub.add_parser("run")
    r.add_argument("--dir", default=os.path.join(ROOT, ".gpuval"))
    r.add_argument("--only")
    r.add_argument("--mock", action="store_true", help="no GPU: the CPU executor stands in (tests the plumbing)")
    r.add_argument("--rounds", type=int, default=25)
    r.add_argument("--budget", type=float, default=400.0, help="seconds after which timing is skipped")
    r.add_argument("--json")
    r.add_argument("--api", action="store_true", help="also check tilescope.gpu.launch on CuPy/torch arrays")
    rep = sub.add_parser("report")
    rep.add_argument("json")
    rep.add_argument("--doc", default=os.path.join(ROOT, "docs", "gpu-validation.md"))
    args = p.parse_args(argv)
    only = args.only.split(",") if getattr(args, "only", None) else None
    if args.command == "prepare":
        prepare(args.out, only)
    elif args.command == "run":
        backend = MockBackend() if args.mock else CupyBackend()
        print(f"device: {backend.device()}", flush=True)
        api = None
        if args.api and not args.mock:
            try:
                api = api_check(args.dir)
            except Exception as e:  # noqa: BLE001 - recorded; the validation still runs
                import traceback
                traceback.print_exc()
                api = {"error": f"{type(e).__name__}: {e}"}
        run(args.dir, backend, only=only, rounds=args.rounds, json_out=args.json, time_budget_s=args.budget,
            extra={"api": api} if api else None)
    else:
        report(args.json, args.doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
