"""A GPU-targeted CuPy + cuTile script, unmodified: every check prints one JSON line."""
import json

import cupy as cp
import numpy as np

import cuda.tile as ct


def report(name, value):
    print(json.dumps({"check": name, "value": value}), flush=True)


@ct.kernel
def relu(x, y, TILE: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(TILE,))
    ct.store(y, index=(i,), tile=ct.maximum(t, 0.0))


cp.random.seed(1)
x = cp.random.randn(5000).astype(cp.float32)
y = cp.empty_like(x)
stream = cp.cuda.Stream()
with stream:
    ct.launch(cp.cuda.get_current_stream(), (ct.cdiv(x.shape[0], 1024),), relu, (x, y, 1024))
stream.synchronize()
host = cp.asnumpy(y)
report("kernel", bool(np.array_equal(host, np.maximum(x.get(), 0))))
report("types", [type(x).__name__, type(host).__name__, type(cp.sqrt(cp.abs(x))).__name__,
                 type(x.sum()).__name__, type(cp.zeros((2, 2), dtype=cp.float16)).__name__])
report("values", [float(cp.arange(5).sum()), cp.dtype("float32").name, str(cp.float16(1).dtype)])
start, end = cp.cuda.Event(), cp.cuda.Event()
start.record()
cp.matmul(cp.ones((64, 64)), cp.ones((64, 64)))
end.record()
end.synchronize()
report("elapsed_ms", cp.cuda.get_elapsed_time(start, end))
props = cp.cuda.runtime.getDeviceProperties(0)
report("device", [cp.cuda.runtime.getDeviceCount(), props["name"].decode(), props["multiProcessorCount"],
                  cp.cuda.Device(0).compute_capability])
cp.testing.assert_allclose(y, cp.asarray(np.maximum(x.get(), 0)))
report("testing", True)
for name, call in (("RawKernel", lambda: cp.RawKernel("", "k")), ("cupyx", lambda: __import__("cupyx").scipy),
                   ("missing", lambda: cp.no_such_function)):
    try:
        call()
        report("refused_" + name, None)
    except Exception as e:
        report("refused_" + name, f"{type(e).__name__}: {e}")
