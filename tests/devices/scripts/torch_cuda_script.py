"""A GPU-targeted torch + cuTile script, unmodified: every check prints one JSON line."""
import json

import torch

import cuda.tile as ct


def report(name, value):
    print(json.dumps({"check": name, "value": value}), flush=True)


@ct.kernel
def scale_add(a, b, out, alpha: float, TILE: ct.Constant[int]):
    i = ct.bid(0)
    x = ct.load(a, index=(i,), shape=(TILE,))
    y = ct.load(b, index=(i,), shape=(TILE,))
    ct.store(out, index=(i,), tile=x * alpha + y)


N = 3000                       # a ragged last tile
torch.manual_seed(0)
a = torch.randn(N, device="cuda")
b = torch.rand(N, device=torch.device("cuda", 0))
out = torch.empty_like(a)
start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
start.record()
ct.launch(torch.cuda.current_stream(), (ct.cdiv(N, 1024),), scale_add, (a, b, out, 2.0, 1024))
end.record()
torch.cuda.synchronize()
report("kernel_result", bool(torch.allclose(out, a * 2.0 + b)))
report("event_ms", start.elapsed_time(end))
report("is_cuda", [a.is_cuda, out.is_cuda, (a + 1).is_cuda, a.sum().is_cuda])
report("device", [str(a.device), a.device.type, str(out.device), a.get_device()])
report("names", [str(t.device) for t in (torch.zeros(2, device="cuda:0"), torch.ones(2).cuda(),
                                         torch.ones(2).to("cuda"), torch.ones(2).to(device="cuda"),
                                         torch.ones(2).to(a), torch.arange(3, device=0),
                                         torch.ones(2, device="cuda").to(torch.float16))])
host = torch.arange(4.0)
dev = host.cuda()
dev.add_(1)
report("copies", [host.tolist(), dev.tolist(), type(dev.cpu()).__name__, str(dev.cpu().device)])
try:
    dev.numpy()
    report("numpy", "allowed")
except TypeError as e:
    report("numpy", str(e))
report("cuda_api", [torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.current_device(),
                    torch.cuda.get_device_name(), list(torch.cuda.get_device_capability()),
                    torch.cuda.get_device_properties(0).multi_processor_count])
s = torch.cuda.Stream()
with torch.cuda.stream(s):
    same = torch.cuda.current_stream() == s
report("streams", [same, torch.cuda.current_stream() == torch.cuda.default_stream(), s.query()])
before = torch.cuda.memory_allocated()
big = torch.empty(1 << 20, dtype=torch.uint8, device="cuda")
report("memory", [torch.cuda.memory_allocated() - before, torch.cuda.max_memory_allocated() >= (1 << 20)])
del big
model = torch.nn.Linear(4, 3).cuda()
y = model(torch.randn(2, 4, device="cuda"))
report("module", [next(model.parameters()).is_cuda, isinstance(model.weight, torch.nn.Parameter), y.is_cuda])
y.sum().backward()
report("grad", model.weight.grad is not None)
torch.set_default_device("cuda")
made = torch.empty(3)
torch.set_default_device("cpu")
report("default_device", [str(made.device), str(torch.empty(3).device)])
torch.cuda.manual_seed(123)
r1 = torch.rand(3, device="cuda")
host_draw = torch.rand(3)
torch.cuda.manual_seed(123)
r2 = torch.rand(3, device="cuda")
report("device_rng", [r1.tolist() == r2.tolist(), host_draw.is_cuda])
# the device generator's state is CUDA's Philox state: seed and offset, 16 bytes; code rewinds the
# offset by its bytes to draw a tensor again (Inductor's eager checks do)
state = torch.cuda.get_rng_state()
first = torch.rand(1000, device="cuda")
after = torch.cuda.get_rng_state()
seed_, offset = (int.from_bytes(bytes(after[i:i + 8].tolist()), "little") for i in (0, 8))
rewound = after.clone()
rewound[8:16] = torch.tensor(list((offset - 4).to_bytes(8, "little")), dtype=torch.uint8)
torch.cuda.set_rng_state(rewound)
again = torch.rand(1000, device="cuda")
torch.cuda.set_rng_state(state)
restored = torch.rand(1000, device="cuda")
with torch.random.fork_rng(devices=[0]):
    torch.rand(5, device="cuda")
forked = torch.cuda.get_rng_state().tolist() == after.tolist()
try:
    torch.cuda.set_rng_state(torch.zeros(5056, dtype=torch.uint8))
    wrong_size = "accepted"
except RuntimeError as e:
    wrong_size = str(e)
report("philox_state", [len(state), str(state.dtype), seed_ == torch.cuda.initial_seed() == 123,
                        offset - int.from_bytes(bytes(state[8:16].tolist()), "little"),
                        torch.equal(first, again), torch.equal(first, restored), forked, wrong_size])
report("legacy", [isinstance(a, torch.cuda.FloatTensor), a.type(), torch.cuda.FloatTensor([1, 2]).is_cuda])
report("repr", repr(torch.ones(2, device="cuda")))
for name, call in (("CUDAGraph", lambda: torch.cuda.CUDAGraph()), ("graph", lambda: torch.cuda.graph(None)),
                   ("cuda:1", lambda: torch.zeros(1, device="cuda:1")),
                   ("unanswered", lambda: torch.cuda.get_sync_debug_mode()),
                   ("cuda_profiler",
                    lambda: torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]))):
    try:
        call()
        report("refused_" + name, None)
    except RuntimeError as e:
        report("refused_" + name, f"{type(e).__name__}: {e}")

torch._C._cuda_clearCublasWorkspaces()          # benchmark helpers call it before timing: a no-op
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
    torch.ones(4, device="cuda").sum()
report("cpu_profiler", prof.key_averages() is not None)

# ---- formatting, autograd, and references computed as the GPU computes them ----
report("format", f"{torch.tensor(1.5, device='cuda'):.2f}")
# ATen's overloads as FX graphs and Inductor's repros call them: the factory makes a device tensor,
# and ops on it stay on the device
aten_full = torch.ops.aten.full.default([2, 3], 0.5, dtype=torch.bfloat16, layout=torch.strided,
                                        device=torch.device(type="cuda", index=0), pin_memory=False)
aten_sum = torch.ops.aten.add.Tensor(aten_full, torch.ops.aten.ones([3], device="cuda"))
report("aten_overloads", [aten_full.is_cuda, str(aten_full.dtype), aten_sum.is_cuda, aten_sum.sum().item(),
                          torch.ops.aten.empty.memory_format([4], device="cpu").is_cuda])
# random overloads and dropout on device tensors draw from the device generator, as on a GPU: the host
# stream does not move, and the device draw is what torch.rand(device="cuda") gives after the same seed
torch.manual_seed(5)
host_first = torch.rand(2)
torch.manual_seed(5)
torch.cuda.manual_seed(6)
aten_draw = torch.ops.aten.rand.default([8], device=torch.device("cuda", 0))
dropped = torch.nn.functional.dropout(torch.ones(1000, device="cuda"), 0.5)
host_next = torch.rand(2)
torch.cuda.manual_seed(6)
report("device_draws", [aten_draw.is_cuda, torch.equal(aten_draw, torch.rand(8, device="cuda")),
                        dropped.is_cuda, 300 < int((dropped == 0).sum()) < 700, torch.equal(host_first, host_next)])


class Doubler(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        made = torch.zeros(g.shape, device="cuda")       # torch runs this without torch-function modes
        report("backward_factory", made.is_cuda)
        return g * 2 + made


leaf = torch.ones(3, device="cuda", requires_grad=True)
Doubler.apply(leaf).sum().backward()
torch.manual_seed(1)
A = torch.randn(64, 96, dtype=torch.float16, device="cuda")
B = torch.randn(96, 48, dtype=torch.float16, device="cuda")
exact = (A.cpu().double() @ B.cpu().double()).half()
report("half_gemm", [bool(torch.equal((A @ B).cpu(), exact)), bool(torch.equal(torch.mm(A, B).cpu(), exact))])
X = torch.randn(32, 64, device="cuda")
Y = torch.randn(64, 16, device="cuda")
torch.set_float32_matmul_precision("high")
tf32 = (X @ Y).cpu()
torch.set_float32_matmul_precision("highest")
full = (X @ Y).cpu()
report("tf32", [float((tf32 - full).abs().max()) > 1e-5, float((tf32 - full).abs().max()) < 5e-2])
w = torch.randn(256, dtype=torch.bfloat16, device="cuda", requires_grad=True)
xb = torch.randn(512, 256, dtype=torch.bfloat16, device="cuda")
torch.nn.functional.layer_norm(xb, (256,), w, None, 1e-5).backward(torch.full_like(xb, 0.1))
xd = xb.cpu().double()
xhat = (xd - xd.mean(1, keepdim=True)) / (xd.var(1, unbiased=False, keepdim=True) + 1e-5).sqrt()
report("layer_norm_dw_err", float((w.grad.cpu().double() - (0.1 * xhat).sum(0)).abs().max()))
from torch.nn.attention import SDPBackend, sdpa_kernel  # noqa: E402
q = torch.randn(1, 2, 8, 16, dtype=torch.float16, device="cuda")
with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
    att = torch.nn.functional.scaled_dot_product_attention(q, q, q)
report("sdpa", [att.is_cuda, str(att.dtype)])
