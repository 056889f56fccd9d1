"""conftest.py the harness puts beside a *copy* of upstream's test/ directory (never into the checkout).

It offers the names upstream's test modules import from their conftest (dtype lists,
`dtype_id`, `requires_tileiras`, the dtype fixtures), written for a pretend H200 with the
tileiras version tilescope's front end emulates (features gated above it are skipped by
upstream's own `requires_tileiras` markers). Benchmark,
clock-locking and tuning options of upstream's conftest have no CPU meaning and are absent.
"""
import conformance.boot

conformance.boot.install()          # cuda.tile is tilescope and CUDA is the CPU from here on

import math  # noqa: E402

import pytest  # noqa: E402
import torch  # noqa: E402

from cuda.tile._bytecode.version import BytecodeVersion  # noqa: E402  (harness stand-in)
from tilescope.lang.private._bytecode import SUPPORTED_VERSIONS  # noqa: E402
try:
    from util import require_blackwell_or_newer, require_hopper_or_newer  # noqa: E402
except ImportError:                  # a test tree without upstream's util.py
    def require_hopper_or_newer():
        return pytest.mark.skipif(False, reason="")

    def require_blackwell_or_newer():
        return pytest.mark.skipif(True, reason="requires Blackwell")


def get_tileiras_version():
    from tilescope.lang.private._bytecode import emulated_version
    return emulated_version()           # what tilescope's front end gates features on


def requires_tileiras(version):
    if version not in SUPPORTED_VERSIONS:
        return pytest.mark.skip(reason=f"Requires dev features enabled for version "
                                       f"{version.major()}.{version.minor()}")
    return pytest.mark.skipif(get_tileiras_version() < version, reason="Requires newer tileiras")


_DTYPE_IDS = {
    torch.float8_e4m3fn: "f8e4m3fn", torch.float8_e5m2: "f8e5m2", torch.float8_e8m0fnu: "f8e8m0fnu",
    torch.float16: "f16", torch.bfloat16: "bf16", torch.float32: "f32", torch.float64: "f64",
    torch.int32: "i32", torch.int64: "i64", torch.bool: "bool", torch.complex32: "c32",
    torch.complex64: "c64", torch.complex128: "c128", torch.uint32: "u32", torch.uint64: "u64",
    torch.int16: "i16", torch.int8: "i8",
}


def dtype_id(dtype):
    return _DTYPE_IDS.get(dtype)


def _size_suffix(n):
    for scale, suffix in ((1024 ** 4, "T"), (1024 ** 3, "G"), (1024 ** 2, "M"), (1024, "K"), (1, "")):
        if n % scale == 0:
            return f"{n // scale}{suffix}"


def shape_id(shape):
    return "-".join(str(_size_suffix(x)) for x in shape)


def shape_size_id(shape):
    return "-".join([str(_size_suffix(math.prod(shape))), "x".join(str(_size_suffix(x)) for x in shape)])


float_dtypes = [torch.float16, torch.bfloat16, torch.float32]
int_dtypes = [torch.int32, torch.int64, torch.int16, torch.int8]
bool_dtypes = [torch.bool]
uint_dtypes = [torch.uint8, torch.uint32, torch.uint64]
arithmetic_dtypes = int_dtypes + uint_dtypes + float_dtypes + bool_dtypes
float8_dtypes = [
    pytest.param(torch.float8_e5m2, marks=require_hopper_or_newer()),
    pytest.param(torch.float8_e4m3fn, marks=require_hopper_or_newer()),
    pytest.param(torch.float8_e8m0fnu, marks=(require_blackwell_or_newer(),
                                              requires_tileiras(BytecodeVersion.V_13_2))),
]


@pytest.fixture(params=float_dtypes, ids=dtype_id)
def float_dtype(request):
    return request.param


@pytest.fixture(params=int_dtypes, ids=dtype_id)
def int_dtype(request):
    return request.param


@pytest.fixture(params=bool_dtypes, ids=dtype_id)
def bool_dtype(request):
    return request.param


@pytest.fixture(params=uint_dtypes, ids=dtype_id)
def uint_dtype(request):
    return request.param


def get_cupy_or_skip():
    pytest.skip("GPU-only: CuPy arrays")


@pytest.fixture(scope="session")
def cupy():
    return get_cupy_or_skip()


@pytest.fixture(scope="session")
def numba_cuda():
    pytest.skip("GPU-only: Numba CUDA arrays")


@pytest.fixture
def benchmark():
    pytest.skip("benchmark (timing only)")


@pytest.fixture(params=["cutile", "torch"])
def backend(request):
    pytest.skip("benchmark (timing only)")
