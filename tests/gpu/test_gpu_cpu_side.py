"""CPU-side parts of tilescope.gpu: cubin ELF reading, calling-convention packing, keys, artifacts.

GPU launches are tested only where CuPy and a GPU exist (skipped here with the reason shown);
the full GPU validation is bench/gpu_validate.py (docs/gpu-validation.md).
"""
import os
import struct

import numpy as np
import pytest

import tilescope
from tilescope.gpu import (ABIError, Artifact, CubinError, DeviceArray, ParamLayout, artifact_key, kernel_info,
                           kernel_names, key_for, layout_of, lookup, pack)
from tilescope.gpu.abi import ArgSlot, DeviceArrayInfo, check_against_cubin, param_buffer
from tilescope.gpu.artifact import launch_specs, signature_text
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _examples(name):
    return load_file(os.path.join(ROOT, "examples", name + ".py"))


# -- a synthetic cubin ---------------------------------------------------------------------------

def _eiattr_sval(attr, payload):
    return bytes([0x04, attr]) + struct.pack("<H", len(payload)) + payload


def _eiattr_hval(attr, value):
    return bytes([0x03, attr]) + struct.pack("<H", value)


def make_cubin(name="k_Kt1", block=(128, 1, 1), params=((0, 0, 8), (1, 8, 4), (2, 12, 4)), shared=0):
    """A minimal ELF64 CUDA object with the sections the launcher reads."""
    info = _eiattr_sval(0x37, struct.pack("<I", 0x86))          # CUDA_API_VERSION (ignored)
    for ordinal, offset, size in params:
        info += _eiattr_sval(0x17, struct.pack("<IHHI", 0, ordinal, offset, (size << 18) | 0x1F000))
    info += _eiattr_hval(0x19, params[-1][1] + params[-1][2] if params else 0)
    info += _eiattr_sval(0x10, struct.pack("<III", *block))
    names = ["", ".shstrtab", ".text." + name, ".nv.info." + name, ".nv.shared." + name]
    strtab = b""
    offsets = []
    for n in names:
        offsets.append(len(strtab))
        strtab += n.encode() + b"\0"
    bodies = [b"", strtab, b"\0" * 16, info, b""]
    data = bytearray(64)
    locs = []
    for body in bodies:
        locs.append(len(data))
        data += body
    data += b"\0" * ((-len(data)) % 8)
    shoff = len(data)
    for i, body in enumerate(bodies):
        size = shared if names[i].startswith(".nv.shared.") else len(body)
        sh_type = 8 if names[i].startswith(".nv.shared.") else (3 if i == 1 else 1)
        data += struct.pack("<IIQQQQIIQQ", offsets[i], sh_type if i else 0, 0, 0, locs[i], size, 0, 0, 1, 0)
    header = b"\x7fELF" + bytes([2, 1, 1, 0x33, 7]) + b"\0" * 7
    header += struct.pack("<HHIQQQIHHHHHH", 2, 190, 1, 0, 0, shoff, 0, 64, 0, 0, 64, len(bodies), 1)
    data[:64] = header
    return bytes(data)


def test_cubin_reader_reads_reqntid_params_and_shared():
    cubin = make_cubin("vadd_Kt1", block=(256, 1, 1), shared=50176)
    assert kernel_names(cubin) == ["vadd_Kt1"]
    info = kernel_info(cubin)
    assert info.name == "vadd_Kt1"
    assert info.block == (256, 1, 1)
    assert info.static_shared == 50176
    assert [(p.ordinal, p.offset, p.size) for p in info.params] == [(0, 0, 8), (1, 8, 4), (2, 12, 4)]
    assert info.param_bytes == 16


def test_cubin_reader_errors():
    with pytest.raises(CubinError, match="not an ELF"):
        kernel_info(b"hello")
    with pytest.raises(CubinError, match="not in the cubin"):
        kernel_info(make_cubin("a"), "b")


# -- calling convention ------------------------------------------------------------------------------

def _fake_describe(x):
    from tilescope.dtypes import dtype_from_numpy
    return DeviceArrayInfo(0x1000, x.shape, tuple(s // x.itemsize for s in x.strides),
                           dtype_from_numpy(x.dtype).name, x.itemsize)


def test_layout_of_vector_add_and_layernorm():
    va = tilescope.compile(_examples("vector_add").vector_add, "f32[?], f32[?], f32[?], 1024")
    lay = layout_of(va.final)
    assert [s.kind for s in lay.slots] == ["array", "array", "array", "constant"]
    assert lay.param_offsets() == [(0, 8), (8, 4), (12, 4), (16, 8), (24, 4), (28, 4), (32, 8), (40, 4), (44, 4)]
    ln = tilescope.compile(_examples("layernorm").layernorm, "f32[?,?], f32[?], f32[?], f32[?,?], f32, 256")
    lay = layout_of(ln.final)
    assert lay.slots[4] == ArgSlot("scalar", "float32")
    assert ParamLayout.from_json(lay.to_json()) == lay


def test_pack_arrays_scalars_and_constants():
    lay = ParamLayout((ArgSlot("array", "float32", 2), ArgSlot("scalar", "int32"), ArgSlot("scalar", "bool_"),
                       ArgSlot("scalar", "float32"), ArgSlot("constant", value=64)))
    x = np.zeros((3, 8), np.float32)[:, ::2]                   # strides in elements: (8, 2)
    vals = pack(lay, (x, 7, True, 0.5, 64), _fake_describe)
    assert [v.dtype.name for v in vals] == ["uint64", "int32", "int32", "int32", "int32", "int32", "uint8",
                                            "float32"]
    assert [int(v) for v in vals[1:5]] == [3, 4, 8, 2]
    buf = param_buffer(vals)
    assert len(buf) == 8 + 16 + 4 + 1 + 3 + 4                 # float32 after the bool is 4-aligned
    assert struct.unpack_from("<f", buf, 32)[0] == 0.5
    with pytest.raises(ABIError, match="compile-time constant 64"):
        pack(lay, (x, 7, True, 0.5, 32), _fake_describe)
    with pytest.raises(ABIError, match="float32 array"):
        pack(lay, (x.astype(np.float16), 7, True, 0.5, 64), _fake_describe)
    with pytest.raises(ABIError, match="takes 5 arguments"):
        pack(lay, (x,), _fake_describe)


def test_pack_bf16_raw_device_array_and_int64_index():
    lay = ParamLayout((ArgSlot("array", "bfloat16", 1, "int64"), ArgSlot("scalar", "bfloat16")))
    raw = DeviceArray(ptr=0x2000, shape=(10,), dtype="bfloat16")
    vals = pack(lay, (raw, 1.5), lambda a: a.info())
    assert [v.dtype.name for v in vals] == ["uint64", "int64", "int64", "uint16"]
    assert int(vals[3]) == 0x3FC0                               # 1.5 in bfloat16
    assert lay.param_offsets() == [(0, 8), (8, 8), (16, 8), (24, 2)]


def test_layout_check_against_cubin_kparam_info():
    lay = ParamLayout((ArgSlot("array", "float32", 1), ArgSlot("constant", value=4)))
    check_against_cubin(lay, kernel_info(make_cubin()))
    bad = ParamLayout((ArgSlot("array", "float32", 2),))
    with pytest.raises(ABIError, match="mismatch"):
        check_against_cubin(bad, kernel_info(make_cubin()))


# -- keys, artifacts, bundles ------------------------------------------------------------------------

def test_keys_ignore_sizes_but_not_dtypes_or_constants():
    k = _examples("vector_add").vector_add
    a, b = np.zeros(16, np.float32), np.zeros(4096, np.float32)
    key1, sig = key_for(k, (a, a, a, 1024), "sm_90")
    # what a launch derives (host arrays: their aligned contiguous device copies)
    assert sig == "f32[?%16]:[1!]%16, f32[?%16]:[1!]%16, f32[?%16]:[1!]%16, 1024"
    assert key_for(k, (b, b, b, 1024), "sm_90")[0] == key1
    c = np.zeros(4095, np.float32)                      # an extent not divisible by 16: another kernel
    assert key_for(k, (c, c, c, 1024), "sm_90")[1] == "f32[?]:[1!]%16, f32[?]:[1!]%16, f32[?]:[1!]%16, 1024"
    assert key_for(k, (a, a, a, 512), "sm_90")[0] != key1
    h = a.astype(np.float16)
    assert key_for(k, (h, h, h, 1024), "sm_90")[0] != key1
    assert key_for(k, (a, a, a, 1024), "sm_100")[0] != key1
    assert artifact_key("x", "k", sig, "sm_90", version="9.9") != artifact_key("x", "k", sig, "sm_90")


def test_cached_cubins_belong_to_one_build_of_tilescope(tmp_path, monkeypatch):
    # A cubin cached by another build of the same version (an editable install whose compiler
    # changed) must not be found: the key holds a digest of tilescope's own sources.
    import shutil
    from tilescope.gpu import artifact
    copy = tmp_path / "tilescope"
    shutil.copytree(os.path.dirname(artifact.__file__), copy / "gpu")
    monkeypatch.setattr(artifact, "__file__", str(copy / "gpu" / "artifact.py"))
    artifact.tilescope_build.cache_clear()
    try:
        before = artifact.tilescope_build()
        (copy / "gpu" / "launcher.py").write_text((copy / "gpu" / "launcher.py").read_text() + "\n# changed\n")
        artifact.tilescope_build.cache_clear()
        after = artifact.tilescope_build()
    finally:
        monkeypatch.undo()
        artifact.tilescope_build.cache_clear()
    assert before != after and before.startswith(artifact.tilescope_version() + "+")
    assert artifact_key("x", "k", "f32[?]", "sm_90", version=before) != \
        artifact_key("x", "k", "f32[?]", "sm_90", version=after)


def test_launch_signature_equals_what_a_bundle_compiles():
    k = _examples("layernorm").layernorm
    x, w = np.zeros((4, 8), np.float32), np.zeros(8, np.float32)
    fn, specs = launch_specs(k, (x, w, w, x, 1e-5, 256))
    compiled = tilescope.compile(k, specs)
    assert signature_text(compiled.args) == key_for(k, (x, w, w, x, 1e-5, 256), "sm_90")[1]


def test_artifact_roundtrip_and_lookup(tmp_path):
    lay = ParamLayout((ArgSlot("array", "float32", 1), ArgSlot("constant", value=4)))
    art = Artifact.from_cubin(make_cubin(), lay, kernel="k", signature="f32[?], 4", arch="sm_90", key="abc")
    art.save(str(tmp_path))
    back = lookup(str(tmp_path), "abc")
    assert back.block == (128, 1, 1) and back.symbol == "k_Kt1" and back.layout == lay
    assert lookup(str(tmp_path), "missing") is None
    (tmp_path / "abc.cubin").write_bytes(make_cubin(shared=16))
    with pytest.raises(ValueError, match="sha256"):
        lookup(str(tmp_path), "abc")


def test_cache_dir_override(monkeypatch, tmp_path):
    from tilescope.gpu import cache_dir
    monkeypatch.setenv("TILESCOPE_CACHE_DIR", str(tmp_path))
    assert cache_dir() == os.path.join(str(tmp_path), "gpu")
    assert cache_dir("/x") == "/x"


def _has_toolchain():
    from tilescope.backends.tileir import find_toolchain
    return find_toolchain(required=False) is not None


@pytest.mark.skipif(not _has_toolchain(), reason="tileiras not installed (set TILESCOPE_CUDA_BIN): real-cubin "
                                                 "checks skipped")
def test_real_cubin_layout_and_bundle(tmp_path):
    from tilescope.gpu.bundle import build_bundle
    made = build_bundle(str(tmp_path), os.path.join(ROOT, "examples", "vector_add.py"),
                        [("vector_add", "f32[?]:[1!]%16, f32[?]:[1!]%16, f32[?]:[1!]%16, 1024")])
    art = made[0]
    assert art.block == (128, 1, 1)
    assert art.symbol == "vector_add_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_I1024"
    a = np.zeros(3, np.float32)
    key, _ = key_for(_examples("vector_add").vector_add, (a, a, a, 1024), "sm_90")
    assert lookup(str(tmp_path), key) is not None


def _gpu_reason():
    try:
        import cupy
        cupy.cuda.runtime.getDeviceCount()
        return None
    except Exception as e:  # noqa: BLE001
        return f"no CuPy/GPU here ({type(e).__name__}); GPU launches are validated by bench/gpu_validate.py"


@pytest.mark.skipif(_gpu_reason() is not None, reason=str(_gpu_reason()))
def test_launch_vector_add_on_gpu():
    import cupy as cp
    import tilescope.gpu as tg
    k = _examples("vector_add").vector_add
    a, b = cp.random.rand(5000, dtype=cp.float32), cp.random.rand(5000, dtype=cp.float32)
    c = cp.empty_like(a)
    tg.launch((5,), k, (a, b, c, 1024))
    assert bool((c == a + b).all())
