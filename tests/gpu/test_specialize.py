"""Launch-time specialisation: the facts tilescope derives from real arrays (`MetaTensor.like`,
`tilescope.gpu.launch`) are the ones upstream cuTile's launch derives, checked against upstream's
own derivation (`KernelSignature.from_kernel_args`, its C++ launch path) under a stand-in libcuda."""
import json
import textwrap

import pytest

from tests.gpu.upstream_launch import FAKE_ARRAY, build_fakecuda, run_upstream
from tilescope.backends.tileir import mangle
from tilescope.lang.shim import upstream_available
from tilescope.meta import MetaTensor, ScalarSpec

BASE = 0x7F0000000000
# (pointer offset, shape, byte strides or None, typestr)
LAYOUTS = [
    (0, (1024, 64), None, "<f4"),              # contiguous, aligned
    (4, (1024, 64), (512, 4), "<f4"),          # base not 16-byte aligned, padded rows
    (4, (1024, 1), (4, 0), "<f4"),             # a zero stride: elements alias
    (0, (100, 30), None, "<f2"),               # extents not multiples of 16
    (0, (64, 64), (4, 256), "<f4"),            # column-major
    (0, (8, 16, 32), None, "<u1"),             # bytes
    (256, (48,), (16,), "<f8"),                # strided, 16-byte stride
    (0, (2, 3, 4, 5, 6, 7), None, "<f4"),      # rank 6: no per-axis facts past rank 5
    (0, (17,), (2,), "<i2"),
]


class Fake:
    def __init__(self, ptr, shape, strides, typestr):
        self.__cuda_array_interface__ = {"data": (ptr, False), "shape": shape, "strides": strides,
                                         "typestr": typestr, "version": 3}


def _fields(c) -> dict:
    return {"dtype": c.dtype.name, "ndim": c.ndim, "index_dtype": c.index_dtype.name,
            "stride_lower_bound_incl": list(c.stride_lower_bound_incl), "alias_groups": list(c.alias_groups),
            "may_alias_internally": c.may_alias_internally, "stride_constant": list(c.stride_constant),
            "shape_constant": list(c.shape_constant), "stride_divisible_by": list(c.stride_divisible_by),
            "shape_divisible_by": list(c.shape_divisible_by), "base_addr_divisible_by": c.base_addr_divisible_by}


UPSTREAM = FAKE_ARRAY + textwrap.dedent('''
    import json
    import cuda.tile as ct
    from cuda.tile.compilation import KernelSignature, CallingConvention

    @ct.kernel
    def k(a, n):
        pass

    out = []
    for off, shape, strides, typestr in LAYOUTS:
        sig = KernelSignature.from_kernel_args(k, (FakeArray(BASE + off, shape, strides, typestr), 3),
                                               CallingConvention.cutile_python_v1())
        c = sig.parameters[0]
        out.append({"fields": FIELDS(c), "symbol": sig.symbol})
    print(json.dumps(out))
''')


@pytest.fixture(scope="module")
def upstream_facts(tmp_path_factory):
    if not upstream_available():
        pytest.skip("cuda-tile (the oracle) is not installed")
    d = tmp_path_factory.mktemp("fakecuda")
    lib = build_fakecuda(str(d))
    if lib is None:
        pytest.skip("no C compiler to build the stand-in libcuda")
    import inspect
    script = (f"BASE = {BASE}\nLAYOUTS = {LAYOUTS!r}\n" + inspect.getsource(_fields).replace("def _fields", "def FIELDS")
              + UPSTREAM)
    r = run_upstream(lib, script, str(d))
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("i", range(len(LAYOUTS)))
def test_like_derives_upstreams_launch_constraint(i, upstream_facts):
    off, shape, strides, typestr = LAYOUTS[i]
    m = MetaTensor.like(Fake(BASE + off, shape, strides, typestr))
    assert _fields(m.signature().to_upstream()) == upstream_facts[i]["fields"]
    assert mangle("k", [m.signature(), ScalarSpec("i32")]) == upstream_facts[i]["symbol"]   # n: a run-time int


def test_facts_of_common_layouts():
    m = MetaTensor.like(Fake(BASE, (1024, 64), None, "<f4"))
    assert m.static_strides == (False, True) and m.strides == (64, 1)
    assert m.stride_divisible_by == (4, 1) and m.shape_divisible_by == (16, 16)
    assert m.base_addr_divisible_by == 16 and not m.may_alias_internally
    assert repr(m.signature()) == "f32[?%16,?%16]:[?%4,1!]%16"
    broadcast = MetaTensor.like(Fake(BASE + 4, (1024, 8), (4, 0), "<f4"))
    assert broadcast.may_alias_internally and broadcast.base_addr_divisible_by == 1


def test_host_arrays_have_no_launch_facts():
    import numpy as np
    m = MetaTensor.like(np.zeros((16, 16), np.float32))
    assert not any(m.static_strides) and m.base_addr_divisible_by == 1

    class HostStandIn(np.ndarray):        # a GPU array stand-in living in host memory (CPU device layer)
        @property
        def __cuda_array_interface__(self):
            raise RuntimeError("not on the CPU")

    m = MetaTensor.like(np.zeros((16, 16), np.float32).view(HostStandIn))
    assert not any(m.static_strides) and m.base_addr_divisible_by == 1


def test_launch_facts_reach_the_tileir():
    import os

    import tilescope
    from tilescope.gpu.artifact import launch_specs
    from tilescope.gpu.device import DeviceArray
    from tilescope.lang.shim import load_file
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    k = load_file(os.path.join(root, "examples", "vector_add.py")).vector_add
    a = [DeviceArray(ptr=BASE + i * 8192, shape=(2048,), dtype="float32") for i in range(3)]
    _, specs = launch_specs(k, (*a, 1024))
    assert [repr(s) for s in specs] == ["f32[?%16]:[1!]%16"] * 3 + ["1024"]
    text = tilescope.compile(k, specs).tileir_text()
    first = text.splitlines()[0]
    assert "vector_add_Kt1_A1f32_1i16t1_p16_A1f32_1i16t1_p16_A1f32_1i16t1_p16_I1024" in first
    assert text.count("assume div_by<16>, %arg") == 6                 # base pointers and extents
    assert "tensor_view<?xf32, strides=[1]>" in text                   # the unit stride is a constant
    odd = DeviceArray(ptr=BASE + 4, shape=(2047,), dtype="float32")   # another launch, another kernel
    assert repr(launch_specs(k, (odd, *a[1:], 1024))[1][0]) == "f32[?]:[1!]"


def test_same_code_ignores_debug_sections():
    from tilescope.backends.tileir import find_toolchain
    from tilescope.gpu.cubin import same_code
    import tilescope
    tc = find_toolchain(required=False)
    if tc is None:
        pytest.skip("tileiras not found")
    from tilescope.lang.shim import load_file
    import os
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    k = load_file(os.path.join(root, "examples", "vector_add.py")).vector_add
    data = tilescope.compile(k, "f32[?], f32[?], f32[?], 1024").tileir_bytecode()
    with_lines, plain = tc.assemble(data, "sm_90"), tc.assemble(data, "sm_90", lineinfo=False)
    assert with_lines != plain and same_code(with_lines, plain)
    other = tilescope.compile(k, "f32[?], f32[?], f32[?], 512").tileir_bytecode()
    assert not same_code(with_lines, tc.assemble(other, "sm_90"))
