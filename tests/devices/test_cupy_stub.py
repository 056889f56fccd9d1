"""The CuPy stand-in: a CuPy + cuTile script runs unmodified where CuPy cannot run."""
import pytest

from tests.devices.helpers import SCRIPTS, checks_of, run_child
from tilescope.devices.cupy_stub import real_cupy_can_run

pytestmark = pytest.mark.skipif(real_cupy_can_run(), reason="a real CuPy with a GPU is usable here")


@pytest.fixture(scope="module")
def checks():
    return checks_of(run_child(["-m", "tilescope", "run", SCRIPTS + "/cupy_script.py"]))


def test_kernel_writes_stand_in_arrays_in_place(checks):
    assert checks["kernel"] is True
    assert checks["testing"] is True


def test_arrays_stay_on_the_device_until_asked(checks):
    assert checks["types"] == ["ndarray", "ndarray", "ndarray", "ndarray", "ndarray"]
    assert checks["values"] == [10.0, "float32", "float16"]


def test_cuda_namespace_answers_as_the_target_gpu(checks):
    assert checks["device"] == [1, "NVIDIA H200", 132, "90"]
    assert checks["elapsed_ms"] >= 0


def test_cuda_specific_calls_are_refused_by_name(checks):
    assert checks["refused_RawKernel"].startswith("NotOnCpu: cupy.RawKernel is not available on the CPU")
    assert checks["refused_cupyx"].startswith("NotOnCpu: cupyx.scipy is not available on the CPU")
    assert checks["refused_missing"].startswith("NotOnCpu: cupy.no_such_function is not available on the CPU")


def test_the_stand_in_is_only_used_under_the_layer():
    proc = run_child(["-c", "import importlib.util, sys; import tilescope.devices; "
                            "print(importlib.util.find_spec('cupy') is None)"])
    assert proc.returncode == 0 and proc.stdout.strip() == "True", proc.stderr
