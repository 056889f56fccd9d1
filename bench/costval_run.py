"""`run` of bench/cost_validate.py: each prepared case timed on the GPU (CuPy, CUDA events, a CUDA
graph of back-to-back launches), or with `--mock` run once on the CPU executor at small sizes to try
the plumbing; results written as JSON after every case."""
from __future__ import annotations

import json
import os
import statistics
import time
from typing import List, Optional

from costval_case import Arg, Case, KernelOf, case_from_json, picked
from costval_moe import moe_values


# Dtypes CuPy has no type for: stored as unsigned integers of their width and typed by DeviceArray.
_STORAGE = {"bfloat16": "uint16", "float8_e4m3fn": "uint8", "float8_e5m2": "uint8"}


def _device_array(cp, a: Arg, step: int = 1):
    """`a`'s data on the GPU, every `step`-th element of it (a strided view: Arg.step); 16- and
    8-bit floats as their bits, wrapped in a DeviceArray that names their dtype."""
    from tilescope.gpu.device import DeviceArray
    storage = _STORAGE.get(a.dtype, a.dtype)
    if a.init == "zeros":
        x = cp.zeros(a.shape, dtype=storage)
    elif a.init == "bytes":
        x = cp.random.randint(0, 1 << (8 * cp.dtype(storage).itemsize), size=a.shape).astype(storage)
    elif a.init.startswith("index:"):       # indices spread uniformly over [0, N): token ids, bins, experts
        x = cp.random.randint(0, int(a.init[6:]), size=a.shape).astype(storage)
    elif a.init.startswith("chase:"):       # x[i] = (i + step) mod n: a pointer chase's next index
        x = ((cp.arange(a.shape[0], dtype=cp.int64) + int(a.init[6:])) % a.shape[0]).astype(storage)
    elif a.init.startswith("ramp:"):        # x[i] = i * step along the first axis: equal groups' offsets
        x = cp.ascontiguousarray(cp.broadcast_to((cp.arange(a.shape[0], dtype=cp.int64) * int(a.init[5:])).reshape(
            (-1,) + (1,) * (len(a.shape) - 1)), a.shape).astype(storage))
    elif a.init.startswith("fill:"):        # every element V: equal groups' sizes
        x = cp.full(a.shape, int(a.init[5:]), dtype=storage)
    elif a.init.startswith("moe:"):         # token-routing data (costval_moe.py)
        x = cp.asarray(moe_values(a.init, a.shape).astype(storage))
    elif a.dtype == "bfloat16" or a.init == "bf16bits":     # bfloat16 values (or their bits as uint16)
        x = ((cp.random.standard_normal(a.shape, dtype=cp.float32) * 0.25).view(cp.uint32) >> 16).astype(cp.uint16)
    elif a.dtype.startswith("float8"):      # random sign, magnitudes in [2**-5, 2): no NaN or infinity in either
        x = (cp.random.randint(0x28, 0x40, size=a.shape) | (cp.random.randint(0, 2, size=a.shape) << 7)).astype(cp.uint8)
    else:
        x = (cp.random.standard_normal(a.shape, dtype=cp.float32) * 0.25).astype(storage)
    x = x[::step]
    return DeviceArray(x, dtype=a.dtype) if a.dtype in _STORAGE else x


def time_gpu(cp, launch) -> dict:
    """Median time per launch (µs) over rounds of back-to-back launches between CUDA events,
    replayed from a CUDA graph when CuPy can capture one (no host gaps between launches)."""
    launch()
    cp.cuda.Device().synchronize()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    launch()
    end.record()
    end.synchronize()
    once = cp.cuda.get_elapsed_time(start, end) * 1e3
    per_round = max(1, min(200, int(2000 / max(once, 1.0))))
    stream = cp.cuda.Stream(non_blocking=True)
    graph = None
    try:
        with stream:
            stream.begin_capture()
            for _ in range(per_round):
                launch(stream)
            graph = stream.end_capture()
    except Exception:
        graph = None
    times = []
    for _ in range(7):
        with stream:
            start.record(stream)
            if graph is not None:
                graph.launch(stream)
            else:
                for _ in range(per_round):
                    launch(stream)
            end.record(stream)
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) * 1e3 / per_round)
    return {"us": statistics.median(times), "min_us": min(times), "per_round": per_round, "graph": graph is not None}


def run(folder: str, json_out: Optional[str], only: Optional[str], kernel_of: KernelOf,
        mock_cases: Optional[List[Case]] = None) -> None:
    """Time the cases prepared in `folder`; with `mock_cases` (the small sizes of every case), run
    those of them on the CPU executor instead."""
    with open(os.path.join(folder, "cases.json")) as f:
        stored = [case_from_json(j) for j in json.load(f)]
    mock = mock_cases is not None
    if mock:
        small = {c.name: c for c in mock_cases}
        stored = [small[c.name] for c in stored if c.name in small]
    results = {"cases": {}, "when": time.strftime("%Y-%m-%dT%H:%M:%S")}
    if not mock:
        import cupy as cp
        props = cp.cuda.runtime.getDeviceProperties(0)
        results["device"] = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in props.items()
                             if k in ("name", "multiProcessorCount", "clockRate", "l2CacheSize", "memoryClockRate",
                                      "memoryBusWidth", "sharedMemPerMultiprocessor", "regsPerMultiprocessor")}
        results["device"].update(driver=cp.cuda.runtime.driverGetVersion(), cupy=cp.__version__)
    if not mock:
        _warm_up_clocks()
    for c in stored:
        if not picked(c, only):
            continue
        try:
            r = _mock_one(c, kernel_of) if mock else _gpu_one(folder, c)
        except Exception as e:        # one broken case must not lose the others' numbers
            r = {"error": f"{type(e).__name__}: {e}"}
        results["cases"][c.name] = dict(r, group=c.group)
        print(f"{c.name:34s} {r}", flush=True)
        if json_out:
            with open(json_out, "w") as f:
                json.dump(results, f, indent=1)


def _warm_up_clocks(seconds: float = 1.0) -> None:
    """Matrix products for a second, so the first cases run at the clocks the later ones see."""
    import cupy as cp
    x = cp.ones((4096, 4096), cp.float16)
    t = time.time()
    while time.time() - t < seconds:
        for _ in range(20):
            x @ x
        cp.cuda.Device().synchronize()


def _gpu_one(folder: str, c: Case) -> dict:
    import cupy as cp
    from tilescope.gpu.artifact import Artifact
    from tilescope.gpu.device import describe
    from tilescope.gpu.abi import pack
    from tilescope.gpu.launcher import load_function
    art = Artifact.load(os.path.join(folder, c.name))
    cp.random.seed(0)
    args = [_device_array(cp, a.backing(), a.step) if a.kind == "array" else a.value for a in c.args]
    fn = load_function(art)
    params = tuple(pack(art.layout, args, describe))
    grid = tuple(c.grid) + (1,) * (3 - len(c.grid))

    def launch(stream=None):
        fn(grid, art.block, params, shared_mem=0, stream=stream)
    r = time_gpu(cp, launch)
    del args
    cp.get_default_memory_pool().free_all_blocks()
    return r


def _mock_one(c: Case, kernel_of: KernelOf) -> dict:
    import numpy as np
    from tilescope.backends.numpy.launcher import run_kernel
    from tilescope.lang.shim import load_file
    import ml_dtypes
    rng = np.random.default_rng(0)
    args = []
    for given in c.args:
        if given.kind != "array":
            args.append(given.value)
            continue
        a = given.backing()
        np_dt = ml_dtypes.bfloat16 if a.dtype == "bfloat16" else np.dtype(a.dtype)
        if a.init == "zeros":
            args.append(np.zeros(a.shape, np_dt))
        elif a.init == "bytes":
            args.append(rng.integers(0, np.iinfo(np_dt).max, a.shape, dtype=np_dt))
        elif a.init.startswith("index:"):
            args.append(rng.integers(0, int(a.init[6:]), a.shape).astype(np_dt))
        elif a.init.startswith("chase:"):
            args.append(((np.arange(a.shape[0]) + int(a.init[6:])) % a.shape[0]).astype(np_dt))
        elif a.init.startswith("ramp:"):
            ramp = (np.arange(a.shape[0]) * int(a.init[5:])).reshape((-1,) + (1,) * (len(a.shape) - 1))
            args.append(np.broadcast_to(ramp, a.shape).astype(np_dt))
        elif a.init.startswith("fill:"):
            args.append(np.full(a.shape, int(a.init[5:]), np_dt))
        elif a.init.startswith("moe:"):
            args.append(moe_values(a.init, a.shape).astype(np_dt))
        elif a.init == "bf16bits":
            args.append((rng.standard_normal(a.shape) * 0.25).astype(ml_dtypes.bfloat16).view(np.uint16))
        else:
            args.append((rng.standard_normal(a.shape) * 0.25).astype(np_dt))
        args[-1] = args[-1][::given.step]
    kernel = kernel_of(c)
    t = time.perf_counter()
    chk = run_kernel(c.grid, kernel, tuple(args), checks={"bounds": True, "races": False})
    return {"us": (time.perf_counter() - t) * 1e6, "reports": len(chk.reports), "mock": True}

