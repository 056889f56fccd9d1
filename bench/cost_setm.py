"""Validation set M: twelve kernels of three public cuTile repositories that no earlier set (A-L)
used, chosen for the variety of what people write with cuTile and fixed before any prediction
for them was looked at (the model frozen first, the predictions committed before the device run).

- Menooker/cutile-transformers (cutile/ops at 78ce3e0, `--repo transformers=DIR`), Qwen2.5 in
  cuTile, float16:
  - `attention_prefill.py` `fmha_kernel`: causal prefill attention with grouped-query heads,
    queries and output in (batch, sequence, heads, dim) layout, keys loaded transposed with
    `order=`, `latency=` hints, `@ct.kernel(occupancy=2)`; its launch's 64x64 tiles;
  - `matmul_silu_mul.py` `matmul_silu_mul`: the MLP's gate and up projections in one kernel (two
    `mma` per K step against transposed weight tiles, SiLU(a) * b epilogue), 64x64x128 tiles;
  - `matmul.py` `matmul`: the down projection as its MLP calls it (weights transposed, the
    residual added as a bias tile, 32x32x128 tiles, `latency=` 4 and 1; its `swizzle` parameter
    is a runtime bool, not a constant: its default value is `ct.Constant[bool]`);
  - `matmul_silu_mul.py` `gemv_silu_mul_split_k_kernel`: the decode MLP (one token) with split K:
    the token row padded to a 16-row tile for the tensor cores, partial sums by `atomic_add`, an
    arrival counter, and the last block of each column tile applying SiLU(a) * b with
    gather/scatter and clearing the accumulators (tile_n 32, tile_k 64, 8 splits);
  - `silu_and_mul.py` `silu_and_mul`: one row per block, both halves gathered with
    `check_bounds`, the tile the next power of two of the hidden size (8,960 -> 16,384).
- DevTechJr/turboquant_cutile (turboquant_cutile at 9f9a321, `--repo turboquant=DIR`), a
  compressed KV cache (3-bit codebook + 1-bit signs), head dim 128, BLOCK_S 64, BLOCK_Q 16:
  - `compress.py` `turboquant_compress_3bit`: per 64 keys, the row norms, three chained 64x128x128
    `mma` (rotate, un-rotate the quantised codes, project the residual) and seven-way thresholds,
    stored as uint8 codes, int8 signs and float16 norms;
  - `attention.py` `turboquant_attention_scores`: per 16 queries, two `mma` per 64-key tile
    (against the keys and the int8 signs, both transposed), writing the float32 score matrix;
  - `attention.py` `turboquant_fused_attention_vfused_3bit`: the same scores with an online
    softmax, each 64-key tile of values decompressed in the loop (codes -> centroids, a 64x128x128
    `mma` by the rotation, norms) before the P V `mma`; `@ct.kernel(occupancy=2)`.
- tavakkoliamirmohammad/cutile-kernels (repository root at 8c3234e, `--repo kernels=DIR`),
  float32 (its default precision), tile sizes from each benchmark's list:
  - `stencil1d.py` `stencil_1d_kernel` (3-point stencil, tile 1024), `norm1.py` `norm1_kernel`
    (L1 norm, every block `atomic_add`-ing into one float, tile 4096), `babelstream.py` `k_triad`
    (tile 512) and `transpose.py` `transpose_kernel` (16x16 tiles).

Each kernel is built dynamically shaped (`validate-m`) and as tilescope's launch builds it
(`validate-m-launch`), as sets G-L. Nothing is copied here: the files are read from the
checkouts (`load_checkout`: package-relative imports resolved inside the checkout, torch, triton
and cuda.tile_experimental stood in; the kernels use only cuda.tile). Grids and constants are
those of each source's launch code; sizes are the sources' own where they fill the H200
(cutile-kernels' largest benchmark sizes), otherwise common model shapes (named per case): Qwen2.5-1.5B's
(the model cutile-transformers runs) for the prefill kernels, Qwen2.5-72B's for the decode GEMV
(1.5B's weights are read in microseconds), and for TurboQuant 2,097,152 cached keys (32 layers x 8
KV heads x 8,192 tokens) to compress and 4,096 queries against 32,768 compressed keys.
Arguments that differ from the source's launch in memory only: the stencil's left, centre and
right inputs are three arrays, where the source passes three views of one array offset by one
element; index-like arrays (codes, signs) are random in their range. The codebook constants are
the Lloyd-Max levels of a unit normal scaled by 1/sqrt(128), as TurboQuant's codebook computes.
`fmha_kernel` is the repository's modification of TileGym's attention (its own query layout,
grouped heads and launch), not a kernel any earlier set timed.

Every case built (tileiras 13.4, sm_90) and ran on the CPU executor at the small sizes with no
bounds report, and all twelve agreed there with a NumPy reference (largest relative error
5e-4; the split-K GEMV also left its accumulators and counters cleared). None was replaced.

Considered and left out: cutile-transformers' split-K GEMM (`matmul_split_k_kernel`: a spin lock
per output tile) and its decode attention and split-K combine (TileGym's, which sets K and L
timed); cutile-kernels' `fft.py`, `moe.py` and `layernorm.py` (upstream's test kernels, sets C
and K); TurboQuant's 2-bit variants (the 3-bit kernels with fewer thresholds).
"""
from __future__ import annotations

import ast
import importlib.util
import math
import os
import sys
import types
from typing import List

from costval_case import A, Case, K, S

SMS = 132
TF, TQ, CK = "transformers:cutile/ops/", "turboquant:turboquant_cutile/", "kernels:"
COMMITS = {"transformers": "Menooker/cutile-transformers@78ce3e0",
           "turboquant": "DevTechJr/turboquant_cutile@9f9a321",
           "kernels": "tavakkoliamirmohammad/cutile-kernels@8c3234e"}

# Lloyd-Max quantiser of a unit normal, 8 levels (levels and decision boundaries, positive half)
_LEVELS = (0.2451, 0.7560, 1.3439, 2.1520)
_BOUNDS = (0.5006, 1.0500, 1.7479)


def load_checkout(name: str, root: str, rel: str, host_modules=(), definitions_only: bool = False):
    """The module `rel` of a checkout, imported under a package of its own so that its relative
    imports resolve inside the checkout and no package `__init__` (host code) runs; torch,
    triton and cuda.tile_experimental, which only host code uses, are stood in when missing,
    and `host_modules` (names the checkout's host code imports; or a mapping of such names to
    the attributes their stand-ins must hold) while the module executes. `definitions_only`:
    the file runs a demo on the GPU when imported, after its kernels; only its statements up to
    its last function or class definition run (`_through_last_definition`)."""
    from cost_setd import _module, install_torch
    from tilescope.lang.shim import active
    install_torch()
    for optional in ("triton", "cuda.tile_experimental"):
        if optional not in sys.modules:
            try:
                importlib.import_module(optional)    # optional: only the sources' host code uses it
            except ImportError:
                _module(optional)
    package = "costval_" + name.replace("-", "_")
    parts = rel[:-3].split("/")
    for depth in range(len(parts)):
        pkg = ".".join([package] + parts[:depth])
        if pkg not in sys.modules:
            stub = types.ModuleType(pkg)
            stub.__path__ = [os.path.join(root, *parts[:depth])]
            sys.modules[pkg] = stub
    full = ".".join([package] + parts)
    if full in sys.modules:
        return sys.modules[full]
    spec = importlib.util.spec_from_file_location(full, os.path.join(root, rel))
    module = importlib.util.module_from_spec(spec)
    sys.modules[full] = module
    saved = {m: sys.modules.get(m) for m in host_modules}
    for m in host_modules:
        _module(m, **(host_modules[m] if isinstance(host_modules, dict) else {}))
    try:
        with active():
            if definitions_only:
                exec(_through_last_definition(module.__file__), module.__dict__)
            else:
                spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(full, None)
        raise
    finally:
        for m, before in saved.items():      # the stand-ins leave with the import
            if before is None:
                sys.modules.pop(m, None)
            else:
                sys.modules[m] = before
    return module


def _through_last_definition(path: str):
    """The code of the file's statements up to its last top-level function or class definition,
    compiled under the file's own name so that line numbers (and the source a kernel's front end
    reads back) stay the file's."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    defs = [i for i, node in enumerate(tree.body)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    tree.body = tree.body[:defs[-1] + 1] if defs else []
    return compile(tree, path, "exec")


def _codebook():
    """TurboQuant's 3-bit codebook for head dim 128: 8 centroids, 7 boundaries (as scalars)."""
    sigma = 1 / math.sqrt(128)
    levels = [-x * sigma for x in reversed(_LEVELS)] + [x * sigma for x in _LEVELS]
    bounds = [-x * sigma for x in reversed(_BOUNDS)] + [0.0] + [x * sigma for x in _BOUNDS]
    return [S(v) for v in levels], [S(v) for v in bounds]


def setm_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    k = "validate-m"
    f16, i32, u8, i8 = "float16", "int32", "uint8", "int8"

    # cutile-transformers fmha_kernel (fmha_prefill: TILE_M 64, TILE_N 64, causal, EVEN_K): Qwen2.5-1.5B's
    # 12 query heads sharing 2 KV heads of 128, 8 prompts of 4,096 tokens
    b, s, hq, hkv, dh = 8 // d, 4096 // d, 12, 2, 128
    add(Case("M_fmha_prefill_gqa_f16_8x4096x12q2kv", k, TF + "attention_prefill.py", "fmha_kernel",
             [A((b, s, hq, dh), f16), A((b, hkv, s, dh), f16), A((b, hkv, s, dh), f16),
              A((b, s, hq, dh), f16, "zeros"), S(1 / math.sqrt(dh)), S(0, i32), K(dh), K(hq), K(64), K(64),
              K(hq // hkv), K(True), K(True)], (s // 64, b * hq)))

    # cutile-transformers matmul_silu_mul (launch_matmul_silu_mul: 64x64x128, approx as its MLP
    # calls it): Qwen2.5-1.5B's gate/up projections (1,536 -> 8,960) over 4,096 tokens
    tm, hid, inter = 4096 // d // d, 1536, 8960
    add(Case("M_matmul_silu_mul_f16_4096x8960x1536", k, TF + "matmul_silu_mul.py", "matmul_silu_mul",
             [A((tm, hid), f16), A((inter, hid), f16), A((inter, hid), f16), A((tm, inter), f16, "zeros"),
              K(64), K(64), K(128), K(True)], ((tm // 64) * (inter // 64),)))

    # cutile-transformers matmul as its MLP's down projection (launch_matmul's defaults 32x32x128,
    # latencyAB 4, latencyC 1, transb, ACT_BIAS with the residual, swizzle False): 8,960 -> 1,536
    add(Case("M_matmul_bias_transb_f16_4096x1536x8960", k, TF + "matmul.py", "matmul",
             [A((tm, inter), f16), A((hid, inter), f16), A((tm, hid), f16, "zeros"), A((tm, hid), f16),
              K(32), K(32), K(128), K(True), K(3), K(4), K(1), S(False, "bool")], ((tm // 32) * (hid // 32),)))

    # cutile-transformers gemv_silu_mul_split_k_kernel (launch_gemv_silu_mul: tile_n 32, tile_k 64,
    # split_k 8, approx False): one decode token through Qwen2.5-72B's gate/up (8,192 -> 29,568)
    ntile, kd = 924 // d, 8192 // d
    nd = ntile * 32
    add(Case("M_gemv_silu_mul_splitk_f16_29568x8192", k, TF + "matmul_silu_mul.py", "gemv_silu_mul_split_k_kernel",
             [A((1, kd), f16), A((nd, kd), f16), A((nd, kd), f16), A((1, nd), f16, "zeros"), A((2, nd), init="zeros"),
              A((ntile,), i32, "zeros"), K(32), K(64), K(8), K(False)], (ntile, 8)))

    # cutile-transformers silu_and_mul (launch_silu_and_mul: one row per block, TILE_SIZE the next
    # power of two of the hidden size, approx): Qwen2.5-1.5B's 8,960, 16,384 tokens
    rows = 16384 // d // d
    add(Case("M_silu_and_mul_gather_f16_16384x8960", k, TF + "silu_and_mul.py", "silu_and_mul",
             [A((rows, 2 * inter), f16), A((rows, inter), f16, "zeros"), K(16384), S(inter, i32), K(True)],
             (rows,)))

    # TurboQuant turboquant_compress_3bit (launch_compress_keys, mse_bits 3: grid cdiv(seq, 64)):
    # 2,097,152 key vectors (32 layers x 8 KV heads x 8,192 tokens)
    levels, bounds = _codebook()
    nk = (1 << 21) // d // d
    add(Case("M_turboquant_compress_3bit_f16_2M", k, TQ + "compress.py", "turboquant_compress_3bit",
             [A((nk, 128), f16), A((128, 128), f16), A((128, 128), f16), A((128, 128), f16),
              A((nk, 128), u8, "zeros"), A((nk, 128), i8, "zeros"), A((nk,), f16, "zeros"), A((nk,), f16, "zeros")]
             + levels + bounds + [S(nk, i32)], (nk // 64,)))

    # TurboQuant turboquant_attention_scores (launch_attention_scores, use_swizzle False: grid
    # cdiv(seq_q, 16)): 4,096 queries against 32,768 compressed keys, float32 scores
    sq, sk = 4096 // d, 32768 // d // d
    scale, corr = S(1 / math.sqrt(128)), S(math.sqrt(math.pi / 2) / 128)
    q_k = [A((sq, 128), f16), A((sk, 128), f16), A((sk, 128), i8, "index:2"), A((sk,), f16), A((sq, 128), f16)]
    add(Case("M_turboquant_scores_f16_4096x32768", k, TQ + "attention.py", "turboquant_attention_scores",
             q_k + [A((sq, sk), init="zeros"), scale, corr, S(sk, i32), K(False)], (sq // 16,)))

    # TurboQuant turboquant_fused_attention_vfused_3bit (launch_fused_attention, total_bits 3 as its
    # 3-bit values, use_swizzle False): the same queries and keys, 3-bit values decompressed in the loop
    add(Case("M_turboquant_fused_attn_v3bit_f16_4096x32768", k, TQ + "attention.py",
             "turboquant_fused_attention_vfused_3bit",
             q_k + [A((sk, 128), u8, "index:8"), A((sk,), f16), A((128, 128), f16), A((sq, 128), init="zeros"),
                    scale, corr, S(sk, i32)] + levels + [K(False)], (sq // 16,)))

    # cutile-kernels stencil_1d_kernel: its largest N (2^27), tile 1024
    n = (1 << 27) // d // d
    add(Case("M_stencil1d_f32_2p27_t1024", k, CK + "stencil1d.py", "stencil_1d_kernel",
             [A((n,)), A((n,)), A((n,)), A((n,), init="zeros"), K(1024)], (n // 1024,)))

    # cutile-kernels norm1_kernel (the atomic variant): its largest N (2^27), tile 4096
    add(Case("M_norm1_atomic_f32_2p27_t4096", k, CK + "norm1.py", "norm1_kernel",
             [A((n,)), A((1,), init="zeros"), K(4096)], (n // 4096,)))

    # cutile-kernels babelstream k_triad (SCALAR 0.4): its largest N (2^25), tile 512
    nt = (1 << 25) // d // d
    add(Case("M_triad_f32_2p25_t512", k, CK + "babelstream.py", "k_triad",
             [A((nt,), init="zeros"), A((nt,)), A((nt,)), S(0.4), K(512)], (nt // 512,)))

    # cutile-kernels transpose_kernel: its largest N (8,192), 16x16 tiles
    t = 8192 // d
    add(Case("M_transpose_f32_8192_t16", k, CK + "transpose.py", "transpose_kernel",
             [A((t, t)), A((t, t), init="zeros"), K(16), K(16)], (t // 16, t // 16)))

    for x in list(out):
        add(x.launched("validate-m-launch"))
    return out
