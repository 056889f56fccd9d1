"""GPUs of other architectures than the one the model was measured on (sm_90): the schedule is the
sm_90 build's, the latencies per block Hopper's scaled by the GPU's clock, the peaks its own."""
import os

import pytest

import tilescope
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import read_cubin_facts
from tilescope.costmodel.cubin_facts import CubinFactsError, cubin_arch
from tilescope.costmodel.gpus import GPUS, MEASURED_ARCH
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
needs_tileiras = pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")

# (example, kernel, args, grid): a stream, a row kernel, a permutation, a GEMM and an attention
CASES = [
    ("vector_add", "vector_add", "f32[16777216], f32[16777216], f32[16777216], 1024", (16384,)),
    ("softmax", "softmax", "f32[4096,1024], f32[4096,1024], 1024", (4096,)),
    ("transpose", "transpose", "f32[4096,4096], f32[4096,4096], 64, 64", (64, 64)),
    ("matmul", "matmul", "f16[1024,1024], f16[1024,1024], f32[1024,1024], 64, 64, 32", (16, 16)),
    ("attention", "attention", "f16[16,1024,64], f16[16,1024,64], f16[16,1024,64], f16[16,1024,64], 0.125, 64, 64, 64",
     (16, 16)),
]


def _kernel(example, name):
    return getattr(load_file(os.path.join(ROOT, "examples", example + ".py")), name)


def _spec(example, name, args, grid):
    return _kernel(example, name), args, grid


def _ratio_bound(gpu) -> float:
    """The most any resource of `gpu` is slower than the H100's: its DRAM bandwidth, its clock (a
    block's latencies), its SMs' clocks, its FP32 rate or its float16 tensor rate."""
    h100 = GPUS["h100"]
    return max(h100.dram_tbs / gpu.dram_tbs, h100.clock_ghz / gpu.clock_ghz,
               h100.sms * h100.clock_ghz / (gpu.sms * gpu.clock_ghz),
               h100.fp32_tflops / gpu.fp32_tflops,
               h100.tensor_rate("float16") / gpu.tensor_rate("float16"))


@pytest.mark.parametrize("name", sorted(set(GPUS) - {"h100", "h200"}))
def test_no_gpu_is_predicted_slower_than_its_peaks_say(name):
    # a schedule read from another architecture's code the model cannot read had made the A100's
    # 1024^3 GEMM 37 times the H100's; its peaks are at most 3.4 times behind
    gpu = GPUS[name]
    for example, kernel, args, grid in CASES:
        k, args, grid = _spec(example, kernel, args, grid)
        h100 = tilescope.cost(k, args, grid, "h100", cubin=None).predicted_us
        other = tilescope.cost(k, args, grid, name, cubin=None).predicted_us
        assert other <= h100 * _ratio_bound(gpu) * 1.05, (example, name, other, h100)


def test_the_note_says_what_a_prediction_for_another_architecture_rests_on():
    k, args, grid = _spec(*CASES[3])
    a100 = tilescope.cost(k, args, grid, "a100").to_json()
    assert any("sm_80" in n and "not validated against A100" in n and "async copies" in n
               for n in a100["assumptions"])
    h200 = tilescope.cost(k, args, grid, "h200").to_json()
    assert not any("not validated" in n for n in h200["assumptions"])


@needs_tileiras
@pytest.mark.parametrize("arch", ["sm_80", "sm_90", "sm_100"])
def test_a_cubin_names_its_architecture(arch):
    compiled = tilescope.compile(_kernel("vector_add", "vector_add"), "f32[1024], f32[1024], f32[1024], 256")
    assert cubin_arch(compiled.cubin(arch)) == arch


@needs_tileiras
@pytest.mark.parametrize("gpu", ["a100", "b200", "l40s"])
def test_every_gpu_reads_the_sm90_build(gpu):
    k, args, grid = _spec(*CASES[3])
    compiled = tilescope.compile(k, args)
    sm90 = compiled.cubin(MEASURED_ARCH)
    auto = tilescope.cost(k, args, grid, gpu, cubin="auto", aligned=False)
    given = tilescope.cost(k, args, grid, gpu, cubin=sm90, aligned=False)
    assert auto.prediction.schedule == "from the cubin"
    assert auto.prediction.cubin == given.prediction.cubin == read_cubin_facts(sm90)
    assert auto.predicted_us == given.predicted_us


@needs_tileiras
def test_a_cubin_of_another_architecture_falls_back_to_the_estimate_and_says_why():
    k, args, grid = _spec(*CASES[3])
    sm100 = tilescope.compile(k, args).cubin("sm_100")
    r = tilescope.cost(k, args, grid, "b200", cubin=sm100)
    assert r.prediction.schedule == "estimated from the IR"
    assert any("sm_100 code" in n for n in r.to_json()["assumptions"])
    assert r.predicted_us == tilescope.cost(k, args, grid, "b200", cubin=None).predicted_us


def test_bytes_that_are_no_cubin_have_no_architecture():
    with pytest.raises(CubinFactsError, match="not an ELF"):
        cubin_arch(b"nope")
