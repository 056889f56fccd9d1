"""The torch half of the CPU device layer, on a GPU-targeted script run unmodified in a child
process (the layer patches torch for the whole process, so it never runs inside this one)."""
import pytest

from tests.devices.helpers import SCRIPTS, checks_of, run_child

pytest.importorskip("torch")

SCRIPT = SCRIPTS + "/torch_cuda_script.py"


@pytest.fixture(scope="module")
def checks():
    return checks_of(run_child(["-m", "tilescope", "run", SCRIPT]))


def test_kernel_runs_on_device_tensors_in_place(checks):
    assert checks["kernel_result"] is True


def test_tensors_read_as_cuda(checks):
    assert checks["is_cuda"] == [True, True, True, True]
    assert checks["device"] == ["cuda:0", "cuda", "cuda:0", 0]
    assert checks["names"] == ["cuda:0"] * 7
    assert checks["repr"] == "tensor([1., 1.], device='cuda:0')"


def test_host_and_device_never_alias(checks):
    assert checks["copies"] == [[0.0, 1.0, 2.0, 3.0], [1.0, 2.0, 3.0, 4.0], "Tensor", "cpu"]
    assert "can't convert cuda:0 device type tensor to numpy" in checks["numpy"]


def test_torch_cuda_answers_as_the_h200(checks):
    assert checks["cuda_api"] == [True, 1, 0, "NVIDIA H200", [9, 0], 132]
    assert checks["streams"] == [True, True, True]
    assert checks["event_ms"] > 0
    assert checks["memory"] == [1 << 20, True]


def test_modules_defaults_generators_and_legacy_types(checks):
    assert checks["module"] == [True, True, True] and checks["grad"] is True
    assert checks["default_device"] == ["cuda:0", "cpu"]
    assert checks["device_rng"] == [True, False]
    assert checks["legacy"] == [True, "torch.cuda.FloatTensor", True]


def test_device_generator_state_reads_as_cudas_philox_state(checks):
    # 16 bytes of seed and offset; a 1,000-number draw moves the offset by 4 (one Philox call a thread);
    # rewinding the offset's bytes replays the draw, as restoring the whole state does
    length, dtype, seeded, moved, replayed, restored, forked, wrong_size = checks["philox_state"]
    assert [length, dtype, seeded, moved, replayed, restored, forked] == [16, "torch.uint8", True, 4, True, True, True]
    assert wrong_size.startswith("torch.cuda.set_rng_state: the state must be a torch.uint8 tensor of 16 bytes")


def test_what_has_no_cpu_meaning_is_refused_by_name(checks):
    for name in ("CUDAGraph", "graph"):
        assert checks["refused_" + name].startswith("NotOnCpu: torch.cuda." + name), checks["refused_" + name]
        assert "not available on the CPU" in checks["refused_" + name]
    assert "emulates one GPU, cuda:0" in checks["refused_cuda:1"]
    # a torch.cuda call the layer does not answer is named too, not "Torch not compiled with CUDA"
    assert checks["refused_unanswered"].startswith("NotOnCpu: torch.cuda.get_sync_debug_mode is not available")
    # GPU kernel timing (TileGym's perf tests), not torch's "Legacy CUDA profiling requires use_cpu=True";
    # CPU profiling and the cuBLAS workspace clearing before it still work
    assert checks["refused_cuda_profiler"].startswith(
        "NotOnCpu: torch.profiler.profile(activities=[ProfilerActivity.CUDA]) is not available on the CPU")
    assert checks["cpu_profiler"] is True


def test_other_target_gpu():
    proc = run_child(["-m", "tilescope", "run", SCRIPT], {"TILESCOPE_GPU": "a100"})
    assert checks_of(proc)["cuda_api"] == [True, 1, 0, "NVIDIA A100-SXM4-80GB", [8, 0], 108]


def test_unknown_target_gpu_is_a_clear_error():
    proc = run_child(["-m", "tilescope", "run", SCRIPT], {"TILESCOPE_GPU": "z9000"})
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("tilescope run: error: TILESCOPE_GPU='z9000' names no GPU tilescope knows")
    assert "Traceback" not in proc.stderr


def test_formatting_and_factories_inside_autograd(checks):
    assert checks["format"] == "1.50"
    assert checks["backward_factory"] is True


def test_aten_overloads_naming_the_gpu_make_device_tensors(checks):
    # torch.ops.aten.full.default(..., device=device(type='cuda', index=0)), as Inductor's repros write it
    assert checks["aten_overloads"] == [True, "torch.bfloat16", True, 9.0, False]
    # ATen's random overloads and dropout on device tensors draw from the device generator, not the host's
    assert checks["device_draws"] == [True, True, True, True, True]


def test_torch_references_round_as_the_gpu_does(checks):
    assert checks["half_gemm"] == [True, True]            # accumulated exactly, rounded once
    assert checks["tf32"] == [True, True]                 # precision "high": TF32 inputs, as tensor cores
    assert checks["layer_norm_dw_err"] < 0.05             # float32 accumulation (torch's CPU bf16: ~0.4)
    assert checks["sdpa"] == [True, "torch.float16"]      # a CUDA-only backend choice runs on the CPU's
