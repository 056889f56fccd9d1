"""bench/cost_validate.py's command line: the checkouts it is given (--repo, --upstream ...) reach
the modules that list the cases and load their kernels, for prepare, run --mock and predict; and
--only's set prefixes. A stand-in checkout holds a kernel under the name and path a set-M case
reads, so no real checkout is needed."""
import json
import os
import sys
import textwrap

import pytest

from tilescope.backends.tileir.toolchain import find_toolchain

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import cost_validate as cv  # noqa: E402  (bench/ is not a package: found through the path above)
from costval_case import Case, case_json, picked  # noqa: E402

CASE = "M_triad_f32_2p25_t512"       # set M: file kernels:babelstream.py, kernel k_triad

TRIAD = textwrap.dedent('''
    import cuda.tile as ct

    @ct.kernel
    def k_triad(a, b, c, scalar, size: ct.Constant[int]):
        i = ct.bid(0)
        b_tile = ct.load(b, index=(i,), shape=(size,))
        c_tile = ct.load(c, index=(i,), shape=(size,))
        ct.store(a, (i,), b_tile + scalar * c_tile)
''')


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    """A stand-in for set M's `kernels` checkout; the module's checkouts as they were afterwards."""
    monkeypatch.setattr(cv, "REPOS", {})
    for name in ("UPSTREAM", "TILEGYM", "TILEBENCH", "CUTILEGPT"):
        monkeypatch.setattr(cv, name, "")
    folder = tmp_path / "kernels"
    folder.mkdir()
    (folder / "babelstream.py").write_text(TRIAD)
    before = set(sys.modules)
    yield str(folder)
    from cost_setd import stand_in
    for name in set(sys.modules) - before:    # the checkout's module and the host stand-ins (torch ...)
        if name.startswith("costval_kernels") or vars(sys.modules[name]).get("__getattr__") is stand_in:
            del sys.modules[name]


def _prepared(folder, case):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "cases.json"), "w") as f:
        json.dump([case_json(case)], f)


def test_only_set_prefixes_match_at_the_start():
    def names(only):
        return {n for n in ("M_triad_f32", "L_gelu", "vector_add_f32_1M_launch", "copy_f32_t1024")
                if picked(Case(n, "validate", "f.py", "k", [], (1,)), only)}
    assert names("M_") == {"M_triad_f32"}
    assert names("M_,L_") == {"M_triad_f32", "L_gelu"}
    assert names("1M") == {"vector_add_f32_1M_launch"}            # other parts: anywhere in the name
    assert names("_f32") == {"M_triad_f32", "vector_add_f32_1M_launch", "copy_f32_t1024"}
    assert names(None) == names("") == {"M_triad_f32", "L_gelu", "vector_add_f32_1M_launch", "copy_f32_t1024"}


def test_run_mock_reads_the_kernel_from_the_repo_given(checkout, tmp_path):
    folder, out = str(tmp_path / "prepared"), str(tmp_path / "run.json")
    _prepared(folder, next(c for c in cv.cases(with_upstream=True) if c.name == CASE))
    cv.main(["run", folder, "--mock", "--json", out, "--repo", f"kernels={checkout}"])
    result = json.load(open(out))["cases"]
    assert list(result) == [CASE]
    assert result[CASE]["mock"] and result[CASE]["reports"] == 0, result
    assert cv.REPOS == {"kernels": checkout}
    # without the checkout, set M is not listed and nothing runs
    cv.REPOS.clear()
    os.remove(out)
    cv.main(["run", folder, "--mock", "--json", out])
    assert not os.path.exists(out)


def test_a_missing_checkout_is_named(checkout, tmp_path):
    case = next(c for c in cv.cases(with_upstream=True) if c.name == CASE)
    with pytest.raises(SystemExit, match="needs --repo kernels=DIR"):
        cv.kernel_of(case)


@pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")
def test_prepare_and_predict_read_the_kernel_from_the_repo_given(checkout, tmp_path):
    folder, out = str(tmp_path / "prepared"), str(tmp_path / "predicted.json")
    cv.main(["prepare", "--out", folder, "--only", CASE + ",nothing_else", "--repo", f"kernels={checkout}"])
    stored = json.load(open(os.path.join(folder, "cases.json")))
    assert [c["name"] for c in stored] == [CASE, CASE + "_launch"]
    assert stored[0]["facts"]["block"][0] > 0
    # predict at other sizes under another name: the stand-in, not the set's kernel, is what is costed
    for c in stored:
        n = 512 * 64
        c["args"] = [dict(a, shape=[n]) if a["kind"] == "array" else a for a in c["args"]]
        c["grid"], old = [64], c["name"]
        c["name"] = old.replace(CASE, "stand_in_triad")
        for ext in (".cubin", ".json"):
            os.rename(os.path.join(folder, old + ext), os.path.join(folder, c["name"] + ext))
    json.dump(stored, open(os.path.join(folder, "cases.json"), "w"))
    cv.REPOS.clear()
    cv.main(["predict", folder, "--json", out, "--repo", f"kernels={checkout}"])
    predicted = json.load(open(out))
    assert sorted(predicted) == ["stand_in_triad", "stand_in_triad_launch"]
    assert all(p["cubin"]["predicted_us"] > 0 and p["ir_only"]["predicted_us"] > 0 for p in predicted.values())


GATHER = textwrap.dedent('''
    import os, sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
    import cuda.tile as ct
    import cuda.core as cc                                  # host-only: stood in while this loads
    from cuda.bindings import driver as cdrv
    import ancora.env                                       # no such file in this checkout

    @ct.kernel
    def _embed_gather(ids, embed, out, HB: ct.Constant[int]):
        r = ct.bid(0)
        row = ct.reshape(ct.load(ids, index=(r, 0), shape=(1, 1)), ())
        for hb in range(HB):
            t = ct.astype(ct.bitcast(ct.load(embed, index=(row, hb), shape=(1, 128)), ct.bfloat16), ct.float32)
            ct.store(out, index=(r, hb), tile=t)
''')


def test_set_o_host_imports_are_stood_in_only_while_the_kernel_loads(checkout, tmp_path):
    """Set O's `ancora` checkout imports cuda.core, cuda.bindings and its own ancora.env (host
    code); a stand-in checkout with those imports runs through `run --mock` (bfloat16 bits as
    uint16), and the stand-ins are gone from sys.modules afterwards."""
    root = tmp_path / "ancora_checkout"
    (root / "ancora" / "kernels").mkdir(parents=True)
    (root / "ancora" / "__init__.py").write_text("")
    (root / "ancora" / "kernels" / "fused.py").write_text(GATHER)
    name = next(c.name for c in cv.cases(with_upstream=True) if c.kernel == "_embed_gather")
    folder, out = str(tmp_path / "prepared"), str(tmp_path / "run.json")
    _prepared(folder, next(c for c in cv.cases(with_upstream=True) if c.name == name))
    path_before = list(sys.path)
    try:
        cv.main(["run", folder, "--mock", "--json", out, "--repo", f"ancora={root}"])
        result = json.load(open(out))["cases"]
        assert result[name]["mock"] and result[name]["reports"] == 0, result
        for host in ("cuda.core", "cuda.bindings", "ancora.env"):
            assert host not in sys.modules
    finally:
        sys.path[:] = path_before
        for mod in [m for m in sys.modules if m == "ancora" or m.startswith(("ancora.", "costval_ancora"))]:
            del sys.modules[mod]
        cv.REPOS.clear()


MERGE = textwrap.dedent('''
    import triton                                           # host-only: stood in while this loads
    import triton.language as tl
    import Optional                                         # no such module anywhere
    import cuda.tile as ct

    @ct.kernel
    def ct_merge_attention_states(po, so, plse, slse, out, out_lse, dim: int, tile_size: ct.Constant,
                                  OUTPUT_LSE: ct.Constant):
        s, h = ct.bid(0), ct.bid(1)
        a = ct.load(plse, (h, s), (1, 1))
        b = ct.load(slse, (h, s), (1, 1))
        top = ct.maximum(a, b)
        wa, wb = ct.exp(a - top), ct.exp(b - top)
        if OUTPUT_LSE:
            ct.store(out_lse, (h, s), ct.log(wa + wb) + top)
        x = ct.load(po, (s, h, 0), (1, 1, tile_size), padding_mode=ct.PaddingMode.ZERO)
        y = ct.load(so, (s, h, 0), (1, 1, tile_size), padding_mode=ct.PaddingMode.ZERO)
        ct.store(out, (s, h, 0), (x * wa + y * wb) / (wa + wb))
''')


def test_set_p_is_given_by_its_checkout_and_its_host_imports_are_stood_in(checkout, tmp_path):
    """Set P's `along` checkout names set P among the given sets; its `_17_MAS.py` imports
    triton.language and a module `Optional` that exists nowhere: a stand-in with those imports runs
    through `run --mock` with no bounds report, and the stand-ins are gone afterwards."""
    root = tmp_path / "along_checkout"
    (root / "cutile-examples").mkdir(parents=True)
    (root / "cutile-examples" / "_17_MAS.py").write_text(MERGE)
    assert "P" not in cv.given_sets()
    name = next(c.name for c in cv.cases(with_upstream=True) if c.kernel == "ct_merge_attention_states")
    folder, out = str(tmp_path / "prepared"), str(tmp_path / "run.json")
    _prepared(folder, next(c for c in cv.cases(with_upstream=True) if c.name == name))
    try:
        cv.main(["run", folder, "--mock", "--json", out, "--repo", f"along={root}"])
        assert "P" in cv.given_sets()
        result = json.load(open(out))["cases"]
        assert result[name]["mock"] and result[name]["reports"] == 0, result
        for host in ("triton.language", "Optional"):
            assert host not in sys.modules
    finally:
        for mod in [m for m in sys.modules if m.startswith("costval_along")]:
            del sys.modules[mod]
        cv.REPOS.clear()


GROUPED = textwrap.dedent('''
    import cuda.tile as ct

    @ct.kernel
    def _mxfp8_grouped_quant_cutile_persistent_prefix(x, sizes, row_offsets, scale_offsets, prefix, out, scales):
        groups = sizes.shape[0]
        rows = ct.load(sizes, (0, 0), shape=()).item()                 # every group's size: fill
        per_group = ct.load(prefix, (1,), shape=()).item()             # the prefix table's step: ramp
        last = ct.load(row_offsets, (groups - 1,), shape=()).item() + rows - 1
        top = ct.load(prefix, (groups,), shape=()).item() // per_group * rows - 1
        ct.store(out, (last, 0), ct.astype(ct.load(x, (top, 0), shape=(1, 128)), out.dtype))
''')


def test_set_p_grouped_inputs_fill_and_ramp_lay_out_equal_groups(checkout, tmp_path):
    """Set P's grouped MXFP8 case states equal groups with inits `fill:V` (sizes) and `ramp:S`
    (offsets, prefix table): a stand-in kernel that finds the last row from them stays in bounds
    under `run --mock` only if those arrays hold what the case says."""
    root = tmp_path / "flashinfer_checkout"
    folder_in = root / "flashinfer" / "quantization" / "kernels" / "cutile"
    folder_in.mkdir(parents=True)
    (folder_in / "mxfp8_grouped_quantize_cutile.py").write_text(GROUPED)
    case = next(c for c in cv.cases(with_upstream=True)
                if c.kernel == "_mxfp8_grouped_quant_cutile_persistent_prefix" and not c.launch)
    assert {a.init.split(":")[0] for a in case.args} >= {"fill", "ramp"}
    folder, out = str(tmp_path / "prepared"), str(tmp_path / "run.json")
    _prepared(folder, case)
    try:
        cv.main(["run", folder, "--mock", "--json", out, "--repo", f"flashinfer={root}"])
        result = json.load(open(out))["cases"]
        assert result[case.name]["mock"] and result[case.name]["reports"] == 0, result
    finally:
        for mod in [m for m in sys.modules if m.startswith("costval_flashinfer")]:
            del sys.modules[mod]
        cv.REPOS.clear()


WINDOWED = textwrap.dedent('''
    import cuda.tile as ct
    import torch                                            # host-only: stood in while this loads
    from tilegym.backend import register_impl
    from tilegym.experimental import experimental_kernel

    ConstInt = ct.Constant[int]


    @experimental_kernel                                    # a marker: must hand the kernel back
    @ct.kernel(occupancy=2)
    def _swa_fwd_kernel(Q, K, V, Out, qk_scale: float, seq_k: int, window_size: int, stride_q: int,
                        stride_kv: int, TILE_M: ConstInt, TILE_N: ConstInt, TILE_D: ConstInt,
                        CAUSAL: ct.Constant[bool]):
        row = ct.bid(1) * stride_q + ct.bid(0)               # a query tile of a head in the flat buffer
        q = ct.load(Q, index=(row, 0), shape=(TILE_M, TILE_D))
        ct.store(Out, index=(row, 0), tile=ct.astype(q * qk_scale, Out.dtype))


    @register_impl("swa", backend="cutile")
    def tile_swa_attention(q, k, v):
        return q
''')


def test_set_q_is_given_by_its_checkout_and_tilegym_markers_hand_kernels_back(checkout, tmp_path):
    """Set Q's `gym` checkout (TileGym) names set Q among the given sets; its experimental files
    import tilegym's host modules and mark kernels with `@experimental_kernel`: the stand-ins
    (a mapping of module to attributes) hand the kernel back, so it runs through `run --mock` with
    its case's grid and no bounds report, and the stand-ins are gone afterwards."""
    root = tmp_path / "gym_checkout"
    folder_in = root / "src" / "tilegym" / "ops" / "cutile" / "experimental"
    folder_in.mkdir(parents=True)
    (folder_in / "swa_attention.py").write_text(WINDOWED)
    assert "Q" not in cv.given_sets()
    case = next(c for c in cv.cases(with_upstream=True) if c.kernel == "_swa_fwd_kernel" and not c.launch)
    assert case.name.startswith("Q_")
    _mock_run_without_reports(tmp_path, [case], {"gym": root}, "Q")
    for host in ("tilegym", "tilegym.backend", "tilegym.experimental"):
        assert host not in sys.modules


def _mock_run_without_reports(tmp_path, cases, repos: dict, letter: str) -> None:
    """`run --mock` of the cases with each checkout given as `--repo name=root`: each checkout alone
    names the cases' set among the given ones, and every case runs with no bounds report."""
    for repo, root in repos.items():
        cv.REPOS[repo] = str(root)
        assert letter in cv.given_sets()
        cv.REPOS.clear()
    folder, out = str(tmp_path / "prepared"), str(tmp_path / "run.json")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "cases.json"), "w") as f:
        json.dump([case_json(c) for c in cases], f)
    try:
        given = [a for repo, root in repos.items() for a in ("--repo", f"{repo}={root}")]
        cv.main(["run", folder, "--mock", "--json", out] + given)
        result = json.load(open(out))["cases"]
        for c in cases:
            assert result[c.name]["mock"] and result[c.name]["reports"] == 0, result
    finally:
        for mod in [m for m in sys.modules if m.startswith(tuple(f"costval_{r}" for r in repos))]:
            del sys.modules[mod]
        cv.REPOS.clear()


SILU_DEMO = textwrap.dedent('''
    import torch
    import cuda.tile as ct

    ONE = 1.0                                               # read by the kernel: must be defined

    @ct.kernel
    def silu_fuse_mul(x, gate, o, tile_size: ct.Constant):
        i = ct.bid(0)
        tx = ct.load(x, (i,), (tile_size,)).astype(ct.float32)
        tg = ct.load(gate, (i,), (tile_size,)).astype(ct.float32)
        ct.store(o, (i,), (tx * (ONE / (ONE + ct.exp(-tg)))).astype(o.dtype))

    x = torch.ones([128, 1024], dtype=torch.bfloat16)                    # the demo (on a GPU, in the source)
    raise RuntimeError("the demo ran at import")
''')


def test_set_r_is_given_by_its_checkout_and_demo_files_load_only_their_definitions(checkout, tmp_path):
    """Set R's `along` checkout names set R among the given sets; its exercises launch a demo on
    the GPU when imported, after their kernels: only the statements through the last definition
    run (a constant above the kernel included, the demo not), so the kernel runs through
    `run --mock` with its case's grid and no bounds report, and its front end reads its source."""
    root = tmp_path / "along_checkout"
    (root / "cutile-examples").mkdir(parents=True)
    (root / "cutile-examples" / "_12_silu&mul.py").write_text(SILU_DEMO)
    assert "R" not in cv.given_sets()
    case = next(c for c in cv.cases(with_upstream=True) if c.kernel == "silu_fuse_mul" and not c.launch)
    assert case.name.startswith("R_")
    _mock_run_without_reports(tmp_path, [case], {"along": root}, "R")
    from cost_setm import load_checkout
    with pytest.raises(RuntimeError, match="the demo ran"):        # imported whole, the demo runs
        load_checkout("along", str(root), "cutile-examples/_12_silu&mul.py")
    for mod in [m for m in sys.modules if m.startswith("costval_along")]:
        del sys.modules[mod]


MHC_DEMO = textwrap.dedent('''
    import torch
    import torch.nn as nn
    import cuda.tile as ct

    torch.cuda.empty_cache()                 # allocator calls above the kernels (stood in without torch)


    @ct.kernel
    def ApplyPreTransform_Kernel(X, H_pre, O, tile_size: ct.Constant):
        block_m, block_y = ct.bid(0), ct.bid(1)
        tile_x = ct.load(X, (block_m, 0, block_y), (1, 4, tile_size))
        tile_h = ct.load(H_pre, (block_m, 0), (1, 4)).reshape((1, 4, 1))
        ct.store(O, (block_m, block_y), ct.sum(tile_h * tile_x, axis=1).reshape((1, tile_size)))


    class mHC(nn.Module):                    # the last definition: a torch module (stood in)
        def __init__(self, dim, n):
            super().__init__()


    MHC = mHC(dim=1024, n=4)
    raise RuntimeError("the demo ran at import")
''')

GEMM_EPILOGUE = textwrap.dedent('''
    import cuda.tile as ct
    import torch
    from cuda.tile.tune import exhaustive_search
    from tilegym.backend import register_impl
    from tilegym.kernel_utils import get_kernel_configs
    from tilegym.ops.cutile.utils import cached_replace_hints


    @ct.kernel
    def _gemm_alpha_beta_kernel(a, b, c, alpha, beta, TRANSPOSE_A: ct.Constant[int], TRANSPOSE_B: ct.Constant[int],
                                BLOCK_M: ct.Constant[int], BLOCK_N: ct.Constant[int], BLOCK_K: ct.Constant[int],
                                GROUP_SIZE_M: ct.Constant[int], EPILOGUE_SUBTILE: ct.Constant[int]):
        # the epilogue alone, C = beta * C, over a persistent loop of output tiles
        num_n = ct.num_tiles(c, axis=1, shape=(BLOCK_M, BLOCK_N))
        total = ct.num_tiles(c, axis=0, shape=(BLOCK_M, BLOCK_N)) * num_n
        for t in range(ct.bid(0), total, ct.num_blocks(0)):
            tile = ct.load(c, index=(t // num_n, t % num_n), shape=(BLOCK_M, BLOCK_N))
            ct.store(c, index=(t // num_n, t % num_n), tile=ct.astype(beta * ct.astype(tile, ct.float32), c.dtype))


    @register_impl("flashinfer.gemm.gemm_alpha_beta", backend="cutile")
    def gemm_alpha_beta(a, b, c, alpha=1.0, beta=0.0):
        return cached_replace_hints(_gemm_alpha_beta_kernel, **get_kernel_configs({}, None))
''')


def test_set_s_is_given_by_its_checkouts_and_their_host_modules_are_stood_in(checkout, tmp_path):
    """Set S reads two checkouts: `along`'s mHC file runs a demo at import after a torch module
    class (only its definitions run, the module's base stood in), and TileGym's suites import the
    autotuner and tilegym host modules beyond set Q's (`tilegym.kernel_utils`,
    `tilegym.ops.cutile.utils`), stood in while the file loads. Either checkout names set S among
    the given sets; both cases run through `run --mock` with their grids and no bounds report, and
    the stand-ins are gone afterwards."""
    along = tmp_path / "along_checkout"
    (along / "cutile-examples").mkdir(parents=True)
    (along / "cutile-examples" / "_18_mHC.py").write_text(MHC_DEMO)
    gym = tmp_path / "gym_checkout"
    suite = gym / "src" / "tilegym" / "suites" / "flashinfer" / "cutile" / "gemm"
    suite.mkdir(parents=True)
    (suite / "gemm_alpha_beta.py").write_text(GEMM_EPILOGUE)
    assert "S" not in cv.given_sets()
    picked_cases = [next(c for c in cv.cases(with_upstream=True) if c.kernel == kernel and not c.launch)
                    for kernel in ("ApplyPreTransform_Kernel", "_gemm_alpha_beta_kernel")]
    assert all(c.name.startswith("S_") for c in picked_cases)
    _mock_run_without_reports(tmp_path, picked_cases, {"along": along, "gym": gym}, "S")
    for host in ("tilegym", "tilegym.kernel_utils", "tilegym.ops.cutile.utils"):
        assert host not in sys.modules


FP8_LINEAR_DEMO = textwrap.dedent('''
    import cuda.tile as ct
    import torch


    @ct.kernel
    def linear(x, wT, o, sx, swT, tileM: ct.Constant, tileN: ct.Constant, tileK: ct.Constant):
        # the epilogue's scales alone: one per row block times one per column block
        bx, by = ct.bid(0), ct.bid(1)
        scale = ct.load(sx, (bx,), (1,)) * ct.load(swT, (by,), (1,))
        ct.store(o, (bx, by), (ct.full((tileM, tileN), 1.0, dtype=ct.float32) * scale).astype(ct.bfloat16))


    x = torch.rand(size=[4096, 4096], device="cuda")          # the demo (on a GPU, in the source)
    raise RuntimeError("the demo ran at import")
''')

SOBEL_HOST_IMPORTS = textwrap.dedent('''
    import argparse
    from paths import resolve_project_path
    import cv2
    import cupy as cp
    import cuda.tile as ct

    from gaussian_benchmark import load_grayscale_image
    from sobel_benchmark import normalize_to_uint8, sobel_cpu


    @ct.kernel
    def sobel_magnitude_from_neighbors_cutile(top_left, top_center, top_right, middle_left, middle_right,
                                              bottom_left, bottom_center, bottom_right, magnitude_output,
                                              tile_size: ct.Constant[int]):
        # the top row's horizontal difference alone
        i = ct.bid(0)
        d = ct.load(top_right, (i,), (tile_size,)) - ct.load(top_left, (i,), (tile_size,))
        ct.store(magnitude_output, (i,), ct.sqrt(d * d))
''')


def test_set_t_is_given_by_its_checkouts_demo_files_and_host_imports_are_stood_in(checkout, tmp_path):
    """Set T reads four checkouts: ZhangZhiPku's FP8 linear file runs a demo at import after its
    kernel (only its definitions run), and the Canny Sobel file imports the project's own host
    modules and OpenCV (`paths`, `cv2`, `gaussian_benchmark`, `sobel_benchmark`), stood in while the
    file loads. Each checkout names set T among the given sets; both cases run through `run
    --mock` with their grids and no bounds report, and the stand-ins are gone afterwards."""
    zzp = tmp_path / "zzp_checkout"
    zzp.mkdir()
    (zzp / "_08_linear_fp8_perchannel.py").write_text(FP8_LINEAR_DEMO)
    canny = tmp_path / "canny_checkout"
    (canny / "src" / "gpu").mkdir(parents=True)
    (canny / "src" / "gpu" / "sobel_cutile_benchmark.py").write_text(SOBEL_HOST_IMPORTS)
    assert "T" not in cv.given_sets()
    picked_cases = [next(c for c in cv.cases(with_upstream=True) if c.kernel == kernel and not c.launch)
                    for kernel in ("linear", "sobel_magnitude_from_neighbors_cutile")]
    assert all(c.name.startswith("T_") for c in picked_cases)
    for repo in ("typeviz", "fla"):                  # the checkouts whose files these cases do not read
        cv.REPOS[repo] = str(tmp_path)
        assert "T" in cv.given_sets()
        cv.REPOS.clear()
    _mock_run_without_reports(tmp_path, picked_cases, {"zzp": zzp, "canny": canny}, "T")
    for host in ("paths", "cv2", "gaussian_benchmark", "sobel_benchmark"):
        assert host not in sys.modules


MXFP8_FORK = textwrap.dedent('''
    import cuda.tile as ct
    import torch

    from tilegym.backend import register_impl

    ConstInt = ct.Constant[int]


    @ct.kernel
    def silu_and_mul_mxfp8_kernel_padded(input, output_quantized, output_scales, PADDED_SIZE: ConstInt,
                                         hidden_size: ConstInt, num_groups: ConstInt,
                                         padded_num_groups: ConstInt, GROUP_SIZE: ConstInt):
        # the quantisation alone: the row's first half in groups scaled to their largest magnitude
        row = ct.bid(0)
        cols = ct.arange(PADDED_SIZE, dtype=torch.int32)
        groups = ct.reshape(ct.astype(ct.gather(input, (row, cols)), torch.float32), (padded_num_groups, GROUP_SIZE))
        scales = ct.maximum(ct.max(ct.maximum(groups, -groups), 1, keepdims=True) / 448.0, 1e-12)
        quantized = ct.astype(groups / scales, torch.float8_e4m3fn)
        ct.scatter(output_quantized, (row, cols), ct.reshape(quantized, (PADDED_SIZE,)))
        ct.scatter(output_scales, (row, ct.arange(padded_num_groups, dtype=torch.int32)),
                   ct.reshape(scales, (padded_num_groups,)))


    @register_impl("silu_and_mul_mxfp8", backend="cutile")
    def silu_and_mul_mxfp8(x):
        return x
''')

LAYERNORM_CUPY = textwrap.dedent('''
    import cuda.tile as ct
    import cupy as cp


    def get_stream():
        return cp.cuda.get_current_stream().ptr


    @ct.kernel
    def layernorm_kernel(x, weight, bias, output, eps: ct.Constant[float], hidden_size: ct.Constant[int]):
        # the centring alone
        pid = ct.bid(0)
        row = ct.load(x, index=(pid, 0), shape=(1, hidden_size))
        ct.store(output, index=(pid, 0), tile=row - ct.sum(row) / hidden_size)
''')


def test_set_u_is_given_by_its_checkouts_and_its_host_imports_and_torch_dtypes_are_stood_in(checkout, tmp_path):
    """Set U reads three checkouts: the course's layers import CuPy and the TileGym fork's files
    `tilegym.backend`, stood in while a file loads, and the fork's MXFP8 kernel names torch's
    float8_e4m3fn, which the stand-in torch gives as torch prints it. Each checkout names set U among
    the given sets; both cases run through `run --mock` with their grids and no bounds report, and
    the stand-ins are gone afterwards."""
    edin = tmp_path / "edin_checkout"
    (edin / "hw1-asr" / "glm_asr_cutile_example").mkdir(parents=True)
    (edin / "hw1-asr" / "glm_asr_cutile_example" / "layers.py").write_text(LAYERNORM_CUPY)
    lessw = tmp_path / "lessw_checkout"
    (lessw / "src" / "tilegym" / "ops" / "cutile").mkdir(parents=True)
    (lessw / "src" / "tilegym" / "ops" / "cutile" / "silu_and_mul_mxfp8_v2.py").write_text(MXFP8_FORK)
    assert "U" not in cv.given_sets()
    picked_cases = [next(c for c in cv.cases(with_upstream=True) if c.kernel == kernel and not c.launch)
                    for kernel in ("layernorm_kernel", "silu_and_mul_mxfp8_kernel_padded")]
    assert all(c.name.startswith("U_") for c in picked_cases)
    cv.REPOS["gym"] = str(tmp_path)                  # the checkout whose files these cases do not read
    assert "U" in cv.given_sets()
    cv.REPOS.clear()
    _mock_run_without_reports(tmp_path, picked_cases, {"edin": edin, "lessw": lessw}, "U")
    for host in ("cupy", "tilegym", "tilegym.backend"):
        assert host not in sys.modules


@pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")
def test_facts_mixes_the_cubins_facts_into_the_estimate(checkout, tmp_path, capsys):
    """`facts` scores the estimate with groups of facts taken from each cubin; with every fact
    taken, the prediction is the cubin's own."""
    import costval_facts
    folder = str(tmp_path / "prepared")
    cv.main(["prepare", "--out", folder, "--only", CASE, "--repo", f"kernels={checkout}"])
    case = next(c for c in cv.cases() if c.name == CASE + "_launch")
    with open(os.path.join(folder, case.name + ".cubin"), "rb") as f:
        ratios = costval_facts._ratios(case, 100.0, cv.kernel_of, f.read(), "h200")
    assert ratios["every fact"] == pytest.approx(ratios["cubin"])
    assert ratios["estimate"] > 0 and set(ratios) == {"estimate", "cubin", *dict(costval_facts.GROUPS)}
    capsys.readouterr()
    cv.main(["facts", "--cubins", folder, "--repo", f"kernels={checkout}"])
    out = capsys.readouterr().out
    assert out.startswith("2 goal launches with their cubin.")      # the case dynamic and as launched
    cubin_score = out.split("- with the cubin: ")[1].splitlines()[0]
    assert f"  - every fact: {cubin_score}" in out
    cv.REPOS.clear()


def test_a_two_letter_set_is_given_by_its_checkout_and_lists_only_its_cases(checkout, monkeypatch):
    """Set AA, read from TileBench's checkout, is named by two letters: `--tilebench` names it with
    sets F-J, and listing the sets given picks its cases (all `AA_`, dynamic and launched in
    pairs) without taking set A's name for part of it or its name for set A's."""
    assert "AA" not in cv.given_sets()
    monkeypatch.setattr(cv, "TILEBENCH", "/some/tilebench")
    assert cv.given_sets() == ("F", "G", "H", "I", "J", "AA", "AB", "AC", "AD", "AE")
    names = {c.name for c in cv.cases(small=True)}
    only_aa = {c.name for c in cv.all_cases(8, ("AA",))}
    aa = {n for n in names if n.startswith("AA_")}
    assert aa and aa <= only_aa and not any(n.startswith(("F_", "J_")) for n in only_aa)
    assert {n[:-len("_launch")] for n in aa if n.endswith("_launch")} == {n for n in aa if not n.endswith("_launch")}
    for other in (("A",), ("F",)):
        assert not any(c.name.startswith("AA_") for c in cv.all_cases(8, other))


def test_the_order_of_versions_counts_the_pairs_predicted_in_the_measured_order():
    """Set AB's summary: of three versions measured 1 < 2 < 3 µs, a prediction of 10 < 30 > 20
    orders two of the three pairs as measured and calls the measured fastest fastest; the IR's
    30 > 20 > 10 orders none and calls the slowest fastest."""
    from costval_report import order_line
    line = order_line({"v1": (10.0, 30.0, 1.0), "v2": (30.0, 20.0, 2.0), "v3": (20.0, 10.0, 3.0)})
    assert line == ("with the cubin 2 of 3 pairs in the measured order, fastest v1; "
                    "IR only 0 of 3 pairs in the measured order, fastest v3 (measured fastest v1)")


def test_a_run_timed_on_an_h100_is_predicted_for_the_h100(checkout, tmp_path):
    """The report predicts each measured launch for the GPU its run file records: a run on an H100
    (as the device tool may lend) against the H100's model, others against the H200's."""
    import costval_report
    folder = str(tmp_path / "prepared")
    cv.main(["prepare", "--out", folder, "--only", CASE, "--repo", f"kernels={checkout}"])
    runs = []
    for device in ("NVIDIA H100 80GB HBM3", "NVIDIA H200"):
        path = tmp_path / f"{device.split()[1]}.json"
        path.write_text(json.dumps({"device": {"name": device}, "cases": {CASE: {"us": 100.0, "group": "validate-m"}}}))
        runs.append(str(path))
    assert [costval_report.timed_on(json.load(open(p))) for p in runs] == ["h100", "h200"]
    assert costval_report.timed_on({"cases": {}}) == "h200"          # the runs before devices were recorded
    case = next(c for c in cv.cases() if c.name == CASE)
    with open(os.path.join(folder, CASE + ".cubin"), "rb") as f:
        cubin = f.read()
    on = {gpu: costval_report.case_costs(case, cv.kernel_of, cubin, gpu)[1].predicted_us for gpu in ("h100", "h200")}
    assert on["h100"] != on["h200"]                 # a triad moves its bytes at the DRAM's rate
    for path, gpu in zip(runs, ("h100", "h200")):
        table = costval_report.render([path], cv.cases(), cv.kernel_of, [folder])
        row = next(line for line in table.splitlines() if line.startswith(f"| {CASE} |"))
        assert f"| {on[gpu]:,.1f} |" in row
    cv.REPOS.clear()


def test_a_strided_argument_is_a_view_of_every_step_th_element(monkeypatch):
    """`A(shape, step=S)`: the spec states the stride, the prepared case keeps it, and a run hands
    the kernel a view of every S-th element of a buffer S times as long (run --mock: the executor)."""
    import costval_run
    from costval_case import case_from_json
    from costval_catalog import strided_tile_cases
    case = next(c for c in strided_tile_cases(64) if c.name == "strided_tile_read_f32_4m_s8")
    assert case.spec(concrete=True) == "float32[65536]:[8], float32[65536], 1024"
    assert case.spec(concrete=False) == "float32[?]:[8], float32[?], 1024"
    assert case_from_json(json.loads(json.dumps(case_json(case)))) == case
    seen = []
    monkeypatch.setattr("tilescope.backends.numpy.launcher.run_kernel",
                        lambda grid, kernel, args, checks: seen.append(args) or type("C", (), {"reports": []})())
    costval_run._mock_one(case, lambda c: None)
    x, out = seen[0][:2]
    assert x.shape == (65536,) and x.strides == (32,) and x.base is not None and x.base.shape == (65536 * 8,)
    assert out.strides == (4,)
